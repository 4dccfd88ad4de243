import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { takeLocalTurn } from './cli/local-turn'
import { LEVEL_OPTIONS, markServedBy, openStores, servedBy, SERVICE_FOLDER_FILE, SERVICE_ID_FILE, storeFolderExposure, StoreOpenError, undoStoreMaking, watchStore } from './open-store'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A folder of its own for one test, removed after it. */
async function tempFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dm-open-'))
  dirs.push(dir)
  return dir
}

/** A LevelDB store in a folder of its own, holding `entries` (each put on its own, in the log), closed. */
async function storeHolding(entries: Record<string, string>): Promise<{ dir: string; db: Level<string, string> }> {
  const dir = await tempFolder()
  const db = new Level<string, string>(dir)
  await db.open()
  for (const [key, value] of Object.entries(entries)) await db.put(key, value)
  await db.close()
  return { dir, db }
}

describe('openStores on a store LevelDB cannot open', () => {
  it("says LevelDB's reason, not only that the database failed to open", async () => {
    const dir = await tempFolder()
    // A CURRENT naming a manifest that is not there: what a store copied without its MANIFEST looks like.
    await writeFile(join(dir, 'CURRENT'), 'MANIFEST-000002\n')
    const failure = await openStores(dir).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(StoreOpenError)
    expect((failure as Error).message).toMatch(
      new RegExp(`^cannot open the store in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Database failed to open: IO error: .*MANIFEST-000002: No such file or directory$`),
    )
  })
})

describe('openStores on a store this account may not write', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  // Run as root here, the real case (a store made by another account) cannot be refused: LevelDB
  // is refused as classic-level reports it, an Error coded LEVEL_IO_ERROR with LevelDB's words
  // (binding.cc's CreateCodeError), which abstract-level wraps in LEVEL_DATABASE_NOT_OPEN.
  const refuseOpen = (message: string) =>
    vi.spyOn(Level.prototype as unknown as { _open: () => Promise<void> }, '_open').mockRejectedValueOnce(Object.assign(new Error(message), { code: 'LEVEL_IO_ERROR' }))

  it.each(['Permission denied', 'Operation not permitted'])('says the folder, that this account may not write it, and the chown to give it (%s)', async (words) => {
    const dir = await tempFolder()
    refuseOpen(`IO error: ${dir}/LOCK: ${words}`)
    const failure = await openStores(dir).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(StoreOpenError)
    expect((failure as StoreOpenError).locked).toBe(false)
    const account = userInfo().username
    expect((failure as Error).message).toBe(
      `cannot open the store in ${dir}: this account (${account}) may not write it (IO error: ${dir}/LOCK: ${words}): ` +
        `a store made by another account, such as a first run as root, must be given to this one: chown -R -- ${account} ${dir}`,
    )
  })

  it('says so too when the folder is refused before LevelDB opens it (classic-level makes it, EACCES)', async () => {
    const dir = await tempFolder()
    vi.spyOn(Level.prototype as unknown as { _open: () => Promise<void> }, '_open').mockRejectedValueOnce(
      Object.assign(new Error(`EACCES: permission denied, mkdir '${dir}'`), { code: 'EACCES', errno: -13, syscall: 'mkdir', path: dir }),
    )
    const account = userInfo().username
    await expect(openStores(dir)).rejects.toThrow(
      new StoreOpenError(
        `cannot open the store in ${dir}: this account (${account}) may not write it (EACCES: permission denied, mkdir '${dir}'): ` +
          `a store made by another account, such as a first run as root, must be given to this one: chown -R -- ${account} ${dir}`,
      ),
    )
  })

  it('gives the chown the folder a symbolic link to the store leads to: `chown -R` changes the link alone', async () => {
    // `--data ~/db`, a link to /srv/db: `chown -R alice ~/db` gave the link to alice and left every
    // file of the store as it was (GNU and BSD chown -R do not follow a link they are given).
    const dir = await tempFolder()
    const link = join(await tempFolder(), 'db')
    await symlink(dir, link)
    refuseOpen(`IO error: ${link}/LOCK: Permission denied`)
    const account = userInfo().username
    await expect(openStores(link)).rejects.toThrow(
      new StoreOpenError(
        `cannot open the store in ${link}: this account (${account}) may not write it (IO error: ${link}/LOCK: Permission denied): ` +
          `a store made by another account, such as a first run as root, must be given to this one: chown -R -- ${account} ${dir}`,
      ),
    )
  })

  it('quotes a folder the chown names as a shell must be given it, so that the command runs as printed', async () => {
    // `--data "/srv/my store"`: `chown -R alice /srv/my store` would chown /srv/my and a "store" of the current folder.
    const dir = join(await tempFolder(), "my store's db")
    await mkdir(dir)
    refuseOpen(`IO error: ${dir}/LOCK: Permission denied`)
    const account = userInfo().username
    const quoted = `'${dir.replace("'", "'\\''")}'`
    await expect(openStores(dir)).rejects.toThrow(`must be given to this one: chown -R -- ${account} ${quoted}`)
  })

  it('says another IO error as LevelDB does, with no advice to chown', async () => {
    const dir = await tempFolder()
    refuseOpen(`IO error: ${dir}/000005.log: No space left on device`)
    await expect(openStores(dir)).rejects.toThrow(
      new StoreOpenError(`cannot open the store in ${dir}: Database failed to open: IO error: ${dir}/000005.log: No space left on device`),
    )
  })
})

