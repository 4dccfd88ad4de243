import { PolicyFileError } from '../config/load-policy'
import { TokensFileError } from '../config/load-tokens'
import { StoreOpenError } from '../open-store'
import { UsageError } from './options'
import { packageVersion, SERVE_HELP, serveCommand } from './serve'
import { TOGGLE_HELP, toggleCommand } from './toggle'
import { EXPORT_HELP, exportCommand } from './export'
import { FORGET_HELP, forgetCommand } from './forget'
import { PREFERENCES_HELP, preferencesCommand } from './preferences'

const HELP = `decision-memory — remembers what a user picks when an agent asks, and recommends it

Usage: decision-memory <command> [flags]

Commands:
  serve     run the HTTP service (default 127.0.0.1:7420, data in ./data)
  toggle    turn personalization on or off for a session
  preferences  what has been learned about a user
  export    everything held about a user, as NDJSON
  forget    delete everything held about a user
  help      this text; \`decision-memory help <command>\` for one command
  version   print the version

${SERVE_HELP}
${TOGGLE_HELP}
${PREFERENCES_HELP}
${EXPORT_HELP}
${FORGET_HELP}`

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<number | void>; help: string }> = {
  serve: { run: serveCommand, help: SERVE_HELP },
  toggle: { run: toggleCommand, help: TOGGLE_HELP },
  preferences: { run: preferencesCommand, help: PREFERENCES_HELP },
  export: { run: exportCommand, help: EXPORT_HELP },
  forget: { run: forgetCommand, help: FORGET_HELP },
}

/** A command by name; own entries only, so `constructor` is an unknown command, not Object's. */
function commandNamed(name: string) {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
}

/** The `decision-memory` command: one doorway per file, each onto the same functions as HTTP. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = rest[0] === undefined ? undefined : commandNamed(rest[0])
    process.stdout.write(topic?.help ?? HELP)
    return 0
  }
  if (name === 'version' || name === '--version') {
    process.stdout.write(packageVersion() + '\n')
    return 0
  }
  const command = commandNamed(name)
  if (command === undefined) {
    process.stderr.write(`decision-memory: unknown command "${name}"\n\n${HELP}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help)
    return 0
  }
  try {
    const code = await command.run(rest)
    return code ?? -1
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`decision-memory ${name}: ${(error as Error).message}\n\n${command.help}`)
      return 2
    }
    if (error instanceof PolicyFileError || error instanceof StoreOpenError || error instanceof TokensFileError) {
      process.stderr.write(`decision-memory ${name}: ${error.message}\n`)
      return 1
    }
    throw error
  }
}
