import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { captured } from '../../test/support/captured'
import { closedPort } from '../../test/support/processes'
import { Level } from 'level'
import type { DecisionRecord } from '../decisions/decision'
import { CHECKOUT_DATA_DIR } from '../config/bin-path'
import { IMPORT_ADR_HELP, importAdrCommand, keptUnderOtherKeys, movedAway, renamedAway } from './import-adr'

/** Runs import-adr in process, with what it writes. */
const run = (argv: string[]) => captured(() => importAdrCommand(argv))

const folders: string[] = []
// A dry run asks the store what the import would do: none at the service's URL nor in this
// checkout's data, which a developer's service or another test may hold, but the store a test names.
beforeEach(async () => {
  vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
  vi.stubEnv('DECISION_MEMORY_DATA', join(tmpdir(), `dm-import-adr-no-store-${process.pid}`))
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function folderOf(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'dm-import-adr-'))
  folders.push(folder)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text)
  return folder
}

const adr = (n: number, title: string, status = 'Accepted') =>
  `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`

describe('import-adr given more than one argument', () => {
  it('says how many, and to give the folder, for the files a glob (docs/adr/*) expands to', async () => {
    await expect(run(['docs/adr/0001-a.md', 'docs/adr/0002-b.md', 'docs/adr/0003-c.md', 'docs/adr/0004-d.md', '--dry-run'])).rejects.toThrow(
      'import-adr takes one folder, not 4 arguments (docs/adr/0001-a.md docs/adr/0002-b.md docs/adr/0003-c.md …): give the folder the records are in (docs/adr, not docs/adr/*)',
    )
    await expect(run(['--dry-run'])).rejects.toThrow('import-adr needs one folder: import-adr DIR')
  })
})

describe('import-adr --dry-run', () => {
  it('counts the records read, says how many of them cannot be stored, and apart what could not be read', async () => {
    const dir = folderOf({
      // Each supersedes the other: read, and refused.
      '0001-use-a.md': adr(1, 'Use A', 'Accepted\n\nSupersedes [2. Use B](0002-use-b.md)'),
      '0002-use-b.md': adr(2, 'Use B', 'Accepted\n\nSupersedes [1. Use A](0001-use-a.md)'),
      // A link to no record: the record is read, the link is not.
      '0003-use-c.md': adr(3, 'Use C', 'Accepted\n\nSupersedes [9. Use X](0009-use-x.md)'),
      '0004-notes.md': '# Notes\n\nNothing decided here.\n',
      '0005-use-e.md': '---\nstatus: accepted\n---\n\n# Use E\n\n## Decision Outcome\n\nChosen option: "E".\n',
    })
    const { code, stdout, stderr } = await run([dir, '--dry-run'])
    expect(code).toBe(0)
    expect(stdout).toBe(
      `read 4 records in ${dir} (3 adr-tools, 1 madr), 2 of which cannot be stored; 2 files, sections, links or dates could not be read\n` +
        '  ADR-0003  accepted  2024-01-03  Use C\n' +
        '  ADR-0005  accepted  no date  Use E\n',
    )
    expect(stderr.split('\n').filter((l) => l !== '')).toHaveLength(4)
    expect(stderr).toContain(`${join(dir, '0001-use-a.md')}:1: ADR-0001 cannot be stored`)
  })

  it('counts a record read as accepted for want of a status among those read, not among what could not be read', async () => {
    const dir = folderOf({
      // As MADR 4 writes its own records: front matter with no status.
      '0001-use-a.md': '---\nnav_order: 1\n---\n\n# Use A\n\n## Decision Outcome\n\nChosen option: "A".\n',
      '0002-use-b.md': '---\nstatus: accepted\ndate: 5 juin 2023\n---\n\n# Use B\n\n## Decision Outcome\n\nChosen option: "B".\n',
    })
    const { stdout, stderr } = await run([dir, '--dry-run'])
    expect(stdout.split('\n')[0]).toBe(`read 2 records in ${dir} (2 madr); 1 file, section, link or date could not be read`)
    expect(stderr).toContain(`${join(dir, '0001-use-a.md')}:1: the front matter has no status; read as accepted (MADR makes the field optional)\n`)
    const json = JSON.parse((await run([dir, '--dry-run', '--json'])).stdout)
    expect(json.read.problems).toContainEqual({ path: join(dir, '0001-use-a.md'), line: 1, message: 'the front matter has no status; read as accepted (MADR makes the field optional)', read: true })
  })

  it('quotes a long status by its start and length, on stderr and in --json alike, where it printed a line of 100 KB', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A', 'x'.repeat(100_000)) })
    const message = `unknown status "${'x'.repeat(100)}…" (100,000 characters)`
    const { stderr } = await run([dir, '--dry-run'])
    expect(stderr).toContain(`${join(dir, '0001-use-a.md')}:7: ${message}\n`)
    expect(stderr.length).toBeLessThan(1_000)
    const json = JSON.parse((await run([dir, '--dry-run', '--json'])).stdout)
    expect(json.read.problems).toEqual([{ path: join(dir, '0001-use-a.md'), line: 7, message }])
  })

  it('lists the records read, and says why, when the store it asks what the import would do is held by another process', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--data', store])).code).toBe(0)
    const held = new Level(store)
    await held.open()
    try {
      const { code, stdout, stderr } = await run([dir, '--data', store, '--dry-run'])
      expect(code).toBe(0)
      expect(stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n`)
      expect(stderr).toMatch(/^decision-memory import-adr: the store could not say what the import would do \(the store in .* is in use by another process, .*\): the records read are listed, not what is stored nor carried over to a new key\n$/)
    } finally {
      await held.close()
    }
  })

  it('makes no store in an empty data folder, where the import would make one, and lists the records read', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    const store = folderOf({})
    const { code, stdout, stderr } = await run([dir, '--data', store, '--dry-run'])
    expect(code).toBe(0)
    expect(stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n`)
    expect(stderr).toBe('')
    expect(readdirSync(store)).toEqual([])
  })

  it('lists the records read, and says why, when the service it would ask cannot be asked', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    vi.stubEnv('DECISION_MEMORY_URL', '127.0.0.1:7420')
    const { code, stdout, stderr } = await run([dir, '--dry-run'])
    expect(code).toBe(0)
    expect(stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n`)
    expect(stderr).toBe(
      'decision-memory import-adr: the store could not say what the import would do (DECISION_MEMORY_URL is "127.0.0.1:7420": give the service\'s address as http://HOST:PORT): the records read are listed, not what is stored nor carried over to a new key\n',
    )
  })

  /** Runs `import-adr DIR --dry-run` against a service answering each request as `answer` says; what it printed, and the requests it was sent. */
  async function dryRunAgainst(dir: string, answer: (url: string, method: string) => [number, unknown]) {
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const [status, body] = answer(req.url ?? '/', req.method ?? 'GET')
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    try {
      return { ...(await run([dir, '--dry-run'])), seen }
    } finally {
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  }
  const IMPORTED = { created: ['ADR-0001'], updated: [], unchanged: [] }

  it('sends no import to a service of a version before dry runs, which would store the records, and says so', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    // Such a service dropped `dry_run` from the body unsaid and imported: its document names none.
    const oldDocument = { openapi: '3.1.0', paths: { '/v1/decisions/import': { post: { requestBody: { content: { 'application/json': { schema: { properties: { records: {} } } } } } } } } }
    const { code, stdout, stderr, seen } = await dryRunAgainst(dir, (url, method) => [200, url === '/openapi.json' ? oldDocument : method === 'GET' ? { decisions: [] } : IMPORTED])
    expect(code).toBe(0)
    expect(stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n`)
    expect(stderr).toContain('does not take a dry run (a version before this, still running after an upgrade? its import would store the records): restart it')
    expect(seen).not.toContain('POST /v1/decisions/import')
  })

  it('says a service\'s error answer to its OpenAPI document as that, not as a version before dry runs', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    // A service of this version failing (500), or a proxy in front of it (502): "restart it, a
    // version before this" sent the user to restart a current service for what the answer says.
    const { code, stdout, stderr, seen } = await dryRunAgainst(dir, (url, method) =>
      url === '/openapi.json' ? [500, { error: { code: 'internal', message: 'internal error (request id r-1)' } }] : [200, method === 'GET' ? { decisions: [] } : IMPORTED],
    )
    expect(code).toBe(0)
    expect(stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n`)
    expect(stderr).toContain('the store could not say what the import would do (internal error (request id r-1))')
    expect(stderr).not.toContain('restart it')
    expect(seen).not.toContain('POST /v1/decisions/import')
  })

  it('says a single record and nothing unread plainly', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    expect((await run([dir, '--dry-run'])).stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n`)
  })
})

