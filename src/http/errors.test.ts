import { describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import pino from 'pino'
import { createTestApp } from '../../test/support/test-app'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { InputError } from '../domain/errors'
import { createErrorHandler } from './errors'

describe('a field of the wrong type is named once, by its type (R-SVC-2)', () => {
  it('a string sent for an array gets no length limit of a string that no field has', async () => {
    const { call } = await createTestApp()
    const cases: Array<[string, string, unknown, string, string]> = [
      ['POST', '/v1/plan', { questions: '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]' }, 'questions', 'an array of questions'],
      ['POST', '/v1/plan', { questions: '' }, 'questions', 'an array of questions'],
      ['POST', '/v1/recommendations', { question: 'Which tier?', all_options: '' }, 'all_options', 'an array of options: labels, or objects {label, description}'],
      ['POST', '/v1/decisions', { title: 't', decision: 'd', rationale: 'r', constraints: 'x'.repeat(60) }, 'constraints', 'an array of constraints'],
    ]
    for (const [method, path, body, field, takes] of cases) {
      const answer = await call(method, path, body)
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(answer.body.error.code).toBe('invalid_request')
      expect(answer.body.error.issues).toEqual([{ path: field, message: `${takes}, not a string` }])
      expect(answer.body.error.message).toBe(`invalid request: ${field}`)
    }
  })

  it('an empty array sent for a string gets no length limit of an array, nor its blank check', async () => {
    const { call } = await createTestApp()
    const cases: Array<[string, string, unknown, string, string]> = [
      ['POST', '/v1/observations', { question: 'Q?', user_choice: 'A', all_options: ['A', 'B'], user: [] }, 'user', 'a name (text)'],
      ['POST', '/v1/recommendations', { question: [], all_options: ['A', 'B'] }, 'question', 'a question (text)'],
      ['POST', '/v1/decisions/check', { action: [] }, 'action', 'a shell command (text)'],
      ['POST', '/v1/decisions', { title: [], decision: 'd', rationale: 'r' }, 'title', 'text'],
    ]
    for (const [method, path, body, field, takes] of cases) {
      const answer = await call(method, path, body)
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400)
      expect(answer.body.error.issues).toEqual([{ path: field, message: `${takes}, not an array` }])
    }
  })

  it("a hook's AskUserQuestion questions sent as a JSON string are named once, as not an array", async () => {
    const { call } = await createTestApp()
    const questions = JSON.stringify([{ question: 'Which tier?', header: 'Tier', options: [{ label: 'S', description: '' }, { label: 'M', description: '' }] }])
    const answer = await call('POST', '/v1/hooks/claude-code', {
      hook_event_name: 'PreToolUse',
      session_id: 's-1',
      tool_name: 'AskUserQuestion',
      tool_use_id: 'toolu_1',
      tool_input: { questions },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error.issues).toEqual([{ path: 'tool_input.questions', message: 'an array of questions, not a string' }])
  })

  it('a value of the right type over a limit is still refused with the limit', async () => {
    const { call } = await createTestApp()
    const questions = Array.from({ length: 21 }, (_, i) => ({ question: `Q${i}?`, header: 'H', options: [{ label: 'a', description: '' }, { label: 'b', description: '' }] }))
    const answer = await call('POST', '/v1/plan', { questions })
    expect(answer.status).toBe(400)
    expect(answer.body.error.issues).toEqual([{ path: 'questions', message: 'at most 20 questions, not 21' }])
  })
})

describe('a field that breaks two rules at once', () => {
  it('is named once in the message, with each rule in its issues', async () => {
    const { call } = await createTestApp()
    const answer = await call('POST', '/v1/decisions/check', { action: '' })
    expect(answer.status).toBe(400)
    expect(answer.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['action', 'action'])
    expect(answer.body.error.message).toBe('invalid request: action')
  })

  it('names at most ten fields in the message, and how many more: each is still in its issues', async () => {
    const { call } = await createTestApp()
    const context = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, { nested: i }]))
    const answer = await call('POST', '/v1/recommendations', { user: 'alice', question: 'Which tier?', all_options: ['S', 'M'], context })
    expect(answer.status).toBe(400)
    const named = Array.from({ length: 10 }, (_, i) => `context.k${i}`).join(', ')
    expect(answer.body.error.message).toBe(`invalid request: ${named} and 15 more`)
    expect(new Set(answer.body.error.issues.map((i: { path: string }) => i.path)).size).toBe(25)
  })

  it('says so too of a hook payload and of a decision, whose messages name their fields', async () => {
    const { call } = await createTestApp()
    const payload = claudeCodeFixture('pre-tool-use')
    payload.tool_input.questions = Array.from({ length: 4 }, () => ({ question: ' ', header: 'H', multiSelect: false, options: [{ label: ' ' }, { label: ' ' }, { label: ' ' }] }))
    const hook = await call('POST', '/v1/hooks/claude-code', payload)
    expect(hook.status).toBe(400)
    // 4 blank texts, 12 blank labels; the texts are one text too, said of questions 1 to 3 beside their blankness.
    expect(new Set(hook.body.error.issues.map((i: { path: string }) => i.path)).size).toBe(16)
    expect(hook.body.error.issues).toContainEqual({ path: 'tool_input.questions.3.question', message: 'the same text as question 0: question texts must be unique (answers are keyed by them)' })
    const first = ['0.question', '0.options.0.label', '0.options.1.label', '0.options.2.label', '1.question', '1.options.0.label', '1.options.1.label', '1.options.2.label', '2.question', '2.options.0.label']
    expect(hook.body.error.message).toBe(`invalid tool_input: ${first.map((f) => `tool_input.questions.${f}`).join(', ')} and 6 more`)
    const limits = Array.from({ length: 12 }, () => ({ kind: 'limit' }))
    const decision = await call('POST', '/v1/decisions', { title: 'T', decision: 'D', rationale: 'R', constraints: limits })
    expect(decision.status).toBe(400)
    expect(decision.body.error.message).toBe(`invalid decision: ${Array.from({ length: 10 }, (_, i) => `constraints.${i}.value`).join(', ')} and 2 more`)
  })
})

