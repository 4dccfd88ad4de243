import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPort, outsideEnv } from './support/processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin/decision-memory.js')
const BASH_FIXTURE = fileURLToPath(new URL('./fixtures/claude-code/pre-tool-use-bash.json', import.meta.url))
const ADR_TOOLS = join(ROOT, 'test/fixtures/adr/adr-tools')

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * The guard, given all the time it may take for the service (10 s): the tests are of what it
 * answers, and at its default second a loaded test machine may leave the check unanswered, the
 * command let through and said so.
 */
const GUARD = ['guard', '--timeout', '10000']

/** Runs the real CLI to its end, with `input` on stdin. */
function cli(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...outsideEnv(), ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input)
  })
}

/** Starts `serve --port 0` and resolves with its port once it logs `listening`. */
function serve(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir], {
      cwd: ROOT,
      env: { ...outsideEnv(), DECISION_MEMORY_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let buffered = ''
    child.stdout?.on('data', (d) => {
      buffered += d
      for (const line of buffered.split('\n')) {
        if (!line.includes('"listening"')) continue
        const event = JSON.parse(line) as { event?: string; port?: number }
        if (event.event === 'listening' && event.port !== undefined) resolve({ child, port: event.port })
      }
    })
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)))
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

describe('guard, import-adr and why end to end, over the real service', () => {
  let dataDir: string
  let service: { child: ChildProcess; port: number }
  let env: NodeJS.ProcessEnv

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dm-e2e-decisions-'))
    service = await serve(dataDir)
    env = { DECISION_MEMORY_URL: `http://127.0.0.1:${service.port}`, DECISION_MEMORY_DATA: dataDir }
    const created = await fetch(`${env.DECISION_MEMORY_URL}/v1/decisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        key: 'D-021',
        title: 'Never force push to protected branches',
        decision: 'Agents never run git push --force.',
        rationale: 'Force push has lost us work twice.',
        enforce: 'required',
        status: 'accepted',
        constraints: [{ kind: 'must_not', pattern: 'git push --force' }],
      }),
    })
    expect(created.status).toBe(201)
  })

  afterAll(async () => {
    if (service !== undefined) await stop(service.child)
    await rm(dataDir, { recursive: true, force: true })
  })

  it('guard denies the fixture force push citing the decision, and allows git push origin main', async () => {
    const payload = await readFile(BASH_FIXTURE, 'utf8')
    const denied = await cli(GUARD, env, payload)
    expect(denied.code).toBe(0)
    const answer = JSON.parse(denied.stdout)
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny')
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('D-021')

    const allowed = await cli(GUARD, env, payload.replace('git push --force origin main', 'git push origin main'))
    expect(allowed).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('guard denies `cd services/billing && rm -rf build` sent from the root by a decision scoped to services/billing, and not the same rm run at the root', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-e2e-guard-cd-'))
    try {
      await mkdir(join(repo, '.git'))
      await mkdir(join(repo, 'services', 'billing'), { recursive: true })
      const created = await fetch(`${env.DECISION_MEMORY_URL}/v1/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          key: 'D-060',
          title: 'Billing keeps its build folder',
          decision: 'Agents never delete services/billing/build.',
          rationale: 'It holds the signed invoices.',
          enforce: 'required',
          status: 'accepted',
          scope: { path: 'services/billing' },
          constraints: [{ kind: 'must_not', pattern: '^rm -rf build' }],
        }),
      })
      expect(created.status).toBe(201)
      // The fixture's shape, as Claude Code sends a command it runs from the repository's root.
      const fixture = JSON.parse(await readFile(BASH_FIXTURE, 'utf8'))
      const payload = (command: string) => JSON.stringify({ ...fixture, cwd: repo, tool_input: { command, description: 'Clean the billing build' } })
      const denied = await cli(GUARD, env, payload('cd services/billing && rm -rf build'))
      expect(denied.code).toBe(0)
      expect(denied.stderr).toBe('')
      expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining('Blocked by decision D-060 (required): Billing keeps its build folder. "rm -rf build" matches the must_not pattern /^rm -rf build/ (run in services/billing)'),
      })
      expect(await cli(GUARD, env, payload('rm -rf build'))).toEqual({ code: 0, stdout: '', stderr: '' })
      expect(await cli(GUARD, env, payload('cd services/billing && make && cd ../.. && rm -rf build'))).toEqual({ code: 0, stdout: '', stderr: '' })
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('guard reads a payload given as a file at once, and denies the force push while a loaded machine holds the thread pool', async () => {
    const { openSync, closeSync, constants } = await import('node:fs')
    const folder = await mkdtemp(join(tmpdir(), 'dm-guard-file-'))
    try {
      // libuv's one thread held from when the guard turns to its stdin until it has answered
      // (opening a named pipe no one writes yet): a file read as a stream (on that thread) never
      // arrived, and the push went through once --timeout ran out. Held so, not busy for a few
      // seconds (a pbkdf2 of 3 s against the default 1000 ms), the hold outlasts any --timeout and
      // burns no CPU, and the guard is given all of it for its own work and its request on a
      // loaded machine. Its answer said, the pipe is opened for writing: the thread is let go, and
      // the guard can exit (libuv joins its threads at exit).
      const fifo = join(folder, 'hold.fifo')
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
      const hold = join(folder, 'hold.cjs')
      await writeFile(
        hold,
        `const d = Object.getOwnPropertyDescriptor(process, 'stdin'); let first = true
Object.defineProperty(process, 'stdin', { configurable: true, get() {
  if (first) { first = false; require('node:fs').open(${JSON.stringify(fifo)}, 'r', () => {}) }
  return d.get.call(process) } })\n`,
      )
      const input = openSync(BASH_FIXTURE, 'r')
      const child = spawn(process.execPath, [BIN, ...GUARD], {
        cwd: ROOT,
        env: { ...outsideEnv(), ...env, UV_THREADPOOL_SIZE: '1', NODE_OPTIONS: `--require ${hold}` },
        stdio: [input, 'pipe', 'pipe'],
      })
      closeSync(input)
      let stdout = ''
      let released = false
      const release = () => {
        if (released) return
        released = true
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
        } catch {
          // ENXIO: the guard never opened it, and holds nothing.
        }
      }
      child.stdout?.on('data', (d) => ((stdout += d), release()))
      child.stderr?.on('data', release)
      expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0)
      expect(JSON.parse(stdout).hookSpecificOutput.permissionDecision).toBe('deny')
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('import-adr reports what it cannot read at its path and line, and a second import changes nothing', async () => {
    const first = await cli(['import-adr', ADR_TOOLS], env)
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('imported: 7 new, 0 updated, 0 unchanged')
    expect(first.stderr).toContain(`${join(ADR_TOOLS, '0008-split-the-monolith-into-services.md')}:7: unknown status`)
    const second = await cli(['import-adr', ADR_TOOLS, '--json'], env)
    const report = JSON.parse(second.stdout).import
    expect(report.created).toEqual([])
    expect(report.unchanged).toHaveLength(7)

    // A second folder numbered like the first: left out, unless its keys get a prefix.
    const madr = join(ADR_TOOLS, '..', 'madr')
    const clash = await cli(['import-adr', madr, '--json'], env)
    expect(JSON.parse(clash.stdout).import.updated).toEqual([])
    const prefixed = await cli(['import-adr', madr, '--prefix', 'WEB', '--json'], env)
    const created: string[] = JSON.parse(prefixed.stdout).import.created
    expect(created.length).toBeGreaterThan(0)
    expect(created.every((k) => k.startsWith('WEB-'))).toBe(true)

    const why = await cli(['why', 'ADR-0005'], env)
    expect(why.code).toBe(0)
    expect(why.stdout).toMatch(/- ADR-0002 \[superseded, advisory\] Use SQLite for local storage\n\s+decided 2023-03-14/)
    expect(why.stdout).toMatch(/\* ADR-0005 \[accepted, advisory\] Use PostgreSQL for storage/)
  })

  it('import-adr refuses a --prefix that no key may start with, naming the flag, and stores nothing', async () => {
    for (const prefix of ['-x', '..', '.hidden', '_a']) {
      const refused = await cli(['import-adr', ADR_TOOLS, '--prefix', prefix], env)
      expect(refused.code, prefix).toBe(2)
      expect(refused.stderr, prefix).toContain('--prefix')
    }
    const list = await cli(['import-adr', ADR_TOOLS, '--prefix', 'A.1', '--dry-run', '--json'], env)
    expect(list.code).toBe(0)
  })

  it('import-adr leaves out the records of another repository whose folder is named alike (doc/adr in both)', async () => {
    const repos = await mkdtemp(join(tmpdir(), 'dm-e2e-repos-'))
    try {
      const adr = (title: string) => `# 2. ${title}\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\n${title}.\n`
      for (const [repo, file, title] of [['acme-api', '0002-use-postgres.md', 'Use Postgres'], ['billing', '0002-use-dynamodb.md', 'Use DynamoDB']] as const) {
        await mkdir(join(repos, repo, '.git'), { recursive: true })
        await mkdir(join(repos, repo, 'doc', 'adr'), { recursive: true })
        await writeFile(join(repos, repo, 'doc', 'adr', file), adr(title))
      }
      const first = JSON.parse((await cli(['import-adr', join(repos, 'acme-api', 'doc', 'adr'), '--prefix', 'X', '--json'], env)).stdout)
      expect(first.import.created).toEqual(['X-ADR-0002'])
      const second = JSON.parse((await cli(['import-adr', join(repos, 'billing', 'doc', 'adr'), '--prefix', 'X', '--json'], env)).stdout)
      expect(second.import.updated).toEqual([])
      expect(second.import.conflicts.map((c: { key: string }) => c.key)).toEqual(['X-ADR-0002'])
      const stored = (await (await fetch(`${env.DECISION_MEMORY_URL}/v1/decisions/X-ADR-0002`)).json()) as { title: string }
      expect(stored.title).toBe('Use Postgres')
      // The same repository's folder, renamed file and all, is still its own.
      await rm(join(repos, 'acme-api', 'doc', 'adr', '0002-use-postgres.md'))
      await writeFile(join(repos, 'acme-api', 'doc', 'adr', '0002-use-postgresql.md'), adr('Use PostgreSQL'))
      const again = JSON.parse((await cli(['import-adr', join(repos, 'acme-api', 'doc', 'adr'), '--prefix', 'X', '--json'], env)).stdout)
      expect(again.import.updated).toEqual(['X-ADR-0002'])
    } finally {
      await rm(repos, { recursive: true, force: true })
    }
  })

  it('import-adr from another clone of a repository, in a directory named otherwise, updates its records and reports a deleted file', async () => {
    const repos = await mkdtemp(join(tmpdir(), 'dm-e2e-clones-'))
    try {
      const adr = (n: number, title: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\nAccepted\n\n## Decision\n\n${title}.\n`
      const clone = async (name: string, origin: string | undefined, files: Record<string, string>) => {
        await mkdir(join(repos, name, '.git'), { recursive: true })
        await mkdir(join(repos, name, 'doc', 'adr'), { recursive: true })
        if (origin !== undefined) await writeFile(join(repos, name, '.git', 'config'), `[remote "origin"]\n\turl = ${origin}\n`)
        for (const [file, text] of Object.entries(files)) await writeFile(join(repos, name, 'doc', 'adr', file), text)
        return join(repos, name, 'doc', 'adr')
      }
      const files = { '0001-use-rest.md': adr(1, 'Use REST'), '0002-use-kafka.md': adr(2, 'Use Kafka') }
      const importing = async (dir: string) => JSON.parse((await cli(['import-adr', dir, '--prefix', 'CL', '--json'], env)).stdout).import
      // Imported once without a remote, named by its directory, as imports were before.
      expect((await importing(await clone('shop', undefined, files))).created).toEqual(['CL-ADR-0001', 'CL-ADR-0002'])
      const second = await clone('shop-fresh', 'git@github.com:acme/shop.git', files)
      expect(await importing(second)).toMatchObject({ unchanged: ['CL-ADR-0001', 'CL-ADR-0002'], conflicts: [], missing: [] })
      const third = await clone('checkout', 'https://github.com/acme/shop', { ...files, '0002-use-kafka.md': adr(2, 'Use NATS') })
      expect(await importing(third)).toMatchObject({ updated: ['CL-ADR-0002'], unchanged: ['CL-ADR-0001'], conflicts: [] })
      await rm(join(second, '0001-use-rest.md'))
      const gone = await cli(['import-adr', second, '--prefix', 'CL'], env)
      expect(gone.stdout).toContain('1 whose file is gone')
      expect(gone.stderr).toContain('CL-ADR-0001: 0001-use-rest.md, which CL-ADR-0001 was imported from, is no longer in the folder; CL-ADR-0001 stays accepted')
      const stored = (await (await fetch(`${env.DECISION_MEMORY_URL}/v1/decisions/CL-ADR-0001`)).json()) as { status: string }
      expect(stored.status).toBe('accepted')
      // Every record deleted with git rm: git leaves no empty folder, and the folder is gone too.
      await rm(second, { recursive: true })
      const folderGone = await cli(['import-adr', second, '--prefix', 'CL'], env)
      expect(folderGone.code).toBe(0)
      expect(folderGone.stdout).toContain('imported: 0 new, 0 updated, 0 unchanged, 2 whose file is gone\n')
      // Outside a repository, a folder that is not there is a mistake.
      const typo = await cli(['import-adr', join(tmpdir(), 'dm-no-such-folder', 'adr')], env)
      expect(typo.code).toBe(1)
      expect(typo.stderr).toContain('cannot read')
      // Inside one too, when the store holds no decision of it: a typo, not a folder git rm took.
      const typoHere = await cli(['import-adr', join(third, '..', 'adrr'), '--prefix', 'CL'], env)
      expect(typoHere.code).toBe(1)
      expect(typoHere.stdout).toBe('')
      expect(typoHere.stderr).toContain('cannot read')
      expect((await cli(['import-adr', join(third, '..', 'adrr'), '--json'], env)).code).toBe(1)
    } finally {
      await rm(repos, { recursive: true, force: true })
    }
  })

  it('import-adr reports a section taken out of a DECISIONS.md that is still there, then every decision of a folder left with no record, keeping them', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-e2e-log-'))
    try {
      const section = (n: number, title: string) => `## D-00${n}: ${title}\n\n- Status: Accepted\n- Date: 2024-01-0${n}\n\n${title}.\n`
      await mkdir(join(repo, '.git'), { recursive: true })
      const log = join(repo, 'DECISIONS.md')
      await writeFile(log, `# Decisions\n\n${section(1, 'Use REST')}\n${section(2, 'Use Kafka')}`)
      expect(JSON.parse((await cli(['import-adr', repo, '--prefix', 'LOG', '--json'], env)).stdout).import.created).toEqual(['LOG-D-001', 'LOG-D-002'])
      await writeFile(log, `# Decisions\n\n${section(1, 'Use REST')}`)
      const taken = await cli(['import-adr', repo, '--prefix', 'LOG'], env)
      expect(taken.stdout).toContain('imported: 0 new, 0 updated, 1 unchanged, 1 whose section is gone\n')
      expect(taken.stderr).toContain('LOG-D-002: the section of DECISIONS.md that LOG-D-002 was imported from is no longer in it; LOG-D-002 stays accepted')
      const stored = (await (await fetch(`${env.DECISION_MEMORY_URL}/v1/decisions/LOG-D-002`)).json()) as { status: string }
      expect(stored.status).toBe('accepted')
      await rm(log)
      const emptied = await cli(['import-adr', repo, '--prefix', 'LOG'], env)
      expect(emptied.stdout).toContain('imported: 0 new, 0 updated, 0 unchanged, 2 whose file is gone\n')
      expect(emptied.stderr).toContain('LOG-D-001: DECISIONS.md, which LOG-D-001 was imported from, is no longer in the folder; LOG-D-001 stays accepted')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('import-adr recognises a folder moved within its repository, and updates its records rather than leave them out', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-e2e-moved-'))
    try {
      const adr = (n: number, title: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\nAccepted\n\n## Decision\n\n${title}.\n`
      await mkdir(join(repo, '.git'), { recursive: true })
      await writeFile(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/moved.git\n')
      await mkdir(join(repo, 'doc', 'adr'), { recursive: true })
      await writeFile(join(repo, 'doc', 'adr', '0001-use-rest.md'), adr(1, 'Use REST'))
      await writeFile(join(repo, 'doc', 'adr', '0002-use-kafka.md'), adr(2, 'Use Kafka'))
      const importing = async (dir: string) => JSON.parse((await cli(['import-adr', dir, '--prefix', 'MV', '--json'], env)).stdout).import
      expect((await importing(join(repo, 'doc', 'adr'))).created).toEqual(['MV-ADR-0001', 'MV-ADR-0002'])
      await mkdir(join(repo, 'docs'))
      await rename(join(repo, 'doc', 'adr'), join(repo, 'docs', 'adr'))
      // Edited on the way, its title kept.
      await writeFile(join(repo, 'docs', 'adr', '0002-use-kafka.md'), adr(2, 'Use Kafka').replace('Use Kafka.\n', 'Kafka 3, on our own brokers.\n'))
      expect(await importing(join(repo, 'docs', 'adr'))).toMatchObject({ updated: ['MV-ADR-0002'], unchanged: ['MV-ADR-0001'], conflicts: [], missing: [] })
      const stored = (await (await fetch(`${env.DECISION_MEMORY_URL}/v1/decisions/MV-ADR-0001`)).json()) as { imported: { folder: string } }
      expect(stored.imported.folder).toBe('github.com/acme/moved/docs/adr')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })

  it('with the service down, the guard exits 0 and lets the command through, saying so; the CLI opens the store itself', async () => {
    await stop(service.child)
    // Down, at a port held closed: the port it had, released, may be given to a service of the test
    // files run beside this one (1 in 7,000 of their listen(0)), which would answer the guard.
    env = { ...env, DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const down = await cli(['guard'], env, await readFile(BASH_FIXTURE, 'utf8'))
    expect(down.code).toBe(0)
    expect(down.stdout).toBe('')
    expect(down.stderr).toMatch(/not reachable \(ECONNREFUSED\); letting the command through/)

    const closed = await cli(['guard', '--fail-closed'], env, await readFile(BASH_FIXTURE, 'utf8'))
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecision).toBe('deny')

    const local = await cli(['why', 'D-021', '--json'], env)
    expect(local.code).toBe(0)
    expect(JSON.parse(local.stdout).chain[0]).toMatchObject({ key: 'D-021', status: 'accepted' })
  })
})
