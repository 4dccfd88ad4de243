// The CPU a request costs the service, against the bare baseline, side by side in one run: the
// measure behind bench/README.md's per-request figures. requests/s move by a third from one
// minute to the next on a shared machine; the CPU time each server spent per request (user and
// system time from /proc over the load, Linux only) moves much less.
//
//   npx tsx scripts/bench/cpu-per-request.ts [--route recommendations|observations] [--seconds 5]
//        [--users 200] [--pairs N] [--rounds 2] [--store DIR] [--keep] [--env NAME=VALUE ...] [--checkout DIR ...]
//        [--policy FILE]
//
// --pairs: the (user, point) pairs the load cycles through, at most two per user (default: two
// per user, 400). The full run's load cycles through 2,000, which costs a kept answer 3 to 4 µs
// more than 400 (bench/HISTORY.md): `--users 1000 --pairs 2000` comes nearer to it.
//
// --policy: every service (the checkouts' included) started with this policy file instead of the
// default. With --pairs 2000 the warm-up takes long enough that, under the default policy (answers
// kept 60 s), the answers of the service loaded first expire before its second round, which then
// measures answers computed again; a copy of the default whose `cache.seconds` is 3600 keeps them
// through every round (bench/HISTORY.md, the forty-first session).
//
// Each line also splits the CPU by thread: the main thread, the busiest other one (LevelDB's
// compaction thread, in the service under the observation load) and the rest.
//
// Servers, each in its own process, loaded in turn with autocannon at 50 connections:
//   service           `decision-memory serve` as `npm start` starts it, on a store of --users users
//                     (100 observations each), every (user, point) pair asked once before the load
//   baseline          the bare hono route of section 1 (a small JSON answer)
//   baseline+answer   (recommendations) the same route answering a real recommendation of the
//                     service, serialised on every request
//   baseline+encoded  (recommendations) the same answer, sent as bytes encoded once
//   service NAME=VALUE  with each --env, the service again with that in its environment (e.g.
//                     DECISION_MEMORY_LOG_LEVEL=warn), on a copy of the store
//   service@DIR       with each --checkout, the service of another checkout (e.g. a worktree of
//                     the commit before a change: `git worktree add ../before HEAD~1 && (cd
//                     ../before && npm ci)`), on a copy of the store: a change measured side by side
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseFlags, positiveInteger, positiveNumber, readFlags, UsageError } from '../flags'
import { load, median } from './http-load'
import { cpuMicrosOf, startBaseline, startService, threadCpuMicrosOf, type ServerProcess } from './processes'
import { seedStore } from './seed'
import { historyOf, observationBody, recommendationBody, SESSION_LENGTH, userName } from './workload'

// Checked before any store is seeded or service started: a mistake in them is said on one line, exit 2.
const { values, route, users, pairCount, seconds, rounds } = readFlags('cpu-per-request', () => {
  const { values } = parseFlags({
    options: {
      route: { type: 'string', default: 'recommendations' },
      seconds: { type: 'string', default: '5' },
      users: { type: 'string', default: '200' },
      pairs: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      store: { type: 'string' },
      keep: { type: 'boolean', default: false },
      env: { type: 'string', multiple: true, default: [] },
      checkout: { type: 'string', multiple: true, default: [] },
      policy: { type: 'string' },
    },
  })
  const route = values.route
  if (route !== 'recommendations' && route !== 'observations') throw new UsageError(`--route must be recommendations or observations, not ${JSON.stringify(route)}`)
  const users = positiveInteger(values.users, 'users')
  const pairCount = values.pairs === undefined ? users * 2 : Number(values.pairs)
  if (!Number.isInteger(pairCount) || pairCount < 1 || pairCount > users * 2)
    throw new UsageError(`--pairs ${JSON.stringify(values.pairs)}: a whole number from 1 to ${users * 2}, two (user, point) pairs per user of --users`)
  for (const setting of values.env) if (setting.indexOf('=') <= 0) throw new UsageError(`--env ${JSON.stringify(setting)}: NAME=VALUE`)
  return { values, route, users, pairCount, seconds: positiveNumber(values.seconds, 'seconds'), rounds: positiveInteger(values.rounds, 'rounds') }
})
const work = await mkdtemp(join(tmpdir(), 'dm-cpu-'))
const store = values.store ?? join(work, 'store')
const sessions = Math.ceil(100 / SESSION_LENGTH)

/**
 * A request's CPU by thread: the main thread (JavaScript), the busiest of the others (in the
 * service under the observation load, LevelDB's compaction thread) and the rest (libuv's pool,
 * V8's helpers for garbage collection and compilation).
 */
function threadSplit(pid: number, before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, requests: number): string {
  const used = [...after].map(([tid, micros]) => [tid, micros - (before.get(tid) ?? 0)] as const)
  const main = used.find(([tid]) => tid === pid)?.[1] ?? 0
  const others = used.filter(([tid]) => tid !== pid).map(([, micros]) => micros).sort((a, b) => b - a)
  const busiest = others[0] ?? 0
  const rest = others.slice(1).reduce((sum, micros) => sum + micros, 0)
  const each = (micros: number) => (micros / requests).toFixed(1)
  return `main ${each(main)}, busiest other thread ${each(busiest)}, the rest ${each(rest)}`
}

