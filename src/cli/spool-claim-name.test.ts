import { spawnSync } from 'node:child_process'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'

/** The random hex a claim's name is drawn with, as the test scripts it: a draw alike twice, as 32 random bits once in 4 billion are. */
const drawn = vi.hoisted(() => ({ next: [] as string[] }))
vi.mock('../random-hex', () => ({ randomHex: () => drawn.next.shift() ?? 'ffffffff' }))

const { appendToSpool, drainSpool, holdWhileDelivering } = await import('./spool')

const event = (id: number) => ({ at: new Date(Date.UTC(2026, 6, 1, 10, id)).toISOString(), user: 'default', payload: { id } })
const ids = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { payload: { id: number } }).payload.id)
    .sort((a, b) => a - b)

describe('the names of the spool\'s claims, drawn alike by chance', () => {
  beforeEach(() => {
    drawn.next = []
  })

  it('a drain taking over two claims left over names the second anew, rather than rename it over the first and lose its events', async () => {
    const dir = tempDir('dm-spool-claim-name-')
    const file = join(dir, 'spool.ndjson')
    await appendToSpool(file, event(0))
    // Claims of two processes that no longer run.
    const dead = [0, 1].map(() => spawnSync(process.execPath, ['-e', '0']).pid as number)
    await writeFile(join(dir, `spool.ndjson.${dead[0]}.0a1b2c3d.draining`), JSON.stringify(event(7)) + '\n')
    await writeFile(join(dir, `spool.ndjson.${dead[1]}.0a1b2c3d.draining`), JSON.stringify(event(8)) + '\n')
    drawn.next = ['aaaaaaaa', 'aaaaaaaa', 'bbbbbbbb', 'cccccccc']
    // The service is down: every event claimed is put back.
    await drainSpool(file, async () => 'failed')
    expect(ids(await readFile(file, 'utf8'))).toEqual([0, 7, 8])
    expect((await readdir(dir)).filter((n) => n.endsWith('.draining'))).toEqual([])
  })

  it('a hook holding its event while it delivers it leaves a claim of this process already there as it was', async () => {
    const dir = tempDir('dm-spool-claim-name-')
    const file = join(dir, 'spool.ndjson')
    const there = join(dir, `spool.ndjson.${process.pid}.aaaaaaaa.draining`)
    await writeFile(there, JSON.stringify(event(8)) + '\n')
    drawn.next = ['aaaaaaaa', 'bbbbbbbb']
    const holding = await holdWhileDelivering(file, event(1))
    expect(holding).toBeDefined()
    expect(ids(await readFile(there, 'utf8'))).toEqual([8])
    expect(ids(await readFile(join(dir, `spool.ndjson.${process.pid}.bbbbbbbb.draining`), 'utf8'))).toEqual([1])
    await holding?.release()
    expect(ids(await readFile(there, 'utf8'))).toEqual([8])
  })
})
