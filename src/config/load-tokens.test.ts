import { createHash } from 'node:crypto'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createTokenTable, loadTokens, TokensFileError, TokensFileSchema } from './load-tokens'
import { tempDir } from '../../test/support/temp-dir'

const ALICE = 'alice-token-0123456789abcdef'
const OPS = 'ops-token-0123456789abcdef'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function fileWith(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dm-tokens-'))
  dirs.push(dir)
  const file = join(dir, 'tokens.json')
  await writeFile(file, text)
  return file
}

describe('createTokenTable', () => {
  const table = createTokenTable(
    TokensFileSchema.parse({
      tokens: [
        { name: 'alice', token: ALICE, users: ['alice'] },
        { name: 'ops', sha256: createHash('sha256').update(OPS).digest('hex'), users: ['*'] },
      ],
    }),
  )

  it('finds the principal of a token given as is or by its SHA-256', () => {
    expect(table.authenticate(ALICE)).toEqual({ name: 'alice', users: new Set(['alice']) })
    expect(table.authenticate(OPS)).toEqual({ name: 'ops', users: 'any' })
  })

  it('knows no other token, nor a prefix or extension of one', () => {
    expect(table.authenticate('nope')).toBeUndefined()
    expect(table.authenticate(ALICE.slice(0, -1))).toBeUndefined()
    expect(table.authenticate(ALICE + 'x')).toBeUndefined()
    expect(table.authenticate('')).toBeUndefined()
  })
})

