import type { DecisionStatus, EnforceLevel, EvidenceInput } from '../decision'
import { readDate, unreadDateMessage } from './status-words'
import { quoted } from './quoted-value'

export const ADR_FORMATS = ['adr-tools', 'madr', 'log4brains', 'decisions-md', 'axme-code'] as const
export type AdrFormat = (typeof ADR_FORMATS)[number]

/** A file of decision records as read from disk: its path (as reported) and its text. */
export interface RecordFile {
  /** The path reported to the user and kept as the record's source, relative to the folder. */
  path: string
  /** The file name. */
  name: string
  text: string
}

/** Something that could not be read, at a path and a line; the import goes on without it. */
export interface ImportProblem {
  path: string
  line: number
  message: string
  /**
   * Said, though nothing of the record was left unread: it was read as the message says (a status
   * it does not write, read as accepted). Not counted among what could not be read.
   */
  read?: true
}

/** A "Superseded by" or "Supersedes" as written: a file name or a key, and where it was written. */
export interface LinkRef {
  target: string
  line: number
}

/** One decision read from a file, before its links are resolved to keys. */
export interface ParsedRecord {
  key: string
  title: string
  decision: string
  rationale: string
  status: DecisionStatus
  /** Null when the record says none (MADR makes every field of its front matter optional). */
  date: string | null
  enforce: EnforceLevel
  supersedes: LinkRef | null
  supersededBy: LinkRef | null
  /**
   * The status says accepted, and the successor is named apart from it (a "Superseded by" line,
   * a `superseded-by:` key): the record is superseded once that link names a record of the
   * folder. A link to nothing (`Superseded by: none`, `- Superseded by: -`) leaves it accepted.
   */
  supersededApart?: true
  origin: { path: string; line: number; format: AdrFormat }
  evidence: EvidenceInput[]
  /** Dates written that cannot be read (`5 juin 2023`): the record is read as if they were not written. */
  unreadDates?: UnreadDate[]
  /** Lines of a status section that say no status, passed over since another line names one: said, not lost. */
  passedOver?: UnreadDate[]
  /**
   * What was read otherwise than written (a status the record does not write), at its line: said.
   * One of a date that cannot be read (`Accepted on 12/02/2016`) holds it as `date`, for its message
   * to say what the record was read with once its date is known (unreadDateProblems).
   */
  notes?: Array<{ line: number; message: string; read?: true; date?: UnreadDate }>
}

/** A date as written that cannot be read, and its line. */
export interface UnreadDate {
  text: string
  line: number
  /** The last day a record could be dated when it was read (the reader's tomorrow), said of a day after it. */
  latest?: string
}

/**
 * The day a date field writes; undefined when it writes none (or is empty), or one that cannot be read, which
 * `unread` is told: a date is no reason to leave a decision out (a record that writes none is
 * imported), so the record is read as if the field were not there, and the import says so. So is
 * a day after `latest`, the reader's tomorrow, when given: the service would refuse it.
 */
export function readDateField(field: { value: string; line: number } | undefined, unread: UnreadDate[], latest?: string): string | undefined {
  // A field left empty (a template's `Date:` not filled in) writes no date, as MADR's empty `date:`
  // (YAML's null) does: said in the other formats as `"" is not a date`, though nothing was written.
  if (field === undefined || field.value.trim() === '') return undefined
  const date = readDate(field.value, latest)
  if (date === undefined) unread.push({ text: field.value, line: field.line, ...(latest === undefined ? {} : { latest }) })
  return date
}

/**
 * The day the first of some date fields writes, each read as readDateField reads it: one that
 * writes no day (`Date: TBD`, `unknown`, `-`: no digit) is told to `unread`, and the next is read.
 * One that writes a day it cannot read (`12/02/2016`, `5 juin 2023`) is told too, and dates the
 * record as before, the next not read: a day-first folder reads `12/02/2016` as the 12th of
 * February (settleSlashedDate) as it reads `14/02/2016`, which a `Decision date:` after it does
 * not override either.
 */
export function readDateFields(fields: ReadonlyArray<{ value: string; line: number } | undefined>, unread: UnreadDate[], latest?: string): string | undefined {
  for (const field of fields) {
    const date = readDateField(field, unread, latest)
    if (date !== undefined || (field !== undefined && /\d/.test(field.value))) return date
  }
  return undefined
}

/**
 * The problems of a record read without what it writes that cannot be read, at their lines: the
 * dates (each saying whether the record is read undated or dated otherwise, as it is now read), and
 * the lines of its status section that say no status beside one that does.
 */
export function unreadDateProblems(record: ParsedRecord): ImportProblem[] {
  const dates = (record.unreadDates ?? []).map((d) => ({
    path: record.origin.path,
    line: d.line,
    message: unreadDateMessage(d.text, d.latest, record.date),
  }))
  const lines = (record.passedOver ?? []).map((l) => ({
    path: record.origin.path,
    line: l.line,
    message: `unknown status ${quoted(l.text)}; passed over, the record is read as ${record.status}`,
  }))
  const notes = (record.notes ?? []).map((n) => ({
    path: record.origin.path,
    line: n.line,
    message: n.date === undefined ? n.message : unreadDateMessage(n.date.text, n.date.latest, record.date),
    ...(n.read === true ? { read: true as const } : {}),
  }))
  return [...dates, ...lines, ...notes].sort((a, b) => a.line - b.line)
}

/** A record (or a section of a log) that cannot be read; `line` says where it went wrong. */
export class UnreadableRecord extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message)
    this.name = 'UnreadableRecord'
  }
}

/** What reading one file gave: its records, and the problems of the parts it could not read. */
export interface FileReading {
  records: ParsedRecord[]
  problems: ImportProblem[]
}

/** An enforce level as written (`required`, `advisory`), or a problem at its line. */
export function readEnforce(field: { value: string; line: number } | undefined): EnforceLevel {
  if (field === undefined) return 'advisory'
  const value = field.value.replace(/[*_`]/g, '').trim().toLowerCase()
  if (value === 'required' || value === 'advisory') return value
  // A field left empty (`Enforce:`, `enforce: []`) was said as `enforce ""`, and MADR's as `enforce "null"`.
  if (value === '') throw new UnreadableRecord(field.line, 'enforce is empty: write required or advisory, or leave the field out for advisory')
  throw new UnreadableRecord(field.line, `enforce ${quoted(field.value)} is neither required nor advisory`)
}
