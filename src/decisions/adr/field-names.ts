import { fieldOf, type Line } from './markdown'

/**
 * The names that records written in Spanish, Portuguese, French, German or Italian give what an
 * English record calls its status, date, decision, context and rationale: their logs are written
 * from adr-tools' and MADR's templates translated (`## Estado`, `- Estado: aceptado`,
 * `- Fecha: …`, `## Statut`, `## Entscheidung`). Field names are read in any case.
 */
export const STATUS_NAME = String.raw`(?:status|estado|statut|stato)`

/** A field or section that holds the status: `Status`, `Estado`, `Statut`, `Stato`. */
export const STATUS_FIELD = new RegExp(String.raw`^${STATUS_NAME}$`, 'i')

/** The decision's section as the templates translated name it: `Decisión`, `Decisão`, `Décision`, `Entscheidung`, `Decisione`. */
export const TRANSLATED_DECISION = /^(?:decisi[oó]n|decis[aã]o|d[eé]cision|entscheidung|decisione)$/i

/** The context's section so named: `Contexto`, `Contexte`, `Kontext`, `Contesto`. */
export const TRANSLATED_CONTEXT = /^(?:contexto|contexte|kontext|contesto)$/i

/** The section that says why so named: `Justificación`, `Justificativa`, `Justification`, `Begründung`, `Motivazione`. */
export const TRANSLATED_RATIONALE = /^(?:justificaci[oó]n|justificativa|justification|begr[uü]ndung|motivazione)$/i

/** A section of the decision: adr-tools' `Decision` (Gareth Morgan's `Decided Approach`, the Alexandrian `Solution`), or translated. */
export const DECISION_SECTION = new RegExp(`^(?:decision|decided approach|solution)$|${TRANSLATED_DECISION.source}`, 'i')

/** A section of the context: `Context`, or translated. */
export const CONTEXT_SECTION = new RegExp(`^context$|${TRANSLATED_CONTEXT.source}`, 'i')

/** A section that says why: `Rationale` (Tyree and Akerman's `Argument`), or translated. */
export const RATIONALE_SECTION = new RegExp(`^(?:rationale|argument)$|${TRANSLATED_RATIONALE.source}`, 'i')

/**
 * A record's date fields, in the order they date it: its `Date:` field, its `Decision date:`, and
 * one named as another language names it (`Fecha:`; `Datum:` or `Data:` where none of those is
 * written): the English name first, so that an English record's `Data:` beside its `Date:` is not
 * taken for its date; and `Data:` or `Datum:` only where it holds a date, a year at least (`Data:
 * 2024-01-04`, `Datum: 05.01.2024`), those being English words too (`Data: customer records`,
 * `Datum: WGS84`), which were said as dates that could not be read. Each is read in turn until one
 * writes a day (readDateFields): a `Date: TBD` before `Decision date: 2024-03-01` left the record
 * undated, the first field found taken as the only one.
 */
export function dateFieldsOf(lines: readonly Line[]): Array<{ value: string; line: number }> {
  const named = [fieldOf(lines, /^date$/i), fieldOf(lines, DECISION_DATE_FIELD), fieldOf(lines, /^fecha$/i)].filter((f) => f !== undefined)
  if (named.length > 0) return named
  const word = fieldOf(lines, /^(?:datum|data)$/i)
  return word !== undefined && HOLDS_A_DATE.test(word.value) ? [word] : []
}

/**
 * A `Decision date:` field (`- **Decision date:** 2026-09-30`), as many records name the day they
 * were decided beside others (`Creation Date`, `Documented`): read after a `Date:` field, it was
 * passed over unsaid, and the record dated the day of its first import.
 */
export const DECISION_DATE_FIELD = /^decision[- ]date$/i

/** A value that holds a date as records write one: a year, or a day written with its parts (`05.01.2024`, `12/02/16`). */
const HOLDS_A_DATE = /\b(?:1[89]|2\d)\d{2}\b|^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}(?!\d)/

/** A `## Date` section, else one named `Fecha` or `Datum` (not `Data`, which an English record may hold). */
export const DATE_SECTIONS = [/^date$/i, /^(?:fecha|datum)$/i]
