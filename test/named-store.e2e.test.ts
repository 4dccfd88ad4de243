import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openStores } from '../src/open-store'
import { closedPort, runCli, startService, type RunningService } from './support/processes'

const dirs: string[] = []
const running: RunningService[] = []
afterAll(async () => {
  for (const service of running.splice(0)) await service.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dm-named-'))
  dirs.push(dir)
  return join(dir, 'data')
}

async function start(dataDir: string): Promise<RunningService> {
  const service = await startService(dataDir)
  running.push(service)
  return service
}

const TIER = { question: 'Which complexity tier should this SPEC use?', header: 'Tier', all_options: ['Tier S', 'Tier M', 'Tier L'] }

async function observe(service: RunningService, user: string, choice: string) {
  const response = await fetch(`${service.url}/v1/observations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...TIER, decision_id: `d-${choice}`, user_choice: choice, user }),
  })
  expect(response.status).toBe(201)
}

async function majority(service: RunningService, user: string): Promise<string | undefined> {
  const response = await fetch(`${service.url}/v1/users/${user}/preferences`)
  return ((await response.json()) as { points: Array<{ majority: string }> }).points[0]?.majority
}

/** A store where bom and lee chose `choice`, left closed. */
async function storeWith(choice: string): Promise<string> {
  const dir = await tempDir()
  const service = await start(dir)
  await observe(service, 'bom', choice)
  await observe(service, 'lee', choice)
  await service.stop()
  return dir
}

describe('a command given --data while a service runs on another store', () => {
  it('acts on the store named, opened itself, and leaves the service\'s alone: forget, preferences, export, toggle, why, decay-scan', async () => {
    const other = await storeWith('Tier L')
    const service = await start(await tempDir())
    await observe(service, 'bom', 'Tier S')
    const env = { DECISION_MEMORY_URL: service.url }

    const preferences = await runCli(['preferences', '--user', 'bom', '--json', '--data', other], { env })
    expect(preferences.stderr).toBe('')
    expect(JSON.parse(preferences.stdout).points[0].majority).toBe('Tier L')
    const exported = await runCli(['export', '--user', 'bom', '--data', other], { env })
    // Each store's observation by its decision_id.
    expect(exported.stdout).toContain('"d-Tier L"')
    expect(exported.stdout).not.toContain('"d-Tier S"')
    const point = JSON.parse(preferences.stdout).points[0].point as string
    // lee chose only in the store named.
    const why = await runCli(['why', '--point', point, '--user', 'lee', '--json', '--data', other], { env })
    expect(why.code).toBe(0)
    expect(JSON.parse(why.stdout).recommendation.observations).toBe(1)
    expect((await runCli(['toggle', '--session', 's-other', '--off', '--user', 'bom', '--data', other], { env })).code).toBe(0)
    // Forced: the service that wrote the store scanned it at start.
    expect(JSON.parse((await runCli(['decay-scan', '--force', '--json', '--data', other], { env })).stdout).status).toBe('ran')

    const forgot = await runCli(['forget', '--user', 'bom', '--yes', '--json', '--data', other], { env })
    expect(forgot.code).toBe(0)
    expect(JSON.parse(forgot.stdout).deleted).toBeGreaterThan(0)
    // The store named lost bom; the service's did not.
    expect((await runCli(['export', '--user', 'bom', '--data', other], { env })).stdout).not.toContain('"d-Tier L"')
    expect(await majority(service, 'bom')).toBe('Tier S')
    const toggledThere = await runCli(['export', '--user', 'bom'], { env })
    expect(toggledThere.stdout).not.toContain('s-other')

    // Without --data, the running service's store, as before.
    const theirs = await runCli(['preferences', '--user', 'bom', '--json'], { env })
    expect(JSON.parse(theirs.stdout).points[0].majority).toBe('Tier S')
  })

  it('refuses, exit 1, when the store named is held by a service other than the one at the URL, and changes neither', async () => {
    const named = await storeWith('Tier L')
    const holder = await start(named)
    const other = await start(await tempDir())
    await observe(other, 'bom', 'Tier S')
    const refused = await runCli(['forget', '--user', 'bom', '--yes', '--data', named], { env: { DECISION_MEMORY_URL: other.url } })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`the store in ${named} (--data) is in use by another process`)
    expect(refused.stderr).toContain(`the service at ${other.url} runs on another store`)
    expect(refused.stderr).not.toMatch(/\n\s+at /)
    expect(await majority(holder, 'bom')).toBe('Tier L')
    expect(await majority(other, 'bom')).toBe('Tier S')

    // Through the service that holds it, the command acts there.
    const through = await runCli(['forget', '--user', 'bom', '--yes', '--json', '--data', named], { env: { DECISION_MEMORY_URL: holder.url } })
    expect(through.code).toBe(0)
    expect(JSON.parse(through.stdout).deleted).toBeGreaterThan(0)
    expect(await majority(holder, 'bom')).toBeUndefined()
    expect(await majority(other, 'bom')).toBe('Tier S')
  })

  it('refuses, exit 1, when the store named is held by a process that is no service on it, or none runs at the URL', async () => {
    const named = await tempDir()
    // Held by this test process, as another command or an MCP server without a service holds it.
    const { store } = await openStores(named)
    try {
      const service = await start(await tempDir())
      const held = await runCli(['preferences', '--user', 'bom', '--data', named], { env: { DECISION_MEMORY_URL: service.url } })
      expect(held.code).toBe(1)
      expect(held.stderr).toContain('no service has said it runs on it')
    } finally {
      await store.close()
    }
    const holder = await start(named)
    const url = `http://127.0.0.1:${await closedPort()}`
    const none = await runCli(['preferences', '--user', 'bom', '--data', named], { env: { DECISION_MEMORY_URL: url } })
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(`no service runs at ${url}`)
    await holder.stop()
  })

  it('takes DECISION_MEMORY_DATA for serve\'s variable: a command from another folder of the same shell goes through the service, making no store there', async () => {
    const service = await start(await tempDir())
    await observe(service, 'bom', 'Tier S')
    // The shell that started the service exported DECISION_MEMORY_DATA=data; the user is now in a project.
    const cwd = join(await tempDir(), '..')
    const env = { DECISION_MEMORY_URL: service.url, DECISION_MEMORY_DATA: 'data' }
    const preferences = await runCli(['preferences', '--user', 'bom', '--json'], { env, cwd })
    expect(preferences.code).toBe(0)
    expect(JSON.parse(preferences.stdout).points[0].majority).toBe('Tier S')
    expect((await runCli(['toggle', '--session', 's-p', '--off', '--user', 'bom'], { env, cwd })).code).toBe(0)
    expect(existsSync(join(cwd, 'data'))).toBe(false)
  })

  it('refuses a store named that does not exist, exit 1, rather than use the service\'s or make an empty one', async () => {
    const service = await start(await tempDir())
    await observe(service, 'bom', 'Tier S')
    const missing = await tempDir()
    const refused = await runCli(['forget', '--user', 'bom', '--yes', '--data', missing], { env: { DECISION_MEMORY_URL: service.url } })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`there is no store in ${missing} (--data)`)
    expect(await majority(service, 'bom')).toBe('Tier S')
  })
})
