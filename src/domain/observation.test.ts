import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IDENTIFIER_PATTERN, IdentifierSchema, LabelSchema, NOT_BLANK_PATTERN } from './observation'

// The published patterns are read with and without JavaScript's u flag (AJV sets it, Swagger UI does not).
const FLAGS = ['', 'u']

describe('the patterns the JSON Schemas publish', () => {
  it('NOT_BLANK_PATTERN: a text matches it exactly when trim leaves something, for every UTF-16 unit', () => {
    for (const flags of FLAGS) {
      const re = new RegExp(NOT_BLANK_PATTERN, flags)
      for (let unit = 0; unit <= 0xffff; unit++) {
        const text = String.fromCharCode(unit)
        if (re.test(text) !== (text.trim() !== '')) expect.fail(`U+${unit.toString(16).padStart(4, '0')} /${flags}`)
      }
      // And so does a label: white space alone is refused, white space around a word is not.
      for (const label of [' ', '\u3000\t', '\ufeff', ' pg ', '\u00a0x']) {
        expect(re.test(label), JSON.stringify(label)).toBe(LabelSchema.safeParse(label).success)
      }
    }
  })

  it('IDENTIFIER_PATTERN: a name of a valid length and no lone surrogate matches it exactly when the service takes it', () => {
    const unit = fc.constantFrom('.', '!', 'a', ' ', 'é', '\u0000', '\u001f', '\u0085', '\u00a0', '😀')
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 6 }), (name) => {
        for (const flags of FLAGS) expect(new RegExp(IDENTIFIER_PATTERN, flags).test(name), `${JSON.stringify(name)} /${flags}`).toBe(IdentifierSchema.safeParse(name).success)
      }),
      { numRuns: 2000 },
    )
    for (const name of ['.', '..', '!', '!a', '.a', '..a', '...', '.!', 'a.', 'a..']) {
      for (const flags of FLAGS) expect(new RegExp(IDENTIFIER_PATTERN, flags).test(name), `${name} /${flags}`).toBe(IdentifierSchema.safeParse(name).success)
    }
  })
})
