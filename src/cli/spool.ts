import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, realpathSync, renameSync, statSync, type Stats } from 'node:fs'
import { mkdir, open, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { TrimmedIdentifierSchema } from '../domain/observation'
import { randomHex } from '../random-hex'
import { homeFolder } from '../home-folder'
import { envValue, homePath } from './options'

/** One hook event the service could not take when it happened. */
export interface SpooledEvent {
  /** When the event happened (ISO): the service records it at that time, not at delivery. */
  at: string
  user: string
  payload: unknown
  /**
   * The project (repository root) found from the payload's `cwd` when the event happened: by the
   * time it is delivered the folder may be gone (a worktree removed with its session) or moved.
   * Absent in a spool an older hook wrote (found again at delivery), and outside a repository,
   * where the payload's `cwd` is the folder its symbolic links lead to (sentOfPayload). An older
   * hook gave that folder here: it is sent as ?project= still.
   */
  project?: string
  /**
   * On a capture the hook set aside in the .rejected file because a mistake in its flags left whose
   * choices these are in doubt: the names the flags gave for the user, as written (`--usr alice`:
   * `["alice"]`; none for `--user` with no value), `user` being only what the defaults gave. A forget
   * of one of them removes the line (namesUser), and `hook --record-set-aside` tells the line by it.
   */
  user_in_doubt?: string[]
}

/**
 * The names a line's flags gave for a user in doubt (user_in_doubt); undefined for a line that is
 * no capture set aside so (one the service refused, JSON no hook wrote).
 */
function namedInDoubt(value: unknown): string[] | undefined {
  const names = (value as { user_in_doubt?: unknown } | null)?.user_in_doubt
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : undefined
}

/**
 * The users names flags in doubt gave: each in NFC, white space at its ends aside, once; a name the
 * service would refuse even so (`--user ..`, `!x`) names no one.
 */
function usersNamed(names: readonly string[]): string[] {
  return [...new Set(names.map((name) => name.normalize('NFC').trim()))].filter((name) => TrimmedIdentifierSchema.safeParse(name).success)
}

/**
 * How many captures set aside in the spool's .rejected file with their user in doubt name no user
 * (`--user` with no value, `--user ..`): a forget of a user cannot tell whether they are that
 * user's, and says so. Read as it stands, nothing taken; none when there is no such file.
 */
export async function setAsideNamingNoOne(file: string): Promise<number> {
  const text = await readFile(rejectedFile(file), 'utf8').catch(() => '')
  return spooledLines(text).filter((line) => {
    if (!isEvent(line)) return false
    const named = namedInDoubt(JSON.parse(line))
    return named !== undefined && usersNamed(named).length === 0
  }).length
}

/**
 * Whether one of the names flags in doubt gave is `user`: in NFC, as the service takes a name, and
 * white space at its ends aside (`--user "alice "`, which the service refuses, meant alice).
 */
function namesUser(names: readonly string[], user: string): boolean {
  const wanted = user.normalize('NFC').trim()
  return names.some((name) => name.normalize('NFC').trim() === wanted)
}

/**
 * What a delivery attempt came to: taken, refused for good (4xx), to be tried again later (the
 * service is down or slow, or refuses every event: the drain stops), or refused for now for this
 * event alone (a token that may not act for its user: kept, and the drain goes on to the others).
 */
export type Delivery = 'delivered' | 'rejected' | 'failed' | 'deferred'

export interface DrainResult {
  delivered: number
  rejected: number
  left: number
  /** Why events were left: a delivery failed (the service is down or slow), or time ran out. */
  stopped: 'failure' | 'time' | null
  /**
   * Symbolic links taken as the spool that led to no file (broken, or looping): they held no
   * events, and are removed (linkToNothing), each with where it led and why it could not be read.
   */
  removedLinks?: Array<{ target: string; code: string }>
}

/** The spool file: `$DECISION_MEMORY_SPOOL`, else `~/.decision-memory/spool.ndjson`. */
export function spoolFile(env: NodeJS.ProcessEnv = process.env): string {
  const given = envValue('DECISION_MEMORY_SPOOL', env)
  return given === undefined ? join(homeFolder(), '.decision-memory', 'spool.ndjson') : homePath(given)
}

/**
 * What is wrong with `spool` as the path of a spool file, for a command given it (forget, `hook
 * --record-set-aside`) to refuse before it does anything, after `--spool is ` or
 * `DECISION_MEMORY_SPOOL is `: a folder (`--spool ~/.decision-memory`, where the spool is), or a
 * path under a file, where no hook wrote one. Undefined for a file, or nothing there yet.
 */
export function spoolPathProblem(spool: string): string | undefined {
  let found
  try {
    found = statSync(spool, { throwIfNoEntry: false })
  } catch (error) {
    // A path under a file (`--spool ~/.decision-memory/spool.ndjson/x`): said as the folder is, not as stat's stack trace.
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error
    return `${spool}, under a file, not a folder: give the path of the spool file (as the hook's --spool or DECISION_MEMORY_SPOOL names it)`
  }
  if (found?.isDirectory() === true) {
    return `${spool}, a folder: give the path of the spool file in it (${join(spool, 'spool.ndjson')}, as the hook's --spool or DECISION_MEMORY_SPOOL names it)`
  }
  return undefined
}

/** Where events the service refused for good are kept for a person to look at, never retried. */
export function rejectedFile(file: string): string {
  return `${file}.rejected`
}

/** Appends one event (one NDJSON line; O_APPEND keeps concurrent writers' lines whole). */
export async function appendToSpool(file: string, event: SpooledEvent): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    await appendToLive(file, JSON.stringify(event) + '\n')
  } catch (error) {
    // Said of the event, as the other causes are: written, it may be in a claim already read.
    if (error instanceof SpoolReplacedError) throw new Error(`the spool ${file} ${REPLACED_WHY}: this event may not be kept`)
    const code = (error as NodeJS.ErrnoException).code
    // That the event is not kept said as for the other causes: "is a folder" alone left a person
    // looking for it in the folder.
    if (code === 'EISDIR') throw new Error(`the spool ${file} is a folder (EISDIR): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in it`)
    // mkdir's words ("ENOTDIR: not a directory, mkdir '…'") said neither that it was the spool nor
    // that the event is lost.
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new Error(`the spool ${file} is under a file, not a folder (${code}): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in a folder`)
    }
    // A full disk (ENOSPC), a spool not this account's (EACCES): "ENOSPC: no space left on device,
    // write" alone said neither which file nor that the event, delivered nowhere, is not kept.
    if (code === undefined) throw error
    // Another account's file, mode 0600, refuses the open before its owner is looked at: said as
    // one open to this account is, naming the owner, not as a disk to free.
    const found = code === 'EACCES' || code === 'EPERM' ? lstatOrNone(file) : undefined
    if (found !== undefined && othersOwn(found)) throw notOurs(file, found.uid)
    const full = code === 'ENOSPC' || code === 'EDQUOT'
    throw new Error(`cannot write the spool ${file} (${code}): this event is not kept; ${full ? 'free the disk, or ' : ''}give DECISION_MEMORY_SPOOL or --spool a file this account can write`)
  }
  // A device that took the line (`/dev/null`) kept nothing: "spooled to /dev/null" would say the
  // event waits where it does not. (One that refuses it, `/dev/full`, is said above.)
  const written = await stat(file).catch(() => undefined)
  if (written !== undefined && (written.isCharacterDevice() || written.isBlockDevice())) {
    throw new Error(`the spool ${file} is a device, not a file: this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file`)
  }
}

