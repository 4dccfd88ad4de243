import { isAbsolute, resolve } from 'node:path'
import { loadPolicy } from '../config/load-policy'
import type { DecisionWhy } from '../decisions/decisions'
import type { OutOfScope } from '../decisions/applicability'
import type { PointWhy } from '../decisions/explain-point'
import { InputError } from '../domain/errors'
import { sentOf } from '../domain/zod-issues'
import { shownName } from '../domain/observation'
import { DecisionKeySchema, type DecisionRecord } from '../decisions/decision'
import { WhyQuery } from '../http/decision-schemas'
import { UsageError, parseFlags, agentUser, identifierFlag, configFilePath, timestampFlag, momentAheadLocally } from './options'
import { inProjectFolder, projectOf } from '../integrations/claude-code'
import { pathInRepository, projectOfFolder, realFolder, workingProjectOf } from '../repository'
import { decisionsOfFile, isHere, noDecisionOfFile } from '../why-file'
import { errorMessage, failure, hasFields, throughServiceOrLocal, USER_FROM_FLAG_OR_VARIABLE } from './service-client'
import { jsonLine, printable } from '../terminal'
import { notAsOf } from '../answer-as-of'
import { shellWord } from '../config/bin-path'

/** Whether the folder this runs in is still there: process.cwd() throws in one removed under the shell. */
function folderHereExists(): boolean {
  try {
    process.cwd()
    return true
  } catch {
    return false
  }
}

/** The project the hooks record for the folder this runs in (workingProjectOf); none in / or the home folder. */
function projectHere(): string | undefined {
  try {
    return workingProjectOf(process.cwd())
  } catch {
    // A folder removed under the shell: no repository to read.
    return undefined
  }
}

/**
 * The project of the session `sessionId` of `user`, when the folder this runs in, in no repository,
 * is the folder it was started in or below it: the project the hooks record its events in there
 * (handleClaudeCodeHook), Claude Code's cwd following the agent's cd. Undefined otherwise, and for a
 * session not found or not read (the point's own request then says what is wrong).
 */
async function sessionProjectHere(sessionId: string, user: string, dataDir: string | undefined, policyFile: string | undefined): Promise<string | undefined> {
  let answer
  try {
    answer = await throughServiceOrLocal({
      method: 'GET',
      path: `/v1/sessions/${encodeURIComponent(sessionId)}/personalization?${new URLSearchParams({ user })}`,
      dataDir,
      policyFile,
      expect: hasFields({ session_id: 'string', personalization: 'boolean', user: 'string' }),
      local: (memory) => memory.session({ session_id: sessionId, user }),
      writesNothing: true,
      makesNoStore: true,
    })
  } catch {
    return undefined
  }
  const project = answer.status === 200 ? (answer.body as { project?: unknown }).project : undefined
  return typeof project === 'string' && inProjectFolder(realFolder(process.cwd()), project) ? project : undefined
}

