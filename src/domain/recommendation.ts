import { z } from './zod'
import {
  confidenceLevel,
  reportedConfidence,
  MULTI_SELECT_METHOD,
  multiSelectBeliefs,
  selectionFactor,
  setFigures,
  SINGLE_SELECT_METHOD,
  singleSelectBelief,
  splitPosterior,
  SPLIT_WEIGHED_METHOD,
  SPLIT_WEIGHED_MULTI_SELECT_METHOD,
  towardChance,
  type ConfidenceLevel,
  type SelectionBelief,
} from './confidence'
import { isSensitive, pointRule } from './decision-point'
import { matchInOtherWords } from './labels'
import { cellKey, chosenLastOf, labelsOf, laterId, type Category, type Cell, type PointView, type Tally } from './aggregate'
import {
  conditionsOf,
  contradictions,
  describeConditions,
  selectEvidence,
  type EvidenceSelection,
  supportOf,
  type Conditions,
} from './evidence'
import { expertiseLevel, recommendationStrength, type ExpertiseLevel, type Strength } from './expertise'
import { layersOf, type Layers } from './layers'
import {
  ContextSchema,
  HeaderSchema,
  FIELD_DESCRIPTIONS,
  TrimmedIdentifierSchema,
  LabelSchema,
  MultiSelectAlias,
  OptionsSchema,
  QuestionTextSchema,
  TAKES,
  TimestampSchema,
  type Context,
} from './observation'
import { wrongTypeSaid } from './zod-issues'
import type { CompiledPolicy } from './policy'
import { defaultBrokeTie, majorityOption, offeredIn, preferenceOf, shareOf } from './preference'
import { LIMITS } from './limits'
import { shownText } from './shown-text'

/**
 * The body of `POST /v1/recommendations` (R-REC). Strict, as an observation is: a misspelt
 * `staticDefault` or `asOf` dropped would answer another question (no default, as of now).
 */
export const RecommendationRequestSchema = z.strictObject({
  user: TrimmedIdentifierSchema.default('default').meta({ description: FIELD_DESCRIPTIONS.user }),
  project: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.project }),
  session_id: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.session_id }),
  question: QuestionTextSchema.meta({ description: FIELD_DESCRIPTIONS.question }),
  point: TrimmedIdentifierSchema.optional().meta({ description: FIELD_DESCRIPTIONS.point }),
  header: HeaderSchema.optional().meta({ description: FIELD_DESCRIPTIONS.header }),
  all_options: OptionsSchema.meta({ description: FIELD_DESCRIPTIONS.all_options }),
  context: ContextSchema.optional().meta({ description: FIELD_DESCRIPTIONS.context }),
  static_default: LabelSchema.optional().meta({ description: FIELD_DESCRIPTIONS.static_default }),
  multi_select: z.boolean({ error: wrongTypeSaid(TAKES.flag) }).optional().meta({ description: FIELD_DESCRIPTIONS.multi_select }),
  multiSelect: MultiSelectAlias,
  as_of: TimestampSchema.optional().meta({ description: FIELD_DESCRIPTIONS.as_of }),
})
export type RecommendationRequest = z.infer<typeof RecommendationRequestSchema>

export type RecommendationState =
  | 'static-default'
  | 'partial'
  | 'sufficient'
  | 'personalization-off'
  | 'enforced'

/** An offered option, normalised, with what the agent said of it. */
export interface OfferedOption {
  option: string
  description?: string | undefined
}

export interface RecommendedOption {
  option: string
  /** The label to show: with ` (Recommended)` or ` (60% of recent choices)` per strength. */
  label: string
  share: number
  count: number
  description?: string
  /** The agent's own description of the option, when the recommendation replaced it. */
  original_description?: string
  /** Multi-select only: decayed selection rate, and the confidence in selecting it or leaving it out, as recommended (1 where a required decision fixes it). */
  rate?: number
  confidence?: number
  recommended: boolean
}

/**
 * The confidence of a single-select recommendation made on evidence split by the change test or
 * the context backoff (R-REC-3, R-REC-7), weighed by how sure the split is: the probability that
 * the option is the favourite on the split evidence, times the posterior probability that the
 * split is real (splitPosterior of its test's p-value; for the context, the p-value times the
 * number of keys tested, as the Bonferroni level divides), plus the same probability on the
 * evidence before the split (before the change: the cell the change test ran on; before the
 * context: the scope's), times the rest. A split found on thin evidence is often chance: on
 * simulated users whose preference holds still and ignores the context, narrowed answers stated
 * 0.817 and were right 0.588 of the time, answers after a change found 0.882 and 0.566.
 */
function splitWeighed(
  value: number,
  top: string,
  selection: EvidenceSelection,
  labels: readonly string[],
  asOf: Date,
  policy: CompiledPolicy,
): number {
  const { contextTest, changeTest } = selection
  if (contextTest === null && changeTest === null) return value
  const unsplit = (cell: Cell) =>
    singleSelectBelief(preferenceOf(cell.tallies, labels, asOf, policy.decay.alpha, true), labels, policy.confidence.prior).probabilityOfMax(top)
  if (changeTest !== null) {
    const real = splitPosterior(changeTest.p_value)
    value = real * value + (1 - real) * unsplit(selection.basis)
  }
  if (contextTest !== null) {
    const real = splitPosterior(Math.min(1, contextTest.p_value * (policy.context.significance / contextTest.level)))
    value = real * value + (1 - real) * unsplit(selection.scoped)
  }
  return value
}

