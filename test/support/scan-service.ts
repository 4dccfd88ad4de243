import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { closedPort, outsideEnv, TEST_SPOOL } from './processes'

const BIN = fileURLToPath(new URL('../../bin/decision-memory.js', import.meta.url))

/** The real service, spawned on a free port over a data directory; its log lines as they come. */
export interface ServiceProcess {
  port: number
  url: string
  child: ChildProcess
  lines: Array<Record<string, unknown>>
  /** Resolves with the exit code once the process has exited and its output is closed (every line in `lines`). */
  exited: Promise<number | null>
  /** Resolves with the first log line, come or to come, that has `event` (the test's timeout bounds the wait). */
  line(event: string): Promise<Record<string, unknown>>
}

/** Spawns `decision-memory serve --port 0 --data DIR` and resolves once it listens. */
export function spawnService(dataDir: string, args: string[] = []): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir, ...args], {
    env: outsideEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: Array<Record<string, unknown>> = []
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)))
  const waiting: Array<{ event: string; found: (entry: Record<string, unknown>) => void }> = []
  const lineOf = (event: string) =>
    new Promise<Record<string, unknown>>((found) => {
      const come = lines.find((l) => l.event === event)
      if (come !== undefined) found(come)
      else waiting.push({ event, found })
    })
  return new Promise((resolve, reject) => {
    let buffered = ''
    child.stdout?.on('data', (chunk) => {
      buffered += String(chunk)
      let newline: number
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        try {
          const entry = JSON.parse(line) as Record<string, unknown>
          lines.push(entry)
          for (const wait of waiting.splice(0)) {
            if (wait.event === entry.event) wait.found(entry)
            else waiting.push(wait)
          }
          if (entry.event === 'listening') {
            const port = entry.port as number
            resolve({ port, url: `http://127.0.0.1:${port}`, child, lines, exited, line: lineOf })
          }
        } catch {
          // not a log line
        }
      }
    })
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening: ${stderr}`)))
  })
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...outsideEnv(), DECISION_MEMORY_SPOOL: TEST_SPOOL, ...env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
      resolve({ code, stdout, stderr })
    })
  })
}

/** A loopback URL nothing listens on, for the test that asked (closedPort: no other service is given its port meanwhile). */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`
}
