import { characters, LIMITS } from './limits'
import { bareName, INVISIBLE } from './name-ends'

/**
 * A mark's end: white space, and the invisible marks trim() leaves (an RLM a right-to-left label
 * ends in after its mark), as normalizeLabel drops them at a label's end.
 */
const MARK_END = `[\\s${INVISIBLE}]*$`

/**
 * The annotations this service (or an agent) appends to a label, removed before matching (R-CAP-3).
 * In ASCII or full-width parentheses: an agent writing Japanese or Chinese writes `（Recommended）`
 * as it writes every other parenthesis of the text. Spaces inside them are the mark's too: `( Recommended )`.
 */
const ANNOTATION = new RegExp(`\\s*[(\\uff08]\\s*(?:recommended|\\d{1,3}% of recent choices|static default)\\s*[)\\uff09]${MARK_END}`, 'i')

/** The agent's own ` (Recommended)` at the end of a label, in ASCII or full-width parentheses, as ANNOTATION reads it. */
export const RECOMMENDED_MARK = new RegExp(`\\s*[(\\uff08]\\s*recommended\\s*[)\\uff09]${MARK_END}`, 'i')

/**
 * The ` (static default)` this service puts on the static default it recommends to an expert (weak
 * strength), where a beginner's is marked ` (Recommended)`: a question a plan of this service marked
 * so and passed back (`ask_user_question_input`, planned again by the PreToolUse hook) keeps it.
 */
export const STATIC_DEFAULT_MARK = new RegExp(`\\s*[(\\uff08]\\s*static default\\s*[)\\uff09]${MARK_END}`, 'i')

/** The marks that end a sentence: ASCII, and their Chinese, Japanese, Arabic and Devanagari forms. */
export const SENTENCE_END = '.!?\u2026。！？．؟।॥'
/** A description's text before a rationale this service added: it ends a sentence, or is left open at a colon. */
const BEFORE_RATIONALE = new RegExp(`[${SENTENCE_END}:：]\\s+$`)

/**
 * Normalises an option label for matching (R-CAP-3): Unicode NFC, surrounding and repeated white
 * space removed, and a trailing ` (Recommended)` or one of this service's own annotations dropped.
 * The invisible marks trim() leaves at its ends go with the white space (bareName, as a user's
 * name and a question's end lose them): a right-to-left label's RLM after its `(Recommended)`
 * kept the mark in the label, a point of its own for each option so marked, and `Kafka\u200b`,
 * which looks like `Kafka`, was stored as other.
 */
export function normalizeLabel(label: string): string {
  let text = bare(label.normalize('NFC').replace(/\s+/g, ' '))
  for (;;) {
    const stripped = bare(text.replace(ANNOTATION, ''))
    if (stripped === text || stripped === '') return text
    text = stripped
  }
}

/**
 * Whether a label is within LIMITS.labelLength as normalised (R-CAP-3): the agent's ` (Recommended)`
 * and the white space normalisation drops are no part of the label, so a label of 495 characters
 * marked is taken as it is unmarked. One over LIMITS.labelSentLength as sent is refused by that
 * limit, and not normalised here.
 */
export function isWithinLabelLength(label: string): boolean {
  return characters(label) > LIMITS.labelSentLength || characters(normalizeLabel(label)) <= LIMITS.labelLength
}

/** The label limit in words, for the published schemas, whose `maxLength` is the label as sent. */
export const LABEL_LENGTH_WORDS = `At most ${LIMITS.labelLength} characters once normalised: a trailing " (Recommended)" and the white space at its ends are not counted, a run of white space inside counts as one (at most ${LIMITS.labelSentLength} as sent).`

/**
 * What a label's limit once normalised leaves uncounted. White space inside is counted, a run of it
 * as one (normalizeLabel): "white space not counted" said 511 of a label of 510 other characters.
 */
const NOT_COUNTED = 'a trailing " (Recommended)" and the white space at its ends not counted, a run of white space inside counted as one'

