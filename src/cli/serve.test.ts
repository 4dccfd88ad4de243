import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readdirSync, watch } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { connect, createServer as createSocketServer } from 'node:net'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Level } from 'level'
import { describe, expect, it } from 'vitest'
import { BIN, cleanEnv, freePort } from '../../test/support/processes'
import { spawnService } from '../../test/support/spawn-service'
import { openStores } from '../open-store'
import { LOCAL_TURN_FILE, takeLocalTurn } from './local-turn'
import { openForService, SERVE_HELP } from './serve'

describe('decision-memory serve', () => {
  it('says where it listens whatever DECISION_MEMORY_LOG_LEVEL hides: a script finds the port --port 0 chose', async () => {
    for (const level of ['warn', 'silent']) {
      const dataDir = await mkdtemp(join(tmpdir(), 'dm-serve-'))
      // spawnService waits for the `listening` line: without it, this never resolves.
      const service = await spawnService({ dataDir, env: { DECISION_MEMORY_LOG_LEVEL: level } })
      try {
        expect((await fetch(`${service.url}/healthz`)).status, level).toBe(200)
        const listening = service.lines.map((line) => JSON.parse(line) as { event?: string; port?: number })
        expect(listening, level).toEqual([expect.objectContaining({ event: 'listening', port: service.port })])
      } finally {
        await service.stop()
        await rm(dataDir, { recursive: true, force: true })
      }
    }
  })

  it('takes --host 127.1, an IPv4 loopback address in the short form the resolver reads, without --auth, and says the address it binds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-serve-'))
    const service = await spawnService({ dataDir, args: ['--host', '127.1'] })
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200)
      const listening = service.lines.map((line) => JSON.parse(line) as { event?: string; host?: string; msg?: string }).find((line) => line.event === 'listening')
      expect(listening).toMatchObject({ host: '127.0.0.1', msg: `listening on http://127.0.0.1:${service.port}` })
    } finally {
      await service.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('answers a client that half-closes once its request is sent (nc, shutdown(SHUT_WR)), then closes the connection', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-serve-'))
    const service = await spawnService({ dataDir })
    const observation = JSON.stringify({ question: 'Which linter?', all_options: ['eslint', 'biome'], user_choice: 'biome' })
    try {
      for (const [request, status] of [
        ['GET /v1/decisions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'HTTP/1.1 200 OK'],
        [`POST /v1/observations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${observation.length}\r\n\r\n${observation}`, 'HTTP/1.1 201 Created'],
      ] as const) {
        // Done when the service closed the connection: it would hang if it held it open.
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(service.port, '127.0.0.1', () => socket.end(request))
          let text = ''
          socket.on('data', (chunk) => (text += chunk))
          socket.on('close', () => resolve(text))
          socket.on('error', reject)
        })
        expect(answer.split('\r\n')[0], request).toBe(status)
      }
    } finally {
      expect(await service.stop()).toBe(0)
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('warns at start, naming the port, when fetch (the commands\' and hooks\' client) will not connect to it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'dm-serve-'))
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '10080', '--data', dataDir], { env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    // 'close', not 'exit': ended (it could not listen), all its stderr read. Made at once, as it may
    // be over before the end of the test.
    const closed = new Promise((resolve) => child.once('close', resolve))
    try {
      // Said before it listens (or fails to: another process may hold the port).
      await Promise.race([
        new Promise<void>((resolve) => {
          child.stderr.on('data', (chunk) => {
            stderr += chunk
            if (stderr.includes('\n')) resolve()
          })
        }),
        closed,
      ])
      expect(stderr).toMatch(/^decision-memory serve: warning: port 10080 is one that fetch, the client of the commands and hooks, will not connect to \(a "bad port" of the Fetch standard\)/)
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await closed
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe('decision-memory serve sent a stop signal as it starts', () => {
  /**
   * Spawns serve on `dataDir` and sends it `signal` when `ready` calls `send` (given the process,
   * to watch its output); gives how it ended and the events it logged.
   */
  async function stoppedAt(
    dataDir: string,
    signal: NodeJS.Signals,
    args: string[],
    ready: (child: ChildProcessWithoutNullStreams, send: () => void) => void,
  ): Promise<{ code: number | null; killedBy: NodeJS.Signals | null; events: Array<{ event?: string; signal?: string }> }> {
    const child = spawn(process.execPath, [BIN, 'serve', '--data', dataDir, ...args], { env: cleanEnv({ DECISION_MEMORY_LOG_LEVEL: 'info' }), stdio: 'pipe' })
    child.stdin.end()
    const events: Array<{ event?: string; signal?: string }> = []
    createInterface({ input: child.stdout }).on('line', (line) => events.push(JSON.parse(line) as { event?: string }))
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (code, killedBy) => resolve([code, killedBy])))
    ready(child, () => child.kill(signal))
    const [code, killedBy] = await closed
    return { code, killedBy, events }
  }

  it('stops cleanly at a signal while it waits for the store (a command\'s turn at it), as at one once it listens: exit 0, stopping and stopped, no store made', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const dataDir = await mkdtemp(join(tmpdir(), 'dm-serve-early-'))
      try {
        // A turn at the store held by a command that runs (this test), which serve waits for,
        // saying so with a file of its own: the moment it waits, seen without a sleep.
        const turn = `${process.pid} 0123456789abcdef\n`
        await writeFile(join(dataDir, LOCAL_TURN_FILE), turn)
        const watcher = watch(dataDir)
        const ended = await stoppedAt(dataDir, signal, ['--port', '0'], (_child, send) => {
          watcher.on('change', (_kind, name) => {
            if (String(name).startsWith(`${LOCAL_TURN_FILE}.wait.`)) {
              watcher.close()
              send()
            }
          })
        })
        watcher.close()
        // Without its handlers yet, it died of the signal (143, 130), no line said.
        expect({ code: ended.code, killedBy: ended.killedBy }, signal).toEqual({ code: 0, killedBy: null })
        expect(ended.events.map((e) => e.event), signal).toEqual(['stopping', 'stopped'])
        expect(ended.events[0]?.signal, signal).toBe(signal)
        // Nothing made in the folder, its waiter's file taken away, the command's turn as it was.
        expect(readdirSync(dataDir), signal).toEqual([LOCAL_TURN_FILE])
        expect(await readFile(join(dataDir, LOCAL_TURN_FILE), 'utf8')).toBe(turn)
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    }
  })

  it('stops cleanly at a signal sent as soon as it says anything (a warning, before it looks at the port or the store)', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-serve-early-'))
    try {
      // Port 10080, one fetch will not connect to: serve warns of it first thing, on stderr.
      const ended = await stoppedAt(join(parent, 'data'), 'SIGTERM', ['--port', '10080'], (child, send) => {
        let stderr = ''
        child.stderr.on('data', (chunk) => {
          stderr += chunk
          if (stderr.includes('\n')) send()
        })
      })
      // Where its start has got to when the signal lands is not known here (what it made then is
      // the test above's): only that it stops cleanly from there.
      expect({ code: ended.code, killedBy: ended.killedBy }).toEqual({ code: 0, killedBy: null })
      expect(ended.events.map((e) => e.event)).toEqual(expect.arrayContaining(['stopping', 'stopped']))
    } finally {
      await rm(parent, { recursive: true, force: true })
    }
  })
})

