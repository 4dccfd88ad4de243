/** How the report writes numbers: fixed digits, so that the same run always gives the same text. */

/** A number with `digits` decimals; a dash for no value. */
export function fixed(value: number, digits = 3): string {
  return Number.isNaN(value) ? '—' : value.toFixed(digits)
}

/** A share as a percentage with one decimal. */
export function percent(value: number): string {
  return Number.isNaN(value) ? '—' : `${(value * 100).toFixed(1)}%`
}

/** A difference of shares in percentage points, always signed (+1.2, −0.7). */
export function points(value: number): string {
  if (Number.isNaN(value)) return '—'
  const p = value * 100
  return `${p >= 0 ? '+' : '−'}${Math.abs(p).toFixed(1)}`
}
