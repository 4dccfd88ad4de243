/** Where things are unless flags say otherwise (R-SVC-1). */
export const DEFAULT_PORT = 7420
export const DEFAULT_HOST = '127.0.0.1'

export function envPort(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DECISION_MEMORY_PORT
  return raw === undefined || raw === '' ? DEFAULT_PORT : parsePort(raw, 'DECISION_MEMORY_PORT')
}

export function parsePort(raw: string, name: string): number {
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`${name} must be a port number from 0 to 65535, not "${raw}"`)
  }
  return port
}

/** The running service the CLI talks to: DECISION_MEMORY_URL, else loopback on the port. */
export function serviceUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.DECISION_MEMORY_URL ?? `http://${DEFAULT_HOST}:${envPort(env)}`).replace(/\/+$/, '')
}

/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}
