/** Where things are unless flags say otherwise (R-SVC-1). */
export const DEFAULT_PORT = 7420
export const DEFAULT_HOST = '127.0.0.1'
/** Where the commands find the service when DECISION_MEMORY_URL and DECISION_MEMORY_PORT are unset, as in a new shell. */
export const DEFAULT_SERVICE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`
