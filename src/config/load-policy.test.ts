import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, parsePolicy, PolicyFileError } from './load-policy'

describe('the policy loader', () => {
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