describe('import-adr into a store opened here', () => {
  it('says which store the records went into', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    const store = join(folderOf({}), 'store')
    const { code, stdout, stderr } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
    // Named by --data: that store, with no word of a service, which was not looked for.
    expect(stderr).toBe(`stored in ${store}\n`)
    // Again: nothing written, nothing said of a store.
    const again = await run([dir, '--data', store])
    expect(again.stdout).toContain('imported: 0 new, 0 updated, 1 unchanged\n')
    expect(again.stderr).toBe('')
  })

  it("imports a record dated after tomorrow without that date, said at its line, rather than the store refusing the import", async () => {
    const dir = folderOf({
      '0001-use-a.md': adr(1, 'Use A').replace('Date: 2024-01-01', 'Date: 9999-12-31'),
      '0002-use-b.md': adr(2, 'Use B'),
    })
    const store = join(folderOf({}), 'store')
    const { code, stdout, stderr } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    expect(stderr).toMatch(new RegExp(`^${join(dir, '0001-use-a.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: "9999-12-31" is after tomorrow \\(\\d{4}-\\d{2}-\\d{2}\\); the record is read without it$`, 'm'))
    // Read as a record that writes no date is: dated the day it is first imported.
    expect((await run([dir, '--dry-run'])).stdout).toContain('  ADR-0001  accepted  no date  Use A\n')
  })

  it('opens this checkout\'s store, not ./data of the project it runs in, when no service answers and none is named', async () => {
    // Run in the project whose records these are, ./data there would be a store the service
    // (started in this checkout) never reads. The test holds the checkout's store (or a
    // developer's service does): the command says where it looked, writing nothing into it.
    const project = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    const hadStore = existsSync(CHECKOUT_DATA_DIR)
    const held = new Level(CHECKOUT_DATA_DIR)
    await held.open().catch(() => undefined)
    const cwd = process.cwd()
    vi.stubEnv('DECISION_MEMORY_URL', `http://127.0.0.1:${await closedPort()}`)
    vi.stubEnv('DECISION_MEMORY_DATA', '')
    try {
      process.chdir(project)
      await expect(run(['.'])).rejects.toThrow(`the store in ${CHECKOUT_DATA_DIR} is in use by another process`)
      expect(existsSync(join(project, 'data'))).toBe(false)
    } finally {
      process.chdir(cwd)
      vi.unstubAllEnvs()
      await held.close()
      if (!hadStore) rmSync(CHECKOUT_DATA_DIR, { recursive: true, force: true })
    }
  })

  it('says in its help that a file numbered otherwise than adr-tools numbers one is keyed by its number', () => {
    const text = IMPORT_ADR_HELP.replace(/\s+/g, ' ')
    expect(text).toContain('keyed ADR-NNNN, as is a file numbered otherwise, ADR-013-slug.md or ADR 12 Slug.md, whose number no other file has')
  })

  it('says in its help the store it opens when none is named: this checkout\'s data, not ./data', () => {
    const data = IMPORT_ADR_HELP.slice(IMPORT_ADR_HELP.indexOf('--data DIR   '))
    expect(data).toContain("this checkout's data")
    expect(data).not.toMatch(/\$DECISION_MEMORY_DATA or \.\/data/)
  })

  it('takes the records of a worktree of a repository with no origin for those of its main checkout', async () => {
    const parent = folderOf({})
    const store = join(parent, 'store')
    // `git worktree add ../shop-wt` in `shop`: its .git file points into shop/.git/worktrees.
    mkdirSync(join(parent, 'shop', '.git', 'worktrees', 'shop-wt'), { recursive: true })
    writeFileSync(join(parent, 'shop', '.git', 'worktrees', 'shop-wt', 'commondir'), '../..\n')
    mkdirSync(join(parent, 'shop-wt'))
    writeFileSync(join(parent, 'shop-wt', '.git'), `gitdir: ${join(parent, 'shop', '.git', 'worktrees', 'shop-wt')}\n`)
    for (const checkout of ['shop', 'shop-wt']) {
      mkdirSync(join(parent, checkout, 'docs', 'adr'), { recursive: true })
      writeFileSync(join(parent, checkout, 'docs', 'adr', '0001-use-a.md'), adr(1, 'Use A'))
      writeFileSync(join(parent, checkout, 'docs', 'adr', '0002-use-b.md'), adr(2, 'Use B'))
    }
    expect((await run([join(parent, 'shop', 'docs', 'adr'), '--data', store])).stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    // The branch of the worktree supersedes ADR-0002: an update of the same records, not another folder's.
    writeFileSync(join(parent, 'shop-wt', 'docs', 'adr', '0002-use-b.md'), adr(2, 'Use B', 'Deprecated'))
    const fromWorktree = await run([join(parent, 'shop-wt', 'docs', 'adr'), '--data', store])
    expect(fromWorktree.stdout).toContain('imported: 0 new, 1 updated, 1 unchanged\n')
    expect(fromWorktree.stderr).not.toContain('--prefix')
  })

  it('names a folder reached through a symbolic link as it is given, as imports named it before the hook followed links', async () => {
    const parent = folderOf({})
    const store = join(parent, 'store')
    // `docs/adr` a link to `../architecture/decisions`: the folder a team imports by its own name.
    mkdirSync(join(parent, 'shop', '.git'), { recursive: true })
    mkdirSync(join(parent, 'shop', 'architecture', 'decisions'), { recursive: true })
    writeFileSync(join(parent, 'shop', 'architecture', 'decisions', '0001-use-a.md'), adr(1, 'Use A'))
    mkdirSync(join(parent, 'shop', 'docs'))
    symlinkSync(join('..', 'architecture', 'decisions'), join(parent, 'shop', 'docs', 'adr'))
    expect((await run([join(parent, 'shop', 'docs', 'adr'), '--data', store])).stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
    const db = new Level<string, DecisionRecord>(store, { valueEncoding: 'json' })
    try {
      const stored = await db.sublevel<string, DecisionRecord>('decisions', { valueEncoding: 'json' }).get('ADR-0001')
      // Named by the links followed, the records imported from `shop/docs/adr` until then were left out as another folder's.
      expect(stored?.imported?.folder).toBe('shop/docs/adr')
    } finally {
      await db.close()
    }
  })

  it('reads an AXME Code project\'s .axme-code as its decisions folder, and importing it again changes nothing', async () => {
    const project = folderOf({})
    const axme = join(project, '.axme-code')
    cpSync(fileURLToPath(new URL('../../test/fixtures/adr/axme-code/.axme-code', import.meta.url)), axme, { recursive: true })
    const store = join(folderOf({}), 'store')
    const first = await run([axme, '--data', store])
    expect(first.code).toBe(0)
    expect(first.stdout).toBe(`read 6 records in ${join(axme, 'decisions')} (6 axme-code)\nimported: 6 new, 0 updated, 0 unchanged\n`)
    // Named as the decisions folder itself, the same records.
    const again = await run([join(axme, 'decisions'), '--data', store])
    expect(again.stdout).toBe(`read 6 records in ${join(axme, 'decisions')} (6 axme-code)\nimported: 0 new, 0 updated, 6 unchanged\n`)
    expect(again.stderr).toBe('')
  })

  it('says after the summary what changed in each record it updated, text and JSON', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A', 'Proposed'), '0002-use-b.md': adr(2, 'Use B'), '0003-use-c.md': adr(3, 'Use C') })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 3 new, 0 updated, 0 unchanged\n')
    // Accepted since; another record retitled, its decision with it, and dated otherwise.
    writeFileSync(join(dir, '0001-use-a.md'), adr(1, 'Use A'))
    writeFileSync(join(dir, '0002-use-b.md'), adr(2, 'Use B everywhere').replace('Date: 2024-01-02', 'Date: 2024-02-02'))
    const { code, stdout } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stdout.split('\n').slice(1)).toEqual([
      'imported: 0 new, 2 updated, 1 unchanged',
      // The evidence holds the file's hash, which any edit changes.
      'ADR-0001: status proposed → accepted, evidence',
      'ADR-0002: title "Use B" → "Use B everywhere", decision, date 2024-01-02 → 2024-02-02, evidence',
      '',
    ])
    writeFileSync(join(dir, '0001-use-a.md'), adr(1, 'Use A', 'Deprecated'))
    const json = JSON.parse((await run([dir, '--data', store, '--json'])).stdout)
    expect(json.import.updated).toEqual(['ADR-0001'])
    expect(json.import.changes).toEqual([{ key: 'ADR-0001', fields: [{ field: 'status', from: 'accepted', to: 'deprecated' }, { field: 'evidence' }] }])
  })

  it('keys ADR-0002-use-b.md by its number once no other file has it, carrying the decision stored under its whole name over, and again changes nothing', async () => {
    const numbered = (n: string, title: string, status: string) => `# ADR-${n}: ${title}\n\nDate: 2024-01-0${Number(n)}\nEnforce: required\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const dir = folderOf({
      'ADR-0001-use-a.md': numbered('0001', 'Use A', 'Superseded by [ADR-0002](ADR-0002-use-b.md)'),
      'ADR-0002-use-b.md': numbered('0002', 'Use B', 'Accepted\n\nSupersedes [ADR-0001](ADR-0001-use-a.md)'),
      // A second file numbered 2, as a version before this keyed every such file: each by its whole name.
      'ADR-002-draft.md': numbered('002', 'Use B2', 'Proposed'),
    })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--data', store, '--json'])).stdout).toContain('"records":["ADR-0001","ADR-0002-use-b","ADR-002-draft"]')
    rmSync(join(dir, 'ADR-002-draft.md'))
    const said = [
      'ADR-0002-use-b: ADR-0002-use-b no longer supersedes ADR-0001: the record of ADR-0001 names ADR-0002 as its successor now',
      'ADR-0002-use-b: its file ADR-0002-use-b.md is imported as ADR-0002 now; ADR-0002-use-b is superseded by ADR-0002 (why ADR-0002-use-b gives the chain to ADR-0002)',
      'ADR-002-draft: ADR-002-draft.md, which ADR-002-draft was imported from, is no longer in the folder; ADR-002-draft stays proposed (revoke it if it no longer holds)',
    ]
    // A dry run says the carry-over as the import does it, and stores nothing.
    const dry = await run([dir, '--data', store, '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toBe(
      `read 2 records in ${dir} (2 adr-tools)\n  ADR-0001  superseded  2024-01-01  Use A\n  ADR-0002  accepted  2024-01-02  Use B\n` +
        'would import: 1 new (re-keyed from its old key), 1 updated, 0 unchanged, 1 whose file is gone; nothing stored (--dry-run)\nADR-0001: superseded_by ADR-0002-use-b → ADR-0002\n',
    )
    expect(dry.stderr.split('\n')).toEqual([...said, ''])
    const dryJson = JSON.parse((await run([dir, '--data', store, '--dry-run', '--json'])).stdout)
    expect(dryJson.import).toMatchObject({ dry_run: true, created: ['ADR-0002'], rekeyed: [{ key: 'ADR-0002', from: 'ADR-0002-use-b', from_status: 'superseded' }] })
    const { code, stdout, stderr } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stdout).toBe(`read 2 records in ${dir} (2 adr-tools)\nimported: 1 new (re-keyed from its old key), 1 updated, 0 unchanged, 1 whose file is gone\nADR-0001: superseded_by ADR-0002-use-b → ADR-0002\n`)
    expect(stderr.split('\n')).toEqual([...said, `stored in ${store}`, ''])
    const again = await run([dir, '--data', store])
    expect(again.stdout).toBe(`read 2 records in ${dir} (2 adr-tools)\nimported: 0 new, 0 updated, 2 unchanged, 1 whose file is gone\n`)
  })

  it('keys ADR 12 Use Postgres.md, named with spaces, by its number, carrying the decision stored under its hashed name over', async () => {
    const spaced = (n: string, title: string, status: string) => `# ADR ${n}: ${title}\n\nDate: 2024-01-12\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const dir = folderOf({
      'ADR 12 Use Postgres.md': spaced('12', 'Use Postgres', 'Accepted'),
      // A second file numbered 12, as a version before this keyed every such file: each by a hash of its name.
      'ADR 012 - Draft.md': spaced('012', 'Use Postgres 2', 'Proposed'),
    })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--data', store, '--json'])).stdout).toContain('"records":["adr-012-draft-')
    rmSync(join(dir, 'ADR 012 - Draft.md'))
    const { code, stdout, stderr } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\nimported: 1 new (re-keyed from its old key), 0 updated, 0 unchanged, 1 whose file is gone\n`)
    expect(stderr.split('\n')[0]).toBe(
      'adr-12-use-postgres-79bbe633: its file ADR 12 Use Postgres.md is imported as ADR-0012 now; adr-12-use-postgres-79bbe633 is superseded by ADR-0012, which supersedes it (why ADR-0012 gives both)',
    )
    const again = await run([dir, '--data', store])
    expect(again.stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\nimported: 0 new, 0 updated, 1 unchanged, 1 whose file is gone\n`)
  })

  it('imports a record without a date line, and importing it again changes nothing', async () => {
    const dir = folderOf({ '0001-use-a.md': '# 1. Use A\n\n## Status\n\nAccepted\n' })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--dry-run'])).stdout).toBe(`read 1 record in ${dir} (1 adr-tools)\n  ADR-0001  accepted  no date  Use A\n`)
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 0 new, 0 updated, 1 unchanged\n')
  })

  it('imports a record whose date cannot be read without it, says so at its line, text and JSON, and importing it again changes nothing', async () => {
    const dated = (n: number, date: string) => `# ${n}. Use ${n}\n\nDate: ${date}\n\n## Status\n\nAccepted\n`
    const dir = folderOf({ '0001-use-1.md': dated(1, '5 juin 2023'), '0002-use-2.md': dated(2, 'Tuesday, 12 March 2019'), '0003-use-3.md': dated(3, '12.05.2019') })
    const store = join(folderOf({}), 'store')
    const dry = await run([dir, '--dry-run'])
    expect(dry.stdout).toBe(
      `read 3 records in ${dir} (3 adr-tools); 1 file, section, link or date could not be read\n` +
        '  ADR-0001  accepted  no date  Use 1\n  ADR-0002  accepted  2019-03-12  Use 2\n  ADR-0003  accepted  2019-05-12  Use 3\n',
    )
    const problem = `${join(dir, '0001-use-1.md')}:3: "5 juin 2023" is not a date; the record is read without it\n`
    expect(dry.stderr).toBe(problem)
    const first = await run([dir, '--data', store])
    expect(first.stdout).toContain('imported: 3 new, 0 updated, 0 unchanged\n')
    expect(first.stderr).toBe(`${problem}stored in ${store}\n`)
    const again = await run([dir, '--data', store, '--json'])
    const json = JSON.parse(again.stdout)
    expect(json.read.records).toEqual(['ADR-0001', 'ADR-0002', 'ADR-0003'])
    expect(json.read.problems).toEqual([{ path: join(dir, '0001-use-1.md'), line: 3, message: '"5 juin 2023" is not a date; the record is read without it' }])
    expect(json.import).toMatchObject({ created: [], updated: [], unchanged: ['ADR-0001', 'ADR-0002', 'ADR-0003'] })
  })

  it('leaves the decisions a record that cannot be read now links to as they are stored, and says that file could not be read', async () => {
    const dir = folderOf({
      '0002-use-postgres.md': adr(2, 'Use Postgres', 'Superseded by [3. Use MySQL](0003-use-mysql.md)'),
      '0003-use-mysql.md': adr(3, 'Use MySQL', 'Accepted\n\nSupersedes [2. Use Postgres](0002-use-postgres.md)'),
    })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    // Its status mistyped: the file is still there, and still supersedes ADR-0002.
    writeFileSync(join(dir, '0003-use-mysql.md'), adr(3, 'Use MySQL', 'Pondering\n\nSupersedes [2. Use Postgres](0002-use-postgres.md)'))
    const unread = await run([dir, '--data', store, '--json'])
    const json = JSON.parse(unread.stdout)
    expect(json.read.problems).toEqual([
      { path: join(dir, '0003-use-mysql.md'), line: 7, message: 'unknown status "Pondering"' },
      {
        path: join(dir, '0002-use-postgres.md'),
        line: 7,
        message: 'superseded by "0003-use-mysql.md" names ADR-0003, whose record 0003-use-mysql.md could not be read; the link stands as the store holds it',
        read: true,
      },
    ])
    // Neither ADR-0002 nor ADR-0003 (not read, so not imported now) lost its link.
    expect(json.import).toMatchObject({ created: [], updated: [], unchanged: ['ADR-0002'], warnings: [] })
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 0 new, 0 updated, 1 unchanged\n')
    // The status put right: nothing to restore, as nothing was taken.
    writeFileSync(join(dir, '0003-use-mysql.md'), adr(3, 'Use MySQL', 'Accepted\n\nSupersedes [2. Use Postgres](0002-use-postgres.md)'))
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 0 new, 0 updated, 2 unchanged\n')
  })

  it('leaves out the records of a supersede loop of three, each named at its file, and imports the rest', async () => {
    const link = (n: number) => `Accepted\n\nSupersedes [${n}. R${n}](000${n}-r${n}.md)`
    const dir = folderOf({
      '0001-r1.md': adr(1, 'R1', link(2)),
      '0002-r2.md': adr(2, 'R2', link(3)),
      '0003-r3.md': adr(3, 'R3', link(1)),
      '0004-other.md': adr(4, 'Other'),
    })
    const store = join(folderOf({}), 'store')
    const { code, stdout, stderr } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stdout).toContain(`read 4 records in ${dir} (4 adr-tools), 3 of which cannot be stored\n`)
    expect(stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
    for (const n of [1, 2, 3]) {
      expect(stderr).toContain(`${join(dir, `000${n}-r${n}.md`)}:1: ADR-000${n} cannot be stored: the supersede links go round in a loop (ADR-0001 → ADR-0002 → ADR-0003 → ADR-0001)`)
    }
  })

  it('says a device or a named pipe given for the folder as what it is, not as a path through a file', async () => {
    // `import-adr /dev/null` was told `a part of the path is a file, not a folder (ENOTDIR)`.
    const fifo = join(folderOf({}), 'records')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    for (const [path, kind] of [['/dev/null', 'a device'], [fifo, 'a named pipe (FIFO)']] as const) {
      const { code, stdout, stderr } = await run([path, '--dry-run'])
      expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: `decision-memory import-adr: ${path} is ${kind}, not a folder; import-adr reads a folder of records\n` })
    }
  })

  it('names the folder to give quoted as a shell reads it, when its path holds a space', async () => {
    const dir = join(folderOf({}), 'design notes')
    mkdirSync(dir)
    writeFileSync(join(dir, 'DECISIONS.md'), '# Decisions\n\n## D-001 Use Postgres\n\nStatus: accepted\n')
    const { code, stderr } = await run([join(dir, 'DECISIONS.md'), '--dry-run'])
    expect(code).toBe(1)
    expect(stderr).toBe(`decision-memory import-adr: ${join(dir, 'DECISIONS.md')} is a file; import-adr reads a folder of records (import-adr '${dir}')\n`)
  })

  it('names the folder to give when given a file of it (DECISIONS.md, one ADR), and makes no store', async () => {
    const dir = folderOf({ 'DECISIONS.md': '# Decisions\n\n## D-001 Use Postgres\n\nStatus: accepted\n' })
    const store = join(folderOf({}), 'store')
    const { code, stdout, stderr } = await run([join(dir, 'DECISIONS.md'), '--data', store])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toBe(`decision-memory import-adr: ${join(dir, 'DECISIONS.md')} is a file; import-adr reads a folder of records (import-adr ${dir})\n`)
    expect(existsSync(store)).toBe(false)
    // A folder named under the file is no file given: said as the path it is.
    const under = join(dir, 'DECISIONS.md', 'adr')
    const nested = await run([under, '--data', store])
    expect(nested.code).toBe(1)
    expect(nested.stderr).toBe(`decision-memory import-adr: cannot read ${under}: a part of the path is a file, not a folder (ENOTDIR)\n`)
  })

  it('says in words that a folder inside a repository is not there, none of its decisions in the store, the code kept', async () => {
    // A typo, `doc/adr` for `docs/adr`: said as the folder outside a repository is, not `ENOENT (…)`.
    const repo = folderOf({})
    mkdirSync(join(repo, '.git'))
    const missing = join(repo, 'doc', 'adr')
    const { code, stdout, stderr } = await run([missing, '--data', join(folderOf({}), 'store')])
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(`decision-memory import-adr: cannot read ${missing}: there is no such folder, and no decision in the store was imported from it (ENOENT)\n`)
  })

  it('says in a dry run that a folder inside a repository is not there, none of its decisions in the store, as the import would', async () => {
    const repo = folderOf({})
    mkdirSync(join(repo, '.git'))
    const missing = join(repo, 'doc', 'adr')
    const { code, stdout, stderr } = await run([missing, '--data', join(folderOf({}), 'store'), '--dry-run'])
    expect({ code, stdout }).toEqual({ code: 0, stdout: `read 0 records in ${missing} (none)\n` })
    expect(stderr).toBe(`decision-memory import-adr: cannot read ${missing}: there is no such folder, and no decision in the store was imported from it (ENOENT)\n`)
  })

  it('says in words that a folder outside any repository is not there, the code kept, and makes no store', async () => {
    const missing = join(folderOf({}), 'doc', 'adr')
    const store = join(folderOf({}), 'store')
    const { code, stdout, stderr } = await run([missing, '--data', store])
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(`decision-memory import-adr: cannot read ${missing}: there is no such folder (ENOENT)\n`)
    expect(existsSync(store)).toBe(false)
  })

  it('makes no store for a folder with no records', async () => {
    const dir = folderOf({ 'README.md': '# Notes\n' })
    const store = join(folderOf({}), 'store')
    const { code, stderr } = await run([dir, '--data', store])
    expect(code).toBe(0)
    expect(stderr).toBe('')
    expect(existsSync(store)).toBe(false)
  })
})

