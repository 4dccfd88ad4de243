import { MemoryLevel } from 'memory-level'

type Iterator = { _next?: Function; _nextv?: Function; _all?: Function }
type Internals = Record<string, (...args: any[]) => any>

/**
 * memory-level that counts the records read from it, and that can be told to fail a coming
 * batch write: for tests of cost (R-MEM-8) and of crash safety (R-MEM-7). Every sublevel reads
 * and writes through the root database, so this sees everything.
 */
export class InstrumentedLevel extends MemoryLevel<string, string> {
  /** Records read: one per key of get/getMany, one per entry an iterator yields. */
  reads = 0
  /** The same, per top sublevel (`archival`, `core-cells`, ...; '' for keys of the root). */
  readsIn = new Map<string, number>()
  /** Batch writes done since creation. */
  batches = 0
  private failAt: number | null = null

  constructor() {
    super()
    const parent = Object.getPrototypeOf(InstrumentedLevel.prototype) as Internals
    const self = this as unknown as Internals
    self._get = async (key: unknown, options: unknown) => {
      this.count(key, 1)
      return parent._get!.call(this, key, options)
    }
    self._getMany = async (keys: unknown[], options: unknown) => {
      for (const key of keys) this.count(key, 1)
      return parent._getMany!.call(this, keys, options)
    }
    for (const name of ['_iterator', '_keys', '_values']) {
      self[name] = (options: Record<string, unknown>) => {
        // A sublevel's iterator is bounded by its prefix, which names it.
        const bound = options.gte ?? options.gt ?? options.lte ?? options.lt
        return this.counted(parent[name]!.call(this, options) as Iterator, bound)
      }
    }
    self._batch = async (operations: unknown, options: unknown) => {
      this.batches++
      if (this.failAt !== null && this.batches >= this.failAt) {
        this.failAt = null
        throw new Error('injected fault: batch write failed')
      }
      return parent._batch!.call(this, operations, options)
    }
  }

  /** Makes the nth batch write from now fail (1: the next one), once. */
  failBatch(nth: number): void {
    this.failAt = this.batches + nth
  }

  private count(key: unknown, n: number): void {
    this.reads += n
    const text = typeof key === 'string' ? key : Buffer.from(key as Uint8Array).toString('utf8')
    const sublevel = /^!([^!]*)!/.exec(text)?.[1] ?? ''
    this.readsIn.set(sublevel, (this.readsIn.get(sublevel) ?? 0) + n)
  }

  private counted(iterator: Iterator, bound: unknown): Iterator {
    const next = iterator._next
    const nextv = iterator._nextv
    const all = iterator._all
    if (next !== undefined) {
      iterator._next = async (...args: unknown[]) => {
        const entry = await next.apply(iterator, args)
        if (entry !== undefined) this.count(bound ?? '', 1)
        return entry
      }
    }
    if (nextv !== undefined) {
      iterator._nextv = async (...args: unknown[]) => {
        const entries = (await nextv.apply(iterator, args)) as unknown[]
        this.count(bound ?? '', entries.length)
        return entries
      }
    }
    if (all !== undefined) {
      iterator._all = async (...args: unknown[]) => {
        const entries = (await all.apply(iterator, args)) as unknown[]
        this.count(bound ?? '', entries.length)
        return entries
      }
    }
    return iterator
  }
}
