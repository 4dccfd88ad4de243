import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'

// README's "How a recommendation is made" and "Memory over time", checked through the HTTP API as a
// user reading them would: the concrete promises no other test pins at this level.

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const BROKER = { question: 'Which broker?', header: 'Broker', all_options: ['Kafka', 'SQS', 'RabbitMQ'] }
const DB = { question: 'Which database?', header: 'DB', all_options: ['PostgreSQL', 'MySQL', 'SQLite'] }
const DAY = 86_400_000

/** `days` before START, plus `ms`. */
const at = (days: number, ms = 0) => new Date(Date.parse(START) - days * DAY + ms).toISOString()

type Call = Awaited<ReturnType<typeof createTestApp>>['call']

async function observe(call: Call, question: Record<string, unknown>, n: number, each: (i: number) => Record<string, unknown>) {
  const body = Array.from({ length: n }, (_, i) => ({ user: 'u', ...question, ...each(i) }))
  const posted = await call('POST', '/v1/observations', body)
  expect(posted.status).toBe(201)
}

async function recommend(call: Call, body: Record<string, unknown>) {
  const { status, body: answer } = await call('POST', '/v1/recommendations', { user: 'u', ...body })
  expect(status).toBe(200)
  return answer
}

describe('README: decision points', () => {
  it('keys a tier question naming the tiers to complexity-tier under any header, and hashes the same question alike whatever its options order or closing mark', async () => {
    const { call } = await createTestApp()
    const point = async (question: string, header = 'Scope', options = ['A', 'B', 'C']) => (await recommend(call, { question, header, all_options: options })).point
    expect(await point('Tier S, M or L?')).toBe('complexity-tier')
    expect(await point('What tier should this SPEC be?')).toBe('complexity-tier')
    expect(await point('What tier should the Redis cache run on?')).toMatch(/^q-/)
    expect(await point('Anything', 'Effort level')).toBe('effort-level')
    expect(await point('Anything', 'Effort estimate')).toMatch(/^q-/)
    const hashed = await point('which database')
    expect(hashed).toMatch(/^q-/)
    expect(await point('which database', 'Scope', ['C', 'A', 'B'])).toBe(hashed)
    for (const question of ['Which  Database?!', 'Which database？', 'Which database؟', 'Which database।', 'Which database\u200f']) {
      expect(await point(question)).toBe(hashed)
    }
  })
})

describe('README: evidence scope', () => {
  it('backs off across projects with fewer than N in the project, saying so even of a static default, and stays in a project holding every choice', async () => {
    const { call } = await createTestApp()
    await observe(call, TIER, 2, () => ({ user_choice: 'Tier L', project: 'p1', timestamp: at(1) }))
    await observe(call, TIER, 1, () => ({ user_choice: 'Tier L', project: 'p2', timestamp: at(1) }))
    const backedOff = await recommend(call, { ...TIER, project: 'p2' })
    expect(backedOff).toMatchObject({ scope: 'all-projects', disclosure: 'based on static default, 2 observations needed for personalization across all your projects' })
    const anyProject = await recommend(call, TIER)
    expect(anyProject).toMatchObject({ scope: 'user', disclosure: 'based on static default, 2 observations needed for personalization' })

    const alone = (await createTestApp()).call
    await observe(alone, BROKER, 3, () => ({ user_choice: 'SQS', project: 'p1', timestamp: at(1) }))
    expect(await recommend(alone, { ...BROKER, project: 'p1' })).toMatchObject({ scope: 'project', disclosure: 'based on static default, 2 observations needed for personalization' })
  })
})

describe('README: a project backed off across projects', () => {
  it("is asked until its own choices agree with the other projects', saying what it has chosen there", async () => {
    const MODEL = { question: 'Which model should implement this?', header: 'Model', all_options: ['Opus', 'Sonnet', 'Haiku'] }
    const { call } = await createTestApp()
    await observe(call, MODEL, 300, (i) => ({ user_choice: 'Opus', project: 'r1', timestamp: at(90 - i * 0.1) }))
    const reason = async () => {
      const answer = await recommend(call, { ...MODEL, project: 'r2' })
      expect(answer).toMatchObject({ scope: 'all-projects', recommended: 'Opus', state: 'sufficient' })
      return answer.ask_reason
    }
    const rests = ': the recommendation rests on your other projects'
    expect(await reason()).toBe(`no choice of yours at this point in this project yet${rests}`)
    await observe(call, MODEL, 1, () => ({ user_choice: 'Haiku', project: 'r2', timestamp: at(0.3) }))
    expect(await reason()).toBe(`your choice at this point in this project was not Opus${rests}`)
    await observe(call, MODEL, 1, () => ({ user_choice: 'Haiku', project: 'r2', timestamp: at(0.2) }))
    expect(await reason()).toBe(`your latest choice at this point in this project was not Opus${rests}`)
    await observe(call, MODEL, 1, () => ({ user_choice: 'Opus', project: 'r2', timestamp: at(0.1) }))
    expect(await reason()).toBe(`only 1 of your 3 choices at this point in this project was Opus${rests}`)
  })
})

