import type { Clock } from './clock'
import type { CheckRequest, Decisions } from './decisions/decisions'
import type { Verdict } from './decisions/constraints'
import { onceEach } from './decisions/constraints'
import { applyDecisions, askOverGlobalLimits, contractFor, type ContractedRecommendation } from './decisions/enforcement'
import { explainPoint, type PointWhy, type PointWhyQuery } from './decisions/explain-point'
import { createDataRights, type DataRights } from './data-rights'
import { agentMarkedDefault } from './domain/agent-default'
import { decisionPointKey, pointPolicy, pointRule, singleSelectByPolicy } from './domain/decision-point'
import { InputError } from './domain/errors'
import { oncePerFrozen } from './domain/freeze'
import { offeredOptions } from './domain/offered-options'
import { matchOption, matchInOtherWords, normalizeLabel, resolveChoice } from './domain/labels'
import { LabelSchema, multiSelectOf, refuseUnwritable, shownName, type Observation, type ObservationInput } from './domain/observation'
import type { CompiledPolicy } from './domain/policy'
import { recommend, type RecommendationRequest } from './domain/recommendation'
import { expertiseLevel, type ExpertiseLevel } from './domain/expertise'
import { aggregationParams } from './domain/aggregate'
import { checkTimestamp, notAhead } from './domain/timestamp'
import { createAnswerCache } from './memory/answer-cache'
import { createDecayScan, type DecayScanResult } from './memory/decay-scan'
import type { PlannedPoint, ShownPoint } from './memory/planned-points'
import { personalizationAt, type MemoryStore, type SessionRecord } from './memory/store'
import { createObservationIds } from './observation-id'
import { randomHex } from './random-hex'

export interface SessionView extends SessionRecord {
  expertise: { sessions: number; level: ExpertiseLevel }
}

export interface ObserveResult {
  stored: Array<{ id: string; point: string; decision_id: string | null }>
  duplicates: string[]
}

/**
 * decision-memory's use cases over a store, a policy and a clock. HTTP, the CLI, the hooks and
 * MCP are doorways onto these functions; none of them has a second implementation.
 */
