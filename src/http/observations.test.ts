import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { compilePolicy } from '../domain/policy'

const SEED = {
  decision_id: 'moai-ask-001',
  timestamp: '2026-07-01T10:00:00Z',
  question: 'Choose the next step',
  user_choice: 'Option A (Recommended)',
  all_options: ['Option A', 'Option B', 'Option C'],
  context: { spec_id: 'SPEC-XXX-001', phase: 'run', workflow: '/moai run' },
}

describe('POST /v1/observations (R-CAP)', () => {
  it("takes the seed's record and answers 201 with what it stored", async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('POST', '/v1/observations', SEED)
    expect(status).toBe(201)
    expect(body.stored).toHaveLength(1)
    expect(body.stored[0]).toMatchObject({ decision_id: 'moai-ask-001', point: expect.stringMatching(/^q-/) })
    expect(body.duplicates).toEqual([])
  })

  it('says of a question, a label or a choice of white space alone that it is blank, not that it is too short', async () => {
    const { call } = await createTestApp()
    for (const [body, path] of [
      [{ ...SEED, user_choice: '  ' }, 'user_choice'],
      [{ ...SEED, question: ' \t ' }, 'question'],
      [{ ...SEED, all_options: ['Option A', ' '] }, 'all_options.1'],
    ] as const) {
      const { status, body: answer } = await call('POST', '/v1/observations', body)
      expect(status).toBe(400)
      expect(answer.error.issues).toContainEqual({ path, message: 'must not be empty or white space alone' })
    }
  })

  it('stores one observation when the same decision_id is posted twice', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', SEED)
    const again = await call('POST', '/v1/observations', SEED)
    expect(again.status).toBe(201)
    expect(again.body).toEqual({ stored: [], duplicates: ['moai-ask-001'] })
    const r = await call('POST', '/v1/recommendations', { question: SEED.question, all_options: SEED.all_options })
    expect(r.body.observations).toBe(1)
  })

  it('counts "Option A (Recommended)" as "Option A", and options in another order as the same point', async () => {
    const { call } = await createTestApp()
    const shuffled = ['Option C', 'Option A', 'Option B']
    const posts = Array.from({ length: 5 }, (_, i) => ({
      ...SEED,
      decision_id: `d-${i}`,
      all_options: i % 2 === 0 ? SEED.all_options : shuffled,
    }))
    const stored = await call('POST', '/v1/observations', posts)
    expect(new Set(stored.body.stored.map((s: { point: string }) => s.point)).size).toBe(1)
    const r = await call('POST', '/v1/recommendations', { question: SEED.question, all_options: shuffled })
    expect(r.body.point).toBe(stored.body.stored[0].point)
    expect(r.body.recommended).toBe('Option A')
    expect(r.body.options.find((o: { option: string }) => o.option === 'Option A').count).toBe(5)
  })

  it('takes {label, description} options and multi-select arrays', async () => {
    const { call } = await createTestApp()
    const options = [
      { label: 'Lint, format', description: 'eslint and prettier' },
      { label: 'Unit tests', description: 'vitest' },
      { label: 'E2E tests' },
    ]
    const posts = Array.from({ length: 5 }, (_, i) => ({
      question: 'Which checks should run before the PR?',
      all_options: options,
      user_choice: i < 4 ? ['Lint, format', 'Unit tests'] : 'E2E tests',
      multi_select: true,
      decision_id: `m-${i}`,
    }))
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    const r = await call('POST', '/v1/recommendations', { question: posts[0]!.question, all_options: options, multi_select: true })
    expect(r.body.recommended).toEqual(['Lint, format', 'Unit tests'])
  })

  it('answers a point with a multi-select history as multi-select, even when the request does not say', async () => {
    const { call } = await createTestApp()
    const q = { question: 'Which extras?', all_options: ['x', 'y', 'z'] }
    const posts = Array.from({ length: 6 }, (_, i) => ({ ...q, user_choice: i < 3 ? ['x', 'y'] : ['x'], decision_id: `e-${i}` }))
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    const r = await call('POST', '/v1/recommendations', q)
    expect(r.body.multi_select).toBe(true)
    expect(r.body.recommended).toEqual(['x', 'y'])
    expect(r.body.options.find((o: { option: string }) => o.option === 'x').rate).toBe(1)
    const single = await call('POST', '/v1/recommendations', { ...q, multi_select: false })
    expect(single.body.multi_select).toBe(false)
  })

  it('keeps a free-text answer as other: it counts, but for no option', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/observations', { ...SEED, user_choice: 'Something else', decision_id: 'x' })
    const r = await call('POST', '/v1/recommendations', { question: SEED.question, all_options: SEED.all_options })
    expect(r.body.observations).toBe(1)
    expect(r.body.options.every((o: { count: number }) => o.count === 0)).toBe(true)
  })

  it('refuses a timestamp far in the future and stores nothing of the batch', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('POST', '/v1/observations', [
      { ...SEED, decision_id: 'ok' },
      { ...SEED, decision_id: 'late', timestamp: '2030-01-01T00:00:00Z' },
    ])
    expect(status).toBe(400)
    expect(body.error.code).toBe('timestamp_in_future')
    expect(body.error.issues[0].path).toBe('1.timestamp')
    const r = await call('POST', '/v1/recommendations', { question: SEED.question, all_options: SEED.all_options })
    expect(r.body.observations).toBe(0)
  })

  it('names a refused field of an array of one by its place, as its schema errors do, and of an object by its name', async () => {
    const { call } = await createTestApp()
    for (const [body, code, path] of [
      [[{ ...SEED, timestamp: '2030-01-01T00:00:00Z' }], 'timestamp_in_future', '0.timestamp'],
      [[{ ...SEED, timestamp: '1969-12-31T23:59:59Z' }], 'timestamp_out_of_range', '0.timestamp'],
      [[{ ...SEED, all_options: ['Option A', 'Option A (Recommended)'] }], 'duplicate_option', '0.all_options.1'],
      [[{ ...SEED, user_choice: ['Option A', 'Option B'], multi_select: false }], 'multiple_choices', '0.user_choice'],
      [[{ ...SEED, decisionId: 'x' }], 'invalid_request', '0.decisionId'],
      [{ ...SEED, timestamp: '2030-01-01T00:00:00Z' }, 'timestamp_in_future', 'timestamp'],
    ] as const) {
      const { status, body: answer } = await call('POST', '/v1/observations', body)
      expect(status).toBe(400)
      expect(answer.error.code).toBe(code)
      expect(answer.error.issues.map((i: { path: string }) => i.path)).toEqual([path])
    }
  })

  it('says a timestamp the calendar has not (30 February) is no such moment, and one not in ISO form what form it takes', async () => {
    const { call } = await createTestApp()
    const february = await call('POST', '/v1/observations', { ...SEED, decision_id: 'feb', timestamp: '2026-02-30T10:00:00Z' })
    expect(february.status).toBe(400)
    expect(february.body.error.issues).toEqual([{ path: 'timestamp', message: 'not a moment of the calendar: no such day, hour or offset' }])
    const day = await call('POST', '/v1/observations', { ...SEED, decision_id: 'day', timestamp: '2026-06-30' })
    expect(day.body.error.issues).toEqual([
      { path: 'timestamp', message: 'an ISO time with seconds and a zone, such as 2026-07-01T10:00:00Z or 2026-07-01T15:30:00+05:30' },
    ])
    expect((await call('POST', '/v1/observations', { ...SEED, decision_id: 'leap', timestamp: '2024-02-29T10:00:00Z' })).status).toBe(201)
  })
})

