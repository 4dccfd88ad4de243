import type { Context, Observation } from './observation'
import type { Policy } from './policy'
import { chiSquaredIndependence } from './statistics'

/** Which of the user's observations at a point speak for this request, and why. */
export interface EvidenceSelection {
  observations: Observation[]
  /** `project`: this project's own; `all-projects`: backed off across projects (R-MEM-6); `user`: no project asked. */
  scope: 'project' | 'all-projects' | 'user'
  /** The context key the evidence was narrowed to (R-REC-7), if any. */
  contextKey: string | null
  /** The test behind the narrowing, for the record. */
  contextTest: { key: string; value: string; matching: number; others: number; p_value: number } | null
  /** The test that found recent choices differ from older ones (a change of preference), if it did. */
  changeTest: { since: string; recent: number; older: number; p_value: number } | null
  /** Every observation of the scope, before any narrowing by context. */
  scoped: Observation[]
}

/** A context value as compared: scalars by their string form. */
export function contextText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  return String(value)
}

/** The choice category an observation counts in, for tests of difference. */
function categoryOf(observation: Observation): string {
  return observation.chosen.length === 0 ? '\u0000other' : [...observation.chosen].sort().join('\u0000')
}

function counts(observations: readonly Observation[], categories: readonly string[]): number[] {
  const index = new Map(categories.map((c, i) => [c, i]))
  const out = categories.map(() => 0)
  for (const o of observations) {
    const i = index.get(categoryOf(o)) as number
    out[i] = (out[i] as number) + 1
  }
  return out
}

const DAY_MS = 86_400_000

/**
 * Chooses the evidence for a request: the project's own observations, backed off to the user's
 * across projects when the project has fewer than N (R-MEM-6); then, when the last
 * `change.window_days` before `asOf` hold at least N of them and their choices differ from the
 * older ones beyond chance, only the recent ones (a change of preference); then, when at least N
 * share the request's value for a context key and their choices differ from the rest beyond chance
 * (chi-squared tests of independence; the context level is Bonferroni-divided by the number of
 * keys tested), only those (R-REC-7). When several keys qualify, the smallest p-value wins.
 */
export function selectEvidence(
  observations: readonly Observation[],
  request: { project?: string | undefined; context?: Context | undefined; asOf?: Date | undefined },
  policy: Policy,
): EvidenceSelection {
  const n = policy.thresholds.min_observations
  let scoped: Observation[] = [...observations]
  let scope: EvidenceSelection['scope'] = 'user'
  if (request.project !== undefined) {
    const own = observations.filter((o) => o.project === request.project)
    if (own.length >= n || own.length === observations.length) {
      scoped = own
      scope = 'project'
    } else {
      scope = 'all-projects'
    }
  }

  const categories = [...new Set(scoped.map(categoryOf))]
  const change =
    request.asOf === undefined ? null : changeOfPreference(scoped, request.asOf, categories, policy)
  const current = change?.recent ?? scoped

  let best: EvidenceSelection['contextTest'] = null
  let bestMatching: Observation[] = []
  type Tested = { test: NonNullable<EvidenceSelection['contextTest']>; matching: Observation[] }
  const tested: Tested[] = []
  for (const [key, raw] of Object.entries(request.context ?? {})) {
    const value = contextText(raw)
    if (value === undefined) continue
    const matching: Observation[] = []
    const others: Observation[] = []
    for (const o of current) {
      if (contextText(o.context[key]) === value) matching.push(o)
      else others.push(o)
    }
    if (matching.length < n || others.length === 0) continue
    const test = chiSquaredIndependence([counts(matching, categories), counts(others, categories)])
    const record = { key, value, matching: matching.length, others: others.length, p_value: test.pValue }
    tested.push({ test: record, matching })
  }
  // Each key tested is one more chance of a split for nothing (Bonferroni 1936).
  const level = policy.context.significance / Math.max(1, tested.length)
  for (const { test, matching } of tested) {
    if (test.p_value >= level) continue
    if (best === null || test.p_value < best.p_value) {
      best = test
      bestMatching = matching
    }
  }
  return {
    observations: best === null ? current : bestMatching,
    scope,
    contextKey: best?.key ?? null,
    contextTest: best,
    changeTest: change?.test ?? null,
    scoped,
  }
}

