import { describe, expect, it } from 'vitest'
import { z } from './zod'
import { atMostSaid, oneOfSaid, sentOf } from './zod-issues'

describe('oneOfSaid', () => {
  const Level = z.object({ level: z.enum(['low', 'high'], { error: oneOfSaid }) })
  const said = (input: unknown) => Level.safeParse(input).error?.issues.map((i) => i.message)

  it('says the values a field takes and the value sent, a value of another type by its type', () => {
    expect(said({ level: 'mid' })).toEqual(['one of "low", "high", not "mid"'])
    expect(said({ level: 2 })).toEqual(['one of "low", "high", not a number'])
    expect(said({ level: null })).toEqual(['one of "low", "high", not null'])
    expect(said({ level: { v: 'low' } })).toEqual(['one of "low", "high", not an object'])
  })

  it('leaves a field left out to zod, whose issue missingSaidOf says missing', () => {
    expect(said({})).toEqual(['Invalid option: expected one of "low"|"high"'])
  })
})

describe('atMostSaid', () => {
  const Key = z.string().max(3, { error: atMostSaid })

  it('says the limit and how many characters were sent, counted as the limit counts them', () => {
    expect(Key.safeParse('abcde').error?.issues.map((i) => i.message)).toEqual(['at most 3 characters, not 5'])
    expect(Key.safeParse('😀😀😀😀').error?.issues.map((i) => i.message)).toEqual(['at most 3 characters, not 4'])
    expect(Key.safeParse('😀😀😀').success).toBe(true)
  })
})

describe('sentOf', () => {
  it('quotes text, cut after 100 characters with its length, and names any other value by its type', () => {
    expect(sentOf('must')).toBe('"must"')
    expect(sentOf('a"b')).toBe('"a\\"b"')
    expect(sentOf('é'.repeat(101))).toBe(`"${'é'.repeat(100)}…" (101 characters)`)
    expect(sentOf(true)).toBe('a boolean')
    expect(sentOf([])).toBe('an array')
  })
})
