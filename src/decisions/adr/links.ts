/*
 * Markdown links found as the patterns beginning `\[[^\]]*\]` found them, in one pass. Those
 * patterns were tried from every `[` and scanned to the next `]` from each, and a tail that failed
 * (`\([^)]*\)` with no `)` after it) scanned to the text's end from every one: a record holding
 * 100,000 `[` took 20 seconds to read. Every `[` before one `]` ends its bracket at that `]`, so
 * the first of them is the only start a match there may have; the search goes on after the `]`.
 */

/** The first index of `char` at `from` or after, for a `from` that never goes back: each character is looked at once. */
function nextOf(text: string, char: string): (from: number) => number {
  let at = -2
  return (from) => {
    if (at !== -1 && at < from) at = text.indexOf(char, from)
    return at
  }
}

/** Whether a character is white space as `\s` reads one. */
const isSpace = (char: string | undefined): boolean => char !== undefined && /\s/.test(char)

/**
 * The first inline link, `[text](target)` or `[text](<target>)`, as
 * `/\[([^\]]*)\]\((?:<([^>\n]*)>|([^)\s]+))[^)]*\)/` found it: its text, and its target in angle
 * brackets (`angled`) or not (`bare`); else undefined.
 */
export function inlineLink(text: string): { text: string; angled?: string; bare?: string } | undefined {
  // Either target needs a `)` after its first character.
  const lastParen = text.lastIndexOf(')')
  for (let open = text.indexOf('['); open !== -1; ) {
    const close = text.indexOf(']', open + 1)
    if (close === -1) return undefined
    const at = close + 2
    if (text[close + 1] === '(' && at < lastParen) {
      const label = text.slice(open + 1, close)
      if (text[at] === '<') {
        const end = /[>\n]/g
        end.lastIndex = at + 1
        const angle = end.exec(text)
        if (angle?.[0] === '>' && text.indexOf(')', angle.index + 1) !== -1) return { text: label, angled: text.slice(at + 1, angle.index) }
      }
      // A target not in angle brackets (`<` too, where they do not close): to the first `)` or white space.
      if (text[at] !== ')' && !isSpace(text[at])) {
        const bare = /[^)\s]+/y
        bare.lastIndex = at
        return { text: label, bare: (bare.exec(text) as RegExpExecArray)[0] }
      }
    }
    open = text.indexOf('[', close + 1)
  }
  return undefined
}

/**
 * The first bracket and the one right after it, if any (`[text][label]`, `[text] [label]`, `[label]`),
 * as `/\[([^\]]*)\](?:\s?\[([^\]]*)\])?/` found them; else undefined.
 */
export function referenceLink(text: string): { text: string; label?: string } | undefined {
  const open = text.indexOf('[')
  const close = open === -1 ? -1 : text.indexOf(']', open + 1)
  // With no `]` after the first `[`, there is none after any later one either.
  if (close === -1) return undefined
  const second = isSpace(text[close + 1]) ? close + 2 : close + 1
  const end = text[second] === '[' ? text.indexOf(']', second + 1) : -1
  return { text: text.slice(open + 1, close), ...(end === -1 ? {} : { label: text.slice(second + 1, end) }) }
}

/**
 * Each link of a text, inline (`[20. Use X](0020-use-x.md)`) or by reference (`[ADR 20][adr20]`),
 * or a bracket alone (`[ADR 20]`), as written, as `/\[[^\]]*\](?:\([^)]*\)|\s?\[[^\]]*\])?/g` found them.
 */
export function linksIn(text: string): string[] {
  const links: string[] = []
  const nextParen = nextOf(text, ')')
  const nextBracket = nextOf(text, ']')
  for (let from = 0; ; ) {
    const open = text.indexOf('[', from)
    const close = open === -1 ? -1 : nextBracket(open + 1)
    if (close === -1) return links
    let end = close + 1
    if (text[close + 1] === '(') {
      const paren = nextParen(close + 2)
      if (paren !== -1) end = paren + 1
    } else {
      const second = isSpace(text[close + 1]) ? close + 2 : close + 1
      const bracket = text[second] === '[' ? nextBracket(second + 1) : -1
      if (bracket !== -1) end = bracket + 1
    }
    links.push(text.slice(open, end))
    from = end
  }
}

/**
 * A text with each link and image written as its text (`[pg](https://…)`, `![logo](x.png)` and
 * `[pg][ref]` → `pg`), as `.replace(/!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, '$1')` wrote it: a
 * bracket with neither a target nor a label right after it is left as it is.
 */
export function linksAsText(text: string): string {
  let out = ''
  let from = 0
  const nextParen = nextOf(text, ')')
  const nextBracket = nextOf(text, ']')
  for (let open = text.indexOf('['); open !== -1; ) {
    const close = nextBracket(open + 1)
    if (close === -1) break
    const tail = text[close + 1] === '(' ? nextParen(close + 2) : text[close + 1] === '[' ? nextBracket(close + 2) : -1
    if (tail !== -1) {
      const start = open > from && text[open - 1] === '!' ? open - 1 : open
      out += text.slice(from, start) + text.slice(open + 1, close)
      from = tail + 1
      open = text.indexOf('[', from)
    } else open = text.indexOf('[', close + 1)
  }
  return out + text.slice(from)
}
