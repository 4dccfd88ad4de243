import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validate as validCron } from 'node-cron'
import { fieldNestedPast } from '../domain/json-depth'
import { characters, LIMITS } from '../domain/limits'
import { compilePolicy, PolicySchema, type CompiledPolicy } from '../domain/policy'
import { jsonTypeOf, missingSaid } from '../domain/zod-issues'
import { duplicateJsonKeys } from './json-duplicate-keys'
import { jsonHabit, jsonLineColumn } from './json-habits'
import { jsonFieldLines } from './json-field-lines'
import { configFileBytes, utf8FileText } from './utf8-file'

const require = createRequire(import.meta.url)

/**
 * The YAML parser, loaded only for a YAML policy: it adds tens of ms to every start with the default
 * (JSON) one. Merge keys (`<<: *anchor`, YAML 1.1) are read, as hand-written YAML often uses them;
 * the parser's limit on aliases (100) keeps an alias bomb out. YAML 1.1's explicit tags (`!!omap`,
 * `!!set`, `!!binary`, `!!timestamp`) are not resolved: they made a Map, a Set, bytes or a Date,
 * which no field takes, and a Map or Set where a group of fields goes (`ask: !!omap
 * [auto_resolve_p: 0.8]`) was merged as having none, its settings silently the default's. Left
 * unresolved, the value is the mapping, list or text written, refused or taken as any other.
 * Without the parser's warning of that tag (or of any other it does not know, `!foo`): it went to
 * Node's process warnings, printed after the refusal had stopped `serve`, as a stack-hint of
 * Node's (`(node:123) [TAG_RESOLVE_FAILED] YAMLWarning: …`); a refusal names each such tag instead.
 */
function parseYaml(text: string): {
  value: unknown
  tags: string[]
  lineOf: (path: readonly PropertyKey[]) => number | undefined
  emptyAt: (path: readonly PropertyKey[]) => 'key' | 'entry' | undefined
  selfAlias?: { path: PropertyKey[]; alias: string; line: number }
} {
  const options = { merge: true, resolveKnownTags: false, logLevel: 'error' } as const
  const yaml = require('yaml') as typeof import('yaml')
  const lineCounter = new yaml.LineCounter()
  const doc = yaml.parseDocument(text, { ...options, lineCounter })
  const error = doc.errors[0]
  if (error !== undefined) {
    // The parser's words for a second document are a programmer's (`please use
    // YAML.parseAllDocuments()`), and one is often only a `---` left at the end of the file.
    if (error.code === 'MULTIPLE_DOCS') error.message = error.message.replace(/^Source contains multiple documents; please use YAML\.parseAllDocuments\(\)/, 'a second YAML document begins (a policy is one: remove this --- line, or what follows it)')
    throw error
  }
  // The tags left unresolved, said beside a refusal instead: their value is the text written, which
  // a field of another type refuses, and only the tag says why (`min_observations: !foo 5` is "5").
  const tags = doc.warnings.flatMap((w) => {
    const at = w.code === 'TAG_RESOLVE_FAILED' ? /^Unresolved tag: (\S+) at (line \d+, column \d+)/.exec(w.message) : null
    return at === null ? [] : [`  ${at[2]}: tag ${(at[1] as string).replace(/^tag:yaml\.org,2002:/, '!!')} not resolved: its value is read as written`]
  })
  // The node at a field's path, where its key (or a list's entry) starts, and whether it is a key's
  // or an entry's; none for a field the file has through a merge key only, or not at all (the
  // default policy's).
  const nodeAt = (path: readonly PropertyKey[]) => {
    let node: unknown = doc.contents
    let start: number | undefined
    let of: 'key' | 'entry' | undefined
    for (const segment of path) {
      if (yaml.isMap(node)) {
        const pair = node.items.find((item) => yaml.isScalar(item.key) && String(item.key.value) === String(segment))
        if (pair === undefined) return undefined
        start = yaml.isNode(pair.key) ? pair.key.range?.[0] : undefined
        node = pair.value
        of = 'key'
      } else if (yaml.isSeq(node)) {
        node = node.items[Number(segment)]
        start = yaml.isNode(node) ? node.range?.[0] : undefined
        of = 'entry'
      } else return undefined
    }
    return { node, start, of }
  }
  const lineOf = (path: readonly PropertyKey[]) => {
    const start = nodeAt(path)?.start
    return start === undefined ? undefined : lineCounter.linePos(start).line
  }
  // A key or a `-` with nothing after it, which YAML reads as null: not a `null` or `~` written.
  const emptyAt = (path: readonly PropertyKey[]) => {
    const at = nodeAt(path)
    if (at === undefined || at.of === undefined) return undefined
    const empty = at.node === null || (yaml.isScalar(at.node) && at.node.value === null && at.node.source === '')
    return empty ? at.of : undefined
  }
  // An alias inside the value its own anchor names (`sensitive_terms: &x [*x]`): read, the value
  // holds itself, and was refused as nesting more than 64 levels deep, which no line of the file
  // writes. The first such alias, by its field's path and its line.
  let selfAlias: { path: PropertyKey[]; alias: string; line: number } | undefined
  yaml.visit(doc, {
    Alias(_key, alias, ancestors) {
      const target = alias.resolve(doc)
      if (target === undefined || !ancestors.includes(target)) return undefined
      const path: PropertyKey[] = []
      ancestors.forEach((node, i) => {
        const child = ancestors[i + 1] ?? alias
        // A merge key's value is a symbol: named as written, `<<`.
        if (yaml.isPair(node) && yaml.isScalar(node.key)) path.push(typeof node.key.value === 'symbol' ? '<<' : String(node.key.value))
        else if (yaml.isSeq(node)) path.push(node.items.indexOf(child as never))
      })
      selfAlias = { path, alias: alias.source, line: lineCounter.linePos(alias.range?.[0] ?? 0).line }
      return yaml.visit.BREAK
    },
  })
  return { value: selfAlias === undefined ? doc.toJS(options) : null, tags, lineOf, emptyAt, selfAlias }
}

