import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'

/**
 * Claims of README.md's HTTP API and Decisions as contracts sections that no other test pinned,
 * checked as a reader of the README would check them: through the routes, with the README's own
 * examples and numbers.
 */

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

const required = (extra: Record<string, unknown>) => ({
  title: 'A decision',
  decision: 'We do this.',
  rationale: 'Because of that.',
  status: 'accepted',
  enforce: 'required',
  ...extra,
})

const choice = (question: string, labels: string[]) => ({
  question,
  header: 'Step',
  options: labels.map((label) => ({ label, description: `${label}, described` })),
})

describe('README: the decision record of its curl example', () => {
  it('is taken as written, and its pattern blocks the force pushes it names but not a plain push', async () => {
    const { call } = await createTestApp()
    // The body of the README's curl, its JSON as the shell passes it in single quotes.
    const body = JSON.parse(String.raw`{
  "key": "D-021", "title": "Never force push to protected branches",
  "decision": "Agents never run git push --force or any variant with force semantics.",
  "rationale": "Force push has lost us work twice, both times under pressure.",
  "enforce": "required", "status": "accepted", "source": "session-0f8c4a",
  "constraints": [{"kind": "must_not", "pattern": "^git push ([^;&|]* )?(--force|-[a-zA-Z]*f|\\+)"}]}`)
    const created = await call('POST', '/v1/decisions', body)
    expect([created.status, created.body.key, created.body.status]).toEqual([201, 'D-021', 'accepted'])
    const allowed = async (action: string) => (await call('POST', '/v1/decisions/check', { action })).body.allowed
    expect(await allowed('git push --force origin main')).toBe(false)
    expect(await allowed('git push -f')).toBe(false)
    expect(await allowed('git push origin +main')).toBe(false)
    expect(await allowed('git push origin main')).toBe(true)
  })
})

describe('README: Question plan', () => {
  it('orders questions by information p(1 − p), ties in the agent order, asks four and defers the rest', async () => {
    const { call } = await createTestApp()
    // No history: p is 1/n, so a two-option question (p ½, information ¼) comes before one of
    // three (⅓, 0.2222) and one of four (p 0.25, information 0.1875).
    const questions = [
      choice('Four?', ['A', 'B', 'C', 'D']),
      choice('First pair?', ['A', 'B']),
      choice('Three?', ['A', 'B', 'C']),
      choice('Second pair?', ['A', 'B']),
      choice('Third pair?', ['A', 'B']),
      choice('Fourth pair?', ['A', 'B']),
    ]
    const plan = await call('POST', '/v1/plan', { questions })
    expect(plan.status).toBe(200)
    expect(plan.body.questions.map((q: any) => [q.ask_user_question.question, q.recommendation.p, q.recommendation.information])).toEqual([
      ['First pair?', 0.5, 0.25],
      ['Second pair?', 0.5, 0.25],
      ['Third pair?', 0.5, 0.25],
      ['Fourth pair?', 0.5, 0.25],
      ['Three?', 0.3333, 0.2222],
      ['Four?', 0.25, 0.1875],
    ])
    // AskUserQuestion takes four questions at most: the rest wait for a second call.
    expect(plan.body.ask_user_question_input.questions.map((q: any) => q.question)).toEqual(['First pair?', 'Second pair?', 'Third pair?', 'Fourth pair?'])
    expect(plan.body.deferred).toEqual(['Three?', 'Four?'])
  })
})

describe('README: the route table, its query parameters copied whole', () => {
  it('refuses each parameter given empty, naming it, rather than reading it as left out', async () => {
    const { call } = await createTestApp()
    const issues = async (path: string) => {
      const answer = await call('GET', path)
      expect(answer.status, path).toBe(400)
      return answer.body.error.issues.map((issue: { path: string }) => issue.path)
    }
    // The table's rows, pasted as written: every `name=` there is a placeholder, not a value.
    expect(await issues('/v1/decisions?status=&point=&as_of=')).toEqual(['status', 'point', 'as_of'])
    expect(await issues('/v1/decisions/applicable?task=&path=&stage=&point=&as_of=')).toEqual(['task', 'path', 'stage', 'point', 'as_of'])
    expect(await issues('/v1/why?user=&project=&session_id=&point=&as_of=&task=&path=&stage=')).toEqual([
      'user',
      'project',
      'session_id',
      'point',
      'as_of',
      'task',
      'path',
      'stage',
    ])
    // Left out, they are not there: the route answers.
    expect((await call('GET', '/v1/decisions')).status).toBe(200)
    expect((await call('GET', '/v1/decisions/applicable')).status).toBe(200)
    // An empty cache-buster still passes, as any `_` does.
    expect((await call('GET', '/v1/decisions?_=')).status).toBe(200)
  })
})

