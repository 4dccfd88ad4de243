/** A stated probability and whether the event it was about happened. */
export interface ProbabilityOutcome {
  probability: number
  happened: boolean
}

/** Share of outcomes that happened: top-1 accuracy when the event is "the user picked the recommended option". */
export function accuracy(outcomes: readonly ProbabilityOutcome[]): number {
  if (outcomes.length === 0) return Number.NaN
  let hits = 0
  for (const o of outcomes) if (o.happened) hits++
  return hits / outcomes.length
}

/** Probabilities are clipped to [ε, 1 − ε] so that one certain miss does not make the mean infinite. */
const LOG_LOSS_EPSILON = 1e-6

/**
 * Mean binary log loss (cross-entropy, in nats) of the stated probabilities:
 * −[y ln p + (1 − y) ln(1 − p)], p clipped to [1e-6, 1 − 1e-6] (Good 1952).
 */
export function logLoss(outcomes: readonly ProbabilityOutcome[]): number {
  if (outcomes.length === 0) return Number.NaN
  let total = 0
  for (const o of outcomes) {
    const p = Math.min(1 - LOG_LOSS_EPSILON, Math.max(LOG_LOSS_EPSILON, o.probability))
    total -= o.happened ? Math.log(p) : Math.log(1 - p)
  }
  return total / outcomes.length
}

/** One bin of a reliability table. */
export interface ReliabilityBin {
  /** The bin covers [from, to) (the last one includes 1). */
  from: number
  to: number
  count: number
  /** Mean stated probability in the bin (NaN when empty). */
  meanProbability: number
  /** Share of the bin's events that happened (NaN when empty). */
  observed: number
}

/** Equal-width bins of stated probability with what happened in each (DeGroot & Fienberg 1983). */
export function reliabilityTable(
  outcomes: readonly ProbabilityOutcome[],
  bins = 10,
): ReliabilityBin[] {
  const sums = Array.from({ length: bins }, () => ({ count: 0, probability: 0, happened: 0 }))
  for (const o of outcomes) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor(o.probability * bins)))
    const bin = sums[index] as (typeof sums)[number]
    bin.count++
    bin.probability += o.probability
    if (o.happened) bin.happened++
  }
  return sums.map((bin, i) => ({
    from: i / bins,
    to: (i + 1) / bins,
    count: bin.count,
    meanProbability: bin.count === 0 ? Number.NaN : bin.probability / bin.count,
    observed: bin.count === 0 ? Number.NaN : bin.happened / bin.count,
  }))
}

/**
 * Expected calibration error over equal-width bins: Σ_b (n_b / n) |observed_b − mean probability_b|
 * (Naeini, Cooper & Hauskrecht 2015; Guo et al. 2017). 0 for a perfectly calibrated predictor,
 * up to the binning noise of a finite sample.
 */
export function expectedCalibrationError(
  outcomes: readonly ProbabilityOutcome[],
  bins = 10,
): number {
  if (outcomes.length === 0) return Number.NaN
  let total = 0
  for (const bin of reliabilityTable(outcomes, bins)) {
    if (bin.count > 0)
      total += (bin.count / outcomes.length) * Math.abs(bin.observed - bin.meanProbability)
  }
  return total
}
