import { z } from './zod'
import { fieldsOf, InputError, type Issue } from './errors'
import { characters, LIMITS } from './limits'
import { isWithinLabelLength, LABEL_LENGTH_WORDS, labelOverSentLengthSaid, labelTooLongSaid } from './labels'
import { bareEnds, bareName, INVISIBLE, VARIATION_SELECTORS, WHITE_SPACE } from './name-ends'
import { countSaid, oneOfSaid, wrongTypeSaid } from './zod-issues'

export { bareName, INVISIBLE, VARIATION_SELECTORS, WHITE_SPACE } from './name-ends'

/**
 * Text that UTF-8 keeps as it is: no lone surrogate (a pair is one code point). A refinement, not a
 * regex: a pattern with `\p{Cs}` needs the `u` flag, which the schemas we publish cannot carry.
 * isWellFormed (Node 20), not `/\p{Cs}/u`: it runs on every text of every observation and
 * recommendation, and costs a tenth of the regex (11 ns a short string, where the regex took 105).
 */
export const hasNoLoneSurrogate = (text: string) => text.isWellFormed()

/** What text with a lone surrogate is told, as a decision_id is (a name is told of control characters too). */
export const LONE_SURROGATES = 'must not contain lone surrogates'

/**
 * Text of a request that is stored, matched or sent back (a question, a label, a header, a
 * context value, a decision's texts): no lone surrogate, as a name has none. JSON carries one
 * (`"\ud800"`, which Python's json.dumps writes for a lone surrogate in a str), and it was taken
 * where names refused it; a log line or a client reading UTF-8 has U+FFFD in its place, so what
 * it read back was not what was sent. One isWellFormed per string.
 */
export const wellFormed = <T extends z.ZodString>(text: T): T => text.refine(hasNoLoneSurrogate, LONE_SURROGATES) as T

/** `.` or `..`: a path segment that URLs remove (the CLI and the routes refuse them as names). */
const isDotSegment = (name: string) => name === '.' || name === '..'

// The patterns below are what the OpenAPI document and the MCP tools' input schemas say, so that a
// client checking against them refuses what the service would. Written without `\p{…}`, the `u`
// flag and lookarounds, with characters as `\uXXXX`: Python's jsonschema reads them as AJV does
// (its `re` refuses `\p{Cc}`), and a JavaScript client without the flag would read `\p` as a `p`.
// Go's RE2 does not read them: it has no `\uXXXX` escape (nor lookarounds).

/** C0 and C1 controls, exactly Unicode's Cc, as the body of a character class. */
export const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f'

/** A JSON Schema pattern (unanchored) for text the service trims and then wants non-empty: something besides white space. */
export const NOT_BLANK_PATTERN = `[^${WHITE_SPACE}]`

/** What trimmed text that is left empty is told: white space alone is no text. */
const BLANK = 'must not be empty or white space alone'

/**
 * What a field of text, a name, a label or a flag takes, said to a value of another JSON type
 * (wrongTypeSaid): `user: a name (text), not a number`, where zod said `Invalid input: expected
 * string, received number`.
 */
export const TAKES = {
  text: 'text',
  name: 'a name (text)',
  label: "an option's label (text)",
  labels: "an option's label, or an array of labels",
  flag: 'true or false',
} as const

/** A JSON Schema pattern for text without control characters. */
export const NO_CONTROL_PATTERN = `^[^${CONTROL}]*$`

/**
 * A JSON Schema pattern for every rule of an identifier but its length and lone surrogates: no
 * control characters, not starting with `!`, not `.` nor `..`; a name starting with a dot is
 * one of more characters whose second is not a dot, or one of three or more.
 */
export const IDENTIFIER_PATTERN = `^(?:[^${CONTROL}!.][^${CONTROL}]*|\\.[^${CONTROL}.][^${CONTROL}]*|\\.\\.[^${CONTROL}]+)$`

/**
 * IDENTIFIER_PATTERN for a name compared as sent, which must not start or end with what trim()
 * takes off, nor with an invisible character (a decision's task or stage scope). Spelt without
 * lookaheads, which not every reader of the document takes (fast-check's stringMatching does not).
 */