describe('openStores on a store that lost its CURRENT', () => {
  it('refuses it, naming the folder and its newest manifest, rather than start an empty store there and delete its data', async () => {
    const { dir, db } = await storeHolding({ k: 'an acknowledged choice' })
    // Opened again, LevelDB writes the log into a table file (000005.ldb) under MANIFEST-000004.
    await db.open()
    await db.close()
    await rm(join(dir, 'CURRENT'))
    const before = (await readdir(dir)).sort()
    expect(before.some((name) => name.endsWith('.ldb'))).toBe(true)

    const failure = await openStores(dir).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(StoreOpenError)
    expect((failure as StoreOpenError).locked).toBe(false)
    const manifest = before.filter((name) => name.startsWith('MANIFEST-')).sort().pop()
    expect((failure as Error).message).toContain(`the store in ${dir} is damaged: its file CURRENT is missing`)
    expect((failure as Error).message).toContain(`echo ${manifest} > ${join(dir, 'CURRENT')}`)
    expect((await readdir(dir)).sort()).toEqual(before)

    // Which is the fix: with CURRENT written back, the data is there.
    await writeFile(join(dir, 'CURRENT'), `${manifest}\n`)
    const restored = new Level<string, string>(dir)
    await restored.open()
    expect(await restored.get('k')).toBe('an acknowledged choice')
    await restored.close()
  })

  it('says it damaged, not no store, when a file of another lies beside it', async () => {
    const { dir } = await storeHolding({ k: 'an acknowledged choice' })
    await rm(join(dir, 'CURRENT'))
    await writeFile(join(dir, 'nohup.out'), 'started\n')
    await expect(openStores(dir)).rejects.toThrow(`the store in ${dir} is damaged: its file CURRENT is missing, beside its data (`)
  })

  it('refuses a CURRENT that names no manifest, saying what it holds and which to write in it', async () => {
    const { dir } = await storeHolding({ k: 'an acknowledged choice' })
    const manifest = (await readdir(dir)).filter((name) => name.startsWith('MANIFEST-')).sort().pop()
    await writeFile(join(dir, 'CURRENT'), 'garbage\n')
    await expect(openStores(dir)).rejects.toThrow(
      `the store in ${dir} is damaged: its file CURRENT does not name a manifest (it holds "garbage\\n"); nothing was changed: if only CURRENT was lost or damaged, write the name of its newest manifest into it (echo ${manifest} > ${join(dir, 'CURRENT')}), else restore the folder from a backup`,
    )
  })

  it('refuses a CURRENT that names its manifest without its newline or with a CR, as LevelDB does, saying so', async () => {
    const { dir } = await storeHolding({ k: 'an acknowledged choice' })
    const manifest = (await readdir(dir)).filter((name) => name.startsWith('MANIFEST-')).sort().pop() as string
    for (const current of [manifest, `${manifest}\r\n`]) {
      await writeFile(join(dir, 'CURRENT'), current)
      await expect(openStores(dir)).rejects.toThrow(
        `the store in ${dir} is damaged: its file CURRENT names ${manifest} otherwise than LevelDB reads it, the name and one newline (it holds ${JSON.stringify(current)}); nothing was changed: if only CURRENT was lost or damaged, write the name of its newest manifest into it (echo ${manifest} > ${join(dir, 'CURRENT')})`,
      )
    }
    // Which LevelDB refuses as well: the check refuses no store it would open.
    await expect(new Level<string, string>(dir).open()).rejects.toThrow()
  })

  it('opens a folder a store was being made in, with a manifest and no data yet', async () => {
    const dir = await tempFolder()
    await writeFile(join(dir, 'MANIFEST-000001'), '')
    await writeFile(join(dir, '000003.log'), '')
    const { store } = await openStores(dir)
    await store.close()
  })
})

