import { describe, expect, it } from 'vitest'
import { loadPolicy } from '../config/load-policy'
import { compilePolicy } from '../domain/policy'
import { createTestApp, START } from '../../test/support/test-app'
import { REQUIRED_TIER_L } from '../../test/support/decision-record'

// Recommendations as time passes: a change of preference, and checking in after auto-resolved answers.

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}
const HOUR = 3_600_000
const DAY = 24 * HOUR

/** An ISO time `ms` before the test clock's START. */
function before(ms: number): string {
  return new Date(Date.parse(START) - ms).toISOString()
}

// 30 choices of Tier S from 127 to 40 days ago, then 6 of Tier L in the last week.
const OLDER = Array.from({ length: 30 }, (_, i) => ({
  ...TIER,
  user_choice: 'Tier S',
  decision_id: `old-${i}`,
  timestamp: before((40 + i * 3) * DAY),
}))
const RECENT = Array.from({ length: 6 }, (_, i) => ({
  ...TIER,
  user_choice: 'Tier L',
  decision_id: `new-${i}`,
  timestamp: before((1 + i) * DAY),
}))

describe('POST /v1/recommendations after a change of preference', () => {
  it('by decayed weight alone, the long older history still outvotes the new choice', async () => {
    const policy = await loadPolicy()
    const { call } = await createTestApp({
      policy: compilePolicy({ ...policy, change: { window_days: 28, significance: 1e-12 } }),
    })
    await call('POST', '/v1/observations', [...OLDER, ...RECENT])
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.recommended).toBe('Tier S')
  })

  it('follows the new choice once the recent ones differ from the older ones, and says since when', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', [...OLDER, ...RECENT])).status).toBe(201)
    const { status, body } = await call('POST', '/v1/recommendations', TIER)
    expect(status).toBe(200)
    expect(body.recommended).toBe('Tier L')
    expect(body.observations).toBe(6)
    expect(body.disclosure).toBe(
      // The window: the 28 days up to the newest choice, a day ago.
      `based on 100% of recent choices since ${before(29 * DAY).slice(0, 10)} (they differ from your earlier choices)`,
    )
    expect(body.layers.long_term.observations).toBe(36)
  })
})

/** 30 consistent answers of the user a day ago, then `auto` answers the service gave itself. */
async function history(auto: number, answerAfter: boolean | string = false, more: readonly object[] = []) {
  const { call } = await createTestApp()
  const answers = Array.from({ length: 30 }, (_, i) => ({
    ...TIER,
    user_choice: 'Tier M',
    decision_id: `u-${i}`,
    timestamp: before(24 * HOUR),
  }))
  const resolved = Array.from({ length: auto }, (_, i) => ({
    ...TIER,
    user_choice: 'Tier M',
    decision_id: `a-${i}`,
    timestamp: before((20 - i) * HOUR),
    source: 'auto-resolved',
  }))
  const later = answerAfter
    ? [{ ...TIER, user_choice: answerAfter === true ? 'Tier M' : answerAfter, decision_id: 'u-later', timestamp: before(HOUR) }]
    : []
  expect((await call('POST', '/v1/observations', [...answers, ...resolved, ...later, ...more])).status).toBe(
    201,
  )
  return (await call('POST', '/v1/recommendations', TIER)).body
}

