import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { runCli } from '../../test/support/spawn-service'

describe('decision-memory hook flags', () => {
  it('takes a --budget past Claude Code\'s 60 s hook timeout for a flag mistake: named on stderr, the capture spooled, exit 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-hook-budget-'))
    try {
      const spool = join(dir, 'spool.ndjson')
      for (const budget of ['1e9', '60001']) {
        const result = await runCli(['hook', '--budget', budget], {
          input: JSON.stringify(claudeCodeFixture('post-tool-use-single')),
          env: { DECISION_MEMORY_URL: 'http://127.0.0.1:1', DECISION_MEMORY_SPOOL: spool },
        })
        // 0, never 2: a PreToolUse hook that exits 2 blocks the agent's tool call (R-CAP-6).
        expect(result.code, budget).toBe(0)
        expect(result.stdout, budget).toBe('')
        expect(result.stderr, budget).toContain(`--budget must be a positive number of ms, at most 60000 (Claude Code's default hook timeout), not "${budget}"`)
      }
      expect(existsSync(spool)).toBe(true)
      expect((await readFile(spool, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
