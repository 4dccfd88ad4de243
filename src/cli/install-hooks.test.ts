import { execFileSync, spawnSync } from 'node:child_process'
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BIN, cleanEnv } from '../../test/support/processes'
import { tempDir } from '../../test/support/temp-dir'

/**
 * The failures a settings file meets in the field, which a test cannot cause for real on every
 * machine (root may write anywhere): a file that cannot be replaced (immutable, `chattr +i`; a
 * bind mount, EBUSY) makes the rename fail; a full disk makes the write fail halfway.
 */
const faults = vi.hoisted(() => ({ rename: undefined as string | undefined, writeHalf: undefined as string | undefined, steps: [] as string[] }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const errno = (code: string) => Object.assign(new Error(`${code}: simulated`), { code })
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args)
      const writeFile = handle.writeFile.bind(handle)
      const sync = handle.sync.bind(handle)
      return Object.assign(handle, {
        writeFile: async (data: string) => {
          if (faults.writeHalf === undefined) return writeFile(data)
          await writeFile(data.slice(0, data.length / 2))
          throw errno(faults.writeHalf)
        },
        sync: async () => {
          faults.steps.push('sync')
          return sync()
        },
      })
    },
    rename: async (from: string, to: string) => {
      faults.steps.push('rename')
      if (faults.rename !== undefined) throw errno(faults.rename)
      return real.rename(from, to)
    },
  }
})

const { defaultHookCommand, INSTALL_HOOKS_HELP, installHooksCommand, missingOfCommand, runsRecordSetAside, shownCommand } = await import('./install-hooks')
const { UsageError } = await import('./options')
const { shellWord } = await import('../config/bin-path')
const { mergeHooks } = await import('../integrations/claude-code-settings')

let stderr: string
let stdout: string
beforeEach(() => {
  stderr = ''
  stdout = ''
  faults.rename = undefined
  faults.writeHalf = undefined
  faults.steps = []
  // The user's settings are read beside those written (noteHooksBeside): never this machine's.
  vi.stubEnv('HOME', tempDir('dm-install-home-'))
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk)
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk)
    return true
  })
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

async function settingsFolder(): Promise<{ folder: string; file: string; before: string }> {
  const folder = tempDir('dm-install-fail-')
  const file = join(folder, 'settings.json')
  const before = JSON.stringify({ model: 'opus', env: { TOKEN: 'secret' } }, null, 2)
  await writeFile(file, before)
  return { folder, file, before }
}

describe('install-hooks --file in a folder that is not there', () => {
  it('makes the settings folder (.claude) of an existing folder, but refuses a mistyped project folder above it, writing nothing', async () => {
    const parent = tempDir('dm-install-')
    const typo = join(parent, 'my-ap', '.claude', 'settings.local.json')
    for (const args of [['--file', typo], ['--file', typo, '--dry-run']]) {
      stderr = ''
      expect(await installHooksCommand(args)).toBe(1)
      expect(stderr).toBe(`decision-memory install-hooks: --file ${typo}: ${join(parent, 'my-ap')} is no such folder; give a settings file in an existing folder\n`)
      expect(stdout).toBe('')
      expect(await readdir(parent)).toEqual([])
    }
    const file = join(parent, '.claude', 'settings.local.json')
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).hooks)).toEqual(['SessionStart', 'PreToolUse', 'PostToolUse'])
  })
})

describe('install-hooks --file given a device or a named pipe', () => {
  it('refuses /dev/null, saying the settings on stdout are --dry-run\'s, rather than read it and write a file over it', async () => {
    // Written, /dev/null was renamed over by the settings file: as root, the system's made a file.
    // Only --dry-run here, which reads it and writes nothing, so that no version may do that again.
    expect(await installHooksCommand(['--file', '/dev/null', '--dry-run'])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: cannot use /dev/null: a device, not a settings file: give --file a settings file (the settings on stdout are --dry-run's); nothing written\n`,
    )
    expect(stdout).toBe('')
  })
  it('refuses a named pipe (/dev/stdout in a pipeline), rather than wait for what nobody writes to it', async () => {
    const fifo = join(tempDir('dm-install-fifo-'), 'settings.json')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    // Run apart, killed should it wait: the read of the pipe held the command until then.
    const run = spawnSync(process.execPath, [BIN, 'install-hooks', '--file', fifo], { env: cleanEnv({ HOME: tempDir('dm-install-home-') }), timeout: 20_000, encoding: 'utf8' })
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({
      status: 1,
      stderr: `decision-memory install-hooks: cannot use ${fifo}: a named pipe (FIFO), not a settings file: give --file a settings file (the settings on stdout are --dry-run's); nothing written\n`,
      stdout: '',
    })
    expect((await stat(fifo)).isFIFO()).toBe(true)
  })
  it('asks a project\'s settings file that is a named pipe to be made a file, not for --file, which was not given', async () => {
    const project = tempDir('dm-install-fifo-project-')
    await mkdir(join(project, '.claude'))
    const fifo = join(project, '.claude', 'settings.json')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const run = spawnSync(process.execPath, [BIN, 'install-hooks', '--project', project], { env: cleanEnv({ HOME: tempDir('dm-install-home-') }), timeout: 20_000, encoding: 'utf8' })
    expect({ status: run.status, stderr: run.stderr }).toEqual({
      status: 1,
      stderr: `decision-memory install-hooks: cannot use ${fifo}: a named pipe (FIFO), not a settings file: make it a settings file, or move it aside (the settings on stdout are --dry-run's); nothing written\n`,
    })
  })
})

describe('install-hooks --file given a folder', () => {
  it('says in words which settings file to give instead, the code kept, and writes nothing', async () => {
    const project = tempDir('dm-install-folder-')
    const settings = join(project, '.claude')
    await mkdir(settings)
    expect(await installHooksCommand(['--file', settings])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: cannot read ${settings}: a folder: give --file a settings file in it, such as ${join(settings, 'settings.json')} (EISDIR); nothing written\n`,
    )
    // A project's folder: its settings file is in its .claude, which --project writes.
    stderr = ''
    expect(await installHooksCommand(['--file', project, '--dry-run'])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: cannot read ${project}: a folder: give --file a settings file, such as ${join(settings, 'settings.json')}, ` +
        `or --project ${project} to write that one (EISDIR); nothing written\n`,
    )
    expect(stdout).toBe('')
    expect(await readdir(settings)).toEqual([])
  })
  it('says a settings file that is a folder is one, not to give it as a project, by --project and by --file', async () => {
    // A version before this named `settings.json/.claude/settings.json`, and `--project` with the settings file.
    const project = tempDir('dm-install-folder-')
    const settings = join(project, '.claude', 'settings.json')
    await mkdir(settings, { recursive: true })
    const said = `decision-memory install-hooks: cannot read ${settings}: a folder where the settings file would be: move it aside, or give --file another settings file (EISDIR); nothing written\n`
    expect(await installHooksCommand(['--project', project])).toBe(1)
    expect(stderr).toBe(said)
    stderr = ''
    expect(await installHooksCommand(['--file', settings, '--dry-run'])).toBe(1)
    expect(stderr).toBe(said)
    expect(stdout).toBe('')
    expect(await readdir(settings)).toEqual([])
  })
})

describe('install-hooks when the settings file cannot be written', () => {
  for (const [what, fault] of [
    ['the rename over it fails (an immutable file, a bind mount)', () => (faults.rename = 'EBUSY')],
    ['the disk fills halfway through the write', () => (faults.writeHalf = 'ENOSPC')],
  ] as const) {
    it(`leaves the settings as they were and nothing beside them when ${what}`, async () => {
      const { folder, file, before } = await settingsFolder()
      fault()
      const code = await installHooksCommand(['--file', file])
      expect(code).toBe(1)
      expect(stderr).toMatch(new RegExp(`^decision-memory install-hooks: cannot write ${file}: (EBUSY|ENOSPC); it is as it was\\n$`))
      expect(await readFile(file, 'utf8')).toBe(before)
      expect(await readdir(folder)).toEqual(['settings.json'])
      // Nothing said to be added: nothing was.
      expect(stdout).toBe('')
    })
  }

  it('prints only the settings it would write on stdout with --dry-run, JSON a program can parse, and what would change on stderr', async () => {
    const { file, before } = await settingsFolder()
    expect(await installHooksCommand(['--file', file, '--dry-run'])).toBe(0)
    const settings = JSON.parse(stdout) as { model: string; hooks: Record<string, unknown> }
    expect(settings.model).toBe('opus')
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'PreToolUse', 'PostToolUse'])
    expect(stderr).toMatch(/^added +SessionStart[\s\S]*\n.*settings\.json would read:\n$/)
    expect(await readFile(file, 'utf8')).toBe(before)
  })

  it('puts the new settings on disk before they replace the old ones, so a crash leaves one or the other whole', async () => {
    const { folder, file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stdout).toMatch(/^added +SessionStart[\s\S]*\nwrote .*settings\.json\n$/)
    expect(faults.steps).toEqual(['sync', 'rename'])
    expect(JSON.parse(await readFile(file, 'utf8')).model).toBe('opus')
    expect(await readdir(folder)).toEqual(['settings.json'])
  })
})

