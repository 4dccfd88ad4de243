/** The fewest letters added, dropped, changed, or two side by side swapped, that make `a` of `b` (Damerau 1964, as optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (__, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[]
      const above = d[i - 1] as number[]
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1)
    }
  }
  return (d[a.length] as number[])[b.length] as number
}

/**
 * The names `typed` may be a slip of: the same but for case; else those a letter or two from it,
 * the nearest, where the name is long enough for that to be a slip (one in `why`, two in
 * `prefrences`), so that `--on` is no slip of `--off`. None when nothing is that near.
 */
export function nearestNames(typed: string, names: readonly string[]): string[] {
  const cased = names.filter((name) => name.toLowerCase() === typed.toLowerCase())
  if (cased.length > 0) return cased
  const slips = names
    .map((name) => ({ name, edits: editDistance(typed.toLowerCase(), name.toLowerCase()) }))
    .filter(({ name, edits }) => edits <= 2 && edits * 3 <= Math.max(name.length, typed.length))
  const fewest = Math.min(...slips.map(({ edits }) => edits))
  return slips.filter(({ edits }) => edits === fewest).map(({ name }) => name)
}
