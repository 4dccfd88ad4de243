import pino from 'pino'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { logRequest, REQUEST_STARTED, requestIdFor } from './request-log'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('request ids', () => {
  it("keep the caller's id when it is at most 255 word characters, '-' or '='; a new UUID otherwise", () => {
    expect(requestIdFor('orchestrator-7=')).toBe('orchestrator-7=')
    expect(requestIdFor('a'.repeat(255))).toBe('a'.repeat(255))
    for (const sent of [undefined, '', 'a'.repeat(256), 'two words', 'semi;colon', 'é']) expect(requestIdFor(sent)).toMatch(UUID)
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined))
  })

  it('are answered in X-Request-Id, in error bodies, and logged with the request, never its body or headers', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app } = await createTestApp({ logger })
    const ok = await app.request('/healthz', { headers: { 'x-request-id': 'probe-1' } })
    expect(ok.headers.get('x-request-id')).toBe('probe-1')
    const bad = await app.request('/v1/observations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret-token' },
      body: JSON.stringify({ user: 'alice', question: 'Which tier?' }),
    })
    expect(bad.status).toBe(400)
    const id = bad.headers.get('x-request-id')
    expect(id).toMatch(UUID)
    expect(((await bad.json()) as { error: { request_id: string } }).error.request_id).toBe(id)
    expect(lines.map(({ req_id, method, path, status, msg }) => ({ req_id, method, path, status, msg }))).toEqual([
      { req_id: 'probe-1', method: 'GET', path: '/healthz', status: 200, msg: 'request' },
      { req_id: id, method: 'POST', path: '/v1/observations', status: 400, msg: 'request' },
    ])
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|Which tier/)
  })

  it('measure a request from when it began, when a path before the app read its body (first-path.ts)', async () => {
    const lines: Array<Record<string, unknown>> = []
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
    const { app } = await createTestApp({ logger })
    await app.request('/healthz', {}, { incoming: { [REQUEST_STARTED]: performance.now() - 5_000 } })
    await app.request('/healthz')
    expect(lines.map((l) => l.ms as number)).toEqual([expect.any(Number), expect.any(Number)])
    expect(lines[0]?.ms).toBeGreaterThanOrEqual(5_000)
    expect(lines[1]?.ms).toBeLessThan(5_000)
  })
})

describe('the request line', () => {
  afterEach(() => vi.restoreAllMocks())

  /** The line logRequest writes, and the one logger.info writes for the same request, with each option. */
  function bothLines(options: pino.LoggerOptions, child?: Record<string, unknown>): { written: string[]; info: string[] } {
    const lines: string[] = []
    const root = pino({ timestamp: () => ',"time":1796000000000', ...options }, { write: (line: string) => void lines.push(line) })
    const logger = child === undefined ? root : root.child(child)
    vi.spyOn(performance, 'now').mockReturnValue(1_000)
    const request = { requestId: 'orchestrator-7=', method: 'POST', path: '/v1/recommendations', status: 200, started: 987.65 }
    logRequest(logger, request)
    const written = lines.splice(0)
    logger.info({ req_id: request.requestId, method: request.method, path: request.path, status: request.status, ms: 12.4 }, 'request')
    return { written, info: lines }
  }

  it("is, byte for byte, the line pino's info writes, for the service's logger and pino's defaults", () => {
    const service = bothLines({ level: 'info', base: { service: 'decision-memory' } })
    expect(service.written).toEqual(service.info)
    expect(service.written[0]).toBe(
      '{"level":30,"time":1796000000000,"service":"decision-memory","req_id":"orchestrator-7=","method":"POST","path":"/v1/recommendations","status":200,"ms":12.4,"msg":"request"}\n',
    )
    const defaults = bothLines({})
    expect(defaults.written).toEqual(defaults.info)
    expect(JSON.parse(defaults.written[0] as string)).toMatchObject({ pid: process.pid, req_id: 'orchestrator-7=', ms: 12.4 })
    const child = bothLines({ base: { service: 'decision-memory' } }, { route: 'first "path"' })
    expect(child.written).toEqual(child.info)
    expect(JSON.parse(child.written[0] as string)).toMatchObject({ service: 'decision-memory', route: 'first "path"' })
  })

  it('is pino\'s own wherever an option of the logger could change it', () => {
    const options: pino.LoggerOptions[] = [
      { mixin: () => ({ shard: 3 }) },
      { redact: ['path'] },
      { redact: ['*'] },
      { serializers: { req_id: (id: string) => id.toUpperCase() } },
      { messageKey: 'message' },
      { nestedKey: 'payload' },
      { msgPrefix: '[http] ' },
      { formatters: { log: (object) => ({ ...object, extra: true }) } },
      { formatters: { level: (label) => ({ severity: label.toUpperCase() }) } },
      { hooks: { streamWrite: (line) => line.replace('request', 'REQUEST') } },
      { hooks: { logMethod(args, method) { method.apply(this, [args[0], 'hooked']) } } },
      { customLevels: { info: 35 }, useOnlyCustomLevels: false },
    ]
    for (const option of options) {
      const { written, info } = bothLines(option)
      expect(written, JSON.stringify(Object.keys(option))).toEqual(info)
      expect(written).toHaveLength(1)
    }
  })

  it('carries bindings set after the first line', () => {
    const lines: string[] = []
    const logger = pino({ base: { service: 'decision-memory' } }, { write: (line: string) => void lines.push(line) })
    logRequest(logger, { requestId: 'a', method: 'GET', path: '/healthz', status: 200, started: performance.now() })
    logger.setBindings({ shard: 2 })
    logRequest(logger, { requestId: 'b', method: 'GET', path: '/healthz', status: 200, started: performance.now() })
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { service: 'decision-memory', req_id: 'a' },
      { service: 'decision-memory', shard: 2, req_id: 'b' },
    ])
  })

  it('is not written when info is off', () => {
    const lines: string[] = []
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) })
    logRequest(logger, { requestId: 'a', method: 'GET', path: '/healthz', status: 200, started: performance.now() })
    logger.level = 'info'
    logRequest(logger, { requestId: 'b', method: 'GET', path: '/healthz', status: 200, started: performance.now() })
    expect(lines.map((line) => JSON.parse(line).req_id)).toEqual(['b'])
  })
})
