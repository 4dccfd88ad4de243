// The processes the benchmark measures: the real service (`decision-memory serve`) and the bare
// baseline server, each in its own process on loopback.
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, closeSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { bundleNotRun } from '../../bin/bundle.js'
import { freePort as anyFreePort } from '../../test/support/processes'

/**
 * A free port below 60000. The service answers a kept recommendation in front of the app only for
 * a Host @hono/node-server takes as it is, whose port is at most 59999 (first-path.ts PLAIN_HOST,
 * its reValidHost); the system's ephemeral ports reach 60999, so about one start in thirty would
 * measure every recommendation through the app, a run unlike the service on its port 7420.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await anyFreePort()
    if (port < 60000) return port
  }
}

const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)))
const BASELINE = fileURLToPath(new URL('./baseline-server.ts', import.meta.url))

/**
 * Refuses to measure a service that would not run the bundle: bin/ runs the sources through tsx
 * when one is newer than the bundle (while developing), which starts slower and takes more
 * memory than what `npm start` runs. A source edited during a run did that to two full runs of
 * the fourth session (bench/HISTORY.md). `checkout` is the root of the checkout whose service is
 * measured: this one, or another (a commit measured side by side with cpu-per-request.ts).
 */
async function assertBundleRun(checkout: string): Promise<void> {
  const { bundleNotRun: notRun } = (checkout === ROOT ? { bundleNotRun } : await import(pathToFileURL(join(checkout, 'bin/bundle.js')).href)) as {
    bundleNotRun: () => string | null
  }
  const reason = notRun()
  if (reason !== null) throw new Error(`${checkout}: ${reason}, so the service would run through tsx: \`npm run build\` again, and edit no source while a measure runs`)
}

/** A server process under measurement. */
export interface ServerProcess {
  url: string
  pid: number
  /** ms from spawn to the first 200 on its health route. */
  readyMs: number
  /** The highest resident set size the process has had so far (Linux VmHWM), bytes; null elsewhere. */
  peakRss(): number | null
  /** Its resident set now, and the parts of it that are anonymous (heaps) and file-backed (code, mapped tables), bytes. */
  rss(): { total: number; anon: number; file: number } | null
  /** SIGTERM, and waits until it is gone. */
  stop(): Promise<void>
}

/** A field of /proc/PID/status in bytes (Linux), or null where /proc does not say. */
function statusField(pid: number, field: string): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]
    return kb === undefined ? null : Number(kb) * 1024
  } catch {
    return null
  }
}

/** VmHWM of a process, in bytes (Linux), or null where /proc does not say. */
export function peakRssOf(pid: number): number | null {
  return statusField(pid, 'VmHWM')
}

async function waitHealthy(url: string, child: ChildProcess, started: number, timeoutMs: number): Promise<number> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url}: the process exited before it was ready`)
    try {
      const response = await fetch(`${url}/healthz`)
      await response.arrayBuffer()
      if (response.status === 200) return performance.now() - started
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url}: not ready after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

async function startProcess(args: string[], port: number, logFile: string, env: NodeJS.ProcessEnv, cwd = ROOT): Promise<ServerProcess> {
  const log = openSync(logFile, 'a')
  const started = performance.now()
  // No DECISION_MEMORY_* of the shell leaks in: the service runs as configured here.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DECISION_MEMORY_')))
  const child = spawn(process.execPath, args, { cwd, env: { ...inherited, ...env }, stdio: ['ignore', log, log] })
  closeSync(log)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  let readyMs: number
  try {
    readyMs = await waitHealthy(url, child, started, 120_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`${(error as Error).message}; see ${logFile}`)
  }
  const pid = child.pid as number
  return {
    url,
    pid,
    readyMs,
    peakRss: () => peakRssOf(pid),
    rss() {
      const total = statusField(pid, 'VmRSS')
      const anon = statusField(pid, 'RssAnon')
      const file = statusField(pid, 'RssFile')
      return total === null || anon === null || file === null ? null : { total, anon, file }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * The Node flags `npm start` runs the service with (package.json's start script): the service is
 * measured as it is started.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = (() => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
  const words = pkg.scripts.start.trim().split(/\s+/)
  return words.slice(1, words.indexOf('bin/decision-memory.js')).filter((w) => w.startsWith('--'))
})()

/**
 * Starts `decision-memory serve` on a data directory as `npm start` does (its Node flags, default
 * policy unless `policy` names a file, info logs, here to a file), and resolves once `/healthz` answers 200. `env` adds to or
 * overrides its environment (a variant measured beside it); `checkout` runs the service of another
 * checkout (a worktree of another commit, its bundle built), from there.
 */
export async function startService(options: { dataDir: string; logFile: string; env?: NodeJS.ProcessEnv; checkout?: string; policy?: string | undefined }): Promise<ServerProcess> {
  const checkout = resolve(options.checkout ?? ROOT)
  await assertBundleRun(checkout)
  const port = await freePort()
  const bin = join(checkout, 'bin/decision-memory.js')
  // A policy file is named by its absolute path: the service of another checkout starts from there.
  const policy = options.policy === undefined ? [] : ['--policy', resolve(options.policy)]
  return startProcess([...SERVICE_NODE_FLAGS, bin, 'serve', '--port', String(port), '--data', options.dataDir, ...policy], port, options.logFile, {
    DECISION_MEMORY_LOG_LEVEL: 'info',
    ...options.env,
  }, checkout)
}

/** Starts the bare hono baseline server (baseline-server.ts), with its flags when given (`--answer FILE`, ...). */
export async function startBaseline(options: { logFile: string; args?: readonly string[] }): Promise<ServerProcess> {
  const port = await freePort()
  return startProcess(['--import', 'tsx', BASELINE, '--port', String(port), ...(options.args ?? [])], port, options.logFile, {})
}

/**
 * CPU time (user + system) each thread of the process has used so far, in µs, by thread id
 * (Linux /proc), or null elsewhere. The main thread's id is the process's.
 */
export function threadCpuMicrosOf(pid: number): Map<number, number> | null {
  try {
    const threads = new Map<number, number>()
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        threads.set(Number(tid), cpuMicrosIn(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')))
      } catch {
        // the thread ended meanwhile
      }
    }
    return threads
  } catch {
    return null
  }
}

/** CPU time (user + system) the process has used so far, in µs (Linux /proc), or null elsewhere. */
export function cpuMicrosOf(pid: number): number | null {
  try {
    return cpuMicrosIn(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return null
  }
}

/** The CPU time in a /proc stat line (a process's or a thread's), in µs. */
function cpuMicrosIn(stat: string): number {
  // After the command name in parentheses (which may hold spaces): utime and stime, fields 14
  // and 15 of stat, in clock ticks of 10 ms.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}