/**
 * A multi-select answer's beliefs on evidence split by the change test or the context backoff
 * (R-REC-3, R-REC-7, R-REC-8), weighed as splitWeighed weighs a single-select confidence: each
 * option's P(rate ≥ ½) on the split evidence times the posterior probability that the split is
 * real, plus the same on the evidence before the split times the rest; its confidence is then that
 * (or its complement, for an option left out). Which options are selected stays as the split
 * evidence says. Unweighed, on users whose rates hold still and ignore the context, sets split by
 * chance were stated 0.864 and right 0.724 of the time in the band [0.75, 0.95), and 0.657 and
 * 0.479 in [0.55, 0.75); weighed, 0.843 and 0.803, and 0.639 and 0.630: the `split set` rows of
 * `npx tsx scripts/eval/calibration-multi-select.ts` (with `--base 4b35a9c` for those unweighed).
 */
function splitWeighedSelections(
  beliefs: readonly SelectionBelief[],
  selection: EvidenceSelection,
  labels: readonly string[],
  asOf: Date,
  policy: CompiledPolicy,
): SelectionBelief[] {
  const { contextTest, changeTest } = selection
  if (contextTest === null && changeTest === null) return [...beliefs]
  const above = (b: SelectionBelief) => (b.selected ? b.confidence : 1 - b.confidence)
  let pAbove = new Map(beliefs.map((b) => [b.option, above(b)]))
  const mix = (real: number, cell: Cell) => {
    const before = multiSelectBeliefs(preferenceOf(cell.tallies, labels, asOf, policy.decay.alpha, false), labels, policy.confidence.prior)
    const unsplit = new Map(before.map((b) => [b.option, above(b)]))
    pAbove = new Map([...pAbove].map(([option, value]) => [option, real * value + (1 - real) * (unsplit.get(option) as number)]))
  }
  if (changeTest !== null) mix(splitPosterior(changeTest.p_value), selection.basis)
  if (contextTest !== null) mix(splitPosterior(Math.min(1, contextTest.p_value * (policy.context.significance / contextTest.level))), selection.scoped)
  return beliefs.map((b) => {
    const value = pAbove.get(b.option) as number
    return { ...b, confidence: b.selected ? value : 1 - value }
  })
}

/**
 * Marks a learned single-select answer that is the static default only because it tied with
 * another option (majorityOption's tie rule): the static default decided it. A symbol, so that the
 * answer's JSON does not carry it; applyDecisions reads it to credit an advisory default.
 */
export const BROKE_TIE: unique symbol = Symbol('static default broke a tie')

/**
 * A multi-select answer's belief about each option offered, unrounded: applyDecisions reads it to
 * recompute the set's confidence, p and entropy when a required decision fixes some of its options.
 * A symbol, as BROKE_TIE is, so that the answer's JSON does not carry it.
 */
export const SELECTIONS: unique symbol = Symbol('multi-select beliefs')

export interface Recommendation {
  [BROKE_TIE]?: true
  [SELECTIONS]?: readonly SelectionBelief[]
  point: string
  state: RecommendationState
  recommended: string | string[]
  options: RecommendedOption[]
  observations: number
  effective_observations: number
  needed: number
  confidence: {
    value: number
    level: ConfidenceLevel
    significant: boolean
    method: string
    lowered_because?: string
  }
  precondition: string
  conditions: Conditions
  contradictions: Array<{ key: string; expected: string; got: string }>
  disclosure: string
  strength: Strength
  expertise: { sessions: number; level: ExpertiseLevel }
  p: number
  information: number
  entropy: number
  ask: boolean
  ask_reason: string
  multi_select: boolean
  sensitive: boolean
  scope: 'project' | 'all-projects' | 'user'
  context_key: string | null
  /** The test that narrowed the evidence to `context_key`'s value (R-REC-7, "a stated test"); null when none did. */
  context_test: (NonNullable<EvidenceSelection['contextTest']> & { method: string }) | null
  /** The test that found the recent choices differ from the older ones, when it did: the evidence is the recent ones. */
  change_test: (NonNullable<EvidenceSelection['changeTest']> & { method: string }) | null
  layers: Layers
  evidence: string[]
  evidence_total: number
  as_of: string
}

/** What a recommendation is computed from: everything is passed in, nothing is read. */
export interface RecommendationInput {
  point: string
  question: string
  header?: string | undefined
  options: readonly OfferedOption[]
  /** Every option the question offered, when required decisions ruled some out of `options`. */
  offered?: readonly OfferedOption[] | undefined
  context?: Context | undefined
  project?: string | undefined
  session_id?: string | undefined
  /** Normalised static default asked for by the request, already checked to be offered. */
  static_default?: string | undefined
  multi_select?: boolean | undefined
  /**
   * Whether the user's latest own choice at the point was made at a multi-select question, read
   * when neither the request nor the policy says (undefined when not read, or none was made).
   */
  latest_multi_select?: boolean | undefined
  /** The aggregate of the user's observations at the point in every project, made up to `asOf` (R-MEM-1). */
  memory: PointView
  /** Distinct sessions of the user up to `asOf`. */
  sessions: number
  personalization: boolean
  asOf: Date
  policy: CompiledPolicy
}

function round(value: number, digits = 4): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

function percent(share: number): number {
  // First to the millionth the decayed sums hold (decayed-sum.ts: 1e-6), so that a half stays a
  // half: 3 of 8 decayed alike are 0.37499999…, or 0.374999998 past the 16 exact moments, which is
  // 37.5%, so 38%. k/10^4 that ends in .5 is exact in binary, so Math.round reads it as a half.
  return Math.round(Math.round(share * 1e6) / 1e4)
}

/**
 * A share said in whole percent, as an expert's annotation and a single choice's disclosure say
 * it: 100% only of an option chosen every time (up to the rounding of decayed weights), so a
 * share short of 1 that rounds to 100 reads 99%; and 0% only of one never chosen, so a share
 * above 0 that rounds to 0 (an option chosen once among 300 answers in free text, the majority of
 * the offered options) reads 1%. Whole, since labels.ts strips `(N% of recent choices)` from a
 * label that comes back (R-CAP-3).
 */
