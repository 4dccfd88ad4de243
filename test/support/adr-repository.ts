import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { importAdrCommand } from '../../src/cli/import-adr'
import { captured } from './captured'
import { tempDir } from './temp-dir'

/** An adr-tools record, numbered `n`, with its status. */
export const adrText = (n: number, title: string, status: string): string =>
  `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nReasons for ${title}.\n\n## Decision\n\n${title}.\n`

/**
 * A repository `name` under `parent` with its `doc/adr` records (`files`) and `src/billing.ts`,
 * the records imported into the store at `store` as `import-adr` does; its folder.
 */
export async function importedRepository(parent: string, name: string, store: string, files: Record<string, string>): Promise<string> {
  const repo = join(parent, name)
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'doc', 'adr'), { recursive: true })
  mkdirSync(join(repo, 'src'))
  writeFileSync(join(repo, 'src', 'billing.ts'), 'export {}\n')
  for (const [file, text] of Object.entries(files)) writeFileSync(join(repo, 'doc', 'adr', file), text)
  expect((await captured(() => importAdrCommand([join(repo, 'doc', 'adr'), '--data', store]))).code).toBe(0)
  return repo
}

/**
 * A temporary folder (`prefix`) holding the repository `shop`, whose one record, `0001-use-sqlite.md`
 * (Accepted), is imported into the store at `store` beside it.
 */
export async function shopWithOneRecord(prefix: string): Promise<{ store: string; repo: string }> {
  const parent = tempDir(prefix)
  const store = join(parent, 'store')
  const repo = await importedRepository(parent, 'shop', store, { '0001-use-sqlite.md': adrText(1, 'Use SQLite', 'Accepted') })
  return { store, repo }
}

/**
 * A temporary folder (`prefix`) holding the repository `shop`, whose two records are imported into
 * the store at `store` beside it: `0001-use-sqlite.md`, superseded by `0002-use-postgres.md`.
 */
export async function shopWithTwoRecords(prefix: string): Promise<{ parent: string; store: string; repo: string }> {
  const parent = tempDir(prefix)
  const store = join(parent, 'store')
  const repo = await importedRepository(parent, 'shop', store, {
    '0001-use-sqlite.md': adrText(1, 'Use SQLite', 'Superseded by [2. Use Postgres](0002-use-postgres.md)'),
    '0002-use-postgres.md': adrText(2, 'Use Postgres', 'Accepted'),
  })
  return { parent, store, repo }
}

/**
 * A temporary folder (`prefix`) holding the repository `shop`, whose one record,
 * `0001-use-sqlite.md` (Accepted), in `folder` (from the root: `docs`, `docs/Architecture
 * Decisions`), is imported into the store beside it, then removed with its folder, as `git rm -r`
 * leaves it.
 */
export async function shopWithRecordsDeleted(prefix: string, folder: string): Promise<{ parent: string; store: string; repo: string }> {
  const parent = tempDir(prefix)
  const store = join(parent, 'store')
  const repo = join(parent, 'shop')
  const records = join(repo, folder)
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(records, { recursive: true })
  writeFileSync(join(records, '0001-use-sqlite.md'), adrText(1, 'Use SQLite', 'Accepted'))
  expect((await captured(() => importAdrCommand([records, '--data', store]))).code).toBe(0)
  rmSync(records, { recursive: true })
  return { parent, store, repo }
}