describe('install-hooks --command with hook --record-set-aside', () => {
  it('is a usage error naming why, nothing written: run as a hook, that command reads no payload', async () => {
    // Written into every hook, it recorded nothing of any question, and without --user exited 2,
    // which blocks the question at PreToolUse.
    const { file, before } = await settingsFolder()
    const bin = shellWord(join(tempDir('dm-bin-'), 'decision-memory.js'))
    for (const command of [`node ${bin} hook --record-set-aside --user alice`, `node ${bin} hook --user alice '--record-set-aside'`, `node ${bin} hook --record-set-aside=1`]) {
      const refused = installHooksCommand(['--file', file, '--command', command])
      await expect(refused, command).rejects.toThrow(UsageError)
      await expect(refused, command).rejects.toThrow(
        '--command runs hook --record-set-aside, a command you run by hand, which reads no payload: as a hook it would record no question, answer or session, ' +
          'and exit as that command does (2 for a usage mistake, which blocks the question at PreToolUse); give the hook command without it',
      )
    }
    expect(await readFile(file, 'utf8')).toBe(before)
    expect(stdout).toBe('')
  })

  it('writes nothing where an entry of the hook already runs it, which would be moved to every event with its flags', async () => {
    // An earlier entry's flags are kept when it is moved (movedCommand): `hook --record-set-aside
    // --user alice` at PostToolUse was written at all three events, said added and updated, exit 0.
    const { file } = await settingsFolder()
    const earlier = 'node "/old/checkout/bin/decision-memory.js" hook --record-set-aside --user alice'
    const before = JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: earlier }] }] } })
    await writeFile(file, before)
    for (const args of [['--file', file], ['--file', file, '--dry-run'], ['--file', file, '--guard']]) {
      stderr = ''
      expect(await installHooksCommand(args), args.join(' ')).toBe(1)
      expect(stderr, args.join(' ')).toMatch(
        new RegExp(`^decision-memory install-hooks: .*: decision-memory's hook at SessionStart, PreToolUse, PostToolUse would run node ".*" hook --record-set-aside --user alice, the flags of an entry of it there kept: hook --record-set-aside is a command you run by hand, .*; take --record-set-aside out of that entry, .*; nothing written\n$`),
      )
    }
    expect(stdout).toBe('')
    expect(await readFile(file, 'utf8')).toBe(before)
    // The hook command given whole, with the flags meant, is written at every event instead.
    expect(await installHooksCommand(['--file', file, '--command', `${defaultHookCommand()} --user alice`])).toBe(0)
    expect(await readFile(file, 'utf8')).not.toContain('--record-set-aside')
  })

  it('reads the flag among the words after hook alone', () => {
    expect(runsRecordSetAside('node "/opt/dm/bin/decision-memory.js" hook --record-set-aside --user a')).toBe(true)
    expect(runsRecordSetAside('decision-memory hook --user a; echo --record-set-aside')).toBe(false)
    expect(runsRecordSetAside('decision-memory hook --record-set-asides')).toBe(false)
    expect(runsRecordSetAside('/usr/local/bin/dm-wrapper.sh --record-set-aside')).toBe(false)
    expect(runsRecordSetAside(defaultHookCommand())).toBe(false)
  })

  it('reads those words as sh gives them to hook: the text inside another word, or after the command ends, is no flag', () => {
    // Read as text, a quoted --user, bash's $0 and a second line were refused (exit 2), and a
    // --spool with a `;` in quotes hid the flag after it, which was written into every hook.
    const bin = 'node "/opt/dm/bin/decision-memory.js"'
    for (const command of [`${bin} hook --user 'alice --record-set-aside'`, `bash -lc '${bin} hook' --record-set-aside`, `bash -lc "${bin} hook" --record-set-aside`, `${bin} hook --user a\necho --record-set-aside`, `${bin} hook --spool /tmp/--record-set-aside/spool`]) {
      expect(runsRecordSetAside(command), command).toBe(false)
    }
    for (const command of [`${bin} hook --spool 'a;b' --record-set-aside --user a`, `${bin} hook --user "$U" "--record-set-aside"`, `bash -lc '${bin} hook --record-set-aside --user a'`, `${bin} hook --user a -- --record-set-aside`]) {
      expect(runsRecordSetAside(command), command).toBe(true)
    }
  })
})

describe('install-hooks --file -', () => {
  it('is a usage error pointing to --dry-run, not a settings file named - made in the current directory', async () => {
    // With --dry-run, so that nothing is written here whatever the outcome.
    const refused = installHooksCommand(['--file', '-', '--dry-run'])
    await expect(refused).rejects.toThrow(UsageError)
    await expect(refused).rejects.toThrow('--file -: install-hooks writes a settings file; for the settings on stdout, use --dry-run')
    expect(stdout).toBe('')
  })
})

describe('the hook command of a checkout', () => {
  it('keeps a plain path in double quotes, as earlier installs wrote it, so that they change nothing', () => {
    expect(defaultHookCommand('/home/dev/decision memory/bin/decision-memory.js')).toBe('node "/home/dev/decision memory/bin/decision-memory.js" hook')
  })

  it('puts a path sh would expand in double quotes ($, backtick, quote, backslash) in single quotes', () => {
    expect(defaultHookCommand('/home/$USER/bin/decision-memory.js')).toBe(`node '/home/$USER/bin/decision-memory.js' hook`)
    expect(defaultHookCommand("/it's/`x`/a\\b/bin/decision-memory.js")).toBe(`node '/it'\\''s/\`x\`/a\\b/bin/decision-memory.js' hook`)
  })

  it('replaces the command of an earlier install that sh broke, rather than add a second hook', () => {
    const broken = 'node "/home/$USER/bin/decision-memory.js" hook'
    const { changes } = mergeHooks(mergeHooks({}, broken).settings, defaultHookCommand('/home/$USER/bin/decision-memory.js'))
    expect(changes.map((c) => c.action)).toEqual(['updated', 'updated', 'updated'])
  })
})

