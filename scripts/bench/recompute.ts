// The CPU of a recommendation computed again at a point whose cells are not in memory, in process:
// what the full run's "expiry round" costs (bench/README.md). The service keeps each answer 60 s
// (policy `cache.seconds`) and the decoded cells of the last few hundred cells' points
// (core-tier.ts HOT_CELLS); when the warm-up's 2,000 answers expire together, each is computed
// again from LevelDB: the head, the waiting observations and the cells read, decoded, the waiting
// ones counted in, and the recommendation computed.
//
//   npx tsx scripts/bench/recompute.ts [--store DIR] [--users 1000] [--pairs 2000] [--blocks 6]
//        [--passes 1] [--fresh] [--settle SECONDS] [--checkout DIR ...] [--split] [--answers FILE]
//        [--profile FILE]
//
// Each tree (this one, then each --checkout, imported from its `src/` through tsx) opens its own
// copy of the store as `serve` opens it (default policy, decisions), with a clock that stands
// still, and asks every pair once (the warm-up: each aggregate rebuilt into core). A block is a
// pass over every pair per tree, each tree's clock first moved 61 s on (every answer expired; a
// pair's cells were pushed out of memory by the pairs since), the trees in turn, their order
// swapped each block; it prints each tree's CPU per recommendation (the process's, all threads: the
// LevelDB reads run on libuv's pool; and the main thread's) and, for each --checkout, how much
// cheaper this tree is than it. Every answer of every tree is compared byte for byte with the first
// tree's at the same moment: any that differs is counted and the first one printed.
//
// --fresh: block b warms pairs of its own (the b-th run of --pairs of them; --users × 4 points must
// hold them all) before it asks them again, so that every block measures the first computation
// after a warm-up, as the full run's expiry round is; --settle SECONDS waits after each warm-up (in
// the full run a minute passes, in which LevelDB compacts the warm-up's writes; without --fresh,
// once after the one warm-up). --passes N asks every pair N times a block, the clocks moved 61 s
// on each time.
//
// --split: for this tree only, each pair asked twice in a row, the second time 61 s later (its answer
// expired, its cells now in memory): the CPU of the cold computation, of the warm one (the
// recommendation alone), and their difference (the store's reads, the decoding, the waiting
// observations counted in). --answers FILE writes the first tree's answers of the first block, one
// line per pair, to compare across runs; --profile FILE writes a CPU profile of the blocks alone.
// --store DIR seeds DIR when it does not exist (as cpu-per-request.ts seeds: --users users, 100
// observations each over 365 days) and keeps it; the copies are removed at the end. The seeding
// moment is kept in DIR/SEEDED_AT, and the clocks start 60 s after it.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync, readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Session } from 'node:inspector/promises'
import { setTimeout as wait } from 'node:timers/promises'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { negativeValuesJoined } from '../../src/cli/options'
import { median } from './http-load'
import { seedStore } from './seed'
import { historyOf, POINTS, recommendationBody, SESSION_LENGTH, userName } from './workload'

const USAGE =
  'usage: npx tsx scripts/bench/recompute.ts [--store DIR] [--users 1000] [--pairs 2000] [--blocks 6] [--passes 1] [--fresh] ' +
  '[--settle SECONDS] [--checkout DIR ...] [--split] [--answers FILE] [--profile FILE]'

/** A flag mistake, said before a store is seeded or a tree opened: the message and the usage, exit 2. */
function refuse(message: string): never {
  process.stderr.write(`recompute.ts: ${message}\n${USAGE}\n`)
  process.exit(2)
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h', default: false },
  store: { type: 'string' },
  users: { type: 'string', default: '1000' },
  pairs: { type: 'string', default: '2000' },
  blocks: { type: 'string', default: '6' },
  passes: { type: 'string', default: '1' },
  checkout: { type: 'string', multiple: true, default: [] as string[] },
  split: { type: 'boolean', default: false },
  fresh: { type: 'boolean', default: false },
  answers: { type: 'string' },
  settle: { type: 'string', default: '0' },
  profile: { type: 'string' },
} satisfies NonNullable<ParseArgsConfig['options']>

function parsed() {
  try {
    // `--users -1` read as `--users=-1`, as the CLI reads it: said by the flag's own check, not as ambiguous.
    return parseArgs({ options: OPTIONS, args: negativeValuesJoined(process.argv.slice(2), OPTIONS) })
  } catch (error) {
    return refuse((error as Error).message)
  }
}

const { values } = parsed()
if (values.help) {
  process.stdout.write(`${USAGE}\n(bench/README.md says what each flag does)\n`)
  process.exit(0)
}

/** A count flag's value: a whole number of at least 1 (`--blocks x` ran no block, after seeding a store). */
function count(flag: 'users' | 'pairs' | 'blocks' | 'passes'): number {
  const n = Number(values[flag])
  if (!Number.isInteger(n) || n < 1) refuse(`--${flag} ${values[flag]}: a whole number of at least 1`)
  return n
}

