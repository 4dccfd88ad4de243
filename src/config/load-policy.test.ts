import { mkdtempSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy, parsePolicy, PolicyFileError } from './load-policy'

describe('policies (R-POL)', () => {
  it('loads the default policy with the numbers of the spec and the seed points', async () => {
    const policy = await loadPolicy()
    expect(policy.thresholds).toEqual({ min_observations: 5, sufficient_observations: 20 })
    expect(policy.decay.alpha).toBe(0.5)
    expect(policy.recall.ttl_days).toBe(28)
    expect(policy.ask.auto_resolve_p).toBe(0.9)
    expect(policy.points.map((p) => p.key)).toEqual(['complexity-tier', 'development-methodology', 'model-selection', 'effort-level'])
    for (const point of policy.points) {
      expect(point.static_default).toBeTruthy()
      expect(point.precondition).toBeTruthy()
    }
  })

  it('names the file and the field of a broken policy', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    raw.thresholds.min_observations = 0
    raw.points[1].match.question = '(unclosed'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(PolicyFileError)
    try {
      parsePolicy(JSON.stringify(raw), 'mine.json')
    } catch (error) {
      expect((error as Error).message).toContain('mine.json')
      expect((error as Error).message).toContain('thresholds.min_observations')
      expect((error as Error).message).toContain('points.1.match.question')
    }
  })

  it('reads YAML too, and reports unreadable files and bad syntax with the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dm-policy-'))
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const { stringify } = await import('yaml')
    writeFileSync(join(dir, 'p.yaml'), stringify({ ...raw, ask: { auto_resolve_p: 0.8 } }))
    expect((await loadPolicy(join(dir, 'p.yaml'))).ask.auto_resolve_p).toBe(0.8)
    await expect(loadPolicy(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read policy file: ENOENT/)
    writeFileSync(join(dir, 'bad.json'), '{ nope')
    await expect(loadPolicy(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json: not valid JSON/)
  })

  it('refuses a scan.cron that is not a cron expression, naming the file and the field (R-POL)', async () => {
    const policy = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    policy.scan.cron = 'every day at three'
    expect(() => parsePolicy(JSON.stringify(policy), 'mine.json')).toThrow(PolicyFileError)
    expect(() => parsePolicy(JSON.stringify(policy), 'mine.json')).toThrow(
      'mine.json: invalid policy\n  scan.cron: not a cron expression: "every day at three"',
    )
    policy.scan.cron = '17 3 * * *'
    expect(parsePolicy(JSON.stringify(policy), 'mine.json').scan.cron).toBe('17 3 * * *')
  })
})
