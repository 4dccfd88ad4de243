import type { AggregationParams, PointView } from '../domain/aggregate'
import type { Observation } from '../domain/observation'
import type { StoredEntry } from './ownership'
import type { PlannedPoint, ShownPoint } from './planned-points'

/** A session of one user (R-SES-1). */
export interface SessionRecord {
  session_id: string
  user: string
  project: string | null
  started_at: string
  personalization: boolean
  /**
   * Each toggle of personalization, oldest first, with the moment it was made: what a replay
   * (`as_of`, R-REC-9) reads. Absent in a session never toggled, and in sessions toggled before
   * it was kept (whose toggle's moment is not known).
   */
  toggles?: Array<{ at: string; enabled: boolean }>
}

/**
 * A session's personalization as of `asOf`: the last toggle made by then, else on (every session
 * starts on, R-SES-3); for a session whose toggles' moments are not kept, as it is now.
 */
export function personalizationAt(session: SessionRecord, asOf: Date): boolean {
  if (session.toggles === undefined) return session.personalization
  const at = asOf.toISOString()
  const made = session.toggles.filter((t) => t.at <= at)
  return made.length === 0 ? true : (made[made.length - 1] as { enabled: boolean }).enabled
}

/** What storing a batch of observations did (R-CAP-2). */
export interface StoreResult {
  stored: Observation[]
  /** decision_ids that were already stored for their user. */
  duplicates: string[]
}

/**
 * The storage of decision-memory: one interface, run by one suite against every backend
 * (memory-level in tests, classic-level in the service).
 */
export interface MemoryStore {
  /**
   * Appends observations, skipping any whose decision_id the user already has, and starts the
   * sessions they name that are new; all of it in one atomic, synced write.
   */
  addObservations(observations: readonly Observation[], sessions: readonly SessionRecord[]): Promise<StoreResult>
  /** A user's observations at a point in every project, from archival, oldest first, up to `asOf` when given. */
  observationsAt(user: string, point: string, asOf?: Date): Promise<Observation[]>
  /** A user's latest observations at a point (by their timestamp), newest first, at most `limit`. */
  latestAt(user: string, point: string, limit: number): Promise<Observation[]>
  /**
   * The user's latest own choice (`source: "user"`) at a point in any project, by its timestamp,
   * up to `asOf` when given; undefined when there is none among the latest `within` observations.
   */
  latestChoiceAt(user: string, point: string, asOf: Date | undefined, within: number): Promise<Observation | undefined>
  /**
   * Whether the user's latest own choice at a point up to `asOf` was asked as multi-select
   * (undefined when it does not say, or there is none): from core when the point is there and holds
   * nothing newer, reading nothing from recall or archival (R-MEM-1), nor, once core has read it,
   * anything after the writes there since; else `latestChoiceAt`'s, looked for past any number of
   * the service's own answers, as core knows it.
   */
  latestMultiSelectAt(user: string, point: string, asOf: Date): Promise<boolean | undefined>
  /** Every observation of a user, by point then time. */
  observationsOf(user: string): AsyncIterable<Observation>
  /** Starts a session unless it exists; returns the stored record either way. */
  startSession(session: SessionRecord): Promise<{ session: SessionRecord; created: boolean }>
  getSession(user: string, sessionId: string): Promise<SessionRecord | undefined>
  /** The users that have a session with this id. */
  sessionOwners(sessionId: string): Promise<string[]>
  /**
   * Sets a session's personalization at `at`; `enabled` undefined flips the one it has when the
   * write is made (two flips at once flip twice). Undefined when there is no such session.
   */
  setPersonalization(user: string, sessionId: string, enabled: boolean | undefined, at: string): Promise<SessionRecord | undefined>
  /** Distinct sessions of a user started up to `asOf` (R-SES-2). */
  countSessions(user: string, asOf?: Date): Promise<number>
  /** Every session of a user (R-SVC-5). */
  sessionsOf(user: string): AsyncIterable<SessionRecord>
  /**
   * Entries of a user that none of the typed methods above reads (sublevels added by other parts:
   * aggregates, decisions, ...), found by a raw scan of the whole database, so that an export holds
   * everything kept about the user before it has a typed section for it (R-SVC-5).
   */
  untypedEntriesOf(user: string): AsyncIterable<StoredEntry>
  /** The user's aggregates in core (heads and cells), as stored: what has been learned per point. */
  aggregatesOf(user: string): AsyncIterable<StoredEntry>
  /**
   * Forgets a user (R-SVC-5): deletes every entry of the whole database that belongs to the user,
   * in every sublevel, known or not, and every index, in one atomic, synced batch.
   */
  forgetUser(user: string): Promise<{ deleted: number }>