/** This account's uid; undefined where there is none (Windows). */
const ME = process.getuid?.()

/**
 * Whether another account owns this file or link: a spool set in a folder others may write
 * (`DECISION_MEMORY_SPOOL=/tmp/dm.ndjson`), where one of them made it first, or linked it to a
 * file of this account's. Appended to, it would give them the choices spooled (or put lines into
 * the file linked); drained, it would deliver their lines as this account's, under its token.
 */
function othersOwn(found: { uid: number }): boolean {
  return ME !== undefined && found.uid !== ME
}

function notOurs(file: string, uid: number): Error {
  return new Error(
    `the spool ${file} belongs to another account (uid ${uid}), which could read what is spooled or add to it: this event is not kept; give DECISION_MEMORY_SPOOL or --spool a file of your own`,
  )
}

/**
 * Appends lines to the spool file that is at `file` once they are written. A drain may claim
 * (rename) the spool between this process opening it and writing to it, and may have read it
 * before the write landed: the lines would go into a claimed file that is then unlinked, lost.
 * So after writing, the file still at the path must be the one written to; else the lines are
 * written again to the new spool (a drain that did read them too delivers them twice, which the
 * service's idempotency makes count once).
 */
async function appendToLive(file: string, text: string): Promise<void> {
  // Bounded: a file system whose stat and fstat disagree must not hold the hook forever (the
  // copies it would leave are one event each to a drain).
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    const link = lstatOrNone(file)
    if (link?.isSymbolicLink() === true && othersOwn(link)) throw notOurs(file, link.uid)
    // A named pipe (`mkfifo`) or a socket keeps nothing, and opening a pipe no one reads blocks
    // until one does: the hook, which exits within its --budget, hung there until Claude Code killed it.
    const target = await stat(file).catch(() => undefined)
    if (target !== undefined && (target.isFIFO() || target.isSocket())) throw new Error(notAFileWhy(file, target))
    // Answers are personal: readable by their owner only.
    const handle = await open(file, 'a', 0o600)
    try {
      const opened = await handle.stat()
      if (opened.isFile() && othersOwn(opened)) throw notOurs(file, opened.uid)
      await handle.write(text)
      const written = await handle.stat()
      const atPath = await stat(file).catch(() => undefined)
      if (atPath !== undefined && atPath.ino === written.ino && atPath.dev === written.dev) return
    } finally {
      await handle.close()
    }
  }
  // Given up on without a word, a hook's event was lost unsaid: the lines may be in a claim a drain
  // read before they landed (or, where stat and fstat disagree, in the file, written each time).
  throw new SpoolReplacedError(file)
}

