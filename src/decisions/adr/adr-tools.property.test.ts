import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DecisionKeySchema } from '../decision'
import { keyOfFile, STATUS_HEADING_LINE } from './adr-tools'

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

describe('STATUS_HEADING_LINE, for any text', () => {
  /** Headings, status words, their marks and white space over several lines. */
  const text = fc
    .array(fc.constantFrom('#', '##', '###', ' ', '  ', '\t', '\n', '\r\n', '\u2028', 'Status', 'estado', ':', '-', '\u2014', '**', '__', '\u2705', 'x', 'Accepted'), { maxLength: 18 })
    .map((pieces) => pieces.join(''))
  // The pattern as it was, its closing `#`s `\s+#*`.
  const before = new RegExp(STATUS_HEADING_LINE.source.replace(String.raw`|\s+#+)?\s*$`, String.raw`|\s+#*)?\s*$`), 'gimu')

  it('finds each status heading, its level and its end, where the pattern that tried every split of the white space after it did', () => {
    expect(before.source).not.toBe(STATUS_HEADING_LINE.source)
    fc.assert(
      fc.property(text, (t) => {
        const found = (pattern: RegExp) => [...t.matchAll(pattern)].map((m) => [m.index, m[0], m[1]])
        expect(found(STATUS_HEADING_LINE)).toEqual(found(before))
      }),
      { numRuns: 20000, examples: [['## Status  \n  x'], ['## Status ##  \n  x\n### Status'], ['##\nStatus']] },
    )
  })
})
