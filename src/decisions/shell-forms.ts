/**
 * The forms of a shell command that `must_not` patterns are tested against (R-CON-3): the command
 * as written (white space runs made one), then what the shell would run, read as bash reads it.
 * A pattern written for `git push --force` meets `git push '--force'`, `FOO=1 sudo git push
 * --force`, `/usr/bin/git -C repo push --force` and `bash -c "…; git push --force"` as that text.
 * Forms are only added to the command as written, so a pattern that matched it still matches:
 * quoted text (a commit message) is matched as before, since a pattern may be about it
 * (`Co-Authored-By`) and a quoted argument may be code another program runs (`psql -c "DROP …"`).
 * A static reading cannot see through variables, aliases, functions or scripts (`$G push`).
 */

/** Runs of white space made one, the ends trimmed: `git  push\t--force` is `git push --force`. */
export function collapseWhiteSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * A list's parts, rendered, as its form: each line's white space made one, the lines apart by
 * a `;` (unless one ends it already) and a line end, as bash reads a newline ending a command.
 */
export function collapseLines(text: string, asWritten = false): string {
  const lines = text.split(LINE).map(collapseWhiteSpace).filter((l) => l !== '' && (asWritten || l !== ';'))
  return lines.map((l, i) => (i === lines.length - 1 || /[;&]$/.test(l) ? l : `${l} ;`)).join('\n')
}

/**
 * A newline ending a command in a list's parts: made `;` and a line end in its form (collapseLines).
 * A character the command being read does not have (lineMarker): one it has is its own, no line end.
 */
let LINE = '\uFDD0'
/** The first noncharacter, or else private use character, that `text` does not have. */
function lineMarker(text: string): string {
  for (let cp = 0xfdd0; ; cp = cp === 0xfdef ? 0xf0000 : cp + 1) {
    const marker = String.fromCodePoint(cp)
    if (!text.includes(marker)) return marker
  }
}
/** Words that open and close a compound command (`{ … }`, `if … fi`, `do … done`, `case … esac`) where a command begins. */
const OPENING = new Set(['{', 'if', 'do', 'case'])
const CLOSING = new Set(['}', 'fi', 'done', 'esac'])
/** Operators after which a command goes on past the line's end. */
const CONTINUING = new Set(['|', '|&', '&&', '||'])

/** One simple command: its words after quote removal, its redirections, what it reads on stdin. */
interface SimpleCommand {
  words: string[]
  /** The words with a `{` outside quotes, which bash's brace expansion may make several (`{a,b}`, not `'{a,b}'`), and where in the word each such `{` is. */
  braced: Map<string, Set<number>>
  redirections: string[]
  /** Heredoc bodies and here-strings: the script a shell run without `-c` reads. */
  stdin: string[]
  /** Heredoc bodies whose delimiter is unquoted: their `$(…)` and backticks run. */
  expanding: string[]
  /** The command before it in a pipeline (`cat <<EOF | bash`, `echo … | sh`): what it reads. */
  pipedFrom?: SimpleCommand
}

/** How deep shells in shells (`bash -c "eval '…'"`) and substitutions are read. */
const MAX_DEPTH = 6
/** At most this many forms of single commands, and this many characters in all, however the command is built (lists have a budget of their own). */
const MAX_FORMS = 256
/** At most this many steps of what a command runs are forms (`FOO=1 sudo git push`, `sudo git push`), the command run besides. */
const MAX_STEPS = 16
const MAX_CHARACTERS = 400_000
/**
 * At most this many characters of one action are read again (a shell's script, `eval`'s
 * arguments, a backtick substitution, an unquoted heredoc's body), all readings together: four
 * times the longest action checked. Each `eval` or backtick nested in an unclosed `$(` holds the
 * rest of the action, and read again holds every later one: `eval x $(` 24 times (216
 * characters) took 3 s, each 4 more four times as long, and a 100,000-character action ran the
 * service out of memory. Past it, what would be read again is passed over, as past MAX_DEPTH.
 */
const MAX_READ_AGAIN = 400_000

/** What is left of MAX_READ_AGAIN for one action, shared by every reading of it. */
interface ReadBudget {
  left: number
}

/** Whether `text` may be read again, taking its length from the budget when it may. */
function mayReadAgain(budget: ReadBudget, text: string): boolean {
  if (text.length > budget.left) return false
  budget.left -= text.length
  return true
}