export const WHY_HELP = `decision-memory why KEY | FILE | --point POINT [--user USER] [--project PROJECT | --all-projects] [--session ID] [--task TASK] [--path PATH] [--stage STAGE] [--as-of ISO] [--json] [--data DIR] [--policy FILE]

  Why (R-CON-5). With a decision KEY: its supersede chain, oldest first, each decision with its
  dates, rationale, source and evidence, then each proposal pending to supersede one of them
  (pending: …). With a FILE (or folder): the chain of each decision imported from
  it, a record import-adr read (docs/adr/0005-use-x.md, a DECISIONS.md), then of each decision in
  force scoped to its path or a folder above it (src/billing for src/billing/invoice.ts), then of
  each accepted one stored with a glob path scope (src/billing/**, which applies to none of the
  paths it would match) whose folder holds it, with its warning. With --point: what is
  recommended there, the decisions bound to it with their chains, and the observations that
  support the recommendation.

  --point POINT      a decision point's key (as a recommendation's \`point\` gives it)
  --user USER        whose point (default $DECISION_MEMORY_USER, as the hook's, or "default")
  --project PROJECT  with --point: the project whose context the recommendation is made in;
                     \`.\`: the one the hook records here (the repository's root; a worktree's
                     main checkout; outside one, the folder), which is also the default, as for
                     the MCP server's tools, but in / or the home folder outside a repository,
                     where the default is none (every project);
                     with --session, outside a repository below the folder that session
                     was started in (not / or the home folder, whose subfolders keep their
                     own), the session's project, as the hooks record it there (the default
                     and \`.\` alike)
  --all-projects     with --point: across every project wherever the command runs, as by default
                     in / or the home folder outside a repository
  --session ID       with --point: the session asked in, whose personalization (then) decides
                     whether the answer was personal (R-SES-3)
  --task TASK        with --point: the run's task, path and stage, as a recommendation's
  --path PATH          context gives them: decisions scoped to a task, path or stage apply only
  --stage STAGE        when it is given (R-CON-4), as for \`decisions/applicable\`; a --path is
                       relative to the repository's root (services/payments); \`.\` or an
                       absolute folder is taken as the hook sends it from there (\`.\` in
                       services/payments is services/payments)
  --as-of ISO        as the service would have answered then (R-REC-9): with --point, e.g. to
                     see why a question was answered for the user last Tuesday; with KEY,
                     the chain as it stood then (the decisions of it that existed, their
                     statuses and links then); with FILE, those imported from it or scoped
                     to its path then; an answer that does not say it is as of
                     then (a service of an older version, which may answer as of now:
                     restart it after an upgrade) is not printed, even with --json: exit 1
  --json             the answer of the route, as JSON
  --data DIR         the store to read (default: the running service's, else
                     $DECISION_MEMORY_DATA or ./data; \`decision-memory help\` says which store)
  --policy FILE      policy file when the store is opened here (default policies/default.json):
                     the one the service runs with, or the point is explained with other
                     thresholds and static defaults than the service's; a broken one stops
                     the command
`

/**
 * A chain as text, oldest first. Each link's evidence and source are printed under it: why an
 * earlier choice was made, read from the why of the one that replaced it. A service of an older
 * version sends the evidence of the decision asked about (`why.evidence`) alone, printed under that
 * decision, not after the chain, where it would read as the current one's.
 * The newest link is marked `*`; when it is not accepted (revoked, deprecated, still proposed), a
 * line says which decision of the chain is in force, if any; last, a line for each proposal pending
 * to supersede a link.
 */
export function chainText(why: Omit<DecisionWhy, 'as_of'>, indent = ''): string {
  const evidenceOf = (pieces: DecisionWhy['evidence']) => pieces.map((e) => `${indent}    evidence: ${e.kind}: ${e.summary}${e.uri === null ? '' : ` <${e.uri}>`}`)
  const evidence = evidenceOf(why.evidence)
  const shown = why.chain.some((link) => link.key === why.key)
  const lines = why.chain.map((link) => {
    // A service of an older version sends neither deprecated_at nor revoked_at (undefined): left out, as before.
    const named: Array<[string, string | null | undefined]> = [
      ['accepted', link.accepted_at],
      ['superseded', link.superseded_at],
      ['deprecated', link.deprecated_at],
      ['revoked', link.revoked_at],
    ]
    const steps = named.filter((step): step is [string, string] => step[1] != null)
    // In the order they happened: a deprecated decision superseded later was printed
    // `superseded …, deprecated …`, the later step first. Ties keep the lifecycle's order (a stable sort).
    const ordered = steps.sort((a, b) => Date.parse(a[1]) - Date.parse(b[1]) || 0)
    const when = [`decided ${link.date}`, ...ordered.map(([name, time]) => `${name} ${time}`)]
    // Why it was revoked or deprecated (or superseded, said otherwise than the default reason).
    const reason = link.reason == null || link.reason === `superseded by ${link.superseded_by}` ? '' : `\n${indent}    ${link.status}: ${link.reason.replace(/\s+/g, ' ')}`
    return (
      `${indent}${link.key === why.current ? '*' : '-'} ${link.key} [${link.status}, ${link.enforce}] ${link.title}\n` +
      `${indent}    ${when.join(', ')}\n` +
      `${indent}    why: ${link.rationale.replace(/\s+/g, ' ')}` +
      reason +
      // A path scope stored as a glob by a version before this applies to none of the paths the glob matches: said under it.
      (link.scope_warning === undefined ? '' : `\n${indent}    warning: ${link.scope_warning}`) +
      (link.source == null ? '' : `\n${indent}    source: ${link.source.replace(/\s+/g, ' ')}`) +
      // A service of an older version sends no evidence of a link: the asked decision's, under it, as before.
      (link.evidence !== undefined ? evidenceOf(link.evidence) : link.key === why.key ? evidence : []).map((line) => `\n${line}`).join('')
    )
  })
  const newest = why.chain.find((link) => link.key === why.current)
  // A service of an older version, still running after an upgrade of the command, answers without
  // in_force: the chain it sends says it (its newest accepted link), not "none".
  const held = why.in_force === undefined ? (why.chain.findLast((link) => link.status === 'accepted')?.key ?? null) : why.in_force
  const inForce =
    held === why.current || newest === undefined ? [] : [`${indent}in force: ${held ?? 'none'} (the newest, ${newest.key}, is ${newest.status})`]
  // A change pending: a proposal to replace a link, not accepted yet (a service of an older version sends none).
  const pending = (why.proposals ?? []).map(
    (p) =>
      `${indent}pending: ${p.key} [proposed, ${p.enforce}] ${p.title}, proposed ${p.proposed_at} to supersede ${p.supersedes}` +
      // Accepting it would be refused, or replace nothing: said, rather than left to the 409.
      (p.warning === undefined ? '' : ` (${p.warning})`),
  )
  return [...lines, ...(shown ? [] : evidence), ...inForce, ...pending].join('\n') + '\n'
}