/**
 * The recent observations, when they differ from the older ones beyond chance: a chi-squared
 * test of independence between the choices of the last `change.window_days` (at least N of them)
 * and the choices before, at `change.significance`. Power-law decay alone lets a long history
 * outvote a new preference for weeks; this lets the new one speak as soon as it is clear.
 */
function changeOfPreference(
  scoped: readonly Observation[],
  asOf: Date,
  categories: readonly string[],
  policy: Policy,
): { recent: Observation[]; test: NonNullable<EvidenceSelection['changeTest']> } | null {
  const since = new Date(asOf.getTime() - policy.change.window_days * DAY_MS).toISOString()
  const recent: Observation[] = []
  const older: Observation[] = []
  for (const o of scoped) (o.timestamp >= since ? recent : older).push(o)
  if (recent.length < policy.thresholds.min_observations || older.length === 0) return null
  const test = chiSquaredIndependence([counts(recent, categories), counts(older, categories)])
  if (test.pValue >= policy.change.significance) return null
  return {
    recent,
    test: { since, recent: recent.length, older: older.length, p_value: test.pValue },
  }
}

/** The conditions a recommendation holds under (R-REC-5). */
export interface Conditions {
  /** Context values shared by at least the policy's share of the supporting observations. */
  context: Array<{ key: string; value: string; share: number }>
  /** The time window the supporting observations span. */
  window: { from: string; to: string } | null
}

/** The context values shared by most supporting observations, and the window they span. */
export function conditionsOf(supporting: readonly Observation[], policy: Policy): Conditions {
  if (supporting.length === 0) return { context: [], window: null }
  const tallies = new Map<string, Map<string, number>>()
  let from = Infinity
  let to = -Infinity
  for (const o of supporting) {
    const at = Date.parse(o.timestamp)
    from = Math.min(from, at)
    to = Math.max(to, at)
    for (const [key, raw] of Object.entries(o.context)) {
      const value = contextText(raw)
      if (value === undefined) continue
      const byValue = tallies.get(key) ?? new Map<string, number>()
      byValue.set(value, (byValue.get(value) ?? 0) + 1)
      tallies.set(key, byValue)
    }
  }
  const context: Conditions['context'] = []
  for (const [key, byValue] of tallies) {
    for (const [value, count] of byValue) {
      const share = count / supporting.length
      if (share >= policy.context.precondition_share) context.push({ key, value, share })
    }
  }
  return {
    context,
    window: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
  }
}

/** The precondition as a sentence: `phase is run and workflow is /moai run`, or the window it rests on. */
export function describeConditions(conditions: Conditions, keyFirst: string | null): string {
  const ordered = [...conditions.context].sort((a, b) =>
    a.key === keyFirst ? -1 : b.key === keyFirst ? 1 : 0,
  )
  if (ordered.length > 0) return ordered.map((c) => `${c.key} is ${c.value}`).join(' and ')
  const window = conditions.window
  if (window === null) return 'any context'
  const from = window.from.slice(0, 10)
  const to = window.to.slice(0, 10)
  return from === to ? `any context, as chosen on ${from}` : `any context, as chosen from ${from} to ${to}`
}

/** Context keys of the request that contradict the conditions. */
export function contradictions(
  conditions: Conditions,
  context: Context | undefined,
): Array<{ key: string; expected: string; got: string }> {
  const out: Array<{ key: string; expected: string; got: string }> = []
  for (const c of conditions.context) {
    const got = contextText(context?.[c.key])
    if (got !== undefined && got !== c.value) out.push({ key: c.key, expected: c.value, got })
  }
  return out
}
