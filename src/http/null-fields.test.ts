import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, BOB, OPS, testTokens } from '../../test/support/tokens'

/**
 * A JSON null given for an optional field of a body is read as the field left out, at every route
 * (nullsLeftOut): clients that write an unset field as null (Python's None through json.dumps,
 * pydantic without exclude_none, Jackson's default, Go pointers without omitempty) were refused,
 * `project: a name (text), not null`. A required field sent null is still refused, named; so is a
 * toggle's `enabled`, whose absence flips the setting.
 */

type App = Awaited<ReturnType<typeof createTestApp>>

/** The lines of a user's export, but the header's, each observation without its id. */
async function exported(app: App, user: string): Promise<unknown[]> {
  const text = await (await app.app.request(`/v1/users/${user}/export`)).text()
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.type !== 'export')
    .map((line) => (line.type === 'observation' ? { ...line, data: { ...line.data, id: '<id>' } } : line))
}

const TIER = { question: 'Which complexity tier?', all_options: ['Tier S', { label: 'Tier M', description: 'Medium' }, 'Tier L'] }

/** Every optional field of an observation, null; an option's description too, and a context value (which keeps its null). */
const OBSERVATION_NULLS = {
  ...TIER,
  all_options: ['Tier S', { label: 'Tier M', description: 'Medium' }, { label: 'Tier L', description: null }],
  user_choice: 'Tier M',
  user: 'erin',
  decision_id: null,
  timestamp: null,
  context: { phase: null },
  project: null,
  session_id: null,
  point: null,
  header: null,
  multi_select: null,
  multiSelect: null,
  source: null,
}
const OBSERVATION = { ...TIER, all_options: ['Tier S', { label: 'Tier M', description: 'Medium' }, { label: 'Tier L' }], user_choice: 'Tier M', user: 'erin', context: { phase: null } }

describe('a null optional field of a body is read as left out (observations)', () => {
  it('stores an observation, one or an array, with nulls for its optional fields as one without them', async () => {
    const [withNulls, without] = [await createTestApp(), await createTestApp()]
    for (const body of [OBSERVATION_NULLS, [OBSERVATION_NULLS, { ...OBSERVATION_NULLS, user_choice: 'Tier S' }]]) {
      const answer = await withNulls.call('POST', '/v1/observations', body)
      expect(answer.status, JSON.stringify(body).slice(0, 40)).toBe(201)
    }
    for (const body of [OBSERVATION, [OBSERVATION, { ...OBSERVATION, user_choice: 'Tier S' }]]) expect((await without.call('POST', '/v1/observations', body)).status).toBe(201)
    const stored = await exported(withNulls, 'erin')
    expect(stored).toEqual(await exported(without, 'erin'))
    // Read back: no project, session or header; the user's default source; the context's null kept.
    expect(stored[0]).toMatchObject({ type: 'observation', data: { user: 'erin', project: null, session_id: null, decision_id: null, header: null, source: 'user', context: { phase: null } } })
  })

  it('takes an observation of an export posted back as it reads, its nulls included', async () => {
    const { call, ...app } = await createTestApp()
    await call('POST', '/v1/observations', { ...OBSERVATION, user: 'fay' })
    const [line] = await exported({ call, ...app }, 'fay')
    // The fields an observation is written with, as the export has them (`project: null`, `header: null`, …).
    const { id: _id, recorded_at: _at, options, chosen, other: _other, ...data } = (line as { data: Record<string, unknown> }).data
    const again = { ...data, user: 'gus', all_options: options, user_choice: (chosen as string[])[0] }
    expect(again).toMatchObject({ project: null, session_id: null, decision_id: null, header: null })
    expect((await call('POST', '/v1/observations', again)).status).toBe(201)
    const [back] = await exported({ call, ...app }, 'gus')
    expect((back as { data: unknown }).data).toEqual({ ...(line as { data: object }).data, id: '<id>', user: 'gus', options: ['Tier S', 'Tier M', 'Tier L'] })
  })

  it('still refuses a required field sent null, naming it, and stores nothing', async () => {
    const { call, ...app } = await createTestApp()
    const cases: Array<[string, string]> = [
      ['question', 'a question (text), not null'],
      ['user_choice', "an option's label, or an array of labels, not null"],
      ['all_options', 'an array of options: labels, or objects {label, description}, not null'],
    ]
    for (const [field, message] of cases) {
      const refused = await call('POST', '/v1/observations', { ...OBSERVATION_NULLS, [field]: null })
      expect([field, refused.status, refused.body.error?.issues]).toEqual([field, 400, [{ path: field, message }]])
    }
    const label = await call('POST', '/v1/observations', { ...OBSERVATION_NULLS, all_options: [{ label: null }, 'Tier M'] })
    expect(label.body.error?.issues).toEqual([{ path: 'all_options.0.label', message: "an option's label (text), not null" }])
    expect(await exported({ call, ...app }, 'erin')).toEqual([{ type: 'end', counts: { observation: 0, session: 0, aggregate: 0, entry: 0 } }])
  })
})

