import type { Context } from 'hono'
import { InputError } from '../domain/errors'

/**
 * Refuses (400) a `?user=` on a route that reads its user from the body or the path, when it names
 * another user than the one the route acts for. Such a route reads no query, so it acted for
 * another user than the request named: `POST /v1/observations?user=alice` with a body without
 * `user` stored alice's choice as `default`'s, and with auth on, after the token had been checked
 * for alice (auth.ts reads `?user=` on every route). `where` says where the route's user is read,
 * `withoutUser` whom a body without `user` acts for. One given more than once is refused as a
 * query parameter given more than once is everywhere, whatever its values.
 */
export function refuseOtherQueryUser(c: Context, users: readonly string[], where: 'body' | 'path', withoutUser = '`default`'): void {
  const named = c.req.queries('user') ?? []
  // Given more than once, even twice the same user, it is refused in the words of a route that
  // reads `user` from its query (errors.ts's queryIssues): let pass here, `?user=alice&user=alice`
  // passed where `GET /v1/why` refused it.
  if (named.length > 1) {
    throw new InputError('invalid_request', 'invalid request: user', {
      issues: [{ path: 'user', message: 'given more than once in the query: give it once' }],
    })
  }
  for (const one of named) {
    const user = one.normalize('NFC')
    if (users.includes(user)) continue
    const source = where === 'body' ? `the user of its body (${withoutUser} when it names none)` : 'the user of its path'
    throw new InputError('invalid_request', `invalid request: user (the query names user "${user}", which this route does not read: it acts for ${source})`, {
      issues: [{ path: 'user', message: `give the user in the ${where}, not in the query` }],
    })
  }
}
