import { createContext, Script } from 'node:vm'

/**
 * Whether each pattern matches `text`: true or false, or undefined when that could not be told
 * within the time allowed (a pattern such as `(a+)+$` backtracks exponentially on some texts).
 */
export type MatchPatterns = (patterns: readonly string[], text: string) => Array<boolean | undefined>

/** Every pattern run to its end: for tests and tools whose patterns are trusted. */
export const matchPlainly: MatchPatterns = (patterns, text) => patterns.map((p) => new RegExp(p).test(text))

/** How long the patterns of one check may run, in milliseconds, before each is given its own turn. */
export const PATTERN_BUDGET_MS = 100

/**
 * The patterns run with a time limit: a decision's `must_not` pattern comes from whoever may write
 * decisions, and one with nested quantifiers, tested against a long shell command, would hold the
 * event loop (every route, /healthz included) for minutes. V8 stops a regular expression at a vm
 * script's timeout. All the patterns of a check run in one script (a timeout costs a watchdog
 * thread, about 75 µs); when that one runs out, each pattern runs in a script of its own, so that
 * one slow pattern leaves the others decided.
 */
export function matchWithin(budgetMs: number = PATTERN_BUDGET_MS): MatchPatterns {
  const context = createContext({ patterns: [] as readonly string[], text: '' })
  const all = new Script('patterns.map((p) => new RegExp(p).test(text))')
  const one = new Script('new RegExp(patterns[0]).test(text)')
  const run = (script: Script): unknown => script.runInContext(context, { timeout: budgetMs })
  return (patterns, text) => {
    if (patterns.length === 0) return []
    context.text = text
    context.patterns = patterns
    try {
      return [...(run(all) as boolean[])]
    } catch (error) {
      if (!timedOut(error)) throw error
    }
    return patterns.map((pattern) => {
      context.patterns = [pattern]
      try {
        return run(one) as boolean
      } catch (error) {
        if (!timedOut(error)) throw error
        return undefined
      }
    })
  }
}

function timedOut(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
}
