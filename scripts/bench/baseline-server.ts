// The baseline of the HTTP benchmark: the limit of decision-memory's own stack. A bare hono app on
// @hono/node-server whose two routes parse the same JSON bodies the service gets and answer a
// small JSON object; no validation, no store, no log. Started by the benchmark in its own process,
// as the service is, so that both get the same core and the same load generator.
//
//   node --import tsx scripts/bench/baseline-server.ts --port N [--answer FILE [--encoded]]
//
// With --answer, its recommendation route answers the JSON object in FILE instead (a real
// recommendation, for cpu-per-request.ts): serialised on every request, or with --encoded sent as
// bytes encoded once.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, answer: { type: 'string' }, encoded: { type: 'boolean', default: false } },
})
const answer = values.answer === undefined ? undefined : (JSON.parse(readFileSync(values.answer, 'utf8')) as Record<string, unknown>)
const encoded = answer === undefined ? undefined : new TextEncoder().encode(JSON.stringify(answer))

const app = new Hono()
app.post('/v1/recommendations', async (c) => {
  const body = await c.req.json<{ user?: string }>()
  if (answer === undefined) return c.json({ user: body.user ?? 'default', recommended: null }, 200)
  if (values.encoded && encoded !== undefined) return c.body(encoded, 200, { 'content-type': 'application/json' })
  return c.json({ ...answer, user: body.user ?? 'default' }, 200)
})
app.post('/v1/observations', async (c) => {
  const body = await c.req.json<{ user?: string }>()
  return c.json({ user: body.user ?? 'default', stored: 1 }, 201)
})
app.get('/healthz', (c) => c.json({ status: 'ok' }, 200))

serve({ fetch: app.fetch, port: Number(values.port), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ event: 'listening', port: info.port })}\n`)
})
