import { describe, expect, it } from 'vitest'
import { forgetSentence } from './forget'

describe('decision-memory forget, the sentence it prints', () => {
  it('counts one entry and one spooled event in the singular, more in the plural', () => {
    expect(forgetSentence({ user: 'bob', deleted: 1, spooled: 1 })).toBe('forgot bob: 1 entry deleted, 1 spooled hook event removed\n')
    expect(forgetSentence({ user: 'bob', deleted: 5, spooled: 2 })).toBe('forgot bob: 5 entries deleted, 2 spooled hook events removed\n')
  })

  it('leaves the spool out when none of its events was the user\'s', () => {
    expect(forgetSentence({ user: 'bob', deleted: 0, spooled: 0 })).toBe('forgot bob: 0 entries deleted\n')
  })
})
