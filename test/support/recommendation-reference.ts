/**
 * An independent reading of the recommendation's arithmetic, from SPEC.md (R-SES-2, R-MEM-2,
 * R-REC-1..4, R-REC-6, R-ASK-1, R-ASK-2) and the default policy's numbers, with the readings README
 * documents where the spec leaves a choice (each marked README); it shares no code with src/domain,
 * so that test/recommendation-reference.test.ts holds the service to those words, not to itself.
 */

export const POLICY = {
  N: 5,
  M: 20,
  alpha: 0.5,
  high: 0.95,
  mediumHigh: 0.75,
  medium: 0.55,
  beginnerBelow: 10,
  expertAbove: 50,
  autoResolveP: 0.9,
  sensitive: ['security', 'incident', 'vulnerability', 'breach', 'credential', 'secret', 'password', 'production data'],
}

const DAY = 86_400_000

/** R-CAP-3: trailing " (Recommended)" in any case, surrounding and repeated white space removed. */
export function normalise(label: string): string {
  let s = label.trim().replace(/\s+/g, ' ')
  for (;;) {
    const t = s.replace(/\s*\(recommended\)$/i, '').trim()
    if (t === s) return s
    s = t
  }
}

/** Whether the agent marked the label ` (Recommended)` (any case). */
export function markedRecommended(label: string): boolean {
  return /\(recommended\)\s*$/i.test(label.trim())
}

export interface RefObservation {
  choice: string // normalised option it is
  at: number // ms
  project: string | undefined
}

export interface RefRequest {
  options: string[] // as sent (may carry " (Recommended)")
  project?: string
  staticDefault?: string // as sent
  policyDefault?: string
  asOf: number // ms, the moment aged from
  sessions: number // distinct sessions of the user up to asOf (incl. one this request starts)
}

export function expertiseLevel(sessions: number): 'beginner' | 'intermediate' | 'expert' {
  if (sessions < POLICY.beginnerBelow) return 'beginner'
  if (sessions > POLICY.expertAbove) return 'expert'
  return 'intermediate'
}

export function confidenceLevel(value: number): 'high' | 'medium-high' | 'medium' | 'low' {
  if (value >= POLICY.high) return 'high'
  if (value >= POLICY.mediumHigh) return 'medium-high'
  if (value >= POLICY.medium) return 'medium'
  return 'low'
}

/** R-MEM-2: (a + 1)^-α with a in (continuous) days. */
export function weight(ageMs: number): number {
  return Math.pow(ageMs / DAY + 1, -POLICY.alpha)
}

export interface RefAnswer {
  scope: 'user' | 'project' | 'all-projects'
  /** Σ w² over the observations used, for Kish's effective sample size (Σw)²/Σw². */
  squares: number
  /** The decayed weight of choices of no offered option. */
  other: number
  n: number
  needed: number
  weights: Map<string, number>
  counts: Map<string, number>
  shares: Map<string, number>
  staticDefault: string
  /** The decayed majority (before the state decides); several when tied beyond the tie rules. */
  majority: string[]
  /** The options within `tolerance` of the top weight: a near tie the service's sums may read either way. */
  nearTop: string[]
  expertise: ReturnType<typeof expertiseLevel>
}

