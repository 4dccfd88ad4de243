import { existsSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, posix, resolve } from 'node:path'
import { compareNames, type FolderReading } from '../decisions/adr/adr-folder'
import { readAdrFolder } from '../decisions/adr/read-adr-folder'
import { ADR_FORMATS, type AdrFormat, type ImportProblem } from '../decisions/adr/parsed-record'
import type { DecisionRecord } from '../decisions/decision'
import { ImportedDecisionSchema, type ImportChange, type ImportedDecision, type ImportReport } from '../decisions/imported-decision'
import { supersedeLoops } from '../decisions/decisions'
import { InputError } from '../domain/errors'
import { CHECKOUT_DATA_DIR, shellWord } from '../config/bin-path'
import { cannotRead } from '../file-error'
import { specialFileKind } from '../file-kind'
import { dataDirectory, serviceUrl, UsageError, parseFlags } from './options'
import { repositoryRoot } from '../repository'
import { recordFolder, recordsRead } from '../decisions/adr/record-folder'
import { errorMessage, failure, hasFields, ServiceUnavailableError, throughServiceOrLocal } from './service-client'
import { StoreOpenError } from '../open-store'
import { jsonLine, printable } from '../terminal'

export const IMPORT_ADR_HELP = `decision-memory import-adr DIR [--format F] [--prefix P] [--dry-run] [--json] [--data DIR]

  Imports the decision records in DIR (R-CON-6): adr-tools (NNNN-slug.md with "## Status",
  keyed ADR-NNNN, as is a file numbered otherwise, ADR-013-slug.md or ADR 12 Slug.md, whose
  number no other file has: a decision stored under its whole name before is carried over),
  MADR (front matter status/date/decision-makers), log4brains (yyyymmdd-slug.md with
  "- Status:" bullets), section-based DECISIONS.md logs and AXME Code decisions (D-NNN-slug.md
  in .axme-code/decisions, which DIR may name as .axme-code); statuses and "Superseded by" links
  are mapped to the decision lifecycle. A file (or section) that cannot be read is reported as
  PATH:LINE: why, and the import goes on; so is a date that cannot be read (or is before 1970,
  or after tomorrow), and its record is imported without it (or dated by another date it writes,
  which the line names). Importing the same records again changes nothing,
  from another clone of the repository too (it is named by its origin remote), and after the
  folder moved within its repository (or was renamed outside any), once its old place is gone.
  A decision whose file is gone from DIR, or whose section is gone from its DECISIONS.md, keeps its status and is
  reported, for you to deprecate or revoke it.

  --format F   read every file as F (${ADR_FORMATS.join(', ')}); default: per file
  --prefix P   put P- before every key (and link) read, for a second folder whose records are
               numbered like the first (a record never overwrites one imported from another file);
               a folder is imported again as it was first (moved within its repository, or
               renamed outside any, too), with that P or none: with another, its records would be
               stored a second time, and nothing is stored (exit 1)
  --dry-run    read, and say what the import would do (a decision carried over
               to its file's new key too), storing nothing
  --json       print the outcome as JSON
  --data DIR   the store to import into (default: the running service's, else
               $DECISION_MEMORY_DATA or this checkout's data, where npm start keeps it, as
               for mcp: never ./data of the project it runs in, which the service never reads)
`

/**
 * The folders of the repository at `root` whose records the store holds (`names`, the names the
 * repository goes by, lead their names; `known`, this folder's own names, are left out) that its
 * working tree no longer has: none of their records' files is where it was. At most 20, the
 * first by name: a folder moved is one, or a few once moved again.
 */
