import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../src/config/load-policy'
import type { ObservationInput } from '../src/domain/observation'
import type { CompiledPolicy } from '../src/domain/policy'
import { recommendationsOf } from './support/answers'
import { seededRandom, shuffled } from './support/crash-cycles'
import { createTestApp, START } from './support/test-app'

const DAY = 86_400_000
const HOUR = 3_600_000
const T0 = Date.parse(START)
const OPTIONS = ['Tier S', 'Tier M', 'Tier L']

/**
 * `n` choices up to an hour before T0, the user switching from Tier S (4 in 5, 2 a day) to Tier M
 * chosen 3 times in 5 (Tier S still 2 in 5) at 20 a day at 3/5 of them: an option chosen more
 * often than its sum keeps exactly (16), and the old favourite's fall over the last days.
 */
function history(n: number, seed: number): ObservationInput[] {
  const r = seededRandom(seed)
  return Array.from({ length: n }, (_, i) => {
    const switched = Math.floor((n * 3) / 5)
    const after = i >= switched
    const fromEnd = n - 1 - i
    const at = after
      ? T0 - HOUR - Math.floor(fromEnd / 20) * DAY - (fromEnd % 20) * 1_800_000
      : T0 - HOUR - Math.ceil((n - switched) / 20) * DAY - (switched - i) * (DAY / 2)
    const choice = after ? (r() < 0.6 ? 'Tier M' : 'Tier S') : r() < 0.8 ? 'Tier S' : 'Tier L'
    return {
      user: 'alice',
      point: 'tier',
      question: 'Which tier?',
      all_options: OPTIONS,
      user_choice: choice,
      decision_id: `d-${n}-${i}`,
      timestamp: new Date(at).toISOString(),
      session_id: `s-${Math.floor(i / 15)}`,
      project: i % 5 === 0 ? 'acme/web' : 'acme/api',
      context: { phase: i % 3 === 0 ? 'plan' : 'run' },
      source: 'user',
    } as ObservationInput
  })
}

async function policyWith(change: (p: CompiledPolicy) => void): Promise<CompiledPolicy> {
  const p = await loadPolicy(DEFAULT_POLICY_FILE)
  change(p)
  return p
}

const requests = [undefined, new Date(T0 - 2 * DAY).toISOString(), new Date(T0 - 5 * DAY).toISOString()].flatMap((as_of) =>
  [undefined, 'acme/api'].flatMap((project) =>
    [undefined, { phase: 'plan' }].map((context) => ({ user: 'alice', point: 'tier', question: 'Which tier?', all_options: OPTIONS, project, context, as_of, session_id: 's-read' })),
  ),
).map((r) => JSON.parse(JSON.stringify(r)))

const answers = (app: Awaited<ReturnType<typeof createTestApp>>) => recommendationsOf(app, requests)

/**
 * R-MEM-4: a point demoted from core and rebuilt from archival answers exactly as the one kept in
 * core, counted as the choices arrived (out of time order, read between), with a switch whose
 * old favourite's fall over the last days the change test reads from its newest moments.
 */
describe('a point with a switch in it, in core or rebuilt from archival (R-MEM-4)', () => {
  it.each([10, 70, 200])('answers alike at %i choices', async (n) => {
    const obs = history(n, n)
    const policy = () => policyWith((p) => (p.cache.seconds = 0))
    const rebuilt = await createTestApp({ policy: await policy() })
    await rebuilt.memory.observe(obs)
    const reference = await answers(rebuilt)

    const hot = await createTestApp({ policy: await policy() })
    const arriving = shuffled(obs, n + 1)
    for (let i = 0; i < arriving.length; i += 9) {
      await hot.memory.observe(arriving.slice(i, i + 9))
      await hot.call('POST', '/v1/recommendations', requests[0])
    }
    expect(await hot.store.inCore('alice', 'tier')).toBe(true)
    const inCore = await answers(hot)

    // Demoted by another point read into a core of one entry, then rebuilt on use.
    const tiny = await createTestApp({ policy: await policyWith((p) => { p.core.max_entries = 1; p.cache.seconds = 0 }) })
    for (let i = 0; i < arriving.length; i += 9) {
      await tiny.memory.observe(arriving.slice(i, i + 9))
      await tiny.call('POST', '/v1/recommendations', requests[0])
    }
    // Weighing more than it, so that it is the one demoted.
    await tiny.memory.observe(Array.from({ length: 2 * n + 10 }, (_, i) => ({ ...(obs.at(-1) as ObservationInput), point: 'other', decision_id: `other-${i}` })))
    await tiny.call('POST', '/v1/recommendations', { ...requests[0], point: 'other' })
    expect(await tiny.store.inCore('alice', 'tier')).toBe(false)
    const demoted = await answers(tiny)

    for (let i = 0; i < requests.length; i++) {
      expect({ i, core: inCore[i] }).toEqual({ i, core: reference[i] })
      expect({ i, demoted: demoted[i] }).toEqual({ i, demoted: reference[i] })
    }
  })
})

/**
 * R-REC-9: what was answered from core as the choices came (in time order, up to each one) is what
 * a replay as of that moment answers later from archival, newer choices left out: the change test
 * reads the kept moments over the last days, of a sum that kept later ones since.
 */
describe('a switch answered as it happened, and replayed as of each moment (R-REC-9)', () => {
  it('answers alike', async () => {
    const obs = history(200, 7)
    const app = await createTestApp({ policy: await policyWith((p) => (p.cache.seconds = 0)) })
    const live: Array<[string, unknown]> = []
    for (let i = 0; i < obs.length; i += 5) {
      await app.memory.observe(obs.slice(i, i + 5))
      const as_of = (obs[Math.min(i + 4, obs.length - 1)] as ObservationInput).timestamp as string
      const res = await app.call('POST', '/v1/recommendations', { ...requests[0], as_of })
      expect(await app.store.inCore('alice', 'tier')).toBe(true)
      live.push([as_of, res.body])
    }
    for (const [as_of, answer] of live) {
      const res = await app.call('POST', '/v1/recommendations', { ...requests[0], as_of })
      expect({ as_of, answer: res.body }).toEqual({ as_of, answer })
    }
    expect(live.some(([, answer]) => (answer as { change_test: unknown }).change_test !== null)).toBe(true)
  })
})