describe('POST /v1/recommendations: checking in after auto-resolved answers (ask.check_in_after)', () => {
  it('auto-resolves up to 8 answers in a row', async () => {
    const body = await history(8)
    expect(body.state).toBe('sufficient')
    expect(body.ask).toBe(false)
  })

  it('asks the 10th question after 9 auto-resolved answers in a row, and says why', async () => {
    const body = await history(9)
    expect(body.state).toBe('sufficient')
    expect(body.ask).toBe(true)
    expect(body.ask_reason).toBe('9 answers in a row were auto-resolved: checking in with the user')
  })

  it('starts counting again once the user has answered', async () => {
    const body = await history(9, true)
    expect(body.ask).toBe(false)
  })

  it('asks again while the answer to the check-in is another option, until the user picks the recommended one again', async () => {
    const otherwise = await history(9, 'Tier S')
    expect(otherwise).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: true })
    expect(otherwise.ask_reason).toBe('asked after answers given for them, the user last chose Tier S, not Tier M: asking again')
    // Tier M chosen again after it: auto-resolved as before.
    const again = await history(9, 'Tier S', [{ ...TIER, user_choice: 'Tier M', decision_id: 'u-again', timestamp: before(HOUR / 2) }])
    expect(again.ask).toBe(false)
  })

  it('takes the one recorded last of answers sent at one instant for the last, as a tie does (R-REC-2)', async () => {
    for (const [first, last] of [['Tier S', 'Tier L'], ['Tier L', 'Tier S']]) {
      // 30 more of Tier M a day ago, for a p above auto_resolve_p with two other answers.
      const more = Array.from({ length: 30 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', decision_id: `m-${i}`, timestamp: before(24 * HOUR) }))
      const body = await history(9, first as string, [...more, { ...TIER, user_choice: last, decision_id: 'u-later-2', timestamp: before(HOUR) }])
      expect(body).toMatchObject({ recommended: 'Tier M', ask: true, ask_reason: `asked after answers given for them, the user last chose ${last}, not Tier M: asking again` })
    }
  })

  it('takes a check-in answered Tier M for an answer of tier m, when the options are now written so', async () => {
    const { call } = await createTestApp()
    const observations = [
      ...Array.from({ length: 30 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', decision_id: `u-${i}`, timestamp: before(24 * HOUR) })),
      ...Array.from({ length: 9 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', decision_id: `a-${i}`, timestamp: before((20 - i) * HOUR), source: 'auto-resolved' })),
      { ...TIER, user_choice: 'Tier M', decision_id: 'u-later', timestamp: before(HOUR) },
    ]
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    const { body } = await call('POST', '/v1/recommendations', { ...TIER, all_options: ['tier s', 'tier m', 'tier l'] })
    expect(body).toMatchObject({ state: 'sufficient', recommended: 'tier m', ask: false })
  })

  it('auto-resolves after another option chosen last when no answer was given for the user since Tier M was last chosen', async () => {
    const body = await history(0, 'Tier S')
    expect(body).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: false })
  })

  it('asks again only in the context the other option was chosen in: a check-in answered in plan as plan goes is no reason to ask in run', async () => {
    const { call } = await createTestApp()
    const run = { ...TIER, context: { phase: 'run' } }
    const plan = { ...TIER, context: { phase: 'plan' } }
    const chosen = (request: object, option: string, n: number, at: number) =>
      Array.from({ length: n }, (_, i) => ({ ...request, user_choice: option, decision_id: `${option}-${at}-${i}`, timestamp: before(at + i * 60_000) }))
    const observations = [
      ...chosen(run, 'Tier M', 30, 48 * HOUR),
      ...chosen(plan, 'Tier S', 30, 30 * HOUR),
      ...Array.from({ length: 9 }, (_, i) => ({ ...run, user_choice: 'Tier M', decision_id: `a-${i}`, timestamp: before((20 - i) * HOUR), source: 'auto-resolved' })),
      // The check-in, asked in plan: Tier S, as plan goes.
      ...chosen(plan, 'Tier S', 1, HOUR),
    ]
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    // Not asked again in run for the Tier S chosen in plan; still checked in there, for the 9
    // answers given in run since the user last answered in run (the answer in plan shows nothing of run).
    const inRun = (await call('POST', '/v1/recommendations', run)).body
    expect(inRun).toMatchObject({ state: 'sufficient', recommended: 'Tier M', ask: true, ask_reason: '9 answers in a row were auto-resolved: checking in with the user' })
    const inPlan = (await call('POST', '/v1/recommendations', plan)).body
    expect(inPlan).toMatchObject({ state: 'sufficient', recommended: 'Tier S', ask: false })
    // Answered otherwise in run: asked again there.
    expect((await call('POST', '/v1/observations', chosen(run, 'Tier L', 1, HOUR / 2))).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject({
      recommended: 'Tier M',
      ask: true,
      ask_reason: 'asked after answers given for them, the user last chose Tier L, not Tier M: asking again',
    })
  })
})

describe('POST /v1/recommendations: checking in at a multi-select point (R-REC-8)', () => {
  const CHECKS = { question: 'Which checks should run before the PR?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E tests'], multi_select: true }

  /** 40 answers of {Lint, Unit tests} a day ago, 9 the service gave itself since, then the user's answer to the check-in. */
  async function checkedIn(answer: string[], more: readonly object[] = []) {
    const { call } = await createTestApp()
    const set = ['Lint', 'Unit tests']
    const observations = [
      ...Array.from({ length: 40 }, (_, i) => ({ ...CHECKS, user_choice: set, decision_id: `u-${i}`, timestamp: before(24 * HOUR) })),
      ...Array.from({ length: 9 }, (_, i) => ({ ...CHECKS, user_choice: set, decision_id: `a-${i}`, timestamp: before((20 - i) * HOUR), source: 'auto-resolved' })),
      { ...CHECKS, user_choice: answer, decision_id: 'u-later', timestamp: before(HOUR) },
      ...more,
    ]
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    return (await call('POST', '/v1/recommendations', CHECKS)).body
  }

  it('asks again while the answer to the check-in is another set, as a single-select point does, until the recommended set is chosen again', async () => {
    // The user said {Lint, E2E tests} at the check-in: answering {Lint, Unit tests} for them at once is what they just said not to.
    const otherwise = await checkedIn(['Lint', 'E2E tests'])
    expect(otherwise).toMatchObject({ state: 'sufficient', recommended: ['Lint', 'Unit tests'], ask: true })
    // The set chosen named as this session's own choice names one (choiceText).
    expect(otherwise.ask_reason).toBe('asked after answers given for them, the user last chose E2E tests and Lint, not Lint and Unit tests: asking again')
    // A part of the set is another set too.
    expect((await checkedIn(['Lint'])).ask_reason).toBe('asked after answers given for them, the user last chose Lint, not Lint and Unit tests: asking again')
    // The recommended set, in any order: auto-resolved as before.
    expect(await checkedIn(['Unit tests', 'Lint'])).toMatchObject({ recommended: ['Lint', 'Unit tests'], ask: false })
    const again = await checkedIn(['Lint', 'E2E tests'], [{ ...CHECKS, user_choice: ['Lint', 'Unit tests'], decision_id: 'u-again', timestamp: before(HOUR / 2) }])
    expect(again).toMatchObject({ recommended: ['Lint', 'Unit tests'], ask: false })
  })
})

describe('POST /v1/recommendations: checking in within the context value the evidence was narrowed to (R-REC-7)', () => {
  const run = { ...TIER, context: { phase: 'run' } }
  const plan = { ...TIER, context: { phase: 'plan' } }

  it('counts the answers given in run since the user last answered in run: answers in plan do not keep run from checking in', async () => {
    const { call } = await createTestApp()
    // 30 answers of Tier L in run, 30 of Tier S in plan; then, four times over, three questions in
    // run answered for the user (Tier L) and one asked in plan, answered Tier S as plan goes.
    const observations: object[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ ...run, user_choice: 'Tier L', decision_id: `r-${i}`, timestamp: before(48 * HOUR + i * 60_000) })),
      ...Array.from({ length: 30 }, (_, i) => ({ ...plan, user_choice: 'Tier S', decision_id: `p-${i}`, timestamp: before(40 * HOUR + i * 60_000) })),
    ]
    for (let round = 0; round < 4; round++) {
      const at = 30 - round * 4
      for (let i = 0; i < 3; i++) observations.push({ ...run, user_choice: 'Tier L', decision_id: `a-${round}-${i}`, timestamp: before((at - i) * HOUR), source: 'auto-resolved' })
      observations.push({ ...plan, user_choice: 'Tier S', decision_id: `u-${round}`, timestamp: before((at - 3) * HOUR) })
    }
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    // 12 answers given in run since the user last answered there: a preference that changed in run
    // is seen only by asking in run.
    const inRun = (await call('POST', '/v1/recommendations', run)).body
    expect(inRun).toMatchObject({ state: 'sufficient', context_key: 'phase', recommended: 'Tier L', ask: true })
    expect(inRun.ask_reason).toBe('12 answers in a row were auto-resolved: checking in with the user')
    // Plan was answered by the user last: nothing to check in there.
    expect((await call('POST', '/v1/recommendations', plan)).body).toMatchObject({ state: 'sufficient', recommended: 'Tier S', ask: false })
    // Answered in run, run starts counting again.
    expect((await call('POST', '/v1/observations', { ...run, user_choice: 'Tier L', decision_id: 'u-run', timestamp: before(HOUR) })).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject({ recommended: 'Tier L', ask: false })
  })

  it('takes an answer of the option recommended in run, recorded without a context (as the hooks record), as the check-in answered', async () => {
    const { call } = await createTestApp()
    const observations: object[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ ...run, user_choice: 'Tier L', decision_id: `r-${i}`, timestamp: before(48 * HOUR + i * 60_000) })),
      ...Array.from({ length: 30 }, (_, i) => ({ ...plan, user_choice: 'Tier S', decision_id: `p-${i}`, timestamp: before(40 * HOUR + i * 60_000) })),
      ...Array.from({ length: 9 }, (_, i) => ({ ...run, user_choice: 'Tier L', decision_id: `a-${i}`, timestamp: before((20 - i) * HOUR), source: 'auto-resolved' })),
    ]
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject({ context_key: 'phase', recommended: 'Tier L', ask: true })
    // The check-in asked through AskUserQuestion: the PostToolUse hook records the answer with no context.
    const { context: _, ...noContext } = run
    expect((await call('POST', '/v1/observations', { ...noContext, user_choice: 'Tier L', decision_id: 'checked-in', timestamp: before(HOUR) })).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject({ context_key: 'phase', recommended: 'Tier L', ask: false })
    // An answer of Tier S recorded so is none of run's (Tier S goes in plan): 9 more given in run check in again.
    const more = Array.from({ length: 9 }, (_, i) => ({ ...run, user_choice: 'Tier L', decision_id: `b-${i}`, timestamp: before(50 * 60_000 - i * 60_000), source: 'auto-resolved' }))
    expect((await call('POST', '/v1/observations', [...more, { ...noContext, user_choice: 'Tier S', decision_id: 'elsewhere', timestamp: before(30 * 60_000) }])).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject({ context_key: 'phase', recommended: 'Tier L', ask: true })
  })

  it('takes an answer of that option in another value where it goes too as the check-in answered, and one of another option in no value as none', async () => {
    // What the README says of both: the aggregate does not tell an answer in review from one in no
    // value; and a check-in answered otherwise through the hooks leaves run asked at each question.
    const { call } = await createTestApp()
    const review = { ...TIER, context: { phase: 'review' } }
    const { context: _, ...noContext } = run
    const observations: object[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ ...run, user_choice: 'Tier L', decision_id: `r-${i}`, timestamp: before(60 * HOUR + i * 60_000) })),
      ...Array.from({ length: 30 }, (_, i) => ({ ...plan, user_choice: 'Tier S', decision_id: `p-${i}`, timestamp: before(50 * HOUR + i * 60_000) })),
      ...Array.from({ length: 9 }, (_, i) => ({ ...run, user_choice: 'Tier L', decision_id: `a-${i}`, timestamp: before((20 - i) * HOUR), source: 'auto-resolved' })),
    ]
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    const checkIn = { context_key: 'phase', recommended: 'Tier L', ask: true, ask_reason: '9 answers in a row were auto-resolved: checking in with the user' }
    for (let i = 0; i < 2; i++) {
      expect((await call('POST', '/v1/observations', { ...noContext, user_choice: 'Tier S', decision_id: `hook-${i}`, timestamp: before((5 - i) * HOUR) })).status).toBe(201)
      expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject(checkIn)
    }
    expect((await call('POST', '/v1/observations', { ...review, user_choice: 'Tier L', decision_id: 'in-review', timestamp: before(HOUR) })).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', run)).body).toMatchObject({ context_key: 'phase', recommended: 'Tier L', ask: false })
  })
})

