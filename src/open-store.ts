import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path'
import { Level } from 'level'
import { shellWord } from './config/bin-path'
import { createLevelDecisionStore } from './decisions/level-decision-store'
import type { DecisionStore } from './decisions/store'
import { createLevelStore, type TierPolicy } from './memory/level-store'
import type { MemoryStore } from './memory/store'

/** The data directory cannot be opened: most often another process holds it. */
export class StoreOpenError extends Error {
  readonly code = 'STORE_UNAVAILABLE'
  /** Whether another process holds the store (LevelDB's LOCK), rather than it cannot be made or read. */
  readonly locked: boolean
  constructor(message: string, options: { locked?: boolean } = {}) {
    super(message)
    this.name = 'StoreOpenError'
    this.locked = options.locked === true
  }
}

/** Opens the embedded LevelDB store under `dir`, creating it when missing; its tiers follow `policy`. */
export async function openStore(dir: string, policy?: TierPolicy): Promise<MemoryStore> {
  return (await openStores(dir, policy)).store
}

/**
 * How LevelDB is opened, for the service's memory (bench/HISTORY.md):
 * - at most 64 table files open, each mapped into memory as it is read: with the default (1,000),
 *   compaction under a write load left 110 MB of table pages resident on the benchmark's store of
 *   1,000,000 observations; with 64, about 70 MB;
 * - a block cache of 1 MB and a write buffer of 512 KB (defaults 8 MB and 4 MB): 2 MB and 1 MB took
 *   the peak from 231 to 206 MB under the observation load, at the same throughput; halving them
 *   again, with half the hot cells (core-tier.ts), from 205-206 to 197-203 MB in trials of 10 to
 *   25 s of each load (full runs, with longer loads: 209 MB, then 194 MB; bench/HISTORY.md);
 * - table files of 1 MB (the default 2 MB): a compaction maps every file it reads, and one from
 *   level 1 reads all the files of level 2 its key range overlaps, so smaller files make smaller
 *   compactions, and fewer pages mapped at once. In trials under the bench's loads (a harness not
 *   committed; bench/HISTORY.md, the eighth session) the peak fell by 12 to 14 MB on freshly seeded
 *   stores (175 against 187 MB on one seeded with 2 MB files, 171-173 against 185 on one seeded
 *   with 1 MB files) and by 5 to 21 MB on a store that had been through a full bench run (177-186
 *   against 191-198); an observation's CPU moved within the noise (557 against 662 µs, 543-631
 *   against 523, on the fresh stores; 547/616 against 535/630, lowest/median, on the 1,000-user
 *   store of `cpu-per-request.ts`). Reads cross more files, and the table cache covers half as
 *   much of the store, yet in process a recommendation at a point not in core cost the same within
 *   the noise on stores written with either size (three runs each, one after the other: the first
 *   4.7-5.6 ms of CPU with 1 MB files against 4.7-5.4 with 2 MB, one computed again 0.69-0.95
 *   against 0.70-0.83; 128 open files instead of 64 changed nothing measurable, one run).
 *   A store written with 2 MB files needs nothing: its files are rewritten at 1 MB as LevelDB
 *   compacts them, and both sizes coexist.
 * The hot aggregates are held in memory above LevelDB, so its own caches matter little.
 */
export const LEVEL_OPTIONS = Object.freeze({ maxOpenFiles: 64, cacheSize: 1024 * 1024, writeBufferSize: 512 * 1024, maxFileSize: 1024 * 1024 })

/** The mode of a store folder made by the service or a command: its owner's only. A folder already there keeps its own. */
export const STORE_FOLDER_MODE = 0o700

/**
 * Why other accounts may read the store, or undefined when they may not: a folder that was there
 * already keeps its mode, and with search permission (`x`) for its group or others, LevelDB's
 * files (0644 under the usual umask, their names well known) are theirs to read, every user's
 * choices with them, whatever tokens the service asks for.
 */
export async function storeFolderExposure(dir: string): Promise<string | undefined> {
  const mode = await stat(dir).then((s) => s.mode & 0o777, () => undefined)
  if (mode === undefined || (mode & 0o011) === 0) return undefined
  return `the store's folder ${shellWord(dir)} may be read by other accounts (mode ${mode.toString(8).padStart(3, '0')}), and every user's choices with it, whatever tokens the service asks for: make it its owner's only (chmod 700)`
}

