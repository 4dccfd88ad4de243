import type { Issue } from '../domain/errors'
import { foldCase, matchInOtherWords, matchOption, normalizeLabel } from '../domain/labels'
import { characters, leadingCharacters } from '../domain/limits'
import { boundaryBesideNonAscii, inEveryWay, LETTER_HINTS, letterReadAsLetter, regexLiteralBody, regexReason } from '../domain/policy'
import type { Constraint, DecisionRecord, DecisionScope, EnforceLevel } from './decision'
import type { DecisionConflict } from './enforcement'
import { matchPlainly, type MatchPatterns } from './pattern-match'
import { actionForms, collapseWhiteSpace } from './shell-forms'

/**
 * The problems of a decision's constraints, as issues at `constraints.<i>.<field>`:
 * `must` and `prefer` name an option, `must_not` an option or a pattern, `limit` a value; an
 * option only means something at a decision point, so option constraints need `scope.points`;
 * only `must_not` takes a pattern, and only `limit` a value; a pattern must be a valid regular
 * expression.
 */
export function validateConstraints(constraints: readonly Constraint[], scope: DecisionScope): Issue[] {
  const issues: Issue[] = []
  constraints.forEach((c, i) => {
    const at = `constraints.${i}`
    if ((c.kind === 'must' || c.kind === 'prefer') && c.option === undefined) {
      issues.push({ path: `${at}.option`, message: `a ${c.kind} constraint names an option` })
    }
    if (c.kind === 'must_not' && c.option === undefined && c.pattern === undefined) {
      issues.push({ path: `${at}.pattern`, message: 'a must_not constraint names an option or a pattern' })
    }
    if (c.kind === 'limit' && c.value === undefined) {
      issues.push({ path: `${at}.value`, message: 'a limit constraint has a numeric value' })
    }
    if (c.kind !== 'must_not' && c.pattern !== undefined) {
      issues.push({ path: `${at}.pattern`, message: 'only must_not constraints take a pattern' })
    }
    // A number on a must or prefer would be read as a limit its author meant and never checked.
    if (c.kind !== 'limit' && c.value !== undefined) {
      issues.push({ path: `${at}.value`, message: 'only limit constraints take a value' })
    }
    if (c.option !== undefined && c.kind !== 'limit' && scope.points.length === 0) {
      issues.push({ path: `${at}.option`, message: 'an option constraint needs scope.points to say where the option is offered' })
    }
    if (c.pattern !== undefined) {
      try {
        new RegExp(c.pattern)
        const unmet = patternMeetsNoCommand(c.pattern)
        if (unmet !== undefined) issues.push({ path: `${at}.pattern`, message: unmet })
      } catch (error) {
        // The engine's reason, as a policy's match rule says it, then the pattern as given.
        issues.push({ path: `${at}.pattern`, message: `not a valid regular expression (${regexReason(error)}): ${c.pattern}` })
      }
    }
  })
  issues.push(...contradictions(constraints))
  return issues
}

/**
 * Why a valid `must_not` pattern, as written, meets no command, if it does not: the slips a policy's
 * `match` rule is refused for (policy.ts), which left a required decision blocking nothing. A `\b`
 * that JSON read as a backspace; a JavaScript literal, `/git push --force/i`, whose slashes and
 * flags are text no command holds; an escape JavaScript has not, `\Agit push` (read as `Agit push`:
 * a pattern is read outside Unicode mode, as pattern-match runs it), or a `\b` beside a letter
 * outside ASCII, where every way through the pattern meets one.
 */
