import { createHash } from 'node:crypto'
import { isAbsolute, posix } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { commandLine, optionArgs } from '../config/bin-path'
import { homeFolder } from '../home-folder'
import { realFolder } from '../repository'
import type { DecisionMemory } from '../decision-memory'
import { compareKeys } from '../decisions/decision'
import { agreeing, decisionsNamed } from '../decisions/decisions-named'
import { offeredOptions } from '../domain/offered-options'
import { normalizeQuestion } from '../domain/decision-point'
import { normalizeLabel } from '../domain/labels'
import { fieldsOf, InputError, type Issue } from '../domain/errors'
import { characters, leadingCharacters, LIMITS } from '../domain/limits'
import { nestsWithin } from '../domain/json-depth'
import type { ObservationInput } from '../domain/observation'
import { bareName, bareStart, DECISION_ID_START_PATTERN, hasNoLoneSurrogate, IdentifierSchema, spacedStart, TrimmedIdentifierSchema } from '../domain/observation'
import type { CompiledPolicy } from '../domain/policy'
import {
  ASK_USER_QUESTION,
  autoAnswerLabels,
  AskUserQuestionSchema,
  choicePlaces,
  inPlaces as questionsInPlaces,
  isChoiceKind,
  questionTextsUnique,
  refuseRepeatedQuestionTexts,
  repeatedQuestionTexts,
  type AskUserQuestion,
  type QuestionPlan,
} from '../domain/question-plan'
import { checkInCount } from '../domain/recommendation'
import { z } from '../domain/zod'
import { countSaid, jsonTypeOf, missingSaid, typeIssuesFirst, wrongTypeSaid } from '../domain/zod-issues'
import type { PlannedPoint } from '../memory/planned-points'
import { movedByPlan, plannedPointsOfShown, planQuestions } from '../plan-questions'
import { RATIONALE_QUOTED, rationalePart, rationaleQuoted, serviceUrlPrefix, textPart, withinHookLimit, type LongPart } from './hook-text'

/** The tool whose questions decision-memory learns from. */
export const ASK_USER_QUESTION_TOOL = 'AskUserQuestion'

/** Longest tool_use_id kept whole: the decision_id adds `#` and 16 hex digits within the identifier limit. */
const TOOL_USE_ID_LENGTH = LIMITS.identifierLength - 17

/** The events whose tool_name says whether the service reads them (an AskUserQuestion's). */
const TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse']

/** What a field of a hook payload nested past the limit is told, as any of its body's fields is. */
const NESTED_TOO_DEEP = `must not nest arrays and objects more than ${LIMITS.nesting} levels deep (counted from the body)`

/**
 * A field of a hook payload the service does without when it cannot read it: any value `schema`
 * refuses (`null`, a number, one past its limit) is read as none, rather than the payload refused
 * and the event's answers not learned, and the document says that the field takes anything. One
 * nested past the body's limit is refused all the same, as `decision-memory hook` sends none such.
 * `unread`: what one `schema` refuses is read as, when not none.
 */
function readOrNone<T, U = undefined>(schema: z.ZodType<T>, description: string, unread: (value: unknown) => U = () => undefined as U) {
  return z
    .unknown()
    .transform((value, ctx) => {
      // The payload is the first level; its fields have the rest.
      if (!nestsWithin(value, LIMITS.nesting - 1)) {
        ctx.issues.push({ code: 'custom', input: value, message: NESTED_TOO_DEEP })
        return z.NEVER
      }
      const read = schema.safeParse(value)
      return read.success ? read.data : unread(value)
    })
    .optional()
    .openapi({ description })
}

/**
 * What Claude Code sends on stdin to a command hook (fixtures/claude-code/README.md): common
 * fields checked, everything else kept, since each event adds its own.
 */
export const ClaudeCodeHookPayloadSchema = z
  .looseObject({
    hook_event_name: z.string({ error: wrongTypeSaid('the event\'s name (text), such as PreToolUse') }).min(1).max(100),
    // Empty, white space alone or at its ends, is read as no session too, unless stored so (withReadableSession).
    session_id: readOrNone(
      IdentifierSchema,
      'The session the event is of. One no session can be named by (not a string: `null`, `0`; empty, white space alone or spaced at its ends; over 200 characters; a control character or a lone surrogate; a leading `!`; `.` or `..`) is read as none: the event is taken without a session. ' +
        'One white space alone, spaced or with an invisible character at its ends that names a session the user has stored (started so before writes refused such ids) is that session, its personalization setting applied.',
    ),
    // One that is no folder is null: the project is then its session's (handleClaudeCodeHook).
    cwd: readOrNone(
      z.string().min(1).max(4096),
      'The project of the event when `?project=` is not given. One that is no folder (not a string, empty, over 4,096 characters) is read as none: the project is then, as when it is left out, that of the session the event is of, when it was started in one, else none.',
      () => null,
    ),
    // One that is not a string is null: at a tool event, refused below.
    tool_name: readOrNone(
      z.string().max(200),
      'The tool of a tool event. One over 200 characters is read as none: no tool the service reads. One missing or not a string is refused at a `PreToolUse` or `PostToolUse`, which might be an AskUserQuestion whose answers would go unrecorded without a word; at another event it is not read.',
      (value) => (typeof value === 'string' ? undefined : null),
    ),
    // The start of the decision_id of each answer (hookDecisionId): one spaced or invisible at its
    // start was stored so, and that id, re-sent from an export to POST /v1/observations, is refused.
    // Its end is inside the decision_id (`toolu_1 #…`), which takes anything there: so is it taken.
    tool_use_id: z
      .string({ error: wrongTypeSaid('an id (text)') })
      .min(1)
      .max(TOOL_USE_ID_LENGTH)
      .refine(hasNoLoneSurrogate, 'must not contain lone surrogates')
      .refine((id) => bareStart(id) === id, { error: (issue) => spacedStart(issue.input) })
      .meta({
        pattern: DECISION_ID_START_PATTERN,
        description:
          'The tool call the event is of (Claude Code sends `toolu_…`): each answer\'s decision_id is it, `#` and 16 hex digits, so it is taken as a decision_id\'s start is: ' +
          'no spaces or invisible characters at its start, nor a variation selector or tag character, and no lone surrogates; its end is inside the decision_id, where anything is taken.',
      })
      .optional(),
    tool_input: z.unknown().optional(),
    tool_response: z.unknown().optional(),
  })
  // tool_input's fields go back in updatedInput: what JSON.stringify cannot write back (nested
  // thousands deep) is refused here, not answered with a 500, and the field that nests is named.
  .superRefine((payload, ctx) => {
    for (const [field, value] of Object.entries(payload)) {
      // The payload is the first level; its fields have the rest.
      if (!nestsWithin(value, LIMITS.nesting - 1)) {
        ctx.addIssue({ code: 'custom', path: [field], message: NESTED_TOO_DEEP })
      }
    }
    // A tool event of no tool that can be told: an AskUserQuestion's answers, read as another
    // tool's, were answered `{}` and not recorded, with nothing to say so nor to keep them aside.
    // Left out, it is no more told: a version before this refused `null` there and took none at all.
    if ((payload.tool_name === null || !Object.hasOwn(payload, 'tool_name')) && TOOL_EVENTS.includes(payload.hook_event_name)) {
      ctx.addIssue({ code: 'custom', path: ['tool_name'], message: `must be a string at a ${payload.hook_event_name}: the tool the event is of` })
    }
  })
export type ClaudeCodeHookPayload = z.infer<typeof ClaudeCodeHookPayloadSchema>

/**
 * AskUserQuestion's answers, keyed by question text: the object as sent, not one rebuilt key by
 * key as zod's record does, by assignment, where a question `__proto__` set the prototype and its
 * answer was lost (question texts are ordinary strings).
 */
const AnswersSchema = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), {
  error: (issue) => `an object, its keys the question texts, not ${jsonTypeOf(issue.input)}`,
})

/** What AskUserQuestion's input and response take, and their questions, said to a value of another JSON type. */
const TOOL_INPUT_TAKES = "AskUserQuestion's input: an object with its questions"
const QUESTIONS_TAKE = 'an array of questions'

/** AskUserQuestion's input; `answers` (keyed by question text) is there once the user answered. */
const AskUserQuestionInputSchema = z.looseObject(
  {
    questions: z
      .array(AskUserQuestionSchema, { error: wrongTypeSaid(QUESTIONS_TAKE) })
      .min(1)
      .max(ASK_USER_QUESTION.maxQuestions, { error: countSaid('question', 'questions') })
      .superRefine(refuseRepeatedQuestionTexts),
    answers: AnswersSchema.optional(),
  },
  { error: wrongTypeSaid(TOOL_INPUT_TAKES) },
)
type AskUserQuestionInput = z.infer<typeof AskUserQuestionInputSchema>

// Of another shape than an object, tool_response is read as {} (answeredQuestions).
const AskUserQuestionResponseSchema = z.looseObject({
  questions: z.array(AskUserQuestionSchema, { error: wrongTypeSaid(QUESTIONS_TAKE) }).min(1).max(ASK_USER_QUESTION.maxQuestions, { error: countSaid('question', 'questions') }).optional(),
  answers: AnswersSchema.optional(),
})

/** What the hook prints for a PreToolUse on AskUserQuestion (R-ASK-4). */
export interface PreToolUseAnswer {
  /** Shown to the user: the reason of an `allow`, which Claude Code now writes to its debug log only. */
  systemMessage?: string
  hookSpecificOutput: {
    hookEventName: 'PreToolUse'
    permissionDecision: 'allow' | 'ask'
    permissionDecisionReason: string
    updatedInput: Record<string, unknown>
    additionalContext?: string
  }
}

/** What a PostToolUse answers when it skipped a question it could not take: said to the user. */
export interface PostToolUseAnswer {
  systemMessage: string
}

/** What a hook prints: `{}` when it has nothing to change. */
export type HookAnswer = PreToolUseAnswer | PostToolUseAnswer | Record<string, never>

/** Who and when, beyond the payload: Claude Code does not say which user it runs for. */
export interface HookOptions {
  user: string
  /** When the event happened, for a payload delivered late from the spool (ISO). */
  at?: string | undefined
  /**
   * The project, when the sender knows it better than the payload's `cwd`: the root of the
   * repository the cwd is in, which `decision-memory hook` finds on the agent's machine.
   */
  project?: string | undefined
  /**
   * The project of the event's session, when the sender named none and the `cwd` is in that
   * session's folder (or is no folder): the event's project, which no path is taken relative to,
   * as the sender found no repository there (handleClaudeCodeHook sets it).
   */
  sessionProject?: string | undefined
  /**
   * Where the `cwd` is in its checkout, when the sender knows it: for a git worktree the project
   * is its repository's main working tree, which the cwd is not under.
   */
  path?: string | undefined
  /**
   * The service's address as the sender reaches it (`decision-memory hook`'s DECISION_MEMORY_URL):
   * a command printed for the user names it when it is not the default, which a new shell uses.
   */
  serviceUrl?: string | undefined
  /**
   * The moment (ms, on the memory's clock) after which the sender no longer waits for a PreToolUse
   * answer (`?wait_ms=`): it has let the question through as the agent wrote it, and the user answers.
   */
  answerBy?: number | undefined
}

/**
 * Where in its project an event's `cwd` is, as decisions are scoped (R-CON-4): the path the sender
 * named, else relative to the project the sender named (`.` at its root), so that a decision scoped
 * to `services/payments` applies to the questions asked there; undefined without either, outside
 * the project, or past the limit of a context value.
 */
