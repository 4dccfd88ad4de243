import { spawnSync } from 'node:child_process'
import { closeSync, constants, existsSync, lstatSync, openSync, readlinkSync } from 'node:fs'
import { chmod, chown, lchown, mkdir, readdir, readFile, rename, rmdir, symlink, unlink, utimes, writeFile } from 'node:fs/promises'
import { homedir, userInfo } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { appendToRejected, appendToSpool, CLAIM_STALE_MS, drainSpool, forgetInSpool, holdWhileDelivering, recordSetAside, rejectedFile, spoolFile, type Delivery, type SpooledEvent } from './spool'
import { tempDir } from '../../test/support/temp-dir'

async function freshSpool() {
  const dir = tempDir('dm-spool-')
  return join(dir, 'nested', 'spool.ndjson')
}

function event(id: number): SpooledEvent {
  return { at: new Date(Date.UTC(2026, 6, 1, 10, id)).toISOString(), user: 'default', payload: { id } }
}

/** A stand-in for the service: up or down, idempotent by payload id like decision_id. */
function fakeService() {
  const received: number[] = []
  const stored = new Set<number>()
  let up = false
  return {
    received,
    stored,
    set up(value: boolean) {
      up = value
    },
    async deliver(e: SpooledEvent): Promise<Delivery> {
      if (!up) return 'failed'
      const id = (e.payload as { id: number }).id
      received.push(id)
      stored.add(id)
      return 'delivered'
    },
  }
}

async function spooledIds(file: string): Promise<number[]> {
  try {
    const text = await readFile(file, 'utf8')
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as SpooledEvent).payload as { id: number })
      .map((p) => p.id)
  } catch {
    return []
  }
}

