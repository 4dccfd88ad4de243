import { z } from './zod'
import { isWithinLabelLength, LABEL_LENGTH_WORDS, labelOverSentLengthSaid, labelTooLongSaid, normalizeLabel, ownDescription, RECOMMENDED_MARK, SENTENCE_END } from './labels'
import { nestsWithin } from './json-depth'
import { characters, LIMITS } from './limits'
import { ContextSchema, FIELD_DESCRIPTIONS, hasNoLoneSurrogate, HeaderSchema, LONE_SURROGATES, NOT_BLANK_PATTERN, TAKES, TimestampSchema, TrimmedIdentifierSchema, wellFormed } from './observation'
import { countSaid, wrongTypeSaid } from './zod-issues'
import type { Recommendation } from './recommendation'

/** What Claude Code's AskUserQuestion tool accepts: 1 to 4 questions of 2 to 4 options each. */
export const ASK_USER_QUESTION = { maxQuestions: 4, minOptions: 2, maxOptions: 4 } as const

// Text is kept exactly as the agent wrote it (not trimmed): Claude Code keys answers by the
// question's text, and labels are normalised only for matching. Not blank is said again as a
// pattern, which the MCP tool's input schema and the OpenAPI document carry (a refine they cannot).
const notBlank = (value: string) => value.trim() !== ''

/** What a question takes, said to a value of another JSON type. */
const QUESTION_TAKES = 'a question: an object with its question and options'

/** What a question's options take, said to a value of another JSON type. */
const OPTIONS_TAKE = 'an array of options: objects {label, description}'

/**
 * One option of an AskUserQuestion question. Loose: fields this service does not know are kept,
 * because a PreToolUse `updatedInput` replaces the tool's whole input.
 */
export const AskUserQuestionOptionSchema = z.looseObject(
  {
    label: z
      .string({ error: wrongTypeSaid(TAKES.label) })
      .max(LIMITS.labelSentLength, { error: labelOverSentLengthSaid('counted') })
      .refine(notBlank, 'must not be blank')
      .refine(isWithinLabelLength, { error: labelTooLongSaid })
      .refine(hasNoLoneSurrogate, LONE_SURROGATES)
      .meta({ pattern: NOT_BLANK_PATTERN, description: `The option as the user sees it; a trailing " (Recommended)" is replaced by the learned one. ${LABEL_LENGTH_WORDS}` }),
    description: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).max(LIMITS.descriptionLength))
      .optional()
      .meta({ description: "The option's explanation; the recommended one keeps it, followed by \"Recommended when … — based on …\" (that alone when it has none)." }),
  },
  { error: wrongTypeSaid('an option: an object {label, description}') },
)
export type AskUserQuestionOption = z.infer<typeof AskUserQuestionOptionSchema>

const questionText = z
  .string({ error: wrongTypeSaid('a question (text)') })
  .max(LIMITS.questionLength)
  .refine(notBlank, 'must not be blank')
  .refine(hasNoLoneSurrogate, LONE_SURROGATES)
  .meta({ pattern: NOT_BLANK_PATTERN, description: 'The question as the agent would ask it; answers are keyed by this text.' })
const questionHeader = HeaderSchema.optional().meta({ description: 'The short chip label AskUserQuestion shows (e.g. "Tier").' })
/** A question's `kind` as written, before what each schema makes of it. */
const questionKind = wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).max(LIMITS.labelLength))

