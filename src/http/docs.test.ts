import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, testTokens } from '../../test/support/tokens'
import { LIMITS } from '../domain/limits'

describe('OpenAPI document and /docs (R-SVC-1)', () => {
  it('lists every route with its request and response schemas', async () => {
    const { call } = await createTestApp()
    const { status, body } = await call('GET', '/openapi.json')
    expect(status).toBe(200)
    const routes = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(routes.sort()).toEqual(
      expect.arrayContaining([
        'GET /healthz',
        'POST /v1/observations',
        'POST /v1/recommendations',
        'POST /v1/sessions',
        'PUT /v1/sessions/{id}/personalization',
      ]),
    )
    const post = body.paths['/v1/recommendations'].post
    expect(post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/RecommendationRequest')
    expect(post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Recommendation')
    expect(body.components.schemas.ObservationInput.required).toEqual(
      expect.arrayContaining(['question', 'user_choice', 'all_options']),
    )
  })

  it('names the service it was fetched from as its server, by a relative URL that holds whatever host, port or sub-path it is reached by', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    expect(body.servers).toEqual([{ url: expect.any(String), description: expect.any(String) }])
    // Read against the document's URL, as OpenAPI and Swagger UI's Try it out read it, then the
    // path appended: `/`, the host's root, left a proxy's sub-path, calling `https://host/v1/…`.
    for (const prefix of ['', '/dm', '/a/b']) {
      for (const origin of ['http://127.0.0.1:7420', 'https://host']) {
        const server = new URL(body.servers[0].url, `${origin}${prefix}/openapi.json`).href.replace(/\/$/, '')
        expect(`${server}/v1/recommendations`, `${origin}${prefix}`).toBe(`${origin}${prefix}/v1/recommendations`)
      }
    }
  })

  it('names the license package.json names, by its SPDX identifier', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { license: string }
    expect(body.info.license).toEqual({ name: pkg.license, identifier: pkg.license })
  })

  it('serves /docs with every asset from this service, none from a CDN', async () => {
    const { app } = await createTestApp()
    for (const path of ['/docs', '/docs/']) {
      const page = await (await app.request(path)).text()
      const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1] as string, `http://127.0.0.1${path}`).pathname)
      expect(assets.length, path).toBeGreaterThan(0)
      for (const asset of assets) {
        const r = await app.request(asset)
        expect(r.status, asset).toBe(200)
        expect((await r.text()).length).toBeGreaterThan(1000)
      }
      expect(page).not.toMatch(/https?:\/\//)
    }
  })

  // Behind a reverse proxy that serves the service under a sub-path (`https://host/dm/` passed on as
  // `/`), a URL named from the root (`/openapi.json`) left the sub-path: the page fetched the host's
  // own /openapi.json, and its stylesheet and script from /docs/…, another service's or a 404.
  it.each(['/docs', '/docs/'])('names every URL of %s relative to the page, which finds them at the root and under a sub-path', async (path) => {
    const { app } = await createTestApp()
    const page = await (await app.request(path)).text()
    const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g), ...page.matchAll(/\burl: '([^']+)'/g)].map((m) => m[1] as string)
    expect(urls.length).toBe(3)
    for (const prefix of ['', '/dm', '/a/b']) {
      const at = new URL(`${prefix}${path}`, 'https://host')
      const paths = urls.map((url) => new URL(url, at).pathname)
      expect(paths, `${prefix}${path}`).toContain(`${prefix}/openapi.json`)
      for (const found of paths) {
        expect(found.startsWith(`${prefix}/`), `${found} from ${prefix}${path}`).toBe(true)
        // What the proxy passes on: the path without its sub-path.
        const r = await app.request(found.slice(prefix.length))
        expect(r.status, `${found} from ${prefix}${path}`).toBe(200)
      }
    }
  })

  it('serves what the assets of /docs name in turn: a source map, a url() of the stylesheet', async () => {
    // swagger-ui.css ends in `/*# sourceMappingURL=swagger-ui.css.map*/`, which a browser's
    // developer tools fetch from beside it: a 404 there was the one request of /docs that failed.
    const { app } = await createTestApp()
    const page = await (await app.request('/docs')).text()
    const named: string[] = []
    for (const asset of [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1] as string, 'http://127.0.0.1/docs').pathname)) {
      const text = await (await app.request(asset)).text()
      const base = new URL(asset, 'http://127.0.0.1')
      for (const [, ref] of text.matchAll(/[#@] sourceMappingURL=([^\s*]+)/g)) named.push(new URL(ref as string, base).pathname)
      if (!asset.endsWith('.css')) continue
      for (const [, ref] of text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) if (!(ref as string).startsWith('data:')) named.push(new URL(ref as string, base).pathname)
    }
    expect(named).toContain('/docs/swagger-ui.css.map')
    for (const path of named) {
      const r = await app.request(path)
      expect(r.status, path).toBe(200)
      if (path.endsWith('.map')) expect(((await r.json()) as { version?: unknown }).version, path).toBe(3)
    }
  })
})

