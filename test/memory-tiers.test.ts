import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../src/config/load-policy'
import type { ObservationInput } from '../src/domain/observation'
import type { CompiledPolicy } from '../src/domain/policy'
import { RECALL_EXPIRY_BATCH } from '../src/memory/recall-tier'
import { createLevelStore } from '../src/memory/level-store'
import { createDecisionMemory } from '../src/decision-memory'
import { MemoryLevel } from 'memory-level'
import { InstrumentedLevel } from './support/instrumented-level'
import { tempDir } from './support/temp-dir'
import { createTestApp, START } from './support/test-app'

const DAY = 86_400_000
const T0 = Date.parse(START)
const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}

let serial = 0
/** An observation as `DecisionMemory.observe` takes it (HTTP defaults applied). */
function choice(fields: Partial<ObservationInput> & { user_choice: string; at: number }): ObservationInput {
  const { at, ...rest } = fields
  return {
    ...TIER,
    user: 'alice',
    source: 'user',
    decision_id: `d-${serial++}`,
    timestamp: new Date(at).toISOString(),
    ...rest,
  }
}

async function policyWith(change: (policy: CompiledPolicy) => void): Promise<CompiledPolicy> {
  const policy = await loadPolicy(DEFAULT_POLICY_FILE)
  change(policy)
  return policy
}

