import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy, parsePolicy } from '../src/config/load-policy'
import { seededRandom } from './support/crash-cycles'
import { createTestApp, START } from './support/test-app'

const DAY = 86_400_000
const T0 = Date.parse(START)
const TIER = ['Tier S', 'Tier M', 'Tier L']
const DB = ['Postgres', 'SQLite', 'MySQL']
const EFFORT = ['Low', 'Medium', 'High']
const USERS = ['alice', 'bob']

/** Weeks of two users' choices in sessions of two projects: a policy point, a point keyed by its text, a named point. */
function history() {
  const r = seededRandom(3)
  const sessions = USERS.flatMap((user) =>
    Array.from({ length: 12 }, (_, s) => ({ user, session_id: `${user}-${s}`, project: s % 3 === 0 ? 'acme/web' : 'acme/api', started_at: new Date(T0 - (70 - s * 5) * DAY).toISOString() })),
  )
  const observations = Array.from({ length: 240 }, (_, i) => {
    const s = sessions[(i * 7 + Math.floor(r() * 5)) % sessions.length]!
    const phase = r() < 0.5 ? 'plan' : 'run'
    const base = {
      user: s.user, session_id: s.session_id, project: s.project, decision_id: `d-${i}`, context: { phase, stage: i % 20 < 9 ? 'build' : i % 20 < 15 ? 'test' : 'ship' },
      timestamp: new Date(Math.min(Date.parse(s.started_at) + r() * 4 * DAY, T0 - 1000)).toISOString(),
      source: r() < 0.1 ? 'auto-resolved' : 'user',
    }
    const k = r()
    if (k < 0.45) return { ...base, question: 'Which complexity tier?', all_options: TIER, user_choice: phase === 'plan' ? (r() < 0.8 ? 'Tier L' : 'Tier S') : r() < 0.7 ? 'Tier M' : 'Tier S' }
    if (k < 0.8) return { ...base, question: 'Which database should we use?', all_options: DB, user_choice: r() < 0.6 ? 'Postgres' : 'SQLite' }
    return { ...base, point: 'effort-level', question: 'How much effort?', all_options: EFFORT, user_choice: r() < 0.85 ? 'High' : 'Low' }
  })
  return { sessions, observations }
}

type App = Awaited<ReturnType<typeof createTestApp>>
const HISTORY = history()

async function feed(app: App, from: number, to: number) {
  for (const s of HISTORY.sessions) expect((await app.call('POST', '/v1/sessions', s)).status).toBeLessThan(300)
  const res = await app.call('POST', '/v1/observations', HISTORY.observations.slice(from, to))
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  if (from > 0) return
  const decision = { key: 'D-001', title: 'High effort', decision: 'Use high effort', rationale: 'r', status: 'accepted', scope: { points: ['effort-level'] }, constraints: [{ kind: 'prefer', option: 'High' }] }
  expect((await app.call('POST', '/v1/decisions', decision)).status).toBeLessThan(300)
}

/** Every answer a user sees: recommendations (now and as of before), preferences, why, and the export's observations and sessions. */
async function answers(app: App) {
  const ids = new Map<string, string>()
  for (const u of USERS) for await (const o of app.store.observationsOf(u)) ids.set(o.id, o.decision_id as string)
  const same = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (typeof v === 'string' && ids.has(v) ? ids.get(v) : k === 'recorded_at' || k === 'request_id' || k === 'id' ? undefined : v)))
  const out: Record<string, unknown> = {}
  for (const user of [...USERS, 'carol'])
    for (const as_of of [undefined, new Date(T0 - 20 * DAY).toISOString()])
      for (const project of [undefined, 'acme/web'])
        for (const session_id of [undefined, `${user}-11`])
          for (const [question, all_options, point] of [['Which complexity tier?', TIER], ['Which database should we use?', DB], ['How much effort?', EFFORT, 'effort-level']] as const) {
            const request = JSON.parse(JSON.stringify({ user, point, question, all_options, project, session_id, as_of, context: { phase: 'plan' } }))
            out[`recommend ${JSON.stringify(request)}`] = same((await app.call('POST', '/v1/recommendations', request)).body)
          }
  for (const user of USERS) {
    const preferences = (await app.call('GET', `/v1/users/${user}/preferences`)).body
    out[`preferences ${user}`] = same(preferences)
    out[`preferences ${user} as of`] = same((await app.call('GET', `/v1/users/${user}/preferences?as_of=${new Date(T0 - 20 * DAY).toISOString()}`)).body)
    for (const { point } of preferences.points) out[`why ${user} ${point}`] = same((await app.call('GET', `/v1/why?user=${user}&point=${point}&session_id=${user}-11`)).body)
    const exported = (await (await app.app.request(`/v1/users/${user}/export`)).text()).trim().split('\n').map((line) => JSON.parse(line))
    out[`export ${user}`] = same(exported.filter((line) => line.type === 'observation' || line.type === 'session'))
  }
  return out
}

