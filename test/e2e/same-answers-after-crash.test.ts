import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadPolicy } from '../../src/config/load-policy'
import { startService } from '../support/service-process'
import { createTestApp } from '../support/test-app'
import { seededRandom } from '../support/crash-cycles'

const DAY = 86_400_000
const NOW = Date.now()
const T0 = NOW - 60_000
const TIER = ['Tier S', 'Tier M', 'Tier L']
const MULTI = ['Lint', 'Test', 'Docs', 'Bench']
function workload(seed: number) {
  const r = seededRandom(seed)
  const out: any[] = []
  for (let i = 0; i < 600; i++) {
    const at = T0 - (r() < 0.5 ? r() * 20 : r() * 150) * DAY
    const project = r() < 0.6 ? 'acme/api' : r() < 0.8 ? 'acme/web' : r() < 0.5 ? 'acme/cli' : undefined
    const phase = r() < 0.5 ? 'run' : 'plan'
    const base: any = { user: 'alice', decision_id: `d-${i}`, timestamp: new Date(at).toISOString(), session_id: `s-${Math.floor(r() * 14)}`, context: { phase } }
    if (project) base.project = project
    const k = r()
    if (k < 0.5) out.push({ ...base, point: 'tier', question: 'Which tier?', all_options: TIER, user_choice: phase === 'plan' ? (r() < 0.85 ? 'Tier L' : 'Tier S') : r() < 0.7 ? 'Tier M' : 'Tier S' })
    else if (k < 0.75) {
      const chosen = MULTI.filter((_, j) => r() < [0.8, 0.6, 0.3, 0.1][j]!)
      out.push({ ...base, point: 'checks', question: 'Which checks?', all_options: MULTI, user_choice: chosen.length ? chosen : ['Lint'], multi_select: true })
    } else out.push({ ...base, point: `p-${Math.floor(r() * 5)}`, question: 'Which tier?', all_options: TIER, user_choice: TIER[Math.floor(r() * 3)] })
  }
  return out
}
function requests(asOf: string) {
  const out: any[] = []
  for (const as_of of [asOf, new Date(T0 - 10 * DAY).toISOString(), new Date(T0 - 60 * DAY).toISOString()])
    for (const project of [undefined, 'acme/api', 'acme/cli'])
      for (const context of [undefined, { phase: 'plan' }]) {
        out.push({ point: 'tier', question: 'Which tier?', all_options: TIER, project, context, as_of })
        out.push({ point: 'checks', question: 'Which checks?', all_options: MULTI, project, context, multi_select: true, as_of })
        for (let p = 0; p < 5; p++) out.push({ point: `p-${p}`, question: 'Which tier?', all_options: TIER, project, context, as_of })
      }
  return out.map((x) => JSON.parse(JSON.stringify({ user: 'alice', ...x })))
}

async function post(url: string, path: string, body: unknown) {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}

/**
 * The real service on a policy file of its own (a core of two entries, answers not kept): killed
 * with SIGKILL while four clients post observations and ask for recommendations, restarted, sent
 * again what was not acknowledged (as a hook retries), answers as an in-memory reference over the
 * same observations does, now and as of earlier moments, and again after a clean restart (R-SVC-3).
 */
describe('kill -9 mid-load, then the same answers as a reference', () => {
  it('after a restart on the same data, and another', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-x-'))
    const policyFile = join(dir, 'tight.yaml')
    await writeFile(policyFile, 'core: { max_entries: 2 }\ncache: { seconds: 0 }\nthresholds: { min_observations: 4, sufficient_observations: 12 }\n')
    const dataDir = join(dir, 'data')
    const obs = workload(5)
    let svc = await startService({ dataDir, args: ['--policy', policyFile] })
    try {
    const acked = new Set<number>()
    const batches: number[][] = []
    for (let i = 0; i < obs.length; i += 5) batches.push(Array.from({ length: Math.min(5, obs.length - i) }, (_, j) => i + j))
    let next = 0
    const pid = svc.child.pid!
    let killed = false
    const worker = async () => {
      while (next < batches.length && !killed) {
        const b = batches[next++]!
        try {
          const r = await post(svc.url, '/v1/observations', b.map((i) => obs[i]))
          if (r.status === 201) for (const i of b) acked.add(i)
          if (acked.size > 300 && !killed) { killed = true; process.kill(pid, 'SIGKILL') }
          // interleave reads so that points go in and out of core
          await post(svc.url, '/v1/recommendations', requests(new Date().toISOString())[next % 20])
        } catch { /* cut off */ }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
    expect((await svc.exited).signal).toBe('SIGKILL')
    svc = await startService({ dataDir, args: ['--policy', policyFile] })
    // resend everything not acknowledged, as a hook would
    const rest = obs.map((_, i) => i).filter((i) => !acked.has(i))
    for (let i = 0; i < rest.length; i += 7) {
      const r = await post(svc.url, '/v1/observations', rest.slice(i, i + 7).map((k) => obs[k]))
      expect(r.status).toBe(201)
    }
    const asOf = new Date().toISOString()
    const reqs = requests(asOf)
    const got: any[] = []
    for (const r of reqs) got.push((await post(svc.url, '/v1/recommendations', r)).body)
    await svc.stop('SIGTERM')
    svc = await startService({ dataDir, args: ['--policy', policyFile] })
    const got2: any[] = []
    for (const r of reqs) got2.push((await post(svc.url, '/v1/recommendations', r)).body)
    const exported = await (await fetch(svc.url + '/v1/users/alice/export')).text()
    await svc.stop('SIGTERM')
    const ids = new Map<string, string>()
    for (const line of exported.split('\n').filter(Boolean)) { const e = JSON.parse(line); const o = e.type === "observation" ? e.data : {}; if (o.id && o.decision_id) ids.set(o.id, o.decision_id) }

    const ref = await createTestApp({ now: new Date(Date.parse(asOf) + 1000).toISOString(), policy: await loadPolicy(policyFile) })
    await ref.memory.observe([...obs].sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1)).map((o) => ({ source: 'user', ...o })))
    const refIds = new Map<string, string>()
    for await (const o of ref.store.observationsOf('alice')) refIds.set(o.id, o.decision_id as string)
    const norm = (b: any, m: Map<string, string>) => { const c = structuredClone(b); c.evidence = c.evidence?.map((x: string) => m.get(x) ?? x);  return c }
    for (let i = 0; i < reqs.length; i++) {
      const want = norm((await ref.call('POST', '/v1/recommendations', reqs[i])).body, refIds)
      expect({ i, r: reqs[i], a: norm(got[i], ids) }).toEqual({ i, r: reqs[i], a: want })
      expect({ i, r: reqs[i], a: norm(got2[i], ids) }).toEqual({ i, r: reqs[i], a: want })
    }
    } finally {
      await svc.stop('SIGKILL')
      await rm(dir, { recursive: true, force: true })
    }
  })
})
