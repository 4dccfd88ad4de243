import { isMap, isNode, isScalar, parseDocument, stringify as stringifyYaml } from 'yaml'
import { boundedMatter, parseMatter } from './front-matter'
import { dateOfFileName, fileEvidence, keyOfFile, linksInBody, numberOfFile, statusOfLines } from './adr-tools'
import { fieldOf, headingName, linkDefinitions, linkTarget, numbered, parseRecord, sectionNamed, textOf, titleWithoutNumber, type Line, type LinkDefinitions, type MarkdownRecord } from './markdown'
import { DECISION_DATE_FIELD, TRANSLATED_CONTEXT, TRANSLATED_DECISION, TRANSLATED_RATIONALE } from './field-names'
import { UnreadableRecord, readDateField, readDateFields, readEnforce, type LinkRef, type ParsedRecord, type RecordFile, type UnreadDate } from './parsed-record'
import { listsChoices, readStatusLine } from './status-words'
import { quoted } from './quoted-value'

/**
 * The `because` clause of a decision outcome (`Chosen option: "Postgres", because it is typed`): the
 * word and the reason. Its white space is tried from a run's first character only (`(?<!\s)`), where
 * a match in the run begins anyway, `because` following the run's end: tried from each, `\s+` ran
 * to the run's end, and an outcome of 100,000 spaces before a word took seconds.
 */
export const BECAUSE_CLAUSE = /,?(?<!\s)\s+(because:?\s+)([\s\S]+)$/i

/**
 * What MADR-shaped bodies decide and why: the first paragraph of `## Decision Outcome`
 * (`Chosen option: "X", because Y`; a Nygard-style record's `## Decision`); the rationale is a `## Rationale` section, else its "because" clause, else the
 * `## Context and Problem Statement`. A paragraph that ends at "because" (MADR's own records list
 * the reasons below it), or in a colon (a list of what was decided below it), goes on with the next one.
 */
export function madrBody(record: MarkdownRecord, title: string, path: string): { decision: string; rationale: string } {
  const section = sectionNamed(record, /^decision( outcome)?$/i) ?? sectionNamed(record, TRANSLATED_DECISION)
  const [first = '', next, after] = textOf(section?.body ?? []).split(/\n\s*\n/)
  // So does one that ends in a colon (`Chosen option: "Postgres", with these settings:`): the list
  // under it is what was decided.
  const listed = /(?:\bbecause|:)$/i.test(first) && next !== undefined && !next.startsWith('#')
  const outcome = listed ? `${first}\n\n${next}` : first
  // In MADR's "Decision Outcome", a sentence right after that list, with no "because" before it,
  // says why (`Postgres is the only database our team already runs.`); a heading, a comment, a line
  // that opens something else (`**Positive Consequences:**`), or what follows an example that is no
  // list (a code block: more of the decision) does not.
  const afterList =
    listed &&
    /^decision outcome$/i.test(headingName(section?.heading ?? '')) &&
    /^(?:[-*+]|\d+[.)])\s/.test(next ?? '') &&
    after !== undefined &&
    !/^(?:#|<!--)/.test(after) &&
    !/:(?:\*\*|__)?$/.test(after)
      ? after
      : undefined
  // `because of its ecosystem` gives `because of its ecosystem`: `of its ecosystem` alone says nothing.
  const clause = BECAUSE_CLAUSE.exec(outcome)
  const [, word = '', reason = ''] = clause ?? []
  const because = clause === null ? afterList : (/^of\s/i.test(reason) ? `${word}${reason}` : reason).trim()
  const context = textOf((sectionNamed(record, /^context( and problem statement)?$/i) ?? sectionNamed(record, TRANSLATED_CONTEXT))?.body ?? [])
  // A `## Rationale` section, as many teams add to the template, says why, as in an adr-tools record.
  const reasons = textOf((sectionNamed(record, /^rationale$/i) ?? sectionNamed(record, TRANSLATED_RATIONALE))?.body ?? [])
  return {
    decision: outcome || title,
    rationale: reasons || because || context || `not stated in ${path}`,
  }
}

/**
 * The people a record names, as one line. The template's placeholder left in braces
 * (`decision-makers: {list everyone involved in the decision}`) is a YAML map whose keys hold
 * nothing: no one named (it read `[object Object]`); a map that does name people says them as
 * written (`{lead: Ann}` is `lead: Ann`).
 */
