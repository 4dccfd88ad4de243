// Measures how long `decision-memory hook` takes to exit when the service is down (connection
// refused) and when it is slow (accepts, never answers): the 2 s promise of R-CAP-6, measured
// rather than asserted in a test. Run: npx tsx scripts/hook-exit-time.ts [runs]
import { spawn } from 'node:child_process'
import { mkdtemp, readFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseFlags, readFlags, UsageError } from './flags'

const BIN = fileURLToPath(new URL('../bin/decision-memory.js', import.meta.url))
const FIXTURE = fileURLToPath(new URL('../test/fixtures/claude-code/post-tool-use-multi.json', import.meta.url))
// Checked before any hook is run: a flag (it takes none) or a count of runs that is not a positive
// integer is said on one line, exit 2 (`--help` ran no hook and printed NaN for each median).
const runs = readFlags('hook-exit-time', () => {
  // It takes no flag: a negative number (`-1`) is its runs given wrong, not an unknown flag `-1`,
  // and is read as a positional, after `--`, for the runs' own check to say what they take.
  const args = process.argv.slice(2)
  const negative = !args.includes('--') && args.some((arg) => /^-(?:\d|\.\d)/.test(arg))
  const { positionals } = parseFlags({ allowPositionals: true, options: {}, args: negative ? ['--', ...args] : args })
  if (positionals.length > 1) throw new UsageError(`one argument, the runs, not ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(' ')}`)
  const raw = positionals[0] ?? '10'
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`runs must be a positive integer, not ${JSON.stringify(raw)}`)
  return value
})

function once(url: string, spool: string, payload: string, tsxCache: string): Promise<{ ms: number; code: number | null; stdout: string }> {
  const started = performance.now()
  // TMPDIR is where tsx keeps its compile cache: a fresh one measures a first run after a clone.
  const env = { ...process.env, DECISION_MEMORY_URL: url, DECISION_MEMORY_SPOOL: spool, TMPDIR: tsxCache }
  const child = spawn(process.execPath, [BIN, 'hook'], { env, stdio: ['pipe', 'pipe', 'ignore'] })
  let stdout = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stdin.end(payload)
  return new Promise((resolve) => child.once('close', (code) => resolve({ ms: performance.now() - started, code, stdout })))
}

function summary(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
  console.log(`${label.padEnd(34)} first ${samples[0]?.toFixed(0)} ms, median ${at(0.5).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`)
}

const payload = await readFile(FIXTURE, 'utf8')
const dir = await mkdtemp(join(tmpdir(), 'dm-hook-time-'))
const silent = createServer(() => undefined)
await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
const closed = createServer()
await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
const closedPort = (closed.address() as { port: number }).port
await new Promise<void>((resolve) => closed.close(() => resolve()))

for (const [label, url] of [
  ['service down (connection refused)', `http://127.0.0.1:${closedPort}`],
  ['service slow (never answers)', `http://127.0.0.1:${(silent.address() as { port: number }).port}`],
] as const) {
  const cache = await mkdtemp(join(dir, 'tsx-'))
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const result = await once(url, join(dir, `${samples.length}-${label.length}.ndjson`), payload, cache)
    if (result.code !== 0 || result.stdout !== '') throw new Error(`hook exited ${result.code} printing ${JSON.stringify(result.stdout)}`)
    samples.push(result.ms)
  }
  summary(label, samples)
}
silent.close()
process.exit(0)
