import { escaped, TERMINAL_CONTROLS } from './domain/shown-text'

/**
 * Text for a terminal: control characters other than line feeds and tabs, and the bidirectional
 * controls, written as `\u001b`, visibly, instead of as themselves. What the commands print comes
 * from others (a decision's title and rationale are anyone's with a token, an imported ADR's are the repository's, a label
 * the agent's): an escape sequence there would run in the reader's terminal (rewrite what is
 * shown, retitle the window, set the clipboard with OSC 52).
 */
export function printable(text: string): string {
  return text.replace(PRINTABLE_ESCAPED, escaped)
}

const PRINTABLE_ESCAPED = new RegExp(`[${TERMINAL_CONTROLS}]`, 'g')

/**
 * Text for one line of a terminal: printable, a line feed or tab written as `\n` or `\t`, as a
 * quoted name writes them (shownName), and the line and paragraph separators U+2028 and U+2029 as
 * `\u2028`, as shownText writes them. A usage error quotes what was typed (a flag, a value, a
 * command's name): a line feed there would start a line the message never wrote, and a separator
 * one in a log viewer or an editor.
 */
export function printableLine(text: string): string {
  return printable(text.replace(/[\n\t\u2028\u2029]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : escaped(c))))
}

/**
 * JSON text with DEL and the C1 controls (U+007F–U+009F) written as `\u009b`: JSON.stringify
 * escapes C0 but leaves these raw, and a terminal that shows the output (`--json`, an export not
 * redirected) reads U+009B as CSI. The escape is the same JSON value to any parser, and valid
 * wherever it appears: outside strings, JSON has no such characters.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** One value as a line of JSON for stdout (`--json`), terminal-safe (terminalSafeJson). */
export function jsonLine(value: unknown): string {
  return terminalSafeJson(JSON.stringify(value)) + '\n'
}
