import { scanJson } from './json-scan'

/**
 * The paths of the keys a JSON text gives more than once in one object, each path once, in the
 * order of the text: JSON.parse silently keeps the last value of such a key. `text` must be JSON
 * that JSON.parse reads (no byte order mark): the scan checks no syntax.
 */
export function duplicateJsonKeys(text: string): Array<Array<string | number>> {
  const found = new Map<string, Array<string | number>>()
  scanJson(text, {
    key: (path, _line, again) => {
      if (again) found.set(JSON.stringify(path), path)
    },
  })
  return [...found.values()]
}
