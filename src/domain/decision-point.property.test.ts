import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalizeQuestion } from './decision-point'

const MARKS = [...'?!.:;,…？！。．：；，、｡､‽⁇⁈⁉؟،؛۔।॥', '\u200b', '\u200e', '\u200f', '\u061c', '\u2060', ' ', '\n', '\u3000']
const piece = fc.oneof(
  fc.constantFrom(...MARKS, 'Which DB', 'ΑΣ', 'İ', 'e\u0301', 'ß', 'ﬁ', 'Ǆ', 'ΐ', '\u03aa', '\u0301', '  '),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
)
const question = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''))

describe('normalizeQuestion, for any question', () => {
  it('is idempotent where a lowered letter composes with the mark after it (a counterexample the property found)', () => {
    const once = normalizeQuestion('\u03aa\u0301')
    expect(once).toBe('\u0390')
    expect(normalizeQuestion(once)).toBe(once)
  })

  it('is idempotent', () => {
    fc.assert(
      fc.property(question, (q) => {
        expect(normalizeQuestion(normalizeQuestion(q))).toBe(normalizeQuestion(q))
      }),
      { numRuns: 2000 },
    )
  })

  it('keys a question with trailing marks, white space and invisible marks as the question', () => {
    fc.assert(
      fc.property(question, fc.array(fc.constantFrom(...MARKS), { minLength: 1, maxLength: 4 }), (q, marks) => {
        expect(normalizeQuestion(q + marks.join(''))).toBe(normalizeQuestion(q))
      }),
      { numRuns: 2000 },
    )
  })
})
