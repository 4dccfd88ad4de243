import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { spawnService } from '../../test/support/spawn-service'

describe('decision-memory serve', () => {
  it('says where it listens whatever DECISION_MEMORY_LOG_LEVEL hides: a script finds the port --port 0 chose', async () => {
    for (const level of ['warn', 'silent']) {
      const dataDir = await mkdtemp(join(tmpdir(), 'dm-serve-'))
      // spawnService waits for the `listening` line: without it, this never resolves.
      const service = await spawnService({ dataDir, env: { DECISION_MEMORY_LOG_LEVEL: level } })
      try {
        expect((await fetch(`${service.url}/healthz`)).status, level).toBe(200)
        const listening = service.lines.map((line) => JSON.parse(line) as { event?: string; port?: number })
        expect(listening, level).toEqual([expect.objectContaining({ event: 'listening', port: service.port })])
      } finally {
        await service.stop()
        await rm(dataDir, { recursive: true, force: true })
      }
    }
  })
})
