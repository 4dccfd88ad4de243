import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DEFAULT_POLICY_FILE, parsePolicy } from '../config/load-policy'
import { isSensitive } from './decision-point'

const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8')) as Record<string, unknown>
const policyOf = (terms: string[]) => parsePolicy(JSON.stringify({ ...raw, sensitive_terms: terms }), 'own.json')
const sensitive = (text: string, terms: string[]) => isSensitive({ question: text, key: 'q-x' }, policyOf(terms))

const latinWord = fc.array(fc.constantFrom(...'abcdeknoprstuyzéAKSY'), { minLength: 1, maxLength: 6 }).map((l) => l.join(''))
const term = fc.oneof(
  latinWord,
  fc.tuple(latinWord, latinWord).map(([a, b]) => `${a} ${b}`),
  latinWord.map((w) => `.${w}`),
  fc.constantFrom('ключ', 'пароль', 'secret', 'privacy policy', 'vulnerability'),
)
/** What stands around a word in English text. */
const before = fc.constantFrom('', ' ', '(', '"', '“', '-', '/', '\n', ': ')
const after = fc.constantFrom('', ' ', ')', '"', '”', '?', '.', ',', 's', "'s", '\n')

describe("a policy's sensitive terms, for any term", () => {
  it('are found in English text, in any case', () => {
    fc.assert(
      fc.property(term, before, after, fc.boolean(), (t, b, a, upper) => {
        const written = upper ? t.toLocaleUpperCase('en') : t
        expect(sensitive(`Should we change${b === '' ? ' ' : ` ${b}`}${written}${a} now?`, [t])).toBe(true)
        expect(sensitive(`${b}${written}${a}`, [t])).toBe(true)
      }),
      { numRuns: 100 },
    )
  })

  it('are not found inside a longer Latin word, only at its start', () => {
    fc.assert(
      fc.property(latinWord, latinWord, fc.constantFrom('', 's', 'ing', 'x'), (t, prefix, suffix) => {
        const word = `${prefix}${t}${suffix}`
        const lower = word.toLocaleLowerCase('en')
        const stem = /[b-df-hj-np-tv-z]y$/i.test(t) ? t.slice(0, -1).toLocaleLowerCase('en') : undefined
        const atStart = lower.startsWith(t.toLocaleLowerCase('en')) || (stem !== undefined && lower.startsWith(`${stem}ies`))
        expect(sensitive(`(${word})?`, [t])).toBe(atStart)
      }),
      { numRuns: 100 },
    )
    expect(sensitive('Keep the nonsecret as is?', ['secret'])).toBe(false)
  })
})
