export const DAY_MS = 86_400_000

/** Age in days (continuous) of a moment seen from `now`; never negative. */
export function ageDays(at: Date | string | number, now: Date | number): number {
  const t = typeof at === 'string' ? Date.parse(at) : typeof at === 'number' ? at : at.getTime()
  const n = typeof now === 'number' ? now : now.getTime()
  return Math.max(0, (n - t) / DAY_MS)
}

/** Power-law decay weight of an observation of age `a` days: (a + 1)^-α (R-MEM-2; Anderson & Schooler 1991). */
export function decayWeight(age: number, alpha: number): number {
  return Math.pow(age + 1, -alpha)
}
