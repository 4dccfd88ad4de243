import { pointView } from '../../test/support/observations'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { decisionPointKey } from './decision-point'
import { normalizeLabel } from './labels'
import type { Observation } from './observation'
import type { CompiledPolicy } from './policy'
import { AskUserQuestionOptionSchema, autoAnswer, autoAnswerLabels, buildQuestionPlan, presentQuestion, type AskUserQuestion } from './question-plan'
import { recommend, type Recommendation } from './recommendation'

const AS_OF = new Date('2026-07-01T10:00:00Z')
let policy: CompiledPolicy

beforeAll(async () => {
  policy = await loadPolicy(DEFAULT_POLICY_FILE)
})

/** The real recommendation for a question after `choices` (each a label, or labels for multi-select). */
function recommendationFor(
  question: AskUserQuestion,
  choices: Array<string | string[]>,
  options: { sessions?: number; personalization?: boolean } = {},
): Recommendation {
  const labels = question.options.map((o) => normalizeLabel(o.label))
  const point = decisionPointKey({ header: question.header, question: question.question, options: labels }, policy)
  const observations: Observation[] = choices.map((choice, i) => ({
    id: `obs-${i}`,
    user: 'default',
    project: null,
    session_id: null,
    point,
    decision_id: null,
    timestamp: AS_OF.toISOString(),
    recorded_at: AS_OF.toISOString(),
    question: question.question,
    header: question.header ?? null,
    options: labels,
    chosen: Array.isArray(choice) ? choice : [choice],
    other: null,
    multi_select: question.multiSelect ?? false,
    context: {},
    source: 'user',
  }))
  return recommend({
    point,
    question: question.question,
    header: question.header,
    options: question.options.map((o) => ({ option: normalizeLabel(o.label), description: o.description })),
    multi_select: question.multiSelect,
    memory: pointView(observations, policy),
    sessions: options.sessions ?? 1,
    personalization: options.personalization ?? true,
    asOf: AS_OF,
    policy,
  })
}

const tier: AskUserQuestion = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  options: [
    { label: 'Tier S', description: 'Small', preview: 'kept' },
    { label: 'Tier M', description: 'Medium' },
    { label: 'Tier L', description: 'Large' },
  ],
  multiSelect: false,
  custom: { kept: true },
}

const checks: AskUserQuestion = {
  question: 'Which checks should run before the PR?',
  header: 'Checks',
  options: [
    { label: 'Lint, format', description: 'eslint and prettier' },
    { label: 'Unit tests', description: 'vitest' },
    { label: 'E2E tests', description: 'slow' },
  ],
  multiSelect: true,
}

const repeat = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value)

