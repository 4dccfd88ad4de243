/** Where the scan is in the JSON text: in an object, at its current key; or in a list, at an index. */
type Frame = { keys: Set<string>; key: string } | { index: number; awaiting: boolean }

const JSON_SPACE = new Set([' ', '\t', '\n', '\r'])

/** What a scan of a JSON text meets, each by its path (`['points', 0, 'match']`) and the line it starts on. */
export interface JsonVisitor {
  /** A key of an object; `again` when that object gave it before (JSON.parse keeps the last value). */
  key?: (path: Array<string | number>, line: number, again: boolean) => void
  /** The first character of a list entry. */
  entry?: (path: Array<string | number>, line: number) => void
}

/**
 * Walks the keys and list entries of a JSON text, in the order of the text. `text` must be JSON
 * that JSON.parse reads (no byte order mark): the scan checks no syntax. One walk for every reader
 * of a policy's or a tokens file's text, so that they agree on what a key and an entry are.
 */
export function scanJson(text: string, visit: JsonVisitor): void {
  const stack: Frame[] = []
  let line = 1
  const path = () => stack.map((f) => ('keys' in f ? f.key : f.index))
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (c === '\n') line++
    if (JSON_SPACE.has(c)) continue
    const top = stack.at(-1)
    if (top !== undefined && 'index' in top && top.awaiting && c !== ']') {
      top.awaiting = false
      visit.entry?.(path(), line)
    }
    if (c === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      let next = end + 1
      while (JSON_SPACE.has(text[next] as string)) next++
      // A string followed by a colon is a key; read through JSON.parse, so "\u0061" is the key "a".
      if (text[next] === ':' && top !== undefined && 'keys' in top) {
        const key = JSON.parse(text.slice(i, end + 1)) as string
        const again = top.keys.has(key)
        top.keys.add(key)
        top.key = key
        visit.key?.(path(), line, again)
      }
      // A JSON string holds no raw newline: the line is unchanged.
      i = end
      continue
    }
    if (c === '{') stack.push({ keys: new Set(), key: '' })
    else if (c === '[') stack.push({ index: 0, awaiting: true })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',' && top !== undefined && 'index' in top) {
      top.index++
      top.awaiting = true
    }
  }
}

/** A position in `text` as `line L, column C`, both from 1. */
function lineColumn(text: string, position: number): string {
  const before = text.slice(0, Math.min(position, text.length))
  return `line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`
}

/** The position JSON.parse's error gives (`… in JSON at position 7`), if it gives one. */
function statedPosition(error: unknown): number | undefined {
  const at = /at position (\d+)/.exec(error instanceof Error ? error.message : '')
  return at === null ? undefined : Number(at[1])
}

/** Whether some JSON text could still begin with `start`: the parser stops at its end, if at all. */
function couldContinue(start: string): boolean {
  try {
    JSON.parse(start)
    return true
  } catch (error) {
    return /end of JSON input/.test((error as Error).message) || statedPosition(error) === start.length
  }
}

/**
 * Where a text JSON.parse refused (`error`, what it threw) breaks, as `line L, column C`: not the
 * parser's message, which may quote the text (a token, a user's choice). The position the parser
 * gives; else, where Node 20's parser gives none (an unexpected token: a trailing comma in a list,
 * `[1,]`, a misspelt `flase`, a bare word), the first character after the longest start of the
 * text that JSON could still continue (found in a few parses, halving the span each time).
 */
export function whereJsonBreaks(text: string, error: unknown): string | undefined {
  const stated = statedPosition(error)
  if (stated !== undefined) return lineColumn(text, stated)
  if (couldContinue(text)) return lineColumn(text, text.length)
  let good = 0
  let bad = text.length
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2)
    if (couldContinue(text.slice(0, middle))) good = middle
    else bad = middle
  }
  return lineColumn(text, good)
}