/** One question object of AskUserQuestion's `questions` (R-ASK-3), as the agent wrote it. */
export const AskUserQuestionSchema = z
  .looseObject(
    {
      question: questionText,
      header: questionHeader,
      // Null is none given, as a null optional field is read elsewhere (the hook reads it so too).
      kind: questionKind
        .refine(isChoiceKind, 'a choice question\'s kind is "choice", empty or left out')
        .nullish()
        .meta({ description: 'A choice among the options; "choice" in any case, "" or left out (or null), it is one (`text` and `number` questions are planned as written).' }),
      options: z
        .array(AskUserQuestionOptionSchema, { error: wrongTypeSaid(OPTIONS_TAKE) })
        // Said as a plan's question says it (optionCountSaid), at the hook too: one range, one wording.
        .min(ASK_USER_QUESTION.minOptions, { error: (issue) => (Array.isArray(issue.input) ? optionCountSaid('least', issue.input.length) : undefined) })
        .max(ASK_USER_QUESTION.maxOptions, { error: (issue) => (Array.isArray(issue.input) ? optionCountSaid('most', issue.input.length) : undefined) })
        .meta({ description: 'The 2 to 4 options offered, in the order the agent wrote them.' }),
      multiSelect: z.boolean({ error: wrongTypeSaid(TAKES.flag) }).optional().meta({ description: 'Whether several options may be chosen; added from the policy or history when left out.' }),
    },
    { error: wrongTypeSaid(QUESTION_TAKES) },
  )
  // Its fields are sent back as they came (a plan, a hook's updatedInput): JSON.stringify, being
  // recursive, cannot write back what is nested thousands deep, and the answer was a 500.
  .refine((q) => nestsWithin(q, LIMITS.nesting), `must not nest arrays and objects more than ${LIMITS.nesting} levels deep`)
export type AskUserQuestion = z.infer<typeof AskUserQuestionSchema>

/**
 * Whether a question's `kind` makes it a choice among its options: left out, null (none given),
 * `choice` in any case (`"Choice"`), or an empty string, which clients that fill every field send
 * as their default. Read as another kind, such a question was asked as written, never recommended.
 */
export function isChoiceKind(kind: unknown): boolean {
  return kind === undefined || kind === null || (typeof kind === 'string' && ['', 'choice'].includes(kind.trim().toLowerCase()))
}

/**
 * A question of AskUserQuestion that asks for no choice (`kind: "text"`, `"number"`, or a kind
 * Claude Code adds later), with no options: nothing to recommend, so a plan returns it as written,
 * always asked, as the PreToolUse hook leaves it. Loose, as a choice is.
 */
export const OtherKindQuestionSchema = z
  .looseObject({
    question: questionText,
    header: questionHeader,
    kind: questionKind.meta({ description: 'What the question asks for instead of a choice: `text`, `number`, or a kind AskUserQuestion adds.' }),
  })
  .refine((q) => nestsWithin(q, LIMITS.nesting), `must not nest arrays and objects more than ${LIMITS.nesting} levels deep`)
export type OtherKindQuestion = z.infer<typeof OtherKindQuestionSchema>

/**
 * A question's options too few or too many (a plan's, a hook payload's), said alike at both ends
 * with the range a choice takes: the too few were told `a choice question has 2 to 4 options, not 1`, the too many (of
 * any kind) `at most 4 options, not 5`, as if the two were different rules.
 */
function optionCountSaid(end: 'least' | 'most', count: number): string {
  const { minOptions, maxOptions } = ASK_USER_QUESTION
  return `at ${end} ${end === 'least' ? minOptions : maxOptions} options, not ${count} (a choice question has ${minOptions} to ${maxOptions} options)`
}

/**
 * A question of a plan: a choice (`kind` left out, null, empty or `choice` in any case), with its 2 to 4 options, or one
 * of any other kind, returned as written. One object, its kind told by a refinement, not a union:
 * the MCP tool's input schema is made from it, and a `oneOf` of two question shapes is what some
 * MCP clients and model APIs refuse or mishandle (OpenAI's and Gemini's function schemas take none).
 * A kind not known here is another kind, not a refusal: AskUserQuestion may gain kinds, and the
 * PreToolUse hook leaves such a question to the user as written; a plan refusing it cost the agent
 * the plan of every choice beside it.
 */
