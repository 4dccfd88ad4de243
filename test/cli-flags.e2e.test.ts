import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TOGGLE_HELP } from '../src/cli/toggle'
import { openStore } from '../src/open-store'
import { closedPort, runCli, startService, type RunningService } from './support/processes'
import { tempDir } from './support/temp-dir'

/**
 * For a test that runs the CLI fifteen to twenty times in turn: each a Node process of its own,
 * over a second each on a machine loaded by the other test files, so past the 30 s default there.
 */
const SPAWNS_MANY = 120_000

let service: RunningService
beforeAll(async () => {
  service = await startService(tempDir('dm-flags-'))
})
afterAll(async () => {
  await service.stop()
})

async function post(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(response.status).toBeLessThan(300)
}

const observation = (user: string) => ({
  decision_id: `${user}-1`, user, question: 'Which complexity tier should this SPEC use?', header: 'Tier',
  user_choice: 'Tier M', all_options: ['Tier S', 'Tier M', 'Tier L'],
})

describe('a flag given twice', () => {
  it('is a usage error naming the flag, and nothing is done with either value', async () => {
    await post('/v1/observations', [observation('alice'), observation('bob')])
    const env = { DECISION_MEMORY_URL: service.url }
    const result = await runCli(['forget', '--user', 'alice', '--user', 'bob', '--yes'], { env })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--user is given twice ("alice" and "bob"): give it once')
    expect(result.stdout).toBe('')
    for (const user of ['alice', 'bob']) {
      const preferences = await runCli(['preferences', '--user', user, '--json'], { env })
      expect(JSON.parse(preferences.stdout).points).toHaveLength(1)
    }
  })
})

describe('preferences without --user', () => {
  it('reads $DECISION_MEMORY_USER, whose choices the hook recorded, as why does; else the user "default"', async () => {
    await post('/v1/observations', [observation('dora'), observation('default')])
    const env = { DECISION_MEMORY_URL: service.url }
    const dora = await runCli(['preferences', '--json'], { env: { ...env, DECISION_MEMORY_USER: 'dora' } })
    expect(dora.stderr).toBe('')
    expect(JSON.parse(dora.stdout)).toMatchObject({ user: 'dora', points: [{ majority: 'Tier M' }] })
    expect(JSON.parse((await runCli(['preferences', '--json'], { env })).stdout).user).toBe('default')
    const bad = await runCli(['preferences'], { env: { ...env, DECISION_MEMORY_USER: '..' } })
    // A variable of the environment, not a flag: one line, exit 1, no help.
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe('decision-memory preferences: DECISION_MEMORY_USER (the default of --user): must not be "." or ".." (a URL drops them from its path)\n')
  })
})

describe('an environment variable set empty', () => {
  it('is the default: an empty DECISION_MEMORY_URL is the service on DECISION_MEMORY_PORT', async () => {
    const result = await runCli(['preferences', '--user', 'carol', '--json'], { env: { DECISION_MEMORY_URL: '', DECISION_MEMORY_PORT: String(service.port) } })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout).user).toBe('carol')
  })

  it('is the default: an empty DECISION_MEMORY_DATA is ./data, never the current directory made a store', async () => {
    const cwd = tempDir('dm-cwd-')
    const url = `http://127.0.0.1:${await closedPort()}`
    const result = await runCli(['preferences', '--user', 'carol'], { cwd, env: { DECISION_MEMORY_URL: url, DECISION_MEMORY_DATA: '' } })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`no store in ${join(cwd, 'data')}`)
    expect(readdirSync(cwd)).toEqual([])
    const flag = await runCli(['preferences', '--user', 'carol', '--data', ''], { cwd, env: { DECISION_MEMORY_URL: url } })
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain('--data is empty')
    expect(readdirSync(cwd)).toEqual([])
    // The MCP server too, which makes its store when there is none.
    const mcp = await runCli(['mcp', '--data', ''], { cwd, env: { DECISION_MEMORY_URL: url } })
    expect(mcp.code).toBe(2)
    expect(mcp.stderr).toContain('--data is empty')
    expect(readdirSync(cwd)).toEqual([])
  })
})