describe('a null optional field of a body is read as left out (recommendations and plans)', () => {
  it('answers a recommendation with nulls for its optional fields as one without them', async () => {
    const { call } = await createTestApp()
    for (const choice of ['Tier M', 'Tier M', 'Tier S']) await call('POST', '/v1/observations', { ...OBSERVATION, user_choice: choice })
    const plain = await call('POST', '/v1/recommendations', { ...TIER, user: 'erin' })
    const nulls = { ...TIER, all_options: ['Tier S', { label: 'Tier M', description: 'Medium' }, { label: 'Tier L', description: null }], user: 'erin' }
    const optional = { project: null, session_id: null, point: null, header: null, context: null, static_default: null, multi_select: null, multiSelect: null, as_of: null }
    const answer = await call('POST', '/v1/recommendations', { ...nulls, ...optional })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(plain.body)
    expect(answer.body.observations).toBe(3)
    // A null user is the default user, as one left out.
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: null })).body).toEqual((await call('POST', '/v1/recommendations', TIER)).body)
    const refused = await call('POST', '/v1/recommendations', { ...TIER, ...optional, question: null })
    expect([refused.status, refused.body.error?.issues]).toEqual([400, [{ path: 'question', message: 'a question (text), not null' }]])
  })

  it("plans questions whose header, options' descriptions and multiSelect are null as ones without them", async () => {
    const { call } = await createTestApp()
    const question = { question: 'Which complexity tier?', options: [{ label: 'Tier S', description: 'Small' }, { label: 'Tier M' }] }
    const plain = await call('POST', '/v1/plan', { user: 'erin', questions: [question] })
    const nulls = {
      user: null,
      project: null,
      session_id: null,
      context: null,
      as_of: null,
      questions: [{ ...question, header: null, multiSelect: null, options: [{ label: 'Tier S', description: 'Small' }, { label: 'Tier M', description: null }] }],
    }
    const answer = await call('POST', '/v1/plan', { ...nulls, user: 'erin' })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(plain.body)
    // The question passed on to AskUserQuestion has no null field the agent did not fill.
    expect(answer.body.ask_user_question_input.questions[0]).not.toHaveProperty('header')
    const refused = await call('POST', '/v1/plan', { ...nulls, questions: [{ ...question, question: null }] })
    expect([refused.status, refused.body.error?.issues]).toEqual([400, [{ path: 'questions.0.question', message: 'a question (text), not null' }]])
  })
})

describe('a null optional field of a body is read as left out (sessions)', () => {
  it('starts a session with a null project or start as one without them, and refuses a null enabled, which would flip the setting', async () => {
    const { call } = await createTestApp()
    const started = await call('POST', '/v1/sessions', { user: 'erin', session_id: 's-1', project: null, started_at: null })
    expect([started.status, started.body]).toEqual([201, { session_id: 's-1', user: 'erin', project: null, started_at: '2026-07-01T10:00:00.000Z', personalization: true, expertise: { sessions: 1, level: 'beginner' } }])
    // A null session id is one made, as one left out.
    const made = await call('POST', '/v1/sessions', { user: 'erin', session_id: null })
    expect([made.status, made.body.session_id]).toEqual([201, expect.stringMatching(/^s-/)])
    const refused = await call('PUT', '/v1/sessions/s-1/personalization', { enabled: null })
    expect([refused.status, refused.body.error?.issues]).toEqual([400, [{ path: 'enabled', message: 'true or false, not null: leave enabled out to flip the setting' }]])
    expect((await call('GET', '/v1/sessions/s-1/personalization')).body.personalization).toBe(true)
    // Its user, null, is left out: the one user of the session.
    const set = await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false, user: null })
    expect([set.status, set.body.personalization]).toEqual([200, false])
  })
})

