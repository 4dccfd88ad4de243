import { beforeAll, describe, expect, it } from 'vitest'
import { loadPolicy } from '../../src/config/load-policy'
import type { CompiledPolicy } from '../../src/domain/policy'
import {
  runEvaluation,
  type Evaluation,
  type EvaluationOptions,
} from '../../scripts/eval/evaluation'
import { IMAGES, renderImages, renderReport, targets } from '../../scripts/eval/report'
import { PREDICTORS } from '../../scripts/eval/simulate'
import { summarize } from '../../scripts/eval/summary'
import { USER_TYPES } from '../../scripts/eval/users'

// A small population: a couple of users of each type over six weeks, a few seconds to run.
const SMALL = {
  seed: 11,
  usersPerType: 2,
  start: new Date('2026-01-05T09:00:00.000Z'),
  horizonDays: 45,
  sessionRate: [0.6, 1] as const,
  askProbability: 0.75,
}

describe('a small seeded evaluation through the real code path', () => {
  let policy: CompiledPolicy
  let options: EvaluationOptions
  let evaluation: Evaluation

  beforeAll(async () => {
    policy = await loadPolicy()
    options = { ...SMALL, policy }
    evaluation = await runEvaluation(options)
  })

  it('asks every planned question once in each loop, with every predictor', () => {
    const planned = evaluation.users.reduce(
      (n, u) => n + u.sessions.reduce((m, s) => m + s.points.length, 0),
      0,
    )
    expect(evaluation.users).toHaveLength(USER_TYPES.length * SMALL.usersPerType)
    expect(evaluation.open).toHaveLength(planned)
    expect(evaluation.closed).toHaveLength(planned)
    for (const r of [...evaluation.open, ...evaluation.closed])
      expect(Object.keys(r.predictions).sort()).toEqual([...PREDICTORS].sort())
  })

  it('runs only the loops it is asked for', async () => {
    const closedOnly = await runEvaluation({ ...options, usersPerType: 1, loops: ['closed'] })
    expect(closedOnly.open).toEqual([])
    expect(closedOnly.closed.length).toBeGreaterThan(0)
  })

  it('is reproduced exactly by the same seed, report and images included', async () => {
    const again = await runEvaluation(options)
    expect(again.open).toEqual(evaluation.open)
    const population = { ...SMALL, sessionRate: [...SMALL.sessionRate] as [number, number] }
    const render = (e: Evaluation) =>
      renderReport({
        summary: summarize(e),
        population,
        policy,
        sensitivity: { usersPerType: 0, rows: [] },
        rationale: [],
      })
    expect(render(again)).toBe(render(evaluation))
    expect(renderImages(summarize(again))).toEqual(renderImages(summarize(evaluation)))
  })

  it('sees the same choices in both loops: only what decision-memory learns from differs', () => {
    expect(evaluation.closed.map((r) => r.choice)).toEqual(evaluation.open.map((r) => r.choice))
    const baselines = (r: (typeof evaluation.open)[number]) => {
      const { 'decision-memory': _dm, ...others } = r.predictions
      return others
    }
    expect(evaluation.closed.map(baselines)).toEqual(evaluation.open.map(baselines))
  })

  it('learns a habitual user: once personalised, decision-memory names the habit', () => {
    const learned = evaluation.open.filter(
      (r) => r.type === 'habitual' && r.state !== 'static-default',
    )
    expect(learned.length).toBeGreaterThan(50)
    const right = learned.filter(
      (r) => r.predictions['decision-memory'].option === r.favourite,
    ).length
    expect(right / learned.length).toBeGreaterThan(0.95)
  })

  it('recommends the static default, as the policy names it, before N observations', () => {
    const early = evaluation.open.filter((r) => r.state === 'static-default')
    expect(early.length).toBeGreaterThan(0)
    for (const r of early)
      expect(r.predictions['decision-memory'].option).toBe(r.predictions['static default'].option)
  })

  it('states every target with its figure, and links images that it writes', () => {
    const summary = summarize(evaluation)
    expect(targets(summary)).toHaveLength(9)
    const report = renderReport({
      summary,
      population: { ...SMALL, sessionRate: [0.6, 1] },
      policy,
      sensitivity: { usersPerType: 0, rows: [] },
      rationale: ['- why'],
    })
    const images = renderImages(summary)
    for (const name of Object.values(IMAGES)) {
      expect(report).toContain(`](${name})`)
      expect(images[name]).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/)
    }
  })
})