/**
 * Options chosen together (a multi-select set) as `preferences` says them, `Lint, format + Unit
 * tests`: joined with ", ", a label that holds a comma would read as two options.
 */
function optionSet(labels: readonly string[]): string {
  return labels.length === 0 ? 'nothing' : labels.join(' + ')
}

/** What a point's answer says, as the command prints it. */
export function pointText(why: PointWhy): string {
  const out: string[] = []
  const rec = why.recommendation
  // A service of an older version, still running after an upgrade of the command, leaves out the
  // fields it did not have yet (session_id, task, path, stage, ask): said as absent, not `undefined`.
  // Names as the service's messages show them (shownName): quoted when spaced at their ends, as one stored before writes refused it may be.
  const named = (label: string, value: string | null | undefined) => (value === null || value === undefined ? [] : [`${label} ${shownName(value)}`])
  const where = [
    `user ${shownName(why.user)}`,
    ...named('project', why.project),
    ...named('session', why.session_id),
    ...named('task', why.task),
    ...named('path', why.path),
    ...named('stage', why.stage),
  ]
  out.push(`point ${shownName(why.point)} (${where.join(', ')}) as of ${why.as_of}`)
  if (rec === null) out.push('no recommendation: no question has been asked at this point yet')
  else {
    const recommended = Array.isArray(rec.recommended) ? optionSet(rec.recommended) : rec.recommended
    // Where required decisions rule out every option offered, nothing is recommended: `recommended`
    // is then what the memory alone would pick (as `learned` is, said below as such), and printed
    // as `recommended: 5 [static-default, …]` it read as the answer. Said plainly, with why.
    if (nothingRecommended(rec)) out.push(`nothing recommended: ${rec.confidence.method} [confidence ${rec.confidence.value} ${rec.confidence.level}]`)
    else out.push(`recommended: ${recommended} [${rec.state}, confidence ${rec.confidence.value} ${rec.confidence.level}]`)
    out.push(`  when ${rec.precondition} — ${rec.disclosure}`)
    if (rec.ask !== undefined) out.push(`  ${rec.ask ? 'asked' : 'answered for the user'}: ${rec.ask_reason}`)
    // Said apart from the reason, which may be another's (personalization off, a sensitive point).
    for (const c of rec.conflicts ?? []) {
      // One decision whose musts name two options at a single-select question contradicts itself.
      const way = c.keys[0] === c.keys[1] ? 'supersede it with one whose must names one option, or revoke it' : 'supersede or revoke one of them'
      out.push(`  conflict: ${c.message}; ${way}`)
    }
    if (rec.learned !== undefined) {
      const learned = Array.isArray(rec.learned.recommended) ? optionSet(rec.learned.recommended) : rec.learned.recommended
      out.push(`  observed choices alone would say: ${learned} [${rec.learned.state}]`)
    }
    // R-MEM-5's "possible change of preference", said where a person reads it, not only in the JSON.
    const layers = rec.layers
    if (layers?.change_suspected === true) {
      const said = (layer: typeof layers.long_term) =>
        layer.selection !== null ? optionSet(layer.selection) : layer.majority ?? (layer.observations > 0 ? 'answers of their own, none of the options' : 'nothing')
      const one = layers.recent.sessions.length === 1
      // "The last 3 sessions chose Tier S" was untrue where one of them chose Tier L: a majority
      // short of every recent choice is said as one, with its share (kept under 100% once rounded).
      const recent = layers.recent
      const chose =
        recent.selection === null && recent.majority !== null && recent.share < 1
          ? `mostly ${recent.majority} (${Math.min(99, Math.round(recent.share * 100))}% of ${one ? 'its' : 'their'} choices)`
          : said(recent)
      out.push(
        // One recent session when the project has had only one (its long term backed off to the user's other projects).
        `  possible change of preference: ${one ? 'the last session' : `the last ${recent.sessions.length} sessions`} chose ${chose}, ` +
          `all sessions, decay-weighted, ${said(layers.long_term)}`,
      )
    }
  }
  // The versions of one decision are all bound to its point, and each comes with the whole chain:
  // printed once, not once per version (a chain of 50 printed 50 times was 7,500 lines).
  const printed = new Set<string>()
  for (const d of why.decisions) {
    // An accepted decision that does nothing here (out of the run's scope, or advice against an
    // option not recommended) says so: printed bare beside the recommendation, it read as applied.
    // Out of the run's scope, it says which scope and why: a required decision bare `no effect` read as broken;
    // with no recommendation too, which may be none because the decision does not apply.
    const outside = d.effect === null && d.status === 'accepted' ? notApplied(d.out_of_scope ?? []) : undefined
    const effect = d.effect ?? outside ?? (d.status === 'accepted' && why.recommendation !== null ? 'no effect on this recommendation' : null)
    const heading = `decision ${d.key}${effect === null ? '' : ` (${effect})`}:`
    if (d.chain.length > 0 && d.chain.every((link) => printed.has(link.key))) {
      out.push(`${heading} in the chain above`)
      // Printed under its link above, but by a service of an older version, which sends no link's evidence.
      if (d.chain.find((link) => link.key === d.key)?.evidence !== undefined) continue
      for (const e of d.evidence) out.push(`    evidence: ${e.kind}: ${e.summary}${e.uri === null ? '' : ` <${e.uri}>`}`)
      continue
    }
    out.push(heading)
    // A proposal pending on a chain printed above has that chain and itself: its links printed above
    // are named, not printed again (a chain of 30 versions was some 50,000 characters a second time).
    const above = d.chain.filter((link) => printed.has(link.key)).map((link) => link.key)
    if (above.length > 0) out.push(`  ${above.length === 1 ? above[0] : `${above[0]} … ${above.at(-1)} (${above.length} links)`}: in the chain above`)
    out.push(chainText({ ...d, chain: d.chain.filter((link) => !printed.has(link.key)) }, '  ').trimEnd())
    for (const link of d.chain) printed.add(link.key)
  }
  if (why.observations.length > 0) {
    // Those that chose what is recommended, among the newest 100 it counted: said against all it
    // counted, so that "22" is not read as every choice (the 8 that went otherwise are not listed),
    // and said as those that chose it: "6 of 10 counted" read as 4 choices left uncounted.
    const counted = why.recommendation?.observations
    const listed = why.observations.length
    // Past 100 it names the newest 100 it looked at: "the 80 of 250 counted" read as 80 of them all.
    const among = counted === undefined ? '' : counted > 100 ? `the newest 100 of ${counted}` : `${counted}`
    const behind = counted === undefined || counted === listed ? `${listed}` : `the ${listed} of ${among} counted that chose it`
    // With nothing recommended, they are behind what the memory alone would pick.
    const it = why.recommendation !== null && nothingRecommended(why.recommendation) ? 'what observed choices alone would say' : 'it'
    out.push(`observations behind ${it} (${behind}):`)
    for (const o of why.observations) out.push(`  ${o.id}  ${o.timestamp}  ${optionSet(o.chosen)}`)
  }
  return out.join('\n') + '\n'
}