describe('install-hooks and a token in a hook command', () => {
  it('shows a command with its written token hidden, quoted or not, and one read when the hook runs as it is', () => {
    expect(shownCommand('DECISION_MEMORY_TOKEN=abc node x hook')).toBe('DECISION_MEMORY_TOKEN=… node x hook')
    expect(shownCommand(`env DECISION_MEMORY_USER=alice DECISION_MEMORY_TOKEN='a b'"c" node x hook`)).toBe('env DECISION_MEMORY_USER=alice DECISION_MEMORY_TOKEN=… node x hook')
    expect(shownCommand('DECISION_MEMORY_TOKEN=a\\ b node x hook')).toBe('DECISION_MEMORY_TOKEN=… node x hook')
    // bash's ANSI-C quoting is written in the file as much as '…' is.
    expect(shownCommand("DECISION_MEMORY_TOKEN=$'a b' node x hook")).toBe('DECISION_MEMORY_TOKEN=… node x hook')
    // The value ends where sh's word does: what follows it is shown as written.
    expect(shownCommand('export DECISION_MEMORY_TOKEN=abc; node x hook')).toBe('export DECISION_MEMORY_TOKEN=…; node x hook')
    expect(shownCommand('DECISION_MEMORY_TOKEN=abc&&node x hook')).toBe('DECISION_MEMORY_TOKEN=…&&node x hook')
    for (const read of ['DECISION_MEMORY_TOKEN=$(cat ~/.dm-token) node x hook', 'DECISION_MEMORY_TOKEN="$DM" node x hook', 'DECISION_MEMORY_TOKEN=${DM} node x hook']) {
      expect(shownCommand(read)).toBe(read)
    }
  })

  it('takes a default written into the command, ${T:-abc}, for a written token, and a default read when the hook runs for none', async () => {
    // An alternative, ${T:+abc}, is written in the file too: it is the token whenever T is set.
    for (const written of ['${T:-abc}', '${T-abc}', '${T:=abc}', '"${T:-abc}"', "${T:-'a b'}", '${T:-a b}', '${DM_TOKEN:-abc}x', '${T:+abc}', '${T+abc}']) {
      expect(shownCommand(`DECISION_MEMORY_TOKEN=${written} node x hook`), written).toBe('DECISION_MEMORY_TOKEN=… node x hook')
    }
    for (const read of ['${T}', '$T', '"$T"', '$(cat ~/.dm-token)', '${T:-}', '${T-""}', '${T:-$U}', '"${T:-$(cat ~/.dm-token)}"', '${#T}', '${T:+$U}', '${T:?unset}']) {
      const command = `DECISION_MEMORY_TOKEN=${read} node x hook`
      expect(shownCommand(command), read).toBe(command)
    }
    const { file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file, '--command', `DECISION_MEMORY_TOKEN=\${DM_TOKEN:-alice-token-0123} ${defaultHookCommand()}`])).toBe(0)
    expect(stderr).toContain(`a hook command in ${file} holds DECISION_MEMORY_TOKEN`)
    expect(stdout).toContain(`added     SessionStart: DECISION_MEMORY_TOKEN=… ${defaultHookCommand()}`)
    expect(stdout + stderr).not.toContain('alice-token')
    const { file: read } = await settingsFolder()
    stderr = ''
    expect(await installHooksCommand(['--file', read, '--command', `DECISION_MEMORY_TOKEN=\${DM_TOKEN:-$(cat ~/.dm-token)} ${defaultHookCommand()}`])).toBe(0)
    expect(stderr).toBe('')
  })

  it('warns that hooks written to a file that sets disableAllHooks never run, and says nothing of it otherwise', async () => {
    const { file } = await settingsFolder()
    await writeFile(file, JSON.stringify({ disableAllHooks: true, model: 'opus' }))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stdout).toContain('added     PreToolUse (matcher AskUserQuestion)')
    expect(stderr).toBe(`decision-memory install-hooks: warning: ${file} sets "disableAllHooks": true, so Claude Code runs no hooks, these included; remove it (or set it to false) for them to run\n`)
    // Kept as the user set it: only said. Run again, nothing to write, it is said again.
    expect(JSON.parse(await readFile(file, 'utf8')).disableAllHooks).toBe(true)
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toContain('"disableAllHooks": true')
    for (const value of [false, 'true']) {
      const { file: other } = await settingsFolder()
      await writeFile(other, JSON.stringify({ disableAllHooks: value }))
      stderr = ''
      expect(await installHooksCommand(['--file', other])).toBe(0)
      expect(stderr, String(value)).toBe('')
    }
  })

  it('warns of a hook entry whose timeout is not above the hook\'s budget, which Claude Code would kill before it spools, and keeps it', async () => {
    const { file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file])).toBe(0)
    const settings = JSON.parse(await readFile(file, 'utf8'))
    settings.hooks.PostToolUse[0].hooks[0].timeout = 1
    settings.hooks.PreToolUse[0].hooks[0].timeout = 3
    // A session start is a capture, kept beside the spool as it is sent: the capture's words.
    settings.hooks.SessionStart[0].hooks[0].timeout = 2
    // Quoted, as sh hands it to the hook: a version before this took it for the default budget.
    settings.hooks.PreToolUse[0].hooks[0].command += " --budget '3000'"
    await writeFile(file, JSON.stringify(settings))
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr.split('\n').filter((l) => l.includes('"timeout"'))).toEqual([
      `decision-memory install-hooks: warning: the SessionStart hook in ${file} has a "timeout" of 2 s, not above its budget (2 s): Claude Code ends it before it gives up on a slow or stopped service: a capture it had written beside the spool waits for the hook's next call, but one it had not yet (node still starting, on a loaded machine) is lost; raise it (a new entry has 5)`,
      `decision-memory install-hooks: warning: the PreToolUse hook in ${file} has a "timeout" of 3 s, not above its budget (3 s): Claude Code ends it before it gives up on a slow or stopped service: the question is asked as the agent wrote it, and an answer the service gave within the budget is recorded as given all the same; raise it (a new entry has 5)`,
      `decision-memory install-hooks: warning: the PostToolUse hook in ${file} has a "timeout" of 1 s, not above its budget (2 s): Claude Code ends it before it gives up on a slow or stopped service: a capture it had written beside the spool waits for the hook's next call, but one it had not yet (node still starting, on a loaded machine) is lost; raise it (a new entry has 5)`,
    ])
    // Kept as the user set it: only said.
    expect(JSON.parse(await readFile(file, 'utf8')).hooks.PostToolUse[0].hooks[0].timeout).toBe(1)
    // A budget of 5 s or more is not met by a new entry's 5 s: the entry is to be raised above the budget itself.
    // A version before this said "raise it (a new entry has 5)" of an entry of 5 s.
    const { file: long } = await settingsFolder()
    expect(await installHooksCommand(['--file', long])).toBe(0)
    const longer = JSON.parse(await readFile(long, 'utf8'))
    longer.hooks.PostToolUse[0].hooks[0].command += ' --budget 8000'
    await writeFile(long, JSON.stringify(longer))
    stderr = ''
    expect(await installHooksCommand(['--file', long])).toBe(0)
    expect(stderr.split('\n').filter((l) => l.includes('"timeout"'))).toEqual([
      `decision-memory install-hooks: warning: the PostToolUse hook in ${long} has a "timeout" of 5 s, not above its budget (8 s): Claude Code ends it before it gives up on a slow or stopped service: a capture it had written beside the spool waits for the hook's next call, but one it had not yet (node still starting, on a loaded machine) is lost; raise it above 8 s, or lower --budget`,
    ])
    // Hooks added beside an entry whose flags need longer than its timeout are given what they need: warned of
    // is that entry alone, the user's, not the ones just written (a version before this gave them 5 s or its own).
    const { file: beside } = await settingsFolder()
    const own = `${defaultHookCommand()} --budget 8000`
    await writeFile(beside, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: own, timeout: 3 }] }] } }))
    stderr = ''
    expect(await installHooksCommand(['--file', beside])).toBe(0)
    expect(stderr.split('\n').filter((l) => l.includes('"timeout"')).map((l) => /the (\w+) hook/.exec(l)?.[1])).toEqual(['PostToolUse'])
    const added = JSON.parse(await readFile(beside, 'utf8')).hooks
    expect([added.SessionStart[0].hooks[0], added.PreToolUse[0].hooks[0]]).toEqual([
      { type: 'command', command: own, timeout: 9 },
      { type: 'command', command: own, timeout: 9 },
    ])
    // A budget the hook refuses (over a minute, 0, not decimal) is not judged, as the guard's --timeout: the hook
    // says its flag mistake and spools at its default. A version before this said 70000 a budget of 70 s.
    for (const budget of ['70000', '60000.5', '0', '0.0', '3e3', '0x10']) {
      const { file: refused } = await settingsFolder()
      expect(await installHooksCommand(['--file', refused])).toBe(0)
      const written = JSON.parse(await readFile(refused, 'utf8'))
      written.hooks.PostToolUse[0].hooks[0].command += ` --budget ${budget}`
      written.hooks.PostToolUse[0].hooks[0].timeout = 60
      await writeFile(refused, JSON.stringify(written))
      stderr = ''
      expect(await installHooksCommand(['--file', refused])).toBe(0)
      expect(stderr, budget).not.toContain('"timeout"')
    }
    // The default timeout, and one above the budget, say nothing.
    const { file: other } = await settingsFolder()
    expect(await installHooksCommand(['--file', other])).toBe(0)
    stderr = ''
    expect(await installHooksCommand(['--file', other])).toBe(0)
    expect(stderr).not.toContain('"timeout"')
  })

  it('warns of a guard entry whose timeout is not above twice its --timeout and its start, which Claude Code would end first and let the command run, and keeps it', async () => {
    const { file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    const settings = JSON.parse(await readFile(file, 'utf8'))
    const guard = settings.hooks.PreToolUse.find((g: any) => g.matcher === 'Bash|PowerShell').hooks[0]
    // A timeout is a non-blocking error (hooks reference): the guard waits up to 3 s for the payload, then as long for the service.
    guard.command += ' --fail-closed --timeout 3000'
    await writeFile(file, JSON.stringify(settings))
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr.split('\n').filter((l) => l.includes('guard ('))).toEqual([
      `decision-memory install-hooks: warning: the guard (matcher Bash|PowerShell) in ${file} has a "timeout" of 5 s, not above what the guard may take (6.5 s: its --timeout of 3 s for the payload, as long again for the service, and 0.5 s to start): ` +
        'when the service is that slow Claude Code ends the guard first and the command runs, --fail-closed or not; raise the "timeout" or lower --timeout',
    ])
    // Kept as the user set it: only said. The flag is read as sh hands it to the guard and the guard reads it (quoted, `=`);
    // the default, 1000 ms, and 2000 ms (4.5 s in all) under the entry's 5 s say nothing, nor a value the guard refuses (it exits at once);
    // 3e3, not decimal digits, is read as the guard still reads it, 3000 ms.
    expect(JSON.parse(await readFile(file, 'utf8')).hooks.PreToolUse.find((g: any) => g.matcher === 'Bash|PowerShell').hooks[0].command).toContain('--timeout 3000')
    const cases = [
      [' --timeout=3000', true],
      [" --timeout '3000'", true],
      [' --timeout="3000"', true],
      [' --timeout 3e3', true],
      [' --timeout 2500', true],
      ['', false],
      [' --timeout 2000', false],
      [' --timeout soon', false],
      [' -- --timeout 9000', false],
      [' > /dev/null; echo --timeout 9000', false],
    ] as const
    for (const [flags, warned] of cases) {
      const { file: other } = await settingsFolder()
      expect(await installHooksCommand(['--file', other, '--guard'])).toBe(0)
      const written = JSON.parse(await readFile(other, 'utf8'))
      written.hooks.PreToolUse.find((g: any) => g.matcher === 'Bash|PowerShell').hooks[0].command += flags
      await writeFile(other, JSON.stringify(written))
      stderr = ''
      expect(await installHooksCommand(['--file', other, '--guard'])).toBe(0)
      expect(stderr.includes('guard ('), flags).toBe(warned)
    }
    // Two entries, one a group of its own for each tool (as an install of before on Bash alone leaves them), are told
    // apart by their matcher: a version before this said the same line twice.
    const { file: two } = await settingsFolder()
    const shell = (matcher: string) => ({ matcher, hooks: [{ type: 'command', command: `${defaultHookCommand().replace(/hook$/, 'guard')} --timeout 3000`, timeout: 5 }] })
    await writeFile(two, JSON.stringify({ hooks: { PreToolUse: [shell('Bash'), shell('PowerShell')] } }))
    stderr = ''
    expect(await installHooksCommand(['--file', two, '--guard'])).toBe(0)
    expect(stderr.split('\n').filter((l) => l.includes('"timeout"')).map((l) => /the guard \(matcher \w+\) in/.exec(l)?.[0])).toEqual([
      'the guard (matcher Bash) in',
      'the guard (matcher PowerShell) in',
    ])
    // Beside a guard of before on Bash alone whose --timeout needs more than its timeout, the PowerShell one added is
    // given what it needs (7 s: 6.5 s and a second's margin, whole seconds), and only the user's own is warned of.
    const { file: one } = await settingsFolder()
    await writeFile(one, JSON.stringify({ hooks: { PreToolUse: [shell('Bash')] } }))
    stderr = ''
    expect(await installHooksCommand(['--file', one, '--guard'])).toBe(0)
    expect(stderr.split('\n').filter((l) => l.includes('"timeout"')).map((l) => /the guard \(matcher \w+\) in/.exec(l)?.[0])).toEqual(['the guard (matcher Bash) in'])
    expect(JSON.parse(await readFile(one, 'utf8')).hooks.PreToolUse.find((g: any) => g.matcher === 'PowerShell').hooks[0].timeout).toBe(7)
  })

  it('says on stderr that the file holds DECISION_MEMORY_TOKEN, without repeating the token, and nothing otherwise', async () => {
    const { file } = await settingsFolder()
    const command = `DECISION_MEMORY_TOKEN=alice-token-0123456789abcdef ${defaultHookCommand()}`
    expect(await installHooksCommand(['--file', file, '--command', command])).toBe(0)
    expect(stderr).toContain(`a hook command in ${file} holds DECISION_MEMORY_TOKEN`)
    expect(stderr).not.toContain('alice-token')
    // Nor do the lines that say what changed repeat it; the file holds it as written.
    expect(stdout).toContain(`added     SessionStart: DECISION_MEMORY_TOKEN=… ${defaultHookCommand()}`)
    expect(stdout).not.toContain('alice-token')
    expect(await readFile(file, 'utf8')).toContain(JSON.stringify(command))
    // Run again without --command: the earlier entry's variable is kept, and so is the warning.
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toContain('holds DECISION_MEMORY_TOKEN')
    const { file: plain } = await settingsFolder()
    stderr = ''
    expect(await installHooksCommand(['--file', plain])).toBe(0)
    expect(stderr).toBe('')
    // A value read when the hook runs holds no token; a dry run says what the file would hold.
    const { file: read } = await settingsFolder()
    expect(await installHooksCommand(['--file', read, '--command', `DECISION_MEMORY_TOKEN=$(cat ~/.dm-token) ${defaultHookCommand()}`])).toBe(0)
    expect(stderr).toBe('')
    expect(await installHooksCommand(['--file', read, '--dry-run', '--command', command])).toBe(0)
    expect(stderr).toContain('would hold DECISION_MEMORY_TOKEN')
    expect(stderr).toContain('or keep the hooks in .claude/settings.local.json (--file)')
    // Written to settings.local.json already: the advice to move there is not given.
    const local = join(dirname(read), 'settings.local.json')
    stderr = ''
    expect(await installHooksCommand(['--file', local, '--command', command])).toBe(0)
    expect(stderr).toContain('holds DECISION_MEMORY_TOKEN')
    expect(stderr).not.toContain('settings.local.json (--file)')
  })
})

