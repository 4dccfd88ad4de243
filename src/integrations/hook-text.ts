/**
 * What a hook prints to Claude Code as text (`systemMessage`, `additionalContext`,
 * `permissionDecisionReason`): Claude Code takes at most 10,000 characters of such a field inline;
 * over that it saves the field to a file and shows only a short preview and the file's path (its
 * hooks reference), where the command at the end of a message is lost.
 */

import { commandLine, shellWord } from '../config/bin-path'
import { DEFAULT_SERVICE_URL } from '../config/service-address'
import { printable } from '../terminal'

/**
 * The longest text field a hook prints, counted as JavaScript counts a string's length (UTF-16
 * units, never fewer than the characters Claude Code may count).
 */
export const HOOK_TEXT_LIMIT = 10_000

/** How much of a decision's rationale a hook's message quotes (a rationale may be 8,000 characters). */
export const RATIONALE_QUOTED = 500

/** The least of a long part kept when a message is cut to fit: fewer says nothing of it. */
const LEAST_KEPT = 40

const GRAPHEMES = new Intl.Segmenter('und', { granularity: 'grapheme' })

/**
 * The longest start of `text` of at most `units` UTF-16 units that ends between two characters as
 * a reader sees them (never within a surrogate pair, an emoji sequence or a letter and its accent).
 */
function startWithin(text: string, units: number): string {
  if (text.length <= units) return text
  // Each step of V8's segment iterator costs time by the length of the text it was given (see
  // limits.ts's leadingCharacters): the message of 1,000 stray answers took 2 s to cut, 7,000 a
  // minute and a half. A break at or before `units` is told by the characters up to the one after
  // it, which this head holds whole (two units: a surrogate pair).
  let end = 0
  for (const { segment, index } of GRAPHEMES.segment(text.slice(0, units + 2))) {
    if (index + segment.length > units) break
    end = index + segment.length
  }
  return text.slice(0, end)
}

/** How far before the end's first break endWithin reads: the characters that join one before them. */
const END_CONTEXT = 64

/** Whether the character at `at` is a regional indicator, half a flag (`🇫` of `🇫🇷`). */
function regionalAt(text: string, at: number): boolean {
  const code = text.codePointAt(at)
  return code !== undefined && code >= 0x1f1e6 && code <= 0x1f1ff
}

/** A character that joins the one before it: an accent, a virama, a skin tone, a zero-width joiner. */
const JOINING = /^[\p{M}\p{Grapheme_Extend}\p{Emoji_Modifier}\u200d]/u

/**
 * The longest end of `text` of at most `units` UTF-16 units, starting between two characters. Only
 * its tail is segmented (startWithin says why), from a little before: not within a surrogate pair,
 * nor within a run of characters joining one before them (an emoji, its accents, a joiner and the
 * emoji after are one; so are consonants joined by viramas, however many), nor at the second half
 * of a flag (the regional indicators before it are counted, as pairs are told from the start of
 * their run); a first segment there may still be cut short, so its break is not taken.
 */
function endWithin(text: string, units: number): string {
  if (text.length <= units) return text
  const from = text.length - units
  let start = Math.max(0, from - END_CONTEXT)
  const code = text.charCodeAt(start)
  if (start > 0 && code >= 0xdc00 && code <= 0xdfff) start -= 1
  while (start > 0 && JOINING.test(text.slice(start, start + 2))) {
    const low = text.charCodeAt(start - 1)
    start -= start > 1 && low >= 0xdc00 && low <= 0xdfff ? 2 : 1
  }
  if (regionalAt(text, start)) {
    let before = 0
    for (let at = start - 2; at >= 0 && regionalAt(text, at); at -= 2) before++
    if (before % 2 === 1) start -= 2
  }
  for (const { index } of GRAPHEMES.segment(text.slice(start))) {
    if ((index > 0 || start === 0) && start + index >= from) return text.slice(start + index)
  }
  return ''
}

/**
 * A part of a message that may be cut when the message is too long: a question's text, a
 * decision's rationale. `said` is the part as the message has it; `cut(n)` keeps its first `n`
 * units, with what must stay said after them (where the whole rationale is).
 */
export interface LongPart {
  said: string
  cut(units: number): string
}

/** A question's text (or any text quoted whole) as a part a message may cut. */
export function textPart(text: string): LongPart {
  return { said: text, cut: (units) => `${startWithin(text, units)}…` }
}

