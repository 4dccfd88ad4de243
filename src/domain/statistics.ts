import { gammaln } from 'simple-statistics'

/**
 * Regularised lower incomplete gamma P(a, x): the CDF of Gamma(a, 1) at x.
 * Series for x < a + 1, Lentz's continued fraction otherwise (Press et al., Numerical Recipes, 6.2).
 */
export function regularizedGammaP(a: number, x: number): number {
  return gammaP(a, x, gammaln(a))
}

/** P(a, x) given ln Γ(a), for callers that evaluate one `a` at many x. */
function gammaP(a: number, x: number, lnGammaA: number): number {
  if (x <= 0) return 0
  const lnPrefix = a * Math.log(x) - x - lnGammaA
  if (x < a + 1) {
    let term = 1 / a
    let sum = term
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-14) break
    }
    return Math.min(1, sum * Math.exp(lnPrefix))
  }
  const tiny = 1e-300
  let b = x + 1 - a
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-14) break
  }
  return Math.max(0, 1 - Math.exp(lnPrefix) * h)
}

const GRID = 600

/**
 * Probability that component `index` of θ ~ Dirichlet(alphas) is the largest.
 * Uses θ_i = G_i / ΣG with independent G_i ~ Gamma(α_i, 1), so the event is G_index > G_j for all
 * j, and integrates ∫ Π_j P(α_j, x) dP(α_index, x). From a pseudo-count of OWN_MASS_FROM it is
 * integrated over G_index's own mass (overOwnMass), within 1e-10; below it, as a Stieltjes sum over
 * a grid that covers the mass of every G_j, within 2e-5 on the seed's worked examples
 * (statistics.reference.test.ts).
 */
export function dirichletProbabilityOfMax(alphas: readonly number[], index: number): number {
  const own = alphas[index]
  if (own === undefined) throw new RangeError(`index ${index} out of range`)
  if (alphas.length === 1) return 1
  if (own >= OWN_MASS_FROM) return overOwnMass(alphas, index)
  let low = Infinity
  let high = 0
  for (const a of alphas) {
    const spread = 12 * Math.sqrt(a) + 12
    low = Math.min(low, Math.max(0, a - spread))
    high = Math.max(high, a + spread)
  }
  const step = (high - low) / GRID
  const nodes = nodesNearZero(alphas, low, step)
  const count = nodes === null ? GRID : nodes.nodes.length - 1
  // A hot spot of every recommendation (bench/HISTORY.md), made cheaper without changing a bit of
  // the result: ln Γ(α) once per α, not once per point; and a CDF that has reached exactly 1 is 1
  // at every later point of the grid (its complement shrinks from one point to the next by far
  // more than its rounding error), so it is not evaluated again there.
  const lnGammas = alphas.map((a) => gammaln(a))
  const lnGammaOwn = lnGammas[index] as number
  const saturated = alphas.map(() => false)
  let total = 0
  let previousCdf = gammaP(own, low, lnGammaOwn)
  for (let i = 1; i <= count; i++) {
    // Every later mass is 1 − 1 = 0.
    if (previousCdf === 1) break
    const x = nodes === null ? low + i * step : (nodes.nodes[i] as number)
    const cdf = gammaP(own, x, lnGammaOwn)
    const mass = cdf - previousCdf
    previousCdf = cdf
    if (mass <= 0) continue
    const mid = nodes === null ? x - step / 2 : (nodes.mids[i] as number)
    let others = 1
    for (let j = 0; j < alphas.length; j++) {
      if (j === index || saturated[j]) continue
      const p = gammaP(alphas[j] as number, mid, lnGammas[j] as number)
      if (p === 1) saturated[j] = true
      others *= p
    }
    total += mass * others
  }
  return Math.min(1, Math.max(0, total))
}

/** The pseudo-count from which dirichletProbabilityOfMax integrates over the option's own mass. */
export const OWN_MASS_FROM = 100

/** Nodes of overOwnMass: every half standard deviation of G_index, to 8 either side of its mean. */
const OWN_MASS_STEP = 0.5
const OWN_MASS_NODES = 16