describe('install-hooks --guard', () => {
  it('adds the guard on Bash and PowerShell with the hooks, only when asked, and refuses a command it cannot tell the guard from', async () => {
    const { file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(await readFile(file, 'utf8')).not.toContain(' guard')
    stdout = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    const guard = defaultHookCommand().replace(/hook$/, 'guard')
    expect(stdout).toContain(`added     PreToolUse (matcher Bash|PowerShell): ${guard}`)
    const settings = JSON.parse(await readFile(file, 'utf8')) as { hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> } }
    expect(settings.hooks.PreToolUse.map((g) => [g.matcher, g.hooks[0]?.command])).toEqual([
      ['AskUserQuestion', defaultHookCommand()],
      ['Bash|PowerShell', guard],
    ])
    stdout = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stdout).toContain('already has every hook; nothing written')
    await expect(installHooksCommand(['--file', file, '--guard', '--command', '/usr/local/bin/dm-wrapper.sh'])).rejects.toThrow(UsageError)
    // An earlier install's variables, kept on the hooks, are the guard's too: it asks the same service.
    const { file: earlier } = await settingsFolder()
    expect(await installHooksCommand(['--file', earlier, '--command', `DECISION_MEMORY_URL=http://127.0.0.1:7421 ${defaultHookCommand()} --user alice`])).toBe(0)
    expect(await installHooksCommand(['--file', earlier, '--guard'])).toBe(0)
    expect(await readFile(earlier, 'utf8')).toContain(JSON.stringify(`DECISION_MEMORY_URL=http://127.0.0.1:7421 ${guard}`))
  })

  it('keeps the variables set before an earlier guard, on Bash and on the PowerShell group it adds, however often it is run', async () => {
    const guard = defaultHookCommand().replace(/hook$/, 'guard')
    const url = 'DECISION_MEMORY_URL=http://host:7420 '
    const earlierGuard = { type: 'command', command: `${url}node '/old/path/bin/decision-memory.js' guard --fail-closed`, timeout: 5 }
    const written = async (file: string) =>
      (JSON.parse(await readFile(file, 'utf8')) as { hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> } }).hooks.PreToolUse.map((g) => [g.matcher, g.hooks[0]?.command])
    // The hooks set none (the guard alone asks that service), or the same (an install of --guard before).
    for (const hookHead of ['', url]) {
      const { file } = await settingsFolder()
      const hook = { type: 'command', command: `${hookHead}node '/old/path/bin/decision-memory.js' hook`, timeout: 5 }
      await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [hook] }, { matcher: 'Bash', hooks: [earlierGuard] }] } }))
      stdout = ''
      stderr = ''
      expect(await installHooksCommand(['--file', file, '--guard']), hookHead).toBe(0)
      expect(stdout, hookHead).toContain(`updated   PreToolUse (matcher Bash): ${url}${guard} --fail-closed\n`)
      expect(stdout, hookHead).toContain(`added     PreToolUse (matcher PowerShell): ${url}${guard} --fail-closed\n`)
      expect(stderr, hookHead).toBe('')
      expect(await written(file), hookHead).toEqual([
        ['AskUserQuestion', `${hookHead}${defaultHookCommand()}`],
        ['Bash', `${url}${guard} --fail-closed`],
        ['PowerShell', `${url}${guard} --fail-closed`],
      ])
      stdout = ''
      expect(await installHooksCommand(['--file', file, '--guard']), hookHead).toBe(0)
      expect(stdout, hookHead).toContain('already has every hook; nothing written')
    }
  })
})

describe('install-hooks without --guard, beside a guard installed before', () => {
  it('says on stderr that the guard still runs as before where the hooks it moved would move it too, and leaves it', async () => {
    const guard = defaultHookCommand().replace(/hook$/, 'guard')
    const { file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    // The README's way to another service: the hooks move to it, the guard, not asked for, stays.
    const url = 'DECISION_MEMORY_URL=http://127.0.0.1:7421'
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--command', `${url} ${defaultHookCommand()}`])).toBe(0)
    expect(stderr).toContain(
      `decision-memory install-hooks: warning: the guard in ${file} (matcher Bash|PowerShell) still runs ${guard}, not as the hooks now run: ` +
        `it asks another service, or runs another clone, than they do, and one that reaches no service lets every command through; ` +
        `run install-hooks again with --guard to move it with them (${url} ${guard})\n`,
    )
    const settings = JSON.parse(await readFile(file, 'utf8')) as { hooks: { PreToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> } }
    expect(settings.hooks.PreToolUse.map((g) => g.hooks[0]?.command)).toEqual([`${url} ${defaultHookCommand()}`, guard])
    // With --guard, it moves, and nothing more is said of it.
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).toBe('')
    expect(await readFile(file, 'utf8')).toContain(JSON.stringify(`${url} ${guard}`))
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe('')
  })

  it('says nothing of a guard whose own variables the hooks do not set again, nor where there is no guard', async () => {
    // A guard that alone asks another service (the hooks set none) is kept so by --guard too.
    const { file } = await settingsFolder()
    const hook = { type: 'command', command: defaultHookCommand(), timeout: 5 }
    const guard = { type: 'command', command: `DECISION_MEMORY_URL=http://host:7420 ${defaultHookCommand().replace(/hook$/, 'guard')} --fail-closed`, timeout: 5 }
    await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [hook] }, { matcher: 'Bash|PowerShell', hooks: [guard] }] } }))
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe('')
    const { file: bare } = await settingsFolder()
    stderr = ''
    expect(await installHooksCommand(['--file', bare, '--command', `DECISION_MEMORY_URL=http://127.0.0.1:7421 ${defaultHookCommand()}`])).toBe(0)
    expect(stderr).toBe('')
  })
})

describe('install-hooks --command', () => {
  it('warns on stderr when the program it runs, or the script given to node, is not there, and writes it all the same', async () => {
    const { file } = await settingsFolder()
    expect(await installHooksCommand(['--file', file, '--command', 'node "/no/such/clone/bin/decision-memory.js" hook'])).toBe(0)
    expect(stderr).toBe('decision-memory install-hooks: warning: --command: /no/such/clone/bin/decision-memory.js does not exist; the hooks would fail on every call until it does\n')
    expect(await readFile(file, 'utf8')).toContain('/no/such/clone/bin/decision-memory.js')
    for (const [command, missing] of [
      ['DECISION_MEMORY_USER=alice nodee /x hook', 'nodee is not on this PATH'],
      ['/no/such/decision-memory hook', '/no/such/decision-memory does not exist'],
    ] as const) {
      stderr = ''
      expect(await installHooksCommand(['--file', file, '--dry-run', '--command', command])).toBe(0)
      expect(stderr, command).toContain(`warning: --command: ${missing};`)
    }
  })

  it('warns that a command running no "decision-memory … hook", a wrapper script, is not known as ours by a later install without it, which adds its own beside it', async () => {
    const { file } = await settingsFolder()
    const wrapper = 'node x.js hook'
    expect(await installHooksCommand(['--file', file, '--command', wrapper])).toBe(0)
    expect(stderr).toContain('warning: --command runs no "decision-memory … hook" (a wrapper script?): an install-hooks run later without this same --command will not know these entries')
    // What it warns of: a later install without it adds its hooks beside the wrapper's, both run.
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    const hooks = JSON.parse(await readFile(file, 'utf8')).hooks
    expect(hooks.PreToolUse.flatMap((g: { hooks: Array<{ command: string }> }) => g.hooks.map((h) => h.command))).toEqual([wrapper, defaultHookCommand()])
    expect(stderr).not.toContain('runs no "decision-memory')
  })

  it('says nothing of a command whose parts are there, or cannot be known before the hook runs', async () => {
    const { file } = await settingsFolder()
    for (const command of [defaultHookCommand(), `DECISION_MEMORY_USER=alice ${defaultHookCommand()}`, 'node "$HOME/dm/bin/decision-memory.js" hook', 'cd /no/such && ./bin/decision-memory.js hook', 'npx decision-memory hook']) {
      stderr = ''
      expect(await installHooksCommand(['--file', file, '--dry-run', '--command', command])).toBe(0)
      expect(stderr, command).not.toContain('warning')
    }
  })
})

