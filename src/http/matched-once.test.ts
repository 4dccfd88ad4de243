import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { matchedOnce } from './matched-once'

describe('a path whose segment is a literal `*`', () => {
  it('runs each middleware once: `/*` is a 404 as any unknown path, logged once under the id it is answered with', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app } = await createTestApp({ logger })
    const response = await app.request('/*', { headers: { 'x-request-id': 'star-1' } })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: { code: 'not_found', message: 'no route GET /* (the routes are listed at /docs and in /openapi.json)', issues: [], request_id: 'star-1' },
    })
    const posted = await app.request('/*', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user":"alice"}' })
    expect(posted.status).toBe(404)
    const id = posted.headers.get('x-request-id')
    expect(((await posted.json()) as { error: { message: string } }).error.message).toBe('no route POST /*')
    expect(lines.map(({ req_id, method, path, status }) => ({ req_id, method, path, status }))).toEqual([
      { req_id: 'star-1', method: 'GET', path: '/*', status: 404 },
      { req_id: id, method: 'POST', path: '/*', status: 404 },
    ])
  })
})

describe('matchedOnce', () => {
  it('drops a registration the router matched twice, and keeps one registered twice', () => {
    // hono keeps each registration as its own [handler, route] pair: the same function used twice is two.
    const handler = () => undefined
    const first = [handler, {}]
    const again = [handler, {}]
    const params = {}
    const stash = ['stash']
    const router = {
      name: 'fake',
      add: () => undefined,
      match: (_method: string, _path: string) => [[[first, params], [first, params], [again, params]], stash] as never,
    }
    const result = matchedOnce(router).match('GET', '/*') as unknown as [unknown[][], unknown]
    expect(result[0].map(([registration]) => registration)).toEqual([first, again])
    expect(result[0][1]?.[0]).toBe(again)
    expect(result[1]).toBe(stash)
  })
})
