import fc from 'fast-check'
import { MemoryLevel } from 'memory-level'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixedClock } from './clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from './config/load-policy'
import { createDecisionMemory } from './decision-memory'
import type { ObservationInput } from './domain/observation'
import type { CompiledPolicy } from './domain/policy'
import { createLevelStore } from './memory/level-store'
import type { MemoryStore } from './memory/store'

/*
 * observe stores a batch of one without the batch machinery (observeOne, d1a7cd65): over small
 * histories of a user at a point the policy leaves open (sets, strings, auto-resolved answers,
 * some dated back), the one observation stored alone is stored as it is in a batch of several
 * (the batch's other at another user's point), or refused alike.
 */

const T0 = '2026-07-01T10:00:00.000Z'
const MINUTE = 60_000
const CHECKS = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'], user: 'alice' }
const ELSEWHERE = { question: 'Which database?', header: 'Database', all_options: ['Postgres', 'MySQL'], user: 'bob', source: 'user' as const, user_choice: 'Postgres' }

let policy: CompiledPolicy
beforeAll(async () => {
  policy = await loadPolicy(DEFAULT_POLICY_FILE)
})

const choice = fc.constantFrom<string | string[]>('Lint', 'Unit tests', 'Lint, E2E', 'foo', ', ,', ['Lint', 'Unit tests'], ['E2E'], ['Lint', 'foo'])
const step = fc.record({
  choice,
  multi: fc.constantFrom<boolean | undefined>(undefined, undefined, true, false),
  source: fc.constantFrom<'user' | 'auto-resolved'>('user', 'user', 'user', 'auto-resolved'),
  back: fc.constantFrom(0, 0, 1, 3),
  advance: fc.constantFrom(0, 0, 2),
})
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never

function inputOf(s: Step, now: Date, id: string): ObservationInput {
  return {
    ...CHECKS,
    user_choice: s.choice,
    source: s.source,
    decision_id: id,
    ...(s.multi === undefined ? {} : { multi_select: s.multi }),
    ...(s.back === 0 ? {} : { timestamp: new Date(now.getTime() - s.back * MINUTE).toISOString() }),
  } as ObservationInput
}

/** The last step stored alone or in a batch of two, after the history posted one at a time: as stored, or as refused. */
async function outcome(steps: readonly Step[], batch: boolean): Promise<unknown> {
  const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
  const clock = fixedClock(T0)
  const memory = createDecisionMemory({ store, policy, clock })
  try {
    const history = steps.slice(0, -1)
    for (const [i, s] of history.entries()) {
      clock.advance(s.advance * MINUTE)
      await memory.observe([inputOf(s, clock.now(), `h-${i}`)]).catch(() => undefined)
    }
    const last = steps.at(-1) as Step
    clock.advance(last.advance * MINUTE)
    const input = inputOf(last, clock.now(), 'last')
    try {
      await memory.observe(batch ? [input, ELSEWHERE] : [input], { indexed: true })
    } catch (error) {
      const { code, issues } = error as { code?: string; issues?: unknown }
      return { refused: code, issues }
    }
    for await (const o of store.observationsOf('alice')) {
      if (o.decision_id === 'last') return { chosen: o.chosen, other: o.other, multi_select: o.multi_select, timestamp: o.timestamp }
    }
    return 'not stored'
  } finally {
    await store.close()
  }
}

describe('observe, a batch of one against the same observation in a batch of several', () => {
  it('stores or refuses it alike, over small histories at its point', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        expect(await outcome(steps, false)).toEqual(await outcome(steps, true))
      }),
      { numRuns: 150 },
    )
  })
})

/** `n` turns of the microtask queue. */
async function hops(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve()
}

const sent = fc.record({
  choice: fc.constantFrom<string | string[]>('Lint', 'Unit tests', 'Lint, E2E', ['Lint', 'Unit tests'], ['E2E']),
  source: fc.constantFrom<'user' | 'auto-resolved'>('user', 'user', 'user', 'auto-resolved'),
  batch: fc.boolean(),
  start: fc.nat(6),
  write: fc.nat(6),
})

describe('observe, sent at once at one point, alone or in batches', () => {
  it('stores no string single-select after a multi-select choice of the user in archival, in any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sent, { minLength: 2, maxLength: 5 }), async (all) => {
        const level = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
        // Each write held a few turns, as its own: the writes land in any order.
        const writeHops = new Map(all.map((s, i) => [`s-${i}`, s.write]))
        const store: MemoryStore = {
          ...level,
          addObservations: async (observations, sessions) => {
            await hops(writeHops.get(observations.find((o) => o.user === 'alice')?.decision_id ?? '') ?? 0)
            return level.addObservations(observations, sessions)
          },
        }
        const memory = createDecisionMemory({ store, policy, clock: fixedClock(T0) })
        try {
          await Promise.all(
            all.map(async (s, i) => {
              await hops(s.start)
              const input = { ...CHECKS, user_choice: s.choice, source: s.source, decision_id: `s-${i}` } as ObservationInput
              await memory.observe(s.batch ? [input, { ...ELSEWHERE, decision_id: `e-${i}` }] : [input])
            }),
          )
          const stored = []
          for await (const o of level.observationsOf('alice')) stored.push(o)
          // All of one moment: a string reads every choice before it in archival, and may read
          // one after it there, made at its moment and stored by the time it read.
          const sets = stored.filter((o) => o.source === 'user' && o.multi_select).length
          let latestOwn: boolean | undefined
          for (const o of stored) {
            const s = all[Number(o.decision_id?.slice(2))] as (typeof all)[number]
            const why = `${o.decision_id} of ${JSON.stringify(all)}`
            if (Array.isArray(s.choice) || latestOwn === true) expect(o.multi_select, why).toBe(true)
            else if (sets === 0) expect(o.multi_select, why).toBe(false)
            if (o.source === 'user') latestOwn = o.multi_select
          }
        } finally {
          await level.close()
        }
      }),
      { numRuns: 200 },
    )
  })
})
