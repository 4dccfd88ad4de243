import { fieldsOf, InputError, type Issue } from '../domain/errors'
import { validateConstraints } from './constraints'
import {
  contentHash,
  type DecisionEvent,
  type DecisionInput,
  type DecisionRecord,
  type DecisionStatus,
  type Evidence,
  type EvidenceInput,
  FIRST_DECISION_DAY,
  latestDecisionDay,
  REPLAYED_FIELDS,
  type ReplayedField,
} from './decision'

/**
 * The lifecycle (R-CON-1): `proposed` → `accepted` → `superseded` | `deprecated` | `revoked`.
 * A proposal can be revoked (rejected) before it is accepted; a deprecated decision can still be
 * superseded by its replacement or revoked. `superseded` and `revoked` are final.
 */
const NEXT: Record<DecisionStatus, readonly DecisionStatus[]> = {
  proposed: ['accepted', 'revoked'],
  accepted: ['superseded', 'deprecated', 'revoked'],
  deprecated: ['superseded', 'revoked'],
  superseded: [],
  revoked: [],
}

/** The statuses a decision may move to, as a sentence lists them: `superseded, deprecated or revoked`. */
function oneOf(statuses: readonly DecisionStatus[]): string {
  return statuses.length < 2 ? statuses.join('') : `${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}`
}

/** Whether a decision in `from` may move to `to`. */
export function canMove(from: DecisionStatus, to: DecisionStatus): boolean {
  return NEXT[from].includes(to)
}

/** Details an event may carry. */
export interface TransitionDetails {
  reason?: string | undefined
  /** Moving to `superseded`: the replacement. */
  by?: string | undefined
  /** Moving to `accepted`: the decision this one replaces. */
  supersedes?: string | undefined
  /**
   * The field of the request that named the decision moved, for the issue of a refused step:
   * `status` (its own, the default), or `supersedes` or `key` for the decision another replaces.
   */
  path?: string | undefined
}

/**
 * Moves a decision to `to` at `at`, returning the new record and the event that records it;
 * a move the lifecycle does not allow is a 409 naming both statuses.
 */
export function transition(
  record: DecisionRecord,
  to: DecisionStatus,
  at: string,
  details: TransitionDetails = {},
): { record: DecisionRecord; event: DecisionEvent } {
  if (!canMove(record.status, to)) {
    const allowed = NEXT[record.status]
    throw new InputError(
      'invalid_transition',
      `${record.key} is ${record.status}; it cannot become ${to}` +
        (allowed.length === 0 ? ` (${record.status} is final)` : ` (it can become ${oneOf(allowed)})`),
      { status: 409, issues: [{ path: details.path ?? 'status', message: `${record.status} → ${to} is not a step of the lifecycle` }] },
    )
  }
  const seq = record.version + 1
  const event: DecisionEvent = { key: record.key, seq, at, type: to, from: record.status, to }
  if (details.by !== undefined) event.by = details.by
  if (details.supersedes !== undefined) event.supersedes = details.supersedes
  if (details.reason !== undefined) event.reason = details.reason
  const next: DecisionRecord = { ...record, status: to, version: seq, updated_at: at }
  if (details.by !== undefined) next.superseded_by = details.by
  return { record: next, event: withBefore(event, record, next) }
}

/** `event` with the fields it changed from `previous` to `next` kept as they were (R-REC-9 replays). */
export function withBefore(event: DecisionEvent, previous: DecisionRecord, next: DecisionRecord): DecisionEvent {
  const changed = REPLAYED_FIELDS.filter((f) => JSON.stringify(previous[f]) !== JSON.stringify(next[f]))
  if (changed.length === 0) return event
  return { ...event, before: Object.fromEntries(changed.map((f) => [f, previous[f]])) as DecisionEvent['before'] }
}

/**
 * Whether `given` names the sha256 hash `computed` (`sha256:<hex>`): the hex digits in either case,
 * with or without the `sha256:` prefix (in any case), as `sha256sum` prints them bare and
 * PowerShell's `Get-FileHash` in capitals.
 */
function namesHash(given: string, computed: string): boolean {
  const hex = given.trim().replace(/^sha256:/i, '').toLowerCase()
  return `sha256:${hex}` === computed
}

