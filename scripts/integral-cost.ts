// What the confidence integral costs and how far it is from the exact value (R-REC-3, R-MEM-8):
// dirichletProbabilityOfMax of this checkout against that of another commit (by default the one
// before the integral went over the recommended option's own mass), side by side in one process,
// on pseudo-counts from the seed's worked example to a million. Each call is timed in rounds that
// alternate the two; a figure is the median of the rounds, in µs per call, and the ratio is this
// checkout's over the other's. The exact values are those of src/domain/statistics.reference.test.ts.
//
//   npx tsx scripts/integral-cost.ts [--base 5975ca6] [--rounds 15] [--calls 200]
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { dirichletProbabilityOfMax } from '../src/domain/statistics'
import { parseFlags, positiveInteger, readFlags, UsageError } from './flags'

// Checked before anything is timed: a mistake in them is said on one line, exit 2.
const { values, rounds, calls } = readFlags('integral-cost', () => {
  const { values } = parseFlags({
    options: {
      base: { type: 'string', default: '5975ca6' },
      rounds: { type: 'string', default: '15' },
      calls: { type: 'string', default: '200' },
    },
  })
  try {
    execFileSync('git', ['cat-file', '-e', `${values.base}:src/domain/statistics.ts`], { stdio: 'ignore' })
  } catch {
    throw new UsageError(`--base: no src/domain/statistics.ts at ${JSON.stringify(values.base)} in this repository`)
  }
  return { values, rounds: positiveInteger(values.rounds, 'rounds'), calls: positiveInteger(values.calls, 'calls') }
})

/** Pseudo-counts, the option asked of, and P(it is the largest) to 1e-12 (mpmath, 30 digits). */
const cases: Array<[number[], number, number]> = [
  [[4, 7, 2], 1, 0.810259474652407],
  [[5, 6, 2], 1, 0.606170001555911],
  [[1, 190, 200], 2, 0.693901198548983],
  [[1, 1980, 2000], 2, 0.624399130401462],
  [[20001, 19801, 1], 0, 0.841948151726074],
  [[60000, 59700, 1], 0, 0.807060071825504],
  [[1, 99500, 100000], 2, 0.868523140491174],
  [[1, 998000, 1000000], 2, 0.921454259873199],
]

// The other commit's statistics.ts, beside this checkout's node_modules so that its imports resolve.
const dir = await mkdtemp(join(tmpdir(), 'dm-integral-'))
try {
  await writeFile(join(dir, 'statistics.ts'), execFileSync('git', ['show', `${values.base}:src/domain/statistics.ts`]))
  await symlink(resolve('node_modules'), join(dir, 'node_modules'))
  const base = (await import(join(dir, 'statistics.ts'))) as { dirichletProbabilityOfMax: typeof dirichletProbabilityOfMax }
  const variants = [
    ['base', base.dirichletProbabilityOfMax],
    ['this', dirichletProbabilityOfMax],
  ] as const

  const time = (f: typeof dirichletProbabilityOfMax, alphas: number[], index: number) => {
    const started = performance.now()
    for (let i = 0; i < calls; i++) f(alphas, index)
    return ((performance.now() - started) / calls) * 1000
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    return s[Math.floor(s.length / 2)] as number
  }

  console.log(`base ${values.base} against this checkout; ${rounds} rounds of ${calls} calls, median µs per call`)
  console.log(['pseudo-counts', 'exact', 'base', 'this', 'base µs', 'this µs', 'ratio'].join('\t'))
  for (const [alphas, index, exact] of cases) {
    for (const [, f] of variants) time(f, alphas, index)
    const us: number[][] = variants.map(() => [])
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0]
      for (const v of order) us[v]?.push(time((variants[v] as (typeof variants)[number])[1], alphas, index))
    }
    const [b, t] = us.map(median) as [number, number]
    const shown = variants.map(([, f]) => f(alphas, index).toFixed(6))
    console.log(
      [`${JSON.stringify(alphas)}[${index}]`, exact.toFixed(6), ...shown, b.toFixed(1), t.toFixed(1), (t / b).toFixed(2)].join('\t'),
    )
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
