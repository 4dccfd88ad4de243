import { editDistance } from '../edit-distance'
import { ASK_USER_QUESTION_TOOL } from './claude-code'
import { GUARDED_TOOLS } from './shell-tools'

/** Claude Code's per-hook timeout, in seconds: a backstop, since `decision-memory hook` exits within 2 s. */
export const HOOK_TIMEOUT_SECONDS = 5

/**
 * The three hooks decision-memory needs, by event, with the tool they match (none for
 * SessionStart), and what a group's matcher must run for to hold one: the tool, or for
 * SessionStart the `startup` source (its matchers name how a session starts: `startup`, `resume`,
 * `clear`, `compact`, `fork`), when a new session is counted (R-SES-1).
 */
export const DECISION_MEMORY_HOOKS: ReadonlyArray<{ event: string; matcher?: string; runsFor: string }> = [
  { event: 'SessionStart', runsFor: 'startup' },
  { event: 'PreToolUse', matcher: ASK_USER_QUESTION_TOOL, runsFor: ASK_USER_QUESTION_TOOL },
  { event: 'PostToolUse', matcher: ASK_USER_QUESTION_TOOL, runsFor: ASK_USER_QUESTION_TOOL },
]

/**
 * A command hook entry written by an earlier install, wherever the checkout was; its path quoted,
 * also with escaped quotes inside a double-quoted wrapper (`bash -lc "node \"/old/…/decision-memory.js\" hook"`):
 * not found, it is taken for another hook, and a second one is added beside it; both run on every question.
 */
