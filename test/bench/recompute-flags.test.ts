import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cleanEnv } from '../support/processes'
import { tempDir } from '../support/temp-dir'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SCRIPT = 'scripts/bench/recompute.ts'

/** Runs recompute.ts through tsx with its own TMPDIR, which a run past its flags makes its copies in. */
function recompute(args: string[]): Promise<{ code: number; stdout: string; stderr: string; tmp: string }> {
  const tmp = tempDir('dm-recompute-flags-')
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { cwd: ROOT, env: cleanEnv({ TMPDIR: tmp }) }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr, tmp })
    })
  })
}

/** The working folders a run past its flags makes (tsx keeps its own cache there too). */
const copies = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('dm-recompute-'))

describe('scripts/bench/recompute.ts flags', () => {
  it('prints its usage on --help, the flags bench/README.md lists for it, and seeds nothing', async () => {
    const run = await recompute(['--help'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    const listed = readFileSync(fileURLToPath(new URL('../../bench/README.md', import.meta.url)), 'utf8')
      .split('\n')
      .find((line) => line.startsWith(`npx tsx ${SCRIPT} `))
    const flags = (text: string) => [...new Set(text.match(/--[a-z]+/g))]
    expect(listed).toBeDefined()
    expect(flags(run.stdout)).toEqual(flags((listed as string).split('#')[0] as string))
    expect(copies(run.tmp)).toEqual([])
  })

  // One user and one pair: a run that went past a flag it should have refused seeds a store of one
  // user, not of 1,000, before it fails or ends.
  it.each([
    [['--users', '1', '--pairs', '1', '--blocks', 'x'], '--blocks x: a whole number of at least 1'],
    [['--users', '1', '--pairs', '1', '--passes', '0'], '--passes 0: a whole number of at least 1'],
    [['--users', '1.5', '--pairs', '1'], '--users 1.5: a whole number of at least 1'],
    [['--users', '1', '--pairs', '1', '--settle', 'soon'], '--settle soon: a number of seconds, 0 or more'],
    [['--users', '1', '--pairs', '1', '--checkout', '/'], '--checkout /: no src/decision-memory.ts there, so no tree of this service'],
    [['--fresh', '--pairs', '1000', '--blocks', '5'], '--pairs 1000 × --blocks 5: at most 4000 (--users × 4 points)'],
    [['--bogus'], "Unknown option '--bogus'"],
    // A negative number is the flag's value, said by its own check, not parseArgs's "ambiguous".
    [['--pairs', '1', '--users', '-1'], '--users -1: a whole number of at least 1'],
    [['--users', '1', '--pairs', '1', '--settle', '-1'], '--settle -1: a number of seconds, 0 or more'],
  ])('refuses %j before seeding a store: the flag named, the usage, exit 2, no stack', async (args, said) => {
    const run = await recompute(args)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`recompute.ts: ${said}\nusage: npx tsx ${SCRIPT} [`)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(copies(run.tmp)).toEqual([])
  })
})
