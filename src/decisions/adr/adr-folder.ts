import { characters, leadingCharacters } from '../../domain/limits'
import { DECISION_LIMITS, latestDecisionDay, type DecisionStatus } from '../decision'
import type { ImportedDecision } from '../imported-decision'
import { inWords } from '../decisions-named'
import { isAxmeCode, readAxmeCode } from './axme-code'
import { dateOfFileName, keyOfFile, numberKeyOfFile, numberOfFile, readAdrTools } from './adr-tools'
import { keyOfHeading, readDecisionsMd } from './decisions-md'
import { STATUS_NAME } from './field-names'
import { settleSlashedDate, settleStatusDays, slashedOrderOf, type SlashedOrder } from './slashed-order'
import { withAtxHeadings, withoutTrailing } from './markdown'
import { readLog4brains } from './log4brains'
import { isBareMadr, readMadr } from './madr'
import { SUCCESSOR_PLACEHOLDER } from './status-words'
import { quoted, shortList } from './quoted-value'
import {
  UnreadableRecord,
  unreadDateProblems,
  type AdrFormat,
  type FileReading,
  type ImportProblem,
  type LinkRef,
  type ParsedRecord,
  type RecordFile,
} from './parsed-record'

const NAME_ORDER = new Intl.Collator('en')

/**
 * Names of files and folders in one order on every machine: as English sorts them (`ADR-0001`,
 * `adr-0002`, `ADR-0003`; `éclair` before `zebra`), the order they were read in on most machines,
 * then by UTF-16 code unit where that finds two names alike (a name in NFD beside one in NFC).
 * localeCompare follows the machine's locale (`aa` after `z` in Danish), so the same folder was
 * reported, and a one-sided link completed, otherwise on another machine; by code unit alone
 * (`ADR-0003` before `adr-0002`, `zebra` before `éclair`) a folder of mixed-case names was read
 * in another order than before on every machine.
 */
export const compareNames = (a: string, b: string): number => NAME_ORDER.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0)

/** A file of a records folder, as read from disk. */
export interface FolderFile {
  path: string
  name: string
  bytes: Uint8Array
}

/** What a folder of decision records holds (R-CON-6). */
export interface FolderReading {
  records: ImportedDecision[]
  /** Files, sections and links that could not be read, each at its path and line. */
  problems: ImportProblem[]
  /** Files that are not records (README.md, index.md, templates). */
  skipped: string[]
  /** How many records each format gave. */
  formats: Partial<Record<AdrFormat, number>>
  /**
   * The section-based logs read (DECISIONS.md), each with the keys of all its sections, those that
   * could not be read included: a decision imported from one whose key is no longer among them was
   * taken out of it. A log that could not be read at all is not listed.
   */
  logs: Array<{ path: string; keys: string[] }>
}

/**
 * Long records are kept whole in the repository; the store keeps their beginning. Counted in code
 * points, as the decision's limits are, and cut between two characters as the reader sees them:
 * cut within a surrogate pair, an emoji title was stored with a lone half (shown as `�`), and cut
 * in UTF-16 units, a title of emoji or other astral characters kept half of what the limit allows.
 */
function clip(text: string, max: number): string {
  return characters(text) <= max ? text : leadingCharacters(text, max - 1).trimEnd() + '…'
}

/** Statuses of a record that was accepted once: one that supersedes another has replaced it. */
const WAS_ACCEPTED: ReadonlySet<DecisionStatus> = new Set(['accepted', 'superseded', 'deprecated'])

/**
 * Files that live beside decision records without being one: an index, and templates, named as
 * tools and teams name them (`template.md`, `0000-template.md`, `template-madr.md`,
 * `adr_template_v2.md`), also in the words of logs kept in Spanish, Portuguese, French, German or
 * Italian (`PLANTILLA.md`, `INDICE.md`, `adr-vorlage.md`). A name that begins with a number is a
 * record's (`0005-use-templates-….md`) unless it is the template's own.
 */
export function notARecord(name: string): boolean {
  return (
    new RegExp(String.raw`^(readme|index|[ií]ndice|${TEMPLATE_WORD}|.*-${TEMPLATE_WORD})\.md$`, 'i').test(name) ||
    (/template/i.test(name) && !/^\d/.test(name)) ||
    (TRANSLATED_TEMPLATE.test(name) && !/^(?:adr[-_ ]?)?\d/i.test(name))
  )
}

/** A template, as tools name it and as the words for it are in the languages records are read in. */
const TEMPLATE_WORD = '(?:template|plantilla|vorlage|mod[eè]le|modelo|modello)'

