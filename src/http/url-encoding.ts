import type { MiddlewareHandler } from 'hono'
import { shownName } from '../domain/observation'
import { errorBody } from './errors'

/** The path parameters of the routes, by the segment before them: `/v1/users/{user}`, `/v1/sessions/{id}`, `/v1/decisions/{key}`. */
const PATH_PARAMETERS: Readonly<Record<string, string>> = { users: 'user', sessions: 'id', decisions: 'key' }

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/** The field a part of the URL that does not decode stands for; undefined when every part decodes. */
function undecodable(url: string): { field: string; text: string } | undefined {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const queryAt = url.indexOf('?', start)
  const path = url.slice(start, queryAt === -1 ? undefined : queryAt).split('/')
  for (let i = 1; i < path.length; i++) {
    const segment = path[i] as string
    if (decodes(segment)) continue
    const before = i === 3 && path[1] === 'v1' ? PATH_PARAMETERS[path[2] as string] : undefined
    return { field: before ?? 'path', text: segment }
  }
  if (queryAt === -1) return undefined
  for (const pair of url.slice(queryAt + 1).split('&')) {
    const eq = pair.indexOf('=')
    const name = eq === -1 ? pair : pair.slice(0, eq)
    if (!decodes(name)) return { field: 'query', text: name }
    const value = eq === -1 ? '' : pair.slice(eq + 1)
    // Named as the refusal of an unknown parameter names it: `?=%FF` by `""`, not by an empty path.
    if (!decodes(value)) return { field: shownName(decodeURIComponent(name.replace(/\+/g, ' '))), text: value }
  }
  return undefined
}

/**
 * A URL whose percent-encoding is not UTF-8 (`/v1/users/%FF`) is refused with a 400 naming its
 * field. hono leaves a part it cannot decode as it was sent, where it reached the route as the
 * name `%FF`, indistinguishable from the user `%FF` (sent as `%25FF`): `DELETE /v1/users/%FF`
 * answered 200, deleting nothing, and `?user=%E2%82` was read as the name `%E2%82`.
 */
export const decodableUrl: MiddlewareHandler = async (c, next) => {
  const url = c.req.url
  if (!url.includes('%')) return next()
  const bad = undecodable(url)
  if (bad === undefined) return next()
  const message = `${JSON.stringify(bad.text)} is not percent-encoded UTF-8`
  return c.json(errorBody(c, 'invalid_request', `invalid request: ${bad.field}`, [{ path: bad.field, message }]), 400)
}
