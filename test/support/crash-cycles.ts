import { startService, type ServiceProcess } from './service-process'

/** A small seeded generator (mulberry32), so that a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `xs` in an order drawn from `seed` (Fisher–Yates), the same for the same seed. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const r = seededRandom(seed)
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

export const CRASH_USER = 'crash-test'
const OPTIONS = ['Tier S', 'Tier M', 'Tier L']

function observation(decisionId: string, choice: string, session: string) {
  return {
    decision_id: decisionId,
    question: 'Which complexity tier should this SPEC use?',
    header: 'Tier',
    all_options: OPTIONS,
    user_choice: choice,
    user: CRASH_USER,
    project: 'crash/project',
    session_id: session,
    context: { phase: 'run' },
  }
}

/** How many times each decision_id is stored, read through the export. */
export async function storedCounts(url: string, user = CRASH_USER): Promise<Map<string, number>> {
  const response = await fetch(`${url}/v1/users/${encodeURIComponent(user)}/export`)
  if (response.status !== 200) throw new Error(`export answered ${response.status}`)
  const lines = (await response.text()).split('\n').filter((l) => l !== '')
  const last = JSON.parse(lines[lines.length - 1] as string) as { type: string }
  if (last.type !== 'end') throw new Error('the export was cut short')
  const counts = new Map<string, number>()
  for (const line of lines) {
    const record = JSON.parse(line) as { type: string; data?: { decision_id: string } }
    if (record.type !== 'observation' || record.data === undefined) continue
    counts.set(record.data.decision_id, (counts.get(record.data.decision_id) ?? 0) + 1)
  }
  return counts
}

/**
 * How many observations the recommendation at the crash point counts (R-SVC-3: all of them). The
 * first one puts the point in core; from then on observations wait there and are counted into its
 * cells in groups, so a kill can fall between any of those writes.
 */
async function countedAtThePoint(url: string): Promise<number> {
  const response = await fetch(`${url}/v1/recommendations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user: CRASH_USER,
      project: 'crash/project',
      question: 'Which complexity tier should this SPEC use?',
      header: 'Tier',
      all_options: OPTIONS,
      context: { phase: 'run' },
    }),
  })
  if (response.status !== 200) throw new Error(`the recommendation answered ${response.status}`)
  return ((await response.json()) as { layers: { long_term: { observations: number } } }).layers.long_term.observations
}

async function post(url: string, body: unknown): Promise<{ status: number; body: { stored: Array<{ decision_id: string }>; duplicates: string[] } }> {
  const response = await fetch(`${url}/v1/observations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as never }
}

export interface CrashReport {
  seed: number
  cycles: number
  /** Observations whose 201 reached the client before the kill. */
  acknowledged: number
  /** Observations sent whose answer the kill cut off (retried after the restart). */
  unacknowledged: number
  /** Problems found: every acknowledged observation present exactly once means none. */
  problems: string[]
}

/**
 * R-SVC-3: runs the real service, has several clients post batches of observations at one point
 * concurrently, SIGKILLs it once a random number of batches were acknowledged (so, at a random
 * moment of the write path), restarts it on the same data, and checks that every acknowledged
 * observation is present exactly once, and counted once in the recommendation at the point. Unacknowledged batches are then sent again, as a hook
 * retries: each must end up stored exactly once too.
 */
export async function crashCycles(options: {
  dataDir: string
  cycles: number
  clients?: number
  seed?: number
  onCycle?: (cycle: number, report: CrashReport) => void
}): Promise<CrashReport> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  const random = seededRandom(seed)
  const clients = options.clients ?? 4
  const acknowledged = new Set<string>()
  const unacknowledged = new Map<string, unknown>()
  const report: CrashReport = { seed, cycles: 0, acknowledged: 0, unacknowledged: 0, problems: [] }
  let sequence = 0

  async function verify(service: ServiceProcess, when: string) {
    const counts = await storedCounts(service.url)
    for (const id of acknowledged) {
      const count = counts.get(id) ?? 0
      if (count !== 1) report.problems.push(`${when}: acknowledged ${id} stored ${count} times`)
    }
    for (const [id, count] of counts) {
      if (count > 1) report.problems.push(`${when}: ${id} stored ${count} times`)
    }
    const stored = [...counts.values()].reduce((sum, count) => sum + count, 0)
    const counted = await countedAtThePoint(service.url)
    if (counted !== stored) report.problems.push(`${when}: the recommendation counts ${counted} of the ${stored} observations stored`)
  }

  async function retryUnacknowledged(service: ServiceProcess) {
    for (const [id, body] of unacknowledged) {
      const answer = await post(service.url, body)
      if (answer.status !== 201) report.problems.push(`retry of ${id} answered ${answer.status}`)
      acknowledged.add(id)
      unacknowledged.delete(id)
    }
  }

  for (let cycle = 1; cycle <= options.cycles; cycle++) {
    const service = await startService({ dataDir: options.dataDir })
    await verify(service, `after restart ${cycle}`)
    await retryUnacknowledged(service)
    await verify(service, `after retries ${cycle}`)

    // Kill once this many batches are acknowledged: clients still have batches in flight then.
    const killAfter = 1 + Math.floor(random() * 30)
    let acks = 0
    let killed = false
    const client = async (c: number) => {
      while (!killed) {
        const size = 1 + Math.floor(random() * 3)
        const batch = Array.from({ length: size }, () =>
          observation(`c${c}-${++sequence}`, OPTIONS[Math.floor(random() * OPTIONS.length)] as string, `s-${cycle}-${c}`),
        )
        for (const o of batch) unacknowledged.set(o.decision_id, o)
        let answer
        try {
          answer = await post(service.url, batch)
        } catch {
          return // the service is gone: what was in flight stays unacknowledged
        }
        if (answer.status !== 201) report.problems.push(`cycle ${cycle}: a batch answered ${answer.status}`)
        for (const o of batch) {
          acknowledged.add(o.decision_id)
          unacknowledged.delete(o.decision_id)
        }
        if (++acks === killAfter && !killed) {
          killed = true
          service.child.kill('SIGKILL')
        }
      }
    }
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
    await service.exited
    report.cycles = cycle
    report.acknowledged = acknowledged.size
    report.unacknowledged += unacknowledged.size
    options.onCycle?.(cycle, report)
  }

  const service = await startService({ dataDir: options.dataDir })
  try {
    await verify(service, 'after the last restart')
    await retryUnacknowledged(service)
    await verify(service, 'after the last retries')
  } finally {
    await service.stop()
  }
  report.acknowledged = acknowledged.size
  return report
}
