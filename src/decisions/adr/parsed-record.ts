import type { DecisionStatus, EnforceLevel, EvidenceInput } from '../decision'

export const ADR_FORMATS = ['adr-tools', 'madr', 'log4brains', 'decisions-md'] as const
export type AdrFormat = (typeof ADR_FORMATS)[number]

/** A file of decision records as read from disk: its path (as reported) and its text. */
export interface RecordFile {
  /** The path reported to the user and kept as the record's source, relative to the folder. */
  path: string
  /** The file name. */
  name: string
  text: string
}

/** Something that could not be read, at a path and a line; the import goes on without it. */
export interface ImportProblem {
  path: string
  line: number
  message: string
}

/** A "Superseded by" or "Supersedes" as written: a file name or a key, and where it was written. */
export interface LinkRef {
  target: string
  line: number
}

/** One decision read from a file, before its links are resolved to keys. */
export interface ParsedRecord {
  key: string
  title: string
  decision: string
  rationale: string
  status: DecisionStatus
  /** Null when the record says none (MADR makes every field of its front matter optional). */
  date: string | null
  enforce: EnforceLevel
  supersedes: LinkRef | null
  supersededBy: LinkRef | null
  origin: { path: string; line: number; format: AdrFormat }
  evidence: EvidenceInput[]
}

/** A record (or a section of a log) that cannot be read; `line` says where it went wrong. */
export class UnreadableRecord extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message)
    this.name = 'UnreadableRecord'
  }
}

/** What reading one file gave: its records, and the problems of the parts it could not read. */
export interface FileReading {
  records: ParsedRecord[]
  problems: ImportProblem[]
}

/** An enforce level as written (`required`, `advisory`), or a problem at its line. */
export function readEnforce(field: { value: string; line: number } | undefined): EnforceLevel {
  if (field === undefined) return 'advisory'
  const value = field.value.replace(/[*_`]/g, '').trim().toLowerCase()
  if (value === 'required' || value === 'advisory') return value
  throw new UnreadableRecord(field.line, `enforce "${field.value}" is neither required nor advisory`)
}
