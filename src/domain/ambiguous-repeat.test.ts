import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ambiguousRepeat, oneWayHint } from './ambiguous-repeat'

describe('ambiguousRepeat: a repeat whose text can be matched in two ways at each repeat', () => {
  it.each([
    ['(a|a)*b', 'iu', '(a|a)*'],
    ['(\\w|\\d)+$', 'iu', '(\\w|\\d)+'],
    ['(test|tests?)+ runner', 'iu', '(test|tests?)+'],
    ['(a|aa)+$', 'iu', '(a|aa)+'],
    // Case-insensitive, as every rule is read: `A` and `a` are one character.
    ['(A|a)+x', 'iu', '(A|a)+'],
    ['x((a|a)b)*', 'iu', '((a|a)b)*'],
    // A repeat of more than 8, bounded, is as slow: 2^30 ways for 30 repeats.
    ['(a|a){1,30}b', 'iu', '(a|a){1,30}'],
    ['(?<w>[a-z]|\\w)+$', 'iu', '(?<w>[a-z]|\\w)+'],
    ['(?:[а-я]|ж)+ db', 'iu', '(?:[а-я]|ж)+'],
    // Inside a lookaround, tested on its own.
    ['which (?=(x|x)+y)', 'iu', '(x|x)+'],
    ['(\\p{L}|é)+$', 'iu', '(\\p{L}|é)+'],
    // A character named by its escape is compared too, as one written out is: Devanagari is not in the sample.
    ['(\\u0905|[\\u0900-\\u097f])+$', 'iu', '(\\u0905|[\\u0900-\\u097f])+'],
    ['(?:[\\u{900}-\\u{97f}]|\\p{L})+ db', 'iu', '(?:[\\u{900}-\\u{97f}]|\\p{L})+'],
    ['(\\xc0|[\\xc0-\\xc5])+$', 'i', '(\\xc0|[\\xc0-\\xc5])+'],
    ['(a|a)+?b', 'i', '(a|a)+?'],
    // One set of no character of the sample, written twice, fits the same characters twice.
    ['(?:\\p{Script=Cherokee}|\\p{Script=Cherokee}{2})+$', 'iu', '(?:\\p{Script=Cherokee}|\\p{Script=Cherokee}{2})+'],
    // A follow reached two ways: a round may end where the group's next part would begin
    // (`(?:\s?-?)+$` took 0.25 s on 22 " -" and a `!`, twice as long for each one more).
    ['^(?:a?b?)*$', 'iu', '(?:a?b?)*'],
    ['^(?:\\s?-?)+$', 'iu', '(?:\\s?-?)+'],
    ['^(?:(?:which )?(?:tier )?)+$', 'iu', '(?:(?:which )?(?:tier )?)+'],
    ['^(?:a*)+$', 'iu', '(?:a*)+'],
    ['^(a*)*$', 'iu', '(a*)*'],
    // A bounded repeat of varying length, repeated: 2 + 2 + 2 or 3 + 3 (`(a{2,3})+$` took 4 min on 80 `a`s).
    ['(a{2,3})+$', 'iu', '(a{2,3})+'],
    // A repeat inside a repeated group is one too (nestedRepeat says it in its own words first).
    ['^(a+)+$', 'iu', '(a+)+'],
  ])('finds it in %j', (source, flags, repeat) => {
    expect(ambiguousRepeat(source, flags)).toBe(repeat)
  })

  it.each([
    ['(ab|ac)+'],
    ['(foo|bar)+'],
    ['(\\s|\\w)*$'],
    ['[a-z]+ (runner|framework)'],
    ['(a|a){2}b'],
    ['(a|b){1,30}'],
    // A bounded repeat of varying length, ended by a separator it cannot match: one way only.
    ['^(\\d{1,3},)*\\d{1,3}$'],
    ['(?:[0-9a-f]{1,4}:)+$'],
    ['(?:[a-z]{1,8} )+$'],
    ['which (model|effort)\\b'],
    ['^\\s*(test )?runner\\s*$'],
    ['(?:(?!foo\\s*bar).)*'],
    ['\\bwhich (test|spec)s? runner\\b'],
    // Not a rule this reads: left to the engine.
    ['(unclosed'],
    ['a{'],
  ])('takes %j', (source) => {
    expect(ambiguousRepeat(source, 'iu')).toBeUndefined()
  })

  it('takes a rule it cannot test within its work, rather than hold the start', () => {
    expect(ambiguousRepeat('(a|a)+$', 'iu', 10)).toBeUndefined()
    // A list of 300 words repeated is tested within MOST_WORK: one of them given twice is found.
    const words = Array.from({ length: 300 }, (_, k) => `w${k}`)
    expect(ambiguousRepeat(`(?:${words.join('|')}|w7)+$`, 'iu')).toBe(`(?:${words.join('|')}|w7)+`)
    expect(ambiguousRepeat(`(?:${words.join('|')})+$`, 'iu')).toBeUndefined()
  })

  it('takes every rule of the default policy', () => {
    const policy = JSON.parse(readFileSync(new URL('../../policies/default.json', import.meta.url), 'utf8')) as { points: Array<{ match: Record<string, string> }> }
    for (const point of policy.points) for (const rule of Object.values(point.match)) expect(ambiguousRepeat(rule, 'iu')).toBeUndefined()
  })
})

