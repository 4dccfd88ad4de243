import { loadPolicy } from '../config/load-policy'
import type { PointPreference } from '../domain/learned-preferences'
import { InputError } from '../domain/errors'
import { shownPercent } from '../domain/recommendation'
import { shownName } from '../domain/observation'
import { agentUser, identifierFlag, parseFlags, configFilePath, timestampFlag, momentAheadLocally, UsageError } from './options'
import { failure, hasFields, throughServiceOrLocal, USER_FROM_FLAG_OR_VARIABLE } from './service-client'
import { jsonLine, printable } from '../terminal'

export const PREFERENCES_HELP = `decision-memory preferences [--user USER] [--as-of ISO] [--json] [--data DIR] [--policy FILE]

  What has been learned about USER at each decision point, one line a point:
  POINT: MAJORITY SHARE%, confidence LEVEL (VALUE), N observations [every option's count], with
  \`(K more needed for personalization)\` while there are too few for a recommendation to be
  personalised (it is the static default until then), \`since DATE\` when the recent choices
  differ from the earlier ones (a multi-select point names the options chosen at least half the
  time, and each one's rate; a point keyed by a hash of its question, q-…, is named by the
  question last asked there: "QUESTION" (q-…)); \`nothing learned about USER yet\` when there
  is nothing. On the store in --data when given, else through the
  running service, else $DECISION_MEMORY_DATA or ./data (\`decision-memory help\` says which
  store).

  --user USER    whose preferences (default $DECISION_MEMORY_USER, as the hook's, or "default")
  --as-of ISO    what had been learned then (R-REC-9): the choices dated up to ISO, aged from
                 it, after a line \`USER as of ISO\`; an answer that does not say it is as of
                 then (a service of an older version, which answers as of now: restart it
                 after an upgrade) is not printed, even with --json: exit 1
  --json         print the answer of GET /v1/users/USER/preferences as one JSON line
  --data DIR     the store to read (default: the running service's, else $DECISION_MEMORY_DATA
                 or ./data)
  --policy FILE  policy file when the store is opened here (default policies/default.json): the
                 one the service runs with, or the confidence and the change of preference are
                 computed with other numbers than the service's; a broken one stops the command
`

const counted = (n: number) => `${n} observation${n === 1 ? '' : 's'}`

/** The answers outside the options, when there are any: `other 2` (a service from before says none). */
const otherAnswers = (point: PointPreference): string[] => (point.other === undefined || point.other === 0 ? [] : [`other ${point.other}`])

/**
 * A point as the user can recognise it: a key hashed from the question (R-CAP-4) says nothing, so
 * the question last asked there comes first, the key after it for `why --point`.
 */
const pointName = (point: PointPreference): string =>
  /^q-[0-9a-f]{20}$/.test(point.point) && typeof point.question === 'string' ? `${JSON.stringify(point.question)} (${point.point})` : point.point

/** A count as said: a set read at a single-select point counts a fraction to each of its options (`2.67`, not `2.6666666666666665`). */
const shownCount = (count: number): string => String(Math.round(count * 100) / 100)

/**
 * Too few choices to be personalised yet, said as a recommendation says it: one choice read
 * `Drizzle 100%, confidence medium-high (0.75)` while the agent was given the static default. A
 * service of an older version, still running after an upgrade, does not say: nothing is said.
 */
const stillNeeded = (point: PointPreference): string =>
  point.needed === undefined || point.needed <= 0 ? '' : ` (${point.needed} more needed for personalization)`