export function shownPercent(share: number): number {
  if (share >= 1 - 1e-9) return 100
  if (share <= 1e-9) return 0
  return Math.max(1, Math.min(percent(share), 99))
}

/**
 * The least share of a selected set, as a disclosure says it: "100%" only of a set chosen every
 * time (up to the rounding of decayed weights), else a floor, "at least 86%". A share short of 1
 * that rounds to 100 is given to one decimal, rounded down, so it never reads "at least 100%".
 */
function leastShare(share: number): string {
  if (share >= 1 - 1e-9) return '100%'
  // Rounded down, as "at least" is only true of a floor: 6 of 7 (85.7%) is at least 85%, not 86%;
  // of the share to the millionth the decayed sums hold (see percent), so that 0.29, 28.999…% in
  // floating point, and 34 of 40 at one instant, 0.84999998… past the exact moments, stay 29 and 85.
  // A share within half a millionth of 1 is held as 1 there, but short of it (a miss decayed to
  // 1.7e-7 of the weight): 99.9 at most, as "100%" is only said above.
  const millionths = Math.round(share * 1e6)
  return `at least ${percent(share) < 100 ? Math.floor(millionths / 1e4) : Math.min(Math.floor(millionths / 1e3), 999) / 10}%`
}

/**
 * The highest share, as "no option selected in more than" says it: rounded up, so that it stays
 * true; of the share to the millionth the decayed sums hold (see percent), so that 21 of 60 at
 * one instant, 0.35000001… past the exact moments, stays 35, not 36.
 */
function mostShare(share: number): number {
  return Math.ceil(Math.round(share * 1e6) / 1e4)
}

/** How the context backoff's test is stated in an answer (R-REC-7). */
const CONTEXT_TEST_METHOD =
  "chi-squared test of independence of the choices made under the request's context value against the others' " +
  '(exact Freeman-Halton where an expected count is below 1), at the policy\'s context.significance divided by the number of context keys tested'

/** How the change test is stated in an answer. */
const CHANGE_TEST_METHOD =
  'chi-squared test of independence of the choices within the change window against the older ones ' +
  "(exact Freeman-Halton where an expected count is below 1), at the policy's change.significance"

/** Answers "what will this user pick at this decision point?" (R-REC-1 to R-REC-9, R-ASK-1, R-ASK-2). */
/** How a disclosure begins when the answer is the static default, whatever the reason (too little history, personalization off, no choice of these options). */
export const STATIC_DEFAULT_BASIS = 'based on static default'

/** Whether an answer is the static default, by its disclosure: the one place every reason for it says so. */
export function restsOnStaticDefault(rec: Pick<Recommendation, 'disclosure'>): boolean {
  return rec.disclosure.startsWith(STATIC_DEFAULT_BASIS)
}

