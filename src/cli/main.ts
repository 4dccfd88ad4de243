import { PolicyFileError } from '../config/load-policy'
import { StoreOpenError } from '../open-store'
import { DECAY_SCAN_HELP, decayScanCommand } from './decay-scan'
import { UsageError } from './options'
import { packageVersion, SERVE_HELP, serveCommand } from './serve'
import { TOGGLE_HELP, toggleCommand } from './toggle'

const HELP = `decision-memory — remembers what a user picks when an agent asks, and recommends it

Usage: decision-memory <command> [flags]

Commands:
  serve     run the HTTP service (default 127.0.0.1:7420, data in ./data)
  toggle    turn personalization on or off for a session
  decay-scan  take expired observations out of recall and keep core within its size
  help      this text; \`decision-memory help <command>\` for one command
  version   print the version

${SERVE_HELP}
${TOGGLE_HELP}
${DECAY_SCAN_HELP}`

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<number | void>; help: string }> = {
  serve: { run: serveCommand, help: SERVE_HELP },
  toggle: { run: toggleCommand, help: TOGGLE_HELP },
  'decay-scan': { run: decayScanCommand, help: DECAY_SCAN_HELP },
}

/** The `decision-memory` command: one doorway per file, each onto the same functions as HTTP. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = rest[0] === undefined ? undefined : COMMANDS[rest[0]]
    process.stdout.write(topic?.help ?? HELP)
    return 0
  }
  if (name === 'version' || name === '--version') {
    process.stdout.write(packageVersion() + '\n')
    return 0
  }
  const command = COMMANDS[name]
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
    if (error instanceof PolicyFileError || error instanceof StoreOpenError) {
      process.stderr.write(`decision-memory ${name}: ${error.message}\n`)
      return 1
    }
    throw error
  }
}
