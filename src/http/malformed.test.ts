import { MemoryLevel } from 'memory-level'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

const OBS = { question: 'Which tier?', user_choice: 'Tier S', all_options: ['Tier S', 'Tier M'] }
const REC = { question: 'Which tier?', all_options: ['Tier S', 'Tier M'] }

/**
 * Makes every read of `db` fail as LevelDB fails on a damaged store (`code`, LevelDB's message);
 * returns what puts its reads back.
 */
function failReads(db: MemoryLevel<string, string>, message: string, code: 'LEVEL_CORRUPTION' | 'LEVEL_IO_ERROR'): () => void {
  const internals = db as unknown as { _get: (...args: unknown[]) => Promise<unknown>; _getMany: (...args: unknown[]) => Promise<unknown> }
  const { _get: get, _getMany: getMany } = internals
  internals._get = internals._getMany = async () => {
    throw Object.assign(new Error(message), { code })
  }
  return () => {
    internals._get = get
    internals._getMany = getMany
  }
}

/** Makes every iterator of db fail as LevelDB's do over a damaged table; returns the undo. */
function failIterators(db: MemoryLevel<string, string>, message: string, code: 'LEVEL_CORRUPTION' | 'LEVEL_IO_ERROR'): () => void {
  const internals = db as unknown as Record<'_iterator' | '_keys' | '_values', (...args: unknown[]) => unknown>
  const kept = { _iterator: internals._iterator, _keys: internals._keys, _values: internals._values }
  for (const name of ['_iterator', '_keys', '_values'] as const) {
    internals[name] = function (this: unknown, ...args: unknown[]) {
      const it = kept[name].apply(this, args) as Record<string, unknown>
      const fail = async () => {
        throw Object.assign(new Error(message), { code })
      }
      it._next = it._nextv = it._all = fail
      return it
    }
  }
  return () => Object.assign(internals, kept)
}

type Case = [name: string, method: string, path: string, body: unknown, status: number, code: string, field?: string]

