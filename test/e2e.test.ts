import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, runCli, spawnService, type RunningService } from './support/spawn-service'
import { tempDir } from './support/temp-dir'

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

async function post(url: string, path: string, body: unknown) {
  const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: r.status, body: (await r.json()) as any }
}

/**
 * A connection with a request the service has begun: a body announced as 100 bytes, of which 5
 * ever come. By the time a request sent after it is answered, the service has read its headers.
 */
async function holdRequestOpen(service: RunningService) {
  const socket = connect(service.port, '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.on('error', () => undefined)
  socket.write('POST /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"use')
  expect((await fetch(service.url + '/healthz')).status).toBe(200)
  return socket
}

/** Resolves once the service has logged a line with this event. */
function logged(service: RunningService, event: string): Promise<void> {
  return new Promise((resolve) => {
    const look = () => {
      if (service.lines.some((line) => line.includes(`"event":"${event}"`))) resolve()
      // After readline has taken the chunk's lines.
      else service.child.stdout?.once('data', () => setImmediate(look))
    }
    look()
  })
}

describe('the real process (end to end)', () => {
  let service: RunningService | undefined
  afterEach(async () => {
    await service?.stop()
    service = undefined
  })

  it('serves, keeps what it acknowledged across a restart, and stops cleanly on SIGTERM', async () => {
    service = await spawnService()
    expect((await fetch(service.url + '/healthz')).status).toBe(200)
    // A declared JSON body that is empty is read as {}: the optional body of the scan route.
    const scan = await fetch(service.url + '/v1/maintenance/decay-scan', { method: 'POST', headers: { 'content-type': 'application/json' } })
    expect(scan.status).toBe(200)
    const obs = Array.from({ length: 6 }, (_, i) => ({ ...TIER, user_choice: 'Tier L', decision_id: `e-${i}`, session_id: 'e2e' }))
    expect((await post(service.url, '/v1/observations', obs)).status).toBe(201)
    const dataDir = service.dataDir
    expect(await service.stop()).toBe(0)
    service = await spawnService({ dataDir })
    const r = await post(service.url, '/v1/recommendations', TIER)
    expect(r.body).toMatchObject({ state: 'partial', recommended: 'Tier L', observations: 6 })
    // Every log line is out once the service has stopped (they are written asynchronously).
    expect(await service.stop()).toBe(0)
    const logged = service.lines.map((l) => JSON.parse(l)).find((l) => l.path === '/v1/recommendations')
    expect(logged.req_id).toMatch(/[0-9a-f-]{36}/)
  })

  it('binds an IPv6 address written in brackets, as a URL writes it (--host [::1])', async () => {
    service = await spawnService({ args: ['--host', '[::1]'] })
    const listening = service.lines.map((l) => JSON.parse(l)).find((l) => l.event === 'listening')
    expect(listening).toMatchObject({ host: '::1', msg: `listening on http://[::1]:${service.port}` })
    expect((await fetch(`http://[::1]:${service.port}/healthz`)).status).toBe(200)
  })

  it('toggles through the running service, and opens the store itself when none runs', async () => {
    service = await spawnService()
    const env = { DECISION_MEMORY_URL: service.url }
    await post(service.url, '/v1/sessions', { session_id: 'cli-1' })
    const off = await runCli(['toggle', '--session', 'cli-1', '--off'], { env })
    expect(off).toMatchObject({ code: 0 })
    expect(off.stdout).toContain('personalization off for session cli-1')
    const r = await post(service.url, '/v1/recommendations', { ...TIER, session_id: 'cli-1' })
    expect(r.body.state).toBe('personalization-off')

    const dataDir = service.dataDir
    await service.stop()
    service = undefined
    const flipped = await runCli(['toggle', '--session', 'cli-1', '--json', '--data', dataDir], { env })
    expect(flipped.code).toBe(0)
    expect(JSON.parse(flipped.stdout)).toMatchObject({ session_id: 'cli-1', personalization: true })
  })

  it('refuses to start on a broken policy, naming the file and the field', async () => {
    const dir = tempDir('dm-bad-policy-')
    const file = join(dir, 'broken.json')
    writeFileSync(file, JSON.stringify({ thresholds: { min_observations: 'five' } }))
    const r = await runCli(['serve', '--port', '0', '--data', join(dir, 'data'), '--policy', file])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('broken.json')
    expect(r.stderr).toContain('thresholds.min_observations')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('refuses to start the MCP server on a broken policy too, naming the file and the field, before any tool call', async () => {
    const dir = tempDir('dm-bad-policy-')
    const file = join(dir, 'broken.yaml')
    writeFileSync(file, 'decay: { alpha: -1 }\n')
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }
    const r = await runCli(['mcp', '--data', join(dir, 'data'), '--policy', file], { input: `${JSON.stringify(initialize)}\n` })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`decision-memory mcp: ${file}: invalid policy\n  decay.alpha: at least 0, not -1\n`)
    expect(r.stdout).toBe('')
  })

  it('says clearly when the data dir is held by another process', async () => {
    service = await spawnService()
    const r = await runCli(['serve', '--port', '0', '--data', service.dataDir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      `decision-memory serve: the store in ${service.dataDir} is in use by another process, a service already running on it or a command that has it open: stop that one, or give --data another folder\n`,
    )
  })

  it('says clearly when the port is in use, without a stack trace, and exits 1', async () => {
    service = await spawnService()
    const dir = tempDir('dm-port-')
    const r = await runCli(['serve', '--port', String(service.port), '--data', dir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(`127.0.0.1:${service.port} is in use by another process`)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(r.stdout).toContain('"event":"listen-failed"')
  })

  it('leaves nothing behind in --data when the port is in use: no store made, a folder that was there untouched', async () => {
    // The port held by a plain socket: serve finds it taken only once it listens.
    const held: Server = createServer()
    await new Promise<void>((listening) => held.listen(0, '127.0.0.1', listening))
    const port = (held.address() as { port: number }).port
    try {
      const parent = tempDir('dm-port-')
      // A folder (and the one above it) that are not there: a mistyped port made them an empty store.
      const fresh = join(parent, 'new', 'my data')
      const made = await runCli(['serve', '--port', String(port), '--data', fresh])
      expect(made.code).toBe(1)
      expect(made.stderr).toContain(`127.0.0.1:${port} is in use by another process`)
      expect(existsSync(join(parent, 'new'))).toBe(false)
      // A folder the user had, with a file of theirs in it: as it was, nothing added.
      const kept = join(parent, 'kept')
      mkdirSync(kept)
      writeFileSync(join(kept, 'notes.txt'), 'mine')
      const there = await runCli(['serve', '--port', String(port), '--data', kept])
      expect(there.code).toBe(1)
      expect(readdirSync(kept)).toEqual(['notes.txt'])
    } finally {
      await new Promise((closed) => held.close(closed))
    }
  })

  it('stops on SIGTERM behind a stdout that takes nothing: dies of the signal after its second, the store closed', async () => {
    const dataDir = tempDir('dm-stalled-')
    // Its stdout is a pipe this test never reads: once the pipe is full, a write of its log lines
    // blocks in one of Node's threads, which process.exit would wait for.
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'ignore'] })
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)))
    const port = await new Promise<number>((resolve) => {
      let text = ''
      const onData = (chunk: Buffer) => {
        text += chunk.toString('utf8')
        const found = /"event":"listening"[^\n]*"port":(\d+)/.exec(text)
        if (found === null) return
        child.stdout.off('data', onData)
        child.stdout.pause()
        resolve(Number(found[1]))
      }
      child.stdout.on('data', onData)
    })
    // Far more lines than a pipe holds (a line is about 200 bytes).
    for (let round = 0; round < 40; round++) {
      await Promise.all(Array.from({ length: 100 }, () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.arrayBuffer())))
    }
    child.kill('SIGTERM')
    expect(await exited).toBe('SIGTERM')
    child.stdout.destroy()
    // The store was closed before: it opens again at once.
    service = await spawnService({ dataDir })
    expect((await fetch(service.url + '/healthz')).status).toBe(200)
  })

  it('stops on SIGTERM while a client holds a request open: its connection is closed after the grace period', async () => {
    service = await spawnService()
    const socket = await holdRequestOpen(service)
    const closed = new Promise((resolve) => socket.once('close', resolve))
    expect(await service.stop()).toBe(0)
    await closed
    expect(service.lines.map((line) => (JSON.parse(line) as { event?: string }).event)).toContain('stopped')
  })

  it('answers a request its HTTP parser refuses with a JSON error, as any bad input', async () => {
    service = await spawnService()
    const socket = connect(service.port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write('POST /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nNot A Header\r\n\r\n')
    await closed
    const [head = '', body = ''] = received.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(JSON.parse(body).error.code).toBe('malformed_request')
    expect((await fetch(service.url + '/healthz')).status).toBe(200)
  })

  it('answers an Expect it does not meet with a JSON error too, and 100-continue with its interim answer', async () => {
    service = await spawnService()
    const body = JSON.stringify({ ...TIER, user_choice: 'Tier M', user: 'expecting' })
    const head = (expectation: string) => `POST /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: ${expectation}\r\nConnection: close\r\n\r\n`
    const exchange = async (expectation: string) => {
      const socket = connect(service!.port, '127.0.0.1')
      let received = ''
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')))
      const closed = new Promise((resolve) => socket.once('close', resolve))
      socket.write(head(expectation) + body)
      await closed
      return received
    }
    const refused = await exchange('200-ok')
    const [refusedHead = '', refusedBody = ''] = refused.split('\r\n\r\n')
    expect(refusedHead).toMatch(/^HTTP\/1\.1 417 Expectation Failed\r\n/)
    expect(JSON.parse(refusedBody).error).toMatchObject({ code: 'expectation_failed', issues: [{ path: 'expect' }] })
    expect((await fetch(`${service.url}/v1/users/expecting/export`).then((r) => r.text())).trim().split('\n')).toHaveLength(2)
    expect(await exchange('100-continue')).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/)
  })

  it('refuses a body declared over 256 KB after Expect: 100-continue before it is sent, and closes the connection', async () => {
    service = await spawnService()
    const socket = connect(service.port, '127.0.0.1')
    let received = ''
    const answered = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8')
      if (received.includes('body_too_large')) resolve()
    }))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    // The headers alone: the client waits for 100 Continue before its 300 KB, as curl does.
    socket.write('POST /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 300000\r\nExpect: 100-continue\r\n\r\n')
    await answered
    expect(received).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/)
    expect(received.toLowerCase()).toContain('connection: close')
    await closed
    expect((await fetch(service.url + '/healthz')).status).toBe(200)
  })

  it('answers an OPTIONS declaring a body over 256 KB after Expect: 100-continue as one of no body, passing the body over', async () => {
    // Its body is not read (README): 100 Continue, as to a GET, and 204, the connection serving on.
    service = await spawnService()
    const socket = connect(service.port, '127.0.0.1')
    let received = ''
    let sent = false
    const answered = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8')
      if (!sent && received.includes('100 Continue') && (sent = true)) socket.write('x'.repeat(300000) + 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
      if (received.includes('"status":"ok"')) resolve()
    }))
    // Closed before the GET is answered, it is told by what was received, not a wait.
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.write('OPTIONS /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 300000\r\nExpect: 100-continue\r\n\r\n')
    await Promise.race([answered, closed])
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 204 No Content\r\n/)
    expect(received).toContain('HTTP/1.1 200 OK')
    socket.destroy()
  })

  it('answers a request it cannot make a Request of (a backslash in the path, GET *, no Host) with a JSON error too, and OPTIONS * as the service', async () => {
    service = await spawnService()
    for (const [line, host] of [['GET /v1\\..\\healthz HTTP/1.1', true], ['GET * HTTP/1.1', true], ['GET /healthz HTTP/1.1', false]] as const) {
      const socket = connect(service.port, '127.0.0.1')
      let received = ''
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')))
      const closed = new Promise((resolve) => socket.once('close', resolve))
      socket.write(`${line}\r\n${host ? 'Host: 127.0.0.1\r\n' : ''}Connection: close\r\n\r\n`)
      await closed
      const [head = '', body = ''] = received.split('\r\n\r\n')
      expect(head, line).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
      expect(head.toLowerCase(), line).toContain('content-type: application/json')
      expect(JSON.parse(body).error.code, line).toBe('malformed_request')
    }
    // `OPTIONS *` asks of the service as a whole (RFC 9110 §9.3.7): every method it serves.
    const socket = connect(service.port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write('OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    await closed
    expect(received).toMatch(/^HTTP\/1\.1 204 No Content\r\n/)
    expect(received.toLowerCase()).toContain('allow: delete, get, head, options, post, put\r\n')
    expect((await fetch(service.url + '/healthz')).status).toBe(200)
  })

  it('answers a request that comes after the stop began with Connection: close, and then ends at once', async () => {
    service = await spawnService()
    const { child } = service
    const socket = connect(service.port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    const closed = new Promise((resolve) => socket.once('close', resolve))
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)))
    // A request begun before the stop (its body not all sent yet)...
    const body = JSON.stringify({ ...TIER, user_choice: 'Tier M', decision_id: 'at-stop', user: 'alice' })
    socket.write(`POST /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, -1)}`)
    expect((await fetch(service.url + '/healthz')).status).toBe(200)
    child.kill('SIGTERM')
    await logged(service, 'stopping')
    // ...then its end, and a second request on the same connection, begun after.
    socket.write(`${body.slice(-1)}GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    await closed
    const answers = received.split(/(?=HTTP\/1\.1 )/)
    expect(answers).toHaveLength(2)
    expect(answers[0]).toMatch(/^HTTP\/1\.1 201/)
    expect(answers[1]).toMatch(/^HTTP\/1\.1 200/)
    expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i)
    // Once, not twice: a second signal would end it at once.
    expect(await exited).toBe(0)
  })

  it('ends at once on a second signal during the stop, dying of it', async () => {
    service = await spawnService()
    const { child } = service
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)))
    // A request held open keeps the stop waiting.
    const socket = await holdRequestOpen(service)
    child.kill('SIGINT')
    await logged(service, 'stopping')
    child.kill('SIGTERM')
    expect(await exited).toBe('SIGTERM')
    socket.destroy()
  })

  it('explains its usage', async () => {
    const help = await runCli(['help'])
    expect(help.code).toBe(0)
    for (const command of ['serve', 'toggle']) expect(help.stdout).toContain(command)
    const bad = await runCli(['toggle'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--session')
  })
})
