/**
 * The first group of a regular expression's source that is repeated (`*`, `+`, `{n,}`, `{n,m}` with
 * m above 1) and holds an unbounded repeat of its own (`*`, `+`, `{n,}`): `(a+)+`, `(\w+\s?)*`,
 * `(?:x*y){2,}`. Such a pattern can backtrack for exponential time on a text that almost matches
 * (`^(a+)+$` on 28 `a`s and a `b`: 27 s), holding the event loop, every route with it. Undefined
 * when there is none. Overlapping alternatives, `(a|a)*`, and a bounded repeat of varying length
 * repeated, `(a{2,3})+`, are ambiguousRepeat's to see; it never throws. A lookaround's
 * repeats are checked within it but do not make the group around it unbounded: it consumes
 * nothing and is not backtracked into, so `(?:(?!a\s*b).)*` tries each position once.
 */
export function nestedRepeat(source: string): string | undefined {
  // Each open group: where it began, and whether it holds an unbounded repeat.
  const open: Array<{ start: number; unbounded: boolean; lookaround: boolean }> = []
  const top = { unbounded: false }
  /** The repeat at `i`, if any: its length and whether it repeats more than once, unbounded or not. */
  const repeatAt = (i: number): { length: number; repeats: boolean; unbounded: boolean } | undefined => {
    const c = source[i]
    if (c === '*' || c === '+') return { length: lazy(i + 1) + 1, repeats: true, unbounded: true }
    if (c === '?') return { length: lazy(i + 1) + 1, repeats: false, unbounded: false }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))
      if (m === null) return undefined
      const most = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])
      return { length: m[0].length + lazy(i + m[0].length), repeats: most > 1, unbounded: most === Infinity }
    }
    return undefined
  }
  const lazy = (i: number) => (source[i] === '?' ? 1 : 0)
  const frame = () => open[open.length - 1] ?? top
  let i = 0
  while (i < source.length) {
    const c = source[i]
    if (c === '\\') {
      i += 2
    } else if (c === '[') {
      // A class is one atom: skip to its closing `]` (an escaped `]` is a member). Unlike POSIX, a
      // `]` first in it closes it: `[]` matches nothing, `[^]` any character.
      i += source[i + 1] === '^' ? 2 : 1
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1
      i++
    } else if (c === '(') {
      open.push({ start: i, unbounded: false, lookaround: /^\(\?<?[=!]/.test(source.slice(i, i + 4)) })
      i++
      continue
    } else if (c === ')') {
      const group = open.pop()
      i++
      if (group === undefined) continue
      const repeat = repeatAt(i)
      if (group.lookaround) {
        // Its repeat, if any (`(?=a)*`, allowed without the u flag), repeats a match of nothing.
        if (repeat !== undefined) i += repeat.length
        continue
      }
      if (repeat?.repeats === true && group.unbounded) return source.slice(group.start, i + repeat.length)
      const outer = frame()
      outer.unbounded = outer.unbounded || group.unbounded || repeat?.unbounded === true
      if (repeat !== undefined) i += repeat.length
      continue
    } else {
      i++
    }
    // After an atom: its repeat, if any.
    const repeat = repeatAt(i)
    if (repeat !== undefined) {
      if (repeat.unbounded) frame().unbounded = true
      i += repeat.length
    }
  }
  return undefined
}
