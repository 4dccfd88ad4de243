import { lstat, mkdir, readFile, readlink, realpath, stat } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { basename, dirname, extname, join, posix, resolve, win32 } from 'node:path'
import { BIN_PATH, shellWord } from '../config/bin-path'
import { cannotRead } from '../file-error'
import { specialFileKind } from '../file-kind'
import { fieldNestedPast } from '../domain/json-depth'
import { jsonHabit, jsonLineColumn } from '../config/json-habits'
import { replaceFile } from './replace-file'
import { printableLine } from '../terminal'
import { CLAUDE_CODE_EVENTS_VERSION, DifferingHooksError, doubledHooks, GUARD_START_MS, guardCommandOf, guardsLeftBehind, hookEntryNotShaped, hooksRunBeside, hookWords, HOOK_TIMEOUT_SECONDS, mergeGuard, mergeHooks, SettingsShapeError, shortGuardTimeouts, shortTimeouts, strayGuards, strayHooks, unknownEvents, wrappedScriptOf, type HeldCommands } from '../integrations/claude-code-settings'
import { hookBudgetMs } from './hook'
import { RECORD_SET_ASIDE } from './set-aside'
import { guardTimeoutMs } from './guard'
import { GUARDED_TOOLS } from '../integrations/shell-tools'
import { homeFolder } from '../home-folder'
import { homePath, UsageError, parseFlags } from './options'

export const INSTALL_HOOKS_HELP = `decision-memory install-hooks [--project DIR | --user | --file FILE] [--command CMD] [--guard] [--dry-run]

  Merges decision-memory's three Claude Code hooks (SessionStart; PreToolUse and PostToolUse on
  AskUserQuestion) into a Claude Code settings file, keeping everything already there, and prints
  what it changed. Running it again changes nothing. A settings file Claude Code would skip whole
  is refused, exit 1, nothing written: not JSON (a comment, a comma before a bracket), or its
  hooks, a hook event, group, entry or matcher not of the shape its schema takes, each named
  (README lists them). An event it does not know, for which only some versions skip the file, is
  kept and warned of on stderr.

  --project DIR  DIR/.claude/settings.json, DIR an existing folder (default: the current directory)
  --user         ~/.claude/settings.json, for every project
  --file FILE    any settings file, e.g. .claude/settings.local.json (not committed), its folder
                 or the one above it an existing folder; not - nor a device or pipe such as
                 /dev/stdout (for the settings on stdout, --dry-run)
  --command CMD  the hook command (default: node <this checkout>/bin/decision-memory.js hook); a
                 blank one is refused, as is one running hook --record-set-aside (run by hand,
                 it reads no payload; an entry of the hook in the file running it is refused
                 too, exit 1), and one whose program (or node's script, by absolute
                 path) is not there is written with a warning on stderr; written at every
                 event, it is needed where the file's entries of the hook hold different
                 commands at their events (another --user at one), refused without it, each named
  --guard        also the guard, a PreToolUse hook on Bash and PowerShell that denies a command
                 an accepted required decision forbids (the hook command with guard for hook)
  --dry-run      print the merged settings (JSON, on stdout) instead of writing them; what
                 would change is said on stderr
`

/**
 * The hook command of a checkout (this one by default): an absolute path, so that it works from
 * any project, quoted for the shell Claude Code runs it with (`sh -c`). In double quotes, as
 * earlier installs wrote it, when nothing in the path means anything there; else in single
 * quotes, where `$HOME`, a backtick, a quote or a backslash stays itself (in double quotes sh
 * expands the first two, and the JSON-style escapes of the others are not sh's).
 */
