import type { AbstractLevel } from 'abstract-level'
import { aggregationParams } from '../domain/aggregate'
import type { Observation } from '../domain/observation'
import type { Policy } from '../domain/policy'
import { createChangeCounter } from './change-counter'
import { createCoreTier, type BatchOp, type CoreCount } from './core-tier'
import { createGroupCommit } from './group-commit'
import { archivalKey, key, prefixRange } from './keys'
import { createWriteQueue } from './write-queue'
import { writeOptions } from './write-options'
import { belongsTo, storedEntry, sublevelRange } from './ownership'
import { createPlannedPoints, createShownPoints } from './planned-points'
import { createReadCache } from './read-cache'
import { createRecallTier } from './recall-tier'
import { createSessionCounts } from './session-counts'
import type { MemoryStore, SessionRecord, StoreResult } from './store'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>

/**
 * The sublevels this store reads through typed methods, or that only index them (recall names
 * archival's observations; before the seventh session it held copies); export lists the rest raw
 * (aggregates in core, decisions, ...).
 */
const TYPED_SUBLEVELS = new Set(['archival', 'dedupe', 'sessions', 'session-owners', 'recall', 'recall-expiry', 'session-counts'])

/** The sublevels of the aggregates in core (R-MEM-1), exported as such. */
const AGGREGATE_SUBLEVELS = new Set(['core', 'core-cells', 'core-pending'])

/** The policy numbers the tiers are built with. */
export type TierPolicy = {
  decay: Pick<Policy['decay'], 'alpha'>
  context: Pick<Policy['context'], 'precondition_share'>
  core: Policy['core']
  /** Left out: the default policy's 3 recent sessions. */
  layers?: Pick<Policy['layers'], 'recent_sessions'>
}

/** The numbers of the default policy, for a store opened without a policy. */
const DEFAULT_TIER_POLICY: TierPolicy = { decay: { alpha: 0.5 }, context: { precondition_share: 0.8 }, core: { max_entries: 10_000 } }

const DECAY_SCAN_KEY = 'decay-scan'

/**
 * The store on any abstract-level database. Layout (sublevels):
 * - `archival`: `user\0point\0timestamp\0id` → observation. Append-only: the source of truth
 *   from which every aggregate can be rebuilt.
 * - `dedupe`: `user\0decision_id` → observation id (R-CAP-2).
 * - `sessions`: `user\0session_id` → session; `session-owners`: `session_id\0user` → ''.
 * - the recall tier (`recall`, `recall-expiry`), the core tier (`core`, `core-cells`, `core-pending`),
 *   `session-counts`, `planned-points`, `shown-points` and `maintenance`: see their modules.
 * The tiers are built with the numbers of `policy` (decay α, precondition share, core size);
 * without one, with those of the default policy.
 */