export function movedAway(root: string, names: readonly string[], known: readonly string[], stored: readonly DecisionRecord[], exists: (path: string) => boolean = existsSync): string[] {
  const byFolder = new Map<string, string[]>()
  for (const d of stored) {
    const f = d.imported?.folder
    if (f === undefined || known.includes(f)) continue
    byFolder.set(f, [...(byFolder.get(f) ?? []), d.imported?.path ?? ''])
  }
  const gone: string[] = []
  for (const [f, paths] of [...byFolder].sort(([a], [b]) => compareNames(a, b))) {
    const name = names.find((n) => f === n || f.startsWith(`${n}/`))
    if (name === undefined) continue
    const inRepository = f === name ? '.' : f.slice(name.length + 1)
    // A name the store was given that climbs out of the repository is no folder of it.
    if (inRepository.split('/').some((part) => part === '..' || part === '') || posix.isAbsolute(inRepository)) continue
    if (!paths.some((path) => exists(join(root, inRepository, path)))) gone.push(f)
  }
  return gone.slice(0, 20)
}

/** A record as import-adr reads it, for telling a folder gone from this one by what it stored. */
type RecordRead = { key: string; title: string; decision: string; rationale: string; date: string | null; origin: { path: string } }

/** The record read here (`read`) from the file `stored` was imported from, keyed alike but for a prefix. */
function readHere(read: readonly RecordRead[], stored: DecisionRecord): RecordRead | undefined {
  return read.find((r) => r.origin.path === stored.imported?.path && prefixOf(stored.key, r.key) !== undefined)
}

/**
 * Whether one record at least of a folder gone (`held`, as stored) reads here as it did: its title,
 * decision, rationale, and date where the file writes one. A file name is no sign of a folder moved,
 * as every adr-tools log has its `0001-record-architecture-decisions.md`, which differs from one log
 * to another in its date alone (and every log its `DECISIONS.md`): a folder gone that held that one
 * alone, taken for this one moved, had its record taken over by another folder of the repository.
 */
function readsAsItDid(read: readonly RecordRead[], held: readonly DecisionRecord[]): boolean {
  return held.some((d) => {
    const r = readHere(read, d)
    return r !== undefined && r.title.trim() === d.title && r.decision.trim() === d.decision && r.rationale.trim() === d.rationale && (r.date === null || r.date.slice(0, 10) === d.date)
  })
}

/**
 * Whether a folder gone (its records `held`, as stored) may be this one moved, whose records are
 * `read`: each of its records is read here from a file of the same name under its key (but for a
 * prefix), and one at least reads as it did (readsAsItDid). A folder gone with a record of its own
 * is another folder.
 */
function mayBeThisOne(read: readonly RecordRead[], held: readonly DecisionRecord[]): boolean {
  return held.length > 0 && held.every((d) => readHere(read, d) !== undefined) && readsAsItDid(read, held)
}

/**
 * Outside a repository, where a folder is named by its absolute path: the folders whose records the
 * store holds (`known`, this folder's names, left out) that are gone from where they were (none of
 * their records' files is there) and may be this one renamed (`mv adr decisions`; see mayBeThisOne),
 * as movedAway finds a folder moved in a repository. Taken for one on a file name alone, another
 * project's log had its clashes told to undo a change never made, rather than to import it with
 * --prefix. At most 20, the first by name.
 */
export function renamedAway(known: readonly string[], read: readonly RecordRead[], stored: readonly DecisionRecord[], exists: (path: string) => boolean = existsSync): string[] {
  const byFolder = new Map<string, DecisionRecord[]>()
  for (const d of stored) {
    const f = d.imported?.folder
    if (f === undefined || known.includes(f) || !isAbsolute(f)) continue
    byFolder.set(f, [...(byFolder.get(f) ?? []), d])
  }
  return [...byFolder]
    .filter(([f, held]) => !held.some((d) => exists(join(f, d.imported?.path ?? ''))) && mayBeThisOne(read, held))
    .map(([f]) => f)
    .sort(compareNames)
    .slice(0, 20)
}

/** A record of the folder the store holds under another key than the one this import gives it: `as`, imported with `prefix` (null: none), from `folder`. */
export interface KeptElsewhere {
  key: string
  as: string
  path: string
  prefix: string | null
  folder: string
}

