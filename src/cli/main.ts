import { nearestNames } from '../edit-distance'
import { UsageError } from './options'
import { packageVersion } from './package-version'
import { printable, printableLine } from '../terminal'
import { holdStopSignals } from './stop-signals'

/** A command of the CLI, loaded only when it runs: the hooks start on every agent event and must start fast. */
interface CommandModule {
  run: (argv: string[]) => Promise<number | void>
  help: string
}

const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  serve: async () => {
    const m = await import('./serve')
    return { run: m.serveCommand, help: m.SERVE_HELP }
  },
  toggle: async () => {
    const m = await import('./toggle')
    return { run: m.toggleCommand, help: m.TOGGLE_HELP }
  },
  hook: async () => {
    const m = await import('./hook')
    return { run: m.hookCommand, help: m.HOOK_HELP }
  },
  'install-hooks': async () => {
    const m = await import('./install-hooks')
    return { run: m.installHooksCommand, help: m.INSTALL_HOOKS_HELP }
  },
  mcp: async () => {
    const m = await import('./mcp')
    return { run: m.mcpCommand, help: m.MCP_HELP }
  },
  guard: async () => {
    const m = await import('./guard')
    return { run: m.guardCommand, help: m.GUARD_HELP }
  },
  'import-adr': async () => {
    const m = await import('./import-adr')
    return { run: m.importAdrCommand, help: m.IMPORT_ADR_HELP }
  },
  why: async () => {
    const m = await import('./why')
    return { run: m.whyCommand, help: m.WHY_HELP }
  },
  preferences: async () => {
    const m = await import('./preferences')
    return { run: m.preferencesCommand, help: m.PREFERENCES_HELP }
  },
  export: async () => {
    const m = await import('./export')
    return { run: m.exportCommand, help: m.EXPORT_HELP }
  },
  forget: async () => {
    const m = await import('./forget')
    return { run: m.forgetCommand, help: m.FORGET_HELP }
  },
  'decay-scan': async () => {
    const m = await import('./decay-scan')
    return { run: m.decayScanCommand, help: m.DECAY_SCAN_HELP }
  },
}

/** A command by name; own entries only, so `constructor` is an unknown command, not Object's. */
function commandNamed(name: string) {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
}

