import { gammaln } from 'simple-statistics'
import { ageDays, DAY_MS, decayWeight } from './decay'

/**
 * An incrementally kept power-law sum Σ_i (a_i + 1)^-β over the ages a_i (days, continuous) of a
 * set of moments (R-MEM-2, R-MEM-8), so that a recommendation costs the same at 10 and at 100,000
 * observations.
 *
 * Method: the newest EXACT_NEWEST moments are kept exactly; every older one is folded into a sum
 * of exponentials. The power law is the Laplace transform
 *   x^-β = (1/Γ(β)) ∫ e^(βu) e^(-x·e^u) du   (u = ln s, over the whole real line),
 * and the trapezoidal rule on a uniform grid u_m = u0 + m·h turns it into
 *   x^-β ≈ Σ_m c_m e^(-s_m·x),   s_m = e^(u_m),   c_m = h·e^(β·u_m) / Γ(β)
 * (the exponential-sum approximation of Beylkin & Monzón 2005, 2010). Each node keeps
 * T_m = Σ_i e^(-s_m·(ref − t_i)) about a reference moment `ref`; moving to a later moment
 * multiplies T_m by e^(-s_m·Δ), so adding a moment and reading the sum are O(nodes), whatever the
 * number of moments. The same T_m serve every β, so Σw (β = α) and Σw² (β = 2α, for Kish's
 * effective sample size) come from one state.
 *
 * Error: every term is approximated with the same relative error, so the relative error of the
 * whole sum is at most the worst relative error of one term. The grid below is chosen per α so
 * that for x = age + 1 in [1, 10^5] days (ages up to 270 years) and β in {α, 2α}, α in (0, 5],
 * that error is below 1e-6 (measured: 8.8e-7 at α = 0.5, with 88 nodes, over ages spaced evenly
 * in log x; see decayed-sum.test.ts). A small α's grid is floored at 128 nodes or fewer (MAX_NODES;
 * measured within 5e-9 below α = 0.2). Ages beyond 10^5 days are under-weighted.
 */
export interface DecayedSum {
  /** How many moments were added. */
  n: number
  /** The newest moments (ms since epoch), newest first, kept exactly. */
  newest: number[]
  /** The moment (ms) the exponential tail is referred to; 0 while the tail is empty. */
  ref: number
  /** T_m per grid node for the moments older than `newest`; empty while there are none. */
  tail: number[]
}

/** How many of the newest moments are kept exactly: small histories are exact, not approximated. */
export const EXACT_NEWEST = 16

/** The oldest age (days + 1) the approximation is built for. */
const MAX_X = 1e5
/** Bound on the truncation error at the small-s end of the grid. */
const TRUNCATION = 1e-6
/**
 * The most nodes a grid reaches down for the truncation bound. Below about α = 0.3 the grid's lower
 * end falls as 1/α (α = 0.1: 307 nodes; 0.001: 27,600; 1e-6: 27.6 million, a tail of 220 MB per
 * tally), since x^-α for a small α is nearly flat; such a grid stops at FLOOR_LOG_RATE instead and
 * keeps every node below it as one node of rate 0.
 */
const MAX_NODES = 128
/**
 * Where a floored grid stops: s·x at most 1e-8 for every x up to MAX_X, so e^(-s·x) is 1 within
 * 1e-8 for each node below, whose sum is then a geometric series in closed form.
 */
const FLOOR_LOG_RATE = Math.log(1e-8) - Math.log(MAX_X)
/** Where a floored grid reaches up to: e^(-s) = 1e-8, negligible at every x ≥ 1. */
const CEILING_LOG_RATE = Math.log(-Math.log(1e-8))

/** The nodes of the exponential-sum approximation for one decay exponent α. */
export interface DecayGrid {
  alpha: number
  h: number
  /** u_m = ln s_m */
  logRates: number[]
  /**
   * s_m, per day. When `floored`, one more node of rate 0 follows the others: it stands for every
   * node the grid would have below its lowest (see decayGrid), and its T is the count of moments.
   */
  rates: number[]
  /** Whether the nodes below the lowest are kept as one node of rate 0 (the last of `rates`). */
  floored: boolean
}

const grids = new Map<number, DecayGrid>()

/**
 * The grid for α: the step shrinks as 1/√(2α) because the integrand's peak in u narrows as √β
 * grows; the lower end makes the neglected mass ∫_{-∞}^{u0} below TRUNCATION for β = α at
 * x = MAX_X; the upper end lies 4 e-folds past the peak of β = 2α at x = 1.
 */