describe('a timestamp a little ahead of the service clock (a client clock running ahead)', () => {
  it('is kept as the service\'s now: counted at once, not left out until the clock reaches it', async () => {
    const now = '2026-07-01T12:00:00.000Z'
    const { call } = await createTestApp({ now })
    const ahead = '2026-07-01T12:03:00.000Z'
    const history = Array.from({ length: 6 }, (_, i) => ({ ...SEED, decision_id: `b-${i}`, timestamp: `2026-06-2${i}T10:00:00Z`, user_choice: 'Option B' }))
    expect((await call('POST', '/v1/observations', history)).status).toBe(201)
    const stored = await call('POST', '/v1/observations', { ...SEED, decision_id: 'ahead', timestamp: ahead })
    expect(stored.status).toBe(201)
    const r = await call('POST', '/v1/recommendations', { question: SEED.question, all_options: SEED.all_options })
    expect(r.body.observations).toBe(7)
    const exported = (await call('GET', '/v1/users/default/export')).body as string
    const record = exported.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)).find((o) => o.data?.decision_id === 'ahead')
    expect(record.data.timestamp).toBe(now)
    // A session started ahead is counted in the expertise the recommendations read, as its own answer says.
    const session = await call('POST', '/v1/sessions', { user: 'default', session_id: 's-ahead', started_at: ahead })
    expect(session.body.started_at).toBe(now)
    expect(session.body.expertise.sessions).toBe(1)
    const again = await call('POST', '/v1/recommendations', { question: SEED.question, all_options: SEED.all_options, session_id: 's-ahead' })
    expect(again.body.expertise).toEqual(session.body.expertise)
  })
})