describe('openStores on a store whose log is damaged', () => {
  it('says what LevelDB dropped of it as it opened it, which LevelDB says only in its own LOG', async () => {
    const { dir } = await storeHolding(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'an acknowledged choice '.repeat(40)])))
    const log = (await readdir(dir)).find((name) => name.endsWith('.log')) as string
    const bytes = await readFile(join(dir, log))
    expect(bytes.length).toBeGreaterThan(20_000)
    bytes.fill(0xff, 12_000, 12_200)
    await writeFile(join(dir, log), bytes)

    const { store, loss } = await openStores(dir)
    await store.close()
    expect(loss).toMatch(/^the store in .* was damaged: LevelDB dropped what it could not read as it opened it \(.*\.log: dropping \d+ bytes; Corruption: checksum mismatch\), and the choices recorded there are lost/)
    expect(loss).toContain(dir)

    // Said once: the next open drops nothing more.
    const again = await openStores(dir)
    await again.store.close()
    expect(again.loss).toBeUndefined()
  })
})

/** CRC-32C (Castagnoli), as LevelDB checksums a log's records. */
function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

describe('openStores on a store whose log holds a record LevelDB skips', () => {
  it('says it, though LevelDB writes "Ignoring error", not "dropping", in its LOG', async () => {
    const { dir } = await storeHolding({ k: 'an acknowledged choice' })
    // A record whose checksum holds, holding a batch of one entry with an unknown tag.
    const batch = Buffer.alloc(13)
    batch.writeUInt32LE(9, 0)
    batch.writeUInt32LE(1, 8)
    batch[12] = 0x09
    const crc = crc32c(Buffer.concat([Buffer.from([1]), batch]))
    const header = Buffer.alloc(7)
    header.writeUInt32LE(((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0, 0)
    header.writeUInt16LE(batch.length, 4)
    header[6] = 1
    const log = (await readdir(dir)).find((name) => name.endsWith('.log')) as string
    await writeFile(join(dir, log), Buffer.concat([await readFile(join(dir, log)), header, batch]))

    const { store, loss } = await openStores(dir)
    await store.close()
    expect(loss).toBe(
      `the store in ${dir} was damaged: LevelDB dropped what it could not read as it opened it (a log's record or file skipped: Corruption: unknown WriteBatch tag), and the choices recorded there are lost: if you have a backup of the folder, restore it, with no service running on it`,
    )
  })
})

describe('openStores on a store whose manifest is damaged', () => {
  it('says what to do, beside LevelDB\'s reason', async () => {
    const { dir } = await storeHolding({ k: 'v' })
    const manifest = (await readdir(dir)).filter((name) => name.startsWith('MANIFEST-')).sort().pop() as string
    await writeFile(join(dir, manifest), Buffer.alloc(64, 0xab))
    await expect(openStores(dir)).rejects.toThrow(
      `cannot open the store in ${dir}: Database failed to open: Corruption: no meta-nextfile entry in descriptor: the store is damaged; nothing was changed: restore the folder from a backup`,
    )
  })
})

type Sublevel = ReturnType<Level<string, string>['sublevel']>

describe('watchStore on a store whose table file is damaged', () => {
  /** A store whose data is in one table file, which `damage` then spoils. */
  async function damagedStore(damage: (file: string) => Promise<void>) {
    const dir = await tempFolder()
    const db = new Level<string, string>(dir)
    const users = db.sublevel<string, string>('users', {})
    await db.open()
    for (let i = 0; i < 30; i++) await users.put(`k${String(i).padStart(2, '0')}`, 'an acknowledged choice '.repeat(10))
    await db.close()
    await db.open() // the log written into a table file
    await db.close()
    const table = (await readdir(dir)).find((name) => name.endsWith('.ldb')) as string
    expect(table).toBeDefined()
    await damage(join(dir, table))
    return { dir, table }
  }

  it.each([
    ['garbage of its size', { garbage: true, kind: 'damaged', reason: /^Corruption: / }],
    ['cut short', { garbage: false, kind: 'unreadable', reason: /^IO error: \d+\.ldb: / }],
  ] as const)('says a read that met it (%s) until the service is restarted, without the folder', async (_name, { garbage, kind, reason }) => {
    const { dir } = await damagedStore(async (file) => {
      const bytes = await readFile(file)
      await writeFile(file, garbage ? Buffer.alloc(bytes.length, 'not a table ') : bytes.subarray(0, 300))
    })
    const db = new Level<string, string>(dir, LEVEL_OPTIONS)
    const health = watchStore(db, dir)
    await db.open()
    try {
      const users = db.sublevel<string, string>('users', {})
      expect(health.failure()).toBeUndefined()
      await expect(users.get('k01')).rejects.toMatchObject({ code: kind === 'damaged' ? 'LEVEL_CORRUPTION' : 'LEVEL_IO_ERROR' })
      const failure = health.failure()
      expect(failure?.kind).toBe(kind)
      expect(failure?.reason).toMatch(reason)
      expect(failure?.reason).not.toContain(dir)
      // A write that succeeds does not make it well: the file is still damaged.
      await users.put('new', 'v')
      expect(health.failure()).toEqual(failure)
    } finally {
      await db.close()
    }
  })

  it('says a read through an iterator or getMany that met it', async () => {
    const { dir } = await damagedStore((file) => writeFile(file, 'not a table '.repeat(100)))
    for (const read of [
      (users: Sublevel) => users.iterator().all(),
      async (users: Sublevel) => {
        for await (const _ of users.values()) void _
      },
      (users: Sublevel) => users.keys({ limit: 1 }).next(),
      (users: Sublevel) => users.getMany(['k01', 'k02']),
    ]) {
      const db = new Level<string, string>(dir)
      const health = watchStore(db, dir)
      await db.open()
      try {
        await expect(read(db.sublevel<string, string>('users', {}) as never)).rejects.toMatchObject({ code: 'LEVEL_CORRUPTION' })
        expect(health.failure()?.kind).toBe('damaged')
      } finally {
        await db.close()
      }
    }
  })
})

describe('watchStore on writes', () => {
  it('keeps a write LevelDB refused as damaged until restart, and a failed write only until one succeeds', async () => {
    const db = new MemoryLevel<string, string>()
    const health = watchStore(db as never, '/srv/dm')
    await db.open()
    const internals = db as unknown as { _put: (...args: unknown[]) => Promise<void> }
    const put = internals._put
    internals._put = async () => {
      throw Object.assign(new Error('IO error: /srv/dm/000056.ldb: No space left on device'), { code: 'LEVEL_IO_ERROR' })
    }
    await expect(db.put('k', 'v')).rejects.toThrow()
    expect(health.failure()).toEqual({ kind: 'write', reason: 'IO error: 000056.ldb: No space left on device' })
    internals._put = put
    await db.put('k', 'v')
    expect(health.failure()).toBeUndefined()
    // A compaction that met a damaged file: LevelDB refuses every write with its reason after it.
    internals._put = async () => {
      throw Object.assign(new Error('Corruption: block checksum mismatch: /srv/dm/000007.ldb'), { code: 'LEVEL_CORRUPTION' })
    }
    await expect(db.put('k', 'v')).rejects.toThrow()
    internals._put = put
    await db.put('k', 'v')
    expect(health.failure()).toEqual({ kind: 'damaged', reason: 'Corruption: block checksum mismatch: 000007.ldb' })
  })
})

describe('the folder of a new store', () => {
  it.skipIf(process.platform === 'win32')("is its owner's only, as the hook's spool folder is", async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const dir = join(parent, 'data')
    const { store } = await openStores(dir)
    await store.close()
    expect((await stat(dir)).mode & 0o777).toBe(0o700)
  })

  it.skipIf(process.platform === 'win32')('is said to be readable by others when a folder there already lets them in, and not when made', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const made = join(parent, 'made')
    const { store } = await openStores(made)
    await store.close()
    expect(await storeFolderExposure(made)).toBeUndefined()
    const existing = join(parent, 'existing')
    await mkdir(existing)
    await chmod(existing, 0o755)
    expect(await storeFolderExposure(existing)).toBe(
      `the store's folder ${existing} may be read by other accounts (mode 755), and every user's choices with it, whatever tokens the service asks for: make it its owner's only (chmod 700)`,
    )
    await chmod(existing, 0o710)
    expect(await storeFolderExposure(existing)).toMatch(/mode 710/)
    await chmod(existing, 0o700)
    expect(await storeFolderExposure(existing)).toBeUndefined()
  })

  it.skipIf(process.platform === 'win32')('makes the folders above it that are missing as any folder is made, not private', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const dir = join(parent, 'shared', 'dm', 'data')
    const { store } = await openStores(dir)
    await store.close()
    await mkdir(join(parent, 'plain'))
    const plain = (await stat(join(parent, 'plain'))).mode & 0o777
    expect(await Promise.all([join(parent, 'shared'), join(parent, 'shared', 'dm'), dir].map(async (d) => (await stat(d)).mode & 0o777))).toEqual([plain, plain, 0o700])
  })

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('says which folder it may not make, not EACCES alone', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const closed = join(parent, 'closed')
    await mkdir(closed, { mode: 0o500 })
    const dir = join(closed, 'dm', 'data')
    await expect(openStores(dir)).rejects.toThrow(
      `cannot make the store in ${dir}: no permission to make ${join(closed, 'dm')} (EACCES): make it beforehand, owned by the account the command runs as`,
    )
  })

  it('says a store path that is a file, or under one, in one line', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const file = join(parent, 'a-file')
    await writeFile(file, 'x')
    for (const dir of [file, join(file, 'data')]) {
      await expect(openStores(dir)).rejects.toThrow(`cannot make the store in ${dir}: it, or a folder above it, is a file, not a folder`)
    }
  })

  it('quotes a store path with a space for the shell, as the user would give it again', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const dir = join(parent, 'my data')
    const { store } = await openStores(dir)
    try {
      await expect(openStores(dir)).rejects.toThrow(`the store in '${dir}' is in use by another process`)
    } finally {
      await store.close()
    }
    const file = join(parent, 'a file')
    await writeFile(file, 'x')
    await expect(openStores(file)).rejects.toThrow(`cannot make the store in '${file}': it, or a folder above it, is a file`)
  })

  it.skipIf(process.platform === 'win32')('keeps the mode of a folder that was there already', async () => {
    const dir = await tempFolder()
    await chmod(dir, 0o750)
    const { store } = await openStores(dir)
    await store.close()
    expect((await stat(dir)).mode & 0o777).toBe(0o750)
  })
})