export function pathInProject(payload: ClaudeCodeHookPayload, options: HookOptions): string | undefined {
  const path = options.path ?? relativeToProject(payload, options)
  return path !== undefined && path.length <= LIMITS.contextValueLength ? path : undefined
}

function relativeToProject(payload: ClaudeCodeHookPayload, options: HookOptions): string | undefined {
  if (options.project === undefined || payload.cwd === undefined || payload.cwd === null) return undefined
  const root = options.project.replace(/\\/g, '/').replace(/\/+$/, '')
  const cwd = payload.cwd.replace(/\\/g, '/').replace(/\/+$/, '')
  return cwd === root ? '.' : cwd.startsWith(`${root}/`) ? cwd.slice(root.length + 1) : undefined
}

/** The project of an event: the one the sender named, else its session's (handleClaudeCodeHook), else its `cwd` (see projectOf). */
function projectOfEvent(payload: ClaudeCodeHookPayload, options: HookOptions): string | undefined {
  return projectOf(options.project ?? options.sessionProject ?? payload.cwd ?? undefined)
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = typeIssuesFirst(result.error.issues).map((issue) => ({
    path: [field, ...issue.path.map(String)].join('.'),
    message: missingSaid(issue.message),
  }))
  throw new InputError('invalid_request', `invalid ${field}: ${fieldsOf(issues)}`, { issues })
}

function requireToolUseId(payload: ClaudeCodeHookPayload): string {
  if (payload.tool_use_id !== undefined) return payload.tool_use_id
  throw new InputError('invalid_request', 'an AskUserQuestion event needs tool_use_id (the idempotency key)', {
    issues: [{ path: 'tool_use_id', message: 'required for AskUserQuestion events' }],
  })
}

/**
 * The decision_id of one question of one AskUserQuestion call: the tool_use_id and a hash of the
 * question, the same at PreToolUse and PostToolUse, so that a retried or repeated hook stores one
 * observation (R-CAP-2).
 */
export function hookDecisionId(toolUseId: string, question: string, asked = false, exact = false): string {
  // `asked`: the user's own answer to a question this service had answered itself (answersAskedAfterAll).
  // `exact`: the call has another question one with this after normalizeQuestion (sharingNormalForm).
  const text = exact ? `\u0000exact\u0000${question}` : normalizeQuestion(question)
  const digest = createHash('sha256').update(text + (asked ? '\u0000asked' : '')).digest('hex').slice(0, 16)
  return `${toolUseId}#${digest}`
}

/**
 * The question texts of one call that differ as sent but are one after normalizeQuestion (`Which
 * tier?` and `which tier.`, `Café` composed and decomposed): each is hashed as sent, or the two
 * would share a decision_id and the second answer would be dropped as a duplicate of the first.
 * The others keep the id of the normalised text. PreToolUse and PostToolUse see the same questions.
 */
function sharingNormalForm(questions: readonly string[]): ReadonlySet<string> {
  const byForm = new Map<string, Set<string>>()
  for (const question of questions) {
    const form = normalizeQuestion(question)
    const texts = byForm.get(form) ?? new Set<string>()
    texts.add(question)
    byForm.set(form, texts)
  }
  return new Set([...byForm.values()].filter((texts) => texts.size > 1).flatMap((texts) => [...texts]))
}

/**
 * The project of a hook event: its `cwd` (NFC, as every identifier), or, past the identifier limit
 * or when it is not a valid identifier (a control character, a lone surrogate, a leading `!`: a
 * store key must not have them), its tail, those characters made U+FFFD, and a hash of the whole.
 * A folder named with white space at its end (`/home/dev/acme `) is one too: the routes that write
 * refuse such a project, and the MCP server's tools, which send this one, failed every call there.
 */
export function projectOf(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined
  const parsed = TrimmedIdentifierSchema.safeParse(cwd)
  if (parsed.success) return parsed.data
  const digest = createHash('sha256').update(cwd).digest('hex').slice(0, 16)
  const tail = cwd
    .normalize('NFC')
    .slice(-(LIMITS.identifierLength - 18))
    .replace(/[\p{Cc}\p{Cs}]/gu, '\uFFFD')
  return `…${tail}#${digest}`
}

/**
 * One answered question of one AskUserQuestion call as an observation; at `point` when given (the
 * point it was planned at, where the options shown would key it to another: pointsMovedByPlan).
 */
function observationOf(
  question: AskUserQuestion,
  answer: string | string[],
  source: ObservationInput['source'],
  toolUseId: string,
  payload: ClaudeCodeHookPayload,
  options: HookOptions,
  shared: ReadonlySet<string>,
  point?: string,
): ObservationInput {
  return {
    ...(point === undefined ? {} : { point }),
    decision_id: hookDecisionId(toolUseId, question.question, false, shared.has(question.question)),
    timestamp: options.at,
    question: question.question,
    header: question.header,
    user_choice: answer,
    all_options: question.options,
    // Left out by the question, it is what the policy says of the point (else, for one label, as the
    // user's latest choice there was asked, as a plan reads the question; else single-select); but
    // several labels answered it, which the question took (choiceOf): said, so that a point the
    // policy makes single-select does not refuse them, and the call's other answers with them.
    multi_select: question.multiSelect ?? (Array.isArray(answer) && answer.length > 1 ? true : undefined),
    user: options.user,
    project: projectOfEvent(payload, options),
    session_id: payload.session_id,
    source,
  }
}

/**
 * The observations of a PostToolUse on AskUserQuestion (R-CAP-5): one per question the user
 * answered, the answer looked up by question text in `tool_response.answers`, else in its mirror
 * `tool_input.answers`; a multi-select answer is split by the known labels, which may contain
 * commas, or given as an array of labels. Questions without an answer give nothing.
 */
export function observationsFromPostToolUse(payload: ClaudeCodeHookPayload, options: HookOptions): ObservationInput[] {
  return answeredQuestions(payload, options).observations
}

/** Where an observation of a PostToolUse came from: its question (`tool_input.questions.1`) and its answer (`tool_response.answers.Q`). */
interface AnswerFields {
  question: string
  answer: string
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * What Claude Code's picker puts in `answers` for a question the user wrote notes on without
 * choosing an option (the notes go in `annotations`): it tells the agent "(no option selected)",
 * and it is no choice of free text either.
 */
const NOTES_ONLY = '(notes only)'

/**
 * How Claude Code says a question went unanswered (`annotations[question].unanswered`, from a
 * client that reports it): the user skipped it, closed the card, or wrote in the chat instead.
 * Its `answers` then holds text for the agent to read, no choice. Any other value is none, as
 * Claude Code reads it.
 */
const UNANSWERED = new Set(['skipped', 'replied_in_chat', 'dismissed'])

function wentUnanswered(container: unknown, question: string): boolean {
  if (!isPlainObject(container) || !isPlainObject(container.annotations)) return false
  const annotation = Object.hasOwn(container.annotations, question) ? container.annotations[question] : undefined
  return isPlainObject(annotation) && typeof annotation.unanswered === 'string' && UNANSWERED.has(annotation.unanswered)
}

/** A value that answers nothing: none, `null`, a blank string, an empty array of labels, notes without a choice. */
function answersNothing(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && (value.trim() === '' || value === NOTES_ONLY)) ||
    (Array.isArray(value) && value.length === 0)
  )
}


/**
 * An answer as the user's choice: the chosen label (a multi-select's joined with ", "), or an
 * array of the chosen labels (one only for a single-select question). Anything else (a number,
 * an object, a blank label, commas alone, two labels for one choice) is not read as a choice: undefined, and
 * the question is skipped, so that one odd answer costs no other answer of the call (the event
 * is recorded; Claude Code sends strings).
 */
function choiceOf(value: unknown, multiSelect: boolean): string | string[] | undefined {
  // Commas alone at a multi-select question join no label: odd, as a blank label is. A join as
  // Claude Code writes it, quotes and all, is read where every choice is (resolveChoice).
  if (typeof value === 'string') return multiSelect && !/[^\s,]/.test(value) ? undefined : value
  if (!Array.isArray(value) || !value.every((label) => typeof label === 'string' && label.trim() !== '')) return undefined
  if (!multiSelect && value.length > 1) return undefined
  return value as string[]
}

/** What an answer is, named for the user: `a number`, `an object`. */
function answerKind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value.trim() === '' ? 'a blank label' : 'a label'
  return typeof value === 'object' ? 'an object' : typeof value === 'boolean' ? `${value}` : `a ${typeof value}`
}

/**
 * Why choiceOf read no choice in an answer given, after the answer's field (`: a number is no
 * label`, an array's item by its place `.1: a blank label`): said to the user, who would never
 * learn it else.
 */
function whyNoChoice(value: unknown): string {
  if (typeof value === 'string') return ': commas alone join no label'
  if (!Array.isArray(value)) return `: ${answerKind(value)} is no label`
  const odd = value.findIndex((label) => typeof label !== 'string' || label.trim() === '')
  if (odd >= 0) return typeof value[odd] === 'string' ? `.${odd}: a blank label` : `.${odd}: ${answerKind(value[odd])} is no label`
  return `: ${value.length} labels for a question of one choice`
}

/**
 * A tool input or response without its questions that are no choice: Claude Code's
 * AskUserQuestion may ask for text or a number (`kind: "text"`, `"number"`, with no options);
 * a question without `kind` (or with a null one), or of kind `choice`, is a choice. `indices` are the choice
 * questions' places as sent, `none` says every question was of another kind.
 */
function choicesOnly(container: unknown, field: string): { value: unknown; indices: number[]; none: boolean } {
  if (!isPlainObject(container) || !Array.isArray(container.questions)) return { value: container, indices: [], none: false }
  // A null kind is none given, as a null optional field is read elsewhere, and "" or "Choice" is
  // "choice" (isChoiceKind): the question is a choice.
  const isChoice = (q: unknown) => !isPlainObject(q) || isChoiceKind(q.kind)
  const all: unknown[] = container.questions
  const indices = all.flatMap((q, i) => (isChoice(q) ? [i] : []))
  if (indices.length === all.length) return { value: container, indices, none: false }
  // Answers are keyed by question text, whatever the kind: a choice question and a text one of the
  // same text share one answer, which neither can be told from (a choice answered for the user was
  // the text question's answer too). Refused as two choice questions of one text are.
  const repeated = repeatedQuestionTexts(all.map((q) => (isPlainObject(q) && typeof q.question === 'string' ? { question: q.question } : null)))
  if (repeated.length > 0) {
    const issues = repeated.map(({ path: [index], message }) => ({ path: `${field}.questions.${index}.question`, message }))
    throw new InputError('invalid_request', `invalid ${field}: ${fieldsOf(issues)}`, { issues })
  }
  return { value: { ...container, questions: indices.map((i) => all[i]) }, indices, none: indices.length === 0 }
}

/** A question of another kind than a choice (`text`, `number`), with its place among the questions as sent. */
export interface OtherKindQuestion {
  index: number
  question: unknown
}

/** The questions of a tool input that are no choice (choicesOnly's `indices` are the others), each with its place. */
function otherKinds(container: unknown, choiceIndices: readonly number[]): OtherKindQuestion[] {
  if (!isPlainObject(container) || !Array.isArray(container.questions)) return []
  const choices = new Set(choiceIndices)
  return container.questions.flatMap((question: unknown, index: number) => (choices.has(index) ? [] : [{ index, question }]))
}