describe('oneWayHint: how to write a repeat ambiguousRepeat found, fitted to its group', () => {
  const ALTERNATIVES = 'alternatives no text fits two of, nor a run of them another, as (tests?)+ for (test|tests?)+ and a+ for (a|aa)+'
  const PARTS =
    'parts that cannot split a round in two, one of them at least required, as (?:a|b)* for (a?b?)*, and one repeat where a repeat of varying length is repeated, as a{2,} for (a{2,3})+'

  it.each([
    ['(\\w|\\d)+', '[\\w\\d]+'],
    ['(A|a)+', '[Aa]+'],
    ['(a|a)*', '[a]*'],
    ['(a|a)+?', '[a]+?'],
    ['(a|a){1,30}', '[a]{1,30}'],
    ['(?<w>[a-z]|\\w)+', '[a-z\\w]+'],
    ['(?:[а-я]|ж)+', '[а-яж]+'],
    ['(\\p{L}|é)+', '[\\p{L}é]+'],
    ['(\\u0905|[\\u0900-\\u097f])+', '[\\u0905\\u0900-\\u097f]+'],
    ['(-|x|-)+', '[\\-x]+'],
    // A set's `-` at its edge is a character there, and stays one beside the others, not the end of a range.
    ['([a-]|-)+', '[a\\-\\-]+'],
    ['(-|[-a])+', '[\\-\\-a]+'],
    ['([a-]|a)+', '[a\\-a]+'],
  ])('writes the alternatives of one character each of %j as one set, %j, which matches each text one way and the same characters', (repeat, rewritten) => {
    expect(oneWayHint(repeat)).toBe(`its alternatives, of one character each, as one set, ${rewritten}`)
    expect(ambiguousRepeat(`${rewritten}$`, 'iu')).toBeUndefined()
    const before = new RegExp(`^(?:${repeat})$`, 'iu')
    const after = new RegExp(`^(?:${rewritten})$`, 'iu')
    for (const text of ['a', 'A', 'aa', 'z', '7', '_', '-', 'x', 'é', 'ж', 'б', '\u0905', '\u0915', ' ', '!', 'a7-']) expect(after.test(text), `${repeat} ${text}`).toBe(before.test(text))
  })

  it.each([
    ['(test|tests?)+', ALTERNATIVES],
    ['(a|aa)+', ALTERNATIVES],
    ['((a|a)b)*', ALTERNATIVES],
    ['(.|a)+', ALTERNATIVES],
    ['([^a]|b)+', ALTERNATIVES],
    ['(?:\\p{Script=Cherokee}|\\p{Script=Cherokee}{2})+', ALTERNATIVES],
    ['(?:a?b?)*', PARTS],
    ['(?:\\s?-?)+', PARTS],
    ['(a{2,3})+', PARTS],
    ['(?:(?:which )?(?:tier )?)+', PARTS],
  ])('tells %j the way of its kind', (repeat, hint) => {
    expect(oneWayHint(repeat)).toBe(hint)
  })
})
