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
