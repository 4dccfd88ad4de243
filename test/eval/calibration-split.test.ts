import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { USER_TYPES } from '../../scripts/eval/users'

// The script's flags, checked before anything is simulated: `--users 0` ran an empty population and
// exited 0, and `--seed abc` was NaN, a seed the simulation took as it was. Every mistake in them is
// a usage error, as in main.ts: one line naming the flag, exit 2 (an unknown flag and a bad --types
// exited 1, the first with parseArgs's stack).
const ROOT = join(__dirname, '..', '..')
const run = (args: string[]) =>
  spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'eval', 'calibration-split.ts'), ...args], { cwd: ROOT, encoding: 'utf8' })

describe('calibration-split: a mistake in the flags', () => {
  it.each([
    [['--seed', 'abc', '--users', '0'], '--seed must be a positive integer, not "abc"'],
    [['--users', '0'], '--users must be a positive integer, not "0"'],
    [['--users', '1.5'], '--users must be a positive integer, not "1.5"'],
    [['--workers', 'two'], '--workers must be a positive integer, not "two"'],
    [['--users', '1\n2'], '--users must be a positive integer, not "1\\n2"'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['--users'], "Option '--users <value>' argument missing"],
    [['--types', 'novice,nobody'], `--types: no user type "novice" (${USER_TYPES.join(', ')})`],
    [['--types', 'habitual,nobody'], `--types: no user type "nobody" (${USER_TYPES.join(', ')})`],
  ])('%j is refused on one line naming the flag, exit 2', (args, said) => {
    const r = run(args)
    expect(r.stderr).toBe(`calibration-split: ${said}\n`)
    expect(r.stdout).toBe('')
    expect(r.status).toBe(2)
  })

  it('a flag followed by another where its value should be is refused on one line (parseArgs says it on three)', () => {
    const r = run(['--seed', '--users', '3'])
    expect(r.stderr).toMatch(/^calibration-split: Option '--seed' argument is ambiguous\. [^\n]*\n$/)
    expect(r.status).toBe(2)
  })
})