/**
 * The questions to show, with those of another kind (`text`, `number`) put back as they came, in
 * their places as sent: the choice questions still asked fill the places of the ones still asked,
 * in the plan's order; an answered one's place goes, the others close up around it.
 */
function withOtherKinds(input: AskUserQuestionInput, asked: readonly AskUserQuestion[], others: readonly OtherKindQuestion[]): unknown[] {
  if (others.length === 0) return [...asked]
  // input.questions are the choice questions, in their order as sent, between the others.
  const places = choicePlaces(input.questions.length, others)
  const placeOf = new Map(input.questions.map((q, i) => [q.question, places[i] as number]))
  return questionsInPlaces(
    asked.map((q) => ({ place: placeOf.get(q.question) ?? -1, entry: q })),
    others.map((o) => ({ place: o.index, entry: o.question })),
  )
}

/** What `read` gives, a question it refuses named by its place as sent (renumbered). */
function withPlaces<T>(read: () => T, field: string, indices: readonly number[]): T {
  try {
    return read()
  } catch (error) {
    throw renumbered(error, field, indices)
  }
}

/**
 * A tool input or response with its options' descriptions left out: a choice is captured by its
 * labels alone, so a description is neither stored nor checked there. One over the limit (agents
 * write long ones, and Claude Code sets none) cost the whole call's answers, refused for good.
 */
function withoutDescriptions(container: unknown): unknown {
  if (!isPlainObject(container) || !Array.isArray(container.questions)) return container
  const questions = container.questions.map((q: unknown) => {
    if (!isPlainObject(q) || !Array.isArray(q.options)) return q
    const options = q.options.map((o: unknown) => {
      if (!isPlainObject(o) || !Object.hasOwn(o, 'description')) return o
      const { description: _, ...rest } = o
      return rest
    })
    return { ...q, options }
  })
  return { ...container, questions }
}

/**
 * A question of a PostToolUse the service could not take (R-CAP-5): its options refused (two that
 * are one label once normalised, a label over the limit or blank, more options than AskUserQuestion
 * allows), or at PostToolUse its answer given no choice (choiceOf: a number, an object, two labels
 * for one choice). It is skipped, the call's other answers recorded, and said in the hook's answer. At
 * PreToolUse such a question is left as written, unplanned, and said in the reason (R-ASK-4).
 */
interface SkippedQuestion {
  /** Its place as sent: `tool_response.questions.1`. */
  place: number
  /** Its text, when it has one to name it by. */
  text: string | undefined
  /** Why, the fields named as the payload has them: `tool_response.questions.1.options.2: …`. */
  reason: string
  /** The field it is said of: its question (`tool_response.questions.1`) or its answer (`tool_response.answers.Q`). */
  path: string
  /**
   * What a refusal of the call whole says of it (withOthersSkipped), as the route names a field: each
   * issue's own path (`tool_response.questions.1.options.2`, `tool_response.answers.Q.1`) and why,
   * not naming that field again (`a blank label`).
   */
  issues: Issue[]
  /** An answer under a key that names no question of the call (strayAnswers): `text` is that key. */
  stray?: true
}

/** How many of a skipped question's issues its reason names; a question has few. */
const REASONS_NAMED = 3
/** How many characters of a skipped question's text name it in what the user is shown. */
const QUESTION_NAMED = 200

/**
 * A tool input or response without the questions the question schema refuses, each of those said
 * with its issues (the fields named by their places as sent): one question the service cannot take
 * must not cost the others' answers. What is wrong with the whole (no questions, answers that are
 * no object, two questions of one text) is left for the parse to refuse as before.
 */
function withoutRefusedQuestions(container: unknown, field: string, indices: readonly number[]): { value: unknown; indices: number[]; refused: SkippedQuestion[] } {
  if (!isPlainObject(container) || !Array.isArray(container.questions)) return { value: container, indices: [...indices], refused: [] }
  const kept: unknown[] = []
  const keptIndices: number[] = []
  const refused: SkippedQuestion[] = []
  container.questions.forEach((q: unknown, i: number) => {
    const place = indices[i] ?? i
    const result = AskUserQuestionSchema.safeParse(q)
    if (result.success) {
      kept.push(q)
      keptIndices.push(place)
      return
    }
    const found = typeIssuesFirst(result.error.issues).map((issue) => ({ path: [`${field}.questions.${place}`, ...issue.path.map(String)].join('.'), message: missingSaid(issue.message) }))
    const issues = found.map((issue) => `${issue.path}: ${issue.message}`)
    const more = issues.length > REASONS_NAMED ? [`and ${issues.length - REASONS_NAMED} more`] : []
    const text = isPlainObject(q) && typeof q.question === 'string' ? q.question : undefined
    refused.push({ place, text, reason: [...issues.slice(0, REASONS_NAMED), ...more].join(', '), path: `${field}.questions.${place}`, issues: found })
  })
  return { value: { ...container, questions: kept }, indices: keptIndices, refused }
}

/**
 * The observations of a PostToolUse, each with where its question and its answer are in the
 * payload, and the questions it could not take (`skipped`, of the questions it reads the answers
 * by; `refused` says whether any question of either list was refused). `whole`: every question
 * read as before, the first refusal refusing the call, to say why none could be taken.
 */
function answeredQuestions(
  payload: ClaudeCodeHookPayload,
  options: HookOptions,
  whole = false,
): { observations: ObservationInput[]; fields: AnswerFields[]; skipped: SkippedQuestion[]; refused: boolean } {
  const none = { observations: [], fields: [], skipped: [], refused: false }
  const toolUseId = requireToolUseId(payload)
  // Questions that are no choice (a `text` or `number` kind) have no options to learn from: left
  // out, not the whole call refused with the answers of its choice questions.
  const asked = choicesOnly(payload.tool_input, 'tool_input')
  if (asked.none) return none
  // A question the service cannot take is set aside, said, and the others read.
  const askedTaken = whole
    ? { value: withoutDescriptions(asked.value), indices: asked.indices, refused: [] }
    : withoutRefusedQuestions(withoutDescriptions(asked.value), 'tool_input', asked.indices)
  // A tool_response of another shape (a string of text, an array of content blocks, as other
  // tools and Claude Code versions send) holds no questions or answers of ours: the answers are
  // then read from their mirror in tool_input.answers, rather than the whole event refused.
  const returned = choicesOnly(isPlainObject(payload.tool_response) ? payload.tool_response : {}, 'tool_response')
  if (returned.none) return none
  const returnedTaken = whole
    ? { value: withoutDescriptions(returned.value), indices: returned.indices, refused: [] }
    : withoutRefusedQuestions(withoutDescriptions(returned.value), 'tool_response', returned.indices)
  const refusedAny = askedTaken.refused.length > 0 || returnedTaken.refused.length > 0
  // Every question of a list refused: nothing of it to read, and the call is refused as before.
  const emptied = (taken: { value: unknown; refused: SkippedQuestion[] }) =>
    taken.refused.length > 0 && isPlainObject(taken.value) && Array.isArray(taken.value.questions) && taken.value.questions.length === 0
  if (emptied(askedTaken) || emptied(returnedTaken)) return { ...none, refused: true }
  const input = withPlaces(() => parseWith(AskUserQuestionInputSchema, askedTaken.value, 'tool_input'), 'tool_input', askedTaken.indices)
  const response = withPlaces(() => parseWith(AskUserQuestionResponseSchema, returnedTaken.value, 'tool_response'), 'tool_response', returnedTaken.indices)
  const questions = response.questions ?? input.questions
  const from = response.questions === undefined ? 'tool_input' : 'tool_response'
  const at = (response.questions === undefined ? askedTaken : returnedTaken).indices
  const answerIn = (answers: Record<string, unknown> | undefined, question: string) =>
    answers !== undefined && Object.hasOwn(answers, question) ? answers[question] : undefined
  const saidUnanswered = (question: string) => wentUnanswered(payload.tool_response, question) || wentUnanswered(payload.tool_input, question)
  // A question refused that the user did not answer cost nothing: not said.
  const answered = (question: string) =>
    !saidUnanswered(question) && !(answersNothing(answerIn(response.answers, question)) && answersNothing(answerIn(input.answers, question)))
  // One without a text, or a blank one, is said as one without a text was: its answer is keyed by
  // no text that tells it (Claude Code keys answers by the text), and a `""` left with no answer
  // under it was dropped without a word. Not where the call says it went unanswered.
  const said = (s: SkippedQuestion) => (s.text === undefined ? true : s.text.trim() === '' ? !saidUnanswered(s.text) : answered(s.text))
  const skipped = (response.questions === undefined ? askedTaken : returnedTaken).refused.filter(said)
  const observations: ObservationInput[] = []
  const fields: AnswerFields[] = []
  // A question keyed in answers, if by a blank or `(notes only)`, has its key: a stray one is not its answer.
  const keyed = (question: string) => [response.answers, input.answers].some((answers) => answers !== undefined && Object.hasOwn(answers, question))
  // A question tool_response words otherwise than tool_input (Claude Code mirrors them; another
  // client may not), its answer keyed by tool_input's text: the question at the same place in
  // tool_input is the one that key names, and its answer is read as that question's. Read by
  // tool_response's text alone, it was dropped without a word: the key names a question of the
  // call, so no stray answer either. Not where that text is another question's of tool_response,
  // nor where the two list a different number of questions: the places then tell nothing.
  const sentAlike = (container: unknown) => (isPlainObject(container) && Array.isArray(container.questions) ? container.questions.length : -1)
  const sameLength = sentAlike(payload.tool_input) === sentAlike(payload.tool_response)
  const inputAt = new Map(sameLength ? askedTaken.indices.map((place, k) => [place, input.questions[k]]) : [])
  const shownTexts = new Set(questions.map((q) => q.question))
  const read = questions.map((shown, i) => {
    const place = at[i] ?? i
    const mirror = from === 'tool_response' && !keyed(shown.question) && !saidUnanswered(shown.question) ? inputAt.get(place) : undefined
    return mirror !== undefined && !shownTexts.has(mirror.question) && keyed(mirror.question) ? { q: mirror, from: 'tool_input', place } : { q: shown, from, place }
  })
  // Reordered as well as reworded, the question at the same place is another one: tool_input's
  // questions keyed and answered but read nowhere yet are the ones left, and taken as the
  // questions shown with no key, when there are as many of each (one reworded, in another
  // order), each recorded under its own text, the one its answer is keyed by. When there are
  // not (tool_response lists fewer questions), which one was shown is not known: not recorded,
  // and said, where the answer was dropped without a word (its key names a question of the call).
  const readTexts = new Set(read.map(({ q }) => q.question))
  // tool_response's questions as sent, a refused one's too (said as refused, not as answered elsewhere).
  const shownAsSent = new Set(
    isPlainObject(payload.tool_response) && Array.isArray(payload.tool_response.questions)
      ? payload.tool_response.questions.flatMap((q: unknown) => (isPlainObject(q) && typeof q.question === 'string' ? [q.question] : []))
      : [],
  )
  const unkeyed = read.flatMap((r, k) => (r.from === 'tool_response' && !keyed(r.q.question) && !saidUnanswered(r.q.question) ? [k] : []))
  const left = input.questions.flatMap((q, k) =>
    from === 'tool_response' && !shownAsSent.has(q.question) && !readTexts.has(q.question) && keyed(q.question) && answered(q.question) ? [{ q, place: askedTaken.indices[k] ?? k }] : [],
  )
  if (left.length > 0 && left.length === unkeyed.length) unkeyed.forEach((k, j) => void (read[k] = { ...(left[j] as (typeof left)[number]), from: 'tool_input' }))
  else if (!whole) {
    for (const { q, place } of left) {
      const where = answersNothing(answerIn(response.answers, q.question)) ? 'tool_input' : 'tool_response'
      const path = `${where}.answers.${q.question}`
      const message = `its question, tool_input.questions.${place}, is none of tool_response's questions, which word, order or count them otherwise: which of them was shown for it is not known`
      skipped.push({ place: Number.MAX_SAFE_INTEGER, text: q.question, reason: `${where}.answers.${named(q.question)}: ${message}`, path, issues: [{ path, message }] })
    }
  }
  const shared = sharingNormalForm(read.map(({ q }) => q.question))
  let optionsRefused = false
  read.forEach(({ q, from, place }) => {
    // tool_response.answers is the answer; its mirror in tool_input.answers stands in where it
    // answers nothing. An answer there that this service gave itself at PreToolUse has the
    // decision_id of its auto-resolved observation, so it stays a duplicate, as in tool_response.
    // Skipped, dismissed or answered in the chat instead: what answers holds then is text for the agent.
    if (wentUnanswered(payload.tool_response, q.question) || wentUnanswered(payload.tool_input, q.question)) return
    const given = answerIn(response.answers, q.question)
    const [value, where] = answersNothing(given) ? [answerIn(input.answers, q.question), 'tool_input'] : [given, 'tool_response']
    if (answersNothing(value)) return
    const choice = choiceOf(value, q.multiSelect !== false)
    // An answer given that is no choice is skipped, the others recorded, and said: the user would
    // never learn otherwise that it was not recorded. The field is named by the key as sent.
    if (choice === undefined) {
      if (!whole) {
        // `: why`, or `.1: why` of an array's item.
        const why = whyNoChoice(value)
        const [, item = '', message = why] = /^(\.\d+)?: ([^]*)$/.exec(why) ?? []
        const path = `${where}.answers.${q.question}`
        skipped.push({ place, text: q.question, reason: `${where}.answers.${named(q.question)}${why}`, path, issues: [{ path: `${path}${item}`, message }] })
      }
      return
    }
    const observation = observationOf(q, choice, 'user', toolUseId, payload, options, shared)
    const field = { question: `${from}.questions.${place}`, answer: `${where}.answers.${q.question}` }
    // Two options that are one label once normalised (`Unit tests`, `Unit tests (Recommended)`):
    // the memory refuses them, and this question alone is skipped.
    if (!whole) {
      try {
        offeredOptions(observation.all_options)
      } catch (error) {
        if (!(error instanceof InputError)) throw error
        const refusal = namedAsSent(error, [field])
        skipped.push({ place, text: q.question, reason: refusal.message, path: field.question, issues: refusal.issues })
        optionsRefused = true
        return
      }
    }
    observations.push(observation)
    fields.push(field)
  })
  skipped.sort((a, b) => a.place - b.place)
  const asRead = read.map(({ q }) => q)
  if (!whole && asRead.some((q) => !keyed(q.question) && !saidUnanswered(q.question))) {
    skipped.push(...strayAnswers(payload, [response.answers, input.answers], asRead, saidUnanswered))
  }
  return { observations, fields, skipped, refused: refusedAny || optionsRefused }
}

