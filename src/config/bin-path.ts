import { fileURLToPath } from 'node:url'

/**
 * The `decision-memory` command of this checkout, as an absolute path: the package is not
 * published, so `decision-memory` is on no PATH, and a command printed for the user (a hook's
 * settings, a hint) runs it with `node`. The sources and the bundle sit two folders down.
 */
export const BIN_PATH = fileURLToPath(new URL('../../bin/decision-memory.js', import.meta.url))

/**
 * The store of this checkout: where `npm start` keeps it (npm runs the script in the checkout, and
 * `serve` takes `./data`). The MCP server's store when no `--data` names one, no service runs and
 * `$DECISION_MEMORY_DATA` is unset: Claude Code starts it in the agent's project, where `./data` would be a store of the
 * user's choices in that repository (or LevelDB's files in a `data/` folder of its own).
 */
export const CHECKOUT_DATA_DIR = fileURLToPath(new URL('../../data', import.meta.url))

/** A word for a POSIX shell: as it is when it needs no quoting, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** The command line that runs `decision-memory` with `args`, from any directory. */
export function commandLine(args: readonly string[]): string {
  return ['node', shellWord(BIN_PATH), ...args.map(shellWord)].join(' ')
}

/**
 * An option and its value as arguments: `--name value`, or `--name=value` when the value starts
 * with `-` (an identifier may), which parseArgs would otherwise refuse as ambiguous.
 */
export function optionArgs(name: string, value: string): string[] {
  return value.startsWith('-') ? [`${name}=${value}`] : [name, value]
}
