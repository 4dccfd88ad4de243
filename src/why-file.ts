import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { DECISION_LOG, notARecord } from './decisions/adr/adr-folder'
import { isWithin } from './decisions/applicability'
import { compareKeys, globMeant, isGlobPath, type DecisionRecord } from './decisions/decision'
import { recordFolder, recordsRead } from './decisions/adr/record-folder'
import { pathInRepository, repositoryRoot } from './repository'
import { shellWord } from './config/bin-path'

/**
 * The decisions imported from a record's file (`docs/adr/0005-use-x.md`; a DECISIONS.md, one per
 * section), as the import named them: its folder after its repository (or a name that folder had,
 * recordFolder's aliases, but not `*` for any directory: another repository's `doc/adr` has files
 * of the same names) and its file name; in the order of the file.
 */
export function importedFrom(file: string, decisions: readonly DecisionRecord[]): DecisionRecord[] {
  const { folder, aliases } = recordFolder(dirname(file))
  const folders = [folder, ...aliases.filter((a) => !a.startsWith('*/'))]
  const name = basename(file).normalize('NFC')
  return decisions
    .filter((d) => d.imported !== null && d.imported.path.normalize('NFC') === name && (d.imported.folder === undefined || folders.includes(d.imported.folder)))
    .sort((a, b) => (a.imported?.line ?? 0) - (b.imported?.line ?? 0) || compareKeys(a.key, b.key))
}

/**
 * The decisions imported from the records of a folder (`docs/adr`, as `import-adr docs/adr` read
 * it: its own files, not its subfolders'), named as the import named it (importedFrom), or, imported
 * with no folder named (the import route takes one without), whose file is in it now, as its file
 * finds it; by file name, then in the order of each file.
 */
export function importedIn(dir: string, decisions: readonly DecisionRecord[]): DecisionRecord[] {
  const { folder, aliases } = recordFolder(dir)
  const folders = [folder, ...aliases.filter((a) => !a.startsWith('*/'))]
  const inFolder = ({ folder: named, path }: { folder?: string; path: string }) =>
    named === undefined ? !/[\\/]/.test(path) && existsSync(join(dir, path)) : folders.includes(named)
  return decisions
    .filter((d) => d.imported !== null && inFolder(d.imported))
    .sort(
      (a, b) =>
        compareNames(a.imported?.path ?? '', b.imported?.path ?? '') || (a.imported?.line ?? 0) - (b.imported?.line ?? 0) || compareKeys(a.key, b.key),
    )
}

const compareNames = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The decisions in force that are scoped to `path` or a folder above it (R-CON-4's path scope, as
 * `decisions/applicable` reads it), by key: why a file of the code is as it is. Decisions with no
 * path scope, which apply everywhere, are not listed: they say nothing of this file.
 */
export function scopedTo(path: string, decisions: readonly DecisionRecord[]): DecisionRecord[] {
  return decisions
    .filter((d) => d.status === 'accepted' && d.scope.path !== null && isWithin(path, d.scope.path))
    .sort((a, b) => compareKeys(a.key, b.key))
}

/**
 * The decisions accepted with a glob as their stored path scope (`src/billing/**`, which a version
 * before this took) that would hold `path` but for it: the folder the glob was written in holds it
 * (globMeant, as the check's `scope_warnings` read it), the glob as written does not. They apply to
 * none of the paths the glob would match, and a file below it is said to have them, with their
 * warning: a version before this listed none, and the decision meant for the file went unseen.
 */
export function globScopedOver(path: string, decisions: readonly DecisionRecord[]): DecisionRecord[] {
  return decisions
    .filter((d) => d.status === 'accepted' && d.scope.path !== null && isGlobPath(d.scope.path) && !isWithin(path, d.scope.path) && isWithin(path, globMeant(d.scope.path)))
    .sort((a, b) => compareKeys(a.key, b.key))
}

/**
 * A decision behind a file: imported from it (a record, at `line` of the file; for a folder, from
 * one of its records, `file`, named as the folder was), in force and scoped to its path or a
 * folder above it (`scope`), or accepted with a glob as its stored path scope that would hold the
 * file but for it, and so holds it not (`glob`, globScopedOver).
 */