/**
 * Makes the store's folder, its owner's only (STORE_FOLDER_MODE), and the folders above it that
 * are missing as mkdir makes any: `recursive` with a mode gives the mode to every folder it
 * makes, and `--data /srv/shared/dm` would have closed `/srv/shared` to everyone else. A folder
 * there already keeps its mode; a file there is EEXIST, a file above ENOTDIR or EEXIST.
 */
export async function makeStoreFolder(dir: string): Promise<void> {
  await mkdir(dirname(resolve(dir)), { recursive: true })
  try {
    await mkdir(dir, { mode: STORE_FOLDER_MODE })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(dir)).isDirectory()) return
    throw error
  }
}

/**
 * The names in a store's folder: LevelDB's own files (`000005.dbtmp` while it writes CURRENT), and
 * those the service and the commands write beside them (SERVICE_ID, SERVICE_FOLDER, LOCAL_TURN…);
 * and the hook's spool by its default name, its refused ones and its claims (`spool.ndjson.…`): a
 * store kept in `~/.decision-memory`, the spool's folder, is made after a hook spooled there. And
 * what a file manager leaves in any folder it shows (`.DS_Store`, `Thumbs.db`, `desktop.ini`): a
 * folder made for the store in Finder, holding nothing else, is an empty folder.
 */
const STORE_FILE =
  /^(?:CURRENT|LOCK|LOG(?:\.old)?|MANIFEST-\d+|\d+\.(?:log|ldb|sst|dbtmp)|LOCAL_TURN.*|SERVICE_ID|SERVICE_FOLDER|spool\.ndjson(?:\..+)?|\.DS_Store|Thumbs\.db|desktop\.ini)$/

/**
 * The files a store's open (LevelDB's) and a service's start (SERVICE_ID, SERVICE_FOLDER) make in
 * its folder: those `undoStoreMaking` may remove. Not a turn's nor a spool's, which are others'.
 */
const MADE_BY_OPEN = /^(?:CURRENT|LOCK|LOG(?:\.old)?|MANIFEST-\d+|\d+\.(?:log|ldb|sst|dbtmp)|SERVICE_ID|SERVICE_FOLDER)$/

/**
 * What undoes the store a start is about to make in `dir`, should the start fail after the store is
 * made (serve, a port taken in the moment after it found it free): the store's files and the
 * service's made since this call, then `made`, the folders made for it, each only if left empty.
 * Nothing, where `dir` holds a store already (its CURRENT): a store that was there is never
 * touched. So it is called at the last moment before the open, within the turn at the folder: a
 * store a command made and wrote to while the start waited for that turn is one that was there.
 * Files of others (a spool, a command's turn, a file of yours) are left, and the folders holding
 * them. Given the store's `close`, run in the turn at the folder (`takeTurn`, local-turn's), it closes
 * the store and removes what the open made before a command can open the store in its place.
 */
export function undoStoreMaking(dir: string, made: readonly string[] = foldersMissing(dir)): (close: () => Promise<void>, takeTurn: (dir: string) => Promise<() => Promise<void>>) => Promise<void> {
  const before = namesIn(dir)
  if (before?.includes('CURRENT') === true) return (close) => close()
  const had = new Set(before ?? [])
  return async (close, takeTurn) => {
    // A command that opens the store itself does so in its turn (local-turn.ts): held from before
    // the close to the removal, none opens the store once it is closed, and writes to files removed.
    const giveBack = await takeTurn(dir).catch(() => async () => {})
    try {
      await close()
      for (const name of namesIn(dir) ?? []) {
        if (MADE_BY_OPEN.test(name) && !had.has(name)) await unlink(join(dir, name)).catch(() => {})
      }
    } finally {
      await giveBack()
    }
    // rmdir removes an empty folder alone: one a file of another's was put in stays, and those above it.
    for (const folder of made) {
      if (!(await rmdir(folder).then(() => true, () => false))) break
    }
  }
}

/**
 * The folders a store's open in `dir` would make: `dir` and those above it not there now, nearest
 * the root last. Read before a start makes any (a turn at the folder makes it): see undoStoreMaking.
 */
