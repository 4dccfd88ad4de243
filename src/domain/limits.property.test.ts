import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { characters, leadingCharacters } from './limits'

/** Text of what limits cut: letters and combining accents, emoji sequences, flags, Hangul jamo, CRLF, lone surrogates. */
const piece = fc.oneof(
  fc.constantFrom('a', 'é', 'e\u0301', 'e\u0301\u0302', '👍', '👍🏽', '👨‍👩‍👧', '🇫🇷', '❤️', '\u1100\u1161\u11a8', '\r\n', '\n', ' ', '\ud800', '\udc00', '大', 'क्षि'),
  fc.string({ unit: 'grapheme', maxLength: 2 }),
  fc.string({ unit: 'binary', maxLength: 2 }),
)
const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''))

describe('leadingCharacters, for any text and limit', () => {
  it('is the longest start of the text within the limit that ends between two graphemes', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -1, max: 40 }), (t, max) => {
        const cut = leadingCharacters(t, max)
        expect(t.startsWith(cut)).toBe(true)
        expect(characters(cut)).toBeLessThanOrEqual(Math.max(max, 0))
        const ends = [0, ...[...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(t)].map((s) => s.index + s.segment.length)]
        expect(ends).toContain(cut.length)
        expect(cut.length).toBe(Math.max(0, ...ends.filter((e) => characters(t.slice(0, e)) <= max)))
        // Never half a surrogate pair.
        const last = cut.charCodeAt(cut.length - 1)
        if (last >= 0xd800 && last <= 0xdbff) expect(t.charCodeAt(cut.length)).not.toSatisfy((c: number) => c >= 0xdc00 && c <= 0xdfff)
      }),
      { numRuns: 2000 },
    )
  })

  it('segments no more of a long text than the limit can reach (each step of the segmenter costs the whole text)', () => {
    // A 2 MB decision record took 35 s to import: 2,000 steps over 2 MB each.
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment')
    try {
      const long = 'a'.repeat(2_000_000)
      expect(leadingCharacters(long, 1999)).toBe('a'.repeat(1999))
      expect(leadingCharacters(`${'👍🏽'.repeat(1000)}${long}`, 1999)).toBe('👍🏽'.repeat(999))
      expect(Math.max(...segment.mock.calls.map(([text]) => text.length))).toBeLessThanOrEqual(2 * 1999 + 2)
    } finally {
      segment.mockRestore()
    }
  })

  it('counts code points, as Array.from does', () => {
    fc.assert(fc.property(text, (t) => {
        expect(characters(t)).toBe(Array.from(t).length)
      }), { numRuns: 500 })
  })
})