describe('README: Recommendation request', () => {
  it('cites the newest 100 observations it used, newest first, and counts every one in evidence_total', async () => {
    const { app, call, clock } = await createTestApp()
    for (let i = 0; i < 105; i++) {
      expect((await call('POST', '/v1/observations', { ...TIER, user_choice: 'Tier S', decision_id: `o-${i}` })).status).toBe(201)
      clock.advance(1000)
    }
    const answer = (await call('POST', '/v1/recommendations', TIER)).body
    expect([answer.evidence.length, answer.evidence_total]).toEqual([100, 105])
    const exported = (await (await app.request('/v1/users/default/export')).text()).split('\n').filter(Boolean).map((l) => JSON.parse(l))
    // Exported oldest first.
    const ids = exported.filter((l: any) => l.type === 'observation').map((l: any) => l.data.id)
    expect(answer.evidence).toEqual(ids.slice(-100).reverse())
  })
})

describe('README: Decisions as contracts, Record', () => {
  it('makes the lowest unused D- key where the next after the highest would be longer than 120 characters', async () => {
    const { call } = await createTestApp()
    const longest = `D-${'9'.repeat(118)}`
    expect((await call('POST', '/v1/decisions', required({ key: 'D-001' }))).status).toBe(201)
    expect((await call('POST', '/v1/decisions', required({ key: longest }))).status).toBe(201)
    const next = await call('POST', '/v1/decisions', required({}))
    expect([next.status, next.body.key]).toEqual([201, 'D-002'])
  })

  it('keeps the day of an ISO time as written, whatever its offset, and refuses a day after the service tomorrow', async () => {
    const { call } = await createTestApp()
    // 23:00 at UTC-5 is already the 2nd in UTC: the day written is kept.
    const written = await call('POST', '/v1/decisions', required({ date: '2026-01-01T23:00:00-05:00' }))
    expect([written.status, written.body.date]).toEqual([201, '2026-01-01'])
    expect((await call('POST', '/v1/decisions', required({ date: '2026-07-02' }))).body.date).toBe('2026-07-02')
    for (const date of ['2026-07-03', '9999-12-31', '0000-01-01']) {
      const refused = await call('POST', '/v1/decisions', required({ date }))
      expect([refused.status, refused.body.error.issues.map((i: { path: string }) => i.path)], date).toEqual([400, ['date']])
    }
  })

  it('refuses an import of more than 1,000 records, naming records, and stores none', async () => {
    const { call } = await createTestApp()
    const records = Array.from({ length: 1001 }, (_, i) => ({ key: `ADR-${i}`, title: 'Use X', decision: 'X.', rationale: 'Y.' }))
    const refused = await call('POST', '/v1/decisions/import', { records })
    expect([refused.status, refused.body.error.issues.map((i: { path: string }) => i.path)]).toEqual([400, ['records']])
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })
})

describe('README: Decisions as contracts, Applicability', () => {
  it('holds a repository-relative path under ".", not one that leaves the root nor an absolute one; reads c:\\ as C:/ and compares in NFC', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required({ key: 'ROOT', scope: { path: '.' } }))
    await call('POST', '/v1/decisions', required({ key: 'WIN', scope: { path: 'C:/repo' } }))
    await call('POST', '/v1/decisions', required({ key: 'CAFE', scope: { path: 'docs/caf\u00e9' } }))
    const applicable = async (path: string) => (await call('GET', `/v1/decisions/applicable?path=${encodeURIComponent(path)}`)).body.decisions.map((d: { key: string }) => d.key)
    expect(await applicable('src/x.ts')).toEqual(['ROOT'])
    expect(await applicable('..')).toEqual([])
    expect(await applicable('../other')).toEqual([])
    expect(await applicable('/abs/x')).toEqual([])
    expect(await applicable('c:\\repo\\x')).toEqual(['WIN'])
    // The café folder as macOS reports it, decomposed: e and a combining acute accent.
    expect(await applicable('docs/cafe\u0301/notes.md')).toEqual(['CAFE', 'ROOT'])
  })
})

describe('README: Decisions as contracts, Recommendations', () => {
  it("says a required decision's whole scope in its precondition: for task, under path, at stage", async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required({ key: 'D-001', scope: { points: ['complexity-tier'], task: 'T', path: 'src', stage: 'S' }, constraints: [{ kind: 'must', option: 'Tier L' }] }))
    const answer = (await call('POST', '/v1/recommendations', { ...TIER, context: { task: 'T', path: 'src/a.ts', stage: 'S' } })).body
    expect([answer.state, answer.recommended, answer.precondition]).toEqual(['enforced', 'Tier L', 'required decision D-001 is in force for task T, under src, at stage S'])
  })
})

describe('README: Decisions as contracts, Audits', () => {
  it('answers 404 naming the moment for a decision read as of before it was proposed, and counts no pulse', async () => {
    const { call, clock } = await createTestApp()
    clock.advance(3600_000)
    await call('POST', '/v1/decisions', required({ key: 'D-003' }))
    const before = await call('GET', `/v1/decisions/D-003?as_of=${START}`)
    expect([before.status, before.body.error.code, before.body.error.message]).toEqual([404, 'decision_not_found', `no decision D-003 as of ${START}`])
    await call('GET', `/v1/decisions/applicable?as_of=${clock.now().toISOString()}`)
    const pulses = (await call('GET', '/v1/decisions/pulses')).body
    expect([pulses.decisions[0].count, pulses.never_reached]).toEqual([0, ['D-003']])
  })
})