describe('the hook spool (R-CAP-6)', () => {
  it('is $DECISION_MEMORY_SPOOL, else ~/.decision-memory/spool.ndjson', () => {
    expect(spoolFile({ DECISION_MEMORY_SPOOL: '/x/s.ndjson' })).toBe('/x/s.ndjson')
    expect(spoolFile({})).toMatch(/\.decision-memory\/spool\.ndjson$/)
    // Set in quotes or in Claude Code's settings env, ~ is not expanded by a shell: here it is.
    expect(spoolFile({ DECISION_MEMORY_SPOOL: '~/dm/s.ndjson' })).toBe(join(homedir(), 'dm', 's.ndjson'))
    expect(spoolFile({ DECISION_MEMORY_SPOOL: 'a~/s.ndjson' })).toBe('a~/s.ndjson')
  })

  it('is in the account\'s home folder when HOME is empty or relative, not in the folder the hook runs in', () => {
    try {
      for (const home of ['', 'relative']) {
        vi.stubEnv('HOME', home)
        expect(isAbsolute(spoolFile({}))).toBe(true)
        expect(spoolFile({})).toBe(join(userInfo().homedir, '.decision-memory', 'spool.ndjson'))
        expect(spoolFile({ DECISION_MEMORY_SPOOL: '~/s.ndjson' })).toBe(join(userInfo().homedir, 's.ndjson'))
      }
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('loses nothing and stores each event once across several outages', async () => {
    const file = await freshSpool()
    const service = fakeService()
    let next = 0
    // Each round: the service is down for a while (events spooled), then up for one call.
    for (const outage of [3, 1, 4, 2]) {
      service.up = false
      for (let i = 0; i < outage; i++) {
        const drained = await drainSpool(file, (e) => service.deliver(e))
        expect(drained.stopped === 'failure' || drained.left === 0).toBe(true)
        await appendToSpool(file, event(next++))
      }
      service.up = true
      const drained = await drainSpool(file, (e) => service.deliver(e))
      expect(drained).toMatchObject({ left: 0, stopped: null })
      expect(await spooledIds(file)).toEqual([])
    }
    expect([...service.stored].sort((a, b) => a - b)).toEqual(Array.from({ length: next }, (_, i) => i))
    expect(service.received).toEqual(Array.from({ length: next }, (_, i) => i))
  })

  it('stops at the first failure and keeps the rest for later', async () => {
    const file = await freshSpool()
    for (let i = 0; i < 4; i++) await appendToSpool(file, event(i))
    let calls = 0
    const drained = await drainSpool(file, async () => (++calls === 2 ? 'failed' : 'delivered'))
    expect(drained).toEqual({ delivered: 1, rejected: 0, left: 3, stopped: 'failure' })
    expect(await spooledIds(file)).toEqual([1, 2, 3])
  })

  it('stops when time runs out, and the next drain goes on', async () => {
    const file = await freshSpool()
    for (let i = 0; i < 5; i++) await appendToSpool(file, event(i))
    let budget = 2
    const service = fakeService()
    service.up = true
    const first = await drainSpool(file, (e) => service.deliver(e), () => budget-- > 0)
    expect(first).toMatchObject({ delivered: 2, left: 3, stopped: 'time' })
    await drainSpool(file, (e) => service.deliver(e))
    expect(service.received).toEqual([0, 1, 2, 3, 4])
  })

  it('takes over what a hook killed mid-drain had claimed', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    // A claim named for a process that no longer exists.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    const dir = join(file, '..')
    await writeFile(join(dir, `spool.ndjson.${dead}.0a1b2c3d.draining`), JSON.stringify(event(7)) + '\n')
    // A claim of a live process (this one's parent) is left alone.
    await writeFile(join(dir, `spool.ndjson.${process.ppid}.0a1b2c3e.draining`), JSON.stringify(event(8)) + '\n')
    const service = fakeService()
    service.up = true
    await drainSpool(file, (e) => service.deliver(e))
    expect(service.received).toEqual([7, 0])
    expect((await readdir(dir)).filter((n) => n.endsWith('.draining'))).toEqual([`spool.ndjson.${process.ppid}.0a1b2c3e.draining`])
  })

  it('takes over a claim named by its own pid that it did not make (left by an earlier process of that pid, a container\'s pid 1)', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    const dir = join(file, '..')
    // Made just now, its pid this process's: no drain of this process made it, so its maker is dead.
    // A version before this left it alone as this process's own, for up to CLAIM_STALE_MS.
    await writeFile(join(dir, `spool.ndjson.${process.pid}.0a1b2c3e.draining`), JSON.stringify(event(8)) + '\n')
    const service = fakeService()
    service.up = true
    await drainSpool(file, (e) => service.deliver(e))
    expect(service.received).toEqual([8, 0])
    expect((await readdir(dir)).filter((n) => n.endsWith('.draining'))).toEqual([])
  })

  it('leaves alone the claim it holds itself while it delivers an event (holdWhileDelivering)', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    const held = await holdWhileDelivering(file, event(5))
    const service = fakeService()
    service.up = true
    await drainSpool(file, (e) => service.deliver(e))
    expect(service.received).toEqual([0])
    await held?.release()
    expect((await readdir(join(file, '..'))).filter((n) => n.endsWith('.draining'))).toEqual([])
  })

  it('takes over a claim left long ago, though its pid runs again (given to another process since)', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    const dir = join(file, '..')
    // This process's parent's pid stands for the reused one: it runs, but the claim is older than any drain.
    const left = join(dir, `spool.ndjson.${process.ppid}.0a1b2c3f.draining`)
    await writeFile(left, JSON.stringify(event(9)) + '\n')
    const long = new Date(Date.now() - CLAIM_STALE_MS - 60_000)
    await utimes(left, long, long)
    const service = fakeService()
    service.up = true
    await drainSpool(file, (e) => service.deliver(e))
    expect(service.received).toEqual([9, 0])
    expect((await readdir(dir)).filter((n) => n.endsWith('.draining'))).toEqual([])
  })

  it('dates a claim from when it was made, not from the spool’s last append: another drain leaves it alone', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    const long = new Date(Date.now() - CLAIM_STALE_MS - 60_000)
    await utimes(file, long, long)
    const other = fakeService()
    other.up = true
    // While the first drain holds its claim (the service is slow for it), a second drain runs.
    await drainSpool(file, async () => {
      await drainSpool(file, (e) => other.deliver(e))
      return 'failed'
    })
    expect(other.received).toEqual([])
    expect(await spooledIds(file)).toEqual([0])
  })

  it('gives each event to one of two drains running at once', async () => {
    const file = await freshSpool()
    for (let i = 0; i < 6; i++) await appendToSpool(file, event(i))
    const service = fakeService()
    service.up = true
    // A hook appends event 6 once both drains have made their claims (a drain delivers only after
    // its claim is done; one that took nothing ends): not while one is renaming the spool, where by
    // design (appendToLive) the event may be written twice and delivered by two drains, which the
    // service's idempotency makes count once but this count of deliveries would not.
    let claimed = 0
    let bothClaimed = () => {}
    const both = new Promise<void>((resolve) => (bothClaimed = resolve))
    const hasClaimed = () => {
      if (++claimed === 2) bothClaimed()
    }
    const appended = both.then(() => appendToSpool(file, event(6)))
    const drain = async () => {
      let first = true
      const result = await drainSpool(file, async (e) => {
        if (first) {
          first = false
          hasClaimed()
          await both
        }
        await new Promise((resolve) => setImmediate(resolve))
        return service.deliver(e)
      })
      if (first) hasClaimed()
      return result
    }
    await Promise.all([drain(), drain(), appended])
    await drainSpool(file, (e) => service.deliver(e))
    expect([...service.received].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('delivers an event appended to a line cut short (a write stopped by a full disk), and sets the stub aside', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    const cut = JSON.stringify({ ...event(1), payload: { id: 1, note: { at: 'x', pad: 'y'.repeat(50) } } })
    await writeFile(file, cut.slice(0, cut.length - 20), { flag: 'a' })
    await appendToSpool(file, event(2))
    const service = fakeService()
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toEqual({ delivered: 2, rejected: 1, left: 0, stopped: null })
    expect(service.received).toEqual([0, 2])
    const aside = (await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')
    expect(aside).toEqual([cut.slice(0, cut.length - 20)])
  })

  it('sets refused and unreadable lines aside instead of retrying them forever', async () => {
    const file = await freshSpool()
    await appendToSpool(file, event(0))
    await writeFile(file, '{"at": "2026-07-01T10:00:00Z", "user": "def\n', { flag: 'a' })
    await appendToSpool(file, event(1))
    const drained = await drainSpool(file, async (e) => ((e.payload as { id: number }).id === 0 ? 'rejected' : 'delivered'))
    expect(drained).toEqual({ delivered: 1, rejected: 2, left: 0, stopped: null })
    const aside = (await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')
    expect(aside).toHaveLength(2)
    expect(await spooledIds(file)).toEqual([])
  })

  it('leaves a claim it cannot put back holding only what it did not deliver: none delivered again, none set aside twice', async () => {
    const file = await freshSpool()
    for (const id of [0, 1, 2]) await appendToSpool(file, event(id))
    // 0 taken, 1 refused for good, 2 not taken: the spool's path a folder meanwhile, 2 cannot go back.
    const first = drainSpool(file, async (e) => {
      const id = (e.payload as { id: number }).id
      if (id === 0) return 'delivered'
      if (id === 1) return 'rejected'
      await mkdir(file)
      return 'failed'
    })
    await expect(first).rejects.toThrow('EISDIR')
    await rmdir(file)
    const dir = join(file, '..')
    const [claimed] = (await readdir(dir)).filter((n) => n.endsWith('.draining'))
    expect(await readFile(join(dir, claimed as string), 'utf8')).toBe(JSON.stringify(event(2)) + '\n')
    // Its hook then ended: the claim is a dead process's, for the next drain to take over.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    await rename(join(dir, claimed as string), join(dir, `spool.ndjson.${dead}.0a1b2c3d.draining`))
    const offered: number[] = []
    const drained = await drainSpool(file, async (e) => {
      const id = (e.payload as { id: number }).id
      offered.push(id)
      return id === 1 ? 'rejected' : 'delivered'
    })
    expect(offered).toEqual([2])
    expect(drained).toEqual({ delivered: 1, rejected: 0, left: 0, stopped: null })
    const aside = (await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')
    expect(aside).toEqual([JSON.stringify(event(1))])
  })

  it('keeps an event being delivered as a claim until released, and writes nothing beside a spool that is a folder', async () => {
    const file = await freshSpool()
    const held = await holdWhileDelivering(file, event(3))
    const names = await readdir(join(file, '..'))
    expect(names).toEqual([expect.stringMatching(new RegExp(`^spool\\.ndjson\\.${process.pid}\\.[0-9a-f]+\\.draining$`))])
    expect(JSON.parse(await readFile(join(file, '..', names[0] as string), 'utf8'))).toEqual(event(3))
    await held?.release()
    expect(await readdir(join(file, '..'))).toEqual([])
    // DECISION_MEMORY_SPOOL=/tmp: a claim of it would be written in /.
    const folder = join(file, '..', 'a-folder')
    await mkdir(folder)
    expect(await holdWhileDelivering(folder, event(4))).toBe(undefined)
    expect(await readdir(join(file, '..'))).toEqual(['a-folder'])
  })

  it('sets aside a line that is JSON but no event (another program\'s, another version\'s shape), never delivering it', async () => {
    const file = await freshSpool()
    await mkdir(join(file, '..'), { recursive: true })
    // null once ended every drain with a TypeError, and the rest was delivered as user "undefined"
    // or "[object Object]", or failed for good, holding up every event behind it.
    const others = ['null', '[1,2]', '"text"', '{"at":"2026-07-01T10:00:00Z","payload":{"id":9}}', '{"at":"2026-07-01T10:00:00Z","user":{"name":"bob"},"payload":{"id":9}}']
    await writeFile(file, others.map((l) => l + '\n').join(''))
    await appendToSpool(file, event(1))
    const service = fakeService()
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toEqual({ delivered: 1, rejected: others.length, left: 0, stopped: null })
    expect(service.received).toEqual([1])
    expect((await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')).toEqual(others)
  })
})

describe('forgetting a user in the spool (R-SVC-5)', () => {
  it('removes the user’s events, waiting or set aside, and keeps everyone else’s and unreadable lines, in order', async () => {
    const file = await freshSpool()
    const of = (user: string, id: number): SpooledEvent => ({ ...event(id), user })
    for (const e of [of('dave', 1), of('erin', 2), of('dave', 3), of('erin', 4)]) await appendToSpool(file, e)
    await writeFile(file, 'half a li', { flag: 'a' })
    await appendToRejected(file, of('dave', 5))
    await appendToRejected(file, of('erin', 6))
    expect(await forgetInSpool(file, 'dave')).toBe(3)
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '')
    expect(lines.slice(0, 2).map((l) => JSON.parse(l).payload.id)).toEqual([2, 4])
    expect(lines[2]).toBe('half a li')
    const aside = (await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')
    expect(aside.map((l) => JSON.parse(l).payload.id)).toEqual([6])
    // Nothing left behind: no claim, no taken file.
    expect((await readdir(join(file, '..'))).sort()).toEqual(['spool.ndjson', 'spool.ndjson.rejected'])
    expect(await forgetInSpool(file, 'dave')).toBe(0)
  })

  it('finds the user’s event appended to a line cut short, and keeps the stub', async () => {
    const file = await freshSpool()
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, '{"at":"2026-07-01T10:00:00.000Z","user":"erin","payl')
    await appendToSpool(file, { ...event(1), user: 'dave' })
    expect(await forgetInSpool(file, 'dave')).toBe(1)
    expect((await readFile(file, 'utf8')).split('\n').filter((l) => l !== '')).toEqual(['{"at":"2026-07-01T10:00:00.000Z","user":"erin","payl'])
  })

  it('takes out a line of the user’s cut short (its user written whole), in the spool and among the refused ones', async () => {
    const file = await freshSpool()
    await mkdir(join(file, '..'), { recursive: true })
    const stub = (user: string) => JSON.stringify({ ...event(1), user, payload: { question: 'Which database for the payroll?' } }).slice(0, 70)
    await writeFile(file, `${stub('dave')}\n${stub('erin')}\n`)
    await writeFile(rejectedFile(file), `${stub('dave')}\n`)
    expect(await forgetInSpool(file, 'dave')).toBe(2)
    expect((await readFile(file, 'utf8')).split('\n').filter((l) => l !== '')).toEqual([stub('erin')])
    expect(existsSync(rejectedFile(file))).toBe(false)
  })

  it('finds the user however the hook spelled their name: the service takes it in NFC, as forget does', async () => {
    const file = await freshSpool()
    // DECISION_MEMORY_USER in NFD (as a name copied from a macOS path may be): the service records it as 'José'.
    await appendToSpool(file, { ...event(1), user: 'Jose\u0301' })
    await appendToRejected(file, { ...event(2), user: 'Jose\u0301' })
    expect(await forgetInSpool(file, 'Jos\u00e9')).toBe(2)
    expect(await readdir(join(file, '..'))).toEqual([])
  })

  it('takes over what a forget killed midway had taken of the refused ones: the user’s removed, the others’ put back', async () => {
    const file = await freshSpool()
    await appendToRejected(file, { ...event(1), user: 'erin' })
    const dir = join(file, '..')
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    const left = [{ ...event(2), user: 'dave' }, { ...event(3), user: 'erin' }].map((e) => JSON.stringify(e) + '\n').join('')
    await writeFile(join(dir, `spool.ndjson.rejected.${dead}.0a1b2c3d.forgetting`), left)
    expect(await forgetInSpool(file, 'dave')).toBe(1)
    const aside = (await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')
    expect(aside.map((l) => JSON.parse(l).payload.id).sort()).toEqual([1, 3])
    expect((await readdir(dir)).sort()).toEqual(['spool.ndjson.rejected'])
  })

  it('removes a capture set aside with its user in doubt for a name its flags gave, as well as for its user', async () => {
    // `--usr dave` set it aside under `default`: dave's forget left his choices on disk.
    const file = await freshSpool()
    const aside = (id: number, user: string, named: string[]): SpooledEvent => ({ ...event(id), user, user_in_doubt: named })
    await appendToRejected(file, aside(1, 'default', ['dave']))
    // `--user "dave "` (refused for its space), the defaults' user erin; `--user dave --user frank`.
    await appendToRejected(file, aside(2, 'erin', ['dave ']))
    await appendToRejected(file, aside(3, 'frank', ['Dave', 'frank']))
    await appendToRejected(file, aside(4, 'default', ['dave', 'frank']))
    // Named in NFD (a name copied from a macOS path): the same user.
    await appendToRejected(file, aside(5, 'default', ['Jose\u0301']))
    // Named nothing (`--user` with no value): its user alone is asked.
    await appendToRejected(file, aside(6, 'default', []))
    // Refused by the service, not in doubt: its payload naming dave makes it no capture of his.
    await appendToRejected(file, { ...event(7), user: 'erin', payload: { id: 7, user: 'dave' } })
    expect(await forgetInSpool(file, 'dave')).toBe(3)
    expect(await forgetInSpool(file, 'Jos\u00e9')).toBe(1)
    const left = (await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '')
    expect(left.map((l) => JSON.parse(l).payload.id)).toEqual([3, 6, 7])
    expect(await forgetInSpool(file, 'default')).toBe(1)
  })

  it('says whose claim of the refused ones it leaves, held by a process at work on it (hook --record-set-aside), and leaves it whole', async () => {
    const file = await freshSpool()
    await appendToRejected(file, { ...event(1), user: 'default', user_in_doubt: ['dave'] })
    const dir = join(file, '..')
    // Staged as a `hook --record-set-aside` holds it while it moves: named by a live pid (this
    // process's parent's), made just now. Its lines are its own until it is done.
    const held = join(dir, `spool.ndjson.rejected.${process.ppid}.0a1b2c3d.forgetting`)
    const line = JSON.stringify({ ...event(2), user: 'default', user_in_doubt: ['dave'] }) + '\n'
    await writeFile(held, line)
    const told: number[][] = []
    expect(await forgetInSpool(file, 'dave', (pids) => told.push(pids))).toBe(1)
    expect(told).toEqual([[process.ppid]])
    expect(await readFile(held, 'utf8')).toBe(line)
    // Nothing held: nothing told.
    await unlink(held)
    expect(await forgetInSpool(file, 'dave', (pids) => told.push(pids))).toBe(0)
    expect(told).toHaveLength(1)
  })

  it('takes a claim of the refused ones named by its own pid, which it did not make, and says none held', async () => {
    const file = await freshSpool()
    const dir = join(file, '..')
    // Left by a forget killed midway whose pid this process has now (a container's pid 1): a
    // version before this left it as held, and said this process's own pid was another's at work.
    const left = join(dir, `spool.ndjson.rejected.${process.pid}.0a1b2c3d.forgetting`)
    await mkdir(dir, { recursive: true })
    await writeFile(left, JSON.stringify({ ...event(2), user: 'default', user_in_doubt: ['dave'] }) + '\n' + JSON.stringify({ ...event(3), user: 'erin' }) + '\n')
    const told: number[][] = []
    expect(await forgetInSpool(file, 'dave', (pids) => told.push(pids))).toBe(1)
    expect(told).toEqual([])
    expect(existsSync(left)).toBe(false)
    expect((await readFile(rejectedFile(file), 'utf8')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).payload.id)).toEqual([3])
  })
  it('is nothing to do without a spool', async () => {
    expect(await forgetInSpool(await freshSpool(), 'dave')).toBe(0)
  })
})

describe('recording the captures set aside with their user in doubt (hook --record-set-aside)', () => {
  const aside = (id: number, named: string[], extra: Partial<SpooledEvent> = {}): SpooledEvent => ({ ...event(id), user: 'default', user_in_doubt: named, ...extra })
  const lines = async (file: string) => (existsSync(file) ? (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '') : [])

  it('moves into the spool as the user\'s those whose flags named the user or no user, and leaves the rest set aside', async () => {
    const file = await freshSpool()
    await appendToRejected(file, aside(1, ['alice'], { project: '/work/acme' })) // --usr alice
    await appendToRejected(file, aside(2, ['bob'])) // --usr bob: bob's, not alice's
    await appendToRejected(file, aside(3, [])) // --user with no value
    await appendToRejected(file, aside(4, ['..'])) // --user ..: a name the service refuses names no one
    await appendToRejected(file, { ...event(5), user: 'alice' }) // refused by the service: sent again, refused again
    await appendToRejected(file, aside(6, ['Alice ', 'carol'])) // --user "Alice " --user carol: neither is alice
    await appendToRejected(file, aside(7, ['alice ', 'bob'])) // --user "alice " --user bob: alice among them
    await writeFile(rejectedFile(file), 'half a li\n', { flag: 'a' })
    await appendToSpool(file, { ...event(8), user: 'erin' })
    const done = await recordSetAside(file, 'alice')
    expect(done).toEqual({ moved: 4, namingOthers: [{ names: ['bob'], count: 1 }, { names: ['Alice', 'carol'], count: 1 }], others: 2 })
    const spooled = (await lines(file)).map((l) => JSON.parse(l) as SpooledEvent)
    expect(spooled.map((e) => [e.payload, e.user])).toEqual([[{ id: 8 }, 'erin'], [{ id: 1 }, 'alice'], [{ id: 3 }, 'alice'], [{ id: 4 }, 'alice'], [{ id: 7 }, 'alice']])
    // As the hook spools an event: its own time and project, no mark of the doubt, `at` first.
    expect((await lines(file))[1]).toBe(JSON.stringify({ at: event(1).at, user: 'alice', payload: { id: 1 }, project: '/work/acme' }))
    const left = await lines(rejectedFile(file))
    expect(left.slice(0, 3).map((l) => (JSON.parse(l) as SpooledEvent).payload)).toEqual([{ id: 2 }, { id: 5 }, { id: 6 }])
    expect(left[3]).toBe('half a li')
    // Nothing left behind: no claim, no taken file; a second run has nothing of alice's to move.
    expect((await readdir(join(file, '..'))).sort()).toEqual(['spool.ndjson', 'spool.ndjson.rejected'])
    expect(await recordSetAside(file, 'alice')).toMatchObject({ moved: 0, others: 2 })
    expect(await recordSetAside(file, 'bob')).toMatchObject({ moved: 1, namingOthers: [{ names: ['Alice', 'carol'], count: 1 }] })
  })

  it('takes over what a forget or a move killed midway had taken of the set-aside ones', async () => {
    const file = await freshSpool()
    const dir = join(file, '..')
    await mkdir(dir, { recursive: true })
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    await writeFile(join(dir, `spool.ndjson.rejected.${dead}.0a1b2c3d.forgetting`), [aside(1, ['alice']), { ...event(2), user: 'erin' }].map((e) => JSON.stringify(e) + '\n').join(''))
    expect(await recordSetAside(file, 'alice')).toEqual({ moved: 1, namingOthers: [], others: 1 })
    expect((await lines(file)).map((l) => (JSON.parse(l) as SpooledEvent).user)).toEqual(['alice'])
    expect((await readdir(dir)).sort()).toEqual(['spool.ndjson', 'spool.ndjson.rejected'])
  })

  it('moves nothing to a spool that is no file (a device keeps nothing written to it)', async () => {
    const dir = tempDir('dm-spool-')
    await writeFile(join(dir, 'null.rejected'), JSON.stringify(aside(1, ['alice'])) + '\n')
    await symlink('/dev/null', join(dir, 'null'))
    await expect(recordSetAside(join(dir, 'null'), 'alice')).rejects.toThrow(`the spool ${join(dir, 'null')} is not a file`)
    expect(await lines(join(dir, 'null.rejected'))).toHaveLength(1)
  })

  it('is nothing to do without a .rejected file', async () => {
    expect(await recordSetAside(await freshSpool(), 'alice')).toEqual({ moved: 0, namingOthers: [], others: 0 })
  })
})

describe('a spool that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('says which file, why, and that the event is not kept (a full disk: /dev/full)', async () => {
    await expect(appendToSpool('/dev/full', event(0))).rejects.toThrow(
      'cannot write the spool /dev/full (ENOSPC): this event is not kept; free the disk, or give DECISION_MEMORY_SPOOL or --spool a file this account can write',
    )
  })
})

// Only root can give a file to another account; elsewhere the case cannot be made.
describe.skipIf(process.getuid?.() !== 0)('a spool another account made first (DECISION_MEMORY_SPOOL in a folder others write)', () => {
  const NOBODY = 65534
  const refusal = (file: string) =>
    `the spool ${file} belongs to another account (uid ${NOBODY}), which could read what is spooled or add to it: this event is not kept; give DECISION_MEMORY_SPOOL or --spool a file of your own`

  it('is not written to, even open to all (mode 666): its owner would read the choices', async () => {
    const file = join(tempDir('dm-spool-'), 'spool.ndjson')
    await writeFile(file, '')
    await chmod(file, 0o666)
    await chown(file, NOBODY, NOBODY)
    await expect(appendToSpool(file, event(1))).rejects.toThrow(refusal(file))
    expect(await readFile(file, 'utf8')).toBe('')
  })

  it('is not followed when it is their link to a file of this account’s, which stays as it was', async () => {
    const dir = tempDir('dm-spool-')
    const mine = join(dir, 'profile')
    await writeFile(mine, 'export PATH\n')
    const file = join(dir, 'spool.ndjson')
    await symlink(mine, file)
    await lchown(file, NOBODY, NOBODY)
    await expect(appendToSpool(file, event(1))).rejects.toThrow(refusal(file))
    expect(await readFile(mine, 'utf8')).toBe('export PATH\n')
  })

  it('is not given the captures set aside with their user in doubt: they stay set aside, no claim left', async () => {
    const file = join(tempDir('dm-spool-'), 'spool.ndjson')
    await writeFile(file, '')
    await chown(file, NOBODY, NOBODY)
    const line = JSON.stringify({ ...event(1), user_in_doubt: ['alice'] }) + '\n'
    await writeFile(rejectedFile(file), line)
    await expect(recordSetAside(file, 'alice')).rejects.toThrow(
      `the spool ${file} belongs to another account (uid ${NOBODY}), which could read what is spooled: give DECISION_MEMORY_SPOOL or --spool a file of your own`,
    )
    expect(await readFile(rejectedFile(file), 'utf8')).toBe(line)
    expect(await readFile(file, 'utf8')).toBe('')
    expect((await readdir(join(file, '..'))).sort()).toEqual(['spool.ndjson', 'spool.ndjson.rejected'])
  })

  it('is not drained: its lines are not this account’s events', async () => {
    const file = join(tempDir('dm-spool-'), 'spool.ndjson')
    await writeFile(file, JSON.stringify(event(1)) + '\n')
    await chown(file, NOBODY, NOBODY)
    const service = fakeService()
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toMatchObject({ delivered: 0, left: 0 })
    expect(service.received).toEqual([])
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(event(1)) + '\n')
  })

  it('is not drained through a link of this account’s to it either, which stays as it was', async () => {
    const dir = tempDir('dm-spool-')
    const theirs = join(dir, 'theirs.ndjson')
    await writeFile(theirs, JSON.stringify(event(1)) + '\n')
    await chown(theirs, NOBODY, NOBODY)
    const file = join(dir, 'spool.ndjson')
    await symlink(theirs, file)
    const service = fakeService()
    service.up = true
    // Renamed itself before, the link was read through: their line delivered as this account's.
    expect(await drainSpool(file, (e) => service.deliver(e))).toMatchObject({ delivered: 0, left: 0 })
    expect(await forgetInSpool(file, 'default')).toBe(0)
    expect(service.received).toEqual([])
    expect(readlinkSync(file)).toBe(theirs)
    expect(await readFile(theirs, 'utf8')).toBe(JSON.stringify(event(1)) + '\n')
    expect((await readdir(dir)).sort()).toEqual(['spool.ndjson', 'theirs.ndjson'])
  })
})

