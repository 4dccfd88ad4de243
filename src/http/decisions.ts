import { createRoute, type z } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import type { Decisions } from '../decisions/decisions'
import {
  ApplicableQuery,
  CheckBody,
  DecisionAsOfQuery,
  DecisionInput,
  DecisionKeyParam,
  DecisionList,
  DecisionSchema,
  DecisionWhySchema,
  ImportBody,
  ImportReportSchema,
  ListQuery,
  namedAsSent,
  PointWhySchema,
  proposalOf,
  PulseReportSchema,
  SupersedeBody,
  TransitionBody,
  VerdictSchema,
  WhyQuery,
} from './decision-schemas'
import { authorizeUsers, forEveryUser } from './auth'
import { ErrorSchema, markWrites, markWritesNothing } from './errors'
import { refuseOtherQueryUser } from './query-user'
import { nullsLeftOut } from './nulls-left-out'
import { createRouter } from './router'

const json = <T>(schema: T) => ({ content: { 'application/json': { schema } } })

/**
 * A body's schema, its optional fields taking null as left out, at any depth (a scope's, a
 * constraint's, evidence's): the MCP tool check_decision reads CheckBody itself, and drops nulls itself.
 * A decision's `rationale` among them: a client filling every field sends `"rationale": null` beside
 * the `reasoning` that gives it, as `"reasoning": null` beside a rationale; with neither, it is missing.
 */
const body = <T extends z.ZodType>(schema: T) => json(nullsLeftOut(schema))
const invalid = { description: 'Invalid request', ...json(ErrorSchema) }
const missing = { description: 'No such decision', ...json(ErrorSchema) }
const missingThen = { description: 'No such decision (with `as_of`: none proposed by then)', ...json(ErrorSchema) }
const conflict = (description: string) => ({ description, ...json(ErrorSchema) })
const NOT_A_STEP = '`invalid_transition`: not a step of the lifecycle (`superseded` and `revoked` are final)'
const REPLACED = '`already_superseded`: the decision it `supersedes` was replaced by another meanwhile'

const propose = createRoute({
  method: 'post',
  path: '/v1/decisions',
  operationId: 'proposeDecision',
  tags: ['decisions'],
  summary: 'Propose a decision, or record an accepted one (R-CON-1a)',
  description:
    'A decision is a contract: title, decision text, rationale, enforce level (`required` | `advisory`), scope ' +
    '(`points`, `task`, `path`, `stage`) and constraints (`must`, `must_not` with an option or a pattern, `prefer`, ' +
    '`limit`). `status: "accepted"` accepts it at once; `supersedes` replaces that decision once accepted. ' +
    "A record under the names AXME Code gives its fields (`id`, `reasoning`) is taken: its `id` as `key`, its `reasoning` as `rationale`, " +
    '`supersedes: null` as no link; proposed, as any, unless `status: "accepted"` is sent.',
  request: { body: { required: true, ...body(DecisionInput) } },
  responses: {
    201: { description: 'Created, with its events', ...json(DecisionSchema) },
    400: invalid,
    404: { description: '`supersedes` names no decision', ...json(ErrorSchema) },
    409: conflict(`\`decision_exists\`: the key is taken; ${REPLACED}; or \`invalid_transition\`: the decision it \`supersedes\` cannot be superseded`),
  },
})

const list = createRoute({
  method: 'get',
  path: '/v1/decisions',
  operationId: 'listDecisions',
  tags: ['decisions'],
  summary: 'List decisions, by status and point',
  description:
    'With `as_of`, an audit: the decisions that existed then, as they stood then (one accepted, superseded or revoked ' +
    'later has the status it had then; one proposed later is not listed), each with `unrecorded` where a later ' +
    're-import changed fields before their earlier values were kept.',
  request: { query: ListQuery },
  responses: { 200: { description: 'Decisions in key order', ...json(DecisionList) }, 400: invalid },
})

const applicable = createRoute({
  method: 'get',
  path: '/v1/decisions/applicable',
  operationId: 'listApplicableDecisions',
  tags: ['decisions'],
  summary: 'Accepted decisions that apply to a run (R-CON-4)',
  description:
    'Decisions with no task, path or stage scope are global; scoped ones apply to that task, that path and below, ' +
    'that stage. With no path given, path-scoped decisions are excluded (likewise task and stage). With `point`, ' +
    'decisions bound to other points are excluded. Every decision returned counts a recall pulse (a HEAD counts none). With `as_of`, an ' +
    'audit: the decisions that applied then, as they stood then (one accepted later is not there, one superseded or ' +
    'revoked later is); it counts no pulse.',
  request: { query: ApplicableQuery },
  responses: { 200: { description: 'The applicable decisions', ...json(DecisionList) }, 400: invalid },
})

const pulses = createRoute({
  method: 'get',
  path: '/v1/decisions/pulses',
  operationId: 'getDecisionPulses',
  tags: ['decisions'],
  summary: 'How often each decision reached a run; which never did (R-CON-4)',
  responses: { 200: { description: 'Pulses per decision', ...json(PulseReportSchema) } },
})