export const TRIMMED_IDENTIFIER_PATTERN = (() => {
  const inner = `[^${CONTROL}]`
  const end = `${CONTROL}${WHITE_SPACE}${INVISIBLE}`
  // The last character that shows, then any variation selectors modifying it.
  const last = `[^${end}${VARIATION_SELECTORS}]`
  const modifiers = `[${VARIATION_SELECTORS}]*`
  return `^(?:[^${end}${VARIATION_SELECTORS}!.](?:${inner}*${last})?${modifiers}|\\.(?:[^${end}.]|[^${CONTROL}.]${inner}*${last})${modifiers}|\\.\\.(?:${inner}*${last}${modifiers}|[${VARIATION_SELECTORS}]+))$`
})()

/**
 * User, project, point and session names: they become store keys, so no control characters (NUL
 * separates key parts), no lone surrogates (UTF-8 cannot keep them), no leading `!` (the sublevel
 * marker a raw scan of the store parses), and one Unicode form (NFC), so that names which differ
 * only in normalisation form are one name.
 */
export const IdentifierSchema = z
  .string({ error: wrongTypeSaid(TAKES.name) })
  .normalize('NFC')
  .min(1)
  .max(LIMITS.identifierLength)
  // The character rules hold for the empty string, so that "" is told only that it is too short.
  .regex(new RegExp(NO_CONTROL_PATTERN), 'must not contain control characters or lone surrogates')
  .refine(hasNoLoneSurrogate, 'must not contain control characters or lone surrogates')
  // Refinements, not regexes: each regex becomes a pattern of its own in the JSON Schema (an
  // `allOf` of them), where IDENTIFIER_PATTERN says every rule at once.
  .refine((name) => !name.startsWith('!'), 'must not start with "!"')
  // A URL drops `.` and `..` as path segments (WHATWG URL, `%2E` too): `/v1/users/../export` is
  // `/v1/export`, so a user, session or point of that name could be written in a body and never
  // be read, exported or forgotten through its own route.
  .refine((name) => !isDotSegment(name), 'must not be "." or ".." (a URL drops them from its path)')
  // Read by zod's JSON Schema (the MCP tools) and by the OpenAPI generator alike (lone surrogates
  // are said, not patterned).
  .meta({
    pattern: IDENTIFIER_PATTERN,
    description: 'No control characters or lone surrogates, not starting with "!", not "." or "..".',
  })


/**
 * What an end of a name holds that is shown escaped: an invisible character, U+FEFF (trim's, and
 * as unseen), a variation selector, or one of the code units of one above U+FFFF (its surrogates).
 */
const INVISIBLE_CHARACTERS = new RegExp(`[${INVISIBLE}${VARIATION_SELECTORS}\\ufeff\\ud800-\\udfff]`, 'g')

/**
 * A name quoted as JSON, its invisible characters at its ends written as `\u200b`, seen: quoted
 * alone, `"alice\u200b"` looked like `"alice"`. One within it (a joiner in an emoji) is left.
 */
export function quotedName(name: string): string {
  const [start, end] = bareEnds(name)
  const ends = (run: string) => JSON.stringify(run).slice(1, -1).replace(INVISIBLE_CHARACTERS, escapedCharacter)
  return `"${ends(name.slice(0, start))}${JSON.stringify(name.slice(start, end)).slice(1, -1)}${ends(name.slice(end))}"`
}

const escapedCharacter = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * A name without the white space, invisible characters and variation selectors at its start, its
 * end left as it is: the start of a decision_id the hook builds from a tool_use_id (`toolu_1#…`),
 * whose end is inside the id, where anything is taken.
 */
export function bareStart(name: string): string {
  const [start] = bareEnds(name)
  return start === 0 ? name : name.slice(start)
}

/**
 * What a name that may start a decision_id is told when its start has white space or an invisible
 * character: `no spaces at its start: " toolu_1" would be another name than "toolu_1"`.
 */
export const spacedStart = (name: unknown) => {
  if (typeof name !== 'string' || characters(name) > LIMITS.identifierLength) return 'no spaces at its start'
  const bare = bareStart(name)
  if (bare === '') return `must not be empty or invisible characters alone: ${quotedName(name)}`
  const outside = name.slice(0, name.length - bare.length)
  const spaces = outside.replace(INVISIBLE_CHARACTERS, '')
  const rule = spaces === outside ? 'no spaces at its start' : spaces === '' ? 'no invisible characters at its start' : 'no spaces or invisible characters at its start'
  return `${rule}: ${quotedName(name)} would be another name than ${quotedName(bare)}`
}