describe('undoing the store a start made (serve, its listen failed after)', () => {
  const noTurn = async () => async () => {}
  /** Makes the store in `dir` as serve does: opened, marked, closed. */
  async function made(dir: string): Promise<void> {
    const { store } = await openStores(dir)
    await markServedBy(dir, '0123456789abcdef')
    await store.close()
  }

  it('removes the store and the folders made for it, up to the first that was there', async () => {
    const parent = await tempFolder()
    const dir = join(parent, 'new', 'data')
    const undo = undoStoreMaking(dir)
    await made(dir)
    await undo(async () => {}, noTurn)
    expect(await readdir(parent)).toEqual([])
  })

  it('removes only what it made from a folder that was there, and leaves the folder', async () => {
    const dir = await tempFolder()
    await writeFile(join(dir, 'spool.ndjson'), '{"an":"event"}\n')
    const undo = undoStoreMaking(dir)
    await made(dir)
    // Put there by another meanwhile: not the start's to remove.
    await writeFile(join(dir, 'LOCAL_TURN'), '1 x\n')
    await undo(async () => {}, noTurn)
    expect((await readdir(dir)).sort()).toEqual(['LOCAL_TURN', 'spool.ndjson'])
  })

  it('leaves a folder made for it that holds a file of another', async () => {
    const parent = await tempFolder()
    const dir = join(parent, 'data')
    const undo = undoStoreMaking(dir)
    await made(dir)
    await writeFile(join(dir, 'notes.txt'), 'mine')
    await undo(async () => {}, noTurn)
    expect(await readdir(dir)).toEqual(['notes.txt'])
  })

  it('leaves what a command wrote once the store was closed: the command waits for its turn until the removal is over', async () => {
    const dir = await tempFolder()
    const undo = undoStoreMaking(dir)
    const { store } = await openStores(dir)
    // A command with no service to go through (the listen failed) opens the store itself, in its
    // turn at the folder, the moment the service's lock is gone; it is told when it finds the turn held.
    let refused: () => void = () => {}
    const turnHeld = new Promise<void>((resolve) => (refused = resolve))
    let undone: Promise<void> = Promise.resolve()
    let command: Promise<void> | undefined
    const commandWrites = async () => {
      // Another process's: a turn naming this one's pid is one left over, which it would take over.
      const giveBack = await takeLocalTurn(dir, () => (refused(), undone), 3_000, () => true, Math.random, process.pid + 1)
      const db = new Level<string, string>(dir)
      await db.put('k', 'an acknowledged choice')
      await db.close()
      await giveBack()
    }
    undone = undo(async () => {
      await store.close()
      command = commandWrites()
      // It has written, or it waits for the turn: the removal goes on.
      await Promise.race([command, turnHeld])
    }, takeLocalTurn)
    await undone
    await command
    const db = new Level<string, string>(dir)
    await db.open()
    expect(await db.get('k')).toBe('an acknowledged choice')
    await db.close()
  })

  it('touches nothing of a store that was there', async () => {
    const dir = await tempFolder()
    const db = new Level<string, string>(dir)
    await db.put('k', 'an acknowledged choice')
    await db.close()
    const undo = undoStoreMaking(dir)
    await made(dir)
    const after = (await readdir(dir)).sort()
    await undo(async () => {}, noTurn)
    expect((await readdir(dir)).sort()).toEqual(after)
    await db.open()
    expect(await db.get('k')).toBe('an acknowledged choice')
    await db.close()
  })
})

