import type { Clock } from '../clock'
import { pointPolicy, singleSelectByPolicy } from '../domain/decision-point'
import { fieldsOf, InputError, type Issue } from '../domain/errors'
import { resolveChoice } from '../domain/labels'
import { multiSelectOf, type Context, type OptionInput } from '../domain/observation'
import { offeredOptions } from '../domain/offered-options'
import type { CompiledPolicy } from '../domain/policy'
import { checkTimestamp } from '../domain/timestamp'
import { applies, runOfContext, type ApplicabilityQuery } from './applicability'
import { checkAgainst, onceEach, reachedBy, type Verdict } from './constraints'
import { contractConflicts, contractFor, globalLimitConflicts } from './enforcement'
import { matchWithin, type MatchPatterns } from './pattern-match'
import { compareKeys, DECISION_LIMITS, FIRST_DECISION_DAY, globMeant, latestDecisionDay, scopeWarning, type DecisionEvent, type DecisionInput, type DecisionRecord, type DecisionStatus } from './decision'
import { shortList } from './adr/quoted-value'
import { inWords } from './decisions-named'
import { changedFields, importChanges, importedRecord, mergeImported, type ImportedDecision, type ImportReport, type MergedImport } from './imported-decision'
import { canMove, decisionAt, evidenceOf, proposal, transition, withBefore } from './lifecycle'
import type { DecisionStore, DecisionTransaction, Pulse } from './store'

/** A decision with its whole history (with `as_of`, as it stood then: see DecisionThen). */
export interface DecisionView extends DecisionRecord {
  events: DecisionEvent[]
  /** In a replay: fields a later re-import changed before their earlier values were kept; they read as they are now. */
  unrecorded?: string[]
  /** Where its stored path scope is a glob, which applies to none of the paths it matches (see scopeWarning); absent otherwise. */
  scope_warning?: string
}

/** A decision as `applicable` returns it; in a replay, with the fields it could not rebuild. */
export type ApplicableDecision = DecisionRecord & { unrecorded?: string[]; scope_warning?: string }

/** A decision as shown, with `scope_warning` where its stored path scope is a glob (see scopeWarning). */
function shown<T extends DecisionRecord>(decision: T): T & { scope_warning?: string } {
  const warning = scopeWarning(decision)
  return warning === undefined ? decision : { ...decision, scope_warning: warning }
}

/**
 * An audit (R-REC-9): the answer as it would have been at `as_of` (an ISO time, not more than 5
 * minutes ahead of the clock), from the decisions as they stood then; it counts no pulse.
 */
export interface AsOf {
  as_of?: string | undefined
}

/** One link of a supersede chain, with when it was accepted and replaced. */
export interface ChainLink {
  key: string
  title: string
  status: DecisionStatus
  enforce: DecisionRecord['enforce']
  date: string
  decision: string
  rationale: string
  accepted_at: string | null
  superseded_at: string | null
  /** When it was deprecated; null when it was not (then). */
  deprecated_at: string | null
  /** When it was revoked (or, a proposal, rejected); null when it was not (then). */
  revoked_at: string | null
  /** The reason given with the step that set its status (a revoke's, a deprecation's, …); null when none was given. */
  reason: string | null
  supersedes: string | null
  superseded_by: string | null
  /** Where it was decided (a session, a document, a meeting); null when not said. */
  source: string | null
  /** Its own evidence: why D-007 was chosen, read from `why D-038`, which replaced it. */
  evidence: DecisionRecord['evidence']
  /** Where its stored path scope is a glob, which applies to none of the paths it matches (see scopeWarning); absent otherwise. */
  scope_warning?: string
}

/** A proposal not yet accepted or rejected that would supersede a link of a chain: a change pending. */
export interface PendingProposal {
  key: string
  title: string
  enforce: DecisionRecord['enforce']
  date: string
  decision: string
  rationale: string
  /** The link of the chain it would replace once accepted. */
  supersedes: string
  proposed_at: string
  /**
   * Where accepting it would not replace that link: refused (the link is proposed, or was replaced
   * by another since) or replacing nothing (the link is revoked, and it leaves the chain); absent otherwise.
   */
  warning?: string
}

/**
 * What accepting a proposal pending on `link` (the link it names, as it stands) would not do, as
 * acceptIn reads it: listed as a change pending, it was accepted into a 409 (a link still proposed,
 * or replaced by another since), or, the link revoked, accepted on its own and gone from the chain.
 */
function pendingWarning(link: ChainLink): string | undefined {
  if (link.status === 'revoked') return `accepted, it supersedes nothing: ${link.key} is revoked`
  // Linked to another, whatever its status (an accepted one so linked was stored by a version before): already_superseded.
  if (link.superseded_by !== null) return `accepting it is refused: ${link.key} is superseded by ${link.superseded_by} already`
  if (link.status === 'proposed') return `accepting it is refused while ${link.key} is proposed: accept ${link.key} first`
  if (!canMove(link.status, 'superseded')) return `accepting it is refused: ${link.key} is ${link.status} already`
  return undefined
}

/** `why` of a decision (R-CON-5): its supersede chain, oldest first, its rationale and evidence. */
export interface DecisionWhy {
  key: string
  /**
   * The moment the chain describes: the `as_of` asked for, or the moment it was read. A client
   * that asked for a moment checks it here: a service of an older version ignores `as_of`.
   */
  as_of: string
  /** The newest decision of the chain: the one that holds, if it is accepted. */
  current: string
  /**
   * The newest accepted decision of the chain, the one that holds; null when none is accepted (the
   * newest revoked or deprecated, or only proposed). `current` when that one is accepted; an older
   * link when the newest is a proposal not accepted yet, or was revoked or rejected.
   */
  in_force: string | null
  chain: ChainLink[]
  /**
   * The proposals (then, with `as_of`) that name a link of the chain in `supersedes` and are not in
   * it themselves, oldest first: changes pending, which a reviewer of the chain should know of.
   */
  proposals: PendingProposal[]
  rationale: string
  evidence: DecisionRecord['evidence']
  events: DecisionEvent[]
  /** In a replay: fields of the decision asked about that it could not rebuild (see DecisionView). */
  unrecorded?: string[]
}

/** Which decisions reach runs, and which never do (R-CON-4). */
export interface PulseReport {
  decisions: Array<Pick<DecisionRecord, 'key' | 'title' | 'status' | 'enforce'> & Omit<Pulse, 'key' | 'first_at' | 'last_at'> & {
    first_at: string | null
    last_at: string | null
  }>
  /** Accepted decisions that no applicability query, recommendation or check has returned. */
  never_reached: string[]
}

/** A request of `POST /v1/decisions/check` (R-CON-3). */
export interface CheckRequest extends ApplicabilityQuery, AsOf {
  action?: string | undefined
  /** One option, or the options of a multi-select choice. */
  choice?: string | readonly string[] | undefined
  /** The options the choice's question offered, as a recommendation takes them: the choice is read among them. */
  all_options?: readonly OptionInput[] | undefined
  /** Whether the choice's question was multi-select; left out, the point's policy says. */
  multi_select?: boolean | undefined
  /** AskUserQuestion's spelling of `multi_select`, taken for it; the two given and different are refused. */
  multiSelect?: boolean | undefined
  /**
   * The user whose choice it is: where neither `multi_select` nor the point's policy says, a string
   * choice is read as the user's latest own choice at the point was asked, as capture stores it
   * (DecisionMemory.check reads it into `latest_multi_select`). Decisions themselves are every user's.
   */
  user?: string | undefined
  /** Whether the user's latest own choice at `point` was multi-select, read where neither the request nor the policy says. */
  latest_multi_select?: boolean | undefined
}

/**
 * The use cases of decisions as contracts (R-CON): the lifecycle, applicability with recall
 * pulses, checks, `why` and import. HTTP, the CLI and the guard hook are doorways onto these.
 */
export interface Decisions {
  propose(input: DecisionInput): Promise<DecisionView>
  accept(key: string, input?: { reason?: string | undefined }): Promise<DecisionView>
  /** Replaces `key` by `by`: a proposal is accepted, an accepted decision is linked. */
  supersede(key: string, input: { by: string; reason?: string | undefined }): Promise<DecisionView>
  deprecate(key: string, input?: { reason?: string | undefined }): Promise<DecisionView>
  revoke(key: string, input?: { reason?: string | undefined }): Promise<DecisionView>
  /** With `as_of`, as it stood then, with its events up to then (a 404 if it did not exist yet). */
  get(key: string, options?: AsOf): Promise<DecisionView>
  /**
   * Decisions in key order, of a status or bound to a point; with `as_of`, those that existed then,
   * as they stood then (their status then is the one filtered by).
   */
  list(filter?: { status?: DecisionStatus | undefined; point?: string | undefined } & AsOf): Promise<ApplicableDecision[]>
  /**
   * The decisions bound to a point as they stood at `asOf` (R-REC-9): those that existed then,
   * with their status, links, enforce level, scope and constraints then (see decisionAt).
   */
  boundAt(point: string, asOf: Date): Promise<Array<DecisionRecord & { unrecorded?: string[] }>>
  /**
   * Accepted decisions that apply to a run; each one returned counts a pulse, unless `as_of` makes
   * it an audit or `count` is false (a `HEAD`, which reaches no run).
   */
  applicable(query: ApplicabilityQuery & AsOf, options?: { count?: boolean }): Promise<ApplicableDecision[]>
  /**
   * Accepted decisions bound to a point that apply in a context, for the recommendation; with
   * `asOf`, those that were accepted then (a replay, which counts no pulse).
   */
  atPoint(input: { point: string; context?: Context | undefined; asOf?: Date | undefined }): Promise<DecisionRecord[]>
  /**
   * The accepted decisions bound to no point with a `limit`, that apply in a context: the check
   * applies them at every point (to a bare number), so no answer they block (required) or warn of
   * (advisory) is given for the user, though they leave the offer as it is. With `asOf`, as they
   * stood then. No pulse is counted.
   */
  globalLimits(input: { context?: Context | undefined; asOf?: Date | undefined }): Promise<DecisionRecord[]>
  /** Moves whenever decisions are written (see DecisionStore.changes): what atPoint answered since is still so. */
  changes(): number
  /** Each decision checked counts a pulse, unless `as_of` makes it an audit. */
  check(request: CheckRequest): Promise<Verdict>
  pulses(): Promise<PulseReport>
  /** With `as_of`, the chain as it stood then: links, statuses and events up to that moment (R-REC-9). */
  why(key: string, options?: AsOf): Promise<DecisionWhy>
  /** The why of each key, in order, as `why` gives it, at one moment: each decision of their chains is read once. */
  whyEach(keys: readonly string[], options?: AsOf): Promise<DecisionWhy[]>
  /**
   * Imports records read from a folder (R-CON-6); `files`, the folder's `.md` files, tell the
   * names it had before from another repository's folder (see formerNames), and which of its
   * records' files are gone (`missing`); `logs`, the keys of every section of its DECISIONS.md
   * files, which of its sections were taken out of a log that is still there.
   */
  import(records: readonly ImportedDecision[], options?: ImportOptions): Promise<ImportReport>
}

