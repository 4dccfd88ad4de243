import { expect } from 'vitest'
import type { createTestApp } from './test-app'
import { START } from './test-app'

type Call = Awaited<ReturnType<typeof createTestApp>>['call']

let made = 0
/**
 * Observations of `question` as the wire takes them, `count` of each choice in the order given, all
 * at START (unless `extra` says otherwise), each with a decision id of its own (`prefix-N`).
 */
export function choices(prefix: string, question: Record<string, unknown>, spec: Array<[unknown, number]>, extra: Record<string, unknown> = {}) {
  const out: Array<Record<string, unknown>> = []
  for (const [choice, count] of spec) {
    for (let i = 0; i < count; i++) out.push({ ...question, user_choice: choice, decision_id: `${prefix}-${made++}`, timestamp: START, ...extra })
  }
  return out
}

/** Posts observations and expects them all stored (201). */
export async function record(call: Call, observations: Array<Record<string, unknown>>) {
  const { status, body } = await call('POST', '/v1/observations', observations)
  expect(status, JSON.stringify(body)).toBe(201)
}
