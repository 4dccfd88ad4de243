import { describe, expect, it } from 'vitest'
import { fieldNestedPast, nestsWithin } from './json-depth'

/** `levels` arrays one inside the next, as JSON.parse reads `[[…]]`. */
const nested = (levels: number): unknown => JSON.parse('['.repeat(levels) + ']'.repeat(levels))

describe('nestsWithin and fieldNestedPast', () => {
  it('counts a scalar as 0 levels and {} as 1, ten thousand levels without overflowing', () => {
    expect(nestsWithin('x', 0)).toBe(true)
    expect(nestsWithin({}, 0)).toBe(false)
    expect(nestsWithin({}, 1)).toBe(true)
    expect(nestsWithin(nested(10_000), 9_999)).toBe(false)
    expect(nestsWithin(nested(10_000), 10_000)).toBe(true)
  })

  it('names the first field nested past the bound, counted from the object, or the whole for a list', () => {
    expect(fieldNestedPast({ a: 1, b: nested(3), c: nested(64) }, 64, '(root)')).toBe('c')
    expect(fieldNestedPast({ a: 1, b: nested(63) }, 64, '(root)')).toBeUndefined()
    expect(fieldNestedPast(nested(65), 64, 'the file')).toBe('the file')
    expect(fieldNestedPast(nested(64), 64, 'the file')).toBeUndefined()
    expect(fieldNestedPast('text', 0, '(payload)')).toBeUndefined()
  })
})
