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
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { parseFlags, readFlags, UsageError } from '../flags'

// Checked before it listens, as the other scripts check theirs: a mistake is said on one line,
// exit 2 (an unknown flag, `--port abc` and an --answer not there were each a stack trace).
const { values, answer } = readFlags('baseline-server', () => {
  const { values } = parseFlags({
    options: { port: { type: 'string', default: '0' }, answer: { type: 'string' }, encoded: { type: 'boolean', default: false } },
  })
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, not ${JSON.stringify(values.port)}`)
  return { values, answer: values.answer === undefined ? undefined : answerIn(values.answer) }
})
const encoded = answer === undefined ? undefined : new TextEncoder().encode(JSON.stringify(answer))

/** The JSON object in `file`, which --answer names; a file that cannot be read, or holds no object, is a mistake in the flag. */
function answerIn(file: string): Record<string, unknown> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--answer ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Node quotes the text around the fault as it is: its line breaks written \n, on one line.
    throw new UsageError(`--answer ${file}: not JSON (${(error as Error).message.replace(/\r?\n/g, '\\n')})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`--answer ${file}: not a JSON object`)
  return value as Record<string, unknown>
}

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
