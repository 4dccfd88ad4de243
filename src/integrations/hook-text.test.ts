import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { BIN_PATH, shellWord } from '../config/bin-path'
import { HOOK_TEXT_LIMIT, rationalePart, rationaleQuoted, textPart, withinHookLimit } from './hook-text'

/** The command a hint prints to show a decision whole: this checkout's bin by path, as it runs. */
const WHY = (key: string) => `node ${shellWord(BIN_PATH)} why ${key}`

describe('a hook text within what Claude Code shows whole', () => {
  it('leaves a text that fits as it is', () => {
    const text = 'x'.repeat(HOOK_TEXT_LIMIT)
    expect(withinHookLimit(text, [textPart(text)])).toBe(text)
    expect(rationaleQuoted('D-001', 'Short.')).toBe('Short.')
  })

  it('quotes a long rationale by its start, then the command that prints the whole, as it runs', () => {
    // `decision-memory` is on no PATH (the package is not installed): the command runs this
    // checkout's bin with node, as the hook's command to be asked again does.
    const quoted = rationaleQuoted('D-001', 'why '.repeat(2000))
    expect(quoted).toBe(`${'why '.repeat(125)}… (the whole rationale: ${WHY('D-001')})`)
    // A service elsewhere than the default address is named, so that a new shell finds it.
    expect(rationaleQuoted('D-001', 'why '.repeat(2000), 'DECISION_MEMORY_URL=http://127.0.0.1:7421 ')).toMatch(
      /… \(the whole rationale: DECISION_MEMORY_URL=http:\/\/127\.0\.0\.1:7421 node .+ why D-001\)$/,
    )
  })

  it('cuts the longest parts, each to one length, keeping the beginning and the end whole', () => {
    const question = `Which ${'very '.repeat(1000)}long question?`
    const rationale = 'because '.repeat(1000)
    const text = `decision-memory answered for you: "${question}" = "A" (required by decision D-001: ${rationaleQuoted('D-001', rationale)}). To be asked again in this session: node bin.js toggle --off`
    const fitted = withinHookLimit(`${text} ${text.replace('D-001', 'D-002')}`, [textPart(question), rationalePart('D-001', rationale)], 1000)
    expect(fitted.length).toBeLessThanOrEqual(1000)
    expect(fitted).toMatch(/^decision-memory answered for you: "Which very /)
    expect(fitted).toMatch(/To be asked again in this session: node bin\.js toggle --off$/)
    // The rationale cut still says where the whole is.
    expect(fitted).toContain(`… (the whole rationale: ${WHY('D-001')})`)
    expect(fitted).not.toContain(' […] ')
  })

  it('segments no more of a long text than the limit can reach, cutting it as the whole text segmented would', () => {
    // Each step of the segmenter costs the whole text it was given: the message of 7,000 answers
    // keyed by no question (about 100 KB) took a minute and a half to cut to the limit.
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment')
    try {
      const text = `Blocked: ${'an answer keyed "k" (names no question of the call); '.repeat(4000)}👍🏽 run this last`
      const fitted = withinHookLimit(text)
      expect(fitted.length).toBeLessThanOrEqual(HOOK_TEXT_LIMIT)
      expect(fitted).toMatch(/^Blocked: an answer keyed/)
      expect(fitted).toMatch(/👍🏽 run this last$/)
      expect(Math.max(...segment.mock.calls.map(([t]) => t.length))).toBeLessThanOrEqual(HOOK_TEXT_LIMIT)
    } finally {
      segment.mockRestore()
    }
    // Cut where the whole text segmented is cut: before and after a flag, an emoji sequence, an accent.
    const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' })
    const piece = fc.constantFrom('a', 'é', 'e\u0301', '🇫🇷', '🇩🇪', '👍🏽', '👩‍👩‍👧', '\u0301', '\ud83d', ' ', '🙂', '🇫', '🇫🇷'.repeat(20), 'e' + '\u0301'.repeat(40))
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 400 }), fc.integer({ min: 60, max: 200 }), (pieces, limit) => {
        const text = pieces.join('')
        const fitted = withinHookLimit(text, [], limit)
        if (text.length <= limit) {
          expect(fitted).toBe(text)
          return
        }
        const [head = '', tail = ''] = fitted.split(' […] ')
        const ends = new Set([0, ...[...graphemes.segment(text)].map((g) => g.index + g.segment.length)])
        expect(text.startsWith(head) && ends.has(head.length)).toBe(true)
        expect(text.endsWith(tail) && ends.has(text.length - tail.length)).toBe(true)
      }),
      { numRuns: 500, seed: 7 },
    )
  })

  it('keeps an end starting where the whole text segmented starts a character, past a long run of accents', () => {
    // An emoji, its accents, a joiner and the emoji after are one character; so are consonants
    // joined by viramas: however many accents stand between, more than the tail read before the cut.
    const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' })
    const joined = ['👍' + '\u0301'.repeat(150) + '\u200d❤', '\u0915' + '\u094d'.repeat(150) + '\u0915']
    for (const end of joined) {
      const [head = '', tail = ''] = withinHookLimit(`${'a'.repeat(100)}${end}`, [], 60).split(' […] ')
      expect(head).toBe('a'.repeat(28))
      expect(tail, end).toBe('')
    }
    const piece = fc.oneof(
      fc.constantFrom('a', '🇫', '👍', '❤', '\u200d', '\u0915', '\u094d', '\u0301', '🏽'),
      fc.integer({ min: 60, max: 140 }).chain((n) => fc.constantFrom('\u0301'.repeat(n), '\u094d'.repeat(n), '🇫'.repeat(n))),
    )
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 30 }), fc.integer({ min: 60, max: 300 }), (pieces, limit) => {
        const text = pieces.join('')
        const fitted = withinHookLimit(text, [], limit)
        if (text.length <= limit) return
        const [head = '', tail = ''] = fitted.split(' […] ')
        const starts = [...graphemes.segment(text)].map((g) => g.index)
        const from = text.length - (limit - ' […] '.length - head.length)
        expect(tail).toBe(text.slice(starts.find((at) => at >= from) ?? text.length))
      }),
      { numRuns: 500, seed: 7 },
    )
  })

  it('leaves out the middle when the parts alone cannot make it fit, never within a character', () => {
    const text = `Blocked: ${'🙂'.repeat(10_000)} run this last`
    const fitted = withinHookLimit(text)
    expect(fitted.length).toBeLessThanOrEqual(HOOK_TEXT_LIMIT)
    expect(fitted).toMatch(/^Blocked: 🙂/)
    expect(fitted).toMatch(/🙂 run this last$/)
    expect(fitted).toContain(' […] ')
    expect(fitted).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
  })
})