export function foldersMissing(dir: string): string[] {
  const missing: string[] = []
  for (let folder = resolve(dir); !existsNow(folder); folder = dirname(folder)) {
    missing.push(folder)
    if (dirname(folder) === folder) break
  }
  return missing
}

/** Whether anything is at `path` (a dangling link too). */
function existsNow(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/**
 * A file in `dir` that is no store's, when `dir` holds no store (no CURRENT): a project's folder
 * (`--data .`), a folder of documents, a `./data` of the project's own, where opening a store
 * would make LevelDB's files among them. Undefined for a store, an empty folder, one of a store's
 * files alone (one being made), or a folder that is not there or cannot be read (the open says why).
 */
export function foreignFileIn(dir: string, names = namesIn(dir)): string | undefined {
  if (names === undefined || names.includes('CURRENT')) return undefined
  return [...names].sort().find((name) => !STORE_FILE.test(name))
}

/** The names of the files in `dir`, or undefined when it is not there or cannot be read. */
export function namesIn(dir: string): string[] | undefined {
  try {
    return readdirSync(dir)
  } catch {
    return undefined
  }
}

/**
 * Why the store in `dir` must not be opened, when it has lost its `CURRENT` (the file naming its
 * MANIFEST) but still holds LevelDB's data: a table file, or a log with records in it. Opened so,
 * LevelDB takes the folder for a new store, starts an empty one and deletes the files it does not
 * know, every acknowledged choice with them; the service then answered the static default, with
 * no observation, as if nothing had ever been learned. Undefined for a store with its CURRENT, an
 * empty folder, or one a store was being made in (a MANIFEST and an empty log, no data yet).
 */
export function dataWithoutCurrentIn(dir: string, names = namesIn(dir)): string | undefined {
  if (names === undefined) return undefined
  let problem: string
  if (names.includes('CURRENT')) {
    // One that names no manifest (garbage, a file cut short to nothing): LevelDB refuses it, with
    // `IO error: DIR/garbage: No such file or directory`, which says neither what is wrong nor what to do.
    let current: string
    try {
      current = readFileSync(join(dir, 'CURRENT'), 'latin1')
    } catch {
      return undefined
    }
    if (/^MANIFEST-\d+\n$/.test(current)) return undefined
    const shown = JSON.stringify(current.length > 40 ? `${current.slice(0, 40)}…` : current)
    // A manifest's name without its newline, or with a CR or more lines after it (a hand edit, an
    // editor's line endings), which LevelDB refuses too: "does not name a manifest" was untrue.
    const named = /^MANIFEST-\d+/.exec(current)?.[0]
    problem =
      named === undefined
        ? `its file CURRENT does not name a manifest (it holds ${shown})`
        : `its file CURRENT names ${named} otherwise than LevelDB reads it, the name and one newline (it holds ${shown})`
  } else {
    const data = names.filter((name) => /^\d+\.(?:ldb|sst)$/.test(name) || (/^\d+\.log$/.test(name) && sizeOf(join(dir, name)) > 0)).sort()
    if (data.length === 0) return undefined
    problem = `its file CURRENT is missing, beside its data (${data.join(', ')}), and opened so LevelDB would start an empty store there and delete that data`
  }
  const manifest = names
    .filter((name) => /^MANIFEST-\d+$/.test(name))
    .sort((a, b) => Number(a.slice('MANIFEST-'.length)) - Number(b.slice('MANIFEST-'.length)))
    .pop()
  const fix =
    manifest === undefined
      ? 'restore the folder from a backup'
      : `if only CURRENT was lost or damaged, write the name of its newest manifest into it (echo ${manifest} > ${join(dir, 'CURRENT')}), else restore the folder from a backup`
  return `the store in ${shellWord(dir)} is damaged: ${problem}; nothing was changed: ${fix}`
}

/**
 * What LevelDB dropped as it opened the store in `dir`, said for the person who runs it, or
 * undefined when it dropped nothing. A log damaged or cut short (a disk that failed, a copy cut
 * short) is read up to the damage, and LevelDB, which is not opened to check paranoidly, goes on
 * without the rest, deletes the log, and says so only in its own `LOG` (rotated at each open, so
 * the one there now is this open's): `(ignoring error) …/000003.log: dropping 17946 bytes;
 * Corruption: checksum mismatch`. Every acknowledged choice recorded there was gone without a word,
 * and the service answered as if they had never been made. A record whose checksum holds but whose
 * batch cannot be read, or a log that cannot be opened, is skipped and said otherwise: `Ignoring
 * error Corruption: unknown WriteBatch tag`, `Ignoring error IO error: …/000003.log: Permission denied`.
 */
export function lossOnOpen(dir: string): string | undefined {
  let log: string
  try {
    log = readFileSync(join(dir, 'LOG'), 'utf8')
  } catch {
    return undefined
  }
  const dropped = log
    .split('\n')
    .filter((line) => /\(ignoring error\)|dropping \d+ bytes|^\S+ \S+ Ignoring error /.test(line))
    .map((line) =>
      line
        .replace(/^\S+ \S+ /, '')
        .replace(/^\(ignoring error\) /, '')
        .replace(/^Ignoring error /, "a log's record or file skipped: "),
    )
  if (dropped.length === 0) return undefined
  return `the store in ${shellWord(dir)} was damaged: LevelDB dropped what it could not read as it opened it (${dropped.join('; ')}), and the choices recorded there are lost: if you have a backup of the folder, restore it, with no service running on it`
}

/** A file's size in bytes, 0 when it cannot be read. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

/**
 * Whether the store works, as its reads and writes say. A write that failed for the file system
 * (`IO error: …: No space left on device`, a file it may not write) is remembered until a write
 * succeeds: after most such failures (one in a compaction, a failed sync) LevelDB refuses every
 * write until the store is opened again. A read (or write) that met a damaged file (LevelDB's
 * `Corruption: …`, or an IO error reading a table file damaged or cut short: `IO error:
 * …/000005.ldb: Invalid argument`) is remembered until the service is restarted: the file stays
 * damaged, and every request that reads it fails. Without them, the service went on answering
 * `/healthz` with `ok` while it stored nothing.
 */
export interface StoreHealth {
  /** What is wrong with the store, or undefined when nothing is known to be. */
  failure(): StoreFailure | undefined
}

export interface StoreFailure {
  /**
   * `damaged`: a read or write met LevelDB's `Corruption`; `unreadable`: a read failed with an IO
   * error (a table file damaged or cut short, or one it may not read); both until a restart.
   * `write`: the last write failed with an IO error (a full disk, a file it may not write).
   */
  kind: 'damaged' | 'unreadable' | 'write'
  /** LevelDB's reason, without the store's folder (`IO error: 000005.ldb: Invalid argument`). */
  reason: string
}

type Watched = Pick<Level<string, string>, 'put' | 'del' | 'batch' | 'get' | 'getMany' | 'iterator' | 'keys' | 'values'>

/** LevelDB's code of a failure (on the error, or on its cause as abstract-level wraps some). */
function levelCode(error: unknown): unknown {
  return (error as { code?: unknown }).code ?? ((error as Error).cause as { code?: unknown } | undefined)?.code
}

/**
 * Watches every read and write made on `db`, its sublevels' included (a sublevel reads and writes
 * through its parent's `get`, `getMany`, `put`, `del` and `batch`, and iterates through its
 * root's `iterator`, `keys` and `values`). LevelDB names a file with the folder it was opened on
 * (`location`, or the `location` of `db`), which is left out of the reason: `/healthz`, open
 * without a token, tells nobody where the store is. A read pays a promise's `then`, no more.
 */
export function watchStore(db: Watched, location: string | undefined = (db as { location?: unknown }).location as string | undefined): StoreHealth {
  let writeFailure: StoreFailure | undefined
  let lasting: StoreFailure | undefined
  const folder = location === undefined || location === '' ? undefined : `${location}/`
  const reasonOf = (error: unknown) => {
    const message = (error as Error).message
    return folder === undefined ? message : message.split(folder).join('')
  }
  const readFailed = (error: unknown): never => {
    const code = levelCode(error)
    if (lasting === undefined && (code === 'LEVEL_CORRUPTION' || code === 'LEVEL_IO_ERROR')) {
      lasting = { kind: code === 'LEVEL_CORRUPTION' ? 'damaged' : 'unreadable', reason: reasonOf(error) }
    }
    throw error
  }
  const watched = <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        const result = await write(...args)
        writeFailure = undefined
        return result
      } catch (error) {
        const code = levelCode(error)
        if (code === 'LEVEL_IO_ERROR') writeFailure = { kind: 'write', reason: reasonOf(error) }
        // A compaction that met a damaged file: LevelDB refuses every write with its reason after it.
        if (code === 'LEVEL_CORRUPTION' && lasting === undefined) lasting = { kind: 'damaged', reason: reasonOf(error) }
        throw error
      }
    }
  const { put, del, batch, get, getMany, iterator, keys, values } = db
  db.put = watched(put.bind(db)) as typeof db.put
  db.del = watched(del.bind(db)) as typeof db.del
  const batchOf = watched(batch.bind(db) as (...args: unknown[]) => Promise<void>)
  // With no operations, batch() is the chained form, which writes through the same instance.
  db.batch = ((...args: unknown[]) => (args.length === 0 ? batch.call(db) : batchOf(...args))) as typeof db.batch
  db.get = ((...args: Parameters<typeof get>) => get.apply(db, args).then(undefined, readFailed)) as typeof db.get
  db.getMany = ((...args: Parameters<typeof getMany>) => getMany.apply(db, args).then(undefined, readFailed)) as typeof db.getMany
  // An iterator reads as it is stepped through: its next(), nextv() and all() (which `for await` calls).
  const watchedIterator = <I extends { next: (...a: never[]) => Promise<unknown>; nextv: (...a: never[]) => Promise<unknown>; all: (...a: never[]) => Promise<unknown> }>(it: I): I => {
    const { next, nextv, all } = it
    it.next = ((...args: never[]) => next.apply(it, args).then(undefined, readFailed)) as I['next']
    it.nextv = ((...args: never[]) => nextv.apply(it, args).then(undefined, readFailed)) as I['nextv']
    it.all = ((...args: never[]) => all.apply(it, args).then(undefined, readFailed)) as I['all']
    return it
  }
  db.iterator = ((...args: Parameters<typeof iterator>) => watchedIterator(iterator.apply(db, args))) as typeof db.iterator
  db.keys = ((...args: Parameters<typeof keys>) => watchedIterator(keys.apply(db, args))) as typeof db.keys
  db.values = ((...args: Parameters<typeof values>) => watchedIterator(values.apply(db, args))) as typeof db.values
  return { failure: () => lasting ?? writeFailure }
}

