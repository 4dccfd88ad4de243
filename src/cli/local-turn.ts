import { link, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { randomHex } from '../random-hex'
import { makeStoreFolder } from '../open-store'

/**
 * The file a command (or the MCP server, for one call) holds in the store's folder while it has
 * the store open itself. LevelDB leaves a file whose name is not one of its own alone.
 */
export const LOCAL_TURN_FILE = 'LOCAL_TURN'

/** How long, in all, a command waits for another command's turn before it tries the store anyway. */
export const TURN_WAIT_MS = 3_000

/**
 * A turn older than this is left over, whatever pid it names: a turn lasts one call, and a pid
 * may have been reused since (a container restarted, a process killed during its call).
 */
export const TURN_STALE_MS = 30_000

/** A turn with no pid written yet is being taken; older than this, its process died taking it. */
const TAKING_MS = 2_000

/**
 * The longest step between a waiter's tries (each up to as much again at random). Short: a process
 * lets a waiter before it go first, so a turn given back stays unused until that waiter tries
 * again. At 100 ms, three processes taking 150 turns each of 20 ms work took 39 s; at 20, 19 s.
 */
const LONGEST_STEP_MS = 20

/**
 * A process waiting for a turn says so with a file of this name, its pid and a nonce after it
 * (`LOCAL_TURN.wait.4242.0a1b2c3d4e5f6a7b`), so that one about to take a turn lets it go first.
 */
const WAITER = /^LOCAL_TURN\.wait\.(\d+)\.[0-9a-f]+$/

/**
 * A waiter's file older than this is left over, whatever pid it names: a waiter gives up after
 * TURN_WAIT_MS of waits, and its pid may have been reused since it was killed waiting.
 */
export const WAITER_STALE_MS = 10_000

/** Whether the process `pid` runs (one of another user's counts: it may not be signalled, but runs). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** What the turn at `file` is, as read now; undefined when there is none. */
async function turnAt(file: string): Promise<{ ino: number; age: number; pid: number | undefined } | undefined> {
  try {
    const [info, text] = await Promise.all([stat(file), readFile(file, 'utf8')])
    const pid = Number.parseInt(text, 10)
    return { ino: info.ino, age: Date.now() - info.mtimeMs, pid: Number.isInteger(pid) && pid > 0 ? pid : undefined }
  } catch {
    return undefined
  }
}

/**
 * Waits for this process's turn at the store in `dir`, among the processes that open it themselves,
 * and takes it; resolves to what gives it back. A command opens the store for its work and closes
 * it after, so two of them (two MCP servers of two agent windows with no service running) hold it
 * by turns, and one that found it held failed, a choice it was to record lost. They could not
 * simply try LevelDB again: each open that finds the store locked first renames its `LOG` to
 * `LOG.old`, and a second one deletes the log of the process holding it. So they take turns on
 * this file instead, made with O_EXCL, and LevelDB is opened once, when the other's turn is over.
 * A service does not take a turn (it holds the store for good): a store it holds is tried once.
 *
 * A turn left over (its process no longer runs, it names this very process, which waits for no
 * turn of its own, or it is older than TURN_STALE_MS) is taken over: moved aside under a name of
 * this process's, so that of two processes taking it over one does, and put back if what was moved
 * was a turn taken meanwhile. After `limitMs` of waits the store is tried all the same, without a
 * turn: LevelDB's own lock still keeps the store to one process. A folder that cannot be made has
 * no turns (the open then says why).
 *
 * One that waits is not passed by one that asked after it: a process that waits says so (a `LOCAL_TURN.wait.…`
 * file, made when it first waits and removed when it takes its turn or gives up), and one that
 * finds such a file of another running process made before it began lets that one take the turn
 * first, waiting (within the same `limitMs`) until the file is gone. Else the holder's next call,
 * queued in its process, took the turn back the moment it gave it up, while the other slept
 * between tries, and that one could wait out its 3 s however short each call was. A file made
 * after this one began is one behind it, so no two wait for each other; one left over (its process
 * no longer runs, it names this very process, or it is older than WAITER_STALE_MS) is removed.
 * `pid` is this process's, for tests.
 */
export async function takeLocalTurn(
  dir: string,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
  limitMs: number = TURN_WAIT_MS,
  running: (pid: number) => boolean = isRunning,
  random: () => number = Math.random,
  pid: number = process.pid,
): Promise<() => Promise<void>> {
  const file = join(dir, LOCAL_TURN_FILE)
  const mine = `${pid} ${randomHex(8)}\n`
  const none = async () => {}
  const giveBack = async () => {
    // Only its own: a turn taken over after this one lasted too long is another's now.
    if ((await readFile(file, 'utf8').catch(() => undefined)) === mine) await unlink(file).catch(() => {})
  }
  // The waiters that came before this call, taking their turns before it.
  let ahead = await waitersIn(dir)
  let waiting: string | undefined
  let waited = 0
  let made = false
  try {
    for (let step = 10; ; step = Math.min(2 * step, LONGEST_STEP_MS)) {
      if (waited < limitMs) ahead = await stillWaiting(ahead, pid, running)
      if (ahead.length === 0 || waited >= limitMs) {
        let opened = false
        try {
          const handle = await open(file, 'wx', 0o600)
          opened = true
          try {
            await handle.write(mine)
          } finally {
            await handle.close()
          }
          return giveBack
        } catch (error) {
          if (opened) {
            // Made but not written (a full disk): not left behind for others to wait on.
            await unlink(file).catch(() => {})
            return none
          }
          const code = (error as NodeJS.ErrnoException).code
          // A store made by this call (the MCP server's first): its folder first, so that two first
          // calls take turns too.
          if (code === 'ENOENT' && !made) {
            made = true
            if (await makeStoreFolder(dir).then(() => true, () => false)) continue
          }
          if (code !== 'EEXIST') return none
        }
        const turn = await turnAt(file)
        if (turn === undefined) continue
        const leftOver =
          turn.age > TURN_STALE_MS ||
          (turn.pid === undefined ? turn.age > TAKING_MS : turn.pid === pid || !running(turn.pid))
        if (leftOver) {
          await takeOver(file, turn.ino, pid)
          continue
        }
        if (waited >= limitMs) return none
      }
      // Waiting, for the turn held or for a waiter before this one to take it: said, once.
      waiting ??= await announce(dir, pid)
      // Up to as much again at random, so that two waiting processes do not try in step.
      const ms = Math.min(step + Math.floor(random() * step), limitMs - waited)
      await wait(ms)
      waited += ms
    }
  } finally {
    if (waiting !== undefined && waiting !== '') await unlink(waiting).catch(() => {})
  }
}

/** The waiters' files in `dir` now (none where it cannot be read, or is not made yet). */
async function waitersIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  return names.filter((name) => WAITER.test(name)).map((name) => join(dir, name))
}

