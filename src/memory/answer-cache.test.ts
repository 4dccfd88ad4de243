import { describe, expect, it } from 'vitest'
import { createAnswerCache } from './answer-cache'

describe('answer cache', () => {
  it('answers what was kept at the same version within its time, and nothing otherwise', () => {
    const cache = createAnswerCache<string>({ entries: 10, ttlMs: 60_000 })
    cache.set('q', '1/0', 1_000, 'answer')
    expect(cache.get('q', '1/0', 1_000)).toBe('answer')
    expect(cache.get('q', '1/0', 60_999)).toBe('answer')
    expect(cache.get('other', '1/0', 1_000)).toBeUndefined()
    expect(cache.get('q', '2/0', 1_000)).toBeUndefined()
    // A version that moved drops the answer for good, even if it came back to the old number.
    expect(cache.get('q', '1/0', 1_000)).toBeUndefined()
  })

  it('drops an answer once its time is up, or when the clock is before it was computed', () => {
    const cache = createAnswerCache<string>({ entries: 10, ttlMs: 60_000 })
    cache.set('q', 'v', 1_000, 'answer')
    expect(cache.get('q', 'v', 61_000)).toBeUndefined()
    cache.set('q', 'v', 1_000, 'answer')
    expect(cache.get('q', 'v', 999)).toBeUndefined()
  })

  it('holds at most `entries`, the least recently used out first', () => {
    const cache = createAnswerCache<number>({ entries: 2, ttlMs: 60_000 })
    cache.set('a', 'v', 0, 1)
    cache.set('b', 'v', 0, 2)
    expect(cache.get('a', 'v', 0)).toBe(1)
    cache.set('c', 'v', 0, 3)
    expect(cache.size).toBe(2)
    expect(cache.get('b', 'v', 0)).toBeUndefined()
    expect(cache.get('a', 'v', 0)).toBe(1)
    expect(cache.get('c', 'v', 0)).toBe(3)
  })

  it('keeps nothing when its time or its size is 0', () => {
    for (const options of [{ entries: 0, ttlMs: 60_000 }, { entries: 10, ttlMs: 0 }]) {
      const cache = createAnswerCache<string>(options)
      cache.set('q', 'v', 0, 'answer')
      expect(cache.get('q', 'v', 0)).toBeUndefined()
    }
  })
})