/** What a name's ends are told to hold none of: spaces (trim's), invisible characters, or both. */
export function endsRule(name: unknown): string {
  if (typeof name !== 'string') return 'no spaces at its ends'
  const [start, end] = bareEnds(name)
  const outside = name.slice(0, start) + name.slice(end)
  // What is left of the ends without their invisible characters is their white space.
  const spaces = outside.replace(INVISIBLE_CHARACTERS, '')
  if (spaces === outside) return 'no spaces at its ends'
  return spaces === '' ? 'no invisible characters at its ends' : 'no spaces or invisible characters at its ends'
}

/**
 * What a name with white space or an invisible character at its ends is told: compared as sent,
 * it would be another name. The name itself is quoted, bare beside it: `DECISION_MEMORY_USER="erin
 * "` was told of `" alice "`, and a space at the end of a variable or a session id is not seen
 * otherwise; one of invisible characters alone is told it is nothing to see.
 */
export const spacedName = (name: unknown) => {
  // One past the limit is told so beside this, unquoted: quoted twice, a name of 1 MB answered 2 MB.
  if (typeof name !== 'string' || characters(name) > LIMITS.identifierLength) return endsRule(name)
  const bare = bareName(name)
  if (bare === '') return `must not be empty or invisible characters alone: ${quotedName(name)}`
  return `${endsRule(name)}: ${quotedName(name)} would be another name than ${quotedName(bare)}`
}

/** A control character, as CONTROL's class: compiled once for shownName. */
const A_CONTROL = new RegExp(`[${CONTROL}]`)

/**
 * A name as a message prints it: quoted when it would not be seen as sent, empty, white space or
 * an invisible character at its ends (`nothing learned about  alice  yet`, stored so before writes
 * refused it; `"alice\u200b"`) or a control character (a query parameter's name, `?%00=1`: a NUL
 * in the message), else as it is, `alice`.
 */
export const shownName = (name: string) => (name !== '' && bareName(name) === name && !A_CONTROL.test(name) ? name : quotedName(name))

/** NO_CONTROL_PATTERN compiled once: the refinements below run on every write's names. */
const NO_CONTROL = new RegExp(NO_CONTROL_PATTERN)

/**
 * Whether a name is white space or invisible characters at its ends (or alone), told once: a tab
 * or a newline is a control character, said so. The one rule of a name compared as sent:
 * TrimmedIdentifierSchema's, a scope's task or stage's.
 */
export const spacedAtItsEnds = (name: string) => bareName(name) !== name && NO_CONTROL.test(name)

/** What TrimmedIdentifierSchema refuses, as the documents describe it. */
export const TRIMMED_IDENTIFIER_RULES =
  'No spaces at its ends, no control characters or lone surrogates, not starting with "!", not "." or "..", ' +
  'and no invisible character at its ends (a zero width space U+200B, a word joiner U+2060, a bidirectional mark, …), ' +
  'nor a variation selector or tag character at its start; those above U+FFFF (U+1D173–1D17A, U+E0000–E0FFF, …) are said in no pattern.'

/**
 * An identifier as a write takes it (a new observation, session or decision): ` alice ` was taken
 * and stored as another user than `alice`, and `session_id: "  "` as a session. One stored before
 * is read, exported and forgotten by IdentifierSchema, which still takes it.
 */
export const TrimmedIdentifierSchema = IdentifierSchema.refine((name) => name === '' || name.trim() !== '' || !NO_CONTROL.test(name), BLANK)
  .refine((name) => name.trim() === '' || !spacedAtItsEnds(name), { error: (issue) => spacedName(issue.input) })
  .meta({
    pattern: TRIMMED_IDENTIFIER_PATTERN,
    description: TRIMMED_IDENTIFIER_RULES,
  })

/**
 * Refuses, as a write's schema would, names about to be written that TrimmedIdentifierSchema does
 * not take, each at its field (`invalid_request`): for a write whose names were read as reads take
 * them, to reach one stored before, and that writes a new one only when none was.
 */
