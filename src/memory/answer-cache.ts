/**
 * Answers computed recently, for the callers that ask the same question again and again (an
 * orchestrator before every question, the plan and then the hook for the same questions). An
 * answer is served again only while nothing it was computed from has changed (`version`, see
 * change-counter.ts) and for at most `ttlMs` after it was computed, so that what moves with time
 * alone (decay, the windows of the change test) is never older than that. Bounded: the least
 * recently used answer goes first.
 */
export function createAnswerCache<V>(options: { entries: number; ttlMs: number }) {
  const entries = new Map<string, { version: string; at: number; value: V }>()

  return {
    /** The answer kept for `key`, if it was computed at `version` no more than ttlMs before `now`. */
    get(key: string, version: string, now: number): V | undefined {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (entry.version !== version || now < entry.at || now - entry.at >= options.ttlMs) {
        entries.delete(key)
        return undefined
      }
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },

    /** Keeps an answer computed at `at` from what the store held at `version` (read before the computation began). */
    set(key: string, version: string, at: number, value: V): void {
      if (options.entries <= 0 || options.ttlMs <= 0) return
      entries.delete(key)
      entries.set(key, { version, at, value })
      if (entries.size > options.entries) entries.delete(entries.keys().next().value as string)
    },

    get size(): number {
      return entries.size
    },
  }
}
