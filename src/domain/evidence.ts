import { cellKey, contextText, labelsOf, type Category, type Cell, type CellKey, type PointView } from './aggregate'
import type { Context } from './observation'
import type { Policy } from './policy'
import { chiSquaredIndependence } from './statistics'

export { contextText }

/** Which of the user's observations at a point speak for this request, and why. */
export interface EvidenceSelection {
  /** The cell of the observations that decide: the scope's, or the context value's it was narrowed to. */
  cell: Cell
  /** The project of the scope; null when the scope is every project of the user. */
  project: string | null
  /** `project`: this project's own; `all-projects`: backed off across projects (R-MEM-6); `user`: no project asked. */
  scope: 'project' | 'all-projects' | 'user'
  /** The context key the evidence was narrowed to (R-REC-7), if any, and its value. */
  contextKey: string | null
  contextValue: string | null
  /** The test behind the narrowing, for the record. */
  contextTest: { key: string; value: string; matching: number; others: number; p_value: number } | null
  /** Every observation of the scope, before any narrowing by context. */
  scoped: Cell
}

/**
 * The value a context holds for a key, its own only: `constructor` or `__proto__` are ordinary
 * keys, never what the object inherits.
 */
export function contextValue(context: Context | undefined, key: string): string | undefined {
  return context !== undefined && Object.hasOwn(context, key) ? contextText(context[key]) : undefined
}

/** Counts per category of a cell, minus those of another (its part), in the order given. */
function countsOf(cell: Cell, categories: readonly Category[], minus?: Cell): number[] {
  return categories.map((c) => (cell.tallies.get(c)?.n ?? 0) - (minus?.tallies.get(c)?.n ?? 0))
}

/**
 * Chooses the evidence for a request: the project's own observations, backed off to the user's
 * across projects when the project has fewer than N (R-MEM-6); then, when at least N of them share
 * the request's value for a context key and their choices differ from the rest beyond chance
 * (chi-squared test of independence at the policy's significance), only those (R-REC-7). When
 * several keys qualify, the one with the smallest p-value wins.
 */
export function selectEvidence(
  memory: PointView,
  request: { project?: string | undefined; context?: Context | undefined },
  policy: Policy,
): EvidenceSelection {
  const n = policy.thresholds.min_observations
  let project: string | null = null
  let scope: EvidenceSelection['scope'] = 'user'
  const keys = [cellKey.scope(null), ...(request.project === undefined ? [] : [cellKey.scope(request.project)])]
  const [all, own] = memory.cells(keys) as [Cell, Cell | undefined]
  let scoped = all
  if (request.project !== undefined && own !== undefined) {
    if (own.n >= n || own.n === all.n) {
      scoped = own
      project = request.project
      scope = 'project'
    } else {
      scope = 'all-projects'
    }
  }

  const requested: Array<[string, string]> = []
  for (const [key, raw] of Object.entries(request.context ?? {})) {
    const value = contextText(raw)
    if (value !== undefined) requested.push([key, value])
  }
  const matchingCells = memory.cells(requested.map(([key, value]) => cellKey.context(project, key, value)))
  let best: EvidenceSelection['contextTest'] = null
  let bestCell: Cell | null = null
  const categories = [...scoped.tallies.keys()].sort()
  for (let i = 0; i < requested.length; i++) {
    const [key, value] = requested[i] as [string, string]
    const matching = matchingCells[i] as Cell
    const others = scoped.n - matching.n
    if (matching.n < n || others === 0) continue
    const test = chiSquaredIndependence([countsOf(matching, categories), countsOf(scoped, categories, matching)])
    if (test.pValue >= policy.context.significance) continue
    if (best === null || test.pValue < best.p_value) {
      best = { key, value, matching: matching.n, others, p_value: test.pValue }
      bestCell = matching
    }
  }
  return {
    cell: bestCell ?? scoped,
    project,
    scope,
    contextKey: best?.key ?? null,
    contextValue: best?.value ?? null,
    contextTest: best,
    scoped,
  }
}

