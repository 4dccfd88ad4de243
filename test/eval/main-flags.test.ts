import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// `npm run eval`'s flags, checked before anything is simulated or written: a mistake in them is a
// usage error, one line naming the flag, exit 2 (as calibration-split.ts and the CLI); a failure
// of another kind (a policy file that cannot be read) is still 1.
const ROOT = join(__dirname, '..', '..')
const run = (args: string[]) =>
  spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'eval', 'main.ts'), ...args], { cwd: ROOT, encoding: 'utf8' })

describe('eval: a mistake in the flags', () => {
  it.each([
    [['--users', '0'], '--users must be a positive integer, not "0"'],
    [['--seed', 'abc'], '--seed must be a positive integer, not "abc"'],
    [['--workers', 'two'], '--workers must be a positive integer, not "two"'],
    [['--sensitivity-users', '1.5'], '--sensitivity-users must be a positive integer, not "1.5"'],
    [['--users', '1\n2'], '--users must be a positive integer, not "1\\n2"'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['--users'], "Option '--users <value>' argument missing"],
  ])('%j is refused on one line naming the flag, exit 2', (args, said) => {
    const r = run(args)
    expect(r.stderr).toBe(`eval: ${said}\n`)
    expect(r.stdout).toBe('')
    expect(r.status).toBe(2)
  })

  it('a flag followed by another where its value should be is refused on one line (parseArgs says it on three)', () => {
    const r = run(['--seed', '--users', '3'])
    expect(r.stderr).toMatch(/^eval: Option '--seed' argument is ambiguous\. [^\n]*\n$/)
    expect(r.status).toBe(2)
  })

  it('checks the flags before it reads the policy: a bad --users with an unreadable --policy is the usage error', () => {
    const r = run(['--policy', join(ROOT, 'no-such-policy.json'), '--users', '0'])
    expect(r.stderr).toBe('eval: --users must be a positive integer, not "0"\n')
    expect(r.status).toBe(2)
  })

  it('a policy file it cannot read is no usage error: exit 1', () => {
    const missing = join(ROOT, 'no-such-policy.json')
    const r = run(['--policy', missing, '--users', '1'])
    expect(r.stderr).toBe(`eval: ${missing}: cannot read policy file: there is no such file (ENOENT): give --policy the path of a policy file\n`)
    expect(r.status).toBe(1)
  })
})
