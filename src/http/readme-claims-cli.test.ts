// README's promises from "The guard hook" to "Use with Claude Code", checked as a new user would
// meet them: each test names the sentence it holds the product to. HTTP through app.request();
// the guard through its function, its fetch answered by the same app.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import { tempDir } from '../../test/support/temp-dir'
import { createTestApp } from '../../test/support/test-app'
import { readRecordFolder } from '../decisions/adr/adr-folder'
import { guard } from '../cli/guard'

const URL_ = 'http://decision-memory.test'

const required = (key: string, pattern: string, extra: Record<string, unknown> = {}) => ({
  key,
  title: `Decision ${key}`,
  decision: 'x',
  rationale: 'y',
  enforce: 'required',
  status: 'accepted',
  constraints: [{ kind: 'must_not', pattern }],
  ...extra,
})

async function appAndGuard() {
  const app = await createTestApp()
  const fetch = (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch
  const run = (command: string, cwd: string) =>
    guard({
      payload: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd, session_id: 's-1' }),
      url: URL_,
      failClosed: false,
      timeoutMs: 10_000,
      fetch,
    })
  return { ...app, run }
}

/** A git repository (a folder holding `.git`) with the folders given, for the guard's paths. */
function repository(folders: string[]): string {
  const root = tempDir('dm-readme-guard-')
  mkdirSync(join(root, '.git'))
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true })
  return root
}

describe('README, What a must_not pattern meets: forms of the command', () => {
  it("expands a word's first brace group as bash does, and names the form that matched", async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('B-1', '^rm -rf build dist$'))
    await call('POST', '/v1/decisions', required('B-2', '^git push --force --$'))
    await call('POST', '/v1/decisions', required('B-3', '^echo \\{x,y\\}--force \\{x,y\\}-$'))
    const message = async (action: string) => (await call('POST', '/v1/decisions/check', { action })).body.blocked_by.map((b: { message: string }) => b.message)
    expect(await message('rm -rf {build,dist}')).toEqual(['"rm -rf {build,dist}" matches the must_not pattern /^rm -rf build dist$/ (read as "rm -rf build dist")'])
    expect(await message('git push --{force,}')).toEqual(['"git push --{force,}" matches the must_not pattern /^git push --force --$/ (read as "git push --force --")'])
    // A group in quotes is not expanded; the unquoted one beside it is.
    expect(await message('echo "{x,y}"-{-force,}')).toEqual([
      '"echo "{x,y}"-{-force,}" matches the must_not pattern /^echo \\{x,y\\}--force \\{x,y\\}-$/ (read as "echo {x,y}--force {x,y}-")',
    ])
  })

  it('quotes a command over 300 characters by its first 300 and its length', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('D-021', '^git push ([^;&|]* )?(--force|-[a-zA-Z]*f|\\+)'))
    const action = `git push --force ${'a'.repeat(32_041 - 17)}`
    expect(action).toHaveLength(32_041)
    const answer = (await call('POST', '/v1/decisions/check', { action })).body
    expect(answer.allowed).toBe(false)
    const message: string = answer.blocked_by[0].message
    expect(message.startsWith(`"${action.slice(0, 300)}… (32041 characters)" matches the must_not pattern`)).toBe(true)
  })

  it('keeps an anchored pattern written with [^;&|]* to the command it anchors, where .* reaches the next one', async () => {
    const { call } = await createTestApp()
    await call('POST', '/v1/decisions', required('D-021', '^git push ([^;&|]* )?(--force|-[a-zA-Z]*f|\\+)'))
    const allowed = async (action: string) => (await call('POST', '/v1/decisions/check', { action })).body.allowed
    expect(await allowed('git push -u origin HEAD && gh pr create -f')).toBe(true)
    expect(await allowed('git push -fu')).toBe(false)
    expect(await allowed('git push origin +main')).toBe(false)
    expect(await allowed("cd web && FOO=1 sudo git -C . push '--force'")).toBe(false)
    expect(await allowed('bash -lc "npm test; git push --force"')).toBe(false)
    expect(await allowed('git commit -m "never git push --force"')).toBe(true)
  })
})

