import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, expect, it } from 'vitest'
import { briefPointWhy } from '../src/decisions/point-why-brief'
import { BIN, cleanEnv, closedPort, DAY, startService, type RunningService } from './support/processes'
import { tempDir } from './support/temp-dir'

/*
 * R-SVC-6 with the real processes, a handful of cases of each tool (the in-process property test,
 * src/integrations/mcp-differential.property.test.ts, draws many more): `decision-memory mcp`
 * through a running service, and with `--data` on a store it opens itself, each fed what one more
 * service is sent over HTTP, must tell the client what that service's routes tell it.
 */

const services: RunningService[] = []
const clients: Client[] = []
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all(services.map((s) => s.stop()))
})

async function connect(env: Record<string, string>, args: string[]) {
  // Started in its home folder, as clients other than Claude Code start it: no project by default,
  // as the routes are sent none (a folder kept out of git would be the tools' project).
  const home = tempDir('dm-mcpdiff-cwd-')
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], env: cleanEnv({ ...env, HOME: home }) as Record<string, string>, stderr: 'pipe', cwd: home })
  const client = new Client({ name: 'decision-memory-differential', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

async function http(url: string, method: string, path: string, body?: unknown) {
  const r = await fetch(url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await r.text()
  return { status: r.status, body: text === '' ? null : JSON.parse(text) }
}

const made = { decision: 'we do this', rationale: 'because', status: 'accepted' }
const DECISIONS: Array<[string, string, unknown]> = [
  ['POST', '/v1/decisions', { ...made, key: 'D-001', title: 'Use pg', enforce: 'required', scope: { points: ['db'] }, constraints: [{ kind: 'must', option: 'pg' }] }],
  ['POST', '/v1/decisions', { ...made, key: 'D-003', title: 'No force push', enforce: 'required', constraints: [{ kind: 'must_not', pattern: 'git push --force' }] }],
  ['POST', '/v1/decisions', { ...made, key: 'D-005', title: 'No force push, ever', enforce: 'required', status: 'proposed', constraints: [{ kind: 'must_not', pattern: 'push.*(--force|-f)' }] }],
  ['POST', '/v1/decisions/D-003/supersede', { by: 'D-005', reason: 'stronger' }],
]

/** What a client is told: the body, or the error's code, message and each field at fault, in the words of the route. */
function seen(status: number, body: any) {
  if (status < 400) return { ok: true, body }
  return { code: body.error.code, issues: (body.error.issues ?? []).map((i: any) => `${i.path}: ${i.message}`).sort(), message: String(body.error.message) }
}
/** The same of a tool's answer, in the words README says the tools use for the route's. */
function fromTool(a: any) {
  const text = a.content[0].text as string
  if (a.isError !== true) return { ok: true, body: JSON.parse(text) }
  const [first = '', ...lines] = text.split('\n')
  const code = first.split(':')[0]!
  return { code, issues: lines.map((l) => l.replace(/^- /, '')).sort(), message: first.slice(code.length + 2).replace(/^invalid arguments: /, 'invalid request: ').replace(/^the arguments are over (\d+ KB), .*$/, 'the body is over $1') }
}
/** Observation ids, random in each store, by where they first stand. */
function norm(v: unknown, started: string, asOf: string): unknown {
  const ids = new Map<string, string>()
  const walk = (x: unknown): unknown => {
    // The decisions were made in each store at its own moment, a few ms apart: said as made then.
    if (typeof x === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(x) && x >= started && x < asOf) return 'MADE IN THE TEST'
    if (typeof x === 'string') return x.replace(/obs-[A-Za-z0-9]+-[0-9a-f]+/g, (id) => ids.get(id) ?? (ids.set(id, `ID${ids.size}`), `ID${ids.size - 1}`))
    if (Array.isArray(x)) return x.map(walk)
    if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]))
    return x
  }
  return walk(v)
}