export function refuseUnwritable(names: Record<string, string | undefined>): void {
  const issues: Issue[] = []
  for (const [path, name] of Object.entries(names)) {
    if (name === undefined) continue
    const parsed = TrimmedIdentifierSchema.safeParse(name)
    if (!parsed.success) issues.push(...parsed.error.issues.map((i) => ({ path, message: i.message })))
  }
  if (issues.length > 0) throw new InputError('invalid_request', `invalid request: ${fieldsOf(issues)}`, { issues })
}

export const LabelSchema = z
  .string({ error: wrongTypeSaid(TAKES.label) })
  .normalize('NFC')
  .trim()
  // Said so: "expected string to have >=1 characters" of '  ', two of them, would mislead.
  .min(1, BLANK)
  .max(LIMITS.labelSentLength, { error: labelOverSentLengthSaid('trimmed') })
  .refine(isWithinLabelLength, { error: labelTooLongSaid })
  .refine(hasNoLoneSurrogate, LONE_SURROGATES)
  // minLength is counted before the trim: the pattern says that white space alone is refused.
  .meta({ pattern: NOT_BLANK_PATTERN })

/**
 * Text the service trims and then wants non-empty, up to `max` characters: white space alone is
 * told so, and the pattern says it to a client checking against the published schemas; a value
 * of another JSON type is told `words` (wrongTypeSaid).
 */
export const nonBlankText = (max: number, words: string = TAKES.text) =>
  wellFormed(z.string({ error: wrongTypeSaid(words) }).trim().min(1, BLANK).max(max)).meta({ pattern: NOT_BLANK_PATTERN })

/** A question as sent to recommend or record: trimmed, and not only white space. */
export const QuestionTextSchema = nonBlankText(LIMITS.questionLength, 'a question (text)')

/** A question's short header as sent (AskUserQuestion's `header`), kept as it is. */
export const HeaderSchema = wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).max(LIMITS.labelLength))

/** An option as sent: a label, or `{label, description}` as AskUserQuestion has it. */
export const OptionInputSchema = z.union(
  [
    LabelSchema,
    z.object({
      label: LabelSchema,
      description: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).max(LIMITS.descriptionLength)).optional(),
    }),
  ],
  { error: wrongTypeSaid("an option: its label, or an object {label, description}") },
)
export type OptionInput = z.infer<typeof OptionInputSchema>

export const OptionsSchema = z
  .array(OptionInputSchema, { error: wrongTypeSaid('an array of options: labels, or objects {label, description}') })
  .min(1)
  .max(LIMITS.options, { error: countSaid('option', 'options') })

const PROTO_KEY = '__proto__'
/**
 * zod drops a `__proto__` key from a record (its guard against prototype pollution), but here a
 * context key is an ordinary string: that key travels through validation under this name, which
 * no key sent can have (keys refuse control characters), and is put back after.
 */
export const CARRIED_PROTO_KEY = '\u0000__proto__'

function carryProtoKey(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input
  if (!Object.hasOwn(input, PROTO_KEY) && !Object.hasOwn(input, CARRIED_PROTO_KEY)) return input
  // A key sent as the carrier itself becomes one the key schema refuses.
  return Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k === PROTO_KEY ? CARRIED_PROTO_KEY : k === CARRIED_PROTO_KEY ? '\u0000' : k, v]),
  )
}

type ContextValue = string | number | boolean | null

function restoreProtoKey(context: Record<string, ContextValue>): Record<string, ContextValue> {
  if (!Object.hasOwn(context, CARRIED_PROTO_KEY)) return context
  // fromEntries defines `__proto__` as an own property; assignment would set the prototype.
  return Object.fromEntries(Object.entries(context).map(([k, v]) => [k === CARRIED_PROTO_KEY ? PROTO_KEY : k, v]))
}

const ContextKeySchema = z
  .string()
  .normalize('NFC')
  .min(1)
  .max(LIMITS.contextKeyLength)
  .refine((k) => k === CARRIED_PROTO_KEY || !/\p{Cc}/u.test(k), 'must not contain control characters')
  .refine(hasNoLoneSurrogate, LONE_SURROGATES)
  .meta({ pattern: NO_CONTROL_PATTERN })

/**
 * Context of a choice: flat key → scalar, e.g. `{phase: "run", workflow: "/moai run"}`. Keys and
 * string values are NFC, so that a precondition matches whatever form the text came in.
 */
