import type { Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { MemoryLevel } from 'memory-level'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, BOB, OPS, testTokens } from '../../test/support/tokens'
import { answerWhatNodeRefuses, serviceListener, serviceServer } from '../cli/serve'
import type { DecisionMemory } from '../decision-memory'
import { InputError } from '../domain/errors'

/**
 * first-path.ts's promise, held over real sockets: the service's listener (serve.ts) with the path
 * in front of the app and without it, over two copies of one store, answer the same raw requests
 * with the same bytes (but for Date and a generated id) and the same log lines (but for time, ms
 * and a generated id). Each request is sent twice: the first is the app's in both, and its body,
 * if valid, is remembered; the second is answered in front of the app where the path may.
 */

const STORE_ID = '0123456789abcdef0123456789abcdef'
const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }
const BODY = JSON.stringify({ ...TIER, user: 'alice' })
/** A request id, or an observation's id, made anew at every request. */
const GENERATED = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|obs-[0-9a-z]+-[0-9a-f]{12}/g

/** The entries of a store that holds alice's three answers at the tier point. */
async function seededEntries(): Promise<Array<[string, string]>> {
  const db = new MemoryLevel<string, string>()
  const { call } = await createTestApp({ db })
  for (const choice of ['Tier M', 'Tier M', 'Tier S']) await call('POST', '/v1/observations', { ...TIER, user_choice: choice, user: 'alice' })
  return db.iterator().all()
}

interface Chain {
  port: number
  server: Server
  memory: DecisionMemory
  lines: Array<Record<string, unknown>>
  /** Requests the app was asked. */
  asked: number
  stopping: boolean
  /** Called at every line logged. */
  onLine?: () => void
  /** What the app and the recommendation wait for before they answer, if anything. */
  held?: Promise<void>
  /** Called when a connection's client half-closes it, as the server sees it. */
  onHalfClose?: () => void
  /** The connections the server holds open. */
  open: Set<Socket>
  /** Called when the server closes one. */
  onClose?: () => void
}