/** How many times appendToLive writes lines again to a spool found replaced after each write. */
const APPEND_ATTEMPTS = 5

/** Why appendToLive gave up, in words that follow `the spool FILE `. */
const REPLACED_WHY = `was replaced after each of ${APPEND_ATTEMPTS} writes to it (taken by other processes' drains, or a file system whose stat and fstat disagree)`

/**
 * Lines appendToLive gave up on (REPLACED_WHY). Whether they are kept is the caller's to say: a
 * hook's event at hand may not be (appendToSpool, appendToRejected), but the lines a drain, a forget
 * or a move puts back wait in its claim, which it keeps for the next call to take over.
 */
class SpoolReplacedError extends Error {
  constructor(file: string) {
    super(`${file} ${REPLACED_WHY}`)
  }
}

/**
 * Why a spool that is a named pipe or a socket (notAFile) keeps no event, in the words of a spool
 * that is a device: the event is not kept, and where to point the spool instead.
 */
function notAFileWhy(file: string, found: Stats): string {
  return `the spool ${file} is ${notAFile(found)}, not a file: this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file`
}

/** What a spool that is no file is: `a named pipe (FIFO)` or `a socket`; undefined for anything else. */
export function notAFile(found: Stats): string | undefined {
  return found.isFIFO() ? 'a named pipe (FIFO)' : found.isSocket() ? 'a socket' : undefined
}

/** What `path` leads to, its links followed; undefined when nothing does (ENOENT, ELOOP). */
function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/** The file or link at `path`; undefined when there is none. */
export function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

/** Sets aside an event the service refused for good (a 4xx), for a person to read: never retried, never lost. */
export async function appendToRejected(file: string, event: SpooledEvent): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  // As to the spool: a forget may take the file aside (and remove it) while this writes to it.
  await appendToLive(rejectedFile(file), JSON.stringify(event) + '\n').catch((error: unknown) => {
    if (error instanceof SpoolReplacedError) throw new Error(`${rejectedFile(file)} ${REPLACED_WHY}: this event may not be kept`)
    throw error
  })
}

/**
 * A claim older than this is left over, whatever pid it names: a drain lasts one hook call (its
 * budget, at most 60 s), and the pid of a hook killed mid-drain (Claude Code ends a hook past its
 * timeout) may have been given to another process since, which would keep the claim, and the
 * events in it, from every later drain for as long as that process runs.
 */
export const CLAIM_STALE_MS = 5 * 60_000

/**
 * The claims this process made (claim, holdWhileDelivering). One named by its pid that it did not
 * make was left by an earlier process that had the same pid (in a container, every run is pid 1),
 * dead: taken over as a dead process's is, not left alone for up to CLAIM_STALE_MS as though this
 * process were at work on it, nor said by a forget to be another process's.
 */
const madeHere = new Set<string>()

/**
 * Whether a process has `pid` (one of another account answers EPERM). local-turn.ts's isRunning
 * is the same; not imported from there, as it loads the store (LevelDB), which the hook, started
 * at every tool call, must not.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Renames a spool (or a claim of one) to take it; false when there is none to take. Only a file
 * (or a link to no file, which the rename moves, for the drain to remove: linkToNothing) is taken:
 * a spool set to a folder (`DECISION_MEMORY_SPOOL=/tmp`, `--spool ~`) or a device (`/dev/null`)
 * would otherwise be moved aside whole, the folder with everything in it, and a device read as
 * empty and unlinked. `linked`: `from` is the file a spool that is a symbolic link leads to
 * (linkedFile), and an empty file is left at once in its place, for the link to go on leading to.
 */
