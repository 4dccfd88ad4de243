import { cellKey, type Category, type Cell, type PointView, type Tally } from './aggregate'
import { majorityOption, preferenceOf, shareOf } from './preference'


/** One layer of memory as reported (R-MEM-5). */
export interface Layer {
  observations: number
  majority: string | null
  share: number
  /** At a multi-select point, the options selected at a rate of at least ½ in this layer (R-REC-8); else null. */
  selection: string[] | null
  counts: Array<{ option: string; count: number; share: number }>
}

export interface Layers {
  /** This session's choices at the point, in every project. */
  session: Layer
  /** The last `layers.recent_sessions` (3) sessions (of the project, when one is asked) that chose at the point. */
  recent: Layer & { sessions: string[] }
  /** Every session, decay-weighted. */
  long_term: Layer
  /**
   * The recent majority differs from the long-term one (recent choices all typed in, none of the
   * options, included): perhaps a change of preference. At a multi-select point, the recent
   * selection differs from the long-term one.
   */
  change_suspected: boolean
}

function layerOf(
  tallies: ReadonlyArray<readonly [Category, Tally]>,
  options: readonly string[],
  asOf: Date,
  alpha: number,
  staticDefault: string,
  multiSelect: boolean,
): Layer {
  const preference = preferenceOf(tallies, options, asOf, alpha, !multiSelect)
  const majority = majorityOption(preference, options, staticDefault) ?? null
  return {
    observations: preference.observations,
    majority,
    share: majority === null ? 0 : Math.round(shareOf(preference, majority) * 10_000) / 10_000,
    // The set the recommendation speaks of (R-REC-8), as the recommendation selects it: a rate of at least ½.
    selection: multiSelect ? options.filter((option) => shareOf(preference, option) >= 0.5) : null,
    counts: options.map((option) => ({
      option,
      count: preference.counts.get(option) ?? 0,
      share: Math.round(shareOf(preference, option) * 10_000) / 10_000,
    })),
  }
}

/** How many of a layer's choices chose `option`. */
function countOf(layer: Layer, option: string): number {
  return layer.counts.find((count) => count.option === option)?.count ?? 0
}

/** How many of a layer's choices were none of the options: answers typed in. */
function ownAnswers(layer: Layer): number {
  return layer.observations - layer.counts.reduce((sum, count) => sum + count.count, 0)
}

/**
 * The three layers of R-MEM-5: the session's choices in every project; the recent sessions' in
 * `recent` (the project asked, even where the evidence backs off across projects: the last
 * sessions of the same project); the long term over the observations of the request's scope (`scoped`).
 */
export function layersOf(input: {
  memory: PointView
  recent: { project: string | null; cell: Cell | undefined }
  scoped: Cell
  options: readonly string[]
  sessionId: string | undefined
  asOf: Date
  alpha: number
  staticDefault: string
  multiSelect: boolean
}): Layers {
  const { options, asOf, alpha, staticDefault, multiSelect } = input
  const recentSessions = (input.recent.cell?.sessions ?? []).map(([id]) => id)
  const keys = recentSessions.map((id) => cellKey.session(input.recent.project, id))
  // The session layer is the session's own choices at the point, in every project it made them
  // (R-MEM-5: only `recent` is of the same project): a session that chose in one repository and
  // went on in another had no choices in this one's session cell, and read as a new session.
  if (input.sessionId !== undefined) keys.push(cellKey.session(null, input.sessionId))
  const cells = input.memory.cells(keys)
  const recentCells = cells.slice(0, recentSessions.length)
  const sessionCell = input.sessionId === undefined ? undefined : cells[recentSessions.length]
  const session = layerOf(sessionCell === undefined ? [] : [...sessionCell.tallies], options, asOf, alpha, staticDefault, multiSelect)
  const recent = layerOf(recentCells.flatMap((cell) => [...cell.tallies]), options, asOf, alpha, staticDefault, multiSelect)
  const longTerm = layerOf([...input.scoped.tallies], options, asOf, alpha, staticDefault, multiSelect)
  const timed = recentIsLater(input.recent.cell, recentCells)
  return {
    session,
    recent: { ...recent, sessions: recentSessions },
    long_term: longTerm,
    // At a multi-select point the most selected option says little (one kept in every set hides
    // a change of the others): the sets are compared.
    // Sessions that all chose at one instant (a history of one instant, as the seed's worked
    // examples are, or a batch sent without timestamps) are kept by id: they are not "the last 3
    // sessions", and tell of no change.
    change_suspected: !timed
      ? false
      : multiSelect
        ? recent.observations > 0 && longTerm.observations > 0 && !sameSet(recent.selection ?? [], longTerm.selection ?? [])
        : // Recent sessions that typed their own answers, none of the options (a majority of null),
          // chose otherwise too: the change test said so while the layers said nothing. Not when the
          // long term typed its own answers as often as it chose its majority (a user who always
          // types one and once chose an option): that is their habit, not a change from it.
          recent.observations > 0 &&
          longTerm.majority !== null &&
          recent.majority !== longTerm.majority &&
          (recent.majority !== null || countOf(longTerm, longTerm.majority) > ownAnswers(longTerm)),
  }
}

/**
 * Whether the recent sessions are later than the choices of the scope left out of them. Sessions
 * last seen at one moment are ranked by id; when the newest session kept was last seen no later
 * than the scope's first choice (every session chose at that one moment), which sessions were
 * kept is an accident of their ids, not of time.
 */
function recentIsLater(scope: Cell | undefined, recentCells: readonly Cell[]): boolean {
  const newestKept = scope?.sessions[0]?.[1]
  if (scope === undefined || newestKept === undefined) return true
  const count = (cell: Cell) => [...cell.tallies.values()].reduce((sum, tally) => sum + tally.n, 0)
  if (recentCells.reduce((sum, cell) => sum + count(cell), 0) >= count(scope)) return true
  return Math.min(...[...scope.tallies.values()].map((tally) => tally.first)) < newestKept
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((option) => b.includes(option))
}
