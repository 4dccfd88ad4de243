import { categoryOf, countInTally, labelsOf, laterId, type Category, type Tally } from './aggregate'
import { decayedSumAt, decayGrid } from './decayed-sum'
import { matchOption } from './labels'
import type { Observation } from './observation'

/** Where a choice outside the offered options (free text, or an option no longer offered) is counted. */
export const ELSEWHERE = Symbol('elsewhere')

/** What has been learned at a point from a set of observations: decayed weights per option (R-MEM-2). */
export interface Preference {
  /** Decayed weight per offered option; for multi-select, the weight of observations selecting it. */
  weights: Map<string, number>
  /**
   * Raw count per offered option: the choices of it, not decayed. Read for a single-select
   * question, a set of k offered options is one choice, 1/k of it each, as its weight is shared,
   * so that the counts add up to the choices, as the shares add up to 1.
   */
  counts: Map<string, number>
  /** Decayed weight of choices outside the offered options. */
  elsewhereWeight: number
  elsewhereCount: number
  /**
   * Decayed weight of the choices that named offered options and, beside them, one not offered
   * now: a multi-select set one of whose options was since reworded or dropped.
   */
  partlyElsewhereWeight: number
  /** Σ of all observation weights. */
  totalWeight: number
  /** Number of observations. */
  observations: number
  /** Kish effective sample size of the weights. */
  effective: number
  /** Latest time each option was chosen (ms since epoch), for tie-breaking. */
  lastChosen: Map<string, number>
  /** The id of the choice of each option recorded last at its lastChosen, where known: of one moment, the later for arriving later. */
  lastChosenId: Map<string, string>
}

/** Learns the decayed preference over `options` from observations, aged from `asOf`. */
export function learnPreference(
  observations: readonly Observation[],
  options: readonly string[],
  asOf: Date,
  alpha: number,
  oneChoice = false,
): Preference {
  const grid = decayGrid(alpha)
  const tallies = new Map<Category, Tally>()
  for (const o of observations) countInTally(tallies, categoryOf(o.chosen), Date.parse(o.timestamp), grid, o.id)
  return preferenceOf(tallies, options, asOf, alpha, oneChoice)
}

/**
 * Learns the decayed preference over `options` from the tallies of a cell (or of several),
 * aged from `asOf`: the weights of each category go to the offered options it chose, or
 * elsewhere when it chose none of them. Kish's effective sample size is (Σw)²/Σw², with Σw²
 * the same power law at 2α. Read for a single-select question (`oneChoice`), a set chosen at a
 * multi-select question at the point is one choice, its weight and its count shared evenly by the
 * offered options in it: given whole to each, Opus and Sonnet chosen together 8 times were each
 * `100%` of the choices, shares adding up to 2, and 8 choices each, counts adding up to 16.
 */
export function preferenceOf(
  tallies: Iterable<readonly [Category, Tally]>,
  options: readonly string[],
  asOf: Date,
  alpha: number,
  oneChoice = false,
): Preference {
  const grid = decayGrid(alpha)
  const now = asOf.getTime()
  const weights = new Map<string, number>(options.map((o) => [o, 0]))
  const counts = new Map<string, number>(options.map((o) => [o, 0]))
  const lastChosen = new Map<string, number>()
  const lastChosenId = new Map<string, string>()
  let elsewhereWeight = 0
  let elsewhereCount = 0
  let partlyElsewhereWeight = 0
  let totalWeight = 0
  let squares = 0
  let observations = 0
  for (const [category, tally] of tallies) {
    const w = tally.weight === undefined ? 0 : decayedSumAt(tally.weight, now, alpha, grid)
    totalWeight += w
    squares += tally.weight === undefined ? 0 : decayedSumAt(tally.weight, now, 2 * alpha, grid)
    observations += tally.n
    const { offered, unmatched } = matchedIn(category, options)
    const parts = oneChoice && offered.length > 1 ? offered.length : 1
    for (const label of offered) {
      weights.set(label, (weights.get(label) as number) + w / parts)
      counts.set(label, (counts.get(label) ?? 0) + tally.n / parts)
      noteLastChosen(lastChosen, lastChosenId, label, tally)
    }
    if (offered.length === 0) {
      elsewhereWeight += w
      elsewhereCount += tally.n
    } else if (unmatched) {
      partlyElsewhereWeight += w
    }
  }
  return {
    weights,
    counts,
    elsewhereWeight,
    elsewhereCount,
    partlyElsewhereWeight,
    totalWeight,
    observations,
    effective: squares === 0 ? 0 : (totalWeight * totalWeight) / squares,
    lastChosen,
    lastChosenId,
  }
}