export interface DecisionMemory extends DataRights {
  readonly policy: CompiledPolicy
  /** The clock its answers are as of: an `as_of` given is checked against it (checkTimestamp). */
  readonly clock: Clock
  /**
   * Stores the observations, all or none. A refused field is named by its item's place
   * (`1.timestamp`) when there are several, or when `indexed` says they came as an array (an HTTP
   * body `[{…}]`, whose schema errors say `0.…` too); a lone one sent alone is named as it is.
   */
  observe(inputs: readonly ObservationInput[], options?: { indexed?: boolean }): Promise<ObserveResult>
  /**
   * Whether the observation stored under `input`'s decision_id is an answer this service gave
   * itself (`auto-resolved`) other than `input`'s: the user was asked after all and answered
   * otherwise. Looked for among the latest ANSWER_LOOKBACK observations at its point.
   */
  answeredOtherwise(input: ObservationInput): Promise<boolean>
  /**
   * Why the free text `input` would be stored with as `other` (R-CAP-3) is refused, as
   * `POST /v1/observations` refuses a `user_choice` (LabelSchema's words), else undefined: for a
   * doorway that reads a choice from another shape (the Claude Code hook's answer), so that what
   * it stores can be sent back to the route (an export re-sent) and the doorways agree.
   */
  refusedText(input: ObservationInput): string | undefined
  /** The recommendation joined with the decisions bound to its point (R-CON-2). */
  recommend(request: RecommendationRequest): Promise<ContractedRecommendation>
  /**
   * The same recommendation as the UTF-8 JSON the HTTP route sends: an answer kept is kept as these
   * bytes alone, and they are the kept ones, not a copy (a copy per request would cost what keeping
   * them saves): send them, never write to them. Callers that need an object use `recommend`.
   */
  recommendJson(request: RecommendationRequest): Promise<Uint8Array<ArrayBuffer>>
  /**
   * Checks an action or a choice against the decisions in force (R-CON-3). With a `user`, a string
   * choice at a point neither the request (`multi_select`) nor the policy says is read as the user's
   * latest own choice there was asked (as of `as_of`), as capture stores it: at a multi-select point,
   * the labels it joins. Without one, as the decisions alone read it.
   */
  check(request: CheckRequest): Promise<Verdict>
  /** Why a point's recommendation is what it is: decisions, chains and observations (R-CON-5). */
  why(query: PointWhyQuery): Promise<PointWhy>
  startSession(input: { user: string; project?: string | undefined; session_id?: string | undefined; started_at?: string | undefined }): Promise<SessionView & { created: boolean }>
  /** The project a session of the user was started in: null for none, undefined for no such session. */
  sessionProject(user: string, session_id: string): Promise<string | null | undefined>
  /**
   * Sets (or, with `enabled` undefined, flips) a session's personalization (R-SES-3). A session not
   * stored is started, its id and user refused as a write refuses them (spaced at their ends): one
   * stored so before is toggled. `sessionField` names the id in that refusal (the route's `id`).
   */
  setPersonalization(input: { session_id: string; user?: string | undefined; enabled?: boolean | undefined; sessionField?: string }): Promise<SessionView>
  /**
   * A session as stored, its personalization among it, with the user's expertise: read, never
   * started. Whose, as for a toggle: `user`, else the one user who has that id (several: refused,
   * `ambiguous_session`). None: `session_not_found` (404), at `sessionField` (the route's `id`).
   */
  session(input: { session_id: string; user?: string | undefined; sessionField?: string }): Promise<SessionView>
  /**
   * Remembers the points questions were planned at, by the decision_id their answers will carry:
   * a PreToolUse that took options out of them, whose answers carry only the options shown.
   */
  rememberPlannedPoints(user: string, planned: readonly PlannedPoint[]): Promise<void>
  /** The decision_ids among these that the user has an observation stored under. */
  heldDecisionIds(user: string, decisionIds: readonly string[]): Promise<Set<string>>
  /** The points remembered for these decision_ids, by decision_id (those with none left out). */
  plannedPoints(user: string, decisionIds: readonly string[]): Promise<Map<string, string>>
  /** Forgets where these decision_ids were planned: their answers are stored. */
  dropPlannedPoints(user: string, decisionIds: readonly string[]): Promise<void>
  /**
   * Remembers the points questions were planned at, by the point each question as shown keys to:
   * a plan (`POST /v1/plan`, `plan_questions`) that took options out of them, which the agent asks as shown.
   */
  rememberShownPoints(user: string, shown: readonly ShownPoint[]): Promise<void>
  /** The points remembered for these shown points, by shown point (those with none left out). */
  shownPoints(user: string, shown: readonly string[]): Promise<Map<string, string>>
  /** Runs the decay scan (R-MEM-7) as of `now` (default: the clock), unless within its cadence window and not forced. */
  decayScan(input?: { force?: boolean | undefined; now?: string | undefined; signal?: AbortSignal | undefined }): Promise<DecayScanResult>
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** How many of the latest observations at a point `answeredOtherwise` looks through: an answer comes minutes after its question. */
const ANSWER_LOOKBACK = 200

/** How many (user, point) pairs the flag of the latest choice is kept for. */
const LATEST_FLAGS_KEPT = 10_000

// The cache key of a request. The route hands the same frozen request for the same body again
// (it remembers validated bodies), so the key of a frozen one is written once.
const keyOf = oncePerFrozen((request: RecommendationRequest) => JSON.stringify(request))

/**
 * The ids of observations made in this process: observations dated alike are ordered by their ids,
 * so in the order they were made here, by any memory. One sequence for them all, since a command on
 * `--data`, and the MCP server without a service, make a memory for each call.
 */
const observationIds = createObservationIds()

/**
 * The observe calls under way on each store, by user and point (afterWritesAt): on the store, not
 * on a memory, since the MCP server without a service makes a memory for each call.
 */
const observing = new WeakMap<MemoryStore, Map<string, Set<Promise<void>>>>()

export function createDecisionMemory(deps: {
  store: MemoryStore
  policy: CompiledPolicy
  clock: Clock
  newId?: (now: Date) => string
  /** Decisions as contracts (R-CON); without them, recommendations are learned only. */
  decisions?: Decisions
}): DecisionMemory {
  const { store, policy, clock, decisions } = deps
  const newId = deps.newId ?? observationIds
  const tiers = aggregationParams(policy)
  if (tiers.alpha !== store.aggregation.alpha || tiers.candidates !== store.aggregation.candidates || tiers.recentSessions !== store.aggregation.recentSessions) {
    throw new Error('the store was opened with another policy than this one: open it with the same policy')
  }
  const decayScan = createDecayScan({ store, policy, clock })
  // Answers are kept as their JSON alone, which is what the route sends and what they are charged:
  // kept as objects besides, 2,000 answers held 8 MB more (about 4 KB each), and the service's
  // peak RSS under the bench's loads was about 13 MB higher (bench/HISTORY.md).
  const answers = createAnswerCache<Uint8Array<ArrayBuffer>>({ maxBytes: policy.cache.megabytes * 2 ** 20, ttlMs: policy.cache.seconds * 1000 })
  /** What a user's answers were computed from: the store's writes and the decisions'. */
  const versionOf = (user: string) => `${store.changesOf(user)}/${decisions?.changes() ?? 0}`
  // The flag of the user's latest own choice at a point, as of now, kept while none of the user's
  // writes has run since it was read: read from core at a point there (R-MEM-1), else by a reverse
  // seek in archival, which took a computed recommendation from about 340 to 580 µs in process
  // (bench section 2, side by side). A choice dated a few minutes ahead (the clock skew a
  // timestamp may have) counts once a write of the user's reads the flag again. Told only as of
  // the moment it was read or later: as of before it (a clock stepped back), a choice between the
  // two is not yet made.
  const latestFlags = new Map<string, { changes: number; at: number; multi_select: boolean | undefined }>()
  async function latestFlagAt(user: string, point: string, asOf: Date, replay: boolean): Promise<boolean | undefined> {
    if (replay) return store.latestMultiSelectAt(user, point, asOf)
    const k = `${user}\u0000${point}`
    const changes = store.changesOf(user)
    const known = latestFlags.get(k)
    if (known !== undefined && known.changes === changes && known.at <= asOf.getTime()) return known.multi_select
    const flag = await store.latestMultiSelectAt(user, point, asOf)
    if (store.changesOf(user) === changes) {
      // Oldest first out: bounded as core is; a point asked again is read again.
      if (known === undefined && latestFlags.size >= LATEST_FLAGS_KEPT) latestFlags.delete(latestFlags.keys().next().value as string)
      latestFlags.set(k, { changes, at: asOf.getTime(), multi_select: flag })
    }
    return flag
  }

  /** The one user who has a session of this id, undefined when none has; several: refused, naming them. */
  async function sessionOwner(sessionId: string): Promise<string | undefined> {
    const owners = await store.sessionOwners(sessionId)
    if (owners.length > 1) {
      // Names as messages show them: a session or user stored spaced at its ends before writes refused one is quoted.
      throw new InputError('ambiguous_session', `session ${shownName(sessionId)} belongs to several users`, {
        issues: [{ path: 'user', message: `name one of: ${owners.map(shownName).join(', ')}` }],
      })
    }
    return owners[0]
  }

  async function sessionView(session: SessionRecord): Promise<SessionView> {
    const sessions = await store.countSessions(session.user)
    return { ...session, expertise: { sessions, level: expertiseLevel(sessions, policy) } }
  }

  /** A kept answer's JSON, or the answer computed (and its JSON when it was kept). */
  async function answerFor(
    request: RecommendationRequest,
  ): Promise<{ kept: Uint8Array<ArrayBuffer> } | { computed: ContractedRecommendation; json: Uint8Array<ArrayBuffer> | undefined }> {
    const now = clock.now()
    // A replay (as_of) is computed every time; an answer as of now may be the one computed a
    // moment ago, if nothing it read has been written since: it is exactly the answer as of that
    // moment, and its as_of says so. (Served as of now instead, it could claim a moment at which
    // an observation had already left the change test's window, or a future-dated one entered.)
    const cacheKey = request.as_of === undefined ? keyOf(request) : undefined
    const version = versionOf(request.user)
    if (cacheKey !== undefined) {
      const kept = answers.get(cacheKey, version, now.getTime())
      if (kept !== undefined) return { kept: kept.value }
    }
    const asOf = checkTimestamp(request.as_of, now, 'as_of') ?? now
    const offered = offeredOptions(request.all_options)
    const options = offered.map((o) => o.option)
    let staticDefault: string | undefined
    if (request.static_default !== undefined) {
      // The option it names, as a choice and the policy's default name one (R-CAP-3): exact, else in another case.
      staticDefault = matchOption(request.static_default, options)
      if (staticDefault === undefined) {
        throw new InputError('static_default_not_offered', `static_default "${normalizeLabel(request.static_default)}" is not one of all_options`, {
          issues: [{ path: 'static_default', message: 'must be one of all_options' }],
        })
      }
    }
    // Checked before the session is started: a refused request stores nothing.
    const multiSelect = multiSelectOf(request)
    const point = decisionPointKey(
      { point: request.point, header: request.header, question: request.question, options },
      policy,
    )
    let personalization = true
    if (request.session_id !== undefined) {
      // A session id seen for the first time here starts the session (R-SES-1); a replay
      // (as_of) only reads.
      const existing = await store.getSession(request.user, request.session_id)
      // Without as_of, the setting it has now: the last toggle holds even if the clock has
      // stepped back behind its moment.
      if (existing !== undefined) personalization = request.as_of === undefined ? existing.personalization : personalizationAt(existing, asOf)
      else if (request.as_of === undefined) {
        await store.startSession({
          session_id: request.session_id,
          user: request.user,
          project: request.project ?? null,
          started_at: now.toISOString(),
          personalization: true,
        })
      }
    }
    // Neither the request nor the policy says whether the point is multi-select (a client that
    // leaves it out: MCP, HTTP): as the user's latest choice there was asked. Read beside the
    // others, and only then: a request that says costs no read more.
    const rule = pointRule({ key: point, header: request.header, question: request.question }, policy)
    const readLatest = multiSelect === undefined && rule?.multi_select === undefined
    const [sessions, bound, latest] = await Promise.all([
      store.countSessions(request.user, asOf),
      decisions?.atPoint({ point, context: request.context, asOf: request.as_of === undefined ? undefined : asOf }),
      readLatest ? latestFlagAt(request.user, point, asOf, request.as_of !== undefined) : undefined,
    ])
    // Asked without one, the option the agent marked ` (Recommended)`, as a plan takes it: the
    // same question asked through `recommend` and through `plan_questions` (or the PreToolUse
    // hook) is recommended alike. Not at a point multi-select by the policy or by the user's latest
    // choice, which a request that does not say is read as (the plan says, and takes no mark there).
    staticDefault ??= agentMarkedDefault(request.all_options, multiSelect ?? rule?.multi_select ?? latest)
    // The policy's default, which an advisory must_not may set aside for another: read only where decisions are bound.
    const policyDefault = () => {
      const named = rule?.static_default
      return named === undefined ? undefined : matchInOtherWords(named, options)
    }
    const contract = bound === undefined ? undefined : contractFor(bound, offered, staticDefault, bound.length === 0 ? undefined : policyDefault())
    const recommendation = await store.readPoint(request.user, point, asOf, (memory) => recommend({
      point,
      question: request.question,
      header: request.header,
      options: contract?.offered ?? offered,
      offered,
      context: request.context,
      project: request.project,
      session_id: request.session_id,
      static_default: contract === undefined ? staticDefault : contract.staticDefault,
      multi_select: multiSelect,
      latest_multi_select: latest,
      memory,
      sessions,
      personalization,
      asOf,
      policy,
    }), now)
    const contracted = contract === undefined ? recommendation : applyDecisions(recommendation, contract, rule?.always_ask ?? false, policy)
    // A required limit bound to no point is checked at every point: an answer it blocks is asked.
    // A required must it blocks contradicts it: named in `conflicts`, asked or not.
    const musts = contract?.musts ?? []
    const answer =
      (contracted.ask && musts.length === 0) || decisions === undefined
        ? contracted
        : askOverGlobalLimits(contracted, await decisions.globalLimits({ context: request.context, asOf: request.as_of === undefined ? undefined : asOf }), musts)
    // Kept only when no decision binds the point: each answer under a decision counts its pulse.
    // Nor when anything was written while it was computed: it would never be served, and would
    // push out an answer computed since.
    if (cacheKey !== undefined && (bound === undefined || bound.length === 0) && versionOf(request.user) === version) {
      // Charged what it holds: its key and its JSON (both grow with the request); the route
      // sends those same bytes.
      const json = encoder.encode(JSON.stringify(answer))
      answers.set(cacheKey, version, now.getTime(), json, 2 * cacheKey.length + json.length)
      return { computed: answer, json }
    }
    return { computed: answer, json: undefined }
  }

  /** How many distinct answers a choice holds: the options it names, and each text that names none. */
  function answerCount(choice: string | readonly string[], options: readonly string[]): number {
    if (typeof choice === 'string') return 1
    return new Set(choice.map((label) => matchOption(label, options) ?? `\u0000${normalizeLabel(label)}`)).size
  }

  /**
   * Whether a choice is captured as multi-select, and who said so: the observation; else the
   * policy's point (a joined answer, "Lint, Test", at a point the policy marks multi_select is those
   * labels, as the recommendation there reads it; an array at one it marks single-select is one
   * choice, as a check reads it); else the choice, multi-select when it is an array.
   */
  function capturedMultiSelect(
    input: ObservationInput,
    point: string,
    path = '',
    latest?: boolean,
  ): { multiSelect: boolean; by: 'request' | 'policy' | 'history' | 'choice' } {
    const said = multiSelectOf(input, path)
    if (said !== undefined) return { multiSelect: said, by: 'request' }
    const byPolicy = pointRule({ key: point, header: input.header, question: input.question }, policy)?.multi_select
    if (byPolicy !== undefined) return { multiSelect: byPolicy, by: 'policy' }
    return chosenMultiSelect(input, latest)
  }

  /** How an observation is asked at its point, and what says so (capturedMultiSelect). */
  type Captured = ReturnType<typeof capturedMultiSelect>

  /** capturedMultiSelect where neither the observation nor the policy says. */
  function chosenMultiSelect(input: ObservationInput, latest: boolean | undefined): { multiSelect: boolean; by: 'history' | 'choice' } {
    // One string at a point whose latest own choice was multi-select (`latest`, as a recommendation
    // there reads the point): a label, or labels joined as Claude Code joins them, of that question.
    // Read as single-select, `Lint, E2E` was stored as free text, and `Lint` alone made the point
    // single-select, its sets then read as shares of one choice. An array is multi-select as ever.
    if (latest === true && typeof input.user_choice === 'string') return { multiSelect: true, by: 'history' }
    return { multiSelect: Array.isArray(input.user_choice), by: 'choice' }
  }

  /** An observation's options, the point they and its question key to, and its kind there but by its history (capturedMultiSelect). */
  type Keyed = { options: string[]; point: string; multiSelect?: boolean; by?: 'request' | 'policy' | 'choice' }
  /** A user's point in a batch, and its observations there (keyedOf). */
  type PointOfUser = { user: string; point: string; reads: Array<{ i: number; at: number; own: boolean; asks: boolean; said: boolean }> }

  /** An observation's options and the point they and its question key to; a refused field named at `path`. */
  function pointOf(input: ObservationInput, path: string): Keyed {
    const options = offeredOptions(input.all_options, `${path}all_options`).map((o) => o.option)
    return { options, point: decisionPointKey({ point: input.point, header: input.header, question: input.question, options }, policy) }
  }

  /**
   * Each observation's options, the point they key to, and its kind there as it or the policy says
   * (else as its choice is, `by: 'choice'`), by index, with them grouped by user and point: keyed
   * once for observe's loop, the read of the history and the writes under way. An observation
   * refused for its fields is left out, to the refusal in observe's loop, in its order.
   */
  function keyedOf(inputs: readonly ObservationInput[], now: Date): { keyed: Array<Keyed | undefined>; groups: Map<string, PointOfUser> } {
    const keyed: Array<Keyed | undefined> = inputs.map(() => undefined)
    const groups = new Map<string, PointOfUser>()
    inputs.forEach((input, i) => {
      try {
        const at = notAhead(checkTimestamp(input.timestamp, now, 'timestamp') ?? now, now).getTime()
        const options = offeredOptions(input.all_options).map((o) => o.option)
        const point = decisionPointKey({ point: input.point, header: input.header, question: input.question, options }, policy)
        const { multiSelect, by } = capturedMultiSelect(input, point)
        // Not from history: none is read here.
        if (by === 'history') return
        keyed[i] = { options, point, multiSelect, by }
        const k = `${input.user}\u0000${point}`
        const group = groups.get(k) ?? { user: input.user, point, reads: [] }
        groups.set(k, group)
        group.reads.push({ i, at, own: input.source !== 'auto-resolved', asks: by === 'choice' && typeof input.user_choice === 'string', said: multiSelect })
      } catch {
        // Refused in observe's loop, with its place.
      }
    })
    return { keyed, groups }
  }

  /**
   * Whether each observation's point is multi-select by the user's latest own choice there by its
   * moment (its timestamp), where neither it nor the policy says and its choice is one string
   * (capturedMultiSelect), by index; undefined elsewhere. The batch's own choices at the point count
   * in time order, whatever their order in it, as they would posted one at a time: read in the
   * batch's order, `Unit tests` at 9:00 sent before {Lint, Unit tests} at 8:00 was single-select, the
   * point's latest choice. As of its moment, as a recommendation then read the point: an answer
   * given before the point was multi-select is read as it was asked then.
   */
  async function latestFlagsOf(inputs: readonly ObservationInput[], groups: ReadonlyMap<string, PointOfUser>, now: Date): Promise<Array<boolean | undefined>> {
    const flags: Array<boolean | undefined> = inputs.map(() => undefined)
    const stored = async (user: string, point: string, at: number) => (at === now.getTime() ? latestFlagAt(user, point, now, false) : latestFlagAt(user, point, new Date(at), true))
    await Promise.all(
      [...groups.values()].map(async ({ user, point, reads }) => {
        if (!reads.some((r) => r.asks)) return
        // The batch's latest own choice at the point so far, in time order (a tie as recorded: in the batch's order).
        let before: { at: number; flag: boolean } | undefined
        // The moment of the newest own choice stored (-Infinity: none), read once: a batch made after
        // it (a history sent in parts, oldest first) reads no more.
        let newestStored: Promise<number> | undefined
        for (const r of [...reads].sort((a, b) => a.at - b.at || a.i - b.i)) {
          let flag = r.said
          if (r.asks) {
            let latest: boolean | undefined
            if (before === undefined) latest = await stored(user, point, r.at)
            else if (before.at === r.at) latest = before.flag
            else {
              newestStored ??= store.latestChoiceAt(user, point, undefined, Infinity).then((o) => (o === undefined ? -Infinity : Date.parse(o.timestamp)))
              if ((await newestStored) <= before.at) latest = before.flag
              else {
                // A stored choice between the batch's earlier one and this one is the later.
                const newest = await store.latestChoiceAt(user, point, new Date(r.at), Infinity)
                latest = newest !== undefined && Date.parse(newest.timestamp) > before.at ? newest.multi_select : before.flag
              }
            }
            flags[r.i] = latest
            flag = latest === true
          }
          if (r.own) before = { at: r.at, flag }
        }
      }),
    )
    return flags
  }

  /**
   * Runs `write` once the observations under way at the points of `groups` where a string choice
   * reads the history are stored, and registers it for those sent after it: read before they
   * landed, {Lint, Unit tests} posted alongside `Unit tests`, the later, left it single-select, the
   * point's latest choice. Only a batch that reads waits, and only for writes at its points.
   */
  async function afterWritesAt<T>(groups: ReadonlyMap<string, PointOfUser>, write: () => Promise<T>): Promise<T> {
    const reading = [...groups].filter(([, g]) => g.reads.some((r) => r.asks)).map(([k]) => k)
    const { earlier, done } = underWayAt([...groups.keys()], reading)
    try {
      await Promise.all(earlier)
      return await write()
    } finally {
      done()
    }
  }

  /**
   * Registers an observe under way at `points` (keys of user and point) on this store, for the
   * observes sent after it; gives those already under way at the points it `reads` the history of,
   * to wait for (taken before its own is added: an observe waits only for those sent before it, so
   * no two wait for each other), and `done`, which ends it there.
   */
  function underWayAt(points: readonly string[], reads: readonly string[]): { earlier: Array<Promise<void>>; done: () => void } {
    let found = observing.get(store)
    if (found === undefined) observing.set(store, (found = new Map()))
    const underWay = found
    const earlier: Array<Promise<void>> = []
    for (const k of reads) for (const other of underWay.get(k) ?? []) earlier.push(other)
    let finish = () => {}
    const finished = new Promise<void>((resolve) => (finish = resolve))
    for (const k of points) {
      const set = underWay.get(k)
      if (set === undefined) underWay.set(k, new Set([finished]))
      else set.add(finished)
    }
    const done = () => {
      finish()
      for (const k of points) {
        const set = underWay.get(k)
        set?.delete(finished)
        if (set?.size === 0) underWay.delete(k)
      }
    }
    return { earlier, done }
  }

  /** Why the free text a choice is stored with as `other` is refused, as a `user_choice` is (LabelSchema's words), else undefined. */
  function otherRefused(other: string | null): string | undefined {
    if (other === null) return undefined
    const parsed = LabelSchema.safeParse(other)
    return parsed.success ? undefined : parsed.error.issues[0]?.message
  }

  /**
   * The observation stored for one input at its point, as it is asked there (`multiSelect`, told
   * `by`), under the `id` taken when it arrived: refused where its choice names nothing, gives
   * several answers at a single-select question, or joins texts past the label limit (`path`
   * names the field).
   */
  function observationFrom(input: ObservationInput, id: string, path: string, now: Date, at: Date, options: string[], point: string, multiSelect: boolean, by: Captured['by']): Observation {
    const choice = resolveChoice(input.user_choice, options, multiSelect)
    // `", ,"` at a multi-select question splits into no label and no text: stored, it would be a
    // choice of nothing, lowering every option's selection rate.
    if (choice.chosen.length === 0 && choice.other === null) {
      throw new InputError('invalid_request', `invalid request: ${path}user_choice`, {
        issues: [{ path: `${path}user_choice`, message: 'names no option and no text (only commas)' }],
      })
    }
    // Two answers at a single-select question, whatever they are: two options, or an option and
    // text (`["Tier S", "something else"]`), or two texts, which were stored joined as one
    // `other` the user never typed. The hook reads such an answer as no choice. Single-select
    // by the policy, an array of several was stored as a multi-select answer, where a check of
    // the same choice there is refused: told as the check tells it.
    if (!multiSelect && answerCount(input.user_choice, options) > 1) {
      const message =
        by === 'policy' && Array.isArray(input.user_choice)
          ? singleSelectByPolicy(point, onceEach(input.user_choice, options))
          : 'give one label, or set multi_select'
      throw new InputError('multiple_choices', 'a single-select question has one choice', {
        issues: [{ path: `${path}user_choice`, message }],
      })
    }
    // Each text of an array is within the label limit, but several are stored joined, as one
    // `other`, which the re-send of an export sends back as one label: refused there, the
    // answer could not be sent back, and the hook skips such an answer (refusedText).
    const refusedOther = Array.isArray(input.user_choice) ? otherRefused(choice.other) : undefined
    if (refusedOther !== undefined) {
      throw new InputError('invalid_request', `invalid request: ${path}user_choice`, {
        issues: [{ path: `${path}user_choice`, message: `its texts naming no option are stored as one, joined with ", ": ${refusedOther}` }],
      })
    }
    return {
      id,
      user: input.user,
      project: input.project ?? null,
      session_id: input.session_id ?? null,
      point,
      decision_id: input.decision_id ?? null,
      timestamp: at.toISOString(),
      recorded_at: now.toISOString(),
      question: input.question,
      header: input.header ?? null,
      options,
      chosen: choice.chosen,
      other: choice.other,
      multi_select: multiSelect,
      context: { ...(input.context ?? {}) },
      source: input.source,
    }
  }

  /** The session an observation starts (its user's, by its session_id), or moves back to it: the earliest observation of the batch there. */
  function sessionFrom(input: ObservationInput, timestamp: string, sessions: Map<string, SessionRecord>): void {
    if (input.session_id === undefined) return
    const k = `${input.user}\u0000${input.session_id}`
    const known = sessions.get(k)
    if (known === undefined || timestamp < known.started_at) {
      sessions.set(k, {
        session_id: input.session_id,
        user: input.user,
        project: input.project ?? null,
        started_at: timestamp,
        personalization: true,
      })
    }
  }

  /** What observe answers for what the store stored. */
  function observed(result: Awaited<ReturnType<MemoryStore['addObservations']>>): ObserveResult {
    return {
      stored: result.stored.map((o) => ({ id: o.id, point: o.point, decision_id: o.decision_id })),
      duplicates: result.duplicates,
    }
  }

  /** Stores the observations keyed (keyedOf), the history read first where a string asks it: observe's work, once the writes it waits for are done. */
  async function storeObservations(
    inputs: readonly ObservationInput[],
    keyedAll: ReadonlyArray<Keyed | undefined>,
    ids: readonly string[],
    groups: ReadonlyMap<string, PointOfUser>,
    now: Date,
    indexed: boolean,
  ): Promise<ObserveResult> {
    const observations: Observation[] = []
    const sessions = new Map<string, SessionRecord>()
    // The user's latest own choice at each point by each one's moment, the batch's own counted.
    const flags = await latestFlagsOf(inputs, groups, now)
    inputs.forEach((input, i) => {
      const path = inputs.length === 1 && !indexed ? '' : `${i}.`
      const at = notAhead(checkTimestamp(input.timestamp, now, `${path}timestamp`) ?? now, now)
      const keyed = keyedAll[i] ?? pointOf(input, path)
      const { options, point } = keyed
      // As keyedOf found it (the policy's rule, pointRule, not looked up again); by the history where neither says.
      const { multiSelect, by } =
        keyed.by === undefined || keyed.multiSelect === undefined
          ? capturedMultiSelect(input, point, path, flags[i])
          : keyed.by === 'choice'
            ? chosenMultiSelect(input, flags[i])
            : { multiSelect: keyed.multiSelect, by: keyed.by }
      const observation = observationFrom(input, ids[i] as string, path, now, at, options, point, multiSelect, by)
      observations.push(observation)
      sessionFrom(input, observation.timestamp, sessions)
    })
    return observed(await store.addObservations(observations, [...sessions.values()]))
  }

  /**
   * observe for a batch of one observation: as keyedOf, afterWritesAt, latestFlagsOf and
   * storeObservations do it for any batch, without their grouping, sorting and waiting where
   * there is one point and nothing to order (the hook's and record_choice's every call, and the
   * route's usual one): keyed once, its timestamp read once, and a wait only where a string reads
   * the history and another observe at its point is under way. A field refused is refused before
   * anything waits, as keyedOf leaves it to the loop: nothing was stored for it either way.
   */
  async function observeOne(input: ObservationInput, now: Date, path: string): Promise<ObserveResult> {
    const at = notAhead(checkTimestamp(input.timestamp, now, `${path}timestamp`) ?? now, now)
    const { options, point } = pointOf(input, path)
    const captured = capturedMultiSelect(input, point, path)
    const asks = captured.by === 'choice' && typeof input.user_choice === 'string'
    // Taken as it arrives, before any wait: dated alike, an observation sent after it at its point
    // while it reads the history (a set, which reads nothing) is the later, as it came.
    const id = newId(now)
    const k = `${input.user}\u0000${point}`
    const { earlier, done } = underWayAt([k], asks ? [k] : [])
    try {
      if (earlier.length > 0) await Promise.all(earlier)
      let multiSelect = captured.multiSelect
      let by: Captured['by'] = captured.by
      if (asks) {
        // The user's latest own choice at the point by the observation's moment (latestFlagsOf's `stored`).
        const latest = at.getTime() === now.getTime() ? await latestFlagAt(input.user, point, now, false) : await latestFlagAt(input.user, point, at, true)
        ;({ multiSelect, by } = chosenMultiSelect(input, latest))
      }
      const observation = observationFrom(input, id, path, now, at, options, point, multiSelect, by)
      const sessions = new Map<string, SessionRecord>()
      sessionFrom(input, observation.timestamp, sessions)
      return observed(await store.addObservations([observation], [...sessions.values()]))
    } finally {
      done()
    }
  }

  const memory: DecisionMemory = {
    async check(request) {
      if (decisions === undefined) throw new Error('a check needs the decisions: create the memory with them')
      const { user, point, choice } = request
      const unsaid = request.multi_select === undefined && request.multiSelect === undefined && (point === undefined || pointPolicy(point, policy)?.multi_select === undefined)
      if (user === undefined || point === undefined || typeof choice !== 'string' || !unsaid) return decisions.check(request)
      // Checked here as the check checks it (the same refusal), since the history is read as of it.
      const now = clock.now()
      const asOf = checkTimestamp(request.as_of, now, 'as_of')
      const latest = await latestFlagAt(user, point, asOf ?? now, asOf !== undefined)
      return decisions.check({ ...request, latest_multi_select: latest })
    },
    policy,
    clock,
    ...createDataRights(deps),

    async answeredOtherwise(input) {
      if (input.decision_id === undefined) return false
      const options = offeredOptions(input.all_options).map((o) => o.option)
      const point = decisionPointKey({ point: input.point, header: input.header, question: input.question, options }, policy)
      const stored = (await store.latestAt(input.user, point, ANSWER_LOOKBACK)).find((o) => o.decision_id === input.decision_id)
      if (stored?.source !== 'auto-resolved') return false
      const choice = resolveChoice(input.user_choice, options, capturedMultiSelect(input, point).multiSelect)
      const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i])
      return !same(choice.chosen, stored.chosen) || choice.other !== stored.other
    },

