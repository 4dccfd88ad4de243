import { createRoute, z } from '@hono/zod-openapi'
import type { DecisionMemory } from '../decision-memory'
import { QueryTimestampSchema, TrimmedIdentifierSchema } from '../domain/observation'
import { ClaudeCodeHookPayloadSchema, handleClaudeCodeHook } from '../integrations/claude-code'
import { InputError } from '../domain/errors'
import { authorizeUsers } from './auth'
import { ErrorSchema } from './errors'
import { createRouter } from './router'

const HookQuery = z.object({
  // The hook writes under it: ` alice ` would be another user than `alice` (README, Limits).
  user: TrimmedIdentifierSchema.default('default').openapi({
    param: { name: 'user', in: 'query' },
    description: 'Whose choices these are (Claude Code does not say).',
  }),
  at: QueryTimestampSchema.optional().openapi({
    param: { name: 'at', in: 'query' },
    description: 'When the event happened, for a payload delivered late from the hook spool (a PostToolUse or SessionStart; refused with a PreToolUse, planned now); default now.',
  }),
  project: z.string().min(1).max(4096).optional().openapi({
    param: { name: 'project', in: 'query' },
    description:
      'The project of the event, as the payload’s `cwd` would give it: `decision-memory hook` sends the root of the ' +
      'git repository the cwd is in, so that a session that moved to a subfolder stays in its project; default the project of ' +
      'the event’s session where the `cwd` is the folder it was started in or below it (or is none), a root (`/`, `C:\\`) holding none, else the `cwd`.',
  }),
  path: z.string().min(1).max(4096).optional().openapi({
    param: { name: 'path', in: 'query' },
    description:
      'Where the event’s `cwd` is in its checkout (`services/billing`, `.` at its root), the `path` questions are planned ' +
      'with (R-CON-4): `decision-memory hook` sends it with a PreToolUse, as the project of a git worktree is its ' +
      'repository’s main working tree, not the folder the cwd is in; default the `cwd` relative to `?project=`.',
  }),
  // Only http and https: a `file:` or `urn:` URL is a URL, but no address of the service. The
  // document says so by a pattern (zod's `protocol` is not in the JSON Schema it makes, which then
  // said `format: uri` alone, and a client validating by it sent what was refused "Invalid URL").
  // Its length said as every limit is (boundSaid): zod gives these words, typed for the URL's own
  // issues, to its max too, and said an http URL over 2,048 characters was none.
  service_url: z.url({ protocol: /^https?$/, error: (issue) => (issue.code === 'invalid_format' || issue.code === 'invalid_type' ? 'an http:// or https:// URL' : undefined) }).max(2048).optional().openapi({
    param: { name: 'service_url', in: 'query' },
    pattern: '^[ \\t\\n\\r]*[Hh][Tt][Tt][Pp][Ss]?:',
    description:
      'The service’s address as the sender reaches it (an `http://` or `https://` URL): `decision-memory hook` sends its `DECISION_MEMORY_URL` when that ' +
      'is not the default `http://127.0.0.1:7420`, and the command the PreToolUse answer prints to turn personalization ' +
      'off then sets it, so that it runs as printed in a new shell.',
  }),
  wait_ms: z
    .string()
    .regex(/^\d{1,5}$/, 'a whole number of milliseconds, at most 5 digits (1200)')
    .optional()
    .openapi({
      param: { name: 'wait_ms', in: 'query' },
      description:
        'How long the sender waits for the answer to a PreToolUse, in ms from when the service gets it: `decision-memory hook` sends what its ' +
        '`--budget` leaves it, less a margin for the answer\u2019s way back. A PreToolUse planned past it answers `{}` with `X-Decision-Memory-Late` and records none of the ' +
        'answers it would have given: the hook has let the question through as the agent wrote it, and what the user answers is theirs.',
    }),
})

/**
 * Sent with the `{}` of a PreToolUse planned past `?wait_ms=`: the ms the service took, from when it
 * got the request, on its clock. `decision-memory hook` reads it to tell the user why nothing was
 * answered for them (`--budget`), where a `{}` alone says there was nothing to change.
 */
export const LATE_HEADER = 'X-Decision-Memory-Late'
/**
 * Sent with every hook answer: `decision-memory hook` takes an object with it for the service's
 * answer whatever its fields, and one without it (a mock's catch-all) by its fields.
 */
export const ANSWER_HEADER = 'X-Decision-Memory-Hook-Answer'