/** Those of the waiters' `files` still waiting; those left over are removed. */
async function stillWaiting(files: string[], pid: number, running: (pid: number) => boolean): Promise<string[]> {
  const waits = await Promise.all(
    files.map(async (at) => {
      const info = await stat(at).catch(() => undefined)
      if (info === undefined) return false // Its waiter took its turn, or gave up.
      const waiter = Number(WAITER.exec(basename(at))?.[1])
      if (Date.now() - info.mtimeMs <= WAITER_STALE_MS && waiter !== pid && running(waiter)) return true
      await unlink(at).catch(() => {})
      return false
    }),
  )
  return files.filter((_, i) => waits[i])
}

/**
 * Makes this call's waiter file in `dir`, and says where; '' when it cannot be made (a full disk:
 * the call then waits unseen, as before there were such files). Empty: its name says it all.
 */
async function announce(dir: string, pid: number): Promise<string> {
  const at = join(dir, `${LOCAL_TURN_FILE}.wait.${pid}.${randomHex(8)}`)
  try {
    await (await open(at, 'wx', 0o600)).close()
    return at
  } catch {
    return ''
  }
}

/** Moves the left-over turn `ino` at `file` aside; one taken meanwhile by another is put back. */
async function takeOver(file: string, ino: number, pid: number): Promise<void> {
  const aside = `${file}.${pid}.${randomHex(4)}`
  try {
    await rename(file, aside)
  } catch {
    return // Taken over by another already.
  }
  const moved = await stat(aside).catch(() => undefined)
  if (moved !== undefined && moved.ino !== ino) {
    // A turn taken between the read and the move: back where it was, unless a third took one since.
    await link(aside, file).catch(() => {})
  }
  await unlink(aside).catch(() => {})
}
