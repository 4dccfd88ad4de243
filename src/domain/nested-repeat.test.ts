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
  ])('leaves %j alone', (source) => {
    expect(nestedRepeat(source)).toBeUndefined()
  })
})
