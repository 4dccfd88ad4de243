import { createHash } from 'node:crypto'
import { CONTROL, endsRule, hasNoLoneSurrogate, IdentifierSchema, wellFormed, LabelSchema, NO_CONTROL_PATTERN, nonBlankText, spacedAtItsEnds, TAKES, TRIMMED_IDENTIFIER_PATTERN, TRIMMED_IDENTIFIER_RULES, TrimmedIdentifierSchema, WHITE_SPACE } from '../domain/observation'
import { LABEL_LENGTH_WORDS } from '../domain/labels'
import { z } from '../domain/zod'
import { atMostSaid, countSaid, oneOfSaid, wrongTypeSaid } from '../domain/zod-issues'
import { KEY_PATTERN, keyPatternWithout, RESERVED_KEYS } from './key-pattern'

/** Input limits of decisions, documented in README.md. */
export const DECISION_LIMITS = {
  keyLength: 120,
  titleLength: 300,
  textLength: 8000,
  sourceLength: 500,
  pathLength: 1000,
  patternLength: 500,
  points: 50,
  constraints: 50,
  evidence: 50,
  evidenceContent: 100_000,
  importRecords: 1000,
} as const

export const DECISION_STATUSES = ['proposed', 'accepted', 'superseded', 'deprecated', 'revoked'] as const
export type DecisionStatus = (typeof DECISION_STATUSES)[number]
export const DecisionStatusSchema = z.enum(DECISION_STATUSES, { error: oneOfSaid })

export const ENFORCE_LEVELS = ['required', 'advisory'] as const
export type EnforceLevel = (typeof ENFORCE_LEVELS)[number]

export { RESERVED_KEYS } from './key-pattern'

/** KEY_PATTERN in words, as a key written otherwise (or sent as no string) is told. */
const KEY_RULE = 'letters, digits, ".", "_" and "-", starting with a letter or digit'

/**
 * KEY_PATTERN but RESERVED_KEYS in any case, for the published schemas: they carry one pattern per
 * string, not a refinement, and no flag; and no lookaround, which the MCP tools' patterns avoid.
 */
const KEY_PATTERN_DOCUMENTED = keyPatternWithout(RESERVED_KEYS)

/** A decision's stable key: `D-001`, `ADR-0005`, `20240110-use-log4brains` (letters, digits, `.`, `_`, `-`). */
export const DecisionKeySchema = z
  .string({ error: wrongTypeSaid(KEY_RULE) })
  // One message for one fault: "" was told zod's "Too small: expected string to have >=1
  // characters" and KEY_RULE beside it. Aborting leaves the pattern unchecked.
  .min(1, { error: `must not be empty: ${KEY_RULE}`, abort: true })
  .max(DECISION_LIMITS.keyLength, { error: atMostSaid })
  .regex(KEY_PATTERN, KEY_RULE)
  .refine((k) => !(RESERVED_KEYS as readonly string[]).includes(k.toLowerCase()), {
    message: `must not be one of ${RESERVED_KEYS.join(', ')}`,
  })
  // Meta, not openapi(): read by zod's JSON Schema too, so that the MCP tools' schemas (why's `key`)
  // refuse the reserved words as the routes do, not only the OpenAPI document.
  .meta({ pattern: KEY_PATTERN_DOCUMENTED })

/**
 * Decision keys in the store's order, as `GET /v1/decisions` lists them: by code unit (a key is
 * ASCII, so LevelDB's bytes and UTF-16's units agree), not localeCompare's, which puts `a-1` before
 * `B-1` and `D_1` before `D-1`, where the list has them the other way round.
 */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The first day a decision may be dated, as the service's timestamps start in 1970: `0000-01-01`
 * (a placeholder, a slip of the year) was taken as the day a decision was made, and sorted its
 * chain before every other.
 */
export const FIRST_DECISION_DAY = '1970-01-01'

/**
 * The last day a decision may be dated at `at` (a time or a day): the day after, since a day
 * written where the clock is ahead of UTC (up to 14 hours) may be the service's tomorrow. A
 * decision dated `9999-12-31` was taken, and stood in its chain after every later one.
 */
