import { MemoryLevel } from 'memory-level'
import { beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../test/support/crash-cycles'
import { loadPolicy } from '../config/load-policy'
import { aggregateObservations, viewOf, type PointView } from '../domain/aggregate'
import type { Observation } from '../domain/observation'
import type { CompiledPolicy } from '../domain/policy'
import { recommend, type Recommendation } from '../domain/recommendation'
import { createLevelStore, type TierPolicy } from './level-store'

const T0 = Date.parse('2026-07-01T10:00:00Z')
const MINUTE = 60_000
const DAY = 86_400_000
const USERS = ['u1', 'u2']
const POINTS = ['p1', 'p2', 'p3']
const OPTIONS = ['S', 'M', 'L']

let policy: CompiledPolicy
beforeAll(async () => {
  policy = await loadPolicy()
})

/** A recommendation's request: what decides which cells it asks for, and in which rounds. */
interface Ask {
  user: string
  point: string
  context: Record<string, string>
  project: string | undefined
  session_id: string | undefined
  /** Days before now it is asked as of (0: now; else an audit, replayed from archival). */
  back: number
}

function recommendation(ask: Ask, memory: PointView, asOf: Date): Recommendation {
  return recommend({
    point: ask.point,
    question: 'Which tier?',
    options: OPTIONS.map((option) => ({ option })),
    context: ask.context,
    project: ask.project,
    session_id: ask.session_id,
    memory,
    sessions: 12,
    personalization: true,
    asOf,
    policy,
  })
}

/**
 * Whether two answers agree: every number within 2e-4 (relatively, past 1) of the other, all else
 * equal. A point counted into core a few observations at a time weighs them a little differently
 * from a rebuild of all at once (decayed-sum.ts: below 1e-6 relatively), which an answer's numbers,
 * rounded to 4 digits, may show in their last digit.
 */
function agree(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 2e-4 * Math.max(1, Math.abs(a), Math.abs(b))
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => agree(x, b[i]))
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort()
    const kb = Object.keys(b).sort()
    return agree(ka, kb) && ka.every((k) => agree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  }
  return a === b
}

/** Lets the other tasks of a round run first, `hops` times (no clock involved). */
async function yieldTimes(hops: number): Promise<void> {
  for (let i = 0; i < hops; i++) await new Promise((resolve) => setImmediate(resolve))
}

/**
 * Runs `rounds` rounds against a core of two aggregates (of six points: rebuilds demote all the
 * time). Each round starts at once, a few event-loop turns apart, at most one write (a group of
 * observations, a forget, a decay scan) and a few recommendations at random points, with random
 * contexts, projects and sessions (so each asks other cells, in other rounds, than the last read
 * of its point did), some as of days before. A recommendation racing the write must answer as
 * the observations before it or after it would; once the round is over, every point answers as
 * the observations the model holds. The model: the observations written and not forgotten.
 */
