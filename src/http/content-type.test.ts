import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, OPS, testTokens } from '../../test/support/tokens'

const OBS = { question: 'Which tier?', user_choice: 'Tier S', all_options: ['Tier S', 'Tier M'] }
const REC = { question: 'Which tier?', all_options: ['Tier S', 'Tier M'] }

type ErrorAnswer = { error: { code: string; message: string; issues: Array<{ path: string; message: string }> } }

/**
 * A JSON type as RFC 9110 writes it (`media-type = type "/" subtype parameters`, its parameters
 * `*( OWS ";" OWS [ parameter ] )`): white space before or after each `;`, and a `;` with no
 * parameter after it, as clients and proxies write them.
 */
const SPACED_TYPES = [
  'application/json ; charset=utf-8',
  'application/json ;charset=UTF-8',
  'application/json\t;\tcharset=utf-8',
  'application/json;',
  'application/json; charset=utf-8;',
  'application/json;;charset=utf-8',
  'application/vnd.api+json ; charset=utf-8',
]

describe('a JSON body whose content type is written as RFC 9110 allows', () => {
  it.each(['Application/JSON; Charset=UTF-8', 'application/vnd.api+json', 'application/json; charset=latin1'])('is taken in %j, in any case, a +json type, its charset not read', async (type) => {
    const { app } = await createTestApp()
    const stored = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify({ ...OBS, user: 'caf\u00e9' }) })
    expect(stored.status).toBe(201)
  })

  it.each(SPACED_TYPES)('is taken in %j, and stored, as in application/json', async (type) => {
    const { app, call } = await createTestApp()
    const stored = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify({ ...OBS, user: 'alice' }) })
    expect(stored.status).toBe(201)
    const preferences = await call('GET', '/v1/users/alice/preferences')
    expect(preferences.body.points).toHaveLength(1)
    const recommended = await app.request('/v1/recommendations', { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify({ ...REC, user: 'alice' }) })
    expect(recommended.status).toBe(200)
  })

  it.each(['application/json, application/json', 'application/json, application/json; charset=utf-8'])(
    'is taken given twice, joined (%j), where each names JSON, as Node takes the first',
    async (type) => {
      const { app } = await createTestApp()
      const stored = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(OBS) })
      expect(stored.status).toBe(201)
    },
  )

  it('is read, not taken for a body left out, on a route whose body is optional', async () => {
    const { app } = await createTestApp()
    const started = await app.request('/v1/sessions', { method: 'POST', headers: { 'content-type': 'application/json ; charset=utf-8' }, body: '{"user":"bob","session_id":"s-1"}' })
    expect(started.status).toBe(201)
    expect(await started.json()).toMatchObject({ user: 'bob', session_id: 's-1' })
  })

  it('has its user checked against the token as in application/json, with auth on', async () => {
    const { app, call } = await createTestApp({ auth: testTokens })
    const send = (user: string) =>
      app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json ; charset=utf-8', authorization: `Bearer ${ALICE}` }, body: JSON.stringify({ ...OBS, user }) })
    expect((await send('bob')).status).toBe(403)
    expect((await call('GET', '/v1/users/bob/preferences', undefined, { authorization: `Bearer ${OPS}` })).body.points).toEqual([])
    expect((await send('alice')).status).toBe(201)
  })

  it('is judged with the other parts of the request, its fields named, not its content type', async () => {
    const { app } = await createTestApp()
    const refused = await app.request('/v1/decisions/-x/accept', { method: 'POST', headers: { 'content-type': 'application/json ; charset=utf-8' }, body: '{"reason":1}' })
    expect(refused.status).toBe(400)
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.issues.map((i) => i.path)).toEqual(['key', 'reason'])
  })
})

describe('a body sent in another content type, or in none', () => {
  /** What clients send unless told: fetch a string as text/plain, curl -d and urllib a form, a FormData multipart. */
  it.each([
    ['text/plain;charset=UTF-8', 'fetch with a string body'],
    ['application/x-www-form-urlencoded', 'curl -d, urllib.request'],
    ['multipart/form-data; boundary=x', 'a FormData'],
    ['application/json, text/plain', 'the header given twice, joined, once not JSON'],
    ['application/json; charset=utf-8, text/plain', 'given twice, the first with a parameter, the second not JSON'],
    ['application/json;charset=utf-8, text/plain, application/json', 'given three times, once not JSON'],
    ['application/json; charset=utf-8,', 'given twice, once empty'],
    ['application/json; profile="a, text/plain', 'given twice, the first with a quote left open'],
  ])('is refused 415 naming the type sent, %j (%s)', async (type) => {
    const { app, call } = await createTestApp()
    const refused = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify({ ...OBS, user: 'alice' }) })
    expect(refused.status).toBe(415)
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.code).toBe('unsupported_media_type')
    expect(error.message).toBe(`send the body as JSON, with the header content-type: application/json, not ${JSON.stringify(type)}`)
    expect(error.issues).toEqual([{ path: 'content-type', message: `must be application/json, not ${JSON.stringify(type)}` }])
    expect((await call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
  })

  it('is refused 415 given twice, once not JSON, among the faults of the other parts of the request too', async () => {
    const { app } = await createTestApp()
    const type = 'application/json; charset=utf-8, text/plain'
    const refused = await app.request('/v1/decisions/-x/accept', { method: 'POST', headers: { 'content-type': type }, body: '{"reason":"r"}' })
    expect(refused.status).toBe(400)
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.issues[1]).toEqual({ path: 'content-type', message: `must be application/json, not ${JSON.stringify(type)}` })
  })

  it('is taken where a comma is within a quoted parameter, no second type', async () => {
    const { app } = await createTestApp()
    const stored = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json; profile="a,b"' }, body: JSON.stringify(OBS) })
    expect(stored.status).toBe(201)
  })

  it('is refused 415 saying the header is missing, when there is none', async () => {
    const { app } = await createTestApp()
    const refused = await app.request('/v1/observations', { method: 'POST', body: new TextEncoder().encode(JSON.stringify(OBS)) })
    expect(refused.status).toBe(415)
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.message).toBe('send the body as JSON, with the header content-type: application/json: the request has none')
    expect(error.issues).toEqual([{ path: 'content-type', message: 'missing: must be application/json' }])
  })

  it('names the type sent among the faults of the other parts of the request', async () => {
    const { app } = await createTestApp()
    const refused = await app.request('/v1/decisions/-x/accept', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'accepted' })
    expect(refused.status).toBe(400)
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.issues[1]).toEqual({ path: 'content-type', message: 'must be application/json, not "text/plain"' })
  })

  it('quotes a long type cut short, its controls escaped', async () => {
    const { app } = await createTestApp()
    const type = `text/plain; x=${'a'.repeat(300)}\u0085`
    const refused = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': type }, body: '{}' })
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.issues[0]?.message).toBe(`must be application/json, not "text/plain; x=${'a'.repeat(100 - 'text/plain; x='.length)}…"`)
    const control = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'text/plain\u0085' }, body: '{}' })
    expect(((await control.json()) as ErrorAnswer).error.issues[0]?.message).toBe('must be application/json, not "text/plain\\u0085"')
  })
})
