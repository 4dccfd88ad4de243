import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

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

  it('is read, not taken for a body left out, on a route whose body is optional', async () => {
    const { app } = await createTestApp()
    const started = await app.request('/v1/sessions', { method: 'POST', headers: { 'content-type': 'application/json ; charset=utf-8' }, body: '{"user":"bob","session_id":"s-1"}' })
    expect(started.status).toBe(201)
    expect(await started.json()).toMatchObject({ user: 'bob', session_id: 's-1' })
  })

  it('is judged with the other parts of the request, its fields named, not its content type', async () => {
    const { app } = await createTestApp()
    const refused = await app.request('/v1/decisions/-x/accept', { method: 'POST', headers: { 'content-type': 'application/json ; charset=utf-8' }, body: '{"reason":1}' })
    expect(refused.status).toBe(400)
    const { error } = (await refused.json()) as ErrorAnswer
    expect(error.issues.map((i) => i.path)).toEqual(['key', 'reason'])
  })
})