describe('decision_id as a store key', () => {
  it('refuses a decision_id with a lone surrogate, which UTF-8 cannot keep: two such ids would be one key', async () => {
    const { call } = await createTestApp()
    const first = await call('POST', '/v1/observations', { ...SEED, decision_id: 'd\ud800', user_choice: 'Option A' })
    const second = await call('POST', '/v1/observations', { ...SEED, decision_id: 'd\ud801', user_choice: 'Option B' })
    // Without the rule, both were answered 201 and the second was dropped as a "duplicate" of the first.
    for (const r of [first, second]) {
      expect(r.status).toBe(400)
      expect(r.body.error.issues[0].path).toBe('decision_id')
    }
    const ok = await call('POST', '/v1/observations', { ...SEED, decision_id: 'd-😀', user_choice: 'Option B' })
    expect(ok.status).toBe(201)
    expect(ok.body.stored).toHaveLength(1)
  })
})

describe('multiSelect, as AskUserQuestion spells it', () => {
  it('is taken for multi_select; the two given and different is a 400 naming multiSelect', async () => {
    const { call } = await createTestApp()
    const pick = { question: 'Which checks?', all_options: ['lint', 'types', 'tests'], user_choice: ['lint', 'tests'] }
    const stored = await call('POST', '/v1/observations', { ...pick, decision_id: 'm-1', multiSelect: true })
    expect(stored.status).toBe(201)
    expect(stored.body.stored).toHaveLength(1)
    // Said false, a choice of two is refused as at any single-select question.
    const single = await call('POST', '/v1/observations', { ...pick, decision_id: 'm-2', multiSelect: false })
    expect(single.status).toBe(400)
    expect(single.body.error.code).toBe('multiple_choices')
    const both = await call('POST', '/v1/observations', [{ ...pick, decision_id: 'm-3' }, { ...pick, decision_id: 'm-4', multi_select: true, multiSelect: false }])
    expect(both.status).toBe(400)
    expect(both.body.error.issues).toEqual([{ path: '1.multiSelect', message: 'differs from multi_select: give one of the two' }])
  })
})

describe('a single-select choice of two answers', () => {
  it('is refused when one is an option and the other text, or both are text; one option named twice is one choice', async () => {
    const { call } = await createTestApp()
    const question = { question: 'Which tier?', all_options: ['Tier S', 'Tier M'], multi_select: false }
    for (const user_choice of [['Tier S', 'something else'], ['my own', 'another of mine']]) {
      const refused = await call('POST', '/v1/observations', { ...question, user_choice })
      expect(refused.status).toBe(400)
      expect(refused.body.error.code).toBe('multiple_choices')
      expect(refused.body.error.issues).toEqual([{ path: 'user_choice', message: 'give one label, or set multi_select' }])
    }
    expect((await call('POST', '/v1/recommendations', question)).body.observations).toBe(0)
    const once = await call('POST', '/v1/observations', { ...question, user_choice: ['Tier S', 'tier s (Recommended)'] })
    expect(once.status).toBe(201)
    const free = await call('POST', '/v1/observations', { ...question, user_choice: ['my own'] })
    expect(free.status).toBe(201)
  })
})