/**
 * The answers of a PostToolUse whose free text (an `Other` answer, or the part of a multi-select
 * answer naming no option) the memory refuses as `POST /v1/observations` refuses a `user_choice`
 * (over the label limit), taken out and said as an answer that is no choice is, the call's others
 * recorded. Stored, such an answer was the one observation `POST /v1/observations` would not take
 * back (an export re-sent), and the MCP tool `record_choice` refuses it too.
 */
function withoutRefusedTexts(
  memory: DecisionMemory,
  observations: readonly ObservationInput[],
  fields: readonly AnswerFields[],
  skipped: readonly SkippedQuestion[],
): { observations: ObservationInput[]; fields: AnswerFields[]; skipped: SkippedQuestion[] } {
  const kept: ObservationInput[] = []
  const keptFields: AnswerFields[] = []
  const said = [...skipped]
  observations.forEach((o, i) => {
    const field = fields[i]
    const why = field === undefined ? undefined : memory.refusedText(o)
    if (field === undefined || why === undefined) {
      kept.push(o)
      if (field !== undefined) keptFields.push(field)
      return
    }
    // `tool_response.answers.Q` as sent: named by the question's start where it is long.
    const where = field.answer.startsWith('tool_input.') ? 'tool_input' : 'tool_response'
    const place = Number(field.question.slice(field.question.lastIndexOf('.') + 1))
    const path = `${where}.answers.${o.question}`
    said.push({ place, text: o.question, reason: `${where}.answers.${named(o.question)}: ${why}`, path, issues: [{ path, message: why }] })
  })
  said.sort((a, b) => a.place - b.place)
  return { observations: kept, fields: keptFields, skipped: said }
}

/**
 * The answers of a PostToolUse under a key that names no question of the call (` Which tier? `
 * spaced, `Café?` decomposed against the question composed), said where a question of the call
 * went without an answer: Claude Code keys an answer by its question's exact text, so such an
 * answer is matched to none (within a call the service tells apart two questions that differ only
 * so, sharingNormalForm), and was dropped without a word. Where every question has its key in
 * `answers` (a blank or `(notes only)` too), a key beside them is no loss: under `-p` the answer this
 * service gave at PreToolUse stays in `answers` while its question is gone from `questions`. Each
 * key once, where it is first found.
 */
function strayAnswers(
  payload: ClaudeCodeHookPayload,
  answers: ReadonlyArray<Record<string, unknown> | undefined>,
  questions: readonly AskUserQuestion[],
  saidUnanswered: (question: string) => boolean,
): SkippedQuestion[] {
  // Every question of the call names its answer, a text or number question's and a refused one's too.
  const texts = new Set<string>()
  for (const container of [payload.tool_input, payload.tool_response]) {
    if (!isPlainObject(container) || !Array.isArray(container.questions)) continue
    for (const q of container.questions) if (isPlainObject(q) && typeof q.question === 'string') texts.add(q.question)
  }
  const spaced = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim()
  const stray: SkippedQuestion[] = []
  const seen = new Set<string>()
  answers.forEach((given, i) => {
    for (const [key, value] of Object.entries(given ?? {})) {
      if (texts.has(key) || seen.has(key) || answersNothing(value) || saidUnanswered(key)) continue
      seen.add(key)
      const near = questions.findIndex((q) => spaced(q.question) === spaced(key))
      const alike = near === -1 ? '' : `: it differs from "${named(questions[near]?.question ?? '')}" in white space or Unicode form, and answers are keyed by the exact text`
      const where = i === 0 ? 'tool_response' : 'tool_input'
      const path = `${where}.answers.${key}`
      const message = `names no question of the call${alike}`
      stray.push({ place: Number.MAX_SAFE_INTEGER, text: key, stray: true, reason: `${where}.answers.${named(key)}: ${message}`, path, issues: [{ path, message }] })
    }
  })
  return stray
}

/**
 * The questions a PostToolUse could not take, but for a key named by no question of the call (see
 * strayAnswers) that holds an answer recorded for this call already: under `-p` the answer this
 * service gave at PreToolUse stays in `answers` while its question leaves `questions`, and it was
 * stored then (auto-resolved, under the decision_id of the call and that text). Beside a question
 * of the call with no key of its own, it was said not recorded, which it was.
 */
async function withoutOwnAnswers(memory: DecisionMemory, user: string, toolUseId: string, skipped: SkippedQuestion[]): Promise<SkippedQuestion[]> {
  const idsOf = (s: SkippedQuestion) => (s.stray === true && s.text !== undefined ? [hookDecisionId(toolUseId, s.text), hookDecisionId(toolUseId, s.text, false, true)] : [])
  const asked = skipped.flatMap(idsOf)
  if (asked.length === 0) return skipped
  const held = await memory.heldDecisionIds(user, asked)
  return skipped.filter((s) => !idsOf(s).some((id) => held.has(id)))
}

/**
 * The refusal of a PostToolUse none of whose answers could be recorded, naming beside the question
 * it refuses (the first whose options are refused) every other question the call could not take,
 * in its message and its issues: an answer over the label limit or no choice, another question's
 * options refused. The call is set aside for a person to read, and that refusal is all they read
 * of it: one fault named alone read as the one thing to mend.
 */
function withOthersSkipped(error: unknown, skipped: readonly SkippedQuestion[]): unknown {
  if (!(error instanceof InputError)) return error
  // The questions the refusal names already, by their place as sent (in tool_input or tool_response) or their answer's field.
  const places = new Set(error.issues.flatMap((issue) => /^tool_(?:input|response)\.questions\.(\d+)(?:\.|$)/.exec(issue.path)?.[1] ?? []).map(Number))
  const namedAlready = (s: SkippedQuestion) =>
    (s.stray !== true && places.has(s.place)) || error.issues.some((issue) => issue.path === s.path || issue.path.startsWith(`${s.path}.`))
  const others = skipped.filter((s) => !namedAlready(s))
  if (others.length === 0) return error
  return new InputError(error.code, `${error.message}; nor could it take ${skippedSaid(others)}`, {
    status: error.status,
    issues: [...error.issues, ...others.flatMap((s) => s.issues)],
  })
}

/**
 * What the user is shown of the questions a PostToolUse could not take while it recorded the
 * others: each question, and why, its fields named as the payload has them.
 */
function skippedMessage(skipped: readonly SkippedQuestion[], othersRecorded: boolean): string {
  const what = skipped.length === 1 ? 'the answer to a question it could not take' : `the answers to ${skipped.length} questions it could not take`
  return withinHookLimit(`decision-memory did not record ${what}${othersRecorded ? ", and recorded the call's other answers" : ''}: ${skippedSaid(skipped)}`)
}

/** The choice questions a PreToolUse left as written, and why: `left as written a question it could not take: "…" (…)`. */
function leftAsWritten(refused: readonly SkippedQuestion[]): string {
  return `left as written ${refused.length === 1 ? 'a question it could not take' : `${refused.length} questions it could not take`}: ${skippedSaid(refused)}`
}

/** A question's text as the user is shown it: one over the limit by its start, the fields named saying where it is. */
function named(text: string): string {
  return characters(text) > QUESTION_NAMED ? `${leadingCharacters(text, QUESTION_NAMED - 1)}…` : text
}

/**
 * Each question skipped, and why: `"Which checks?" (tool_response.questions.1.options.2: …)`; one
 * without a text, or a blank one (`""` named nothing), by its place: `question 1 (…)`.
 */
function skippedSaid(skipped: readonly SkippedQuestion[]): string {
  return skipped
    .map((s) => `${s.stray === true ? `an answer keyed "${named(s.text ?? '')}"` : s.text === undefined || s.text.trim() === '' ? `question ${s.place + 1}` : `"${named(s.text)}"`} (${s.reason})`)
    .join('; ')
}

