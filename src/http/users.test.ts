import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createTestApp, START } from '../../test/support/test-app'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

function parseNdjson(text: string): Array<{ type: string; data?: any; counts?: Record<string, number> }> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

async function seeded() {
  const t = await createTestApp()
  const posts = []
  for (let i = 0; i < 6; i++) {
    posts.push({ ...TIER, user: 'alice', user_choice: i < 4 ? 'Tier S' : 'Tier L', decision_id: `a-${i}`, session_id: 'sa' })
    posts.push({ ...TIER, user: 'bob', user_choice: i < 5 ? 'Tier L' : 'Tier M', decision_id: `b-${i}`, session_id: 'sb' })
  }
  expect((await t.call('POST', '/v1/observations', posts)).status).toBe(201)
  return t
}

describe('GET /v1/users/{user}/export cut short', () => {
  it('logs a line naming the request and the lines sent when the store fails mid-export, and the client sees no end line', async () => {
    const lines: Array<Record<string, any>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { memory, app } = await createTestApp({ logger })
    const failure = Object.assign(new Error('IO error: disk full'), { code: 'LEVEL_IO_ERROR' })
    memory.exportUser = async function* () {
      yield { type: 'export', format: 1, user: 'alice' } as never
      yield { type: 'observation', data: {} } as never
      throw failure
    }
    const response = await app.request('/v1/users/alice/export', { headers: { 'x-request-id': 'exp-1' } })
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow()
    const cut = lines.find((l) => l.event === 'export-cut-short')
    expect(cut).toMatchObject({ level: 50, req_id: 'exp-1', lines: 2 })
    expect(cut?.msg).toContain('cut short after 2 lines: the store cannot be written or read (IO error: disk full)')
    // Nothing the export holds is in it: the line names the request, not the user.
    expect(JSON.stringify(cut)).not.toContain('alice')
  })
})

describe('GET /v1/users/{user}/export closed under it', () => {
  it('logs the cut when the connection closes before the end line (a stop whose grace ran out on a slow reader)', async () => {
    const lines: Array<Record<string, any>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app, call } = await createTestApp({ logger })
    const posts = Array.from({ length: 3 }, (_, i) => ({ ...TIER, user: 'alice', user_choice: 'Tier S', decision_id: `a-${i}` }))
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    const response = await app.request('/v1/users/alice/export', { headers: { 'x-request-id': 'exp-2' } })
    expect(response.status).toBe(200)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    await reader.read()
    // What the server does to the body of a connection it closes, or a client gone does.
    await reader.cancel()
    const cut = lines.find((l) => l.event === 'export-cut-short')
    expect(cut).toMatchObject({ level: 50, req_id: 'exp-2' })
    expect(cut?.msg).toMatch(/cut short after \d+ lines: the connection closed before the end line/)
  })

  it('logs no cut for an export read to its end', async () => {
    const lines: Array<Record<string, any>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app } = await createTestApp({ logger })
    const response = await app.request('/v1/users/alice/export')
    expect(parseNdjson(await response.text()).at(-1)?.type).toBe('end')
    expect(lines.find((l) => l.event === 'export-cut-short')).toBeUndefined()
  })
})