    refusedText(input) {
      const options = offeredOptions(input.all_options).map((o) => o.option)
      const point = decisionPointKey({ point: input.point, header: input.header, question: input.question, options }, policy)
      const { other } = resolveChoice(input.user_choice, options, capturedMultiSelect(input, point).multiSelect)
      return otherRefused(other)
    },

    async observe(inputs, { indexed = false } = {}) {
      const now = clock.now()
      if (inputs.length === 1) return observeOne(inputs[0] as ObservationInput, now, indexed ? '0.' : '')
      const { keyed, groups } = keyedOf(inputs, now)
      // Taken as the batch arrives, before it waits or reads: see observeOne.
      const ids = inputs.map(() => newId(now))
      return afterWritesAt(groups, () => storeObservations(inputs, keyed, ids, groups, now, indexed))
    },

    async recommend(request) {
      const answer = await answerFor(request)
      return 'kept' in answer ? (JSON.parse(decoder.decode(answer.kept)) as ContractedRecommendation) : answer.computed
    },

    async recommendJson(request) {
      const answer = await answerFor(request)
      return 'kept' in answer ? answer.kept : (answer.json ?? encoder.encode(JSON.stringify(answer.computed)))
    },

    async why(query) {
      const now = clock.now()
      const asOf = checkTimestamp(query.as_of, now, 'as_of') ?? now
      return explainPoint(
        {
          observationsAt: (user, point, at) => store.observationsAt(user, point, at),
          recommend: memory.recommend,
          decisions,
          policyPoint: (point) => {
            const named = pointPolicy(point, policy)
            // The point's precondition speaks of its own default; a point without one says the general one (R-REC-5).
            return named === undefined
              ? undefined
              : { static_default: named.static_default, precondition: named.precondition ?? policy.default_precondition, min_observations: policy.thresholds.min_observations }
          },
        },
        {
          user: query.user,
          project: query.project,
          session_id: query.session_id,
          point: query.point,
          asOf,
          replay: query.as_of !== undefined,
          run: { task: query.task, path: query.path, stage: query.stage },
        },
      )
    },

