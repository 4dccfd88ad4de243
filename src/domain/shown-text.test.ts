import { describe, expect, it } from 'vitest'
import { shownText } from './shown-text'

describe('shownText', () => {
  it('writes controls, bidirectional controls and lone surrogates as escapes, and keeps pairs, tabs, line feeds and other scripts', () => {
    expect(shownText('a\u0000b\u001b[2J\u007f\u009b\u202e\u2066')).toBe('a\\u0000b\\u001b[2J\\u007f\\u009b\\u202e\\u2066')
    expect(shownText('x\ud800y\udc00z\udbff')).toBe('x\\ud800y\\udc00z\\udbff')
    expect(shownText('😀 計画 שלום é\te\u0301\n')).toBe('😀 計画 שלום é\te\u0301\n')
  })

  it('writes the direction marks and the line and paragraph separators as escapes: a quoted value holding one looked like another, or broke the line', () => {
    expect(shownText('alice\u200f')).toBe('alice\\u200f')
    expect(shownText('\u200eabc\u061cשלום')).toBe('\\u200eabc\\u061cשלום')
    expect(shownText('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c')
  })
})