function patternMeetsNoCommand(pattern: string): string | undefined {
  const control = /[\u0000-\u0008\u000e-\u001f\u007f]/.exec(pattern)?.[0]
  if (control !== undefined) {
    const code = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
    return control === '\b'
      ? `holds a backspace (${code}), which no command has: \\b in JSON is a backspace, not a word boundary; write \\\\b there`
      : `holds the control character ${code}, which no command has: a backslash escape of JSON is read before the pattern is; write its backslash twice`
  }
  const literal = regexLiteralBody(pattern)
  if (literal !== undefined) {
    return `${pattern} is written as a JavaScript regular expression literal, whose slashes and flags are read as text no command holds: write the pattern alone, ${literal}`
  }
  const letter = inEveryWay(pattern, letterReadAsLetter)
  if (letter !== undefined) {
    const hint = letter === 'p' || letter === 'P' ? ' (a pattern is read outside Unicode mode, where \\p{…} is no class)' : (LETTER_HINTS[letter] ?? '')
    return `\\${letter} is read as the ${/\p{L}/u.test(letter) ? 'letter' : 'character'} ${letter}: a JavaScript regular expression has no such escape${hint}, so the pattern meets no command without it`
  }
  const beside = inEveryWay(pattern, boundaryBesideNonAscii)
  if (beside !== undefined) {
    return `\\b beside ${beside} is no word boundary: to a JavaScript regular expression only ASCII letters, digits and _ make words (write (?<![\\p{L}\\p{N}_]) before a word and (?![\\p{L}\\p{N}_]) after it, or a space)`
  }
  return undefined
}

/**
 * An option a decision both requires (`must` or `prefer`) and forbids (`must_not`), compared as
 * the check compares a choice exactly (`tier m (Recommended)` is `Tier M`): the decision could never
 * be followed, and a required one would fix the recommendation to an option its own check blocks.
 * Not in other words: a choice that is one of `Tier M` and `M` exactly is never taken for the other
 * (namedBy), so a decision naming both can be followed.
 */
function contradictions(constraints: readonly Constraint[]): Issue[] {
  const wanted = new Map<string, number>()
  constraints.forEach((c, i) => {
    if ((c.kind === 'must' || c.kind === 'prefer') && c.option !== undefined) {
      const label = optionKey(c.option)
      if (!wanted.has(label)) wanted.set(label, i)
    }
  })
  const issues: Issue[] = []
  constraints.forEach((c, i) => {
    if (c.kind !== 'must_not' || c.option === undefined) return
    const j = wanted.get(optionKey(c.option))
    if (j === undefined) return
    const other = constraints[j] as Constraint
    issues.push({
      path: `constraints.${i}.option`,
      message: `"${c.option}" is also named by constraints.${j} (${other.kind}): ${bothWays(other.kind)}`,
    })
  })
  // So is a `must` or `prefer` option over the decision's own `limit` (`must 5` with `limit 3`), read
  // as its recommendation and check read it at the decision's points, units too: taken, a required
  // one ruled its must's option out and answered for the user with another, which its check blocked.
  constraints.forEach((c, i) => {
    if (c.kind !== 'limit' || c.value === undefined) return
    const j = constraints.findIndex((w) => (w.kind === 'must' || w.kind === 'prefer') && w.option !== undefined && overLimit(w.option, c.value as number) !== undefined)
    if (j === -1) return
    const other = constraints[j] as Constraint
    issues.push({
      path: `constraints.${i}.value`,
      message: `"${other.option}" of constraints.${j} (${other.kind}) is over this limit ${c.value}: ${bothWays(other.kind)}`,
    })
  })
  return issues
}

/** Why a decision cannot have both: a `prefer` requires nothing, so it is not said to. */
function bothWays(kind: Constraint['kind']): string {
  return `one decision cannot both ${kind === 'prefer' ? 'prefer' : 'require'} and forbid an option`
}

/** One decision an action or a choice goes against. */
export interface Violation {
  key: string
  title: string
  enforce: EnforceLevel
  rationale: string
  constraint: Constraint
  message: string
  /**
   * True when the constraint's pattern could not be decided against the action in time: the action
   * may or may not meet it. Absent when it was decided (the action met it).
   */
  undecided?: true
}

