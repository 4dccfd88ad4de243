/**
 * A seeded source of randomness for the evaluation, so that `npm run eval` reproduces its report
 * exactly: nothing here reads Math.random or the clock.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number
  /** Uniform integer in [0, n). */
  int(n: number): number
  /** Uniform in [low, high). */
  uniform(low: number, high: number): number
  /** Exponential with the given rate. */
  exponential(rate: number): number
  /** Gamma(shape, 1). */
  gamma(shape: number): number
  /** A probability vector drawn from Dirichlet(alphas). */
  dirichlet(alphas: readonly number[]): number[]
  /** An index drawn with the given probabilities (which sum to 1). */
  categorical(probabilities: readonly number[]): number
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T
}

/** SplitMix32 finaliser: spreads a seed and a stream number over 32 bits (Steele, Lea & Flood 2014). */
function mix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/**
 * Random numbers from `seed` on an independent `stream` (one per simulated user, so adding users
 * changes no other user's draws). The generator is sfc32, Doty-Humphrey's Small Fast Counter,
 * which passes PractRand; gamma variates by Marsaglia & Tsang (2000).
 */
export function createRandom(seed: number, stream = 0): Random {
  let a = mix32(seed)
  let b = mix32(a ^ stream)
  let c = mix32(b + 0x6a09e667)
  let d = 1
  function next(): number {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  // Warm up so that nearby seeds give unrelated sequences.
  for (let i = 0; i < 15; i++) next()

  function normal(): number {
    // Box–Muller; 1 − u keeps the logarithm finite.
    const u = 1 - next()
    const v = next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  }

  function gamma(shape: number): number {
    if (shape < 1) return gamma(shape + 1) * Math.pow(1 - next(), 1 / shape)
    const d = shape - 1 / 3
    const c = 1 / Math.sqrt(9 * d)
    for (;;) {
      let x: number
      let v: number
      do {
        x = normal()
        v = 1 + c * x
      } while (v <= 0)
      v = v * v * v
      const u = 1 - next()
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v
    }
  }

  return {
    next,
    int: (n) => Math.floor(next() * n),
    uniform: (low, high) => low + (high - low) * next(),
    exponential: (rate) => -Math.log(1 - next()) / rate,
    gamma,
    dirichlet(alphas) {
      const draws = alphas.map((alpha) => gamma(alpha))
      const total = draws.reduce((s, g) => s + g, 0)
      return draws.map((g) => g / total)
    },
    categorical(probabilities) {
      let u = next()
      for (let i = 0; i < probabilities.length; i++) {
        u -= probabilities[i] as number
        if (u < 0) return i
      }
      return probabilities.length - 1
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick from an empty list')
      return items[Math.floor(next() * items.length)] as (typeof items)[number]
    },
  }
}