describe('POST /v1/recommendations in a context the user has not worked in lately (R-REC-7)', () => {
  // 30 × Vitest in phase run 40 to 55 days before T0, then Jest in the last days in other phases:
  // a request in phase run is answered from the choices made in phase run, not taken for a change
  // of preference that sets every one of them aside.
  const T0 = '2026-11-01T10:00:00.000Z'
  const RUNNER = { question: 'Which test runner?', all_options: ['Vitest', 'Jest'] }
  const at = (days: number) => new Date(Date.parse(T0) - days * DAY).toISOString()
  const older = Array.from({ length: 30 }, (_, i) => ({
    ...RUNNER,
    user_choice: 'Vitest',
    decision_id: `run-${i}`,
    context: { phase: 'run' },
    timestamp: at(40 + i / 2),
  }))
  const recent = (count: number, phases: string[]) =>
    Array.from({ length: count }, (_, i) => ({
      ...RUNNER,
      user_choice: 'Jest',
      decision_id: `jest-${i}`,
      context: { phase: phases[i % phases.length] },
      timestamp: at(1 + (i * 7) / count),
    }))

  for (const [name, later] of [
    ['8 recent choices in phase plan', recent(8, ['plan'])],
    ['25 recent choices in phases plan and review', recent(25, ['plan', 'review'])],
  ] as const) {
    it(`recommends Vitest in phase run after ${name}, live and as of T0 alike`, async () => {
      const { call } = await createTestApp({ now: T0 })
      const posted = await call('POST', '/v1/observations', [...older, ...later])
      expect(posted.status).toBe(201)
      const vitestIds = new Set(
        (posted.body.stored as Array<{ id: string; decision_id: string }>)
          .filter((o) => o.decision_id.startsWith('run-'))
          .map((o) => o.id),
      )
      const request = { ...RUNNER, context: { phase: 'run' } }
      const live = await call('POST', '/v1/recommendations', request)
      expect(live.status).toBe(200)
      expect(live.body).toMatchObject({
        recommended: 'Vitest',
        observations: 30,
        context_key: 'phase',
        precondition: 'phase is run',
        contradictions: [],
        state: 'sufficient',
      })
      expect(live.body.disclosure).not.toMatch(/differ from your earlier choices/)
      expect(live.body.context_test).toMatchObject({ key: 'phase', value: 'run', matching: 30 })
      expect(live.body.change_test).toBeNull()
      expect(live.body.confidence.lowered_because).toBeUndefined()
      // Every id it cites is one of the 30 choices in phase run.
      expect(live.body.evidence).toHaveLength(30)
      for (const id of live.body.evidence) expect(vitestIds.has(id)).toBe(true)
      const replay = await call('POST', '/v1/recommendations', { ...request, as_of: T0 })
      expect(replay.body).toMatchObject({ recommended: 'Vitest', observations: 30, context_key: 'phase', precondition: 'phase is run' })
      expect(replay.body.evidence).toEqual(live.body.evidence)
    })
  }

  it('follows a change made in every phase, the phase run too, though phase run differed over the whole history', async () => {
    // 20 × Blue-green in phase run two months ago; 8 × Rolling in phase plan a week ago, then
    // 2 × Rolling in phase run two days ago: every choice of the last month was Rolling. Over the
    // whole history phase run differs from plan only because the older choices were made in it;
    // its two recent choices, too few to test a change within phase run, went with the change.
    const DEPLOY = { question: 'Deploy strategy?', all_options: ['Blue-green', 'Rolling'] }
    const choice = (user_choice: string, id: string, phase: string, days: number) => ({
      ...DEPLOY,
      user_choice,
      decision_id: id,
      context: { phase },
      timestamp: at(days),
    })
    const { call } = await createTestApp({ now: T0 })
    const posted = await call('POST', '/v1/observations', [
      ...Array.from({ length: 20 }, (_, i) => choice('Blue-green', `bg-${i}`, 'run', 60 + i / 4)),
      ...Array.from({ length: 8 }, (_, i) => choice('Rolling', `plan-${i}`, 'plan', 7 - i / 8)),
      ...Array.from({ length: 2 }, (_, i) => choice('Rolling', `run-${i}`, 'run', 2 - i / 8)),
    ])
    expect(posted.status).toBe(201)
    const rollingIds = new Set(
      (posted.body.stored as Array<{ id: string; decision_id: string }>)
        .filter((o) => !o.decision_id.startsWith('bg-'))
        .map((o) => o.id),
    )
    const request = { ...DEPLOY, context: { phase: 'run' } }
    for (const body of [request, { ...request, as_of: T0 }]) {
      const response = await call('POST', '/v1/recommendations', body)
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({
        recommended: 'Rolling',
        observations: 10,
        context_key: null,
        // Rolling was chosen in phase plan and in phase run alike: neither is its precondition.
        precondition: 'your choices from 2026-10-25 to 2026-10-30 still hold',
        contradictions: [],
      })
      expect(response.body.disclosure).toMatch(/since \d{4}-\d{2}-\d{2} \(they differ from your earlier choices\)/)
      expect(response.body.confidence.lowered_because).toBeUndefined()
      expect(response.body.evidence).toHaveLength(10)
      for (const id of response.body.evidence) expect(rollingIds.has(id)).toBe(true)
    }
  })
})

