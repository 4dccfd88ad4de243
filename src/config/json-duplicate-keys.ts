import { scanJson } from './json-scan'

/** A key given again in one object: its path, and the line of its second occurrence. */
export interface DuplicateJsonKey {
  path: Array<string | number>
  line: number
}

/**
 * The keys a JSON text gives more than once in one object, each path once, in the order of the
 * text, with the line it is first given again on: JSON.parse silently keeps the last value of such
 * a key. `text` must be JSON that JSON.parse reads (no byte order mark): the scan checks no syntax.
 */
export function duplicateJsonKeys(text: string): DuplicateJsonKey[] {
  const found = new Map<string, DuplicateJsonKey>()
  scanJson(text, {
    key: (path, line, again) => {
      const name = JSON.stringify(path)
      if (again && !found.has(name)) found.set(name, { path, line })
    },
  })
  return [...found.values()]
}