describe('presentQuestion (R-REC-6 applied to AskUserQuestion)', () => {
  it("reads an agent's （Recommended） in full-width parentheses as its (Recommended): one mark, on the option learned", () => {
    const ja: AskUserQuestion = {
      question: 'どのデータベースを使いますか？',
      header: 'DB',
      options: [{ label: 'Postgres（Recommended）' }, { label: 'MySQL' }],
      multiSelect: false,
    }
    const learned = recommendationFor(ja, repeat(6, 'MySQL'))
    // The same point as the question with no mark, so the user's choices there are counted.
    expect(learned.point).toBe(recommendationFor({ ...ja, options: [{ label: 'Postgres' }, { label: 'MySQL' }] }, []).point)
    expect(presentQuestion(ja, learned).options.map((o) => o.label)).toEqual(['MySQL (Recommended)', 'Postgres'])
  })

  it('puts the recommended option first with its label, keeping every other field', () => {
    const shown = presentQuestion(tier, recommendationFor(tier, [...repeat(6, 'Tier L'), 'Tier S']))
    expect(shown.options.map((o) => o.label)).toEqual(['Tier L (Recommended)', 'Tier S', 'Tier M'])
    expect(shown.options[1]).toEqual({ label: 'Tier S', description: 'Small', preview: 'kept' })
    // What the option means stays, the rationale after it.
    expect(shown.options[0]?.description).toMatch(/^Large\. Recommended when .* — based on /)
    expect(shown.custom).toEqual({ kept: true })
    // An option without a description of its own gets the rationale alone.
    const bare = { ...tier, options: tier.options.map((o) => (o.label === 'Tier L' ? { label: 'Tier L' } : o)) }
    expect(presentQuestion(bare, recommendationFor(bare, [...repeat(6, 'Tier L'), 'Tier S'])).options[0]?.description).toMatch(/^Recommended when /)
    // A description that ends its sentence keeps its mark: no 'Large?. Recommended'.
    for (const [own, shownAs] of [
      ['Large?', /^Large\? Recommended when /],
      ['Large!  ', /^Large! Recommended when /],
      ['Large...', /^Large\.\.\. Recommended when /],
      ['Large:\nall of it', /^Large:\nall of it\. Recommended when /],
      ['...', /^Recommended when /],
      // A description left open (a colon) or cut at a comma: no 'Large:. Recommended'.
      ['Large, for:', /^Large, for: Recommended when /],
      // French typography puts a space before the colon: it still leads in.
      ['Large, pour :', /^Large, pour : Recommended when /],
      ['Large,', /^Large\. Recommended when /],
      ['Large; ', /^Large\. Recommended when /],
      // The full-width and ideographic marks of Chinese and Japanese, the Arabic question mark: no '。. Recommended'.
      ['大規模向け。', /^大規模向け。 Recommended when /],
      ['安全ですか？', /^安全ですか？ Recommended when /],
      ['هل هو آمن؟', /^هل هو آمن؟ Recommended when /],
      ['対象：', /^対象： Recommended when /],
      ['大規模向け、', /^大規模向け\. Recommended when /],
      // Cut at a comma after a space, or after a sentence's end: no 'Large . Recommended', no 'Large?. Recommended'.
      ['Large ;', /^Large\. Recommended when /],
      ['Large? ,', /^Large\? Recommended when /],
      ['安全ですか？、', /^安全ですか？ Recommended when /],
      [' ;', /^Recommended when /],
    ] as const) {
      const q = { ...tier, options: tier.options.map((o) => (o.label === 'Tier L' ? { ...o, description: own } : o)) }
      expect(presentQuestion(q, recommendationFor(q, [...repeat(6, 'Tier L'), 'Tier S'])).options[0]?.description).toMatch(shownAs)
    }
    expect(shown.question).toBe(tier.question)
  })

  it('marks a long label within the limit counted in characters, as the service counts it, not in UTF-16 units', () => {
    const long = (label: string): AskUserQuestion => ({ ...tier, options: [{ label }, { label: 'Other' }] })
    // 250 emoji: 264 characters with the mark (528 UTF-16 units), within the 500 a label may have.
    const emoji = long('😀'.repeat(250))
    expect(presentQuestion(emoji, recommendationFor(emoji, repeat(6, '😀'.repeat(250)))).options[0]?.label).toBe(`${'😀'.repeat(250)} (Recommended)`)
    // 500 letters: 514 with the mark, which the limit does not count (R-CAP-3): shown marked, and taken back.
    const letters = long('a'.repeat(500))
    const shown = presentQuestion(letters, recommendationFor(letters, repeat(6, 'a'.repeat(500)))).options[0]
    expect(shown?.label).toBe(`${'a'.repeat(500)} (Recommended)`)
    expect(AskUserQuestionOptionSchema.safeParse(shown).success).toBe(true)
  })

  it('leaves a neutral question exactly as written', () => {
    const rec = recommendationFor(tier, repeat(30, 'Tier L'), { personalization: false })
    expect(rec.strength).toBe('neutral')
    expect(presentQuestion(tier, rec)).toBe(tier)
  })

  it("drops from a neutral question the rationale this service's earlier plan appended, and nothing of the agent's", () => {
    // Planned with personalization on (plan_questions), then shown with it off (the PreToolUse hook).
    const planned = presentQuestion(tier, recommendationFor(tier, repeat(6, 'Tier L')))
    expect(planned.options[0]?.description).toMatch(/Recommended when .* — based on /)
    const agents = { ...planned, options: [...planned.options.slice(0, 2), { label: 'Tier M', description: 'Recommended when speed matters — based on our benchmarks' }] }
    const rec = recommendationFor(agents, repeat(6, 'Tier L'), { personalization: false })
    expect(rec.strength).toBe('neutral')
    const shown = presentQuestion(agents, rec)
    expect(shown.options.map((o) => o.description)).toEqual([
      // The full stop that joined the rationale stays, as it does on an option planned again with personalization on.
      'Large.',
      planned.options[1]?.description,
      'Recommended when speed matters — based on our benchmarks',
    ])
    expect(shown.options.map((o) => o.label)).toEqual(agents.options.map((o) => o.label))
  })

  it('annotates rather than labels for experts', () => {
    const shown = presentQuestion(tier, recommendationFor(tier, repeat(6, 'Tier L'), { sessions: 60 }))
    expect(shown.options[0]?.label).toBe('Tier L (100% of recent choices)')
    expect(shown.options.slice(1).map((o) => o.label)).toEqual(['Tier S', 'Tier M'])
  })
})