export const ContextSchema = z
  .preprocess(
    carryProtoKey,
    z
      .record(
        ContextKeySchema,
        z.union([wellFormed(z.string().normalize('NFC').max(LIMITS.contextValueLength)), z.number(), z.boolean(), z.null()], {
          error: 'must be a string, a finite number, a boolean or null (a context is flat)',
        }),
        { error: wrongTypeSaid('a flat object: keys with text, numbers, booleans or null') },
      )
      .refine((c) => Object.keys(c).length <= LIMITS.contextKeys, {
        message: `at most ${LIMITS.contextKeys} keys`,
      })
      // The refine is invisible to JSON Schema: the bound is said again for the OpenAPI document
      // and the MCP tools' input schemas, so that a client checking against them refuses what we would.
      // So are the keys' rules: zod's JSON Schema says them as propertyNames, the OpenAPI generator
      // would drop them (a record is only its additionalProperties there).
      .meta({
        maxProperties: LIMITS.contextKeys,
        propertyNames: { type: 'string', minLength: 1, maxLength: LIMITS.contextKeyLength, pattern: NO_CONTROL_PATTERN },
      }),
  )
  .transform(restoreProtoKey)
export type Context = z.infer<typeof ContextSchema>

/**
 * What each request field means, said once: the OpenAPI document and the MCP tools' input
 * schemas (`tools/list`, which clients show the model) both read it through `.meta()`, where
 * `.openapi()` reaches only the former. A field whose meaning differs by route says it there.
 */
export const FIELD_DESCRIPTIONS = {
  user: 'Whose choices: the person the memory is kept for.',
  project: 'The project the question is asked in: choices made there weigh more for it.',
  session_id: 'The agent session asked in: choices of the session weigh most, and its personalization setting applies (R-SES-3).',
  question: 'The question as asked, e.g. "Which complexity tier should this SPEC use?".',
  point:
    'The decision point\'s key, when the caller names it; else the policy\'s point whose rule matches the header or question, ' +
    'else a hash of the question and its option labels in any order (R-CAP-4): asked with other options, the same question is ' +
    'another point unless named.',
  header: 'The short header of the question (AskUserQuestion\'s `header`), e.g. "Tier".',
  all_options: `The options offered, in order: labels, or \`{label, description}\` as AskUserQuestion has them. ${LABEL_LENGTH_WORDS}`,
  context:
    'Flat key → scalar facts about the run, e.g. `{"phase": "run", "path": "src/x.ts"}`: what preconditions and decisions\' scopes match. ' +
    `At most ${LIMITS.contextKeys} keys, each of 1 to ${LIMITS.contextKeyLength} characters without control characters.`,
  static_default: `The option recommended before anything is learned: one of \`all_options\`. ${LABEL_LENGTH_WORDS}`,
  multi_select: 'Whether several options may be chosen at once.',
  multiSelect: 'AskUserQuestion\'s spelling of `multi_select`, taken as it; give one of the two.',
  as_of: 'An ISO time with a zone: answer as the service would have then (R-REC-9).',
  decision_id:
    'An idempotency key: the same id recorded twice counts once. No spaces or invisible characters (U+200B, U+2060, …) at its ends, ' +
    'nor a variation selector or tag character at its start, and no lone surrogates; those above U+FFFF (U+1D173–1D17A, U+E0000–E0FFF, …) are said in no pattern.',
  timestamp: 'When the choice was made (an ISO time with a zone); now by default.',
  user_choice:
    'The label chosen, or the labels for a multi-select question, as an array (a string is one label: labels joined in one string, ' +
    '"Redis, Memcached", are read as labels only with multi_select true, at a point the policy makes multi-select, or, neither saying, ' +
    'where the latest choice of the user at the point was multi-select, else kept as free text); ' +
    `text matching no option is kept as free text (R-CAP-3). Each label: ${LABEL_LENGTH_WORDS}`,
  source: '`user` for a choice the user made; `auto-resolved` for an answer the service gave itself (R-ASK-4).',
  task: 'The run\'s task: decisions scoped to a task apply only when it is given (R-CON-4), compared without the white space at its ends.',
  path:
    'The path the run works on, as decisions\' scopes write it: relative to the root of its git repository (`services/payments`, ' +
    '`.` at the root), as the guard hook sends its cwd; an absolute path matches only decisions scoped by absolute paths. ' +
    'Decisions scoped to a path apply to it and below; without it they are left out (R-CON-4). Compared without the white space at its ends.',
  stage: 'The run\'s stage: decisions scoped to a stage apply only when it is given (R-CON-4), compared without the white space at its ends.',
} as const