describe('import-adr of a folder imported before with another --prefix (R-CON-6: re-import changes nothing)', () => {
  /** The keys the store holds. */
  async function keysIn(store: string): Promise<string[]> {
    const db = new Level<string, DecisionRecord>(store, { valueEncoding: 'json' })
    try {
      return await db.sublevel<string, DecisionRecord>('decisions', { valueEncoding: 'json' }).keys().all()
    } finally {
      await db.close()
    }
  }

  it('with the same --prefix again, finds every record unchanged and says so', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A'), '0002-use-b.md': adr(2, 'Use B', 'Accepted\n\nSupersedes [1. Use A](0001-use-a.md)') })
    const store = join(folderOf({}), 'store')
    expect((await run([dir, '--data', store, '--prefix', 'WEB'])).stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    const again = await run([dir, '--data', store, '--prefix', 'WEB'])
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(`read 2 records in ${dir} (2 adr-tools)\nimported: 0 new, 0 updated, 2 unchanged\n`)
    expect(again.stderr).toBe('')
    expect(await keysIn(store)).toEqual(['WEB-ADR-0001', 'WEB-ADR-0002'])
  })

  it('with no --prefix, or another, stores nothing a second time and names the prefix it was imported with', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A'), '0002-use-b.md': adr(2, 'Use B') })
    const store = join(folderOf({}), 'store')
    await run([dir, '--data', store, '--prefix', 'WEB'])
    const bare = await run([dir, '--data', store])
    expect(bare.code).toBe(1)
    expect(bare.stdout).toBe('')
    expect(bare.stderr).toBe(
      `decision-memory import-adr: the records in ${dir} were imported before with --prefix WEB (WEB-ADR-0001 of 0001-use-a.md, WEB-ADR-0002 of 0002-use-b.md): ` +
        'with no --prefix each would be stored a second time, under another key; import it with --prefix WEB, as before. Nothing stored\n',
    )
    expect((await run([dir, '--data', store, '--prefix', 'API'])).stderr).toContain('with --prefix API each would be stored a second time, under another key; import it with --prefix WEB, as before')
    // A dry run, which asks the store what the import would do, says it as the import would, and lists the records read.
    const dry = await run([dir, '--data', store, '--dry-run'])
    expect([dry.code, dry.stdout, dry.stderr]).toEqual([0, `read 2 records in ${dir} (2 adr-tools)\n  ADR-0001  accepted  2024-01-01  Use A\n  ADR-0002  accepted  2024-01-02  Use B\n`, bare.stderr])
    // A record added to the folder since is not stored under another prefix beside the others either.
    writeFileSync(join(dir, '0003-use-c.md'), adr(3, 'Use C'))
    expect((await run([dir, '--data', store, '--prefix', 'API'])).code).toBe(1)
    expect(await keysIn(store)).toEqual(['WEB-ADR-0001', 'WEB-ADR-0002'])
    expect((await run([dir, '--data', store, '--prefix', 'WEB'])).stdout).toContain('imported: 1 new, 0 updated, 2 unchanged\n')
  })

  it('imported first with no --prefix, refuses one, and another folder numbered alike still goes in with it', async () => {
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A') })
    const other = folderOf({ '0001-use-x.md': adr(1, 'Use X') })
    const store = join(folderOf({}), 'store')
    await run([dir, '--data', store])
    const prefixed = await run([dir, '--data', store, '--prefix', 'WEB', '--json'])
    expect(prefixed.code).toBe(1)
    expect(prefixed.stderr).toContain(`the records in ${dir} were imported before with no --prefix (ADR-0001 of 0001-use-a.md): with --prefix WEB each would be stored a second time, under another key; import it without --prefix, as before`)
    expect((await run([other, '--data', store, '--prefix', 'WEB'])).stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'WEB-ADR-0001'])
  })

  it('moved in its repository and imported with another --prefix in the same run, stores nothing and names the prefix and the folder it was imported as', async () => {
    const parent = folderOf({})
    const store = join(parent, 'store')
    // A repository with no origin, named by its directory: `shop/docs/adr`.
    mkdirSync(join(parent, 'shop', '.git'), { recursive: true })
    const old = join(parent, 'shop', 'docs', 'adr')
    mkdirSync(old, { recursive: true })
    writeFileSync(join(old, '0001-use-a.md'), adr(1, 'Use A'))
    writeFileSync(join(old, '0002-use-b.md'), adr(2, 'Use B', 'Accepted\n\nSupersedes [1. Use A](0001-use-a.md)'))
    expect((await run([old, '--data', store])).stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    // `git mv docs/adr docs/decisions`, then imported with a prefix it never had.
    const moved = join(parent, 'shop', 'docs', 'decisions')
    renameSync(old, moved)
    const prefixed = await run([moved, '--data', store, '--prefix', 'WEB'])
    expect(prefixed.code).toBe(1)
    expect(prefixed.stdout).toBe('')
    expect(prefixed.stderr).toBe(
      `decision-memory import-adr: the records in ${moved} were imported before, as shop/docs/adr before the folder moved, with no --prefix ` +
        '(ADR-0001 of 0001-use-a.md, ADR-0002 of 0002-use-b.md): with --prefix WEB each would be stored a second time, under another key; ' +
        'import it without --prefix, as before. Nothing stored\n',
    )
    expect(await keysIn(store)).toEqual(['ADR-0001', 'ADR-0002'])
    // As advised: the folder moved, its records kept under its new name, none stored again.
    const bare = await run([moved, '--data', store])
    expect(bare.code).toBe(0)
    expect(bare.stdout).toContain('imported: 0 new, 0 updated, 2 unchanged\n')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'ADR-0002'])
    // Another ADR folder of the repository, whose numbers the removed one shared but not its files, still goes in with a prefix.
    const other = join(parent, 'shop', 'web', 'adr')
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, '0001-use-a.md'), adr(1, 'Use A'))
    rmSync(moved, { recursive: true })
    expect((await run([other, '--data', store, '--prefix', 'WEB'])).stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
  })

  it('takes no other folder of the repository for one moved, nor refuses it so, for the first record every adr-tools log has', async () => {
    const parent = folderOf({})
    const store = join(parent, 'store')
    mkdirSync(join(parent, 'shop', '.git'), { recursive: true })
    const first = (day: string) => `# 1. Record architecture decisions\n\nDate: ${day}\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use Architecture Decision Records.\n`
    // `adr init` in docs/adr, imported, then `git mv docs/adr docs/decisions`.
    const docs = join(parent, 'shop', 'docs', 'adr')
    mkdirSync(docs, { recursive: true })
    writeFileSync(join(docs, '0001-record-architecture-decisions.md'), first('2024-01-01'))
    expect((await run([docs, '--data', store])).stdout).toContain('imported: 1 new, 0 updated, 0 unchanged\n')
    renameSync(docs, join(parent, 'shop', 'docs', 'decisions'))
    // The web team's log, begun with `adr init` another day: a second folder numbered alike, as --prefix is for.
    const web = join(parent, 'shop', 'web', 'adr')
    mkdirSync(web, { recursive: true })
    writeFileSync(join(web, '0001-record-architecture-decisions.md'), first('2025-05-05'))
    writeFileSync(join(web, '0002-use-react.md'), adr(2, 'Use React'))
    // With no --prefix, not taken for docs/adr moved, which took its record over (redated, as web's): told to take one.
    const bare = await run([web, '--data', store])
    expect(bare.stdout).toContain('imported: 0 new, 0 updated, 0 unchanged, 2 left out\n')
    expect(bare.stderr).toContain(`ADR-0001: ADR-0001 exists and it was imported from shop/docs/adr/0001-record-architecture-decisions.md; import another folder with --prefix`)
    const prefixed = await run([web, '--data', store, '--prefix', 'WEB'])
    expect(prefixed.stderr).not.toContain('before the folder moved')
    expect(prefixed.code).toBe(0)
    expect(prefixed.stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'WEB-ADR-0001', 'WEB-ADR-0002'])
    // docs/adr, moved, is still itself.
    const moved = await run([join(parent, 'shop', 'docs', 'decisions'), '--data', store])
    expect(moved.stdout).toContain('imported: 0 new, 0 updated, 1 unchanged\n')
    expect(moved.stderr).toBe('')
  })

  it('renamed outside any repository, is taken for the folder it was, with no --prefix advised that would store its records again', async () => {
    const store = join(folderOf({}), 'store')
    const dir = folderOf({ '0001-use-a.md': adr(1, 'Use A'), '0002-use-b.md': adr(2, 'Use B') })
    expect((await run([dir, '--data', store])).stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    // `mv adr decisions`: the folder is named by its absolute path, another one now.
    const renamed = `${dir}-renamed`
    folders.push(renamed)
    renameSync(dir, renamed)
    const prefixed = await run([renamed, '--data', store, '--prefix', 'WEB'])
    expect(prefixed.code).toBe(1)
    expect(prefixed.stderr).toContain(`the records in ${renamed} were imported before, as ${dir} before the folder moved, with no --prefix (ADR-0001 of 0001-use-a.md, ADR-0002 of 0002-use-b.md)`)
    const bare = await run([renamed, '--data', store])
    expect(bare.code).toBe(0)
    expect(bare.stdout).toBe(`read 2 records in ${renamed} (2 adr-tools)\nimported: 0 new, 0 updated, 2 unchanged\n`)
    expect(bare.stderr).toBe('')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'ADR-0002'])

    // Renamed with a record retitled on the way: not taken for it, and said so, not told to take --prefix.
    const changed = `${renamed}-again`
    folders.push(changed)
    renameSync(renamed, changed)
    writeFileSync(join(changed, '0002-use-b.md'), adr(2, 'Use B, retitled'))
    writeFileSync(join(changed, '0003-use-c.md'), adr(3, 'Use C'))
    const conflicts = await run([changed, '--data', store])
    expect(conflicts.stdout).toContain('imported: 0 new, 0 updated, 0 unchanged, 3 left out\n')
    expect(conflicts.stderr).toContain(`ADR-0001: ADR-0001 exists and it was imported from ${renamed}, a folder no longer there, not taken for this one moved`)
    expect(conflicts.stderr).toContain('ADR-0003: ADR-0003 is not imported either: ADR-0001, ADR-0002 of this folder belong to the records of a folder no longer there (see their conflicts)\n')
    expect(conflicts.stderr).not.toContain('--prefix')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'ADR-0002'])
  })

  it('outside any repository, does not take a new log for a folder gone because both have the first record every adr-tools log has', async () => {
    const store = join(folderOf({}), 'store')
    const first = (day: string) =>
      `# 1. Record architecture decisions\n\nDate: ${day}\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the architectural decisions made on this project.\n\n## Decision\n\nWe will use Architecture Decision Records.\n`
    const old = folderOf({ '0001-record-architecture-decisions.md': first('2024-01-01'), '0002-use-postgres.md': adr(2, 'Use Postgres') })
    expect((await run([old, '--data', store])).stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    rmSync(old, { recursive: true })
    // Another project's log, made later with `adr init`: numbered like the one gone, and none of its decisions.
    const other = folderOf({ '0001-record-architecture-decisions.md': first('2025-05-05'), '0002-use-kafka.md': adr(2, 'Use Kafka') })
    const refused = await run([other, '--data', store])
    expect(refused.stdout).toContain('imported: 0 new, 0 updated, 0 unchanged, 2 left out\n')
    expect(refused.stderr).toContain(`ADR-0001: ADR-0001 exists and it was imported from ${join(old, '0001-record-architecture-decisions.md')}; import another folder with --prefix`)
    expect(refused.stderr).not.toContain('undo what changed')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'ADR-0002'])
    const prefixed = await run([other, '--data', store, '--prefix', 'P2'])
    expect(prefixed.code).toBe(0)
    expect(prefixed.stdout).toContain('imported: 2 new, 0 updated, 0 unchanged\n')
    expect(await keysIn(store)).toEqual(['ADR-0001', 'ADR-0002', 'P2-ADR-0001', 'P2-ADR-0002'])
  })
})