export function reference(observations: RefObservation[], request: RefRequest, tolerance = 1e-9): RefAnswer {
  const options = request.options.map(normalise)
  const upTo = observations.filter((o) => o.at <= request.asOf)
  // R-MEM-6: a project point with fewer than N observations falls back to the user's, across projects.
  let used = upTo
  let scope: 'user' | 'project' | 'all-projects' = 'user'
  if (request.project !== undefined) {
    const inProject = upTo.filter((o) => o.project === request.project)
    if (inProject.length >= POLICY.N) {
      used = inProject
      scope = 'project'
    } else if (upTo.length > inProject.length) scope = 'all-projects'
    else scope = 'project' // nothing elsewhere to back off to
  }
  const weights = new Map(options.map((o) => [o, 0]))
  const counts = new Map(options.map((o) => [o, 0]))
  let squares = 0
  // README "Labels": a choice names the option it is, else the one it is in another case.
  const match = (label: string) => options.find((o) => o === label) ?? options.find((o) => o.toLowerCase() === label.toLowerCase()) ?? label
  let other = 0
  for (const o of used) {
    const choice = match(o.choice)
    const w = weight(request.asOf - o.at)
    squares += w ** 2
    // R-CAP-3: a choice of no option is `other`; README "Labels": evidence against every offered option.
    if (!weights.has(choice)) {
      other += w
      continue
    }
    weights.set(choice, weights.get(choice)! + w)
    counts.set(choice, counts.get(choice)! + 1)
  }
  const total = [...weights.values()].reduce((a, b) => a + b, other)
  const shares = new Map(options.map((o) => [o, total === 0 ? 0 : weights.get(o)! / total]))
  // README "Recommendation request": one option the agent marked ` (Recommended)` is the static default.
  const marked = request.options.filter(markedRecommended)
  const staticDefault =
    request.staticDefault !== undefined
      ? match(normalise(request.staticDefault))
      : marked.length === 1
        ? normalise(marked[0]!)
        : (request.policyDefault === undefined ? undefined : match(request.policyDefault)) ?? options[0]!
  const top = Math.max(...weights.values())
  const tied = options.filter((o) => weights.get(o) === top)
  const nearTop = options.filter((o) => Math.abs(weights.get(o)! - top) <= tolerance * Math.max(1, total))
  let majority: string[]
  if (tied.length === 1) majority = tied
  else if (tied.includes(staticDefault)) majority = [staticDefault]
  else {
    // The most recent choice among the tied; equal instants leave it open.
    const among = used.filter((o) => tied.includes(match(o.choice)))
    const latest = Math.max(...among.map((o) => o.at))
    majority = [...new Set(among.filter((o) => o.at === latest).map((o) => match(o.choice)))]
  }
  return {
    scope,
    squares,
    other,
    n: used.length,
    needed: Math.max(0, POLICY.N - used.length),
    weights,
    counts,
    shares,
    staticDefault,
    majority,
    nearTop,
    expertise: expertiseLevel(request.sessions),
  }
}

export function isSensitive(text: string): boolean {
  const t = text.toLowerCase()
  return POLICY.sensitive.some((term) => t.includes(term))
}

/** A seeded generator (mulberry32), so that a failing history can be replayed by its seed. */
export function seeded(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  }
}

/** ln Γ(x), Lanczos (g = 7, n = 9). */
function lnGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7]
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x)
  x -= 1
  let a = c[0]!
  const t = x + 7.5
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i)
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a)
}

/** The regularised lower incomplete gamma P(a, x) (series below a + 1, continued fraction above). */
function gammaP(a: number, x: number): number {
  if (x <= 0) return 0
  const lead = a * Math.log(x) - x - lnGamma(a)
  if (x < a + 1) {
    let sum = 1 / a
    let term = sum
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break
    }
    return sum * Math.exp(lead)
  }
  let b = x + 1 - a
  let c = 1 / 1e-300
  let d = 1 / b
  let h = d
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < 1e-300) d = 1e-300
    c = b + an / c
    if (Math.abs(c) < 1e-300) c = 1e-300
    d = 1 / d
    const del = d * c
    h *= del
    if (Math.abs(del - 1) < 1e-15) break
  }
  return 1 - Math.exp(lead) * h
}

/**
 * README "Confidence": P(θ_rec is the largest) under Dirichlet(1 + c), c the decayed weights rescaled
 * to Kish's effective sample size (Σw)²/Σw²; by Simpson's rule over the Gamma representation.
 */
export function referenceConfidence(weights: number[], squares: number, rec: number, prior = 1): number {
  const total = weights.reduce((a, b) => a + b, 0)
  const scale = total === 0 ? 0 : total / squares
  const alphas = weights.map((w) => w * scale + prior)
  const ar = alphas[rec]!
  const upper = ar + 12 * Math.sqrt(ar) + 40
  const steps = 2000
  const h = upper / steps
  let sum = 0
  for (let i = 0; i <= steps; i++) {
    const x = i * h
    if (x === 0) continue
    let f = Math.exp((ar - 1) * Math.log(x) - x - lnGamma(ar))
    for (let j = 0; j < alphas.length; j++) if (j !== rec) f *= gammaP(alphas[j]!, x)
    sum += f * (i === steps ? 1 : i % 2 === 1 ? 4 : 2)
  }
  return (sum * h) / 3
}

/** README "p": the posterior predictive of the recommended option, ½ per option as its prior. */
export function referencePredictive(weights: number[], squares: number, rec: number, prior = 0.5): { p: number; entropy: number } {
  const total = weights.reduce((a, b) => a + b, 0)
  const scale = total === 0 ? 0 : total / squares
  const counts = weights.map((w) => w * scale + prior)
  const sum = counts.reduce((a, b) => a + b, 0)
  const q = counts.map((c) => c / sum)
  return { p: q[rec]!, entropy: -q.reduce((a, x) => a + (x > 0 ? x * Math.log2(x) : 0), 0) }
}
