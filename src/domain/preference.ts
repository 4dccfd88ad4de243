import { ageDays, decayWeight } from './decay'
import type { Observation } from './observation'
import { effectiveSampleSize } from './statistics'

/** Where a choice outside the offered options (free text, or an option no longer offered) is counted. */
export const ELSEWHERE = Symbol('elsewhere')

/** What has been learned at a point from a set of observations: decayed weights per option (R-MEM-2). */
export interface Preference {
  /** Decayed weight per offered option; for multi-select, the weight of observations selecting it. */
  weights: Map<string, number>
  /** Raw count per offered option. */
  counts: Map<string, number>
  /** Decayed weight of choices outside the offered options. */
  elsewhereWeight: number
  elsewhereCount: number
  /** Σ of all observation weights. */
  totalWeight: number
  /** Number of observations. */
  observations: number
  /** Kish effective sample size of the weights. */
  effective: number
  /** Latest time each option was chosen (ms since epoch), for tie-breaking. */
  lastChosen: Map<string, number>
}

/** Learns the decayed preference over `options` from observations, aged from `asOf`. */
export function learnPreference(
  observations: readonly Observation[],
  options: readonly string[],
  asOf: Date,
  alpha: number,
): Preference {
  const weights = new Map<string, number>(options.map((o) => [o, 0]))
  const counts = new Map<string, number>(options.map((o) => [o, 0]))
  const lastChosen = new Map<string, number>()
  const all: number[] = []
  let elsewhereWeight = 0
  let elsewhereCount = 0
  for (const observation of observations) {
    const w = decayWeight(ageDays(observation.timestamp, asOf), alpha)
    all.push(w)
    const at = Date.parse(observation.timestamp)
    let offered = 0
    for (const label of observation.chosen) {
      const current = weights.get(label)
      if (current === undefined) continue
      offered++
      weights.set(label, current + w)
      counts.set(label, (counts.get(label) ?? 0) + 1)
      lastChosen.set(label, Math.max(lastChosen.get(label) ?? -Infinity, at))
    }
    if (offered === 0) {
      elsewhereWeight += w
      elsewhereCount++
    }
  }
  const totalWeight = all.reduce((s, w) => s + w, 0)
  return {
    weights,
    counts,
    elsewhereWeight,
    elsewhereCount,
    totalWeight,
    observations: observations.length,
    effective: effectiveSampleSize(all),
    lastChosen,
  }
}

/** Decayed share of an option: its weight over the weight of every observation. */
export function shareOf(preference: Preference, option: string): number {
  if (preference.totalWeight === 0) return 0
  return (preference.weights.get(option) ?? 0) / preference.totalWeight
}

const RELATIVE_TIE = 1e-9

/**
 * The option with the largest decayed weight (R-REC-2); ties go to the static default, then to
 * the most recently chosen, then to the first label in code-point order. Undefined when nothing was observed.
 */
export function majorityOption(
  preference: Preference,
  options: readonly string[],
  staticDefault: string,
): string | undefined {
  let best = -Infinity
  for (const o of options) best = Math.max(best, preference.weights.get(o) ?? 0)
  if (!(best > 0)) return undefined
  const tied = options.filter((o) => (preference.weights.get(o) ?? 0) >= best * (1 - RELATIVE_TIE))
  if (tied.includes(staticDefault)) return staticDefault
  // Equal weights and equal recency: the label decides, so that option order never does.
  let winner = tied[0] as string
  for (const o of tied) {
    const at = preference.lastChosen.get(o) ?? -Infinity
    const best = preference.lastChosen.get(winner) ?? -Infinity
    if (at > best || (at === best && o < winner)) winner = o
  }
  return winner
}