describe('operation ids and tags in the OpenAPI document (R-SVC-1)', () => {
  it('names every operation by a unique camelCase operationId, filed under a tag the document declares', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const declared = new Map(((body.tags ?? []) as Array<{ name: string; description?: string }>).map((t) => [t.name, t.description]))
    const operations = Object.entries(body.paths as Record<string, Record<string, { operationId?: string; tags?: string[] }>>).flatMap(
      ([path, ops]) => Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, ...op })),
    )
    expect(operations.length).toBeGreaterThanOrEqual(24)
    const ids = new Set<string>()
    const used = new Set<string>()
    for (const { route, operationId, tags } of operations) {
      // A client generator makes its method names of these: a stable name, not one made of the path.
      expect(operationId, route).toMatch(/^[a-z][A-Za-z]+$/)
      expect(ids.has(operationId as string), `${route}: ${operationId} twice`).toBe(false)
      ids.add(operationId as string)
      // Swagger UI files an operation with no tag, or one it is not told of, under "default".
      expect(tags?.length ?? 0, route).toBeGreaterThan(0)
      for (const tag of tags ?? []) {
        expect(declared.has(tag), `${route}: tag ${tag} not declared`).toBe(true)
        used.add(tag)
      }
    }
    for (const [name, description] of declared) {
      expect(description, name).toMatch(/\w/)
      expect(used.has(name), `${name}: declared, filing no operation`).toBe(true)
    }
    expect(declared.size).toBe(body.tags.length)
    // The names the MCP tools have, where an operation does what a tool does.
    expect(body.paths['/v1/recommendations'].post.operationId).toBe('recommend')
    expect(body.paths['/v1/plan'].post.operationId).toBe('planQuestions')
    expect(body.paths['/v1/decisions/check'].post.operationId).toBe('checkDecision')
  })
})

describe('the OpenAPI document as a client generator reads it (R-SVC-1)', () => {
  /** Each schema object of the document, where it is (a JSON Pointer), examples and enums left out: they are values. */
  function schemaNodes(node: unknown, at: string, out: Array<{ at: string; node: Record<string, unknown> }> = []) {
    if (typeof node !== 'object' || node === null) return out
    if (Array.isArray(node)) {
      node.forEach((item, i) => schemaNodes(item, `${at}/${i}`, out))
      return out
    }
    out.push({ at, node: node as Record<string, unknown> })
    for (const [key, value] of Object.entries(node)) {
      if (!['example', 'examples', 'enum', 'const', 'default'].includes(key)) schemaNodes(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out)
    }
    return out
  }

  it('resolves every $ref it holds, in the document itself', async () => {
    const { body } = await (await createTestApp()).call('GET', '/openapi.json')
    const refs = schemaNodes(body, '#').filter(({ node }) => typeof node.$ref === 'string')
    expect(refs.length).toBeGreaterThan(20)
    for (const { at, node } of refs) {
      const ref = node.$ref as string
      expect(ref.startsWith('#/'), `${at}: ${ref}`).toBe(true)
      const target = ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((here, part) => (typeof here === 'object' && here !== null ? (here as Record<string, unknown>)[part] : undefined), body)
      expect(target, `${at}: ${ref}`).toBeTypeOf('object')
    }
  })

  it("says a rule among an object's fields (DecisionCheck: an action or a choice) so that a generated client types the object, not `unknown`", async () => {
    // openapi-typescript makes an anyOf beside an object's properties a union with them, and a
    // branch that is `required` alone `unknown`: DecisionCheck was `{…} | unknown | unknown`, which
    // is `unknown`, and a client typed against it took any value as a check's body.
    const { body } = await (await createTestApp()).call('GET', '/openapi.json')
    for (const { at, node } of schemaNodes(body, '#')) {
      for (const key of ['anyOf', 'oneOf'] as const) {
        const branches = node[key] as Array<Record<string, unknown>> | undefined
        if (branches === undefined) continue
        expect(node.properties, `${at}: ${key} beside properties`).toBeUndefined()
        for (const [i, branch] of branches.entries()) {
          const typed = ['type', '$ref', 'properties', 'enum', 'const', 'anyOf', 'oneOf', 'allOf'].some((word) => word in branch)
          expect(typed, `${at}/${key}/${i}: ${JSON.stringify(branch)}`).toBe(true)
        }
      }
    }
    const check = body.components.schemas.DecisionCheck
    // Each branch given and not null: a null field is one left out (nullsLeftOut).
    expect(check.allOf[0]).toEqual({ anyOf: [{ required: ['action'], properties: { action: { type: 'string' } } }, { required: ['choice'], properties: { choice: { type: ['string', 'array'] } } }] })
  })
})

