import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { closeSync, existsSync, openSync } from 'node:fs'
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { Level } from 'level'
import { CHECKOUT_DATA_DIR } from '../src/config/bin-path'
import { REQUIRED_TIER_L } from './support/decision-record'
import { BIN, cleanEnv, closedPort, runCli, startService, type RunningService } from './support/processes'
import { tempDir } from './support/temp-dir'

const services: RunningService[] = []
const clients: Client[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await Promise.all(services.splice(0).map((s) => s.stop()))
})

async function connect(env: Record<string, string>, args: string[] = [], cwd?: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
    ...(cwd === undefined ? {} : { cwd }),
  })
  const client = new Client({ name: 'decision-memory-test', version: '1.0.0' })
  await client.connect(transport)
  clients.push(client)
  return client
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const [first] = result.content as Array<{ type: string; text: string }>
  return first?.text ?? ''
}

async function recommendOverHttp(url: string, body: unknown) {
  const response = await fetch(`${url}/v1/recommendations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await response.json()) as { observations: number; recommended: string; evidence: string[] }
}

const TIER = {
  question: 'Which complexity tier should this SPEC use?',
  header: 'Tier',
  all_options: ['Tier S', 'Tier M', 'Tier L'],
}

describe('decision-memory mcp (R-SVC-6)', () => {
  it('lists its tools, records a choice the HTTP API then sees, and recommends', async () => {
    const data = tempDir('dm-mcp-')
    const service = await startService(data)
    services.push(service)
    const client = await connect({ DECISION_MEMORY_URL: service.url })

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['check_decision', 'plan_questions', 'recommend', 'record_choice', 'why'])
    const record = tools.find((t) => t.name === 'record_choice')
    expect(record?.inputSchema.required).toEqual(expect.arrayContaining(['question', 'user_choice', 'all_options']))

    for (let i = 0; i < 6; i++) {
      const recorded = await client.callTool({
        name: 'record_choice',
        arguments: { ...TIER, user: 'alice', user_choice: 'Tier L', decision_id: `mcp-${i}` },
      })
      expect(recorded.isError).toBeFalsy()
    }
    // The same decision_id again counts once.
    const again = await client.callTool({
      name: 'record_choice',
      arguments: { ...TIER, user: 'alice', user_choice: 'Tier L', decision_id: 'mcp-0' },
    })
    expect(JSON.parse(textOf(again)).duplicates).toEqual(['mcp-0'])

    const seen = await recommendOverHttp(service.url, { ...TIER, user: 'alice' })
    expect(seen.observations).toBe(6)
    expect(seen.recommended).toBe('Tier L')

    const recommended = JSON.parse(textOf(await client.callTool({ name: 'recommend', arguments: { ...TIER, user: 'alice' } })))
    expect(recommended.recommended).toBe('Tier L')
    expect(recommended.options[0].label).toBe('Tier L (Recommended)')

    const why = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { ...TIER, user: 'alice' } })))
    expect(why.evidence).toEqual(seen.evidence)
    expect(why.precondition).toBe(recommended.precondition)
    expect(why.point_why.observations.map((o: { id: string }) => o.id).sort()).toEqual([...seen.evidence].sort())

    const plan = JSON.parse(
      textOf(
        await client.callTool({
          name: 'plan_questions',
          arguments: {
            user: 'alice',
            questions: [{ question: TIER.question, header: 'Tier', options: TIER.all_options.map((label) => ({ label, description: label })) }],
          },
        }),
      ),
    )
    expect(plan.ask_user_question_input.questions[0].options[0].label).toBe('Tier L (Recommended)')
  })

  it('checks an action against a required decision, and why cites the decision bound to a point', async () => {
    const data = tempDir('dm-mcp-')
    const service = await startService(data)
    services.push(service)
    const decisions = [
      {
        key: 'D-021',
        title: 'Never force push',
        decision: 'Agents never run git push --force.',
        rationale: 'Force push has lost us work twice.',
        enforce: 'required',
        status: 'accepted',
        constraints: [{ kind: 'must_not', pattern: 'git push --force' }],
      },
      { key: 'D-022', ...REQUIRED_TIER_L },
    ]
    for (const body of decisions) {
      const created = await fetch(`${service.url}/v1/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(created.status).toBe(201)
    }
    const client = await connect({ DECISION_MEMORY_URL: service.url })
    const blocked = JSON.parse(textOf(await client.callTool({ name: 'check_decision', arguments: { action: 'git push --force origin main' } })))
    expect(blocked.allowed).toBe(false)
    expect(JSON.stringify(blocked.blocked_by)).toContain('D-021')
    const allowed = JSON.parse(textOf(await client.callTool({ name: 'check_decision', arguments: { action: 'git push origin main' } })))
    expect(allowed.allowed).toBe(true)
    // As of an hour ago, before D-021 was made: an audit of a check made then.
    const earlier = new Date(Date.now() - 3600_000).toISOString()
    const then = JSON.parse(textOf(await client.callTool({ name: 'check_decision', arguments: { action: 'git push --force origin main', as_of: earlier } })))
    expect(then).toMatchObject({ allowed: true, checked: [] })
    // A choice naming D-022's Tier L in other words, as "Tier S, M or L?" offers it: allowed; M is not Tier L.
    const choice = async (c: string) => JSON.parse(textOf(await client.callTool({ name: 'check_decision', arguments: { choice: c, point: 'complexity-tier' } })))
    expect(await choice('L')).toMatchObject({ allowed: true, blocked_by: [] })
    expect(await choice('M')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-022' }] })
    // With the options offered, read among them as the recommendation reads them; refused as its are, named.
    const among = async (c: string, all_options: unknown[]) => client.callTool({ name: 'check_decision', arguments: { choice: c, point: 'complexity-tier', all_options } })
    expect(JSON.parse(textOf(await among('L', ['S', 'M', 'L'])))).toMatchObject({ allowed: true, blocked_by: [] })
    expect(JSON.parse(textOf(await among('M', ['S', { label: 'M', description: 'typical' }, 'L'])))).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-022' }] })
    const twice = await among('L', ['S', 'L', 'L (Recommended)'])
    expect(twice.isError).toBe(true)
    expect(textOf(twice)).toMatch(/^duplicate_option: [\s\S]*all_options\.2/)
    const missing = await client.callTool({ name: 'check_decision', arguments: {} })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toContain('action')

    const pulses = async () => ((await (await fetch(`${service.url}/v1/decisions/pulses`)).json()) as { decisions: unknown[] }).decisions
    const before = await pulses()
    const why = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { ...TIER, user: 'alice', session_id: 'why-1' } })))
    // An explanation reads: it started no session (R-SES-1, whose count is the user's expertise) and counted no pulse.
    expect(await pulses()).toEqual(before)
    const session = await fetch(`${service.url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'alice', session_id: 'why-1' }),
    })
    expect(session.status).toBe(201)
    expect(why.state).toBe('enforced')
    expect(why.recommended).toBe('Tier L')
    expect(why.point_why.decisions.map((d: { key: string }) => d.key)).toEqual(['D-022'])
    // The decision check_decision named, by its key: its chain and rationale, as GET /v1/decisions/{key}/why has them.
    const decision = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { key: 'D-021' } })))
    // Each read as of the moment it was made, which its as_of says: the rest is the same answer.
    const { as_of: toolAsOf, ...fromTool } = decision
    const { as_of: routeAsOf, ...fromRoute } = (await (await fetch(`${service.url}/v1/decisions/D-021/why`)).json()) as { as_of: string }
    expect(fromTool).toEqual(fromRoute)
    expect(Date.parse(toolAsOf)).toBeLessThanOrEqual(Date.parse(routeAsOf))
    expect(decision).toMatchObject({ key: 'D-021', current: 'D-021', rationale: 'Force push has lost us work twice.' })
    const unknown = await client.callTool({ name: 'why', arguments: { key: 'D-999' } })
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toContain('D-999')
    // A point alone: what GET /v1/why says of it.
    const point = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { point: why.point, user: 'alice' } })))
    expect(point.decisions.map((d: { key: string }) => d.key)).toEqual(['D-022'])
  })

  it('answers why of a file as decision-memory why FILE run in the folder it was started in: records imported from it, decisions scoped to its path', async () => {
    const data = tempDir('dm-mcp-')
    const service = await startService(data)
    services.push(service)
    const env = { DECISION_MEMORY_URL: service.url }
    // Claude Code starts the server in the agent's folder, in the repository.
    const repo = await realpath(tempDir('dm-mcp-repo-'))
    await mkdir(join(repo, '.git'))
    await mkdir(join(repo, 'doc', 'adr'), { recursive: true })
    await mkdir(join(repo, 'src'))
    await writeFile(join(repo, 'src', 'billing.ts'), 'export {}\n')
    const adr = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nReasons for ${title}.\n\n## Decision\n\n${title}.\n`
    await writeFile(join(repo, 'doc', 'adr', '0001-use-sqlite.md'), adr(1, 'Use SQLite', 'Superseded by [2. Use Postgres](0002-use-postgres.md)'))
    await writeFile(join(repo, 'doc', 'adr', '0002-use-postgres.md'), adr(2, 'Use Postgres', 'Accepted'))
    const imported = await runCli(['import-adr', 'doc/adr'], { env, cwd: repo })
    expect(imported.code, imported.stderr).toBe(0)
    const scoped = { key: 'D-100', title: 'Cents in billing', decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted', scope: { path: 'src' } }
    expect((await fetch(`${service.url}/v1/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scoped) })).status).toBe(201)
    const client = await connect(env, [], repo)
    /** Each decision's key and chain, as the tool answers them and as `why FILE --json` prints them (one line each). */
    const chains = (whys: Array<{ key: string; chain: unknown }>) => whys.map((why) => [why.key, why.chain])
    for (const file of ['doc/adr/0001-use-sqlite.md', 'src/billing.ts']) {
      const answer = await client.callTool({ name: 'why', arguments: { file } })
      expect(answer.isError, textOf(answer)).toBeFalsy()
      const body = JSON.parse(textOf(answer)) as { file: string; path: string; decisions: Array<{ key: string; from: string; why: { key: string; chain: unknown } }> }
      expect(body).toMatchObject({ file, path: file })
      const cli = await runCli(['why', file, '--json'], { env, cwd: repo })
      expect(cli.code, cli.stderr).toBe(0)
      expect(chains(body.decisions.map((d) => d.why))).toEqual(chains(cli.stdout.trim().split('\n').map((line) => JSON.parse(line))))
      expect(body.decisions.map((d) => [d.key, d.from]), file).toEqual(file === 'src/billing.ts' ? [['D-100', 'scope']] : [['ADR-0001', 'record']])
    }
    // A record deleted since (git rm): the store still holds its decision.
    await rm(join(repo, 'doc', 'adr', '0002-use-postgres.md'))
    const gone = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { file: 'doc/adr/0002-use-postgres.md' } })))
    expect(gone.decisions.map((d: { key: string }) => d.key)).toEqual(['ADR-0002'])
    // A name nothing is behind: the tool error naming the file, where the command says the same and exits 1.
    const none = await client.callTool({ name: 'why', arguments: { file: 'lib/nothing.ts' } })
    expect(none.isError).toBe(true)
    expect(textOf(none)).toBe(
      `decision_not_found: no decision was imported from lib/nothing.ts or is scoped to its path, and there is no such file in ${repo}, the folder the server was started in\n` +
        '- file: no decision was imported from it or is scoped to its path',
    )
    const both = await client.callTool({ name: 'why', arguments: { key: 'D-100', file: 'src/billing.ts' } })
    expect(both.isError).toBe(true)
    expect(textOf(both).split('\n').slice(1).map((line) => line.split(':')[0])).toEqual(['- key', '- file'])
  })

  it('answers bad input with an error naming the field', async () => {
    const data = tempDir('dm-mcp-')
    const service = await startService(data)
    services.push(service)
    const client = await connect({ DECISION_MEMORY_URL: service.url })
    const schemaError = await client.callTool({ name: 'recommend', arguments: { question: 'Q?' } })
    expect(schemaError.isError).toBe(true)
    expect(textOf(schemaError)).toContain('all_options')
    const serviceError = await client.callTool({
      name: 'recommend',
      arguments: { question: 'Q?', all_options: ['A', 'A (Recommended)'] },
    })
    expect(serviceError.isError).toBe(true)
    expect(textOf(serviceError)).toMatch(/^duplicate_option: .*\n- all_options\.1: /)
  })

  it('refuses why of a question for a user, project, session or point spaced at its ends, naming it, through the service and on its own store alike', async () => {
    const data = tempDir('dm-mcp-spaced-')
    const service = await startService(data)
    services.push(service)
    const closed = `http://127.0.0.1:${await closedPort()}`
    const said: string[][] = []
    for (const client of [await connect({ DECISION_MEMORY_URL: service.url }), await connect({ DECISION_MEMORY_URL: closed }, ['--data', tempDir('dm-mcp-spaced-local-')])]) {
      const lines: string[] = []
      const spaced: Array<[string, string]> = [['user', ' CaseU '], ['session_id', 's-1 '], ['project', ' acme'], ['point', 'tier\u00a0']]
      for (const [field, value] of spaced) {
        const answer = await client.callTool({ name: 'why', arguments: { ...TIER, [field]: value } })
        expect(answer.isError, `${field} ${JSON.stringify(value)}`).toBe(true)
        expect(textOf(answer)).toMatch(new RegExp(`^invalid_request: [^\\n]*\\n- ${field}: no spaces at its ends: `))
        lines.push(textOf(answer))
      }
      said.push(lines)
    }
    // One answer whichever memory the server reaches.
    expect(said[1]).toEqual(said[0])
    // Nothing was stored, nor a session started, for the spaced user.
    expect((await (await fetch(`${service.url}/v1/users/${encodeURIComponent(' CaseU ')}/export`)).text()).split('\n').filter((l) => l.includes('"type":"session"'))).toEqual([])
  })

  it('says which variable mends a 401 of a service run with --auth: the token is the server\'s setting, not the agent\'s input', async () => {
    // A stand-in for a service run with --auth, reached without DECISION_MEMORY_TOKEN.
    const guarded = createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { code: 'unauthorized', message: 'a bearer token is required' } }))
    })
    await new Promise<void>((listening) => guarded.listen(0, '127.0.0.1', listening))
    try {
      const client = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${(guarded.address() as AddressInfo).port}` })
      const refused = await client.callTool({ name: 'check_decision', arguments: { action: 'ls' } })
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toBe("unauthorized: a bearer token is required; set DECISION_MEMORY_TOKEN to a token of the service's tokens file")
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()))
      await new Promise((closed) => guarded.close(closed))
    }
  })

  it('says what mends a 403 for a user the token may not act for: a `user`, DECISION_MEMORY_USER or another token', async () => {
    // A stand-in for a service run with --auth whose token is alice's, called for "default".
    const guarded = createServer((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { code: 'forbidden', message: 'token "alice-laptop" may not act for user "default"', issues: [{ path: 'user', message: 'not a user this token may act for' }] } }))
    })
    await new Promise<void>((listening) => guarded.listen(0, '127.0.0.1', listening))
    try {
      const client = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${(guarded.address() as AddressInfo).port}` })
      const refused = await client.callTool({ name: 'recommend', arguments: TIER })
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toContain(
        "forbidden: token \"alice-laptop\" may not act for user \"default\"; give `user`, a user this token may act for (DECISION_MEMORY_USER in the MCP server's environment is the default), or set DECISION_MEMORY_TOKEN to a token of that user",
      )
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()))
      await new Promise((closed) => guarded.close(closed))
    }
  })

  it('opens the store itself when no service runs, and the service sees it later', async () => {
    const data = tempDir('dm-mcp-')
    const client = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' }, [
      '--data',
      data,
    ])
    const recorded = await client.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: 'local-1' } })
    expect(recorded.isError).toBeFalsy()
    // Why, of a point and of a decision, on the store it opened: the point is known now (one observation, too few to learn from).
    const point = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { point: 'complexity-tier' } })))
    expect(point).toMatchObject({ user: 'bob', point: 'complexity-tier', recommendation: { state: 'static-default', recommended: 'Tier M' } })
    const noDecision = await client.callTool({ name: 'why', arguments: { key: 'D-001' } })
    expect(noDecision.isError).toBe(true)
    expect(textOf(noDecision)).toMatch(/^decision_not_found: .*D-001/)
    await client.close()
    clients.splice(0)
    const service = await startService(data)
    services.push(service)
    expect((await recommendOverHttp(service.url, { ...TIER, user: 'bob' })).observations).toBe(1)
    // A check on the store it opens reads a choice as the service does: S is the Tier S a
    // required decision forbids; Tier is neither Tier S nor the policy's Tier M, and is let through.
    const noTierS = { ...REQUIRED_TIER_L, title: 'No Tier S', constraints: [{ kind: 'must_not', option: 'Tier S' }] }
    const created = await fetch(`${service.url}/v1/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(noTierS) })
    expect(created.status).toBe(201)
    services.splice(services.indexOf(service), 1)
    await service.stop()
    const local = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' }, ['--data', data])
    const choice = async (c: string, extra: Record<string, unknown> = {}) =>
      JSON.parse(textOf(await local.callTool({ name: 'check_decision', arguments: { choice: c, point: 'complexity-tier', ...extra } })))
    expect(await choice('S')).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
    expect(await choice('Tier')).toMatchObject({ allowed: true, blocked_by: [] })
    // And among the options offered, as the service reads them: Tier, offered beside Tier S, is not it.
    expect(await choice('Tier', { all_options: ['Tier', 'Tier S'] })).toMatchObject({ allowed: true, blocked_by: [] })
    expect(await choice('tier s', { all_options: ['Tier', 'Tier S'] })).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-001' }] })
    const twice = await local.callTool({ name: 'check_decision', arguments: { choice: 'S', point: 'complexity-tier', all_options: ['S', 'S (Recommended)'] } })
    expect(twice.isError).toBe(true)
    expect(textOf(twice)).toMatch(/^duplicate_option: [\s\S]*all_options\.1/)
  })

  it("names, for a point's whole why, a command that reads the store it read, run in the agent's folder with none of its variables", async () => {
    // Claude Code starts the server with .mcp.json's `env`, which the agent's shell does not have,
    // in the agent's folder, where ./data is no store; with no --data, the server reads the store
    // of DECISION_MEMORY_DATA (else the checkout's), and the command must too.
    const data = tempDir('dm-mcp-whole-')
    const agentFolder = tempDir('dm-mcp-agent-')
    const client = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_DATA: data, DECISION_MEMORY_USER: 'bob' }, [], agentFolder)
    for (let i = 0; i < 12; i++) {
      const recorded = await client.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: `whole-${i}` } })
      expect(recorded.isError, textOf(recorded)).toBeFalsy()
    }
    const brief = JSON.parse(textOf(await client.callTool({ name: 'why', arguments: { point: 'complexity-tier' } })))
    expect(brief.observations_count).toBe(12)
    const command = /, or (.+)$/.exec(brief.left_out as string)?.[1] as string
    await client.close()
    clients.splice(0)
    const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn('sh', ['-c', command], { cwd: agentFolder, env: cleanEnv() })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.stderr.on('data', (chunk) => (stderr += chunk))
      child.on('close', (code) => done({ code, stdout, stderr }))
    })
    expect(ran.stderr).toBe('')
    expect(ran.code).toBe(0)
    const whole = JSON.parse(ran.stdout)
    expect(whole).toMatchObject({ user: 'bob', point: 'complexity-tier', as_of: brief.as_of })
    expect(whole.observations).toHaveLength(12)
    expect(existsSync(join(agentFolder, 'data'))).toBe(false)
  })

  it('records every choice when two servers with no service open one store by turns (two agent windows)', async () => {
    // A store not made yet: the servers' first calls make it, and take turns at it too.
    const data = join(tempDir('dm-mcp-two-'), 'data')
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' }
    const [first, second] = await Promise.all([connect(env, ['--data', data]), connect(env, ['--data', data])])
    // Each call opens the store and closes it: a call that found the other server's open failed,
    // and the choice it carried was lost.
    const calls = Array.from({ length: 8 }, (_, i) =>
      [first, second].map((client, c) =>
        client!.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: `two-${c}-${i}` } }),
      ),
    ).flat()
    const answers = await Promise.all(calls)
    expect(answers.filter((a) => a.isError).map(textOf)).toEqual([])
    await Promise.all(clients.splice(0).map((c) => c.close()))
    const service = await startService(data)
    services.push(service)
    expect((await recommendOverHttp(service.url, { ...TIER, user: 'bob' })).observations).toBe(16)
  })

  it('with --data, records in that store while a service runs on another, and refuses a store another service holds', async () => {
    const data = tempDir('dm-mcp-named-')
    const service = await startService(tempDir('dm-mcp-other-'))
    services.push(service)
    const client = await connect({ DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'bob' }, ['--data', data])
    const recorded = await client.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: 'named-1' } })
    expect(recorded.isError).toBeFalsy()
    // Not in the service's store.
    expect((await recommendOverHttp(service.url, { ...TIER, user: 'bob' })).observations).toBe(0)
    // Held by a service other than the one at the URL: a tool error, nothing recorded anywhere.
    const holder = await startService(data)
    services.push(holder)
    const refused = await client.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier L', decision_id: 'named-2' } })
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain(`the service at ${service.url} runs on another store`)
    expect((await recommendOverHttp(holder.url, { ...TIER, user: 'bob' })).observations).toBe(1)
    expect((await recommendOverHttp(service.url, { ...TIER, user: 'bob' })).observations).toBe(0)
  })

  it('makes no store in the folder it was started in (the agent\'s project) when no service runs and no --data is given', async () => {
    // Claude Code starts an MCP server in the project the agent works in: ./data there would hold
    // the user's choices in that repository, to be committed with it. The checkout's store is used.
    const project = tempDir('dm-mcp-project-')
    // The test holds the checkout's store itself (or a developer's service does), so the server
    // says where it looked without writing a thing into a store someone may be using; one the
    // test had to make is taken away again.
    const hadStore = existsSync(CHECKOUT_DATA_DIR)
    const held = new Level(CHECKOUT_DATA_DIR)
    await held.open().catch(() => undefined)
    try {
      const client = await connect({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }, [], project)
      const checked = (await client.callTool({ name: 'check_decision', arguments: { action: 'ls' } })) as { isError?: boolean; content: Array<{ text: string }> }
      expect(checked.isError).toBe(true)
      expect(checked.content[0]?.text).toContain(`the store in ${CHECKOUT_DATA_DIR} is in use by another process`)
      expect(existsSync(join(project, 'data'))).toBe(false)
      await client.close()
    } finally {
      await held.close()
      if (!hadStore) await rm(CHECKOUT_DATA_DIR, { recursive: true, force: true })
    }
  })

  it('records in the project the hooks record for the folder it was started in, in a git repository or not', async () => {
    // Claude Code starts the server in the agent's folder: the repository's root is the project, as the hook's,
    // and outside a repository the folder itself, as the hook sends its cwd there.
    const repo = await realpath(tempDir('dm-mcp-repo-'))
    await mkdir(join(repo, '.git'))
    await mkdir(join(repo, 'src'))
    const outside = await realpath(tempDir('dm-mcp-outside-'))
    const home = await realpath(tempDir('dm-mcp-home-'))
    const data = tempDir('dm-mcp-')
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob', HOME: home }
    const inRepo = await connect(env, ['--data', data], join(repo, 'src'))
    const inNone = await connect(env, ['--data', data], outside)
    const inHome = await connect(env, ['--data', data], home)
    // The agent reads which project it is in the tools' schema.
    const described = (client: typeof inNone) =>
      client.listTools().then((listed) => (listed.tools.find((t) => t.name === 'recommend')?.inputSchema.properties?.project as { description?: string }).description)
    expect(await described(inNone)).toContain(`Default: ${JSON.stringify(outside)}, the folder the server was started in, as the hooks record it.`)
    expect(await described(inRepo)).toContain(`Default: ${JSON.stringify(repo)}, the git repository the server was started in, as the hooks record it.`)
    expect(await described(inHome)).not.toContain('Default:')
    // HOME set empty (a unit file's `HOME=`, a wrapper) is no home folder: not the folder started in.
    const emptyHome = await connect({ ...env, HOME: '' }, ['--data', data], outside)
    expect(await described(emptyHome)).toContain(`Default: ${JSON.stringify(outside)}, the folder the server was started in, as the hooks record it.`)
    for (const [client, id] of [[inRepo, 'in-repo'], [inNone, 'in-none'], [inHome, 'in-home']] as const) {
      const recorded = await client.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: id } })
      expect(recorded.isError, textOf(recorded)).toBeFalsy()
    }
    const named = await inRepo.callTool({ name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: 'named', project: 'api' } })
    expect(named.isError, textOf(named)).toBeFalsy()
    await Promise.all(clients.splice(0).map((c) => c.close()))
    const exported = await runCli(['export', '--user', 'bob', '--data', data], { env })
    expect(exported.code, exported.stderr).toBe(0)
    const lines = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; data?: { decision_id: string; project: string | null } })
    const projects = Object.fromEntries(lines.filter((l) => l.type === 'observation').map((l) => [l.data?.decision_id, l.data?.project]))
    // In the home folder none (other clients start the server there, or in /); a project named wins.
    expect(projects).toEqual({ 'in-repo': repo, 'in-none': outside, 'in-home': null, named: 'api' })
  })

  it('exits 1, saying why on stderr, on a line over 10 MB, with stdin still open: no server left up that reads nothing', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }), stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // 'close', not 'exit': all of stderr read, as it is asserted on.
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    try {
      child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
      expect(JSON.parse((await lines.next()).value as string)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
      // Never ended, and stdin never closed: only the line's length can end the process.
      child.stdin.on('error', () => {})
      child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"${'x'.repeat(10 * 1024 * 1024)}`)
      expect(await exited).toBe(1)
      expect(stderr).toContain('decision-memory mcp: a line over 10485760 bytes: the connection is closed')
      expect(stderr).toContain('exiting')
    } finally {
      child.kill()
    }
  })

  it('exits 0 when the client closes stdin, as MCP\'s stdio shutdown has it, once the calls in flight are answered and stored', async () => {
    // The SDK's clients (and Claude Code on Windows) end a server by closing its stdin, and kill it only
    // if it stays up: a choice sent just before would be lost, or the kill reported as the server's failure.
    const data = tempDir('dm-mcp-eof-')
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: 'eof-1' } } },
    ]
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' }
    const served = await runCli(['mcp', '--data', data], { input: lines.map((line) => JSON.stringify(line) + '\n').join(''), env })
    expect(served.code).toBe(0)
    expect(served.stderr).toBe('')
    // stdout is the protocol's alone: one answer a line, to each request and nothing else.
    const answers = served.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean } })
    expect(answers.map((answer) => answer.id).sort()).toEqual([0, 1])
    expect(answers.find((answer) => answer.id === 1)?.result.isError).toBeFalsy()
    const exported = await runCli(['export', '--user', 'bob', '--data', data])
    expect(exported.stdout).toContain('"decision_id":"eof-1"')
  })

  it('exits 0, saying so in one line, when the client closes its stdout: the call in flight is still stored', async () => {
    // A client that reads no more has ended the session; a version before this exited 141 without a
    // word at the first answer it could not write, a choice being stored cut off.
    const data = tempDir('dm-mcp-epipe-')
    const env = cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' })
    const child = spawn(process.execPath, [BIN, 'mcp', '--data', data], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    child.stdout.destroy()
    child.stdin.on('error', () => {})
    // In one write: the ping is answered (EPIPE) while the choice is being stored.
    const record = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: 'epipe-1' } } }
    // And many answers behind it, each of which waited on a drain of its own that never came: past
    // ten, Node's MaxListenersExceededWarning followed the one line on stderr.
    const pings = Array.from({ length: 20 }, (_, i) => `{"jsonrpc":"2.0","id":${i + 2},"method":"ping"}\n`).join('')
    child.stdin.write(JSON.stringify(record) + '\n' + pings)
    expect(await exited).toBe(0)
    expect(stderr).toBe('decision-memory mcp: the client reads no more (its end of stdout is closed): exiting\n')
    expect((await runCli(['export', '--user', 'bob', '--data', data])).stdout).toContain('"decision_id":"epipe-1"')
  })

  it('exits 0 when the client closes stdout and stderr alike, as a client going away does: every call in flight is stored', async () => {
    // The line saying the client reads no more went to a stderr no one read either: its EPIPE, with
    // no listener, ended the server with 1 and a stack trace, the choices being stored cut off.
    const data = tempDir('dm-mcp-gone-')
    const env = cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' })
    const child = spawn(process.execPath, [BIN, 'mcp', '--data', data], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    child.stdout.destroy()
    child.stderr.destroy()
    child.stdin.on('error', () => {})
    const records = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: `gone-${i}` } } }))
    child.stdin.end(records.map((record) => JSON.stringify(record) + '\n').join(''))
    expect(await exited).toBe(0)
    const exported = (await runCli(['export', '--user', 'bob', '--data', data])).stdout
    expect(records.map((_, i) => exported.split(`"decision_id":"gone-${i}"`).length - 1)).toEqual([1, 1, 1, 1, 1])
  })

  it.runIf(existsSync('/dev/full'))('exits 1, saying why in one line, when its stdout cannot be written for another reason (a full disk)', async () => {
    const full = openSync('/dev/full', 'w')
    try {
      const env = cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` })
      const child = spawn(process.execPath, [BIN, 'mcp', '--data', tempDir('dm-mcp-enospc-')], { env, stdio: ['pipe', full, 'pipe'] })
      let stderr = ''
      // stdout a file descriptor, not a pipe: the child's stdin and stderr are still pipes.
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
      child.stdin?.on('error', () => {})
      child.stdin?.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
      expect(await exited).toBe(1)
      expect(stderr).toBe('decision-memory mcp: cannot write the output: ENOSPC\n')
    } finally {
      closeSync(full)
    }
  })

  it('answers and stores a last message the input ends without its newline (printf \'%s\' by hand), and says one cut off there', async () => {
    const data = tempDir('dm-mcp-eof-nl-')
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier M', decision_id: 'eof-nl-1' } } }
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'bob' }
    const served = await runCli(['mcp', '--data', data], { input: JSON.stringify(initialize) + '\n' + JSON.stringify(call), env })
    expect(served.code).toBe(0)
    expect(served.stderr).toBe('')
    const answers = served.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean } })
    expect(answers.map((answer) => answer.id).sort()).toEqual([0, 1])
    expect(answers.find((answer) => answer.id === 1)?.result.isError).toBeFalsy()
    expect((await runCli(['export', '--user', 'bob', '--data', data])).stdout).toContain('"decision_id":"eof-nl-1"')

    const cut = await runCli(['mcp', '--data', data], { input: JSON.stringify(initialize) + '\n' + JSON.stringify(call).slice(0, 60), env })
    expect(cut.code).toBe(0)
    const [, error] = cut.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: unknown; error?: { code: number; message: string } })
    expect(error).toMatchObject({ id: null, error: { code: -32700 } })
    expect(cut.stderr).toContain('decision-memory mcp: Parse error: the input ended inside a message')
  })

  it('ends as Claude Code ends it, by SIGINT with stdin left open: the call in flight is answered first, and it exits 0', async () => {
    // Claude Code 2.1.332 (test/fixtures/claude-code-2.1.332/mcp-*) sends SIGINT, then SIGTERM and
    // SIGKILL within half a second, and never closes stdin (but on Windows): a record_choice the
    // service is storing when the session ends is answered, not cut off by the signal's default.
    let reached!: () => void
    const storing = new Promise<void>((resolve) => (reached = resolve))
    let answer!: () => void
    const service = createServer((_request, response) => {
      answer = () => {
        response.writeHead(201, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ stored: [{ id: 'obs-1', point: 'complexity-tier', decision_id: 'sig-1' }], duplicates: [] }))
      }
      reached()
    })
    await new Promise<void>((listening) => service.listen(0, '127.0.0.1', listening))
    try {
      const env = cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`, DECISION_MEMORY_USER: 'bob' })
      const child = spawn(process.execPath, [BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
      let stdout = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])))
      const lines = [
        { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.332' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record_choice', arguments: { ...TIER, user_choice: 'Tier S', decision_id: 'sig-1' } } },
      ]
      child.stdin.write(lines.map((line) => JSON.stringify(line) + '\n').join(''))
      await storing
      child.kill('SIGINT')
      answer()
      expect(await exited).toEqual([0, null])
      const answers = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean; content: Array<{ text: string }> } })
      expect(answers.map((a) => a.id).sort()).toEqual([0, 1])
      expect(answers.find((a) => a.id === 1)?.result.content[0]?.text).toContain('"decision_id":"sig-1"')
      // With nothing in flight, either signal ends it at once, and with 0: no failure of the server's.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const idle = spawn(process.execPath, [BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
        const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => idle.once('exit', (code, s) => resolve([code, s])))
        const initialized = new Promise<void>((resolve) => idle.stdout.once('data', () => resolve()))
        idle.stdin.write(JSON.stringify(lines[0]) + '\n')
        await initialized
        idle.kill(signal)
        expect(await ended, signal).toEqual([0, null])
      }
    } finally {
      await new Promise((closed) => service.close(closed))
    }
  })

  it('answers a line that is not JSON, or not JSON-RPC, with the JSON-RPC error (id null when none can be read) and says so on stderr, then serves on', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }), stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    const next = async () => JSON.parse((await lines.next()).value as string)
    try {
      child.stdin.write('{not json\n')
      expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line that is not JSON' } })
      child.stdin.write('{"foo": 1}\n')
      // Left out, said missing; sent as another version, said so.
      const invalid = (said: string) => `Invalid Request: not a JSON-RPC 2.0 message (jsonrpc: ${said}: expected "2.0")`
      expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: invalid('missing') } })
      // A request whose id can be read is answered at that id, so that the client's call ends.
      child.stdin.write('{"jsonrpc": "1.0", "id": 5, "method": "ping"}\n')
      expect(await next()).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32600, message: invalid('Invalid input') } })
      // A batch (MCP 2025-03-26) is answered with one array.
      child.stdin.write('[{"jsonrpc":"2.0","id":8,"method":"ping"},{"jsonrpc":"2.0","id":"nine","method":"ping"}]\n')
      const batch = (await next()) as Array<{ id: unknown }>
      expect(batch.sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual([
        { jsonrpc: '2.0', id: 8, result: {} },
        { jsonrpc: '2.0', id: 'nine', result: {} },
      ])
      // And it still answers what is well formed.
      child.stdin.write('{"jsonrpc":"2.0","id":7,"method":"ping"}\n')
      expect(await next()).toEqual({ jsonrpc: '2.0', id: 7, result: {} })
      // Once initialize has agreed on 2025-06-18, which has no batches, a batch is refused at each request's id.
      child.stdin.write('{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n')
      expect(await next()).toMatchObject({ id: 10, result: { protocolVersion: '2025-06-18' } })
      child.stdin.write('[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","id":12,"method":"ping"}]\n')
      const refused = [await next(), await next()]
      expect(refused.map((answer) => [answer.id, answer.error?.code])).toEqual([
        [11, -32600],
        [12, -32600],
      ])
      expect(refused[0].error.message).toContain('MCP 2025-06-18')
      expect(stderr).toContain('decision-memory mcp: Parse error: a line that is not JSON')
      expect(stderr).toContain(`decision-memory mcp: ${invalid('missing')}`)
    } finally {
      child.stdin.end()
      await new Promise((done) => child.once('exit', done))
    }
  })
})