/**
 * Evidence as kept: `content` is replaced by its hash, `sha256:` and lower-case hex (a hash sent
 * along must agree with it, in any case of its hex digits); `field` is where the body has the list
 * (`records.3.evidence` in an import), which a refusal names.
 */
export function evidenceOf(inputs: readonly EvidenceInput[], field = 'evidence'): Evidence[] {
  return inputs.map((e, i) => {
    let hash = e.hash ?? null
    if (e.content !== undefined) {
      const computed = contentHash(e.content)
      if (hash !== null && !namesHash(hash, computed)) {
        throw new InputError('evidence_hash_mismatch', `${field}.${i}: hash does not match its content`, {
          issues: [{ path: `${field}.${i}.hash`, message: `the content hashes to ${computed}` }],
        })
      }
      hash = computed
    }
    return { kind: e.kind, summary: e.summary, uri: e.uri ?? null, hash }
  })
}

/**
 * A new proposal from its input (status `proposed`, one `proposed` event). Accepting it, when
 * asked at creation, is a separate transition, since it may supersede another decision.
 */
export function proposal(input: DecisionInput, key: string, at: string): { record: DecisionRecord; event: DecisionEvent } {
  const scope = {
    points: [...new Set(input.scope?.points ?? [])],
    task: input.scope?.task ?? null,
    path: input.scope?.path ?? null,
    stage: input.scope?.stage ?? null,
  }
  const issues: Issue[] = validateConstraints(input.constraints, scope)
  if (input.supersedes === key) issues.push({ path: 'supersedes', message: 'a decision cannot supersede itself' })
  const latest = latestDecisionDay(at)
  if (input.date !== undefined && input.date > latest) {
    issues.push({ path: 'date', message: `a day from ${FIRST_DECISION_DAY} to ${latest}, the day it was decided: it is after the service's today (${at.slice(0, 10)})` })
  }
  if (issues.length > 0) {
    throw new InputError('invalid_decision', `invalid decision: ${fieldsOf(issues)}`, { issues })
  }
  const record: DecisionRecord = {
    key,
    title: input.title,
    decision: input.decision,
    rationale: input.rationale,
    enforce: input.enforce,
    status: 'proposed',
    date: input.date ?? at.slice(0, 10),
    source: input.source ?? null,
    supersedes: input.supersedes ?? null,
    superseded_by: null,
    scope,
    constraints: input.constraints,
    evidence: evidenceOf(input.evidence),
    version: 1,
    created_at: at,
    updated_at: at,
    imported: null,
  }
  return { record, event: { key, seq: 1, at, type: 'proposed', from: null, to: 'proposed' } }
}

/** A decision as it stood at a moment, rebuilt from its history; `unrecorded` names what could not be. */
export interface DecisionThen {
  record: DecisionRecord
  /** The events up to that moment. */
  events: DecisionEvent[]
  /**
   * Fields a later re-import changed without keeping what they were (events written before
   * `before` was kept): they read as they are now.
   */
  unrecorded: ReplayedField[]
}

/**
 * A decision as it stood at `at` (R-REC-9): its status, links, enforce level, scope, constraints
 * and texts then, undoing the events after `at` newest first, or undefined if it did not exist
 * yet. The history is read in its order, up to the first event after `at`.
 */
export function decisionAt(record: DecisionRecord, events: readonly DecisionEvent[], at: Date): DecisionThen | undefined {
  const limit = at.toISOString()
  let kept = 0
  while (kept < events.length && (events[kept] as DecisionEvent).at <= limit) kept++
  if (kept === 0) return undefined
  const then: DecisionRecord = { ...record }
  const unrecorded = new Set<ReplayedField>()
  for (const event of events.slice(kept).reverse()) {
    if (event.from !== null) then.status = event.from
    if (event.before !== undefined) {
      Object.assign(then, event.before)
      continue
    }
    // Events written before `before` was kept: a lifecycle step's one change is known.
    if (event.type === 'superseded') then.superseded_by = null
    else if (event.type === 'linked') then.supersedes = null
    else if (event.type === 'reimported') {
      for (const f of event.changed ?? []) {
        if (f !== 'status' && (REPLAYED_FIELDS as readonly string[]).includes(f)) unrecorded.add(f as ReplayedField)
      }
    }
  }
  const last = events[kept - 1] as DecisionEvent
  then.version = last.seq
  then.updated_at = last.at
  return { record: then, events: events.slice(0, kept), unrecorded: [...unrecorded] }
}
