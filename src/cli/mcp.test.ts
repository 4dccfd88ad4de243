import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/support/spawn-service'
import { tempDir } from '../../test/support/temp-dir'
import { MCP_HELP } from './mcp'

describe('mcp --help', () => {
  it('names the store opened when no service runs as the server opens it: $DECISION_MEMORY_DATA, else the checkout\'s data', () => {
    const text = MCP_HELP.replace(/\s+/g, ' ')
    expect(text).toContain("when none runs, it opens $DECISION_MEMORY_DATA, else this checkout's ./data")
  })
})

describe('mcp --data where no store can be', () => {
  it('refuses at start, in one line, exit 1, as serve does, a file or a folder of other files, rather than fail every tool call', async () => {
    const dir = tempDir('dm-mcp-data-')
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0\n')
    mkdirSync(join(dir, 'project'))
    writeFileSync(join(dir, 'project', 'README.md'), '# a project\n')
    for (const [data, said] of [
      [join(dir, 'passwd'), `cannot make the store in ${join(dir, 'passwd')}: it, or a folder above it, is a file, not a folder`],
      [join(dir, 'passwd', 'x'), `cannot make the store in ${join(dir, 'passwd', 'x')}: it, or a folder above it, is a file, not a folder`],
      [join(dir, 'project'), `there is no store in ${join(dir, 'project')}, and it holds files that are not a store's (README.md)`],
    ]) {
      // stdin closed at once: a server that started ends there, exit 0, having said nothing.
      const { code, stdout, stderr } = await runCli(['mcp', '--data', data as string], { env: { DECISION_MEMORY_URL: 'http://127.0.0.1:1' } })
      expect(code, data).toBe(1)
      expect(stdout, data).toBe('')
      expect(stderr, data).toContain(`decision-memory mcp: ${said}`)
    }
    // Nothing made where it was refused.
    expect(existsSync(join(dir, 'project', 'CURRENT'))).toBe(false)
  })
})

describe('mcp with a DECISION_MEMORY_URL or DECISION_MEMORY_PORT no service could be reached by', () => {
  it('refuses at start without --data, in one line naming the variable, exit 1, rather than fail every tool call', async () => {
    for (const [env, said] of [
      [{ DECISION_MEMORY_URL: 'localhost:7420' }, 'DECISION_MEMORY_URL is "localhost:7420": give the service\'s address as http://HOST:PORT'],
      [{ DECISION_MEMORY_URL: '', DECISION_MEMORY_PORT: 'abc' }, 'DECISION_MEMORY_PORT must be a port number from 0 to 65535, not "abc"'],
      // A port of letters in the URL: Claude Code showed the server connected, and every call failed ERR_INVALID_URL.
      [{ DECISION_MEMORY_URL: 'http://localhost:74a0' }, 'DECISION_MEMORY_URL is "http://localhost:74a0", which is no address fetch can read (ERR_INVALID_URL): give the service\'s address as http://HOST:PORT'],
      // fetch refuses a "bad port" of the Fetch standard before connecting, so every call failed.
      [{ DECISION_MEMORY_URL: 'http://127.0.0.1:6000' }, 'port 6000 is one that fetch, the client of the commands and hooks, will not connect to'],
      [{ DECISION_MEMORY_URL: '', DECISION_MEMORY_PORT: '10080' }, 'port 10080 is one that fetch, the client of the commands and hooks, will not connect to'],
      // A token no header may carry stopped every call before it asked the service or the store.
      [{ DECISION_MEMORY_TOKEN: 'abc\ndef' }, 'DECISION_MEMORY_TOKEN holds a line break, a control character or a character past U+00FF'],
    ] as const) {
      const { code, stdout, stderr } = await runCli(['mcp'], { env })
      expect(code, said).toBe(1)
      expect(stdout, said).toBe('')
      expect(stderr, said).toContain(`decision-memory mcp: ${said}`)
      // With --data each call is made on that store, which the variable does not stop: it starts
      // (and, stdin closed at once, ends there, exit 0, having said nothing).
      const onStore = await runCli(['mcp', '--data', tempDir('dm-mcp-env-')], { env })
      expect(onStore.code, said).toBe(0)
      expect(onStore.stderr, said).toBe('')
    }
  })
})
