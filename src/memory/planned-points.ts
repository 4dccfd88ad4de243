import type { AbstractLevel } from 'abstract-level'
import { key } from './keys'
import { writeOptions } from './write-options'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>

/** The point a question was planned at, by the decision_id its answer will carry. */
export interface PlannedPoint {
  decision_id: string
  point: string
}

/** The point a question was planned at, by the point its form as shown (the options left) keys to. */
export interface ShownPoint {
  shown: string
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
  const records = createPointRecords(db, 'planned-points', options)
  return {
    /** Remembers where each question was planned, at `at` (ISO). */
    remember: (user: string, points: readonly PlannedPoint[], at: string) =>
      records.remember(user, points.map((p) => [p.decision_id, p.point]), at),
    /** The point each decision_id was planned at, in their order; undefined where none was remembered. */
    of: (user: string, decisionIds: readonly string[]) => records.of(user, decisionIds),
    /** Forgets where these were planned: their answers are stored. */
    drop: (user: string, decisionIds: readonly string[]) => records.drop(user, decisionIds),
    /** Drops the records planned before `before`, EXPIRY_BATCH to an atomic write; returns how many. */
    expire: (before: Date, signal?: AbortSignal) => records.expire(before, signal),
  }
}

/**
 * The points `POST /v1/plan` and the MCP tool `plan_questions` planned questions at whose options a
 * required decision took out (sublevel `shown-points`: `user\0shown point` → `{point, planned_at}`),
 * by the point the question as shown keys to. An agent passes the plan's `ask_user_question_input`
 * to AskUserQuestion: its PreToolUse then sees the options left, which a question keyed by hash
 * (R-CAP-4) keys to another point, where the decision does not apply and the user's history is not.
 * The hook reads the point planned here instead. Kept until the first decay scan after recall's TTL
 * (an agent may ask the question as planned more than once, or never); planned again, the record's
 * time is renewed. Keyed by the user first, so forget deletes it and export lists it.
 */
export function createShownPoints(db: Db, options: { sync: boolean }) {
  const records = createPointRecords(db, 'shown-points', options)
  return {
    /** Remembers where each question shown so was planned, at `at` (ISO). */
    remember: (user: string, points: readonly ShownPoint[], at: string) =>
      records.remember(user, points.map((p) => [p.shown, p.point]), at),
    /** The point each shown point was planned at, in their order; undefined where none was remembered. */
    of: (user: string, shown: readonly string[]) => records.of(user, shown),
    /** Drops the records planned before `before`, EXPIRY_BATCH to an atomic write; returns how many. */
    expire: (before: Date, signal?: AbortSignal) => records.expire(before, signal),
  }
}

/** Points kept per user by an id, with the time they were planned at (`user\0id` → `{point, planned_at}`). */
function createPointRecords(db: Db, sublevel: string, options: { sync: boolean }) {
  const planned = db.sublevel<string, PlannedRecord>(sublevel, { valueEncoding: 'json' })
  const written = writeOptions(options.sync)

  return {
    async remember(user: string, points: ReadonlyArray<readonly [id: string, point: string]>, at: string): Promise<void> {
      if (points.length === 0) return
      await planned.batch(
        points.map(([id, point]) => ({ type: 'put' as const, key: key(user, id), value: { point, planned_at: at } })),
        written as never,
      )
    },

    async of(user: string, ids: readonly string[]): Promise<Array<string | undefined>> {
      if (ids.length === 0) return []
      return (await planned.getMany(ids.map((id) => key(user, id)))).map((r) => r?.point)
    },

    async drop(user: string, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return
      await planned.batch(
        ids.map((id) => ({ type: 'del' as const, key: key(user, id) })),
        written as never,
      )
    },

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
