import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '..', 'src')

/** The TypeScript files under a folder of src/ (its subfolders too), tests left out. */
function sources(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(SRC, folder, name))
}

/** The TypeScript files of src/ itself, not of its folders, tests left out. */
function topSources(): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(SRC, entry.name))
}

/** What a module's text imports, as written: `import … from`, `export … from`, `import '…'` and `import('…')`. */
function specifiersIn(text: string): string[] {
  const statics = [...text.matchAll(/^(?:import|export)\s+(?:type\s+)?(?:[\w*$\s,]*\{[^}]*\}|[\w*$\s,]+?)\s*from\s+'([^']+)'/gm)].map((m) => m[1] as string)
  const bare = [...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1] as string)
  const dynamic = [...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] as string)
  return [...statics, ...bare, ...dynamic]
}

/**
 * The folders of src/ a module imports from (`cli` for `../cli/file-error`), by what its relative
 * imports resolve to; a module of src/ itself (`../open-store`) is `src`.
 */
function foldersImported(file: string, text: string): string[] {
  return specifiersIn(text)
    .filter((specifier) => /^\.{1,2}\//.test(specifier))
    .map((specifier) => relative(SRC, resolve(file, '..', specifier)).split('/'))
    .map((parts) => (parts.length === 1 ? 'src' : (parts[0] as string)))
}

/** Each import of `files` from one of `barred` (folders of src/), said as `memory/x.ts imports from cli/`. */
function importsFrom(files: readonly string[], barred: readonly string[]): string[] {
  return files.flatMap((file) =>
    foldersImported(file, readFileSync(file, 'utf8'))
      .filter((folder) => barred.includes(folder))
      .map((folder) => `${relative(SRC, file)} imports from ${folder}/`),
  )
}

/** The doorways (STYLE.md 4): nothing below them imports them. */
const DOORWAYS = ['cli', 'http', 'integrations']

/** Node's modules the domain may use: computation only, no file, network, process or clock. */
const PURE_NODE = ['node:crypto', 'node:util', 'node:path', 'node:url', 'node:buffer']

/** Packages that are I/O, a logger, a store, a scheduler or a server: none belongs in the domain. */
const IMPURE_PACKAGES = ['pino', 'level', 'classic-level', 'memory-level', 'abstract-level', 'node-cron', 'hono', '@hono/node-server', '@modelcontextprotocol/sdk']

/** Reads of the clock, the environment, randomness or the console, in code (comments left out). */
const IMPURE_CODE: ReadonlyArray<[RegExp, string]> = [
  [/\bDate\.now\s*\(/, 'reads the clock (Date.now)'],
  [/\bnew Date\(\s*\)/, 'reads the clock (new Date())'],
  [/\bperformance\.now\s*\(/, 'reads the clock (performance.now)'],
  [/\bprocess\./, 'reads the process (process.)'],
  [/\bconsole\./, 'logs (console.)'],
  [/\bMath\.random\s*\(/, 'draws at random (Math.random)'],
]

/** Why a domain module's text is not pure (STYLE.md 1), one line each; none when it is. */
function impurities(name: string, file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
  const said: string[] = []
  for (const folder of foldersImported(file, text)) if (folder !== 'domain') said.push(`${name} imports from ${folder}/`)
  for (const specifier of specifiersIn(text)) {
    if (/^\.{1,2}\//.test(specifier)) continue
    const builtin = specifier.startsWith('node:') || (!specifier.includes('/') && ['fs', 'os', 'net', 'http', 'https', 'child_process', 'process', 'worker_threads', 'perf_hooks', 'dns', 'readline', 'timers'].includes(specifier))
    if (builtin ? !PURE_NODE.includes(specifier) : IMPURE_PACKAGES.some((p) => specifier === p || specifier.startsWith(`${p}/`))) said.push(`${name} imports ${specifier}`)
  }
  for (const [pattern, what] of IMPURE_CODE) if (pattern.test(code)) said.push(`${name} ${what}`)
  return said
}

describe('the layers of src/ (STYLE.md)', () => {
  it('keeps the domain pure: it imports only the domain, no Node module of I/O, logger or store, and reads no clock', () => {
    const wrong = sources('domain').flatMap((file) => impurities(relative(SRC, file), file, readFileSync(file, 'utf8')))
    expect(wrong).toEqual([])
  })

  it('keeps the memory, the decisions and the configuration below the doorways: none imports from cli, http or integrations', () => {
    expect(importsFrom(['memory', 'decisions', 'config'].flatMap(sources), DOORWAYS)).toEqual([])
  })

  it('keeps the modules of src/ itself (the stores opened, the parts doorways share) below the doorways too', () => {
    expect(importsFrom(topSources(), DOORWAYS)).toEqual([])
  })

  it('keeps the HTTP layer and the integrations off the CLI, the doorway that starts them', () => {
    expect(importsFrom([...sources('http'), ...sources('integrations')], ['cli'])).toEqual([])
  })

  it('reads every form of import, and every impurity, the checks above look for', () => {
    const file = join(SRC, 'domain', 'example.ts')
    const text = [
      `import { a } from '../cli/options'`,
      `import type {\n  B,\n} from '../http/errors'`,
      `export { c } from '../integrations/mcp'`,
      `import '../memory/store'`,
      `const d = await import('../open-store')`,
      `import { e } from './labels'`,
      `import { readFileSync } from 'node:fs'`,
      `import { createHash } from 'node:crypto'`,
      `import pino from 'pino'`,
      `import { z } from '@hono/zod-openapi'`,
      `// Date.now() in a comment is no read of the clock`,
      `const url = 'http://example.com' // and new Date() here neither`,
      `export const at = () => new Date()`,
      `export const t = Date.now()`,
    ].join('\n')
    expect(foldersImported(file, text)).toEqual(['cli', 'http', 'integrations', 'domain', 'memory', 'src'])
    expect(impurities('domain/example.ts', file, text)).toEqual([
      'domain/example.ts imports from cli/',
      'domain/example.ts imports from http/',
      'domain/example.ts imports from integrations/',
      'domain/example.ts imports from memory/',
      'domain/example.ts imports from src/',
      'domain/example.ts imports node:fs',
      'domain/example.ts imports pino',
      'domain/example.ts reads the clock (Date.now)',
      'domain/example.ts reads the clock (new Date())',
    ])
  })
})