const PlanQuestionShape = z
  .looseObject(
    {
      question: questionText,
      header: questionHeader,
      kind: questionKind
        .nullish()
        .meta({
          description:
            'A choice among `options` when left out, null, "" or "choice" (in any case); any other kind (`text`, `number`, or one AskUserQuestion adds) is returned as written, in its place, always asked.',
        }),
      options: z
        .array(AskUserQuestionOptionSchema, { error: wrongTypeSaid(OPTIONS_TAKE) })
        .max(ASK_USER_QUESTION.maxOptions, { error: (issue) => (Array.isArray(issue.input) ? optionCountSaid('most', issue.input.length) : undefined) })
        // Null beside another kind is none given (as Claude Code's text and number questions may send it):
        // kept as written, as before, and a client that checks arguments against the schema sends it.
        .nullish()
        .meta({ description: 'The 2 to 4 options offered, in the order the agent wrote them: required for a choice, none for another kind.' }),
      multiSelect: AskUserQuestionSchema.shape.multiSelect,
    },
    { error: wrongTypeSaid(QUESTION_TAKES) },
  )
  .superRefine((q, ctx) => {
    if (!isChoiceKind(q.kind)) return
    const { minOptions, maxOptions } = ASK_USER_QUESTION
    const count = q.options?.length
    if (count !== undefined && count >= minOptions) return
    const message =
      count === undefined
        ? `required: a choice question (kind left out, null, "" or "choice") has ${minOptions} to ${maxOptions} options`
        : optionCountSaid('least', count)
    ctx.addIssue({ code: 'custom', path: ['options'], message })
  })
  .refine((q) => nestsWithin(q, LIMITS.nesting), `must not nest arrays and objects more than ${LIMITS.nesting} levels deep`)
export type PlanQuestion = AskUserQuestion | OtherKindQuestion
/** The one object schema, read as what its refinement makes it: a choice with its options, or another kind. */
export const PlanQuestionSchema = PlanQuestionShape as unknown as z.ZodType<PlanQuestion, z.input<typeof PlanQuestionShape>>

/** Whether a plan's question is a choice, to be planned, rather than one of another kind (text, a number). */
export function isChoice(question: PlanQuestion): question is AskUserQuestion {
  return isChoiceKind(question.kind)
}

/** Answers are keyed by question text, so two questions of one call may not share it. */
export function questionTextsUnique(questions: ReadonlyArray<{ question: string }>): boolean {
  return new Set(questions.map((q) => q.question)).size === questions.length
}

/**
 * Each question whose text an earlier one of the call has, as an issue naming its own `question`
 * (`3.question`, under the list's field), which says the place of the first: the list as a whole
 * was named, and a client had to find the two among up to twenty questions itself.
 */
export function repeatedQuestionTexts(questions: ReadonlyArray<{ question: string } | null>): Array<{ path: [number, 'question']; message: string }> {
  const first = new Map<string, number>()
  const issues: Array<{ path: [number, 'question']; message: string }> = []
  questions.forEach((q, i) => {
    if (q === null) return
    const earlier = first.get(q.question)
    if (earlier === undefined) first.set(q.question, i)
    else issues.push({ path: [i, 'question'], message: `the same text as question ${earlier}: question texts must be unique (answers are keyed by them)` })
  })
  return issues
}

/** The zod refinement of a list of questions: repeatedQuestionTexts, each an issue. */
export function refuseRepeatedQuestionTexts(questions: ReadonlyArray<{ question: string }>, ctx: z.RefinementCtx): void {
  for (const issue of repeatedQuestionTexts(questions)) ctx.addIssue({ code: 'custom', ...issue })
}

/** The fields of AskUserQuestion's input a plan takes, at any depth, and ignores. */
export const PLAN_IGNORED_FIELDS = ['answers', 'annotations', 'metadata'] as const

/**
 * The body of `POST /v1/plan` (R-ASK-3). Strict at its own level (a misspelt `as_of` or
 * `session_id` is refused, named), but for the fields of the AskUserQuestion input it may be
 * built from (`answers`, `annotations`, `metadata`: an agent passes its whole tool input),
 * taken and ignored; its questions keep the fields they came with.
 */
