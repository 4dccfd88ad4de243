import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../src/config/load-policy'
import { compilePolicy } from '../src/domain/policy'
import { seededRandom } from './support/crash-cycles'
import { createTestApp, START } from './support/test-app'

// R-REC-9 as an auditor relies on it: whatever happened since (more choices, sessions started every
// way, toggles, decisions, decay scans past recall's 28 days, core demoted and rebuilt), a replay
// as of the moment of an answer (its as_of, written in any zone) is that answer, field for field:
// a recommendation, a plan, a why, the decision audits, the decisions listed and the preferences.
// What the README says differs is kept out of the history: nothing is written at the very moment
// of an answer, and no observation arrives dated before one already given.

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const T0 = Date.parse(START)
const iso = (ms: number) => new Date(ms).toISOString()

const QUESTIONS = [
  { point: 'complexity-tier', question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] },
  { point: 'db', question: 'Which database?', header: 'DB', all_options: ['pg', 'mysql', 'sqlite'] },
  { point: 'checks', question: 'Which checks should run?', header: 'Checks', all_options: ['Lint', 'Test', 'Docs'], multi_select: true },
  { point: 'queue', question: 'Which queue?', header: 'Queue', all_options: ['Kafka', 'SQS'] },
  { point: 'host', question: 'Where to host?', header: 'Host', all_options: ['fly.io', 'render', 'aws'] },
]
const PROJECTS = ['acme/api', 'acme/web', undefined]
const PHASES = ['plan', 'run']
const PATHS = ['src/billing', 'src/billing/x.ts', 'src/web']

/** An answer as compared: its status and body, but for the id of the request it answered. */
function shown(res: { status: number; body: any }) {
  const { request_id: _id, ...error } = res.body?.error ?? {}
  return { status: res.status, body: res.body?.error === undefined ? res.body : { error } }
}

interface Recorded {
  kind: 'recommendation' | 'plan' | 'why' | 'check' | 'get'
  at: string
  request?: any
  path?: string
  answer: any
}