describe('install-hooks and a settings file with a byte order mark', () => {
  it('reads it as without one (as Claude Code does), keeps what is in it, and writes it back without one', async () => {
    const { file } = await settingsFolder()
    // As Windows PowerShell 5.1 writes UTF-8 (`Set-Content -Encoding UTF8`), with CRLF line ends.
    await writeFile(file, '\uFEFF{\r\n  "model": "opus"\r\n}\r\n')
    expect(await installHooksCommand(['--file', file])).toBe(0)
    const written = await readFile(file, 'utf8')
    expect(written.startsWith('{')).toBe(true)
    expect(JSON.parse(written)).toMatchObject({ model: 'opus', hooks: { PreToolUse: [{ matcher: 'AskUserQuestion' }] } })
  })
})

describe('install-hooks and a hook of ours in a group that runs for no question', () => {
  it('adds the group that does beside it, keeps it, and says on stderr to remove it, naming its matcher', async () => {
    const { file } = await settingsFolder()
    const command = defaultHookCommand()
    await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout: 5 }] }] } }))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher)).toEqual(['Bash', 'AskUserQuestion'])
    expect(stderr).toBe(
      `decision-memory install-hooks: warning: the PreToolUse hook in ${file} under "matcher": "Bash" never runs for a question (AskUserQuestion), ` +
        'only for the tools that matcher names, starting node at each of their calls for nothing; remove it: the one in a group that runs for AskUserQuestion does its work\n',
    )
    // Said again on the next run, which changes nothing; not once it is gone.
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toContain('under "matcher": "Bash" never runs for a question')
    written.hooks.PreToolUse.shift()
    await writeFile(file, JSON.stringify(written))
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).toBe('')
  })

  it('says our hook under another event (Stop, UserPromptSubmit), where it does nothing, for the user to remove', async () => {
    // The hook sends and keeps nothing of a Stop payload (not for the service): it was left there
    // without a word, starting node at every turn's end.
    const { file } = await settingsFolder()
    const entry = { type: 'command', command: defaultHookCommand(), timeout: 5 }
    await writeFile(file, JSON.stringify({ hooks: { Stop: [{ hooks: [entry] }], UserPromptSubmit: [{ matcher: '', hooks: [{ type: 'command', command: 'echo hi' }, entry] }] } }))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    const tail = 'and starts node for nothing each time its group runs; remove it: the ones at SessionStart, PreToolUse and PostToolUse do its work\n'
    expect(stderr).toBe(
      `decision-memory install-hooks: warning: the hook in ${file} under Stop does nothing there: it neither sends nor keeps a Stop payload, ${tail}` +
        `decision-memory install-hooks: warning: the hook in ${file} under UserPromptSubmit ("matcher": "") does nothing there: it neither sends nor keeps a UserPromptSubmit payload, ${tail}`,
    )
    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.hooks.Stop).toEqual([{ hooks: [entry] }])
  })

  it('says of one under a regex JavaScript cannot read that it runs for no tool, not that it starts node at their calls', async () => {
    // `(Bash` matches no tool (matcherCovers): it was said to start node at each call of the tools it names.
    const { file } = await settingsFolder()
    await writeFile(file, JSON.stringify({ hooks: { PostToolUse: [{ matcher: '(Bash', hooks: [{ type: 'command', command: defaultHookCommand(), timeout: 5 }] }] } }))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe(
      `decision-memory install-hooks: warning: the PostToolUse hook in ${file} under "matcher": "(Bash" never runs for a question (AskUserQuestion), ` +
        'nor for any tool, a regex JavaScript cannot read matching none; remove it: the one in a group that runs for AskUserQuestion does its work\n',
    )
  })

  it('says a guard in a group that runs for no shell command, which --guard adds a group beside, for the user to remove', async () => {
    // Under `"matcher": "AskUserQuestion"` the guard checks no command: the Bash|PowerShell group
    // was added beside it without a word of it.
    const { file } = await settingsFolder()
    const guard = defaultHookCommand().replace(/ hook$/, ' guard')
    await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: guard, timeout: 5 }] }] } }))
    const warning = `decision-memory install-hooks: warning: the guard in ${file} under "matcher": "AskUserQuestion" never runs for a shell command (Bash, PowerShell), only for the tools that matcher names, starting node at each of their calls for nothing; `
    // Without --guard, nothing runs for the shell tools: it says how to get one that does.
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe(`${warning}remove it, and run install-hooks --guard, which adds one in a group that runs for Bash and PowerShell\n`)
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.hooks.PreToolUse.map((g: { matcher: string }) => g.matcher)).toEqual(['AskUserQuestion', 'AskUserQuestion', 'Bash|PowerShell'])
    expect(stderr).toBe(`${warning}remove it: the one in a group that runs for Bash and PowerShell does its work\n`)
    // Not once it is gone; nor of a guard under `*` or `Bash`.
    written.hooks.PreToolUse.shift()
    written.hooks.PreToolUse.push({ matcher: '*', hooks: [{ type: 'command', command: guard, timeout: 5 }] })
    await writeFile(file, JSON.stringify(written))
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).toBe('')
  })

  it('says a guard under another event than PreToolUse, which never denies a command there, for the user to remove', async () => {
    // Under PostToolUse the command has already run; under Stop no command is asked of: the guard
    // answers a PreToolUse payload alone, and lets any other pass at once. Nothing was said of it.
    const { file } = await settingsFolder()
    const guard = defaultHookCommand().replace(/ hook$/, ' guard')
    const entry = { type: 'command', command: guard, timeout: 5 }
    await writeFile(file, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [entry] }], Stop: [{ hooks: [entry] }] } }))
    const said = (where: string) =>
      `decision-memory install-hooks: warning: the guard in ${file} under ${where} never denies a command: the guard answers a PreToolUse payload alone and lets any other pass at once, starting node there for nothing; `
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe(
      `${said('PostToolUse ("matcher": "Bash")')}remove it, and run install-hooks --guard, which adds one under PreToolUse in a group that runs for Bash and PowerShell\n` +
        `${said('Stop')}remove it, and run install-hooks --guard, which adds one under PreToolUse in a group that runs for Bash and PowerShell\n`,
    )
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).toBe(
      `${said('PostToolUse ("matcher": "Bash")')}remove it: the one under PreToolUse in a group that runs for Bash and PowerShell does its work\n` +
        `${said('Stop')}remove it: the one under PreToolUse in a group that runs for Bash and PowerShell does its work\n`,
    )
  })

  it('says of a guard under a regex JavaScript cannot read that it runs for no tool', async () => {
    const { file } = await settingsFolder()
    const guard = defaultHookCommand().replace(/ hook$/, ' guard')
    await writeFile(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: '(Bash', hooks: [{ type: 'command', command: guard, timeout: 5 }] }] } }))
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).toBe(
      `decision-memory install-hooks: warning: the guard in ${file} under "matcher": "(Bash" never runs for a shell command (Bash, PowerShell), ` +
        'nor for any tool, a regex JavaScript cannot read matching none; remove it: the one in a group that runs for Bash and PowerShell does its work\n',
    )
  })

  it('writes nothing beside a hook written without its group, for which Claude Code skips the file, and says how to mend it', async () => {
    // `hooks.SessionStart.0.hooks: Expected array, but received undefined`: Claude Code skipped the
    // file, and install-hooks added its three groups beside it, said added, none of which ran.
    const { file } = await settingsFolder()
    const before = JSON.stringify({ model: 'opus', hooks: { SessionStart: [{ type: 'command', command: 'bash .claude/hooks/setup.sh' }] } })
    await writeFile(file, before)
    expect(await installHooksCommand(['--file', file])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: ${file}: "hooks.SessionStart.0" has no "hooks" list, a hook written without its group: Claude Code skips a settings file with such a group whole ("Files with errors are skipped entirely"), ` +
        'every setting in it, so hooks written there would never run; put the hook inside a group, {"matcher": "", "hooks": [{"type": "command", "command": "…"}]}, or take it out; nothing written\n',
    )
    expect(await readFile(file, 'utf8')).toBe(before)
  })

  it('writes nothing beside a hook entry Claude Code takes for no hook, for which it skips the file, and names it by event and place', async () => {
    // A `"type": "command"` with no command, a bare string in a group's list: left unread, our
    // groups were added beside it, said added, in a file Claude Code does not load.
    const { file } = await settingsFolder()
    for (const [entry, said] of [
      [{ type: 'command', timeout: 5 }, '"hooks.Stop.0.hooks.1" is a command hook with no "command"'],
      ['notify-send done', '"hooks.Stop.0.hooks.1" is a string, not a hook'],
      [{ command: 'notify-send done' }, '"hooks.Stop.0.hooks.1" has no "type"'],
    ] as const) {
      const before = JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }, entry] }] } })
      await writeFile(file, before)
      stderr = ''
      for (const args of [['--file', file], ['--file', file, '--dry-run'], ['--file', file, '--guard']]) {
        expect(await installHooksCommand(args), args.join(' ')).toBe(1)
        expect(stderr, args.join(' ')).toMatch(new RegExp(`^decision-memory install-hooks: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Claude Code skips a settings file with such (a hook|a field) whole .*; nothing written\n$`))
        stderr = ''
      }
      expect(stdout).toBe('')
      expect(await readFile(file, 'utf8')).toBe(before)
    }
    // Our own entry without its type, where install-hooks looks, is given one: mended, not refused.
    await writeFile(file, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ command: defaultHookCommand() }] }] } }))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stdout).toContain('updated   PostToolUse (matcher AskUserQuestion): ')
  })

  it('writes nothing beside a matcher that is not a string, for which Claude Code skips the file, and names it', async () => {
    // Written with our hook under `"matcher": ["Bash"]`, it added the three groups and said the one
    // added "does its work", in a file Claude Code does not load: no hook of it ran.
    const { file } = await settingsFolder()
    const before = JSON.stringify({ hooks: { PreToolUse: [{ matcher: ['Bash'], hooks: [{ type: 'command', command: defaultHookCommand(), timeout: 5 }] }] } })
    await writeFile(file, before)
    expect(await installHooksCommand(['--file', file])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: ${file}: "hooks.PreToolUse.0.matcher" is a list, not a string: Claude Code skips a settings file with such a matcher whole ("Files with errors are skipped entirely"), ` +
        'every hook in it, so hooks written there would never run; make it a string ("Bash", "Edit|Write", "" for every tool) or take it out; nothing written\n',
    )
    expect(await readFile(file, 'utf8')).toBe(before)
  })
})