const OURS = /decision-memory(?:\.js)?(?:\\?["'])?\s+hook\b/
/** A guard hook entry of an earlier install, wherever the checkout was. */
const OURS_GUARD = /decision-memory(?:\.js)?(?:\\?["'])?\s+guard\b/

/** Inside a command substitution: what is no parenthesis, a `$` that opens none, quoted text or an escape. */
const SUBSTITUTED = /[^()$'"\\]|\$(?!\()|'[^']*'|"(?:[^"\\]|\\[\s\S])*"|\\[\s\S]/.source
/** A command substitution, one level of `$(…)` or `(…)` inside it (`$(basename $(pwd))`, `$((1+2))`). */
const SUBSTITUTION = String.raw`\$\((?:${SUBSTITUTED}|\$?\((?:${SUBSTITUTED})*\))*\)`
/**
 * Variables set for the command alone, before it (`DECISION_MEMORY_USER=alice node …`, also after
 * `env`), each value a word as sh reads it: quoted, escaped (`alice\ smith`) or both (`a"lice smith"`),
 * and a command substitution (`$(id -un)`, with one level inside it) or expansion (`${DM_USER:-alice smith}`) whole.
 * Cut inside a word, the rest of it would be read as the command.
 */
const ASSIGNMENT = /[A-Za-z_]\w*=(?:'[^']*'|"(?:[^"\\]|\\[\s\S])*"|\\[\s\S]|SUBSTITUTION|\$\{[^}]*\}|`(?:[^`\\]|\\[\s\S])*`|\$(?![({])|[^\s'"\\`$])*\s+/.source.replace(
  'SUBSTITUTION',
  () => SUBSTITUTION,
)
const ASSIGNMENTS = new RegExp(`^\\s*(?:env\\s+)?(?:${ASSIGNMENT})+`)

/** An earlier entry of each kind, and how a command ends that sets nothing of its own after it. */
const KINDS = { hook: { ours: OURS, bare: /\bhook$/ }, guard: { ours: OURS_GUARD, bare: /\bguard$/ } }

/**
 * The command an earlier entry is moved to: `command`, with what the user set around the earlier
 * one kept when `command` sets nothing of its own (ends in `hook`, or for the guard `guard`): the
 * flags after it (`--user alice`, `--spool FILE`; the guard's `--fail-closed`) and the variables
 * before it. Dropped, a re-install would record the user's choices for another user, or spool them
 * elsewhere, or have the guard ask another service, without a word. An earlier one run
 * inside quotes (`bash -lc 'node … hook --user bob'`) is the user's own wrapper, kept as written:
 * moved, its closing quote would be left without its opening one, a syntax error sh exits 2 on,
 * which blocks every question.
 */
function movedCommand(earlier: string, command: string, kind: 'hook' | 'guard' = 'hook'): string {
  const { ours, bare } = KINDS[kind]
  if (!bare.test(command)) return command
  const found = ours.exec(earlier)
  if (found === null) return command
  const tail = earlier.slice(found.index + found[0].length)
  const moved = `${keptHead(earlier, command)}${command}${tail}`
  return quotesClosed(moved) ? moved : earlier
}

/**
 * The variables set before `earlier` that are kept before `command`: all of them, but those
 * `command` sets itself (`DECISION_MEMORY_URL=… `, a --command's own, or the guard's from the
 * hook's), to the same value or another: kept too, every re-install would add them once more
 * (`URL=…7421 URL=…7422 node …`, the guard's twice again).
 */
function keptHead(earlier: string, command: string): string {
  const head = ASSIGNMENTS.exec(earlier)?.[0] ?? ''
  const own = new Set(assignmentsIn(ASSIGNMENTS.exec(command)?.[0] ?? '').map(nameSet))
  if (own.size === 0) return head
  const kept = assignmentsIn(head).filter((set) => !own.has(nameSet(set)))
  // `env` stays before those kept; with none kept, `command` sets what it needs itself.
  return kept.length === 0 ? '' : `${/^\s*(?:env\s+)?/.exec(head)?.[0] ?? ''}${kept.join('')}`
}

/** Each assignment of a run of them (ASSIGNMENTS), with the white space after it. */
function assignmentsIn(head: string): string[] {
  return head.replace(/^\s*(?:env\s+)?/, '').match(new RegExp(ASSIGNMENT, 'g')) ?? []
}

/** The variable an assignment sets: `DECISION_MEMORY_URL` of `DECISION_MEMORY_URL=http://… `. */
function nameSet(assignment: string): string {
  return assignment.slice(0, assignment.indexOf('='))
}

interface HookEntry {
  type?: string
  command?: string
  [key: string]: unknown
}
interface MatcherGroup {
  matcher?: string
  hooks?: HookEntry[]
  [key: string]: unknown
}

export interface SettingsChange {
  event: string
  matcher: string | null
  action: 'added' | 'updated' | 'unchanged'
  command: string
}

/**
 * Reads a flag's value as the command does (hookBudgetMs, guardTimeoutMs; undefined, its default),
 * throwing for one it refuses.
 */
export type FlagReader = (value: string | undefined) => number

/**
 * The timeout of an entry added (or given one where it had none): a new entry's, or, longer, that
 * of the one whose command (and so flags) it took, or above what its flags need (`needsMs`: a
 * budget, what the guard may take), in whole seconds. Given a new entry's, install-hooks warned
 * at once of the entry it had just written (shortTimeouts, shortGuardTimeouts).
 */
function addedTimeout(kept: unknown, needsMs: number | undefined): number {
  const own = typeof kept === 'number' ? kept : 0
  return Math.max(HOOK_TIMEOUT_SECONDS, own, needsMs === undefined ? 0 : Math.floor(needsMs / 1000) + 1)
}

/** The budget (ms) of a hook's command, read as the hook reads it; undefined when known only when it runs, or refused. */
function hookBudgetOf(command: string, budgetOf: FlagReader): number | undefined {
  return flagRead(command, OURS, '--budget', budgetOf)
}

/** The guard's `--timeout` (ms) in its command, read as the guard reads it; undefined as hookBudgetOf. */
function guardTimeoutOf(command: string, timeoutOf: FlagReader): number | undefined {
  return flagRead(command, OURS_GUARD, '--timeout', timeoutOf)
}

/** What the guard may take (GUARD_HELP): its --timeout for the payload, as long for the service, and its start. */
function guardTakesMs(timeoutMs: number): number {
  return 2 * timeoutMs + GUARD_START_MS
}

function flagRead(command: string, ours: RegExp, name: string, read: FlagReader): number | undefined {
  const found = ours.exec(command)
  if (found === null) return undefined
  // Read as sh gives it to the command (`--budget '3000'` too).
  const flag = flagValue(command, found.index + found[0].length, name)
  if (flag === null) return undefined
  try {
    return read(flag)
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Settings whose `hooks` this command cannot merge into without destroying something. */
export class SettingsShapeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SettingsShapeError'
  }
}

/** The block to paste into settings.json by hand (README), the same that install-hooks merges. */
export function hooksBlock(command: string): { hooks: Record<string, MatcherGroup[]> } {
  return mergeHooks({}, command).settings as { hooks: Record<string, MatcherGroup[]> }
}

/**
 * Whether a matcher group runs for `tool`, as Claude Code reads a matcher (hooks reference, Matcher
 * patterns): `*`, empty or none matches every tool; letters, digits, `_`, `-`, spaces, `,` and `|`
 * alone are exact names (a list with `|` or `,`: `code-reviewer` is one name); anything else is an
 * unanchored JavaScript regex (an invalid one matches nothing). Read as 2.1.191 and later read it:
 * before, `,` and spaces made a regex, under which `Bash, AskUserQuestion` ran for no tool (README).
 */
export function matcherCovers(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true
  if (typeof matcher !== 'string') return false
  if (/^[\w\s,|-]+$/.test(matcher)) return matcher.split(/[|,]/).some((name) => name.trim() === tool)
  try {
    return new RegExp(matcher).test(tool)
  } catch {
    return false
  }
}

/**
 * A copy of the settings to merge into, with their `hooks` object (made when there is none), each
 * event in it a list: any event's, not ours alone (`"Stop": null`), since Claude Code skips the
 * whole file for one that is not (`/doctor`: `hooks.UserPromptSubmit: Expected array, but received
 * null`), our hooks merged beside it included.
 */
function copyWithHooks(current: unknown): { settings: Record<string, unknown>; hooks: Record<string, unknown> } {
  if (!isObject(current)) throw new SettingsShapeError('the settings file is not a JSON object')
  const settings: Record<string, unknown> = structuredClone(current)
  if (settings.hooks === undefined) settings.hooks = {}
  // `null` is no "no hooks" to Claude Code: its schema takes an object or none, as for a matcher.
  if (!isObject(settings.hooks)) throw notShaped('hooks', settings.hooks, 'an object', '{} (no hooks)')
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) throw notShaped(`hooks.${event}`, groups, 'a list', '[] (no hooks)')
    for (const [i, g] of groups.entries()) groupNotShaped(`hooks.${event}.${i}`, g)
  }
  return { settings, hooks: settings.hooks as Record<string, unknown> }
}

/** How a hook is written inside its group, said in the mend of a group that is not one. */
const GROUP_SHAPE = '{"matcher": "", "hooks": [{"type": "command", "command": "…"}]}'

/**
 * Throws for a matcher group that is not an object (`"Stop": ["notify-send"]`), or has no `hooks`
 * list: most often a hook written without its group (`"SessionStart": [{"type": "command",
 * "command": "x"}]`), for which Claude Code skips the whole file (`hooks.SessionStart.0.hooks:
 * Expected array, but received undefined`; techwolf-ai/ai-first-toolkit#11,
 * anthropics/claude-code#49990), the hooks merged beside it included.
 */
function groupNotShaped(path: string, group: unknown): void {
  if (!isObject(group)) throw notShaped(path, group, 'a hook group', `a group, ${GROUP_SHAPE},`)
  if (Array.isArray(group.hooks)) return
  if (group.hooks !== undefined) throw notShaped(`${path}.hooks`, group.hooks, 'a list', '[] (no hooks), or a list of hooks,')
  // A hook written where its group goes (it has a command, or a type) is mended by wrapping it.
  const bare = group.command !== undefined || group.type !== undefined
  throw new SettingsShapeError(
    `"${path}" has no "hooks" list${bare ? ', a hook written without its group' : ''}: Claude Code skips a settings file with such a group whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; ` +
      (bare ? `put the hook inside a group, ${GROUP_SHAPE}, or take it out` : `give it one, ${GROUP_SHAPE}, or take it out`),
  )
}

/** How a command hook is written, said in the mend of an entry that is not one. */
const ENTRY_SHAPE = '{"type": "command", "command": "…"}'

/**
 * Throws for the first hook entry, under any event, in a group's `hooks` list that Claude Code's
 * schema does not take: not an object (a bare command string, `null`), without a `type` string, or
 * a `"type": "command"` without a `command` string. Claude Code checks each entry against the hook
 * types it knows, and skips the whole settings file for one that fits none
 * (`hooks.PreToolUse.0.hooks.0.command: Expected string`; affaan-m/ECC#1474 for a plugin's hooks,
 * the same schema), the hooks merged beside it included. Read in the settings merged (mergeHooks,
 * mergeGuard), where an entry of ours without its `type` has been given one; a `type` Claude Code
 * may add later (`mcp_tool` is recent) is its to read. Positions are the file's: merging only
 * appends groups.
 */
export function hookEntryNotShaped(settings: Record<string, unknown>): void {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue
    for (const [i, g] of groups.entries()) {
      if (!isObject(g) || !Array.isArray(g.hooks)) continue
      for (const [j, entry] of g.hooks.entries()) entryNotShaped(`hooks.${event}.${i}.hooks.${j}`, entry)
    }
  }
}