describe('POST /v1/recommendations: a switch to answers of the user\'s own (R-MEM-5)', () => {
  it('suspects a change when the recent sessions typed their own answers, none of the options', async () => {
    const { call } = await createTestApp()
    const choice = (i: number, ago: number, user_choice: string) => ({ ...TIER, user_choice, session_id: `s-${i}`, decision_id: `d-${i}`, timestamp: before(ago) })
    const old = Array.from({ length: 12 }, (_, i) => choice(i, (40 - i) * DAY, 'Tier M'))
    const typed = Array.from({ length: 4 }, (_, i) => choice(12 + i, (4 - i) * DAY, 'as small as the bug needs'))
    expect((await call('POST', '/v1/observations', [...old, ...typed])).status).toBe(201)
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.layers.recent).toMatchObject({ observations: 3, majority: null })
    expect(body.layers.long_term.majority).toBe('Tier M')
    expect(body.layers.change_suspected).toBe(true)
    // Nothing typed lately: the same history without the last 4 sessions suspects nothing.
    const { call: untyped } = await createTestApp()
    await untyped('POST', '/v1/observations', old)
    expect((await untyped('POST', '/v1/recommendations', TIER)).body.layers.change_suspected).toBe(false)
  })

  it('suspects none when the user has typed their own answers all along, an option chosen once long ago', async () => {
    // The long term's majority, Tier M, is 4% of its choices: the recent typed answers are the user's
    // habit, not a change from it (the change test finds none).
    const { call } = await createTestApp()
    const once = { ...TIER, user_choice: 'Tier M', session_id: 's-0', decision_id: 'd-0', timestamp: before(60 * DAY) }
    const typed = Array.from({ length: 15 }, (_, i) => ({
      ...TIER,
      user_choice: `as small as the bug needs ${i}`,
      session_id: `s-${i + 1}`,
      decision_id: `d-${i + 1}`,
      timestamp: before((47 - 3 * i) * DAY),
    }))
    expect((await call('POST', '/v1/observations', [once, ...typed])).status).toBe(201)
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body.layers.recent).toMatchObject({ observations: 3, majority: null })
    expect(body.layers.long_term.majority).toBe('Tier M')
    expect(body.change_test).toBeNull()
    expect(body.layers.change_suspected).toBe(false)
  })
})

