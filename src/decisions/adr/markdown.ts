import { inlineLink, linksAsText, referenceLink } from './links'

/** One line of a record, with its 1-based number in the file. */
export interface Line {
  n: number
  text: string
}

/** A `##` section of a record: its heading and the lines under it (deeper headings included). */
export interface Section {
  heading: string
  line: number
  body: Line[]
}

/** A Markdown record split the way decision records are written: a `#` title and `##` sections. */
export interface MarkdownRecord {
  title: { text: string; line: number } | null
  /** Lines between the title and the first `##` (adr-tools' `Date:`, log4brains' bullets). */
  preamble: Line[]
  sections: Section[]
}

/** Lines of a text, numbered from `first`. */
export function numbered(text: string, first = 1): Line[] {
  return text.split(/\r?\n/).map((t, i) => ({ n: first + i, text: t }))
}

/** A setext heading's underline: `===` makes the line above a `#` heading, `---` a `##` one. */
const SETEXT_UNDERLINE = /^ {0,3}(=+|-{2,})[ \t]*$/

/**
 * Lines with their setext headings (`Use Postgres` over `============`, `Status` over `------`, as
 * many records are written, and as some converters write every heading) written as ATX ones
 * (`# Use Postgres`, `## Status`), their underlines made blank, so that every line keeps its number.
 * Only a line of text alone in its paragraph (a blank line, or the file's start, before it) is a
 * heading so: a `---` under a paragraph's last line, a bullet, a quote or a table row is taken for the
 * break it most often is. Fenced code, and the front matter a file opens with, are left as they are.
 */
export function setextAsAtx(lines: readonly Line[]): Line[] {
  const out = lines.map((l) => ({ ...l }))
  let start = 0
  if (/^---\s*$/.test(out[0]?.text ?? '')) {
    const end = out.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l.text))
    if (end !== -1) start = end + 1
  }
  let fenced = false
  for (let i = start; i < out.length; i++) {
    const line = out[i] as Line
    if (/^\s*(```|~~~)/.test(line.text)) fenced = !fenced
    const under = out[i + 1]
    if (fenced || under === undefined) continue
    const underline = SETEXT_UNDERLINE.exec(under.text)
    if (underline === null || line.text.trim() === '' || (i > start && (out[i - 1] as Line).text.trim() !== '')) continue
    if (/^ {0,3}(?:#|[-*+]\s|>|\||```|~~~|<)/.test(line.text) || /^\s{4}/.test(line.text)) continue
    // An item of a numbered list over `---` is the list and a break; over `===`, a title numbered as adr-tools numbers it.
    // So is a field with its value (`**Status:** Accepted | **Date:** 2024-01-10` over `---`), which
    // the record's fields were read as before, rather than a section whose heading holds them.
    const field = /^\s*(?:\*\*|__)?[A-Za-z][A-Za-z -]*?(?::(?:\*\*|__)|(?:\*\*|__)?:)\s*\S/.test(line.text)
    if ((/^ {0,3}\d{1,9}[.)]\s/.test(line.text) || field) && !(underline[1] as string).startsWith('=')) continue
    out[i] = { n: line.n, text: `${(underline[1] as string).startsWith('=') ? '#' : '##'} ${line.text.trim()}` }
    out[i + 1] = { n: under.n, text: '' }
    i++
  }
  return out
}

/** A text with its setext headings written as ATX ones (see setextAsAtx), line for line. */
export function withAtxHeadings(text: string): string {
  return setextAsAtx(numbered(text))
    .map((l) => l.text)
    .join('\n')
}

/**
 * Splits Markdown lines into a title, a preamble and `##` sections; headings inside fenced code
 * blocks are text, not structure, and setext headings (`Status` over `------`) are headings. A record whose sections are deeper headings (`### Status`,
 * `### Context`, as some templates and wikis write them under the title) is split at headings
 * from `##` down to `deepest` (2, `##` only, unless told).
 */