function names(value: unknown): string {
  if (Array.isArray(value)) return value.map(names).filter((name) => name !== '').join(', ')
  if (value === undefined || value === null) return ''
  if (typeof value === 'object') {
    return Object.entries(value)
      .filter(([, held]) => held !== null && held !== undefined)
      .map(([key, held]) => `${key}: ${names(held)}`)
      .join(', ')
  }
  return String(value)
}

/**
 * A link the front matter writes under a name `name` matches (`supersedes: 0003-use-x.md`,
 * `supersedes: [ADR-0003]`, a list of which the first counts), with its line; else null.
 */
function linkInMatter(
  data: Record<string, unknown>,
  matter: readonly Line[],
  name: RegExp,
  definitions: LinkDefinitions,
  notes: Array<{ line: number; message: string }>,
): LinkRef | null {
  const field = Object.keys(data).find((k) => name.test(k))
  if (field === undefined) return null
  const line = lineOfKey(matter, field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  // `supersedes: [ADR-0003]` is a YAML list of one, `[[ADR-0003]]` a list of a list (a wiki link):
  // the first it holds counts. A decision has one predecessor and one successor: a list of more
  // links the first, and says the others are left out.
  let value: unknown = data[field]
  const listed = data[field]
  if (Array.isArray(listed) && listed.length > 1) {
    notes.push({ line, message: `${field} lists ${listed.length} records; a decision links one, so only the first is linked` })
  }
  // An alias to its own list (`supersedes: &s [*s]`) is a list in itself to no end: no link, and
  // said as written, as such a status is (passed over unsaid, the record was imported unlinked).
  const seen = new Set<unknown>()
  while (Array.isArray(value) && !seen.has(value)) {
    seen.add(value)
    value = value[0]
  }
  if (Array.isArray(value)) {
    notes.push({ line, message: `${field} ${quoted(writtenAfterKey(matter, field) || flow(listed))} is a list inside itself, which names no record` })
    return null
  }
  // A mapping (`supersedes: {ADR-0004}`, braces YAML reads as one, `{a: b}`) names no record either:
  // said as written, as a status in braces is (passed over unsaid, the record was imported unlinked).
  // One left empty, `{}`, is a link left empty, as `supersedes:` is, and not said.
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    const shape = value === listed ? 'is a mapping' : 'holds a mapping'
    notes.push({ line, message: `${field} ${quoted(writtenAfterKey(matter, field) || flow(listed))} ${shape}, which names no record` })
    return null
  }
  if (value === undefined || value === null || typeof value === 'object' || String(value).trim() === '') return null
  return { target: linkTarget(String(value), definitions), line }
}

/**
 * A front matter field by its key in any case (`Date:`, `Enforce:`), as the status's is read: the
 * lower-case key first. Read as `data.date` alone, `Enforce: required` imported a required
 * decision as advisory, and `Date: 2024-02-01` as undated, each unsaid.
 */
function matterField(data: Record<string, unknown>, name: string): unknown {
  const key = matterKey(data, name)
  return key === undefined ? undefined : data[key]
}

/** The key, as the front matter writes it, of the field matterField reads. */
function matterKey(data: Record<string, unknown>, name: string): string | undefined {
  if (data[name] !== undefined) return name
  return Object.keys(data).find((k) => k.trim().toLowerCase() === name)
}

/**
 * What the front matter writes after `key:` on the key's line, as the file has it: YAML writes a
 * value anew, an alias too (`&a1 [*a1]` for `&a [*a]`), which the file's user never wrote. Without
 * a comment after it (`enforce: &e [*e]  # loops` is `&e [*e]`), which is no part of the value, a
 * `#` in quotes being one; empty where the value is on the lines under the key (or only its anchor,
 * `date: &d`, is on the key's line), or is none.
 */
