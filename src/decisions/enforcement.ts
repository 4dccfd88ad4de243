import { confidenceLevel, reportedConfidence, setFigures, towardChance } from '../domain/confidence'
import { matchInOtherWords } from '../domain/labels'
import type { Policy } from '../domain/policy'
import {
  BROKE_TIE,
  restsOnStaticDefault,
  SELECTIONS,
  STATIC_DEFAULT_BASIS,
  type OfferedOption,
  type Recommendation,
  type RecommendedOption,
} from '../domain/recommendation'
import { overLimit } from './constraints'
import { compareKeys, type DecisionRecord, type EnforceLevel } from './decision'
import { agreeing, decisionsNamed, inWords } from './decisions-named'

/** What one decision did to a recommendation (R-CON-2). */
export interface DecisionEffect {
  key: string
  title: string
  enforce: EnforceLevel
  /**
   * `enforced`: it fixes the answer; `ruled-out`: its options were taken off the offer;
   * `static-default`: it is the default while there is too little evidence (or personalization
   * is off), or its option won a tie of observed choices as the default; `outweighed`: observed choices decided instead; `not-offered`: its option is not
   * among the options asked (a required `must` not offered rules out every option instead); `conflict`: another required decision contradicts it (rules out its
   * `must` option, or fixes another; of an advisory one, a newer advisory default names another option); `advised-against`: an advisory `must_not` or `limit` the
   * recommended option breaks (it stays recommended, and the user is asked); `overruled`: an
   * advisory decision (its default, or a `must_not` or `limit` the fixed option breaks) where a
   * required decision fixes the answer, or whose default option a required decision ruled out, so
   * that it decides nothing. When required
   * decisions rule out every option offered, each is `ruled-out`, and none of the options is
   * recommended.
   */
  effect: 'enforced' | 'ruled-out' | 'static-default' | 'outweighed' | 'not-offered' | 'conflict' | 'advised-against' | 'overruled'
  options: string[]
  rationale: string
}

/**
 * Two accepted required decisions bound to a point that contradict each other there (R-CON-2): a
 * `must` of an option the other rules out (its `must_not`, a `limit` the option is over, or a `must`
 * of an option not offered), or, at a single-select point, `must`s of different options. The newer
 * (by date, then last change, then key: newestFirst) holds, as the later contract; the answer says
 * so, and is never given for the user, since the check blocks what either forbids (R-CON-3).
 */
export interface DecisionConflict {
  /** The two decisions' keys, the newer first: it holds. */
  keys: [string, string]
  /** The options they disagree over: the one the older's `must` names and the newer rules out, or the `must`s' options, the newer's first. */
  options: string[]
  /** `required decisions D-002 and D-001 contradict each other over "Tier L" (the newer, D-002, holds)`. */
  message: string
}

/** A recommendation joined with the decisions bound to its point. */
export interface ContractedRecommendation extends Recommendation {
  decisions?: DecisionEffect[]
  /** Required decisions bound to the point that contradict each other, each pair once; absent when none. */
  conflicts?: DecisionConflict[]
  /** What observed choices alone recommended, when a decision fixed something else. */
  learned?: { state: Recommendation['state']; recommended: string | string[]; confidence: number }
}

/** The decisions bound to a point, read for one request: what they fix, rule out and advise. */
export interface PointContract {
  /** Required `must` options that are offered, newest decision first. */
  musts: Array<{ option: string; decision: DecisionRecord }>
  /** Options taken off the offer by required `must_not`s and `limit`s. */
  ruledOut: Map<string, DecisionRecord[]>
  /**
   * The required decisions that rule out every option offered between them, by key (as `GET
   * /v1/decisions` lists them, compareKeys); null when some option is left. Nothing is then
   * recommended, and the offer is kept whole.
   */
  noneAllowed: DecisionRecord[] | null
  /** Offered options an advisory `must_not` or `limit` advises against: a check warns of each. */
  advisedAgainst: Map<string, DecisionRecord[]>
  /** The advisory default: the newest advisory `must` or any `prefer` whose option is offered. */
  advisory: { option: string; decision: DecisionRecord } | null
  /**
   * Every advisory `must` and `prefer` whose option is offered, newest decision first, the advisory
   * default's among them: those that are not it are listed too, as deciding nothing here.
   */
  soft: Array<{ option: string; decision: DecisionRecord }>
  /** The offer after ruling out (the whole offer when every option is ruled out: see noneAllowed). */
  offered: OfferedOption[]
  /**
   * The static default to recommend from: the advisory option, else the request's unless ruled out;
   * else, when the static default it stands in for (the request's, the policy's, or the first
   * option) is one an advisory decision advises against, the first other option none advises against.
   */
  staticDefault: string | undefined
  /** The static default set aside because an advisory decision advises against it, and the newest decision that does. */
  avoided: { option: string; decision: DecisionRecord } | null
  /** Required decisions that contradict each other over an option one's `must` names and another rules out. */
  conflicts: DecisionConflict[]
  effects: DecisionEffect[]
}

