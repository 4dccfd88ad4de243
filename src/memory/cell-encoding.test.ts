import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StoredCell } from '../domain/aggregate'
import { cellEncoding } from './cell-encoding'

const tail = fc.array(fc.double({ noNaN: true }), { minLength: 1, maxLength: 100 })

describe('cell encoding', () => {
  it('gives back every number of a cell bit for bit, tails included', () => {
    fc.assert(
      // Moments outside the tail are ms since epoch, kept as JSON numbers as before.
      fc.property(tail, fc.array(fc.integer({ min: 0, max: 2 ** 45 }), { maxLength: 16 }), (values, newest) => {
        const cell: StoredCell = {
          n: 3,
          tallies: [
            ['["A"]', { n: 2, first: 1, last: 2, weight: { n: 2, newest, ref: 5, tail: values } }],
            ['["B"]', { n: 1, first: 3, last: 3 }],
            ['["__proto__"]', { n: 1, first: 3, last: 3, weight: { n: 1, newest: [3], ref: 0, tail: [] } }],
          ],
          evidence: [[1, 'obs-1'], [-0.5, '__proto__'], [1e300, '']],
        }
        const text = cellEncoding.encode(cell)
        const back = cellEncoding.decode(text)
        expect(back).toEqual(cell)
        back.tallies[0]?.[1].weight?.tail.forEach((v, i) => expect(Object.is(v, values[i])).toBe(true))
      }),
    )
  })

  it('stores a tail and the evidence moments as strings, and reads a cell stored as plain JSON as before', () => {
    const stored: StoredCell = {
      n: 1,
      tallies: [['["A"]', { n: 1, first: 1, last: 1, weight: { n: 20, newest: [1], ref: 1, tail: [0.1, 0.2] } }]],
      evidence: [[1782900000000, 'obs-a']],
    }
    const packed = JSON.parse(cellEncoding.encode(stored))
    expect(packed.tallies[0][1].weight.tail).toBeTypeOf('string')
    expect(packed.evidence).toEqual({ at: expect.any(String), ids: ['obs-a'] })
    expect(cellEncoding.decode(JSON.stringify(stored))).toEqual(stored)
  })
})
