import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DecisionKeySchema } from '../decision'
import { keyOfFile } from './adr-tools'

/** File names as decision records are named: numbered, dated, slugs in any script, long, and words the API reserves. */
const stem = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.string({ maxLength: 8 })).map(([n, s]) => `${n}-${s}`),
  fc.tuple(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), fc.boolean(), fc.string({ maxLength: 8 }))
    .map(([d, dashed, s]) => `${dashed ? d.toISOString().slice(0, 10) : d.toISOString().slice(0, 10).replace(/-/g, '')}-${s}`),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/),
  fc.constantFrom('check', 'import', 'Applicable', 'PULSES', 'データベースの選定', 'use-postgres', ''),
)
const name = fc.tuple(stem, fc.constantFrom('.md', '.MD')).map(([s, ext]) => s + ext)
const numberOf = (n: string) => /^(\d{1,5})-/.exec(n)?.[1]

describe('keyOfFile, for any record file name', () => {
  it('is a valid decision key', () => {
    fc.assert(
      fc.property(name, (n) => {
        expect(DecisionKeySchema.safeParse(keyOfFile(n)).success).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('gives two names two keys, but for two records of one number, or one name written in two Unicode forms', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        // One name as macOS may give it (NFD) and as written (NFC): one key, hashed in NFC.
        const same = a.replace(/\.md$/i, '').normalize('NFC') === b.replace(/\.md$/i, '').normalize('NFC')
        const oneNumber = numberOf(a) !== undefined && Number(numberOf(a)) === Number(numberOf(b))
        if (!same && !oneNumber) expect(keyOfFile(a)).not.toBe(keyOfFile(b))
      }),
      // A name the generator may draw in either form (graphemes, precomposed or not).
      { numRuns: 2000, examples: [['\u00e9.md', 'e\u0301.md']] },
    )
  })
})