export function defaultHookCommand(binPath: string = BIN_PATH): string {
  const quoted = /^[^"$`\\\u0000-\u001f\u007f]*$/.test(binPath) ? `"${binPath}"` : shellWord(binPath)
  return `node ${quoted} hook`
}

/** How a settings file is laid out: the indent of one level, and its line ends. */
interface SettingsLayout {
  indent: string
  eol: '\n' | '\r\n'
}

/** A new file's layout, as Claude Code writes its own settings: two spaces, `\n`. */
const NEW_FILE_LAYOUT: SettingsLayout = { indent: '  ', eol: '\n' }

/**
 * The layout of a settings file's text, kept when it is written back, so that a committed
 * `.claude/settings.json` indented with tabs or four spaces, or checked out with CRLF line ends,
 * changes by the hooks added alone rather than on every line. The indent is that of the first
 * line that starts a field (`<indent>"model": …`), which in a file pretty-printed as JSON is one
 * level deep: tabs alone or 1 to 10 spaces (what JSON.stringify takes); anything else, or a file
 * on one line, keeps the two spaces of a new file. The line ends are those of its first line.
 */
function settingsLayout(text: string): SettingsLayout {
  const eol = /^[^\n]*\r\n/.test(text) ? '\r\n' : '\n'
  const field = /\n([ \t]+)"/.exec(text)?.[1]
  const indent = field !== undefined && (/^\t+$/.test(field) || /^ {1,10}$/.test(field)) ? field : NEW_FILE_LAYOUT.indent
  return { indent, eol }
}

/** The settings as written to the file, in its layout, ending in a line end. */
function settingsText(settings: unknown, layout: SettingsLayout): string {
  const text = JSON.stringify(settings, null, layout.indent) + '\n'
  // JSON.stringify writes a line end inside a string as `\n`, so every `\n` of its text is a line end.
  return layout.eol === '\n' ? text : text.replaceAll('\n', '\r\n')
}

async function readSettings(file: string): Promise<{ settings: unknown; layout: SettingsLayout }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, layout: NEW_FILE_LAYOUT }
    throw error
  }
  // A byte order mark, as Windows PowerShell 5.1 (`Set-Content -Encoding UTF8`) and some editors
  // save UTF-8: Claude Code reads such a file, JSON.parse does not. Written back without it.
  text = text.replace(/^\uFEFF/, '')
  if (text.trim() === '') return { settings: {}, layout: NEW_FILE_LAYOUT }
  let settings: unknown
  try {
    settings = JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    // On one line: V8 quotes the text around the fault as it is, its line breaks too (`..." "model":
    // opus,\n  "h"...`), which broke the one line the refusal is over several.
    const parsed = `not valid JSON (${printableLine(message)}${jsonLineColumn(text, message)})`
    // A comment or a comma before a closing bracket: Claude Code takes none either, and skips the
    // file whole ("Invalid or malformed JSON"); the README block pasted beside it would not run.
    const habit = jsonHabit(text, message)
    if (habit !== undefined) {
      throw new SettingsShapeError(
        `${parsed}; ${habit.habit === 'comment' ? 'a comment' : 'a comma before a closing bracket'} at ${habit.at}: JSON ${habit.habit === 'comment' ? 'has' : 'takes'} none, ` +
          'and Claude Code skips a settings file with one whole ("Invalid or malformed JSON"), every setting in it: remove it',
      )
    }
    throw new SettingsShapeError(`${parsed}; fix it or paste the README block by hand`)
  }
  // JSON.parse takes a file nested thousands deep; structuredClone and JSON.stringify, being
  // recursive, cannot copy or write it back: the command threw "Maximum call stack size exceeded"
  // with its stack. A settings file nests a few levels; 100 is far within what they can write.
  const deep = fieldNestedTooDeep(settings)
  if (deep !== undefined) {
    throw new SettingsShapeError(`${deep} nests arrays and objects more than ${SETTINGS_NESTING} levels deep, more than install-hooks writes back; fix it or paste the README block by hand`)
  }
  return { settings, layout: settingsLayout(text) }
}

/** How deep a settings file may nest arrays and objects, counted from the file (its object the first level). */
const SETTINGS_NESTING = 100

/** The field of settings that nests deeper than SETTINGS_NESTING, `the file` for a list. */
function fieldNestedTooDeep(settings: unknown): string | undefined {
  return fieldNestedPast(settings, SETTINGS_NESTING, 'the file')
}

/**
 * The file a settings path names, through any symlinks; the path itself when it does not exist
 * yet. A link whose target does not exist yet (a dotfiles repository without the file) names that
 * target: the file is created there, and the link kept.
 */