/** What a call of AskUserQuestion is as a whole, whatever its questions are: 1 to 4 of them, `answers` an object. */
const AskUserQuestionCallSchema = z.looseObject(
  {
    questions: z.array(z.unknown(), { error: wrongTypeSaid(QUESTIONS_TAKE) }).min(1).max(ASK_USER_QUESTION.maxQuestions, { error: countSaid('question', 'questions') }),
    answers: AnswersSchema.optional(),
  },
  { error: wrongTypeSaid(TOOL_INPUT_TAKES) },
)

/**
 * The choice questions of a PreToolUse (choicesOnly) the service can plan, and those it cannot
 * (R-ASK-4): options refused (two that are one label once normalised, a label over the limit or
 * blank, more options than AskUserQuestion allows, a description over the limit). Such a question
 * is left to the user exactly as written, in its place, never answered for them, and said; the
 * others are planned, as at PostToolUse one refused costs the others no answer. What is wrong
 * with the whole call (no questions or too many, `answers` no object, two questions of one text)
 * is left for the parse to refuse as before.
 */
function plannableQuestions(
  toolInput: unknown,
  choices: { value: unknown; indices: number[] },
): { value: unknown; indices: number[]; refused: SkippedQuestion[]; sharing?: string[] } {
  const whole = { value: choices.value, indices: choices.indices, refused: [] }
  if (!AskUserQuestionCallSchema.safeParse(toolInput).success || !isPlainObject(toolInput) || !Array.isArray(toolInput.questions)) return whole
  const texts = toolInput.questions.flatMap((q: unknown) => (isPlainObject(q) && typeof q.question === 'string' ? [{ question: q.question }] : []))
  if (!questionTextsUnique(texts)) return whole
  const taken = withoutRefusedQuestions(choices.value, 'tool_input', choices.indices)
  if (!isPlainObject(taken.value) || !Array.isArray(taken.value.questions)) return taken
  // Two options that are one label once normalised (`Unit tests`, `Unit tests (Recommended)`).
  const kept: unknown[] = []
  const indices: number[] = []
  const refused = [...taken.refused]
  taken.value.questions.forEach((q: unknown, i: number) => {
    const place = taken.indices[i] ?? i
    const question = q as AskUserQuestion
    try {
      offeredOptions(question.options, `tool_input.questions.${place}.options`)
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      const paths = [...new Set(error.issues.map((issue) => issue.path))].join(', ')
      refused.push({ place, text: question.question, reason: `${paths}: ${error.message}`, path: `tool_input.questions.${place}`, issues: error.issues })
      return
    }
    kept.push(q)
    indices.push(place)
  })
  refused.sort((a, b) => a.place - b.place)
  // The texts the PostToolUse keys its answers among (sharingNormalForm): every question of the
  // schema's, the one of two labels that are one left as written included, so that an answer given
  // beside it carries the decision_id of its PostToolUse copy, which stays a duplicate.
  const sharing = (taken.value.questions as AskUserQuestion[]).map((q) => q.question)
  return { value: { ...taken.value, questions: kept }, indices, refused, sharing }
}

/** A field of an observation or a plan named in an error's text: `1.all_options.2`, `timestamp`, `questions.0`. */
const INTERNAL_PATH = /(?<![\w.])(?:(?:\d+\.)?(?:timestamp|started_at|all_options|multiSelect|user_choice)|questions\.\d+)(?:\.[^\s.:,;()"]+)*/g

/**
 * Runs a use case on what a hook payload became, and names the fields of an error it refuses as
 * the payload and the query have them (R-SVC-2): `at`, not `timestamp` or `started_at`;
 * `tool_input.questions.1.options.2`, not `all_options.2` (of the observation `fields` says).
 * Its message and its issues' messages too, so that what is read says what the issues point
 * at; a message that names no field (`options 0 and 2 are both "a"`) is prefixed with the
 * issues' paths, where a plan's names its question (planQuestions).
 */
async function asSent<T>(work: Promise<T>, fields: readonly AnswerFields[] = []): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    throw namedAsSent(error, fields)
  }
}

/** An error of a use case with its fields named as the payload and the query have them (asSent). */
function namedAsSent(error: InputError, fields: readonly AnswerFields[]): InputError {
  const rename = (path: string): string => {
    const match = /^(?:(\d+)\.)?(timestamp|started_at|all_options|multiSelect|user_choice)(\..*)?$/.exec(path)
    if (match === null) return path.startsWith('questions.') ? `tool_input.${path}` : path
    const [, index, field, rest = ''] = match
    if (field === 'timestamp' || field === 'started_at') return 'at'
    const at = fields[Number(index ?? 0)]
    if (at === undefined) return path
    if (field === 'user_choice') return `${at.answer}${rest}`
    return `${at.question}.${field === 'all_options' ? 'options' : field}${rest}`
  }
  // Quoted text (a label, a question) is the caller's own, and left as it is.
  let named = false
  const renameWithin = (text: string): string =>
    text.replace(new RegExp(`"[^"]*"|${INTERNAL_PATH.source}`, 'g'), (found) => {
      if (found.startsWith('"')) return found
      named = true
      return rename(found)
    })
  const issues = error.issues.map((issue) => ({ path: rename(issue.path), message: renameWithin(issue.message) }))
  named = false
  const message = renameWithin(error.message)
  const paths = [...new Set(issues.map((issue) => issue.path))].join(', ')
  return new InputError(error.code, named || paths === '' ? message : `${paths}: ${message}`, { status: error.status, issues })
}

/**
 * The answers this service gives itself, as observations marked `auto-resolved` under the
 * decision_id the PostToolUse copy of the same answer will carry: that copy is then a duplicate,
 * and the memory never counts its own guess as the user's choice (R-CAP-5, R-ASK-4).
 */
export function autoResolvedObservations(
  plan: QuestionPlan,
  payload: ClaudeCodeHookPayload,
  options: HookOptions,
  asked: readonly string[] = plan.questions.map((p) => p.ask_user_question.question),
  moved: ReadonlyMap<string, string> = new Map(),
): ObservationInput[] {
  const toolUseId = requireToolUseId(payload)
  const shared = sharingNormalForm(asked)
  return plan.questions.flatMap((p) => {
    if (p.answer === null) return []
    // A multi-select answer as its labels, not as the join AskUserQuestion reads, which quotes a
    // label holding ", " (`"Lint, format", Unit tests`): the observation is of those labels.
    const labels = Array.isArray(p.recommendation.recommended) ? autoAnswerLabels(p.ask_user_question, p.recommendation) : null
    // Its options are those shown, a required decision's taken out: at the point it was planned at.
    const point = moved.get(p.ask_user_question.question)
    return [observationOf(p.ask_user_question, labels ?? p.answer, 'auto-resolved', toolUseId, payload, options, shared, point)]
  })
}

/**
 * The points of the questions a plan shows with options taken out, by question text, where the
 * options shown key the question to another point than the one it was planned at (movedByPlan).
 */
export function pointsMovedByPlan(plan: QuestionPlan, input: AskUserQuestionInput, policy: CompiledPolicy): Map<string, string> {
  return new Map(movedByPlan(plan, input.questions, policy).map((m) => [m.question, m.point]))
}

/**
 * The user's answers to questions this service had answered itself at PreToolUse, where the user
 * answered otherwise: Claude Code asked them after all (the hook gave up waiting for the service,
 * or another hook answered `ask`). The auto-resolved answer holds the question's decision_id, so
 * the user's would be a duplicate and lost; it is recorded under a decision_id of its own
 * (`hookDecisionId(…, asked)`), idempotent as any other. An answer the same as the auto-resolved
 * one stays a duplicate: the memory cannot tell it from its own guess.
 */
async function answersAskedAfterAll(
  memory: DecisionMemory,
  observations: readonly ObservationInput[],
  duplicates: readonly string[],
  toolUseId: string,
): Promise<ObservationInput[]> {
  const duplicated = new Set(duplicates)
  const asked: ObservationInput[] = []
  for (const o of observations) {
    if (o.decision_id === undefined || !duplicated.has(o.decision_id)) continue
    // Hashed as sent where its question was (sharingNormalForm), so is the id of the user's answer.
    const exact = o.decision_id === hookDecisionId(toolUseId, o.question, false, true)
    if (await memory.answeredOtherwise(o)) asked.push({ ...o, decision_id: hookDecisionId(toolUseId, o.question, true, exact) })
  }
  return asked
}

/** The answers of `tool_input.answers` that answer: a blank one answers nothing, and gives way to the service's. */
function answersGiven(answers: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''),
  )
}

/**
 * The plan without the answers it would give to questions `tool_input.answers` answers already
 * (the agent, or a hook before this one, filled them): that answer is kept, not replaced, and
 * this service neither records it as its own nor says it gave it. Such a question stays out of
 * the picker, as an auto-resolved one does.
 */
export function withAnswersGiven(plan: QuestionPlan, given: Record<string, unknown>): QuestionPlan {
  const filled = answersGiven(given)
  const isGiven = (question: string) => Object.hasOwn(filled, question)
  if (!plan.questions.some((p) => p.answer !== null && isGiven(p.ask_user_question.question))) return plan
  return {
    ...plan,
    questions: plan.questions.map((p) => (p.answer !== null && isGiven(p.ask_user_question.question) ? { ...p, answer: null } : p)),
    answers: Object.fromEntries(Object.entries(plan.answers).filter(([question]) => !isGiven(question))),
  }
}

/** A sentence set inside a longer one (in brackets, before a semicolon): without its full stop. */
function asClause(text: string): string {
  return text.replace(/[.\s]+$/, '')
}

/**
 * Each answer given for the user and what it rests on: their past choices, or, for a point a
 * required decision fixes (R-CON-2), that decision, which no number of choices stands behind.
 * `whose` names the user as the reader knows them: `your` in what the user is shown, `the user's`
 * in what the agent is told (whose past choices are not its own).
 */
function describeAnswers(plan: QuestionPlan, where: string, whose = 'your'): string {
  return plan.questions
    .filter((p) => p.answer !== null)
    .map((p) => {
      const rec = p.recommendation
      const basis = rec.state === 'enforced' ? asClause(disclosureSaid(rec, where)) : `from ${whose} past choices: ${rec.observations} choices, p ${rec.p}`
      return `"${p.ask_user_question.question}" = ${answerSaid(p)} (${basis})`
    })
    .join('; ')
}

/**
 * An answer given for the user, as the reason names it: in quotes, and a multi-select one label by
 * label, each in quotes (`"Lint, format (Recommended)", "Unit tests (Recommended)"`). Its joined
 * form, set in quotes, read `""Lint, format (Recommended)", Unit tests (Recommended)"`, where
 * neither the user nor the agent could tell which labels were chosen.
 */
function answerSaid(p: QuestionPlan['questions'][number]): string {
  const labels = Array.isArray(p.recommendation.recommended) ? autoAnswerLabels(p.ask_user_question, p.recommendation) : null
  return labels === null ? `"${p.answer}"` : labels.map((l) => JSON.stringify(l)).join(', ')
}

/** What the reason says where the questions keep their order and labels (neutral ones). */
const AS_WRITTEN = 'left the questions it asks as written'

/**
 * What was done to the order of the questions still asked, for the reason shown to the user: a
 * likelihood only where the user's own choices are behind the order, else the usual default, said
 * why (too little history, or none of the options offered ever chosen: a `partial` that stands
 * for the static default), and the decision where a required one fixes the answer; nothing, where
 * every question is left as written (neutral: sensitive, or personalization off).
 */
