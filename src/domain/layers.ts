import type { Observation } from './observation'
import { learnPreference, majorityOption, shareOf } from './preference'

/** One layer of memory as reported (R-MEM-5). */
export interface Layer {
  observations: number
  majority: string | null
  share: number
  counts: Array<{ option: string; count: number; share: number }>
}

export interface Layers {
  /** This session's choices at the point. */
  session: Layer
  /** The last 3 sessions (of the project, when one is asked) that chose at the point. */
  recent: Layer & { sessions: string[] }
  /** Every session, decay-weighted. */
  long_term: Layer
  /** The recent majority differs from the long-term one: perhaps a change of preference. */
  change_suspected: boolean
}

export const RECENT_SESSIONS = 3

function layerOf(
  observations: readonly Observation[],
  options: readonly string[],
  asOf: Date,
  alpha: number,
  staticDefault: string,
): Layer {
  const preference = learnPreference(observations, options, asOf, alpha)
  const majority = majorityOption(preference, options, staticDefault) ?? null
  return {
    observations: observations.length,
    majority,
    share: majority === null ? 0 : Math.round(shareOf(preference, majority) * 10_000) / 10_000,
    counts: options.map((option) => ({
      option,
      count: preference.counts.get(option) ?? 0,
      share: Math.round(shareOf(preference, option) * 10_000) / 10_000,
    })),
  }
}

/** The three layers of R-MEM-5 over the observations of the request's scope. */
export function layersOf(input: {
  observations: readonly Observation[]
  options: readonly string[]
  sessionId: string | undefined
  asOf: Date
  alpha: number
  staticDefault: string
}): Layers {
  const { observations, options, asOf, alpha, staticDefault } = input
  const lastSeen = new Map<string, string>()
  for (const o of observations) {
    if (o.session_id === null) continue
    const seen = lastSeen.get(o.session_id)
    if (seen === undefined || o.timestamp > seen) lastSeen.set(o.session_id, o.timestamp)
  }
  const recentSessions = [...lastSeen.entries()]
    .sort((a, b) => b[1].localeCompare(a[1]))
    .slice(0, RECENT_SESSIONS)
    .map(([id]) => id)
  const recentSet = new Set(recentSessions)
  const session = layerOf(
    input.sessionId === undefined ? [] : observations.filter((o) => o.session_id === input.sessionId),
    options,
    asOf,
    alpha,
    staticDefault,
  )
  const recent = layerOf(
    observations.filter((o) => o.session_id !== null && recentSet.has(o.session_id)),
    options,
    asOf,
    alpha,
    staticDefault,
  )
  const longTerm = layerOf(observations, options, asOf, alpha, staticDefault)
  return {
    session,
    recent: { ...recent, sessions: recentSessions },
    long_term: longTerm,
    change_suspected:
      recent.majority !== null && longTerm.majority !== null && recent.majority !== longTerm.majority,
  }
}
