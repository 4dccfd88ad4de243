import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { deadUrl, runCli, spawnService, type ServiceProcess } from './support/scan-service'

const running: ServiceProcess[] = []
const dirs: string[] = []

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dm-e2e-'))
  dirs.push(dir)
  return dir
}

afterEach(async () => {
  for (const service of running.splice(0)) {
    if (service.child.exitCode === null) service.child.kill('SIGKILL')
    await service.exited
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('decay-scan from the command line, with and without the service (R-MEM-7)', () => {
  it('goes through the running service, is clear about a locked store, and runs locally once the service stops', async () => {
    const dir = await dataDir()
    const service = await spawnService(dir)
    running.push(service)
    expect(service.lines.find((l) => l.event === 'decay-scan-scheduled')).toMatchObject({ cron: '17 3 * * *' })

    // A broken --policy is said even though the service would scan with its own: nothing runs.
    const broken = join(await dataDir(), 'broken.yaml')
    await writeFile(broken, 'scan: { cron: "every day" }\n')
    const refused = await runCli(['decay-scan', '--json', '--policy', broken], { DECISION_MEMORY_URL: service.url })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(`decision-memory decay-scan: ${broken}: invalid policy\n  scan.cron: not a cron expression: "every day"\n`)
    expect(refused.stdout).toBe('')

    // The service scans once at start (a store never scanned, or last scanned over 24 h ago).
    expect(await service.line('decay-scan')).toMatchObject({ at_start: true, status: 'ran', expired_from_recall: 0 })
    const first = await runCli(['decay-scan', '--json'], { DECISION_MEMORY_URL: service.url })
    expect(first.code).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'skipped', reason: 'within_cadence_window' })
    const second = await runCli(['decay-scan'], { DECISION_MEMORY_URL: service.url })
    expect(second.stdout).toMatch(/^decay scan skipped: the last ran at /)
    const forced = await runCli(['decay-scan', '--force', '--json'], { DECISION_MEMORY_URL: service.url })
    expect(JSON.parse(forced.stdout).status).toBe('ran')
    // A --now in the future is the flag's mistake: exit 2 naming it, as a malformed one is.
    const ahead = await runCli(['decay-scan', '--now', '2099-01-01T00:00:00Z'], { DECISION_MEMORY_URL: service.url })
    expect(ahead.code).toBe(2)
    expect(ahead.stderr).toContain('--now: ')
    expect(ahead.stderr).toContain('in the future: more than 5 minutes ahead of the service clock (')

    // The service holds the LevelDB lock; a CLI that cannot reach it says so, without a stack.
    const elsewhere = await deadUrl()
    for (const args of [['decay-scan', '--data', dir], ['toggle', '--session', 's-1', '--data', dir]]) {
      const locked = await runCli(args, { DECISION_MEMORY_URL: elsewhere })
      expect(locked.code).toBe(1)
      expect(locked.stderr).toContain(`the store in ${dir} (--data) is in use by another process, and no service runs at ${elsewhere}`)
      // The service holding it runs elsewhere: told how to reach it, not to leave --data out for a
      // "running service" there is none of at the URL.
      expect(locked.stderr).toContain('set DECISION_MEMORY_URL to the service that runs on it (http://127.0.0.1:PORT for serve --port PORT), or stop the process that holds it\n')
      expect(locked.stderr).not.toContain('leave --data out')
      expect(locked.stderr).not.toMatch(/^\s+at /m)
    }

    // On SIGTERM the schedule stops before the store closes.
    service.child.kill('SIGTERM')
    expect(await service.exited).toBe(0)
    const events = service.lines.map((l) => l.event)
    expect(events.indexOf('decay-scan-stopped')).toBeGreaterThan(events.indexOf('stopping'))
    expect(events.indexOf('decay-scan-stopped')).toBeLessThan(events.indexOf('stopped'))

    // Without the service the command opens the store itself and gives the same answer.
    const local = await runCli(['decay-scan', '--json', '--data', dir], { DECISION_MEMORY_URL: elsewhere })
    expect(local.code).toBe(0)
    expect(JSON.parse(local.stdout)).toMatchObject({ status: 'skipped', reason: 'within_cadence_window' })
    const aheadLocally = await runCli(['decay-scan', '--now', '2099-01-01T00:00:00Z', '--data', dir], { DECISION_MEMORY_URL: elsewhere })
    expect(aheadLocally.code).toBe(2)
    // Read against this machine's clock, no service involved: said so, not as the service's.
    expect(aheadLocally.stderr).toContain("--now: now 2099-01-01T00:00:00Z is in the future: more than 5 minutes ahead of this machine's clock (")
  })

  it('refuses a malformed --now with a usage error', async () => {
    const result = await runCli(['decay-scan', '--now', 'yesterday', '--data', await dataDir()], { DECISION_MEMORY_URL: await deadUrl() })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--now must be an ISO time')
  })
})