export function recommend(input: RecommendationInput): Recommendation {
  const { policy } = input
  const labels = input.options.map((o) => o.option)
  const rule = pointRule({ key: input.point, header: input.header, question: input.question }, policy)
  // Read on every option the question offered, those decisions ruled out among them: ruling out
  // `Keep production data` leaves the question about production data.
  const sensitive = isSensitive({ question: input.question, header: input.header, key: input.point, options: input.offered ?? input.options }, policy)
  const alwaysAsk = rule?.always_ask ?? false
  // The point's default names an offered option as a choice does (R-CAP-3): exact, else in another
  // case, so that a policy's `sonnet` is the option `Sonnet`, not silently the first option; else in
  // other words, so that Tier M is the option `M` of "Tier S, M or L?", not the first option, `S`.
  const policyDefault = rule?.static_default === undefined ? undefined : matchInOtherWords(rule.static_default, labels)
  const staticDefault = input.static_default ?? policyDefault ?? (labels[0] as string)
  // A point's precondition speaks of the point's own static default: a default the request names
  // instead (the agent's own recommendation), or the first option when the point's default is not
  // offered, has the policy's general precondition for why the static default stands.
  const ownDefault = rule?.static_default === undefined ? input.static_default === undefined : staticDefault === policyDefault
  const ownPrecondition = ownDefault ? rule?.precondition : undefined

  const selection = selectEvidence(input.memory, { project: input.project, context: input.context, asOf: input.asOf }, policy)
  const evidence = selection.cell
  // Unless the request or the policy says (a point of the policy that leaves multi_select out says
  // nothing), a point is multi-select as the user's latest choice there was asked (a set of one at
  // a multi-select question too, as `preferences` reads it); not read, when its history holds a
  // set: a multi-select history read as single-select would give shares that add up to more than 1.
  const multiSelect =
    input.multi_select ?? rule?.multi_select ?? input.latest_multi_select ?? [...selection.scoped.tallies.keys()].some((c) => labelsOf(c).length > 1)
  // Personalization off sets the user's past choices aside (R-SES-3, R-REC-1): the answer is the
  // static default, and what it says of the options (shares, counts, confidence, p) is what it
  // would say with no history, not a history it claims to set aside. `observations` still counts
  // the choices at the point, and the layers still describe them.
  const used = input.personalization ? evidence : null
  const preference = preferenceOf(used?.tallies ?? [], labels, input.asOf, policy.decay.alpha, !multiSelect)
  // Off, the context and change tests are not shown (null), so neither is what they kept: every
  // choice at the point in the scope asked counts, as the layers describe them.
  const n = input.personalization ? evidence.n : selection.scoped.n
  const { min_observations: N, sufficient_observations: M } = policy.thresholds
  const prior = policy.confidence.prior
  const expertise = { sessions: input.sessions, level: expertiseLevel(input.sessions, policy) }
  const k = labels.length

  // What is recommended, and how sure: single-select by Dirichlet, multi-select by Beta per option.
  let recommended: string[]
  let value: number
  let p: number
  let entropy: number
  let method: string
  const beliefs = multiSelect ? multiSelectBeliefs(preference, labels, prior, policy.confidence.predictive_prior) : []
  const belief = multiSelect ? null : singleSelectBelief(preference, labels, prior, policy.confidence.predictive_prior)
  const majority = multiSelect ? undefined : majorityOption(preference, labels, staticDefault)
  const learned = multiSelect ? beliefs.filter((s) => s.selected).map((s) => s.option) : [majority ?? staticDefault]
  // Every choice at the point was of options not offered now (the agent reworded them): there is
  // no observed majority to learn, and the static default stands in for it, said as such.
  const noneOffered = !multiSelect && majority === undefined
  const learning = input.personalization && n >= N && !noneOffered
  recommended = learning ? learned : [staticDefault]
  // Learned on split evidence, each option's confidence is weighed by how sure the split is, as a
  // single-select answer's is below; p is not, as there.
  const selections = multiSelect && learning ? splitWeighedSelections(beliefs, selection, labels, input.asOf, policy) : beliefs
  const splitEvidence = learning && (selection.contextTest !== null || selection.changeTest !== null)
  if (belief !== null) {
    const top = recommended[0] as string
    value = belief.probabilityOfMax(top)
    if (learning) value = splitWeighed(value, top, selection, labels, input.asOf, policy)
    p = belief.predictive(top)
    entropy = belief.entropy
    // Said where the value was weighed so: it is then not the Dirichlet's P(max) alone.
    method = splitEvidence ? SINGLE_SELECT_METHOD + SPLIT_WEIGHED_METHOD : SINGLE_SELECT_METHOD
  } else {
    const set = setFigures(selections, new Set(recommended))
    value = set.confidence
    p = set.p
    entropy = set.entropy
    method = splitEvidence ? MULTI_SELECT_METHOD + SPLIT_WEIGHED_MULTI_SELECT_METHOD : MULTI_SELECT_METHOD
  }

  // Preconditions (R-REC-5): from the observations that support the recommendation.
  const conditions = learning
    ? conditionsOf(input.memory, selection, supportOf(selection, recommended, labels), policy, input.context)
    : { context: [], window: null }
  // A value the context backoff found to make no difference is no contradiction (R-REC-7): the
  // choices made in it went as the others did.
  const contradicted = learning
    ? contradictions(conditions, input.context).filter((c) => !selection.contextAlike.includes(c.key))
    : []
  let loweredBecause: string | undefined
  let pLowered = false
  if (contradicted.length > 0) {
    // Chance is the confidence of a guess: 1/k for one option of k (k + 1 when choices outside the
    // options are counted, as the Dirichlet counts them), and for a multi-select set, the product
    // of k per-option confidences, each a coin (0.5 alone would raise a low product). A
    // contradiction only ever lowers: a confidence already below chance (most choices were of
    // options not offered now) is left as it is, not pulled up toward chance.
    const categories = k + (preference.elsewhereWeight > 0 ? 1 : 0)
    const chance = multiSelect ? 0.5 ** k : 1 / Math.max(categories, 1)
    const shrunk = towardChance(value, chance, policy.confidence.contradiction_shrink)
    // Said only where it lowered what is shown: `contradictions` names the contradiction either way
    // (with a shrink of 0, shrunk can come out a rounding step below value: not lowered).
    if (reportedConfidence(shrunk) < reportedConfidence(value)) {
      value = shrunk
      loweredBecause = contradictionText(contradicted)
    }
    // p follows (R-ASK-1): the next choice is predicted with a guess mixed in by the same share, so
    // that a plan orders the question as the less sure one it is, and asks it where the evidence
    // alone would answer it. Only ever lowered, as the confidence is.
    const shrunkP = towardChance(p, chance, policy.confidence.contradiction_shrink)
    if (round(shrunkP) < round(p)) {
      p = shrunkP
      pLowered = true
    }
  }

  const significant = reportedConfidence(value) >= policy.confidence.high
  let state: RecommendationState
  if (!input.personalization) state = 'personalization-off'
  else if (n < N) state = 'static-default'
  else if (n > M && significant) state = 'sufficient'
  else state = 'partial'

  const level = confidenceLevel(value, policy)
  const topShare = multiSelect
    ? Math.min(...recommended.map((o) => shareOf(preference, o)), 1)
    : shareOf(preference, recommended[0] as string)
  let disclosure: string
  let precondition: string
  const acrossProjects = selection.scope === 'all-projects' ? ' across all your projects' : ''
  // Each general precondition is true only of its own reason for the static default: "not yet
  // enough personal history" would be false of 25 choices set aside, or of 6 of other options.
  if (state === 'personalization-off') {
    disclosure = `${STATIC_DEFAULT_BASIS}, personalization is off for this session`
    precondition = ownPrecondition ?? policy.personalization_off_precondition
  } else if (state === 'static-default') {
    // Counted across projects when this one had fewer than N (R-MEM-6), and said so, as below.
    // The spec's text with the number put in (R-REC-1), "1 observations" too: clients match it.
    disclosure = `${STATIC_DEFAULT_BASIS}, ${N - n} observations needed for personalization${acrossProjects}`
    precondition = ownPrecondition ?? policy.default_precondition
  } else if (!learning) {
    // One, where thresholds.min_observations is 1, in the singular: "none of the 1 choices" was said.
    const chosen = n === 1 ? 'the one choice at this point was not' : `none of the ${n} choices at this point was`
    disclosure = `${STATIC_DEFAULT_BASIS}, ${chosen} one of these options${acrossProjects}`
    precondition = ownPrecondition ?? policy.unchosen_options_precondition
  } else {
    disclosure = !multiSelect
      ? `based on ${shownPercent(topShare)}% of recent choices`
      : recommended.length > 0
        ? // Nothing is above 100%: a set chosen every time is said plainly, not "at least 100%".
          `each selected in ${leastShare(topShare)} of recent choices`
        : // An empty set has no least share: what it rests on is that no option reaches half.
          `no option selected in more than ${mostShare(Math.max(...labels.map((o) => shareOf(preference, o))))}% of recent choices`
    disclosure += acrossProjects
    if (selection.changeTest !== null) {
      disclosure += ` since ${selection.changeTest.since.slice(0, 10)} (they differ from your earlier choices)`
    }
    precondition = describeConditions(conditions, selection.contextKey)
  }

  const strength = recommendationStrength({
    level: expertise.level,
    sensitive,
    personalization: input.personalization,
    // A static default the user's own few choices went against is held with low confidence too
    // (3 of 3 for Opus, Sonnet the default: 0.06), and said no more strongly than a learned one.
    weakEvidence: level === 'low' && (state === 'partial' || (state === 'static-default' && n > 0 && majority !== undefined && majority !== staticDefault)),
  })

  // The p the answer shows decides whether to ask, and what it is worth to ask: a caller that reads
  // `p: 0.95` against auto_resolve_p 0.95 must not be told to ask because p was 0.94996.
  const shownP = round(p)
  const information = shownP * (1 - shownP)
  const autoResolvedInARow = autoResolvedSinceLastAnswer(input.memory, selection, recommended, labels)
  const checkIn = autoResolvedInARow >= policy.ask.check_in_after
  // A check-in answered otherwise: asked after answers given for them, the user chose another
  // option. Auto-resolving again at once would answer the next question as the user just said not
  // to; asked until they choose the recommended option again (or the evidence moves to theirs).
  // At a multi-select point, of the recommended set: another set chosen at the check-in ({Lint, E2E}
  // where {Lint, Unit} was answered for them) was auto-resolved {Lint, Unit} again at once.
  const disagreed = checkInAnsweredOtherwise(input.memory, selection, recommended, labels, multiSelect)
  // At a multi-select point, an option never offered before has a selection rate of nothing, not a
  // low one: after 25 choices of {Lint, Test}, Test reworded `Testing`, the set to answer is not
  // {Lint}. The choices that named an option not offered now, past the share auto_resolve_p leaves
  // to doubt, say the options changed under the evidence: asked, as a single-select point whose
  // choices went elsewhere is (its p counts them).
  const unoffered = multiSelect && preference.totalWeight > 0 ? (preference.elsewhereWeight + preference.partlyElsewhereWeight) / preference.totalWeight : 0
  const reworded = unoffered > 1 - policy.ask.auto_resolve_p
  // Backed off across projects (R-MEM-6), the answer is the user's other projects': a project with
  // no choice of its own at the point yet, or whose own differ from it, is asked until its own
  // choices there agree (R-ASK-2 names when `ask` may be false, not when it must be). Auto-resolved,
  // 60 days of Opus in one project answered a new one's first 9 questions Opus, where the user
  // picks Haiku, and only the check-in asked them.
  const unconfirmed = selection.scope === 'all-projects' && recommended.length > 0 ? projectUnconfirmed(projectOwn(input.memory, selection), recommended, labels, multiSelect) : undefined
  // The user's own latest choice at the point in this session went another way (R-MEM-5: the
  // session layer is there to reference the option the user just chose): the evidence still
  // decides what is recommended, but answering for them against what they said minutes ago is
  // not done. 120 choices of Tier M, then Tier S chosen in the session, auto-resolved the
  // session's next question Tier M (p 0.9389). Asked until the session's latest choice agrees.
  const sessionChose = input.session_id === undefined ? undefined : sessionChoseOtherwise(input.memory, selection, input.session_id, recommended, labels)
  let askReason: string
  if (!input.personalization) askReason = 'personalization is off for this session'
  else if (sensitive) askReason = 'the point is sensitive: always asked'
  else if (alwaysAsk) askReason = 'the policy marks this point always_ask'
  else if (state === 'partial') askReason = `state is partial, not sufficient: ${partialBecause(n, M, reportedConfidence(value), policy.confidence.high, loweredBecause)}`
  else if (state !== 'sufficient') askReason = `state is ${state}, not sufficient`
  else if (shownP < policy.ask.auto_resolve_p) {
    askReason = `p ${shownP} is below auto_resolve_p ${policy.ask.auto_resolve_p}${pLowered ? ` (lowered: ${contradictionText(contradicted)})` : ''}`
  }
  else if (recommended.length === 0) askReason = 'no option is selected at a rate of at least one half: there is no answer to give'
  else if (unconfirmed !== undefined) askReason = `${unconfirmed}: the recommendation rests on your other projects`
  else if (checkIn) askReason = checkInReason(autoResolvedInARow)
  else if (disagreed !== undefined) {
    askReason = `asked after answers given for them, the user last chose ${disagreed}, not ${multiSelect ? recommended.map(shownText).join(' and ') : recommended[0]}: asking again`
  }
  else if (sessionChose !== undefined) {
    askReason = `in this session you last chose ${choiceText(sessionChose, labels)} here, not ${recommended.map(shownText).join(' and ')}: asked until your choice in this session agrees`
  }
  else if (reworded) askReason = `${Math.round(unoffered * 100)}% of the choices here named options not offered now: asking`
  else askReason = `sufficient evidence and p ${shownP} >= auto_resolve_p ${policy.ask.auto_resolve_p}: auto-resolve`
  const ask = !(
    input.personalization &&
    !sensitive &&
    !alwaysAsk &&
    state === 'sufficient' &&
    shownP >= policy.ask.auto_resolve_p &&
    recommended.length > 0 &&
    unconfirmed === undefined &&
    !checkIn &&
    disagreed === undefined &&
    sessionChose === undefined &&
    !reworded
  )

  const options = presentOptions({
    offered: input.options,
    recommended,
    strength,
    precondition,
    disclosure,
    shares: (o) => shareOf(preference, o),
    counts: (o) => preference.counts.get(o) ?? 0,
    learned: learning,
    selections: multiSelect ? selections : undefined,
  })

  const brokeTie = learning && !multiSelect && majority === staticDefault && defaultBrokeTie(preference, labels, staticDefault)
  return {
    ...(brokeTie ? { [BROKE_TIE]: true as const } : {}),
    ...(multiSelect ? { [SELECTIONS]: selections } : {}),
    point: input.point,
    state,
    recommended: multiSelect ? recommended : (recommended[0] as string),
    options,
    observations: n,
    effective_observations: round(preference.effective, 2),
    needed: Math.max(0, N - n),
    confidence: {
      value: round(value),
      level,
      significant,
      method,
      ...(loweredBecause === undefined ? {} : { lowered_because: loweredBecause }),
    },
    precondition,
    conditions,
    contradictions: contradicted,
    disclosure,
    strength,
    expertise,
    p: shownP,
    information: round(information),
    entropy: round(entropy),
    ask,
    ask_reason: askReason,
    multi_select: multiSelect,
    sensitive,
    scope: selection.scope,
    context_key: used === null ? null : selection.contextKey,
    context_test: used === null || selection.contextTest === null ? null : { method: CONTEXT_TEST_METHOD, ...selection.contextTest },
    change_test: used === null || selection.changeTest === null ? null : { method: CHANGE_TEST_METHOD, ...selection.changeTest },
    layers: layersOf({
      memory: input.memory,
      recent: selection.recentScope,
      scoped: selection.scoped,
      options: labels,
      sessionId: input.session_id,
      asOf: input.asOf,
      alpha: policy.decay.alpha,
      staticDefault,
      multiSelect,
    }),
    evidence: used === null ? [] : used.evidence.map(([, id]) => id),
    evidence_total: used === null ? 0 : n,
    as_of: input.asOf.toISOString(),
  }
}