describe('install-hooks and our hook in two groups that both run for it', () => {
  it('says nothing of one command twice, which Claude Code runs once, and names two commands, each of which runs', async () => {
    const { file } = await settingsFolder()
    const command = defaultHookCommand()
    const twice = (second: string) => ({
      hooks: {
        PreToolUse: [
          { matcher: '*', hooks: [{ type: 'command', command, timeout: 5 }] },
          { matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: second, timeout: 5 }] },
        ],
        PostToolUse: [{ hooks: [{ type: 'command', command, timeout: 5 }] }, { matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: second, timeout: 5 }] }],
      },
    })
    // Identical handlers are deduplicated by Claude Code (hooks reference): no second run to say.
    await writeFile(file, JSON.stringify(twice(command)))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe('')
    // Another --user beside it: both run, and nothing was said of it.
    await writeFile(file, JSON.stringify(twice(`${command} --user alice`)))
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe(
      `decision-memory install-hooks: warning: the PreToolUse hook in ${file} is there with 2 different commands under "matcher": "*" and "AskUserQuestion", and Claude Code runs each (an identical command it runs once): ` +
        'each plans every question, and it is shown as one of them planned it (the same plan for one user and service); remove the one you do not mean\n' +
        `decision-memory install-hooks: warning: the PostToolUse hook in ${file} is there with 2 different commands under "matcher": none and "AskUserQuestion", and Claude Code runs each (an identical command it runs once): ` +
        'each records every answer: once in all for one user and service (an answer is stored once, by its tool_use_id), once for each where their --user or service differs; remove the one you do not mean\n',
    )
  })
})

describe('install-hooks and our hook with another user at some of its events', () => {
  // `--user alice` under "*" at SessionStart and PostToolUse, none at PreToolUse: each event was
  // written on with its own, one install recording for alice and planning for `default`.
  const mixed = () => ({
    hooks: {
      SessionStart: [{ matcher: '*', hooks: [{ type: 'command', command: 'npx decision-memory hook --user alice', timeout: 5 }] }],
      PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'npx decision-memory hook', timeout: 5 }] }],
      PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'npx decision-memory hook --user alice', timeout: 5 }] }],
    },
  })

  it('writes nothing, naming the commands and their events, and says to give the one meant with --command', async () => {
    const { file } = await settingsFolder()
    const before = JSON.stringify(mixed())
    await writeFile(file, before)
    const command = defaultHookCommand()
    expect(await installHooksCommand(['--file', file])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: ${file}: decision-memory's hook holds 2 different commands at its events (SessionStart, PostToolUse: --command ${shellWord(`${command} --user alice`)}; PreToolUse: --command ${shellWord(command)}): ` +
        'updated each with its own, one install would plan and record for more than one user or service; give the one you mean with --command, which every event is then written with, or edit them to one; nothing written\n',
    )
    expect(stdout).toBe('')
    expect(await readFile(file, 'utf8')).toBe(before)
  })

  it('names each command as the --command that writes it, which works pasted into a shell', async () => {
    // Named bare (`node "/…/decision-memory.js" hook --user alice`), pasted after --command it was
    // split by the shell, and install-hooks refused the words after `--command node` (exit 2).
    const { file } = await settingsFolder()
    await writeFile(file, JSON.stringify(mixed()))
    expect(await installHooksCommand(['--file', file])).toBe(1)
    const pasted = /SessionStart, PostToolUse: (--command '[^']*')/.exec(stderr)?.[1] as string
    expect(pasted).toBeDefined()
    // The words sh makes of it, as a paste into the shell gives them to install-hooks.
    const words = JSON.parse(execFileSync('sh', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${pasted}`], { encoding: 'utf8' })) as string[]
    expect(words).toEqual(['--command', `${defaultHookCommand()} --user alice`])
    stderr = ''
    expect(await installHooksCommand(['--file', file, ...words])).toBe(0)
    const hooks = JSON.parse(await readFile(file, 'utf8')).hooks
    expect(['SessionStart', 'PreToolUse', 'PostToolUse'].map((event) => hooks[event].map((g: { hooks: Array<{ command: string }> }) => g.hooks[0]?.command))).toEqual(
      Array(3).fill([`${defaultHookCommand()} --user alice`]),
    )
  })

  it('says a token, not repeated in the --command named, is to be written in', async () => {
    const { file } = await settingsFolder()
    const held = mixed()
    held.hooks.PreToolUse[0]!.hooks[0]!.command = 'DECISION_MEMORY_TOKEN=s3cret npx decision-memory hook'
    await writeFile(file, JSON.stringify(held))
    expect(await installHooksCommand(['--file', file])).toBe(1)
    expect(stderr).toContain(`PreToolUse: --command ${shellWord(`DECISION_MEMORY_TOKEN=… ${defaultHookCommand()}`)} (with the value of DECISION_MEMORY_TOKEN, not repeated here, for …)`)
    expect(stderr).not.toContain('s3cret')
  })

  it('writes the command given at every event, and says what they held', async () => {
    const { file } = await settingsFolder()
    await writeFile(file, JSON.stringify(mixed()))
    const command = `${defaultHookCommand()} --user alice`
    expect(await installHooksCommand(['--file', file, '--command', command])).toBe(0)
    const hooks = JSON.parse(await readFile(file, 'utf8')).hooks
    expect(['SessionStart', 'PreToolUse', 'PostToolUse'].map((event) => hooks[event].map((g: { hooks: Array<{ command: string }> }) => g.hooks[0]?.command))).toEqual([[command], [command], [command]])
    // The same command as given, with none of theirs: said, once.
    await writeFile(file, JSON.stringify(mixed()))
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--command', defaultHookCommand()])).toBe(0)
    expect(stderr).toBe(
      `decision-memory install-hooks: note: ${file} held decision-memory's hook with 2 different commands at its events (SessionStart, PostToolUse: ${defaultHookCommand()} --user alice; PreToolUse: ${defaultHookCommand()}): ` +
        'every event now runs --command as given, without the flags and variables of any of them\n',
    )
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stdout).toContain(`${file} already has every hook; nothing written`)
    expect(stderr).toBe('')
  })
})

describe('install-hooks and our hook in the other settings file Claude Code reads', () => {
  it('notes the user\'s settings holding it with another command, naming that file, and not with the same one', async () => {
    const home = process.env.HOME as string
    const user = join(home, '.claude', 'settings.json')
    await mkdir(dirname(user), { recursive: true })
    const command = defaultHookCommand()
    const holding = (c: string) => JSON.stringify(mergeHooks({}, c).settings)
    const { folder } = await settingsFolder()
    // The same command: Claude Code runs it once, nothing to say.
    await writeFile(user, holding(command))
    expect(await installHooksCommand(['--project', folder])).toBe(0)
    expect(stderr).toBe('')
    await writeFile(user, holding(`${command} --user alice`))
    stderr = ''
    expect(await installHooksCommand(['--project', folder])).toBe(0)
    expect(stderr).toBe(
      `decision-memory install-hooks: note: ${user} holds decision-memory's SessionStart, PreToolUse, PostToolUse hooks too, with another command (${command} --user alice), ` +
        'and Claude Code runs the hooks of both files (an identical command once): for one user and service that is harmless, each answer and session stored once, ' +
        'the second run only starting node again; where their --user or service differs, both learn every answer; remove one if you did not mean both\n',
    )
  })

  it('notes, writing a project\'s settings.json, its settings.local.json, which Claude Code reads with it', async () => {
    // An install with --file …/settings.local.json (hooks only you use), then --project: both run,
    // each with its own user, and nothing was said.
    const { folder } = await settingsFolder()
    const local = join(folder, '.claude', 'settings.local.json')
    await mkdir(dirname(local), { recursive: true })
    const command = defaultHookCommand()
    await writeFile(local, JSON.stringify(mergeHooks({}, `${command} --user alice`).settings))
    expect(await installHooksCommand(['--project', folder])).toBe(0)
    expect(stderr).toBe(
      `decision-memory install-hooks: note: ${local} holds decision-memory's SessionStart, PreToolUse, PostToolUse hooks too, with another command (${command} --user alice), ` +
        'and Claude Code runs the hooks of both files (an identical command once): for one user and service that is harmless, each answer and session stored once, ' +
        'the second run only starting node again; where their --user or service differs, both learn every answer; remove one if you did not mean both\n',
    )
    // And the other way, writing settings.local.json beside settings.json.
    stderr = ''
    expect(await installHooksCommand(['--file', local, '--command', `${command} --user bob`])).toBe(0)
    expect(stderr).toContain(`note: ${join(folder, '.claude', 'settings.json')} holds decision-memory's SessionStart, PreToolUse, PostToolUse hooks too, with another command (${command})`)
  })

  it('notes, writing the user\'s settings, a project\'s in the current folder', async () => {
    const { folder } = await settingsFolder()
    const project = join(folder, '.claude', 'settings.local.json')
    await mkdir(dirname(project), { recursive: true })
    await writeFile(project, JSON.stringify(mergeHooks({}, `DECISION_MEMORY_URL=http://127.0.0.1:7422 ${defaultHookCommand()}`).settings))
    const cwd = process.cwd()
    process.chdir(folder)
    try {
      expect(await installHooksCommand(['--user'])).toBe(0)
    } finally {
      process.chdir(cwd)
    }
    expect(stderr).toMatch(new RegExp(`^decision-memory install-hooks: note: ${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds decision-memory's SessionStart, PreToolUse, PostToolUse hooks too, with another command \\(DECISION_MEMORY_URL=`))
  })
})