async function realTarget(file: string): Promise<string> {
  try {
    return await realpath(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  let path = resolve(file)
  // At most as many links as the kernel follows (ELOOP past 40).
  for (let hops = 0; hops < 40; hops++) {
    try {
      if (!(await lstat(path)).isSymbolicLink()) return path
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path
      throw error
    }
    path = resolve(dirname(path), await readlink(path))
  }
  throw Object.assign(new Error(`${file}: too many levels of symbolic links`), { code: 'ELOOP' })
}

/** The permission bits of an existing file, or undefined when there is none yet. */
async function modeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mode & 0o7777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * Replaces the settings file with `text` whole, or leaves it as it was (replaceFile), so that
 * Claude Code never reads half a file and a crash cannot leave an empty file where the user's
 * settings were. The new file keeps the old one's permissions (settings may hold secrets in `env`,
 * 0600). When any step fails (a full disk, a settings file that cannot be replaced: immutable, or
 * a bind mount), nothing is left beside the settings.
 */
async function replaceSettings(target: string, text: string): Promise<void> {
  await replaceFile(target, text, await modeOf(target))
}

/**
 * A token's value written in a hook command, quoted or not (bash's `$'…'` too), or as the default
 * of a variable (`${T:-abc}`, `${T-abc}`, `${T:=abc}`: the token is in the file, used whenever T is
 * unset) or its alternative (`${T:+abc}`, `${T+abc}`: used whenever T is set); not one read when the hook runs (`$(…)`, `$VAR`, `${VAR}`, a backtick, and a default
 * that is empty or itself read so, `${T:-}`, `${T:-$U}`). The value ends where sh's word does: at
 * a `;`, `&`, `|`, `<`, `>` or parenthesis, which begin what follows it; a `${…}` is whole.
 */
const READ_WHEN_RUN = /(?!["']?(?:\$(?!\{\w+:?[-=+]["']?[^\s"'$`}])[({\w]|`))/.source
const WRITTEN_TOKEN = new RegExp(
  String.raw`\b(DECISION_MEMORY_TOKEN=)${READ_WHEN_RUN}(?:\$\{[^}]*\}|\$?'[^']*'|"(?:[^"\\]|\\[\s\S])*"|(?:\\[\s\S]|[^\s'"\\;&|<>()])+)+`,
  'g',
)

/**
 * A hook command as the lines that say what changed print it: a token's value is not repeated
 * (`DECISION_MEMORY_TOKEN=…`), since those lines end up in terminals, scroll-back and CI logs. The
 * file itself holds the command as written.
 */
export function shownCommand(command: string): string {
  return command.replace(WRITTEN_TOKEN, '$1…')
}

/**
 * A token written into a hook's command (`DECISION_MEMORY_TOKEN=… node … hook`, kept from an earlier
 * install or given with --command) is said on stderr: a project's `.claude/settings.json` is
 * usually committed, and the token would go with it. The token itself is not repeated. A value
 * read when the hook runs (`$(cat ~/.dm-token)`, `$DM_TOKEN`) holds no token, and is not said.
 */
function warnOfToken(commands: readonly string[], file: string, written: boolean): void {
  if (!commands.some((c) => new RegExp(String.raw`\bDECISION_MEMORY_TOKEN=${READ_WHEN_RUN}\S`).test(c))) return
  process.stderr.write(
    `decision-memory install-hooks: a hook command in ${file} ${written ? 'holds' : 'would hold'} DECISION_MEMORY_TOKEN; if this file is committed, the token is too: ` +
      // A settings.local.json is the file git ignores: advised only for another.
      `set the variable in the environment Claude Code runs in instead${basename(file) === 'settings.local.json' ? '' : ', or keep the hooks in .claude/settings.local.json (--file)'}\n`,
  )
}

/**
 * A hook or guard kept as written, run inside quotes of the user's own (`bash -lc 'node /old/…/bin/decision-memory.js
 * hook'`), that names a checkout no longer there, is said on stderr as a --command's missing script
 * is (missingOfCommand): it is not moved to this checkout, and would fail on every call without a word.
 */
function warnOfGoneWrapped(commands: readonly string[], file: string): void {
  const gone = new Set(commands.map((c) => wrappedScriptOf(c)).filter((path): path is string => path !== undefined && !existsSync(path)))
  for (const path of gone) {
    process.stderr.write(
      `decision-memory install-hooks: warning: ${file}: a hook run inside quotes of your own, kept as written: ${path} does not exist on this machine; ` +
        `if the hook runs here (not through ssh or a container), it fails on every call until it does: edit the path in it, or remove that hook and run install-hooks again\n`,
    )
  }
}

/**
 * Hooks written to a file that sets `"disableAllHooks": true` never run: Claude Code turns every
 * hook off while it is set, and the ones just written would learn nothing, without a word.
 */
function warnOfDisabled(settings: Record<string, unknown>, file: string): void {
  if (settings.disableAllHooks !== true) return
  process.stderr.write(
    `decision-memory install-hooks: warning: ${file} sets "disableAllHooks": true, so Claude Code runs no hooks, these included; remove it (or set it to false) for them to run\n`,
  )
}

/**
 * An event of the file Claude Code does not know (unknownEvents), most often a typo of one
 * (`PreToolCall`): Claude Code runs no hook under it, which the user cannot tell, and some versions
 * skip the whole file for it, the hooks just written included. Said, not refused: an event of a
 * newer Claude Code is read there. Kept as it is; our hooks go under the events they are for.
 */
function warnOfUnknownEvents(settings: Record<string, unknown>, file: string): void {
  for (const { event, near } of unknownEvents(settings)) {
    const quoted = near.map((n) => JSON.stringify(n))
    const meant = near.length === 0 ? '' : ` (did you mean ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0]}?)`
    process.stderr.write(
      `decision-memory install-hooks: warning: ${file} has the event ${JSON.stringify(event)} under "hooks", which Claude Code does not know${meant}: ` +
        'it runs no hook under it, recent versions ignoring it with a warning and some (2.1.85 among them) skipping the whole file for it, ' +
        `the hooks written here included; rename it to the event you meant, or take it out (an event of a Claude Code newer than ${CLAUDE_CODE_EVENTS_VERSION}, which it may be, can be left)\n`,
    )
  }
}

/**
 * What a hook entry ended at its timeout, before the hook gave up on the service, costs. A capture
 * (PostToolUse, SessionStart) is on disk beside the spool once the hook has started and read it,
 * for the next call; ended before that (node slow to start on a loaded machine) it is gone. A
 * PreToolUse is not spooled: the question is asked as written, while the service, told the hook
 * waits its budget (`?wait_ms=`), may have recorded the answer it gave as given.
 */
function shortTimeoutCost(event: string): string {
  return event === 'PreToolUse'
    ? 'the question is asked as the agent wrote it, and an answer the service gave within the budget is recorded as given all the same'
    : "a capture it had written beside the spool waits for the hook's next call, but one it had not yet (node still starting, on a loaded machine) is lost"
}

/** Hook entries whose timeout Claude Code would end them by before they give up on the service (shortTimeouts). */
function warnOfShortTimeouts(settings: Record<string, unknown>, file: string): void {
  for (const { event, timeout, budgetMs } of shortTimeouts(settings, hookBudgetMs)) {
    process.stderr.write(
      `decision-memory install-hooks: warning: the ${event} hook in ${file} has a "timeout" of ${timeout} s, not above its budget (${budgetMs / 1000} s): ` +
        `Claude Code ends it before it gives up on a slow or stopped service: ${shortTimeoutCost(event)}; ` +
        // A new entry's timeout does not meet a budget of as long or longer (`--budget 8000`).
        (budgetMs < HOOK_TIMEOUT_SECONDS * 1000 ? `raise it (a new entry has ${HOOK_TIMEOUT_SECONDS})\n` : `raise it above ${budgetMs / 1000} s, or lower --budget\n`),
    )
  }
}

/**
 * A hook entry in a group that runs for no question, or under an event the hook does nothing at
 * (strayHooks): README tells the user to remove it, which they can only do once told it is there;
 * the one added beside it does the work.
 */
function warnOfStrayHooks(settings: Record<string, unknown>, file: string): void {
  for (const { event, matcher, noTool, other } of strayHooks(settings)) {
    if (other) {
      // At another event the hook sends and keeps nothing: the spool's turn it gives, the hooks at
      // SessionStart, PreToolUse and PostToolUse give too.
      process.stderr.write(
        `decision-memory install-hooks: warning: the hook in ${file} under ${event}${matcher === null ? '' : ` ("matcher": ${matcher})`} does nothing there: ` +
          `it neither sends nor keeps a ${event} payload, and starts node for nothing each time its group runs; ` +
          'remove it: the ones at SessionStart, PreToolUse and PostToolUse do its work\n',
      )
      continue
    }
    process.stderr.write(
      `decision-memory install-hooks: warning: the ${event} hook in ${file} under "matcher": ${matcher} never runs for a question (AskUserQuestion), ` +
        // A regex JavaScript cannot read matches no tool: it starts nothing, but does nothing either.
        (noTool ? 'nor for any tool, a regex JavaScript cannot read matching none' : 'only for the tools that matcher names, starting node at each of their calls for nothing') +
        '; remove it: the one in a group that runs for AskUserQuestion does its work\n',
    )
  }
}

/**
 * What our hook run at one event by two commands does (doubledHooks), each run as if alone: for one
 * user and service the second changes nothing (a session and an answer are stored once, by their
 * id; a question is planned alike), but runs; for two, both learn. Said as it is, for the user to
 * remove the one not meant.
 */
function doubledCost(event: string): string {
  if (event === 'PreToolUse') return 'each plans every question, and it is shown as one of them planned it (the same plan for one user and service)'
  if (event === 'PostToolUse') return 'each records every answer: once in all for one user and service (an answer is stored once, by its tool_use_id), once for each where their --user or service differs'
  return 'each counts every session start: once in all for one user and service (a session is stored once, by its id), once for each where their --user or service differs'
}

function warnOfDoubledHooks(settings: Record<string, unknown>, file: string): void {
  for (const { event, matchers, runs } of doubledHooks(settings)) {
    const where = matchers.length === 1 ? `under "matcher": ${matchers[0]}` : `under "matcher": ${matchers.slice(0, -1).join(', ')} and ${matchers.at(-1)}`
    process.stderr.write(
      `decision-memory install-hooks: warning: the ${event} hook in ${file} is there with ${runs} different commands ${where}, and Claude Code runs each (an identical command it runs once): ` +
        `${doubledCost(event)}; remove the one you do not mean\n`,
    )
  }
}

/**
 * A guard entry that never denies a command (strayGuards), said as a hook entry in a group that
 * runs for no question is (warnOfStrayHooks): under PreToolUse in a group that runs for no shell
 * command, it checks none there; under another event, it lets every payload pass.
 */
function warnOfStrayGuards(settings: Record<string, unknown>, file: string): void {
  const shell = GUARDED_TOOLS.join(', ')
  const both = GUARDED_TOOLS.join(' and ')
  for (const { event, matcher, noTool, guarded } of strayGuards(settings)) {
    const pre = event === 'PreToolUse'
    // A regex JavaScript cannot read matches no tool: it starts nothing, but does nothing either.
    const why = pre
      ? `under "matcher": ${matcher} never runs for a shell command (${shell}), ` +
        (noTool ? 'nor for any tool, a regex JavaScript cannot read matching none' : 'only for the tools that matcher names, starting node at each of their calls for nothing')
      : `under ${event}${matcher === null ? '' : ` ("matcher": ${matcher})`} never denies a command: the guard answers a PreToolUse payload alone and lets any other pass at once` +
        (noTool ? ', and a regex JavaScript cannot read matches none' : ', starting node there for nothing')
    const where = `${pre ? '' : 'under PreToolUse '}in a group that runs for ${both}`
    process.stderr.write(
      `decision-memory install-hooks: warning: the guard in ${file} ${why}` +
        // Without --guard, no group that runs for the shell tools may be there to do its work.
        (guarded ? `; remove it: the one ${where} does its work\n` : `; remove it, and run install-hooks --guard, which adds one ${where}\n`),
    )
  }
}

/**
 * Guard entries whose timeout Claude Code would end them by before their wait for the service
 * (shortGuardTimeouts): a slow service then lets the command run, --fail-closed or not.
 */
function warnOfShortGuardTimeouts(settings: Record<string, unknown>, file: string): void {
  for (const { matcher, timeout, timeoutMs, takesMs } of shortGuardTimeouts(settings, guardTimeoutMs)) {
    process.stderr.write(
      `decision-memory install-hooks: warning: the guard (matcher ${matcher}) in ${file} has a "timeout" of ${timeout} s, not above what the guard may take (${takesMs / 1000} s: ` +
        `its --timeout of ${timeoutMs / 1000} s for the payload, as long again for the service, and ${GUARD_START_MS / 1000} s to start): ` +
        `when the service is that slow Claude Code ends the guard first and the command runs, --fail-closed or not; raise the "timeout" or lower --timeout\n`,
    )
  }
}

/**
 * The variables a command sets that say which service the guard asks, and with which token (the
 * guard reads DECISION_MEMORY_URL or _PORT, and _TOKEN; not _USER, whose flag it does not take).
 */
function serviceVariablesOf(command: string): string[] {
  return [...new Set([...command.matchAll(/\b(DECISION_MEMORY_(?:URL|PORT|TOKEN))=/g)].map((m) => m[1] as string))]
}

/**
 * The words a hook command starts with, as sh reads the plain ones: unquoted, or whole in single
 * or double quotes. Stops at a word with anything sh would expand or join (`$`, a backtick, a
 * quote inside it, a backslash), which cannot be known before the hook runs.
 */
function leadingWords(command: string): string[] {
  const words: string[] = []
  for (const match of command.trim().matchAll(/"([^"$`\\]*)"(?=\s|$)|'([^']*)'(?=\s|$)|([^\s"'$`\\]+)(?=\s|$)|\S+/g)) {
    const word = match[1] ?? match[2] ?? match[3]
    if (word === undefined) break
    words.push(word)
  }
  return words
}

