import { createRandom, type Random } from './random'

/** The kinds of simulated user, each a way real choices behave. */
export const USER_TYPES = [
  'stationary',
  'habitual',
  'change-point',
  'context-dependent',
  'noisy',
  'sparse',
] as const
export type UserType = (typeof USER_TYPES)[number]

/** What each kind of user is, as the report says it. */
export const USER_TYPE_DESCRIPTIONS: Record<UserType, string> = {
  stationary: 'choice probabilities θ ~ Dirichlet(1, …, 1) per point, fixed for the whole run',
  habitual:
    'one option chosen with probability θ ≥ 0.97 (1 − U(0, 0.03)); the rest share the remainder by Dirichlet(1, …, 1)',
  'change-point':
    'θ ~ Dirichlet(0.5, …, 0.5) per point, replaced once, between 30% and 70% of the run, by another draw with a different favourite',
  'context-dependent':
    'one θ ~ Dirichlet(0.5, …, 0.5) per value of one context key (phase for half the users, workflow for the other half), with at least two different favourites',
  noisy: 'θ ~ Dirichlet(3, …, 3): weak preferences, close to uniform',
  sparse: 'θ ~ Dirichlet(1, …, 1), but only 3 to 12 sessions in the whole run',
}

/** A decision point the simulated users are asked at, as an agent would ask it (keyed by the default policy). */
export interface SimulatedPoint {
  key: string
  question: string
  header: string
  options: readonly string[]
  /** The default policy's static default for the point. */
  staticDefault: string
}

/** The four points the default policy names (R-POL), with 2, 3 and 4 options. */
export const SIMULATED_POINTS: readonly SimulatedPoint[] = [
  {
    key: 'complexity-tier',
    question: 'Which complexity tier should this SPEC use?',
    header: 'Tier',
    options: ['Tier S', 'Tier M', 'Tier L'],
    staticDefault: 'Tier M',
  },
  {
    key: 'development-methodology',
    question: 'Which development methodology for this change?',
    header: 'Method',
    options: ['TDD', 'DDD'],
    staticDefault: 'TDD',
  },
  {
    key: 'model-selection',
    question: 'Which model should run this task?',
    header: 'Model',
    options: ['Haiku', 'Sonnet', 'Opus'],
    staticDefault: 'Sonnet',
  },
  {
    key: 'effort-level',
    question: 'Which effort level for this task?',
    header: 'Effort',
    options: ['Low', 'Medium', 'High', 'Max'],
    staticDefault: 'Medium',
  },
]

/** The context of a session: the phase of the work and the kind of change. */
export const CONTEXT_VALUES = {
  phase: ['plan', 'run', 'sync'],
  workflow: ['feature', 'bugfix', 'refactor'],
} as const
export type ContextKey = keyof typeof CONTEXT_VALUES
export type SessionContext = Record<ContextKey, string>

/** The hidden truth of one user at one point: the choice probabilities θ over its options. */
export type HiddenPreference =
  | { kind: 'fixed'; theta: number[] }
  | { kind: 'change'; before: number[]; after: number[]; at: number }
  | { kind: 'context'; key: ContextKey; byValue: Record<string, number[]> }

/** The θ in force at time `at` (ms since epoch) in a context. */
export function thetaAt(
  preference: HiddenPreference,
  at: number,
  context: SessionContext,
): number[] {
  switch (preference.kind) {
    case 'fixed':
      return preference.theta
    case 'change':
      return at < preference.at ? preference.before : preference.after
    case 'context':
      return preference.byValue[context[preference.key]] as number[]
  }
}

/** Index of the largest probability: the user's most-preferred option. */
export function favourite(theta: readonly number[]): number {
  let best = 0
  for (let i = 1; i < theta.length; i++)
    if ((theta[i] as number) > (theta[best] as number)) best = i
  return best
}

/** One planned session: when it starts, its context, and the points asked in it (in order). */
export interface PlannedSession {
  start: number
  context: SessionContext
  points: readonly SimulatedPoint[]
}

export interface SimulatedUser {
  id: string
  type: UserType
  preferences: ReadonlyMap<string, HiddenPreference>
  sessions: readonly PlannedSession[]
  /** When the preferences change (change-point users). */
  changeAt: number | null
  /** The seed of the stream the user's choices are drawn from. */
  choiceStream: number
}

/** How the population is drawn. */
export interface PopulationOptions {
  seed: number
  usersPerType: number
  start: Date
  horizonDays: number
  /** Sessions a day of a regular user, drawn uniformly in this range. */
  sessionRate: readonly [number, number]
  /** Probability that a point is asked in a session. */
  askProbability: number
}

const DAY_MS = 86_400_000
/** Minutes between two questions of one session. */
const QUESTION_GAP_MS = 2 * 60_000

/** θ ~ Dirichlet(c, …, c) over k options: c < 1 favours one option, c > 1 evens them out. */
function symmetricTheta(random: Random, k: number, concentration: number): number[] {
  return random.dirichlet(Array.from({ length: k }, () => concentration))
}

