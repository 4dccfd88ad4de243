import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, cleanEnv, closedPort } from './support/processes'
import { damagedStore } from './support/damaged-store'
import { tempDir } from './support/temp-dir'

const clients: Client[] = []

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
})


// The MCP server's calls on a store it opened itself (no service runs) say a store failure as the
// CLI's commands say it: a tool that only reads (why of a decision or a file, a check with as_of)
// that a read failed and nothing was written, not that a write stored nothing; one that writes, or
// may (a point's why rebuilds its aggregate), as a write's.
describe('decision-memory mcp --data on a store LevelDB cannot read', () => {
  it('says a read failed where the tool only reads, and a write where it writes or may', async () => {
    const dataDir = await damagedStore('dm-mcp-damaged-')
    const file = join(tempDir('dm-mcp-repo-'), 'billing.ts')
    await writeFile(file, 'export {}\n')
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--data', dataDir],
      env: cleanEnv({ DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'alice' }) as Record<string, string>,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'decision-memory-test', version: '1.0.0' })
    await client.connect(transport)
    clients.push(client)
    const said = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args })
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
      return (result.content as Array<{ text: string }>)[0]?.text ?? ''
    }
    const reads: Array<[string, Record<string, unknown>]> = [
      ['why', { key: 'D-1' }],
      ['why', { file }],
      ['check_decision', { action: 'git push --force', as_of: '2026-01-01T00:00:00.000Z' }],
    ]
    for (const [name, args] of reads) {
      expect.soft(await said(name, args), `${name} ${JSON.stringify(args)}`).toMatch(
        /could not be read or written \(IO error: .*\): .*; a read failed, and this command writes nothing: if a file of it is damaged or cut short, restore the folder from a backup/,
      )
    }
    const writes: Array<[string, Record<string, unknown>]> = [
      ['check_decision', { action: 'git push --force' }],
      ['why', { point: 'complexity-tier' }],
      ['record_choice', { decision_id: 'd-new', question: 'Which tier?', user_choice: 'Tier M', all_options: ['Tier S', 'Tier M'] }],
    ]
    for (const [name, args] of writes) {
      expect.soft(await said(name, args), `${name} ${JSON.stringify(args)}`).toMatch(/could not be read or written \(IO error: .*\): .*; a write that failed stored nothing: if a file of it is damaged/)
    }
  })
})
