import { characters, leadingCharacters } from './limits'
import { shownText } from './shown-text'

/**
 * Zod's issues without those that follow a wrong type at the same path. Zod 4 runs a length
 * check on any value that has a length, so a string sent for an array (`"questions": "[…]"`)
 * also gets a text's length limit (`at most 20 characters, not 85`), a limit no field has: only the
 * type is wrong, and saying so once names the field clearly (R-SVC-2).
 */
export function typeIssuesFirst<T extends { code: string; path: readonly PropertyKey[] }>(issues: readonly T[]): T[] {
  const key = (path: readonly PropertyKey[]) => JSON.stringify(path.map(String))
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => key(i.path)))
  return issues.filter((i) => i.code === 'invalid_type' || !wrongType.has(key(i.path)))
}

/**
 * A field not sent, said so: zod's `Invalid input: expected string, received undefined` for a
 * required field left out (JSON has no undefined: only a field missing reads so) becomes
 * `missing: expected string`.
 */
export function missingSaid(message: string): string {
  return message.replace(/^Invalid input: (expected .+), received undefined$/, 'missing: $1')
}

/**
 * zod's message for an issue of `input` at `path`, a field left out said `missing: expected …`
 * whatever it takes: a string's `received undefined` (missingSaid), and a field of a few values (an
 * enum, a literal), whose issue carries no input and reads `Invalid option: expected one of …` as
 * for a value sent wrong, when `input` has no such field though it has the object to hold it. An
 * enum's values are listed as oneOfSaid lists them for a value sent wrong, `missing: one of
 * "must", "must_not", "prefer", "limit"`, not in zod's `expected one of "must"|"must_not"|…`.
 */