describe('POST /v1/recommendations: the layers of a multi-select point (R-MEM-5, R-REC-8)', () => {
  // Lint and Typecheck every day for 45 days, then Lint and E2E: Lint, in every set, is the most
  // selected option of every layer, so comparing majorities never saw the change of the set.
  const CHECKS = {
    question: 'Which checks should run before commit?',
    all_options: ['Lint', 'Typecheck', 'Unit tests', 'E2E'],
    multi_select: true,
  }
  const T0 = '2026-09-01T10:00:00.000Z'
  const at = (days: number) => new Date(Date.parse(T0) - days * DAY).toISOString()
  const choices = (from: number, count: number, set: string[], prefix: string) =>
    Array.from({ length: count }, (_, i) => ({
      ...CHECKS,
      user_choice: set,
      session_id: `${prefix}-${i}`,
      decision_id: `${prefix}-${i}`,
      timestamp: at(from - i),
    }))

  it('reports each layer\'s selection, and a change of the set as change_suspected', async () => {
    const { call } = await createTestApp({ now: T0 })
    const posted = await call('POST', '/v1/observations', [
      ...choices(48, 45, ['Lint', 'Typecheck'], 'old'),
      ...choices(3, 3, ['Lint', 'E2E'], 'new'),
    ])
    expect(posted.status).toBe(201)
    const { status, body } = await call('POST', '/v1/recommendations', CHECKS)
    expect(status).toBe(200)
    expect(body.layers.recent.selection).toEqual(['Lint', 'E2E'])
    expect(body.layers.long_term.selection).toEqual(['Lint', 'Typecheck'])
    expect(body.layers.change_suspected).toBe(true)
    // GET /v1/why explains the same recommendation with the same layers, the possible change with them.
    const why = await call('GET', `/v1/why?point=${body.point}`)
    expect(why.status).toBe(200)
    expect(why.body.recommendation.layers).toEqual(body.layers)
  })

  it('suspects no change while the recent sets are the long-term one', async () => {
    const { call } = await createTestApp({ now: T0 })
    await call('POST', '/v1/observations', choices(48, 45, ['Lint', 'Typecheck'], 'old'))
    const { body } = await call('POST', '/v1/recommendations', CHECKS)
    expect(body.layers.recent.selection).toEqual(['Lint', 'Typecheck'])
    expect(body.layers.change_suspected).toBe(false)
    const single = await call('POST', '/v1/recommendations', TIER)
    expect(single.body.layers.long_term.selection).toBeNull()
  })
})

