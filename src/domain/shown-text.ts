/**
 * A value sent by others (a context key or value) as this service's prose quotes it: control
 * characters other than line feeds and tabs, the bidirectional controls, and lone surrogates
 * written as `\u001b`, visibly. The prose reaches a terminal (an option's description the
 * PreToolUse hook passes to the picker, a hook's message), where an escape sequence would run, and
 * a lone surrogate is no text UTF-8 can carry. The same characters as the CLI's `printable`, and
 * besides lone surrogates, which no terminal output of the CLI holds, and QUOTED_MARKS.
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

/**
 * What a quoted value must not hold as itself either, though the CLI's prose keeps them: the
 * direction marks U+200E, U+200F and U+061C, which show nothing (`"alice\u200f"` looked like
 * `"alice"`) and set the direction of the quote marks and punctuation beside them where right-to-left
 * text is near, so that a terminal or log viewer orders the message otherwise than it was written;
 * and the line and paragraph separators U+2028 and U+2029, at which a log viewer or an editor breaks
 * the one line the message is. A quoted value is a sent one, not prose: escaped, it is still the
 * value to read, where the CLI's `printable` prose (a decision's rationale) keeps its marks.
 */
const QUOTED_MARKS = '\\u061c\\u200e\\u200f\\u2028\\u2029'

const SHOWN_ESCAPED = new RegExp(`[${TERMINAL_CONTROLS}${QUOTED_MARKS}]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`, 'g')

/** A character as its `\u001b` escape. */
export function escaped(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}
