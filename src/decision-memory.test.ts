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
  it('answers alike live, rebuilt after a demotion and replayed as_of, when ids reach the store out of their order (R-MEM-4, R-REC-2)', async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const T = '2026-07-01T10:00:00.000Z'
    const queue = { question: 'Which message queue?', header: 'Queue', all_options: ['Kafka', 'RabbitMQ', 'NATS'], user: 'alice', session_id: 's-1', source: 'user' as const }
    const database = { question: 'Which database?', header: 'Database', all_options: ['Postgres', 'MySQL'], user: 'alice', session_id: 's-1', source: 'user' as const }
    // A static default none chose: a tie goes to the most recent choice (R-REC-2).
    const ask = { user: 'alice', session_id: 's-1', question: queue.question, header: queue.header, all_options: queue.all_options, static_default: 'NATS' }
    // The service's own answers first, 0 to 24 of them (not evidence): core counts the observations
    // waiting at a point into its cells once 8 to 24 wait, so that some of these counts fold the
    // choices that land first into the cells before the string lands.
    for (const answers of Array.from({ length: 25 }, (_, i) => i)) {
      for (const batch of [false, true]) {
        const why = `${answers} answers, batch ${batch}`
        const clock = fixedClock(T)
        // Room for one aggregate in core: a read of the database's point demotes the queue's.
        const level = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: { ...policy, core: { max_entries: 1 } } })
        // The write of `held` waits until it is let go; the order the queue's writes reach the store is noted.
        let letGo = () => {}
        const gate = new Promise<void>((resolve) => (letGo = resolve))
        let atGate = () => {}
        const holding = new Promise<void>((resolve) => (atGate = resolve))
        const landed: string[] = []
        const store: typeof level = {
          ...level,
          addObservations: async (observations, sessions) => {
            if (observations.some((o) => o.decision_id === 'held')) {
              atGate()
              await gate
            }
            for (const o of observations) if (o.user === 'alice' && o.header === 'Queue') landed.push(o.decision_id as string)
            return level.addObservations(observations, sessions)
          },
        }
        // A memory per read: none answers from an answer it kept.
        const fresh = () => createDecisionMemory({ store, policy, clock })
        const memory = fresh()
        for (const [i, choice] of ['Kafka', 'RabbitMQ', 'Kafka', 'RabbitMQ', 'Kafka'].entries()) await memory.observe([{ ...queue, user_choice: choice, decision_id: `h-${i}` }])
        for (let i = 0; i < 12; i++) await memory.observe([{ ...database, user_choice: 'Postgres', decision_id: `d-${i}` }])
        const point = (await fresh().recommend(ask)).point
        expect(await level.inCore('alice', point), why).toBe(true)
        for (let i = 0; i < answers; i++) await memory.observe([{ ...queue, source: 'auto-resolved', user_choice: 'NATS', multi_select: false, decision_id: `a-${i}` }])
        // At one moment: an answer of the service's, held in its write; a string, which reads the
        // history, sent next, so waiting for it; then two choices said single-select, which read
        // nothing and land first. The string's id is before theirs, its write after them.
        const held = memory.observe([{ ...queue, source: 'auto-resolved', user_choice: 'NATS', decision_id: 'held' }])
        await holding
        const string = { ...queue, user_choice: 'RabbitMQ', decision_id: 'string' }
        const waiting = memory.observe(batch ? [string, { ...database, user: 'bob', user_choice: 'MySQL' }] : [string])
        await memory.observe([{ ...queue, user_choice: 'Kafka', multi_select: false, decision_id: 'kafka' }])
        await memory.observe([{ ...queue, user_choice: 'RabbitMQ', multi_select: false, decision_id: 'rabbit' }])
        letGo()
        await Promise.all([held, waiting])
        expect(landed.slice(-4), why).toEqual(['kafka', 'rabbit', 'held', 'string'])
        const stored = (await level.observationsAt('alice', point)).map((o) => o.decision_id)
        expect(stored.slice(-4), why).toEqual(['held', 'string', 'kafka', 'rabbit'])
        // Recall is newest first as archival orders them, whatever order they landed in.
        expect((await level.recallAt('alice', point)).map((o) => o.decision_id), why).toEqual([...stored].reverse())
        // 4 choices each at one moment: the tie goes to the one recorded last, `rabbit`, in core too.
        expect(await level.inCore('alice', point), why).toBe(true)
        const live = await fresh().recommend(ask)
        expect(live.recommended, why).toBe('RabbitMQ')
        await fresh().recommend({ user: 'alice', session_id: 's-1', question: database.question, header: database.header, all_options: database.all_options })
        expect(await level.inCore('alice', point), why).toBe(false)
        expect(await fresh().recommend(ask), `rebuilt, ${why}`).toEqual(live)
        clock.advance(60_000)
        await memory.observe([{ ...queue, user_choice: 'Kafka', decision_id: 'later' }])
        expect(await fresh().recommend({ ...ask, as_of: T }), `as_of, ${why}`).toEqual(live)
        await level.close()
      }
    }
  })
  it("tells a point's latest choice alike live, rebuilt after a demotion and replayed as_of, when a string read before a set lands after it (R-MEM-4, R-REC-8)", async () => {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const T = '2026-07-01T10:00:00.000Z'
    const checks = { question: 'Which checks should run before merge?', header: 'Checks', all_options: ['Lint', 'Unit tests', 'E2E'], user: 'alice', source: 'user' as const }
    const database = { question: 'Which database?', header: 'Database', all_options: ['Postgres', 'MySQL'], user: 'alice', source: 'user' as const }
    const ask = { user: 'alice', question: checks.question, header: checks.header, all_options: checks.all_options }
    const clock = fixedClock(T)
    // Room for one aggregate in core: a read of the database's point demotes the checks'.
    const level = await createLevelStore(new MemoryLevel<string, string>() as never, { policy: { ...policy, core: { max_entries: 1 } } })
    // The first read of the latest choice once `hold` is set is done, and its answer held until let go.
    let hold = false
    let letGo = () => {}
    const gate = new Promise<void>((resolve) => (letGo = resolve))
    let atGate = () => {}
    const holding = new Promise<void>((resolve) => (atGate = resolve))
    const landed: string[] = []
    const store: typeof level = {
      ...level,
      latestMultiSelectAt: async (user, point, asOf) => {
        const flag = await level.latestMultiSelectAt(user, point, asOf)
        if (hold) {
          hold = false
          atGate()
          await gate
        }
        return flag
      },
      addObservations: async (observations, sessions) => {
        for (const o of observations) if (o.header === 'Checks') landed.push(o.decision_id as string)
        return level.addObservations(observations, sessions)
      },
    }
    const fresh = () => createDecisionMemory({ store, policy, clock })
    const memory = fresh()
    for (const [i, choice] of ['Lint', 'E2E', 'Lint', 'Unit tests', 'Lint'].entries()) await memory.observe([{ ...checks, user_choice: choice, decision_id: `h-${i}` }])
    for (let i = 0; i < 12; i++) await memory.observe([{ ...database, user_choice: 'Postgres', decision_id: `d-${i}` }])
    const point = (await fresh().recommend(ask)).point
    expect(await level.inCore('alice', point)).toBe(true)
    // At one moment: the string reads a single-select point, then the set sent after it lands
    // before the string's write. The set, recorded last, is the point's latest choice.
    hold = true
    const string = memory.observe([{ ...checks, user_choice: 'Unit tests', decision_id: 'string' }])
    await holding
    await memory.observe([{ ...checks, user_choice: ['Lint', 'Unit tests'], decision_id: 'set' }])
    letGo()
    await string
    expect(landed.slice(-2)).toEqual(['set', 'string'])
    const stored = await level.observationsAt('alice', point)
    expect(stored.slice(-2).map((o) => [o.decision_id, o.multi_select])).toEqual([
      ['string', false],
      ['set', true],
    ])
    expect(await level.inCore('alice', point)).toBe(true)
    const live = await fresh().recommend(ask)
    expect([live.multi_select, await level.latestMultiSelectAt('alice', point, new Date(T))]).toEqual([true, true])
    await fresh().recommend({ user: 'alice', question: database.question, header: database.header, all_options: database.all_options })
    expect(await level.inCore('alice', point)).toBe(false)
    expect(await level.latestMultiSelectAt('alice', point, new Date(T)), 'rebuilt').toBe(true)
    expect(await fresh().recommend(ask), 'rebuilt').toEqual(live)
    clock.advance(60_000)
    await memory.observe([{ ...checks, user_choice: 'Lint', multi_select: false, decision_id: 'later' }])
    expect(await fresh().recommend({ ...ask, as_of: T }), 'as_of').toEqual(live)
    await level.close()
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
