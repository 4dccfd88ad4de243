import type { Policy } from './policy'
import type { Preference } from './preference'
import { dirichletProbabilityOfMax, entropyBits } from './statistics'

export type ConfidenceLevel = 'high' | 'medium-high' | 'medium' | 'low'

export const SINGLE_SELECT_METHOD =
  'dirichlet-max: P(option has the largest preference) under a Dirichlet posterior with a uniform prior, ' +
  'pseudo-counts = decayed weights rescaled to the Kish effective sample size'

export const MULTI_SELECT_METHOD =
  'beta-rate: per option P(selection rate >= 0.5), or < 0.5 for one left out, under a Beta posterior with a uniform prior on ' +
  'Kish-rescaled decayed weights; the set confidence is their product'

/** A confidence as reported: 4 decimals. */
export function reportedConfidence(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

/** The band of a confidence value (R-REC-3): high ≥ 0.95, medium-high ≥ 0.75, medium ≥ 0.55, else low. */
export function confidenceLevel(value: number, policy: Policy): ConfidenceLevel {
  // Banded at the 4 decimals reported, so that a value shown as 0.75 is never below the 0.75 band
  // for the last bits of a numerical integral (P = 0.75 exactly came out as 0.7499…).
  value = reportedConfidence(value)
  if (value >= policy.confidence.high) return 'high'
  if (value >= policy.confidence.medium_high) return 'medium-high'
  if (value >= policy.confidence.medium) return 'medium'
  return 'low'
}

/** Scale that turns decayed weights into pseudo-counts worth the effective sample size. */
function evidenceScale(preference: Preference): number {
  return preference.totalWeight === 0 ? 0 : preference.effective / preference.totalWeight
}

/** Posterior belief about a single-select point: what the user will pick, and how sure that is. */
export interface SingleSelectBelief {
  /** P(option is the user's most-preferred), per offered option. */
  probabilityOfMax(option: string): number
  /** Posterior predictive probability that the next choice is the option (smoothed). */
  predictive(option: string): number
  /** Entropy in bits of the predicted next choice. */
  entropy: number
}

/**
 * The Dirichlet posterior over the user's choice probabilities at a point (R-REC-3, R-ASK-1).
 * Choices outside the offered options form one more category, so free text lowers certainty.
 * `prior` is the pseudo-count per option behind the confidence; `predictivePrior` the one behind
 * the predicted next choice (p, entropy), by default the same.
 */
export function singleSelectBelief(
  preference: Preference,
  options: readonly string[],
  prior: number,
  predictivePrior: number = prior,
): SingleSelectBelief {
  const scale = evidenceScale(preference)
  const evidence = options.map((o) => (preference.weights.get(o) ?? 0) * scale)
  if (preference.elsewhereWeight > 0) evidence.push(preference.elsewhereWeight * scale)
  const alphas = evidence.map((e) => prior + e)
  // The next choice is predicted with the Krichevsky–Trofimov estimator (count + ½) / (n + k/2)
  // when predictivePrior is ½: the prior that minimises the worst-case log loss of sequential
  // prediction (Krichevsky & Trofimov 1981), the score p is judged by.
  const predicted = evidence.map((e) => predictivePrior + e)
  const predictedTotal = predicted.reduce((s, a) => s + a, 0)
  const cache = new Map<string, number>()
  return {
    probabilityOfMax(option) {
      const index = options.indexOf(option)
      if (index < 0) return 0
      let value = cache.get(option)
      if (value === undefined) {
        // Every option alike (no evidence yet, or the same for each): by symmetry each is the most
        // preferred with probability 1/k, which the numerical integral gives only to about 1e-4
        // (0.3334 of three options).
        value = alphas.every((a) => a === alphas[0]) ? 1 / alphas.length : dirichletProbabilityOfMax(alphas, index)
        cache.set(option, value)
      }
      return value
    },
    predictive(option) {
      const index = options.indexOf(option)
      return index < 0 ? 0 : (predicted[index] as number) / predictedTotal
    },
    entropy: entropyBits(predicted.map((a) => a / predictedTotal)),
  }
}

/** Posterior belief about one option of a multi-select point (R-REC-8). */
export interface SelectionBelief {
  option: string
  /** Decayed selection rate. */
  rate: number
  /** Posterior mean of the selection rate (smoothed). */
  predictive: number
  /** P(rate ≥ 0.5) when selected, P(rate < 0.5) when not: the confidence in what is recommended. */
  confidence: number
  selected: boolean
}

/**
 * The Beta posterior over each option's selection rate at a multi-select point (R-REC-8, R-ASK-1).
 * As for a single-select point, `prior` is the pseudo-count (per outcome: selected, not selected)
 * behind the confidence, and `predictivePrior` the one behind the predicted next selection (p,
 * entropy), by default the same.
 */
export function multiSelectBeliefs(
  preference: Preference,
  options: readonly string[],
  prior: number,
  predictivePrior: number = prior,
): SelectionBelief[] {
  const scale = evidenceScale(preference)
  return options.map((option) => {
    const selected = preference.weights.get(option) ?? 0
    const rate = preference.totalWeight === 0 ? 0 : selected / preference.totalWeight
    const forIt = selected * scale
    const against = (preference.totalWeight - selected) * scale
    const pAbove = dirichletProbabilityOfMax([prior + forIt, prior + against], 0)
    const isSelected = preference.totalWeight > 0 && rate >= 0.5
    return {
      option,
      rate,
      // Krichevsky–Trofimov's (s + ½) / (n + 1) when predictivePrior is ½, as for a single choice.
      predictive: (predictivePrior + forIt) / (2 * predictivePrior + forIt + against),
      confidence: isSelected ? pAbove : 1 - pAbove,
      selected: isSelected,
    }
  })
}

/**
 * An option's factor in the set's confidence (R-REC-8): the confidence in selecting it when `inSet`,
 * in leaving it out when not, whichever its rate says.
 */
export function selectionFactor(belief: SelectionBelief, inSet: boolean): number {
  return inSet === belief.selected ? belief.confidence : 1 - belief.confidence
}

/** What a multi-select answer says of the user's next one: the set's confidence, p and entropy. */
export interface SetFigures {
  /** The product of the options' factors. */
  confidence: number
  /** The predicted chance that the user selects the set: each option selected or left out as it is. */
  p: number
  /** The sum of each option's entropy in bits. */
  entropy: number
}

/**
 * The figures of the set `chosen` over each option's belief (R-REC-8, R-ASK-1). An option in
 * `certain` is one a required decision fixes (R-CON-2): no doubt is left of it, so it counts 1 in
 * the confidence and in p, and nothing in the entropy.
 */
export function setFigures(beliefs: readonly SelectionBelief[], chosen: ReadonlySet<string>, certain: ReadonlySet<string> = new Set()): SetFigures {
  let confidence = 1
  let p = 1
  let entropy = 0
  for (const b of beliefs) {
    if (certain.has(b.option)) continue
    const inSet = chosen.has(b.option)
    confidence *= selectionFactor(b, inSet)
    p *= inSet ? b.predictive : 1 - b.predictive
    if (b.predictive > 0 && b.predictive < 1) entropy -= b.predictive * Math.log2(b.predictive) + (1 - b.predictive) * Math.log2(1 - b.predictive)
  }
  return { confidence, p, entropy }
}

/**
 * A confidence pulled toward `chance` by `shrink` (0: not at all, 1: all the way), as a request's
 * context that contradicts the precondition pulls it (R-REC-5).
 */
export function towardChance(value: number, chance: number, shrink: number): number {
  return chance + (value - chance) * (1 - shrink)
}

/**
 * Prior probability that a split of the evidence the context backoff or the change test makes is
 * real (R-REC-3, R-REC-7): most tests run on a user whose preference holds still and does not
 * depend on the context, so a split is taken as real only on the evidence of its test.
 */
export const SPLIT_PRIOR = 0.15

/**
 * Added to a single-select confidence's method where the change test or the context backoff split
 * its evidence: the value is then not the split evidence's P(max) alone (see splitPosterior).
 */
export const SPLIT_WEIGHED_METHOD =
  '; on evidence split by the change test or the context backoff, mixed with the P(max) on the evidence before the split, ' +
  `weighed by the posterior probability that the split is real (prior ${SPLIT_PRIOR}, Bayes factor 1/(-e*p*ln p) of the test's p-value, ` +
  "the context test's times the number of keys tested)"

/**
 * Added to a multi-select confidence's method where the change test or the context backoff split
 * its evidence: each option's P(rate >= 0.5) is then mixed as a single-select P(max) is.
 */
export const SPLIT_WEIGHED_MULTI_SELECT_METHOD =
  "; on evidence split by the change test or the context backoff, each option's P(selection rate >= 0.5) mixed with the same on the evidence before the split, " +
  `weighed by the posterior probability that the split is real (prior ${SPLIT_PRIOR}, Bayes factor 1/(-e*p*ln p) of the test's p-value, ` +
  "the context test's times the number of keys tested)"

/**
 * The posterior probability that a split found at p-value `pValue` is real, with prior
 * SPLIT_PRIOR: the Bayes factor for it taken as 1/(−e·p·ln p), the most a p-value can be worth
 * against a point null (Sellke, Bayarri & Berger 2001); from p = 1/e on, where that reaches 1, 1:
 * the prior, as the bound meets it there (a policy's significance may be that high). No p-value
 * (NaN) is no evidence of a split: 0.
 */
export function splitPosterior(pValue: number, prior: number = SPLIT_PRIOR): number {
  if (Number.isNaN(pValue)) return 0
  if (pValue >= 1 / Math.E) return prior
  if (pValue <= 0) return 1
  const odds = (prior / (1 - prior)) / (-Math.E * pValue * Math.log(pValue))
  return Number.isFinite(odds) ? odds / (1 + odds) : 1
}
