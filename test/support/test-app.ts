import { MemoryLevel } from 'memory-level'
import pino from 'pino'
import { fixedClock } from '../../src/clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../../src/config/load-policy'
import type { TokenTable } from '../../src/config/load-tokens'
import { createDecisionMemory } from '../../src/decision-memory'
import type { CompiledPolicy } from '../../src/domain/policy'
import { createApp } from '../../src/http/app'
import { createLevelStore } from '../../src/memory/level-store'

export const START = '2026-07-01T10:00:00.000Z'

/** The real app over memory-level, a clock that stands still, and a silent logger. */
export async function createTestApp(options: { now?: string; policy?: CompiledPolicy; auth?: TokenTable } = {}) {
  const clock = fixedClock(options.now ?? START)
  const store = await createLevelStore(new MemoryLevel<string, string>() as never)
  const policy = options.policy ?? (await loadPolicy(DEFAULT_POLICY_FILE))
  const memory = createDecisionMemory({ store, policy, clock })
  const app = createApp({ memory, logger: pino({ level: 'silent' }), version: 'test', auth: options.auth })
  /** POST/PUT JSON (with extra headers, e.g. authorization) and parse the answer. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await app.request(path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await response.text()
    let json: any
    try {
      json = text === '' ? null : JSON.parse(text)
    } catch {
      json = text
    }
    return { status: response.status, body: json }
  }
  return { app, clock, store, policy, memory, call }
}