const check = createRoute({
  method: 'post',
  path: '/v1/decisions/check',
  operationId: 'checkDecision',
  tags: ['decisions'],
  summary: 'Is this action or choice allowed by the decisions in force? (R-CON-3)',
  description:
    'An `action` (a shell command) is tested against the `must_not` patterns of the accepted decisions that apply, ' +
    'as written and as the shell runs it (quotes removed, each command of a chain, wrappers such as `sudo` taken off); ' +
    'a `choice` at a `point` against their option constraints (an option it names as labels are matched, else in other words ' +
    "among the options the point's decisions and the policy's static_default name: `S` is `Tier S` beside `Tier M`; with `all_options`, " +
    'the options the question offered, among those, as the recommendation offering them reads them: it blocks what that rules out) and limits; ' +
    'a `choice` with no `point` against the `must_not` options and limits of every decision that applies, at each point it is bound to (a `must` or `prefer` does not block it: it may be made at another point). ' +
    'Required decisions block; advisory ones warn. ' +
    'Each decision checked counts a recall pulse. With `as_of`, an audit ("why was this command blocked last ' +
    'Tuesday?"): checked against the decisions in force then, as they stood then; it counts no pulse. ' +
    "With a `user`, a one-label `choice` at a point neither `multi_select` nor the policy says is read as that user's latest own choice there was asked, " +
    'as capture stores it (after a multi-select one, `Lint, E2E tests` is both options), as of `as_of` for an audit; with auth on, the token must act for that user (else 403).',
  request: { body: { required: true, ...body(CheckBody) } },
  responses: {
    200: { description: 'The verdict', ...json(VerdictSchema) },
    400: invalid,
    403: { description: 'With auth on, the token may not act for the `user` of the body', ...json(ErrorSchema) },
  },
})

const importRecords = createRoute({
  method: 'post',
  path: '/v1/decisions/import',
  operationId: 'importDecisions',
  tags: ['decisions'],
  summary: 'Import decision records read from a repository (R-CON-6; sent by `decision-memory import-adr`)',
  description:
    'Idempotent: a record imported before with the same content is `unchanged`. Two records with one key ' +
    '(`duplicate_key`), a record that supersedes itself or what supersedes it, or records whose supersede links go round in a loop, are refused with nothing stored. ' +
    'A re-import never moves a revoked or superseded decision, nor relinks a supersede made over the API (`warnings` say so). ' +
    'A decision of the folder whose file is no longer among `files`, or whose section is no longer in its log (`logs`), keeps its ' +
    'status and is listed in `missing`; a folder whose records are all gone is sent with none, naming itself in `folder`. ' +
    'A record whose file gave it another key before carries the decision stored under that key over (`rekeyed`, and `warnings`). ' +
    'With `dry_run: true`, nothing is stored, and the report says what the import would do.',
  request: { body: { required: true, ...body(ImportBody) } },
  responses: { 200: { description: 'What the import did', ...json(ImportReportSchema) }, 400: invalid },
})

const read = createRoute({
  method: 'get',
  path: '/v1/decisions/{key}',
  operationId: 'getDecision',
  tags: ['decisions'],
  summary: 'A decision with its event history',
  description: 'With `as_of`, the decision as it stood then (status, links, enforce level, texts), with its events up to then.',
  request: { params: DecisionKeyParam, query: DecisionAsOfQuery },
  responses: { 200: { description: 'The decision', ...json(DecisionSchema) }, 400: invalid, 404: missingThen },
})

function lifecycleRoute(step: 'accept' | 'deprecate' | 'revoke', summary: string, conflicts: string) {
  return createRoute({
    method: 'post',
    path: `/v1/decisions/{key}/${step}`,
    operationId: `${step}Decision`,
    tags: ['decisions'],
    summary,
    request: { params: DecisionKeyParam, body: { required: false, ...body(TransitionBody) } },
    responses: {
      200: { description: 'The decision, with its events', ...json(DecisionSchema) },
      400: invalid,
      404: missing,
      409: conflict(conflicts),
    },
  })
}

const accept = lifecycleRoute('accept', 'Accept a proposal; one that `supersedes` another supersedes it now', `${NOT_A_STEP}; or ${REPLACED}`)
const deprecate = lifecycleRoute('deprecate', 'Deprecate an accepted decision', NOT_A_STEP)
const revoke = lifecycleRoute('revoke', 'Revoke a decision (a proposal: reject it)', NOT_A_STEP)

const supersede = createRoute({
  method: 'post',
  path: '/v1/decisions/{key}/supersede',
  operationId: 'supersedeDecision',
  tags: ['decisions'],
  summary: 'Supersede a decision by another',
  description: 'A proposed replacement is accepted by this; an accepted one is linked. Both keep their history.',
  request: { params: DecisionKeyParam, body: { required: true, ...body(SupersedeBody) } },
  responses: {
    200: { description: 'The superseded decision, with its events', ...json(DecisionSchema) },
    400: invalid,
    404: missing,
    409: conflict(
      `${NOT_A_STEP}; \`already_superseded\`: the decision was replaced already; or \`supersedes_another\`: \`by\` replaces another decision`,
    ),
  },
})

