import { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { createStdioTransport, idsNotAsRead, MAX_LINE_BYTES } from './mcp-stdio'

/** What a client reads back: a message, or an array of them for a batch. */
type Answer = any

/** The transport between two pipes: what it passes on, what it answers itself, what it reports. */
async function piped(maxLineBytes?: number) {
  const input = new PassThrough()
  const output = new PassThrough()
  const delivered: JSONRPCMessage[] = []
  const reported: string[] = []
  const errors: string[] = []
  let closed = false
  const transport = createStdioTransport({ input, output, report: (problem) => reported.push(problem), ...(maxLineBytes === undefined ? {} : { maxLineBytes }) })
  transport.onmessage = (message) => delivered.push(message)
  transport.onerror = (error) => errors.push(error.message)
  transport.onclose = () => (closed = true)
  await transport.start()
  const answers = () =>
    (output.read() as Buffer | null)
      ?.toString()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Answer) ?? []
  // Resolves once the chunk is read: the transport's own listener, added first, has had it by then.
  const feed = (text: string | Buffer) =>
    new Promise<void>((read) => {
      input.once('data', () => read())
      input.write(text)
    })
  return { feed, input, output, transport, delivered, reported, errors, answers, closed: () => closed }
}

/** Ends the input, resolving once the transport has read its end (its own listener, added first, has run). */
function ended(pipe: Awaited<ReturnType<typeof piped>>) {
  return new Promise<void>((read) => {
    pipe.input.once('end', () => read())
    pipe.input.end()
  })
}

/** Has the transport pass on an initialize asking for `version`, and the server answer it with that version. */
async function initialize(pipe: Awaited<ReturnType<typeof piped>>, version: string) {
  const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: 'c', version: '1' } }
  await pipe.feed(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params }) + '\n')
  await pipe.transport.send({ jsonrpc: '2.0', id: 'init', result: { protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } } })
  await pipe.feed('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
  expect(pipe.answers()).toHaveLength(1)
  pipe.delivered.length = 0
}

