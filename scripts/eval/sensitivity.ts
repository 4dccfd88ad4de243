import { compilePolicy, type CompiledPolicy, type Policy } from '../../src/domain/policy'
import { runEvaluation, simulateInProcess, type SimulateUsers } from './evaluation'
import type { QuestionRecord } from './simulate'
import { summarizeGroup } from './summary'
import type { PopulationOptions, UserType } from './users'

/** The policies tried, by key: the default and one change of each tuned default. */
export type VariantKey =
  | 'default'
  | 'alpha-low'
  | 'alpha-high'
  | 'no-change-test'
  | 'laplace-p'
  | 'no-check-in'
  | 'auto-resolve-low'
  | 'auto-resolve-high'

/** One policy tried beside the default: a single change, named as the report shows it. */
export interface Variant {
  key: VariantKey
  name: string
  change: (policy: Policy) => Policy
}

/** The alternatives to each tuned default, one change at a time. */
export const VARIANTS: readonly Variant[] = [
  { key: 'default', name: 'the default policy', change: (p) => p },
  {
    key: 'alpha-low',
    name: '`decay.alpha` 0.25',
    change: (p) => ({ ...p, decay: { alpha: 0.25 } }),
  },
  {
    key: 'alpha-high',
    name: '`decay.alpha` 0.75',
    change: (p) => ({ ...p, decay: { alpha: 0.75 } }),
  },
  {
    key: 'no-change-test',
    name: 'no change test (`change.significance` 10⁻³⁰⁰)',
    change: (p) => ({ ...p, change: { ...p.change, significance: 1e-300 } }),
  },
  {
    key: 'laplace-p',
    name: '`confidence.predictive_prior` 1 (Laplace)',
    change: (p) => ({ ...p, confidence: { ...p.confidence, predictive_prior: 1 } }),
  },
  {
    key: 'no-check-in',
    name: 'no check-in (`ask.check_in_after` 10⁶)',
    change: (p) => ({ ...p, ask: { ...p.ask, check_in_after: 1e6 } }),
  },
  {
    key: 'auto-resolve-low',
    name: '`ask.auto_resolve_p` 0.85',
    change: (p) => ({ ...p, ask: { ...p.ask, auto_resolve_p: 0.85 } }),
  },
  {
    key: 'auto-resolve-high',
    name: '`ask.auto_resolve_p` 0.95',
    change: (p) => ({ ...p, ask: { ...p.ask, auto_resolve_p: 0.95 } }),
  },
]

/** The figures a variant is judged by. */
export interface SensitivityRow {
  key: VariantKey
  variant: string
  accuracy: number
  stationaryGain: number
  changePointAccuracy: number
  confidenceEce: number
  pEce: number
  closedWrong: number
  habitualClosedAfter30: number
}

/**
 * Runs every variant on the same (smaller) population, in the closed loop only (what a user lives
 * with, and half the work), and reports its figures in the order of VARIANTS.
 */
export async function runSensitivity(
  population: PopulationOptions,
  policy: CompiledPolicy,
  simulate: SimulateUsers = simulateInProcess,
): Promise<SensitivityRow[]> {
  return Promise.all(
    VARIANTS.map(async (variant): Promise<SensitivityRow> => {
      const evaluation = await runEvaluation(
        { ...population, policy: compilePolicy(variant.change(policy)), loops: ['closed'] },
        simulate,
      )
      return sensitivityRow(variant, evaluation.closed)
    }),
  )
}

function sensitivityRow(variant: Variant, closed: readonly QuestionRecord[]): SensitivityRow {
  const figures = (group: UserType | 'all') => {
    const records = group === 'all' ? closed : closed.filter((r) => r.type === group)
    return summarizeGroup(group, records, records)
  }
  const all = figures('all')
  const stationary = figures('stationary')
  return {
    key: variant.key,
    variant: variant.name,
    accuracy: all.accuracy['decision-memory'],
    stationaryGain: stationary.accuracy['decision-memory'] - stationary.accuracy['majority N/M'],
    changePointAccuracy: figures('change-point').accuracy['decision-memory'],
    confidenceEce: all.confidenceEce,
    pEce: all.pEce,
    closedWrong: all.autoResolution.closed.wrong,
    habitualClosedAfter30: figures('habitual').afterSession30.closed.share,
  }
}
