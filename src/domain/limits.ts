/** Input limits, documented in README.md; anything over them is refused with a 4xx. */
export const LIMITS = {
  bodyBytes: 256 * 1024,
  /** A label's characters once normalised (R-CAP-3): its ` (Recommended)` and the white space at its ends not counted, a run inside counted as one. */
  labelLength: 500,
  /**
   * A label's characters as sent, its marks and white space included: room for the marks over
   * labelLength, and a bound on the text normalised to count it.
   */
  labelSentLength: 1000,
  descriptionLength: 2000,
  questionLength: 2000,
  options: 50,
  contextKeys: 32,
  contextKeyLength: 100,
  contextValueLength: 500,
  identifierLength: 200,
  observationsPerRequest: 1000,
  questionsPerPlan: 20,
  /**
   * A check's `action`: a whole Bash command, heredocs included, which agents write files with; at
   * 10,000 a command that wrote a long file and then force-pushed was refused, and the guard let it
   * through. Within the body limit for ASCII text.
   */
  actionLength: 100_000,
  /** Levels of arrays and objects in the fields kept as they were sent (a question's, a hook payload's). */
  nesting: 64,
} as const

/**
 * The length a limit counts: Unicode code points, as the schemas (zod) and the JSON Schema
 * `maxLength` of the OpenAPI document count it; an emoji is one, not the two UTF-16 units of
 * `String.length`.
 */
export function characters(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

const GRAPHEMES = new Intl.Segmenter('und', { granularity: 'grapheme' })

/**
 * The longest start of `text` of at most `max` characters (code points, as `characters` counts)
 * that ends between two characters as a reader sees them: never within a surrogate pair, an emoji
 * sequence, or a letter and its combining accent. Read lazily: a long text is not segmented whole.
 */
export function leadingCharacters(text: string, max: number): string {
  // Each step of V8's segment iterator costs time by the length of the text it was given, so a
  // long text is given to it only as far as the limit can reach: 2 * max + 2 UTF-16 units hold more
  // than max characters. The last segment of such a head may be cut short (a break depends on the
  // characters before it and the one after, all in the head but for that one), so it is never
  // taken: the head holds more than max characters, so when the segments before it are within
  // max, it would pass max whole, and the cut is the same.
  const whole = text.length <= 2 * Math.max(max, 0) + 2
  const head = whole ? text : text.slice(0, 2 * Math.max(max, 0) + 2)
  let end = 0
  let count = 0
  for (const { segment, index } of GRAPHEMES.segment(head)) {
    if (!whole && index + segment.length === head.length) break
    const size = characters(segment)
    if (count + size > max) break
    count += size
    end = index + segment.length
  }
  return text.slice(0, end)
}
