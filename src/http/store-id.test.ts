import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { testTokens } from '../../test/support/tokens'
import { STORE_HEADER } from './store-id'

const ID = '0123456789abcdef0123456789abcdef'
const TIER = { question: 'Which tier?', all_options: ['S', 'M'], user: 'bom' }

async function seeded(storeId?: string) {
  const t = await createTestApp({ storeId })
  const stored = await t.call('POST', '/v1/observations', { ...TIER, user_choice: 'M', decision_id: 'd-1' })
  expect(stored.status).toBe(201)
  return t
}

describe(`${STORE_HEADER}: a request meant for one store`, () => {
  it('is refused, 409 store_mismatch, by a service holding another, which acts on nothing', async () => {
    const t = await seeded(ID)
    const refused = await t.call('DELETE', '/v1/users/bom', undefined, { [STORE_HEADER]: 'f'.repeat(32) })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('store_mismatch')
    expect(refused.body.error.issues).toEqual([{ path: STORE_HEADER, message: 'names a store this service does not hold' }])
    const kept = await t.call('GET', '/v1/users/bom/preferences')
    expect(kept.body.points).toHaveLength(1)
  })

  it('is refused when empty, as naming no store, and said so', async () => {
    const t = await seeded(ID)
    for (const empty of ['', ' ']) {
      const refused = await t.call('DELETE', '/v1/users/bom', undefined, { [STORE_HEADER]: empty })
      expect(refused.status).toBe(409)
      expect(refused.body.error.message).toBe(`the request names no store (${STORE_HEADER} is empty)`)
      expect(refused.body.error.issues).toEqual([{ path: STORE_HEADER, message: 'is empty, so it names no store: leave the header out, or give the id of the store meant' }])
    }
    expect((await t.call('GET', '/v1/users/bom/preferences')).body.points).toHaveLength(1)
  })

  it('is carried out, with the header sent back, by the service holding it', async () => {
    const t = await seeded(ID)
    const response = await t.app.request('/v1/users/bom', { method: 'DELETE', headers: { [STORE_HEADER]: ID } })
    expect(response.status).toBe(200)
    expect(response.headers.get(STORE_HEADER)).toBe(ID)
    expect((await t.call('GET', '/v1/users/bom/preferences')).body.points).toHaveLength(0)
  })

  it('is refused by a service given no id, which cannot say which store it holds', async () => {
    const t = await seeded()
    expect((await t.call('GET', '/healthz', undefined, { [STORE_HEADER]: ID })).status).toBe(409)
  })

  it('on /healthz, open without a token, says yes or no to the id and gives away neither the id nor a path', async () => {
    const t = await createTestApp({ storeId: ID, auth: testTokens })
    const wrong = await t.app.request('/healthz', { headers: { [STORE_HEADER]: 'f'.repeat(32) } })
    expect(wrong.status).toBe(409)
    expect(wrong.headers.get(STORE_HEADER)).toBeNull()
    expect(await wrong.text()).not.toContain(ID)
    const plain = await t.app.request('/healthz')
    expect(plain.status).toBe(200)
    expect(plain.headers.get(STORE_HEADER)).toBeNull()
    expect(await plain.json()).toEqual({ status: 'ok', version: 'test' })
  })

  it('leaves a request without the header as it was', async () => {
    const t = await seeded(ID)
    const response = await t.app.request('/v1/users/bom/preferences')
    expect(response.status).toBe(200)
    expect(response.headers.get(STORE_HEADER)).toBeNull()
  })
})