/** What a contradicted precondition lowered a recommendation's figures for. */
function contradictionText(contradicted: ReadonlyArray<{ key: string; expected: string; got: string }>): string {
  return `the request's context contradicts the precondition: ${contradicted.map((c) => `${shownText(c.key)} is ${shownText(c.got)}, not ${shownText(c.expected)}`).join('; ')}`
}

/**
 * How many answers this service gave itself at the point since the user's own last answer there
 * (from the moments the auto cell keeps exactly, enough for any check_in_after up to 16).
 * Auto-resolved answers teach nothing, so a preference that changed after the last real answer
 * would never be seen: after `ask.check_in_after` of them the user is asked again.
 * Where the evidence was narrowed to a context value (R-REC-7), since the user's last answer in it
 * or last answer of the option recommended there anywhere, and only the answers given of that option
 * (the auto cell keeps no context: those of another option were given in another value, where another
 * goes). An answer of Tier S in plan shows nothing of a preference that changed in run: read over the
 * whole scope, a user asked in plan now and then kept run's answers from ever checking in.
 */
function autoResolvedSinceLastAnswer(memory: PointView, selection: EvidenceSelection, recommended: readonly string[], options: readonly string[]): number {
  const [auto] = memory.cells([cellKey.auto(selection.project)]) as [Cell]
  const narrowed = selection.contextKey !== null
  let lastAnswer = -Infinity
  for (const tally of (narrowed ? selection.basis : selection.scoped).tallies.values()) lastAnswer = Math.max(lastAnswer, tally.last)
  // An answer of the option recommended here, wherever it was recorded, answers a check-in here too:
  // the Claude Code hooks record every answer without a context, so a check-in asked in run and
  // answered through AskUserQuestion lands in no value, and read in run alone it was asked again at
  // every question.
  if (narrowed) for (const [category, tally] of selection.scoped.tallies) if (agreesWith(category, recommended, options)) lastAnswer = Math.max(lastAnswer, tally.last)
  let count = 0
  for (const [category, tally] of auto.tallies) {
    if (narrowed && !agreesWith(category, recommended, options)) continue
    for (const at of tally.weight?.newest ?? []) if (at > lastAnswer) count++
  }
  return count
}

