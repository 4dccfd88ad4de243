import { parse as parseYaml, YAMLParseError } from 'yaml'
import type { Line } from './markdown'
import { UnreadableRecord } from './parsed-record'
import { shortened } from './quoted-value'

/**
 * The most of a record's front matter read as YAML, in bytes. MADR's and AXME Code's are a few
 * lines (under 300 bytes in their own records), but AXME Code's may hold the decision and its
 * reasoning, each up to 8,000 characters (DECISION_LIMITS.textLength), some 48 KB in a script of
 * three bytes a character: 64 KB reads every record the service could store. `yaml` takes seconds
 * over 100 KB of `]`, `* ` or `:\n` (each error formatted with its context, duplicate keys compared
 * pairwise), and such a file (generated, minified, or a mistake) held up the import of its whole
 * folder; at 64 KB, unformatted, under a second.
 */
export const FRONT_MATTER_LIMIT = 64 * 1024

/** The front matter's text, or, over FRONT_MATTER_LIMIT, an UnreadableRecord at its first line naming the limit. */
export function boundedMatter(matter: readonly Line[]): string {
  const text = matter.map((l) => l.text).join('\n')
  const bytes = Buffer.byteLength(text)
  if (bytes > FRONT_MATTER_LIMIT) {
    throw new UnreadableRecord(1, `the front matter is ${Math.ceil(bytes / 1024)} KB, over the ${FRONT_MATTER_LIMIT / 1024} KB a record's is read to; it is not read`)
  }
  return text
}

/**
 * The front matter parsed as YAML, or why it cannot be (the first line of the first error) and at
 * which of its lines (1-based; 1 where no YAML error says one). Its errors are left unformatted:
 * `prettyErrors` quotes the lines around each, which for thousands of them was most of the time
 * taken; the line is found from the error's offset, as `linePos` says it.
 */
export function parseMatter(text: string): { value: unknown } | { reason: string; line: number } {
  try {
    // `logLevel: 'error'`: a warning (`x: !custom b`, a tag it does not know) is no reason a record
    // cannot be read, and yaml would write it to the process's stderr, among import-adr's problems.
    return { value: parseYaml(text, { prettyErrors: false, logLevel: 'error' }) }
  } catch (error) {
    const line = error instanceof YAMLParseError ? lineAt(text, error.pos[0]) : 1
    return { reason: shortened((error as Error).message.split('\n')[0] ?? ''), line }
  }
}

/** The 1-based line of an offset in a text. */
function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}