describe('autoAnswer (R-ASK-2)', () => {
  it('answers with the shown label only when ask is false', () => {
    const few = recommendationFor(tier, repeat(6, 'Tier L'))
    expect(few.ask).toBe(true)
    expect(autoAnswer(presentQuestion(tier, few), few)).toBeNull()
    const many = recommendationFor(tier, repeat(40, 'Tier L'))
    expect(many.ask).toBe(false)
    expect(autoAnswer(presentQuestion(tier, many), many)).toBe('Tier L (Recommended)')
  })

  it('joins the labels of a multi-select answer with ", " in the shown order, a label holding ", " quoted as Claude Code quotes it', () => {
    const rec = recommendationFor(checks, repeat(40, ['Unit tests', 'Lint, format']))
    expect(rec.ask).toBe(false)
    const shown = presentQuestion(checks, rec)
    const labels = shown.options.filter((o) => ['Unit tests', 'Lint, format'].includes(o.label.replace(/ \(Recommended\)$/, ''))).map((o) => o.label)
    expect(autoAnswerLabels(shown, rec)).toEqual(labels)
    expect(autoAnswer(shown, rec)).toBe(labels.map((l) => (l.includes(', ') ? JSON.stringify(l) : l)).join(', '))
    expect(autoAnswer(shown, rec)).toContain('"Lint, format (Recommended)"')
    expect(autoAnswer(shown, rec)).not.toContain('E2E')
  })
})

describe('buildQuestionPlan (R-ASK-3)', () => {
  function question(n: number, header = `Q${n}`): AskUserQuestion {
    return {
      question: `Question number ${n}?`,
      header,
      options: [
        { label: 'Yes', description: 'y' },
        { label: 'No', description: 'n' },
      ],
      multiSelect: false,
    }
  }

  it('orders by information, highest first, ties in the given order', () => {
    const items = [
      { question: question(1), recommendation: recommendationFor(question(1), repeat(40, 'Yes')) },
      { question: question(2), recommendation: recommendationFor(question(2), []) },
      { question: question(3), recommendation: recommendationFor(question(3), [...repeat(5, 'Yes'), ...repeat(4, 'No')]) },
      { question: question(4), recommendation: recommendationFor(question(4), []) },
    ]
    const plan = buildQuestionPlan(items)
    const informations = plan.questions.map((p) => p.recommendation.information)
    expect(informations).toEqual([...informations].sort((a, b) => b - a))
    expect(plan.questions.map((p) => p.ask_user_question.question)).toEqual([2, 4, 3, 1].map((n) => `Question number ${n}?`))
    expect(plan.answers).toEqual({ 'Question number 1?': 'Yes (Recommended)' })
    expect(plan.ask_user_question_input?.questions.map((q) => q.header)).toEqual(['Q2', 'Q4', 'Q3'])
    expect(plan.deferred).toEqual([])
  })

  it('keeps the questions in the given order with personalization off (R-ASK-4: it changes nothing)', () => {
    const off = { personalization: false }
    const items = [
      { question: question(1), recommendation: recommendationFor(question(1), repeat(40, 'Yes'), off) },
      { question: question(2), recommendation: recommendationFor(question(2), [], off) },
      { question: question(3), recommendation: recommendationFor(question(3), [...repeat(5, 'Yes'), ...repeat(4, 'No')], off) },
    ]
    const plan = buildQuestionPlan(items)
    expect(plan.questions.map((p) => p.ask_user_question)).toEqual([question(1), question(2), question(3)])
    expect(plan.answers).toEqual({})
  })

  it('puts at most four questions in one AskUserQuestion input and defers the rest', () => {
    const items = [1, 2, 3, 4, 5, 6].map((n) => ({ question: question(n), recommendation: recommendationFor(question(n), []) }))
    const plan = buildQuestionPlan(items)
    expect(plan.ask_user_question_input?.questions).toHaveLength(4)
    expect(plan.deferred).toEqual(['Question number 5?', 'Question number 6?'])
  })

  it('has no tool input when every question is answered, and keys "__proto__" as an ordinary question', () => {
    const odd = { ...question(1), question: '__proto__' }
    const plan = buildQuestionPlan([{ question: odd, recommendation: recommendationFor(odd, repeat(40, 'No')) }])
    expect(plan.ask_user_question_input).toBeNull()
    expect(Object.keys(plan.answers)).toEqual(['__proto__'])
    expect(plan.answers['__proto__']).toBe('No (Recommended)')
  })
})
