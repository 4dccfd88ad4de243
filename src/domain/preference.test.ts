import { describe, expect, it } from 'vitest'
import { countInTally, type Tally } from './aggregate'
import { majorityOption, preferenceOf } from './preference'

const AT = Date.parse('2026-07-01T10:00:00.000Z')
const OPTIONS = ['Redis', 'SQS', 'Kafka']

/** Tallies of single choices made in this order, all at AT, with ids that rise as observation-id.ts makes them. */
function talliesOf(order: string[], ids = true): Map<string, Tally> {
  const tallies = new Map<string, Tally>()
  order.forEach((choice, i) => countInTally(tallies, JSON.stringify([choice]), AT, null, ids ? `obs-mr1wmkg0-${i.toString(16).padStart(6, '0')}abcdef` : undefined))
  for (const tally of tallies.values()) tally.weight = { n: tally.n, newest: Array(tally.n).fill(AT), ref: 0, tail: [] }
  return tallies
}

describe('majorityOption: a tie without the static default (R-REC-2)', () => {
  it('goes to the choice recorded last of one moment, whichever label comes first', () => {
    const kafkaLast = preferenceOf(talliesOf(['SQS', 'SQS', 'Kafka', 'SQS', 'Kafka', 'Kafka']), OPTIONS, new Date(AT), 0.5)
    expect(majorityOption(kafkaLast, OPTIONS, 'Redis')).toBe('Kafka')
    const sqsLast = preferenceOf(talliesOf(['Kafka', 'Kafka', 'SQS', 'Kafka', 'SQS', 'SQS']), OPTIONS, new Date(AT), 0.5)
    expect(majorityOption(sqsLast, OPTIONS, 'Redis')).toBe('SQS')
  })

  it('still goes to the static default when it is among the tied', () => {
    const tied = preferenceOf(talliesOf(['SQS', 'Redis', 'Redis', 'SQS']), OPTIONS, new Date(AT), 0.5)
    expect(majorityOption(tied, OPTIONS, 'Redis')).toBe('Redis')
  })

  it('goes by label where the order recorded is not known (tallies stored without the id)', () => {
    const unknown = preferenceOf(talliesOf(['Kafka', 'SQS'], false), OPTIONS, new Date(AT), 0.5)
    expect(majorityOption(unknown, OPTIONS, 'Redis')).toBe('Kafka')
  })
})

describe('majorityOption: a tie of one moment where only some choices say the order recorded (R-REC-2)', () => {
  // Kafka and SQS recorded with ids, Redis in a cell stored before they were kept: the order of
  // Redis among them is not known. Postgres is the static default, not among the tied.
  const tallies = new Map<string, Tally>()
  countInTally(tallies, JSON.stringify(['Kafka']), AT, null, 'obs-mr1wmkg0-000001abcdef')
  countInTally(tallies, JSON.stringify(['Redis']), AT, null)
  countInTally(tallies, JSON.stringify(['SQS']), AT, null, 'obs-mr1wmkg0-000002abcdef')
  for (const tally of tallies.values()) tally.weight = { n: 1, newest: [AT], ref: 0, tail: [] }
  const permutations = (xs: string[]): string[][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]))

  it('goes by label, whatever the order of the options', () => {
    for (const options of permutations(['Kafka', 'Redis', 'SQS']).map((o) => [...o, 'Postgres'])) {
      const preference = preferenceOf(tallies, options, new Date(AT), 0.5)
      expect(majorityOption(preference, options, 'Postgres'), options.join(', ')).toBe('Kafka')
    }
  })
})
