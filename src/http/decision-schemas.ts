import { z } from '@hono/zod-openapi'
import {
  CONSTRAINT_KINDS,
  ConstraintSchema,
  DECISION_LIMITS,
  DECISION_EVENT_TYPES,
  DECISION_STATUSES,
  DecisionInputSchema,
  type DecisionInput as DecisionInputType,
  DecisionKeySchema,
  DecisionStatusSchema,
  ENFORCE_LEVELS,
} from '../decisions/decision'
import { ImportedDecisionSchema, importPaths, ImportPathSchema } from '../decisions/imported-decision'
import { PULSE_SOURCES } from '../decisions/store'
import { InputError } from '../domain/errors'
import { LABEL_LENGTH_WORDS } from '../domain/labels'
import { LIMITS } from '../domain/limits'
import { FIELD_DESCRIPTIONS, LabelSchema, wellFormed, IdentifierSchema, MultiSelectAlias, nonBlankText, OptionsSchema, QueryTimestampSchema, TAKES, TimestampSchema, TrimmedIdentifierSchema } from '../domain/observation'
import { countSaid, wrongTypeSaid } from '../domain/zod-issues'

/** What an option's `count` is, where a set chosen at a multi-select question is read at a single-select one. */
export const COUNT_DESCRIPTION =
  'How many of the choices counted chose the option. At a single-select point, a set chosen at a multi-select question there ' +
  'is one choice shared evenly by the offered options in it (1/2 each of two), as its weight is for `share`: the counts add up ' +
  'to the choices counted, as the shares add up to 1, and a count may be a fraction.'

const LayerSchema = z.object({
  observations: z.number().int(),
  majority: z.string().nullable(),
  share: z.number(),
  selection: z.array(z.string()).nullable().openapi({
    description: 'At a multi-select point, the options selected at a rate >= 0.5 in this layer; null at a single-select point.',
  }),
  counts: z.array(z.object({ option: z.string(), count: z.number().openapi({ description: COUNT_DESCRIPTION }), share: z.number() })),
})

/** The three layers of memory a recommendation reports (R-MEM-5), and whether they suggest a change of preference. */
export const LayersSchema = z.object({
  session: LayerSchema,
  recent: LayerSchema.extend({ sessions: z.array(z.string()) }),
  long_term: LayerSchema,
  change_suspected: z.boolean(),
})

const EvidenceSchema = z.object({
  kind: z.string(),
  summary: z.string(),
  uri: z.string().nullable(),
  hash: z.string().nullable(),
})

const EventSchema = z
  .object({
    key: z.string(),
    seq: z.number().int(),
    at: z.string(),
    type: z.enum(DECISION_EVENT_TYPES),
    from: z.enum(DECISION_STATUSES).nullable(),
    to: z.enum(DECISION_STATUSES),
    by: z.string().optional(),
    supersedes: z.string().optional(),
    reason: z.string().optional(),
    changed: z.array(z.string()).optional(),
    before: z.record(z.string(), z.unknown()).optional().openapi({
      description: 'The fields the event changed besides the status, as they were before it (what an `as_of` replay reads).',
    }),
  })
  .openapi('DecisionEvent')

/** A decision's `scope_warning` (see scopeWarning in decisions/decision.ts). */
const ScopeWarningField = z.string().optional().openapi({
  description:
    'Present where the stored `scope.path` is a glob (`src/billing/**`, `src/v?`, `services/{api,web}`), which a version before this took and which applies to none of the paths the glob would match, only to one holding it as written (a path scope is a prefix compared as written): says so, and what to supersede it with. The decision lists, reads and can be revoked as any other.',
})

const RecordShape = {
  key: z.string(),
  title: z.string(),
  decision: z.string(),
  rationale: z.string(),
  enforce: z.enum(ENFORCE_LEVELS),
  status: z.enum(DECISION_STATUSES),
  date: z.string(),
  source: z.string().nullable(),
  supersedes: z.string().nullable(),
  superseded_by: z.string().nullable(),
  scope: z.object({
    points: z.array(z.string()),
    task: z.string().nullable(),
    path: z.string().nullable(),
    stage: z.string().nullable(),
  }),
  constraints: z.array(
    z.object({
      kind: z.enum(CONSTRAINT_KINDS),
      option: z.string().optional(),
      pattern: z.string().optional(),
      value: z.number().optional(),
    }),
  ),
  evidence: z.array(EvidenceSchema),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  imported: z
    .object({
      path: z.string(),
      line: z.number().int(),
      format: z.string(),
      folder: z.string().optional(),
      fingerprint: z.string(),
      status: z.enum(DECISION_STATUSES).optional(),
    })
    .nullable(),
  unrecorded: z.array(z.string()).optional().openapi({
    description: 'In a replay (`as_of`): fields a later re-import changed before their earlier values were kept; they read as they are now.',
  }),
  scope_warning: ScopeWarningField,
}

