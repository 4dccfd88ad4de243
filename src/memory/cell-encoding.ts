import type { StoredCell } from '../domain/aggregate'

/** The evidence of a cell as stored: the moments as packed numbers, the ids in the same order. */
interface PackedEvidence {
  at: string
  ids: string[]
}

/**
 * How core stores a cell: as JSON, except that each decayed sum's tail (88 float64 values at
 * α = 0.5) and the moments of the evidence (up to 100) are the base64 of the values' bytes. Cells
 * are read by every recommendation and written by every observation, and JSON prints and parses
 * decimal numbers several times slower than one string (bench/HISTORY.md); the numbers are the
 * same, bit for bit. A cell stored as plain JSON (by an earlier version) reads as before.
 */
export const cellEncoding = {
  name: 'decision-memory-cell',
  format: 'utf8' as const,
  encode(cell: StoredCell): string {
    return JSON.stringify({
      ...cell,
      tallies: cell.tallies.map(([category, tally]) =>
        tally.weight === undefined || tally.weight.tail.length === 0
          ? [category, tally]
          : [category, { ...tally, weight: { ...tally.weight, tail: pack(tally.weight.tail) } }],
      ),
      ...(cell.evidence === undefined
        ? {}
        : { evidence: { at: pack(cell.evidence.map(([at]) => at)), ids: cell.evidence.map(([, id]) => id) } satisfies PackedEvidence }),
    })
  },
  decode(text: string): StoredCell {
    const cell = JSON.parse(text) as StoredCell
    for (const [, tally] of cell.tallies) {
      const tail: unknown = tally.weight?.tail
      if (tally.weight !== undefined && typeof tail === 'string') tally.weight.tail = unpack(tail)
    }
    const evidence: unknown = cell.evidence
    if (evidence !== undefined && !Array.isArray(evidence)) {
      const { at, ids } = evidence as PackedEvidence
      const moments = unpack(at)
      cell.evidence = ids.map((id, i) => [moments[i] as number, id])
    }
    return cell
  },
}

function pack(values: readonly number[]): string {
  const bytes = Buffer.allocUnsafe(values.length * 8)
  values.forEach((value, i) => bytes.writeDoubleLE(value, i * 8))
  return bytes.toString('base64')
}

function unpack(text: string): number[] {
  const bytes = Buffer.from(text, 'base64')
  const out = new Array<number>(bytes.length / 8)
  for (let i = 0; i < out.length; i++) out[i] = bytes.readDoubleLE(i * 8)
  return out
}
