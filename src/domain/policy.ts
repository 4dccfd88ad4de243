import { z } from './zod'
import { normalizeLabel } from './labels'
import { ambiguousRepeat, oneWayHint } from './ambiguous-repeat'
import { nestedRepeat } from './nested-repeat'
import { bareName } from './name-ends'
import { hasNoLoneSurrogate, LONE_SURROGATES, TrimmedIdentifierSchema } from './observation'

/**
 * A term, static default or precondition with something to show: not white space alone, nor
 * invisible marks alone (a zero-width space, a word joiner: bareName, as a label's ends are read),
 * which look blank, as a `match` rule of them is refused. No lone surrogate (`"\ud800"` in JSON or
 * YAML), as no text of a request holds one: a static default or term holding one names no option
 * or question sent, and a precondition holding one was said in every answer standing on it.
 */
const nonBlank = z
  .string()
  .refine((text) => bareName(text) !== '', 'must not be blank')
  .refine(hasNoLoneSurrogate, LONE_SURROGATES)
/**
 * A precondition, said within a sentence (`Recommended when <precondition> — based on …`): its white
 * space one space, none at its ends. A YAML block scalar (`precondition: |` or `>`), the way to
 * write a long text there, ends in a newline, which the option's description then held before
 * its `— based on`.
 */
const clause = nonBlank.transform((text) => text.replace(/\s+/g, ' ').trim())

/**
 * A match rule as it is compiled: in NFC, each run of white space one space, as the question it is
 * tried against is normalised (R-CAP-4), so that a rule typed with two spaces, a non-breaking space
 * or a combining accent still fits the question it spells. Not lower-cased: `\S` is not `\s`.
 */
export function matchSource(source: string): string {
  const text = source.normalize('NFC').replace(/\s+/g, ' ')
  // None at its ends, as a question has none once normalised: a rule written as a YAML block
  // (`question: |` or `>`) ends in a newline, and `which database ` then fit neither
  // `Which database?` nor its key. A space escaped at the end (`tier\ `) is the rule's own.
  const escapedEnd = /(\\+) $/.exec(text)
  const keepEnd = escapedEnd !== null && (escapedEnd[1] as string).length % 2 === 1
  const start = text.replace(/^ /, '')
  return keepEnd ? start : start.replace(/ $/, '')
}

/**
 * A match rule compiled: case-insensitive, and in Unicode mode where the rule is valid in it, so
 * that `\p{Script=Han}` is a Chinese character (not the letter p), `[🚀]` is that emoji (not half
 * of every emoji), and `.` one character. A rule Unicode mode refuses (`\-`, a lone `{`), valid
 * before, keeps the older reading. Throws when the rule is no regular expression at all.
 */
export function compileMatchRule(source: string): RegExp {
  const text = matchSource(source)
  try {
    return new RegExp(text, 'iu')
  } catch {
    return new RegExp(text, 'i')
  }
}

/**
 * Why the engine refused a regular expression (`Unterminated group`, `Invalid escape`): its
 * SyntaxError's message without the `Invalid regular expression: /…/i: ` before it, which repeats
 * the rule (said beside it already) and its flags, which the writer did not give. Greedy: the
 * reason holds no `/…: `, the rule may.
 */
export function regexReason(error: unknown): string {
  return String((error as Error | null)?.message ?? error).replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, '')
}

/**
 * Letters a backslash escapes nothing before in a JavaScript regular expression, in either mode
 * (outside Unicode mode each is read as the letter itself): all but the escapes JavaScript has
 * (`\b \B \d \D \s \S \w \W \t \n \v \f \r`, and `\c`, `\x`, `\u`, `\k`, which may be); and
 * `<` and `>`, word boundaries in GNU grep and Vim, `<` and `>` here.
 */
const NO_ESCAPE_LETTERS = /[ACEFGHIJKLMNOPQRTUVXYZaeghijlmopqyz<>]/

/** What to write instead, for the escapes of other engines a rule is most often written with. */
export const LETTER_HINTS: Record<string, string> = {
  A: ' (write ^ for the start of the text)',
  Z: ' (write $ for the end of the text)',
  z: ' (write $ for the end of the text)',
  p: ' outside Unicode mode, which another part of the rule is not valid in',
  P: ' outside Unicode mode, which another part of the rule is not valid in',
  '<': ' (write \\b for a word boundary)',
  '>': ' (write \\b for a word boundary)',
}

