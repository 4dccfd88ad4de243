import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStores, StoreOpenError } from './open-store'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('openStores on a store LevelDB cannot open', () => {
  it("says LevelDB's reason, not only that the database failed to open", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-open-'))
    dirs.push(dir)
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
