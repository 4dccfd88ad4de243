import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { crashCycles } from '../support/crash-cycles'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('kill -9 at random moments (R-SVC-3)', () => {
  it('keeps every acknowledged observation exactly once over 20 crash cycles', { timeout: 300_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-crash-'))
    dirs.push(dataDir)
    const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31))
    const report = await crashCycles({ dataDir, cycles: 20, clients: 4, seed })
    // The seed replays this run: CRASH_SEED=<seed> npx vitest run test/e2e/crash-durability.test.ts
    expect(report.problems, `seed ${seed}`).toEqual([])
    expect(report.cycles).toBe(20)
    expect(report.acknowledged).toBeGreaterThanOrEqual(20)
  })
})
