import { EnvironmentError, homePath, identifierFlag, parseFlags, UsageError } from './options'
import { lstatOrNone, recordSetAside, rejectedFile, spoolFile, spoolPathProblem, type SetAsideRecorded } from './spool'
import { printable } from '../terminal'

/** The flag that makes `hook` this command: one a person runs, not Claude Code. */
export const RECORD_SET_ASIDE = '--record-set-aside'

/**
 * `decision-memory hook --record-set-aside --user USER [--spool FILE]`: records the captures the
 * hook set aside because a mistake in its flags left whose choices these are in doubt, by moving
 * them from the spool's .rejected file into the spool as USER's (recordSetAside), for the next
 * hook call to deliver. It reads no payload and sends nothing; being run by a person, it exits as
 * the other commands do: 2 for a usage mistake (USER missing or a name the service refuses), 1 when
 * the files cannot be written.
 */
export async function recordSetAsideCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { 'record-set-aside': { type: 'boolean' }, user: { type: 'string' }, spool: { type: 'string' }, budget: { type: 'string' } },
    strict: true,
  })
  if (values.budget !== undefined) throw new UsageError(`--budget is of no use with ${RECORD_SET_ASIDE}, which sends nothing: the next hook call delivers what it moves`)
  // No default: $DECISION_MEMORY_USER or `default` is what the hook fell back on when it set them aside.
  if (values.user === undefined) throw new UsageError(`${RECORD_SET_ASIDE} needs --user USER: whose choices the captures set aside are`)
  const user = identifierFlag(values.user, 'user', undefined, { written: true })
  const spool = values.spool === undefined ? spoolFile() : homePath(values.spool)
  const problem = spoolPathProblem(spool)
  if (problem !== undefined) {
    if (values.spool === undefined) throw new EnvironmentError(`DECISION_MEMORY_SPOOL is ${problem}; nothing was moved`)
    throw new UsageError(`--spool is ${problem}; nothing was moved`)
  }
  let done: SetAsideRecorded
  try {
    done = await recordSetAside(spool, user)
  } catch (error) {
    // Named only where there is one: a spool that is no file (`--spool /dev/null`) was said to leave
    // what it did not move in `/dev/null.rejected`, which is not there, nothing having been set aside.
    const rejected = rejectedFile(spool)
    const left = lstatOrNone(rejected) === undefined ? 'nothing was moved' : `what was not moved stays set aside in ${rejected}`
    process.stderr.write(printable(`decision-memory hook: ${(error as Error).message}; ${left}`) + '\n')
    return 1
  }
  process.stdout.write(setAsideSentences(done, user, spool))
  return 0
}

/** What `hook --record-set-aside` prints: what it moved, then what it left and why, a line each. */
export function setAsideSentences(done: SetAsideRecorded, user: string, spool: string): string {
  const rejected = rejectedFile(spool)
  const name = JSON.stringify(user)
  const captures = (n: number) => `${n} ${n === 1 ? 'capture' : 'captures'}`
  const lines = [
    done.moved === 0
      ? `no capture set aside for a user in doubt in ${rejected} to record as user ${name}`
      : `moved ${captures(done.moved)} set aside for a user in doubt from ${rejected} to ${spool} as user ${name}: the next hook call delivers ${done.moved === 1 ? 'it' : 'them'}`,
  ]
  for (const { names, count } of done.namingOthers) {
    const them = count === 1 ? 'it' : 'them'
    const whose = names.length === 1 ? `--user ${JSON.stringify(names[0])} if ${count === 1 ? 'it is' : 'they are'} that user's` : `the --user of the one whose choices ${count === 1 ? 'it is' : 'they are'}`
    lines.push(`left ${captures(count)} set aside for a user in doubt whose flags named ${names.map((n) => JSON.stringify(n)).join(' and ')}, not ${name}: record ${them} with ${whose}`)
  }
  if (done.others > 0) {
    const others = done.others === 1 ? '1 other line' : `${done.others} other lines`
    lines.push(`left ${others} in ${rejected}, for a person to read: events the service refused, lines that are no event`)
  }
  return lines.map((line) => printable(line) + '\n').join('')
}