/**
 * ∫ Π_j P(α_j, x) f(x) dx, f the density of G_index, by the trapezoidal rule on G_index's own
 * mass, for a pseudo-count of at least OWN_MASS_FROM. The even grid spread over every G_j: beside
 * a pseudo-count of 1 (an option never chosen) it starts at 0, and at 20,000 choices against 19,800
 * its steps were a quarter of G_index's standard deviation: 0.8416 for 0.8419 (R-REC-3), 0.8671
 * for 0.8685 at 100,000. On a smooth integrand that vanishes at both ends the trapezoidal rule's
 * error falls exponentially with its step (Trefethen & Weideman 2014): 33 nodes, half a standard
 * deviation apart, are within 1e-12 of the exact value. The weights are normalised by their sum,
 * so the density is needed only up to a constant: taken relative to the mode, its terms do not
 * cancel (ln f's are 1e7 at a million, to a sum of a few units). Each P(α_j, x) from
 * FAST_GAMMA_FROM is Temme's uniform expansion, not a series of up to a thousand terms: that was
 * both the cost and, past 100,000, the error (0.9094 for 0.9215 at a million).
 */
function overOwnMass(alphas: readonly number[], index: number): number {
  const own = alphas[index] as number
  const sd = Math.sqrt(own)
  const mode = own - 1
  const lnGammas = alphas.map((a) => (a >= FAST_GAMMA_FROM ? 0 : gammaln(a)))
  // Once a CDF is 1, it is 1 at every later node.
  const saturated = alphas.map(() => false)
  let weights = 0
  let total = 0
  for (let i = -OWN_MASS_NODES; i <= OWN_MASS_NODES; i++) {
    const x = own + i * OWN_MASS_STEP * sd
    // The density over its value at the mode, the mode's own term taken out of ln x.
    const weight = Math.exp(mode * Math.log1p((x - mode) / mode) - (x - mode))
    weights += weight
    let others = 1
    for (let j = 0; j < alphas.length && others > 0; j++) {
      if (j === index || saturated[j]) continue
      const a = alphas[j] as number
      const p = a >= FAST_GAMMA_FROM ? gammaPLarge(a, x) : gammaP(a, x, lnGammas[j] as number)
      if (p === 1) saturated[j] = true
      others *= p
    }
    total += weight * others
  }
  return Math.min(1, Math.max(0, total / weights))
}

/** The shape from which P(a, x) is taken from Temme's expansion: within 1e-14 of it there. */
const FAST_GAMMA_FROM = 1000

/**
 * Coefficients of Temme's C_0, C_1, C_2 as power series in η (DiDonato & Morris 1986, as in
 * Boost's igamma_temme_large).
 */
const TEMME = [
  [
    -0.33333333333333333, 0.083333333333333333, -0.014814814814814815, 0.0011574074074074074, 0.0003527336860670194,
    -0.00017875514403292181, 0.39192631785224378e-4, -0.21854485106799922e-5, -0.185406221071516e-5, 0.8296711340953086e-6,
    -0.17665952736826079e-6, 0.67078535434014986e-8, 0.10261809784240308e-7, -0.43820360184533532e-8, 0.91476995822367902e-9,
  ],
  [
    -0.0018518518518518519, -0.0034722222222222222, 0.0026455026455026455, -0.00099022633744855967, 0.00020576131687242798,
    -0.40187757201646091e-6, -0.18098550334489978e-4, 0.76491609160811101e-5, -0.16120900894563446e-5, 0.46471278028074343e-8,
    0.1378633446915721e-6, -0.5752545603517705e-7, 0.11951628599778147e-7,
  ],
  [
    0.0041335978835978836, -0.0026813271604938272, 0.00077160493827160494, 0.20093878600823045e-5, -0.00010736653226365161,
    0.52923448829120125e-4, -0.12760635188618728e-4, 0.34235787340961381e-7, 0.13721957309062933e-5, -0.6298992138380055e-6,
    0.14280614206064242e-6,
  ],
] as const

/** ln Γ(½) = ln √π. */
const LN_GAMMA_HALF = 0.5723649429247001

