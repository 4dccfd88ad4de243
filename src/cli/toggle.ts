import { loadPolicy } from '../config/load-policy'
import { InputError } from '../domain/errors'
import { shownName } from '../domain/observation'
import { configFilePath, envValue, EnvironmentError, identifierFlag, UsageError, parseFlags } from './options'
import type { DecisionMemory } from '../decision-memory'
import { failure, hasFields, type StoreRequest, throughServiceOrLocal, USER_FROM_FLAG_OR_VARIABLE } from './service-client'
import { jsonLine, printable } from '../terminal'

export const TOGGLE_HELP = `decision-memory toggle --session ID [--on | --off | --show] [--user USER] [--data DIR] [--policy FILE] [--json]

  Turns personalization on or off for one session (no flag flips it). New sessions start on.
  --show         print the setting, changing nothing: a session id not seen yet is an error
                 (exit 1), not a session started
  --user USER    whose session (default $DECISION_MEMORY_USER, as the hook's); with neither,
                 the one user who has it, else "default" (a session id not seen yet is started
                 for that user, with the setting asked for, and said so on stderr: is the id right?)
  --json         print the session's record instead of a sentence, with the user's expertise
  --policy FILE  policy file when the store is opened here (default policies/default.json):
                 the one the service runs with, whose expertise bands give that level
  On the store in --data when given, else through the running service at $DECISION_MEMORY_URL,
  else $DECISION_MEMORY_DATA or ./data (\`decision-memory help\` says which store).
`

/** `decision-memory toggle` (R-SES-3). */
export async function toggleCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      session: { type: 'string' },
      on: { type: 'boolean' },
      off: { type: 'boolean' },
      show: { type: 'boolean' },
      user: { type: 'string' },
      data: { type: 'string' },
      json: { type: 'boolean' },
      policy: { type: 'string' },
    },
    strict: true,
  })
  if (values.session === undefined || values.session === '') throw new UsageError('toggle needs --session ID')
  // Checked here, not only by the route: without a service the store takes what it is given. As
  // a read takes it: a session stored under an id spaced at its ends is toggled; a new one is
  // refused by the toggle itself (setPersonalization), said below as a mistake in the flags.
  const sessionId = identifierFlag(values.session, 'session')
  // Whose session: as for the hook that started it, why, preferences and the MCP server, the
  // flag, else $DECISION_MEMORY_USER; with neither, the one user who has it (else "default").
  // With auth, a request without a user acts for "default", which a token of the user's own
  // may not: `toggle --session ID --off` in the shell that runs the agent was refused there.
  const variable = envValue('DECISION_MEMORY_USER')
  const user =
    values.user !== undefined ? identifierFlag(values.user, 'user') : variable === undefined ? undefined : identifierFlag(variable, 'user', 'DECISION_MEMORY_USER')
  if (values.on === true && values.off === true) throw new UsageError('give --on or --off, not both')
  if (values.show === true && (values.on === true || values.off === true)) {
    throw new UsageError(`--show reads the setting, changing nothing: give it without --${values.on === true ? 'on' : 'off'}`)
  }
  const enabled = values.on === true ? true : values.off === true ? false : undefined
  // Checked before anything is written, with a service or without, as preferences checks it.
  if (values.policy !== undefined) {
    values.policy = configFilePath(values.policy)
    await loadPolicy(values.policy)
  }
  const body: Record<string, unknown> = {}
  if (enabled !== undefined) body.enabled = enabled
  if (user !== undefined) body.user = user
  const show = values.show === true
  const read = {
    method: 'GET',
    // The route's own query parameter: whose session it reads.
    path: `/v1/sessions/${encodeURIComponent(sessionId)}/personalization${user === undefined ? '' : `?${new URLSearchParams({ user })}`}`,
    local: (memory: DecisionMemory) => memory.session({ session_id: sessionId, user }),
    // Read before a toggle too (seenBefore), whose command then writes: a read alone with --show.
    writesNothing: show,
    // A toggle makes the store it writes to; --show only shows.
    makesNoStore: show,
    dataDir: values.data,
    policyFile: values.policy,
    expect: hasFields({ session_id: 'string', personalization: 'boolean', user: 'string' }),
  }
  // Whether the session was there before this toggle: read first, since a toggle that finds its
  // session already as asked answers just what the toggle that started it answered.
  const seen = show ? true : await seenBefore(read)
  let answer
  try {
    answer = await throughServiceOrLocal({
      ...(show
        ? read
        : {
            method: 'PUT',
            path: `/v1/sessions/${encodeURIComponent(sessionId)}/personalization`,
            body,
            local: (memory) => memory.setPersonalization({ session_id: sessionId, user, enabled }),
          }),
      dataDir: values.data,
      policyFile: values.policy,
      expect: hasFields({ session_id: 'string', personalization: 'boolean', user: 'string' }),
    })
  } catch (error) {
    if (error instanceof InputError && error.code === 'ambiguous_session') throw new UsageError(printable(whichUser(error)))
    if (error instanceof InputError && error.code === 'session_not_found') return notFound(error.message)
    if (error instanceof InputError) refuseNameOfFlag(error, values.user === undefined)
    if (error instanceof InputError) {
      process.stderr.write(`decision-memory toggle: ${printable(error.message)}\n`)
      return 1
    }
    throw error
  }
  const refused = (answer.body as { error?: { code?: string; message?: string; issues?: Array<{ path?: string; message?: string }> } } | null)?.error
  if (answer.status >= 400 && refused?.code === 'ambiguous_session') {
    throw new UsageError(printable(whichUser({ message: refused.message ?? '', issues: refused.issues ?? [] })))
  }
  if (answer.status === 404 && refused?.code === 'session_not_found') return notFound(refused.message ?? '')
  if (answer.status >= 400 && refused?.code === 'invalid_request') refuseNameOfFlag({ issues: refused.issues ?? [] }, values.user === undefined)
  if (answer.status >= 400) return failure('toggle', answer, USER_FROM_FLAG_OR_VARIABLE)
  const session = answer.body as ToggledSession
  if (values.json === true) process.stdout.write(jsonLine(session))
  else {
    process.stdout.write(describeToggle(session) + '\n')
  }
  // A session id no event had named (mistyped, or a session the agent has not started yet) is
  // started by the toggle, as the route starts it (R-SES-1): done, and said, since a mistyped one
  // turned nothing off and counts among the user's sessions (R-SES-2). A --show started nothing.
  if (!show && (seen === false || (seen === undefined && startedByToggle(session)))) process.stderr.write(`decision-memory toggle: ${newSessionNote(session)}\n`)
  return 0
}