describe('the records of a folder stored under another key than this import gives them', () => {
  const stored = (key: string, path: string) => ({ key, imported: { folder: 'acme/docs/adr', path } }) as unknown as DecisionRecord
  const read = [
    { key: 'ADR-0001', origin: { path: '0001-use-a.md' } },
    { key: 'ADR-0002', origin: { path: '0002-use-b.md' } },
  ]

  it('leaves out a record stored under this key too, so that a folder imported both ways before can be imported again either way', () => {
    // Imported both ways by a version that did not refuse the second: each way finds its own copies.
    const both = [stored('ADR-0001', '0001-use-a.md'), stored('WEB-ADR-0001', '0001-use-a.md'), stored('ADR-0002', '0002-use-b.md'), stored('WEB-ADR-0002', '0002-use-b.md')]
    expect(keptUnderOtherKeys(read, 'WEB', ['acme/docs/adr'], both)).toEqual([])
    expect(keptUnderOtherKeys(read, undefined, ['acme/docs/adr'], both)).toEqual([])
    // A third way would store each a third time.
    expect(keptUnderOtherKeys(read, 'API', ['acme/docs/adr'], both).map((k) => [k.key, k.as])).toEqual([
      ['API-ADR-0001', 'ADR-0001'],
      ['API-ADR-0001', 'WEB-ADR-0001'],
      ['API-ADR-0002', 'ADR-0002'],
      ['API-ADR-0002', 'WEB-ADR-0002'],
    ])
    // A record stored one way alone is still found: imported the other way, it would be stored a second time.
    const one = [stored('ADR-0001', '0001-use-a.md'), stored('WEB-ADR-0001', '0001-use-a.md'), stored('ADR-0002', '0002-use-b.md')]
    expect(keptUnderOtherKeys(read, 'WEB', ['acme/docs/adr'], one)).toEqual([{ key: 'WEB-ADR-0002', as: 'ADR-0002', path: '0002-use-b.md', prefix: null, folder: 'acme/docs/adr' }])
    expect(keptUnderOtherKeys(read, undefined, ['acme/docs/adr'], one)).toEqual([])
  })
})