export type FileDecision =
  | { key: string; from: 'record'; line: number; file?: string }
  | { key: string; from: 'scope'; scope: string }
  | { key: string; from: 'glob'; scope: string }

/**
 * Why a file (or folder) is as it is (R-CON-5), as `why FILE` and the MCP `why` tool's `file` read
 * it: the decisions imported from it, in the order of the file, then each other one in force scoped
 * to its path or a folder above it, by key, then each one whose stored glob scope would hold it but
 * for the glob (globScopedOver), by key. A relative `file` is read from `folder` (`.` where the
 * command runs; the folder the MCP server was started in); its repository is the one it is in, or was in
 * (a record deleted since is found by its folder and name), and `path` is its path from that
 * repository's root, as decisions are scoped by it (R-CON-4).
 */
export function decisionsOfFile(file: string, decisions: readonly DecisionRecord[], folder: string): { path: string; found: FileDecision[] } {
  const at = located(file, folder)
  const first = behind(at, decisions, file)
  const fromRecord = (found: FileDecision[]) => found.some((d) => d.from === 'record')
  if (fromRecord(first.found)) return first
  // Named through a symbolic link (`adrs` → `doc/adr`): imports name a folder as given, so records
  // imported from `doc/adr` are found where the link leads. Looked for there too when a decision is
  // scoped to the name given (`docs` for `docs/decisions` → `../doc/adr`), kept with them.
  const real = realPath(at)
  if (real !== undefined && real !== at) {
    const linked = behind(real, decisions, file)
    if (fromRecord(linked.found)) {
      const scoped = [...linked.found.filter((d) => d.from === 'scope'), ...first.found.filter((d) => d.from === 'scope' && !linked.found.some((l) => l.key === d.key))]
      const globbed = [...linked.found.filter((d) => d.from === 'glob'), ...first.found.filter((d) => d.from === 'glob' && !linked.found.some((l) => l.key === d.key))]
      const byKey = (a: FileDecision, b: FileDecision) => compareKeys(a.key, b.key)
      return { path: linked.path, found: [...linked.found.filter((d) => d.from === 'record'), ...scoped.sort(byKey), ...globbed.sort(byKey)] }
    }
    if (first.found.length === 0 && linked.found.length > 0) return linked
  }
  if (first.found.length > 0 || isAbsolute(file)) return first
  // A record deleted since, named from the root in a folder below it (`docs/adr/0002-gone.md` asked
  // in `src/`): neither place has it, so located read it from the folder; the root's names it.
  const fromRoot = fromRootOf(file, folder)
  if (fromRoot === undefined || existsSync(fromRoot)) return first
  const second = behind(fromRoot, decisions, file)
  return second.found.some((d) => d.from === 'record') ? second : first
}

/**
 * The decisions behind the file at `absolute` (named `file`), and its path in its repository; of a
 * folder, those imported from its records: `import-adr docs/adr` imported them from it.
 */
function behind(absolute: string, decisions: readonly DecisionRecord[], file: string): { path: string; found: FileDecision[] } {
  const path = pathInRepository(absolute)
  const there = isFolder(absolute)
  const ofFile = there ? [] : importedFrom(absolute, decisions)
  // As import-adr reads it: `.axme-code` is its `decisions/`.
  const read = there ? recordsRead(absolute) : absolute
  // A folder of records deleted since is not there either (git keeps no empty folder): where no
  // record was named so, the records the import named in a folder of that name.
  const ofFolder = there || (ofFile.length === 0 && !existsSync(absolute)) ? importedIn(read, decisions) : []
  const folder = ofFolder.length > 0 || there
  const fromFile = folder ? ofFolder : ofFile
  const found: FileDecision[] = [
    ...fromFile.map((d) => ({
      key: d.key,
      from: 'record' as const,
      line: d.imported?.line ?? 1,
      ...(folder ? { file: join(file, relative(absolute, read), d.imported?.path ?? '') } : {}),
    })),
    ...scopedTo(path, decisions)
      .filter((d) => !fromFile.includes(d))
      .map((d) => ({ key: d.key, from: 'scope' as const, scope: d.scope.path ?? path })),
    ...globScopedOver(path, decisions)
      .filter((d) => !fromFile.includes(d))
      .map((d) => ({ key: d.key, from: 'glob' as const, scope: d.scope.path ?? path })),
  ]
  return { path, found }
}

