// What the benchmark stores and asks: users who answer the four decision points of the default
// policy over a span of days, in sessions of a few questions, mostly picking their own favourite.
import type { ObservationInput } from '../../src/domain/observation'
import { seededRandom } from '../../test/support/crash-cycles'

const DAY_MS = 86_400_000

/** The decision points asked, recognised by the default policy's header rules. */
export const POINTS = [
  { header: 'Tier', question: 'Which complexity tier should this SPEC use?', options: ['Tier S', 'Tier M', 'Tier L'] },
  { header: 'Methodology', question: 'Which development methodology: TDD or DDD?', options: ['TDD', 'DDD', 'Other'] },
  { header: 'Model', question: 'Which model should run this task?', options: ['Haiku', 'Sonnet', 'Opus'] },
  { header: 'Effort', question: 'Which effort level?', options: ['Low', 'Medium', 'High'] },
] as const

const PHASES = ['plan', 'run', 'sync'] as const

/** Questions per session. */
export const SESSION_LENGTH = 5

export function userName(u: number): string {
  return `user-${String(u).padStart(5, '0')}`
}

export function projectOf(u: number, i: number): string {
  return `acme/repo-${u % 50}-${i % 2 === 0 ? 'api' : 'web'}`
}

export function sessionName(user: string, s: number): string {
  return `${user}-s${s}`
}

/**
 * The history of one user: `count` observations spread evenly over the `spanDays` before `now`,
 * oldest first, in sessions of SESSION_LENGTH; each point is answered with the user's favourite
 * 70% of the time, in the user's usual phase 80% of the time.
 */
export function historyOf(user: string, u: number, count: number, now: Date, spanDays: number, points: number = POINTS.length): ObservationInput[] {
  const random = seededRandom(u + 1)
  const favourite = Array.from({ length: POINTS.length }, () => Math.floor(random() * 3))
  const usualPhase = Math.floor(random() * PHASES.length)
  const out: ObservationInput[] = []
  const start = now.getTime() - spanDays * DAY_MS
  for (let i = 0; i < count; i++) {
    const p = i % points
    const point = POINTS[p] as (typeof POINTS)[number]
    const s = Math.floor(i / SESSION_LENGTH)
    const pick = random() < 0.7 ? (favourite[p] as number) : Math.floor(random() * 3)
    const phase = PHASES[random() < 0.8 ? usualPhase : Math.floor(random() * PHASES.length)] as string
    out.push({
      decision_id: `${user}-${i}`,
      timestamp: new Date(start + Math.floor(((i + 1) / count) * spanDays * DAY_MS) - 1000).toISOString(),
      question: point.question,
      header: point.header,
      all_options: [...point.options],
      user_choice: point.options[pick] as string,
      context: { phase, workflow: `/moai ${phase}`, spec_id: `SPEC-${u}-${s}` },
      user,
      project: projectOf(u, s),
      session_id: sessionName(user, s),
      source: 'user',
    })
  }
  return out
}

/** The body of a recommendation request at one of the points, in the user's last session. */
export function recommendationBody(user: string, u: number, p: number, sessions: number): Record<string, unknown> {
  const point = POINTS[p % POINTS.length] as (typeof POINTS)[number]
  const s = Math.max(0, sessions - 1)
  return {
    user,
    project: projectOf(u, s),
    session_id: sessionName(user, s),
    question: point.question,
    header: point.header,
    all_options: [...point.options],
    context: { phase: 'run', workflow: '/moai run', spec_id: `SPEC-${u}-next` },
  }
}

/** The body of an observation at one of the points, in the user's last session; `n` makes its decision_id unique. */
export function observationBody(user: string, u: number, p: number, sessions: number, n: number, run: string): Record<string, unknown> {
  const point = POINTS[p % POINTS.length] as (typeof POINTS)[number]
  return {
    ...recommendationBody(user, u, p, sessions),
    user_choice: point.options[n % point.options.length],
    decision_id: `bench-${run}-${n}`,
  }
}