/**
 * The conflict of two required decisions, `newer` the one that holds; or of one with itself, whose
 * `must`s name two options at a single-select question (its first holds): "the newer" of a decision
 * and itself, `D-001 and D-001`, said nothing true of it.
 */
export function conflictOf(newer: DecisionRecord, older: DecisionRecord, options: readonly string[]): DecisionConflict {
  const over = listed(options.map((o) => JSON.stringify(o)))
  const message =
    newer.key === older.key
      ? `required decision ${newer.key} contradicts itself over ${over}: its musts name ${inWords(options.length)} options where one is chosen (the first, ${JSON.stringify(options[0])}, holds)`
      : `required decisions ${newer.key} and ${older.key} contradict each other over ${over} (the newer, ${newer.key}, holds)`
  return { keys: [newer.key, older.key], options: [...options], message }
}

/** `"A" and "B"`, `"A", "B" and "C"`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

function effectOf(decision: DecisionRecord, effect: DecisionEffect['effect'], options: string[]): DecisionEffect {
  return { key: decision.key, title: decision.title, enforce: decision.enforce, effect, options, rationale: decision.rationale }
}

/**
 * Newest first: by decision date, then by last change, then by key, the key listed later by
 * `GET /v1/decisions` (compareKeys) the newer. Each by code unit: the dates and times are ISO, and
 * localeCompare would order keys as no list of them does (`D_1` before `D-1`), and by the locale.
 */
export function newestFirst(a: DecisionRecord, b: DecisionRecord): number {
  return compareKeys(b.date, a.date) || compareKeys(b.updated_at, a.updated_at) || compareKeys(b.key, a.key)
}

/**
 * Reads what accepted decisions bound to a point (and in scope) mean for an offer, before the
 * recommendation is computed: required `must_not` options, and offered numbers over a required
 * `limit`, leave the offer, and the advisory default becomes the static default, so that ties
 * and thin evidence fall to it (R-CON-2).
 */