/**
 * The `error` of a label over LIMITS.labelLength once normalised, said as atMostSaid says a
 * length, with what is not counted: `at most 500 characters once normalised (a trailing "
 * (Recommended)" and the white space at its ends not counted, …), not 612`, 612 the label's length once normalised.
 * Only a label within LIMITS.labelSentLength is normalised to count it (isWithinLabelLength).
 */
export function labelTooLongSaid(issue: { input?: unknown }): string | undefined {
  if (typeof issue.input !== 'string') return undefined
  return `at most ${LIMITS.labelLength} characters once normalised (${NOT_COUNTED}), not ${characters(normalizeLabel(issue.input))}`
}

/**
 * The `error` of a label over LIMITS.labelSentLength, saying what the 1,000 count and how many
 * there were, and the label limit a user should know beside it (1,000 alone reads as if it were
 * the label limit): `at most 1000 characters once the white space at its ends is taken off, not
 * 1004 (and at most 500 once normalised: …)`. `ends`: whether the label is counted once the
 * white space at its ends is taken off (`trimmed`: a label the service trims first, LabelSchema)
 * or as written, that white space counted (`counted`: a plan's and the hook's option label, kept
 * as sent). The label over it is not normalised to count it.
 */
export function labelOverSentLengthSaid(ends: 'trimmed' | 'counted') {
  const counted = ends === 'trimmed' ? 'once the white space at its ends is taken off' : 'as sent, the white space at its ends counted'
  return (issue: { code?: string; input?: unknown }): string | undefined => {
    if (issue.code !== 'too_big' || typeof issue.input !== 'string') return undefined
    return `at most ${LIMITS.labelSentLength} characters ${counted}, not ${characters(issue.input)} (and at most ${LIMITS.labelLength} once normalised: ${NOT_COUNTED})`
  }
}

/** Text without the white space and invisible marks at its ends, unless nothing else is left. */
function bare(text: string): string {
  const without = bareName(text)
  return without === '' ? text.trim() : without
}

/**
 * How the rationale this service appends to a recommended option's description goes on after
 * `Recommended when PRECONDITION — `: the disclosures of a recommendation (R-REC-5), a required
 * decision's and an advisory one's, as this service words them, so that an agent's own
 * `Recommended when … — based on our benchmarks` is kept.
 */
const DISCLOSURE = new RegExp(
  '^Recommended when [\\s\\S]+? \u2014 (?:' +
    [
      // recommendation.ts: the static default's, a single choice's; enforcement.ts: an advisory decision's.
      'based on (?:static default, |\\d+% of recent choices|advisory decision [A-Za-z0-9][A-Za-z0-9._-]*[,;])',
      // A multi-select choice's.
      'each selected in (?:100%|at least \\d+(?:\\.\\d+)?%) of recent choices',
      'no option selected in more than \\d+% of recent choices',
      // enforcement.ts: a required decision's, its key then its rationale; of several, `required by
      // decisions D-001: <its rationale>; D-002: …`.
      'required by decisions? [A-Za-z0-9][A-Za-z0-9._-]*: ',
    ].join('|') +
    ')',
)

/**
 * An option's description without the rationale this service appended to it when it planned the
 * question (`Recommended when … — based on …`), as normalizeLabel drops the label's annotation:
 * questions planned once (the MCP tool `plan_questions`, whose `ask_user_question_input` the
 * agent passes to AskUserQuestion) come back to be planned again (the PreToolUse hook), and the
 * rationale would be said twice, or, for an option no longer recommended, stay there stale. Only
 * a rationale at the end, starting the description or a sentence of it, is removed; undefined
 * when nothing else is left.
 */
export function ownDescription(description: string | undefined): string | undefined {
  let text = description
  // The last rationale first, and again while one is left: a description planned twice already
  // (before this was done) ends in two.
  for (;;) {
    if (text === undefined) return undefined
    const rest = withoutLastRationale(text)
    if (rest === text) return text
    text = rest
  }
}