/** Errors of the environment the user can fix (a broken policy or tokens file, a store in use, a service that does not answer, a variable that is not valid): one line, no stack. */
const OPERATIONAL_CODES = new Set(['POLICY_INVALID', 'STORE_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'TOKENS_INVALID', 'ENVIRONMENT_INVALID'])

const HELP = `decision-memory — remembers what a user picks when an agent asks, and recommends it

Usage: decision-memory <command> [flags]

Commands:
  serve          run the HTTP service (default 127.0.0.1:7420, data in ./data)
  toggle         turn personalization on or off for a session, or show it (--show)
  hook           the Claude Code hook: send one hook payload (stdin) to the service
  install-hooks  merge the hooks into Claude Code's settings.json
  mcp            an MCP server over stdio (recommend, plan_questions, record_choice, why, check_decision)
  guard          Claude Code PreToolUse hook: deny a Bash or PowerShell command a required decision forbids
  import-adr     import decision records (adr-tools, MADR, log4brains, DECISIONS.md, AXME Code)
  why            the supersede chain of a decision, or what is behind a point's recommendation
  preferences    what has been learned about a user
  export         everything held about a user, as NDJSON
  forget         delete everything held about a user
  decay-scan     take expired observations out of recall and keep core within its size
  help           this text; \`decision-memory help <command>\` for one command
  version        print the version (also --version, -v)

Which store: a command given --data DIR acts on that store: through the service at
$DECISION_MEMORY_URL if that service says it holds it, else opened by the command; when another
process holds it, or DIR has no store, it refuses (exit 1). Without --data, it goes through the
running service at $DECISION_MEMORY_URL, and opens $DECISION_MEMORY_DATA or ./data when none runs
(mcp and import-adr: this checkout's data, where npm start keeps it, not ./data).

Environment (a variable set empty is unset):
  DECISION_MEMORY_URL        the service the commands, hooks and MCP server reach
                             (default http://127.0.0.1:$DECISION_MEMORY_PORT)
  DECISION_MEMORY_PORT       serve's port, and the default URL's (default 7420)
  DECISION_MEMORY_DATA       serve's store (default ./data), and the one a command opens when no
                             service runs and no --data is given
  DECISION_MEMORY_USER       whose choices: the default --user of hook, toggle, why, preferences
                             and the MCP tools (default "default"; toggle's, the one user who
                             has the session)
  DECISION_MEMORY_TOKEN      the bearer token sent to a service run with --auth
  DECISION_MEMORY_AUTH       serve's tokens file (--auth)
  DECISION_MEMORY_SPOOL      the hook's spool, which forget takes a user's events out of too
                             (default ~/.decision-memory/spool.ndjson)
  DECISION_MEMORY_LOG_LEVEL  serve's log level (default info)

`

/**
 * The help after an unknown command: its usage and commands, not the store and the environment.
 * The whole help (41 lines) scrolled the line saying what was wrong off a terminal of 24.
 */
const COMMANDS_HELP = `${HELP.slice(0, HELP.indexOf('\nWhich store:'))}
\`decision-memory help\` also says which store a command acts on and the environment it reads.
`

const HELP_HELP = `decision-memory help [COMMAND]

  The help of every command, or of COMMAND.
`

const VERSION_HELP = `decision-memory version

  Prints the package's version.
`

/** A flag `help` or `version` does not take, in the words parseArgs gives the other commands' (`Unknown option '--bogus'`). */
function unknownOption(flag: string): string {
  return `Unknown option '${flag.replace(/=.*$/s, '')}'`
}

/**
 * A flag a command does not take, said as one of the commands that do (`why --on`: `--on is a flag
 * of toggle, not of why`), rather than in parseArgs' words alone, which for a command taking
 * positionals ran on about giving `--on` after `--`. Read from each command's usage lines (the
 * lines its help starts with, `decision-memory …` each: the hook's second is `--record-set-aside`'s),
 * which list its flags; undefined when no other command takes it.
 */
export async function flagOfOthers(name: string, message: string): Promise<string | undefined> {
  const flag = /^Unknown option '(--[a-z][a-z-]*)'/.exec(message)?.[1]
  if (flag === undefined) return undefined
  const owners = (await commandsTaking(flag)).filter((other) => other !== name)
  if (owners.length === 0) return undefined
  return `${flag} is a flag of ${listed(owners, 'and')}, not of ${name}`
}

/** The commands whose usage lines name `flag`. */
async function commandsTaking(flag: string): Promise<string[]> {
  const named = new RegExp(`(?<![\\w-])${flag}(?![\\w-])`)
  const owners: string[] = []
  for (const [name, load] of Object.entries(COMMANDS)) {
    if (usageLines((await load()).help).some((line) => named.test(line))) owners.push(name)
  }
  return owners
}

/** `a`, `a or b`, `a, b or c`. */
function listed(names: string[], conjunction: 'and' | 'or'): string {
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`
}

/**
 * A flag the command does not take that is a slip of one it does (`preferences --usr`, `why
 * --pont`): said with the flag it may be, rather than parseArgs' words alone, which for a command
 * taking positionals ran on about giving `--pont` after `--`. Undefined when none is that near.
 */
export function flagSlip(help: string, message: string): string | undefined {
  // Upper case too (`--User`): nearestNames reads a slip of case first.
  const flag = /^Unknown option '(--[A-Za-z][A-Za-z-]*)'/.exec(message)?.[1]
  if (flag === undefined) return undefined
  // --help, which every command takes (asksHelp), is in no usage line.
  const own = [...new Set([...(usageLines(help).join(' ').match(/--[a-z][a-z-]*/g) ?? []), '--help'])]
  // Of one with a capital, only its own in lower case: `--On` is toggle's --on, no slip of --json.
  const near = flag === flag.toLowerCase() ? nearestNames(flag, own) : own.filter((name) => name === flag.toLowerCase())
  return near.length === 0 ? undefined : `Unknown option '${flag}': did you mean ${listed(near, 'or')}?`
}

/**
 * What an unknown command may have meant, after the name: a command it is a slip of (`prefrences`:
 * `did you mean preferences?`), or, for a flag given before any command (`--port 0 serve`), that a
 * flag comes after its command, the one that takes it named when only one does. Empty when there
 * is nothing to add.
 */
async function commandHint(typed: string): Promise<string> {
  // `--` and `-` are no flags: nothing to say of where one goes.
  if (/^--?$/.test(typed)) return ''
  if (typed.startsWith('-')) {
    const flag = typed.replace(/=.*$/s, '')
    const owners = /^--[a-z][a-z-]*$/.test(flag) ? await commandsTaking(flag) : []
    // A slip of a flag decision-memory takes itself, before any command (`--verison`), is no flag
    // of a command to move after one.
    const own = owners.length === 0 ? nearestNames(flag, ['--help', '--version']) : []
    if (own.length > 0) return `: did you mean ${listed(own, 'or')}?`
    // Nor is a command's name given as one that no command takes (`--serve`): that command.
    const named = owners.length === 0 && flag.startsWith('--') ? nearestNames(flag.slice(2), Object.keys(COMMANDS)) : []
    if (named.length > 0) return `: did you mean ${listed(named, 'or')}?`
    if (owners.length === 0) return ': a flag goes after its command, decision-memory <command> [flags]'
    return `: a flag goes after its command, decision-memory ${owners.length === 1 ? owners[0] : '<command>'} ${flag} …`
  }
  const near = nearestNames(typed, [...Object.keys(COMMANDS), 'help', 'version'])
  return near.length === 0 ? '' : `: did you mean ${listed(near, 'or')}?`
}

/** A help's usage lines: those it starts with, each `decision-memory COMMAND …`. */
function usageLines(help: string): string[] {
  const lines = help.split('\n')
  const end = lines.findIndex((line) => !line.startsWith('decision-memory '))
  return end === -1 ? lines : lines.slice(0, end)
}

/** Whether `--help` (or `-h`) is anywhere among a command's arguments: its help, then, and nothing else. */
function asksHelp(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h')
}

/** A mistake in how \`help\` or \`version\` was called: said with its help, exit 2, as for every other command. */
function misused(name: string, message: string, help: string): number {
  process.stderr.write(`decision-memory ${name}: ${printableLine(message)}\n\n${help}`)
  return 2
}

/** The command whose output stdout carries now: what a failure to write it means depends on it. */
let stdoutOwner: string | undefined
let stdoutWatched = false

// A reader that stops reading (`export … | head -1`, `help | grep -q serve`) is no failure of the
// command to report with a stack trace: it ends quietly, with the status of a command killed by
// SIGPIPE (141). From the start, so that help and version, written before any command is
// loaded, end so too. Not for serve, whose log has its own destination, nor the two Claude Code
// hooks, hook and guard: Claude Code reports any exit but 0 and 2 as a hook error (2 blocks the
// tool call), so their answer goes unread and they end as they would have (R-CAP-6).
function onStdoutError(error: NodeJS.ErrnoException): void {
  const name = stdoutOwner
  // serve writes nothing of its own to stdout: a failure there is as unexpected as with no listener.
  if (name === 'serve') throw error
  if (name === 'hook' || name === 'guard') {
    if (error.code === 'EPIPE') return
    // The hook always exits 0 (R-CAP-6): its event is delivered or spooled by the time it
    // answers, and an answer it cannot write (a full disk under a redirected stdout) is said,
    // not made a hook error with a stack trace.
    if (name === 'hook') {
      process.stderr.write(`decision-memory hook: cannot write the answer: ${error.code ?? error.message}\n`)
      return
    }
    throw error
  }
  if (error.code === 'EPIPE') process.exit(141)
  // Any other failure to write the output (ENOSPC: `export … > backup.ndjson` on a full disk)
  // is the command's failure, said in one line as the others are, not as a stack trace.
  process.stderr.write(`decision-memory${name === undefined ? '' : ` ${name}`}: cannot write the output: ${error.code ?? error.message}\n`)
  process.exit(1)
}

/**
 * A stderr the two Claude Code hooks cannot write (EPIPE: Claude Code closed its end, as it may
 * when it gives up on a hook) has no one to be told of it: with no listener, the failed write threw
 * on a later turn, ending the hook with exit 1 (a hook error) before it did what the line was said
 * before (a capture after a flag mistake, never spooled), and the guard before its exit 2. So for
 * the other commands, whose stderr a reader stopped reading (`install-hooks --dry-run 2>&1 | head -1`,
 * `2>&1 >settings.json | head -1`): the throw ended the command with exit 1, "not done", after it
 * had been done (a toggle), or before its result was written to stdout (the settings of a dry run,
 * lost). The messages go unread; the command ends as it would have, its stdout still written (and
 * 141 when stdout is that same closed pipe). Another failure to write stderr throws as before.
 */
function onStderrError(error: NodeJS.ErrnoException): void {
  if (stdoutOwner === 'hook' || stdoutOwner === 'guard') return
  if (error.code === 'EPIPE') return
  throw error
}
let stderrWatched = false

/**
 * The `decision-memory` command: one doorway per file, each onto the same functions as HTTP.
 * `early`: the stop signals `serve` was sent while its code loaded (bin/decision-memory.js).
 */
export async function main(argv: string[], early: readonly string[] = []): Promise<number> {
  const [name, ...rest] = argv
  // Before serve's module loads (a few hundred ms): a stop signal then is held for its start.
  if (name === 'serve') holdStopSignals(early)
  // One listener on stdout for the process, whichever command runs (see onStdoutError); tests run
  // main many times in one process, and a listener each would pile up on the one stdout.
  stdoutOwner = name
  if (!stdoutWatched && name !== 'serve') {
    process.stdout.on('error', onStdoutError)
    stdoutWatched = true
  }
  // Not serve, whose stderr carries only its warnings at start, nor mcp, which watches its own.
  if (!stderrWatched && name !== 'serve' && name !== 'mcp') {
    process.stderr.on('error', onStderrError)
    stderrWatched = true
  }
  if (name === undefined) {
    // Nothing was asked, so nothing was done: no success to report to a script. 1, not 2, as for an
    // unknown command: a hook whose command lost its arguments must not block every tool call.
    process.stderr.write(`decision-memory: no command given\n\n${HELP}`)
    return 1
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    // As for every other command, `--help` anywhere among its arguments is its help, exit 0, even
    // beside a flag it does not take (`help --bogus --help`): a version before this said the flag.
    if (asksHelp(rest)) {
      process.stdout.write(HELP_HELP)
      return 0
    }
    const flag = rest.find((arg) => arg.startsWith('-'))
    if (flag !== undefined) return misused('help', unknownOption(flag), HELP_HELP)
    if (rest.length > 1) return misused('help', `help takes one command, not ${rest.length} ("${rest.join(' ')}")`, HELP_HELP)
    const topic = rest[0] === undefined ? undefined : commandNamed(rest[0])
    // `help` and `version` are in the list above without a module of their own.
    const own = rest[0] === 'help' ? HELP_HELP : rest[0] === 'version' ? VERSION_HELP : undefined
    if (rest[0] !== undefined && topic === undefined && own === undefined) {
      // As for an unknown command itself: a help that does not exist is no success.
      process.stderr.write(`${printableLine(`decision-memory: no command "${rest[0]}" to help with${await commandHint(rest[0])}`)}\n\n${COMMANDS_HELP}`)
      return 1
    }
    if (own !== undefined) process.stdout.write(own)
    else if (topic !== undefined) process.stdout.write((await topic()).help)
    else process.stdout.write(HELP + (await Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).help))).join('\n'))
    return 0
  }
  // `-v` and `-V` too, as node and npm take them: read as a flag before a command, they were told
  // where flags go, with the whole help, to a user who asked for the version.
  if (name === 'version' || name === '--version' || name === '-v' || name === '-V') {
    if (asksHelp(rest)) {
      process.stdout.write(VERSION_HELP)
      return 0
    }
    const flag = rest.find((arg) => arg.startsWith('-'))
    if (flag !== undefined) return misused('version', unknownOption(flag), VERSION_HELP)
    if (rest.length > 0) return misused('version', `version takes no arguments, not "${rest.join(' ')}"`, VERSION_HELP)
    process.stdout.write(packageVersion() + '\n')
    return 0
  }
  const load = commandNamed(name)
  if (load === undefined) {
    // 1, not 2: Claude Code blocks the tool call of a PreToolUse hook that exits 2, so a typo in a
    // hook's command would block every question or Bash command it matches (as git, exit 1).
    process.stderr.write(`${printableLine(`decision-memory: unknown command "${name}"${await commandHint(name)}`)}\n\n${COMMANDS_HELP}`)
    return 1
  }
  const command = await load()
  if (asksHelp(rest)) {
    process.stdout.write(command.help)
    return 0
  }
  // Once it serves, mcp's stdout is the protocol's, and a client that reads no more ends the session
  // as one closing stdin does (src/cli/mcp.ts): 141 at once cut off the calls in flight, a choice
  // being stored among them, without a word.
  // The listener is then the process's no more: a later main call in the process (tests) adds it again.
  if (name === 'mcp') {
    process.stdout.off('error', onStdoutError)
    stdoutWatched = false
  }
  try {
    const code = await command.run(rest)
    return code ?? -1
  } catch (error) {
    const code = (error as { code?: unknown }).code
    // What the messages quote was typed or set by someone (a flag, a value, a variable, a file's
    // path): an escape sequence there would run in the terminal, so it is shown escaped, as the
    // commands show names. A usage error is one line, so a line feed in a value is escaped too; an
    // operational one may run on to lines of its own (an invalid policy's fields).
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      const said = (error as Error).message
      const message = (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? ((await flagOfOthers(name, said)) ?? flagSlip(command.help, said)) : undefined) ?? said
      process.stderr.write(`decision-memory ${name}: ${printableLine(message)}\n\n${command.help}`)
      return 2
    }
    if (typeof code === 'string' && OPERATIONAL_CODES.has(code)) {
      process.stderr.write(`decision-memory ${name}: ${printable((error as Error).message)}\n`)
      return 1
    }
    // A shell left in a folder removed since (a checkout deleted from another shell): a command that
    // reads the folder it runs in (./data with no service, install-hooks' default project, the
    // project mcp and why default to) stopped with process.cwd()'s stack trace.
    if ((error as NodeJS.ErrnoException).syscall === 'uv_cwd') {
      process.stderr.write(`decision-memory ${name}: the folder this runs in is gone (removed since the shell entered it): run it in a folder that exists\n`)
      return 1
    }
    throw error
  }
}
