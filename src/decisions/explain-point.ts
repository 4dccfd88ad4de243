import { InputError } from '../domain/errors'
import { matchOption, matchInOtherWords, normalizeLabel } from '../domain/labels'
import { shownName, type Observation } from '../domain/observation'
import { STATIC_DEFAULT_BASIS, type RecommendationRequest } from '../domain/recommendation'
import { outOfScope, type ApplicabilityQuery, type OutOfScope } from './applicability'
import type { DecisionRecord, DecisionStatus, EnforceLevel } from './decision'
import type { Decisions, DecisionWhy } from './decisions'
import type { ContractedRecommendation, DecisionEffect } from './enforcement'

/** What `GET /v1/why` asks of a point: whose, where, when, and in which run (R-CON-4). */
export interface PointWhyQuery {
  user: string
  project?: string | undefined
  /** The session asked in: its personalization (then, with as_of) and its session layer (R-SES-3, R-MEM-5). */
  session_id?: string | undefined
  point: string
  as_of?: string | undefined
  task?: string | undefined
  path?: string | undefined
  stage?: string | undefined
}

/** `GET /v1/why` for a point (R-CON-5): what is recommended there, and everything behind it. */
export interface PointWhy {
  user: string
  project: string | null
  session_id: string | null
  point: string
  as_of: string
  /** The run the recommendation was made for (R-CON-4): decisions scoped by what it leaves out do not apply. */
  task: string | null
  path: string | null
  stage: string | null
  recommendation: Pick<
    ContractedRecommendation,
    'state' | 'recommended' | 'confidence' | 'precondition' | 'disclosure' | 'observations' | 'learned' | 'ask' | 'ask_reason' | 'layers' | 'conflicts'
  > | null
  /**
   * Every decision bound to the point, whatever its status, with its supersede chain; in a replay
   * (`as_of`), those that existed then, as they stood then. `unrecorded`: fields a later re-import
   * changed before the service kept what they were, read as they are now.
   */
  decisions: Array<
    Omit<DecisionWhy, 'as_of'> & {
      title: string
      status: DecisionStatus
      enforce: EnforceLevel
      effect: DecisionEffect['effect'] | null
      /**
       * The decision's task, path and stage scope the run is outside of, or does not say (R-CON-4):
       * why it did not apply (its `effect` is then null); empty when its scope holds the run.
       */
      out_of_scope: OutOfScope[]
      unrecorded?: string[]
    }
  >
  /**
   * The observations that support the current recommendation: those of its evidence (the newest
   * 100) that chose what is recommended, newest first.
   */
  observations: Array<Pick<Observation, 'id' | 'timestamp' | 'project' | 'session_id' | 'chosen' | 'other' | 'context'>>
}

/** What the policy says of a point it names: what a recommendation there starts from (R-REC-1, R-REC-5, R-POL). */
export interface PolicyPoint {
  /** The point's static default, if the policy names one (else a question's first option stands). */
  static_default: string | undefined
  /** The precondition a recommendation gives the static default: the point's own, else the policy's general one. */
  precondition: string
  /** N: the observations needed for personalization (R-REC-1). */
  min_observations: number
}

/** Where the recommendation a point's 404 describes is asked for: no point alone makes one, a question does. */
const ASKED_WITH_A_QUESTION =
  'the question and its options, asked of POST /v1/recommendations (or the MCP tool recommend, or why), give the recommendation there'

/**
 * What a recommendation at a point the policy names gives where nothing is held there (n = 0): the
 * option, and its description as the recommended option carries it (`Recommended when <precondition>
 * — <disclosure>`, R-REC-5), so that the words read are the ones a recommendation there says.
 */
function policyPointAnswer(named: PolicyPoint): string {
  const option = named.static_default === undefined ? 'the first option its question offers' : `the policy's static default, ${named.static_default}`
  return `${option}: "Recommended when ${named.precondition} — ${STATIC_DEFAULT_BASIS}, ${named.min_observations} observations needed for personalization"`
}

/**
 * Explains the recommendation at a point: it is recomputed as of `asOf` from the user's own
 * question at the point (the latest one asked) so that it reads nothing it would not read, and
 * every id it cites is a stored observation or decision.
 */