it('answer what the routes answer, with --data and through the service (R-SVC-6)', async () => {
  const started = new Date().toISOString()
  const ref = await startService(tempDir('dm-mcpdiff-ref-'))
  const viaSvc = await startService(tempDir('dm-mcpdiff-svc-'))
  const storeDir = tempDir('dm-mcpdiff-store-')
  const seed = await startService(storeDir)
  services.push(ref, viaSvc, seed)
  for (const s of [ref, viaSvc, seed]) for (const [m, p, b] of DECISIONS) expect((await http(s.url, m, p, b)).status).toBeLessThan(300)
  await seed.stop()
  const svc = await connect({ DECISION_MEMORY_URL: viaSvc.url }, [])
  const local = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }, ['--data', storeDir])
  // Every read as of a moment after the decisions were made, and now or before when it is asked.
  const T = new Date().toISOString()
  const Q = { question: 'Which database?', all_options: ['pg', 'mysql', 'Cafe\u0301'] }
  const R = { question: 'Which tier?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L (Recommended)'] }
  const obs = (o: any, i: number) => ({ timestamp: new Date(Date.parse(started) - (10 - i) * DAY).toISOString(), ...o })
  const ops: Array<[string, any, [string, string, unknown?]]> = []
  const writes = [
    { ...R, user_choice: 'Tier L', session_id: 's1', user: 'alice', context: { task: 'billing', __x: 1 } },
    { ...R, user_choice: 'Tier L', session_id: 's2', user: 'alice', decision_id: 'same' },
    { ...R, user_choice: 'Tier L', session_id: 's2', user: 'alice', decision_id: 'same' },
    { ...R, user_choice: 'Tier M', session_id: 's3', user: 'alice', project: 'api' },
    { ...R, user_choice: 'Tier L (Recommended)', session_id: 's4', user: 'alice' },
    { ...Q, user_choice: 'Café', user: 'jose\u0301', session_id: 's1' },
    { question: 'Which checks?', all_options: ['lint', 'test', 'types'], user_choice: 'lint, test', multiSelect: true, user: 'alice' },
    { question: 'Which checks?', all_options: ['lint', 'test', 'types'], user_choice: ['lint', 'types'], multi_select: true, user: 'alice' },
    { ...R, user_choice: 'Tier X', user: '!bad' },
    { ...R, user_choice: { label: 'Tier L' }, user: 'alice' },
  ]
  writes.forEach((w, i) => ops.push(['record_choice', obs(w, i), ['POST', '/v1/observations', obs(w, i)]]))
  for (const args of [
    { ...R, user: 'alice', as_of: T },
    { ...R, user: 'alice', project: 'api', session_id: 's9', as_of: T },
    { ...Q, user: 'jos\u00e9', as_of: T },
    { question: 'Which checks?', all_options: ['lint', 'test', 'types'], user: 'alice', as_of: T },
    { ...R, user: 'alice', static_default: 'Tier Z', as_of: T },
  ]) ops.push(['recommend', args, ['POST', '/v1/recommendations', args]])
  const plan = { questions: [{ question: R.question, header: 'Tier', options: R.all_options.map((label) => ({ label })) }, { question: 'Name?', kind: 'text' }, { question: Q.question, options: Q.all_options.map((label) => ({ label })), multiSelect: false }], user: 'alice', as_of: T }
  ops.push(['plan_questions', plan, ['POST', '/v1/plan', plan]])
  ops.push(['plan_questions', { ...plan, questions: [] }, ['POST', '/v1/plan', { ...plan, questions: [] }]])
  for (const args of [{ action: 'git push --force origin main', as_of: T }, { choice: 'mysql', point: 'db', as_of: T }, { choice: 'pg', as_of: T }, { action: ' ' }]) ops.push(['check_decision', args, ['POST', '/v1/decisions/check', args]])
  ops.push(['why', { key: 'D-003', as_of: T }, ['GET', `/v1/decisions/D-003/why?as_of=${encodeURIComponent(T)}`]])
  ops.push(['why', { key: 'D-404' }, ['GET', '/v1/decisions/D-404/why']])
  ops.push(['why', { key: 'D 1' }, ['GET', '/v1/decisions/D%201/why']])
  const recPoint = (await http(ref.url, 'POST', '/v1/recommendations', { ...R, user: 'alice', as_of: T })).body.point
  ops.push(['why', { point: recPoint, user: 'alice', as_of: T, context: { task: 'billing' } }, ['GET', `/v1/why?${new URLSearchParams({ point: recPoint, user: 'alice', as_of: T, task: 'billing' })}`]])
  ops.push(['why', { point: 'nowhere', as_of: T }, ['GET', `/v1/why?point=nowhere&as_of=${encodeURIComponent(T)}`]])
  ops.push(['why', { point: '!x' }, ['GET', `/v1/why?point=!x`]])
  // Within every field's limit, over the service's body limit: refused alike, nothing stored.
  const big = { question: 'Big?', all_options: Array.from({ length: 50 }, (_, i) => ({ label: `option ${i}`, description: '😀'.repeat(2000) })), user_choice: 'option 1' }
  ops.push(['record_choice', big, ['POST', '/v1/observations', big]])
  ops.push(['recommend', { ...big, user_choice: undefined, as_of: T }, ['POST', '/v1/recommendations', { ...big, user_choice: undefined, as_of: T }]])
  const found: string[] = []
  for (const [tool, args, [m, p, b]] of ops) {
    const r = await http(ref.url, m, p, b)
    expect(r.status, `${tool} ${JSON.stringify(args)}`).toBeLessThan(500)
    // A point's why is given in brief (README, MCP `why`), its left_out ending in the command each
    // server names (its own store, URL and flags): checked to be one, then compared as the same word.
    const point = tool === 'why' && 'point' in args && r.status < 400
    const want = norm(seen(r.status, point ? briefPointWhy(r.body, { commandLine: () => 'COMMAND' }) : r.body), started, T)
    for (const [name, client] of [['service', svc], ['store', local]] as const) {
      let told = fromTool(await client.callTool({ name: tool, arguments: args }))
      if (point && 'body' in told && typeof told.body?.left_out === 'string') {
        expect(told.body.left_out).toMatch(/, or DECISION_MEMORY_URL=\S+ .*\bwhy --point /)
        told = { ...told, body: { ...told.body, left_out: told.body.left_out.replace(/, or .*$/, ', or COMMAND') } }
      }
      const got = norm(told, started, T)
      if (JSON.stringify(got) !== JSON.stringify(want)) found.push(`${name} ${tool} ${JSON.stringify(args).slice(0, 200)}\n want ${JSON.stringify(want).slice(0, 1500)}\n got  ${JSON.stringify(got).slice(0, 1500)}`)
    }
  }
    expect(found).toEqual([])
}, 60_000)
