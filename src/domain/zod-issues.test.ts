import { describe, expect, it } from 'vitest'
import { z } from './zod'
import { atMostSaid, boundSaid, countSaid, missingSaidOf, oneOfSaid, sentOf } from './zod-issues'

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

  it('writes the characters a terminal would run or reorder as escapes, as JSON writes a control', () => {
    // JSON.stringify leaves DEL, C1 (CSI U+009B) and the bidirectional overrides raw.
    expect(sentOf('a\u202eb\u009b2J\u007f')).toBe('"a\\u202eb\\u009b2J\\u007f"')
    expect(sentOf('\u001b[2J')).toBe('"\\u001b[2J"')
    expect(sentOf('\u202e'.repeat(101))).toBe(`"${'\\u202e'.repeat(100)}…" (101 characters)`)
    // Nor the direction marks, which show nothing, nor the line and paragraph separators, at which a log viewer breaks the line.
    expect(sentOf('must\u200f')).toBe('"must\\u200f"')
    expect(sentOf('\u061c\u200ea\u2028b\u2029')).toBe('"\\u061c\\u200ea\\u2028b\\u2029"')
  })
})

describe('boundSaid, zod\'s fallback for every limit', () => {
  const said = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues.map((i) => i.message)

  it('says a text\'s or a list\'s limit and its length sent, without any words given to the schema', () => {
    expect(said(z.string().max(3), 'abcd')).toEqual(['at most 3 characters, not 4'])
    expect(said(z.string().min(3), '😀')).toEqual(['at least 3 characters, not 1'])
    expect(said(z.string().max(1), 'ab')).toEqual(['at most 1 character, not 2'])
    expect(said(z.array(z.number()).max(2), [1, 2, 3])).toEqual(['at most 2 items, not 3'])
    expect(said(z.array(z.number()).min(2), [1])).toEqual(['at least 2 items, not 1'])
  })

  it('says a text or a list that must have something empty, as a policy rule is told', () => {
    expect(said(z.string().min(1), '')).toEqual(['must not be empty'])
    expect(said(z.array(z.number()).min(1), [])).toEqual(['must not be empty'])
  })

  it('says a number\'s range as a policy field\'s is said', () => {
    expect(said(z.number().min(1), 0)).toEqual(['at least 1, not 0'])
    expect(said(z.number().positive(), 0)).toEqual(['above 0, not 0'])
    expect(said(z.number().max(5), 6.5)).toEqual(['at most 5, not 6.5'])
    expect(said(z.number().lt(5), 5)).toEqual(['below 5, not 5'])
  })

  it('leaves a limit with words of its own to them, and says an exact length', () => {
    expect(said(z.string().max(3, 'too long'), 'abcd')).toEqual(['too long'])
    expect(said(z.string().length(3), 'ab')).toEqual(['exactly 3 characters, not 2'])
    expect(said(z.string().length(1), '')).toEqual(['exactly 1 character, not 0'])
    expect(boundSaid({ code: 'invalid_type', input: 1 })).toBeUndefined()
  })

  it('names a list\'s items where countSaid is given their name', () => {
    const Questions = z.array(z.number()).max(1, { error: countSaid('question', 'questions') })
    expect(said(Questions, [1, 2])).toEqual(['at most 1 question, not 2'])
    expect(said(z.array(z.number()).max(4, { error: countSaid('question', 'questions') }), [1, 2, 3, 4, 5])).toEqual(['at most 4 questions, not 5'])
  })
})

describe('missingSaidOf', () => {
  it('lists an enum\'s values left out as oneOfSaid lists them for a value sent wrong', () => {
    const issue = z.object({ kind: z.enum(['must', 'prefer']) }).safeParse({}).error?.issues[0] as { code: string; message: string; values?: unknown[] }
    expect(missingSaidOf(issue, ['kind'], {})).toBe('missing: one of "must", "prefer"')
    const literal = z.object({ kind: z.literal('choice') }).safeParse({}).error?.issues[0] as { code: string; message: string; values?: unknown[] }
    expect(missingSaidOf(literal, ['kind'], {})).toBe('missing: expected "choice"')
  })
})