export const DecisionRecordSchema = z.object(RecordShape).openapi('DecisionRecord')
export const DecisionSchema = z.object({ ...RecordShape, events: z.array(EventSchema) }).openapi('Decision')
export const DecisionList = z.object({ decisions: z.array(DecisionRecordSchema) }).openapi('DecisionList')

/**
 * The fields `GET /v1/decisions/{key}` returns that a new decision does not take (`version`,
 * `events`, …): a client may post a decision back as it read it, and they are ignored, whatever
 * they hold, as they were before bodies were strict. Any other unknown field is refused.
 */
function readOnlyFieldsOf<Read extends z.ZodRawShape, Input extends z.ZodRawShape>(read: Read, input: Input) {
  const ignored = Object.keys(read).filter((field) => !Object.hasOwn(input, field))
  const anything = z.unknown().optional().openapi({ readOnly: true, description: 'As `GET /v1/decisions/{key}` returns it; ignored.' })
  return Object.fromEntries(ignored.map((field) => [field, anything])) as { [F in Exclude<keyof Read, keyof Input>]: typeof anything }
}

/**
 * The names seed 000 gives two fields of a decision record (`id: D-021`, `reasoning: >`), as AXME
 * Code writes them and import-adr reads them: a client built from the seed posts the record so,
 * and was refused (`id: unknown field`, `rationale: missing`). Taken for `key` and `rationale`;
 * every answer gives the canonical names.
 */
const SEED_NAMES = { id: 'key', reasoning: 'rationale' } as const

const seedName = (seed: string, name: string) =>
  `AXME Code's name for \`${name}\` in a decision record, taken as \`${name}\`: give one of the two, or both saying the same ` +
  `(differing, they are refused, naming \`${seed}\`). Answers name it \`${name}\`.`

const SeedNameFields = {
  id: DecisionKeySchema.optional().openapi({ deprecated: true, description: seedName('id', 'key') }),
  reasoning: nonBlankText(DECISION_LIMITS.textLength).optional().openapi({ deprecated: true, description: seedName('reasoning', 'rationale') }),
  rationale: DecisionInputSchema.shape.rationale.optional().openapi({ description: 'Why. Required, or `reasoning`, as AXME Code names it.' }),
}

/**
 * A field given, and not null, for a rule of the document that wants it (one of two fields, or the
 * field another needs): the routes read a null optional field as one left out (nullsLeftOut), so
 * JSON Schema's `required`, which a null meets, is not enough.
 */
const given = (name: string, type: string | string[]) => ({ required: [name], properties: { [name]: { type } } })

/** A field left out, or null, as a branch of the document's rules: what needs nothing. */
const leftOut = (name: string) => ({ properties: { [name]: { type: 'null' } } })

/** Route schemas of decisions (R-CON-1a): the domain's zod schemas, registered for the OpenAPI document. */
export const DecisionInput = DecisionInputSchema.extend({ ...readOnlyFieldsOf(DecisionSchema.shape, DecisionInputSchema.shape), ...SeedNameFields })
  // Checked however the rest of the body fared, so that `rationale` is named with the others missing.
  .superRefine(
    (body, ctx) => {
      if (body.rationale === undefined && body.reasoning === undefined) {
        ctx.addIssue({ code: 'custom', path: ['rationale'], message: 'missing: expected string (or reasoning, as AXME Code names it)' })
      }
    },
    // An array is no object either: told so alone, not also that a field of it is missing.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
  )
  .superRefine((body, ctx) => {
    // A name refused already is said so alone, not also to differ from the other.
    const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]))
    for (const [seed, name] of Object.entries(SEED_NAMES) as Array<[keyof typeof SEED_NAMES, (typeof SEED_NAMES)[keyof typeof SEED_NAMES]]>) {
      if (refused.has(seed) || refused.has(name)) continue
      // Compared as read (texts trimmed): the same reason sent under both names is one reason.
      if (body[seed] !== undefined && body[name] !== undefined && body[seed] !== body[name]) {
        ctx.addIssue({ code: 'custom', path: [seed], message: `differs from ${name}: give one of the two` })
      }
    }
  })
  .openapi('DecisionInput', {
    // `rationale` or its seed name, as JSON Schema says it (see DecisionCheck's allOf).
    // JSON Schema 2020-12 (a type `null`, a list of types), which OpenAPI 3.1 takes; the metadata's type knows OpenAPI 3.0's alone.
    ...({ allOf: [{ anyOf: [given('rationale', 'string'), given('reasoning', 'string')] }] } as object),
    description:
      "A decision record. `id` and `reasoning`, the names AXME Code's decision records give `key` and `rationale`, are taken for them: " +
      'one name or the other, and both given they must say the same (else a 400 naming the AXME name, `id: differs from key: give one of the two`, ' +
      '`reasoning: differs from rationale: …`).',
    example: {
      key: 'D-021',
      title: 'Never force push to protected branches',
      decision: 'Agents never run git push --force (or any variant with force semantics).',
      rationale: 'Force push has lost us work twice, both times under pressure.',
      enforce: 'required',
      status: 'accepted',
      source: 'session-0f8c4a',
      constraints: [{ kind: 'must_not', pattern: '^git push ([^;&|]* )?(--force|-[a-zA-Z]*f|\\+)' }],
    },
  })

