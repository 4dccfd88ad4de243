/**
 * How many writes have touched each user, for answers kept in memory (answer-cache.ts): an answer
 * computed while a user's count stayed the same is still the store's answer. Users share a fixed
 * number of slots (by hash), so memory stays bounded however many users there are; two users in
 * one slot only drop each other's answers more often, never keep a stale one.
 *
 * A write calls `touch` (or `touchAll`) before it starts and again once it is done: a read that
 * began before the write and ended after it sees the count move either way.
 */
export function createChangeCounter(slots = 4096) {
  const counts = new Uint32Array(slots)
  let all = 0

  function slotOf(user: string): number {
    // FNV-1a over the UTF-16 code units.
    let h = 0x811c9dc5
    for (let i = 0; i < user.length; i++) {
      h ^= user.charCodeAt(i)
      h = Math.imul(h, 0x01000193)
    }
    return (h >>> 0) % slots
  }

  function touch(users: Iterable<string>): void {
    for (const slot of new Set([...users].map(slotOf))) counts[slot] = (counts[slot] as number) + 1
  }

  return {
    /** Changes that may touch the user's answers so far: theirs and everyone's. */
    of(user: string): number {
      return (counts[slotOf(user)] as number) + all
    },
    touch,
    /** A write that may touch anyone's answers (the decay scan). */
    touchAll(): void {
      all++
    },

    /** Runs a write to the users' data, counted before it starts and once it is done (or failed). */
    async around<T>(users: Iterable<string>, write: () => Promise<T>): Promise<T> {
      const touched = [...users]
      touch(touched)
      try {
        return await write()
      } finally {
        touch(touched)
      }
    },

    /** Runs a write that may touch anyone's answers, counted before and after it. */
    async aroundAll<T>(write: () => Promise<T>): Promise<T> {
      all++
      try {
        return await write()
      } finally {
        all++
      }
    },
  }
}

export type ChangeCounter = ReturnType<typeof createChangeCounter>
