import { createHash } from 'node:crypto'
import { contentHash, DecisionKeySchema, type DecisionStatus } from '../decision'
import { fieldOf, filled, headingName, withAtxHeadings, isLinkDefinition, linkDefinitions, numbered, parseRecord, sectionNamed, slug, textOf, titleWithoutNumber, type Line, type LinkDefinitions, type MarkdownRecord, type Section } from './markdown'
import { UnreadableRecord, readDateField, readDateFields, readEnforce, type LinkRef, type ParsedRecord, type RecordFile, type UnreadDate } from './parsed-record'
import { madrBody } from './madr'
import { CONTEXT_SECTION, DATE_SECTIONS, DECISION_SECTION, RATIONALE_SECTION, STATUS_FIELD, STATUS_NAME, dateFieldsOf } from './field-names'
import { readStatusLine, statusesSaid, SUCCESSOR_PLACEHOLDER, unreadDateMessage, type StatusLine } from './status-words'
import { quoted, shortList } from './quoted-value'

/**
 * A date-named record file, `yyyymmdd-slug.md` (log4brains) or `yyyy-mm-dd-slug.md`: the date's
 * year, month and day, else null.
 */
export function dateOfFileName(name: string): [string, string, string] | null {
  // The dashed form only with a year and a month and day that can be one: a numbered record
  // whose title begins with two numbers (`0003-64-32-bit-builds.md`) is record 3, not a date.
  const named = /^(\d{4})(\d{2})(\d{2})-/.exec(name) ?? /^((?:19|20)\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])-/.exec(name)
  return named === null ? null : [named[1] as string, named[2] as string, named[3] as string]
}

/** The day a date-named record file is named by, as a date field at line 1, else undefined. */
function fileNameDate(name: string): { value: string; line: number } | undefined {
  const named = dateOfFileName(name)
  return named === null ? undefined : { value: named.join('-'), line: 1 }
}

/**
 * The key of a record file: `NNNN-slug.md` → `ADR-NNNN`; a date-named `yyyymmdd-slug.md` or
 * `yyyy-mm-dd-slug.md` keeps its name (its year is no record number: two records of one year
 * would otherwise share a key), as does a name with neither.
 */
export function keyOfFile(name: string): string {
  const stem = name.replace(/\.md$/i, '')
  const numberedName = dateOfFileName(stem) === null ? /^(\d{1,5})-/.exec(stem) : null
  return numberedName === null ? keyOfName(stem) : numberKey(numberedName[1] as string)
}

/** The key of a record by its number as its file writes it: `0013`, `013` and `13` are `ADR-0013`, `00013` is `ADR-00013`. */
function numberKey(digits: string): string {
  return `ADR-${digits.padStart(4, '0')}`
}

/**
 * A record's number written in its file's name otherwise than `NNNN-slug.md`: before a slug
 * (`ADR-0013-use-x.md`, `adr-2-use-y.md`, `ADR-013_use_z.md`, `0005_use_e.md`), or alone after
 * `ADR` (`ADR-001.md`, `adr-3.md`, as many folders name their records with no slug). With spaces
 * too, as records written on Windows or by hand are named (`ADR 001 - Use X.md`, `ADR-001 Use
 * X.md`, `ADR 12 Use Postgres.md`, `0004 Use Y.md`, `ADR 003.md`): keyed by a hash of the name, a
 * version before this left `why ADR-0012` finding nothing. A file named by its number alone
 * without `ADR`, `404.md`, is no record named so.
 */
const OTHER_NUMBERED = /^(?:adr[-_ ]?)?(\d{1,5})[-_ ]|^adr[-_ ]?(\d{1,5})\.md$/i

/** The digits of a record's number a file's name writes otherwise than `NNNN-slug.md` (OTHER_NUMBERED), else undefined (a date-named file too). */
function otherNumber(name: string): string | undefined {
  const other = dateOfFileName(name) === null ? OTHER_NUMBERED.exec(name) : null
  return other === null ? undefined : (other[1] ?? other[2])
}

