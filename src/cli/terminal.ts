/**
 * Text for a terminal: control characters other than line feeds and tabs written as `\u001b`,
 * visibly, instead of as themselves. What the commands print comes from others (a decision's
 * title and rationale are anyone's with a token, an imported ADR's are the repository's, a label
 * the agent's): an escape sequence there would run in the reader's terminal (rewrite what is
 * shown, retitle the window, set the clipboard with OSC 52).
 */
export function printable(text: string): string {
  // C0 but \t and \n, DEL, C1 (CSI is U+009B in some terminals).
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