/**
 * A template's name in another language, as a word of the name (`adr-vorlage.md`, `modelo_v2.md`):
 * inside a word it is English's (`modeled`, `remodeled`), and a record numbered after `ADR-`
 * (`ADR-0014-modelo-de-datos.md`, `ADR 14 Modelo de datos.md`) is a record, whatever it is about.
 */
const TRANSLATED_TEMPLATE = /(?<![\p{L}\p{N}])(?:plantilla|vorlage|mod[eè]le|modelo|modello)(?![\p{L}\p{N}])/iu

/**
 * The name of a section-based log: `DECISIONS.md`, `DECISIONS-2023.md`, `decision-log.md`, and one
 * named for the kind of its decisions, as thousands of repositories name theirs
 * (`ARCHITECTURE_DECISIONS.md`, `docs/architecture-decisions.md`, `DESIGN_DECISIONS.md`,
 * `TECHNICAL_DECISIONS.md`): read as one record, such a log was refused for the `Status:` under
 * its title it never had. A record is numbered (`0001-record-architecture-decisions.md`): no log.
 */
export const DECISION_LOG =
  /^(?:(?:architecture|architectural|design|technical|tech|engineering|project|product|team|key)[-_ ]?)?(?:decisions|decision[-_ ]?log)([-_.][^/]*)?\.md$/i

/** A log named for the kind of its decisions (`ARCHITECTURE_DECISIONS.md`), which DECISION_LOG names too. */
const KIND_NAMED_LOG = /^(?:architecture|architectural|design|technical|tech|engineering|project|product|team|key)[-_ ]?(?:decisions|decision[-_ ]?log)/i

/**
 * Whether a file named as a log of a kind of decisions (`technical-decisions.md`) is one record
 * instead: front matter with a status, one `## Status` section, or MADR's one `## Decision
 * Outcome`, which a record writes and a log of several does not. Such a record was read before those names were logs, and was then
 * read as sections (`"Status" has no "Status:" field`), none of them its decision.
 */
function isOneRecord(text: string): boolean {
  if (/^---\s*$/.test(text.split(/\r?\n/, 1)[0] ?? '') && hasStatusKey(text)) return true
  // Not a template of a record the log keeps in an HTML comment (`<!-- … ## Status … -->`), which
  // no reader sees, nor the log is read by: taken for a record's, the log was read as one, and refused.
  const body = outsideHtmlComments(outsideCodeBlocks(withAtxHeadings(text)))
  if ((body.match(new RegExp(STATUS_SECTION.source, 'gimu')) ?? []).length === 1) return true
  // MADR 2's fields under the title (`* Status: accepted`) and its one `## Decision Outcome`.
  return (body.match(/^##\s+Decision Outcome\s*$/gim) ?? []).length === 1
}

/**
 * The format of a file: `DECISIONS.md` (or `DECISIONS-2023.md`, `decision-log.md`, …) is a section-based log; front matter is MADR (but
 * front matter with no `status` on a record whose body writes one, which is read by its body); a
 * `## Status` (or `## Status: Accepted`) section is adr-tools; a `- Status:` bullet is log4brains (or MADR 2.x), and so is a
 * `**Status:** Accepted` (or plain `Status:`) line, as many hand-written records put it under the title.
 */
export function formatOf(file: RecordFile): AdrFormat | undefined {
  // So is a decision log named so (`decision-log.md`, `DECISION_LOG.md`, `decisionlog.md`); not a
  // record named by one decision (`decision-0005-use-x.md`).
  if (DECISION_LOG.test(file.name) && !(KIND_NAMED_LOG.test(file.name) && isOneRecord(file.text))) return 'decisions-md'
  // An AXME Code decision (`D-021-slug.md`), whose front matter writes its id and no status while in force.
  if (isAxmeCode(file.text)) return 'axme-code'
  // Front matter with a status is MADR's; front matter a site generator wants (Jekyll's `layout`,
  // `nav_order`) on a record that writes its status in the body is read by the body's format.
  const frontMatter = /^---\s*$/.test(file.text.split(/\r?\n/, 1)[0] ?? '')
  if (frontMatter && (hasStatusKey(file.text) || bodyFormatOf(file.text) === undefined)) return 'madr'
  // A record of MADR's minimal templates, which write no front matter and no status.
  return bodyFormatOf(file.text) ?? (isBareMadr(file) ? 'madr' : undefined)
}

/** Whether a record's front matter has a `status` key (at its top level). */
function hasStatusKey(text: string): boolean {
  const lines = text.split(/\r?\n/)
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l))
  return lines.slice(1, end === -1 ? lines.length : end).some((l) => /^status\s*:/i.test(l))
}

/** The lines of a text outside its fenced code blocks (one not closed runs to the end), as a reader sees them. */
function outsideCodeBlocks(text: string): string {
  const out: string[] = []
  let fence: string | undefined
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === undefined && marker !== undefined) fence = marker
    else if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
    } else out.push(line)
  }
  return out.join('\n')
}

