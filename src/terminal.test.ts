import { describe, expect, it } from 'vitest'
import { jsonLine, printable, printableLine, terminalSafeJson } from './terminal'
import { shownText } from './domain/shown-text'

describe('jsonLine', () => {
  it('writes DEL and the C1 controls as \\u escapes, which JSON.stringify leaves raw, and parses to the same value', () => {
    const value = { label: 'a\u009b31mX\u0085\u007f', [`k\u0090`]: ['\u001b', 'é ok'] }
    const line = jsonLine(value)
    expect(line).toBe('{"label":"a\\u009b31mX\\u0085\\u007f","k\\u0090":["\\u001b","é ok"]}\n')
    expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    expect(JSON.parse(line)).toEqual(value)
  })

  it('leaves JSON text without them as JSON.stringify wrote it', () => {
    const text = JSON.stringify({ a: 'tab\there', b: 'ü ¡ \u00a0' })
    expect(terminalSafeJson(text)).toBe(text)
  })
})

describe('printable', () => {
  it('shows C0 (but tab and line feed), DEL and C1 visibly', () => {
    expect(printable('a\u001b[2J\tb\n\u009b\u007f')).toBe('a\\u001b[2J\tb\n\\u009b\\u007f')
  })

  it('shows the bidirectional controls visibly, which would reorder the line as shown, and leaves right-to-left text alone', () => {
    expect(printable('Tier \u202eL reiT\u202c \u2067x\u2069')).toBe('Tier \\u202eL reiT\\u202c \\u2067x\\u2069')
    expect(printable('שלום مرحبا')).toBe('שלום مرحبا')
  })
})

describe('printableLine', () => {
  it('shows a line feed and a tab as a quoted name does, and the other controls as printable does', () => {
    expect(printableLine('a\nb\tc\u001b[2J\u202e')).toBe('a\\nb\\tc\\u001b[2J\\u202e')
  })

  it('shows the line and paragraph separators as shownText does, at which a log viewer or an editor breaks the line', () => {
    // Left as themselves, `--user a\u2028b` broke the one line of its usage error in two there.
    expect(printableLine('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c')
    expect(printableLine('a\u2028b')).toBe(shownText('a\u2028b'))
  })
})
