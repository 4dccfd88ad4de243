import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { inlineLink, linksAsText, linksIn, referenceLink } from './links'

/**
 * Text of brackets, parentheses, angle brackets, white space and words, as links and the prose around
 * them are written: escaped brackets (`\]`, which none of the patterns read as escaped), images,
 * autolinks, references, and white space and words of other scripts (an ideographic space is `\s`,
 * an emoji two UTF-16 units).
 */
const text = fc
  .array(
    fc.constantFrom('[', ']', '(', ')', '<', '>', '!', ' ', '\t', '\n', '\u00a0', 'x', 'ADR 2', '0002-x.md', '[2](0002-x.md)', '][', '](', '\\', '\\]', '![', '<https://x.org/a>', '][y]', '] [', '"', '\u3000', '\u2028', '\u{1F600}', '决定'),
    { maxLength: 20 },
  )
  .map((pieces) => pieces.join(''))

// The patterns the functions replace, as they were written.
const INLINE = /\[([^\]]*)\]\((?:<([^>\n]*)>|([^)\s]+))[^)]*\)/
const REFERENCE = /\[([^\]]*)\](?:\s?\[([^\]]*)\])?/
const ONE_LINK = /\[[^\]]*\](?:\([^)]*\)|\s?\[[^\]]*\])?/g
const AS_TEXT = /!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g

describe('the links of any text', () => {
  it('are found as the patterns tried from every [ found them', () => {
    fc.assert(
      fc.property(text, (t) => {
        const inline = INLINE.exec(t)
        expect(inlineLink(t)).toEqual(inline === null ? undefined : { text: inline[1], ...(inline[2] === undefined ? {} : { angled: inline[2] }), ...(inline[3] === undefined ? {} : { bare: inline[3] }) })
        const reference = REFERENCE.exec(t)
        expect(referenceLink(t)).toEqual(reference === null ? undefined : { text: reference[1], ...(reference[2] === undefined ? {} : { label: reference[2] }) })
        expect(linksIn(t)).toEqual([...t.matchAll(ONE_LINK)].map((m) => m[0]))
        expect(linksAsText(t)).toBe(t.replace(AS_TEXT, '$1'))
      }),
      { numRuns: 30000, examples: [['[a](<b c>) x'], ['[a](<b\n>) x)'], ['![a](b) [c][d] [e] [f]'], ['[[[]( x)'], ['x![a][b]'], ['[a] [b] [c](d'], ['[a \\] b](c)'], ['[a\u3000[b]'], ['[\u{1F600}](<x y>)'], ['[a](<https://x.org/a>)'], ['![决定][y]。']] },
    )
  })
})
