import { describe, expect, it } from 'vitest'
import { jsonFieldLines } from './json-field-lines'

describe('the lines of a JSON text\'s fields', () => {
  it('names each field and list entry by its path, at the line its key or entry starts on', () => {
    const text = '{\n  "ask": { "auto_resolve_p": 0.8 },\n  "points": [\n    {\n      "key": "db",\n      "match": { "question": "a, b\\" [x]" }\n    },\n    { "key": "t" }\n  ]\n}\n'
    const lines = jsonFieldLines(text)
    expect(lines.get('ask')).toBe(2)
    expect(lines.get('ask.auto_resolve_p')).toBe(2)
    expect(lines.get('points')).toBe(3)
    expect(lines.get('points.0')).toBe(4)
    expect(lines.get('points.0.match.question')).toBe(6)
    expect(lines.get('points.1')).toBe(8)
    expect(lines.get('points.1.key')).toBe(8)
    expect(lines.has('points.2')).toBe(false)
  })
})
