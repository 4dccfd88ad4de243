// What a name shows at its ends: the white space and invisible characters a written name may not
// start or end with, and the name without them. Apart from observation.ts's schemas, so that
// labels.ts, which normalises labels with them, and the label schema, which counts a label as
// normalised, import it without importing each other.

/**
 * What `String.prototype.trim` removes (ECMAScript's WhiteSpace and LineTerminator), as the body of
 * a character class: spelled out, since `\s` is not the same set in every regex dialect.
 */
export const WHITE_SPACE = '\\u0009-\\u000d\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff'

/**
 * Characters that show nothing at a name's end and that trim() leaves (U+FEFF it takes, in
 * WHITE_SPACE), as the body of a character class: `alice\u200b` looked like `alice` and was
 * another user. Unicode's Default_Ignorable_Code_Point below U+10000 but the variation selectors:
 * the zero width spaces, joiners and non-joiner, word joiner and invisible operators, soft hyphen,
 * combining grapheme joiner, the Mongolian vowel separator, the
 * bidirectional marks, embeddings, overrides and isolates, the Hangul fillers (U+115F and U+1160
 * too, `alice\u1160` was taken), the Khmer inherent vowels U+17B4 and U+17B5, and U+FFF0–FFF8. Not
 * the variation selectors nor the tag characters, which end an emoji (`❤️`, a flag) as its last
 * code point, and never a character within a name: a joiner inside an emoji (`👩‍💻`) is that emoji.
 * Those above U+FFFF are invisibleBeyondBmp's, the variation selectors VARIATION_SELECTORS'.
 */
export const INVISIBLE = '\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\uffa0\\ufff0-\\ufff8'

/**
 * The variation selectors U+FE00–FE0F and Mongolian free variation selectors U+180B–180D and
 * U+180F, as the body of a character class: one ends an emoji (`❤️`) or a Mongolian letter's
 * form, so a name may end with one, but it modifies nothing at a name's start: `\ufe0falice`
 * looked like `alice`, and `\ufe0f` alone like no name.
 */
export const VARIATION_SELECTORS = '\\u180b-\\u180d\\u180f\\ufe00-\\ufe0f'

/**
 * Whether a code point above U+FFFF is an invisible one a name may not have at that end: the
 * shorthand format controls U+1BCA0–1BCA3 and the musical format controls U+1D173–1D17A at either,
 * U+E0000–E0FFF (tags, the variation selectors U+E0100–E01EF) at the start, and those of them that
 * end nothing at the end (a flag's tags U+E0020–E007F and an ideographic variation, `葛\u{e0100}`,
 * are taken). Said in words, not in TRIMMED_IDENTIFIER_PATTERN: a pattern without the `u` flag
 * reads them as two code units, which other characters share.
 */
function invisibleBeyondBmp(codePoint: number, at: 'start' | 'end'): boolean {
  if ((codePoint >= 0x1bca0 && codePoint <= 0x1bca3) || (codePoint >= 0x1d173 && codePoint <= 0x1d17a)) return true
  if (codePoint < 0xe0000 || codePoint > 0xe0fff) return false
  return at === 'start' || !((codePoint >= 0xe0020 && codePoint <= 0xe007f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef))
}

/** One character a name must not start or end with: white space (what trim() takes off) or an invisible one. */
const AN_END = new RegExp(`[${WHITE_SPACE}${INVISIBLE}]`)
/** A variation selector, which a name may end with (an emoji's) but not start with. */
const A_VARIATION_SELECTOR = new RegExp(`[${VARIATION_SELECTORS}]`)

/** Whether a code point may not be at a name's start or end. */
function isAnEnd(codePoint: number, at: 'start' | 'end'): boolean {
  if (codePoint > 0xffff) return invisibleBeyondBmp(codePoint, at)
  const c = String.fromCharCode(codePoint)
  return AN_END.test(c) || (at === 'start' && A_VARIATION_SELECTOR.test(c))
}

/** The code point that ends at `end` in a name, and its length in code units. */
function codePointBefore(name: string, end: number): [number, number] {
  const pair = end >= 2 && /[\ud800-\udbff][\udc00-\udfff]/.test(name.slice(end - 2, end))
  return pair ? [name.codePointAt(end - 2) as number, 2] : [name.charCodeAt(end - 1), 1]
}

/**
 * A variation selector or tag character: one a name may end with, but not start with, as it
 * modifies the character before it (an emoji, a flag, an ideograph, a Mongolian letter).
 */
const isModifier = (codePoint: number) => isAnEnd(codePoint, 'start') && !isAnEnd(codePoint, 'end')

/**
 * Where a name starts and ends once the white space and invisible characters at its ends are left
 * out: by code point (no regex over the name, whose runs inside it a backtracking one would scan
 * again at each place). Variation selectors and tags ending it are kept after a character that
 * shows, and left out with what they follow otherwise: `alice \ufe0f` modifies a space, and looked
 * like `alice `.
 */
export function bareEnds(name: string): [number, number] {
  let start = 0
  for (let c = name.codePointAt(0); c !== undefined && isAnEnd(c, 'start'); c = name.codePointAt(start)) start += c > 0xffff ? 2 : 1
  let end = name.length
  while (end > start) {
    let modified = end
    for (let [c, length] = codePointBefore(name, modified); modified > start && isModifier(c); [c, length] = codePointBefore(name, modified)) modified -= length
    if (modified > start && !isAnEnd(codePointBefore(name, modified)[0], 'end')) break
    end = modified === end ? end - codePointBefore(name, end)[1] : modified
  }
  return [start, end]
}

/** A name without the white space and invisible characters at its ends: the name it looks like. */
export function bareName(name: string): string {
  const [start, end] = bareEnds(name)
  return start === 0 && end === name.length ? name : name.slice(start, end)
}