/**
 * The path at `absolute` with its links followed, or undefined where there is none; a link leading
 * to what is gone (`adrs` → `doc/adr`, removed by `git rm -r doc/adr`) gives where it leads.
 */
function realPath(absolute: string): string | undefined {
  try {
    return realpathSync(absolute)
  } catch {
    try {
      return resolve(dirname(absolute), readlinkSync(absolute))
    } catch {
      return undefined
    }
  }
}

/** Whether there is an entry at `path`: a file, a folder, or a link, one leading to what is gone too. */
export function isHere(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** A folder there now (one deleted since is not: see behind). */
function isFolder(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory()
  } catch {
    return false
  }
}

/**
 * Where a relative `file` is: from `folder`; else, where there is no such file there, from the root
 * of the repository `folder` is in, when it is there (`src/billing/invoice.ts` asked in `src/`: an
 * agent names files from the root, whatever folder its MCP server or shell is in), but never
 * beside it (`../web/x.ts` from the root is another repository's file, which an agent naming files
 * from the root does not mean); from `folder` when neither has it (a record deleted since, found by
 * its folder and name).
 */
export function located(file: string, folder: string): string {
  const here = resolve(folder, file)
  if (isAbsolute(file) || existsSync(here)) return here
  const fromRoot = fromRootOf(file, folder)
  return fromRoot !== undefined && existsSync(fromRoot) ? fromRoot : here
}

/** A relative `file` read from the root of the repository `folder` is in, when that is inside it. */
function fromRootOf(file: string, folder: string): string | undefined {
  try {
    const root = repositoryRoot(folder)
    const fromRoot = root === undefined ? undefined : resolve(root, file)
    return fromRoot !== undefined && !/^\.\.(?:[\\/]|$)/.test(relative(root as string, fromRoot)) ? fromRoot : undefined
  } catch {
    // A folder removed under the process: no repository to read it from.
    return undefined
  }
}

/** How a doorway says, for a file no decision is behind, where it looked and how a point is explained there. */
export interface FileDoorway {
  /** Where a relative file is read from. */
  folder: string
  /** That folder as said after "there is no such file": `here` for a command. */
  here: string
  /** How this doorway explains a point at `path`: `why --point POINT --path src/x.ts`. */
  pointAt: (path: string) => string
  /** How this doorway asks for a decision's chain: `why OLD-1` (the default). */
  whyOf?: (key: string) => string
}

/**
 * The decisions scoped to `path` or a folder above it that are not in force (proposed, superseded,
 * deprecated or revoked), by key: not the why of the file now, but what a reviewer about to change
 * it should hear of, rather than that no decision was ever scoped there.
 */
export function scopedNotInForce(path: string, decisions: readonly DecisionRecord[]): DecisionRecord[] {
  // One stored with a glob (`src/auth/**`) is meant for the files of its folder, as an accepted one
  // is found (globScopedOver): left out, a deprecated one was said to be no decision at all.
  const meant = (scope: string) => isWithin(path, scope) || (isGlobPath(scope) && isWithin(path, globMeant(scope)))
  return decisions
    .filter((d) => d.status !== 'accepted' && d.scope.path !== null && meant(d.scope.path))
    .sort((a, b) => compareKeys(a.key, b.key))
}

/** How a refusal says the decisions scoped to a path: `in force scoped` where some scoped there are not in force (`scopedNotInForce`), else `scoped`. */
export function scopedSaid(notInForce: readonly DecisionRecord[]): string {
  return notInForce.length > 0 ? 'in force scoped' : 'scoped'
}

/** How many decisions not in force a refusal names by key before it counts the rest. */
const NOT_IN_FORCE_NAMED = 5

