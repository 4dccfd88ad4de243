// Section 1: HTTP throughput and latency of the service's two hot routes against the bare baseline,
// with autocannon on loopback, rounds alternating between the two so that both see the same machine.
import autocannon from 'autocannon'
import type { ServerProcess } from './processes'

/** One autocannon run against one server. */
export interface LoadRun {
  target: 'service' | 'baseline'
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  requests: number
  non2xx: number
  errors: number
}

/** A route measured against the baseline: every run, and the median of the per-round ratios. */
export interface RouteLoad {
  route: string
  connections: number
  seconds: number
  rounds: Array<{ service: LoadRun; baseline: LoadRun; ratio: number }>
  ratio: number
  service: { requestsPerSecond: number; p50Ms: number; p99Ms: number }
  baseline: { requestsPerSecond: number; p50Ms: number; p99Ms: number }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** Runs autocannon against one server, each request's body taken from `body(n)` in turn. */
export async function load(options: {
  server: ServerProcess
  target: LoadRun['target']
  path: string
  connections: number
  seconds: number
  body: (n: number) => string
}): Promise<LoadRun> {
  let n = 0
  const result = await autocannon({
    url: `${options.server.url}${options.path}`,
    method: 'POST',
    connections: options.connections,
    duration: options.seconds,
    headers: { 'content-type': 'application/json' },
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: options.body(n++) }) }],
  })
  return {
    target: options.target,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

/**
 * Measures a route on the service and on the baseline in `rounds` rounds, the order swapped every
 * round; the ratio is the service's throughput over the baseline's, the median over rounds.
 */
export async function compareRoute(options: {
  service: ServerProcess
  baseline: ServerProcess
  path: string
  connections: number
  seconds: number
  rounds: number
  body: (n: number) => string
  onRun?: (run: LoadRun) => void
}): Promise<RouteLoad> {
  const rounds: RouteLoad['rounds'] = []
  for (let r = 0; r < options.rounds; r++) {
    const order: Array<LoadRun['target']> = r % 2 === 0 ? ['baseline', 'service'] : ['service', 'baseline']
    const runs = new Map<LoadRun['target'], LoadRun>()
    for (const target of order) {
      const run = await load({
        server: target === 'service' ? options.service : options.baseline,
        target,
        path: options.path,
        connections: options.connections,
        seconds: options.seconds,
        body: options.body,
      })
      options.onRun?.(run)
      runs.set(target, run)
    }
    const service = runs.get('service') as LoadRun
    const baseline = runs.get('baseline') as LoadRun
    rounds.push({ service, baseline, ratio: service.requestsPerSecond / baseline.requestsPerSecond })
  }
  const summary = (target: LoadRun['target']) => {
    const runs = rounds.map((r) => r[target])
    return {
      requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
      p50Ms: median(runs.map((run) => run.p50Ms)),
      p99Ms: median(runs.map((run) => run.p99Ms)),
    }
  }
  return {
    route: `POST ${options.path}`,
    connections: options.connections,
    seconds: options.seconds,
    rounds,
    ratio: median(rounds.map((r) => r.ratio)),
    service: summary('service'),
    baseline: summary('baseline'),
  }
}