/** A path's methods with OPTIONS, which every path answers, in the order Allow lists them. */
const withOptions = (methods: string) => [...methods.split(', '), 'OPTIONS'].sort().join(', ')

describe('OPTIONS', () => {
  it('answers a path a route has 204, its Allow listing the methods it takes and OPTIONS, with no body and no CORS header', async () => {
    const { app } = await createTestApp()
    const cases: Array<[string, string]> = [
      ['/v1/observations', 'OPTIONS, POST'],
      ['/v1/recommendations', 'OPTIONS, POST'],
      ['/healthz', 'GET, HEAD, OPTIONS'],
      ['/openapi.json', 'GET, HEAD, OPTIONS'],
      ['/v1/users/alice', 'DELETE, OPTIONS'],
      ['/v1/users/alice/export', 'GET, HEAD, OPTIONS'],
      ['/v1/decisions', 'GET, HEAD, OPTIONS, POST'],
      ['/v1/decisions/D-001', 'GET, HEAD, OPTIONS'],
      // Named as it is, not read as the decision key "check" of GET /v1/decisions/{key}.
      ['/v1/decisions/check', 'OPTIONS, POST'],
      ['/v1/sessions/s-1/personalization', 'GET, HEAD, OPTIONS, PUT'],
    ]
    for (const [path, allowed] of cases) {
      const answer = await app.request(path, { method: 'OPTIONS' })
      expect(answer.status, path).toBe(204)
      expect(answer.headers.get('allow'), path).toBe(allowed)
      expect(await answer.text(), path).toBe('')
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-')), path).toEqual([])
    }
  })

  it('reads no body: one sent with it, not JSON, not UTF-8 or compressed, is answered as none', async () => {
    const { app } = await createTestApp()
    const bodies: Array<[Record<string, string>, string | Uint8Array]> = [
      [{ 'content-type': 'application/json' }, '{"question":'],
      [{ 'content-type': 'application/json' }, new Uint8Array([0x7b, 0xff, 0x7d])],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, new Uint8Array([0x1f, 0x8b, 0x08])],
    ]
    for (const [headers, body] of bodies) {
      const answer = await app.request('/v1/observations', { method: 'OPTIONS', headers, body })
      expect([answer.status, answer.headers.get('allow')], JSON.stringify(headers)).toEqual([204, 'OPTIONS, POST'])
    }
  })

  it('reads no body over 256 KB either, its length declared or not: a 204, not a 413, as a GET is', async () => {
    const { app } = await createTestApp()
    const over = 'x'.repeat(256 * 1024 + 1)
    const declared = await app.request('/v1/observations', { method: 'OPTIONS', headers: { 'content-length': String(over.length) }, body: over })
    expect([declared.status, declared.headers.get('allow')]).toEqual([204, 'OPTIONS, POST'])
    // A stream is sent chunked, its length unknown until read.
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(over)), c.close()) })
    const chunked = await app.request('/v1/observations', { method: 'OPTIONS', body: stream, duplex: 'half' } as RequestInit)
    expect([chunked.status, chunked.headers.get('allow')]).toEqual([204, 'OPTIONS, POST'])
  })

  it('answers a path no route has 404, as every other method there is answered', async () => {
    const { app } = await createTestApp()
    const none = await app.request('/v1/nothing', { method: 'OPTIONS' })
    expect(none.status).toBe(404)
    expect(none.headers.get('allow')).toBeNull()
    expect(((await none.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'not_found', message: 'no route OPTIONS /v1/nothing' })
    expect((await app.request('/v1/observations/', { method: 'OPTIONS' })).status).toBe(404)
    // A path a route's parameter fits, but no asset of /docs: 404 to a GET, and to OPTIONS.
    expect((await app.request('/docs/nothing.js', { method: 'GET' })).status).toBe(404)
    expect((await app.request('/docs/nothing.js', { method: 'OPTIONS' })).status).toBe(404)
    const asset = await app.request('/docs/swagger-ui.css', { method: 'OPTIONS' })
    expect([asset.status, asset.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS'])
  })

  it('is said in the OpenAPI document, as is the rule of text no field pattern says: no lone surrogates', async () => {
    const { app } = await createTestApp()
    const { info } = (await (await app.request('/openapi.json')).json()) as { info: { description: string } }
    // Of every path, but with --auth not without the token its operations need (/healthz needs none).
    expect(info.description).toContain('Every path answers OPTIONS with 204 and an Allow header listing its methods, given the bearer token its operations ask for.')
    // Not every string: a hook payload's fields the service does not read, and a plan's kept as sent, take one.
    expect(info.description).toContain('No text of a request that the service stores or reads holds a lone UTF-16 surrogate (`"\\ud800"`)')
  })

  it("is refused a web page's preflight (an Origin of another site) by the same-machine check, as any request of it", async () => {
    const { app } = await createTestApp()
    const preflight = await app.request('/v1/decisions/D-001/revoke', {
      method: 'OPTIONS',
      headers: { origin: 'https://attacker.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('a path asked with a method it does not take', () => {
  it('is told the methods it takes (405 and Allow), not that there is no route; a path none takes is 404', async () => {
    const { app } = await createTestApp()
    const cases: Array<[string, string, string]> = [
      ['GET', '/v1/observations', 'POST'],
      ['DELETE', '/v1/recommendations', 'POST'],
      ['PUT', '/healthz', 'GET, HEAD'],
      ['GET', '/v1/users/alice', 'DELETE'],
      ['DELETE', '/v1/decisions/D-001', 'GET, HEAD'],
      // Named as it is, not read as the decision key "check" of GET /v1/decisions/{key}.
      ['GET', '/v1/decisions/check', 'POST'],
      ['POST', '/v1/decisions/applicable', 'GET, HEAD'],
      ['PATCH', '/v1/decisions', 'GET, HEAD, POST'],
    ]
    for (const [method, path, allowed] of cases) {
      const answer = await app.request(path, { method })
      expect(answer.status, `${method} ${path}`).toBe(405)
      // Allow lists every method the path takes, OPTIONS among them (RFC 9110 §10.2.1), as OPTIONS answers it.
      expect(answer.headers.get('allow')).toBe(withOptions(allowed))
      const body = (await answer.json()) as { error: unknown }
      // The message names the methods Allow lists, OPTIONS among them: the two never disagree.
      expect(body.error).toMatchObject({ code: 'method_not_allowed', message: `${path} takes ${withOptions(allowed)}, not ${method}`, issues: [] })
    }
    const none = await app.request('/v1/nothing', { method: 'GET' })
    expect(none.status).toBe(404)
    // A /v1/ path is a client's, which says itself what its 404 means (a URL with a path).
    expect(((await none.json()) as { error: { message: string } }).error.message).toBe('no route GET /v1/nothing')
    // The address a person opens in a browser after `npm start` is sent to the list of routes.
    const root = await app.request('/', { method: 'GET' })
    expect(root.status).toBe(404)
    expect(((await root.json()) as { error: { message: string } }).error.message).toBe('no route GET / (the routes are listed at /docs and in /openapi.json)')
    // A method a path takes is still answered by its route.
    expect((await app.request('/v1/decisions/D-404', { method: 'GET' })).status).toBe(404)
    expect((await app.request('/healthz', { method: 'HEAD' })).status).toBe(200)
  })
})

describe('a path the service has, asked with a slash more', () => {
  it.each([
    ['POST', '/v1/observations/', 'the route is POST /v1/observations, without the trailing slash', '/v1/observations'],
    ['POST', '/v1/recommendations//', 'the route is POST /v1/recommendations, without the trailing slash', '/v1/recommendations'],
    ['DELETE', '/v1/users/alice/', 'the route is DELETE /v1/users/alice, without the trailing slash', '/v1/users/alice'],
    ['GET', '/healthz/', 'the route is GET /healthz, without the trailing slash', '/healthz'],
    ['POST', '/v1//observations', 'the route is POST /v1/observations, with one slash between its parts', '/v1/observations'],
    ['GET', '/v1/observations/', '/v1/observations, without the trailing slash, takes POST', '/v1/observations'],
  ])('%s %s is 404, told the path it meant', async (method, path, said, meant) => {
    const { app } = await createTestApp()
    const answer = await app.request(path, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) })
    expect(answer.status).toBe(404)
    const { error } = (await answer.json()) as { error: { code: string; message: string; issues: unknown[] } }
    expect(error).toMatchObject({ code: 'not_found', message: `no route ${method} ${path}: ${said}` })
    expect(error.issues).toEqual([{ path: 'path', message: `not a route: did you mean ${meant}?` }])
  })

  it('is told nothing more where no route has its path without the slash', async () => {
    const { app } = await createTestApp()
    const answer = await app.request('/v1/nothing/', { method: 'POST' })
    expect(((await answer.json()) as { error: { message: string; issues: unknown[] } }).error).toMatchObject({ message: 'no route POST /v1/nothing/', issues: [] })
    // A key left empty is not the route of another key: POST /v1/decisions/accept is no route.
    const empty = await app.request('/v1/decisions//accept', { method: 'POST' })
    expect(((await empty.json()) as { error: { message: string; issues: unknown[] } }).error).toMatchObject({ message: 'no route POST /v1/decisions//accept', issues: [] })
  })

  // A parameter left empty, where the path without the slash would take the next part for it:
  // DELETE /v1/users/export forgets a user named "export".
  it.each([
    ['DELETE', '/v1/users//export'],
    ['DELETE', '/v1/users//preferences/'],
    ['GET', '/v1/decisions//why'],
  ])('%s %s, a parameter left empty, is not told a route that takes the next part for it', async (method, path) => {
    const { app } = await createTestApp()
    const answer = await app.request(path, { method })
    expect(answer.status).toBe(404)
    expect(((await answer.json()) as { error: { message: string; issues: unknown[] } }).error).toMatchObject({ message: `no route ${method} ${path}`, issues: [] })
  })
})

describe('a bug that throws what is not an Error', () => {
  it('is answered 500 under the request’s id, and logged with its request line, as a bug that throws an Error', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app, memory } = await createTestApp({ logger })
    // hono hands its error handler only an Error; a rejection with a string went past it and past the request log.
    memory.recommendJson = () => Promise.reject('the store said no')
    const response = await app.request('/v1/recommendations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'run-9' },
      body: JSON.stringify({ question: 'Which tier?', all_options: ['S', 'M'], user: 'alice' }),
    })
    expect(response.status).toBe(500)
    expect(response.headers.get('x-request-id')).toBe('run-9')
    expect(((await response.json()) as { error: unknown }).error).toEqual({ code: 'internal_error', message: 'internal error: this is a bug, please report it', issues: [], request_id: 'run-9' })
    expect(lines.map(({ msg, req_id, status, err }) => ({ msg, req_id, status, message: (err as { message?: string } | undefined)?.message }))).toEqual([
      { msg: 'unhandled error', req_id: 'run-9', status: undefined, message: 'the store said no' },
      { msg: 'request', req_id: 'run-9', status: 500, message: undefined },
    ])
  })
})

describe('a length limit is said as what the field takes and what was sent (R-SVC-2)', () => {
  it('names the limit and the length sent of a text or a list, at every route, a query\'s and a hook payload\'s too', async () => {
    const { call } = await createTestApp()
    // zod said `Too big: expected string to have <=200 characters`, `Too big: expected array to
    // have <=50 items`, `Too small: expected string to have >=1 characters`.
    const observation = { user: 'u', question: 'Which tier?', all_options: ['S', 'M'], user_choice: 'S' }
    const hook = claudeCodeFixture('pre-tool-use')
    const origin = { path: 'doc/adr/0001-use-x.md', line: 1, format: 'adr-tools', folder: 'doc/adr' }
    const record = { key: 'ADR-0001', title: 'Use X', decision: 'X.', rationale: 'Y.', status: 'accepted', date: null, origin }
    const cases: Array<[string, string, unknown, string, string]> = [
      ['POST', '/v1/observations', { ...observation, user: 'u'.repeat(201) }, 'user', 'at most 200 characters, not 201'],
      ['POST', '/v1/observations', { ...observation, user: '' }, 'user', 'must not be empty'],
      ['POST', '/v1/observations', { ...observation, all_options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 'all_options', 'at most 50 options, not 51'],
      ['POST', '/v1/observations', { ...observation, user_choice: Array.from({ length: 51 }, () => 'S') }, 'user_choice', 'at most 50 labels, not 51'],
      ['POST', '/v1/observations', Array.from({ length: 1001 }, () => observation), '(body)', 'at most 1000 observations, not 1001'],
      ['POST', '/v1/recommendations', { question: 'Which tier?', all_options: [] }, 'all_options', 'must not be empty'],
      // A choice question's options, too few or too many, told alike with the range it takes.
      ['POST', '/v1/plan', { questions: [{ question: 'Which tier?', options: ['A', 'B', 'C', 'D', 'E'].map((label) => ({ label })) }] }, 'questions.0.options', 'at most 4 options, not 5 (a choice question has 2 to 4 options)'],
      ['POST', '/v1/plan', { questions: [{ question: 'Which tier?', options: [{ label: 'A' }] }] }, 'questions.0.options', 'at least 2 options, not 1 (a choice question has 2 to 4 options)'],
      ['GET', `/v1/why?point=tier&user=${'u'.repeat(201)}`, undefined, 'user', 'at most 200 characters, not 201'],
      ['POST', '/v1/hooks/claude-code', { ...hook, hook_event_name: 'E'.repeat(101) }, 'hook_event_name', 'at most 100 characters, not 101'],
      ['POST', '/v1/decisions/import', { records: [{ ...record, origin: { ...origin, aliases: ['a', 'b', 'c', 'd', 'e'] } }] }, 'records.0.origin.aliases', 'at most 4 folders, not 5'],
      ['POST', '/v1/decisions/import', { records: [], folder: 'doc/adr', moved: Array.from({ length: 21 }, (_, i) => `m${i}`) }, 'moved', 'at most 20 folders, not 21'],
      ['POST', '/v1/decisions/import', { records: [{ ...record, origin: { ...origin, line: 0 } }] }, 'records.0.origin.line', 'at least 1, not 0'],
      // Said once: the line's own bound and int()'s safe-integer bound, the same number, were two issues.
      ['POST', '/v1/decisions/import', { records: [{ ...record, origin: { ...origin, line: 2 ** 53 } }] }, 'records.0.origin.line', 'at most 9007199254740991, not 9007199254740992'],
    ]
    for (const [method, path, body, field, message] of cases) {
      const answer = await call(method, path, body)
      expect([path, field, answer.status, answer.body.error?.issues]).toEqual([path, field, 400, [{ path: field, message }]])
    }
    expect((await call('GET', '/v1/users/u/preferences')).body.points).toEqual([])
  })
})

describe('a 415 of the service’s own (an InputError)', () => {
  it('keeps its message and issues: only @hono/zod-openapi’s refusal of the type has the type sent added', async () => {
    const app = new Hono()
    app.onError(createErrorHandler(pino({ level: 'silent' })))
    const issues = [{ path: 'content-encoding', message: 'unsupported content-encoding: br' }]
    app.post('/x', () => {
      throw new InputError('unsupported_media_type', 'send it uncompressed', { status: 415, issues })
    })
    const answer = await app.request('/x', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })
    expect(answer.status).toBe(415)
    expect(((await answer.json()) as { error: unknown }).error).toMatchObject({ code: 'unsupported_media_type', message: 'send it uncompressed', issues })
  })
})