describe('README: strength by expertise', () => {
  it('is strong below 10 sessions, medium from 10 to 50, weak past 50 with the share annotated', async () => {
    for (const [sessions, level, strength, label] of [
      [9, 'beginner', 'strong', 'Kafka (Recommended)'],
      [10, 'intermediate', 'medium', 'Kafka (Recommended)'],
      [50, 'intermediate', 'medium', 'Kafka (Recommended)'],
      [51, 'expert', 'weak', 'Kafka (61% of recent choices)'],
    ] as const) {
      const { call } = await createTestApp()
      await observe(call, BROKER, sessions, (i) => ({ user_choice: i % 5 < 3 ? 'Kafka' : 'SQS', session_id: `s${i}`, timestamp: START }))
      const answer = await recommend(call, BROKER)
      expect(answer).toMatchObject({ expertise: { sessions, level }, strength })
      expect(answer.options[0].label).toBe(label)
    }
  })
})

describe('README: personalization off', () => {
  it('sets the past choices aside: no share learned, the static default with its reason, the choices still counted', async () => {
    const { call } = await createTestApp()
    await observe(call, BROKER, 30, () => ({ user_choice: 'SQS', timestamp: at(1) }))
    const toggled = await call('PUT', '/v1/sessions/s1/personalization?user=u', { enabled: false, user: 'u' })
    expect(toggled.status).toBe(200)
    const answer = await recommend(call, { ...BROKER, session_id: 's1' })
    expect(answer).toMatchObject({
      state: 'personalization-off',
      strength: 'neutral',
      recommended: 'Kafka',
      precondition: 'your past choices are set aside for this session',
      observations: 30,
      effective_observations: 0,
      evidence_total: 0,
      evidence: [],
      p: 0.3333,
      entropy: 1.585,
      ask: true,
      context_key: null,
      context_test: null,
      change_test: null,
    })
    expect(answer.options.map((o: { share: number; count: number }) => [o.share, o.count])).toEqual([[0, 0], [0, 0], [0, 0]])
    expect(answer.layers.long_term).toMatchObject({ observations: 30, majority: 'SQS' })
  })
})

describe('README: precondition and contradictions', () => {
  it('names a context value shared by 80% of the supporting choices, else their window in UTC calendar days', async () => {
    for (const [inRun, precondition] of [
      [8, 'phase is run'],
      [7, 'your choices of 2026-06-30 still hold'],
    ] as const) {
      const { call } = await createTestApp()
      await observe(call, BROKER, 10, (i) => ({ user_choice: 'SQS', context: { phase: i < inRun ? 'run' : 'plan' }, timestamp: at(1) }))
      expect((await recommend(call, BROKER)).precondition).toBe(precondition)
    }
    const { call } = await createTestApp()
    await observe(call, BROKER, 6, () => ({ user_choice: 'SQS', timestamp: '2026-07-01T02:00:00+05:30' }))
    expect((await recommend(call, BROKER)).precondition).toBe('your choices of 2026-06-30 still hold')
  })

  it('pulls a contradicted confidence halfway toward 1/(k + 1) when choices outside the options were made', async () => {
    const { call } = await createTestApp()
    await observe(call, DB, 40, (i) => ({ user_choice: i < 37 ? 'PostgreSQL' : 'Oracle', context: { phase: 'run' }, timestamp: at(1) }))
    const held = await recommend(call, { ...DB, context: { phase: 'run' } })
    const contradicted = await recommend(call, { ...DB, context: { phase: 'plan' } })
    expect(contradicted.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'plan' }])
    expect(contradicted.confidence.value).toBeCloseTo(1 / 4 + (held.confidence.value - 1 / 4) / 2, 3)
    expect(contradicted.confidence.lowered_because).toBe("the request's context contradicts the precondition: phase is plan, not run")
    expect(contradicted.entropy).toBe(held.entropy)
  })

  it('escapes a control character of the request context in lowered_because and ask_reason, and keeps it in contradictions', async () => {
    const { call } = await createTestApp()
    await observe(call, DB, 40, (i) => ({ user_choice: i < 37 ? 'PostgreSQL' : 'SQLite', context: { phase: 'run' }, timestamp: at(1) }))
    const answer = await recommend(call, { ...DB, context: { phase: 'pl\u001ban' } })
    expect(answer.confidence.lowered_because).toBe("the request's context contradicts the precondition: phase is pl\\u001ban, not run")
    expect(answer.ask_reason).toContain('phase is pl\\u001ban, not run')
    expect(answer.contradictions).toEqual([{ key: 'phase', expected: 'run', got: 'pl\u001ban' }])
  })
})

