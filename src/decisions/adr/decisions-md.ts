import { createHash } from 'node:crypto'
import { fileEvidence, statusOfLines } from './adr-tools'
import { DECISION_DATE_FIELD } from './field-names'
import { JEKYLL_TIME, readStatusLine, recordsNamed, TIME_WRITTEN } from './status-words'
import { atxHeading, fieldOf, filled, isLinkDefinition, linkDefinitions, linkTarget, numbered, parseRecord, setextAsAtx, slug, textOf, type Line, type LinkDefinitions, type Section } from './markdown'
import { UnreadableRecord, readDateField, readDateFields, readEnforce, unreadDateProblems, type FileReading, type ParsedRecord, type RecordFile, type UnreadDate } from './parsed-record'
import { quoted, shortList } from './quoted-value'

/** A key as a log writes one (`D-001`, `ADR-12`), not yet where a heading writes it: see keyWritten. */
const KEY = String.raw`[A-Z][A-Z0-9]*-\d+`
const DAY = /\b(\d{4}-\d{2}-\d{2})\b/
/**
 * A heading's ISO day with no time after it: the day of `(2024-02-01)`, not of `(2024-02-01 21:33:43
 * -0800)`; a time written otherwise is prose, the day of `Standup 2024-02-01 9:30` read alone.
 */
const DAY_ALONE = new RegExp(`${DAY.source}(?!${JEKYLL_TIME})`)
/**
 * A heading's first ISO day, with Jekyll's time when one follows it: the date a heading gives. Of
 * `Pick a queue (2024-02-01 10:00:00), review 2024-03-01` it is the first, as a heading with a
 * Jekyll time was dated before the time was read; DAY_ALONE passes over it, and dated the
 * section by the day written after it.
 */
const FIRST_DAY = new RegExp(String.raw`\b(\d{4}-\d{2}-\d{2}(?:${JEKYLL_TIME}|\b))`)
/**
 * A heading's day with the ISO time written onto it (`2024-02-01T10:00:00Z`; a colon or a dot only
 * inside it; a zone after a space, `T10:00:00 Z`, too), or after a space as Jekyll writes it
 * (`2024-02-01 21:33:43 -0800`), read as a `- Date:` field written so: DAY's `\b` after the day
 * passed the first over, so the heading was no date, and kept it in the title; the second was read
 * as its day alone, the time left in the title (`Use X ( 21:33:43 -0800)`), and a time the field
 * says is none (`25:00:00`) not said.
 */
const DAY_TIMED = new RegExp(String.raw`\b(\d{4}-\d{2}-\d{2}(?:${TIME_WRITTEN}|${JEKYLL_TIME}))`)
/** A heading's day with its time, with the brackets around it, or alone (read when the heading holds no ISO day alone). */
const DAY_TIMED_DATED = new RegExp(`\\(\\s*${DAY_TIMED.source}\\s*\\)|\\[\\s*${DAY_TIMED.source}\\s*\\]|${DAY_TIMED.source}`)
/** A day written day (or month) first in a heading: `31.12.2023`, `12/02/2016`. */
const DAY_FIRST = /(?<![\d./])(\d{1,2}[./]\d{1,2}[./]\d{4})(?![\d./]*\d)/
/** A heading's date with the brackets around it, or alone: brackets of the title's own (`close()`) stay. */
const DATED = new RegExp(`\\(\\s*${DAY.source}\\s*\\)|\\[\\s*${DAY.source}\\s*\\]|${DAY.source}`)
/** A heading's day written first with the brackets around it, or alone (read when the heading holds no ISO day). */
const DAY_FIRST_DATED = new RegExp(`\\(\\s*${DAY_FIRST.source}\\s*\\)|\\[\\s*${DAY_FIRST.source}\\s*\\]|${DAY_FIRST.source}`)
/** A heading's key in brackets, anywhere in it (`[D-001] Use X`, `Use X (D-001)`). */
const KEY_BRACKETED = new RegExp(String.raw`\(\s*(${KEY})\s*\)|\[\s*(${KEY})\s*\]`)
/** What a heading may write before its key, or after it at its end: separators and days (`2024-01-10 — D-001: Use X`). */
const BESIDE_KEY = String.raw`(?:[\s:—–|·•-]|[([]\s*(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4})\s*[)\]]|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4})*`
/** The end of a key: no more of a word after it (`CVE-2021-44228` is no key `CVE-2021`). */
const KEY_END = String.raw`(?!-?\w)`
/** A heading's key written first (`D-001: Use X`, `2024-01-10 — D-001 Use X`). */
const KEY_FIRST = new RegExp(String.raw`^${BESIDE_KEY}(${KEY})${KEY_END}`)
// A separator before a key is one after a space, or a colon or a dash other than a hyphen with a
// space after it (`Foo-PEP-8` writes none); read from the first character of its run, so that a
// long run is not tried again at each of its characters.
/** A heading's key written last, after a separator (`Use X — D-001`, `Use X: D-001 (2024-01-10)`). */
const KEY_LAST = new RegExp(String.raw`(?<![:—–|·•-])((?<=\s)[:—–|·•-]+\s*|[:—–|·•]+\s+)(${KEY})${KEY_END}${BESIDE_KEY}$`)

