import { describe, expect, it } from 'vitest'
import { belongsTo, parseRootKey, storedEntry } from './ownership'

describe('parseRootKey', () => {
  it('splits sublevel prefixes from the key', () => {
    expect(parseRootKey('!archival!alice\u0000tier')).toEqual({ sublevel: 'archival', key: 'alice\u0000tier' })
    expect(parseRootKey('!decisions!!events!D-001')).toEqual({ sublevel: 'decisions!events', key: 'D-001' })
    expect(parseRootKey('plain')).toEqual({ sublevel: '', key: 'plain' })
  })
})

describe('belongsTo', () => {
  it('finds the user first in the key of a per-user sublevel', () => {
    expect(belongsTo('!archival!alice\u0000tier\u00002026\u0000obs-1', '{}', 'alice')).toBe(true)
    expect(belongsTo('!dedupe!alice\u0000d-1', 'obs-1', 'alice')).toBe(true)
    expect(belongsTo('!aggregates!alice\u0000acme\u0000tier', '{"w":1}', 'alice')).toBe(true)
  })

  it('finds the user second in the session-owners index', () => {
    expect(belongsTo('!session-owners!s-1\u0000alice', '', 'alice')).toBe(true)
    expect(belongsTo('!session-owners!alice\u0000bob', '', 'alice')).toBe(false)
  })

  it('does not take another user’s entry whose point, session or decision id is the name', () => {
    const bobs = JSON.stringify({ user: 'bob', point: 'alice', context: { reviewer: 'alice' } })
    expect(belongsTo('!archival!bob\u0000alice\u00002026\u0000obs-2', bobs, 'alice')).toBe(false)
    expect(belongsTo('!dedupe!bob\u0000alice', 'obs-2', 'alice')).toBe(false)
    expect(belongsTo('!sessions!bob\u0000alice', JSON.stringify({ user: 'bob', session_id: 'alice' }), 'alice')).toBe(false)
  })

  it('finds a record of an unknown sublevel by the user field of its value', () => {
    expect(belongsTo('!decisions!D-001', JSON.stringify({ key: 'D-001', user: 'alice' }), 'alice')).toBe(true)
    expect(belongsTo('!decisions!D-002', JSON.stringify({ key: 'D-002', user: 'bob' }), 'alice')).toBe(false)
    expect(belongsTo('!decisions!D-003', 'not json, alice', 'alice')).toBe(false)
  })

  it('does not confuse names that only share a prefix', () => {
    expect(belongsTo('!archival!alice2\u0000tier', JSON.stringify({ user: 'alice2' }), 'alice')).toBe(false)
  })
})

describe('storedEntry', () => {
  it('reads JSON values and keeps other text', () => {
    expect(storedEntry('!aggregates!alice\u0000tier', '{"n":3}')).toEqual({
      sublevel: 'aggregates',
      key: ['alice', 'tier'],
      value: { n: 3 },
    })
    expect(storedEntry('!dedupe!alice\u0000d-1', 'obs-1').value).toBe('obs-1')
  })
})
