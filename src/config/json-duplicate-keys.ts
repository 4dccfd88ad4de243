/** Where the scan is in the JSON text: in an object, at its current key; or in a list, at an index. */
type Frame = { keys: Set<string>; key: string } | { index: number }

const JSON_SPACE = new Set([' ', '\t', '\n', '\r'])

/**
 * The paths of the keys a JSON text gives more than once in one object, each path once, in the
 * order of the text: JSON.parse silently keeps the last value of such a key. `text` must be JSON
 * that JSON.parse reads (no byte order mark): the scan checks no syntax.
 */
export function duplicateJsonKeys(text: string): Array<Array<string | number>> {
  const found = new Map<string, Array<string | number>>()
  const stack: Frame[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      let next = end + 1
      while (JSON_SPACE.has(text[next] as string)) next++
      const top = stack.at(-1)
      // A string followed by a colon is a key; read through JSON.parse, so "\u0061" is the key "a".
      if (text[next] === ':' && top !== undefined && 'keys' in top) {
        const key = JSON.parse(text.slice(i, end + 1)) as string
        if (top.keys.has(key)) {
          const path = [...stack.slice(0, -1).map((f) => ('keys' in f ? f.key : f.index)), key]
          found.set(JSON.stringify(path), path)
        }
        top.keys.add(key)
        top.key = key
      }
      i = end + 1
      continue
    }
    if (c === '{') stack.push({ keys: new Set(), key: '' })
    else if (c === '[') stack.push({ index: 0 })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',') {
      const top = stack.at(-1)
      if (top !== undefined && 'index' in top) top.index++
    }
    i++
  }
  return [...found.values()]
}
