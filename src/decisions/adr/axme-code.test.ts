import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readRecordFolder } from './adr-folder'
import { readAdrFolder } from './read-adr-folder'

// As AXME Code writes its decision log: `.axme-code/decisions/D-NNN-slug.md` and an index.md.
const DECISIONS = fileURLToPath(new URL('../../../test/fixtures/adr/axme-code/.axme-code/decisions/', import.meta.url))

const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })

describe('reading an AXME Code decision log (R-CON-6)', () => {
  it('keys each decision by its id, maps its status (none is active), enforce level and supersede links', async () => {
    const reading = await readAdrFolder(DECISIONS)
    const summary = Object.fromEntries(reading.records.map((r) => [r.key, [r.status, r.enforce, r.date, r.supersedes, r.superseded_by]]))
    expect(summary).toEqual({
      'D-001': ['superseded', 'advisory', '2025-06-03', null, 'D-004'],
      'D-002': ['accepted', 'required', '2025-10-03', null, null],
      // `enforce:` left empty, as AXME Code writes a decision that only informs.
      'D-003': ['accepted', 'advisory', '2025-09-12', null, null],
      'D-004': ['accepted', 'required', '2025-11-20', 'D-001', null],
      'D-005': ['revoked', 'advisory', '2025-10-18', null, null],
      // An extra key (`reviewedBy:`) is passed over.
      'D-006': ['deprecated', 'advisory', '2025-08-01', null, null],
    })
    expect(reading.formats).toEqual({ 'axme-code': 6 })
    expect(reading.skipped).toEqual(['index.md'])
    expect(reading.problems).toEqual([])
  })

  it('reads the title as written, colon and all, the decision up to "## Reasoning" and the reasoning as the rationale', async () => {
    const reading = await readAdrFolder(DECISIONS)
    const d4 = reading.records.find((r) => r.key === 'D-004')
    expect(d4?.title).toBe('Migrate to Postgres: relational joins for billing')
    expect(d4?.decision).toBe('Move the job queue and billing data to the Postgres cluster that already runs auth.')
    expect(d4?.rationale).toBe('Billing needs relational joins, and a second worker cannot share the SQLite file.')
    expect(d4?.origin).toEqual({ path: 'D-004-migrate-to-postgres-relational-joins-for-billing.md', line: 1, format: 'axme-code' })
    const d2 = reading.records.find((r) => r.key === 'D-002')
    expect(d2?.decision).toMatch(/^Agent must never run git push --force, .* release branches\.$/s)
    expect(d2?.evidence[0]?.summary).toBe(
      'axme-code record D-002-never-force-push-to-protected-branches.md; source: session; session: 0f8c4a31-7d2e-4b8a-9c1f-3e5d6a7b8c9d',
    )
    const d5 = reading.records.find((r) => r.key === 'D-005')
    expect(d5?.evidence[0]?.summary).toContain('revoked: Not enough external consumers to justify it yet')
  })

  it('links the first of several ids a decision supersedes and says so; an unknown status is a problem at its line', () => {
    const matter = (id: string, extra: string) =>
      `---\nid: ${id}\nslug: s\ntitle: Decision ${id}\ndate: 2025-01-0${id.slice(-1)}\nsource: session\nenforce: advisory\nsessionId: \n${extra}---\n\n# Decision ${id}\n\nDo ${id}.\n\n## Reasoning\n\nBecause.\n`
    const reading = readRecordFolder([
      file('D-001-a.md', matter('D-001', 'status: superseded\nsupersededBy: D-003\n')),
      file('D-002-b.md', matter('D-002', 'status: superseded\nsupersededBy: D-003\n')),
      file('D-003-c.md', matter('D-003', 'supersedes: D-001, D-002\n')),
      file('D-004-d.md', matter('D-004', 'status: needs-audit\n')),
      // Read by its first word, the decision revoked too was imported in force.
      file('D-006-f.md', matter('D-006', 'status: active, revoked\n')),
      // As AXME Code shows a decision with no enforce level.
      file('D-005-e.md', matter('D-005', '').replace('enforce: advisory', 'enforce: info')),
    ])
    expect(reading.records.find((r) => r.key === 'D-005')?.enforce).toBe('advisory')
    expect(reading.records.find((r) => r.key === 'D-003')?.supersedes).toBe('D-001')
    expect(reading.problems).toEqual([
      { path: 'D-003-c.md', line: 9, message: 'supersedes lists 2 records; a decision links one, so only the first is linked' },
      { path: 'D-004-d.md', line: 9, message: 'unknown status "needs-audit"' },
      { path: 'D-006-f.md', line: 9, message: 'unknown status "active, revoked": a list of statuses, where a decision has one; write the one that holds' },
    ])
  })

  it('reads the decision and reasoning from the front matter when written there, as AXME Code shows its schema', () => {
    const reading = readRecordFolder([
      file(
        'D-021-never-force-push.md',
        '---\nid: D-021\ntitle: Never force push to protected branches\nenforce: required\ndecision: >\n  Agent must never run git push --force\n  on main.\nreasoning: >\n  Force push has lost us work twice.\ndate: 2025-10-03\nsource: session-0f8c4a\nsupersedes: null\n---\n',
      ),
    ])
    expect(reading.problems).toEqual([])
    expect(reading.records[0]).toMatchObject({
      key: 'D-021',
      status: 'accepted',
      enforce: 'required',
      supersedes: null,
      decision: 'Agent must never run git push --force on main.',
      rationale: 'Force push has lost us work twice.',
    })
  })
})