function withoutLastRationale(description: string): string | undefined {
  const starts = [...description.matchAll(/Recommended when /g)].map((m) => m.index).reverse()
  for (const at of starts) {
    const before = description.slice(0, at)
    if (before !== '' && !BEFORE_RATIONALE.test(before)) continue
    if (!DISCLOSURE.test(description.slice(at))) continue
    const rest = before.trimEnd()
    return rest === '' ? undefined : rest
  }
  return description
}

/** What a choice resolved to against the offered options. */
export interface ResolvedChoice {
  /** The normalised labels of the options chosen (empty when nothing offered was chosen). */
  chosen: string[]
  /** Free text that matched no option, kept as said (R-CAP-3: stored as `other`). */
  other: string | null
}

/**
 * Finds the offered option a label means: exact after normalisation first, then in another case,
 * then folded (foldCase). Folded last: two options that only folding makes one (`Masse` and
 * `Maße`, `Sik` and `sık`) are still told apart by a choice in another case of one of them.
 * `options` must be normalised already.
 */
export function matchOption(label: string, options: readonly string[]): string | undefined {
  const wanted = normalizeLabel(label)
  if (options.includes(wanted)) return wanted
  const lower = wanted.toLocaleLowerCase('en')
  const inCase = options.find((o) => o.toLocaleLowerCase('en') === lower)
  if (inCase !== undefined) return inCase
  const folded = foldCase(wanted)
  return options.find((o) => foldCase(o) === folded)
}

/**
 * A label's words in one case (foldCase): runs of letters, digits and marks, a `-`, `.`, `'` or `’`
 * inside one keeping it one word, so that `Sonnet 4.5` is not `Sonnet 4`, nor `Medium-high` `Medium`.
 */