/** The --prefix `stored` was imported with as the record keyed `key` here (null: none), else undefined: not this record's key. */
function prefixOf(stored: string, key: string): string | null | undefined {
  if (stored === key) return null
  const before = stored.endsWith(`-${key}`) ? stored.slice(0, -key.length - 1) : undefined
  return before !== undefined && PREFIX.test(before) ? before : undefined
}

/**
 * The folders gone (`moved`: movedAway's in a repository, renamedAway's outside any) that are this
 * one before it moved, whatever --prefix it was imported with (see mayBeThisOne: each record stored
 * from one is read here from a file of the same name, keyed alike but for a prefix, and one reads as
 * it did). Such a folder's records count as this one's for keptUnderOtherKeys: moved and imported
 * with another prefix (`git mv docs/adr docs/decisions`, then `--prefix WEB`), every record was
 * stored a second time, for the import takes a folder for this one moved only by the keys it gives.
 * Another ADR folder of a monorepo, removed, holds files this one has not, or only the first record
 * every adr-tools log has, of another day: it is left to the import, not refused as this one.
 */
export function movedUnderAnyPrefix(read: readonly RecordRead[], moved: readonly string[], stored: readonly DecisionRecord[]): string[] {
  return moved.filter((name) => mayBeThisOne(read, stored.filter((d) => d.imported?.folder === name)))
}

/**
 * The records read (`read`, their keys as the folder gives them) that the store holds from the
 * same file of this folder (`names`: its name and those it had before; not `*\/PATH`, which may
 * name another repository's folder of the same files until the import has compared them) under
 * the key an import with another `--prefix`, or none, gave them: `ADR-0001` of `0001-use-x.md`
 * stored as `WEB-ADR-0001` when the folder is imported with no prefix, or as `ADR-0001` when it is
 * imported with `--prefix WEB`. Importing it so would store each a second time.
 */
export function keptUnderOtherKeys(
  read: ReadonlyArray<{ key: string; origin: { path: string } }>,
  prefix: string | undefined,
  names: readonly string[],
  stored: readonly DecisionRecord[],
): KeptElsewhere[] {
  const byFile = new Map<string, DecisionRecord[]>()
  for (const d of stored) {
    if (d.imported?.folder === undefined || !names.includes(d.imported.folder)) continue
    byFile.set(d.imported.path, [...(byFile.get(d.imported.path) ?? []), d])
  }
  const kept: KeptElsewhere[] = []
  for (const r of read) {
    const key = prefix === undefined ? r.key : `${prefix}-${r.key}`
    const same = byFile.get(r.origin.path) ?? []
    // Stored under this key too (a folder imported both ways before import-adr refused the second
    // way): this import finds it as it is and stores it no second time, as the other way would not.
    // Counted, the folder could be imported neither way again, each refused for the other's copies.
    if (same.some((d) => d.key === key)) continue
    for (const d of same) {
      const before = prefixOf(d.key, r.key)
      if (before === undefined) continue
      kept.push({ key, as: d.key, path: r.origin.path, prefix: before, folder: d.imported?.folder ?? '' })
    }
  }
  return kept
}

/**
 * What keptUnderOtherKeys found, said: the prefix the folder was imported with, and to import it so;
 * and the name it had before it moved (`moved`), when its records were imported under that one.
 */