/**
 * The project's own choices at the point that speak for a request whose evidence backed off across
 * projects: all of them, or, where the evidence was narrowed to a context value (R-REC-7), those
 * made in it, said after `in this project`. A choice of Tier S in plan, where Tier S goes, is no
 * answer against Tier L in run: read whole, a project that chose as the user's other projects do
 * in each phase was asked in run for its latest choice, made in plan, as checkInAnsweredOtherwise
 * and sessionChoseOtherwise read the context too.
 */
function projectOwn(memory: PointView, selection: EvidenceSelection): { cell: Cell | undefined; where: string } {
  const { contextKey: key, contextValue: value } = selection
  if (key === null || value === null) return { cell: selection.recentScope.cell, where: '' }
  const [cell] = memory.cells([cellKey.context(selection.recentScope.project, key, value)]) as [Cell | undefined]
  return { cell, where: ` where ${shownText(key)} is ${shownText(value)}` }
}

/**
 * Why a project whose point backs off across projects is asked (see recommend): it has no choice
 * of its own there yet, or its own choices there (fewer than N) do not agree with the recommended
 * answer: the latest of them was another, or the recommended answer was not most of them. Undefined
 * when they agree. Not "every one of them": one stray choice among a project's first few kept it
 * asked until it had N of its own, then `partial` there until it had more than M, about 20 more
 * questions where the user chose as in their other projects. `where` says the context value
 * they were read in (projectOwn).
 */