describe('a spool set to a folder (DECISION_MEMORY_SPOOL=/tmp, --spool ~)', () => {
  it('is not claimed: the folder, and what is in it, stay where they are', async () => {
    const parent = tempDir('dm-spool-')
    const folder = join(parent, 'tmp')
    await mkdir(join(folder, 'someone-else'), { recursive: true })
    await writeFile(join(folder, 'someone-else', 'work.txt'), 'kept')
    // A claim left by a hook with the same mistake, named as a spool's claim is: a folder too.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    await mkdir(join(parent, `tmp.${dead}.0a1b2c3d.draining`))
    const service = fakeService()
    service.up = true
    expect(await drainSpool(folder, (e) => service.deliver(e))).toMatchObject({ delivered: 0, left: 0 })
    expect(await forgetInSpool(folder, 'dave')).toBe(0)
    expect((await readdir(parent)).sort()).toEqual(['tmp', `tmp.${dead}.0a1b2c3d.draining`])
    expect(await readFile(join(folder, 'someone-else', 'work.txt'), 'utf8')).toBe('kept')
    // Nor can an event be written there: said as the error it is, not stored anywhere else.
    await expect(appendToSpool(folder, event(0))).rejects.toThrow(`the spool ${folder} is a folder (EISDIR): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in it`)
  })
})

