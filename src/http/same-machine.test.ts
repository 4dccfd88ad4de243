import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { OPS, testTokens } from '../../test/support/tokens'
import { foreignRequest } from './same-machine'

const DB = { user: 'alice', question: 'Which database?', all_options: ['Postgres', 'MySQL'], user_choice: 'Postgres' }
const D021 = {
  key: 'D-021',
  title: 'Never force push',
  decision: 'Agents never run git push --force.',
  rationale: 'Force push has lost us work twice.',
  enforce: 'required',
  status: 'accepted',
  constraints: [{ kind: 'must_not', pattern: '^git push (.* )?--force' }],
}

describe('without auth, only requests of this machine (a web page cannot reach the loopback service)', () => {
  it('refuses a request addressed to another name, as a page of a site resolved to 127.0.0.1 sends it (DNS rebinding): 403 naming host', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', DB)).status).toBe(201)
    const rebound = { host: 'attacker.example:7420' }
    const exported = await call('GET', '/v1/users/alice/export', undefined, rebound)
    expect(exported.status).toBe(403)
    expect(exported.body.error).toMatchObject({ code: 'forbidden', issues: [{ path: 'host', message: 'not a name of this machine' }] })
    expect(exported.body.error.message).toContain('--auth')
    // The names it does answer, all of them: `*.localhost` and every 127.x.x.x too, not only 127.0.0.1.
    expect(exported.body.error.message).toContain('Host localhost or a name under it (app.localhost), 127.x.x.x or [::1]')
    expect((await call('DELETE', '/v1/users/alice', undefined, rebound)).status).toBe(403)
    expect((await call('POST', '/v1/observations', { ...DB, user: 'bob' }, rebound)).status).toBe(403)
    // Nothing was forgotten nor stored.
    const preferences = await call('GET', '/v1/users/alice/preferences')
    expect(preferences.status).toBe(200)
    expect(JSON.stringify(preferences.body)).toContain('Postgres')
    expect((await call('GET', '/v1/users/bob/export')).body).not.toContain('Postgres')
  })

  it('answers a Host of 127.0.0.0/8 in the short form curl sends as typed (127.1, as serve --host 127.1 binds), and no other network in it', async () => {
    const { call } = await createTestApp()
    for (const host of ['127.1:7420', '127.1', '0x7f.1:7420', '2130706433:7420']) {
      expect((await call('GET', '/v1/decisions', undefined, { host })).status, host).toBe(200)
    }
    for (const host of ['10.1:7420', '127.0.0.999:7420', '128.1']) {
      expect((await call('GET', '/v1/decisions', undefined, { host })).status, host).toBe(403)
    }
  })

  it('says of a Host sent twice that it was, not that a name of this machine is none of it', async () => {
    const { call } = await createTestApp()
    // Two Host lines reach the app joined, as Node joins them: `localhost:7420, localhost:7420`.
    for (const host of ['localhost:7420, localhost:7420', 'localhost, attacker.example']) {
      const twice = await call('GET', '/v1/users/alice/preferences', undefined, { host })
      expect(twice.status, host).toBe(403)
      expect(twice.body.error.issues, host).toEqual([{ path: 'host', message: 'sent twice: a request names the one machine it is addressed to' }])
      expect(twice.body.error.message, host).toContain(`the request names its Host twice (${JSON.stringify(host)})`)
    }
  })

  it('refuses a request sent with the Origin of another site, even one with no body and no content type (a no-cors POST): 403 naming origin', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/decisions', D021)).status).toBe(201)
    for (const origin of ['https://attacker.example', 'null', 'http://127.0.0.1.attacker.example:7420']) {
      const revoked = await call('POST', '/v1/decisions/D-021/revoke', undefined, { origin })
      expect(revoked.status, origin).toBe(403)
      expect(revoked.body.error.issues).toEqual([{ path: 'origin', message: 'not a page of this machine' }])
    }
    expect((await call('POST', '/v1/maintenance/decay-scan', undefined, { origin: 'https://attacker.example' })).status).toBe(403)
    expect((await call('GET', '/v1/decisions/D-021')).body.status).toBe('accepted')
  })

  it("answers this machine's names and pages (the commands, curl, the /docs page), and /healthz whatever the Host", async () => {
    const { call } = await createTestApp()
    for (const host of ['127.0.0.1:7420', 'localhost:7420', 'LOCALHOST', '[::1]:7420', '127.1.2.3', 'decision-memory.localhost:7420', 'localhost.']) {
      expect((await call('GET', '/v1/users/alice/preferences', undefined, { host })).status, host).toBe(200)
    }
    for (const origin of ['http://127.0.0.1:7420', 'http://localhost:3000', 'http://[::1]:7420']) {
      expect((await call('POST', '/v1/observations', DB, { origin })).status, origin).toBe(201)
    }
    expect((await call('GET', '/healthz', undefined, { host: 'attacker.example' })).status).toBe(200)
  })

  it('with auth, leaves Host and Origin alone: the token is what a page cannot send (a proxy may forward another Host)', async () => {
    const { call } = await createTestApp({ auth: testTokens })
    const ops = { authorization: `Bearer ${OPS}`, host: 'decisions.internal.example', origin: 'https://decisions.internal.example' }
    expect((await call('POST', '/v1/observations', DB, ops)).status).toBe(201)
  })
})

describe('foreignRequest', () => {
  it('says which header shows a request is not of this machine', () => {
    expect(foreignRequest('127.0.0.1:7420', undefined)).toBeUndefined()
    expect(foreignRequest(undefined, undefined)).toBeUndefined()
    expect(foreignRequest('localhost.attacker.example', undefined)).toEqual({ field: 'host', value: 'localhost.attacker.example' })
    expect(foreignRequest('[::1]:7420', 'file://')).toEqual({ field: 'origin', value: 'file://' })
  })
})