const policy = async (fields: object) => {
  const { readFile } = await import('node:fs/promises')
  return parsePolicy(JSON.stringify({ cache: { seconds: 0 }, ...fields }), 'mine.json', JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8')))
}

/**
 * A user edits the policy and restarts the service on the same store (README, Policies): what it
 * answers then is what a fresh service run on the edited policy answers for the same history, and
 * so again once they switch back; nothing stored is lost, a decay scan between or not.
 */
describe('a policy edited between two runs of the service on one store', async () => {
  const defaults = JSON.parse(await (await import('node:fs/promises')).readFile(DEFAULT_POLICY_FILE, 'utf8'))
  const A = await loadPolicy(DEFAULT_POLICY_FILE)
  A.cache.seconds = 0
  const edits: Record<string, object> = {
    'decay.alpha': { decay: { alpha: 0.9 } },
    'core.max_entries below the aggregates in core': { core: { max_entries: 2 } },
    'layers.recent_sessions': { layers: { recent_sessions: 1 } },
    'context.precondition_share': { context: { precondition_share: 0.4 } },
    'every number at once, and a static default': {
      decay: { alpha: 0.8 }, recall: { ttl_days: 3 }, core: { max_entries: 3 }, layers: { recent_sessions: 7 },
      thresholds: { min_observations: 2, sufficient_observations: 8 }, confidence: { high: 0.9, medium_high: 0.6, medium: 0.4 },
      ask: { auto_resolve_p: 0.6, check_in_after: 2 }, expertise: { beginner_below: 2, expert_above: 5 },
      change: { window_days: 7, significance: 0.2 }, context: { precondition_share: 0.4, significance: 0.3 }, scan: { cadence_hours: 1, cron: '0 * * * *' },
      points: defaults.points.map((p: { key: string }) => (p.key === 'complexity-tier' ? { ...p, static_default: 'Tier L' } : p)),
    },
  }
  for (const [edit, fields] of Object.entries(edits))
    for (const scan of [false, true])
      it(`${edit}${scan ? ', with decay-scan --force at each start' : ''}`, async () => {
        const B = await policy(fields)
        const start = async (p: typeof A, db: MemoryLevel<string, string>) => {
          const app = await createTestApp({ db, policy: p })
          if (scan) expect((await app.call('POST', '/v1/maintenance/decay-scan', { force: true })).status).toBe(200)
          return app
        }
        const db = new MemoryLevel<string, string>()
        /**
         * Restarted on `db` under `p`, read, then given the choices from `from` to `to`: it answers
         * as a fresh store under `p` given every choice to `to` in the same order of reads.
         */
        const restartedAsFresh = async (p: typeof A, from: number, to: number) => {
          const restarted = await start(p, db)
          await answers(restarted)
          await feed(restarted, from, to)
          const fresh = await createTestApp({ policy: p })
          await feed(fresh, 0, from)
          await answers(fresh)
          await feed(fresh, from, to)
          expect(await answers(restarted)).toEqual(await answers(fresh))
        }
        const first = await start(A, db)
        await feed(first, 0, 180)
        await answers(first) // the points in core, built under A
        await restartedAsFresh(B, 180, 210)
        await restartedAsFresh(A, 210, 240)
      })
})

describe('what a choice is read as when it is recorded stays so under an edited policy (README, Policies)', () => {
  it("a point's multi_select reads the choices recorded since; a joined answer recorded before stays free text", async () => {
    const { readFile } = await import('node:fs/promises')
    const defaults = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const checks = { key: 'checks', match: { question: 'which checks' } }
    const db = new MemoryLevel<string, string>()
    const choice = (decision_id: string) => ({ user: 'alice', decision_id, question: 'Which checks should run?', all_options: ['Lint', 'Test', 'Docs'], user_choice: 'Lint, Test' })
    const before = await createTestApp({ db, policy: await policy({ points: [...defaults.points, checks] }) })
    expect((await before.call('POST', '/v1/observations', choice('d-1'))).status).toBe(201)
    const after = await createTestApp({ db, policy: await policy({ points: [...defaults.points, { ...checks, multi_select: true }] }) })
    expect((await after.call('POST', '/v1/observations', choice('d-2'))).status).toBe(201)
    const exported = (await (await after.app.request('/v1/users/alice/export')).text()).trim().split('\n').map((line) => JSON.parse(line))
    const stored = exported.filter((line) => line.type === 'observation').map(({ data }) => [data.decision_id, data.point, data.chosen, data.other, data.multi_select])
    expect(stored.sort()).toEqual([
      ['d-1', 'checks', [], 'Lint, Test', false],
      ['d-2', 'checks', ['Lint', 'Test'], null, true],
    ])
  })
})