export const PlanRequestSchema = z.strictObject({
  // Any value is taken, as before; the listed schema says the object AskUserQuestion sends, since
  // function schemas of the OpenAPI subset (Gemini's) want a `type` on every property.
  answers: z.unknown().optional().meta({ type: 'object', additionalProperties: {}, description: 'AskUserQuestion input field, ignored (an agent may pass its whole tool input).' }),
  annotations: z.unknown().optional().meta({ type: 'object', additionalProperties: {}, description: 'AskUserQuestion input field, ignored.' }),
  metadata: z.unknown().optional().meta({ type: 'object', additionalProperties: {}, description: 'AskUserQuestion input field, ignored.' }),
  user: TrimmedIdentifierSchema.default('default').meta({ description: FIELD_DESCRIPTIONS.user }),
  project: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.project }),
  session_id: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.session_id }),
  questions: z
    .array(PlanQuestionSchema, { error: wrongTypeSaid('an array of questions') })
    .min(1)
    .max(LIMITS.questionsPerPlan, { error: countSaid('question', 'questions') })
    .superRefine(refuseRepeatedQuestionTexts)
    .meta({
      description:
        'The questions of the AskUserQuestion call about to be made, as the agent wrote them; one asking for text or a number (`kind` `text`, `number`) is returned as written, in its place, always asked.',
    }),
  context: ContextSchema.optional().meta({ description: FIELD_DESCRIPTIONS.context }),
  /** Plans as the service would have then (R-REC-9), for an audit of an earlier plan. */
  as_of: TimestampSchema.optional().meta({ description: FIELD_DESCRIPTIONS.as_of }),
})
export type PlanRequest = z.infer<typeof PlanRequestSchema>

/** One question of a plan: what to show, what the memory expects, and its answer when auto-resolved. */
export interface PlannedQuestion {
  /** The question as it should be shown: options ordered and labelled per the recommendation's strength. */
  ask_user_question: AskUserQuestion
  recommendation: Recommendation
  ask: boolean
  /** The label(s) answered on the user's behalf, when `ask` is false: a multi-select answer's as autoAnswer joins them, quoted where a label holds ", " or `"`. */
  answer: string | null
}

/**
 * A question of a plan that asks for text or a number: as written, with no recommendation, always
 * asked. Only a plan given such questions has entries of this shape.
 */
export interface UnplannedQuestion {
  ask_user_question: OtherKindQuestion
  kind: string
  recommendation: null
  ask: true
  answer: null
  ask_reason: string
}

/** A question plan (R-ASK-3): every question ordered by information, answers, and the tool input. */
export interface QuestionPlan<Q extends PlannedQuestion | UnplannedQuestion = PlannedQuestion> {
  questions: Q[]
  /** Auto-resolved answers keyed by question text, as AskUserQuestion's `answers` has them. */
  answers: Record<string, string>
  /** The input to pass to AskUserQuestion for the questions still to ask, or null when none are. */
  ask_user_question_input: { questions: Array<Q['ask_user_question']> } | null
  /** Questions still to ask beyond the tool's four, for a later call, in order. */
  deferred: string[]
}

const ENDS_SENTENCE = new RegExp(`[${SENTENCE_END}]$`)
/** Anything but the marks and white space: a description that is more than a mark. */
const HAS_WORDS = new RegExp(`[^${SENTENCE_END}\\s]`)

/**
 * The agent's description, then the rationale as a sentence of its own: a description that ends
 * a sentence already ('Is it safe?', 'Fast!', 'Done.', '小規模向け。', 'هل هو آمن؟') keeps its mark,
 * any other gets a full stop.
 */