function wordsOf(label: string): string[] {
  return foldCase(label).match(/[\p{L}\p{M}\p{N}]+(?:[-.'\u2019][\p{L}\p{M}\p{N}]+)*/gu) ?? []
}

/** Where `words` hold `run` as consecutive words, each place it starts. */
function runsAt(words: readonly string[], run: readonly string[]): number[] {
  const at: number[] = []
  for (let i = 0; i + run.length <= words.length; i++) if (run.every((w, j) => words[i + j] === w)) at.push(i)
  return at
}

/**
 * Words that turn the words beside them into another option, not the same one said at more
 * length: they negate (`Skip TDD`, `No tests`, `TDD off` are TDD's and tests' opposites) or grade
 * (`Very high`, `Less logging`, `Partial rollout` are a step from `High`, `Logging`, `Rollout`,
 * which a user who picks one tells from the other). So they refuse a match in other words either
 * way: a policy's `High` is not the offered `Very high`, a decision's `Skip TDD` not the offered
 * `TDD`. `only`, `except` and `but` keep a part of it; `off`, `stop` and `disable…` switch it
 * off. The list leans to refusing: a match refused costs a reading in other words (the first
 * option stands in for the default, a decision's option is not offered), a false one takes the
 * opposite of what was decided. Words of degree that name an option themselves (`high`, `low`,
 * `max`) are not on it: `High effort` is the policy's `High`.
 */
const NOT_THE_SAME = new Set([
  // Negating (`anti` as a hyphen's first part too: `anti-corruption`).
  ...['no', 'not', 'non', 'none', 'nor', 'neither', 'never', 'without', 'off', 'cannot', 'dont'],
  ...['skip', 'skips', 'skipped', 'skipping', 'avoid', 'avoids', 'avoiding', 'stop', 'anti'],
  ...['disable', 'disables', 'disabled', 'disabling', 'except', 'excluding', 'but'],
  // Grading.
  ...['less', 'more', 'very', 'extra', 'super', 'ultra', 'least', 'most', 'too', 'only', 'fewer'],
  ...['mostly', 'barely', 'hardly', 'slightly', 'somewhat', 'minimal', 'partial', 'partially'],
  ...['semi', 'half', 'quasi', 'pseudo'],
])

/**
 * Words of NOT_THE_SAME that switch a thing off after it or as a verb (`Caching off`, `Stop
 * deploys`), but before a hyphen start a word of another sense: `off-site backups` and
 * `off-the-shelf library` are backups and a library, `stop-the-world GC` a GC.
 */
const ALONE_ONLY = new Set(['off', 'stop'])

/**
 * Whether a word outside the shared run negates or grades it: one of NOT_THE_SAME, a negated verb
 * (`don't`, `isn’t`: wordsOf keeps the apostrophe inside the word), or a word one of them, or `un`,
 * starts before a hyphen (`non-blocking review` beside `Review`, `semi-automatic deploys` beside
 * `Deploys`, `un-pinned`; wordsOf keeps `non-blocking` one word, so it never shares `blocking`
 * itself). `un` alone is no English word, but French's, Spanish's and Italian's `a`: `Un monorepo`
 * is the option `Monorepo`; `off` and `stop` refuse alone only (ALONE_ONLY).
 */
function negatesOrGrades(word: string): boolean {
  const plain = word.replace(/\u2019/g, "'")
  if (NOT_THE_SAME.has(plain) || /n't$/.test(plain)) return true
  const prefix = plain.split('-')[0] as string
  return prefix !== plain && ((NOT_THE_SAME.has(prefix) && !ALONE_ONLY.has(prefix)) || prefix === 'un')
}

/** A label's words (wordsOf), each with the parenthesis or brackets it stands in, if any. */
interface NotedWords {
  words: string[]
  /** For each word, the note on the option it is in (`TDD (tests first, no code before)`): 1 for the first, 0 for none. */
  note: number[]
}

function notedWordsOf(label: string): NotedWords {
  const words: string[] = []
  const note: number[] = []
  let depth = 0
  let notes = 0
  for (const part of label.split(/([()[\]])/)) {
    if (part === '(' || part === '[') {
      // A note opened at the top level is a new one; one inside it is part of it.
      if (depth === 0) notes++
      depth++
    } else if (part === ')' || part === ']') depth = Math.max(0, depth - 1)
    else for (const word of wordsOf(part)) words.push(word), note.push(depth > 0 ? notes : 0)
  }
  return { words, note }
}

/**
 * Whether `label` holds `run` as consecutive words with nothing outside it that negates or grades
 * it (negatesOrGrades): `Claude Sonnet 4.5` holds `Sonnet`; `Skip TDD` does not hold `TDD`. Words
 * in a parenthesis or brackets are a note on the option, not a word of its name, and refuse
 * nothing: `TDD (tests first, no code before)` is TDD, `Sonnet (more affordable)` Sonnet. But in
 * the note the run is found in, they refuse it as ever: `Code first (no TDD)` is not TDD.
 */
function holdsRun(label: NotedWords, run: readonly string[]): boolean {
  const { words, note } = label
  return runsAt(words, run).some((i) => {
    const notesOfRun = new Set(note.slice(i, i + run.length))
    return !words.some((word, j) => (j < i || j >= i + run.length) && (note[j] === 0 || notesOfRun.has(note[j] as number)) && negatesOrGrades(word))
  })
}

/**
 * Finds the offered option that a label written elsewhere names, a policy point's static default
 * (R-POL) or a decision's option (R-CON-2): the one a choice would name (matchOption); else, in
 * other words, the one option whose words are among the label's
 * (`Tier M` is the option `M` of "Tier S, M or L?") or that holds the label's words (`Sonnet` is
 * `Claude Sonnet 4.5`), whole words in any case. None where two options would do (`Sonnet 4.5`
 * and `Sonnet 4`), where a word is only shortened (`Med`), nor where the longer of the two says a
 * word that negates or grades the other (`Skip TDD` is not `TDD`, nor `Very high` `High`, either
 * way; but in a parenthesis, a note: `TDD (no code before tests)` is `TDD`): the first option then stands in, as for a default not offered. Not for a request's own
 * static_default, which names one of its options as a choice does, and is refused otherwise.
 * `options` must be normalised already.
 */
export function matchInOtherWords(named: string, options: readonly string[]): string | undefined {
  const offered = matchOption(named, options)
  if (offered !== undefined) return offered
  const own = notedWordsOf(normalizeLabel(named))
  if (own.words.length === 0) return undefined
  const fits = options.filter((o) => {
    const theirs = notedWordsOf(o)
    return theirs.words.length > 0 && (holdsRun(own, theirs.words) || holdsRun(theirs, own.words))
  })
  return fits.length === 1 ? fits[0] : undefined
}

/**
 * A label in one case, to compare labels in any case: lower-cased after upper-casing, so that
 * `ß` is `ss` (`STRASSE` is `Straße`), and Turkish's dotted `İ`, which lower-cases to `i` and a
 * combining dot, is `i` (`izmir` is `İzmir`), as a user types them.
 */
export function foldCase(label: string): string {
  // Lower-cased first too, for the capital `ẞ`, which upper-cases to itself; composed again at the
  // end, for a letter whose cases compose differently (`ΐ` upper-cases to `Ι`, `̈` and `́`).
  return label.toLocaleLowerCase('en').toLocaleUpperCase('en').toLocaleLowerCase('en').replace(/i\u0307/g, 'i').normalize('NFC')
}

/**
 * Splits a multi-select answer that Claude Code joined with ", " back into the known labels,
 * which may themselves contain commas ("Lint, format", or "1,000 users" with none after it).
 * Longest labels are tried first; a run that matches no label is returned as free text, as typed.
 */
export function splitJoinedLabels(answer: string, options: readonly string[]): ResolvedChoice {
  // Split at every comma, keeping what stood between the parts: a run of parts is tried as it was
  // sent (`1,000 users`, which ", " between the parts would make `1, 000 users`), then joined with
  // ", " (`Lint,format` for the option `Lint, format`).
  const pieces = answer.split(/(,\s*)/)
  const parts = pieces.filter((_, k) => k % 2 === 0)
  const between = pieces.filter((_, k) => k % 2 === 1)
  const asSent = (i: number, j: number) => parts.slice(i, j).map((p, k) => (k === 0 ? p : `${between[i + k - 1]}${p}`)).join('')
  // A run of parts holds a comma between each two, and matching keeps commas (normalising and
  // folding the case neither adds nor drops one): a run matches only an option with as many, so
  // only runs of the lengths the options have are tried, the longest first. Tried at every length
  // up to the end of the answer, a pasted list of n parts made n² runs of up to n parts.
  // And compared only with those options: 50 options of 50 lengths were each compared with every
  // run, in three cases, 0.4 s for an answer of 500 characters.
  const ofLength = new Map<number, string[]>()
  for (const option of options) {
    const length = option.split(',').length
    ofLength.set(length, [...(ofLength.get(length) ?? []), option])
  }
  const lengths = [...ofLength.keys()].sort((a, b) => b - a)
  const chosen: string[] = []
  // Free text, each run of parts that matched no label kept as it was typed (`1,5 hours`, `foo ,bar`).
  const leftover: string[] = []
  let leftoverEnds = -1
  let i = 0
  while (i < parts.length) {
    let matched = false
    for (const length of lengths) {
      const j = i + length
      if (j > parts.length) continue
      const run = parts.slice(i, j).map((p) => p.trim())
      const offered = ofLength.get(length) as string[]
      const candidate = matchOption(asSent(i, j), offered) ?? matchOption(run.join(', '), offered)
      if (candidate !== undefined) {
        if (!chosen.includes(candidate)) chosen.push(candidate)
        i = j
        matched = true
        break
      }
    }
    if (!matched) {
      // Untrimmed: `foo ,bar` is kept as typed, not as `foo,bar`; only a run's ends are trimmed.
      const part = parts[i] ?? ''
      if (part.trim() !== '') {
        if (leftoverEnds === i) leftover[leftover.length - 1] += `${between[i - 1] ?? ', '}${part}`
        else leftover.push(part)
        leftoverEnds = i + 1
      }
      i++
    }
  }
  return { chosen, other: leftover.length === 0 ? null : leftover.map((text) => text.trim()).join(', ') }
}

/**
 * The labels of a multi-select answer as Claude Code joins them since it quotes: with ", ", a
 * label that holds ", " or a double quote written as a JSON string (`"Lint, format", Unit tests`),
 * so that the join can be read back. Undefined when no label is quoted or the text is not such a
 * list (an answer of an older Claude Code, which joined the labels as they are): that is split
 * by the known labels, as before.
 */
export function quotedLabels(answer: string): string[] | undefined {
  const labels: string[] = []
  let quoted = false
  let rest = answer
  for (;;) {
    if (rest.startsWith('"')) {
      // The closing quote: the first one not escaped by a backslash.
      const end = /^"(?:[^"\\]|\\.)*"/.exec(rest)
      if (end === null) return undefined
      let label: unknown
      try {
        label = JSON.parse(end[0])
      } catch {
        return undefined
      }
      if (typeof label !== 'string') return undefined
      labels.push(label)
      quoted = true
      rest = rest.slice(end[0].length)
    } else {
      const comma = rest.indexOf(', ')
      const label = comma === -1 ? rest : rest.slice(0, comma)
      if (label.includes('"')) return undefined
      labels.push(label)
      rest = comma === -1 ? '' : rest.slice(comma)
    }
    if (rest === '') break
    if (!rest.startsWith(', ')) return undefined
    rest = rest.slice(2)
    if (rest === '') return undefined
  }
  return quoted && labels.every((l) => l.trim() !== '') ? labels : undefined
}

/**
 * Free text as kept (R-CAP-3: stored as `other` "with its text kept"): only trimmed and in NFC, as
 * a label is read. Normalised for matching alone: a typed answer's lines, spaces and its own
 * `(recommended …)` at the end are the user's words, not an annotation of this service's.
 */
function typedText(text: string): string {
  return text.normalize('NFC').trim()
}

/** Resolves what the user chose against the options (R-CAP-3, R-REC-8). */
export function resolveChoice(
  choice: string | readonly string[],
  options: readonly string[],
  multiSelect: boolean,
): ResolvedChoice {
  if (typeof choice !== 'string') {
    const chosen: string[] = []
    const other: string[] = []
    // A text named twice is one answer, as an option is (and as a single-select question counts
    // its answers): kept once, as it first came, not joined with itself into a text never typed.
    const typed = new Set<string>()
    for (const label of choice) {
      const match = matchOption(label, options)
      if (match !== undefined) {
        if (!chosen.includes(match)) chosen.push(match)
      } else if (!typed.has(normalizeLabel(label))) {
        typed.add(normalizeLabel(label))
        other.push(typedText(label))
      }
    }
    return { chosen, other: other.length === 0 ? null : other.join(', ') }
  }
  const match = matchOption(choice, options)
  if (match !== undefined) return { chosen: [match], other: null }
  if (!multiSelect) return { chosen: [], other: typedText(choice) }
  const split = splitJoinedLabels(choice, options)
  const quoted = quotedLabels(choice)
  if (quoted === undefined) return split
  // Read as a quoted list only where that finds as many of the options as the older join does: a
  // label that is in quotes itself (`"A"`), joined as it is, stays one.
  const read = resolveChoice(quoted, options, true)
  return read.chosen.length >= split.chosen.length ? read : split
}