/**
 * P(a, x) for a ≥ FAST_GAMMA_FROM by Temme's uniform asymptotic expansion (Temme 1979; DiDonato &
 * Morris 1986): ½ erfc(√y) ∓ e^(−y) / √(2πa) · Σ_k C_k(η) / a^k, y = a(σ − ln(1 + σ)), σ = (x − a)/a,
 * η = ±√(2y/a). Its cost does not grow with a. Beyond |σ| = 0.3, y > 37 at such a shape: 0 or 1.
 */
function gammaPLarge(a: number, x: number): number {
  const sigma = (x - a) / a
  if (sigma <= -0.3) return 0
  if (sigma >= 0.3) return 1
  const phi = sigma - Math.log1p(sigma)
  const y = a * phi
  const eta = x < a ? -Math.sqrt(2 * phi) : Math.sqrt(2 * phi)
  let series = 0
  for (let k = TEMME.length - 1; k >= 0; k--) {
    const c = TEMME[k] as readonly number[]
    let ck = 0
    for (let i = c.length - 1; i >= 0; i--) ck = ck * eta + (c[i] as number)
    series = series / a + ck
  }
  const r = (series * Math.exp(-y)) / Math.sqrt(2 * Math.PI * a)
  // ½ erfc(√y) = ½ Q(½, y).
  const tail = (1 - gammaP(0.5, y, LN_GAMMA_HALF)) / 2
  return Math.min(1, Math.max(0, x < a ? tail - r : 1 - tail - r))
}

/**
 * The grid of dirichletProbabilityOfMax where a pseudo-count is below 1 (a policy's
 * `confidence.prior` may be as low as ½), else null for the even grid. Below 1 a Gamma density is
 * infinite at 0 and its CDF rises like x^α: on the even grid the first step holds most of such a
 * component's mass, read at one point, and Dirichlet(½, ½) gave 0.51, not ½. Over the span that
 * holds the mass of those components the grid is even in x^(least α) instead (GRID more nodes),
 * and beyond it the even grid goes on, so that large pseudo-counts beside a small one keep their
 * steps. `nodes` from 0 (the even grid starts at 0 whenever a pseudo-count is below 1), and the
 * point each step is read at, `mids[i]` for the step that ends at `nodes[i]`.
 */
export function nodesNearZero(alphas: readonly number[], low: number, step: number): { nodes: number[]; mids: number[] } | null {
  let least = Infinity
  let near = 0
  for (const a of alphas) {
    least = Math.min(least, a)
    if (a < 1) near = Math.max(near, a + 12 * Math.sqrt(a) + 12)
  }
  if (least >= 1 || low !== 0) return null
  const power = 1 / least
  const nodes = [0]
  const mids = [0]
  for (let i = 1; i <= GRID; i++) {
    nodes.push(near * (i / GRID) ** power)
    mids.push(near * ((i - 0.5) / GRID) ** power)
  }
  for (let i = 1; i <= GRID; i++) {
    const x = i * step
    if (x <= near) continue
    mids.push(((nodes.at(-1) as number) + x) / 2)
    nodes.push(x)
  }
  return { nodes, mids }
}

/**
 * Pearson's chi-squared test of independence on a 2×k table of counts (Pearson 1900), with the
 * p-value from the chi-squared distribution, P(χ² > x; df) = 1 − P(df/2, x/2). Columns that are
 * empty in both rows are dropped. Where an expected count is below 1 the chi-squared
 * approximation does not hold (Cochran 1954) and its p-value is far too small: one choice of a
 * new option among a few recent ones, after a hundred of another, read p = 0.00006 where it is
 * 0.06. There the p-value is the exact one (Freeman & Halton 1951), when the tables to count
 * are few enough.
 */