function entryNotShaped(path: string, entry: unknown): void {
  if (!isObject(entry)) throw notShaped(path, entry, 'a hook', `a hook, ${ENTRY_SHAPE},`)
  const skipped = 'Claude Code skips a settings file with such a hook whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; '
  if (typeof entry.type !== 'string') {
    const has = entry.type === undefined ? 'has no "type"' : `has a "type" that is ${kindOf(entry.type)}, not a string`
    throw new SettingsShapeError(`"${path}" ${has}: ${skipped}give it one ("command" for a command, ${ENTRY_SHAPE}) or take it out`)
  }
  if (entry.type === 'command' && typeof entry.command !== 'string') {
    const has = entry.command === undefined ? 'no "command"' : `a "command" that is ${kindOf(entry.command)}, not a string`
    throw new SettingsShapeError(`"${path}" is a command hook with ${has}: ${skipped}give it the command to run, ${ENTRY_SHAPE}, or take it out`)
  }
}

/** What a JSON value is, said in a message: `null`, `a list`, `an object`, `a string`. */
function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * A settings field that is not the shape Claude Code's schema takes (`"hooks": null`, `"hooks":
 * {"PreToolUse": null}`): Claude Code does not read it as none, but skips the whole file ("Files
 * with errors are skipped entirely"), every setting in it, so hooks merged there would never run.
 * Refused, nothing written: written over, the rest of a file Claude Code has been skipping would
 * start to apply unseen.
 */
function notShaped(path: string, value: unknown, shape: string, fix: string): SettingsShapeError {
  return new SettingsShapeError(
    `"${path}" is ${kindOf(value)}, not ${shape}: Claude Code skips a settings file with such a field whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; ` +
      `make it ${fix} or take it out`,
  )
}

/**
 * The first matcher group, under any event, whose `matcher` is there but not a string (`null`, a
 * number, a list, an object): Claude Code's schema takes a string or none, and skips the whole
 * settings file for one such group (its startup dialog: `hooks.PreToolUse.0.matcher: Expected
 * string, but received object`; under `-p`, nothing said), the hooks merged beside it included.
 */
function matcherNotText(hooks: Record<string, unknown>): { path: string; what: string } | undefined {
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue
    for (const [i, g] of groups.entries()) {
      if (!isObject(g) || g.matcher === undefined || typeof g.matcher === 'string') continue
      return { path: `hooks.${event}.${i}.matcher`, what: kindOf(g.matcher) }
    }
  }
  return undefined
}

/** Our hook's commands at the events mergeHooks writes, each with the events whose groups hold it. */
export type HeldCommands = Array<{ command: string; events: string[] }>

/**
 * Settings whose hook entries, at the events mergeHooks writes, would keep different commands, no
 * one of them (its `--budget` aside) held at every event (`hook --user alice` at SessionStart and
 * PostToolUse, `hook` at PreToolUse; another variable before it, another --spool): written on,
 * one install would plan for one user or service and record for another. Refused, unless the
 * command was given (--command), which is then written at every event. `held`: each command as it
 * would be written, with its events.
 */
export class DifferingHooksError extends Error {
  constructor(readonly held: HeldCommands) {
    super(`decision-memory's hook would keep ${held.length} different commands at the events install-hooks writes`)
    this.name = 'DifferingHooksError'
  }
}

/**
 * Merges decision-memory's hooks into Claude Code settings without clobbering them: every other
 * key, event and hook is kept; an entry of an earlier install (another path) gets the new command;
 * either, or one already running `command`, gets the fields a new entry has where it lacks them
 * (`type`, `timeout`), and keeps those it has. Every event ends with one user and service, the
 * same command but for its `--budget`: the one an entry at each event would be moved to
 * (movedCommand, keeping the flags and variables the user set), `command` first among several;
 * where none is at every event, `command` as given when `given` (--command; what they held is
 * said in `differing`), else DifferingHooksError. Pure: returns new settings and the changes.
 */
