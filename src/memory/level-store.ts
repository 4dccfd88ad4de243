import type { AbstractLevel } from 'abstract-level'
import type { Observation } from '../domain/observation'
import { key, prefixRange } from './keys'
import { belongsTo, storedEntry } from './ownership'
import type { MemoryStore, SessionRecord, StoreResult } from './store'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>

/** The sublevels this store reads through typed methods (or that index them); export lists the rest raw. */
const TYPED_SUBLEVELS = new Set(['archival', 'dedupe', 'sessions', 'session-owners'])

/** Runs async work one piece at a time, so that check-then-write stays atomic in this process. */
function createWriteQueue() {
  let tail: Promise<unknown> = Promise.resolve()
  return function enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = tail.then(work, work)
    tail = run.catch(() => undefined)
    return run
  }
}

/**
 * The store on any abstract-level database. Layout (sublevels):
 * - `archival`: `user\0point\0timestamp\0id` → observation. Append-only: the source of truth
 *   from which every aggregate can be rebuilt.
 * - `dedupe`: `user\0decision_id` → observation id (R-CAP-2).
 * - `sessions`: `user\0session_id` → session; `session-owners`: `session_id\0user` → ''.
 */
export async function createLevelStore(db: Db, options: { sync?: boolean } = {}): Promise<MemoryStore> {
  const sync = options.sync ?? true
  await db.open()
  const archival = db.sublevel<string, Observation>('archival', { valueEncoding: 'json' })
  const dedupe = db.sublevel<string, string>('dedupe', { valueEncoding: 'utf8' })
  const sessions = db.sublevel<string, SessionRecord>('sessions', { valueEncoding: 'json' })
  const owners = db.sublevel<string, string>('session-owners', { valueEncoding: 'utf8' })
  const enqueue = createWriteQueue()

  /** A raw scan of the whole database: every entry of the user, in any sublevel (see ownership.ts). */
  async function* entriesOf(user: string): AsyncGenerator<{ rawKey: string; rawValue: string }> {
    for await (const [rawKey, rawValue] of db.iterator({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) {
      if (belongsTo(rawKey as string, rawValue as string, user)) yield { rawKey: rawKey as string, rawValue: rawValue as string }
    }
  }

  function archivalKey(o: Observation): string {
    return key(o.user, o.point, o.timestamp, o.id)
  }

  return {
    addObservations(observations, newSessions) {
      return enqueue(async () => {
        const stored: Observation[] = []
        const duplicates: string[] = []
        const seen = new Set<string>()
        // Puts into several sublevels, committed as one atomic batch.
        const ops: Array<{ type: 'put'; sublevel: unknown; key: string; value: unknown }> = []
        const dedupeKeys = observations.map((o) => (o.decision_id === null ? null : key(o.user, o.decision_id)))
        const existing = await dedupe.getMany(dedupeKeys.filter((k): k is string => k !== null))
        const already = new Set(dedupeKeys.filter((k): k is string => k !== null).filter((_, i) => existing[i] !== undefined))
        observations.forEach((o, i) => {
          const dk = dedupeKeys[i]
          if (dk !== null && dk !== undefined) {
            if (already.has(dk) || seen.has(dk)) {
              duplicates.push(o.decision_id as string)
              return
            }
            seen.add(dk)
            ops.push({ type: 'put', sublevel: dedupe, key: dk, value: o.id })
          }
          ops.push({ type: 'put', sublevel: archival, key: archivalKey(o), value: o })
          stored.push(o)
        })
        const sessionKeys = newSessions.map((s) => key(s.user, s.session_id))
        const present = await sessions.getMany(sessionKeys)
        newSessions.forEach((s, i) => {
          if (present[i] !== undefined) return
          ops.push({ type: 'put', sublevel: sessions, key: sessionKeys[i] as string, value: s })
          ops.push({ type: 'put', sublevel: owners, key: key(s.session_id, s.user), value: '' })
        })
        if (ops.length > 0) await db.batch(ops as never, { sync } as never)
        return { stored, duplicates } satisfies StoreResult
      })
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

    async *observationsOf(user) {
      yield* archival.values(prefixRange(user))
    },

    startSession(session) {
      return enqueue(async () => {
        const k = key(session.user, session.session_id)
        const existing = await sessions.get(k)
        if (existing !== undefined) return { session: existing, created: false }
        await db.batch(
          [
            { type: 'put', sublevel: sessions, key: k, value: session },
            { type: 'put', sublevel: owners, key: key(session.session_id, session.user), value: '' },
          ] as never,
          { sync } as never,
        )
        return { session, created: true }
      })
    },

    async getSession(user, sessionId) {
      return sessions.get(key(user, sessionId))
    },

    async sessionOwners(sessionId) {
      const users: string[] = []
      const range = prefixRange(sessionId)
      for await (const k of owners.keys(range)) users.push(k.slice(range.gte.length))
      return users
    },

    setPersonalization(user, sessionId, enabled) {
      return enqueue(async () => {
        const k = key(user, sessionId)
        const existing = await sessions.get(k)
        if (existing === undefined) return undefined
        const updated = { ...existing, personalization: enabled }
        await sessions.put(k, updated, { sync } as never)
        return updated
      })
    },

    async countSessions(user, asOf) {
      let count = 0
      const limit = asOf?.toISOString()
      for await (const s of sessions.values(prefixRange(user))) {
        if (limit === undefined || s.started_at <= limit) count++
      }
      return count
    },

    async *sessionsOf(user) {
      yield* sessions.values(prefixRange(user))
    },

    async *untypedEntriesOf(user) {
      for await (const { rawKey, rawValue } of entriesOf(user)) {
        const entry = storedEntry(rawKey, rawValue)
        if (!TYPED_SUBLEVELS.has(entry.sublevel)) yield entry
      }
    },

    forgetUser(user) {
      // In the write queue: no observation of this store lands between the scan and the delete.
      return enqueue(async () => {
        const ops: Array<{ type: 'del'; key: string }> = []
        for await (const { rawKey } of entriesOf(user)) ops.push({ type: 'del', key: rawKey })
        if (ops.length > 0) await db.batch(ops, { sync } as never)
        return { deleted: ops.length }
      })
    },

    async close() {
      await db.close()
    },
  }
}
