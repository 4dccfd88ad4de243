import type { createTestApp } from './test-app'

type App = Awaited<ReturnType<typeof createTestApp>>

/**
 * A point with a large `why`, as a team reaches it: `chain` versions of one decision, each
 * superseding the one before, `others` decisions more bound to the point (each superseded once),
 * `evidence` pieces per decision, and `observations` choices of alice's there, most of them for
 * what is recommended, each with a context.
 */
export interface BigWhyCase {
  name: string
  chain: number
  others: number
  evidence: number
  observations: number
}

export const BIG_WHY_CASES: BigWhyCase[] = [
  { name: 'a decision superseded through 10 versions, 3 evidence each', chain: 10, others: 0, evidence: 3, observations: 20 },
  { name: '8 decisions at the point, each superseded once, 3 evidence each, 150 choices', chain: 2, others: 7, evidence: 3, observations: 150 },
  { name: '10 versions and 5 decisions more, 5 evidence each, 150 choices', chain: 10, others: 5, evidence: 5, observations: 150 },
  { name: 'a decision superseded through 30 versions, 3 evidence each', chain: 30, others: 0, evidence: 3, observations: 20 },
]

const DAY = 86_400_000
const QUESTION = { question: 'Which queue backend should the billing service use?', header: 'Queue', point: 'queue-backend', all_options: ['Redis', 'SQS', 'Kafka'] }

/** A rationale as an ADR gives one: a paragraph or two. */
const RATIONALE =
  'Billing events must be processed exactly once and in order per customer. Redis streams give us consumer groups ' +
  'with acknowledgement and are already run by the platform team, so there is no new system to operate; SQS FIFO ' +
  'queues cap throughput per group and add a cloud dependency to local development; Kafka would need a cluster we ' +
  'do not have the people to run. We accept that Redis persistence must be configured with AOF every second.'

/** Evidence as a decision record cites it: a benchmark, an incident, a document, each with a link and a hash. */
function evidenceOf(key: string, count: number) {
  const kinds = ['benchmark', 'incident', 'document', 'discussion', 'measurement']
  return Array.from({ length: count }, (_, i) => ({
    kind: kinds[i % kinds.length] as string,
    summary:
      `${key} ${kinds[i % kinds.length]}: under the load test of 2,000 events per second the consumer kept up with a p99 lag of ` +
      `140 ms and no event processed twice across 12 forced restarts; see the write-up for the configuration used.`,
    uri: `https://wiki.example.com/engineering/billing/queues/${key.toLowerCase()}-evidence-${i + 1}`,
    hash: `sha256:${(key + i).padEnd(64, '0').slice(0, 64)}`,
  }))
}

/**
 * Builds the case in `app` (its clock moved on as it goes) and returns the point and the question asked
 * there: the decisions are advisory `prefer`s, so that the recommendation rests on the choices observed.
 */
export async function bigWhyCase(app: App, shape: BigWhyCase) {
  const posted = async (path: string, body?: unknown) => {
    const answer = await app.call('POST', path, body)
    if (answer.status >= 300) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }
  const decision = (key: string, version: number, option: string, supersedes?: string) => ({
    key,
    title: `Billing queue backend, version ${version}`,
    decision: `The billing service consumes its events from ${option}, one consumer group per worker pool, acknowledged after the ledger write.`,
    rationale: RATIONALE,
    enforce: 'advisory',
    source: `https://github.com/acme/billing/pull/${100 + version}`,
    scope: { points: [QUESTION.point] },
    constraints: [{ kind: 'prefer', option }],
    evidence: evidenceOf(key, shape.evidence),
    ...(supersedes === undefined ? { status: 'accepted' } : { supersedes }),
  })
  // One chain of `chain` versions: Q-001 → Q-002 → … , each accepted in turn.
  for (let v = 1; v <= shape.chain; v++) {
    const key = `Q-${String(v).padStart(3, '0')}`
    await posted('/v1/decisions', decision(key, v, v % 2 === 0 ? 'Redis' : 'SQS', v === 1 ? undefined : `Q-${String(v - 1).padStart(3, '0')}`))
    if (v > 1) await posted(`/v1/decisions/${key}/accept`, { reason: `version ${v} replaces version ${v - 1} after the review` })
    app.clock.advance(60_000)
  }
  // Others, each superseded once: O-1a → O-1b, …
  for (let o = 1; o <= shape.others; o++) {
    await posted('/v1/decisions', { ...decision(`O-${o}a`, 1, 'Redis'), title: `Billing queue concern ${o}` })
    await posted('/v1/decisions', { ...decision(`O-${o}b`, 2, 'Redis', `O-${o}a`), title: `Billing queue concern ${o}, revised` })
    await posted(`/v1/decisions/O-${o}b/accept`)
    app.clock.advance(60_000)
  }
  const now = app.clock.now().getTime()
  const choices = Array.from({ length: shape.observations }, (_, i) => ({
    ...QUESTION,
    user: 'alice',
    project: 'p1',
    session_id: `alice-s${Math.floor(i / 5)}`,
    decision_id: `alice-queue-${i}`,
    user_choice: i % 7 === 0 ? 'SQS' : 'Redis',
    timestamp: new Date(now - (shape.observations - i) * DAY / 4).toISOString(),
    context: { task: 'billing-events', stage: 'plan', phase: 'design' },
  }))
  for (let i = 0; i < choices.length; i += 50) await posted('/v1/observations', choices.slice(i, i + 50))
  return { point: QUESTION.point, question: QUESTION }
}