describe('POST /v1/recommendations day by day, live and replayed (R-REC-9)', () => {
  it('answers each moment of 75 days of use as a replay as of that moment does', async () => {
    // One question a day in phase plan or run, in two projects, a switch from Tier M to mostly
    // Tier L on day 21, and answers the service gave itself every 4th day: every state a daily
    // user meets, each asked live and then replayed.
    const T0 = Date.parse('2026-07-01T09:00:00.000Z')
    const at = (day: number, hours: number) => new Date(T0 + day * DAY + hours * HOUR).toISOString()
    const phaseOf = (day: number) => (day % 3 === 0 ? 'plan' : 'run')
    const request = (day: number) => ({ ...TIER, project: 'acme/api', session_id: `s-${day}`, context: { phase: phaseOf(day) } })
    // Everything but as_of, which is the moment asked in both.
    const shown = (body: any) => JSON.stringify({ ...body, as_of: undefined })
    const { call, clock } = await createTestApp({ now: at(0, 0) })
    const live: string[] = []
    const states = new Set<string>()
    let changes = 0
    for (let day = 0; day < 75; day++) {
      clock.set(at(day, 0))
      const answer = await call('POST', '/v1/recommendations', request(day))
      expect(answer.status).toBe(200)
      live.push(shown(answer.body))
      states.add(answer.body.state)
      if (answer.body.change_test !== null) changes++
      clock.set(at(day, 2))
      const phase = phaseOf(day)
      const choice = day < 21 ? (phase === 'plan' ? 'Tier S' : 'Tier M') : day % 5 === 0 ? 'Tier M' : 'Tier L'
      const posted = await call('POST', '/v1/observations', [
        { ...TIER, project: day % 7 === 0 ? 'acme/web' : 'acme/api', session_id: `s-${day}`, user_choice: choice, decision_id: `t-${day}`, timestamp: at(day, 1), context: { phase } },
        ...(day % 4 === 0
          ? [{ ...TIER, project: 'acme/api', session_id: `s-${day}`, user_choice: 'Tier M', decision_id: `auto-${day}`, timestamp: at(day, 1.5), source: 'auto-resolved', context: { phase } }]
          : []),
      ])
      expect(posted.status).toBe(201)
    }
    expect([...states].sort()).toEqual(['partial', 'static-default', 'sufficient'])
    expect(changes).toBeGreaterThan(0)
    for (let day = 0; day < 75; day++) {
      const replay = await call('POST', '/v1/recommendations', { ...request(day), as_of: at(day, 0) })
      expect(replay.status).toBe(200)
      expect(shown(replay.body), `day ${day}`).toBe(live[day])
    }
  })
})