/**
 * Why `dir`, a folder there, must not be opened as a store: one that lost its CURRENT
 * (dataWithoutCurrentIn), or a folder of other files (foreignFileIn). Undefined otherwise.
 */
function notAStoreFolder(dir: string): string | undefined {
  // A store that lost its CURRENT is said as that before a file of another beside it (a nohup.out)
  // could have it said to be no store at all.
  // The folder listed once for both.
  const names = namesIn(dir)
  const headless = dataWithoutCurrentIn(dir, names)
  if (headless !== undefined) return headless
  // Not made among other files: its files would be strewn through the folder (and committed with
  // a project), and the folder's own files left beside a store, as if they were the store's.
  const foreign = foreignFileIn(dir, names)
  if (foreign !== undefined) {
    return `there is no store in ${shellWord(dir)}, and it holds files that are not a store's (${foreign}): give an empty folder, or one not there yet, for a new store`
  }
  return undefined
}

/**
 * Why a store could never be made or opened in `dir`, found without making or opening anything:
 * a file there or above it, a store that lost its CURRENT, a folder of other files; as openStores
 * says each. Undefined for a store, an empty folder, or one not there yet. For a process that
 * makes its store only at its first use (the MCP server), checked at its start as serve's is.
 */
export function storePlaceProblem(dir: string): string | undefined {
  let folder: boolean
  try {
    folder = statSync(dir).isDirectory()
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException
    // A folder above it this account may not enter: the MCP server started, and each call failed.
    if (code === 'EACCES') return barredFolderProblem(dir)
    if (code !== 'ENOTDIR') return undefined
    folder = false
  }
  if (!folder) return `cannot make the store in ${shellWord(dir)}: it, or a folder above it, is a file, not a folder`
  return notAStoreFolder(dir)
}

