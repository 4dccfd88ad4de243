import { aggregateObservations, aggregationParams, viewOf, type PointView } from '../../src/domain/aggregate'
import type { Observation } from '../../src/domain/observation'

let counter = 0

/** An observation as the store would hold it, with defaults for what a test does not care about. */
export function observation(partial: Partial<Observation> & { chosen: string[] }): Observation {
  counter++
  return {
    id: `obs-${counter}`,
    user: 'alice',
    project: null,
    session_id: null,
    point: 'tier',
    decision_id: null,
    timestamp: '2026-07-01T10:00:00.000Z',
    recorded_at: '2026-07-01T10:00:00.000Z',
    question: 'Which tier?',
    header: null,
    options: ['Tier S', 'Tier M', 'Tier L'],
    other: null,
    multi_select: false,
    context: {},
    source: 'user',
    ...partial,
  }
}

/** `count` observations of each choice, in the order given. */
export function observations(spec: Record<string, number>, partial: Partial<Observation> = {}): Observation[] {
  return Object.entries(spec).flatMap(([choice, count]) =>
    Array.from({ length: count }, () => observation({ ...partial, chosen: [choice] })),
  )
}

/** The aggregate a store would serve for these observations, aged as the policy says. */
export function pointView(
  observations: readonly Observation[],
  policy: { decay: { alpha: number }; context: { precondition_share: number } },
): PointView {
  return viewOf(aggregateObservations(observations, aggregationParams(policy)).cells)
}