/** What an import knows of the folder besides its records (see Decisions.import). */
export interface ImportOptions {
  files?: readonly string[] | undefined
  logs?: ReadonlyArray<{ path: string; keys: readonly string[] }> | undefined
  /** The folder read, and the names it had before, as a record's origin names them: what an import of no records is about. */
  folder?: string | undefined
  aliases?: readonly string[] | undefined
  /**
   * Folders of the same repository the records were imported from before that its working tree no
   * longer has (`doc/adr` once it is `docs/adr`), or absolute ones no longer there outside a
   * repository: each is this folder moved if its records are all here (see formerNames).
   */
  moved?: readonly string[] | undefined
  /**
   * Writes nothing: the import is run as it would be, the decisions it would create, update,
   * supersede or revoke read back within it, and its report (`dry_run: true`) says what it would do.
   */
  dryRun?: boolean | undefined
}

function notFound(key: string, path = 'key', asOf?: Date, like: readonly string[] = []): InputError {
  // In a replay, one made later: said so, or an auditor looks for a typo in the key.
  const then = asOf === undefined ? '' : ` as of ${asOf.toISOString()}`
  const named = like.length <= 1 ? like.join('') : `${like.slice(0, -1).join(', ')} or ${like.at(-1) as string}`
  const hint = like.length === 0 ? '' : `: did you mean ${named}? (keys are compared as written)`
  return new InputError('decision_not_found', `no decision ${key}${then}${hint}`, {
    status: 404,
    issues: [{ path, message: `no decision has the key ${key}${then}` }],
  })
}

/**
 * The keys written as `key` is but for case or the zeros before its number (`d-021`, `D-21` for
 * `D-021`), by key: what was likely meant. Each of them: naming one of `D-021` and `d-021` left
 * the other, perhaps the one meant, unsaid.
 */
export function keysLike(key: string, keys: readonly string[]): string[] {
  const loose = (k: string) => k.toLowerCase().replace(/(^|\D)0+(?=\d)/g, '$1')
  const wanted = loose(key)
  return keys.filter((k) => k !== key && loose(k) === wanted).sort(compareKeys)
}

async function required(tx: DecisionTransaction, key: string, path = 'key'): Promise<DecisionRecord> {
  const record = await tx.get(key)
  if (record === undefined) throw notFound(key, path, undefined, keysLike(key, await tx.keys()))
  return record
}

/**
 * The required decisions bound to a point that contradict each other there (R-CON-2), as a
 * recommendation offering `offered` names them; without the options offered, among those the
 * decisions bound there name and the policy's default, as the check reads a choice. A choice of
 * several options is a multi-select one, whose musts of different options do not contradict.
 */
function conflictsAt(decisions: readonly DecisionRecord[], point: string, offered: readonly string[] | undefined, pointDefault: string | undefined, multiSelect: boolean) {
  const bound = decisions.filter((d) => d.enforce === 'required' && d.scope.points.includes(point))
  const named = bound.flatMap((d) => d.constraints.flatMap((c) => (c.option === undefined || c.kind === 'limit' ? [] : [c.option])))
  const options = offered ?? [...new Set([...named, ...(pointDefault === undefined ? [] : [pointDefault])])]
  const contract = contractFor(bound, options.map((option) => ({ option })), undefined)
  // A limit bound to no point blocks a must's option at this point too (a bare number over it).
  const global = decisions.filter((d) => d.scope.points.length === 0)
  return [...contractConflicts(contract, multiSelect), ...globalLimitConflicts(contract.musts, global)]
}

/**
 * A check's choice of several options at a single-select question is no one choice: read as a
 * multi-select one, it passed a `must` of one option while holding others too. Refused as capture
 * refuses two answers at a single-select question, before any pulse is counted. Single-select as
 * the check says (`multi_select: false`), else as the point's policy says where the check does not:
 * the policy's is the point's where a request does not say, and a question asked multi-select there
 * is answered, and stored, with several options; sent without multi_select, capture refuses it
 * there with the same words. An array of one option (or one named twice) is that option, as capture
 * stores it; at a point the policy leaves open an array is a multi-select choice, as capture reads one.
 */
function refuseSeveralAtSingleSelect(
  choice: string | readonly string[] | undefined,
  point: string | undefined,
  multiSelect: boolean | undefined,
  offered: readonly string[] | undefined,
  policy: CompiledPolicy,
): void {
  if (typeof choice === 'string' || choice === undefined) return
  const byPolicy = multiSelect === undefined && point !== undefined && pointPolicy(point, policy)?.multi_select === false
  if (multiSelect !== false && !byPolicy) return
  const choices = onceEach(choice, offered)
  if (choices.length <= 1) return
  const message = byPolicy
    ? singleSelectByPolicy(point, choices)
    : `the question is single-select (multi_select is false): give one label, not ${choices.length} (${choices.map((c) => JSON.stringify(c)).join(', ')})`
  throw new InputError('multiple_choices', 'a single-select question has one choice', { issues: [{ path: 'choice', message }] })
}

/**
 * The labels a choice at a multi-select question names, as capture splits it (resolveChoice): an
 * answer joined with ", " is the options it joins, a label that is an option whole, comma and all,
 * that one, and what names no option its text. A version before this read `"Tier S, Tier M"` as
 * one label, which named no option, and allowed it where a required decision rules out Tier M,
 * while capture stored both.
 */
function joinedLabels(choice: string, options: readonly string[]): string[] {
  const { chosen, other } = resolveChoice(choice, options, true)
  return chosen.length === 0 ? [choice] : [...chosen, ...(other === null ? [] : [other])]
}

/** The options known at a point a choice is checked at, where the check sends none: those the decisions there (every decision's, at no point) name, and the policy's default. */
function optionsNamed(decisions: readonly DecisionRecord[], point: string | undefined, defaultAt: (point: string) => string | undefined): string[] {
  const at = decisions.filter((d) => point === undefined || d.scope.points.includes(point))
  const named = at.flatMap((d) => d.constraints.flatMap((c) => (c.option === undefined || c.kind === 'limit' ? [] : [c.option])))
  const fallback = point === undefined ? undefined : defaultAt(point)
  return [...new Set([...named, ...(fallback === undefined ? [] : [fallback])])]
}

/**
 * The key a decision proposed without one gets: `D-` and the number after the highest `D-` number
 * in use (R-CON-1), counted exactly however long it is (a number past 2^53, a timestamp such as
 * `D-20240315120000123456`, was rounded as a Number: the key made was one in use, and every
 * proposal without a key was refused as taking it). Where that key would be longer than a key may
 * be, the lowest free number. Written as wide as the widest zero-padded key in use, at least three
 * digits: after `D-0001`, `D-0002`, not `D-002`.
 */
function nextKey(keys: readonly string[]): string {
  let max = 0n
  let width = 3
  const used = new Set<bigint>()
  for (const k of keys) {
    const match = /^D-(\d+)$/.exec(k)
    if (match === null) continue
    const digits = match[1] as string
    const n = BigInt(digits)
    used.add(n)
    if (n > max) max = n
    if (digits.startsWith('0') && digits.length > width) width = digits.length
  }
  const key = (n: bigint) => `D-${String(n).padStart(width, '0')}`
  if (key(max + 1n).length <= DECISION_LIMITS.keyLength) return key(max + 1n)
  let free = 1n
  while (used.has(free)) free++
  return key(free)
}

/**
 * Two records or more of one import with one key: whichever came later would overwrite the
 * earlier, and the report would call the key both created and updated. None is the record, so the
 * import is refused, naming every source.
 */
function refuseKeysSentTwice(records: readonly ImportedDecision[]): void {
  const first = new Map<string, number>()
  const issues: Issue[] = []
  const where = (r: ImportedDecision) => `${r.origin.path}:${r.origin.line}`
  records.forEach((r, i) => {
    const earlier = first.get(r.key)
    if (earlier === undefined) first.set(r.key, i)
    else {
      const other = records[earlier] as ImportedDecision
      issues.push({ path: `records.${i}.key`, message: `${r.key} of ${where(r)} is also the key of records.${earlier} (${where(other)})` })
    }
  })
  if (issues.length > 0) {
    // Counted: three records of one key, or two keys each sent twice, were said `one key, two records`.
    const sent = new Map<string, number>()
    for (const r of records) sent.set(r.key, (sent.get(r.key) ?? 0) + 1)
    const twice = [...sent.values()].filter((n) => n > 1)
    const said = twice.length === 1 ? `one key, ${inWords(twice[0] as number)} records` : `${inWords(twice.length)} keys, each of more than one record`
    throw new InputError('duplicate_key', `${said}: ${issues.map((i) => i.message).join('; ')}`, { issues })
  }
}

/**
 * Records dated after the service's tomorrow, as a proposal is (lifecycle.ts): stored, `9999-12-31`
 * stood in its chain after every later decision. import-adr reads such a day as no date, and says
 * so at its line; one sent otherwise is refused, naming `records.N.date`, and nothing is stored.
 */