describe('the folders a repository no longer has', () => {
  const stored = (folder: string, path: string) => ({ key: path, imported: { folder, path } }) as unknown as DecisionRecord
  const tree = new Set(['/r/docs/adr/0001-use-a.md', '/r/web/adr/0001-use-a.md', '/r/web/adr/0002-use-b.md'])

  it('are those of its names whose records\' files are all gone from where they were, this folder and other repositories aside', () => {
    const held = [
      stored('github.com/acme/shop/doc/adr', '0001-use-a.md'),
      stored('github.com/acme/shop/doc/adr', '0002-use-b.md'),
      // Another ADR folder of the repository, still there with one of its files.
      stored('github.com/acme/shop/web/adr', '0001-use-a.md'),
      stored('github.com/acme/shop/web/adr', '0003-use-c.md'),
      // Imported under the clone's directory name, before the remote named it.
      stored('shop/doc/adr', '0001-use-a.md'),
      stored('github.com/acme/shop/docs/adr', '0001-use-a.md'),
      stored('github.com/acme/other/doc/adr', '0001-use-a.md'),
      stored('github.com/acme/shop/../other/adr', '0001-use-a.md'),
    ]
    const names = ['github.com/acme/shop', 'shop']
    const known = ['github.com/acme/shop/docs/adr', 'shop/docs/adr']
    expect(movedAway('/r', names, known, held, (p) => tree.has(p))).toEqual(['github.com/acme/shop/doc/adr', 'shop/doc/adr'])
  })

  it('are listed as English sorts them, on every machine, not by the locale', () => {
    const held = ['z', 'aa', 'adr', 'Adr', 'B'].map((name) => stored(`github.com/acme/shop/${name}`, '0001-use-a.md'))
    // By localeCompare, `aa` after `z` (da): by the machine it ran on.
    expect(movedAway('/r', ['github.com/acme/shop'], [], held, () => false)).toEqual(['aa', 'adr', 'Adr', 'B', 'z'].map((name) => `github.com/acme/shop/${name}`))
  })
})