describe('GET /v1/users/{user}/preferences', () => {
  it("answers per point what the user's recommendation learns", async () => {
    const { call } = await seeded()
    const { status, body } = await call('GET', '/v1/users/alice/preferences')
    expect(status).toBe(200)
    expect(body.user).toBe('alice')
    expect(body.points).toHaveLength(1)
    expect(body.points[0]).toMatchObject({ point: 'complexity-tier', majority: 'Tier S', observations: 6 })
    const recommendation = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })
    expect(recommendation.body.recommended).toBe(body.points[0].majority)
    expect(recommendation.body.confidence.value).toBe(body.points[0].confidence.value)
  })

  it('learns a change of preference as a recommendation does: the recent choices, when they differ from the older ones', async () => {
    const { call } = await createTestApp()
    const day = 86_400_000
    const at = (days: number) => new Date(Date.parse(START) - days * day).toISOString()
    const posts = [
      ...Array.from({ length: 40 }, (_, i) => ({ ...TIER, user: 'alice', user_choice: 'Tier L', decision_id: `old-${i}`, timestamp: at(90 - i) })),
      ...Array.from({ length: 6 }, (_, i) => ({ ...TIER, user: 'alice', user_choice: 'Tier S', decision_id: `new-${i}`, timestamp: at(6 - i) })),
    ]
    expect((await call('POST', '/v1/observations', posts)).status).toBe(201)
    const recommendation = (await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })).body
    expect(recommendation.disclosure).toMatch(/they differ from your earlier choices/)
    const [point] = (await call('GET', '/v1/users/alice/preferences')).body.points
    expect(point.majority).toBe(recommendation.recommended)
    expect(point.share).toBe(recommendation.options[0].share)
    expect(point.confidence.value).toBe(recommendation.confidence.value)
    expect(point.observations).toBe(recommendation.observations)
    // The window: the 28 days up to the newest choice, a day old.
    expect(point.changed_since).toBe(at(29))
    expect(point.options.map((o: { option: string; count: number }) => [o.option, o.count])).toEqual([
      ['Tier S', 6],
      ['Tier M', 0],
      ['Tier L', 0],
    ])
    expect(point.first_observed).toBe(at(90))
  })

  it('answers an empty list for a user with no data, and 400 for a bad name', async () => {
    const { call } = await createTestApp()
    expect((await call('GET', '/v1/users/nobody/preferences')).body.points).toEqual([])
    const bad = await call('GET', '/v1/users/%21bang/preferences')
    expect(bad.status).toBe(400)
    expect(bad.body.error.issues[0].path).toBe('user')
  })
})

describe('GET /v1/users/{user}/export', () => {
  it('streams NDJSON: header, observations, sessions, end with counts', async () => {
    const { app } = await seeded()
    const response = await app.request('/v1/users/alice/export')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
    const lines = parseNdjson(await response.text())
    expect(lines[0]).toMatchObject({ type: 'export', format: 1, user: 'alice' })
    const observations = lines.filter((l) => l.type === 'observation')
    expect(observations.map((l) => l.data.decision_id).sort()).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4', 'a-5'])
    expect(observations.every((l) => l.data.user === 'alice')).toBe(true)
    expect(lines.filter((l) => l.type === 'session').map((l) => l.data.session_id)).toEqual(['sa'])
    expect(lines[lines.length - 1]).toEqual({
      type: 'end',
      counts: { observation: 6, session: 1, aggregate: expect.any(Number), entry: 0 },
    })
  })

  it('keeps each record on one line for readers that split at every Unicode line break (U+0085, U+2028, U+2029)', async () => {
    const { app, call } = await createTestApp()
    const question = 'Which\u2028tier?\u2029Pick one'
    const options = ['Tier\u0085S', 'Tier M']
    expect((await call('POST', '/v1/observations', { question, all_options: options, user_choice: 'Tier\u0085S', user: 'alice' })).status).toBe(201)
    const text = await (await app.request('/v1/users/alice/export')).text()
    // Python's str.splitlines() splits at these as well as at what JSON escapes itself.
    const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\u0085\u2028\u2029]/).filter((l) => l !== '')
    expect(lines).toHaveLength(3)
    const records = lines.map((l) => JSON.parse(l))
    expect(records[1].data).toMatchObject({ question, options, chosen: ['Tier\u0085S'] })
  })

  it('is described in the OpenAPI document line type by line type, aggregates included', async () => {
    const { app, call } = await seeded()
    // The recommendation puts alice's aggregate in core, which the export then holds.
    await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })
    const types = new Set(parseNdjson(await (await app.request('/v1/users/alice/export')).text()).map((l) => l.type))
    expect(types).toContain('aggregate')
    const doc = (await (await app.request('/openapi.json')).json()) as any
    const description: string = doc.paths['/v1/users/{user}/export'].get.description
    for (const type of [...types, 'entry']) expect(description, type).toContain(`{"type":"${type}"`)
  })
})