try {
  if (!existsSync(store)) {
    const now = new Date()
    await seedStore({ dir: store, now, histories: (function* () { for (let u = 0; u < users; u++) yield historyOf(userName(u), u, 100, now, 365) })() })
  }
  // Up to two points per user: the pairs the load cycles through, each asked once first.
  const pairs = Array.from({ length: pairCount }, (_, i) => ({ u: i % users, p: Math.floor(i / users) }))
  const recommendations = pairs.map(({ u, p }) => JSON.stringify(recommendationBody(userName(u), u, p, sessions)))
  const run = Date.now().toString(36)
  // Observations: a decision_id never sent before in this run, whatever the round or the server
  // (load() counts each run's requests from 0; a decision_id sent again is a duplicate, not stored).
  let sent = 0
  const body = (n: number) => {
    if (route === 'recommendations') return recommendations[n % recommendations.length] as string
    const k = sent++
    const { u, p } = pairs[k % pairs.length] as (typeof pairs)[number]
    return JSON.stringify(observationBody(userName(u), u, p, sessions, k, run))
  }

  // Each variant on a copy of the store, made before any service writes to it.
  const variants: Array<{ name: string; env: NodeJS.ProcessEnv; dir: string; checkout?: string }> = [{ name: 'service', env: {}, dir: store }]
  for (const [i, setting] of (values.env as string[]).entries()) {
    const at = setting.indexOf('=')
    const dir = join(work, `store-${i}`)
    await cp(store, dir, { recursive: true })
    variants.push({ name: `service ${setting}`, env: { [setting.slice(0, at)]: setting.slice(at + 1) }, dir })
  }
  for (const [i, checkout] of (values.checkout as string[]).entries()) {
    const dir = join(work, `store-checkout-${i}`)
    await cp(store, dir, { recursive: true })
    variants.push({ name: `service@${checkout}`, env: {}, dir, checkout })
  }
  const servers: Array<{ name: string; server: ServerProcess }> = []
  try {
    // Started inside the try: a start that fails stops those started before it.
    let answerFile: string | undefined
    for (const { name, env, dir, checkout } of variants) {
      const service = await startService({ dataDir: dir, logFile: join(work, 'service.log'), env, checkout, policy: values.policy })
      servers.push({ name, server: service })
      for (const text of recommendations) {
        const response = await fetch(`${service.url}/v1/recommendations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
        if (response.status !== 200) throw new Error(`warm-up answered ${response.status}`)
        if (answerFile === undefined) {
          answerFile = join(work, 'answer.json')
          await writeFile(answerFile, await response.text())
        } else await response.arrayBuffer()
      }
    }
    servers.push({ name: 'baseline', server: await startBaseline({ logFile: join(work, 'baseline.log') }) })
    if (route === 'recommendations' && answerFile !== undefined) {
      servers.push({ name: 'baseline+answer', server: await startBaseline({ logFile: join(work, 'baseline.log'), args: ['--answer', answerFile] }) })
      servers.push({ name: 'baseline+encoded', server: await startBaseline({ logFile: join(work, 'baseline.log'), args: ['--answer', answerFile, '--encoded'] }) })
    }
    process.stdout.write(`POST /v1/${route}, 50 connections, ${seconds} s per run, ${rounds} rounds\n`)
    const width = Math.max(17, ...servers.map((s) => s.name.length + 1))
    const cpuOf = new Map<string, number[]>()
    for (let r = 0; r < rounds; r++) {
      for (const { name, server } of r % 2 === 0 ? servers : [...servers].reverse()) {
        const before = cpuMicrosOf(server.pid)
        const threadsBefore = threadCpuMicrosOf(server.pid)
        const result = await load({ server, target: 'service', path: `/v1/${route}`, connections: 50, seconds, body })
        const after = cpuMicrosOf(server.pid)
        const threadsAfter = threadCpuMicrosOf(server.pid)
        const perRequest = before === null || after === null ? undefined : (after - before) / result.requests
        if (perRequest !== undefined) cpuOf.set(name, [...(cpuOf.get(name) ?? []), perRequest])
        const cpu = perRequest === undefined ? 'n/a' : perRequest.toFixed(1)
        const split = threadsBefore === null || threadsAfter === null ? '' : `  (${threadSplit(server.pid, threadsBefore, threadsAfter, result.requests)})`
        const failed = result.non2xx + result.errors > 0 ? `  ${result.non2xx} non-2xx, ${result.errors} errors` : ''
        process.stdout.write(`${name.padEnd(width)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  CPU ${cpu} µs/request${split}${failed}\n`)
      }
    }
    // Interference from the machine's neighbours mostly adds CPU time: the lowest round is the
    // steadiest figure of a server, the median the usual one.
    process.stdout.write('CPU µs/request over the rounds, lowest and median:\n')
    for (const [name, values] of cpuOf) process.stdout.write(`${name.padEnd(width)} ${Math.min(...values).toFixed(1).padStart(6)} ${median(values).toFixed(1).padStart(6)}\n`)
    // The most each server held in RAM since it started (VmHWM), warm-up included.
    process.stdout.write('peak RSS, MB:\n')
    for (const { name, server } of servers) {
      const peak = server.peakRss()
      process.stdout.write(`${name.padEnd(width)} ${peak === null ? 'n/a' : (peak / 2 ** 20).toFixed(0).padStart(4)}\n`)
    }
  } finally {
    for (const { server } of servers) await server.stop()
  }
} finally {
  if (!values.keep) await rm(work, { recursive: true, force: true })
  else process.stdout.write(`kept ${work}\n`)
}
