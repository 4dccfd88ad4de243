import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { DecisionRecord } from './decisions/decision'
import { tempDir } from '../test/support/temp-dir'
import { decisionsOfFile, globScopedOver, importedFrom, noDecisionOfFile, scopedTo } from './why-file'

/** A decision in force scoped to `path`, as the store lists it (only what why-file reads). */
const scoped = (key: string, path: string) => ({ key, status: 'accepted', scope: { path }, imported: null }) as unknown as DecisionRecord

describe('why FILE: a relative file named from the repository root, asked in a folder below it', () => {
  const parent = tempDir('dm-why-file-root-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'src', 'billing'), { recursive: true })
  writeFileSync(join(repo, 'src', 'billing', 'invoice.ts'), 'export {}\n')
  const decisions = [scoped('D-1', 'src/billing'), scoped('D-2', 'web')]
  const doorway = { folder: join(repo, 'src'), here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }

  it('is read from the root when the folder asked in has no such file: an agent names files from the root', () => {
    expect(decisionsOfFile('src/billing/invoice.ts', decisions, join(repo, 'src'))).toEqual({ path: 'src/billing/invoice.ts', found: [{ key: 'D-1', from: 'scope', scope: 'src/billing' }] })
    expect(noDecisionOfFile('src/billing/invoice.ts', 'src/billing/invoice.ts', doorway)).not.toContain('there is no such file')
  })

  it('is read from the folder asked in first, where it is there', () => {
    expect(decisionsOfFile('billing/invoice.ts', decisions, join(repo, 'src'))).toEqual({ path: 'src/billing/invoice.ts', found: [{ key: 'D-1', from: 'scope', scope: 'src/billing' }] })
    // Where the root has a file of that path too, the folder's is the one.
    for (const at of [join(repo, 'web'), join(repo, 'src', 'web')]) mkdirSync(at, { recursive: true }), writeFileSync(join(at, 'app.ts'), 'export {}\n')
    expect(decisionsOfFile('web/app.ts', decisions, join(repo, 'src'))).toEqual({ path: 'src/web/app.ts', found: [] })
    expect(decisionsOfFile('web/app.ts', decisions, repo)).toEqual({ path: 'web/app.ts', found: [{ key: 'D-2', from: 'scope', scope: 'web' }] })
  })

  it('is not read from beside the root: `..` named from the root leaves the repository', () => {
    const beside = join(parent, 'web', 'src', 'billing')
    mkdirSync(beside, { recursive: true })
    writeFileSync(join(beside, 'invoice.ts'), 'export {}\n')
    // From src/, `../web/src/billing/invoice.ts` is the repository's web/, which it has not.
    expect(decisionsOfFile('../web/src/billing/invoice.ts', decisions, join(repo, 'src'))).toEqual({ path: 'web/src/billing/invoice.ts', found: [{ key: 'D-2', from: 'scope', scope: 'web' }] })
    expect(noDecisionOfFile('../web/src/billing/invoice.ts', 'web/src/billing/invoice.ts', doorway)).toContain('there is no such file here')
  })

  it('lists, after those scoped there, a decision whose stored glob scope would hold it but for the glob', () => {
    const globbed = [...decisions, scoped('D-3', 'src/billing/**'), scoped('D-4', 'src\\*'), scoped('D-5', 'web/*'), scoped('D-6', '/src/*')]
    expect(decisionsOfFile('src/billing/invoice.ts', globbed, repo).found).toEqual([
      { key: 'D-1', from: 'scope', scope: 'src/billing' },
      { key: 'D-3', from: 'glob', scope: 'src/billing/**' },
      { key: 'D-4', from: 'glob', scope: 'src\\*' },
    ])
    // One revoked is in force nowhere: not listed, as one scoped there is not.
    const revoked = { ...scoped('D-7', 'src/**'), status: 'revoked' } as DecisionRecord
    expect(decisionsOfFile('src/billing/invoice.ts', [revoked], repo).found).toEqual([])
  })

  it('is said to be no file where neither has it', () => {
    expect(noDecisionOfFile('src/nothing.ts', 'src/src/nothing.ts', doorway)).toContain('there is no such file here')
  })
})

describe('why FILE: a record deleted since, named from the repository root in a folder below it', () => {
  const parent = tempDir('dm-why-file-gone-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'src'), { recursive: true })
  // Imported from shop's doc/adr, the file and its folder deleted since (git rm).
  const gone = { key: 'ADR-0002', status: 'accepted', scope: { path: null }, imported: { path: '0002-use-sqlite.md', line: 1, format: 'adr-tools', folder: 'shop/doc/adr', fingerprint: 'x' } }
  const decisions = [gone as unknown as DecisionRecord]

  it('is found by the root\'s folder and name, as asked at the root', () => {
    const atRoot = decisionsOfFile('doc/adr/0002-use-sqlite.md', decisions, repo)
    expect(atRoot.found).toEqual([{ key: 'ADR-0002', from: 'record', line: 1 }])
    expect(decisionsOfFile('doc/adr/0002-use-sqlite.md', decisions, join(repo, 'src'))).toEqual(atRoot)
  })
})

describe('why FILE: a folder of records import-adr read', () => {
  const parent = tempDir('dm-why-file-folder-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'doc', 'adr'), { recursive: true })
  const record = (key: string, path: string, folder: string, line = 1) =>
    ({ key, status: 'accepted', scope: { path: null }, imported: { path, line, format: 'adr-tools', folder, fingerprint: 'x' } }) as unknown as DecisionRecord
  const decisions = [
    record('ADR-0002', '0002-use-postgres.md', 'shop/doc/adr'),
    record('D-002', 'DECISIONS.md', 'shop/doc/adr', 8),
    record('ADR-0001', '0001-use-sqlite.md', 'shop/doc/adr'),
    record('D-001', 'DECISIONS.md', 'shop/doc/adr', 3),
    // Another folder's, and another repository's folder of the same name.
    record('ADR-0009', '0009-other.md', 'shop/doc/other'),
    record('ADR-0003', '0003-web.md', 'web/doc/adr'),
    scoped('D-100', 'doc'),
  ]

  it('lists the decisions imported from its records, by file and line, each with its record, then those scoped to it', () => {
    // `import-adr doc/adr` imported them from it: a version before this said none was.
    expect(decisionsOfFile('doc/adr', decisions, repo)).toEqual({
      path: 'doc/adr',
      found: [
        { key: 'ADR-0001', from: 'record', line: 1, file: join('doc/adr', '0001-use-sqlite.md') },
        { key: 'ADR-0002', from: 'record', line: 1, file: join('doc/adr', '0002-use-postgres.md') },
        { key: 'D-001', from: 'record', line: 3, file: join('doc/adr', 'DECISIONS.md') },
        { key: 'D-002', from: 'record', line: 8, file: join('doc/adr', 'DECISIONS.md') },
        { key: 'D-100', from: 'scope', scope: 'doc' },
      ],
    })
    // Named as the folder was: from doc/, `adr`.
    expect(decisionsOfFile('adr', decisions, join(repo, 'doc')).found[0]).toEqual({ key: 'ADR-0001', from: 'record', line: 1, file: join('adr', '0001-use-sqlite.md') })
  })

  it('lists a record imported with no folder (POST /v1/decisions/import takes one without) whose file is in it, as its file finds it', () => {
    writeFileSync(join(repo, 'doc', 'adr', '0007-use-redis.md'), '# 7. Use Redis\n')
    const bare = { key: 'ADR-0007', status: 'accepted', scope: { path: null }, imported: { path: '0007-use-redis.md', line: 1, format: 'adr-tools', fingerprint: 'x' } } as unknown as DecisionRecord
    // One whose file is not in it: not this folder's.
    const elsewhere = { ...bare, key: 'ADR-0008', imported: { ...bare.imported, path: '0008-elsewhere.md' } } as unknown as DecisionRecord
    expect(decisionsOfFile('doc/adr/0007-use-redis.md', [bare], repo).found).toEqual([{ key: 'ADR-0007', from: 'record', line: 1 }])
    expect(decisionsOfFile('doc/adr', [bare, elsewhere], repo).found).toEqual([{ key: 'ADR-0007', from: 'record', line: 1, file: join('doc/adr', '0007-use-redis.md') }])
  })

  it('lists no record of a folder above or beside it: import-adr reads a folder\'s own files', () => {
    expect(decisionsOfFile('doc', decisions, repo).found).toEqual([{ key: 'D-100', from: 'scope', scope: 'doc' }])
  })
})

describe('why FILE: the folder of records deleted since, its records with it (git rm -r)', () => {
  const parent = tempDir('dm-why-file-gone-folder-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'src'), { recursive: true })
  const record = (key: string, path: string) =>
    ({ key, status: 'accepted', scope: { path: null }, imported: { path, line: 1, format: 'adr-tools', folder: 'shop/doc/adr', fingerprint: 'x' } }) as unknown as DecisionRecord
  const decisions = [record('ADR-0002', '0002-use-postgres.md'), record('ADR-0001', '0001-use-sqlite.md')]

  it('lists the decisions imported from its records, as when it was there, at the root or in a folder below', () => {
    // Git keeps no empty folder: a version before this read the folder gone as a file and said none was imported from it.
    const atRoot = decisionsOfFile('doc/adr', decisions, repo)
    expect(atRoot).toEqual({
      path: 'doc/adr',
      found: [
        { key: 'ADR-0001', from: 'record', line: 1, file: join('doc/adr', '0001-use-sqlite.md') },
        { key: 'ADR-0002', from: 'record', line: 1, file: join('doc/adr', '0002-use-postgres.md') },
      ],
    })
    expect(decisionsOfFile('doc/adr', decisions, join(repo, 'src'))).toEqual(atRoot)
    // Its records' files, each still found by name.
    expect(decisionsOfFile('doc/adr/0001-use-sqlite.md', decisions, repo).found).toEqual([{ key: 'ADR-0001', from: 'record', line: 1 }])
  })
})

describe('why FILE: a folder of records none was imported from', () => {
  const parent = tempDir('dm-why-file-not-imported-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'doc', 'adr'), { recursive: true })
  mkdirSync(join(repo, 'src'), { recursive: true })
  writeFileSync(join(repo, 'doc', 'adr', 'README.md'), '# Decisions\n')
  writeFileSync(join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '# 1. Use SQLite\n')
  writeFileSync(join(repo, 'src', 'README.md'), '# src\n')
  writeFileSync(join(repo, 'src', 'CONTRIBUTING.md'), '# How to\n')
  const doorway = { folder: repo, here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }

  it('says import-adr reads it, not how a point is explained in a folder of the code (also as of a moment before the import)', () => {
    expect(noDecisionOfFile('doc/adr', 'doc/adr', doorway)).toBe("no decision was imported from doc/adr or is scoped to its path (import-adr doc/adr reads its folder's records)")
    expect(noDecisionOfFile('doc/adr', 'doc/adr', doorway, '2020-01-01T00:00:00Z')).toBe(
      "as of 2020-01-01T00:00:00Z, no decision was imported from doc/adr or is scoped to its path (import-adr doc/adr reads its folder's records)",
    )
    // A folder of the code, with a README and a CONTRIBUTING.md: as before.
    expect(noDecisionOfFile('src', 'src', doorway)).toContain('(decisions with no path apply everywhere: GET /v1/decisions/applicable?path=src;')
  })
})

describe('why FILE: a folder of records with a space in its path, none imported from it', () => {
  const parent = tempDir('dm-why-file-spaced-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'design notes', 'adr'), { recursive: true })
  writeFileSync(join(repo, 'design notes', 'adr', '0001-use-sqlite.md'), '# 1. Use SQLite\n')
  const doorway = { folder: repo, here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }

  it('says the import-adr to run with the folder quoted, as a shell reads it', () => {
    // A version before this said `import-adr design notes/adr`: run as printed, two folders, neither there.
    expect(noDecisionOfFile('design notes/adr', 'design notes/adr', doorway)).toBe(
      "no decision was imported from design notes/adr or is scoped to its path (import-adr 'design notes/adr' reads its folder's records)",
    )
    expect(noDecisionOfFile('design notes/adr/0001-use-sqlite.md', 'design notes/adr/0001-use-sqlite.md', doorway)).toBe(
      "no decision was imported from design notes/adr/0001-use-sqlite.md or is scoped to its path (import-adr 'design notes/adr' reads its folder's records)",
    )
  })
})

describe('why FILE: a file of the code whose path a URL cannot hold as it is', () => {
  const parent = tempDir('dm-why-file-query-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'src', 'a b'), { recursive: true })
  const paths = ['src/a b/x&y#1?.ts', 'src/c++.ts', 'src/100%.ts']
  for (const path of paths) writeFileSync(join(repo, path), 'export {}\n')
  const doorway = { folder: repo, here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }
  /** What a hono route, as the service's are, reads as `path` from a query as printed. */
  const readBack = async (suggested: string) => {
    const app = new Hono().get('/v1/decisions/applicable', (c) => c.text(c.req.query('path') ?? '(none)'))
    return (await app.request(`http://decision-memory.test${suggested}`)).text()
  }

  it('says the applicable route with the path encoded as a query value, which the service reads back as that path', async () => {
    // A version before this printed `?path=src/a b/x&y#1?.ts`: no URL as printed, and a query of `src/a b/x`.
    expect(noDecisionOfFile(paths[0]!, paths[0]!, doorway)).toContain('GET /v1/decisions/applicable?path=src/a%20b/x%26y%231%3F.ts;')
    for (const path of paths) {
      const suggested = /GET (\S+);/.exec(noDecisionOfFile(path, path, doorway))?.[1] ?? ''
      expect(await readBack(suggested)).toBe(path)
    }
    // A path a query holds as it is, as it was.
    writeFileSync(join(repo, 'src', 'x.ts'), 'export {}\n')
    expect(noDecisionOfFile('src/x.ts', 'src/x.ts', doorway)).toContain('GET /v1/decisions/applicable?path=src/x.ts;')
  })
})

describe('why FILE: AXME Code\'s folder, whose decisions/ import-adr reads', () => {
  const parent = tempDir('dm-why-file-axme-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, '.axme-code', 'decisions'), { recursive: true })
  const decision = { key: 'D-021', status: 'accepted', scope: { path: null }, imported: { path: 'D-021-never-force-push.md', line: 1, format: 'axme-code', folder: 'shop/.axme-code/decisions', fingerprint: 'x' } }
  const decisions = [decision as unknown as DecisionRecord]

  it('lists the decisions of its decisions/, as `import-adr .axme-code` read them', () => {
    // A version before this said none was imported from .axme-code, the folder README says to import.
    const found = [{ key: 'D-021', from: 'record', line: 1, file: join('.axme-code', 'decisions', 'D-021-never-force-push.md') }]
    expect(decisionsOfFile('.axme-code', decisions, repo)).toEqual({ path: '.axme-code', found })
    expect(decisionsOfFile('.axme-code/decisions', decisions, repo).found).toEqual(found)
  })

  it('says import-adr reads it, as of a moment before the import', () => {
    writeFileSync(join(repo, '.axme-code', 'decisions', 'D-021-never-force-push.md'), '---\nid: D-021\n---\n')
    const doorway = { folder: repo, here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }
    expect(noDecisionOfFile('.axme-code', '.axme-code', doorway, '2020-01-01T00:00:00Z')).toBe(
      "as of 2020-01-01T00:00:00Z, no decision was imported from .axme-code or is scoped to its path (import-adr .axme-code reads its folder's records)",
    )
  })
})

describe('why FILE: a folder of records named through a symbolic link', () => {
  const parent = tempDir('dm-why-file-link-')
  const repo = join(parent, 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'doc', 'adr'), { recursive: true })
  writeFileSync(join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '# 1. Use SQLite\n')
  symlinkSync(join('doc', 'adr'), join(repo, 'adrs'))
  const decisions = [
    { key: 'ADR-0001', status: 'accepted', scope: { path: null }, imported: { path: '0001-use-sqlite.md', line: 1, format: 'adr-tools', folder: 'shop/doc/adr', fingerprint: 'x' } } as unknown as DecisionRecord,
  ]

  it('lists the decisions imported where the link leads, the folder and its records named through the link', () => {
    // `import-adr doc/adr` named them by the folder; a version before this found none through `adrs`.
    expect(decisionsOfFile('adrs', decisions, repo).found).toEqual([{ key: 'ADR-0001', from: 'record', line: 1, file: join('adrs', '0001-use-sqlite.md') }])
    expect(decisionsOfFile('adrs/0001-use-sqlite.md', decisions, repo).found).toEqual([{ key: 'ADR-0001', from: 'record', line: 1 }])
    expect(decisionsOfFile(join(repo, 'adrs'), decisions, parent).found).toHaveLength(1)
  })
})

describe('why FILE: records named through a symbolic link, in a folder a decision is scoped to', () => {
  const repo = join(tempDir('dm-why-file-link-scoped-'), 'shop')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'doc', 'adr'), { recursive: true })
  mkdirSync(join(repo, 'docs'), { recursive: true })
  writeFileSync(join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '# 1. Use SQLite\n')
  symlinkSync(join('..', 'doc', 'adr'), join(repo, 'docs', 'decisions'))
  const decisions = [
    { key: 'ADR-0001', status: 'accepted', scope: { path: null }, imported: { path: '0001-use-sqlite.md', line: 1, format: 'adr-tools', folder: 'shop/doc/adr', fingerprint: 'x' } } as unknown as DecisionRecord,
    { key: 'D-DOCS', status: 'accepted', scope: { path: 'docs' }, imported: null } as unknown as DecisionRecord,
  ]

  it('lists the records where the link leads, with the decision scoped to the folder the link is in', () => {
    // The decision scoped to `docs` was found through the link's name, and the link was then not
    // followed: its records were left out, as if none had been imported from them.
    expect(decisionsOfFile('docs/decisions', decisions, repo).found).toEqual([
      { key: 'ADR-0001', from: 'record', line: 1, file: join('docs', 'decisions', '0001-use-sqlite.md') },
      { key: 'D-DOCS', from: 'scope', scope: 'docs' },
    ])
    expect(decisionsOfFile('docs/decisions/0001-use-sqlite.md', decisions, repo).found).toEqual([
      { key: 'ADR-0001', from: 'record', line: 1 },
      { key: 'D-DOCS', from: 'scope', scope: 'docs' },
    ])
  })
})

describe('why FILE: the decisions of a file by key, as the store and GET /v1/decisions list them', () => {
  // Where localeCompare and the store differ: it put `a-1` before `B-1` and `D_1` before `D-1`.
  const keys = ['a-1', 'D_1', 'B-1', 'D-1']
  const byStore = ['B-1', 'D-1', 'D_1', 'a-1']

  it('lists those scoped to it, and those whose glob would hold it, in that order', () => {
    expect(scopedTo('src/billing/invoice.ts', keys.map((k) => scoped(k, 'src'))).map((d) => d.key)).toEqual(byStore)
    expect(globScopedOver('src/billing/invoice.ts', keys.map((k) => scoped(k, 'src/**'))).map((d) => d.key)).toEqual(byStore)
  })

  it('lists one stored with its path spaced at its ends (by a version before that was refused) under the folder it names, as it applies there', () => {
    expect(scopedTo('src/billing/invoice.ts', [scoped('S-1', ' src/billing'), scoped('S-2', 'src/billing-v2 ')]).map((d) => d.key)).toEqual(['S-1'])
  })

  it('lists the decisions of one line of a record in that order', () => {
    const imported = keys.map((key) => ({ key, status: 'accepted', scope: { path: null }, imported: { path: '0001-x.md', line: 1 } }) as unknown as DecisionRecord)
    expect(importedFrom('docs/adr/0001-x.md', imported).map((d) => d.key)).toEqual(byStore)
  })
})

describe('why FILE: a decision scoped there that is no longer in force', () => {
  const repo = tempDir('dm-why-file-gone-')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'src', 'auth'), { recursive: true })
  mkdirSync(join(repo, 'prompts'), { recursive: true })
  writeFileSync(join(repo, 'src', 'auth', 'shim.ts'), 'export {}\n')
  writeFileSync(join(repo, 'src', 'auth', 'login.ts'), 'export {}\n')
  writeFileSync(join(repo, 'prompts', 'router.md'), 'The memory expert can only read.\n')
  const doorway = { folder: repo, here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }
  const was = (key: string, path: string, status: string, superseded_by: string | null = null) =>
    ({ key, status, superseded_by, scope: { path }, imported: null }) as unknown as DecisionRecord

  // Seed 001's reviewer, about to "fix" a file: a decision deprecated there, or superseded by one
  // that holds elsewhere, is still the why of the file, and was said to be no decision at all.
  it('names it with its status, rather than saying no decision is scoped to the path', () => {
    const decisions = [was('OLD-1', 'src/auth', 'deprecated'), was('R1', 'prompts/router.md', 'superseded', 'R3'), was('D-9', 'web', 'revoked')]
    expect(decisionsOfFile('src/auth/shim.ts', decisions, repo).found).toEqual([])
    const said = noDecisionOfFile('src/auth/shim.ts', 'src/auth/shim.ts', doorway, undefined, decisions)
    expect(said).not.toContain('or is scoped to its path')
    expect(said).toContain('no decision was imported from src/auth/shim.ts or is in force scoped to its path')
    expect(said).toContain('; not in force there: OLD-1 (deprecated, scoped to src/auth): why OLD-1 tells its history')
    expect(said).not.toContain('D-9')
    const router = noDecisionOfFile('prompts/router.md', 'prompts/router.md', doorway, undefined, decisions)
    expect(router).toContain('; not in force there: R1 (superseded by R3, scoped to prompts/router.md): why R1 tells its history')
    // Several, by key; the MCP tool says how it is asked there.
    const two = [...decisions, was('OLD-0', 'src', 'proposed')]
    const mcp = { ...doorway, whyOf: (key: string) => `\`why\` with \`key\` ${JSON.stringify(key)}` }
    expect(noDecisionOfFile('src/auth/login.ts', 'src/auth/login.ts', mcp, undefined, two)).toContain(
      '; not in force there: OLD-0 (proposed, scoped to src), OLD-1 (deprecated, scoped to src/auth): `why` with `key` "OLD-0" tells its history',
    )
  })

  it('says as before where none was ever scoped there', () => {
    expect(noDecisionOfFile('src/auth/shim.ts', 'src/auth/shim.ts', doorway, undefined, [was('D-9', 'web', 'revoked')])).toBe(
      noDecisionOfFile('src/auth/shim.ts', 'src/auth/shim.ts', doorway),
    )
  })
})

describe('why FILE: decisions not in force there, stored with a glob scope or by the hundred', () => {
  const repo = tempDir('dm-why-file-gone-many-')
  mkdirSync(join(repo, '.git'), { recursive: true })
  mkdirSync(join(repo, 'src', 'auth'), { recursive: true })
  writeFileSync(join(repo, 'src', 'auth', 'shim.ts'), 'export {}\n')
  const doorway = { folder: repo, here: 'here', pointAt: (at: string) => `why --point POINT --path ${at}` }
  const was = (key: string, path: string, status: string) => ({ key, status, superseded_by: null, scope: { path }, imported: null }) as unknown as DecisionRecord

  // A version before this stored `src/auth/**` as a scope; deprecated, it was meant for the file as
  // much as an accepted one is (globScopedOver), and was said to be no decision at all.
  it('names one stored with a glob whose folder holds the file, as one in force is found', () => {
    const said = noDecisionOfFile('src/auth/shim.ts', 'src/auth/shim.ts', doorway, undefined, [was('OLD-2', 'src/auth/**', 'deprecated'), was('OLD-3', 'web/*', 'revoked')])
    expect(said).toContain('no decision was imported from src/auth/shim.ts or is in force scoped to its path')
    expect(said).toContain('; not in force there: OLD-2 (deprecated, scoped to the glob src/auth/**): why OLD-2 tells its history')
    expect(said).not.toContain('OLD-3')
  })

  // 300 decisions deprecated under `src` made the one line of the refusal 12,000 characters long.
  it('names the first few by key and counts the rest', () => {
    const many = Array.from({ length: 300 }, (_, i) => was(`OLD-${String(i + 1).padStart(3, '0')}`, 'src', 'deprecated'))
    const said = noDecisionOfFile('src/auth/shim.ts', 'src/auth/shim.ts', doorway, undefined, many)
    expect(said).toContain('; not in force there: OLD-001 (deprecated, scoped to src), OLD-002 (deprecated, scoped to src), OLD-003 (deprecated, scoped to src), OLD-004 (deprecated, scoped to src), OLD-005 (deprecated, scoped to src) and 295 more: why OLD-001 tells its history')
    expect(said.length).toBeLessThan(600)
  })
})