/** A decision posted under the seed's names (SEED_NAMES), in the canonical ones the store keeps. */
export function proposalOf({ id, reasoning, ...body }: z.infer<typeof DecisionInput>): DecisionInputType {
  const rationale = body.rationale ?? reasoning
  // DecisionInput refuses a body with neither.
  if (rationale === undefined) throw new Error('a proposal reached the store with no rationale')
  return { ...body, key: body.key ?? id, rationale }
}

/**
 * An error of a proposal sent with `id` rather than `key`, naming `id`: `D-021 is taken` named
 * `key`, a field the client never sent.
 */
export function namedAsSent(error: unknown, body: { key?: string | undefined; id?: string | undefined }): unknown {
  if (!(error instanceof InputError) || body.key !== undefined || body.id === undefined) return error
  const issues = error.issues.map((i) => (i.path === 'key' ? { path: 'id', message: i.message.replace('leave key out', 'leave id out') } : i))
  return new InputError(error.code, error.message, { status: error.status, issues })
}

export const DecisionKeyParam = z.object({
  key: DecisionKeySchema.openapi({ param: { name: 'key', in: 'path' }, example: 'D-021' }),
})

/** `as_of` of the decision routes (R-REC-9): an audit, answered from the decisions as they stood then. */
const AsOfField = TimestampSchema.optional()
/** The same in a URL query, where an offset's `+` may arrive as a space. */
const QueryAsOfField = QueryTimestampSchema.optional()

export const DecisionAsOfQuery = z.object({
  as_of: QueryAsOfField.openapi({
    description: 'The decision as it stood then, with its events up to then (R-REC-9); a 404 if it was not yet proposed.',
  }),
})

/**
 * A run's task or stage (`GET /v1/why`, `/applicable`, `/check`): what a recommendation's context
 * value may be, but empty, so that an agent passing its context's task to every tool is answered
 * by each (no decision's scope names one that is not an identifier: none applies).
 */
const RunValue = wellFormed(z.string({ error: wrongTypeSaid(TAKES.text) }).normalize('NFC').min(1).max(LIMITS.contextValueLength)).optional()

export const ListQuery = z.object({
  status: DecisionStatusSchema.optional(),
  point: IdentifierSchema.optional(),
  as_of: QueryAsOfField.openapi({
    description:
      'The decisions that existed then, as they stood then (R-REC-9): status, links, enforce level and texts of then, ' +
      '`status` matched against the status of then; those proposed later are left out.',
  }),
})

export const ApplicableQuery = z.object({
  task: RunValue,
  path: wellFormed(z.string().min(1).max(1000)).optional(),
  stage: RunValue,
  point: IdentifierSchema.optional(),
  as_of: QueryAsOfField.openapi({
    description: 'The decisions that applied then, as they stood then (R-REC-9): an audit, which counts no pulse.',
  }),
})

export const TransitionBody = z
  .strictObject({ reason: nonBlankText(2000).optional() })
  .openapi('DecisionTransition')

export const SupersedeBody = z
  .strictObject({
    by: DecisionKeySchema.openapi({ description: 'The replacement: a proposal (accepted by this) or an accepted decision.' }),
    reason: nonBlankText(2000).optional(),
  })
  .openapi('DecisionSupersede')

/** What a check's `user` is for, said by the route and the MCP tool `check_decision`. */
export const CHECK_USER =
  'The user making `choice`: where neither `multi_select` nor the point\'s policy says whether the question was multi-select, one label (a string) is read as ' +
  "this user's latest own choice at `point` was asked, as capture stores it: after a multi-select one, an answer joined with `, ` is the options it joins. " +
  'Left out, the choice is read as the request or the policy says alone. ' +
  "The decisions are every user's; with auth on, the token must act for this user."

