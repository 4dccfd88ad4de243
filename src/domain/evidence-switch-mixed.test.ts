import { describe, expect, it } from 'vitest'
import { observation as observed, pointView } from '../../test/support/observations'
import { selectEvidence } from './evidence'
import type { Observation } from './observation'
import { PolicySchema, type Policy } from './policy'
import defaults from '../../policies/default.json'

const POLICY: Policy = PolicySchema.parse(defaults)
const DAY = 86_400_000
const HOUR = 3_600_000
const T0 = Date.parse('2026-01-01T09:00:00.000Z')

describe('selectEvidence: a switch kept with one choice a day of the old option', () => {
  it('stays a change once the new option fills its 16 kept moments', () => {
    // 40 days of [L,S,L,L,L,L], one an hour from 09:00; then [S,S,L,S,S,S] every day. From the
    // fourth day, Tier S's 16 kept moments are all since the switch and the shortened window
    // spans 3 days less 1 ms: read as no change, Tier L was `sufficient` again (69%).
    const before = ['Tier L', 'Tier S', 'Tier L', 'Tier L', 'Tier L', 'Tier L']
    const after = ['Tier S', 'Tier S', 'Tier L', 'Tier S', 'Tier S', 'Tier S']
    const all: Observation[] = []
    const push = (day: number, labels: string[]) =>
      labels.forEach((chosen, hour) => {
        const timestamp = new Date(T0 + day * DAY + hour * HOUR).toISOString()
        all.push(observed({ id: `o-${all.length}`, user: 'u', timestamp, recorded_at: timestamp, options: ['Tier S', 'Tier L'], chosen: [chosen] }))
      })
    for (let day = 0; day < 40; day++) push(day, before)
    const followed: number[] = []
    for (let day = 1; day <= 20; day++) {
      push(39 + day, after)
      const selection = selectEvidence(pointView(all, POLICY), { asOf: new Date(T0 + (39 + day) * DAY + 6 * HOUR) }, POLICY)
      const counts = Object.fromEntries([...selection.cell.tallies].map(([category, tally]) => [category, tally.n]))
      if (selection.changeTest !== null && (counts['["Tier S"]'] ?? 0) > (counts['["Tier L"]'] ?? 0)) followed.push(day)
    }
    expect(followed).toEqual(Array.from({ length: 18 }, (_, i) => i + 3))
  })
  it('still reads one sitting of a new option after days of another as no change', () => {
    // 20 choices a day of Tier M for 34 days, then one day of 20 Tier S: the window shortened to
    // Tier M's 16 kept moments holds one moment of Tier M before it, and its tail the rest.
    const all: Observation[] = []
    for (let day = 0; day < 35; day++) {
      for (let k = 0; k < 20; k++) {
        const timestamp = new Date(T0 + day * DAY + k * 1_800_000).toISOString()
        all.push(observed({ id: `o-${all.length}`, user: 'u', timestamp, recorded_at: timestamp, options: ['Tier S', 'Tier M'], chosen: [day === 34 ? 'Tier S' : 'Tier M'] }))
      }
    }
    const selection = selectEvidence(pointView(all, POLICY), { asOf: new Date(T0 + 35 * DAY) }, POLICY)
    expect(selection.changeTest).toBeNull()
  })
})