/** A deterministic shuffle, so that observations reach the store out of time order. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

describe('recall, archival and the long-term layer (R-MEM-1, R-MEM-3)', () => {
  it('a 30-day-old observation leaves recall at the scan, stays in archival and export, and counts with weight 31^-0.5', async () => {
    const { call, store, memory } = await createTestApp()
    const old = choice({ user_choice: 'Tier S', at: T0 - 30 * DAY, point: 'tier' })
    await memory.observe([old])
    // Twenty recent choices push the old one out of the exactly-kept newest moments, into the
    // exponential tail of the incremental sums.
    await memory.observe(Array.from({ length: 20 }, (_, i) => choice({ user_choice: 'Tier M', at: T0 - i * 60_000, point: 'tier' })))
    expect(await store.recallAt('alice', 'tier')).toHaveLength(21)

    const scan = await call('POST', '/v1/maintenance/decay-scan', {})
    expect(scan.status).toBe(200)
    expect(scan.body).toMatchObject({ status: 'ran', expired_from_recall: 1, scanned_at: START })

    const recall = await store.recallAt('alice', 'tier')
    expect(recall).toHaveLength(20)
    expect(recall.map((o) => o.decision_id)).not.toContain(old.decision_id)
    expect((await store.observationsAt('alice', 'tier')).map((o) => o.decision_id)).toContain(old.decision_id)
    const exported: string[] = []
    for await (const o of store.observationsOf('alice')) exported.push(o.decision_id as string)
    expect(exported).toHaveLength(21)
    expect(exported).toContain(old.decision_id)

    const { body } = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', point: 'tier' })
    const weightS = 31 ** -0.5
    const weightM = Array.from({ length: 20 }, (_, i) => (1 + (i * 60_000) / DAY) ** -0.5).reduce((s, w) => s + w, 0)
    const tierS = body.layers.long_term.counts.find((c: { option: string }) => c.option === 'Tier S')
    expect(tierS.count).toBe(1)
    expect(tierS.share).toBeCloseTo(weightS / (weightS + weightM), 4)
    expect(body.observations).toBe(21)
  })

  it('the scan takes out of recall exactly the observations older than recall.ttl_days, with the TTL the policy sets', async () => {
    for (const ttl of [28, 7]) {
      const policy = await policyWith((p) => {
        p.recall.ttl_days = ttl
      })
      const { call, store, memory } = await createTestApp({ policy })
      const ages = [ttl * DAY - 60_000, ttl * DAY, ttl * DAY + 1, ttl * DAY + DAY / 2, (ttl + 2) * DAY]
      await memory.observe(ages.map((age, i) => choice({ user_choice: 'Tier M', at: T0 - age, point: 'tier', decision_id: `age-${i}` })))
      const scan = await call('POST', '/v1/maintenance/decay-scan', { force: true })
      // A minute short of the TTL, and exactly the TTL, are not older than it: they stay.
      expect(scan.body, `ttl ${ttl}`).toMatchObject({ status: 'ran', expired_from_recall: 3 })
      expect((await store.recallAt('alice', 'tier')).map((o) => o.decision_id).sort()).toEqual(['age-0', 'age-1'])
    }
  })

  it('re-capturing a point after its old observations left recall counts old and new (in core and rebuilt)', async () => {
    // core.max_entries 1: a busier point takes core, so the re-captured one is rebuilt from archival.
    for (const maxEntries of [10_000, 1]) {
      const policy = await policyWith((p) => {
        p.core.max_entries = maxEntries
      })
      const { call, clock, store, memory } = await createTestApp({ policy })
      await memory.observe(Array.from({ length: 6 }, (_, i) => choice({ user_choice: 'Tier L', at: T0 - i * 1000, point: 'tier' })))
      const before = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', point: 'tier' })
      expect(before.body.recommended).toBe('Tier L')

      clock.advance(40 * DAY)
      await memory.observe(Array.from({ length: 30 }, (_, i) => choice({ user_choice: 'Tier M', at: T0 + 40 * DAY - i, point: 'busy' })))
      await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', point: 'busy' })
      expect((await call('POST', '/v1/maintenance/decay-scan', {})).body.expired_from_recall).toBe(6)
      expect(await store.recallAt('alice', 'tier')).toEqual([])
      expect(await store.inCore('alice', 'tier')).toBe(maxEntries > 1)

      await memory.observe(Array.from({ length: 6 }, (_, i) => choice({ user_choice: 'Tier S', at: T0 + 40 * DAY - i * 1000, point: 'tier' })))
      const { body } = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', point: 'tier' })
      expect(body.layers.long_term.observations).toBe(12)
      const counts = Object.fromEntries(body.layers.long_term.counts.map((c: { option: string; count: number }) => [c.option, c.count]))
      expect(counts).toEqual({ 'Tier S': 6, 'Tier M': 0, 'Tier L': 6 })
      // Six new choices of S after six old ones of L are a change of preference (issue 3): the
      // recommendation follows the new ones and says since when; the long-term layer keeps both.
      expect(body.recommended).toBe('Tier S')
      expect(body.disclosure).toMatch(/since \d{4}-\d{2}-\d{2} \(they differ from your earlier choices\)/)
    }
  })
})

describe('a recommendation at a point in core (R-MEM-1)', () => {
  const CHECKS = { question: 'Which checks should run before the PR?', all_options: ['Lint', 'Test', 'E2E'] }
  let n = 0
  /** A choice of the checks `minutes` before T0, asked as multi-select or not. */
  const checks = (user_choice: string[], multi_select: boolean, minutes: number, source: 'user' | 'auto-resolved' = 'user'): ObservationInput => ({
    ...CHECKS,
    user: 'alice',
    source,
    decision_id: `checks-${n++}`,
    timestamp: new Date(T0 - minutes * 60_000).toISOString(),
    user_choice,
    multi_select,
  })

  it('reads nothing from recall or archival, also to tell, for a request that does not say, whether the point is multi-select', async () => {
    const db = new InstrumentedLevel()
    const { memory, store } = await createTestApp({ db })
    const { stored } = await memory.observe(Array.from({ length: 6 }, (_, i) => checks(['Lint', 'Test'], true, 100 - i)))
    const point = stored[0]?.point as string
    // Neither the request nor the policy says: the point is as the latest choice there was asked.
    const request = { ...CHECKS, user: 'alice' }
    expect((await memory.recommend(request)).multi_select).toBe(true)
    expect(await store.inCore('alice', point)).toBe(true)
    const fromCore = async () => {
      const before = { archival: db.readsIn.get('archival') ?? 0, recall: db.readsIn.get('recall') ?? 0 }
      const answer = await memory.recommend(request)
      expect(db.readsIn.get('archival') ?? 0, 'archival').toBe(before.archival)
      expect(db.readsIn.get('recall') ?? 0, 'recall').toBe(before.recall)
      return answer.multi_select
    }
    // Each write of the user's makes the next answer read the flag again: from core, where the
    // choice waits to be counted, then from the head once the waiting ones are counted in.
    await memory.observe([checks(['Lint', 'E2E'], true, 50)])
    expect(await fromCore()).toBe(true)
    await memory.observe([checks(['Lint'], false, 40)])
    expect(await fromCore()).toBe(false)
    // An answer the service gave itself is passed over, and so is a choice older than the latest.
    await memory.observe([checks(['Lint', 'Test'], true, 30, 'auto-resolved'), checks(['Test', 'E2E'], true, 45)])
    expect(await fromCore()).toBe(false)
    await memory.observe(Array.from({ length: 30 }, (_, i) => checks(['Lint', 'Test'], true, 20 - i / 2)))
    expect(await fromCore()).toBe(true)
    await memory.observe([checks(['Test'], false, 1)])
    expect(await fromCore()).toBe(false)
    // And as an audit of the same moment, which replays archival, reads it.
    expect((await memory.recommend({ ...request, as_of: new Date(T0 - 30 * 60_000).toISOString() })).multi_select).toBe(false)
    expect((await memory.recommend({ ...request, as_of: new Date(T0 - 10 * 60_000).toISOString() })).multi_select).toBe(true)
  })

  it("reads the point as the user's latest own choice however many of the service's answers came after it, in core or not", async () => {
    const { memory, store } = await createTestApp()
    // One option picked at a multi-select question, then more answers the service gave itself (a
    // client may send any number) than a seek of archival once looked through.
    const { stored } = await memory.observe([checks(['Lint'], true, 100), ...Array.from({ length: 70 }, (_, i) => checks(['Lint'], false, 90 - i, 'auto-resolved'))])
    const point = stored[0]?.point as string
    const request = { ...CHECKS, user: 'alice' }
    expect(await store.inCore('alice', point)).toBe(false)
    // Not in core: from archival, which put it in core.
    expect((await memory.recommend(request)).multi_select).toBe(true)
    expect(await store.inCore('alice', point)).toBe(true)
    // A write of the user's elsewhere has the flag read again, from core: the same.
    await memory.observe([{ ...checks(['Tier M'], false, 5), ...TIER }])
    expect((await memory.recommend(request)).multi_select).toBe(true)
    // And as an audit, which replays archival.
    expect((await memory.recommend({ ...request, as_of: new Date(T0 - 10 * 60_000).toISOString() })).multi_select).toBe(true)
  })
})

