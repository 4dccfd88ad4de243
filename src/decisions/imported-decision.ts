import { nonBlankText, wellFormed } from '../domain/observation'
import { countSaid, oneOfSaid, wrongTypeSaid } from '../domain/zod-issues'
import { ADR_FORMATS } from './adr/parsed-record'
import { z } from '../domain/zod'
import {
  contentHash,
  DATE_FORM,
  DECISION_LIMITS,
  DecisionDateSchema,
  DecisionKeySchema,
  DecisionStatusSchema,
  ENFORCE_LEVELS,
  EvidenceInputSchema,
  type DecisionEvent,
  type DecisionRecord,
  type ImportOrigin,
  type DecisionStatus,
} from './decision'
import { evidenceOf, withBefore } from './lifecycle'

const Text = nonBlankText(DECISION_LIMITS.textLength)

/** A file or folder as import-adr names it (`docs/adr/0001-x.md`), told so when of another JSON type. */
export const ImportPathSchema = wellFormed(z.string({ error: wrongTypeSaid('a path (text)') }).min(1).max(DECISION_LIMITS.sourceLength))

/** A list of them. */
export const importPaths = (words: string) => z.array(ImportPathSchema, { error: wrongTypeSaid(words) })

/** A decision read from a repository's records (R-CON-6), as `import-adr` sends it; strict, as its origin is. */
export const ImportedDecisionSchema = z.strictObject(
  {
    key: DecisionKeySchema,
    title: nonBlankText(DECISION_LIMITS.titleLength),
    decision: Text,
    rationale: Text,
    status: DecisionStatusSchema,
    // A union, not `.nullable()`: a record left without one was told `missing: expected string`, of a
    // field that takes null too; the union's refusal says both.
    date: z.union([DecisionDateSchema, z.null()], { error: wrongTypeSaid(`${DATE_FORM}, or null when the record says none`) }).openapi({
      description:
        "The day it was decided, from 1970-01-01 to the service's tomorrow (a later one is refused, naming `records.N.date`); " +
        'null when the record says none: the day it is first imported, which later imports keep.',
    }),
    enforce: z.enum(ENFORCE_LEVELS, { error: oneOfSaid }).default('advisory'),
    supersedes: DecisionKeySchema.nullable().default(null),
    superseded_by: DecisionKeySchema.nullable().default(null),
    origin: z.strictObject(
      {
        path: ImportPathSchema,
        // Said, not left to int()'s own bound, which the OpenAPI document would not show.
        line: z.number({ error: wrongTypeSaid('a line number: a whole number from 1') }).int().min(1).max(Number.MAX_SAFE_INTEGER),
        format: z.enum(ADR_FORMATS, { error: oneOfSaid }),
        /**
         * The folder read, relative to the root of its repository (`docs/adr`), or absolute outside
         * one: two folders whose records share file names (`0001-record-architecture-decisions.md`)
         * are told apart by it, and a file renamed in its folder is the same record.
         */
        folder: ImportPathSchema.optional().openapi({
          description:
            'The folder read, named by its repository: `github.com/acme/web/doc/adr` (the normalised `origin` remote, then the ' +
            'path in the repository), else `web/doc/adr` (the clone\'s directory name), or absolute outside a repository.',
        }),
        /**
         * Names this folder had in imports made before its repository was named by its remote (the
         * clone's directory name, or the remote's last segment, before the path; `*` for any one
         * directory name): a record stored under one of them from the same file is this record, and
         * is kept under `folder` from then on.
         */
        aliases: importPaths('an array of folders').max(4, { error: countSaid('folder', 'folders') }).optional().openapi({
          description:
            'Earlier names of `folder` (`web/doc/adr` for a clone in `web`): a record stored from the same file under one of them is ' +
            'this one. `*/doc/adr` stands for any one directory name before the path, and holds for a folder so stored only when ' +
            'its files are all among `files` and each of its records reads as it did when imported.',
        }),
      },
      { error: wrongTypeSaid('an origin: an object of path, line and format') },
    ),
    evidence: z.array(EvidenceInputSchema, { error: wrongTypeSaid('an array of evidence') }).max(DECISION_LIMITS.evidence, { error: countSaid('piece of evidence', 'pieces of evidence') }).default([]),
  },
  { error: wrongTypeSaid('a record: an object with its key, title, decision, rationale, status, date and origin') },
)
  // A record that replaces itself, or is replaced by what it replaces, is a loop in the chain
  // (R-CON-5): `why` would name it as its own predecessor, and the lifecycle refuses it (R-CON-1a).
  .superRefine((record, ctx) => {
    for (const field of ['supersedes', 'superseded_by'] as const) {
      if (record[field] === record.key) ctx.addIssue({ code: 'custom', path: [field], message: `${record.key} cannot name itself` })
    }
    if (record.supersedes !== null && record.supersedes !== record.key && record.supersedes === record.superseded_by) {
      ctx.addIssue({ code: 'custom', path: ['superseded_by'], message: `${record.key} cannot be superseded by ${record.supersedes}, which it supersedes` })
    }
  })
