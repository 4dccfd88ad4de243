import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { outsideEnv, TEST_SPOOL } from './processes'
import { tempDir } from './temp-dir'

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'decision-memory.js')

export interface RunningService {
  url: string
  port: number
  dataDir: string
  child: ChildProcess
  /** Every stdout line so far (JSON log lines). */
  lines: string[]
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Spawns `decision-memory serve --port 0` on a data dir and waits for its `listening` line. */
export async function spawnService(options: { dataDir?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<RunningService> {
  const dataDir = options.dataDir ?? tempDir('dm-e2e-')
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir, ...(options.args ?? [])], {
    env: { ...outsideEnv(), DECISION_MEMORY_SPOOL: TEST_SPOOL, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  // Once its output is closed too: every line it wrote is in `lines`.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  const port = await new Promise<number>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! })
    rl.on('line', (line) => {
      lines.push(line)
      try {
        const event = JSON.parse(line) as { event?: string; port?: number }
        if (event.event === 'listening' && event.port !== undefined) resolve(event.port)
      } catch {
        // not a log line
      }
    })
    void exited.then((code) => reject(new Error(`service exited with ${code} before listening: ${stderr}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    child,
    lines,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** Runs the CLI to completion and collects its output. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...outsideEnv(), DECISION_MEMORY_SPOOL: TEST_SPOOL, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.stdin.end(options.input ?? '')
    // 'close', not 'exit': at 'exit' the child's stdout and stderr may not all have been read yet.
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}
