import { MemoryLevel } from 'memory-level'
import pino, { type Logger } from 'pino'
import { fixedClock } from '../../src/clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../../src/config/load-policy'
import type { TokenTable } from '../../src/config/load-tokens'
import { createDecisionMemory } from '../../src/decision-memory'
import { createDecisions } from '../../src/decisions/decisions'
import { createLevelDecisionStore } from '../../src/decisions/level-decision-store'
import { matchWithin, type MatchPatterns } from '../../src/decisions/pattern-match'
import type { CompiledPolicy } from '../../src/domain/policy'
import { createApp } from '../../src/http/app'
import { validBodies } from '../../src/http/recommendations'
import { createLevelStore } from '../../src/memory/level-store'
import { watchStore } from '../../src/open-store'

export const START = '2026-07-01T10:00:00.000Z'

/**
 * The real app over memory-level (or the database given), a clock that stands still, and a silent
 * logger (or the one given); the store is opened with the app's policy.
 *
 * A check's must_not patterns run with a first budget of 1 s (the service's is 20 ms), or with the
 * matcher given: that budget is real time, and on a machine loaded many deep a check of fast
 * patterns stalled past 20 ms and the turns after it, leaving a pattern undecided and a test of
 * something else failing (the guard printed nothing for an advisory decision). A test of the
 * turns gives its own clock and turns (pattern-match.test.ts); a slow pattern here costs 1 s more.
 */
export async function createTestApp(
  options: {
    now?: string
    policy?: CompiledPolicy
    auth?: TokenTable
    db?: MemoryLevel<string, string>
    logger?: Logger
    storeId?: string
    matchPatterns?: MatchPatterns
  } = {},
) {
  const clock = fixedClock(options.now ?? START)
  const db = options.db ?? new MemoryLevel<string, string>()
  // As serve does: /healthz says when the store's last write failed, or a read met a damaged file.
  const health = watchStore(db as never)
  const policy = options.policy ?? (await loadPolicy(DEFAULT_POLICY_FILE))
  const store = await createLevelStore(db as never, { policy })
  const decisions = createDecisions({ store: await createLevelDecisionStore(db as never), clock, policy, matchPatterns: options.matchPatterns ?? matchWithin(1_000) })
  const memory = createDecisionMemory({ store, policy, clock, decisions })
  // The bodies the recommendation route remembers, for a test that puts first-path.ts in front of the app.
  const bodies = validBodies()
  const app = createApp({ memory, logger: options.logger ?? pino({ level: 'silent' }), version: 'test', decisions, auth: options.auth, bodies, storeId: options.storeId, storeFailure: health.failure })
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
  return { app, clock, store, policy, memory, decisions, bodies, call }
}
