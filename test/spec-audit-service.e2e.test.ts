import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { cleanEnv, freePort, runCli } from './support/processes'
import { tempDir } from './support/temp-dir'

// Black-box checks of SPEC.md R-SVC-1 on the real process, as an acceptance test would run it:
// `npm start -- --port N --data DIR`, and `serve` configured by its variables alone.

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CHOICE = { question: 'Which queue backend should the worker use?', all_options: ['Redis', 'SQS', 'Kafka'], user_choice: 'SQS' }

interface Started {
  listening: { host: string; port: number; data: string }
  lines: string[]
  stop(): Promise<void>
}

/** Spawns `command args` in its own process group and waits for the service's `listening` log line. */
async function start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  // Its own group: npm runs the service under a shell, and the group is stopped as one.
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  // A service that never says it listens (nor ends) held the test to its timeout, then ran on,
  // detached, past the whole run: the group is ended with the test, whatever became of it.
  onTestFinished(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // Stopped already: no such group.
    }
  })
  const lines: string[] = []
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
  const listening = await new Promise<Started['listening']>((resolve, reject) => {
    let buffered = ''
    child.stdout?.on('data', (chunk) => {
      buffered += chunk
      const parts = buffered.split('\n')
      buffered = parts.pop() ?? ''
      for (const line of parts) {
        lines.push(line)
        try {
          const entry = JSON.parse(line)
          if (entry.event === 'listening') resolve(entry)
        } catch {
          // npm's own banner, not a log line
        }
      }
    })
    void closed.then(() => reject(new Error(`${command} ended before listening: ${stderr}`)))
  })
  return {
    listening,
    lines,
    async stop() {
      process.kill(-child.pid!, 'SIGTERM')
      await closed
    },
  }
}

async function post(url: string, body: unknown) {
  return fetch(`${url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'audit-1' }, body: JSON.stringify(body) })
}

describe('R-SVC-1: the service as a user starts it', () => {
  it('npm start -- --port N --data DIR serves on 127.0.0.1 with its LevelDB under DIR, and logs requests by id', async () => {
    const data = join(tempDir('dm-audit-npm-'), 'store')
    const service = await start('npm', ['start', '--', '--port', '0', '--data', data], cleanEnv({ DECISION_MEMORY_LOG_LEVEL: 'info' }))
    try {
      expect(service.listening).toMatchObject({ host: '127.0.0.1', data })
      const url = `http://127.0.0.1:${service.listening.port}`
      expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ status: 'ok' })
      const stored = await post(url, CHOICE)
      expect(stored.status).toBe(201)
      expect(stored.headers.get('x-request-id')).toBe('audit-1')
      expect(existsSync(join(data, 'CURRENT'))).toBe(true)
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> }
      for (const path of ['/healthz', '/v1/observations', '/v1/recommendations', '/v1/plan', '/v1/sessions', '/v1/hooks/claude-code', '/v1/users/{user}/preferences', '/v1/users/{user}/export', '/v1/users/{user}']) {
        expect(Object.keys(document.paths)).toContain(path)
      }
      const docs = await fetch(`${url}/docs`)
      expect(docs.status).toBe(200)
      expect(await docs.text()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']*\.(js|css)/)
    } finally {
      await service.stop()
    }
    const request = service.lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'request' && entry.path === '/v1/observations')
    expect(request).toMatchObject({ req_id: 'audit-1', method: 'POST', status: 201 })
  })

  it('serve takes DECISION_MEMORY_PORT and DECISION_MEMORY_DATA, and a command finds it by the port alone', async () => {
    const data = join(tempDir('dm-audit-env-'), 'store')
    // A free port may be given to another test file's listen(0) before serve listens on it (about
    // 1 in 7,000): serve then ends saying it is in use, and another port is tried.
    let port = 0
    let service: Started | undefined
    for (let attempt = 1; service === undefined; attempt++) {
      port = await freePort()
      const env = { DECISION_MEMORY_PORT: String(port), DECISION_MEMORY_DATA: data }
      try {
        service = await start(process.execPath, ['bin/decision-memory.js', 'serve'], cleanEnv({ ...env, DECISION_MEMORY_LOG_LEVEL: 'info' }))
      } catch (error) {
        if (attempt === 3 || !String(error).includes('is in use by another process')) throw error
      }
    }
    try {
      expect(service.listening).toMatchObject({ host: '127.0.0.1', port, data })
      expect((await post(`http://127.0.0.1:${port}`, { ...CHOICE, user: 'carol' })).status).toBe(201)
      // No DECISION_MEMORY_URL: http://127.0.0.1:$DECISION_MEMORY_PORT.
      const preferences = await runCli(['preferences', '--user', 'carol', '--json'], { env: { DECISION_MEMORY_PORT: String(port) } })
      expect(preferences.code, preferences.stderr).toBe(0)
      expect(JSON.parse(preferences.stdout).points[0]).toMatchObject({ majority: 'SQS', observations: 1 })
    } finally {
      await service.stop()
    }
  })
})
