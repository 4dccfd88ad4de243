import type { DecisionMemory } from './decision-memory'
import { offeredOptions } from './domain/offered-options'
import { decisionPointKey, hashPointKey } from './domain/decision-point'
import { InputError } from './domain/errors'
import type { CompiledPolicy } from './domain/policy'
import { checkTimestamp } from './domain/timestamp'
import { multiSelectOf, type OptionInput } from './domain/observation'
import {
  buildQuestionPlan,
  isChoice,
  type AskUserQuestion,
  type PlacedOtherKind,
  type PlannedQuestion,
  type PlanRequest,
  type QuestionPlan,
  type UnplannedQuestion,
} from './domain/question-plan'
import type { Recommendation } from './domain/recommendation'

/**
 * Plans a set of AskUserQuestion questions for one user (R-ASK-3): a recommendation for each,
 * applied to its options, ordered by information, the auto-resolvable ones answered. The doorway
 * of `POST /v1/plan`, the PreToolUse hook and the MCP tool `plan_questions`. A question asking
 * for text or a number has nothing to recommend: it comes back as written, in its place, asked.
 * `points`: the point a question is planned at, by its text, where it is known apart from what it
 * is asked with (a plan's question asked as shown: plannedPointsOfShown); the others are keyed as asked.
 */
export async function planQuestions(memory: DecisionMemory, request: PlanRequest & { questions: AskUserQuestion[] }, points?: ReadonlyMap<string, string>): Promise<QuestionPlan>
export async function planQuestions(memory: DecisionMemory, request: PlanRequest, points?: ReadonlyMap<string, string>): Promise<QuestionPlan<PlannedQuestion | UnplannedQuestion>>
export async function planQuestions(
  memory: DecisionMemory,
  request: PlanRequest,
  points: ReadonlyMap<string, string> = new Map(),
): Promise<QuestionPlan<PlannedQuestion | UnplannedQuestion>> {
  // Checked here, not only by each recommendation: a plan of text and number questions alone
  // recommends nothing, and took an as_of of next year (or 1900) as an audit of then.
  checkTimestamp(request.as_of, memory.clock.now(), 'as_of')
  const items: Array<{ question: AskUserQuestion; recommendation: Recommendation }> = []
  const others: PlacedOtherKind[] = []
  // Each choice with its place as sent, by which a refused one is named.
  const choices: Array<{ index: number; question: AskUserQuestion }> = []
  for (const [index, question] of request.questions.entries()) {
    if (isChoice(question)) choices.push({ index, question: askedAs(question, index) })
    else others.push({ index, question })
  }
  // Every question's options checked before any is recommended, since the first recommendation may
  // start the session: a plan refused for its third question stores nothing (a session counts
  // toward the user's expertise).
  for (const { index, question } of choices) {
    try {
      offeredOptions(question.options)
    } catch (error) {
      throw asAsked(error, index)
    }
  }
  // One at a time: the first recommendation may start the session the others then read.
  for (const { index, question } of choices) {
    items.push({ question, recommendation: await recommendFor(memory, request, question, index, points.get(question.question)) })
  }
  // A plan of text and number questions alone recommends nothing, yet is sent from the session it
  // names, about to ask: a session id seen for the first time starts it (R-SES-1), as a choice's
  // recommendation would have. A replay (as_of) only reads.
  if (choices.length === 0 && request.session_id !== undefined && request.as_of === undefined) {
    await memory.startSession({ user: request.user, project: request.project, session_id: request.session_id })
  }
  return buildQuestionPlan(items, others)
}

/**
 * Plans the questions an agent asks through AskUserQuestion itself (`POST /v1/plan`, the MCP tool
 * `plan_questions`), as planQuestions does, and remembers, for each question keyed by hash whose
 * options a required decision took out, the point it was planned at by the point its form as shown
 * keys to (movedByPlan). The agent passes `ask_user_question_input` on: the PreToolUse hook then
 * sees the options left, and plans the question at the point remembered (plannedPointsOfShown), where
 * the decision applies and the user's history is; its answer is recorded there. Nothing is written
 * for any other question, nor for a plan as of an earlier moment (`as_of`: an audit only reads).
 */
export async function planQuestionsToAsk(memory: DecisionMemory, request: PlanRequest): Promise<QuestionPlan<PlannedQuestion | UnplannedQuestion>> {
  const plan = await planQuestions(memory, request)
  if (request.as_of !== undefined) return plan
  const moved = movedByPlan(plan, request.questions, memory.policy)
  if (moved.length > 0) await memory.rememberShownPoints(request.user, moved.map(({ shown, point }) => ({ shown, point })))
  return plan
}