describe('the id of the service that holds a store (SERVICE_ID)', () => {
  const ID = '0123456789abcdef0123456789abcdef'

  it('is read back from the folder it was written in, under another name of it too', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const dir = join(parent, 'data')
    const { store } = await openStores(dir)
    await markServedBy(dir, ID)
    expect(await servedBy(dir)).toBe(ID)
    expect(await servedBy(join(parent, '.', 'data'))).toBe(ID)
    await store.close()
    // Moved, it is the same folder still.
    await rename(dir, join(parent, 'moved'))
    expect(await servedBy(join(parent, 'moved'))).toBe(ID)
  })

  it('names no service in a copy of the folder (a backup of a running store), which no service holds', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    const dir = join(parent, 'data')
    const { store } = await openStores(dir)
    await markServedBy(dir, ID)
    await cp(dir, join(parent, 'copy'), { recursive: true })
    expect(await servedBy(join(parent, 'copy'))).toBeUndefined()
    expect(await servedBy(dir)).toBe(ID)
    await store.close()
  })

  it('takes a file written before the folder was named in it (an earlier version) at its word', async () => {
    const dir = await tempFolder()
    await writeFile(join(dir, SERVICE_ID_FILE), `${ID}\n`)
    expect(await servedBy(dir)).toBe(ID)
  })

  it('holds the id alone, as a command of an earlier version reads it whole and sends it in a header', async () => {
    const dir = await tempFolder()
    await markServedBy(dir, ID)
    expect(await readFile(join(dir, SERVICE_ID_FILE), 'utf8')).toBe(`${ID}\n`)
  })

  it('reads the folder a service of the version before wrote as a second line of SERVICE_ID', async () => {
    const dir = await tempFolder()
    const { ino } = await stat(dir, { bigint: true })
    await writeFile(join(dir, SERVICE_ID_FILE), `${ID}\nfolder ${ino}\n`)
    expect(await servedBy(dir)).toBe(ID)
    await writeFile(join(dir, SERVICE_ID_FILE), `${ID}\nfolder ${ino + 1n}\n`)
    expect(await servedBy(dir)).toBeUndefined()
  })

  it('takes at its word an id that a service from before the folder was kept wrote over a copy', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(parent)
    await mkdir(join(parent, 'data'))
    await markServedBy(join(parent, 'data'), ID)
    await cp(join(parent, 'data'), join(parent, 'copy'), { recursive: true })
    // That service writes SERVICE_ID alone: the SERVICE_FOLDER copied from the original is not its.
    await writeFile(join(parent, 'copy', SERVICE_ID_FILE), 'fedcba9876543210fedcba9876543210\n')
    expect(await readFile(join(parent, 'copy', SERVICE_FOLDER_FILE), 'utf8')).toContain(ID)
    expect(await servedBy(join(parent, 'copy'))).toBe('fedcba9876543210fedcba9876543210')
  })
})

