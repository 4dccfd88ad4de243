import { mkdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPort, DAY, runCli, startService, storeTierHistory, type RunningService } from './support/processes'
import { tempDir } from './support/temp-dir'

const running: RunningService[] = []
const fakes: Server[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
  for (const server of fakes.splice(0)) server.close()
})

/** A service that answers every request with `body` as JSON, as one of an older version would. */
async function answering(body: (path: string) => unknown): Promise<string> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body(request.url ?? '')))
  })
  fakes.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

describe('decision-memory why --point', () => {
  it('explains the point for $DECISION_MEMORY_USER, whose choices the hook recorded', async () => {
    const service = await startService(join(tempDir('dm-why-'), 'data'))
    running.push(service)
    const observations = Array.from({ length: 6 }, (_, i) => ({
      decision_id: `why-${i}`,
      user: 'alice',
      question: 'Which complexity tier should this SPEC use?',
      all_options: ['Tier S', 'Tier M', 'Tier L'],
      user_choice: 'Tier L',
    }))
    const stored = await fetch(`${service.url}/v1/observations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(observations),
    })
    expect(stored.status).toBe(201)
    // Run in no project: the home folder, in no repository (the tests' own folder is one, whose project the command would read).
    const home = tempDir('dm-why-')
    const why = await runCli(['why', '--point', 'complexity-tier'], {
      env: { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice', HOME: home },
      cwd: home,
    })
    expect(why.stderr).toBe('')
    expect(why.code).toBe(0)
    expect(why.stdout).toMatch(/^point complexity-tier \(user alice\)/)
    expect(why.stdout).toContain('recommended: Tier L')
  })

  it('says, of a point nothing is known of, the command that lists the points there are, through the service or without one', async () => {
    const parent = tempDir('dm-why-')
    const data = join(parent, 'my data')
    const service = await startService(data)
    running.push(service)
    const home = tempDir('dm-why-')
    const through = await runCli(['why', '--point', 'tier', '--user', 'alice'], { env: { DECISION_MEMORY_URL: service.url, HOME: home }, cwd: home })
    expect(through.code).toBe(1)
    expect(through.stderr).toBe(
      'decision-memory why: nothing is known of point tier for user alice; `decision-memory preferences --user alice` lists the points learned about alice\n',
    )
    await service.stop()
    // Said alike when the command opens the store itself: the same sentence, the hint naming --data.
    const alike = await runCli(['why', '--point', 'tier', '--user', 'alice', '--data', data], { env: { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, HOME: home }, cwd: home })
    expect(alike.code).toBe(1)
    expect(alike.stderr).toBe(`decision-memory why: nothing is known of point tier for user alice; \`decision-memory preferences --user alice --data '${data}'\` lists the points learned about alice\n`)
    const local = await runCli(['why', '--point', 'tier', '--user', 'al ice', '--data', data], { env: { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, HOME: home }, cwd: home })
    expect(local.code).toBe(1)
    expect(local.stderr).toBe(`decision-memory why: nothing is known of point tier for user al ice; \`decision-memory preferences --user 'al ice' --data '${data}'\` lists the points learned about al ice\n`)
    // A name spaced at its ends (stored so before writes refused it) is quoted at the end too, as the message quotes it.
    const spaced = await runCli(['why', '--point', 'tier', '--user', ' alice', '--data', data], { env: { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, HOME: home }, cwd: home })
    expect(spaced.code).toBe(1)
    expect(spaced.stderr).toBe(`decision-memory why: nothing is known of point tier for user " alice"; \`decision-memory preferences --user ' alice' --data '${data}'\` lists the points learned about " alice"\n`)
  })

  it('explains the point in the project it runs in, its repository\'s or its folder\'s, as the hook and the MCP server recommend there, without --project', async () => {
    const parent = tempDir('dm-why-')
    const service = await startService(join(parent, 'data'))
    running.push(service)
    const main = join(parent, 'acme-api')
    await mkdir(join(main, '.git'), { recursive: true })
    await mkdir(join(main, 'services', 'billing'), { recursive: true })
    // Tier L in this repository, Tier S more often in another: across every project, Tier S.
    const choice = (i: number, project: string, tier: string) => ({
      decision_id: `repo-${i}`,
      user: 'alice',
      project,
      session_id: `s-${i}`,
      question: 'Which complexity tier should this SPEC use?',
      all_options: ['Tier S', 'Tier M', 'Tier L'],
      user_choice: tier,
    })
    const observations = [
      ...Array.from({ length: 6 }, (_, i) => choice(i, main, 'Tier L')),
      ...Array.from({ length: 10 }, (_, i) => choice(100 + i, 'elsewhere', 'Tier S')),
    ]
    const stored = await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(observations) })
    expect(stored.status).toBe(201)
    // What the hook is answered in that repository: the project's own choices.
    const asked = await fetch(`${service.url}/v1/recommendations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'alice', project: main, question: 'Which complexity tier should this SPEC use?', all_options: ['Tier S', 'Tier M', 'Tier L'] }),
    })
    expect(((await asked.json()) as { recommended: string }).recommended).toBe('Tier L')
    const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' }
    const escaped = main.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    for (const cwd of [main, join(main, 'services', 'billing')]) {
      const why = await runCli(['why', '--point', 'complexity-tier'], { env, cwd })
      expect(why.code, cwd).toBe(0)
      expect(why.stdout, cwd).toMatch(new RegExp(`^point complexity-tier \\(user alice, project ${escaped}\\)`))
      expect(why.stdout, cwd).toContain('recommended: Tier L')
    }
    // Outside a repository, the folder, as the hook records it and the MCP server started there
    // takes it: a folder whose own choices were Tier M is explained with Tier M, as the hook put it first.
    const notes = join(parent, 'notes')
    await mkdir(notes)
    const inNotes = Array.from({ length: 6 }, (_, i) => ({ ...choice(200 + i, notes, 'Tier M'), decision_id: `notes-${i}` }))
    expect((await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(inNotes) })).status).toBe(201)
    const outside = await runCli(['why', '--point', 'complexity-tier'], { env, cwd: notes })
    expect(outside.stdout).toMatch(new RegExp(`^point complexity-tier \\(user alice, project ${notes.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) as of `))
    expect(outside.stdout).toContain('recommended: Tier M')
    // In the home folder (or /), where no project is, every project, as over HTTP without one; and so
    // inside a repository with --all-projects.
    const home = await runCli(['why', '--point', 'complexity-tier'], { env: { ...env, HOME: notes }, cwd: notes })
    expect(home.stdout).toMatch(/^point complexity-tier \(user alice\) as of /)
    expect(home.stdout).toContain('recommended: Tier S')
    const every = await runCli(['why', '--point', 'complexity-tier', '--all-projects'], { env, cwd: main })
    expect(every.stdout).toMatch(/^point complexity-tier \(user alice\) as of /)
    expect(every.stdout).toContain('recommended: Tier S')
    const both = await runCli(['why', '--point', 'complexity-tier', '--all-projects', '--project', main], { env, cwd: main })
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('give --project or --all-projects, not both')
  })

  it('with --session, outside a repository below the folder the session was started in, explains the point in the session\'s project, as the hooks record it there', async () => {
    const parent = tempDir('dm-why-')
    const service = await startService(join(parent, 'data'))
    running.push(service)
    const notes = join(parent, 'notes')
    await mkdir(join(notes, 'drafts'), { recursive: true })
    const post = (path: string, body: unknown) => fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    // Tier M in notes, Tier S more often elsewhere: the hooks of a session started in notes plan
    // its questions in notes/drafts from notes' choices, Tier M first.
    const choice = (i: number, project: string, tier: string) => ({ decision_id: `c-${i}`, user: 'alice', project, session_id: `s-${i}`, question: 'Which complexity tier should this SPEC use?', all_options: ['Tier S', 'Tier M', 'Tier L'], user_choice: tier })
    const observations = [...Array.from({ length: 6 }, (_, i) => choice(i, notes, 'Tier M')), ...Array.from({ length: 10 }, (_, i) => choice(100 + i, 'elsewhere', 'Tier S'))]
    expect((await post('/v1/observations', observations)).status).toBe(201)
    expect((await post('/v1/sessions', { user: 'alice', session_id: 's-notes', project: notes })).status).toBe(201)
    expect((await post('/v1/sessions', { user: 'alice', session_id: 's-beside', project: join(parent, 'other') })).status).toBe(201)
    const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' }
    const drafts = join(notes, 'drafts')
    const inSession = await runCli(['why', '--point', 'complexity-tier', '--session', 's-notes'], { env, cwd: drafts })
    expect(inSession.stderr).toBe('')
    expect(inSession.stdout).toContain(`project ${notes}, session s-notes)`)
    expect(inSession.stdout).toContain('recommended: Tier M')
    // Without --session, or in a session started elsewhere or not known, the folder's own, as before.
    for (const session of [[], ['--session', 's-beside'], ['--session', 's-unknown']]) {
      const folder = await runCli(['why', '--point', 'complexity-tier', ...session], { env, cwd: drafts })
      expect(folder.code, session.join(' ')).toBe(0)
      expect(folder.stdout, session.join(' ')).toContain(`project ${drafts}`)
      expect(folder.stdout, session.join(' ')).toContain('recommended: Tier S')
    }
    // --project . names the project the hook records here: in the session, the session's too, as its PreToolUse planned it.
    const here = await runCli(['why', '--point', 'complexity-tier', '--session', 's-notes', '--project', '.'], { env, cwd: drafts })
    expect(here.stdout).toContain(`project ${notes}, session s-notes)`)
    expect(here.stdout).toContain('recommended: Tier M')
    // --project given by name wins.
    const named = await runCli(['why', '--point', 'complexity-tier', '--session', 's-notes', '--project', 'elsewhere'], { env, cwd: drafts })
    expect(named.stdout).toContain('project elsewhere, session s-notes)')
  })

  it('takes --project . for the project the hook records where it runs: in a worktree, its repository\'s', async () => {
    const parent = tempDir('dm-why-')
    const service = await startService(join(parent, 'data'))
    running.push(service)
    // acme-api and its worktree acme-api-feature (`git worktree add`), whose .git file points into acme-api/.git.
    const main = join(parent, 'acme-api')
    const feature = join(parent, 'acme-api-feature')
    await mkdir(join(main, '.git', 'worktrees', 'feature'), { recursive: true })
    await writeFile(join(main, '.git', 'worktrees', 'feature', 'commondir'), '../..\n')
    await mkdir(join(feature, 'services', 'billing'), { recursive: true })
    await writeFile(join(feature, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'feature')}\n`)
    const observations = Array.from({ length: 6 }, (_, i) => ({
      decision_id: `here-${i}`,
      user: 'alice',
      project: main,
      question: 'Which complexity tier should this SPEC use?',
      all_options: ['Tier S', 'Tier M', 'Tier L'],
      user_choice: 'Tier L',
    }))
    const stored = await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(observations) })
    expect(stored.status).toBe(201)
    const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' }
    for (const cwd of [main, join(feature, 'services', 'billing')]) {
      const why = await runCli(['why', '--point', 'complexity-tier', '--project', '.'], { env, cwd })
      expect(why.code, cwd).toBe(0)
      expect(why.stdout, cwd).toMatch(new RegExp(`^point complexity-tier \\(user alice, project ${main.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`))
      expect(why.stdout, cwd).not.toContain('across all your projects')
    }
    // Outside a repository, the folder itself, as the hook records it.
    const outside = await runCli(['why', '--point', 'complexity-tier', '--project', '.'], { env, cwd: parent })
    expect(outside.stdout).toContain(`project ${parent})`)
    // --path . or an absolute folder: the path relative to the repository's root, as the hook and
    // the guard send it and decisions are scoped by; a relative --path is taken as it is.
    const billing = join(feature, 'services', 'billing')
    for (const [args, cwd] of [[['--path', '.'], billing], [['--path', billing], main], [['--path', 'services/billing'], parent]] as const) {
      const why = await runCli(['why', '--point', 'complexity-tier', '--project', main, ...args], { env, cwd })
      expect(why.code, args.join(' ')).toBe(0)
      expect(why.stdout.split('\n')[0], args.join(' ')).toMatch(/, path services\/billing\) as of /)
    }
  })

  it('answers --as-of as the service would have then (R-REC-9): an audit of an earlier answer', async () => {
    const service = await startService(join(tempDir('dm-why-'), 'data'))
    running.push(service)
    const now = Date.now()
    // Tier S ten days ago, Tier L since.
    await storeTierHistory(service.url, now)
    const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' }
    expect((await runCli(['why', '--point', 'complexity-tier'], { env })).stdout).toContain('recommended: Tier L')
    const then = new Date(now - 5 * DAY).toISOString()
    const audit = await runCli(['why', '--point', 'complexity-tier', '--as-of', then], { env })
    expect(audit.stderr).toBe('')
    expect(audit.stdout).toContain(`as of ${then}`)
    expect(audit.stdout).toContain('recommended: Tier S')
    expect((await runCli(['why', '--point', 'complexity-tier', '--as-of', 'last tuesday'], { env })).code).toBe(2)
  })

  it('takes KEY --as-of (R-REC-9): the chain as of then, after a line saying so, through the service or without one', async () => {
    const data = join(tempDir('dm-why-'), 'data')
    const service = await startService(data)
    running.push(service)
    const propose = async (body: Record<string, unknown>) => {
      const created = await fetch(`${service.url}/v1/decisions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      expect(created.status).toBe(201)
      return (await created.json()) as { created_at: string }
    }
    const { created_at } = await propose({ key: 'D-001', title: 'Use SQLite', decision: 'SQLite.', rationale: 'One host.', status: 'accepted' })
    await propose({ key: 'D-002', title: 'Use PostgreSQL', decision: 'PostgreSQL.', rationale: 'Billing needs joins.', status: 'accepted', supersedes: 'D-001' })
    // The replays themselves are the route's (src/http/decisions.test.ts, on a clock that stands
    // still); here, that the flag reaches it: as of a moment before D-001 was proposed, and after.
    const before = new Date(Date.parse(created_at) - 3600_000).toISOString()
    const after = new Date().toISOString()
    const env = { DECISION_MEMORY_URL: service.url }
    const then = await runCli(['why', 'D-001', '--as-of', after], { env })
    expect(then.stderr).toBe('')
    expect(then.stdout).toMatch(new RegExp(`^D-001 as of ${after.replace(/\./g, '\\.')}\n- D-001 \\[superseded`))
    expect(then.stdout).toContain('* D-002 [accepted')
    expect(JSON.parse((await runCli(['why', 'D-001', '--as-of', after, '--json'], { env })).stdout)).toMatchObject({ current: 'D-002' })
    const missing = await runCli(['why', 'D-001', '--as-of', before], { env })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`no decision D-001 as of ${before}`)
    await service.stop()
    running.splice(0)
    const closed = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const local = await runCli(['why', 'D-001', '--as-of', after, '--data', data], { env: closed })
    expect(local.stderr).toBe('')
    expect(local.stdout).toBe(then.stdout)
    const localMissing = await runCli(['why', 'D-001', '--as-of', before, '--data', data], { env: closed })
    expect(localMissing.code).toBe(1)
    expect(localMissing.stderr).toContain(`no decision D-001 as of ${before}`)
    // An --as-of in the future is the flag's mistake, as decay-scan's --now is: exit 2 naming it.
    const ahead = await runCli(['why', 'D-001', '--as-of', new Date(Date.now() + 3600_000).toISOString(), '--data', data], { env: closed })
    expect(ahead.code).toBe(2)
    expect(ahead.stderr).toMatch(/^decision-memory why: --as-of: .*in the future/)
  })

  it('reads a bare name of a folder of records deleted since as that folder through the service, a name no decision has as its key', async () => {
    const parent = tempDir('dm-why-')
    const service = await startService(join(parent, 'data'))
    running.push(service)
    const env = { DECISION_MEMORY_URL: service.url }
    const repo = join(parent, 'shop')
    await mkdir(join(repo, '.git'), { recursive: true })
    await mkdir(join(repo, 'docs', 'adr'), { recursive: true })
    await writeFile(join(repo, 'docs', 'adr', '0001-use-sqlite.md'), '# 1. Use SQLite\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nOne host.\n\n## Decision\n\nSQLite.\n')
    expect((await runCli(['import-adr', join(repo, 'docs', 'adr')], { env })).code).toBe(0)
    // `git rm -r docs/adr`, the README beside it kept.
    await rm(join(repo, 'docs', 'adr'), { recursive: true })
    await writeFile(join(repo, 'docs', 'README.md'), '# Docs\n')
    const folder = await runCli(['why', 'adr'], { env, cwd: join(repo, 'docs') })
    expect({ code: folder.code, stderr: folder.stderr }).toEqual({ code: 0, stderr: '' })
    expect(folder.stdout).toContain('* ADR-0001 [accepted, advisory] Use SQLite\n')
    const none = await runCli(['why', 'docs'], { env, cwd: join(repo, 'docs') })
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/^decision-memory why: no decision docs\b/)
  })

  it('refuses, exit 1, to print as of --as-of an answer that does not say that moment: a service of an older version ignores it', async () => {
    const link = { key: 'D-002', title: 'Use PostgreSQL', status: 'accepted', enforce: 'advisory', date: '2026-11-20', decision: 'PostgreSQL.', rationale: 'Joins.', accepted_at: null, superseded_at: null, supersedes: 'D-001', superseded_by: null }
    // Today's chain, without as_of: what a service from before as_of was echoed sends, whatever the query asks.
    const chain = { key: 'D-001', current: 'D-002', in_force: 'D-002', chain: [link], rationale: 'One host.', evidence: [], events: [] }
    const point = { user: 'default', project: null, point: 'complexity-tier', recommendation: null, decisions: [], observations: [] }
    const then = '2026-07-01T10:00:00.000Z'
    const older = await answering((path) => (path.startsWith('/v1/why') ? point : chain))
    for (const args of [['why', 'D-001'], ['why', 'D-001', '--json'], ['why', '--point', 'complexity-tier']]) {
      const result = await runCli([...args, '--as-of', then], { env: { DECISION_MEMORY_URL: older } })
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stdout, args.join(' ')).toBe('')
      expect(result.stderr).toMatch(/^decision-memory why: the service does not answer (D-001|point complexity-tier) as of a moment .*older version.*restart it/)
      expect(result.stderr).toContain(`Nothing printed as of ${then}`)
    }
    // Without --as-of, nothing is claimed of a moment: the chain is printed as it is sent.
    expect((await runCli(['why', 'D-001'], { env: { DECISION_MEMORY_URL: older } })).stdout).toContain('* D-002 [accepted')
    // An answer that names another moment than the one asked is not printed as of it either.
    const other = await answering((path) => (path.startsWith('/v1/why') ? { ...point, as_of: '2026-12-01T00:00:00.000Z' } : { ...chain, as_of: '2026-12-01T00:00:00.000Z' }))
    for (const args of [['why', 'D-001'], ['why', '--point', 'complexity-tier']]) {
      const result = await runCli([...args, '--as-of', then], { env: { DECISION_MEMORY_URL: other } })
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr).toContain(`as of 2026-12-01T00:00:00.000Z, not as of ${then}`)
    }
    // The same moment written another way is that moment.
    const same = await answering(() => ({ ...chain, as_of: then }))
    const agreed = await runCli(['why', 'D-001', '--as-of', '2026-07-01T12:00:00+02:00'], { env: { DECISION_MEMORY_URL: same } })
    expect(agreed.stderr).toBe('')
    expect(agreed.stdout).toMatch(/^D-001 as of 2026-07-01T12:00:00\+02:00\n\* D-002/)
  })

  it('names --as-of, exit 2, when the service refuses it as in the future, for a KEY and a --point', async () => {
    const service = await startService(join(tempDir('dm-why-'), 'data'))
    running.push(service)
    const created = await fetch(`${service.url}/v1/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'D-001', title: 'Use SQLite', decision: 'SQLite.', rationale: 'One host.', status: 'accepted' }),
    })
    expect(created.status).toBe(201)
    const ahead = new Date(Date.now() + 3600_000).toISOString()
    for (const args of [['why', 'D-001'], ['why', '--point', 'complexity-tier']]) {
      const result = await runCli([...args, '--as-of', ahead], { env: { DECISION_MEMORY_URL: service.url } })
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/^decision-memory why: --as-of: .*in the future/)
      expect(result.stdout).toBe('')
    }
  })

  it('explains the point in the run --task, --path and --stage describe (R-CON-4): a path-scoped decision applies under its path', async () => {
    const service = await startService(join(tempDir('dm-why-'), 'data'))
    running.push(service)
    const created = await fetch(`${service.url}/v1/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        key: 'D-001',
        title: 'Billing specs are Tier L',
        decision: 'Every SPEC that touches billing is planned as Tier L.',
        rationale: 'Billing changes need the design review that only Tier L has.',
        enforce: 'required',
        status: 'accepted',
        scope: { points: ['complexity-tier'], path: 'services/billing', stage: 'plan' },
        constraints: [{ kind: 'must', option: 'Tier L' }],
      }),
    })
    expect(created.status).toBe(201)
    // In no project: the home folder, in no repository (the tests' folder is one, whose project the point would be explained in).
    const cwd = tempDir('dm-why-')
    const env = { DECISION_MEMORY_URL: service.url, HOME: cwd }
    const outside = await runCli(['why', '--point', 'complexity-tier'], { env, cwd })
    expect(outside.stdout).toContain('decision D-001 (not applied: scoped to path services/billing, no path given; scoped to stage plan, no stage given):')
    expect(outside.stdout).not.toContain('recommended: Tier L')
    const inside = await runCli(['why', '--point', 'complexity-tier', '--session', 's-1', '--path', 'services/billing/x.ts', '--stage', 'plan'], { env, cwd })
    expect(inside.stderr).toBe('')
    expect(inside.stdout).toMatch(/^point complexity-tier \(user default, session s-1, path services\/billing\/x\.ts, stage plan\)/)
    expect(inside.stdout).toContain('recommended: Tier L [enforced')
    expect(inside.stdout).toContain('answered for the user: required decision D-001 fixes the answer')
    expect(inside.stdout).toContain('decision D-001 (enforced):')
    expect((await runCli(['why', 'D-001', '--path', 'services/billing'], { env })).code).toBe(2)
    expect((await runCli(['why', 'D-001', '--session', 's-1'], { env })).code).toBe(2)
    expect((await runCli(['why', '--point', 'complexity-tier', '--task', ''], { env })).code).toBe(2)
  })

  it('says what is wrong with its arguments, a FILE among them: none, a KEY and --point both, or two KEYs', async () => {
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const cases: Array<[string[], string]> = [
      [['why'], 'give a decision KEY or a FILE, or --point POINT\n'],
      [['why', 'D-001', '--point', 'complexity-tier'], 'give a decision KEY or a FILE, or --point POINT, not both\n'],
      [['why', 'D-001', 'D-002'], 'why takes one decision KEY or FILE, not 2 ("D-001 D-002")\n'],
    ]
    for (const [args, message] of cases) {
      const result = await runCli(args, { env })
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr.startsWith(`decision-memory why: ${message}`), result.stderr).toBe(true)
    }
  })

  it('checks --session, --task, --path and --stage as the route does, also without a service', async () => {
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const data = join(tempDir('dm-why-'), 'data')
    const base = ['why', '--point', 'complexity-tier', '--data', data]
    for (const [flag, value] of [['--session', '..'], ['--session', 'a\u0001b'], ['--task', 'x'.repeat(501)], ['--stage', 'x'.repeat(501)], ['--path', 'x'.repeat(1001)]] as const) {
      const result = await runCli([...base, flag, value], { env })
      expect(result.code, `${flag} ${value.slice(0, 10)}`).toBe(2)
      expect(result.stderr).toContain(`${flag}: `)
    }
  })

  it('prints a decision written by someone else without the escape sequences in it', async () => {
    // Without auth anyone may write decisions (with it, any token for every user); an imported ADR's title is the repository's.
    const service = await startService(join(tempDir('dm-why-'), 'data'))
    running.push(service)
    const ESC = '\u001b'
    const created = await fetch(`${service.url}/v1/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        key: 'D-001',
        // Sets the reader's clipboard (OSC 52), then hides what follows.
        title: `Use pg${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007${ESC}[8m hidden`,
        decision: 'Use PostgreSQL.',
        rationale: `It is what we run.${ESC}[2J`,
      }),
    })
    expect(created.status).toBe(201)
    const why = await runCli(['why', 'D-001'], { env: { DECISION_MEMORY_URL: service.url } })
    expect(why.code).toBe(0)
    expect(why.stdout).toContain('D-001')
    expect(why.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    expect(why.stdout).toContain('Use pg\\u001b]52;c;')
  })
})