async function tryRename(from: string, to: string, linked = false): Promise<boolean> {
  try {
    // Synchronous: one syscall, and no turn of the event loop between the look and the rename
    // for another drain or writer of this process to take.
    const found = lstatSync(from)
    if (!found.isFile() && !found.isSymbolicLink()) return false
    // Nor a link to what is no file (a named pipe, a device, a folder): read, a pipe nobody writes
    // to held the drain past the hook's --budget until Claude Code killed it. A link to nothing is
    // taken, and removed by the drain (linkToNothing), but for one whose file another process is
    // taking now (takenNow): it leads to a spool, there again in a moment.
    if (found.isSymbolicLink()) {
      const target = statOrNone(from)
      if (target !== undefined && !target.isFile()) return false
      if (target === undefined && takenNow(from)) return false
    }
    // Not this account's: its lines are not this account's events (othersOwn).
    if (othersOwn(found)) return false
    // Synchronous as well: the link leads to no file only between the two.
    renameSync(from, to)
    if (linked) leaveEmptyFile(from)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/**
 * Puts an empty file (mode 0600) where the file a spool link leads to was, once it is taken: left
 * leading to no file, the link would be removed by the next call (linkToNothing), and the spool be
 * a file of its own beside it, no longer the one in the folder it was linked into. A file a writer
 * made there meanwhile (an append through the link) is kept as it is.
 */
function leaveEmptyFile(path: string): void {
  try {
    closeSync(openSync(path, 'a', 0o600))
  } catch {
    // Where it cannot be (the folder filled between the rename and this), the link leads to no
    // file until an append makes one; a drain before that removes the link and says so.
  }
}

/**
 * The file a spool (or its .rejected file) that is a symbolic link to a file leads to, every link
 * on the way followed (a user may link the spool into a synced or shared folder): that file is
 * claimed, and the link left as it is. Renamed itself, the link was read through and replaced by a
 * file of its own, and the file it led to kept every line, a forgotten user's too. Undefined for a
 * file, a link to no file or to what is no file, and a link of another account's (othersOwn).
 */
function linkedFile(path: string): string | undefined {
  const link = lstatOrNone(path)
  if (link?.isSymbolicLink() !== true || othersOwn(link)) return undefined
  if (statOrNone(path)?.isFile() !== true) return undefined
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

/**
 * Whether the file the link `link` (leading to no file now) names is claimed at this moment by a
 * process at work on it: between the rename that takes it and the empty file put in its place
 * (leaveEmptyFile), the link leads to nothing, and another hook would remove it.
 */
function takenNow(link: string): boolean {
  try {
    // The last of the links on the way (a link to a link), where no link is: the file taken.
    let target = resolve(dirname(link), readlinkSync(link))
    for (let hop = 0; hop < 40 && lstatOrNone(target)?.isSymbolicLink() === true; hop++) {
      target = resolve(dirname(target), readlinkSync(target))
    }
    const dir = dirname(target)
    const base = basename(target)
    return readdirSync(dir).some((name) => {
      const pid = claimPid(name, base, 'draining') ?? claimPid(name, base, 'forgetting')
      return pid !== undefined && atWork(join(dir, name), pid)
    })
  } catch {
    return false
  }
}

/** `.PID.HEX.KIND` after the file's name: a claim of each kind. */
const CLAIM_NAME = { draining: /^\.(\d+)\.[0-9a-f]+\.draining$/, forgetting: /^\.(\d+)\.[0-9a-f]+\.forgetting$/ }

/** The pid of the claim of `kind` named `name` beside the file `base` (`BASE.PID.HEX.KIND`); else undefined. */
function claimPid(name: string, base: string, kind: 'draining' | 'forgetting'): number | undefined {
  if (!name.startsWith(`${base}.`)) return undefined
  const match = CLAIM_NAME[kind].exec(name.slice(base.length))
  return match === null ? undefined : Number(match[1])
}

/**
 * Whether the claim at `path`, of the process `pid`, is at work: this process's own where it made
 * it (madeHere; one of its pid it did not make was an earlier process's), else its process runs.
 */
function atWork(path: string, pid: number): boolean {
  return pid === process.pid ? madeHere.has(path) : isAlive(pid)
}

/**
 * Takes the spool (or the file of refused ones, for a forget: `kind` names the claims) for this
 * process: claims left by processes that died mid-drain (or mid-forget; one of this process's pid
 * it did not make, madeHere) first (they are older),
 * then the file itself. A claim is an atomic rename, so two hooks draining at
 * once never take the same lines, and new events go on being appended to a fresh spool file.
 * `inProgress` is told the pid of each claim it leaves to a process still at work on it.
 */
async function claim(file: string, kind: 'draining' | 'forgetting' = 'draining', inProgress: (pid: number) => void = () => {}): Promise<string[]> {
  // A link to a file: that file is taken, beside it, and the link stays (linkedFile). Claims are
  // looked for beside both: beside the link are the events held while delivered (holdWhileDelivering).
  const linked = linkedFile(file)
  const mine = (place: string) => ownName(place, kind)
  const claims: string[] = []
  for (const place of linked === undefined ? [file] : [file, linked]) {
    const dir = dirname(place)
    const base = basename(place)
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (error) {
      // No folder there, or a file where it would be (a spool path under a file): no spool to take.
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return claims
      throw error
    }
    for (const name of names.sort()) {
      const pid = claimPid(name, base, kind)
      if (pid === undefined) continue
      const path = join(dir, name)
      // Another process's (or this one's), at work on it now: its lines are its own until it is done.
      if (atWork(path, pid) && !(await isStale(path))) {
        // Not said when gone by now: its process is done, and put its lines back in `file` (taken
        // below) or moved them into the spool. Nor when it is this process's own: no other's.
        if (pid !== process.pid && lstatOrNone(path) !== undefined) inProgress(pid)
        continue
      }
      const to = mine(place)
      if (await tryRename(path, to)) claims.push(await stamped(to))
    }
  }
  const taken = linked ?? file
  const to = mine(taken)
  if (await tryRename(taken, to, linked !== undefined)) claims.push(await stamped(to))
  return claims
}

/**
 * Keeps an event on disk while this process delivers it: written as a claim of this process's own
 * (the name `claim` gives one) before it is sent, so that a hook killed at any point after (Claude
 * Code ends one past its entry's `timeout`, which a loaded machine reaches starting node) leaves it
 * for the next drain to take over, as it takes over a drain cut short; spooled only after a failed
 * delivery, it was lost with the process. Delivered twice (the service took it before the kill),
 * it counts once: observations are idempotent by decision_id, sessions by id. `release` removes it
 * once the event is delivered, spooled or set aside. Undefined when it cannot be written (a spool
 * folder that is read-only, a full disk) or the spool is no file: the event is then delivered, and
 * spooled or said on stderr, as before.
 */
export async function holdWhileDelivering(file: string, event: SpooledEvent): Promise<{ release(): Promise<void> } | undefined> {
  // A spool set to a folder or a device (DECISION_MEMORY_SPOOL=/tmp, /dev/null) is never claimed
  // (tryRename), and nothing is written beside it either: in `/`, in /dev.
  const found = lstatOrNone(file)
  if (found !== undefined && !found.isFile() && !found.isSymbolicLink()) return undefined
  const held = ownName(file, 'draining')
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    await writeFile(held, JSON.stringify(event) + '\n', { mode: 0o600, flag: 'wx' })
  } catch (error) {
    // Cut short (ENOSPC), it would be a stub for a drain to set aside: nothing is left instead.
    // One there already is not this call's to remove.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(held).catch(() => {})
    return undefined
  }
  return { release: () => unlink(held).catch(() => {}) }
}

/**
 * A name beside the spool of this process's own, `PATH.PID.HEX.KIND`, that no file has yet: 32
 * random bits drawn alike (once in 4 billion: two claims of one drain, or a claim an earlier
 * process given this pid left) renamed a claim over another, or held an event in place of one,
 * and that one's events were lost. Noted in madeHere as this process's own.
 */
function ownName(path: string, kind: string): string {
  for (;;) {
    const name = `${path}.${process.pid}.${randomHex(4)}.${kind}`
    if (lstatOrNone(name) === undefined) {
      madeHere.add(name)
      return name
    }
  }
}

/** Whether the claim at `path` was made (stamped) more than CLAIM_STALE_MS ago; gone is not stale. */
async function isStale(path: string): Promise<boolean> {
  const found = await stat(path).catch(() => undefined)
  return found !== undefined && Date.now() - found.mtimeMs > CLAIM_STALE_MS
}

/**
 * Dates a claim from when it was made: a rename keeps the spool's time of last append, which may
 * be long past, and would make a claim just made look left over (isStale) to another drain.
 */
async function stamped(claimed: string): Promise<string> {
  const now = new Date()
  await utimes(claimed, now, now).catch(() => {})
  return claimed
}

/** How every spooled line begins: JSON.stringify of a SpooledEvent, whose first field is `at`. */
const EVENT_START = '{"at":"'

/**
 * The lines of a spool, with an event written after a line cut short taken apart from it. A write
 * that stops partway (a full disk; a hook killed while writing a large payload) leaves a line
 * with no newline, and the next hook's event is appended to it: the two read as one line that is
 * no JSON, and the whole event would be set aside with the stub, never delivered (nor found by a
 * forget). The event is the last part of the line, from a place where an event begins, that reads
 * as one; what comes before it is the stub, kept as its own line.
 */
function spooledLines(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '' || isEvent(line)) return [line]
    for (let at = line.indexOf(EVENT_START, 1); at > 0; at = line.indexOf(EVENT_START, at + 1)) {
      const rest = line.slice(at)
      if (isEvent(rest)) return [line.slice(0, at), rest]
    }
    return [line]
  })
}

