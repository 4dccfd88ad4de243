import { MemoryLevel } from 'memory-level'
import { fixedClock } from '../../src/clock'
import { createDecisionMemory } from '../../src/decision-memory'
import type { CompiledPolicy } from '../../src/domain/policy'
import { createLevelStore } from '../../src/memory/level-store'
import {
  BASELINES,
  lastChoicePrediction,
  majorityPrediction,
  oraclePrediction,
  staticDefaultPrediction,
  type Baseline,
  type PointHistory,
  type Prediction,
} from './baselines'
import { createRandom } from './random'
import { favourite, questionTime, thetaAt, type SimulatedUser, type UserType } from './users'

/** Every predictor of the evaluation: decision-memory first, then the baselines. */
export const PREDICTORS = ['decision-memory', ...BASELINES] as const
export type Predictor = 'decision-memory' | Baseline

/**
 * `open`: every choice is recorded as the user's, as if every question were asked (the stream
 * every predictor is scored on). `closed`: a question decision-memory auto-resolves is not asked,
 * so the service records its own answer (`source: auto-resolved`, which never counts as
 * evidence) and never learns what the user would have picked, as with the real hook (R-CAP-5).
 */
export type Loop = 'open' | 'closed'

/** One question put to a simulated user, what each predictor said before it, and what the user chose. */
export interface QuestionRecord {
  user: string
  type: UserType
  /** 1-based number of the session among the user's sessions. */
  session: number
  point: string
  /** Days since the start of the run. */
  day: number
  /** Days since the user's change of preference (negative before it); null for users without one. */
  sinceChange: number | null
  choice: string
  /** The user's most-preferred option at that moment, in that context (argmax θ). */
  favourite: string
  predictions: Record<Predictor, Prediction>
  /** decision-memory's confidence that its recommendation is the user's favourite (R-REC-3). */
  confidence: number
  /** decision-memory's state (R-REC-1). */
  state: string
  /** Whether the context backoff narrowed the evidence (R-REC-7), and whether a change of preference was found. */
  narrowed: boolean
  changed: boolean
}

/** The project every simulated question is asked in. */
const PROJECT = 'acme/api'
const DAY_MS = 86_400_000

/**
 * Puts every planned question of one user through decision-memory's real use cases, over its own
 * in-memory LevelDB and a clock moved to each question: recommend first, then record the choice.
 * The baselines predict from the user's every choice, in either loop: they know nothing of
 * auto-resolution.
 */
export async function simulateUser(
  user: SimulatedUser,
  options: { seed: number; policy: CompiledPolicy; start: Date; loop: Loop },
): Promise<QuestionRecord[]> {
  const { policy, loop } = options
  const store = await createLevelStore(new MemoryLevel<string, string>() as never, { sync: false, policy })
  const clock = fixedClock(options.start)
  let ids = 0
  const memory = createDecisionMemory({ store, policy, clock, newId: () => `${user.id}-${ids++}` })
  const random = createRandom(options.seed, user.choiceStream)
  const histories = new Map<string, string[]>()
  const thresholds = {
    N: policy.thresholds.min_observations,
    M: policy.thresholds.sufficient_observations,
    autoResolveP: policy.ask.auto_resolve_p,
  }
  const records: QuestionRecord[] = []
  try {
    for (const [s, session] of user.sessions.entries()) {
      const sessionId = `${user.id}-s${s + 1}`
      for (const [j, point] of session.points.entries()) {
        const at = questionTime(session, j)
        clock.set(new Date(at))
        const question = {
          user: user.id,
          project: PROJECT,
          session_id: sessionId,
          question: point.question,
          header: point.header,
          all_options: [...point.options],
          context: session.context,
        }
        const recommendation = await memory.recommend(question)
        const preference = user.preferences.get(point.key)
        if (preference === undefined)
          throw new Error(`${user.id} has no preference at ${point.key}`)
        const theta = thetaAt(preference, at, session.context)
        const choice = point.options[random.categorical(theta)] as string
        const recommended = recommendation.recommended as string
        const choices = histories.get(point.key) ?? []
        const history: PointHistory = {
          options: point.options,
          staticDefault: point.staticDefault,
          choices,
        }
        const predictions: QuestionRecord['predictions'] = {
          'decision-memory': {
            option: recommended,
            p: recommendation.p,
            autoResolve: !recommendation.ask,
          },
          'static default': staticDefaultPrediction(history),
          'last choice': lastChoicePrediction(history),
          'majority N/M': majorityPrediction(history, thresholds),
          oracle: oraclePrediction(point.options, theta),
        }
        records.push({
          user: user.id,
          type: user.type,
          session: s + 1,
          point: point.key,
          day: (at - options.start.getTime()) / DAY_MS,
          sinceChange: user.changeAt === null ? null : (at - user.changeAt) / DAY_MS,
          choice,
          favourite: point.options[favourite(theta)] as string,
          predictions,
          confidence: recommendation.confidence.value,
          state: recommendation.state,
          narrowed: recommendation.context_test !== null,
          changed: recommendation.change_test !== null,
        })
        const unasked = loop === 'closed' && !recommendation.ask
        await memory.observe([
          {
            ...question,
            decision_id: `${sessionId}-${point.key}`,
            user_choice: unasked ? recommended : choice,
            source: unasked ? 'auto-resolved' : 'user',
          },
        ])
        choices.push(choice)
        histories.set(point.key, choices)
      }
    }
  } finally {
    await store.close()
  }
  return records
}
