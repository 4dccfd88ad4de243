/**
 * Words that follow `/v1/decisions/` as routes of their own; a decision cannot take them as key.
 * Compared case-insensitively.
 */
export const RESERVED_KEYS = ['applicable', 'pulses', 'check', 'import'] as const

/** What a key is made of; RESERVED_KEYS aside. */
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** The characters a key may start with, and those after its first. */
const FIRST = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz']
const REST = [...'-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz']

/** A character class of `chars` (sorted by code), in ranges: `[A-HJ-Za-z]`. */
function characterClass(chars: readonly string[]): string {
  const codes = [...new Set(chars)].map((c) => c.charCodeAt(0)).sort((a, b) => a - b)
  const parts: string[] = []
  // Letters, digits, `_`, `.` and `-`: none needs an escape in a class, `-` being the first of them (the lowest code).
  const escaped = (code: number) => String.fromCharCode(code)
  for (let i = 0; i < codes.length; ) {
    let j = i
    while (j + 1 < codes.length && codes[j + 1] === (codes[j] as number) + 1) j++
    const [from, to] = [codes[i] as number, codes[j] as number]
    parts.push(to - from >= 2 ? `${escaped(from)}-${escaped(to)}` : to === from ? escaped(from) : `${escaped(from)}${escaped(to)}`)
    i = j + 1
  }
  return `[${parts.join('')}]`
}

/** A count of REST characters, as a quantifier says it: none, one, `{3}`, `{0,3}`, `{6,}`. */
const times = (min: number, max?: number) =>
  max === min ? (min === 0 ? '' : min === 1 ? REST_CLASS : `${REST_CLASS}{${min}}`) : `${REST_CLASS}{${min},${max ?? ''}}`
const REST_CLASS = characterClass(REST)

/**
 * The strings of exactly `length` characters, the first of `first`, the rest of REST, that are
 * none of `words` (lower-case letters, compared in any case): a trie of the words, each branch
 * the letter of a word (in either case) followed by what is not the rest of those words, beside
 * every other character followed by anything.
 */
function noneOf(words: readonly string[], length: number, first: readonly string[]): string {
  if (length === 0) return ''
  const letters = [...new Set(words.map((word) => word[0] as string))]
  const other = first.filter((c) => !letters.includes(c.toLowerCase()))
  const branches = [`${characterClass(other)}${times(length - 1, length - 1)}`]
  for (const letter of letters) {
    const rests = words.filter((word) => word[0] === letter).map((word) => word.slice(1))
    // A word that ends here is the one string refused: nothing of that branch is left.
    if (length === 1) continue
    branches.push(`${characterClass([letter, letter.toUpperCase()])}${noneOf(rests, length - 1, REST)}`)
  }
  return branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`
}

/**
 * A pattern of KEY_PATTERN but `words` in any case, without a lookaround: a key of another length
 * than a word's is any, and one of a word's length is none of the words of that length. The
 * published schemas carry it (the MCP tools' too), whose patterns use no lookaround (README,
 * MCP): the JSON Schema's recommended subset of regular expressions has none, and
 * `^(?!(?:check|…)$)…` was read by some validators and not others.
 */
export function keyPatternWithout(words: readonly string[]): string {
  const lengths = [...new Set(words.map((word) => word.length))].sort((a, b) => a - b)
  // The lengths no word has, as runs of REST after the first character: 1–4, 7–9, 11 and more.
  const free: string[] = []
  let from = 1
  for (const length of [...lengths, Infinity]) {
    if (length > from) free.push(length === Infinity ? times(from - 1) : times(from - 1, length - 2))
    from = length + 1
  }
  const first = characterClass(FIRST)
  const branches = [`${first}(?:${free.join('|')})`, ...lengths.map((length) => noneOf(words.filter((word) => word.length === length), length, FIRST))]
  return `^(?:${branches.join('|')})$`
}