describe('unknown fields in the OpenAPI document (R-SVC-2)', () => {
  it('says additionalProperties: false of every body that refuses them, and leaves open what stays open', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const schemas = body.components.schemas
    const deref = (s: { $ref?: string }) => (s.$ref === undefined ? s : schemas[s.$ref.replace('#/components/schemas/', '')])
    const bodies: string[] = []
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, { requestBody?: any }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.requestBody === undefined) continue
        const schema = deref(op.requestBody.content['application/json'].schema)
        // One observation or an array of them; an anyOf beside an object's fields (DecisionCheck) only narrows it.
        const objects = schema.anyOf === undefined || schema.properties !== undefined ? [schema] : schema.anyOf.map((s: any) => deref(s.type === 'array' ? s.items : s))
        for (const object of objects) {
          bodies.push(`${method} ${path}`)
          // Claude Code's payloads gain fields with each release: the hook stays open.
          if (path === '/v1/hooks/claude-code') expect(object.additionalProperties, path).not.toBe(false)
          else expect(object.additionalProperties, `${method} ${path}`).toBe(false)
        }
      }
    }
    expect(bodies.length).toBeGreaterThanOrEqual(12)
    const decision = schemas.DecisionInput
    expect(decision.properties.scope.additionalProperties).toBe(false)
    expect(decision.properties.constraints.items.additionalProperties).toBe(false)
    expect(decision.properties.events).toMatchObject({ readOnly: true })
    expect(schemas.DecisionImport.properties.records.items.properties.origin.additionalProperties).toBe(false)
    // Open by design: an option object as AskUserQuestion has it, a question of a plan, a context.
    const option = schemas.ObservationInput.properties.all_options.items.anyOf.find((s: any) => s.type === 'object')
    expect(option.additionalProperties).toBeUndefined()
    expect(schemas.AskUserQuestion.additionalProperties).not.toBe(false)
    expect(schemas.AskUserQuestion.properties.options.items.additionalProperties).not.toBe(false)
    expect(schemas.RecommendationRequest.properties.context.additionalProperties).not.toBe(false)
  })

  it("says what a check's checked lists: the decisions it reached, each a recall pulse (R-CON-4)", async () => {
    const { call } = await createTestApp()
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    expect(schemas.DecisionVerdict.properties.checked.description).toMatch(/reached.*recall pulse.*bound to no point.*`must_not` pattern/)
  })

  it("states a check's multiSelect as a recommendation's, and that it needs a choice, as multi_select does", async () => {
    const { call } = await createTestApp()
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    expect(schemas.DecisionCheck.properties.multiSelect).toEqual(schemas.RecommendationRequest.properties.multiSelect)
    // Left out or null, or with a choice: a null multiSelect is one left out, and a null choice no choice.
    for (const name of ['multi_select', 'multiSelect']) {
      expect(schemas.DecisionCheck.allOf).toContainEqual({ anyOf: [{ properties: { [name]: { type: 'null' } } }, { required: ['choice'], properties: { choice: { type: ['string', 'array'] } } }] })
    }
  })

  it("describes each field of a plan's AskUserQuestion question and option, which agents read to fill them", async () => {
    const { call } = await createTestApp()
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    const question = schemas.AskUserQuestion.properties
    const option = question.options.items.properties
    for (const [name, field] of Object.entries({ ...question, ...option }) as Array<[string, { description?: string }]>) {
      expect(field.description, name).toMatch(/\S/)
    }
    // As a plan writes it: the agent's description first, the rationale after it.
    expect(option.description.description).toMatch(/followed by "Recommended when/)
    // Not blank is still said as a pattern beside the description.
    expect(question.question.pattern).toBeDefined()
    expect(option.label.pattern).toBeDefined()
  })
})

describe('the values of the OpenAPI document', () => {
  it('GET /v1/why enumerates the states, levels, statuses and effects the other answers enumerate', async () => {
    const { body } = await (await createTestApp()).call('GET', '/openapi.json')
    const { Recommendation, Decision, PointWhy } = body.components.schemas
    const why = PointWhy.properties
    const recommendation = why.recommendation.properties
    const decision = why.decisions.items.properties
    expect(recommendation.state.enum).toEqual(Recommendation.properties.state.enum)
    expect(recommendation.learned.properties.state.enum).toEqual(Recommendation.properties.state.enum)
    expect(recommendation.confidence.properties.level.enum).toEqual(Recommendation.properties.confidence.properties.level.enum)
    expect(decision.status.enum).toEqual(Decision.properties.status.enum)
    expect(decision.enforce.enum).toEqual(Decision.properties.enforce.enum)
    // An effect, or null for a decision bound to the point that does not apply in the run.
    expect(decision.effect.enum).toEqual([...Recommendation.properties.decisions.items.properties.effect.enum, null])
  })
})

describe('the examples /docs sends one after another', () => {
  it("names in a decision route's {key} the key its create example makes, so that Try it out finds it", async () => {
    const { call } = await createTestApp()
    const { body: doc } = await call('GET', '/openapi.json')
    const made = doc.components.schemas.DecisionInput.example.key as string
    const keyed = Object.entries(doc.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string; example?: unknown; schema?: { example?: unknown } }> }>>)
      .filter(([path]) => path.includes('{key}'))
      .flatMap(([path, operations]) => Object.entries(operations).map(([method, op]) => ({ at: `${method} ${path}`, key: op.parameters?.find((p) => p.in === 'path' && p.name === 'key') })))
    expect(keyed.length).toBeGreaterThan(3)
    for (const { at, key } of keyed) expect(key?.example ?? key?.schema?.example, at).toBe(made)
    const created = await call('POST', '/v1/decisions', doc.components.schemas.DecisionInput.example)
    expect(created.status).toBe(201)
    expect((await call('GET', `/v1/decisions/${made}`)).status).toBe(200)
  })
})

