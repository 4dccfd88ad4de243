import type { AbstractLevel, AbstractSublevel } from 'abstract-level'
import type { Observation } from '../domain/observation'
import type { BatchOp } from './core-tier'
import { archivalKey, key, prefixRange, SEPARATOR } from './keys'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>
type Archival = AbstractSublevel<Db, string | Buffer | Uint8Array, string, Observation>

/** How many observations one atomic write of the decay scan takes out of recall. */
export const RECALL_EXPIRY_BATCH = 500

/** An observation's key in the expiry index (`timestamp\0user\0point\0id`): by time first. */
function expiryKeyOf(o: Pick<Observation, 'user' | 'point' | 'timestamp' | 'id'>): string {
  return key(o.timestamp, o.user, o.point, o.id)
}

/** The recall (and archival) key an expiry key stands for. */
function recallKeyOf(expiryKey: string): string {
  const [timestamp, user, point, id] = expiryKey.split(SEPARATOR) as [string, string, string, string]
  return archivalKey({ user, point, timestamp, id })
}

/**
 * The recall tier (R-MEM-1, R-MEM-3): the raw observations of the last TTL days, newest first per
 * point. Layout (sublevels):
 * - `recall`: `user\0point\0timestamp\0id` → '': the observation is archival's, under the same
 *   key, and is read from there. (Entries written before the seventh session hold a copy of it as
 *   their value, which is read as it is.) A copy doubled the bytes an observation writes, and
 *   LevelDB rewrites every byte many times over as it compacts (bench/HISTORY.md).
 * - `recall-expiry`: `timestamp\0user\0point\0id` → '' (the recall key, in older entries), so
 *   that the decay scan finds what has expired by a range read instead of a scan of everything.
 * An observation enters recall in the batch that appends it to archival and leaves it at the
 * first decay scan after it is older than the TTL; archival keeps it.
 */
export function createRecallTier(db: Db, archival: Archival) {
  const recall = db.sublevel<string, string>('recall', { valueEncoding: 'utf8' })
  const expiry = db.sublevel<string, string>('recall-expiry', { valueEncoding: 'utf8' })

  return {
    /** The writes that put stored observations in recall, for the batch that appends them to archival. */
    putOps(observations: readonly Observation[]): BatchOp[] {
      return observations.flatMap((o) => [
        { type: 'put' as const, sublevel: recall, key: archivalKey(o), value: '' },
        { type: 'put' as const, sublevel: expiry, key: expiryKeyOf(o), value: '' },
      ])
    },

    /** The observations at a point still in recall, newest first. */
    async at(user: string, point: string): Promise<Observation[]> {
      const entries = await recall.iterator({ ...prefixRange(user, point), reverse: true }).all()
      const named = entries.filter(([, value]) => value === '').map(([k]) => k)
      const found = new Map(named.length === 0 ? [] : (await archival.getMany(named)).map((o, i) => [named[i] as string, o]))
      // An entry whose observation archival no longer holds (none should) is left out.
      return entries
        .map(([k, value]) => (value === '' ? found.get(k) : (JSON.parse(value) as Observation)))
        .filter((o): o is Observation => o !== undefined)
    },

    /**
     * Takes every observation made before `before` out of recall, RECALL_EXPIRY_BATCH at a time,
     * each batch one atomic write; returns how many left. Run again after a crash, it takes what
     * is left: nothing is counted twice, and archival and core are not touched.
     */
    async expire(before: Date, signal?: AbortSignal): Promise<number> {
      const bound = before.toISOString()
      let expired = 0
      // Each batch reads on from the last key taken, not from the start: a read from the start
      // would step over every deletion made so far (LevelDB keeps them until compaction), which
      // makes a scan of n expired observations cost n²/RECALL_EXPIRY_BATCH. An old observation
      // recorded behind the cursor while the scan runs is left for the next scan.
      let after: string | undefined
      for (;;) {
        signal?.throwIfAborted()
        const range = after === undefined ? { lt: bound } : { gt: after, lt: bound }
        const batch = await expiry.iterator({ ...range, limit: RECALL_EXPIRY_BATCH }).all()
        if (batch.length === 0) return expired
        after = batch[batch.length - 1]?.[0]
        const ops: BatchOp[] = batch.flatMap(([expiryKey, recallKey]) => [
          { type: 'del' as const, sublevel: expiry, key: expiryKey },
          { type: 'del' as const, sublevel: recall, key: recallKey === '' ? recallKeyOf(expiryKey) : recallKey },
        ])
        await db.batch(ops as never)
        expired += batch.length
      }
    },
  }
}