export function withRationale(description: string, rationale: string): string {
  // Left open, the rationale goes on from the colon; cut at a comma or semicolon, it ends there
  // (and at a sentence's end before it, `Fast? ;`, which keeps its mark).
  if (/[^:：\s]\s*[:：]$/.test(description.trimEnd())) return `${description.trimEnd()} ${rationale}`
  const text = description.replace(/[\s,;、，；،؛]+$/, '')
  if (!HAS_WORDS.test(text)) return rationale
  return ENDS_SENTENCE.test(text) ? `${text} ${rationale}` : `${text}. ${rationale}`
}

/**
 * Applies a recommendation to a question's options (R-REC-6, R-ASK-3): the options in the
 * recommendation's order with its labels, the recommended one's rationale after the agent's own
 * description, every other field kept. A neutral recommendation (sensitive point, personalization
 * off) keeps the question as written, less the options a required decision rules out.
 */
export function presentQuestion(given: AskUserQuestion, recommendation: Recommendation): AskUserQuestion {
  // AskUserQuestion needs multiSelect: left out, it is what the recommendation took the question
  // for (the point's policy or history), so that several options labelled (Recommended) and an
  // answer joined with ", " are shown in a picker that takes several; a neutral question gets it
  // too, since the tool refuses a question without it and it leans on no option.
  const question = given.multiSelect === undefined ? { ...given, multiSelect: recommendation.multi_select } : given
  if (recommendation.strength === 'neutral') {
    // Neutral leans on no option (a sensitive point, personalization off), but a required decision
    // still holds (R-CON-2): the options it rules out leave the question, the rest as written and in
    // their order. The user was shown `None` at a security question whose decision forbids it.
    // As written, that is, but for the rationale a plan of this service appended before (with
    // personalization on, since turned off): it would tell the user why an option is recommended
    // where this answer recommends none.
    // An option that had a description keeps one, blank when it was the rationale alone:
    // AskUserQuestion requires every option's description, and updatedInput replaces the input.
    const own = question.options.map((o) => {
      const description = ownDescription(o.description)
      return description === o.description ? o : { ...o, description: description ?? '' }
    })
    const written = own.every((o, i) => o === question.options[i]) ? question : { ...question, options: own }
    const kept = new Set(recommendation.options.map((r) => r.option))
    const options = written.options.filter((o) => kept.has(normalizeLabel(o.label)))
    return unmarkRuledOut(options.length === written.options.length || options.length < ASK_USER_QUESTION.minOptions ? written : { ...written, options }, recommendation)
  }
  const byOption = new Map(question.options.map((o) => [normalizeLabel(o.label), o]))
  const options = recommendation.options.map((r) => {
    const original = byOption.get(r.option)
    if (original === undefined) throw new Error(`recommendation option "${r.option}" is not one of the question's`)
    // Claude Code sends it back as it was shown (PostToolUse, a later plan), where a label past the
    // limit would be refused, and the user's answer with it. The label's limit counts it as
    // normalised, without the annotation: the option's label marked is always within it.
    const shown: AskUserQuestionOption = { ...original, label: r.label }
    // The user still needs what the option means: the agent's description stays, and the
    // recommendation's rationale follows it (R-REC-5 words the rationale, not what it replaces).
    // Without the rationale a plan of this service gave it before (ownDescription): planned again,
    // it would be said twice, or stay on an option no longer recommended.
    const own = ownDescription(original.description)
    const described =
      r.original_description !== undefined && r.description !== undefined
        ? withRationale(r.original_description, r.description)
        : (r.description ?? own)
    const description = described !== undefined && characters(described) > LIMITS.descriptionLength ? own : described
    if (description !== undefined) shown.description = description
    // The rationale was all it had: blank, not dropped, since AskUserQuestion requires a description.
    else if (original.description !== undefined) shown.description = ''
    else delete shown.description
    return shown
  })
  // AskUserQuestion takes no question of fewer than two options (nor does this service's capture
  // of it afterwards): where a required decision left one, the others follow it as written, and
  // the reason shown says which of them the decision rules out (preToolUseAnswer).
  if (options.length < ASK_USER_QUESTION.minOptions) {
    const shown = new Set(options.map((o) => normalizeLabel(o.label)))
    options.push(...question.options.filter((o) => !shown.has(normalizeLabel(o.label))))
  }
  return unmarkRuledOut({ ...question, options }, recommendation)
}


