import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nestedRepeat } from './nested-repeat'

describe('nestedRepeat: a repeated group holding an unbounded repeat', () => {
  it.each([
    ['^(a+)+$', '(a+)+'],
    ['(\\w+\\s?)*', '(\\w+\\s?)*'],
    ['x(?:y*z){2,}', '(?:y*z){2,}'],
    ['((ab)+c)*', '((ab)+c)*'],
    ['(a{2,})+?', '(a{2,})+?'],
    ['(?<word>[a-z]+ ?)+$', '(?<word>[a-z]+ ?)+'],
    // In JS a `]` first in a class closes it: `[^]` is any character, and `^([^]+)+x$` hangs.
    ['^([^]+)+x$', '([^]+)+'],
    ['([]a+)+', '([]a+)+'],
    // Inside a lookaround, still seen.
    ['(?=(a+)+b)', '(a+)+'],
    ['(a)(?:\\1+)+', '(?:\\1+)+'],
  ])('finds it in %j', (source, group) => {
    expect(nestedRepeat(source)).toBe(group)
  })

  it.each([
    ['^\\s*tier\\s*$'],
    ['complexity tier|which tier'],
    ['(foo|bar)+'],
    ['(a+)?'],
    ['(a+){1}'],
    ['(a+)b+'],
    ['[(a+)]+'],
    ['\\(a+\\)+'],
    ['(a{2,3})+'],
    ['which (model|effort)\\b'],
    ['[\\]a-z+]+(b)*'],
    ['[()+]+(x)+'],
    ['(\\\\+)?(\\(a\\))+'],
    // A lookaround consumes nothing and is not backtracked into: each position is tried once.
    ['(?:(?!foo\\s*bar).)*'],
    ['which (?:(?!\\s+not).)+tier'],
    ['(?:(?<=x\\s*)y)+'],
    ['(?:(?=(a+))\\1b)+'],
    ['(?<n>a)\\k<n>+'],
    ['(a{)+'],
    ['(\\u{1F600})+'],
  ])('leaves %j alone', (source) => {
    expect(nestedRepeat(source)).toBeUndefined()
  })

  it('never throws, and names a group of the source, on any text', () => {
    const unit = fc.constantFrom(...'()[]{}\\*+?^$|,:=!<>0129a'.split(''), '(?:', '(?=', '(?<=', '(?<!', '[^]', '{2,}', '{1}', '\\u{')
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit, maxLength: 60 })), (source) => {
        const found = nestedRepeat(source)
        if (found !== undefined) {
          expect(source).toContain(found)
          expect(found.startsWith('(')).toBe(true)
        }
      }),
      { numRuns: 2000 },
    )
  })
})
