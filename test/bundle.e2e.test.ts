import { execFile } from 'node:child_process'
import { readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as esbuild from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { build } from '../scripts/build.mjs'
import { claudeCodeFixture } from './support/fixtures'
import { cleanEnv, closedPort } from './support/processes'
import { tempDir } from './support/temp-dir'

/**
 * The packages only the service (and the MCP server, the ADR import) use: the hook must not pay
 * for loading them. Not hono itself: the domain's zod is @hono/zod-openapi's (src/domain/zod.ts),
 * which loads hono's core for every command that checks a --user.
 */
const SERVER_PACKAGES = ['@hono/node-server', 'level', 'pino', 'node-cron', '@modelcontextprotocol/sdk', 'simple-statistics', 'yaml', 'swagger-ui-dist']

// Records every module a process resolves, in a file: ESM keeps no list of what it loaded.
const RECORDER = `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(process.env.DM_RESOLVED, resolved.url + '\\n')
  return resolved
}`

let dir: string

// The bundle as `npm ci` builds it, into a folder of this test's own: the checkout's dist/ may be
// missing or older than the sources, and another test may be running it.
beforeAll(async () => {
  dir = tempDir('dm-bundle-')
  await symlink(fileURLToPath(new URL('../node_modules', import.meta.url)), join(dir, 'node_modules'))
  await build(esbuild, join(dir, 'dist', 'cli'))
  await writeFile(join(dir, 'recorder.mjs'), RECORDER)
  await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module'\nregister('./recorder.mjs', import.meta.url)\n`)
}, 60_000)

/** The packages a command of the bundle loads, from node_modules or bundled, run with `input` on stdin. */
async function packagesLoaded(args: string[], input: string, env: Record<string, string> = {}): Promise<Set<string>> {
  const log = join(dir, `resolved-${args.join('-')}.txt`)
  await writeFile(log, '')
  const main = pathToFileURL(join(dir, 'dist', 'cli', 'main.mjs')).href
  const run = `const { main } = await import(${JSON.stringify(main)}); process.exitCode = await main(${JSON.stringify(args)})`
  await new Promise<void>((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', run],
      { env: cleanEnv({ ...env, DM_RESOLVED: log }) },
      (error) => (error === null ? resolve() : reject(error)),
    )
    child.stdin?.end(input)
  })
  const urls = (await readFile(log, 'utf8')).split('\n')
  // Loaded from node_modules, or bundled into a module of dist/ the command loaded (esbuild heads
  // the code of each file it bundled with a comment of its path: `// node_modules/zod/v4/…`).
  const paths = urls.filter((url) => url.includes('/node_modules/'))
  for (const url of new Set(urls.filter((u) => u.startsWith('file:') && u.includes('/dist/cli/')))) {
    for (const [, path] of (await readFile(fileURLToPath(url), 'utf8')).matchAll(/^\/\/ (node_modules\/\S+)$/gm)) paths.push(`/${path as string}`)
  }
  const names = paths.map((path) => {
    const [first = '', second = ''] = path.slice(path.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/')
    return first.startsWith('@') ? `${first}/${second}` : first
  })
  return new Set(names)
}

describe('the bundle: a command loads only the packages it uses', () => {
  it('`serve --help` loads the service’s packages (what the recorder sees)', async () => {
    const loaded = await packagesLoaded(['serve', '--help'], '')
    // hono and @hono/node-server bundled, level and pino from node_modules: both are seen.
    expect([...loaded]).toEqual(expect.arrayContaining(['hono', '@hono/node-server', 'level', 'pino']))
  })

  it('the hook, sending a PostToolUse to a service that is down, loads none of the service’s packages', async () => {
    const port = await closedPort()
    const loaded = await packagesLoaded(['hook'], JSON.stringify(claudeCodeFixture('post-tool-use-single')), {
      DECISION_MEMORY_URL: `http://127.0.0.1:${port}`,
      DECISION_MEMORY_SPOOL: join(dir, 'spool.ndjson'),
    })
    expect(SERVER_PACKAGES.filter((name) => loaded.has(name))).toEqual([])
    // It did run: what it could not deliver is in the spool.
    expect(await readFile(join(dir, 'spool.ndjson'), 'utf8')).toContain('toolu_01QxAmPLe0001TierChoice')
  })
})