const CASES: Case[] = [
  ['broken JSON', 'POST', '/v1/observations', '{"question": ', 400, 'invalid_json'],
  ['JSON with a trailing comma', 'POST', '/v1/recommendations', '{"question": "q",}', 400, 'invalid_json'],
  ['a bare string', 'POST', '/v1/observations', '"hello"', 400, 'invalid_request', '(body)'],
  ['null body', 'POST', '/v1/observations', 'null', 400, 'invalid_request', '(body)'],
  ['a number body', 'POST', '/v1/recommendations', '42', 400, 'invalid_request', '(body)'],
  ['empty array of observations', 'POST', '/v1/observations', [], 400, 'invalid_request', '(body)'],
  ['missing question', 'POST', '/v1/observations', { ...OBS, question: undefined }, 400, 'invalid_request', 'question'],
  ['empty question', 'POST', '/v1/observations', { ...OBS, question: '   ' }, 400, 'invalid_request', 'question'],
  ['question of the wrong type', 'POST', '/v1/observations', { ...OBS, question: 42 }, 400, 'invalid_request', 'question'],
  ['missing user_choice', 'POST', '/v1/observations', { ...OBS, user_choice: undefined }, 400, 'invalid_request', 'user_choice'],
  ['user_choice a number', 'POST', '/v1/observations', { ...OBS, user_choice: 3 }, 400, 'invalid_request', 'user_choice'],
  ['user_choice an object', 'POST', '/v1/observations', { ...OBS, user_choice: { label: 'x' } }, 400, 'invalid_request', 'user_choice'],
  ['user_choice an empty array', 'POST', '/v1/observations', { ...OBS, user_choice: [] }, 400, 'invalid_request', 'user_choice'],
  ['user_choice empty string', 'POST', '/v1/observations', { ...OBS, user_choice: '' }, 400, 'invalid_request', 'user_choice'],
  ['missing all_options', 'POST', '/v1/observations', { ...OBS, all_options: undefined }, 400, 'invalid_request', 'all_options'],
  ['empty all_options', 'POST', '/v1/observations', { ...OBS, all_options: [] }, 400, 'invalid_request', 'all_options'],
  ['all_options a string', 'POST', '/v1/observations', { ...OBS, all_options: 'Tier S' }, 400, 'invalid_request', 'all_options'],
  ['an option of the wrong type', 'POST', '/v1/observations', { ...OBS, all_options: ['Tier S', 7] }, 400, 'invalid_request', 'all_options.1'],
  ['an option object without label', 'POST', '/v1/observations', { ...OBS, all_options: ['Tier S', { description: 'd' }] }, 400, 'invalid_request', 'all_options.1.label'],
  ['duplicate options after normalisation', 'POST', '/v1/observations', { ...OBS, all_options: ['Tier S', 'Tier S (Recommended)'] }, 400, 'duplicate_option', 'all_options.1'],
  ['too many options', 'POST', '/v1/observations', { ...OBS, all_options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 400, 'invalid_request', 'all_options'],
  ['a label over 500 characters', 'POST', '/v1/observations', { ...OBS, all_options: ['Tier S', 'x'.repeat(501)] }, 400, 'invalid_request', 'all_options.1'],
  ['timestamp not ISO', 'POST', '/v1/observations', { ...OBS, timestamp: 'yesterday' }, 400, 'invalid_request', 'timestamp'],
  ['timestamp without zone', 'POST', '/v1/observations', { ...OBS, timestamp: '2026-07-01T10:00:00' }, 400, 'invalid_request', 'timestamp'],
  ['timestamp before 1970', 'POST', '/v1/observations', { ...OBS, timestamp: '1900-01-01T00:00:00Z' }, 400, 'timestamp_out_of_range', 'timestamp'],
  ['timestamp far in the future', 'POST', '/v1/observations', { ...OBS, timestamp: '2999-01-01T00:00:00Z' }, 400, 'timestamp_in_future', 'timestamp'],
  ['user of the wrong type', 'POST', '/v1/observations', { ...OBS, user: 5 }, 400, 'invalid_request', 'user'],
  ['user with a control character', 'POST', '/v1/observations', { ...OBS, user: 'al\u0000ice' }, 400, 'invalid_request', 'user'],
  ['empty user', 'POST', '/v1/observations', { ...OBS, user: '' }, 400, 'invalid_request', 'user'],
  ['context not an object', 'POST', '/v1/observations', { ...OBS, context: 'run' }, 400, 'invalid_request', 'context'],
  ['context with a nested object', 'POST', '/v1/observations', { ...OBS, context: { phase: { deep: 1 } } }, 400, 'invalid_request', 'context.phase'],
  ['single-select with two choices', 'POST', '/v1/observations', { ...OBS, user_choice: ['Tier S', 'Tier M'], multi_select: false }, 400, 'multiple_choices', 'user_choice'],
  ['source unknown', 'POST', '/v1/observations', { ...OBS, source: 'robot' }, 400, 'invalid_request', 'source'],
  ['a bad element in an array', 'POST', '/v1/observations', [OBS, { ...OBS, all_options: [] }], 400, 'invalid_request', '1.all_options'],
  ['an unknown field (a misspelt decision_id)', 'POST', '/v1/observations', { ...OBS, decisionId: 'cam-1' }, 400, 'invalid_request', 'decisionId'],
  ['an unknown field in an array', 'POST', '/v1/observations', [OBS, { ...OBS, decisionId: 'cam-1' }], 400, 'invalid_request', '1.decisionId'],
  ['recommendation without options', 'POST', '/v1/recommendations', { question: 'q' }, 400, 'invalid_request', 'all_options'],
  ['recommendation without question', 'POST', '/v1/recommendations', { all_options: ['a'] }, 400, 'invalid_request', 'question'],
  ['static_default not offered', 'POST', '/v1/recommendations', { ...REC, static_default: 'Tier X' }, 400, 'static_default_not_offered', 'static_default'],
  ['multi_select not a boolean', 'POST', '/v1/recommendations', { ...REC, multi_select: 'yes' }, 400, 'invalid_request', 'multi_select'],
  ['as_of not a time', 'POST', '/v1/recommendations', { ...REC, as_of: 'last tuesday' }, 400, 'invalid_request', 'as_of'],
  ['a misspelt static_default', 'POST', '/v1/recommendations', { ...REC, staticDefault: 'Tier M' }, 400, 'invalid_request', 'staticDefault'],
  ['a misspelt as_of', 'POST', '/v1/recommendations', { ...REC, asOf: '2026-01-01T00:00:00Z' }, 400, 'invalid_request', 'asOf'],
  ['a plan with a misspelt as_of', 'POST', '/v1/plan', { questions: [{ question: 'q', options: [{ label: 'a' }, { label: 'b' }] }], asOf: '2026-01-01T00:00:00Z' }, 400, 'invalid_request', 'asOf'],
  ['session started_at not a time', 'POST', '/v1/sessions', { user: 'a', started_at: 'now' }, 400, 'invalid_request', 'started_at'],
  ['personalization enabled not boolean', 'PUT', '/v1/sessions/s-1/personalization', { enabled: 'off' }, 400, 'invalid_request', 'enabled'],
  ['a session with a misspelt user', 'POST', '/v1/sessions', { usr: 'a', session_id: 's-2' }, 400, 'invalid_request', 'usr'],
  ['a misspelt enabled', 'PUT', '/v1/sessions/s-1/personalization', { enable: false, user: 'yan' }, 400, 'invalid_request', 'enable'],
  ['a misspelt force', 'POST', '/v1/maintenance/decay-scan', { forced: true }, 400, 'invalid_request', 'forced'],
  ['unknown route', 'GET', '/v1/nothing', undefined, 404, 'not_found'],
]

describe('malformed requests get a 4xx naming the field, and the service keeps serving (R-SVC-2)', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>
  beforeAll(async () => {
    t = await createTestApp()
  })

  it('has at least 30 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30)
  })

  it.each(CASES)('%s', async (_name, method, path, body, status, code, field) => {
    const r = await t.call(method, path, body)
    expect(r.status).toBe(status)
    expect(r.body.error.code).toBe(code)
    expect(typeof r.body.error.message).toBe('string')
    if (field !== undefined) expect(r.body.error.issues.map((i: { path: string }) => i.path)).toContain(field)
  })

  it('says where a body that is not JSON breaks, as a line and column, quoting none of it', async () => {
    for (const [path, text, where] of [
      ['/v1/recommendations', '{"question": "q",}', 'line 1, column 18'],
      ['/v1/observations', '[\n  {"question": "q", "user_choice": "a"}\n  {"question": "r"}\n]', 'line 3, column 3'],
      ['/v1/decisions/check', '{"action": "git push --force" "point": "x"}', 'line 1, column 31'],
      ['/v1/plan', '{"questions": [1, 2,]}', 'line 1, column 21'],
      ['/v1/observations', '{"question": "secret-text', 'line 1, column 26'],
      ['/v1/decisions/check', '{"action": "ls", "choice": tru}', 'line 1, column 31'],
      ['/v1/sessions', 'secret', 'line 1, column 1'],
    ] as const) {
      const r = await t.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
      const answer = (await r.json()) as { error: { code: string; message: string; issues: unknown[] } }
      expect([r.status, answer.error.code]).toEqual([400, 'invalid_json'])
      expect(answer.error.message).toBe(`the body is not valid JSON (${where})`)
      expect(answer.error.issues).toEqual([{ path: '(body)', message: `not valid JSON at ${where}` }])
      expect(JSON.stringify(answer)).not.toContain('secret')
    }
  })

  it('says what a context value may be, not only "Invalid input"', async () => {
    for (const value of [{ deep: 1 }, ['run']]) {
      const r = await t.call('POST', '/v1/recommendations', { ...REC, context: { phase: value } })
      expect(r.body.error.issues).toEqual([
        { path: 'context.phase', message: 'must be a string, a finite number, a boolean or null (a context is flat)' },
      ])
    }
  })

  it('says a required field left out is missing, not that it received undefined', async () => {
    // JSON has no undefined: zod's "Invalid input: expected string, received undefined" meant a field not sent.
    const body = await t.call('POST', '/v1/recommendations', { all_options: ['Tier S', 'Tier M'] })
    expect(body.body.error.issues).toEqual([{ path: 'question', message: 'missing: expected string' }])
    const union = await t.call('POST', '/v1/observations', { ...OBS, user_choice: undefined })
    expect(union.body.error.issues).toEqual([{ path: 'user_choice', message: 'missing: expected string or array' }])
    const query = await t.call('GET', '/v1/why?user=alice')
    expect(query.body.error.issues).toEqual([{ path: 'point', message: 'missing: expected string' }])
    // A field of a few values left out is said missing too, and one sent with another value is not.
    const decision = { title: 'T', decision: 'D', rationale: 'R' }
    const kindless = await t.call('POST', '/v1/decisions', { ...decision, constraints: [{ option: 'pg' }] })
    expect(kindless.body.error.issues).toEqual([{ path: 'constraints.0.kind', message: 'missing: one of "must", "must_not", "prefer", "limit"' }])
    const wrong = await t.call('POST', '/v1/decisions', { ...decision, constraints: [{ kind: 'should', option: 'pg' }] })
    expect(wrong.body.error.issues).toEqual([{ path: 'constraints.0.kind', message: 'one of "must", "must_not", "prefer", "limit", not "should"' }])
  })

  it('tells an observation\'s source what it takes and what was sent, and stores nothing', async () => {
    // A null source is one left out (null-fields.test.ts).
    for (const [source, sent] of [['bot', '"bot"'], [1, 'a number'], [[], 'an array']] as const) {
      const r = await t.call('POST', '/v1/observations', { ...OBS, user: 'sourceless', source })
      expect([source, r.status, r.body.error?.issues]).toEqual([source, 400, [{ path: 'source', message: `one of "user", "auto-resolved", not ${sent}` }]])
    }
    expect((await t.call('GET', '/v1/users/sourceless/preferences')).body.points).toEqual([])
  })

  it('does not tell a number too large for a double that it must be a number', async () => {
    // JSON.parse reads 1e400 as Infinity, which no context value may be: the issue says why.
    const r = await t.call('POST', '/v1/observations', '{"question":"Which tier?","user_choice":"Tier S","all_options":["Tier S","Tier M"],"context":{"size":1e400}}')
    expect(r.status).toBe(400)
    expect(r.body.error.issues).toEqual([
      { path: 'context.size', message: 'must be a string, a finite number, a boolean or null (a context is flat)' },
    ])
  })

  it('says what a field of several types takes, not only "Invalid input"', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ ...OBS, user_choice: { label: 'Tier S' } }, 'user_choice', "an option's label, or an array of labels, not an object"],
      [{ ...OBS, user_choice: 7 }, 'user_choice', "an option's label, or an array of labels, not a number"],
      [{ ...OBS, all_options: [null, 'Tier M'] }, 'all_options.0', 'an option: its label, or an object {label, description}, not null'],
      [{ ...OBS, all_options: [['Tier S'], 'Tier M'] }, 'all_options.0', 'an option: its label, or an object {label, description}, not an array'],
      // A context is a JSON object to the client, not zod's "record".
      [{ ...OBS, context: ['phase', 'run'] }, 'context', 'a flat object: keys with text, numbers, booleans or null, not an array'],
      [{ ...OBS, context: 'phase=run' }, 'context', 'a flat object: keys with text, numbers, booleans or null, not a string'],
    ]
    for (const [body, path, message] of cases) {
      const r = await t.call('POST', '/v1/observations', body)
      expect(r.body.error.issues).toEqual([{ path, message }])
    }
  })

  it('names each unknown field by its own path, with the body\'s other problems, and stores nothing', async () => {
    const body = { ...OBS, usr: 'alice', projet: 'acme', sesion_id: 's', timestamp: 'yesterday' }
    const r = await t.call('POST', '/v1/observations', body)
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('invalid_request')
    expect(r.body.error.issues).toEqual([
      { path: 'timestamp', message: expect.any(String) },
      { path: 'usr', message: 'unknown field' },
      { path: 'projet', message: 'unknown field' },
      { path: 'sesion_id', message: 'unknown field' },
    ])
    expect(r.body.error.message).toBe('invalid request: timestamp, usr, projet, sesion_id')
    const twice = [{ ...OBS, decisionId: 'cam-1' }, { ...OBS, decisionId: 'cam-1' }]
    const again = await t.call('POST', '/v1/observations', twice)
    expect(again.body.error.issues).toEqual([
      { path: '0.decisionId', message: 'unknown field' },
      { path: '1.decisionId', message: 'unknown field' },
    ])
    const rec = await t.call('POST', '/v1/recommendations', REC)
    expect(rec.body.observations).toBe(0)
  })

  it('keeps open what is open by design: an option\'s own fields and the context\'s keys', async () => {
    const r = await t.call('POST', '/v1/observations', {
      ...OBS,
      user: 'open',
      decision_id: 'open-1',
      all_options: [{ label: 'Tier S', description: 'small', preview: 'x' }, 'Tier M'],
      context: { anything: 'goes', spec_id: 'SPEC-1' },
    })
    expect(r.status).toBe(201)
  })

  it('refuses a body that is not UTF-8 as invalid_json, whatever its charset says, rather than storing U+FFFD in place of its bytes', async () => {
    const latin1 = (body: unknown) => Buffer.from(JSON.stringify(body), 'latin1')
    const cases: Array<[string, unknown]> = [
      ['/v1/observations', { ...OBS, user: 'jos\u00e9', question: 'Caf\u00e9?' }],
      ['/v1/recommendations', { ...REC, user: 'jos\u00e9', session_id: 'caf\u00e9' }],
      ['/v1/sessions', { user: 'jos\u00e9', session_id: 'caf\u00e9' }],
      ['/v1/plan', { user: 'jos\u00e9', questions: [{ question: 'Caf\u00e9?', options: [{ label: 'a' }, { label: 'b' }] }] }],
    ]
    for (const [path, body] of cases) {
      for (const type of ['application/json', 'application/json; charset=latin1']) {
        const r = await t.app.request(path, { method: 'POST', headers: { 'content-type': type }, body: latin1(body) })
        expect([path, type, r.status]).toEqual([path, type, 400])
        const answer = (await r.json()) as { error: { code: string; message: string; issues: unknown[] } }
        expect(answer.error.code).toBe('invalid_json')
        expect(answer.error.message).toBe('the body is not valid JSON: it is not UTF-8')
        // Named as a body that is not JSON is: its one issue on `(body)`, quoting none of it.
        expect(answer.error.issues).toEqual([{ path: '(body)', message: 'not UTF-8: send JSON in UTF-8, whatever the charset says' }])
      }
    }
    for (const user of ['jos\u00e9', 'jos\uFFFD']) {
      const exported = await t.app.request(`/v1/users/${encodeURIComponent(user)}/export`)
      expect((await exported.text()).trim().split('\n').at(-1)).toBe('{"type":"end","counts":{"observation":0,"session":0,"aggregate":0,"entry":0}}')
    }
    // The same bodies in UTF-8, and with a byte order mark, are taken.
    const utf8 = { ...OBS, user: 'jos\u00e9', question: 'Caf\u00e9?' }
    expect((await t.call('POST', '/v1/observations', utf8)).status).toBe(201)
    const withBom = await t.app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `\uFEFF${JSON.stringify(utf8)}` })
    expect(withBom.status).toBe(201)
  })

  it('answers a body that is not UTF-8 in a type no route takes as JSON as it answers one that is: 415 for its type, not 400 for its bytes', async () => {
    const latin1 = Buffer.from(JSON.stringify({ ...OBS, question: 'Caf\u00e9?' }), 'latin1')
    const utf8 = Buffer.from(JSON.stringify({ ...OBS, question: 'Caf\u00e9?' }), 'utf8')
    // Types that begin as JSON's and are none the route takes: JSON Lines, JSON text sequences, a
    // type given twice (joined) whose second is not JSON.
    for (const type of ['application/jsonl', 'application/json-seq', 'application/jsonl; charset=utf-8', 'application/json, text/plain']) {
      const answers = []
      for (const body of [latin1, utf8]) {
        const r = await t.app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body })
        const { error } = (await r.json()) as { error: { code: string; message: string; issues: unknown[] } }
        answers.push([r.status, error.code, error.message, error.issues])
      }
      expect(answers[0], type).toEqual([415, 'unsupported_media_type', expect.stringContaining('content-type: application/json, not'), [{ path: 'content-type', message: expect.stringContaining('must be application/json, not') }]])
      expect(answers[0], type).toEqual(answers[1])
    }
    // A type the route takes as JSON (a +json suffix, a charset) is JSON, and its bytes must be UTF-8.
    for (const type of ['application/vnd.example+json', 'application/json;charset=latin1']) {
      const r = await t.app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body: latin1 })
      expect([type, r.status, ((await r.json()) as { error: { code: string } }).error.code]).toEqual([type, 400, 'invalid_json'])
    }
  })

  it('answers a body of length 0 in a type that only begins as JSON\'s as no body, as in any other type not JSON', async () => {
    const own = await createTestApp()
    const empty = (type: string) => ({ method: 'POST', headers: { 'content-type': type, 'content-length': '0' }, body: '' })
    expect((await own.app.request('/v1/maintenance/decay-scan', empty('application/jsonl'))).status).toBe(200)
    expect((await own.app.request('/v1/sessions', empty('application/json-seq'))).status).toBe(201)
  })

  it('answers 415 naming content-type for a body that is not declared JSON, or declared another type', async () => {
    const sent = [
      [{}, 'missing: must be application/json'],
      [{ 'content-type': 'text/plain' }, 'must be application/json, not "text/plain"'],
    ] as Array<[Record<string, string>, string]>
    for (const [headers, issue] of sent) {
      const r = await t.app.request('/v1/observations', { method: 'POST', headers, body: new TextEncoder().encode(JSON.stringify(OBS)) })
      expect(r.status).toBe(415)
      const body = (await r.json()) as { error: { code: string; message: string; issues: Array<{ path: string; message: string }> } }
      expect(body.error.code).toBe('unsupported_media_type')
      expect(body.error.message).toContain('content-type: application/json')
      expect(body.error.issues).toEqual([{ path: 'content-type', message: issue }])
    }
  })

  it('answers 415 naming content-encoding for a compressed body, and takes one marked identity', async () => {
    // An app of its own: the one taken is stored, and this suite holds its app's store empty.
    const own = await createTestApp()
    const { gzipSync } = await import('node:zlib')
    const gzipped = gzipSync(JSON.stringify({ ...OBS, decision_id: 'gz-1' }))
    for (const path of ['/v1/observations', '/v1/recommendations']) {
      const r = await own.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipped })
      expect(r.status).toBe(415)
      const body = (await r.json()) as { error: { code: string; message: string; issues: Array<{ path: string }> } }
      expect(body.error.code).toBe('unsupported_media_type')
      expect(body.error.message).toContain('content-encoding: gzip')
      expect(body.error.issues.map((i) => i.path)).toEqual(['content-encoding'])
    }
    const identity = await own.app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: JSON.stringify({ ...OBS, decision_id: 'id-1' }) })
    expect(identity.status).toBe(201)
  })

  it('answers 415 naming transfer-encoding for a body sent in a transfer coding besides chunked, as for a content-encoding', async () => {
    const own = await createTestApp()
    const { gzipSync } = await import('node:zlib')
    const gzipped = gzipSync(JSON.stringify({ ...OBS, decision_id: 'te-1' }))
    // Node's parser takes a coding before chunked, the last, and hands on the body as sent.
    for (const [te, body] of [['gzip, chunked', gzipped], ['GZIP , Chunked', gzipped], ['x-foo, chunked', JSON.stringify({ ...OBS, decision_id: 'te-2' })]] as const) {
      const r = await own.app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': te }, body })
      const { error } = (await r.json()) as { error: { code: string; message: string; issues: unknown[] } }
      expect([te, r.status, error.code]).toEqual([te, 415, 'unsupported_media_type'])
      const coding = te.split(',')[0]?.trim()
      expect(error.message).toBe(`the body is sent with transfer-encoding: ${te}; send it in no transfer coding but chunked (uncompressed)`)
      expect(error.issues).toEqual([{ path: 'transfer-encoding', message: `unsupported transfer coding: ${coding}` }])
    }
    // Nothing was stored; chunked alone, and with identity before it, are taken.
    expect((await (await own.app.request('/v1/users/default/export')).text())).not.toContain('"type":"observation"')
    for (const te of ['chunked', 'identity, chunked']) {
      const r = await own.app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': te }, body: JSON.stringify(OBS) })
      expect([te, r.status]).toEqual([te, 201])
    }
    // A body not read (an OPTIONS's) is answered as without the header.
    expect((await own.app.request('/v1/observations', { method: 'OPTIONS', headers: { 'transfer-encoding': 'gzip, chunked' }, body: gzipped })).status).toBe(204)
  })

  it('answers a request that sends no body as without its content-encoding: nothing is compressed, and 415 is not in its OpenAPI answers', async () => {
    const own = await createTestApp()
    const gzip = { 'content-encoding': 'gzip' }
    // DELETE /v1/users/{user} takes no body: the document lists no 415 for it.
    expect((await own.app.request('/v1/users/bob', { method: 'DELETE', headers: gzip })).status).toBe(200)
    // An optional body left out, and a declared JSON body that is empty (read as {}).
    expect((await own.app.request('/v1/sessions', { method: 'POST', headers: gzip })).status).toBe(201)
    expect((await own.app.request('/v1/sessions', { method: 'POST', headers: { ...gzip, 'content-type': 'application/json' } })).status).toBe(201)
  })

  it('reads a declared JSON body that is empty as {}: optional bodies work, required ones name their fields', async () => {
    const empty = { method: 'POST', headers: { 'content-type': 'application/json' } }
    const scan = await t.app.request('/v1/maintenance/decay-scan', empty)
    expect(scan.status).toBe(200)
    const observation = await t.app.request('/v1/observations', empty)
    expect(observation.status).toBe(400)
    const body = (await observation.json()) as { error: { code: string; issues: Array<{ path: string }> } }
    expect(body.error.code).toBe('invalid_request')
    expect(body.error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['question', 'user_choice', 'all_options']))
  })

  it('reads a body of a byte order mark or white space alone as {}, whether its length is declared or not', async () => {
    const own = await createTestApp()
    for (const text of ['\uFEFF', '\uFEFF  \n', ' \r\n\t']) {
      const bytes = new TextEncoder().encode(text)
      for (const headers of [{ 'content-length': String(bytes.length) }, {}] as Array<Record<string, string>>) {
        const send = (path: string) => own.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: bytes })
        const what = `${JSON.stringify(text)} ${JSON.stringify(headers)}`
        expect((await send('/v1/sessions')).status, what).toBe(201)
        const observation = await send('/v1/observations')
        const body = (await observation.json()) as { error: { code: string; issues: Array<{ path: string }> } }
        expect([observation.status, body.error.code], what).toEqual([400, 'invalid_request'])
        expect(body.error.issues.map((i) => i.path), what).toEqual(expect.arrayContaining(['question', 'user_choice', 'all_options']))
      }
    }
  })

  it('refuses a body of a space JSON does not know (a non-breaking or ideographic space) as invalid JSON, where it is', async () => {
    const own = await createTestApp()
    for (const text of ['\u00A0', ' \u3000 ']) {
      const r = await own.app.request('/v1/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(text) })
      const body = (await r.json()) as { error: { code: string; message: string; issues: Array<{ path: string }> } }
      expect([r.status, body.error.code], JSON.stringify(text)).toEqual([400, 'invalid_json'])
      expect(body.error.message).toMatch(/line 1, column \d+/)
      expect(body.error.issues.map((i) => i.path)).toEqual(['(body)'])
    }
  })

  it('answers a body of length 0 declared in another type as no body (`curl -d \'\'`), and still refuses such a body that is not empty', async () => {
    const form = (length: number, body: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(length) }, body })
    const own = await createTestApp()
    expect((await own.app.request('/v1/maintenance/decay-scan', form(0, ''))).status).toBe(200)
    expect((await own.app.request('/v1/sessions', form(0, ''))).status).toBe(201)
    const observation = await own.app.request('/v1/observations', form(0, ''))
    expect(observation.status).toBe(400)
    const body = (await observation.json()) as { error: { code: string; issues: Array<{ path: string }> } }
    expect(body.error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['question', 'user_choice', 'all_options']))
    const text = JSON.stringify(OBS)
    expect((await own.app.request('/v1/observations', form(Buffer.byteLength(text), text))).status).toBe(415)
  })

  it('answers 413 for a body over 256 KB', async () => {
    const r = await t.call('POST', '/v1/observations', { ...OBS, question: 'x'.repeat(300 * 1024) })
    expect(r.status).toBe(413)
    expect(r.body.error.code).toBe('body_too_large')
  })

  it('answers 413 for a declared length over 256 KB, and serves a declared length under it', async () => {
    const declared = (length: number, body: string) =>
      t.app.request('/v1/recommendations', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length) }, body })
    const over = await declared(256 * 1024 + 1, '{}')
    expect(over.status).toBe(413)
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('body_too_large')
    const body = JSON.stringify(REC)
    expect((await declared(Buffer.byteLength(body), body)).status).toBe(200)
  })

  it('still serves after all of that, with nothing stored by the bad requests', async () => {
    expect((await t.call('GET', '/healthz')).status).toBe(200)
    const r = await t.call('POST', '/v1/recommendations', REC)
    expect(r.status).toBe(200)
    expect(r.body.observations).toBe(0)
  })
})