/** The shape of the ISO times TimestampSchema takes, whatever the numbers in it. */
const ISO_TIME_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/**
 * What is wrong with a timestamp refused: a time in the right shape whose day or hour the calendar
 * has not (`2026-02-30T10:00:00Z`, a 29 February of a common year, `24:00`) is said to be that,
 * where zod's "Invalid ISO datetime" sent the writer looking for a mistake in the format.
 */
export function timestampIssue(input: unknown): string {
  return typeof input === 'string' && ISO_TIME_SHAPE.test(input)
    ? 'not a moment of the calendar: no such day, hour or offset'
    : 'an ISO time with seconds and a zone, such as 2026-07-01T10:00:00Z or 2026-07-01T15:30:00+05:30'
}

/**
 * A JSON Schema pattern for the times TimestampSchema takes, but for the calendar (a 30 February
 * matches it): the document's generator drops zod's own, and `format: date-time` alone, RFC
 * 3339's, admits a lower-case `t` or `z`, a space for the `T` and a leap second (AJV's formats,
 * which validating clients use, an offset without its colon too), all of which zod refuses. Given
 * through `.openapi()`, the document's alone: the MCP tools' schemas (zod's own JSON Schema) keep
 * zod's pattern, which knows the calendar too, and is what Claude Code was given.
 */
const ISO_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$'

/** An ISO 8601 time with a zone, e.g. `2026-07-01T10:00:00Z`. */
export const TimestampSchema = z.iso.datetime({ offset: true, error: (issue) => timestampIssue(issue.input) }).openapi({ pattern: ISO_TIME_PATTERN })

/**
 * A timestamp in a URL query (`?as_of=`, `?at=`): a `+` there reads as a space, so an offset
 * typed as written, `?as_of=2026-07-01T15:30:00+05:30`, arrives as `2026-07-01T15:30:00 05:30`,
 * and was refused as no ISO time, at every zone east of UTC, unless the `+` was sent as `%2B`. A
 * space is in no ISO time, so one right before a `hh:mm` offset at the end is read as the `+` it was.
 */
export const QueryTimestampSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.replace(/ (?=\d{2}:\d{2}$)/, '+') : value),
  TimestampSchema,
)

/** AskUserQuestion's own spelling of `multi_select`, taken for it: an orchestrator that copies its question's fields sends this one. */
export const MultiSelectAlias = z.boolean({ error: wrongTypeSaid(TAKES.flag) }).optional().meta({ description: FIELD_DESCRIPTIONS.multiSelect })

/** `multi_select`, given under either spelling; the two given and different is an error naming `multiSelect` (at `path`). */
export function multiSelectOf(input: { multi_select?: boolean | undefined; multiSelect?: boolean | undefined }, path = ''): boolean | undefined {
  if (input.multi_select !== undefined && input.multiSelect !== undefined && input.multi_select !== input.multiSelect) {
    throw new InputError('invalid_request', 'multi_select and multiSelect say different things', {
      issues: [{ path: `${path}multiSelect`, message: 'differs from multi_select: give one of the two' }],
    })
  }
  return input.multi_select ?? input.multiSelect
}

/**
 * DecisionIdSchema's pattern: no white space nor invisible character at its ends, nor a variation
 * selector at its start, as TRIMMED_IDENTIFIER_PATTERN's ends; anything between, control
 * characters too, which a decision_id may hold.
 */
export const DECISION_ID_PATTERN = (() => {
  const end = `${WHITE_SPACE}${INVISIBLE}`
  return `^[^${end}${VARIATION_SELECTORS}](?:[\\s\\S]*[^${end}${VARIATION_SELECTORS}])?[${VARIATION_SELECTORS}]*$`
})()

/**
 * The pattern of what starts a decision_id, anything after: DECISION_ID_PATTERN's start alone. The
 * hook's tool_use_id, which its decision_ids start with (`toolu_1#` and 16 hex digits), so that one
 * ending in a space (`toolu_1 #…`) is taken as the decision_id it makes is.
 */
