import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { MemoryLevel } from 'memory-level'
import { createTestApp, START } from '../../test/support/test-app'
import { choices as wireChoices, record } from '../../test/support/wire-choices'

// Black-box checks of the concrete promises the seeds make (seeds/002_… above all; 000_… and
// 003_… for decisions as contracts), through the documented wire format only (README "HTTP
// API"). Where a seed and SPEC.md differ, SPEC.md stands.

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const DAY = 86_400_000

/** Observations of `question`, `count` of each choice in the order given, all at START unless `extra` says. */
const choices = (question: Record<string, unknown>, spec: Array<[unknown, number]>, extra: Record<string, unknown> = {}) =>
  wireChoices('seed', question, spec, extra)

const labels = (body: { options: Array<{ label: string }> }) => body.options.map((o) => o.label)

describe('seed 002: the captured record', () => {
  const SEED_RECORD = {
    decision_id: 'moai-ask-001',
    timestamp: '2026-07-01T10:00:00Z',
    question: 'Choose the next step',
    user_choice: 'Option A (Recommended)',
    all_options: ['Option A', 'Option B', 'Option C'],
    context: { spec_id: 'SPEC-XXX-001', phase: 'run', workflow: '/moai run' },
  }

  it('is accepted exactly as the seed prints it, the (Recommended) annotation dropped, and counted once when sent again', async () => {
    const { call } = await createTestApp()
    const first = await call('POST', '/v1/observations', SEED_RECORD)
    expect(first.status).toBe(201)
    expect(first.body.stored).toHaveLength(1)
    const again = await call('POST', '/v1/observations', SEED_RECORD)
    expect(again.status).toBe(201)
    expect(again.body).toMatchObject({ stored: [], duplicates: ['moai-ask-001'] })
    const { body } = await call('POST', '/v1/recommendations', { question: SEED_RECORD.question, all_options: SEED_RECORD.all_options })
    expect(body.observations).toBe(1)
    expect(body.options.find((o: { option: string }) => o.option === 'Option A').count).toBe(1)
    expect(body.layers.long_term).toBeTruthy()
  })
})

describe('seed 002: the worked Tier example (10 selections, S 3 / M 6 / L 1)', () => {
  it('shows "Tier M (Recommended) — based on 60% of recent choices" with confidence medium-high', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier S', 3], ['Tier M', 6], ['Tier L', 1]]))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ recommended: 'Tier M', state: 'partial', observations: 10, disclosure: 'based on 60% of recent choices', strength: 'strong' })
    expect(body.confidence.level).toBe('medium-high')
    expect(body.options[0]).toMatchObject({ option: 'Tier M', label: 'Tier M (Recommended)', share: 0.6, count: 6 })
    expect(body.options[0].description).toMatch(/^Recommended when .+ — based on 60% of recent choices$/)
  })

  it('with no observations discloses the static default: "Tier M (Recommended) — based on static default, 5 observations needed for personalization"', async () => {
    const { call } = await createTestApp()
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ state: 'static-default', recommended: 'Tier M', observations: 0, needed: 5 })
    expect(labels(body)[0]).toBe('Tier M (Recommended)')
    expect(body.options[0].description).toMatch(/^Recommended when .+ — based on static default, 5 observations needed for personalization$/)
    // Only the recommended option carries the label.
    expect(labels(body).slice(1).every((l: string) => !/Recommended/.test(l))).toBe(true)
  })
})

describe('seed 002: the same recommendation at different strengths', () => {
  it('beginner strong, intermediate medium, expert weak: one rationale, the label differs (README "Strength")', async () => {
    const shown = []
    for (const sessions of [1, 10, 51]) {
      const { call } = await createTestApp()
      for (let i = 0; i < sessions; i++) await call('POST', '/v1/sessions', { session_id: `seed-s-${i}`, started_at: '2026-06-01T00:00:00Z' })
      await record(call, choices(TIER, [['Tier S', 3], ['Tier M', 6], ['Tier L', 1]]))
      const { body } = await call('POST', '/v1/recommendations', { ...TIER, session_id: 'seed-s-0' })
      shown.push([body.strength, body.options[0].label, body.options[0].description])
    }
    const rationale = shown[0]![2]
    expect(rationale).toMatch(/^Recommended when .+ — based on 60% of recent choices$/)
    expect(shown).toEqual([
      ['strong', 'Tier M (Recommended)', rationale],
      ['medium', 'Tier M (Recommended)', rationale],
      ['weak', 'Tier M (60% of recent choices)', rationale],
    ])
  })
})

