import type { AbstractLevel, AbstractSublevel } from 'abstract-level'
import type { BatchOp } from './core-tier'
import { prefixRange } from './keys'
import { createReadCache } from './read-cache'
import type { SessionRecord } from './store'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>
type Sublevel<V> = AbstractSublevel<Db, string | Buffer | Uint8Array, string, V>

interface SessionCount {
  count: number
  /** The latest `started_at` counted. */
  latest: string
}

/**
 * How many sessions each user has (R-SES-2), kept beside the sessions (sublevel
 * `session-counts`: `user` → count) so that a recommendation reads one record for the user's
 * expertise instead of every session (R-MEM-8). Only a replay (`as_of` before the latest session
 * started) counts the sessions one by one.
 */
export function createSessionCounts(db: Db, sessions: Sublevel<SessionRecord>) {
  const counts = db.sublevel<string, SessionCount>('session-counts', { valueEncoding: 'json' })
  // Every recommendation reads its user's count: hot users' counts are kept in memory.
  const cache = createReadCache<SessionCount | undefined>(10_000)

  async function countFromSessions(user: string, asOf?: string): Promise<SessionCount> {
    let count = 0
    let latest = ''
    for await (const s of sessions.values(prefixRange(user))) {
      if (asOf !== undefined && s.started_at > asOf) continue
      count++
      if (s.started_at > latest) latest = s.started_at
    }
    return { count, latest }
  }

  return {
    /** The writes that count sessions about to be stored as new; inside the write queue. */
    async countOps(started: readonly SessionRecord[]): Promise<BatchOp[]> {
      const byUser = new Map<string, SessionRecord[]>()
      for (const s of started) byUser.set(s.user, [...(byUser.get(s.user) ?? []), s])
      const users = [...byUser.keys()]
      const known = await counts.getMany(users)
      const ops: BatchOp[] = []
      for (let i = 0; i < users.length; i++) {
        const user = users[i] as string
        // A store written before counts were kept counts its sessions once, here.
        const current = known[i] ?? (await countFromSessions(user))
        let { count, latest } = current
        for (const s of byUser.get(user) as SessionRecord[]) {
          count++
          if (s.started_at > latest) latest = s.started_at
        }
        ops.push({ type: 'put', sublevel: counts, key: user, value: { count, latest } })
      }
      return ops
    },

    /** After a write of the counts of these users is done (the batch of countOps, or a forget). */
    written(users: Iterable<string>): void {
      cache.written(users)
    },

    /** Distinct sessions of a user started up to `asOf` (all when not given). */
    async count(user: string, asOf?: Date): Promise<number> {
      const limit = asOf?.toISOString()
      const known = await cache.read(user, () => counts.get(user))
      if (known !== undefined && (limit === undefined || known.latest <= limit)) return known.count
      return (await countFromSessions(user, limit)).count
    },
  }
}