export function mergeHooks(
  current: unknown,
  command: string,
  budgetOf?: FlagReader,
  given = false,
): { settings: Record<string, unknown>; changes: SettingsChange[]; differing: HeldCommands } {
  const needs = (hook: string) => (budgetOf === undefined ? undefined : hookBudgetOf(hook, budgetOf))
  const { settings, hooks } = copyWithHooks(current)
  const notText = matcherNotText(hooks)
  if (notText !== undefined) {
    throw new SettingsShapeError(
      `"${notText.path}" is ${notText.what}, not a string: Claude Code skips a settings file with such a matcher whole ("Files with errors are skipped entirely"), every hook in it, so hooks written there would never run; ` +
        'make it a string ("Bash", "Edit|Write", "" for every tool) or take it out',
    )
  }
  const changes: SettingsChange[] = []
  // An entry of an earlier install under any event, in a group that runs for it or not: with none
  // that does, an event gets the flags and variables the user set there (`--user alice`), not the
  // bare command, which would be another user's.
  const installed = DECISION_MEMORY_HOOKS.flatMap(({ event }) => (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []))
    .flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? g.hooks : []))
    .find((e): e is HookEntry & { command: string } => isObject(e) && typeof e.command === 'string' && e.command !== command && OURS.test(e.command))
  const ours = DECISION_MEMORY_HOOKS.map(({ event, matcher, runsFor }) => {
    if (hooks[event] === undefined) hooks[event] = []
    // A list: copyWithHooks refuses settings with an event that is not.
    const groups = hooks[event] as unknown[]
    // Only an entry in a group that runs for the tool is one: our command under `"matcher": "Bash"`
    // never sees a question, and updating it there would report a hook that does not run; nor
    // does a SessionStart under `"matcher": "compact"` see a session start. Each with the command
    // it would be moved to, keeping the flags and variables the user set around it (movedCommand).
    const entries = (groups as MatcherGroup[]).flatMap((g) =>
      isObject(g) && Array.isArray(g.hooks) && matcherCovers(g.matcher, runsFor)
        ? g.hooks
            .filter((e): e is HookEntry & { command: string } => isObject(e) && typeof e.command === 'string' && (e.command === command || OURS.test(e.command)))
            .map((e) => {
              const moved = e.command === command ? command : movedCommand(e.command, command)
              return { e, group: g.matcher, moved, key: budgetAside(moved) }
            })
        : [],
    )
    return { event, matcher, groups, entries }
  })
  // One user and service at every event: a command held at each event that holds ours (`--budget`
  // aside, which may be longer for a PreToolUse, keeping the agent waiting at a question), `command`
  // first (one of two there, beside `--user alice`, is doubledHooks's to say). Chosen event by
  // event, SessionStart and PostToolUse would keep `hook --user alice` and PreToolUse `hook`: one
  // install planning for one user and recording for another.
  const held = ours.filter((o) => o.entries.length > 0)
  const common = [...new Set(held[0]?.entries.map((x) => x.key))].filter((key) => held.every((o) => o.entries.some((x) => x.key === key)))
  const key = common.includes(budgetAside(command)) ? budgetAside(command) : common[0]
  let differing: HeldCommands = []
  if (held.length > 0 && key === undefined) {
    differing = heldCommands(held)
    if (!given) throw new DifferingHooksError(differing)
  }
  // The entry an event is found at: of that user and service, `command` itself first.
  const pick = <T extends { e: HookEntry; moved: string; key: string }>(entries: readonly T[]): T | undefined =>
    key === undefined
      ? (entries.find(({ e }) => e.command === command) ?? entries[0])
      : (entries.find((x) => x.key === key && x.moved === command) ?? entries.find((x) => x.key === key))
  // What an event added runs: the command held at the others, with their flags (and the timeout
  // of the entry it is taken from, which those may need), taken from an event other than
  // PreToolUse where one holds it: a --budget longer there alone (`--budget 8000`, keeping the
  // agent waiting at a question) is PreToolUse's, and a SessionStart added took it, with a 9 s
  // timeout; with none held, an earlier install's in a group that runs for no event of it; where
  // they differ (given), `command`.
  const outsideQuestion = held.filter((o) => o.event !== 'PreToolUse').flatMap((o) => o.entries)
  const adding =
    held.length > 0
      ? key === undefined
        ? undefined
        : (pick(outsideQuestion) ?? pick(held.flatMap((o) => o.entries)))
      : installed === undefined
        ? undefined
        : { e: installed, moved: movedCommand(installed.command, command) }
  for (const { event, matcher, groups, entries } of ours) {
    const entry: HookEntry & { command: string } = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }
    const found = pick(entries)
    if (found !== undefined) {
      const earlier = found.e
      // Said with the matcher of the group it is in (`""`, `*`, `AskUserQuestion|Bash`), not ours.
      // SessionStart's matcher names how a session starts (`startup`, `resume`), not a tool.
      const every = matcher === undefined ? '' : ', every tool'
      const said = typeof found.group !== 'string' ? (matcher === undefined ? null : 'none, every tool') : found.group === '' ? `""${every}` : found.group
      // The command keeps the flags and variables the user set around the earlier one
      // (movedCommand); where the events differ in whose they are, it is `command` as given.
      if (key !== undefined) entry.command = found.moved
      entry.timeout = addedTimeout(undefined, needs(entry.command))
      // The fields a new entry has, where it lacks them (the timeout, to an install of before it
      // was written, or one pasted without it); what is there, set by the user, is kept.
      const missing = Object.entries(entry).filter(([field]) =>
        field === 'command' ? earlier.command !== entry.command : earlier[field] === undefined,
      )
      for (const [field, value] of missing) earlier[field] = value
      changes.push({ event, matcher: said, command: entry.command, action: missing.length === 0 ? 'unchanged' : 'updated' })
      continue
    }
    entry.command = adding?.moved ?? command
    // Its flags moved, its timeout too (`--budget 8000` under 10 s), or what they need.
    entry.timeout = addedTimeout(adding !== undefined && entry.command !== command ? adding.e.timeout : undefined, needs(entry.command))
    const group: MatcherGroup = { ...(matcher === undefined ? {} : { matcher }), hooks: [entry] }
    groups.push(group)
    changes.push({ event, matcher: matcher ?? null, command: entry.command, action: 'added' })
  }
  return { settings, changes, differing }
}

/**
 * A hook's command without its `--budget` (`--budget 8000`, `--budget=8000`, quoted or not): what
 * tells whose choices it sends, and to which service. Only compared, never written.
 */
