import { SEPARATOR } from './keys'

/** One entry of the database as a raw scan sees it: its sublevel, its key parts, its value. */
export interface StoredEntry {
  /** The sublevel path from the root, names joined with `!` (`archival`, `decisions!events`); '' at the root. */
  sublevel: string
  /** The key inside its sublevel, split at the NUL separator. */
  key: string[]
  /** The value: parsed when it is JSON, else the text as stored. */
  value: unknown
}

/**
 * Where the user is in the keys of a sublevel, for sublevels whose keys do not start with it; null
 * for a sublevel that holds nobody's data in its keys. Every other sublevel keys per-user data by
 * the user first (`user\0…`), as `archival`, `dedupe` and `sessions` do. A sublevel keyed another
 * way is registered here, or forget and export find its entries only through the `user` field of
 * their values.
 */
const USER_KEY_PART = new Map<string, number | null>([
  ['session-owners', 1],
  // `timestamp\0user\0point\0id`: recall's expiry index, in time order for the decay scan.
  ['recall-expiry', 1],
  ['maintenance', null],
  // The decisions (R-CON) are nobody's: keyed by decision key or point, so a user named `D-001`
  // or `complexity-tier` would otherwise take them with them when forgotten.
  ['decisions', null],
  ['decision-events', null],
  ['decision-points', null],
  ['decision-pulses', null],
])

// abstract-level writes a sublevel's prefix as `!name!` (nested: `!a!!b!`), names in 0x23–0x7e.
const SUBLEVEL_PREFIX = /^!([\x23-\x7e]+)!/

/** Splits a root key into its sublevel path and its key. Identifiers never start with `!`, so this is unambiguous. */
export function parseRootKey(raw: string): { sublevel: string; key: string } {
  const names: string[] = []
  let rest = raw
  for (let match = SUBLEVEL_PREFIX.exec(rest); match !== null; match = SUBLEVEL_PREFIX.exec(rest)) {
    names.push(match[1] as string)
    rest = rest.slice(match[0].length)
  }
  return { sublevel: names.join('!'), key: rest }
}

/**
 * The root keys of one sublevel, as a range to iterate (parseRootKey's inverse): abstract-level
 * prefixes its keys with `!name!`, and `"` is the character after `!`.
 */
export function sublevelRange(name: string): { gte: string; lt: string } {
  return { gte: `!${name}!`, lt: `!${name}"` }
}

/** A stored value as read: JSON when it parses as an object or array, else its text. */
function parseValue(text: string): unknown {
  if (!text.startsWith('{') && !text.startsWith('[')) return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** Reads one raw entry of the root database. */
export function storedEntry(rawKey: string, rawValue: string): StoredEntry {
  const { sublevel, key } = parseRootKey(rawKey)
  return { sublevel, key: key.split(SEPARATOR), value: parseValue(rawValue) }
}

/**
 * Whether a raw entry is data about the user (R-SVC-5): its key names the user where its sublevel
 * keeps the user, or its value is a record whose `user` is the user. A key part that merely equals
 * the name elsewhere (another user's point or session called `alice`) does not make it alice's.
 */
export function belongsTo(rawKey: string, rawValue: string, user: string): boolean {
  const { sublevel, key } = parseRootKey(rawKey)
  const part = USER_KEY_PART.has(sublevel) ? USER_KEY_PART.get(sublevel) : 0
  if (part !== null && part !== undefined && key.split(SEPARATOR)[part] === user) return true
  // Values are JSON.stringify'd, so one that names the user contains the name in that form:
  // the rest are not parsed at all.
  if (!rawValue.includes(JSON.stringify(user))) return false
  const value = parseValue(rawValue)
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { user?: unknown }).user === user
}