/**
 * The first letter (or `<`, `>`) in `source` that a backslash escapes nothing before (`\A` → `A`), if any.
 * `\<` and `\>` only where each stands as a word boundary of GNU grep would, `\<` before a word and
 * `\>` after one (`\<db\>`): a rule with one elsewhere escapes the characters themselves, as a
 * writer escapes any punctuation to be safe (`Array\<string\>`, `=\>`), and fits the questions
 * naming them.
 */
export function letterReadAsLetter(source: string): string | undefined {
  const word = (c: string | undefined) => c !== undefined && /\w/.test(c)
  const found: Array<{ at: number; letter: string }> = []
  for (let i = 0; i < source.length - 1; i++) {
    if (source[i] !== '\\') continue
    const next = source[i + 1] as string
    if (NO_ESCAPE_LETTERS.test(next)) found.push({ at: i, letter: next })
    i++
  }
  const boundary = ({ at, letter }: { at: number; letter: string }) =>
    letter === '<' ? word(source[at + 2]) && !word(source[at - 1]) : word(source[at - 1]) && !word(source[at + 2])
  const angled = found.filter((f) => f.letter === '<' || f.letter === '>')
  const asText = angled.some((f) => !boundary(f))
  return found.find((f) => !asText || (f.letter !== '<' && f.letter !== '>'))?.letter
}

/**
 * The letter outside ASCII that a `\b` in `source` stands beside (`\bключ\b` → `к`), if any: JavaScript's
 * word boundary knows only ASCII letters, digits and _ as word characters, so between a space and
 * `к` there is none, and such a rule fits no question where the word stands alone. Outside
 * character classes, where `[\b]` is a backspace.
 */
export function boundaryBesideNonAscii(source: string): string | undefined {
  const nonAscii = (c: string | undefined) => c !== undefined && c > '\u007f' && /[\p{L}\p{N}]/u.test(c)
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string
    if (c === '\\') {
      if (!inClass && source[i + 1] === 'b') {
        const before = i > 0 ? String.fromCodePoint(source.codePointAt(i - 1) as number) : undefined
        const after = source[i + 2] === undefined ? undefined : String.fromCodePoint(source.codePointAt(i + 2) as number)
        if (nonAscii(after)) return after
        if (nonAscii(before)) return before
      }
      i++
    } else if (c === '[' && !inClass) inClass = true
    else if (c === ']' && inClass) inClass = false
  }
  return undefined
}

/**
 * What `find` says of a part of `source` that every way through the rule meets (`\Awhich db`), the
 * first it says, or undefined when the rule has a way round each such part: another alternative,
 * at the top (`^which db|\Awhich database`) or in a group (`(\bdb\b|\bбаза\b)`), or a group that
 * may be left out (`(\bбаза\b )?db`, a look-around). A rule fits a question when one way through it
 * does, so a part that fits none (an escape read as a letter, a `\b` beside a letter outside ASCII)
 * stops it fitting only when nothing leads round it. `find` is given each alternative's own text,
 * a group in it one U+FFFF.
 */
