import { InputError } from './errors'

/** How far ahead of the service's clock a timestamp may be (clock skew between machines). */
export const FUTURE_TOLERANCE_MS = 5 * 60_000

/**
 * A timestamp a request gives (`timestamp`, `started_at`, `as_of`, ...), read as a moment
 * against `now`: refused, naming `path`, when more than 5 minutes ahead of it or before 1970;
 * undefined when not given.
 */
export function checkTimestamp(value: string | undefined, now: Date, path: string): Date | undefined {
  if (value === undefined) return undefined
  const at = new Date(value)
  if (at.getTime() - now.getTime() > FUTURE_TOLERANCE_MS) {
    throw new InputError('timestamp_in_future', `${path} ${value} is in the future: more than 5 minutes ahead of the service clock (${now.toISOString()})`, {
      issues: [{ path, message: 'must not be more than 5 minutes ahead of the service clock' }],
    })
  }
  if (at.getUTCFullYear() < 1970) {
    throw new InputError('timestamp_out_of_range', `${path} ${value} is before 1970`, {
      issues: [{ path, message: 'must be in 1970 or later' }],
    })
  }
  return at
}

/**
 * A moment something happened, given by a client whose clock runs ahead of the service's (within
 * the 5 minutes checkTimestamp lets through): it happened by now, and is kept as now. Kept as
 * given, it was left out of every answer until the service's clock reached it (an answer as of
 * now reads what happened up to now, R-REC-9), and the point it was at was recomputed from its
 * whole history on every request meanwhile, the incremental aggregate being behind it.
 */
export function notAhead(at: Date, now: Date): Date {
  return at.getTime() > now.getTime() ? now : at
}
