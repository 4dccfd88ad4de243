import type { Cell, CellKey } from '../domain/aggregate'

/** A point held in memory: its head, the cells read so far as the store holds them, and some of them decoded. */
export interface HotPoint<Head> {
  head: Head
  /** Cells read so far, decoded (a subset of `texts`; empty once the decoded bound pushed it out). */
  cells: Map<CellKey, Cell>
  /** Every cell read so far as the store holds it, encoded (null: not in the store). */
  texts: ReadonlyMap<CellKey, string | null>
}

/** What the points held may take: decoded cells, and bytes charged for the encoded ones and the heads. */
export interface HotLimits {
  /** Decoded cells, in all. */
  cells: number
  /** Bytes, in all: each entry `entryBytes`, each encoded cell its length plus `cellBytes`. */
  bytes: number
  entryBytes: number
  cellBytes: number
}

/**
 * The aggregates of the points read most recently, as far as their reads went: the cells as the
 * store holds them, encoded, within `limits.bytes`, and the most recently read of them also decoded,
 * within `limits.cells` (least recently read out first, in each bound). A recommendation at a point
 * held reads nothing from the store, and decodes nothing when its cells are still decoded. Only this
 * process writes the store. A write to a point drops the point when it starts
 * (`writing`) and again when it is done or failed (`written`), and no entry of the point is kept
 * in between: a read that took its snapshot before the write landed must not leave an entry that
 * a later read would complete with cells read after it. A read that raced any write keeps nothing
 * (`keep` is given the `writes` count from before the read). `touched` is told of each write's
 * start and end, with the point's key (or the prefix, `prefix` true), for what its caller keeps
 * of points beside these entries.
 */
export function createHotPoints<Head>(limits: HotLimits, touched: (key: string, prefix: boolean) => void = () => {}) {
  // Both in the order of their last read, the least recent first: every entry, and those holding decoded cells.
  const entries = new Map<string, HotPoint<Head>>()
  const decoded = new Map<string, HotPoint<Head>>()
  // Writes in flight per point, and per prefix of points.
  const inFlight = new Map<string, number>()
  const prefixesInFlight = new Map<string, number>()
  let cells = 0
  let bytes = 0
  let writes = 0

  const charge = (text: string | null) => (text === null ? 0 : text.length) + limits.cellBytes

  function beingWritten(pk: string): boolean {
    if (inFlight.has(pk)) return true
    for (const prefix of prefixesInFlight.keys()) if (pk.startsWith(prefix)) return true
    return false
  }

  function drop(pk: string): void {
    const entry = entries.get(pk)
    if (entry === undefined) return
    cells -= entry.cells.size
    bytes -= limits.entryBytes
    for (const text of entry.texts.values()) bytes -= charge(text)
    entries.delete(pk)
    decoded.delete(pk)
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
    // A new map rather than cleared: a read in flight keeps the cells it was given.
    for (const [pk, entry] of decoded) {
      if (cells <= limits.cells) break
      cells -= entry.cells.size
      entry.cells = new Map()
      decoded.delete(pk)
    }
    for (const pk of entries.keys()) {
      if (bytes <= limits.bytes) return
      drop(pk)
    }
  }

  /** Adds what a read found to an entry; an encoded cell it already holds is the same (no write touched the point). */
  function add(pk: string, entry: HotPoint<Head>, found: ReadonlyMap<CellKey, Cell>, texts: ReadonlyMap<CellKey, string | null>): void {
    const held = entry.texts as Map<CellKey, string | null>
    for (const [key, text] of texts) {
      if (held.has(key)) continue
      held.set(key, text)
      bytes += charge(text)
    }
    for (const [key, cell] of found) {
      if (!entry.cells.has(key)) cells++
      entry.cells.set(key, cell)
    }
    decoded.delete(pk)
    if (entry.cells.size > 0) decoded.set(pk, entry)
  }

  return {
    /** The entry of a point, marked as the most recently read. */
    get(pk: string): HotPoint<Head> | undefined {
      const entry = entries.get(pk)
      if (entry !== undefined) {
        entries.delete(pk)
        entries.set(pk, entry)
        if (decoded.delete(pk)) decoded.set(pk, entry)
      }
      return entry
    },

    /** Whether `entry` is still the point's entry: no write touched the point since it was read. */
    holds(pk: string, entry: HotPoint<Head>): boolean {
      return entries.get(pk) === entry
    },

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

    /**
     * Keeps what a read found, unless a write started after `writesBefore`: the cells decoded
     * (`found`, each of them in `texts`) and as the store holds them (`texts`).
     */
    keep(pk: string, writesBefore: number, head: Head, found: ReadonlyMap<CellKey, Cell>, texts: ReadonlyMap<CellKey, string | null>): void {
      if (writes !== writesBefore || beingWritten(pk)) return
      drop(pk)
      const entry: HotPoint<Head> = { head, cells: new Map(), texts: new Map() }
      entries.set(pk, entry)
      bytes += limits.entryBytes
      add(pk, entry, found, texts)
      evict()
    },

    /** Adds cells read for a hot point that no write touched meanwhile (`holds` was checked). */
    grow(pk: string, entry: HotPoint<Head>, found: ReadonlyMap<CellKey, Cell>, texts: ReadonlyMap<CellKey, string | null>): void {
      if (entries.get(pk) !== entry) return
      add(pk, entry, found, texts)
      evict()
    },

    /** What the entries hold: how many, their decoded cells, and the bytes charged. */
    get held(): { points: number; cells: number; bytes: number } {
      return { points: entries.size, cells, bytes }
    },
  }
}