describe('the 409 answers of the decision routes in the OpenAPI document', () => {
  it('names each code a decision route answers 409 with', async () => {
    const { call } = await createTestApp()
    const { body: doc } = await call('GET', '/openapi.json')
    const propose = (key: string, more: object = {}) => call('POST', '/v1/decisions', { key, title: key, decision: 'd', rationale: 'r', ...more })
    await propose('D-1', { status: 'accepted' })
    await propose('D-2', { supersedes: 'D-1' })
    await propose('D-3', { status: 'accepted', supersedes: 'D-1' })
    await propose('D-4', { status: 'accepted' })
    const conflicts = [
      ['/v1/decisions', await propose('D-4')],
      ['/v1/decisions', await propose('D-5', { status: 'accepted', supersedes: 'D-1' })],
      ['/v1/decisions', await propose('D-6', { status: 'accepted', supersedes: 'D-2' })],
      ['/v1/decisions/{key}/accept', await call('POST', '/v1/decisions/D-2/accept')],
      ['/v1/decisions/{key}/accept', await call('POST', '/v1/decisions/D-3/accept')],
      ['/v1/decisions/{key}/deprecate', await call('POST', '/v1/decisions/D-1/deprecate')],
      ['/v1/decisions/{key}/revoke', await call('POST', '/v1/decisions/D-1/revoke')],
      ['/v1/decisions/{key}/supersede', await call('POST', '/v1/decisions/D-1/supersede', { by: 'D-4' })],
      ['/v1/decisions/{key}/supersede', await call('POST', '/v1/decisions/D-4/supersede', { by: 'D-3' })],
      ['/v1/decisions/{key}/supersede', await call('POST', '/v1/decisions/D-1/supersede', { by: 'D-3' })],
    ] as const
    const codes = new Set<string>()
    for (const [path, answer] of conflicts) {
      expect(answer.status, path).toBe(409)
      codes.add(answer.body.error.code)
      expect(doc.paths[path].post.responses['409'].description, `${path} ${answer.body.error.code}`).toContain(`\`${answer.body.error.code}\``)
    }
    expect([...codes].sort()).toEqual(['already_superseded', 'decision_exists', 'invalid_transition', 'supersedes_another'])
  })
})

describe('the ?user= a route reading its user from the body or the path lets pass', () => {
  it('is listed as a query parameter of exactly those routes, saying it must name that user, as the routes answer', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const listing: string[] = []
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, { parameters?: Array<{ in: string; name: string; description?: string }> }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const user = (op.parameters ?? []).find((p) => p.in === 'query' && p.name === 'user')
        if (user === undefined || path === '/v1/why' || path === '/v1/hooks/claude-code' || (path === '/v1/sessions/{id}/personalization' && method === 'get')) continue
        listing.push(`${method} ${path}`)
        const where = path.includes('{user}') ? 'path' : 'body'
        expect(user.description, `${method} ${path}`).toContain(`give the user in the ${where}, not in the query`)
      }
    }
    expect(listing.sort()).toEqual(
      [
        'delete /v1/users/{user}',
        'post /v1/decisions/check',
        'get /v1/users/{user}/export',
        'get /v1/users/{user}/preferences',
        'post /v1/observations',
        'post /v1/plan',
        'post /v1/recommendations',
        'post /v1/sessions',
        'put /v1/sessions/{id}/personalization',
      ].sort(),
    )
    // What it says is what the routes do: the user they act for is let pass, another refused.
    expect((await call('POST', '/v1/sessions?user=alice', { user: 'alice' })).status).toBe(201)
    expect((await call('GET', '/v1/users/alice/preferences?user=alice')).status).toBe(200)
    const other = await call('GET', '/v1/users/alice/preferences?user=bob')
    expect([other.status, other.body.error.issues]).toEqual([400, [{ path: 'user', message: 'give the user in the path, not in the query' }]])
  })
})

