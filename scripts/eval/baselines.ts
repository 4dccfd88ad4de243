import { favourite } from './users'

/** What a predictor says before a question: the option it expects, and the probability it gives that option. */
export interface Prediction {
  option: string
  /** Stated probability that the user picks `option`. */
  p: number
  /** Whether it would skip the question and answer `option` itself. */
  autoResolve: boolean
}

/** The user's past choices at one point, oldest first: what every baseline learns from. */
export interface PointHistory {
  options: readonly string[]
  staticDefault: string
  choices: readonly string[]
}

/** The baselines, in the order the report shows them. */
export const BASELINES = ['static default', 'last choice', 'majority N/M', 'oracle'] as const
export type Baseline = (typeof BASELINES)[number]

/** The static default, always: what an agent does with no memory; it knows nothing, so p = 1/k. */
export function staticDefaultPrediction(history: PointHistory): Prediction {
  return { option: history.staticDefault, p: 1 / history.options.length, autoResolve: false }
}

/**
 * The previous choice again (the static default before any). Its p is the Laplace-smoothed rate
 * at which this user has repeated the previous choice at this point.
 */
export function lastChoicePrediction(history: PointHistory): Prediction {
  const { choices } = history
  const last = choices[choices.length - 1]
  let repeats = 0
  for (let i = 1; i < choices.length; i++) if (choices[i] === choices[i - 1]) repeats++
  const transitions = Math.max(0, choices.length - 1)
  return {
    option: last ?? history.staticDefault,
    p: (repeats + 1) / (transitions + 2),
    autoResolve: false,
  }
}

/**
 * The reference system as documented (seed 002): below N observations the static default; from
 * N on the plain, unweighted majority of every past choice (ties to the static default, then to
 * the most recent); p is its Laplace-smoothed share, and above M observations a share-based
 * p ≥ `autoResolveP` skips the question.
 */
export function majorityPrediction(
  history: PointHistory,
  thresholds: { N: number; M: number; autoResolveP: number },
): Prediction {
  const { options, choices, staticDefault } = history
  const n = choices.length
  const k = options.length
  const counts = new Map<string, number>(options.map((o) => [o, 0]))
  const lastAt = new Map<string, number>()
  choices.forEach((c, i) => {
    counts.set(c, (counts.get(c) ?? 0) + 1)
    lastAt.set(c, i)
  })
  const smoothed = (option: string) => ((counts.get(option) ?? 0) + 1) / (n + k)
  if (n < thresholds.N)
    return { option: staticDefault, p: smoothed(staticDefault), autoResolve: false }
  const best = Math.max(...options.map((o) => counts.get(o) ?? 0))
  const tied = options.filter((o) => counts.get(o) === best)
  let option = tied.includes(staticDefault) ? staticDefault : (tied[0] as string)
  if (!tied.includes(staticDefault)) {
    for (const o of tied) if ((lastAt.get(o) ?? -1) > (lastAt.get(option) ?? -1)) option = o
  }
  const p = smoothed(option)
  return { option, p, autoResolve: n > thresholds.M && p >= thresholds.autoResolveP }
}

/** The limit: it knows the user's true choice probabilities θ now, and names their favourite. */
export function oraclePrediction(options: readonly string[], theta: readonly number[]): Prediction {
  const best = favourite(theta)
  return { option: options[best] as string, p: theta[best] as number, autoResolve: false }
}