/**
 * Whether the session a toggle names was there before it: true when the read finds it, false when
 * the read says no such session (the toggle then starts it), undefined when the read tells neither
 * (a service of a version without the read, a session id several users have: the toggle says which).
 */
async function seenBefore(read: StoreRequest): Promise<boolean | undefined> {
  try {
    const answer = await throughServiceOrLocal(read)
    if (answer.status < 300) return true
    const code = (answer.body as { error?: { code?: string } } | null)?.error?.code
    return answer.status === 404 && code === 'session_not_found' ? false : undefined
  } catch (error) {
    if (error instanceof InputError && error.code === 'session_not_found') return false
    return undefined
  }
}

/** `--show` of a session id nobody (or not that user) has: said, exit 1; the read started none. */
function notFound(message: string): number {
  process.stderr.write(`decision-memory toggle: ${printable(`${message}: is the id right? (--show starts no session)`)}\n`)
  return 1
}

/** A session as the toggle answers it (the route's `Session`). */
type ToggledSession = { session_id: string; personalization: boolean; user: string; project?: string | null; started_at?: string; toggles?: ReadonlyArray<{ at: string }> }

/**
 * Whether a toggle started this session: one that starts it is its only toggle, made at the moment
 * it starts, in no project (setPersonalization). A session started otherwise (by the agent's events,
 * `POST /v1/sessions`) starts before any toggle of it.
 */
export function startedByToggle(session: ToggledSession): boolean {
  return session.project === null && session.toggles?.length === 1 && session.toggles[0]?.at === session.started_at
}

/** What toggle says of a session it started: no event had named it, so check the id. */
export function newSessionNote(session: ToggledSession): string {
  const user = shownName(session.user)
  return printable(
    `no session ${shownName(session.session_id)} of user ${user} had been seen, so the toggle started it (it counts among ${user}'s sessions): ` +
      'if the id is mistyped, no session of the agent was changed',
  )
}

/**
 * The sentence a toggle prints. The user is the store's when --user is not given, and a user may
 * be named with bidirectional controls: shown escaped, as `why` and `preferences` show names. A
 * session or user stored spaced at its ends is quoted (shownName), as the service's messages do.
 */
export function describeToggle(session: { session_id: string; personalization: boolean; user: string }): string {
  return printable(`personalization ${session.personalization ? 'on' : 'off'} for session ${shownName(session.session_id)} (user ${shownName(session.user)})`)
}

/**
 * A session id or user refused as a new session's (spaced at its ends, or blank): a mistake in the
 * flags, told as one (exit 2, the flag named), or in DECISION_MEMORY_USER when --user was not given.
 * The route names the id `id`, the store opened here `session_id`. Any other refusal is left to the caller.
 */
function refuseNameOfFlag(error: { issues: ReadonlyArray<{ path?: string; message?: string }> }, userFromVariable: boolean): void {
  const session = error.issues.find((i) => i.path === 'id' || i.path === 'session_id')
  if (session !== undefined) throw new UsageError(printable(`--session: ${session.message ?? ''}`))
  const user = error.issues.find((i) => i.path === 'user')
  if (user === undefined) return
  if (userFromVariable) throw new EnvironmentError(printable(`DECISION_MEMORY_USER (the default of --user): ${user.message ?? ''}`))
  throw new UsageError(printable(`--user: ${user.message ?? ''}`))
}

/**
 * A session id several users have: the route names `user`, the field of its body; the command's
 * is the flag --user, said with the users to choose from. A mistake in the flags (exit 2, with the
 * help), as the route's 400 is one in its body: nothing is done, and --user is what mends it.
 */
function whichUser(error: { message: string; issues: ReadonlyArray<{ message?: string }> }): string {
  const users = /name one of: (.*)$/.exec(error.issues[0]?.message ?? '')?.[1]
  return `${error.message}: give --user${users === undefined ? '' : `, one of ${users}`}`
}
