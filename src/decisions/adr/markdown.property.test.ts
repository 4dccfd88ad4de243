import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NEXT_FIELD, tableField, withoutClosingMarks, withoutTrailing } from './markdown'

/** Lines of fields as logs write them, and of the white space, bars and bold that NEXT_FIELD reads. */
const line = fc
  .array(fc.constantFrom(' ', '  ', '\t', '\u00a0', '|', '\u00b7', '**', '__', ':', 'Date', 'Status', 'x', '-', '\n', '*', '_'), { maxLength: 24 })
  .map((pieces) => pieces.join(''))

describe('NEXT_FIELD, for any line', () => {
  it('splits a line where the pattern tried at every character of a run of white space did', () => {
    const before = /\s+[|\u00b7]\s+(?=(?:\*\*|__)[A-Za-z][A-Za-z -]*?(?::(?:\*\*|__)|(?:\*\*|__):))/
    fc.assert(
      fc.property(line, (text) => {
        expect(text.split(NEXT_FIELD)).toEqual(text.split(before))
      }),
      { numRuns: 20000, examples: [['**Status:** Accepted  |  **Date:** 2024-01-01'], ['a \u00b7 __Date__: x |\t**Enforce:** y']] },
    )
  })
})

describe('withoutTrailing, for any text', () => {
  it('leaves off the marks it ends with as the pattern did', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('.', '?', ';', ',', ':', '!', ' ', '\t', '\u00a0', 'x', '\n', ')', '"', '\u3002', '\u3000', '\ufeff', '\u2028', '\u{1F600}'), { maxLength: 16 }), (pieces) => {
        const t = pieces.join('')
        expect(withoutTrailing(t, '.;')).toBe(t.replace(/[.;]+$/, ''))
        expect(withoutTrailing(t, '.,;:!')).toBe(t.replace(/[.,;:!]+$/, ''))
        expect(withoutTrailing(t, '.!')).toBe(t.replace(/[.!]+$/, ''))
        expect(withoutClosingMarks(t, '.?')).toBe(t.replace(/\s*[.?]+$/, ''))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('tableField, for any line', () => {
  /** Table rows of fields, their bold, colons and runs of white space. */
  const row = fc
    .array(fc.constantFrom('|', ' ', '  ', '\t', '\u00a0', '**', '__', '*', '_', ':', 'Status', 'Decision date', 'x', '-', 'Accepted', '<!-- a -->'), { maxLength: 16 })
    .map((pieces) => pieces.join(''))
  const before = /^\s*\|\s*(?:\*\*|__)?([A-Za-z][A-Za-z -]*?)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*\|\s*([^|]*)/

  it('reads a name and a value where the pattern that split its white space every way did', () => {
    fc.assert(
      fc.property(row, (text) => {
        const match = before.exec(text)
        expect(tableField(text)).toEqual(match === null ? undefined : [match[1], match[2]])
      }),
      { numRuns: 30000, examples: [['| **Status** | Accepted |'], ['|Status  :  ** | x'], ['| a b  c | d'], ['| Status  x | y']] },
    )
  })
})