describe('the folders gone from where they were, outside any repository', () => {
  const stored = (folder: string, path: string, key: string, title: string, date = '2024-01-01') =>
    ({ key, title, decision: `${title}.`, rationale: 'Why.', date, imported: { folder, path } }) as unknown as DecisionRecord
  const read = (path: string, key: string, title: string, date: string | null = '2024-01-01') => ({ key, title, decision: `${title}.`, rationale: 'Why.', date, origin: { path } })

  it('are the absolute ones none of whose files is there, each of whose records is read here from a file of the same name, one reading as it did', () => {
    const here = [
      read('0001-record-architecture-decisions.md', 'ADR-0001', 'Record architecture decisions'),
      read('0002-use-b.md', 'ADR-0002', 'Use B'),
      read('DECISIONS.md', 'D-001', 'Use spaces'),
    ]
    const held = [
      stored('/home/dev/adr', '0001-record-architecture-decisions.md', 'ADR-0001', 'Record architecture decisions'),
      // Retitled on the way: still this folder, renamed, for the import to weigh.
      stored('/home/dev/adr', '0002-use-b.md', 'ADR-0002', 'Use B, before'),
      // Imported with a prefix: this folder too, which import-adr then refuses with another.
      stored('/home/dev/web', '0002-use-b.md', 'WEB-ADR-0002', 'Use B'),
      // Still there with one of its files: another folder, a copy.
      stored('/home/dev/copy', '0002-use-b.md', 'ADR-0002', 'Use B'),
      // Gone, but none of its files is named as one of this folder's.
      stored('/tmp/other', '0009-use-z.md', 'ADR-0009', 'Use Z'),
      // Gone, with the first record every adr-tools log has, and one of its own: another log.
      stored('/home/old/adr', '0001-record-architecture-decisions.md', 'ADR-0001', 'Record architecture decisions'),
      stored('/home/old/adr', '0002-use-postgres.md', 'ADR-0002', 'Use Postgres'),
      // Gone, with that first record alone, written another day: another log, made with `adr init` then.
      stored('/home/init/adr', '0001-record-architecture-decisions.md', 'ADR-0001', 'Record architecture decisions', '2023-05-05'),
      // Gone, a DECISIONS.md of other decisions: another log, though every log has the file.
      stored('/home/notes', 'DECISIONS.md', 'D-001', 'Use tabs'),
      // A repository's folder is found by movedAway, in its repository.
      stored('github.com/acme/shop/doc/adr', '0002-use-b.md', 'ADR-0002', 'Use B'),
      stored('/home/dev/decisions', '0002-use-b.md', 'ADR-0002', 'Use B'),
    ]
    const tree = new Set(['/home/dev/copy/0002-use-b.md', '/home/dev/decisions/0001-record-architecture-decisions.md', '/home/dev/decisions/0002-use-b.md'])
    expect(renamedAway(['/home/dev/decisions'], here, held, (p) => tree.has(p))).toEqual(['/home/dev/adr', '/home/dev/web'])
  })

  it('are listed as English sorts them, on every machine, not by the locale', () => {
    const held = ['/home/z', '/home/aa', '/home/Adr', '/home/B'].map((folder) => stored(folder, '0002-use-b.md', 'ADR-0002', 'Use B'))
    expect(renamedAway([], [read('0002-use-b.md', 'ADR-0002', 'Use B')], held, () => false)).toEqual(['/home/aa', '/home/Adr', '/home/B', '/home/z'])
  })
})

