import { isAlias, parseDocument, visit, YAMLParseError, type Document } from 'yaml'
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
 * The front matter parsed as YAML, or why it cannot be (the first line of the first error; whether
 * it is too many aliases, which valid YAML may hold) and at which of its lines (1-based), where
 * YAML says one: its syntax errors give their offset (`linePos` where errors are formatted), and
 * an alias to no anchor (`*nope`) is found by its name. An error
 * found only once the document is read through (too many aliases, `Excessive alias count`) has no
 * line: said at line 1 of the front matter, such an error pointed to a line that holds no fault.
 * Its errors are left unformatted: `prettyErrors` quotes the lines around each, which for thousands
 * of them was most of the time taken.
 */
export function parseMatter(text: string): { value: unknown } | { reason: string; line?: number; tooManyAliases?: true } {
  // `logLevel: 'error'`: a warning (`x: !custom b`, a tag it does not know) is no reason a record
  // cannot be read, and yaml would write it to the process's stderr, among import-adr's problems.
  const options = { prettyErrors: false, logLevel: 'error' } as const
  let document: Document.Parsed | undefined
  try {
    // As yaml's `parse` reads a text, the document kept to find an alias an error names.
    document = parseDocument(text, options)
    if (document.errors[0] !== undefined) throw document.errors[0]
    return { value: document.toJS(options) }
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? ''
    const offset = error instanceof YAMLParseError ? error.pos[0] : document === undefined ? undefined : unresolvedAliasAt(document, reason)
    // Aliases that would expand the value past yaml's limit (`Excessive alias count indicates a
    // resource exhaustion attack`) are valid YAML, refused for safety: not said as YAML that is not.
    const tooManyAliases = error instanceof ReferenceError && /^Excessive alias count\b/.test(reason)
    return { reason: shortened(reason), ...(offset === undefined ? {} : { line: lineAt(text, offset) }), ...(tooManyAliases ? { tooManyAliases: true as const } : {}) }
  }
}

/**
 * Where the alias an `Unresolved alias` error names is (its offset), as yaml resolves one: the
 * first of that name with no node anchored so before it, in the order the document is read.
 */
function unresolvedAliasAt(document: Document.Parsed, reason: string): number | undefined {
  const name = /^Unresolved alias \(the anchor must be set before the alias\): (.*)$/.exec(reason)?.[1]
  if (name === undefined) return undefined
  const anchored = new Set<string>()
  let offset: number | undefined
  visit(document, {
    Node(_key, node) {
      if (isAlias(node) && node.source === name && !anchored.has(name)) {
        offset = node.range?.[0]
        return visit.BREAK
      }
      if (node.anchor !== undefined) anchored.add(node.anchor)
      return undefined
    },
  })
  return offset
}

/** The 1-based line of an offset in a text. */
function lineAt(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}