/**
 * The key by its number of a file numbered in another form than `NNNN-slug.md` (`ADR-0013-use-x.md`,
 * `adr-2-use-y.md`, `ADR-013_use_z.md`, `0005_use_e.md`, `ADR-001.md`, `ADR 12 Use X.md`), written as keyOfFile writes
 * adr-tools' (`ADR-0013`, `ADR-0002`, `ADR-0013`, `ADR-0005`, `ADR-0001`); undefined for any other
 * name, and for one keyOfFile keys so already. Whether the file takes it is its folder's to say (see
 * readRecordFolder): keyOfFile keeps the whole name.
 */
export function numberKeyOfFile(name: string): string | undefined {
  const digits = otherNumber(name)
  const key = digits === undefined ? undefined : numberKey(digits)
  return key === keyOfFile(name) ? undefined : key
}

/**
 * The record number a file's name gives (`0006-use-x.md` → 6, and in the other forms a link finds
 * it by, `ADR-002-use-b.md` → 2, `0005_use_e.md` → 5, `adr-3.md` → 3), else undefined (a date-named file).
 */
export function numberOfFile(name: string): number | undefined {
  const key = /^ADR-(\d+)$/.exec(keyOfFile(name))
  if (key !== null) return Number(key[1])
  const digits = otherNumber(name)
  return digits === undefined ? undefined : Number(digits)
}

/**
 * A file name kept as a key, or, when it holds what a key cannot (letters of a script other than
 * Latin, accents, spaces: `20240101-データベースの選定`), its slug and 8 hex digits of a hash of the
 * name (in NFC, which macOS may not give), so that the record can be stored, and two such names
 * that slug alike (`20240101-`) still have keys of their own. So is a name too long for a key, or
 * one the API reserves (`check.md`: `/v1/decisions/check` is no decision's).
 */
function keyOfName(stem: string): string {
  if (DecisionKeySchema.safeParse(stem).success) return stem
  const slugged = slug(stem, 50)
  const digest = createHash('sha256').update(stem.normalize('NFC')).digest('hex').slice(0, 8)
  return slugged === '' ? digest : `${slugged}-${digest}`
}

/** Words of a decision's lifecycle in a note, which may change the status read beside it. */
const LIFECYCLE_NOTE =
  /\b(?:accepted|approved|proposed|superse[dc]ed|deprecated|obsolete|retired|rejected|revoked|withdrawn|declined|abandoned|cancell?ed|discarded|disprove[nd]|refuted|revert(?:ed)?|rolled back|reversed|replaced|overturned)\b/i

/**
 * A status read from status lines (adr-tools' `## Status` section holds one per line): a
 * "Superseded by" link makes it superseded whatever else is written; otherwise the first status
 * word counts, or in a status log (a day on each line) the latest day's. Links in either direction are kept; reference links are resolved with the
 * record's `definitions`, and the definitions themselves are no status. A line that says no status
 * (a note under it: `We discussed this with the platform team.`) is passed over, and returned in
 * `passedOver` to be said, when another line names the status; with none, it is an unknown status.
 * A day written with a status after `lastDay` (the reader's tomorrow), when given, is no day of it, and said.
 */