describe('decision-memory serve on a port taken between its look and its listen', () => {
  /**
   * Runs serve on `dataDir` with another process's turn at the store held, so that it waits once
   * it has found `port` free; runs `meanwhile` (the turn's own work), takes the port while it
   * waits, then gives the turn back: its listen, once the store is opened, finds the port taken.
   * Gives its exit code and stderr. A serve that took the port itself (its wait over first) is
   * stopped and said so, rather than left running for the test to time out on.
   */
  async function takenWhileWaiting(dataDir: string, meanwhile: () => Promise<void> = async () => {}): Promise<{ code: number | null; stderr: string; port: number }> {
    const port = await freePort()
    await writeFile(join(dataDir, LOCAL_TURN_FILE), `${process.pid} 0123456789abcdef\n`)
    const taker = createSocketServer()
    const watcher = watch(dataDir)
    const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data', dataDir], { env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve))
    const taken = new Promise<void>((resolve, reject) => {
      watcher.on('change', (_kind, name) => {
        if (!String(name).startsWith(`${LOCAL_TURN_FILE}.wait.`)) return
        watcher.close()
        taker.once('error', reject)
        void meanwhile().then(() => taker.listen(port, '127.0.0.1', () => void unlink(join(dataDir, LOCAL_TURN_FILE)).then(() => resolve())), reject)
      })
    })
    try {
      await taken
      return { code: await closed, stderr, port }
    } catch (error) {
      throw new Error(`serve did not wait for the turn until the port was taken: ${String(error)}\n${stderr}`)
    } finally {
      watcher.close()
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL')
        await closed
      }
      if (taker.listening) await new Promise((done) => taker.close(done))
    }
  }

  it('removes the store it made for this start, and leaves a store that was there', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dm-serve-race-'))
    try {
      const fresh = join(parent, 'fresh')
      await mkdir(fresh)
      const made = await takenWhileWaiting(fresh)
      expect(made.code).toBe(1)
      expect(made.stderr).toContain(`127.0.0.1:${made.port} is in use by another process`)
      // An empty LevelDB (CURRENT, LOCK, LOG, MANIFEST-…, its log) and SERVICE_ID were left in it.
      expect(readdirSync(fresh)).toEqual([])
      // A store that was there: kept, what it holds with it.
      const kept = join(parent, 'kept')
      const db = new Level<string, string>(kept)
      await db.put('k', 'an acknowledged choice')
      await db.close()
      const again = await takenWhileWaiting(kept)
      expect(again.code).toBe(1)
      expect(again.stderr).toContain('is in use by another process')
      await db.open()
      expect(await db.get('k')).toBe('an acknowledged choice')
      await db.close()
    } finally {
      await rm(parent, { recursive: true, force: true })
    }
  })

  it('leaves a store another process made, and wrote to, while it waited for its turn at the folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-serve-race-'))
    try {
      // No store when serve starts; a command (no service running) makes one in its turn, and
      // records a choice in it, which serve, waiting for that turn, then opens.
      const ended = await takenWhileWaiting(dir, async () => {
        const db = new Level<string, string>(dir)
        await db.put('k', 'an acknowledged choice')
        await db.close()
      })
      expect(ended.code).toBe(1)
      expect(ended.stderr).toContain('is in use by another process')
      const db = new Level<string, string>(dir)
      await db.open()
      expect(await db.get('k')).toBe('an acknowledged choice')
      await db.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('decision-memory help serve', () => {
  it('says a policy file is read as YAML only when its name ends in .yaml or .yml', () => {
    // `JSON or YAML` alone let a YAML policy in mine.json seem right until start refused it.
    expect(SERVE_HELP).toMatch(/--policy FILE +policy file: JSON, or YAML when its name ends in \.yaml or \.yml\b/)
  })

  it('says an IPv4 address in a short form is taken for --host, as the address it is', () => {
    // serve takes --host 127.1 as 127.0.0.1 (loopback, no --auth), which the help did not say.
    expect(SERVE_HELP.replace(/\s+/g, ' ')).toContain('an IPv4 address in a short form the resolver reads (127.1, 2130706433) is bound as the address it is, loopback included')
  })
})

describe('decision-memory serve with a tokens file it cannot use', () => {
  /** What serve says on stderr, and its exit code, when it stops before listening. */
  async function refusal(args: string[], env: Record<string, string>, timeout?: number): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'ignore', 'pipe'], timeout })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    return { code, stderr }
  }

  it('refuses a --policy or --auth that is a named pipe, naming the flag, rather than wait for a writer that never comes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-serve-fifo-'))
    try {
      const fifo = join(dir, 'pipe.json')
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
      // Killed should it wait (no exit code): its open of the pipe held it until then.
      for (const [flag, kind] of [['--policy', 'policy file'], ['--auth', 'tokens file']] as const) {
        const { code, stderr } = await refusal(['--data', join(dir, 'data'), flag, fifo], {}, 20_000)
        expect({ code, stderr }, flag).toEqual({ code: 1, stderr: `decision-memory serve: ${fifo}: cannot read ${kind}: a named pipe (FIFO), not a file: give ${flag} the path of a ${kind}\n` })
      }
      const byVariable = await refusal(['--data', join(dir, 'data')], { DECISION_MEMORY_AUTH: fifo }, 20_000)
      expect(byVariable.stderr).toBe(`decision-memory serve: DECISION_MEMORY_AUTH: ${fifo}: cannot read tokens file: a named pipe (FIFO), not a file: give DECISION_MEMORY_AUTH the path of a tokens file\n`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('names DECISION_MEMORY_AUTH when the variable named the file, and only the file when --auth did', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-serve-auth-'))
    try {
      const missing = join(dir, 'missing.json')
      const byVariable = await refusal(['--data', join(dir, 'data')], { DECISION_MEMORY_AUTH: missing })
      expect(byVariable.code).toBe(1)
      expect(byVariable.stderr).toBe(
        `decision-memory serve: DECISION_MEMORY_AUTH: ${missing}: cannot read tokens file: there is no such file (ENOENT): give DECISION_MEMORY_AUTH the path of a tokens file\n`,
      )
      const byFlag = await refusal(['--data', join(dir, 'data'), '--auth', missing], {})
      expect(byFlag.stderr).toBe(`decision-memory serve: ${missing}: cannot read tokens file: there is no such file (ENOENT): give --auth the path of a tokens file\n`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('opening the store for the service', () => {
  it('waits for the turn of a command that has the store open (an MCP call with no service), rather than fail to start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-serve-turn-'))
    try {
      // Another process's turn, and the store it opened (held here: LevelDB's lock is the same).
      const held = await openStores(dir)
      await writeFile(join(dir, LOCAL_TURN_FILE), `${process.ppid} 0123456789abcdef\n`)
      let waits = 0
      const commandEnds = async () => {
        if (waits++ > 0) return
        await held.store.close()
        await unlink(join(dir, LOCAL_TURN_FILE))
      }
      const { store } = await openForService(dir, undefined, (d) => takeLocalTurn(d, commandEnds, 3_000, () => true))
      await store.close()
      expect(waits).toBe(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