export function contractFor(
  decisions: readonly DecisionRecord[],
  offered: readonly OfferedOption[],
  staticDefault: string | undefined,
  /** The policy point's static default, as offered (matchInOtherWords), if it names one. */
  policyDefault?: string | undefined,
): PointContract {
  const labels = offered.map((o) => o.option)
  const sorted = [...decisions].sort(newestFirst)
  const musts: PointContract['musts'] = []
  const ruledOut = new Map<string, DecisionRecord[]>()
  const soft: Array<{ option: string; decision: DecisionRecord }> = []
  const effects: DecisionEffect[] = []
  const advisedAgainst = new Map<string, DecisionRecord[]>()
  const mark = (marked: Map<string, DecisionRecord[]>, option: string, decision: DecisionRecord) => {
    const by = marked.get(option) ?? []
    if (!by.includes(decision)) marked.set(option, [...by, decision])
  }
  const ruleOut = (option: string, decision: DecisionRecord) => mark(ruledOut, option, decision)
  for (const decision of sorted) {
    const missing: string[] = []
    for (const c of decision.constraints) {
      if (c.kind === 'limit') {
        // A required limit rules out the options the check would block (R-CON-2, R-CON-3); an
        // advisory one, like an advisory must_not, only warns when checked.
        if (c.value === undefined) continue
        for (const option of labels) {
          if (overLimit(option, c.value) === undefined) continue
          if (decision.enforce === 'required') ruleOut(option, decision)
          else mark(advisedAgainst, option, decision)
        }
        continue
      }
      if (c.option === undefined) continue
      // The option offered that the decision names: as a choice would name it, else in other words,
      // as the policy's default is found (matchInOtherWords: `Tier S` is the `S` of "Tier S, M or
      // L?", which joins the point of the decision's Tier S). Matched as a choice only, a required
      // must_not left S on offer, to be recommended and answered for the user against it.
      const option = matchInOtherWords(c.option, labels)
      if (option === undefined && c.kind === 'must' && decision.enforce === 'required') {
        // A required option not offered: every option offered breaks it, and the check blocks
        // each (R-CON-3), so none may be recommended, let alone answered for the user.
        for (const label of labels) ruleOut(label, decision)
        continue
      }
      if (option === undefined) {
        missing.push(c.option)
        continue
      }
      if (c.kind === 'prefer' || (c.kind === 'must' && decision.enforce === 'advisory')) soft.push({ option, decision })
      else if (c.kind === 'must') musts.push({ option, decision })
      else if (c.kind === 'must_not' && decision.enforce === 'required') ruleOut(option, decision)
      else if (c.kind === 'must_not') mark(advisedAgainst, option, decision)
    }
    if (missing.length > 0) effects.push(effectOf(decision, 'not-offered', missing))
  }
  // A required must of an option other required decisions rule out: the newer contract holds. A
  // must newer than each of them keeps its option on offer (theirs is `conflict` there); one older
  // than any of them is `conflict` itself (fixable, below), and the option stays out. Musts come
  // newest first, and so do the decisions that rule an option out.
  const conflicts: DecisionConflict[] = []
  const overridden = new Map<DecisionRecord, string[]>()
  for (const m of musts) {
    const by = (ruledOut.get(m.option) ?? []).filter((d) => d !== m.decision)
    if (by.length === 0) continue
    const newer = by.find((d) => newestFirst(d, m.decision) < 0)
    if (newer !== undefined) {
      conflicts.push(conflictOf(newer, m.decision, [m.option]))
      continue
    }
    for (const d of by) {
      conflicts.push(conflictOf(m.decision, d, [m.option]))
      overridden.set(d, [...(overridden.get(d) ?? []), m.option])
    }
    const left = (ruledOut.get(m.option) ?? []).filter((d) => d === m.decision)
    if (left.length === 0) ruledOut.delete(m.option)
    else ruledOut.set(m.option, left)
  }
  for (const [d, options] of overridden) effects.push(effectOf(d, 'conflict', options))
  const allowed = offered.filter((o) => !ruledOut.has(o.option))
  const byDecision = new Map<DecisionRecord, string[]>()
  for (const [option, by] of ruledOut) for (const d of by) byDecision.set(d, [...(byDecision.get(d) ?? []), option])
  for (const [d, options] of byDecision) effects.push(effectOf(d, 'ruled-out', options))
  // Every option offered is ruled out: none of them is recommended (applyDecisions), and the
  // offer stays whole so that the question can still be shown as the agent wrote it.
  const noneAllowed = allowed.length === 0 && ruledOut.size > 0
  const allowedLabels = new Set(allowed.map((o) => o.option))
  const fixable = musts.filter((m) => {
    if (allowedLabels.has(m.option)) return true
    effects.push(effectOf(m.decision, 'conflict', [m.option]))
    return false
  })
  const advisory = soft.find((s) => allowedLabels.has(s.option)) ?? null
  const requested = staticDefault !== undefined && allowedLabels.has(staticDefault) ? staticDefault : undefined
  // The static default the recommendation would stand on (R-REC-1: the request's, the policy's,
  // the first option) is only a fallback, which no choice of the user's supports: one an advisory
  // decision advises against gives way to the first other option none advises against, if any.
  const candidates = [requested, policyDefault, ...allowed.map((o) => o.option)].filter(
    (o): o is string => o !== undefined && allowedLabels.has(o),
  )
  const fallback = candidates[0]
  const against = fallback === undefined ? undefined : advisedAgainst.get(fallback)?.[0]
  const instead = against === undefined ? undefined : candidates.find((o) => !advisedAgainst.has(o))
  const avoided = advisory === null && against !== undefined && instead !== undefined ? { option: fallback as string, decision: against } : null
  return {
    musts: fixable,
    ruledOut,
    advisedAgainst,
    noneAllowed: noneAllowed ? [...byDecision.keys()].sort((a, b) => compareKeys(a.key, b.key)) : null,
    advisory,
    soft,
    offered: noneAllowed ? [...offered] : allowed,
    staticDefault: noneAllowed ? staticDefault : (advisory?.option ?? (avoided === null ? requested : instead)),
    avoided: noneAllowed ? null : avoided,
    conflicts,
    effects,
  }
}

/**
 * Decisions as a precondition says them in force, in their order, the verb agreeing with how many
 * (`decision D-001 is in force`, `decisions D-001, D-002 are in force`): one scope said once, after
 * the keys (`decisions D-301, D-302 are in force under src/billing`); several, each in brackets
 * after its key (`decisions D-302, D-303 (under src/billing) are in force`), none after one that has none.
 */
function inForce(deciding: readonly DecisionRecord[]): string {
  const scopes = new Set(deciding.map(scopeText))
  const scoped = (d: DecisionRecord) => (scopeText(d) === '' ? d.key : `${d.key} (${scopeText(d).trim()})`)
  const verb = agreeing(deciding.length, 'is', 'are')
  return scopes.size === 1
    ? `${decisionsNamed(deciding.map((d) => d.key))} ${verb} in force${[...scopes][0] as string}`
    : `${decisionsNamed(deciding.map(scoped))} ${verb} in force`
}

/**
 * Each decision's rationale after its key, in their order, on one line, after `decision` or, of
 * several, `decisions`: `decision D-201: <its rationale>`, `decisions D-201: <its rationale>; D-202: <its rationale>`.
 */
function eachRationale(deciding: readonly DecisionRecord[]): string {
  return `${agreeing(deciding.length, 'decision', 'decisions')} ${deciding.map((d) => `${d.key}: ${d.rationale}`).join('; ')}`
}

function scopeText(decision: DecisionRecord): string {
  const parts: string[] = []
  if (decision.scope.task !== null) parts.push(`for task ${decision.scope.task}`)
  if (decision.scope.path !== null) parts.push(`under ${decision.scope.path}`)
  if (decision.scope.stage !== null) parts.push(`at stage ${decision.scope.stage}`)
  return parts.length === 0 ? '' : ' ' + parts.join(', ')
}

