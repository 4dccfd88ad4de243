/**
 * A value sent by others (a context key or value) as this service's prose quotes it: control
 * characters other than line feeds and tabs, the bidirectional controls, and lone surrogates
 * written as `\u001b`, visibly. The prose reaches a terminal (an option's description the
 * PreToolUse hook passes to the picker, a hook's message), where an escape sequence would run, and
 * a lone surrogate is no text UTF-8 can carry. The same characters as the CLI's `printable`, and
 * lone surrogates besides, which no terminal output of the CLI holds.
 */
export function shownText(text: string): string {
  return text.replace(SHOWN_ESCAPED, escaped)
}

/**
 * What a terminal must not be given as itself: C0 but \t and \n, DEL, C1 (CSI is U+009B in some
 * terminals); and the bidirectional embeddings, overrides and isolates, which reorder what follows
 * on the line as shown (a label `\u202Eecrof-- hsup tig` reads as `git push --force`), while RTL
 * letters are left as they are. A character class's body.
 */
export const TERMINAL_CONTROLS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069'

const SHOWN_ESCAPED = new RegExp(`[${TERMINAL_CONTROLS}]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`, 'g')

/** A character as its `\u001b` escape. */
export function escaped(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}
