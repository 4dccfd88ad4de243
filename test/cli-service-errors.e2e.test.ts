import { existsSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPort, runCli } from './support/processes'
import { tempDir } from './support/temp-dir'

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

describe('a command whose service is there but does not answer', () => {
  it('says so in one line naming the URL and why, and exits 1, without a stack trace', async () => {
    // Takes each connection and drops it at once (a service crashing mid-request): fetch may wait out toggle's 5 s.
    const rude = createServer((socket) => socket.destroy())
    servers.push(rude)
    await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(rude.address() as { port: number }).port}`
    const result = await runCli(['toggle', '--session', 's-1', '--off'], { env: { DECISION_MEMORY_URL: url } })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(`^decision-memory toggle: PUT ${url}/v1/sessions/s-1/personalization: (no answer within 5 s \\(is the service busy or stuck\\?\\)|the service closed the connection before it answered \\(\\w+\\): did it stop or restart\\?)\\n$`),
    )
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('a command with no service and no store where it looks', () => {
  it('says where it looked and exits 1, and makes no empty store a toggle or a forget would seem to work in', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const cwd = tempDir('dm-nostore-')
    const data = join(cwd, 'data')
    for (const args of [
      ['toggle', '--session', 's-1', '--off'],
      ['forget', '--user', 'alice', '--yes'],
    ]) {
      // No store named: the service's, else ./data.
      const result = await runCli(args, { env: { DECISION_MEMORY_URL: url }, cwd })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`no service at ${url} (connection refused), and no store in ${data}`)
      expect(existsSync(data)).toBe(false)
      // A store named that is not there is not looked for elsewhere.
      const named = await runCli([...args, '--data', data], { env: { DECISION_MEMORY_URL: url } })
      expect(named.code).toBe(1)
      expect(named.stderr).toContain(`there is no store in ${data} (--data): give the data directory of a store`)
      expect(existsSync(data)).toBe(false)
    }
    // An import may come before the service first runs: it makes the store.
    const folder = tempDir('dm-adr-')
    writeFileSync(join(folder, '0001-use-postgres.md'), '# 1. Use Postgres\n\nDate: 2024-01-10\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n')
    const imported = await runCli(['import-adr', folder, '--data', data], { env: { DECISION_MEMORY_URL: url } })
    expect(imported.code).toBe(0)
    expect(existsSync(data)).toBe(true)
  })
})