describe('identifier patterns in the OpenAPI document', () => {
  it('documents a pattern that the names the service accepts match, as a browser client tests it', async () => {
    const { app, call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const text = JSON.stringify(body)
    // The generator glued the regex's flags onto the pattern (`…+$/u`): no string matched it.
    expect(text).not.toContain('$/u')
    const params = body.paths['/v1/users/{user}/preferences'].get.parameters as { in: string; schema: { pattern?: string } }[]
    const pattern = params.find((p) => p.in === 'path')?.schema.pattern
    expect(pattern).toBeDefined()
    // Swagger UI's "Try it out" tests `new RegExp(pattern)`, without the `u` flag; so do many clients.
    for (const flags of ['', 'u']) {
      const re = new RegExp(pattern as string, flags)
      for (const ok of ['alice', 'acme/api', 'Café', 's-1', 'Ελένη 😀']) expect(re.test(ok), `${ok} /${flags}`).toBe(true)
      for (const bad of ['!x', 'a\u0000b', 'tab\there', '']) expect(re.test(bad), `${JSON.stringify(bad)} /${flags}`).toBe(false)
    }
    // And the service agrees on those names.
    expect((await app.request('/v1/users/Caf%C3%A9/preferences')).status).toBe(200)
    expect((await app.request('/v1/users/!x/preferences')).status).toBe(400)
    // A write takes the same names but those spaced at their ends, which a read still reaches.
    const written = new RegExp(body.components.schemas.ObservationInput.properties.user.pattern)
    for (const ok of ['alice', 'acme/api', 'Café', 's-1', 'Ελένη 😀', 'a b']) expect(written.test(ok), ok).toBe(true)
    for (const bad of ['!x', 'a\u0000b', '', ' alice', 'alice ', '   ']) expect(written.test(bad), JSON.stringify(bad)).toBe(false)
  })
})

describe('times in the OpenAPI document', () => {
  /** Every schema of the document that says `format: date-time`, with where it is. */
  function* dateTimes(part: unknown, at = '#'): Generator<[string, { pattern?: string }]> {
    if (part === null || typeof part !== 'object') return
    if ((part as { format?: unknown }).format === 'date-time') yield [at, part as { pattern?: string }]
    for (const [key, value] of Object.entries(part)) yield* dateTimes(value, `${at}/${key}`)
  }

  it('says the times the service takes by a pattern, as RFC 3339 alone admits some it refuses', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const found = [...dateTimes(body)]
    expect(found.length).toBeGreaterThan(10)
    // RFC 3339 (and so `format: date-time` to AJV's formats, which validating clients use) takes a
    // lower-case `t` and `z`, a space for the `T`, a leap second, and (AJV) an offset without its colon.
    const refused = ['2026-06-30t10:00:00z', '2026-06-30 10:00:00Z', '2026-06-30T23:59:60Z', '2026-06-30T15:30:00+0530', '2026-06-30T10:00Z']
    const taken = ['2026-06-30T10:00:00Z', '2026-06-30T15:30:00.123456+05:30', '2026-06-30T10:00:00-00:00']
    for (const [at, schema] of found) {
      expect(schema.pattern, at).toBeDefined()
      const pattern = new RegExp(schema.pattern as string)
      for (const time of refused) expect(pattern.test(time), `${at}: ${time}`).toBe(false)
      for (const time of taken) expect(pattern.test(time), `${at}: ${time}`).toBe(true)
    }
    // And the service agrees, in a body and in a query.
    const ask = { question: 'Which tier?', all_options: ['S', 'M'] }
    for (const time of refused) {
      const answer = await call('POST', '/v1/recommendations', { ...ask, as_of: time })
      expect(answer.status, time).toBe(400)
      expect(answer.body.error.issues[0].path, time).toBe('as_of')
      expect((await call('GET', `/v1/users/alice/preferences?as_of=${encodeURIComponent(time)}`)).status, time).toBe(400)
    }
    for (const time of taken) {
      expect((await call('POST', '/v1/recommendations', { ...ask, as_of: time })).status, time).toBe(200)
      expect((await call('GET', `/v1/users/alice/preferences?as_of=${encodeURIComponent(time)}`)).status, time).toBe(200)
    }
  })
})

describe('the error answer in the OpenAPI document (R-SVC-2)', () => {
  it("requires the error's request_id, which every error answer carries, as its X-Request-Id says", async () => {
    const { call } = await createTestApp()
    const withAuth = await createTestApp({ auth: testTokens })
    const { body } = await call('GET', '/openapi.json')
    expect(body.components.schemas.Error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'issues', 'request_id']))
    // An error of a route, of the middleware, of no route, of a method the route has not, of auth.
    const answers = [
      await call('POST', '/v1/recommendations', { question: 'Which tier?' }),
      await call('POST', '/v1/recommendations', '{"question": '),
      await call('GET', '/v1/why?_=%FF'),
      await call('GET', '/v1/nothing'),
      await call('PUT', '/v1/observations'),
      await call('GET', '/v1/decisions/D-404'),
      await withAuth.call('GET', '/v1/decisions'),
    ]
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.body.error.request_id, JSON.stringify(answer.body)).toEqual(expect.any(String))
    }
  })
})

describe('context keys in the OpenAPI document', () => {
  it('says the rules of a context key as propertyNames, so that a client checking the document refuses the keys the service does', async () => {
    const { call } = await createTestApp()
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    const keys = [schemas.ObservationInput, schemas.RecommendationRequest, schemas.PlanRequest].map((s) => s.properties.context.propertyNames)
    for (const names of keys) expect(names).toMatchObject({ minLength: 1, maxLength: LIMITS.contextKeyLength })
    const pattern = new RegExp(keys[0].pattern)
    const long = 'k'.repeat(LIMITS.contextKeyLength + 1)
    const refused: Array<[string, string]> = [['', 'context.""'], [long, `context.${long}`], ['a\u0007b', 'context.a\u0007b']]
    for (const [key, field] of refused) {
      const answer = await call('POST', '/v1/recommendations', { question: 'Which tier?', all_options: ['S', 'M'], context: { [key]: 1 } })
      expect(answer.status).toBe(400)
      expect(answer.body.error.issues[0].path).toBe(field)
      const said = key.length >= 1 && key.length <= LIMITS.contextKeyLength && pattern.test(key)
      expect(said, JSON.stringify(key)).toBe(false)
    }
    expect(pattern.test('phase')).toBe(true)
  })
})

describe('/docs with --auth (R-SVC-4)', () => {
  it("requires the bearer scheme on every operation but /healthz, so that the token given to Swagger UI's Authorize is sent", async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    // Swagger UI sends the token from its Authorize dialog only on operations whose security names the scheme.
    const requirement = (path: string, method: string) => body.paths[path][method].security ?? body.security
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) {
        expect(requirement(path, method), `${method} ${path}`).toEqual(path === '/healthz' ? [] : [{ bearer: [] }])
      }
    }
  })
})

