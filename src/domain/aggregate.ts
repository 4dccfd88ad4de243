import { addMoment, decayGrid, emptyDecayedSum, type DecayedSum, type DecayGrid } from './decayed-sum'
import type { Context, Observation } from './observation'
import { RECENT_SESSIONS, type Policy } from './policy'

/**
 * The aggregate of one user's observations at one decision point (R-MEM-1): everything a
 * recommendation needs, kept as the observations arrive, so that answering reads a handful of
 * cells whatever the length of the history (R-MEM-8).
 *
 * An aggregate is a set of cells, each the tallies of one slice of the observations:
 * - `scope`: every observation of the scope (a project, or null for all the user's projects);
 *   for project backoff (R-MEM-6), the long-term layer and the unnarrowed evidence.
 * - `context`: those of a scope with one context value (key = value); for context backoff
 *   (R-REC-7) and for checking preconditions.
 * - `pair`: those of a scope with two context values; to check the precondition of evidence
 *   narrowed to one of them (R-REC-5).
 * - `session`: those of a scope in one session; for the session and recent layers (R-MEM-5).
 * Only the user's own choices count (`source: "user"`); auto-resolved answers are not evidence.
 * Counts, moments and decayed sums are combined by adding, so the same observations give the
 * same answers in any order (up to floating-point rounding of the decayed sums; the Misra–Gries
 * counters may differ, but they only name candidates whose exact counts are then read), and an
 * aggregate rebuilt from archival answers as the one kept in core did.
 */

/**
 * What counting an observation reads of it: an Observation is one. `multi_select` is how it was
 * asked, for the summary's latest choice (null, or left out, when not known).
 */
export type Counted = Pick<Observation, 'id' | 'timestamp' | 'project' | 'session_id' | 'context' | 'chosen' | 'source'> & {
  multi_select?: boolean | null
}

/** The choices of one observation as a key: its sorted chosen labels as JSON (`[]` for other). */
export type Category = string

/** A cell's key: its kind, scope and slice, as JSON (so that labels and values of any text are safe). */
export type CellKey = string

export type CellKind = 'scope' | 'context' | 'pair' | 'session' | 'auto'

/** What a cell knows of the observations of one category. */
export interface Tally {
  n: number
  /** The first and the last moment (ms since epoch) of a choice of this category. */
  first: number
  last: number
  /**
   * The id of the choice recorded last at `last`: of choices made at one moment (a batch, a
   * hook's answers, requests back to back under a clock that stands still), the later for
   * arriving later (observation-id.ts), so that a tie goes to the most recent choice (R-REC-2).
   * Absent in a cell stored before it was kept: such a tie then goes by label.
   */
  lastId?: string
  /** The decayed weights of those moments; absent in pair cells, which only count. */
  weight?: DecayedSum
}

/** The tallies of one slice of the observations at a point. */
export interface Cell {
  n: number
  tallies: Map<Category, Tally>
  /** Scope cells: the sessions that chose here most recently, `[session, last seen ms]`, most recent first. */
  sessions: Array<[string, number]>
  /** Scope and context cells: the newest observations `[ms, id]`, newest first, at most EVIDENCE_LIMIT. */
  evidence: Array<[number, string]>
  /**
   * Scope and context cells: per category and context key, Misra–Gries counters of the values
   * (Misra & Gries 1982). Every value held by more than 1/(k + 1) of a category's observations is
   * among them, so they name the only values that can be a precondition; the counts themselves
   * come from the context and pair cells.
   */
  candidates: Map<Category, Map<string, Map<string, number>>>
}

/** What the whole aggregate knows, kept beside its cells (R-MEM-4 ranks aggregates by this weight). */
export interface AggregateSummary {
  n: number
  /**
   * The newest moment (ms) of any observation counted, auto-resolved answers included (they count
   * in the auto cells: an audit before them must not see them), null when there is none.
   */
  newest: number | null
  weight: DecayedSum
  /**
   * The user's newest own choice counted (auto-resolved answers passed over), by its moment (ms)
   * and then its id, as archival orders them, and whether it was asked as multi-select (null when
   * its observation does not say): what a request that does not say reads the point as, so that a
   * point in core answers it from core (R-MEM-1). Null when there is none; absent in a head of an
   * earlier format (core-tier.ts), which is rebuilt before it is read.
   */
  latest?: LatestChoice | null
}

/** The moment (ms), the id and the multi-select flag (null when not known) of a choice. */
export type LatestChoice = [at: number, id: string, multiSelect: boolean | null]

/** Whether the choice at `at` with id `id` comes after `latest`, in archival's order (time, then id). */
export function isLaterChoice(at: number, id: string, latest: LatestChoice | null): boolean {
  return latest === null || at > latest[0] || (at === latest[0] && id > latest[1])
}