function budgetAside(command: string): string {
  const found = OURS.exec(command)
  if (found === null) return command
  const from = found.index + found[0].length
  return command.slice(0, from) + command.slice(from).replace(/\s+--budget(?:=|\s+)(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s;&|<>()'"]+)/g, '')
}

/** Each command the entries held would be written with, with the events that hold it, in the order first held. */
function heldCommands(held: ReadonlyArray<{ event: string; entries: ReadonlyArray<{ moved: string }> }>): HeldCommands {
  const found = new Map<string, string[]>()
  for (const { event, entries } of held) {
    for (const { moved } of entries) {
      const events = found.get(moved) ?? []
      if (!events.includes(event)) events.push(event)
      found.set(moved, events)
    }
  }
  return [...found].map(([command, events]) => ({ command, events }))
}

/**
 * The decision-memory hook entries whose `timeout` (seconds) is not above the hook's budget (its
 * `--budget` flag, read by `budgetOf` as the hook reads it: hookBudgetMs, undefined its default):
 * Claude Code ends such a hook when the service is slow or down before the hook gives up on it: a
 * capture it had written beside the spool waits for the next call, one it had not is lost, and a
 * PreToolUse's question is asked as written (README). An entry set so by
 * the user is kept as it is (mergeHooks): only said.
 */
export function shortTimeouts(
  settings: Record<string, unknown>,
  budgetOf: FlagReader,
): Array<{ event: string; timeout: number; budgetMs: number }> {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  return DECISION_MEMORY_HOOKS.flatMap(({ event }) => (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).flatMap((g) => {
    const entries = isObject(g) && Array.isArray(g.hooks) ? g.hooks.filter(isObject) : []
    return entries.flatMap((e) => {
      if (typeof e.command !== 'string' || typeof e.timeout !== 'number') return []
      // One known only when the hook runs, or one the hook refuses (it then spools at its default
      // budget), is not judged.
      const budgetMs = hookBudgetOf(e.command, budgetOf)
      if (budgetMs === undefined) return []
      return e.timeout * 1000 <= budgetMs ? [{ event, timeout: e.timeout, budgetMs }] : []
    })
  }))
}

/**
 * The decision-memory hook entries that do nothing of their own: under PreToolUse or PostToolUse in
 * a group whose matcher does not run for AskUserQuestion (`"matcher": "Bash"`, pasted or moved
 * there by hand), where it sees no question and starts node, for nothing, at every call of the
 * tools it names; and under any event Claude Code knows but those mergeHooks writes (`Stop`, `UserPromptSubmit`),
 * whose payload the hook neither sends nor spools, only giving the spool its turn, as the hooks
 * at those events do. mergeHooks adds a group that does the work beside it and leaves it as it is.
 * Only said, with the event and the group's matcher as JSON (`"Bash"`; null for a group without
 * one at another event), `other` for an event mergeHooks does not write (whose matcher, if any,
 * names no tool: `noTool` is false there).
 */
export function strayHooks(settings: Record<string, unknown>): Array<{ event: string; matcher: string | null; noTool: boolean; other: boolean }> {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  const holdsOurs = (g: unknown): g is MatcherGroup =>
    isObject(g) && Array.isArray(g.hooks) && g.hooks.some((e) => isObject(e) && typeof e.command === 'string' && OURS.test(e.command))
  const groupsOf = (event: string) => (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).filter(holdsOurs)
  const tools = DECISION_MEMORY_HOOKS.filter(({ matcher }) => matcher !== undefined).flatMap(({ event, runsFor }) =>
    groupsOf(event)
      .filter((g) => !matcherCovers(g.matcher, runsFor))
      .map((g) => ({ event, matcher: JSON.stringify(g.matcher), noTool: matchesNoTool(g.matcher), other: false })),
  )
  const others = Object.keys(hooks)
    // Under an event Claude Code does not know it never runs: unknownEvents says that event.
    .filter((event) => !DECISION_MEMORY_HOOKS.some((h) => h.event === event) && CLAUDE_CODE_EVENTS.includes(event))
    .flatMap((event) =>
      groupsOf(event).map((g) => ({ event, matcher: typeof g.matcher === 'string' ? JSON.stringify(g.matcher) : null, noTool: false, other: true })),
    )
  return [...tools, ...others]
}

/**
 * The guard entries that never deny a command: under PreToolUse in a group whose matcher runs for no
 * shell tool (GUARDED_TOOLS: `"matcher": "AskUserQuestion"`, pasted or moved there by hand), where
 * it checks no command, and under any other event Claude Code knows (PostToolUse, when the command has already run;
 * Stop), where the guard, which answers a PreToolUse payload alone, lets it pass at once; in both,
 * it starts node, for nothing, each time its group runs. mergeGuard adds a group that runs for
 * the shell tools (with --guard) and leaves these as they are. Only said, with the event, the
 * group's matcher as JSON (null for a group without one, which runs for every tool: at PreToolUse
 * no stray), and whether a guard in a PreToolUse group that runs for a shell tool is there (`guarded`).
 */
export function strayGuards(settings: Record<string, unknown>): Array<{ event: string; matcher: string | null; noTool: boolean; guarded: boolean }> {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  const groupsOf = (event: string) =>
    (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).filter((g): g is MatcherGroup & { hooks: unknown[] } => isObject(g) && Array.isArray(g.hooks))
  const holdsGuard = (g: { hooks: unknown[] }) => g.hooks.some((e) => isObject(e) && typeof e.command === 'string' && OURS_GUARD.test(e.command))
  const forShell = (g: MatcherGroup) => GUARDED_TOOLS.some((tool) => matcherCovers(g.matcher, tool))
  const guarded = groupsOf('PreToolUse').some((g) => forShell(g) && holdsGuard(g))
  // Under an event Claude Code does not know it never runs: unknownEvents says that event.
  return Object.keys(hooks).filter((event) => CLAUDE_CODE_EVENTS.includes(event)).flatMap((event) =>
    groupsOf(event)
      .filter((g) => holdsGuard(g) && (event !== 'PreToolUse' || !forShell(g)))
      .map((g) => ({ event, matcher: typeof g.matcher === 'string' ? JSON.stringify(g.matcher) : null, noTool: matchesNoTool(g.matcher), guarded })),
  )
}

/**
 * Our hook twice at one event with different commands, each in a group that runs for it (`"*"`
 * and `"AskUserQuestion"`; one with `--user alice`, one without): Claude Code runs every matching
 * hook, an identical command once (hooks reference: "identical handlers are deduplicated"), so
 * each of these runs for every question, or session start. mergeHooks keeps them as they are.
 * Only said, with the matchers of their groups as JSON (`none` for a group without one) and how
 * many commands run.
 */
export function doubledHooks(settings: Record<string, unknown>): Array<{ event: string; matchers: string[]; runs: number }> {
  return DECISION_MEMORY_HOOKS.flatMap(({ event }) => {
    const found = runningHooks(settings, event)
    const commands = new Set(found.map((f) => f.command))
    if (commands.size < 2) return []
    const matchers = [...new Set(found.map((f) => (f.matcher === undefined ? 'none' : JSON.stringify(f.matcher))))]
    return [{ event, matchers, runs: commands.size }]
  })
}

/** Our hook entries at `event` in a group that runs for it (a question; SessionStart, a start), with their group's matcher. */
function runningHooks(settings: unknown, event: string): Array<{ command: string; matcher: unknown }> {
  const runsFor = DECISION_MEMORY_HOOKS.find((h) => h.event === event)?.runsFor ?? ''
  const hooks = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {}
  return (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).flatMap((g) =>
    isObject(g) && Array.isArray(g.hooks) && matcherCovers(g.matcher, runsFor)
      ? g.hooks.flatMap((e) => (isObject(e) && typeof e.command === 'string' && OURS.test(e.command) ? [{ command: e.command, matcher: g.matcher }] : []))
      : [],
  )
}

/**
 * The events at which `other` (another settings file Claude Code reads beside these: the user's,
 * or a project's) runs our hook with a command `settings` does not: Claude Code runs the hooks of
 * every settings file it reads, an identical command once, so both run. Each with those commands.
 */
export function hooksRunBeside(settings: Record<string, unknown>, other: unknown): Array<{ event: string; commands: string[] }> {
  return DECISION_MEMORY_HOOKS.flatMap(({ event }) => {
    const own = new Set(runningHooks(settings, event).map((h) => h.command))
    if (own.size === 0) return []
    const commands = [...new Set(runningHooks(other, event).map((h) => h.command))].filter((c) => !own.has(c))
    return commands.length === 0 ? [] : [{ event, commands }]
  })
}

/** The Claude Code whose hook events CLAUDE_CODE_EVENTS are: a later one may know more. */
export const CLAUDE_CODE_EVENTS_VERSION = '2.1.303'

/**
 * The hook events of Claude Code's hooks reference, the 33 of 2.1.303 (its `/doctor` lists those it
 * knows: `Valid events: PreToolUse, PostToolUse, …`). Events are keys, read as written: `preToolUse`
 * is none of them.
 */
export const CLAUDE_CODE_EVENTS: readonly string[] = [
  'SessionStart', 'Setup', 'UserPromptSubmit', 'UserPromptExpansion', 'PreToolUse', 'PermissionRequest', 'PermissionDenied',
  'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'SubagentStart', 'SubagentStop', 'TaskCreated',
  'TaskCompleted', 'Stop', 'StopFailure', 'TeammateIdle', 'InstructionsLoaded', 'ConfigChange', 'CwdChanged', 'FileChanged',
  'WorktreeCreate', 'WorktreeRemove', 'PreCompact', 'PostCompact', 'Elicitation', 'ElicitationResult', 'SessionEnd',
  'PreModelSwitch', 'PostModelSwitch', 'MessageDisplay', 'DirectoryAdded',
]

/**
 * The events of `hooks` that hold a list (any other is refused, copyWithHooks) under a name no
 * event of Claude Code's has (CLAUDE_CODE_EVENTS): most often a typo (`PreToolCall`, `preToolUse`),
 * whose hooks never run. Claude Code 2.1.141 and later ignore such an event with a warning
 * (`Unknown hook event "…" was ignored`); some versions before (2.1.85 among them) skipped the
 * whole file for it (`hooks.PreToolCall: Invalid key in record`; ace-step/ACE-Step-DAW#1255), the
 * hooks merged beside it included. Only said: an event of a Claude Code newer than this list is
 * read there. Each with the events it is nearest to, when near enough to be the one meant.
 */
export function unknownEvents(settings: Record<string, unknown>): Array<{ event: string; near: string[] }> {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  return Object.keys(hooks)
    .filter((event) => Array.isArray(hooks[event]) && !CLAUDE_CODE_EVENTS.includes(event))
    .map((event) => ({ event, near: nearestEvents(event) }))
}

/**
 * The known events `name` may be a slip of: the same but for case and separators (`preToolUse`,
 * `pre_tool_use`, `"PreToolUse "`); else those a letter or two from it, added, dropped, changed or
 * swapped (`Stp`, `SessionStrat`), the nearest, where the name is long enough for that to be a
 * slip (two in `PostToolUs`, one in `Stp`); else those with the same words but one (`PreToolCall`:
 * `PreToolUse`; `PostToolCall`: `PostToolUse` and `PostToolBatch`), the words it shares more than
 * half of it, or with one word more or fewer (`UserPrompt`, `Teammate`), a word also
 * read as the one it begins (`PostCompaction`). Measured by letters alone, a name sharing a short
 * word was taken for an event it has nothing of (`PreCommit` for PreCompact, `TaskUpdated` for
 * TaskCreated, `AfterToolUse` for PreToolUse alone, `SessionResume` for SessionEnd alone).
 */
function nearestEvents(name: string): string[] {
  const flat = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '')
  const cased = CLAUDE_CODE_EVENTS.filter((event) => flat(event) === flat(name))
  if (cased.length > 0) return cased
  const slips = CLAUDE_CODE_EVENTS.map((event) => ({ event, edits: editDistance(flat(name), flat(event)) })).filter(
    ({ event, edits }) => edits <= 2 && edits * 3 <= Math.max(flat(event).length, flat(name).length),
  )
  if (slips.length > 0) {
    const fewest = Math.min(...slips.map(({ edits }) => edits))
    return slips.filter(({ edits }) => edits === fewest).map(({ event }) => event)
  }
  // Every word the event's, where one is (`PostCompaction`: PostCompact, not PreCompact).
  const words = wordsOf(name)
  const alike = CLAUDE_CODE_EVENTS.filter((event) => wordsAlike(words, wordsOf(event)))
  return alike.length > 0 ? alike : CLAUDE_CODE_EVENTS.filter((event) => wordsNear(words, wordsOf(event)))
}

/** The words of an event's name, in lower case: `PreToolUse` is pre, tool, use; `pre_tool_use` too. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
}

/** One word for another: the same, or one the other begins, both of four letters or more (`compaction`, `compact`). */
function sameWord(a: string, b: string): boolean {
  return a === b || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a)))
}

