/** One problem with a request, at a path into its body (R-SVC-2). */
export interface Issue {
  path: string
  message: string
}

/**
 * An error the caller caused: it carries a stable `code` (never changed between versions), the
 * HTTP status it maps to, and the fields at fault. Anything else thrown is a bug.
 */
export class InputError extends Error {
  readonly code: string
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422
  readonly issues: Issue[]

  constructor(
    code: string,
    message: string,
    options: { status?: InputError['status']; issues?: Issue[] } = {},
  ) {
    super(message)
    this.name = 'InputError'
    this.code = code
    this.status = options.status ?? 400
    this.issues = options.issues ?? []
  }
}

/**
 * The fields at fault, each named once, for the line that sums a 400 up: a field may break two
 * rules at once (an empty `action` is too short and only white space), and the summary said
 * `invalid request: action, action`; its issues still say each rule. Every 400 that names its
 * fields in its message says them so (a hook payload's, an import's, a decision's), as the docs say.
 */
export function fieldsOf(issues: ReadonlyArray<{ path: string }>): string {
  const fields = [...new Set(issues.map((i) => i.path))]
  // A line to read: 5,000 keys of a context, each refused, named them all in it (half a megabyte).
  if (fields.length <= MAX_FIELDS_NAMED) return fields.join(', ')
  return `${fields.slice(0, MAX_FIELDS_NAMED).join(', ')} and ${fields.length - MAX_FIELDS_NAMED} more`
}

/** How many fields at fault the line that sums a 400 up names; its issues still list every one. */
const MAX_FIELDS_NAMED = 10
