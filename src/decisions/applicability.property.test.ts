import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isWithin, normalizePath } from './applicability'

const segment = fc.constantFrom('src', 'billing', 'billing-v2', 'a', 'A', 'é', 'e\u0301', '.', '..', '', 'x y')
const root = fc.constantFrom('', '/', 'C:/', 'c:\\', 'D:/', '\\', './')
/** Paths as written (a folder named like a drive, `./C:`, is left out: it reads as the drive). */
const path = fc
  .tuple(root, fc.array(segment, { maxLength: 5 }), fc.constantFrom('/', '\\'), fc.constantFrom('', '/', '\\'))
  .map(([r, segs, sep, end]) => r + segs.join(sep) + end)
const absolute = (p: string) => /^(?:[/\\]|[A-Za-z]:(?:[/\\]|$))/.test(p)

describe('paths, for any path', () => {
  it('normalise to themselves, absolute exactly when written so', () => {
    fc.assert(
      fc.property(path, (p) => {
        const n = normalizePath(p)
        expect(normalizePath(n)).toBe(n)
        expect(/^(?:\/|[A-Z]:(?:\/|$))/.test(n)).toBe(absolute(p))
      }),
      { numRuns: 2000 },
    )
  })

  it('hold themselves, and what is below them by whole segments', () => {
    fc.assert(
      fc.property(path, fc.array(fc.constantFrom('src', 'billing', 'x'), { minLength: 1, maxLength: 3 }), fc.constantFrom('-v2', 'x', '.md'), (p, below, more) => {
        expect(isWithin(p, p)).toBe(true)
        const n = normalizePath(p)
        const sep = n.endsWith('/') ? '' : '/'
        expect(isWithin(`${n}${sep}${below.join('/')}`, p)).toBe(true)
        if (n !== '.' && n !== '/' && !n.endsWith(':')) expect(isWithin(`${n}${more}`, p)).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })
})