describe('a multi-select choice of commas alone', () => {
  it('is refused naming user_choice, and nothing of the request is stored', async () => {
    const { call } = await createTestApp()
    const question = { question: 'Which checks?', all_options: ['lint', 'types', 'tests'], multi_select: true }
    const good = { ...question, decision_id: 'c-1', user_choice: 'lint, tests' }
    const refused = await call('POST', '/v1/observations', [good, { ...question, decision_id: 'c-2', user_choice: ', ,' }])
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([{ path: '1.user_choice', message: 'names no option and no text (only commas)' }])
    const rec = await call('POST', '/v1/recommendations', question)
    expect(rec.body.observations).toBe(0)
    expect((await call('POST', '/v1/observations', good)).status).toBe(201)
  })
})

describe('free text (R-CAP-3)', () => {
  it('is stored as other with its text kept, lines and all, whether posted or captured by the hook', async () => {
    const { call, store } = await createTestApp()
    const typed = 'Neither: Tier M for the API,\nTier S for the docs (Recommended)'
    const posted = await call('POST', '/v1/observations', { ...SEED, decision_id: undefined, user_choice: typed })
    expect(posted.status).toBe(201)
    const hooked = await call('POST', '/v1/hooks/claude-code', {
      session_id: 's-1', cwd: '/home/dev/acme', hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_use_id: 'toolu_1',
      tool_input: { questions: [{ header: 'Next step', question: SEED.question, options: SEED.all_options.map((label) => ({ label })), multiSelect: false }] },
      tool_response: { answers: { [SEED.question]: `  ${typed}  ` } },
    })
    expect(hooked.status).toBe(200)
    const stored = await store.observationsAt('default', posted.body.stored[0].point)
    expect(stored.map((o) => ({ chosen: o.chosen, other: o.other }))).toEqual([
      { chosen: [], other: typed },
      { chosen: [], other: typed },
    ])
  })
})

describe('a point the policy marks multi_select (R-POL)', () => {
  it('takes a choice sent as joined labels, as a multi-select question has it, for those labels, not for other', async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    policy.points = [...policy.points, { key: 'checks', match: { header: '^checks$' }, always_ask: false, sensitive: false, multi_select: true }]
    const { call, store } = await createTestApp({ policy: compilePolicy(policy) })
    const question = { header: 'Checks', question: 'Which checks should run?', all_options: ['Lint', 'Test', 'Docs'] }
    const posted = await call('POST', '/v1/observations', { ...question, user_choice: 'Lint, Test' })
    expect(posted.status).toBe(201)
    const [stored] = await store.observationsAt('default', 'checks')
    expect(stored).toMatchObject({ chosen: ['Lint', 'Test'], other: null, multi_select: true })
    // Said single-select by the request, it stays single-select: the joined text is other.
    await call('POST', '/v1/observations', { ...question, user_choice: 'Lint, Test', multi_select: false })
    const both = await store.observationsAt('default', 'checks')
    expect(both.find((o) => !o.multi_select)).toMatchObject({ chosen: [], other: 'Lint, Test' })
    // A hook's question that does not say multiSelect: the policy's point decides too.
    const hooked = await call('POST', '/v1/hooks/claude-code', {
      session_id: 's-1', cwd: '/home/dev/acme', hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_use_id: 'toolu_1',
      tool_input: { questions: [{ header: 'Checks', question: 'Which checks should run?', options: [{ label: 'Lint' }, { label: 'Test' }, { label: 'Docs' }] }] },
      tool_response: { answers: { 'Which checks should run?': 'Test, Docs' } },
    })
    expect(hooked.status).toBe(200)
    expect((await store.observationsAt('default', 'checks')).find((o) => o.session_id === 's-1')).toMatchObject({ chosen: ['Test', 'Docs'], other: null, multi_select: true })
  })
})