async function chain(entries: Array<[string, string]>, remembered: boolean, auth: typeof testTokens | undefined): Promise<Chain> {
  const db = new MemoryLevel<string, string>()
  await db.batch(entries.map(([key, value]) => ({ type: 'put' as const, key, value })))
  const self = {} as Chain
  const logger = pino({ level: 'info' }, {
    write: (line: string) => {
      self.lines.push(JSON.parse(line))
      self.onLine?.()
    },
  })
  const test = await createTestApp({ db, logger, auth, storeId: STORE_ID })
  const app = {
    fetch: async (request: Request, env: unknown) => {
      self.asked++
      await self.held
      return test.app.fetch(request, env as never)
    },
  }
  const listener = serviceListener({ app, memory: test.memory, bodies: test.bodies, logger, auth, host: '127.0.0.1', stopping: () => self.stopping, remembered })
  const server = serviceServer(listener)
  answerWhatNodeRefuses(server, logger)
  // After Node's own listener of the socket's end (socketOnEnd), which was added first.
  server.on('connection', (socket: Socket) => {
    self.open.add(socket)
    socket.on('end', () => self.onHalfClose?.())
    socket.on('close', () => {
      self.open.delete(socket)
      self.onClose?.()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return Object.assign(self, { port: (server.address() as AddressInfo).port, server, memory: test.memory, lines: [], asked: 0, stopping: false, open: new Set<Socket>() })
}

const chains: Chain[] = []
afterAll(() => {
  for (const { server } of chains) {
    server.closeAllConnections()
    server.close()
  }
})

/** The two chains, with and without the path, made once per auth. */
const pairs = new Map<boolean, Promise<[Chain, Chain]>>()
function pair(withAuth: boolean): Promise<[Chain, Chain]> {
  let made = pairs.get(withAuth)
  if (made === undefined) {
    const auth = withAuth ? testTokens : undefined
    made = seededEntries().then(async (entries) => {
      const both: [Chain, Chain] = [await chain(entries, true, auth), await chain(entries, false, auth)]
      chains.push(...both)
      return both
    })
    pairs.set(withAuth, made)
  }
  return made
}

/**
 * What a request is sent as: pieces written in order, `'100'` waiting for the interim answer,
 * `'answer'` for one more answer, null a half-close.
 */
type Piece = string | Buffer | '100' | 'answer' | null

interface Case {
  name: string
  auth?: boolean
  /** Whether the path answers it (its second sending): a case never answered there proves nothing of the path. */
  first: boolean
  /** Answers expected (the request lines logged, unless `logged`). */
  answers?: number
  logged?: number
  stopping?: boolean
  /** Whether the service closes the connection after its answers (the exchange waits for that). */
  closes?: boolean
  /** Whether the app and the recommendation answer only once the service has seen the client half-close. */
  late?: boolean
  fail?: () => unknown
  pieces: (port: number) => Piece[]
}

/**
 * A request as bytes, `Host` first (null for none). Its port is the service's default, not the
 * server's: the path takes only a port @hono/node-server takes as it is (under 60000), and the
 * server's may be over it (Linux gives one of 32768-60999).
 */
function request(headers: string[], body: string | Buffer = BODY, options: { method?: string; target?: string; host?: string | null; version?: string } = {}) {
  const host = options.host === undefined ? '127.0.0.1:7420' : options.host
  const head = [`${options.method ?? 'POST'} ${options.target ?? '/v1/recommendations'} HTTP/${options.version ?? '1.1'}`, ...(host === null ? [] : [`Host: ${host}`]), ...headers]
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)])
}

/** A JSON body with its length. */
const json = (headers: string[] = [], body: string | Buffer = BODY, options: Parameters<typeof request>[2] = {}) =>
  request(['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, ...headers], body, options)

const one = (bytes: Buffer) => (): Piece[] => [bytes]

const cases: Case[] = [
  { name: 'a body remembered', first: true, pieces: one(json()) },
  { name: 'Content-Type with a charset', first: true, pieces: one(request(['Content-Type: application/json; charset=UTF-8', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type in capitals', first: true, pieces: one(request(['Content-Type: application/JSON', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type with a trailing tab', first: true, pieces: one(request(['Content-Type: application/json\t', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type with spaces around its parameter', first: false, pieces: one(request(['Content-Type: application/json ;  charset=utf-8', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type with a ; and no parameter after it', first: false, pieces: one(request(['Content-Type: application/json;', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type sent twice', first: false, pieces: one(request(['Content-Type: application/json', 'content-type: application/json', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type sent twice, the second not JSON (415)', first: false, pieces: one(request(['Content-Type: application/json; charset=utf-8', 'content-type: text/plain', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type of two types in one line, the second not JSON (415)', first: false, pieces: one(request(['Content-Type: application/json; charset=utf-8, text/plain', `Content-Length: ${BODY.length}`])) },
  { name: 'header names in any case', first: true, pieces: one(request(['CONTENT-TYPE: application/json', `content-length: ${BODY.length}`])) },
  { name: 'Content-Length with a leading zero', first: true, pieces: one(request(['Content-Type: application/json', `Content-Length: 0${BODY.length}`])) },
  { name: 'Content-Length sent twice (400)', first: false, logged: 0, pieces: one(request(['Content-Type: application/json', `Content-Length: ${BODY.length}`, `Content-Length: ${BODY.length}`])) },
  { name: 'X-Request-Id kept', first: true, pieces: one(json(['X-Request-Id: run-42'])) },
  { name: 'X-Request-Id of 256 characters', first: true, pieces: one(json([`X-Request-Id: ${'a'.repeat(256)}`])) },
  { name: 'X-Request-Id with a space', first: true, pieces: one(json(['X-Request-Id: run 42'])) },
  { name: 'X-Request-Id sent twice', first: true, pieces: one(json(['X-Request-Id: run-1', 'X-Request-Id: run-2'])) },
  { name: 'X-Request-Id with a trailing tab', first: true, pieces: one(json(['X-Request-Id: run-1\t'])) },
  { name: 'the store named', first: false, pieces: one(json([`X-Decision-Memory-Store: ${STORE_ID}`])) },
  { name: 'another store named (409)', first: false, pieces: one(json(['X-Decision-Memory-Store: ffff'])) },
  { name: 'Host localhost, no port', first: true, pieces: one(json([], BODY, { host: 'localhost' })) },
  { name: 'Host with a trailing dot', first: true, pieces: one(json([], BODY, { host: 'localhost.:7420' })) },
  { name: 'Host in capitals', first: false, pieces: one(json([], BODY, { host: 'LOCALHOST:7420' })) },
  { name: 'Host [::1]', first: false, pieces: one(json([], BODY, { host: '[::1]:7420' })) },
  { name: 'Host of another site (403)', first: false, pieces: one(json([], BODY, { host: 'attacker.example:7420' })) },
  { name: 'Host sent twice (403)', first: false, pieces: one(json(['host: attacker.example'])) },
  { name: 'no Host, HTTP/1.1 (400)', first: false, logged: 0, pieces: one(json([], BODY, { host: null })) },
  { name: 'no Host, HTTP/1.0', first: false, pieces: one(json([], BODY, { host: null, version: '1.0' })) },
  { name: 'HTTP/1.0', first: true, pieces: one(json([], BODY, { version: '1.0' })) },
  { name: 'Origin of this machine', first: true, pieces: (port) => [json([`Origin: http://127.0.0.1:${port}`])] },
  { name: 'Origin of another site (403)', first: false, pieces: one(json(['Origin: https://attacker.example'])) },
  { name: 'Origin null (403)', first: false, pieces: one(json(['Origin: null'])) },
  { name: 'Expect: 100-continue, the body after the 100', first: true, pieces: () => { const whole = json(['Expect: 100-continue']); const at = whole.indexOf('\r\n\r\n') + 4; return [whole.subarray(0, at), '100', whole.subarray(at)] } },
  { name: 'Expect other than 100-continue (417)', first: false, logged: 0, pieces: one(json(['Expect: 200-ok'])) },
  { name: 'white space around the body', first: true, pieces: one(json([], ` ${BODY}\n`)) },
  { name: 'the keys in another order', first: true, pieces: one(json([], JSON.stringify({ user: 'alice', ...TIER }))) },
  { name: 'a unicode escape', first: true, pieces: one(json([], BODY.replace('alice', '\\u0061lice'))) },
  { name: 'a user not in NFC', first: true, pieces: one(json([], BODY.replace('alice', 'alice\u0301'))) },
  // Read as left out, on both paths: remembered as the request it validated to.
  { name: 'nulls for the optional fields', first: true, pieces: one(json([], JSON.stringify({ ...TIER, user: 'alice', project: null, session_id: null, point: null, context: null, static_default: null, multi_select: null, as_of: null }))) },
  { name: 'a null user, for default', first: true, pieces: one(json([], JSON.stringify({ ...TIER, user: null }))) },
  { name: 'a null question (400)', first: false, pieces: one(json([], JSON.stringify({ ...TIER, question: null }))) },
  { name: 'a byte order mark', first: false, pieces: one(json([], Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BODY)]))) },
  { name: 'Latin-1 bytes (400)', first: false, pieces: one(json([], Buffer.from(BODY.replace('alice', 'alic\u00e9'), 'latin1'))) },
  { name: 'a trailing slash (404)', first: false, pieces: one(json([], BODY, { target: '/v1/recommendations/' })) },
  { name: 'a query', first: false, pieces: one(json([], BODY, { target: '/v1/recommendations?x=1' })) },
  { name: 'the absolute form', first: false, pieces: (port) => [json([], BODY, { target: `http://127.0.0.1:${port}/v1/recommendations` })] },
  { name: 'GET (405)', first: false, pieces: one(request([], '', { method: 'GET' })) },
  { name: 'OPTIONS (204)', first: false, pieces: one(request([], '', { method: 'OPTIONS' })) },
  { name: 'chunked', first: false, pieces: one(request(['Content-Type: application/json', 'Transfer-Encoding: chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`)) },
  { name: 'Content-Encoding: gzip (415)', first: false, pieces: one(json(['Content-Encoding: gzip'])) },
  // The corners of a type only beginning as JSON's, a transfer coding, a repeated ?user=, OPTIONS * and
  // a missing Host's own id: answered by the app alike behind the path and without it.
  { name: 'Content-Type application/jsonl (415)', first: false, pieces: one(request(['Content-Type: application/jsonl', `Content-Length: ${BODY.length}`])) },
  { name: 'Content-Type application/json-seq, Latin-1 bytes (415)', first: false, pieces: () => { const latin1 = Buffer.from(BODY.replace('alice', 'alic\u00e9'), 'latin1'); return [request(['Content-Type: application/json-seq', `Content-Length: ${latin1.length}`], latin1)] } },
  { name: 'Content-Type application/jsonl, Content-Length: 0 (no body: 400)', first: false, pieces: one(request(['Content-Type: application/jsonl', 'Content-Length: 0'], '')) },
  { name: 'Transfer-Encoding: gzip, chunked (415)', first: false, pieces: one(request(['Content-Type: application/json', 'Transfer-Encoding: gzip, chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`)) },
  { name: 'Transfer-Encoding: identity, chunked', first: false, pieces: one(request(['Content-Type: application/json', 'Transfer-Encoding: identity, chunked'], `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`)) },
  { name: '?user= given twice, the body’s user (400)', first: false, pieces: one(json([], BODY, { target: '/v1/recommendations?user=alice&user=alice' })) },
  { name: 'OPTIONS * (204)', first: false, pieces: one(request(['X-Request-Id: all-1'], '', { method: 'OPTIONS', target: '*' })) },
  { name: 'GET * (400)', first: false, logged: 0, pieces: one(request([], '', { method: 'GET', target: '*' })) },
  { name: 'no Host, HTTP/1.1, its X-Request-Id kept (400)', first: false, logged: 0, pieces: one(json(['X-Request-Id: nh-1'], BODY, { host: null })) },
  { name: 'once stopping (Connection: close)', first: true, stopping: true, closes: true, pieces: one(json()) },
  { name: 'Connection: close', first: true, closes: true, pieces: one(json(['Connection: close'])) },
  { name: 'two pipelined in one write', first: true, answers: 2, pieces: () => [Buffer.concat([json(['X-Request-Id: p-1']), json(['X-Request-Id: p-2'])])] },
  {
    name: 'three pipelined, the middle one the app’s',
    first: true,
    answers: 3,
    pieces: () => [Buffer.concat([json(['X-Request-Id: p-1']), json(['X-Request-Id: p-2'], BODY, { target: '/v1/recommendations?x=1' }), json(['X-Request-Id: p-3'])])],
  },
  // Within the body it declared: the request's own `body-incomplete` (its request line logged, 400),
  // and the connection closed with no answer, as when the client closes it whole.
  { name: 'a body cut short, then a half-close', first: true, answers: 0, logged: 1, closes: true, pieces: () => { const whole = json(['X-Request-Id: cut-1']); return [whole.subarray(0, whole.length - 10), null] } },
  // A client that half-closes once its request is sent (shutdown(SHUT_WR): `nc`, Python's
  // socket.shutdown, some HTTP/1.0 clients) is answered, however late the answer, and its
  // connection is closed after it; `late` holds the answer until the service has seen the half-close.
  { name: 'a body remembered, then a half-close', first: true, closes: true, pieces: () => [json(['X-Request-Id: hc-0']), null] },
  { name: 'a body remembered, then a half-close, answered after it', first: true, late: true, closes: true, pieces: () => [json(['X-Request-Id: hc-1']), null] },
  { name: 'GET /v1/decisions, then a half-close, answered after it', first: false, late: true, closes: true, pieces: () => [request([], '', { method: 'GET', target: '/v1/decisions' }), null] },
  {
    name: 'an observation, then a half-close, answered after it (201)',
    first: false,
    late: true,
    closes: true,
    pieces: () => [json([], JSON.stringify({ question: 'Which linter?', all_options: ['eslint', 'biome'], user_choice: 'biome', user: 'carol' }), { target: '/v1/observations' }), null],
  },
  { name: 'two pipelined, then a half-close, answered after it', first: true, late: true, closes: true, answers: 2, pieces: () => [Buffer.concat([json(['X-Request-Id: hc-1']), json(['X-Request-Id: hc-2'])]), null] },
  { name: 'a request answered, another on the connection kept alive, then a half-close', first: true, closes: true, answers: 2, pieces: () => [json(['X-Request-Id: k-1']), 'answer', json(['X-Request-Id: k-2']), null] },
  { name: 'a half-close and no request: closed, unanswered', first: false, closes: true, answers: 0, pieces: () => [null] },
  { name: 'a head cut short, then a half-close (400)', first: false, closes: true, logged: 0, pieces: () => ['POST /v1/recommendations HTTP/1.1\r\nHost: 127.0.0.1:7420\r\n', null] },
  { name: 'the use case fails (500)', first: true, fail: () => new Error('boom'), pieces: one(json(['X-Request-Id: f-1'])) },
  { name: 'the use case refuses (400)', first: true, fail: () => new InputError('timestamp_in_future', 'as_of is in the future'), pieces: one(json(['X-Request-Id: f-2'])) },
  { name: 'the store fails (503)', first: true, fail: () => Object.assign(new Error('IO error: disk full'), { code: 'LEVEL_IO_ERROR' }), pieces: one(json(['X-Request-Id: f-3'])) },
  { name: 'the use case rejects with what is not an Error (500)', first: true, fail: () => 'the store said no', pieces: one(json(['X-Request-Id: f-4'])) },
  { name: 'auth: no token (401)', auth: true, first: false, pieces: one(json()) },
  { name: 'auth: the user’s token', auth: true, first: true, pieces: one(json([`Authorization: Bearer ${ALICE}`])) },
  { name: 'auth: bearer in lower case', auth: true, first: true, pieces: one(json([`Authorization: bearer ${ALICE}`])) },
  { name: 'auth: a token for every user, from a page of another site', auth: true, first: true, pieces: one(json([`Authorization: Bearer ${OPS}`, 'Origin: https://attacker.example'])) },
  { name: 'auth: a token for another user (403)', auth: true, first: false, pieces: one(json([`Authorization: Bearer ${BOB}`])) },
  { name: 'auth: a body without a user, for default', auth: true, first: true, pieces: one(json([`Authorization: Bearer ${BOB}`], JSON.stringify(TIER))) },
  // A null user is default, as left out, on both paths: remembered as default's, for a token of default alone.
  { name: 'auth: a null user, for default', auth: true, first: true, pieces: one(json([`Authorization: Bearer ${BOB}`], JSON.stringify({ ...TIER, user: null }))) },
  { name: 'auth: a null user, for default, with a token for alice (403)', auth: true, first: false, pieces: one(json([`Authorization: Bearer ${ALICE}`], JSON.stringify({ ...TIER, user: null }))) },
  { name: 'auth: a token not valid (401)', auth: true, first: false, pieces: one(json(['Authorization: Bearer not-a-token-0123456789'])) },
  { name: 'auth: the token sent twice (401)', auth: true, first: false, pieces: one(json([`Authorization: Bearer ${ALICE}`, `Authorization: Bearer ${ALICE}`])) },
  { name: 'auth: OPTIONS * with no token (401)', auth: true, first: false, pieces: one(request([], '', { method: 'OPTIONS', target: '*' })) },
  { name: 'auth: OPTIONS * with a token (204)', auth: true, first: false, pieces: one(request([`Authorization: Bearer ${ALICE}`], '', { method: 'OPTIONS', target: '*' })) },
  { name: 'auth: the user named twice, bob last (403)', auth: true, first: false, pieces: one(json([`Authorization: Bearer ${ALICE}`], JSON.stringify({ ...TIER, user: 'bob' }).replace('{', '{"user":"alice",'))) },
]

/** What a client saw and the service logged, with what differs at every request taken out. */
interface Seen {
  bytes: string
  /** Answers but interim ones. */
  answers: number
  closed: boolean
  lines: string[]
}

/**
 * Sends the pieces on a new connection; done when `answers` answers have come (or the connection
 * closed; with `closes`, only when it closed) and `logged` request lines are out.
 */
function exchange(target: Chain, pieces: Piece[], answers: number, logged: number, closes = false): Promise<Seen> {
  return new Promise((resolve) => {
    const socket = connect(target.port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let closed = false
    let waiting: (() => void) | undefined
    const answered = () => {
      let count = 0
      let at = 0
      for (let end = received.indexOf('\r\n\r\n', at); end >= 0; end = received.indexOf('\r\n\r\n', at)) {
        const head = received.subarray(at, end).toString('latin1')
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        const interimAnswer = /^HTTP\/1\.1 1\d\d /.test(head)
        at = end + 4 + (interimAnswer ? 0 : length)
        if (at > received.length) break
        if (!interimAnswer) count++
      }
      return count
    }
    const check = () => {
      const requestLines = target.lines.filter((line) => line.msg === 'request').length
      if ((closed || (!closes && answered() >= answers)) && requestLines >= logged) {
        target.onLine = undefined
        socket.destroy()
        resolve({ bytes: received.toString('latin1'), answers: answered(), closed, lines: target.lines.map(comparable) })
      }
    }
    target.onLine = check
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      waiting?.()
      check()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      closed = true
      check()
    })
    /** Resolves once `ready` holds, tested again at every chunk received. */
    const until = async (ready: () => boolean) => {
      while (!ready()) await new Promise<void>((resolve) => (waiting = resolve))
    }
    socket.on('connect', async () => {
      let awaited = 0
      for (const piece of pieces) {
        if (piece === '100') await until(() => received.toString('latin1').includes('100 Continue'))
        else if (piece === 'answer') {
          awaited++
          await until(() => answered() >= awaited)
        } else if (piece === null) socket.end()
        else socket.write(piece)
      }
    })
  })
}

/** A log line without what differs at every request: its time, duration, process, and a generated id. */
function comparable({ time, ms, pid, hostname, ...line }: Record<string, unknown>): string {
  const err = line.err as Record<string, unknown> | undefined
  return JSON.stringify(err === undefined ? line : { ...line, err: { ...err, stack: undefined } }).replace(GENERATED, '<id>')
}

/** Resolves once the server holds no connection open; never, if it leaves one open. */
async function allClosed(target: Chain): Promise<void> {
  while (target.open.size > 0) await new Promise<void>((resolve) => (target.onClose = resolve))
  target.onClose = undefined
}

// The port only where it stands as one (after a colon): its digits may also occur in a point's id,
// which is the same under both servers.
const normalised = (seen: Seen, port: number): Seen => ({
  ...seen,
  bytes: seen.bytes.replace(/\r\nDate: [^\r]*/g, '\r\nDate: <date>').replace(GENERATED, '<id>').replace(new RegExp(`:${port}(?!\\d)`, 'g'), ':<port>'),
})

describe('the service with the path in front of the app and without it: the same answers and log lines', () => {
  it.each(cases)('$name', async (c) => {
    const both = await pair(c.auth === true)
    for (const sending of ['by the app', 'again'] as const) {
      const seen: Seen[] = []
      for (const target of both) {
        target.lines.length = 0
        target.asked = 0
        target.stopping = c.stopping === true
        const recommendJson = target.memory.recommendJson
        if (c.fail !== undefined && sending === 'again') target.memory.recommendJson = () => Promise.reject(c.fail?.())
        if (c.late === true) {
          // The connections of the cases before closed first: the half-close awaited is this one's.
          await allClosed(target)
          target.held = new Promise<void>((resolve) => (target.onHalfClose = resolve))
          const held = target.held
          target.memory.recommendJson = async (...input) => (await held, recommendJson(...input))
        }
        try {
          const answers = c.answers ?? 1
          seen.push(normalised(await exchange(target, c.pieces(target.port), answers, c.logged ?? answers, c.closes), target.port))
          // Closed on the service's side too: no connection left to leak.
          if (c.closes === true) {
            await allClosed(target)
            expect(await new Promise((resolve) => target.server.getConnections((_, count) => resolve(count))), 'connections held').toBe(0)
          }
        } finally {
          target.memory.recommendJson = recommendJson
          target.stopping = false
          target.held = undefined
          target.onHalfClose = undefined
          target.onClose = undefined
        }
      }
      const [withPath, appAlone] = seen as [Seen, Seen]
      expect(withPath, sending).toEqual(appAlone)
      // The same, and not the same silence: every answer expected came.
      expect(withPath.answers, `${sending}: answers`).toBe(c.answers ?? 1)
      if (c.closes === true) expect(withPath.closed, `${sending}: closed`).toBe(true)
      if (sending === 'again') expect(both[0].asked < both[1].asked, 'answered in front of the app').toBe(c.first)
    }
  })
})