export const CheckBody = z
  .strictObject({
    // .meta, not .openapi: the MCP tool check_decision shows these to the model too.
    // Only white space is no command: refused as an empty one is, not answered allowed (nothing in it was checked).
    action: wellFormed(
      z
        .string({ error: wrongTypeSaid('a shell command (text)') })
        .min(1)
        .max(LIMITS.actionLength)
        .regex(/\S/, 'an action of only white space runs nothing: give the command'),
    )
      .optional()
      .meta({ description: 'A shell command about to run.' }),
    choice: z
      .union([LabelSchema, z.array(LabelSchema).min(1).max(LIMITS.options, { error: countSaid('label', 'labels') })], { error: wrongTypeSaid(TAKES.labels) })
      .optional()
      .meta({
        description:
          'An option about to be chosen at `point` (or, with none, at any point of the decisions in force), or the options of a multi-select choice (checked together). ' +
          `Each label: ${LABEL_LENGTH_WORDS}`,
      }),
    // As a recommendation, a plan and an observation take it: ` tier` was taken, a point no
    // decision is bound to (a scope's points refuse it), and a choice a decision blocks allowed.
    point: TrimmedIdentifierSchema.optional().meta({
      description:
        'The decision point `choice` is made at: the `point` a recommendation or a plan gave for the question. Decisions bound to other points are left out. ' +
        'Without it, the choice is read at each point the decisions in force are bound to: blocked where a `must_not` names it there or it is over a `limit`, ' +
        'never by a `must` or `prefer` (it may be made at another point); `all_options` needs it.',
    }),
    all_options: OptionsSchema.optional().meta({
      description:
        'The options the question offered, as a recommendation takes them (labels, or `{label, description}`); only with `choice` and its `point`. ' +
        "The choice and each decision's option are then read among them as the recommendation reads them, so that the check blocks what it rules out and allows what it keeps. " +
        LABEL_LENGTH_WORDS,
    }),
    multi_select: z.boolean({ error: wrongTypeSaid(TAKES.flag) }).optional().meta({
      description:
        "Whether the question `choice` was made at was multi-select; left out, the point's policy says (and an array is a multi-select choice where it does not). " +
        'Single-select, a `choice` of several options is refused (`multiple_choices`): it is no one choice. ' +
        'Multi-select, one label joined with `, ` as AskUserQuestion gives an answer (`Tier S, Tier M`) is the options it joins, as capture stores it.',
    }),
    // As a recommendation and an observation take it: an orchestrator copying its AskUserQuestion question sends this spelling.
    multiSelect: MultiSelectAlias,
    // Read, never written under: a name stored spaced at its ends is read as it is stored.
    user: IdentifierSchema.optional().meta({ description: CHECK_USER }),
    task: RunValue.meta({ description: FIELD_DESCRIPTIONS.task }),
    path: wellFormed(z.string({ error: wrongTypeSaid('a path such as services/billing') }).min(1).max(1000)).optional().meta({ description: FIELD_DESCRIPTIONS.path }),
    stage: RunValue.meta({ description: FIELD_DESCRIPTIONS.stage }),
    as_of: AsOfField.meta({
      description: 'Check against the decisions in force then, as they stood then (R-REC-9): an audit, which counts no pulse.',
    }),
  })
  .superRefine((b, ctx) => {
    if (b.action === undefined && b.choice === undefined) {
      // A point sent alone is a choice's check with the choice left out: that is the field missing.
      if (b.point !== undefined) ctx.addIssue({ code: 'custom', path: ['choice'], message: 'give the choice made at point (or an action)' })
      else ctx.addIssue({ code: 'custom', path: ['action'], message: 'give an action or a choice' })
    }
    // Read with nothing, they would be dropped, and the check answer as though they were read.
    if (b.all_options !== undefined && b.choice === undefined) {
      ctx.addIssue({ code: 'custom', path: ['all_options'], message: 'the options offered are read with a choice: give the choice made among them' })
    }
    // So would whether the choice's question was multi-select, with no choice to read so.
    for (const name of ['multi_select', 'multiSelect'] as const) {
      if (b[name] !== undefined && b.choice === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'whether the question was multi-select is read with a choice: give the choice made at it' })
      }
    }
    // The options one question offered are read as its point's options, against the decisions
    // bound to it; at no point they would be read as every point's, and block or allow a choice
    // by the options of questions that never offered them: the point they were offered at is missing.
    if (b.all_options !== undefined && b.choice !== undefined && b.point === undefined) {
      ctx.addIssue({ code: 'custom', path: ['point'], message: 'the options offered are read at the point their question was asked: give that point' })
    }
  })
  .openapi('DecisionCheck', {
    // The refinement's rules, as JSON Schema says them, for the document alone: a top-level
    // anyOf is what some MCP clients refuse in a tool's input, and .openapi() does not reach it.
    // Inside an allOf, each branch naming its field: openapi-typescript makes an anyOf beside the
    // fields a union with them, and a branch of `required` alone `unknown`, so the body's type was
    // `unknown` (any value typechecked); so it is the fields & ({action} | {choice}).
    // What needs the choice (and `all_options` its point too) is left out, null, or has it: a
    // `dependentRequired` was met by a null choice, and not left out by a null `all_options`.
    // JSON Schema 2020-12, which OpenAPI 3.1 takes; the metadata's type knows OpenAPI 3.0's keywords alone.
    ...({
      allOf: [
        { anyOf: [given('action', 'string'), given('choice', ['string', 'array'])] },
        { anyOf: [leftOut('all_options'), { required: ['choice', 'point'], properties: { choice: { type: ['string', 'array'] }, point: { type: 'string' } } }] },
        { anyOf: [leftOut('multi_select'), given('choice', ['string', 'array'])] },
        { anyOf: [leftOut('multiSelect'), given('choice', ['string', 'array'])] },
      ],
    } as object),
    description:
      'An `action`, a `choice` or both. A `choice` is checked at its `point`, and may come with the `all_options` it was made among (which need the `point`); ' +
      'with no `point`, at each point the decisions in force are bound to: blocked where a `must_not` names it there or it is over a `limit`, ' +
      'never by a `must` or `prefer`, which say nothing of a choice that may be made at another point.',
    // The path as the guard sends it, relative to the repository's root: an absolute one would
    // leave out every decision scoped to a path of the repository.
    example: { action: 'git push --force origin main', path: 'services/billing' },
  })

