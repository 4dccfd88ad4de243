import type { MiddlewareHandler } from 'hono'
import { ipv4Address } from '../ipv4-address'
import { errorBody } from './errors'

/** A host name or address of this machine: `localhost` (and `*.localhost`, RFC 6761), 127.0.0.0/8 (`127.1` too), ::1. */
function isLoopbackName(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase()
  return (
    bare === 'localhost' ||
    bare.endsWith('.localhost') ||
    bare === '::1' ||
    // 127.0.0.0/8 in any form the resolver reads as an address (curl sends `127.1` as typed): a
    // number, not a name a site's DNS could point here.
    ipv4Address(bare)?.startsWith('127.') === true ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(bare)
  )
}

/** The host name of a Host header (`127.0.0.1:7420`, `[::1]:7420`, `localhost`), without its port. */
function hostnameOf(host: string): string {
  const bracketed = /^(\[[^\]]*\])(?::\d*)?$/.exec(host)
  if (bracketed !== null) return bracketed[1] as string
  return host.replace(/:\d*$/, '')
}

/**
 * Why a request cannot be from this machine's own clients, or undefined when it may be. A web
 * page the user opens can send requests to the loopback service: a name the page's site
 * resolves to 127.0.0.1 (DNS rebinding) arrives with that name as Host, and a page of another
 * site sends its Origin (a `fetch(…, {method: 'POST', mode: 'no-cors'})` needs no CORS answer to
 * revoke a decision or run the decay scan). The commands, hooks and MCP server send neither.
 */
export function foreignRequest(host: string | undefined, origin: string | undefined): { field: 'host' | 'origin'; value: string } | undefined {
  if (host !== undefined && !isLoopbackName(hostnameOf(host.trim()))) return { field: 'host', value: host }
  if (origin === undefined) return undefined
  let hostname: string
  try {
    hostname = new URL(origin.trim()).hostname
  } catch {
    // `null` (a sandboxed frame, a file:// page) and anything else that is not a URL.
    return { field: 'origin', value: origin }
  }
  return isLoopbackName(hostname) ? undefined : { field: 'origin', value: origin }
}

/**
 * Without auth the service trusts its machine (it is bound to loopback): a request addressed to
 * another name (Host) or sent by a page of another site (Origin) is refused (403) before
 * anything of it is read (`GET /healthz` excepted, which holds no one's data). Serving other names takes `--auth`: a page cannot send the token.
 */
export const sameMachineOnly: MiddlewareHandler = async (c, next) => {
  // A liveness probe's answer (the version) is no one's data, and changes nothing.
  if (c.req.path === '/healthz') return next()
  const foreign = foreignRequest(c.req.header('host'), c.req.header('origin'))
  if (foreign === undefined) return next()
  // Two Host lines arrive joined (`localhost:7420, localhost:7420`): no name, whatever each says.
  const twice = foreign.field === 'host' && foreign.value.includes(',')
  const what = twice
    ? `names its Host twice (${JSON.stringify(foreign.value)})`
    : foreign.field === 'host'
      ? `is addressed to ${JSON.stringify(foreign.value)}`
      : `is sent by the web page of ${JSON.stringify(foreign.value)}`
  return c.json(
    errorBody(
      c,
      'forbidden',
      `the request ${what}: without --auth the service answers only its own machine (Host localhost or a name under it (app.localhost), 127.x.x.x or [::1], no Origin of another site), which a web page could otherwise reach; to serve other names, give --auth TOKENS_FILE`,
      [{ path: foreign.field, message: twice ? 'sent twice: a request names the one machine it is addressed to' : foreign.field === 'host' ? 'not a name of this machine' : 'not a page of this machine' }],
    ),
    403,
  )
}
