import { execFile } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cleanEnv } from './support/processes'
import { tempDir } from './support/temp-dir'

// The scripts README.md tells a user to run, given a mistake in their flags: one line naming the
// flag, exit 2, before anything runs (as npm run eval, calibration-split.ts and the CLI say one).
// They stopped with parseArgs's stack trace (exit 1) on a flag they did not know, and took a count
// such as `--users abc` as NaN, running nothing or without end. Every case is one a script refuses
// before it starts a service or seeds a store; the values beside the mistake keep a run that went
// past it small, and the timeout ends one that did not stop.
const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Runs a script through tsx with its own TMPDIR, where a run past its flags makes its folders. */
function script(path: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; tmp: string }> {
  const tmp = tempDir('dm-script-flags-')
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path, ...args], { cwd: ROOT, env: cleanEnv({ TMPDIR: tmp }), timeout: 20_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr, tmp })
    })
  })
}

/** The folders a run past its flags makes in its TMPDIR (tsx keeps its own cache there, named tsx-…). */
const made = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('dm-'))

describe('a mistake in a script\'s flags', () => {
  it.each([
    ['scripts/calibration-switch.ts', ['--bogus'], "Unknown option '--bogus'"],
    ['scripts/calibration-switch.ts', ['--kinds', 'weak', '--rates', '1', '--seeds', '1', '--users', 'abc'], '--users must be a positive integer, not "abc"'],
    ['scripts/calibration-switch.ts', ['--kinds', 'weak', '--rates', '1', '--users', '1', '--seeds', '1,x'], '--seeds must be a positive integer, not "x"'],
    ['scripts/calibration-switch.ts', ['--kinds', 'weak', '--users', '1', '--seeds', '1', '--rates', '0'], '--rates must be a positive number, not "0"'],
    ['scripts/calibration-switch.ts', ['--rates', '1', '--users', '1', '--seeds', '1', '--kinds', 'weak,steady'], '--kinds: no kind "steady" (stationary, bursty, strong, weak)'],
    ['scripts/integral-cost.ts', ['--help'], "Unknown option '--help'"],
    ['scripts/integral-cost.ts', ['--rounds', '1', '--calls', '1', '--base', 'no-such-commit'], '--base: no src/domain/statistics.ts at "no-such-commit" in this repository'],
    ['scripts/integral-cost.ts', ['--rounds', '1', '--calls', '0'], '--calls must be a positive integer, not "0"'],
    ['scripts/sync-cost.ts', ['--count'], "Option '--count <value>' argument missing"],
    ['scripts/sync-cost.ts', ['--count', '1.5'], '--count must be a positive integer, not "1.5"'],
    ['scripts/crash-soak.ts', ['--help'], "Unknown option '--help'"],
    ['scripts/why-size.ts', ['--cases', '3'], "Unknown option '--cases'"],
    ['scripts/crash-soak.ts', ['--clients', '1', '--cycles', 'many'], '--cycles must be a positive integer, not "many"'],
    ['scripts/crash-soak.ts', ['--cycles', '1', '--clients', '1', '--seed=-1'], '--seed must be an integer of 0 or more, not "-1"'],
    // A negative number after its flag is the flag's value, said by the flag's own check (as the
    // CLI reads `--port -1`), not parseArgs's "argument is ambiguous".
    ['scripts/crash-soak.ts', ['--cycles', '1', '--clients', '1', '--seed', '-1'], '--seed must be an integer of 0 or more, not "-1"'],
    ['scripts/sync-cost.ts', ['--count', '-5'], '--count must be a positive integer, not "-5"'],
    ['scripts/calibration-switch.ts', ['--kinds', 'weak', '--users', '1', '--seeds', '1', '--rates', '-0.5'], '--rates must be a positive number, not "-0.5"'],
    ['scripts/bench/cpu-per-request.ts', ['--users', '-1'], '--users must be a positive integer, not "-1"'],
    ['scripts/hook-exit-time.ts', ['-1'], 'runs must be a positive integer, not "-1"'],
    ['scripts/hook-exit-time.ts', ['--help'], `Unknown option '--help'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--help"`],
    ['scripts/hook-exit-time.ts', ['ten'], 'runs must be a positive integer, not "ten"'],
    ['scripts/claude-code-e2e.ts', ['--bogus'], `Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus"`],
    ['scripts/claude-code-e2e.ts', ['/no/such/claude'], '/no/such/claude: cannot run it as Claude Code (`/no/such/claude --version`: ENOENT)'],
    ['scripts/bench/main.ts', ['--quick', '--fast'], "Unknown option '--fast'"],
    ['scripts/bench/cpu-per-request.ts', ['--help'], "Unknown option '--help'"],
    ['scripts/bench/cpu-per-request.ts', ['--users', '1', '--route', 'decisions'], '--route must be recommendations or observations, not "decisions"'],
    ['scripts/bench/cpu-per-request.ts', ['--users', 'x'], '--users must be a positive integer, not "x"'],
    ['scripts/bench/cpu-per-request.ts', ['--users', '1', '--seconds', 'soon'], '--seconds must be a positive number, not "soon"'],
    ['scripts/bench/cpu-per-request.ts', ['--users', '1', '--seconds', '1', '--rounds', '0'], '--rounds must be a positive integer, not "0"'],
    ['scripts/bench/cpu-per-request.ts', ['--users', '1', '--seconds', '1', '--env', 'LOUD'], '--env "LOUD": NAME=VALUE'],
    // The benchmark's baseline server, which it starts itself, run by hand: each was a stack trace.
    ['scripts/bench/baseline-server.ts', ['--bogus'], "Unknown option '--bogus'"],
    ['scripts/bench/baseline-server.ts', ['--port', 'abc'], '--port must be a port number from 0 to 65535, not "abc"'],
    ['scripts/bench/baseline-server.ts', ['--port', '-1'], '--port must be a port number from 0 to 65535, not "-1"'],
    ['scripts/bench/baseline-server.ts', ['--answer', '/no/such/answer.json'], '--answer /no/such/answer.json: cannot read it (ENOENT)'],
  ])('%s %j is refused on one line naming the flag, exit 2, before anything runs', async (path, args, said) => {
    const run = await script(path, args)
    expect(run.stderr).toBe(`${path.split('/').pop()?.replace(/\.ts$/, '').replace(/^main$/, 'bench')}: ${said}\n`)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(2)
    expect(made(run.tmp)).toEqual([])
  })

  it('baseline-server says an --answer file that is not JSON on one line, the line break Node quotes written \\n', async () => {
    // Node's JSON.parse quotes the text around the fault as it is, line breaks and all: the
    // refusal of `--answer` of a file of two lines came on two.
    const file = `${tempDir('dm-script-flags-answer-')}/answer.json`
    writeFileSync(file, 'x\ny')
    const run = await script('scripts/bench/baseline-server.ts', ['--answer', file])
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `baseline-server: --answer ${file}: not JSON (Unexpected token 'x', "x\\ny" is not valid JSON)\n` })
  })

  it.each([
    ['scripts/eval/main.ts', ['--users', '1', '--workers', '-1'], 'eval: --workers must be a positive integer, not "-1"'],
    ['scripts/eval/calibration-split.ts', ['--users', '1', '--seed', '-3'], 'calibration-split: --seed must be a positive integer, not "-3"'],
  ])('%s %j: a negative number is the flag\'s value, said by its own check, exit 2', async (path, args, said) => {
    const run = await script(path, args)
    expect(run.stderr).toBe(`${said}\n`)
    expect(run.stdout).toBe('')
    expect(run.code).toBe(2)
  })

  it('an ambiguous value is said on one line (parseArgs says it on three)', async () => {
    const run = await script('scripts/sync-cost.ts', ['--count', '--bogus'])
    expect(run.stderr).toMatch(/^sync-cost: Option '--count' argument is ambiguous\. [^\n]*\n$/)
    expect(run.code).toBe(2)
  })

  it('claude-code-e2e.ts prints its usage on --help, exit 0, and makes nothing', async () => {
    const run = await script('scripts/claude-code-e2e.ts', ['--help'])
    expect(run).toMatchObject({ code: 0, stderr: '' })
    expect(run.stdout).toMatch(/^usage: npx tsx scripts\/claude-code-e2e\.ts \/path\/to\/claude /)
    expect(made(run.tmp)).toEqual([])
  })
})