/**
 * The question without the agent's ` (Recommended)` on the options a required decision rules out
 * but that stay in it (every option offered ruled out, or one left and the others after it): the
 * picker would otherwise recommend what the reason beside it says cannot be chosen (R-CON-2).
 */
function unmarkRuledOut(question: AskUserQuestion, recommendation: Recommendation): AskUserQuestion {
  // A recommendation joined with decisions carries their effects (ContractedRecommendation).
  const effects = (recommendation as { decisions?: ReadonlyArray<{ effect: string; options?: readonly string[] }> }).decisions ?? []
  const ruledOut = new Set(effects.filter((d) => d.effect === 'ruled-out').flatMap((d) => d.options ?? []))
  if (!question.options.some((o) => ruledOut.has(normalizeLabel(o.label)) && RECOMMENDED_MARK.test(o.label))) return question
  const options = question.options.map((o) =>
    ruledOut.has(normalizeLabel(o.label)) && RECOMMENDED_MARK.test(o.label) ? { ...o, label: o.label.replace(RECOMMENDED_MARK, '') } : o,
  )
  return { ...question, options }
}

/**
 * The shown labels of the answer to give on the user's behalf (R-ASK-2, R-ASK-4): the recommended
 * option's, or each recommended option's of a multi-select question, in the shown order. Null
 * when the question must be asked, or when a multi-select recommendation selects nothing (an
 * empty answer is no answer).
 */
export function autoAnswerLabels(shown: AskUserQuestion, recommendation: Recommendation): string[] | null {
  if (recommendation.ask) return null
  const chosen = new Set(Array.isArray(recommendation.recommended) ? recommendation.recommended : [recommendation.recommended])
  const labels = shown.options.filter((o) => chosen.has(normalizeLabel(o.label))).map((o) => o.label)
  return labels.length === 0 ? null : labels
}

/**
 * The answer to give on the user's behalf, as AskUserQuestion's `answers` holds it: the shown
 * label, or a multi-select answer's labels joined with ", " as Claude Code joins them, a label
 * that holds ", " or a double quote written as a JSON string (`"Lint, format", Unit tests`), so
 * that the join reads back as the labels it joins.
 */
export function autoAnswer(shown: AskUserQuestion, recommendation: Recommendation): string | null {
  const labels = autoAnswerLabels(shown, recommendation)
  if (labels === null) return null
  if (!Array.isArray(recommendation.recommended)) return labels[0] as string
  return labels.map((l) => (l.includes(', ') || l.includes('"') ? JSON.stringify(l) : l)).join(', ')
}

/** A question of a plan that asks for text or a number, with its place among the questions as sent. */
export interface PlacedOtherKind {
  index: number
  question: OtherKindQuestion
}

/**
 * Builds a question plan from each question and its recommendation (R-ASK-3). Questions are
 * ordered by `information` = p(1 − p), highest first (R-ASK-1, R-ASK-3: highest at p = ½, the
 * decision boundary; a question with p below ½, one of 4 options with no history, has less than
 * one at p = 0.68); ties keep the agent's order. `items` are the choice questions in the order
 * given; `others`, the questions asking for text or a number, each with its place as sent, keep
 * that place (as the PreToolUse hook keeps them), unplanned and always asked: the choice questions
 * shown fill the places of the choice questions shown, in the plan's order.
 */
