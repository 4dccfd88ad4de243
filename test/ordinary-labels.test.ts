import { describe, expect, it } from 'vitest'
import { createTestApp } from './support/test-app'

const PROTO_WORDS = ['__proto__', 'constructor', 'toString']

function ndjson(text: string): Array<{ type: string; data?: any }> {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l))
}

describe('__proto__, constructor and toString are ordinary labels everywhere (R-SVC-2)', () => {
  it('as options, choices, context keys and values, point, user, project and session', async () => {
    const { app, call } = await createTestApp()
    // Raw JSON: an object literal in JS would turn "__proto__" into a prototype, not a key.
    const observation = (i: number, choice: string) =>
      `{"decision_id": "d-${i}", "question": "Which one?", "point": "constructor", "user": "__proto__",
        "project": "toString", "session_id": "hasOwnProperty", "user_choice": "${choice}",
        "all_options": ["__proto__", "constructor", "toString"],
        "context": {"__proto__": "valueOf", "constructor": "x", "toString": "run"}}`
    const body = `[${[0, 1, 2, 3, 4, 5].map((i) => observation(i, i < 5 ? '__proto__' : 'toString')).join(',')}]`
    const posted = await app.request('/v1/observations', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(posted.status).toBe(201)

    const request = `{"question": "Which one?", "point": "constructor", "user": "__proto__", "project": "toString",
      "all_options": ["__proto__", "constructor", "toString"], "context": {"__proto__": "valueOf", "toString": "run"}}`
    const answer = await app.request('/v1/recommendations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })
    const recommendation = (await answer.json()) as any
    expect(answer.status).toBe(200)
    expect(recommendation.point).toBe('constructor')
    expect(recommendation.recommended).toBe('__proto__')
    expect(recommendation.options.map((o: any) => [o.option, o.count])).toEqual([
      ['__proto__', 5],
      ['constructor', 0],
      ['toString', 1],
    ])
    // The context keys were kept as keys: the precondition names them.
    expect(recommendation.precondition).toContain('__proto__ is valueOf')
    expect(recommendation.precondition).toContain('toString is run')

    const preferences = await call('GET', '/v1/users/__proto__/preferences')
    expect(preferences.body.points[0]).toMatchObject({ point: 'constructor', majority: '__proto__', projects: ['toString'] })

    const lines = ndjson(await (await app.request('/v1/users/__proto__/export')).text())
    const stored = lines.filter((l) => l.type === 'observation').map((l) => l.data)
    expect(stored).toHaveLength(6)
    expect(Object.keys(stored[0].context).sort()).toEqual(PROTO_WORDS.slice().sort())
    expect(Object.getPrototypeOf(stored[0].context)).toBe(Object.prototype)
    expect(({} as any).polluted).toBeUndefined()

    expect((await call('DELETE', '/v1/users/__proto__')).body.deleted).toBeGreaterThan(6)
    expect((await call('GET', '/v1/users/__proto__/preferences')).body.points).toEqual([])
  })

  it('as the text of a question a hook reports answered: its answer, keyed by that text, is recorded', async () => {
    // The answers were parsed into a new object by assignment, where `__proto__` sets the
    // prototype: the answer to a question "__proto__" was dropped, and the hook said 200.
    const { app, call } = await createTestApp()
    const question = (text: string) => `{"question": "${text}", "header": "H", "options": [{"label": "__proto__"}, {"label": "constructor"}], "multiSelect": false}`
    for (const [i, text] of ['__proto__', 'constructor', 'toString'].entries()) {
      const answers = `{"${text}": "constructor"}`
      const body = `{"hook_event_name": "PostToolUse", "tool_name": "AskUserQuestion", "session_id": "s-1", "tool_use_id": "t-${i}",
        "tool_input": {"questions": [${question(text)}], "answers": ${answers}}, "tool_response": {"answers": ${answers}}}`
      const posted = await app.request('/v1/hooks/claude-code', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(posted.status, text).toBe(200)
    }
    const stored = ndjson((await call('GET', '/v1/users/default/export')).body).filter((l) => l.type === 'observation').map((l) => l.data)
    expect(stored.map((o) => [o.question, o.chosen]).sort()).toEqual([
      ['__proto__', ['constructor']],
      ['constructor', ['constructor']],
      ['toString', ['constructor']],
    ])
    expect(({} as any).polluted).toBeUndefined()
  })

  it('never reads a context key an observation lacks from Object.prototype', async () => {
    const { call } = await createTestApp()
    const base = { question: 'Ship it?', all_options: ['yes', 'no'] }
    let i = 0
    for (let k = 0; k < 8; k++) await call('POST', '/v1/observations', { ...base, user_choice: 'yes', decision_id: `d-${i++}`, context: { constructor: 'a' } })
    for (let k = 0; k < 6; k++) await call('POST', '/v1/observations', { ...base, user_choice: 'no', decision_id: `d-${i++}` })
    // The 6 without the key do not "have" constructor = Object's source text.
    const narrowed = await call('POST', '/v1/recommendations', { ...base, context: { constructor: String(Object) } })
    expect(narrowed.body.context_key).toBeNull()
    expect(narrowed.body.recommended).toBe('yes')
    expect(narrowed.body.observations).toBe(14)
  })

  it('finds no contradiction in a context key the request lacks', async () => {
    const { call } = await createTestApp()
    const base = { question: 'Ship it?', all_options: ['yes', 'no'] }
    for (let k = 0; k < 6; k++) await call('POST', '/v1/observations', { ...base, user_choice: 'yes', decision_id: `d-${k}`, context: { toString: 'a' } })
    const { body } = await call('POST', '/v1/recommendations', { ...base, context: { phase: 'run' } })
    expect(body.precondition).toBe('toString is a')
    expect(body.contradictions).toEqual([])
  })
})

describe('Unicode labels that differ only in normalisation form are one label', () => {
  const NFC = 'Caf\u00e9 cr\u00e8me'
  const NFD = NFC.normalize('NFD')

  it('in options, choices, questions (point hashes), points, users and context', async () => {
    expect(NFC).not.toBe(NFD)
    const { call } = await createTestApp()
    const observations = [0, 1, 2, 3, 4, 5].map((i) => ({
      decision_id: `d-${i}`,
      question: i % 2 === 0 ? `Which drink, ${NFC}?` : `Which drink, ${NFD}?`,
      all_options: i % 2 === 0 ? [NFC, 'Tea'] : [NFD, 'Tea'],
      user_choice: i % 2 === 0 ? NFD : NFC,
      user: i % 2 === 0 ? `zo\u00eb` : 'zoe\u0308',
      context: i % 2 === 0 ? { [NFC]: NFD } : { [NFD]: NFC },
    }))
    const posted = await call('POST', '/v1/observations', observations)
    expect(new Set(posted.body.stored.map((s: any) => s.point)).size).toBe(1)
    const { body } = await call('POST', '/v1/recommendations', {
      question: `Which drink, ${NFD}?`,
      all_options: ['Tea', NFD],
      user: 'zoe\u0308',
      context: { [NFD]: NFD },
    })
    expect(body.observations).toBe(6)
    expect(body.recommended).toBe(NFC)
    expect(body.precondition).toBe(`${NFC} is ${NFC}`)
    const explicit = await call('POST', '/v1/observations', { ...observations[0], decision_id: 'p', point: `p-${NFD}` })
    expect(explicit.body.stored[0].point).toBe(`p-${NFC}`)
  })
})
