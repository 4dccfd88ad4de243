import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { outsideEnv, TEST_SPOOL } from './processes'

const BIN = fileURLToPath(new URL('../../bin/decision-memory.js', import.meta.url))

/** The real service in its own process, as `decision-memory serve` runs it. */
export interface ServiceProcess {
  url: string
  port: number
  child: ChildProcess
  /** Everything it wrote to stdout and stderr so far. */
  output(): string
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Sends a signal and waits for the process to be gone. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

/** Runs `decision-memory <args>` to completion: its exit code and output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...outsideEnv(), DECISION_MEMORY_SPOOL: TEST_SPOOL, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * Starts `decision-memory serve --port 0 --data DIR [args]` and resolves when its `listening` log
 * line gives the port; rejects, with what it printed, when it exits first.
 */
export function startService(options: { dataDir: string; args?: string[]; env?: NodeJS.ProcessEnv }): Promise<ServiceProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--data', options.dataDir, ...(options.args ?? [])],
    { env: { ...outsideEnv(), DECISION_MEMORY_LOG_LEVEL: 'info', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    let pending = ''
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8')
      output += text
      pending += text
      let newline = pending.indexOf('\n')
      while (newline >= 0) {
        const line = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        newline = pending.indexOf('\n')
        if (!line.includes('"event":"listening"')) continue
        const port = (JSON.parse(line) as { port: number }).port
        resolve({
          url: `http://127.0.0.1:${port}`,
          port,
          child,
          output: () => output,
          exited,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal)
            await exited
          },
        })
      }
    })
    void exited.then(({ code, signal }) =>
      reject(new Error(`the service exited (code ${code}, signal ${signal}) before listening:\n${output}`)),
    )
  })
}
