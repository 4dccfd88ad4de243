import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// The script's flags, checked before anything is simulated: `--users 0` ran an empty population and
// exited 0, and `--seed abc` was NaN, a seed the simulation took as it was.
const ROOT = join(__dirname, '..', '..')
const run = (args: string[]) =>
  spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'eval', 'calibration-split.ts'), ...args], { cwd: ROOT, encoding: 'utf8' })

describe('calibration-split: a count flag that is not a positive integer', () => {
  it.each([
    [['--seed', 'abc', '--users', '0'], '--seed must be a positive integer, not "abc"'],
    [['--users', '0'], '--users must be a positive integer, not "0"'],
    [['--users', '1.5'], '--users must be a positive integer, not "1.5"'],
    [['--workers', 'two'], '--workers must be a positive integer, not "two"'],
  ])('%j is refused, naming the flag, exit 2', (args, said) => {
    const r = run(args)
    expect(r.stderr).toBe(`calibration-split: ${said}\n`)
    expect(r.stdout).toBe('')
    expect(r.status).toBe(2)
  })
})