const HookAnswerSchema = z
  .object({
    systemMessage: z.string().optional().openapi({
      description:
        'Shown to the user when any question was answered for them (Claude Code 2.1.332 keeps an `allow`\'s reason to its debug log, and shows an `ask`\'s at most on its picker\'s review screen, which a single single-select question skips): what was answered, and how to be asked again. ' +
        'At PreToolUse, when a question of the call could not be planned (its options refused) and no other was changed, with no permission decision: each such question, and why, the call going on as written. ' +
        'At PostToolUse, when a question could not be taken (its options refused: two that are one label, a label over the limit or blank, too many; or its answer no choice: a number, an object, two labels for one choice), the call\'s other answers recorded: each such question, and why, its fields named as the payload has them.',
    }),
    hookSpecificOutput: z
      .object({
        hookEventName: z.literal('PreToolUse'),
        permissionDecision: z.enum(['allow', 'ask']),
        permissionDecisionReason: z.string(),
        updatedInput: z.record(z.string(), z.unknown()),
        additionalContext: z.string().optional(),
      })
      .optional(),
  })
  .openapi('ClaudeCodeHookAnswer', { description: 'What the command hook prints; `{}` changes nothing.' })

const route = createRoute({
  method: 'post',
  path: '/v1/hooks/claude-code',
  operationId: 'answerClaudeCodeHook',
  tags: ['hooks'],
  summary: 'Answer a Claude Code hook event (R-CAP-5, R-ASK-4)',
  description:
    'Takes the raw JSON Claude Code sends to a command hook. PostToolUse on AskUserQuestion records every answered ' +
    'question (idempotent by tool_use_id), a question whose options are refused skipped and said in `systemMessage` ' +
    '(400 only when no answer of the call can be recorded); PreToolUse on AskUserQuestion answers with re-ordered, labelled questions ' +
    'and the answers it may give for the user; SessionStart starts the session. Anything else answers `{}`.',
  request: {
    query: HookQuery,
    body: {
      required: true,
      content: { 'application/json': { schema: ClaudeCodeHookPayloadSchema.openapi('ClaudeCodeHookPayload') } },
    },
  },
  responses: {
    200: {
      description: 'What the hook should print',
      headers: {
        [ANSWER_HEADER]: {
          description:
            "Always `1`: this is decision-memory's answer. `decision-memory hook` takes a JSON object sent with it for the service's answer whatever " +
            'fields it holds (printing those of a command hook alone); one without it, only when it is `{}` or holds a field of a command hook\'s output.',
          schema: { type: 'string', enum: ['1'] },
          required: true,
        },
        [LATE_HEADER]: {
          description:
            'Sent with the `{}` of a PreToolUse planned past `?wait_ms=` (none of its answers recorded): the ms the service took, from when it ' +
            'got the request. A `{}` without it changes nothing; `decision-memory hook` prints neither, and says on stderr that it was too late for its `--budget`.',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
      },
      content: { 'application/json': { schema: HookAnswerSchema } },
    },
    400: { description: 'Invalid payload', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

export function hookRoutes(memory: DecisionMemory) {
  return createRouter().openapi(route, async (c) => {
    // Measured from here: the sender's clock may not be the service's.
    const arrived = memory.clock.now().getTime()
    const { user, at, project, path, service_url: serviceUrl, wait_ms: waitMs } = c.req.valid('query')
    // The hook acts for `?user=`, `default` when absent: a token must name that user (R-SVC-4).
    authorizeUsers(c, [user])
    const answerBy = waitMs === undefined ? undefined : arrived + Number(waitMs)
    const payload = c.req.valid('json')
    // A PreToolUse is planned now, for the agent waiting on it, and never spooled to be sent late:
    // with `at`, its answers given for the user were stamped then and planned on the history of now.
    if (at !== undefined && (payload as { hook_event_name?: unknown }).hook_event_name === 'PreToolUse') {
      throw new InputError('invalid_request', 'invalid request: at (a PreToolUse is planned now, for the agent waiting on it: at is for a capture sent late)', {
        issues: [{ path: 'at', message: 'not taken with a PreToolUse: leave it out' }],
      })
    }
    const { answer, late } = await handleClaudeCodeHook(memory, payload, { user, at, project, path, serviceUrl, answerBy })
    // The body stays `{}`, which the hook prints as nothing, as Claude Code expects: the header alone
    // tells the hook it was too late, not that there was nothing to change, so it can say so.
    if (late === true) c.header(LATE_HEADER, String(memory.clock.now().getTime() - arrived))
    c.header(ANSWER_HEADER, '1')
    return c.json(answer, 200)
  })
}