/**
 * The key a heading writes as a key, and where: in brackets anywhere (`Use X (D-001)`), first
 * (`D-001: Use X`, after separators or a day), or last after a separator (`Use X — D-001`), the
 * leftmost of them. A word of the title written as a key is (`Use UTF-8 everywhere`, `Hash with
 * SHA-256`) is none: a version before this took it as the key, and cut it out of the title.
 */
function keyWritten(heading: string): { key: string; index: number; length: number } | undefined {
  const found: Array<{ key: string; index: number; length: number }> = []
  const bracketed = KEY_BRACKETED.exec(heading)
  if (bracketed !== null) found.push({ key: (bracketed[1] ?? bracketed[2]) as string, index: bracketed.index, length: bracketed[0].length })
  const first = KEY_FIRST.exec(heading)
  if (first !== null) found.push({ key: first[1] as string, index: first[0].length - (first[1] as string).length, length: (first[1] as string).length })
  const last = KEY_LAST.exec(heading)
  if (last !== null) found.push({ key: last[2] as string, index: last.index + (last[1] as string).length, length: (last[2] as string).length })
  return found.sort((a, b) => a.index - b.index)[0]
}

/**
 * The key of a section whose heading names none: `DEC-` and the slug of its title, and, when the
 * slug leaves out letters or digits of the title (`API 설계`, `データ移行`), a hash of the whole
 * title, since those titles would otherwise share a key (`DEC-api`, `DEC-`) and all but the
 * first be left out. Titles in Latin letters, accents and letters such as ß or ø included, keep
 * the plain slug.
 */
export function keyOfTitle(title: string): string {
  const slugged = slug(title, 50)
  // Latin letters the slug leaves out (ß, ø, æ, ł) are no other script: such titles keep the key
  // they had before hashes were added, or a re-import would store their decisions a second time.
  const lettersLeft = /[\p{L}\p{N}]/u.test(title.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[\p{Script=Latin}0-9]/gu, ''))
  if (!lettersLeft) return `DEC-${slugged}`
  const digest = createHash('sha256').update(title.normalize('NFC')).digest('hex').slice(0, 8)
  return slugged === '' ? `DEC-${digest}` : `DEC-${slugged}-${digest}`
}

/**
 * The field lines of a section, which are not part of its prose: those read, and the people and
 * labels logs write beside them (`- Owner: Dana`, `**Approved by:** CTO`), which are no rationale.
 */
const FIELD =
  /^(status|date|decision[- ]date|enforce|supersedes|supercedes|superseded by|superceded by|decision|rationale|why|reason|context|deciders|decision-makers|tags|owners?|authors?|approvers?|approved by|decided by|reviewers?|stakeholders|participants|consulted|informed)$/i

/** The fields a "### Status" part may hold beside its status that say no status: each is read as a field. */
const BESIDE_STATUS = /^(date|decision[- ]date|enforce|decision|rationale|why|reason|context|deciders|decision-makers|tags)$/i

/** A thematic break (`---`, `***`, `* * *`), which logs put between sections: no prose. */
const BREAK = /^\s*([-*_])(?:\s*\1){2,}\s*$/

/**
 * The separators at the end of a heading (`Use X —`), from the first of their run: tried at each
 * character of a run of them not at the end (`Use X`, 100,000 spaces, `(2024-01-10)`), `[…]+$` ran
 * to the run's end from every one, and one such heading took seconds.
 */
