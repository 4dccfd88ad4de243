import { describe, expect, it } from 'vitest'
import { DifferingHooksError, guardCommandOf, hookEntryNotShaped, hooksBlock, matcherCovers, mergeGuard, mergeHooks, SettingsShapeError, shortGuardTimeouts, strayGuards, strayHooks, unknownEvents, wrappedScriptOf } from './claude-code-settings'
import { guardTimeoutMs } from '../cli/guard'

const COMMAND = 'node "/opt/decision-memory/bin/decision-memory.js" hook'
const GUARD_COMMAND = COMMAND.replace(/ hook$/, ' guard')

describe('mergeHooks', () => {
  it('adds the three hooks to empty settings', () => {
    const { settings, changes } = mergeHooks({}, COMMAND)
    expect(changes.map((c) => [c.event, c.matcher, c.action])).toEqual([
      ['SessionStart', null, 'added'],
      ['PreToolUse', 'AskUserQuestion', 'added'],
      ['PostToolUse', 'AskUserQuestion', 'added'],
    ])
    expect(settings).toEqual(hooksBlock(COMMAND))
    expect(settings.hooks).toMatchObject({
      PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
    })
  })

  it('keeps every key and hook already there, and leaves the input untouched', () => {
    const current = {
      model: 'opus',
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }],
      },
    }
    const before = structuredClone(current)
    const { settings } = mergeHooks(current, COMMAND)
    expect(current).toEqual(before)
    expect(settings.model).toBe('opus')
    expect(settings.permissions).toEqual(before.permissions)
    const hooks = settings.hooks as Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>
    expect(hooks.Stop).toEqual(before.hooks.Stop)
    expect(hooks.PreToolUse?.map((g) => g.matcher)).toEqual(['Bash', 'AskUserQuestion'])
    expect(hooks.PreToolUse?.[0]).toEqual(before.hooks.PreToolUse[0])
  })

  it('changes nothing the second time, and moves an earlier install to the new command', () => {
    const once = mergeHooks({}, COMMAND).settings
    const twice = mergeHooks(once, COMMAND)
    expect(twice.settings).toEqual(once)
    expect(twice.changes.every((c) => c.action === 'unchanged')).toBe(true)
    const moved = mergeHooks(once, 'decision-memory hook')
    expect(moved.changes.every((c) => c.action === 'updated')).toBe(true)
    const hooks = moved.settings.hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>
    expect(Object.values(hooks).flatMap((gs) => gs.flatMap((g) => g.hooks.map((h) => h.command)))).toEqual([
      'decision-memory hook',
      'decision-memory hook',
      'decision-memory hook',
    ])
  })

  it('moves an earlier entry to the new command keeping the flags and variables the user set around it', () => {
    const atEvery = (command: string) => ({
      hooks: Object.fromEntries(
        ['SessionStart', 'PreToolUse', 'PostToolUse'].map((event) => [
          event,
          [{ ...(event === 'SessionStart' ? {} : { matcher: 'AskUserQuestion' }), hooks: [{ type: 'command', command, timeout: 5 }] }],
        ]),
      ),
    })
    type Hooks = Record<string, Array<{ hooks: Array<{ command: string }> }>>
    for (const [earlier, moved, action] of [
      ['npx decision-memory hook --user alice', `${COMMAND} --user alice`, 'updated'],
      ['DECISION_MEMORY_USER=alice DECISION_MEMORY_URL="http://127.0.0.1:7421" node "/old/bin/decision-memory.js" hook', `DECISION_MEMORY_USER=alice DECISION_MEMORY_URL="http://127.0.0.1:7421" ${COMMAND}`, 'updated'],
      // This command already, its flags the user's.
      [`${COMMAND} --user alice --spool /srv/spool.ndjson`, `${COMMAND} --user alice --spool /srv/spool.ndjson`, 'unchanged'],
    ] as const) {
      const { settings, changes } = mergeHooks(atEvery(earlier), COMMAND)
      const hooks = settings.hooks as Hooks
      expect(['SessionStart', 'PreToolUse', 'PostToolUse'].map((event) => hooks[event]?.[0]?.hooks[0]?.command)).toEqual([moved, moved, moved])
      // What is printed is what is written.
      expect(changes.map((c) => [c.action, c.command])).toEqual([
        [action, moved],
        [action, moved],
        [action, moved],
      ])
      // Run again, it changes nothing.
      expect(mergeHooks(settings, COMMAND).changes.every((c) => c.action === 'unchanged')).toBe(true)
    }
    // A value is kept as sh reads it, escaped or quoted in part; `env` before them is kept too.
    // A command substitution or parameter expansion is one word however many blanks it holds.
    for (const head of [
      'DECISION_MEMORY_USER=alice\\ smith ',
      'DECISION_MEMORY_USER=a"lice smith" ',
      "env DECISION_MEMORY_USER='alice smith' ",
      'DECISION_MEMORY_USER=$(id -un) ',
      'DECISION_MEMORY_USER=$(git config --get user.email) DECISION_MEMORY_URL=${DM_URL:-http://127.0.0.1:7420} ',
      'DECISION_MEMORY_USER=`id -un` ',
      // One level inside a substitution: a nested one, or arithmetic.
      'DECISION_MEMORY_SPOOL=$(dirname $(mktemp -u))/dm DECISION_MEMORY_USER=$(id -un) ',
      'DECISION_MEMORY_PORT=$((7400 + 21)) ',
    ]) {
      const moved = mergeHooks({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `${head}npx decision-memory hook` }] }] } }, COMMAND)
      expect((moved.settings.hooks as Hooks).SessionStart?.[0]?.hooks[0]?.command).toBe(`${head}${COMMAND}`)
    }
    // An event added beside an earlier entry (an install of before SessionStart) gets its flags, and its
    // timeout when longer than a new entry's: with 5 s for its --budget of 8000, it was warned of at once.
    const budgeted = { hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: `${COMMAND} --budget 8000`, timeout: 10 }] }] } }
    const started = mergeHooks(budgeted, COMMAND).settings.hooks as Record<string, Array<{ hooks: Array<{ command: string; timeout?: number }> }>>
    expect(['SessionStart', 'PostToolUse'].map((event) => started[event]?.[0]?.hooks[0])).toEqual([
      { type: 'command', command: `${COMMAND} --budget 8000`, timeout: 10 },
      { type: 'command', command: `${COMMAND} --budget 8000`, timeout: 10 },
    ])
    // A --budget longer at PreToolUse alone is that event's: an event added takes the command of
    // another event (PostToolUse's), not PreToolUse's budget and the timeout it needs.
    const longerAtQuestion = {
      hooks: {
        PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: `${COMMAND} --user alice --budget 8000`, timeout: 10 }] }],
        PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: `${COMMAND} --user alice`, timeout: 5 }] }],
      },
    }
    expect((mergeHooks(longerAtQuestion, COMMAND).settings.hooks as typeof started).SessionStart?.[0]?.hooks[0]).toEqual({
      type: 'command',
      command: `${COMMAND} --user alice`,
      timeout: 5,
    })
    const short = { hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: `${COMMAND} --user bob`, timeout: 3 }] }] } }
    expect((mergeHooks(short, COMMAND).settings.hooks as typeof started).SessionStart?.[0]?.hooks[0]?.timeout).toBe(5)
    // A command given with flags of its own (--command) replaces the earlier one's.
    const given = mergeHooks(atEvery(`${COMMAND} --user alice`), `${COMMAND} --user bob`).settings.hooks as Hooks
    expect(given.PostToolUse?.[0]?.hooks[0]?.command).toBe(`${COMMAND} --user bob`)
  })

  it('leaves one user and service at every event: refuses entries that differ there, unless the command is given', () => {
    // `--user alice` at SessionStart and PostToolUse, none at PreToolUse: each event was moved on
    // with its own, one install planning for `default` and recording for alice.
    const alice = { type: 'command', command: 'node /old/bin/decision-memory.js hook --user alice', timeout: 5 }
    const mixed = {
      hooks: {
        SessionStart: [{ matcher: '*', hooks: [{ ...alice }] }],
        PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'node /old/bin/decision-memory.js hook', timeout: 5 }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ ...alice }] }],
      },
    }
    expect(() => mergeHooks(mixed, COMMAND)).toThrow(DifferingHooksError)
    try {
      mergeHooks(mixed, COMMAND)
    } catch (error) {
      expect((error as DifferingHooksError).held).toEqual([
        { command: `${COMMAND} --user alice`, events: ['SessionStart', 'PostToolUse'] },
        { command: COMMAND, events: ['PreToolUse'] },
      ])
    }
    // Given (--command), it is written at every event as it is, and what they held is said.
    const given = mergeHooks(mixed, COMMAND, undefined, true)
    expect(given.changes.map((c) => [c.event, c.action, c.command])).toEqual([
      ['SessionStart', 'updated', COMMAND],
      ['PreToolUse', 'updated', COMMAND],
      ['PostToolUse', 'updated', COMMAND],
    ])
    expect(given.differing).toHaveLength(2)
    expect(mergeHooks(given.settings, COMMAND).differing).toEqual([])
    // Of two at an event, the one held at the others is kept there, and given to the event added;
    // with flags of its own, the command replaces them all.
    const doubled = {
      hooks: {
        PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'node /old/bin/decision-memory.js hook', timeout: 5 }] }, { matcher: '*', hooks: [{ ...alice }] }],
        PostToolUse: [{ matcher: '*', hooks: [{ ...alice }] }],
      },
    }
    expect(mergeHooks(doubled, COMMAND).changes.map((c) => [c.event, c.matcher, c.action, c.command])).toEqual([
      ['SessionStart', null, 'added', `${COMMAND} --user alice`],
      ['PreToolUse', '*', 'updated', `${COMMAND} --user alice`],
      ['PostToolUse', '*', 'updated', `${COMMAND} --user alice`],
    ])
    expect(mergeHooks(mixed, `${COMMAND} --user bob`).changes.map((c) => c.command)).toEqual([`${COMMAND} --user bob`, `${COMMAND} --user bob`, `${COMMAND} --user bob`])
    // A longer --budget at one event, which keeps the agent waiting at a question, is the same user and service.
    const budgets = { hooks: { ...mixed.hooks, PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ ...alice, command: `${alice.command} --budget '5000'`, timeout: 6 }] }] } }
    expect(mergeHooks(budgets, COMMAND).changes.map((c) => c.command)).toEqual([`${COMMAND} --user alice`, `${COMMAND} --user alice --budget '5000'`, `${COMMAND} --user alice`])
  })

  it('does not repeat the variables a command sets itself before an earlier one that set them, however often it is run', () => {
    const url = 'DECISION_MEMORY_URL=http://127.0.0.1:7421 '
    const pre = (command: string) => ({ hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command, timeout: 5 }] }] } })
    const written = (settings: Record<string, unknown>) => (settings.hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>).PreToolUse?.[0]?.hooks[0]?.command
    // `--command 'DECISION_MEMORY_URL=… node … hook'` over an install of it elsewhere: once, not
    // `DECISION_MEMORY_URL=… DECISION_MEMORY_URL=… node …`, one more each time.
    const once = mergeHooks(pre(`${url}node /old/bin/decision-memory.js hook --user bob`), `${url}${COMMAND}`)
    expect(written(once.settings)).toBe(`${url}${COMMAND} --user bob`)
    const twice = mergeHooks(once.settings, `${url}${COMMAND}`)
    expect(twice.settings).toEqual(once.settings)
    expect(twice.changes.every((c) => c.action === 'unchanged')).toBe(true)
    // What else the earlier one set is kept before them; a name that only ends as theirs is another.
    const moved = mergeHooks(pre(`DECISION_MEMORY_USER=alice ${url}node /old/bin/decision-memory.js hook`), `${url}${COMMAND}`)
    expect(written(moved.settings)).toBe(`DECISION_MEMORY_USER=alice ${url}${COMMAND}`)
    expect(mergeHooks(moved.settings, `${url}${COMMAND}`).changes.every((c) => c.action === 'unchanged')).toBe(true)
    expect(written(mergeHooks(pre(`MY_${url}node /old/bin/decision-memory.js hook`), `${url}${COMMAND}`).settings)).toBe(`MY_${url}${url}${COMMAND}`)
  })

  it('sets a variable --command sets to another value once, its value, the guard too, however often it changes', () => {
    const at = (port: number) => `DECISION_MEMORY_URL=http://127.0.0.1:${port} `
    const pre = (command: string, guard: string) => ({
      hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command, timeout: 5 }] }, { matcher: 'Bash', hooks: [{ type: 'command', command: guard, timeout: 5 }] }] },
    })
    const commands = (settings: Record<string, unknown>) =>
      (settings.hooks as Record<string, Array<{ matcher: string; hooks: Array<{ command: string }> }>>).PreToolUse?.map((g) => [g.matcher, g.hooks[0]?.command])
    const GUARD = COMMAND.replace(/hook$/, 'guard')
    let settings: Record<string, unknown> = pre(`DECISION_MEMORY_USER=alice ${at(7421)}node /old/bin/decision-memory.js hook`, `${at(7421)}node /old/bin/decision-memory.js guard --fail-closed`)
    // `--command` moving the service, twice: not `…7421 …7422 …7423 node …`, the guard's each twice more.
    for (const port of [7422, 7423]) {
      settings = mergeGuard(mergeHooks(settings, `${at(port)}${COMMAND}`).settings, `${at(port)}${GUARD}`).settings
      expect(commands(settings), String(port)).toEqual([
        ['AskUserQuestion', `DECISION_MEMORY_USER=alice ${at(port)}${COMMAND}`],
        ['Bash', `${at(port)}${GUARD} --fail-closed`],
        ['PowerShell', `${at(port)}${GUARD} --fail-closed`],
      ])
    }
    // After `env`, the same; what the command does not set is kept, `env` with it.
    const envd = mergeHooks(pre(`env DECISION_MEMORY_TOKEN=t0k ${at(7421)}node /old/bin/decision-memory.js hook`, GUARD), `${at(7422)}${COMMAND}`)
    expect(commands(envd.settings)?.[0]).toEqual(['AskUserQuestion', `env DECISION_MEMORY_TOKEN=t0k ${at(7422)}${COMMAND}`])
  })

  it('adds an event an earlier install lacks with the flags and variables the user set on the others', () => {
    const current = {
      hooks: {
        PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'npx decision-memory hook --user alice', timeout: 5 }] }],
        PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'npx decision-memory hook --user alice', timeout: 5 }] }],
      },
    }
    const { settings, changes } = mergeHooks(current, COMMAND)
    // A SessionStart of the default user would count alice's sessions for someone else.
    expect(changes.map((c) => [c.event, c.action, c.command])).toEqual([
      ['SessionStart', 'added', `${COMMAND} --user alice`],
      ['PreToolUse', 'updated', `${COMMAND} --user alice`],
      ['PostToolUse', 'updated', `${COMMAND} --user alice`],
    ])
    expect((settings.hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>).SessionStart?.[0]?.hooks[0]?.command).toBe(`${COMMAND} --user alice`)
    // A command given with flags of its own is written as given.
    expect(mergeHooks(current, `${COMMAND} --user bob`).changes[0]?.command).toBe(`${COMMAND} --user bob`)
  })

  it('keeps an earlier hook run inside quotes of the user as written, and adds the same beside it', () => {
    const wrapped = "bash -lc 'node /old/decision-memory/bin/decision-memory.js hook --user bob'"
    const current = { hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: wrapped, timeout: 5 }] }] } }
    const { changes } = mergeHooks(current, COMMAND)
    // Moved, it read `node "…" hook --user bob'`: a quote left open, sh exits 2, every question blocked.
    expect(changes.map((c) => [c.event, c.action, c.command])).toEqual([
      ['SessionStart', 'added', wrapped],
      ['PreToolUse', 'unchanged', wrapped],
      ['PostToolUse', 'added', wrapped],
    ])
  })

  it('knows an earlier hook inside a double-quoted wrapper, its path in escaped quotes, and adds no second hook beside it', () => {
    // The default command, `node "…/decision-memory.js" hook`, put inside bash -lc "…".
    const wrapped = 'bash -lc "node \\"/old/decision-memory/bin/decision-memory.js\\" hook --user bob"'
    const current = { hooks: { PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: wrapped, timeout: 5 }] }] } }
    const { settings, changes } = mergeHooks(current, COMMAND)
    expect(changes.map((c) => [c.event, c.action, c.command])).toEqual([
      ['SessionStart', 'added', wrapped],
      ['PreToolUse', 'unchanged', wrapped],
      ['PostToolUse', 'added', wrapped],
    ])
    expect((settings.hooks as { PreToolUse: unknown[] }).PreToolUse).toHaveLength(1)
    const guarded = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: wrapped.replace(/hook --user bob/, 'guard --fail-closed'), timeout: 5 }] }] } }
    // Kept as written under Bash; the group added for PowerShell runs the same.
    expect(mergeGuard(guarded, COMMAND.replace(/hook$/, 'guard')).changes.map((c) => [c.matcher, c.action])).toEqual([
      ['Bash', 'unchanged'],
      ['PowerShell', 'added'],
    ])
  })

  it('counts a SessionStart entry only in a group whose matcher runs at startup', () => {
    const current = {
      hooks: {
        SessionStart: [
          { matcher: 'compact', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] },
          { matcher: 'resume|clear', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] },
        ],
      },
    }
    const { settings, changes } = mergeHooks(current, COMMAND)
    // Neither group runs when a session starts: a group that does is added beside them.
    expect(changes[0]).toMatchObject({ event: 'SessionStart', action: 'added', matcher: null })
    expect((settings.hooks as Record<string, Array<{ matcher?: string }>>).SessionStart?.map((g) => g.matcher)).toEqual(['compact', 'resume|clear', undefined])
    for (const runs of ['startup', 'startup|resume', '*', '']) {
      const found = mergeHooks({ hooks: { SessionStart: [{ matcher: runs, hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }] } }, COMMAND)
      expect([runs, found.changes[0]?.action]).toEqual([runs, 'unchanged'])
    }
  })

  it('says the matcher of the group an entry is found in, not the one it would add', () => {
    const current = {
      hooks: {
        PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
        PostToolUse: [{ matcher: 'Ask.*|Write', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
      },
    }
    expect(mergeHooks(current, COMMAND).changes.map((c) => [c.event, c.matcher, c.action])).toEqual([
      ['SessionStart', 'startup', 'unchanged'],
      ['PreToolUse', '"", every tool', 'unchanged'],
      ['PostToolUse', 'Ask.*|Write', 'unchanged'],
    ])
    const none = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }] } }
    expect(mergeHooks(none, COMMAND).changes[1]?.matcher).toBe('none, every tool')
    // SessionStart's matcher says how a session starts, not which tool: no "every tool" there.
    const started = { hooks: { SessionStart: [{ matcher: '', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }] } }
    expect(mergeHooks(started, COMMAND).changes[0]?.matcher).toBe('""')
  })

  it('gives an entry it updates, or one of its command, the fields a new one has, keeping those set by the user', () => {
    const current = {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: 'npx decision-memory hook' }] }],
        PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'npx decision-memory hook', timeout: 30, note: 'mine' }] }],
        PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ command: COMMAND }] }],
      },
    }
    const { settings, changes } = mergeHooks(current, COMMAND)
    expect(changes.map((c) => c.action)).toEqual(['updated', 'updated', 'updated'])
    expect(settings.hooks).toEqual({
      SessionStart: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
      PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: COMMAND, timeout: 30, note: 'mine' }] }],
      PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ command: COMMAND, type: 'command', timeout: 5 }] }],
    })
    // Then as a new install: nothing more to change.
    expect(mergeHooks(settings, COMMAND).changes.every((c) => c.action === 'unchanged')).toBe(true)
  })

  it('counts an entry only in a group whose matcher runs for AskUserQuestion', () => {
    const current = {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
        PostToolUse: [{ matcher: 'Ask.*|Write', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }],
      },
    }
    const { settings, changes } = mergeHooks(current, COMMAND)
    expect(changes.map((c) => [c.event, c.action])).toEqual([
      ['SessionStart', 'added'],
      ['PreToolUse', 'added'],
      ['PostToolUse', 'unchanged'],
    ])
    const hooks = settings.hooks as Record<string, Array<{ matcher?: string }>>
    // The entry under Bash is the user's to remove; the one that runs for questions is added beside it.
    expect(hooks.PreToolUse?.map((g) => g.matcher)).toEqual(['Bash', 'AskUserQuestion'])
    expect(hooks.PostToolUse).toEqual(current.hooks.PostToolUse)
  })

  it('names the entries left in a group that runs for no question, for the user to remove (strayHooks)', () => {
    const guard = COMMAND.replace(/ hook$/, ' guard')
    const current = {
      hooks: {
        SessionStart: [{ matcher: 'compact', hooks: [{ type: 'command', command: COMMAND }] }],
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] },
          { matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: guard, timeout: 5 }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --check' }] },
        ],
        PostToolUse: [
          { matcher: 'Ask|mcp__my-server__ask', hooks: [{ type: 'command', command: COMMAND }] },
          { matcher: 'Ask.*|Write', hooks: [{ type: 'command', command: COMMAND }] },
        ],
      },
    }
    const { settings } = mergeHooks(current, COMMAND)
    // Our command under Bash and under a list naming no AskUserQuestion; not the guard, another
    // hook, one under a regex that runs for questions, nor a SessionStart under another source.
    expect(strayHooks(settings)).toEqual([
      { event: 'PreToolUse', matcher: '"Bash"', noTool: false, other: false },
      { event: 'PostToolUse', matcher: '"Ask|mcp__my-server__ask"', noTool: false, other: false },
    ])
    expect(strayHooks(mergeHooks({}, COMMAND).settings)).toEqual([])
    // At an event the hook does nothing at (not sent, not spooled), under any matcher or none; not
    // another hook there, nor the guard (strayGuards says it).
    const others = {
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: COMMAND }] }, { hooks: [{ type: 'command', command: 'notify.sh' }, { type: 'command', command: guard }] }],
        UserPromptSubmit: [{ matcher: '*', hooks: [{ type: 'command', command: COMMAND }] }],
      },
    }
    expect(strayHooks(mergeHooks(others, COMMAND).settings)).toEqual([
      { event: 'Stop', matcher: null, noTool: false, other: true },
      { event: 'UserPromptSubmit', matcher: '"*"', noTool: false, other: true },
    ])
  })

  it('names the guard entries that never deny a command: at PreToolUse for no shell tool, at any other event (strayGuards)', () => {
    const guard = (matcher?: string) => ({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command: GUARD_COMMAND }] })
    const current = {
      hooks: {
        SessionStart: [guard()],
        PreToolUse: [guard('AskUserQuestion'), guard('Bash')],
        PostToolUse: [guard('Bash'), guard('(Bash'), { matcher: 'Bash', hooks: [{ type: 'command', command: COMMAND }] }],
      },
    }
    expect(strayGuards(current)).toEqual([
      { event: 'SessionStart', matcher: null, noTool: false, guarded: true },
      { event: 'PreToolUse', matcher: '"AskUserQuestion"', noTool: false, guarded: true },
      { event: 'PostToolUse', matcher: '"Bash"', noTool: false, guarded: true },
      { event: 'PostToolUse', matcher: '"(Bash"', noTool: true, guarded: true },
    ])
    expect(strayGuards(mergeGuard(mergeHooks({}, COMMAND).settings, GUARD_COMMAND).settings)).toEqual([])
  })

  it('keeps our entry under a list of names with a `-`, which runs for AskUserQuestion: adds no group beside it', () => {
    // Letters, digits, `_`, `-`, spaces, `,` and `|` alone are a list of exact names (hooks
    // reference, Matcher patterns: `code-reviewer` is one name): Claude Code runs this group for
    // AskUserQuestion, and a second group would only repeat it.
    const current = { hooks: { PreToolUse: [{ matcher: 'AskUserQuestion, mcp__my-server__ask', hooks: [{ type: 'command', command: COMMAND, timeout: 5 }] }] } }
    const { settings, changes } = mergeHooks(current, COMMAND)
    expect(changes.find((c) => c.event === 'PreToolUse')).toMatchObject({ action: 'unchanged' })
    expect((settings.hooks as Record<string, Array<{ matcher?: string }>>).PreToolUse).toEqual(current.hooks.PreToolUse)
  })

  it.each([
    [undefined, true],
    ['', true],
    ['*', true],
    ['AskUserQuestion', true],
    ['Bash|AskUserQuestion', true],
    ['Bash, AskUserQuestion', true],
    ['Ask', false],
    ['AskUserQuestions', false],
    ['Bash', false],
    ['Ask.*', true],
    ['^Ask', true],
    ['^Bash$', false],
    ['User', false],
    ['(unclosed', false],
    // A `-` is one of the characters of a list of names (hooks reference, Matcher patterns:
    // `code-reviewer` matches only that agent type): each name is exact, `Ask` no part of another.
    ['AskUserQuestion, mcp__my-server__ask', true],
    ['AskUserQuestion | mcp__my-server__ask', true],
    ['Ask|mcp__my-server__ask', false],
    ['mcp__my-server__.*', false],
  ])('reads the matcher %j as Claude Code does: AskUserQuestion %s', (matcher, covers) => {
    expect(matcherCovers(matcher, 'AskUserQuestion')).toBe(covers)
  })

  it('refuses settings it cannot merge into without destroying something', () => {
    expect(() => mergeHooks([], COMMAND)).toThrow(SettingsShapeError)
    expect(() => mergeHooks({ hooks: [] }, COMMAND)).toThrow(/^"hooks" is a list, not an object: /)
    expect(() => mergeHooks({ hooks: { PreToolUse: {} } }, COMMAND)).toThrow(/^"hooks.PreToolUse" is an object, not a list: /)
    expect(() => mergeGuard({ hooks: { PreToolUse: 'Bash' } }, GUARD_COMMAND)).toThrow(/^"hooks.PreToolUse" is a string, not a list: /)
  })

  it('refuses "hooks": null, which Claude Code does not read as no hooks but skips the file for, saying so', () => {
    // Said `"hooks" is not an object`, which left the user to guess whether null was meant as none.
    for (const merge of [() => mergeHooks({ hooks: null, model: 'opus' }, COMMAND), () => mergeGuard({ hooks: null }, GUARD_COMMAND)]) {
      expect(merge).toThrow(
        new SettingsShapeError(
          '"hooks" is null, not an object: Claude Code skips a settings file with such a field whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; ' +
            'make it {} (no hooks) or take it out',
        ),
      )
    }
    expect(() => mergeHooks({ hooks: { SessionStart: null } }, COMMAND)).toThrow(/^"hooks.SessionStart" is null, not a list: .*; make it \[\] \(no hooks\) or take it out$/)
  })

  it('refuses an event of another hook that is not a list, for which Claude Code skips the whole file too', () => {
    // `/doctor`: `hooks.UserPromptSubmit: Expected array, but received null` (anthropics/claude-code#53643),
    // a schema error, for which the file is skipped whole: merged beside it, our hooks would never run.
    const stop = { type: 'command', command: 'notify-send done' }
    for (const [value, what] of [[null, 'null'], [{ hooks: [stop] }, 'an object'], ['notify-send done', 'a string']] as const) {
      const current = { model: 'opus', hooks: { Stop: value, PreToolUse: [] } }
      for (const merge of [() => mergeHooks(current, COMMAND), () => mergeGuard(current, GUARD_COMMAND)]) {
        expect(merge).toThrow(
          new SettingsShapeError(
            `"hooks.Stop" is ${what}, not a list: Claude Code skips a settings file with such a field whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; ` +
              'make it [] (no hooks) or take it out',
          ),
        )
      }
    }
    expect(() => mergeHooks({ hooks: { Stop: [{ hooks: [stop] }], UserPromptSubmit: [] } }, COMMAND)).not.toThrow()
  })

  it('refuses a group that is not an object or has no hooks list, under any event: Claude Code skips the whole file for it', () => {
    // A hook written without its group: Claude Code says `hooks.SessionStart.0.hooks: Expected array,
    // but received undefined` and skips the file (techwolf-ai/ai-first-toolkit#11,
    // anthropics/claude-code#49990); our hooks were merged beside it, said added, and never ran.
    const bare = { type: 'command', command: 'bash .claude/hooks/setup.sh' }
    const tail = ': Claude Code skips a settings file with such a group whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; '
    const shape = '{"matcher": "", "hooks": [{"type": "command", "command": "…"}]}'
    for (const merge of [mergeHooks, (s: unknown) => mergeGuard(s, GUARD_COMMAND)]) {
      expect(() => merge({ model: 'opus', hooks: { SessionStart: [bare] } }, COMMAND)).toThrow(
        new SettingsShapeError(`"hooks.SessionStart.0" has no "hooks" list, a hook written without its group${tail}put the hook inside a group, ${shape}, or take it out`),
      )
      expect(() => merge({ hooks: { Stop: [{ hooks: [bare] }, { matcher: '' }] } }, COMMAND)).toThrow(
        new SettingsShapeError(`"hooks.Stop.1" has no "hooks" list${tail}give it one, ${shape}, or take it out`),
      )
      for (const [group, what] of [['notify-send done', 'a string'], [null, 'null'], [[bare], 'a list']] as const) {
        expect(() => merge({ hooks: { Stop: [group] } }, COMMAND)).toThrow(
          new SettingsShapeError(`"hooks.Stop.0" is ${what}, not a hook group${tail.replace('such a group', 'such a field')}make it a group, ${shape}, or take it out`),
        )
      }
      expect(() => merge({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: null }] } }, COMMAND)).toThrow(
        new SettingsShapeError(`"hooks.PreToolUse.0.hooks" is null, not a list${tail.replace('such a group', 'such a field')}make it [] (no hooks), or a list of hooks, or take it out`),
      )
    }
    expect(() => mergeHooks({ hooks: { Stop: [{ hooks: [] }, { matcher: 'x', hooks: [bare] }] } }, COMMAND)).not.toThrow()
  })

  it('refuses a hook entry Claude Code takes for no hook, under any event, naming it by its place: Claude Code skips the whole file for it', () => {
    // Left unread (mergeHooks looked for command strings alone), our groups were merged beside it,
    // said added, in a file Claude Code does not load: `hooks.PreToolUse.0.hooks.0.command:
    // Expected string` (affaan-m/ECC#1474), and none of its hooks ran.
    const hook = { type: 'command', command: 'prettier --check' }
    const tail = ': Claude Code skips a settings file with such a hook whole ("Files with errors are skipped entirely"), every setting in it, so hooks written there would never run; '
    const shape = '{"type": "command", "command": "…"}'
    const check = (hooks: Record<string, unknown>) => () => hookEntryNotShaped(mergeHooks({ hooks }, COMMAND).settings)
    for (const [entry, what] of [['notify-send done', 'a string'], [null, 'null'], [[hook], 'a list'], [5, 'a number']] as const) {
      expect(check({ Stop: [{ hooks: [hook, entry] }] })).toThrow(
        new SettingsShapeError(`"hooks.Stop.0.hooks.1" is ${what}, not a hook${tail.replace('such a hook', 'such a field')}make it a hook, ${shape}, or take it out`),
      )
    }
    expect(check({ PostToolUse: [{ matcher: 'Write', hooks: [hook] }, { matcher: 'Edit', hooks: [{ command: 'prettier --write' }] }] })).toThrow(
      new SettingsShapeError(`"hooks.PostToolUse.1.hooks.0" has no "type"${tail}give it one ("command" for a command, ${shape}) or take it out`),
    )
    expect(check({ Stop: [{ hooks: [{ type: null, command: 'x' }] }] })).toThrow(
      new SettingsShapeError(`"hooks.Stop.0.hooks.0" has a "type" that is null, not a string${tail}give it one ("command" for a command, ${shape}) or take it out`),
    )
    expect(check({ SessionStart: [{ hooks: [{ type: 'command', timeout: 5 }] }] })).toThrow(
      new SettingsShapeError(`"hooks.SessionStart.0.hooks.0" is a command hook with no "command"${tail}give it the command to run, ${shape}, or take it out`),
    )
    expect(check({ Stop: [{ hooks: [{ type: 'command', command: ['notify-send', 'done'] }] }] })).toThrow(
      new SettingsShapeError(`"hooks.Stop.0.hooks.0" is a command hook with a "command" that is a list, not a string${tail}give it the command to run, ${shape}, or take it out`),
    )
    // Another type, one Claude Code may have added since, is its to read, as is a field unknown here.
    const others = [{ type: 'prompt', prompt: 'Is the work done?' }, { type: 'http', url: 'https://hooks.example/stop' }, { type: 'mcp_tool', server: 's', tool: 't' }, { ...hook, args: [], async: true }]
    expect(check({ Stop: [{ hooks: others }] })).not.toThrow()
    // Our own entry without its type is given one by the merge, which mends it: no refusal.
    expect(check({ PostToolUse: [{ matcher: 'AskUserQuestion', hooks: [{ command: COMMAND }] }] })).not.toThrow()
    // Not ours, nor where the merge looks (a group that runs for no question), it is not mended.
    expect(check({ PostToolUse: [{ matcher: 'Bash', hooks: [{ command: COMMAND }] }] })).toThrow(/^"hooks\.PostToolUse\.0\.hooks\.0" has no "type"/)
  })

  it('refuses a matcher that is not a string, under any event: Claude Code skips the whole file for it, and hooks added there would never run', () => {
    // Added beside it, said `added` and, our hook under it, told that "the one in a group that
    // runs for AskUserQuestion does its work": in a file Claude Code does not load, none does.
    const hook = { type: 'command', command: 'prettier --check' }
    for (const [matcher, what] of [[{ tools: ['Write'] }, 'an object'], [['Bash', 'AskUserQuestion'], 'a list'], [null, 'null'], [5, 'a number']] as const) {
      expect(() => mergeHooks({ hooks: { PostToolUse: [{ matcher: 'Write', hooks: [hook] }, { matcher, hooks: [hook] }] } }, COMMAND)).toThrow(
        new SettingsShapeError(
          `"hooks.PostToolUse.1.matcher" is ${what}, not a string: Claude Code skips a settings file with such a matcher whole ("Files with errors are skipped entirely"), every hook in it, so hooks written there would never run; ` +
            'make it a string ("Bash", "Edit|Write", "" for every tool) or take it out',
        ),
      )
    }
    expect(() => mergeHooks({ hooks: { Stop: [{ matcher: {}, hooks: [hook] }] } }, COMMAND)).toThrow(/^"hooks\.Stop\.0\.matcher" is an object, not a string/)
    // None, or a string of any kind, is Claude Code's to read.
    expect(() => mergeHooks({ hooks: { PreToolUse: [{ hooks: [hook] }, { matcher: '', hooks: [hook] }, { matcher: '(Bash', hooks: [hook] }] } }, COMMAND)).not.toThrow()
  })
})