export function statusOfLines(lines: readonly Line[], where: number, definitions?: LinkDefinitions, lastDay?: string): {
  status: DecisionStatus
  supersedes: LinkRef | null
  supersededBy: LinkRef | null
  /**
   * The day written with the status that holds (`Accepted on 2020-05-05`), else the first day
   * written with a status: the record's date when it writes no other.
   */
  date: string | null
  /** The lines that say no status, passed over since another line names one. */
  passedOver: Line[]
  /** Links left out, as a decision links one successor and one predecessor, and days that cannot be read: said at their lines. */
  notes: Array<{ line: number; message: string; date?: UnreadDate }>
} {
  let status: DecisionStatus | undefined
  const unread: Line[] = []
  let supersedes: LinkRef | null = null
  let supersededBy: LinkRef | null = null
  let date: string | null = null
  // The status of the latest day, of the lines that write one (a status log).
  let latest: { status: DecisionStatus; date: string } | undefined
  const notes: Array<{ line: number; message: string; date?: UnreadDate }> = []
  for (const line of filled(lines)) {
    if (isLinkDefinition(line.text)) continue
    const written = readStatusLine(line.text, definitions)
    if (written === undefined) {
      unread.push(line)
      continue
    }
    // A day after tomorrow (`Accepted on 2099-01-01`) is read as one that cannot be, and said.
    const late = written.date !== undefined && lastDay !== undefined && written.date > lastDay
    const dated: StatusLine = late ? { ...written, date: undefined } : written
    // `Superseded by: none` (`-`, `N/A`), a template's line left beside the status, names no
    // successor: no reason to stop enforcing the decision, as in MADR. The link is still said.
    const placeholder = dated.status === 'superseded' && dated.supersededBy !== undefined && SUCCESSOR_PLACEHOLDER.test(dated.supersededBy.trim())
    const read: StatusLine = placeholder ? { ...dated, status: undefined } : dated
    notes.push(...moreLinksNoted(read, line.n))
    // Said once the record's date is known (unreadDateProblems): another field may date it.
    if (read.unreadDate !== undefined) notes.push({ line: line.n, message: unreadDateMessage(read.unreadDate), date: { text: read.unreadDate, line: line.n } })
    if (late) notes.push({ line: line.n, message: unreadDateMessage(written.date as string, lastDay), date: { text: written.date as string, line: line.n, latest: lastDay as string } })
    // Two lines each naming a successor (or a predecessor): the last is linked, as before, and the others said.
    if (read.supersededBy !== undefined && supersededBy !== null && supersededBy.target !== read.supersededBy) {
      notes.push({ line: supersededBy.line, message: `Superseded by is written again at line ${line.n}; a decision links one, so only ${quoted(read.supersededBy)} is linked` })
    }
    if (read.supersedes !== undefined && supersedes !== null && supersedes.target !== read.supersedes) {
      notes.push({ line: supersedes.line, message: `Supersedes is written again at line ${line.n}; a decision links one, so only ${quoted(read.supersedes)} is linked` })
    }
    if (read.supersededBy !== undefined) supersededBy = { target: read.supersededBy, line: line.n }
    if (read.supersedes !== undefined) supersedes = { target: read.supersedes, line: line.n }
    if (read.status !== undefined && (status === undefined || read.status === 'superseded')) status = read.status
    date ??= read.date ?? null
    if (read.status !== undefined && read.date !== undefined && (latest === undefined || read.date >= latest.date)) latest = { status: read.status, date: read.date }
  }
  // A note that speaks of the lifecycle (`Later rejected by the security review.`, `Reverted on
  // 2024-05-01 after the outage.`) may say the status no longer holds: not passed over, but unread,
  // as before, rather than the record imported with the status the note takes back.
  const first = status === undefined ? unread[0] : unread.find((l) => LIFECYCLE_NOTE.test(l.text))
  if (first !== undefined) {
    const words = first.text.replace(/[[\]*`]/g, '').replace(/^\s*[-+]\s+/, '').trim().toLowerCase()
    throw new UnreadableRecord(first.n, `unknown status ${quoted(first.text.trim())}` + statusesSaid(words))
  }
  if (status === undefined) throw new UnreadableRecord(where, 'the status section names no status')
  // A status log, each step on a line with its day (`2020-01-10 Proposed`, `2020-02-01 Accepted`):
  // the latest step holds, with its day, as the last of `Proposed → Accepted` does; the first
  // would import an accepted record as a proposal nothing enforces. A "Superseded by" still wins.
  if (latest !== undefined && status !== 'superseded') return { status: latest.status, supersedes, supersededBy, date: latest.date, passedOver: unread, notes }
  return { status, supersedes, supersededBy, date, passedOver: unread, notes }
}

/**
 * What a status line names beyond the one record a link holds (`Superseded by ADR-0020 and
 * ADR-0025`): said, as a front matter's list of several is, rather than left out in silence.
 */
export function moreLinksNoted(read: StatusLine, line: number): Array<{ line: number; message: string }> {
  const said = (word: string, first: string | undefined, more: readonly string[] | undefined) =>
    more === undefined || first === undefined
      ? []
      : [{ line, message: `${word} names ${more.length + 1} records (${shortList([first, ...more])}); a decision links one, so only the first is linked` }]
  return [...said('Superseded by', read.supersededBy, read.moreSupersededBy), ...said('Supersedes', read.supersedes, read.moreSupersedes)]
}

/**
 * The links a record whose status is written elsewhere (MADR's front matter, a `- Status:` bullet)
 * writes as adr-tools does, each on a line of its own (`Supersedes [4. Use X](0004-use-x.md)`,
 * `Superseded by ADR-0006`): under its title, in a `## Status` section, or in a `## Links` one. The first of each, else null.
 */
export function linksInBody(
  record: MarkdownRecord,
  definitions: LinkDefinitions,
): { supersedes: LinkRef | null; supersededBy: LinkRef | null; notes: Array<{ line: number; message: string }> } {
  // And in a `## Links` section, where the MADR 2 template lists them (`* Supersedes [ADR-0001](0001-….md)`).
  // And in Tyree and Akerman's `## Related decisions` section, where that template names them.
  const lines = [
    ...record.preamble,
    ...(sectionNamed(record, STATUS_HEADING)?.body ?? []),
    ...(sectionNamed(record, LINKS_HEADING)?.body ?? []),
    ...(sectionNamed(record, RELATED_HEADING)?.body ?? []),
  ]
  let supersedes: LinkRef | null = null
  let supersededBy: LinkRef | null = null
  const notes: Array<{ line: number; message: string }> = []
  for (const line of filled(lines)) {
    // Only a link, or a record named in one word: a line of prose under the title ("Replaces the
    // nightly cron job with a queue.") is no supersede, and would be warned of as a link to nothing.
    if (isLinkDefinition(line.text) || !LINK_ALONE.test(line.text.replace(/[*_`]/g, ''))) continue
    const read = readStatusLine(line.text, definitions)
    // The first of each is linked: what else its line names is said.
    if (read !== undefined) {
      const taken: StatusLine = {
        ...(supersedes === null ? { supersedes: read.supersedes, moreSupersedes: read.moreSupersedes } : {}),
        ...(supersededBy === null ? { supersededBy: read.supersededBy, moreSupersededBy: read.moreSupersededBy } : {}),
      }
      notes.push(...moreLinksNoted(taken, line.n))
    }
    if (read?.supersedes !== undefined) supersedes ??= { target: read.supersedes, line: line.n }
    if (read?.supersededBy !== undefined) supersededBy ??= { target: read.supersededBy, line: line.n }
  }
  return { supersedes, supersededBy, notes }
}

/**
 * A supersede word (with its "by") and then a link (`[4. Use X](0004-use-x.md)`, `[ADR-0004]`) or
 * one word (`ADR-0004`), as adr-tools writes it.
 */
const LINK_ALONE = /^\s*(?:[-+]\s+)?\p{L}+(?:\s+by)?\s*:?\s*(?:\[.*|\S+)\s*$/iu

/** The heading of MADR 2's section of links to other records: `## Links`, `## Links <!-- optional -->`. */
const LINKS_HEADING = /^links\s*(?:<!--.*?-->\s*)?$/i

/** Tyree and Akerman's section of the decisions a record relates to: `## Related decisions`. */
const RELATED_HEADING = /^related\s+decisions?\s*(?:<!--.*?-->\s*)?$/i

/** A status section's heading: `Status`, or `Status: Accepted`, as some teams write it on one line. */
const STATUS_HEADING = new RegExp(String.raw`^(?:\*\*|__)?${STATUS_NAME}(?:\*\*|__)?(?:\s*:(?:\*\*|__)?|\s+[-\u2013\u2014]\s+|\s*$)`, 'i')

/**
 * How deep a record writes its status heading: 2 for `## Status`, else 3 or 4 for a record that
 * writes its sections one or two levels down (`### Status`, `### Context`, as some templates and
 * wikis do), whose sections are then read at that depth too.
 */
export function statusHeadingLevel(text: string): number {
  const levels = [...withAtxHeadings(text).matchAll(STATUS_HEADING_LINE)].map((m) => (m[1] as string).length)
  return levels.length === 0 ? 2 : levels.reduce((least, level) => Math.min(least, level))
}

/**
 * A status heading at level 2 to 4 (`## Status`, `### **Status:** Accepted`). Its closing `#`s are
 * `\s+#+`, one at least, as bodyFormatOf's STATUS_SECTION has them: `\s+#*` then `\s*$` tried
 * every split of the white space after `Status`, and a heading over 100,000 spaces and a word took
 * half a minute; white space alone is what `\s*$` reads, to the same end.
 */
export const STATUS_HEADING_LINE = new RegExp(String.raw`^(#{2,4})\s+(?:[\p{Extended_Pictographic}\uFE0F\u200D]+[ \t]*)?(?:\*\*|__)?${STATUS_NAME}(?:\*\*|__)?(?:\s*:.*|\s+[-\u2013\u2014]\s+.*|\s+#+)?\s*$`, 'gimu')

/**
 * The status lines of a status section: what its heading says after `Status:`, then the lines under
 * it. Some records write fields there (`Status: Accepted`, `Date: …`, `Deciders: …`): the `Status`
 * field's value is a status line, and the other fields say no status, unless they are one
 * (`Superseded by: ADR 5`).
 */
function statusLinesOf(section: Section): Line[] {
  const inHeading = headingName(section.heading).replace(STATUS_HEADING, '').trim()
  const lines = inHeading === '' ? section.body : [{ n: section.line, text: inHeading }, ...section.body]
  return lines.flatMap((line) => {
    const field = fieldOf([line], STATUS_FIELD)
    if (field !== undefined) return [{ n: line.n, text: field.value }]
    return fieldOf([line], /./) !== undefined && readStatusLine(line.text) === undefined ? [] : [line]
  })
}

/**
 * The evidence an imported record keeps: the file it came from and the hash of its text, with its
 * line endings as git stores them (LF): a clone checked out with CRLF (core.autocrlf) holds the
 * same record, and importing it after an LF clone must change nothing.
 */
export function fileEvidence(file: RecordFile, format: string, text: string, extra = ''): ParsedRecord['evidence'] {
  return [{ kind: 'decision-record', summary: `${format} record ${file.path}${extra}`, uri: file.path, hash: contentHash(text.replace(/\r\n?/g, '\n')) }]
}

/**
 * The reasons of a Y-statement (`In the context of …, facing …, we decided for X and neglected Y,
 * to achieve …, accepting …, because …`), written as a record's decision: what it says from "to
 * achieve" (else from "because") on, the half of the sentence that says why. Else '' (a Nygard
 * record's decision, whose "because" is no part of its rationale: its context is).
 */
export function yStatementReasons(decision: string): string {
  // In its first paragraph, with the emphasis some put on its words (`**In the context of**`) left out.
  const first = (decision.split(/\n\s*\n/)[0] ?? '').replace(/\*\*|__/g, '').replace(/\s+/g, ' ').trim()
  const decided = /^\W*in the context of\b[\s\S]*?\bwe(?: have)? decided\b([\s\S]*)$/i.exec(first)?.[1]
  if (decided === undefined) return ''
  return /\b(?:to achieve|because)\b[\s\S]*$/i.exec(decided)?.[0].trim() ?? ''
}

/**
 * An adr-tools record (Nat Pryce's `adr new`): `# N. Title`, `Date: YYYY-MM-DD` (or none), then `## Status`
 * (or `## Status: Accepted`) and its lines (`Accepted`, `Proposed`, `Superceded by [N. Title](NNNN-title.md)`, `Supercedes [...]`),
 * `## Context`, `## Decision`, `## Consequences`.
 */
export function readAdrTools(file: RecordFile, latest?: string): ParsedRecord {
  const record = parseRecord(numbered(file.text), statusHeadingLevel(file.text))
  if (record.title === null) throw new UnreadableRecord(1, 'no "# N. Title" heading')
  const statusSection = sectionNamed(record, STATUS_HEADING)
  if (statusSection === undefined) throw new UnreadableRecord(record.title.line, 'no "## Status" section')
  // A record that writes its fields under "## Status" dates itself there, or in a "## Date" section; one that writes no "Date:"
  // line, by the day its file is named by (`2023-01-15-use-x.md`), as a MADR or log4brains record is,
  // else by the day written with its status (`Accepted on 2020-05-05`); else it has no date, as in
  // MADR: the import dates the record the day it first sees it. A "Date:" that cannot be read
  // (`5 juin 2023`) is passed over as if it were not written, and said.
  const definitions = linkDefinitions(file.text)
  const read = statusOfLines(statusLinesOf(statusSection), statusSection.line, definitions, latest)
  const { status, date: statusDate, passedOver } = read
  // A link its status section does not write may be written apart, on a line of its own: under the
  // title, or in a `## Links` or `## Related decisions` section, as Tyree and Akerman's template
  // names the record it supersedes (`Supersedes [1. Use X](0001-use-x.md)`). Else both records were
  // imported in force, the old one never superseded.
  const apart = linksInBody({ ...record, sections: record.sections.filter((s) => s !== statusSection) }, definitions)
  const supersedes = read.supersedes ?? apart.supersedes
  const supersededBy = read.supersededBy ?? apart.supersededBy
  // A "Superseded by" written apart from a status that says accepted supersedes the record, as in
  // MADR, once it names a record of the folder.
  const supersededApart = read.supersededBy === null && supersededBy !== null && status === 'accepted'
  const notes = [
    ...read.notes,
    ...apart.notes.filter((n) => (read.supersedes === null && n.line === apart.supersedes?.line) || (read.supersededBy === null && n.line === apart.supersededBy?.line)),
  ]
  const unreadDates: UnreadDate[] = []
  // Some records give the date a section of its own, as the status has (`## Date`, then `2025-09-26`).
  const dateLine = filled((sectionNamed(record, DATE_SECTIONS[0] as RegExp) ?? sectionNamed(record, DATE_SECTIONS[1] as RegExp))?.body ?? [])[0]
  const dateSection = dateLine === undefined ? undefined : { value: dateLine.text.trim(), line: dateLine.n }
  const date =
    readDateFields(dateFieldsOf(record.preamble), unreadDates, latest) ??
    readDateFields(dateFieldsOf(statusSection.body), unreadDates, latest) ??
    readDateField(dateSection, unreadDates, latest) ??
    readDateField(fileNameDate(file.name), unreadDates, latest) ??
    statusDate
  // `6. Use X` as adr-tools writes it, but not the `1.` of a title that begins with a decimal (`1.5x memory budget`).
  const title = titleWithoutNumber(record.title.text.replace(/^\d+\.(?!\d)\s*/, ''), numberOfFile(file.name))
  // A section is also found by the name it gives in brackets after its own, as the Alexandrian
  // template names its sections (`## Discussion (Context)`, `## Solution (Decision)`).
  const named = (name: RegExp) =>
    sectionNamed(record, name) ?? record.sections.find((s) => name.test(/\(([^()]+)\)\s*$/.exec(headingName(s.heading))?.[1]?.trim() ?? ''))
  const text = (name: RegExp) => textOf((named(name)?.body ?? []).filter((l) => !isLinkDefinition(l.text)))
  // Or its `## Decided Approach`, as Gareth Morgan's template names it, or the Alexandrian `## Solution`.
  const decision = text(DECISION_SECTION)
  const context = text(CONTEXT_SECTION)
  // Tyree and Akerman's template (an "## Issue", then "## Argument" for the reasons) has no context.
  // A record with MADR's sections under a "## Status" (`## Context and Problem Statement`,
  // `## Decision Outcome`), as teams often write one: its outcome is read as a MADR record's is,
  // rather than the decision taken to be its title and its reasons not stated.
  const outcome = decision === '' && sectionNamed(record, /^decision outcome$/i) !== undefined ? madrBody(record, title, file.path) : undefined
  return {
    key: keyOfFile(file.name),
    title,
    decision: decision || outcome?.decision || title,
    // A section that says why (`## Rationale`, Tyree and Akerman's `## Argument`) before the context,
    // which says what the decision answers: a record that writes both gives its reasons there.
    rationale: text(RATIONALE_SECTION) || context || outcome?.rationale || text(/^context and problem statement$/i) || yStatementReasons(decision) || `not stated in ${file.path}`,
    status,
    date,
    enforce: readEnforce(fieldOf(record.preamble, /^enforce$/i)),
    supersedes,
    supersededBy,
    ...(supersededApart ? { supersededApart: true as const } : {}),
    origin: { path: file.path, line: record.title.line, format: 'adr-tools' },
    evidence: fileEvidence(file, 'adr-tools', file.text),
    unreadDates,
    passedOver: passedOver.map((l) => ({ text: l.text.trim(), line: l.n })),
    ...(notes.length > 0 ? { notes } : {}),
  }
}