describe('README, The guard hook', () => {
  it('checks the parts a chain runs in a ninth folder at the cwd only, and says so on stderr', async () => {
    const folders = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']
    const root = repository(folders)
    const { call, run } = await appAndGuard()
    await call('POST', '/v1/decisions', required('S-8', '^rm -rf build', { scope: { path: 'f8' } }))
    await call('POST', '/v1/decisions', required('S-9', '^rm -rf build', { scope: { path: 'f9' } }))
    const chain = (last: string) => [...folders.slice(0, 8).map((f, i) => `cd ${i === 0 ? '' : '../'}${f} && ${f === last ? 'rm -rf build' : 'ls'}`), `cd ../f9 && ${last === 'f9' ? 'rm -rf build' : 'ls'}`].join('; ')
    // The eighth folder besides the cwd's is still followed.
    const eighth = await run(chain('f8'), root)
    expect(JSON.parse(eighth.stdout).hookSpecificOutput.permissionDecisionReason).toContain('/^rm -rf build/ (run in f8)')
    // The ninth is not: its parts are checked at the cwd, where nothing is scoped, and the guard says so.
    const ninth = await run(chain('f9'), root)
    expect(ninth.stdout).toBe('')
    expect(ninth.stderr).toContain('not followed (the command starts in .): more than 8 folders besides where the command starts')
  })

  it('keeps the reason within 10,000 characters with many long rationales, each naming where the whole is', async () => {
    const { call, run } = await appAndGuard()
    const rationale = 'because '.repeat(250)
    for (let i = 1; i <= 30; i++) await call('POST', '/v1/decisions', required(`L-${i}`, '^deploy now', { rationale }))
    const { stdout } = await run('deploy now', tempDir('dm-readme-norepo-'))
    const reason: string = JSON.parse(stdout).hookSpecificOutput.permissionDecisionReason
    expect(reason.length).toBeLessThanOrEqual(10_000)
    for (let i = 1; i <= 30; i++) {
      expect(reason).toContain(`Blocked by decision L-${i} (required)`)
      expect(reason).toContain(`(the whole rationale: DECISION_MEMORY_URL=${URL_} node `)
      expect(reason).toMatch(new RegExp(`decision-memory\\.js"? why L-${i}\\)`))
    }
  })

  it('tells a command both denied and met by an advisory decision the deny alone', async () => {
    const { call, run } = await appAndGuard()
    await call('POST', '/v1/decisions', required('D-021', '^git push ([^;&|]* )?(--force|-[a-zA-Z]*f|\\+)'))
    await call('POST', '/v1/decisions', { ...required('D-040', 'npm publish'), enforce: 'advisory', rationale: 'CI signs them.' })
    const advisory = JSON.parse((await run('npm publish', tempDir('dm-readme-norepo-'))).stdout)
    expect(advisory.hookSpecificOutput.permissionDecision).toBeUndefined()
    expect(advisory.systemMessage).toMatch(/^Advisory decision D-040 \(not enforced\): /)
    expect(advisory.hookSpecificOutput.additionalContext).toBe(advisory.systemMessage)
    const both = JSON.parse((await run('npm publish && git push --force', tempDir('dm-readme-norepo-'))).stdout)
    expect(both.systemMessage).toBeUndefined()
    expect(both.hookSpecificOutput.permissionDecision).toBe('deny')
    expect(both.hookSpecificOutput.permissionDecisionReason).not.toContain('D-040')
  })
})

describe('README, Importing decision records', () => {
  it('keys a record whose name a key cannot hold by its slug and 8 hex digits of a hash of the name', () => {
    const text = '# Use Postgres\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n'
    const name = '20240101-データベースの選定.md'
    const reading = readRecordFolder([{ path: name, name, bytes: new TextEncoder().encode(text) }])
    expect(reading.records.map((r) => r.key)).toEqual(['20240101-226c7931'])
  })
})

describe('README, Use with Claude Code: "Check it"', () => {
  it('after one answer through the PostToolUse hook, the recommendation counts 1 observation and needs 4 more', async () => {
    const { call } = await createTestApp()
    const payload = JSON.parse(await readFile(new URL('../../test/fixtures/claude-code/post-tool-use-single.json', import.meta.url), 'utf8'))
    expect((await call('POST', '/v1/hooks/claude-code', payload)).status).toBe(200)
    const answer = (await call('POST', '/v1/recommendations', { question: 'Which complexity tier should this SPEC use?', all_options: ['Tier S', 'Tier M', 'Tier L'] })).body
    expect(answer).toMatchObject({ observations: 1, needed: 4 })
    // "Tier M (Recommended)" was counted as Tier M.
    expect(answer.options.find((o: { option: string }) => o.option === 'Tier M').count).toBe(1)
  })
})
