import { describe, expect, it } from 'vitest'
import { readRecordFolder } from './adr-folder'
import { keyOfHeading, readDecisionsMd } from './decisions-md'

const log = (text: string) => readDecisionsMd({ path: 'DECISIONS.md', name: 'DECISIONS.md', text: `# Decisions\n\n${text}` })
const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })

describe('the key a DECISIONS.md heading writes (R-CON-6)', () => {
  // Words of a title written as a key is (`UTF-8`, `SHA-256`) were taken as the section's key wherever
  // they stood, and cut out of its title: `Use  everywhere`, keyed `UTF-8`.
  it.each([
    ['Use UTF-8 everywhere', 'DEC-use-utf-8-everywhere'],
    ['Adopt ISO-8601 dates', 'DEC-adopt-iso-8601-dates'],
    ['Hash with SHA-256', 'DEC-hash-with-sha-256'],
    ['Patch CVE-2021-44228', 'DEC-patch-cve-2021-44228'],
    ['Follow PEP-8', 'DEC-follow-pep-8'],
    ['Use AES-256 at rest', 'DEC-use-aes-256-at-rest'],
  ])('keeps %s whole, keyed by its title', (heading, key) => {
    const reading = log(`## ${heading}\n\n- Status: accepted\n\n## D-2 Use Postgres\n\n- Status: accepted\n`)
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.title])).toEqual([
      [key, heading],
      ['D-2', 'Use Postgres'],
    ])
    expect(reading.keys).toEqual([key, 'D-2'])
    expect(keyOfHeading(heading)).toBe(key)
  })

  it.each([
    ['D-001: Use X', 'Use X'],
    ['D-001 Use X', 'Use X'],
    ['D-001', 'D-001'],
    ['[D-001] Use X', 'Use X'],
    ['Use X (D-001)', 'Use X'],
    ['Use X [D-001] (2024-01-10)', 'Use X'],
    ['Use X — D-001', 'Use X'],
    ['Use X - D-001', 'Use X'],
    ['Use X: D-001', 'Use X'],
    ['2024-01-10 — D-001: Use X', 'Use X'],
    ['[2024-01-10] D-001 Use X', 'Use X'],
    ['D-001: Use UTF-8 everywhere', 'Use UTF-8 everywhere'],
    ['D-001 — Hash with SHA-256', 'Hash with SHA-256'],
  ])('reads the key written as one in %s', (heading, title) => {
    const reading = log(`## ${heading}\n\n- Status: accepted\n`)
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.title])).toEqual([['D-001', title]])
    expect(keyOfHeading(heading)).toBe('D-001')
  })

  it('groups decisions under a heading with such a word, as under any heading that writes no key', () => {
    const reading = log('## Moving to UTF-8\n\n### D-001: Convert the database\n\n- Status: accepted\n\n### D-002: Convert the files\n\n- Status: proposed\n')
    expect(reading.records.map((r) => [r.key, r.status])).toEqual([
      ['D-001', 'accepted'],
      ['D-002', 'proposed'],
    ])
  })

  it('in a log that writes no status, reads an entry named by its key as accepted, not one with such a word in its title', () => {
    const reading = log('## D-001 · North star\n\nOne workspace.\n\n## Use UTF-8 everywhere\n\nSome thoughts.\n')
    expect(reading.records.map((r) => [r.key, r.status])).toEqual([['D-001', 'accepted']])
    expect(reading.problems).toEqual([
      { path: 'DECISIONS.md', line: 3, message: '"D-001 · North star" has no "Status:" field; read as accepted, a decision of the log', read: true },
      { path: 'DECISIONS.md', line: 7, message: '"Use UTF-8 everywhere" has no "Status:" field' },
    ])
  })

  it('passes over an empty section with such a word, as over any empty section with no key', () => {
    const reading = log('## D-001: Use X\n\n- Status: accepted\n\n## Notes on UTF-8\n\n## D-002\n')
    expect(reading.keys).toEqual(['D-001', 'D-002'])
  })

  it('links a section keyed by its title by its heading', () => {
    const reading = readRecordFolder([
      file(
        'DECISIONS.md',
        '# Decisions\n\n## Use Latin-1 files\n\n- Status: superseded\n- Superseded by: Use UTF-8 everywhere\n\n## Use UTF-8 everywhere\n\n- Status: accepted\n- Supersedes: Use Latin-1 files\n',
      ),
    ])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.title, r.supersedes, r.superseded_by])).toEqual([
      ['DEC-use-latin-1-files', 'Use Latin-1 files', null, 'DEC-use-utf-8-everywhere'],
      ['DEC-use-utf-8-everywhere', 'Use UTF-8 everywhere', 'DEC-use-latin-1-files', null],
    ])
  })
})

describe('a table that lists a log\'s decisions by their keys (R-CON-6)', () => {
  it('is an index, no decision: its section is not imported, and a table of one decision\'s fields still is one', async () => {
    const { readAdrFolder } = await import('./read-adr-folder')
    const { fileURLToPath } = await import('node:url')
    const reading = await readAdrFolder(fileURLToPath(new URL('../../../test/fixtures/adr/decision-log-index/', import.meta.url)))
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.status, r.date, r.superseded_by])).toEqual([
      ['D-001', 'accepted', '2026-03-01', null],
      ['D-002', 'superseded', '2026-03-02', 'D-001'],
    ])
    // Its `**Owner:** Dana` is no rationale.
    expect(reading.records.find((r) => r.key === 'D-002')?.rationale).toBe('not stated in DECISION-LOG.md')
    // Under a `##` that only groups, the index before the `###` decisions is no status of the group's own.
    const grouped = log('## Active\n\n| ID | Status |\n|---|---|\n| D-1 | accepted |\n\n### D-1: Use X\n\n- Status: accepted\n')
    expect(grouped.records.map((r) => r.key)).toEqual(['D-1'])
    // A table of one decision's fields, in columns, is read as before.
    const fields = log('## D-3: Use Z\n\n| Status | Date |\n|---|---|\n| Accepted | 2026-03-03 |\n')
    expect(fields.records.map((r) => [r.key, r.status, r.date])).toEqual([['D-3', 'accepted', '2026-03-03']])
  })
})

describe('the people and labels a DECISIONS.md section writes as fields (R-CON-6)', () => {
  it('are no prose: an owner, author or approver is not the rationale, as deciders are not', () => {
    for (const field of ['- Owner: Dana', '**Owner:** Dana', '- Authors: Dana, Lee', '- Approved by: CTO', '- Decided by: the team', '- Reviewers: Lee', '- Stakeholders: Ops', '- Consulted: Ops', '- Informed: All']) {
      const reading = log(`## D-001: Use X\n\n- Status: accepted\n${field}\n- Decision: Use X.\n`)
      expect(reading.records.map((r) => r.rationale), field).toEqual(['not stated in DECISIONS.md'])
    }
    // Prose after them is still the rationale.
    const reading = log('## D-001: Use X\n\n**Status:** accepted\n**Owner:** Dana\n\n**Decision:** Use X.\n\nBecause Y.\n')
    expect(reading.records.map((r) => r.rationale)).toEqual(['Because Y.'])
  })
})
