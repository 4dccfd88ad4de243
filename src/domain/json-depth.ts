/**
 * Whether parsed JSON nests arrays and objects at most `max` levels deep (a scalar is 0 levels, `{}`
 * 1). Iterative: the value it guards against (`[[[[…]]]]` ten thousand deep, 20 KB of body) is one
 * that JSON.parse takes but that JSON.stringify and structuredClone, being recursive, cannot
 * write back without overflowing the stack.
 */
export function nestsWithin(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop() as { value: unknown; depth: number }
    if (typeof item !== 'object' || item === null) continue
    if (depth + 1 > max) return false
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push({ value: child, depth: depth + 1 })
  }
  return true
}

/**
 * The top-level field of `value` that nests deeper than `max` levels counted from `value` (its
 * object the first level), or `whole` when `value` is no object and nests past them; else
 * undefined. What a file or payload read as JSON names when it is refused for its depth.
 */
export function fieldNestedPast(value: unknown, max: number, whole: string): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return nestsWithin(value, max) ? undefined : whole
  return Object.keys(value).find((field) => !nestsWithin((value as Record<string, unknown>)[field], max - 1))
}