async function history(seed: number) {
  const base = await loadPolicy(DEFAULT_POLICY_FILE)
  // Two aggregates in core: the five points push each other out, and the scan demotes.
  const policy = compilePolicy({ ...base, core: { max_entries: 2 } })
  const app = await createTestApp({ policy })
  const { call, clock } = app
  const r = seededRandom(seed)
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T
  const sessions: string[] = []
  let serial = 0
  const newSession = () => `s-${seed}-${sessions.push(`s-${seed}-${sessions.length}`) - 1}`
  const someSession = () => (sessions.length === 0 || r() < 0.3 ? newSession() : pick(sessions.slice(-6)))
  const decisions: string[] = []
  const recorded: Recorded[] = []
  let now = T0
  let autoAnswered = 0

  function recommendationRequest() {
    const q = pick(QUESTIONS)
    const project = pick(PROJECTS)
    const { point, multi_select, ...rest } = q
    return {
      ...rest,
      ...(multi_select !== undefined && r() < 0.5 ? { multi_select } : {}),
      ...(r() < 0.7 ? { point } : {}),
      user: 'alice',
      ...(project === undefined ? {} : { project }),
      ...(r() < 0.8 ? { session_id: someSession() } : {}),
      ...(r() < 0.7 ? { context: { phase: pick(PHASES), ...(r() < 0.5 ? { path: pick(PATHS) } : {}) } } : {}),
    }
  }

  for (let step = 0; step < 250; step++) {
    // Time moves on by a minute to three days.
    now += r() < 0.6 ? Math.floor(r() * 3 * HOUR) + MINUTE : Math.floor(r() * 3 * DAY) + MINUTE
    clock.set(iso(now))
    const what = r()
    if (what < 0.45) {
      // A few choices at once, mostly at the first two points, mostly the favourite of the season.
      const batch = []
      const session = someSession()
      const last = recorded.at(-1)
      for (let k = 0; k < 1 + Math.floor(r() * 8); k++) {
        const q = r() < 0.5 ? (QUESTIONS[0] as (typeof QUESTIONS)[number]) : pick(QUESTIONS)
        const project = r() < 0.7 ? 'acme/api' : pick(PROJECTS)
        const phase = pick(PHASES)
        const season = Math.floor((now - T0) / (50 * DAY)) % 2
        // At the tier point, one favourite a season (answered for the user once sure); elsewhere one per phase too.
        const favourite = q.all_options[(q === QUESTIONS[0] || phase === 'run' ? season : 2 - season) % q.all_options.length] as string
        const choice = q.multi_select ? q.all_options.filter((_, j) => r() < [0.9, 0.7, 0.2][j]!) : r() < 0.93 ? favourite : r() < 0.2 ? 'something of my own' : pick(q.all_options)
        const single = q.multi_select && r() < 0.25
        batch.push({
          ...q,
          ...(single ? { multi_select: false } : {}),
          user: 'alice',
          decision_id: `d-${serial++}`,
          user_choice: single ? pick(q.all_options) : Array.isArray(choice) && choice.length === 0 ? ['Lint'] : choice,
          ...(project === undefined ? {} : { project }),
          session_id: session,
          context: { phase },
          source: r() < 0.08 ? 'auto-resolved' : 'user',
          // Now, or a little earlier, never before an answer already recorded (a backfill is documented to differ).
          ...(r() < 0.3 ? { timestamp: iso(Math.max(now - Math.floor(r() * 30 * MINUTE), (last ? Date.parse(last.at) : 0) + 1)) } : {}),
        })
      }
      const res = await call('POST', '/v1/observations', batch)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
    } else if (what < 0.55) {
      const res = await call('POST', '/v1/sessions', { user: 'alice', session_id: newSession(), ...(r() < 0.5 ? { project: pick(['acme/api', 'acme/web']) } : {}) })
      expect(res.status).toBe(201)
    } else if (what < 0.6) {
      const res = await call('POST', `/v1/hooks/claude-code?user=alice&project=acme%2Fapi`, { hook_event_name: 'SessionStart', session_id: newSession(), cwd: '/home/dev/acme-api', source: 'startup' })
      expect(res.status).toBe(200)
      // The agent asks through the hooks: PreToolUse plans (and may answer for the user, recording it), PostToolUse records.
      const tier = QUESTIONS[0]!
      const questions = [{ question: tier.question, header: tier.header, multiSelect: false, options: tier.all_options.map((label) => ({ label, description: `${label}.` })) }]
      const session = sessions.at(-1) as string
      clock.set(iso((now += MINUTE)))
      const pre = await call('POST', `/v1/hooks/claude-code?user=alice&project=acme%2Fapi`, { hook_event_name: 'PreToolUse', session_id: session, cwd: '/home/dev/acme-api', tool_name: 'AskUserQuestion', tool_use_id: `toolu_${serial}`, tool_input: { questions } })
      expect(pre.status, JSON.stringify(pre.body)).toBe(200)
      if (JSON.stringify(pre.body).includes('"answers"')) autoAnswered++
      else {
        clock.set(iso((now += MINUTE)))
        const answer = r() < 0.9 ? (tier.all_options[Math.floor((now - T0) / (50 * DAY)) % 2] as string) : 'Tier S'
        const post = await call('POST', `/v1/hooks/claude-code?user=alice&project=acme%2Fapi`, { hook_event_name: 'PostToolUse', session_id: session, cwd: '/home/dev/acme-api', tool_name: 'AskUserQuestion', tool_use_id: `toolu_${serial++}`, tool_input: { questions, answers: { [tier.question]: answer } }, tool_response: { questions, answers: { [tier.question]: answer } } })
        expect(post.status, JSON.stringify(post.body)).toBe(200)
      }
    } else if (what < 0.65) {
      const res = await call('PUT', `/v1/sessions/${pick(sessions.length ? sessions : [newSession()])}/personalization`, { user: 'alice', ...(r() < 0.7 ? { enabled: r() < 0.5 } : {}) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    } else if (what < 0.67 && r() < 0.5) {
      // A decision: proposed or accepted, superseded, revoked or deprecated.
      const q = pick(QUESTIONS.filter((x) => !x.multi_select))
      const option = pick(q.all_options)
      const accepted = decisions.filter((d) => d.startsWith(`${q.point}:`))
      const step = r()
      if (accepted.length > 0 && step < 0.4) {
        const old = (accepted.at(-1) as string).split(':')[1]
        const res = await call('POST', '/v1/decisions', { title: `${q.point} is ${option}`, decision: `Use ${option}.`, rationale: 'We said so.', enforce: r() < 0.5 ? 'required' : 'advisory', status: 'proposed', supersedes: old, scope: { points: [q.point] }, constraints: [{ kind: r() < 0.5 ? 'must' : 'prefer', option }] })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
        if (r() < 0.7) {
          clock.set(iso((now += MINUTE)))
          const acc = await call('POST', `/v1/decisions/${res.body.key}/accept`, {})
          expect(acc.status, JSON.stringify(acc.body)).toBe(200)
          decisions.push(`${q.point}:${res.body.key}`)
        }
      } else if (accepted.length > 0 && step < 0.55) {
        const key = (accepted.at(-1) as string).split(':')[1]
        await call('POST', `/v1/decisions/${key}/${r() < 0.5 ? 'revoke' : 'deprecate'}`, { reason: 'changed our minds' })
      } else {
        const scoped = r() < 0.3 ? { path: 'src/billing' } : {}
        const res = await call('POST', '/v1/decisions', { title: `${q.point} is ${option}`, decision: `Use ${option}.`, rationale: 'We said so.', enforce: r() < 0.5 ? 'required' : 'advisory', status: r() < 0.6 ? 'accepted' : 'proposed', scope: { points: [q.point], ...scoped }, constraints: [{ kind: r() < 0.3 ? 'must_not' : 'must', option }] })
        expect(res.status, JSON.stringify(res.body)).toBe(201)
        if (res.body.status === 'accepted') decisions.push(`${q.point}:${res.body.key}`)
      }
    } else if (what < 0.75) {
      // As of now, a little ahead (a machine whose clock runs ahead), or days back (--now in the past).
      const shift = r() < 0.5 ? 0 : r() < 0.5 ? Math.floor(r() * 4 * MINUTE) : -Math.floor(r() * 40 * DAY)
      const res = await call('POST', '/v1/maintenance/decay-scan', { force: true, ...(shift === 0 ? {} : { now: iso(now + shift) }) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    } else {
      // An answer as of now, kept to be replayed.
      const kind = what < 0.86 ? 'recommendation' : what < 0.91 ? 'plan' : what < 0.95 ? 'why' : 'decisions'
      if (kind === 'recommendation') {
        const request = recommendationRequest()
        const res = await call('POST', '/v1/recommendations', request)
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        recorded.push({ kind, at: res.body.as_of, request, answer: shown(res) })
        // The same asked again at once: maybe a kept answer, whose as_of is its own moment.
        if (r() < 0.3) {
          clock.set(iso((now += Math.floor(r() * 50_000))))
          const again = await call('POST', '/v1/recommendations', request)
          recorded.push({ kind, at: again.body.as_of, request, answer: shown(again) })
        }
      } else if (kind === 'plan') {
        const qs = QUESTIONS.filter(() => r() < 0.5).slice(0, 4)
        const chosen = qs.length === 0 ? [QUESTIONS[0]!] : qs
        const project = pick(PROJECTS)
        const request = {
          user: 'alice',
          ...(project === undefined ? {} : { project }),
          ...(r() < 0.8 ? { session_id: someSession() } : {}),
          ...(r() < 0.5 ? { context: { phase: pick(PHASES) } } : {}),
          questions: chosen.map((q) => ({ question: q.question, header: q.header, multiSelect: q.multi_select ?? false, options: q.all_options.map((label) => ({ label, description: `${label}.` })) })),
        }
        const res = await call('POST', '/v1/plan', request)
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        recorded.push({ kind, at: iso(now), request, answer: shown(res) })
      } else if (kind === 'decisions') {
        // The audits of decisions: a check, what applies, a decision and its chain.
        const q = pick(QUESTIONS.filter((x) => !x.multi_select))
        const at = iso(now)
        const check = { choice: pick(q.all_options), point: q.point }
        const checked = await call('POST', '/v1/decisions/check', check)
        expect(checked.status, JSON.stringify(checked.body)).toBe(200)
        recorded.push({ kind: 'check', at, request: check, answer: shown(checked) })
        const path = `/v1/decisions/applicable?point=${q.point}`
        const applicable = await call('GET', path)
        expect(applicable.status).toBe(200)
        recorded.push({ kind: 'get', at, path, answer: shown(applicable) })
        // The lists an auditor reads: the decisions, those accepted at a point, and what was learned of the user.
        for (const path of ['/v1/decisions', `/v1/decisions?point=${q.point}&status=accepted`, '/v1/users/alice/preferences']) {
          const read = await call('GET', path)
          expect(read.status).toBe(200)
          recorded.push({ kind: 'get', at, path, answer: shown(read) })
        }
        if (decisions.length > 0) {
          const key = pick(decisions).split(':')[1] as string
          for (const path of [`/v1/decisions/${key}`, `/v1/decisions/${key}/why`]) {
            const read = await call('GET', path)
            expect(read.status).toBe(200)
            recorded.push({ kind: 'get', at, path, answer: shown(read) })
          }
        }
      } else {
        const q = pick(QUESTIONS)
        const project = pick(PROJECTS)
        const session = sessions.length > 0 && r() < 0.7 ? pick(sessions.slice(-6)) : undefined
        const path = `/v1/why?user=alice&point=${q.point}${project === undefined ? '' : `&project=${encodeURIComponent(project)}`}${session === undefined ? '' : `&session_id=${session}`}${r() < 0.4 ? `&path=${pick(PATHS)}` : ''}`
        const res = await call('GET', path)
        expect([200, 404], JSON.stringify(res.body)).toContain(res.status)
        recorded.push({ kind, at: iso(now), request: undefined, path, answer: shown(res) })
      }
      // Nothing else happens at the moment of an answer: an observation dated exactly then is documented to count in a replay.
      clock.set(iso((now += 1)))
    }
  }
  // Months later, after more scans.
  now += 90 * DAY
  clock.set(iso(now))
  expect((await call('POST', '/v1/maintenance/decay-scan', { force: true })).status).toBe(200)
  return { app, recorded, autoAnswered }
}

/**
 * The same instant written another way: with an offset east or west of UTC, with digits below
 * the millisecond, or as it was; in a query, an offset's `+` sent as typed (it arrives as a space).
 */
function written(at: string, form: number): string {
  const ms = Date.parse(at)
  const offset = (minutes: number) => {
    const local = new Date(ms + minutes * MINUTE).toISOString().slice(0, 23)
    const sign = minutes < 0 ? '-' : '+'
    const m = Math.abs(minutes)
    return `${local}${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
  }
  if (form === 1) return offset(330)
  if (form === 2) return offset(-210)
  if (form === 3) return at.replace('Z', '999Z')
  return at
}

async function replay(app: Awaited<ReturnType<typeof createTestApp>>, rec: Recorded, form: number) {
  const as_of = written(rec.at, form)
  if (rec.kind === 'recommendation') return app.call('POST', '/v1/recommendations', { ...rec.request, as_of })
  if (rec.kind === 'plan') return app.call('POST', '/v1/plan', { ...rec.request, as_of })
  if (rec.kind === 'check') return app.call('POST', '/v1/decisions/check', { ...rec.request, as_of })
  return app.call('GET', `${rec.path}${rec.path!.includes('?') ? '&' : '?'}as_of=${form === 1 ? as_of : encodeURIComponent(as_of)}`)
}

describe('as_of replays every answer of a random history (R-REC-9)', () => {
  // Seeds whose histories reach every band of expertise, answers sufficient to be given for the
  // user (and given by the PreToolUse hook), and, between them, a required decision and a
  // session with personalization off.
  it.each([
    [10, 'enforced'],
    [16, 'personalization-off'],
  ])('history %i: each answer, asked again months later as of its moment, is the same', async (seed, state) => {
    const { app, recorded, autoAnswered } = await history(seed)
    const recommendations = recorded.filter((x) => x.kind === 'recommendation').map((x) => x.answer.body)
    expect(new Set(recorded.map((x) => x.kind))).toEqual(new Set(['check', 'get', 'plan', 'recommendation', 'why']))
    expect(new Set(recommendations.map((x) => x.expertise.level))).toEqual(new Set(['beginner', 'intermediate', 'expert']))
    expect(recommendations.map((x) => x.state)).toEqual(expect.arrayContaining(['static-default', 'partial', 'sufficient', state]))
    expect(autoAnswered).toBeGreaterThan(0)
    for (const [i, rec] of recorded.entries()) {
      const res = await replay(app, rec, i % 4)
      const said = `#${i} ${rec.kind} as of ${written(rec.at, i % 4)}: ${JSON.stringify(rec.request ?? rec.path)}`
      if (rec.answer.status !== 404) expect(shown(res), said).toEqual(rec.answer)
      else {
        // Nothing known of the point then, as now: a replay's message says as of when.
        expect(shown(res).body.error, said).toEqual({ ...rec.answer.body.error, message: `${rec.answer.body.error.message} as of ${rec.at}`, issues: [{ path: 'point', message: `no observation and no decision at this point as of ${rec.at}` }] })
      }
    }
  })
})