export const TRAILING_SEPARATORS = /(?<![\s:—–|-])[\s:—–|-]+$/
/** TRAILING_SEPARATORS with the middle dot and the bullet that shownTitleOf leaves out too. */
export const TRAILING_MARKS = /(?<![\s:—–|·•-])[\s:—–|·•-]+$/

/**
 * The title of a heading once its key and date are taken out: `D-001: Use Postgres` → `Use Postgres`,
 * `D-001: Use Postgres (2024-01-10)` → `Use Postgres` (the brackets and separators the date leaves go with it).
 */
function titleOf(heading: string): string {
  const key = keyWritten(heading)
  return (key === undefined ? heading : heading.slice(0, key.index) + heading.slice(key.index + key.length))
    .replace(DATED, '')
    // Separators only: a title's own opening bracket (`(Re)use the pool`) stays.
    .replace(/^[\s:—–|-]+/, '')
    .replace(TRAILING_SEPARATORS, '')
    .trim()
}

/**
 * The title a section is imported with: titleOf's, and, in a heading with no ISO day alone, without the
 * day with its time (`D-002: Use spaces (2024-02-01T10:00:00Z)` or Jekyll's `(2024-02-01 21:33:43
 * -0800)` → `Use spaces`), else the day
 * written first (`(31.12.2023)`), that readSection reads as its date or says it cannot read
 * (`(12/02/2016)`), as an ISO day is left out. The key of a section keyed by its title stays
 * titleOf's (keyOfHeading), so that a re-import finds it.
 */
function shownTitleOf(heading: string): string {
  const title = DAY_ALONE.test(heading) ? titleOf(heading) : titleOf(DAY_TIMED.test(heading) ? heading.replace(DAY_TIMED_DATED, '') : heading.replace(DAY_FIRST_DATED, ''))
  // A middle dot or a bullet between the key, the day and the title (`D-004 · 2026-09-22 · North
  // star`) separates them as a dash does; and a log that numbers its entries with zeros before the
  // number (`## 001 — Documentation first`, `## 0004: Use X`), no key, writes it as a key: both left
  // out of the title shown only, the key made of a title staying as it was. A count is no such
  // number: `## 3 replicas per region`, `## 2024: The year of Rust` keep theirs.
  const shown = title.replace(/^[\s:—–|·•-]+/, '').replace(TRAILING_MARKS, '').trim() || title
  return shown.replace(/^0\d*\s*(?:[.:]|\s[—–-])\s+(?=\S)/, '') || shown
}

/** The key of a section: the one its heading names, else one made of its title (see keyOfTitle). */
function keyOfSection(section: Section): string {
  return keyOfHeading(section.heading)
}

/**
 * The key of a section headed `heading`: so a link that names a section by its heading or title
 * (`Supersedes: [Use MongoDB](#2025-06-03--use-mongodb)`) finds a section keyed by its title.
 */
export function keyOfHeading(heading: string): string {
  return keyWritten(heading)?.key ?? keyOfTitle(titleOf(heading) || heading)
}

/** The fields whose value is text read with the lines that go on it (decision and rationale). */
const TEXT_FIELD = /^(decision|rationale|why|reason|context)$/i

/**
 * The lines that go on a text field's line (`- Decision: Store sessions in Redis` then `  with a 24 h TTL.`):
 * indented lines right after a field line, no bullet of their own, up to a blank line. Markdown
 * reads them as the list item's text, and so does the log's author. Those under another field
 * (`- Date: 2024-01-01` then `  (approved by the team)`) are nobody's value, and stay prose.
 */
function continuations(body: readonly Line[]): Map<number, Line[]> {
  const byField = new Map<number, Line[]>()
  let field: Line[] | undefined
  // A text that ends in a colon (`- Decision: We will indent as follows:`) goes on over the list
  // indented under it, which is what it says.
  let listed = false
  for (const line of body) {
    const bullet = /^\s*[-*+]\s/.test(line.text) || /^\s*\d+[.)]\s/.test(line.text)
    if (fieldOf([line], FIELD) !== undefined) {
      field = fieldOf([line], TEXT_FIELD) === undefined ? undefined : []
      if (field !== undefined) byField.set(line.n, field)
      listed = field !== undefined && /:\s*$/.test(line.text)
    } else if (field !== undefined && /^\s+\S/.test(line.text) && (!bullet || listed)) {
      field.push(line)
      listed ||= /:\s*$/.test(line.text)
    } else {
      field = undefined
    }
  }
  return byField
}