describe('mergeGuard', () => {
  const GUARD = 'node "/opt/decision-memory/bin/decision-memory.js" guard'
  type Groups = Array<{ matcher?: string; hooks: Array<{ command: string; timeout?: number }> }>

  it('adds the guard on Bash and PowerShell beside the question hooks, and changes nothing the second time', () => {
    const once = mergeGuard(mergeHooks({}, COMMAND).settings, GUARD)
    expect(once.changes).toEqual([{ event: 'PreToolUse', matcher: 'Bash|PowerShell', command: GUARD, action: 'added' }])
    const pre = (once.settings.hooks as Record<string, Groups>).PreToolUse
    expect(pre?.map((g) => [g.matcher, g.hooks[0]?.command])).toEqual([
      ['AskUserQuestion', COMMAND],
      ['Bash|PowerShell', GUARD],
    ])
    expect(pre?.[1]?.hooks[0]?.timeout).toBe(5)
    const twice = mergeGuard(once.settings, GUARD)
    expect(twice.settings).toEqual(once.settings)
    expect(twice.changes.map((c) => c.action)).toEqual(['unchanged'])
  })

  it('keeps an earlier guard run inside quotes of the user as written', () => {
    const wrapped = "bash -lc 'node /old/bin/decision-memory.js guard --fail-closed'"
    const current = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: wrapped, timeout: 5 }] }] } }
    expect(mergeGuard(current, GUARD).changes.map((c) => [c.action, c.command])).toEqual([
      ['unchanged', wrapped],
      ['added', wrapped],
    ])
  })

  it('adds the guard for PowerShell beside one of before on Bash alone, with its command and flags', () => {
    // Claude Code on Windows runs shell commands through its PowerShell tool, and without Git Bash
    // has no Bash tool: a guard on Bash alone checks nothing there (hooks reference, PreToolUse).
    const earlier = { type: 'command', command: `${GUARD} --fail-closed`, timeout: 5 }
    const current = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [earlier] }] } }
    const once = mergeGuard(current, GUARD)
    expect(once.changes).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: `${GUARD} --fail-closed`, action: 'unchanged' },
      { event: 'PreToolUse', matcher: 'PowerShell', command: `${GUARD} --fail-closed`, action: 'added' },
    ])
    expect((once.settings.hooks as Record<string, unknown>).PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [earlier] },
      { matcher: 'PowerShell', hooks: [{ type: 'command', command: `${GUARD} --fail-closed`, timeout: 5 }] },
    ])
    const twice = mergeGuard(once.settings, GUARD)
    expect(twice.settings).toEqual(once.settings)
    expect(twice.changes.map((c) => [c.matcher, c.action])).toEqual([
      ['Bash', 'unchanged'],
      ['PowerShell', 'unchanged'],
    ])
    // One group for every tool holds it for both, and is said once.
    const everyTool = { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: GUARD, timeout: 5 }] }] } }
    expect(mergeGuard(everyTool, GUARD).changes).toEqual([{ event: 'PreToolUse', matcher: '*', command: GUARD, action: 'unchanged' }])
  })

  it('moves an earlier guard to the new checkout keeping its flags, and does not count one that never sees Bash', () => {
    const current = {
      hooks: {
        PreToolUse: [
          { matcher: 'AskUserQuestion', hooks: [{ type: 'command', command: 'node /old/bin/decision-memory.js guard' }] },
          { matcher: 'Bash|Edit', hooks: [{ type: 'command', command: 'node /old/bin/decision-memory.js guard --fail-closed', timeout: 9 }] },
        ],
      },
    }
    const { settings, changes } = mergeGuard(current, GUARD)
    expect(changes).toEqual([
      { event: 'PreToolUse', matcher: 'Bash|Edit', command: `${GUARD} --fail-closed`, action: 'updated' },
      { event: 'PreToolUse', matcher: 'PowerShell', command: `${GUARD} --fail-closed`, action: 'added' },
    ])
    const pre = (settings.hooks as Record<string, Groups>).PreToolUse
    expect(pre?.map((g) => g.hooks[0]?.command)).toEqual(['node /old/bin/decision-memory.js guard', `${GUARD} --fail-closed`, `${GUARD} --fail-closed`])
    expect(pre?.[1]?.hooks[0]?.timeout).toBe(9)
  })

  it('moves an earlier guard keeping the variables set before it, on the PowerShell group added beside it too', () => {
    // Dropped, the guard would ask the default service, not the one the user set, without a word.
    const url = 'DECISION_MEMORY_URL=http://host:7420 '
    const current = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${url}node '/old/path/bin/decision-memory.js' guard --fail-closed`, timeout: 5 }] }] } }
    const once = mergeGuard(current, GUARD)
    expect(once.changes).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', command: `${url}${GUARD} --fail-closed`, action: 'updated' },
      { event: 'PreToolUse', matcher: 'PowerShell', command: `${url}${GUARD} --fail-closed`, action: 'added' },
    ])
    const pre = (once.settings.hooks as Record<string, Groups>).PreToolUse
    expect(pre?.map((g) => g.hooks[0]?.command)).toEqual([`${url}${GUARD} --fail-closed`, `${url}${GUARD} --fail-closed`])
    expect(mergeGuard(once.settings, GUARD).changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged'])
    // `env` and a value sh reads as one word are kept whole, as before a hook.
    for (const head of ["env DECISION_MEMORY_TOKEN='t0 k' ", 'DECISION_MEMORY_URL=${DM_URL:-http://127.0.0.1:7420} ']) {
      const earlier = { hooks: { PreToolUse: [{ matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: `${head}npx decision-memory guard` }] }] } }
      expect(mergeGuard(earlier, GUARD).changes.map((c) => c.command), head).toEqual([`${head}${GUARD}`])
    }
    // A guard command that sets them itself (the hook's, install-hooks --guard) does not set them twice.
    const again = mergeGuard(current, `${url}${GUARD}`)
    expect(again.changes.map((c) => c.command)).toEqual([`${url}${GUARD} --fail-closed`, `${url}${GUARD} --fail-closed`])
    expect(mergeGuard(again.settings, `${url}${GUARD}`).changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged'])
  })

  it('gives the PowerShell group added beside a guard kept the longer timeout of the two, its --timeout being the one kept\'s', () => {
    // Added with 5 s beside one of 10 s for --timeout 3000, install-hooks warned at once of the entry it had just written.
    const kept = { type: 'command', command: `${GUARD} --timeout 3000`, timeout: 10 }
    const added = (timeout?: number) =>
      (mergeGuard({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...kept, timeout }] }] } }, GUARD).settings.hooks as Record<string, Groups>).PreToolUse?.[1]?.hooks[0]
    expect(added(10)).toEqual({ type: 'command', command: `${GUARD} --timeout 3000`, timeout: 10 })
    // Never shorter than a new entry's, nor anything but seconds.
    expect(added(3)?.timeout).toBe(5)
    expect(added(undefined)?.timeout).toBe(5)
  })

  it('tells the guard command from the hook command: same variables and checkout, no hook flags', () => {
    expect(guardCommandOf(COMMAND)).toBe(GUARD)
    expect(guardCommandOf(`DECISION_MEMORY_URL=http://127.0.0.1:7421 ${COMMAND} --user alice`)).toBe(`DECISION_MEMORY_URL=http://127.0.0.1:7421 ${GUARD}`)
    expect(guardCommandOf('npx decision-memory hook')).toBe('npx decision-memory guard')
    expect(guardCommandOf('/usr/local/bin/dm-wrapper.sh')).toBeNull()
  })

  it('tells no guard command from a hook run inside quotes, which cut after guard would leave a quote open', () => {
    // sh exits 2 on the open quote, and a PreToolUse hook's 2 blocks every Bash call.
    expect(guardCommandOf(`bash -lc 'node /opt/decision-memory/bin/decision-memory.js hook --user alice'`)).toBeNull()
    expect(guardCommandOf(`sh -c "node /opt/decision-memory/bin/decision-memory.js hook"`)).toBeNull()
    expect(guardCommandOf(`DECISION_MEMORY_USER='al ice' D=it\\'s ${COMMAND} --user 'al ice'`)).toBe(`DECISION_MEMORY_USER='al ice' D=it\\'s ${GUARD}`)
  })
})

