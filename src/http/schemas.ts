import { z } from '@hono/zod-openapi'
import { IdentifierSchema, ObservationInputSchema, TAKES, TimestampSchema, TrimmedIdentifierSchema } from '../domain/observation'
import { countSaid, wrongTypeSaid } from '../domain/zod-issues'
import { RecommendationRequestSchema } from '../domain/recommendation'
import { LIMITS } from '../domain/limits'
import { nullBodyRefused, nullsLeftOut } from './nulls-left-out'
import { ConfidenceLevelSchema, COUNT_DESCRIPTION, DecisionConflictsSchema, DecisionEffectsSchema, LayersSchema, LearnedSchema, RecommendationStateSchema } from './decision-schemas'

/**
 * Route schemas: the domain's zod schemas, registered for the OpenAPI document, each optional field
 * taking null as left out (nullsLeftOut). The MCP tools read the domain's own, and drop nulls themselves.
 */
export const ObservationInput = nullsLeftOut(ObservationInputSchema).openapi('ObservationInput', {
  example: {
    decision_id: 'moai-ask-001',
    timestamp: '2026-07-01T10:00:00Z',
    question: 'Choose the next step',
    user_choice: 'Option A (Recommended)',
    all_options: ['Option A', 'Option B', 'Option C'],
    context: { spec_id: 'SPEC-XXX-001', phase: 'run', workflow: '/moai run' },
    user: 'alice',
    project: 'acme/api',
    session_id: 's-1',
  },
})

export const ObservationsBody = z
  .union([ObservationInput, z.array(ObservationInput).min(1).max(LIMITS.observationsPerRequest, { error: countSaid('observation', 'observations') })])
  .openapi('ObservationsBody')

export const ObservationsResult = z
  .object({
    stored: z.array(z.object({ id: z.string(), point: z.string(), decision_id: z.string().nullable() })),
    duplicates: z.array(z.string()),
  })
  .openapi('ObservationsResult')

export const RecommendationRequest = nullsLeftOut(RecommendationRequestSchema).openapi('RecommendationRequest', {
  example: {
    user: 'alice',
    project: 'acme/api',
    session_id: 's-2',
    question: 'Which complexity tier should this SPEC use?',
    header: 'Tier',
    all_options: ['Tier S', 'Tier M', 'Tier L'],
    context: { phase: 'run' },
  },
})

export const RecommendationSchema = z
  .object({
    point: z.string(),
    state: RecommendationStateSchema,
    recommended: z.union([z.string(), z.array(z.string())]).openapi({
      description: 'The recommended option; for multi-select points, the set of options with rate >= 0.5.',
    }),
    options: z.array(
      z.object({
        option: z.string(),
        label: z.string(),
        share: z.number(),
        count: z.number().openapi({ description: COUNT_DESCRIPTION }),
        description: z.string().optional(),
        original_description: z.string().optional(),
        rate: z.number().optional().openapi({ description: 'Multi-select only: the decayed rate at which the user selects the option.' }),
        confidence: z.number().optional().openapi({
          description:
            "Multi-select only: the option's factor in the set's confidence, which is their product: the confidence in what is recommended of it, selecting it (P(rate >= 0.5)) or leaving it out (P(rate < 0.5)); where the change test or the context backoff split the evidence, mixed with the same on the evidence before the split, weighed by how sure the split is (as `confidence.method` then says); 1 where a required decision fixes it (R-CON-2), so that the set's confidence is that of the options left to the user.",
        }),
        recommended: z.boolean(),
      }),
    ),
    observations: z.number().int(),
    effective_observations: z.number(),
    needed: z.number().int().openapi({
      description:
        'How many more observations the recommendation needs before it is personalised (thresholds.min_observations less those it counted); 0 once there are enough.',
    }),
    confidence: z.object({
      value: z.number(),
      level: ConfidenceLevelSchema,
      significant: z.boolean(),
      method: z.string(),
      lowered_because: z.string().optional(),
    }),
    precondition: z.string(),
    conditions: z.object({
      context: z.array(z.object({ key: z.string(), value: z.string(), share: z.number() })),
      window: z.object({ from: z.string(), to: z.string() }).nullable(),
    }),
    contradictions: z.array(z.object({ key: z.string(), expected: z.string(), got: z.string() })),
    disclosure: z.string(),
    strength: z.enum(['strong', 'medium', 'weak', 'neutral']),
    expertise: z.object({ sessions: z.number().int(), level: z.enum(['beginner', 'intermediate', 'expert']) }),
    p: z.number(),
    information: z.number(),
    entropy: z.number(),
    ask: z.boolean(),
    ask_reason: z.string(),
    multi_select: z.boolean(),
    sensitive: z.boolean(),
    scope: z.enum(['project', 'all-projects', 'user']),
    context_key: z.string().nullable(),
    context_test: z
      .object({ method: z.string(), key: z.string(), value: z.string(), matching: z.number().int(), others: z.number().int(), p_value: z.number(), level: z.number() })
      .nullable()
      .openapi({ description: "The test by which the choices under the request's context value `key` = `value` (`matching` of them) differ from the `others` beyond chance (R-REC-7): `p_value` below `level`. Null when no context value made a difference, and all the observations count." }),
    change_test: z
      .object({ method: z.string(), since: z.string(), recent: z.number().int(), older: z.number().int(), p_value: z.number(), level: z.number() })
      .nullable()
      .openapi({ description: 'The test by which the `recent` choices (since `since`) differ from the `older` ones (a change of preference): `p_value` below `level`, and the recent ones decide. Null when none was found.' }),
    layers: LayersSchema,
    evidence: z.array(z.string()),
    evidence_total: z.number().int(),
    as_of: z.string(),
    decisions: DecisionEffectsSchema.optional().openapi({ description: 'What the decisions bound to the point did (R-CON-2).' }),
    conflicts: DecisionConflictsSchema.optional(),
    learned: LearnedSchema.optional().openapi({ description: 'What observed choices alone recommended, when a decision fixed the answer or ruled out every option offered.' }),
  })
  .openapi('Recommendation')