describe('a null user is the default user with auth on, as one left out', () => {
  it("is refused (403) to a token that may not act for default, at every route whose body names a user, and nothing is stored for default", async () => {
    const { call } = await createTestApp({ auth: testTokens })
    const as = (token: string) => ({ authorization: `Bearer ${token}` })
    const question = { question: 'Which complexity tier?', options: [{ label: 'Tier S' }, { label: 'Tier M' }] }
    const requests: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/observations', { ...OBSERVATION, user: null }, 'user'],
      ['POST', '/v1/observations', [{ ...OBSERVATION, user: 'alice' }, { ...OBSERVATION, user: null }], '1.user'],
      ['POST', '/v1/recommendations', { ...TIER, user: null }, 'user'],
      ['POST', '/v1/plan', { user: null, questions: [question] }, 'user'],
      ['POST', '/v1/sessions', { user: null, session_id: 's-1' }, 'user'],
      ['PUT', '/v1/sessions/s-1/personalization', { user: null, enabled: false }, 'user'],
    ]
    for (const [method, path, body, field] of requests) {
      const refused = await call(method, path, body, as(ALICE))
      expect([path, refused.status, refused.body.error?.issues]).toEqual([path, 403, [{ path: field, message: 'not a user this token may act for' }]])
    }
    // A check's null user is none, as left out: the decisions are every user's to read.
    expect((await call('POST', '/v1/decisions/check', { action: 'ls', user: null }, as(ALICE))).status).toBe(200)
    const stored = async () => ((await call('GET', '/v1/users/default/export', undefined, as(OPS))).body as string).trim().split('\n').map((line) => JSON.parse(line)).at(-1)
    expect(await stored()).toEqual({ type: 'end', counts: { observation: 0, session: 0, aggregate: 0, entry: 0 } })
    // A token that acts for default is answered as for a body without user: default's.
    expect((await call('POST', '/v1/observations', { ...OBSERVATION, user: null }, as(BOB))).status).toBe(201)
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: null }, as(BOB))).body.observations).toBe(1)
    expect((await call('POST', '/v1/plan', { user: null, questions: [question] }, as(BOB))).status).toBe(200)
    expect((await call('POST', '/v1/sessions', { user: null, session_id: 's-1' }, as(BOB))).body).toMatchObject({ user: 'default', session_id: 's-1' })
    expect((await call('PUT', '/v1/sessions/s-1/personalization', { user: null, enabled: false }, as(BOB))).body).toMatchObject({ user: 'default', personalization: false })
  })
})