/** The policy shipped in `policies/default.json`. */
export const DEFAULT_POLICY_FILE = fileURLToPath(new URL('../../policies/default.json', import.meta.url))

/** A policy file that cannot be used; the message names the file and the field. */
export class PolicyFileError extends Error {
  readonly code = 'POLICY_INVALID'
  constructor(message: string) {
    super(message)
    this.name = 'PolicyFileError'
  }
}

/** The field of a policy that nests deeper than LIMITS.nesting (the policy the first level), `(root)` for a list. */
function fieldNestedTooDeep(raw: unknown): string | undefined {
  return fieldNestedPast(raw, LIMITS.nesting, '(root)')
}

/**
 * Parses and validates policy text (JSON, or YAML for .yaml/.yml files). Over `base` (the default
 * policy, as loadPolicy passes it), the text needs only the fields it changes: objects are merged
 * field by field, and any other value given (a list, a number, null) replaces the base's.
 */
export function parsePolicy(text: string, file: string, base?: unknown): CompiledPolicy {
  const yaml = /\.ya?ml$/i.test(file)
  // A byte order mark, as some editors on Windows save UTF-8, is no part of the text: the YAML
  // parser skips it, JSON.parse refused it as an unexpected token.
  const json = yaml ? '' : text.replace(/^\uFEFF/, '')
  // A file with no policy in it, JSON or YAML alike (empty, white space, YAML comments alone, or
  // null): more often a file truncated, or the wrong one, than a wish for the default policy, which
  // `{}` asks for plainly. Refused, as a broken policy is, rather than run on the default unseen.
  const empty = `${file}: invalid policy\n  (root): the file holds no policy (it is empty${yaml ? ', only comments' : ''} or null): write {} for the default policy, or the fields it changes`
  if (!yaml && json.trim() === '') throw new PolicyFileError(empty)
  let raw: unknown
  let tags: string[] = []
  let lineOf: (path: readonly PropertyKey[]) => number | undefined = () => undefined
  let emptyAt: (path: readonly PropertyKey[]) => 'key' | 'entry' | undefined = () => undefined
  let selfAlias: ReturnType<typeof parseYaml>['selfAlias']
  try {
    if (yaml) ({ value: raw, tags, lineOf, emptyAt, selfAlias } = parseYaml(text))
    else raw = JSON.parse(json)
  } catch (error) {
    // JSON's on one line: Node 20 quotes the text around an unexpected word (`True`) as it is, newlines
    // and all. YAML's code frame, with its caret under the column, stays on its lines.
    const message = yaml ? (error as Error).message : (error as Error).message.replace(/\r?\n/g, '\\n')
    // A file that reads as YAML is told so alone: its `#` comment is YAML's, and `remove it`, said of
    // README's example (which opens with one) pasted into mine.json, led only to the next refusal.
    const asYaml = yaml ? '' : readsAsYaml(json, file)
    const habit = yaml || asYaml !== '' ? '' : policyJsonHabit(json, message)
    throw new PolicyFileError(`${file}: not valid ${yaml ? 'YAML' : 'JSON'}: ${message}${yaml ? '' : jsonLineColumn(json, message) + habit + asYaml}`)
  }
  // A file of one line is all line 1: said without it, as a field's line is.
  if (selfAlias !== undefined) {
    const { path, alias, line } = selfAlias
    const onItsLine = /\n\s*\S/.test(text.trim()) ? ` (line ${line})` : ''
    throw new PolicyFileError(
      `${file}: invalid policy\n  ${path.join('.')}${onItsLine}: the alias *${alias} stands inside the value its anchor &${alias} names, so that value would hold itself without end: write the value out there`,
    )
  }
  // An empty YAML file (or one of comments) parses to null, as `null` or `~` does.
  if (raw === null || raw === undefined) throw new PolicyFileError(empty)
  // Nested thousands deep (JSON.parse takes it), finding the line of each field took time and
  // memory by the square of the depth: a minute and more, then out of memory, before any refusal.
  const deep = fieldNestedTooDeep(raw)
  if (deep !== undefined) {
    throw new PolicyFileError(`${file}: invalid policy\n  ${deep}: nests arrays and objects more than ${LIMITS.nesting} levels deep, deeper than any policy`)
  }
  if (!yaml) {
    const lines = jsonFieldLines(json)
    lineOf = (path) => lines.get(path.map(String).join('.'))
  }
  // A field's line in the file, said beside its path: a policy of many points is long. Not in a
  // file of one line, where every field is on line 1.
  const manyLines = /\n\s*\S/.test(text.trim())
  const onLine = (line: number | undefined) => (manyLines && line !== undefined ? ` (line ${line})` : '')
  const at = (path: readonly PropertyKey[]) => onLine(lineOf(path))
  // A key given twice in one object: JSON.parse keeps the last value, and the first, which the
  // writer may think in force, would be silently dropped. (The YAML parser refuses one itself.)
  // Named with the line it is given again on, where the first occurrence's would not be the news.
  const problems: string[] = yaml ? [] : duplicateJsonKeys(json).map(({ path, line }) => `  ${path.join('.')}${onLine(line)}: given more than once`)
  const input = base === undefined ? raw : over(base, raw)
  // A field left out is on no line: the object it is missing from is (`points.7.key (line 40)`),
  // where a policy of many points was counted by hand.
  const atOrHolder = (path: readonly PropertyKey[]) => onLine(lineOf(path) ?? (valueAt(input, path) === undefined ? lineOf(path.slice(0, -1)) : undefined))
  const result = PolicySchema.safeParse(input)
  if (!result.success) {
    problems.push(
      ...withoutSafeIntegerBound(result.error.issues).flatMap((issue) =>
        // One line per unknown field, named by its own path.
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((k) => `  ${[...issue.path, k].join('.')}${at([...issue.path, k])}: unknown field`)
          : [`  ${issue.path.length === 0 ? '(root)' : issue.path.join('.')}${atOrHolder(issue.path)}: ${policyIssueSaid(issue, valueAt(input, issue.path), () => wholeNumberAt(input, issue.path))}${issue.code === 'invalid_type' ? typeHint(issue.expected, valueAt(input, issue.path), tags.length > 0, yaml && issue.path.at(-2) === 'match', emptyAt(issue.path)) : ''}`],
      ),
    )
  }
  // Checked beside zod's issues, not after them: every problem of the file is said at once.
  const cron = isPlainObject(input) && isPlainObject(input.scan) ? input.scan.cron : undefined
  if (typeof cron === 'string' && cron !== '' && !validCron(cron)) {
    problems.push(`  scan.cron${at(['scan', 'cron'])}: not a cron expression: "${cron}"`)
  }
  if (!result.success || problems.length > 0) {
    throw new PolicyFileError(`${file}: invalid policy\n${[...problems, ...tags].join('\n')}`)
  }
  return compilePolicy(result.data)
}

