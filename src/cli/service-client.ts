import { resolve } from 'node:path'
import { systemClock } from '../clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { createDecisionMemory, type DecisionMemory } from '../decision-memory'
import { openStore } from '../open-store'
import { serviceUrl } from './options'

/** An answer of the running service, or of the store opened here when none runs. */
export interface Answer {
  status: number
  body: unknown
  via: 'service' | 'local'
}

/**
 * Runs a use case through the running service when there is one (LevelDB lets one process open
 * the store), and otherwise against the store opened here. Both paths end in the same function
 * of DecisionMemory.
 */
export async function throughServiceOrLocal(request: {
  method: string
  path: string
  body?: unknown
  local: (memory: DecisionMemory) => Promise<unknown>
  dataDir?: string | undefined
  policyFile?: string | undefined
  /** How long to wait for the service (default 5 s). */
  timeoutMs?: number
}): Promise<Answer> {
  const url = serviceUrl() + request.path
  try {
    const response = await fetch(url, {
      method: request.method,
      headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs ?? 5_000),
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : JSON.parse(text), via: 'service' }
  } catch (error) {
    if (!isConnectionRefused(error)) throw error
  }
  const policy = await loadPolicy(resolve(request.policyFile ?? DEFAULT_POLICY_FILE))
  const store = await openStore(resolve(request.dataDir ?? process.env.DECISION_MEMORY_DATA ?? 'data'), policy)
  try {
    const memory = createDecisionMemory({ store, policy, clock: systemClock })
    return { status: 200, body: await request.local(memory), via: 'local' }
  } finally {
    await store.close()
  }
}

function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause
  return cause?.code === 'ECONNREFUSED'
}
