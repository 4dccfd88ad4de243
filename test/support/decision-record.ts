import type { DecisionRecord } from '../../src/decisions/decision'

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