/** The policy numbers an aggregate is built with; an aggregate built with others is rebuilt. */
export interface AggregationParams {
  alpha: number
  /** Misra–Gries counters per category and context key. */
  candidates: number
  /** How many recent sessions a scope cell names: those the recent layer covers (R-MEM-5). */
  recentSessions: number
}

export { RECENT_SESSIONS }
/** How many evidence ids a recommendation cites. */
export const EVIDENCE_LIMIT = 100
/** Misra–Gries counters at the most, for a precondition share as small as 1/20. */
const MAX_CANDIDATES = 20

/**
 * The aggregation parameters of a policy: its decay α, k = ⌊1/share⌋ counters (k + 1 > 1/share),
 * and the sessions of the recent layer.
 */
export function aggregationParams(policy: {
  decay: Pick<Policy['decay'], 'alpha'>
  context: Pick<Policy['context'], 'precondition_share'>
  layers?: Pick<Policy['layers'], 'recent_sessions'>
}): AggregationParams {
  const share = policy.context.precondition_share
  const candidates = share <= 0 ? MAX_CANDIDATES : Math.min(MAX_CANDIDATES, Math.max(1, Math.floor(1 / share)))
  return { alpha: policy.decay.alpha, candidates, recentSessions: policy.layers?.recent_sessions ?? RECENT_SESSIONS }
}

/** The category of a choice: its chosen labels, deduplicated and sorted, as JSON. */
export function categoryOf(chosen: readonly string[]): Category {
  return JSON.stringify([...new Set(chosen)].sort())
}

/** The labels a category chose. */
export function labelsOf(category: Category): string[] {
  return JSON.parse(category) as string[]
}

/**
 * A context value as compared: scalars by their string form, without the white space around it;
 * null, absent and blank are no value (a precondition "phase is " would say nothing).
 */
export function contextText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  const text = String(value).trim()
  return text === '' ? undefined : text
}

