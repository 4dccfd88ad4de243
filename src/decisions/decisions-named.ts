/**
 * Decision keys named together as what a sentence says something of, in the order given, joined
 * with ", " as `GET /v1/decisions` and the check's `blocked_by` list them: `decision D-001`, or
 * `decisions D-001, D-002`. The caller's verb agrees with it (agreeing): `decision D-001 is in
 * force`, `decisions D-001, D-002 are in force`.
 */
export function decisionsNamed(keys: readonly string[]): string {
  return `${keys.length > 1 ? 'decisions' : 'decision'} ${keys.join(', ')}`
}

/** A count in words where it is small (`two`, `three`), else in digits. */
export function inWords(n: number): string {
  return ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'][n] ?? String(n)
}

/** The verb as it agrees with `count` decisions named together: `one` of a single decision, else `several`. */
export function agreeing(count: number, one: string, several: string): string {
  return count > 1 ? several : one
}