/**
 * What a command printed for a new shell says before itself so that it reaches the service at
 * `serviceUrl`: nothing for the default address, else `DECISION_MEMORY_URL=<its origin> ` (no path,
 * no user or password; a token is never printed).
 */
export function serviceUrlPrefix(serviceUrl: string | undefined): string {
  const origin = serviceUrl === undefined ? DEFAULT_SERVICE_URL : new URL(serviceUrl).origin
  return origin === DEFAULT_SERVICE_URL ? '' : `DECISION_MEMORY_URL=${shellWord(origin)} `
}

/**
 * Where a decision's whole rationale is, said after a rationale cut short: a command that runs as
 * printed (this checkout's bin by path, `decision-memory` being on no PATH; `where`, the service's
 * address as serviceUrlPrefix says it).
 */
function wholeRationale(key: string, where: string): string {
  return ` (the whole rationale: ${where}${commandLine(['why', key])})`
}

/**
 * A decision's rationale as a hook's message quotes it: whole up to RATIONALE_QUOTED units, else
 * its start, `…` and the command that prints the whole.
 */
export function rationaleQuoted(key: string, rationale: string, where = ''): string {
  return rationale.length <= RATIONALE_QUOTED ? rationale : `${startWithin(rationale, RATIONALE_QUOTED)}…${wholeRationale(key, where)}`
}

/** A decision's rationale, as rationaleQuoted says it, as a part a message may cut further. */
export function rationalePart(key: string, rationale: string, where = ''): LongPart {
  return { said: rationaleQuoted(key, rationale, where), cut: (units) => `${startWithin(rationale, units)}…${wholeRationale(key, where)}` }
}

/** `text` with each part longer than `units` cut to that many, the longest first. */
function partsCut(text: string, parts: readonly LongPart[], units: number): string {
  let out = text
  for (const part of parts) {
    const cut = part.cut(units)
    if (cut.length < part.said.length) out = out.split(part.said).join(cut)
  }
  return out
}

/**
 * `text` within HOOK_TEXT_LIMIT, as it is when it fits. Else its long parts (rationales, question
 * texts) are cut, the longest first and each to the same length, as little as makes it fit; where
 * even that does not, its middle is left out, so that its beginning (what was decided or blocked)
 * and its end (the command to run) are always said.
 */
export function withinHookLimit(text: string, parts: readonly LongPart[] = [], limit = HOOK_TEXT_LIMIT): string {
  // Claude Code prints such a field to the user's terminal, and a question's text or a rationale
  // is anyone's: its control characters are shown escaped (printable), as the CLI shows them, lest
  // an escape sequence run there; the parts are escaped alike, so that the text still holds them.
  return fittedWithin(
    printable(text),
    parts.map((p) => ({ said: printable(p.said), cut: (units: number) => printable(p.cut(units)) })),
    limit,
  )
}

/** withinHookLimit of text already shown as printed. */
function fittedWithin(text: string, parts: readonly LongPart[], limit: number): string {
  if (text.length <= limit) return text
  // Only parts the text holds, and long enough to be worth cutting; the longest first, so that a
  // part inside another is not cut before the one that holds it.
  const long = parts
    .filter((p, i) => p.said.length > LEAST_KEPT && parts.findIndex((q) => q.said === p.said) === i && text.includes(p.said))
    .sort((a, b) => b.said.length - a.said.length)
  let fitted: string | undefined
  let low = LEAST_KEPT
  let high = long[0]?.said.length ?? 0
  while (low <= high) {
    const units = Math.floor((low + high) / 2)
    const candidate = partsCut(text, long, units)
    if (candidate.length <= limit) {
      fitted = candidate
      low = units + 1
    } else {
      high = units - 1
    }
  }
  if (fitted !== undefined) return fitted
  return middleLeftOut(partsCut(text, long, LEAST_KEPT), limit)
}

/** `text`'s beginning and end, within `limit`, its middle left out and said so. */
function middleLeftOut(text: string, limit: number): string {
  if (text.length <= limit) return text
  const gap = ' […] '
  const head = startWithin(text, Math.ceil((limit - gap.length) / 2))
  const tail = endWithin(text, limit - gap.length - head.length)
  return `${head}${gap}${tail}`
}
