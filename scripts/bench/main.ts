// `npm run bench [-- --quick] [-- --out FILE] [-- --keep]`: the benchmarks of issue 8, each against
// a baseline measured in the same run, printed as a table and (full run) written to
// bench/results.json. See bench/README.md for what each measures and the figures of the last run.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseFlags, readFlags } from '../flags'
import { decayScanCost } from './decay-scan'
import { historyCost } from './history'
import { compareRoute, median, type RouteLoad } from './http-load'
import { startBaseline, startService } from './processes'
import { seedStore } from './seed'
import { historyOf, observationBody, recommendationBody, SESSION_LENGTH, userName } from './workload'

// Checked before any store is seeded: a mistake in them is said on one line, exit 2.
const { values } = readFlags('bench', () =>
  parseFlags({
    options: {
      quick: { type: 'boolean', default: false },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  }),
)

/** How big a run is: the full run is the one the targets are judged on. */
const SHAPES = {
  full: {
    users: 10_000,
    observationsPerUser: 100,
    spanDays: 365,
    /** Distinct (user, point) pairs the HTTP load cycles through: all within core's 10,000. */
    loadPairs: 2_000,
    connections: 50,
    seconds: 10,
    rounds: 3,
    readyStarts: 3,
    historySizes: [10, 1_000, 100_000],
    historyRounds: 5,
    historyCalls: 200,
  },
  quick: {
    users: 200,
    observationsPerUser: 100,
    spanDays: 365,
    loadPairs: 400,
    connections: 50,
    seconds: 2,
    rounds: 1,
    readyStarts: 1,
    historySizes: [10, 1_000, 10_000],
    historyRounds: 5,
    historyCalls: 30,
  },
}

const mode = values.quick ? 'quick' : 'full'
const shape = SHAPES[mode]
const out = values.out ?? (values.quick ? undefined : 'bench/results.json')
const began = performance.now()

function log(line: string) {
  process.stdout.write(`[${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)
}

const work = await mkdtemp(join(tmpdir(), 'dm-bench-'))
const storeDir = join(work, 'store')
const machine = {
  cpus: availableParallelism(),
  model: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
}
log(`${mode} run in ${work}: ${machine.cpus} × ${machine.model}, Node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}`)

try {
  // The store of sections 1, 3 and 4: users × observationsPerUser, written directly.
  const now = new Date()
  const observations = shape.users * shape.observationsPerUser
  const seedStarted = performance.now()
  const seeded = await seedStore({
    dir: storeDir,
    now,
    histories: (function* () {
      for (let u = 0; u < shape.users; u++) yield historyOf(userName(u), u, shape.observationsPerUser, now, shape.spanDays)
    })(),
    onProgress: (stored) => {
      if (stored % 100_000 === 0) log(`seeded ${stored} observations`)
    },
  })
  const seedSeconds = (performance.now() - seedStarted) / 1000
  log(`seeded ${seeded} observations of ${shape.users} users in ${seedSeconds.toFixed(0)} s`)

  // Section 4b: from start to a green /healthz on that store; the first start is reported apart.
  const starts: number[] = []
  for (let i = 0; i <= shape.readyStarts; i++) {
    const service = await startService({ dataDir: storeDir, logFile: join(work, 'service.log') })
    starts.push(service.readyMs)
    await service.stop()
    log(`start ${i}: ready in ${service.readyMs.toFixed(0)} ms`)
  }
  const readyMs = median(starts.slice(1))
  // Its baseline: the same start on an empty store, which is the cost of starting the process.
  const emptyStarts: number[] = []
  for (let i = 0; i <= shape.readyStarts; i++) {
    const service = await startService({ dataDir: join(work, 'empty'), logFile: join(work, 'service.log') })
    emptyStarts.push(service.readyMs)
    await service.stop()
  }
  const readyEmptyMs = median(emptyStarts.slice(1))
  log(`ready on an empty store in ${readyEmptyMs.toFixed(0)} ms (median of later starts)`)

  // Section 1 (and 4a: the service's peak RSS under that load).
  const sessions = Math.ceil(shape.observationsPerUser / SESSION_LENGTH)
  const pairs = Array.from({ length: shape.loadPairs }, (_, i) => {
    const u = i % shape.users
    return { u, user: userName(u), p: Math.floor(i / shape.users) }
  })
  const recommendationBodies = pairs.map(({ u, user, p }) => JSON.stringify(recommendationBody(user, u, p, sessions)))
  const run = Date.now().toString(36)
  const service = await startService({ dataDir: storeDir, logFile: join(work, 'service.log') })
  const baseline = await startBaseline({ logFile: join(work, 'baseline.log') })
  let recommendations: RouteLoad
  let observationLoad: RouteLoad
  let peakRss: number | null
  let rssAfterLoad: { total: number; anon: number; file: number } | null
  try {
    // Every pair once, as an orchestrator's first question would: its aggregate goes to core.
    for (const body of recommendationBodies) {
      const response = await fetch(`${service.url}/v1/recommendations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      if (response.status !== 200) throw new Error(`warm-up answered ${response.status}: ${await response.text()}`)
      await response.arrayBuffer()
    }
    log(`warmed ${recommendationBodies.length} (user, point) pairs`)
    const onRun = (r: { target: string; requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number }) =>
      log(`  ${r.target.padEnd(8)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms${r.non2xx + r.errors > 0 ? `  ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`)
    const common = { service, baseline, connections: shape.connections, seconds: shape.seconds, rounds: shape.rounds, onRun }
    log('POST /v1/recommendations')
    recommendations = await compareRoute({
      ...common,
      path: '/v1/recommendations',
      body: (n) => recommendationBodies[n % recommendationBodies.length] as string,
    })
    log('POST /v1/observations')
    // Every observation of the run is a new one: load() counts each run's requests from 0, so the
    // count that makes decision_ids unique goes on here, across rounds (else every round after the
    // first would resend the first's decision_ids, answered as duplicates without being stored).
    let sent = 0
    observationLoad = await compareRoute({
      ...common,
      path: '/v1/observations',
      body: () => {
        const n = sent++
        const { u, user, p } = pairs[n % pairs.length] as (typeof pairs)[number]
        return JSON.stringify(observationBody(user, u, p, sessions, n, run))
      },
    })
    peakRss = service.peakRss()
    rssAfterLoad = service.rss()
  } finally {
    await service.stop()
    await baseline.stop()
  }
  for (const route of [recommendations, observationLoad]) {
    const failed = route.rounds.reduce((s, r) => s + r.service.non2xx + r.service.errors, 0)
    if (failed > 0) throw new Error(`${route.route}: ${failed} requests failed under load; see ${join(work, 'service.log')}`)
  }

  // Section 3.
  log('decay scan')
  const decay = await decayScanCost({ dir: storeDir, log })

  // Section 2.
  log(`history: ${shape.historySizes.join(', ')} observations at one point`)
  const history = await historyCost({
    dir: join(work, 'history'),
    sizes: shape.historySizes,
    rounds: shape.historyRounds,
    callsPerRound: shape.historyCalls,
    log,
  })

  const mb = (bytes: number | null) => (bytes === null ? null : Math.round(bytes / 2 ** 20))
  const targets = [
    { name: 'recommendations: throughput / baseline', value: recommendations.ratio, target: '>= 0.8', met: recommendations.ratio >= 0.8 },
    { name: 'recommendations: p99 at 50 connections (ms)', value: recommendations.service.p99Ms, target: '< 10', met: recommendations.service.p99Ms < 10 },
    { name: 'observations: throughput / baseline', value: observationLoad.ratio, target: '>= 0.5', met: observationLoad.ratio >= 0.5 },
    { name: `history: ${shape.historySizes.at(-1)} / ${shape.historySizes[0]} observations`, value: history.ratio, target: '<= 1.5', met: history.ratio <= 1.5 },
    { name: 'decay scan / raw iteration', value: decay.ratio, target: '<= 3', met: decay.ratio <= 3 },
    { name: 'peak RSS under load (MB)', value: mb(peakRss), target: '<= 200', met: peakRss !== null && peakRss <= 200 * 2 ** 20 },
    { name: 'ready on the store (ms)', value: readyMs, target: '< 1000', met: readyMs < 1000 },
  ]
  const results = {
    mode,
    date: new Date().toISOString(),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) },
    store: { users: shape.users, observations, seeded, seedSeconds: Math.round(seedSeconds) },
    http: { recommendations, observations: observationLoad },
    history,
    decayScan: decay,
    footprint: {
      peakRssMB: mb(peakRss),
      afterLoadMB: rssAfterLoad === null ? null : { total: mb(rssAfterLoad.total), anon: mb(rssAfterLoad.anon), file: mb(rssAfterLoad.file) },
      readyMs,
      starts,
      readyEmptyMs,
      emptyStarts,
    },
    targets,
    seconds: Math.round((performance.now() - began) / 1000),
  }

  const fmt = (v: number | null) => (v === null ? 'n/a' : Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 0))
  const rows = [
    ['', 'service', 'baseline', 'ratio'],
    ['POST /v1/recommendations req/s', fmt(recommendations.service.requestsPerSecond), fmt(recommendations.baseline.requestsPerSecond), fmt(recommendations.ratio)],
    ['  p50 / p99 ms', `${recommendations.service.p50Ms} / ${recommendations.service.p99Ms}`, `${recommendations.baseline.p50Ms} / ${recommendations.baseline.p99Ms}`, ''],
    ['POST /v1/observations req/s', fmt(observationLoad.service.requestsPerSecond), fmt(observationLoad.baseline.requestsPerSecond), fmt(observationLoad.ratio)],
    ['  p50 / p99 ms', `${observationLoad.service.p50Ms} / ${observationLoad.service.p99Ms}`, `${observationLoad.baseline.p50Ms} / ${observationLoad.baseline.p99Ms}`, ''],
    ...history.sizes.map((s) => [`recommendation at ${s.observations} obs, µs`, fmt(s.microseconds), '', '']),
    [`  ${shape.historySizes.at(-1)} / ${shape.historySizes[0]}`, '', '', fmt(history.ratio)],
    [`decay scan ms (raw iteration of ${decay.observations})`, fmt(decay.scanMs), fmt(decay.rawIterationMs), fmt(decay.ratio)],
    [`peak RSS MB, ${observations} obs, under load`, fmt(mb(peakRss)), '', ''],
    ['  after the load: anonymous / file-backed MB', rssAfterLoad === null ? 'n/a' : `${mb(rssAfterLoad.anon)} / ${mb(rssAfterLoad.file)}`, '', ''],
    ['ready ms, median of later starts (empty store)', fmt(readyMs), fmt(readyEmptyMs), fmt(readyMs / readyEmptyMs)],
  ]
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => (r[c] as string).length)))
  process.stdout.write('\n')
  for (const r of rows) process.stdout.write(`${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number))).join('  ')}\n`)
  process.stdout.write('\ntargets\n')
  for (const t of targets) process.stdout.write(`  ${t.met ? 'met    ' : 'NOT met'}  ${t.name}: ${fmt(t.value)} (target ${t.target})\n`)
  if (out !== undefined) {
    const file = resolve(out)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, `${JSON.stringify(results, null, 2)}\n`)
    log(`wrote ${file}`)
  }
  log(`${mode} run done`)
} finally {
  if (!values.keep) await rm(work, { recursive: true, force: true })
  else log(`kept ${work}`)
}
