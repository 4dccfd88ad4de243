import { describe, expect, it } from 'vitest'
import { createObservationIds } from './observation-id'

const AT = new Date('2026-07-01T10:00:00.000Z')

describe('createObservationIds', () => {
  it('orders the ids of one millisecond as they were made, in the shape ids had', () => {
    const newId = createObservationIds()
    const ids = Array.from({ length: 5_000 }, () => newId(AT))
    for (const id of ids) expect(id).toMatch(/^obs-[0-9a-z]+-[0-9a-f]{12}$/)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('orders ids by their millisecond first, and restarts the sequence at a later one', () => {
    const newId = createObservationIds()
    const first = newId(AT)
    const later = newId(new Date(AT.getTime() + 1))
    expect(first < later).toBe(true)
    expect(later.split('-')[2]?.slice(0, 6)).toBe('000000')
  })

  it('keeps the sequence rising when the clock steps back and returns', () => {
    const newId = createObservationIds()
    const before = newId(AT)
    newId(new Date(AT.getTime() + 1000))
    const again = newId(AT)
    expect(before < again).toBe(true)
  })

  it('makes each id after every one made before it when the clock steps back, to another millisecond too', () => {
    // Choices of one moment (sent with one timestamp) are ordered by their ids (a tie goes to the
    // one recorded last, R-REC-2): one recorded after the clock stepped back is still the later.
    const newId = createObservationIds()
    const ids = [newId(new Date(AT.getTime() + 1000)), newId(AT), newId(new Date(AT.getTime() + 500)), newId(new Date(AT.getTime() + 1001))]
    expect([...ids].sort()).toEqual(ids)
  })
})
