import { open, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The file a command (or the MCP server, for one call) holds in the store's folder while it has
 * the store open itself. LevelDB leaves a file whose name is not one of its own alone.
 */
export const LOCAL_TURN_FILE = 'LOCAL_TURN'

/** How long, in all, a command waits for another command's turn before it tries the store anyway. */
export const TURN_WAIT_MS = 3_000

/** Whether the process `pid` runs (one of another user's counts: it may not be signalled, but runs). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Waits for this process's turn at the store in `dir`, among the processes that open it themselves,
 * and takes it; resolves to what gives it back. A command opens the store for its work and closes
 * it after, so two of them (two MCP servers of two agent windows with no service running) hold it
 * by turns, and one that found it held failed, a choice it was to record lost. They could not
 * simply try LevelDB again: each open that finds the store locked first renames its `LOG` to
 * `LOG.old`, and a second one deletes the log of the process holding it (a service at another
 * URL). So they take turns on this file instead, made with O_EXCL: LevelDB is opened once, when
 * the other's turn is over. A service does not take a turn (it holds the store for good): a store
 * it holds is tried once and refused as before, at once.
 *
 * A turn whose process no longer runs (killed during its call) is taken over. After `limitMs` of
 * waits the store is tried all the same, without a turn: LevelDB's own lock still keeps the store
 * to one process. A folder where the file cannot be made (none yet, read-only) has no turns.
 */
export async function takeLocalTurn(
  dir: string,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
  limitMs: number = TURN_WAIT_MS,
  running: (pid: number) => boolean = isRunning,
  random: () => number = Math.random,
): Promise<() => Promise<void>> {
  const file = join(dir, LOCAL_TURN_FILE)
  const none = async () => {}
  let waited = 0
  for (let step = 10; ; step = Math.min(2 * step, 100)) {
    try {
      const handle = await open(file, 'wx', 0o600)
      try {
        await handle.write(`${process.pid}\n`)
      } finally {
        await handle.close()
      }
      return () => unlink(file).catch(() => {})
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return none
    }
    // A turn just taken has no pid written yet: its process runs.
    const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10)
    if (Number.isInteger(pid) && pid > 0 && !running(pid)) {
      await unlink(file).catch(() => {})
      continue
    }
    if (waited >= limitMs) return none
    // Up to as much again at random, so that two waiting processes do not try in step.
    const ms = Math.min(step + Math.floor(random() * step), limitMs - waited)
    await wait(ms)
    waited += ms
  }
}
