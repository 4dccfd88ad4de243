import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BECAUSE_CLAUSE } from './madr'

describe('BECAUSE_CLAUSE, for any decision outcome', () => {
  /** Options chosen, commas, `because` and runs of white space. */
  const outcome = fc
    .array(fc.constantFrom('Chosen option: "X"', ',', ' ', '  ', '\t', '\n', 'because', 'Because:', 'because of', 'x', 'it is typed'), { maxLength: 14 })
    .map((pieces) => pieces.join(''))

  it('reads the clause the pattern tried from each character of a run of white space read', () => {
    const before = /,?\s+(because:?\s+)([\s\S]+)$/i
    fc.assert(
      fc.property(outcome, (text) => {
        expect(BECAUSE_CLAUSE.exec(text)?.slice(0, 3)).toEqual(before.exec(text)?.slice(0, 3))
        expect(BECAUSE_CLAUSE.exec(text)?.index).toBe(before.exec(text)?.index)
      }),
      { numRuns: 20000, examples: [['Chosen option: "X",  because it is typed'], ['x ,  because: y']] },
    )
  })
})