function writtenAfterKey(matter: readonly Line[], key: string): string {
  const source = matter.map((l) => l.text).join('\n')
  const contents = parseDocument(source).contents
  if (!isMap(contents)) return ''
  const pair = contents.items.find((p) => isScalar(p.key) && p.key.value === key)
  const keyEnd = isScalar(pair?.key) ? pair.key.range?.[1] : undefined
  const valueEnd = isNode(pair?.value) ? pair.value.range?.[1] : undefined
  if (keyEnd === undefined || valueEnd === undefined) return ''
  const written = source.slice(keyEnd, valueEnd).replace(/^\s*:/, '')
  return written.includes('\n') ? '' : written.trim()
}

/** A YAML value in its flow form on one line (`[2024-02-01]`, `{a: b}`), for a value said that its line does not hold. */
function flow(value: unknown): string {
  return stringifyYaml(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim()
}

/** Whether a YAML value holds itself (`&a [*a]`, `[Ann, &b [*b]]`): an alias to a list or mapping it is in, to no end. */
function holdsItself(value: unknown, within: ReadonlySet<unknown> = new Set()): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (within.has(value)) return true
  const inner = new Set(within).add(value)
  return Object.values(value).some((item) => holdsItself(item, inner))
}

/** The 1-based line of a front matter key, for problems. */
function lineOfKey(lines: readonly Line[], name: string): number {
  return lines.find((l) => new RegExp(`^${name}\\s*:`, 'i').test(l.text))?.n ?? (lines[0]?.n ?? 1)
}

/**
 * The date of a MADR record: its front matter's `date`, else a `Date:` line under the title (as
 * MADR 2 and adr-tools write it), else the date a `yyyymmdd-slug.md` file is named by, as a
 * log4brains record without a date is read, else the day written with its status (`accepted (2020-05-05)`);
 * else none (MADR makes every field optional), and the import dates it the day it is first imported.
 * A date written that cannot be read, the file name's too, is passed over as if it were not written, and `unread` told.
 */
function dateOf(data: Record<string, unknown>, matter: readonly Line[], record: MarkdownRecord, name: string, statusDate: string | null, unread: UnreadDate[], latest?: string): string | null {
  const dated = matterField(data, 'date')
  // A list (`date: [2024-02-01]`) or a mapping is no date: read as written, in YAML's flow form on
  // one line, so it is said as not a date, as AXME Code says the same text. As a value, a list of
  // one was read as its day, without a word, and a mapping said as `"[object Object]"`. An empty
  // one (`date: []`, `date: {}`) writes nothing, as an empty `date:` does: no date, and nothing said.
  const empty = typeof dated === 'object' && dated !== null && !(dated instanceof Date) && Object.keys(dated).length === 0
  // As its line writes it where it can (`&a [*a]`, an alias to its own list, which YAML writes
  // `&a1 [*a1]`), else in that form (a list on the lines under the key).
  const fromMatter =
    dated instanceof Date
      ? dated.toISOString()
      : empty
        ? undefined
        : typeof dated === 'object' && dated !== null
          ? writtenAfterKey(matter, matterKey(data, 'date') ?? 'date') || flow(dated)
          : dated
  const inMatter = fromMatter === undefined || fromMatter === null ? undefined : { value: String(fromMatter), line: lineOfKey(matter, 'date') }
  const written = readDateField(inMatter, unread, latest) ?? readDateFields([fieldOf(record.preamble, /^date$/i), fieldOf(record.preamble, DECISION_DATE_FIELD)], unread, latest)
  if (written !== undefined) return written
  // A file name's day that is no decision's (`02020505-…`, before 1970) is passed over and said
  // at line 1, as a log4brains record's is, not dropped unsaid.
  const named = dateOfFileName(name)
  return readDateField(named === null ? undefined : { value: named.join('-'), line: 1 }, unread, latest) ?? statusDate
}

/**
 * Throws where the front matter's status is the template's list of statuses left as it was (MADR
 * 3's `status: {proposed | rejected | … | superseded by [ADR-0005](…)}`), said as that list.
 */