export function chiSquaredIndependence(rows: readonly [readonly number[], readonly number[]]): {
  statistic: number
  df: number
  pValue: number
} {
  const [a, b] = rows
  const columns: Array<[number, number]> = []
  for (let j = 0; j < a.length; j++) {
    const x = a[j] ?? 0
    const y = b[j] ?? 0
    if (x + y > 0) columns.push([x, y])
  }
  const rowA = columns.reduce((s, c) => s + c[0], 0)
  const rowB = columns.reduce((s, c) => s + c[1], 0)
  const total = rowA + rowB
  const df = columns.length - 1
  if (df < 1 || rowA === 0 || rowB === 0) return { statistic: 0, df: Math.max(df, 0), pValue: 1 }
  let statistic = 0
  for (const [x, y] of columns) {
    const column = x + y
    const expectedA = (rowA * column) / total
    const expectedB = (rowB * column) / total
    statistic += (x - expectedA) ** 2 / expectedA + (y - expectedB) ** 2 / expectedB
  }
  const approximate = () => 1 - regularizedGammaP(df / 2, statistic / 2)
  const smallExpected = columns.some(([x, y]) => (Math.min(rowA, rowB) * (x + y)) / total < 1)
  const pValue = smallExpected ? (exactPValue(columns, rowA, rowB) ?? approximate()) : approximate()
  return { statistic, df, pValue }
}

/** Tables counted at most by the exact test; past it, the chi-squared approximation answers. */
const EXACT_TABLES = 5_000

/**
 * The exact p-value of a 2×k table with its margins fixed (Freeman & Halton 1951, Fisher's exact
 * test for k = 2): the probability, under independence, of every table no more likely than the
 * one observed. A table's first row is multivariate hypergeometric, Π C(c_j, x_j) / C(n, r).
 * Null when there are more than EXACT_TABLES tables to count.
 */
function exactPValue(columns: ReadonlyArray<readonly [number, number]>, rowA: number, rowB: number): number | null {
  // The smaller row has the fewer tables; either row fixes the table.
  const row = rowA <= rowB ? 0 : 1
  const size = row === 0 ? rowA : rowB
  const totals = columns.map(([x, y]) => x + y)
  const lnChoose = (n: number, k: number) => gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
  // How many tables there are at most (the last column holds what is left): past the bound, none
  // is counted, so that a recommendation never spends more than a fraction of a millisecond here.
  let bound = 1
  let compositions = 1
  for (let j = 0; j < totals.length - 1; j++) {
    bound *= Math.min(totals[j] as number, size) + 1
    compositions = (compositions * (size + j + 1)) / (j + 1)
  }
  if (Math.min(bound, compositions) > EXACT_TABLES) return null
  const lnAll = lnChoose(rowA + rowB, size)
  // ln C(c_j, x) for every x a table can hold in column j, computed once, not once per table.
  const lnColumn = totals.map((total) => Array.from({ length: Math.min(total, size) + 1 }, (_, x) => lnChoose(total, x)))
  const observed = columns.reduce((s, c, j) => s + (lnColumn[j]?.[c[row]] as number), 0) - lnAll
  // Relative tolerance, so that tables as likely as the observed one are counted despite rounding.
  const likeliest = observed + 1e-7
  const rest: number[] = []
  for (let j = totals.length - 1, sum = 0; j >= 0; j--) rest[j] = sum += totals[j] as number
  let tables = 0
  let p = 0
  const visit = (j: number, left: number, ln: number): boolean => {
    if (j === totals.length) {
      if (++tables > EXACT_TABLES) return false
      if (ln - lnAll <= likeliest) p += Math.exp(ln - lnAll)
      return true
    }
    const total = totals[j] as number
    const after = (rest[j] as number) - total
    for (let x = Math.max(0, left - after); x <= Math.min(total, left); x++) {
      if (!visit(j + 1, left - x, ln + ((lnColumn[j] as number[])[x] as number))) return false
    }
    return true
  }
  return visit(0, size, 0) ? Math.min(1, p) : null
}

/** Kish's effective sample size of weighted observations, (Σw)² / Σw² (Kish 1965). */
export function effectiveSampleSize(weights: Iterable<number>): number {
  let sum = 0
  let squares = 0
  for (const w of weights) {
    sum += w
    squares += w * w
  }
  return squares === 0 ? 0 : (sum * sum) / squares
}

/** Shannon entropy in bits of a probability vector. */
export function entropyBits(probabilities: readonly number[]): number {
  let h = 0
  for (const p of probabilities) if (p > 0) h -= p * Math.log2(p)
  return h
}