export function inEveryWay(source: string, find: (part: string) => string | undefined): string | undefined {
  let i = 0
  // The alternatives from i to the `)` closing their group (or the end): the first finding when every one has one.
  const group = (): string | undefined => {
    let first: string | undefined
    let all = true
    let own = ''
    let inner: string | undefined
    const close = () => {
      const found = find(own) ?? inner
      if (found === undefined) all = false
      else first ??= found
      own = ''
      inner = undefined
    }
    while (i < source.length) {
      const c = source[i] as string
      if (c === '\\') {
        own += source.slice(i, i + 2)
        i += 2
      } else if (c === '[') {
        const from = i
        for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++
        i++
        own += source.slice(from, i)
      } else if (c === '(') {
        const optionalStart = /^\(\?<?[!=]/.test(source.slice(i))
        i++
        const found = group()
        i++
        const optional = optionalStart || /^(?:[?*]|\{0[,}])/.test(source.slice(i))
        if (found !== undefined && !optional) inner ??= found
        own += '\uFFFF'
      } else if (c === ')') break
      else if (c === '|') {
        close()
        i++
      } else {
        own += c
        i++
      }
    }
    close()
    return all ? first : undefined
  }
  return group()
}

/**
 * The body of `source` when it is written as a JavaScript regular expression literal (`/which
 * queue/i` → `which queue`), else undefined. A path a question names, `/api/v`, `/dev/sd`,
 * `/home/guy`, `/src/ui`, is slashes and letters that are flags too, and fits the questions naming
 * it: taken for a literal only when its flags are a literal's (none twice), its body holds no `/` a
 * literal's could not (`/usr/lib/vim`), and it is no path's part: a space, a `(`, a `|`, … in it.
 */
export function regexLiteralBody(source: string): string | undefined {
  const literal = /^\/(.+)\/([dgimsuvy]+)$/s.exec(source)
  if (literal === null) return undefined
  const body = literal[1] as string
  const flags = literal[2] as string
  if (new Set(flags).size !== flags.length) return undefined
  let inClass = false
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string
    if (c === '\\') i++
    else if (c === '[') inClass = true
    else if (c === ']') inClass = false
    else if (c === '/' && !inClass) return undefined
  }
  return /^[\w.~-]+$/.test(body) ? undefined : body
}

