import type { Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, testTokens as auth } from '../../test/support/tokens'
import { answerWhatNodeRefuses, serviceListener, serviceServer } from '../cli/serve'
import { ASTERISK_PATH, markAsteriskForm } from './asterisk-form'

/** Every method a route of the service takes, and OPTIONS, as the Allow of `OPTIONS *` lists them. */
const ALL = 'DELETE, GET, HEAD, OPTIONS, POST, PUT'

/** What @hono/node-server hands the app of an `OPTIONS *` that answerAsteriskForm marked. */
const asterisk = () => ({ incoming: markAsteriskForm({}) })

describe('OPTIONS * (RFC 9110 §9.3.7: of the server as a whole)', () => {
  it('is answered 204, its Allow listing every method the service serves, with no body', async () => {
    const { app } = await createTestApp()
    const answer = await app.request(ASTERISK_PATH, { method: 'OPTIONS' }, asterisk())
    expect(answer.status).toBe(204)
    expect(answer.headers.get('allow')).toBe(ALL)
    expect(await answer.text()).toBe('')
  })

  it('is not a path a client may send: OPTIONS of that path is 404, as of any path no route has', async () => {
    const { app } = await createTestApp()
    expect((await app.request(ASTERISK_PATH, { method: 'OPTIONS' })).status).toBe(404)
  })

  it('needs a token of any user with auth on, as OPTIONS of a path does', async () => {
    const { app } = await createTestApp({ auth })
    expect((await app.request(ASTERISK_PATH, { method: 'OPTIONS' }, asterisk())).status).toBe(401)
    const told = await app.request(ASTERISK_PATH, { method: 'OPTIONS', headers: { authorization: `Bearer ${ALICE}` } }, asterisk())
    expect([told.status, told.headers.get('allow')]).toEqual([204, ALL])
  })

  it('is refused to a web page, as every request of one is without auth', async () => {
    const { app } = await createTestApp()
    const preflight = await app.request(ASTERISK_PATH, { method: 'OPTIONS', headers: { origin: 'https://attacker.example' } }, asterisk())
    expect(preflight.status).toBe(403)
  })
})

describe('OPTIONS * through the service’s listener, which @hono/node-server alone refused (no URL)', () => {
  const servers: Server[] = []
  afterEach(() => {
    for (const server of servers.splice(0)) server.close()
  })

  async function serving() {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const test = await createTestApp({ logger })
    const listener = serviceListener({ app: test.app, memory: test.memory, bodies: test.bodies, logger, auth: undefined, host: '127.0.0.1', stopping: () => false })
    const server = serviceServer(listener)
    answerWhatNodeRefuses(server, logger)
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { port: (server.address() as AddressInfo).port, lines }
  }

  /** Sends raw bytes and reads the whole answer, until the server closes the connection. */
  function raw(port: number, text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text))
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk.toString('utf8')))
      socket.on('end', () => resolve(answer))
      socket.on('error', reject)
    })
  }

  it('is answered 204 with the Allow of the whole service, under the request’s id, and logged with the path *', async () => {
    const { port, lines } = await serving()
    const answer = await raw(port, `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: ask-all-1\r\nConnection: close\r\n\r\n`)
    const head = answer.toLowerCase()
    expect(answer).toMatch(/^HTTP\/1\.1 204 No Content\r\n/)
    expect(head).toContain(`allow: ${ALL.toLowerCase()}\r\n`)
    expect(head).toContain('x-request-id: ask-all-1\r\n')
    expect(lines).toMatchObject([{ req_id: 'ask-all-1', method: 'OPTIONS', path: '*', status: 204, msg: 'request' }])
  })

  it('leaves * of any other method refused as no URL, 400 malformed_request', async () => {
    const { port } = await serving()
    const answer = await raw(port, `GET * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(answer).toContain('"code":"malformed_request"')
  })
})