function otherPrefixSaid(dir: string, prefix: string | undefined, kept: readonly KeptElsewhere[], moved: readonly string[] = []): string {
  const flag = (p: string | null | undefined) => (p == null ? 'no --prefix' : `--prefix ${p}`)
  const groups = new Map<string | null, KeptElsewhere[]>()
  for (const k of kept) groups.set(k.prefix, [...(groups.get(k.prefix) ?? []), k])
  const said = [...groups].map(([p, ks]) => {
    const shown = ks.slice(0, 3).map((k) => `${k.as} of ${k.path}`).join(', ') + (ks.length > 3 ? `, and ${ks.length - 3} more` : '')
    return `with ${flag(p)} (${shown})`
  })
  const [only] = groups.keys()
  const advice = groups.size > 1 ? 'import it as one of those' : only === null ? 'import it without --prefix, as before' : `import it with --prefix ${only}, as before`
  const before = [...new Set(kept.map((k) => k.folder).filter((f) => moved.includes(f)))]
  const as = before.length === 0 ? '' : `, as ${before.join(' and ')} before the folder moved,`
  return (
    `the records in ${dir} were imported before${as} ${said.join(' and ')}: with ${flag(prefix)} each would be stored a second time, ` +
    `under another key; ${advice}. Nothing stored`
  )
}

/** What --prefix takes: a key's first character, then what a key holds (DecisionKeySchema). */
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * What was read: the records (by format), how many of them cannot be stored (a pair that supersede
 * each other), and how many files, sections, links or dates could not be read (the lines above say which;
 * a decision whose date could not be read is imported without it).
 */
function readLine(dir: string, formats: FolderReading['formats'], refused: number, unread: number): string {
  const read = Object.values(formats).reduce((sum, n) => sum + n, 0)
  const each = Object.entries(formats).map(([f, n]) => `${n} ${f}`).join(', ') || 'none'
  return (
    `read ${counted(read, 'record', 'records')} in ${dir} (${each})` +
    (refused === 0 ? '' : `, ${refused} of which cannot be stored`) +
    (unread === 0 ? '' : `; ${counted(unread, 'file, section, link or date', 'files, sections, links or dates')} could not be read`) +
    '\n'
  )
}

