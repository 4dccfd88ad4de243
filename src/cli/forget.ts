import { EnvironmentError, homePath, UsageError, userFlag, parseFlags } from './options'
import { failure, hasFields, throughServiceOrLocal } from './service-client'
import { shownName } from '../domain/observation'
import { jsonLine, printable } from '../terminal'
import { forgetInSpool, rejectedFile, setAsideNamingNoOne, spoolFile, spoolPathProblem } from './spool'

export const FORGET_HELP = `decision-memory forget --user USER --yes [--json] [--data DIR] [--spool FILE]

  Deletes everything held about USER: observations, sessions, every index and aggregate, and
  the hook events of USER waiting in this machine's spool ($DECISION_MEMORY_SPOOL) or set aside
  in its .rejected file, a capture set aside there with its user in doubt included when the hook's
  flags named USER (--usr USER); one whose flags named no user (--user with no value) is left,
  and said on stderr. It cannot be undone (export first); --yes says you mean it. On the store
  in --data when given, else through the running service, else $DECISION_MEMORY_DATA or ./data
  (\`decision-memory help\` says which store, and when a command refuses). Prints
  \`forgot USER: N entries deleted, M spooled hook events removed\` (the spool left out when
  none of its events was USER's). The spool's events of USER are removed even when the store
  cannot be (no service and no store: exit 1), and stderr says how many, and the captures in
  doubt it left. A .rejected file another process holds as it runs (a hook --record-set-aside) is
  said on stderr: run forget again once that is done. A spool it cannot take them all out of (a
  spool it cannot write back to) is said on stderr with how many it removed before: exit 1.

  --user USER  whose data (required)
  --yes        required: without it, nothing is deleted (exit 2)
  --json       print {"user", "deleted", "spooled"} as one JSON line instead of the sentence
  --data DIR   the store to forget USER in (default: the running service's, else
               $DECISION_MEMORY_DATA or ./data)
  --spool FILE the spool to take USER's hook events out of, for a hook run with --spool FILE
               (default $DECISION_MEMORY_SPOOL or ~/.decision-memory/spool.ndjson); a folder,
               or a path under a file, is refused, before anything is deleted
`

/** `decision-memory forget` (R-SVC-5). */
export async function forgetCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { user: { type: 'string' }, yes: { type: 'boolean' }, json: { type: 'boolean' }, data: { type: 'string' }, spool: { type: 'string' } },
    strict: true,
  })
  const user = userFlag(values.user, 'forget')
  if (values.yes !== true) throw new UsageError(printable(`forget deletes everything held about ${shownName(user)} for good: add --yes`))
  const spool = values.spool === undefined ? spoolFile() : homePath(values.spool)
  // Before anything is deleted: a folder (`--spool ~/.decision-memory`, where the spool is) holds
  // no spool to take the user's events out of, and the forget said it was done while the spool
  // beside it kept them, for the next hook to deliver again.
  const named = values.spool === undefined ? 'DECISION_MEMORY_SPOOL' : '--spool'
  const refuse = (message: string) => (values.spool === undefined ? new EnvironmentError(message) : new UsageError(message))
  const problem = spoolPathProblem(spool)
  if (problem !== undefined) throw refuse(`${named} is ${problem}; nothing was deleted`)
  let answer
  try {
    answer = await throughServiceOrLocal({
      method: 'DELETE',
      path: `/v1/users/${encodeURIComponent(user)}`,
      dataDir: values.data,
      timeoutMs: 600_000,
      expect: hasFields({ user: 'string', deleted: 'number' }),
      local: (memory) => memory.forgetUser(user),
      // Nothing is held about anyone where there is no store: one made on a mistyped --data said
      // `forgot bob: 0 entries deleted`, exit 0, bob kept in the store meant.
      makesNoStore: true,
    })
  } catch (error) {
    await forgetInSpoolAfterFailure(spool, user)
    throw error
  }
  if (answer.status >= 400) {
    await forgetInSpoolAfterFailure(spool, user)
    return failure('forget', answer)
  }
  // After the store: an event a hook delivered before this was forgotten with the store, one still
  // waiting is removed here. A drain already under way in another hook puts back what it could not
  // deliver; those events are that hook's (README).
  // The hook's own spool when it was run with --spool: else its events, delivered later, would
  // bring back some of what was just forgotten.
  let held: number[] = []
  let spooled = 0
  try {
    await forgetInSpool(spool, user, (pids) => (held = pids), (removed) => (spooled = removed))
  } catch (error) {
    // The store's part is done: thrown, the error left it unsaid (a stack trace), and the events
    // removed before the spool failed uncounted.
    const { deleted } = answer.body as { deleted: number }
    const entries = `${deleted} ${deleted === 1 ? 'entry' : 'entries'} deleted`
    process.stderr.write(
      printable(`decision-memory forget: forgot ${shownName(user)} in the store (${entries}), but ${spoolFailure(spool, user, spooled, error)}; forget again once it is mended`) + '\n',
    )
    await sayLeftInSpool(spool, user, held)
    return 1
  }
  const result = { ...(answer.body as { user: string; deleted: number }), spooled }
  if (values.json === true) process.stdout.write(jsonLine(result))
  else process.stdout.write(forgetSentence(result))
  await sayLeftInSpool(spool, user, held)
  return 0
}

