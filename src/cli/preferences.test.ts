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

  it('says a point still too new to be personalised, and how many more choices it needs', () => {
    expect(describePoint({ ...point(1), needed: 4 })).toBe(
      'complexity-tier: Tier M 100%, confidence medium-high (0.75), 1 observation (4 more needed for personalization) [Tier M 1]',
    )
    expect(describePoint({ ...point(5), needed: 0 })).toBe('complexity-tier: Tier M 100%, confidence medium-high (0.75), 5 observations [Tier M 5]')
    // A service of an older version, still running after an upgrade, does not say: nothing is said.
    expect(describePoint(point(1))).toBe('complexity-tier: Tier M 100%, confidence medium-high (0.75), 1 observation [Tier M 1]')
  })

  it('says a point whose every answer was the user\'s own text as such, not as nothing chosen', () => {
    // "CockroachDB, because we need multi-region", typed as Other: the user did choose something.
    const own = { ...point(1), majority: null, share: 0, confidence: null, other: 1, options: [{ option: 'Postgres', count: 0, share: 0 }] }
    expect(describePoint(own)).toBe('complexity-tier: (no option: an answer of your own), 1 observation [Postgres 0, other 1]')
    expect(describePoint({ ...own, observations: 3, other: 3 })).toBe('complexity-tier: (no option: answers of your own), 3 observations [Postgres 0, other 3]')
  })

  it('says the answers outside the options, when there are any', () => {
    expect(describePoint({ ...point(3), observations: 5, other: 2 })).toBe('complexity-tier: Tier M 100%, confidence medium-high (0.75), 5 observations [Tier M 3, other 2]')
    expect(describePoint({ ...point(3), other: 0 })).toContain('[Tier M 3]')
  })

  it('says 100% only of an option chosen every time and 0% only of one never chosen, as a recommendation does', () => {
    const mostly = { ...point(334), share: 0.997, options: [{ option: 'Tier M', count: 333, share: 0.997 }, { option: 'Tier L', count: 1, share: 0.003 }] }
    expect(describePoint(mostly)).toBe('complexity-tier: Tier M 99%, confidence medium-high (0.75), 334 observations [Tier M 333, Tier L 1]')
    const selected = { ...mostly, selection: ['Tier M'] }
    expect(describePoint(selected)).toBe('complexity-tier: Tier M, 334 observations [Tier M 333 (99%), Tier L 1 (1%)]')
  })

  it('says a count a set read at a single-select point shared to a hundredth, not in every digit', () => {
    const shared = { ...point(3), share: 0.4444, options: [{ option: 'Tier M', count: 4 / 3, share: 0.4444 }, { option: 'Tier L', count: 5 / 3, share: 0.5556 }] }
    expect(describePoint(shared)).toContain('[Tier M 1.33, Tier L 1.67]')
  })

  it('says since when a change of preference was found, at a multi-select point too, whose observations are then the recent ones', () => {
    const changed = { ...point(29), changed_since: '2026-11-01T00:00:00.000Z' }
    expect(describePoint(changed)).toBe('complexity-tier: Tier M 100%, confidence medium-high (0.75), 29 observations since 2026-11-01 (they differ from the earlier ones) [Tier M 29]')
    expect(describePoint({ ...changed, selection: ['Tier M'] })).toBe(
      'complexity-tier: Tier M, 29 observations since 2026-11-01 (they differ from the earlier ones) [Tier M 29 (100%)]',
    )
  })

  it('names a point keyed by a hash of its question by that question, and a named point by its name', () => {
    const hashed = { ...point(2), point: 'q-1ce3ca384fe3abe025d1', question: 'Which checks should run before the PR?' } as PointPreference
    expect(describePoint(hashed)).toBe('"Which checks should run before the PR?" (q-1ce3ca384fe3abe025d1): Tier M 100%, confidence medium-high (0.75), 2 observations [Tier M 2]')
    expect(describePoint({ ...point(2), question: 'Which complexity tier?' } as PointPreference)).toMatch(/^complexity-tier: Tier M/)
  })

  it('says a point of a service from before selection and changed_since, rather than failing on it', () => {
    const { selection: _selection, changed_since: _since, ...older } = point(3)
    expect(describePoint(older as PointPreference)).toBe('complexity-tier: Tier M 100%, confidence medium-high (0.75), 3 observations [Tier M 3]')
    const multi = { ...older, multi_select: true, confidence: null, options: [{ option: 'vitest', count: 3, share: 1 }] }
    expect(describePoint(multi as unknown as PointPreference)).toBe('complexity-tier: Tier M 100%, 3 observations [vitest 3]')
  })
})