describe('openStores on a folder of other files', () => {
  it('makes no store among them (a project given as --data), says which file, and writes nothing there', async () => {
    const dir = await tempFolder()
    await writeFile(join(dir, 'README.md'), '# my project\n')
    const failure = await openStores(dir).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(StoreOpenError)
    expect((failure as Error).message).toBe(
      `there is no store in ${dir}, and it holds files that are not a store's (README.md): give an empty folder, or one not there yet, for a new store`,
    )
    expect(await readdir(dir)).toEqual(['README.md'])
  })

  it('opens a store with a file of its owner beside it, and an empty folder as a new store', async () => {
    const dir = await tempFolder()
    const made = await openStores(dir)
    await made.store.close()
    // A note left in the store's folder by its operator: the folder is a store all the same.
    await writeFile(join(dir, 'NOTES.txt'), 'backed up on Monday\n')
    const again = await openStores(dir)
    await again.store.close()
    expect(await readdir(dir)).toContain('CURRENT')
  })

  it("makes the store in the hook's spool folder (~/.decision-memory) after a hook spooled there", async () => {
    const dir = await tempFolder()
    // What a hook leaves there while no service runs: the spool, its refused events, a drain's claim.
    for (const name of ['spool.ndjson', 'spool.ndjson.rejected', 'spool.ndjson.4242.0a1b2c3d.draining']) await writeFile(join(dir, name), '')
    const { store } = await openStores(dir)
    await store.close()
    expect(await readdir(dir)).toContain('CURRENT')
  })

  it('makes the store in a folder that holds only what a file manager leaves in it (.DS_Store)', async () => {
    const dir = await tempFolder()
    await writeFile(join(dir, '.DS_Store'), '')
    const { store } = await openStores(dir)
    await store.close()
    expect(await readdir(dir)).toContain('CURRENT')
  })
})
