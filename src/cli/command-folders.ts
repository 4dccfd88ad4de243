import { isAbsolute, resolve } from 'node:path'

/** One simple command of a chain: where it is in the command, and the folder it runs in (undefined: one the guard cannot know). */
export interface CommandPart {
  start: number
  end: number
  folder: string | undefined
}

/** The folders a command's parts run in, by the `cd`s before them (commandFolders). */
export interface CommandFolders {
  parts: CommandPart[]
  /** Each `cd` (or `pushd`, `popd`) the guard could not follow, as written, and why. */
  unfollowed: string[]
}

/** Words that open or close a compound command, or come before a command inside one. */
const OPENERS = new Set(['if', 'while', 'until', 'for', 'case', 'select', 'function'])
const CLOSERS = new Set(['fi', 'done', 'esac'])
const LEADING = new Set(['then', 'do', 'else', 'elif', '!', 'time'])
const CHANGERS = new Set(['cd', 'pushd', 'popd'])

/** At most this many parts are followed: a longer chain's rest is taken as run in a folder not known. */
const MAX_PARTS = 1000

/**
 * The simple commands of a shell chain (split at `&&`, `||`, `;`, `|`, `&` and newlines outside
 * quotes, `( … )`, `$( … )`, backticks, `${ … }` and heredoc bodies), each with the folder it runs
 * in as Bash runs it from `cwd`: a `cd DIR`, `cd -- DIR`, `cd -`, `pushd DIR` or `popd` moves the
 * parts after it, DIR relative to the folder it runs in or absolute, quoted or escaped. A DIR the
 * guard cannot know (`"$DIR"`, `$(…)`, `~/x`, a glob, none: `$HOME`) leaves the parts after it in
 * no known folder, until a `cd` to an absolute path; so does a `cd` inside `if`, a loop or a
 * function. A `cd` in a pipeline or in the background, `( … )`, `bash -c '…'`, runs in a subshell
 * and moves nothing after it. Links are not followed (`..` is taken off the path as written, as
 * Bash's `cd` does). Pure: the path is only resolved, never looked at.
 */
export function commandFolders(command: string, cwd: string): CommandFolders {
  try {
    return followFolders(command, cwd)
  } catch (error) {
    // Quotes and substitutions nested tens of thousands deep (`"$("$(…`) are read by recursion, past
    // the stack: the guard threw, and a Bash call stalled on its crash. The command is checked whole where it starts.
    if (!(error instanceof RangeError)) throw error
    return {
      parts: [{ start: 0, end: command.length, folder: cwd }],
      unfollowed: ['the command nests quotes and substitutions deeper than the guard follows, so it is checked where it starts'],
    }
  }
}

/** Subshells inside subshells followed at most this deep: each level reads its text again. */
const MAX_SUBSHELLS = 16