describe('a store LevelDB cannot write (R-SVC-2: a 5xx is a bug, and this is none)', () => {
  it('answers 503 store_unavailable with LevelDB’s reason, not a 500 asking for a bug report, and stores nothing', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    expect((await t.call('POST', '/v1/observations', { ...OBS, user: 'full', decision_id: 'before' })).status).toBe(201)
    const internals = db as unknown as { _batch: (...args: unknown[]) => Promise<void> }
    const write = internals._batch
    const noSpace = 'IO error: /data/000056.ldb: No space left on device'
    internals._batch = async () => {
      throw Object.assign(new Error(noSpace), { code: 'LEVEL_IO_ERROR' })
    }
    const r = await t.call('POST', '/v1/observations', { ...OBS, user: 'full', decision_id: 'during' })
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe('store_unavailable')
    expect(r.body.error.message).toContain(`the store cannot be written or read (${noSpace})`)
    expect(r.body.error.message).toContain('restart the service')
    internals._batch = write
    const exported = await (await t.app.request('/v1/users/full/export')).text()
    expect(exported).toContain('"decision_id":"before"')
    expect(exported).not.toContain('"decision_id":"during"')
    // Sent again once the store writes, it is stored: the failed write left no idempotency key.
    expect((await t.call('POST', '/v1/observations', { ...OBS, user: 'full', decision_id: 'during' })).body.stored).toHaveLength(1)
  })

  it('says what to do about a damaged store, not only that it is damaged', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    const damaged = 'Corruption: not an sstable (bad magic number)'
    failReads(db, damaged, 'LEVEL_CORRUPTION')
    const r = await t.call('POST', '/v1/observations', { ...OBS, user: 'bitrot', decision_id: 'd-1' })
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe('store_unavailable')
    expect(r.body.error.message).toBe(
      `the store is damaged (${damaged}): a write that failed stored nothing; stop the service and restore the store's folder from a backup`,
    )
  })

  it('says of an IO error both what mends a damaged file and what mends a full disk', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    // What LevelDB says of a table file cut short, or overwritten with garbage shorter than it.
    const unreadable = 'IO error: /data/000005.ldb: Invalid argument'
    failReads(db, unreadable, 'LEVEL_IO_ERROR')
    const r = await t.call('POST', '/v1/recommendations', { ...REC, user: 'bitrot' })
    expect(r.status).toBe(503)
    expect(r.body.error.message).toBe(
      `the store cannot be written or read (${unreadable}); a write that failed stored nothing: if a file of the store is damaged or cut short, stop the service and restore the store's folder from a backup; else, once the cause is fixed (a full disk, a file it may not read or write), restart the service, since LevelDB refuses every write after a failed one`,
    )
  })

  it('says a read failed, not that a write stored nothing, to a request that writes nothing', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    const damaged = 'Corruption: not an sstable (bad magic number)'
    const readsBack = failIterators(db, damaged, 'LEVEL_CORRUPTION')
    const r = await t.call('GET', '/v1/users/alice/preferences')
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe('store_unavailable')
    expect(r.body.error.message).toBe(
      `the store is damaged (${damaged}): a read met a damaged file, and this request writes nothing; stop the service and restore the store's folder from a backup`,
    )
    readsBack()
    const unreadable = 'IO error: /data/000005.ldb: Invalid argument'
    failIterators(db, unreadable, 'LEVEL_IO_ERROR')
    const io = await t.call('GET', '/v1/users/alice/preferences')
    expect(io.status).toBe(503)
    expect(io.body.error.message).toMatch(/^the store cannot be written or read \(IO error: [^)]*\); a read failed, and this request writes nothing: if a file of the store/)
  })

  it('says a write stored nothing to a GET that writes (applicable decisions count recall pulses)', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    const damaged = 'Corruption: not an sstable (bad magic number)'
    failIterators(db, damaged, 'LEVEL_CORRUPTION')
    const r = await t.call('GET', '/v1/decisions/applicable')
    expect(r.status).toBe(503)
    expect(r.body.error.message).toContain('a write that failed stored nothing')
  })

  it('says a write stored nothing to GET /v1/why, whose recommendation may rebuild a point\'s aggregate, as `why --point` says it', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    const damaged = 'Corruption: not an sstable (bad magic number)'
    failIterators(db, damaged, 'LEVEL_CORRUPTION')
    const r = await t.call('GET', '/v1/why?user=alice&point=complexity-tier')
    expect(r.status).toBe(503)
    expect(r.body.error.code).toBe('store_unavailable')
    expect(r.body.error.message).toBe(`the store is damaged (${damaged}): a write that failed stored nothing; stop the service and restore the store's folder from a backup`)
  })

  it('says a read failed to a check with as_of, an audit that counts no pulse, and a write to one without', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    const damaged = 'Corruption: not an sstable (bad magic number)'
    failIterators(db, damaged, 'LEVEL_CORRUPTION')
    const audit = await t.call('POST', '/v1/decisions/check', { action: 'git push --force', as_of: '2026-01-01T00:00:00.000Z' })
    expect(audit.status).toBe(503)
    expect(audit.body.error.code).toBe('store_unavailable')
    expect(audit.body.error.message).toBe(
      `the store is damaged (${damaged}): a read met a damaged file, and this request writes nothing; stop the service and restore the store's folder from a backup`,
    )
    // Without as_of, each decision checked counts a recall pulse: a write.
    const now = await t.call('POST', '/v1/decisions/check', { action: 'git push --force' })
    expect(now.status).toBe(503)
    expect(now.body.error.message).toContain('a write that failed stored nothing')
  })

  it('says so on /healthz once a read met a damaged file, until the service is restarted, and what to do', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    expect((await t.call('GET', '/healthz')).status).toBe(200)
    const damaged = 'Corruption: not an sstable (bad magic number)'
    const readsBack = failReads(db, damaged, 'LEVEL_CORRUPTION')
    expect((await t.call('POST', '/v1/observations', { ...OBS, user: 'bitrot', decision_id: 'd-1' })).status).toBe(503)
    const health = await t.call('GET', '/healthz')
    expect(health.status).toBe(503)
    expect(health.body.error.code).toBe('store_unavailable')
    expect(health.body.error.message).toBe(
      `the store is damaged (${damaged}): a read met a damaged file, and every request that reads it fails; stop the service and restore the store's folder from a backup`,
    )
    // Reads and writes that work elsewhere in the store do not make it well: the file is still damaged.
    readsBack()
    expect((await t.call('POST', '/v1/observations', { ...OBS, user: 'other', decision_id: 'd-2' })).status).toBe(201)
    expect((await t.call('GET', '/healthz')).status).toBe(503)
  })

  it('says so on /healthz while its last write has failed, so that a probe sees a service that stores nothing', async () => {
    const db = new MemoryLevel<string, string>()
    const t = await createTestApp({ db })
    expect((await t.call('GET', '/healthz')).status).toBe(200)
    const internals = db as unknown as { _batch: (...args: unknown[]) => Promise<void> }
    const write = internals._batch
    const noSpace = 'IO error: /data/000056.ldb: No space left on device'
    internals._batch = async () => {
      throw Object.assign(new Error(noSpace), { code: 'LEVEL_IO_ERROR' })
    }
    expect((await t.call('POST', '/v1/observations', { ...OBS, user: 'full', decision_id: 'refused' })).status).toBe(503)
    const health = await t.call('GET', '/healthz')
    expect(health.status).toBe(503)
    expect(health.body.error.code).toBe('store_unavailable')
    expect(health.body.error.message).toBe(
      `the store's last write failed (${noSpace}): every write is refused until one succeeds, and LevelDB refuses them all after most such failures; if a file of the store is damaged or cut short, stop the service and restore the store's folder from a backup; else fix the cause (a full disk, a file it may not write), then restart the service`,
    )
    // A read that works does not make it healthy again; a write that works does.
    expect((await t.call('POST', '/v1/recommendations', REC)).status).toBe(200)
    expect((await t.call('GET', '/healthz')).status).toBe(503)
    internals._batch = write
    expect((await t.call('POST', '/v1/observations', { ...OBS, user: 'full', decision_id: 'refused' })).status).toBe(201)
    expect((await t.call('GET', '/healthz')).body).toEqual({ status: 'ok', version: 'test' })
  })
})
