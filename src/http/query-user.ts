import type { Context } from 'hono'
import { InputError, type Issue } from '../domain/errors'

/** A `?user=` given more than once, in the words of a route that reads `user` from its query (errors.ts's queryIssues). */
const GIVEN_MORE_THAN_ONCE: Issue = { path: 'user', message: 'given more than once in the query: give it once' }

/** The issue of a `?user=` naming another user than the route acts for. */
const otherUserIssue = (where: 'body' | 'path'): Issue => ({ path: 'user', message: `give the user in the ${where}, not in the query` })

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
  if (named.length > 1) throw new InputError('invalid_request', 'invalid request: user', { issues: [GIVEN_MORE_THAN_ONCE] })
  const user = otherUser(named, users)
  if (user === undefined) return
  const source = where === 'body' ? `the user of its body (${withoutUser} when it names none)` : 'the user of its path'
  throw new InputError('invalid_request', `invalid request: user (the query names user "${user}", which this route does not read: it acts for ${source})`, {
    issues: [otherUserIssue(where)],
  })
}

/**
 * The faults of a `?user=` on a route that reads its user from the body or the path, for a request
 * refused for others (router.ts): refuseOtherQueryUser, which the route calls once the request is
 * valid, came too late to be named beside them (`GET /v1/users/alice/preferences?as_of=bad&user=alice&user=alice`
 * named `as_of` alone, where `GET /v1/why` names `user` too). Given more than once, always; naming
 * another user than `users`, the route's users as sent, only when they are known (undefined: a
 * body's user, unread where the body is at fault).
 */
export function queryUserIssues(c: Context, users: readonly string[] | undefined, where: 'body' | 'path'): Issue[] {
  const named = c.req.queries('user') ?? []
  if (named.length > 1) return [GIVEN_MORE_THAN_ONCE]
  if (users === undefined) return []
  return otherUser(named, users.map((user) => user.normalize('NFC'))) === undefined ? [] : [otherUserIssue(where)]
}

/** The user a `?user=` names that is none of `users` (the route's, NFC), if any. */
function otherUser(named: readonly string[], users: readonly string[]): string | undefined {
  return named.map((one) => one.normalize('NFC')).find((user) => !users.includes(user))
}