/**
 * The questions a plan shows with options taken out (ruled out by a required decision, R-CON-2)
 * where the options shown key the question to another point than the one it was planned at: a
 * question keyed by hash (R-CAP-4; a policy's point keys by its rule, whatever the options). Each
 * with its text, the point it keys to as shown, and the point it was planned at. Its answer carries
 * only the options shown, and would count at that other point, never at the one whose
 * recommendation asked it. A plan takes options out and never adds one: a question shown with as
 * many options as asked is at its point, and costs no hash.
 */
export function movedByPlan(
  plan: QuestionPlan<PlannedQuestion | UnplannedQuestion>,
  asked: ReadonlyArray<{ question: string; options?: readonly unknown[] | undefined }>,
  policy: CompiledPolicy,
): Array<{ question: string; shown: string; point: string }> {
  const moved: Array<{ question: string; shown: string; point: string }> = []
  for (const p of plan.questions) {
    if (p.recommendation === null) continue
    const q = p.ask_user_question
    const options = asked.find((a) => a.question === q.question)?.options
    if (options === undefined || options.length === q.options.length) continue
    const shown = decisionPointKey({ header: q.header, question: q.question, options: offeredOptions(q.options).map((o) => o.option) }, policy)
    if (shown !== p.recommendation.point) moved.push({ question: q.question, shown, point: p.recommendation.point })
  }
  return moved
}

/**
 * The point each question keyed by hash (R-CAP-4) was planned at by a plan that showed it so
 * (planQuestionsToAsk), by its text: the agent asks it as the plan showed it, its options taken
 * out, which key it to another point. A question a policy's point keys by its rule is at that point
 * whatever its options, and is not looked up; a call with no question keyed by hash reads nothing.
 */
export async function plannedPointsOfShown(
  memory: DecisionMemory,
  user: string,
  questions: ReadonlyArray<Pick<AskUserQuestion, 'question' | 'header'> & { options: readonly OptionInput[] }>,
): Promise<Map<string, string>> {
  const hashed = new Map<string, string>()
  for (const q of questions) {
    const options = offeredOptions(q.options).map((o) => o.option)
    const point = decisionPointKey({ header: q.header, question: q.question, options }, memory.policy)
    if (point === hashPointKey(q.question, options)) hashed.set(q.question, point)
  }
  if (hashed.size === 0) return hashed
  const planned = await memory.shownPoints(user, [...new Set(hashed.values())])
  const points = new Map<string, string>()
  for (const [question, shown] of hashed) {
    const point = planned.get(shown)
    if (point !== undefined) points.set(question, point)
  }
  return points
}

/**
 * A question with `multi_select`, as `recommend` and `record_choice` spell it, taken as
 * AskUserQuestion's `multiSelect` (the two given and different are refused, naming
 * `questions.N.multiSelect`). Kept as an unknown field, it was read as single-select and passed on
 * beside the `multiSelect: false` the plan adds, a picker of one choice for a question of several.
 */
function askedAs(question: AskUserQuestion, index: number): AskUserQuestion {
  const { multi_select: multiSelect, ...rest } = question as AskUserQuestion & { multi_select?: unknown }
  // Not a boolean: a field of the agent's own, kept as it came.
  if (typeof multiSelect !== 'boolean') return question
  return { ...rest, multiSelect: multiSelectOf({ multi_select: multiSelect, multiSelect: question.multiSelect }, `questions.${index}.`) }
}

async function recommendFor(
  memory: DecisionMemory,
  request: PlanRequest,
  question: AskUserQuestion,
  index: number,
  point: string | undefined,
): Promise<Recommendation> {
  try {
    return await memory.recommend({
      ...(point === undefined ? {} : { point }),
      user: request.user,
      project: request.project,
      session_id: request.session_id,
      question: question.question,
      header: question.header,
      all_options: question.options,
      context: request.context,
      multi_select: question.multiSelect,
      // No static_default: the recommendation takes the option the agent marked (Recommended) itself.
      as_of: request.as_of,
    })
  } catch (error) {
    throw asAsked(error, index)
  }
}

/** An error refusing the plan's question `index`, with its fields named as the caller wrote them. */
function asAsked(error: unknown, index: number): unknown {
  if (!(error instanceof InputError)) return error
  // `as_of` is the plan's own field, named as the caller wrote it.
  if (error.issues.length > 0 && error.issues.every((issue) => issue.path === 'as_of')) return error
  // Name the field as the caller wrote it: questions.1.options.2, not all_options.2.
  return new InputError(error.code, `questions.${index}: ${error.message}`, {
    status: error.status,
    issues: error.issues.map((issue) => ({
      path: `questions.${index}.${issue.path.replace(/^all_options/, 'options')}`,
      message: issue.message.replace(/\ball_options\.(\d+)/g, `questions.${index}.options.$1`),
    })),
  })
}
