import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
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
 */
export async function takeLocalTurn(
  dir: string,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
  limitMs: number = TURN_WAIT_MS,
  running: (pid: number) => boolean = isRunning,
  random: () => number = Math.random,
): Promise<() => Promise<void>> {
  const file = join(dir, LOCAL_TURN_FILE)
  const mine = `${process.pid} ${randomHex(8)}\n`
  const none = async () => {}
  const giveBack = async () => {
    // Only its own: a turn taken over after this one lasted too long is another's now.
    if ((await readFile(file, 'utf8').catch(() => undefined)) === mine) await unlink(file).catch(() => {})
  }
  let waited = 0
  let made = false
  for (let step = 10; ; step = Math.min(2 * step, 100)) {
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
      (turn.pid === undefined ? turn.age > TAKING_MS : turn.pid === process.pid || !running(turn.pid))
    if (leftOver) {
      await takeOver(file, turn.ino)
      continue
    }
    if (waited >= limitMs) return none
    // Up to as much again at random, so that two waiting processes do not try in step.
    const ms = Math.min(step + Math.floor(random() * step), limitMs - waited)
    await wait(ms)
    waited += ms
  }
}

/** Moves the left-over turn `ino` at `file` aside; one taken meanwhile by another is put back. */
async function takeOver(file: string, ino: number): Promise<void> {
  const aside = `${file}.${process.pid}.${randomHex(4)}`
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