describe('DELETE /v1/users/{user}', () => {
  it('forgets what core held too: a user who comes back starts from nothing', async () => {
    const { call } = await seeded()
    // The recommendation puts alice's aggregate in core; forget must not leave it behind.
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })).body.observations).toBe(6)
    expect((await call('DELETE', '/v1/users/alice')).status).toBe(200)
    const back = Array.from({ length: 2 }, (_, i) => ({ ...TIER, user: 'alice', user_choice: 'Tier M', decision_id: `a-${i}` }))
    expect((await call('POST', '/v1/observations', back)).body.stored).toHaveLength(2)
    const after = await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })
    expect(after.body.observations).toBe(2)
    expect(after.body.options.find((o: { option: string }) => o.option === 'Tier S').count).toBe(0)
  })

  it("forgets alice: her export and preferences are empty, bob's recommendation is unchanged", async () => {
    const { app, call } = await seeded()
    const bobBefore = await call('POST', '/v1/recommendations', { ...TIER, user: 'bob' })
    const forgotten = await call('DELETE', '/v1/users/alice')
    expect(forgotten.status).toBe(200)
    expect(forgotten.body.user).toBe('alice')
    // 6 observations, their idempotency keys, their copies in recall and its expiry index, the
    // session, its owner index and count, and the aggregate in core: more than the 14 kept by hand.
    expect(forgotten.body.deleted).toBeGreaterThan(14)
    expect((await call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
    const lines = parseNdjson(await (await app.request('/v1/users/alice/export')).text())
    expect(lines[lines.length - 1]).toEqual({ type: 'end', counts: { observation: 0, session: 0, aggregate: 0, entry: 0 } })
    const bobAfter = await call('POST', '/v1/recommendations', { ...TIER, user: 'bob' })
    expect(bobAfter.body).toEqual(bobBefore.body)
    expect(bobAfter.body.observations).toBe(6)
  })

  it('is idempotent: forgetting again deletes nothing', async () => {
    const { call } = await seeded()
    await call('DELETE', '/v1/users/alice')
    expect((await call('DELETE', '/v1/users/alice')).body).toEqual({ user: 'alice', deleted: 0 })
  })

  it('leaves the decisions alone when a user is named as a decision key or a point', async () => {
    const { app, call } = await seeded()
    const decision = {
      key: 'D-001', title: 'Tier M for run', decision: 'Tier M', rationale: 'sized for it', enforce: 'required', status: 'accepted',
      scope: { points: ['complexity-tier'] }, constraints: [{ kind: 'must', option: 'Tier M' }],
    }
    expect((await call('POST', '/v1/decisions', decision)).status).toBe(201)
    for (const user of ['D-001', 'complexity-tier']) {
      const lines = parseNdjson(await (await app.request(`/v1/users/${user}/export`)).text())
      expect(lines[lines.length - 1]).toEqual({ type: 'end', counts: { observation: 0, session: 0, aggregate: 0, entry: 0 } })
      expect((await call('DELETE', `/v1/users/${user}`)).body).toEqual({ user, deleted: 0 })
    }
    const held = await call('GET', '/v1/decisions/D-001')
    expect(held.status).toBe(200)
    expect(held.body.events).toHaveLength(2)
    expect((await call('POST', '/v1/recommendations', { ...TIER, user: 'alice' })).body.state).toBe('enforced')
  })

  it('lets a forgotten decision_id be recorded again', async () => {
    const { call } = await seeded()
    await call('DELETE', '/v1/users/alice')
    const again = await call('POST', '/v1/observations', { ...TIER, user: 'alice', user_choice: 'Tier S', decision_id: 'a-0' })
    expect(again.body.stored).toHaveLength(1)
  })

  it('reads no body: one that is not UTF-8 forgets the user of the path, as one that is not JSON does', async () => {
    const { app, call } = await seeded()
    for (const [user, body] of [
      ['alice', Buffer.from('{"user": "jos\u00e9"}', 'latin1')],
      ['bob', '{"user": '],
    ] as const) {
      const r = await app.request(`/v1/users/${user}`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body })
      expect([user, r.status]).toEqual([user, 200])
      expect(((await r.json()) as { deleted: number }).deleted).toBeGreaterThan(0)
      expect((await call('GET', `/v1/users/${user}/preferences`)).body.points).toEqual([])
    }
  })

  it('reads no body over 256 KB either, its length declared or not: the user of the path is forgotten, not a 413', async () => {
    const { app, call } = await seeded()
    const over = 'x'.repeat(256 * 1024 + 1)
    // A stream is sent chunked, its length unknown until read.
    const chunked = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(over)), c.close()) })
    for (const [user, init] of [
      ['alice', { headers: { 'content-length': String(over.length) }, body: over }],
      ['bob', { body: chunked, duplex: 'half' }],
    ] as const) {
      const r = await app.request(`/v1/users/${user}`, { method: 'DELETE', ...init } as RequestInit)
      expect([user, r.status]).toEqual([user, 200])
      expect(((await r.json()) as { deleted: number }).deleted).toBeGreaterThan(0)
      expect((await call('GET', `/v1/users/${user}/preferences`)).body.points).toEqual([])
    }
  })
  it('reads no body sent compressed or in a transfer coding either: the user of the path is forgotten, not a 415', async () => {
    const { app, call } = await seeded()
    // Counted by what was read of it: a body of no end, read whole to judge it, would never answer.
    let pulled = 0
    const endless = () =>
      new ReadableStream({
        pull: (c) => {
          pulled += 1
          if (pulled > 64) c.close()
          else c.enqueue(new Uint8Array(64 * 1024))
        },
      })
    for (const [user, headers] of [
      ['alice', { 'content-encoding': 'gzip' }],
      ['bob', { 'transfer-encoding': 'gzip, chunked' }],
    ] as const) {
      pulled = 0
      const r = await app.request(`/v1/users/${user}`, { method: 'DELETE', headers, body: endless(), duplex: 'half' } as RequestInit)
      expect([user, r.status]).toEqual([user, 200])
      expect(((await r.json()) as { deleted: number }).deleted).toBeGreaterThan(0)
      expect((await call('GET', `/v1/users/${user}/preferences`)).body.points).toEqual([])
      // Not read past what a stream hands over before it is asked (one chunk, or two).
      expect(pulled, user).toBeLessThan(4)
    }
  })
})

