import { execFile } from 'node:child_process'
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { describe, expect, it, onTestFinished } from 'vitest'
import { LIMITS } from '../src/domain/limits'
import { outsideEnv } from './support/processes'
import { createTestApp } from './support/test-app'
import { tempDir } from './support/temp-dir'

const ROOT = join(import.meta.dirname, '..')

/** README's recipe that sends a user's export back ("Questions keyed anew by an upgrade"), as written. */
function resendRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((b) => b.includes('forget --user $U --yes'))
  if (block === undefined) throw new Error('README has no re-send recipe')
  return block
}

/** What a run of the recipe left: what it toggled, its exit code, stderr and stdout, and the files it wrote. */
interface Run {
  toggled: string[]
  code: number
  stderr: string
  stdout: string
  files: string[]
  /** The lines of `alice.refused.ndjson`, parsed. */
  refused: any[]
}

/**
 * Runs the recipe against the app served on a loopback port, with the real `curl`, and `npx`
 * stood in for: `export` writes the export given, `forget` forgets the user through the route
 * (noting the files there then), `toggle` is the command itself, through the service, the session
 * it turned off noted (`s-fails` fails). Needs bash, jq and curl.
 */
async function runRecipe(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  exported: string,
  { there = [], cut = () => false }: { there?: string[]; cut?: (request: IncomingMessage) => boolean } = {},
): Promise<Run & { atForget: string[] }> {
  const dir = tempDir('dm-resend-')
  for (const file of there) writeFileSync(join(dir, file), 'an earlier run\n')
  cpSync(join(ROOT, 'policies'), join(dir, 'policies'), { recursive: true })
  writeFileSync(join(dir, 'export.ndjson'), exported)
  writeFileSync(
    join(dir, 'npx'),
    `#!/usr/bin/env bash
case "$2" in
  export) cp "${dir}/export.ndjson" "$6";;
  forget) ls "${dir}" > "${dir}/at-forget"; curl -sS -X DELETE "$DECISION_MEMORY_URL/v1/users/$4" > /dev/null;;
  toggle) case " $* " in *' --session s-fails '*|*' --session=s-fails '*) echo 'decision-memory toggle: it failed' >&2; exit 2;; esac
    said=$(node ${JSON.stringify(join(ROOT, 'bin', 'decision-memory.js'))} "\${@:2}") || exit
    printf '%s\\n' "$said" | sed -n 's/^personalization off for session \\(.*\\) (user .*)$/\\1/p' >> "${dir}/toggled";;
esac
`,
  )
  chmodSync(join(dir, 'npx'), 0o755)
  writeFileSync(join(dir, 'toggled'), '')
  const listener = getRequestListener(app.fetch)
  // A request `cut` picks is answered nothing: its connection is closed, as a service that stopped.
  const server = createServer((request, response) => (cut(request) ? request.socket.destroy() : listener(request, response)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const ran = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    // Not execFileSync: the service answers the recipe's curls from this process.
    execFile('bash', ['-c', resendRecipe()], { cwd: dir, env: { ...outsideEnv(), PATH: `${dir}:${process.env.PATH}`, DECISION_MEMORY_URL: url } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    )
  })
  const lines = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').split('\n').filter((l) => l !== '') : [])
  return {
    ...ran,
    toggled: lines('toggled'),
    files: readdirSync(dir).sort(),
    atForget: lines('at-forget'),
    refused: there.includes('alice.refused.ndjson') ? [] : lines('alice.refused.ndjson').map((l) => JSON.parse(l)),
  }
}

describe("README's re-send of an export, after forget (Questions keyed anew by an upgrade)", () => {
  it('sends back every answer an earlier version stored under an id spaced or invisible at its ends, which the routes now refuse', async () => {
    const { app, call, memory } = await createTestApp()
    const OBS = { user: 'alice', question: 'Which DB?', all_options: ['pg', 'mysql'], user_choice: 'pg', source: 'user' as const }
    // Stored as a version before took them, past the routes that now refuse them: the hook's
    // decision_id of a tool_use_id " toolu_1" (before 8b0c31a), a client's "d-1\u200b", a session
    // and a project with an invisible end; and ids that keep what shows at their ends.
    await memory.startSession({ user: 'alice', session_id: 's-2\u200b' })
    await memory.setPersonalization({ user: 'alice', session_id: 's-2\u200b', enabled: false })
    await memory.observe([
      { ...OBS, decision_id: ' toolu_1#ad846d480520c878' },
      { ...OBS, decision_id: '\u200btoolu_2#ad846d480520c878', session_id: 's-2\u200b' },
      { ...OBS, decision_id: 'd-1\u200b', project: '\u2060acme' },
      { ...OBS, decision_id: 'd-2 \ufe0f' },
      { ...OBS, decision_id: 'd-❤️' },
      { ...OBS, decision_id: 'd-3' },
    ])
    const before = (await call('GET', '/v1/users/alice/preferences')).body.points
    const exported = await call('GET', '/v1/users/alice/export')

    const run = await runRecipe(app, typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe("sent back alice's export, each line taken: sessions 1, observations 6, sessions turned off 1\n")
    expect(run.refused).toEqual([])
    // What it sends was written before the user was forgotten, and the export is kept.
    expect(run.atForget).toEqual(expect.arrayContaining(['alice.ndjson', 'alice.observations.ndjson', 'alice.sessions.ndjson', 'alice.off']))
    expect(run.files).toContain('alice.ndjson')
    const ids = (await call('GET', '/v1/users/alice/export')).body.split('\n').filter((l: string) => l !== '').map((l: string) => JSON.parse(l))
      .filter((l: { type: string }) => l.type === 'observation').map((l: { data: { decision_id: string } }) => l.data.decision_id)
    expect(ids.sort()).toEqual(['toolu_1#ad846d480520c878', 'toolu_2#ad846d480520c878', 'd-1', 'd-2', 'd-❤️', 'd-3'].sort())
    // Learned as before, at the same points, the project under its name without the invisible end.
    const after = (await call('GET', '/v1/users/alice/preferences')).body.points
    const projects = (points: { projects: string[] }[]) => points.map((p) => p.projects)
    expect(projects(before)).toEqual([['\u2060acme']])
    expect(projects(after)).toEqual([['acme']])
    expect(after.map(({ projects: _, ...p }: { projects: string[] }) => p)).toEqual(before.map(({ projects: _, ...p }: { projects: string[] }) => p))
    expect(run.toggled).toEqual(['s-2'])
  })

  it('reports each line the service does not take, with its status and error, keeps them and the export, sends the rest, and exits 1', async () => {
    const { app, call, memory } = await createTestApp()
    const OBS = { user: 'alice', question: 'Which DB?', all_options: ['pg', 'mysql'], user_choice: 'pg', source: 'user' as const }
    // A session named by white space alone, as a version before took one: without it, nothing is
    // left to name it by, and the routes refuse its lines; the recipe must not drop them unsaid.
    await memory.observe([
      { ...OBS, decision_id: 'd-1', session_id: '  ' },
      { ...OBS, decision_id: 'd-2' },
    ])
    const exported = await call('GET', '/v1/users/alice/export')

    const run = await runRecipe(app, exported.body)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    const blank = [{ path: 'session_id', message: expect.any(String) }]
    expect(run.refused).toEqual([
      { route: 'POST /v1/sessions', status: 400, curl: 0, error: expect.objectContaining({ issues: blank }), sent: expect.objectContaining({ user: 'alice', session_id: '' }) },
      { route: 'POST /v1/observations', status: 400, curl: 0, error: expect.objectContaining({ issues: blank }), sent: expect.objectContaining({ decision_id: 'd-1', session_id: '' }) },
    ])
    const said = run.stderr.split('\n').filter((l) => l !== '')
    expect(said).toHaveLength(3)
    expect(said[0]).toMatch(/^not taken: POST \/v1\/sessions 400 invalid request: session_id; session_id: .+ \{"user":"alice","session_id":"",/)
    expect(said[1]).toMatch(/^not taken: POST \/v1\/observations 400 invalid request: session_id; session_id: .+ \{"decision_id":"d-1",/)
    expect(said[2]).toBe('2 lines not taken, kept with the answer to each in alice.refused.ndjson; alice.ndjson has everything')
    expect(run.files).toContain('alice.ndjson')
    // The line taken is stored.
    const lines = (await call('GET', '/v1/users/alice/export')).body.split('\n').filter((l: string) => l !== '').map((l: string) => JSON.parse(l))
    expect(lines.filter((l: { type: string }) => l.type === 'observation').map((l: { data: { decision_id: string } }) => l.data.decision_id)).toEqual(['d-2'])
  })

  it('stops before exporting or forgetting anything when a file it writes is there already, an earlier run\'s export perhaps', async () => {
    const { app, call, memory } = await createTestApp()
    await memory.observe([{ user: 'alice', question: 'Which DB?', all_options: ['pg', 'mysql'], user_choice: 'pg', decision_id: 'd-1', source: 'user' }])
    for (const file of ['alice.ndjson', 'alice.refused.ndjson']) {
      const run = await runRecipe(app, 'not what the earlier run exported\n', { there: [file] })
      expect(run.code, file).toBe(1)
      expect(run.stderr, file).toBe(`${file} is here already (from an earlier run?): move it away first, it may be all that is left of alice\n`)
      expect(run.atForget, file).toEqual([])
      expect((await call('GET', '/v1/users/alice/preferences')).body.points, file).toHaveLength(1)
    }
  })

  it('sends a line longer than one argument of a command may be (128 KiB on Linux), within the body limit, and the lines after it', async () => {
    const { app, call, memory } = await createTestApp()
    // The limits allow it: 50 labels of 500 characters (3 bytes each in UTF-8), 40 of them chosen,
    // 32 context values of 500. Passed as an argument (`curl -d "$line"`), exec refused it: the
    // recipe stopped there, after the forget, with the lines after it neither sent nor kept.
    const labels = Array.from({ length: LIMITS.options }, (_, i) => `${String(i).padStart(2, '0')}${'漢'.repeat(LIMITS.labelLength - 2)}`)
    const context = Object.fromEntries(Array.from({ length: LIMITS.contextKeys }, (_, i) => [`k${i}`, '字'.repeat(LIMITS.contextValueLength)]))
    await memory.startSession({ user: 'alice', session_id: 's-2' })
    await memory.setPersonalization({ user: 'alice', session_id: 's-2', enabled: false })
    await memory.observe([
      { user: 'alice', decision_id: 'd-big', question: 'Which big?', all_options: labels, multi_select: true, user_choice: labels.slice(0, 40), context, source: 'user' },
      { user: 'alice', decision_id: 'd-z', question: 'Zeta which?', all_options: ['a', 'b'], user_choice: 'b', source: 'user' },
    ])
    const exported = await call('GET', '/v1/users/alice/export')
    const big = (exported.body as string).split('\n').find((l) => l.includes('"d-big"')) as string
    expect(Buffer.byteLength(big)).toBeGreaterThan(128 * 1024)

    const run = await runRecipe(app, exported.body)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe("sent back alice's export, each line taken: sessions 1, observations 2, sessions turned off 1\n")
    expect(run.toggled).toEqual(['s-2'])
    const lines = (await call('GET', '/v1/users/alice/export')).body.split('\n').filter((l: string) => l !== '').map((l: string) => JSON.parse(l))
    const stored = lines.filter((l: { type: string }) => l.type === 'observation').map((l: { data: { decision_id: string; chosen: string[] } }) => l.data)
    expect(stored.map((o: { decision_id: string }) => o.decision_id).sort()).toEqual(['d-big', 'd-z'])
    expect(stored.find((o: { decision_id: string }) => o.decision_id === 'd-big').chosen).toHaveLength(40)
  })

  it('turns off again a session whose id starts with "-", which the command reads as a flag after --session', async () => {
    const { app, call, memory, store } = await createTestApp()
    for (const session_id of ['-s1', 's-2']) {
      await memory.startSession({ user: 'alice', session_id })
      await memory.setPersonalization({ user: 'alice', session_id, enabled: false })
    }
    const exported = await call('GET', '/v1/users/alice/export')

    const run = await runRecipe(app, exported.body)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.toggled.sort()).toEqual(['-s1', 's-2'])
    for (const session_id of ['-s1', 's-2']) expect((await store.getSession('alice', session_id))?.personalization, session_id).toBe(false)
  })

  it('reports a line the service gave no answer to, and a session it could not turn off, the others sent', async () => {
    const { app, call, memory } = await createTestApp()
    for (const session_id of ['s-fails', 's-2']) {
      await memory.startSession({ user: 'alice', session_id })
      await memory.setPersonalization({ user: 'alice', session_id, enabled: false })
    }
    await memory.observe([{ user: 'alice', question: 'Which DB?', all_options: ['pg', 'mysql'], user_choice: 'pg', decision_id: 'd-1', source: 'user' }])
    const exported = await call('GET', '/v1/users/alice/export')

    // The service stops answering POST /v1/sessions: curl exits 52, with no status.
    const run = await runRecipe(app, exported.body, { cut: (request) => request.url === '/v1/sessions' })
    expect(run.code).toBe(1)
    expect(run.refused).toEqual([
      { route: 'POST /v1/sessions', status: 0, curl: 52, answer: '', sent: expect.objectContaining({ session_id: 's-2' }) },
      { route: 'POST /v1/sessions', status: 0, curl: 52, answer: '', sent: expect.objectContaining({ session_id: 's-fails' }) },
      { route: 'toggle --off', status: 2, answer: 'said above', sent: { session_id: 's-fails' } },
    ])
    const said = run.stderr.split('\n').filter((l) => l.startsWith('not taken') || / lines not taken/.test(l))
    expect(said).toEqual([
      expect.stringMatching(/^not taken: POST \/v1\/sessions 0 no answer \(curl exit 52\) \{"user":"alice","session_id":"s-2",/),
      expect.stringMatching(/^not taken: POST \/v1\/sessions 0 no answer \(curl exit 52\) \{"user":"alice","session_id":"s-fails",/),
      'not taken: toggle --off 2 said above {"session_id":"s-fails"}',
      '3 lines not taken, kept with the answer to each in alice.refused.ndjson; alice.ndjson has everything',
    ])
    expect(run.stderr).toContain('decision-memory toggle: it failed')
    expect(run.toggled).toEqual(['s-2'])
    const lines = (await call('GET', '/v1/users/alice/export')).body.split('\n').filter((l: string) => l !== '').map((l: string) => JSON.parse(l))
    expect(lines.filter((l: { type: string }) => l.type === 'observation').map((l: { data: { decision_id: string } }) => l.data.decision_id)).toEqual(['d-1'])
  })
})