function templateStatus(matter: readonly Line[]): void {
  const template = matter.find((l) => /^status\s*:/i.test(l.text) && listsChoices(l.text.replace(/^status\s*:\s*/i, '').replace(/^["'{[\s]+|["'}\]\s]+$/g, '').toLowerCase()))
  if (template === undefined) return
  const value = template.text.replace(/^status\s*:\s*/i, '').trim()
  throw new UnreadableRecord(template.n, `unknown status ${quoted(value)}: the template's list of statuses, left as it was; write the one that holds`)
}

/**
 * The front matter's status as one value, and, for a list of several, the list as written (`said`),
 * for what cannot be read of it to be said so. A YAML list of one (`status: [accepted]`, or the item
 * on a line of its own under `status:`) is its item, read as `Status: [Accepted]` is on a status line
 * and as the quoted `"[accepted]"` is: brackets around a status filled in where the template had its
 * placeholder, and nothing said (a date so written is no date, `"[2024-02-01]"`, as that text is none
 * on any line either). An empty list (`status: []`), as an empty string (`status: ""`), writes no
 * status, as `status:` does. A list in the list (`[[accepted]]`, or an alias to the list itself,
 * `&a [*a]`, which was unwrapped without end) is no status, as the line `Status: [[accepted]]` is
 * none. A list of more is read as the status line of its items is (`[Accepted, Implemented]` as
 * `Accepted, implemented`: two words for one status), unless they name two statuses, of which a
 * decision has one: the template's list left so (`[proposed, accepted, rejected]`) is said as that
 * list, and any other as the list it is (`unknown status "[accepted, deprecated]"`): read as its
 * first, a record written deprecated too was accepted.
 */
function statusOfMatter(written: unknown, line: number, raw = ''): { value: unknown; said?: string } {
  if (typeof written === 'string' && written.trim() === '') return { value: null }
  if (!Array.isArray(written)) return { value: written }
  if (written.length === 0) return { value: null }
  const said = stringifyYaml(written, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim()
  if (written.some((item) => Array.isArray(item))) {
    // As written on its line, where it is: YAML would write an alias anew (`&a1 [*a1]` for `&a [*a]`).
    throw new UnreadableRecord(line, `unknown status ${quoted(raw || said)}: a list inside a list; write the one status that holds`)
  }
  if (written.length === 1) return statusOfMatter(written[0], line, raw)
  if (written.every((item) => typeof item === 'string') && listsChoices(written.join(' | ').toLowerCase())) {
    throw new UnreadableRecord(line, `unknown status ${quoted(said)}: the template's list of statuses, left as it was; write the one that holds`)
  }
  const statuses = new Set(written.map((item) => (typeof item === 'string' ? readStatusLine(item)?.status : undefined)))
  statuses.delete(undefined)
  if (!written.every((item) => typeof item === 'string' && item.trim() !== '') || statuses.size > 1) {
    throw new UnreadableRecord(line, `unknown status ${quoted(said)}: a list of statuses, where a decision has one; write the one that holds`)
  }
  return { value: written.join(', '), said }
}

/** What `read` gives, its unknown status said as the YAML list it was read from (`said`), not as the line its items make. */
function statusListed<T>(read: () => T, text: string, said: string | undefined): T {
  try {
    return read()
  } catch (error) {
    const written = `unknown status ${quoted(text)}`
    if (said === undefined || !(error instanceof UnreadableRecord) || !error.message.startsWith(written)) throw error
    throw new UnreadableRecord(error.line, `unknown status ${quoted(said)}${error.message.slice(written.length)}`)
  }
}

/**
 * The front matter's `enforce`, as readEnforce reads it: a list of one (`enforce: [required]`) is
 * its item, as a status's is; left empty (`enforce:`, `[]`, `{}`) it is empty; any other list or mapping is said as its line writes it (`enforce
 * "&e [*e]" is neither required nor advisory`), as a status so written is. As a value, an alias to
 * its own list was said `enforce ""`, a mapping `enforce "[object Object]"`, and a list in a list,
 * `[[required]]`, was read as its innermost item, unsaid.
 */
function enforceOf(data: Record<string, unknown>, matter: readonly Line[]): { value: string; line: number } | undefined {
  const key = matterKey(data, 'enforce')
  if (key === undefined) return undefined
  const written = data[key]
  const line = lineOfKey(matter, 'enforce')
  const one = Array.isArray(written) && written.length === 1 ? written[0] : written
  // Left empty (`enforce:`, `enforce: []`, `enforce: {}`), it is said so, not as `enforce "null"`.
  const empty = one === null || (typeof one === 'object' ? !(one instanceof Date) && Object.keys(one).length === 0 : String(one).trim() === '')
  if (empty) return { value: '', line }
  if (typeof one !== 'object') return { value: String(one), line }
  return { value: writtenAfterKey(matter, key) || flow(written), line }
}

/**
 * A MADR record (3.x/4.x): YAML front matter with `status` (`proposed`, `accepted`, `rejected`,
 * `deprecated`, `superseded by ADR-0005`), `date`, `decision-makers` (3.x: `deciders`), then a
 * `# Title` and the MADR sections.
 */
export function readMadr(file: RecordFile, latest?: string): ParsedRecord {
  const lines = numbered(file.text)
  // A record written from MADR's minimal templates has no front matter at all: read as one whose
  // front matter writes no status, when it is named as a record and has MADR's "## Decision Outcome".
  const bare = !/^---\s*$/.test(lines[0]?.text ?? '') && isBareMadr(file)
  const end = bare ? -1 : lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l.text))
  // A file that opens with no "---" has no front matter to close: said so, not as one left open
  // (an adr-tools record read with --format madr).
  if (!bare && !/^---\s*$/.test(lines[0]?.text ?? '')) {
    throw new UnreadableRecord(1, 'no front matter: a MADR record opens with "---" on its first line')
  }
  if (!bare && end === -1) throw new UnreadableRecord(1, 'the front matter opened by "---" is never closed')
  const matter = bare ? [] : lines.slice(1, end)
  const parsed = parseMatter(boundedMatter(matter))
  if ('reason' in parsed) {
    // MADR 3's template writes its status list in braces, `status: {proposed | rejected | … |
    // superseded by [ADR-0005](…)}`, which YAML cannot read: left as it was, it is said as the
    // template's list, as MADR 4's quoted one is, not as front matter that is not YAML.
    templateStatus(matter)
    // Lines are counted from the front matter's first line; the file's line is one more. An error
    // YAML gives no place (too many aliases) is said of the front matter, at the `---` opening it.
    const why = parsed.tooManyAliases === true ? `front matter has too many aliases to read safely (${parsed.reason})` : `front matter is not valid YAML: ${parsed.reason}`
    throw new UnreadableRecord(parsed.line === undefined ? 1 : parsed.line + 1, why)
  }
  const data: Record<string, unknown> = typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>) : {}
  const record = parseRecord(lines.slice(end + 1))
  // `Title:` too, as each key is read in any case (matterField): read as `data.title` alone, a record
  // titled so in its front matter, with no heading, was refused as having no title.
  const titled = matterField(data, 'title')
  const heading = typeof titled === 'string' ? titled : record.title?.text
  if (heading === undefined) throw new UnreadableRecord(end + 2, 'no "# Title" heading')
  const title = titleWithoutNumber(heading, numberOfFile(file.name))
  const statusLine = lineOfKey(matter, 'status')
  const definitions = linkDefinitions(file.text)
  // MADR 4 makes every field of the front matter optional, and its own records write no status (the
  // front matter a site wants, `parent:`, `nav_order:`): a record of a decision made is read as
  // accepted, and said. Imported, it is advisory unless it says `enforce: required`. Only a file
  // named as a record (`0005-….md`, `20240301-….md`): a page of the site beside the records
  // (`contributing.md`, `glossary.md`) is no decision; nor is a status key left empty one to read.
  const namedAsRecord = /^(?:adr[-_]?)?\d{1,5}[-_]/i.test(file.name) || dateOfFileName(file.name) !== null
  // The key in any case (`Status: Deprecated`), as the line it is said at is found: a status written
  // so is the record's, not one missing to be read as accepted.
  const statusKey = Object.keys(data).find((k) => k.trim().toLowerCase() === 'status')
  const statusValue = statusKey === undefined ? undefined : data[statusKey]
  // As its line writes it, without a comment after it (`status: {accepted}  # for now`): read (the
  // front matter parsed again) only for a list or a mapping, the only statuses said so.
  const rawStatus = statusKey !== undefined && typeof statusValue === 'object' && statusValue !== null ? writtenAfterKey(matter, statusKey) : ''
  const { value: written, said } = statusOfMatter(statusValue, statusLine, rawStatus)
  const unstated = statusKey === undefined && namedAsRecord
  if (!unstated && (written === undefined || written === null)) {
    throw new UnreadableRecord(statusKey !== undefined ? statusLine : 1, 'the front matter has no status')
  }
  // A status YAML reads as a mapping, the template's list in braces with no link in it
  // (`{proposed | accepted | … | superseded by ADR-0123}`) or `{accepted}`, is read as written: as
  // a value it was said as `unknown status "[object Object]"`.
  const mapping = typeof written === 'object' && written !== null && !Array.isArray(written)
  if (mapping) templateStatus(matter)
  const statusText = mapping ? rawStatus : String(written)
  const inStatus = unstated
    ? { status: 'accepted' as const, supersedes: null, supersededBy: null, date: null, passedOver: [], notes: [] }
    : statusListed(() => statusOfLines([{ n: statusLine, text: statusText }], statusLine, definitions, latest), statusText, said)
  // MADR's front matter has no field for the links but its status (`superseded by ADR-0005`): a
  // `supersedes:` (or `superseded-by:`) some teams add to it says one, else a "Supersedes" or
  // "Superseded by" line in the body, as adr-tools writes it.
  const inBody = linksInBody(record, definitions)
  const notes: Array<{ line: number; message: string; read?: true }> = []
  if (unstated) {
    const none = bare ? 'no front matter, so no status' : 'the front matter has no status'
    notes.push({ line: 1, message: `${none}; read as accepted (MADR makes the field optional)`, read: true })
  }
  for (const note of inStatus.notes) notes.push(note)
  const supersedes = inStatus.supersedes ?? linkInMatter(data, matter, /^(supersedes|supercedes|replaces)$/i, definitions, notes) ?? inBody.supersedes
  const supersededBy = inStatus.supersededBy ?? linkInMatter(data, matter, /^(superseded[-_ ]?by|superceded[-_ ]?by|replaced[-_ ]?by)$/i, definitions, notes) ?? inBody.supersededBy
  // What a body line names beside the link taken from it, said; not for a line the front matter overrode.
  notes.push(...inBody.notes.filter((n) => n.line === supersedes?.line || n.line === supersededBy?.line))
  // A record its successor is named in is superseded, as a "Superseded by" line makes an adr-tools
  // record, though the front matter was left saying `accepted`: once the link is found to name a
  // record of the folder (`supersededApart`), not for a placeholder such as `Superseded by: none`.
  const status = inStatus.status
  const supersededApart = supersededBy !== null && status === 'accepted'
  const statusDate = inStatus.date
  const unreadDates: UnreadDate[] = []
  const date = dateOf(data, matter, record, file.name, statusDate, unreadDates, latest)
  const makersKey = matterField(data, 'decision-makers') != null ? matterKey(data, 'decision-makers') : matterKey(data, 'deciders')
  const makers = makersKey === undefined ? undefined : data[makersKey]
  // An alias to a list it is in (`decision-makers: &a [*a]`), which names() would follow without
  // end (a stack overflow, which import-adr said of the whole folder), is kept as its line writes it.
  const deciders = makersKey !== undefined && holdsItself(makers) ? writtenAfterKey(matter, makersKey) || flow(makers) : names(makers)
  const enforce = enforceOf(data, matter)
  return {
    key: keyOfFile(file.name),
    title,
    ...madrBody(record, title, file.path),
    status,
    date,
    enforce: readEnforce(enforce),
    supersedes,
    supersededBy,
    ...(supersededApart ? { supersededApart: true as const } : {}),
    origin: { path: file.path, line: 1, format: 'madr' },
    evidence: fileEvidence(file, 'madr', file.text, deciders === '' ? '' : `; decision-makers: ${deciders}`),
    unreadDates,
    ...(notes.length > 0 ? { notes } : {}),
  }
}

/**
 * Whether a file with no front matter is a record of MADR's minimal templates, which have none: named
 * as a record (`0005-….md`, `20240301-….md`), with a "## Decision Outcome" section.
 */
export function isBareMadr(file: { name: string; text: string }): boolean {
  const namedAsRecord = /^(?:adr[-_]?)?\d{1,5}[-_]/i.test(file.name) || dateOfFileName(file.name) !== null
  return namedAsRecord && parseRecord(numbered(file.text)).sections.some((section) => /^decision outcome$/i.test(headingName(section.heading)))
}