/** Opens the observations and the decisions (R-CON-1), two stores on one LevelDB under `dir`. */
export async function openStores(
  dir: string,
  policy?: TierPolicy,
): Promise<{ store: MemoryStore; decisionStore: DecisionStore; health: StoreHealth; loss?: string }> {
  try {
    // Private to this account, as the hook's spool folder is: every user's choices are in it,
    // and LevelDB makes its files readable by all (0644 under the usual umask).
    await makeStoreFolder(dir)
  } catch (error) {
    // A path the user gave (--data): said in one line, not a stack trace from mkdir.
    const { code, path = dir } = error as NodeJS.ErrnoException
    if (code === undefined) throw error
    // A folder above it this account may not enter (`--data /root/db` for another user): no
    // permission to make it, said alone, told them to make a folder that may well be there.
    const barred = code === 'EACCES' ? barredFolderProblem(dir) : undefined
    if (barred !== undefined) throw new StoreOpenError(barred)
    // Which folder could not be made, and why in words: under systemd's User=, `--data
    // /var/lib/decision-memory` in a /var/lib only root may write, "EACCES" alone named neither.
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'it, or a folder above it, is a file, not a folder'
        : code === 'EACCES' || code === 'EPERM'
          ? `no permission to make ${shellWord(path)} (${code}): make it beforehand, owned by the account the command runs as`
          : code === 'EROFS'
            ? `${shellWord(path)} would be on a read-only file system (EROFS)`
            : code
    throw new StoreOpenError(`cannot make the store in ${shellWord(dir)}: ${why}`)
  }
  const refusal = notAStoreFolder(dir)
  if (refusal !== undefined) throw new StoreOpenError(refusal)
  const db = new Level<string, string>(dir, LEVEL_OPTIONS)
  const health = watchStore(db, dir)
  try {
    const store = await createLevelStore(db as never, { policy })
    const loss = lossOnOpen(dir)
    return { store, decisionStore: await createLevelDecisionStore(db as never), health, ...(loss === undefined ? {} : { loss }) }
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new StoreOpenError(`the store in ${shellWord(dir)} is in use by another process (is the service running?)`, { locked: true })
    }
    if (isDenied(cause)) {
      // A store made by another account (a first run as root, a folder copied in by another user):
      // LevelDB's `IO error: …/LOCK: Permission denied` alone said neither whose it is nor what to do.
      const why = typeof cause?.message === 'string' && cause.message !== '' ? ` (${cause.message})` : ''
      throw new StoreOpenError(notThisAccounts(dir, `it${why}`))
    }
    // LevelDB's own reason (`Corruption: …`, `IO error: …/MANIFEST-000002: No such file or
    // directory`) is in the cause: "Database failed to open" alone leaves an operator guessing.
    const why = typeof cause?.message === 'string' && cause.message !== '' ? `: ${cause.message}` : ''
    // A damaged manifest (`Corruption: no meta-nextfile entry in descriptor`): what to do, too.
    const advice = cause?.code === 'LEVEL_CORRUPTION' ? ': the store is damaged; nothing was changed: restore the folder from a backup' : ''
    throw new StoreOpenError(`cannot open the store in ${shellWord(dir)}: ${(error as Error).message}${why}${advice}`)
  }
}

