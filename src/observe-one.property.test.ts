import fc from 'fast-check'
import { MemoryLevel } from 'memory-level'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixedClock } from './clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from './config/load-policy'
import { createDecisionMemory } from './decision-memory'
import type { ObservationInput } from './domain/observation'
import type { CompiledPolicy } from './domain/policy'
import { createLevelStore } from './memory/level-store'

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