/** A named decision point of the policy (R-POL): how to recognise it and what to say before there is evidence. */
export const PointPolicySchema = z.strictObject({
  /**
   * A point key as requests and `GET /v1/why` name it: an identifier (not starting with "!", no
   * control characters), and one a write takes: `tier ` keyed its choices under a point that no
   * request naming `point` could write to, nor a `why --point tier` reach.
   */
  key: TrimmedIdentifierSchema,
  /** Case-insensitive regular expressions tried against the question's header and text (see matchSource). */
  match: z
    .strictObject({
      header: z.string().min(1).optional(),
      question: z.string().min(1).optional(),
    })
    .superRefine((m, ctx) => {
      if (m.header === undefined && m.question === undefined) {
        ctx.addIssue({ code: 'custom', message: 'give at least one of header or question' })
      }
      for (const field of ['header', 'question'] as const) {
        const source = m[field]
        // An empty rule is refused by its min(1) already: said once, not again as fitting every question.
        if (source === undefined || source === '') continue
        // A control character no question holds: most often `\b`, a word boundary to the writer, which
        // a JSON string and a YAML one in double quotes read as a backspace (U+0008) before the rule
        // is read, so the rule silently fitted no question. (Tabs and newlines are white space.)
        const control = /[\u0000-\u0008\u000e-\u001f\u007f]/.exec(source)?.[0]
        if (control !== undefined) {
          const code = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message:
              control === '\b'
                ? `holds a backspace (${code}), which no ${field} has: \\b in JSON, or in YAML double quotes, is a backspace, not a word boundary; write \\\\b there (in YAML, or '\\b' in single quotes)`
                : `holds the control character ${code}, which no ${field} has: a backslash escape of JSON, or of YAML double quotes, is read before the rule is; write its backslash twice there (in YAML, or the rule in single quotes)`,
          })
          continue
        }
        // Written as an escape (`"\ud800"`), it fits no header or question: a request holds none.
        if (!hasNoLoneSurrogate(source)) {
          ctx.addIssue({ code: 'custom', path: [field], message: LONE_SURROGATES })
          continue
        }
        // White space alone is the empty rule once its ends are trimmed (matchSource), which fits every
        // question: said blank, as a blank term is, not quoted as the spaces no reader sees. So are
        // invisible marks alone (a zero-width space, a word joiner: bareName, as a label's ends are
        // read), which look blank and fit only a question holding that mark, never one a user means.
        if (bareName(matchSource(source)) === '') {
          ctx.addIssue({ code: 'custom', path: [field], message: 'must not be blank' })
          continue
        }
        let rule: RegExp
        try {
          rule = compileMatchRule(source)
        } catch (error) {
          ctx.addIssue({ code: 'custom', path: [field], message: `not a valid regular expression (${regexReason(error)}): ${source}` })
          continue
        }
        // A rule that matches empty text fits every question (`which tier|`, a trailing `|`): the
        // point, tried in order, would take every question asked, and merge their histories into
        // its own. Probed with a text no rule names too, so that `^$` (blank only) is not refused.
        if (rule.test('') && rule.test('\uFFFF')) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${source} matches empty text, so it fits every ${field}: its point would take every question asked (remove an empty alternative, as a trailing |, or make a part required, as x+ for x*)`,
          })
        }
        // A rule written as a JavaScript literal, `/which queue/i`: its slashes and flags are text
        // of the rule, which no question holds, so the rule fitted none.
        const literal = regexLiteralBody(source)
        if (literal !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${source} is written as a JavaScript regular expression literal, whose slashes and flags are read as text no ${field} holds: write the rule alone, ${literal} (every rule is read case-insensitive)`,
          })
        }
        // Read outside Unicode mode (the rule is not valid in it), a backslash before a letter that
        // escapes nothing is that letter: `\Awhich database\Z`, written as Python or Ruby anchor a
        // rule, fitted only "awhich databasez", so no question at all. (Unicode mode refuses it.)
        // Refused when every way through the rule meets one: `^which db|\Awhich database` fits the first's.
        const letter = rule.unicode ? undefined : inEveryWay(source, letterReadAsLetter)
        if (letter !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `\\${letter} is read as the ${/\p{L}/u.test(letter) ? 'letter' : 'character'} ${letter}: a JavaScript regular expression has no such escape${LETTER_HINTS[letter] ?? ''}, so the rule fits no ${field} without it`,
          })
        }
        // `\bключ\b`, `\büber\b`: no boundary between a space and a letter outside ASCII, to JavaScript.
        const beside = inEveryWay(source, boundaryBesideNonAscii)
        if (beside !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `\\b beside ${beside} is no word boundary: to a JavaScript regular expression only ASCII letters, digits and _ make words, so the rule fits no ${field} where the word stands alone (write (?<![\\p{L}\\p{N}_]) before a word and (?![\\p{L}\\p{N}_]) after it)`,
          })
        }
        // Tried on every question an agent sends, with no time limit (a decision's pattern has one).
        const nested = nestedRepeat(source)
        if (nested !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${nested} repeats a group that repeats inside it, which can take exponential time on a question that almost matches (every question is tried): write it with one repeat, as a+ for (a+)+`,
          })
        } else {
          // Alternatives (or parts) of a repeated group that fit the same text, `(\w|\d)+`: as slow.
          const ambiguous = ambiguousRepeat(matchSource(source), rule.flags)
          if (ambiguous !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: `${ambiguous} repeats a group that can match the same text in more than one way (two of its alternatives, or two of its parts, fit the same characters), which can take exponential time on a question that almost matches (every question is tried): write it so that each text is matched one way: ${oneWayHint(ambiguous)}`,
            })
          }
        }
      }
    }),
  /** Normalised as a label is (R-CAP-3), so that `Tier M (Recommended)` is the option `Tier M`. */
  static_default: nonBlank.transform(normalizeLabel).optional(),
  /** Said as `Recommended when <precondition>` (R-REC-5): blank, it would say nothing. */
  precondition: clause.optional(),
  always_ask: z.boolean().default(false),
  sensitive: z.boolean().default(false),
  /**
   * Whether the point is multi-select where a request does not say; left out, the user's choices
   * there say (a default of false read a point of the policy as single-select whatever was chosen).
   */
  multi_select: z.boolean().optional(),
})
export type PointPolicy = z.infer<typeof PointPolicySchema>

const probability = z.number().min(0).max(1)
const PERSONALIZATION_OFF_PRECONDITION = 'your past choices are set aside for this session'
const UNCHOSEN_OPTIONS_PRECONDITION = 'you have not yet chosen any of these options at this point'
const CENTURY_DAYS = 36_500
/** How many recent sessions the recent layer covers when a policy does not say (R-MEM-5). */
export const RECENT_SESSIONS = 3
/**
 * At the most: each is a cell a recommendation reads, and a list every aggregate cell keeps, so
 * that the cost of a recommendation stays bounded (R-MEM-8).
 */
export const MAX_RECENT_SESSIONS = 20

/** Every number the recommendation uses lives here (R-POL). A field it does not know is an error: most often a typo, whose setting would otherwise be silently left at its default. */
export const PolicySchema = z
  .strictObject({
    thresholds: z
      .strictObject({
        /** N: fewer observations than this give the static default (R-REC-1). */
        min_observations: z.number().int().min(1),
        /** M: more observations than this, with a significant majority, are `sufficient`. */
        sufficient_observations: z.number().int().min(1),
      })
      .superRefine((t, ctx) => {
        if (t.sufficient_observations < t.min_observations) {
          ctx.addIssue({ code: 'custom', path: ['sufficient_observations'], message: `must be at least thresholds.min_observations: ${t.sufficient_observations} is below ${t.min_observations}` })
        }
      }),
    confidence: z
      .strictObject({
        high: probability,
        medium_high: probability,
        medium: probability,
        /** Pseudo-count of the uniform Dirichlet prior over the options. */
        prior: z.number().min(0.5).max(10),
        /** Pseudo-count per option behind p, the predicted next choice (½: Krichevsky–Trofimov). */
        predictive_prior: z.number().min(0.1).max(10).default(0.5),
        /** How much a contradicted precondition pulls the confidence toward chance (0 = not at all). */
        contradiction_shrink: probability,
      })
      .superRefine((c, ctx) => {
        // Named by the band out of order, as M and the expertise bands are, with both values: one
        // may be the default policy's, which a file that sets only the other does not show.
        if (c.medium_high > c.high) {
          ctx.addIssue({ code: 'custom', path: ['medium_high'], message: `must be at most confidence.high: ${c.medium_high} is above ${c.high}` })
        }
        if (c.medium > c.medium_high) {
          ctx.addIssue({ code: 'custom', path: ['medium'], message: `must be at most confidence.medium_high: ${c.medium} is above ${c.medium_high}` })
        }
      }),
    decay: z.strictObject({ alpha: z.number().min(0).max(5) }),
    // At most a century: the decay scan dates the recall cutoff and the next run from these, and
    // a date past JavaScript's range (±275 000 years) failed every scan with a 500.
    recall: z.strictObject({ ttl_days: z.number().positive().max(CENTURY_DAYS) }),
    scan: z.strictObject({
      cadence_hours: z.number().positive().max(CENTURY_DAYS * 24),
      cron: z.string().min(1),
    }),
    core: z.strictObject({ max_entries: z.number().int().min(1) }),
    expertise: z
      .strictObject({
        /** Fewer sessions than this: beginner. */
        beginner_below: z.number().int().min(1),
        /** More sessions than this: expert. */
        expert_above: z.number().int().min(1),
      })
      .superRefine((e, ctx) => {
        if (e.expert_above < e.beginner_below) {
          ctx.addIssue({ code: 'custom', path: ['expert_above'], message: `must be at least expertise.beginner_below: ${e.expert_above} is below ${e.beginner_below}` })
        }
      }),
    ask: z.strictObject({
      auto_resolve_p: probability,
      /** After this many auto-resolved answers in a row at a point, the next question is asked; at most the 16 moments the aggregate keeps exactly. */
      check_in_after: z.number().int().min(1).max(16).default(9),
    }),
    /** The test for a change of preference: recent choices against older ones. */
    change: z
      .strictObject({
        /** How far back "recent" reaches. */
        window_days: z.number().positive(),
        /** Significance level of the test that the recent choices differ from the older ones. */
        significance: z.number().gt(0).lt(1),
      })
      .default({ window_days: 28, significance: 0.01 }),
    /** The layers every recommendation reports (R-MEM-5). */
    layers: z
      .strictObject({
        /** How many of the project's last sessions the recent layer covers; each is a cell a recommendation reads. */
        recent_sessions: z.number().int().min(1).max(MAX_RECENT_SESSIONS),
      })
      .default({ recent_sessions: RECENT_SESSIONS }),
    context: z.strictObject({
      /** Share of supporting observations that must share a context value for it to be a precondition. */
      precondition_share: probability,
      /** Significance level of the test that a context value changes the choice (R-REC-7). */
      significance: z.number().gt(0).lt(1),
    }),
    /**
     * Recommendations kept in memory for callers that ask the same again (an orchestrator before
     * every question; the plan, then the hook): served again while nothing they were computed
     * from was written, for at most `seconds` (0: never kept), in at most `megabytes` (their keys
     * and JSON).
     */
    cache: z
      .strictObject({
        seconds: z.number().min(0).max(3600).default(60),
        megabytes: z.number().min(0).max(1024).default(8),
        /** Read and ignored: the bound of an earlier version, by count (`megabytes` replaced it). */
        entries: z.number().int().min(0).optional(),
      })
      .default({ seconds: 60, megabytes: 8 }),
    sensitive_terms: z.array(nonBlank),
    /** The precondition of a static default with no point of its own while n < N (R-REC-1, R-REC-5). */
    default_precondition: clause,
    /** Said instead of default_precondition when the static default stands because personalization is off for the session. */
    personalization_off_precondition: clause.default(PERSONALIZATION_OFF_PRECONDITION),
    /** Said instead of default_precondition when there is history enough, but none of it chose an option offered now. */
    unchosen_options_precondition: clause.default(UNCHOSEN_OPTIONS_PRECONDITION),
    points: z.array(PointPolicySchema).superRefine(
      (points, ctx) => {
        const seen = new Set<string>()
        points.forEach((point, i) => {
          // Checked even when another point is broken: a point that failed to parse may be anything.
          const key: unknown = (point as { key?: unknown } | undefined)?.key
          if (typeof key !== 'string') return
          if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `duplicate key ${key}` })
          seen.add(key)
        })
      },
      { when: (payload) => Array.isArray(payload.value) },
    ),
  })
export type Policy = z.infer<typeof PolicySchema>

/** A policy with its regular expressions compiled once, so the hot path compiles nothing. */
export interface CompiledPolicy extends Policy {
  compiledPoints: Array<PointPolicy & { header?: RegExp; question?: RegExp }>
  sensitivePattern: RegExp | null
}

/**
 * A term's last letter y after a consonant: a term matches where a word starts, so its plural in
 * -s (`incidents`, `secrets`) is met already, but `vulnerability` is no prefix of `vulnerabilities`.
 */
const PLURAL_IN_IES = /([b-df-hj-np-tv-z])y$/i

/**
 * The first letter of a term in a script written without spaces between words (Chinese, Japanese,
 * Thai, Lao, Khmer, Burmese): there a word starts right after the letter before it (`どの本番データ`,
 * `修改数据库密码`), so such a term is found anywhere in the text. By Script_Extensions: the
 * long-vowel mark `ー` that ends サーバー or ユーザー, and `〆`, are letters of no one script (Common)
 * used only in these.
 */
const UNSPACED_LETTERS =
  '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}'
const UNSPACED_SCRIPT = new RegExp(`^[${UNSPACED_LETTERS}]`, 'u')

export function compilePolicy(policy: Policy): CompiledPolicy {
  // A term's words may be set apart by any white space, as a question's may; a term is read in
  // NFC, as isSensitive reads the question, so that neither form of an accent misses the other.
  const terms = policy.sensitive_terms.map((t) => t.normalize('NFC').trim())
  const escaped = (unspaced: boolean) =>
    terms
      .filter((t) => UNSPACED_SCRIPT.test(t) === unspaced)
      .map((t) => t.split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+').replace(PLURAL_IN_IES, '$1(?:y|ies)'))
  // A term starts where no letter, digit or _ goes before it. Not `\b`: that needs an ASCII word
  // character on one side, so a term such as `.env` or `ключ` after a space never matched. A
  // letter of a script written without spaces does not count: Japanese and Chinese put an English
  // word right after one (`DBのpasswordを更新しますか`).
  const spaced = escaped(false)
  const unspaced = escaped(true)
  const alternatives = [
    ...(spaced.length === 0 ? [] : [`(?<!(?![${UNSPACED_LETTERS}])[\\p{L}\\p{N}_])(?:${spaced.join('|')})`]),
    ...(unspaced.length === 0 ? [] : [`(?:${unspaced.join('|')})`]),
  ]
  return {
    ...policy,
    compiledPoints: policy.points.map((point) => ({
      ...point,
      header: point.match.header === undefined ? undefined : compileMatchRule(point.match.header),
      question: point.match.question === undefined ? undefined : compileMatchRule(point.match.question),
    })),
    sensitivePattern: alternatives.length === 0 ? null : new RegExp(alternatives.join('|'), 'iu'),
  }
}
