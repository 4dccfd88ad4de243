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
  /** Every observation of the scope, before any narrowing by context. */
  scoped: Observation[]
}

/** A context value as compared: scalars by their string form. */
export function contextText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  return String(value)
}

/**
 * The value a context holds for a key, its own only: `constructor` or `__proto__` are ordinary
 * keys, never what the object inherits.
 */
export function contextValue(context: Context | undefined, key: string): string | undefined {
  return context !== undefined && Object.hasOwn(context, key) ? contextText(context[key]) : undefined
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

/**
 * Chooses the evidence for a request: the project's own observations, backed off to the user's
 * across projects when the project has fewer than N (R-MEM-6); then, when at least N of them share
 * the request's value for a context key and their choices differ from the rest beyond chance
 * (chi-squared test of independence at the policy's significance), only those (R-REC-7). When
 * several keys qualify, the one with the smallest p-value wins.
 */
export function selectEvidence(
  observations: readonly Observation[],
  request: { project?: string | undefined; context?: Context | undefined },
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

  let best: EvidenceSelection['contextTest'] = null
  let bestMatching: Observation[] = []
  const categories = [...new Set(scoped.map(categoryOf))]
  for (const [key, raw] of Object.entries(request.context ?? {})) {
    const value = contextText(raw)
    if (value === undefined) continue
    const matching: Observation[] = []
    const others: Observation[] = []
    for (const o of scoped) {
      if (contextValue(o.context, key) === value) matching.push(o)
      else others.push(o)
    }
    if (matching.length < n || others.length === 0) continue
    const test = chiSquaredIndependence([counts(matching, categories), counts(others, categories)])
    if (test.pValue >= policy.context.significance) continue
    if (best === null || test.pValue < best.p_value) {
      best = { key, value, matching: matching.length, others: others.length, p_value: test.pValue }
      bestMatching = matching
    }
  }
  return {
    observations: best === null ? scoped : bestMatching,
    scope,
    contextKey: best?.key ?? null,
    contextTest: best,
    scoped,
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
    const got = contextValue(context, c.key)
    if (got !== undefined && got !== c.value) out.push({ key: c.key, expected: c.value, got })
  }
  return out
}
