import { createHash } from 'node:crypto'
import { normalizeLabel } from './labels'
import type { CompiledPolicy } from './policy'

/** Question text as keyed: lower-cased, white space collapsed, trailing punctuation dropped (R-CAP-4). */
export function normalizeQuestion(question: string): string {
  return question
    .normalize('NFC')
    .toLocaleLowerCase('en')
    // Again: a letter lowered may compose with a mark after it where its capital did not (`Ϊ́`,
    // U+03AA U+0301, lowers to `ΐ`, which is `ΐ`, U+0390): the key of a question normalised twice
    // was not the key of the question.
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim()
    // ASCII marks and their full-width and ideographic forms (`？`, `。`, `、`), which end CJK
    // questions; the Arabic ones (`؟`, `،`, `؛`, `۔`) and the Devanagari danda (`।`, `॥`); and the
    // invisible marks a right-to-left text may end in after them (RLM, LRM, ALM, zero-width space,
    // word joiner), which would otherwise keep the mark before them.
    .replace(/[\s?!.:;,…？！。．：；，、｡､‽⁇⁈⁉؟،؛۔।॥\u200b\u200e\u200f\u061c\u2060]+$/u, '')
}

/** The stable key of a question that neither names a point nor matches a policy rule. */
export function hashPointKey(question: string, options: readonly string[]): string {
  return hashNormalized(normalizeQuestion(question), options)
}

function hashNormalized(question: string, options: readonly string[]): string {
  const labels = options.map((o) => normalizeLabel(o)).sort()
  const digest = createHash('sha256').update(JSON.stringify([question, labels])).digest('hex')
  return `q-${digest.slice(0, 20)}`
}

/**
 * The decision point key (R-CAP-4): `point` when given; else the first policy point whose rule
 * matches the header or question; else a hash of the question and the sorted option labels.
 */
export function decisionPointKey(
  input: { point?: string | undefined; header?: string | undefined; question: string; options: readonly string[] },
  policy: CompiledPolicy,
): string {
  if (input.point !== undefined && input.point !== '') return input.point
  const normalized = normalizeQuestion(input.question)
  return matchingRule(input, normalized, policy)?.key ?? hashNormalized(normalized, input.options)
}

/** The first policy point whose rule matches the header or the question. */
function matchingRule(input: { header?: string | undefined; question: string }, normalized: string, policy: CompiledPolicy) {
  if (policy.compiledPoints.length === 0) return undefined
  // A rule sees the text as it is keyed, so that two spaces, a non-breaking one or a trailing
  // space miss no rule the same question singly spaced fits; and as it was sent, so that a rule
  // naming what the key drops (a trailing `?`) still fits. Normalised once, not once per rule.
  // And as sent with its white space one space and none at its ends, as the rule's own is read:
  // `next step\?$` fitted neither `What is the next  step?` nor `… next step? ` (the key drops the
  // `?`, and the text as sent has the two spaces, or the one after it). Tried only when it differs.
  const sent = (text: string) => {
    const spaced = text.normalize('NFC').replace(/\s+/g, ' ').trim()
    return spaced === text ? [text] : [text, spaced]
  }
  const header = input.header === undefined ? undefined : [normalizeQuestion(input.header), ...sent(input.header)]
  const question = [normalized, ...sent(input.question)]
  const fits = (rule: RegExp | undefined, texts: readonly string[] | undefined) =>
    rule !== undefined && texts !== undefined && texts.some((text) => rule.test(text))
  return policy.compiledPoints.find((rule) => fits(rule.header, header) || fits(rule.question, question))
}

/** The policy's entry for a point key, if it names one. */
export function pointPolicy(key: string, policy: CompiledPolicy) {
  return policy.compiledPoints.find((p) => p.key === key)
}

/**
 * What several answers sent without `multi_select` at a point the policy makes single-select (its
 * `multi_select: false`) are told, by capture (`user_choice`) and by a check (`choice`) alike:
 * the policy's is the point's where a request does not say, and the way out is to say it.
 */
export function singleSelectByPolicy(point: string, choices: readonly string[]): string {
  const several = `not ${choices.length} (${choices.map((c) => JSON.stringify(c)).join(', ')})`
  return `${point} is single-select (its policy's multi_select is false): give one label, ${several}, or multi_select true for a question asked multi-select`
}

/**
 * The policy's entry a question at a point follows: its point's; else, at a point the request
 * named that the policy does not (`"point": "tier"`, as in R-REC's example), the entry whose rule
 * matches the question's header or text, as it would have without the name. Named, a tier question
 * kept its own key but lost what the policy says of tier questions: its static default (Tier S,
 * the first option, where the policy says Tier M), precondition, always_ask and multi_select.
 */
export function pointRule(input: { key: string; header?: string | undefined; question: string }, policy: CompiledPolicy) {
  return pointPolicy(input.key, policy) ?? matchingRule(input, normalizeQuestion(input.question), policy)
}

/**
 * Whether a question touches a sensitive subject, where recommendations stay neutral and the
 * question is always asked (R-REC-6, R-ASK-2): a term in its text, its header, its point's key, or any offered
 * option's label (`Keep production data` makes the question about production data, however it is
 * worded), with the pattern the policy compiled once. Not in an option's description: agents
 * describe ordinary options with such words (`Opus: best for security reviews`), and a model or
 * effort question would then never be personalised.
 */
export function isSensitive(
  input: {
    question: string
    header?: string | undefined
    key: string
    options?: ReadonlyArray<{ option: string; description?: string | undefined }> | undefined
  },
  policy: CompiledPolicy,
): boolean {
  if (pointRule(input, policy)?.sensitive === true) return true
  const pattern = policy.sensitivePattern
  if (pattern === null) return false
  // In NFC, as the terms are compiled: a question typed with combining accents is the same question.
  const names = (text: string | undefined) => text !== undefined && pattern.test(text.normalize('NFC'))
  // The point's key too: an agent that names its point `security-review` asks a security question,
  // however its text is worded (`Who reviews this change?`).
  return names(input.question) || names(input.header) || names(input.key) || (input.options?.some((o) => names(o.option)) ?? false)
}