const ViolationSchema = z.object({
  key: z.string(),
  title: z.string(),
  enforce: z.enum(ENFORCE_LEVELS),
  rationale: z.string(),
  constraint: ConstraintSchema,
  message: z.string(),
  undecided: z
    .literal(true)
    .optional()
    .openapi({ description: 'Present when the `must_not` pattern could not be decided against the action in time (it may or may not match): a warning, even for a required decision.' }),
})

/** Required decisions bound to a point that contradict each other (R-CON-2): the newer holds, and the answer is the user's. */
export const DecisionConflictsSchema = z.array(z.object({ keys: z.array(z.string()), options: z.array(z.string()), message: z.string() })).openapi({
  description:
    'Accepted required decisions bound to the point that contradict each other: a `must` of an option another rules out (its `must_not`, a `limit` the option is over, ' +
    'a `must` of an option not offered), or `must`s of different options at a single-select point. Each pair once, `keys` the newer first: the newer holds (date, then last change, ' +
    'then key as `GET /v1/decisions` lists them), as the later contract, and the question is asked, never answered for the user, since `POST /v1/decisions/check` blocks what ' +
    'either forbids; the recommendation\'s confidence is then 0 (`low`). A required `limit` bound to no point contradicts a required `must` bound to the point whose option is a bare number over it; such a limit takes no ' +
    'option off the offer, so the `must` stays enforced in the recommendation whichever is newer, and `keys` names the newer first all the same. `options`: what they disagree ' +
    'over (every option of the older\'s `must`s that is not the newer\'s, after the newer\'s). One decision whose own `must`s name two or more options at a single-select point contradicts itself: its key is in `keys` twice, `options` names each, and its first `must` holds. Absent when none contradict.',
})

export const VerdictSchema = z
  .object({
    allowed: z.boolean(),
    blocked_by: z.array(ViolationSchema),
    warnings: z.array(ViolationSchema),
    checked: z.array(z.string()).openapi({
      description:
        'The keys of the decisions the check reached, each counting a recall pulse: those bound to no point, those bound to `point`, those with a `must_not` pattern `action` was tested against, ' +
        'and, for a `choice` with no `point`, those bound to points with a `must_not` option or a `limit` it was read against.',
    }),
    conflicts: DecisionConflictsSchema.optional().openapi({
      description:
        'Present when accepted required decisions bound to the `point` of a `choice` contradict each other there, or one of them and a required `limit` bound to no point, as its ' +
        'recommendation names them (`keys` the newer first, which holds in the recommendation, but for such a limit, which takes no option off the offer): the check still blocks ' +
        'what either forbids, so no choice there passes them both until one is superseded or revoked.',
    }),
    scope_warnings: z
      .array(z.object({ key: z.string(), message: z.string() }))
      .optional()
      .openapi({
        description:
          'Present when an accepted decision the run would be in but for its `scope.path` was stored with a glob there (`src/billing/**`), which applies to none of the paths the glob would match, the run\'s `path` is below the folder the glob was written in (`src/billing`), the check would have reached it (as `checked` reads the others), and, its scope read as that folder, it would have blocked or warned (its `must_not` pattern matches the `action`, the `choice` goes against its option or limit; not at `ls` under a decision against `rm -rf`): it was not checked, and `message` says why (as its `scope_warning`).',
      }),
  })
  .openapi('DecisionVerdict')

export const PulseReportSchema = z
  .object({
    decisions: z.array(
      z.object({
        key: z.string(),
        title: z.string(),
        status: z.enum(DECISION_STATUSES),
        enforce: z.enum(ENFORCE_LEVELS),
        count: z.number().int(),
        by: z.object(Object.fromEntries(PULSE_SOURCES.map((s) => [s, z.number().int()])) as Record<
          (typeof PULSE_SOURCES)[number],
          z.ZodNumber
        >),
        first_at: z.string().nullable(),
        last_at: z.string().nullable(),
      }),
    ),
    never_reached: z.array(z.string()),
  })
  .openapi('DecisionPulses')

