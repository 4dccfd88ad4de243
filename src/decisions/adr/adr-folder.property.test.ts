import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { STATUS_FIELD_CELL, STATUS_FIELD_LINE } from './adr-folder'
import { STATUS_NAME } from './field-names'

describe('the status field patterns bodyFormatOf tests a record for, over any text', () => {
  /** Fields, bullets, quotes, table cells and bold over several lines, blank ones among them. */
  const text = fc
    .array(
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\r', '\u2028', '\u00a0', '>', '-', '*', '+', '**', '__', '|', ':', 'Status', 'estado', 'Date', 'x', 'Accepted'),
      { maxLength: 20 },
    )
    .map((pieces) => pieces.join(''))
  // The patterns as they were, each beginning `^\s*`.
  const lineBefore = new RegExp(String.raw`^\s*(?:>\s*)*(?:[-*+]\s+)?(\*\*|__)?${STATUS_NAME}(\*\*|__)?\s*(:|\*\*:|__:)`, 'im')
  const cellBefore = new RegExp(String.raw`^\s*\|(?:[^|\n]*\|)*?\s*(\*\*|__)?${STATUS_NAME}(\*\*|__)?\s*:?\s*(\*\*|__)?\s*\|`, 'im')

  it('hold where the patterns that ran on over blank lines from every line held', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(STATUS_FIELD_LINE.test(t)).toBe(lineBefore.test(t))
        expect(STATUS_FIELD_CELL.test(t)).toBe(cellBefore.test(t))
      }),
      { numRuns: 30000, examples: [['\n\n  > \n > - Status:'], ['x\n \n| Date |\n| **Status** : ** |'], ['|\u2028Status|']] },
    )
  })
})
