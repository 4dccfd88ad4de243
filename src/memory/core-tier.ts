import type { AbstractLevel, AbstractSublevel } from 'abstract-level'
import {
  addToAggregate,
  addToCells,
  CellsNotLoaded,
  cellFromStored,
  cellsOf,
  emptyCell,
  emptySummary,
  isEvidence,
  isLaterChoice,
  type LatestChoice,
  RECENT_SESSIONS,
  type Counted,
  storedCell,
  viewOf,
  type AggregateSummary,
  type AggregationParams,
  type Cell,
  type CellKey,
  type PointView,
  type StoredCell,
} from '../domain/aggregate'
import { ageDays, decayWeight } from '../domain/decay'
import { decayedSumAt, decayGrid } from '../domain/decayed-sum'
import type { Observation } from '../domain/observation'
import { cellEncoding } from './cell-encoding'
import { createHotPoints } from './hot-points'
import { archivalKey, key, prefixRange } from './keys'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>
type Sublevel<V> = AbstractSublevel<Db, string | Buffer | Uint8Array, string, V>

/** The writes that count observations in core, and what to do once their batch is written or has failed. */
export type CoreCount = { ops: BatchOp[]; commit(): void; abandon(): void }

/** Promise.all that waits for every read before it rejects: none outlives the write that asked for it. */
async function settled<T>(reads: Array<T | Promise<T>>): Promise<T[]> {
  const results = await Promise.allSettled(reads)
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed !== undefined) throw failed.reason
  return results.map((r) => (r as PromiseFulfilledResult<T>).value)
}

/** A write for `db.batch`, in any sublevel. */
export type BatchOp = { type: 'put'; sublevel: unknown; key: string; value: unknown } | { type: 'del'; sublevel: unknown; key: string }

/**
 * Decoded cells kept in memory across the hottest points: a point's recommendation reads 10 to 30
 * of them, so this holds the points asked most recently (a few dozen at least). Kept small on
 * purpose: under a load that cycles through more points than fit (the bench's HTTP load), entries
 * churn, and the bench measured 50 to 75 MB more RSS with 2,000 cells than with none, for no gain
 * there; answers asked again are kept above this (answer-cache.ts).
 */
const HOT_CELLS = 500
/** How many points the latest choice known is kept for (latestKnown). */
const LATEST_KEPT = 10_000

/**
 * How many replays (a point read as of a moment before its newest observation) are kept, and how
 * many cells they may hold in all: a few points, each a whole aggregate as of then.
 */
const REPLAYS = 4
const REPLAY_CELLS = 5000

/**
 * How many observations of a point wait in `core-pending` before they are counted into its cells:
 * from FOLD_MIN to FOLD_MAX, 16 on average. Counting one observation reads, decodes, rewrites and
 * re-encodes every cell it falls in (16 in the bench's workload, 11 KB); counting 16 at once does
 * that once for all of them, and a reader counts the waiting ones (FOLD_MAX - 1 at most) in the
 * cells it loaded. The number is the point's own (a hash of its key), so that points written in
 * turn (the users of one orchestrator, the bench's load) do not all count theirs in one write.
 */
const FOLD_MIN = 8
const FOLD_MAX = 24

function foldAt(pk: string): number {
  // FNV-1a
  let hash = 0x811c9dc5
  for (let i = 0; i < pk.length; i++) hash = Math.imul(hash ^ pk.charCodeAt(i), 0x01000193)
  return FOLD_MIN + ((hash >>> 0) % (FOLD_MAX - FOLD_MIN + 1))
}

/**
 * Weights of aggregates closer than this, relatively, are equal (R-MEM-4: then the oldest last use
 * goes first): the same observations weigh a little differently when some are folded into a
 * decayed sum's approximated tail (decayed-sum.ts: a relative error below 1e-6) and others still
 * wait to be counted exactly, and that difference must not decide instead of the last use.
 */
const WEIGHT_TIE = 1e-6

/** Lower weight first; weights within WEIGHT_TIE of each other are equal. */
function weightOrder(a: number, b: number): number {
  return Math.abs(a - b) <= WEIGHT_TIE * Math.max(a, b) ? 0 : a - b
}

/** Bumped when the cells change shape: aggregates of another format are rebuilt from archival. */
// 2: auto-resolved answers are counted in auto cells (the check-in, ask.check_in_after).
// 3: observations wait in core-pending before they are counted into the cells.
// 4: core-pending holds what counting reads of each observation (3 held empty marks).
// 5: a head's newest moment counts auto-resolved answers too.
// 6: context values are counted trimmed, a blank one as none (contextText): cells of ' run ' and
//    of '' (a precondition "phase is ") were kept, and new choices counted apart from them.
// 7: a head keeps the user's latest own choice and how it was asked, and core-pending how each
//    waiting observation was, so that a point in core tells a request that does not say whether it
//    is multi-select without a read of archival (R-MEM-1).
// 8: a tally keeps the id of its latest choice (lastId), so that a tie of one moment goes to the
//    choice recorded last (R-REC-2); cells of format 7 stored before it was kept broke such a tie
//    by label, live, where a replay as of a moment and a store written since broke it by the id.
const FORMAT = 8

/**
 * Whether a head's decayed sum has the nodes of its α's grid: one built before small α's grids were
 * floored (decayed-sum.ts) has more, which this grid's coefficients do not read; its cells have too.
 */