/** Keeps the latest moment an option was chosen, and the id of the choice recorded last then (unknown when a tally there does not say). */
function noteLastChosen(lastChosen: Map<string, number>, lastChosenId: Map<string, string>, label: string, tally: Tally): void {
  const at = lastChosen.get(label) ?? -Infinity
  if (tally.last > at) {
    lastChosen.set(label, tally.last)
    if (tally.lastId === undefined) lastChosenId.delete(label)
    else lastChosenId.set(label, tally.lastId)
  } else if (tally.last === at) {
    const id = lastChosenId.get(label)
    if (tally.lastId === undefined) lastChosenId.delete(label)
    else if (id !== undefined && laterId(tally.lastId, id)) lastChosenId.set(label, tally.lastId)
  }
}

/**
 * The offered options a category chose: each of its labels as it is offered, else the option it
 * is in another case (R-CAP-3), as a choice, a policy's static default and a decision's option
 * name one: six choices of `Tier M` are choices of `tier m` when the agent now writes it so, not
 * "none of the 10 choices at this point was one of these options".
 */
export function offeredIn(category: Category, options: readonly string[]): string[] {
  return matchedIn(category, options).offered
}

/** The offered options a category chose (offeredIn), and whether any of its labels is none of them. */
function matchedIn(category: Category, options: readonly string[]): { offered: string[]; unmatched: boolean } {
  const offered = new Set<string>()
  let unmatched = false
  for (const label of labelsOf(category)) {
    const option = options.includes(label) ? label : matchOption(label, options)
    if (option === undefined) unmatched = true
    else offered.add(option)
  }
  return { offered: [...offered], unmatched }
}

/** Decayed share of an option: its weight over the weight of every observation. */
export function shareOf(preference: Preference, option: string): number {
  if (preference.totalWeight === 0) return 0
  return (preference.weights.get(option) ?? 0) / preference.totalWeight
}

const RELATIVE_TIE = 1e-9

/** The options whose decayed weight ties with the largest, `best`. */
function tiedAtTop(preference: Preference, options: readonly string[], best: number): string[] {
  return options.filter((o) => (preference.weights.get(o) ?? 0) >= best * (1 - RELATIVE_TIE))
}

/**
 * Whether the static default won the majority only by the tie rule of majorityOption: another
 * option was chosen as much. An advisory decision standing as the static default then decided it.
 */
export function defaultBrokeTie(preference: Preference, options: readonly string[], staticDefault: string): boolean {
  let best = -Infinity
  for (const o of options) best = Math.max(best, preference.weights.get(o) ?? 0)
  if (!(best > 0)) return false
  const tied = tiedAtTop(preference, options, best)
  return tied.length > 1 && tied.includes(staticDefault)
}

/**
 * Of tied options, those chosen most recently: the latest moment, then, where every one chosen then
 * says the choice recorded last (its id), the one recorded last (two, for a set chosen as one). Where
 * one does not say (a cell stored before the ids were kept), its order among them is not known: all
 * chosen at that moment, so that the label decides among them whatever the order of the options.
 */
function chosenLast(preference: Preference, tied: readonly string[]): string[] {
  const at = (o: string) => preference.lastChosen.get(o) ?? -Infinity
  const latest = Math.max(...tied.map(at))
  const recent = tied.filter((o) => at(o) === latest)
  const ids = recent.map((o) => preference.lastChosenId.get(o))
  if (ids.some((id) => id === undefined)) return recent
  const last = (ids as string[]).reduce((a, b) => (laterId(b, a) ? b : a))
  return recent.filter((_, i) => ids[i] === last)
}

/**
 * The option with the largest decayed weight (R-REC-2); ties go to the static default, then to
 * the most recently chosen (of one moment, the one recorded last: choices sent in one array or back
 * to back under one timestamp are the later for arriving later), then, where that is not known (a
 * cell stored before the ids were kept), to the first label in code-point order. Undefined when
 * nothing was observed.
 */
export function majorityOption(
  preference: Preference,
  options: readonly string[],
  staticDefault: string,
): string | undefined {
  let best = -Infinity
  for (const o of options) best = Math.max(best, preference.weights.get(o) ?? 0)
  if (!(best > 0)) return undefined
  const tied = tiedAtTop(preference, options, best)
  if (tied.includes(staticDefault)) return staticDefault
  // Equal weights and equal recency, unknown order of recording: the label decides, so that option order never does.
  return chosenLast(preference, tied).reduce((a, b) => (b < a ? b : a))
}
