import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { createApp } from './app'

describe('POST /v1/maintenance/decay-scan while the service stops', () => {
  it('answers 503 "stopping" for a scan the stop aborted, logged as a warning, not as a bug', async () => {
    const t = await createTestApp()
    await t.call('POST', '/v1/observations', { user: 'alice', question: 'Which tier?', all_options: ['Tier S', 'Tier M'], user_choice: 'Tier M', source: 'user' })
    const lines: Array<{ level: number; msg: string }> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    // As serve.ts wires it: the scan gets the stop's signal, here already aborted.
    const stopped = AbortSignal.abort()
    const app = createApp({
      memory: { ...t.memory, decayScan: (input = {}) => t.memory.decayScan({ ...input, signal: stopped }) },
      logger,
      version: 'test',
      decisions: t.decisions,
    })
    const response = await app.request('/v1/maintenance/decay-scan', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"force":true}' })
    expect(response.status).toBe(503)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('stopping')
    expect(lines.filter((l) => l.level >= 50)).toEqual([])
    expect(lines.some((l) => l.level === 40 && l.msg === 'stopped by the service stopping')).toBe(true)
  })
})
