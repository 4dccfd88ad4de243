import { existsSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCAL_TURN_FILE, takeLocalTurn } from './local-turn'

const folder = () => mkdtemp(join(tmpdir(), 'dm-turn-'))
const noWait = async () => {
  throw new Error('waited for a free turn')
}

describe('takeLocalTurn: processes that open the store themselves take turns', () => {
  it('takes a free turn at once, naming this process, and gives it back', async () => {
    const dir = await folder()
    const giveBack = await takeLocalTurn(dir, noWait)
    expect(await readFile(join(dir, LOCAL_TURN_FILE), 'utf8')).toBe(`${process.pid}\n`)
    await giveBack()
    expect(existsSync(join(dir, LOCAL_TURN_FILE))).toBe(false)
  })

  it('waits while another running process has the turn, and takes it when given back', async () => {
    const dir = await folder()
    const other = await takeLocalTurn(dir, noWait)
    const waits: number[] = []
    // The other process's call ends during the third wait.
    const mine = await takeLocalTurn(
      dir,
      async (ms) => {
        waits.push(ms)
        if (waits.length === 3) await other()
      },
      3_000,
      () => true,
      () => 0,
    )
    expect(waits).toEqual([10, 20, 40])
    expect(await readFile(join(dir, LOCAL_TURN_FILE), 'utf8')).toBe(`${process.pid}\n`)
    await mine()
  })

  it('takes over the turn of a process that no longer runs (killed during its call)', async () => {
    const dir = await folder()
    await writeFile(join(dir, LOCAL_TURN_FILE), '999999\n')
    const giveBack = await takeLocalTurn(dir, noWait, 3_000, (pid) => pid !== 999999)
    expect(await readFile(join(dir, LOCAL_TURN_FILE), 'utf8')).toBe(`${process.pid}\n`)
    await giveBack()
  })

  it('tries the store without a turn once its waits add up to the limit, leaving the other\'s turn alone', async () => {
    const dir = await folder()
    await writeFile(join(dir, LOCAL_TURN_FILE), '4242\n')
    const waits: number[] = []
    const giveBack = await takeLocalTurn(dir, async (ms) => void waits.push(ms), 500, () => true, () => 0.5)
    // 10 ms doubling to 100, each half as much again at this draw; the last one what is left of 500.
    expect(waits).toEqual([15, 30, 60, 120, 150, 125])
    await giveBack()
    expect(await readFile(join(dir, LOCAL_TURN_FILE), 'utf8')).toBe('4242\n')
  })

  it('has no turns in a folder where the file cannot be made', async () => {
    const giveBack = await takeLocalTurn(join(await folder(), 'not-yet'), noWait)
    await giveBack()
  })
})
