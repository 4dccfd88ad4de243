import type { Observation } from './observation'

/**
 * How many answers in a row at a point this service gave itself (auto-resolved, R-ASK-4) since
 * the user last answered there. Auto-resolved answers teach nothing, so a preference that changed
 * after the last real answer would never be seen; a check-in after `ask.check_in_after` of them
 * asks the user again.
 */
export function autoResolvedSinceLastAnswer(observations: readonly Observation[]): number {
  let lastAnswer = ''
  for (const o of observations)
    if (o.source === 'user' && o.timestamp > lastAnswer) lastAnswer = o.timestamp
  let count = 0
  for (const o of observations)
    if (o.source === 'auto-resolved' && o.timestamp > lastAnswer) count++
  return count
}
