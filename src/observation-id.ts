import { randomHex } from './random-hex'

/** How many ids one millisecond orders: the sequence's 6 hex digits. */
const SEQUENCE_SPAN = 0x1000000

/**
 * Makes the ids of observations, `obs-<ms base36>-<12 hex>`: the millisecond they were
 * recorded in (see below for a clock stepped back), then a sequence (6 hex) and 6 random hex
 * digits. Archival keys an observation by its timestamp, then its id, so observations dated alike
 * (a hook's several answers, a batch, sent back to back) are ordered by their ids: the sequence
 * makes that the order they were made in, which the latest choice (a request's multi_select), the
 * latest question, an export, a `why` and a tie of one moment (R-REC-2) read. Without it, those of
 * one millisecond were ordered by their random digits. An id is made as its observe call arrives
 * (decision-memory.ts), so it may reach the store after later ones (a string choice waiting for a
 * write at its point): what reads that order reads it by the ids, never by the order of the writes
 * (the aggregates keep the latest by moment, then id, and core counts what waits in archival's order).
 *
 * The sequence restarts only at a millisecond later than any seen, and the id names that latest
 * millisecond, not the clock's, so that a clock stepped back keeps the ids rising (an id naming
 * the clock's millisecond sorted before those made just earlier: of choices sent under one
 * timestamp, the later was taken for the earlier); 16.7 million ids of one millisecond wrap it,
 * which even a bench's million seeded at a clock standing still does not reach. The random digits
 * keep the ids of two processes (a restart within the millisecond) apart. An id of an older version
 * (12 random hex) is read as any other.
 */
export function createObservationIds(): (now: Date) => string {
  let latest = -Infinity
  let sequence = 0
  return (now) => {
    const ms = now.getTime()
    if (ms > latest) {
      latest = ms
      sequence = 0
    } else sequence = (sequence + 1) % SEQUENCE_SPAN
    return `obs-${latest.toString(36)}-${sequence.toString(16).padStart(6, '0')}${randomHex(3)}`
  }
}