describe('loadTokens', () => {
  it('refuses a file nested thousands deep naming the field, before looking for keys given twice (time by the square of its depth)', async () => {
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)
    const nested = await fileWith(`{"tokens": [{"name": "alice", "token": "${ALICE}", "users": ["alice"], "note": ${deep}}]}`)
    await expect(loadTokens(nested)).rejects.toThrow(new TokensFileError(`${nested}: invalid tokens file\n  tokens: nests arrays and objects more than 64 levels deep, deeper than any tokens file`))
    // A key that might be a token is not named.
    const unnamed = await fileWith(`{"${ALICE}": ${deep}}`)
    await expect(loadTokens(unnamed)).rejects.toThrow(new TokensFileError(`${unnamed}: invalid tokens file\n  (a field): nests arrays and objects more than 64 levels deep, deeper than any tokens file`))
  })

  it('says a required field left out is missing, as the service says it, not that it received undefined', async () => {
    const file = await fileWith(JSON.stringify({ tokens: [{ token: ALICE }] }))
    await expect(loadTokens(file)).rejects.toThrow(
      new TokensFileError(`${file}: invalid tokens file\n  tokens.0.name: missing: expected string\n  tokens.0.users: missing: expected array`),
    )
  })

  it('reads a valid file', async () => {
    const file = await fileWith(JSON.stringify({ tokens: [{ name: 'alice', token: ALICE, users: ['alice', 'default'] }] }))
    expect((await loadTokens(file)).authenticate(ALICE)?.users).toEqual(new Set(['alice', 'default']))
  })

  it.skipIf(process.platform === 'win32')('says a file of plain tokens other accounts may read is exposed, and not one of digests or the owner\'s only', async () => {
    const plain = await fileWith(JSON.stringify({ tokens: [{ name: 'alice', token: ALICE, users: ['alice'] }] }))
    await chmod(plain, 0o644)
    const exposure = (await loadTokens(plain)).exposure
    expect(exposure).toBe(`${plain} holds 1 token in plain and other accounts may read it (mode 644): make it its owner's only (chmod 600), or give each token as its sha256`)
    expect(exposure).not.toContain(ALICE)
    await chmod(plain, 0o600)
    expect((await loadTokens(plain)).exposure).toBeUndefined()
    const digests = await fileWith(JSON.stringify({ tokens: [{ name: 'ops', sha256: createHash('sha256').update(OPS).digest('hex'), users: ['*'] }] }))
    await chmod(digests, 0o644)
    expect((await loadTokens(digests)).exposure).toBeUndefined()
  })

  it.skipIf(process.platform === 'win32')('says a file other accounts may write can be given a token for every user, whatever it holds', async () => {
    const digests = await fileWith(JSON.stringify({ tokens: [{ name: 'ops', sha256: createHash('sha256').update(OPS).digest('hex'), users: ['*'] }] }))
    for (const mode of [0o664, 0o646]) {
      await chmod(digests, mode)
      const writable = (await loadTokens(digests)).writable
      expect(writable).toBe(
        `${digests} may be changed by other accounts (mode ${mode.toString(8)}), and one that adds a token of its own for every user ("users": ["*"]) has it at the next start: make it writable by its owner only (chmod 600)`,
      )
    }
    await chmod(digests, 0o644)
    expect((await loadTokens(digests)).writable).toBeUndefined()
  })

  it('takes no comma inside a string for a trailing one, and says where the text does break', async () => {
    const text = `{"tokens": [{"name": "a, ]", "token": "${ALICE}", "users": [True]}]}`
    const file = await fileWith(text)
    const error = await loadTokens(file).catch((e: unknown) => e)
    expect((error as Error).message).toBe(`${file}: not valid JSON (line 1, column ${text.indexOf('True') + 1})`)
  })

  it('reads a file saved with a byte order mark', async () => {
    const file = await fileWith(`\uFEFF${JSON.stringify({ tokens: [{ name: 'alice', token: ALICE, users: ['alice'] }] })}`)
    expect((await loadTokens(file)).authenticate(ALICE)?.name).toBe('alice')
  })

  it.each([
    ['not JSON', `{"tokens": [{"token": "${ALICE}"`, 'not valid JSON'],
    ['a trailing comma, said where', `{"tokens": [\n  {"name": "a", "token": "${ALICE}", "users": ["a"],\n}]}`, 'not valid JSON (line 3, column 1)'],
    // Node 20's JSON.parse says no position for this one: after the last entry, the usual slip.
    ['a trailing comma in the list, said where', `{"tokens": [\n  {"name": "a", "token": "${ALICE}", "users": ["a"]},\n]}`, 'not valid JSON (line 3, column 1)'],
    ['an empty file', ' \n', 'not valid JSON: the file is empty'],
    ['no tokens', '{"tokens": []}', 'tokens: must not be empty'],
    ['a short token', '{"tokens": [{"name": "a", "token": "short", "users": ["a"]}]}', 'tokens.0.token: at least 16 characters, not 5'],
    ['token and sha256', `{"tokens": [{"name": "a", "token": "${ALICE}", "sha256": "${'a'.repeat(64)}", "users": ["a"]}]}`, 'exactly one of token or sha256'],
    // Said, not a TypeError: the check for duplicate tokens runs on an entry that has none.
    ['neither token nor sha256', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": ["a"]}, {"name": "b", "users": ["b"]}]}`, 'tokens.1: give exactly one of token or sha256'],
    ['a misspelt token', `{"tokens": [{"name": "a", "tokn": "${ALICE}", "users": ["a"]}]}`, 'tokens.0: unknown field "tokn"; the fields are name, token, sha256, users'],
    ['no users', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": []}]}`, 'tokens.0.users: must not be empty'],
    ['a user that is no string', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": [123]}]}`, 'tokens.0.users.0: Invalid input: expected string, received number'],
    ['a user that is no name', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": [".."]}]}`, 'tokens.0.users.0: must not be "." or ".."'],
    ['a field given twice', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": ["a"], "users": ["*"]}]}`, 'tokens.0.users: given more than once'],
    ['a key that is no field given twice', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": ["a"], "${ALICE}": 1, "${ALICE}": 2}]}`, 'tokens.0.(a field): given more than once'],
    ['an unknown field', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": ["a"], "scope": "read"}]}`, 'tokens.0: unknown field "scope"; the fields are name, token, sha256, users'],
    ['an unknown key that might be a token', `{"tokens": [{"name": "a", "token": "${OPS}", "users": ["a"], "${ALICE}": 1}]}`, 'tokens.0: unknown field (a field)'],
    ['an unknown field beside tokens', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": ["a"]}], "token": "x"}`, '(root): unknown field "token"; the field is tokens'],
    // Never presentable: `Authorization: Bearer` carries one word of visible ASCII.
    ['a token with a space', `{"tokens": [{"name": "a", "token": "correct horse ${ALICE}", "users": ["a"]}]}`, 'tokens.0.token: must be visible ASCII characters, without white space'],
    ['a token with a trailing blank', `{"tokens": [{"name": "a", "token": "${ALICE} ", "users": ["a"]}]}`, 'tokens.0.token: must be visible ASCII'],
    ['a token of other characters', `{"tokens": [{"name": "a", "token": "${ALICE}ä", "users": ["a"]}]}`, 'tokens.0.token: must be visible ASCII'],
    ['the same token twice', `{"tokens": [{"name": "a", "token": "${ALICE}", "users": ["a"]}, {"name": "b", "token": "${ALICE}", "users": ["b"]}]}`, 'duplicate token'],
  ])('refuses %s, naming the file and field but never the token', async (_what, text, message) => {
    const file = await fileWith(text)
    const error = await loadTokens(file).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TokensFileError)
    expect((error as Error).message).toContain(file)
    expect((error as Error).message).toContain(message)
    expect((error as Error).message).not.toContain(ALICE)
  })

  it('refuses a file that is not UTF-8, with its line, rather than read a Latin-1 user name as another name', async () => {
    const latin1 = await fileWith('')
    await writeFile(latin1, Buffer.from(`{"tokens": [\n  {"name": "a", "token": "${ALICE}", "users": ["jos\u00e9"]}\n]}`, 'latin1'))
    await expect(loadTokens(latin1)).rejects.toThrow(`${latin1}: not UTF-8 text at line 2 (saved in another encoding, such as Latin-1?): save it as UTF-8`)
    const utf16 = await fileWith('')
    await writeFile(utf16, Buffer.from(`\uFEFF${JSON.stringify({ tokens: [{ name: 'a', token: ALICE, users: ['a'] }] })}`, 'utf16le'))
    await expect(loadTokens(utf16)).rejects.toThrow(`${utf16}: not UTF-8 text: it is saved as UTF-16`)
  })

  it('says when the file cannot be read', async () => {
    await expect(loadTokens('/nonexistent/tokens.json')).rejects.toThrow(
      new TokensFileError('/nonexistent/tokens.json: cannot read tokens file: there is no such file (ENOENT): give --auth the path of a tokens file'),
    )
    const folder = tempDir('dm-tokens-folder-')
    await expect(loadTokens(folder, 'DECISION_MEMORY_AUTH')).rejects.toThrow(
      new TokensFileError(`${folder}: cannot read tokens file: a folder, not a file (EISDIR): give DECISION_MEMORY_AUTH the path of a tokens file`),
    )
  })

  it('refuses what is no file, and a file of more than 4 MB, naming the flag, rather than read it', async () => {
    // /dev/null read as an empty file; /dev/zero and a named pipe were read until memory or a writer came.
    await expect(loadTokens('/dev/null')).rejects.toThrow(new TokensFileError('/dev/null: cannot read tokens file: a device, not a file: give --auth the path of a tokens file'))
    await expect(loadTokens('/dev/null', 'DECISION_MEMORY_AUTH')).rejects.toThrow('a device, not a file: give DECISION_MEMORY_AUTH the path of a tokens file')
    const big = await fileWith(' '.repeat(4 * 1024 * 1024 + 1))
    await expect(loadTokens(big)).rejects.toThrow(new TokensFileError(`${big}: cannot read tokens file: it holds 4194305 bytes, more than 4 MB, more than any tokens file: give --auth the path of a tokens file`))
  })
})