/**
 * The user's events taken out of this machine's spool when the store's part failed (no service
 * and no store, a service that refused or did not answer): the spool is this machine's, reached
 * whatever else is not, and its events would otherwise be delivered again by the next hook, to a
 * store the user is then forgotten in. Said on stderr, before the failure's own line, and so are
 * the captures set aside with their user in doubt it left, as a forget that succeeds says them; a
 * spool it cannot take them out of is said too, and leaves that line to be printed.
 */
async function forgetInSpoolAfterFailure(spool: string, user: string): Promise<void> {
  let spooled = 0
  let held: number[] = []
  try {
    await forgetInSpool(spool, user, (pids) => (held = pids), (removed) => (spooled = removed))
  } catch (error) {
    // Partway, the events removed before it failed are counted below all the same: said as none
    // removed, a person would look for them still in the spool.
    process.stderr.write(printable(`decision-memory forget: ${spoolFailure(spool, user, spooled, error)}`) + '\n')
  }
  if (spooled > 0) {
    process.stderr.write(printable(`decision-memory forget: ${spooledEvents(spooled)} of ${shownName(user)} removed from ${spool}, but the store's part failed (below): forget again once it is mended`) + '\n')
  }
  // Said here too: run again once the store is mended, the forget leaves them as well, and a person
  // told only of the failure would not know they are there to look at.
  await sayLeftInSpool(spool, user, held)
}

/** `1 spooled hook event`, `2 spooled hook events`. */
function spooledEvents(count: number): string {
  return `${count} spooled hook ${count === 1 ? 'event' : 'events'}`
}

/**
 * Why the user's events could not be taken out of the spool (forgetInSpool threw), `removed` of
 * them taken out before: `cannot take all of bob's events out of the spool FILE (2 removed before
 * it failed): …`, or, none removed, `cannot take bob's events out of …`.
 */
function spoolFailure(spool: string, user: string, removed: number, error: unknown): string {
  const before = removed > 0 ? ` (${removed} removed before it failed)` : ''
  return `cannot take ${removed > 0 ? 'all of ' : ''}${shownName(user)}'s events out of the spool ${spool}${before}: ${(error as Error).message}`
}

/**
 * Says on stderr what the forget left beside the spool that may be the user's: the captures set
 * aside with their user in doubt whose flags named no user (unnamedSetAsideSentence), and those
 * another process held as it ran (heldSetAsideSentence; `held`, their pids).
 */
async function sayLeftInSpool(spool: string, user: string, held: readonly number[]): Promise<void> {
  const unnamed = await setAsideNamingNoOne(spool)
  if (unnamed > 0) process.stderr.write(unnamedSetAsideSentence(unnamed, user, spool))
  if (held.length > 0) process.stderr.write(heldSetAsideSentence(held, user, spool))
}

/**
 * What `forget` prints without --json: `forgot bob: 5 entries deleted, 1 spooled hook event removed`.
 * The user as the service's messages show a name (shownName): `forgot " bob ": …`, one stored
 * spaced at its ends before writes refused it, is not read as `bob`; escaped for a terminal.
 */
export function forgetSentence(result: { user: string; deleted: number; spooled: number }): string {
  const entries = `${result.deleted} ${result.deleted === 1 ? 'entry' : 'entries'} deleted`
  const spooled = result.spooled === 0 ? '' : `, ${result.spooled} spooled hook ${result.spooled === 1 ? 'event' : 'events'} removed`
  return printable(`forgot ${shownName(result.user)}: ${entries}${spooled}`) + '\n'
}

/**
 * What `forget` says on stderr of the captures set aside with their user in doubt whose flags
 * named no user (`--user` with no value), which it left: they may be the user's, and nothing in
 * them tells whose they are.
 */
export function unnamedSetAsideSentence(count: number, user: string, spool: string): string {
  const one = count === 1
  return (
    printable(
      `decision-memory forget: ${one ? '1 capture' : `${count} captures`} set aside in ${rejectedFile(spool)} with ${one ? 'its' : 'their'} user in doubt ${one ? 'is' : 'are'} left, ` +
        `the hook's flags having named no user (--user with no value, or a name the service refuses): if ${one ? 'it is' : 'they are'} ${shownName(user)}'s, delete ${one ? 'its line' : 'their lines'} there`,
    ) + '\n'
  )
}

/**
 * What `forget` says on stderr of the .rejected file held by other processes at work on it as it
 * ran (`pids`: a `hook --record-set-aside` moving its captures, another forget): it cannot take
 * their lines from them, and they go back there, or into the spool, once those are done. Any of
 * the user's among them would otherwise be left unsaid (R-SVC-5), moved ones for the next hook to
 * deliver: run again, the forget finds them.
 */
export function heldSetAsideSentence(pids: readonly number[], user: string, spool: string): string {
  const one = pids.length === 1
  const who = one ? `another process (pid ${pids[0]}, a hook --record-set-aside or another forget)` : `other processes (pids ${pids.join(', ')}, each a hook --record-set-aside or another forget)`
  return (
    printable(
      `decision-memory forget: ${who} held captures set aside in ${rejectedFile(spool)} as this ran, which this could not take: any of ${shownName(user)}'s among them are left, ` +
        `set aside there or moved into ${spool} for the next hook to deliver; run this forget again once ${one ? 'it is' : 'they are'} done`,
    ) + '\n'
  )
}