function refuseDatesAfterTomorrow(records: readonly ImportedDecision[], at: string): void {
  const latest = latestDecisionDay(at)
  const issues: Issue[] = records.flatMap((r, i) =>
    r.date !== null && r.date > latest
      ? [{ path: `records.${i}.date`, message: `a day from ${FIRST_DECISION_DAY} to ${latest}, the day it was decided: ${r.date} is after the service's today (${at.slice(0, 10)})` }]
      : [],
  )
  if (issues.length > 0) {
    throw new InputError('invalid_request', `invalid request: ${fieldsOf(issues)}`, { issues })
  }
}

/**
 * Records of one import whose supersede links, read from both ends (`A.supersedes = B` and
 * `B.superseded_by = A` both say A replaces B), go round in a loop (`ADR-0010` supersedes
 * `ADR-0011`, which supersedes `ADR-0010`): no chain can show them, and each would stay in force
 * as the replacement of the other. A record's link to itself, or to what it both supersedes and
 * is superseded by, is refused by its schema; this refuses a loop across records, naming the
 * link of each record in it, and nothing is stored.
 */
function refuseSupersedeLoops(records: readonly ImportedDecision[]): void {
  const issues = supersedeLoops(records).map(({ path, message }) => ({ path, message }))
  if (issues.length > 0) {
    throw new InputError('invalid_request', `invalid request: ${fieldsOf(issues)}`, { issues })
  }
}

/**
 * The links of `records` that go round in a loop (see refuseSupersedeLoops), each named
 * `records.N.supersedes` or `records.N.superseded_by`; none when there is no loop. import-adr
 * leaves the records of a loop out with their files named, as it does a pair, and imports the rest.
 */
export function supersedeLoops(records: readonly ImportedDecision[]): Array<Issue & { record: number }> {
  // replaces.get(A) = [[B, the field that says so], ...]
  type Field = { path: string; record: number }
  const replaces = new Map<string, Array<[string, Field]>>()
  const add = (from: string, to: string, field: Field) => replaces.set(from, [...(replaces.get(from) ?? []), [to, field]])
  records.forEach((r, i) => {
    if (r.supersedes !== null && r.supersedes !== r.key) add(r.key, r.supersedes, { path: `records.${i}.supersedes`, record: i })
    if (r.superseded_by !== null && r.superseded_by !== r.key) add(r.superseded_by, r.key, { path: `records.${i}.superseded_by`, record: i })
  })
  const issues: Array<Issue & { record: number }> = []
  const named = new Set<string>()
  const done = new Set<string>()
  for (const start of replaces.keys()) {
    if (done.has(start)) continue
    // Depth-first from `start`, keeping the path walked: a key met again on it closes a loop.
    const walked: Array<{ key: string; via: Field | undefined }> = []
    const onPath = new Map<string, number>()
    const visit = (key: string, via: Field | undefined): void => {
      if (onPath.has(key)) {
        const loop = walked.slice(onPath.get(key))
        const keys = [...loop.map((l) => l.key), key].join(' → ')
        // The field of each link of the loop: the one that led to the next key, and the last back to `key`.
        for (const field of [...loop.slice(1).map((l) => l.via), via]) {
          if (field === undefined || named.has(field.path)) continue
          named.add(field.path)
          issues.push({ path: field.path, record: field.record, message: `the supersede links go round in a loop (${keys}): no chain can show it` })
        }
        return
      }
      if (done.has(key)) return
      onPath.set(key, walked.length)
      walked.push({ key, via })
      for (const [next, field] of replaces.get(key) ?? []) visit(next, field)
      walked.pop()
      onPath.delete(key)
      done.add(key)
    }
    visit(start, undefined)
  }
  return issues
}

/** The imported decisions stored, by the folder they were imported from. */
async function storedByFolder(tx: DecisionTransaction): Promise<Map<string, DecisionRecord[]>> {
  const byFolder = new Map<string, DecisionRecord[]>()
  for (const key of await tx.keys()) {
    const record = await tx.get(key)
    const folder = record?.imported?.folder
    if (record === undefined || folder === undefined) continue
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), record])
  }
  return byFolder
}

/**
 * The names under which records of `folder` were stored before (see ImportedDecisionSchema's
 * `aliases`): those the import names, and those an alias `*` + `/PATH` describes (any one
 * directory name, then PATH: a clone's name, which imports used to lead with) whose records
 * are all files of the folder now, each as it was imported. Another repository's folder at the
 * same path (both have `doc/adr/0001-record-architecture-decisions.md`, each of its day, or the
 * same one from a template) has other files or other contents, and is not this one. A folder
 * `moved` here in its repository is this one when every record stored from it is among those
 * imported, from a file of the same name, reading as it did or titled as it was; one with a
 * record of its own (another number, another file, another title and text) is another folder,
 * such as the other of a monorepo's two ADR folders numbered alike, and is left to the conflict.
 */
function formerNames(
  folder: string,
  aliases: readonly string[],
  records: readonly ImportedDecision[],
  files: readonly string[] | undefined,
  stored: Map<string, DecisionRecord[]>,
  at: string,
  moved: readonly string[] = [],
): string[] {
  const paths = aliases.filter((a) => a.startsWith('*/')).map((a) => a.slice(2))
  const present = new Set(files ?? records.map((r) => r.origin.path))
  const fingerprints = new Map(records.map((r) => [r.origin.path, importedRecord(r, at).imported?.fingerprint]))
  const named = aliases.filter((a) => !a.startsWith('*/'))
  for (const [name, held] of stored) {
    if (name === folder || named.includes(name)) continue
    const shaped = paths.some((p) => (p === '.' ? !name.includes('/') : name.endsWith(`/${p}`) && !name.slice(0, -p.length - 1).includes('/')))
    if (!shaped || !held.every((r) => present.has(r.imported?.path ?? ''))) continue
    // Every one as it was imported, not one: repositories made from one template share their first
    // records word for word, and with one alike another repository's edited record would replace
    // this one's. A folder changed since is left to the conflict, as before it was named by its remote.
    if (held.every((r) => r.imported?.fingerprint === fingerprints.get(r.imported?.path ?? ''))) named.push(name)
  }
  const byKey = new Map(records.map((r) => [r.key, r]))
  const here = (r: DecisionRecord) => {
    const now = byKey.get(r.key)
    if (now === undefined || now.origin.path !== r.imported?.path) return false
    return now.title === r.title || fingerprints.get(now.origin.path) === r.imported?.fingerprint
  }
  for (const name of moved) {
    const held = stored.get(name) ?? []
    if (name !== folder && !named.includes(name) && held.length > 0 && held.every(here)) named.push(name)
  }
  return named
}

/**
 * The records of the folders imported that were stored from a file no longer in the folder
 * (`files`, the folder's `.md` files), or from a section no longer in a log that is (`logs`, the
 * keys of every section of its DECISIONS.md files, read or not): still in force here, as nothing
 * revokes a decision but a decision, and reported so that someone does. Without `files`, which
 * files are left is not known; without a log's keys, which of its sections are.
 */
function missingFiles(
  folders: ReadonlyMap<string, readonly string[]>,
  records: readonly ImportedDecision[],
  { files, logs }: ImportOptions,
  stored: Map<string, DecisionRecord[]>,
): ImportReport['missing'] {
  if (files === undefined) return []
  const present = new Set(files)
  const sections = new Map((logs ?? []).map((log) => [log.path, new Set(log.keys)]))
  const incoming = new Set(records.map((r) => r.key))
  const missing: ImportReport['missing'] = []
  for (const [folder, names] of folders) {
    for (const record of [folder, ...names].flatMap((name) => stored.get(name) ?? [])) {
      const path = record.imported?.path ?? ''
      const held = sections.get(path)
      if (incoming.has(record.key) || (present.has(path) && (held === undefined || held.has(record.key)))) continue
      // Only the moves its lifecycle allows: a superseded or revoked decision is final.
      const moves = (['deprecated', 'revoked'] as const).filter((to) => canMove(record.status, to)).map((to) => (to === 'deprecated' ? 'deprecate' : 'revoke'))
      const gone = present.has(path)
        ? `the section of ${path} that ${record.key} was imported from is no longer in it`
        : `${path}, which ${record.key} was imported from, is no longer in the folder`
      missing.push({
        key: record.key,
        path,
        message: `${gone}; ${record.key} stays ${record.status}` + (moves.length === 0 ? '' : ` (${moves.join(' or ')} it if it no longer holds)`),
      })
    }
  }
  return missing
}

/**
 * The records of the folders imported whose file (or section of a log) is still in the folder but
 * that the import does not hold: the file could not be read now (a status mistyped, not UTF-8), by
 * key, with their file. What they link to keeps its links as stored: the file is not gone, and
 * says what it said when it could be read.
 */
function unreadRecords(
  folders: ReadonlyMap<string, readonly string[]>,
  records: readonly ImportedDecision[],
  { files, logs }: ImportOptions,
  stored: Map<string, DecisionRecord[]>,
): Map<string, string> {
  const unread = new Map<string, string>()
  if (files === undefined) return unread
  const present = new Set(files)
  const sections = new Map((logs ?? []).map((log) => [log.path, new Set(log.keys)]))
  const incoming = new Set(records.map((r) => r.key))
  // A record's file read now under another key (see rekeyedRecords) was read: the decision stored
  // from it is re-keyed, not unread.
  const read = new Set(records.map((r) => r.origin.path))
  for (const [folder, names] of folders) {
    for (const record of [folder, ...names].flatMap((name) => stored.get(name) ?? [])) {
      const path = record.imported?.path ?? ''
      const held = sections.get(path)
      if (held === undefined && read.has(path) && record.imported?.format !== 'decisions-md') continue
      if (!incoming.has(record.key) && present.has(path) && (held === undefined || held.has(record.key))) unread.set(record.key, path)
    }
  }
  return unread
}

/**
 * The decisions of the folders imported stored from a record's file (not a log's, whose sections
 * each have their own key) that the file now gives another key, by that key: a version before this
 * keyed `ADR-0013-use-postgres.md` by its whole name, now by its number, `ADR-0013` (an AXME Code
 * decision whose `id` was changed in its file alike). Only where the file's new key holds no
 * decision yet, and one decision alone was stored from the file: the import carries that one over
 * (carryOver) rather than leave it in force beside the new one, unsaid.
 */