describe('seed 002: confidence is observation count × selection consistency', () => {
  const confidence = async (spec: Array<[string, number]>) => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, spec))
    return (await call('POST', '/v1/recommendations', TIER)).body.confidence.value as number
  }

  it('grows with the count at the same share', async () => {
    const five = await confidence([['Tier M', 3], ['Tier S', 2]])
    const ten = await confidence([['Tier M', 6], ['Tier S', 4]])
    const twenty = await confidence([['Tier M', 12], ['Tier S', 8]])
    expect(ten).toBeGreaterThan(five)
    expect(twenty).toBeGreaterThan(ten)
  })

  it('grows with the consistency at the same count', async () => {
    const split = await confidence([['Tier M', 6], ['Tier S', 4]])
    const firm = await confidence([['Tier M', 9], ['Tier S', 1]])
    expect(firm).toBeGreaterThan(split)
  })

  // Not "only past M": the level is the confidence's (R-REC-3), and 9 of 10 choices are high too;
  // what past M adds is the state, sufficient, which auto-resolving takes (test/seed-walk.test.ts).
  it('past M with a strong majority is high (≥ 0.95, significant), and the state says sufficient', async () => {
    const { call } = await createTestApp()
    await record(call, choices(TIER, [['Tier M', 22], ['Tier S', 2]]))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ state: 'sufficient', recommended: 'Tier M' })
    expect(body.confidence).toMatchObject({ level: 'high', significant: true })
    expect(body.confidence.value).toBeGreaterThanOrEqual(0.95)
  })
})

describe('seed 002: asking at p ≈ 0.5, auto-resolving near certainty', () => {
  it('asks an even split, with the most information, and auto-resolves a point chosen the same way every time', async () => {
    const { call } = await createTestApp()
    const method = { question: 'TDD or DDD for this change?', header: 'Method', all_options: ['TDD', 'DDD'] }
    await record(call, choices(method, [['TDD', 13], ['DDD', 12]]))
    await record(call, choices(TIER, [['Tier L', 25]]))
    const even = (await call('POST', '/v1/recommendations', method)).body
    const certain = (await call('POST', '/v1/recommendations', TIER)).body
    expect(even.ask).toBe(true)
    expect(even.p).toBeGreaterThan(0.4)
    expect(even.p).toBeLessThan(0.6)
    expect(certain).toMatchObject({ ask: false, recommended: 'Tier L' })
    expect(even.information).toBeGreaterThan(certain.information)
  })
})

describe('seed 002: several questions in one AskUserQuestion call, the most informative first', () => {
  it('the PreToolUse hook moves the even split before the near-certain one and labels each', async () => {
    const { call } = await createTestApp()
    const pre = JSON.parse(readFileSync(new URL('../../test/fixtures/claude-code/pre-tool-use.json', import.meta.url), 'utf8'))
    const method = { question: 'TDD or DDD for this change?', header: 'Method', all_options: ['TDD', 'DDD'] }
    await record(call, choices(TIER, [['Tier L', 13], ['Tier S', 2]]))
    await record(call, choices(method, [['TDD', 5], ['DDD', 5]]))
    const asked = { question: method.question, header: 'Method', options: [{ label: 'DDD', description: 'd' }, { label: 'TDD', description: 't' }], multiSelect: false }
    const { status, body } = await call('POST', '/v1/hooks/claude-code', { ...pre, tool_input: { questions: [pre.tool_input.questions[0], asked] } })
    expect(status).toBe(200)
    const questions = body.hookSpecificOutput.updatedInput.questions
    expect(questions.map((q: { question: string }) => q.question)).toEqual([method.question, TIER.question])
    // The tie goes to the policy's static default, TDD; the tier to its majority.
    expect(questions[0].options[0].label).toBe('TDD (Recommended)')
    expect(questions[1].options[0].label).toBe('Tier L (Recommended)')
    // The hook's cwd is a project the choices above were not made in: R-MEM-6 backs off, and says so.
    expect(questions[1].options[0].description).toMatch(/Recommended when .+ — based on 87% of recent choices across all your projects$/)
  })
})