/** The answer of `POST /v1/decisions/check` (R-CON-3). */
export interface Verdict {
  allowed: boolean
  /** Accepted required decisions it breaks: these block. */
  blocked_by: Violation[]
  /** Advisory decisions (and `prefer` constraints) it goes against: these only warn. */
  warnings: Violation[]
  /** Keys of the applicable decisions that were checked. */
  checked: string[]
  /**
   * Accepted decisions the run would be in but for their path scope, stored as a glob by a version
   * before this (`src/billing/**`), which applies to none of the paths it matches: not checked, and said so. Absent when none.
   */
  scope_warnings?: Array<{ key: string; message: string }>
  /**
   * Accepted required decisions bound to the choice's point that contradict each other there, as
   * its recommendation names them (the newer holds there; the check blocks what either forbids).
   * Absent when none.
   */
  conflicts?: DecisionConflict[]
}

/** Shell text as written, compared with runs of white space made one space, so `git  push` is `git push`. */
export function normalizeAction(action: string): string {
  return collapseWhiteSpace(action)
}

/**
 * The number a choice breaks a `limit` of `value` with: a numeric choice above it (`5` over 3, or
 * `5 replicas`: a number and its unit), read as a label is matched (`5 (Recommended)` is the option 5, as for `must_not`). Undefined
 * when it keeps to the limit or is no number. What the check blocks and what a recommendation
 * rules out are decided here alike. `withUnits`: the limit is bound to the choice's point, whose
 * options it counts; a limit bound to no point is checked at every point, where `16 GB RAM` or
 * `10 min` count something else than it does, and only a bare number is read.
 */
export function overLimit(choice: string, value: number, withUnits = true): number | undefined {
  const label = normalizeLabel(choice)
  const n = Number(label)
  // A numeral too large for a double (`1e309`, 400 digits) reads as Infinity: it is over any
  // limit, not "no number". The word `Infinity` stays a name.
  if (label !== '' && (Number.isFinite(n) || (n === Infinity && DECIMAL_NUMERAL.test(label)))) return n > value ? n : undefined
  if (!withUnits) return undefined
  const number = countOf(label)
  return number !== undefined && number > value ? number : undefined
}

/** A decimal numeral as Number() reads one, exponent included (`5`, `+2.5`, `.5`, `1e309`). */
const DECIMAL_NUMERAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i

const MAGNITUDES: Readonly<Record<string, number>> = { k: 1e3, K: 1e3, M: 1e6 }

/**
 * A number with its unit (`5 replicas`, `8 GB`, `16GB`, `90%`) is that number: a limit of 3
 * replicas let `5 replicas` through. Thousands are read as written: `10k` and `10K users` are
 * 10000, `1M` a million, `12,000` twelve thousand (`1,5` is no number: a decimal comma or a list),
 * `1e5` a hundred thousand.
 * Not a range, a name or an ordinal (`3-5 people`, `Tier 2`, `v2`, `5th option`).
 */