/** `decision-memory import-adr`: reads here, stores through the service (or the local store). */
export async function importAdrCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags({
    args: argv,
    options: {
      format: { type: 'string' },
      prefix: { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      data: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  const given = positionals[0]
  if (given === undefined) throw new UsageError('import-adr needs one folder: import-adr DIR')
  // `import-adr docs/adr/*`: the shell gave the folder's files, which "needs one folder" did not say.
  if (positionals.length > 1) {
    const shown = printable(positionals.slice(0, 3).join(' ')) + (positionals.length > 3 ? ' …' : '')
    throw new UsageError(`import-adr takes one folder, not ${positionals.length} arguments (${shown}): give the folder the records are in (docs/adr, not docs/adr/*)`)
  }
  const dir = recordsRead(given)
  const format = values.format as AdrFormat | undefined
  if (format !== undefined && !(ADR_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${ADR_FORMATS.join(', ')}, not "${format}"`)
  }
  const prefix = values.prefix
  // A key starts with a letter or digit (DecisionKeySchema): with another first character every
  // record read would be refused, one by one, and the import would still end well.
  if (prefix !== undefined && !PREFIX.test(prefix)) {
    throw new UsageError(`--prefix takes letters, digits, ".", "_" and "-" (at most 40), starting with a letter or digit, not "${prefix}"`)
  }
  const prefixed = (key: string) => (prefix === undefined ? key : `${prefix}-${key}`)
  let reading
  // The folder is not there, inside a repository: its records may all have been removed with git rm.
  let folderGone = false
  try {
    // The machine's day, read here at the edge: a record dated after its tomorrow is read without
    // that date, and said at its line, as the service would refuse the whole import for it.
    reading = await readAdrFolder(dir, format, new Date().toISOString().slice(0, 10))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A folder of a repository whose every record was deleted with `git rm` is gone itself (git
    // keeps no empty folder): read as empty, so that the decisions imported from it are reported
    // missing, as those of a folder emptied of its records are. Elsewhere a missing folder is a typo.
    // ENOTDIR is also a folder named under a file (`DECISIONS.md/adr`): that is no file given.
    if (code === 'ENOTDIR' && isFile(dir)) {
      // `import-adr docs/DECISIONS.md`: the file is read as one of its folder's records, whose
      // missing ones are reported, so the folder is what is named.
      process.stderr.write(`decision-memory import-adr: ${dir} is a file; import-adr reads a folder of records (import-adr ${shellWord(dirname(dir))})\n`)
      return 1
    }
    // A device or a pipe (`import-adr /dev/null`) was said `a part of the path is a file`, of a path
    // with no file in it: said as what it is.
    const special = code === 'ENOTDIR' ? specialKindOf(dir) : undefined
    if (special !== undefined) {
      process.stderr.write(`decision-memory import-adr: ${dir} is ${special}, not a folder; import-adr reads a folder of records\n`)
      return 1
    }
    if (code !== 'ENOENT' || repositoryRoot(resolve(dir)) === undefined) {
      // In words, as export says what it cannot write: `ENOENT` alone said neither that the folder
      // is not there nor that a part of its path is a file.
      process.stderr.write(`decision-memory import-adr: ${cannotRead(dir, code ?? (error as Error).message, { ENOENT: 'there is no such folder' })}\n`)
      return 1
    }
    folderGone = true
    reading = { records: [], problems: [], skipped: [], formats: {}, logs: [], files: [] }
  }
  const problems: ImportProblem[] = [...reading.problems]
  const records: ImportedDecision[] = []
  // The folder as the repository names it, wherever the import runs from: another folder's records
  // with the same file names are not these, and a file renamed here is still this record. The
  // repository's name leads it: every repository has its `doc/adr`, and one store holds the
  // decisions of all of them (without it, another repository's ADR-0002 replaced this one's). The
  // name is its `origin` remote's, so that another clone or a worktree of it, in a directory named
  // otherwise, holds the same records, else its directory's (the main working tree's, for a worktree
  // of it: the same records); the names the folder had before (the directory's, as imports named it
  // until then) still find them.
  // As given, its links not followed (holdsGit): imports named a folder so before the hook
  // followed links, and `docs/adr`, a link to `../architecture/decisions`, named otherwise now,
  // would leave every record imported from it out, as another folder's.
  const { root, origin, directory, folder, aliases } = recordFolder(dir)
  const files = reading.files
  const logs = reading.logs.map((log) => ({ path: log.path, keys: log.keys.map(prefixed) }))
  for (const read of reading.records) {
    const record = {
      ...read,
      origin: { ...read.origin, folder, ...(aliases.length === 0 ? {} : { aliases }) },
      key: prefixed(read.key),
      supersedes: read.supersedes === null ? null : prefixed(read.supersedes),
      superseded_by: read.superseded_by === null ? null : prefixed(read.superseded_by),
    }
    const checked = ImportedDecisionSchema.safeParse(record)
    if (checked.success) records.push(checked.data)
    else {
      const fields = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
      problems.push({ path: record.origin.path, line: record.origin.line, message: `${record.key} cannot be stored: ${fields}` })
    }
  }

  // Records whose supersede links go round in a loop (ADR-1 → ADR-2 → ADR-3 → ADR-1), which the
  // import would refuse whole: left out, each named at its file, as a pair that supersede each
  // other is, and the rest imported.
  const looped = new Map<number, string>()
  for (const { record, message } of supersedeLoops(records)) if (!looped.has(record)) looped.set(record, message)
  for (const [index, why] of looped) {
    const record = records[index] as ImportedDecision
    problems.push({ path: record.origin.path, line: record.origin.line, message: `${record.key} cannot be stored: ${why}` })
  }
  if (looped.size > 0) records.splice(0, records.length, ...records.filter((_, i) => !looped.has(i)))

  let report: ImportReport | null = null
  let storedHere = false
  const dryRun = values['dry-run'] === true
  // A dry run whose store could not be asked, which cannot say what the import would refuse.
  let unasked = false
  // Sent with no records too: a folder whose records were all deleted has its decisions reported.
  // A dry run asks the store too, which writes nothing then, so that it says what the import would
  // do (a decision carried over to its file's new key, superseded or revoked), not the reading alone.
  {
    try {
      // The folders of this repository imported before that its working tree no longer has: this
      // one, moved (doc/adr → docs/adr), if their records are all here, as the import checks.
      let moved: string[] = []
      {
        const listed = await throughServiceOrLocal({
          method: 'GET',
          path: '/v1/decisions',
          dataDir: values.data,
          defaultDataDir: CHECKOUT_DATA_DIR,
          expect: hasFields({ decisions: 'array' }),
          local: async (_memory, decisions) => ({ decisions: await decisions.list() }),
          // No store to hold any: none made to say so (a folder with no records writes nothing), nor by a dry run.
          createStore: records.length > 0 && !dryRun,
          whenNoStore: () => ({ decisions: [] }),
        })
        if (listed.status >= 400 && dryRun) throw new Unasked(errorMessage(listed))
        if (listed.status >= 400) return failure('import-adr', listed)
        const stored = (listed.body as { decisions: DecisionRecord[] }).decisions
        if (root !== undefined) {
          const names = [origin ?? (directory as string), ...(origin === undefined ? [] : [basename(root), directory as string, posix.basename(origin)])]
          // Not one none of whose records reads here as it did: another log begun alike (readsAsItDid).
          const gone = movedAway(root, [...new Set(names)], [folder, ...aliases], stored)
          moved = gone.filter((f) => readsAsItDid(reading.records, stored.filter((d) => d.imported?.folder === f)))
        } else {
          // Renamed outside any repository, its records were conflicts that advised --prefix, which
          // stored each a second time: the import takes such a folder for this one, as in a repository.
          moved = renamedAway([folder, ...aliases], reading.records, stored)
        }
        // The folder imported before with another --prefix (or none), here or before it moved: its
        // records would each be stored a second time, under a second key, rather than found
        // unchanged (R-CON-6).
        const before = movedUnderAnyPrefix(reading.records, moved, stored)
        const elsewhere = keptUnderOtherKeys(reading.records, prefix, [folder, ...aliases, ...before], stored)
        if (elsewhere.length > 0) {
          process.stderr.write(printable(`decision-memory import-adr: ${otherPrefixSaid(dir, prefix, elsewhere, before)}`) + '\n')
          // A dry run says it as the import would, and lists the records read, exit 0: a preview, whose
          // scripts (`--dry-run --json` to list the keys a prefix gives) read the records whatever the store holds.
          if (dryRun) throw new Unasked('refused', true)
          return 1
        }
      }
      const named = { folder, ...(aliases.length === 0 ? {} : { aliases }), ...(moved.length === 0 ? {} : { moved }) }
      const body = { records, files, logs, ...named, ...(dryRun ? { dry_run: true } : {}) }
      if (dryRun) await refuseServiceWithoutDryRun(values.data)
      const answer = await throughServiceOrLocal({
        method: 'POST',
        path: '/v1/decisions/import',
        body,
        dataDir: values.data,
        // Not ./data: run in the project whose records these are, the command would make a store
        // there that the service (started in this checkout) never reads, as the MCP server would.
        defaultDataDir: CHECKOUT_DATA_DIR,
        expect: hasFields({ created: 'array', updated: 'array', unchanged: 'array' }),
        local: (_memory, decisions) => decisions.import(records, { files, logs, ...named, dryRun }),
        // Importing a repository's records may come before the service first runs; a folder with
        // none makes no store: with no store, no decision of it was imported to report missing.
        // A dry run makes none: with no store, nothing stored is carried over.
        createStore: records.length > 0 && !dryRun,
        whenNoStore: () => null,
      })
      if (answer.status >= 400 && dryRun) throw new Unasked(errorMessage(answer))
      if (answer.status === 413) {
        // The folder is sent in one request, as one import (its links, what is missing, all or
        // nothing): a folder of a few hundred records is over the service's body limit, and "the
        // body is over 256 KB" alone left the user nothing to do. Opened here, the store takes any.
        const kb = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 1024)
        process.stderr.write(
          printable(
            `decision-memory import-adr: ${errorMessage(answer)}: the ${counted(records.length, 'record', 'records')} read in ${dir} make ` +
              `one request of ${kb} KB, which the service refuses; stop the service and import them into its store ` +
              `with --data (decision-memory import-adr ${shellWord(dir)} --data ITS_DATA_DIR), then start it again`,
          ) + '\n',
        )
        return 1
      }
      if (answer.status >= 400) return failure('import-adr', answer)
      report = answer.body as ImportReport | null
      // A service of a version before dry runs refuses dry_run: nothing stored, and nothing said of the store.
      if (dryRun && report !== null && report.dry_run !== true) throw new Unasked('the service does not take a dry run (a version before this?)')
      storedHere = !dryRun && answer.via === 'local' && report !== null && report.created.length + report.updated.length > 0
    } catch (error) {
      if (dryRun && (error instanceof Unasked || error instanceof StoreOpenError || error instanceof ServiceUnavailableError)) {
        // Said on stderr, with --json too: the records read are listed all the same.
        unasked = true
        if (!(error instanceof Unasked && error.said)) process.stderr.write(printable(`decision-memory import-adr: the store could not say what the import would do (${error.message}): the records read are listed, not what is stored nor carried over to a new key`) + '\n')
        report = null
      } else {
        if (!(error instanceof InputError)) throw error
        process.stderr.write(`decision-memory import-adr: ${error.message}\n`)
        return 1
      }
    }
  }

  // A folder that is not there, of which the store holds no decision to report missing, is no
  // folder whose records were removed: a typo (`doc/adr` for `docs/adr`), which would otherwise
  // read 0 records and exit 0 in a script. (A service from before `missing` cannot tell.)
  if (folderGone && !unasked && (report === null || report.missing?.length === 0)) {
    // In words, the code kept after, as a folder not there outside any repository is said (cannotRead).
    process.stderr.write(`decision-memory import-adr: ${cannotRead(dir, 'ENOENT', { ENOENT: 'there is no such folder, and no decision in the store was imported from it' })}\n`)
    // A dry run says it as the import would, and lists the records read (none), exit 0, as it does a refused --prefix.
    if (!dryRun) return 1
    report = null
  }
  const shown = problems.map((p) => ({ ...p, path: join(dir, p.path) }))
  if (values.json === true) {
    const read = { formats: reading.formats, records: records.map((r) => r.key), skipped: reading.skipped, problems: shown }
    process.stdout.write(jsonLine({ dir, read, import: report }))
    return 0
  }
  for (const p of shown) process.stderr.write(printable(`${p.path}:${p.line}: ${p.message}`) + '\n')
  // A record read as its note says (no status written, read as accepted) is no file left unread.
  const unread = reading.problems.filter((p) => p.read !== true).length
  process.stdout.write(readLine(dir, reading.formats, problems.length - reading.problems.length, unread))
  if (report !== null) {
    // A service from before `missing` was reported answers without it. One whose file is still
    // here was taken out of it (a section of a DECISIONS.md).
    const missing = report.missing ?? []
    const sections = missing.filter((m) => files.includes(m.path)).length
    const gone = missing.length - sections
    if (dryRun) for (const r of records) process.stdout.write(printable(`  ${r.key}  ${r.status}  ${r.date ?? 'no date'}  ${r.title}`) + '\n')
    process.stdout.write(
      `${dryRun ? 'would import' : 'imported'}: ${report.created.length} new${rekeyedSaid(report)}, ${report.updated.length} updated, ${report.unchanged.length} unchanged` +
        (report.conflicts.length === 0 ? '' : `, ${report.conflicts.length} left out`) +
        (gone === 0 ? '' : `, ${gone} whose file is gone`) +
        (sections === 0 ? '' : `, ${sections} whose section is gone`) +
        (dryRun ? '; nothing stored (--dry-run)' : '') +
        '\n',
    )
    // A service from before `changes` was reported answers without it.
    for (const { key, fields } of report.changes ?? []) process.stdout.write(printable(`${key}: ${fields.map(changeSaid).join(', ')}`) + '\n')
    for (const c of [...report.conflicts, ...report.warnings]) process.stderr.write(printable(`${c.key}: ${c.message}`) + '\n')
    for (const m of missing) process.stderr.write(printable(`${m.key}: ${m.message}`) + '\n')
    // Opened here, the store is said: this checkout's when none is named and no service answered,
    // which a user looking for the records in a service's store would not guess.
    if (storedHere) {
      process.stderr.write(printable(`stored in ${dataDirectory(values.data, process.env, CHECKOUT_DATA_DIR)}${values.data !== undefined ? '' : ` (no service answered at ${serviceUrl()})`}`) + '\n')
    }
  } else if (dryRun) {
    for (const r of records) process.stdout.write(printable(`  ${r.key}  ${r.status}  ${r.date ?? 'no date'}  ${r.title}`) + '\n')
  }
  return 0
}

/** Why a dry run could not ask the store what the import would do; `said` already, when the import would be refused. */
class Unasked extends Error {
  constructor(
    message: string,
    readonly said = false,
  ) {
    super(message)
  }
}

/**
 * The records of `created` that carry a decision stored under their file's old key over (`ADR-0013`
 * of `ADR-0013-use-postgres`), said after the count: ` (2 of them re-keyed from their old keys)`.
 * A service of a version before this reports none.
 */
function rekeyedSaid(report: ImportReport): string {
  const n = (report.rekeyed ?? []).length
  if (n === 0) return ''
  if (n === report.created.length) return n === 1 ? ' (re-keyed from its old key)' : ` (all ${n} re-keyed from their old keys)`
  return ` (${n} of them re-keyed from ${n === 1 ? 'its old key' : 'their old keys'})`
}

/** A field an import changed, as its line says it: `status proposed → accepted`, `title "A" → "B"`, `rationale`. */
function changeSaid(change: ImportChange): string {
  if (change.from === undefined && change.to === undefined) return change.field
  const said = (value: string | null | undefined) => (value == null ? 'none' : change.field === 'title' ? JSON.stringify(value) : value)
  return `${change.field} ${said(change.from)} → ${said(change.to)}`
}

/** What `path` leads to when it is neither a file nor a folder (specialFileKind); undefined otherwise. */
function specialKindOf(path: string): string | undefined {
  try {
    return specialFileKind(statSync(path))
  } catch {
    return undefined
  }
}

/** Whether `path` names a file (not a folder, nor a path through a file). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * Throws Unasked when the import would go to a service of a version before dry runs: one before
 * its import body was strict dropped `dry_run` unsaid and stored the records for real, which a
 * preview must never do. Its OpenAPI document, which every version serves, names no `dry_run`.
 * Opened here, the store is this version's, which takes one.
 */
async function refuseServiceWithoutDryRun(dataDir: string | undefined): Promise<void> {
  const document = await throughServiceOrLocal({
    method: 'GET',
    path: '/openapi.json',
    dataDir,
    defaultDataDir: CHECKOUT_DATA_DIR,
    local: async () => null,
    writesNothing: true,
    whenNoStore: () => null,
  })
  if (document.via !== 'service') return
  // An error answer is said as it is (a token refused, a failure of the service or of a proxy before
  // it), not as an old version to restart; a 404, no document at all, cannot say it takes a dry run.
  if (document.status >= 400 && document.status !== 404) throw new Unasked(errorMessage(document))
  if (document.status === 200 && JSON.stringify(document.body ?? null).includes('"dry_run"')) return
  throw new Unasked(`the service at ${serviceUrl()} does not take a dry run (a version before this, still running after an upgrade? its import would store the records): restart it`)
}
