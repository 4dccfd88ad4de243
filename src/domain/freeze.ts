/** Freezes a value handed out more than once, all the way down: no holder may change what another gets. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/**
 * `compute`, done once per frozen value (nobody can change it, so neither can the result) and kept
 * as long as the value lives; done every time for a value that is not frozen.
 */
export function oncePerFrozen<V extends object, R>(compute: (value: V) => R): (value: V) => R {
  const kept = new WeakMap<V, R>()
  return (value) => {
    let result = kept.get(value)
    if (result === undefined) {
      result = compute(value)
      if (Object.isFrozen(value)) kept.set(value, result)
    }
    return result
  }
}
