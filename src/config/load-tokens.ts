import { createHash, timingSafeEqual } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { fieldNestedPast } from '../domain/json-depth'
import { LIMITS } from '../domain/limits'
import { IdentifierSchema } from '../domain/observation'
import { z } from '../domain/zod'
import { missingSaid } from '../domain/zod-issues'
import { duplicateJsonKeys } from './json-duplicate-keys'
import { whereJsonBreaks } from './json-scan'
import { configFileBytes, utf8FileText } from './utf8-file'

/** Who a bearer token speaks for (R-SVC-4): the users it may act for, or any user. */
export interface Principal {
  /** The token's name in the tokens file: what logs and errors may show instead of the token. */
  name: string
  users: ReadonlySet<string> | 'any'
}

/** The tokens the service accepts; lookups take the same time whichever token matches, if any. */
export interface TokenTable {
  authenticate(token: string): Principal | undefined
  /**
   * Why the file is a risk as it lies, said at start (the service runs all the same): plain tokens
   * in a file other accounts may read. Undefined when it is not, or for a table made in memory.
   */
  exposure?: string
  /**
   * Why the file may be changed by others, said at start (the service runs all the same): an
   * account that may write it can add a token of its own for every user, taken at the next start.
   */
  writable?: string
}

/** Tokens shorter than this are refused: a bearer token must not be guessable. */
export const MIN_TOKEN_LENGTH = 16

// Strict objects: a field the file misspells or this service does not know ("scope", "user")
// would otherwise be dropped unseen, and the token act for more than its author meant.
const TokenEntrySchema = z
  .strictObject({
    name: z.string().min(1).max(100),
    /**
     * The token itself. Visible ASCII only: `Authorization: Bearer` carries one word, so a token
     * with a space (a passphrase, a trailing blank pasted in) could never be presented, and one
     * with other characters only by clients that send the header as Latin-1 (curl sends UTF-8).
     */
    token: z
      .string()
      .min(MIN_TOKEN_LENGTH)
      .max(1000)
      .regex(/^[\x21-\x7e]*$/, 'must be visible ASCII characters, without white space: a bearer token is one word of an HTTP header')
      .optional(),
    /** Or its SHA-256 in hex, so that the file need not hold the token. */
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits')
      .optional(),
    /**
     * The users the token may act for; `"*"` for any user (an operator's token). A string first:
     * a number (`[123]`) is said to be no string, where the union said only "Invalid input".
     */
    users: z.array(z.string().pipe(z.union([z.literal('*'), IdentifierSchema]))).min(1),
  })
  .refine((e) => (e.token === undefined) !== (e.sha256 === undefined), {
    message: 'give exactly one of token or sha256',
  })

/** The tokens file of `serve --auth FILE`, documented in README.md. */
export const TokensFileSchema = z.strictObject({ tokens: z.array(TokenEntrySchema).min(1) }).superRefine((file, ctx) => {
  const names = new Set<string>()
  const digests = new Set<string>()
  file.tokens.forEach((entry, i) => {
    if (names.has(entry.name)) ctx.addIssue({ code: 'custom', path: ['tokens', i, 'name'], message: 'duplicate name' })
    names.add(entry.name)
    // An entry with neither token nor sha256 (forgotten, or misspelt `"tokn"`) reaches this check
    // all the same, its own refusal said beside: it has no token to compare.
    if (entry.token === undefined && entry.sha256 === undefined) return
    const digest = entry.sha256?.toLowerCase() ?? sha256(entry.token as string).toString('hex')
    if (digests.has(digest)) ctx.addIssue({ code: 'custom', path: ['tokens', i], message: 'duplicate token' })
    digests.add(digest)
  })
})
export type TokensFile = z.infer<typeof TokensFileSchema>

/** The field names of a tokens file: the only keys its errors name. */
const TOKENS_FILE_FIELDS = new Set(['tokens', 'name', 'token', 'sha256', 'users'])
/** The fields of the file itself, and of each entry of its list: what an unknown field is told to be instead. */
const ROOT_FIELDS = 'the field is tokens'
const ENTRY_FIELDS = 'the fields are name, token, sha256, users'