function orderOf(asked: QuestionPlan['questions'], where: string): string {
  const shaped = asked.filter((p) => p.recommendation.strength !== 'neutral').map((p) => p.recommendation)
  // A sensitive question a decision fixes the answer of is still shown as written: nothing put first.
  const required = asked.filter((p) => p.recommendation.state === 'enforced' && p.recommendation.strength !== 'neutral').map((p) => asClause(disclosureSaid(p.recommendation, where)))
  const history = shaped.filter((r) => r.state === 'partial' || r.state === 'sufficient')
  // None of the options offered has a choice behind it: the static default stands in (R-REC-5).
  const unchosen = history.some((r) => r.options.every((o) => o.count === 0))
  // A multi-select question a decision adds an option to keeps the user's own picks (recommended,
  // chosen before, not the decision's): those are put first, the decision's after them.
  const picked = shaped.some((r) => {
    if (r.state !== 'enforced') return false
    const required = new Set(decisionEffects(r).filter((d) => d.effect === 'enforced').flatMap((d) => d.options ?? []))
    return r.options.some((o) => o.recommended && o.count > 0 && !required.has(o.option))
  })
  // Put first by the user's choices: an option recommended that was chosen. A multi-select question
  // whose every option is selected less than half the time recommends none and is shown as written,
  // though its options were chosen: "put first the option you are most likely to pick" said otherwise.
  const byChoices = history.filter((r) => r.options.some((o) => o.recommended && o.count > 0))
  const learned = picked || byChoices.length > 0
  // A set put first is said as options: `put first the option` of Lint and Unit tests read as one of them.
  const likely = byChoices.some((r) => r.options.filter((o) => o.recommended).length > 1) ? 'the options you are most likely to pick' : 'the option you are most likely to pick'
  const defaults = shaped.some((r) => r.state === 'static-default')
  // An advisory decision's option stands in for the static default (R-CON-2): said by its key, as
  // the option's description says it, not as "the usual default" that it replaced (Tier L put
  // first where the policy's default is Tier M).
  const standIns = shaped.filter((r) => r.state === 'static-default' || (history.includes(r) && r.options.every((o) => o.count === 0)))
  // By key, as `GET /v1/decisions` lists them (the store's order): each question's decisions come
  // newest first, and two were said `D-002, D-001`.
  const advising = [...new Set(standIns.flatMap((r) => decisionEffects(r).filter((d) => d.effect === 'static-default').map((d) => d.key)))].sort(compareKeys)
  const usual = standIns.some((r) => !decisionEffects(r).some((d) => d.effect === 'static-default'))
  const theDefault =
    advising.length === 0
      ? 'the usual default'
      : `${usual ? 'the usual default, or ' : ''}the default advisory ${decisionsNamed(advising)} ${agreeing(advising.length, 'gives', 'give')}`
  // Each disclosure reads `required by decision D-050: <rationale>`: said once, after "the option".
  const byDecision = required.map((r) => `the option ${r}`).join('; ')
  if (!learned && !defaults && !unchosen) return required.length > 0 ? `put first ${byDecision}` : AS_WRITTEN
  const why = [
    ...(defaults ? ['there is not yet enough history of your choices'] : []),
    ...(unchosen ? ['you have not yet chosen any of the options offered'] : []),
  ]
  const first = !learned
    ? `${theDefault} (${why.join(', or ')} here)`
    : why.length > 0
      ? `${likely} (${theDefault} where ${why.join(', or where ')})`
      : likely
  return `put first ${required.length > 0 ? `${first} (or ${byDecision})` : first}`
}

/**
 * The questions asked whose every option offered a required decision rules out (R-CON-2): none is
 * recommended, and the question goes to the user as written; said of each, with the decision's
 * disclosure, so that the user and the agent know the options asked cannot be chosen.
 */
function ruledOutQuestions(plan: QuestionPlan, where: string): string[] {
  return everyOptionRuledOut(plan).map((p) => `for "${p.ask_user_question.question}", ${asClause(disclosureSaid(p.recommendation, where))}`)
}

/** The questions asked whose every option shown a required decision rules out. */
function everyOptionRuledOut(plan: QuestionPlan): QuestionPlan['questions'] {
  // Every option shown ruled out, not none recommended: a multi-select question may recommend
  // none of the options a decision leaves (never chosen), and those can still be chosen.
  return plan.questions.filter((p) => {
    if (!p.ask) return false
    const ruled = new Set(rulingOutEffects(p).flatMap((d) => d.options))
    return ruled.size > 0 && p.ask_user_question.options.every((o) => ruled.has(normalizeLabel(o.label)))
  })
}

/**
 * What the agent is to ask again with, where required decisions rule out every option of a
 * question: `an option the decision allows`, or, where several are named (of one question or of
 * several), `an option the decisions allow`.
 */
function optionAllowed(plan: QuestionPlan): string {
  const keys = new Set(everyOptionRuledOut(plan).flatMap(rulingOut))
  return keys.size > 1 ? 'an option the decisions allow' : 'an option the decision allows'
}

/** What the decisions in force did to a recommendation: a recommendation joined with decisions carries their effects (ContractedRecommendation). */
type DecisionEffect = { key: string; effect: string; enforce?: string; options?: readonly string[]; rationale?: string }

function decisionEffects(r: QuestionPlan['questions'][number]['recommendation']): ReadonlyArray<DecisionEffect> {
  return (r as { decisions?: ReadonlyArray<DecisionEffect> }).decisions ?? []
}

/**
 * A recommendation's disclosure as a hook's message says it: a decision's long rationale it quotes
 * after the decision's key (`required by decision D-050: <rationale>`, up to 8,000 characters; or
 * one of several, `ruled out by required decisions D-201: <rationale>; D-202: <rationale>`) is quoted
 * by its start with where the whole is (rationaleQuoted; `where`, the service's address for the
 * command that prints it, serviceUrlPrefix), so that what follows it is still read.
 */
function disclosureSaid(r: QuestionPlan['questions'][number]['recommendation'], where: string): string {
  let said = r.disclosure
  for (const key of new Set(decisionEffects(r).map((d) => d.key))) {
    const rationale = decisionEffects(r).find((d) => d.key === key && d.rationale !== undefined)?.rationale
    if (rationale === undefined || rationale.length <= RATIONALE_QUOTED) continue
    // After its key (a word of its own: not the end of `AD-1`'s for `D-1`), where it ends the
    // disclosure or is followed by the next decision's.
    const quoted = ` ${key}: ${rationale}`
    const at = said.endsWith(quoted) ? said.length - quoted.length : said.indexOf(`${quoted}; `)
    if (at < 0) continue
    said = `${said.slice(0, at)} ${key}: ${rationaleQuoted(key, rationale, where)}${said.slice(at + quoted.length)}`
  }
  return said
}

/**
 * The parts of a plan's messages that may be cut to keep each within what Claude Code shows whole
 * (withinHookLimit): the questions' texts and the decisions' rationales.
 */
function longParts(plan: QuestionPlan, where: string): LongPart[] {
  return plan.questions.flatMap((p) => [
    textPart(p.ask_user_question.question),
    ...decisionEffects(p.recommendation).flatMap((d) => (d.rationale === undefined ? [] : [rationalePart(d.key, d.rationale, where)])),
  ])
}

/**
 * The questions asked because required decisions bound to them contradict each other: whatever is
 * put first, one of them blocks it (R-CON-3), so the user is told, each pair by its keys
 * (`required decisions D-002 and D-001 contradict each other over "Tier L" (the newer, D-002, holds)`).
 * Said from the recommendation's `conflicts`, not its reason: where every option offered is ruled
 * out, that reason says so, which ruledOutQuestions has said already; where the question is asked
 * for another reason (personalization off), that reason is no contradiction.
 */
function contradictedQuestions(plan: QuestionPlan): string[] {
  return plan.questions
    .filter((p) => p.ask)
    .flatMap((p) => decisionConflicts(p.recommendation).map((c) => `for "${p.ask_user_question.question}", ${c.message}`))
}

function decisionConflicts(r: QuestionPlan['questions'][number]['recommendation']): ReadonlyArray<{ message: string }> {
  return (r as { conflicts?: ReadonlyArray<{ message: string }> }).conflicts ?? []
}

/**
 * The questions asked, rather than answered for the user, because an advisory decision advises
 * against the option they would have been answered with: the check's warning, which no check of
 * an answer given for the user would have shown (`advisory decision D-001 advises against "Opus":
 * the user chooses`).
 */
function advisedQuestions(plan: QuestionPlan): string[] {
  // So too an answer a required limit bound to no point blocks (`required decision D-300 blocks "5" …`).
  // Several advisory decisions are `advisory decisions D-001, D-002 advise against …`.
  const held = (reason: string) => /^advisory decisions? /.test(reason) || /^required decision \S+ blocks /.test(reason)
  return plan.questions
    .filter((p) => p.ask && held(p.recommendation.ask_reason))
    .map((p) => `for "${p.ask_user_question.question}", ${p.recommendation.ask_reason}`)
}

/**
 * The required decisions that took options of this question off the offer (R-CON-2), with those
 * options; by key, as `GET /v1/decisions` lists them and the advisory ones are named (orderOf):
 * the recommendation has them newest first, and two were said `D-002, D-001`.
 */
function rulingOutEffects(p: QuestionPlan['questions'][number]): ReadonlyArray<{ key: string; options: readonly string[] }> {
  const effects = decisionEffects(p.recommendation)
  return effects
    .filter((d) => d.effect === 'ruled-out')
    .map((d) => ({ key: d.key, options: d.options ?? [] }))
    .sort((a, b) => compareKeys(a.key, b.key))
}

/** The keys of the required decisions that took options of this question off the offer. */
function rulingOut(p: QuestionPlan['questions'][number]): string[] {
  return rulingOutEffects(p).map((d) => d.key)
}

/**
 * Option labels as the reason lists them: joined with ", ", each in quotes where one of them holds
 * a comma or a semicolon (`"Lint, format"`), which would otherwise read as two options.
 */
function labelList(labels: readonly string[]): string {
  return labels.some((l) => /[,;]/.test(l)) ? labels.map((l) => JSON.stringify(l)).join(', ') : labels.join(', ')
}

/**
 * The options a required decision took out of the questions as asked, with the decisions, for the
 * reason shown to the user (`took out Tier S (ruled out by required decision D-001)`): they left
 * the picker, and the user would otherwise wonder where they went.
 */
function takenOut(plan: QuestionPlan, input: AskUserQuestionInput): string[] {
  return plan.questions.flatMap((p) => {
    const keys = rulingOut(p)
    // A question answered for the user is not shown: what left it is not said either.
    if (keys.length === 0 || !p.ask) return []
    const asked = input.questions.find((q) => q.question === p.ask_user_question.question)
    const shown = new Set(p.ask_user_question.options.map((o) => normalizeLabel(o.label)))
    const gone = (asked?.options ?? []).map((o) => normalizeLabel(o.label)).filter((o) => !shown.has(o))
    if (gone.length === 0 || gone.length === asked?.options.length) return []
    return [`took out ${labelList(gone)} (ruled out by required ${decisionsNamed(keys)})`]
  })
}

/**
 * The options a required decision rules out that a question still asked keeps all the same, for
 * the reason shown to the user: where only one option would be left, the question keeps the
 * others (AskUserQuestion takes no fewer than two), and the user is told which one the decision
 * allows (`only Tier L can be chosen for "…" (required decision D-001 rules out Tier S, Tier M)`).
 */
