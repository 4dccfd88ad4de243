import type { Policy } from '../../src/domain/policy'
import { lineChart, reliabilityDiagram } from './charts'
import { fixed, percent, points } from './format'
import type { ReliabilityBin } from './metrics'
import type { SensitivityRow } from './sensitivity'
import { PREDICTORS, type Predictor } from './simulate'
import {
  groupOf,
  type AutoResolution,
  type GroupSummary,
  type Summary,
  type TimeBucket,
} from './summary'
import {
  USER_TYPE_DESCRIPTIONS,
  USER_TYPES,
  SIMULATED_POINTS,
  type PopulationOptions,
} from './users'

/** The image files the report links to, by name. */
export const IMAGES = {
  reliability: 'reliability.svg',
  reliabilityP: 'reliability-p.svg',
  accuracyOverTime: 'accuracy-over-time.svg',
  changePoint: 'change-point.svg',
} as const

/** One target of the issue, the figure that answers it, and whether it is met. */
export interface TargetResult {
  target: string
  figure: string
  met: boolean
}

/** Everything the report is written from. */
export interface ReportInput {
  summary: Summary
  population: PopulationOptions
  policy: Policy
  /** Each tuned default against its alternatives, on a smaller population of the same seed. */
  sensitivity: { usersPerType: number; rows: readonly SensitivityRow[] }
  /** The rationale of each policy default, from the tuning (markdown list items). */
  rationale: readonly string[]
}

