import { describe, expect, it } from 'vitest'
import { emptyCell, type Cell } from '../domain/aggregate'
import { createHotPoints } from './hot-points'

function cells(...keys: string[]): Map<string, Cell> {
  return new Map(keys.map((k) => [k, emptyCell()]))
}

/** The same cells as the store would hold them: 10 bytes each. */
function texts(...keys: string[]): Map<string, string | null> {
  return new Map(keys.map((k) => [k, `${k}`.padEnd(10, '.')]))
}

/** At most `cells` decoded cells, and bytes enough for everything the test keeps. */
function limits(cells: number, bytes = 1e6) {
  return { cells, bytes, entryBytes: 100, cellBytes: 0 }
}

describe('hot points', () => {
  it('keeps what a read found, and drops a point before a write to it', () => {
    const hot = createHotPoints<string>(limits(100))
    hot.keep('a', hot.writes, 'head', cells('x', 'y'), texts('x', 'y'))
    const entry = hot.get('a')
    expect(entry?.head).toBe('head')
    expect([...(entry?.cells.keys() ?? [])]).toEqual(['x', 'y'])
    hot.writing('a')
    expect(hot.get('a')).toBeUndefined()
    expect(entry !== undefined && hot.holds('a', entry)).toBe(false)
  })

  it('keeps nothing of a point while a write to it is in flight, even from a read that began after it', () => {
    const hot = createHotPoints<string>(limits(100))
    hot.writing('a')
    hot.keep('a', hot.writes, 'before it landed', cells('x'), texts('x'))
    expect(hot.get('a')).toBeUndefined()
    hot.written('a')
    hot.keep('a', hot.writes, 'after', cells('x'), texts('x'))
    expect(hot.get('a')?.head).toBe('after')
  })

  it('keeps nothing from a read that a write raced, even a write to another point', () => {
    const hot = createHotPoints<string>(limits(100))
    const before = hot.writes
    hot.writing('b')
    hot.written('b')
    hot.keep('a', before, 'stale', cells('x'), texts('x'))
    expect(hot.get('a')).toBeUndefined()
  })

  it('grows an entry only while it holds, and forgets by prefix', () => {
    const hot = createHotPoints<string>(limits(100))
    hot.keep('u1\0a', hot.writes, 'h', cells('x'), texts('x'))
    const entry = hot.get('u1\0a')
    if (entry === undefined) throw new Error('kept')
    hot.grow('u1\0a', entry, cells('y'), texts('y'))
    expect([...entry.cells.keys()]).toEqual(['x', 'y'])
    hot.keep('u2\0a', hot.writes, 'h', cells('x'), texts('x'))
    hot.writingPrefix('u1\0')
    hot.grow('u1\0a', entry, cells('z'), texts('z'))
    expect(hot.get('u1\0a')).toBeUndefined()
    expect(hot.get('u2\0a')).toBeDefined()
    // Nothing of the prefix is kept until its write is done.
    hot.keep('u1\0b', hot.writes, 'h', cells('x'), texts('x'))
    expect(hot.get('u1\0b')).toBeUndefined()
    hot.writtenPrefix('u1\0')
    hot.keep('u1\0b', hot.writes, 'h', cells('x'), texts('x'))
    expect(hot.get('u1\0b')).toBeDefined()
  })

  it('holds at most its limit of decoded cells, then of bytes, the least recently read out first', () => {
    // Each entry is charged 100 bytes and 20 for its two cells: three fit.
    const hot = createHotPoints<string>(limits(4, 360))
    hot.keep('a', hot.writes, 'h', cells('1', '2'), texts('1', '2'))
    hot.keep('b', hot.writes, 'h', cells('1', '2'), texts('1', '2'))
    hot.get('a')
    hot.keep('c', hot.writes, 'h', cells('1', '2'), texts('1', '2'))
    // b's decoded cells went first; b is still held, its cells as the store holds them.
    expect(hot.held).toEqual({ points: 3, cells: 4, bytes: 360 })
    const b = hot.get('b')
    expect(b?.cells.size).toBe(0)
    expect([...(b?.texts ?? [])]).toEqual([...texts('1', '2')])
    // A fourth entry is over the bytes: a, read least recently, goes.
    hot.keep('d', hot.writes, 'h', cells('1', '2'), texts('1', '2'))
    expect(hot.get('a')).toBeUndefined()
    for (const pk of ['b', 'c', 'd']) expect(hot.get(pk)).toBeDefined()
    expect(hot.held).toEqual({ points: 3, cells: 4, bytes: 360 })
    // Read again, b's cells are decoded again and push out those of c, read least recently of the decoded.
    if (b !== undefined) hot.grow('b', b, cells('1', '2'), new Map())
    expect(hot.get('c')?.cells.size).toBe(0)
    expect(hot.get('d')?.cells.size).toBe(2)
    expect(hot.held).toEqual({ points: 3, cells: 4, bytes: 360 })
  })
})
