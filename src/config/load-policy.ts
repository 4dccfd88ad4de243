import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { validate as validCron } from 'node-cron'
import { compilePolicy, PolicySchema, type CompiledPolicy } from '../domain/policy'

const require = createRequire(import.meta.url)

/** The YAML parser, loaded only for a YAML policy: it adds tens of ms to every start with the default (JSON) one. */
function parseYaml(text: string): unknown {
  return (require('yaml') as typeof import('yaml')).parse(text)
}

/** The policy shipped in `policies/default.json`. */
export const DEFAULT_POLICY_FILE = fileURLToPath(new URL('../../policies/default.json', import.meta.url))

/** A policy file that cannot be used; the message names the file and the field. */
export class PolicyFileError extends Error {
  readonly code = 'POLICY_INVALID'
  constructor(message: string) {
    super(message)
    this.name = 'PolicyFileError'
  }
}

/** Parses and validates policy text (JSON, or YAML for .yaml/.yml files). */
export function parsePolicy(text: string, file: string): CompiledPolicy {
  let raw: unknown
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text)
  } catch (error) {
    throw new PolicyFileError(`${file}: not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(error as Error).message}`)
  }
  const result = PolicySchema.safeParse(raw)
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `  ${issue.path.length === 0 ? '(root)' : issue.path.join('.')}: ${issue.message}`)
      .join('\n')
    throw new PolicyFileError(`${file}: invalid policy\n${problems}`)
  }
  if (!validCron(result.data.scan.cron)) {
    throw new PolicyFileError(`${file}: invalid policy\n  scan.cron: not a cron expression: "${result.data.scan.cron}"`)
  }
  return compilePolicy(result.data)
}

/** Reads a policy file; every problem is a PolicyFileError naming the file (and field). */
export async function loadPolicy(file: string = DEFAULT_POLICY_FILE): Promise<CompiledPolicy> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new PolicyFileError(`${file}: cannot read policy file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  return parsePolicy(text, file)
}