/**
 * The user (in NFC) of a line cut short after its `user` was written whole (`{"at":"…","user":"bob",
 * "payl`): the start of an event of that user's, which a forget of the user takes out with the
 * events. Undefined when the line does not start so.
 */
function stubOf(line: string): string | undefined {
  const start = /^\{"at":"[^"\\]*","user":("(?:[^"\\]|\\.)*")/.exec(line)
  if (start === null) return undefined
  try {
    const name = JSON.parse(start[1] as string) as unknown
    return typeof name === 'string' ? name.normalize('NFC') : undefined
  } catch {
    return undefined
  }
}

/** Whether a line is an event as the hook spools it: an object with a string `at` and `user`, and a payload. */
function isEvent(line: string): boolean {
  try {
    const value = JSON.parse(line) as Partial<SpooledEvent> | null
    return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof value.at === 'string' && typeof value.user === 'string' && 'payload' in value
  } catch {
    return false
  }
}

/**
 * Delivers spooled events oldest first (R-CAP-6). It stops at the first failure or when
 * `hasTime()` says so, and puts back what it did not deliver, so nothing is lost; a crash midway
 * leaves a claim the next drain takes again, and the service's idempotency (decision_id, session
 * id) makes the repeated deliveries count once.
 */
export async function drainSpool(
  file: string,
  deliver: (event: SpooledEvent) => Promise<Delivery>,
  hasTime: () => boolean = () => true,
  /** Called once the events a claim's deliveries refused for good are written to the .rejected file. */
  setAside: () => void = () => {},
): Promise<DrainResult> {
  const result: DrainResult = { delivered: 0, rejected: 0, left: 0, stopped: null }
  /** Lines seen in this drain: a line written again after a claim (appendToLive) is one event. */
  const seen = new Set<string>()
  for (const claimed of await claim(file)) {
    // Gone already: another drain took it over as left over (a spool last written CLAIM_STALE_MS
    // ago, seen between this drain's rename and its stamp): its events are that drain's. Thrown,
    // the error would end the hook before it sent or spooled the event at hand.
    // A link that leads to no file (a spool set as a link to a file not there, or one looping)
    // holds no events: read as none, it is unlinked below with the claim, said once (removedLinks).
    // Kept, it was renamed by every later hook (a claim of a pid gone) and never removed, and a
    // looping one threw ELOOP, the events claimed after it never delivered.
    const text = await readFile(claimed, 'utf8').catch((error: NodeJS.ErrnoException) => {
      const link = linkToNothing(claimed, error)
      if (link !== undefined) {
        result.removedLinks = [...(result.removedLinks ?? []), link]
        return ''
      }
      if (error.code === 'ENOENT') return undefined
      throw error
    })
    if (text === undefined) continue
    const lines = spooledLines(text).filter((l) => {
      if (l.trim() === '' || seen.has(l)) return false
      seen.add(l)
      return true
    })
    const keep: string[] = []
    const rejected: string[] = []
    for (const line of lines) {
      if (result.stopped === null && !hasTime()) result.stopped = 'time'
      if (result.stopped !== null) {
        keep.push(line)
        continue
      }
      // A line cut short (a writer killed mid-write) cannot be delivered, nor can JSON that is no
      // event (`null`, an event without its user: no hook of any version wrote it); keep it for a
      // person. Sent, `null` ended the drain with a TypeError, the claim taken again by every
      // later drain, and an event without a user was recorded for user "undefined".
      if (!isEvent(line)) {
        rejected.push(line)
        continue
      }
      const event = JSON.parse(line) as SpooledEvent
      const outcome = await deliver(event)
      if (outcome === 'delivered') result.delivered++
      else if (outcome === 'rejected') rejected.push(line)
      else if (outcome === 'deferred') keep.push(line)
      else {
        result.stopped = 'failure'
        keep.push(line)
      }
    }
    if (rejected.length > 0) {
      await appendToLive(rejectedFile(file), rejected.join('\n') + '\n')
      result.rejected += rejected.length
      setAside()
    }
    // The claim first keeps only what goes back: a put-back that fails (a full disk, a spool found
    // replaced after each write) leaves the claim for the next drain, which delivered again the
    // events taken and set aside again those refused, each twice in the .rejected file.
    if (keep.length > 0 && keep.length < spooledLines(text).filter((l) => l.trim() !== '').length && lstatOrNone(claimed) !== undefined) {
      await rewriteClaim(claimed, keep)
    }
    if (keep.length > 0) await appendToLive(file, keep.join('\n') + '\n')
    result.left += keep.length
    // Gone only if another drain took it over as left over (CLAIM_STALE_MS): its events are that drain's now.
    await unlink(claimed).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
  return result
}

/**
 * Takes a user's events out of the spool and of the file of refused ones (R-SVC-5: forget reaches
 * everything held, and a spooled event would bring the user's choices back at the next hook), with
 * the captures set aside there whose flags, in doubt, named the user (user_in_doubt).
 * The spool is claimed as a drain claims it (a hook appending meanwhile starts a fresh one); the
 * events of a drain in progress in another hook are that hook's. Lines it cannot read are kept,
 * but for the start of one of the user's cut short (stubOf).
 * The .rejected file held by another process at work on it (a `hook --record-set-aside`, another
 * forget) cannot be taken from it: its lines go back there, or into the spool, once this is done.
 * `inProgress` is told the pids of those processes, for the forget to say what may be left.
 * Returns how many events it removed.
 */
export async function forgetInSpool(
  file: string,
  user: string,
  inProgress: (pids: number[]) => void = () => {},
  /**
   * Told how many of the user's events are removed so far, each time more are: a forget that throws
   * partway (a claim it cannot read, a spool it cannot write back to) has removed those all the same.
   */
  removedSoFar: (removed: number) => void = () => {},
): Promise<number> {
  let removed = 0
  const isUsers = (line: string) => {
    try {
      // The hook spools the user in NFC, as the service takes it, but a spool an older hook wrote
      // holds it as given ($DECISION_MEMORY_USER, --user): a name typed in another form is the same user.
      const parsed = JSON.parse(line) as Partial<SpooledEvent> | null
      const spooled = parsed?.user
      if (typeof spooled === 'string' && spooled.normalize('NFC') === user.normalize('NFC')) return true
      // A capture set aside with its user in doubt carries the defaults' user (`default`), but may
      // be the choices of the one its flags named (`--usr alice`): alice's forget removes it too.
      return namesUser(namedInDoubt(parsed) ?? [], user)
    } catch {
      return stubOf(line) === user.normalize('NFC')
    }
  }
  /**
   * Moves the lines of `taken` that are not the user's to `to`, then removes `taken`. The user's
   * are taken out of the claim itself first (putBack): killed after that, the forget leaves a claim
   * the next drain or forget takes over with only the others' events in it, not one that delivers
   * the user's again.
   */
  const keepOthers = async (taken: string, to: string) => {
    const lines = await linesOf(taken)
    const others = lines.filter((l) => !isUsers(l))
    // Counted once they are out of the claim (putBack rewrites it first): what fails after that
    // (writing the others back) leaves them out all the same.
    await putBack(taken, to, others, lines.length, () => {
      removed += lines.length - others.length
      removedSoFar(removed)
    })
  }
  for (const claimed of await claim(file)) await keepOthers(claimed, file)
  // The file of refused ones is claimed as the spool is, under a name of its own that no drain
  // takes: with what a forget killed midway left (which no drain would ever put back) first.
  const rejected = rejectedFile(file)
  const busy = new Set<number>()
  for (const taken of await claim(rejected, 'forgetting', (pid) => busy.add(pid))) await keepOthers(taken, rejected)
  // Told before the spool is taken again: a forget whose taking of it fails (a claim it cannot
  // read) says them all the same, after the failure (forget's forgetInSpoolAfterFailure).
  if (busy.size > 0) inProgress([...busy].sort((a, b) => a - b))
  // The spool again: a `hook --record-set-aside` that held the .rejected file as the spool was taken,
  // done before that file was, moved the user's captures into the new spool, where they would wait
  // for the next hook to deliver. One still at work on it now is the caller's to say (inProgress).
  for (const claimed of await claim(file)) await keepOthers(claimed, file)
  return removed
}

/** The lines of a claim, but for blank ones, with an event appended to a line cut short taken apart (spooledLines). */
async function linesOf(taken: string): Promise<string[]> {
  // A link that leads to no file holds no lines: putBack then unlinks it (drainSpool says why).
  const text = await readFile(taken, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (linkToNothing(taken, error) !== undefined) return ''
    throw error
  })
  return spooledLines(text).filter((l) => l.trim() !== '')
}

/**
 * Where the claim `claimed` leads, and why it could not be read, when it is a symbolic link that
 * leads to no file (`error`, its read's, ENOENT or ELOOP); undefined otherwise (a claim another
 * drain took over is gone, no link).
 */
function linkToNothing(claimed: string, error: NodeJS.ErrnoException): { target: string; code: string } | undefined {
  if (error.code !== 'ENOENT' && error.code !== 'ELOOP') return undefined
  if (lstatOrNone(claimed)?.isSymbolicLink() !== true) return undefined
  try {
    return { target: readlinkSync(claimed), code: error.code }
  } catch {
    return undefined
  }
}

/**
 * Puts `kept`, lines of the claim `taken` (`of` lines in all), back in `to`, then removes the claim.
 * With some of its lines not kept, the claim is first rewritten with the kept ones alone (a whole
 * file renamed over it): killed after that, the process leaves a claim that the next drain or
 * forget takes over with those lines only. `rewritten` is told once it is so.
 */
async function putBack(taken: string, to: string, kept: string[], of: number, rewritten: () => void = () => {}): Promise<void> {
  if (kept.length < of) {
    await rewriteClaim(taken, kept)
    rewritten()
  }
  if (kept.length > 0) await appendToLive(to, kept.join('\n') + '\n')
  await unlink(taken)
}

/** Makes the claim `taken` hold the lines `kept` alone, at once: a whole file renamed over it. */
async function rewriteClaim(taken: string, kept: string[]): Promise<void> {
  const without = `${taken}.${randomHex(4)}.tmp`
  try {
    await writeFile(without, kept.map((l) => l + '\n').join(''), { mode: 0o600 })
    await rename(without, taken)
  } catch (error) {
    // Cut short (a full disk), it would be left beside the spool for good: the claim stays whole.
    await unlink(without).catch(() => {})
    throw error
  }
}

/** What `hook --record-set-aside` did with the file of refused ones (recordSetAside). */
export interface SetAsideRecorded {
  /** Captures set aside for a user in doubt, moved into the spool as the user's. */
  moved: number
  /**
   * Captures set aside for a user in doubt that stay, their flags having named other users, never
   * this one: how many, by the names they gave (each a user name the service takes).
   */
  namingOthers: Array<{ names: string[]; count: number }>
  /** The other lines that stay: events the service refused, lines that are no event. */
  others: number
}

/**
 * Moves the captures set aside in the spool's .rejected file because the hook's flags left whose
 * choices these are in doubt (user_in_doubt) into the spool, as `user`'s (a name the service takes,
 * in NFC), for the next hook call to deliver, with their own time and project. A capture whose
 * flags named users the service would take, none of them `user` (`--usr bob`), stays: moved, bob's
 * choices would be recorded as another's for good. So do the lines the service refused, which it
 * would refuse again, and those that are no event.
 *
 * The .rejected file is claimed as a forget claims it (a hook setting a capture aside meanwhile
 * starts a fresh one; claims a forget or a move killed midway left are taken over first). The
 * captures are written to the spool before the claim is rewritten without them (putBack): killed
 * between the two, the next forget or move takes the claim over with them still in it, and one
 * moved again is delivered twice, which the service's idempotency counts once.
 */
export async function recordSetAside(file: string, user: string): Promise<SetAsideRecorded> {
  const done: SetAsideRecorded = { moved: 0, namingOthers: [], others: 0 }
  const others = new Map<string, { names: string[]; count: number }>()
  // A device takes the lines and keeps nothing (`--spool /dev/null`): moved there, they were lost.
  const found = await stat(file).catch(() => undefined)
  if (found !== undefined && !found.isFile()) throw new Error(`the spool ${file} is not a file: give DECISION_MEMORY_SPOOL or --spool the path of a file`)
  // Said before anything is taken, and in words of its own: appendToLive's say "this event is not kept".
  const owner = [lstatOrNone(file), found].find((one) => one !== undefined && othersOwn(one))
  if (owner !== undefined) {
    throw new Error(`the spool ${file} belongs to another account (uid ${owner.uid}), which could read what is spooled: give DECISION_MEMORY_SPOOL or --spool a file of your own`)
  }
  const rejected = rejectedFile(file)
  for (const taken of await claim(rejected, 'forgetting')) {
    const lines = await linesOf(taken)
    const moving: string[] = []
    const staying: string[] = []
    for (const line of lines) {
      const event = isEvent(line) ? (JSON.parse(line) as SpooledEvent) : undefined
      const named = namedInDoubt(event)
      if (event === undefined || named === undefined) {
        staying.push(line)
        done.others++
        continue
      }
      const users = usersNamed(named)
      if (users.length > 0 && !users.includes(user)) {
        staying.push(line)
        const key = JSON.stringify(users)
        const group = others.get(key) ?? { names: users, count: 0 }
        group.count++
        others.set(key, group)
        continue
      }
      const { at, payload, project } = event
      moving.push(JSON.stringify({ at, user, payload, ...(project === undefined ? {} : { project }) }))
    }
    if (moving.length > 0) {
      try {
        await appendToLive(file, moving.join('\n') + '\n')
      } catch (error) {
        // Not moved (a full disk, a spool of another account): every line goes back where it was.
        await putBack(taken, rejected, lines, lines.length)
        throw error
      }
    }
    await putBack(taken, rejected, staying, lines.length)
    done.moved += moving.length
  }
  done.namingOthers = [...others.values()]
  return done
}