describe('core (R-MEM-4)', () => {
  /** Five points; point i has 8·(i + 1) choices spread over 90 days, so their weights differ. */
  async function fivePoints(memory: Awaited<ReturnType<typeof createTestApp>>['memory']) {
    const inputs = [0, 1, 2, 3, 4].flatMap((i) =>
      Array.from({ length: 8 * (i + 1) }, (_, k) =>
        choice({
          point: `point-${i}`,
          user_choice: TIER.all_options[(k * 7 + i) % 3] as string,
          at: T0 - ((k * 37 + i * 11) % 90) * DAY - k * 1000,
          session_id: `s-${k % 5}`,
          project: k % 4 === 0 ? 'acme/web' : 'acme/api',
          context: { phase: k % 3 === 0 ? 'plan' : 'run', spec_id: `SPEC-${k % 6}` },
        }),
      ),
    )
    // Out of time order: core counts them as they come, a rebuild in archival order.
    for (const batch of [shuffled(inputs).slice(0, 60), shuffled(inputs).slice(60)]) await memory.observe(batch)
  }
  const request = (i: number) => ({ ...TIER, user: 'alice', point: `point-${i}`, project: 'acme/api', session_id: 's-1', context: { phase: 'run' } })

  it('with max_entries 3 and 5 active points, the scan demotes the two lowest-weight aggregates, whose answers stay identical', async () => {
    const db = new InstrumentedLevel()
    const roomy = await createTestApp({ db })
    await fivePoints(roomy.memory)
    const inCore = []
    for (const i of [0, 1, 2, 3, 4]) inCore.push((await roomy.call('POST', '/v1/recommendations', request(i))).body)
    // Answers served from core, after the aggregates were updated by observations arriving later.
    const late = { project: 'acme/api', session_id: 's-1', context: { phase: 'run' } }
    await roomy.memory.observe([
      choice({ point: 'point-1', user_choice: 'Tier S', at: T0 - 5 * DAY, ...late }),
      choice({ point: 'point-3', user_choice: 'Tier L', at: T0, ...late }),
    ])
    const before = []
    for (const i of [0, 1, 2, 3, 4]) before.push((await roomy.call('POST', '/v1/recommendations', request(i))).body)
    expect(before[0]).toEqual(inCore[0])
    expect(before[1].observations).toBe(inCore[1].observations + 1)
    await roomy.store.close()

    const tight = await createTestApp({ db, policy: await policyWith((p) => (p.core.max_entries = 3)) })
    const scan = await tight.call('POST', '/v1/maintenance/decay-scan', {})
    expect(scan.body).toMatchObject({ status: 'ran', core_demoted: 2 })
    expect(await Promise.all([0, 1, 2, 3, 4].map((i) => tight.store.inCore('alice', `point-${i}`)))).toEqual([false, false, true, true, true])

    for (const i of [0, 1]) {
      const after = (await tight.call('POST', '/v1/recommendations', request(i))).body
      expect(after).toEqual(before[i])
    }
  })

  it('admitting points into a full core demotes the lowest weights, whose answers stay identical when rebuilt', async () => {
    const { memory, store, call } = await createTestApp({ policy: await policyWith((p) => (p.core.max_entries = 3)) })
    await fivePoints(memory)
    for (const i of [0, 1, 2]) await call('POST', '/v1/recommendations', request(i))
    // Counted in core as it comes, then answered from core.
    await memory.observe([choice({ point: 'point-0', user_choice: 'Tier L', at: T0 - DAY, project: 'acme/api', context: { phase: 'run' } })])
    const fromCore = (await call('POST', '/v1/recommendations', request(0))).body
    expect(fromCore.observations).toBeGreaterThan(0)
    for (const i of [3, 4]) await call('POST', '/v1/recommendations', request(i))
    expect(await Promise.all([0, 1, 2, 3, 4].map((i) => store.inCore('alice', `point-${i}`)))).toEqual([false, false, true, true, true])
    expect((await call('POST', '/v1/recommendations', request(0))).body).toEqual(fromCore)
  })
})

