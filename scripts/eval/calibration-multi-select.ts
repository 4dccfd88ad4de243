// `npx tsx scripts/eval/calibration-multi-select.ts`: the calibration of the confidence (R-REC-3) at
// a multi-select point, the set's and each option's, on every answer and on those whose evidence
// the change test or the context backoff split (R-REC-7), the split by chance: the simulated users
// (scripts/eval/multi-select.ts) select each option at a rate that holds still and ignores the
// context. Each row: a band of stated confidence, the answers in it, their mean stated confidence,
// the share right (the set is the options selected at a rate of ½ or more; an option, recommended
// or left out as its rate says), and how many standard errors of the stated that share is from it.
// Flags: --seed N, --users N, --workers N, and --base COMMIT to ask another commit's service (its
// source and default policy) the same questions, e.g. one before a change to the confidence.
import { execFile, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { symlink } from 'node:fs/promises'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { parseFlags, positiveInteger, readFlags, UsageError } from '../flags'
import { REPORT_SEED } from './evaluation'
import { resultOfChild, stopChildren } from './parallel'
import { simulateMultiSelect, type MultiSelectRecord, type Stated } from './multi-select'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WORKER = fileURLToPath(new URL('./multi-select-worker.ts', import.meta.url))

/** The bands of stated confidence: the levels' (medium ≥ 0.55, medium-high ≥ 0.75, high ≥ 0.95), low in two. */
const BANDS: ReadonlyArray<[number, number, string]> = [
  [0, 0.25, 'low'],
  [0.25, 0.55, 'low'],
  [0.55, 0.75, 'medium'],
  [0.75, 0.95, 'medium-high'],
  [0.95, 1, 'high'],
]

// Checked before anything runs or is read: a mistake in them is said on one line, exit 2.
const { seed, users, workers, base } = readFlags('calibration-multi-select', () => {
  const { values } = parseFlags({
    options: {
      seed: { type: 'string', default: String(REPORT_SEED) },
      users: { type: 'string', default: '12000' },
      workers: { type: 'string', default: String(Math.min(2, availableParallelism())) },
      base: { type: 'string' },
    },
  })
  const flags = {
    seed: positiveInteger(values.seed, 'seed'),
    users: positiveInteger(values.users, 'users'),
    workers: positiveInteger(values.workers, 'workers'),
    base: undefined as string | undefined,
  }
  if (values.base !== undefined) {
    try {
      flags.base = execFileSync('git', ['rev-parse', '--short', '--verify', '--quiet', `${values.base}^{commit}`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
      execFileSync('git', ['cat-file', '-e', `${flags.base}:src/decision-memory.ts`], { cwd: ROOT, stdio: 'ignore' })
    } catch {
      throw new UsageError(`--base: no src/decision-memory.ts at ${JSON.stringify(values.base)} in this repository`)
    }
  }
  return flags
})

/** Simulates the users `indexes` in a child process. */
function simulateInChild(indexes: number[], src: string): Promise<MultiSelectRecord[]> {
  return resultOfChild<MultiSelectRecord[]>(WORKER, { seed, indexes, src }, 'worker')
}

/** Every user's record, in the population's order whatever the number of workers. */
async function simulate(src: string): Promise<MultiSelectRecord[]> {
  const all = Array.from({ length: users }, (_, i) => i)
  if (workers === 1) return simulateMultiSelect(seed, all, src)
  const tasks = Array.from({ length: workers }, (_, w) => all.filter((i) => i % workers === w)).filter((t) => t.length > 0)
  const parts = await Promise.all(tasks.map((indexes) => simulateInChild(indexes, src)))
  const out: MultiSelectRecord[] = new Array(users)
  tasks.forEach((indexes, t) => indexes.forEach((i, j) => (out[i] = (parts[t] as MultiSelectRecord[])[j] as MultiSelectRecord)))
  return out
}

function rows(group: string, stated: readonly Stated[]): string[] {
  return BANDS.map(([from, to, level], b) => {
    const last = b === BANDS.length - 1
    const band = `${group.padEnd(13)} [${from.toFixed(2)}, ${to.toFixed(2)}${last ? ']' : ')'} ${level.padEnd(11)}`
    const inside = stated.filter((s) => s.confidence >= from && (last ? s.confidence <= to : s.confidence < to))
    if (inside.length === 0) return `${band} ${'0'.padStart(6)}`
    const mean = inside.reduce((t, s) => t + s.confidence, 0) / inside.length
    const right = inside.filter((s) => s.right).length / inside.length
    const z = (right - mean) / Math.sqrt(Math.max(mean * (1 - mean), 0.01) / inside.length)
    return `${band} ${String(inside.length).padStart(6)}  stated ${mean.toFixed(3)}  right ${right.toFixed(3)}  z ${z.toFixed(1).padStart(5)}`
  })
}

/** The git and tar unpacking the --base tree that have not exited. */
const unpacking = new Set<ChildProcess>()

/**
 * Runs `command` without holding the event loop: under tsx, a signal the script does not take
 * within 30 ms is followed by SIGKILL, which no cleanup outlives (execFileSync held it so).
 */
async function runCommand(command: string, args: string[]): Promise<void> {
  const running = promisify(execFile)(command, args, { cwd: ROOT })
  unpacking.add(running.child)
  try {
    await running
  } finally {
    unpacking.delete(running.child)
  }
}

async function main(): Promise<void> {
  let src = join(ROOT, 'src')
  let dir: string | undefined
  // What runs in the folder is ended first (the unpacking, the workers reading its source): a
  // worker crashed, the others went on, and the script waited for them after saying why.
  const removeDir = () => {
    for (const child of unpacking) child.kill('SIGKILL')
    stopChildren()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
    dir = undefined
  }
  // Ctrl-C or a kill ends the run without its finally: the unpacked tree was left in the temporary
  // folder. Removed, then the signal taken as it would have been.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      removeDir()
      process.kill(process.pid, signal)
    })
  }
  try {
    if (base !== undefined) {
      // The other commit's source and policies, beside this checkout's node_modules so that its
      // imports resolve. Made at once, so that a signal never finds it made and not yet named.
      dir = mkdtempSync(join(tmpdir(), 'dm-multi-select-'))
      const tar = join(dir, 'tree.tar')
      await runCommand('git', ['archive', '--format=tar', '-o', tar, base, 'src', 'policies', 'package.json'])
      await runCommand('tar', ['-x', '-f', tar, '-C', dir])
      await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
      src = join(dir, 'src')
    }
    const records = await simulate(src)
    const split = records.filter((r) => r.split)
    const lines = [
      `seed ${seed}, ${users} users, the service of ${base === undefined ? 'this checkout' : `commit ${base}`}; split evidence in ${split.length} answers`,
      ...rows('every set', records.map((r) => r.set)),
      ...rows('every option', records.flatMap((r) => r.options)),
      ...rows('split set', split.map((r) => r.set)),
      ...rows('split option', split.flatMap((r) => r.options)),
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    removeDir()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`calibration-multi-select: ${(error as Error).message}\n`)
  process.exitCode = error instanceof UsageError ? 2 : 1
})
