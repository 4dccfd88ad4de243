import { describe, expect, it } from 'vitest'
import { duplicateJsonKeys } from './json-duplicate-keys'

const paths = (text: string) => duplicateJsonKeys(text).map((d) => d.path)

describe('duplicateJsonKeys', () => {
  it('finds a key given twice in one object, at any depth, by its path', () => {
    expect(paths('{"a": 1, "a": 2}')).toEqual([['a']])
    expect(paths('{"p": [{"k": 1}, {"m": {"h": "x", "q": "y", "h": "z"}}]}')).toEqual([['p', 1, 'm', 'h']])
    expect(paths('{"a": {"b": 1, "b": 2, "b": 3}, "a": {}}')).toEqual([['a', 'b'], ['a']])
  })

  it('reads keys as JSON does: an escape is the character it stands for, and a string value is no key', () => {
    expect(paths('{"a": 1, "\\u0061": 2}')).toEqual([['a']])
    expect(paths('{"a": "a", "b": ["a", "a"], "c": "x\\" : \\"a"}')).toEqual([])
    expect(paths('{"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}')).toEqual([])
    expect(paths(' \n{ "a" \t:\r\n 1 ,"a":2}')).toEqual([['a']])
    expect(paths('[1, "two", null]')).toEqual([])
  })

  it('gives the line a key is first given again on', () => {
    expect(duplicateJsonKeys('{\n  "a": 1,\n  "b": {\n    "c": 1, "c": 2,\n    "c": 3\n  },\n  "a": 2\n}')).toEqual([
      { path: ['b', 'c'], line: 4 },
      { path: ['a'], line: 7 },
    ])
  })
})