describe('install-hooks and "hooks": null', () => {
  it('writes nothing, and says Claude Code skips such a file rather than reading it as no hooks', async () => {
    const { file } = await settingsFolder()
    const before = JSON.stringify({ model: 'opus', hooks: null })
    await writeFile(file, before)
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: ${file}: "hooks" is null, not an object: Claude Code skips a settings file with such a field whole ("Files with errors are skipped entirely"), ` +
        'every setting in it, so hooks written there would never run; make it {} (no hooks) or take it out; nothing written\n',
    )
    expect(await readFile(file, 'utf8')).toBe(before)
  })

  it('writes nothing to a file with another event that is not a list (`"Stop": null`), which Claude Code skips whole too', async () => {
    const { file } = await settingsFolder()
    const before = JSON.stringify({ model: 'opus', hooks: { Stop: null } })
    await writeFile(file, before)
    expect(await installHooksCommand(['--file', file])).toBe(1)
    expect(stderr).toBe(
      `decision-memory install-hooks: ${file}: "hooks.Stop" is null, not a list: Claude Code skips a settings file with such a field whole ("Files with errors are skipped entirely"), ` +
        'every setting in it, so hooks written there would never run; make it [] (no hooks) or take it out; nothing written\n',
    )
    expect(stdout).toBe('')
    expect(await readFile(file, 'utf8')).toBe(before)
  })
})

describe('install-hooks and an event Claude Code does not know', () => {
  it('says it on stderr, with the event meant, and writes the hooks under their own events', async () => {
    // `"PreToolCall": []`, a typo of PreToolUse, was written back without a word: the user's hooks
    // there never run, and some Claude Code versions skip the whole file for it, ours included.
    const { file } = await settingsFolder()
    const mine = { hooks: [{ type: 'command', command: 'npm run lint' }] }
    await writeFile(file, JSON.stringify({ model: 'opus', hooks: { PreToolCall: [mine], Stop: [mine], PostToolCall: [], OnCommit: [], SessionStop: [] } }))
    expect(await installHooksCommand(['--file', file])).toBe(0)
    const tail =
      ': it runs no hook under it, recent versions ignoring it with a warning and some (2.1.85 among them) skipping the whole file for it, the hooks written here included; rename it to the event you meant, or take it out (an event of a Claude Code newer than 2.1.303, which it may be, can be left)\n'
    expect(stderr).toBe(
      `decision-memory install-hooks: warning: ${file} has the event "PreToolCall" under "hooks", which Claude Code does not know (did you mean "PreToolUse"?)${tail}` +
        `decision-memory install-hooks: warning: ${file} has the event "PostToolCall" under "hooks", which Claude Code does not know (did you mean "PostToolUse" or "PostToolBatch"?)${tail}` +
        `decision-memory install-hooks: warning: ${file} has the event "OnCommit" under "hooks", which Claude Code does not know${tail}` +
        `decision-memory install-hooks: warning: ${file} has the event "SessionStop" under "hooks", which Claude Code does not know (did you mean "SessionStart", "Stop" or "SessionEnd"?)${tail}`,
    )
    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.hooks.PreToolCall).toEqual([mine])
    expect(Object.keys(written.hooks)).toEqual(['PreToolCall', 'Stop', 'PostToolCall', 'OnCommit', 'SessionStop', 'SessionStart', 'PreToolUse', 'PostToolUse'])
    // Our hook or guard under it never runs there: that event is said, not what they would do at
    // an event Claude Code runs ("does nothing there", "lets any other pass at once").
    const ours = { hooks: [{ type: 'command', command: defaultHookCommand() }, { type: 'command', command: defaultHookCommand().replace(/ hook$/, ' guard') }] }
    await writeFile(file, JSON.stringify({ hooks: { PreToolCall: [ours] } }))
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toBe(`decision-memory install-hooks: warning: ${file} has the event "PreToolCall" under "hooks", which Claude Code does not know (did you mean "PreToolUse"?)${tail}`)
    // Said on every run while it is there, with nothing to write too.
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(0)
    expect(stderr).toContain('has the event "PreToolCall" under "hooks"')
  })
})

describe('install-hooks and a settings file with a comment', () => {
  it('names the comment, or the comma before a closing bracket, and says Claude Code skips the file for it; nothing written', async () => {
    // Said as the parser's `at position 4` alone, with `fix it or paste the README block by hand`:
    // pasted beside a comment, the hooks would never run, Claude Code skipping the file whole.
    const { file } = await settingsFolder()
    for (const [text, said] of [
      ['{\n  // my settings\n  "model": "opus"\n}\n', "not valid JSON (Expected property name or '}' in JSON at position 4 (line 2, column 3)); a comment at line 2, column 3: JSON has none"],
      ['{\n  "model": "opus",\n}\n', 'not valid JSON (Expected double-quoted property name in JSON at position 21 (line 3, column 1)); a comma before a closing bracket at line 2, column 18: JSON takes none'],
    ] as const) {
      await writeFile(file, text)
      stderr = ''
      expect(await installHooksCommand(['--file', file])).toBe(1)
      expect(stderr).toBe(
        `decision-memory install-hooks: ${file}: ${said}, and Claude Code skips a settings file with one whole ("Invalid or malformed JSON"), every setting in it: remove it; nothing written\n`,
      )
      expect(await readFile(file, 'utf8')).toBe(text)
    }
  })
})

describe('install-hooks and a settings file that is not JSON', () => {
  it('says the parser\'s words on one line, the line breaks of the text it quotes written as \\n', async () => {
    // V8 quotes the text around the fault with its line breaks: the refusal ran over several lines.
    const { file } = await settingsFolder()
    const text = '{\n  "model": opus,\n  "hooks": {}\n}\n'
    await writeFile(file, text)
    stderr = ''
    expect(await installHooksCommand(['--file', file])).toBe(1)
    expect(stderr.split('\n')).toEqual([expect.stringMatching(/^decision-memory install-hooks: .*not valid JSON \(Unexpected token 'o', \.\.\." "model": opus,\\n  "h"\.\.\. is not valid JSON\); fix it or paste the README block by hand; nothing written$/), ''])
    expect(await readFile(file, 'utf8')).toBe(text)
  })
})

describe('install-hooks and the layout of a settings file', () => {
  it('writes a file indented with tabs or four spaces, or with CRLF line ends, back in its layout, so that its lines not changed stay as they were', async () => {
    const { file } = await settingsFolder()
    for (const [indent, eol] of [['\t', '\n'], ['    ', '\n'], ['  ', '\r\n'], ['\t', '\r\n']] as const) {
      const before = ['{', `${indent}"model": "opus",`, `${indent}"env": {`, `${indent}${indent}"A": "1"`, `${indent}}`, '}', ''].join(eol)
      await writeFile(file, before)
      expect(await installHooksCommand(['--file', file])).toBe(0)
      const written = await readFile(file, 'utf8')
      // The fields it had, line for line, then the hooks in the same indent and line ends.
      expect(written.startsWith(before.slice(0, before.lastIndexOf(`${eol}}`)) + `,${eol}${indent}"hooks": {${eol}${indent}${indent}"SessionStart": [${eol}`)).toBe(true)
      expect(written.endsWith(`${eol}}${eol}`)).toBe(true)
      expect(written.replaceAll(eol, '').includes('\n')).toBe(false)
      expect(JSON.parse(written)).toMatchObject({ model: 'opus', env: { A: '1' }, hooks: { PreToolUse: [{ matcher: 'AskUserQuestion' }] } })
    }
  })

  it('writes a new file, a file on one line, or one of another indent, with two spaces and \\n, as Claude Code writes settings', async () => {
    const { folder, file } = await settingsFolder()
    const fresh = join(folder, 'new', 'settings.json')
    await mkdir(dirname(fresh))
    expect(await installHooksCommand(['--file', fresh])).toBe(0)
    expect(await readFile(fresh, 'utf8')).toMatch(/^\{\n  "hooks": \{\n    "SessionStart"/)
    for (const before of ['{"model": "opus"}', '{\n \t"model": "opus"\n}\n']) {
      await writeFile(file, before)
      expect(await installHooksCommand(['--file', file])).toBe(0)
      expect(await readFile(file, 'utf8')).toMatch(/^\{\n  "model": "opus",\n  "hooks": \{\n    "SessionStart"/)
    }
  })
})

describe('install-hooks and a path that starts with ~', () => {
  it('reads ~ in --file and --project as the home folder, as no shell does after `=` (nor cmd.exe at all)', async () => {
    const { folder: home } = await settingsFolder()
    const { folder: work } = await settingsFolder()
    vi.stubEnv('HOME', home)
    vi.stubEnv('USERPROFILE', home)
    const cwd = process.cwd()
    process.chdir(work)
    try {
      expect(await installHooksCommand(['--file=~/settings.local.json'])).toBe(0)
      expect(await readFile(join(home, 'settings.local.json'), 'utf8')).toContain(' hook')
      expect(await installHooksCommand(['--project=~'])).toBe(0)
      expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toContain(' hook')
      // Nothing made where the command ran: no folder named `~`.
      expect(await readdir(work)).toEqual(['settings.json'])
    } finally {
      process.chdir(cwd)
      vi.unstubAllEnvs()
    }
  })
})

describe('install-hooks --user', () => {
  it('writes into the account\'s home folder when HOME is empty or relative, not into .claude of the folder it runs in', async () => {
    const { folder: work } = await settingsFolder()
    const cwd = process.cwd()
    process.chdir(work)
    try {
      for (const home of ['', 'relative']) {
        vi.stubEnv('HOME', home)
        stderr = ''
        // --dry-run: the real home's settings are named, never written.
        expect(await installHooksCommand(['--user', '--dry-run'])).toBe(0)
        expect(stderr).toContain(`\n${join(userInfo().homedir, '.claude', 'settings.json')} would read:\n`)
      }
      expect(await readdir(work)).toEqual(['settings.json'])
    } finally {
      process.chdir(cwd)
      vi.unstubAllEnvs()
    }
  })
})

describe('missingOfCommand on Windows', () => {
  it('finds a program as the shell there does, with an extension of PATHEXT (node is node.exe), on a PATH of ;-separated folders', async () => {
    const { folder } = await settingsFolder()
    await writeFile(join(folder, 'node.exe'), '')
    const script = join(folder, 'decision-memory.js')
    await writeFile(script, '')
    // Windows gives its variables in the case they were set in: `Path` is the usual one.
    const env = { Path: `C:\\no\\such;${folder}`, PATHEXT: '.COM;.EXE;.BAT;.CMD' }
    expect(missingOfCommand(`node "${script}" hook`, env, 'win32')).toBeUndefined()
    expect(missingOfCommand(`${folder}/node "${script}" hook`, env, 'win32')).toBeUndefined()
    expect(missingOfCommand('nodee hook', env, 'win32')).toBe('nodee is not on this PATH')
    // A program by its Windows path, with backslashes (quoted, as bash needs it): a path, not a name on the PATH.
    expect(missingOfCommand(`'C:\\no\\such\\node.exe' "${script}" hook`, env, 'win32')).toBe('C:\\no\\such\\node.exe does not exist')
    // The script given to node.exe is checked as the one given to node.
    expect(missingOfCommand('node.exe "C:/no/such/clone/bin/decision-memory.js" hook', env, 'win32')).toBe('C:/no/such/clone/bin/decision-memory.js does not exist')
    // Elsewhere no extension is added: `node.exe` alone is not a `node` on the PATH.
    expect(missingOfCommand(`node "${script}" hook`, { PATH: folder }, 'linux')).toBe('node is not on this PATH')
  })
})

describe('install-hooks and a hook kept inside quotes of the user', () => {
  const settingsWith = async (event: string, matcher: string, command: string) => {
    const { file } = await settingsFolder()
    await writeFile(file, JSON.stringify({ hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command, timeout: 5 }] }] } }))
    return file
  }

  it('warns on stderr, naming the path, when the checkout it names is gone, and keeps it as written', async () => {
    for (const wrapped of [
      "bash -lc 'node /no/such/clone/bin/decision-memory.js hook --user bob'",
      'bash -lc "node \\"/no/such/clone/bin/decision-memory.js\\" hook --user bob"',
    ]) {
      const file = await settingsWith('PreToolUse', 'AskUserQuestion', wrapped)
      stderr = ''
      expect(await installHooksCommand(['--file', file])).toBe(0)
      expect(stderr, wrapped).toBe(
        `decision-memory install-hooks: warning: ${file}: a hook run inside quotes of your own, kept as written: /no/such/clone/bin/decision-memory.js does not exist on this machine; ` +
          'if the hook runs here (not through ssh or a container), it fails on every call until it does: edit the path in it, or remove that hook and run install-hooks again\n',
      )
      expect(stdout).toContain(`unchanged PreToolUse (matcher AskUserQuestion): ${wrapped}`)
      expect(await readFile(file, 'utf8')).toContain(JSON.stringify(wrapped))
    }
    // A guard kept so, too; and a dry run says it.
    const file = await settingsWith('PreToolUse', 'Bash', "bash -lc 'node /no/such/clone/bin/decision-memory.js guard --fail-closed'")
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard', '--dry-run'])).toBe(0)
    expect(stderr).toContain('warning: ')
    expect(stderr).toContain(': a hook run inside quotes of your own, kept as written: /no/such/clone/bin/decision-memory.js does not exist on this machine;')
  })

  it('says nothing when the path is there, or cannot be known here', async () => {
    const bin = defaultHookCommand().replace(/^node "(.*)" hook$/, '$1')
    for (const wrapped of [`bash -lc 'node ${bin} hook --user bob'`, "bash -lc 'node $HOME/dm/bin/decision-memory.js hook'", "bash -lc 'cd /no/such && node bin/decision-memory.js hook'"]) {
      const file = await settingsWith('PreToolUse', 'AskUserQuestion', wrapped)
      stderr = ''
      expect(await installHooksCommand(['--file', file])).toBe(0)
      expect(stderr, wrapped).toBe('')
    }
  })

  it('says on stderr, with --guard, which service variables the wrapper sets that the guard added does not carry', async () => {
    const bin = defaultHookCommand().replace(/^node "(.*)" hook$/, '$1')
    const guard = defaultHookCommand().replace(/hook$/, 'guard')
    const wrapped = `bash -lc 'DECISION_MEMORY_URL=http://127.0.0.1:7421 DECISION_MEMORY_USER=bob DECISION_MEMORY_TOKEN=t0k node ${bin} hook'`
    const file = await settingsWith('PreToolUse', 'AskUserQuestion', wrapped)
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).toContain(
      'decision-memory install-hooks: warning: the hook kept inside quotes of your own sets DECISION_MEMORY_URL, DECISION_MEMORY_TOKEN, and the guard added beside it does not: ' +
        "hook and guard may ask different services; add them to the guard's command by hand\n",
    )
    // Warned of, not rewritten: the guard is the default's; run again, it is there and nothing is said of it.
    expect(stdout).toContain(`added     PreToolUse (matcher Bash|PowerShell): ${guard}`)
    stderr = ''
    expect(await installHooksCommand(['--file', file, '--guard'])).toBe(0)
    expect(stderr).not.toContain('guard added')
    // Beside a guard of before on Bash alone, the PowerShell group added copies its command, and
    // with it the variables it sets: only those it lacks are said, none when it sets them all.
    for (const [earlierGuard, said] of [
      [`DECISION_MEMORY_URL=http://127.0.0.1:7421 DECISION_MEMORY_TOKEN=t0k node /old/bin/decision-memory.js guard --fail-closed`, null],
      [`bash -lc 'DECISION_MEMORY_URL=http://127.0.0.1:7421 DECISION_MEMORY_TOKEN=t0k node ${bin} guard'`, null],
      [`DECISION_MEMORY_URL=http://127.0.0.1:7421 node /old/bin/decision-memory.js guard`, 'DECISION_MEMORY_TOKEN, and the guard added beside it does not: '],
    ] as const) {
      const both = await settingsFolder()
      await writeFile(
        both.file,
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: wrapped, timeout: 5 }] }, { matcher: 'Bash', hooks: [{ type: 'command', command: earlierGuard, timeout: 5 }] }] },
        }),
      )
      stdout = ''
      stderr = ''
      expect(await installHooksCommand(['--file', both.file, '--guard']), earlierGuard).toBe(0)
      expect(stdout, earlierGuard).toContain('added     PreToolUse (matcher PowerShell): ')
      if (said === null) expect(stderr, earlierGuard).not.toContain('guard added')
      else expect(stderr, earlierGuard).toContain(`warning: the hook kept inside quotes of your own sets ${said}`)
    }
    // A wrapper that sets none of them, or DECISION_MEMORY_USER alone (the guard takes no user): nothing said.
    for (const plain of [`bash -lc 'node ${bin} hook --user bob'`, `bash -lc 'DECISION_MEMORY_USER=bob node ${bin} hook'`]) {
      const other = await settingsWith('PreToolUse', 'AskUserQuestion', plain)
      stderr = ''
      expect(await installHooksCommand(['--file', other, '--guard'])).toBe(0)
      expect(stderr, plain).toBe('')
    }
  })
})