function followFolders(command: string, cwd: string | undefined, depth = 0): CommandFolders {
  const parts: CommandPart[] = []
  const unfollowed: string[] = []
  let folder: string | undefined = cwd
  let previous: string | undefined
  const stack: Array<string | undefined> = []
  const compound: string[] = []
  /** The folder each open brace group started in. */
  const braces: Array<string | undefined> = []
  const segments = splitChain(command)
  for (const [index, segment] of segments.entries()) {
    if (index >= MAX_PARTS) {
      // The rest as one part, checked where the command starts: said, not followed.
      parts.push({ start: segment.start, end: segments[segments.length - 1]?.end ?? segment.end, folder: undefined })
      unfollowed.push(`the commands after the first ${MAX_PARTS}: more than the guard follows, so they are checked where the command starts`)
      break
    }
    const text = command.slice(segment.start, segment.end)
    // A subshell, `(cd web && rm -rf build)`, as Claude Code often writes one: its parts followed
    // from the folder it starts in, where the whole was checked at the cwd only; its cds move
    // nothing after it.
    const body = depth < MAX_SUBSHELLS ? subshellBody(text) : undefined
    if (body !== undefined) {
      const inside = followFolders(text.slice(body.start, body.end), folder, depth + 1)
      const at = segment.start + body.start
      for (const part of inside.parts) parts.push({ start: at + part.start, end: at + part.end, folder: part.folder })
      unfollowed.push(...inside.unfollowed)
      continue
    }
    parts.push({ start: segment.start, end: segment.end, folder })
    let all = shellWordsOf(text)
    let words = all.map((w) => w.literal ?? w.raw)
    // Keywords before the command: `then cd x`, `{ cd x`, and the compound commands they open.
    for (;;) {
      const first = words[0]
      if (first === undefined) break
      if (first === '{') {
        compound.push('{')
        braces.push(folder)
      } else if (first === '}') {
        if (compound[compound.length - 1] === '{') {
          compound.pop()
          // Piped or in the background (`{ cd web; make; } | tail`), the group ran in a subshell:
          // the commands after it run where it started, not in web.
          const before = braces.pop()
          if (segment.subshell) folder = before
        }
        if (compound[compound.length - 1] === 'function') compound.pop()
      } else if (OPENERS.has(first)) compound.push(first)
      else if (CLOSERS.has(first)) compound.pop()
      else if (/^[A-Za-z_][\w-]*\(\)$/.test(first)) compound.push('function')
      else if (words[1] === '()' && /^[A-Za-z_][\w-]*$/.test(first)) {
        compound.push('function')
        words = words.slice(1)
        all = all.slice(1)
      } else if (!LEADING.has(first)) break
      words = words.slice(1)
      all = all.slice(1)
    }
    // Assignments and the builtins that run cd as it is: `FOO=1 cd x`, `builtin cd x`.
    while (words[0] !== undefined && (/^[A-Za-z_]\w*=/.test(words[0]) || words[0] === 'builtin' || words[0] === 'command')) {
      words = words.slice(1)
      all = all.slice(1)
    }
    const name = words[0]
    const changes = name !== undefined && CHANGERS.has(name)
    // A cd where a command begins, in the part or inside it (`(cd web`, `bash -c 'cd web`, a case's `a) cd web`), not a word of a message.
    const mentions = changes || /(^|[;&|()`'"]\s*)(cd|pushd|popd)(\s|$|;|\))/.test(text)
    // A cd run or not, once or many times, by a condition, a loop or a call: the folder after it is not known.
    if (mentions && compound.some((c) => c !== '{')) {
      unfollowed.push(`${clip(text)}: inside if, a loop, case or a function, so the commands after it are checked where the command starts`)
      if (!segment.subshell) folder = undefined
      continue
    }
    if (!changes) {
      // A cd inside a subshell or a shell's script moves nothing after it: what follows it there is checked where the part runs.
      if (mentions) unfollowed.push(`${clip(text)}: a cd inside ( … ), $( … ), bash -c '…' or the like moves nothing after it, so the commands inside are checked where it starts`)
      continue
    }
    // In a pipeline or the background the command runs in a subshell: the folder stays.
    if (segment.subshell) continue
    const args = dropRedirections(all.slice(1))
    const move = (to: string | undefined, why?: string) => {
      if (to === undefined) unfollowed.push(`${clip(text)}: ${why ?? 'a folder the guard cannot know'}, so the commands after it are checked where the command starts`)
      previous = folder
      folder = to
    }
    if (name === 'popd') {
      if (args.length > 0 || stack.length === 0) move(undefined, 'a folder of the directory stack the guard does not know')
      else move(stack.pop())
      continue
    }
    let operands = args
    if (name === 'cd') {
      while (operands[0] !== undefined && /^-[LPe@]+$/.test(operands[0].raw)) operands = operands.slice(1)
    }
    if (operands[0]?.raw === '--') operands = operands.slice(1)
    if (name === 'pushd' && operands.length === 0) {
      // Swaps the two top folders of the stack.
      if (stack.length === 0) move(undefined, 'a folder of the directory stack the guard does not know')
      else {
        const top = stack.pop()
        stack.push(folder)
        move(top)
      }
      continue
    }
    if (operands.length !== 1) {
      move(undefined, operands.length === 0 ? 'the home folder, which the guard does not know' : 'more than one folder')
      continue
    }
    const operand = operands[0] as Word
    if (name === 'cd' && operand.raw === '-') {
      move(previous, 'the folder before, which the guard does not know')
      continue
    }
    if (name === 'pushd' && /^[+-]\d+$/.test(operand.raw)) {
      move(undefined, 'a folder of the directory stack the guard does not know')
      continue
    }
    const dir = operand.literal
    const to = dir === undefined || dir === '' ? undefined : isAbsolute(dir) ? resolve(dir) : folder === undefined ? undefined : resolve(folder, dir)
    if (name === 'pushd') stack.push(folder)
    move(to, dir === undefined || dir === '' ? 'a folder the guard cannot know' : 'a folder relative to one the guard does not know')
  }
  return { parts, unfollowed }
}

/** Where the body of a subshell is, when `text` is one (`( … )`, redirections after it); not `(( … ))`, arithmetic. */
function subshellBody(text: string): { start: number; end: number } | undefined {
  if (text[0] !== '(' || text[1] === '(') return undefined
  const end = skipParens(text, 1)
  if (text[end - 1] !== ')') return undefined
  return { start: 1, end: end - 1 }
}

function clip(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ')
  return trimmed.length > 80 ? `${trimmed.slice(0, 79)}…` : trimmed
}

interface Segment {
  start: number
  end: number
  /** Part of a pipeline, or run in the background: a subshell. */
  subshell: boolean
}

/**
 * The top-level simple commands of `command`, by where they are in it. Quotes, escapes, `( … )`,
 * `$( … )`, `${ … }`, backticks and heredoc bodies are kept inside the command they belong to; a
 * comment ends at its line.
 */
export function splitChain(command: string): Segment[] {
  const segments: Segment[] = []
  let start = 0
  let depth = 0
  let pipedIn = false
  const heredocs: Heredoc[] = []
  const close = (end: number, next: number, operator: string) => {
    const text = command.slice(start, end)
    const pipedOut = operator === '|' || operator === '|&' || operator === '&'
    // White space and line continuations (`\⏎`) around it taken off: a part's last `\` was left a word.
    let from = start
    let to = end
    for (;;) {
      if (from < to && /\s/.test(command[from] as string)) from += 1
      else if (from + 1 < to && command[from] === '\\' && command[from + 1] === '\n') from += 2
      else break
    }
    for (;;) {
      if (to - 1 > from && command[to - 2] === '\\' && command[to - 1] === '\n') to -= 2
      else if (to > from && /\s/.test(command[to - 1] as string)) to -= 1
      else break
    }
    if (from < to) segments.push({ start: from, end: to, subshell: pipedIn || pipedOut })
    pipedIn = operator === '|' || operator === '|&'
    start = next
  }
  let i = 0
  const n = command.length
  while (i < n) {
    const c = command[i] as string
    if (c === '\\') {
      i += 2
      continue
    }
    if (c === "'") {
      const endQuote = command.indexOf("'", i + 1)
      i = endQuote === -1 ? n : endQuote + 1
      continue
    }
    if (c === '"') {
      i = skipDouble(command, i + 1)
      continue
    }
    if (c === '`') {
      i = skipBacktick(command, i + 1)
      continue
    }
    if (c === '$' && command[i + 1] === '{') {
      i = skipBraced(command, i + 2)
      continue
    }
    // Arithmetic, `$(( … ))` or `(( … ))`: its `<<` is a shift, not a heredoc.
    if ((c === '$' && command[i + 1] === '(' && command[i + 2] === '(') || (c === '(' && command[i + 1] === '(')) {
      i = skipArithmetic(command, i + (c === '$' ? 3 : 2))
      continue
    }
    if (c === '(') {
      depth += 1
      i += 1
      continue
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1)
      i += 1
      continue
    }
    if (c === '#' && (i === 0 || /[\s;&|(]/.test(command[i - 1] as string))) {
      const eol = command.indexOf('\n', i)
      i = eol === -1 ? n : eol
      continue
    }
    // A here-string, `<<< word`, is no heredoc: read as one from its second `<`, it took the
    // script's lines after it for a body, and their cds with them.
    if (c === '<' && command[i + 1] === '<' && command[i + 2] === '<') {
      i += 3
      continue
    }
    if (c === '<' && command[i + 1] === '<') {
      i = heredocWord(command, i, heredocs)
      continue
    }
    if (c === '\n' && heredocs.length > 0) {
      const j = skipBodies(command, i + 1, heredocs)
      if (depth === 0) close(j === n ? n : j - 1, j, '\n')
      i = j
      continue
    }
    if (depth === 0) {
      const two = command.slice(i, i + 2)
      if (two === '&&' || two === '||' || two === ';;' || two === '|&') {
        close(i, i + 2, two)
        i += 2
        continue
      }
      if (c === '&' && (command[i + 1] === '>' || command[i - 1] === '>' || command[i - 1] === '<')) {
        i += 1
        continue
      }
      if (c === ';' || c === '|' || c === '&' || c === '\n') {
        if (c === '|' && command[i - 1] === '>') {
          i += 1
          continue
        }
        close(i, i + 1, c)
        i += 1
        continue
      }
    }
    i += 1
  }
  close(n, n, '')
  return segments
}

function skipDouble(command: string, i: number): number {
  while (i < command.length) {
    const c = command[i]
    if (c === '\\') i += 2
    else if (c === '"') return i + 1
    else if (c === '`') i = skipBacktick(command, i + 1)
    else if (c === '$' && command[i + 1] === '(') i = skipParens(command, i + 2)
    else if (c === '$' && command[i + 1] === '{') i = skipBraced(command, i + 2)
    else i += 1
  }
  return i
}

function skipBacktick(command: string, i: number): number {
  while (i < command.length) {
    if (command[i] === '\\') i += 2
    else if (command[i] === '`') return i + 1
    else i += 1
  }
  return i
}

function skipBraced(command: string, i: number): number {
  let depth = 1
  while (i < command.length) {
    const c = command[i]
    if (c === '\\') i += 2
    else if (c === "'") {
      const q = command.indexOf("'", i + 1)
      i = q === -1 ? command.length : q + 1
    } else if (c === '"') i = skipDouble(command, i + 1)
    else if (c === '{') {
      depth += 1
      i += 1
    } else if (c === '}') {
      depth -= 1
      i += 1
      if (depth === 0) return i
    } else i += 1
  }
  return i
}

/** A heredoc whose body is still to come: its delimiter, and whether tabs before it are taken off (`<<-`). */
interface Heredoc {
  word: string
  tabs: boolean
}

/** Reads the delimiter of the heredoc whose `<<` is at `i` into `pending`; returns where its word ends. */
function heredocWord(command: string, i: number, pending: Heredoc[]): number {
  const n = command.length
  const tabs = command[i + 2] === '-'
  let j = i + (tabs ? 3 : 2)
  while (command[j] === ' ' || command[j] === '\t') j += 1
  const wordStart = j
  while (j < n && !/[\s;&|<>()]/.test(command[j] as string)) {
    if (command[j] === "'" || command[j] === '"') {
      const q = command.indexOf(command[j] as string, j + 1)
      j = q === -1 ? n : q + 1
    } else j += 1
  }
  const word = command.slice(wordStart, j).replace(/['"\\]/g, '')
  if (word !== '') pending.push({ word, tabs })
  return j
}

/** Passes over the bodies of the `pending` heredocs, from the line that starts at `j`, each up to its delimiter line. */
function skipBodies(command: string, j: number, pending: Heredoc[]): number {
  const n = command.length
  for (const doc of pending) {
    while (j < n) {
      const eol = command.indexOf('\n', j)
      const line = command.slice(j, eol === -1 ? n : eol)
      j = eol === -1 ? n : eol + 1
      if ((doc.tabs ? line.replace(/^\t+/, '') : line) === doc.word) break
    }
  }
  pending.length = 0
  return j
}

/** Passes over `$( … )` from after its `(`: quotes, nested parentheses and heredoc bodies (an apostrophe in a commit message's). */
function skipParens(command: string, i: number): number {
  if (command[i] === '(') return skipArithmetic(command, i + 1)
  let depth = 1
  const heredocs: Heredoc[] = []
  while (i < command.length) {
    const c = command[i]
    if (c === '<' && command[i + 1] === '<' && command[i + 2] === '<') i += 3
    else if (c === '<' && command[i + 1] === '<') i = heredocWord(command, i, heredocs)
    else if (c === '\n' && heredocs.length > 0) i = skipBodies(command, i + 1, heredocs)
    else if (c === '\\') i += 2
    else if (c === "'") {
      const q = command.indexOf("'", i + 1)
      i = q === -1 ? command.length : q + 1
    } else if (c === '"') i = skipDouble(command, i + 1)
    else if (c === '`') i = skipBacktick(command, i + 1)
    else if (c === '(') {
      depth += 1
      i += 1
    } else if (c === ')') {
      depth -= 1
      i += 1
      if (depth === 0) return i
    } else i += 1
  }
  return i
}

/** Passes over arithmetic from after its `((`, to the `))` that closes it. */
function skipArithmetic(command: string, i: number): number {
  let depth = 2
  while (i < command.length) {
    const c = command[i]
    i += 1
    if (c === '(') depth += 1
    else if (c === ')') {
      depth -= 1
      if (depth === 0) return i
    }
  }
  return i
}

/** A word of a simple command: as written, and as the shell passes it when that needs no expansion. */
interface Word {
  raw: string
  /** Quotes removed and escapes resolved; undefined when the shell would expand it (`$`, a glob, `~`, braces). */
  literal: string | undefined
}

function shellWordsOf(text: string): Word[] {
  const words: Word[] = []
  let i = 0
  const n = text.length
  // A backslash before a newline is no character, where it was read as a word of its own:
  // `cd web \⏎ && make` was a cd to two folders, not followed.
  const joined = (at: number) => text[at] === '\\' && text[at + 1] === '\n'
  while (i < n) {
    while (i < n && (/\s/.test(text[i] as string) || joined(i))) i += joined(i) ? 2 : 1
    if (i >= n) break
    // A comment, to its line's end: `cd web # build there` was a cd to four folders, not followed.
    if (text[i] === '#') {
      const eol = text.indexOf('\n', i)
      i = eol === -1 ? n : eol
      continue
    }
    const start = i
    let literal: string | undefined = ''
    const expands = () => {
      literal = undefined
    }
    if (text[i] === '~') expands()
    while (i < n && !/\s/.test(text[i] as string)) {
      const c = text[i] as string
      if (joined(i)) i += 2
      else if (c === '\\') {
        if (literal !== undefined) literal += text[i + 1] ?? ''
        i += 2
      } else if (c === "'") {
        const q = text.indexOf("'", i + 1)
        const end = q === -1 ? n : q
        if (literal !== undefined) literal += text.slice(i + 1, end)
        i = end + 1
      } else if (c === '"') {
        const end = skipDouble(text, i + 1)
        const inner = text.slice(i + 1, Math.max(i + 1, end - 1))
        if (/[$`]/.test(inner)) expands()
        else if (literal !== undefined) literal += inner.replace(/\\([\\"$`])/g, '$1').replace(/\\\n/g, '')
        i = end
      } else if (c === '$') {
        expands()
        i = text[i + 1] === '(' ? skipParens(text, i + 2) : text[i + 1] === '{' ? skipBraced(text, i + 2) : text[i + 1] === "'" ? text.indexOf("'", i + 2) + 1 || n : i + 1
      } else if (c === '`') {
        expands()
        i = skipBacktick(text, i + 1)
      } else {
        if (/[*?[{]/.test(c)) expands()
        if (literal !== undefined) literal += c
        i += 1
      }
    }
    words.push({ raw: text.slice(start, i), literal })
  }
  return words
}

/** A command's arguments without its redirections (`2>/dev/null`, `> log`, `&>/dev/null`). */
function dropRedirections(words: Word[]): Word[] {
  const kept: Word[] = []
  for (let i = 0; i < words.length; i += 1) {
    // The longest operator first: `>&` read as `>` then `&` kept `/dev/null` of `>& /dev/null` as a folder.
    const redirection = /^(\d+|&)?(>&|<&|&>>?|>>|>\||>|<)(.*)$/.exec((words[i] as Word).raw)
    if (redirection === null) kept.push(words[i] as Word)
    else if (redirection[3] === '') i += 1
  }
  return kept
}