/**
 * Whether LevelDB (or the folder's mkdir before it) was refused the store's files for this
 * account's rights: classic-level gives a failed open's status as an Error coded `LEVEL_IO_ERROR`
 * with LevelDB's words, strerror's (`IO error: DIR/LOCK: Permission denied` for EACCES,
 * `… Operation not permitted` for EPERM), under abstract-level's `LEVEL_DATABASE_NOT_OPEN`.
 */
function isDenied(cause: { code?: string; message?: string } | undefined): boolean {
  if (cause === undefined) return false
  if (cause.code === 'EACCES' || cause.code === 'EPERM') return true
  return cause.code === 'LEVEL_IO_ERROR' && typeof cause.message === 'string' && /: (?:Permission denied|Operation not permitted)$/.test(cause.message)
}

/**
 * The name of the account this process runs as, or its uid where it has no name (a container's uid
 * without a passwd entry); undefined with neither (no user name, on a system with no uids: Windows).
 */
function thisAccount(): string | undefined {
  try {
    return userInfo().username
  } catch {
    const uid = process.getuid?.()
    return uid === undefined ? undefined : String(uid)
  }
}

/** `this account (alice)`, or `this account` alone where it has neither a name nor a uid. */
function accountSaid(account: string | undefined): string {
  return account === undefined ? 'this account' : `this account (${account})`
}