/** What a doorway says of decisions scoped to a file's path that are not in force: `; not in force there: OLD-1 (deprecated, scoped to src/auth): why OLD-1 tells its history`. */
function notInForceSaid(gone: readonly DecisionRecord[], doorway: FileDoorway): string {
  const first = gone[0]
  if (first === undefined) return ''
  const status = (d: DecisionRecord) => (d.status === 'superseded' && d.superseded_by !== null ? `superseded by ${d.superseded_by}` : d.status)
  const scope = (path: string) => (isGlobPath(path) ? `the glob ${path}` : path)
  // The first few, then a count: 300 deprecated under `src` made a one-line refusal 12,000 characters long.
  const named = gone.slice(0, NOT_IN_FORCE_NAMED).map((d) => `${d.key} (${status(d)}, scoped to ${scope(d.scope.path ?? '')})`).join(', ')
  const rest = gone.length > NOT_IN_FORCE_NAMED ? ` and ${gone.length - NOT_IN_FORCE_NAMED} more` : ''
  const whyOf = doorway.whyOf ?? ((key: string) => `why ${shellWord(key)}`)
  return `; not in force there: ${named}${rest}: ${whyOf(first.key)} tells its history`
}

/**
 * What answers instead for a file no decision was imported from or is scoped to (with `asOf`, then:
 * a record imported since, or a decision scoped there since, is not one): a record not imported yet,
 * a README import-adr reads past, a file of the code (where decisions with no path hold), or no file.
 */
export function noDecisionOfFile(file: string, path: string, doorway: FileDoorway, asOf?: string, decisions: readonly DecisionRecord[] = []): string {
  // Decisions scoped there once (deprecated, superseded by one that holds elsewhere, ...) are named
  // after the rest: "no decision is scoped to its path" would hide the why a reviewer came for.
  const gone = scopedNotInForce(path, decisions)
  const none = `${asOf === undefined ? '' : `as of ${asOf}, `}no decision was imported from ${file} or is ${scopedSaid(gone)} to its path`
  return noDecisionSaid(file, path, doorway, none) + notInForceSaid(gone, doorway)
}

function noDecisionSaid(file: string, path: string, doorway: FileDoorway, none: string): string {
  if (!existsSync(located(file, doorway.folder))) return `${none}, and there is no such file ${doorway.here}`
  // A folder of records none was imported from (or none yet, as of then): as for one of its records.
  if (holdsRecords(recordsRead(located(file, doorway.folder)))) return `${none} (import-adr ${shellWord(file)} reads its folder's records)`
  if (/\.(md|markdown)$/i.test(file)) {
    // A README, an index or a template, which import-adr reads past; not a file of the code named so.
    return notARecord(basename(file)) ? `${none} (import-adr reads no README, index or template as a record)` : `${none} (import-adr ${shellWord(dirname(file))} reads its folder's records)`
  }
  return `${none}, ${path} (decisions with no path apply everywhere: GET /v1/decisions/applicable?path=${queryValue(path)}; ${doorway.pointAt(path)} explains a point there)`
}

/**
 * `path` as a query's value the service reads back as that path: a space, `&`, `#`, `?` or `+`
 * as it was made no URL, or one of another path (`a&b.ts` is read as `a`, and `c++.ts` with two
 * spaces). Its `/` are kept, which a query may hold as they are, so that `src/x.ts` reads as it is.
 */
function queryValue(path: string): string {
  return encodeURIComponent(path).replace(/%2F/g, '/')
}

const RECORD_NAME = /^(?:\d|adr[-_]?\d|d-\d)/i

/**
 * Whether `absolute` is a folder holding a file named as a record (`0005-use-x.md`,
 * `20240301-use-x.md`, `ADR-002-….md`, AXME Code's `D-021-….md`) or a log of decisions
 * (`DECISIONS.md`): not a folder of the code with a CONTRIBUTING.md beside it.
 */
function holdsRecords(absolute: string): boolean {
  try {
    return readdirSync(absolute, { withFileTypes: true }).some(
      (entry) => entry.isFile() && /\.md$/i.test(entry.name) && !notARecord(entry.name) && (RECORD_NAME.test(entry.name) || DECISION_LOG.test(entry.name)),
    )
  } catch {
    // A file, or no such folder.
    return false
  }
}