export function latestDecisionDay(at: string): string {
  const day = new Date(`${at.slice(0, 10)}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + 1)
  return day.toISOString().slice(0, 10)
}

/**
 * A decision's date: `YYYY-MM-DD`, or an ISO time whose day is kept (`2026-01-01T10:00:00Z`,
 * `…T10:00+02:00`), from FIRST_DECISION_DAY on. Whatever follows the day is an ISO time or
 * refused: `2026-01-01Tgarbage`, cut to its day, was taken without a word. A day after the
 * service's tomorrow is refused where its clock is known (lifecycle.ts's proposal, the import route).
 */
/**
 * The time of the day a decision's date may go on with, as a pattern: hours 00 to 23, minutes and
 * seconds 00 to 59 (no leap second), seconds and their fraction optional. Shared with the import's
 * reading of a record's date (status-words.ts), which took `2024-02-01T25:00:00Z` as 2024-02-01
 * where `date` refuses it.
 */
export const TIME_OF_DAY = '([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d+)?)?'

/** The zone after TIME_OF_DAY: `Z`, or an offset within ±23:59, its colon optional. */
export const TIME_ZONE = '(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)'

/** The form of a decision's date, as a date written otherwise (or sent as no string) is told. */
export const DATE_FORM = 'a date YYYY-MM-DD (or an ISO time, such as 2026-01-01T10:00:00Z)'

export const DecisionDateSchema = z
  // `null` was told zod's `expected string, received null`, where every other date refused is
  // told its form; null is no day, and leaving the date out is what makes it today.
  .string({ error: wrongTypeSaid(DATE_FORM, 'leave date out for today') })
  .regex(new RegExp(`^\\d{4}-\\d{2}-\\d{2}(T${TIME_OF_DAY}${TIME_ZONE}?)?$`), DATE_FORM)
  // Said of a day written as one (`2026-02-30`): `yesterday` is told the form alone, not also
  // that it is "not a calendar date", a second issue for one field that sent the reader to the calendar.
  .refine((d) => !/^\d{4}-\d{2}-\d{2}/.test(d) || isCalendarDate(d.slice(0, 10)), { message: 'not a calendar date' })
  .refine((d) => !/^\d{4}-\d{2}-\d{2}/.test(d) || d.slice(0, 10) >= FIRST_DECISION_DAY, {
    message: `a day from ${FIRST_DECISION_DAY} on, the day it was decided`,
  })
  .transform((d) => d.slice(0, 10))

/** Whether `YYYY-MM-DD` names a day that exists. */
export function isCalendarDate(day: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (match === null) return false
  const at = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day
}

/**
 * A scope's task or stage: ` build` was taken, and held no run's task, which was compared as sent
 * (a run's is now compared without the white space at its ends, and so is one stored so: see
 * outOfScope). A tab or a newline at an end is told it is a control character, once, not that it is a space too.
 * The rule is TrimmedIdentifierSchema's (spacedAtItsEnds), told in a run's words.
 */
const ScopeNameSchema = IdentifierSchema.refine((name) => !spacedAtItsEnds(name), {
  error: (issue) => `${endsRule(issue.input)}: write the task or stage as runs name it`,
}).meta({ pattern: TRIMMED_IDENTIFIER_PATTERN })

/** What ScopeNameSchema refuses, for the OpenAPI document (a description replaces the identifier's own). */
const SCOPE_NAME_RULES = TRIMMED_IDENTIFIER_RULES

/**
 * The refinements of a scope's path, for the OpenAPI document, which carries one pattern and no
 * refinement: no white space at either end, no `*` or `?`, no brace group of alternatives (`{api,web}`), no
 * control character (lone surrogates are said, not patterned, as an identifier's are).
 */
const SCOPE_PATH_PATTERN_DOCUMENTED = `^(?![${WHITE_SPACE}])(?![\\s\\S]*[${WHITE_SPACE}]$)(?![\\s\\S]*[*?])(?![\\s\\S]*\\{[^{}]*,[^{}]*\\})(?![\\s\\S]*[${CONTROL}])`

/**
 * Whether a path is written as a glob: a wildcard (`*`, `?`) or a brace group of alternatives
 * (`{api,web}`). A scope's path is a prefix compared as written (applicability.ts), so such a one
 * applies to none of the paths it would match. A literal `?` in a folder's name is possible on Linux and macOS,
 * but Windows refuses it in a name (git cannot check such a folder out there), and a `?` meant
 * as a glob makes a required decision hold nowhere, silently: the rarer mistake is refused, and
 * the folder above is the scope to write. Brackets stay ordinary: `app/[slug]` (Next.js,
 * SvelteKit, Nuxt) is a real folder far more often than `[ab]` is a class.
 */
export function isGlobPath(path: string): boolean {
  return /[*?]/.test(path) || /\{[^{}]*,[^{}]*\}/.test(path)
}

/**
 * The folders above the first segment of a glob path a glob is in (one holds `*`, `?` or the `{` of
 * a brace group, as isGlobPath reads them): `src/billing` of `src/billing/**`, `src` of `src/v?`,
 * '' of `**\/*.ts` (the repository's root), `/` of `/*`, `app/{locale}/x` of `app/{locale}/x/*` (a
 * brace alone is a folder's name: a version before this read it as a glob, said `app` and warned
 * every check under `app`). A backslash is a separator, as a scope path is compared
 * (normalizePath): `src\*` is `src/*`, and `\*` is `/*`, the root of absolute paths, which a
 * version before this read as the repository's. What the glob meant to hold lies there, and a
 * scope written so is what to supersede it with.
 */
export function globFolder(path: string): string {
  const slashed = path.replace(/\\/g, '/')
  const starts = [slashed.search(/[*?]/), slashed.search(/\{[^{}]*,[^{}]*\}/)].filter((at) => at !== -1)
  const before = starts.length === 0 ? slashed : slashed.slice(0, Math.min(...starts))
  const folder = before.slice(0, Math.max(before.lastIndexOf('/'), 0))
  return folder === '' && before.startsWith('/') ? '/' : folder
}

/**
 * The path scope a glob path meant, as a scope holds a path (applicability.ts): globFolder's
 * folder, `.` for the repository's root. What a decision so stored would hold but for its glob.
 */
export function globMeant(path: string): string {
  return globFolder(path) || '.'
}

/**
 * What to say of a decision stored with a glob as its scope's path (versions before this took
 * `src/billing/**`, `services/{api,web}` or `src/v?`): it applies to none of the paths the glob would
 * match, only to one holding it as written (a folder `v?` on Linux: /applicable returned the decision
 * there, beside a warning that it applied to no path), and is kept, listed and revocable as it is. Undefined for a path scope that is a path, or none.
 */
export function scopeWarning(decision: { scope: Pick<DecisionScope, 'path'>; status: DecisionStatus }): string | undefined {
  const path = decision.scope.path
  if (path === null || !isGlobPath(path)) return undefined
  const held =
    `scope.path ${JSON.stringify(path)} is a glob, which a version before this took: a path scope is a prefix compared as written, ` +
    'so this decision applies to none of the paths the glob would match, only to one holding it as written'
  // A decision superseded or revoked is in force nowhere, and neither can be superseded again: the
  // advice sent a person to mend what no run reads (`why` prints it under an old link of a chain).
  if (decision.status === 'superseded' || decision.status === 'revoked') return held
  const above = globFolder(path)
  const instead = above === '' ? 'one with no path scope, or one a folder' : `one scoped to ${above}`
  return `${held}; supersede it with ${instead}`
}

/** What a scope's path is, as one sent spaced at its ends (or as no string) is told. */
const SCOPE_PATH_RULE = 'a path prefix such as src/billing'

/** Where and when a decision holds (R-CON-4); an empty field holds everywhere. */
export const ScopeSchema = z.strictObject(
  {
    // A point spaced at its ends is no point a question is keyed to: the decision bound nothing.
    points: z.array(TrimmedIdentifierSchema, { error: wrongTypeSaid('an array of decision point keys') }).max(DECISION_LIMITS.points, { error: countSaid('point', 'points') }).default([]).openapi({
      description: 'Decision point keys the decision binds (R-CON-2); no spaces at their ends.',
    }),
    task: ScopeNameSchema.nullish().openapi({ description: `Applies to this task only. ${SCOPE_NAME_RULES}` }),
    path: z
      .string({ error: wrongTypeSaid(SCOPE_PATH_RULE) })
      .min(1)
      .max(DECISION_LIMITS.pathLength)
      // ` src/billing` was taken, and held no path a run names (they were compared as sent, by segment).
      .refine((path) => path.trim() === path, `no spaces at its ends: ${SCOPE_PATH_RULE}`)
      // `src/a\u0000b` and a lone U+0085 (which trim keeps) were taken, as no task or stage is: no
      // folder a run names holds one. Those at the ends are told they are spaces, once.
      .refine(
        (path) => new RegExp(NO_CONTROL_PATTERN).test(path.trim()) && hasNoLoneSurrogate(path),
        'must not contain control characters or lone surrogates',
      )
      // A path is a prefix, compared by whole segments (applicability.ts): `src/billing/**` was
      // taken, and applied to no path but one named `**`, so a required decision never held. So were
      // `src/v?` and a brace group, `services/{api,web}` (see isGlobPath); a folder named in braces
      // alone (`app/{locale}`) or brackets (`app/[slug]`) is a path.
      .refine(
        (path) => !isGlobPath(path),
        'a path prefix, not a glob: a decision applies to its path and everything below it (write src/billing for src/billing/**, src for src/v?, one decision a folder for {api,web})',
      )
      .openapi({ pattern: SCOPE_PATH_PATTERN_DOCUMENTED })
      .nullish()
      .openapi({
        description:
          'Applies to this path and everything below it (a prefix, by whole segments). Refused: spaces at its ends, ' +
          'a glob (`*` or `?`, as in `src/billing/**`: write `src/billing`), a brace group (`services/{api,web}`: one decision a folder), ' +
          'control characters and lone surrogates.',
      }),
    stage: ScopeNameSchema.nullish().openapi({ description: `Applies at this stage only. ${SCOPE_NAME_RULES}` }),
  },
  { error: wrongTypeSaid('an object of points, task, path and stage') },
)

export const CONSTRAINT_KINDS = ['must', 'must_not', 'prefer', 'limit'] as const
export type ConstraintKind = (typeof CONSTRAINT_KINDS)[number]

/**
 * How large a `limit` may be either side of 0: 2^53 - 1. A choice is compared with it as the
 * number its label reads as, and past 2^53 two integers read as one (`9007199254740993` is
 * `9007199254740992`): a limit of `1e308` was taken, which only a numeral too large for a double
 * could break, and which no count a question offers can mean.
 */
const LIMIT_BOUND = Number.MAX_SAFE_INTEGER
const LIMIT_RANGE = `a number from -${LIMIT_BOUND} to ${LIMIT_BOUND} (2^53 - 1)`
const LIMIT_BOUND_MESSAGE = `${LIMIT_RANGE}, within which the numbers of choices compare exactly`

/** The enforceable part of a decision (R-CON-1). */
export const ConstraintSchema = z.strictObject(
  {
    kind: z.enum(CONSTRAINT_KINDS, { error: oneOfSaid }),
    option: LabelSchema.optional().openapi({ description: `An option of the bound decision points. ${LABEL_LENGTH_WORDS}` }),
    pattern: wellFormed(z.string({ error: wrongTypeSaid('a regular expression (text)') }).min(1).max(DECISION_LIMITS.patternLength)).optional().openapi({
      description: 'A regular expression an action (a shell command) is tested against (`must_not`).',
      example: '^git push ([^;&|]* )?(--force|-[a-zA-Z]*f|\\+)',
    }),
    value: z
      .number({ error: wrongTypeSaid(LIMIT_RANGE) })
      .finite()
      .min(-LIMIT_BOUND, LIMIT_BOUND_MESSAGE)
      .max(LIMIT_BOUND, LIMIT_BOUND_MESSAGE)
      .optional()
      .openapi({ description: `The bound of a \`limit\`: ${LIMIT_BOUND_MESSAGE}.` }),
  },
  { error: wrongTypeSaid('a constraint: an object with its kind') },
)
export type Constraint = z.infer<typeof ConstraintSchema>

/**
 * Evidence behind a decision; `content`, when sent, is hashed (sha256) and not kept. `uri` and
 * `hash` take `null` for absent, as a GET returns them, so that a decision read posts back as read.
 */
export const EvidenceInputSchema = z.strictObject(
  {
    kind: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).min(1).max(50)),
    summary: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).min(1).max(2000)),
    uri: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).min(1).max(2000)).nullish(),
    hash: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).min(1).max(200)).nullish(),
    // Hashed, not kept: UTF-8 would hash two contents differing only in a lone surrogate alike.
    content: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).max(DECISION_LIMITS.evidenceContent)).optional(),
  },
  { error: wrongTypeSaid('evidence: an object with its kind and summary') },
)
export type EvidenceInput = z.infer<typeof EvidenceInputSchema>