/**
 * An option as the agent offered it: its plain label and the agent's own description. That is
 * read from the offer, not guessed from the recommendation, whose recommended option keeps the
 * agent's description where its strength adds no rationale (neutral: personalization off or a
 * sensitive point; weak: an expert's).
 */
function asOffered(option: RecommendedOption, offered: ReadonlyMap<string, OfferedOption>): RecommendedOption {
  const out: RecommendedOption = { ...option, label: option.option, recommended: false }
  delete out.original_description
  delete out.description
  const original = offered.get(option.option)?.description
  if (original !== undefined) out.description = original
  return out
}

/**
 * The recommendation a required decision fixes: `enforced`, never overridden by observed choices.
 * `fixed` is the answer; `required` the options of it the decisions name (at a multi-select point
 * the answer also holds the learned options beside them, which keep the learned precondition).
 * `policy` bands the confidence of a set the decisions fix only part of.
 */
function enforce(
  rec: Recommendation,
  offered: readonly OfferedOption[],
  fixed: string[],
  deciding: DecisionRecord[],
  determined: boolean,
  alwaysAsk: boolean,
  policy: Policy,
  required: ReadonlySet<string> = new Set(fixed),
): ContractedRecommendation {
  // By key, each with its rationale and scope, as where they rule out every option (recommendNone):
  // they agree on what they fix (those that contradict it are `conflicts`), none holding over another.
  const byKey = [...new Map(deciding.map((d) => [d.key, d])).values()].sort((a, b) => compareKeys(a.key, b.key))
  const named = decisionsNamed(byKey.map((d) => d.key))
  const fix = agreeing(byKey.length, 'fixes', 'fix')
  const precondition = `required ${inForce(byKey)}`
  const disclosure = `required by ${eachRationale(byKey)}`
  const personalization = rec.state !== 'personalization-off'
  const neutral = rec.sensitive
  const chosen = new Set(fixed)
  const first = fixed.flatMap((f) => rec.options.filter((o) => o.option === f))
  const rest = rec.options.filter((o) => !chosen.has(o.option))
  const ordered = neutral ? rec.options : [...first, ...rest]
  const asWritten = new Map(offered.map((o) => [o.option, o]))
  const options = ordered.map((o) => {
    const plain = asOffered(o, asWritten)
    if (!chosen.has(o.option)) return plain
    const item: RecommendedOption = { ...plain, recommended: true }
    // An option a required decision fixes is certain, whatever the user's choices said of it (a
    // learned set that left it out was sure of leaving it out, not of selecting it): its factor is 1.
    if (item.confidence !== undefined && required.has(o.option)) item.confidence = 1
    if (!neutral) {
      item.label = `${o.option} (Recommended)`
      if (plain.description !== undefined) item.original_description = plain.description
      // A learned option beside the required ones is recommended by the user's choices, not by
      // the decision: saying "required by decision …" of it would read as a rule it is not.
      item.description = required.has(o.option)
        ? `Recommended when ${precondition} — ${disclosure}`
        : `Recommended when ${rec.precondition} — ${rec.disclosure}`
    }
    return item
  })
  let ask = true
  let askReason: string
  if (!personalization) askReason = 'personalization is off for this session'
  else if (rec.sensitive) askReason = 'the point is sensitive: always asked'
  else if (alwaysAsk) askReason = 'the policy marks this point always_ask'
  else if (!determined) askReason = `${named} ${fix} part of the answer; the rest is the user's`
  else {
    ask = false
    askReason = `required ${named} ${fix} the answer: auto-resolve`
  }
  const figures = determined ? undefined : partlyFixed(rec, chosen, required, `enforced in part by required ${named}`, policy)
  const confidence = figures?.confidence ?? { value: 1, level: 'high' as const, significant: true, method: `enforced by required ${named}` }
  return {
    ...rec,
    state: 'enforced',
    recommended: rec.multi_select ? fixed : (fixed[0] as string),
    options,
    confidence,
    precondition,
    // Where the decisions fix the whole answer, the learned conditions no longer describe what is
    // recommended; the decision's scope does. Where they fix part of a multi-select set, the rest is
    // still the user's choices': their conditions, and the context's contradictions of them (which
    // lower the set's confidence and p, see partlyFixed, and are named as its reason), still hold.
    conditions: determined ? { context: [], window: null } : rec.conditions,
    contradictions: determined ? [] : rec.contradictions,
    disclosure,
    strength: neutral ? 'neutral' : 'strong',
    p: figures?.p ?? 1,
    information: figures?.information ?? 0,
    entropy: figures?.entropy ?? 0,
    ask,
    ask_reason: askReason,
    learned: { state: rec.state, recommended: rec.recommended, confidence: rec.confidence.value },
  }
}

/**
 * The figures of a multi-select set required decisions fix only part of (R-CON-2, R-REC-8): the
 * options they fix (`required`) are certain, each counting 1, and the rest of the set is the user's,
 * each option with its factor: the set's confidence is the product of those, banded by the policy,
 * and pulled toward their chance as the learned set's was where the request's context contradicts
 * its precondition; p and the entropy are those of the options left to the user (p pulled so too).
 */
