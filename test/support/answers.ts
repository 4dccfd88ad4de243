import { expect } from 'vitest'
import type { createTestApp } from './test-app'

/**
 * The answers of `app` to each recommendation request, in order, each a 200, with the evidence's
 * observation ids read as their decision ids: the ids a store gives differ from one app to the
 * next, the decision ids are the caller's, so two apps holding the same choices answer alike.
 */
export async function recommendationsOf(app: Awaited<ReturnType<typeof createTestApp>>, requests: readonly object[], user = 'alice') {
  const ids = new Map<string, string>()
  for await (const o of app.store.observationsOf(user)) ids.set(o.id, o.decision_id as string)
  const out = []
  for (const r of requests) {
    const res = await app.call('POST', '/v1/recommendations', r)
    expect(res.status).toBe(200)
    if (Array.isArray(res.body.evidence)) res.body.evidence = res.body.evidence.map((id: string) => ids.get(id) ?? id)
    out.push(res.body)
  }
  return out
}