function countOf(label: string): number | undefined {
  // An exponent as Number() reads one (`1e5 replicas`), digits after it: `5ea` is 5 of a unit `ea`.
  const parts = /^([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?)([kKM]?)(.*)$/su.exec(label)
  if (parts === null) return undefined
  const [, digits = '', magnitude = '', after = ''] = parts
  // `5Mbps`, `4KB`: the letter begins the unit, and is no thousands.
  const scaled = magnitude !== '' && !/^\p{L}/u.test(after)
  const unit = scaled ? after : `${magnitude}${after}`
  if (/^(?:st|nd|rd|th)(?!\p{L})/iu.test(unit)) return undefined
  if (unit !== '' && !/^(?:\s+|(?=[\p{L}%]))[\p{L}%][^\d]*$/su.test(unit)) return undefined
  // Digits too many for a double are Infinity: over any limit, as the number they write is.
  return Number(digits.replaceAll(',', '')) * (scaled ? (MAGNITUDES[magnitude] ?? 1) : 1)
}

function sameOption(a: string, b: string): boolean {
  return optionKey(a) === optionKey(b)
}

/**
 * The options a choice at a point is read among (R-CON-3): those the option constraints of the
 * decisions bound to it name, and the policy point's static default, once each as the check
 * compares them. A check sent without the offered options has none to look among, as a recommendation
 * has (namedAmongOffered, where it is sent them): these are the options the point is known by here. `policyDefault`: the default, where no decision names it
 * exactly (namedBy reads it as the option a decision names in other words).
 */
function optionsNamedAt(decisions: readonly DecisionRecord[], point: string, pointDefault: string | undefined): NamedAt {
  const named = new Map<string, string>()
  const add = (option: string) => {
    const key = optionKey(option)
    if (!named.has(key)) named.set(key, normalizeLabel(option))
  }
  for (const d of decisions) {
    if (!d.scope.points.includes(point)) continue
    // A limit's option names what it counts (`replicas`), no option of the point.
    for (const c of d.constraints) if (c.kind !== 'limit' && c.option !== undefined) add(c.option)
  }
  if (pointDefault === undefined || named.has(optionKey(pointDefault))) return { options: [...named.values()] }
  add(pointDefault)
  return { options: [...named.values()], policyDefault: normalizeLabel(pointDefault) }
}

interface NamedAt {
  options: string[]
  policyDefault?: string
}

/**
 * How a checked choice names a decision's option: `exactly` as labels are normalised and compared
 * (`tier s (Recommended)` is `Tier S`); else `in other words`, where the word match finds that
 * option alone among the options named at the point (matchInOtherWords, as a recommendation finds
 * a decision's option among those offered: `S` is `Tier S` beside the policy's `Tier M`), when
 * at least two are named there; none where the choice is another of them exactly, or two would do (`Sonnet` beside `Sonnet 4.5` and
 * `Sonnet 4`), or a word is only shortened (`Med` is not `Tier M`). But the policy's default, which
 * no decision names, is the option a decision names where that option reads as it (`Tier M` for
 * a decision's `M`), as the recommendation offering it takes it for that option.
 */
function namedBy(choice: string, option: string, named: NamedAt): 'exactly' | 'in other words' | undefined {
  if (sameOption(choice, option)) return 'exactly'
  // One option alone tells its words from nothing: `Redis` is not a decision's `Redis Cluster`,
  // nor `Kafka Streams` its `Kafka`, where no other option is known at the point.
  if (named.options.length < 2) return undefined
  const found = matchInOtherWords(choice, named.options)
  if (found !== undefined && sameOption(found, option)) return 'in other words'
  // The policy's default, which no decision names, may be this option in the option's own words
  // (`Tier M` for a decision's `M`, `Sonnet` for its `Sonnet 4.5`), as a recommendation offering it
  // takes it: `must M` fixes it, `must_not M` takes it out. A choice that is the default then names
  // the option, and the default is no other option to tell a choice from (`Claude Sonnet 4.5`
  // holds the words of both, and was blocked under `must Sonnet 4.5`, which fixes it).
  const { policyDefault } = named
  if (policyDefault === undefined) return undefined
  const read = matchInOtherWords(option, named.options.filter((o) => !sameOption(o, option)))
  if (read === undefined || !sameOption(read, policyDefault)) return undefined
  if (sameOption(choice, policyDefault)) return 'in other words'
  const without = matchInOtherWords(choice, named.options.filter((o) => !sameOption(o, policyDefault)))
  return without !== undefined && sameOption(without, option) ? 'in other words' : undefined
}

/**
 * How a checked choice names a decision's option among the options its question offered, as the
 * recommendation offering them reads both (R-CON-2, R-CON-3): the choice is the option offered it
 * names as a choice is resolved (matchOption), the decision's option the one offered that
 * contractFor finds for it (matchInOtherWords), and they name one another when that is one option.
 * So at `model-selection`, offering `Claude Sonnet 4.5` beside `Claude Opus 4.1`, a `must_not
 * Sonnet` names `Claude Sonnet 4.5`, which its recommendation takes out; and `Redis Cluster`,
 * offered beside `Redis`, is not the `Redis` a decision names, which its recommendation keeps. A
 * choice none of them is (typed in the user's own words) is read as without them (namedBy).
 */
function namedAmongOffered(choice: string, option: string, offered: readonly string[], named: NamedAt): 'exactly' | 'in other words' | undefined {
  const chosen = matchOption(choice, offered)
  if (chosen === undefined) return namedBy(choice, option, named)
  if (matchInOtherWords(option, offered) !== chosen) return undefined
  return sameOption(choice, option) ? 'exactly' : 'in other words'
}

function optionKey(option: string): string {
  return foldCase(normalizeLabel(option))
}

function violation(decision: DecisionRecord, constraint: Constraint, message: string, warns: 'prefer' | 'undecided' | undefined = undefined) {
  const undecided = warns === 'undecided'
  return {
    soft: warns !== undefined || decision.enforce === 'advisory',
    violation: {
      key: decision.key,
      title: decision.title,
      enforce: decision.enforce,
      rationale: decision.rationale,
      constraint,
      message,
      ...(undecided ? { undecided: true as const } : {}),
    } satisfies Violation,
  }
}

/** How long a command is quoted in a message, in characters, before it is cut. */
export const SHOWN_ACTION_LENGTH = 300

/**
 * A command as a message quotes it: whole when short, else its start and its length. An action may
 * be 100,000 characters (a heredoc), and the guard's reason, which quotes it, goes to the agent and
 * the user: the whole script again says nothing more than its start and the pattern.
 */
function shown(text: string): string {
  const length = characters(text)
  if (length <= SHOWN_ACTION_LENGTH) return text
  // Counted as the limits are, and not cut within a character (an emoji, a letter and its accent).
  return `${leadingCharacters(text, SHOWN_ACTION_LENGTH)}… (${length} characters)`
}

/**
 * The choices of a multi-select choice, each once as labels are normalised (`S` and `S `), or as
 * the option offered they name (matchOption: `2M users` and `2m users`), as first named; not
 * otherwise folded in case, which would take `Maße` for `Masse`, another option.
 */
export function onceEach(choices: readonly string[], offered: readonly string[] | undefined): string[] {
  const seen = new Set<string>()
  return choices.filter((choice) => {
    const key = (offered === undefined ? undefined : matchOption(choice, offered)) ?? normalizeLabel(choice)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** A constraint a choice checked at no point is read against: a `must_not` of an option, or a `limit` (atNoPoint). */
function blocksAtNoPoint(c: Constraint): boolean {
  return (c.kind === 'must_not' && c.option !== undefined) || (c.kind === 'limit' && c.value !== undefined)
}

/**
 * A choice checked at no point against a constraint of a decision bound to points (R-CON-3: `point?`):
 * read at each of its points as a choice at that point is, it goes against a `must_not` that names
 * it at one of them, or a `limit` it is over (read as the limit reads a choice at its points, a
 * number with its unit too). A `must` or `prefer` says nothing of it: the choice may be made at
 * another point, where the option it asks for is not offered. The message names the points.
 */
function atNoPoint(
  decision: DecisionRecord,
  c: Constraint,
  choices: readonly string[],
  nameOf: (choice: string, option: string, point: string) => 'exactly' | 'in other words' | undefined,
): Array<ReturnType<typeof violation>> {
  const points = decision.scope.points
  if (c.kind === 'limit' && c.value !== undefined) {
    const value = c.value
    return choices.flatMap((choice) => {
      const n = overLimit(choice, value)
      if (n === undefined) return []
      const counts = c.option === undefined ? '' : ` (${c.option})`
      return [violation(decision, c, `at ${points.join(', ')} ${Number.isFinite(n) ? n : normalizeLabel(choice)} is over the limit ${value}${counts}`)]
    })
  }
  if (c.kind !== 'must_not' || c.option === undefined) return []
  const option = c.option
  const naming = points.flatMap((point) => choices.map((choice) => ({ point, choice, how: nameOf(choice, option, point) }))).filter((n) => n.how !== undefined)
  if (naming.length === 0) return []
  const at = points.filter((point) => naming.some((n) => n.point === point))
  const exactly = naming.some((n) => n.how === 'exactly')
  const inOtherWords = [...new Set(naming.map((n) => n.choice))]
  const said = exactly ? '' : ` (the choice ${inOtherWords.map((choice) => `"${choice}"`).join(', ')} is it in other words)`
  return [violation(decision, c, `at ${at.join(', ')} "${option}" must not be chosen${said}`)]
}

/**
 * Judges an action (a shell command) or a choice at a decision point against decisions that
 * already apply (accepted, in scope). An action is tested against every `must_not` pattern, in
 * each of its forms (`actionForms`: as written, and as the shell runs it), through
 * `matchPatterns` (a pattern it cannot decide in time only warns, whatever its decision's level); a choice against the option constraints of the decisions bound to its point (an option it
 * names exactly or in other words: namedBy, or among the options offered, where they are given: namedAmongOffered), and against `limit`s when it is a number; a choice at no point
 * against the `must_not` options and `limit`s of every decision, at each of its points (atNoPoint). Required decisions block; advisory ones, and any
 * `prefer`, warn.
 */
export function checkAgainst(
  decisions: readonly DecisionRecord[],
  request: {
    action?: string | undefined
    choice?: string | readonly string[] | undefined
    point?: string | undefined
    /** The options the choice's question offered, normalised (offeredOptions): the choice is read among them (namedAmongOffered). */
    offered?: readonly string[] | undefined
  },
  matchPatterns: MatchPatterns = matchPlainly,
  /** The policy point's static default at a point a choice is read at: it is read among it too (optionsNamedAt). */
  defaultAt: (point: string) => string | undefined = () => undefined,
): Verdict {
  const found: Array<ReturnType<typeof violation>> = []
  const action = request.action === undefined ? undefined : normalizeAction(request.action)
  // The command as written first, then as the shell would run it (quotes removed, each command of
  // a list, wrappers taken off): a pattern is met when it matches any of them.
  const forms = request.action === undefined ? [] : actionForms(request.action)
  // Required decisions' patterns first, and urgent: when a check meets many slow patterns, the
  // time-limited turns (matchWithin) run out, and an advisory pattern left undecided only warns,
  // while a required one left undecided lets the command through (or fail-closed, refuses it).
  const mustNot = (d: DecisionRecord) => d.constraints.filter((c) => c.kind === 'must_not' && c.pattern !== undefined)
  const required = action === undefined ? [] : decisions.filter((d) => d.enforce === 'required').flatMap(mustNot)
  const patterned = action === undefined ? [] : [...required, ...decisions.filter((d) => d.enforce !== 'required').flatMap(mustNot)]
  const matched = new Map(
    action === undefined ? [] : matchPatterns(patterned.map((c) => c.pattern as string), forms, required.length).map((m, i) => [patterned[i], m]),
  )
  // The options named at each point a choice is read at, read once a point.
  const namedAtPoint = new Map<string, NamedAt>()
  const namedAt = (point: string): NamedAt => {
    let named = namedAtPoint.get(point)
    if (named === undefined) namedAtPoint.set(point, (named = optionsNamedAt(decisions, point, defaultAt(point))))
    return named
  }
  const { offered } = request
  const nameOf = (choice: string, option: string, point: string) =>
    offered === undefined ? namedBy(choice, option, namedAt(point)) : namedAmongOffered(choice, option, offered, namedAt(point))
  for (const decision of decisions) {
    const atPoint = request.point !== undefined && decision.scope.points.includes(request.point)
    for (const c of decision.constraints) {
      if (matched.has(c)) {
        const m = matched.get(c)
        if (m !== undefined && m >= 0) {
          const readAs = m === 0 ? '' : ` (read as "${shown(forms[m] as string)}")`
          found.push(violation(decision, c, `"${shown(action as string)}" matches the must_not pattern /${c.pattern}/${readAs}`))
        }
        if (m === undefined) {
          found.push(
            violation(
              decision,
              c,
              `"${shown(action as string)}" could not be checked against the must_not pattern /${c.pattern}/: it takes too long on this action ` +
                '(nested quantifiers, such as (a+)+, can take exponential time); rewrite the pattern',
              'undecided',
            ),
          )
        }
      }
      if (request.choice === undefined) continue
      // A multi-select choice is the options chosen together: each is within the limits, none is
      // ruled out, and the one a decision asks for is among them.
      // One named twice (`S`, `S `; `2m users` offered as `2M users`) is one choice, as an observation
      // keeps it: said and counted once.
      const choices: readonly string[] = typeof request.choice === 'string' ? [request.choice] : onceEach(request.choice, offered)
      const chosen = choices.map((choice) => `"${choice}"`).join(', ')
      if (request.point === undefined && decision.scope.points.length > 0) {
        found.push(...atNoPoint(decision, c, choices, nameOf))
        continue
      }
      if (c.kind === 'limit' && c.value !== undefined && (decision.scope.points.length === 0 || atPoint)) {
        for (const choice of choices) {
          // Among the options offered, as the option it names (`2m users` is `2M users`, two
          // million), which the recommendation offering them read against the limit.
          const n = overLimit((offered === undefined ? undefined : matchOption(choice, offered)) ?? choice, c.value, atPoint)
          if (n !== undefined) {
            found.push(violation(decision, c, `${Number.isFinite(n) ? n : normalizeLabel(choice)} is over the limit ${c.value}${c.option === undefined ? '' : ` (${c.option})`}`))
          }
        }
      }
      if (!atPoint || c.option === undefined) continue
      const option = c.option
      const naming = choices.map((choice) => ({ choice, how: nameOf(choice, option, request.point as string) })).filter((n) => n.how !== undefined)
      const among = naming.length > 0
      if (c.kind === 'must' && !among) {
        const must = typeof request.choice === 'string' ? `must be "${option}", not ${chosen}` : `must include "${option}", not only ${chosen}`
        found.push(violation(decision, c, `at ${request.point} the choice ${must}`))
      }
      if (c.kind === 'must_not' && among) {
        // Said as chosen where no choice names it exactly, so that `S` blocked by `Tier S` reads why.
        const exactly = naming.some((n) => n.how === 'exactly')
        const said = exactly ? '' : ` (the choice ${naming.map((n) => `"${n.choice}"`).join(', ')} is it in other words)`
        found.push(violation(decision, c, `at ${request.point} "${option}" must not be chosen${said}`))
      }
      if (c.kind === 'prefer' && !among) {
        found.push(violation(decision, c, `at ${request.point} "${option}" is preferred over ${chosen}`, 'prefer'))
      }
    }
  }
  const blocked = found.filter((f) => !f.soft).map((f) => f.violation)
  return {
    allowed: blocked.length === 0,
    blocked_by: blocked,
    warnings: found.filter((f) => f.soft).map((f) => f.violation),
    checked: decisions.filter((d) => reachedBy(d, request)).map((d) => d.key),
  }
}

/**
 * Whether a check reaches a decision that applies to its run: bound to no point, bound to the
 * point of the choice, holding a pattern the action is tested against, or, for a choice at no
 * point, holding an option or limit that could block it at one of its points (atNoPoint). A command
 * checked at no point (the guard's) does not reach one bound to a point by its options, whose
 * pulse would hide that no question at its point was ever asked (R-CON-4); nor does a choice at
 * no point reach one whose `must` or `prefer` it does not read.
 */
export function reachedBy(
  decision: DecisionRecord,
  request: { action?: string | undefined; choice?: string | readonly string[] | undefined; point?: string | undefined },
): boolean {
  const { points } = decision.scope
  return (
    points.length === 0 ||
    (request.point !== undefined && points.includes(request.point)) ||
    (request.action !== undefined && decision.constraints.some((c) => c.kind === 'must_not' && c.pattern !== undefined)) ||
    (request.choice !== undefined && request.point === undefined && decision.constraints.some(blocksAtNoPoint))
  )
}
