import { describe, expect, it } from 'vitest'
import { duplicateJsonKeys } from './json-duplicate-keys'

describe('duplicateJsonKeys', () => {
  it('finds a key given twice in one object, at any depth, by its path', () => {
    expect(duplicateJsonKeys('{"a": 1, "a": 2}')).toEqual([['a']])
    expect(duplicateJsonKeys('{"p": [{"k": 1}, {"m": {"h": "x", "q": "y", "h": "z"}}]}')).toEqual([['p', 1, 'm', 'h']])
    expect(duplicateJsonKeys('{"a": {"b": 1, "b": 2, "b": 3}, "a": {}}')).toEqual([['a', 'b'], ['a']])
  })

  it('reads keys as JSON does: an escape is the character it stands for, and a string value is no key', () => {
    expect(duplicateJsonKeys('{"a": 1, "\\u0061": 2}')).toEqual([['a']])
    expect(duplicateJsonKeys('{"a": "a", "b": ["a", "a"], "c": "x\\" : \\"a"}')).toEqual([])
    expect(duplicateJsonKeys('{"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}')).toEqual([])
    expect(duplicateJsonKeys(' \n{ "a" \t:\r\n 1 ,"a":2}')).toEqual([['a']])
    expect(duplicateJsonKeys('[1, "two", null]')).toEqual([])
  })
})
