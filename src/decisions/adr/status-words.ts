import { isCalendarDate, type DecisionStatus } from '../decision'
import { linkTarget, type LinkDefinitions } from './markdown'

/**
 * The words decision records use for a status, mapped to the lifecycle (R-CON-1): adr-tools
 * writes `Accepted`, `Proposed`, `Superceded by [...]`; MADR and log4brains `accepted`, `draft`,
 * `rejected`, `deprecated`, `superseded by ...`. A rejected proposal is `revoked`.
 */
const WORDS: Array<[RegExp, DecisionStatus]> = [
  [/^(accepted|approved|adopted|agreed|decided|active|implemented)\b/, 'accepted'],
  [/^(proposed|draft|pending|open|in review|under review|suggested)\b/, 'proposed'],
  [/^(superseded|superceded)\b/, 'superseded'],
  [/^(deprecated|obsolete|retired)\b/, 'deprecated'],
  [/^(rejected|revoked|withdrawn|declined|abandoned)\b/, 'revoked'],
]

/** Status badges before the word: emoji and symbols, with their variation selectors, joiners and skin tones. */
const BADGE = /^[\p{Extended_Pictographic}\p{So}\p{Emoji_Modifier}\uFE0F\u200D\s]+/u

/** What one status line says: a status, and the links it carries. */
export interface StatusLine {
  status?: DecisionStatus
  /** "Superseded by X": the target named (a file name or a key). */
  supersededBy?: string
  /** "Supersedes X" (adr-tools writes "Supercedes"). */
  supersedes?: string
}

/**
 * Reads a status line; undefined when it says nothing known. Lines that link without changing
 * the status (adr-tools' `Amended by`, `Clarified by`, `Extends`, any link type) read as `{}`. A reference link
 * (`Superseded by [ADR 5][adr5]`) is resolved with the record's `definitions`.
 */
export function readStatusLine(text: string, definitions?: LinkDefinitions): StatusLine | undefined {
  const plain = text
    .replace(/^\s*[-*+]\s+/, '')
    // Emphasis and code marks; an underscore inside a word (`0005_use_x.md`) is none (CommonMark).
    .replace(/[*`]/g, '')
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, '$1')
    // A mark before the word, as status badges are written (`✅ Accepted`, `⚠️ Deprecated`,
    // `🟡 Proposed`), inside the emphasis it may be in (`**✅ Accepted**`).
    .replace(BADGE, '')
    .trim()
  const words = plain.replace(/^\[|\]$/g, '').replace(BADGE, '').toLowerCase()
  const superseded = /^(?:superseded|superceded|replaced)\s+by\s*:?\s*(.+)$/i.exec(plain)
  if (superseded !== null) return { status: 'superseded', supersededBy: linkTarget(superseded[1] as string, definitions) }
  const supersedes = /^(?:supersedes|supercedes|replaces)\s*:?\s*(.+)$/i.exec(plain)
  if (supersedes !== null) return { supersedes: linkTarget(supersedes[1] as string, definitions) }
  const withLink = statusWithLink(plain, definitions)
  if (withLink !== undefined) return withLink
  if (/^(amended by|amends|clarified by|clarifies)\b/.test(words)) return {}
  for (const [pattern, status] of WORDS) if (pattern.test(words)) return { status }
  // adr-tools writes a line per link of any type its user names (`adr new -l "3:Extends:Extended
  // by"`, `adr link`): words and a link to another record, which change no status.
  if (/^[a-z][a-z -]*\s\[[^\]]*\](?:\([^)]*\)|\s?\[[^\]]*\])?$/i.test(plain)) return {}
  return undefined
}

/** A link word after a status on its line: `Accepted, Supersedes [...]`, `Deprecated; superseded by [...]`. */
const LINK_AFTER_STATUS = /^(.+?)\s*(?:[,;:.(\u2014\u2013]|\s-|\s)\s*((?:superseded|superceded|replaced)\s+by\b|supersedes\b|supercedes\b|replaces\b)(.*)$/i

/** What names a record after a link word in the middle of a line: a Markdown link, a key (`ADR-0002`, `ADR 2`, `D-004`) or a file. */
const NAMED_RECORD = /\[[^\]]*\]|\bADR[-_\s]*\d{1,5}\b|\b[A-Z][A-Z0-9]*-\d+\b|[^\s()]+\.md\b/i

/**
 * A status and a supersede link on one line (`Accepted, Supersedes [2. Use X](0002-use-x.md)`), as
 * people write them when they merge the lines adr-tools writes apart. A "Superseded by" makes it
 * superseded, as on a line of its own. Only a link that names a record is one: `Accepted, replaces the
 * manual process` is a status with words after it.
 */
function statusWithLink(plain: string, definitions?: LinkDefinitions): StatusLine | undefined {
  const match = LINK_AFTER_STATUS.exec(plain)
  if (match === null) return undefined
  const rest = match[3] as string
  const named = NAMED_RECORD.exec(rest)
  const head = readStatusLine(match[1] as string, definitions)
  if (named === null || head?.status === undefined) return undefined
  const target = named[0].startsWith('[') ? linkTarget(rest, definitions) : named[0]
  return /\bby$/i.test(match[2] as string)
    ? { ...head, status: 'superseded', supersededBy: target }
    : { ...head, supersedes: target }
}

/** A record's date as `YYYY-MM-DD`: from `2024-03-04`, `2024/03/04`, `20240304` or an ISO time. */
export function readDate(text: string): string | undefined {
  const match = /^\s*(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\s*$/.exec(text)
  if (match === null) return undefined
  const day = `${match[1]}-${match[2]}-${match[3]}`
  return isCalendarDate(day) ? day : undefined
}
