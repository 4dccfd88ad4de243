import { describe, expect, it } from 'vitest'
import { createChangeCounter } from './change-counter'

describe('change counter', () => {
  it('moves for the users a write touches, and for everyone on touchAll', () => {
    const changes = createChangeCounter()
    const alice = changes.of('alice')
    const bob = changes.of('bob')
    changes.touch(['alice'])
    expect(changes.of('alice')).not.toBe(alice)
    expect(changes.of('bob')).toBe(bob)
    const afterAlice = changes.of('alice')
    changes.touchAll()
    expect(changes.of('alice')).not.toBe(afterAlice)
    expect(changes.of('bob')).not.toBe(bob)
  })

  it('never stands still for a touched user, even when users share a slot', () => {
    // One slot: every user shares it; a touch of anyone moves everyone (more misses, never a stale answer).
    const changes = createChangeCounter(1)
    const seen = ['alice', 'bob', 'carol'].map((u) => changes.of(u))
    changes.touch(['bob', 'carol'])
    for (const [i, u] of ['alice', 'bob', 'carol'].entries()) expect(changes.of(u)).toBeGreaterThan(seen[i] as number)
  })

  it('counts a write before it starts and once it is done, failed or not', async () => {
    const changes = createChangeCounter()
    const before = changes.of('alice')
    let during = before
    await changes.around(['alice'], async () => {
      during = changes.of('alice')
    })
    expect(during).toBeGreaterThan(before)
    expect(changes.of('alice')).toBeGreaterThan(during)
    const afterFirst = changes.of('alice')
    await expect(changes.aroundAll(async () => { throw new Error('disk full') })).rejects.toThrow('disk full')
    expect(changes.of('alice')).toBe(afterFirst + 2)
  })
})
