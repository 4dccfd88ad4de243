import type { ParsedRecord } from './parsed-record'
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
 * A record that writes no date but one both orders make a day, dated in the folder's `order`: the
 * first such date it writes, which it would be dated by were it unambiguous (each date it cannot
 * read is one that came before any it could), then said as read so. A date field's first, then a
 * status line's (`Accepted on 12/02/2016`), as a status's day dates a record only where no field
 * does: read alone, a day-first folder read `Date: 12/02/2016` as the 12th of February and left
 * `Accepted on 12/02/2016` unread. A record dated otherwise keeps its date, and the date it cannot
 * read is said as before.
 */
export function settleSlashedDate(record: ParsedRecord, order: SlashedOrder | undefined, latest?: string): ParsedRecord {
  if (order === undefined || (record.date ?? null) !== null) return record
  const unread = record.unreadDates ?? []
  const notes = record.notes ?? []
  const inField = unread.findIndex((d) => SLASHED.test(d.text))
  const inStatus = inField < 0 ? notes.findIndex((n) => n.date !== undefined && SLASHED.test(n.date.text)) : -1
  const written = inField >= 0 ? unread[inField] : notes[inStatus]?.date
  if (written === undefined) return record
  const [, a, b, year] = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(written.text) as unknown as [string, string, string, string]
  const [day, month] = order.dayFirst ? [a, b] : [b, a]
  const date = readDate(`${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`, latest)
  if (date === undefined) return record
  const how = order.dayFirst ? 'day first' : 'month first'
  const message = `${quoted(written.text.trim())} is read as ${date}, ${how}, as this folder writes its dates (${quoted(order.example.text)} in ${order.example.path}); write it as YYYY-MM-DD to say so`
  return {
    ...record,
    date,
    unreadDates: unread.filter((_, i) => i !== inField),
    notes: [...notes.filter((_, i) => i !== inStatus), { line: written.line, message, read: true }],
  }
}