/** One line per point, as the command prints it. */
export function describePoint(point: PointPreference): string {
  // Multi-select: the set selected at least half the time (labels may hold commas: joined with +).
  // A service from before `selection` and `changed_since` (still running after an upgrade of the
  // command) answers without them: its point is said by its majority, with no change of preference.
  // The observations counted are the recent ones only, after a change of preference: said so at
  // either kind of point.
  const since = point.changed_since === null || point.changed_since === undefined ? '' : ` since ${point.changed_since.slice(0, 10)} (they differ from the earlier ones)`
  if (point.selection !== null && point.selection !== undefined) {
    const rates = [...point.options.map((o) => `${o.option} ${shownCount(o.count)} (${shownPercent(o.share)}%)`), ...otherAnswers(point)].join(', ')
    return `${pointName(point)}: ${point.selection.length === 0 ? '(nothing selected half the time)' : point.selection.join(' + ')}, ${counted(point.observations)}${stillNeeded(point)}${since} [${rates}]`
  }
  // No option is the majority where every answer counted was the user's own text ("Other"): they
  // chose that, not nothing, as "(nothing chosen)" said of "CockroachDB" typed in.
  const own = point.other !== undefined && point.other > 0
  const none = own ? `(no option: ${point.other === 1 ? 'an answer' : 'answers'} of your own)` : '(nothing chosen)'
  const head = `${pointName(point)}: ${point.majority ?? none}`
  // In whole percent as a recommendation says it: 100% only of an option chosen every time, 0% only of one never chosen.
  const share = point.majority === null ? '' : ` ${shownPercent(point.share)}%`
  const confidence = point.confidence === null ? '' : `, confidence ${point.confidence.level} (${point.confidence.value})`
  const options = [...point.options.map((o) => `${o.option} ${shownCount(o.count)}`), ...otherAnswers(point)].join(', ')
  return `${head}${share}${confidence}, ${counted(point.observations)}${stillNeeded(point)}${since} [${options}]`
}

/** `decision-memory preferences` (R-SVC-5). */
export async function preferencesCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { user: { type: 'string' }, 'as-of': { type: 'string' }, json: { type: 'boolean' }, data: { type: 'string' }, policy: { type: 'string' } },
    strict: true,
  })
  // Whose choices: as the hook that recorded them, why and the MCP server, $DECISION_MEMORY_USER by default.
  const user =
    values.user !== undefined ? identifierFlag(values.user, 'user') : identifierFlag(agentUser(), 'user', 'DECISION_MEMORY_USER')
  const asOf = values['as-of'] === undefined ? undefined : timestampFlag(values['as-of'], 'as-of')
  // Checked before anything is read, with a service or without, as decay-scan checks it.
  if (values.policy !== undefined) {
    values.policy = configFilePath(values.policy)
    await loadPolicy(values.policy)
  }
  let answer
  try {
    answer = await throughServiceOrLocal({
      method: 'GET',
      path: `/v1/users/${encodeURIComponent(user)}/preferences${asOf === undefined ? '' : `?${new URLSearchParams({ as_of: asOf })}`}`,
      dataDir: values.data,
      policyFile: values.policy,
      timeoutMs: 60_000,
      expect: hasFields({ points: 'array' }),
      local: (memory) => memory.preferences(user, { as_of: asOf }),
      // Read from archival alone: nothing is written.
      writesNothing: true,
      makesNoStore: true,
    })
  } catch (error) {
    // An --as-of the store refuses (in the future) is the flag's mistake, as why's is.
    if (error instanceof InputError && error.issues.some((i) => i.path === 'as_of')) throw momentAheadLocally('as-of', error.message)
    throw error
  }
  const refused = answer.body as { error?: { message?: string; issues?: Array<{ path?: string }> } } | null
  if (answer.status === 400 && refused?.error?.issues?.some((i) => i.path === 'as_of') === true) {
    throw new UsageError(`--as-of: ${refused.error.message ?? 'refused by the service'}`)
  }
  if (answer.status >= 400) return failure('preferences', answer, USER_FROM_FLAG_OR_VARIABLE)
  // Checked with --json too: a service of an older version ignores as_of and answers as of now,
  // which its as_of says; printed as of --as-of, it would be today's preferences said as then's.
  const said = (answer.body as { as_of?: unknown }).as_of
  if (asOf !== undefined && (typeof said !== 'string' || Date.parse(said) !== Date.parse(asOf))) {
    process.stderr.write(
      printable(
        `decision-memory preferences: the service answered as of ${typeof said === 'string' ? said : 'a moment it does not say'}, not as of ${asOf}: ` +
          'a service of an older version, still running after the upgrade, answers as of now whatever --as-of says; restart it, then ask again. ' +
          'Nothing printed',
      ) + '\n',
    )
    return 1
  }
  const body = answer.body as { points: PointPreference[] }
  if (values.json === true) process.stdout.write(jsonLine(body))
  else if (body.points.length === 0) process.stdout.write(`nothing learned about ${shownName(user)} ${asOf === undefined ? 'yet' : `as of ${asOf}`}\n`)
  else {
    // A replay says so, as why's does: preferences as they were then read like those of now.
    if (asOf !== undefined) process.stdout.write(printable(`${shownName(user)} as of ${asOf}`) + '\n')
    for (const point of body.points) process.stdout.write(printable(describePoint(point)) + '\n')
  }
  return 0
}
