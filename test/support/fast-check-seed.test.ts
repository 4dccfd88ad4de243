import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

// Not imported from fast-check-seed.ts, whose import would set it: set by the setup file alone.
const SEED = Number(process.env.DM_FUZZ_SEED ?? 20261206)

describe('the fast-check seed of every test file (test/support/fast-check-seed.ts)', () => {
  it('is the fixed one, DM_FUZZ_SEED when set: a property given no seed draws the same cases at every run', () => {
    expect(fc.readConfigureGlobal().seed).toBe(SEED)
    const drawn: number[] = []
    fc.assert(
      fc.property(fc.integer(), (n) => void drawn.push(n)),
      { numRuns: 50 },
    )
    expect(drawn).toEqual(fc.sample(fc.integer(), { seed: SEED, numRuns: 50 }))
  })
})
