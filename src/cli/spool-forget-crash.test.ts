import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/support/temp-dir'

/** A forget that dies when it goes to put the others' events back in the spool (`open` of `dies`). */
const crash = vi.hoisted(() => ({ dies: '' }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      if (args[0] === crash.dies) throw Object.assign(new Error('killed'), { code: 'EKILLED' })
      return real.open(...args)
    },
  }
})

const { appendToRejected, appendToSpool, forgetInSpool, recordSetAside, rejectedFile } = await import('./spool')

describe('a forget killed midway in the spool (R-SVC-5)', () => {
  it('leaves a claim without the user’s events, for the next drain to deliver the others’', async () => {
    const file = join(tempDir('dm-spool-forget-'), 'spool.ndjson')
    await appendToSpool(file, { at: '2026-07-01T10:00:00.000Z', user: 'dave', payload: { id: 1 } })
    await appendToSpool(file, { at: '2026-07-01T10:01:00.000Z', user: 'erin', payload: { id: 2 } })
    crash.dies = file
    await expect(forgetInSpool(file, 'dave')).rejects.toThrow('killed')
    crash.dies = ''
    const dir = join(file, '..')
    const claims = (await readdir(dir)).filter((n) => n.endsWith('.draining'))
    expect(claims).toHaveLength(1)
    const users = (await readFile(join(dir, claims[0] as string), 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { user: string }).user)
    expect(users).toEqual(['erin'])
  })
})

describe('a move of the captures set aside into a spool that cannot be written (hook --record-set-aside)', () => {
  it('puts every line back in the .rejected file, leaving no claim', async () => {
    const file = join(tempDir('dm-spool-move-'), 'spool.ndjson')
    await appendToRejected(file, { at: '2026-07-01T10:00:00.000Z', user: 'default', payload: { id: 1 }, user_in_doubt: ['dave'] })
    await appendToRejected(file, { at: '2026-07-01T10:01:00.000Z', user: 'erin', payload: { id: 2 } })
    const before = await readFile(rejectedFile(file), 'utf8')
    crash.dies = file
    await expect(recordSetAside(file, 'dave')).rejects.toThrow('killed')
    crash.dies = ''
    expect(await readFile(rejectedFile(file), 'utf8')).toBe(before)
    expect(await readdir(join(file, '..'))).toEqual(['spool.ndjson.rejected'])
  })
})