async function rekeyedRecords(
  folders: ReadonlyMap<string, readonly string[]>,
  records: readonly ImportedDecision[],
  { logs }: ImportOptions,
  stored: Map<string, DecisionRecord[]>,
  get: (key: string) => Promise<DecisionRecord | undefined>,
): Promise<Map<string, DecisionRecord>> {
  const rekeyed = new Map<string, DecisionRecord>()
  const logPaths = new Set((logs ?? []).map((log) => log.path))
  const incoming = new Set(records.map((r) => r.key))
  for (const [folder, names] of folders) {
    const read = new Map<string, ImportedDecision[]>()
    for (const r of records) if (r.origin.folder === folder) read.set(r.origin.path, [...(read.get(r.origin.path) ?? []), r])
    const before = new Map<string, DecisionRecord[]>()
    for (const d of [folder, ...names].flatMap((name) => stored.get(name) ?? [])) {
      const path = d.imported?.path ?? ''
      if (!logPaths.has(path)) before.set(path, [...(before.get(path) ?? []), d])
    }
    for (const [path, held] of before) {
      const now = read.get(path) ?? []
      const [record] = now
      const [former] = held
      if (now.length !== 1 || held.length !== 1 || record === undefined || former === undefined) continue
      if (record.origin.format === 'decisions-md' || former.imported?.format === 'decisions-md') continue
      if (record.key === former.key || incoming.has(former.key) || (await get(record.key)) !== undefined) continue
      rekeyed.set(record.key, former)
    }
  }
  return rekeyed
}

/**
 * The decisions of the folders imported, in force or proposed, whose record's file is read now
 * under another key that a decision holds already, so that the file no longer updates them: one
 * carried over to `ADR-0013` (rekeyedRecords) whose file is keyed `ADR-0013-use-x` again once a
 * second file has the number 13, `ADR-0013-use-x` being superseded by it, which is final. Not a
 * file gone nor one that could not be read, and unsaid, it would stay in force while its file says
 * otherwise: each is a warning, at every import while it is so, as a file gone is. One carried over
 * now is said by its carry-over, and one whose new key is a conflict by its conflict.
 */
async function strandedRecords(
  folders: ReadonlyMap<string, readonly string[]>,
  records: readonly ImportedDecision[],
  { logs }: ImportOptions,
  stored: Map<string, DecisionRecord[]>,
  said: ReadonlySet<string>,
  get: (key: string) => Promise<DecisionRecord | undefined>,
): Promise<ImportReport['warnings']> {
  const warnings: ImportReport['warnings'] = []
  const logPaths = new Set((logs ?? []).map((log) => log.path))
  const incoming = new Set(records.map((r) => r.key))
  for (const [folder, names] of folders) {
    const read = new Map(records.filter((r) => r.origin.folder === folder && r.origin.format !== 'decisions-md').map((r) => [r.origin.path, r.key]))
    for (const d of [folder, ...names].flatMap((name) => stored.get(name) ?? [])) {
      const path = d.imported?.path ?? ''
      const key = read.get(path)
      if (key === undefined || logPaths.has(path) || d.imported?.format === 'decisions-md' || incoming.has(d.key) || said.has(d.key) || said.has(key)) continue
      if (d.status !== 'accepted' && d.status !== 'proposed') continue
      const holder = await get(key)
      if (holder === undefined) continue
      // The key the file has now holds a decision its file still updates (one left beside it at the
      // carry-over, its status moved here): two files sharing a number are not the cause, and
      // superseding this one by it carries it over. One final there is the number taken back.
      const fix =
        holder.status === 'superseded' || holder.status === 'revoked'
          ? `another file may have the number it was keyed by: give each its own, or revoke ${d.key} if it no longer holds`
          : `POST /v1/decisions/${d.key}/supersede {"by": "${key}"} to carry it over, or revoke the one that no longer holds`
      warnings.push({
        key: d.key,
        message: `its file ${path} is imported as ${key} now, a key held already (${holder.status}): ${d.key} stays ${d.status}, and its file no longer updates it (${fix})`,
      })
    }
  }
  return warnings
}

/**
 * Carries a decision stored under the key its file had (`former`) over to the key the file has now
 * (`key`, the record just created from it), so that one copy of it is in force, not two: one
 * accepted (or deprecated) is superseded by the new key, which supersedes it back where its file
 * names no predecessor of its own, so that `why` of either gives the chain; a proposal is revoked,
 * replaced; one superseded or revoked already is final, and stays. One whose status was moved here
 * (accepted over the API while its file said proposed) stays as it is, the import taking no step
 * back: the warning says what to run, unless its file now says that status too. One deprecated,
 * revoked or superseded here while its file still says it is in force gives the new key that
 * status (`kept`), and its successor: the file would otherwise put a decision retired here back in
 * force under its new key. Each is said, per former key.
 */
function carryOver(
  former: DecisionRecord,
  created: DecisionRecord,
  at: string,
): {
  moved?: { record: DecisionRecord; event: DecisionEvent }
  kept?: { status: DecisionStatus; superseded_by: string | null }
  linked: boolean
  warning: string
} {
  const key = created.key
  const path = former.imported?.path ?? ''
  const now = `its file ${path} is imported as ${key} now`
  const reason = `re-keyed by the import: ${path}, imported as ${former.key} before, is imported as ${key} now`
  const said = former.imported?.status
  const inForce = created.status === 'accepted' || created.status === 'proposed'
  if (said !== undefined && former.status !== said && RETIRED.has(former.status) && inForce) {
    const by = former.status === 'superseded' ? former.superseded_by : null
    return {
      kept: { status: former.status, superseded_by: by },
      linked: false,
      warning:
        `${now}, but ${former.key} was ${former.status} here while its file said ${said}, which the import does not take back: ` +
        `${key} is ${former.status} too` + (by === null ? '' : `, by ${by}`),
    }
  }
  // Moved here, and the file since says so too (its proposal accepted here, then marked Accepted):
  // nothing of the store's to take back, so carried over as any other, not left in force beside it.
  if (said !== undefined && former.status !== said && former.status !== created.status && canMove(former.status, 'superseded')) {
    return {
      linked: false,
      warning:
        `${now}, but ${former.key} was ${former.status} here while its file said ${said}, which the import does not take back: ` +
        `${former.key} stays ${former.status} beside ${key} (POST /v1/decisions/${former.key}/supersede {"by": "${key}"} to carry it over, or revoke the one that no longer holds)`,
    }
  }
  if (canMove(former.status, 'superseded')) {
    const linked = created.supersedes === null
    return {
      moved: transition(former, 'superseded', at, { by: key, reason }),
      linked,
      warning: `${now}; ${former.key} is superseded by ${key}` + (linked ? `, which supersedes it (why ${key} gives both)` : ` (why ${former.key} gives the chain to ${key})`),
    }
  }
  if (canMove(former.status, 'revoked')) {
    return { moved: transition(former, 'revoked', at, { reason }), linked: false, warning: `${now}; the proposal ${former.key} is revoked, replaced by ${key}` }
  }
  return { linked: false, warning: `${now}; ${former.key} stays ${former.status}, which is final, beside it` }
}

/**
 * A transaction that writes nothing to `tx`: what is put is read back from it alone, and events
 * are dropped, so that a dry run of an import reads the decisions it would write as it would.
 */
function unwritten(tx: DecisionTransaction): DecisionTransaction {
  const puts = new Map<string, DecisionRecord>()
  return {
    async get(key) {
      const own = puts.get(key)
      return own === undefined ? tx.get(key) : structuredClone(own)
    },
    async keys() {
      return [...new Set([...puts.keys(), ...(await tx.keys())])].sort()
    },
    put(record) {
      puts.set(record.key, structuredClone(record))
    },
    append() {},
  }
}

/** The statuses of a decision no longer in force, which a re-keyed file does not put back in force (carryOver). */
const RETIRED: ReadonlySet<DecisionStatus> = new Set(['deprecated', 'revoked', 'superseded'])

/** One imported record merged with what is stored under its key. */
interface Merge {
  key: string
  stored: DecisionRecord | undefined
  merged: MergedImport
  /** A conflict with a folder of the repository gone from it (`moved`) that was not taken for this one. */
  movedAway?: boolean
}

/**
 * Settles the supersede links of the records an import writes, so that every chain reads alike
 * from both ends and names only the decisions it means (R-CON-5); what is left out is a warning.
 */
async function settleLinks(merges: readonly Merge[], get: (key: string) => Promise<DecisionRecord | undefined>): Promise<void> {
  const written = new Map(merges.flatMap((m) => (m.merged.record === undefined ? [] : [[m.key, m.merged.record] as const])))
  const current = async (key: string) => written.get(key) ?? (await get(key))
  const others = new Set(merges.filter((m) => m.merged.outcome === 'conflict').map((m) => m.key))
  for (const { key, stored, merged } of merges) {
    const record = merged.record
    if (record === undefined) continue
    // A key left out as a conflict holds a decision from elsewhere (another folder numbered
    // alike, the API): not the one the folder's links mean.
    for (const field of ['supersedes', 'superseded_by'] as const) {
      const target = record[field]
      if (target === null || !others.has(target) || stored?.[field] === target) continue
      merged.warnings.push(`${field} ${target} is left out: the ${target} stored is another decision (see its conflict)`)
      record[field] = null
    }
    // A predecessor that stays superseded by this record (superseded is final) keeps it as its
    // successor: the link stays on this side too, whatever the file now says.
    const replaced = stored?.supersedes ?? null
    const predecessor = replaced === null || record.supersedes === replaced ? undefined : await current(replaced)
    if (predecessor?.status === 'superseded' && predecessor.superseded_by === key) {
      merged.warnings.push(`${key} still supersedes ${replaced}: ${replaced} stays superseded by it, which is final`)
      record.supersedes = replaced
    }
    // A link whose other end names another decision is a competing claim (two successors of one
    // decision, as when the repository names one and the API superseded it by another): the other
    // end's link stands, and this one is left out.
    for (const [field, back] of [['supersedes', 'superseded_by'], ['superseded_by', 'supersedes']] as const) {
      const target = record[field]
      const other = target === null ? undefined : await current(target)
      const claim = other?.[back]
      if (target === null || claim === undefined || claim === null || claim === key || stored?.[field] === target) continue
      merged.warnings.push(`${field} ${target} is left out: ${target} is linked to ${claim} instead (${back})`)
      record[field] = null
    }
    // What the event says it changed, and kept as it was for replays, is what changes after the links are settled.
    if (merged.event !== undefined && stored !== undefined) {
      const { before: _settled, ...event } = merged.event
      merged.event = withBefore({ ...event, changed: changedFields(stored, record) }, stored, record)
    }
  }
}