/**
 * The lines of a text outside the HTML comments begun on a line of their own (`<!--` to the line
 * holding `-->`), as parseRecord reads a record.
 */
function outsideHtmlComments(text: string): string {
  const out: string[] = []
  let commented = false
  for (const line of text.split('\n')) {
    const opens: boolean = !commented && /^ {0,3}<!--/.test(line) && !line.includes('-->', line.indexOf('<!--') + 4)
    if (opens || commented) commented = opens || !line.includes('-->')
    else out.push(line)
  }
  return out.join('\n')
}

/** The format a record's body is written in, by its status: a `## Status` section, or `Status:` fields. */
function bodyFormatOf(written: string): AdrFormat | undefined {
  // `Status` over `------` is a `## Status` heading, as the record is read; what a code block shows
  // is an example, not the record's own status (MADR's record on front matter shows a
  // `status: accepted` one in a fenced block).
  const text = outsideCodeBlocks(withAtxHeadings(written))
  // A closing sequence of `#`s is part of no heading's text (`## Status ##`), as parseRecord reads it;
  // some teams write the status in the heading (`## Status: Accepted`).
  // In bold too (`## **Status**`), as some editors write every heading.
  // After an emoji too (`## 🚦 Status`), as some templates mark each section.
  if (STATUS_SECTION.test(text)) return 'adr-tools'
  // Fields in a block quote under the title too (`> **Status:** Accepted`), as many records set them apart.
  if (STATUS_FIELD_LINE.test(text)) return 'log4brains'
  // Or in a table of fields under the title (`| Status | Accepted |`), or of columns (`| Date | Status |`).
  if (STATUS_FIELD_CELL.test(text)) return 'log4brains'
  // Else a status section a level or two down (`### Status`, `#### Status`), as some templates write
  // every section of a record under its title: one, for a file of several is a log of decisions,
  // which one record would not hold.
  if ((text.match(DEEPER_STATUS) ?? []).length === 1) return 'adr-tools'
  return undefined
}

/**
 * Why a file is not read as a record: none of what each format is known by; or, for a file holding
 * the status sections of several decisions (arc42's chapter 9, `## ADR-001: Use X` then `### Status`),
 * that it is a log of decisions, read as one when named so: the first message alone sent its user
 * looking for a `## Status` section the file was never missing.
 */
function notARecordMessage(text: string): string {
  const deeper = (withAtxHeadings(text).match(DEEPER_STATUS) ?? []).length
  return deeper > 1
    ? `not a decision record: its ${deeper} status sections are those of a log of decisions, which is read as one when named DECISIONS.md (or decision-log.md, or for the kind of its decisions, ARCHITECTURE_DECISIONS.md, DESIGN_DECISIONS.md)`
    : 'not a decision record: no "## Status" section, front matter or "- Status:" bullet'
}

/** A status section a level or two down: `### Status`, `#### Status`. */
const DEEPER_STATUS = new RegExp(String.raw`^#{3,4}\s+(?:[\p{Extended_Pictographic}\uFE0F\u200D]+[ \t]*)?(?:\*\*|__)?${STATUS_NAME}(?:\*\*|__)?(?:\s*:.*|\s+[-\u2013\u2014]\s+.*|\s+#+)?\s*$`, 'gimu')

/** A status section (`## Status`, `## Estado`), as bodyFormatOf reads it. */
const STATUS_SECTION = new RegExp(String.raw`^##\s+(?:[\p{Extended_Pictographic}\uFE0F\u200D]+[ \t]*)?(?:\*\*|__)?${STATUS_NAME}(?:\*\*|__)?(?:\s*:.*|\s+[-\u2013\u2014]\s+.*|\s+#+)?\s*$`, 'imu')

/*
 * The two below are tested for, never read: each begins with the white space and quote marks of its
 * own line (`[^\S\n\r\u2028\u2029]`), where it began with `\s*`, which ran on over blank lines from
 * every line's start, a file of 100,000 blank lines taking a minute and a half to be told a format.
 * A match after blank lines begins at its own line's start as well. The white space on either side of
 * a cell's `:` and bold is read in one way only, where three `\s*` tried every split of a run.
 */
/** A status field on a line (`- Status: accepted`, `> **Estado:** Aceptado`). */
export const STATUS_FIELD_LINE = new RegExp(String.raw`^[^\S\n\r\u2028\u2029]*(?:>[^\S\n\r\u2028\u2029]*)*(?:[-*+]\s+)?(\*\*|__)?${STATUS_NAME}(\*\*|__)?\s*(:|\*\*:|__:)`, 'im')

