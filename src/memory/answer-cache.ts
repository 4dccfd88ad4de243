/**
 * Answers computed recently, for the callers that ask the same question again and again (an
 * orchestrator before every question, the plan and then the hook for the same questions). An
 * answer is served again only while nothing it was computed from has changed (`version`, see
 * change-counter.ts) and for at most `ttlMs` after it was computed, so that what moves with time
 * alone (decay, the windows of the change test) never drifts for longer than that.
 *
 * Bounded by size, not only by count: each answer is charged `bytes` (its key and its JSON, which
 * grow with what the request sent), the least recently used go first once `maxBytes` is reached,
 * an answer over a sixteenth of the budget is not kept at all, and answers past their time are
 * dropped as new ones come in.
 */
export function createAnswerCache<V>(options: { maxBytes: number; ttlMs: number }) {
  const entries = new Map<string, { version: string; at: number; value: V; bytes: number }>()
  let total = 0

  function drop(key: string): void {
    const entry = entries.get(key)
    if (entry === undefined) return
    total -= entry.bytes
    entries.delete(key)
  }

  return {
    /** The answer kept for `key`, if it was computed at `version` no more than ttlMs before `now`. */
    get(key: string, version: string, now: number): { value: V; at: number } | undefined {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (entry.version !== version || now < entry.at || now - entry.at >= options.ttlMs) {
        drop(key)
        return undefined
      }
      entries.delete(key)
      entries.set(key, entry)
      return { value: entry.value, at: entry.at }
    },

    /** Keeps an answer computed at `at` from what the store held at `version` (read before the computation began). */
    set(key: string, version: string, at: number, value: V, bytes: number): void {
      drop(key)
      if (options.ttlMs <= 0 || bytes > options.maxBytes / 16) return
      // The least recently used first, and any past its time (they gather there).
      for (const [k, entry] of entries) {
        if (total + bytes <= options.maxBytes && at - entry.at < options.ttlMs) break
        drop(k)
      }
      entries.set(key, { version, at, value, bytes })
      total += bytes
    },

    get size(): number {
      return entries.size
    },

    /** What the answers kept are charged, in bytes. */
    get bytes(): number {
      return total
    },
  }
}