/**
 * The folder `dir` leads to when it is a symbolic link (`--data ~/db`, a link to /srv/db), for a
 * `chown -R`, which changes a link given to it and not what it leads to; `dir` itself otherwise.
 */
function linkedFolder(dir: string): string {
  try {
    return lstatSync(dir).isSymbolicLink() ? realpathSync(dir) : dir
  } catch {
    return dir
  }
}

/**
 * Why the store in `dir` cannot be opened when this account may not write `what` of it (`it`, with
 * LevelDB's words; a file of it, with the code): whose it is, and the chown that gives it to this
 * account (or, with no account to name, what that chown would do).
 */
function notThisAccounts(dir: string, what: string): string {
  const account = thisAccount()
  // `--` ends chown's options (POSIX, and GNU, BSD and BusyBox chown alike): an account or folder
  // named with a `-` first (`-alice`) was read as an option, which quoting does not prevent.
  const give = account === undefined ? 'make this account the owner of the folder and of every file in it' : `chown -R -- ${shellWord(account)} ${shellWord(linkedFolder(dir))}`
  return `cannot open the store in ${shellWord(dir)}: ${accountSaid(account)} may not write ${what}: a store made by another account, such as a first run as root, must be given to this one: ${give}`
}

/**
 * The folder above `dir` this account may not enter (a folder of another user's, mode 0700:
 * `/root` for `--data /root/db`), as the kernel reaches `dir`: going down from the root, the last
 * folder it may look at (lstat) before one it is refused a look below, its symbolic links followed
 * as they lead (`--data ~/db`, a link to /root/db, is stopped at /root, not at `~`, which this
 * account may enter). `through` when a link led there, out of the folders `dir` names. Undefined
 * when nothing above `dir` stops this account.
 */
export function barredFolderAbove(dir: string): string | undefined {
  return barredFolderOnTheWay(dir)?.folder
}

function barredFolderOnTheWay(dir: string): { folder: string; through: boolean } | undefined {
  try {
    statSync(dir)
    return undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') return undefined
  }
  // The path as written, not resolved: a `..` after a symbolic link leads up from where the link
  // leads, as the kernel reads it, not back to the folder the link is in (`link/../db`).
  const absolute = isAbsolute(dir) ? dir : `${process.cwd()}${sep}${dir}`
  let path = parse(absolute).root
  let rest = stepsOf(absolute.slice(path.length))
  let through = false
  // Bounded as the kernel bounds a path's links (ELOOP): a loop of links stops nobody here.
  for (let links = 0; rest.length > 0; ) {
    const [name, ...after] = rest as [string, ...string[]]
    rest = after
    if (name === '..') {
      path = dirname(path)
      continue
    }
    const next = join(path, name)
    let link: string | undefined
    try {
      link = lstatSync(next).isSymbolicLink() ? readlinkSync(next) : undefined
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EACCES' ? { folder: path, through } : undefined
    }
    if (link === undefined) {
      path = next
      continue
    }
    if (++links > 40) return undefined
    through = true
    // Its target read name by name from the folder the link is in, or from the root.
    const root = parse(link).root
    if (root !== '') path = root
    rest = [...stepsOf(link.slice(root.length)), ...rest]
  }
  return undefined
}

/** The names a path steps through, in order, `..` kept (`.` and empty ones are no step). */
function stepsOf(path: string): string[] {
  return path.split(sep === '\\' ? /[\\/]/ : sep).filter((name) => name !== '' && name !== '.')
}

/**
 * Why no command of this account can reach a store in `dir`, when a folder above it may not be
 * entered (said alike by the commands that make a store and those that read one): there may be a
 * store there, and there may not. Undefined when nothing above `dir` stops this account.
 */