describe('seed 002: the decision points it tracks', () => {
  it.each([
    ['Which Claude model should run this task?', 'Model', ['Opus', 'Sonnet', 'Haiku'], 'model-selection', 'Sonnet'],
    ['What effort level should the agent use?', 'Effort', ['Low', 'Medium', 'High'], 'effort-level', 'Medium'],
    ['Which development methodology for this SPEC?', 'Method', ['DDD', 'TDD'], 'development-methodology', 'TDD'],
    ['Which complexity tier should this SPEC use?', 'Tier', ['Tier S', 'Tier M', 'Tier L'], 'complexity-tier', 'Tier M'],
  ])('"%s" is the policy point with a static default and its precondition', async (question, header, all_options, point, fallback) => {
    const { call } = await createTestApp()
    const { body } = await call('POST', '/v1/recommendations', { question, header, all_options })
    expect(body).toMatchObject({ point, recommended: fallback, state: 'static-default' })
    expect(body.precondition.length).toBeGreaterThan(0)
  })
})

describe('seed 002: past choices decay and leave recall after 28 days, but are not forgotten', () => {
  it('choices 40 days old leave recall at the decay scan, yet still count, each weighing less than a fresh one', async () => {
    const { call } = await createTestApp()
    const old = new Date(Date.parse(START) - 40 * DAY).toISOString()
    await record(call, choices(TIER, [['Tier S', 5]], { timestamp: old }))
    await record(call, choices(TIER, [['Tier S', 3], ['Tier L', 3]]))
    const scan = await call('POST', '/v1/maintenance/decay-scan', {})
    expect(scan.body).toMatchObject({ status: 'ran', expired_from_recall: 5 })
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ observations: 11, recommended: 'Tier S' })
    const share = (option: string) => body.options.find((o: { option: string }) => o.option === option).share as number
    // 8 choices of Tier S against 3 of Tier L, but five of the eight weigh (40 + 1)^-0.5 each.
    const s = 5 * 41 ** -0.5 + 3
    expect(share('Tier S')).toBeCloseTo(s / (s + 3), 2)
  })

  it('the decay scan runs at most once a day unless forced', async () => {
    const { call, clock } = await createTestApp()
    expect((await call('POST', '/v1/maintenance/decay-scan', {})).body.status).toBe('ran')
    clock.advance(23 * 3_600_000)
    expect((await call('POST', '/v1/maintenance/decay-scan', {})).body).toMatchObject({ status: 'skipped', reason: 'within_cadence_window' })
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).body.status).toBe('ran')
  })
})

describe('seeds 000 and 003: a decision is a contract, not a decaying memory', () => {
  it('an accepted required decision still fixes its point long after the 28-day window, whatever was chosen since', async () => {
    const db = new MemoryLevel<string, string>()
    {
      const { call } = await createTestApp({ db })
      const made = await call('POST', '/v1/decisions', {
        title: 'Tier M for SPEC work',
        decision: 'SPEC work uses Tier M',
        rationale: 'billing needs the middle tier',
        enforce: 'required',
        status: 'accepted',
        scope: { points: ['complexity-tier'] },
        constraints: [{ kind: 'must', option: 'Tier M' }],
      })
      expect(made.status).toBe(201)
    }
    const later = new Date(Date.parse(START) + 200 * DAY).toISOString()
    const { call } = await createTestApp({ db, now: later })
    await record(call, choices(TIER, [['Tier L', 30]], { timestamp: later }))
    const { body } = await call('POST', '/v1/recommendations', TIER)
    expect(body).toMatchObject({ state: 'enforced', recommended: 'Tier M' })
  })

  it('"never use git push --force" as a required must_not blocks the command; the same as advisory only warns', async () => {
    const { call } = await createTestApp()
    const make = (enforce: string, pattern: string) =>
      call('POST', '/v1/decisions', {
        title: `no force push (${enforce})`,
        decision: 'never use git push --force',
        rationale: 'rewrites shared history',
        enforce,
        status: 'accepted',
        constraints: [{ kind: 'must_not', pattern }],
      })
    expect((await make('required', 'git push --force')).status).toBe(201)
    expect((await make('advisory', 'git reset --hard')).status).toBe(201)
    const blocked = (await call('POST', '/v1/decisions/check', { action: 'git push --force origin main' })).body
    expect(blocked.allowed).toBe(false)
    expect(blocked.blocked_by.length).toBe(1)
    const warned = (await call('POST', '/v1/decisions/check', { action: 'git reset --hard HEAD~1' })).body
    expect(warned.allowed).toBe(true)
  })
})