export interface Evidence {
  kind: string
  summary: string
  uri: string | null
  hash: string | null
}

const Text = nonBlankText(DECISION_LIMITS.textLength)

/**
 * The body of `POST /v1/decisions` (R-CON-1a). Strict, as its scope, constraints and evidence are:
 * a field it does not have is refused, named, rather than dropped (a misspelt `enforce` would
 * leave a decision advisory). The route takes the fields a GET returns besides (see DecisionInput).
 * `source` and `supersedes` take `null` for absent, as a GET returns them.
 */
export const DecisionInputSchema = z.strictObject({
  key: DecisionKeySchema.optional().openapi({ description: 'Made (`D-001`, `D-002`, …) when not given.' }),
  title: nonBlankText(DECISION_LIMITS.titleLength),
  decision: Text.openapi({ description: 'What was decided.' }),
  rationale: Text.openapi({ description: 'Why.' }),
  enforce: z.enum(ENFORCE_LEVELS, { error: oneOfSaid }).default('advisory'),
  status: z.enum(['proposed', 'accepted'], { error: oneOfSaid }).default('proposed'),
  date: DecisionDateSchema.optional().openapi({ description: "The day it was decided, from 1970-01-01 to the service's tomorrow; today when not given." }),
  source: wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).min(1).max(DECISION_LIMITS.sourceLength)).nullish().openapi({
    description: 'Where it was decided: a session id, a document, a meeting.',
  }),
  supersedes: DecisionKeySchema.nullish().openapi({
    description: 'The decision this one replaces once accepted.',
  }),
  scope: ScopeSchema.optional(),
  constraints: z.array(ConstraintSchema, { error: wrongTypeSaid('an array of constraints') }).max(DECISION_LIMITS.constraints, { error: countSaid('constraint', 'constraints') }).default([]),
  evidence: z.array(EvidenceInputSchema, { error: wrongTypeSaid('an array of evidence') }).max(DECISION_LIMITS.evidence, { error: countSaid('piece of evidence', 'pieces of evidence') }).default([]),
})
export type DecisionInput = z.infer<typeof DecisionInputSchema>