/**
 * A comment or a comma before a closing bracket (jsonHabit), named after the parser's words with
 * its own line and column, and what to do of it in a policy.
 */
function policyJsonHabit(text: string, message: string): string {
  const found = jsonHabit(text, message)
  if (found === undefined) return ''
  return found.habit === 'comment'
    ? `; a comment at ${found.at}: JSON has none (remove it, or write the policy as YAML, a .yaml file, where # starts one)`
    : `; a comma before a closing bracket at ${found.at}: JSON takes none (remove it)`
}

/**
 * For a file read as JSON that JSON refused: that it reads as YAML, and what to name it, when it
 * is written as YAML's fields are (not in braces, as JSON with a mistake in it is) and the YAML
 * parser reads a mapping of fields from it, `#` comments and all. README's examples are YAML: pasted into `mine.json`,
 * one was refused at its first letter, `Unexpected token 't'`, and nothing said YAML is read only
 * from a file named so.
 */
function readsAsYaml(text: string, file: string): string {
  // Braces after `#` comments are JSON with a comment in it, said as one.
  if (/^\s*[{[]/.test(text.replace(/^[ \t]*#.*$/gm, ''))) return ''
  try {
    const value: unknown = (require('yaml') as typeof import('yaml')).parse(text, { merge: true, resolveKnownTags: false, logLevel: 'silent' })
    if (!isPlainObject(value) || Object.keys(value).length === 0) return ''
  } catch {
    return ''
  }
  // Its extension, if any, replaced: a leading dot (`.dm-policy`) starts a name, not an extension.
  const renamed = `${basename(file).replace(/(?<=.)\.[^.]*$/, '')}.yaml`
  return `; it reads as YAML, which a policy file is read as only when its name ends in .yaml or .yml: rename it ${renamed}`
}

/** The value at `path` of the policy as read, if there is one. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value
  for (const key of path) {
    if (typeof at !== 'object' || at === null || typeof key === 'symbol' || !Object.hasOwn(at, key)) return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

/**
 * Zod's issues without the safe-integer bound of a whole number (`.int()`, ±2^53 − 1) where the
 * field's own bound that way is said at the same path: `ask.check_in_after` of 1e20 was said
 * `at most 9007199254740991`, then `at most 16`, the first as if the field took it. A field with no
 * bound of its own that way (`cache.entries`) keeps it, which is true of it.
 */
function withoutSafeIntegerBound<I extends { code: string; path: PropertyKey[]; origin?: unknown }>(issues: readonly I[]): I[] {
  const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) => a.length === b.length && a.every((k, i) => k === b[i])
  return issues.filter(
    (issue) =>
      !(
        issue.origin === 'int' &&
        (issue.code === 'too_big' || issue.code === 'too_small') &&
        issues.some((other) => other !== issue && other.code === issue.code && other.origin === 'number' && samePath(other.path, issue.path))
      ),
  )
}

/**
 * Whether the policy takes a whole number at `path`: the schema asked with 0.5 there, which a
 * whole-number field (`ask.check_in_after`) refuses as not an `int`, and any other number field takes.
 */
function wholeNumberAt(input: unknown, path: readonly PropertyKey[]): boolean {
  const key = path.at(-1)
  if (key === undefined || typeof key === 'symbol') return false
  const probe: unknown = structuredClone(input)
  const holder = valueAt(probe, path.slice(0, -1))
  if (typeof holder !== 'object' || holder === null) return false
  ;(holder as Record<string | number, unknown>)[key] = 0.5
  const result = PolicySchema.safeParse(probe)
  return (
    !result.success &&
    result.error.issues.some((issue) => issue.code === 'invalid_type' && issue.expected === 'int' && issue.path.length === path.length && issue.path.every((k, i) => k === path[i]))
  )
}

/** What a field of each type zod names takes, in the words the service's other refusals use. */
const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  string: 'text',
  object: 'an object',
  array: 'an array',
}

/**
 * A policy field's type or range refusal in the service's words, as a request's wrong type is
 * told (wrongTypeSaid): what the field takes, and what the file gave it, `true or false, not a
 * string`, `at least 1, not 0`; zod said `Invalid input: expected boolean, received string` and
 * `Too small: expected number to be >=1`. A field left out (`value` undefined) is said missing; any
 * other issue keeps its own words.
 */
function policyIssueSaid(
  issue: { code: string; message: string; expected?: unknown; minimum?: unknown; maximum?: unknown; inclusive?: unknown; origin?: unknown },
  value: unknown,
  wholeNumber: () => boolean = () => false,
): string {
  if (value === undefined) return missingSaid(issue.message)
  // A field's own words (a point's key: `a name (text), not a number`) are kept.
  if (!/^(Invalid input|Too small|Too big): /.test(issue.message)) return issue.message
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string' && TYPE_WORDS[issue.expected] !== undefined) {
    // YAML's .inf and .nan are numbers no field takes: said as written, not as "a number".
    if (typeof value === 'number' && !Number.isFinite(value)) return `a finite number, not ${String(value)}`
    // Zod names a whole-number field given no number (`"9"`, null) `number`: it checks the type
    // before the whole, and `a number, not a string` let a 1.5 in its place seem right.
    const expected = issue.expected === 'number' && wholeNumber() ? 'int' : issue.expected
    return `${TYPE_WORDS[expected]}, not ${expected === 'int' && typeof value === 'number' ? String(value) : jsonTypeOf(value)}`
  }
  const bound = issue.code === 'too_small' ? issue.minimum : issue.code === 'too_big' ? issue.maximum : undefined
  if (typeof bound === 'number' || typeof bound === 'bigint') {
    const small = issue.code === 'too_small'
    if (typeof value === 'number') return `${small ? (issue.inclusive === false ? 'above' : 'at least') : issue.inclusive === false ? 'below' : 'at most'} ${bound}, not ${value}`
    // A rule of "": said so, not "at least 1 characters".
    if (typeof value === 'string') return small && Number(bound) === 1 ? 'must not be empty' : `${small ? 'at least' : 'at most'} ${bound} characters, not ${characters(value)}`
  }
  return issue.message
}

/**
 * How to write a value that came as the wrong type, for the quirks of hand-written YAML and JSON:
 * YAML 1.2 reads `yes` and `on` as text, and a bare `3.10` or `true` where a label goes as a number
 * or a boolean, and a key or `-` with nothing after it (`empty`) as null; a number in quotes is
 * text in both.
 */
function typeHint(expected: string, value: unknown, tagged = false, yamlRule = false, empty?: 'key' | 'entry'): string {
  // `received null` of a value not written: the reader looks for a null that is not there. Fields
  // meant under a key but not indented are the usual cause where a group goes; under a `-`, fields
  // indented below it make it no null, so one alone is a stray `-` (or its entry not written), a
  // group's entry too: a version before this told it to indent the fields.
  if (value === null && empty !== undefined) {
    const read = empty === 'key' ? 'a key with nothing after its colon' : 'a - with nothing after it'
    const group = expected === 'object' ? 'fields' : expected === 'array' ? 'entries' : undefined
    const fix = empty === 'entry' ? 'write the entry after the -, or remove the line' : group !== undefined ? `indent the ${group} that go under it` : 'write the value after the colon'
    return ` (YAML reads ${read} as null: ${fix})`
  }
  if (expected === 'boolean' && typeof value === 'string' && /^(y|yes|n|no|on|off|true|false)$/i.test(value)) {
    return ` ("${value}" is text: write ${/^(y|yes|on|true)$/i.test(value) ? 'true' : 'false'})`
  }
  // A number behind a tag not resolved is text too, unquoted: the tag's line says so instead.
  if (expected === 'number' && !tagged && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return ` (write ${value.trim()} without quotes: in quotes it is text)`
  }
  // A match rule written bare in YAML as a character class or a count: `[tier]` alone is a list,
  // `{2}` a mapping, in YAML's flow style. (Not said of a static default: a list there is a set.)
  if (expected === 'string' && yamlRule && typeof value === 'object' && value !== null) {
    return ` (put the text in quotes: unquoted, YAML read what begins with ${Array.isArray(value) ? '[ as a list' : '{ as a mapping'})`
  }
  if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return ` (put the text in quotes: unquoted, it was read as the ${typeof value} ${String(value)})`
  }
  return ''
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `value` over `base`: plain objects merged field by field, anything else replacing. */
function over(base: unknown, value: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(value)) return value
  // Entries, not assignments: a field named __proto__ stays a field (and is refused as unknown).
  return Object.fromEntries([
    ...Object.entries(base).filter(([k]) => !Object.hasOwn(value, k)),
    ...Object.entries(value).map(([k, v]) => [k, Object.hasOwn(base, k) ? over(base[k], v) : v]),
  ])
}

/** The default policy's fields, as its file has them: what another policy file leaves out. */
async function defaultFields(): Promise<unknown> {
  return JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
}

/**
 * Reads a policy file; every problem is a PolicyFileError naming the file (and field). A file other
 * than the default policy needs only the fields it changes: the others are the default policy's.
 */
export async function loadPolicy(file: string = DEFAULT_POLICY_FILE): Promise<CompiledPolicy> {
  const refuse = (message: string) => new PolicyFileError(message)
  const bytes = await configFileBytes(file, 'policy file', '--policy', refuse)
  return parsePolicy(utf8FileText(bytes, file, refuse), file, resolve(file) === DEFAULT_POLICY_FILE ? undefined : await defaultFields())
}