/** Whether the words of a name are an event's, each the same or one it begins (sameWord). */
function wordsAlike(name: string[], event: string[]): boolean {
  return name.length === event.length && name.every((word, i) => sameWord(word, event[i] as string))
}

/**
 * Whether the words of a name are an event's but one: one word of it another (the words it shares
 * more than half its letters), or one word more or fewer, in the same order.
 */
function wordsNear(name: string[], event: string[]): boolean {
  if (name.length === event.length) {
    const shared = name.filter((word, i) => sameWord(word, event[i] as string))
    const letters = (list: string[]) => list.join('').length
    return shared.length === name.length - 1 && 2 * letters(shared) > letters(name)
  }
  const [shorter, longer] = name.length < event.length ? [name, event] : [event, name]
  if (shorter.length === 0 || longer.length !== shorter.length + 1) return false
  return longer.some((_, k) => {
    const rest = longer.filter((__, i) => i !== k)
    return rest.every((word, i) => sameWord(word, shorter[i] as string))
  })
}

/** A matcher read as a regex that JavaScript cannot read (`(Bash`), which matches no tool (matcherCovers). */
function matchesNoTool(matcher: unknown): boolean {
  if (typeof matcher !== 'string' || matcher === '' || matcher === '*' || /^[\w\s,|-]+$/.test(matcher)) return false
  try {
    new RegExp(matcher)
    return false
  } catch {
    return true
  }
}

/** Kept for the guard's start (node, its one module) on top of its waits: a fraction of a second. */
export const GUARD_START_MS = 500

/**
 * The guard entries (PreToolUse) whose `timeout` (seconds) is not above what the guard may take:
 * its `--timeout` for the payload on stdin, then as long again for the service (GUARD_HELP), and
 * GUARD_START_MS to start. Claude Code ends a hook at its entry's timeout and takes that as a
 * non-blocking error (hooks reference), so a service slower than the entry lets the command run,
 * with `--fail-closed` too, and nothing says why. `timeoutOf` reads a `--timeout` value as the guard
 * does (guardTimeoutMs; undefined, the default), throwing for one it does not take: such an entry
 * exits at once on its flag mistake, and is left out. Only said.
 */
export function shortGuardTimeouts(
  settings: Record<string, unknown>,
  timeoutOf: FlagReader,
): Array<{ matcher: string; timeout: number; timeoutMs: number; takesMs: number }> {
  const hooks = isObject(settings.hooks) ? settings.hooks : {}
  const groups = Array.isArray(hooks.PreToolUse) ? (hooks.PreToolUse as unknown[]) : []
  return groups.flatMap((g) => {
    const entries = isObject(g) && Array.isArray(g.hooks) ? g.hooks.filter(isObject) : []
    // Said as mergeGuard says it: the guard has a group for each shell tool, often one apiece.
    const matcher = !isObject(g) || typeof g.matcher !== 'string' ? 'none, every tool' : g.matcher === '' ? '"", every tool' : g.matcher
    return entries.flatMap((e) => {
      if (typeof e.command !== 'string' || typeof e.timeout !== 'number') return []
      const timeoutMs = guardTimeoutOf(e.command, timeoutOf)
      if (timeoutMs === undefined) return []
      const takesMs = guardTakesMs(timeoutMs)
      return e.timeout * 1000 <= takesMs ? [{ matcher, timeout: e.timeout, timeoutMs, takesMs }] : []
    })
  })
}

/** Stands for what the shell a command runs inside expands (`$T` inside its double quotes): known only when it runs. */
const EXPANDED = '\u0000'