/** The builtins of POSIX sh a hook command may start with. */
const SHELL_BUILTINS = new Set(['.', ':', 'alias', 'cd', 'command', 'eval', 'exec', 'export', 'set', 'source', 'test', '[', 'true', 'false', 'ulimit', 'umask', 'unset', 'if', 'for', 'while', 'until', 'case', '{', '(', '!'])

/**
 * What a --command runs that is not there, said before it is written into every hook call: the
 * program (past `NAME=value` assignments), as an absolute path or on this PATH, and the script
 * `node` is given by absolute path (a clone moved or deleted). Undefined when all is there, or
 * when it cannot be known here (a relative path is the agent's project's, a `$VAR` the hook's).
 * On Windows a program is found as the shell finds it, with an extension of `PATHEXT` (`node` is
 * `node.exe`), and the PATH's folders are separated by `;`.
 */
export function missingOfCommand(command: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const words = leadingWords(command)
  while (words[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words.shift()
  const [program, script] = words
  // A builtin of sh (`cd DIR && …`, `exec node …`) is on no PATH, and what it runs is not read here.
  if (program === undefined || SHELL_BUILTINS.has(program)) return undefined
  const windows = platform === 'win32'
  const { isAbsolute, delimiter } = windows ? win32 : posix
  // Windows reads a variable's name in any case (`Path` is the usual spelling); elsewhere as written.
  const variable = (name: string) => (windows ? (env[name] ?? Object.entries(env).find(([key]) => key.toUpperCase() === name)?.[1]) : env[name])
  const extensions = windows ? ['', ...(variable('PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '')] : ['']
  // Both cases: PATHEXT says `.EXE`, the file is `node.exe` (one name to Windows, not to every file system).
  const found = (file: string) => extensions.some((extension) => existsSync(file + extension) || existsSync(file + extension.toLowerCase()))
  // A path, not a name to look up on the PATH: on Windows written with `\` too (quoted for bash).
  if (program.includes('/') || (windows && program.includes('\\'))) {
    if (isAbsolute(program) && !found(program)) return `${program} does not exist`
  } else {
    const path = (variable('PATH') ?? '').split(delimiter).filter((folder) => folder !== '')
    if (!path.some((folder) => found(join(folder, program)))) return `${program} is not on this PATH`
  }
  const isNode = windows ? /^node(?:\.exe)?$/i.test(win32.basename(program)) : basename(program) === 'node'
  if (isNode && script !== undefined && isAbsolute(script) && !existsSync(script)) return `${script} does not exist`
  return undefined
}

/**
 * Whether `command` runs `decision-memory … hook` with --record-set-aside among the words sh gives
 * it (hookWords: `hook --record-set-aside --user alice`, `--record-set-aside=…`, quoted too), as
 * hook reads its arguments: the hook then runs that command, which a person runs by hand
 * (hookCommand), and reads no payload. A word that only holds the text (`--user 'a --record-set-aside'`,
 * a path), or one after the command ends (`; echo --record-set-aside`, bash's `$0` after
 * `bash -lc "… hook"`), is none.
 */
export function runsRecordSetAside(command: string): boolean {
  return (hookWords(command) ?? []).some((word) => word !== null && (word === RECORD_SET_ASIDE || word.startsWith(`${RECORD_SET_ASIDE}=`)))
}

/** The two settings files of a project that Claude Code reads, in its `.claude` folder. */
const PROJECT_SETTINGS = ['settings.json', 'settings.local.json']

/**
 * The other settings files Claude Code reads beside `file` that install-hooks writes: beside a
 * project's (or any other), the user's `~/.claude/settings.json`, and for a project's own
 * (`.claude/settings.json`, `.claude/settings.local.json`) the other of the two, which Claude Code
 * reads with it (an earlier install with `--file …/settings.local.json`, then `--project`); beside
 * the user's, those of the project in the current folder.
 */
function settingsBeside(file: string): string[] {
  const user = join(homeFolder(), '.claude', 'settings.json')
  const folder = dirname(resolve(file))
  const project = basename(folder) === '.claude' && PROJECT_SETTINGS.includes(basename(file)) ? PROJECT_SETTINGS.map((name) => join(folder, name)) : []
  const others = resolve(file) === resolve(user) ? PROJECT_SETTINGS.map((name) => resolve('.claude', name)) : [user, ...project]
  return [...new Set(others.map((other) => resolve(other)))].filter((other) => other !== resolve(file))
}

/**
 * Our hook in another settings file Claude Code reads (settingsBeside) with a command the one
 * written lacks (hooksRunBeside): both run. Mostly harmless, so a note: for one user and service
 * the second run stores nothing more (an answer by its tool_use_id, a session by its id, checked
 * for real) and starts node again; where their --user or service differs, both learn. A file that
 * is not there, or not readable as JSON, is none.
 */
async function noteHooksBeside(settings: Record<string, unknown>, file: string): Promise<void> {
  for (const other of settingsBeside(file)) {
    let read: unknown
    try {
      read = JSON.parse((await readFile(other, 'utf8')).replace(/^\uFEFF/, ''))
    } catch {
      continue
    }
    const beside = hooksRunBeside(settings, read)
    if (beside.length === 0) continue
    const events = beside.map((b) => b.event)
    const commands = [...new Set(beside.flatMap((b) => b.commands))].map(shownCommand)
    process.stderr.write(
      `decision-memory install-hooks: note: ${other} holds decision-memory's ${events.join(', ')} hook${events.length === 1 ? '' : 's'} too, with another command (${commands.join('; ')}), ` +
        'and Claude Code runs the hooks of both files (an identical command once): for one user and service that is harmless, each answer and session stored once, ' +
        'the second run only starting node again; where their --user or service differs, both learn every answer; remove one if you did not mean both\n',
    )
  }
}

/**
 * Our hook's commands at its events, as said: `SessionStart, PostToolUse: node … hook --user alice;
 * PreToolUse: node … hook`, a token's value not repeated. `asFlag`, each as the `--command` that
 * writes it, quoted for the shell (`--command 'node "/…" hook --user alice'`), so that the one meant
 * can be pasted: as it was, unquoted, the shell split it, and install-hooks refused the words after
 * `--command node` (exit 2). A token, not repeated, is to be written in by hand, and said to be.
 */
function heldSaid(held: HeldCommands, asFlag = false): string {
  return held
    .map(({ command, events }) => {
      const shown = shownCommand(command)
      if (!asFlag) return `${events.join(', ')}: ${shown}`
      return `${events.join(', ')}: --command ${shellWord(shown)}${shown === command ? '' : ' (with the value of DECISION_MEMORY_TOKEN, not repeated here, for …)'}`
    })
    .join('; ')
}

/** `decision-memory install-hooks` (R-CAP-5): the hooks merged, nothing clobbered. */
export async function installHooksCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      project: { type: 'string' },
      user: { type: 'boolean' },
      file: { type: 'string' },
      command: { type: 'string' },
      guard: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
    },
    strict: true,
  })
  const targets = [values.project !== undefined, values.user === true, values.file !== undefined].filter(Boolean)
  if (targets.length > 1) throw new UsageError('give one of --project, --user or --file')
  // `-` is stdout to a script (`--out -` of export): not a settings file named `-` made here.
  if (values.file === '-') throw new UsageError('--file -: install-hooks writes a settings file; for the settings on stdout, use --dry-run')
  // A leading `~` is the home folder, as for --data: no shell expands it after `--file=`, nor does
  // cmd.exe anywhere, and `~/app/.claude/settings.local.json` would be made in a folder named `~` here.
  if (values.file !== undefined) values.file = homePath(values.file)
  if (values.project !== undefined) values.project = homePath(values.project)
  const file =
    values.file !== undefined
      ? resolve(values.file)
      : values.user === true
        ? // The account's home when HOME is empty or relative: not the .claude of the folder it runs in.
          join(homeFolder(), '.claude', 'settings.json')
        : join(resolve(values.project ?? '.'), '.claude', 'settings.json')
  if (values.command !== undefined && values.command.trim() === '') throw new UsageError('--command is empty: give the hook command, or leave --command out')
  if (values.command !== undefined && runsRecordSetAside(values.command)) {
    throw new UsageError(
      `--command runs hook ${RECORD_SET_ASIDE}, a command you run by hand, which reads no payload: as a hook it would record no question, answer or session, ` +
        'and exit as that command does (2 for a usage mistake, which blocks the question at PreToolUse); give the hook command without it',
    )
  }
  const command = values.command ?? defaultHookCommand()
  if (values.guard === true && guardCommandOf(command) === null) throw new UsageError('--guard: --command runs no "decision-memory … hook" outside quotes, so the guard\'s command cannot be told from it; add the guard by hand (README, The guard hook)')
  // A warning, not a refusal: the command runs on Claude Code's PATH, which may not be this one.
  const missing = values.command === undefined ? undefined : missingOfCommand(values.command)
  if (missing !== undefined) {
    process.stderr.write(`decision-memory install-hooks: warning: --command: ${missing}; the hooks would fail on every call until it does\n`)
  }
  // A wrapper script (`--command ~/bin/dm-hook`) is written, but an entry is known as ours by a
  // `decision-memory … hook` in it: a later install without this --command added its own beside
  // it, unsaid, and Claude Code then ran both at every question.
  if (values.command !== undefined && hookWords(values.command) === undefined) {
    process.stderr.write(
      'decision-memory install-hooks: warning: --command runs no "decision-memory … hook" (a wrapper script?): an install-hooks run later without this same --command ' +
        'will not know these entries as decision-memory\'s, and will add its own beside them, both then run by Claude Code; give it this --command again, or remove these entries first\n',
    )
  }
  const fail = (message: string) => {
    process.stderr.write(`decision-memory install-hooks: ${message}\n`)
    return 1
  }
  // A project that is not there is a mistyped path: making it would write hooks no agent runs.
  if (values.project !== undefined) {
    const folder = resolve(values.project)
    const kind = await stat(folder).then((s) => (s.isDirectory() ? 'folder' : 'not a folder'), () => 'missing')
    if (kind !== 'folder') return fail(`--project ${folder}: ${kind === 'missing' ? 'no such folder' : 'not a folder'}; give the project's folder`)
  }
  // So is a settings file whose folder is not there, nor the one above it: the settings folder
  // (`.claude`) is made, not the project (`--file ~/code/my-ap/.claude/settings.local.json`).
  if (values.file !== undefined && !(await stat(dirname(file)).then(() => true, () => false))) {
    const above = dirname(dirname(file))
    const kind = await stat(above).then((s) => (s.isDirectory() ? 'folder' : 'not a folder'), () => 'missing')
    if (kind !== 'folder') return fail(`--file ${file}: ${above} is ${kind === 'missing' ? 'no such folder' : 'not a folder'}; give a settings file in an existing folder`)
  }

  // A device or a pipe is no settings file: /dev/stdout (for the settings on stdout) waited for
  // input from the terminal, /dev/zero and /dev/full were read until the string could grow no
  // more (a stack trace), and /dev/null was "wrote", renamed over by a file: as root, the
  // system's /dev/null made a file of.
  const special = await stat(file).then(specialFileKind, () => undefined)
  if (special !== undefined) {
    // Reached by --project or --user, the file is the one Claude Code reads there: it must be made one.
    const give = values.file !== undefined ? 'give --file a settings file' : 'make it a settings file, or move it aside'
    return fail(`cannot use ${file}: ${special}, not a settings file: ${give} (the settings on stdout are --dry-run's); nothing written`)
  }

  let merged
  let layout = NEW_FILE_LAYOUT
  let unguarded: string[] = []
  let leftBehind: ReturnType<typeof guardsLeftBehind> = []
  try {
    const read = await readSettings(file)
    layout = read.layout
    // Given, the command is written at every event where they held different users or services.
    merged = mergeHooks(read.settings, command, hookBudgetMs, values.command !== undefined)
    // Not asked to move the guard, it stays where it was: said where the hooks moved away from it.
    if (values.guard !== true) leftBehind = guardsLeftBehind(merged.settings, merged.changes.find((c) => c.event === 'PreToolUse')?.command ?? command)
    if (values.guard === true) {
      // From the hook command as written, which keeps the variables an earlier install set before
      // it (`DECISION_MEMORY_URL=…`): the guard must ask the same service.
      const written = merged.changes.find((c) => c.event === 'PreToolUse')?.command ?? command
      const besideWritten = guardCommandOf(written)
      const guarded = mergeGuard(merged.settings, besideWritten ?? (guardCommandOf(command) as string), guardTimeoutMs)
      merged = { ...merged, settings: guarded.settings, changes: [...merged.changes, ...guarded.changes] }
      // A hook kept inside quotes of the user's own gives no guard command: the one added is the
      // default's, without what the wrapper sets for the service (asked of another, or refused);
      // not so when it copies a guard already there for Bash (mergeGuard), which sets them itself.
      const added = guarded.changes.find((c) => c.action === 'added')
      if (besideWritten === null && added !== undefined) {
        const carried = serviceVariablesOf(added.command)
        unguarded = serviceVariablesOf(written).filter((variable) => !carried.includes(variable))
      }
    }
    // Once merged: an entry of ours without its `type` has been given one, and is no refusal.
    hookEntryNotShaped(merged.settings)
  } catch (error) {
    if (error instanceof DifferingHooksError) {
      return fail(
        `${file}: decision-memory's hook holds ${error.held.length} different commands at its events (${heldSaid(error.held, true)}): updated each with its own, one install would plan and record for more than one user or service; ` +
          'give the one you mean with --command, which every event is then written with, or edit them to one; nothing written',
      )
    }
    if (error instanceof SettingsShapeError) return fail(`${file}: ${error.message}; nothing written`)
    const code = (error as NodeJS.ErrnoException).code
    if (code === undefined) throw error
    // `EISDIR` alone named no file to give instead: a `.claude` folder's settings file is in it,
    // another folder given to --file (a project's) in its `.claude`, which --project writes. A
    // folder at the settings file's own path (`settings.json/`, --project's or --user's too) is
    // none of those: it was told to take `settings.json/.claude/settings.json`.
    const folderGiven =
      basename(file) === '.claude'
        ? `a folder: give --file a settings file in it, such as ${shellWord(join(file, 'settings.json'))}`
        : values.file !== undefined && extname(file) !== '.json'
          ? `a folder: give --file a settings file, such as ${shellWord(join(file, '.claude', 'settings.json'))}, or --project ${shellWord(file)} to write that one`
          : 'a folder where the settings file would be: move it aside, or give --file another settings file'
    return fail(`${cannotRead(file, code, { EISDIR: folderGiven })}; nothing written`)
  }
  // An earlier entry of ours that runs hook --record-set-aside keeps its flags when moved, at every
  // event (movedCommand): the --command check alone let it be written into each hook.
  const setAside = merged.changes.filter((c) => runsRecordSetAside(c.command))
  if (setAside.length > 0) {
    return fail(
      `${file}: decision-memory's hook at ${setAside.map((c) => c.event).join(', ')} would run ${shownCommand(setAside[0]?.command as string)}, the flags of an entry of it there kept: ` +
        `hook ${RECORD_SET_ASIDE} is a command you run by hand, which reads no payload: as a hook it would record no question, answer or session, and exit as that command does ` +
        `(2 for a usage mistake, which blocks the question at PreToolUse); take ${RECORD_SET_ASIDE} out of that entry, or give the hook command with --command and the flags you mean; nothing written`,
    )
  }
  const text = settingsText(merged.settings, layout)
  // Said once they are so: a write that fails adds nothing, and its error says the file is as it was.
  const sayChanges = async (out: NodeJS.WriteStream = process.stdout) => {
    for (const change of merged.changes) {
      const where = change.matcher === null ? change.event : `${change.event} (matcher ${change.matcher})`
      out.write(`${change.action.padEnd(9)} ${where}: ${shownCommand(change.command)}\n`)
    }
    if (merged.differing.length > 0) {
      process.stderr.write(
        `decision-memory install-hooks: note: ${file} held decision-memory's hook with ${merged.differing.length} different commands at its events (${heldSaid(merged.differing)}): ` +
          `every event ${values['dry-run'] === true ? 'would run' : 'now runs'} --command as given, without the flags and variables of any of them\n`,
      )
    }
    warnOfToken(merged.changes.map((c) => c.command), file, values['dry-run'] !== true)
    warnOfGoneWrapped(merged.changes.map((c) => c.command), file)
    warnOfDisabled(merged.settings, file)
    warnOfUnknownEvents(merged.settings, file)
    warnOfShortTimeouts(merged.settings, file)
    warnOfShortGuardTimeouts(merged.settings, file)
    warnOfStrayHooks(merged.settings, file)
    warnOfStrayGuards(merged.settings, file)
    warnOfDoubledHooks(merged.settings, file)
    for (const { matcher, was, would } of leftBehind) {
      // A guard that asks no running service lets every command through (fail-open), saying so
      // only on a stderr Claude Code keeps to itself.
      process.stderr.write(
        `decision-memory install-hooks: warning: the guard in ${file} (matcher ${matcher}) still runs ${shownCommand(was)}, not as the hooks now run: ` +
          'it asks another service, or runs another clone, than they do, and one that reaches no service lets every command through; ' +
          `run install-hooks again with --guard to move it with them (${shownCommand(would)})\n`,
      )
    }
    if (unguarded.length > 0) {
      process.stderr.write(
        `decision-memory install-hooks: warning: the hook kept inside quotes of your own sets ${unguarded.join(', ')}, and the guard added beside it does not: ` +
          `hook and guard may ask different services; add ${unguarded.length === 1 ? 'it' : 'them'} to the guard's command by hand\n`,
      )
    }
    await noteHooksBeside(merged.settings, file)
  }
  if (values['dry-run'] === true) {
    // Stdout is the settings alone, JSON a program can read (`--dry-run | jq`); what would change,
    // and where, is for the person, on stderr.
    await sayChanges(process.stderr)
    process.stderr.write(`${file} would read:\n`)
    process.stdout.write(text)
    return 0
  }
  if (merged.changes.every((c) => c.action === 'unchanged')) {
    await sayChanges()
    process.stdout.write(`${file} already has every hook; nothing written\n`)
    return 0
  }
  try {
    // A settings file kept as a symlink (a dotfiles repository) is written where it points:
    // renaming over the link itself would replace it with a copy and cut it from its target.
    const target = await realTarget(file)
    await mkdir(dirname(target), { recursive: true })
    await replaceSettings(target, text)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === undefined) throw error
    return fail(`cannot write ${file}: ${code}; it is as it was`)
  }
  await sayChanges()
  process.stdout.write(`wrote ${file}\n`)
  return 0
}
