import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'

/**
 * A hook that opened the spool to append, then was held up (a loaded machine) while another hook's
 * drain claimed, read and removed it: the gate holds the first append to the spool after opening.
 */
const gate = vi.hoisted(() => ({ file: '', opened: () => {}, release: Promise.resolve() }))
/** Another process's drain that takes a claim over (as left over) as it is being stamped: renamed to `to`. */
const takeover = vi.hoisted(() => ({ to: '' }))
/**
 * Another process that runs whole at the `nth` listing of the spool's folder (claim's readdir), once:
 * a forget lists it to take the spool, then the .rejected file.
 */
const between = vi.hoisted(() => ({ nth: 0, run: undefined as (() => Promise<void>) | undefined }))
/** As `between`, but run once the folder is listed: what another process does between the listing and the claims. */
const listed = vi.hoisted(() => ({ nth: 0, run: undefined as (() => Promise<void>) | undefined }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const held = async () => {
    gate.file = ''
    gate.opened()
    await gate.release
  }
  return {
    ...real,
    readdir: (async (...args: Parameters<typeof real.readdir>) => {
      if (between.run !== undefined && --between.nth === 0) {
        const run = between.run
        between.run = undefined
        await run()
      }
      const names = await real.readdir(...args)
      if (listed.run !== undefined && --listed.nth === 0) {
        const run = listed.run
        listed.run = undefined
        await run()
      }
      return names
    }) as typeof real.readdir,
    utimes: async (...args: Parameters<typeof real.utimes>) => {
      if (takeover.to !== '' && String(args[0]).endsWith('.draining')) {
        const to = takeover.to
        takeover.to = ''
        await real.rename(args[0], to)
      }
      return real.utimes(...args)
    },
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args)
      if (args[0] === gate.file) await held()
      return handle
    },
    appendFile: async (...args: Parameters<typeof real.appendFile>) => {
      if (args[0] !== gate.file) return real.appendFile(...args)
      const handle = await real.open(args[0] as string, 'a', 0o600)
      await held()
      await handle.write(args[1] as string)
      await handle.close()
    },
  }
})

const { appendToRejected, appendToSpool, drainSpool, forgetInSpool, recordSetAside, rejectedFile } = await import('./spool')
const { appendFile, unlink, writeFile } = await import('node:fs/promises')

describe('the hook spool, appended to while a drain claims it (R-CAP-6)', () => {
  it('loses no event a hook was writing when another hook claimed the spool', async () => {
    const file = join(tempDir('dm-spool-race-'), 'spool.ndjson')
    await appendToSpool(file, { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: { id: 0 } })
    let release = () => {}
    gate.release = new Promise<void>((resolve) => (release = resolve))
    const opened = new Promise<void>((resolve) => (gate.opened = resolve))
    gate.file = file
    const writing = appendToSpool(file, { at: '2026-07-01T10:01:00.000Z', user: 'default', payload: { id: 1 } })
    await opened
    // The service is down: the drain claims the spool, reads event 0, puts it back, removes its claim.
    await drainSpool(file, async () => 'failed')
    release()
    await writing
    const ids = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { payload: { id: number } }).payload.id)
    expect([...new Set(ids)].sort()).toEqual([0, 1])
  })
})

describe('the file of refused events, set aside to while a forget takes it', () => {
  it('loses no refused event of another user a hook was writing when a forget took the file', async () => {
    const file = join(tempDir('dm-rejected-race-'), 'spool.ndjson')
    await appendToRejected(file, { at: '2026-07-01T10:00:00.000Z', user: 'dave', payload: { id: 0 } })
    let release = () => {}
    gate.release = new Promise<void>((resolve) => (release = resolve))
    const opened = new Promise<void>((resolve) => (gate.opened = resolve))
    gate.file = rejectedFile(file)
    const writing = appendToRejected(file, { at: '2026-07-01T10:01:00.000Z', user: 'erin', payload: { id: 1 } })
    await opened
    // dave is forgotten: the forget takes the file aside, keeps nobody else's (none yet), removes it.
    expect(await forgetInSpool(file, 'dave')).toBe(1)
    release()
    await writing
    const ids = (await readFile(rejectedFile(file), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { payload: { id: number } }).payload.id)
    expect(ids).toEqual([1])
  })
})

