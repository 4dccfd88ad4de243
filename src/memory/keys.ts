import type { Observation } from '../domain/observation'

/**
 * Store keys join their parts with NUL, which no identifier may contain (IdentifierSchema), so
 * that a prefix of parts is a contiguous key range: every key under `a\0b\0` sorts before `a\0b\u0001`.
 */
export const SEPARATOR = '\u0000'

export function key(...parts: string[]): string {
  return parts.join(SEPARATOR)
}

/** The range of every key that starts with the given parts. */
export function prefixRange(...parts: string[]): { gte: string; lt: string } {
  const prefix = parts.join(SEPARATOR) + SEPARATOR
  return { gte: prefix, lt: prefix.slice(0, -1) + '\u0001' }
}

/** An observation's key in archival (`user\0point\0timestamp\0id`): by point, then time, then id. */
export function archivalKey(o: Pick<Observation, 'user' | 'point' | 'timestamp' | 'id'>): string {
  return key(o.user, o.point, o.timestamp, o.id)
}