export interface DecisionScope {
  points: string[]
  task: string | null
  path: string | null
  stage: string | null
}

/** Where an imported decision came from, and the fingerprint that makes a re-import a no-op. */
export interface ImportOrigin {
  path: string
  line: number
  format: string
  /** The folder read (see ImportedDecisionSchema); absent in imports made before it was sent. */
  folder?: string
  fingerprint: string
  /** The status the file said when last imported (absent in stores written before it was kept). */
  status?: DecisionStatus
}

/** A decision: a commitment with a rationale, an enforce level and a lifecycle (R-CON-1). */
export interface DecisionRecord {
  key: string
  title: string
  decision: string
  rationale: string
  enforce: EnforceLevel
  status: DecisionStatus
  /** The day it was decided (YYYY-MM-DD). */
  date: string
  source: string | null
  supersedes: string | null
  superseded_by: string | null
  scope: DecisionScope
  constraints: Constraint[]
  evidence: Evidence[]
  /** The number of events in its history; the last event's `seq`. */
  version: number
  created_at: string
  updated_at: string
  imported: ImportOrigin | null
}

export const DECISION_EVENT_TYPES = [...DECISION_STATUSES, 'linked', 'imported', 'reimported'] as const

/**
 * The fields of a decision an event may change besides its status: what an event keeps the
 * previous values of (`before`), so that the decision as it stood at any moment can be rebuilt.
 */
export const REPLAYED_FIELDS = [
  'title',
  'decision',
  'rationale',
  'enforce',
  'date',
  'source',
  'supersedes',
  'superseded_by',
  'scope',
  'constraints',
  'evidence',
] as const
export type ReplayedField = (typeof REPLAYED_FIELDS)[number]
export type DecisionEventType = (typeof DECISION_EVENT_TYPES)[number]

/** One entry of a decision's append-only history. */
export interface DecisionEvent {
  key: string
  /** 1, 2, 3, … per decision. */
  seq: number
  at: string
  type: DecisionEventType
  from: DecisionStatus | null
  to: DecisionStatus
  /** `superseded`: the decision that replaced this one. */
  by?: string
  /** `accepted` (or `linked`) of a replacement: the decision it replaced. */
  supersedes?: string
  reason?: string
  /** `reimported`: the fields that changed. */
  changed?: string[]
  /**
   * The fields the event changed (besides the status), as they were before it. Absent from events
   * written before it was kept, and from events that change nothing else.
   */
  before?: Partial<Pick<DecisionRecord, ReplayedField>>
}

/** `sha256:<hex>` of a text: the content hash of evidence and of imported files. */
export function contentHash(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`
}
