import type { Observation } from '../domain/observation'
import type { StoredEntry } from './ownership'

/** A session of one user (R-SES-1). */
export interface SessionRecord {
  session_id: string
  user: string
  project: string | null
  started_at: string
  personalization: boolean
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
  /** A user's observations at a point in every project, oldest first, up to `asOf` when given. */
  observationsAt(user: string, point: string, asOf?: Date): Promise<Observation[]>
  /** Every observation of a user, by point then time. */
  observationsOf(user: string): AsyncIterable<Observation>
  /** Starts a session unless it exists; returns the stored record either way. */
  startSession(session: SessionRecord): Promise<{ session: SessionRecord; created: boolean }>
  getSession(user: string, sessionId: string): Promise<SessionRecord | undefined>
  /** The users that have a session with this id. */
  sessionOwners(sessionId: string): Promise<string[]>
  setPersonalization(user: string, sessionId: string, enabled: boolean): Promise<SessionRecord | undefined>
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
  /**
   * Forgets a user (R-SVC-5): deletes every entry of the whole database that belongs to the user,
   * in every sublevel, known or not, and every index, in one atomic, synced batch.
   */
  forgetUser(user: string): Promise<{ deleted: number }>
  close(): Promise<void>
}
