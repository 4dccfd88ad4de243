/**
 * Where a JSON syntax error is, as a line and column: Node 20's JSON.parse says only `at position
 * 2873`, where YAML's errors give the line (Node 22 adds `(line 3 column 1)` itself: kept as is).
 */
export function jsonLineColumn(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message)
  if (at === null || /\bline\b/.test(message)) return ''
  const position = Math.min(Number(at[1]), text.length)
  const before = text.slice(0, position)
  const line = before.split('\n').length
  return ` (line ${line}, column ${position - before.lastIndexOf('\n')})`
}

/**
 * What JSON does not have that a hand-written file often holds: a comment (`//`, a block, `#`)
 * or a comma before a closing bracket. The parser says only `Expected property name` or
 * `Unexpected token '/'`; the first such one, outside strings and not after where the parser
 * stopped (`message`, JSON.parse's), with its line and column (`line 2, column 3`).
 */
export function jsonHabit(text: string, message: string): { habit: 'comment' | 'trailing-comma'; at: string } | undefined {
  const stopped = /at position (\d+)/.exec(message)
  const limit = stopped === null ? text.length : Number(stopped[1])
  let inString = false
  for (let i = 0; i < text.length && i <= limit; i++) {
    const c = text[i] as string
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    const comment = text.startsWith('//', i) || text.startsWith('/*', i) || c === '#'
    const trailingComma = c === ',' && /^,\s*[}\]]/.test(text.slice(i, i + 200))
    if (!comment && !trailingComma) continue
    const before = text.slice(0, i)
    return { habit: comment ? 'comment' : 'trailing-comma', at: `line ${before.split('\n').length}, column ${i - before.lastIndexOf('\n')}` }
  }
  return undefined
}
