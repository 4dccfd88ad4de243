import { describe, expect, it } from 'vitest'
import { matchPlainly, matchWithin } from './pattern-match'

// 2^40 ways to split the a's: run to its end, this pattern holds the thread for days.
const CATASTROPHIC = '(a+)+$'
const TEXT = `git push --force ${'a'.repeat(40)}!`

describe('must_not patterns under a time limit', () => {
  it('answers true or false for patterns that finish, as RegExp does', () => {
    const patterns = ['git push --force', '^rm -rf', 'a{40}!$', '(?:x|y)+z']
    expect(matchWithin(50)(patterns, TEXT)).toEqual(matchPlainly(patterns, TEXT))
    expect(matchWithin(50)(patterns, TEXT)).toEqual([true, false, true, false])
    expect(matchWithin(50)([], TEXT)).toEqual([])
  })

  it('leaves undecided a pattern that backtracks past the limit, and still decides the others', () => {
    expect(matchWithin(20)(['git push', CATASTROPHIC, 'nothing-like-this'], TEXT)).toEqual([true, undefined, false])
  })

  it('can be used again after a pattern ran out of time', () => {
    const match = matchWithin(20)
    expect(match([CATASTROPHIC], TEXT)).toEqual([undefined])
    expect(match(['force'], TEXT)).toEqual([true])
  })
})

describe('a check with many slow patterns', () => {
  it('decides every pattern that finishes, wherever it stands among slow ones', () => {
    const slow = Array.from({ length: 10 }, (_, i) => `(a+)+$|x{${i}}y`)
    const answers = matchWithin(20)([...slow, 'git push', 'rm -rf'], TEXT)
    expect(answers).toEqual([...Array(10).fill(undefined), true, false])
  })
  it('holds the service a bounded time however many slow patterns a check meets, and decides the fast ones', () => {
    // One decision may have 50 patterns: at about 35 ms a slow one, the check took 1.8 s.
    const slow = Array.from({ length: 50 }, (_, i) => `(a+)+$|x{${i}}y`)
    const started = performance.now()
    const answers = matchWithin(20)([...slow, 'git push --force'], TEXT)
    expect(performance.now() - started).toBeLessThan(800)
    expect(answers.at(-1)).toBe(true)
    expect(answers.slice(0, 50)).toEqual(Array(50).fill(undefined))
  })
})
