import { describe, expect, it } from 'vitest'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { authHeaders, BUDGET_FLAG, dataDirectory, envPort, serviceUrl, serviceUrlProblem, EnvironmentError, homePath, identifierFlag, isFetchBarredPort, isLoopback, msFlag, msOf, parseFlags, parsePort, timestampFlag, TIMEOUT_FLAG, urlHost, UsageError } from './options'

describe('parseFlags', () => {
  const options = { user: { type: 'string' }, yes: { type: 'boolean' } } as const

  it('refuses a flag with a value given twice, naming both values, rather than keep the last', () => {
    expect(() => parseFlags({ args: ['--user', 'alice', '--user', 'bob'], options })).toThrow(UsageError)
    expect(() => parseFlags({ args: ['--user', 'alice', '--user=bob'], options })).toThrow('--user is given twice ("alice" and "bob"): give it once')
  })

  it('takes each flag given once, and a boolean flag repeated', () => {
    const { values } = parseFlags({ args: ['--user', 'alice', '--yes', '--yes'], options })
    expect(values).toEqual({ user: 'alice', yes: true })
  })
})

describe('parseFlags with a value given without its flag', () => {
  it('names the flag it is most likely for: the session, else the user, unless that one is given already', () => {
    const user = { user: { type: 'string' }, yes: { type: 'boolean' } } as const
    expect(() => parseFlags({ args: ['alice', '--yes'], options: user })).toThrow(new UsageError('"alice" is no argument of this command: give it after its flag, --user alice'))
    const toggle = { session: { type: 'string' }, user: { type: 'string' }, off: { type: 'boolean' } } as const
    expect(() => parseFlags({ args: ['s-1', '--off'], options: toggle })).toThrow('"s-1" is no argument of this command: give it after its flag, --session s-1')
    // The session given, a value after it is no likelier the user than anything else: no guess, Node's own words.
    expect(() => parseFlags({ args: ['--session', 's-1', 'x'], options: toggle })).toThrow('does not take positional arguments')
    expect(() => parseFlags({ args: ['--session=s-1', 'alice'], options: toggle })).toThrow('does not take positional arguments')
    // Nor where the one flag named so is given.
    expect(() => parseFlags({ args: ['--user', 'alice', 'bob'], options: user })).toThrow('does not take positional arguments')
  })

  it('names a boolean flag written without its dashes, and --port for a port number where the command takes one', () => {
    const toggle = { session: { type: 'string' }, user: { type: 'string' }, on: { type: 'boolean' }, off: { type: 'boolean' } } as const
    expect(() => parseFlags({ args: ['--session', 's-1', 'off'], options: toggle })).toThrow(new UsageError('"off" is no argument of this command: give it as a flag, --off'))
    // Not one given already: that is no fix.
    expect(() => parseFlags({ args: ['--session', 's-1', '--off', 'off'], options: toggle })).toThrow('does not take positional arguments')
    // Nor the opposite of one given: toggle refuses --on and --off together.
    expect(() => parseFlags({ args: ['--session', 's-1', '--off', 'on'], options: toggle })).toThrow('does not take positional arguments')
    expect(() => parseFlags({ args: ['--on', '--session=s-1', 'off'], options: toggle })).toThrow('does not take positional arguments')
    expect(() => parseFlags({ args: ['--session', 's-1', '--json', 'on'], options: { ...toggle, json: { type: 'boolean' } } })).toThrow('give it as a flag, --on')
    const serve = { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' } } as const
    expect(() => parseFlags({ args: ['7420'], options: serve })).toThrow(new UsageError('"7420" is no argument of this command: give it after its flag, --port 7420'))
    // Not a path, nor a second port, nor a number no port is (--port would refuse it in its turn).
    expect(() => parseFlags({ args: ['./data'], options: serve })).toThrow('does not take positional arguments')
    expect(() => parseFlags({ args: ['70000'], options: serve })).toThrow('does not take positional arguments')
    expect(() => parseFlags({ args: ['65535'], options: serve })).toThrow('give it after its flag, --port 65535')
    expect(() => parseFlags({ args: ['--port', '7420', '7421'], options: serve })).toThrow('does not take positional arguments')
  })

  it('names --budget for a number of ms where the command takes one (the hook), and --user beside it unless given; one it would refuse, no flag', () => {
    const hook = { user: { type: 'string' }, spool: { type: 'string' }, budget: { type: 'string' } } as const
    // A number is a user's name too (a uid): with no --user given, both readings are said.
    expect(() => parseFlags({ args: ['1000'], options: hook })).toThrow(
      new UsageError('"1000" is no argument of this command: give it after its flag, --budget 1000 if it is the hook\'s time in ms, or --user 1000 if it is the user whose choices these are'),
    )
    // With --user given, the number can only be the budget.
    expect(() => parseFlags({ args: ['--user', 'alice', '2500.5'], options: hook })).toThrow(
      new UsageError('"2500.5" is no argument of this command: give it after its flag, --budget 2500.5'),
    )
    expect(() => parseFlags({ args: ['--', '60000'], options: hook })).toThrow(
      'this command takes no arguments, and "60000" after -- is one: give it after its flag, --budget 60000 if it is the hook\'s time in ms, or --user 60000 if it is',
    )
    // A budget the hook refuses, or a second one, is no fix; nor is --user, under which the number would be taken as a name.
    for (const args of [['70000'], ['0'], ['--budget', '2000', '3000']]) {
      expect(() => parseFlags({ args, options: hook }), args.join(' ')).toThrow(/^Unexpected argument '\d+'\. This command does not take positional arguments/)
    }
    // A word is still its --user.
    expect(() => parseFlags({ args: ['alice'], options: hook })).toThrow('give it after its flag, --user alice')
  })

  it('says a word after -- is an argument the command takes none of, not a flag\'s value given without it', () => {
    const serve = { port: { type: 'string' }, host: { type: 'string' } } as const
    expect(() => parseFlags({ args: ['--', '7420'], options: serve })).toThrow(
      new UsageError('this command takes no arguments, and "7420" after -- is one: give it after its flag, --port 7420'),
    )
    expect(() => parseFlags({ args: ['--host', '::1', '--', './data'], options: serve })).toThrow(new UsageError('this command takes no arguments, and "./data" after -- is one'))
    // Before --, as without it.
    expect(() => parseFlags({ args: ['7420', '--', 'x'], options: serve })).toThrow(new UsageError('"7420" is no argument of this command: give it after its flag, --port 7420'))
  })

  it('gives the flag and value as they would be taken: after =, starting with -, and quoted for the shell', () => {
    const user = { user: { type: 'string' }, yes: { type: 'boolean' } } as const
    // `--user -x` would be refused in its turn, as a flag where the value is: `--user=-x` is taken.
    expect(() => parseFlags({ args: ['--yes', '--', '-x'], options: user })).toThrow(
      new UsageError('this command takes no arguments, and "-x" after -- is one: give it after its flag, --user=-x'),
    )
    expect(() => parseFlags({ args: ['alice smith', '--yes'], options: user })).toThrow(new UsageError('"alice smith" is no argument of this command: give it after its flag, --user \'alice smith\''))
    // An empty one is no value to give a flag (`--user ""` is refused as empty): Node's own words.
    expect(() => parseFlags({ args: ['', '--yes'], options: user })).toThrow('does not take positional arguments')
  })
})

describe('parseFlags with a value starting with -', () => {
  const options = { port: { type: 'string' }, user: { type: 'string' }, yes: { type: 'boolean' } } as const

  it('takes a negative number as the value of the flag before it, for the flag\'s own check to say what it takes', () => {
    expect(parseFlags({ args: ['--port', '-1', '--yes'], options }).values).toEqual({ port: '-1', yes: true })
    expect(parseFlags({ args: ['--user', '-0.5'], options }).values).toEqual({ user: '-0.5' })
    expect(() => parsePort(parseFlags({ args: ['--port', '-1'], options }).values.port as string, '--port')).toThrow(
      '--port must be a port number from 0 to 65535, not "-1"',
    )
    // After --, an argument is a positional, as parseArgs takes it.
    expect(parseFlags({ args: ['--yes', '--', '--port', '-1'], options, allowPositionals: true }).positionals).toEqual(['--port', '-1'])
    expect(() => parseFlags({ args: ['--port', '-1', '--port', '2'], options })).toThrow('--port is given twice ("-1" and "2"): give it once')
  })

  it('says a flag followed by another in one line naming both, not in parseArgs\'s three', () => {
    expect(() => parseFlags({ args: ['--user', '--yes'], options })).toThrow(
      new UsageError('--user needs a value, and "--yes" after it reads as a flag: give --user its value (--user=VALUE for one starting with -)'),
    )
    expect(() => parseFlags({ args: ['--user', 'alice', '--port', '-x'], options })).toThrow('--port needs a value, and "-x" after it reads as a flag')
    // Last with no value: said alike, not in parseArgs's "Option '--user <value>' argument missing".
    expect(() => parseFlags({ args: ['--yes', '--user'], options })).toThrow(new UsageError('--user needs a value, and nothing comes after it: give --user its value'))
  })
})

describe('parseFlags with a flag given empty', () => {
  it('refuses it, naming the flag, whether written `--out ""` or `--out=`', () => {
    const options = { out: { type: 'string' } } as const
    expect(() => parseFlags({ args: ['--out', ''], options })).toThrow('--out is empty: give its value, or leave --out out')
    expect(() => parseFlags({ args: ['--out='], options })).toThrow(UsageError)
  })
})

describe('msOf and msFlag, the ms of the hook\'s --budget and the guard\'s --timeout', () => {
  it('take decimal digits alone, for both flags: Number() took hex, an exponent and spaces around the digits for ms', () => {
    expect(msOf('3000', TIMEOUT_FLAG)).toBe(3000)
    expect(msOf('3000', BUDGET_FLAG)).toBe(3000)
    for (const raw of ['0x10', '3e3', '1e3', ' 3000', '3000 ', '+3000', '0b11', '0o10', '.5', '3000.', 'Infinity']) {
      expect(msOf(raw, TIMEOUT_FLAG), raw).toBeUndefined()
      expect(msOf(raw, BUDGET_FLAG), raw).toBeUndefined()
    }
  })

  it('take a fraction of a ms for the budget, a whole one alone for the guard, each up to its max, never 0', () => {
    expect(msOf('2000.5', BUDGET_FLAG)).toBe(2000.5)
    expect(msOf('2500.5', TIMEOUT_FLAG)).toBeUndefined()
    expect(msOf('3000.0', TIMEOUT_FLAG)).toBe(3000)
    expect(msOf('60000', BUDGET_FLAG)).toBe(60000)
    expect(msOf('60001', BUDGET_FLAG)).toBeUndefined()
    expect(msOf('10000', TIMEOUT_FLAG)).toBe(10000)
    expect(msOf('10001', TIMEOUT_FLAG)).toBeUndefined()
    expect(msOf('0', TIMEOUT_FLAG)).toBeUndefined()
    expect(msOf('0.0', BUDGET_FLAG)).toBeUndefined()
  })

  it('refuse with one kind of message naming the flag, what it takes and the value', () => {
    expect(() => msFlag('0x10', TIMEOUT_FLAG)).toThrow(new UsageError('--timeout must be a whole number of ms in decimal digits (1000), from 1 to 10000, not "0x10"'))
    expect(() => msFlag('0x10', BUDGET_FLAG)).toThrow(
      new UsageError('--budget must be a positive number of ms in decimal digits (2000), at most 60000 (a minute, the longest the agent is kept waiting at a question), not "0x10"'),
    )
  })
})

describe('parsePort', () => {
  it('takes digits only: Number() reads a blank as 0 (any free port) and hex or exponents as ports', () => {
    expect(parsePort('7420', '--port')).toBe(7420)
    expect(parsePort('0', '--port')).toBe(0)
    for (const raw of [' ', '0x1f', '1e3', '-1', '65536', '80.0']) {
      expect(() => parsePort(raw, 'DECISION_MEMORY_PORT'), raw).toThrow(`DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "${raw}"`)
    }
  })

  it('says a flag that is no port is a mistake in the command, and a variable one of the environment', () => {
    expect(() => parsePort('abc', '--port')).toThrow(UsageError)
    expect(() => parsePort('abc', 'DECISION_MEMORY_PORT')).toThrow(EnvironmentError)
  })
})

describe('urlHost', () => {
  it('brackets an IPv6 address, as a URL writes it, and leaves names and IPv4 addresses as they are', () => {
    expect(urlHost('::1')).toBe('[::1]')
    expect(urlHost('[::1]')).toBe('[::1]')
    expect(urlHost('127.0.0.1')).toBe('127.0.0.1')
    expect(urlHost('localhost')).toBe('localhost')
    expect(new URL(`http://${urlHost('::1')}:7420`).port).toBe('7420')
  })
})

describe('isLoopback', () => {
  it('takes 127.0.0.0/8 in every form the resolver reads as an address there, as Node then binds it, and ::1 and localhost', () => {
    for (const host of ['127.0.0.1', '127.1', '0x7f.1', '2130706433', '127.0.0.5', '127.000.000.001', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) {
      expect(isLoopback(host), host).toBe(true)
    }
  })

  it('refuses what is no address of 127.0.0.0/8, which the resolver would ask DNS for (127.0.0.999, 127.1.), or another network', () => {
    for (const host of ['127.0.0.999', '127.0.0.08', '127.1.', '128.1', '10.1', '0.0.0.0', '::', '::ffff:127.0.0.999', 'example.com', '127.0.0.1.example.com']) {
      expect(isLoopback(host), host).toBe(false)
    }
  })
})

describe('homePath and dataDirectory', () => {
  it('put a leading ~ in the home folder, where no shell did (--data=~/x, a quoted variable)', () => {
    expect(homePath('~')).toBe(homedir())
    expect(homePath('~/dm/data')).toBe(join(homedir(), 'dm', 'data'))
    for (const kept of ['~bob/x', 'data/~', '/srv/~/x', 'x']) expect(homePath(kept)).toBe(kept)
    expect(dataDirectory('~/dm')).toBe(join(homedir(), 'dm'))
    expect(dataDirectory(undefined, { DECISION_MEMORY_DATA: '~/dm2' })).toBe(join(homedir(), 'dm2'))
    expect(dataDirectory(undefined, {})).toBe(resolve('data'))
  })
})

describe('isFetchBarredPort', () => {
  it('names the ports Node\'s fetch refuses as "bad port", and not the service\'s default', async () => {
    for (const port of [6000, 10080, 6665, 5060]) {
      expect(isFetchBarredPort(port), String(port)).toBe(true)
      // Refused before any connection is tried: no socket, no wait.
      const error = await fetch(`http://127.0.0.1:${port}/healthz`).then(() => undefined, (e: unknown) => e)
      expect((error as { cause?: { message?: string } }).cause?.message, String(port)).toBe('bad port')
    }
    for (const port of [0, 7420, 8080, 6001]) expect(isFetchBarredPort(port), String(port)).toBe(false)
  })
})

describe('timestampFlag', () => {
  it('takes an ISO time with a zone as given', () => {
    expect(timestampFlag('2026-07-01T15:30:00+05:30', 'as-of')).toBe('2026-07-01T15:30:00+05:30')
  })

  it('says a time in ISO form on no day of the calendar is no moment, not that it must be an ISO time', () => {
    expect(() => timestampFlag('2026-02-30T10:00:00Z', 'as-of')).toThrow('--as-of "2026-02-30T10:00:00Z" is not a moment of the calendar: no such day, hour or offset')
    expect(() => timestampFlag('2026-07-01', 'now')).toThrow('--now must be an ISO time with seconds and a zone, e.g. 2026-07-01T10:00:00Z, not "2026-07-01"')
  })

  it('names the seconds as what a time with a zone but none lacks, not the zone it has', () => {
    expect(() => timestampFlag('2026-12-04T04:00Z', 'now')).toThrow('--now must be an ISO time with seconds and a zone, e.g. 2026-07-01T10:00:00Z, not "2026-12-04T04:00Z"')
  })
})

describe('authHeaders', () => {
  const TOKEN = 'alice-token-0123456789abcdef'

  it('sends DECISION_MEMORY_TOKEN as the bearer token, without white space around it, and nothing without it', () => {
    expect(authHeaders({ DECISION_MEMORY_TOKEN: `\t${TOKEN} \n` })).toEqual({ authorization: `Bearer ${TOKEN}` })
    expect(authHeaders({})).toEqual({})
  })

  it.each([
    ['a line break', `${TOKEN.slice(0, 10)}\n${TOKEN.slice(10)}`],
    ['a control character', `${TOKEN}\u0001`],
    ['a character past U+00FF', `${TOKEN}€`],
  ])('refuses a token holding %s, which fetch would quote in its refusal, naming the variable and not the token', (_what, token) => {
    const error = (() => {
      try {
        return authHeaders({ DECISION_MEMORY_TOKEN: token })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(EnvironmentError)
    expect((error as Error).message).toContain('DECISION_MEMORY_TOKEN')
    expect((error as Error).message).not.toContain(TOKEN.slice(0, 10))
  })
})

describe('serviceUrl', () => {
  it('takes DECISION_MEMORY_URL without the white space around it, as the token, and white space alone as unset', () => {
    for (const url of [' http://127.0.0.1:7421', 'http://127.0.0.1:7421 ', 'http://127.0.0.1:7421\n', '\thttp://127.0.0.1:7421/\r\n']) {
      expect(serviceUrl({ DECISION_MEMORY_URL: url }), JSON.stringify(url)).toBe('http://127.0.0.1:7421')
      expect(serviceUrlProblem(serviceUrl({ DECISION_MEMORY_URL: url })), JSON.stringify(url)).toBeUndefined()
    }
    expect(serviceUrl({ DECISION_MEMORY_URL: ' \n', DECISION_MEMORY_PORT: '7422' })).toBe('http://127.0.0.1:7422')
    expect(serviceUrl({ DECISION_MEMORY_URL: '' })).toBe('http://127.0.0.1:7420')
  })
})

describe('envPort', () => {
  it('takes DECISION_MEMORY_PORT without the white space around it, as the URL, and white space alone as unset', () => {
    for (const port of [' 7421', '7421 ', '7421\r', '7421\r\n', '\t7421']) expect(envPort({ DECISION_MEMORY_PORT: port }), JSON.stringify(port)).toBe(7421)
    expect(envPort({ DECISION_MEMORY_PORT: ' \n' })).toBe(7420)
    expect(serviceUrl({ DECISION_MEMORY_PORT: '7421\r' })).toBe('http://127.0.0.1:7421')
    expect(() => envPort({ DECISION_MEMORY_PORT: '74 21' })).toThrow('DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "74 21"')
  })
})

describe('serviceUrlProblem', () => {
  it('quotes no password of an address it refuses, with the scheme forgotten, another scheme, or one that does not parse', () => {
    for (const url of ['me:s3cret@127.0.0.1:7420', 'ftp://me:s3cret@127.0.0.1:7420', 'http://me:s3cret@[::1', 'http://me:s3cret@127.0.0.1:7420']) {
      const problem = serviceUrlProblem(url)
      expect(problem, url).toMatch(/^DECISION_MEMORY_URL (is "|holds a user name or password \()/)
      expect(problem, url).not.toContain('s3cret')
    }
    expect(serviceUrlProblem('me:s3cret@127.0.0.1:7420')).toBe('DECISION_MEMORY_URL is "…@127.0.0.1:7420": give the service\'s address as http://HOST:PORT')
    expect(serviceUrlProblem('localhost:7420')).toBe('DECISION_MEMORY_URL is "localhost:7420": give the service\'s address as http://HOST:PORT')
    expect(serviceUrlProblem('http://127.0.0.1:7420')).toBeUndefined()
  })

  it('quotes no part of a password that holds a `/` or an `@`, which ends the host or another user name where it stands', () => {
    for (const url of ['http://me:s3/cret@localhost:7420', 'http://me:s3@cret@localhost:74a0', 'me:s3@cret@localhost:7420', 'http://me:s3?cret@localhost:7420']) {
      const problem = serviceUrlProblem(url)
      expect(problem, url).toMatch(/^DECISION_MEMORY_URL (is "|holds a user name or password \()/)
      expect(problem, url).not.toMatch(/s3|cret/)
    }
    expect(serviceUrlProblem('http://me:s3/cret@localhost:7420')).toBe(
      'DECISION_MEMORY_URL is "http://…@localhost:7420", which is no address fetch can read (ERR_INVALID_URL): give the service\'s address as http://HOST:PORT',
    )
  })

  it('says an address no URL can be read from (a port of letters), which the hook took for a service not reachable', () => {
    const said = 'DECISION_MEMORY_URL is "http://localhost:74a0", which is no address fetch can read (ERR_INVALID_URL): give the service\'s address as http://HOST:PORT'
    expect(serviceUrlProblem('http://localhost:74a0')).toBe(said)
  })

  it('says an address with a query or fragment, after which the service\'s paths would be no path', () => {
    expect(serviceUrlProblem('http://127.0.0.1:7420?x=1')).toBe(
      'DECISION_MEMORY_URL is "http://127.0.0.1:7420?x=1", which holds a query or fragment (?x=1) the paths of the service would come after: give its address as http://HOST:PORT',
    )
    expect(serviceUrlProblem('http://127.0.0.1:7420/#top')).toContain('holds a query or fragment (#top)')
    // An empty one (a `?` or `#` left at the end) is one all the same: the URL's search and hash leave it out.
    for (const [url, part] of [['http://127.0.0.1:7420/?', '?'], ['http://127.0.0.1:7420#', '#'], ['http://127.0.0.1:7420/?#', '?#']] as const) {
      expect(serviceUrlProblem(url), url).toBe(
        `DECISION_MEMORY_URL is "${url}", which holds a query or fragment (${part}) the paths of the service would come after: give its address as http://HOST:PORT`,
      )
    }
    // A path of its own (behind a proxy) is an address still.
    expect(serviceUrlProblem('http://127.0.0.1:7420/dm')).toBeUndefined()
  })
})

describe('identifierFlag', () => {
  it('refuses, for a command that writes, a name white space alone or spaced at its ends; a command that reads still takes one', () => {
    expect(() => identifierFlag('   ', 'session', undefined, { written: true })).toThrow('--session: must not be empty or white space alone')
    expect(() => identifierFlag(' alice ', 'user', undefined, { written: true })).toThrow('--user: no spaces at its ends')
    expect(() => identifierFlag(' alice', 'user', 'DECISION_MEMORY_USER', { written: true })).toThrow(EnvironmentError)
    // The name is quoted as given: a space at the end of a variable is not seen otherwise.
    expect(() => identifierFlag('erin ', 'user', 'DECISION_MEMORY_USER', { written: true })).toThrow(
      'DECISION_MEMORY_USER (the default of --user): no spaces at its ends: "erin " would be another name than "erin"',
    )
    expect(() => identifierFlag('s-1\u00a0', 'session', undefined, { written: true })).toThrow('--session: no spaces at its ends: "s-1\u00a0" would be another name than "s-1"')
    expect(identifierFlag('Case U', 'user', undefined, { written: true })).toBe('Case U')
    // why, export and forget reach what was stored under it before writes refused it.
    expect(identifierFlag(' alice ', 'user')).toBe(' alice ')
  })
})