    async rememberPlannedPoints(user, planned) {
      await store.rememberPlannedPoints(user, planned, clock.now().toISOString())
    },

    async heldDecisionIds(user, decisionIds) {
      const held = await store.holdsDecisionIds(user, decisionIds)
      return new Set(decisionIds.filter((_, i) => held[i] === true))
    },

    async plannedPoints(user, decisionIds) {
      const points = await store.plannedPointsOf(user, decisionIds)
      return new Map(decisionIds.flatMap((id, i) => (points[i] === undefined ? [] : [[id, points[i]] as [string, string]])))
    },

    dropPlannedPoints(user, decisionIds) {
      return store.dropPlannedPoints(user, decisionIds)
    },

    async rememberShownPoints(user, shown) {
      await store.rememberShownPoints(user, shown, clock.now().toISOString())
    },

    async shownPoints(user, shown) {
      const points = await store.shownPointsOf(user, shown)
      return new Map(shown.flatMap((s, i) => (points[i] === undefined ? [] : [[s, points[i]] as [string, string]])))
    },

    async startSession(input) {
      const now = clock.now()
      const started = notAhead(checkTimestamp(input.started_at, now, 'started_at') ?? now, now)
      if (input.started_at === undefined && input.session_id !== undefined) {
        // Started again with no moment given (a resume): kept as it is. Now is no moment of its
        // start, and after the clock stepped back it would move the start before the session was.
        const existing = await store.getSession(input.user, input.session_id)
        if (existing !== undefined) return { ...(await sessionView(existing)), created: false }
      }
      const { session, created } = await store.startSession({
        session_id: input.session_id ?? `s-${now.getTime().toString(36)}-${randomHex(6)}`,
        user: input.user,
        project: input.project ?? null,
        started_at: started.toISOString(),
        personalization: true,
      })
      return { ...(await sessionView(session)), created }
    },

