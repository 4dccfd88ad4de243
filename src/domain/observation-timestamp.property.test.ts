import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { QueryTimestampSchema, TimestampSchema } from './observation'

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
/** A time in TimestampSchema's shape, any numbers in its places (days and hours the calendar has not too). */
const shaped = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    two(13), two(32), two(25), two(61), two(61),
    fc.constantFrom('', '.5', '.123', '.123456789'),
    fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), two(25), two(61)).map(([s, h, m]) => `${s}${h}:${m}`)),
  )
  .map(([y, mo, d, h, mi, s, frac, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${zone}`)
/** Texts near a time: a time with a character put in, taken out or changed, spaces and pluses. */
const near = fc
  .tuple(shaped, fc.nat(), fc.constantFrom('', ' ', '+', '-', 'T', 'Z', ':', '0', '  ', '%2B', 't', 'z'), fc.nat({ max: 2 }))
  .map(([t, at, put, cut]) => {
    const i = at % (t.length + 1)
    return t.slice(0, i) + put + t.slice(i + cut)
  })
const accepts = (schema: typeof TimestampSchema | typeof QueryTimestampSchema, text: string) => schema.safeParse(text).success

describe('QueryTimestampSchema, for any text', () => {
  it('takes what TimestampSchema takes, as it is, and a final +hh:mm written with a space for its +, and nothing else', () => {
    fc.assert(
      fc.property(fc.oneof(shaped, near, fc.string({ maxLength: 30 })), (text) => {
        const spaced = /^(.*) (\d{2}:\d{2})$/.exec(text)
        const meant = spaced === null ? text : `${spaced[1]}+${spaced[2]}`
        const query = QueryTimestampSchema.safeParse(text)
        if (accepts(TimestampSchema, text)) expect(query).toEqual({ success: true, data: text })
        else if (spaced !== null && accepts(TimestampSchema, meant)) expect(query).toEqual({ success: true, data: meant })
        else expect(query.success).toBe(false)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('TimestampSchema, for a time in its shape', () => {
  it('takes it exactly when it is a moment of the calendar, and says which of the two was wrong', () => {
    fc.assert(
      fc.property(shaped, (text) => {
        const [, y, mo, d, h, mi, s, oh, om] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(text)!.map(Number) as number[]
        const days = new Date(Date.UTC(2000, (mo as number), 0)).getUTCDate()
        const leap = (y as number) % 4 === 0 && ((y as number) % 100 !== 0 || (y as number) % 400 === 0)
        const inMonth = (mo as number) === 2 ? (leap ? 29 : 28) : days
        const real =
          (mo as number) >= 1 && (mo as number) <= 12 && (d as number) >= 1 && (d as number) <= inMonth &&
          (h as number) < 24 && (mi as number) < 60 && (s as number) < 60 &&
          (Number.isNaN(oh) || ((oh as number) < 24 && (om as number) < 60))
        const parsed = TimestampSchema.safeParse(text)
        expect(parsed.success).toBe(real)
        if (!parsed.success) expect(parsed.error.issues[0]?.message).toMatch(/^not a moment of the calendar/)
      }),
      { numRuns: 3000 },
    )
  })

  it('says a text not in its shape is not an ISO time', () => {
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 30 })), (text) => {
        const parsed = TimestampSchema.safeParse(text)
        if (!parsed.success && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text))
          expect(parsed.error.issues[0]?.message).toMatch(/^an ISO time with seconds and a zone/)
      }),
      { numRuns: 1000 },
    )
  })
})
