import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../src/config/load-policy'
import { compilePolicy } from '../src/domain/policy'
import { createTestApp, START } from './support/test-app'

// Months of use end to end (R-MEM, R-SES): what the live tiers answer is what archival rebuilds,
// and a user answering through the Claude Code hooks day after day is counted, trusted and
// checked on as the README says.

const DAY = 86_400_000
const HOUR = 3_600_000
const T0 = Date.parse(START)
const iso = (ms: number) => new Date(ms).toISOString()
const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

/** The answer without the moment it was made at. */
function timeless(answer: Record<string, unknown>): Record<string, unknown> {
  const { as_of: _asOf, ...rest } = answer
  return rest
}

describe('200 days at one point: the live answer, the audit and the rebuild agree (R-MEM-1, R-MEM-4, R-REC-9)', () => {
  it.each([1, 2, 3])('history %i: in core, rebuilt after demotion, and replayed from archival, the answer is the same', async (seed) => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    // A core of one aggregate: the tier point is demoted as soon as another point is used.
    const { call, clock } = await createTestApp({ policy: compilePolicy({ ...policy, core: { max_entries: 1 } }) })
    const next = random(seed)
    const observations: object[] = []
    let sessions = 0
    for (let day = 200; day >= 1; day--) {
      if (next() < 0.5) continue
      sessions++
      for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
        const preferred = day > 80 ? 'Tier L' : 'Tier M'
        observations.push({
          ...TIER,
          user: 'u',
          project: next() < 0.8 ? 'p1' : 'p2',
          session_id: `s${sessions}`,
          user_choice: next() < 0.75 ? preferred : TIER.all_options[Math.floor(next() * 3)],
          decision_id: `d${day}-${k}`,
          timestamp: iso(T0 - day * DAY + k * 60_000 + Math.floor(next() * HOUR)),
          context: { phase: next() < 0.5 ? 'run' : 'plan' },
          source: next() < 0.1 ? 'auto-resolved' : 'user',
        })
      }
    }
    expect((await call('POST', '/v1/observations', observations)).status).toBe(201)
    const request = { ...TIER, user: 'u', project: 'p1', session_id: `s${sessions}`, context: { phase: 'run' } }
    const live = (await call('POST', '/v1/recommendations', request)).body

    // A heavier point takes the one place in core; the decay scan expires recall and keeps core to size.
    const db = { question: 'Which database?', all_options: ['pg', 'mysql'] }
    await call('POST', '/v1/observations', Array.from({ length: 400 }, (_, i) => ({ ...db, user: 'u', user_choice: 'pg', timestamp: iso(T0 - i * 60_000) })))
    await call('POST', '/v1/recommendations', { ...db, user: 'u' })
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
    const rebuilt = (await call('POST', '/v1/recommendations', request)).body

    // A later choice makes an answer as of START a replay from archival.
    clock.advance(60_000)
    await call('POST', '/v1/observations', { ...TIER, user: 'u', project: 'p1', user_choice: 'Tier S', decision_id: 'later' })
    const replayed = (await call('POST', '/v1/recommendations', { ...request, as_of: START })).body

    expect(live.layers.long_term.observations).toBeGreaterThan(100)
    expect(timeless(rebuilt)).toEqual(timeless(live))
    expect(timeless(replayed)).toEqual(timeless(live))
  })
})

describe('four months through the Claude Code hooks (R-SES-1, R-SES-2, R-ASK-2, R-MEM-5)', () => {
  const fixtures = join(__dirname, 'fixtures', 'claude-code')
  const read = (name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8'))

  it('counts a session a day, trusts the user once it has learned, checks in, and follows a switch', async () => {
    const start = read('session-start.json')
    const pre = read('pre-tool-use.json')
    const question = pre.tool_input.questions[0].question as string
    const { call, clock, policy } = await createTestApp()
    const days: Array<{ day: number; auto: string | undefined; expertise: string }> = []
    for (let day = 0; day < 120; day++) {
      const session = `sess-${day}`
      clock.set(iso(T0 + day * DAY))
      await call('POST', '/v1/hooks/claude-code', { ...start, session_id: session })
      const wanted = day < 60 ? 'Tier L' : 'Tier S'
      const toolUse = `tu-${day}`
      const planned = (await call('POST', '/v1/hooks/claude-code', { ...pre, session_id: session, tool_use_id: toolUse })).body
      const input = planned.hookSpecificOutput?.updatedInput ?? pre.tool_input
      const auto: string | undefined = input.answers?.[question]
      const answer = auto ?? input.questions[0].options.find((o: { label: string }) => o.label.startsWith(wanted)).label
      clock.advance(60_000)
      const post = {
        ...pre,
        hook_event_name: 'PostToolUse',
        session_id: session,
        tool_use_id: toolUse,
        tool_input: input,
        tool_response: { questions: input.questions, answers: { [question]: answer }, annotations: {} },
      }
      expect((await call('POST', '/v1/hooks/claude-code', post)).status).toBe(200)
      await call('POST', '/v1/maintenance/decay-scan', {})
      const session_view = (await call('POST', '/v1/sessions', { session_id: session })).body
      days.push({ day, auto, expertise: session_view.expertise.level })
    }
    // A session a day, counted once each, and the bands of R-SES-2.
    expect(days[8]?.expertise).toBe('beginner')
    expect(days[9]?.expertise).toBe('intermediate')
    expect(days[49]?.expertise).toBe('intermediate')
    expect(days[50]?.expertise).toBe('expert')
    // Learned, then answered for the user, with a check-in at least every check_in_after + 1 questions.
    const before = days.filter((d) => d.day >= 30 && d.day < 60)
    expect(before.filter((d) => d.auto !== undefined).length).toBeGreaterThan(20)
    for (const d of before) expect(d.auto === undefined || d.auto.startsWith('Tier L')).toBe(true)
    let run = 0
    for (const d of days) {
      run = d.auto === undefined ? 0 : run + 1
      expect(run).toBeLessThanOrEqual(policy.ask.check_in_after)
    }
    // After the switch: no more old answers than until the next check-in, then the new one.
    const after = days.filter((d) => d.day >= 60)
    expect(after.filter((d) => d.auto?.startsWith('Tier L')).length).toBeLessThanOrEqual(policy.ask.check_in_after)
    const settled = after.filter((d) => d.day >= 90)
    expect(settled.filter((d) => d.auto !== undefined).length).toBeGreaterThan(20)
    for (const d of settled) expect(d.auto === undefined || d.auto.startsWith('Tier S')).toBe(true)
  })
})
