import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { closedPort } from '../../test/support/processes'
import { throughServiceOrLocal } from './service-client'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('throughServiceOrLocal when no service runs', () => {
  it('answers concurrent calls of one process from the store, one after the other', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-local-'))
    const question = { question: 'Which database?', all_options: ['pg', 'mysql'], user: 'alice' }
    // What an agent's parallel tool use sends the MCP server: LevelDB refused the second open.
    const answers = await Promise.all([
      throughServiceOrLocal({
        method: 'POST',
        path: '/v1/observations',
        dataDir,
        local: (memory) => memory.observe([{ ...question, user_choice: 'pg', decision_id: 'd-1', source: 'user' }]),
      }),
      throughServiceOrLocal({ method: 'POST', path: '/v1/recommendations', dataDir, local: (memory) => memory.recommend(question) }),
      throughServiceOrLocal({ method: 'POST', path: '/v1/decisions/check', dataDir, local: (_memory, decisions) => decisions.check({ action: 'ls' }) }),
    ])
    expect(answers.map((a) => [a.status, a.via])).toEqual([
      [200, 'local'],
      [200, 'local'],
      [200, 'local'],
    ])
  })

  it('still answers the next call after one fails', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-local-'))
    const failing = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => Promise.reject(new Error('boom')) })
    const next = throughServiceOrLocal({ method: 'GET', path: '/x', dataDir, local: async () => 'ok' })
    await expect(failing).rejects.toThrow('boom')
    expect((await next).body).toBe('ok')
  })
})