const whyDecision = createRoute({
  method: 'get',
  path: '/v1/decisions/{key}/why',
  operationId: 'explainDecision',
  tags: ['decisions'],
  summary: 'Why: the supersede chain of a decision, each link with its rationale, source and evidence, and the proposals pending (R-CON-5)',
  description: 'With `as_of`, the chain as it stood then: the decisions of it that existed, their statuses and links then, their events up to then.',
  request: { params: DecisionKeyParam, query: DecisionAsOfQuery },
  responses: { 200: { description: 'The chain, oldest first', ...json(DecisionWhySchema) }, 400: invalid, 404: missingThen },
})

const whyPoint = createRoute({
  method: 'get',
  path: '/v1/why',
  operationId: 'explainPoint',
  tags: ['decisions'],
  summary: "Why: what is recommended at a point, and the decisions and observations behind it (R-CON-5)",
  description:
    'The recommendation is recomputed from the latest question asked at the point, in the run that `task`, `path` and ' +
    '`stage` describe (as a recommendation\'s `context` does: decisions scoped by one of them apply only when it is ' +
    'given, R-CON-4), as of `as_of` (now unless given).',
  request: { query: WhyQuery },
  responses: {
    200: { description: 'The explanation; every id it cites exists', ...json(PointWhySchema) },
    400: invalid,
    404: { description: 'Nothing is known of the point', ...json(ErrorSchema) },
  },
})

/**
 * Decisions as contracts (R-CON): lifecycle, applicability, check, import and `why`. Decisions are
 * every user's: with auth on, any token reads them, and only a token for every user writes them.
 */
export function decisionRoutes(decisions: Decisions, memory: DecisionMemory) {
  // The fixed paths under /v1/decisions/ come before /v1/decisions/{key}, which would match them.
  return createRouter()
    .openapi(forEveryUser('create a decision, which every user shares', propose), async (c) => {
      const body = c.req.valid('json')
      try {
        return c.json(await decisions.propose(proposalOf(body)), 201)
      } catch (error) {
        throw namedAsSent(error, body)
      }
    })
    .openapi(list, async (c) => c.json({ decisions: await decisions.list(c.req.valid('query')) }, 200))
    // A HEAD (a link checker, a probe) is answered as the GET without its body, and reaches no run: it counts no pulse.
    .openapi(applicable, async (c) => {
      const count = c.req.method !== 'HEAD'
      // Counting pulses writes: a store failure of it is said as of a write.
      if (count) markWrites(c)
      return c.json({ decisions: await decisions.applicable(c.req.valid('query'), { count }) }, 200)
    })
    .openapi(pulses, async (c) => c.json(await decisions.pulses(), 200))
    .route('/', checkRoute(memory))
    .openapi(forEveryUser('import decisions, which every user shares', importRecords), async (c) => {
      const { records, dry_run, ...folder } = c.req.valid('json')
      // A dry run stores nothing: a store failure of it is said as of a read.
      if (dry_run === true) markWritesNothing(c)
      return c.json(await decisions.import(records, { ...folder, dryRun: dry_run }), 200)
    })
    .openapi(read, async (c) => c.json(await decisions.get(c.req.valid('param').key, c.req.valid('query')), 200))
    .openapi(forEveryUser('accept a decision, which every user shares', accept), async (c) => c.json(await decisions.accept(c.req.valid('param').key, c.req.valid('json')), 200))
    .openapi(forEveryUser('deprecate a decision, which every user shares', deprecate), async (c) => c.json(await decisions.deprecate(c.req.valid('param').key, c.req.valid('json')), 200))
    .openapi(forEveryUser('revoke a decision, which every user shares', revoke), async (c) => c.json(await decisions.revoke(c.req.valid('param').key, c.req.valid('json')), 200))
    .openapi(forEveryUser('supersede a decision, which every user shares', supersede), async (c) => c.json(await decisions.supersede(c.req.valid('param').key, c.req.valid('json')), 200))
    .openapi(whyDecision, async (c) => c.json(await decisions.why(c.req.valid('param').key, c.req.valid('query')), 200))
    .openapi(whyPoint, async (c) => {
      const q = c.req.valid('query')
      authorizeUsers(c, [q.user])
      // The recommendation it explains may rebuild the point's aggregate into core, a write: a store
      // failure of it is said as of a write, as `why --point` and the MCP `why` of a point say it.
      markWrites(c)
      return c.json(await memory.why(q), 200)
    })
}

/**
 * `POST /v1/decisions/check`, on a router of its own: it reads a user in its body (whose history
 * says how a string choice was asked), and takes a `?user=` naming that user as the routes that do.
 */
function checkRoute(memory: DecisionMemory) {
  return createRouter({ queryUser: true }).openapi(check, async (c) => {
    const body = c.req.valid('json')
    refuseOtherQueryUser(c, body.user === undefined ? [] : [body.user], 'body', 'no user')
    authorizeUsers(c, body.user === undefined ? [] : [body.user])
    // An audit (as_of) reads the decisions as they stood then and counts no pulse: it writes nothing.
    if (body.as_of !== undefined) markWritesNothing(c)
    return c.json(await memory.check(body), 200)
  })
}
