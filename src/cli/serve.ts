import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { serve as serveHttp } from '@hono/node-server'
import pino from 'pino'
import { systemClock } from '../clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { createDecisionMemory } from '../decision-memory'
import { createApp } from '../http/app'
import { openStore } from '../open-store'
import { scheduleDecayScan } from './decay-schedule'
import { DEFAULT_HOST, envPort, parsePort } from './options'

export const SERVE_HELP = `decision-memory serve [--port N] [--host ADDR] [--data DIR] [--policy FILE]

  --port N       port to listen on (default $DECISION_MEMORY_PORT or 7420; 0 picks a free one)
  --host ADDR    address to bind (default 127.0.0.1)
  --data DIR     LevelDB data directory (default $DECISION_MEMORY_DATA or ./data)
  --policy FILE  policy file, JSON or YAML (default policies/default.json)
`

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return pkg.version
}

/** `decision-memory serve`: wires the real parts and owns start and graceful stop. */
export async function serveCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      policy: { type: 'string' },
    },
    strict: true,
  })
  const port = values.port === undefined ? envPort() : parsePort(values.port, '--port')
  const host = values.host ?? DEFAULT_HOST
  const dataDir = resolve(values.data ?? process.env.DECISION_MEMORY_DATA ?? 'data')
  const policyFile = resolve(values.policy ?? DEFAULT_POLICY_FILE)
  const logger = pino({ level: process.env.DECISION_MEMORY_LOG_LEVEL ?? 'info', base: { service: 'decision-memory' } })

  // A broken policy stops start-up before anything is opened.
  const policy = await loadPolicy(policyFile)
  const store = await openStore(dataDir, policy)
  const version = packageVersion()
  const memory = createDecisionMemory({ store, policy, clock: systemClock })
  const app = createApp({ memory, logger, version })

  const server = serveHttp({ fetch: app.fetch, port, hostname: host }, (info) => {
    logger.info({ event: 'listening', host, port: info.port, data: dataDir, policy: policyFile }, `listening on http://${host}:${info.port}`)
  })

  const decayScan = scheduleDecayScan({
    expression: policy.scan.cron,
    scan: (signal) => memory.decayScan({ signal }),
    logger,
  })

  let stopping = false
  async function stop(signal: string) {
    if (stopping) return
    stopping = true
    logger.info({ event: 'stopping', signal }, 'stopping')
    // The cron job first: a scan in progress stops between two writes, before the store closes.
    await decayScan.stop()
    logger.info({ event: 'decay-scan-stopped' }, 'decay scan schedule stopped')
    await new Promise<void>((done) => server.close(() => done()))
    await store.close()
    logger.info({ event: 'stopped' }, 'stopped')
    logger.flush()
    process.exit(0)
  }
  process.once('SIGTERM', () => void stop('SIGTERM'))
  process.once('SIGINT', () => void stop('SIGINT'))
}
