/** Where the scan is in the JSON text: in an object, at its current key; or in a list, at an index. */
type Frame = { key: string } | { index: number; awaiting: boolean }

const JSON_SPACE = new Set([' ', '\t', '\n', '\r'])

/**
 * The line of each field and list entry of a JSON text, by its path joined with `.` as a refusal
 * names it (`points.0.match.question`): the line its key, or its entry, starts on; the first when
 * a key is given twice. `text` must be JSON that JSON.parse reads: the scan checks no syntax.
 */
export function jsonFieldLines(text: string): Map<string, number> {
  const lines = new Map<string, number>()
  const stack: Frame[] = []
  let line = 1
  const path = () => stack.map((f) => ('key' in f ? f.key : f.index))
  const mark = (at: Array<string | number>) => {
    const name = at.join('.')
    if (!lines.has(name)) lines.set(name, line)
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (c === '\n') line++
    if (JSON_SPACE.has(c)) continue
    const top = stack.at(-1)
    // The first character of a list entry: the entry starts on this line.
    if (top !== undefined && 'index' in top && top.awaiting && c !== ']') {
      top.awaiting = false
      mark(path())
    }
    if (c === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      let next = end + 1
      while (JSON_SPACE.has(text[next] as string)) next++
      // A string followed by a colon is a key; read through JSON.parse, so "\u0061" is the key "a".
      if (text[next] === ':' && top !== undefined && 'key' in top) {
        top.key = JSON.parse(text.slice(i, end + 1)) as string
        mark(path())
      }
      i = end
      continue
    }
    if (c === '{') stack.push({ key: '' })
    else if (c === '[') stack.push({ index: 0, awaiting: true })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',' && top !== undefined && 'index' in top) {
      top.index++
      top.awaiting = true
    }
  }
  return lines
}
