import type { OutOfScope } from './applicability'
import type { ChainLink, PendingProposal } from './decisions'
import type { PointWhy } from './explain-point'

/** How many of the observations behind the recommendation the brief form lists: the newest. */
export const BRIEF_OBSERVATIONS = 10

/** The statuses of a decision that no longer holds nor may: history, given without what it said and why. */
export const HISTORY_STATUSES: ReadonlySet<string> = new Set(['superseded', 'deprecated', 'revoked'])

/**
 * A decision as the brief form gives it, once however many chains name it: its link's fields, and,
 * bound to the point, what it did there. One no longer in force (superseded, deprecated, revoked)
 * is history: its `decision`, `rationale`, `source` and `evidence` are left out (`why` with its key
 * gives them), `evidence_count` saying how many pieces of evidence it has.
 */
export type BriefDecision = Omit<ChainLink, 'decision' | 'rationale' | 'source' | 'evidence'> & {
  decision?: string
  rationale?: string
  /** Whether it is bound to the point; a link of a bound decision's chain may be bound elsewhere. */
  bound: boolean
  effect?: PointWhy['decisions'][number]['effect']
  out_of_scope?: OutOfScope[]
  source?: ChainLink['source']
  evidence?: ChainLink['evidence']
  evidence_count?: number
  unrecorded?: string[]
}

/** A supersede chain, by the keys of its links, oldest first (each in `decisions`), with the proposals pending on it. */
export interface BriefChain {
  keys: string[]
  current: string
  in_force: string | null
  proposals: PendingProposal[]
}

/**
 * `GET /v1/why` of a point, as an agent reads it (R-CON-5): every version of a decision is bound
 * to its point, and the route gives each with its whole chain, so a decision superseded ten times
 * was its chain ten times over (some 250 KB). Here each chain once, by key; each decision once;
 * the newest observations. `left_out` says what is not given and where the whole answer is.
 */
export type BriefPointWhy = Omit<PointWhy, 'decisions'> & {
  chains: BriefChain[]
  decisions: BriefDecision[]
  /** How many observations support the recommendation; `observations` lists the newest of them. */
  observations_count: number
  left_out?: string
}

/** Whether `body` has what the brief form is made of: a service of an older version may answer without chains. */
function isPointWhy(body: unknown): body is PointWhy {
  if (typeof body !== 'object' || body === null) return false
  const { decisions, observations, point, user } = body as Record<string, unknown>
  return (
    typeof point === 'string' &&
    typeof user === 'string' &&
    Array.isArray(observations) &&
    Array.isArray(decisions) &&
    decisions.every((d) => typeof d === 'object' && d !== null && Array.isArray((d as { chain?: unknown }).chain) && typeof (d as { key?: unknown }).key === 'string')
  )
}

/** A flag and its value as arguments: `--name=value` for a value starting with `-`, which parseArgs would take for a flag. */
function flag(name: string, value: string | null): string[] {
  if (value === null) return []
  return value.startsWith('-') ? [`--${name}=${value}`] : [`--${name}`, value]
}

/**
 * The point's why in brief (see BriefPointWhy); an answer that is not a point's why (an older
 * service's, another program's) as it is. `commandLine` turns the `why` command's arguments into the
 * command to run for the whole answer, which `left_out` names beside the route.
 */
export function briefPointWhy(body: unknown, options: { commandLine: (args: string[]) => string; listed?: number }): unknown {
  if (!isPointWhy(body)) return body
  const listed = options.listed ?? BRIEF_OBSERVATIONS
  const { decisions: bound, observations, ...rest } = body
  const chains: BriefChain[] = []
  const seenChains = new Set<string>()
  const links = new Map<string, ChainLink>()
  for (const d of bound) {
    const keys = d.chain.map((link) => link.key)
    // The chains of one decision's versions are one chain; a proposal's own is another (it is its newest link).
    const id = JSON.stringify([keys, d.current, d.in_force])
    if (!seenChains.has(id)) {
      seenChains.add(id)
      chains.push({ keys, current: d.current, in_force: d.in_force, proposals: d.proposals ?? [] })
    }
    for (const link of d.chain) if (!links.has(link.key)) links.set(link.key, link)
  }
  const byKey = new Map(bound.map((d) => [d.key, d]))
  const history: string[] = []
  const decisions = [...links.values()].map((link): BriefDecision => {
    const d = byKey.get(link.key)
    const { key, title, status: _status, enforce, decision, rationale, source, evidence, scope_warning, ...dates } = link
    // As the point's answer gives it (as it stood then, in a replay), where it is bound there.
    const status = d?.status ?? link.status
    const past = HISTORY_STATUSES.has(status)
    if (past) history.push(key)
    return {
      key,
      title: d?.title ?? title,
      status,
      enforce: d?.enforce ?? enforce,
      bound: d !== undefined,
      ...(d === undefined ? {} : { effect: d.effect, out_of_scope: d.out_of_scope }),
      ...(past ? {} : { decision, rationale }),
      ...dates,
      ...(past ? { evidence_count: (evidence ?? []).length } : { source, evidence }),
      ...(scope_warning === undefined ? {} : { scope_warning }),
      ...(d?.unrecorded === undefined ? {} : { unrecorded: d.unrecorded }),
    }
  })
  // Bound decisions the answer gave no link for (none should be): given as the answer has them, less their chain.
  for (const d of bound) {
    if (links.has(d.key)) continue
    const { chain: _chain, events: _events, current: _current, in_force: _inForce, proposals: _proposals, ...fields } = d
    decisions.push({ ...(fields as unknown as BriefDecision), bound: true })
  }
  const asked = [
    'why',
    ...flag('point', body.point),
    ...flag('user', body.user),
    ...(body.project === null ? ['--all-projects'] : flag('project', body.project)),
    ...flag('session', body.session_id ?? null),
    ...flag('task', body.task ?? null),
    ...flag('path', body.path ?? null),
    ...flag('stage', body.stage ?? null),
    ...flag('as-of', body.as_of),
    '--json',
  ]
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries({ user: body.user, project: body.project, session_id: body.session_id, point: body.point, as_of: body.as_of, task: body.task, path: body.path, stage: body.stage })) {
    if (typeof value === 'string') query.set(name, value)
  }
  const parts: string[] = []
  if (bound.length > 0) parts.push("each decision's events")
  if (history.length > 0) parts.push(`the decision, rationale, source and evidence of the ${history.length} no longer in force (superseded, deprecated or revoked)`)
  if (observations.length > listed) parts.push(`${observations.length - listed} older observations of the ${observations.length}`)
  const leftOut =
    parts.length === 0
      ? undefined
      : `Left out: ${parts.join('; ')}. \`why\` with a decision's \`key\` gives that decision whole, with its chain. The whole answer: GET /v1/why?${query}, or ${options.commandLine(asked)}`
  return {
    ...rest,
    chains,
    decisions,
    observations: observations.slice(0, listed),
    observations_count: observations.length,
    ...(leftOut === undefined ? {} : { left_out: leftOut }),
  }
}
