import type { DecisionEvent, DecisionRecord, DecisionStatus } from './decision'

/** How a decision reached a run (R-CON-4): which doorway asked for it. */
export const PULSE_SOURCES = ['applicable', 'recommendation', 'check'] as const
export type PulseSource = (typeof PULSE_SOURCES)[number]

/** How often a decision reached a run, and when it last did. */
export interface Pulse {
  key: string
  count: number
  by: Record<PulseSource, number>
  first_at: string
  last_at: string
}

/**
 * One unit of work on decisions: reads see the store as it was when the work began plus the
 * work's own puts; nothing is written until the work returns, and then all of it at once.
 */
export interface DecisionTransaction {
  get(key: string): Promise<DecisionRecord | undefined>
  /** Every decision key, in key order. */
  keys(): Promise<string[]>
  put(record: DecisionRecord): void
  /** Appends to a decision's history; events are never changed or removed. */
  append(event: DecisionEvent): void
}

/**
 * The second store (R-CON-1), separate from observations: decisions, their append-only event
 * history and their recall pulses. One interface, run by one suite against every backend.
 */
export interface DecisionStore {
  /** Runs `work` with no other write in between and commits what it put in one atomic batch. */
  transact<T>(work: (tx: DecisionTransaction) => Promise<T>): Promise<T>
  get(key: string): Promise<DecisionRecord | undefined>
  /**
   * A number that moves whenever a commit of decisions or events starts or ends (pulses aside):
   * what was read of decisions while it stayed the same is still what the store holds.
   */
  changes(): number
  /** Decisions in key order, optionally only those of a status or bound to a point. */
  list(filter?: { status?: DecisionStatus | undefined; point?: string | undefined }): Promise<DecisionRecord[]>
  /** A decision's history, oldest first. */
  events(key: string): Promise<DecisionEvent[]>
  /** Counts one pulse for each key at `at`. */
  pulse(keys: readonly string[], source: PulseSource, at: string): Promise<void>
  /** Every decision's pulses, by key; a decision never reached has none. */
  pulses(): Promise<Pulse[]>
}