/** The conditions a recommendation holds under (R-REC-5). */
export interface Conditions {
  /** Context values shared by at least the policy's share of the supporting observations. */
  context: Array<{ key: string; value: string; share: number }>
  /** The time window the supporting observations span. */
  window: { from: string; to: string } | null
}

/** The categories of the evidence that chose any of the recommended options: its support. */
export function supportOf(selection: EvidenceSelection, recommended: readonly string[]): Category[] {
  const wanted = new Set(recommended)
  return [...selection.cell.tallies.keys()].filter((c) => labelsOf(c).some((label) => wanted.has(label)))
}

/**
 * The context values shared by at least the policy's share of the supporting observations (the
 * evidence's observations of the `support` categories), by key then value, and the window they
 * span. A value can reach that share only if it leads one of the categories, so the evidence
 * cell's Misra–Gries candidates name the values to count; their exact counts come from the
 * context cells (or, for evidence narrowed to a context value, the pair cells).
 */
export function conditionsOf(
  memory: PointView,
  selection: EvidenceSelection,
  support: readonly Category[],
  policy: Policy,
): Conditions {
  const tallies = support.flatMap((c) => {
    const tally = selection.cell.tallies.get(c)
    return tally === undefined ? [] : [tally]
  })
  const total = tallies.reduce((s, t) => s + t.n, 0)
  if (total === 0) return { context: [], window: null }
  const from = Math.min(...tallies.map((t) => t.first))
  const to = Math.max(...tallies.map((t) => t.last))

  const seen = new Set<string>()
  const candidates: Array<[string, string]> = []
  for (const category of support) {
    for (const [key, counters] of selection.cell.candidates.get(category) ?? []) {
      for (const value of counters.keys()) {
        const id = JSON.stringify([key, value])
        if (seen.has(id)) continue
        seen.add(id)
        candidates.push([key, value])
      }
    }
  }
  candidates.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))

  const narrowed = selection.contextKey === null ? null : ([selection.contextKey, selection.contextValue as string] as const)
  const keys: CellKey[] = []
  for (const [key, value] of candidates) {
    if (narrowed === null) keys.push(cellKey.context(selection.project, key, value))
    else if (key !== narrowed[0]) keys.push(cellKey.pair(selection.project, narrowed, [key, value]))
  }
  const cells = memory.cells(keys)
  const context: Conditions['context'] = []
  let next = 0
  for (const [key, value] of candidates) {
    let count: number
    if (narrowed !== null && key === narrowed[0]) count = value === narrowed[1] ? total : 0
    else count = countsOf(cells[next++] as Cell, support).reduce((s, c) => s + c, 0)
    const share = count / total
    if (share >= policy.context.precondition_share) context.push({ key, value, share })
  }
  return {
    context,
    window: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
  }
}

/** The precondition as a sentence: `phase is run and workflow is /moai run`, or the window it rests on. */
export function describeConditions(conditions: Conditions, keyFirst: string | null): string {
  const ordered = [...conditions.context].sort((a, b) =>
    a.key === keyFirst ? -1 : b.key === keyFirst ? 1 : 0,
  )
  if (ordered.length > 0) return ordered.map((c) => `${c.key} is ${c.value}`).join(' and ')
  const window = conditions.window
  if (window === null) return 'any context'
  const from = window.from.slice(0, 10)
  const to = window.to.slice(0, 10)
  return from === to ? `any context, as chosen on ${from}` : `any context, as chosen from ${from} to ${to}`
}

/** Context keys of the request that contradict the conditions. */
export function contradictions(
  conditions: Conditions,
  context: Context | undefined,
): Array<{ key: string; expected: string; got: string }> {
  const out: Array<{ key: string; expected: string; got: string }> = []
  for (const c of conditions.context) {
    const got = contextValue(context, c.key)
    if (got !== undefined && got !== c.value) out.push({ key: c.key, expected: c.value, got })
  }
  return out
}
