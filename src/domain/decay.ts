const DAY_MS = 86_400_000

/** Age in days (continuous) of a moment seen from `now`; never negative. */
export function ageDays(at: Date | string, now: Date): number {
  const t = typeof at === 'string' ? Date.parse(at) : at.getTime()
  return Math.max(0, (now.getTime() - t) / DAY_MS)
}

/** Power-law decay weight of an observation of age `a` days: (a + 1)^-α (R-MEM-2; Anderson & Schooler 1991). */
export function decayWeight(age: number, alpha: number): number {
  return Math.pow(age + 1, -alpha)
}