const users = count('users')
const pairCount = count('pairs')
const blocks = count('blocks')
const passes = count('passes')
if (!(Number(values.settle) >= 0)) refuse(`--settle ${values.settle}: a number of seconds, 0 or more`)
for (const checkout of values.checkout as string[]) {
  if (!existsSync(join(checkout, 'src', 'decision-memory.ts'))) refuse(`--checkout ${checkout}: no src/decision-memory.ts there, so no tree of this service`)
}
const pool = users * POINTS.length
const needed = values.fresh ? pairCount * blocks : pairCount
if (needed > pool) {
  refuse(`--pairs ${values.pairs}${values.fresh ? ` × --blocks ${blocks}` : ''}: at most ${pool} (--users × ${POINTS.length} points)`)
}
const work = await mkdtemp(join(tmpdir(), 'dm-recompute-'))
const store = values.store ?? join(work, 'store')
const sessions = Math.ceil(100 / SESSION_LENGTH)
const STEP_MS = 61_000

/** The main thread's CPU so far, µs (Linux: /proc). */
function mainThreadMicros(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's closing paren.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100
}

function processMicros(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}

interface Tree {
  name: string
  clock: { set(at: Date): void }
  ask(i: number): Promise<Uint8Array>
  close(): Promise<void>
}

// The bench's pairs: user i % users at point floor(i / users); with --fresh, block b asks the b-th
// run of --pairs of them.
const pairs = Array.from({ length: needed }, (_, i) => ({ u: i % users, p: Math.floor(i / users) }))

/** Opens a tree's DecisionMemory over its own copy of the store, as `serve` wires it. */
async function openTree(root: string, name: string, dir: string, start: Date): Promise<Tree> {
  const src = (file: string) => import(join(resolve(root), 'src', file))
  const [{ openStores }, { loadPolicy }, { createDecisions }, { createDecisionMemory }, { fixedClock }, { RecommendationRequest }, { deepFreeze }] = await Promise.all([
    src('open-store.ts'),
    src('config/load-policy.ts'),
    src('decisions/decisions.ts'),
    src('decision-memory.ts'),
    src('clock.ts'),
    src('http/schemas.ts'),
    src('domain/freeze.ts'),
  ])
  const policy = await loadPolicy(join(resolve(root), 'policies', 'default.json'))
  const { store, decisionStore } = await openStores(dir, policy)
  const clock = fixedClock(start)
  const decisions = createDecisions({ store: decisionStore, clock, policy })
  const memory = createDecisionMemory({ store, policy, clock, decisions })
  // As the route hands them: validated, frozen, the same object for the same body.
  const requests = pairs.map(({ u, p }) => deepFreeze(RecommendationRequest.parse(recommendationBody(userName(u), u, p, sessions))))
  return { name, clock, ask: (i) => memory.recommendJson(requests[i]), close: () => store.close() }
}

const decoder = new TextDecoder()
let differing = 0
let compared = 0

/** Asks pairs [from, to) of each tree at `at`, answers decoded; CPU per call (all threads, main thread). */
async function pass(tree: Tree, from: number, to: number, at: number, answers?: string[]): Promise<{ all: number; main: number }> {
  tree.clock.set(new Date(at))
  const [all0, main0] = [processMicros(), mainThreadMicros()]
  for (let k = from; k < to; k++) {
    const bytes = await tree.ask(k)
    if (answers !== undefined) answers[k - from] = decoder.decode(bytes)
  }
  return { all: (processMicros() - all0) / (to - from), main: (mainThreadMicros() - main0) / (to - from) }
}

/** Counts the answers of each tree after the first that differ from the first tree's. */
function compare(answers: string[][], from: number, at: number, what: string): void {
  for (let t = 1; t < answers.length; t++) {
    for (const [k, text] of (answers[0] as string[]).entries()) {
      compared++
      if (answers[t]?.[k] === text) continue
      if (differing === 0) process.stdout.write(`first differing answer (${what}), pair ${from + k} at ${new Date(at).toISOString()}:\n  ${text}\n  ${answers[t]?.[k]}\n`)
      differing++
    }
  }
}

const figure = (x: { all: number; main: number }) => `${x.all.toFixed(0)} µs (main thread ${x.main.toFixed(0)})`