const ChainLinkSchema = z.object({
  key: z.string(),
  title: z.string(),
  status: z.enum(DECISION_STATUSES),
  enforce: z.enum(ENFORCE_LEVELS),
  date: z.string(),
  decision: z.string(),
  rationale: z.string(),
  accepted_at: z.string().nullable(),
  superseded_at: z.string().nullable(),
  deprecated_at: z.string().nullable().openapi({ description: 'When it was deprecated; null when it was not.' }),
  revoked_at: z.string().nullable().openapi({ description: 'When it was revoked (a proposal: rejected); null when it was not.' }),
  reason: z.string().nullable().openapi({
    description: 'The reason given with the step that set its status (`/revoke`, `/deprecate`, `/supersede`, `/accept` body `reason`); null when none was given.',
  }),
  supersedes: z.string().nullable(),
  superseded_by: z.string().nullable(),
  source: z.string().nullable().openapi({ description: 'Where this link was decided (a session, a document, a meeting); null when not said.' }),
  evidence: z.array(EvidenceSchema).openapi({
    description: "This link's own evidence, as its decision holds it (as it stood then, with `as_of`): why an earlier choice was made, read from the why of the one that replaced it.",
  }),
  scope_warning: ScopeWarningField,
})

const WhyShape = {
  key: z.string(),
  current: z.string().openapi({ description: 'The newest decision of the chain, whatever its status.' }),
  in_force: z.string().nullable().openapi({
    description: 'The newest accepted decision of the chain, the one that holds; null when none is accepted (the newest revoked, deprecated or only proposed).',
  }),
  chain: z.array(ChainLinkSchema),
  proposals: z
    .array(
      z.object({
        key: z.string(),
        title: z.string(),
        enforce: z.enum(ENFORCE_LEVELS),
        date: z.string(),
        decision: z.string(),
        rationale: z.string(),
        supersedes: z.string().openapi({ description: 'The link of the chain it would replace once accepted.' }),
        proposed_at: z.string(),
        warning: z.string().optional().openapi({
          description:
            'Where accepting it would not replace that link, as the link stands (then, with `as_of`): refused (409) while the link is proposed ' +
            '(`accepting it is refused while D-002 is proposed: accept D-002 first`) or once another replaced it (`accepting it is refused: D-001 is superseded by D-002 already`), ' +
            'or, the link revoked, accepted on its own, leaving this chain (`accepted, it supersedes nothing: D-002 is revoked`); absent otherwise.',
        }),
      }),
    )
    .openapi({
      description:
        'Changes pending: the proposals (status `proposed`; with `as_of`, then) that name a link of the chain in `supersedes` and are not in it themselves, oldest first; ' +
        '`[]` when none. One rejected (revoked) or accepted is no longer listed: accepted, it is in the chain, but where the link it names was revoked (see `warning`). A service of an older version leaves it out.',
    }),
  rationale: z.string().openapi({ description: 'The rationale of the decision asked about (`key`); each link of `chain` has its own.' }),
  evidence: z.array(EvidenceSchema).openapi({ description: 'The evidence of the decision asked about (`key`); each link of `chain` has its own.' }),
  events: z.array(EventSchema),
  unrecorded: z.array(z.string()).optional().openapi({
    description: 'In a replay: fields a later re-import changed before their earlier values were kept; they read as they are now.',
  }),
}

export const DecisionWhySchema = z
  .object({
    ...WhyShape,
    as_of: z.string().openapi({
      description:
        'The moment the chain describes (R-REC-9): the `as_of` asked for, or the moment it was read when none was. A service of an older version leaves it out, and one from before `as_of` was taken here answers as of now whatever `as_of` says.',
    }),
  })
  .openapi('DecisionWhy')

/** What a recommendation's `state` and its confidence's `level` may be: one list for every answer that says them. */
export const RecommendationStateSchema = z.enum(['static-default', 'partial', 'sufficient', 'personalization-off', 'enforced'])
export const ConfidenceLevelSchema = z.enum(['high', 'medium-high', 'medium', 'low'])
const DECISION_EFFECTS = ['enforced', 'ruled-out', 'static-default', 'outweighed', 'not-offered', 'conflict', 'advised-against', 'overruled'] as const

export const WhyQuery = z.object({
  user: IdentifierSchema.default('default'),
  project: IdentifierSchema.optional(),
  session_id: IdentifierSchema.optional().openapi({
    description: 'The session asked in: its personalization then decides whether the answer was personal (R-SES-3). Read, never started.',
  }),
  point: IdentifierSchema,
  as_of: QueryTimestampSchema.optional().openapi({ description: 'Explain the answer as the service would have given it then (R-REC-9).' }),
  // Task and stage are taken as a recommendation's `context` takes them (the answer is recomputed
  // with them as its context, and the MCP `why` tool passes its context's on): any text of up to
  // 500 characters, not only an identifier; refused, they made that tool fail where recommend answered.
  task: RunValue.meta({ description: FIELD_DESCRIPTIONS.task }),
  // In NFC, as task and stage are, and as a recommendation's context (so the MCP why's) gives it:
  // the answer said the path as sent, and the same run read from a context said it otherwise.
  path: wellFormed(z.string().normalize('NFC').min(1).max(DECISION_LIMITS.pathLength)).optional().meta({ description: FIELD_DESCRIPTIONS.path }),
  stage: RunValue.meta({ description: FIELD_DESCRIPTIONS.stage }),
})

