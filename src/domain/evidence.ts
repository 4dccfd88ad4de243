import { cellKey, contextText, type Category, type Cell, type CellKey, type PointView, type Tally } from './aggregate'
import type { Context } from './observation'
import type { Policy } from './policy'
import { offeredIn } from './preference'
import { chiSquaredIndependence } from './statistics'
import { shownText } from './shown-text'

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
  contextTest: { key: string; value: string; matching: number; others: number; p_value: number; level: number } | null
  /** The test that found the recent choices differ from the older ones (a change of preference), if it did. */
  changeTest: { since: string; recent: number; older: number; p_value: number; level: number } | null
  /**
   * The request's context value that made a difference over the whole history, set aside because
   * its few recent choices (fewer than N) went with the change of preference (see selectEvidence):
   * the recent choices were made in it and in other values alike, so its key makes no precondition.
   */
  contextJoinedChange: { key: string; value: string; recent: number } | null
  /**
   * The request's context keys whose value the context backoff tested against the rest of the
   * evidence that decides (at least N choices in it) and found to make no difference (R-REC-7):
   * the recommendation holds in that value as in the others, so a precondition naming another
   * value of the key is not contradicted by it.
   */
  contextAlike: string[]
  /**
   * The whole-history cell the evidence was taken from (the scope's, or its context value's):
   * the context and pair cells count the same observations, so preconditions are counted on it.
   */
  basis: Cell
  /** Every observation of the scope, before any narrowing by context. */
  scoped: Cell
  /**
   * Where the layers' recent sessions come from (R-MEM-5: the last `layers.recent_sessions` sessions of the same
   * project): the project asked, even when the evidence backs off across projects, and its own
   * cell (undefined when nothing was chosen there yet); else the scope's.
   */
  recentScope: { project: string | null; cell: Cell | undefined }
}

const DAY_MS = 86_400_000

/**
 * Whether a category's choices made at or after `since` are not all told by the moments its tally
 * keeps exactly (the newest EXACT_NEWEST, decayed-sum.ts): it has more choices than it keeps, all
 * those it keeps are that recent, and it has a choice before `since` (its first), so that some of
 * those folded into its tail may be recent too. A category first chosen at or after `since` is
 * recent whole, however many times (20 choices stored at one moment by a batch, after 1,000 of
 * another option, were left out of the change test, and the older option kept).
 */
function straddles(tally: Tally, since: number): boolean {
  const kept = tally.weight?.newest ?? []
  return tally.n > kept.length && tally.first < since && kept.every((at) => at >= since)
}

/**
 * Whether the tallies tell how many choices of each category were made at or after `since`: from
 * the moments they keep exactly, or for a category first chosen then, from its whole tally (see
 * straddles).
 */
export function knowsSince(cell: Cell, since: number): boolean {
  for (const tally of cell.tallies.values()) if (straddles(tally, since)) return false
  return true
}

/**
 * The earliest moment at or after `since` from which the tallies tell every category's count (see
 * knowsSince): `since` itself, or, when a category chosen before it kept only choices that recent,
 * just after the oldest it keeps (those older were folded into its tail).
 */
export function exactSince(cell: Cell, since: number): number {
  let exact = since
  for (const tally of cell.tallies.values()) {
    if (straddles(tally, since)) exact = Math.max(exact, Math.min(...(tally.weight?.newest ?? [])) + 1)
  }
  return exact
}

/**
 * The part of a cell chosen at or after `since` (ms): of each category, the moments its tally keeps
 * exactly, or its whole tally when it was first chosen then (see knowsSince).
 */