describe('the error answers of the middleware in the OpenAPI document (R-SVC-1)', () => {
  type Operation = { requestBody?: unknown; parameters?: Array<{ name: string; in: string; description?: string }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }
  const operations = async () => {
    const { body } = await (await createTestApp()).call('GET', '/openapi.json')
    const schemas = body.components.schemas as Record<string, unknown>
    return Object.entries(body.paths as Record<string, Record<string, Operation>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, operation]) => ({ method, path, operation, bodyUser: namesUser(operation.requestBody, schemas) })),
    )
  }
  /** Whether a request body's schema (or an item's, or one of its forms') has a `user` property, its components followed. */
  const namesUser = (part: unknown, schemas: Record<string, unknown>, depth = 0): boolean => {
    if (part === null || typeof part !== 'object' || depth > 12) return false
    const ref = (part as { $ref?: string }).$ref
    if (typeof ref === 'string') return namesUser(schemas[ref.replace('#/components/schemas/', '')], schemas, depth + 1)
    const properties = (part as { properties?: Record<string, unknown> }).properties
    if (properties !== undefined && typeof properties === 'object') return Object.hasOwn(properties, 'user')
    return Object.values(part).some((value) => namesUser(value, schemas, depth + 1))
  }
  /** The statuses the document should list: 401 and 403 but on /healthz, 413 with any method but GET and DELETE (whose body is not read), 415 (a compressed body) with any method but GET, 400, 408, 409 and 431 everywhere. */
  const expected = (method: string, path: string) => [
    '400',
    '408',
    '409',
    '431',
    ...(path === '/healthz' ? [] : ['401', '403']),
    ...(method === 'get' || method === 'delete' ? [] : ['413']),
    ...(method === 'get' || method === 'delete' ? [] : ['415']),
  ]
  const ERROR = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }

  it('lists 401, 403, 408, 413, 415 and 431, with the error schema, on every operation that can answer them', async () => {
    const all = await operations()
    expect(all.length).toBeGreaterThan(20)
    for (const { method, path, operation } of all) {
      for (const status of expected(method, path)) {
        expect(operation.responses[status]?.content, `${method} ${path} ${status}`).toEqual(ERROR)
      }
      // Every request may name a store this service does not hold: a route's own 409 says it too.
      expect(operation.responses['409'] as { description?: string }, `${method} ${path}`).toMatchObject({ description: expect.stringContaining('store_mismatch') })
      // The header by which a request names its store, which 409 answers.
      expect(operation.parameters?.filter((p) => p.name === 'X-Decision-Memory-Store' && p.in === 'header'), `${method} ${path}`).toHaveLength(1)
      // The id a caller may give its request, which the answer's X-Request-Id sends back.
      expect(operation.parameters?.filter((p) => p.name === 'X-Request-Id' && p.in === 'header'), `${method} ${path}`).toHaveLength(1)
    }
    const byName = Object.fromEntries(all.map((o) => [`${o.method} ${o.path}`, o.operation.responses]))
    expect(Object.keys(byName['get /healthz'] ?? {})).toEqual(['200', '400', '408', '409', '431', '503'])
    expect(Object.keys(byName['get /v1/decisions/pulses'] ?? {})).toEqual(['200', '400', '401', '403', '408', '409', '431'])
    expect(Object.keys(byName['get /v1/decisions'] ?? {})).toEqual(['200', '400', '401', '403', '408', '409', '431'])
    expect(Object.keys(byName['delete /v1/users/{user}'] ?? {})).toEqual(['200', '400', '401', '403', '408', '409', '431'])
    // A route that says more of a status keeps what it says.
    expect(byName['post /v1/decisions']?.['403']).toMatchObject({ description: expect.stringContaining('every user') })
  })

  it('lists only statuses the service answers: each is sent for on every operation', async () => {
    const { call } = await createTestApp({ auth: testTokens })
    const open = await createTestApp()
    const values: Record<string, string> = { user: 'alice', key: 'D-001', id: 's-1' }
    for (const { method, path, operation, bodyUser } of await operations()) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? 'x')
      const name = `${method} ${path}`
      const statuses = expected(method, path)
      if (statuses.includes('400')) {
        const undecodable = await open.call(method.toUpperCase(), `${url}?_=%FF`)
        expect(undecodable.status, name).toBe(400)
        expect(undecodable.body.error.issues, name).toEqual([{ path: '_', message: '"%FF" is not percent-encoded UTF-8' }])
      }
      if (statuses.includes('401')) expect((await call(method.toUpperCase(), url)).status, name).toBe(401)
      if (statuses.includes('403')) {
        // Bob named where the route reads its user: the path of /v1/users/{user}, which decides over a query, a
        // `?user=` the route reads (one it lets pass for its body's user says `Not read`), else a body's `user`.
        const readsQuery = (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'user' && !/^Not read/.test(p.description ?? ''))
        const forBob = path.includes('{user}') ? path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'user' ? 'bob' : (values[name] ?? 'x'))) : readsQuery ? `${url}?user=bob` : url
        const body = path.includes('{user}') || readsQuery || !bodyUser ? undefined : { user: 'bob' }
        if (path.includes('{user}') || readsQuery || body !== undefined) {
          const other = await call(method.toUpperCase(), forBob, body, { authorization: `Bearer ${ALICE}` })
          expect(other.status, name).toBe(403)
        }
        // One that reads no user (the decisions' list, a check) answers it without auth, to a request addressed to another name.
        const rebound = await open.call(method.toUpperCase(), url, undefined, { host: 'attacker.example:7420' })
        expect(rebound.status, name).toBe(403)
      }
      if (statuses.includes('413')) {
        const big = JSON.stringify({ user: 'x'.repeat(LIMITS.bodyBytes) })
        expect((await open.call(method.toUpperCase(), url, big)).status, name).toBe(413)
      }
      if (statuses.includes('415')) {
        const compressed = await open.app.request(url, { method: method.toUpperCase(), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{}' })
        expect(compressed.status, name).toBe(415)
        if (operation.requestBody !== undefined) {
          const text = await open.app.request(url, { method: method.toUpperCase(), headers: { 'content-type': 'text/plain' }, body: '{}' })
          expect(text.status, name).toBe(415)
        }
      }
    }
  })
})

