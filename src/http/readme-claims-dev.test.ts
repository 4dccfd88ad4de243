import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'

// README's top (the Quick tour and what it says the answers are) checked as a new user would
// run it: the tour's own request bodies, through the app.

const QUESTION = 'Which complexity tier should this SPEC use?'
const OPTIONS = ['Tier S', 'Tier M', 'Tier L']

/** The tour's observation, with another decision_id and choice. */
function observation(n: number, choice: string) {
  return {
    decision_id: `ask-${String(n).padStart(3, '0')}`,
    question: QUESTION,
    header: 'Tier',
    user_choice: choice,
    all_options: OPTIONS,
    context: { phase: 'run' },
    user: 'alice',
    project: 'acme/api',
    session_id: 's-1',
  }
}

/** The tour's recommendation request, as written there. */
const ASK = {
  user: 'alice',
  project: 'acme/api',
  session_id: 's-2',
  question: QUESTION,
  header: 'Tier',
  all_options: OPTIONS,
  context: { phase: 'run' },
}

describe('README Quick tour', () => {
  it('stores the tour\'s choice without its "(Recommended)" annotation, at the complexity tier', async () => {
    const { call } = await createTestApp()
    const stored = await call('POST', '/v1/observations', observation(1, 'Tier M (Recommended)'))
    expect(stored.status).toBeLessThan(300)
    expect(stored.body).toEqual({ stored: [{ id: expect.any(String), point: 'complexity-tier', decision_id: 'ask-001' }], duplicates: [] })
    const { body } = await call('POST', '/v1/recommendations', ASK)
    expect(body.options.find((o: { option: string }) => o.option === 'Tier M').count).toBe(1)
    expect(body.options.map((o: { option: string }) => o.option).sort()).toEqual([...OPTIONS].sort())
  })

  it('answers the static default with fewer than 5 observations, saying how many more it needs', async () => {
    const { call, clock } = await createTestApp()
    const choices = ['Tier M (Recommended)', 'Tier S', 'Tier M', 'Tier S']
    const disclosures: string[] = []
    for (const [i, choice] of choices.entries()) {
      expect((await call('POST', '/v1/observations', observation(i + 1, choice))).status).toBeLessThan(300)
      clock.advance(60_000)
      const { status, body } = await call('POST', '/v1/recommendations', ASK)
      expect(status).toBe(200)
      expect(body.state).toBe('static-default')
      expect(body.recommended).toBe('Tier M')
      disclosures.push(body.disclosure)
    }
    expect(disclosures[0]).toBe('based on static default, 4 observations needed for personalization')
    expect(disclosures[3]).toBe('based on static default, 1 observations needed for personalization')
  })

  it('answers Tier M, partial, medium-high (0.81) with 6 of 10 observations Tier M, 3 Tier S and 1 Tier L', async () => {
    const { call, clock } = await createTestApp()
    const choices = ['Tier M (Recommended)', 'Tier S', 'Tier M', 'Tier S', 'Tier M', 'Tier S', 'Tier L', 'Tier M', 'Tier M', 'Tier M']
    for (const [i, choice] of choices.entries()) {
      expect((await call('POST', '/v1/observations', observation(i + 1, choice))).status).toBeLessThan(300)
      clock.advance(60_000)
    }
    const { status, body } = await call('POST', '/v1/recommendations', ASK)
    expect(status).toBe(200)
    expect(body).toMatchObject({ recommended: 'Tier M', state: 'partial', observations: 10, disclosure: 'based on 60% of recent choices' })
    expect(body.confidence.level).toBe('medium-high')
    expect(body.confidence.value).toBeCloseTo(0.81, 2)
    expect(body.options.find((o: { option: string }) => o.option === 'Tier M').label).toBe('Tier M (Recommended)')
  })

  it('serves the API reference at /docs from the service itself, and OpenAPI 3.1 at /openapi.json', async () => {
    const { app } = await createTestApp()
    const docs = await app.request('/docs')
    expect(docs.status).toBe(200)
    const html = await docs.text()
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)
    expect(assets.length).toBeGreaterThan(0)
    for (const asset of assets) {
      expect(asset, 'served locally, so it works offline').not.toMatch(/^(https?:)?\/\//)
      expect((await app.request(new URL(asset, 'http://localhost/docs').pathname)).status, asset).toBe(200)
    }
    const openapi = await app.request('/openapi.json')
    expect(openapi.status).toBe(200)
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./)
  })

  it('answers /healthz once started', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('GET', '/healthz')
    expect(status).toBe(200)
    expect(body.status).toBe('ok')
  })
})