function partlyFixed(
  rec: Recommendation,
  chosen: ReadonlySet<string>,
  required: ReadonlySet<string>,
  enforcedBy: string,
  policy: Policy,
): Pick<Recommendation, 'confidence' | 'p' | 'information' | 'entropy'> {
  const beliefs = rec[SELECTIONS]
  const method = `${rec.confidence.method}; ${enforcedBy}, whose options count 1`
  // Only a multi-select answer is fixed in part, and recommend gives each its beliefs.
  if (beliefs === undefined) return { confidence: { ...rec.confidence, method }, p: rec.p, information: rec.information, entropy: rec.entropy }
  const set = setFigures(beliefs, chosen, required)
  let value = set.confidence
  let lowered = rec.confidence.lowered_because
  if (lowered !== undefined) {
    // Chance as recommend reckons it for a set, a coin per option: here per option left to the user.
    const free = beliefs.filter((b) => !required.has(b.option)).length
    const shrunk = towardChance(value, 0.5 ** free, policy.confidence.contradiction_shrink)
    if (reportedConfidence(shrunk) < reportedConfidence(value)) value = shrunk
    else lowered = undefined
  }
  // p is pulled toward the same chance where the request's context contradicts the learned
  // precondition, as recommend pulls it, never raised.
  let predicted = set.p
  if (rec.contradictions.length > 0) {
    const free = beliefs.filter((b) => !required.has(b.option)).length
    predicted = Math.min(predicted, towardChance(predicted, 0.5 ** free, policy.confidence.contradiction_shrink))
  }
  // Given to 4 places as recommend gives them, information of the p shown.
  const p = fourPlaces(predicted)
  return {
    confidence: {
      value: reportedConfidence(value),
      level: confidenceLevel(value, policy),
      significant: reportedConfidence(value) >= policy.confidence.high,
      method,
      ...(lowered === undefined ? {} : { lowered_because: lowered }),
    },
    p,
    information: fourPlaces(p * (1 - p)),
    entropy: fourPlaces(set.entropy),
  }
}

