import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = resolve(import.meta.dirname, '..', 'src')

/** The TypeScript files under a folder of src/, tests left out. */
function sources(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(SRC, folder, name))
}

/** The folders of src/ each file imports from (`cli` for `../cli/file-error`), by what its relative imports resolve to. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((m) => m[1] as string)
  return specifiers.map((specifier) => relative(SRC, resolve(file, '..', specifier)).split('/')[0] as string)
}

describe('the layers of src/ (STYLE.md)', () => {
  it('keeps the domain, the memory, the decisions and the configuration below the doorways: none imports from cli, http or integrations', () => {
    const below = ['domain', 'memory', 'decisions', 'config']
    const wrong = below.flatMap((folder) =>
      sources(folder).flatMap((file) =>
        importedFolders(file)
          .filter((imported) => ['cli', 'http', 'integrations'].includes(imported))
          .map((imported) => `${relative(SRC, file)} imports from ${imported}/`),
      ),
    )
    expect(wrong).toEqual([])
  })
})
