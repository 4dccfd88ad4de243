import { existsSync } from 'node:fs'
import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCAL_TURN_FILE, takeLocalTurn, TURN_STALE_MS, WAITER_STALE_MS } from './local-turn'
import { tempDir } from '../../test/support/temp-dir'

const folder = () => tempDir('dm-turn-')
const noWait = async () => {
  throw new Error('waited for a free turn')
}
/** Another process's turn, as it wrote it: its pid. */
const OTHER = '4242 0a1b2c3d\n'
const turnOf = (dir: string) => readFile(join(dir, LOCAL_TURN_FILE), 'utf8')
const ours = (text: string) => text.startsWith(`${process.pid} `)
/** The waiters' files in `dir`: those of processes waiting for a turn. */
const waitersIn = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith(`${LOCAL_TURN_FILE}.wait.`))
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => (resolve = done))
  return { promise, resolve }
}

describe('takeLocalTurn: processes that open the store themselves take turns', () => {
  it('takes a free turn at once, naming this process, and gives it back', async () => {
    const dir = await folder()
    const giveBack = await takeLocalTurn(dir, noWait)
    expect(ours(await turnOf(dir))).toBe(true)
    await giveBack()
    expect(existsSync(join(dir, LOCAL_TURN_FILE))).toBe(false)
  })

  it('waits while another running process has the turn, and takes it when given back', async () => {
    const dir = await folder()
    await writeFile(join(dir, LOCAL_TURN_FILE), OTHER)
    const waits: number[] = []
    // The other process's call ends during the third wait.
    const mine = await takeLocalTurn(
      dir,
      async (ms) => {
        waits.push(ms)
        if (waits.length === 3) await rm(join(dir, LOCAL_TURN_FILE))
      },
      3_000,
      () => true,
      () => 0,
    )
    expect(waits).toEqual([10, 20, 20])
    expect(ours(await turnOf(dir))).toBe(true)
    await mine()
  })

  it('takes a turn given back within 40 ms, however long it has waited: those after it wait for it meanwhile', async () => {
    // A waiter lets one before it go first, so a turn is unused from when it is given back until
    // the first waiter tries again; at up to 200 ms a try, three processes taking turns took twice as long.
    const dir = await folder()
    await writeFile(join(dir, LOCAL_TURN_FILE), OTHER)
    let now = 0
    const GIVEN_BACK = 1_000
    const giveBack = await takeLocalTurn(
      dir,
      async (ms) => {
        const before = now
        now += ms
        if (before < GIVEN_BACK && now >= GIVEN_BACK) await rm(join(dir, LOCAL_TURN_FILE))
      },
      3_000,
      () => true,
      () => 0.99,
    )
    expect(ours(await turnOf(dir))).toBe(true)
    expect(now - GIVEN_BACK).toBeLessThan(40)
    await giveBack()
  })

  it('takes over a left-over turn: of a process that no longer runs, of this very process, or too old', async () => {
    const dir = await folder()
    const file = join(dir, LOCAL_TURN_FILE)
    const old = new Date(Date.now() - TURN_STALE_MS - 1_000)
    for (const [text, running, age] of [
      ['999999 00000000\n', (pid: number) => pid !== 999999, undefined],
      [`${process.pid} 00000000\n`, () => true, undefined],
      [OTHER, () => true, old],
      ['', () => true, new Date(Date.now() - 5_000)],
    ] as const) {
      await writeFile(file, text)
      if (age !== undefined) await utimes(file, age, age)
      const giveBack = await takeLocalTurn(dir, noWait, 3_000, running)
      expect(ours(await turnOf(dir)), JSON.stringify(text)).toBe(true)
      await giveBack()
    }
  })

  it('gives back only its own turn, not one another process took over meanwhile', async () => {
    const dir = await folder()
    const giveBack = await takeLocalTurn(dir, noWait)
    await writeFile(join(dir, LOCAL_TURN_FILE), OTHER)
    await giveBack()
    expect(await turnOf(dir)).toBe(OTHER)
  })

  it('tries the store without a turn once its waits add up to the limit, leaving the other\'s turn alone', async () => {
    const dir = await folder()
    await writeFile(join(dir, LOCAL_TURN_FILE), OTHER)
    const waits: number[] = []
    const giveBack = await takeLocalTurn(dir, async (ms) => void waits.push(ms), 100, () => true, () => 0.5)
    // 10 ms doubling to 20, each half as much again at this draw; the last one what is left of 100.
    expect(waits).toEqual([15, 30, 30, 25])
    await giveBack()
    expect(await turnOf(dir)).toBe(OTHER)
  })

  it('makes the folder of a store not made yet, so that two first calls take turns too', async () => {
    const dir = join(await folder(), 'data')
    const giveBack = await takeLocalTurn(dir, noWait)
    expect(ours(await turnOf(dir))).toBe(true)
    await giveBack()
  })

  it.skipIf(process.platform === 'win32')("makes that folder its owner's only, as openStores makes it", async () => {
    const dir = join(await folder(), 'data')
    const giveBack = await takeLocalTurn(dir, noWait)
    await giveBack()
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
  })

  it('has no turns where the folder cannot be made', async () => {
    const file = join(await folder(), 'a-file')
    await writeFile(file, 'x')
    const giveBack = await takeLocalTurn(join(file, 'data'), noWait)
    await giveBack()
  })

  it("lets a waiting process take the turn before the holder's next call, however soon that comes", async () => {
    // Two MCP servers on one store: the holder's calls are queued, each taking the turn when the
    // last gives it back, while the other sleeps between its tries.
    const dir = await folder()
    const take = (pid: number, wait: (ms: number) => Promise<void>) => takeLocalTurn(dir, wait, 3_000, () => true, () => 0, pid)
    const HOLDER = 1001
    const WAITER = 1002
    const first = await take(HOLDER, noWait)
    let next: Promise<() => Promise<void>> | undefined
    const holderWaits = deferred<void>()
    const waiterTook = deferred<() => Promise<void>>()
    let holderWaited = 0
    const waiterTurn = take(WAITER, async () => {
      if (next !== undefined) return
      // The holder's call ends while the waiter sleeps, and its next call begins at once.
      await first()
      next = take(HOLDER, async () => {
        holderWaited += 1
        holderWaits.resolve()
        // The waiter's call is made during this wait.
        await (await waiterTook.promise)()
      })
      await Promise.race([holderWaits.promise, next])
    })
    const waiters = await waiterTurn
    expect(await turnOf(dir)).toMatch(/^1002 /)
    // The holder's call says it waits; the waiter's file went when it took its turn.
    expect(await waitersIn(dir)).toEqual([expect.stringMatching(/^LOCAL_TURN\.wait\.1001\.[0-9a-f]{16}$/)])
    waiterTook.resolve(waiters)
    const again = await next!
    expect(await turnOf(dir)).toMatch(/^1001 /)
    expect(holderWaited).toBe(1)
    await again()
    expect(await readdir(dir)).toEqual([])
  })

  it("waits for a running waiter's file, until it is gone or the waits add up to the limit, and leaves none of its own", async () => {
    const dir = await folder()
    const other = join(dir, `${LOCAL_TURN_FILE}.wait.4242.0a1b2c3d4e5f6a7b`)
    await writeFile(other, '')
    const waits: number[] = []
    const giveBack = await takeLocalTurn(
      dir,
      async (ms) => {
        waits.push(ms)
        // It took its turn during the second wait (and gave it back).
        if (waits.length === 2) await rm(other)
      },
      3_000,
      () => true,
      () => 0,
    )
    expect(waits).toEqual([10, 20])
    expect(ours(await turnOf(dir))).toBe(true)
    await giveBack()
    expect(await readdir(dir)).toEqual([])
    // One that never goes (its process stuck): waited for no longer than a turn held.
    await writeFile(other, '')
    waits.splice(0)
    const anyway = await takeLocalTurn(dir, async (ms) => void waits.push(ms), 100, () => true, () => 0.5)
    expect(waits).toEqual([15, 30, 30, 25])
    expect(ours(await turnOf(dir))).toBe(true)
    await anyway()
    expect(await readdir(dir)).toEqual(['LOCAL_TURN.wait.4242.0a1b2c3d4e5f6a7b'])
  })

  it('removes a left-over waiter file: of a process that no longer runs, of this very process, or too old', async () => {
    const dir = await folder()
    const old = new Date(Date.now() - WAITER_STALE_MS - 1_000)
    await writeFile(join(dir, `${LOCAL_TURN_FILE}.wait.999999.00`), '')
    await writeFile(join(dir, `${LOCAL_TURN_FILE}.wait.${process.pid}.01`), '')
    await writeFile(join(dir, `${LOCAL_TURN_FILE}.wait.4242.02`), '')
    await utimes(join(dir, `${LOCAL_TURN_FILE}.wait.4242.02`), old, old)
    const giveBack = await takeLocalTurn(dir, noWait, 3_000, (pid) => pid !== 999999)
    expect(ours(await turnOf(dir))).toBe(true)
    await giveBack()
    expect(await readdir(dir)).toEqual([])
  })

  it('leaves no waiter file of its own once it gives up waiting', async () => {
    const dir = await folder()
    await writeFile(join(dir, LOCAL_TURN_FILE), OTHER)
    const giveBack = await takeLocalTurn(dir, async () => {}, 500, () => true, () => 0)
    await giveBack()
    expect(await readdir(dir)).toEqual([LOCAL_TURN_FILE])
  })
})
