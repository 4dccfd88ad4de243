import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp } from '../../test/support/test-app'

const OBS = { question: 'Which tier?', user_choice: 'Tier S', all_options: ['Tier S', 'Tier M'] }
const REC = { question: 'Which tier?', all_options: ['Tier S', 'Tier M'] }
const PLAN = { questions: [{ question: 'Which tier?', header: 'Tier', options: [{ label: 'Tier S' }, { label: 'Tier M' }], multiSelect: false }] }
const SPACED = 'no spaces at its ends'
const BLANK = 'must not be empty or white space alone'
const INVISIBLE = 'no invisible characters at its ends'

describe('a name spaced at its ends, or white space alone, refused where it is written (R-SVC-2)', () => {
  it.each([
    ['user', ' CaseU ', SPACED],
    ['user', 'CaseU\u00a0', SPACED],
    ['project', ' acme/api', SPACED],
    ['session_id', '   ', BLANK],
    ['session_id', 's-1 ', SPACED],
    ['point', 'tier ', SPACED],
    ['decision_id', ' d-1', SPACED],
    ['decision_id', '  ', BLANK],
    // Invisible at an end, which trim() leaves: another name that looks the same.
    ['user', 'CaseU\u200b', INVISIBLE],
    ['project', '\u2060acme/api', INVISIBLE],
    ['session_id', 's-1\u180e', INVISIBLE],
    ['point', 'tier\u200d', INVISIBLE],
    ['decision_id', '\ufeffd-1', INVISIBLE],
    ['decision_id', 'd-1\u200b', INVISIBLE],
    ['decision_id', '\u2060d-1', INVISIBLE],
    ['decision_id', '\ufe0fd-1', INVISIBLE],
    ['decision_id', '\u200b', 'must not be empty or invisible characters alone'],
  ])('POST /v1/observations refuses %s %j, naming it, and stores nothing', async (field, value, message) => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'alice', [field]: value })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([{ path: field, message: expect.stringContaining(message) }])
    expect((await call('GET', '/v1/users/alice/preferences')).body.points).toEqual([])
  })

  it.each([
    ['user', ' CaseU ', 'CaseU'],
    ['project', ' acme/api', 'acme/api'],
    ['session_id', 's-1 ', 's-1'],
    ['point', 'tier ', 'tier'],
    ['decision_id', ' d-1', 'd-1'],
  ])('says of %s %j the name it sent, and the one it would be trimmed', async (field, value, trimmed) => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'alice', [field]: value })
    expect(res.body.error.issues).toEqual([
      { path: field, message: `no spaces at its ends: ${JSON.stringify(value)} would be another name than ${JSON.stringify(trimmed)}` },
    ])
  })

  it('counts an answer sent again with a zero width space at the end of its decision_id once: that id is refused, naming it', async () => {
    const { call } = await createTestApp()
    expect((await call('POST', '/v1/observations', { ...OBS, user: 'alice', decision_id: 'd-1' })).status).toBe(201)
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'alice', decision_id: 'd-1\u200b' })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([
      { path: 'decision_id', message: 'no invisible characters at its ends: "d-1\\u200b" would be another name than "d-1"' },
    ])
    const lines = (await createExport(call, 'alice')).split('\n').filter((l) => l.includes('"type":"observation"'))
    expect(lines.map((l) => JSON.parse(l).data.decision_id)).toEqual(['d-1'])
  })

  it('says in the document the decision_id its pattern takes and the service refuses: an invisible character above U+FFFF at an end', async () => {
    const { call } = await createTestApp()
    const doc = (await call('GET', '/openapi.json')).body
    const { pattern, description } = doc.components.schemas.ObservationInput.properties.decision_id
    const id = 'd-1\u{1d173}'
    for (const flags of ['', 'u']) expect(new RegExp(pattern, flags).test(id), flags).toBe(true)
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'alice', decision_id: id })
    expect(res.body.error.issues).toEqual([{ path: 'decision_id', message: 'no invisible characters at its ends: "d-1\\ud834\\udd73" would be another name than "d-1"' }])
    expect(description).toMatch(/above U\+FFFF \(U\+1D173–1D17A/)
  })

  it('takes a decision_id with an invisible character within it, or a variation selector ending an emoji, as sent', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/observations', [
      { ...OBS, user: 'alice', decision_id: 'd\u200b1' },
      { ...OBS, user: 'alice', decision_id: 'd-❤\ufe0f' },
    ])
    expect(res.status).toBe(201)
    expect(res.body.stored.map((s: { decision_id: string }) => s.decision_id)).toEqual(['d\u200b1', 'd-❤\ufe0f'])
  })

  it.each(['user', 'decision_id'])('quotes no %s past the identifier limit, which its own issue names: the answer is not twice the name', async (field) => {
    const { call } = await createTestApp()
    const value = `${'a'.repeat(20_000)} `
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'alice', [field]: value })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([
      { path: field, message: 'at most 200 characters, not 20001' },
      { path: field, message: SPACED },
    ])
    expect(JSON.stringify(res.body).length).toBeLessThan(1000)
  })

  it.each([
    ['POST /v1/recommendations', '/v1/recommendations', REC],
    ['POST /v1/plan', '/v1/plan', PLAN],
    ['POST /v1/sessions', '/v1/sessions', {}],
  ])('%s refuses user, project and session_id spaced at their ends, or blank, naming each', async (_, path, body) => {
    const { call } = await createTestApp()
    const res = await call('POST', path, { ...body, user: ' CaseU ', project: 'acme ', session_id: ' \t ' })
    expect(res.status).toBe(400)
    expect(res.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['user', 'project', 'session_id'])
  })

  it('refuses a session id white space alone or spaced at its ends in the path of a toggle, and a spaced user in its body', async () => {
    const { call } = await createTestApp()
    for (const id of ['%20%20', '%20s-1', 's-1%20']) {
      const res = await call('PUT', `/v1/sessions/${id}/personalization`, { enabled: false })
      expect(res.status, id).toBe(400)
      expect(res.body.error.issues, id).toEqual([{ path: 'id', message: expect.stringMatching(/no spaces at its ends|white space alone/) }])
    }
    const res = await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false, user: 'alice ' })
    expect(res.body.error.issues).toEqual([{ path: 'user', message: expect.stringContaining(SPACED) }])
  })

  it('toggles a session stored before under an id or user spaced at its ends, or blank: the toggle writes no new name', async () => {
    const { call, memory } = await createTestApp()
    // Started as a version before took them, past the routes that now refuse them.
    for (const [user, session_id] of [['carol', ' s-1'], ['carol', '  '], [' dave', 's-2']] as const) await memory.startSession({ user, session_id })
    const off = await call('PUT', `/v1/sessions/${encodeURIComponent(' s-1')}/personalization`, { enabled: false })
    expect(off.status).toBe(200)
    expect(off.body).toMatchObject({ session_id: ' s-1', user: 'carol', personalization: false })
    const blank = await call('PUT', `/v1/sessions/${encodeURIComponent('  ')}/personalization`, { user: 'carol' })
    expect(blank.status).toBe(200)
    expect(blank.body).toMatchObject({ session_id: '  ', personalization: false })
    const spacedUser = await call('PUT', '/v1/sessions/s-2/personalization', { enabled: false, user: ' dave' })
    expect(spacedUser.status).toBe(200)
    expect(spacedUser.body).toMatchObject({ session_id: 's-2', user: ' dave', personalization: false })
    // One not stored so is still refused, naming the field, and nothing is started.
    const other = await call('PUT', `/v1/sessions/${encodeURIComponent('s-1 ')}/personalization`, { enabled: false, user: 'carol' })
    expect(other.status).toBe(400)
    expect(other.body.error.issues).toEqual([{ path: 'id', message: 'no spaces at its ends: "s-1 " would be another name than "s-1"' }])
    const otherUser = await call('PUT', '/v1/sessions/s-1/personalization', { enabled: false, user: ' carol' })
    expect(otherUser.body.error.issues).toEqual([{ path: 'user', message: expect.stringContaining(SPACED) }])
    const exported = (await createExport(call, 'carol')).split('\n').filter((l) => l.includes('"type":"session"'))
    expect(exported.map((l) => JSON.parse(l).data.session_id).sort()).toEqual(['  ', ' s-1'])
  })

  it('quotes the session and the users spaced at their ends when a toggle must be told whose session it is', async () => {
    const { call, memory } = await createTestApp()
    for (const user of ['alice', ' bob']) await memory.startSession({ user, session_id: ' s-1' })
    const res = await call('PUT', `/v1/sessions/${encodeURIComponent(' s-1')}/personalization`, { enabled: false })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toBe('session " s-1" belongs to several users')
    expect(res.body.error.issues).toEqual([{ path: 'user', message: 'name one of: " bob", alice' }])
  })

  it('says in the document every rule a toggle of a new session refuses its id and user by, which its pattern cannot', async () => {
    const { call } = await createTestApp()
    const op = (await call('GET', '/openapi.json')).body.paths['/v1/sessions/{id}/personalization'].put
    const id = op.parameters.find((p: { name: string }) => p.name === 'id').schema.description ?? op.parameters.find((p: { name: string }) => p.name === 'id').description
    const user = op.requestBody.content['application/json'].schema
    const userDescription = (user.$ref === undefined ? user : (await call('GET', '/openapi.json')).body.components.schemas.PersonalizationRequest).properties.user.description
    for (const [description, field, body, path] of [
      [id, 'id', {}, 's-1\u200b'],
      [userDescription, 'user', { user: '\u2060carol' }, 's-1'],
    ] as const) {
      const refused = await call('PUT', `/v1/sessions/${encodeURIComponent(path)}/personalization`, body)
      expect(refused.body.error.issues).toEqual([{ path: field, message: expect.stringContaining('no invisible characters at its ends') }])
      expect(description, field).toMatch(/invisible characters?/)
    }
  })

  it('refuses a decision bound to a point spaced at its ends, naming scope.points.0', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/decisions', { key: 'D-1', title: 'Tier', decision: 'S', rationale: 'small', status: 'accepted', scope: { points: [' tier'] } })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([{ path: 'scope.points.0', message: expect.stringContaining(SPACED) }])
  })

  it('refuses the hook’s ?user= spaced at its ends, as the user it records for', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', `/v1/hooks/claude-code?user=${encodeURIComponent(' alice')}`, claudeCodeFixture('post-tool-use-single'))
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toEqual([{ path: 'user', message: expect.stringContaining(SPACED) }])
  })

  it('takes a name with a space inside, as before', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'Case U', project: 'acme api', session_id: 's 1', point: 'the tier', decision_id: 'd 1' })
    expect(res.status).toBe(201)
  })

  it('takes a name with an invisible character inside, or an emoji ending it with its variation selector', async () => {
    const { call } = await createTestApp()
    const res = await call('POST', '/v1/observations', { ...OBS, user: 'dev 👩\u200d💻', project: 'team ❤\ufe0f', session_id: 's\u200b1', point: 'the\u2060tier' })
    expect(res.status).toBe(201)
    expect((await call('GET', `/v1/users/${encodeURIComponent('dev 👩\u200d💻')}/preferences`)).body.points.map((p: { point: string }) => p.point)).toEqual(['the\u2060tier'])
  })
})

