import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closedPort, runCli, startService } from './support/processes'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('preferences, why and toggle on a store opened by the command: the policy the service runs with (--policy)', () => {
  it('answers as the service would with that policy, and refuses a broken one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-policy-cli-'))
    dirs.push(dir)
    const data = join(dir, 'data')
    const policy = join(dir, 'mine.yaml')
    // A user's own policy: personalise from the 3rd observation, a stronger prior.
    await writeFile(policy, 'thresholds: { min_observations: 3 }\nconfidence: { prior: 5 }\n')
    const broken = join(dir, 'broken.yaml')
    await writeFile(broken, 'tresholds: { min_observations: 3 }\n')
    // The store is written by a service (on the default policy: observations do not depend on it), then stopped.
    const service = await startService(data)
    const observations = Array.from({ length: 4 }, (_, i) => ({
      decision_id: `p-${i}`,
      user: 'alice',
      question: 'Which complexity tier should this SPEC use?',
      header: 'Tier',
      all_options: ['Tier S', 'Tier M', 'Tier L'],
      user_choice: 'Tier S',
    }))
    const stored = await fetch(`${service.url}/v1/observations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(observations) })
    expect(stored.status).toBe(201)
    await service.stop()
    const env = { DECISION_MEMORY_URL: `http://127.0.0.1:${await closedPort()}` }

    const byDefault = JSON.parse((await runCli(['preferences', '--user', 'alice', '--json', '--data', data], { env })).stdout)
    const mine = await runCli(['preferences', '--user', 'alice', '--json', '--data', data, '--policy', policy], { env })
    expect(mine.stderr).toBe('')
    expect(mine.code).toBe(0)
    // The prior of 5 pulls the confidence toward chance, as the service on that policy computes it.
    expect(JSON.parse(mine.stdout).points[0].confidence.value).toBeLessThan(byDefault.points[0].confidence.value)

    const why = await runCli(['why', '--point', 'complexity-tier', '--user', 'alice', '--data', data, '--policy', policy], { env })
    expect(why.stderr).toBe('')
    expect(why.stdout).toContain('recommended: Tier S [partial')
    expect((await runCli(['why', '--point', 'complexity-tier', '--user', 'alice', '--data', data], { env })).stdout).toContain('[static-default')

    // toggle --json says the user's expertise: by the bands of that policy, not the default's.
    const banded = join(dir, 'banded.yaml')
    await writeFile(banded, 'expertise: { beginner_below: 1, expert_above: 1 }\n')
    const toggled = await runCli(['toggle', '--session', 's-9', '--user', 'alice', '--off', '--json', '--data', data, '--policy', banded], { env })
    // s-9 is new: started by the toggle, and said so (which --json leaves on stderr).
    expect(toggled.stderr).toContain('decision-memory toggle: no session s-9 of user alice had been seen, so the toggle started it')
    expect(JSON.parse(toggled.stdout)).toMatchObject({ session_id: 's-9', personalization: false, expertise: { sessions: 1, level: 'intermediate' } })

    for (const command of [['preferences', '--user', 'alice'], ['why', '--point', 'complexity-tier', '--user', 'alice'], ['toggle', '--session', 's-10', '--user', 'alice']]) {
      const refused = await runCli([...command, '--data', data, '--policy', broken], { env })
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain(`${broken}: invalid policy\n  tresholds: unknown field\n`)
    }
  }, 60_000)
})
