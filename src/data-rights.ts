import type { Clock } from './clock'
import { learnedPreferencesByPoint, type PointPreference } from './domain/learned-preferences'
import type { CompiledPolicy } from './domain/policy'
import { checkTimestamp } from './domain/timestamp'
import type { MemoryStore } from './memory/store'

/** The version of the export format; a reader checks it on the first line. */
export const EXPORT_FORMAT = 1

/**
 * One line of an export (NDJSON): a header, then one record per line by type, then a trailer with
 * the count of each type, so that a truncated export shows.
 */
export type ExportLine =
  | { type: 'export'; format: number; user: string; exported_at: string }
  | { type: string; data: unknown }
  | { type: 'end'; counts: Record<string, number> }

/**
 * One export line as text, without its line end. JSON leaves U+0085 (NEL), U+2028 and U+2029 raw
 * in strings, and readers that split a text at every Unicode line break (Python's
 * `str.splitlines()`) cut a line there, so a label holding one made the export unreadable line by
 * line: they are written escaped, the same value to any JSON parser.
 */
export function exportLineText(line: unknown): string {
  return JSON.stringify(line).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A user's rights over their data (R-SVC-5): see it, take it, have it forgotten. */
export interface DataRights {
  /**
   * What has been learned about the user at each decision point; with `as_of` (R-REC-9), as it had
   * been learned then: only the choices dated up to it, aged from it.
   */
  preferences(user: string, options?: { as_of?: string | undefined }): Promise<{ user: string; as_of: string; points: PointPreference[] }>
  /** Everything held about the user, as export lines. */
  exportUser(user: string): AsyncIterable<ExportLine>
  /** Deletes everything held about the user, in every tier and index. */
  forgetUser(user: string): Promise<{ user: string; deleted: number }>
}

/**
 * The sections of an export, in order. A part that keeps more about a user (aggregates, decisions
 * they made) adds its typed section here; until it does, its entries appear in the `entry`
 * section, found by the raw scan that forget deletes by.
 */
function exportSections(store: MemoryStore, user: string): Array<{ type: string; records: AsyncIterable<unknown> }> {
  return [
    { type: 'observation', records: store.observationsOf(user) },
    { type: 'session', records: store.sessionsOf(user) },
    { type: 'aggregate', records: store.aggregatesOf(user) },
    { type: 'entry', records: store.untypedEntriesOf(user) },
  ]
}

export function createDataRights(deps: { store: MemoryStore; policy: CompiledPolicy; clock: Clock }): DataRights {
  const { store, policy, clock } = deps
  return {
    async preferences(user, options = {}) {
      const now = clock.now()
      // Checked as every as_of is: an ISO time, not more than 5 minutes ahead of the clock.
      const asOf = checkTimestamp(options.as_of, now, 'as_of') ?? now
      return { user, as_of: asOf.toISOString(), points: await learnedPreferencesByPoint(store.observationsOf(user), asOf, policy) }
    },

    async *exportUser(user) {
      yield { type: 'export', format: EXPORT_FORMAT, user, exported_at: clock.now().toISOString() }
      const counts: Record<string, number> = {}
      for (const section of exportSections(store, user)) {
        counts[section.type] = 0
        for await (const data of section.records) {
          counts[section.type] = (counts[section.type] ?? 0) + 1
          yield { type: section.type, data }
        }
      }
      yield { type: 'end', counts }
    },

    async forgetUser(user) {
      const { deleted } = await store.forgetUser(user)
      return { user, deleted }
    },
  }
}
