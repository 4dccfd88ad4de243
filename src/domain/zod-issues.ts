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

/**
 * zod's message for an issue of `input` at `path`, a field left out said `missing: expected …`
 * whatever it takes: a string's `received undefined` (missingSaid), and a field of a few values (an
 * enum, a literal), whose issue carries no input and reads `Invalid option: expected one of …` as
 * for a value sent wrong, when `input` has no such field though it has the object to hold it.
 */
export function missingSaidOf(issue: { code: string; message: string }, path: readonly PropertyKey[], input: unknown): string {
  if (issue.code === 'invalid_value' && leftOut(input, path)) return issue.message.replace(/^Invalid (option|input): /, 'missing: ')
  return missingSaid(issue.message)
}

/** Whether the field at `path` is not in `input`, though the object that would hold it is. */
function leftOut(input: unknown, path: readonly PropertyKey[]): boolean {
  let holder = input
  for (const key of path.slice(0, -1)) {
    if (typeof holder !== 'object' || holder === null) return false
    holder = (holder as Record<PropertyKey, unknown>)[key]
  }
  const last = path.at(-1)
  return last !== undefined && typeof holder === 'object' && holder !== null && (holder as Record<PropertyKey, unknown>)[last] === undefined
}