/**
 * A successor a record's file no longer names (`Superseded by` 0010 become 0011: a successor
 * renumbered) would still name the record in its `supersedes`, a second claim on it, and its
 * chain would read otherwise than the record's (R-CON-5). It keeps its status and no longer
 * supersedes the record: one of the folder is updated so, and one not imported now (its file gone)
 * is written so (`reimported`, the link kept in `before` for replays), with a warning either way.
 */
async function releaseFormerSuccessors(
  merges: Merge[],
  get: (key: string) => Promise<DecisionRecord | undefined>,
  at: string,
): Promise<Array<{ record: DecisionRecord; event: DecisionEvent; warning: string }>> {
  const byKey = new Map(merges.map((m) => [m.key, m]))
  const released: Array<{ record: DecisionRecord; event: DecisionEvent; warning: string }> = []
  for (const { key, stored, merged } of merges) {
    const former = stored?.superseded_by ?? null
    const now = merged.record?.superseded_by
    if (former === null || now === undefined || now === former) continue
    const warning = `${former} no longer supersedes ${key}: the record of ${key} names ${now === null ? 'no successor' : `${now} as its successor`} now`
    const other = byKey.get(former)
    if (other?.merged.outcome === 'conflict' || other?.merged.outcome === 'created') continue
    const written = other?.merged.record
    if (written !== undefined) {
      if (written.supersedes !== key || other?.stored === undefined) continue
      written.supersedes = null
      other.merged.warnings.push(warning)
      if (other.merged.event !== undefined) {
        const { before: _settled, ...event } = other.merged.event
        other.merged.event = withBefore({ ...event, changed: changedFields(other.stored, written) }, other.stored, written)
      }
      continue
    }
    const held = other?.stored ?? (await get(former))
    if (held === undefined || held.supersedes !== key) continue
    const record: DecisionRecord = { ...held, supersedes: null, version: held.version + 1, updated_at: at }
    const event: DecisionEvent = { key: former, seq: record.version, at, type: 'reimported', from: held.status, to: held.status, changed: ['supersedes'] }
    if (other !== undefined) {
      // A record of the folder read unchanged: it is updated now.
      other.merged.outcome = 'updated'
      other.merged.record = record
      other.merged.event = withBefore(event, held, record)
      other.merged.warnings.push(warning)
    } else {
      released.push({ record, event: withBefore(event, held, record), warning })
    }
  }
  return released
}

/**
 * A folder gone (`moved`), as a conflict says it: one of its repository (`github.com/acme/shop/doc/adr`),
 * or, named by its absolute path outside any repository, one no longer there.
 */
function goneSaid(folder: string): string {
  return /^(?:\/|[A-Za-z]:[\\/])/.test(folder) ? 'a folder no longer there' : 'a folder the repository no longer has'
}

/**
 * A folder imported for the first time whose keys another folder's records hold is numbered like
 * that folder (a monorepo's second doc/adr): taking the records whose numbers happen to be free
 * would mix the two, and the --prefix the conflicts advise would then store those a second time.
 * So is one whose keys decisions made over the API hold (an AXME Code folder's `D-001` beside the
 * API's own `D-001`): the --prefix advised would store the others a second time, and import-adr
 * refuses a folder imported before under another prefix.
 * Nothing of it is stored: every record is a conflict. A folder imported before goes on record by record.
 */
function refusedFolder(merges: readonly Merge[]): ImportReport['conflicts'] | undefined {
  const made = (m: Merge) => m.merged.outcome === 'conflict' && m.stored !== undefined && m.stored.imported === null
  const clashes = merges.filter((m) => m.merged.elsewhere !== undefined || made(m))
  const known = merges.some((m) => m.merged.outcome === 'updated' || m.merged.outcome === 'unchanged')
  if (clashes.length === 0 || known) return undefined
  // Five of them, then how many more, as import-adr's problem lines list keys: each other record's
  // line named them all, a folder of 2,000 numbered alike some 20 KB a line, 40 MB in all.
  const taken = shortList(clashes.map((m) => m.key))
  // A folder the repository no longer has is no second folder to import beside it with --prefix.
  const belong = clashes.length === 1 ? 'belongs' : 'belong'
  const whose = [
    ...(clashes.some((m) => m.merged.elsewhere !== undefined) ? ["another folder's records"] : []),
    ...(clashes.some(made) ? ['decisions not made by an import'] : []),
  ].join(' and ')
  const advice = clashes.every((m) => m.movedAway === true)
    ? `${belong} to the records of ${[...new Set(clashes.map((m) => goneSaid(m.stored?.imported?.folder ?? '')))].join(' or ')} (see their conflicts)`
    : `${belong} to ${whose}; import this one with --prefix`
  return merges.map(({ key, merged }) => ({
    key,
    message:
      merged.outcome === 'conflict'
        ? `${key} exists and ${merged.reason ?? 'is not this record'}; it is left as it is`
        : `${key} is not imported either: ${taken} of this folder ${advice}`,
  }))
}

/**
 * The decisions' use cases over their store. `policy`: the one the recommendations follow, whose
 * point's static default a checked choice is read among, as a recommendation reads the offer.
 */