describe("POST /v1/recommendations: the session's own latest choice (R-MEM-5, R-ASK-2)", () => {
  const PLAN_TIER = { question: TIER.question, header: TIER.header, options: TIER.all_options.map((label) => ({ label, description: label })), multiSelect: false }

  it('asks in the session that just chose otherwise, not in a new one, and auto-resolves again once it chooses the recommended option', async () => {
    const { call } = await createTestApp()
    const months = Array.from({ length: 120 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', session_id: `s-${i}`, timestamp: before((121 - i) * DAY) }))
    const minutesAgo = (choice: string, minutes: number) => ({ ...TIER, user_choice: choice, session_id: 'now', timestamp: before(minutes * 60_000) })
    expect((await call('POST', '/v1/observations', [...months, minutesAgo('Tier S', 5)])).status).toBe(201)

    const asked = (await call('POST', '/v1/recommendations', { ...TIER, session_id: 'now' })).body
    // The evidence decides what is recommended, and how sure: only ask changes.
    expect(asked).toMatchObject({
      recommended: 'Tier M',
      state: 'sufficient',
      ask: true,
      ask_reason: 'in this session you last chose Tier S here, not Tier M: asked until your choice in this session agrees',
    })
    expect(asked.p).toBeGreaterThanOrEqual(0.9)
    expect(asked.layers.session).toMatchObject({ observations: 1, majority: 'Tier S' })
    // The plan (and the PreToolUse hook and MCP's plan_questions, which are doorways onto it) asks it too.
    const plan = (await call('POST', '/v1/plan', { session_id: 'now', questions: [PLAN_TIER] })).body
    expect(plan.answers).toEqual({})
    expect(plan.questions[0]).toMatchObject({ ask: true, recommendation: { recommended: 'Tier M', ask_reason: asked.ask_reason } })

    const fresh = (await call('POST', '/v1/recommendations', { ...TIER, session_id: 'new' })).body
    expect(fresh).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: false, p: asked.p })
    expect((await call('POST', '/v1/plan', { session_id: 'new', questions: [PLAN_TIER] })).body.answers).toEqual({ [TIER.question]: 'Tier M (95% of recent choices)' })

    expect((await call('POST', '/v1/observations', [minutesAgo('Tier M', 2)])).status).toBe(201)
    const agreed = (await call('POST', '/v1/recommendations', { ...TIER, session_id: 'now' })).body
    expect(agreed).toMatchObject({ recommended: 'Tier M', state: 'sufficient', ask: false })
  })
})