export function recentPart(cell: Cell, since: number): Cell {
  const tallies: Cell['tallies'] = new Map()
  let n = 0
  for (const [category, tally] of cell.tallies) {
    if (tally.first >= since) {
      tallies.set(category, tally)
      n += tally.n
      continue
    }
    const moments = [...(tally.weight?.newest ?? [])].filter((at) => at >= since)
    if (moments.length === 0) continue
    const last = Math.max(...moments)
    tallies.set(category, {
      n: moments.length,
      first: Math.min(...moments),
      last,
      // The newest kept moment is the tally's last: the choice recorded last then is the same one.
      ...(last === tally.last && tally.lastId !== undefined ? { lastId: tally.lastId } : {}),
      weight: { n: moments.length, newest: moments, ref: 0, tail: [] },
    })
    n += moments.length
  }
  return {
    n,
    tallies,
    sessions: cell.sessions.filter(([, at]) => at >= since),
    evidence: cell.evidence.filter(([at]) => at >= since),
    candidates: cell.candidates,
  }
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
 * across projects when the project has fewer than N (R-MEM-6). Then the context backoff decides
 * which of them speak for this request (R-REC-7): when at least N share the request's value for a
 * context key and their choices differ from the rest beyond chance, only those; the level is
 * divided by the number of keys tested (Bonferroni 1936), and when several keys qualify the
 * smallest p-value wins (then the first key). Then, within that evidence, the change test: when the
 * `change.window_days` up to its newest choice (at or before `asOf`) hold at least N of it and its choices differ from the older
 * ones beyond chance (a change of preference), only the recent ones: power-law decay alone lets a
 * long history outvote a new preference for weeks. Deciding the context first keeps a context
 * the user has not worked in lately from being read as a change of preference: the recent
 * choices made in other contexts would otherwise set aside every choice made in this one.
 * Where the context makes no difference over the whole history, the context backoff is tried
 * again within the recent choices after a change, as a preference that became context-dependent
 * only lately shows there alone. The context value is set aside for the same order (the change
 * test over the whole scope, then the context backoff within its recent choices) where the
 * difference it made over the whole history may be the change itself, seen through a context
 * worked in at other times: it has recent choices, too few to test a change within it (fewer than
 * N), the scope's change test finds a change, and more of those recent choices went to the
 * scope's recent majority than to the value's older one. Every test is Pearson's chi-squared test
 * of independence.
 */
export function selectEvidence(
  memory: PointView,
  request: { project?: string | undefined; context?: Context | undefined; asOf?: Date | undefined },
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
  const matchingCells = memory.cells(requested.map(([key, value]) => cellKey.context(project, key, value))) as Cell[]

  const recentScope: EvidenceSelection['recentScope'] =
    scope === 'all-projects' ? { project: request.project ?? null, cell: own } : { project, cell: scoped }
  const common = { project, scope, scoped, recentScope }

  // The context first, over the whole history: which observations speak for this request.
  const whole = contextBackoff(scoped, requested, matchingCells, null, policy)
  const narrowed = whole.chosen
  // The scope's change test, run once and only where it is read: not where a context value
  // decides and its own change test answers.
  let scopeChange: ReturnType<typeof changeWithin> | undefined
  const changeOfScope = () => (scopeChange === undefined ? (scopeChange = changeWithin(scoped, request.asOf, policy)) : scopeChange)
  let contextJoinedChange: EvidenceSelection['contextJoinedChange'] = null
  if (narrowed !== null) {
    const within = changeWithin(narrowed.basis, request.asOf, policy)
    const joined = within === null ? joinsChange(narrowed.basis, changeOfScope(), policy) : null
    if (joined === null) {
      return {
        ...common,
        cell: within === null ? narrowed.basis : within.recent,
        basis: narrowed.basis,
        contextKey: narrowed.test.key,
        contextValue: narrowed.test.value,
        contextTest: narrowed.test,
        changeTest: within?.test ?? null,
        contextJoinedChange,
        // The other keys were tested over the whole scope, not within this value's choices.
        contextAlike: [],
      }
    }
    contextJoinedChange = { key: narrowed.test.key, value: narrowed.test.value, recent: joined }
  }

  // No context makes a difference over the whole history (or the one that did went with the
  // change): the change test over all of it, and after a change, the context backoff within the
  // recent choices.
  const change = changeOfScope()
  const latelyTested = change === null ? null : contextBackoff(change.recent, requested, matchingCells, change.since, policy)
  const lately = latelyTested?.chosen ?? null
  // What decides is the scope (no change), or its recent choices: the keys tested within it.
  const contextAlike = lately !== null ? [] : change === null ? (narrowed === null ? whole.alike : []) : (latelyTested?.alike ?? [])
  return {
    ...common,
    contextJoinedChange,
    contextAlike,
    cell: lately?.cell ?? change?.recent ?? scoped,
    basis: lately?.basis ?? scoped,
    contextKey: lately?.test.key ?? null,
    contextValue: lately?.test.value ?? null,
    contextTest: lately?.test ?? null,
    changeTest: change?.test ?? null,
  }
}

/**
 * The change of preference within a cell (see selectEvidence), if its recent choices differ from
 * its older ones at `change.significance`: the test, where the window starts and the recent part.
 * The window is shortened when an option was chosen more often in it than its tally keeps exactly,
 * to the span whose counts are exact: left untested, a long history outvotes a changed preference
 * again as soon as the new choice fills its exact moments. Where the counts are exact from the
 * first choice of those options, the window is widened to it instead, so that all their choices
 * count: shortened, it held 16 choices of an option the user switched to and kept to, at most,
 * once that option was older than the window, never more than M, so the point stayed `partial` and
 * was asked every time; and once those 16 no longer differed from the older choices of it, the
 * decayed older history held `p` under `ask.auto_resolve_p` for months. Otherwise the choices since
 * the first choice of the option chosen most in the window are tested first (where the counts are
 * exact from there), and, when they differ from the older ones, they all are the recent part: a
 * user who switched and chose every other day held 14 or 15 choices in the window, never more
 * than M, and was asked every time for as long as the change was told apart; and, as auto-resolved
 * answers are no choices, a user whose new preference was auto-resolved chose only at the
 * check-ins, fewer than N in the window, and the older history outvoted the new option again.
 * A shortened window is a change only where its choices span 3 days (see spansDays), or where
 * the option chosen most but for its favourite was chosen less in the last 3 days (see lastsDays).
 */
function changeWithin(
  cell: Cell,
  asOf: Date | undefined,
  policy: Policy,
): { test: NonNullable<EvidenceSelection['changeTest']>; since: number; recent: Cell } | null {
  if (asOf === undefined || cell.n === 0) return null
  // The window ends at the newest choice in the cell, not at asOf: "recent" is the user's recent
  // choosing. Ending it at asOf let a break longer than the window (a holiday) empty it, and the
  // whole decayed history, a year of an option given up months ago, outvote the new preference.
  const newest = Math.max(...[...cell.tallies.values()].map((t) => t.last))
  const end = Math.min(asOf.getTime(), newest)
  const start = end - policy.change.window_days * DAY_MS
  const since = exactSince(cell, start)
  // The options chosen more often in the window than their tallies keep exactly: all their
  // choices count from the first of them, where the counts are exact from there.
  const straddling = [...cell.tallies.values()].filter((tally) => straddles(tally, start))
  if (straddling.length > 0) {
    const widened = changeSince(cell, Math.min(...straddling.map((tally) => tally.first)), policy)
    if (widened !== null) return widened
  }
  const found = since > start && !spansDays(cell, since, end) && !lastsDays(cell, since, end, policy) ? null : changeSince(cell, since, policy)
  if (straddling.length > 0 || !knowsSince(cell, since)) return found
  // The change may have begun before the window, at the first choice of the option chosen most in
  // it: then every choice since speaks for it, not the window's alone. Also where the window holds
  // too few choices to test, or none that differ there.
  const favourite = mostChosen(new Map([...recentPart(cell, since).tallies].map(([category, tally]) => [category, tally.n])))
  const first = favourite === undefined ? since : (cell.tallies.get(favourite) as Tally).first
  return (first < since ? changeSince(cell, first, policy) : null) ?? found
}

/** How long a shortened window's choices must span to be read as a change of preference (see spansDays). */
const SHORTENED_MIN_SPAN_MS = 3 * DAY_MS

/**
 * Whether the choices of a window shortened to `since` (the kept moments of an option chosen more
 * often than its tally keeps) span SHORTENED_MIN_SPAN_MS up to `end`: from `since`, or, when they
 * are all of one option, from the last choice but one of any other: since then the user chose that
 * option alone, but for one stray choice. Choices made in one sitting go together: at 20 choices a
 * day, the 16 kept moments are one day's, and a user who chose Tier S all day one day in ten was
 * read as having switched to it, against 1,200 older choices, every such day. One stray choice of
 * another option does not start the run anew: from the last one, 99 choices of Tier S in 100 over
 * five days left Tier L recommended. Where other options were chosen in the window too, the span
 * runs from the last choice but one before it of the options other than the one chosen most there:
 * at 6 choices a day, 5 of them the new option, its 16 kept moments span 3 days less 1 ms, and
 * the switch was dropped from its fourth day on, Tier L `sufficient` again for two weeks.
 */
function spansDays(cell: Cell, since: number, end: number): boolean {
  const favourite = windowFavourite(cell, since)
  if (favourite === undefined) return end - since >= SHORTENED_MIN_SPAN_MS
  // The newest and the second newest choice before the window of the other options, from the
  // moments kept exactly (newest first), or the last alone where a tally keeps none. One whose
  // choices before the window are not kept (its kept moments all in it) leaves the window's start;
  // one that keeps a single moment before it and has older choices in its tail has its second
  // newest there, at or before that moment, which stands for it.
  let first = -Infinity
  let second = -Infinity
  for (const tally of cell.tallies.values()) {
    if (tally === favourite || tally.first >= since) continue
    const known = tally.weight?.newest ?? [tally.last]
    const before = known.filter((at) => at < since)
    if (before.length === 0) return end - since >= SHORTENED_MIN_SPAN_MS
    if (before.length === 1 && tally.n > known.length) before.push(before[0] as number)
    for (const at of before.slice(0, 2)) {
      if (at > first) [first, second] = [at, first]
      else if (at > second) second = at
    }
  }
  return end - Math.min(since, second) >= SHORTENED_MIN_SPAN_MS
}

/**
 * The option chosen most at or after `since` (its choices there, as recentPart counts them), read
 * without building the window's part: this runs on every recommendation there. Undefined when two
 * share the most.
 */
function windowFavourite(cell: Cell, since: number): Tally | undefined {
  let favourite: Tally | undefined
  let most = 0
  for (const tally of cell.tallies.values()) {
    const count = tally.first >= since ? tally.n : (tally.weight?.newest ?? [tally.last]).filter((at) => at >= since).length
    if (count > most) [favourite, most] = [tally, count]
    else if (count === most) favourite = undefined
  }
  return favourite
}

/**
 * Whether, over the last SHORTENED_MIN_SPAN_MS up to `end`, the option chosen most over the whole
 * history but for the one chosen most in a window shortened to `since` (see spansDays) has been
 * chosen less than before, at `change.significance`: the change to the window's favourite is then
 * one that lasts, however briefly its kept moments reach back. At 20 choices a day, a user who
 * switched to an option chosen 4 times in 5 kept its 16 exact moments within the last day; the
 * shortened window never spanned 3 days, and the old favourite was recommended `high` and
 * `sufficient` 150 choices after the switch. The old favourite's count over those days must be
 * exact (a choice of it kept from before them); the others' may be counted low, from their kept
 * moments alone (the rest counted with the older choices), which only narrows the fall the test
 * sees. The burst of one option all day one day in ten does not pass where the option chosen all
 * the days before keeps its 16 moments in the last day or two, so its count over 3 days is not
 * known: from about 12 choices a day at 3 in 4 of it. Below that it may: after 60 days of 8 a day,
 * 3 in 4 of one option, one sitting of 8 of the other was a change 30 times in 100, 14 without this.
 * Tested as that option against the others together, a 2×2 table.
 */
function lastsDays(cell: Cell, since: number, end: number, policy: Policy): boolean {
  const favourite = windowFavourite(cell, since)
  if (favourite === undefined) return false
  const from = end - SHORTENED_MIN_SPAN_MS
  let old: Tally | undefined
  let total = 0
  let recent = 0
  for (const tally of cell.tallies.values()) {
    total += tally.n
    recent += tally.first >= from ? tally.n : (tally.weight?.newest ?? [tally.last]).filter((at) => at >= from).length
    if (tally !== favourite && (old === undefined || tally.n > old.n)) old = tally
  }
  if (old === undefined) return false
  // Its count since `from` is exact where it keeps a choice from before then.
  const kept = old.weight?.newest ?? [old.last]
  if (!kept.some((at) => at < from)) return false
  const oldRecent = kept.filter((at) => at >= from).length
  const oldOlder = old.n - oldRecent
  const older = total - recent
  if (recent < policy.thresholds.min_observations || older <= 0) return false
  // Only a fall of the old favourite is a change away from it.
  if (oldRecent * older >= oldOlder * recent) return false
  const test = chiSquaredIndependence([
    [oldRecent, recent - oldRecent],
    [oldOlder, older - oldOlder],
  ])
  return test.pValue < policy.change.significance
}

/** The change test of the choices made at or after `since` against the older ones (see changeWithin). */
function changeSince(
  cell: Cell,
  since: number,
  policy: Policy,
): { test: NonNullable<EvidenceSelection['changeTest']>; since: number; recent: Cell } | null {
  // Tested only where the recent counts are exact, and where there is an older history at all.
  if (!knowsSince(cell, since) || ![...cell.tallies.values()].some((t) => t.first < since)) return null
  const recent = recentPart(cell, since)
  const older = cell.n - recent.n
  if (recent.n < policy.thresholds.min_observations || older <= 0) return null
  const categories = [...cell.tallies.keys()].sort()
  const test = chiSquaredIndependence([countsOf(recent, categories), countsOf(cell, categories, recent)])
  if (test.pValue >= policy.change.significance) return null
  return { test: { since: new Date(since).toISOString(), recent: recent.n, older, p_value: test.pValue, level: policy.change.significance }, since, recent }
}

/** The category chosen most, undefined when two share the most (or none was chosen). */
function mostChosen(counts: ReadonlyMap<Category, number>): Category | undefined {
  const most = Math.max(...counts.values())
  const top = [...counts].filter(([, count]) => count === most)
  return top.length === 1 ? (top[0] as [Category, number])[0] : undefined
}

/**
 * How many of a context value's choices were made since the scope's change of preference, when
 * they are too few to test a change within the value (at least one, fewer than N, counted
 * exactly) and more of them went to the scope's most chosen category since then than to the
 * value's own most chosen one before (see selectEvidence); null otherwise.
 */
function joinsChange(cell: Cell, change: ReturnType<typeof changeWithin>, policy: Policy): number | null {
  if (change === null || !knowsSince(cell, change.since)) return null
  const recent = recentPart(cell, change.since)
  if (recent.n === 0 || recent.n >= policy.thresholds.min_observations) return null
  const categories = [...cell.tallies.keys()]
  const olderCounts = countsOf(cell, categories, recent)
  const newer = mostChosen(new Map([...change.recent.tallies].map(([c, t]) => [c, t.n])))
  const older = mostChosen(new Map(categories.map((c, i) => [c, olderCounts[i] as number])))
  if (newer === undefined || older === undefined) return null
  const recentOf = (c: Category) => recent.tallies.get(c)?.n ?? 0
  return recentOf(newer) > recentOf(older) ? recent.n : null
}

/**
 * The context backoff (R-REC-7) within `current`: the request's context value whose observations
 * (at least N of them, from its whole-history cell in `matchingCells`, their part at or after
 * `since` when given) differ from the rest of `current` at `context.significance` divided by the
 * number of keys tested; the smallest p-value when several do (then the first key). `cell` is the narrowed evidence,
 * `basis` the context value's whole-history cell; `alike` the keys tested that made no difference.
 */
function contextBackoff(
  current: Cell,
  requested: ReadonlyArray<[string, string]>,
  matchingCells: readonly Cell[],
  since: number | null,
  policy: Policy,
): { chosen: { test: NonNullable<EvidenceSelection['contextTest']>; cell: Cell; basis: Cell } | null; alike: string[] } {
  const categories = [...current.tallies.keys()].sort()
  type Tested = { test: NonNullable<EvidenceSelection['contextTest']>; cell: Cell; basis: Cell }
  const tested: Tested[] = []
  for (let i = 0; i < requested.length; i++) {
    const [key, value] = requested[i] as [string, string]
    const whole = matchingCells[i] as Cell
    const matching = since === null ? whole : recentPart(whole, since)
    const others = current.n - matching.n
    if (matching.n < policy.thresholds.min_observations || others === 0) continue
    const test = chiSquaredIndependence([countsOf(matching, categories), countsOf(current, categories, matching)])
    tested.push({ test: { key, value, matching: matching.n, others, p_value: test.pValue, level: 0 }, cell: matching, basis: whole })
  }
  const level = policy.context.significance / Math.max(1, tested.length)
  let best: Tested | null = null
  for (const candidate of tested) {
    if (candidate.test.p_value >= level) continue
    // Equal p-values (keys that always go together test as one table) go to the first key in
    // code-point order: a JSON object's keys have no order, so the request's must decide nothing.
    const p = candidate.test.p_value
    if (best === null || p < best.test.p_value || (p === best.test.p_value && candidate.test.key < best.test.key)) best = candidate
  }
  return {
    chosen: best === null ? null : { ...best, test: { ...best.test, level } },
    alike: best === null ? tested.filter((t) => t.test.p_value >= level).map((t) => t.test.key) : [],
  }
}

/** The conditions a recommendation holds under (R-REC-5). */
export interface Conditions {
  /** Context values shared by at least the policy's share of the supporting observations. */
  context: Array<{ key: string; value: string; share: number }>
  /** The time window the supporting observations span. */
  window: { from: string; to: string } | null
}

/**
 * The categories of the evidence that chose the recommended options: its support. A multi-select
 * set rests on the sets that held all of it, where its options go together (Lint every time, Unit
 * tests with it only in phase run: the set {Lint, Unit tests} holds in run, not wherever Lint was
 * chosen), where at least half the deciding sets that held any of it held all of it. Else, on those
 * that held any: a set seldom held whole (each of three options in two of three sets, all three
 * once) has too few sets to say where it holds, the one that held it naming its phase.
 * An empty multi-select recommendation (no option selected at half the rate) rests on every one.
 */
export function supportOf(selection: EvidenceSelection, recommended: readonly string[], options: readonly string[]): Category[] {
  const wanted = new Set(recommended)
  const categories = [...selection.basis.tallies.keys()]
  if (wanted.size === 0) return categories
  // Each label as the option offered now, in another case too, as the preference counts it.
  const chosen = categories.map((c) => ({ c, offered: new Set(offeredIn(c, options)) }))
  const any = chosen.filter(({ offered }) => [...wanted].some((option) => offered.has(option)))
  const whole = any.filter(({ offered }) => [...wanted].every((option) => offered.has(option)))
  // Counted on the evidence that decides, as the precondition's window is (after a change, the recent sets).
  const count = (of: typeof any) => of.reduce((sum, { c }) => sum + (selection.cell.tallies.get(c)?.n ?? 0), 0)
  return (whole.length > 0 && 2 * count(whole) >= count(any) ? whole : any).map(({ c }) => c)
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
  requested?: Context,
): Conditions {
  const talliesOf = (cell: Cell) =>
    support.flatMap((c) => {
      const tally = cell.tallies.get(c)
      return tally === undefined ? [] : [tally]
    })
  // The window of the evidence that decides; the shares over the whole-history cell it comes from,
  // which the context and pair cells count alike.
  const deciding = talliesOf(selection.cell)
  const tallies = talliesOf(selection.basis)
  const wholeTotal = tallies.reduce((s, t) => s + t.n, 0)
  // After a change of preference only the recent choices support the recommendation: the shares
  // are theirs (the context cells keep the moments that count them exactly, as the change test
  // required), not the whole history's, whose older choices were set aside.
  const since = selection.changeTest === null ? null : Date.parse(selection.changeTest.since)
  const total = since === null ? wholeTotal : deciding.reduce((s, t) => s + t.n, 0)
  if (total === 0 || deciding.length === 0) return { context: [], window: null }
  const from = Math.min(...deciding.map((t) => t.first))
  const to = Math.max(...deciding.map((t) => t.last))

  // A context value set aside because its recent choices went with the change: its key is no
  // precondition, the recent choices having been made in it and in other values alike.
  const joined = selection.contextJoinedChange?.key
  const seen = new Set<string>()
  const candidates: Array<[string, string]> = []
  for (const category of support) {
    for (const [key, counters] of selection.basis.candidates.get(category) ?? []) {
      for (const value of counters.keys()) {
        const id = JSON.stringify([key, value])
        if (seen.has(id) || key === joined) continue
        seen.add(id)
        candidates.push([key, value])
      }
    }
  }
  // The candidates name the values that lead the whole history; a value of the recent choices
  // alone may lead none, so the request's own values are counted too (the ones it could contradict).
  if (since !== null) {
    for (const [key, raw] of Object.entries(requested ?? {})) {
      const value = contextText(raw)
      const id = JSON.stringify([key, value])
      if (value === undefined || seen.has(id) || key === joined) continue
      seen.add(id)
      candidates.push([key, value])
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
    else {
      const cell = cells[next++] as Cell
      if (since === null) count = countsOf(cell, support).reduce((s, c) => s + c, 0)
      else if (narrowed === null) count = countsOf(recentPart(cell, since), support).reduce((s, c) => s + c, 0)
      // Pair cells only count, over the whole history: at least this many of them are recent
      // (every older supporting choice may be one of them), so a value is claimed only when sure.
      else count = Math.max(0, countsOf(cell, support).reduce((s, c) => s + c, 0) - (wholeTotal - total))
    }
    const share = count / total
    if (count > 0 && share >= policy.context.precondition_share) context.push({ key, value, share })
  }
  return {
    context: leadingValues(context),
    window: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
  }
}

/**
 * One value a key at most: with a precondition_share of one half or less, two values of a key
 * could both reach it (`phase is plan and phase is run`, a precondition no context meets), and a
 * request in the value most choices were made in was told it contradicts the other. The value with
 * the largest share is claimed; where two share it, neither is what the choices have in common.
 */
function leadingValues(context: Conditions['context']): Conditions['context'] {
  return context.filter((c) => context.every((other) => other === c || other.key !== c.key || other.share < c.share))
}

/**
 * The precondition as said after `Recommended when`: `phase is run and workflow is /moai run`, or
 * the window of choices it rests on, `your choices from 2026-06-03 to 2026-07-01 still hold` (a
 * version before this said `any context, as chosen from …`, which read as no sentence there).
 */
export function describeConditions(conditions: Conditions, keyFirst: string | null): string {
  const ordered = [...conditions.context].sort((a, b) =>
    a.key === keyFirst ? -1 : b.key === keyFirst ? 1 : 0,
  )
  if (ordered.length > 0) return ordered.map((c) => `${shownText(c.key)} is ${shownText(c.value)}`).join(' and ')
  const window = conditions.window
  if (window === null) return 'any context'
  const from = window.from.slice(0, 10)
  const to = window.to.slice(0, 10)
  return from === to ? `your choices of ${from} still hold` : `your choices from ${from} to ${to} still hold`
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
