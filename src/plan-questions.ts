import { offeredOptions, type DecisionMemory } from './decision-memory'
import { InputError } from './domain/errors'
import { checkTimestamp } from './domain/timestamp'
import { multiSelectOf } from './domain/observation'
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
 */
export async function planQuestions(memory: DecisionMemory, request: PlanRequest & { questions: AskUserQuestion[] }): Promise<QuestionPlan>
export async function planQuestions(memory: DecisionMemory, request: PlanRequest): Promise<QuestionPlan<PlannedQuestion | UnplannedQuestion>>
export async function planQuestions(memory: DecisionMemory, request: PlanRequest): Promise<QuestionPlan<PlannedQuestion | UnplannedQuestion>> {
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
    items.push({ question, recommendation: await recommendFor(memory, request, question, index) })
  }
  return buildQuestionPlan(items, others)
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
): Promise<Recommendation> {
  try {
    return await memory.recommend({
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
