import { isDeepStrictEqual } from 'node:util'
import { fieldNestedPast } from '../domain/json-depth'
import { LIMITS } from '../domain/limits'

/**
 * What the service never reads of an option at PostToolUse (src/integrations/claude-code.ts: a
 * choice is captured by its labels, descriptions dropped before they are checked), and what Claude
 * Code may make long: a `preview` is a mockup or a code snippet, a `description` what the agent wrote.
 */
const UNREAD_OPTION_FIELDS = ['preview', 'description']

/**
 * What the service never reads of an answer's `annotations` (it reads `unanswered` alone): the
 * selected option's `preview` again, and the user's `notes`.
 */
const UNREAD_ANNOTATION_FIELDS = ['preview', 'notes']

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An object without `fields`, its other keys in their order; anything else as it is. */
function without(value: unknown, fields: readonly string[]): unknown {
  if (!isPlainObject(value) || !fields.some((field) => Object.hasOwn(value, field))) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !fields.includes(key)))
}

/** A tool_input or tool_response of AskUserQuestion without what the service never reads of it. */
function withoutUnread(container: unknown): unknown {
  if (!isPlainObject(container)) return container
  const out = { ...container }
  if (Array.isArray(container.questions)) {
    out.questions = container.questions.map((q: unknown) =>
      isPlainObject(q) && Array.isArray(q.options) ? { ...q, options: q.options.map((o: unknown) => without(o, UNREAD_OPTION_FIELDS)) } : q,
    )
  }
  if (isPlainObject(container.annotations)) {
    out.annotations = Object.fromEntries(Object.entries(container.annotations).map(([question, a]) => [question, without(a, UNREAD_ANNOTATION_FIELDS)]))
  }
  return out
}

/**
 * The body the hook sends for a payload: the payload as Claude Code wrote it, but for a PostToolUse
 * of AskUserQuestion over the service's body limit (options with large previews, carried twice, in
 * tool_input and in tool_response), which the service refused 413 and the hook set aside, its
 * answers never recorded: that one goes without what the service never reads of it, every field it
 * reads (questions, headers, labels, answers, `annotations[question].unanswered`) as sent; still
 * over it, without the mirror's copies of tool_response's answers too (withoutMirroredAnswers). A
 * PreToolUse is never cut: the service echoes its questions, previews and all, in `updatedInput`,
 * and Claude Code refuses one whose questions shown differ from the original.
 */
export function hookBody(payload: unknown): string {
  const body = JSON.stringify(payload)
  if (Buffer.byteLength(body, 'utf8') <= LIMITS.bodyBytes || !isPlainObject(payload)) return body
  if (payload.hook_event_name !== 'PostToolUse' || payload.tool_name !== 'AskUserQuestion') return body
  const stripped = { ...payload, tool_input: withoutUnread(payload.tool_input), tool_response: withoutUnread(payload.tool_response) }
  const lighter = JSON.stringify(stripped)
  if (Buffer.byteLength(lighter, 'utf8') <= LIMITS.bodyBytes) return lighter
  // Still over it: an `Other` answer pasted long is carried twice too, in the mirror.
  return JSON.stringify({ ...stripped, tool_input: withoutMirroredAnswers(stripped.tool_input, stripped.tool_response) })
}

/**
 * A tool_input without the answers of its `answers` that tool_response's `answers` holds the same
 * under the same key. The service reads the mirror only where tool_response's answer answers
 * nothing, which a copy of it answers no better, and looks for a key in either (a stray key, one
 * answering a question): the same key is found in tool_response. So nothing it reads changes, and
 * an answer of the mirror's own (one tool_response lacks, or holds otherwise) goes as sent.
 */
function withoutMirroredAnswers(input: unknown, response: unknown): unknown {
  if (!isPlainObject(input) || !isPlainObject(input.answers) || !isPlainObject(response) || !isPlainObject(response.answers)) return input
  const answered = response.answers
  const own = Object.entries(input.answers).filter(([key, value]) => !(Object.hasOwn(answered, key) && isDeepStrictEqual(answered[key], value)))
  return { ...input, answers: Object.fromEntries(own) }
}

/**
 * The field of a payload that nests arrays and objects deeper than the service takes (the payload
 * is the first level, as the service counts it), else undefined. The service refuses such a
 * payload for good (400), and one nested thousands deep is no body the hook can send, nor a line it
 * can spool: JSON.stringify, being recursive, overflows the stack on it.
 */
export function fieldNestedTooDeep(payload: unknown): string | undefined {
  return fieldNestedPast(payload, LIMITS.nesting, '(payload)')
}