function ofThisGrid(head: StoredHead): boolean {
  const tail = head.weight.tail.length
  return tail === 0 || tail === decayGrid(head.alpha).rates.length
}

/** The head of an aggregate in core: its summary, how it was built, and when it was last used. */
interface StoredHead extends AggregateSummary {
  format: number
  alpha: number
  candidates: number
  /** The sessions its scope cells name (layers.recent_sessions); a head written before it was kept named 3. */
  recent_sessions?: number
  /** ms since epoch */
  last_use: number
}

interface IndexEntry {
  user: string
  point: string
  head: StoredHead
}

/** An observation waiting to be counted, as `core-pending` keeps it: what counting reads of it. */
type Waiting = Counted & Pick<Observation, 'recorded_at'>

function waitingOf(o: Observation): Waiting {
  const { id, timestamp, recorded_at, project, session_id, context, chosen, source } = o
  // Null when the observation does not say: left out only by a head of an earlier format.
  return { id, timestamp, recorded_at, project, session_id, context, chosen, source, multi_select: o.multi_select ?? null }
}

/** What the write path knows of a point's waiting observations: enough to count them and to rank the point (R-MEM-4). */
interface WaitingSummary {
  count: number
  /** The moments (ms) of those that are evidence: their weight is the point's besides its head's. */
  moments: number[]
  /** The latest `recorded_at` (ms) among them, 0 when none: a use of the point. */
  recorded: number
}

const NOTHING_WAITS: WaitingSummary = { count: 0, moments: [], recorded: 0 }

function summaryOf(waiting: readonly Waiting[], before: WaitingSummary = NOTHING_WAITS): WaitingSummary {
  const moments = [...before.moments]
  let recorded = before.recorded
  for (const o of waiting) {
    if (isEvidence(o)) moments.push(Date.parse(o.timestamp))
    recorded = Math.max(recorded, Date.parse(o.recorded_at))
  }
  return { count: before.count + waiting.length, moments, recorded }
}

/** How the user's latest own choice at a point was asked, when core knows it (latestChoice). */
type LatestFlag = { known: true; multi_select: boolean | undefined } | { known: false }

/** The observations of a point not yet counted in its cells. */
interface Pending {
  /** Their keys (as in archival), in key order: time, then id. */
  keys: string[]
  observations: Waiting[]
}

const NO_PENDING: Pending = { keys: [], observations: [] }

/** A point as a reader found it: its head, and the observations it counted besides the cells. */
/** A point's cells replayed from archival as of a moment: the same for every moment in [from, until). */
interface Replayed {
  /** The newest observation counted (-Infinity: none). */
  from: number
  /** The first observation after it in archival (Infinity: none). */
  until: number
  cells: Map<CellKey, Cell>
}

interface Held {
  head: StoredHead
  pending: Pending
  /** The newest moment of the aggregate, pending observations included. */
  newest: number | null
}

/** The newest moment of an aggregate whose cells are `head`'s plus the pending observations (any observation, as in the summary). */
function newestOf(head: StoredHead, waiting: Pending): number | null {
  let newest = head.newest
  for (const o of waiting.observations) {
    const at = Date.parse(o.timestamp)
    if (newest === null || at > newest) newest = at
  }
  return newest
}

/**
 * The core tier (R-MEM-1, R-MEM-4): the aggregates of the hot (user, point) pairs, at most
 * `maxEntries` of them. Layout (sublevels):
 * - `core`: `user\0point` → head (summary, build parameters, last use). An aggregate is in core
 *   exactly when its head is there and was built with the current parameters.
 * - `core-cells`: `user\0point\0<cell key>` → cell.
 * - `core-pending`: `user\0point\0timestamp\0id` (the archival key) → what counting reads of an
 *   observation of the point that is not yet counted in its cells and head.
 * A new observation at a point in core goes to core-pending in the same atomic batch that appends
 * it to archival; once a point has foldAt(point) pending, the batch that would add to them counts them
 * all into the cells and head instead and deletes them from core-pending. So the cells plus the
 * pending observations are always the whole aggregate: core never holds an observation twice or
 * misses one, and a reader counts the pending ones in the cells it reads, reading nothing from
 * recall or archival (R-MEM-1). An aggregate not in core is rebuilt from archival on its next
 * use. Writes run in the store's write queue; a recommendation reads one snapshot, so it never
 * sees half of a write.
 */
