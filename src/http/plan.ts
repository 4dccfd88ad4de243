import { createRoute, z } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import { AskUserQuestionSchema, OtherKindQuestionSchema, PlanRequestSchema } from '../domain/question-plan'
import { planQuestionsToAsk } from '../plan-questions'
import { authorizeUsers } from './auth'
import { refuseOtherQueryUser } from './query-user'
import { ErrorSchema } from './errors'
import { nullsLeftOut } from './nulls-left-out'
import { createRouter } from './router'
import { RecommendationSchema } from './schemas'

const AskUserQuestionDoc = AskUserQuestionSchema.openapi('AskUserQuestion', {
  description: "One question object of Claude Code's AskUserQuestion tool; unknown fields are kept.",
})

const OtherKindQuestionDoc = OtherKindQuestionSchema.openapi('OtherKindQuestion', {
  description: 'A question of AskUserQuestion that asks for no choice (text, a number, or a kind AskUserQuestion adds), with no options; returned as written. Unknown fields are kept.',
})

export const PlanRequest = nullsLeftOut(PlanRequestSchema).openapi('PlanRequest', {
  example: {
    user: 'alice',
    project: 'acme/api',
    session_id: 's-2',
    questions: [
      {
        question: 'Which complexity tier should this SPEC use?',
        header: 'Tier',
        options: [
          { label: 'Tier S', description: 'Small: single pass' },
          { label: 'Tier M', description: 'Medium: plan, run, sync' },
          { label: 'Tier L', description: 'Large: full plan with design review' },
        ],
        multiSelect: false,
      },
    ],
  },
})

export const QuestionPlanSchema = z
  .object({
    questions: z.array(
      z.union([
        z.object({
          ask_user_question: AskUserQuestionDoc,
          recommendation: RecommendationSchema,
          ask: z.boolean(),
          answer: z.string().nullable().openapi({ description: 'The label(s) answered for the user when `ask` is false.' }),
        }),
        z
          .object({
            ask_user_question: OtherKindQuestionDoc,
            kind: z.string(),
            recommendation: z.null(),
            ask: z.literal(true),
            answer: z.null(),
            ask_reason: z.string(),
          })
          .openapi({ description: 'A question asking for no choice (text, a number, another kind): as written, in its place as sent, nothing recommended, always asked.' }),
      ]),
    ),
    answers: z.record(z.string(), z.string()).openapi({ description: 'Auto-resolved answers keyed by question text.' }),
    ask_user_question_input: z
      .object({ questions: z.array(z.union([AskUserQuestionDoc, OtherKindQuestionDoc])) })
      .nullable()
      .openapi({ description: 'The exact input for AskUserQuestion (at most 4 questions), or null when nothing is left to ask.' }),
    deferred: z.array(z.string()).openapi({ description: 'Questions still to ask beyond the four of one AskUserQuestion call.' }),
  })
  .openapi('QuestionPlan')

const route = createRoute({
  method: 'post',
  path: '/v1/plan',
  operationId: 'planQuestions',
  tags: ['recommendations'],
  summary: 'Plan the questions an agent is about to ask (R-ASK-3)',
  description:
    'Orders AskUserQuestion questions by information p(1 − p), highest first, applies each recommendation to its options ' +
    '(order and labels by strength), answers the ones R-ASK-2 lets auto-resolve, and returns `ask_user_question_input`. ' +
    'A question of another kind than a choice (`kind` `text`, `number`, or one AskUserQuestion adds) keeps its place as sent, as written and asked. ' +
    'A question keyed by its text and options whose options a required decision took out is remembered for the user by the point its options shown key it to, ' +
    'so that the PreToolUse hook plans it, and records its answer, at the point it was planned at.',
  request: { body: { required: true, content: { 'application/json': { schema: PlanRequest } } } },
  responses: {
    200: { description: 'The plan', content: { 'application/json': { schema: QuestionPlanSchema } } },
    400: { description: 'Invalid body', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

export function planRoutes(memory: DecisionMemory) {
  return createRouter({ queryUser: true }).openapi(route, async (c) => {
    const request = c.req.valid('json')
    refuseOtherQueryUser(c, [request.user], 'body')
    authorizeUsers(c, [request.user])
    return c.json(await planQuestionsToAsk(memory, request), 200)
  })
}