export async function createLevelStore(
  db: Db,
  options: { sync?: boolean; policy?: TierPolicy } = {},
): Promise<MemoryStore> {
  const sync = options.sync ?? true
  const policy = options.policy ?? DEFAULT_TIER_POLICY
  await db.open()
  const archival = db.sublevel<string, Observation>('archival', { valueEncoding: 'json' })
  const dedupe = db.sublevel<string, string>('dedupe', { valueEncoding: 'utf8' })
  const sessions = db.sublevel<string, SessionRecord>('sessions', { valueEncoding: 'json' })
  const owners = db.sublevel<string, string>('session-owners', { valueEncoding: 'utf8' })
  const maintenance = db.sublevel<string, string>('maintenance', { valueEncoding: 'utf8' })
  const enqueue = createWriteQueue()
  const aggregation = aggregationParams(policy)
  const core = createCoreTier({ db, archival, enqueue, params: aggregation, maxEntries: policy.core.max_entries })
  const recall = createRecallTier(db, archival)
  const sessionCounts = createSessionCounts(db, sessions)
  const plannedPoints = createPlannedPoints(db, { sync })
  const shownPoints = createShownPoints(db, { sync })
  // Every recommendation in a session reads its record: hot sessions are kept in memory.
  const sessionCache = createReadCache<SessionRecord | undefined>(10_000)
  // Writes per user, before and after each: answers kept in memory are checked against them.
  const changes = createChangeCounter()

  /** After a write of these sessions (and of their users' counts) is done. */
  function sessionsWritten(written: readonly SessionRecord[]): void {
    sessionCache.written(written.map((s) => key(s.user, s.session_id)))
    sessionCounts.written(written.map((s) => s.user))
  }

  /** A raw scan of the whole database: every entry of the user, in any sublevel (see ownership.ts). */
  async function* entriesOf(user: string, range: { gte?: string; lt?: string } = {}): AsyncGenerator<{ rawKey: string; rawValue: string }> {
    for await (const [rawKey, rawValue] of db.iterator({ ...range, keyEncoding: 'utf8', valueEncoding: 'utf8' })) {
      if (belongsTo(rawKey as string, rawValue as string, user)) yield { rawKey: rawKey as string, rawValue: rawValue as string }
    }
  }

  /**
   * Writes the observations of several calls, in the order they came, as one atomic synced batch:
   * a decision_id is stored once across the group as across calls, a session once. Inside the
   * write queue.
   */
  async function writeObservations(calls: Array<{ observations: readonly Observation[]; sessions: readonly SessionRecord[] }>): Promise<StoreResult[]> {
    const users = new Set(calls.flatMap(({ observations, sessions: named }) => [...observations.map((o) => o.user), ...named.map((s) => s.user)]))
    return changes.around(users, () => writeObservationsOf(calls))
  }

  async function writeObservationsOf(calls: Array<{ observations: readonly Observation[]; sessions: readonly SessionRecord[] }>): Promise<StoreResult[]> {
    const dedupeKeys = calls.map(({ observations }) => observations.map((o) => (o.decision_id === null ? null : key(o.user, o.decision_id))))
    // Each decision_id once in the group: the observation that sends it first.
    const firsts = new Set<string>()
    // By position, not by object: one object may be sent twice.
    const isFirst = calls.map(({ observations }, c) =>
      observations.map((_, i) => {
        const dk = dedupeKeys[c]?.[i] ?? null
        if (dk === null) return true
        if (firsts.has(dk)) return false
        firsts.add(dk)
        return true
      }),
    )
    const unique = calls.flatMap(({ observations }, c) => observations.filter((_, i) => isFirst[c]?.[i] === true))
    const asked = [...firsts]
    // Each session once, from the earliest moment the group names it: a session's start must not
    // depend on the order its observations arrived in (a replay counts the sessions started by
    // then, R-REC-9).
    const candidates = new Map<string, SessionRecord>()
    for (const { sessions: named } of calls) {
      for (const s of named) {
        const k = key(s.user, s.session_id)
        const known = candidates.get(k)
        if (known === undefined || s.started_at < known.started_at) candidates.set(k, s)
      }
    }
    const sessionKeys = [...candidates.keys()]
    // The group's reads at once: its write waits for the slowest, not for their sum. The
    // observations are counted in core as if none were stored already, which is almost always so
    // (a decision_id sent again is a client's retry); when some were, they are counted again
    // without those.
    const [dedupeRead, sessionsRead, countRead] = await Promise.allSettled([dedupe.getMany(asked), sessions.getMany(sessionKeys), core.countOps(unique)])
    if (dedupeRead.status === 'rejected' || sessionsRead.status === 'rejected' || countRead.status === 'rejected') {
      if (countRead.status === 'fulfilled') countRead.value.abandon()
      throw [dedupeRead, sessionsRead, countRead].find((read): read is PromiseRejectedResult => read.status === 'rejected')?.reason
    }
    const existing = dedupeRead.value
    const present = sessionsRead.value
    const already = new Set(asked.filter((_, i) => existing[i] !== undefined))
    const results: StoreResult[] = []
    const allStored: Observation[] = []
    // Puts into several sublevels, committed as one atomic batch.
    const ops: BatchOp[] = []
    calls.forEach(({ observations }, c) => {
      const stored: Observation[] = []
      const duplicates: string[] = []
      observations.forEach((o, i) => {
        const dk = dedupeKeys[c]?.[i] ?? null
        if (isFirst[c]?.[i] !== true || (dk !== null && already.has(dk))) {
          duplicates.push(o.decision_id as string)
          return
        }
        if (dk !== null) ops.push({ type: 'put', sublevel: dedupe, key: dk, value: o.id })
        ops.push({ type: 'put', sublevel: archival, key: archivalKey(o), value: o })
        stored.push(o)
      })
      allStored.push(...stored)
      results.push({ stored, duplicates })
    })
    const counted = already.size === 0 ? countRead.value : await countedAgain(countRead.value, allStored)
    // A session is started, or moved back, by the observations stored, not by duplicates: a retry
    // sent under another session id would otherwise start that session, and the user would look
    // more expert for a choice counted once (R-SES-2). A session a call names without an
    // observation of its own naming it (a start of its own) is kept as given.
    const storedFrom = new Map<string, string>()
    for (const o of allStored) {
      if (o.session_id === null) continue
      const k = key(o.user, o.session_id)
      const earliest = storedFrom.get(k)
      if (earliest === undefined || o.timestamp < earliest) storedFrom.set(k, o.timestamp)
    }
    const presentOf = new Map(sessionKeys.map((k, i) => [k, present[i]]))
    const eligible = new Map<string, SessionRecord>()
    for (const { observations, sessions: named } of calls) {
      const namedHere = new Set(observations.flatMap((o) => (o.session_id === null ? [] : [key(o.user, o.session_id)])))
      for (const s of named) {
        const k = key(s.user, s.session_id)
        const from = namedHere.has(k) ? storedFrom.get(k) : s.started_at
        if (from === undefined) continue
        const known = eligible.get(k)
        if (known === undefined || from < known.started_at) eligible.set(k, { ...s, started_at: from })
      }
    }
    const named = [...eligible].map(([k, s]) => ({ s, stored: presentOf.get(k) }))
    const started = named.filter(({ stored }) => stored === undefined).map(({ s }) => s)
    // A session stored already that these observations show was under way earlier (they arrived
    // late: a spooled hook, a backfill) starts at the earliest of them. Its count is unchanged.
    const backdated = named.flatMap(({ s, stored }) =>
      stored !== undefined && s.started_at < stored.started_at ? [{ ...stored, started_at: s.started_at }] : [],
    )
    try {
      started.forEach((s) => {
        ops.push({ type: 'put', sublevel: sessions, key: key(s.user, s.session_id), value: s })
        ops.push({ type: 'put', sublevel: owners, key: key(s.session_id, s.user), value: '' })
      })
      backdated.forEach((s) => ops.push({ type: 'put', sublevel: sessions, key: key(s.user, s.session_id), value: s }))
      ops.push(...(await sessionCounts.countOps(started)))
      ops.push(...recall.putOps(allStored))
      for (const op of counted.ops) ops.push(op)
      if (ops.length > 0) await db.batch(ops as never, writeOptions(sync) as never)
    } catch (error) {
      counted.abandon()
      throw error
    }
    counted.commit()
    sessionsWritten([...started, ...backdated])
    return results
  }

  /** Counts `stored` in core instead of what `counted` counted (some of which were stored already). */
  async function countedAgain(counted: CoreCount, stored: readonly Observation[]): Promise<CoreCount> {
    counted.abandon()
    return core.countOps(stored)
  }

  const commitObservations = createGroupCommit({ enqueue, write: writeObservations })

  async function latestChoiceAt(user: string, point: string, asOf: Date | undefined, within: number): Promise<Observation | undefined> {
    const range = prefixRange(user, point)
    const lt = asOf === undefined ? range.lt : key(user, point, asOf.toISOString(), '\uffff')
    // Newest first, past the answers the service gave itself (at most ask.check_in_after in a
    // row). The newest is mostly the user's own: it is read alone first, since an iterator
    // given a larger limit reads (and decodes) a batch of observations ahead.
    const newest = await archival.values({ gte: range.gte, lt, reverse: true, limit: 1 }).all()
    if (newest[0] === undefined || newest[0].source === 'user') return newest[0]
    for await (const o of archival.values({ gte: range.gte, lt, reverse: true, limit: within })) {
      if (o.source === 'user') return o
    }
    return undefined
  }

  return {
    addObservations(observations, newSessions) {
      return commitObservations({ observations, sessions: newSessions })
    },

    async observationsAt(user, point, asOf) {
      const out: Observation[] = []
      const range = prefixRange(user, point)
      const limit = asOf === undefined ? undefined : key(user, point, asOf.toISOString(), '\uffff')
      for await (const value of archival.values(limit === undefined ? range : { gte: range.gte, lt: limit })) {
        out.push(value)
      }
      return out
    },

    async latestAt(user, point, limit) {
      return archival.values({ ...prefixRange(user, point), reverse: true, limit }).all()
    },

    latestChoiceAt,

    async latestMultiSelectAt(user, point, asOf) {
      const fromCore = await core.latestChoice(user, point, asOf)
      if (fromCore.known) return fromCore.multi_select
      // Past any number of the service's own answers: core's latest choice is the user's newest
      // however many came after it, and a point answers alike in core or not. Read only where the
      // point is then read from archival anyway (rebuilt, or replayed for an audit), up to asOf,
      // which this reads no more of.
      return (await latestChoiceAt(user, point, asOf, Infinity))?.multi_select
    },

    async *observationsOf(user) {
      yield* archival.values(prefixRange(user))
    },

    startSession(session) {
      return enqueue(async () => {
        const k = key(session.user, session.session_id)
        const existing = await sessions.get(k)
        if (existing !== undefined) {
          if (session.started_at >= existing.started_at) return { session: existing, created: false }
          // A start sent late (a spooled SessionStart, after an observation started the session):
          // the session started at the earliest moment known, as the observations' path has it,
          // and in the folder of that start, where it holds the folders below outside a repository
          // (handleClaudeCodeHook), not in the one the agent had moved to by the first event taken.
          const backdated = { ...existing, started_at: session.started_at, ...(session.project === null ? {} : { project: session.project }) }
          await changes.around([session.user], async () => {
            await sessions.put(k, backdated, writeOptions(sync) as never)
            sessionsWritten([backdated])
          })
          return { session: backdated, created: false }
        }
        await changes.around([session.user], async () => {
          await db.batch(
            [
              { type: 'put', sublevel: sessions, key: k, value: session },
              { type: 'put', sublevel: owners, key: key(session.session_id, session.user), value: '' },
              ...(await sessionCounts.countOps([session])),
            ] as never,
            writeOptions(sync) as never,
          )
          sessionsWritten([session])
        })
        return { session, created: true }
      })
    },

    async getSession(user, sessionId) {
      const k = key(user, sessionId)
      return sessionCache.read(k, () => sessions.get(k))
    },

    async sessionOwners(sessionId) {
      const users: string[] = []
      const range = prefixRange(sessionId)
      for await (const k of owners.keys(range)) users.push(k.slice(range.gte.length))
      return users
    },

    setPersonalization(user, sessionId, enabled, at) {
      return enqueue(async () => {
        const k = key(user, sessionId)
        const existing = await sessions.get(k)
        if (existing === undefined) return undefined
        // A session turned off before toggles were kept answered off at any as_of: its first kept
        // toggle must not turn its past on (as far as is known, it was off since it started).
        const kept = existing.toggles ?? (existing.personalization ? [] : [{ at: existing.started_at, enabled: false }])
        const set = enabled ?? !existing.personalization
        // A setting the session has already changes nothing, and is not kept: an orchestrator that
        // turns personalization on at every step would otherwise grow the record without end.
        if (set === existing.personalization && existing.toggles !== undefined) return existing
        const updated = { ...existing, personalization: set, toggles: set === existing.personalization ? kept : [...kept, { at, enabled: set }] }
        await changes.around([user], async () => {
          await sessions.put(k, updated, writeOptions(sync) as never)
          sessionsWritten([updated])
        })
        return updated
      })
    },

    countSessions(user, asOf) {
      return sessionCounts.count(user, asOf)
    },

    aggregation,
    readPoint: core.readPoint,
    inCore: core.inCore,
    recallAt: recall.at,

    expireRecall(before, signal) {
      return changes.aroundAll(() => recall.expire(before, signal))
    },

    maintainCore(now, signal) {
      return changes.aroundAll(() => core.maintain(now, signal))
    },

    changesOf(user) {
      return changes.of(user)
    },

    async lastDecayScan() {
      return maintenance.get(DECAY_SCAN_KEY)
    },

    rememberPlannedPoints(user, planned, at) {
      // In the write queue: none lands between forget's scan and its delete.
      return enqueue(() => plannedPoints.remember(user, planned, at))
    },

    async holdsDecisionIds(user, decisionIds) {
      if (decisionIds.length === 0) return []
      return (await dedupe.getMany(decisionIds.map((id) => key(user, id)))).map((id) => id !== undefined)
    },

    plannedPointsOf(user, decisionIds) {
      return plannedPoints.of(user, decisionIds)
    },

    dropPlannedPoints(user, decisionIds) {
      return enqueue(() => plannedPoints.drop(user, decisionIds))
    },

    expirePlannedPoints(before, signal) {
      return enqueue(() => plannedPoints.expire(before, signal))
    },

    rememberShownPoints(user, shown, at) {
      // In the write queue: none lands between forget's scan and its delete.
      return enqueue(() => shownPoints.remember(user, shown, at))
    },

    shownPointsOf(user, shown) {
      return shownPoints.of(user, shown)
    },

    expireShownPoints(before, signal) {
      return enqueue(() => shownPoints.expire(before, signal))
    },

    async recordDecayScan(at) {
      await maintenance.put(DECAY_SCAN_KEY, at, writeOptions(sync) as never)
    },

    async *sessionsOf(user) {
      yield* sessions.values(prefixRange(user))
    },

    async *untypedEntriesOf(user) {
      for await (const { rawKey, rawValue } of entriesOf(user)) {
        const entry = storedEntry(rawKey, rawValue)
        if (!TYPED_SUBLEVELS.has(entry.sublevel) && !AGGREGATE_SUBLEVELS.has(entry.sublevel)) yield entry
      }
    },

    async *aggregatesOf(user) {
      // Their own sublevels, each read whole (an entry is the user's by its key or its value, as
      // for forget), in the order a scan of the whole store meets them: such a scan read every
      // observation of every user once more than an export needs (2.4 s on a store of 150,000).
      for (const name of [...AGGREGATE_SUBLEVELS].sort()) {
        for await (const { rawKey, rawValue } of entriesOf(user, sublevelRange(name))) {
          const entry = storedEntry(rawKey, rawValue)
          if (AGGREGATE_SUBLEVELS.has(entry.sublevel)) yield entry
        }
      }
    },

    forgetUser(user) {
      // In the write queue: no observation of this store lands between the scan and the delete.
      return enqueue(async () => {
        const ops: Array<{ type: 'del'; key: string }> = []
        for await (const { rawKey } of entriesOf(user)) ops.push({ type: 'del', key: rawKey })
        core.forgetting(user)
        try {
          await changes.around([user], async () => {
            if (ops.length > 0) await db.batch(ops, writeOptions(sync) as never)
            sessionCache.written([], (k) => k.startsWith(`${user}\u0000`))
            sessionCounts.written([user])
          })
        } finally {
          core.forgotten(user)
        }
        return { deleted: ops.length }
      })
    },

    async close() {
      // In the write queue: the writes already asked for (a group of observations a stopping
      // service has yet to commit) are done first, and none finds the store closed under it.
      await enqueue(() => db.close())
    },
  }
}