    async sessionProject(user, session_id) {
      return (await store.getSession(user, session_id))?.project
    },

    async setPersonalization(input) {
      const user = input.user ?? (await sessionOwner(input.session_id)) ?? 'default'
      let existing = await store.getSession(user, input.session_id)
      const now = clock.now().toISOString()
      if (existing === undefined) {
        // Toggling a session not seen yet starts it, with the toggle applied: its names are written.
        refuseUnwritable({ [input.sessionField ?? 'session_id']: input.session_id, user: input.user })
        const enabled = input.enabled ?? false
        const { session, created } = await store.startSession({
          session_id: input.session_id,
          user,
          project: null,
          started_at: now,
          personalization: enabled,
          toggles: [{ at: now, enabled }],
        })
        if (created) return sessionView(session)
        // Started meanwhile (by a recommendation, an observation, another toggle): the toggle
        // applies to it.
        existing = session
      }
      // The flip is decided in the store's write, not here: two flips at once flip twice.
      const updated = await store.setPersonalization(user, input.session_id, input.enabled, now)
      return sessionView(updated ?? existing)
    },

    async session(input) {
      const user = input.user ?? (await sessionOwner(input.session_id))
      const session = user === undefined ? undefined : await store.getSession(user, input.session_id)
      if (session === undefined) {
        const whose = input.user === undefined ? '' : ` of user ${shownName(input.user)}`
        throw new InputError('session_not_found', `no session ${shownName(input.session_id)}${whose} has been seen`, {
          status: 404,
          issues: [{ path: input.sessionField ?? 'session_id', message: `no session of this id${whose}: a session starts with POST /v1/sessions, or with the first observation, recommendation, plan or hook event that names it, or a toggle` }],
        })
      }
      return sessionView(session)
    },

    decayScan(input = {}) {
      const now = clock.now()
      const at = checkTimestamp(input.now, now, 'now') ?? now
      return decayScan({ at, force: input.force ?? false, signal: input.signal })
    },
  }
  return memory
}
