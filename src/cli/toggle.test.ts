import { describe, expect, it } from 'vitest'
import { describeToggle } from './toggle'

describe('decision-memory toggle, its sentence', () => {
  it('says the setting, the session and its user', () => {
    expect(describeToggle({ session_id: 's-1', personalization: false, user: 'alice' })).toBe('personalization off for session s-1 (user alice)')
  })

  it('quotes a session or user spaced at its ends, stored so before writes refused one, as the service quotes a name', () => {
    expect(describeToggle({ session_id: ' s-1', personalization: false, user: 'carol ' })).toBe('personalization off for session " s-1" (user "carol ")')
  })

  it('shows a user named with bidirectional controls escaped, as why and preferences do', () => {
    // The store's user, printed when --user is not given: "ev\u202eil" would show reordered.
    expect(describeToggle({ session_id: 's-1', personalization: true, user: 'ev\u202eil' })).toBe('personalization on for session s-1 (user ev\\u202eil)')
  })
})