describe('createStdioTransport', () => {
  it('passes on each line that is a JSON-RPC message, however the lines are cut into chunks', async () => {
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":1,"me')
    await pipe.feed('thod":"ping"}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n\n  \n{"jsonrpc":"2.0","id":"r","result":{}}\n')
    expect(pipe.delivered).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'r', result: {} },
    ])
    expect(pipe.answers()).toEqual([])
    expect(pipe.reported).toEqual([])
  })

  it('reads a last line the input ends without a newline, and answers one cut off there with -32700, said on stderr, not dropped unsaid', async () => {
    const whole = await piped()
    await whole.feed('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}')
    await ended(whole)
    expect(whole.delivered).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ])
    expect(whole.reported).toEqual([])

    const cut = await piped()
    await cut.feed('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"rec')
    await ended(cut)
    expect(cut.delivered).toEqual([])
    const [answer] = cut.answers()
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    expect(answer?.error.message).toContain('the input ended inside a message')
    expect(cut.reported).toEqual([answer?.error.message])

    // A blank end, or none after the last newline, is nothing.
    const blank = await piped()
    await blank.feed('{"jsonrpc":"2.0","id":4,"method":"ping"}\n  ')
    await ended(blank)
    expect(blank.delivered).toHaveLength(1)
    expect(blank.answers()).toEqual([])
    expect(blank.reported).toEqual([])
  })

  it('reads a line sent a byte at a time as the same message, copying each byte once, not once per chunk', async () => {
    const pipe = await piped()
    const line = JSON.stringify({ jsonrpc: '2.0', id: 'é', method: 'tools/call', params: { name: 'why', arguments: { point: 'ø'.repeat(500) } } })
    const bytes = Buffer.from(line + '\n')
    const concat = vi.spyOn(Buffer, 'concat')
    try {
      // Byte by byte: 'é' and 'ø' are two bytes each, cut in half across chunks.
      for (let i = 0; i < bytes.length; i++) await pipe.feed(bytes.subarray(i, i + 1))
      const copied = concat.mock.results.reduce((sum, r) => sum + (r.value as Buffer).length, 0)
      // Joined once when the line ends: a join per chunk would copy about bytes²/2 bytes.
      expect(copied).toBeLessThanOrEqual(bytes.length)
    } finally {
      concat.mockRestore()
    }
    expect(pipe.delivered).toEqual([JSON.parse(line)])
    // Two lines in one chunk, the second ending in the next: each as sent.
    await pipe.feed('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0",')
    await pipe.feed('"id":2,"method":"ping"}\n')
    expect(pipe.delivered.slice(1)).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ])
    expect(pipe.reported).toEqual([])
  })

  it('answers a request it cannot read at the id it can read, naming the field at fault (JSON-RPC 2.0: null only when no id can be read)', async () => {
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"1.0","id":7,"method":"ping"}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":"a","method":"tools/list","params":[1]}\n')
    await pipe.feed('{"id":8,"method":"ping"}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":9,"method":5}\n')
    const [jsonrpc, params, missing, method] = pipe.answers()
    expect(jsonrpc).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } })
    expect(jsonrpc?.error.message).toMatch(/^Invalid Request: not a JSON-RPC 2\.0 message \(jsonrpc: /)
    expect(params).toMatchObject({ id: 'a', error: { code: -32600 } })
    expect(params?.error.message).toContain('(params: ')
    expect(missing).toMatchObject({ id: 8, error: { code: -32600 } })
    expect(missing?.error.message).toContain('(jsonrpc: ')
    expect(method).toMatchObject({ id: 9, error: { code: -32600 } })
    expect(method?.error.message).toContain('(method: ')
    expect(pipe.delivered).toEqual([])
    expect(pipe.reported).toHaveLength(4)
  })

  it('answers an id past 2^53 at the digits it was sent with, not at the number JSON.parse rounds it to', async () => {
    // A client whose integers are 64-bit matches replies by id: at 9007199254740992 its call with
    // 9007199254740993 waited forever. The MCP SDK's schema takes no id past 2^53: each is refused, at its id.
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":1,"id":9007199254740993,"method":"ping"}\n')
    await pipe.feed('{"jsonrpc":"1.0","id":-9007199254740995,"method":"ping","params":{"id":1,"s":"\\"id\\":7"}}\n')
    await pipe.feed('[{"jsonrpc":"2.0","\\u0069d":12345678901234567890,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
    expect(pipe.delivered).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }])
    await pipe.transport.send({ jsonrpc: '2.0', id: 2, result: {} })
    const lines = (pipe.output.read() as Buffer).toString().trimEnd().split('\n')
    expect(lines.map((line) => /"id":(-?\d+)/.exec(line)?.[1])).toEqual(['9007199254740993', '-9007199254740995', '12345678901234567890'])
    expect(lines[2]).toContain('"id":2')
    // Otherwise as before: the same answers, read as JSON.
    expect(lines.map((line) => JSON.parse(line) as Answer).flat().map((answer: Answer) => answer.error?.code ?? answer.result)).toEqual([-32600, -32600, -32600, {}])
  })

  it('says what is wrong with a number for id in its own words, at the digits sent, 1e400 too (Infinity to JSON.parse)', async () => {
    // zod said `Too big: expected int to be <=9007199254740991`, and 1e400, read as Infinity, which
    // JSON.stringify writes null, was answered at id null: the client's call never ended.
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":1e400,"method":"ping"}\n{"jsonrpc":"2.0","id":-1E+400,"method":"ping"}\n{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":1e400,"method":"ping"},{"jsonrpc":"2.0","id":1.5,"method":"ping"}]\n{"jsonrpc":"1.0","id":1e400,"method":"ping"}\n')
    const lines = (pipe.output.read() as Buffer).toString().trimEnd().split('\n')
    expect(lines.map((line) => [...line.matchAll(/\{"id":([^,]+),/g)].map((m) => m[1]))).toEqual([['1e400'], ['-1E+400'], ['9007199254740993'], ['1e400', '1.5'], ['1e400']])
    const past = (id: string) => `Invalid Request: not a JSON-RPC 2.0 message (id: ${id} is past 9007199254740991 (2^53 - 1), the largest integer an id may be: send it as a string)`
    expect(pipe.reported).toEqual([
      past('1e400'),
      'Invalid Request: not a JSON-RPC 2.0 message (id: -1E+400 is below -9007199254740991 (1 - 2^53), the least integer an id may be: send it as a string)',
      past('9007199254740993'),
      past('1e400'),
      'Invalid Request: not a JSON-RPC 2.0 message (id: 1.5 is no whole number: an id is a string or an integer)',
      // Another field at fault first is said as before, the answer at the id all the same.
      'Invalid Request: not a JSON-RPC 2.0 message (jsonrpc: Invalid input: expected "2.0")',
    ])
    expect(lines.map((line) => JSON.parse(line) as Answer).flat().map((answer: Answer) => answer.error?.message)).toEqual(pipe.reported)
    expect(pipe.delivered).toEqual([])
  })

  it('says of a fraction past 2^53 that it is no whole number, not that it is too large an integer', async () => {
    // JSON.parse makes 9007199254740993.5 the integer 9007199254740994: it was told to be sent as a string.
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":9007199254740993.5,"method":"ping"}\n{"jsonrpc":"2.0","id":-1.5e20,"method":"ping"}\n{"jsonrpc":"2.0","id":9.0e20,"method":"ping"}\n')
    expect(pipe.reported).toEqual([
      'Invalid Request: not a JSON-RPC 2.0 message (id: 9007199254740993.5 is no whole number: an id is a string or an integer)',
      'Invalid Request: not a JSON-RPC 2.0 message (id: -1.5e20 is below -9007199254740991 (1 - 2^53), the least integer an id may be: send it as a string)',
      'Invalid Request: not a JSON-RPC 2.0 message (id: 9.0e20 is past 9007199254740991 (2^53 - 1), the largest integer an id may be: send it as a string)',
    ])
  })

  it('answers an id JSON.parse reads as another number (-0, 0.0, 1.0) at the id as sent, and refuses 1e-400, no whole number', async () => {
    // Each was read as 0 (or 1): answered at 0, and, beside a request 0 in flight, refused at 0, which
    // ended that request's call with another's error.
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"why"}}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":-0,"method":"ping"}\n{"jsonrpc":"2.0","id":0.0,"method":"ping"}\n{"jsonrpc":"2.0","id":1e-400,"method":"ping"}\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":0E0,"method":"ping"},{"jsonrpc":"2.0","id":-1e-400,"method":"ping"}]\n')
    const reused = (id: string) => `Invalid Request: id ${id} (the number 0) is that of a request still in flight (an id is never reused in a session)`
    const fraction = (id: string) => `Invalid Request: not a JSON-RPC 2.0 message (id: ${id} is no whole number: an id is a string or an integer)`
    expect(pipe.reported).toEqual([reused('-0'), reused('0.0'), fraction('1e-400'), reused('0E0'), fraction('-1e-400')])
    const refusals = (pipe.output.read() as Buffer).toString().trimEnd().split('\n')
    expect(refusals.map((line) => [...line.matchAll(/\{"id":([^,]+),/g)].map((m) => m[1]))).toEqual([['-0'], ['0.0'], ['1e-400'], ['0E0', '-1e-400']])
    expect(refusals.map((line) => JSON.parse(line) as Answer).flat().map((answer: Answer) => answer.error.message)).toEqual(pipe.reported)
    // The request 0 alone was passed on, and its answer goes out at 0.
    expect(pipe.delivered.filter(isJSONRPCRequest).map((m) => m.id)).toEqual([0])
    await pipe.transport.send({ jsonrpc: '2.0', id: 0, result: { content: [] } })
    expect((pipe.output.read() as Buffer).toString()).toBe('{"jsonrpc":"2.0","id":0,"result":{"content":[]}}\n')

    // With no request 0 in flight, each is passed on and answered at its id as sent, in a batch too.
    const free = await piped()
    await free.feed('{"jsonrpc":"2.0","id":-0,"method":"ping"}\n{"jsonrpc":"2.0","id":1.0,"method":"ping"}\n')
    await free.transport.send({ jsonrpc: '2.0', id: 1, result: {} })
    await free.transport.send({ jsonrpc: '2.0', id: 0, result: {} })
    await free.feed('[{"jsonrpc":"2.0","id":0.0,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
    await free.transport.send({ jsonrpc: '2.0', id: 2, result: {} })
    await free.transport.send({ jsonrpc: '2.0', id: 0, result: {} })
    expect((free.output.read() as Buffer).toString().trimEnd().split('\n')).toEqual([
      '{"id":1.0,"jsonrpc":"2.0","result":{}}',
      '{"id":-0,"jsonrpc":"2.0","result":{}}',
      '[{"jsonrpc":"2.0","id":2,"result":{}},{"id":0.0,"jsonrpc":"2.0","result":{}}]',
    ])
    // Answered, the id is free, and one sent as JSON writes it is answered so.
    await free.feed('{"jsonrpc":"2.0","id":0,"method":"ping"}\n')
    await free.transport.send({ jsonrpc: '2.0', id: 0, result: {} })
    expect((free.output.read() as Buffer).toString()).toBe('{"jsonrpc":"2.0","id":0,"result":{}}\n')
    expect(free.reported).toEqual([])
  })

  it('reads a line again for its ids\' digits only where a key id has a number JSON would write otherwise, not for any number on it', async () => {
    // Any digit before `.`, `e` or `E` sent the line to be read again token by token: every line has
    // one (`"jsonrpc":"2.0"`), so every tools/call of megabytes cost several times its parse.
    const readAgain = (line: string) => idsNotAsRead(JSON.parse(line), line)
    const floats = Array.from({ length: 50 }, (_, i) => `${i}.5e-3`).join(',')
    expect(readAgain(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"why","arguments":{"xs":[${floats}],"v":"node 20.x","n":-0}}}`)).toBe(false)
    expect(readAgain('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"2.0","method":"ping"}]')).toBe(false)
    for (const line of [
      '{"jsonrpc":"2.0","id":1.0,"method":"ping"}',
      '{"jsonrpc":"2.0","id" : -0,"method":"ping"}',
      '{"jsonrpc":"2.0","\\u0069d":0e0,"method":"ping"}',
      '{"jsonrpc":"2.0","i\\u0064":\t2.50E1,"method":"ping"}',
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":-0.0e5,"method":"ping"}]',
      '{"jsonrpc":"2.0","id":1e-400,"method":"ping"}',
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}',
    ]) {
      expect(readAgain(line), line).toBe(true)
    }
  })

  it('answers each of a batch\'s ids past 2^53 at its own digits, when two round to one number', async () => {
    // A 64-bit client counting on: 9007199254740995 and 9007199254740996 are both 9007199254740996 to
    // JSON.parse, and the digits were kept by that number: both answered at the last, one call never ended.
    const batch = '[{"jsonrpc":"2.0","id":9007199254740995,"method":"ping"},{"jsonrpc":"2.0","id":9007199254740996,"method":"ping"}]\n'
    const read = await piped()
    await read.feed(batch)
    expect([...(read.output.read() as Buffer).toString().matchAll(/"id":(-?\d+)/g)].map((m) => m[1])).toEqual(['9007199254740995', '9007199254740996'])
    // Refused whole under a version without batches, each request is answered at its id, on its line.
    const refused = await piped()
    await initialize(refused, '2025-06-18')
    await refused.feed(batch)
    expect([...(refused.output.read() as Buffer).toString().matchAll(/"id":(-?\d+)/g)].map((m) => m[1])).toEqual(['9007199254740995', '9007199254740996'])
  })

  it('reads the digits of an id past 2^53 on a line as long as it takes, its strings of any length', async () => {
    // The id was found by a regular expression whose stack a string of millions of characters (and
    // the line takes 10 MB) overflowed: the RangeError ended the server, its calls in flight cut off.
    for (const unit of ['x', '\\"']) {
      const pipe = await piped()
      const text = unit.repeat(Math.floor((MAX_LINE_BYTES - 200) / unit.length))
      await pipe.feed(`{"jsonrpc":"2.0","method":"ping","params":{"s":"${text}"},"id":9007199254740993}\n`)
      expect(/^\{"id":(\d+),/.exec((pipe.output.read() as Buffer).toString())?.[1], unit).toBe('9007199254740993')
    }
  })

  it('says a field of the message left out is missing, as the routes and -32602 say it, and one sent with another value is not', async () => {
    // JSON has no undefined: zod's "received undefined", and its words for a value of a few sent wrong, meant a field not sent.
    const pipe = await piped()
    await pipe.feed('{"id":8,"method":"ping"}\n{"jsonrpc":"2.0","id":9,"error":{"message":"x"}}\n{"jsonrpc":"1.0","id":10,"method":"ping"}\n')
    expect(pipe.answers().map((answer) => answer?.error.message)).toEqual([
      'Invalid Request: not a JSON-RPC 2.0 message (jsonrpc: missing: expected "2.0")',
      'Invalid Request: not a JSON-RPC 2.0 message (error.code: missing: expected number)',
      'Invalid Request: not a JSON-RPC 2.0 message (jsonrpc: Invalid input: expected "2.0")',
    ])
  })

  it('says what an id takes, and that it is missing when left out, as the routes say a field of a few types, not a bare "Invalid input"', async () => {
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":{},"method":"ping"}\n{"jsonrpc":"2.0","result":{}}\n{"jsonrpc":"2.0","id":3,"method":"ping","extra":1}\n')
    expect(pipe.answers().map((answer) => answer?.error.message)).toEqual([
      'Invalid Request: not a JSON-RPC 2.0 message (id: Invalid input: expected string or number, received object)',
      'Invalid Request: not a JSON-RPC 2.0 message (id: missing: expected string or number)',
      // A field the message does not have, named as a route names one (zod said `Unrecognized key: "extra"`).
      'Invalid Request: not a JSON-RPC 2.0 message (extra: unknown field)',
    ])
  })

  it('reads `"params": null` as no params, as clients that write an absent field as null send it; a batch\'s members too', async () => {
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}\n{"jsonrpc":"2.0","method":"notifications/initialized","params":null}\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":2,"method":"ping","params":null}]\n')
    expect(pipe.delivered).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ])
    expect(pipe.answers()).toEqual([])
    expect(pipe.reported).toEqual([])
  })

  it('answers with id null what has no id a client could have sent, and a malformed response (its id is one of the server’s own requests)', async () => {
    const pipe = await piped()
    await pipe.feed('{not json\n')
    await pipe.feed('{"foo":1}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":null,"method":"ping"}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":3}\n')
    await pipe.feed('[]\n')
    await pipe.feed('"ping"\n')
    const answers = pipe.answers()
    expect(answers.map((a) => [a.id, a.error.code])).toEqual([
      [null, -32700],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ])
    expect(answers[0]?.error.message).toBe('Parse error: a line that is not JSON')
    expect(answers[1]?.error.message).toContain('(jsonrpc: ')
    expect(answers[2]?.error.message).toContain('(id: ')
    expect(answers[5]?.error.message).toContain('(an empty batch)')
    expect(answers[6]?.error.message).toContain('(not an object)')
    expect(pipe.reported).toEqual(answers.map((a) => a.error.message))
  })

  it('passes over a byte order mark before the first message, not before a later one', async () => {
    const pipe = await piped()
    await pipe.feed(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')]))
    await pipe.feed('\uFEFF{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    expect(pipe.delivered).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }])
    expect(pipe.answers().map((a) => [a.id, a.error.code])).toEqual([[null, -32700]])
  })

  it('passes over a byte order mark before a last message the input ends inside of', async () => {
    const pipe = await piped()
    await pipe.feed('\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}')
    await ended(pipe)
    expect(pipe.delivered).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }])
  })

  it('closes on a line longer than it reads, and says so', async () => {
    const pipe = await piped(64)
    await pipe.feed('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
    await pipe.feed(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"${'x'.repeat(64)}`)
    expect(pipe.delivered).toHaveLength(1)
    expect(pipe.errors).toEqual(['a line over 64 bytes: the connection is closed'])
    expect(pipe.closed()).toBe(true)
  })

  it('waits on a slow reader with one listener however many answers wait, and sends none once the output is gone', async () => {
    // Each answer the pipe could not take at once waited on a 'drain' of its own: past ten, Node said
    // MaxListenersExceededWarning on stderr, and an answer to a client that closed its end (EPIPE)
    // waited for a drain that never comes.
    const input = new PassThrough()
    const output = new PassThrough({ highWaterMark: 1 })
    const transport = createStdioTransport({ input, output, report: () => {} })
    await transport.start()
    const sent: number[] = []
    for (let id = 1; id <= 20; id++) void transport.send({ jsonrpc: '2.0', id, result: {} }).then(() => sent.push(id))
    expect(output.listenerCount('drain')).toBeLessThanOrEqual(1)
    output.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
    output.on('error', () => {})
    await new Promise((done) => output.once('close', done))
    await transport.send({ jsonrpc: '2.0', id: 21, result: {} })
    expect(sent).toHaveLength(20)
    expect(output.listenerCount('drain')).toBe(0)
  })

  it('reads a JSON-RPC batch (MCP 2025-03-26), answering all its requests and invalid members in one array once every answer is in', async () => {
    const pipe = await piped()
    const initialize = { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }
    await pipe.feed(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
        { foo: 1 },
        initialize,
      ]) + '\n',
    )
    expect(pipe.delivered.map((m) => ('method' in m ? m.method : m))).toEqual(['ping', 'notifications/initialized', 'tools/list'])
    expect(pipe.answers()).toEqual([])
    await pipe.transport.send({ jsonrpc: '2.0', id: 'b', result: { tools: [] } })
    expect(pipe.answers()).toEqual([])
    // A request of the server's own, though its id is one the batch waits on, is no answer: it goes out alone.
    await pipe.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })
    expect(pipe.answers()).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }])
    await pipe.transport.send({ jsonrpc: '2.0', id: 1, result: {} })
    const [batch, ...rest] = pipe.answers()
    expect(rest).toEqual([])
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('(jsonrpc: ') } },
      { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid Request: initialize is never part of a batch' } },
      { jsonrpc: '2.0', id: 'b', result: { tools: [] } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ])
    // Past the batch, an answer goes out on its own.
    await pipe.transport.send({ jsonrpc: '2.0', id: 1, result: {} })
    expect(pipe.answers()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
  })

  it('answers nothing to a batch of notifications, and sends a batch without the requests cancelled in it', async () => {
    const pipe = await piped()
    await pipe.feed('[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"why"}},{"jsonrpc":"2.0","id":6,"method":"ping"}]\n')
    await pipe.transport.send({ jsonrpc: '2.0', id: 6, result: {} })
    expect(pipe.answers()).toEqual([])
    await pipe.feed('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}\n')
    expect(pipe.answers()).toEqual([[{ jsonrpc: '2.0', id: 6, result: {} }]])
    expect(pipe.delivered).toHaveLength(4)
  })

  it('reads a batch once initialize agreed on 2025-03-26, the one version with batches', async () => {
    const pipe = await piped()
    await initialize(pipe, '2025-03-26')
    await pipe.feed('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
    expect(pipe.delivered).toHaveLength(2)
    await pipe.transport.send({ jsonrpc: '2.0', id: 2, result: {} })
    await pipe.transport.send({ jsonrpc: '2.0', id: 1, result: {} })
    expect(pipe.answers()).toEqual([[{ jsonrpc: '2.0', id: 2, result: {} }, { jsonrpc: '2.0', id: 1, result: {} }]])
    expect(pipe.reported).toEqual([])
  })

  it('refuses a batch once initialize agreed on a version without them (2025-06-18 dropped them): -32600 at each request\'s id, nothing passed on', async () => {
    for (const version of ['2025-06-18', '2025-11-25', '2024-11-05']) {
      const pipe = await piped()
      await initialize(pipe, version)
      await pipe.feed('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"1.0","id":"b","method":"ping"},{"foo":1}]\n')
      await pipe.feed('[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n')
      const message = `Invalid Request: a JSON-RPC batch, which MCP ${version} (the version agreed at initialize) does not have: send each message on a line of its own`
      // Each on a line of its own: under this version an array is no message.
      expect(pipe.answers(), version).toEqual([
        { jsonrpc: '2.0', id: 1, error: { code: -32600, message } },
        { jsonrpc: '2.0', id: 'b', error: { code: -32600, message } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message } },
      ])
      expect(pipe.delivered, version).toEqual([])
      expect(pipe.reported, version).toEqual([message, message])
      // A message on its own line is read as before.
      await pipe.feed('{"jsonrpc":"2.0","id":3,"method":"ping"}\n')
      expect(pipe.delivered, version).toEqual([{ jsonrpc: '2.0', id: 3, method: 'ping' }])
    }
  })

  it('reads a batch sent behind an initialize not answered yet under the version it asks for', async () => {
    // The server agrees on the version asked when it has it, and on 2025-11-25 otherwise: the batch
    // of a client asking 2025-06-18 that does not wait for the answer is no message of its version.
    for (const [asked, read] of [['2025-06-18', false], ['2025-11-25', false], ['2099-01-01', false], ['2025-03-26', true]] as const) {
      const pipe = await piped()
      const params = { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'c', version: '1' } }
      await pipe.feed(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params }) + '\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n')
      expect(pipe.delivered.map((m) => (m as { method: string }).method), asked).toEqual(read ? ['initialize', 'ping'] : ['initialize'])
      if (!read) {
        const message = `Invalid Request: a JSON-RPC batch, which MCP ${asked} (the version the client's initialize asks for) does not have: send each message on a line of its own`
        expect(pipe.answers(), asked).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32600, message } }])
      }
      // Once answered, the version agreed decides, as before.
      await pipe.transport.send({ jsonrpc: '2.0', id: 'init', error: { code: -32602, message: 'Invalid params' } })
      await pipe.feed('[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
      expect(pipe.delivered.at(-1), asked).toEqual({ jsonrpc: '2.0', id: 2, method: 'ping' })
    }
  })

  it('refuses a request in a batch whose id is that of one still in flight, so that neither takes the other\'s reply', async () => {
    const pipe = await piped()
    await pipe.feed('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"why"}}\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"tools/list"}]\n')
    const reused = (id: number) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: `Invalid Request: id ${id} is that of a request still in flight (an id is never reused in a session)` },
    })
    // Passed on: the first request of each id, no other.
    expect(pipe.delivered.map((m) => (isJSONRPCRequest(m) ? [m.id, m.method] : m))).toEqual([
      [5, 'tools/call'],
      [6, 'ping'],
    ])
    // The reply to the request on its own line goes out alone, not into the batch.
    await pipe.transport.send({ jsonrpc: '2.0', id: 5, result: { content: [] } })
    expect(pipe.answers()).toEqual([{ jsonrpc: '2.0', id: 5, result: { content: [] } }])
    await pipe.transport.send({ jsonrpc: '2.0', id: 6, result: {} })
    expect(pipe.answers()).toEqual([[reused(5), reused(6), { jsonrpc: '2.0', id: 6, result: {} }]])
    expect(pipe.reported).toEqual([reused(5).error.message, reused(6).error.message])
  })

  it('refuses a request on its own line whose id is that of one in flight, and takes the id again once it is answered or cancelled', async () => {
    const pipe = await piped()
    await pipe.feed('[{"jsonrpc":"2.0","id":"a","method":"ping"}]\n')
    await pipe.feed('{"jsonrpc":"2.0","id":"a","method":"tools/list"}\n')
    expect(pipe.answers()).toEqual([
      { jsonrpc: '2.0', id: 'a', error: { code: -32600, message: 'Invalid Request: id "a" is that of a request still in flight (an id is never reused in a session)' } },
    ])
    // Its batch still waits for the answer to its own request, and gets it.
    await pipe.transport.send({ jsonrpc: '2.0', id: 'a', result: {} })
    expect(pipe.answers()).toEqual([[{ jsonrpc: '2.0', id: 'a', result: {} }]])
    // Answered: the id is free again; and so it is once its request is cancelled (never answered).
    await pipe.feed('{"jsonrpc":"2.0","id":"a","method":"tools/list"}\n')
    await pipe.feed('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}\n')
    await pipe.feed('{"jsonrpc":"2.0","id":"a","method":"ping"}\n')
    // And an id of the same digits but another type is another id.
    await pipe.feed('{"jsonrpc":"2.0","id":7,"method":"ping"}\n{"jsonrpc":"2.0","id":"7","method":"ping"}\n')
    expect(pipe.answers()).toEqual([])
    expect(pipe.delivered.filter(isJSONRPCRequest).map((m) => [m.id, m.method])).toEqual([
      ['a', 'ping'],
      ['a', 'tools/list'],
      ['a', 'ping'],
      [7, 'ping'],
      ['7', 'ping'],
    ])
  })

  it('answers a refused batch at no id of a request in flight: that error would end the other call', async () => {
    const pipe = await piped()
    await initialize(pipe, '2025-06-18')
    await pipe.feed('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
    await pipe.feed('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n')
    expect(pipe.answers().map((a) => [a.id, a.error.code])).toEqual([
      [2, -32600],
      [null, -32600],
    ])
  })
})