describe('a choice sent as one string at a point whose history is multi-select (R-REC-8)', () => {
  const CHECKS = { question: 'Which checks should run before the PR?', header: 'Checks', all_options: ['Lint, format', 'Unit tests', 'E2E tests'] }

  it('is read as the multi-select answer it is, as a recommendation there reads the point: it neither turns into free text nor makes the point single-select', async () => {
    // One label, as an agent recording a choice (MCP record_choice) gives it; the labels joined as
    // Claude Code joins them, quoted or not, as a plan's `answers` and the hook's answers hold them.
    for (const [choice, chosen] of [
      ['Unit tests', ['Unit tests']],
      ['Lint, format, E2E tests', ['Lint, format', 'E2E tests']],
      ['"Lint, format", E2E tests', ['Lint, format', 'E2E tests']],
    ] as const) {
      const { call, store } = await createTestApp()
      const sets = Array.from({ length: 10 }, (_, i) => ({ ...CHECKS, user_choice: ['Lint, format', 'Unit tests'], decision_id: `set-${i}` }))
      expect((await call('POST', '/v1/observations', sets)).status).toBe(201)
      expect((await call('POST', '/v1/observations', { ...CHECKS, user_choice: choice, decision_id: 'one-string' })).status).toBe(201)
      const [stored] = (await store.observationsAt('default', (await call('POST', '/v1/recommendations', CHECKS)).body.point)).filter((o) => o.decision_id === 'one-string')
      expect(stored, choice).toMatchObject({ chosen, other: null, multi_select: true })
      const after = (await call('POST', '/v1/recommendations', CHECKS)).body
      expect(after, choice).toMatchObject({ multi_select: true, recommended: ['Lint, format', 'Unit tests'] })
    }
  })

  it('is read so in a batch whose earlier observations make the point multi-select, and stays free text where the request says single-select', async () => {
    const { call, store } = await createTestApp()
    const batch = [{ ...CHECKS, user_choice: ['Lint, format', 'Unit tests'], decision_id: 'b-0' }, { ...CHECKS, user_choice: 'Unit tests, E2E tests', decision_id: 'b-1' }]
    expect((await call('POST', '/v1/observations', batch)).status).toBe(201)
    expect((await call('POST', '/v1/observations', { ...CHECKS, user_choice: 'Unit tests, E2E tests', decision_id: 'b-2', multi_select: false })).status).toBe(201)
    const point = (await call('POST', '/v1/recommendations', CHECKS)).body.point
    const byId = new Map((await store.observationsAt('default', point)).map((o) => [o.decision_id, o]))
    expect(byId.get('b-1')).toMatchObject({ chosen: ['Unit tests', 'E2E tests'], other: null, multi_select: true })
    expect(byId.get('b-2')).toMatchObject({ chosen: [], other: 'Unit tests, E2E tests', multi_select: false })
  })
  it('is read as of its own moment, the batch in time order whatever its order: as the same observations posted one at a time as they were made', async () => {
    const { call, store } = await createTestApp()
    const at = (hours: number) => new Date(Date.parse(START) - hours * 3_600_000).toISOString()
    // Sent first but made last: read in the batch's order, it found no choice before it, and made the point single-select.
    const batch = [
      { ...CHECKS, user_choice: 'Unit tests', decision_id: 'made-last', timestamp: at(1) },
      { ...CHECKS, user_choice: 'Lint, format, E2E tests', decision_id: 'made-first', timestamp: at(3) },
      { ...CHECKS, user_choice: ['Lint, format', 'Unit tests'], decision_id: 'set', timestamp: at(2) },
    ]
    expect((await call('POST', '/v1/observations', batch)).status).toBe(201)
    const point = (await call('POST', '/v1/recommendations', CHECKS)).body.point
    const byId = new Map((await store.observationsAt('default', point)).map((o) => [o.decision_id, o]))
    expect(byId.get('made-last')).toMatchObject({ chosen: ['Unit tests'], other: null, multi_select: true })
    // Made before any set was chosen there, where a recommendation then read the point single-select: free text, as it was asked.
    expect(byId.get('made-first')).toMatchObject({ chosen: [], other: 'Lint, format, E2E tests', multi_select: false })
    expect((await call('POST', '/v1/recommendations', CHECKS)).body).toMatchObject({ multi_select: true })
    // Sent alone after them, dated before the set: read as of its moment too, as a recommendation replayed then reads the point.
    expect((await call('POST', '/v1/observations', { ...CHECKS, user_choice: 'Unit tests, E2E tests', decision_id: 'late-sent', timestamp: at(2.5) })).status).toBe(201)
    const late = (await store.observationsAt('default', point)).find((o) => o.decision_id === 'late-sent')
    expect(late).toMatchObject({ chosen: [], other: 'Unit tests, E2E tests', multi_select: false })
    expect((await call('POST', '/v1/recommendations', { ...CHECKS, as_of: at(2.5) })).body).toMatchObject({ multi_select: false })
    // A batch whose set is older than a stored single choice that is older than its string: the stored one is the string's latest.
    expect((await call('POST', '/v1/observations', { ...CHECKS, user_choice: 'E2E tests', decision_id: 'single', multi_select: false, timestamp: at(0.5) })).status).toBe(201)
    const around = [
      { ...CHECKS, user_choice: ['Lint, format', 'E2E tests'], decision_id: 'older-set', timestamp: at(0.75) },
      { ...CHECKS, user_choice: 'Unit tests, E2E tests', decision_id: 'after-single', timestamp: at(0.25) },
    ]
    expect((await call('POST', '/v1/observations', around)).status).toBe(201)
    const after = (await store.observationsAt('default', point)).find((o) => o.decision_id === 'after-single')
    expect(after).toMatchObject({ chosen: [], other: 'Unit tests, E2E tests', multi_select: false })
  })
})