export function decayGrid(alpha: number): DecayGrid {
  const cached = grids.get(alpha)
  if (cached !== undefined) return cached
  let grid: DecayGrid
  if (alpha <= 0) grid = { alpha, h: 0, logRates: [], rates: [], floored: false }
  else {
    const h = 0.5 / Math.max(1, Math.sqrt(2 * alpha))
    let low = (Math.log(TRUNCATION) + gammaln(alpha + 1)) / alpha - Math.log(MAX_X)
    let high = Math.log(2 * alpha) + 4
    const floored = Math.ceil((high - low) / h) + 1 > MAX_NODES
    if (floored) {
      low = FLOOR_LOG_RATE
      // For a small β the integrand does not peak near ln β but stays flat up to about s = 1/x,
      // where e^(-s·x) ends it: the grid reaches to where e^(-s) is below 1e-8 at x = 1.
      high = Math.max(high, CEILING_LOG_RATE)
    }
    const count = Math.ceil((high - low) / h) + 1
    const logRates = Array.from({ length: count }, (_, m) => low + m * h)
    grid = { alpha, h, logRates, rates: [...logRates.map(Math.exp), ...(floored ? [0] : [])], floored }
  }
  grids.set(alpha, grid)
  return grid
}

const coefficients = new Map<DecayGrid, Map<number, number[]>>()

function coefficientsFor(grid: DecayGrid, beta: number): number[] {
  let byBeta = coefficients.get(grid)
  if (byBeta === undefined) {
    byBeta = new Map()
    coefficients.set(grid, byBeta)
  }
  let c = byBeta.get(beta)
  if (c === undefined) {
    const lnGamma = gammaln(beta)
    c = grid.logRates.map((u) => grid.h * Math.exp(beta * u - lnGamma))
    if (grid.floored) {
      // The nodes below the lowest, u_0 - k·h for k ≥ 1, each e^(-s·x) = 1 (within 1e-8):
      // Σ_k h·e^(β(u_0 - k·h))/Γ(β) = h·e^(β·u_0)/Γ(β) / (e^(β·h) - 1).
      const u0 = grid.logRates[0] as number
      c.push((grid.h * Math.exp(beta * u0 - lnGamma)) / Math.expm1(beta * grid.h))
    }
    byBeta.set(beta, c)
  }
  return c
}

/** The sum over no moment. */
export function emptyDecayedSum(): DecayedSum {
  return { n: 0, newest: [], ref: 0, tail: [] }
}

/** Adds one moment (ms since epoch) to the sum, in place. */
export function addMoment(sum: DecayedSum, at: number, grid: DecayGrid): void {
  sum.n++
  const newest = sum.newest
  let i = newest.length
  while (i > 0 && (newest[i - 1] as number) < at) i--
  newest.splice(i, 0, at)
  if (newest.length <= EXACT_NEWEST) return
  foldIntoTail(sum, newest.pop() as number, grid)
}

function foldIntoTail(sum: DecayedSum, at: number, grid: DecayGrid): void {
  const rates = grid.rates
  if (sum.tail.length === 0) {
    sum.tail = rates.map(() => 0)
    sum.ref = at
  }
  const tail = sum.tail
  if (at > sum.ref) {
    // Refer the tail to the later moment, so that no term ever exceeds 1.
    const days = (at - sum.ref) / DAY_MS
    for (let m = 0; m < tail.length; m++) tail[m] = (tail[m] as number) * Math.exp(-(rates[m] as number) * days)
    sum.ref = at
  }
  const days = (sum.ref - at) / DAY_MS
  for (let m = 0; m < tail.length; m++) tail[m] = (tail[m] as number) + Math.exp(-(rates[m] as number) * days)
}

/**
 * Σ (age + 1)^-β over the moments, ages in days from `now` (ms), never negative. β = 0 counts them.
 * The grid must be the one the sum was built with.
 */
export function decayedSumAt(sum: DecayedSum, now: number, beta: number, grid: DecayGrid): number {
  if (beta === 0) return sum.n
  let total = 0
  for (const at of sum.newest) total += decayWeight(ageDays(at, now), beta)
  if (sum.tail.length === 0) return total
  const c = coefficientsFor(grid, beta)
  const x = ageDays(sum.ref, now) + 1
  const rates = grid.rates
  for (let m = 0; m < sum.tail.length; m++) {
    total += (c[m] as number) * Math.exp(-(rates[m] as number) * x) * (sum.tail[m] as number)
  }
  return total
}