/** A status field in a table's cell (`| Status | Accepted |`, `| Date | Estado |`). */
export const STATUS_FIELD_CELL = new RegExp(String.raw`^[^\S\n\r\u2028\u2029]*\|(?:[^|\n]*\|)*?\s*(\*\*|__)?${STATUS_NAME}(\*\*|__)?\s*(?::\s*)?(?:(?:\*\*|__)\s*)?\|`, 'im')

/**
 * The key of each record file of a folder (`names`, those read and those that could not be, but
 * not a log's nor an AXME Code decision's): keyOfFile's, but a file numbered in another form than
 * adr-tools' (`ADR-0013-use-postgres.md`, `adr-2-use-x.md`, `ADR-013_use_y.md`, `0005_use_z.md`) is
 * keyed by its number as adr-tools' are (`ADR-0013`, `ADR-0002`), when that number is its own in
 * the folder: `why ADR-0013` and `GET /v1/decisions/ADR-0013` found nothing, while `Superseded by
 * ADR-0013` already named the file. Where two files share the number (`ADR-008-use-h.md` and
 * `adr-008-use-h2.md`, or `ADR-0013-x.md` beside adr-tools' `0013-y.md`), or a log's section is
 * keyed by it (`## ADR-013: …` in DECISIONS.md), the number names no one record: keyed by it, the
 * two would claim one key and neither be imported, so each keeps its whole name, as before.
 */
function numberKeys(names: readonly string[], logKeys: readonly string[], documents: ReadonlySet<string> = new Set()): (name: string) => string {
  const files = new Map<number, number>()
  for (const name of new Set(names)) {
    if (documents.has(name)) continue
    const n = numberOfFile(name)
    if (n !== undefined) files.set(n, (files.get(n) ?? 0) + 1)
  }
  const logged = new Set(logKeys.flatMap((k) => (/^ADR-\d+$/.test(k) ? [Number(k.slice(4))] : [])))
  return (name) => {
    if (documents.has(name)) return keyOfFile(name)
    const byNumber = numberKeyOfFile(name)
    const n = numberOfFile(name)
    return byNumber !== undefined && n !== undefined && files.get(n) === 1 && !logged.has(n) ? byNumber : keyOfFile(name)
  }
}

/**
 * A name a folder's documents have beside its records, a number and a space before the rest
 * (`1 - Intro.md`, `2024 Roadmap.md`): such a file that is no decision record (no status) takes no
 * number from a record. Counted, `1 - Intro.md` made `ADR-001-use-x.md` keep its whole name, its
 * decision stored as `ADR-0001` carried over to `ADR-001-use-x` by the import.
 */
const DOCUMENT_NAMED = /^\d{1,5} /

/** UTF-8 text, or the line of the first byte that is not UTF-8. */
function decode(bytes: Uint8Array): { text: string } | { badLine: number } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes)
    const at = lenient.indexOf('\uFFFD')
    return { badLine: lenient.slice(0, Math.max(at, 0)).split('\n').length }
  }
}

function readFile(file: RecordFile, format: AdrFormat, latest?: string, order?: SlashedOrder): FileReading & { keys?: string[] } {
  if (format === 'decisions-md') return readDecisionsMd(file, latest)
  const read = format === 'axme-code' ? readAxmeCode : format === 'madr' ? readMadr : format === 'log4brains' ? readLog4brains : readAdrTools
  try {
    // A date field's day first; then, where none dates the record, the days beside its status.
    const record = settleStatusDays(file, settleSlashedDate(read(file, latest), order, latest), (again) => read(again, latest), order, latest)
    return { records: [record], problems: unreadDateProblems(record) }
  } catch (error) {
    if (!(error instanceof UnreadableRecord)) throw error
    return { records: [], problems: [{ path: file.path, line: error.line, message: error.message }] }
  }
}

/**
 * Reads a folder of decision records (R-CON-6): each `.md` file in its format (or the one
 * forced), links resolved to keys (a file name, a key, or an ADR number) and completed both ways.
 * What cannot be read is a problem at its path and line, and the rest is read. `today`, the
 * reader's day (`YYYY-MM-DD`), when given: a date after its tomorrow, which the service refuses,
 * is read as no date and said at its line, as one before 1970 is, rather than refusing the import.
 */