// Strict bodies (R-SVC-2): a field they do not have is refused, named, rather than dropped.
export const SessionRequest = nullsLeftOut(
  z.strictObject({
    user: TrimmedIdentifierSchema.default('default'),
    project: TrimmedIdentifierSchema.optional(),
    session_id: TrimmedIdentifierSchema.optional(),
    started_at: TimestampSchema.optional(),
  }),
)
  // The body /docs fills in: without one, Swagger UI makes a `started_at` up from its pattern, a
  // year 0153 or a month 51, which the service refuses.
  .openapi('SessionRequest', { example: { user: 'alice', project: 'acme/api', session_id: 's-1' } })

export const SessionSchema = z
  .object({
    session_id: z.string(),
    user: z.string(),
    project: z.string().nullable(),
    started_at: z.string(),
    personalization: z.boolean(),
    toggles: z
      .array(z.object({ at: z.string(), enabled: z.boolean() }))
      .optional()
      .openapi({ description: 'Each toggle of personalization, oldest first, with its moment (what an as_of replay reads); absent when never toggled.' }),
    expertise: z.object({ sessions: z.number().int(), level: z.enum(['beginner', 'intermediate', 'expert']) }),
  })
  .openapi('Session')

/**
 * Strict: a misspelt `enable` dropped would flip the setting, which an absent `enabled` does. So
 * would an `enabled: null` read as left out, as other null fields are: it is refused, saying so;
 * and so is a whole body of null, which the routes read as none elsewhere (nullBodyRefused).
 */
export const PersonalizationRequest = nullBodyRefused(
  nullsLeftOut(
    z.strictObject(
      {
        enabled: z
          .boolean({ error: wrongTypeSaid(TAKES.flag, 'leave enabled out to flip the setting') })
          .optional()
          .openapi({ description: 'Omit to flip the current setting; null is refused, since it would flip it too.' }),
        // Read as reads take it: a session stored before under a user spaced at its ends is toggled (a new one is refused).
        user: IdentifierSchema.optional().openapi({ description: 'Needed only when several users share the session id. No spaces or invisible characters (U+200B, U+2060, …) at its ends, unless its session is stored so.' }),
      },
      { error: wrongTypeSaid('an object', 'leave the body out to flip the setting') },
    ),
    ['enabled'],
  ).openapi('PersonalizationRequest', { description: 'A body of null is refused too: leave the body out to flip the setting.' }),
)

/** Whose session a read asks for (`GET /v1/sessions/{id}/personalization`). */
export const SessionQuery = z.object({
  user: IdentifierSchema.optional().openapi({
    description: 'Whose session; without it, the one user who has a session of this id (with auth on, `default`). Needed when several users have one.',
  }),
})

export const SessionIdParam = z.object({
  // A toggle of a session not seen yet starts it: one spaced (or invisible) at its ends, or blank, would be
  // another session than the agent's, and is refused then (setPersonalization); one stored so before is toggled.
  id: IdentifierSchema.openapi({
    param: { name: 'id', in: 'path' },
    example: 's-1',
    description:
      'No spaces or invisible characters (U+200B, U+2060, …) at its ends, nor those alone, unless a session is stored so. No control characters or lone surrogates, not starting with "!", not "." or "..".',
  }),
})
