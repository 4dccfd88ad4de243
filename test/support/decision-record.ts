import { DecisionInputSchema, type DecisionRecord } from '../../src/decisions/decision'
import type { Decisions } from '../../src/decisions/decisions'

/** A stored decision for tests: accepted, required, global, with the fields a test names changed. */
export function decisionRecord(key: string, changes: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    key,
    title: `title of ${key}`,
    decision: 'we do this',
    rationale: `because ${key}`,
    enforce: 'required',
    status: 'accepted',
    date: '2026-07-01',
    source: null,
    supersedes: null,
    superseded_by: null,
    scope: { points: [], task: null, path: null, stage: null },
    constraints: [],
    evidence: [],
    version: 2,
    created_at: '2026-07-01T10:00:00.000Z',
    updated_at: '2026-07-01T10:00:00.000Z',
    imported: null,
    ...changes,
  }
}

/** The body of a decision as posted: Tier L required at the complexity tier (a contract that overrides learned choices). */
export const REQUIRED_TIER_L = {
  title: 'Billing specs are Tier L',
  decision: 'Every SPEC that touches billing is planned as Tier L.',
  rationale: 'Billing changes need the design review that only Tier L has.',
  enforce: 'required',
  status: 'accepted',
  scope: { points: ['complexity-tier'] },
  constraints: [{ kind: 'must', option: 'Tier L' }],
}

/**
 * Decisions scoped to `src` that changed over time, for `why FILE` as of a moment: D-100 and D-101
 * accepted on 2026-11-01, then, on 2026-11-03, D-102 proposed and D-101 revoked. `clock` must stand
 * at 2026-11-01 and is left at 2026-11-03.
 */
export async function scopedToSrcOverTime(
  decisions: Pick<Decisions, 'propose' | 'revoke'>,
  clock: { set(iso: string): void },
): Promise<void> {
  const made = { decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted' as const, scope: { path: 'src' } }
  await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-100', title: 'Cents in billing' }))
  await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-101', title: 'Revoked since' }))
  clock.set('2026-11-03T00:00:00Z')
  await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-102', title: 'Proposed since' }))
  await decisions.revoke('D-101', { reason: 'no longer' })
}

/** The seed's D-021 as posted: no force push, required (the guard's example, R-CON-3). */
export const NO_FORCE_PUSH = {
  key: 'D-021',
  title: 'Never force push to protected branches',
  decision: 'Agents never run git push --force or any variant with force semantics.',
  rationale: 'Force push has lost us work twice.',
  enforce: 'required',
  status: 'accepted',
  constraints: [{ kind: 'must_not', pattern: 'git push --force' }],
}
