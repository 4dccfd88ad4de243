import { tracingChannel } from 'node:diagnostics_channel'
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

  const REQUEST = { requestId: 'orchestrator-7=', method: 'POST', path: '/v1/recommendations', status: 200, started: 987.65 }

  /** The line logRequest writes, and the one logger.info writes for the same request, with each option. */
  function bothLines(
    options: pino.LoggerOptions,
    more: { child?: Record<string, unknown>; request?: Partial<typeof REQUEST>; multistream?: boolean } = {},
  ): { written: string[]; info: string[] } {
    const lines: string[] = []
    const sink = { write: (line: string) => void lines.push(line) }
    const root = pino({ timestamp: () => ',"time":1796000000000', ...options }, more.multistream ? pino.multistream([{ stream: sink }]) : sink)
    const logger = more.child === undefined ? root : root.child(more.child)
    vi.spyOn(performance, 'now').mockReturnValue(1_000)
    const request = { ...REQUEST, ...more.request }
    logRequest(logger, request)
    const written = lines.splice(0)
    logger.info({ req_id: request.requestId, method: request.method, path: request.path, status: request.status, ms: Math.round((1_000 - request.started) * 10) / 10 }, 'request')
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
    const child = bothLines({ base: { service: 'decision-memory' } }, { child: { route: 'first "path"' } })
    expect(child.written).toEqual(child.info)
    expect(JSON.parse(child.written[0] as string)).toMatchObject({ service: 'decision-memory', route: 'first "path"' })
  })

  it('escapes what a path may hold (hono decodes %22 to a quote) as pino does', () => {
    for (const path of ['/v1/a"b', '/v1/back\\slash', '/v1/line\nbreak\u0001', `/v1/${'é'.repeat(120)}"`, '/v1/emoji-😀']) {
      const { written, info } = bothLines({ base: { service: 'decision-memory' } }, { request: { path } })
      expect(written, path).toEqual(info)
      expect(JSON.parse(written[0] as string).path).toBe(path)
    }
  })

  it('writes a status or a time that is not a number as null, as pino does', () => {
    const { written, info } = bothLines({}, { request: { status: Number.NaN, started: Number.NaN } })
    expect(written).toEqual(info)
    expect(JSON.parse(written[0] as string)).toMatchObject({ status: null, ms: null })
  })

  it("is pino's own wherever an option of the logger could change it", () => {
    const options: Array<[pino.LoggerOptions, { multistream?: boolean; child?: Record<string, unknown> }?]> = [
      [{ mixin: () => ({ shard: 3 }) }],
      [{ redact: ['path'] }],
      [{ redact: ['msg'] }],
      [{ redact: ['*'] }],
      [{ serializers: { req_id: (id: string) => id.toUpperCase() } }],
      [{ serializers: { msg: (msg: string) => msg.toUpperCase() } }],
      [{ errorKey: 'path', serializers: { err: (value: unknown) => ({ wrapped: value }) } }],
      [{ messageKey: 'message' }],
      [{ nestedKey: 'payload' }],
      [{ msgPrefix: '[http] ' }],
      [{ crlf: true }],
      [{ formatters: { log: (object) => ({ ...object, extra: true }) } }],
      [{ formatters: { level: (label) => ({ severity: label.toUpperCase() }) } }],
      [{ hooks: { streamWrite: (line) => line.replace('request', 'REQUEST') } }],
      [{ hooks: { logMethod(args, method) { method.apply(this, [args[0], 'hooked']) } } }],
      [{ customLevels: { info: 35 }, useOnlyCustomLevels: false }],
      [{ level: 'debug' }, { multistream: true }],
      [{}, { child: {} }],
    ]
    for (const [option, more] of options) {
      const { written, info } = bothLines(option, more)
      expect(written, JSON.stringify(Object.keys(option))).toEqual(info)
      expect(written).toHaveLength(1)
    }
  })

  it("is pino's own while anything listens on pino's diagnostics channel, or replaced its serialisation", () => {
    const seen: unknown[] = []
    const channel = tracingChannel('pino_asJson')
    const subscribers = { start: (message: unknown) => void seen.push(message), end() {}, asyncStart() {}, asyncEnd() {}, error() {} }
    channel.subscribe(subscribers)
    try {
      const { written, info } = bothLines({ base: { service: 'decision-memory' } })
      expect(written).toEqual(info)
      expect(seen).toHaveLength(2)
    } finally {
      channel.unsubscribe(subscribers)
    }
    const lines: string[] = []
    const logger = pino({}, { write: (line: string) => void lines.push(line) })
    const asJson = (logger as unknown as Record<symbol, (...args: unknown[]) => string>)[pino.symbols.asJsonSym] as (...args: unknown[]) => string
    ;(logger as unknown as Record<symbol, unknown>)[pino.symbols.asJsonSym] = function (this: unknown, ...args: unknown[]) {
      return asJson.apply(this, args).replace('"msg"', '"trace":"t1","msg"')
    }
    logRequest(logger, { ...REQUEST, started: performance.now() })
    expect(JSON.parse(lines[0] as string)).toMatchObject({ trace: 't1', req_id: 'orchestrator-7=' })
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
