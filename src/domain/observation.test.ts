import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IDENTIFIER_PATTERN, IdentifierSchema, LabelSchema, NOT_BLANK_PATTERN, shownName, TRIMMED_IDENTIFIER_PATTERN, TrimmedIdentifierSchema } from './observation'

// The published patterns are read with and without JavaScript's u flag (AJV sets it, Swagger UI does not).
const FLAGS = ['', 'u']

describe('the patterns the JSON Schemas publish', () => {
  it('NOT_BLANK_PATTERN: a text matches it exactly when trim leaves something, for every UTF-16 unit', () => {
    for (const flags of FLAGS) {
      const re = new RegExp(NOT_BLANK_PATTERN, flags)
      for (let unit = 0; unit <= 0xffff; unit++) {
        const text = String.fromCharCode(unit)
        if (re.test(text) !== (text.trim() !== '')) expect.fail(`U+${unit.toString(16).padStart(4, '0')} /${flags}`)
      }
      // And so does a label: white space alone is refused, white space around a word is not.
      for (const label of [' ', '\u3000\t', '\ufeff', ' pg ', '\u00a0x']) {
        expect(re.test(label), JSON.stringify(label)).toBe(LabelSchema.safeParse(label).success)
      }
    }
  })

  it('IDENTIFIER_PATTERN: a name of a valid length and no lone surrogate matches it exactly when the service takes it', () => {
    const unit = fc.constantFrom('.', '!', 'a', ' ', 'é', '\u0000', '\u001f', '\u0085', '\u00a0', '😀')
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 6 }), (name) => {
        for (const flags of FLAGS) expect(new RegExp(IDENTIFIER_PATTERN, flags).test(name), `${JSON.stringify(name)} /${flags}`).toBe(IdentifierSchema.safeParse(name).success)
      }),
      { numRuns: 2000 },
    )
    for (const name of ['.', '..', '!', '!a', '.a', '..a', '...', '.!', 'a.', 'a..']) {
      for (const flags of FLAGS) expect(new RegExp(IDENTIFIER_PATTERN, flags).test(name), `${name} /${flags}`).toBe(IdentifierSchema.safeParse(name).success)
    }
  })
})

describe('a name with an invisible character at its ends, which trim() leaves', () => {
  const message = (name: string) => {
    const parsed = TrimmedIdentifierSchema.safeParse(name)
    return parsed.success ? undefined : parsed.error.issues.map((i) => i.message).join('; ')
  }

  it('is refused where a name is written, said as a spaced one is, the character escaped: it looks like another name', () => {
    expect(message('alice\u200b')).toBe('no invisible characters at its ends: "alice\\u200b" would be another name than "alice"')
    expect(message('\u2060alice')).toBe('no invisible characters at its ends: "\\u2060alice" would be another name than "alice"')
    expect(message('\u180ealice')).toBe('no invisible characters at its ends: "\\u180ealice" would be another name than "alice"')
    expect(message('alice \u200d')).toBe('no spaces or invisible characters at its ends: "alice \\u200d" would be another name than "alice"')
    // U+FEFF is one trim() takes off, refused before: invisible too, and shown so.
    expect(message('\ufeffalice')).toBe('no invisible characters at its ends: "\\ufeffalice" would be another name than "alice"')
    expect(message('\u200b\u2060')).toBe('must not be empty or invisible characters alone: "\\u200b\\u2060"')
    for (const name of ['alice\u00ad', '\u200ealice', 'alice\u200f', '\u202aalice', 'alice\u2066', '\u3164', 'alice\uffa0', '\u034falice', 'alice\u061c']) {
      expect(message(name), JSON.stringify(name)).toMatch(/invisible characters/)
    }
  })

  it('is taken within a name, and at an end where it ends an emoji: a joiner inside, a variation selector, a tag', () => {
    for (const name of ['👩\u200d💻', 'dev 👩\u200d💻', 'a\u200bb', '❤\ufe0f', 'team ❤\ufe0f', '🏴\udb40\udc67\udb40\udc62\udb40\udc65\udb40\udc6e\udb40\udc67\udb40\udc7f', '葛\udb40\udd00']) {
      expect(TrimmedIdentifierSchema.safeParse(name).success, JSON.stringify(name)).toBe(true)
      expect(shownName(name)).toBe(name)
    }
  })

  it('is quoted where a name is shown, the character at its end escaped, and one within left as it is', () => {
    expect(shownName('alice\u200b')).toBe('"alice\\u200b"')
    expect(shownName(' 👩\u200d💻\u2060')).toBe('" 👩\u200d💻\\u2060"')
  })

  it('TRIMMED_IDENTIFIER_PATTERN: a name of a valid length and no lone surrogate matches it exactly when the service takes it', () => {
    const unit = fc.constantFrom('.', '!', 'a', ' ', '\u0000', '\u00a0', '\ufeff', '\u200b', '\u200d', '\u2060', '\u180e', '\u202e', '\ufe0f', '😀')
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 6 }), (name) => {
        for (const flags of FLAGS) {
          expect(new RegExp(TRIMMED_IDENTIFIER_PATTERN, flags).test(name), `${JSON.stringify(name)} /${flags}`).toBe(TrimmedIdentifierSchema.safeParse(name).success)
        }
      }),
      { numRuns: 3000 },
    )
  })
})
