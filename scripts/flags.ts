// A mistake in a script's flags, said as the CLI says one: on one line naming the flag, exit 2,
// before anything runs; any other failure of a script exits 1.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { negativeValuesJoined } from '../src/cli/options'

/** A mistake in the flags: the script says its message on one line and exits 2. */
export class UsageError extends Error {}

/**
 * parseArgs, its own refusals (an unknown flag, a value missing) turned into a UsageError on one
 * line (an ambiguous value is said on three). A negative number given as a flag's value (`--seed
 * -1`) is the flag's, as the CLI reads it (negativeValuesJoined), so that the flag's own check says
 * what it takes: parseArgs refused it as ambiguous, as if the value had been forgotten.
 */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs({ ...config, args: negativeValuesJoined(config.args ?? process.argv.slice(2), config.options ?? {}) }) as unknown as ReturnType<typeof parseArgs<T>>
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message.replace(/\s*\n\s*/g, ' '))
    throw error
  }
}

/** A flag's value as a positive integer: `abc`, `0` or `1.5` is refused, naming the flag. */
export function positiveInteger(raw: string, name: string): number {
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive integer, not ${JSON.stringify(raw)}`)
  return value
}

/** A flag's value as a number above 0 (a duration, a rate): `abc`, `0` or `-1` is refused, naming the flag. */
export function positiveNumber(raw: string, name: string): number {
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number, not ${JSON.stringify(raw)}`)
  return value
}

/** A flag's value as an integer of 0 or more (a seed): `abc`, `-1` or `1.5` is refused, naming the flag. */
export function nonNegativeInteger(raw: string, name: string): number {
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw new UsageError(`--${name} must be an integer of 0 or more, not ${JSON.stringify(raw)}`)
  return value
}

/**
 * The flags a script reads at its top level: a UsageError that `read` throws is said as
 * `script: message` and the process exits 2 there, before any work starts.
 */
export function readFlags<R>(script: string, read: () => R): R {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`${script}: ${error.message}\n`)
    process.exit(2)
  }
}