describe('import-adr through a service that refuses the body as too large', () => {
  it('says how large the folder\'s request is and how to import it, not only that the body is too large', async () => {
    const { createTestApp } = await import('../../test/support/test-app')
    const app = await createTestApp()
    vi.stubEnv('DECISION_MEMORY_URL', 'http://decision-memory.test')
    vi.stubGlobal('fetch', (async (input: string, init?: RequestInit) => app.app.request(input, init)) as unknown as typeof globalThis.fetch)
    try {
      // 300 records of 1 KB of text each: well within 1,000 records, over the service's 256 KB.
      const context = 'Some context for this decision. '.repeat(30)
      const files = Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => {
          const n = String(i + 1).padStart(4, '0')
          return [`${n}-use-thing-${i + 1}.md`, `# ${i + 1}. Use thing ${i + 1}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\nUse thing ${i + 1}.\n`]
        }),
      )
      // In a folder whose name has a space: the command it names is one to paste into a shell.
      const dir = join(folderOf({}), 'decision records')
      mkdirSync(dir)
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
      const { code, stdout, stderr } = await run([dir])
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr).toMatch(
        new RegExp(
          `^decision-memory import-adr: the body is over 256 KB: the 300 records read in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} make one request of \\d+ KB, ` +
            'which the service refuses; stop the service and import them into its store with --data \\(decision-memory import-adr .+ --data ITS_DATA_DIR\\), then start it again\\n$',
        ),
      )
      expect(stderr).toContain(`(decision-memory import-adr '${dir}' --data ITS_DATA_DIR)`)
      expect((await app.call('GET', '/v1/decisions')).body.decisions).toEqual([])
    } finally {
      vi.unstubAllGlobals()
      vi.unstubAllEnvs()
    }
  })
})