describe('a spool that is a device', () => {
  it('says an event appended to /dev/null is not kept, rather than "spooled" to where it is thrown away', async () => {
    await expect(appendToSpool('/dev/null', event(0))).rejects.toThrow(
      'the spool /dev/null is a device, not a file: this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file',
    )
  })
})

describe('a spool that is a named pipe', () => {
  it('says an event is not kept, rather than write it into the pipe or wait for a reader that never comes', async () => {
    const dir = tempDir('dm-spool-fifo-')
    const fifo = join(dir, 'spool.ndjson')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const notKept = `the spool ${fifo} is a named pipe (FIFO), not a file: this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file`
    // Read by some process: the line went into the pipe, and the event was said spooled.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    try {
      await expect(appendToSpool(fifo, event(0))).rejects.toThrow(notKept)
    } finally {
      closeSync(reader)
    }
    // Read by none: the open waited for a reader, and the hook hung past its --budget.
    await expect(appendToSpool(fifo, event(1))).rejects.toThrow(notKept)
    expect(await drainSpool(fifo, async () => 'delivered')).toMatchObject({ delivered: 0, left: 0 })
  })

  it('is neither taken nor read through a symbolic link to it, which held the drain until the hook was killed', async () => {
    const dir = tempDir('dm-spool-fifo-link-')
    const fifo = join(dir, 'real.fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const file = join(dir, 'spool.ndjson')
    await symlink(fifo, file)
    expect(await drainSpool(file, async () => 'delivered')).toEqual({ delivered: 0, rejected: 0, left: 0, stopped: null })
    await expect(appendToSpool(file, event(0))).rejects.toThrow(`the spool ${file} is a named pipe (FIFO), not a file: this event is not kept`)
    expect((await readdir(dir)).sort()).toEqual(['real.fifo', 'spool.ndjson'])
  })
})