/**
 * The value of a flag (`--timeout`, `--budget`) in the words after `guard` or `hook` (from `from` in
 * `command`), as sh gives them to the command and its parser reads them: `--timeout 6000`,
 * `--timeout=6000`, quoted (`'6000'`, `"6000"`) or not; undefined when not given (or after `--`),
 * up to the end of the command (`;`, `&`, `|`, a redirection). Run inside quotes of a shell of the
 * user's (`bash -lc '… guard …'`, `bash -lc "… guard --timeout \"3000\""`), the words are read
 * as that shell gets them: up to the quote closing them, unescaped as the outer shell unescapes
 * them; what follows that quote (`2>'/tmp/guard log'`) is none of them. Null when a word is known
 * only when the hook runs (`$T`, a backtick, inside those quotes or out), or when the flag is given
 * twice, a mistake the command exits on at once: the entry is not judged. Given last with no value,
 * `''`, which the command refuses too.
 */
function flagValue(command: string, from: number, name: string): string | undefined | null {
  const words = wordsAfter(command, from)
  // A word known only when the hook runs: the entry is not judged.
  if (words === null || words.includes(null)) return null
  let value: string | undefined
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string
    if (w === '--') break
    const given = w === name ? (words[++i] ?? '') : w.startsWith(`${name}=`) ? w.slice(name.length + 1) : undefined
    if (given === undefined) continue
    // Given twice, a flag mistake the command exits on at once (parseFlags): judged by neither value.
    if (value !== undefined) return null
    value = given
  }
  return value
}

/**
 * The words of our hook's command after `hook`, as sh gives them to it (flagValue reads its flags
 * in them): `--user 'alice smith'` is two, `bash -lc "node … hook" x` none (`x` is bash's `$0`),
 * up to the end of the command (`;`, `&`, `|`, a redirection, a line end) outside quotes; null
 * for a word known only when it runs (`$U`). Undefined when `command` runs no `decision-memory … hook`.
 */
export function hookWords(command: string): Array<string | null> | undefined {
  const found = OURS.exec(command)
  if (found === null) return undefined
  return wordsAfter(command, found.index + found[0].length) ?? [null]
}

/**
 * The words after `from` in `command`, as sh gives them to the command there. Run inside quotes
 * of a shell of the user's (`bash -lc '… guard …'`, `bash -lc "… guard --timeout \"3000\""`),
 * the words are read as that shell gets them: up to the quote closing them, unescaped as the outer
 * shell unescapes them; what follows that quote (`2>'/tmp/guard log'`) is none of them. Null
 * inside a backtick; a word known only when the command runs (`$T`, a backtick) is null.
 */
function wordsAfter(command: string, from: number): Array<string | null> | null {
  const quote = openQuote(command.slice(0, from))
  let rest = command.slice(from)
  if (quote === '`') return null
  if (quote === "'") {
    const close = rest.indexOf("'")
    rest = close === -1 ? rest : rest.slice(0, close)
  } else if (quote === '"') {
    // What the outer shell hands the inner one: `\"` a quote, `\$` a dollar; a bare `$` it expands.
    let inner = ''
    for (let i = 0; i < rest.length && rest[i] !== '"'; i++) {
      const c = rest[i] as string
      if (c === '\\' && i + 1 < rest.length && '"\\$`'.includes(rest[i + 1] as string)) inner += rest[++i]
      else inner += c === '$' || c === '`' ? EXPANDED : c
    }
    rest = inner
  }
  return shellWords(rest)
}

/** The words of `rest`, read as sh reads them (wordsAfter), up to the end of its first command; null for one it expands. */
function shellWords(rest: string): Array<string | null> {
  const words: Array<string | null> = []
  let word: string | undefined
  let expanded = false
  const end = () => {
    if (word !== undefined || expanded) words.push(expanded ? null : (word as string))
    word = undefined
    expanded = false
  }
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i] as string
    if (';&|<>()\n'.includes(c)) {
      break
    } else if (/\s/.test(c)) {
      end()
    } else if (c === '$' || c === '`' || c === EXPANDED) {
      expanded = true
    } else if (c === "'") {
      const close = rest.indexOf("'", i + 1)
      if (close === -1) break
      const text = rest.slice(i + 1, close)
      if (text.includes(EXPANDED)) expanded = true
      word = (word ?? '') + text
      i = close
    } else if (c === '"') {
      let text = ''
      let j = i + 1
      for (; j < rest.length && rest[j] !== '"'; j++) {
        if (rest[j] === '$' || rest[j] === '`' || rest[j] === EXPANDED) expanded = true
        if (rest[j] === '\\' && j + 1 < rest.length && '"\\$`'.includes(rest[j + 1] as string)) j++
        text += rest[j]
      }
      if (j >= rest.length) break
      word = (word ?? '') + text
      i = j
    } else if (c === '\\') {
      if (rest[i + 1] === EXPANDED) expanded = true
      word = (word ?? '') + (rest[i + 1] ?? '')
      i++
    } else {
      word = (word ?? '') + c
    }
  }
  end()
  return words
}

/**
 * The guard's command beside the hook's: the same variables, `node` and checkout, with `guard` for
 * `hook` and without the hook's own flags (`--user`, `--spool`), which the guard does not take.
 * Null when `hookCommand` runs no `decision-memory … hook` (a wrapper script), or runs it inside
 * quotes (`bash -lc 'node … hook'`): the guard's command cannot be told from it, and cut after
 * `guard` it would leave the quote open, a syntax error sh exits 2 on, which blocks every Bash call.
 */
export function guardCommandOf(hookCommand: string): string | null {
  const found = OURS.exec(hookCommand)
  if (found === null) return null
  const guard = `${hookCommand.slice(0, found.index)}${found[0].replace(/hook$/, 'guard')}`
  return quotesClosed(guard) ? guard : null
}

/** Whether sh reads `command` to its end outside any quote (a backslash escapes outside single quotes). */
function quotesClosed(command: string): boolean {
  return openQuote(command) === null
}

/** The quote sh is inside at the end of `command` (`'`, `"` or a backtick), or null. */
function openQuote(command: string): string | null {
  let quote: string | null = null
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string
    if (c === '\\' && quote !== "'") i++
    else if (quote === null && (c === "'" || c === '"' || c === '`')) quote = c
    else if (c === quote) quote = null
  }
  return quote
}

/**
 * Merges the guard (R-CON-3), a PreToolUse hook on the shell tools (GUARDED_TOOLS: Bash, and
 * PowerShell, Claude Code's shell on Windows), into Claude Code settings as mergeHooks merges the
 * others: kept where a group that runs for a tool has it (moved to `command` from an earlier
 * install's as movedCommand moves a hook, keeping the flags after `guard` such as `--fail-closed`
 * and the variables before it); for the tools no group holds it for, added in a group of their own
 * (`Bash|PowerShell`, or `PowerShell` beside an install of before it, on Bash alone), with the
 * command of the one kept. Pure: returns new settings and the changes.
 */