async function run(seed: number, rounds: number): Promise<void> {
  const random = seededRandom(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T
  const tierPolicy: TierPolicy = {
    decay: { alpha: policy.decay.alpha },
    context: { precondition_share: policy.context.precondition_share },
    core: { max_entries: 2 },
    layers: { recent_sessions: policy.layers.recent_sessions },
  }
  const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: tierPolicy })
  let model: Observation[] = []
  let now = T0
  let serial = 0
  const observation = (): Observation => {
    const at = now - (random() < 0.2 ? Math.floor(random() * 3 * DAY) : 0)
    return {
      id: `obs-${String(serial++).padStart(6, '0')}`,
      user: pick(USERS),
      project: pick(['p', 'q', null]),
      session_id: pick(['s-0', 's-1', 's-2', null]),
      point: pick(POINTS),
      decision_id: null,
      timestamp: new Date(at).toISOString(),
      recorded_at: new Date(now).toISOString(),
      question: 'Which tier?',
      header: null,
      options: OPTIONS,
      chosen: [pick(OPTIONS)],
      other: null,
      // Asked either way, by its serial (no draw more: the seeds play as before): the latest's is the flag.
      multi_select: serial % 3 === 0,
      context: random() < 0.6 ? { phase: pick(['plan', 'run']) } : {},
      source: random() < 0.1 ? 'auto-resolved' : 'user',
    }
  }
  const ask = (): Ask => ({
    user: pick(USERS),
    point: pick(POINTS),
    context: random() < 0.6 ? { phase: pick(['plan', 'run']) } : {},
    project: pick(['p', 'q', undefined]),
    session_id: pick(['s-0', 's-1', 's-2', undefined]),
    back: random() < 0.15 ? 1 + Math.floor(random() * 2) : 0,
  })
  /** The answer a fresh aggregate of these observations gives, as archival orders them. */
  const expected = (observations: readonly Observation[], a: Ask, asOf: Date) => {
    const counted = observations
      .filter((o) => o.user === a.user && o.point === a.point && Date.parse(o.timestamp) <= asOf.getTime())
      .sort((x, y) => x.timestamp.localeCompare(y.timestamp) || x.id.localeCompare(y.id))
    return recommendation(a, viewOf(aggregateObservations(counted, store.aggregation).cells), asOf)
  }
  /** As the service asks: most often the latest choice's flag first, which keeps the point's head in memory with no cell yet. */
  const asked = async (a: Ask) => {
    const asOf = new Date(now - a.back * DAY)
    const flag = random() < 0.7 ? await store.latestMultiSelectAt(a.user, a.point, asOf) : null
    const answer = await store.readPoint(a.user, a.point, asOf, (memory) => recommendation(a, memory, asOf), new Date(now))
    return { flag, answer }
  }
  /** How the user's latest own choice there by then was asked (archival's order: time, then id); undefined before any. */
  const flagOf = (observations: readonly Observation[], a: Ask, asOf: Date) =>
    observations
      .filter((o) => o.user === a.user && o.point === a.point && o.source === 'user' && Date.parse(o.timestamp) <= asOf.getTime())
      .sort((x, y) => x.timestamp.localeCompare(y.timestamp) || x.id.localeCompare(y.id))
      .at(-1)?.multi_select
  for (let round = 0; round < rounds; round++) {
    const roll = random()
    if (roll < 0.1) {
      now += random() < 0.5 ? Math.floor(random() * 90) * MINUTE : Math.floor(random() * 10) * DAY
      continue
    }
    const before = model
    let write: () => Promise<unknown> = async () => undefined
    if (roll < 0.55) {
      const group = Array.from({ length: 1 + Math.floor(random() * 12) }, observation)
      model = [...model, ...group]
      write = () => store.addObservations(group, [])
    } else if (roll < 0.65) {
      const user = pick(USERS)
      model = model.filter((o) => o.user !== user)
      write = () => store.forgetUser(user)
    } else if (roll < 0.75) {
      const at = new Date(now)
      write = () => store.maintainCore(at)
    }
    const after = model
    const asks = Array.from({ length: 1 + Math.floor(random() * 4) }, ask)
    const hops = asks.map(() => Math.floor(random() * 4))
    const writeHops = Math.floor(random() * 3)
    const [, ...answers] = await Promise.all([
      yieldTimes(writeHops).then(write),
      ...asks.map((a, i) => yieldTimes(hops[i] as number).then(() => asked(a))),
    ])
    asks.forEach((a, i) => {
      const asOf = new Date(now - a.back * DAY)
      const { answer } = answers[i] as Awaited<ReturnType<typeof asked>>
      const either = [expected(before, a, asOf), expected(after, a, asOf)]
      if (!either.some((e) => agree(answer, e))) {
        expect(answer, `seed ${seed}, round ${round}, racing: ${JSON.stringify(a)}`).toEqual(either[1])
      }
    })
    // Once the round is over, each point answers as the model's observations, asked as any of the round's asks.
    for (const a of [...asks, ask()]) {
      const asOf = new Date(now - a.back * DAY)
      const { flag, answer } = await asked(a)
      if (flag !== null) expect(flag, `seed ${seed}, round ${round}: ${JSON.stringify(a)}`).toBe(flagOf(after, a, asOf))
      const want = expected(after, a, asOf)
      if (!agree(answer, want)) expect(answer, `seed ${seed}, round ${round}: ${JSON.stringify(a)}`).toEqual(want)
    }
  }
  await store.close()
}

describe('recommendations from core against fresh aggregates, over racing writes, forgets, scans and reads', () => {
  it.each([1, 2, 3, 4, 5, 6])('answers as the observations before or after each racing write, and as all of them after (seed %i)', async (seed) => {
    await run(seed, 200)
  })
})