const OPERATORS = ['&&', '||', ';;&', ';;', ';&', '|&', ';', '&', '|'] as const
const REDIRECTIONS = ['<<<', '<<-', '&>>', '<<', '>>', '>&', '<&', '&>', '>|', '<>', '<', '>'] as const
/** Runs of characters that stand for themselves, in a word and in text that expands. */
const PLAIN = /[^\s;&|()<>\\'"$`]+/y
const PLAIN_EXPANDING = /[^\\$`"]+/y
const PLAIN_IN_BRACES = /[^\\$`"'}]+/y
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>'])
const RESERVED_AT_START = new Set(['!', '{', '}', 'then', 'do', 'else', 'elif', 'if', 'while', 'until', 'fi', 'done', 'coproc'])
/** How many lists (subshells, `$(…)`) one script may nest before it is no longer read: a stack's worth is far more. */
const MAX_NESTING = 64

/**
 * A reader of bash's grammar, as far as words, quotes, lists and substitutions go. It never
 * throws, and what is nested past its limits is passed over as written, not the rest of the
 * command with it: `$(`×100 before `; git push '--force'` still leaves that command read.
 */
class ShellReader {
  i = 0
  readonly commands: SimpleCommand[] = []
  /** Each list read (the command, each subshell and substitution), rendered with its words unquoted. */
  readonly lists: string[] = []
  private nesting = 0
  /** Where the word readWord read last has a `{` outside quotes (`"{a,b}"{c,d}`: only the second). */
  braced: number[] = []
  /** Where each line after the first begins, as bash reads lines (the line end no `\`, quote, bracket or `|`, `&&`, `||` carries on, past the heredocs it opens), in the outermost list. */
  readonly lineStarts: number[] = []
  private pending: Array<{ delimiter: string; stripTabs: boolean; quoted: boolean; command: SimpleCommand }> = []

  constructor(
    readonly src: string,
    readonly depth: number,
    private readonly budget: ReadBudget = { left: MAX_READ_AGAIN },
  ) {}

  /** Reads a list up to `close` (`)` of a subshell or `$(`), or to the end; returns it rendered. */
  readList(close?: string): string {
    this.nesting++
    const parts: string[] = []
    let command = this.newCommand()
    let rendered: string[] = []
    let piped: SimpleCommand | undefined
    // Compound commands open in this list: a newline in one ends a command (a `;`), not the line, as
    // the whole is one command bash reads past its lines (`{`⏎`curl …`⏎`} | sh`).
    let compound = 0
    const finish = (operator?: string) => {
      const done = command.words.length > 0 || command.redirections.length > 0
      if (done) {
        if (piped !== undefined) command.pipedFrom = piped
        this.commands.push(command)
        // A line marker a word has (a `$'\ufdd0'`, a script decoded) is no line end: U+FFFD in the form.
        parts.push([...rendered].join(' ').replaceAll(LINE, '\uFFFD'.repeat(LINE.length)))
      }
      piped = done && (operator === '|' || operator === '|&') ? command : undefined
      command = this.newCommand()
      rendered = []
    }
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string
      if (c === ' ' || c === '\t') {
        this.i++
        continue
      }
      if (c === '\\' && this.src[this.i + 1] === '\n') {
        this.i += 2
        continue
      }
      if (close !== undefined && c === close) break
      if (c === '\n') {
        this.i++
        // After `|`, `&&` or `||` the command goes on past the line's end, as bash reads it; any other
        // newline ends it, and is a line of its own in a list's form (LINE), where no pattern's `.*`
        // or `[^;&|]*` reaches from one command into the next line's.
        const ended = command.words.length > 0 || command.redirections.length > 0 || !CONTINUING.has(parts.at(-1) ?? '')
        finish()
        const separator = compound > 0 ? ';' : LINE
        if (ended && parts.length > 0 && parts.at(-1) !== LINE && parts.at(-1) !== separator) parts.push(separator)
        this.readHeredocs(close)
        if (ended && compound === 0 && this.nesting === 1) this.lineStarts.push(this.i)
        continue
      }
      // At a word's start, as every character here is: a comment to the end of the line.
      if (c === '#') {
        while (this.i < this.src.length && this.src[this.i] !== '\n') this.i++
        continue
      }
      const operator =
        c === ';' || c === '&' || c === '|' ? OPERATORS.find((o) => this.src.startsWith(o, this.i) && !(o === '&' && this.src[this.i + 1] === '>')) : undefined
      if (operator !== undefined) {
        this.i += operator.length
        finish(operator)
        parts.push(operator)
        continue
      }
      const last = command.words.at(-1)
      if (c === '(' && this.src[this.i - 1] === '=' && last !== undefined && last.endsWith('=') && ASSIGNMENT.test(last)) {
        // An array assigned, `a=(x "y z")`: its elements are words, not a command (their `$(…)` still run).
        const word = `${last}(${this.readArray().join(' ')})`
        command.words[command.words.length - 1] = word
        rendered[rendered.length - 1] = word
        continue
      }
      if (c === '(' && !this.src.startsWith('((', this.i)) {
        const inner = this.readBracketed(this.i)
        finish()
        parts.push(`( ${inner} )`)
        continue
      }
      if (c === ')') {
        // One with no opening here (a `case` pattern): a separator.
        this.i++
        finish()
        continue
      }
      const redirection = c >= '0' && c <= '9' ? (/^\d*/.exec(this.src.slice(this.i, this.i + 4))?.[0] ?? '') : ''
      const op = /[\d<>&]/.test(c) ? REDIRECTIONS.find((r) => this.src.startsWith(r, this.i + redirection.length)) : undefined
      if (op !== undefined && !this.src.startsWith('(', this.i + redirection.length + op.length)) {
        this.i += redirection.length + op.length
        while (this.src[this.i] === ' ' || this.src[this.i] === '\t') this.i++
        const start = this.i
        const target = this.readWord()
        if (op === '<<' || op === '<<-') {
          const raw = this.src.slice(start, this.i)
          this.pending.push({ delimiter: target, stripTabs: op === '<<-', quoted: /['"\\]/.test(raw), command })
        } else if (op === '<<<') {
          command.stdin.push(target)
        }
        command.redirections.push(`${redirection}${op} ${target}`)
        rendered.push(`${redirection}${op} ${target}`)
        continue
      }
      if (this.src.startsWith('((', this.i)) {
        // An arithmetic command, `(( n++ ))`: a word as written.
        const start = this.i
        this.i = this.matching(this.i, '(', ')')
        const word = this.src.slice(start, this.i)
        command.words.push(word)
        rendered.push(word)
        continue
      }
      const before = this.i
      const word = this.readWord()
      if (this.i === before) this.i++
      if (command.words.length === 0 && this.src.slice(before, this.i) === word) {
        if (OPENING.has(word)) compound++
        else if (CLOSING.has(word) && compound > 0) compound--
      }
      command.words.push(word)
      // The same word again (`{ { { …`) adds to its places, not a copy of them: a long run stays linear.
      if (this.braced.length > 0) {
        const places = command.braced.get(word) ?? new Set()
        for (const p of this.braced) places.add(p)
        command.braced.set(word, places)
      }
      rendered.push(word)
    }
    finish()
    this.nesting--
    // A newline is a `;` (LINE): those that end the list or follow another separate nothing.
    while (parts.at(-1) === LINE || parts.at(-1) === ';') parts.pop()
    const list = parts.join(' ').replace(/^(?:\s*;)+/, '')
    if (collapseLines(list) !== '') this.lists.push(collapseLines(list))
    return list
  }

  /** The elements of an array assigned, from its `(` to past its `)`, quotes removed. */
  private readArray(): string[] {
    const elements: string[] = []
    this.i++
    while (this.i < this.src.length && this.src[this.i] !== ')') {
      const c = this.src[this.i] as string
      if (c === ' ' || c === '\t' || c === '\n') {
        this.i++
        continue
      }
      if (c === '#') {
        while (this.i < this.src.length && this.src[this.i] !== '\n') this.i++
        continue
      }
      const before = this.i
      const word = this.readWord()
      if (this.i === before) this.i++
      else elements.push(word)
    }
    this.i++
    return elements
  }

  private newCommand(): SimpleCommand {
    return { words: [], redirections: [], braced: new Map(), stdin: [], expanding: [] }
  }

  /**
   * After a newline, the bodies of the heredocs begun on the line before. In `$( … )` (`close`),
   * a line of the delimiter and the `)` ends the body and the substitution, as bash 5 reads
   * `"$(cat <<'EOF'⏎…⏎EOF)" && git push --force`: the command after it is not body.
   */
  private readHeredocs(close?: string) {
    for (const h of this.pending) {
      const lines: string[] = []
      while (this.i < this.src.length) {
        const end = this.src.indexOf('\n', this.i)
        const line = this.src.slice(this.i, end === -1 ? this.src.length : end)
        const bare = h.stripTabs ? line.replace(/^\t+/, '') : line
        if (close !== undefined && h.delimiter !== '' && bare.startsWith(h.delimiter + close)) {
          this.i += line.length - bare.length + h.delimiter.length
          break
        }
        this.i = end === -1 ? this.src.length : end + 1
        if (bare === h.delimiter) break
        lines.push(bare)
      }
      const body = lines.join('\n')
      h.command.stdin.push(body)
      if (!h.quoted) h.command.expanding.push(body)
    }
    this.pending = []
  }

  /** One word, its quotes removed and escapes resolved; `$(…)` and backticks are read as lists and kept as written. */
  readWord(): string {
    let word = ''
    // Kept here, not on the reader, until the word ends: a substitution in it reads words of its own.
    const braced: number[] = []
    if ((this.src[this.i] === '<' || this.src[this.i] === '>') && this.src[this.i + 1] === '(') {
      const start = this.i
      this.readBracketed(this.i + 1)
      this.braced = []
      return this.src.slice(start, this.i)
    }
    while (this.i < this.src.length) {
      PLAIN.lastIndex = this.i
      const plain = PLAIN.exec(this.src)
      if (plain !== null) {
        for (let j = plain[0].indexOf('{'); j !== -1; j = plain[0].indexOf('{', j + 1)) braced.push(word.length + j)
        word += plain[0]
        this.i += plain[0].length
        continue
      }
      const c = this.src[this.i] as string
      if (WORD_END.has(c)) break
      if (c === '\\') {
        const next = this.src[this.i + 1]
        this.i += 2
        if (next !== undefined && next !== '\n') word += next
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.i + 1)
        const stop = end === -1 ? this.src.length : end
        word += this.src.slice(this.i + 1, stop)
        this.i = stop + 1
      } else if (c === '"' || (c === '$' && this.src[this.i + 1] === '"')) {
        this.i += c === '"' ? 1 : 2
        word += this.readExpanding('"')
        this.i++
      } else if (c === '$' && this.src[this.i + 1] === "'") {
        this.i += 2
        word += this.readAnsiC()
      } else if (c === '$' || c === '`') {
        word += this.readSubstitution(false)
      } else {
        word += c
        this.i++
      }
    }
    this.braced = braced
    return word
  }

  /**
   * Text in which `$(…)`, `${…}` and backticks expand: a double-quoted string's or a `${…}`'s, to
   * `close`, or a heredoc body's, to the end. `quoted`: in double quotes or a heredoc body, where
   * bash reads `$'` in `${…}` as `$` and a single quote, not as `$'…'` (`${x:-$'\''}` unquoted is `'`).
   */
  readExpanding(close?: string, quoted = true): string {
    let text = ''
    const plainRun = close === '}' ? PLAIN_IN_BRACES : PLAIN_EXPANDING
    while (this.i < this.src.length) {
      plainRun.lastIndex = this.i
      const plain = plainRun.exec(this.src)
      if (plain !== null) {
        text += plain[0]
        this.i += plain[0].length
        continue
      }
      const c = this.src[this.i] as string
      if (c === close) break
      if (c === '\\') {
        const next = this.src[this.i + 1]
        if (next === '\n') {
          this.i += 2
          continue
        }
        // In `${…}` any character is escaped, a quote or a brace too: `${s//\'/x}`, `${x:-\}}`.
        if (next !== undefined && (close === '}' || ['$', '`', '"', '\\'].includes(next))) {
          text += next
          this.i += 2
          continue
        }
        text += c
        this.i++
      } else if (c === '$' && close === '}' && !quoted && this.src[this.i + 1] === "'") {
        this.i += 2
        text += this.readAnsiC()
      } else if (c === '$' || c === '`') {
        text += this.readSubstitution(quoted)
      } else if (c === '"' && close === '}') {
        // `${x:-"}"}`: a `}` in quotes does not end the parameter.
        this.i++
        text += this.readExpanding('"')
        this.i++
      } else if (c === "'" && close === '}') {
        // `${x:-'}'}` too: bash reads single quotes in `${…}` as quotes, in double quotes and
        // heredoc bodies as well, and nothing in them expands.
        const end = this.src.indexOf("'", this.i + 1)
        const after = end === -1 ? this.src.length : end + 1
        text += this.src.slice(this.i, after)
        this.i = after
      } else {
        text += c
        this.i++
      }
    }
    return text
  }

  /** `$(…)`, `$((…))`, `${…}`, `` `…` `` or a lone `$`, as written; the commands inside are read. */
  private readSubstitution(quoted: boolean): string {
    const start = this.i
    const c = this.src[this.i]
    if (c === '`') {
      let inner = ''
      this.i++
      while (this.i < this.src.length && this.src[this.i] !== '`') {
        if (this.src[this.i] === '\\' && ['`', '$', '\\'].includes(this.src[this.i + 1] ?? '')) this.i++
        inner += this.src[this.i]
        this.i++
      }
      this.i++
      this.absorb(inner)
      return this.src.slice(start, this.i)
    }
    const next = this.src[this.i + 1]
    if (next === '(' && this.src[this.i + 2] === '(') {
      this.i = this.matching(this.i + 1, '(', ')')
    } else if (next === '(') {
      this.readBracketed(this.i + 1)
    } else if (next === '{' && this.nesting < MAX_NESTING) {
      // `${x:-$(cmd)}` runs cmd: the parameter's words expand as a double-quoted string's do.
      this.i += 2
      this.nesting++
      this.readExpanding('}', quoted)
      this.nesting--
      this.i++
    } else if (next === '{') {
      this.i = this.matching(this.i + 1, '{', '}')
    } else {
      this.i++
    }
    return this.src.slice(start, Math.min(this.i, this.src.length))
  }

  /** The list in the brackets whose `(` is at `open`, read, or past MAX_NESTING passed over as written. */
  private readBracketed(open: number): string {
    if (this.nesting >= MAX_NESTING) {
      this.i = this.matching(open, '(', ')')
      return this.src.slice(open + 1, this.i - 1)
    }
    this.i = open + 1
    const inner = this.readList(')')
    this.i++
    return inner
  }

  /** The index after the bracket that closes the one at `from`, quotes not considered. */
  matching(from: number, open: string, close: string): number {
    let depth = 0
    for (let j = from; j < this.src.length; j++) {
      if (this.src[j] === open) depth++
      else if (this.src[j] === close && --depth === 0) return j + 1
    }
    return this.src.length
  }

  /** `$'…'`: escapes as bash reads them. */
  private readAnsiC(): string {
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' }
    let text = ''
    while (this.i < this.src.length && this.src[this.i] !== "'") {
      const c = this.src[this.i] as string
      if (c !== '\\') {
        text += c
        this.i++
        continue
      }
      const e = this.src[this.i + 1] ?? ''
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(this.src.slice(this.i + 1, this.i + 4))
      const octal = /^[0-7]{1,3}/.exec(this.src.slice(this.i + 1, this.i + 4))
      // `\u002d` and `\U0000002d` are code points (bash 4.2 on); past U+10FFFF, nothing is.
      const unicode = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(this.src.slice(this.i + 1, this.i + 10))
      const codePoint = unicode === null ? NaN : parseInt((unicode[1] ?? unicode[2]) as string, 16)
      if (simple[e] !== undefined) {
        text += simple[e]
        this.i += 2
      } else if (hex !== null) {
        text += String.fromCharCode(parseInt(hex[1] as string, 16))
        this.i += 1 + hex[0].length
      } else if (unicode !== null && codePoint <= 0x10ffff) {
        text += String.fromCodePoint(codePoint)
        this.i += 1 + unicode[0].length
      } else if (e === 'c' && this.i + 2 < this.src.length && this.src[this.i + 2] !== "'") {
        // `\cA` is control-A: the character's low five bits.
        text += String.fromCharCode((this.src.charCodeAt(this.i + 2) as number) & 0x1f)
        this.i += 3
      } else if (octal !== null) {
        text += String.fromCharCode(parseInt(octal[0], 8))
        this.i += 1 + octal[0].length
      } else {
        text += c + e
        this.i += 2
      }
    }
    this.i++
    return text
  }

  /** A script found inside this one (a backtick substitution's): its commands and lists are this one's. */
  absorb(script: string) {
    if (this.depth >= MAX_DEPTH || !mayReadAgain(this.budget, script)) return
    const inner = new ShellReader(script, this.depth + 1, this.budget)
    inner.readList()
    this.commands.push(...inner.commands)
    this.lists.push(...inner.lists)
  }
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish'])

/** Wrappers that run the command after their options, and those of their options that take a value. */
const WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '-R', '--user', '--group', '--host', '--prompt', '--chdir', '--chroot', '--role', '--type', '--other-user', '--close-from', '--command-timeout']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S', '--unset', '--chdir', '--split-string']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  time: new Set(['-f', '-o', '--format', '--output']),
  nice: new Set(['-n', '--adjustment']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e', '--input', '--output', '--error']),
  ionice: new Set(['-c', '-n', '-p', '--class', '--classdata']),
  xargs: new Set(['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--max-lines', '--max-chars', '--delimiter', '--arg-file', '--replace', '--process-slot-var']),
  setsid: new Set(),
  flock: new Set(['-w', '-E', '-c', '--wait', '--timeout', '--conflict-exit-code', '--command']),
  chrt: new Set(['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline']),
  taskset: new Set(),
  chroot: new Set(['--userspec', '--groups']),
  unbuffer: new Set(),
  caffeinate: new Set(['-t', '-w']),
  chronic: new Set(),
  busybox: new Set(),
  runuser: new Set(['-u', '-g', '-G', '-s', '-w', '--user', '--group', '--supp-group', '--shell', '--whitelist-environment']),
  pkexec: new Set(['--user']),
  'xvfb-run': new Set(['-n', '-s', '-f', '-e', '-p', '-w', '--server-num', '--server-args', '--auth-file', '--error-file', '--xauth-protocol', '--wait']),
  screen: new Set(['-S', '-c', '-e', '-h', '-p', '-t', '-T', '-X', '-Logfile']),
  'systemd-run': new Set([
    '-u', '-p', '-E', '-M', '-H', '--unit', '--property', '--setenv', '--machine', '--host', '--uid', '--gid', '--nice', '--working-directory', '--description', '--slice',
    '--on-active', '--on-boot', '--on-startup', '--on-unit-active', '--on-unit-inactive', '--on-calendar', '--timer-property', '--path-property', '--socket-property',
  ]),
  strace: new Set(['-e', '-o', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-P', '-S', '-U', '-X']),
  // cross-env NAME=value… CMD: the assignments are taken off as a shell's are.
  'cross-env': new Set(),
  // corepack pnpm …: the package manager it pins.
  corepack: new Set(),
  'env-cmd': new Set(['-f', '-e', '-r', '--file', '--environments', '--rc-file']),
  watchexec: new Set(['-e', '-w', '-W', '-i', '-f', '-d', '-s', '-E', '--exts', '--watch', '--ignore', '--filter', '--debounce', '--signal', '--shell', '--env', '--stop-signal', '--stop-timeout', '--delay-run', '--project-origin', '--workdir']),
  fakeroot: new Set(['-l', '-s', '-i', '--lib', '--faked']),
  faketime: new Set(['-m', '-f']),
  proxychains: new Set(['-f']),
  proxychains4: new Set(['-f']),
  torsocks: new Set(['-u', '-p', '-a', '-P', '--user', '--pass', '--address', '--port']),
  firejail: new Set(),
  ltrace: new Set(['-e', '-o', '-p', '-s', '-u', '-a', '-A', '-n', '-F', '-l', '-L', '-x']),
  'ssh-agent': new Set(['-a', '-E', '-t', '-P', '-O']),
  'dbus-run-session': new Set(['--config-file', '--dbus-daemon']),
  'systemd-inhibit': new Set(['--what', '--who', '--why', '--mode']),
  numactl: new Set(['-C', '-N', '-m', '-i', '-p', '-P', '-w', '--physcpubind', '--cpunodebind', '--membind', '--interleave', '--preferred', '--preferred-many', '--weighted-interleave']),
  // valgrind's own options take their values after `=`.
  valgrind: new Set(),
  entr: new Set(),
  // dotenv-cli: dotenv -e .env -- CMD (-c names an environment).
  dotenv: new Set(['-e', '-v', '-c', '-p']),
  // util-linux: unshare -r CMD, nsenter -t PID -m -- CMD (their namespace options take a file only after `=`).
  unshare: new Set(['-S', '-G', '-R', '-w', '-l', '--setuid', '--setgid', '--root', '--wd', '--load-interp', '--map-user', '--map-users', '--map-group', '--map-groups', '--propagation', '--setgroups', '--monotonic', '--boottime']),
  nsenter: new Set(['-t', '-S', '-G', '-W', '--target', '--setuid', '--setgid', '--wdns']),
  // retry -t 3 CMD, retry --times=3 -- CMD (Debian's retry, kadwanev's), retry -attempts 3 -- CMD (joshdk's).
  retry: new Set(['-t', '-d', '-u', '-w', '-m', '-s', '-f', '--times', '--delay', '--until', '--while', '--message', '-attempts', '-sleep', '-jitter', '-max-time', '-task-time', '-backoff']),
  // What a container's entrypoint runs its command under: as another user (gosu USER CMD), with an init, limits or privileges set.
  gosu: new Set(),
  'su-exec': new Set(),
  's6-setuidgid': new Set(),
  tini: new Set(['-p', '-e']),
  'dumb-init': new Set(['-r', '--rewrite']),
  chpst: new Set(['-u', '-U', '-b', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c']),
  setpriv: new Set(['--reuid', '--regid', '--ruid', '--euid', '--rgid', '--egid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile']),
  prlimit: new Set(['-p', '-o', '--pid', '--output']),
  cgexec: new Set(['-g']),
  // On the host from a Flatpak sandbox or a distrobox container.
  'flatpak-spawn': new Set(['--env', '--directory', '--forward-fd', '--app-path', '--usr-path']),
  'distrobox-host-exec': new Set(),
}

/** GNU tools as Homebrew installs them on macOS, with a `g` before their names: `gtimeout 30 git push`. */
const GNU_ON_MACOS: Readonly<Record<string, string>> = { gtimeout: 'timeout', gnohup: 'nohup', genv: 'env', gnice: 'nice', gstdbuf: 'stdbuf', gxargs: 'xargs', gfind: 'find', gtime: 'time' }

/**
 * The extensions Windows runs a program by as by its name alone (PATHEXT's): in Git Bash and in
 * PowerShell, where an agent turned away by the execution policy from `npm.ps1` writes `npm.cmd`.
 */
const WINDOWS_PROGRAM = /\.(?:exe|cmd|bat|com)$/i

/** A command's folder taken off, written with `/` or, in quotes, Windows' `\`: `/usr/bin/git` and `C:\Program Files\Git\cmd\git` are `git`. */
function withoutFolder(word: string): string {
  return word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1) || word
}

/** A command's name as the program it runs: its folder and a Windows program's extension taken off (`git.exe`, `npm.cmd` are `git`, `npm`). */
function programName(word: string): string {
  const name = withoutFolder(word)
  return name.replace(WINDOWS_PROGRAM, '') || name
}

/** A command's name as what it is: its folder and Windows extension taken off, a GNU tool's `g` on macOS too. */
function commandName(word: string): string {
  const name = programName(word)
  return GNU_ON_MACOS[name] ?? name
}

/**
 * Wrappers whose first operands, after their options, come before the command: timeout's
 * duration, flock's lock file, chrt's priority, taskset's CPU mask, chroot's new root.
 */
const OPERANDS_BEFORE_COMMAND: Readonly<Record<string, number>> = { timeout: 1, flock: 1, chrt: 1, taskset: 1, chroot: 1, faketime: 1, gosu: 1, 'su-exec': 1, 's6-setuidgid': 1 }

/**
 * Tools that run a command in a project's environment, after a subcommand (`uv run`, `poetry run`,
 * `bundle exec`, `pnpm exec`, `npm exec`, `conda run`; none for `npx`, `uvx`, `bunx`), and those of
 * their options, before or after it, that take a value.
 */
/** A runner's subcommands that run a command, its options that take a value, and the subcommand naming a part of the project first (`yarn workspace NAME`). */
interface Runner {
  subcommands: readonly string[]
  valued: ReadonlySet<string>
  scope?: string
  /** Its own commands, when any other word in their place is a script or a binary it runs (`yarn prisma migrate reset`). */
  commands?: ReadonlySet<string>
}

const RUNNERS: Readonly<Record<string, Runner>> = {
  uv: { subcommands: ['run'], valued: new Set(['-w', '-p', '--with', '--with-editable', '--with-requirements', '--python', '--package', '--directory', '--project', '--env-file', '--extra', '--group', '--index', '--cache-dir', '--config-file']) },
  uvx: { subcommands: [], valued: new Set(['-w', '-p', '--with', '--with-editable', '--with-requirements', '--python', '--from', '--index']) },
  poetry: { subcommands: ['run'], valued: new Set(['-C', '-P', '--directory', '--project']) },
  pipenv: { subcommands: ['run'], valued: new Set() },
  pdm: { subcommands: ['run'], valued: new Set(['-p', '--project']) },
  bundle: { subcommands: ['exec'], valued: new Set(['--gemfile']) },
  conda: { subcommands: ['run'], valued: new Set(['-n', '-p', '--name', '--prefix', '--cwd']) },
  mamba: { subcommands: ['run'], valued: new Set(['-n', '-p', '--name', '--prefix', '--cwd']) },
  micromamba: { subcommands: ['run'], valued: new Set(['-n', '-p', '--name', '--prefix', '--cwd']) },
  pyenv: { subcommands: ['exec'], valued: new Set() },
  rbenv: { subcommands: ['exec'], valued: new Set() },
  npm: { subcommands: ['exec', 'x'], valued: new Set(['-p', '-w', '--package', '--workspace', '--prefix']) },
  npx: { subcommands: [], valued: new Set(['-p', '-w', '--package', '--workspace', '--prefix']) },
  pnpm: {
    subcommands: ['exec', 'dlx'],
    valued: new Set(['-C', '-F', '--dir', '--filter', '--package']),
    // pnpm 6.6 on: `pnpm eslint`, a word none of its commands, runs in the project as pnpm exec does.
    commands: new Set([
      'add', 'i', 'install', 'it', 'install-test', 'up', 'update', 'upgrade', 'rm', 'remove', 'un', 'uninstall', 'ln', 'link', 'unlink', 'import', 'rb', 'rebuild', 'prune', 'fetch',
      'patch', 'patch-commit', 'patch-remove', 'audit', 'ls', 'list', 'la', 'll', 'outdated', 'why', 'licenses', 'run', 'run-script', 'test', 't', 'tst', 'start', 'create',
      'publish', 'pack', 'recursive', 'multi', 'm', 'server', 'store', 'root', 'bin', 'setup', 'init', 'deploy', 'doctor', 'c', 'config', 'get', 'set', 'env', 'dedupe',
      'approve-builds', 'ignored-builds', 'self-update', 'cat-file', 'cat-index', 'find-hash', 'help', 'login', 'logout', 'whoami', 'version', 'owner', 'dist-tag', 'docs', 'search',
    ]),
  },
  yarn: {
    subcommands: ['exec', 'dlx', 'run'],
    valued: new Set(['-p', '--package', '--cwd']),
    scope: 'workspace',
    commands: new Set([
      'access', 'add', 'audit', 'autoclean', 'bin', 'cache', 'check', 'config', 'constraints', 'create', 'dedupe', 'explain', 'generate-lock-entry', 'global', 'help', 'import', 'info',
      'init', 'install', 'licenses', 'link', 'list', 'login', 'logout', 'node', 'npm', 'outdated', 'owner', 'pack', 'patch', 'patch-commit', 'plugin', 'policies', 'publish', 'rebuild',
      'remove', 'sdks', 'search', 'set', 'stage', 'tag', 'team', 'unlink', 'unplug', 'up', 'upgrade', 'upgrade-interactive', 'version', 'versions', 'why', 'workspace', 'workspaces',
    ]),
  },
  // bun run NAME runs a script, else a binary of the project's (bun run prisma migrate reset).
  bun: { subcommands: ['x', 'run'], valued: new Set(['--cwd']) },
  bunx: { subcommands: [], valued: new Set() },
  // toolbox run CMD: in a toolbox container.
  toolbox: { subcommands: ['run'], valued: new Set(['-c', '-d', '-r', '--container', '--distro', '--release']) },
  // Tools that run a command with a project's environment, or its secrets, after their `run` or `exec`.
  pixi: { subcommands: ['run', 'exec'], valued: new Set(['-e', '--environment', '--manifest-path']) },
  hatch: { subcommands: ['run'], valued: new Set(['-e', '--env']) },
  rye: { subcommands: ['run'], valued: new Set(['--pyproject']) },
  devbox: { subcommands: ['run'], valued: new Set(['-c', '--config', '-e', '--env', '--env-file']) },
  tox: { subcommands: ['exec'], valued: new Set(['-e', '-c', '--conf', '--root', '--workdir']) },
  dotenvx: { subcommands: ['run'], valued: new Set(['-f', '-e', '-fk', '--env-file', '--env', '--env-keys-file', '--convention']) },
  doppler: { subcommands: ['run'], valued: new Set(['-p', '-c', '--project', '--config', '--token', '--scope', '--name-transformer']) },
  infisical: { subcommands: ['run'], valued: new Set(['--env', '--path', '--projectId', '--token', '--tags', '--domain']) },
  op: { subcommands: ['run'], valued: new Set(['--env-file', '--environment', '--account', '--session', '--config']) },
  // python-dotenv: dotenv -f .env run CMD (without run, dotenv-cli's wrapper above).
  dotenv: { subcommands: ['run'], valued: new Set(['-f', '--file', '-e', '--export']) },
}

/** The index of the command a runner runs (`uv run --with x pytest` → pytest), or undefined when it runs none (`npm install`). */
function afterRunner(words: readonly string[], at: number, runner: Runner): number | undefined {
  let i = afterOptions(words, at + 1, runner.valued)
  // `yarn workspace NAME exec CMD`: a subcommand of the named workspace.
  if (runner.scope !== undefined && words[i] === runner.scope) i = afterOptions(words, i + 2, runner.valued)
  if (runner.subcommands.length === 0) return i
  if (runner.subcommands.includes(words[i] as string)) return afterOptions(words, i + 1, runner.valued)
  // `yarn prisma migrate reset`: a word not among its own commands is a script or a binary it runs.
  return runner.commands !== undefined && i < words.length && !runner.commands.has(words[i] as string) ? i : undefined
}

/** Options of git itself, before its command, that take a value (`git -C repo push`). */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path'])

/** Skips the options of a command from `at`: the index of its first operand. */
function afterOptions(words: readonly string[], at: number, valued: ReadonlySet<string>): number {
  let i = at
  while (i < words.length) {
    const w = words[i] as string
    if (w === '--') return i + 1
    if (!w.startsWith('-') || w === '-') return i
    i += valued.has(w) || valueFollows(w, valued) ? 2 : 1
  }
  return i
}

/**
 * Whether short options run together (`-iu`, as getopt reads them) end in one that takes its value
 * from the next word: `sudo -iu deploy git` runs `git`. One whose value is attached (`-uroot`,
 * `-I{}`) takes nothing more.
 */
function valueFollows(word: string, valued: ReadonlySet<string>): boolean {
  if (word.startsWith('--')) return false
  for (let j = 1; j < word.length; j++) {
    if (valued.has(`-${word[j]}`)) return j === word.length - 1
  }
  return false
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/

/**
 * What a simple command runs, step by step: after each leading assignment, reserved word or
 * wrapper (with its options) is taken off, the words left (`FOO=1 sudo git push` gives `sudo git
 * push`, then `git push`, so that `^sudo` and `^git push` both meet it); the last, the command
 * run, with its name's folder taken off too (`/usr/bin/git` is `git`).
 */
function runSteps(words: readonly string[]): string[][] {
  const steps: string[][] = []
  // Each step copies the words after it: past MAX_STEPS, only the command run is kept, or
  // `! ! ! …` (50,000 of them in a 100,000-character command) would copy billions of words.
  const step = (at: number) => {
    if (steps.length < MAX_STEPS) steps.push(words.slice(at))
  }
  let i = 0
  for (let guard = 0; guard < words.length + 1 && i < words.length; guard++) {
    const w = words[i] as string
    // `coproc NAME { git push --force; }`: a name before a compound command names the coprocess.
    if (w === 'coproc' && words[i + 2] === '{') {
      i += 2
      step(i)
      continue
    }
    if (ASSIGNMENT.test(w) || RESERVED_AT_START.has(w)) {
      i++
      step(i)
      continue
    }
    // `function f { git push --force; }`: the body, after the name, runs when f is called.
    if (w === 'function' && i + 1 < words.length) {
      i += 2
      step(i)
      continue
    }
    const name = commandName(w)
    const runner = RUNNERS[name]
    const command = runner === undefined ? undefined : afterRunner(words, i, runner)
    if (command !== undefined) {
      i = command
      step(i)
      continue
    }
    const valued = WRAPPERS[name]
    if (valued === undefined) break
    i = afterOptions(words, i + 1, valued)
    // timeout's first operand is its duration, flock's its lock file…: not the command.
    i = Math.min(words.length, i + (OPERANDS_BEFORE_COMMAND[name] ?? 0))
    step(i)
  }
  const [first, ...args] = words.slice(i)
  // A name that is a substitution keeps its slashes: they are in the command it prints (`$(echo /usr/bin/git)`).
  const substitution = first !== undefined && /^(?:\$\([\s\S]*\)|`[\s\S]*`)$/.test(first)
  if (first === undefined || substitution) {
    steps.push(first === undefined ? [] : [first, ...args])
    return steps
  }
  // `npm.cmd install` runs npm on Windows: without its extension it is the command run, and the name
  // as written, its folder taken off, a step before it, still met by a pattern naming `npm\.cmd`.
  const name = withoutFolder(first)
  const program = programName(first)
  if (program !== name) steps.push([name, ...args])
  steps.push([program, ...args])
  return steps
}

/** PowerShell's parameters that take a value, as written in full or by the short names its help gives. */
const POWERSHELL_VALUED = new Set(['-executionpolicy', '-ep', '-ex', '-windowstyle', '-w', '-inputformat', '-inp', '-if', '-outputformat', '-o', '-of', '-workingdirectory', '-wd', '-configurationname', '-config', '-version', '-v', '-psconsolefile', '-settingsfile', '-custompipename', '-configurationfile'])

/** `word`, lower case, is `-NAME` or `/NAME` shortened to at least its first `least` letters, as PowerShell takes a parameter. */
function powerShellParameter(word: string, name: string, least: number): boolean {
  const bare = word.toLowerCase().replace(/^[-/]/, '')
  return /^[-/]/.test(word) && bare.length >= least && name.startsWith(bare)
}

/**
 * The command PowerShell's `Start-Process [-FilePath] FILE [-ArgumentList] ARGS` runs: FILE, then
 * ARGS (a list written `'install','-D'` is its items). Its other parameters, which take a value but
 * for its switches (`-Wait`, `-NoNewWindow`, `-PassThru`, `-UseNewEnvironment`, `-LoadUserProfile`), are passed over.
 */
function startProcessRun(args: readonly string[]): string[] {
  const switches = ['wait', 'nonewwindow', 'passthru', 'usenewenvironment', 'loaduserprofile']
  let file: string | undefined
  let list: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (/^-/.test(a)) {
      const value = args[i + 1]
      if (powerShellParameter(a, 'filepath', 1) || a.toLowerCase() === '-path') file = value
      else if (powerShellParameter(a, 'argumentlist', 1) || a.toLowerCase() === '-args') list = value
      else if (switches.some((sw) => powerShellParameter(a, sw, 2))) continue
      i++
      continue
    }
    if (file === undefined) file = a
    else if (list === undefined) list = a
  }
  if (file === undefined) return []
  const items = list === undefined ? [] : list.split(',').map((item) => item.trim().replace(/^(['"])(.*)\1$/s, '$2'))
  return [[file, ...items].join(' ')]
}

/**
 * The command line Windows' shells run, read again as a command as `bash -c`'s script is: `cmd /c
 * CMD…` (and `/k`, `/r`; Git Bash's `//c`), and `powershell -Command CMD…` or `pwsh -c CMD…` (its
 * words after it joined, as PowerShell joins them; `-EncodedCommand`'s Base64 of UTF-16LE decoded;
 * and, for Windows PowerShell alone, words with no parameter before them, which it runs as a
 * command). Undefined for any other command; no script for a script file (`-File`, `cmd` alone).
 */
function windowsShellScript(name: string | undefined, args: readonly string[]): string[] | undefined {
  const program = name?.toLowerCase()
  if (program === 'cmd') {
    const at = args.findIndex((a) => /^\/{1,2}[ckr]$/i.test(a))
    return at === -1 || !args.slice(0, at).every((a) => a.startsWith('/')) ? [] : [args.slice(at + 1).join(' ')]
  }
  if (program !== 'powershell' && program !== 'pwsh') return undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (powerShellParameter(a, 'command', 1)) return [args.slice(i + 1).join(' ')]
    if (powerShellParameter(a, 'encodedcommand', 1) || a.toLowerCase() === '-ec') {
      const encoded = args[i + 1]
      return encoded === undefined ? [] : [Buffer.from(encoded, 'base64').toString('utf16le')]
    }
    if (powerShellParameter(a, 'file', 1)) return []
    if (POWERSHELL_VALUED.has(a.toLowerCase())) {
      i++
      continue
    }
    if (/^[-/]/.test(a)) continue
    // pwsh takes its first operand as a script file; Windows PowerShell, as the command.
    return program === 'powershell' ? [args.slice(i).join(' ')] : []
  }
  return []
}

/**
 * Scripts the command runs itself: `bash -c SCRIPT`, `eval ARGS`, a shell's heredoc or here-string,
 * and the script file it runs or sources when that is a process substitution (`bash <(…)`,
 * `source <(…)`, `. <(…)`): what `script` tells the command in it prints.
 */
function scriptsRun(command: readonly string[], stdin: readonly string[], script: (file: string) => string[]): string[] {
  const [name, ...args] = command
  // A script file that is stdin (`bash /dev/stdin <<< '…'`, `source /dev/stdin <<'EOF'`) is what it reads.
  const file = (f: string) => (['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'].includes(f) ? [...stdin] : script(f))
  if (name === 'eval') return [args.join(' ')]
  // PowerShell's eval, its -Command parameter named or not.
  const lower = name?.toLowerCase()
  if (lower === 'invoke-expression' || lower === 'iex') return [args.filter((a, i) => !(i === 0 && powerShellParameter(a, 'command', 1))).join(' ')]
  if (lower === 'start-process' || lower === 'saps') return startProcessRun(args)
  // at and batch read the job they run later from stdin, unless given a file (-f) or asked to list, show or remove jobs.
  if (name === 'at' || name === 'batch') return args.some((a) => /^-[a-zA-Z]*[flrdc]/.test(a)) ? [] : [...stdin]
  if (name === 'source' || name === '.') return args[0] === undefined ? [] : file(args[0])
  const windows = windowsShellScript(name, args)
  if (windows !== undefined) return windows
  if (name === undefined || !SHELLS.has(name)) return []
  let withC = false
  // -s: the script is stdin, and the operands are its arguments (`bash -s -- --dry-run <<'EOF'`).
  let withS = false
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--' || a === '-') continue
    // `+x`, `+o history` turn an option off: still options.
    if (/^[-+][a-zA-Z]+$/.test(a)) {
      if (a.startsWith('-') && a.includes('c')) withC = true
      if (a.startsWith('-') && a.includes('s')) withS = true
      if (a.endsWith('o') || a.endsWith('O')) i++
      continue
    }
    if (a === '--rcfile' || a === '--init-file') {
      i++
      continue
    }
    if (a.startsWith('--')) continue
    // The first operand: the script itself with -c, else a script file (and stdin is its input, not a script).
    return withC ? [a] : withS ? [...stdin] : file(a)
  }
  return withC ? [] : [...stdin]
}

/** Words quoted for a shell, so that a script of them reads back as those words. */
function quoteWords(words: readonly string[]): string {
  return words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(' ')
}

/**
 * The values of a command's option `short` (`-c`) or `long` (`--command`), as getopt reads them,
 * options and operands in any order: `-c CMD`, `-lc CMD`, `-cCMD`, `--command CMD`,
 * `--command=CMD`. `valued`: the command's other options that take a value, passed over with it.
 * To `--`, or with `firstOperand`, to the command's first operand.
 */
function optionValues(args: readonly string[], short: string, long: readonly string[], valued: ReadonlySet<string>, firstOperand = false): string[] {
  const values: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--') break
    if (!a.startsWith('-') || a === '-') {
      if (firstOperand) break
      continue
    }
    if (a.startsWith('--')) {
      const [name = '', value] = a.split(/=(.*)/s)
      if (long.includes(name)) {
        if (value !== undefined) values.push(value)
        else if (i + 1 < args.length) values.push(args[++i] as string)
      } else if (value === undefined && valued.has(name)) i++
      continue
    }
    for (let j = 1; j < a.length; j++) {
      const o = a[j] as string
      if (o !== short && !valued.has(`-${o}`)) continue
      const value = j < a.length - 1 ? a.slice(j + 1) : args[++i]
      if (o === short && value !== undefined) values.push(value)
      break
    }
  }
  return values
}

/** Options of parallel that take a value: its command starts after them. */
const PARALLEL_VALUED = new Set([
  '-j', '-P', '-S', '-a', '-d', '-C', '-I', '-n', '-N', '-L', '-l', '-s', '-E',
  '--jobs', '--max-procs', '--sshlogin', '--sshloginfile', '--slf', '--arg-file', '--delimiter', '--colsep', '--max-args', '--max-lines', '--max-chars',
  '--joblog', '--results', '--res', '--tmpdir', '--timeout', '--halt', '--delay', '--retries', '--workdir', '--wd', '--tagstring', '--env',
  '--memfree', '--load', '--basefile', '--bf', '--return', '--transferfile', '--tf', '--termseq', '--block', '--blocksize',
])
/** Options of tmux, and of its commands that start a shell command, that take a value. */
const TMUX_VALUED = new Set(['-L', '-S', '-f', '-T', '-c', '-e', '-F', '-n', '-s', '-t', '-x', '-y', '-l'])
/** Options of tmux send-keys that take a value (its -l is a flag: the keys are typed as they are). */
const SEND_KEYS_VALUED = new Set(['-c', '-N', '-t'])
/** tmux commands that start a shell command in a new session, window or pane. */
const TMUX_STARTS = new Set(['new-session', 'new', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw'])
/** What keys `tmux send-keys` names type into a shell: Enter runs the line; another key named (C-c, Up) ends what is read of it. */
const TMUX_KEYS: ReadonlyMap<string, string> = new Map([
  ...['Enter', 'C-m', '^M', 'KPEnter', 'C-j', 'C-c', 'C-d', 'C-u', 'Escape', 'Up', 'Down', 'BSpace'].map((k) => [k, '\n'] as const),
  ['Space', ' '],
  ['Tab', '\t'],
  ['C-i', '\t'],
])
/** Options of nodemon that take a value; its --exec (-x) is the command it runs. */
const NODEMON_VALUED = new Set(['-w', '-i', '-e', '-d', '-x', '--watch', '--ignore', '--ext', '--delay', '--exec', '--signal', '--config', '--spawn'])
/** How many values each option of hyperfine takes that is not itself a shell command (-s, -p, -c are). */
const HYPERFINE_VALUES: Readonly<Record<string, number>> = {
  ...Object.fromEntries(['-w', '-m', '-M', '-r', '-S', '-u', '-n', '-D', '--warmup', '--min-runs', '--max-runs', '--runs', '--shell', '--time-unit', '--command-name', '--parameter-step-size', '--style', '--sort', '--export-asciidoc', '--export-csv', '--export-json', '--export-markdown', '--export-orgmode', '--output', '--input'].map((o) => [o, 1])),
  '-L': 2,
  '--parameter-list': 2,
  '-P': 3,
  '--parameter-scan': 3,
}
/** Options of concurrently that take a value; its operands are shell commands. */
const CONCURRENTLY_VALUED = new Set([
  '-n', '-c', '-p', '-l', '-t', '-s', '-P', '--names', '--name-separator', '--prefix-colors', '--prefix', '--prefix-length', '--timestamp-format', '--success',
  '--max-processes', '-m', '--restart-tries', '--restart-after', '--handle-input', '--default-input-target', '--kill-signal', '--pad-prefix', '--passthrough-arguments',
])
const AWS_VAULT_VALUED = new Set(['-d', '-t', '--duration', '--mfa-token', '--region', '--server', '--prompt', '--backend'])
const HYPERFINE_SCRIPTS = new Set(['-s', '-p', '-c', '--setup', '--prepare', '--conclude', '--cleanup'])
const REBASE_VALUED = new Set(['-s', '-X', '--onto', '--strategy', '--strategy-option'])
const WATCH_VALUED = new Set(['-n', '-q', '--interval', '--equexit'])
const SU_VALUED = new Set(['-s', '-g', '-G', '-w', '-u', '--shell', '--group', '--supp-group', '--whitelist-environment', '--user'])
const SCRIPT_VALUED = new Set(['-E', '-I', '-O', '-B', '-T', '-m', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format'])

/**
 * Scripts a command hands to a shell, or a command it runs inside its own arguments: `flock
 * FILE -c CMD`, `su -c CMD`, `runuser USER -c CMD`, `script -c CMD`, `trap CMD
 * SIGNAL` (run when the signal comes), `git submodule foreach CMD`, `git rebase --exec CMD`,
 * `git bisect run CMD…`, `git -c alias.NAME=… NAME`, `nix-shell --run CMD`, `nix develop -c CMD…`, `tmux new-session CMD` (and `tmux -c CMD`), `mise exec TOOLS -- CMD…`,
 * `direnv exec DIR CMD…`, `npx -c CMD` / `npm exec -c CMD` / `pnpm exec -c CMD…`, `watch OPTIONS CMD…` and `parallel OPTIONS CMD… ::: ARGS`
 * (their words joined, as they hand them to `sh -c`), and `find … -exec CMD… ;` (its words).
 */
function scriptsHandedOn(words: readonly string[]): string[] {
  const [first, ...args] = words
  if (first === undefined) return []
  switch (commandName(first)) {
    case 'flock': {
      // flock stops at its lock file: the word after it, -c or --command, takes the command.
      const at = afterOptions(args, 0, WRAPPERS.flock as ReadonlySet<string>)
      const before = optionValues(args.slice(0, at), 'c', ['--command'], WRAPPERS.flock as ReadonlySet<string>)
      const after = args[at + 1] === '-c' || args[at + 1] === '--command' ? args.slice(at + 2, at + 3) : []
      return [...before, ...after]
    }
    case 'sg': {
      // sg [-] GROUP [-c] CMD: /bin/sh -c CMD, run with GROUP as the group. A group, or a command
      // without -c, that begins with `-` is no such sg: ast-grep installs itself as `sg` too, and its
      // pattern (`sg -p 'npm publish' -l bash`, `sg run -p …`) is code it searches for, not run.
      const at = args[0] === '-' ? 2 : 1
      if (args[at - 1]?.startsWith('-') === true) return []
      const command = args.slice(args[at] === '-c' ? at + 1 : at)
      return command.length === 0 || (args[at] !== '-c' && command[0]?.startsWith('-') === true) ? [] : [command.join(' ')]
    }
    case 'su':
    case 'runuser':
      return optionValues(args, 'c', ['--command', '--session-command'], SU_VALUED)
    case 'script':
      return optionValues(args, 'c', ['--command'], SCRIPT_VALUED)
    case 'trap': {
      const operands = args[0] === '--' ? args.slice(1) : args
      // `trap -p`, `trap -l` print; one operand resets its signal; `-` and '' reset or ignore.
      const [action] = operands
      return operands.length < 2 || action === undefined || action === '-' || action.startsWith('-') ? [] : [action]
    }
    case 'watch': {
      const at = afterOptions(args, 0, WATCH_VALUED)
      const command = args.slice(at)
      if (command.length === 0) return []
      // -x (--exec) runs the words as they are, without sh -c.
      const exec = args.slice(0, at).some((a) => a === '--exec' || (/^-[a-zA-Z]+$/.test(a) && a.includes('x')))
      return [exec ? quoteWords(command) : command.join(' ')]
    }
    case 'parallel': {
      const at = afterOptions(args, 0, PARALLEL_VALUED)
      const end = args.findIndex((a, i) => i >= at && /^::::?\+?$/.test(a))
      const command = args.slice(at, end === -1 ? args.length : end)
      // No command: each argument after ::: is one, run by a shell (`parallel ::: 'npm test' 'git push'`).
      if (command.length === 0) {
        if (end === -1 || args[end] !== ':::') return []
        const next = args.findIndex((a, i) => i > end && /^::::?\+?$/.test(a))
        return args.slice(end + 1, next === -1 ? args.length : next)
      }
      // -q quotes the command's words, as they were; without it they are joined and run by a shell.
      const quoted = args.slice(0, at).some((a) => a === '--quote' || (/^-[a-zA-Z]+$/.test(a) && a.includes('q')))
      return [quoted ? quoteWords(command) : command.join(' ')]
    }
    case 'git': {
      // git submodule foreach CMD, git rebase --exec CMD, git bisect run CMD: git runs them.
      const at = afterOptions(args, 0, GIT_VALUED)
      const rest = args.slice(at + 1)
      // git -c alias.p='push --force' p: the alias git runs, set on its own command line (its
      // name in any case); one that begins with ! is a shell command, given the arguments after it.
      const name = `alias.${args[at]?.toLowerCase()}=`
      const alias = optionValues(args.slice(0, at), 'c', [], GIT_VALUED).findLast((v) => v.toLowerCase().startsWith(name))?.slice(name.length)
      if (alias !== undefined) return [aliasRun(alias, rest)]
      if (args[at] === 'rebase') return optionValues(rest, 'x', ['--exec'], REBASE_VALUED)
      if (args[at] === 'bisect' && rest[0] === 'run' && rest.length > 1) return [quoteWords(rest.slice(1))]
      if (args[at] !== 'submodule') return []
      const foreach = rest.indexOf('foreach')
      if (foreach === -1 || rest.slice(0, foreach).some((a) => !a.startsWith('-'))) return []
      const command = rest.slice(afterOptions(rest, foreach + 1, new Set()))
      // One word is a shell command (`'git push --force'`), several are a command and its arguments.
      return command.length === 0 ? [] : [command.length === 1 ? (command[0] as string) : quoteWords(command)]
    }
    case 'nix-shell':
      return optionValues(args, '', ['--run', '--command'], new Set(['-p', '-A', '-I', '--arg', '--argstr', '--attr', '--packages']))
    case 'nix': {
      // nix develop … -c CMD ARGS, nix shell … --command CMD ARGS: the words after it.
      if (args[0] !== 'develop' && args[0] !== 'shell') return []
      const at = args.findIndex((a) => a === '-c' || a === '--command')
      return at === -1 || at + 1 >= args.length ? [] : [quoteWords(args.slice(at + 1))]
    }
    case 'tmux': {
      // tmux -c CMD: tmux runs the shell command itself (as a login shell would), past its own options.
      const at = afterOptions(args, 0, TMUX_VALUED)
      const own = optionValues(args.slice(0, at), 'c', [], TMUX_VALUED)
      if (own.length > 0) return own
      // Its commands, one after another where `\;` separates them (`tmux new -d -s w \; send-keys …`).
      const scripts: string[] = []
      for (let start = at, end = at; start < args.length; start = end + 1) {
        end = args.indexOf(';', start)
        if (end === -1) end = args.length
        const [name, ...rest] = args.slice(start, end)
        const sendKeys = name === 'send-keys' || name === 'send'
        const operands = rest.slice(afterOptions(rest, 0, sendKeys ? SEND_KEYS_VALUED : TMUX_VALUED))
        if (sendKeys) {
          // The keys are typed into the pane's shell: each word a key's name or its characters, run together.
          const flags = rest.slice(0, rest.length - operands.length).filter((o) => /^-[A-Za-z]+$/.test(o)).join('')
          if (!flags.includes('X') && !flags.includes('H')) scripts.push(operands.map((k) => (flags.includes('l') ? k : (TMUX_KEYS.get(k) ?? k))).join(''))
        } else if (name !== undefined && TMUX_STARTS.has(name) && operands.length > 0) {
          // tmux new-session -d -s NAME CMD: one word is a shell command, several a command and its arguments.
          scripts.push(operands.length === 1 ? (operands[0] as string) : quoteWords(operands))
        }
      }
      return scripts
    }
    case 'mise': {
      // mise exec TOOL@VERSION… -- CMD ARGS: the command after `--`.
      const at = args.indexOf('--')
      return (args[0] === 'exec' || args[0] === 'x') && at !== -1 && at + 1 < args.length ? [quoteWords(args.slice(at + 1))] : []
    }
    case 'npx':
      // npx -c 'CMD' (--call): npm runs the string in a shell; an option after the command is the command's.
      return optionValues(args, 'c', ['--call'], RUNNERS.npx?.valued as ReadonlySet<string>, true)
    case 'npm': {
      // npm exec -c 'CMD' (npm x, --call), as npx -c.
      const valued = RUNNERS.npm?.valued as ReadonlySet<string>
      const at = afterOptions(args, 0, valued)
      return args[at] === 'exec' || args[at] === 'x' ? optionValues(args.slice(at + 1), 'c', ['--call'], valued, true) : []
    }
    case 'pnpm': {
      // pnpm exec -c CMD… (--shell-mode): its words joined, run by a shell.
      const valued = RUNNERS.pnpm?.valued as ReadonlySet<string>
      const at = afterOptions(args, 0, valued)
      if (args[at] !== 'exec') return []
      const start = afterOptions(args, at + 1, valued)
      const shell = args.slice(at + 1, start).some((a) => a === '--shell-mode' || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a))
      return shell && start < args.length ? [args.slice(start).join(' ')] : []
    }
    case 'concurrently': {
      // concurrently "npm test" "git push --force": each operand a shell command it runs.
      // Options may come after them (`-k`): every word that is neither an option nor its value.
      const commands: string[] = []
      for (let i = 0; i < args.length; i++) {
        const a = args[i] as string
        if (a === '--') return [...commands, ...args.slice(i + 1)]
        if (!a.startsWith('-') || a === '-') commands.push(a)
        else if (CONCURRENTLY_VALUED.has(a)) i++
      }
      return commands
    }
    case 'aws-vault': {
      // aws-vault exec PROFILE -- CMD ARGS
      if (args[0] !== 'exec') return []
      const at = afterOptions(args, 1, AWS_VAULT_VALUED)
      const command = args.slice(args[at + 1] === '--' ? at + 2 : at + 1)
      return at < args.length && command.length > 0 ? [quoteWords(command)] : []
    }
    case 'gdb': {
      // gdb --args CMD ARGS (without it, the second operand is a core file, not an argument).
      const at = args.indexOf('--args')
      return at === -1 || at + 1 >= args.length ? [] : [quoteWords(args.slice(at + 1))]
    }
    case 'lldb': {
      const at = args.indexOf('--')
      return at === -1 || at + 1 >= args.length ? [] : [quoteWords(args.slice(at + 1))]
    }
    case 'entr': {
      // entr -s CMD: the shell command ($SHELL -c) of its first operand.
      const at = afterOptions(args, 0, new Set())
      return args.slice(0, at).some((a) => /^-[a-z]*s/.test(a)) && at < args.length ? [args[at] as string] : []
    }
    case 'nodemon': {
      // nodemon --exec CMD SCRIPT ARGS: CMD run by a shell, with the script and its arguments after it.
      const exec = optionValues(args, 'x', ['--exec'], NODEMON_VALUED).at(-1)
      const at = afterOptions(args, 0, NODEMON_VALUED)
      return exec === undefined ? [] : [`${exec} ${quoteWords(args.slice(at))}`]
    }
    case 'hyperfine': {
      // Each operand is a shell command it times, and so are its --setup, --prepare, --cleanup.
      const scripts: string[] = []
      for (let i = 0; i < args.length; i++) {
        const a = args[i] as string
        const [name = '', value] = a.split(/=(.*)/s)
        if (a === '--') {
          scripts.push(...args.slice(i + 1))
          break
        }
        if (!a.startsWith('-') || a === '-') scripts.push(a)
        else if (HYPERFINE_SCRIPTS.has(name)) {
          const script = value ?? args[++i]
          if (script !== undefined) scripts.push(script)
        } else if (value === undefined) i += HYPERFINE_VALUES[name] ?? 0
      }
      return scripts
    }
    case 'direnv':
      // direnv exec DIR CMD ARGS
      return args[0] === 'exec' && args.length > 2 ? [quoteWords(args.slice(2))] : []
    case 'find': {
      // Each -exec, -execdir, -ok, -okdir: its words up to `;`, or to a `+` right after `{}`.
      const commands: string[] = []
      for (let i = 0; i < args.length; i++) {
        if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i] as string)) continue
        const start = i + 1
        let end = start
        while (end < args.length && args[end] !== ';' && !(args[end] === '+' && args[end - 1] === '{}')) end++
        if (end > start) commands.push(quoteWords(args.slice(start, end)))
        i = end
      }
      return commands
    }
    default:
      return []
  }
}

/**
 * The command `env -S STRING ARGS` (`--split-string`) runs: env splits STRING into words, in
 * place of the option, and goes on reading its options and operands, so STRING is read again as
 * a command, ARGS (quoted as they are, already unquoted) after it. Undefined for any other command.
 */
function envSplitString(words: readonly string[]): string | undefined {
  const [name] = words
  if (name === undefined || programName(name) !== 'env') return undefined
  const valued = WRAPPERS.env as ReadonlySet<string>
  const rest = (from: number) => words.slice(from).map((w) => `'${w.replaceAll("'", "'\\''")}'`)
  let i = 1
  while (i < words.length) {
    const w = words[i] as string
    if (w === '--' || !w.startsWith('-') || w === '-') return undefined
    if (w === '-S' || w === '--split-string') return i + 1 < words.length ? [words[i + 1] as string, ...rest(i + 2)].join(' ') : undefined
    if (w.startsWith('--split-string=')) return [w.slice('--split-string='.length), ...rest(i + 1)].join(' ')
    if (!w.startsWith('--')) {
      // Short options run together: `-iS 'git push'`, or the string attached, `-Sgit push`; one
      // that takes a value (`-u NAME`) before S takes the rest of the word as its value.
      for (let j = 1; j < w.length; j++) {
        if (w[j] === 'S') return j === w.length - 1 ? (i + 1 < words.length ? [words[i + 1] as string, ...rest(i + 2)].join(' ') : undefined) : [w.slice(j + 1), ...rest(i + 1)].join(' ')
        if (valued.has(`-${w[j]}`)) break
      }
    }
    i += valued.has(w) || valueFollows(w, valued) ? 2 : 1
  }
  return undefined
}

/** What a command writes to the next of its pipeline, when that can be told: its heredocs, what `echo` and `printf` print. */
function fedBy(command: SimpleCommand | undefined): string[] {
  if (command === undefined) return []
  const run = runSteps(command.words).at(-1) ?? []
  const [name, ...args] = run
  const printed = name === 'echo' || name === 'printf' ? [args.filter((a) => !/^-[neE]+$/.test(a)).join(' ').replaceAll('\\n', '\n')] : []
  return [...command.stdin, ...printed]
}

/**
 * What a process substitution given as a script file (`<(echo 'git push --force')`) prints, when
 * that can be told (its commands' heredocs, what `echo` and `printf` print); nothing for another file.
 */
function printedBy(file: string, depth: number, budget: ReadBudget): string[] {
  return file.startsWith('<(') && file.endsWith(')') ? printedByScript(file.slice(2, -1), depth, budget) : []
}

/** What the commands of `script` print, when that can be told: their heredocs, what `echo` and `printf` print. */
function printedByScript(script: string, depth: number, budget: ReadBudget): string[] {
  if (depth >= MAX_DEPTH || !mayReadAgain(budget, script)) return []
  const reader = new ShellReader(script, depth + 1, budget)
  reader.readList()
  return reader.commands.flatMap(fedBy)
}

/**
 * The command run when its name is a command substitution, `$(echo git) push --force` or
 * `` `echo git push --force` ``: what the substitution prints, then the command's other words.
 */
function commandSubstituted(run: readonly string[], depth: number, budget: ReadBudget): string | undefined {
  const [first, ...rest] = run
  const inner = first === undefined ? undefined : /^\$\((?!\()([\s\S]*)\)$/.exec(first)?.[1] ?? /^`([\s\S]*)`$/.exec(first)?.[1]
  if (inner === undefined) return undefined
  const printed = printedByScript(inner, depth, budget)
  return printed.length === 0 ? undefined : [printed.join(' '), quoteWords(rest)].join(' ')
}

/** A brace group bash expands, `{a,b}`, where a `{` outside quotes is. */
const GROUP = /\{([^{}]*,[^{}]*)\}/sy

/**
 * The words with each one's first brace group expanded as bash expands it (`--{force,}` is
 * `--force --`, `{--force,}` is `--force`, an empty word dropped), or undefined when none has one.
 * Only a `{` outside quotes, where `unquoted` places it in its word, opens a group bash expands:
 * `'{main,--force}'` is one word as written, and `"{a,b}"-{-force,}` is `{a,b}--force {a,b}-`.
 */
function braceExpanded(words: readonly string[], unquoted: ReadonlyMap<string, ReadonlySet<number>>): string[] | undefined {
  let expanded = false
  // What the words expand to is bounded as what is read again is: `x…{a,b,…}` repeats its x… in each word.
  let characters = 0
  const out: string[] = []
  for (const w of words) {
    const group = [...(unquoted.get(w) ?? [])]
      .sort((a, b) => a - b)
      .map((p) => {
        GROUP.lastIndex = p
        return GROUP.exec(w)
      })
      .find((m) => m !== null)
    const brace = group === undefined ? null : [w, w.slice(0, group.index), group[1], w.slice(group.index + group[0].length)]
    const [, before = '', inner = '', after = ''] = brace ?? []
    for (const middle of brace === null ? [w] : inner.split(',')) {
      characters += (brace === null ? 0 : before.length + after.length) + middle.length + 1
      if (characters > MAX_READ_AGAIN) return undefined
      const part = brace === null ? w : before + middle + after
      if (part !== '') out.push(part)
    }
    expanded ||= brace !== null
  }
  return expanded ? out : undefined
}

/** What git runs for an alias given the arguments after it: `push --force` is `git push --force`, `!CMD` the shell command CMD. */
function aliasRun(alias: string, args: readonly string[]): string {
  return alias.startsWith('!') ? [alias.slice(1), quoteWords(args)].join(' ') : ['git', alias, quoteWords(args)].join(' ')
}

/** Options of `git config` (and `git config set`) that set a value, and those of them that take one. */
const GIT_CONFIG_SETTING = new Set(['--global', '--local', '--system', '--worktree', '--add', '--replace-all', '--append', '--all', '--no-type', '--bool', '--int', '--path', '--bool-or-int', '--expiry-date'])
const GIT_CONFIG_VALUED = new Set(['-f', '--file', '--type', '--comment', '--value'])

/**
 * The alias `git config alias.NAME VALUE` sets (`--global`, `--local`, `git config set` too), its
 * name in lower case as git compares it; undefined for any other use of git config (`--get`, `--unset`, `user.name`).
 */
function aliasSet(git: readonly string[]): [string, string] | undefined {
  if (git[0] !== 'git' || git[1] !== 'config') return undefined
  const args = git.slice(git[2] === 'set' ? 3 : 2)
  const operands: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--') {
      operands.push(...args.slice(i + 1))
      break
    }
    if (!a.startsWith('-') || a === '-') operands.push(a)
    else if (GIT_CONFIG_VALUED.has(a)) i++
    else if (!GIT_CONFIG_SETTING.has(a) && !GIT_CONFIG_VALUED.has(a.split('=')[0] as string)) return undefined
  }
  const [key, value] = operands
  const name = /^alias\.(.+)$/is.exec(key ?? '')?.[1]
  return name === undefined || value === undefined || operands.length > 3 ? undefined : [name.toLowerCase(), value]
}

/**
 * The aliases that assignments before a command give git through its environment:
 * `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0='push --force' git p`,
 * `GIT_CONFIG_PARAMETERS="'alias.p=push --force'" git p`, and `V='push --force' git --config-env=alias.p=V p`
 * (`git`: the command, git's own options before its name among its words).
 */
function aliasesInEnvironment(assignments: readonly string[], git: readonly string[], exported: ReadonlyMap<string, string>): Map<string, string> {
  const own = new Map(assignments.flatMap((a) => (ASSIGNMENT.test(a) ? [a.split(/=(.*)/s) as [string, string]] : [])))
  // Looked up, not copied: a long script of exports and git commands stays linear.
  const env = { get: (name: string) => own.get(name) ?? exported.get(name) }
  const aliases = new Map<string, string>()
  const alias = (key: string, value: string | undefined) => {
    const name = /^alias\.(.+)$/is.exec(key)?.[1]
    if (name !== undefined && value !== undefined) aliases.set(name.toLowerCase(), value)
  }
  // Each `'key=value'` or `'key'='value'`, quoted for a shell, as git writes them for -c.
  for (const [, key = '', value] of (env.get('GIT_CONFIG_PARAMETERS') ?? '').matchAll(/'((?:[^']|'\\'')*)'(?:='((?:[^']|'\\'')*)')?/g)) {
    const unquoted = (text: string) => text.replaceAll("'\\''", "'")
    if (value !== undefined) alias(unquoted(key), unquoted(value))
    else alias(...(unquoted(key).split(/=(.*)/s) as [string, string | undefined]))
  }
  const options = git.slice(1, afterOptions(git, 1, GIT_VALUED))
  for (const given of optionValues(options, '', ['--config-env'], GIT_VALUED)) {
    const [key = '', variable = ''] = given.split(/=(?!.*=)/s)
    alias(key, env.get(variable))
  }
  const count = Number(env.get('GIT_CONFIG_COUNT') ?? 0)
  // git refuses a count with a key missing: the pairs end at the first.
  for (let n = 0; n < count && env.get(`GIT_CONFIG_KEY_${n}`) !== undefined; n++) alias(env.get(`GIT_CONFIG_KEY_${n}`) as string, env.get(`GIT_CONFIG_VALUE_${n}`))
  return aliases
}

/** Git with its own options before its command taken off: `git -C repo push` is `git push`. */
function withoutGitOptions(command: readonly string[]): string[] | undefined {
  if (command[0] !== 'git') return undefined
  const at = afterOptions(command, 1, GIT_VALUED)
  return at === 1 ? undefined : ['git', ...command.slice(at)]
}

/**
 * An unquoted word that begins as a Windows path does (`C:\`, `.\`, `..\`, `~\`, `$env:NAME\`,
 * `%NAME%\`), at the start of the command or after white space or an operator.
 */
const WINDOWS_PATH = /(^|[\s;&|(){}])((?:[A-Za-z]:|\.{1,2}|~|\$env:\w+|%\w+%)\\[^\s;&|(){}<>'"`]*)/g

/** A PowerShell assignment of what a command prints, `$out = npm install 2>&1`, at the start of a statement (not of a string, a number or a variable: `$msg = "npm install"`). */
const POWERSHELL_ASSIGNMENT = /(^|[;\n{(]|&&|\|\|)([ \t]*)\$[\w:]+[ \t]*=[ \t]*(?=[A-Za-z_.&\\/~])/g

/**
 * `action` as PowerShell reads what bash reads otherwise, in bash's words: the `\` of each unquoted
 * word written as a Windows path made `/` (WINDOWS_PATH); a backtick after a space ending a line,
 * PowerShell's line continuation, made a space; and `$x = ` before a command, whose output it
 * keeps, taken off. As it was when it has none of them.
 */
function asPowerShellReadsIt(action: string): string {
  let read = action.includes('\\') ? action.replace(WINDOWS_PATH, (_, before: string, path: string) => before + path.replaceAll('\\', '/')) : action
  // After a space only, as PowerShell's continuation is written (`npm `⏎): bash's backtick ending a
  // line closes a substitution (`git push origin \`git branch --show-current\``⏎), and taken off
  // with its line end it would join the next command to this one, `tail -f` read as git push's -f.
  if (read.includes('`')) read = read.replace(/(?<=[ \t])`\r?\n/g, ' ')
  if (read.includes('$')) read = read.replace(POWERSHELL_ASSIGNMENT, '$1$2')
  return read
}

/**
 * The command as written, white space made one, each line bash reads as a command of its own
 * ended by a `;` and a line end, as in a list's form: a pattern's `.*` or `[^;&|]*` does not reach
 * from one line's command into the next's (`git push origin main`⏎`rm -f build.log` is no
 * `git push … -f`). A line goes on past a `\`, a quote, a bracket or `$(` left open, a trailing
 * `|`, `&&` or `||`, and the heredocs it opens (`lineStarts`, from the reader).
 */
function asWritten(action: string, lineStarts: readonly number[]): string {
  const starts = [0, ...lineStarts, action.length]
  return collapseLines(starts.slice(0, -1).map((start, i) => action.slice(start, starts[i + 1])).join(LINE), true)
}

/**
 * The texts a command's `must_not` patterns are tested against, the command as written (white
 * space made one, its lines apart as bash reads them: asWritten) first: then each simple command,
 * and each list (the command, each subshell,
 * `$(…)` and backtick substitution, a shell's `-c` script, `eval`'s arguments, a shell's heredoc
 * or here-string, or what is piped into a shell), with quotes removed and escapes resolved (`git push '--force'` is `git push
 * --force`); each simple command also as what it runs (leading `NAME=value`s, `sudo`, `env`,
 * `command`, `exec`, `nohup`, `time`, `nice`, `timeout`, `xargs`, `setsid`, `flock`… and their options taken off one
 * by one, each step a form, the command's folder too: `/usr/bin/git` is `git`), and git with its own options before its command
 * taken off (`git -C repo -c k=v push` is `git push`). Read as bash reads it; what cannot be
 * read past the limits only leaves out the forms it would have given.
 */
export function actionForms(action: string): string[] {
  const marker = LINE
  LINE = lineMarker(action)
  try {
    return formsOf(action)
  } finally {
    LINE = marker
  }
}

function formsOf(action: string): string[] {
  // The command as written, each of its lines as bash reads lines (asWritten): filled in as it is read.
  const forms = new Set<string>([''])
  let characters = 0
  // A list's form comes made (collapseLines): its line ends are kept.
  const add = (text: string, made = false) => {
    const form = made ? text : collapseWhiteSpace(text)
    if (form === '' || forms.has(form) || forms.size >= MAX_FORMS || characters + form.length > MAX_CHARACTERS) return
    forms.add(form)
    characters += form.length
  }
  const lists: Array<{ depth: number; list: string }> = []
  // What each command runs (its wrappers and git's options taken off) before any command's other
  // forms: past the limit of forms, a long script's last commands keep the one form a pattern
  // anchored with `^` meets (300 lines of `echo … >> out`, then `git push '--force'`).
  const runs: string[] = []
  const others: Array<string | { list: string }> = []
  const budget: ReadBudget = { left: MAX_READ_AGAIN }
  // Aliases set by `git config alias.NAME …` in the command, as it is read: git runs them when a later command calls NAME.
  const aliases = new Map<string, string>()
  // Assignments exported by an earlier command (`export GIT_CONFIG_COUNT=1 …; git p`).
  const exported = new Map<string, string>()
  const read = (script: string, depth: number) => {
    if (depth > MAX_DEPTH || (depth > 0 && !mayReadAgain(budget, script))) return
    const reader = new ShellReader(script, depth, budget)
    reader.readList()
    if (forms.has('')) {
      forms.delete('')
      forms.add(asWritten(action, reader.lineStarts))
    }
    for (const c of reader.commands) {
      const steps = runSteps(c.words)
      const run = steps[steps.length - 1] ?? []
      others.push([...c.words, ...c.redirections].join(' '))
      for (const step of steps.slice(0, -1)) others.push(step.join(' '))
      runs.push(run.join(' '))
      const git = withoutGitOptions(run)
      if (git !== undefined) runs.push(git.join(' '))
      if (run[0] === 'export') for (const w of run.slice(1)) if (ASSIGNMENT.test(w)) exported.set(...(w.split(/=(.*)/s) as [string, string]))
      const gitRun = git ?? (run[0] === 'git' ? run : undefined)
      const set = gitRun === undefined ? undefined : aliasSet(gitRun)
      if (set !== undefined) aliases.set(...set)
      const called = gitRun?.[1]?.toLowerCase()
      const alias = called === undefined ? undefined : (aliasesInEnvironment(c.words.slice(0, c.words.length - run.length), run, exported).get(called) ?? aliases.get(called))
      // One that calls itself (alias.a=a) git refuses as a loop: it runs nothing.
      if (alias !== undefined && gitRun !== undefined && alias.split(' ')[0]?.toLowerCase() !== called) read(aliasRun(alias, gitRun.slice(2)), depth + 1)
      // stdin redirected from a process substitution (`bash < <(echo …)`) is what it prints.
      const substituted = c.redirections.filter((r) => /^0?< <\(/.test(r)).flatMap((r) => printedBy(r.slice(r.indexOf('<(')), depth, budget))
      for (const s of scriptsRun(run, [...c.stdin, ...fedBy(c.pipedFrom), ...substituted], (file) => printedBy(file, depth, budget))) read(s, depth + 1)
      const named = commandSubstituted(run, depth, budget)
      if (named !== undefined) read(named, depth + 1)
      // `git push --{force,}`, `git {push,} --force`: brace expansion, each word's first `{a,b}` made its words.
      const braced = braceExpanded(run, c.braced)
      if (braced !== undefined) read(quoteWords(braced), depth + 1)
      // `git${IFS}push${IFS}--force`: unquoted, IFS as bash sets it splits the word at each of them.
      const line = c.words.join(' ')
      if (/\$\{?IFS/.test(line)) read(line.replace(/\$\{IFS\}|\$IFS/g, ' '), depth + 1)
      // `flock FILE -c '…'`, `su -c '…'`, `watch '…'`…, run directly or behind a wrapper (`sudo su -c '…'`).
      for (const s of new Set([c.words, ...steps].flatMap(scriptsHandedOn))) read(s, depth + 1)
      // `env -S '…'`, run directly or behind a wrapper (`sudo env -S '…'`): the first env step.
      const split = [c.words, ...steps].map(envSplitString).find((s) => s !== undefined)
      if (split !== undefined) read(split, depth + 1)
      for (const body of depth < MAX_DEPTH ? c.expanding : []) {
        if (!mayReadAgain(budget, body)) continue
        const inner = new ShellReader(body, depth + 1, budget)
        inner.readExpanding()
        for (const list of inner.lists) others.push({ list })
        for (const sub of inner.commands) {
          const subSteps = runSteps(sub.words)
          others.push(sub.words.join(' '))
          for (const step of subSteps.slice(0, -1)) others.push(step.join(' '))
          const last = subSteps[subSteps.length - 1]
          if (last !== undefined) runs.push(last.join(' '))
        }
      }
    }
    for (const list of [...reader.lists].reverse()) lists.push({ depth, list })
  }
  read(action, 0)
  // PowerShell's unquoted Windows paths (`& C:\tools\npx.cmd yarn`, `.\node_modules\.bin\yarn`), whose
  // `\` bash reads as escapes (`C:toolsnpx.cmd`), its backtick continuations and its assignments of a
  // command's output (`$out = npm install`): read again as PowerShell would run them.
  const powerShell = asPowerShellReadsIt(action)
  if (powerShell !== action) read(powerShell, 0)
  for (const form of runs) add(form)
  for (const form of others) (typeof form === 'string' ? add(form) : add(form.list, true))
  // Whole lists after the commands (a pattern one command matches is said as that command), on a
  // budget of their own, outermost first: however many commands a long script has, the whole of
  // it, unquoted, is still a form, for patterns that span commands (`curl … | sh`) and for any
  // command past the limit of forms.
  const whole = new Set<string>()
  let listCharacters = 0
  for (const { list } of lists.sort((a, b) => a.depth - b.depth)) {
    const form = list
    if (form === '' || forms.has(form) || whole.has(form) || whole.size >= MAX_FORMS || listCharacters + form.length > MAX_CHARACTERS) continue
    whole.add(form)
    listCharacters += form.length
  }
  return [...forms, ...whole]
}