describe("POST /v1/recommendations: the session's own latest choice beside required decisions (R-CON-2)", () => {
  it('is answered where a required decision fixes the answer, and asked where one only rules options out', async () => {
    const { call } = await createTestApp()
    const months = Array.from({ length: 120 }, (_, i) => ({ ...TIER, user_choice: 'Tier M', session_id: `s-${i}`, timestamp: before((121 - i) * DAY) }))
    const chosen = { ...TIER, user_choice: 'Tier S', session_id: 'now', timestamp: before(5 * 60_000) }
    expect((await call('POST', '/v1/observations', [...months, chosen])).status).toBe(201)
    const inSession = async () => (await call('POST', '/v1/recommendations', { ...TIER, session_id: 'now' })).body
    const decision = { ...REQUIRED_TIER_L, scope: { points: [(await inSession()).point] } }

    // Tier S ruled out: the session's choice of it is still no agreement with Tier M.
    expect((await call('POST', '/v1/decisions', { ...decision, key: 'D-002', title: 'Never Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] })).status).toBe(201)
    expect(await inSession()).toMatchObject({
      recommended: 'Tier M',
      ask: true,
      ask_reason: 'in this session you last chose Tier S here, not Tier M: asked until your choice in this session agrees',
    })
    // Tier L required: the contract answers, whatever the session chose.
    expect((await call('POST', '/v1/decisions', { ...decision, key: 'D-001' })).status).toBe(201)
    expect(await inSession()).toMatchObject({ state: 'enforced', recommended: 'Tier L', ask: false, ask_reason: 'required decision D-001 fixes the answer: auto-resolve' })
  })
})