describe('the file of refused events, its captures moved into the spool while a forget takes the spool', () => {
  it('takes out the user\'s captures a hook --record-set-aside moved into the spool after the forget had taken it', async () => {
    const file = join(tempDir('dm-rejected-moved-'), 'spool.ndjson')
    await appendToRejected(file, { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: { id: 0 }, user_in_doubt: [] })
    await appendToSpool(file, { at: '2026-07-01T10:01:00.000Z', user: 'erin', payload: { id: 1 } })
    // dave is forgotten; once the forget has taken the spool, and before it lists the folder for the
    // .rejected file, `hook --record-set-aside --user dave` runs whole: it moves the capture into a new
    // spool as dave's. A version before this left it there, for the next hook to deliver.
    between.nth = 2
    between.run = async () => {
      expect(await recordSetAside(file, 'dave')).toMatchObject({ moved: 1 })
    }
    expect(await forgetInSpool(file, 'dave')).toBe(1)
    expect(between.run).toBeUndefined()
    const users = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { user: string }).user)
    expect(users).toEqual(['erin'])
  })
})

describe('the file of refused events, held by another process that is done before the forget takes it', () => {
  it('says no process held it: the lines it put back are taken with the file', async () => {
    const dir = tempDir('dm-rejected-done-')
    const file = join(dir, 'spool.ndjson')
    await appendToRejected(file, { at: '2026-07-01T10:00:00.000Z', user: 'erin', payload: { id: 0 } })
    // A live process's claim (this one's parent's stands for a `hook --record-set-aside` or another
    // forget) is listed; before the forget looks at it, that process is done: it puts its lines back
    // in the .rejected file and removes the claim. A version before this said it held them.
    const aside = JSON.stringify({ at: '2026-07-01T10:01:00.000Z', user: 'default', payload: { id: 1 }, user_in_doubt: ['dave'] }) + '\n'
    const held = join(dir, `spool.ndjson.rejected.${process.ppid}.0a1b2c3d.forgetting`)
    await writeFile(held, aside)
    listed.nth = 2
    listed.run = async () => {
      await appendFile(rejectedFile(file), aside)
      await unlink(held)
    }
    const told: number[][] = []
    expect(await forgetInSpool(file, 'dave', (pids) => told.push(pids))).toBe(1)
    expect(listed.run).toBeUndefined()
    expect(told).toEqual([])
    expect((await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).payload.id)).toEqual([0])
  })
})

describe('the file of refused events, held by another process, and the spool taken again failing', () => {
  it('tells the pids that held it all the same, for the forget to say them beside the failure', async () => {
    const dir = tempDir('dm-rejected-held-fail-')
    const file = join(dir, 'spool.ndjson')
    await appendToRejected(file, { at: '2026-07-01T10:00:00.000Z', user: 'erin', payload: { id: 0 } })
    await writeFile(join(dir, `spool.ndjson.rejected.${process.ppid}.0a1b2c3d.forgetting`), '')
    // The third listing, of the spool taken again, fails. A version before this told the pids only
    // once that was done: a forget whose store part failed too said nothing of them.
    between.nth = 3
    between.run = async () => {
      throw Object.assign(new Error('EACCES: permission denied, scandir'), { code: 'EACCES' })
    }
    const told: number[][] = []
    await expect(forgetInSpool(file, 'dave', (pids) => told.push(pids))).rejects.toThrow('EACCES')
    expect(told).toEqual([[process.ppid]])
  })
})

describe('the hook spool, with a line written twice', () => {
  it('keeps one copy of a line written again after a claim, however often drains put it back', async () => {
    const file = join(tempDir('dm-spool-twice-'), 'spool.ndjson')
    const line = { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: { id: 7 } }
    for (let i = 0; i < 3; i++) await appendToSpool(file, line)
    await drainSpool(file, async () => 'failed')
    expect((await readFile(file, 'utf8')).split('\n').filter((l) => l !== '')).toHaveLength(1)
  })
})

describe('the hook spool, its claim taken over by another drain as it was made', () => {
  it('leaves the events to that drain, and ends without an error (the hook would drop the event at hand)', async () => {
    const dir = tempDir('dm-spool-takeover-')
    const file = join(dir, 'spool.ndjson')
    await appendToSpool(file, { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: { id: 3 } })
    // Between this drain's rename and its stamp, another drain (its spool last written long ago,
    // so the claim looks left over) renames the claim to its own.
    const other = join(dir, 'spool.ndjson.1.0a1b2c3d.draining')
    takeover.to = other
    const delivered: unknown[] = []
    expect(await drainSpool(file, async (e) => (delivered.push(e.payload), 'delivered'))).toEqual({ delivered: 0, rejected: 0, left: 0, stopped: null })
    expect(delivered).toEqual([])
    expect(JSON.parse(await readFile(other, 'utf8')).payload).toEqual({ id: 3 })
  })
})