describe('a hook payload whose session_id is white space alone', () => {
  it('is taken without a session, its answers learned, rather than refused: the user’s Claude Code is not failed for it', async () => {
    const { call, memory } = await createTestApp()
    const payload = { ...claudeCodeFixture('post-tool-use-single'), session_id: '   ' }
    const res = await call('POST', '/v1/hooks/claude-code?user=alice', payload)
    expect(res.status).toBe(200)
    const lines = (await createExport(call, 'alice')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    const observations = lines.filter((l) => l.type === 'observation')
    expect(observations).toHaveLength(1)
    expect(observations[0].data.session_id).toBeNull()
    expect(lines.filter((l) => l.type === 'session')).toEqual([])
    // A SessionStart of such an id starts no session.
    const start = await call('POST', '/v1/hooks/claude-code?user=alice', { ...claudeCodeFixture('session-start'), session_id: ' ' })
    expect(start.status).toBe(200)
    expect(await memory.startSession({ user: 'alice', session_id: ' ' }).then((s) => s.created)).toBe(true)
  })

  it('reads an empty session_id as none too, rather than refuse the event and leave its answers unlearned', async () => {
    const { call } = await createTestApp()
    const payload = { ...claudeCodeFixture('post-tool-use-single'), session_id: '' }
    const res = await call('POST', '/v1/hooks/claude-code?user=bob', payload)
    expect(res.status).toBe(200)
    const lines = (await createExport(call, 'bob')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'observation').map((l) => l.data.session_id)).toEqual([null])
    expect((await call('POST', '/v1/hooks/claude-code?user=bob', { ...claudeCodeFixture('session-start'), session_id: '' })).status).toBe(200)
    const after = (await createExport(call, 'bob')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    expect(after.filter((l) => l.type === 'session')).toEqual([])
  })

  it('reads a session_id spaced at its ends as none: the session it started could not be turned off', async () => {
    const { call } = await createTestApp()
    for (const session_id of [' s-1', 's-1 ', '\u00a0s-1', 's-1\u3000', 's-1\u200b', '\u2060s-1']) {
      expect((await call('POST', '/v1/hooks/claude-code?user=carol', { ...claudeCodeFixture('session-start'), session_id })).status).toBe(200)
      const res = await call('POST', '/v1/hooks/claude-code?user=carol', { ...claudeCodeFixture('post-tool-use-single'), session_id })
      expect(res.status).toBe(200)
    }
    const lines = (await createExport(call, 'carol')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'session')).toEqual([])
    expect(lines.filter((l) => l.type === 'observation').map((l) => l.data.session_id)).toEqual([null])
    // What it would have been is refused where a session is toggled.
    expect((await call('PUT', `/v1/sessions/${encodeURIComponent(' s-1')}/personalization`, { enabled: false, user: 'carol' })).status).toBe(400)
  })

  it('reads a session_id that is no string (null, 0) as none too, as a blank one: the answers learned, not refused', async () => {
    const { call } = await createTestApp()
    for (const [i, session_id] of [null, 0, false, ['s-1']].entries()) {
      const res = await call('POST', '/v1/hooks/claude-code?user=bob', { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: `toolu_${i}`, session_id })
      expect(res).toEqual({ status: 200, body: {} })
    }
    const lines = (await createExport(call, 'bob')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'observation').map((l) => l.data.session_id)).toEqual([null, null, null, null])
  })
})