describe('a null optional field of a body is read as left out (decisions and maintenance)', () => {
  const DECISION = { title: 'Use Postgres', decision: 'We use Postgres.', rationale: 'One database.' }

  it('creates a decision whose optional fields, and its scope, constraints and evidence fields, are null as one without them', async () => {
    const [withNulls, without] = [await createTestApp(), await createTestApp()]
    const nulls = {
      ...DECISION,
      key: null,
      id: null,
      reasoning: null,
      enforce: null,
      status: null,
      date: null,
      source: null,
      supersedes: null,
      scope: { points: null, task: null, path: null, stage: null },
      constraints: [{ kind: 'must_not', option: null, pattern: '^mysql ', value: null }],
      evidence: [{ kind: 'doc', summary: 'ADR 1', uri: null, hash: null, content: null }],
    }
    const plain = { ...DECISION, constraints: [{ kind: 'must_not', pattern: '^mysql ' }], evidence: [{ kind: 'doc', summary: 'ADR 1' }] }
    const created = await withNulls.call('POST', '/v1/decisions', nulls)
    expect(created.status).toBe(201)
    expect(created.body).toEqual((await without.call('POST', '/v1/decisions', plain)).body)
    // A key made, today's date, advisory and proposed, as left out.
    expect(created.body).toMatchObject({ key: 'D-001', date: '2026-07-01', enforce: 'advisory', status: 'proposed', source: null, supersedes: null })
    expect(await withNulls.call('POST', '/v1/decisions', null)).toMatchObject({ status: 400 })
    // `rationale` null, and no `reasoning`, is one left out: said missing, as the MCP tools say a null required argument.
    const rationale = await withNulls.call('POST', '/v1/decisions', { ...DECISION, rationale: null })
    expect(rationale.body.error?.issues).toEqual([{ path: 'rationale', message: 'missing: expected string (or reasoning, as AXME Code names it)' }])
    // A constraint's `kind`, required, stays refused, named.
    const kind = await withNulls.call('POST', '/v1/decisions', { ...DECISION, constraints: [{ kind: null, option: 'x' }] })
    expect(kind.body.error?.issues).toEqual([{ path: 'constraints.0.kind', message: 'one of "must", "must_not", "prefer", "limit", not null' }])
    // Told by its seed name, `reasoning` gives the rationale beside a null one, as a client filling every
    // field of DecisionInput sends it: null is left out, as `reasoning: null` is beside a rationale.
    const seed = await withNulls.call('POST', '/v1/decisions', { ...DECISION, key: 'D-9', id: null, rationale: null, reasoning: 'Seed 000 names it so.' })
    expect([seed.status, seed.body.rationale]).toEqual([201, 'Seed 000 names it so.'])
    const both = await withNulls.call('POST', '/v1/decisions', { ...DECISION, rationale: null, reasoning: null })
    expect(both.body.error?.issues).toEqual([{ path: 'rationale', message: 'missing: expected string (or reasoning, as AXME Code names it)' }])
  })

  it("takes a null reason of a transition, and a check's null fields, as left out", async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', { ...DECISION, key: 'D-1', enforce: 'required', constraints: [{ kind: 'must_not', pattern: '^git push --force' }] })
    await call('POST', '/v1/decisions', { ...DECISION, key: 'D-2' })
    const accepted = await call('POST', '/v1/decisions/D-1/accept', { reason: null })
    expect([accepted.status, accepted.body.status, accepted.body.events.at(-1)]).toEqual([200, 'accepted', expect.not.objectContaining({ reason: expect.anything() })])
    const check = { action: 'git push --force origin main' }
    const nulls = { ...check, choice: null, point: null, all_options: null, multi_select: null, multiSelect: null, user: null, task: null, path: null, stage: null, as_of: null }
    const verdict = await call('POST', '/v1/decisions/check', nulls)
    expect([verdict.status, verdict.body]).toEqual([200, (await call('POST', '/v1/decisions/check', check)).body])
    expect(verdict.body.allowed).toBe(false)
    // A check with neither, the one given null, is told so as one with neither.
    const neither = await call('POST', '/v1/decisions/check', { action: null, choice: null })
    expect(neither.body.error?.issues).toEqual([{ path: 'action', message: 'give an action or a choice' }])
    await call('POST', '/v1/decisions/D-2/accept', {})
    const superseded = await call('POST', '/v1/decisions/D-1/supersede', { by: 'D-2', reason: null })
    expect([superseded.status, superseded.body.status]).toEqual([200, 'superseded'])
    const by = await call('POST', '/v1/decisions/D-2/supersede', { by: null, reason: null })
    expect(by.body.error?.issues).toEqual([{ path: 'by', message: 'letters, digits, ".", "_" and "-", starting with a letter or digit, not null' }])
  })

  it("imports records whose optional fields are null as ones without them, a record's null date keeping its meaning", async () => {
    const [withNulls, without] = [await createTestApp(), await createTestApp()]
    const record = { key: 'ADR-1', title: 'Use SQLite', decision: 'SQLite.', rationale: 'One file.', status: 'accepted', date: null, origin: { path: 'docs/adr/0001-sqlite.md', line: 1, format: 'madr' } }
    const nulls = {
      records: [{ ...record, enforce: null, evidence: null, origin: { ...record.origin, folder: null, aliases: null } }],
      folder: null,
      aliases: null,
      moved: null,
      files: null,
      logs: null,
      dry_run: null,
    }
    const imported = await withNulls.call('POST', '/v1/decisions/import', nulls)
    expect([imported.status, imported.body.created]).toEqual([200, ['ADR-1']])
    expect(imported.body).toEqual((await without.call('POST', '/v1/decisions/import', { records: [record] })).body)
    // Not a dry run: stored, its date the day it was first imported.
    const stored = await withNulls.call('GET', '/v1/decisions/ADR-1')
    expect([stored.status, stored.body.date, stored.body.enforce]).toEqual([200, '2026-07-01', 'advisory'])
  })

  it('runs a decay scan whose force and now are null as one without them', async () => {
    const { call } = await createTestApp()
    const ran = await call('POST', '/v1/maintenance/decay-scan', { force: null, now: null })
    expect([ran.status, ran.body.status, ran.body.scanned_at]).toEqual([200, 'ran', '2026-07-01T10:00:00.000Z'])
    // Within the cadence window, a null force does not force it.
    expect((await call('POST', '/v1/maintenance/decay-scan', { force: null })).body.status).toBe('skipped')
  })
})