function keptRuledOut(plan: QuestionPlan): string[] {
  return plan.questions.flatMap((p) => {
    if (!p.ask) return []
    const effects = rulingOutEffects(p)
    const ruled = new Set(effects.flatMap((d) => d.options))
    const labels = p.ask_user_question.options.map((o) => normalizeLabel(o.label))
    const kept = labels.filter((o) => ruled.has(o))
    const allowed = labels.filter((o) => !ruled.has(o))
    if (kept.length === 0 || allowed.length === 0) return []
    const rule = agreeing(effects.length, 'rules', 'rule')
    return [`only ${labelList(allowed)} can be chosen for "${p.ask_user_question.question}" (required ${decisionsNamed(effects.map((d) => d.key))} ${rule} out ${labelList(kept)})`]
  })
}

/**
 * The PreToolUse answer for an AskUserQuestion call (R-ASK-4), or `{}` when it would change
 * nothing (personalization off, or every question neutral and already in order, with no question
 * a required decision rules out every option of, or every question answered in the input already):
 * a `systemMessage` alone there when a question of the call was `refused` (its options), saying
 * which and why.
 *
 * When every question auto-resolves: `allow` with `updatedInput` holding the questions and their
 * `answers`, so the user is not asked. Otherwise `ask` with `updatedInput` holding the questions
 * still to ask, re-ordered and labelled; the auto-resolved ones leave the picker and their answers
 * go in `answers` and in `additionalContext`. Not `allow`: Claude Code treats `allow` with
 * `updatedInput` as "the hook collected the interaction" and runs AskUserQuestion without
 * showing the picker, which would answer nothing (hooks reference, PreToolUse decision control).
 */
export function preToolUseAnswer(
  input: Record<string, unknown> & AskUserQuestionInput,
  plan: QuestionPlan,
  sessionId?: string,
  user = 'default',
  serviceUrl?: string,
  others: readonly OtherKindQuestion[] = [],
  refused: readonly SkippedQuestion[] = [],
): HookAnswer {
  // A command printed runs as printed: the service's address when a new shell would not find it
  // there (serviceUrlPrefix: its origin only, no path, no credentials).
  const where = serviceUrlPrefix(serviceUrl)
  const ruledOut = ruledOutQuestions(plan, where)
  // Nothing to change of the questions planned: the call goes on as the agent wrote it, a question
  // it could not take said all the same, as where none could be planned (answerHook), there being
  // no `ask` to give the reason in: `{}` left the user wondering why their memory did not help.
  const unchanged: HookAnswer = refused.length === 0 ? {} : { systemMessage: withinHookLimit(`decision-memory ${leftAsWritten(refused)}`) }
  // Personalization off turns off what was learned, not the decisions: a question none of whose
  // options a required decision allows is said so all the same.
  if (ruledOut.length === 0 && plan.questions.every((p) => p.recommendation.state === 'personalization-off' && rulingOut(p).length === 0)) return unchanged
  const shown = plan.questions.map((p) => p.ask_user_question)
  const toAsk = plan.questions.filter((p) => p.ask).map((p) => p.ask_user_question)
  const answered = Object.keys(plan.answers).length > 0
  // Asked as written, a question whose every option a required decision rules out is still said so.
  const stillOffered = keptRuledOut(plan)
  if (!answered && ruledOut.length === 0 && stillOffered.length === 0 && isDeepStrictEqual(shown, input.questions)) return unchanged
  // Every question answered already in the input (withAnswersGiven): nothing of this service's to
  // add, but a question it could not take is said, as above: `{}` said nothing of it here alone.
  if (!answered && toAsk.length === 0) return unchanged
  // A command that runs as printed: this checkout's bin by path (the package is on no PATH), the
  // service's address when a new shell would not find it there (only its origin: no path, no
  // credentials), and the user, `default` too: a session id may be several users', and toggle
  // acts for the DECISION_MEMORY_USER of the shell it is run in, which may not be the hook's. An
  // event without a session id it can read (none, `null`, spaced at its ends) was answered for no
  // session: no toggle reaches it, nor the next such event, and `--session ID` sent the user
  // looking for an id that would turn nothing off.
  const askAgain =
    sessionId === undefined
      ? 'Personalization cannot be turned off for this session: the event named no session id decision-memory could read'
      : `To be asked again in this session: ${where}${commandLine(['toggle', ...optionArgs('--session', sessionId), ...optionArgs('--user', user), '--off'])}`
  // Each text within what Claude Code shows whole: its long parts cut, the command kept last.
  const parts = longParts(plan, where)
  const fit = (text: string) => withinHookLimit(text, parts)
  // A question of another kind (text, a number) is still the user's to answer: the picker is shown for it.
  if (toAsk.length === 0 && others.length === 0) {
    const reason = fit(`decision-memory answered for you: ${describeAnswers(plan, where)}. ${askAgain}`)
    return {
      // The reason of an `allow` goes to Claude Code's debug log only (its hooks reference): said as
      // the hook's systemMessage too, or the user would never learn what was answered, nor how to be asked.
      systemMessage: reason,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: reason,
        // The answers the input holds already win: a user's or another hook's is not replaced. A
        // blank one does not: the service answered that question (withAnswersGiven) and says so.
        updatedInput: { ...input, questions: shown, answers: { ...input.answers, ...plan.answers, ...answersGiven(input.answers) } },
      },
    }
  }
  // What the user is told: why the options are in this order (a required decision, where one
  // fixes the answer), and what was answered for them, with how to be asked again.
  const removed = takenOut(plan, input)
  const order = orderOf(plan.questions.filter((p) => p.ask), where)
  // Options taken out: said as well, or alone where the order and the labels stay as written.
  const done = removed.length === 0 ? order : order === AS_WRITTEN ? removed.join('; ') : `${order}, and ${removed.join('; ')}`
  // A choice question it could not take (its options refused) is among `others`, left as written: said, and why.
  const texts = others.length - refused.length
  const leftAlone = refused.length === 0 ? [] : [leftAsWritten(refused)]
  // Every choice answered, only text or number questions left: there is no order of its to tell of.
  const ordered =
    toAsk.length === 0
      ? `decision-memory ${[...(texts > 0 ? [`left to you the ${texts === 1 ? 'question' : 'questions'} asking for text or a number`] : []), ...leftAlone].join(', and ')}`
      : `decision-memory ${done}${leftAlone.map((l) => `. It ${l}`).join('')}`
  const contradicted = contradictedQuestions(plan)
  const advised = advisedQuestions(plan)
  // A question asked to check in (R-ASK-2, after answers given for the user) is said so: asked where
  // it answered before, the user would otherwise not know why.
  const checkingIn = plan.questions.flatMap((p) => {
    const count = p.ask ? checkInCount(p.recommendation.ask_reason) : undefined
    return count === undefined ? [] : [`it asks "${p.ask_user_question.question}" to check in with you, after ${count} ${count === 1 ? 'answer' : 'answers'} it gave for you`]
  })
  const contract =
    // The disclosure ends with the decision's rationale: what follows is a sentence of its own.
    (ruledOut.length === 0 ? '' : `. ${capitalised(ruledOut.join('; '))}. The agent is told to ask again with ${optionAllowed(plan)}`) +
    (stillOffered.length === 0 ? '' : `. ${capitalised(stillOffered.join('; '))}`) +
    (contradicted.length === 0 ? '' : `. ${capitalised(contradicted.join('; '))}`) +
    (advised.length === 0 ? '' : `. ${capitalised(advised.join('; '))}`) +
    (checkingIn.length === 0 ? '' : `. ${capitalised(checkingIn.join('; '))}`)
  // The command to be asked again comes last, so that it is copied as it runs, nothing after it.
  const reason = fit(answered ? `${ordered}${contract}. It answered for you: ${describeAnswers(plan, where)}. ${askAgain}` : `${ordered}${contract}`)
  const forAgent = [
    ...(answered ? [`decision-memory answered these on the user's behalf: ${describeAnswers(plan, where, "the user's")}`] : []),
    ...(ruledOut.length > 0 ? [`decision-memory: ${ruledOut.join('; ')}; ask again with ${optionAllowed(plan)}`] : []),
  ]
  return {
    // Claude Code shows an `ask`'s reason at most on its picker's review screen (2.1.332; a single
    // single-select question skips it, and anthropics/claude-code#17356, #24059, #35324 report it not
    // shown at all): the user might never learn that others were answered for them, nor how to be
    // asked again. A hook's systemMessage is shown.
    // A check-in likewise: the user, answered for at that question until now, is asked it again
    // and would not learn why from the reason. Said before the answers, whose command comes last.
    ...(answered || checkingIn.length > 0 ? { systemMessage: fit(shownToUser(checkingIn, answered ? `answered for you: ${describeAnswers(plan, where)}. ${askAgain}` : undefined)) } : {}),
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: reason,
      updatedInput: {
        ...input,
        questions: withOtherKinds(input, toAsk, others),
        ...(answered ? { answers: { ...input.answers, ...plan.answers, ...answersGiven(input.answers) } } : {}),
      },
      ...(forAgent.length > 0 ? { additionalContext: fit(forAgent.join('. ')) } : {}),
    },
  }
}

/**
 * The `systemMessage` of an `ask`: the questions asked to check in, then what was answered for
 * the user with the command to be asked again, last so that it is copied as it runs.
 */
function shownToUser(checkingIn: readonly string[], answers: string | undefined): string {
  if (checkingIn.length === 0) return `decision-memory ${answers}`
  const checkIn = `decision-memory ${checkingIn.join('; ').replace(/^it /, '')}`
  return answers === undefined ? checkIn : `${checkIn}. It ${answers}`
}

/** What handleClaudeCodeHook answers: what the hook prints, and whether that `{}` is for want of time. */
export interface HookReply {
  answer: HookAnswer
  /**
   * A PreToolUse planned past `answerBy`: its `{}` is no "nothing to change", the sender has let
   * the question through unanswered by then, and the user may be told why their memory did not help.
   */
  late?: true
}

/**
 * Answers one Claude Code hook event (R-CAP-5): captures PostToolUse choices, plans PreToolUse
 * questions, starts sessions; any other event or tool gets `{}`.
 */
export async function handleClaudeCodeHook(memory: DecisionMemory, payload: ClaudeCodeHookPayload, options: HookOptions): Promise<HookReply> {
  const readable = await withReadableSession(memory, options.user, payload)
  // No project named (the sender found no repository): the project of the session, where it was
  // started in one (its SessionStart's cwd), for a cwd that is no folder, or none at all, so that
  // its answers are where the user's others in that folder are, not under none, which a project's
  // own recommendation does not read; and for a cwd in that folder or below it, where Claude Code
  // has followed the agent's cd, as a repository's root keeps the project of a session that moved.
  const session = options.project === undefined && readable.session_id !== undefined ? await memory.sessionProject(options.user, readable.session_id) : undefined
  const cwd = readable.cwd ?? null
  const inSession = typeof session === 'string' && (cwd === null || inProjectFolder(cwd, session)) ? session : undefined
  const answer = await answerHook(memory, readable, inSession === undefined ? options : { ...options, sessionProject: inSession })
  return answer === PLANNED_TOO_LATE ? { answer: {}, late: true } : { answer }
}