/**
 * The text of a `###` part of a section whose name matches (`### Decision`, `### Context`), as logs
 * that keep Nygard's sections under each decision's heading write them; empty when there is none.
 */
function partOf(section: Section, name: RegExp): string {
  const part = subsections(section).subs.find((s) => name.test(s.heading))
  return part === undefined ? '' : textOf(part.body.filter((l) => !isLinkDefinition(l.text)))
}

/** The lines of a section's `###` parts whose name matches, their headings included. */
function partLines(section: Section, name: RegExp): Set<number> {
  const lines = new Set<number>()
  for (const part of subsections(section).subs.filter((s) => name.test(s.heading))) {
    lines.add(part.line)
    for (const line of part.body) lines.add(line.n)
  }
  return lines
}

function readSection(file: RecordFile, section: Section, definitions: LinkDefinitions, latest?: string, statusless = false): ParsedRecord {
  const title = shownTitleOf(section.heading) || section.heading
  const body = section.body
  const continued = continuations(body)
  const continuation = new Set([...continued.values()].flat().map((l) => l.n))
  /** A field's value with the lines that continue it. */
  const valueOf = (name: RegExp): string | undefined => {
    const line = body.find((l) => fieldOf([l], name) !== undefined)
    const field = line === undefined ? undefined : fieldOf([line], name)
    if (line === undefined || field === undefined) return undefined
    return [field.value, ...(continued.get(line.n) ?? []).map((l) => l.text.trim())].join('\n').trim()
  }
  const statusField = fieldOf(body, /^status$/i)
  // Else a "### Status" part, as a log that nests Nygard's sections under each decision writes it:
  // its lines read as an adr-tools record's ("Accepted", "Superseded by [...]", "Supersedes [...]").
  const statusPart = statusField === undefined ? subsections(section).subs.find((s) => /^status$/i.test(s.heading)) : undefined
  // In a log that writes no status at all (`statusless`), as many keep one, each entry a decision
  // made: an entry named by its key (`## D-004 · 2026-09-22 · North star`) or saying what was decided
  // (`**Decision:** We will …`) is read as accepted, and said, as a MADR record with no status is. A
  // section that is neither (`## Open questions`) is no decision; nor is an entry without a status
  // in a log that writes them, which may be one not decided yet.
  const unstated = statusField === undefined && statusPart === undefined
  if (unstated && !(statusless && (keyWritten(section.heading) !== undefined || fieldOf(body, /^(decision|decided)$/i) !== undefined))) {
    throw new UnreadableRecord(section.line, `${quoted(section.heading)} has no "Status:" field`)
  }
  const {
    status,
    supersedes: fromPart,
    supersededBy: fromStatus,
    date: statusDate,
    passedOver,
    notes,
  } = unstated
    ? {
        status: 'accepted' as const,
        supersedes: null,
        supersededBy: null,
        date: null,
        passedOver: [],
        notes: [{ line: section.line, message: `${quoted(section.heading)} has no "Status:" field; read as accepted, a decision of the log`, read: true as const }],
      }
    : statusField !== undefined
    ? statusOfLines([{ n: statusField.line, text: statusField.value }], statusField.line, definitions, latest)
    : statusOfLines(
        (statusPart as Section).body.filter((l) => !isLinkDefinition(l.text) && fieldOf([l], BESIDE_STATUS) === undefined),
        (statusPart as Section).line,
        definitions,
        latest,
      )
  // A `- Date:` that cannot be read is passed over, and said; then the heading's date, else the day
  // written with the status (`- Status: Accepted on 2024-01-10`); none is no date, as in MADR: the
  // import dates the decision the day it first sees it.
  const unreadDates: UnreadDate[] = []
  // A day with its time (`Use X (2024-02-01T10:00:00Z)`, `(2024-02-01 21:33:43 -0800)`) or written first (`Use X (31.12.2023)`)
  // in the heading is read as readDate reads it, and one it cannot (`2024-02-01T25:00:00Z`;
  // `12/02/2016`: the 12th of February or December 2nd) said, rather than passed over in silence.
  const inHeading = FIRST_DAY.exec(section.heading)?.[1] ?? DAY_TIMED.exec(section.heading)?.[1] ?? DAY_FIRST.exec(section.heading)?.[1]
  const date =
    readDateFields([fieldOf(body, /^date$/i), fieldOf(body, DECISION_DATE_FIELD)], unreadDates, latest) ??
    readDateField(inHeading === undefined ? undefined : { value: inHeading, line: section.line }, unreadDates, latest) ??
    statusDate
  const said: Array<{ line: number; message: string; read?: true }> = [...notes]
  // A field that names several records (`- Superseded by: D-007, D-009`) links the first, and says so.
  const link = (field: { value: string; line: number } | undefined, word: string) => {
    if (field === undefined) return null
    const [first, ...more] = recordsNamed(field.value, definitions)
    if (first !== undefined && more.length > 0) {
      said.push({ line: field.line, message: `${word} names ${more.length + 1} records (${shortList([first, ...more])}); a decision links one, so only the first is linked` })
    }
    return { target: first ?? linkTarget(field.value, definitions), line: field.line }
  }
  // A "### Status" or "### Decision" part is read as its field would be, and is no more prose than the field.
  const parts = partLines(section, /^(status|decision( outcome)?)$/i)
  const prose = textOf(
    body.filter(
      (l) => fieldOf([l], FIELD) === undefined && !continuation.has(l.n) && !parts.has(l.n) && !isLinkDefinition(l.text) && !BREAK.test(l.text),
    ),
  )
  const text = [section.heading, ...body.map((l) => l.text)].join('\n')
  return {
    key: keyOfSection(section),
    title,
    decision: valueOf(/^decision$/i) || partOf(section, /^decision( outcome)?$/i) || title,
    rationale:
      valueOf(/^(rationale|why|reason)$/i) ||
      valueOf(/^context$/i) ||
      partOf(section, /^(rationale|why|reason)$/i) ||
      partOf(section, /^context( and problem statement)?$/i) ||
      prose ||
      `not stated in ${file.path}`,
    status,
    date,
    enforce: readEnforce(fieldOf(body, /^enforce$/i)),
    supersedes: link(fieldOf(body, /^(supersedes|supercedes)$/i), 'Supersedes') ?? fromPart,
    supersededBy: fromStatus ?? link(fieldOf(body, /^(superseded|superceded) by$/i), 'Superseded by'),
    origin: { path: file.path, line: section.line, format: 'decisions-md' },
    evidence: fileEvidence(file, 'decisions-md', text, `, section "${section.heading}"`),
    unreadDates,
    passedOver: passedOver.map((l) => ({ text: l.text.trim(), line: l.n })),
    ...(said.length > 0 ? { notes: said } : {}),
  }
}