export function mergeGuard(current: unknown, command: string, timeoutOf?: FlagReader): { settings: Record<string, unknown>; changes: SettingsChange[] } {
  const needs = (guard: string) => {
    const timeoutMs = timeoutOf === undefined ? undefined : guardTimeoutOf(guard, timeoutOf)
    return timeoutMs === undefined ? undefined : guardTakesMs(timeoutMs)
  }
  const { settings, hooks } = copyWithHooks(current)
  if (hooks.PreToolUse === undefined) hooks.PreToolUse = []
  // A list: copyWithHooks refuses settings with an event that is not.
  const groups = hooks.PreToolUse as unknown[]
  const changes: SettingsChange[] = []
  const kept = new Set<HookEntry>()
  const unguarded: string[] = []
  // The command a group added for the other tools gets: the one kept, with its flags (`--fail-closed`).
  let written: string | undefined
  // And its timeout, which those flags may need (`--timeout 3000` under 10 s).
  let writtenTimeout: unknown
  for (const tool of GUARDED_TOOLS) {
    // Only a group that runs for the tool holds the guard: under `"matcher": "AskUserQuestion"` it checks nothing.
    const found = (groups as MatcherGroup[])
      .flatMap((g) => (isObject(g) && Array.isArray(g.hooks) && matcherCovers(g.matcher, tool) ? g.hooks.filter(isObject).map((e) => ({ e: e as HookEntry, group: g.matcher })) : []))
      .find(({ e }) => typeof e.command === 'string' && (e.command === command || OURS_GUARD.test(e.command)))
    if (found === undefined) {
      unguarded.push(tool)
      continue
    }
    // One entry in a group for both (`Bash|PowerShell`, `*`) is said once.
    if (kept.has(found.e)) continue
    kept.add(found.e)
    const earlier = found.e
    const entry: HookEntry & { command: string } = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }
    // Moved as a hook is (movedCommand), keeping its flags (`--fail-closed`) and the variables before
    // it (`DECISION_MEMORY_URL=…`: dropped, it would ask another service); run inside quotes of the
    // user's own (`bash -lc '… guard --fail-closed'`), kept as written: moved, its closing quote
    // would be left open, and sh's exit 2 blocks every Bash call.
    if (earlier.command !== command) entry.command = movedCommand(earlier.command as string, command, 'guard')
    entry.timeout = addedTimeout(undefined, needs(entry.command))
    const missing = Object.entries(entry).filter(([field]) => (field === 'command' ? earlier.command !== entry.command : earlier[field] === undefined))
    for (const [field, value] of missing) earlier[field] = value
    if (written === undefined) {
      written = entry.command
      writtenTimeout = earlier.timeout
    }
    const said = typeof found.group !== 'string' ? 'none, every tool' : found.group === '' ? '"", every tool' : found.group
    changes.push({ event: 'PreToolUse', matcher: said, command: entry.command, action: missing.length === 0 ? 'unchanged' : 'updated' })
  }
  if (unguarded.length > 0) {
    const matcher = unguarded.join('|')
    const added = written ?? command
    groups.push({ matcher, hooks: [{ type: 'command', command: added, timeout: addedTimeout(writtenTimeout, needs(added)) }] })
    changes.push({ event: 'PreToolUse', matcher, command: added, action: 'added' })
  }
  return { settings, changes }
}

/**
 * The guards of ours that an install without `--guard` leaves as they are, though the hooks as now
 * written would move them (another service's variables, another clone's path): each with its
 * group's matcher, what it runs and what `--guard` would make it run. None for hooks run inside
 * quotes of the user's own, which give no guard command.
 */
export function guardsLeftBehind(settings: unknown, hookCommand: string): Array<{ matcher: string; was: string; would: string }> {
  const guard = guardCommandOf(hookCommand)
  if (guard === null) return []
  const entriesOf = (s: unknown): Array<{ matcher: string; commands: Array<string | null> }> => {
    const groups = isObject(s) && isObject(s.hooks) && Array.isArray(s.hooks.PreToolUse) ? s.hooks.PreToolUse : []
    return groups.map((g) => ({
      matcher: isObject(g) && typeof g.matcher === 'string' ? g.matcher : '',
      commands: isObject(g) && Array.isArray(g.hooks) ? g.hooks.map((e) => (isObject(e) && typeof e.command === 'string' ? e.command : null)) : [],
    }))
  }
  // mergeGuard moves the guards it finds in place and adds groups after the others: a guard of an
  // earlier group whose command it changes is one left behind; one it would add is not there.
  const before = entriesOf(settings)
  const after = entriesOf(mergeGuard(settings, guard).settings)
  const left: Array<{ matcher: string; was: string; would: string }> = []
  for (const [i, group] of before.entries()) {
    for (const [j, was] of group.commands.entries()) {
      const would = after[i]?.commands[j]
      if (was !== null && typeof would === 'string' && would !== was && OURS_GUARD.test(was)) left.push({ matcher: group.matcher, was, would })
    }
  }
  return left
}

/** A hook's or guard's `decision-memory … hook` (or `guard`), its path's quote escaped or not. */
const OURS_ANY = /decision-memory(?:\.js)?(?:\\?["'])?\s+(?:hook|guard)\b/
/**
 * What runs a path's last word before `decision-memory`: `\"/…/`, `"/…/`, `'/…/'` or a bare
 * `/…/` that starts a word; not one with a `$` or backtick, known only when the hook runs.
 */
const PATH_BEFORE = /(?:\\"(\/[^"\\$`]*)|"(\/[^"\\$`]*)|'(\/[^'\\$`]*)|(?<![^\s'"])(\/[^\s'"\\$`]*))$/

/**
 * The absolute path of the `decision-memory.js` (or `decision-memory`) that a hook or guard run
 * inside quotes of the user's own names (`bash -lc 'node /old/…/bin/decision-memory.js hook'`, or
 * `bash -lc "node \"/old/…\" hook"`): kept as written, it is not moved to this checkout, so when
 * that path is gone it fails on every call. Undefined when the command runs it outside quotes
 * (moved on install), or names it by a path not known here (relative, `$HOME`, on the PATH).
 */
export function wrappedScriptOf(command: string): string | undefined {
  const found = OURS_ANY.exec(command)
  if (found === null || quotesClosed(command.slice(0, found.index + found[0].length))) return undefined
  const before = PATH_BEFORE.exec(command.slice(0, found.index))
  const folder = before?.slice(1).find((group) => group !== undefined)
  if (folder === undefined) return undefined
  return `${folder}${/^decision-memory(?:\.js)?/.exec(found[0])?.[0]}`
}
