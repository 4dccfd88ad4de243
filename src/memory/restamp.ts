/** On a copy made by `restamped`: the kept answer it was made from (not enumerable, never serialised). */
export const STAMPED_FROM: unique symbol = Symbol('decision-memory.stamped-from')

/**
 * A kept answer served at a later moment speaks for that moment: the same answer with `as_of` set
 * to it (R-REC-9: without `as_of` in the request, `as_of` is now). Nothing it was computed from
 * has been written since, and time alone moves its decayed weights by less than 4 parts in
 * 10,000 within the cache's minute. A frozen shallow copy; the answer itself when the moment is
 * the same.
 */
export function restamped<T extends { as_of: string }>(answer: T, asOf: string): T {
  if (answer.as_of === asOf) return answer
  const copy = { ...answer, as_of: asOf }
  Object.defineProperty(copy, STAMPED_FROM, { value: answer })
  return Object.freeze(copy)
}
