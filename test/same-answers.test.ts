import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../src/config/load-policy'
import type { ObservationInput } from '../src/domain/observation'
import type { CompiledPolicy } from '../src/domain/policy'
import { createTestApp, START } from './support/test-app'
import { seededRandom, shuffled } from './support/crash-cycles'
import { recommendationsOf } from './support/answers'

const DAY = 86_400_000
const T0 = Date.parse(START)


const TIER = ['Tier S', 'Tier M', 'Tier L']
const MULTI = ['Lint', 'Test', 'Docs', 'Bench']

function workload(seed: number): ObservationInput[] {
  const r = seededRandom(seed)
  const out: ObservationInput[] = []
  let serial = 0
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T
  for (let i = 0; i < 260; i++) {
    const kind = r()
    const age = r() < 0.5 ? r() * 20 : r() * 150
    const at = T0 - age * DAY - Math.floor(r() * 1000)
    const project = r() < 0.6 ? 'acme/api' : r() < 0.8 ? 'acme/web' : r() < 0.5 ? 'acme/cli' : undefined
    const session_id = `s-${Math.floor(r() * 14)}`
    const phase = r() < 0.5 ? 'run' : 'plan'
    const base = { user: 'alice', decision_id: `d-${seed}-${serial++}`, timestamp: new Date(at).toISOString(), session_id, ...(project === undefined ? {} : { project }), source: r() < 0.05 ? ('auto-resolved' as const) : ('user' as const) }
    if (kind < 0.45) {
      // context matters: plan -> Tier L, run -> Tier M mostly
      const choice = phase === 'plan' ? (r() < 0.85 ? 'Tier L' : pick(TIER)) : r() < 0.7 ? 'Tier M' : pick(TIER)
      out.push({ ...base, point: 'tier', question: 'Which tier?', all_options: TIER, user_choice: choice, context: { phase, spec_id: `SPEC-${Math.floor(r() * 3)}` } } as ObservationInput)
    } else if (kind < 0.75) {
      const chosen = MULTI.filter((o, j) => r() < [0.8, 0.6, 0.3, 0.1][j]!)
      out.push({ ...base, point: 'checks', question: 'Which checks?', all_options: MULTI, user_choice: chosen.length ? chosen : ['Lint'], multi_select: true, context: { phase } } as ObservationInput)
    } else {
      out.push({ ...base, point: `p-${Math.floor(r() * 4)}`, question: 'Which tier?', all_options: TIER, user_choice: r() < 0.1 ? 'something else' : pick(TIER), context: { phase } } as ObservationInput)
    }
  }
  return out
}

const asOfs = [undefined, new Date(T0 - 10 * DAY).toISOString(), new Date(T0 - 40 * DAY).toISOString(), new Date(T0 - 100 * DAY).toISOString()]
function requests() {
  const out: any[] = []
  for (const as_of of asOfs)
    for (const project of [undefined, 'acme/api', 'acme/web', 'acme/cli', 'other'])
      for (const context of [undefined, { phase: 'plan' }, { phase: 'run', spec_id: 'SPEC-1' }]) {
        out.push({ user: 'alice', point: 'tier', question: 'Which tier?', all_options: TIER, project, context, session_id: 's-3', as_of })
        out.push({ user: 'alice', point: 'checks', question: 'Which checks?', all_options: MULTI, project, context, session_id: 's-5', multi_select: true, as_of })
        for (const p of [0, 1, 2, 3]) out.push({ user: 'alice', point: `p-${p}`, question: 'Which tier?', all_options: TIER, project, context, as_of })
      }
  return out.map((r) => JSON.parse(JSON.stringify(r)))
}

async function policyWith(change: (p: CompiledPolicy) => void) {
  const p = await loadPolicy(DEFAULT_POLICY_FILE)
  change(p)
  return p
}

const answers = (app: Awaited<ReturnType<typeof createTestApp>>, reqs: any[]) => recommendationsOf(app, reqs)

/**
 * Where a user's observations sit never changes an answer (R-MEM-1, R-MEM-4): the same observations,
 * sent in time order and read once (rebuilt from archival), sent out of order while their points
 * are hot in core, or through a core of one entry that demotes and rebuilds at every turn, and
 * read again after a decay scan took the old ones out of recall (R-MEM-3), give identical answers:
 * single- and multi-select points, across projects (R-MEM-6), by context (R-REC-7), and as of
 * earlier moments (R-REC-9), sessions and expertise included.
 */
describe('the same answers however memory holds the observations', () => {
  it('in core, demoted and rebuilt, and after the decay scan', async () => {
    for (const seed of [1]) {
      const obs = workload(seed)
      const reqs = requests()
      // reference: in time order, fresh read (rebuilt)
      const ref = await createTestApp({ policy: await policyWith((p) => (p.cache.seconds = 0)) })
      const sorted = [...obs].sort((a, b) => (a.timestamp! < b.timestamp! ? -1 : 1))
      await ref.memory.observe(sorted)
      const A = await answers(ref, reqs)

      // hot: read first (into core), then observations arrive shuffled, in small batches
      const hot = await createTestApp({ policy: await policyWith((p) => (p.cache.seconds = 0)) })
      const sh = shuffled(obs, seed + 100)
      await hot.memory.observe(sh.slice(0, 20))
      await answers(hot, reqs.slice(0, 30))
      for (let i = 20; i < sh.length; i += 7) await hot.memory.observe(sh.slice(i, i + 7))
      const B = await answers(hot, reqs)

      // tiny core
      const tiny = await createTestApp({ policy: await policyWith((p) => { p.core.max_entries = 1; p.cache.seconds = 0 }) })
      await tiny.memory.observe(sh.slice(0, 20))
      await answers(tiny, reqs.slice(0, 30))
      for (let i = 20; i < sh.length; i += 7) {
        await tiny.memory.observe(sh.slice(i, i + 7))
        await answers(tiny, [reqs[i % reqs.length]])
      }
      const C = await answers(tiny, reqs)

      // after decay scan
      await hot.call('POST', '/v1/maintenance/decay-scan', { force: true })
      const D = await answers(hot, reqs)

      for (let i = 0; i < reqs.length; i++) {
        expect({ i, req: reqs[i], b: B[i] }).toEqual({ i, req: reqs[i], b: A[i] })
        expect({ i, req: reqs[i], c: C[i] }).toEqual({ i, req: reqs[i], c: A[i] })
        expect({ i, req: reqs[i], d: D[i] }).toEqual({ i, req: reqs[i], d: A[i] })
      }
    }
  })
})

describe('observations posted concurrently at a few points (R-SVC-3)', () => {
  it('are all counted, through a core of one entry demoting while they arrive and are read', async () => {
    const obs = workload(9)
    const reqs = requests()
    const ref = await createTestApp({ policy: await policyWith((p) => (p.cache.seconds = 0)) })
    await ref.memory.observe([...obs].sort((a, b) => (a.timestamp! < b.timestamp! ? -1 : 1)))
    const A = await answers(ref, reqs)
    const tiny = await createTestApp({ policy: await policyWith((p) => { p.core.max_entries = 1; p.cache.seconds = 0 }) })
    await Promise.all([
      ...obs.map((o) => tiny.call('POST', '/v1/observations', o).then((r) => expect(r.status).toBe(201))),
      ...reqs.slice(0, 200).map((r) => tiny.call('POST', '/v1/recommendations', r)),
    ])
    const C = await answers(tiny, reqs)
    for (let i = 0; i < reqs.length; i++) expect({ i, req: reqs[i], c: C[i] }).toEqual({ i, req: reqs[i], c: A[i] })
  })
})
