import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { fixedClock } from './clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from './config/load-policy'
import { createDecisionMemory } from './decision-memory'
import { createLevelStore } from './memory/level-store'

describe('createDecisionMemory', () => {
  it('orders the observations of one millisecond as they came when each call makes its own memory (a command on --data, the MCP server without a service)', async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
    const clock = fixedClock('2026-07-01T10:00:00.000Z')
    const checks = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'] }
    const sent = Array.from({ length: 12 }, (_, i) => ({ ...checks, user_choice: i % 2 === 0 ? 'Lint' : 'E2E', decision_id: `d-${i}`, user: 'default', source: 'user' as const }))
    for (const input of sent) await createDecisionMemory({ store, policy, clock }).observe([input])
    const stored = []
    for await (const o of store.observationsOf('default')) stored.push(o.decision_id)
    expect(stored).toEqual(sent.map((o) => o.decision_id))
  })
  it('reads a string choice sent beside a set at its point after the set is stored, by one memory or one each (R-REC-8)', async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const clock = fixedClock('2026-07-01T10:00:00.000Z')
    const checks = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'], user: 'default', source: 'user' as const }
    for (const shared of [true, false]) {
      const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
      const memory = createDecisionMemory({ store, policy, clock })
      const memoryOf = () => (shared ? memory : createDecisionMemory({ store, policy, clock }))
      // Sent at once, the set first: the string, made later, read no choice before it, and left the point single-select.
      await Promise.all([memoryOf().observe([{ ...checks, user_choice: ['Lint', 'Unit tests'], decision_id: 'set' }]), memoryOf().observe([{ ...checks, user_choice: 'Unit tests', decision_id: 'one' }])])
      const stored = []
      for await (const o of store.observationsOf('default')) stored.push(o)
      expect(stored.map((o) => [o.decision_id, o.chosen, o.multi_select]), `shared ${shared}`).toEqual([
        ['set', ['Lint', 'Unit tests'], true],
        ['one', ['Unit tests'], true],
      ])
    }
  })
  it('stores a string choice sent before a set at its point as the earlier, by a batch of one or of several (R-REC-8)', async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const clock = fixedClock('2026-07-01T10:00:00.000Z')
    const checks = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'], user: 'default', source: 'user' as const }
    const elsewhere = { question: 'Which database?', header: 'Database', all_options: ['Postgres', 'MySQL'], user: 'default', source: 'user' as const, user_choice: 'Postgres' }
    for (const batch of [false, true]) {
      const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
      const memory = createDecisionMemory({ store, policy, clock })
      const string = { ...checks, user_choice: 'Unit tests', decision_id: 'one' }
      // Sent at once, the string first: it reads the history while the set, sent after it and
      // reading nothing, is stored; dated alike, the set is the later for arriving later, and
      // the point stays multi-select.
      await Promise.all([
        memory.observe(batch ? [string, { ...elsewhere, decision_id: 'db' }] : [string]),
        memory.observe([{ ...checks, user_choice: ['Lint', 'Unit tests'], decision_id: 'set' }]),
      ])
      const stored = []
      for await (const o of store.observationsOf('default')) if (o.decision_id !== 'db') stored.push(o)
      // The string read the history at its moment, with or without the set as it landed by then.
      expect(stored.map((o) => [o.decision_id, o.chosen, o.decision_id === 'one' || o.multi_select]), `batch ${batch}`).toEqual([
        ['one', ['Unit tests'], true],
        ['set', ['Lint', 'Unit tests'], true],
      ])
    }
  })
  it('lets a string waiting at its point go on past a write that failed and a refusal, and waits for neither again (R-REC-8)', async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const clock = fixedClock('2026-07-01T10:00:00.000Z')
    const checks = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'], user: 'default', source: 'user' as const }
    const level = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
    // The set's write is held, then fails as a full disk would; every other write goes through.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let writes = 0
    const store: typeof level = {
      ...level,
      addObservations: (observations, sessions) => (writes++ === 0 ? held.then(() => Promise.reject(new Error('disk full'))) : level.addObservations(observations, sessions)),
    }
    const memory = createDecisionMemory({ store, policy, clock })
    const set = memory.observe([{ ...checks, user_choice: ['Lint', 'Unit tests'], decision_id: 'set' }])
    const refused = memory.observe([{ ...checks, user_choice: ['Lint', 'E2E'], multi_select: false, decision_id: 'refused' }])
    const one = memory.observe([{ ...checks, user_choice: 'Unit tests', decision_id: 'one' }])
    await expect(refused).rejects.toMatchObject({ code: 'multiple_choices' })
    release()
    await expect(set).rejects.toThrow('disk full')
    await one
    // Nothing under way is left at the point: a string sent now reads at once, the set not stored.
    await memory.observe([{ ...checks, user_choice: 'E2E', decision_id: 'after' }])
    const stored = []
    for await (const o of level.observationsOf('default')) stored.push([o.decision_id, o.chosen, o.multi_select])
    expect(stored).toEqual([
      ['one', ['Unit tests'], false],
      ['after', ['E2E'], false],
    ])
  })
  it("reads a string's latest choice by its moment after a clock stepped back, whether or not a recommendation read it before (R-REC-8)", async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const checks = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'], user: 'default' }
    const outcomes = []
    for (const recommended of [false, true]) {
      const clock = fixedClock('2026-07-01T10:00:00.000Z')
      const store = await createLevelStore(new MemoryLevel<string, string>() as never, { policy })
      const memory = createDecisionMemory({ store, policy, clock })
      await memory.observe([{ ...checks, source: 'user', user_choice: ['Lint', 'Unit tests'] }])
      if (recommended) await memory.recommend({ ...checks })
      // Stepped back an hour: the string, dated then, comes before the set, and no choice before it.
      clock.set('2026-07-01T09:00:00.000Z')
      await memory.observe([{ ...checks, source: 'user', user_choice: 'Unit tests', decision_id: 'one' }])
      for await (const o of store.observationsOf('default')) if (o.decision_id === 'one') outcomes.push([recommended, o.timestamp, o.multi_select])
      await store.close()
    }
    expect(outcomes).toEqual([
      [false, '2026-07-01T09:00:00.000Z', false],
      [true, '2026-07-01T09:00:00.000Z', false],
    ])
  })
})