describe('serve with a log level pino does not know', () => {
  it('exits 1 naming DECISION_MEMORY_LOG_LEVEL and the levels in one line, as for any variable of the environment: no help of flags, no stack trace', async () => {
    const data = join(tempDir('dm-level-'), 'data')
    const result = await runCli(['serve', '--port', '0', '--data', data], { env: { DECISION_MEMORY_LOG_LEVEL: 'verbose' } })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe('decision-memory serve: DECISION_MEMORY_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "verbose"\n')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('DECISION_MEMORY_URL with a path', () => {
  it('is said to be the likely mistake, for every command that goes through the service', async () => {
    const env = { DECISION_MEMORY_URL: `${service.url}/v1` }
    for (const args of [['preferences', '--user', 'alice'], ['toggle', '--session', 's-1'], ['why', 'D-001'], ['decay-scan']]) {
      const result = await runCli(args, { env })
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/^decision-memory [a-z-]+: no route [A-Z]+ \/v1\/v1\/.*; is DECISION_MEMORY_URL \(.*\/v1\) the service's address, with no path\?\n$/)
    }
  })
})

describe('toggle without a service', () => {
  it('refuses a session or user the routes refuse, rather than write it into the store', async () => {
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const data = join(tempDir('dm-toggle-'), 'data')
    // A store, made by an import (which may come before the service first runs).
    const folder = tempDir('dm-adr-')
    writeFileSync(join(folder, '0001-use-postgres.md'), '# 1. Use Postgres\n\nDate: 2024-01-10\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n')
    expect((await runCli(['import-adr', folder, '--data', data], { env })).code).toBe(0)

    const badSession = await runCli(['toggle', '--session', '!s', '--off', '--data', data], { env })
    expect(badSession.code).toBe(2)
    expect(badSession.stderr).toContain('--session: must not start with "!"')
    const badUser = await runCli(['toggle', '--session', 's-1', '--user', '!bad', '--off', '--data', data], { env })
    expect(badUser.code).toBe(2)
    expect(badUser.stderr).toContain('--user: must not start with "!"')
    // White space alone, or at its ends, would be another session (or user) than the agent's.
    const blankSession = await runCli(['toggle', '--session', '   ', '--off', '--data', data], { env })
    expect(blankSession.code).toBe(2)
    expect(blankSession.stderr).toContain('--session: must not be empty or white space alone')
    const spacedUser = await runCli(['toggle', '--session', 's-1', '--user', ' alice', '--off', '--data', data], { env })
    expect(spacedUser.code).toBe(2)
    expect(spacedUser.stderr).toContain('--user: no spaces at its ends')
    const exported = await runCli(['export', '--user', 'default', '--data', data], { env })
    expect(exported.code).toBe(0)
    expect(JSON.parse(exported.stdout.trimEnd().split('\n').at(-1) as string).counts.session).toBe(0)
  })
})

describe('toggle of a session stored before under an id or user spaced at its ends', () => {
  it('turns it off, with a service and without: the toggle writes no new name, and a new one is still refused', async () => {
    const data = join(tempDir('dm-toggle-spaced-'), 'data')
    // Started as a version before took them, past the routes that now refuse them.
    const store = await openStore(data)
    try {
      for (const [user, session_id] of [['carol', ' s-1'], [' dave', 's-2']] as const) {
        await store.startSession({ session_id, user, project: null, started_at: '2026-07-01T10:00:00.000Z', personalization: true })
      }
    } finally {
      await store.close()
    }
    const service = await startService(data)
    try {
      const env = { DECISION_MEMORY_URL: service.url }
      const through = await runCli(['toggle', '--session', ' s-1', '--off', '--json'], { env })
      expect(through.stderr).toBe('')
      expect(JSON.parse(through.stdout)).toMatchObject({ session_id: ' s-1', user: 'carol', personalization: false })
      const refused = await runCli(['toggle', '--session', 's-1 ', '--off'], { env })
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain('--session: no spaces at its ends: "s-1 " would be another name than "s-1"')
      const refusedVariable = await runCli(['toggle', '--session', 's-3', '--off'], { env: { ...env, DECISION_MEMORY_USER: ' erin' } })
      expect(refusedVariable.code).toBe(1)
      expect(refusedVariable.stderr).toBe('decision-memory toggle: DECISION_MEMORY_USER (the default of --user): no spaces at its ends: " erin" would be another name than "erin"\n')
    } finally {
      await service.stop()
    }
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const local = await runCli(['toggle', '--session', 's-2', '--user', ' dave', '--on', '--json', '--data', data], { env })
    expect(local.stderr).toBe('')
    expect(JSON.parse(local.stdout)).toMatchObject({ session_id: 's-2', user: ' dave', personalization: true })
    const refusedUser = await runCli(['toggle', '--session', 's-4', '--user', ' dave', '--off', '--data', data], { env })
    expect(refusedUser.code).toBe(2)
    expect(refusedUser.stderr).toContain('--user: no spaces at its ends: " dave" would be another name than "dave"')
  })
})

describe('toggle of a session id several users have', () => {
  it('asks for --user, the flag, naming the users, with a service and without', async () => {
    const data = join(tempDir('dm-toggle-two-'), 'data')
    const service = await startService(data)
    try {
      for (const user of ['m1', 'm2']) {
        const started = await fetch(`${service.url}/v1/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user, session_id: 'shared' }),
        })
        expect(started.status).toBe(201)
      }
      // A mistake in its flags, exit 2 with the help, as every other one: a version before this exited 1.
      const through = await runCli(['toggle', '--session', 'shared', '--off'], { env: { DECISION_MEMORY_URL: service.url } })
      expect(through.code).toBe(2)
      expect(through.stderr).toBe(`decision-memory toggle: session shared belongs to several users: give --user, one of m1, m2\n\n${TOGGLE_HELP}`)
      expect(through.stdout).toBe('')
    } finally {
      await service.stop()
    }
    const local = await runCli(['toggle', '--session', 'shared', '--off', '--data', data], { env: { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` } })
    expect(local.code).toBe(2)
    expect(local.stderr).toBe(`decision-memory toggle: session shared belongs to several users: give --user, one of m1, m2\n\n${TOGGLE_HELP}`)
  })
})

describe('toggle without --user', () => {
  it('acts for $DECISION_MEMORY_USER, as the hook that records the session does, with a service and without', async () => {
    const data = join(tempDir('dm-toggle-env-'), 'data')
    const service = await startService(data)
    try {
      // The session the hook started for alice, and one no event has named yet.
      const started = await fetch(`${service.url}/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'alice', session_id: 'hers' }),
      })
      expect(started.status).toBe(201)
      const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' }
      for (const session of ['hers', 'new-one']) {
        const toggled = await runCli(['toggle', '--session', session, '--off'], { env })
        // One no event named is started for alice, and said so.
        expect(toggled.stderr, session).toEqual(session === 'hers' ? '' : expect.stringContaining('no session new-one of user alice had been seen'))
        expect(toggled.stdout, session).toBe(`personalization off for session ${session} (user alice)\n`)
      }
      // Not started for "default", whom the hook does not record for.
      const sessions = await fetch(`${service.url}/v1/users/default/export`)
      expect((await sessions.text()).split('\n').filter((line) => line.includes('"type":"session"'))).toEqual([])
      const bad = await runCli(['toggle', '--session', 'hers', '--off'], { env: { ...env, DECISION_MEMORY_USER: '!x' } })
      expect(bad.code).toBe(1)
      expect(bad.stderr).toBe('decision-memory toggle: DECISION_MEMORY_USER (the default of --user): must not start with "!"\n')
    } finally {
      await service.stop()
    }
    const local = await runCli(['toggle', '--session', 'another', '--off', '--data', data], {
      env: { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'alice' },
    })
    expect(local.stdout).toBe('personalization off for session another (user alice)\n')
  })
})

describe('a command whose reader stops reading', () => {
  it('ends quietly with the status of SIGPIPE, not a stack trace', async () => {
    const { spawn } = await import('node:child_process')
    const { BIN, cleanEnv } = await import('./support/processes')
    const child = spawn(process.execPath, [BIN, 'preferences', '--user', 'alice', '--json'], {
      env: cleanEnv({ DECISION_MEMORY_URL: service.url }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    // The reading end closed before the command writes: its write fails with EPIPE.
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).toBe('')
    expect(code).toBe(141)
  })

  it('ends so for help and version too, written before any command is loaded', async () => {
    const { spawn } = await import('node:child_process')
    const { BIN, cleanEnv } = await import('./support/processes')
    for (const args of [['help'], ['help', 'forget'], ['--help'], ['version'], ['--version'], ['forget', '--help']]) {
      const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
      child.stdout.destroy()
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
      expect(stderr, args.join(' ')).toBe('')
      expect(code, args.join(' ')).toBe(141)
    }
  })

  it('writes its output and ends as it would have when no one reads its stderr, as `2>&1 >settings.json | head -1` leaves it', async () => {
    const { spawn } = await import('node:child_process')
    const { BIN, cleanEnv } = await import('./support/processes')
    const project = tempDir('dm-stderr-closed-')
    // A dry run says what it would change on stderr, then prints the settings on stdout: the
    // failed write to stderr ended it with exit 1 before it printed them.
    const child = spawn(process.execPath, [BIN, 'install-hooks', '--dry-run', '--project', project], {
      env: cleanEnv({ HOME: project }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stderr.destroy()
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(code).toBe(0)
    expect(Object.keys(JSON.parse(stdout).hooks)).toEqual(['SessionStart', 'PreToolUse', 'PostToolUse'])
  })

  it('ends with the status of SIGPIPE, not 1, when one closed pipe is both its stdout and its stderr (`2>&1 | head -1`)', async () => {
    const { spawn } = await import('node:child_process')
    const { BIN, cleanEnv } = await import('./support/processes')
    const project = tempDir('dm-both-closed-')
    const child = spawn(process.execPath, [BIN, 'install-hooks', '--dry-run', '--project', project], {
      env: cleanEnv({ HOME: project }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stderr.destroy()
    child.stdout.destroy()
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(code).toBe(141)
  })

  it('says in one line, exit 1, that it could not write its output to a full disk, not with a stack trace', async () => {
    const { spawn } = await import('node:child_process')
    const { existsSync, openSync, closeSync } = await import('node:fs')
    const { BIN, cleanEnv } = await import('./support/processes')
    // /dev/full: every write fails with ENOSPC, as `export … > backup.ndjson` on a full disk does.
    if (!existsSync('/dev/full')) return
    for (const args of [['version'], ['preferences', '--user', 'alice', '--json']]) {
      const full = openSync('/dev/full', 'w')
      const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv({ DECISION_MEMORY_URL: service.url }), stdio: ['ignore', full, 'pipe'] })
      closeSync(full)
      let stderr = ''
      child.stderr?.on('data', (chunk) => (stderr += chunk))
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
      expect(stderr, args.join(' ')).toBe(`decision-memory ${args[0]}: cannot write the output: ENOSPC\n`)
      expect(code, args.join(' ')).toBe(1)
    }
  })
})

describe('a command run in a folder removed since the shell entered it', () => {
  it('says so, exit 1, rather than a stack trace, whether the bundle or the sources run', async () => {
    const { spawn } = await import('node:child_process')
    const { BIN, cleanEnv } = await import('./support/processes')
    const parent = tempDir('dm-gone-')
    // The shell enters the folder, removes it, and runs the command there, as one left in a
    // checkout deleted from another shell does.
    const child = spawn('sh', ['-c', 'mkdir gone && cd gone && rmdir "$PWD" && exec "$0" "$1" install-hooks --dry-run', process.execPath, BIN], {
      cwd: parent,
      env: cleanEnv({ HOME: parent }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).toMatch(/^decision-memory( install-hooks)?: the folder this runs in is gone \(removed since the shell entered it\): run it in a folder that exists\n$/)
    expect(code).toBe(1)
  })

  it('runs the hook and the guard from the sources as from the bundle: the hook exits 0 with its event spooled, the guard --fail-closed denies', async () => {
    const { spawn } = await import('node:child_process')
    const { copyFileSync, mkdirSync, readFileSync: read, symlinkSync } = await import('node:fs')
    const { BIN, cleanEnv } = await import('./support/processes')
    const { claudeCodeFixture } = await import('./support/fixtures')
    // A checkout with no bundle (a git pull without npm ci): bin/ copied, as node takes a linked
    // main as the file it links to, whose checkout may have its bundle.
    const checkout = tempDir('dm-gone-sources-')
    mkdirSync(join(checkout, 'bin'))
    for (const file of ['decision-memory.js', 'bundle.js']) copyFileSync(join(BIN, '..', file), join(checkout, 'bin', file))
    copyFileSync(join(BIN, '..', '..', 'package.json'), join(checkout, 'package.json'))
    for (const folder of ['src', 'node_modules', 'policies']) symlinkSync(join(BIN, '..', '..', folder), join(checkout, folder))
    const parent = tempDir('dm-gone-')
    const spool = join(parent, 'spool.ndjson')
    const down = `http://127.0.0.1:${await closedPort()}`
    const inGoneFolder = async (args: string[], payload: unknown) => {
      const child = spawn('sh', ['-c', 'mkdir gone && cd gone && rmdir "$PWD" && exec "$0" "$@"', process.execPath, join(checkout, 'bin', 'decision-memory.js'), ...args], {
        cwd: parent,
        env: cleanEnv({ HOME: parent, DECISION_MEMORY_URL: down, DECISION_MEMORY_SPOOL: spool }),
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      child.stdin.end(JSON.stringify(payload))
      let stdout = ''
      child.stdout.on('data', (chunk) => (stdout += chunk))
      child.stderr.resume()
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
      return { code, stdout }
    }
    const hook = await inGoneFolder(['hook'], claudeCodeFixture('post-tool-use-single'))
    expect(hook).toEqual({ code: 0, stdout: '' })
    expect(read(spool, 'utf8')).toContain('"PostToolUse"')
    const guard = await inGoneFolder(['guard', '--fail-closed'], claudeCodeFixture('pre-tool-use-bash'))
    expect(guard.code).toBe(0)
    expect(JSON.parse(guard.stdout).hookSpecificOutput.permissionDecision).toBe('deny')
  }, SPAWNS_MANY)
})

describe('export --out -', () => {
  it('writes the export to stdout, as `-` is for an output file, not to a file named - in the current directory', async () => {
    await post('/v1/observations', [observation('dash')])
    const cwd = tempDir('dm-export-dash-')
    const result = await runCli(['export', '--user', 'dash', '--out', '-'], { env: { DECISION_MEMORY_URL: service.url }, cwd })
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout.split('\n')[0] as string)).toMatchObject({ type: 'export', user: 'dash' })
    expect(readdirSync(cwd)).toEqual([])
  })
})

describe('export --out=~/FILE', () => {
  it('writes the export in the home folder, as --data and --spool read a leading ~, not in a folder named ~', async () => {
    await post('/v1/observations', [observation('tilde')])
    const home = tempDir('dm-export-home-')
    const cwd = tempDir('dm-export-tilde-')
    const result = await runCli(['export', '--user', 'tilde', '--out=~/tilde.ndjson'], { env: { DECISION_MEMORY_URL: service.url, HOME: home }, cwd })
    expect(result.code).toBe(0)
    expect(readdirSync(home)).toEqual(['tilde.ndjson'])
    expect(readdirSync(cwd)).toEqual([])
  })
})

describe('a name "." or ".."', () => {
  it('is a usage error naming the flag, before any request: a URL drops it, and the command would hit another route', async () => {
    const env = { DECISION_MEMORY_URL: service.url }
    const cases: Array<[string[], string]> = []
    for (const dots of ['.', '..']) {
      cases.push(
        [['toggle', '--session', dots, '--off'], '--session'],
        [['toggle', '--session', 's-1', '--user', dots], '--user'],
        [['preferences', '--user', dots], '--user'],
        [['export', '--user', dots], '--user'],
        [['forget', '--user', dots, '--yes'], '--user'],
        [['why', '--point', dots], '--point'],
        [['why', '--point', 'tier', '--user', dots], '--user'],
      )
    }
    // `--project .` is the project of the folder the command runs in (why's help); `..` is no name.
    cases.push([['why', '--point', 'tier', '--project', '..'], '--project'])
    for (const [args, flag] of cases) {
      const result = await runCli(args, { env })
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^decision-memory [a-z]+: ${flag.replace(/[.]/g, '\\.')}: `))
      expect(result.stderr).not.toContain('no route')
      expect(result.stdout).toBe('')
    }
    // As KEY, no decision's: the folder it names, read here, never put in a URL (why FILE).
    for (const dots of ['.', '..']) {
      const result = await runCli(['why', dots], { env })
      expect({ code: result.code, stdout: result.stdout }, `why ${dots}`).toEqual({ code: 1, stdout: '' })
      expect(result.stderr).toMatch(new RegExp(`^decision-memory why: no decision was imported from ${dots.replace(/[.]/g, '\\.')} or is scoped to its path`))
    }
    const fromEnvironment = await runCli(['why', '--point', 'tier'], { env: { ...env, DECISION_MEMORY_USER: '..' } })
    expect(fromEnvironment.code).toBe(1)
    expect(fromEnvironment.stderr).toBe('decision-memory why: DECISION_MEMORY_USER (the default of --user): must not be "." or ".." (a URL drops them from its path)\n')
  }, SPAWNS_MANY)
})

describe('--json output and an export, of text holding C1 controls', () => {
  it('writes them as \\u escapes, which a terminal does not run, parsing to the same text', async () => {
    const label = 'Tier \u009b2J\u009d0;pwned\u0007M'
    // Five, so that `why` recommends it (and prints the label) rather than the static default.
    await post('/v1/observations', [1, 2, 3, 4, 5].map((n) => ({ ...observation('c1-user'), decision_id: `c1-${n}`, all_options: ['Tier S', label], user_choice: label, point: 'c1-point' })))
    const env = { DECISION_MEMORY_URL: service.url }
    const outputs = [
      await runCli(['preferences', '--user', 'c1-user', '--json'], { env }),
      await runCli(['why', '--point', 'c1-point', '--user', 'c1-user', '--json'], { env }),
      await runCli(['export', '--user', 'c1-user'], { env }),
    ]
    for (const output of outputs) {
      expect(output.code).toBe(0)
      expect(output.stdout).toContain('\\u009b2J\\u009d0;pwned\\u0007M')
      expect(output.stdout).not.toMatch(/[\u007f-\u009f]/)
    }
    expect(JSON.parse(outputs[0]?.stdout ?? '').points[0].majority).toBe(label)
    expect(JSON.parse(outputs[1]?.stdout ?? '').recommendation.recommended).toBe(label)
    const lines = (outputs[2]?.stdout ?? '').trimEnd().split('\n').map((line) => JSON.parse(line))
    expect(lines.filter((l) => l.type === 'observation')).toHaveLength(5)
    expect(JSON.stringify(lines)).toContain(JSON.stringify(label))
  })
})

describe('a flag given empty', () => {
  it('is a usage error whether or not a service runs, and nothing is done', async () => {
    const env = { DECISION_MEMORY_URL: service.url }
    await post('/v1/observations', observation('alice'))
    const folder = tempDir('dm-adr-')
    writeFileSync(join(folder, '0001-use-postgres.md'), '# 1. Use Postgres\n\nDate: 2024-01-10\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n')
    for (const args of [
      ['toggle', '--session', 'empty-data', '--off', '--data', ''],
      ['preferences', '--user', 'alice', '--data', ''],
      ['export', '--user', 'alice', '--data', ''],
      ['forget', '--user', 'alice', '--yes', '--data', ''],
      ['why', '--point', 'tier', '--data', ''],
      ['decay-scan', '--force', '--data', ''],
      ['import-adr', folder, '--data', ''],
      ['import-adr', folder, '--dry-run', '--data', ''],
    ]) {
      const result = await runCli(args, { env })
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/^decision-memory [a-z-]+: --data is empty: give its value, or leave --data out\n/)
      expect(result.stdout).toBe('')
    }
    // Any flag's value: an empty path resolves to the current directory, an empty port is 0.
    const cwd = tempDir('dm-cwd-')
    for (const [args, flag] of [
      [['decay-scan', '--force', '--policy', ''], '--policy'],
      [['serve', '--port', '0', '--policy', ''], '--policy'],
      [['serve', '--port', ''], '--port'],
      [['serve', '--port', '0', '--host', ''], '--host'],
      [['serve', '--port', '0', '--auth', ''], '--auth'],
      [['export', '--user', 'alice', '--out', ''], '--out'],
      [['install-hooks', '--project', ''], '--project'],
      [['install-hooks', '--file='], '--file'],
      [['why', '--point', 'tier', '--as-of', ''], '--as-of'],
    ] as const) {
      const result = await runCli([...args], { env, cwd })
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(new RegExp(`^decision-memory [a-z-]+: ${flag} is empty: give its value, or leave ${flag} out\n`))
      expect(result.stdout).toBe('')
    }
    expect(readdirSync(cwd)).toEqual([])
    // Nothing was done: the session was never toggled (so never started), alice is still there.
    const preferences = await runCli(['preferences', '--user', 'alice', '--json'], { env })
    expect(JSON.parse(preferences.stdout).points).toHaveLength(1)
    // A flip of a session not seen yet starts it off; of one the command had turned off, on.
    const session = await fetch(`${service.url}/v1/sessions/empty-data/personalization`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(((await session.json()) as { personalization: boolean }).personalization).toBe(false)
  }, SPAWNS_MANY)
})

describe('--data naming a file', () => {
  it('is said in one line, by serve and by a command without a service, not as a stack trace from mkdir', async () => {
    const file = join(tempDir('dm-data-file-'), 'notes.txt')
    writeFileSync(file, 'not a store')
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    for (const args of [['serve', '--port', '0', '--data', file], ['serve', '--port', '0', '--data', join(file, 'data')]]) {
      const result = await runCli(args, { env })
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr).toMatch(/^decision-memory [a-z]+: cannot make the store in .*: it, or a folder above it, is a file, not a folder\n$/)
    }
    // A command that makes no store says there is none there, not that it could not make one.
    for (const args of [['preferences', '--user', 'alice', '--data', file], ['export', '--user', 'alice', '--data', file]]) {
      const result = await runCli(args, { env })
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stderr).toBe(`decision-memory ${args[0]}: there is no store in ${file} (--data): it is a file, not a folder: give the data directory of a store\n`)
    }
  })
})

describe('a service URL on a port fetch will not connect to', () => {
  it('is said, by the commands and by the hook (which still spools), rather than "bad port" or "not reachable"', async () => {
    // 6000 is one of the Fetch standard's bad ports: fetch refuses before connecting, so nothing
    // need listen there (a service could, and curl would reach it).
    const spool = join(tempDir('dm-bad-port-'), 'spool.ndjson')
    const env = { DECISION_MEMORY_URL: 'http://127.0.0.1:6000', DECISION_MEMORY_SPOOL: spool }
    const reason = 'port 6000 is one that fetch, the client of the commands and hooks, will not connect to'
    const command = await runCli(['preferences', '--user', 'alice'], { env })
    expect(command.code).toBe(1)
    expect(command.stderr).toContain(`decision-memory preferences: GET http://127.0.0.1:6000/v1/users/alice/preferences: ${reason}`)
    expect(command.stderr).toContain('run the service on another (serve --port, DECISION_MEMORY_PORT)')
    const hook = await runCli(['hook'], { env, input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's-bad-port', cwd: tmpdir() }) })
    expect(hook.code).toBe(0)
    expect(hook.stdout).toBe('')
    expect(hook.stderr).toBe(`decision-memory hook: http://127.0.0.1:6000: ${reason} (a "bad port" of the Fetch standard); run the service on another (serve --port, DECISION_MEMORY_PORT); spooled to ${spool}\n`)
    expect(readFileSync(spool, 'utf8')).toContain('s-bad-port')
  })
})

describe('toggle through the running service, of a session id no event named', () => {
  it('says the toggle started it, and --show reads a setting without starting a session', async () => {
    const env = { DECISION_MEMORY_URL: service.url }
    await post('/v1/sessions', { user: 'erin', session_id: 'erin-1' })
    const shown = await runCli(['toggle', '--session', 'erin-1', '--show'], { env })
    expect(shown).toMatchObject({ code: 0, stdout: 'personalization on for session erin-1 (user erin)\n', stderr: '' })
    const missing = await runCli(['toggle', '--session', 'erin-l', '--user', 'erin', '--show'], { env })
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'decision-memory toggle: no session erin-l of user erin has been seen: is the id right? (--show starts no session)\n' })
    const typo = await runCli(['toggle', '--session', 'erin-l', '--user', 'erin', '--off'], { env })
    expect(typo.code).toBe(0)
    expect(typo.stdout).toBe('personalization off for session erin-l (user erin)\n')
    expect(typo.stderr).toBe(
      "decision-memory toggle: no session erin-l of user erin had been seen, so the toggle started it (it counts among erin's sessions): if the id is mistyped, no session of the agent was changed\n",
    )
    const known = await runCli(['toggle', '--session', 'erin-1', '--off'], { env })
    expect([known.code, known.stderr]).toEqual([0, ''])
  })
})
