import type { Result, Router } from 'hono/router'

/**
 * `router`, its matches holding each registration once. hono's TrieRouter (the one the app's
 * SmartRouter settles on) fits a path segment that is a literal `*` (`GET /*`) to the `*` of each
 * `app.use('*')` twice, by its name and as a wildcard: every middleware ran twice over, the request
 * logged twice under two ids, the body judged twice. A registration is one `[handler, route]`
 * pair (hono-base's addRoute); matched twice, the copies are next to each other, both sorted by
 * its order, so a match is looked over without a copy made unless one is there: a loop over the
 * dozen or so middleware on every request.
 */
export function matchedOnce<T>(router: Router<T>): Router<T> {
  return {
    get name() {
      return router.name
    },
    add: (method, path, handler) => router.add(method, path, handler),
    match(method, path) {
      const result = router.match(method, path)
      const handlers = result[0] as ReadonlyArray<readonly [T, unknown]>
      for (let i = 1; i < handlers.length; i++) {
        if (handlers[i]?.[0] !== handlers[i - 1]?.[0]) continue
        const once = handlers.filter((entry, at) => at === 0 || entry[0] !== handlers[at - 1]?.[0])
        return (result.length === 2 ? [once, result[1]] : [once]) as Result<T>
      }
      return result
    },
  }
}
