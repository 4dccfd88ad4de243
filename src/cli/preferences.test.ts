import { describe, expect, it } from 'vitest'
import type { PointPreference } from '../domain/learned-preferences'
import { describePoint } from './preferences'

const point = (observations: number): PointPreference =>
  ({
    point: 'complexity-tier',
    majority: 'Tier M',
    selection: null,
    share: 1,
    confidence: { value: 0.75, level: 'medium-high' },
    changed_since: null,
    observations,
    options: [{ option: 'Tier M', count: observations, share: 1 }],
  }) as unknown as PointPreference

describe('decision-memory preferences, one line a point', () => {
  it('counts one observation in the singular, more in the plural', () => {
    expect(describePoint(point(1))).toBe('complexity-tier: Tier M 100%, confidence medium-high (0.75), 1 observation [Tier M 1]')
    expect(describePoint(point(2))).toContain(', 2 observations [')
  })
})