function projectUnconfirmed(
  { cell: own, where }: { cell: Cell | undefined; where: string },
  recommended: readonly string[],
  options: readonly string[],
  multiSelect: boolean,
): string | undefined {
  const n = own?.n ?? 0
  if (own === undefined || n === 0) return where === '' ? 'no choice of yours at this point in this project yet' : `no choice of yours yet at this point in this project${where}`
  const agrees = (category: Category) => agreesWith(category, recommended, options)
  let agreeing = 0
  for (const [category, tally] of own.tallies) if (agrees(category)) agreeing += tally.n
  // Of choices made at one instant, the one recorded last is the latest, as a tie goes (R-REC-2);
  // where their order is not known, they are the latest together: each of them must agree.
  const latestAgrees = chosenLastOf(own.tallies).every(agrees)
  if (latestAgrees && agreeing * 2 > n) return undefined
  const answer = multiSelect ? recommended.join(' and ') : (recommended[0] as string)
  if (n === 1) return `your choice at this point in this project${where} was not ${answer}`
  return latestAgrees
    ? `only ${agreeing} of your ${n} choices at this point in this project${where} ${agreeing === 1 ? 'was' : 'were'} ${answer}`
    : `your latest choice at this point in this project${where} was not ${answer}`
}

/**
 * Whether a choice is the recommended answer: its labels as the options offered now (in another
 * case too), as the preference counts them, are the recommended option, or set. Text typed instead
 * of an option, or a label offered no more, is no agreement.
 */
function agreesWith(category: Category, recommended: readonly string[], options: readonly string[]): boolean {
  const wanted = new Set(recommended)
  const named = offeredIn(category, options)
  return named.length === labelsOf(category).length && named.length === wanted.size && named.every((o) => wanted.has(o))
}

/** A choice as an ask_reason names it: its options as offered now, else as said; a set joined by `and`. */
function choiceText(category: Category, options: readonly string[]): string {
  const said = labelsOf(category)
  if (said.length === 0) return 'none of the options'
  const named = offeredIn(category, options)
  return (named.length === said.length ? named : said).map(shownText).join(' and ')
}

/**
 * The user's own latest choice at the point in this session (`sessionId`), when it is not the
 * recommended answer (agreesWith); undefined when it is, when the session made none there, and
 * where which was the latest is not known. Of the session's choices in the evidence's scope (its
 * project's, or every project's where the evidence backed off across them), and where the evidence
 * was narrowed to a context value, of those made in it, as checkInAnsweredOtherwise reads a
 * check-in's answer: a choice of Tier S in plan, where Tier S goes, is no answer against Tier M in
 * run. The user's own choices only: auto-resolved answers are not counted in a session's cell.
 * Cells keep no session by context value: a session choice is known to be in the value when its
 * id is among the value's newest ones (`evidence`). The session's latest choice of each option
 * (its tally's last) is read; a later one in the value, hidden behind a later choice of the same
 * option in another value, is not known, and the session is then not said to disagree; nor is it
 * where the recommended answer was chosen (in the evidence) at or after the session's choice.
 */
function sessionChoseOtherwise(
  memory: PointView,
  selection: EvidenceSelection,
  sessionId: string,
  recommended: readonly string[],
  options: readonly string[],
): Category | undefined {
  if (recommended.length === 0) return undefined
  const [session] = memory.cells([cellKey.session(selection.project, sessionId)]) as [Cell]
  let latest: Category | undefined
  if (selection.contextKey === null) {
    // Every choice of the session in the scope is in the evidence's basis (the scope's cell).
    // Choices made at one instant whose order is not known are none of them the latest alone.
    const last = chosenLastOf(session.tallies)
    latest = last.length === 1 ? last[0] : undefined
  } else {
    const inValue = new Set(selection.basis.evidence.map(([, id]) => id))
    let best: [Category, Tally] | undefined
    const outside: Tally[] = []
    for (const [category, tally] of session.tallies) {
      if (tally.lastId === undefined) return undefined
      if (!inValue.has(tally.lastId)) outside.push(tally)
      else if (best === undefined || isLater(tally, best[1])) best = [category, tally]
    }
    if (best === undefined) return undefined
    const found = best[1]
    // Another option's latest choice in the session was outside the value and later: an earlier
    // choice of it may have been in the value, after the one found, unless it was its only one.
    if (outside.some((tally) => tally.n > 1 && isLater(tally, found))) return undefined
    latest = best[0]
  }
  if (latest === undefined || agreesWith(latest, recommended, options)) return undefined
  // Went another way after the evidence's latest choice of the recommended answer, not with it:
  // 30 choices of Tier M and one of Tier S posted in one batch (one instant, R-REC-4) in session
  // s-1 asked s-1 for the order of the array, as did a Tier M chosen in another session later.
  const chosenAt = (session.tallies.get(latest) as Tally).last
  for (const [category, tally] of selection.basis.tallies) {
    if (tally.last >= chosenAt && agreesWith(category, recommended, options)) return undefined
  }
  return latest
}

/** Whether a tally's last choice came after another's: by moment, then by the id recorded last. */
function isLater(a: Tally, b: Tally): boolean {
  return a.last > b.last || (a.last === b.last && a.lastId !== undefined && b.lastId !== undefined && laterId(a.lastId, b.lastId))
}