describe('the script a hook run inside quotes of the user names', () => {
  it('is the absolute path inside the quotes, however quoted, and none outside quotes or when not known here', () => {
    for (const [command, script] of [
      ["bash -lc 'node /old/dm/bin/decision-memory.js hook --user bob'", '/old/dm/bin/decision-memory.js'],
      ['bash -lc "node \\"/old/d m/bin/decision-memory.js\\" hook"', '/old/d m/bin/decision-memory.js'],
      [`bash -lc 'node "/old/d m/bin/decision-memory.js" guard --fail-closed'`, '/old/d m/bin/decision-memory.js'],
      ["sh -c '/opt/bin/decision-memory hook'", '/opt/bin/decision-memory'],
    ] as const) {
      expect(wrappedScriptOf(command), command).toBe(script)
    }
    for (const command of [
      'node "/old/dm/bin/decision-memory.js" hook',
      "bash -lc 'node $HOME/dm/bin/decision-memory.js hook'",
      "bash -lc 'node dm/bin/decision-memory.js hook'",
      "bash -lc 'npx decision-memory hook'",
    ]) {
      expect(wrappedScriptOf(command), command).toBeUndefined()
    }
  })
})

describe('shortGuardTimeouts', () => {
  const settingsOf = (command: string, timeout = 5) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout }] }] } })
  const guard = 'node /opt/dm/bin/decision-memory.js guard'

  it('counts twice --timeout (the payload, then the service) and the start, the flag read as sh and the guard read it', () => {
    // 2 × 1000 + 500 = 2.5 s: under 5 s, above 2 s.
    expect(shortGuardTimeouts(settingsOf(guard), guardTimeoutMs)).toEqual([])
    expect(shortGuardTimeouts(settingsOf(guard, 2), guardTimeoutMs)).toEqual([{ matcher: 'Bash', timeout: 2, timeoutMs: 1000, takesMs: 2500 }])
    for (const flags of [' --timeout 3000', ' --timeout=3000', " --timeout '3000'", ' --timeout "3000"', ' --timeout=\'3000\'', ' --fail-closed --timeout 3000', ' --fail-closed --timeout 3e3', ' --timeout 3\\000']) {
      expect(shortGuardTimeouts(settingsOf(guard + flags), guardTimeoutMs), flags).toEqual([{ matcher: 'Bash', timeout: 5, timeoutMs: 3000, takesMs: 6500 }])
    }
    // Inside the quotes of a shell it runs in, the quote closing them ends its words.
    expect(shortGuardTimeouts(settingsOf(`bash -lc '${guard} --timeout 3000'`), guardTimeoutMs)).toEqual([{ matcher: 'Bash', timeout: 5, timeoutMs: 3000, takesMs: 6500 }])
    expect(shortGuardTimeouts(settingsOf(guard + ' --timeout 2000'), guardTimeoutMs)).toEqual([])
  })

  it('reads the flag inside the quotes of a shell it runs in as that shell gets it, whatever follows them', () => {
    // A version before this read the quote closing them as one opening, and what followed (a redirection to a
    // quoted path) as part of the value; inside double quotes, `\"3000\"` as the value `"3000"`: neither was judged.
    for (const command of [
      `bash -lc "${guard} --timeout \\"3000\\""`,
      `bash -lc "${guard} --fail-closed --timeout=\\"3000\\" 2>>\\"$HOME/guard.log\\""`,
      `bash -c '${guard} --timeout 3000' 2>'/tmp/guard log'`,
      `bash -c "${guard} --timeout 3000" 2>"/tmp/guard log"`,
      `bash -c '${guard} --timeout "3000"' && echo "checked"`,
    ]) {
      expect(shortGuardTimeouts(settingsOf(command), guardTimeoutMs), command).toEqual([{ matcher: 'Bash', timeout: 5, timeoutMs: 3000, takesMs: 6500 }])
    }
    // Expanded by the shell outside (`$T` inside its double quotes) or inside (`\$T`): known only when it runs.
    for (const command of [`bash -lc "${guard} --timeout $T"`, `bash -lc "${guard} --timeout \\$T"`, `bash -c '${guard} --timeout $T' 2>'/tmp/log'`]) {
      expect(shortGuardTimeouts(settingsOf(command), guardTimeoutMs), command).toEqual([])
    }
  })

  it('leaves out an entry the guard refuses the flag of (it exits at once), one known only when it runs, and words not the guard\'s', () => {
    // 2e4, not in decimal digits and past 10000, as the guard refuses it (3e3 it still reads as 3000, above).
    for (const flags of [' --timeout soon', ' --timeout 0', ' --timeout 20000', ' --timeout 2e4', ' --fail-closed --timeout 0x10.5', ' --timeout $T', ' --timeout "$T"', ' -- --timeout 9000', ' 2>/dev/null; echo --timeout 9000', ' | tee --timeout 9000',
      // Given twice, a flag mistake the guard exits on at once ("given twice"), whatever the values.
      ' --timeout 3000 --timeout 3000', ' --timeout=3000 --fail-closed --timeout=4000']) {
      expect(shortGuardTimeouts(settingsOf(guard + flags), guardTimeoutMs), flags).toEqual([])
    }
    // Last with no value, a mistake too ("argument missing"), not the default's 2.5 s over a 2 s entry.
    expect(shortGuardTimeouts(settingsOf(guard + ' --timeout', 2), guardTimeoutMs)).toEqual([])
  })
})