/** A markdown table; the first `textColumns` columns are left-aligned, the (numeric) rest right-aligned. */
function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  textColumns = 1,
): string {
  const align = header.map((_, i) => (i < textColumns ? '---' : '---:'))
  return [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n')
}

/** The targets of issue 3, each with its figure and verdict. */
export function targets(summary: Summary): TargetResult[] {
  const all = groupOf(summary, 'all')
  const habitual = groupOf(summary, 'habitual')
  const gain = (name: GroupSummary['group']) => {
    const g = groupOf(summary, name)
    return g.accuracy['decision-memory'] - g.accuracy['majority N/M']
  }
  const autoWrong = (a: AutoResolution, label: string): TargetResult => ({
    target: `Auto-resolved questions wrong at most 5% of the time (${label})`,
    figure: `${percent(a.wrong)} of ${a.autoResolved} auto-resolved`,
    met: a.autoResolved > 0 && a.wrong <= 0.05,
  })
  const habitualShare = (a: AutoResolution, label: string): TargetResult => ({
    target: `At least 80% of habitual users’ questions auto-resolved after their first 30 sessions (${label})`,
    figure: `${percent(a.share)} of ${a.questions}`,
    met: a.share >= 0.8,
  })
  const stationary = gain('stationary')
  return [
    {
      target: 'Expected calibration error of the confidence at most 0.05 overall (R-REC-3)',
      figure: `ECE ${fixed(all.confidenceEce)}`,
      met: all.confidenceEce <= 0.05,
    },
    {
      target: 'Expected calibration error of p at most 0.05 overall (R-ASK-1)',
      figure: `ECE ${fixed(all.pEce)}`,
      met: all.pEce <= 0.05,
    },
    autoWrong(all.autoResolution.open, 'open loop'),
    autoWrong(all.autoResolution.closed, 'closed loop'),
    habitualShare(habitual.afterSession30.open, 'open loop'),
    habitualShare(habitual.afterSession30.closed, 'closed loop'),
    {
      target: 'Accuracy at least the unweighted majority’s on stationary users',
      figure: `${fixed(groupOf(summary, 'stationary').accuracy['decision-memory'])} against ${fixed(groupOf(summary, 'stationary').accuracy['majority N/M'])} (${points(stationary)} points)`,
      met: stationary >= 0,
    },
    ...(['change-point', 'context-dependent'] as const).map((name) => ({
      target: `Accuracy at least 5 points above the unweighted majority on ${name} users`,
      figure: `${fixed(groupOf(summary, name).accuracy['decision-memory'])} against ${fixed(groupOf(summary, name).accuracy['majority N/M'])} (${points(gain(name))} points)`,
      met: gain(name) >= 0.05,
    })),
  ]
}

function accuracyTable(summary: Summary): string {
  return table(
    ['user type', 'questions', ...PREDICTORS, 'DM − majority', 'oracle − DM'],
    summary.groups.map((g) => [
      g.group,
      String(g.questions),
      ...PREDICTORS.map((p) => fixed(g.accuracy[p])),
      points(g.accuracy['decision-memory'] - g.accuracy['majority N/M']),
      points(g.accuracy.oracle - g.accuracy['decision-memory']),
    ]),
  )
}

function logLossTable(summary: Summary): string {
  return table(
    ['user type', ...PREDICTORS],
    summary.groups.map((g) => [g.group, ...PREDICTORS.map((p) => fixed(g.logLoss[p]))]),
  )
}

function calibrationTable(summary: Summary): string {
  return table(
    ['user type', 'ECE of confidence', 'ECE of p'],
    summary.groups.map((g) => [g.group, fixed(g.confidenceEce), fixed(g.pEce)]),
  )
}

function reliabilityRows(bins: readonly ReliabilityBin[]): string {
  return table(
    ['stated', 'predictions', 'mean stated', 'observed', 'gap'],
    bins.map((b) => [
      `${b.from.toFixed(1)}–${b.to.toFixed(1)}`,
      String(b.count),
      fixed(b.meanProbability),
      fixed(b.observed),
      b.count === 0 ? '—' : points(b.observed - b.meanProbability),
    ]),
  )
}

function autoCell(a: AutoResolution): string {
  return a.autoResolved === 0 ? '0%' : `${percent(a.share)} (${percent(a.wrong)} wrong)`
}

function questionsSavedTable(summary: Summary): string {
  return table(
    [
      'user type',
      'open loop',
      'closed loop',
      'after session 30, open',
      'after session 30, closed',
      'majority N/M rule',
    ],
    summary.groups.map((g) => [
      g.group,
      autoCell(g.autoResolution.open),
      autoCell(g.autoResolution.closed),
      autoCell(g.afterSession30.open),
      autoCell(g.afterSession30.closed),
      autoCell(g.autoResolution.majority),
    ]),
  )
}

function sensitivityTable(rows: readonly SensitivityRow[]): string {
  return table(
    [
      'policy',
      'accuracy',
      'stationary − majority',
      'change-point accuracy',
      'ECE of confidence',
      'ECE of p',
      'auto-resolved wrong',
      'habitual auto-resolved after session 30',
    ],
    rows.map((r) => [
      r.variant,
      fixed(r.accuracy),
      points(r.stationaryGain),
      fixed(r.changePointAccuracy),
      fixed(r.confidenceEce),
      fixed(r.pEce),
      percent(r.closedWrong),
      percent(r.habitualClosedAfter30),
    ]),
  )
}

function timeTable(buckets: readonly TimeBucket[], first: string): string {
  return table(
    [first, 'questions', ...PREDICTORS],
    buckets.map((b) => [
      b.label,
      String(b.questions),
      ...PREDICTORS.map((p) => fixed(b.accuracy[p])),
    ]),
  )
}

function series(buckets: readonly TimeBucket[], x: (b: TimeBucket, i: number) => number) {
  return PREDICTORS.map((p: Predictor) => ({
    name: p,
    points: buckets.map((b, i) => [x(b, i), b.accuracy[p]] as const),
    dashed: p === 'oracle',
  }))
}

/** The SVG images of the report, by file name. */
export function renderImages(summary: Summary): Record<string, string> {
  const { bySession, sinceChange } = summary
  return {
    [IMAGES.reliability]: reliabilityDiagram({
      title: 'Is the recommendation the user’s favourite?',
      xLabel: 'confidence (R-REC-3)',
      yLabel: 'share that was the favourite',
      bins: summary.reliability.confidence,
    }),
    [IMAGES.reliabilityP]: reliabilityDiagram({
      title: 'Did the user pick the recommendation?',
      xLabel: 'p (R-ASK-1)',
      yLabel: 'share picked',
      bins: summary.reliability.p,
    }),
    [IMAGES.accuracyOverTime]: lineChart({
      title: 'Top-1 accuracy by session number, every user',
      xLabel: 'the user’s session number',
      yLabel: 'accuracy',
      xDomain: [-0.5, bySession.length - 0.5],
      yDomain: [0, 1],
      xTicks: bySession.map((b, i) => ({ at: i, label: b.label })),
      series: series(bySession, (_, i) => i),
    }),
    [IMAGES.changePoint]: lineChart({
      title: 'Change-point users: accuracy around the change',
      xLabel: 'days since the change of preference',
      yLabel: 'accuracy',
      xDomain: [-60, 90],
      yDomain: [0, 1],
      xTicks: [-60, -30, 0, 30, 60, 90].map((d) => ({ at: d, label: String(d) })),
      series: series(sinceChange, (b) => b.x),
    }),
  }
}

/** REPORT.md: the targets, the tables and the images, from one evaluation. */
export function renderReport(input: ReportInput): string {
  const { summary, population, policy } = input
  const results = targets(summary)
  const metCount = results.filter((r) => r.met).length
  const all = groupOf(summary, 'all')
  const lines = [
    '# How good are the recommendations? A simulated-user evaluation',
    '',
    `Written by \`npm run eval\` (seed ${population.seed}); the same seed on Node 20 writes this file and its`,
    'images byte for byte. Do not edit by hand: change the code under `scripts/eval/` or the policy, and run it again.',
    '',
    `${USER_TYPES.length * population.usersPerType} simulated users (${population.usersPerType} of each type) over ${population.horizonDays} days, ${all.questions} questions. Every`,
    'question goes through decision-memory’s real use cases (`createDecisionMemory` over an in-memory LevelDB, with a',
    'clock moved to each question, and `policies/default.json`): `recommend` first, then `observe` the choice.',
    '',
    '## Targets',
    '',
    `${metCount} of ${results.length} met.`,
    '',
    table(
      ['target', 'figure', 'met'],
      results.map((r) => [r.target, r.figure, r.met ? 'yes' : '**no**']),
      3,
    ),
    '',
    '## The simulated users',
    '',
    table(
      ['type', 'hidden preference θ (choice probabilities per decision point)'],
      USER_TYPES.map((t) => [t, USER_TYPE_DESCRIPTIONS[t]]),
      2,
    ),
    '',
    `- **Sessions** follow a Poisson process at a rate drawn per user uniformly between ${population.sessionRate[0]} and`,
    `  ${population.sessionRate[1]} a day (sparse users: 3 to 12 sessions at uniform times). Each session has a context`,
    '  `{phase: plan|run|sync, workflow: feature|bugfix|refactor}` drawn uniformly; only context-dependent users care.',
    `- **Decision points**: the four the default policy names (${SIMULATED_POINTS.map((p) => `${p.key} with ${p.options.length} options`).join(', ')}),`,
    `  each asked in a session with probability ${population.askProbability} (at least one per session), under one project.`,
    '- **Choices** are drawn from θ in force at that moment and in that context; the **favourite** is argmax θ.',
    '- **Open loop**: every choice is recorded as the user’s, whatever decision-memory said: every predictor is scored on',
    '  the same stream. **Closed loop**: a question decision-memory auto-resolves is not asked; its answer is recorded as',
    '  `auto-resolved` (which never counts as evidence, as the real hook does, R-CAP-5) and the user’s would-be choice is',
    '  only used to score it. The closed loop shows what auto-resolution does to learning: a change of preference that is',
    '  never asked about is never seen.',
    '- **Predictors**: decision-memory with the default policy; the **static default** of the policy (p = 1/k); the',
    '  **last choice** (p = Laplace-smoothed rate of repeating the previous choice); the **majority N/M**, the reference',
    `  system as documented: the static default below N = ${policy.thresholds.min_observations}, then the plain unweighted majority of every past choice, p its`,
    `  Laplace-smoothed share, auto-resolving above M = ${policy.thresholds.sufficient_observations} when p ≥ ${policy.ask.auto_resolve_p}; and the **oracle**, which knows θ and names the favourite (p = θ of it).`,
    '',
    '## Accuracy',
    '',
    'Top-1 accuracy: the share of questions where the predictor named the option the user then chose.',
    '',
    accuracyTable(summary),
    '',
    '## Log loss',
    '',
    'Mean binary log loss (nats) of the probability each predictor gave its own named option, against whether the',
    'user picked it (p clipped to [10⁻⁶, 1 − 10⁻⁶]). Lower is better; it punishes confident misses.',
    '',
    logLossTable(summary),
    '',
    '## Calibration',
    '',
    'Two probabilities are checked, each with the expected calibration error over 10 equal-width bins',
    '(ECE = Σ n_b/n · |observed_b − stated_b|). `confidence` claims “the recommended option is the user’s',
    'favourite” (R-REC-3), checked against the hidden θ; `p` claims “the user will pick the recommended option”',
    '(R-ASK-1), checked against the choice.',
    '',
    calibrationTable(summary),
    '',
    `![Reliability diagram of the confidence](${IMAGES.reliability})`,
    '',
    reliabilityRows(summary.reliability.confidence),
    '',
    `![Reliability diagram of p](${IMAGES.reliabilityP})`,
    '',
    reliabilityRows(summary.reliability.p),
    '',
    '## Questions saved',
    '',
    'Share of questions auto-resolved (`ask: false`, R-ASK-2), and in brackets the share of those where the user would',
    'have chosen otherwise.',
    '',
    questionsSavedTable(summary),
    '',
    '## Accuracy over time',
    '',
    `![Accuracy by session number](${IMAGES.accuracyOverTime})`,
    '',
    timeTable(summary.bySession, 'sessions'),
    '',
    `![Change-point users around the change](${IMAGES.changePoint})`,
    '',
    timeTable(summary.sinceChange, 'days since change'),
    '',
    '## Why the policy defaults are what they are',
    '',
    'Each tuned default against its alternatives, one change at a time, on a smaller population of the same seed',
    `(${input.sensitivity.usersPerType} users of each type, so its figures are noisier than those above), in the closed loop only:`,
    'every figure of this table, accuracy and calibration included, is of the closed loop.',
    '',
    sensitivityTable(input.sensitivity.rows),
    '',
    ...input.rationale,
    '',
  ]
  return lines.join('\n')
}
