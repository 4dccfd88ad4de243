import { createContext, Script } from 'node:vm'

/**
 * For each pattern, the index of the first of `texts` it matches (the forms of one command), -1
 * when it matches none, or undefined when that could not be told within the time allowed (a
 * pattern such as `(a+)+$` backtracks exponentially on some texts). The first `urgent` patterns
 * (0 when not given) are the ones that matter most: they are decided before the others are given
 * any time.
 */
export type MatchPatterns = (patterns: readonly string[], texts: readonly string[], urgent?: number) => Array<number | undefined>

/** Every pattern run to its end: for tests and tools whose patterns are trusted. */
export const matchPlainly: MatchPatterns = (patterns, texts) =>
  patterns.map((p) => {
    const pattern = new RegExp(p)
    return texts.findIndex((t) => pattern.test(t))
  })

/** How long the patterns of one check may run together, in milliseconds, before each is given turns of its own. */
export const PATTERN_BUDGET_MS = 20

/**
 * The turns each pattern then gets alone, in rounds over those still undecided: a pattern that
 * finishes at all takes microseconds and is decided in the first, unless the machine is so loaded
 * that the watchdog's thread fires before the pattern could run; the longer turns after it leave
 * that to three stalls in a row. A slow pattern costs their sum. The urgent patterns get their
 * rounds before any other pattern its first: on a loaded machine, an urgent first turn that stalled
 * would otherwise wait for a round over every slow pattern, and the limit below could run out
 * before its second. (Their three turns one pattern after the other instead, a dozen slow urgent
 * patterns would use up the limit before a fast urgent one after them had its first.)
 */
const TURNS_MS = [5, 10, 20] as const

/**
 * How long the turns of one check may take in all, in milliseconds: a decision may have 50
 * patterns, and a check meets every accepted decision's, so turns per pattern alone are no bound
 * (fifty slow ones held a check, and the service, for 1.8 s, past the guard's 1 s, which then let a
 * force push through that a fast pattern of the same check forbids). Ten slow patterns still get
 * all three rounds (about 350 ms); past this, no turn is begun and what is left stays undecided.
 */
export const TURNS_LIMIT_MS = 400

/**
 * How many patterns are tried together, in one script, before the turns: a check meets every
 * accepted decision's patterns, and thousands that all finish take longer together than the first
 * budget (4,000, those of 2,000 required decisions, took 36-47 ms). Taken one a turn, at the cost
 * of a watchdog each, they ran into TURNS_LIMIT_MS with 1,500 to 2,700 of them never tried, and
 * required decisions among them let their commands through. In chunks, only a chunk that holds a
 * slow pattern is taken apart into turns.
 */
const CHUNK = 64

/**
 * The patterns run with a time limit: a decision's `must_not` pattern comes from whoever may write
 * decisions, and one with nested quantifiers, tested against a long shell command, would hold the
 * event loop (every route, /healthz included) for minutes. V8 stops a regular expression at a vm
 * script's timeout. All the patterns of a check run in one script (a timeout costs a watchdog
 * thread, about 75 µs); when that one runs out, a check of more than CHUNK patterns runs them in
 * chunks of CHUNK, and the patterns of the chunks that ran out run alone in rounds of TURNS_MS,
 * each round over those still undecided, so that a slow pattern never leaves another one undecided. A
 * check then holds the service (and the guard waiting for it, whose own limit is 1 s) for
 * `budgetMs` and about 35 ms a slow pattern, TURNS_LIMIT_MS at most. `now` (milliseconds, a
 * monotonic clock) is what that limit is counted on, and `turnsMs` the turns; tests pass their own
 * (a turn is real time: on a loaded machine a 5 ms turn of a fast pattern may stall, which the
 * service leaves to the longer turns after it, and a test that stops the turns early cannot).
 */
export function matchWithin(
  budgetMs: number = PATTERN_BUDGET_MS,
  now: () => number = () => performance.now(),
  turnsMs: readonly number[] = TURNS_MS,
): MatchPatterns {
  const context = createContext({ patterns: [] as readonly string[], texts: [] as readonly string[] })
  const all = new Script('patterns.map((p) => { const r = new RegExp(p); return texts.findIndex((t) => r.test(t)) })')
  const one = new Script('{ const r = new RegExp(patterns[0]); texts.findIndex((t) => r.test(t)) }')
  const run = (script: Script, ms: number): unknown => script.runInContext(context, { timeout: ms })
  return (patterns, texts, urgent = 0) => {
    if (patterns.length === 0) return []
    context.texts = texts
    context.patterns = patterns
    try {
      return [...(run(all, budgetMs) as number[])]
    } catch (error) {
      if (!timedOut(error)) throw error
    }
    const answers: Array<number | undefined> = patterns.map(() => undefined)
    const until = now() + TURNS_LIMIT_MS
    const turn = (i: number, ms: number) => {
      if (answers[i] !== undefined || now() >= until) return
      context.patterns = [patterns[i] as string]
      try {
        answers[i] = run(one, ms) as number
      } catch (error) {
        if (!timedOut(error)) throw error
      }
    }
    // Rounds over the urgent patterns, then rounds over the rest: a slow urgent pattern then never
    // leaves an urgent one that finishes untried.
    const first = Math.min(urgent, patterns.length)
    // Patterns from..to in chunks of CHUNK, each one script with a first turn's time: those of a
    // chunk that finishes are decided, and the turns are left for the chunks that did not.
    const chunks = (from: number, to: number) => {
      if (patterns.length <= CHUNK) return
      for (let start = from; start < to; start += CHUNK) {
        if (now() >= until) return
        context.patterns = patterns.slice(start, Math.min(start + CHUNK, to))
        try {
          ;(run(all, turnsMs[0] ?? budgetMs) as number[]).forEach((m, j) => {
            answers[start + j] = m
          })
        } catch (error) {
          if (!timedOut(error)) throw error
        }
      }
    }
    chunks(0, first)
    for (const ms of turnsMs) for (let i = 0; i < first; i++) turn(i, ms)
    chunks(first, patterns.length)
    for (const ms of turnsMs) for (let i = first; i < patterns.length; i++) turn(i, ms)
    return answers
  }
}

function timedOut(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT'
}