export const DECISION_ID_START_PATTERN = `^[^${WHITE_SPACE}${INVISIBLE}${VARIATION_SELECTORS}][\\s\\S]*$`

/**
 * A decision_id as a write takes it: a store key (`user\0decision_id`), so no lone surrogate (one
 * becomes U+FFFD in UTF-8, and two ids that differ only there would be one key, the second
 * observation a false duplicate), and nothing at its ends that does not show: sent again as `d-1`,
 * ` d-1` or `d-1\u200b` (a client that appended a zero width space) was another key, the choice
 * counted twice. Compared as sent otherwise, not made NFC as names are: the ids are made by
 * machines (the hook's are a tool_use_id and hex digits), and one stored before in another form,
 * sent again as it was, would miss its own key once normalised and count twice.
 */
export const DecisionIdSchema = z
  .string({ error: wrongTypeSaid('an id (text)') })
  .min(1)
  .max(LIMITS.identifierLength)
  .refine(hasNoLoneSurrogate, 'must not contain lone surrogates')
  // "" is told only that it is empty (as a name is), not that again as white space alone.
  .refine((id) => id === '' || id.trim() !== '', BLANK)
  .refine((id) => id.trim() === '' || bareName(id) === id, { error: (issue) => spacedName(issue.input) })
  .meta({ pattern: DECISION_ID_PATTERN })

/**
 * The wire format of one observation (R-CAP-1): the seed's record plus identity fields. Strict: a
 * field it does not know is refused, named, since one misspelt (`decisionId`, `usr`) would
 * otherwise be dropped and change what is stored (no idempotency key, another user). Its options
 * and context stay as open as they were.
 */
export const ObservationInputSchema = z.strictObject({
  decision_id: DecisionIdSchema.optional().meta({ description: FIELD_DESCRIPTIONS.decision_id }),
  timestamp: TimestampSchema.optional().meta({ description: FIELD_DESCRIPTIONS.timestamp }),
  question: QuestionTextSchema.meta({ description: FIELD_DESCRIPTIONS.question }),
  user_choice: z
    .union([LabelSchema, z.array(LabelSchema).min(1).max(LIMITS.options, { error: countSaid('label', 'labels') })], { error: wrongTypeSaid(TAKES.labels) })
    .meta({ description: FIELD_DESCRIPTIONS.user_choice }),
  all_options: OptionsSchema.meta({ description: FIELD_DESCRIPTIONS.all_options }),
  context: ContextSchema.optional().meta({ description: FIELD_DESCRIPTIONS.context }),
  user: TrimmedIdentifierSchema.default('default').meta({ description: FIELD_DESCRIPTIONS.user }),
  project: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.project }),
  session_id: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.session_id }),
  point: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.point }),
  header: HeaderSchema.optional().meta({ description: FIELD_DESCRIPTIONS.header }),
  multi_select: z.boolean({ error: wrongTypeSaid(TAKES.flag) }).optional().meta({ description: FIELD_DESCRIPTIONS.multi_select }),
  multiSelect: MultiSelectAlias,
  source: z.enum(['user', 'auto-resolved'], { error: oneOfSaid }).default('user').meta({ description: FIELD_DESCRIPTIONS.source }),
})
export type ObservationInput = z.infer<typeof ObservationInputSchema>

/** One stored observation: what was asked, what was chosen, where and when. */
export interface Observation {
  id: string
  user: string
  project: string | null
  session_id: string | null
  point: string
  decision_id: string | null
  /** When the choice was made (ISO, UTC). */
  timestamp: string
  /** When the service stored it (ISO, UTC). */
  recorded_at: string
  question: string
  header: string | null
  /** Normalised option labels, in the order offered. */
  options: string[]
  /** Normalised labels of the chosen options (one for single-select). */
  chosen: string[]
  /** Free text that matched no option (R-CAP-3), else null. */
  other: string | null
  multi_select: boolean
  context: Record<string, string | number | boolean | null>
  source: 'user' | 'auto-resolved'
}

/** The label of an option as sent. */
export function optionLabel(option: OptionInput): string {
  return typeof option === 'string' ? option : option.label
}

/** The description of an option as sent, if any. */
export function optionDescription(option: OptionInput): string | undefined {
  return typeof option === 'string' ? undefined : option.description
}