describe('install-hooks --help', () => {
  it('says --command is needed where the events hold different commands, which it refuses without it', () => {
    const help = INSTALL_HOOKS_HELP.replace(/\s+/g, ' ')
    expect(help).toContain('--command CMD the hook command')
    expect(help).toContain('written at every event, it is needed where the file\'s entries of the hook hold different commands at their events (another --user at one), refused without it, each named')
  })

  it('says that a settings file Claude Code would skip whole is refused, nothing written, and where the refusals are listed', () => {
    // README listed a dozen refusals; --help, none: a user told `nothing written` had no pointer to why.
    const help = INSTALL_HOOKS_HELP.replace(/\s+/g, ' ')
    expect(help).toContain('A settings file Claude Code would skip whole is refused, exit 1, nothing written: not JSON (a comment, a comma before a bracket), or its hooks, a hook event, group, entry or matcher not of the shape its schema takes, each named (README lists them).')
    // `"hooks": null` is refused, and is no event, group, entry or matcher; an unknown event, which
    // 2.1.85 skipped the file for, is written back with a warning, not refused.
    expect(help).toContain('An event it does not know, for which only some versions skip the file, is kept and warned of on stderr.')
  })

  it('says a --command running hook --record-set-aside is refused, and why', () => {
    expect(INSTALL_HOOKS_HELP.replace(/\s+/g, ' ')).toContain('as is one running hook --record-set-aside (run by hand, it reads no payload; an entry of the hook in the file running it is refused too, exit 1)')
  })
})
