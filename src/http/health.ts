import { createRoute, z } from '@hono/zod-openapi'
import type { StoreFailure } from '../open-store'
import { ErrorSchema, errorBody } from './errors'
import { createRouter } from './router'

const route = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  tags: ['health'],
  summary: 'Liveness: the service is up and its store is open and can be written',
  // The one route open with --auth (R-SVC-4): a load balancer's probe carries no token.
  security: [],
  responses: {
    200: {
      description: 'Up',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok'), version: z.string() }) } },
    },
    503: {
      description:
        "Up, but the store does not work (`store_unavailable`): its last write failed (a full disk, a file it may not write), so every write is refused: fix the cause and restart the service; or a read met a damaged file (LevelDB's `Corruption`, a table file that cannot be read), said until the service is restarted: stop it and restore the store's folder from a backup",
      content: { 'application/json': { schema: ErrorSchema } },
    },
  },
})

/**
 * What `/healthz` says of a store that does not work (open-store.ts's watchStore), with LevelDB's
 * reason, the store's folder left out: `/healthz`, open without a token, tells nobody where it is.
 */
export function storeFailureMessage({ kind, reason }: StoreFailure): string {
  if (kind === 'damaged') {
    return `the store is damaged (${reason}): a read met a damaged file, and every request that reads it fails; stop the service and restore the store's folder from a backup`
  }
  if (kind === 'unreadable') {
    return `a file of the store could not be read (${reason}): a file damaged or cut short, or one the service may not read, and every request that reads it fails; stop the service, then restore the store's folder from a backup if a file of it is damaged, else fix the cause and start it again`
  }
  // A compaction that met a table file cut short fails every write after it with an IO error too.
  return `the store's last write failed (${reason}): every write is refused until one succeeds, and LevelDB refuses them all after most such failures; if a file of the store is damaged or cut short, stop the service and restore the store's folder from a backup; else fix the cause (a full disk, a file it may not write), then restart the service`
}

/**
 * `/healthz`. `storeFailure` says what is wrong with the store (open-store.ts's watchStore): a
 * probe (systemd, a container's health check) then sees the service cannot store or read
 * anything, rather than `ok` while every write, or every read of a damaged file, fails.
 */
export function healthRoutes(version: string, storeFailure: () => StoreFailure | undefined = () => undefined) {
  return createRouter({ anyQuery: true }).openapi(route, (c) => {
    const failure = storeFailure()
    if (failure !== undefined) return c.json(errorBody(c, 'store_unavailable', storeFailureMessage(failure)), 503)
    return c.json({ status: 'ok' as const, version }, 200)
  })
}
