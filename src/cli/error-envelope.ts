/** The error the service answers with, `{"error": {code, message, issues, request_id}}` (http/errors.ts). */
export interface ServiceError {
  code?: unknown
  message?: unknown
  issues?: unknown
  request_id?: unknown
}

/** The `error` of the service's envelope in an answer's text, or undefined for any other answer (a proxy's page). */
export function serviceErrorIn(text: string): ServiceError | undefined {
  try {
    const error = (JSON.parse(text) as { error?: unknown } | null)?.error
    return error !== null && typeof error === 'object' ? (error as ServiceError) : undefined
  } catch {
    return undefined
  }
}

/** An error's issues with a message: each field the service named (`path`), with what is wrong with it. */
export function issuesOf(error: ServiceError | undefined): Array<{ path?: unknown; message: string }> {
  const issues = Array.isArray(error?.issues) ? (error.issues as Array<{ path?: unknown; message?: unknown } | null>) : []
  return issues.flatMap((i) => (typeof i?.message === 'string' ? [{ path: i.path, message: i.message }] : []))
}

/** An error's issues as the commands say them, `path: message; message`, '' when there are none. */
export function issuesText(error: ServiceError | undefined): string {
  return issuesOf(error)
    .map((i) => (typeof i.path === 'string' && i.path !== '' ? `${i.path}: ${i.message}` : i.message))
    .join('; ')
}
