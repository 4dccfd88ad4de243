import type { AbstractLevel } from 'abstract-level'
import { createChangeCounter } from '../memory/change-counter'
import { key, prefixRange } from '../memory/keys'
import { createReadCache } from '../memory/read-cache'
import { createWriteQueue } from '../memory/write-queue'
import { writeOptions } from '../memory/write-options'
import type { DecisionEvent, DecisionRecord } from './decision'
import { PULSE_SOURCES, type DecisionStore, type DecisionTransaction, type Pulse } from './store'

type Db = AbstractLevel<string | Buffer | Uint8Array, string, string>

/** Sequence numbers as fixed-width text, so that events sort by number under their decision. */
function seqKey(seq: number): string {
  return seq.toString().padStart(10, '0')
}

/**
 * The decision store on any abstract-level database, beside the observations in sublevels of its
 * own:
 * - `decisions`: key → decision.
 * - `decision-events`: `key\0seq` → event. Append-only: an event is written once, never changed.
 * - `decision-points`: `point\0key` → '' (which decisions bind a point).
 * - `decision-pulses`: key → pulse counts (R-CON-4).
 * The database is opened here if it is not open yet; closing it is the caller's business.
 */
export async function createLevelDecisionStore(db: Db, options: { sync?: boolean } = {}): Promise<DecisionStore> {
  const sync = options.sync ?? true
  await db.open()
  const decisions = db.sublevel<string, DecisionRecord>('decisions', { valueEncoding: 'json' })
  const events = db.sublevel<string, DecisionEvent>('decision-events', { valueEncoding: 'json' })
  const points = db.sublevel<string, string>('decision-points', { valueEncoding: 'utf8' })
  const pulses = db.sublevel<string, Pulse>('decision-pulses', { valueEncoding: 'json' })
  const enqueue = createWriteQueue()
  // Every recommendation asks which decisions bind its point (most often none): kept in memory.
  const keysAtPoint = createReadCache<string[]>(10_000)
  // Commits started and ended (see DecisionStore.changes): one count for all decisions.
  const changes = createChangeCounter(1)

  async function commit(records: Map<string, DecisionRecord>, appended: readonly DecisionEvent[]) {
    const ops: Array<{ type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown }> = []
    const keys = [...records.keys()]
    const previous = await decisions.getMany(keys)
    const touched = new Set<string>()
    keys.forEach((k, i) => {
      const record = records.get(k) as DecisionRecord
      const before = new Set(previous[i]?.scope.points ?? [])
      const after = new Set(record.scope.points)
      for (const p of [...before, ...after]) touched.add(p)
      for (const p of before) if (!after.has(p)) ops.push({ type: 'del', sublevel: points, key: key(p, k) })
      for (const p of after) if (!before.has(p)) ops.push({ type: 'put', sublevel: points, key: key(p, k), value: '' })
      ops.push({ type: 'put', sublevel: decisions, key: k, value: record })
    })
    const eventKeys = appended.map((e) => key(e.key, seqKey(e.seq)))
    const existing = await events.getMany(eventKeys)
    const seen = new Set<string>()
    eventKeys.forEach((k, i) => {
      // A programmer error, not an input error: the history is append-only.
      if (existing[i] !== undefined || seen.has(k)) {
        throw new Error(`event ${k.replace('\u0000', '#')} already exists: the history is append-only`)
      }
      seen.add(k)
    })
    appended.forEach((e, i) => ops.push({ type: 'put', sublevel: events, key: eventKeys[i] as string, value: e }))
    if (ops.length === 0) return
    await changes.aroundAll(async () => {
      try {
        await db.batch(ops as never, writeOptions(sync) as never)
      } finally {
        keysAtPoint.written(touched)
      }
    })
  }

  return {
    transact(work) {
      return enqueue(async () => {
        const puts = new Map<string, DecisionRecord>()
        const appended: DecisionEvent[] = []
        const tx: DecisionTransaction = {
          async get(k) {
            const own = puts.get(k)
            return own === undefined ? decisions.get(k) : structuredClone(own)
          },
          async keys() {
            const all = new Set(puts.keys())
            for await (const k of decisions.keys()) all.add(k)
            return [...all].sort()
          },
          put(record) {
            puts.set(record.key, structuredClone(record))
          },
          append(event) {
            appended.push(structuredClone(event))
          },
        }
        const result = await work(tx)
        await commit(puts, appended)
        return result
      })
    },

    async get(k) {
      return decisions.get(k)
    },

    changes() {
      return changes.of('')
    },

    async list(filter = {}) {
      let records: DecisionRecord[]
      if (filter.point !== undefined) {
        const range = prefixRange(filter.point)
        const keys = await keysAtPoint.read(filter.point, async () => {
          const found: string[] = []
          for await (const k of points.keys(range)) found.push(k.slice(range.gte.length))
          return found
        })
        records = keys.length === 0 ? [] : (await decisions.getMany(keys)).filter((r): r is DecisionRecord => r !== undefined)
      } else {
        records = []
        for await (const r of decisions.values()) records.push(r)
      }
      return filter.status === undefined ? records : records.filter((r) => r.status === filter.status)
    },

    async events(k) {
      const out: DecisionEvent[] = []
      for await (const e of events.values(prefixRange(k))) out.push(e)
      return out
    },

    pulse(keys, source, at) {
      return enqueue(async () => {
        const unique = [...new Set(keys)]
        if (unique.length === 0) return
        const current = await pulses.getMany(unique)
        const ops = unique.map((k, i) => {
          const before = current[i]
          const by = before?.by ?? (Object.fromEntries(PULSE_SOURCES.map((s) => [s, 0])) as Pulse['by'])
          const value: Pulse = {
            key: k,
            count: (before?.count ?? 0) + 1,
            by: { ...by, [source]: by[source] + 1 },
            first_at: before?.first_at ?? at,
            last_at: before === undefined || at > before.last_at ? at : before.last_at,
          }
          return { type: 'put' as const, key: k, value }
        })
        await pulses.batch(ops, writeOptions(sync) as never)
      })
    },

    async pulses() {
      const out: Pulse[] = []
      for await (const p of pulses.values()) out.push(p)
      return out
    },
  }
}