function habitualTheta(random: Random, k: number): number[] {
  const top = random.int(k)
  const rest = 1 - random.uniform(0.97, 1)
  const spread = random.dirichlet(Array.from({ length: k - 1 }, () => 1))
  const theta: number[] = []
  let j = 0
  for (let i = 0; i < k; i++) theta.push(i === top ? 1 - rest : rest * (spread[j++] as number))
  return theta
}

/** Draws from `draw` until the favourite differs from `other`'s. */
function differentFavourite(draw: () => number[], other: readonly number[]): number[] {
  for (;;) {
    const theta = draw()
    if (favourite(theta) !== favourite(other)) return theta
  }
}

function hiddenPreference(
  type: UserType,
  random: Random,
  point: SimulatedPoint,
  extra: { changeAt: number | null; contextKey: ContextKey },
): HiddenPreference {
  const k = point.options.length
  switch (type) {
    case 'stationary':
    case 'sparse':
      return { kind: 'fixed', theta: symmetricTheta(random, k, 1) }
    case 'noisy':
      return { kind: 'fixed', theta: symmetricTheta(random, k, 3) }
    case 'habitual':
      return { kind: 'fixed', theta: habitualTheta(random, k) }
    case 'change-point': {
      const before = symmetricTheta(random, k, 0.5)
      const after = differentFavourite(() => symmetricTheta(random, k, 0.5), before)
      return { kind: 'change', before, after, at: extra.changeAt as number }
    }
    case 'context-dependent': {
      const values = CONTEXT_VALUES[extra.contextKey]
      for (;;) {
        const byValue: Record<string, number[]> = {}
        for (const value of values) byValue[value] = symmetricTheta(random, k, 0.5)
        const favourites = new Set(Object.values(byValue).map(favourite))
        if (favourites.size >= 2) return { kind: 'context', key: extra.contextKey, byValue }
      }
    }
  }
}

function sessionStarts(type: UserType, random: Random, options: PopulationOptions): number[] {
  const start = options.start.getTime()
  const end = start + options.horizonDays * DAY_MS
  const starts: number[] = []
  if (type === 'sparse') {
    const count = 3 + random.int(10)
    for (let i = 0; i < count; i++) starts.push(start + random.next() * (end - start))
    starts.sort((x, y) => x - y)
  } else {
    // A Poisson process of sessions at the user's own rate.
    const rate = random.uniform(options.sessionRate[0], options.sessionRate[1])
    for (
      let t = start + random.exponential(rate) * DAY_MS;
      t < end;
      t += random.exponential(rate) * DAY_MS
    ) {
      starts.push(t)
    }
  }
  // Sessions do not overlap: one starts after the last question of the one before.
  const spaced: number[] = []
  for (const t of starts) {
    const previous = spaced[spaced.length - 1]
    const earliest =
      previous === undefined
        ? -Infinity
        : previous + (SIMULATED_POINTS.length + 1) * QUESTION_GAP_MS
    spaced.push(Math.round(Math.max(t, earliest)))
  }
  return spaced
}

/** The time of the `i`-th question of a session. */
export function questionTime(session: PlannedSession, i: number): number {
  return session.start + i * QUESTION_GAP_MS
}

/**
 * The simulated population: `usersPerType` users of each type, each on its own random stream of
 * `seed`, with hidden preferences, sessions over the horizon, and the points asked in each.
 */
export function generateUsers(options: PopulationOptions): SimulatedUser[] {
  const users: SimulatedUser[] = []
  USER_TYPES.forEach((type, t) => {
    for (let i = 0; i < options.usersPerType; i++) {
      const stream = t * 100_000 + i
      const random = createRandom(options.seed, stream * 2)
      const horizon = options.horizonDays * DAY_MS
      const changeAt =
        type === 'change-point'
          ? Math.round(options.start.getTime() + random.uniform(0.3, 0.7) * horizon)
          : null
      const contextKey: ContextKey = i % 2 === 0 ? 'phase' : 'workflow'
      const preferences = new Map<string, HiddenPreference>()
      for (const point of SIMULATED_POINTS) {
        preferences.set(point.key, hiddenPreference(type, random, point, { changeAt, contextKey }))
      }
      const sessions = sessionStarts(type, random, options).map((start) => {
        let points = SIMULATED_POINTS.filter(() => random.next() < options.askProbability)
        if (points.length === 0) points = [random.pick(SIMULATED_POINTS)]
        return {
          start,
          context: {
            phase: random.pick(CONTEXT_VALUES.phase),
            workflow: random.pick(CONTEXT_VALUES.workflow),
          },
          points,
        }
      })
      users.push({
        id: `${type}-${String(i + 1).padStart(3, '0')}`,
        type,
        preferences,
        sessions,
        changeAt,
        choiceStream: stream * 2 + 1,
      })
    }
  })
  return users
}
