import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPort, DAY, runCli, startService, storeTierHistory, type RunningService } from './support/processes'
import { openStores } from '../src/open-store'
import { tempDir } from './support/temp-dir'

const running: RunningService[] = []
const fakes: Server[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
  for (const server of fakes.splice(0)) server.close()
})

/** A service that answers every request with `body` as JSON, as one of an older version would. */
async function answering(body: unknown): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  })
  fakes.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

describe('decision-memory preferences of a user who has chosen nothing', () => {
  it('names a user spaced at its ends quoted, its spaces seen, and any other as it is', async () => {
    // A store with nothing in it: a folder with none is said to hold no store.
    const data = tempDir('dm-prefs-none-')
    await (await openStores(data)).store.close()
    const closed = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }
    const spaced = await runCli(['preferences', '--user', ' alice ', '--data', data], { env: closed })
    expect(spaced).toMatchObject({ code: 0, stdout: 'nothing learned about " alice " yet\n' })
    const plain = await runCli(['preferences', '--user', 'alice', '--data', data], { env: closed })
    expect(plain).toMatchObject({ code: 0, stdout: 'nothing learned about alice yet\n' })
  })
})

describe('decision-memory preferences --as-of (R-REC-9)', () => {
  it('prints what had been learned then, after a line saying so, through the service or without one', async () => {
    const data = join(tempDir('dm-prefs-'), 'data')
    const service = await startService(data)
    running.push(service)
    const now = Date.now()
    // Tier S ten days ago, Tier L since.
    await storeTierHistory(service.url, now)
    const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_USER: 'alice' }
    expect((await runCli(['preferences'], { env })).stdout).toMatch(/^complexity-tier: Tier L /)
    const then = new Date(now - 5 * DAY).toISOString()
    const audit = await runCli(['preferences', '--as-of', then], { env })
    expect(audit.stderr).toBe('')
    expect(audit.code).toBe(0)
    expect(audit.stdout).toBe(`alice as of ${then}\ncomplexity-tier: Tier S 100%, confidence high (0.9848), 6 observations [Tier S 6, Tier M 0, Tier L 0]\n`)
    const json = JSON.parse((await runCli(['preferences', '--as-of', then, '--json'], { env })).stdout)
    expect(json).toMatchObject({ user: 'alice', as_of: then, points: [{ majority: 'Tier S', observations: 6 }] })
    const early = new Date(now - 20 * DAY).toISOString()
    expect((await runCli(['preferences', '--as-of', early], { env })).stdout).toBe(`nothing learned about alice as of ${early}\n`)
    // Refused by the service: the flag's mistake, exit 2 naming it.
    const ahead = await runCli(['preferences', '--as-of', new Date(Date.now() + 3600_000).toISOString()], { env })
    expect(ahead.code).toBe(2)
    expect(ahead.stderr).toMatch(/^decision-memory preferences: --as-of: .*in the future: more than 5 minutes ahead of the service clock \(/)
    const garbled = await runCli(['preferences', '--as-of', 'last tuesday'], { env })
    expect(garbled.code).toBe(2)
    expect(garbled.stderr).toContain('--as-of must be an ISO time')
    // The same without a service, on the store itself.
    await service.stop()
    running.splice(0)
    const closed = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}`, DECISION_MEMORY_USER: 'alice' }
    const local = await runCli(['preferences', '--as-of', then, '--data', data], { env: closed })
    expect(local.stderr).toBe('')
    expect(local.stdout).toBe(audit.stdout)
    const localAhead = await runCli(['preferences', '--as-of', new Date(Date.now() + 3600_000).toISOString(), '--data', data], { env: closed })
    expect(localAhead.code).toBe(2)
    // Read against this machine's clock, no service involved: said so.
    expect(localAhead.stderr).toMatch(/^decision-memory preferences: --as-of: .*in the future: more than 5 minutes ahead of this machine's clock \(/)
  })

  it('refuses, exit 1, to print as of --as-of an answer as of another moment: a service of an older version answers as of now', async () => {
    const then = '2026-07-01T10:00:00.000Z'
    const today = { user: 'alice', as_of: '2026-12-01T00:00:00.000Z', points: [{ point: 'complexity-tier', majority: 'Tier L', selection: null, share: 1, confidence: null, changed_since: null, observations: 3, options: [] }] }
    const older = await answering(today)
    for (const args of [['preferences', '--user', 'alice'], ['preferences', '--user', 'alice', '--json']]) {
      const result = await runCli([...args, '--as-of', then], { env: { DECISION_MEMORY_URL: older } })
      expect(result.code, args.join(' ')).toBe(1)
      expect(result.stdout, args.join(' ')).toBe('')
      expect(result.stderr).toBe(
        `decision-memory preferences: the service answered as of 2026-12-01T00:00:00.000Z, not as of ${then}: a service of an older version, ` +
          'still running after the upgrade, answers as of now whatever --as-of says; restart it, then ask again. Nothing printed\n',
      )
    }
    // Without --as-of, nothing is claimed of a moment.
    expect((await runCli(['preferences', '--user', 'alice'], { env: { DECISION_MEMORY_URL: older } })).stdout).toMatch(/^complexity-tier: Tier L/)
    // The same moment written another way is that moment.
    const same = await answering({ ...today, as_of: then })
    const result = await runCli(['preferences', '--user', 'alice', '--as-of', '2026-07-01T15:30:00+05:30'], { env: { DECISION_MEMORY_URL: same } })
    expect(result.stderr).toBe('')
    expect(result.stdout.split('\n')[0]).toBe('alice as of 2026-07-01T15:30:00+05:30')
  })
})