/** The lines of a `##` section before its first `###`, and its `###` sections (outside fenced code). */
function subsections(section: Section): { head: Line[]; subs: Section[] } {
  const head: Line[] = []
  const subs: Section[] = []
  let fenced = false
  for (const line of section.body) {
    if (/^\s*(```|~~~)/.test(line.text)) fenced = !fenced
    const heading = fenced || !/^###\s/.test(line.text) ? null : atxHeading(line.text)
    if (heading !== null) {
      subs.push({ heading: heading[2].trim(), line: line.n, body: [] })
      continue
    }
    const current = subs[subs.length - 1]
    if (current === undefined) head.push(line)
    else current.body.push(line)
  }
  return { head, subs }
}

/**
 * The decisions of a `##` section: the section itself, or, when it only groups decisions (`## Active`,
 * `## 2024`: no key in its heading, no status of its own) and its `###` sections have keys or
 * statuses, those.
 */
function decisionSections(section: Section): Section[] {
  const { head, subs } = subsections(section)
  const isDecision = (heading: string, body: readonly Line[]) => keyWritten(heading) !== undefined || fieldOf(body, /^status$/i) !== undefined
  // A table listing the log's decisions by key (`| ID | Date | Decision | Status |`) is an index of them, not
  // the fields of one: a section holding only that is none, and the group's own status is none of its;
  // nor is the break a log sets its sections apart with (`---`) anything more of it.
  const own = withoutIndexTables(head)
  if (keyWritten(section.heading) === undefined && subs.length === 0 && own.length < head.length && filled(own).every((l) => BREAK.test(l.text))) return []
  if (isDecision(section.heading, own) || !subs.some((s) => isDecision(s.heading, s.body))) return [section]
  return subs
}

/** A table's header cell naming the column of keys an index lists its decisions by. */
const KEY_COLUMN = /^(?:id|key|#|no\.?|nr\.?|ref|adr|decision id)$/i

/**
 * The lines without each table whose header names a column of keys (`| ID | … |`) and whose rows
 * write keys in it (`| D-001 | … |`): an index of decisions. Any other table stays.
 */
function withoutIndexTables(lines: readonly Line[]): Line[] {
  const kept: Line[] = []
  for (let i = 0; i < lines.length; ) {
    if (!/^\s*\|/.test((lines[i] as Line).text)) {
      kept.push(lines[i] as Line)
      i++
      continue
    }
    let end = i
    while (end < lines.length && /^\s*\|/.test((lines[end] as Line).text)) end++
    const table = lines.slice(i, end)
    const cells = (line: Line) => line.text.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.replace(/[*_`]/g, '').trim())
    const column = cells(table[0] as Line).findIndex((c) => KEY_COLUMN.test(c))
    const rows = table.slice(1).filter((row) => !/^[\s|:-]+$/.test(row.text))
    const index = column >= 0 && rows.length > 0 && rows.every((row) => keyWritten(cells(row)[column] ?? '') !== undefined)
    if (!index) for (const line of table) kept.push(line)
    i = end
  }
  return kept
}

/**
 * A section-based decision log (`DECISIONS.md`): one `##` section per decision (or one `###`
 * section per decision, grouped under `##` headings that are not decisions themselves), its heading
 * holding a key (`D-001`) and/or a date, then fields (`- Status:`, `- Date:`, `- Enforce:`,
 * `- Supersedes:`, `- Superseded by:`, `- Decision:`, `- Rationale:`) and prose, which is the
 * rationale when no field gives one. A section that cannot be read is a problem at its line;
 * the others are read. `keys` names every section, read or not: a decision imported from a
 * section no longer among them was taken out of the log.
 */
/**
 * Whether a section writes a status otherwise than in a `Status:` field: a field of another name
 * whose value is a status alone (`- State: rejected`, `**Outcome:** Proposed`), or a status in
 * brackets in its heading (`## D-002 [Rejected] Use Y`, `## Use X (draft)`). A log that does is no
 * log that writes no status, whose entries are each a decision made.
 */
function saysStatus(section: Section): boolean {
  const isStatus = (text: string) => text.split(/\s+/).length <= 3 && readStatusLine(text)?.status !== undefined
  const inHeading = [...section.heading.matchAll(/[([]([^()[\]]+)[)\]]/g)].some((m) => isStatus((m[1] as string).trim()))
  return inHeading || section.body.some((line) => {
    const field = fieldOf([line], /./)
    return field !== undefined && field.value !== '' && isStatus(field.value.replace(/[*_]/g, '').trim())
  })
}

export function readDecisionsMd(file: RecordFile, latest?: string): FileReading & { keys: string[] } {
  const reading: FileReading & { keys: string[] } = { records: [], problems: [], keys: [] }
  const definitions = linkDefinitions(file.text)
  // A log with no `##` heading may keep its decisions a level down, right under its title (`### D-001: Use X`).
  const lines = numbered(file.text)
  const top = parseRecord(lines)
  const sections = top.sections.length > 0 ? top.sections : parseRecord(lines, 3).sections
  const decisions = sections.flatMap(decisionSections)
  const statusless = !decisions.some((s) => fieldOf(s.body, /^status$/i) !== undefined || subsections(s).subs.some((sub) => /^status$/i.test(sub.heading)) || saysStatus(s))
  for (const section of decisions) {
    if (filled(section.body).length === 0 && keyWritten(section.heading) === undefined) continue
    reading.keys.push(keyOfSection(section))
    try {
      const record = readSection(file, section, definitions, latest, statusless)
      reading.records.push(record)
      reading.problems.push(...unreadDateProblems(record))
    } catch (error) {
      if (!(error instanceof UnreadableRecord)) throw error
      reading.problems.push({ path: file.path, line: error.line, message: error.message })
    }
  }
  // A log of which no section could be found (its decisions in a table, in a list) is said, not read as empty.
  if (reading.keys.length === 0 && filled(setextAsAtx(lines)).some((l) => !/^#\s/.test(l.text))) {
    reading.problems.push({ path: file.path, line: 1, message: 'no decision found: a DECISIONS.md holds one "## " section per decision, with a "- Status:" field' })
  }
  return reading
}