export function createCoreTier(options: {
  db: Db
  archival: Sublevel<Observation>
  enqueue: <T>(work: () => Promise<T>) => Promise<T>
  params: AggregationParams
  maxEntries: number
}) {
  const { db, archival, enqueue, params, maxEntries } = options
  const heads = db.sublevel<string, StoredHead>('core', { valueEncoding: 'json' })
  const cells = db.sublevel<string, StoredCell>('core-cells', { valueEncoding: cellEncoding })
  const pending = db.sublevel<string, Waiting>('core-pending', { valueEncoding: 'json' })
  // What waits in core-pending, per point: read on first need, then kept by the writes (all in
  // the write queue).
  const waitingAt = new Map<string, WaitingSummary>()
  // The points whose head is in the store and current, as the writes of this process (the only
  // one that writes it) left them: an observation that only waits at such a point is written
  // without a read of its head (about 2 KB of JSON, read and parsed for every observation).
  // Kept by every write of a head (all in the write queue); a point not in it has its head read.
  const currentHeads = new Set<string>()
  // Last uses by reads are kept here, not written: a recommendation must not cost a write.
  const usedAt = new Map<string, number>()
  // The cells the last read of each point asked for: the next read of the point reads them in its
  // first round, so that a recommendation at a warm point costs one read of the store, not one per
  // round of readThrough. They only choose what is read first, never what is answered.
  const lastRead = new Map<string, CellKey[]>()
  // The reads from core in flight, per point, each told when what is remembered of its point is
  // dropped (a demotion, a forget): one that a forget overtook must not write the user's last use
  // or last read back (R-SVC-5), nor one that a demotion overtook those of a point out of core.
  const reading = new Map<string, Set<{ dropped: boolean }>>()
  const markDropped = (pk: string) => {
    for (const read of reading.get(pk) ?? []) read.dropped = true
  }
  // The decoded aggregates of the points read most recently: a recommendation at one of them reads
  // nothing from the store. A write to a point drops it when it starts and once it is done, and
  // nothing of the point is kept in between (hot-points.ts): no read mixes a hot entry with cells
  // or waiting observations of another moment.
  // The points last read as of a moment before their newest observation (an audit, or a clock
  // stepped back behind it, which reads every point written since as of before it): each replay
  // from archival up to that moment, which answers for every moment from the newest observation
  // it counts until the next one archival holds, while no write touches the point. Without them,
  // each recommendation read the point's whole history again until the clock caught up.
  const replays = new Map<string, Replayed>()
  let replayCells = 0
  const dropReplay = (pk: string) => {
    const kept = replays.get(pk)
    if (kept === undefined) return
    replayCells -= kept.cells.size
    replays.delete(pk)
  }
  // The reads of a point's latest choice in flight (latestChoice), per point, each told when a
  // write touches its point (starts or ends there): one that raced such a write keeps nothing. Per
  // point, not by `hot.writes`: under a steady load of observations some write is always under way
  // somewhere, and a read that no write at its own point raced was then never kept.
  const latestReads = new Map<string, Set<{ raced: boolean }>>()
  const hot = createHotPoints<Held>(HOT_CELLS, (touched, prefix) => {
    if (!prefix) dropReplay(touched)
    else for (const pk of [...replays.keys()]) if (pk.startsWith(touched)) dropReplay(pk)
    if (!prefix) for (const read of latestReads.get(touched) ?? []) read.raced = true
    else for (const [pk, reads] of latestReads) if (pk.startsWith(touched)) for (const read of reads) read.raced = true
  })
  // Every head in core, loaded on first need; only this process writes the store.
  let index: Map<string, IndexEntry> | null = null
  // The user's latest own choice at a point and its newest moment, as a read of core found them,
  // then kept by the writes of observations there (folded in at commit) until the user is
  // forgotten: a fact of archival, which only this process writes, whether the point stays in core
  // or not. Without it, capture's read of the flag (a string choice, decision-memory.ts) read the
  // point's head and pending observations again after each write, which dropped them from `hot`.
  const latestKnown = new Map<string, { latest: LatestChoice | null; newest: number | null }>()
  const keepLatest = (pk: string, latest: LatestChoice | null, newest: number | null) => {
    // Oldest first out, bounded as `hot` is; a point read again is kept again.
    if (!latestKnown.has(pk) && latestKnown.size >= LATEST_KEPT) latestKnown.delete(latestKnown.keys().next().value as string)
    latestKnown.set(pk, { latest, newest })
  }

  function isCurrent(head: StoredHead): boolean {
    return (
      head.format === FORMAT &&
      head.alpha === params.alpha &&
      head.candidates === params.candidates &&
      (head.recent_sessions ?? RECENT_SESSIONS) === params.recentSessions &&
      ofThisGrid(head)
    )
  }

  function headOf(summary: AggregateSummary, lastUse: number): StoredHead {
    return { format: FORMAT, alpha: params.alpha, candidates: params.candidates, recent_sessions: params.recentSessions, ...summary, last_use: lastUse }
  }

  /** Inside the write queue only. */
  async function entries(): Promise<Map<string, IndexEntry>> {
    if (index === null) {
      const loaded = new Map<string, IndexEntry>()
      for await (const [k, head] of heads.iterator()) {
        const [user, point] = k.split('\u0000') as [string, string]
        loaded.set(k, { user, point, head })
      }
      index = loaded
    }
    return index
  }

  /** The observations of a point waiting to be counted in its cells, from a snapshot when given. */
  async function pendingOf(user: string, point: string, snapshot?: unknown): Promise<Pending> {
    const found = await pending.iterator({ ...prefixRange(user, point), ...(snapshot === undefined ? {} : { snapshot }) } as never).all()
    if (found.length === 0) return NO_PENDING
    return { keys: found.map(([k]) => k), observations: found.map(([, o]) => o) }
  }

  /** What of a point waits to be counted. Inside the write queue only. */
  async function waitingSummary(pk: string, user: string, point: string): Promise<WaitingSummary> {
    let summary = waitingAt.get(pk)
    if (summary === undefined) {
      summary = summaryOf((await pendingOf(user, point)).observations)
      waitingAt.set(pk, summary)
    }
    return summary
  }

  async function* archivalOf(user: string, point: string, asOf?: Date): AsyncGenerator<Observation> {
    const range = prefixRange(user, point)
    const limit = asOf === undefined ? range.lt : key(user, point, asOf.toISOString(), '\uffff')
    yield* archival.values({ gte: range.gte, lt: limit })
  }

  /** Whether archival holds any observation of the user at the point. */
  async function observedAt(user: string, point: string): Promise<boolean> {
    return (await archival.keys({ ...prefixRange(user, point), limit: 1 }).all()).length > 0
  }

  /** The aggregate of a point built from archival, up to `asOf` when given. */
  async function replay(user: string, point: string, asOf?: Date) {
    const aggregate = { summary: emptySummary(), cells: new Map<CellKey, Cell>() }
    for await (const o of archivalOf(user, point, asOf)) addToAggregate(aggregate, o, params)
    return aggregate
  }

  /**
   * The cells of a point as of `asOf` from archival (as `replay` builds them), or the replay kept
   * that counts the same observations: those up to `asOf`, no more, no fewer. Kept when no write
   * started while it was read (one in flight drops it when it ends).
   */
  async function replayedAt(user: string, point: string, asOf: Date): Promise<ReadonlyMap<CellKey, Cell>> {
    const pk = key(user, point)
    const at = asOf.getTime()
    const kept = replays.get(pk)
    if (kept !== undefined && kept.from <= at && at < kept.until) {
      replays.delete(pk)
      replays.set(pk, kept)
      return kept.cells
    }
    const writesBefore = hot.writes
    const aggregate = { summary: emptySummary(), cells: new Map<CellKey, Cell>() }
    let from = -Infinity
    for await (const o of archivalOf(user, point, asOf)) {
      addToAggregate(aggregate, o, params)
      from = Math.max(from, Date.parse(o.timestamp))
    }
    const range = prefixRange(user, point)
    const [next] = await archival.values({ gt: key(user, point, asOf.toISOString(), '\uffff'), lt: range.lt, limit: 1 }).all()
    const until = next === undefined ? Infinity : Date.parse(next.timestamp)
    if (hot.writes === writesBefore && aggregate.cells.size <= REPLAY_CELLS) {
      dropReplay(pk)
      replays.set(pk, { from, until, cells: aggregate.cells })
      replayCells += aggregate.cells.size
      for (const old of replays.keys()) {
        if (replays.size <= REPLAYS && replayCells <= REPLAY_CELLS) break
        dropReplay(old)
      }
    }
    return aggregate.cells
  }

  /** Rebuilds an aggregate from archival and puts it in core. Inside the write queue only. */
  function rebuild(user: string, point: string, at: number) {
    const pk = key(user, point)
    return hot.around(pk, async () => {
      const aggregate = await replay(user, point)
      // Old cells (of an aggregate demoted half-way, built with other parameters, or rebuilt by a
      // concurrent first use) go first, after their head: until the batch below writes the new
      // head, no reader trusts any cell of this point.
      currentHeads.delete(pk)
      await db.batch([{ type: 'del', sublevel: heads, key: pk }] as never)
      await cells.clear(prefixRange(user, point))
      // Archival holds the pending observations too: the rebuilt cells count them.
      await pending.clear(prefixRange(user, point))
      waitingAt.set(pk, NOTHING_WAITS)
      if (aggregate.cells.size === 0) {
        // Nothing left in archival (a user forgotten meanwhile): no head that would name the user,
        // and nothing of the point remembered, as after a demotion.
        ;(await entries()).delete(pk)
        forgetInMemory(pk)
        return aggregate
      }
      const head = headOf(aggregate.summary, Math.max(at, usedAt.get(pk) ?? 0))
      const ops: BatchOp[] = [{ type: 'put', sublevel: heads, key: pk, value: head }]
      for (const [cellKey, cell] of aggregate.cells) {
        ops.push({ type: 'put', sublevel: cells, key: key(user, point, cellKey), value: storedCell(cell) })
      }
      await db.batch(ops as never)
      currentHeads.add(pk)
      ;(await entries()).set(pk, { user, point, head })
      return aggregate
    })
  }

  async function demote(pk: string, entry: IndexEntry): Promise<void> {
    await hot.around(pk, async () => {
      currentHeads.delete(pk)
      // The head goes first: without it no reader trusts the cells, which may then go at leisure.
      await db.batch([{ type: 'del', sublevel: heads, key: pk }] as never)
      await cells.clear(prefixRange(entry.user, entry.point))
      await pending.clear(prefixRange(entry.user, entry.point))
    })
    index?.delete(pk)
    forgetInMemory(pk)
  }

  /** What is remembered of a point beside its head: what waits, its last use, its last read. */
  function forgetInMemory(pk: string): void {
    waitingAt.delete(pk)
    usedAt.delete(pk)
    lastRead.delete(pk)
    markDropped(pk)
  }

  /**
   * Demotes aggregates until core holds at most maxEntries: the lowest current weight first, then
   * the oldest last use, then the key (R-MEM-4). Inside the write queue only.
   */
  async function demoteOverCapacity(at: number, signal?: AbortSignal): Promise<number> {
    const all = await entries()
    const excess = all.size - maxEntries
    if (excess <= 0) return 0
    for (const { pk, entry } of await lowest(all, excess, at)) {
      signal?.throwIfAborted()
      await demote(pk, entry)
    }
    return excess
  }

  /**
   * The `count` aggregates of lowest current weight (then oldest last use, then key). A head's
   * weight counts what was folded into its cells; what waits adds to it, so the head's is a lower
   * bound: only the points whose bound does not exceed the weight of the `count` lowest bounds
   * can be among them, and only theirs are read (usually a handful). Inside the write queue only.
   */
  async function lowest(all: ReadonlyMap<string, IndexEntry>, count: number, at: number) {
    const bounds = [...all].map(([pk, entry]) => ({
      pk,
      entry,
      // A head of another grid's nodes is rebuilt, not read: ranked as weighing nothing.
      bound: ofThisGrid(entry.head) ? decayedSumAt(entry.head.weight, at, entry.head.alpha, decayGrid(entry.head.alpha)) : 0,
    }))
    bounds.sort((a, b) => a.bound - b.bound)
    const ranked = async (candidate: (typeof bounds)[number]) => {
      const { pk, entry, bound } = candidate
      // An aggregate of other parameters is rebuilt, not read: nothing of it waits that counts.
      const waiting = isCurrent(entry.head) ? await waitingSummary(pk, entry.user, entry.point) : NOTHING_WAITS
      let weight = bound
      for (const moment of waiting.moments) weight += decayWeight(ageDays(moment, at), entry.head.alpha)
      return { pk, entry, weight, lastUse: Math.max(entry.head.last_use, usedAt.get(pk) ?? 0, waiting.recorded) }
    }
    const candidates: Array<Awaited<ReturnType<typeof ranked>>> = []
    for (const candidate of bounds.slice(0, count)) candidates.push(await ranked(candidate))
    // Equal weights within the approximation's error tie: a bound that close may be one of them.
    const threshold = Math.max(...candidates.map((c) => c.weight)) * (1 + WEIGHT_TIE)
    for (const candidate of bounds.slice(count)) {
      if (candidate.bound > threshold) break
      candidates.push(await ranked(candidate))
    }
    candidates.sort((a, b) => weightOrder(a.weight, b.weight) || a.lastUse - b.lastUse || (a.pk < b.pk ? -1 : a.pk > b.pk ? 1 : 0))
    return candidates.slice(0, count)
  }

  /** countOps' reads and writes, for the points `pks` of `byPoint`. */
  async function countingOps(byPoint: ReadonlyMap<string, Observation[]>, pks: readonly string[]) {
    const ops: BatchOp[] = []
    const written: Array<[string, IndexEntry]> = []
    const summaries: Array<[string, WaitingSummary]> = []
    const dropped: string[] = []
    /** Whether a point with this head stored counts the observations; writes what drops a head of other parameters. */
    const counts = async (pk: string, user: string, point: string, head: StoredHead | undefined): Promise<boolean> => {
      // Not in core: archival has it, and the next use rebuilds the aggregate from there.
      if (head === undefined) return false
      if (isCurrent(head)) return true
      // Built with other parameters, it does not count these: out of core with them, or it would
      // look whole again once those parameters are back (a policy switched away and back).
      ops.push({ type: 'del', sublevel: heads, key: pk })
      for (const k of await cells.keys(prefixRange(user, point)).all()) ops.push({ type: 'del', sublevel: cells, key: k })
      for (const k of await pending.keys(prefixRange(user, point)).all()) ops.push({ type: 'del', sublevel: pending, key: k })
      dropped.push(pk)
      return false
    }
    // A head is read where this process does not know it current, or where it is counted into.
    const unknown = pks.filter((pk) => !currentHeads.has(pk))
    const stored = new Map(unknown.length === 0 ? [] : (await heads.getMany(unknown)).map((head, i) => [unknown[i] as string, head]))
    const counting: Array<{ pk: string; user: string; point: string; head: StoredHead | undefined; group: Observation[] }> = []
    for (const pk of pks) {
      const group = byPoint.get(pk) as Observation[]
      const { user, point } = group[0] as Observation
      if (!stored.has(pk)) {
        counting.push({ pk, user, point, head: undefined, group })
        continue
      }
      const head = stored.get(pk)
      if (!(await counts(pk, user, point, head))) continue
      currentHeads.add(pk)
      counting.push({ pk, user, point, head, group })
    }
    // The reads of the points, each point's at once with the others': the group's write waits for
    // the slowest, not for their sum.
    const befores = await settled(counting.map(({ pk, user, point }) => waitingSummary(pk, user, point)))
    const folding: Array<(typeof counting)[number] & { before: WaitingSummary }> = []
    counting.forEach((c, i) => {
      const before = befores[i] as WaitingSummary
      if (before.count + c.group.length >= foldAt(c.pk)) {
        folding.push({ ...c, before })
        return
      }
      const waiting = c.group.map(waitingOf)
      c.group.forEach((o, j) => ops.push({ type: 'put', sublevel: pending, key: archivalKey(o), value: waiting[j] }))
      summaries.push([c.pk, summaryOf(waiting, before)])
    })
    const unread = folding.filter(({ head }) => head === undefined).map(({ pk }) => pk)
    // Both to the end before either fails (settled): no read outlives the write that asked for it.
    const waitedRead = settled(folding.map(({ user, point, before }) => (before.count === 0 ? NO_PENDING : pendingOf(user, point))))
    const headsRead = unread.length === 0 ? Promise.resolve([]) : heads.getMany(unread)
    await Promise.allSettled([waitedRead, headsRead])
    const [waited, read] = [await waitedRead, await headsRead]
    const readHeads = new Map(read.map((head, i) => [unread[i] as string, head]))
    const folds: Array<{ pk: string; user: string; point: string; head: StoredHead; all: Waiting[]; waiting: Pending }> = []
    for (const [f, { pk, user, point, head: known, group }] of folding.entries()) {
      const head = known ?? readHeads.get(pk)
      const waiting = waited[f] as Pending
      // Known current by the writes of this process, so found so; were it not, the point is left as
      // a read of its head would have left it: with no head, nothing of it waits in core (what
      // waited under the head gone is in archival, and a rebuild counts it there).
      if (known === undefined && !(await counts(pk, user, point, head))) {
        if (head === undefined) for (const k of waiting.keys) ops.push({ type: 'del', sublevel: pending, key: k })
        currentHeads.delete(pk)
        waitingAt.delete(pk)
        continue
      }
      folds.push({ pk, user, point, head: head as StoredHead, all: [...waiting.observations, ...group], waiting })
    }
    // The cells of every point folded, in one read of the store.
    const cellKeys = folds.map(({ all }) => [...new Set(all.flatMap((o) => cellsOf(o).map((c) => c.key)))])
    const allValues = await cells.getMany(folds.flatMap(({ user, point }, f) => (cellKeys[f] as CellKey[]).map((c) => key(user, point, c))))
    let offset = 0
    folds.forEach(({ pk, user, point, head, all, waiting }, f) => {
      const keys = cellKeys[f] as CellKey[]
      const values = allValues.slice(offset, offset + keys.length)
      offset += keys.length
      const aggregate = {
        summary: { n: head.n, newest: head.newest, weight: head.weight, latest: head.latest },
        cells: new Map(keys.map((c, j) => [c, values[j] === undefined ? emptyCell() : cellFromStored(values[j])])),
      }
      for (const o of all) addToAggregate(aggregate, o, params)
      const recorded = Math.max(...all.map((o) => Date.parse(o.recorded_at)))
      const updated = headOf(aggregate.summary, Math.max(head.last_use, recorded))
      ops.push({ type: 'put', sublevel: heads, key: pk, value: updated })
      for (const [c, cell] of aggregate.cells) {
        ops.push({ type: 'put', sublevel: cells, key: key(user, point, c), value: storedCell(cell) })
      }
      for (const k of waiting.keys) ops.push({ type: 'del', sublevel: pending, key: k })
      summaries.push([pk, NOTHING_WAITS])
      written.push([pk, { user, point, head: updated }])
    })
    return { ops, written, summaries, dropped }
  }

  /** latestChoice's read of core, for a point whose latest choice is not kept; kept unless a write at the point raced it. */
  async function latestChoiceRead(pk: string, user: string, point: string, asOf: Date, thisRead: { raced: boolean }): Promise<LatestFlag> {
    const writesBefore = hot.writes
    let held = hot.get(pk)?.head
    if (held === undefined) {
      const snapshot = db.snapshot()
      try {
        const head = await heads.get(pk, { snapshot } as never)
        if (head !== undefined && isCurrent(head)) {
          const waiting = await pendingOf(user, point, snapshot)
          held = { head, pending: waiting, newest: newestOf(head, waiting) }
          // Kept for the read of the point that follows (readPoint), which then reads neither
          // again and adds the cells it reads; not for an audit, which replays archival instead.
          if (held.newest === null || held.newest <= asOf.getTime()) hot.keep(pk, writesBefore, held, new Map())
        }
      } finally {
        await snapshot.close()
      }
    }
    const newer = held !== undefined && held.newest !== null && held.newest > asOf.getTime()
    if (held === undefined || !isCurrent(held.head) || newer) return { known: false }
    let latest = held.head.latest
    if (latest === undefined) return { known: false }
    for (const o of held.pending.observations) {
      if (!isEvidence(o)) continue
      // Unknown only to an aggregate of an earlier format, which is rebuilt rather than read: archival knows.
      if (o.multi_select === undefined) return { known: false }
      const at = Date.parse(o.timestamp)
      if (isLaterChoice(at, o.id, latest)) latest = [at, o.id, o.multi_select]
    }
    // Kept only as read while no write at the point ran: one that raced it could miss what the write's commit folds in.
    if (!thisRead.raced) keepLatest(pk, latest, held.newest)
    return { known: true, multi_select: latest === null ? undefined : (latest[2] ?? undefined) }
  }

  return {
    /**
     * The writes that count newly stored observations in the aggregates in core, for the batch
     * that appends them to archival; then `commit` once that batch is written, or `abandon` if it
     * failed (one of the two, always). Inside the write queue.
     */
    async countOps(observations: readonly Observation[]): Promise<CoreCount> {
      const byPoint = new Map<string, Observation[]>()
      for (const o of observations) {
        const pk = key(o.user, o.point)
        const group = byPoint.get(pk)
        if (group === undefined) byPoint.set(pk, [o])
        else group.push(o)
      }
      const pks = [...byPoint.keys()]
      // From before the batch is built until it is written: no read keeps or uses a point held in
      // memory meanwhile.
      for (const pk of pks) hot.writing(pk)
      const done = () => {
        for (const pk of pks) hot.written(pk)
      }
      try {
        const { ops, written, summaries, dropped } = await countingOps(byPoint, pks)
        return {
          ops,
          commit() {
            for (const [pk, entry] of written) index?.set(pk, entry)
            for (const [pk, summary] of summaries) waitingAt.set(pk, summary)
            for (const pk of dropped) {
              index?.delete(pk)
              waitingAt.delete(pk)
              lastRead.delete(pk)
              markDropped(pk)
            }
            // Appended to archival with this batch: the latest choice known of each point moves with them.
            for (const [pk, group] of byPoint) {
              const known = latestKnown.get(pk)
              if (known === undefined) continue
              let { latest, newest } = known
              for (const o of group) {
                const at = Date.parse(o.timestamp)
                if (newest === null || at > newest) newest = at
                if (isEvidence(o) && isLaterChoice(at, o.id, latest)) latest = [at, o.id, o.multi_select ?? null]
              }
              latestKnown.set(pk, { latest, newest })
            }
            done()
          },
          abandon: done,
        }
      } catch (error) {
        done()
        throw error
      }
    },

    /**
     * Whether the user's latest own choice at a point up to `asOf` was asked as multi-select
     * (undefined when it does not say, or there is none), from core alone: `known` is false when
     * core cannot tell (the point is not in core, or holds something newer than `asOf`: an audit
     * replays archival), and the caller reads archival instead.
     */
    async latestChoice(user: string, point: string, asOf: Date): Promise<LatestFlag> {
      const pk = key(user, point)
      const known = latestKnown.get(pk)
      if (known !== undefined && (known.newest === null || known.newest <= asOf.getTime())) {
        return { known: true, multi_select: known.latest === null ? undefined : (known.latest[2] ?? undefined) }
      }
      // Registered before anything is read: a write at the point under way now, or started before
      // the read is done, marks it when it ends.
      const reads = latestReads.get(pk) ?? new Set()
      const thisRead = { raced: hot.beingWritten(pk) }
      latestReads.set(pk, reads.add(thisRead))
      try {
        return await latestChoiceRead(pk, user, point, asOf, thisRead)
      } finally {
        reads.delete(thisRead)
        if (reads.size === 0) latestReads.delete(pk)
      }
    },

    /**
     * Runs `compute` over the aggregate of a point as of `asOf`: from core when it is there and
     * holds nothing newer than `asOf`; else rebuilt from archival and put in core (R-MEM-4); for an
     * `asOf` before the newest observation (an audit), replayed from archival up to `asOf`. `now`
     * is when the read is made: the point's last use, and the moment current weights are ranked at
     * (an audit as of last year must not demote what weighs most today).
     */
    async readPoint<T>(user: string, point: string, asOf: Date, compute: (memory: PointView) => T, now: Date = asOf): Promise<T> {
      const pk = key(user, point)
      const at = asOf.getTime()
      const used = Math.max(at, now.getTime())
      // The cells as stored, with the pending observations counted in.
      const load = (waiting: Pending, snapshot?: unknown) => async (keys: CellKey[]) => {
        const values = await cells.getMany(
          keys.map((c) => key(user, point, c)),
          snapshot === undefined ? {} : ({ snapshot } as never),
        )
        const loaded = new Map(keys.map((c, i) => [c, values[i] === undefined ? emptyCell() : cellFromStored(values[i])]))
        for (const o of waiting.observations) addToCells(loaded, o, params)
        return keys.map((c) => loaded.get(c) as Cell)
      }
      const entry = hot.get(pk)
      if (entry !== undefined && (entry.head.newest === null || entry.head.newest <= at)) {
        // Cells the entry lacks are read without a snapshot: if a write touched the point
        // meanwhile, the entry no longer holds and the answer is computed again from a snapshot.
        // An entry kept by latestChoice holds no cell yet: the cells the last read asked for come first.
        const likely = entry.cells.size === 0 ? (lastRead.get(pk) ?? []) : []
        const { result, loaded } = await readThrough(load(entry.head.pending), compute, likely, entry.cells)
        if (hot.holds(pk, entry)) {
          usedAt.set(pk, Math.max(usedAt.get(pk) ?? 0, used))
          hot.grow(pk, entry, loaded)
          return result
        }
      }
      const writesBefore = hot.writes
      const snapshot = db.snapshot()
      const reads = reading.get(pk) ?? new Set()
      const thisRead = { dropped: false }
      reading.set(pk, reads.add(thisRead))
      let head: StoredHead | undefined
      let newest: number | null = null
      try {
        head = await heads.get(pk, { snapshot })
        if (head !== undefined && isCurrent(head)) {
          const waiting = await pendingOf(user, point, snapshot)
          newest = newestOf(head, waiting)
          if (newest === null || newest <= at) {
            // Answered from the snapshot; its use and the cells it read are remembered only while
            // nothing dropped what is remembered of the point.
            if (!thisRead.dropped) usedAt.set(pk, Math.max(usedAt.get(pk) ?? 0, used))
            const { result, read, loaded } = await readThrough(load(waiting, snapshot), compute, lastRead.get(pk) ?? [])
            if (!thisRead.dropped) lastRead.set(pk, read)
            hot.keep(pk, writesBefore, { head, pending: waiting, newest }, loaded)
            return result
          }
        }
      } finally {
        reads.delete(thisRead)
        if (reads.size === 0) reading.delete(pk)
        await snapshot.close()
      }
      if (head !== undefined && isCurrent(head) && newest !== null && newest > at) {
        return compute(viewOf(await replayedAt(user, point, asOf)))
      }
      if (head === undefined && !(await observedAt(user, point))) {
        // Nothing observed here (a question new to the user, a user forgotten): nothing to build,
        // and nothing kept that would name the user. An observation written meanwhile is read
        // next time, as if this read had come a moment earlier.
        return compute(viewOf(new Map()))
      }
      const { aggregate, writesAfter } = await enqueue(async () => {
        const rebuilt = await rebuild(user, point, used)
        await demoteOverCapacity(used)
        // Demoted at once (the lightest point of a full core): nothing of it is remembered.
        return { aggregate: rebuilt, writesAfter: (await entries()).has(pk) ? hot.writes : undefined }
      })
      if (aggregate.summary.newest === null || aggregate.summary.newest <= at) {
        // The cells this computation asks for are read first by the next read of the point, as
        // after a read from core: without them, the first read of a point rebuilt on its first use
        // (an answer asked again once its kept answer expired) found them round by round, the
        // computation run again for each (about 6 rounds at the bench's points). Kept only while
        // the point is in core and no write has touched it since (a demotion, a forget: what
        // they drop must stay dropped), and not for a point rebuilt empty (a user forgotten
        // meanwhile), which is not in core.
        const read = new Set<CellKey>()
        const view = viewOf(aggregate.cells)
        const result = compute({
          cells(keys) {
            for (const k of keys) read.add(k)
            return view.cells(keys)
          },
        })
        if (writesAfter !== undefined && hot.writes === writesAfter) lastRead.set(pk, [...read])
        return result
      }
      return compute(viewOf(await replayedAt(user, point, asOf)))
    },

    /** Before a user's entries are deleted (forget): no read may mix what is held in memory with what is deleted. */
    forgetting(user: string): void {
      hot.writingPrefix(`${user}\u0000`)
      for (const k of [...latestKnown.keys()]) if (k.startsWith(`${user}\u0000`)) latestKnown.delete(k)
    },

    /**
     * Drops what this process remembers of a user's aggregates, once the forget's write is done
     * or failed (after `forgetting`, always). Inside the write queue.
     */
    forgotten(user: string): void {
      const prefix = `${user}\u0000`
      for (const k of [...usedAt.keys()]) if (k.startsWith(prefix)) usedAt.delete(k)
      for (const k of [...lastRead.keys()]) if (k.startsWith(prefix)) lastRead.delete(k)
      for (const k of reading.keys()) if (k.startsWith(prefix)) markDropped(k)
      for (const k of [...waitingAt.keys()]) if (k.startsWith(prefix)) waitingAt.delete(k)
      for (const k of [...currentHeads]) if (k.startsWith(prefix)) currentHeads.delete(k)
      for (const k of [...latestKnown.keys()]) if (k.startsWith(prefix)) latestKnown.delete(k)
      hot.writtenPrefix(prefix)
      if (index !== null) for (const k of [...index.keys()]) if (k.startsWith(prefix)) index.delete(k)
    },

    /** Whether the aggregate of a point is in core, built with the current parameters. */
    async inCore(user: string, point: string): Promise<boolean> {
      const head = await heads.get(key(user, point))
      return head !== undefined && isCurrent(head)
    },

    /**
     * The decay scan's part in core: rebuilds the aggregates built with other parameters (a
     * changed policy or format), then demotes down to capacity. Each step is one atomic write, so
     * a scan stopped anywhere leaves core valid.
     */
    async maintain(now: Date, signal?: AbortSignal): Promise<{ demoted: number; refreshed: number }> {
      const stale = await enqueue(async () =>
        [...(await entries()).values()].filter((entry) => !isCurrent(entry.head)),
      )
      let refreshed = 0
      for (const entry of stale) {
        signal?.throwIfAborted()
        const pk = key(entry.user, entry.point)
        await enqueue(async () => {
          // Forgotten, demoted or rebuilt since it was listed: nothing to refresh (a rebuild here
          // would write the head of a forgotten user back).
          const current = (await entries()).get(pk)
          if (current === undefined || isCurrent(current.head)) return
          await rebuild(current.user, current.point, current.head.last_use)
          refreshed++
        })
      }
      const demoted = await enqueue(() => demoteOverCapacity(now.getTime(), signal))
      return { demoted, refreshed }
    },
  }
}