describe('a spool that is a symbolic link to no file (broken, or looping)', () => {
  it('removes the link, which holds no events, saying where it led, rather than keep it moved aside for every later hook to rename', async () => {
    for (const [target, code] of [['nowhere.ndjson', 'ENOENT'], ['loop', 'ELOOP']] as const) {
      const dir = tempDir('dm-spool-link-')
      const file = join(dir, 'spool.ndjson')
      await symlink(target, file)
      if (target === 'loop') await symlink('loop', join(dir, 'loop'))
      const service = fakeService()
      service.up = true
      // Kept, the moved-aside link was a claim of a pid gone, taken and renamed again by each drain;
      // a looping one threw ELOOP there, every drain after it stopped before the events in the spool.
      expect(await drainSpool(file, (e) => service.deliver(e)), code).toEqual({ delivered: 0, rejected: 0, left: 0, stopped: null, removedLinks: [{ target, code }] })
      expect((await readdir(dir)).filter((name) => name !== 'loop'), code).toEqual([])
      // The spool is a file of its own now, delivered as any, the link said no more.
      await appendToSpool(file, event(1))
      expect(await drainSpool(file, (e) => service.deliver(e)), code).toEqual({ delivered: 1, rejected: 0, left: 0, stopped: null })
      expect(service.received, code).toEqual([1])
    }
  })

  it('is no error to a forget, which removes the link as a drain does', async () => {
    const dir = tempDir('dm-spool-link-forget-')
    const file = join(dir, 'spool.ndjson')
    await symlink('spool.ndjson', file)
    expect(await forgetInSpool(file, 'default')).toBe(0)
    expect(await readdir(dir)).toEqual([])
  })
})