describe('unknownEvents', () => {
  it('names an event Claude Code does not know, with the events it may be a slip of', () => {
    // `"PreToolCall": []`, a typo of PreToolUse: Claude Code runs nothing under it, and some
    // versions skip the whole file for it (`hooks.PreToolCall: Invalid key in record`).
    const hook = { hooks: [{ type: 'command', command: 'say' }] }
    const settings = { hooks: { PreToolCall: [], preToolUse: [hook], PostToolCall: [hook], beforeSubmitPrompt: [hook], Stop: [hook], PreToolUse: [], MessageDisplay: [] } }
    expect(unknownEvents(settings)).toEqual([
      { event: 'PreToolCall', near: ['PreToolUse'] },
      { event: 'preToolUse', near: ['PreToolUse'] },
      { event: 'PostToolCall', near: ['PostToolUse', 'PostToolBatch'] },
      { event: 'beforeSubmitPrompt', near: [] },
    ])
    expect(unknownEvents({ model: 'opus' })).toEqual([])
  })

  it('names as meant only an event the name is a slip of, not one that shares a short word or a few letters with it', () => {
    // By letters alone, within two in five of the name: `PreCommit` was said to mean PreCompact,
    // `TaskUpdated` TaskCreated, `SessionResume` SessionEnd alone and `AfterToolUse` PreToolUse alone.
    const near = (event: string) => unknownEvents({ hooks: { [event]: [] } })[0]?.near
    for (const event of ['PreCommit', 'TaskUpdated', 'OnCommit', 'Error', 'PreEdit', 'beforeSubmitPrompt']) expect(near(event), event).toEqual([])
    expect(near('SessionResume')).toEqual(['SessionStart', 'SessionEnd'])
    expect(near('AfterToolUse')).toEqual(['PreToolUse', 'PostToolUse'])
    // Slips still are: case and separators, a letter or two, a word for another, one word more or fewer.
    expect(near('pre_tool_use')).toEqual(['PreToolUse'])
    expect(near('PreToolUse ')).toEqual(['PreToolUse'])
    expect(near('Stp')).toEqual(['Stop'])
    expect(near('SessionStrat')).toEqual(['SessionStart'])
    expect(near('Notifcation')).toEqual(['Notification'])
    expect(near('PreToolCall')).toEqual(['PreToolUse'])
    expect(near('PostCompaction')).toEqual(['PostCompact'])
    expect(near('UserPromptSubmitted')).toEqual(['UserPromptSubmit'])
    expect(near('Teammate')).toEqual(['TeammateIdle'])
    expect(near('UserPrompt')).toEqual(['UserPromptSubmit', 'UserPromptExpansion'])
  })

  it('leaves the events mergeHooks writes known, and writes none of ours under an unknown one', () => {
    const { settings } = mergeHooks({ hooks: { PreToolCall: [] } }, COMMAND)
    expect(Object.keys(settings.hooks as object)).toEqual(['PreToolCall', 'SessionStart', 'PreToolUse', 'PostToolUse'])
    expect((settings.hooks as Record<string, unknown>).PreToolCall).toEqual([])
    expect(unknownEvents(settings).map((u) => u.event)).toEqual(['PreToolCall'])
  })
})