describe('an audit (as_of) and a full core (R-MEM-4, R-REC-9)', () => {
  it('ranks the aggregates by their weight now, not as of the audit', async () => {
    const { memory, store, call } = await createTestApp({ policy: await policyWith((p) => (p.core.max_entries = 1)) })
    // Now, point-a (one choice a day ago) weighs 0.71 and point-b (two 100 days ago) 0.20; as of
    // 99 days ago, point-b weighed 1.41 and point-a, not yet made, 1.
    await memory.observe([choice({ point: 'point-a', user_choice: 'Tier M', at: T0 - DAY })])
    await memory.observe([0, 1].map(() => choice({ point: 'point-b', user_choice: 'Tier S', at: T0 - 100 * DAY })))
    const ask = (point: string, asOf?: string) => ({ user: 'alice', point, ...TIER, ...(asOf === undefined ? {} : { as_of: asOf }) })
    expect((await call('POST', '/v1/recommendations', ask('point-a'))).status).toBe(200)
    const audit = await call('POST', '/v1/recommendations', ask('point-b', new Date(T0 - 99 * DAY).toISOString()))
    expect(audit.body).toMatchObject({ observations: 2 })
    expect(await Promise.all(['point-a', 'point-b'].map((p) => store.inCore('alice', p)))).toEqual([true, false])
  })
})

