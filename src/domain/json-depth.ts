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