describe('the query parameters of each operation in the OpenAPI document', () => {
  type Operation = { operationId: string; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { description?: string }> }
  it('says on each operation that a query parameter it does not list is refused, as the route refuses it, and takes each it lists', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const values: Record<string, string> = { user: 'alice', key: 'D-001', id: 's-1' }
    for (const [path, ops] of Object.entries(body.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(ops)) {
        const name = `${method} ${path}`
        const url = path.replace(/\{(\w+)\}/g, (_, param: string) => values[param] ?? 'x')
        // Each listed is taken: whatever else the route says of the request, it does not call it unknown.
        for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)) {
          const answer = await call(method.toUpperCase(), `${url}?${parameter}=alice`)
          expect(JSON.stringify(answer.body), `${name} ?${parameter}=`).not.toContain('unknown query parameter')
        }
        if (operation.operationId === 'getHealth') continue
        // One not listed is refused, named, and the operation's 400 says so, its own 400 (`Invalid body`) too.
        const unknown = await call(method.toUpperCase(), `${url}?usr=alice`)
        expect([unknown.status, unknown.body.error.issues[0].path], name).toEqual([400, 'usr'])
        expect(operation.responses['400']?.description, name).toContain('does not list')
      }
    }
  })
})

describe('fields the service fills in, in the OpenAPI document', () => {
  it('leaves a request field with a default optional to a generated client, and an answer\'s fields required', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const { ObservationInput, RecommendationRequest, SessionRequest, DecisionInput, DecisionImport, Recommendation, Decision } = body.components.schemas
    // openapi-typescript types a property that has a `default` as one always there, the caller's too:
    // so a request field the service fills in is neither required nor given a `default`.
    const fields: Array<[any, string, unknown]> = [
      [ObservationInput, 'user', 'default'],
      [ObservationInput, 'source', 'user'],
      [RecommendationRequest, 'user', 'default'],
      [SessionRequest, 'user', 'default'],
      [DecisionInput, 'enforce', 'advisory'],
      [DecisionInput, 'status', 'proposed'],
      [DecisionInput, 'evidence', []],
      [DecisionInput.properties.scope, 'points', []],
      [DecisionImport.properties.records.items, 'enforce', 'advisory'],
    ]
    for (const [schema, field, value] of fields) {
      expect(schema.required ?? [], field).not.toContain(field)
      expect(schema.properties[field], field).not.toHaveProperty('default')
      expect(schema.properties[field].description, field).toContain(`When not sent: \`${JSON.stringify(value)}\``)
    }
    // None is left in a schema (a query parameter keeps its own: openapi-typescript leaves parameters optional).
    expect(JSON.stringify(body.components.schemas)).not.toContain('"default":')
    // What every answer carries stays required.
    expect(Recommendation.required).toEqual(expect.arrayContaining(['recommended', 'confidence', 'ask', 'p', 'disclosure', 'options']))
    expect(Decision.required).toEqual(expect.arrayContaining(['key', 'title', 'enforce', 'status', 'constraints', 'evidence']))
  })
})

