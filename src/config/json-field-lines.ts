import { scanJson } from './json-scan'

/**
 * The line of each field and list entry of a JSON text, by its path joined with `.` as a refusal
 * names it (`points.0.match.question`): the line its key, or its entry, starts on; the first when
 * a key is given twice. `text` must be JSON that JSON.parse reads: the scan checks no syntax.
 */
export function jsonFieldLines(text: string): Map<string, number> {
  const lines = new Map<string, number>()
  const mark = (path: Array<string | number>, line: number) => {
    const name = path.join('.')
    if (!lines.has(name)) lines.set(name, line)
  }
  scanJson(text, { key: mark, entry: mark })
  return lines
}
