import { z } from './zod'
import { LIMITS } from './limits'

/** User, project, point and session names: printable, no control characters (they become store keys). */
export const IdentifierSchema = z
  .string()
  .min(1)
  .max(LIMITS.identifierLength)
  .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')

export const LabelSchema = z.string().trim().min(1).max(LIMITS.labelLength)

/** An option as sent: a label, or `{label, description}` as AskUserQuestion has it. */
export const OptionInputSchema = z.union([
  LabelSchema,
  z.object({
    label: LabelSchema,
    description: z.string().max(LIMITS.descriptionLength).optional(),
  }),
])
export type OptionInput = z.infer<typeof OptionInputSchema>

export const OptionsSchema = z.array(OptionInputSchema).min(1).max(LIMITS.options)

/** Context of a choice: flat key → scalar, e.g. `{phase: "run", workflow: "/moai run"}`. */
export const ContextSchema = z
  .record(
    z.string().min(1).max(100),
    z.union([z.string().max(LIMITS.contextValueLength), z.number(), z.boolean(), z.null()]),
  )
  .refine((c) => Object.keys(c).length <= LIMITS.contextKeys, {
    message: `at most ${LIMITS.contextKeys} keys`,
  })
export type Context = z.infer<typeof ContextSchema>

/** An ISO 8601 time with a zone, e.g. `2026-07-01T10:00:00Z`. */
export const TimestampSchema = z.iso.datetime({ offset: true })

/** The wire format of one observation (R-CAP-1): the seed's record plus identity fields. */
export const ObservationInputSchema = z.object({
  decision_id: z.string().min(1).max(LIMITS.identifierLength).optional(),
  timestamp: TimestampSchema.optional(),
  question: z.string().trim().min(1).max(LIMITS.questionLength),
  user_choice: z.union([LabelSchema, z.array(LabelSchema).min(1).max(LIMITS.options)]),
  all_options: OptionsSchema,
  context: ContextSchema.optional(),
  user: IdentifierSchema.default('default'),
  project: IdentifierSchema.optional(),
  session_id: IdentifierSchema.optional(),
  point: IdentifierSchema.optional(),
  header: z.string().max(LIMITS.labelLength).optional(),
  multi_select: z.boolean().optional(),
  /** `user` for a choice the user made; `auto-resolved` for an answer this service gave itself (R-ASK-4). */
  source: z.enum(['user', 'auto-resolved']).default('user'),
})
export type ObservationInput = z.infer<typeof ObservationInputSchema>

/** One stored observation: what was asked, what was chosen, where and when. */
export interface Observation {
  id: string
  user: string
  project: string | null
  session_id: string | null
  point: string
  decision_id: string | null
  /** When the choice was made (ISO, UTC). */
  timestamp: string
  /** When the service stored it (ISO, UTC). */
  recorded_at: string
  question: string
  header: string | null
  /** Normalised option labels, in the order offered. */
  options: string[]
  /** Normalised labels of the chosen options (one for single-select). */
  chosen: string[]
  /** Free text that matched no option (R-CAP-3), else null. */
  other: string | null
  multi_select: boolean
  context: Record<string, string | number | boolean | null>
  source: 'user' | 'auto-resolved'
}

/** The label of an option as sent. */
export function optionLabel(option: OptionInput): string {
  return typeof option === 'string' ? option : option.label
}

/** The description of an option as sent, if any. */
export function optionDescription(option: OptionInput): string | undefined {
  return typeof option === 'string' ? undefined : option.description
}