describe('integers in the OpenAPI document', () => {
  it("bounds an imported record's line as the service does, so that a line the document takes is not refused", async () => {
    const { call } = await createTestApp()
    const { schemas } = (await call('GET', '/openapi.json')).body.components
    const line = schemas.DecisionImport.properties.records.items.properties.origin.properties.line
    expect(line).toMatchObject({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
    const record = (at: number) => ({ key: 'ADR-0001', title: 'Use X', decision: 'X.', rationale: 'Y.', status: 'accepted', date: null, origin: { path: 'doc/adr/0001-use-x.md', line: at, format: 'adr-tools' } })
    expect((await call('POST', '/v1/decisions/import', { records: [record(line.maximum)] })).status).toBe(200)
    const over = await call('POST', '/v1/decisions/import', { records: [record(line.maximum + 1)] })
    expect([over.status, over.body.error.issues[0].path]).toEqual([400, 'records.0.origin.line'])
  })
})

describe('the request bodies /docs fills in (R-SVC-1)', () => {
  type Schema = { $ref?: string; example?: unknown; anyOf?: Schema[]; format?: string; pattern?: string } & Record<string, unknown>
  /** Whether a schema holds a time or a day, its own fields and items and those of the schemas it names included. */
  function holdsTime(part: unknown, schemas: Record<string, Schema>, seen = new Set<string>()): boolean {
    if (part === null || typeof part !== 'object') return false
    const { $ref, format, pattern } = part as Schema
    if (typeof $ref === 'string') {
      const name = $ref.split('/').pop() as string
      if (seen.has(name)) return false
      seen.add(name)
      return holdsTime(schemas[name], schemas, seen)
    }
    if (format === 'date-time' || (typeof pattern === 'string' && pattern.startsWith('^\\d{4}-\\d{2}-\\d{2}'))) return true
    return Object.entries(part).some(([key, value]) => key !== 'example' && key !== 'examples' && holdsTime(value, schemas, seen))
  }

  it('gives each body that holds a time or a day an example the service takes, not one Swagger UI makes up from the pattern', async () => {
    // Try it out fills a body in from its schema: from the example where it has one (of the first
    // branch of a union), else field by field, a string with a pattern as any string matching it.
    // A time so made up is `0153-01-05T20:05:12+12:39` or `1455-51-31T18:31:01-06:59`, which the
    // service refuses (before 1970, no such month), and so Execute answered 400.
    const { body: document } = await (await createTestApp()).call('GET', '/openapi.json')
    const schemas = document.components.schemas as Record<string, Schema>
    const resolve = (schema: Schema): Schema => (schema.$ref === undefined ? schema : resolve(schemas[schema.$ref.split('/').pop() as string] as Schema))
    const checked: string[] = []
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: Array<{ in: string; name: string; schema: Schema }> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const schema = operation.requestBody?.content['application/json']?.schema
        if (schema === undefined || !holdsTime(schema, schemas)) continue
        const name = `${method} ${path}`
        const own = resolve(schema)
        const example = own.example ?? (own.anyOf === undefined ? undefined : resolve(own.anyOf[0] as Schema).example)
        expect(example, `${name}: no example`).toBeDefined()
        const url = path.replace(/\{(\w+)\}/g, (_, param: string) => String(operation.parameters?.find((p) => p.in === 'path' && p.name === param)?.schema.example))
        const answer = await (await createTestApp()).call(method.toUpperCase(), url, example)
        expect([answer.status >= 200 && answer.status < 300, answer.body], name).toEqual([true, expect.anything()])
        checked.push(name)
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['post /v1/sessions', 'post /v1/maintenance/decay-scan', 'post /v1/decisions/import', 'post /v1/observations', 'post /v1/recommendations']))
  })
})

describe('the examples of request fields in the OpenAPI document (R-SVC-1)', () => {
  it("gives a request field only examples its route takes, each set into the body's example and sent", async () => {
    // Swagger UI and client generators show a field's `example`/`examples` as a value to send: one
    // the route refused would teach a 400. Each is set where it belongs into the example of the
    // body (the first item of an array) and that body is sent, to a store of its own.
    type Part = Record<string, unknown>
    const { body: document } = await (await createTestApp()).call('GET', '/openapi.json')
    const schemas = document.components.schemas as Record<string, Part>
    const tried: string[] = []
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Part }> } }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const ref = operation.requestBody?.content['application/json']?.schema.$ref
        if (typeof ref !== 'string' || path.includes('{')) continue
        const name = ref.split('/').pop() as string
        const pending: Array<{ at: Array<string | number>; example: unknown }> = []
        const walk = (schema: Part, at: Array<string | number>): void => {
          if (at.length > 0) {
            const examples = [...('example' in schema ? [schema.example] : []), ...((schema.examples as unknown[] | undefined) ?? [])]
            for (const example of examples) pending.push({ at, example })
          }
          for (const [field, sub] of Object.entries((schema.properties ?? {}) as Record<string, Part>)) if (sub.readOnly !== true) walk(sub, [...at, field])
          if (typeof schema.items === 'object' && schema.items !== null) walk(schema.items as Part, [...at, 0])
        }
        walk(schemas[name] as Part, [])
        for (const { at, example } of pending) {
          const sent = structuredClone(schemas[name]?.example) as Record<string | number, unknown>
          expect(sent, `${name}: no example to set ${at.join('.')} in`).toBeDefined()
          let here = sent
          for (const [i, step] of at.slice(0, -1).entries()) {
            here[step] ??= typeof at[i + 1] === 'number' ? [] : {}
            here = here[step] as Record<string | number, unknown>
          }
          here[at[at.length - 1] as string | number] = example
          const answer = await (await createTestApp()).call(method.toUpperCase(), path, sent)
          expect([answer.status < 300, answer.body], `${name}.${at.join('.')} = ${JSON.stringify(example)}`).toEqual([true, expect.anything()])
          tried.push(`${name}.${at.join('.')}`)
        }
      }
    }
    expect(tried).toEqual(expect.arrayContaining(['DecisionInput.constraints.0.pattern', 'DecisionImport.records.0.enforce', 'DecisionImport.records.0.supersedes']))
  })
})

describe("the hook's ?project= in the OpenAPI document", () => {
  it('says a cwd below the folder its session was started in is in that session\'s project, as the service keeps it', async () => {
    const { call } = await createTestApp()
    const { body } = await call('GET', '/openapi.json')
    const operation = body.paths['/v1/hooks/claude-code'].post as { parameters: Array<{ in: string; name: string; description?: string }> }
    const project = operation.parameters.find((p) => p.in === 'query' && p.name === 'project')
    // "in the folder it was started in" read as that folder alone; projC/docs is projC's too.
    expect(project?.description).toContain('the `cwd` is the folder it was started in or below it (or is none)')
  })
})