/** An observation's context values, `[key, value]`, by key. */
function contextEntries(context: Context | Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const [key, raw] of Object.entries(context)) {
    const value = contextText(raw)
    if (value !== undefined) out.push([key, value])
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/** The keys of the cells, by kind; `project` null is the scope of every project of the user. */
export const cellKey = {
  scope: (project: string | null): CellKey => JSON.stringify(['scope', project]),
  context: (project: string | null, key: string, value: string): CellKey =>
    JSON.stringify(['context', project, key, value]),
  /** The two context values in key order (as contextEntries gives them), so that a pair has one key. */
  pair: (project: string | null, a: readonly [string, string], b: readonly [string, string]): CellKey => {
    const [x, y] = a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? [a, b] : [b, a]
    return JSON.stringify(['pair', project, x[0], x[1], y[0], y[1]])
  },
  session: (project: string | null, session: string): CellKey => JSON.stringify(['session', project, session]),
  /** The answers this service gave itself (auto-resolved, R-ASK-4): never evidence, only counted for the check-in. */
  auto: (project: string | null): CellKey => JSON.stringify(['auto', project]),
}

/** The cells an observation is counted in: for every project and for its own, its slices. */
export function cellsOf(observation: Counted): Array<{ key: CellKey; kind: CellKind }> {
  const out: Array<{ key: CellKey; kind: CellKind }> = []
  if (!isEvidence(observation)) {
    for (const project of observation.project === null ? [null] : [null, observation.project]) {
      out.push({ key: cellKey.auto(project), kind: 'auto' })
    }
    return out
  }
  const entries = contextEntries(observation.context)
  for (const project of observation.project === null ? [null] : [null, observation.project]) {
    out.push({ key: cellKey.scope(project), kind: 'scope' })
    if (observation.session_id !== null) {
      out.push({ key: cellKey.session(project, observation.session_id), kind: 'session' })
    }
    entries.forEach((entry, i) => {
      out.push({ key: cellKey.context(project, entry[0], entry[1]), kind: 'context' })
      for (let j = i + 1; j < entries.length; j++) {
        out.push({ key: cellKey.pair(project, entry, entries[j] as [string, string]), kind: 'pair' })
      }
    })
  }
  return out
}

/** The cell of a slice nothing was counted in. */
export function emptyCell(): Cell {
  return { n: 0, tallies: new Map(), sessions: [], evidence: [], candidates: new Map() }
}

/** The summary of an aggregate of no observation. */
export function emptySummary(): AggregateSummary {
  return { n: 0, newest: null, weight: emptyDecayedSum(), latest: null }
}

/** Whether an observation is evidence of the user's preference: auto-resolved answers are not (R-ASK-4). */
export function isEvidence(observation: Pick<Observation, 'source'>): boolean {
  return observation.source === 'user'
}

/**
 * Counts one observation in an aggregate, in place: in its summary and in every cell it belongs
 * to (cells missing from `cells` are created). Observations that are not the user's own choice
 * count only in the auto cells.
 */
export function addToAggregate(
  aggregate: { summary: AggregateSummary; cells: Map<CellKey, Cell> },
  observation: Counted,
  params: AggregationParams,
): void {
  const { summary } = aggregate
  const at = Date.parse(observation.timestamp)
  summary.newest = summary.newest === null ? at : Math.max(summary.newest, at)
  if (isEvidence(observation)) {
    summary.n++
    addMoment(summary.weight, at, decayGrid(params.alpha))
    // A summary that does not know its latest choice (a head of an earlier format) still does not.
    if (summary.latest !== undefined && isLaterChoice(at, observation.id, summary.latest)) {
      summary.latest = [at, observation.id, observation.multi_select ?? null]
    }
  }
  countInCells(aggregate.cells, observation, params, true)
}

/**
 * Counts one observation in those of its cells that `cells` holds, in place, and in no other: a
 * reader that loaded some cells of a point counts in them the observations not yet in the store's
 * cells (core-tier.ts), without building the rest.
 */
export function addToCells(cells: Map<CellKey, Cell>, observation: Counted, params: AggregationParams): void {
  countInCells(cells, observation, params, false)
}

function countInCells(cells: Map<CellKey, Cell>, observation: Counted, params: AggregationParams, create: boolean): void {
  const grid = decayGrid(params.alpha)
  const at = Date.parse(observation.timestamp)
  const evidence = isEvidence(observation)
  const category = categoryOf(observation.chosen)
  const entries = evidence ? contextEntries(observation.context) : []
  for (const { key, kind } of cellsOf(observation)) {
    let cell = cells.get(key)
    if (cell === undefined) {
      if (!create) continue
      cell = emptyCell()
      cells.set(key, cell)
    }
    cell.n++
    // Auto-resolved answers count only their moment, in the auto cells: the check-in counts the
    // answers given since the user's last. The id of the choice recorded last breaks a tie of the
    // preference learned from a cell (R-REC-2): pair and auto cells, which only count, are not
    // learned from, and are the more and the smaller cells (it made a pair cell half as large again).
    const learned = kind !== 'pair' && kind !== 'auto'
    countInTally(cell.tallies, category, at, kind === 'pair' ? null : grid, learned ? observation.id : undefined)
    if (!evidence) continue
    if (kind === 'scope' && observation.session_id !== null) noteSession(cell.sessions, observation.session_id, at, params.recentSessions)
    if (kind === 'scope' || kind === 'context') {
      noteEvidence(cell.evidence, at, observation.id)
      noteCandidates(cell.candidates, category, entries, params.candidates)
    }
  }
}

/** Counts one choice of a category at `at` (ms); with a grid, its decayed weight too. */
export function countInTally(tallies: Map<Category, Tally>, category: Category, at: number, grid: DecayGrid | null, id?: string): void {
  let tally = tallies.get(category)
  if (tally === undefined) {
    tally = { n: 0, first: at, last: at }
    if (grid !== null) tally.weight = emptyDecayedSum()
    tallies.set(category, tally)
  }
  tally.n++
  tally.first = Math.min(tally.first, at)
  if (at > tally.last || (at === tally.last && tally.n === 1)) {
    tally.last = at
    if (id === undefined) delete tally.lastId
    else tally.lastId = id
  } else if (at === tally.last && tally.lastId !== undefined && id !== undefined && laterId(id, tally.lastId)) tally.lastId = id
  if (tally.weight !== undefined && grid !== null) addMoment(tally.weight, at, grid)
}

/**
 * Whether observation id `a` was recorded after `b`, both of one moment: ids rise in the order
 * they were made (observation-id.ts), their millisecond in a fixed width of base 36.
 */
export function laterId(a: string, b: string): boolean {
  return a.length === b.length ? a > b : a.length > b.length
}

/**
 * The categories of a cell chosen last: those of its latest moment, and of them, where each says
 * the choice recorded last then (its lastId), the one recorded last, as a tie of one moment goes
 * (R-REC-2); all of that moment where one does not say (a cell stored before the ids were kept).
 * Empty for a cell of no choice.
 */
export function chosenLastOf(tallies: Iterable<readonly [Category, Tally]>): Category[] {
  let latest = -Infinity
  let at: Array<readonly [Category, Tally]> = []
  for (const entry of tallies) {
    const last = entry[1].last
    if (last > latest) [latest, at] = [last, [entry]]
    else if (last === latest) at.push(entry)
  }
  if (at.some(([, tally]) => tally.lastId === undefined)) return at.map(([category]) => category)
  const ids = at.map(([, tally]) => tally.lastId as string)
  const last = ids.reduce((a, b) => (laterId(b, a) ? b : a), ids[0] as string)
  return at.filter((_, i) => ids[i] === last).map(([category]) => category)
}

/** Builds the aggregate of a point from its observations (a rebuild from archival, or an as_of replay). */
export function aggregateObservations(
  observations: Iterable<Observation>,
  params: AggregationParams,
): { summary: AggregateSummary; cells: Map<CellKey, Cell> } {
  const aggregate = { summary: emptySummary(), cells: new Map<CellKey, Cell>() }
  for (const observation of observations) addToAggregate(aggregate, observation, params)
  return aggregate
}

/** Most recent first; among sessions last seen at the same moment, by id. */
function noteSession(sessions: Array<[string, number]>, session: string, at: number, limit: number): void {
  const known = sessions.findIndex(([id]) => id === session)
  if (known >= 0) {
    if ((sessions[known] as [string, number])[1] >= at) return
    sessions.splice(known, 1)
  }
  // A session outside the list was last seen no later than the list's last (ties by id), and
  // that only rises; so inserting it at `at` keeps exactly the most recent sessions.
  insertRanked<[string, number]>(sessions, [session, at], (a, b) => b[1] - a[1] || compareText(a[0], b[0]), limit)
}

/**
 * Newest first; among observations of the same moment, the one recorded last first (by id, which
 * rises in the order they were recorded: observation-id.ts), so that the newest EVIDENCE_LIMIT are
 * kept.
 */
function noteEvidence(evidence: Array<[number, string]>, at: number, id: string): void {
  insertRanked<[number, string]>(evidence, [at, id], (a, b) => b[0] - a[0] || compareText(b[1], a[1]), EVIDENCE_LIMIT)
}

function insertRanked<T>(list: T[], item: T, order: (a: T, b: T) => number, limit: number): void {
  let i = list.length
  while (i > 0 && order(list[i - 1] as T, item) > 0) i--
  if (i >= limit) return
  list.splice(i, 0, item)
  if (list.length > limit) list.pop()
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function noteCandidates(
  candidates: Cell['candidates'],
  category: Category,
  entries: ReadonlyArray<[string, string]>,
  capacity: number,
): void {
  let byKey = candidates.get(category)
  if (byKey === undefined) {
    byKey = new Map()
    candidates.set(category, byKey)
  }
  for (const [key, value] of entries) {
    let counters = byKey.get(key)
    if (counters === undefined) {
      counters = new Map()
      byKey.set(key, counters)
    }
    const count = counters.get(value)
    if (count !== undefined) counters.set(value, count + 1)
    else if (counters.size < capacity) counters.set(value, 1)
    else {
      for (const [v, c] of counters) {
        if (c <= 1) counters.delete(v)
        else counters.set(v, c - 1)
      }
    }
  }
}

/**
 * The cells of an aggregate as a recommendation reads them. `cells` answers an empty cell for a
 * key nothing was counted in, and throws CellsNotLoaded for keys not read from the store yet:
 * the reader loads those and asks again, so the domain names what it reads and stays pure.
 */
export interface PointView {
  cells(keys: readonly CellKey[]): Cell[]
}

/** Thrown by a PointView for cells it has not read yet. */
export class CellsNotLoaded extends Error {
  constructor(readonly keys: CellKey[]) {
    super(`cells not loaded: ${keys.length}`)
    this.name = 'CellsNotLoaded'
  }
}

/** A view over cells held in memory (a rebuilt aggregate): every cell is there. */
export function viewOf(cells: ReadonlyMap<CellKey, Cell>): PointView {
  return { cells: (keys) => keys.map((key) => cells.get(key) ?? emptyCell()) }
}

/** A cell as stored: arrays instead of maps, so that labels such as `__proto__` stay plain data. */
export interface StoredCell {
  n: number
  tallies: Array<[Category, Tally]>
  sessions?: Array<[string, number]>
  evidence?: Array<[number, string]>
  candidates?: Array<[Category, Array<[string, Array<[string, number]>]>]>
}

/** A cell in its stored form. */
export function storedCell(cell: Cell): StoredCell {
  const out: StoredCell = { n: cell.n, tallies: [...cell.tallies] }
  if (cell.sessions.length > 0) out.sessions = cell.sessions
  if (cell.evidence.length > 0) out.evidence = cell.evidence
  if (cell.candidates.size > 0) {
    out.candidates = [...cell.candidates].map(([category, byKey]) => [
      category,
      [...byKey].map(([key, counters]) => [key, [...counters]]),
    ])
  }
  return out
}

/** A cell from its stored form. */
export function cellFromStored(stored: StoredCell): Cell {
  return {
    n: stored.n,
    tallies: new Map(stored.tallies),
    sessions: stored.sessions ?? [],
    evidence: stored.evidence ?? [],
    candidates: new Map(
      (stored.candidates ?? []).map(([category, byKey]) => [
        category,
        new Map(byKey.map(([key, counters]) => [key, new Map(counters)])),
      ]),
    ),
  }
}
