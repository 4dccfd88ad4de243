import { describe, expect, it } from 'vitest'
import { emptyCell, type Cell } from '../domain/aggregate'
import { createHotPoints } from './hot-points'

function cells(...keys: string[]): Map<string, Cell> {
  return new Map(keys.map((k) => [k, emptyCell()]))
}

describe('hot points', () => {
  it('keeps what a read found, and drops a point before a write to it', () => {
    const hot = createHotPoints<string>(100)
    hot.keep('a', hot.writes, 'head', cells('x', 'y'))
    const entry = hot.get('a')
    expect(entry?.head).toBe('head')
    expect([...(entry?.cells.keys() ?? [])]).toEqual(['x', 'y'])
    hot.writing('a')
    expect(hot.get('a')).toBeUndefined()
    expect(entry !== undefined && hot.holds('a', entry)).toBe(false)
  })

  it('keeps nothing of a point while a write to it is in flight, even from a read that began after it', () => {
    const hot = createHotPoints<string>(100)
    hot.writing('a')
    hot.keep('a', hot.writes, 'before it landed', cells('x'))
    expect(hot.get('a')).toBeUndefined()
    hot.written('a')
    hot.keep('a', hot.writes, 'after', cells('x'))
    expect(hot.get('a')?.head).toBe('after')
  })

  it('keeps nothing from a read that a write raced, even a write to another point', () => {
    const hot = createHotPoints<string>(100)
    const before = hot.writes
    hot.writing('b')
    hot.written('b')
    hot.keep('a', before, 'stale', cells('x'))
    expect(hot.get('a')).toBeUndefined()
  })

  it('grows an entry only while it holds, and forgets by prefix', () => {
    const hot = createHotPoints<string>(100)
    hot.keep('u1\0a', hot.writes, 'h', cells('x'))
    const entry = hot.get('u1\0a')
    if (entry === undefined) throw new Error('kept')
    hot.grow('u1\0a', entry, cells('y'))
    expect([...entry.cells.keys()]).toEqual(['x', 'y'])
    hot.keep('u2\0a', hot.writes, 'h', cells('x'))
    hot.writingPrefix('u1\0')
    hot.grow('u1\0a', entry, cells('z'))
    expect(hot.get('u1\0a')).toBeUndefined()
    expect(hot.get('u2\0a')).toBeDefined()
    // Nothing of the prefix is kept until its write is done.
    hot.keep('u1\0b', hot.writes, 'h', cells('x'))
    expect(hot.get('u1\0b')).toBeUndefined()
    hot.writtenPrefix('u1\0')
    hot.keep('u1\0b', hot.writes, 'h', cells('x'))
    expect(hot.get('u1\0b')).toBeDefined()
  })

  it('holds at most its limit of cells, the least recently read out first', () => {
    const hot = createHotPoints<string>(4)
    hot.keep('a', hot.writes, 'h', cells('1', '2'))
    hot.keep('b', hot.writes, 'h', cells('1', '2'))
    hot.get('a')
    hot.keep('c', hot.writes, 'h', cells('1', '2'))
    expect(hot.get('b')).toBeUndefined()
    expect(hot.get('a')).toBeDefined()
    expect(hot.get('c')).toBeDefined()
  })
})