describe('a spool that is a symbolic link to a file (linked into a synced or shared folder)', () => {
  /** A spool at `home/spool.ndjson` linked to `synced/spool.ndjson`, which holds `lines`. */
  async function linkedSpool(lines: SpooledEvent[]) {
    const home = tempDir('dm-spool-home-')
    const synced = tempDir('dm-spool-synced-')
    const target = join(synced, 'spool.ndjson')
    await writeFile(target, lines.map((l) => JSON.stringify(l) + '\n').join(''), { mode: 0o600 })
    const file = join(home, 'spool.ndjson')
    await symlink(target, file)
    return { home, synced, target, file }
  }

  /** What the folders hold: each file's name and text (a link's, where it leads). */
  async function held(...dirs: string[]): Promise<string> {
    const texts: string[] = []
    for (const dir of dirs) {
      for (const name of (await readdir(dir)).sort()) {
        const path = join(dir, name)
        texts.push(lstatSync(path).isSymbolicLink() ? `${name} -> ${readlinkSync(path)}` : `${name}: ${await readFile(path, 'utf8')}`)
      }
    }
    return texts.join('\n')
  }

  const of = (user: string, id: number): SpooledEvent => ({ ...event(id), user })

  it('is drained from the file it leads to, the link kept leading there, what is left put back there', async () => {
    const { home, synced, target, file } = await linkedSpool([event(1), event(2)])
    const service = fakeService()
    // Down: both stay in the file linked to, and the link is still the spool.
    expect(await drainSpool(file, (e) => service.deliver(e))).toMatchObject({ delivered: 0, left: 2, stopped: 'failure' })
    expect(readlinkSync(file)).toBe(target)
    expect(await spooledIds(target)).toEqual([1, 2])
    expect(await readdir(home)).toEqual(['spool.ndjson'])
    expect(await readdir(synced)).toEqual(['spool.ndjson'])
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toEqual({ delivered: 2, rejected: 0, left: 0, stopped: null })
    expect(service.received).toEqual([1, 2])
    // Renamed itself before, the link was replaced by a file of its own, and the file it led to
    // kept both events; left leading to no file, the next call would remove it.
    expect(readlinkSync(file)).toBe(target)
    expect(await readFile(target, 'utf8')).toBe('')
    expect(await readdir(home)).toEqual(['spool.ndjson'])
    expect(await readdir(synced)).toEqual(['spool.ndjson'])
    // The next event goes where the link leads, and is delivered from there.
    await appendToSpool(file, event(3))
    expect(await spooledIds(target)).toEqual([3])
    expect(await drainSpool(file, (e) => service.deliver(e))).toMatchObject({ delivered: 1, left: 0 })
    expect(service.received).toEqual([1, 2, 3])
    expect(readlinkSync(file)).toBe(target)
  })

  it('is followed through a link to a link, and a relative one', async () => {
    const { home, synced, target, file } = await linkedSpool([event(1)])
    await unlink(file)
    await symlink('middle.ndjson', file)
    await symlink(target, join(home, 'middle.ndjson'))
    const service = fakeService()
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toMatchObject({ delivered: 1, left: 0 })
    expect(await held(home, synced)).toBe([`middle.ndjson -> ${target}`, 'spool.ndjson -> middle.ndjson', 'spool.ndjson: '].join('\n'))
  })

  it('has the user\'s events taken out of the file it leads to by a forget, the others\' left there, the link kept', async () => {
    const { home, synced, target, file } = await linkedSpool([of('bob', 1), of('alice', 2), of('bob', 3)])
    expect(await forgetInSpool(file, 'bob')).toBe(2)
    // Before, bob's two were said removed, yet stayed in the file linked to, the link replaced.
    expect(await held(home, synced)).toBe([`spool.ndjson -> ${target}`, `spool.ndjson: ${JSON.stringify(of('alice', 2))}\n`].join('\n'))
    // Nothing of bob's is left anywhere, and the spool drains as before.
    const service = fakeService()
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toMatchObject({ delivered: 1, left: 0 })
    expect(service.received).toEqual([2])
  })

  it('has the user\'s lines taken out of a .rejected file that is a link to a file too, the link kept', async () => {
    const { home, synced, file } = await linkedSpool([])
    const rejectedTarget = join(synced, 'spool.ndjson.rejected')
    await writeFile(rejectedTarget, [of('bob', 1), { ...of('default', 2), user_in_doubt: ['bob'] }, of('carol', 3)].map((l) => JSON.stringify(l) + '\n').join(''))
    await symlink(rejectedTarget, rejectedFile(file))
    expect(await forgetInSpool(file, 'bob')).toBe(2)
    expect(await held(home, synced)).toBe(
      [`spool.ndjson -> ${join(synced, 'spool.ndjson')}`, `spool.ndjson.rejected -> ${rejectedTarget}`, 'spool.ndjson: ', `spool.ndjson.rejected: ${JSON.stringify(of('carol', 3))}\n`].join('\n'),
    )
  })

  it('takes over a claim left beside the file it leads to, and an event held beside the link, by hooks killed', async () => {
    const { home, synced, target, file } = await linkedSpool([of('bob', 1)])
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    await writeFile(`${target}.${dead}.0a1b2c3d.draining`, JSON.stringify(of('bob', 2)) + '\n' + JSON.stringify(of('carol', 3)) + '\n')
    await writeFile(`${file}.${dead}.0a1b2c3e.draining`, JSON.stringify(of('bob', 4)) + '\n')
    expect(await forgetInSpool(file, 'bob')).toBe(3)
    expect(await held(home, synced)).toBe([`spool.ndjson -> ${target}`, `spool.ndjson: ${JSON.stringify(of('carol', 3))}\n`].join('\n'))
  })

  it('has the captures set aside moved into the file it leads to by hook --record-set-aside, the link kept', async () => {
    const { home, synced, target, file } = await linkedSpool([event(1)])
    await writeFile(rejectedFile(file), JSON.stringify({ ...event(2), user_in_doubt: ['alice'] }) + '\n')
    expect(await recordSetAside(file, 'alice')).toEqual({ moved: 1, namingOthers: [], others: 0 })
    expect(readlinkSync(file)).toBe(target)
    expect(await spooledIds(target)).toEqual([1, 2])
    expect(await readdir(home)).toEqual(['spool.ndjson'])
    expect(await readdir(synced)).toEqual(['spool.ndjson'])
  })

  it('is not removed when it leads to no file for the moment another process takes that file, nor is the claim taken', async () => {
    const { home, synced, target, file } = await linkedSpool([])
    // Another hook's drain, alive (this test's parent), between its rename of the file and the empty
    // file it puts in its place: the link leads to no file.
    await unlink(target)
    const claimed = `${target}.${process.ppid}.0a1b2c3d.draining`
    await writeFile(claimed, JSON.stringify(event(1)) + '\n')
    const service = fakeService()
    service.up = true
    expect(await drainSpool(file, (e) => service.deliver(e))).toEqual({ delivered: 0, rejected: 0, left: 0, stopped: null })
    expect(await forgetInSpool(file, 'default')).toBe(0)
    expect(await held(home, synced)).toBe([`spool.ndjson -> ${target}`, `spool.ndjson.${process.ppid}.0a1b2c3d.draining: ${JSON.stringify(event(1))}\n`].join('\n'))
  })

  it('is not removed so either through a link to a link', async () => {
    const { home, synced, target, file } = await linkedSpool([])
    await unlink(file)
    await symlink('middle.ndjson', file)
    await symlink(target, join(home, 'middle.ndjson'))
    await unlink(target)
    await writeFile(`${target}.${process.ppid}.0a1b2c3d.draining`, '')
    expect(await drainSpool(file, async () => 'delivered')).toEqual({ delivered: 0, rejected: 0, left: 0, stopped: null })
    expect(await held(home, synced)).toBe([`middle.ndjson -> ${target}`, 'spool.ndjson -> middle.ndjson', `spool.ndjson.${process.ppid}.0a1b2c3d.draining: `].join('\n'))
  })
})

describe('a spool under a file', () => {
  it('has nothing to drain or forget, and an event appended is said lost, naming the spool, not in mkdir\'s words', async () => {
    const dir = tempDir('dm-spool-under-file-')
    const file = join(dir, 'spool.ndjson')
    await writeFile(file, '')
    for (const spool of [join(file, 'x'), join(file, 'x', 'y')]) {
      expect(await drainSpool(spool, async () => 'delivered')).toMatchObject({ delivered: 0, left: 0 })
      expect(await forgetInSpool(spool, 'bob')).toBe(0)
      await expect(appendToSpool(spool, event(0))).rejects.toThrow(
        new RegExp(`^the spool ${spool.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is under a file, not a folder \\((EEXIST|ENOTDIR)\\): this event is not kept; give DECISION_MEMORY_SPOOL or --spool the path of a file in a folder$`),
      )
    }
  })
})
