import type { Cell, CellKey } from '../domain/aggregate'

/** A point held decoded in memory: its head and the cells read so far. */
export interface HotPoint<Head> {
  head: Head
  cells: Map<CellKey, Cell>
}

/**
 * The decoded aggregates of the points read most recently, at most `limit` cells in all, least
 * recently read out first: a recommendation at a hot point reads nothing from the store and decodes
 * nothing. Only this process writes the store. A write to a point drops the point when it starts
 * (`writing`) and again when it is done or failed (`written`), and no entry of the point is kept
 * in between: a read that took its snapshot before the write landed must not leave an entry that
 * a later read would complete with cells read after it. A read that raced any write keeps nothing
 * (`keep` is given the `writes` count from before the read). `touched` is told of each write's
 * start and end, with the point's key (or the prefix, `prefix` true), for what its caller keeps
 * of points beside these entries.
 */
export function createHotPoints<Head>(limit: number, touched: (key: string, prefix: boolean) => void = () => {}) {
  const entries = new Map<string, HotPoint<Head>>()
  // Writes in flight per point, and per prefix of points.
  const inFlight = new Map<string, number>()
  const prefixesInFlight = new Map<string, number>()
  let cells = 0
  let writes = 0

  function beingWritten(pk: string): boolean {
    if (inFlight.has(pk)) return true
    for (const prefix of prefixesInFlight.keys()) if (pk.startsWith(prefix)) return true
    return false
  }

  function drop(pk: string): void {
    const entry = entries.get(pk)
    if (entry === undefined) return
    cells -= entry.cells.size
    entries.delete(pk)
  }

  function dropPrefix(prefix: string): void {
    for (const pk of [...entries.keys()]) if (pk.startsWith(prefix)) drop(pk)
  }

  /**
   * A write starts: what it touches is dropped, and nothing of it is kept until it ends. `touched`
   * is told, that it may drop what it keeps of the point (or of the points of the prefix) itself.
   */
  function begin(writing: Map<string, number>, key: string, dropTouched: () => void): void {
    writes++
    dropTouched()
    touched(key, writing === prefixesInFlight)
    writing.set(key, (writing.get(key) ?? 0) + 1)
  }

  /** A write ends (done or failed): what it touched is dropped again. */
  function end(writing: Map<string, number>, key: string, dropTouched: () => void): void {
    writes++
    dropTouched()
    touched(key, writing === prefixesInFlight)
    const left = (writing.get(key) ?? 1) - 1
    if (left > 0) writing.set(key, left)
    else writing.delete(key)
  }

  function evict(): void {
    for (const pk of entries.keys()) {
      if (cells <= limit) return
      drop(pk)
    }
  }

  return {
    /** The entry of a point, marked as the most recently read. */
    get(pk: string): HotPoint<Head> | undefined {
      const entry = entries.get(pk)
      if (entry !== undefined) {
        entries.delete(pk)
        entries.set(pk, entry)
      }
      return entry
    },

    /** Whether `entry` is still the point's entry: no write touched the point since it was read. */
    holds(pk: string, entry: HotPoint<Head>): boolean {
      return entries.get(pk) === entry
    },

    /** Whether a write to the point (or to a prefix of it) is under way. */
    beingWritten,

    /** How many writes have started: a read that saw this number before and after raced none. */
    get writes(): number {
      return writes
    },

    /** Before a write to the point starts. */
    writing(pk: string): void {
      begin(inFlight, pk, () => drop(pk))
    },

    /** Once a write to the point is done, or failed; after `writing`, always. */
    written(pk: string): void {
      end(inFlight, pk, () => drop(pk))
    },

    /** A write to the point, between `writing` and `written`. */
    async around<T>(pk: string, write: () => Promise<T>): Promise<T> {
      begin(inFlight, pk, () => drop(pk))
      try {
        return await write()
      } finally {
        end(inFlight, pk, () => drop(pk))
      }
    },

    /** Before a write to every point whose key starts with `prefix` (a user forgotten). */
    writingPrefix(prefix: string): void {
      begin(prefixesInFlight, prefix, () => dropPrefix(prefix))
    },

    /** Once that write is done, or failed; after `writingPrefix`, always. */
    writtenPrefix(prefix: string): void {
      end(prefixesInFlight, prefix, () => dropPrefix(prefix))
    },

    /** Keeps what a read found, unless a write started after `writesBefore`. */
    keep(pk: string, writesBefore: number, head: Head, found: ReadonlyMap<CellKey, Cell>): void {
      if (writes !== writesBefore || beingWritten(pk)) return
      drop(pk)
      entries.set(pk, { head, cells: new Map(found) })
      cells += found.size
      evict()
    },

    /** Adds cells read for a hot point that no write touched meanwhile (`holds` was checked). */
    grow(pk: string, entry: HotPoint<Head>, found: ReadonlyMap<CellKey, Cell>): void {
      if (entries.get(pk) !== entry) return
      for (const [key, cell] of found) {
        if (!entry.cells.has(key)) cells++
        entry.cells.set(key, cell)
      }
      evict()
    },
  }
}
