import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { main } from './main'

/** Runs the CLI's main in process, with what it writes. */
const run = (argv: string[]) => captured(() => main(argv))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('decision-memory main', () => {
  it('exits 1 for an unknown command, never 2: a typo in a PreToolUse hook command must not block every tool call', async () => {
    const { code, stderr } = await run(['gaurd'])
    expect(code).toBe(1)
    expect(stderr).toContain('unknown command "gaurd"')
  })

  it('watches stdout for a reader that stops reading with one listener, however many commands run in the process', async () => {
    await run(['help'])
    const before = process.stdout.listenerCount('error')
    for (const argv of [['help'], ['version'], ['gaurd'], ['help', 'export'], ['hook', '--help']]) await run(argv)
    expect(process.stdout.listenerCount('error')).toBe(before)
  })

  it('ends a later command whose reader stops reading with 141 after an mcp in the same process, which takes stdout off the listener', async () => {
    // mcp lets go of the one listener (its stdout is the protocol's); a flag mistake still does so, before it is read.
    expect((await run(['mcp', '--bogus'])).code).toBe(2)
    await run(['version'])
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never)
    process.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))
    expect(exit.mock.calls[0]).toEqual([141])
  })

  it('names the command an unknown one is a slip of, exit 1 as for any unknown command', async () => {
    for (const [argv, said] of [
      [['prefrences', '--user', 'alice'], 'decision-memory: unknown command "prefrences": did you mean preferences?'],
      [['Serve'], 'decision-memory: unknown command "Serve": did you mean serve?'],
      [['gaurd'], 'decision-memory: unknown command "gaurd": did you mean guard?'],
      [['help', 'prefrences'], 'decision-memory: no command "prefrences" to help with: did you mean preferences?'],
      [['frobnicate'], 'decision-memory: unknown command "frobnicate"'],
    ] as const) {
      const { code, stderr } = await run([...argv])
      expect(code, argv.join(' ')).toBe(1)
      expect(stderr.slice(0, stderr.indexOf('\n\n')), argv.join(' ')).toBe(said)
    }
  })

  it('follows an unknown command with the commands, short enough that the line saying what was wrong stays on a terminal of 24 lines', async () => {
    for (const argv of [['frobnicate'], ['help', 'frobnicate']]) {
      const { code, stderr } = await run(argv)
      expect(code).toBe(1)
      expect(stderr).toContain('\nCommands:\n  serve ')
      expect(stderr).not.toContain('DECISION_MEMORY_LOG_LEVEL')
      expect(stderr.trimEnd().endsWith('`decision-memory help` also says which store a command acts on and the environment it reads.')).toBe(true)
      expect(stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(24)
    }
    // The whole help, asked for, still has them.
    expect((await run(['help'])).stdout).toContain('DECISION_MEMORY_LOG_LEVEL')
    expect((await run([])).stderr).toContain('DECISION_MEMORY_LOG_LEVEL')
  })

  it('says a flag given before the command goes after it, naming the command when one alone takes it', async () => {
    for (const [argv, said] of [
      [['--port', '0', 'serve'], 'decision-memory: unknown command "--port": a flag goes after its command, decision-memory serve --port …'],
      [['--data=x', 'preferences'], 'decision-memory: unknown command "--data=x": a flag goes after its command, decision-memory <command> --data …'],
      [['-x'], 'decision-memory: unknown command "-x": a flag goes after its command, decision-memory <command> [flags]'],
      // The flags decision-memory takes before any command: a slip of one is no flag of a command.
      [['--verison'], 'decision-memory: unknown command "--verison": did you mean --version?'],
      [['--hlep'], 'decision-memory: unknown command "--hlep": did you mean --help?'],
      [['--Help'], 'decision-memory: unknown command "--Help": did you mean --help?'],
      // A command's name given as a flag, which no command takes: the command.
      [['--serve', '--port', '0'], 'decision-memory: unknown command "--serve": did you mean serve?'],
      [['--prefrences'], 'decision-memory: unknown command "--prefrences": did you mean preferences?'],
      // `--` and `-` are no flags: nothing said of where a flag goes.
      [['--', 'serve'], 'decision-memory: unknown command "--"'],
      [['-'], 'decision-memory: unknown command "-"'],
    ] as const) {
      const { code, stderr } = await run([...argv])
      expect(code, argv.join(' ')).toBe(1)
      expect(stderr.slice(0, stderr.indexOf('\n\n')), argv.join(' ')).toBe(said)
    }
  })

  it('names the flag of its own an unknown flag is a slip of, exit 2 with the help, and says a flag far from any as before', async () => {
    for (const [argv, said] of [
      [['preferences', '--usr', 'alice'], "decision-memory preferences: Unknown option '--usr': did you mean --user?"],
      [['why', '--pont', 'complexity-tier'], "decision-memory why: Unknown option '--pont': did you mean --point?"],
      [['import-adr', '--dryrun', 'docs/adr'], "decision-memory import-adr: Unknown option '--dryrun': did you mean --dry-run?"],
      [['preferences', '--bogus'], "decision-memory preferences: Unknown option '--bogus'"],
      [['preferences', '--User', 'alice'], "decision-memory preferences: Unknown option '--User': did you mean --user?"],
      [['preferences', '--hlep'], "decision-memory preferences: Unknown option '--hlep': did you mean --help?"],
      [['preferences', '--On'], "decision-memory preferences: Unknown option '--On'"],
    ] as const) {
      const { code, stderr } = await run([...argv])
      expect(code, argv.join(' ')).toBe(2)
      expect(stderr.slice(0, stderr.indexOf('\n\n')), argv.join(' ')).toBe(said)
    }
  })

  it('lists in its help every variable of the environment the sources read, each under Environment', async () => {
    const sources = readdirSync(join(__dirname, '..'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    const read = new Set(sources.flatMap((file) => [...readFileSync(join(__dirname, '..', file), 'utf8').matchAll(/(?:envValue\(|env\.|env\[)['"`]?(DECISION_MEMORY_[A-Z_]+)/g)].map((m) => m[1])))
    expect(read.size).toBeGreaterThan(0)
    const { stdout } = await run(['help'])
    const environment = stdout.slice(stdout.indexOf('\nEnvironment'), stdout.indexOf('\ndecision-memory serve'))
    for (const name of read) expect(environment, name).toMatch(new RegExp(`^  ${name} `, 'm'))
  })

  it('says, exit 1, that the folder it runs in is gone, rather than a stack trace, for a command that reads that folder', async () => {
    const gone = Object.assign(new Error('ENOENT: no such file or directory, uv_cwd'), { code: 'ENOENT', errno: -2, syscall: 'uv_cwd' })
    vi.spyOn(process, 'cwd').mockImplementation(() => {
      throw gone
    })
    const { code, stderr } = await run(['install-hooks', '--dry-run'])
    vi.restoreAllMocks()
    expect(stderr).toBe('decision-memory install-hooks: the folder this runs in is gone (removed since the shell entered it): run it in a folder that exists\n')
    expect(code).toBe(1)
  })

  it('exits 1 for help on a command there is not, and 0 for help on one there is', async () => {
    const unknown = await run(['help', 'gaurd'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('no command "gaurd"')
    expect((await run(['help', 'guard'])).code).toBe(0)
    expect((await run(['help'])).code).toBe(0)
  })

  it('exits 0 for help on help and on version, which the help lists among the commands', async () => {
    for (const topic of ['help', 'version']) {
      const { code, stderr } = await run(['help', topic])
      expect(stderr).toBe('')
      expect(code).toBe(0)
    }
  })

  it('takes constructor for an unknown command, not an inherited property', async () => {
    expect((await run(['constructor'])).code).toBe(1)
  })

  it('exits 2 for a usage error of a known command, with its help', async () => {
    const { code, stderr } = await run(['forget', '--user', 'alice'])
    expect(code).toBe(2)
    expect(stderr).toContain('add --yes')
  })

  it('exits 1 with one line, not the help, for a variable of the environment that is not valid, as for DECISION_MEMORY_URL', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', '')
    vi.stubEnv('DECISION_MEMORY_PORT', '99999')
    try {
      const { code, stderr } = await run(['preferences', '--user', 'alice'])
      expect(code).toBe(1)
      expect(stderr).toBe('decision-memory preferences: DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "99999"\n')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('exits 1 with one line, not the help, for a DECISION_MEMORY_USER that is no user, which no flag of the command mends', async () => {
    vi.stubEnv('DECISION_MEMORY_USER', '!x')
    try {
      for (const argv of [['preferences'], ['why', '--point', 'complexity-tier']]) {
        const { code, stderr } = await run(argv)
        expect(code, argv[0]).toBe(1)
        expect(stderr, argv[0]).toBe(`decision-memory ${argv[0]}: DECISION_MEMORY_USER (the default of --user): must not start with "!"\n`)
      }
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('does not read DECISION_MEMORY_USER for why KEY, whose chain is nobody\'s: one set wrong does not stop it', async () => {
    vi.stubEnv('DECISION_MEMORY_USER', '!x')
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
    vi.stubEnv('DECISION_MEMORY_DATA', join(tmpdir(), `dm-why-key-${process.pid}-none`))
    try {
      const { code, stderr } = await run(['why', 'D-001'])
      // It went on to ask for the chain (here, of no service), not stopped at the variable.
      expect(code).toBe(1)
      expect(stderr).not.toContain('DECISION_MEMORY_USER')
      expect(stderr).toContain('http://127.0.0.1:9')
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('exits 2 for why KEY with --project, which a decision\'s chain does not depend on, as with --session, before any request', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
    try {
      const { code, stdout, stderr } = await run(['why', 'D-001', '--project', 'acme/api'])
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/^decision-memory why: --project goes with --point: a decision's chain does not depend on the project\n\ndecision-memory why KEY/)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('exits 2 for why KEY with --all-projects, as with --project, before any request', async () => {
    vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
    try {
      const { code, stdout, stderr } = await run(['why', 'D-001', '--all-projects'])
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/^decision-memory why: --all-projects goes with --point: a decision's chain does not depend on the project\n\ndecision-memory why KEY/)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('exits 2 with its help for a flag or an argument version does not take, printing no version', async () => {
    for (const argv of [['version', '--bogus'], ['--version', '-x'], ['version', 'extra']]) {
      const { code, stdout, stderr } = await run(argv)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toContain('decision-memory version: ')
      expect(stderr).toContain('Prints the package\'s version.')
    }
    expect((await run(['version'])).code).toBe(0)
    expect((await run(['version', '--help'])).stdout).toContain('decision-memory version')
  })

  it('prints the version for -v and -V as for version and --version, as node and npm do', async () => {
    const { stdout: version } = await run(['version'])
    expect(version).toMatch(/^\d+\.\d+\.\d+/)
    for (const flag of ['-v', '-V', '--version']) expect(await run([flag]), flag).toMatchObject({ code: 0, stdout: version, stderr: '' })
    expect((await run(['-v', '--bogus'])).code).toBe(2)
  })

  it('says a flag help and version do not take as the other commands say theirs, and a negative number given to a flag by the flag\'s own check', async () => {
    for (const [argv, said] of [
      [['version', '--bogus'], "decision-memory version: Unknown option '--bogus'\n"],
      [['help', '--bogus=1'], "decision-memory help: Unknown option '--bogus'\n"],
      [['decay-scan', '--bogus'], "decision-memory decay-scan: Unknown option '--bogus'\n"],
      [['decay-scan', '--now', '-1'], 'decision-memory decay-scan: --now must be an ISO time with seconds and a zone, e.g. 2026-07-01T10:00:00Z, not "-1"\n'],
      [['serve', '--port', '-1'], 'decision-memory serve: --port must be a port number from 0 to 65535, not "-1"\n'],
    ] as const) {
      const { code, stderr } = await run([...argv])
      expect(code, argv.join(' ')).toBe(2)
      expect(stderr.split('\n')[0] + '\n', argv.join(' ')).toBe(said)
    }
  })

  it('says a flag the command does not take but another does as that one\'s, with the command\'s help, rather than in parseArgs\' words', async () => {
    for (const [argv, said] of [
      [['why', '--on'], 'decision-memory why: --on is a flag of toggle, not of why'],
      [['why', '--point', 'x', '--off=1'], 'decision-memory why: --off is a flag of toggle, not of why'],
      [['preferences', '--session', 's-1'], 'decision-memory preferences: --session is a flag of toggle and why, not of preferences'],
      [['export', '--yes'], 'decision-memory export: --yes is a flag of forget, not of export'],
      // On the hook's second usage line: read from its first alone, said in parseArgs' words.
      [['forget', '--user', 'alice', '--yes', '--record-set-aside'], 'decision-memory forget: --record-set-aside is a flag of hook, not of forget'],
    ] as const) {
      const { code, stdout, stderr } = await run([...argv])
      expect(code, argv.join(' ')).toBe(2)
      expect(stdout, argv.join(' ')).toBe('')
      expect(stderr, argv.join(' ')).toBe(`${said}\n\n${(await run(['help', argv[0]])).stdout}`)
    }
    // A flag no command takes is said as before.
    expect((await run(['why', '--bogus'])).stderr).toMatch(/^decision-memory why: Unknown option '--bogus'/)
  })

  it('shows what a usage error quotes of its arguments escaped, an escape sequence or a line feed, never written to the terminal as itself', async () => {
    for (const [argv, said] of [
      [['preferences', '--x\u001b[2J'], "decision-memory preferences: Unknown option '--x\\u001b[2J'"],
      [['serve', '--port', '74\n20'], 'decision-memory serve: --port must be a port number from 0 to 65535, not "74\\n20"'],
      [['preferences', '--user', 'a', '--user', 'b\u009b2J'], 'decision-memory preferences: --user is given twice ("a" and "b\\u009b2J"): give it once'],
      [['gaurd\u001b]0;x\u0007'], 'decision-memory: unknown command "gaurd\\u001b]0;x\\u0007"'],
      [['help', 'x\ny'], 'decision-memory: no command "x\\ny" to help with'],
      [['version', 'a\tb\u202e'], 'decision-memory version: version takes no arguments, not "a\\tb\\u202e"'],
    ] as const) {
      const { stderr } = await run([...argv])
      expect(stderr.slice(0, stderr.indexOf('\n\n')), argv.join(' ')).toBe(said)
      expect(stderr, argv.join(' ')).not.toMatch(/[\u0007\u001b\u009b\u202e\t]/)
    }
  })

  it('prints the help of help and of version for --help or -h anywhere among their arguments, as every command does, exit 0', async () => {
    for (const [argv, help] of [
      [['version', '--bogus', '--help'], 'decision-memory version\n'],
      [['version', 'extra', '-h'], 'decision-memory version\n'],
      [['--version', '-h', '-x'], 'decision-memory version\n'],
      [['help', '--bogus', '--help'], 'decision-memory help [COMMAND]\n'],
      [['help', 'forget', 'extra', '-h'], 'decision-memory help [COMMAND]\n'],
      [['forget', '--bogus', '--help'], 'decision-memory forget --user USER'],
    ] as const) {
      const { code, stdout, stderr } = await run([...argv])
      expect(code, argv.join(' ')).toBe(0)
      expect(stderr, argv.join(' ')).toBe('')
      expect(stdout.startsWith(help), argv.join(' ')).toBe(true)
    }
  })

  it('exits 2 with its help for help given two commands or a flag it does not take', async () => {
    for (const argv of [['help', 'forget', 'extra'], ['help', '--bogus'], ['--help', 'forget', '--bogus']]) {
      const { code, stdout, stderr } = await run(argv)
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toContain('decision-memory help: ')
      expect(stderr).toContain('decision-memory help [COMMAND]')
    }
  })

  it('describes each flag of export, forget and preferences in a line of its own, and what the command prints', async () => {
    const prints: Record<string, RegExp> = { export: /\{"type": "end"/, forget: /forgot USER: N entries deleted/, preferences: /one line a point/ }
    for (const [name, says] of Object.entries(prints)) {
      const { code, stdout } = await run(['help', name])
      expect(code).toBe(0)
      expect(stdout, name).toMatch(says)
      const usage = stdout.split('\n')[0] ?? ''
      const flags = [...usage.matchAll(/--[a-z-]+/g)].map((m) => m[0])
      expect(flags.length, name).toBeGreaterThan(1)
      for (const flag of flags) expect(stdout, `${name} ${flag}`).toMatch(new RegExp(`^  ${flag}\\b`, 'm'))
    }
    // A point keyed by a hash of its question is printed by its question, not as POINT alone.
    expect((await run(['help', 'preferences'])).stdout).toContain('"QUESTION" (q-…)')
  })

  it('names every format import-adr reads in the overview of the commands, AXME Code among them', async () => {
    const { stdout } = await run(['help'])
    const line = stdout.split('\n').find((l) => l.startsWith('  import-adr ')) ?? ''
    // The names the formats go by in the README's table, one per ADR_FORMATS entry.
    for (const name of ['adr-tools', 'MADR', 'log4brains', 'DECISIONS.md', 'AXME Code']) expect(line, name).toContain(name)
  })

  it('says in the overview that the guard denies a PowerShell command too, as its own help and install-hooks --guard have it', async () => {
    const { stdout } = await run(['help'])
    const line = stdout.split('\n').find((l) => l.startsWith('  guard ')) ?? ''
    for (const shell of ['Bash', 'PowerShell']) expect(line, shell).toContain(shell)
    expect((await run(['help', 'guard'])).stdout).toContain('for Bash and PowerShell')
  })

  it('says in the overview\'s store paragraph that mcp and import-adr open this checkout\'s data, not ./data', async () => {
    const { stdout } = await run(['help'])
    const which = stdout.slice(stdout.indexOf('Which store:'))
    expect(which.slice(0, which.indexOf('\n\n'))).toContain("mcp and import-adr: this checkout's data")
  })

  it('reads a leading ~ of --policy as the home folder, as of --data: no shell expands --policy=~/mine.yaml, nor an MCP server\'s arguments', async () => {
    const home = await mkdtemp(join(tmpdir(), 'dm-home-'))
    const data = await mkdtemp(join(tmpdir(), 'dm-data-'))
    try {
      // Broken on purpose: every command then stops on it, naming the file it read, before anything else.
      await writeFile(join(home, 'mine.yaml'), 'tresholds: { min_observations: 3 }\n')
      vi.stubEnv('HOME', home)
      vi.stubEnv('DECISION_MEMORY_URL', 'http://127.0.0.1:9')
      const commands = [['serve', '--port', '0', '--data', data], ['mcp'], ['why', '--point', 'x'], ['preferences'], ['decay-scan']]
      for (const command of commands) {
        const { code, stderr } = await run([...command, '--policy=~/mine.yaml'])
        expect(stderr, command[0]).toContain(`${join(home, 'mine.yaml')}: invalid policy\n  tresholds: unknown field`)
        expect(code, command[0]).toBe(1)
      }
    } finally {
      vi.unstubAllEnvs()
      await rm(home, { recursive: true, force: true })
      await rm(data, { recursive: true, force: true })
    }
  })

  it('refuses serve --host [] as an empty --host, rather than a host "" it is told to guard with --auth', async () => {
    const { code, stderr } = await run(['serve', '--port', '0', '--host', '[]'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^decision-memory serve: --host \[\] is empty: give the address to listen on, or leave --host out\n/)
  })

  it('refuses serve --host given as a URL or with its port, naming the address and port to give, rather than tell it to add --auth', async () => {
    // DECISION_MEMORY_URL copied into --host was said "not a loopback address: give --auth
    // TOKENS_FILE", of 127.0.0.1; given --auth, it failed to listen with getaddrinfo ENOTFOUND.
    for (const [args, said] of [
      [['--host', 'http://127.0.0.1:7421'], '--host http://127.0.0.1:7421 is a URL, not an address: give the address alone and the port with its flag, --host 127.0.0.1 --port 7421'],
      [['--host', 'http://localhost/'], '--host http://localhost/ is a URL, not an address: give the address alone, --host localhost'],
      [['--host', '127.0.0.1:7421'], '--host 127.0.0.1:7421 holds a port: give the address alone and the port with its flag, --host 127.0.0.1 --port 7421'],
      [['--host', '[::1]:7421'], '--host [::1]:7421 holds a port: give the address alone and the port with its flag, --host ::1 --port 7421'],
      [['--port', '0', '--host', '127.0.0.1:7421'], '--host 127.0.0.1:7421 holds a port: give the address alone, --host 127.0.0.1'],
      [['--host', '0.0.0.0:7421', '--auth', '/nonexistent/tokens.json'], '--host 0.0.0.0:7421 holds a port: give the address alone and the port with its flag, --host 0.0.0.0 --port 7421'],
      // No address to name: not `--host  --port 7421`.
      [['--host', '[]:7421'], '--host []:7421 holds a port: give the address alone (127.0.0.1), and the port with --port'],
      [['--host', '127.0.0.1:abc'], '--host 127.0.0.1:abc holds a port: give the address alone, --host 127.0.0.1'],
      [['--host', 'localhost:'], '--host localhost: holds a port: give the address alone, --host localhost'],
    ] as const) {
      const { code, stderr } = await run(['serve', ...args])
      expect(stderr.split('\n')[0], args.join(' ')).toBe(`decision-memory serve: ${said}`)
      expect(code, args.join(' ')).toBe(2)
    }
  })

  it('reads a leading ~ of serve\'s --auth and DECISION_MEMORY_AUTH as the home folder, as of --policy', async () => {
    const home = await mkdtemp(join(tmpdir(), 'dm-home-'))
    const data = await mkdtemp(join(tmpdir(), 'dm-data-'))
    try {
      // Broken on purpose: the start stops on it, naming the file it read.
      await writeFile(join(home, 'tokens.json'), '{"tokens": 1}\n', { mode: 0o600 })
      vi.stubEnv('HOME', home)
      const flag = await run(['serve', '--port', '0', '--data', data, '--auth=~/tokens.json'])
      expect(flag.stderr).toContain(join(home, 'tokens.json'))
      expect(flag.code).toBe(1)
      vi.stubEnv('DECISION_MEMORY_AUTH', '~/tokens.json')
      const variable = await run(['serve', '--port', '0', '--data', data])
      expect(variable.stderr).toContain(`DECISION_MEMORY_AUTH: ${join(home, 'tokens.json')}`)
      expect(variable.code).toBe(1)
    } finally {
      vi.unstubAllEnvs()
      await rm(home, { recursive: true, force: true })
      await rm(data, { recursive: true, force: true })
    }
  })

  it('exits 1 with the help on stderr when no command is given: nothing was done, and a hook must not block on it', async () => {
    const { code, stdout, stderr } = await run([])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain('no command given')
    expect(stderr).toContain('Usage: decision-memory <command> [flags]')
  })
})