async function createExport(call: Awaited<ReturnType<typeof createTestApp>>['call'], user: string): Promise<string> {
  const res = await call('GET', `/v1/users/${encodeURIComponent(user)}/export`)
  expect(res.status).toBe(200)
  return typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
}

describe('what was stored under a name spaced at its ends before writes refused one', () => {
  it('is still read, explained, exported and forgotten over HTTP', async () => {
    const { call, memory } = await createTestApp()
    // Stored as a version before took it, past the routes that now refuse it.
    await memory.observe([{ ...OBS, user: ' CaseU ', project: ' acme ', session_id: ' s-1 ', point: ' tier ', decision_id: ' d-1 ', source: 'user' }])
    const user = encodeURIComponent(' CaseU ')
    const preferences = await call('GET', `/v1/users/${user}/preferences`)
    expect(preferences.status).toBe(200)
    expect(preferences.body.points.map((p: { point: string }) => p.point)).toEqual([' tier '])
    const why = await call('GET', `/v1/why?user=${user}&project=${encodeURIComponent(' acme ')}&session_id=${encodeURIComponent(' s-1 ')}&point=${encodeURIComponent(' tier ')}`)
    expect(why.status).toBe(200)
    const exported = await createExport(call, ' CaseU ')
    expect(exported).toContain('" d-1 "')
    const forgotten = await call('DELETE', `/v1/users/${user}`)
    expect(forgotten.status).toBe(200)
    expect(forgotten.body.user).toBe(' CaseU ')
    expect((await call('GET', `/v1/users/${user}/preferences`)).body.points).toEqual([])
  })
  it('is named quoted where nothing is known of it, its spaces seen; a name without them as it is', async () => {
    const { call } = await createTestApp()
    const spaced = await call('GET', `/v1/why?user=${encodeURIComponent(' CaseU ')}&point=${encodeURIComponent(' tier ')}`)
    expect(spaced.status).toBe(404)
    expect(spaced.body.error.message).toBe('nothing is known of point " tier " for user " CaseU "')
    const plain = await call('GET', '/v1/why?user=CaseU&point=tier')
    expect(plain.body.error.message).toBe('nothing is known of point tier for user CaseU')
  })
})
