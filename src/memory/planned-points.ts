import type { AbstractLevel } from 'abstract-level'
import { key } from './keys'
import { writeOptions } from './write-options'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>

/** The point a question was planned at, by the decision_id its answer will carry. */
export interface PlannedPoint {
  decision_id: string
  point: string
}

/** A record as stored: the point, and when it was planned (ISO), by which the decay scan drops it. */
interface PlannedRecord {
  point: string
  planned_at: string
}

/** How many records one atomic write of the decay scan drops. */
const EXPIRY_BATCH = 500

/**
 * The points a PreToolUse planned questions at whose options a required decision took out
 * (sublevel `planned-points`: `user\0decision_id` → `{point, planned_at}`). The PostToolUse of
 * such a question carries the options shown, which a question keyed by hash (R-CAP-4) would key
 * to another point: it reads the point planned here instead, and drops the record once its answer
 * is stored. A record whose answer never comes (the picker dismissed: Claude Code then sends no
 * PostToolUse) is dropped by the first decay scan after recall's TTL. Keyed by the user first, so
 * forget deletes it and export lists it among its `entry` lines. Few: only questions whose
 * options were taken out, and only until they are answered; the decay scan reads them all.
 */
export function createPlannedPoints(db: Db, options: { sync: boolean }) {
  const planned = db.sublevel<string, PlannedRecord>('planned-points', { valueEncoding: 'json' })
  const written = writeOptions(options.sync)

  return {
    /** Remembers where each question was planned, at `at` (ISO). */
    async remember(user: string, points: readonly PlannedPoint[], at: string): Promise<void> {
      if (points.length === 0) return
      await planned.batch(
        points.map((p) => ({ type: 'put' as const, key: key(user, p.decision_id), value: { point: p.point, planned_at: at } })),
        written as never,
      )
    },

    /** The point each decision_id was planned at, in their order; undefined where none was remembered. */
    async of(user: string, decisionIds: readonly string[]): Promise<Array<string | undefined>> {
      if (decisionIds.length === 0) return []
      return (await planned.getMany(decisionIds.map((id) => key(user, id)))).map((r) => r?.point)
    },

    /** Forgets where these were planned: their answers are stored. */
    async drop(user: string, decisionIds: readonly string[]): Promise<void> {
      if (decisionIds.length === 0) return
      await planned.batch(
        decisionIds.map((id) => ({ type: 'del' as const, key: key(user, id) })),
        written as never,
      )
    },

    /** Drops the records planned before `before`, EXPIRY_BATCH to an atomic write; returns how many. */
    async expire(before: Date, signal?: AbortSignal): Promise<number> {
      const bound = before.toISOString()
      let dropped = 0
      let stale: string[] = []
      for await (const [k, record] of planned.iterator()) {
        signal?.throwIfAborted()
        if (record.planned_at >= bound) continue
        stale.push(k)
        if (stale.length < EXPIRY_BATCH) continue
        await planned.batch(stale.map((s) => ({ type: 'del' as const, key: s })), written as never)
        dropped += stale.length
        stale = []
      }
      if (stale.length > 0) await planned.batch(stale.map((s) => ({ type: 'del' as const, key: s })), written as never)
      return dropped + stale.length
    },
  }
}