export const PointWhySchema = z
  .object({
    user: z.string(),
    project: z.string().nullable(),
    session_id: z.string().nullable(),
    point: z.string(),
    as_of: z.string(),
    task: z.string().nullable(),
    path: z.string().nullable(),
    stage: z.string().nullable(),
    recommendation: z
      .object({
        state: RecommendationStateSchema,
        recommended: z.union([z.string(), z.array(z.string())]),
        confidence: z.object({
          value: z.number(),
          level: ConfidenceLevelSchema,
          significant: z.boolean(),
          method: z.string(),
          lowered_because: z.string().optional().openapi({
            description: "Why the confidence was pulled toward chance: the run's `task`, `path` or `stage` contradicts the precondition.",
          }),
        }),
        precondition: z.string(),
        disclosure: z.string(),
        observations: z.number().int(),
        ask: z.boolean().openapi({ description: 'Whether the user was asked (true) or answered for (false, R-ASK-2).' }),
        ask_reason: z.string(),
        conflicts: DecisionConflictsSchema.optional(),
        learned: z
          .object({ state: RecommendationStateSchema, recommended: z.union([z.string(), z.array(z.string())]), confidence: z.number() })
          .optional(),
        layers: LayersSchema.openapi({
          description: 'The session, recent and long-term layers, as the recommendation reports them (R-MEM-5); `change_suspected` when the recent sessions chose otherwise than the long term.',
        }),
      })
      .nullable(),
    decisions: z.array(
      z.object({
        ...WhyShape,
        title: z.string(),
        status: z.enum(DECISION_STATUSES),
        enforce: z.enum(ENFORCE_LEVELS),
        effect: z.enum(DECISION_EFFECTS).nullable(),
        out_of_scope: z
          .array(z.object({ field: z.enum(['task', 'path', 'stage']), scope: z.string(), run: z.string().nullable() }))
          .openapi({
            description:
              "The decision's task, path or stage scope the run (the query's `task`, `path`, `stage`) is outside of, each with the run's value (null: not given): why it did not apply, its `effect` then null. Empty when its scope holds the run.",
          }),
      }),
    ),
    observations: z.array(
      z.object({
        id: z.string(),
        timestamp: z.string(),
        project: z.string().nullable(),
        session_id: z.string().nullable(),
        chosen: z.array(z.string()),
        other: z.string().nullable(),
        context: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .openapi('PointWhy')

export const ImportBody = z
  .strictObject({
    records: z.array(ImportedDecisionSchema, { error: wrongTypeSaid('an array of records') }).max(DECISION_LIMITS.importRecords, { error: countSaid('record', 'records') }).openapi({
      description: 'The records read; none, for a folder whose records are all gone, which `folder` then names.',
    }),
    folder: ImportedDecisionSchema.shape.origin.shape.folder.openapi({
      description:
        'The folder read, as `origin.folder` names it (`github.com/acme/web/doc/adr`): with no records, the folder whose ' +
        'decisions are all reported in `missing` when none of their files is among `files` any more.',
    }),
    aliases: ImportedDecisionSchema.shape.origin.shape.aliases,
    moved: importPaths('an array of folders')
      .max(20, { error: countSaid('folder', 'folders') })
      .optional()
      .openapi({
        description:
          'Folders of the same repository the records were imported from before that its working tree no longer has ' +
          '(`github.com/acme/web/doc/adr` once it is `docs/adr`), or, outside a repository, absolute folders no longer there ' +
          'each of whose records is among `records`, from a file of the same name (`/home/dev/adr` once it is `/home/dev/decisions`); ' +
          'import-adr sends only those one of whose records at least reads among `records` as it did (title, decision, rationale, ' +
          'date), as a file name every log has (`0001-record-architecture-decisions.md`) is no sign. One is this folder moved, its records updated under the ' +
          'new name, when every record stored from it is among `records`, in a file of the same name, reading as it did or ' +
          'titled as it was; otherwise it is another folder, and its records are conflicts.',
      }),
    files: importPaths('an array of files')
      .max(DECISION_LIMITS.importRecords, { error: countSaid('file', 'files') })
      .optional()
      .openapi({
        description:
          'The `.md` files the folder of the records holds now (as `origin.path` names them): a folder stored under a former ' +
          'name (`origin.aliases`) is this one only if its files are all among them, and a record stored from this folder whose ' +
          'file is not among them is listed in `missing` (without `files`, none is).',
      }),
    logs: z
      .array(
        z.strictObject(
          {
            path: ImportPathSchema,
            keys: z.array(wellFormed(z.string({ error: wrongTypeSaid('a key (text)') }).min(1).max(DECISION_LIMITS.sourceLength)), { error: wrongTypeSaid('an array of keys') }).max(DECISION_LIMITS.importRecords, { error: countSaid('key', 'keys') }),
          },
          { error: wrongTypeSaid('a log: an object of path and keys') },
        ),
        { error: wrongTypeSaid('an array of logs') },
      )
      .max(DECISION_LIMITS.importRecords, { error: countSaid('log', 'logs') })
      .optional()
      .openapi({
        description:
          'The section-based logs of the folder read whole (`DECISIONS.md`), each with the keys of all its sections now, those ' +
          'that could not be read included: a record stored from one of them whose key is not among its keys (its section was ' +
          'taken out) is listed in `missing`.',
      }),
    dry_run: z
      .boolean({ error: wrongTypeSaid('true or false') })
      .optional()
      .openapi({
        description:
          'true: nothing is stored; the answer is the report of the import as it would be, each decision it would create, update, ' +
          'supersede or revoke (a carry-over to a new key among them) said as the import would say it, with `dry_run: true` (`import-adr --dry-run` sends it).',
      }),
  })
  .superRefine((body, ctx) => {
    if (body.records.length === 0 && body.folder === undefined) {
      ctx.addIssue({ code: 'custom', path: ['records'], message: 'give at least one record, or the folder read (folder) whose records are all gone' })
    }
  })
  // The body /docs fills in, rather than a record Swagger UI makes up from the patterns, whose
  // `date` (`1441-41-37T16:25`) the service refuses.
  .openapi('DecisionImport', {
    example: {
      records: [
        {
          key: 'ADR-0002',
          title: 'Use SQLite',
          decision: 'We will keep local data in SQLite.',
          rationale: 'One file to back up, and no server to run.',
          status: 'accepted',
          date: '2024-03-15',
          origin: { path: 'docs/adr/0002-use-sqlite.md', line: 1, format: 'adr-tools', folder: 'github.com/acme/shop/docs/adr' },
        },
      ],
    },
  })

export const ImportReportSchema = z
  .object({
    created: z.array(z.string()),
    updated: z.array(z.string()),
    unchanged: z.array(z.string()),
    conflicts: z.array(z.object({ key: z.string(), message: z.string() })),
    warnings: z.array(z.object({ key: z.string(), message: z.string() })).openapi({
      description:
        'What the import left out or kept otherwise than the records say (a link dropped, a final status kept), and, under its old key, ' +
        'each decision stored from a file of the records sent (`files` given or not) that now gives it another key: superseded by the new key (a proposal revoked), ' +
        'or left as it is where it is final or its status was moved here (one deprecated, revoked or superseded here gives the new key that status).',
    }),
    missing: z.array(z.object({ key: z.string(), path: z.string(), message: z.string() })).openapi({
      description:
        'Decisions imported from this folder whose file is no longer in `files`, or whose section is no longer in its log (`logs`): ' +
        'they keep their status (a deleted file revokes nothing); ' +
        'deprecate or revoke them if they no longer hold.',
    }),
    changes: z
      .array(
        z.object({
          key: z.string(),
          fields: z.array(z.object({ field: z.string(), from: z.string().nullable().optional(), to: z.string().nullable().optional() })),
        }),
      )
      .openapi({
        description:
          'What changed in each decision `updated` lists, in its order: each field changed, with `from` and `to` (null for none) for ' +
          '`title`, `status`, `date`, `enforce`, `supersedes`, `superseded_by` and `source`, and named alone for `decision`, `rationale` and `evidence`.',
      }),
    rekeyed: z.array(z.object({ key: z.string(), from: z.string(), from_status: z.enum(DECISION_STATUSES) })).openapi({
      description:
        'The records `created` lists that carry over a decision stored under the key their file had before (`ADR-0013-use-postgres` of ' +
        '`ADR-0013-use-postgres.md`, keyed `ADR-0013` now): the new key, the old one (`from`), and the status the old one has after the import ' +
        '(`superseded` by the new key, a proposal `revoked`, or as it was, which `warnings` says why). Each is also said in `warnings`, under the old key.',
    }),
    dry_run: z.literal(true).optional().openapi({ description: 'Present when the import was asked to store nothing (`dry_run`): the report says what it would do.' }),
  })
  .openapi('DecisionImportReport')

/** What a recommendation says of the decisions bound to its point (R-CON-2). */
export const DecisionEffectsSchema = z.array(
  z.object({
    key: z.string(),
    title: z.string(),
    enforce: z.enum(ENFORCE_LEVELS),
    effect: z.enum(DECISION_EFFECTS),
    options: z.array(z.string()),
    rationale: z.string(),
  }),
)

export const LearnedSchema = z.object({
  state: RecommendationStateSchema,
  recommended: z.union([z.string(), z.array(z.string())]),
  confidence: z.number(),
})
