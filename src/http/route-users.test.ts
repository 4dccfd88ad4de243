import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { IdentifierSchema, TrimmedIdentifierSchema } from '../domain/observation'
import { z } from '../domain/zod'
import { routeUsers } from './route-users'

/** A route as the OpenAPI registry holds it, of a JSON body `body` and a query `query`. */
const route = (method: string, path: string, parts: { body?: unknown; query?: unknown }) => ({
  type: 'route',
  route: { method, path, request: { query: parts.query, body: parts.body === undefined ? undefined : { content: { 'application/json': { schema: parts.body } } } } },
})

describe('routeUsers: where each route reads the user it acts for', () => {
  const Item = z.object({ user: TrimmedIdentifierSchema, question: z.string() })

  it.each([
    ['an object', Item],
    ['a strict object', Item.strict()],
    ['an array of them', z.array(Item)],
    ['one or an array, as observations take', z.union([Item, z.array(Item)])],
    ['a union whose first form has no user', z.union([z.object({ question: z.string() }), Item])],
    ['a discriminated union', z.discriminatedUnion('kind', [Item.extend({ kind: z.literal('a') }), z.object({ kind: z.literal('b'), user: IdentifierSchema })])],
    ['a transform', Item.transform((item) => item)],
    ['a pipe', Item.pipe(z.any())],
    ['a preprocess', z.preprocess((body) => body, Item)],
    ['an optional, a default, a refinement', Item.refine(() => true).optional().default({ user: 'a', question: 'q' })],
    ['an intersection', Item.and(z.object({ header: z.string() }))],
    ['an intersection with the user on its right', z.intersection(z.object({ header: z.string() }), Item)],
    ['a lazy schema', z.lazy(() => Item)],
    ['a tuple', z.tuple([Item])],
  ])("finds a body's user in %s, judged by its own schema", (_, body) => {
    const users = routeUsers([route('post', '/v1/things', { body })] as never)('POST', '/v1/things')
    expect(users.body?.safeParse('alice').success).toBe(true)
    expect(users.body?.safeParse(' alice ').success).toBe(false)
  })

  it('finds none where a body has no user of its own: none at all, or one nested in a field', () => {
    for (const body of [z.object({ choice: z.string() }), z.object({ session: Item }), z.record(z.string(), Item)]) {
      expect(routeUsers([route('post', '/v1/things', { body })] as never)('POST', '/v1/things')).toEqual({ query: undefined, body: undefined })
    }
  })

  it("finds a query's user through what wraps the query's object, and answers HEAD as its GET", () => {
    const query = z.object({ user: IdentifierSchema.default('default'), point: z.string() })
    for (const wrapped of [query, query.strict(), query.transform((q) => q)]) {
      const of = routeUsers([route('get', '/v1/why', { query: wrapped })] as never)
      expect(of('GET', '/v1/why').query?.safeParse('alice').success).toBe(true)
      expect(of('HEAD', '/v1/why').query?.safeParse('alice').success).toBe(true)
      expect(of('POST', '/v1/why')).toEqual({})
    }
  })

  it("takes a path named as it is for its own route, not a parameter's, and a parameter's path by its pattern", () => {
    const of = routeUsers([
      route('post', '/v1/decisions/{key}/accept', {}),
      route('get', '/v1/sessions/{id}/personalization', { query: z.object({ user: IdentifierSchema.optional() }) }),
      route('post', '/v1/decisions/check', { body: z.object({ choice: z.string() }) }),
      route('post', '/v1/decisions/{key}', { body: Item }),
    ] as never)
    expect(of('POST', '/v1/decisions/check').body).toBeUndefined()
    expect(of('POST', '/v1/decisions/D-001').body).toBeDefined()
    expect(of('GET', '/v1/sessions/s-1/personalization').query).toBeDefined()
    expect(of('GET', '/v1/sessions/s-1/x/personalization')).toEqual({})
  })

  it("finds the user of every route of the app's whose documented body or query has one (the hook's payload aside, not this service's fields)", async () => {
    const { app } = await createTestApp()
    const of = routeUsers(app.openAPIRegistry.definitions as never)
    const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '0' } })
    const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>
    /** Whether a documented schema (or an item's, or one of its forms') has a `user` property, its components followed. */
    const namesUser = (part: unknown, depth = 0): boolean => {
      if (part === null || typeof part !== 'object' || depth > 12) return false
      const ref = (part as { $ref?: string }).$ref
      if (typeof ref === 'string') return namesUser(schemas[ref.replace('#/components/schemas/', '')], depth + 1)
      const properties = (part as { properties?: Record<string, unknown> }).properties
      if (properties !== undefined) return Object.hasOwn(properties, 'user')
      return Object.values(part).some((value) => namesUser(value, depth + 1))
    }
    const seen: string[] = []
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations as Record<string, { requestBody?: unknown; parameters?: Array<{ in: string; name: string; description?: string }> }>)) {
        const concrete = path.replace(/\{(\w+)\}/g, 'x')
        const users = of(method.toUpperCase(), concrete)
        const documentedBody = path !== '/v1/hooks/claude-code' && namesUser(operation.requestBody)
        // A `?user=` let pass for the body's or the path's user is documented `Not read`: the route does not read it.
        const documentedQuery = (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'user' && !/^Not read/.test(p.description ?? ''))
        expect([users.body !== undefined, users.query !== undefined], `${method} ${path}`).toEqual([documentedBody, documentedQuery])
        if (documentedBody || documentedQuery) seen.push(`${method.toUpperCase()} ${path}`)
      }
    }
    expect(seen.sort()).toEqual([
      'GET /v1/sessions/{id}/personalization',
      'GET /v1/why',
      'POST /v1/decisions/check',
      'POST /v1/hooks/claude-code',
      'POST /v1/observations',
      'POST /v1/plan',
      'POST /v1/recommendations',
      'POST /v1/sessions',
      'PUT /v1/sessions/{id}/personalization',
    ])
  })
})