describe('GET /v1/users/{user}/preferences?as_of= (R-REC-9)', () => {
  const DAY = 86_400_000
  const before = (days: number) => new Date(Date.parse(START) - days * DAY).toISOString()
  // Tier S from 127 to 40 days ago, in one project; Tier L in the last week, in another, the
  // question reworded; an answer the service gave itself, then none of the user's since.
  const history = [
    ...Array.from({ length: 30 }, (_, i) => ({ ...TIER, user: 'alice', project: 'api', user_choice: 'Tier S', decision_id: `old-${i}`, session_id: `s-${i % 5}`, timestamp: before(127 - i * 3) })),
    ...Array.from({ length: 6 }, (_, i) => ({ ...TIER, question: 'Which tier for this SPEC?', user: 'alice', project: 'web', user_choice: 'Tier L', decision_id: `new-${i}`, session_id: 's-new', timestamp: before(6 - i) })),
    { ...TIER, user: 'alice', user_choice: 'Tier M', decision_id: 'auto-1', source: 'auto-resolved', timestamp: before(0.5) },
  ]

  it('answers as of that moment: only the choices dated up to it, aged from it, each figure as a recommendation with that as_of replays it', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', history)).status).toBe(201)
    for (const asOf of [before(60), before(20), before(3.5), before(1), START]) {
      const { status, body } = await call('GET', `/v1/users/alice/preferences?as_of=${asOf}`)
      expect(status, asOf).toBe(200)
      expect(body.as_of, asOf).toBe(asOf)
      const [point] = body.points
      const recommendation = (await call('POST', '/v1/recommendations', { ...TIER, user: 'alice', as_of: asOf })).body
      expect(recommendation.as_of, asOf).toBe(asOf)
      expect(point.majority, asOf).toBe(recommendation.recommended)
      expect(point.observations, asOf).toBe(recommendation.observations)
      expect(point.confidence.value, asOf).toBe(recommendation.confidence.value)
      const recommended = recommendation.options.find((o: { option: string }) => o.option === recommendation.recommended)
      expect(point.share, asOf).toBe(recommended.share)
      expect(point.changed_since !== null, asOf).toBe(/they differ from your earlier choices/.test(recommendation.disclosure))
      expect(point.last_observed <= asOf, asOf).toBe(true)
    }
    // 60 days ago: Tier S alone, in the project and under the question of then.
    const [then] = (await call('GET', `/v1/users/alice/preferences?as_of=${before(60)}`)).body.points
    expect(then).toMatchObject({ majority: 'Tier S', observations: 23, changed_since: null, question: TIER.question, projects: ['api'], first_observed: before(127), last_observed: before(61) })
    expect(then.options.map((o: { option: string; count: number }) => [o.option, o.count])).toEqual([['Tier S', 23], ['Tier M', 0], ['Tier L', 0]])
    // Three and a half days ago: three choices of Tier L, and their question.
    const [later] = (await call('GET', `/v1/users/alice/preferences?as_of=${before(3.5)}`)).body.points
    expect(later).toMatchObject({ question: 'Which tier for this SPEC?', projects: ['api', 'web'], last_observed: before(4) })
    // Now, the same as without as_of, but for the moment it says.
    const now = (await call('GET', '/v1/users/alice/preferences')).body
    expect((await call('GET', `/v1/users/alice/preferences?as_of=${START}`)).body).toEqual(now)
    // Before the first choice: nothing learned yet.
    expect((await call('GET', `/v1/users/alice/preferences?as_of=${before(200)}`)).body).toEqual({ user: 'alice', as_of: before(200), points: [] })
  })

  it('counts a choice dated exactly as_of, and reads as_of in any zone, a + sent as typed too', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', history)).status).toBe(201)
    const [at] = (await call('GET', `/v1/users/alice/preferences?as_of=${before(4)}`)).body.points
    expect(at.last_observed).toBe(before(4))
    // 2026-06-27T10:00:00Z is 15:30 at +05:30; the + arrives as a space, as a query sent as typed has it.
    const zoned = await call('GET', '/v1/users/alice/preferences?as_of=2026-06-27T15:30:00+05:30')
    expect(zoned.status).toBe(200)
    expect(zoned.body.as_of).toBe(before(4))
    expect(zoned.body.points).toEqual([at])
  })

  it('refuses a bad as_of, one more than 5 minutes ahead of the clock and one before 1970, naming as_of', async () => {
    const { call } = await createTestApp()
    for (const [asOf, code] of [
      ['last tuesday', 'invalid_request'],
      ['2026-02-30T10:00:00Z', 'invalid_request'],
      [new Date(Date.parse(START) + 6 * 60_000).toISOString(), 'timestamp_in_future'],
      ['1969-12-31T23:59:59Z', 'timestamp_out_of_range'],
    ]) {
      const { status, body } = await call('GET', `/v1/users/alice/preferences?as_of=${encodeURIComponent(asOf as string)}`)
      expect(status, asOf).toBe(400)
      expect(body.error.code, asOf).toBe(code)
      expect(body.error.issues[0].path, asOf).toBe('as_of')
    }
    // Up to 5 minutes ahead (a client whose clock runs ahead): answered, as of the moment asked.
    const ahead = new Date(Date.parse(START) + 4 * 60_000).toISOString()
    expect((await call('GET', `/v1/users/alice/preferences?as_of=${ahead}`)).body.as_of).toBe(ahead)
  })

  it('is described in the OpenAPI document, as the other audits are', async () => {
    const { call } = await createTestApp()
    const doc = (await call('GET', '/openapi.json')).body
    const asOf = doc.paths['/v1/users/{user}/preferences'].get.parameters.find((p: { name: string }) => p.name === 'as_of')
    expect(asOf).toMatchObject({ in: 'query', required: false, schema: { type: 'string', format: 'date-time' } })
    expect(asOf.description).toContain('R-REC-9')
    expect(doc.components.schemas.Preferences.properties.as_of.description).toContain('the `as_of` asked for')
  })
})