describe('the decay scan (R-MEM-7)', () => {
  it('runs at most once per 24 h unless forced', async () => {
    const { call, clock } = await createTestApp()
    expect((await call('POST', '/v1/maintenance/decay-scan')).body.status).toBe('ran')
    clock.advance(23 * 3_600_000)
    const skipped = await call('POST', '/v1/maintenance/decay-scan', {})
    expect(skipped.body).toEqual({
      status: 'skipped',
      reason: 'within_cadence_window',
      last_run: START,
      next_run_after: new Date(T0 + DAY).toISOString(),
    })
    const forced = await call('POST', '/v1/maintenance/decay-scan', { force: true })
    expect(forced.body).toMatchObject({ status: 'ran', scanned_at: new Date(T0 + 23 * 3_600_000).toISOString() })
    clock.advance(24 * 3_600_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', {})).body.status).toBe('ran')
  })

  it('a forced scan as of an earlier moment does not move the cadence window back', async () => {
    const { call, clock, memory } = await createTestApp()
    expect((await call('POST', '/v1/maintenance/decay-scan')).body.status).toBe('ran')
    const audit = await memory.decayScan({ force: true, now: new Date(T0 - 10 * DAY).toISOString() })
    expect(audit).toMatchObject({ status: 'ran', scanned_at: new Date(T0 - 10 * DAY).toISOString() })
    // The last run is still the one at START: a scan an hour later is within its window.
    clock.advance(3_600_000)
    expect(await memory.decayScan()).toMatchObject({ status: 'skipped', last_run: START })
  })

  it('refuses a malformed body or a moment in the future, naming the field', async () => {
    const { call } = await createTestApp()
    const bad = await call('POST', '/v1/maintenance/decay-scan', { force: 'yes' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.issues[0].path).toBe('force')
    const future = await call('POST', '/v1/maintenance/decay-scan', { now: '2099-01-01T00:00:00Z' })
    expect(future.status).toBe(400)
    expect(future.body.error).toMatchObject({ code: 'timestamp_in_future', issues: [{ path: 'now' }] })
    const docs = await call('GET', '/openapi.json')
    expect(Object.keys(docs.body.paths)).toContain('/v1/maintenance/decay-scan')
  })

  it('failing between two batches and run again leaves every observation counted exactly once', async () => {
    const expiredCount = 2 * RECALL_EXPIRY_BATCH + 37
    const batches = Math.ceil(expiredCount / RECALL_EXPIRY_BATCH)
    for (let failing = 1; failing <= batches; failing++) {
      const db = new InstrumentedLevel()
      const { call, store, memory } = await createTestApp({ db })
      const old = Array.from({ length: expiredCount }, (_, i) =>
        choice({ point: i % 2 === 0 ? 'even' : 'odd', user_choice: TIER.all_options[i % 3] as string, at: T0 - 40 * DAY - i * 1000 }),
      )
      const recent = Array.from({ length: 30 }, (_, i) => choice({ point: i % 2 === 0 ? 'even' : 'odd', user_choice: 'Tier M', at: T0 - i * 1000 }))
      for (let i = 0; i < old.length; i += 500) await memory.observe(old.slice(i, i + 500))
      await memory.observe(recent)
      const answers = async () =>
        Promise.all(['even', 'odd'].map(async (point) => (await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', point })).body))
      const expected = await answers()

      db.failBatch(failing)
      await expect(memory.decayScan()).rejects.toThrow('injected fault')
      const again = await memory.decayScan()
      expect(again.status).toBe('ran')

      expect(await answers()).toEqual(expected)
      expect(expected[0].layers.long_term.observations + expected[1].layers.long_term.observations).toBe(expiredCount + 30)
      const recalled = [...(await store.recallAt('alice', 'even')), ...(await store.recallAt('alice', 'odd'))]
      expect(recalled.map((o) => o.decision_id).sort()).toEqual(recent.map((o) => o.decision_id).sort())
      const exported = new Set<string>()
      let rows = 0
      for await (const o of store.observationsOf('alice')) {
        exported.add(o.id)
        rows++
      }
      expect(rows).toBe(expiredCount + 30)
      expect(exported.size).toBe(rows)
      // Run a third time: nothing left to do, nothing changes.
      expect(await memory.decayScan({ force: true })).toMatchObject({ status: 'ran', expired_from_recall: 0 })
      expect(await answers()).toEqual(expected)
    }
  })
})

describe('the recent layer (R-MEM-5, R-POL)', () => {
  // Five sessions of one project, a choice in each, a day apart: s-0 the oldest, s-4 the newest.
  const sessions = (memory: Awaited<ReturnType<typeof createTestApp>>['memory']) =>
    memory.observe(
      [0, 1, 2, 3, 4].map((k) =>
        choice({ user_choice: k < 2 ? 'Tier S' : 'Tier L', at: T0 - (5 - k) * DAY, session_id: `s-${k}`, project: 'acme/api' }),
      ),
    )
  const request = { ...TIER, user: 'alice', project: 'acme/api' }

  it('covers the number of sessions the policy file sets, 3 when it sets none', async () => {
    const dir = tempDir('dm-recent-')
    const file = join(dir, 'mine.yaml')
    writeFileSync(file, 'layers: { recent_sessions: 4 }\n')
    const wide = await createTestApp({ policy: await loadPolicy(file) })
    await sessions(wide.memory)
    const recent = (await wide.call('POST', '/v1/recommendations', request)).body.layers.recent
    expect(recent).toMatchObject({ observations: 4, sessions: ['s-4', 's-3', 's-2', 's-1'] })

    const usual = await createTestApp()
    await sessions(usual.memory)
    expect((await usual.call('POST', '/v1/recommendations', request)).body.layers.recent).toMatchObject({ observations: 3, sessions: ['s-4', 's-3', 's-2'] })
  })

  it('an aggregate kept in core with another number of sessions answers as one built with the policy\'s', async () => {
    const db = new InstrumentedLevel()
    const usual = await createTestApp({ db })
    await sessions(usual.memory)
    await usual.call('POST', '/v1/recommendations', request)
    expect(await usual.store.inCore('alice', (await usual.call('POST', '/v1/recommendations', request)).body.point)).toBe(true)
    await usual.store.close()

    const narrow = await policyWith((p) => Object.assign(p, { layers: { recent_sessions: 1 } }))
    const reopened = await createTestApp({ db, policy: narrow })
    const fresh = await createTestApp({ policy: narrow })
    await sessions(fresh.memory)
    const answer = (await reopened.call('POST', '/v1/recommendations', request)).body
    expect(answer.layers.recent).toMatchObject({ observations: 1, sessions: ['s-4'] })
    // The same choices, made anew in the fresh store, have other ids.
    const { evidence, ...rest } = answer
    const { evidence: freshEvidence, ...freshRest } = (await fresh.call('POST', '/v1/recommendations', request)).body
    expect(rest).toEqual(freshRest)
    expect(evidence).toHaveLength(freshEvidence.length)
  })

  it('is refused when the store was opened with another number of sessions than the policy sets', async () => {
    // The store's aggregates keep the sessions it was opened with: a memory whose policy says
    // otherwise would report a recent layer of the store's number, not the policy's, unsaid.
    const narrow = await policyWith((p) => Object.assign(p, { layers: { recent_sessions: 1 } }))
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: await loadPolicy(DEFAULT_POLICY_FILE) })
    try {
      expect(() => createDecisionMemory({ store, policy: narrow, clock: { now: () => new Date(T0) } })).toThrow(/another policy/)
    } finally {
      await store.close()
    }
  })
})

describe('the cost of a recommendation (R-MEM-8)', () => {
  /** A history of n choices at one point: 4 sessions, 2 phases, 2 projects, every option chosen. */
  async function readsAt(n: number): Promise<{ reads: number; waiting: number; observations: number }> {
    const db = new InstrumentedLevel()
    const { memory, store } = await createTestApp({ db })
    const inputs = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, j) => {
        const i = from + j
        return choice({
          point: 'tier',
          user_choice: TIER.all_options[i % 3] as string,
          at: T0 - ((i * 7919) % (400 * DAY)) - 1,
          session_id: `s-${i % 4}`,
          project: i % 5 === 0 ? 'acme/web' : 'acme/api',
          context: { phase: i % 2 === 0 ? 'run' : 'plan' },
        })
      })
    const request = { ...TIER, user: 'alice', point: 'tier', project: 'acme/api', session_id: 's-1', context: { phase: 'run' } }
    // The first use after the first observation puts the point in core (a point with nothing
    // observed is not kept); from then on every observation is counted there as it comes.
    await memory.observe(inputs(0, 1))
    await memory.recommend(request)
    // In batches of up to 1,000, ending at each thousand: whatever n, the last batch is its remainder.
    for (let from = 1; from < n; ) {
      const to = Math.min(n, (Math.floor(from / 1_000) + 1) * 1_000)
      await memory.observe(inputs(from, to))
      from = to
    }
    expect(await store.inCore('alice', 'tier')).toBe(true)
    const readsBefore = db.reads
    const waitingBefore = db.readsIn.get('core-pending') ?? 0
    const answer = await memory.recommend(request)
    const waiting = (db.readsIn.get('core-pending') ?? 0) - waitingBefore
    return { reads: db.reads - readsBefore, waiting, observations: answer.layers.long_term.observations }
  }

  it('reads no more records at 100,000 observations than at 10', async () => {
    const small = await readsAt(10)
    const large = await readsAt(100_000)
    expect(small.observations).toBe(8)
    expect(large.observations).toBe(80_000)
    expect(large.reads).toBeLessThanOrEqual(small.reads)
    // The head, 2 scopes, 1 context value, 1 precondition candidate, 4 sessions, the session count.
    expect(small.reads).toBeLessThan(20)
    // 7 more, in a batch of their own: they wait in core to be counted into the cells (fewer than
    // 8 wait at any point), and a recommendation reads them there, and nothing else more.
    const waiting = await readsAt(100_007)
    expect(waiting.observations).toBe(80_005)
    expect(waiting.waiting).toBe(7)
    expect(waiting.reads).toBe(large.reads + 7)
  }, 120_000)
})

describe('sessions in a replay (R-REC-9), whatever order their observations arrived in', () => {
  /** Session s-k has one choice at T0 - k days and one at T0; sent newest first, or oldest first. */
  const inputs = (k: number) => [
    choice({ point: 'tier', user_choice: 'Tier M', at: T0, session_id: `s-${k}` }),
    choice({ point: 'tier', user_choice: 'Tier M', at: T0 - k * DAY, session_id: `s-${k}` }),
  ]
  const asOf = (days: number) => ({ ...TIER, user: 'alice', point: 'tier', as_of: new Date(T0 - days * DAY).toISOString() })

  it('counts a session from its earliest choice, sent in one request, in several, or at once', async () => {
    const inOrder = await createTestApp()
    await inOrder.memory.observe([1, 2, 3, 4, 5, 6].flatMap((k) => inputs(k).reverse()))
    const newestFirst = await createTestApp()
    for (const k of [1, 2, 3]) for (const input of inputs(k)) await newestFirst.memory.observe([input])
    // Concurrent requests, written in one group: the later choice comes first.
    await Promise.all([4, 5, 6].flatMap((k) => inputs(k).map((input) => newestFirst.memory.observe([input]))))
    // As of 2 days ago, sessions s-2 to s-6 had started; as of 5 days ago, s-5 and s-6.
    for (const [days, sessions] of [[0, 6], [2, 5], [5, 2]] as const) {
      const want = (await inOrder.call('POST', '/v1/recommendations', asOf(days))).body.expertise
      expect(want.sessions).toBe(sessions)
      expect((await newestFirst.call('POST', '/v1/recommendations', asOf(days))).body.expertise).toEqual(want)
    }
  })
})