export function parseRecord(lines: readonly Line[], deepest = 2): MarkdownRecord {
  let title: MarkdownRecord['title'] = null
  const preamble: Line[] = []
  const sections: Section[] = []
  let fenced = false
  // An HTML comment begun on a line of its own, to the line that closes it, as a log keeps the
  // template of its next entry in one (`<!-- TEMPLATE … ## ADR-[NNN]: [Short Title] … -->`): none
  // of it is read, as the reader does not see it; its headings were a decision, its fields the
  // section's before it (`**Date**: YYYY-MM-DD`, said as a date that cannot be read).
  let commented = false
  for (const line of setextAsAtx(lines)) {
    const opens: boolean = !commented && !fenced && /^ {0,3}<!--/.test(line.text) && !line.text.includes('-->', line.text.indexOf('<!--') + 4)
    if (opens || commented) {
      commented = opens || !line.text.includes('-->')
      continue
    }
    if (/^\s*(```|~~~)/.test(line.text)) fenced = !fenced
    const heading = fenced ? null : atxHeading(line.text)
    if (heading !== null && heading[1] === '#' && title === null && sections.length === 0) {
      title = { text: (heading[2] as string).trim(), line: line.n }
      continue
    }
    if (heading !== null && heading[1] !== '#' && (heading[1] as string).length <= deepest) {
      sections.push({ heading: (heading[2] as string).trim(), line: line.n, body: [] })
      continue
    }
    const current = sections[sections.length - 1]
    if (current === undefined) preamble.push(line)
    else current.body.push(line)
  }
  return { title, preamble, sections }
}

/** The first section whose heading matches, an emoji before its name aside (`## 🚦 Status`, `## 📝 Decision`). */
export function sectionNamed(record: MarkdownRecord, name: RegExp): Section | undefined {
  return record.sections.find((s) => name.test(headingName(s.heading)))
}

/** Emoji before a heading's name, as some templates mark each section. */
const HEADING_BADGE = /^[\p{Extended_Pictographic}\uFE0F\u200D][\p{Extended_Pictographic}\uFE0F\u200D \t]*/u

/** A heading's name without the emoji before it. */
export function headingName(heading: string): string {
  return heading.replace(HEADING_BADGE, '')
}

/**
 * The text of some lines: blank lines at either end dropped, runs of blank lines made one, and the
 * HTML comments left out, which the reader of the record does not see: the guidance a template
 * writes in each section (`<!-- Describe the decision we have made. -->`, GOV.UK's, MADR's), left
 * in place, is no part of the decision or its reasons. A comment in a code block is the example's.
 */
export function textOf(lines: readonly Line[]): string {
  let text = withoutGuidance(withoutComments(lines.map((l) => l.text)))
    .map((t) => t.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  // The break a record or a log puts between sections (`---`, `***`, `___`) ends the text before
  // it as layout, not as text; one in a code block is followed by its fence, and stays.
  for (let end = ENDING_BREAK.exec(text); end !== null; end = ENDING_BREAK.exec(text)) text = text.slice(0, end.index).trim()
  return text
}

/** A thematic break on a line of its own after a blank line (or alone) that ends a text. */
const ENDING_BREAK = /(?:^|\n\n)[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/

/**
 * Some prose without its HTML comments (one not closed runs to the end), a code span passed over
 * whole, as markdown reads it before any comment: `<!--` written in one (``Use `<!--` to start a
 * comment``) opens none, and must not take the rest of the section with it. Linear: where no run
 * of a length closes a span before a paragraph's end is kept, not searched again.
 */
function withoutProseComments(text: string): string {
  let out = ''
  let i = 0
  const unclosed = new Map<number, number>()
  const BLANK = /\n[ \t]*\n/g
  // Each found once, and again only once passed: a search from every backtick to the end would be quadratic.
  let comment = text.indexOf('<!--')
  let stop = -1
  while (i < text.length) {
    const tick = text.indexOf('`', i)
    if (comment !== -1 && comment < i) comment = text.indexOf('<!--', i)
    if (comment !== -1 && (tick === -1 || comment < tick)) {
      const end = text.indexOf('-->', comment + 4)
      out += text.slice(i, comment)
      i = end === -1 ? text.length : end + 3
      continue
    }
    if (tick === -1) break
    let j = tick
    while (text[j] === '`') j++
    const run = j - tick
    let close = -1
    if ((unclosed.get(run) ?? -1) <= j) {
      if (stop < j) {
        BLANK.lastIndex = j
        stop = BLANK.exec(text)?.index ?? text.length
      }
      for (let k = text.indexOf('`', j); k !== -1 && k < stop; ) {
        let e = k
        while (text[e] === '`') e++
        if (e - k === run) {
          close = e
          break
        }
        k = text.indexOf('`', e)
      }
      if (close === -1) unclosed.set(run, stop)
    }
    out += text.slice(i, close === -1 ? j : close)
    i = close === -1 ? j : close
  }
  return out + text.slice(i)
}

/**
 * Hands each line to `prose`, or to `code` when it is in a fenced code block (its fences included):
 * a fence opens at three backticks or tildes, and closes at as many or more of the same.
 */
function byFences(lines: readonly string[], prose: (line: string) => void, code: (line: string) => void): void {
  let fence: string | undefined
  for (const line of lines) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === undefined && marker !== undefined) {
      fence = marker
      code(line)
    } else if (fence !== undefined) {
      code(line)
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
    } else prose(line)
  }
}

/** Lines without the HTML comments outside code blocks (one that is not closed runs to their end). */
function withoutComments(lines: readonly string[]): string[] {
  const out: string[] = []
  let prose: string[] = []
  const flush = () => {
    // Line by line: spread as arguments, a section of 200,000 lines overflowed the stack.
    if (prose.length > 0) for (const line of withoutProseComments(prose.join('\n')).split('\n')) out.push(line)
    prose = []
  }
  byFences(lines, (line) => prose.push(line), (line) => {
    flush()
    out.push(line)
  })
  flush()
  return out
}

/**
 * The guidance of the templates most records are written from, as their sections say it in prose
 * rather than in a comment: Michael Nygard's questions (`What is the change that we're proposing
 * and/or doing?`, as the template most copied writes them) and adr-tools' sentences (`The change that
 * we're proposing or have agreed to implement.`). Left in place above a record's own text, or alone
 * in a section never filled in, it is no part of the decision or its reasons.
 */
const TEMPLATE_GUIDANCE = [
  /^what is the issue that we are seeing that (?:is motivating|motivates) this decision(?: or change)?$/,
  /^(?:what is )?the change that we are proposing (?:and\/or doing|or have agreed to implement)$/,
  /^what becomes easier or more difficult to do (?:because of this change|and any risks introduced by (?:the|this) change(?: that will need to be mitigated)?)$/,
  /^the issue motivating this decision,? and any context that influences or constrains the decision$/,
]

/**
 * A paragraph of prose as its reader sees it, to compare with a template's guidance: without the
 * marks that set it apart (a quote's `>`, emphasis, the brackets or braces a placeholder is written
 * in), its apostrophes one, `we're` as `we are`, and no stop or question mark at its end.
 */
function guidanceWords(paragraph: readonly string[]): string {
  const words = paragraph
    .map((l) => l.replace(/^\s*(?:>\s*)*/, ''))
    .join(' ')
    .replace(/[*_]+/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .toLowerCase()
    .replace(/\bwe're\b/g, 'we are')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[[{(]\s*(.*?)\s*[\]})]$/, '$1')
  return withoutClosingMarks(words, '.?')
}

/**
 * A text without the run of `marks` it ends with and the white space before that run, as
 * `.replace(/\s*[.?]+$/, '')` left it: that pattern ran from each mark of a run to its end, and a
 * paragraph of 100,000 full stops before a word took half a minute to compare with the guidance.
 */
export function withoutClosingMarks(text: string, marks: string): string {
  const unmarked = withoutTrailing(text, marks)
  return unmarked.length === text.length ? text : unmarked.trimEnd()
}

/** Lines without the paragraphs that are a template's guidance (outside code blocks: an example keeps it). */
function withoutGuidance(lines: readonly string[]): string[] {
  const out: string[] = []
  let paragraph: string[] = []
  const flush = () => {
    const words = guidanceWords(paragraph)
    if (!(words !== '' && TEMPLATE_GUIDANCE.some((g) => g.test(words)))) for (const line of paragraph) out.push(line)
    paragraph = []
  }
  const code = (line: string) => {
    flush()
    out.push(line)
  }
  byFences(lines, (line) => (line.trim() === '' || /^\s*>\s*$/.test(line) ? code(line) : paragraph.push(line)), code)
  flush()
  return out
}

/** The first paragraph of some lines. */
export function firstParagraph(lines: readonly Line[]): string {
  return textOf(lines).split(/\n\s*\n/)[0] ?? ''
}

/** The non-blank lines of a section (or any lines). */
export function filled(lines: readonly Line[]): Line[] {
  return lines.filter((l) => l.text.trim() !== '')
}

/**
 * A `Name: value` field as decision logs write it: `- Status: accepted`, `* Date: 2024-01-10`,
 * `**Status:** accepted`, `- **Status**: accepted` or `Status: accepted`, also quoted, as many records set
 * their fields apart under the title (`> **Status:** accepted`). HTML comments are not
 * part of the value: the log4brains and MADR 2 templates end their bullets with `<!-- optional -->`,
 * and records written from them often keep it. Several fields on one line, each in bold after a
 * `|` or `·` (`**Status:** Accepted | **Date:** 2026-07-13`, `**Status:** accepted · **Date:** …`),
 * are each a field of that line.
 */
export function fieldOf(lines: readonly Line[], name: RegExp): { value: string; line: number } | undefined {
  // The rows of a table in columns, the names in its header: no field named by its first cell.
  const columned = new Set<number>()
  for (const [i, line] of lines.entries()) {
    // A table laid out in columns (`| Status | Date | Deciders |`, `|---|---|---|`, then
    // `| Accepted | 2024-01-10 | Ana |`): each header cell names the field of its column.
    const columns = columnsAt(lines, i)
    if (columns !== undefined) {
      for (const row of [line, lines[i + 1], lines[i + 2]]) if (row !== undefined) columned.add(row.n)
      const at = columns.names.findIndex((cell) => name.test(cell))
      if (at >= 0) return { value: (columns.values[at] ?? '').replace(/<!--.*?(-->|$)/g, '').trim(), line: columns.line }
    }
    if (columned.has(line.n)) continue
    // A row of a table of fields under the title (`| Status | Accepted |`), as some templates keep them.
    const row = tableField(line.text)
    if (row !== undefined && name.test(row[0].trim())) return { value: row[1].replace(/<!--.*?(-->|$)/g, '').trim(), line: line.n }
    for (const part of line.text.split(NEXT_FIELD)) {
      const match = /^\s*(?:>\s*)*(?:[-*+]\s+)?(?:\*\*|__)?([A-Za-z][A-Za-z -]*?)(?::(?:\*\*|__)|(?:\*\*|__)?:)\s*(.*)$/.exec(part)
      if (match !== null && name.test((match[1] as string).trim())) {
        return { value: (match[2] as string).replace(/<!--.*?(-->|$)/g, '').trim(), line: line.n }
      }
    }
  }
  return undefined
}

/** The cells of a table row (`| a | b |`, or without the outer bars), in bold or not. */
function cellsOf(text: string): string[] {
  return text
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim().replace(/^(?:\*\*|__)(.*?)(?:\*\*|__)$/, '$1').replace(/:$/, '').trim())
}

/** The names of a record's fields a header row may hold. */
const COLUMN_NAME = /^(?:status|date|decision[- ]date|last updated|updated|deciders|decision[- ]makers|authors?|owners?|consulted|informed|tags|supersedes|superseded by|enforce)$/i

/** A table's delimiter row: `|---|:--:|`. */
const DELIMITER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/

/**
 * A table at line `i` whose header names a field in each column (`| Status | Date |`, at least one
 * of them a record's field) above its delimiter row and a row of values: the names and values, and
 * the values' line. A table of fields in rows (`| Field | Value |` above `| Status | Accepted |`) is none.
 */
function columnsAt(lines: readonly Line[], i: number): { names: string[]; values: string[]; line: number } | undefined {
  const [header, delimiter, values] = [lines[i], lines[i + 1], lines[i + 2]]
  if (header === undefined || delimiter === undefined || values === undefined) return undefined
  if (!/^\s*\|/.test(header.text) || !DELIMITER_ROW.test(delimiter.text) || !/^\s*\|/.test(values.text)) return undefined
  const names = cellsOf(header.text)
  // Two fields named at least: `| Status | Accepted |` above `|---|---|` is a table of fields in rows.
  if (names.filter((cell) => COLUMN_NAME.test(cell)).length < 2) return undefined
  return { names, values: cellsOf(values.text), line: values.n }
}

/**
 * A table row naming a field in its first cell and its value in the second (`| **Status** | Accepted |`):
 * the name and the value, as `/^\s*\|\s*(?:\*\*|__)?([A-Za-z][A-Za-z -]*?)(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*\|\s*([^|]*)/`
 * read them. Its lazy name and the three `\s*` after it split a run of spaces every way: a row
 * `| Status`, 400 spaces and a word, took half a minute, and 100,000 would never end. The name
 * ends where the rest of the cell may follow, which no letter or `-` begins, and from each space
 * of a run alike: it is tried there once a run, and the white space around the `:` one way only.
 */
export function tableField(text: string): [name: string, value: string] | undefined {
  const head = /^\s*\|\s*(?:\*\*|__)?(?=[A-Za-z])/.exec(text)
  if (head === null) return undefined
  const start = head[0].length
  const end = start + ((/^[A-Za-z][A-Za-z -]*/.exec(text.slice(start)) as RegExpExecArray)[0].length)
  const close = /(?:\*\*|__)?\s*(?::\s*)?(?:(?:\*\*|__)\s*)?\|\s*([^|]*)/y
  for (let at = start + 1; at <= end; at++) {
    if (at < end && text[at] !== ' ') continue
    close.lastIndex = at
    const rest = close.exec(text)
    if (rest !== null) return [text.slice(start, at), rest[1] as string]
    while (at + 1 < end && text[at + 1] === ' ') at++
  }
  return undefined
}

/**
 * A `|` or `·` and then a field in bold (`**Date:**`, `__Date__:`): where a line writes its next field.
 * Tried from the first white space of a run only (`(?<!\s)`), where a match in the run would begin
 * anyway: tried at each, the `\s+` ran to the run's end from every one of its characters, and a
 * line of 100,000 spaces took seconds each time a field was looked for, half a minute a section.
 */
export const NEXT_FIELD = /(?<!\s)\s+[|\u00b7]\s+(?=(?:\*\*|__)[A-Za-z][A-Za-z -]*?(?::(?:\*\*|__)|(?:\*\*|__):))/

/** Link reference definitions, by label: `[label]: target` (labels compare case-insensitively). */
export type LinkDefinitions = ReadonlyMap<string, string>

const DEFINITION = /^ {0,3}\[([^\]]+)\]:\s*<?([^\s>]+)>?/

function labelOf(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The link reference definitions of a text (`[adr4]: 0004-use-x.md`), the first of a label kept. */
export function linkDefinitions(text: string): LinkDefinitions {
  const definitions = new Map<string, string>()
  for (const line of text.split(/\r?\n/)) {
    const match = DEFINITION.exec(line)
    const label = match === null ? '' : labelOf(match[1] as string)
    if (match !== null && !definitions.has(label)) definitions.set(label, match[2] as string)
  }
  return definitions
}

/** Whether a line is a link reference definition, which is no text of its own. */
export function isLinkDefinition(text: string): boolean {
  return DEFINITION.test(text)
}

/**
 * A text without the characters of `marks` it ends with, as `.replace(/[.;]+$/, '')` left it: such a
 * pattern ran from each of them to the next other character, and 100,000 full stops before a letter
 * (`Superseded by Accepted`, the stops, `x`) took twenty seconds.
 */
export function withoutTrailing(text: string, marks: string): string {
  let end = text.length
  while (end > 0 && marks.includes(text[end - 1] as string)) end--
  return text.slice(0, end)
}

/** A link's target as a file name: its anchor and folders left out. */
function fileOf(target: string): string {
  return target.replace(/#.*$/, '').replace(/^.*\//, '').trim()
}

/**
 * An ATX heading's level (`##`) and text, without the closing `#`s and the white space at its ends,
 * or null. Read as `/^(#{1,6})\s+(.*?)\s*#*\s*$/` was, whose lazy text and the white space on
 * either side of the `#`s tried every split of a run of spaces: a heading of 30,000 spaces before
 * a word took hours, and `import-adr` never ended.
 */
export function atxHeading(text: string): [string, string, string] | null {
  const marks = /^(#{1,6})\s+/.exec(text)
  if (marks === null) return null
  const rest = text.slice(marks[0].length).trimEnd()
  let end = rest.length
  while (end > 0 && rest[end - 1] === '#') end--
  const words = rest.slice(0, end).trimEnd()
  // A line break within it (U+2028) is none, as `.` read it.
  return /[\n\r\u2028\u2029]/.test(words) ? null : [text, marks[1] as string, words]
}

/**
 * The file a name written without a link names: a record's file after its folders, wherever they
 * begin (`see ../platform/0012-use-x.md`), else the name with the folders of its first word taken
 * off. A `/` in the prose after a name (`D-16 (2026-10-04). … sending /api to …`) is no folder of
 * it: taken for one, the name was the words after that `/`, which name no record, and the link
 * was left out.
 */
function writtenFileOf(text: string): string {
  const file = fileOf(text)
  if (/\.md[.,;:!]*$/i.test(file)) return file
  // A fragment is no part of the name (`ADR-0009#decision`, `8 #perf`); a number after a word is
  // (`Decision #3`), which was cut to `Decision`.
  const named = text.replace(/#.*$/, (fragment, at: number) => (/^#\d/.test(fragment) && /\p{L} $/u.test(text.slice(0, at)) ? fragment : ''))
  return named.trim().replace(/^\S*\//, '').trim()
}

/**
 * The link target of `[text](target)`, or of a reference link (`[text][label]`, `[label][]`,
 * `[label]`) that `definitions` defines, else the text itself: what a "Superseded by" names.
 * A link within the page (`[D-002](#d-002-use-spaces)`) or to no definition names its text.
 */
export function linkTarget(text: string, definitions: LinkDefinitions = new Map()): string {
  // A destination in angle brackets (`[8. Use H](<0008-use-h.md>)`, `(<0008 use h.md>)`), as CommonMark
  // and editors write one that may hold spaces, is the name between them.
  const link = inlineLink(text)
  if (link !== undefined) return fileOf(decoded((link.angled ?? link.bare) as string)) || link.text.trim()
  const reference = referenceLink(text)
  // Text alone that a file name cannot be read from (`#9`, all of it a fragment) names itself, as written.
  if (reference === undefined) return writtenFileOf(text) || text.trim()
  const label = reference.label || reference.text
  return fileOf(decoded(definitions.get(labelOf(label)) ?? '')) || label.trim()
}

/**
 * A link destination as the file name it names: editors and GitHub write a name with a space or
 * letters outside ASCII percent-encoded (`0002-%E3%82%AD.md`, `use%20postgres.md`). One that is
 * not valid percent-encoding is taken as written.
 */
function decoded(destination: string): string {
  try {
    return decodeURIComponent(destination)
  } catch {
    return destination
  }
}

/**
 * A record's title without the number its heading carries (`6. Use X`, `ADR-001: Use X`,
 * `ADR 12 - Use X`, `0012 - Use X`, `Architecture Decision Record 12: Use X`): the key says the number already. A bare number (`6. `, `6: `) is the record's
 * only when it is `number`, the one of its file (`0006-….md`): `2024: The year of Rust` in
 * `0003-rust.md` keeps its year. A title that is a number and nothing else, or one that only
 * begins with one (`1.5x memory budget`, `3 replicas per region`), is kept.
 */
export function titleWithoutNumber(title: string, number?: number): string {
  // `ADR` written out too, as 18F's records head theirs (`Architecture Decision Record 11: Lifecycle
  // Policy for ECR`), and the words alone before a colon or a dash (`Architecture Decision Record: Use X`, `ADR: Use X`).
  const adr =
    /^(?:adr|architecture[-_ ]decision[-_ ]record)[-_ ]?\d+\s*(?:[:.\u2013\u2014-]\s*|\s)/i.exec(title) ??
    /^\[adr[-_ ]?\d+\]\s*(?:[:.\u2013\u2014-]\s*)?/i.exec(title) ??
    /^(?:adr|architecture[-_ ]decision[-_ ]record)\s*(?::|\s[\u2013\u2014-])\s+/i.exec(title)
  // In brackets too (`[001] Use X`, as Gareth Morgan's template writes it), or before a dash (`0002 - Use X`, `0002 — Use X`).
  const bare = adr === null ? (/^(\d+)(?:[.:]|\s+[-\u2013\u2014])\s+/.exec(title) ?? /^\[(\d+)\]\s*(?:[:.\u2013\u2014-]\s*)?/.exec(title)) : null
  const cut = adr ?? (bare !== null && Number(bare[1]) === number ? bare : null)
  const rest = (cut === null ? title : title.slice(cut[0].length)).trim()
  return plainTitle(rest === '' ? title : rest)
}

/** The elements a heading may hold inline, as HTML names them. */
const ELEMENTS = 'a|abbr|b|bdi|bdo|big|br|cite|code|del|dfn|em|font|i|img|ins|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|time|tt|u|var|wbr'

/**
 * An HTML tag of such an element (`<sup>`, `</sup>`, `<a href="…">`, `<br/>`), as CommonMark reads
 * a tag: `Result<T>`, `Vec<u8>` and `Map<String, Object>` are a type's parameters, written as text,
 * and so is `Pair<A>` or `Option<S>`, in capitals, as HTML in a heading is not.
 */
const HTML_TAG = new RegExp(String.raw`<(?:\/(?:${ELEMENTS})\s*|(?:${ELEMENTS})(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?)*\s*\/?)>`, 'g')

/**
 * A heading as its reader sees it, without the marks markdown renders: emphasis (`**Postgres**`,
 * `_Redis_`, `~~X~~`), a link or an image as its text (`[pg](https://…)` → `pg`), a code span as
 * its text (`` `NN.json` `` → `NN.json`, what it holds kept as written), and HTML tags
 * (`<sup>beta</sup>` → `beta`). A title is shown as text, by `why` and in the API, where the marks
 * were read as part of it. An underscore inside a word (`snake_case`) is none (CommonMark).
 */
export function plainTitle(heading: string): string {
  const plain = heading
    .split(/(`+[^`]*?`+)/)
    .map((part, i) => {
      if (i % 2 === 1) return part.replace(/^`+\s?|\s?`+$/g, '')
      return linksAsText(part)
        .replace(/<((?:https?|mailto):[^>\s]+)>/gi, '$1')
        .replace(HTML_TAG, '')
        .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
        .replace(/\*(?=[^\s*])([^*]*?[^\s*])\*/g, '$1')
        .replace(/(^|[^\p{L}\p{N}_])_(?=[^\s_])([^_]*?[^\s_])_(?=[^\p{L}\p{N}_]|$)/gu, '$1$2')
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
  return plain === '' ? heading : plain
}

/** Lower-cased words joined by `-`, as file names and keys are made of titles. */
export function slug(text: string, max = 60): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '')
}
