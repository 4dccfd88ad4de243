// The baseline of the HTTP benchmark: the limit of decision-memory's own stack. A bare hono app on
// @hono/node-server whose two routes parse the same JSON bodies the service gets and answer a
// small JSON object; no validation, no store, no log. Started by the benchmark in its own process,
// as the service is, so that both get the same core and the same load generator.
//
//   node --import tsx scripts/bench/baseline-server.ts --port N
import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } })

const app = new Hono()
app.post('/v1/recommendations', async (c) => {
  const body = await c.req.json<{ user?: string }>()
  return c.json({ user: body.user ?? 'default', recommended: null }, 200)
})
app.post('/v1/observations', async (c) => {
  const body = await c.req.json<{ user?: string }>()
  return c.json({ user: body.user ?? 'default', stored: 1 }, 201)
})
app.get('/healthz', (c) => c.json({ status: 'ok' }, 200))

serve({ fetch: app.fetch, port: Number(values.port), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ event: 'listening', port: info.port })}\n`)
})
