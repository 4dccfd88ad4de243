import { dateOfFileName, fileEvidence, keyOfFile, linksInBody, numberOfFile, statusOfLines } from './adr-tools'
import { dateFieldsOf, STATUS_FIELD } from './field-names'
import { madrBody } from './madr'
import { recordsNamed } from './status-words'
import { fieldOf, linkDefinitions, linkTarget, numbered, parseRecord, sectionNamed, titleWithoutNumber } from './markdown'
import { UnreadableRecord, readDateField, readDateFields, readEnforce, type ParsedRecord, type RecordFile, type UnreadDate } from './parsed-record'
import { shortList } from './quoted-value'

/**
 * A log4brains record (`yyyymmdd-slug.md`; also MADR 2.x, which has the same bullets): a
 * `# Title`, then bullets `- Status: accepted` (`draft`, `proposed`, `rejected`, `deprecated`,
 * `superseded by [slug](file.md)`), `- Date:`, `- Deciders:`, `- Tags:`, then MADR sections.
 * Without a `Date` bullet, the date is the one the file is named by, else the one written with the status, else none.
 */
export function readLog4brains(file: RecordFile, latest?: string): ParsedRecord {
  const record = parseRecord(numbered(file.text))
  if (record.title === null) throw new UnreadableRecord(1, 'no "# Title" heading')
  const head = record.preamble
  const statusField = fieldOf(head, STATUS_FIELD)
  if (statusField === undefined) throw new UnreadableRecord(record.title.line, 'no "- Status:" bullet under the title')
  const definitions = linkDefinitions(file.text)
  const statusLine = statusOfLines([{ n: statusField.line, text: statusField.value }], statusField.line, definitions, latest)
  const supersedesField = fieldOf(head, /^(supersedes|supercedes)$/i)
  const inBody = linksInBody(record, definitions)
  // Else the status bullet's own link: `- Status: accepted, supersedes [ADR-0002](0002-….md)`, else
  // a "Supersedes [...]" line as adr-tools writes it.
  const supersedes =
    supersedesField === undefined
      ? (statusLine.supersedes ?? inBody.supersedes)
      : { target: recordsNamed(supersedesField.value, definitions)[0] ?? linkTarget(supersedesField.value, definitions), line: supersedesField.line }
  // A "Superseded by" line of its own (`- Superseded by: [ADR-0006](…)`) names the successor as the
  // status bullet would, and a record whose bullet still says accepted is superseded by it, once
  // the link is found to name a record of the folder (`supersededApart`).
  const supersededBy = statusLine.supersededBy ?? inBody.supersededBy
  // What a status or body line names beside the one record linked, said.
  const notes = [...statusLine.notes, ...inBody.notes.filter((n) => n.line === supersedes?.line || n.line === supersededBy?.line)]
  const listed = supersedesField === undefined ? [] : recordsNamed(supersedesField.value, definitions)
  if (supersedesField !== undefined && listed.length > 1) {
    notes.push({ line: supersedesField.line, message: `Supersedes names ${listed.length} records (${shortList(listed)}); a decision links one, so only the first is linked` })
  }
  const status = statusLine.status
  const supersededApart = supersededBy !== null && status === 'accepted'
  const named = dateOfFileName(file.name)
  // A `- Date:` that cannot be read is passed over, and said; then the file name's date, else the day
  // written with the status (`- Status: accepted (2020-05-05)`); none is no date, as in MADR: the
  // import dates the record the day it first sees it.
  const unreadDates: UnreadDate[] = []
  const fromName = named === null ? undefined : { value: named.join('-'), line: 1 }
  const date = readDateFields(dateFieldsOf(head), unreadDates, latest) ?? readDateField(fromName, unreadDates, latest) ?? statusLine.date
  const deciders = fieldOf(head, /^(deciders|decision-makers)$/i)?.value ?? ''
  // Bullets (`* Status: accepted`) are MADR 2's, when the file is not named by a date; the fields of
  // a Nygard record set under its title otherwise (`| Status | Accepted |`, `**Status:** Accepted`,
  // `> Status: Accepted`) are no MADR's, and are counted as the adr-tools records they are.
  const bulleted = /^\s*[-*+]\s/.test(lineText(file.text, statusField.line))
  const format = named !== null ? 'log4brains' : bulleted ? 'madr' : 'adr-tools'
  const title = titleWithoutNumber(record.title.text, numberOfFile(file.name))
  const body = madrBody(record, title, file.path)
  // A `Rationale:` field beside the status, as the Planguage template writes its reasons
  // (`- Rationale: Users abandon slow searches.`), says why in so many words.
  // Else, when the body states none, a `Context:` field, as a Nygard record written in fields under
  // its title gives it (`**Context**: Builds differ between laptops.`).
  const unstated = body.rationale === `not stated in ${file.path}`
  const rationale = fieldOf(head, /^rationale$/i)?.value || (unstated ? fieldOf(head, /^context$/i)?.value : undefined)
  // With no decision section, a `Decision:` field says what was decided, else the Planguage
  // template's `Requirement:`, rather than the title alone.
  const decided = sectionNamed(record, /^decision( outcome)?$/i) === undefined ? fieldOf(head, /^decision$/i)?.value || fieldOf(head, /^requirement$/i)?.value : undefined
  return {
    key: keyOfFile(file.name),
    title,
    ...body,
    ...(decided === undefined || decided === '' ? {} : { decision: decided }),
    ...(rationale === undefined || rationale === '' ? {} : { rationale }),
    status,
    date,
    enforce: readEnforce(fieldOf(head, /^enforce$/i)),
    supersedes,
    supersededBy,
    ...(supersededApart ? { supersededApart: true as const } : {}),
    origin: { path: file.path, line: record.title.line, format },
    evidence: fileEvidence(file, format, file.text, deciders === '' ? '' : `; deciders: ${deciders}`),
    unreadDates,
    ...(notes.length > 0 ? { notes } : {}),
  }
}

/** The text of the 1-based line `n` of a text. */
function lineText(text: string, n: number): string {
  return text.split(/\r?\n/)[n - 1] ?? ''
}