/**
 * Whether `folder` is this process's home folder, as folders are compared: the one the MCP server
 * takes no project in (workingProjectOf), homeFolder's (`$HOME`, `%USERPROFILE%` on Windows, the
 * account's own where HOME is unset, empty or relative), as written or as its links lead: the hook
 * sends a cwd reached through a link as the folder it leads to (`/data/dev` for a HOME of
 * `/home/dev`, a link), and a HOME read as written alone kept `~/notes` and `~/scratch` one project.
 */
function isHomeFolder(folder: string): boolean {
  const home = homeFolder()
  // A home that is still no absolute folder (no account entry for this uid, HOME relative) is none.
  if (!isAbsolute(home)) return false
  const compared = comparablePath(folder)
  return compared === comparablePath(home) || compared === comparablePath(realFolder(home))
}

/**
 * A path as folders are compared: NFC, forward slashes, its `.` and `..` segments taken (a cwd
 * `/p/../q` is `/q`, no folder of `/p`'s), none at its end (`/` and `C:/` are then `` and `C:`);
 * one with a drive letter in lower case, as Windows finds `c:\proj` and `C:\Proj` one folder.
 */
function comparablePath(path: string): string {
  const compared = posix.normalize(path.normalize('NFC').replace(/\\/g, '/')).replace(/\/+$/, '')
  return /^[A-Za-z]:(\/|$)/.test(compared) ? compared.toLowerCase() : compared
}

/**
 * Whether `cwd` is the folder `project` names or below it, by whole segments (`/p/docs` is in
 * `/p`, `/p-v2` is not). A project that is no absolute folder (a name sent as `?project=`, one
 * kept by a hash) holds no cwd; nor does a root (`/`, `C:\`), which is every project's folder, nor
 * the home folder, where the MCP server's tools take no project either: every folder of the user's
 * (~/notes, ~/scratch) would be one project. The service's home is the user's where hooks reach it,
 * on the same machine.
 */
export function inProjectFolder(cwd: string, project: string): boolean {
  const folder = comparablePath(project)
  // A root, compared, is `` or `C:`: not absolute, so none.
  if (!folder.startsWith('/') && !/^[A-Za-z]:\//.test(folder)) return false
  if (isHomeFolder(folder)) return false
  const here = comparablePath(cwd)
  return here === folder || here.startsWith(`${folder}/`)
}

/**
 * A payload whose `session_id` is empty, white space alone or spaced (or invisible) at its ends read as one
 * without: no session of that name is started, nor written on its observations, as `POST
 * /v1/sessions` refuses it (a session ` s-1` the hook started was one `PUT
 * /v1/sessions/{id}/personalization` and `toggle --session` refuse to turn off); the event is
 * taken all the same, as a `cwd` that is no identifier still gives a project, so that the user's
 * answers are learned and their Claude Code is never failed for a field it sent. A session the
 * user has stored under that exact id (started so by a version before writes refused it) is the
 * event's, as the toggle reaches it: read as none, its toggle off no longer applied to its events.
 */
async function withReadableSession(memory: DecisionMemory, user: string, payload: ClaudeCodeHookPayload): Promise<ClaudeCodeHookPayload> {
  const id = payload.session_id
  if (id === undefined || (id !== '' && bareName(id) === id)) return payload
  // Stored: its project (null for none) is defined. No new name is written by using it.
  if (id !== '' && (await memory.sessionProject(user, id)) !== undefined) return payload
  const { session_id: _blank, ...rest } = payload
  return rest as ClaudeCodeHookPayload
}

/** What answerHook gives for a PreToolUse planned past `answerBy`. */
const PLANNED_TOO_LATE = Symbol('planned too late')

async function answerHook(memory: DecisionMemory, payload: ClaudeCodeHookPayload, options: HookOptions): Promise<HookAnswer | typeof PLANNED_TOO_LATE> {
  const project = projectOfEvent(payload, options)
  const isQuestion = payload.tool_name === ASK_USER_QUESTION_TOOL
  switch (payload.hook_event_name) {
    case 'SessionStart':
      if (payload.session_id !== undefined) {
        await asSent(memory.startSession({ user: options.user, project, session_id: payload.session_id, started_at: options.at }))
      }
      return {}
    case 'PostToolUse': {
      if (!isQuestion) return {}
      const answered = answeredQuestions(payload, options)
      const { refused } = answered
      const unread = await withoutOwnAnswers(memory, options.user, requireToolUseId(payload), answered.skipped)
      const { observations, fields, skipped } = withoutRefusedTexts(memory, answered.observations, answered.fields, unread)
      if (observations.length === 0) {
        // No answer could be taken for a question refused: the call is refused as before, its
        // fields named, so that the hook keeps it aside for a person to read.
        if (refused) {
          try {
            const read = answeredQuestions(payload, options, true)
            await asSent(memory.observe(read.observations), read.fields)
          } catch (error) {
            throw withOthersSkipped(error, skipped)
          }
        }
        // Only answers that are no choice: the call is valid, nothing to keep aside, but said.
        return skipped.length > 0 ? { systemMessage: skippedMessage(skipped, false) } : {}
      }
      // A question whose options the PreToolUse took out is recorded at the point it planned it at.
      const ids = observations.flatMap((o) => (o.decision_id === undefined ? [] : [o.decision_id]))
      const planned = await memory.plannedPoints(options.user, ids)
      // One asked as a plan showed it, options taken out, that no PreToolUse planned (only the
      // PostToolUse hook installed, as for a Claude Code before 2.1.0, or one past its time): at the
      // point the plan planned it at, as the PreToolUse would have. None keyed by hash reads nothing.
      const unplanned = observations.filter((o) => !planned.has(o.decision_id ?? ''))
      const questions = unplanned.map((o) => ({ question: o.question, header: o.header, options: o.all_options }))
      const shown = questions.length === 0 ? new Map<string, string>() : await plannedPointsOfShown(memory, options.user, questions)
      const placed =
        planned.size === 0 && shown.size === 0
          ? observations
          : observations.map((o) => withPoint(o, planned.get(o.decision_id ?? '') ?? shown.get(o.question)))
      const { duplicates } = await asSent(memory.observe(placed), fields)
      const asked = await answersAskedAfterAll(memory, placed, duplicates, requireToolUseId(payload))
      if (asked.length > 0) await asSent(memory.observe(asked))
      // Stored (or stored already): the points are used. A retry is a duplicate wherever it is keyed.
      if (planned.size > 0) await memory.dropPlannedPoints(options.user, [...planned.keys()])
      // The questions it could not take are said to the user; the others' answers are recorded.
      return skipped.length > 0 ? { systemMessage: skippedMessage(skipped, true) } : {}
    }
    case 'PreToolUse': {
      if (!isQuestion) return {}
      requireToolUseId(payload)
      // Questions that ask for text or a number have no options to recommend: the choice questions
      // beside them are planned, and they are left to the user as written, where they were.
      const choices = choicesOnly(payload.tool_input, 'tool_input')
      if (choices.none) return {}
      // The path in the repository, so that decisions scoped to it apply (R-CON-4); the choices
      // captured carry no context, so it decides no precondition and splits no evidence.
      const path = pathInProject(payload, options)
      // A question the service cannot take is left as written, in its place, and said; the others planned.
      const taken = plannableQuestions(payload.tool_input, choices)
      // None to plan: the call goes on as the agent wrote it, as one that changes nothing does, but
      // said, as a question refused beside others it plans is: with no `ask`, there is no reason to
      // say it in, and `{}` left the user wondering why their memory did not help.
      if (taken.indices.length === 0 && taken.refused.length > 0) return { systemMessage: withinHookLimit(`decision-memory ${leftAsWritten(taken.refused)}`) }
      const { input, plan, shown } = await inPlaces(taken.indices, async () => {
        const input = parseWith(AskUserQuestionInputSchema, taken.value, 'tool_input')
        // A question keyed by hash asked as `POST /v1/plan` or `plan_questions` showed it, options
        // taken out: planned at the point that plan planned it at, not the one the options left key it to.
        const shown = await plannedPointsOfShown(memory, options.user, input.questions)
        const plan = await asSent(
          planQuestions(
            memory,
            {
              user: options.user,
              project,
              session_id: payload.session_id,
              questions: input.questions,
              ...(path === undefined ? {} : { context: { path } }),
            },
            shown,
          ),
        )
        return { input, plan, shown }
      })
      // Planned past the time the hook waits: the answer reaches no one, and the user is asked.
      // Recorded, the answers it would have given would stand for what the user then chose: a
      // duplicate of the same answer (theirs lost as evidence), or a second, contrary one.
      if (options.answerBy !== undefined && memory.clock.now().getTime() > options.answerBy) return PLANNED_TOO_LATE
      const planned = withAnswersGiven(plan, input.answers ?? {})
      // Options taken out of a question keyed by hash, here or by the plan that showed it so: where it
      // was planned is remembered for its answer, which will carry only the options shown. Nothing is
      // written for any other question.
      const moved = new Map([...shown, ...pointsMovedByPlan(planned, input, memory.policy)])
      if (moved.size > 0) {
        const asked = taken.sharing ?? planned.questions.map((p) => p.ask_user_question.question)
        await memory.rememberPlannedPoints(options.user, plannedPointsById(moved, requireToolUseId(payload), asked))
      }
      const auto = autoResolvedObservations(planned, payload, options, taken.sharing, moved)
      if (auto.length > 0) await asSent(memory.observe(auto))
      const others = otherKinds(payload.tool_input, taken.indices)
      return preToolUseAnswer(input, planned, payload.session_id, options.user, options.serviceUrl, others, taken.refused)
    }
    default:
      return {}
  }
}

/** An observation at `point`, when one is given. */
function withPoint(observation: ObservationInput, point: string | undefined): ObservationInput {
  return point === undefined ? observation : { ...observation, point }
}

/**
 * The points of pointsMovedByPlan by the decision_id each question's answer will carry, the same at
 * PreToolUse and PostToolUse (hookDecisionId; `asked`: the texts it keys them among, sharingNormalForm).
 */
function plannedPointsById(moved: ReadonlyMap<string, string>, toolUseId: string, asked: readonly string[]): PlannedPoint[] {
  const shared = sharingNormalForm(asked)
  return [...moved].map(([question, point]) => ({ decision_id: hookDecisionId(toolUseId, question, false, shared.has(question)), point }))
}

/**
 * Runs work on the choice questions of a tool input (choicesOnly), naming a question an error
 * refuses by its place as sent (`tool_input.questions.2`, not `.1` where a text question came
 * before it).
 */
async function inPlaces<T>(indices: readonly number[], work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw renumbered(error, 'tool_input', indices)
  }
}

/**
 * An error naming `field.questions.N` of the choice questions alone (choicesOnly) as it names the
 * question sent at `indices[N]`, in its issues and its message alike; quoted text is the caller's
 * own, left as it is.
 */
function renumbered(error: unknown, field: string, indices: readonly number[]): unknown {
  if (!(error instanceof InputError) || indices.every((at, i) => at === i)) return error
  const pattern = new RegExp(`"[^"]*"|\\b${field}\\.questions\\.(\\d+)`, 'g')
  const renumber = (text: string) =>
    text.replace(pattern, (found, n: string | undefined) => (n === undefined ? found : `${field}.questions.${indices[Number(n)] ?? n}`))
  return new InputError(error.code, renumber(error.message), {
    status: error.status,
    issues: error.issues.map((issue) => ({ path: renumber(issue.path), message: renumber(issue.message) })),
  })
}

/** A sentence's first letter in capitals. */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
