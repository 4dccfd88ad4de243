import { describe, expect, it } from 'vitest'
import { createAnswerCache } from './answer-cache'

describe('answer cache', () => {
  it('answers what was kept at the same version within its time, and nothing otherwise', () => {
    const cache = createAnswerCache<string>({ maxBytes: 16_000, ttlMs: 60_000 })
    cache.set('q', '1/0', 1_000, 'answer', 100)
    expect(cache.get('q', '1/0', 1_000)).toEqual({ value: 'answer', at: 1_000 })
    expect(cache.get('q', '1/0', 60_999)?.value).toBe('answer')
    expect(cache.get('other', '1/0', 1_000)).toBeUndefined()
    expect(cache.get('q', '2/0', 1_000)).toBeUndefined()
    // A version that moved drops the answer for good, even if it came back to the old number.
    expect(cache.get('q', '1/0', 1_000)).toBeUndefined()
  })

  it('drops an answer once its time is up, or when the clock is before it was computed', () => {
    const cache = createAnswerCache<string>({ maxBytes: 16_000, ttlMs: 60_000 })
    cache.set('q', 'v', 1_000, 'answer', 100)
    expect(cache.get('q', 'v', 61_000)).toBeUndefined()
    cache.set('q', 'v', 1_000, 'answer', 100)
    expect(cache.get('q', 'v', 999)).toBeUndefined()
    expect(cache.bytes).toBe(0)
  })

  it('holds at most maxBytes, the least recently used out first', () => {
    const cache = createAnswerCache<number>({ maxBytes: 1_600, ttlMs: 60_000 })
    cache.set('a', 'v', 0, 1, 100)
    cache.set('b', 'v', 0, 2, 100)
    expect(cache.get('a', 'v', 0)?.value).toBe(1)
    for (let i = 0; i < 15; i++) cache.set(`x${i}`, 'v', 0, i, 100)
    expect(cache.bytes).toBeLessThanOrEqual(1_600)
    expect(cache.get('b', 'v', 0)).toBeUndefined()
    expect(cache.get('x14', 'v', 0)?.value).toBe(14)
  })

  it('keeps no answer bigger than a sixteenth of its budget: one request cannot take it all', () => {
    const cache = createAnswerCache<string>({ maxBytes: 1_600, ttlMs: 60_000 })
    cache.set('small', 'v', 0, 'kept', 100)
    cache.set('big', 'v', 0, 'huge', 101)
    expect(cache.get('big', 'v', 0)).toBeUndefined()
    expect(cache.get('small', 'v', 0)?.value).toBe('kept')
  })

  it('drops the answers past their time as new ones come in, whatever room is left', () => {
    const cache = createAnswerCache<string>({ maxBytes: 16_000, ttlMs: 60_000 })
    for (let i = 0; i < 10; i++) cache.set(`old${i}`, 'v', 0, 'old', 100)
    cache.set('new', 'v', 60_000, 'new', 100)
    expect(cache.size).toBe(1)
    expect(cache.bytes).toBe(100)
  })

  it('keeps nothing when its time is 0', () => {
    const cache = createAnswerCache<string>({ maxBytes: 16_000, ttlMs: 0 })
    cache.set('q', 'v', 0, 'answer', 10)
    expect(cache.get('q', 'v', 0)).toBeUndefined()
  })
})
