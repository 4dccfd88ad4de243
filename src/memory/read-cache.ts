/**
 * A bounded in-process cache of records that only this process writes (as the store's own
 * sublevels are): reads that hit it cost no read of the store. Every write of a cached key must
 * call `written` once the write is done; a read whose load raced any write is answered but not
 * kept, so the cache never holds a value older than the store's.
 */
export function createReadCache<V>(limit: number) {
  const entries = new Map<string, V>()
  let writes = 0

  return {
    /** The value of `key`: from the cache, else loaded (and kept when no write ran meanwhile). */
    async read(key: string, load: () => Promise<V>): Promise<V> {
      if (entries.has(key)) return entries.get(key) as V
      const before = writes
      const value = await load()
      if (writes === before) {
        // Oldest first out: enough to keep the cache bounded; hot keys come back on their next read.
        if (entries.size >= limit) entries.delete(entries.keys().next().value as string)
        entries.set(key, value)
      }
      return value
    },

    /** After a write of these keys (or of those `matches` picks) is done. */
    written(keys: Iterable<string>, matches?: (key: string) => boolean): void {
      writes++
      for (const k of keys) entries.delete(k)
      if (matches !== undefined) for (const k of [...entries.keys()]) if (matches(k)) entries.delete(k)
    },
  }
}