export type ImportedDecision = z.infer<typeof ImportedDecisionSchema>

/** What an import did; a second import of the same records lists them all as `unchanged`. */
export interface ImportReport {
  created: string[]
  updated: string[]
  unchanged: string[]
  /** Records not imported: their key belongs to a decision that was not imported. */
  conflicts: Array<{ key: string; message: string }>
  /** Links dropped because they name no decision. */
  warnings: Array<{ key: string; message: string }>
  /**
   * Records of the folder imported whose file is no longer in it: reported, not retired (a file
   * deleted is no decision to revoke). Listed only when the import says which files the folder holds.
   */
  missing: Array<{ key: string; path: string; message: string }>
  /** What changed in each record `updated` lists, in its order: the fields, each as it was and is. */
  changes: Array<{ key: string; fields: ImportChange[] }>
  /**
   * The records `created` lists that carry over a decision stored under the key their file had
   * before (`ADR-0013-use-postgres` of `ADR-0013-use-postgres.md`, now `ADR-0013`): each new key,
   * the old one, and the status the old one has after the import (superseded by the new key, a
   * proposal revoked, or as it was). A service of a version before this answers without it.
   */
  rekeyed: Array<{ key: string; from: string; from_status: DecisionStatus }>
  /** An import that was asked to write nothing (`dry_run`): what it would have done. */
  dry_run?: true
}

/**
 * A field an import changed: `from` and `to` for those short enough to say in a line (the title,
 * status, date, enforce level, links and source; null for none), the name alone for the decision,
 * rationale and evidence.
 */
export interface ImportChange {
  field: string
  from?: string | null
  to?: string | null
}

/** The fields whose values a change says, as the text and the JSON of an import show them. */
const SAID_FIELDS: ReadonlySet<string> = new Set(['title', 'status', 'date', 'enforce', 'supersedes', 'superseded_by', 'source'])

/** The fields an import owns; a re-import compares these and nothing else. */
const IMPORTED_FIELDS = [
  'title',
  'decision',
  'rationale',
  'status',
  'date',
  'enforce',
  'supersedes',
  'superseded_by',
  'source',
  'evidence',
] as const

/**
 * A record as the import would store it (before version and times are set). A record that says no
 * date is dated the day it is first imported: `stored`, the decision stored from it before, keeps
 * its date, and the fingerprint is of the record as read, so that importing it again changes nothing.
 */
export function importedRecord(input: ImportedDecision, at: string, stored?: DecisionRecord): DecisionRecord {
  const fields = {
    title: input.title,
    decision: input.decision,
    rationale: input.rationale,
    status: input.status,
    date: input.date ?? stored?.date ?? at.slice(0, 10),
    enforce: input.enforce,
    supersedes: input.supersedes,
    superseded_by: input.superseded_by,
    source: `${input.origin.path}:${input.origin.line}`,
    evidence: evidenceOf(input.evidence),
  }
  // Earlier names of the folder serve to recognise a record once; what is stored is its name now.
  const { aliases: _aliases, ...origin } = input.origin
  return {
    key: input.key,
    ...fields,
    scope: { points: [], task: null, path: null, stage: null },
    constraints: [],
    version: 0,
    created_at: at,
    updated_at: at,
    imported: {
      ...origin,
      fingerprint: contentHash(JSON.stringify(IMPORTED_FIELDS.map((f) => (f === 'date' ? input.date : fields[f])))),
      status: input.status,
    },
  }
}

/** The fields the lifecycle moves (accept, supersede, deprecate, revoke) as well as the import. */
const LIFECYCLE_FIELDS: ReadonlySet<string> = new Set(['status', 'supersedes', 'superseded_by'])

/**
 * Whether a decision's lifecycle moved here (accepted, superseded, … over the API) while its file
 * still says the status it said when last imported: its status and links are then the store's, and
 * a re-import does not take it back a step. A move the file has since caught up with (it says the
 * status the lifecycle moved to) is no longer one: the file's links come through again. The one
 * move that keeps the status, a replacement `linked` to what it supersedes, stays the store's.
 */
function movedHere(stored: DecisionRecord, history: readonly DecisionEvent[], status: DecisionStatus): boolean {
  // Stores written before the file's status was kept: the last import wrote the file's status.
  const said = stored.imported?.status ?? history.findLast((e) => e.type === 'imported' || e.type === 'reimported')?.to
  return said === status && (stored.status !== said || history.some((e) => e.type === 'linked'))
}

/** The links the lifecycle set here (a `superseded` event's `by`, an `accepted` or `linked` event's `supersedes`). */
function linksSetHere(history: readonly DecisionEvent[]): { superseded_by?: string; supersedes?: string } {
  const by = history.findLast((e) => e.type === 'superseded' && e.by !== undefined)?.by
  const supersedes = history.findLast((e) => (e.type === 'accepted' || e.type === 'linked') && e.supersedes !== undefined)?.supersedes
  return { ...(by === undefined ? {} : { superseded_by: by }), ...(supersedes === undefined ? {} : { supersedes }) }
}