export function buildQuestionPlan(items: ReadonlyArray<{ question: AskUserQuestion; recommendation: Recommendation }>): QuestionPlan
export function buildQuestionPlan(
  items: ReadonlyArray<{ question: AskUserQuestion; recommendation: Recommendation }>,
  others: readonly PlacedOtherKind[],
): QuestionPlan<PlannedQuestion | UnplannedQuestion>
export function buildQuestionPlan(
  items: ReadonlyArray<{ question: AskUserQuestion; recommendation: Recommendation }>,
  others: readonly PlacedOtherKind[] = [],
): QuestionPlan<PlannedQuestion | UnplannedQuestion> {
  // Personalization is the session's: off, the questions stay in the order they were written, as
  // their options do (R-ASK-4: it changes nothing; R-REC-6 neutral). A required decision still
  // puts its option first within its question.
  const asWritten = items.some((item) => item.recommendation.state === 'personalization-off')
  const places = choicePlaces(items.length, others)
  const planned = items
    .map((item, index) => {
      const shown = presentQuestion(item.question, item.recommendation)
      const answer = autoAnswer(shown, item.recommendation)
      return {
        index,
        place: places[index] as number,
        entry: { ask_user_question: shown, recommendation: item.recommendation, ask: answer === null, answer } as PlannedQuestion,
      }
    })
    .sort((a, b) => (asWritten ? 0 : b.entry.recommendation.information - a.entry.recommendation.information) || a.index - b.index)
  const unplanned = others.map((o) => ({ place: o.index, entry: unplannedQuestion(o.question) }))
  // fromEntries defines own properties: a question called "__proto__" is an ordinary key.
  const answers: Record<string, string> = Object.fromEntries(
    planned.flatMap((p) => (p.entry.answer === null ? [] : [[p.entry.ask_user_question.question, p.entry.answer]])),
  )
  const toAsk = inPlaces(
    planned.filter((p) => p.entry.ask),
    unplanned,
  ).map((entry) => entry.ask_user_question)
  const now = toAsk.slice(0, ASK_USER_QUESTION.maxQuestions)
  return {
    questions: inPlaces(planned, unplanned),
    answers,
    ask_user_question_input: now.length === 0 ? null : { questions: now },
    deferred: toAsk.slice(ASK_USER_QUESTION.maxQuestions).map((q) => q.question),
  }
}

/** A question asking for text or a number, as a plan returns it: as written, with nothing to recommend, asked. */
function unplannedQuestion(question: OtherKindQuestion): UnplannedQuestion {
  // Read as the kind of a choice is read (any case, spaces around): `TEXT` asks for text.
  const kind = typeof question.kind === 'string' ? question.kind.trim().toLowerCase() : question.kind
  const what = kind === 'number' ? 'asks for a number' : kind === 'text' ? 'asks for text' : `is of kind ${JSON.stringify(question.kind)}`
  return {
    ask_user_question: question,
    kind: question.kind,
    recommendation: null,
    ask: true,
    answer: null,
    ask_reason: `the question ${what}, not a choice: there is no option to recommend`,
  }
}

/** The places as sent of `choices` choice questions, in their order: those the others do not take. */
export function choicePlaces(choices: number, others: ReadonlyArray<{ index: number }>): number[] {
  const taken = new Set(others.map((o) => o.index))
  return Array.from({ length: choices + others.length }, (_, i) => i).filter((i) => !taken.has(i))
}

/**
 * The choice questions shown (in the plan's order) and the others, each other in its place as
 * sent, the choice questions filling the places of the choice questions shown, in order. The
 * PreToolUse hook places the questions it leaves to the user so too.
 */
export function inPlaces<T, U>(shown: ReadonlyArray<{ place: number; entry: T }>, others: ReadonlyArray<{ place: number; entry: U }>): Array<T | U> {
  if (others.length === 0) return shown.map((s) => s.entry)
  const slots = shown.map((s) => s.place).sort((a, b) => a - b)
  return [...shown.map((s, i) => ({ place: slots[i] as number, entry: s.entry as T | U })), ...others]
    .sort((a, b) => a.place - b.place)
    .map((p) => p.entry)
}
