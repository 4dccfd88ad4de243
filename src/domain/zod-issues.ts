/**
 * Zod's issues without those that follow a wrong type at the same path. Zod 4 runs a length
 * check on any value that has a length, so a string sent for an array (`"questions": "[…]"`)
 * also gets `Too big: expected string to have <=20 characters`, a limit no field has: only the
 * type is wrong, and saying so once names the field clearly (R-SVC-2).
 */
export function typeIssuesFirst<T extends { code: string; path: readonly PropertyKey[] }>(issues: readonly T[]): T[] {
  const key = (path: readonly PropertyKey[]) => JSON.stringify(path.map(String))
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => key(i.path)))
  return issues.filter((i) => i.code === 'invalid_type' || !wrongType.has(key(i.path)))
}

/**
 * A field not sent, said so: zod's `Invalid input: expected string, received undefined` for a
 * required field left out (JSON has no undefined: only a field missing reads so) becomes
 * `missing: expected string`.
 */
export function missingSaid(message: string): string {
  return message.replace(/^Invalid input: (expected .+), received undefined$/, 'missing: $1')
}