/** The imported fields in which `record` differs from `stored`. */
export function changedFields(stored: DecisionRecord, record: DecisionRecord): string[] {
  return IMPORTED_FIELDS.filter((f) => JSON.stringify(stored[f]) !== JSON.stringify(record[f]))
}

/** What an import changes of a stored decision, field by field (ImportChange). */
export function importChanges(stored: DecisionRecord, record: DecisionRecord): ImportChange[] {
  return IMPORTED_FIELDS.filter((f) => JSON.stringify(stored[f]) !== JSON.stringify(record[f])).map((field) =>
    SAID_FIELDS.has(field) ? { field, from: (stored[field] as string | null | undefined) ?? null, to: (record[field] as string | null | undefined) ?? null } : { field },
  )
}

/**
 * Whether a stored record came from the folder imported now: the same folder, or the same file
 * of the folder under a name it had before its repository was named by its remote (a record
 * renamed in its folder meanwhile is not known by that name, and is left to the conflict).
 */
export function sameFolder(from: ImportOrigin, to: ImportOrigin, aliases: readonly string[]): boolean {
  return from.folder === to.folder || (from.folder !== undefined && aliases.includes(from.folder) && from.path === to.path)
}

/** What merging one imported record does. */
export interface MergedImport {
  outcome: 'created' | 'updated' | 'unchanged' | 'conflict'
  record?: DecisionRecord
  event?: DecisionEvent
  reason?: string
  /** A conflict with a record imported from another folder (or file): where that one came from. */
  elsewhere?: string
  /** What the file says that the store keeps otherwise, and why. */
  warnings: string[]
}

/**
 * Merges an imported record into what is stored: new (`imported` event), the same fingerprint
 * (nothing to do), or changed in the repository (`reimported` event naming the changed fields).
 * A stored decision that was not imported, or was imported from another file, is never overwritten.
 * `history` is the stored decision's events: a status the lifecycle moved on from the imported one
 * is kept while the file's status stays what was imported. A final status (`superseded`, `revoked`)
 * is never moved by a re-import (R-CON-1), and a supersede link the lifecycle set here is not
 * replaced by another the file names (R-CON-5: the chain the history tells is the one kept).
 */
export function mergeImported(
  incoming: DecisionRecord,
  stored: DecisionRecord | undefined,
  at: string,
  history: readonly DecisionEvent[] = [],
  aliases: readonly string[] = [],
): MergedImport {
  if (stored === undefined) {
    const record = { ...incoming, version: 1 }
    return { outcome: 'created', record, event: { key: incoming.key, seq: 1, at, type: 'imported', from: null, to: incoming.status }, warnings: [] }
  }
  if (stored.imported === null) return { outcome: 'conflict', reason: 'it was not created by an import', warnings: [] }
  // Another folder with the same key (two ADR folders both numbered from 0001, whose first files
  // adr-tools names alike): never overwritten. Within one folder, another file with the key is the
  // record renamed. Without folders (imports made before they were sent), another file is another record.
  const from = stored.imported
  const to = incoming.imported
  const folders = from.folder !== undefined && to?.folder !== undefined
  if (to !== null && !(folders ? sameFolder(from, to, aliases) : from.path === to.path)) {
    const where = from.folder === undefined ? from.path : `${from.folder}/${from.path}`
    return { outcome: 'conflict', reason: `it was imported from ${where}; import another folder with --prefix`, elsewhere: where, warnings: [] }
  }
  if (stored.imported.fingerprint === incoming.imported?.fingerprint) return { outcome: 'unchanged', warnings: [] }
  const warnings: string[] = []
  const moved = movedHere(stored, history, incoming.status)
  // Revoked is final, links and all; superseded is final while the file says another status.
  const final = stored.status === 'revoked' || (stored.status === 'superseded' && incoming.status !== 'superseded')
  if (final && !moved && incoming.status !== stored.status) {
    warnings.push(`${stored.key} is ${stored.status}, which is final; the file's status ${incoming.status} is not taken (a new record can replace it)`)
  }
  const owned = moved || final ? IMPORTED_FIELDS.filter((f) => !LIFECYCLE_FIELDS.has(f)) : IMPORTED_FIELDS
  const record: DecisionRecord = {
    ...stored,
    ...Object.fromEntries(owned.map((f) => [f, incoming[f]])),
    imported: incoming.imported,
    version: stored.version + 1,
    updated_at: at,
  }
  for (const [field, key] of Object.entries(linksSetHere(history)) as Array<['supersedes' | 'superseded_by', string]>) {
    if (record[field] === key || stored[field] !== key) continue
    if (record[field] !== null) {
      const said = field === 'supersedes' ? 'supersedes' : 'superseded by'
      warnings.push(`${stored.key} was linked to ${key} here (${field}); the file's "${said} ${record[field]}" is not taken`)
    }
    record[field] = key
  }
  const event: DecisionEvent = { key: stored.key, seq: record.version, at, type: 'reimported', from: stored.status, to: record.status, changed: changedFields(stored, record) }
  // What the repository changed is kept as it was, so that a replay before it reads it (R-REC-9).
  return { outcome: 'updated', record, event: withBefore(event, stored, record), warnings }
}
