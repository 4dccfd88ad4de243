import { addToAggregate, aggregateObservations, aggregationParams, emptySummary, viewOf, type Cell, type CellKey } from './aggregate'
import { confidenceLevel, multiSelectBeliefs, singleSelectBelief, splitPosterior, SINGLE_SELECT_METHOD, SPLIT_WEIGHED_METHOD, type ConfidenceLevel } from './confidence'
import { pointRule } from './decision-point'
import { matchOption, matchInOtherWords } from './labels'
import { selectEvidence } from './evidence'
import type { Observation } from './observation'
import type { CompiledPolicy } from './policy'
import { learnPreference, majorityOption, shareOf } from './preference'

/** What has been learned about a user at one decision point (R-SVC-5), as a person reads it. */
export interface PointPreference {
  point: string
  /** The question and header as last asked. */
  question: string
  header: string | null
  multi_select: boolean
  /** The user's own choices at the point that are learned from (auto-resolved answers are not evidence). */
  observations: number
  /**
   * How many more choices a recommendation here needs before it is personalised
   * (`thresholds.min_observations` less `observations`; 0 once there are enough): until then it is
   * the static default, whatever `majority` and `confidence` say of the few choices so far.
   */
  needed: number
  /**
   * When the choices since this moment differ from the earlier ones (a change of preference), only
   * they are learned from, as a recommendation learns them (evidence.ts); else null.
   */
  changed_since: string | null
  /** The option with the largest decayed weight, as a recommendation would learn it (R-REC-2). */
  majority: string | null
  /** Multi-select: the options selected at least half the time (R-REC-8), over every project as the rest of this answer; null for single-select. */
  selection: string[] | null
  share: number
  /** Single-select: P(majority is the most-preferred option), as R-REC-3 computes it; null for multi-select. */
  confidence: { value: number; level: ConfidenceLevel; method: string } | null
  /** Every option offered or chosen, with its count and decayed share (selection rate for multi-select). */
  options: Array<{ option: string; count: number; share: number }>
  /** How many of the choices counted were answers of the user's own, outside the options (free text, "Other"). */
  other: number
  projects: string[]
  first_observed: string
  last_observed: string
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

/**
 * The options known at a point: those of the latest question first, then any chosen earlier that
 * it no longer offers, so that no past choice drops out of view. A choice of an option offered now
 * in another case (`Tier M` when the question now says `tier m`) is that option's, as a
 * recommendation counts it, not a row of its own.
 */
function optionsOf(observations: readonly Observation[]): string[] {
  const latest = observations[observations.length - 1] as Observation
  const options = [...latest.options]
  for (const o of observations) for (const c of o.chosen) if (!options.includes(c) && matchOption(c, options) === undefined) options.push(c)
  return options
}

/** Learns one point: the same preference, majority and confidence a recommendation would use. */
function learnPoint(point: string, observations: Observation[], asOf: Date, policy: CompiledPolicy, counted?: Map<CellKey, Cell>): PointPreference {
  observations.sort((a, b) => a.timestamp.localeCompare(b.timestamp))
  const latest = observations[observations.length - 1] as Observation
  const options = optionsOf(observations)
  const rule = pointRule({ key: point, header: latest.header ?? undefined, question: latest.question }, policy)
  const staticDefault = (rule?.static_default === undefined ? undefined : matchInOtherWords(rule.static_default, options)) ?? (options[0] as string)
  // The change of preference a recommendation at the point finds, by the same test on the same
  // aggregate: without it, this answer could name the majority a recommendation has set aside.
  // `counted`: the aggregate of these observations, in this order, counted already.
  const cells = counted ?? aggregateObservations(observations, aggregationParams(policy)).cells
  const { changeTest } = selectEvidence(viewOf(cells), { asOf }, policy)
  const learned = changeTest === null ? observations : observations.filter((o) => o.timestamp >= changeTest.since)
  // Read as the latest question asks it: at a single-select one, a set chosen earlier at a
  // multi-select one is one choice shared by its options, as a recommendation reads it.
  const preference = learnPreference(learned, options, asOf, policy.decay.alpha, !latest.multi_select)
  const majority = majorityOption(preference, options, staticDefault) ?? null
  let confidence: PointPreference['confidence'] = null
  if (!latest.multi_select && majority !== null) {
    let value = singleSelectBelief(preference, options, policy.confidence.prior).probabilityOfMax(majority)
    // Weighed by how sure the change is, as a recommendation's is (see splitWeighed there).
    if (changeTest !== null) {
      const real = splitPosterior(changeTest.p_value)
      const whole = learnPreference(observations, options, asOf, policy.decay.alpha, !latest.multi_select)
      value = real * value + (1 - real) * singleSelectBelief(whole, options, policy.confidence.prior).probabilityOfMax(majority)
    }
    const method = changeTest === null ? SINGLE_SELECT_METHOD : SINGLE_SELECT_METHOD + SPLIT_WEIGHED_METHOD
    confidence = { value: round(value), level: confidenceLevel(value, policy), method }
  }
  return {
    point,
    question: latest.question,
    header: latest.header,
    multi_select: latest.multi_select,
    observations: learned.length,
    needed: Math.max(0, policy.thresholds.min_observations - learned.length),
    changed_since: changeTest?.since ?? null,
    majority,
    selection: latest.multi_select ? multiSelectBeliefs(preference, options, policy.confidence.prior).filter((b) => b.selected).map((b) => b.option) : null,
    share: majority === null ? 0 : round(shareOf(preference, majority)),
    confidence,
    options: options.map((option) => ({
      option,
      count: preference.counts.get(option) ?? 0,
      share: round(shareOf(preference, option)),
    })),
    // At a single-select reading, a set that held a text of its own beside options went whole to
    // them (its count shared by them): only the choices of no option are outside, so that the counts
    // and this add up to `observations`. At a multi-select point, each is a selection rate.
    other: latest.multi_select ? learned.filter((o) => o.other !== null).length : preference.elsewhereCount,
    projects: [...new Set(observations.flatMap((o) => (o.project === null ? [] : [o.project])))].sort(),
    first_observed: (observations[0] as Observation).timestamp,
    last_observed: latest.timestamp,
  }
}

/**
 * What has been learned about a user at each decision point, across projects, aged from `asOf`
 * (R-SVC-5): built from the same functions as a recommendation, never a second estimate.
 */
export function learnedPreferences(
  observations: Iterable<Observation>,
  asOf: Date,
  policy: CompiledPolicy,
): PointPreference[] {
  const byPoint = new Map<string, Observation[]>()
  const limit = asOf.toISOString()
  for (const o of observations) {
    if (o.source !== 'user' || o.timestamp > limit) continue
    const list = byPoint.get(o.point) ?? []
    list.push(o)
    byPoint.set(o.point, list)
  }
  return [...byPoint.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([point, list]) => learnPoint(point, list, asOf, policy))
}

/** Lets other work run: timers, I/O, the requests that came meanwhile. */
function turnOfTheEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** How many observations of one point are counted between turns of the event loop. */
const SLICE = 500

/**
 * aggregateObservations, with turns of the event loop every SLICE observations: the aggregate of
 * a point of 30,000 observations took 1.5 to 3 s, during which the service answered nothing else.
 */
async function aggregateInSlices(observations: readonly Observation[], policy: CompiledPolicy): Promise<Map<CellKey, Cell>> {
  const params = aggregationParams(policy)
  const aggregate = { summary: emptySummary(), cells: new Map<CellKey, Cell>() }
  for (let i = 0; i < observations.length; i++) {
    addToAggregate(aggregate, observations[i] as Observation, params)
    if ((i + 1) % SLICE === 0) await turnOfTheEventLoop()
  }
  return aggregate.cells
}

/**
 * learnedPreferences over observations read by point then time, as MemoryStore.observationsOf
 * yields them: one point's observations are held at a time, and other work runs between points,
 * and within a point every SLICE observations.
 * Learned all at once, a user with 100,000 observations over 2,000 points held them all (110 MB
 * more) and the service answered nothing else for 2.4 s.
 */
export async function learnedPreferencesByPoint(
  observations: AsyncIterable<Observation>,
  asOf: Date,
  policy: CompiledPolicy,
): Promise<PointPreference[]> {
  const limit = asOf.toISOString()
  const learned: PointPreference[] = []
  let point: string | undefined
  let run: Observation[] = []
  const learnRun = async () => {
    if (run.length === 0) return
    run.sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    learned.push(learnPoint(point as string, run, asOf, policy, await aggregateInSlices(run, policy)))
    run = []
    await turnOfTheEventLoop()
  }
  for await (const o of observations) {
    if (o.point !== point) {
      await learnRun()
      point = o.point
    }
    if (o.source !== 'user' || o.timestamp > limit) continue
    run.push(o)
  }
  await learnRun()
  return learned.sort((a, b) => (a.point < b.point ? -1 : a.point > b.point ? 1 : 0))
}
