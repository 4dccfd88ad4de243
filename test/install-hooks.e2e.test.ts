import { execFile } from 'node:child_process'
import { chmod, cp, lstat, readFile, stat, symlink, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cleanEnv, closedPort, runCli } from './support/processes'
import { tempDir } from './support/temp-dir'

describe('decision-memory install-hooks', () => {
  it('merges into a project settings.json, says what it changed, and is idempotent', async () => {
    const project = tempDir('dm-install-')
    const file = join(project, '.claude', 'settings.json')
    await mkdir(join(project, '.claude'))
    await writeFile(file, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] }, model: 'opus' }))

    const first = await runCli(['install-hooks', '--project', project])
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^added {5}SessionStart: node ".*bin\/decision-memory\.js" hook$/m)
    expect(first.stdout).toMatch(/^added {5}PreToolUse \(matcher AskUserQuestion\)/m)
    expect(first.stdout).toContain(`wrote ${file}`)
    const settings = JSON.parse(await readFile(file, 'utf8'))
    expect(settings.model).toBe('opus')
    expect(settings.hooks.Stop[0].hooks[0].command).toBe('say done')
    expect(settings.hooks.PostToolUse[0].matcher).toBe('AskUserQuestion')

    const again = await runCli(['install-hooks', '--project', project])
    expect(again.stdout).toContain('nothing written')
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(settings)
  })

  it('writes nothing over a settings file that is not JSON', async () => {
    const project = tempDir('dm-install-')
    const file = join(project, 'settings.local.json')
    await writeFile(file, '{ "hooks": ')
    const result = await runCli(['install-hooks', '--file', file])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('not valid JSON')
    expect(await readFile(file, 'utf8')).toBe('{ "hooks": ')
  })

  it('writes nothing over a settings file nested thousands deep, said as its other refusals are, not thrown with a stack', async () => {
    const project = tempDir('dm-install-')
    const file = join(project, 'settings.local.json')
    const deep = `{"model": "opus", "permissions": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`
    await writeFile(file, deep)
    const result = await runCli(['install-hooks', '--file', file])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      `decision-memory install-hooks: ${file}: permissions nests arrays and objects more than 100 levels deep, more than install-hooks writes back; fix it or paste the README block by hand; nothing written\n`,
    )
    expect(await readFile(file, 'utf8')).toBe(deep)
  })

  it('writes through a settings file that is a symlink (dotfiles), keeping the link', async () => {
    const home = tempDir('dm-install-')
    const kept = join(home, 'dotfiles', 'claude-settings.json')
    await mkdir(join(home, 'dotfiles'))
    await writeFile(kept, JSON.stringify({ model: 'opus' }))
    const link = join(home, '.claude', 'settings.json')
    await mkdir(join(home, '.claude'))
    await symlink(kept, link)
    const result = await runCli(['install-hooks', '--file', link])
    expect(result.code).toBe(0)
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    const settings = JSON.parse(await readFile(kept, 'utf8'))
    expect(settings.model).toBe('opus')
    expect(settings.hooks.PreToolUse[0].matcher).toBe('AskUserQuestion')
  })

  it('creates the file a symlinked settings path points to when it does not exist yet, keeping the link', async () => {
    const home = tempDir('dm-install-')
    await mkdir(join(home, '.claude'))
    const link = join(home, '.claude', 'settings.json')
    // A relative link into a dotfiles folder that has no settings file yet.
    await symlink(join('..', 'dotfiles', 'claude', 'settings.json'), link)
    const result = await runCli(['install-hooks', '--file', link])
    expect(result.code).toBe(0)
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    const settings = JSON.parse(await readFile(join(home, 'dotfiles', 'claude', 'settings.json'), 'utf8'))
    expect(settings.hooks.PreToolUse[0].matcher).toBe('AskUserQuestion')
  })

  it('keeps the permissions of the settings file it rewrites (settings may hold secrets)', async () => {
    const project = tempDir('dm-install-')
    const file = join(project, 'settings.local.json')
    await writeFile(file, JSON.stringify({ env: { SOME_TOKEN: 'secret' } }))
    await chmod(file, 0o600)
    const result = await runCli(['install-hooks', '--file', file])
    expect(result.code).toBe(0)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
  })

  it('refuses a project folder that is not there, or not a folder, and an empty --command, writing nothing', async () => {
    const parent = tempDir('dm-install-')
    const typo = join(parent, 'my-ap')
    const missing = await runCli(['install-hooks', '--project', typo])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe(`decision-memory install-hooks: --project ${typo}: no such folder; give the project's folder\n`)
    expect(missing.stdout).toBe('')
    await expect(stat(typo)).rejects.toThrow()

    const file = join(parent, 'notes.txt')
    await writeFile(file, 'x')
    const notFolder = await runCli(['install-hooks', '--project', file])
    expect(notFolder.code).toBe(1)
    expect(notFolder.stderr).toContain(`--project ${file}: not a folder`)
    expect(notFolder.stderr).not.toMatch(/\n\s+at /)

    const empty = await runCli(['install-hooks', '--project', parent, '--command', ''])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('--command is empty')
    await expect(stat(join(parent, '.claude'))).rejects.toThrow()
  })

  it('writes a command that sh runs as written from a clone whose path holds $HOME, a backtick, a space and quotes', async () => {
    // A checkout at such a path: this one's bin, sources and bundle (their times kept, so that the
    // bin runs the bundle exactly when this checkout's would), and its packages.
    const checkout = fileURLToPath(new URL('..', import.meta.url))
    const clone = join(tempDir('dm-install-'), `it's $HOME a \`pwd\` "clone"`)
    for (const part of ['bin', 'src', 'dist', 'package.json', 'tsconfig.json']) {
      await cp(join(checkout, part), join(clone, part), { recursive: true, preserveTimestamps: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
      })
    }
    await symlink(join(checkout, 'node_modules'), join(clone, 'node_modules'))
    const project = tempDir('dm-install-')
    const installed = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, [join(clone, 'bin', 'decision-memory.js'), 'install-hooks', '--project', project], { env: cleanEnv() }, (error, stdout) =>
        resolve({ code: error === null ? 0 : (error.code as number), stdout }),
      )
    })
    expect(installed.code).toBe(0)
    const settings = JSON.parse(await readFile(join(project, '.claude', 'settings.json'), 'utf8'))
    const commands = ['SessionStart', 'PreToolUse', 'PostToolUse'].map((event) => settings.hooks[event][0].hooks[0].command as string)
    expect(new Set(commands).size).toBe(1)
    const command = commands[0] as string
    expect(command).toBe(`node '${join(clone, 'bin', 'decision-memory.js').replace(/'/g, `'\\''`)}' hook`)

    // Run as Claude Code runs it: the service is down, so the hook spools the event it was given,
    // which shows that sh started this clone's hook with the payload.
    const spool = join(project, 'spool.ndjson')
    const port = await closedPort()
    const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile('sh', ['-c', command], { env: cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${port}`, DECISION_MEMORY_SPOOL: spool }) }, (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number), stderr }),
      )
      child.stdin?.end(JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's-quoted', cwd: project }))
    })
    expect(ran.stderr).not.toContain('Cannot find module')
    expect(ran.code).toBe(0)
    const spooled = (await readFile(spool, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line))
    expect(spooled.map((e) => e.payload.session_id)).toEqual(['s-quoted'])

    // Installed again from there, nothing changes.
    const again = await runCli(['install-hooks', '--project', project, '--command', command])
    expect(again.stdout).toContain('nothing written')
  })
})