export function readRecordFolder(files: readonly FolderFile[], forced?: AdrFormat, unreadable: readonly string[] = [], today?: string): FolderReading {
  const latest = today === undefined ? undefined : latestDecisionDay(today)
  const problems: ImportProblem[] = []
  const skipped: string[] = []
  const parsed: ParsedRecord[] = []
  const formats: FolderReading['formats'] = {}
  const logs: FolderReading['logs'] = []
  const fileKeys = new Map<string, string>()
  // The keys of the files named by a number, by number: `ADR-002` names the one file numbered 2.
  const otherNumbered = new Map<number, string[]>()
  // The records' files read, each with the key an AXME Code decision writes (keyed by its id, not its name).
  const readFiles: Array<{ name: string; idKey?: string | undefined }> = []
  // The records read from a file each, keyed by its name: keyed once the folder's names are all known (fileKey).
  const recordFile = new Map<ParsedRecord, string>()
  // The heading line of each section read from a log, as written: the label it begins with (see logLabels).
  const headingLines = new Map<ParsedRecord, string>()
  // The records of the folder that could not be read (an unknown status, not UTF-8, a file the
  // system would not give us: `unreadable`), by key, each with its file; and those files by name.
  // A link to one names a record of the folder all the same, whose decision this import does not
  // write: it is sent as written, and stands as the store holds it. Said to name "no record in this
  // folder" and left out, it took the link off the decision stored, and off the one stored from the
  // file that could not be read (a `reimported` event on each), while that file was still there.
  const unreadKeys = new Map<string, string>()
  const unreadFiles = new Map<string, string>()
  const unreadNames: Array<{ name: string; path: string }> = []
  // The files that are no record, named as a folder's documents are (`1 - Intro.md`), which take no record's number.
  const documents = new Set<string>()
  const unread = (name: string, path: string) => {
    if (!notARecord(name)) unreadNames.push({ name, path })
  }
  for (const name of unreadable) if (/\.md$/i.test(name)) unread(name, name)
  // The order the folder's records write a day and a month in with slashes, where they settle it.
  const order = slashedOrderOf(
    [...files].sort((a, b) => compareNames(a.name, b.name)).flatMap((f) => {
      const decoded = decode(f.bytes)
      return 'text' in decoded && /\.md$/i.test(f.name) && !notARecord(f.name) ? [{ path: f.path, text: decoded.text }] : []
    }),
  )
  for (const f of [...files].sort((a, b) => compareNames(a.name, b.name))) {
    if (!/\.md$/i.test(f.name) || notARecord(f.name)) {
      skipped.push(f.path)
      continue
    }
    const decoded = decode(f.bytes)
    if (!('text' in decoded)) {
      problems.push({ path: f.path, line: decoded.badLine, message: 'not UTF-8 text (saved in another encoding?)' })
      if ((forced ?? (DECISION_LOG.test(f.name) ? 'decisions-md' : undefined)) !== 'decisions-md') unread(f.name, f.path)
      continue
    }
    const file: RecordFile = { path: f.path, name: f.name, text: decoded.text }
    const format = forced ?? formatOf(file)
    if (format === undefined) {
      problems.push({ path: f.path, line: 1, message: notARecordMessage(file.text) })
      unread(f.name, f.path)
      if (DOCUMENT_NAMED.test(f.name)) documents.add(f.name)
      continue
    }
    const reading = readFile(file, format, latest, order)
    if (format !== 'decisions-md' && reading.records.length === 0) unread(f.name, f.path)
    // A log's sections that could not be read, by their keys.
    for (const key of reading.keys ?? []) if (!reading.records.some((r) => r.key === key)) unreadKeys.set(key, `section in ${f.path}`)
    // One by one: spread as arguments, a log of 200,000 of either overflowed the stack.
    for (const problem of reading.problems) problems.push(problem)
    for (const record of reading.records) parsed.push(record)
    if (reading.keys !== undefined) logs.push({ path: f.path, keys: reading.keys })
    if (format === 'decisions-md') {
      const lines = file.text.split(/\r?\n/)
      for (const record of reading.records) headingLines.set(record, lines[record.origin.line - 1] ?? '')
    }
    // In NFC, as the link is looked up: macOS may give a name decomposed that the link spells composed.
    // An AXME Code decision is keyed by its id, which its file name begins with.
    if (format === 'axme-code') readFiles.push({ name: f.name, idKey: reading.records[0]?.key ?? keyOfFile(f.name) })
    else if (format !== 'decisions-md') {
      readFiles.push({ name: f.name })
      for (const record of reading.records) recordFile.set(record, f.name)
    }
  }
  // A log named for the kind of its decisions that lists the folder's records, as an index of them
  // (`## ADR-001: Use Postgres` over `- Record: [0001-use-postgres.md](…)`): a section of a record's
  // number and title is that record, read from its file. Read as a decision of its own, each such
  // record was imported twice (`ADR-001` beside `ADR-0001`), or its file keyed by its whole name.
  const listed = new Set<ParsedRecord>()
  for (const p of parsed) {
    if (p.origin.format !== 'decisions-md' || !KIND_NAMED_LOG.test(p.origin.path.replace(/^.*\//, ''))) continue
    const n = /^\p{L}+[-_ ]?(\d{1,6})$/u.exec(p.key)?.[1]
    const title = p.title.normalize('NFC').toLowerCase()
    const file = n === undefined ? undefined : [...recordFile].find(([r, name]) => numberOfFile(name) === Number(n) && r.title.normalize('NFC').toLowerCase() === title)?.[1]
    if (file === undefined) continue
    listed.add(p)
    problems.push({ path: p.origin.path, line: p.origin.line, message: `${quoted(`${p.key}: ${p.title}`)} lists ${file}, of its number and title: read from that file alone`, read: true })
  }
  if (listed.size > 0) {
    parsed.splice(0, parsed.length, ...parsed.filter((p) => !listed.has(p)))
    const gone = new Set([...listed].map((p) => `${p.origin.path}\0${p.key}`))
    logs.splice(0, logs.length, ...logs.map((log) => ({ ...log, keys: log.keys.filter((k) => !gone.has(`${log.path}\0${k}`)) })))
  }
  const fileKey = numberKeys(
    [...readFiles.filter((f) => f.idKey === undefined).map((f) => f.name), ...unreadNames.map((u) => u.name)],
    logs.flatMap((log) => log.keys),
    documents,
  )
  for (const [record, name] of recordFile) record.key = fileKey(name)
  for (const { name, idKey } of readFiles) {
    fileKeys.set(name.normalize('NFC').toLowerCase(), idKey ?? fileKey(name))
    const n = numberOfFile(name)
    if (n !== undefined) otherNumbered.set(n, [...(otherNumbered.get(n) ?? []), idKey === undefined ? fileKey(name) : keyOfFile(name)])
  }
  for (const { name, path } of unreadNames) {
    unreadFiles.set(name.normalize('NFC').toLowerCase(), fileKey(name))
    unreadKeys.set(fileKey(name), `record ${path}`)
  }
  // One key in two places or more (two branches that each added their 0005-….md, a section copied
  // in a log): none is the record, and whichever were taken would overwrite what the others
  // stored, so all are left out, each naming the others, and what is stored under the key stays
  // as it is.
  const claims = new Map<string, ParsedRecord[]>()
  for (const p of parsed) claims.set(p.key, [...(claims.get(p.key) ?? []), p])
  const twice = new Set([...claims].filter(([, all]) => all.length > 1).map(([key]) => key))
  for (const record of parsed.filter((p) => twice.has(p.key))) {
    const others = (claims.get(record.key) ?? []).filter((o) => o !== record).map((o) => `${o.origin.path}:${o.origin.line}`)
    problems.push({
      path: record.origin.path,
      line: record.origin.line,
      // Of three or more, none is imported until all but one have keys of their own.
      message:
        others.length === 1
          ? `${record.key} is also the key of ${shortList(others)}; neither is imported until one has a key of its own`
          : `${record.key} is also the key of ${shortList(others)}; none of the ${inWords(others.length + 1)} is imported until all but one have a key of their own`,
    })
  }
  parsed.splice(0, parsed.length, ...parsed.filter((p) => !twice.has(p.key)))
  for (const record of parsed) formats[record.origin.format] = (formats[record.origin.format] ?? 0) + 1
  const keys = new Set(parsed.map((p) => p.key))
  // A log's sections by their titles as imported, for a link that names one so: a heading's day
  // written first is no part of its title (`Use Couch (03.06.2025)` is `Use Couch`) but stays in
  // the key made of it, so keyOfHeading of the title shown finds no key. A title two sections
  // share names neither.
  const logTitles = new Map<string, string[]>()
  for (const p of parsed) {
    if (p.origin.format !== 'decisions-md') continue
    const title = p.title.normalize('NFC').toLowerCase()
    logTitles.set(title, [...(logTitles.get(title) ?? []), p.key])
  }
  // A log's sections by the label their headings begin with: letters then a number (`### D16: Deploy
  // …`, `## Decision 3: Use X`), or a number alone (`## 5. Use X`), which is no key (a key has a
  // hyphen, `D-016`) but is how the log names them (`Superseded by D16 (2026-10-04). …`,
  // `Superseded by Decision 3`, `Superseded by #5`): such a link named no record, and was left out.
  const labelOf = (word: string | undefined, number: string) => `${(word ?? '').toLowerCase()}#${Number(number)}`
  const logLabels = new Map<string, Array<{ key: string; path: string }>>()
  for (const p of parsed) {
    if (p.origin.format !== 'decisions-md') continue
    // As the heading writes it, not the title: a number with its zeros is no part of that
    // (`### 022 — Renewal savings` is titled `Renewal savings`), and `Decision 022` named no section.
    const heading = (headingLines.get(p) ?? p.title).replace(/^ {0,3}#{1,6}\s*/, '').replace(/[*_`]/g, '').trim()
    const written = /^(?:(\p{L}{1,12})[ -]?)?(\d{1,6})\s*[:.)\u2014\u2013-]\s/u.exec(heading.normalize('NFC'))
    if (written === null) continue
    const label = labelOf(written[1], written[2] as string)
    logLabels.set(label, [...(logLabels.get(label) ?? []), { key: p.key, path: p.origin.path }])
  }
  /**
   * The one section of a log whose heading begins with the label `target` begins with, if one alone
   * does. A number alone (`5`, `#5`) names a section of the log that writes it, and only as the
   * name, alone or before a bracket or a mark: before words it counts them (`Superseded by 3
   * regional databases`), and in a record beside the log it is that record's number (`Superseded
   * by 2`, ADR-0002), or an issue's (`#14`); either was linked to the log's `## 3.` or `## 2.`.
   */
  const logLabeled = (target: string, from: string) => {
    const written = /^(?:(\p{L}{1,12})[ -]?#?|#)?(\d{1,6})(?![\p{L}\p{N}_]|[.,]\d)/u.exec(target)
    if (written === null) return undefined
    const alone = written[1] === undefined
    if (alone && !/^\s*(?:$|[(\[.,;:!?\u2014\u2013-])/.test(target.slice(written[0].length))) return undefined
    const labeled = (logLabels.get(labelOf(written[1], written[2] as string)) ?? []).filter((l) => !alone || l.path === from)
    if (labeled.length === 1) return labeled[0]?.key
    // `Decision 3` (or `Decision #3`) of a log whose headings number its decisions (`### 3. Holacracy
    // first`), as archives of decisions name them: the section of that log numbered so.
    if (labeled.length > 0 || written[1]?.toLowerCase() !== 'decision') return undefined
    const numbered = (logLabels.get(labelOf(undefined, written[2] as string)) ?? []).filter((l) => l.path === from)
    return numbered.length === 1 ? numbered[0]?.key : undefined
  }
  /** The one section of a log titled `target` as imported, if one alone is. */
  const logTitled = (target: string) => {
    const titled = logTitles.get(target) ?? []
    return titled.length === 1 ? titled[0] : undefined
  }

  /**
   * The key of the record numbered `n`, as people write it in words (`ADR 5`, `ADR-0005`, `adr 0005`):
   * a file's `ADR-0005` (`0005-use-x.md`'s, or `ADR-005-use-x.md`'s when no other file has the number:
   * see numberKeys), else a log's key written with other zeros (`ADR-005`), else the key of the one
   * file named by the number otherwise that keeps its name.
   */
  function numberedKey(n: number): string {
    const padded = `ADR-${String(n).padStart(4, '0')}`
    if (keys.has(padded) || twice.has(padded)) return padded
    const logged = [...keys, ...twice].find((k) => /^ADR-\d+$/.test(k) && Number(k.slice(4)) === n)
    if (logged !== undefined) return logged
    // Else the one file named by that number in another form (`ADR-002-use-b.md`), when only one is.
    const named = otherNumbered.get(n) ?? []
    return named.length === 1 ? (named[0] as string) : padded
  }

  function resolve(record: ParsedRecord, ref: LinkRef | null, field: string): string | null {
    if (ref === null) return null
    // The end of a sentence is no part of the name: `Superseded by ADR-0009.`, `Superseded by ADR 8;`.
    const written = withoutTrailing(ref.target.trim(), '.,;:!')
    const target = written.normalize('NFC').toLowerCase()
    const byFile = fileKeys.get(target) ?? fileKeys.get(`${target}.md`)
    const number = /^(?:adr[-_\s]*)?(\d{1,5})$/i.exec(written)
    // A link to `0005-use-x.md` after the record was renamed `0005-use-y.md` (its title changed):
    // the number is the record's, as its key says, whatever the slug after it.
    const renamed = byFile === undefined && dateOfFileName(target) === null ? /^(\d{1,5})-[^/]*?(?:\.md)?$/.exec(target) : null
    // A record's file named among words, after its folders (`the record in ../adr/0008-use-x.md, which
    // …`): tried last, after the name the words begin with (`ADR-0007 (see docs/arch.md)`). Read as
    // its words after the last `/` before, such a link was kept; read from the first word, lost.
    const amongWords = /(?:^|\s)(?:[^\s()]*\/)?([^\s/()]+\.md)(?=[.,;:!)]*(?:\s|$))/.exec(target)?.[1]
    const amongNumber = amongWords === undefined || dateOfFileName(amongWords) !== null ? null : /^(\d{1,5})-/.exec(amongWords)
    const candidates = [
      byFile,
      ref.target,
      written,
      number === null ? undefined : numberedKey(Number(number[1])),
      keyOfHeading(ref.target),
      logTitled(target),
      logLabeled(target, record.origin.path),
      renamed === null ? undefined : numberedKey(Number(renamed[1])),
      amongWords === undefined ? undefined : fileKeys.get(amongWords),
      amongNumber === null ? undefined : numberedKey(Number(amongNumber[1])),
    ]
    const key = candidates.find((c): c is string => c !== undefined && keys.has(c))
    const claimed = candidates.find((c): c is string => c !== undefined && twice.has(c))
    if (key === undefined && claimed !== undefined) {
      problems.push({ path: record.origin.path, line: ref.line, message: `${field} ${quoted(ref.target)} names ${claimed}, which ${inWords(claims.get(claimed)?.length ?? 2)} records claim; the link is left out` })
      return null
    }
    // A record of the folder that could not be read: named all the same, and said as it is.
    const unreadFile = unreadFiles.get(target) ?? unreadFiles.get(`${target}.md`)
    const unreadKey = key !== undefined ? undefined : [unreadFile, ...candidates].find((c): c is string => c !== undefined && unreadKeys.has(c))
    if (unreadKey !== undefined && unreadKey !== record.key) {
      problems.push({
        path: record.origin.path,
        line: ref.line,
        message: `${field} ${quoted(ref.target)} names ${unreadKey}, whose ${unreadKeys.get(unreadKey) as string} could not be read; the link stands as the store holds it`,
        read: true,
      })
      return unreadKey
    }
    // What a template leaves where a link would be (`Superseded by: none`, `Supersedes: N/A`, `-`,
    // `TBD`) names no record and is read as no link: nothing to say, as the placeholders of MADR 2's
    // `## Links` are passed over (said, it was counted among what could not be read, `N/A` as "A").
    if (key === undefined && SUCCESSOR_PLACEHOLDER.test(ref.target.trim())) return null
    if (key === undefined || key === record.key) {
      // A section copied with its links, a number mistyped: the record names itself.
      // A title two sections of a log share names both: said so, with their keys, which a link can name.
      const alike = key === undefined ? (logTitles.get(target) ?? []) : []
      const named =
        alike.length > 1 ? `${alike.length} sections titled alike (${shortList(alike)}): name one by its key` : key === undefined ? 'no record in this folder' : `${key} itself`
      problems.push({ path: record.origin.path, line: ref.line, message: `${field} ${quoted(ref.target)} names ${named}; the link is left out` })
      return null
    }
    return key
  }

  const records = parsed.map((p) => {
    const supersedes = resolve(p, p.supersedes, 'supersedes')
    const superseded_by = resolve(p, p.supersededBy, 'superseded by')
    // A successor named apart from a status that says accepted supersedes the record unless the name
    // is a placeholder: `Superseded by: none` is no reason to stop enforcing the decision, but a
    // successor the folder does not hold (`../platform/0012-….md`, a record deleted since) is still
    // one, as an adr-tools "Superseded by" line to it is; the link alone is left out, and said (a
    // placeholder is left out unsaid, see resolve).
    const placeholder = p.supersededBy !== null && SUCCESSOR_PLACEHOLDER.test(p.supersededBy.target.trim())
    const status: DecisionStatus = p.supersededApart === true && (superseded_by !== null || !placeholder) ? 'superseded' : p.status
    return { record: p, status, supersedes, superseded_by }
  })
  // A link written on one side only holds both ways: adr-tools writes both, others often one.
  // "Supersedes" on the new record alone says what the lifecycle would do once it was accepted
  // (R-CON-1a): the old record, still written "Accepted", is superseded, not in force beside it;
  // a proposal replaces nothing yet (accepting it, later, supersedes the old one).
  const byKey = new Map(records.map((r) => [r.record.key, r]))
  for (const r of records) {
    const later = r.superseded_by === null ? undefined : byKey.get(r.superseded_by)
    if (later !== undefined && later.supersedes === null) later.supersedes = r.record.key
  }
  for (const r of records) {
    const earlier = r.supersedes === null ? undefined : byKey.get(r.supersedes)
    if (earlier === undefined || earlier.superseded_by !== null || !WAS_ACCEPTED.has(r.record.status)) continue
    earlier.superseded_by = r.record.key
    if (earlier.record.status === 'accepted') earlier.status = 'superseded'
  }
  return {
    records: records.map(({ record, status, supersedes, superseded_by }) => ({
      key: record.key,
      title: clip(record.title, DECISION_LIMITS.titleLength),
      decision: clip(record.decision, DECISION_LIMITS.textLength),
      rationale: clip(record.rationale, DECISION_LIMITS.textLength),
      status,
      date: record.date,
      enforce: record.enforce,
      supersedes,
      superseded_by,
      origin: record.origin,
      evidence: record.evidence,
    })),
    problems,
    skipped,
    formats,
    logs,
  }
}