try {
  if (!existsSync(store)) {
    const now = new Date()
    await seedStore({ dir: store, now, histories: (function* () { for (let u = 0; u < users; u++) yield historyOf(userName(u), u, 100, now, 365) })() })
    await writeFile(join(store, 'SEEDED_AT'), now.toISOString())
  }
  const seededAt = existsSync(join(store, 'SEEDED_AT')) ? new Date((await readFile(join(store, 'SEEDED_AT'), 'utf8')).trim()) : new Date()
  let moment = seededAt.getTime() + 60_000
  const roots = [{ root: join(import.meta.dirname, '..', '..'), name: 'this tree' }, ...(values.checkout as string[]).map((c) => ({ root: c, name: c }))]
  const trees: Tree[] = []
  for (const [i, { root, name }] of roots.entries()) {
    const dir = join(work, `store-${i}`)
    await cp(store, dir, { recursive: true })
    trees.push(await openTree(root, name, dir, new Date(moment)))
  }
  const warmAnswers = trees.map(() => [] as string[])
  if (!values.fresh) {
    // Every pair once: each aggregate rebuilt from archival into core, its answer kept.
    for (const [t, tree] of trees.entries()) {
      const cost = await pass(tree, 0, pairs.length, moment, warmAnswers[t])
      process.stdout.write(`${tree.name}: warmed ${pairs.length} pairs, ${figure(cost)} each (rebuilt from archival)\n`)
    }
    compare(warmAnswers, 0, moment, 'warm-up')
  }
  // In the full run the answers expire a minute after the warm-up, LevelDB's compactions of its
  // writes long done: --settle waits that long before the blocks.
  if (!values.fresh && Number(values.settle) > 0) await wait(Number(values.settle) * 1000)
  process.stdout.write(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)
  const inspector = values.profile === undefined ? undefined : new Session()
  if (inspector !== undefined) {
    inspector.connect()
    await inspector.post('Profiler.enable')
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 })
    await inspector.post('Profiler.start')
  }
  const perTree = trees.map(() => ({ all: [] as number[], main: [] as number[] }))

  if (values.split) {
    const tree = trees[0] as Tree
    for (let b = 0; b < blocks; b++) {
      let cold = 0
      let warm = 0
      for (let k = 0; k < pairCount; k++) {
        moment += STEP_MS
        cold += (await pass(tree, k, k + 1, moment)).all
        warm += (await pass(tree, k, k + 1, moment + STEP_MS)).all
      }
      moment += STEP_MS
      process.stdout.write(
        `split block ${b + 1}: cold ${(cold / pairCount).toFixed(0)} µs, warm (cells in memory) ${(warm / pairCount).toFixed(0)} µs, cold - warm ${((cold - warm) / pairCount).toFixed(0)} µs; load ${loadavg()[0]?.toFixed(2)}\n`,
      )
    }
  } else {
    for (let b = 0; b < blocks; b++) {
      const [from, to] = values.fresh ? [b * pairCount, (b + 1) * pairCount] : [0, pairCount]
      const order = b % 2 === 0 ? trees.map((_, i) => i) : trees.map((_, i) => trees.length - 1 - i)
      const line: string[] = []
      const warmedAt = moment
      const warm = trees.map(() => [] as string[])
      if (values.fresh) {
        // This block's pairs, new to core: each rebuilt from archival, its answer kept.
        for (const t of order) line[t] = `warm-up ${figure(await pass(trees[t] as Tree, from, to, warmedAt, warm[t]))}`
        compare(warm, from, warmedAt, 'warm-up')
        if (Number(values.settle) > 0) await wait(Number(values.settle) * 1000)
      }
      moment += STEP_MS
      const answers = trees.map(() => [] as string[])
      for (const t of order) {
        const tree = trees[t] as Tree
        const costs = { all: 0, main: 0 }
        for (let n = 0; n < passes; n++) {
          const cost = await pass(tree, from, to, moment + n * STEP_MS, n === 0 ? answers[t] : undefined)
          costs.all += cost.all / passes
          costs.main += cost.main / passes
        }
        perTree[t]?.all.push(costs.all)
        perTree[t]?.main.push(costs.main)
        line[t] = `${tree.name} ${line[t] === undefined ? '' : `${line[t]}, `}computed again ${figure(costs)}`
      }
      for (let t = 1; t < trees.length; t++) {
        const [first, mine] = [perTree[0]?.all.at(-1) as number, perTree[t]?.all.at(-1) as number]
        line[t] += ` (${trees[0]?.name} ${(((mine - first) / mine) * 100).toFixed(1)}% cheaper)`
      }
      compare(answers, from, moment, 'computed again')
      moment += STEP_MS * passes
      process.stdout.write(`block ${b + 1} (${order.map((t) => trees[t]?.name).join(', ')}): ${line.join('; ')}; load ${loadavg()[0]?.toFixed(2)}\n`)
      if (b === 0 && values.answers !== undefined) await writeFile(values.answers, (answers[0] as string[]).map((a, k) => `${from + k}\t${a}\n`).join(''))
    }
    for (const [t, tree] of trees.entries()) {
      const { all, main } = perTree[t] as { all: number[]; main: number[] }
      process.stdout.write(`${tree.name}: a recommendation computed again, median ${median(all).toFixed(0)} µs (main thread ${median(main).toFixed(0)}), lowest ${Math.min(...all).toFixed(0)}\n`)
    }
    if (trees.length > 1) process.stdout.write(`answers compared with the first tree's: ${compared}, differing ${differing}\n`)
  }
  if (inspector !== undefined) {
    const { profile } = await inspector.post('Profiler.stop')
    await writeFile(values.profile as string, JSON.stringify(profile))
    inspector.disconnect()
  }
  for (const tree of trees) await tree.close()
} finally {
  await rm(work, { recursive: true, force: true })
}