export function missingSaidOf(issue: { code: string; message: string; values?: readonly unknown[] }, path: readonly PropertyKey[], input: unknown): string {
  if (issue.code === 'invalid_value' && leftOut(input, path)) {
    if (issue.values !== undefined && issue.values.length > 1 && issue.message.startsWith('Invalid option: ')) return `missing: one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    return issue.message.replace(/^Invalid (option|input): /, 'missing: ')
  }
  return missingSaid(issue.message)
}

/** Whether the field at `path` is not in `input`, though the object that would hold it is. */
function leftOut(input: unknown, path: readonly PropertyKey[]): boolean {
  let holder = input
  for (const key of path.slice(0, -1)) {
    if (typeof holder !== 'object' || holder === null) return false
    holder = (holder as Record<PropertyKey, unknown>)[key]
  }
  const last = path.at(-1)
  return last !== undefined && typeof holder === 'object' && holder !== null && (holder as Record<PropertyKey, unknown>)[last] === undefined
}

/** A JSON value's type as a message names it: `null`, `a number`, `an array`, `an object`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * The `error` of a field whose refusals say in the service's words what it takes (a decision's
 * `date`, a key, a question's text, a name): a value of another JSON type is told those words
 * too, and what it was (`a date YYYY-MM-DD …, not null`), where zod's `Invalid input: expected
 * string, received null` was the only refusal of the field not in them. `ofNull`, said after a
 * null: how to say what null meant. A field left out is left to zod's issue, which missingSaid
 * reads. Given to a union (`user_choice`: a label or an array of them), it says its words when no
 * branch takes the value's type; one that does (an object with a label of the wrong type) is left
 * to that branch's issues, which issuesOf names.
 */
export function wrongTypeSaid(words: string, ofNull?: string) {
  return (issue: { code?: string; input?: unknown; expected?: unknown; errors?: ReadonlyArray<ReadonlyArray<{ code: string; path: readonly PropertyKey[] }>> }): string | undefined => {
    if (issue.input === undefined || !(issue.code === 'invalid_type' || (issue.code === 'invalid_union' && noBranchTakes(issue.errors)))) return undefined
    // A whole-number field (`.int()`) given a fraction is given a number: said as the number it is,
    // `…, not 2.5`, as a policy's is, not `…, not a number`, the very type it takes.
    const sent = issue.expected === 'int' && typeof issue.input === 'number' ? String(issue.input) : jsonTypeOf(issue.input)
    return `${words}, not ${sent}${issue.input === null && ofNull !== undefined ? `: ${ofNull}` : ''}`
  }
}

/** Whether each branch of a union refused the value's type at its root (none was of its type). */
function noBranchTakes(branches: ReadonlyArray<ReadonlyArray<{ code: string; path: readonly PropertyKey[] }>> | undefined): boolean {
  return branches !== undefined && branches.length > 0 && branches.every((branch) => branch.some((i) => i.code === 'invalid_type' && i.path.length === 0))
}

/**
 * What a field of a few values (an enum) takes, and what was sent, in the service's words as
 * wrongTypeSaid says a type: `one of "required", "advisory", not "must"`, a value of another JSON
 * type by its type (`…, not a number`). Zod said `Invalid option: expected one of
 * "required"|"advisory"` alike for both, naming neither what was sent. A field left out is left to
 * zod's issue, which missingSaidOf says `missing: one of …`.
 */
export function oneOfSaid(issue: { code?: string; input?: unknown; values?: readonly unknown[] }): string | undefined {
  if (issue.input === undefined || issue.code !== 'invalid_value' || issue.values === undefined) return undefined
  return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, not ${sentOf(issue.input)}`
}

/**
 * The `error` of a text's length limit, said as wrongTypeSaid says a type: `at most 120
 * characters, not 131`, where zod said `Too big: expected string to have <=120 characters`, not
 * how long the text sent was. Counted as zod counts, in code points (characters).
 */
export function atMostSaid(issue: { code?: string; input?: unknown; maximum?: unknown }): string | undefined {
  if (issue.code !== 'too_big' || typeof issue.input !== 'string' || typeof issue.maximum !== 'number') return undefined
  return `at most ${issue.maximum} characters, not ${characters(issue.input)}`
}

/** `1 character`, `120 characters`: a count and its noun. */
function counted(count: number | bigint, [one, many]: readonly [string, string]): string {
  return `${count} ${Number(count) === 1 ? one : many}`
}

/** The nouns a length limit counts in by default: a text's characters, an array's items. */
const CHARACTERS = ['character', 'characters'] as const
const ITEMS = ['item', 'items'] as const

/**
 * A length or range limit said as wrongTypeSaid says a type: what the field takes and what was
 * sent, `at most 300 characters, not 412`, `at most 20 items, not 21` (`at most 4 questions, not
 * 5` where the array's items are given their name, countSaid), `at least 1, not 0`, `above 0, not
 * 0`; a text or an array that must have something, `must not be empty`, as an empty policy rule
 * and key are told. Zod said `Too big: expected string to have <=300 characters`, `Too small:
 * expected array to have >=1 items`, `Too small: expected number to be >=1`, naming neither what
 * was sent. Texts are counted as zod counts them, in code points (characters). Any other issue
 * (a date's range) is left to zod; an exact length is said `exactly 64 characters, not 63`.
 */
export function boundSaid(issue: { code?: string; input?: unknown; minimum?: unknown; maximum?: unknown; inclusive?: unknown; exact?: unknown }, items: readonly [string, string] = ITEMS): string | undefined {
  if (issue.code !== 'too_big' && issue.code !== 'too_small') return undefined
  const small = issue.code === 'too_small'
  const bound = small ? issue.minimum : issue.maximum
  if (typeof bound !== 'number' && typeof bound !== 'bigint') return undefined
  const { input } = issue
  if (typeof input === 'string' || Array.isArray(input)) {
    if (small && Number(bound) === 1 && issue.exact !== true) return 'must not be empty'
    const limit = issue.exact === true ? 'exactly' : small ? 'at least' : 'at most'
    return typeof input === 'string' ? `${limit} ${counted(bound, CHARACTERS)}, not ${characters(input)}` : `${limit} ${counted(bound, items)}, not ${input.length}`
  }
  if (typeof input !== 'number' && typeof input !== 'bigint') return undefined
  const strict = issue.inclusive === false
  return `${small ? (strict ? 'above' : 'at least') : strict ? 'below' : 'at most'} ${bound}, not ${String(input)}`
}

/** The `error` of an array's length limit whose items have a name: `at most 4 questions, not 5`. */
export function countSaid(one: string, many: string) {
  return (issue: Parameters<typeof boundSaid>[0]): string | undefined => (Array.isArray(issue.input) ? boundSaid(issue, [one, many]) : undefined)
}

/** How long a text sent is quoted in a message, in characters, before it is cut. */
const SHOWN_VALUE_LENGTH = 100

/**
 * A value sent as a message names it: text quoted as JSON (cut, with its length, when long), any
 * other by its type. JSON's quoting escapes C0 controls and lone surrogates but leaves DEL, C1
 * (CSI) and the bidirectional overrides as they are, which a terminal would run or reorder where
 * a message is shown (the hook's stderr, a log line read with `cat`): shownText writes those as
 * `\u202e` too.
 */
export function sentOf(value: unknown): string {
  if (typeof value !== 'string') return jsonTypeOf(value)
  const length = characters(value)
  if (length <= SHOWN_VALUE_LENGTH) return shownText(JSON.stringify(value))
  return `${shownText(JSON.stringify(leadingCharacters(value, SHOWN_VALUE_LENGTH))).slice(0, -1)}…" (${length} characters)`
}
