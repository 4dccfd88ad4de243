import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DECISION_ID_PATTERN, DECISION_ID_START_PATTERN, DecisionIdSchema, IDENTIFIER_PATTERN, IdentifierSchema, LabelSchema, NOT_BLANK_PATTERN, shownName, TRIMMED_IDENTIFIER_PATTERN, TrimmedIdentifierSchema } from './observation'

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

  it('is every Default_Ignorable_Code_Point that ends no emoji, and a variation selector or tag character at the start, where nothing is before it', () => {
    // Each was taken: `alice\u1160` was stored as another user than alice, `\ufe0f` alone as a name that shows nothing.
    const ends = ['\u115f', '\u1160', '\u17b4', '\u17b5', '\ufff0', '\ufff8', '\u{1bca0}', '\u{1bca3}', '\u{1d173}', '\u{1d17a}', '\u{e0000}', '\u{e0001}', '\u{e01f0}', '\u{e0fff}']
    for (const c of ends) {
      for (const name of [`alice${c}`, `${c}alice`]) expect(message(name), JSON.stringify(name)).toMatch(/^no invisible characters at its ends: /)
      expect(message(c), JSON.stringify(c)).toMatch(/^must not be empty or invisible characters alone: /)
    }
    for (const c of ['\ufe00', '\ufe0f', '\u180b', '\u180f', '\u{e0020}', '\u{e007f}', '\u{e0100}', '\u{e01ef}']) {
      expect(message(`${c}alice`), JSON.stringify(c)).toMatch(/^no invisible characters at its ends: /)
      expect(message(c), JSON.stringify(c)).toMatch(/^must not be empty or invisible characters alone: /)
    }
    // A variation selector or tag ending a name modifies what is before it: after a space or an invisible character, nothing that shows.
    expect(message('alice \ufe0f')).toBe('no spaces or invisible characters at its ends: "alice \\ufe0f" would be another name than "alice"')
    for (const name of ['alice\u200b\ufe0f', 'alice \u{e007f}', 'alice\u00a0\u{e0100}', '. \ufe0f']) expect(message(name), JSON.stringify(name)).toMatch(/invisible characters at its ends: /)
    for (const name of ['.\ufe0f', '..\ufe0f', 'x\ufe0f\ufe0f']) expect(message(name), JSON.stringify(name)).toBeUndefined()
    // One beyond U+FFFF is escaped as JSON writes it, by its two code units.
    expect(message('alice\u{1d173}')).toBe('no invisible characters at its ends: "alice\\ud834\\udd73" would be another name than "alice"')
    expect(shownName('\ufe0falice')).toBe('"\\ufe0falice"')
  })

  it('TRIMMED_IDENTIFIER_PATTERN says the rule of every UTF-16 unit at a start, at an end and alone, as the service applies it', () => {
    for (const flags of FLAGS) {
      const re = new RegExp(TRIMMED_IDENTIFIER_PATTERN, flags)
      for (let unit = 0; unit <= 0xffff; unit++) {
        if (unit >= 0xd800 && unit <= 0xdfff) continue
        const c = String.fromCharCode(unit)
        for (const name of [`a${c}`, `${c}a`, c, `a${c}\ufe0f`]) {
          if (re.test(name) !== TrimmedIdentifierSchema.safeParse(name).success) expect.fail(`${JSON.stringify(name)} /${flags}: the pattern and the service differ`)
        }
      }
    }
  })

  it('is taken within a name, and at an end where it ends an emoji: a joiner inside, a variation selector, a tag', () => {
    for (const name of ['👩\u200d💻', '👨\u200d👩\u200d👧\u200d👦', '🏳\ufe0f\u200d🌈', '👍🏽', '1\ufe0f\u20e3', '\u1820\u180b', 'dev 👩\u200d💻', 'a\u200bb', '❤\ufe0f', 'team ❤\ufe0f', '🏴\udb40\udc67\udb40\udc62\udb40\udc65\udb40\udc6e\udb40\udc67\udb40\udc7f', '葛\udb40\udd00']) {
      expect(TrimmedIdentifierSchema.safeParse(name).success, JSON.stringify(name)).toBe(true)
      expect(shownName(name)).toBe(name)
    }
  })

  it('is quoted where a name is shown, the character at its end escaped, and one within left as it is', () => {
    expect(shownName('alice\u200b')).toBe('"alice\\u200b"')
    expect(shownName(' 👩\u200d💻\u2060')).toBe('" 👩\u200d💻\\u2060"')
  })

  it('TRIMMED_IDENTIFIER_PATTERN: a name of a valid length and no lone surrogate matches it exactly when the service takes it', () => {
    const unit = fc.constantFrom('.', '!', 'a', ' ', '\u0000', '\u00a0', '\ufeff', '\u200b', '\u200d', '\u2060', '\u180e', '\u202e', '\ufe0f', '\u180b', '\u1160', '\u17b4', '\ufff0', '😀')
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

describe('a decision_id with white space or an invisible character at its ends', () => {
  it('is refused, as a name is: `d-1\\u200b` sent again after `d-1` was another key, the answer counted twice', () => {
    for (const id of ['d-1\u200b', '\u2060d-1', 'd-1\u200e', '\ufe0fd-1', 'd-1 \ufe0f', '\u200b', 'd-1\u{1d173}']) {
      expect(DecisionIdSchema.safeParse(id).success, JSON.stringify(id)).toBe(false)
    }
    // What a decision_id may hold that a name may not: control characters, a leading `!`, a dot alone.
    for (const id of ['d-1', 'd\u200b1', '❤\ufe0f', 'd\u00001', '!d', '.', 'toolu_01#0123456789abcdef']) {
      expect(DecisionIdSchema.safeParse(id).success, JSON.stringify(id)).toBe(true)
    }
  })

  it('an empty one is told once that it is empty, as an empty name is, not also that it is white space alone', () => {
    const refused = DecisionIdSchema.safeParse('')
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([IdentifierSchema.safeParse('').error?.issues[0]?.message])
    expect(DecisionIdSchema.safeParse(' \u3000').error?.issues.map((issue) => issue.message)).toEqual(['must not be empty or white space alone'])
  })

  it('DECISION_ID_PATTERN says the rule of every UTF-16 unit at a start, at an end and alone, as the service applies it', () => {
    for (const flags of FLAGS) {
      const re = new RegExp(DECISION_ID_PATTERN, flags)
      for (let unit = 0; unit <= 0xffff; unit++) {
        if (unit >= 0xd800 && unit <= 0xdfff) continue
        const c = String.fromCharCode(unit)
        for (const id of [`a${c}`, `${c}a`, c, `a${c}\ufe0f`]) {
          if (re.test(id) !== DecisionIdSchema.safeParse(id).success) expect.fail(`${JSON.stringify(id)} /${flags}: the pattern and the service differ`)
        }
      }
    }
  })

  it('DECISION_ID_START_PATTERN takes exactly the starts of the decision_ids taken (the hook\'s tool_use_id, `#` and hex digits after it)', () => {
    for (const flags of FLAGS) {
      const re = new RegExp(DECISION_ID_START_PATTERN, flags)
      for (let unit = 0; unit <= 0xffff; unit++) {
        if (unit >= 0xd800 && unit <= 0xdfff) continue
        const c = String.fromCharCode(unit)
        for (const start of [`a${c}`, `${c}a`, c, `a ${c}`]) {
          if (re.test(start) !== DecisionIdSchema.safeParse(`${start}#0123456789abcdef`).success) expect.fail(`${JSON.stringify(start)} /${flags}: the pattern and the service differ`)
        }
      }
    }
  })
})