describe('a whole body of null is read as no body where the route takes none (json.dumps(None))', () => {
  const DECISION = { title: 'Use Postgres', decision: 'We use Postgres.', rationale: 'One database.' }

  it('starts a session and runs a decay scan as a request without a body does', async () => {
    const [withNull, without] = [await createTestApp(), await createTestApp()]
    for (const body of ['null', ' null\n']) {
      const started = await withNull.call('POST', '/v1/sessions', body)
      const plain = await without.call('POST', '/v1/sessions', {})
      expect([started.status, { ...started.body, session_id: '<id>' }]).toEqual([plain.status, { ...plain.body, session_id: '<id>' }])
      expect(started.body.user).toBe('default')
    }
    const ran = await withNull.call('POST', '/v1/maintenance/decay-scan', 'null')
    expect([ran.status, ran.body.status]).toEqual([200, 'ran'])
  })

  it("refuses it at a toggle, as its `enabled: null`, since no body flips the setting: the setting is left as it was", async () => {
    // A client serialising the setting it was given, none (`json.dumps(None)`), did not ask for a flip.
    const { call } = await createTestApp()
    await call('POST', '/v1/sessions', { user: 'erin', session_id: 's-1' })
    for (const body of ['null', ' null\n']) {
      const refused = await call('PUT', '/v1/sessions/s-1/personalization', body)
      expect([refused.status, refused.body.error?.issues]).toEqual([400, [{ path: '(body)', message: 'an object, not null: leave the body out to flip the setting' }]])
    }
    expect((await call('GET', '/v1/sessions/s-1/personalization')).body.personalization).toBe(true)
    // Left out, it flips, as before.
    expect((await call('PUT', '/v1/sessions/s-1/personalization')).body.personalization).toBe(false)
  })

  it('accepts, deprecates and revokes a decision as without a body; a key at fault is named alone', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', { ...DECISION, key: 'D-1' })
    await call('POST', '/v1/decisions', { ...DECISION, key: 'D-2' })
    expect((await call('POST', '/v1/decisions/D-1/accept', 'null')).body.status).toBe('accepted')
    expect((await call('POST', '/v1/decisions/D-1/deprecate', 'null')).body.status).toBe('deprecated')
    expect((await call('POST', '/v1/decisions/D-2/revoke', 'null')).body.status).toBe('revoked')
    const key = await call('POST', '/v1/decisions/-x/accept', 'null')
    expect([key.status, key.body.error?.issues.map((issue: { path: string }) => issue.path)]).toEqual([400, ['key']])
  })

  it("is default's with auth on, as no body is: refused (403) to a token that may not act for default", async () => {
    const { call } = await createTestApp({ auth: testTokens })
    const as = (token: string) => ({ authorization: `Bearer ${token}` })
    const refused = await call('POST', '/v1/sessions', 'null', as(ALICE))
    const plain = await call('POST', '/v1/sessions', {}, as(ALICE))
    expect([refused.status, { ...refused.body.error, request_id: '<id>' }]).toEqual([403, { ...plain.body.error, request_id: '<id>' }])
    expect((await call('POST', '/v1/sessions', 'null', as(BOB))).body).toMatchObject({ user: 'default' })
    // The decay scan ages every user's observations: a token for every user runs it, null or not.
    expect((await call('POST', '/v1/maintenance/decay-scan', 'null', as(BOB))).status).toBe(403)
    expect((await call('POST', '/v1/maintenance/decay-scan', 'null', as(OPS))).body.status).toBe('ran')
  })

  it('is still refused where the route needs a body, naming it, and stores nothing', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', { ...DECISION, key: 'D-1' })
    const routes = ['/v1/observations', '/v1/recommendations', '/v1/plan', '/v1/hooks/claude-code', '/v1/decisions', '/v1/decisions/check', '/v1/decisions/import', '/v1/decisions/D-1/supersede']
    for (const route of routes) {
      const refused = await call('POST', route, 'null')
      expect([route, refused.status, refused.body.error?.issues.map((issue: { path: string }) => issue.path)]).toEqual([route, 400, ['(body)']])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: { key: string }) => d.key)).toEqual(['D-1'])
  })
})