  /** The policy numbers the aggregates are built with (decay α, precondition candidates). */
  readonly aggregation: AggregationParams
  /**
   * Runs `compute` over the aggregate of the user's observations at a point as of `asOf`
   * (R-MEM-1): from core when it is there, reading only the cells `compute` asks for; else
   * rebuilt from archival (and put in core, R-MEM-4); an `asOf` before the point's newest
   * observation is replayed from archival. `now` (by default `asOf`) is when the read is made: the
   * point's last use, and the moment core ranks its aggregates' current weights at when it demotes.
   */
  readPoint<T>(user: string, point: string, asOf: Date, compute: (memory: PointView) => T, now?: Date): Promise<T>
  /** Whether the aggregate of a point is in core. */
  inCore(user: string, point: string): Promise<boolean>
  /** The observations at a point still in recall (R-MEM-1), newest first. */
  recallAt(user: string, point: string): Promise<Observation[]>
  /** Takes the observations made before `before` out of recall, in atomic batches; returns how many (R-MEM-3). */
  expireRecall(before: Date, signal?: AbortSignal): Promise<number>
  /** Rebuilds aggregates built with other parameters and demotes core down to its capacity (R-MEM-4). */
  maintainCore(now: Date, signal?: AbortSignal): Promise<{ demoted: number; refreshed: number }>
  /** When the last complete decay scan ran (ISO), if ever (R-MEM-7). */
  lastDecayScan(): Promise<string | undefined>
  /**
   * A number that moves whenever a write that may change the user's answers starts or ends
   * (observations, sessions, forget, the decay scan): an answer computed while it stayed the same
   * is still the store's answer.
   */
  changesOf(user: string): number
  /**
   * Remembers the points questions were planned at, by the decision_id their answers will carry,
   * as of `at` (ISO): a PreToolUse that took options out of a question (planned-points.ts).
   */
  rememberPlannedPoints(user: string, planned: readonly PlannedPoint[], at: string): Promise<void>
  /** Whether the user has an observation stored under each decision_id, in their order (R-CAP-2's dedupe). */
  holdsDecisionIds(user: string, decisionIds: readonly string[]): Promise<boolean[]>
  /** The point each decision_id was planned at, in their order; undefined where none is remembered. */
  plannedPointsOf(user: string, decisionIds: readonly string[]): Promise<Array<string | undefined>>
  /** Forgets where these decision_ids were planned: their answers are stored. */
  dropPlannedPoints(user: string, decisionIds: readonly string[]): Promise<void>
  /** Drops the planned points remembered before `before` (their answers never came); returns how many. */
  expirePlannedPoints(before: Date, signal?: AbortSignal): Promise<number>
  /**
   * Remembers the points questions were planned at, by the point each question as shown keys to,
   * as of `at` (ISO): `POST /v1/plan` or `plan_questions` took options out of it (planned-points.ts).
   */
  rememberShownPoints(user: string, shown: readonly ShownPoint[], at: string): Promise<void>
  /** The point each shown point was planned at, in their order; undefined where none is remembered. */
  shownPointsOf(user: string, shown: readonly string[]): Promise<Array<string | undefined>>
  /** Drops the shown points remembered before `before`; returns how many. */
  expireShownPoints(before: Date, signal?: AbortSignal): Promise<number>
  /** Records a complete decay scan. */
  recordDecayScan(at: string): Promise<void>
  close(): Promise<void>
}
