import type { ParsedRecord, RecordFile } from './parsed-record'
import { readDate } from './status-words'
import { quoted } from './quoted-value'

/**
 * The order in which a folder's records write a day and a month with slashes, when its records
 * settle it: adr-tools wrote `dd/mm/yyyy` until 2017 (its own log among them), so a log begun then
 * dates `12/02/2016` and `14/02/2016` alike. A date that both orders make a day is read in the
 * folder's order when every date of it that only one order makes a day (`14/02/2016`: day first)
 * is written in that order, and one at least is; in a folder whose dates say both orders, or none,
 * it stays unread, and said, as it is alone.
 */
export interface SlashedOrder {
  dayFirst: boolean
  /** A date that says the order, as written, and the file it is in. */
  example: { text: string; path: string }
}

/** A date field on a line of its own, its day and month with slashes: `Date: 14/02/2016`, `- **Date:** 02/14/2016`. */
const SLASHED_DATE_FIELD = /^[ \t]*(?:>[ \t]*)*(?:[-*+][ \t]+)?(?:\*\*|__)?(?:date|fecha|datum|data)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*((\d{1,2})\/(\d{1,2})\/\d{4})[ \t]*$/gim

/** The folder's order, from the texts of its records (path and text), or undefined where they do not settle one. */
export function slashedOrderOf(files: ReadonlyArray<{ path: string; text: string }>): SlashedOrder | undefined {
  let found: SlashedOrder | undefined
  for (const file of files) {
    for (const match of file.text.matchAll(SLASHED_DATE_FIELD)) {
      const [, text, a, b] = match as unknown as [string, string, string, string]
      const first = Number(a)
      const second = Number(b)
      // Only one order makes a day: a number over 12 is the day (`14/02`, `02/14`).
      const dayFirst = first > 12 && second <= 12 ? true : second > 12 && first <= 12 ? false : undefined
      if (dayFirst === undefined) continue
      if (found !== undefined && found.dayFirst !== dayFirst) return undefined
      found ??= { dayFirst, example: { text, path: file.path } }
    }
  }
  return found
}

/** A day and a month with slashes, as written: `12/02/2016`. */
const SLASHED = /^\s*\d{1,2}\/\d{1,2}\/\d{4}\s*$/

/**
 * A record that writes no date but one both orders make a day in a date field, dated in the
 * folder's `order`: the first such date it writes, which it would be dated by were it unambiguous
 * (each date it cannot read is one that came before any it could), then said as read so. A record
 * dated otherwise keeps its date, and the date it cannot read is said as before. The days written
 * with its status are settleStatusDays's, once no field dates it.
 */
export function settleSlashedDate(record: ParsedRecord, order: SlashedOrder | undefined, latest?: string): ParsedRecord {
  if (order === undefined || (record.date ?? null) !== null) return record
  const unread = record.unreadDates ?? []
  const at = unread.findIndex((d) => SLASHED.test(d.text))
  const written = unread[at]
  if (written === undefined) return record
  const date = inOrder(written.text, order, latest)
  if (date === undefined) return record
  return {
    ...record,
    date,
    unreadDates: unread.filter((_, i) => i !== at),
    notes: [...(record.notes ?? []), { line: written.line, message: readSo(written.text, date, order), read: true }],
  }
}

/**
 * A record no field dates, whose status lines write days both orders make (`Accepted on
 * 12/02/2016`), read again (`read`) with each such day written as the folder's `order` makes it
 * (`2016-02-12`), and each said as read so: it is then dated, and its status taken, as the same
 * record written with those days unambiguous is, by the last step of `Proposed (…) → Accepted
 * (…)` and the latest line of a status log. Taking the first such day instead dated `Proposed
 * (01/02/2016) → Accepted` by its proposal, and `Accepted on 01/02/2016` then `Deprecated on
 * 03/02/2016` by the first line, still accepted. Where that reading dates it by none of them (a
 * step before the last, alone), the record is kept as first read, its days said as before. Its
 * evidence stays the file's as written.
 */
export function settleStatusDays(
  file: RecordFile,
  record: ParsedRecord,
  read: (file: RecordFile) => ParsedRecord,
  order: SlashedOrder | undefined,
  latest?: string,
): ParsedRecord {
  if (order === undefined || (record.date ?? null) !== null) return record
  const lines = file.text.split('\n')
  const said = new Map<string, { line: number; message: string; read: true }>()
  let again = record
  // A day read so may show another after it on its line (`Proposed (01/02/2016) → Accepted (03/02/2016)`
  // says the first it cannot read): a few rounds, each taking at least one day more.
  for (let round = 0; round < 4; round++) {
    let taken = false
    for (const note of again.notes ?? []) {
      const written = note.date
      if (written === undefined || !SLASHED.test(written.text) || said.has(`${written.line} ${written.text}`)) continue
      const date = inOrder(written.text, order, latest)
      const line = lines[written.line - 1]
      if (date === undefined || line === undefined || !line.includes(written.text.trim())) continue
      lines[written.line - 1] = line.replace(written.text.trim(), date)
      said.set(`${written.line} ${written.text}`, { line: written.line, message: readSo(written.text, date, order), read: true })
      taken = true
    }
    if (!taken) break
    try {
      again = read({ ...file, text: lines.join('\n') })
    } catch {
      // Read as written, the record was read: it is kept so, never lost to a reading of its days.
      return record
    }
  }
  if (again === record || (again.date ?? null) === null) return record
  return { ...again, evidence: record.evidence, notes: [...(again.notes ?? []), ...said.values()] }
}

/** A slashed day both orders make, as the folder's `order` reads it (`YYYY-MM-DD`), if a day it may date a record by. */
function inOrder(text: string, order: SlashedOrder, latest?: string): string | undefined {
  const [, a, b, year] = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text) as unknown as [string, string, string, string]
  const [day, month] = order.dayFirst ? [a, b] : [b, a]
  return readDate(`${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`, latest)
}

/** What is said of a slashed day read in the folder's order. */
function readSo(text: string, date: string, order: SlashedOrder): string {
  const how = order.dayFirst ? 'day first' : 'month first'
  return `${quoted(text.trim())} is read as ${date}, ${how}, as this folder writes its dates (${quoted(order.example.text)} in ${order.example.path}); write it as YYYY-MM-DD to say so`
}
