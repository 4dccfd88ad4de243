import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'

/** The `decision-memory` command of this checkout. */
export const BIN = fileURLToPath(new URL('../../bin/decision-memory.js', import.meta.url))

/** A spool of this test process's own, for commands not given one: never the developer's ~/.decision-memory. */
export const TEST_SPOOL = join(tmpdir(), `dm-test-spool-${process.pid}`, 'spool.ndjson')

/**
 * This process's environment without the DECISION_MEMORY_* of the developer's shell (a user of the
 * tool sets DECISION_MEMORY_USER, _URL, _TOKEN there): what every command a test spawns starts from,
 * so that a test asserts the same with them set as without.
 */
export function outsideEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DECISION_MEMORY_')))
}

/** The environment for a spawned command: no DECISION_MEMORY_* of the developer's shell leaks in. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...outsideEnv(), DECISION_MEMORY_LOG_LEVEL: 'warn', DECISION_MEMORY_SPOOL: TEST_SPOOL, ...extra }
}

export interface RunningService {
  url: string
  port: number
  stop(): Promise<void>
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
}

/** Starts `decision-memory serve --port 0 --data DIR` and waits for its `listening` line. */
export async function startService(dataDir: string): Promise<RunningService> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir], {
    env: cleanEnv({ DECISION_MEMORY_LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = ''
    child.stdout?.on('data', (chunk) => {
      buffered += chunk
      for (const line of buffered.split('\n')) {
        try {
          const entry = JSON.parse(line) as { event?: string; port?: number }
          if (entry.event === 'listening' && entry.port !== undefined) resolve(entry.port)
        } catch {
          // not a whole JSON line yet
        }
      }
    })
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)))
  })
  child.stdout?.resume()
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM')
      await exited(child)
    },
  }
}

/**
 * A loopback port free to listen on, taken and released: another process listening on port 0 may
 * be given it before the caller listens (about 1 in 7,000 of each listen(0) on Linux), which then
 * fails with EADDRINUSE. For a port to send to with nothing listening on it, closedPort.
 */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** What closedPort holds, made outside a test: released when the file ends (remove-temp.ts). */
export const heldOutsideTests = new Set<() => void>()

/**
 * A loopback port nothing listens on, held until the test that asked for it ends (asked outside a
 * test, until its file ends). A port taken and released at once may be given again to the next
 * server to listen on port 0 (on Linux, about 1 in 7,000 of them: those of the test files run
 * beside this one, which then answer the commands sent here). Held as the local end of a
 * connection to a server of this process, nothing can listen on it, and one connecting is refused.
 */
export async function closedPort(): Promise<number> {
  const server = createServer()
  const accepted: Socket[] = []
  server.on('connection', (socket) => accepted.push(socket.unref()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: serverPort } = server.address() as { port: number }
  const client = connect({ host: '127.0.0.1', port: serverPort })
  await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('error', reject))
  client.on('error', () => {})
  const port = client.localPort as number
  // Held, never holding the process: the accepted end is unref'd as it comes.
  for (const socket of [server, client, ...accepted]) socket.unref()
  const release = () => {
    for (const socket of accepted) socket.destroy()
    client.destroy()
    server.close()
  }
  try {
    onTestFinished(release)
  } catch {
    // Not inside a test: the file's end releases it.
    heldOutsideTests.add(release)
  }
  return port
}

/** Runs one CLI command to its end with `input` on stdin. */
export function runCli(
  args: string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env), cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  child.stdin.end(options.input ?? '')
  return new Promise((resolve) => {
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }))
  })
}

/**
 * Runs one CLI command with `chunks` written on its stdin, which is then left open (as a client
 * that spawns it and keeps the pipe does; Claude Code closes it), or closed with `close`: what it
 * printed once it exited.
 */
export async function runCliKeptOpen(
  args: string[],
  chunks: readonly string[],
  options: { env?: Record<string, string>; close?: boolean } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  child.stdin.on('error', () => {})
  for (const chunk of chunks) child.stdin.write(chunk)
  if (options.close === true) child.stdin.end()
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  child.stdin.destroy()
  return { code, stdout, stderr }
}

/**
 * Runs one CLI command with the file `file` as its stdin (`command < file`, which a command reads
 * at once, not as a pipe): what it printed once it exited.
 */
export async function runCliFromFile(
  args: string[],
  file: string,
  options: { env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const input = openSync(file, 'r')
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env), stdio: [input, 'pipe', 'pipe'] })
  closeSync(input)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => (stdout += chunk))
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  return { code, stdout, stderr }
}

/** A day in milliseconds. */
export const DAY = 86_400_000

/**
 * Stores alice's tier history at a running service, dated from `now`: Tier S six times ten days
 * ago, Tier L twelve times a day ago, so that an audit five days back recommends Tier S and one of
 * now Tier L. The `as_of` tests of `why` and `preferences` replay it.
 */
export async function storeTierHistory(url: string, now: number): Promise<void> {
  const choice = (i: number, tier: string, daysAgo: number) => ({
    decision_id: `asof-${i}`,
    user: 'alice',
    question: 'Which complexity tier should this SPEC use?',
    all_options: ['Tier S', 'Tier M', 'Tier L'],
    user_choice: tier,
    timestamp: new Date(now - daysAgo * DAY).toISOString(),
  })
  const observations = [...Array.from({ length: 6 }, (_, i) => choice(i, 'Tier S', 10)), ...Array.from({ length: 12 }, (_, i) => choice(10 + i, 'Tier L', 1))]
  const stored = await fetch(`${url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(observations) })
  if (stored.status !== 201) throw new Error(`storing the tier history answered ${stored.status}`)
}