/**
 * Why a partial state is not sufficient (R-REC-4): too few observations, or, past M, a confidence
 * below `high`, with what lowered it (a context that contradicts the precondition), since 30
 * observations said `partial` alone read as a fault.
 */
function partialBecause(n: number, M: number, confidence: number, high: number, loweredBecause: string | undefined): string {
  if (n <= M) return `${n} ${n === 1 ? 'observation' : 'observations'}, sufficient takes more than ${M}`
  const lowered = loweredBecause === undefined ? '' : `, lowered because ${loweredBecause}`
  return `confidence ${confidence} is below ${high}${lowered}`
}

/** The ask_reason of a check-in (R-ASK-2): asked after `count` answers given in a row for the user. */
export function checkInReason(count: number): string {
  return count === 1
    ? '1 answer in a row was auto-resolved: checking in with the user'
    : `${count} answers in a row were auto-resolved: checking in with the user`
}

/** How many answers in a row a check-in's ask_reason says were given for the user, else undefined. */
export function checkInCount(askReason: string): number | undefined {
  const count = /^(\d+) answers? in a row (?:were|was) auto-resolved: checking in with the user$/.exec(askReason)?.[1]
  return count === undefined ? undefined : Number(count)
}

/**
 * The option the user last chose (in the context value the evidence was narrowed to, if any),
 * when it is not the recommended one and it was chosen after answers auto-resolved since the user
 * last chose the recommended one (the answer to a check-in, or to a question asked for another
 * reason after them); undefined otherwise, and when the last answer is not one option's alone
 * (choices made at one instant whose order of recording is not known). At a multi-select point,
 * the set the user last chose when it is not the recommended set (agreesWith), as choiceText says it.
 */
function checkInAnsweredOtherwise(
  memory: PointView,
  selection: EvidenceSelection,
  recommended: readonly string[],
  options: readonly string[],
  multiSelect: boolean,
): string | undefined {
  let lastAt = -Infinity
  let agreedAt = -Infinity
  // As the option offered now, in another case too (`Tier M` answered, `tier m` offered), as the
  // preference counts it; a choice of no offered option as it was said. A set as its options.
  const optionOf = (category: Category) =>
    multiSelect ? choiceText(category, options) : offeredIn(category, options).join(', ') || labelsOf(category).join(', ')
  const agrees = (category: Category) => (multiSelect ? agreesWith(category, recommended, options) : recommended.includes(optionOf(category)))
  // Within the context the recommendation was narrowed to (its whole history): another option
  // chosen in another context, where another goes (a check-in answered in plan as plan goes), is no
  // answer against this one.
  for (const [category, tally] of selection.basis.tallies) {
    if (agrees(category)) agreedAt = Math.max(agreedAt, tally.last)
    lastAt = Math.max(lastAt, tally.last)
  }
  // Of answers made at one instant, the one recorded last, as a tie goes (R-REC-2); where their
  // order is not known, none is the last alone unless they are one option (one set).
  const lastChosen = chosenLastOf(selection.basis.tallies)
  const lastOptions = new Set(lastChosen.map(optionOf))
  const last = lastOptions.size === 1 ? ([...lastOptions][0] as string) : undefined
  if (last === undefined || lastChosen.some(agrees)) return undefined
  const [auto] = memory.cells([cellKey.auto(selection.project)]) as [Cell]
  for (const tally of auto.tallies.values()) for (const at of tally.weight?.newest ?? []) if (at > agreedAt && at < lastAt) return last
  return undefined
}

/**
 * Applies a recommendation to the options as R-REC-6 says: strong and medium put the
 * recommended option first labelled ` (Recommended)` with its rationale; weak puts it first
 * annotated with its share; neutral leaves the options as offered.
 */
function presentOptions(input: {
  offered: readonly OfferedOption[]
  recommended: readonly string[]
  strength: Strength
  precondition: string
  disclosure: string
  shares: (option: string) => number
  counts: (option: string) => number
  learned: boolean
  selections: ReturnType<typeof multiSelectBeliefs> | undefined
}): RecommendedOption[] {
  const chosen = new Set(input.recommended)
  const ordered =
    input.strength === 'neutral'
      ? [...input.offered]
      : [
          ...input.recommended.flatMap((r) => input.offered.filter((o) => o.option === r)),
          ...input.offered.filter((o) => !chosen.has(o.option)),
        ]
  return ordered.map((offered) => {
    const isRecommended = chosen.has(offered.option)
    const share = input.shares(offered.option)
    const item: RecommendedOption = {
      option: offered.option,
      label: offered.option,
      share: round(share),
      count: input.counts(offered.option),
      recommended: isRecommended,
    }
    const selection = input.selections?.find((s) => s.option === offered.option)
    if (selection !== undefined) {
      item.rate = round(selection.rate)
      // The confidence in what is recommended of the option, as the set's is their product: a
      // static default's set that leaves out an option chosen every time is unsure of that.
      item.confidence = round(selectionFactor(selection, isRecommended))
    }
    if (offered.description !== undefined) item.description = offered.description
    if (!isRecommended || input.strength === 'neutral') return item
    // R-REC-5: the recommended option always says when it holds, the expert's too; strong, medium
    // and weak differ in the label the agent shows, not in this sentence. A neutral answer (a
    // sensitive point, personalization off) leans on no option, so none says it is recommended.
    if (offered.description !== undefined) item.original_description = offered.description
    item.description = `Recommended when ${input.precondition} — ${input.disclosure}`
    if (input.strength === 'weak') {
      item.label = input.learned
        ? `${offered.option} (${shownPercent(share)}% of recent choices)`
        : `${offered.option} (static default)`
    } else {
      item.label = `${offered.option} (Recommended)`
    }
    return item
  })
}
