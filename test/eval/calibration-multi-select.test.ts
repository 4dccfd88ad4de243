import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, watch } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cleanEnv } from '../support/processes'
import { tempDir } from '../support/temp-dir'

// The multi-select calibration script's flags, checked before anything is simulated or a commit's
// tree is unpacked: one line naming the flag, exit 2, as calibration-split.ts says one. Its figures
// are quoted in README.md, so a run is the same at the same seed whatever the number of workers.
const ROOT = join(__dirname, '..', '..')
const run = (args: string[], tmp = tempDir('dm-multi-select-test-')) => ({
  ...spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'eval', 'calibration-multi-select.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: cleanEnv({ TMPDIR: tmp }),
  }),
  tmp,
})

describe('calibration-multi-select: a mistake in the flags', () => {
  it.each([
    [['--seed', 'abc', '--users', '0'], '--seed must be a positive integer, not "abc"'],
    [['--users', '0'], '--users must be a positive integer, not "0"'],
    [['--users', '1.5'], '--users must be a positive integer, not "1.5"'],
    [['--workers', 'two'], '--workers must be a positive integer, not "two"'],
    [['--users', '-3'], '--users must be a positive integer, not "-3"'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['--users'], "Option '--users <value>' argument missing"],
    [['--users', '1', '--base', 'no-such-commit'], '--base: no src/decision-memory.ts at "no-such-commit" in this repository'],
  ])('%j is refused on one line naming the flag, exit 2, before anything runs', (args, said) => {
    const r = run(args)
    expect(r.stderr).toBe(`calibration-multi-select: ${said}\n`)
    expect(r.stdout).toBe('')
    expect(r.status).toBe(2)
    expect(made(r.tmp)).toEqual([])
  })
})

/** The folders a run made in its TMPDIR (tsx keeps its own cache there, named tsx-…). */
const made = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('dm-'))

describe('calibration-multi-select: a run', () => {
  it('prints the same figures at the same seed in one process as in two', () => {
    const one = run(['--seed', '5', '--users', '6', '--workers', '1'])
    const two = run(['--seed', '5', '--users', '6', '--workers', '2'])
    expect(one.stderr).toBe('')
    expect(one.status).toBe(0)
    expect(one.stdout).toMatch(/^seed 5, 6 users, the service of this checkout; split evidence in \d+ answers\n/)
    expect(one.stdout.split('\n').filter((line) => line.startsWith('split option '))).toHaveLength(5)
    expect(two.stdout).toBe(one.stdout)
  })

  it('asks the service of the --base commit, its tree unpacked for the run and removed after it', () => {
    const r = run(['--users', '2', '--workers', '1', '--base', 'HEAD'])
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^seed 20260701, 2 users, the service of commit [0-9a-f]{7,}; /)
    expect(made(r.tmp)).toEqual([])
  })
})

describe('calibration-multi-select: a --base run stopped by a signal', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('removes the unpacked tree on %s, sent as soon as its folder is made', async (signal) => {
    // Ctrl-C, or a kill, ended the run at once and left the other commit's tree in TMPDIR.
    const tmp = tempDir('dm-multi-select-test-')
    const watcher = watch(tmp)
    // Run under node itself: the tsx command's relay follows a signal not taken within 30 ms with
    // SIGKILL, which a loaded machine could draw, and which no cleanup outlives.
    const script = join(ROOT, 'scripts', 'eval', 'calibration-multi-select.ts')
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--users', '100000', '--base', 'HEAD'], {
      cwd: ROOT,
      stdio: 'ignore',
      env: cleanEnv({ TMPDIR: tmp }),
    })
    const exited = new Promise((resolve) => child.once('exit', resolve))
    watcher.on('change', (_, name) => {
      if (String(name).startsWith('dm-multi-select-')) child.kill(signal)
    })
    await exited
    watcher.close()
    expect(made(tmp)).toEqual([])
  })
})