export function createDecisions(deps: { store: DecisionStore; clock: Clock; policy: CompiledPolicy; matchPatterns?: MatchPatterns }): Decisions {
  const { store, clock, policy } = deps
  // A must_not pattern runs with a time limit: it is written by whoever may write decisions.
  const matchPatterns = deps.matchPatterns ?? matchWithin()

  async function view(key: string): Promise<DecisionView> {
    const record = await store.get(key)
    if (record === undefined) throw await missing(key, undefined)
    return shown({ ...record, events: await store.events(key) })
  }

  /**
   * Accepts a decision inside a transaction, superseding the decision it names (R-CON-1a).
   * `stored` is the decision as stored, when `record` carries a link set with the acceptance
   * (/supersede of a proposal): the event keeps what that changed in `before`, for replays.
   */
  async function acceptIn(
    tx: DecisionTransaction,
    record: DecisionRecord,
    at: string,
    reason?: string,
    stored: DecisionRecord = record,
    /** The request's field that named the predecessor: `supersedes`, or the `key` of /supersede. */
    predecessorPath = 'supersedes',
    /**
     * The reason of the predecessor's `superseded` step: /supersede's, which names it, as when it
     * links an accepted decision; else `superseded by <key>` (an /accept's reason is the proposal's).
     */
    predecessorReason?: string,
  ) {
    // A predecessor already superseded by this very decision (a record imported "Superseded by"
    // it before it was accepted) stays as it is: accepting it completes that link. One revoked
    // since the proposal was made has nothing left to be replaced (revoked is final): the proposal
    // is accepted on its own, and keeps naming it as the decision it was meant to replace.
    const predecessor = record.supersedes === null ? undefined : await required(tx, record.supersedes, 'supersedes')
    const linked = predecessor?.status === 'superseded' && predecessor.superseded_by === record.key
    const replaces = predecessor !== undefined && predecessor.status !== 'revoked'
    const accepted = transition(record, 'accepted', at, { reason, supersedes: replaces ? (record.supersedes ?? undefined) : undefined })
    if (predecessor !== undefined && replaces && !linked) {
      if (predecessor.superseded_by !== null) {
        throw new InputError('already_superseded', `${predecessor.key} is already superseded by ${predecessor.superseded_by}`, {
          status: 409,
          issues: [{ path: predecessorPath, message: `${predecessor.key} was replaced by ${predecessor.superseded_by}` }],
        })
      }
      const replaced = transition(predecessor, 'superseded', at, { by: record.key, reason: predecessorReason ?? `superseded by ${record.key}`, path: predecessorPath })
      tx.put(replaced.record)
      tx.append(replaced.event)
    }
    tx.put(accepted.record)
    const { before: _fromRecord, ...event } = accepted.event
    tx.append(withBefore(event, stored, accepted.record))
  }

  function move(to: 'deprecated' | 'revoked') {
    return async (key: string, input: { reason?: string | undefined } = {}) => {
      await store.transact(async (tx) => {
        const moved = transition(await required(tx, key), to, clock.now().toISOString(), { reason: input.reason })
        tx.put(moved.record)
        tx.append(moved.event)
      })
      return view(key)
    }
  }

  /** A decision with its history: as it is, or with `asOf` as it stood then (undefined if it did not exist yet). */
  async function load(key: string, asOf: Date | undefined): Promise<{ record: DecisionRecord; events: DecisionEvent[]; unrecorded: string[] } | undefined> {
    const record = await store.get(key)
    if (record === undefined) return undefined
    const events = await store.events(key)
    return asOf === undefined ? { record, events, unrecorded: [] } : decisionAt(record, events, asOf)
  }

  type Loaded = NonNullable<Awaited<ReturnType<typeof load>>>

  /** A key not found as of `asOf`: one made later is said to be missing then, one never made is missing. */
  async function missing(key: string, asOf: Date | undefined): Promise<InputError> {
    if (asOf !== undefined && (await store.get(key)) !== undefined) return notFound(key, 'key', asOf)
    // Never made: a key made otherwise in case or zeros is named, rather than leave a typo to be looked
    // for; in a replay, one there then: one made since sent the auditor to another 404.
    const like = keysLike(key, (await store.list()).map((d) => d.key))
    const then: string[] = []
    for (const k of like) if (asOf === undefined || (await load(k, asOf)) !== undefined) then.push(k)
    return notFound(key, 'key', undefined, then)
  }

  /** The moment of an audit: `as_of` checked as every `as_of` is (R-REC-9); undefined without one. */
  const auditAt = (options: AsOf): Date | undefined => checkTimestamp(options.as_of, clock.now(), 'as_of')

  /** The decisions that existed at `asOf`, as they stood then (see decisionAt). */
  async function asTheyStood(records: readonly DecisionRecord[], asOf: Date): Promise<ApplicableDecision[]> {
    const then: ApplicableDecision[] = []
    for (const d of records) {
      const at = decisionAt(d, await store.events(d.key), asOf)
      if (at === undefined) continue
      then.push(at.unrecorded.length === 0 ? at.record : { ...at.record, unrecorded: at.unrecorded })
    }
    return then
  }

  /**
   * The accepted decisions that applied to a run: now, or at `asOf` as they stood then (one
   * accepted later did not apply, one superseded or revoked later did).
   */
  async function inForce(run: ApplicabilityQuery, asOf: Date | undefined): Promise<ApplicableDecision[]> {
    if (asOf === undefined) return (await acceptedNow()).filter((d) => applies(d, run))
    return (await asTheyStood(await store.list(), asOf)).filter((d) => applies(d, run))
  }

  /**
   * The accepted decisions (at `asOf`, as they stood then) stored with a glob as their path scope
   * that a run with a path would be in but for it: a check allowed for want of them says why
   * (see scopeWarning). None for a run that names no path, which no path scope holds anyway.
   * The glob is read as the folder above its first wildcard (`src/billing` of `src/billing/**`,
   * the root of `**\/*.ts`): a version before this said it of every run with a path, `docs/x.md`
   * and `/home/me` too, whatever glob it was, at every command the guard checks. Only those the
   * check would have reached (reachedBy): a `must` at a point said nothing of a command. Each with
   * its scope read as that folder, as the check would read it (see check: said only where it acts).
   */
  async function globScoped(
    run: ApplicabilityQuery & Parameters<typeof reachedBy>[1],
    asOf: Date | undefined,
  ): Promise<Array<{ folderRead: DecisionRecord; message: string }>> {
    if (run.path === undefined) return []
    const globbed = (d: DecisionRecord) => scopeWarning(d) !== undefined
    const candidates = asOf === undefined ? await acceptedNow(globbed) : await asTheyStood((await store.list()).filter(globbed), asOf)
    return candidates.flatMap((d) => {
      if (d.scope.path === null || applies(d, run)) return []
      const folderRead = { ...d, scope: { ...d.scope, path: globMeant(d.scope.path) } }
      return applies(folderRead, run) && reachedBy(d, run) ? [{ folderRead, message: scopeWarning(d) as string }] : []
    })
  }

  /** The accepted decisions as last read, while no commit of decisions has started or ended since. */
  let accepted: { changes: number; records: DecisionRecord[] } | undefined

  /**
   * The accepted decisions now. Listing them reads every decision, superseded and revoked ones
   * too, and the guard asks for them at every shell command (100-150 ms with 6,000 decisions):
   * they are read again only once the decisions changed. A copy each time, for the caller's own.
   */
  async function acceptedNow(only?: (d: DecisionRecord) => boolean): Promise<DecisionRecord[]> {
    const before = store.changes()
    if (accepted?.changes === before) return structuredClone(only === undefined ? accepted.records : accepted.records.filter(only))
    const records = await store.list({ status: 'accepted' })
    // Kept only when no commit started or ended during the read: it is then what the store holds.
    accepted = store.changes() === before ? { changes: before, records: structuredClone(records) } : undefined
    return only === undefined ? records : records.filter(only)
  }

  /** The decisions that name one they supersede, or are proposed, as last read (see linkingNow). */
  let linking: { changes: number; records: Promise<DecisionRecord[]> } | undefined

  /**
   * The decisions that name one they supersede, or are proposed: those a proposal pending on a
   * chain is found among, now or as of a moment. Read once per change of the decisions, and once
   * for the calls made while it is read: a point's why asks for those of each decision bound to it
   * at once, and each read every decision (30 bound, of 3,000 imported, made it 1.1 s from 0.2 s).
   * A read that a commit started or ended during is not kept past it: the count has moved.
   */
  function linkingNow(): Promise<DecisionRecord[]> {
    const before = store.changes()
    if (linking?.changes === before) return linking.records
    const read = store.list().then((all) => all.filter((d) => d.supersedes !== null || d.status === 'proposed'))
    const kept = { changes: before, records: read }
    linking = kept
    // A read that failed is not kept for the next call to fail on.
    read.catch(() => {
      if (linking === kept) linking = undefined
    })
    return read
  }

  /**
   * The proposals that would supersede a link of `links` and are not among them, oldest first, each
   * with what accepting it would not do (pendingWarning, of the link as it stood): now, or at
   * `asOf` as they stood then. Then, only those that could have been one are rebuilt: made by
   * then, not links of the chain themselves, and naming a link of it they supersede now (a
   * proposal's link stays as it is once accepted) or still proposed. Rebuilding the history of
   * every decision that supersedes one (an imported folder's thousands) for each link of a point's
   * why would make an audit slow; missed is only a proposal whose link a re-import changed since.
   */
  async function pendingOn(links: readonly ChainLink[], asOf: Date | undefined): Promise<PendingProposal[]> {
    const byKey = new Map(links.map((link) => [link.key, link]))
    const read = await linkingNow()
    let records: DecisionRecord[]
    if (asOf === undefined) records = read.filter((d) => d.status === 'proposed')
    else {
      const candidates = read.filter(
        (d) => Date.parse(d.created_at) <= asOf.getTime() && !byKey.has(d.key) && ((d.supersedes !== null && byKey.has(d.supersedes)) || d.status === 'proposed'),
      )
      records = (await asTheyStood(candidates, asOf)).filter((d) => d.status === 'proposed')
    }
    return records
      .filter((d): d is DecisionRecord & { supersedes: string } => d.supersedes !== null && byKey.has(d.supersedes) && !byKey.has(d.key))
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || compareKeys(a.key, b.key))
      .map((d) => {
        const warning = pendingWarning(byKey.get(d.supersedes) as ChainLink)
        const pending = { key: d.key, title: d.title, enforce: d.enforce, date: d.date, decision: d.decision, rationale: d.rationale, supersedes: d.supersedes, proposed_at: d.created_at }
        return warning === undefined ? pending : { ...pending, warning }
      })
  }

  /** A decision bound to no point with a limit: checked at every point (see globalLimits). */
  const globalLimit = (d: DecisionRecord) => d.scope.points.length === 0 && d.constraints.some((c) => c.kind === 'limit' && c.value !== undefined)

  /** Reads a decision as `load` does, each key once: the whys of a point's decisions read their shared chain once (see whyEach). */
  type Read = (key: string) => Promise<Loaded | undefined>

  function readOnce(asOf: Date | undefined): Read {
    const read = new Map<string, Promise<Loaded | undefined>>()
    return (key) => {
      let loaded = read.get(key)
      if (loaded === undefined) read.set(key, (loaded = load(key, asOf)))
      return loaded
    }
  }

  async function chainOf(start: Loaded, read: Read, joined = true): Promise<Loaded[]> {
    const chain = [start]
    const seen = new Set([start.record.key])
    for (let at = start; at.record.supersedes !== null && !seen.has(at.record.supersedes); ) {
      const previous = await read(at.record.supersedes)
      if (previous === undefined) break
      const replacement = previous.record.superseded_by
      if (joined && at.record.status !== 'accepted' && replacement !== null && replacement !== at.record.key && !seen.has(replacement)) {
        // A proposal (or one rejected) naming a decision another one replaced: that one's chain is
        // the history it would join, read as the predecessor's own why reads it, this one after it.
        // (An accepted one so linked, which the lifecycle and the import do not make, reads as before.)
        const base = (await chainOf(previous, read, false)).filter((link) => !seen.has(link.record.key))
        chain.unshift(...base)
        for (const link of base) seen.add(link.record.key)
        break
      }
      chain.unshift(previous)
      seen.add(previous.record.key)
      at = previous
    }
    for (let at = start; at.record.superseded_by !== null && !seen.has(at.record.superseded_by); ) {
      const next = await read(at.record.superseded_by)
      if (next === undefined) break
      chain.push(next)
      seen.add(next.record.key)
      at = next
    }
    return chain
  }

  async function whyOf(key: string, asOf: Date | undefined, read: Read): Promise<DecisionWhy> {
    const readAt = (asOf ?? clock.now()).toISOString()
    const start = await read(key)
    if (start === undefined) throw await missing(key, asOf)
    const record = start.record
    const chain = await chainOf(start, read)
    const links = await Promise.all(
      chain.map(async ({ record: d, events: history }): Promise<ChainLink> => {
        const warning = scopeWarning(d)
        return {
          key: d.key,
          title: d.title,
          status: d.status,
          enforce: d.enforce,
          date: d.date,
          decision: d.decision,
          rationale: d.rationale,
          accepted_at: history.find((e) => e.to === 'accepted' && e.from !== 'accepted')?.at ?? null,
          superseded_at: history.find((e) => e.to === 'superseded')?.at ?? null,
          deprecated_at: history.find((e) => e.to === 'deprecated' && e.from !== 'deprecated')?.at ?? null,
          revoked_at: history.find((e) => e.to === 'revoked')?.at ?? null,
          reason: history.findLast((e) => e.to === d.status && e.from !== d.status)?.reason ?? null,
          supersedes: d.supersedes,
          superseded_by: d.superseded_by,
          source: d.source,
          evidence: d.evidence,
          ...(warning === undefined ? {} : { scope_warning: warning }),
        }
      }),
    )
    return {
      key,
      as_of: readAt,
      current: (chain[chain.length - 1] as Loaded).record.key,
      in_force: links.findLast((link) => link.status === 'accepted')?.key ?? null,
      chain: links,
      proposals: await pendingOn(links, asOf),
      rationale: record.rationale,
      evidence: record.evidence,
      events: start.events,
      ...(start.unrecorded.length === 0 ? {} : { unrecorded: start.unrecorded }),
    }
  }

  const decisions: Decisions = {
    async propose(input) {
      const at = clock.now().toISOString()
      const key = await store.transact(async (tx) => {
        const key = input.key ?? nextKey(await tx.keys())
        if ((await tx.get(key)) !== undefined) {
          throw new InputError('decision_exists', `decision ${key} exists already`, {
            status: 409,
            issues: [{ path: 'key', message: `${key} is taken; leave key out to get a new one` }],
          })
        }
        // Named as what it replaces, it would be told it does not exist yet (404), not what is wrong.
        if (input.supersedes === key) {
          throw new InputError('invalid_decision', `${key} cannot supersede itself`, {
            issues: [{ path: 'supersedes', message: 'name another decision' }],
          })
        }
        if (input.supersedes != null) await required(tx, input.supersedes, 'supersedes')
        const { record, event } = proposal(input, key, at)
        tx.put(record)
        tx.append(event)
        if (input.status === 'accepted') await acceptIn(tx, record, at)
        return key
      })
      return view(key)
    },

    async accept(key, input = {}) {
      await store.transact(async (tx) => acceptIn(tx, await required(tx, key), clock.now().toISOString(), input.reason))
      return view(key)
    },

    async supersede(key, input) {
      if (input.by === key) {
        throw new InputError('invalid_decision', `${key} cannot supersede itself`, {
          issues: [{ path: 'by', message: 'name another decision' }],
        })
      }
      const at = clock.now().toISOString()
      await store.transact(async (tx) => {
        const old = await required(tx, key)
        const replacement = await required(tx, input.by, 'by')
        if (replacement.supersedes !== null && replacement.supersedes !== key) {
          throw new InputError('supersedes_another', `${replacement.key} already supersedes ${replacement.supersedes}`, {
            status: 409,
            issues: [{ path: 'by', message: `${replacement.key} replaces ${replacement.supersedes}, not ${key}` }],
          })
        }
        if (replacement.status === 'proposed') {
          // Superseding a revoked decision is no step of the lifecycle, asked by name (a 409).
          if (old.status === 'revoked') transition(old, 'superseded', at, { path: 'key' })
          await acceptIn(tx, { ...replacement, supersedes: key }, at, input.reason, replacement, 'key', input.reason)
          return
        }
        if (replacement.status !== 'accepted') {
          throw new InputError('invalid_transition', `${replacement.key} is ${replacement.status}; only a proposed or accepted decision can replace another`, {
            status: 409,
            issues: [{ path: 'by', message: `${replacement.key} is ${replacement.status}` }],
          })
        }
        if (old.superseded_by !== null) {
          throw new InputError('already_superseded', `${key} is already superseded by ${old.superseded_by}`, {
            status: 409,
            issues: [{ path: 'key', message: `${key} was replaced by ${old.superseded_by}` }],
          })
        }
        const replaced = transition(old, 'superseded', at, { by: replacement.key, reason: input.reason ?? `superseded by ${replacement.key}`, path: 'key' })
        const seq = replacement.version + 1
        tx.put(replaced.record)
        tx.append(replaced.event)
        const next = { ...replacement, supersedes: key, version: seq, updated_at: at }
        tx.put(next)
        const linked: DecisionEvent = { key: replacement.key, seq, at, type: 'linked', from: 'accepted', to: 'accepted', supersedes: key }
        if (input.reason !== undefined) linked.reason = input.reason
        tx.append(withBefore(linked, replacement, next))
      })
      return view(key)
    },

    deprecate: move('deprecated'),
    revoke: move('revoked'),

    async get(key, options = {}) {
      const asOf = auditAt(options)
      if (asOf === undefined) return view(key)
      const then = await load(key, asOf)
      if (then === undefined) throw await missing(key, asOf)
      return shown({ ...then.record, events: then.events, ...(then.unrecorded.length === 0 ? {} : { unrecorded: then.unrecorded }) })
    },

    async list(filter = {}) {
      const { as_of, status, point } = filter
      const asOf = auditAt({ as_of })
      if (asOf === undefined) return (await store.list({ status, point })).map(shown)
      // Read as they stood then: a decision accepted since was proposed then, one superseded since was accepted.
      const then = point === undefined ? await asTheyStood(await store.list(), asOf) : await decisions.boundAt(point, asOf)
      return (status === undefined ? then : then.filter((d) => d.status === status)).map(shown)
    },

    async applicable(query, { count = true } = {}) {
      const { as_of, ...run } = query
      const asOf = auditAt({ as_of })
      const found = await inForce(run, asOf)
      // An audit reads: it counts no pulse (R-CON-4's pulses are the runs decisions reached).
      if (asOf !== undefined || !count) return found.map(shown)
      await store.pulse(
        found.map((d) => d.key),
        'applicable',
        clock.now().toISOString(),
      )
      return found.map(shown)
    },

    async atPoint({ point, context, asOf }) {
      const run = { ...runOfContext(context), point }
      if (asOf !== undefined) {
        // A replay reads the decisions as they stood then (status, enforce level, scope,
        // constraints, last change), not as they are now.
        return (await decisions.boundAt(point, asOf)).filter((d) => applies(d, run))
      }
      const bound = await store.list({ point })
      const found = bound.filter((d) => applies(d, run))
      if (found.length > 0) {
        await store.pulse(
          found.map((d) => d.key),
          'recommendation',
          clock.now().toISOString(),
        )
      }
      return found
    },

    async globalLimits({ context, asOf }) {
      const run = runOfContext(context)
      if (asOf === undefined) return (await acceptedNow(globalLimit)).filter((d) => applies(d, run))
      // Scope and constraints never change once made; the enforce level and status are those of then.
      return (await asTheyStood((await store.list()).filter(globalLimit), asOf)).filter((d) => applies(d, run))
    },

    changes() {
      return store.changes()
    },

    async check(request) {
      // The user only says how the point was asked (latest_multi_select, read by DecisionMemory.check): no decision is one user's.
      const { as_of, all_options, multi_select: said, multiSelect, user: _user, latest_multi_select, ...run } = request
      const asOf = auditAt({ as_of })
      // Either spelling, as a recommendation takes it; the two different are refused naming multiSelect.
      const multi_select = multiSelectOf({ multi_select: said, multiSelect })
      // Normalised and refused as a recommendation's (a duplicate named at all_options.N), before any pulse is counted.
      const offered = all_options === undefined ? undefined : offeredOptions(all_options).map((o) => o.option)
      refuseSeveralAtSingleSelect(run.choice, run.point, multi_select, offered, policy)
      // At each point the choice is read at: its own, or, at no point, each of the decisions' points.
      const defaultAt = (point: string) => pointPolicy(point, policy)?.static_default
      const found = await inForce(run, asOf)
      // As the check says its question was, else as the point's policy says, as capture reads it:
      // one label of a multi-select question is a choice of that one option (must include, and
      // musts of two options do not contradict there), and an answer joined with ", " (as
      // AskUserQuestion gives one) the labels it joins, split among the options known; an array
      // of one at a single-select question is that option (must be, and they do).
      // Neither saying, a string as the user's latest own choice at the point was asked, as capture reads it.
      const readAs = multi_select ?? (run.point === undefined ? undefined : pointPolicy(run.point, policy)?.multi_select) ?? latest_multi_select
      if (readAs === true && typeof run.choice === 'string') run.choice = joinedLabels(run.choice, offered ?? optionsNamed(found, run.point, defaultAt))
      else if (readAs === false && Array.isArray(run.choice)) run.choice = run.choice[0]
      const checked = checkAgainst(found, { ...run, offered }, matchPatterns, defaultAt)
      if (asOf === undefined) await store.pulse(checked.checked, 'check', clock.now().toISOString())
      const conflicts = run.point === undefined || run.choice === undefined ? [] : conflictsAt(found, run.point, offered, defaultAt(run.point), typeof run.choice !== 'string')
      const verdict = conflicts.length === 0 ? checked : { ...checked, conflicts }
      const globbed = await globScoped(run, asOf)
      if (globbed.length === 0) return verdict
      // Said only of those that would have blocked or warned, their scope read as their folder: a
      // version before this said it of every command run there (`ls`, `cat`), whatever the pattern,
      // so that the guard's message came at each one and was read as noise. Checked beside the
      // decisions in force, which name the options a choice is read among (their patterns are not
      // tested again: what they say is in the verdict already).
      const naming = found.map((d) => ({ ...d, constraints: d.constraints.filter((c) => c.kind !== 'must_not' || c.pattern === undefined) }))
      const would = checkAgainst([...globbed.map((g) => g.folderRead), ...naming], { ...run, offered }, matchPatterns, defaultAt)
      const acting = new Set([...would.blocked_by, ...would.warnings].map((v) => v.key))
      const unchecked = globbed.filter((g) => acting.has(g.folderRead.key)).map((g) => ({ key: g.folderRead.key, message: g.message }))
      return unchecked.length === 0 ? verdict : { ...verdict, scope_warnings: unchecked }
    },

    async pulses() {
      const [records, pulses] = await Promise.all([store.list(), store.pulses()])
      const byKey = new Map(pulses.map((p) => [p.key, p]))
      const decisions = records.map((r) => {
        const p = byKey.get(r.key)
        return {
          key: r.key,
          title: r.title,
          status: r.status,
          enforce: r.enforce,
          count: p?.count ?? 0,
          by: p?.by ?? { applicable: 0, recommendation: 0, check: 0 },
          first_at: p?.first_at ?? null,
          last_at: p?.last_at ?? null,
        }
      })
      return {
        decisions,
        never_reached: decisions.filter((d) => d.status === 'accepted' && d.count === 0).map((d) => d.key),
      }
    },

    async boundAt(point, asOf) {
      return (await asTheyStood(await store.list({ point }), asOf)).filter((d) => d.scope.points.includes(point))
    },

    async why(key, options = {}) {
      const asOf = auditAt(options)
      return whyOf(key, asOf, readOnce(asOf))
    },

    async whyEach(keys, options = {}) {
      const asOf = auditAt(options)
      // One read of each decision for all of them: every version of a decision is bound to its
      // point, and each one's chain is the whole chain, read again for each (n² reads of n links).
      const read = readOnce(asOf)
      return Promise.all(keys.map((key) => whyOf(key, asOf, read)))
    },

    async import(records, options = {}) {
      refuseKeysSentTwice(records)
      refuseSupersedeLoops(records)
      // An evidence hash that is not its content's, named in the record that has it (read later
      // without the record's place, it was named `evidence.0.hash`, a field no import body has).
      records.forEach((r, i) => evidenceOf(r.evidence, `records.${i}.evidence`))
      const at = clock.now().toISOString()
      refuseDatesAfterTomorrow(records, at)
      return store.transact(async (written) => {
        // A dry run reads what it would write as written, within it alone (a carry-over reads the
        // decision it superseded), and leaves the store as it is.
        const tx = options.dryRun === true ? unwritten(written) : written
        const report: ImportReport = { created: [], updated: [], unchanged: [], conflicts: [], warnings: [], missing: [], changes: [], rekeyed: [] }
        if (options.dryRun === true) report.dry_run = true
        const incoming = new Set(records.map((r) => r.key))
        // Which stored records are of the folders imported, under their names now or before.
        const folders = new Map<string, string[]>()
        // A folder whose records are all gone sends none: it is named on its own.
        const named = options.folder === undefined ? [] : [options.folder]
        const sent = [...new Set([...records.flatMap((r) => (r.origin.folder === undefined ? [] : [r.origin.folder])), ...named])]
        // A folder's stored records are also what tells a file re-keyed (rekeyedRecords), files sent or not.
        const needed = sent.length > 0 || options.files !== undefined || (options.moved ?? []).length > 0 || records.some((r) => (r.origin.aliases ?? []).length > 0)
        const byFolder = needed ? await storedByFolder(tx) : new Map<string, DecisionRecord[]>()
        for (const folder of sent) {
          const own = records.filter((r) => r.origin.folder === folder)
          const aliases = own[0]?.origin.aliases ?? (folder === options.folder ? options.aliases : undefined) ?? []
          folders.set(folder, formerNames(folder, aliases, own, options.files, byFolder, at, options.moved))
        }
        const merges: Merge[] = []
        const unread = unreadRecords(folders, records, options, byFolder)
        const rekeyed = await rekeyedRecords(folders, records, options, byFolder, async (key) => tx.get(key))
        for (const input of records) {
          const links = { ...input }
          const stored = await tx.get(input.key)
          // A link only the file that could not be read now writes (`Supersedes` on the new record
          // alone, as many write it): kept as stored, as the record read when that file could be
          // read, rather than taken off both decisions while the file is still there.
          for (const [field, back] of [['supersedes', 'superseded_by'], ['superseded_by', 'supersedes']] as const) {
            const target = stored?.[field] ?? null
            const path = target === null ? undefined : unread.get(target)
            if (target === null || path === undefined || links[field] !== null || incoming.has(target)) continue
            if ((await tx.get(target))?.[back] !== input.key) continue
            links[field] = target
            // An accepted record a record that replaces it supersedes reads superseded (see readRecordFolder).
            if (field === 'superseded_by' && links.status === 'accepted' && stored?.imported?.status === 'superseded') links.status = 'superseded'
            report.warnings.push({ key: input.key, message: `${field} ${target} is kept as stored: ${path}, which ${target} was imported from, is in the folder but could not be read` })
          }
          for (const field of ['supersedes', 'superseded_by'] as const) {
            const target = links[field]
            if (target === null || incoming.has(target)) continue
            const other = await tx.get(target)
            if (other === undefined) {
              report.warnings.push({ key: input.key, message: `${field} ${target} names no decision; the link is dropped` })
              links[field] = null
              continue
            }
            // A decision the import does not write is not moved by it (an API decision, another
            // folder's): a link to it that it does not name back would be one-sided, the record
            // claiming to replace a decision that stays in force (or the reverse), and is dropped.
            const back = field === 'supersedes' ? 'superseded_by' : 'supersedes'
            if (other[back] !== input.key && stored?.[field] !== target) {
              report.warnings.push({ key: input.key, message: `${field} ${target} is not among the records imported, and ${target} does not name ${input.key} back; the link is dropped` })
              links[field] = null
            }
          }
          // A record with no date of its own keeps the day of the decision it is carried over from (see carryOver).
          const record = importedRecord(links, at, stored ?? rekeyed.get(input.key))
          // The history matters only to a record the repository changed: a re-import of an
          // unchanged folder reads no events.
          const changed = stored?.imported != null && stored.imported.fingerprint !== record.imported?.fingerprint
          const merged = mergeImported(record, stored, at, changed ? await store.events(input.key) : [], folders.get(input.origin.folder ?? ''))
          // A folder gone from the repository that was not taken for this one moved: --prefix would
          // store its records a second time; what keeps them apart is what the conflict should say.
          const from = stored?.imported?.folder
          const movedAway = merged.outcome === 'conflict' && from !== undefined && (options.moved ?? []).includes(from)
          if (movedAway) {
            merged.reason =
              `it was imported from ${from}, ${goneSaid(from)}, not taken for this one moved: not every record ` +
              'of it is here, in a file of the same name, reading or titled as it was (undo what changed, import, and redo it)'
          }
          merges.push({ key: input.key, stored, merged, movedAway })
        }
        await settleLinks(merges, async (key) => tx.get(key))
        const refused = refusedFolder(merges)
        if (refused !== undefined) return { ...report, conflicts: refused, warnings: [] }
        for (const { record, event, warning } of await releaseFormerSuccessors(merges, async (key) => tx.get(key), at)) {
          tx.put(record)
          tx.append(event)
          report.warnings.push({ key: record.key, message: warning })
        }
        for (const [key, former] of rekeyed) {
          const created = merges.find((m) => m.key === key)?.merged
          if (created?.outcome !== 'created' || created.record === undefined || created.event === undefined) continue
          // As stored now: a successor it lost above (releaseFormerSuccessors) is lost.
          const carried = carryOver((await tx.get(former.key)) ?? former, created.record, at)
          if (carried.moved !== undefined) {
            tx.put(carried.moved.record)
            tx.append(carried.moved.event)
          }
          if (carried.kept !== undefined) {
            created.record.status = carried.kept.status
            created.record.superseded_by = carried.kept.superseded_by
            created.event.to = carried.kept.status
          }
          if (carried.linked) created.record.supersedes = former.key
          created.event.reason = `re-keyed by the import: ${former.imported?.path ?? ''} was imported as ${former.key} before`
          if (carried.linked) created.event.supersedes = former.key
          report.warnings.push({ key: former.key, message: carried.warning })
          report.rekeyed.push({ key, from: former.key, from_status: ((await tx.get(former.key)) ?? former).status })
        }
        // Said already: a decision carried over now, and a record whose key is a conflict.
        const said = new Set([...[...rekeyed.values()].map((d) => d.key), ...merges.filter((m) => m.merged.outcome === 'conflict').map((m) => m.key)])
        report.warnings.push(...(await strandedRecords(folders, records, options, byFolder, said, async (key) => tx.get(key))))
        report.missing = missingFiles(folders, records, options, byFolder)
        const folderOf = new Map(records.map((r) => [r.key, r.origin.folder]))
        const fileOf = new Map(records.map((r) => [r.key, `${r.origin.path}:${r.origin.line}`]))
        // The formats that key a record by its file's name (`0005-use-x.md` → `ADR-0005`), not by a key written in it.
        const keyedByName = new Set(records.filter((r) => ['adr-tools', 'madr', 'log4brains'].includes(r.origin.format)).map((r) => r.key))
        // The keys in use, and those the conflicts below are told to take, each its own.
        const taken = [...(await tx.keys()), ...incoming]
        for (const { key, stored, merged } of merges) {
          report.warnings.push(...merged.warnings.map((message) => ({ key, message })))
          if (merged.outcome === 'conflict' && stored?.imported === null) {
            // A key a decision made over the API holds, met by a record of a folder imported before
            // (its `D-0002` added to the log after the API gave `D-0002`, the number after the
            // folder's `D-0001`, to a decision proposed without a key): the decision stays, and the
            // record is said not imported with what to do, a key of its own in its file, free here.
            // A record keyed by its file's name (an ADR's `ADR-0005`, posted over the API as such) has
            // no key written in its file to change: its file is renamed.
            const byName = keyedByName.has(key)
            const api = /^D-\d+$/.test(key)
            const free = api && !byName ? nextKey(taken) : undefined
            if (free !== undefined) taken.push(free)
            report.conflicts.push({
              key,
              message:
                `${key} exists and it was not created by an import` +
                (api ? ' (a decision proposed over the API without a key is given the D- number after the highest in use, imported ones too)' : '') +
                `; it is left as it is, and the record of ${fileOf.get(key)} is not imported: ` +
                (byName ? 'its key is read from its file\'s name: rename the file so that its key is one no decision holds' : 'give it a key no decision holds in its file') +
                (free === undefined ? '' : ` (${free} is free)`) +
                ', and import again',
            })
            continue
          }
          if (merged.outcome === 'conflict') {
            report.conflicts.push({ key, message: `${key} exists and ${merged.reason ?? 'is not this record'}; it is left as it is` })
            continue
          }
          // A record found under a former name of its folder is kept under the name now, the decision
          // itself unchanged (no event): found by its old name, it would be lost once that no longer
          // matched (a file of the old folder deleted, the clone named otherwise).
          const folder = folderOf.get(key)
          if (merged.outcome === 'unchanged' && stored?.imported != null && folder !== undefined && stored.imported.folder !== folder) {
            tx.put({ ...stored, imported: { ...stored.imported, folder } })
          }
          // A record that reads otherwise while the decision stays as stored (the file of its other
          // end now says what the lifecycle did here, a proposal accepted over the API): the reading
          // is kept, so that the next import compares with it, but the decision is unchanged, with no
          // `reimported` event naming nothing changed and no new version.
          if (merged.outcome === 'updated' && stored !== undefined && merged.record !== undefined && changedFields(stored, merged.record).length === 0) {
            tx.put({ ...stored, imported: merged.record.imported })
            report.unchanged.push(key)
            continue
          }
          if (merged.record !== undefined) tx.put(merged.record)
          if (merged.event !== undefined) tx.append(merged.event)
          report[merged.outcome].push(key)
          if (merged.outcome === 'updated' && stored !== undefined && merged.record !== undefined) {
            report.changes.push({ key, fields: importChanges(stored, merged.record) })
          }
        }
        return report
      })
    },
  }
  return decisions
}
