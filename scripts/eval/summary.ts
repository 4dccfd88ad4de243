import {
  accuracy,
  expectedCalibrationError,
  logLoss,
  reliabilityTable,
  type ProbabilityOutcome,
  type ReliabilityBin,
} from './metrics'
import type { Evaluation } from './evaluation'
import { PREDICTORS, type Predictor, type QuestionRecord } from './simulate'
import { USER_TYPES, type UserType } from './users'

/** How often questions were skipped, and how often the skipped answer was not what the user would have picked. */
export interface AutoResolution {
  questions: number
  autoResolved: number
  /** Auto-resolved share of the questions. */
  share: number
  /** Share of the auto-resolved questions where the user would have chosen otherwise. */
  wrong: number
}

/** The figures of one user type (or of every user, `all`). */
export interface GroupSummary {
  group: UserType | 'all'
  users: number
  questions: number
  accuracy: Record<Predictor, number>
  logLoss: Record<Predictor, number>
  /** ECE of decision-memory's confidence against "the recommendation is the user's favourite" (R-REC-3). */
  confidenceEce: number
  /** ECE of decision-memory's p against "the user picked the recommendation" (R-ASK-1). */
  pEce: number
  /** decision-memory in the open loop, in the closed loop, and the reference majority (open loop). */
  autoResolution: { open: AutoResolution; closed: AutoResolution; majority: AutoResolution }
  /** The same, counting only questions after the user's first 30 sessions. */
  afterSession30: { open: AutoResolution; closed: AutoResolution }
}

/** Accuracy of every predictor over one stretch of time. */
export interface TimeBucket {
  label: string
  /** The middle of the stretch, for plotting. */
  x: number
  questions: number
  accuracy: Record<Predictor, number>
}

export interface Summary {
  groups: GroupSummary[]
  reliability: { confidence: ReliabilityBin[]; p: ReliabilityBin[] }
  /** Accuracy by the user's session number. */
  bySession: TimeBucket[]
  /** Change-point users only: accuracy by days since their change of preference. */
  sinceChange: TimeBucket[]
}

const SESSION_BUCKETS: ReadonlyArray<readonly [number, number]> = [
  [1, 5],
  [6, 10],
  [11, 20],
  [21, 30],
  [31, 45],
  [46, 60],
  [61, 80],
  [81, 100],
  [101, 140],
  [141, 200],
]

/** 10-day stretches from 60 days before the change to 90 days after. */
const CHANGE_BUCKETS: ReadonlyArray<readonly [number, number]> = Array.from(
  { length: 15 },
  (_, i) => [-60 + i * 10, -50 + i * 10],
)

const MIN_BUCKET_QUESTIONS = 50

/** "The user picked what this predictor named", with the probability it gave. */
function picks(records: readonly QuestionRecord[], predictor: Predictor): ProbabilityOutcome[] {
  return records.map((r) => {
    const prediction = r.predictions[predictor]
    return { probability: prediction.p, happened: prediction.option === r.choice }
  })
}

/** "decision-memory's recommendation is the user's favourite", with its confidence. */
function favourites(records: readonly QuestionRecord[]): ProbabilityOutcome[] {
  return records.map((r) => ({
    probability: r.confidence,
    happened: r.predictions['decision-memory'].option === r.favourite,
  }))
}

function autoResolution(records: readonly QuestionRecord[], predictor: Predictor): AutoResolution {
  let autoResolved = 0
  let wrong = 0
  for (const r of records) {
    const prediction = r.predictions[predictor]
    if (!prediction.autoResolve) continue
    autoResolved++
    if (prediction.option !== r.choice) wrong++
  }
  return {
    questions: records.length,
    autoResolved,
    share: records.length === 0 ? Number.NaN : autoResolved / records.length,
    wrong: autoResolved === 0 ? Number.NaN : wrong / autoResolved,
  }
}

function byPredictor(f: (predictor: Predictor) => number): Record<Predictor, number> {
  return Object.fromEntries(PREDICTORS.map((p) => [p, f(p)])) as Record<Predictor, number>
}

/**
 * The figures of one group of users: accuracy, log loss and calibration from the `open` records,
 * auto-resolution from both loops. The sensitivity runs pass their closed-loop records as both.
 */
export function summarizeGroup(
  group: UserType | 'all',
  open: readonly QuestionRecord[],
  closed: readonly QuestionRecord[],
): GroupSummary {
  const late = (r: QuestionRecord) => r.session > 30
  return {
    group,
    users: new Set(open.map((r) => r.user)).size,
    questions: open.length,
    accuracy: byPredictor((p) => accuracy(picks(open, p))),
    logLoss: byPredictor((p) => logLoss(picks(open, p))),
    confidenceEce: expectedCalibrationError(favourites(open)),
    pEce: expectedCalibrationError(picks(open, 'decision-memory')),
    autoResolution: {
      open: autoResolution(open, 'decision-memory'),
      closed: autoResolution(closed, 'decision-memory'),
      majority: autoResolution(open, 'majority N/M'),
    },
    afterSession30: {
      open: autoResolution(open.filter(late), 'decision-memory'),
      closed: autoResolution(closed.filter(late), 'decision-memory'),
    },
  }
}

function timeBuckets(
  records: readonly QuestionRecord[],
  buckets: ReadonlyArray<readonly [number, number]>,
  position: (r: QuestionRecord) => number,
  label: (from: number, to: number) => string,
  inclusive: boolean,
): TimeBucket[] {
  const out: TimeBucket[] = []
  for (const [from, to] of buckets) {
    const inside = records.filter((r) => {
      const x = position(r)
      return x >= from && (inclusive ? x <= to : x < to)
    })
    if (inside.length < MIN_BUCKET_QUESTIONS) continue
    out.push({
      label: label(from, to),
      x: (from + to) / 2,
      questions: inside.length,
      accuracy: byPredictor((p) => accuracy(picks(inside, p))),
    })
  }
  return out
}

/** The figures of one user type, or of every user (`all`). */
export function groupOf(
  summary: Pick<Summary, 'groups'>,
  name: GroupSummary['group'],
): GroupSummary {
  const found = summary.groups.find((g) => g.group === name)
  if (found === undefined) throw new Error(`no figures for ${name}`)
  return found
}

/** Every figure of the report, from the records of an evaluation. */
export function summarize(evaluation: Evaluation): Summary {
  const groups: GroupSummary[] = USER_TYPES.map((type) =>
    summarizeGroup(
      type,
      evaluation.open.filter((r) => r.type === type),
      evaluation.closed.filter((r) => r.type === type),
    ),
  )
  groups.push(summarizeGroup('all', evaluation.open, evaluation.closed))
  const changePoint = evaluation.open.filter((r) => r.sinceChange !== null)
  return {
    groups,
    reliability: {
      confidence: reliabilityTable(favourites(evaluation.open)),
      p: reliabilityTable(picks(evaluation.open, 'decision-memory')),
    },
    bySession: timeBuckets(
      evaluation.open,
      SESSION_BUCKETS,
      (r) => r.session,
      (from, to) => `${from}–${to}`,
      true,
    ),
    sinceChange: timeBuckets(
      changePoint,
      CHANGE_BUCKETS,
      (r) => r.sinceChange as number,
      (from, to) => `${from} to ${to}`,
      false,
    ),
  }
}
