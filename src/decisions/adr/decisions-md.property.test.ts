import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TRAILING_MARKS, TRAILING_SEPARATORS } from './decisions-md'

/** Headings as logs write them, and of the white space and separators the patterns read. */
const heading = fc
  .array(fc.constantFrom(' ', '  ', '\t', '\n', ':', '—', '–', '|', '-', '·', '•', 'x', 'Use', 'D-001', '(2024-01-10)'), { maxLength: 24 })
  .map((pieces) => pieces.join(''))

describe('the separators at the end of a heading, for any heading', () => {
  it('are those the pattern tried at every character of a run took', () => {
    fc.assert(
      fc.property(heading, (text) => {
        expect(text.replace(TRAILING_SEPARATORS, '')).toBe(text.replace(/[\s:—–|-]+$/, ''))
        expect(text.replace(TRAILING_MARKS, '')).toBe(text.replace(/[\s:—–|·•-]+$/, ''))
      }),
      { numRuns: 20000 },
    )
  })
})
