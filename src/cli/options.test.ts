import { describe, expect, it } from 'vitest'
import { parseFlags, UsageError } from './options'

describe('parseFlags', () => {
  const options = { user: { type: 'string' }, yes: { type: 'boolean' } } as const

  it('refuses a flag with a value given twice, naming both values, rather than keep the last', () => {
    expect(() => parseFlags({ args: ['--user', 'alice', '--user', 'bob'], options })).toThrow(UsageError)
    expect(() => parseFlags({ args: ['--user', 'alice', '--user=bob'], options })).toThrow('--user is given twice ("alice" and "bob"): give it once')
  })

  it('takes each flag given once, and a boolean flag repeated', () => {
    const { values } = parseFlags({ args: ['--user', 'alice', '--yes', '--yes'], options })
    expect(values).toEqual({ user: 'alice', yes: true })
  })
})
