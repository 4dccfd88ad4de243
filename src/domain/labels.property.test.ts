import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldCase, matchOption, normalizeLabel } from './labels'

/** Labels in scripts where case is tricky: ß, Turkish dotted and dotless i, Greek final sigma, ligatures, accents. */
const piece = fc.oneof(
  fc.constantFrom('a', 'A', 'ß', 'ẞ', 'SS', 'ss', 'İ', 'ı', 'i', 'I', 'Σ', 'σ', 'ς', 'ﬁ', 'FI', 'é', 'É', 'e\u0301', 'ǅ', 'ǆ', 'Ǆ', ' ', '-', 'ŉ', 'ΐ', 'Å', 'Å'),
  fc.string({ unit: 'grapheme', maxLength: 2 }),
)
const label = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => normalizeLabel(p.join(''))).filter((l) => l !== '')
const options = fc.uniqueArray(label, { minLength: 1, maxLength: 4 })
/** A label in another case: each piece upper-cased, lower-cased or left. */
const recased = (text: string, how: number[]) =>
  [...text].map((c, i) => [(s: string) => s, (s: string) => s.toLocaleUpperCase('en'), (s: string) => s.toLocaleLowerCase('en')][(how[i % how.length] ?? 0) % 3]!(c)).join('')

describe('matchOption, for any options and choice', () => {
  it('names an option written exactly so', () => {
    fc.assert(
      fc.property(options, fc.nat(), (opts, i) => {
        const wanted = opts[i % opts.length] as string
        expect(matchOption(wanted, opts)).toBe(wanted)
      }),
      { numRuns: 1000 },
    )
  })

  it('names an option in another plain case of it, when no option is written so', () => {
    fc.assert(
      fc.property(options, fc.nat(), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), (opts, i, how) => {
        const meant = opts[i % opts.length] as string
        const choice = recased(meant, how)
        const found = matchOption(choice, opts)
        if (!opts.includes(normalizeLabel(choice))) expect(found === undefined ? undefined : foldCase(found)).toBe(foldCase(meant))
      }),
      { numRuns: 1000 },
    )
  })

  it('never names an option that is neither the choice nor the choice in another case', () => {
    fc.assert(
      fc.property(options, label, (opts, choice) => {
        const found = matchOption(choice, opts)
        if (found !== undefined) {
          expect(opts).toContain(found)
          expect(foldCase(found)).toBe(foldCase(normalizeLabel(choice)))
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('folds a folded label to itself', () => {
    fc.assert(
      fc.property(label, (l) => {
        expect(foldCase(foldCase(l))).toBe(foldCase(l))
      }),
      { numRuns: 1000 },
    )
  })
})