/** A tokens file that cannot be used; the message names the file and the field, never a token. */
export class TokensFileError extends Error {
  readonly code = 'TOKENS_INVALID'
  constructor(message: string) {
    super(message)
    this.name = 'TokensFileError'
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

/**
 * The table of a tokens file. Tokens are kept and compared as SHA-256 digests with
 * crypto.timingSafeEqual, against every entry without stopping at a match, so that neither the
 * length nor the content of a guess shows in the time the answer takes.
 */
export function createTokenTable(file: TokensFile): TokenTable {
  const entries = file.tokens.map((entry) => ({
    digest: entry.sha256 === undefined ? sha256(entry.token as string) : Buffer.from(entry.sha256, 'hex'),
    principal: {
      name: entry.name,
      users: entry.users.includes('*') ? ('any' as const) : new Set(entry.users),
    } satisfies Principal,
  }))
  return {
    authenticate(token) {
      const digest = sha256(token)
      let found: Principal | undefined
      for (const entry of entries) {
        if (timingSafeEqual(digest, entry.digest) && found === undefined) found = entry.principal
      }
      return found
    },
  }
}

/** The field of a tokens file that nests deeper than LIMITS.nesting (the file the first level), `(root)` for a list. */
function fieldNestedTooDeep(raw: unknown): string | undefined {
  return fieldNestedPast(raw, LIMITS.nesting, '(root)')
}

/** Reads a tokens file (JSON); every problem is a TokensFileError naming the file and field. */
export async function loadTokens(file: string, flag = '--auth'): Promise<TokenTable> {
  const refuse = (message: string) => new TokensFileError(message)
  const bytes = await configFileBytes(file, 'tokens file', flag, refuse)
  const text = utf8FileText(bytes, file, refuse)
  // A byte order mark, as some Windows editors save UTF-8, is no part of the text (as in a policy).
  const json = text.replace(/^\uFEFF/, '')
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch (error) {
    // Not the parser's message: it may quote the file's text, tokens included. Where it breaks, as
    // a line and column, quotes none, and finds a trailing comma in a file of many tokens.
    if (json.trim() === '') throw new TokensFileError(`${file}: not valid JSON: the file is empty`)
    const where = whereJsonBreaks(json, error)
    throw new TokensFileError(`${file}: not valid JSON${where === undefined ? '' : ` (${where})`}`)
  }
  // Nested thousands deep (JSON.parse takes it), the search for keys given twice took time by the
  // square of the depth (a path written out for each key): refused first, at once. A key that
  // might be a token is not named.
  const deep = fieldNestedTooDeep(raw)
  if (deep !== undefined) {
    const named = deep === '(root)' || TOKENS_FILE_FIELDS.has(deep) ? deep : '(a field)'
    throw new TokensFileError(`${file}: invalid tokens file\n  ${named}: nests arrays and objects more than ${LIMITS.nesting} levels deep, deeper than any tokens file`)
  }
  // A key given twice in one entry: JSON.parse keeps the last, so a second "users": ["*"] would
  // silently widen a token to every user. Named by its path, a field's name in place of any key
  // the file should not have (it might be a token).
  const problems = duplicateJsonKeys(json).map(
    ({ path }) => `  ${path.map((key) => (typeof key === 'number' || TOKENS_FILE_FIELDS.has(key) ? key : '(a field)')).join('.')}: given more than once`,
  )
  const result = TokensFileSchema.safeParse(raw)
  if (!result.success) {
    problems.push(
      ...result.error.issues.map((issue) => {
        const at = issue.path.length === 0 ? '(root)' : issue.path.join('.')
        // Zod's message quotes the unknown keys, and a key might be a token: only those too short to be one are named.
        if (issue.code !== 'unrecognized_keys') return `  ${at}: ${missingSaid(issue.message)}`
        const named = issue.keys.map((key) => (key.length < MIN_TOKEN_LENGTH ? `"${key}"` : '(a field)'))
        return `  ${at}: unknown field${named.length === 1 ? '' : 's'} ${named.join(', ')}; ${issue.path.length === 0 ? ROOT_FIELDS : ENTRY_FIELDS}`
      }),
    )
  }
  if (!result.success || problems.length > 0) {
    throw new TokensFileError(`${file}: invalid tokens file\n${problems.join('\n')}`)
  }
  const table = createTokenTable(result.data)
  const plain = result.data.tokens.filter((t) => t.token !== undefined).length
  const mode = await stat(file).then((s) => s.mode & 0o777, () => 0)
  const octal = mode.toString(8).padStart(3, '0')
  return {
    ...table,
    ...(plain === 0 || (mode & 0o044) === 0
      ? {}
      : {
          exposure:
            `${file} holds ${plain} token${plain === 1 ? '' : 's'} in plain and other accounts may read it (mode ${octal}): ` +
            'make it its owner\'s only (chmod 600), or give each token as its sha256',
        }),
    ...((mode & 0o022) === 0
      ? {}
      : {
          writable:
            `${file} may be changed by other accounts (mode ${octal}), and one that adds a token of its own for every user ("users": ["*"]) ` +
            'has it at the next start: make it writable by its owner only (chmod 600)',
        }),
  }
}