export function barredFolderProblem(dir: string): string | undefined {
  const barred = barredFolderOnTheWay(dir)
  if (barred === undefined) return undefined
  const where = barred.through ? 'a folder above where a symbolic link on its way leads' : 'a folder above it'
  return (
    `cannot reach the store in ${shellWord(dir)}: ${accountSaid(thisAccount())} may not enter ${shellWord(barred.folder)}, ${where} (EACCES): ` +
    'run the command as an account that may enter it, or keep the store in a folder this account may enter'
  )
}

/**
 * The file, beside LevelDB's own in the data directory, where the service that holds the store
 * writes the id it was given for this run. LevelDB leaves a file whose name is not one of its
 * own alone.
 */
export const SERVICE_ID_FILE = 'SERVICE_ID'

/** Beside `SERVICE_ID`: `<id> <inode>`, the folder that id was written in (see markServedBy). */
export const SERVICE_FOLDER_FILE = 'SERVICE_FOLDER'

/**
 * Writes a new random id for the service that has just opened the store in `dir`, and returns it.
 * Written after the open, under LevelDB's lock: the id in the file is that of the one service
 * holding the store, and a copy of the folder, opened by another service, gets its own. A command
 * told to use this store, finding it locked, goes through a service only if that service answers
 * to this id (service-client.ts); the id says nothing of where the store is. Beside it, the
 * folder's own identity (its inode): a copy of the folder not opened by a service since (a
 * backup, `cp -a` of a running store) holds the id of the service still running on the original,
 * and without it a command told to use the copy would act on the original through that service.
 * The folder is in a file of its own, `SERVICE_FOLDER`, with the id it goes with: a command of an
 * earlier version reads all of `SERVICE_ID` as the id and sends it in a header, which a second
 * line made invalid (it then failed on every store a service of this version held).
 */
export async function markServedBy(dir: string, id: string): Promise<void> {
  let file = SERVICE_FOLDER_FILE
  try {
    const folder = await folderIdentity(dir)
    if (folder !== undefined) await writeFile(join(dir, SERVICE_FOLDER_FILE), `${id} ${folder}\n`, { mode: 0o600 })
    file = SERVICE_ID_FILE
    await writeFile(join(dir, SERVICE_ID_FILE), `${id}\n`, { mode: 0o600 })
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException
    // A file of the store another account owns (a chown that missed it, a file written by root
    // since): said as a store this account may not write is, with the chown that gives it all.
    if (code === 'EACCES' || code === 'EPERM') throw new StoreOpenError(notThisAccounts(dir, `${join(dir, file)} (${code})`))
    throw new StoreOpenError(`cannot write ${join(dir, file)}: ${code ?? (error as Error).message}`)
  }
}

/**
 * The id the last service to open the store in `dir` wrote there, if any, and if it was written in
 * this very folder: a `SERVICE_ID` copied with the folder names the service of the original.
 */
export async function servedBy(dir: string): Promise<string | undefined> {
  let lines: string[]
  try {
    lines = (await readFile(join(dir, SERVICE_ID_FILE), 'utf8')).split('\n').map((line) => line.trim())
  } catch {
    return undefined
  }
  const id = lines[0] ?? ''
  if (id === '') return undefined
  // The folder, as a service of this version writes it (SERVICE_FOLDER, for this id), or as a
  // second line of SERVICE_ID, as the versions before it wrote it. An id with neither (written by
  // a version from before the folder was kept, which leaves SERVICE_FOLDER as it was) is taken at its word.
  const written = lines.find((line) => line.startsWith('folder '))?.slice('folder '.length) ?? (await folderWrittenFor(dir, id))
  if (written !== undefined && written !== (await folderIdentity(dir).catch(() => undefined))) return undefined
  return id
}

/** The folder `SERVICE_FOLDER` says `id` was written in, if it speaks of that id. */
async function folderWrittenFor(dir: string, id: string): Promise<string | undefined> {
  let text: string
  try {
    text = await readFile(join(dir, SERVICE_FOLDER_FILE), 'utf8')
  } catch {
    return undefined
  }
  const [forId, folder] = text.trim().split(' ')
  return forId === id && folder !== undefined && folder !== '' ? folder : undefined
}

/** The folder's inode, the same under any path or mount of it and another in any copy; undefined where the file system has none. */
async function folderIdentity(dir: string): Promise<string | undefined> {
  const { ino } = await stat(dir, { bigint: true })
  return ino === 0n ? undefined : ino.toString()
}
