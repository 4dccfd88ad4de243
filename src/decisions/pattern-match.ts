import { createContext, Script } from 'node:vm'

/**
 * Whether each pattern matches `text`: true or false, or undefined when that could not be told
 * within the time allowed (a pattern such as `(a+)+$` backtracks exponentially on some texts).
 */
export type MatchPatterns = (patterns: readonly string[], text: string) => Array<boolean | undefined>

/** Every pattern run to its end: for tests and tools whose patterns are trusted. */
export const matchPlainly: MatchPatterns = (patterns, text) => patterns.map((p) => new RegExp(p).test(text))

/** How long the patterns of one check may run together, in milliseconds, before each is given its own turn. */
export const PATTERN_BUDGET_MS = 20

/** How long one check may spend on its patterns in all: past it, those not yet decided stay undecided. */
export const CHECK_BUDGET_MS = 100

/**
 * The patterns run with a time limit: a decision's `must_not` pattern comes from whoever may write
 * decisions, and one with nested quantifiers, tested against a long shell command, would hold the
 * event loop (every route, /healthz included) for minutes. V8 stops a regular expression at a vm
 * script's timeout. All the patterns of a check run in one script (a timeout costs a watchdog
 * thread, about 75 µs); when that one runs out, each pattern runs in a script of its own for a
 * millisecond, which decides every pattern that finishes (they take microseconds), and then the
 * undecided ones get `budgetMs` each in turn until the check has spent `checkMs` in all: a slow
 * pattern never leaves another one undecided, and however many slow ones there are, a check holds
 * the service (and the guard waiting for it, whose own limit is 1 s) for about `checkMs` plus a
 * millisecond a pattern at most.
 */
export function matchWithin(budgetMs: number = PATTERN_BUDGET_MS, checkMs: number = CHECK_BUDGET_MS): MatchPatterns {
  const context = createContext({ patterns: [] as readonly string[], text: '' })
  const all = new Script('patterns.map((p) => new RegExp(p).test(text))')
  const one = new Script('new RegExp(patterns[0]).test(text)')
  const run = (script: Script, ms: number): unknown => script.runInContext(context, { timeout: ms })
  return (patterns, text) => {
    if (patterns.length === 0) return []
    const deadline = performance.now() + checkMs
    context.text = text
    context.patterns = patterns
    try {
      return [...(run(all, budgetMs) as boolean[])]
    } catch (error) {
      if (!timedOut(error)) throw error
    }
    const alone = (pattern: string, ms: number): boolean | undefined => {
      context.patterns = [pattern]
      try {
        return run(one, ms) as boolean
      } catch (error) {
        if (!timedOut(error)) throw error
        return undefined
      }
    }
    // First a millisecond each, which decides every pattern that finishes at all, wherever it
    // stands; then what is left of the check's time for the slow ones, in turn.
    const answers = patterns.map((pattern) => alone(pattern, 1))
    return answers.map((answer, i) => {
      if (answer !== undefined) return answer
      const left = Math.floor(deadline - performance.now())
      return left < 1 ? undefined : alone(patterns[i] as string, Math.min(budgetMs, left))
    })
  }
}

function timedOut(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
}
