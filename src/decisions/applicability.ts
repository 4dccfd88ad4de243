import { posix } from 'node:path'
import type { DecisionRecord } from './decision'

/** Where a run is: its task, the path it works on, its stage, and the decision point asked. */
export interface ApplicabilityQuery {
  task?: string | undefined
  path?: string | undefined
  stage?: string | undefined
  point?: string | undefined
}

/**
 * A path as compared: NFC (as every other text: macOS reports `café` decomposed, a user types it
 * composed), forward slashes, `.` and `..` segments resolved, no trailing slash, a Windows drive
 * letter in upper case (`c:\repo` and `C:\repo` are one folder, and either may be written).
 * Paths are compared as written otherwise: a decision scoped to a repository-relative path is
 * matched by repository-relative paths, an absolute one by absolute paths.
 */
export function normalizePath(path: string): string {
  const slashed = path.normalize('NFC').replace(/\\/g, '/')
  // A drive's root is a root: `..` there stays on it (`C:\..\x` is `C:/x`), as `/..` is `/`.
  const drive = /^([A-Za-z]):(?=\/|$)/.exec(slashed)
  const normalized = (drive === null ? posix.normalize(slashed) : `${drive[1]}:${posix.normalize(`/${slashed.slice(2)}`)}`).replace(
    /^([a-z]):(?=\/|$)/,
    (_, d: string) => `${d.toUpperCase()}:`,
  )
  if (normalized === '/') return '/'
  return normalized.replace(/\/+$/, '') || '.'
}

/** Whether a normalised path is absolute: from `/`, or from a Windows drive (`C:/…`). */
function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Z]:(?:\/|$)/.test(path)
}

/** Whether a normalised repository-relative path leaves the root it is relative to (`..`, `../x`). */
function isAboveRoot(path: string): boolean {
  return path === '..' || path.startsWith('../')
}

/**
 * Whether `path` is `scope` or below it, by whole segments (`src/billing` does not hold `src/billing-v2`).
 * The scope is read without the white space at its ends, as a run's path is (see outOfScope): one
 * stored spaced by a version before such scopes were refused holds the folder it was written for.
 */
export function isWithin(path: string, scope: string): boolean {
  const p = normalizePath(path)
  const s = normalizePath(scope.trim())
  // `.`, the repository's root, holds every repository-relative path, and no absolute one (the
  // guard sends the cwd as it is outside a repository: `/home/me/scratch`, or `C:\Users\me\scratch`),
  // nor one that leaves the root (`..`, `../other`, `src/../..`): that is above it, not below.
  if (s === '.') return !isAbsolutePath(p) && !isAboveRoot(p)
  if (s === '/') return p.startsWith('/')
  return p === s || p.startsWith(s + '/')
}

/** A scope a run is outside of: the decision's task, path or stage, and the run's (null: not said). */
export interface OutOfScope {
  field: 'task' | 'path' | 'stage'
  scope: string
  run: string | null
}

/**
 * A run's task, path or stage as compared: without the white space at its ends, as what is learned
 * reads a context's values (contextText): `" prod "` is `prod`, and white space alone says nothing.
 * A recommendation that said `stage is prod` did not apply the decision scoped to `prod`, and a
 * check with `stage: " prod "` allowed what it forbids.
 */
function runValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed === '' ? undefined : trimmed
}

/**
 * Why a decision does not apply to a run, as `applies` reads its scope (R-CON-4): each of its task,
 * path and stage the run is outside of, or does not say; empty when its scope holds the run. The
 * run's values and the scope are compared without the white space at their ends (runValue): a scope
 * stored spaced by a version before such scopes were refused (` billing`) holds the run named so, as
 * before, and the run it was written for, `billing`.
 */
export function outOfScope(decision: DecisionRecord, query: ApplicabilityQuery): OutOfScope[] {
  const { task, path, stage } = decision.scope
  const run = { task: runValue(query.task), path: runValue(query.path), stage: runValue(query.stage) }
  const out: OutOfScope[] = []
  if (task !== null && task.trim() !== run.task) out.push({ field: 'task', scope: task, run: run.task ?? null })
  if (path !== null && (run.path === undefined || !isWithin(run.path, path))) out.push({ field: 'path', scope: path, run: run.path ?? null })
  if (stage !== null && stage.trim() !== run.stage) out.push({ field: 'stage', scope: stage, run: run.stage ?? null })
  return out
}

/**
 * Whether an accepted decision applies to a run (R-CON-4). A decision with no task, path or stage
 * scope is global. A scoped one applies to that task, that path and everything below it, that
 * stage; when the run does not say its task, path or stage, decisions scoped by it are excluded
 * rather than assumed relevant. With a `point`, decisions bound to other points are excluded
 * (decisions bound to no point still apply).
 */
export function applies(decision: DecisionRecord, query: ApplicabilityQuery): boolean {
  if (decision.status !== 'accepted') return false
  if (outOfScope(decision, query).length > 0) return false
  if (query.point !== undefined && decision.scope.points.length > 0 && !decision.scope.points.includes(query.point)) {
    return false
  }
  return true
}

/** The run described by a recommendation's context (its `task`, `path` and `stage` keys, R-REC-5). */
export function runOfContext(context: Record<string, unknown> | undefined): ApplicabilityQuery {
  const text = (value: unknown) =>
    value === undefined || value === null || value === '' ? undefined : String(value)
  return { task: text(context?.task), path: text(context?.path), stage: text(context?.stage) }
}