describe('README: context backoff', () => {
  it('divides the significance by the number of context keys tested (Bonferroni)', async () => {
    const { call } = await createTestApp()
    await observe(call, BROKER, 60, (i) => ({
      user_choice: i % 2 ? 'Kafka' : 'SQS',
      context: { phase: i % 2 ? 'run' : 'plan', lang: i % 4 < 2 ? 'ts' : 'py' },
      timestamp: at(30 - i * 0.4),
    }))
    const twoKeys = await recommend(call, { ...BROKER, context: { phase: 'run', lang: 'ts' } })
    expect(twoKeys).toMatchObject({ recommended: 'Kafka', context_key: 'phase', context_test: { key: 'phase', value: 'run', level: 0.025 } })
    const oneKey = await recommend(call, { ...BROKER, context: { phase: 'run' } })
    expect(oneKey.context_test).toMatchObject({ key: 'phase', level: 0.05 })
  })
})

describe('README: a switch of preference over time', () => {
  const daily = (call: Call, switchedDaysAgo: number) =>
    call('POST', '/v1/observations', [
      ...Array.from({ length: 30 }, (_, i) => ({ user: 'u', ...TIER, user_choice: 'Tier S', timestamp: at(switchedDaysAgo + 30 - i, 3_600_000) })),
      ...Array.from({ length: switchedDaysAgo }, (_, i) => ({ user: 'u', ...TIER, user_choice: 'Tier M', timestamp: at(switchedDaysAgo - i, 3_600_000) })),
    ])

  it('auto-resolves a month of Tier S every day, then Tier M every day, from 26 days after the switch', async () => {
    for (const [days, ask] of [
      [25, true],
      [26, false],
    ] as const) {
      const { call } = await createTestApp()
      expect((await daily(call, days)).status).toBe(201)
      expect(await recommend(call, TIER)).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask })
    }
  })

  it('with the answers it gave recorded as auto-resolved, asks on 35 of the 170 days after the switch: the learning, then only the check-ins', async () => {
    const { call, clock } = await createTestApp()
    await observe(call, TIER, 30, (i) => ({ user_choice: 'Tier S', timestamp: at(30 - i) }))
    const asked: number[] = []
    for (let day = 0; day < 170; day++) {
      const now = at(-day)
      clock.set(now)
      const answer = await recommend(call, TIER)
      if (answer.ask) asked.push(day)
      const choice = answer.ask ? { user_choice: 'Tier M', source: 'user' } : { user_choice: answer.recommended, source: 'auto-resolved' }
      expect((await call('POST', '/v1/observations', { user: 'u', ...TIER, ...choice, timestamp: now })).status).toBe(201)
    }
    expect(asked).toHaveLength(35)
    const learning = asked.filter((day) => day < 30)
    expect(learning).toHaveLength(21)
    // Past the learning, each question asked is the check-in after 9 answers in a row.
    const later = asked.filter((day) => day >= 30)
    expect(later.every((day, i) => day - (i === 0 ? (learning.at(-1) as number) : (later[i - 1] as number)) === 10)).toBe(true)
  })
})

describe('README: recall', () => {
  it('takes an observation out of recall at the first scan after it is older than the TTL, not at exactly 28 days', async () => {
    const { call } = await createTestApp()
    await observe(call, BROKER, 1, () => ({ user_choice: 'SQS', timestamp: at(28) }))
    await observe(call, BROKER, 1, () => ({ user_choice: 'SQS', timestamp: at(28, -1) }))
    const scan = await call('POST', '/v1/maintenance/decay-scan', {})
    expect(scan).toMatchObject({ status: 200, body: { status: 'ran', expired_from_recall: 1 } })
    // Still counted, with its decayed weight.
    expect((await recommend(call, BROKER)).observations).toBe(2)
  })
})