function fourPlaces(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

/**
 * Joins a recommendation with the decisions bound to its point (R-CON-2): an accepted required
 * `must` fixes the answer (`enforced`, whatever was observed, and auto-resolved where the policy
 * allows it); required `must_not`s and `limit`s have already left the offer, and when they leave
 * one option, that option is fixed; an advisory decision is the static default, with its
 * rationale as the precondition, until observed choices outweigh it. `alwaysAsk`: the policy marks
 * the question's point always_ask (pointRule), where even an enforced answer is asked; `policy`
 * bands the confidence of an answer they fix only part of.
 */
export function applyDecisions(rec: Recommendation, contract: PointContract, alwaysAsk: boolean, policy: Policy): ContractedRecommendation {
  const effects = [...contract.effects]
  const conflicts = [...contract.conflicts]
  if (contract.noneAllowed !== null) {
    for (const [d, options] of softBy(contract.soft)) effects.push(effectOf(d, 'overruled', options))
    return { ...recommendNone(rec, contract.offered, contract.noneAllowed), decisions: effects, ...(conflicts.length === 0 ? {} : { conflicts }) }
  }
  const allowed = contract.offered.map((o) => o.option)
  const onlyOne = contract.ruledOut.size > 0 && allowed.length === 1 ? (allowed[0] as string) : undefined
  let result: ContractedRecommendation = rec

  if (rec.multi_select) {
    const fixed = [...new Set(contract.musts.map((m) => m.option))]
    if (fixed.length > 0) {
      const learned = Array.isArray(rec.recommended) ? rec.recommended : [rec.recommended]
      const set = allowed.filter((o) => fixed.includes(o) || learned.includes(o))
      const deciding = contract.musts.map((m) => m.decision)
      result = enforce(rec, contract.offered, set, deciding, allowed.every((o) => fixed.includes(o)), alwaysAsk, policy, new Set(fixed))
      for (const d of new Set(deciding)) {
        effects.push(effectOf(d, 'enforced', contract.musts.filter((m) => m.decision === d).map((m) => m.option)))
      }
    }
  } else {
    const must = contract.musts[0]
    if (must !== undefined) {
      // Every required decision whose must is the newest's option fixes it too: each is named, as a
      // multi-select point names them, so that revoking one does not look like freeing the point.
      const deciding = [...new Set(contract.musts.filter((m) => m.option === must.option).map((m) => m.decision))]
      for (const [other, options] of contradictingMusts(contract)) {
        effects.push(effectOf(other, 'conflict', options))
        conflicts.push(conflictOf(must.decision, other, [must.option, ...options]))
      }
      result = enforce(rec, contract.offered, [must.option], deciding, true, alwaysAsk, policy)
      for (const d of deciding) effects.push(effectOf(d, 'enforced', [must.option]))
    } else if (onlyOne !== undefined) {
      const deciding = [...new Set([...contract.ruledOut.values()].flat())]
      result = enforce(rec, contract.offered, [onlyOne], deciding, true, alwaysAsk, policy)
    }
  }

  const advisory = contract.advisory
  // The advisory decisions other than the default's: one whose option a required decision ruled
  // out, or every one where a required decision fixes the answer, is overruled; one naming another
  // option than the newer default is in conflict with it; one naming the same is that default.
  const others = softBy(contract.soft.filter((s) => s.decision !== advisory?.decision))
  if (advisory !== null && result.state === 'enforced') {
    // A required decision fixes the answer: the advisory default decides nothing, and says so
    // rather than vanish from the list of the decisions in scope.
    effects.push(effectOf(advisory.decision, 'overruled', [advisory.option]))
    for (const [d, options] of others) effects.push(effectOf(d, 'overruled', options))
  } else if (advisory !== null) {
    // Recommended as the static default: too little history, personalization off, or none of the
    // choices at the point of an option offered now (nothing outweighed it then: none was learned).
    // Or learned, but only as the static default wins a tie (R-REC-2): the decision decided it
    // (the observed choices alone did not), and the disclosure says so.
    const asDefault = restsOnStaticDefault(rec) && recommendsOnly(rec, advisory.option)
    const brokeTie = !asDefault && rec[BROKE_TIE] === true && recommendsOnly(rec, advisory.option)
    if (asDefault) result = advise(rec, advisory.decision)
    else if (brokeTie) result = breakTie(rec, advisory.decision)
    const effect = asDefault || brokeTie ? 'static-default' : 'outweighed'
    effects.push(effectOf(advisory.decision, effect, [advisory.option]))
    for (const [d, options] of others) {
      const open = options.filter((o) => allowed.includes(o))
      if (open.length === 0) effects.push(effectOf(d, 'overruled', options))
      // Options chosen together: a learned set can hold both decisions' options, and neither
      // contradicts the other. The static default is the newer one's option alone, as below.
      else if (rec.multi_select && !asDefault) effects.push(effectOf(d, effect, open))
      else if (open.includes(advisory.option)) effects.push(effectOf(d, effect, [advisory.option]))
      else effects.push(effectOf(d, 'conflict', open))
    }
  } else {
    // No advisory default is offered: any advisory decision named an option a required one ruled out.
    for (const [d, options] of others) effects.push(effectOf(d, 'overruled', options))
  }
  if (contract.avoided !== null && result.state !== 'enforced') {
    // The static default gave way to an option no advisory decision advises against: where it is
    // recommended as the static default (disclosed so, as above), the decision that moved it is its
    // precondition, as an advisory default's is.
    const instead = contract.staticDefault as string
    const asDefault = restsOnStaticDefault(rec) && recommendsOnly(rec, instead)
    // Or learned only as the static default it moved to wins a tie: it decided that too.
    const brokeTie = !asDefault && rec[BROKE_TIE] === true && recommendsOnly(rec, instead)
    if (asDefault) result = advise(rec, contract.avoided.decision, contract.avoided.option)
    else if (brokeTie) result = breakTie(rec, contract.avoided.decision)
    if (asDefault || brokeTie) effects.push(effectOf(contract.avoided.decision, 'static-default', [instead]))
  }
  // An advisory must_not or limit only warns when a choice is checked; an answer this service gave
  // for the user is checked by nobody, so the warning would never reach anyone. The learned option
  // stays recommended, the decision is listed, and the user is asked.
  {
    const recommended = Array.isArray(result.recommended) ? result.recommended : [result.recommended]
    // An option a required decision fixes is answered whatever an advisory one advises: that
    // advice is overruled, listed as such; an option learned beside it is advised against.
    const fixed = new Set(result.state === 'enforced' ? enforcedOptions(contract, allowed, onlyOne) : [])
    const against = new Map<DecisionRecord, string[]>()
    const overruled = new Map<DecisionRecord, string[]>()
    for (const option of recommended) {
      const by = fixed.has(option) ? overruled : against
      for (const d of contract.advisedAgainst.get(option) ?? []) by.set(d, [...(by.get(d) ?? []), option])
    }
    for (const [d, options] of overruled) effects.push(effectOf(d, 'overruled', options))
    for (const [d, options] of against) effects.push(effectOf(d, 'advised-against', options))
    if (against.size > 0 && result.ask === false) {
      // By key, as the check lists the warnings it would give: each advises on its own, none over another.
      const keys = [...against.keys()].map((d) => d.key).sort(compareKeys)
      const options = [...new Set([...against.values()].flat())].map((o) => JSON.stringify(o)).join(', ')
      const verb = agreeing(keys.length, 'advises', 'advise')
      result = { ...result, ask: true, ask_reason: `advisory ${decisionsNamed(keys)} ${verb} against ${options}: the user chooses` }
    }
  }
  // Required decisions that contradict each other leave no answer the check allows: whatever is
  // recommended, one of them blocks it (R-CON-3), so it is never answered for the user. The newer
  // holds in the recommendation, and the answer names both.
  if (conflicts.length > 0) result = underConflicts(result, conflicts)
  return effects.length === 0 ? result : { ...result, decisions: effects }
}

/**
 * An answer where required decisions contradict each other: whatever it recommends, one of them
 * blocks it when checked (R-CON-3), and so does one of them every other option offered. It is
 * asked, never answered for the user (a reason it was asked for already stays), names them in
 * `conflicts`, and its confidence is 0 (`low`), as where the decisions rule out every option: an
 * enforced answer's 1 `high` would say the decisions settle what they leave no choice to pass.
 */
function underConflicts(result: ContractedRecommendation, conflicts: DecisionConflict[]): ContractedRecommendation {
  const messages = conflicts.map((c) => c.message).join('; ')
  return {
    ...result,
    ...(result.ask ? {} : { ask: true, ask_reason: `${messages}: the user chooses` }),
    confidence: { value: 0, level: 'low', significant: false, method: `${messages}: the check blocks every option offered` },
    conflicts,
  }
}

/**
 * The required decisions whose `must`s name other options than the newest fixable one's, each with
 * those options in their order, each once: at a single-select question, they contradict it (the
 * newest holds). Every one of them: of a decision with three musts, `Tier S`, `Tier M` and `Tier L`,
 * only the second was named, and `Tier L` went unsaid in `conflicts` and in its effect.
 */
function contradictingMusts(contract: PointContract): Map<DecisionRecord, string[]> {
  const must = contract.musts[0]
  const contradicting = new Map<DecisionRecord, string[]>()
  for (const other of contract.musts.slice(1)) {
    if (must === undefined || other.option === must.option) continue
    const options = contradicting.get(other.decision) ?? []
    if (!options.includes(other.option)) contradicting.set(other.decision, [...options, other.option])
  }
  return contradicting
}

/**
 * The required decisions of a contract that contradict each other (R-CON-2), the newer of each pair
 * first, as a recommendation names them; `multiSelect`: `must`s of different options are then
 * chosen together, not in contradiction.
 */
export function contractConflicts(contract: PointContract, multiSelect: boolean): DecisionConflict[] {
  const must = contract.musts[0]
  const pairs = multiSelect || must === undefined ? [] : [...contradictingMusts(contract)].map(([other, options]) => conflictOf(must.decision, other, [must.option, ...options]))
  return [...contract.conflicts, ...pairs]
}

/**
 * Whether the recommendation names this option alone: the option, or at a multi-select point the
 * set of it alone (where the static default is recommended as such a set).
 */
function recommendsOnly(rec: Recommendation, option: string): boolean {
  return Array.isArray(rec.recommended) ? rec.recommended.length === 1 && rec.recommended[0] === option : rec.recommended === option
}

/** Advisory `must`s and `prefer`s by decision, in their order, each decision's options once. */
function softBy(soft: ReadonlyArray<{ option: string; decision: DecisionRecord }>): Map<DecisionRecord, string[]> {
  const by = new Map<DecisionRecord, string[]>()
  for (const { option, decision } of soft) {
    const options = by.get(decision) ?? []
    if (!options.includes(option)) by.set(decision, [...options, option])
  }
  return by
}

/**
 * An answer that would be given for the user (`ask` false) whose option a limit bound to no point
 * breaks (a bare number over it: the check applies such a limit at every point, R-CON-3) is asked
 * instead: the limit leaves the offer as it is, but the service never answers with a choice its
 * own check blocks (required), nor with one it warns of, which nobody would check (advisory).
 */
export function askOverGlobalLimits(
  contracted: ContractedRecommendation,
  limits: readonly DecisionRecord[],
  musts: PointContract['musts'] = [],
): ContractedRecommendation {
  // A required must whose option a required global limit blocks: the two contradict each other,
  // and the answer names them as it names any two bound to the point (R-CON-2).
  const extra = globalLimitConflicts(musts, limits).filter((c) => !(contracted.conflicts ?? []).some((k) => k.message === c.message))
  const answer = extra.length === 0 ? contracted : underConflicts(contracted, [...(contracted.conflicts ?? []), ...extra])
  if (answer.ask) return answer
  const chosen = Array.isArray(answer.recommended) ? answer.recommended : [answer.recommended]
  // A required one first: what the check blocks is said before what it only warns of.
  const ordered = [...limits.filter((d) => d.enforce === 'required'), ...limits.filter((d) => d.enforce !== 'required')]
  for (const d of ordered) {
    for (const c of d.constraints) {
      if (c.kind !== 'limit' || c.value === undefined) continue
      const value = c.value
      const over = chosen.filter((o) => overLimit(o, value, false) !== undefined)
      if (over.length === 0) continue
      const options = over.map((o) => JSON.stringify(o)).join(', ')
      const reason = d.enforce === 'required' ? `required decision ${d.key} blocks` : `advisory decision ${d.key} advises against`
      return { ...answer, ask: true, ask_reason: `${reason} ${options} (over its limit ${value}): the user chooses` }
    }
  }
  return answer
}

/**
 * The required `must`s bound to a point whose option a required limit bound to no point blocks (a
 * bare number over it, as the check reads a choice at any point), each pair once, the newer first
 * (newestFirst). Such a limit takes no option off the offer, so the must's option stays enforced in
 * the recommendation whichever is newer; the check blocks it all the same, and the answer is asked.
 */
export function globalLimitConflicts(musts: PointContract['musts'], limits: readonly DecisionRecord[]): DecisionConflict[] {
  const conflicts: DecisionConflict[] = []
  const seen = new Set<string>()
  for (const m of musts) {
    if (m.decision.enforce !== 'required') continue
    for (const d of limits) {
      if (d.enforce !== 'required' || d === m.decision) continue
      const blocks = d.constraints.some((c) => c.kind === 'limit' && c.value !== undefined && overLimit(m.option, c.value, false) !== undefined)
      if (!blocks) continue
      const conflict = newestFirst(d, m.decision) < 0 ? conflictOf(d, m.decision, [m.option]) : conflictOf(m.decision, d, [m.option])
      if (seen.has(conflict.message)) continue
      seen.add(conflict.message)
      conflicts.push(conflict)
    }
  }
  return conflicts
}

/** The options required decisions fix in an enforced answer: their `must`s, or the one option they leave. */
function enforcedOptions(contract: PointContract, allowed: readonly string[], onlyOne: string | undefined): string[] {
  const musts = contract.musts.map((m) => m.option).filter((o) => allowed.includes(o))
  return musts.length > 0 ? musts : onlyOne === undefined ? [] : [onlyOne]
}

/**
 * The answer where required decisions rule out every option offered (R-CON-2): none of them is
 * recommended, whatever was observed. The options are shown as the agent offered them, none
 * marked; confidence is 0, and the user is asked. `recommended` still names what the memory alone
 * would pick (it is also in `learned`): a field to read, not an answer to give. `deciding` comes by
 * key, as `GET /v1/decisions`, the check's `blocked_by` and the hook's `ruled out by required
 * decisions D-001, D-002` list them. None of them holds over another (each rules out options of
 * its own), so each is named with its own rationale and scope: the newest's rationale alone, said
 * after all their keys, read as the reason of them all.
 */
function recommendNone(rec: Recommendation, offered: readonly OfferedOption[], deciding: DecisionRecord[]): ContractedRecommendation {
  const asWritten = new Map(offered.map((o) => [o.option, o]))
  const byOption = new Map(rec.options.map((o) => [o.option, o]))
  const options = offered.flatMap((o) => {
    const option = byOption.get(o.option)
    return option === undefined ? [] : [asOffered(option, asWritten)]
  })
  const reason = `every option offered is ruled out by required ${decisionsNamed(deciding.map((d) => d.key))}`
  return {
    ...rec,
    options,
    confidence: { value: 0, level: 'low', significant: false, method: reason },
    precondition: `required ${inForce(deciding)}`,
    conditions: { context: [], window: null },
    contradictions: [],
    disclosure: `every option offered is ruled out by required ${eachRationale(deciding)}`,
    strength: 'neutral',
    ask: true,
    ask_reason: `${reason}: none is recommended; the user chooses`,
    learned: { state: rec.state, recommended: rec.recommended, confidence: rec.confidence.value },
  }
}

/** A learned answer whose tie an advisory default broke: the disclosure names the decision. */
function breakTie(rec: Recommendation, decision: DecisionRecord): ContractedRecommendation {
  const disclosure = `${rec.disclosure}, a tie broken by advisory decision ${decision.key}`
  const options = rec.options.map((o) =>
    o.recommended && o.description?.startsWith('Recommended when') === true && o.description.endsWith(rec.disclosure)
      ? { ...o, description: `${o.description.slice(0, -rec.disclosure.length)}${disclosure}` }
      : o,
  )
  return { ...rec, disclosure, options }
}

/**
 * The static default of an advisory decision, with its rationale as the precondition; `against`:
 * the option it advises against, which the static default gave way to this one for.
 */
function advise(rec: Recommendation, decision: DecisionRecord, against?: string): ContractedRecommendation {
  const advice = against === undefined ? '' : ` advises against ${JSON.stringify(against)}`
  const precondition = `${decision.key} (advisory)${advice}: ${decision.rationale}`
  const disclosure = restsOnStaticDefault(rec)
    ? rec.disclosure.replace(STATIC_DEFAULT_BASIS, `based on advisory decision ${decision.key}`)
    : `based on advisory decision ${decision.key}; ${rec.disclosure}`
  const options = rec.options.map((o) =>
    o.recommended && o.description?.startsWith('Recommended when') === true
      ? { ...o, description: `Recommended when ${precondition} — ${disclosure}` }
      : o,
  )
  return { ...rec, precondition, disclosure, options }
}