/**
 * Runs a pure computation over cells read on demand: the view throws CellsNotLoaded for cells not
 * read yet, those are read, and the computation runs again; each round reads at least one new
 * cell. With nothing read first, a recommendation at the bench's points took about six rounds
 * (bench/HISTORY.md, the forty-second session); with the cells its last read asked for, one.
 * The `likely` cells are read before the first round; the `known` ones (a hot point's) count as
 * read. Answers the result, the keys it used and the cells it read from the store.
 */
async function readThrough<T>(
  load: (keys: CellKey[]) => Promise<Cell[]>,
  compute: (memory: PointView) => T,
  likely: readonly CellKey[],
  known: ReadonlyMap<CellKey, Cell> = new Map(),
): Promise<{ result: T; read: CellKey[]; loaded: Map<CellKey, Cell> }> {
  const loaded = new Map<CellKey, Cell>()
  const read = new Set<CellKey>()
  const cellOf = (k: CellKey) => loaded.get(k) ?? known.get(k)
  if (likely.length > 0) {
    const values = await load([...likely])
    likely.forEach((k, i) => loaded.set(k, values[i] as Cell))
  }
  const view: PointView = {
    cells(keys) {
      const missing = [...new Set(keys.filter((k) => cellOf(k) === undefined))]
      if (missing.length > 0) throw new CellsNotLoaded(missing)
      for (const k of keys) read.add(k)
      return keys.map((k) => cellOf(k) as Cell)
    },
  }
  for (;;) {
    try {
      const result = compute(view)
      return { result, read: [...read], loaded }
    } catch (error) {
      if (!(error instanceof CellsNotLoaded)) throw error
      const values = await load(error.keys)
      error.keys.forEach((k, i) => loaded.set(k, values[i] as Cell))
    }
  }
}