describe('seed 001: a "wrong" line a decision keeps, and the reviewer about to fix it', () => {
  const EDIT = 'sed -i s/can-only-read/can-save/ prompts/router.md'
  const R1 = {
    key: 'R1',
    title: 'The "wrong" memory-expert line in the router prompt is load-bearing',
    decision: 'Keep the line saying the memory expert can only read.',
    rationale: 'With the corrected text the smallest model routed "remember this" to memory 0/20 times; with the old text 16/20.',
    enforce: 'required',
    status: 'accepted',
    scope: { path: 'prompts/router.md' },
    constraints: [{ kind: 'must_not', pattern: 'prompts/router\\.md' }],
    evidence: [{ kind: 'experiment', summary: '0/20 corrected vs 16/20 old', uri: 'eval/router-7b.md' }],
  }

  it('holds for the file it is scoped to, not its folder; once superseded it blocks nothing, yet an audit of before still shows it', async () => {
    const { call, clock } = await createTestApp()
    expect((await call('POST', '/v1/decisions', R1)).status).toBe(201)
    const keys = async (path: string) => (await call('GET', `/v1/decisions/applicable?path=${path}`)).body.decisions.map((d: { key: string }) => d.key)
    expect(await keys('prompts/router.md')).toEqual(['R1'])
    expect(await keys('prompts')).toEqual([])
    const blocked = (await call('POST', '/v1/decisions/check', { action: EDIT, path: 'prompts/router.md' })).body
    expect(blocked).toMatchObject({ allowed: false, blocked_by: [{ key: 'R1', rationale: R1.rationale }] })
    // The fix "everyone would make" was tried, and disproven: a proposal rejected, with its reason.
    await call('POST', '/v1/decisions', { key: 'D1', title: 'The corrected text fixes 7B routing', decision: 'Use the corrected text.', rationale: 'It is true.', scope: { path: 'prompts/router.md' } })
    expect((await call('POST', '/v1/decisions/D1/revoke', { reason: 'disproven: 0/20' })).status).toBe(200)
    expect((await call('GET', '/v1/decisions/D1/why')).body).toMatchObject({ in_force: null, chain: [{ key: 'D1', status: 'revoked', reason: 'disproven: 0/20' }] })
    const before = clock.now().toISOString()
    clock.advance(DAY)
    // A new decision retires 7B and fixes the rule on a supported model: the old one is superseded.
    const R2 = { key: 'R2', title: 'Retire 7B, fix the rule', decision: 'Correct the router rule.', rationale: '20/20 vs 19/20 on the supported model.', supersedes: 'R1', scope: { path: 'prompts/router.md' } }
    expect((await call('POST', '/v1/decisions', R2)).status).toBe(201)
    expect((await call('POST', '/v1/decisions/R2/accept')).status).toBe(200)
    expect((await call('POST', '/v1/decisions/check', { action: EDIT, path: 'prompts/router.md' })).body).toMatchObject({ allowed: true, blocked_by: [] })
    expect(await keys('prompts/router.md')).toEqual(['R2'])
    const why = (await call('GET', '/v1/decisions/R2/why')).body
    expect(why).toMatchObject({ in_force: 'R2', chain: [{ key: 'R1', status: 'superseded', superseded_by: 'R2', rationale: R1.rationale }, { key: 'R2', status: 'accepted' }] })
    // The original, reviewed again, shows the evidence of its time.
    const audit = (await call('POST', '/v1/decisions/check', { action: EDIT, path: 'prompts/router.md', as_of: before })).body
    expect(audit).toMatchObject({ allowed: false, blocked_by: [{ key: 'R1' }] })
    expect((await call('GET', `/v1/decisions/R1/why?as_of=${before}`)).body).toMatchObject({
      in_force: 'R1',
      chain: [{ key: 'R1', status: 'accepted' }],
      evidence: [{ kind: 'experiment', summary: '0/20 corrected vs 16/20 old' }],
    })
  })
})
