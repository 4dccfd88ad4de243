import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTestApp } from './support/test-app'
import { tempDir } from './support/temp-dir'

const ROOT = join(import.meta.dirname, '..')

/** README's recipe that sends a user's export back ("Questions keyed anew by an upgrade"), as written. */
function resendRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((b) => b.includes('forget --user $U --yes'))
  if (block === undefined) throw new Error('README has no re-send recipe')
  return block
}

/**
 * Runs the recipe with `npx` and `curl` stood in for: `export` writes the export given, `forget`
 * and `toggle` are noted, each `curl` its URL and body; what was sent is returned, in order.
 */
function runRecipe(exported: string): { sent: { url: string; body: string }[]; toggled: string[] } {
  const dir = tempDir('dm-resend-')
  cpSync(join(ROOT, 'policies'), join(dir, 'policies'), { recursive: true })
  writeFileSync(join(dir, 'export.ndjson'), exported)
  const shim = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`)
    chmodSync(join(dir, name), 0o755)
  }
  shim(
    'npx',
    `case "$2" in export) cp "${dir}/export.ndjson" "$6";; toggle) printf '%s\\n' "$4" >> "${dir}/toggled";; esac`,
  )
  shim(
    'curl',
    `url=; body=; while [ $# -gt 0 ]; do case "$1" in -d) body=$2; shift;; -H|-w) shift;; http*) url=$1;; esac; shift; done
jq -cn --arg url "$url" --arg body "$body" '{url: $url, body: $body}' >> "${dir}/sent"`,
  )
  writeFileSync(join(dir, 'sent'), '')
  writeFileSync(join(dir, 'toggled'), '')
  execFileSync('bash', ['-c', resendRecipe()], {
    cwd: dir,
    env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, DECISION_MEMORY_URL: 'http://service' },
  })
  const lines = (file: string) => readFileSync(join(dir, file), 'utf8').split('\n').filter((l) => l !== '')
  return { sent: lines('sent').map((l) => JSON.parse(l)), toggled: lines('toggled') }
}

describe("README's re-send of an export, after forget (Questions keyed anew by an upgrade)", () => {
  it('sends back every answer an earlier version stored under an id spaced or invisible at its ends, which the routes now refuse', async () => {
    const { call, memory } = await createTestApp()
    const OBS = { user: 'alice', question: 'Which DB?', all_options: ['pg', 'mysql'], user_choice: 'pg', source: 'user' as const }
    // Stored as a version before took them, past the routes that now refuse them: the hook's
    // decision_id of a tool_use_id " toolu_1" (before 8b0c31a), a client's "d-1\u200b", a session
    // and a project with an invisible end; and ids that keep what shows at their ends.
    await memory.startSession({ user: 'alice', session_id: 's-2\u200b' })
    await memory.setPersonalization({ user: 'alice', session_id: 's-2\u200b', enabled: false })
    await memory.observe([
      { ...OBS, decision_id: ' toolu_1#ad846d480520c878' },
      { ...OBS, decision_id: '\u200btoolu_2#ad846d480520c878', session_id: 's-2\u200b' },
      { ...OBS, decision_id: 'd-1\u200b', project: '\u2060acme' },
      { ...OBS, decision_id: 'd-2 \ufe0f' },
      { ...OBS, decision_id: 'd-❤️' },
      { ...OBS, decision_id: 'd-3' },
    ])
    const before = (await call('GET', '/v1/users/alice/preferences')).body.points
    const exported = await call('GET', '/v1/users/alice/export')
    expect((await call('DELETE', '/v1/users/alice')).status).toBe(200)

    const { sent, toggled } = runRecipe(typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body))
    const answers = []
    for (const { url, body } of sent) answers.push(await call('POST', url.replace('http://service', ''), body))
    expect(answers.filter((a) => a.status >= 400).map((a) => a.body.error.issues)).toEqual([])
    const ids = sent.filter((s) => s.url.endsWith('/v1/observations')).map((s) => JSON.parse(s.body).decision_id)
    expect(ids.sort()).toEqual(['toolu_1#ad846d480520c878', 'toolu_2#ad846d480520c878', 'd-1', 'd-2', 'd-❤️', 'd-3'].sort())
    // Learned as before, at the same points, the project under its name without the invisible end.
    const after = (await call('GET', '/v1/users/alice/preferences')).body.points
    const projects = (points: { projects: string[] }[]) => points.map((p) => p.projects)
    expect(projects(before)).toEqual([['\u2060acme']])
    expect(projects(after)).toEqual([['acme']])
    expect(after.map(({ projects: _, ...p }: { projects: string[] }) => p)).toEqual(before.map(({ projects: _, ...p }: { projects: string[] }) => p))
    expect(toggled).toEqual(['s-2'])
  })
})
