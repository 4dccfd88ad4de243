import { fileEvidence } from './adr-tools'
import { boundedMatter, parseMatter } from './front-matter'
import { numbered, textOf, type Line } from './markdown'
import { UnreadableRecord, readDateField, readEnforce, type LinkRef, type ParsedRecord, type RecordFile, type UnreadDate } from './parsed-record'
import { readStatusLine, statusesSaid } from './status-words'
import { quoted } from './quoted-value'

/** An AXME Code decision's id, which is its key: `D-021`. */
const AXME_ID = /^D-\d+$/

/**
 * The `key: value` lines of a file's front matter, each with its line, and the index of the line
 * that closes it; undefined when the file opens with none. AXME Code writes its values as they are
 * (`title: Postgres: why not SQLite`), which YAML would read otherwise or refuse, so a line is read
 * up to its first colon.
 */
function frontMatter(lines: readonly Line[]): { fields: Map<string, { value: string; line: number }>; end: number } | undefined {
  if (!/^---\s*$/.test(lines[0]?.text ?? '')) return undefined
  const end = lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(l.text))
  if (end === -1) return undefined
  const fields = new Map<string, { value: string; line: number }>()
  for (const l of lines.slice(1, end)) {
    const field = /^([A-Za-z][\w-]*):[ \t]*(.*)$/.exec(l.text)
    // The first line of a key counts, as AXME Code reads it.
    if (field !== null && !fields.has(field[1] as string)) fields.set(field[1] as string, { value: (field[2] as string).trim(), line: l.n })
  }
  return { fields, end }
}

/**
 * Whether a file is an AXME Code decision (`.axme-code/decisions/D-021-never-force-push.md`): front
 * matter with an `id: D-NNN` and a `title`, and no status required (AXME writes none on a decision in force).
 */
export function isAxmeCode(text: string): boolean {
  const matter = frontMatter(numbered(text))
  return matter !== undefined && AXME_ID.test(matter.fields.get('id')?.value ?? '') && (matter.fields.get('title')?.value ?? '') !== ''
}

/** What AXME Code writes where no link is: `supersedes: null`, or nothing. */
const NO_LINK = /^(?:|null|~|none|-|\[\])$/i

/** The string a YAML front matter gives a key (`decision: >` over folded lines), else ''. */
function yamlText(yaml: string, key: string): string {
  const parsed = parseMatter(yaml)
  const data = 'value' in parsed ? parsed.value : undefined
  const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * An AXME Code decision (`D-NNN-slug.md`): front matter `id`, `slug`, `title`, `date`, `source`,
 * `enforce` (`required`, `advisory`, or empty), `sessionId`, then, when set, `scope`, `status`
 * (`active`, `superseded`, `deprecated`, `revoked`; none is active), `supersededBy`, `supersedes`
 * (ids, comma separated), `revokedAt`, `revokedReason`; then `# Title`, the decision, and a
 * `## Reasoning` section. The id is the key. Keys it does not know are passed over.
 */
export function readAxmeCode(file: RecordFile, latest?: string): ParsedRecord {
  const lines = numbered(file.text)
  const matter = frontMatter(lines)
  if (matter === undefined) throw new UnreadableRecord(1, 'no front matter: an AXME Code decision opens with "---" on its first line')
  const { fields, end } = matter
  // Read line by line, its fields take no time however long it is; but a front matter over the
  // limit is none AXME Code writes, and said so, as a MADR record's is, rather than read in part.
  const yaml = boundedMatter(lines.slice(1, end))
  const id = fields.get('id')
  if (id === undefined || id.value === '') throw new UnreadableRecord(1, 'the front matter has no id')
  const body = lines.slice(end + 1)
  const titleAt = body.findIndex((l) => /^#\s+\S/.test(l.text))
  const title = fields.get('title')?.value || (titleAt === -1 ? '' : (body[titleAt] as Line).text.replace(/^#\s+/, '').trim())
  if (title === '') throw new UnreadableRecord(id.line, 'the front matter has no title')
  // The decision runs from the title to `## Reasoning`, the reasoning from there to the end, as AXME
  // Code writes and reads them; in the front matter (`decision: >`, `reasoning: >`) when the body has none.
  const after = body.slice(titleAt + 1)
  const reasoningAt = after.findIndex((l) => /^##\s+Reasoning\s*$/i.test(l.text))
  const decision = textOf(reasoningAt === -1 ? after : after.slice(0, reasoningAt)) || yamlText(yaml, 'decision')
  const reasoning = (reasoningAt === -1 ? '' : textOf(after.slice(reasoningAt + 1))) || yamlText(yaml, 'reasoning')
  // No status is a decision in force, as AXME Code reads it.
  const statusField = fields.get('status')
  const status = statusField === undefined || statusField.value === '' ? 'accepted' : readStatusLine(statusField.value)?.status
  if (status === undefined) {
    const { line, value } = statusField as { line: number; value: string }
    throw new UnreadableRecord(line, `unknown status ${quoted(value)}` + statusesSaid(value.replace(/[[\]*`]/g, '').trim().toLowerCase()))
  }
  const notes: Array<{ line: number; message: string }> = []
  const link = (name: string): LinkRef | null => {
    const field = fields.get(name)
    if (field === undefined) return null
    const ids = field.value.replace(/^\[|\]$/g, '').split(',').map((s) => s.trim()).filter((s) => !NO_LINK.test(s))
    if (ids.length > 1) notes.push({ line: field.line, message: `${name} lists ${ids.length} records; a decision links one, so only the first is linked` })
    return ids[0] === undefined ? null : { target: ids[0], line: field.line }
  }
  const supersedes = link('supersedes')
  const supersededBy = link('supersededBy') ?? link('superseded_by')
  // AXME Code leaves `enforce:` empty for a decision that only informs, and shows it as `info`
  // (`null` in its schema): advisory here.
  const enforceField = fields.get('enforce')
  const enforce = readEnforce(enforceField === undefined || /^(?:|info|null|none|~)$/i.test(enforceField.value) ? undefined : enforceField)
  const unreadDates: UnreadDate[] = []
  const date = readDateField(fields.get('date'), unreadDates, latest) ?? null
  const source = fields.get('source')?.value ?? ''
  const session = fields.get('sessionId')?.value ?? ''
  const revoked = fields.get('revokedReason')?.value ?? ''
  const extra = (source === '' ? '' : `; source: ${source}`) + (session === '' ? '' : `; session: ${session}`) + (revoked === '' ? '' : `; revoked: ${revoked}`)
  return {
    key: id.value,
    title,
    decision: decision || title,
    rationale: reasoning || `not stated in ${file.path}`,
    status,
    date,
    enforce,
    supersedes,
    supersededBy,
    ...(supersededBy !== null && status === 'accepted' ? { supersededApart: true as const } : {}),
    origin: { path: file.path, line: 1, format: 'axme-code' },
    evidence: fileEvidence(file, 'axme-code', file.text, extra.slice(0, 500)),
    unreadDates,
    ...(notes.length > 0 ? { notes } : {}),
  }
}
