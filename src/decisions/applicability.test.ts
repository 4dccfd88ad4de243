import { describe, expect, it } from 'vitest'
import { applies, isWithin, normalizePath, outOfScope, runOfContext } from './applicability'
import { decisionRecord } from '../../test/support/decision-record'
import type { DecisionRecord, DecisionScope } from './decision'

function decision(scope: Partial<DecisionScope>, status: DecisionRecord['status'] = 'accepted'): DecisionRecord {
  return decisionRecord('D-001', { status, scope: { points: [], task: null, path: null, stage: null, ...scope } })
}

describe('applicability (R-CON-4)', () => {
  it('a decision with no task, path or stage scope is global', () => {
    const global = decision({})
    expect(applies(global, {})).toBe(true)
    expect(applies(global, { task: 'T-1', path: 'src/x.ts', stage: 'run' })).toBe(true)
  })

  it('only accepted decisions apply', () => {
    for (const status of ['proposed', 'superseded', 'deprecated', 'revoked'] as const) {
      expect(applies(decision({}, status), {})).toBe(false)
    }
  })

  it('a task-scoped decision applies to that task only, and not when no task is given', () => {
    const scoped = decision({ task: 'SPEC-AUTH-001' })
    expect(applies(scoped, { task: 'SPEC-AUTH-001' })).toBe(true)
    expect(applies(scoped, { task: 'SPEC-BILL-002' })).toBe(false)
    expect(applies(scoped, {})).toBe(false)
  })

  it('a path-scoped decision applies to that path and below it, by whole segments', () => {
    const scoped = decision({ path: 'src/billing' })
    expect(applies(scoped, { path: 'src/billing' })).toBe(true)
    expect(applies(scoped, { path: 'src/billing/invoice.ts' })).toBe(true)
    expect(applies(scoped, { path: './src/billing/deep/er/x.ts' })).toBe(true)
    expect(applies(scoped, { path: 'src/billing-v2/x.ts' })).toBe(false)
    expect(applies(scoped, { path: 'src' })).toBe(false)
    expect(applies(scoped, { path: 'lib/billing' })).toBe(false)
  })

  it("compares a run's task, path and stage, and a scope stored spaced, without the white space at their ends", () => {
    const scoped = decision({ task: 'ops', path: 'infra', stage: 'prod' })
    expect(applies(scoped, { task: ' ops', path: 'infra/main.tf ', stage: ' prod\t' })).toBe(true)
    // White space alone says no task, path or stage.
    expect(applies(scoped, { task: 'ops', path: 'infra', stage: '  ' })).toBe(false)
    expect(outOfScope(scoped, { task: 'ops', path: ' ', stage: 'prod' })).toEqual([{ field: 'path', scope: 'infra', run: null }])
    expect(applies(decision({}), { task: ' ', path: ' ', stage: ' ' })).toBe(true)
    // Stored so by a version before such scopes were refused: held by the run named so, and by the run it was written for.
    const spaced = decision({ task: ' billing', path: 'src/billing ', stage: 'review ' })
    for (const run of [{ task: ' billing', path: 'src/billing ', stage: 'review ' }, { task: 'billing', path: 'src/billing/x.ts', stage: 'review' }]) {
      expect(applies(spaced, run), JSON.stringify(run)).toBe(true)
    }
    // Spaces inside are ordinary.
    expect(applies(decision({ stage: 'code review' }), { stage: 'code  review' })).toBe(false)
  })

  it('no path given excludes path-scoped decisions', () => {
    expect(applies(decision({ path: 'src/billing' }), {})).toBe(false)
    expect(applies(decision({ path: 'src/billing' }), { task: 'T-1', stage: 'run' })).toBe(false)
  })

  it('a stage-scoped decision applies at that stage only, and not when no stage is given', () => {
    const scoped = decision({ stage: 'review' })
    expect(applies(scoped, { stage: 'review' })).toBe(true)
    expect(applies(scoped, { stage: 'run' })).toBe(false)
    expect(applies(scoped, {})).toBe(false)
  })

  it('every scope must hold at once', () => {
    const scoped = decision({ task: 'T-1', path: 'src', stage: 'run' })
    expect(applies(scoped, { task: 'T-1', path: 'src/a.ts', stage: 'run' })).toBe(true)
    expect(applies(scoped, { task: 'T-1', path: 'src/a.ts', stage: 'plan' })).toBe(false)
    expect(applies(scoped, { task: 'T-2', path: 'src/a.ts', stage: 'run' })).toBe(false)
    expect(applies(scoped, { task: 'T-1', path: 'test/a.ts', stage: 'run' })).toBe(false)
  })

  it('a point excludes decisions bound to other points, not those bound to none', () => {
    expect(applies(decision({ points: ['complexity-tier'] }), { point: 'complexity-tier' })).toBe(true)
    expect(applies(decision({ points: ['complexity-tier'] }), { point: 'model-selection' })).toBe(false)
    expect(applies(decision({ points: [] }), { point: 'model-selection' })).toBe(true)
    expect(applies(decision({ points: ['complexity-tier'] }), {})).toBe(true)
  })

  it('compares paths after normalising them', () => {
    expect(normalizePath('src\\billing\\')).toBe('src/billing')
    expect(normalizePath('./src/./a/../billing/')).toBe('src/billing')
    expect(normalizePath('/')).toBe('/')
    expect(normalizePath('./')).toBe('.')
    expect(isWithin('/home/dev/acme-api/src', '/home/dev/acme-api')).toBe(true)
    expect(isWithin('/home/dev/acme-api-old', '/home/dev/acme-api')).toBe(false)
    expect(isWithin('src/a.ts', '.')).toBe(true)
    expect(isWithin('/etc', '/')).toBe(true)
  })

  it('holds nothing above the repository\'s root in a decision scoped to it', () => {
    // `.` is the root and what is below it: `..` and `../other` are outside the repository.
    expect(isWithin('..', '.')).toBe(false)
    expect(isWithin('../other/src', '.')).toBe(false)
    expect(isWithin('src/../..', '.')).toBe(false)
    expect(applies(decision({ path: '.' }), { path: '../other' })).toBe(false)
    expect(isWithin('src/..', '.')).toBe(true)
    expect(isWithin('..', '..')).toBe(true)
  })

  it('reads a Windows path as a Windows path: absolute from its drive, whatever the drive letter\'s case', () => {
    // Outside a repository the guard sends the cwd as it is: on Windows no repository-relative path.
    expect(isWithin('C:\\Users\\me\\scratch', '.')).toBe(false)
    expect(applies(decision({ path: '.' }), { path: 'C:\\Users\\me\\scratch' })).toBe(false)
    expect(isWithin('src\\billing', '.')).toBe(true)
    expect(isWithin('c:\\repo\\src', 'C:\\repo')).toBe(true)
    expect(isWithin('C:/repo/src', 'c:\\repo\\')).toBe(true)
    expect(isWithin('D:\\repo\\src', 'C:\\repo')).toBe(false)
    expect(normalizePath('c:\\')).toBe('C:')
    // `..` at a drive's root stays on it, as `/..` is `/`: no repository-relative `x`, no `.`.
    expect(normalizePath('C:\\..\\x')).toBe('C:/x')
    expect(isWithin('C:\\..\\src', 'src')).toBe(false)
    expect(isWithin('c:\\repo\\..\\..', '.')).toBe(false)
  })

  it('reads task, path and stage from a recommendation context', () => {
    expect(runOfContext({ task: 'T-1', path: 'src', stage: 'run', phase: 'x' })).toEqual({ task: 'T-1', path: 'src', stage: 'run' })
    expect(runOfContext({ task: null, stage: '' })).toEqual({ task: undefined, path: undefined, stage: undefined })
    expect(runOfContext(undefined)).toEqual({ task: undefined, path: undefined, stage: undefined })
  })
})