/**
 * Whether the answer recommends nothing, every option offered ruled out by required decisions
 * (R-CON-2): the only answer that carries `learned` (what observed choices alone would pick)
 * without being `enforced`, where a decision fixes the option recommended.
 */
function nothingRecommended(rec: NonNullable<PointWhy['recommendation']>): boolean {
  return rec.learned !== undefined && rec.state !== 'enforced'
}

/**
 * Why a decision did not apply, from its `out_of_scope` (undefined when it is in scope, or a service
 * of an older version does not say): `not applied: scoped to path src/billing, no path given`.
 */
function notApplied(outside: readonly OutOfScope[]): string | undefined {
  if (outside.length === 0) return undefined
  const each = outside.map((o) => `scoped to ${o.field} ${o.scope}, ${o.run === null ? `no ${o.field} given` : `not ${o.run}`}`)
  return `not applied: ${each.join('; ')}`
}

/** `decision-memory why`: a doorway onto the same `why` as `GET /v1/decisions/{key}/why` and `GET /v1/why`. */
export async function whyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags({
    args: argv,
    options: {
      point: { type: 'string' },
      user: { type: 'string' },
      project: { type: 'string' },
      'as-of': { type: 'string' },
      session: { type: 'string' },
      task: { type: 'string' },
      path: { type: 'string' },
      stage: { type: 'string' },
      'all-projects': { type: 'boolean' },
      json: { type: 'boolean' },
      data: { type: 'string' },
      policy: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  const key = positionals[0]
  // Said as what is wrong with what was given: a KEY and --point both, or two KEYs, are not "none".
  if (positionals.length > 1) throw new UsageError(`why takes one decision KEY or FILE, not ${positionals.length} ("${positionals.join(' ')}")`)
  if (key !== undefined && values.point !== undefined) throw new UsageError('give a decision KEY or a FILE, or --point POINT, not both')
  if (key === undefined && values.point === undefined) throw new UsageError('give a decision KEY or a FILE, or --point POINT')
  // Checked as the routes check them, and before any request: a key `..` in the path
  // `/v1/decisions/../why` is `/v1/why` once the URL is resolved, another route.
  // A record's file, as a repository names it (`docs/adr/0005-use-x.md`), whose decisions the import
  // keyed otherwise (ADR-0005): a path (no key holds a `/`), there or deleted since, or a name that
  // is a file or folder here (`invoice.ts` in `src/billing`), or `.` or `..`, which no key is: the
  // folder it runs in (`why .` in `docs/adr`, as `./`) or the one above; a link here leading to a
  // folder deleted since (`adrs` → `docs/adr`) is such a name too.
  const file = key !== undefined && (/[\\/]/.test(key) || key === '.' || key === '..' || isHere(key)) ? key : undefined
  // A name no key can be (`Architecture Decisions`, `_adr`) is a flag mistake, said once the other
  // flags are checked: unless it is the bare name of a folder of records deleted since (below).
  let notAKey: string | undefined
  if (key !== undefined && file === undefined) {
    const checked = DecisionKeySchema.safeParse(key)
    // Quoted as the routes quote a value sent (sentOf): a key of 5,000 characters was echoed whole.
    if (!checked.success) notAKey = `KEY ${sentOf(key)}: ${checked.error.issues[0]?.message ?? 'not a decision key'}`
  }
  // Nor does it depend on the project: said, as --session and the run are, rather than ignored.
  if (key !== undefined && values.project !== undefined) throw new UsageError('--project goes with --point: a decision\'s chain does not depend on the project')
  if (key !== undefined && values['all-projects'] === true) throw new UsageError('--all-projects goes with --point: a decision\'s chain does not depend on the project')
  if (values.project !== undefined && values['all-projects'] === true) throw new UsageError('give --project or --all-projects, not both')
  const point = values.point === undefined ? undefined : identifierFlag(values.point, 'point')
  // `.`, which no project can be called: the project the hook records for the folder this runs in
  // (in a worktree, its repository's main working tree, which neither $PWD nor its root is).
  // Not given, a point is explained in the project this runs in, as the MCP server's tools and
  // the hooks recommend there (the repository's, else the folder): across every project, the point
  // would be explained with another recommendation than the one the agent was given. None in / or
  // the home folder, as the MCP server.
  // `.` names the folder this runs in: in one removed under the shell, process.cwd() threw, a stack trace.
  for (const flag of ['project', 'path'] as const) {
    if (values[flag] === '.' && !folderHereExists()) {
      throw new UsageError(`--${flag} .: the folder this runs in is gone (removed since the shell entered it): give the ${flag} by name, or run it in a folder that exists`)
    }
  }
  let project =
    values.project === undefined
      ? point === undefined || values['all-projects'] === true
        ? undefined
        : projectOf(projectHere())
      : values.project === '.'
        ? (projectOf(projectOfFolder(process.cwd()) ?? process.cwd()) as string)
        : identifierFlag(values.project, 'project')
  const asOf = values['as-of'] === undefined ? undefined : timestampFlag(values['as-of'], 'as-of')
  // `.` or an absolute folder: the path the hook and the guard send from that folder (relative to
  // its repository's root), which decisions are scoped by; `--path "$PWD"` as given would match none.
  const runPath = values.path !== undefined && (values.path === '.' || isAbsolute(values.path)) ? pathInRepository(resolve(values.path)) : values.path
  const run: Record<'session_id' | 'task' | 'path' | 'stage', string | undefined> = { session_id: values.session, task: values.task, path: runPath, stage: values.stage }
  for (const [flag, value] of Object.entries(run)) {
    if (value === undefined) continue
    const name = flag === 'session_id' ? 'session' : flag
    if (key !== undefined) throw new UsageError(`--${name} goes with --point: a decision's chain does not depend on the run`)
    if (value === '') throw new UsageError(`--${name} must not be empty`)
    // Checked as the route checks it: without a service, the store is read with what is passed
    // here, and a session `..` or a task over 500 characters would be answered locally where the
    // service refuses it.
    const checked = WhyQuery.shape[flag as keyof typeof run].safeParse(value)
    if (!checked.success) throw new UsageError(`--${name}: ${checked.error.issues[0]?.message ?? 'not valid'}`)
    run[flag as keyof typeof run] = checked.data
  }
  // Whose choices: as the hook that recorded them and the MCP server, $DECISION_MEMORY_USER by default.
  // Not read for a decision's chain, which holds nobody's choices: a DECISION_MEMORY_USER set wrong
  // for the agent would otherwise stop \`why D-001\`, which does not depend on it.
  const user =
    values.user !== undefined
      ? identifierFlag(values.user, 'user')
      : key !== undefined
        ? 'default'
        : identifierFlag(agentUser(), 'user', 'DECISION_MEMORY_USER')
  // Checked before anything is read, with a service or without, as decay-scan checks it.
  if (values.policy !== undefined) {
    values.policy = configFilePath(values.policy)
    await loadPolicy(values.policy)
  }
  // Asked in a session, in a folder kept out of git below the one it was started in: its project,
  // where the hooks recorded and planned its questions there, not the folder's own; `.` too, which
  // names the project the hook records here, as an audit of a PreToolUse answer gives it.
  if ((values.project === undefined || values.project === '.') && project !== undefined && run.session_id !== undefined && projectOfFolder(process.cwd()) === undefined) {
    project = (await sessionProjectHere(run.session_id, user, values.data, values.policy)) ?? project
  }
  // A point nothing is known of is most often one mistyped or guessed (`--point tier`): where to
  // find the points there are, the keys `--point` takes. The user named as the message names them,
  // quoted where spaced at its ends (` alice` read "about  alice").
  const pointsHint = (code: string) =>
    code === 'point_not_found'
      ? `; \`decision-memory preferences --user ${shellWord(user)}${values.data === undefined ? '' : ` --data ${shellWord(values.data)}`}\` lists the points learned about ${shownName(user)}`
      : ''
  // One decision's chain (or the point's answer), asked and printed. `orElse`: what answers instead
  // when no decision has the key, if it has anything to say (a folder of records deleted since).
  const ask = async (key: string | undefined, orElse?: () => Promise<number | undefined>): Promise<number> => {
    let path: string
    if (key !== undefined) path = `/v1/decisions/${encodeURIComponent(key)}/why${asOf === undefined ? '' : `?${new URLSearchParams({ as_of: asOf })}`}`
    else {
      const query = new URLSearchParams({ user, point: point as string })
      if (project !== undefined) query.set('project', project)
      if (asOf !== undefined) query.set('as_of', asOf)
      for (const [name, value] of Object.entries(run)) if (value !== undefined) query.set(name, value)
      path = `/v1/why?${query}`
    }
    let answer
    try {
      answer = await throughServiceOrLocal({
        method: 'GET',
        path,
        dataDir: values.data,
        policyFile: values.policy,
        expect: key !== undefined ? hasFields({ key: 'string', chain: 'array', evidence: 'array' }) : hasFields({ point: 'string' }),
        local: (memory, decisions) =>
          key !== undefined
            ? decisions.why(key, { as_of: asOf })
            : memory.why({ user, project, point: point as string, as_of: asOf, ...run }),
        // A decision's chain is read; a point's recommendation may rebuild its aggregate into core, a write.
        writesNothing: key !== undefined,
        // Either way, it shows what is stored: with no store, nothing.
        makesNoStore: true,
      })
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      // An --as-of the route refuses (in the future) is the flag's mistake, as decay-scan's --now is.
      if (error.issues.some((i) => i.path === 'as_of')) throw momentAheadLocally('as-of', error.message)
      const instead = error.code === 'decision_not_found' ? await orElse?.() : undefined
      if (instead !== undefined) return instead
      process.stderr.write(`decision-memory why: ${error.message}${pointsHint(error.code)}\n`)
      return 1
    }
    const refused = answer.body as { error?: { code?: string; message?: string; issues?: Array<{ path?: string }> } } | null
    if (answer.status === 400 && refused?.error?.issues?.some((i) => i.path === 'as_of') === true) {
      throw new UsageError(`--as-of: ${refused.error.message ?? 'refused by the service'}`)
    }
    if (answer.status === 404 && refused?.error?.code === 'decision_not_found') {
      const instead = await orElse?.()
      if (instead !== undefined) return instead
    }
    if (answer.status === 404 && refused?.error?.code === 'point_not_found') {
      // The message alone, as the command says it when it opens the store itself: the issue
      // (`point: no observation and no decision at this point`) says again what it says.
      process.stderr.write(`decision-memory why: ${printable(refused.error.message ?? errorMessage(answer, USER_FROM_FLAG_OR_VARIABLE))}${pointsHint('point_not_found')}\n`)
      return 1
    }
    if (answer.status >= 400) return failure('why', answer, USER_FROM_FLAG_OR_VARIABLE)
    // Checked with --json too: a script that asked for a moment is not handed the chain of another.
    const wrong = asOf === undefined ? undefined : notAsOf(answer.body, asOf, key ?? `point ${point as string}`)
    if (wrong !== undefined) {
      process.stderr.write(`decision-memory why: ${printable(wrong)}\n`)
      return 1
    }
    if (values.json === true) process.stdout.write(jsonLine(answer.body))
    else if (key !== undefined) {
      // A replay says so, as a point's does: a chain as it stood then reads like one of now.
      const then = asOf === undefined ? '' : `${key} as of ${asOf}\n`
      process.stdout.write(printable(then + chainText(answer.body as DecisionWhy)))
    }
    else process.stdout.write(printable(pointText(answer.body as PointWhy)))
    return 0
  }
  /**
   * The chains of the decisions behind `file`, a path or a name here. `ifRecords`: a bare name no
   * decision has as its key, read so only when records were imported from it (else undefined,
   * nothing said, and the key's answer stands).
   */
  const explainFile = async (file: string, ifRecords = false): Promise<number | undefined> => {
    // With --as-of, the decisions as they stood then (R-REC-9): one scoped there since is not listed
    // (its chain then is a 404), and one revoked since was in force.
    let listed: Awaited<ReturnType<typeof throughServiceOrLocal>>
    try {
      listed = await throughServiceOrLocal({
        method: 'GET',
        path: asOf === undefined ? '/v1/decisions' : `/v1/decisions?${new URLSearchParams({ as_of: asOf })}`,
        dataDir: values.data,
        policyFile: values.policy,
        expect: hasFields({ decisions: 'array' }),
        local: async (_memory, decisions) => ({ decisions: await decisions.list({ as_of: asOf }) }),
        writesNothing: true,
        makesNoStore: true,
      })
    } catch (error) {
      // An --as-of the store refuses (in the future) is the flag's mistake, as with KEY: read by the
      // command itself, against this machine's clock (a version before this named the service's).
      if (error instanceof InputError && error.issues.some((i) => i.path === 'as_of')) throw momentAheadLocally('as-of', error.message)
      throw error
    }
    const refusedList = listed.body as { error?: { message?: string; issues?: Array<{ path?: string }> } } | null
    if (listed.status === 400 && refusedList?.error?.issues?.some((i) => i.path === 'as_of') === true) {
      throw new UsageError(`--as-of: ${refusedList.error.message ?? 'refused by the service'}`)
    }
    if (listed.status >= 400) return ifRecords ? undefined : failure('why', listed, USER_FROM_FLAG_OR_VARIABLE)
    const all = (listed.body as { decisions: DecisionRecord[] }).decisions
    // Read from the folder this runs in, as given: `.`, not process.cwd(), which throws in a folder
    // removed under the shell, where an absolute FILE is still read.
    const here = { folder: '.', here: 'here', pointAt: (path: string) => `why --point POINT --path ${shellWord(path)}` }
    // A relative one there has nothing to be read from: said, where resolving it threw (a stack trace).
    if (!isAbsolute(file) && !folderHereExists()) {
      if (ifRecords) return undefined
      process.stderr.write('decision-memory why: the folder this runs in is gone (removed since the shell entered it): give FILE as an absolute path, or run it in a folder that exists\n')
      return 1
    }
    const { path: at, found: behind } = decisionsOfFile(file, all, here.folder)
    if (ifRecords && !behind.some((d) => d.from === 'record')) return undefined
    const headingOf = (d: (typeof behind)[number]) =>
      d.from === 'record'
        ? `${d.key}, from ${d.file ?? file}:${d.line}`
        : d.from === 'scope'
          ? `${d.key}, scoped to ${d.scope}`
          : `${d.key}, scoped to the glob ${d.scope}, which holds none of the paths it would match (see its warning)`
    const found = behind.map((d) => ({ key: d.key, heading: headingOf(d) }))
    if (found.length === 0) {
      // A key that is also a file's name here (`notes.md`): the decision, as before files were read;
      // a name no decision has as its key is said as the file it is.
      if (!/[\\/]/.test(file) && all.some((d) => d.key === file)) return ask(file)
      const said = noDecisionOfFile(file, at, here, asOf, all)
      process.stderr.write(printable(`decision-memory why: ${said}`) + '\n')
      return 1
    }
    // Several (the sections of a DECISIONS.md, the decisions scoped to a folder), or one not imported
    // from the file: each said where it comes from, in the order of the file, then by key.
    const headed = found.length > 1 || behind.some((d) => d.from !== 'record')
    for (const [i, { key, heading }] of found.entries()) {
      if (headed && values.json !== true) process.stdout.write(printable(`${i === 0 ? '' : '\n'}${heading}`) + '\n')
      const code = await ask(key)
      if (code !== 0) return code
    }
    return 0
  }
  // A bare name that is no entry here and no decision's key: the folder of records of that name,
  // deleted since (`why adr` in `docs/`, `why docs` at the root, after `git rm -r`), when the import
  // named records in it; else the key's answer (`no decision adr`). A key keeps its decision.
  // One no key can be is read so too, before any key is asked (`/v1/decisions/../why` is another
  // route): else, or when the decisions cannot be listed, the key's mistake, exit 2, as before.
  if (notAKey !== undefined) {
    const instead = await explainFile(key as string, true).catch(() => undefined)
    if (instead !== undefined) return instead
    throw new UsageError(notAKey)
  }
  if (file === undefined) return ask(key, key === undefined ? undefined : () => explainFile(key, true))
  return (await explainFile(file)) as number
}