export async function explainPoint(
  deps: {
    observationsAt: (user: string, point: string, asOf?: Date) => Promise<Observation[]>
    recommend: (request: RecommendationRequest) => Promise<ContractedRecommendation>
    decisions: Decisions | undefined
    /** What the policy says of a point it names (R-POL); undefined at a point it does not name. */
    policyPoint?: (point: string) => PolicyPoint | undefined
  },
  query: {
    user: string
    project?: string | undefined
    session_id?: string | undefined
    point: string
    asOf: Date
    /** Whether `asOf` was asked for: the decisions are then read as they stood at it (R-REC-9). */
    replay?: boolean | undefined
    run?: ApplicabilityQuery
  },
): Promise<PointWhy> {
  const { user, point, asOf } = query
  // The run's task, path and stage, as a recommendation's context carries them (R-CON-4).
  const run = Object.fromEntries(
    (['task', 'path', 'stage'] as const).flatMap((k) => (query.run?.[k] === undefined ? [] : [[k, query.run[k]]])),
  ) as Partial<Record<'task' | 'path' | 'stage', string>>
  const replayedAt = query.replay === true ? asOf : undefined
  const [observations, bound] = await Promise.all([
    deps.observationsAt(user, point, asOf),
    (replayedAt === undefined ? deps.decisions?.list({ point }) : deps.decisions?.boundAt(point, replayedAt)) ?? Promise.resolve([]),
  ])
  const latest = observations[observations.length - 1]
  let options = latest?.options ?? []
  const madeUp = options.length === 0
  if (options.length === 0 && bound.length > 0) {
    // No question asked yet: the policy's static default and the options the decisions name are
    // all that is known. The static default first, so that it is what an unenforced answer names,
    // not the option of a decision that does not apply. A must_not names an option not to choose,
    // never one to offer (nor does a limit, whose option is a name for its value): offered, it
    // would be recommended, forbidden as it is, wherever no other option is named. Only a decision
    // accepted (then) names one: a proposal is no decision yet, and the option of one superseded,
    // deprecated or revoked is what the team moved away from; named, it would be recommended with
    // the certainty of a question of one option (a `must` Kafka revoked: Kafka, confidence 1).
    // A decision that does not apply in this run (scoped to a path, task or stage the run is outside
    // of, or does not give) names an option beside others, never alone: alone, the question of its
    // one option would be answered with it, confidence 1, where R-CON-4 excludes the decision.
    const policyDefault = deps.policyPoint?.(point)?.static_default
    const optionsOf = (ds: readonly DecisionRecord[]) =>
      ds.flatMap((d) => d.constraints.flatMap((c) => (c.option === undefined || c.kind === 'must_not' || c.kind === 'limit' ? [] : [normalizeLabel(c.option)])))
    const accepted = bound.filter((d) => d.status === 'accepted')
    const applying = accepted.filter((d) => outOfScope(d, run).length === 0)
    const others = optionsOf(accepted.filter((d) => !applying.includes(d)))
    // The default as a decision names it in other words (`Tier M`, `M`), as the recommendation
    // finds it among the options (matchInOtherWords): one option, not two.
    const asDefault = policyDefault === undefined ? undefined : (matchInOtherWords(policyDefault, [...optionsOf(applying), ...others]) ?? normalizeLabel(policyDefault))
    const known = [...(asDefault === undefined ? [] : [asDefault]), ...optionsOf(applying)]
    // The policy's default alone, no decision naming any option (those bound were superseded,
    // deprecated, revoked, or forbid an option): a question of that one option would be answered
    // with it at confidence 1, `high`, from nothing asked and nothing decided. Nothing is offered.
    const decided = optionsOf(applying).length > 0 || others.length > 0
    const named = known.length === 0 || !decided ? [] : [...known, ...others]
    // Each once, as first named (labels differ in case only as typed).
    const distinct: string[] = []
    for (const o of named) if (matchOption(o, distinct) === undefined) distinct.push(o)
    options = distinct
  }
  if (options.length === 0 && bound.length === 0) {
    // In a replay, what was not known yet then: said so, or an auditor looks for a typo in the point.
    const then = query.replay === true ? ` as of ${asOf.toISOString()}` : ''
    const unknown = `nothing is known of point ${shownName(point)} for user ${shownName(user)}${then}`
    const held = `no observation and no decision at this point${then}`
    // At a point the policy names, what a recommendation there gives is known: asked with a question,
    // the policy's static default with its precondition (R-REC-1, R-REC-5). Unsaid, a new user asking
    // why at the Quick tour's point read that nothing at all was known there.
    const named = deps.policyPoint?.(point)
    const gives = named === undefined ? undefined : policyPointAnswer(named)
    const replayed = query.replay === true
    throw new InputError(
      'point_not_found',
      gives === undefined
        ? unknown
        : `${unknown}: no observation and no decision ${replayed ? 'was held there then' : 'is held there'}, so a recommendation asked there${replayed ? ' as of then' : ''} gives ${gives}`,
      {
        status: 404,
        issues: [{ path: 'point', message: gives === undefined ? held : `${held}; ${ASKED_WITH_A_QUESTION}` }],
      },
    )
  }
  const answer =
    options.length === 0
      ? null
      : await deps.recommend({
          user,
          project: query.project,
          // Read, not started: the recommendation is a replay (as_of), which starts no session.
          session_id: query.session_id,
          point,
          question: latest?.question ?? point,
          header: latest?.header ?? undefined,
          all_options: options,
          // No multi_select: the recommendation reads it as it reads it for any request that says
          // none (the policy's point, else the user's latest own choice, auto-resolved answers
          // passed over), so that the answer explained is the one given, not the latest
          // observation's reading (a choice stored single-select before the policy marked the
          // point multi-select read the set [Lint, Test] as `Lint`).
          context: Object.keys(run).length === 0 ? undefined : run,
          as_of: asOf.toISOString(),
        })
  // A question nobody asked, of one option (an advisory `prefer` of it, or of the policy's default,
  // alone): answered with it at confidence 1, `high`, where any question asked there offers others
  // and the advisory decision, only the static default (R-CON-2), is recommended at chance (1/3 of
  // Tier S, M, L: `low`). Only a required decision fixes an answer whatever the options (`enforced`,
  // confidence 1 by the decision); short of one, nothing is recommended, as for the default alone.
  const recommendation = madeUp && options.length === 1 && answer?.state !== 'enforced' ? null : answer
  const recommended = new Set(
    recommendation === null ? [] : Array.isArray(recommendation.recommended) ? recommendation.recommended : [recommendation.recommended],
  )
  const byId = new Map(observations.map((o) => [o.id, o]))
  const supporting = (recommendation?.evidence ?? [])
    .map((id) => byId.get(id))
    // Each chosen label as the option asked now, in another case too, as the recommendation counts it.
    .filter((o): o is Observation => o !== undefined && o.chosen.some((c) => recommended.has(options.includes(c) ? c : (matchOption(c, options) ?? c))))
  const effects = new Map((recommendation?.decisions ?? []).map((e) => [e.key, e.effect]))
  // Every version of a decision is bound to its point, each with the whole chain: read once for all.
  const asked = { as_of: replayedAt?.toISOString() }
  const whys = deps.decisions === undefined ? [] : await deps.decisions.whyEach(bound.map((d) => d.key), asked)
  const explained = whys.map(({ as_of: _asOf, ...why }, i) => {
    // The point's own `as_of` says the moment; each decision's would repeat it, or say another "now".
    const d = bound[i] as DecisionRecord & { unrecorded?: string[] }
    return {
      ...why,
      title: d.title,
      status: d.status,
      enforce: d.enforce,
      effect: effects.get(d.key) ?? null,
      out_of_scope: outOfScope(d, run),
      ...(d.unrecorded === undefined ? {} : { unrecorded: d.unrecorded }),
    }
  })
  return {
    user,
    project: query.project ?? null,
    session_id: query.session_id ?? null,
    point,
    as_of: asOf.toISOString(),
    task: run.task ?? null,
    path: run.path ?? null,
    stage: run.stage ?? null,
    recommendation:
      recommendation === null
        ? null
        : {
            state: recommendation.state,
            recommended: recommendation.recommended,
            confidence: recommendation.confidence,
            precondition: recommendation.precondition,
            disclosure: recommendation.disclosure,
            observations: recommendation.observations,
            // Whether it was asked or answered for the user (R-ASK-2): what an audit asks first.
            ask: recommendation.ask,
            ask_reason: recommendation.ask_reason,
            // Required decisions that contradict each other, the newer holding: named, both keys.
            ...(recommendation.conflicts === undefined ? {} : { conflicts: recommendation.conflicts }),
            // The layers explain it (R-MEM-5), a possible change of preference with them.
            layers: recommendation.layers,
            ...(recommendation.learned === undefined ? {} : { learned: recommendation.learned }),
          },
    decisions: explained,
    observations: supporting.map((o) => ({
      id: o.id,
      timestamp: o.timestamp,
      project: o.project,
      session_id: o.session_id,
      chosen: o.chosen,
      other: o.other,
      context: o.context,
    })),
  }
}
