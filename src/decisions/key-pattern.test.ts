import { describe, expect, it } from 'vitest'
import { KEY_PATTERN, keyPatternWithout, RESERVED_KEYS } from './key-pattern'

describe('keyPatternWithout', () => {
  const pattern = keyPatternWithout(RESERVED_KEYS)
  const re = new RegExp(pattern, 'u')

  it('refuses the reserved words in any case, and nothing KEY_PATTERN takes besides', () => {
    for (const word of RESERVED_KEYS) {
      expect(re.test(word), word).toBe(false)
      expect(re.test(word.toUpperCase()), word).toBe(false)
      expect(re.test(word[0]?.toUpperCase() + word.slice(1)), word).toBe(false)
    }
    const taken = ['D-001', 'a', 'ADR-0005', 'checks', 'chec', 'checkx', 'xcheck', 'c-eck', 'pulse', 'pulsesx', 'impor', 'imports', 'applicabl', 'applicables', 'Applicab1e', '0heck', 'che.k', 'x'.repeat(120), 'applicablex'.repeat(3)]
    for (const key of taken) expect(re.test(key), key).toBe(true)
    for (const key of ['', '-a', '.a', 'a b', 'a/b', 'é', 'check\n']) expect(re.test(key), JSON.stringify(key)).toBe(false)
  })

  it('agrees with KEY_PATTERN and the words on every string one edit from a word (a character changed, added or dropped)', () => {
    const near = new Set<string>()
    for (const word of RESERVED_KEYS) {
      for (let i = 0; i <= word.length; i++) {
        for (const c of ['x', 'X', '0', '-', '.', '_', ' ', (word[i] ?? 'a').toUpperCase(), word[i + 1] ?? 'z']) {
          near.add(word.slice(0, i) + c + word.slice(i + 1))
          near.add(word.slice(0, i) + c + word.slice(i))
        }
        near.add(word.slice(0, i) + word.slice(i + 1))
        near.add(word.slice(0, i))
      }
    }
    for (const s of near) {
      const expected = KEY_PATTERN.test(s) && !(RESERVED_KEYS as readonly string[]).includes(s.toLowerCase())
      expect(re.test(s), JSON.stringify(s)).toBe(expected)
    }
  })

  it('uses no lookaround', () => {
    expect(pattern).not.toMatch(/\(\?[=!<]/)
  })
})