describe('an array of labels naming free text twice', () => {
  it('stores the text once, at a multi-select question and a single-select one, as an option named twice is one choice', async () => {
    const { call, store } = await createTestApp()
    const question = { question: 'Which checks should run before the PR?', all_options: ['Lint, format', 'Test', 'Build'] }
    const multi = await call('POST', '/v1/observations', { ...question, user_choice: ['Test', 'ruff', 'Test', 'ruff'], decision_id: 'multi' })
    const single = await call('POST', '/v1/observations', { ...question, user_choice: ['ruff', 'ruff'], multi_select: false, decision_id: 'single' })
    expect([multi.status, single.status]).toEqual([201, 201])
    const stored = await store.observationsAt('default', multi.body.stored[0].point)
    expect(stored.find((o) => o.decision_id === 'multi')).toMatchObject({ chosen: ['Test'], other: 'ruff', multi_select: true })
    expect(stored.find((o) => o.decision_id === 'single')).toMatchObject({ chosen: [], other: 'ruff', multi_select: false })
  })
})

describe('an array of labels naming several texts', () => {
  it('is refused naming user_choice where the texts, stored joined as one other, pass the label limit, as the re-send of an export would send them', async () => {
    const { call, store } = await createTestApp()
    const question = { question: 'Which checks should run before the PR?', all_options: ['Lint, format', 'Unit tests', 'E2E tests'] }
    // 300 + ", " + 199 = 501 once joined: over; 300 + ", " + 198 = 500: within.
    const over = await call('POST', '/v1/observations', { ...question, user_choice: ['Unit tests', 'a'.repeat(300), 'b'.repeat(199)], decision_id: 'over' })
    expect(over.status).toBe(400)
    expect(over.body.error).toMatchObject({
      code: 'invalid_request',
      message: 'invalid request: user_choice',
      issues: [{ path: 'user_choice', message: 'its texts naming no option are stored as one, joined with ", ": at most 500 characters once normalised (a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one), not 501' }],
    })
    const within = await call('POST', '/v1/observations', { ...question, user_choice: ['Unit tests', 'a'.repeat(300), 'b'.repeat(198)], decision_id: 'within' })
    expect(within.status).toBe(201)
    const [stored] = await store.observationsAt('default', within.body.stored[0].point)
    expect(stored).toMatchObject({ decision_id: 'within', chosen: ['Unit tests'], other: `${'a'.repeat(300)}, ${'b'.repeat(198)}` })
    // Sent back as README's re-send sends it (`.chosen + [.other]`), it is taken.
    await call('DELETE', '/v1/users/default')
    const again = await call('POST', '/v1/observations', { ...question, user_choice: [...stored!.chosen, stored!.other], multi_select: true, decision_id: 'within' })
    expect(again.status).toBe(201)
    // In an array of observations, named by its place; nothing of the array stored.
    const many = await call('POST', '/v1/observations', [{ ...question, user_choice: 'Unit tests', decision_id: 'm-0' }, { ...question, user_choice: ['a'.repeat(300), 'b'.repeat(300)], multi_select: true, decision_id: 'm-1' }])
    expect(many.status).toBe(400)
    expect(many.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['1.user_choice'])
    expect(await store.observationsAt('default', within.body.stored[0].point)).toHaveLength(1)
  })
})
