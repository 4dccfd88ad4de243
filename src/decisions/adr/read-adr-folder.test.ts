import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { readRecordFolder } from './adr-folder'
import { fieldOf, numbered } from './markdown'
import { readAdrFolder } from './read-adr-folder'
import { readDate, readStatusLine } from './status-words'

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/adr/', import.meta.url))

/** key → [status, date, supersedes, superseded_by] */
function summary(records: Awaited<ReturnType<typeof readAdrFolder>>['records']) {
  return Object.fromEntries(records.map((r) => [r.key, [r.status, r.date, r.supersedes, r.superseded_by]]))
}

describe('reading ADR folders (R-CON-6)', () => {
  it('adr-tools: statuses, dates, "Superceded by" / "Supercedes" links, and an unknown status at its line', async () => {
    const reading = await readAdrFolder(FIXTURES + 'adr-tools')
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2023-03-06', null, null],
      'ADR-0002': ['superseded', '2023-03-14', null, 'ADR-0005'],
      'ADR-0003': ['accepted', '2023-04-02', null, null],
      'ADR-0004': ['proposed', '2023-06-19', null, null],
      'ADR-0005': ['accepted', '2024-01-22', 'ADR-0002', null],
      'ADR-0006': ['deprecated', '2023-09-05', null, null],
      'ADR-0007': ['revoked', '2023-11-28', null, null],
    })
    expect(reading.problems).toEqual([
      {
        path: '0008-split-the-monolith-into-services.md',
        line: 7,
        message: 'unknown status "Needs another round with Priya before we decide"',
      },
    ])
    const adr5 = reading.records.find((r) => r.key === 'ADR-0005')
    expect(adr5?.title).toBe('Use PostgreSQL for storage')
    expect(adr5?.decision).toBe('We will move job state and billing data to the existing PostgreSQL cluster.')
    expect(adr5?.rationale).toMatch(/^Billing needs relational joins/)
    expect(adr5?.origin).toEqual({ path: '0005-use-postgresql-for-storage.md', line: 1, format: 'adr-tools' })
    expect(adr5?.evidence[0]?.hash).toMatch(/^sha256:/)
  })

  it('records kept in Spanish, French, German or Portuguese: their status, date, links, decision and context, and their template and index skipped', async () => {
    // Minimised from public logs: KikoNet13/Cuentos-Cosmere writes `- Estado: reemplazado por `0007``
    // and `- Fecha:` bullets, `## Contexto` and `## Decisión`, beside PLANTILLA.md and INDICE.md;
    // other logs write `## Estado` / `Aceptado`, `## Statut` / `Acceptée le …`, `Ersetzt durch […]`.
    const reading = await readAdrFolder(FIXTURES + 'translated')
    expect(reading.problems).toEqual([])
    expect(reading.skipped).toEqual(['INDICE.md', 'PLANTILLA.md', 'README.md'])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2026-02-12', null, null],
      'ADR-0002': ['superseded', '2026-02-12', null, 'ADR-0004'],
      'ADR-0003': ['accepted', '2026-03-01', null, null],
      'ADR-0004': ['accepted', '2026-02-13', 'ADR-0002', null],
      'ADR-0005': ['accepted', '2026-07-08', null, null],
      'ADR-0006': ['superseded', '2025-04-01', null, 'ADR-0007'],
      'ADR-0007': ['accepted', '2025-09-15', 'ADR-0006', null],
      'ADR-0008': ['accepted', '2025-05-20', null, null],
    })
    expect(reading.records.map((r) => [r.key, r.title, r.decision, r.rationale])).toEqual([
      ['ADR-0001', 'Gobernanza del repositorio', 'Cada tarea tiene su archivo en `docs/tasks/`.', 'Las notas sueltas dificultan el mantenimiento.'],
      ['ADR-0002', 'Cache en SQLite', 'Guardar una cache en SQLite.', 'La lectura del disco era lenta.'],
      ['ADR-0003', 'NAT en el gateway', 'Activar el reenvío de IP y NAT en el gateway.', 'El gateway enruta entre la LAN y la VPN.'],
      ['ADR-0004', 'Leer los JSON directamente', 'La aplicación lee cada `NN.json` del disco, sin cache.', 'La cache daba más trabajo del que ahorraba.'],
      ['ADR-0005', "Minijeux d'arme", 'Un minijeu par arme, appris en jouant.', 'Chaque arme demande un geste à apprendre.'],
      ['ADR-0006', 'REST zwischen den Diensten', 'Wir verwenden REST.', 'Die Dienste rufen einander auf.'],
      ['ADR-0007', 'gRPC zwischen den Diensten', 'Wir verwenden gRPC.', 'REST ist ohne Typen.'],
      ['ADR-0008', 'Usar Postgres', 'Usar Postgres.', 'Precisamos de transações.'],
    ])
  })

  it('a record whose name holds a template\'s word of another language inside a word of its own is read', () => {
    const record = (title: string) => `# ${title}\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nWe do it.\n`
    const reading = readTexts({
      // `modeled`, `remodeled` hold the French `modele`; a record numbered after `ADR-` is a record's name.
      'ADR-012-modeled-events.md': record('Modeled events'),
      'adr-0013-remodeled-api.md': record('Remodeled API'),
      'ADR-0014-modelo-de-datos.md': record('Modelo de datos'),
      'modele.md': record('Titre'),
      'adr-modelo.md': record('Título'),
      'PLANTILLA.md': record('Título'),
    })
    expect(reading.records.map((r) => r.origin.path)).toEqual(['adr-0013-remodeled-api.md', 'ADR-0014-modelo-de-datos.md', 'ADR-012-modeled-events.md'])
    expect(reading.skipped).toEqual(['adr-modelo.md', 'modele.md', 'PLANTILLA.md'])
  })

  it('a field an English record names "Data" or "Datum" is its date only when it holds one', () => {
    // `Data:` and `Datum:` are English words too: a record's data, a survey's datum.
    const reading = readTexts({
      '0001-use-x.md': '# 1. Use X\n\nData: customer records\n\n## Status\n\nAccepted\n',
      '0002-use-y.md': '# 2. Use Y\n\n- Status: Accepted\n- Data: 3 TB per day\n\n## Decision\n\nY.\n',
      '0003-use-z.md': '# 3. Use Z\n\n- Status: Accepted\n- Datum: WGS84\n\n## Decision\n\nZ.\n',
      // As Portuguese and German records write their dates.
      '0004-usar-w.md': '# 4. Usar W\n\n- Estado: aceito\n- Data: 2024-01-04\n\n## Decisão\n\nW.\n',
      '0005-nutze-v.md': '# 5. Nutze V\n\n- Status: Angenommen\n- Datum: 05.01.2024\n\n## Entscheidung\n\nV.\n',
      '0006-usar-u.md': '# 6. Usar U\n\n- Estado: aceptado\n- Fecha: 30-02-2024\n\n## Decisión\n\nU.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', '2024-01-04', null, null],
      'ADR-0005': ['accepted', '2024-01-05', null, null],
      'ADR-0006': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([{ path: '0006-usar-u.md', line: 4, message: '"30-02-2024" is not a date; the record is read without it' }])
  })

  it('reads a date a field line ends with a full stop, as a sentence is: `Date: 2026-09-27.`', async () => {
    const reading = await readAdrFolder(FIXTURES + 'full-stop')
    expect(summary(reading.records)).toEqual({
      'ADR-0010': ['superseded', '2026-09-27', null, 'ADR-0011'],
      'ADR-0011': ['accepted', '2026-10-04', 'ADR-0010', null],
    })
    expect(reading.problems).toEqual([])
    expect(readDate('2026-09-27.')).toBe('2026-09-27')
    expect(readDate('27.09.2026.')).toBe('2026-09-27')
    // One full stop ends a sentence; more, or one before the date, are no date.
    expect(readDate('2026-09-27..')).toBeUndefined()
    expect(readDate('.2026-09-27')).toBeUndefined()
  })

  it('reads the status words of other languages as their English ones, and a longer word as none of them', () => {
    expect(readStatusLine('Rechazada')).toEqual({ status: 'revoked' })
    expect(readStatusLine('Obsoleto')).toEqual({ status: 'deprecated' })
    expect(readStatusLine('Propuesto')).toEqual({ status: 'proposed' })
    expect(readStatusLine('Abgelehnt')).toEqual({ status: 'revoked' })
    expect(readStatusLine('Remplacée par [ADR-5](0005-x.md)')).toEqual({ status: 'superseded', supersededBy: '0005-x.md' })
    expect(readStatusLine('Reemplaza a [ADR-2](0002-x.md)')).toEqual({ supersedes: '0002-x.md' })
    // A word alone is a status, not a link to what follows it.
    expect(readStatusLine('Substituida')).toEqual({ status: 'superseded' })
    expect(readStatusLine('Remplacé')).toEqual({ status: 'superseded' })
    expect(readStatusLine('Aceptadores')).toBeUndefined()
  })

  it('reads a slashed date both orders make a day in the order the folder writes its others, as adr-tools wrote dd/mm/yyyy until 2017', async () => {
    // Minimised from npryce/adr-tools' own doc/adr: `12/02/2016` beside `14/02/2016` and `17/12/2016`.
    const reading = await readAdrFolder(FIXTURES + 'day-first')
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2016-02-12', null, null],
      'ADR-0002': ['accepted', '2016-02-14', null, null],
      'ADR-0003': ['accepted', '2018-06-26', null, null],
    })
    expect(reading.problems).toEqual([
      {
        path: '0001-record-architecture-decisions.md',
        line: 3,
        message: '"12/02/2016" is read as 2016-02-12, day first, as this folder writes its dates ("14/02/2016" in 0002-markdown-format.md); write it as YYYY-MM-DD to say so',
        read: true,
      },
    ])
    const adr = (n: number, date: string) => `# ${n}. Use X${n}\n\nDate: ${date}\n\n## Status\n\nAccepted\n`
    // Month first where the folder writes its dates so.
    const us = readTexts({ '0001-use-x1.md': adr(1, '05/06/2020'), '0002-use-x2.md': adr(2, '02/21/2017') })
    expect(summary(us.records)['ADR-0001']).toEqual(['accepted', '2020-05-06', null, null])
    // Where the folder writes both orders, or none settles it, the date stays unread, and said.
    const both = readTexts({ '0001-use-x1.md': adr(1, '05/06/2020'), '0002-use-x2.md': adr(2, '02/21/2017'), '0003-use-x3.md': adr(3, '14/02/2016') })
    const alone = readTexts({ '0001-use-x1.md': adr(1, '05/06/2020'), '0002-use-x2.md': adr(2, '2020-06-07') })
    for (const reading of [both, alone]) {
      expect(summary(reading.records)['ADR-0001']).toEqual(['accepted', null, null, null])
      expect(reading.problems[0]?.message).toBe('"05/06/2020" could be 2020-06-05 or 2020-05-06; the record is read without it (write the one it is as YYYY-MM-DD)')
    }
  })

  it('reads a slashed day written with the status in the folder\'s order too, as it reads a "Date:" field\'s', () => {
    // `Accepted on 12/02/2016` was said as 2016-02-12 or 2016-12-02 in a folder whose `Date: 25/02/2016`
    // settles it, where `Date: 12/02/2016` beside it was read as the 12th of February.
    const dated = (n: number, date: string) => `# ${n}. Use X${n}\n\nDate: ${date}\n\n## Status\n\nAccepted\n`
    const status = (n: number, line: string) => `# ${n}. Use X${n}\n\n## Status\n\n${line}\n`
    const reading = readTexts({
      '0001-use-x1.md': dated(1, '25/02/2016'),
      '0002-use-x2.md': status(2, 'Accepted on 12/02/2016'),
      '0003-use-x3.md': dated(3, '12/02/2016'),
      // A field dates the record first: the status's day, another, is said as before.
      '0004-use-x4.md': `# 4. Use X4\n\nDate: 03/04/2016\n\n## Status\n\nAccepted (05/04/2016)\n`,
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2016-02-25', null, null],
      'ADR-0002': ['accepted', '2016-02-12', null, null],
      'ADR-0003': ['accepted', '2016-02-12', null, null],
      'ADR-0004': ['accepted', '2016-04-03', null, null],
    })
    const readSo = (date: string, on: string) => `"${date}" is read as ${on}, day first, as this folder writes its dates ("25/02/2016" in 0001-use-x1.md); write it as YYYY-MM-DD to say so`
    expect(reading.problems).toEqual([
      { path: '0002-use-x2.md', line: 5, message: readSo('12/02/2016', '2016-02-12'), read: true },
      { path: '0003-use-x3.md', line: 3, message: readSo('12/02/2016', '2016-02-12'), read: true },
      { path: '0004-use-x4.md', line: 3, message: readSo('03/04/2016', '2016-04-03'), read: true },
      { path: '0004-use-x4.md', line: 7, message: '"05/04/2016" could be 2016-04-05 or 2016-05-04; passed over, the record is dated 2016-04-03 (write the one it is as YYYY-MM-DD)' },
    ])
    // Where no order is settled, it stays unread, and said.
    const alone = readTexts({ '0001-use-x1.md': status(1, 'Accepted on 12/02/2016') })
    expect(summary(alone.records)['ADR-0001']).toEqual(['accepted', null, null, null])
    expect(alone.problems).toEqual([
      { path: '0001-use-x1.md', line: 5, message: '"12/02/2016" could be 2016-02-12 or 2016-12-02; the record is read without it (write the one it is as YYYY-MM-DD)' },
    ])
  })

  it('dates a record by the slashed day of its status as it would the same day written YYYY-MM-DD: the last step\'s, the latest of a log', () => {
    // In a day-first folder the first such day was taken, whatever it was: `Proposed (01/02/2016) →
    // Accepted` was dated the day of its proposal, where README says only the last step's day counts,
    // and a log's `Deprecated on 03/02/2016` said passed over for the day it was accepted.
    const sections = [
      'Proposed on 01/02/2016\n\nAccepted on 03/02/2016',
      'Proposed (01/02/2016) → Accepted',
      'Proposed (01/02/2016) → Accepted (03/02/2016)',
      'Accepted on 01/02/2016\n\nDeprecated on 03/02/2016',
      'Accepted\n\nDeprecated on 01/02/2016',
      'Accepted on 01/02/2016',
    ]
    const folder = (day: (d: number) => string) =>
      Object.fromEntries([
        ['0001-use-x1.md', `# 1. Use X1\n\nDate: ${day(25)}\n\n## Status\n\nAccepted\n`],
        ...sections.map((status, i) => [`000${i + 2}-use-x${i + 2}.md`, `# ${i + 2}. Use X${i + 2}\n\n## Status\n\n${status.replace(/0([13])\/02\/2016/g, (_, d) => day(Number(d)))}\n`]),
      ])
    const slashed = readTexts(folder((d) => `${String(d).padStart(2, '0')}/02/2016`))
    const iso = readTexts(folder((d) => `2016-02-${String(d).padStart(2, '0')}`))
    expect(summary(slashed.records)).toEqual(summary(iso.records))
    // Each day read in the folder's order is said so; one no step that holds is dated by, as before.
    const readSo = (path: string, line: number, date: string, on: string) => ({
      path,
      line,
      message: `"${date}" is read as ${on}, day first, as this folder writes its dates ("25/02/2016" in 0001-use-x1.md); write it as YYYY-MM-DD to say so`,
      read: true,
    })
    expect(slashed.problems).toContainEqual(readSo('0004-use-x4.md', 5, '03/02/2016', '2016-02-03'))
    expect(slashed.problems).toContainEqual(readSo('0005-use-x5.md', 7, '03/02/2016', '2016-02-03'))
    expect(slashed.problems).toContainEqual({ path: '0003-use-x3.md', line: 5, message: '"01/02/2016" could be 2016-02-01 or 2016-01-02; the record is read without it (write the one it is as YYYY-MM-DD)' })
  })

  it('DECISIONS.md: in a log that writes no status, an entry named by its key or saying what was decided is read as accepted, and said; a number with its zeros before a title is no part of it', () => {
    // As public logs keep them: `## D-001 · 2026-09-22 · North star: …` with `Context:`/`Chose:`/`Why:` lines,
    // and `## 2026-08-16 — Accept …` with `**Decision:**` and `**Reasoning:**`.
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n## Open questions\n\n(none)\n\n## D-001 · 2026-09-22 · North star: one workspace\n\nContext: vision session\nWhy: everything happens in one place.\n\n' +
        '## 2026-08-16 — Accept some free-trial abuse\n\n**Decision:** We will not build fingerprinting now.\n\n**Rationale:** It costs more than the abuse.\n\n' +
        '## D-002 — Use Redis\n\nDecision: Store sessions in Redis.\n',
    })
    expect(summary(reading.records)).toEqual({
      'D-001': ['accepted', '2026-09-22', null, null],
      'DEC-accept-some-free-trial-abuse': ['accepted', '2026-08-16', null, null],
      'D-002': ['accepted', null, null, null],
    })
    expect(reading.records.map((r) => [r.key, r.title, r.decision, r.rationale])).toEqual([
      ['D-001', 'North star: one workspace', 'North star: one workspace', 'everything happens in one place.'],
      ['DEC-accept-some-free-trial-abuse', 'Accept some free-trial abuse', 'We will not build fingerprinting now.', 'It costs more than the abuse.'],
      ['D-002', 'Use Redis', 'Store sessions in Redis.', 'not stated in DECISIONS.md'],
    ])
    const unstated = (line: number, heading: string) => ({ path: 'DECISIONS.md', line, message: `"${heading}" has no "Status:" field; read as accepted, a decision of the log`, read: true })
    expect(reading.problems).toEqual([
      { path: 'DECISIONS.md', line: 3, message: '"Open questions" has no "Status:" field' },
      unstated(7, 'D-001 · 2026-09-22 · North star: one workspace'),
      unstated(12, '2026-08-16 — Accept some free-trial abuse'),
      unstated(18, 'D-002 — Use Redis'),
    ])
    // A log that numbers its entries (`## 001 — …`, as 0xsacool/service's does) shows the title without the number; a count stays.
    const numbered = readTexts({
      'DECISIONS.md': '# Decisions\n\n## 001 — Documentation first\n\n**Status:** Decided.\n\n## 0002: Use X\n\n- Status: accepted\n\n## 3 replicas per region\n\n- Status: accepted\n\n## 2024: The year of Rust\n\n- Status: accepted\n',
    })
    expect(numbered.records.map((r) => [r.key, r.title])).toEqual([
      ['DEC-001-documentation-first', 'Documentation first'],
      ['DEC-0002-use-x', 'Use X'],
      ['DEC-3-replicas-per-region', '3 replicas per region'],
      ['DEC-2024-the-year-of-rust', '2024: The year of Rust'],
    ])
    // In a log that writes statuses, an entry without one may be one not decided yet: not read, and said, as before.
    const mixed = readTexts({ 'DECISIONS.md': '# Decisions\n\n## D-001 — Use Redis\n\n- Status: accepted\n\n## D-002 — Use Kafka\n\nDecision: Kafka.\n' })
    expect(summary(mixed.records)).toEqual({ 'D-001': ['accepted', null, null, null] })
    expect(mixed.problems).toEqual([{ path: 'DECISIONS.md', line: 7, message: '"D-002 — Use Kafka" has no "Status:" field' }])
    // A log that writes its statuses otherwise than in a "Status:" field, under another name (`- State: rejected`)
    // or in its headings (`## D-002 [Rejected] Use Y`), writes them all the same: none is read as accepted.
    for (const log of [
      '# Decisions\n\n## D-001 — Use X\n\n- State: proposed\n\nWe use X.\n\n## D-002 — Use Y\n\n- **State:** Rejected\n\nY.\n',
      '# Decisions\n\n## D-001 (Proposed) Use X\n\nWe use X.\n\n## D-002 [Rejected] Use Y\n\nDecision: Y.\n',
    ]) {
      const otherwise = readTexts({ 'DECISIONS.md': log })
      expect(otherwise.records).toEqual([])
      expect(otherwise.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^"D-001.*" has no "Status:" field$/), expect.stringMatching(/^"D-002.*" has no "Status:" field$/)])
    }
  })

  it('MADR: front matter status, date and decision-makers; a one-sided "superseded by ADR-0004" linked both ways; bad YAML at its line', async () => {
    const reading = await readAdrFolder(FIXTURES + 'madr')
    expect(summary(reading.records)).toEqual({
      'ADR-0000': ['accepted', '2024-02-05', null, null],
      'ADR-0001': ['superseded', '2024-02-12', null, 'ADR-0004'],
      'ADR-0002': ['accepted', '2024-03-01', null, null],
      'ADR-0003': ['proposed', '2024-04-09', null, null],
      'ADR-0004': ['accepted', '2024-05-20', 'ADR-0001', null],
      'ADR-0005': ['revoked', '2024-06-03', null, null],
    })
    expect(reading.skipped).toEqual(['adr-template.md'])
    expect(reading.problems).toHaveLength(1)
    expect(reading.problems[0]).toMatchObject({ path: '0006-cache-sessions-in-redis.md', line: 5 })
    expect(reading.problems[0]?.message).toMatch(/^front matter is not valid YAML/)
    const zod = reading.records.find((r) => r.key === 'ADR-0002')
    expect(zod?.rationale).toBe('it composes with TypeScript inferred types and Joi does not.')
    expect(zod?.evidence[0]?.summary).toContain('decision-makers: Alice Chen, Dana Smith')
  })

  it('log4brains: bullets, date-named keys (two on one day), a superseded-by link, and a file not in UTF-8 at its line', async () => {
    const reading = await readAdrFolder(FIXTURES + 'log4brains')
    expect(summary(reading.records)).toEqual({
      '20240110-use-log4brains-to-manage-the-adrs': ['accepted', '2024-01-10', null, null],
      '20240110-use-markdown-architectural-decision-records': ['accepted', '2024-01-10', null, null],
      '20240215-use-webpack-for-the-frontend-build': ['superseded', '2024-02-15', null, '20240402-use-vite-for-the-frontend-build'],
      '20240402-use-vite-for-the-frontend-build': ['accepted', '2024-04-02', '20240215-use-webpack-for-the-frontend-build', null],
      '20240418-run-end-to-end-tests-with-playwright': ['proposed', '2024-04-18', null, null],
      '20240503-keep-the-v1-endpoints-until-2025': ['deprecated', '2024-05-03', null, null],
    })
    expect(reading.skipped.sort()).toEqual(['index.md', 'template.md'])
    expect(reading.problems).toEqual([
      { path: '20240520-store-cv-uploads-in-s3.md', line: 10, message: 'not UTF-8 text (saved in another encoding?)' },
    ])
    expect(reading.formats).toEqual({ log4brains: 6 })
  })

  it('DECISIONS.md: one record per section, enforce levels, links both ways, a bad date and an archive not in UTF-8', async () => {
    const reading = await readAdrFolder(FIXTURES + 'decisions-md')
    expect(summary(reading.records)).toEqual({
      'D-001': ['accepted', '2025-06-03', null, null],
      'D-002': ['superseded', '2025-09-12', null, 'D-006'],
      'D-003': ['accepted', '2025-10-03', null, null],
      'D-004': ['accepted', '2025-10-18', null, null],
      'D-005': ['proposed', '2025-11-02', null, null],
      'D-006': ['accepted', '2026-01-20', 'D-002', null],
      // Its date is no day of the calendar: read as a section that writes none, and said.
      'D-007': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([
      { path: 'DECISIONS-2023.md', line: 10, message: 'not UTF-8 text (saved in another encoding?)' },
      { path: 'DECISIONS.md', line: 56, message: '"2026-13-01" is not a date; the record is read without it' },
    ])
    const d3 = reading.records.find((r) => r.key === 'D-003')
    expect(d3).toMatchObject({
      title: 'Never force push to protected branches',
      enforce: 'required',
      decision: 'Agents never run git push --force or --force-with-lease on main, develop or release branches.',
      rationale: 'Force push has lost us work twice, both times under pressure from real or perceived urgency.',
      origin: { path: 'DECISIONS.md', line: 22, format: 'decisions-md' },
    })
    expect(reading.records.find((r) => r.key === 'D-004')?.enforce).toBe('advisory')
  })

  it('keeps the beginning of a long title whole: counted in characters, never cut within one', () => {
    const file = (name: string, title: string) => ({
      path: name,
      name,
      bytes: new TextEncoder().encode(`# 1. ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nShip it.\n`),
    })
    // 300 emoji: 600 UTF-16 units. Cut in units, the title kept 149 emoji and half of the 150th.
    const emoji = readRecordFolder([file('0001-emoji.md', '😀'.repeat(400))]).records[0]?.title ?? ''
    expect(emoji).not.toMatch(/\p{Cs}/u) // no lone surrogate
    expect(emoji).toBe(`${'😀'.repeat(299)}…`)
    // A letter with a combining accent, and a family emoji (one character of five code points), stay whole.
    const accented = readRecordFolder([file('0001-accents.md', 'e\u0301'.repeat(200))]).records[0]?.title ?? ''
    expect(accented).toBe(`${'e\u0301'.repeat(149)}…`)
    const family = readRecordFolder([file('0001-family.md', `${'a'.repeat(297)}👨‍👩‍👧 and more`)]).records[0]?.title ?? ''
    expect(family).toBe(`${'a'.repeat(297)}…`)
    // At the limit, nothing is cut.
    expect(readRecordFolder([file('0001-fits.md', '😀'.repeat(300))]).records[0]?.title).toBe('😀'.repeat(300))
  })

  it('keys a date-named record whose name a key cannot hold by its slug and a hash of the name, links to it included', () => {
    const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })
    const reading = readRecordFolder([
      file('20240101-データベースの選定.md', '# データベースの選定\n\n- Status: superseded by [キャッシュ](20240301-キャッシュ層.md)\n- Date: 2024-01-01\n\n## Decision Outcome\n\nChosen option: "PostgreSQL", because 安定.\n'),
      file('20240301-キャッシュ層.md', '# キャッシュ層\n\n- Status: accepted\n- Date: 2024-03-01\n\n## Decision Outcome\n\nChosen option: "Redis", because 速い.\n'),
      file('20240401-use postgres.md', '# Use Postgres\n\n- Status: accepted\n- Date: 2024-04-01\n\n## Decision Outcome\n\nChosen option: "PostgreSQL", because it is known.\n'),
    ])
    expect(reading.problems).toEqual([])
    const keys = reading.records.map((r) => r.key)
    expect(keys).toEqual([expect.stringMatching(/^20240101-[0-9a-f]{8}$/), expect.stringMatching(/^20240301-[0-9a-f]{8}$/), expect.stringMatching(/^20240401-use-postgres-[0-9a-f]{8}$/)])
    expect(keys[0]).not.toBe(keys[1])
    expect(reading.records[0]).toMatchObject({ status: 'superseded', superseded_by: keys[1] })
    expect(reading.records[1]).toMatchObject({ supersedes: keys[0] })
    // The same name in the other Unicode form (macOS may give it decomposed) is the same key.
    expect(readRecordFolder([file('20240401-café.md'.normalize('NFD'), '# Café\n\n- Status: accepted\n')]).records[0]?.key).toBe(
      readRecordFolder([file('20240401-café.md', '# Café\n\n- Status: accepted\n')]).records[0]?.key,
    )
  })

  it('keys a record named as no key may be, too long or a word the API reserves, by its slug and a hash of the name', () => {
    const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })
    const long = `use-${'postgres-'.repeat(14)}for-payroll`
    const reading = readRecordFolder([
      file('check.md', '# Check\n\n- Status: accepted\n- Date: 2024-01-01\n\n## Decision Outcome\n\nChosen option: "Lint", because it is cheap.\n'),
      file(`${long}.md`, '# Long\n\n- Status: accepted\n- Date: 2024-01-01\n\n## Decision Outcome\n\nChosen option: "PostgreSQL", because it is known.\n'),
    ])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => r.key)).toEqual([expect.stringMatching(/^check-[0-9a-f]{8}$/), expect.stringMatching(/^use-postgres-[a-z-]+-[0-9a-f]{8}$/)])
    expect(reading.records[1]?.key.length).toBeLessThanOrEqual(120)
  })

  it('follows a link to a file name outside ASCII written percent-encoded, or in the other Unicode form', () => {
    const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })
    const record = (title: string, status: string) => `# ${title}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Decision\n\nx\n`
    const supersededVia = (name: string, link: string) =>
      readRecordFolder([file(name, record('1. キャッシュ', 'Accepted')), file('0002-redis.md', record('2. Redis', `Accepted\n\nSupersedes [1. キャッシュ](${link})`))])
    // As GitHub and editors write a link to 0001-キャッシュ.md.
    const encoded = supersededVia('0001-キャッシュ.md', '0001-%E3%82%AD%E3%83%A3%E3%83%83%E3%82%B7%E3%83%A5.md')
    expect(encoded.problems).toEqual([])
    expect(summary(encoded.records)).toMatchObject({ 'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'] })
    // The file name decomposed (as macOS may give it), the link typed composed.
    const decomposed = supersededVia('0001-café.md'.normalize('NFD'), '0001-café.md')
    expect(decomposed.problems).toEqual([])
    expect(summary(decomposed.records)).toMatchObject({ 'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'] })
    // Not percent-encoding (a lone %): taken as written.
    expect(supersededVia('0001-100%-cache.md', '0001-100%-cache.md').problems).toEqual([])
  })

  it('drops a link to a record that is not in the folder, at the line that wrote it', () => {
    const text = '# 3. Use Kafka\n\nDate: 2024-01-01\n\n## Status\n\nSuperceded by [9. Gone](0009-gone.md)\n'
    const reading = readRecordFolder([{ path: '0003-use-kafka.md', name: '0003-use-kafka.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.records[0]).toMatchObject({ key: 'ADR-0003', status: 'superseded', superseded_by: null })
    expect(reading.problems).toEqual([
      { path: '0003-use-kafka.md', line: 7, message: 'superseded by "0009-gone.md" names no record in this folder; the link is left out' },
    ])
  })

  it('quotes a link written as a number after #, not linked to any record, as written rather than as ""', () => {
    const text = '# 3. Use Kafka\n\nDate: 2024-01-01\n\n## Status\n\nReplaced by #9\n'
    const reading = readRecordFolder([{ path: '0003-use-kafka.md', name: '0003-use-kafka.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.records[0]).toMatchObject({ key: 'ADR-0003', status: 'superseded', superseded_by: null })
    expect(reading.problems).toEqual([
      { path: '0003-use-kafka.md', line: 7, message: 'superseded by "#9" names no record in this folder; the link is left out' },
    ])
  })

  it('keys a numbered record whose title begins with two numbers by its number, not as a date-named one', () => {
    const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })
    const reading = readRecordFolder([
      file('0003-64-32-bit-builds.md', '# 3. 64/32-bit builds\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nBoth.\n\n## Decision\n\nShip both.\n'),
      file('0004-drop-32-bit.md', '# 4. Drop 32-bit\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\nSupersedes [3. 64/32-bit builds](0003-64-32-bit-builds.md)\n\n## Context\n\nNone left.\n\n## Decision\n\n64 only.\n'),
      // And a log4brains record so named, with no date of its own, is undated rather than unreadable.
      file('0005-10-40-rule.md', '# 10/40 rule\n\n- Status: accepted\n\n## Decision Outcome\n\nChosen option: "10/40", because it fits.\n'),
    ])
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0003': ['superseded', '2024-02-01', null, 'ADR-0004'],
      'ADR-0004': ['accepted', '2024-05-01', 'ADR-0003', null],
      'ADR-0005': ['accepted', null, null, null],
    })
  })

  it('DECISIONS.md: a link naming a section keyed by its title, by that title, its heading or a link within the page, finds it', () => {
    for (const link of [
      'Do not version the API before beta',
      '2025-10-18 — Do not version the API before beta',
      '[Do not version the API before beta](#2025-10-18--do-not-version-the-api-before-beta)',
    ]) {
      const text = [
        '# Decision log', '',
        '## 2025-10-18 — Do not version the API before beta', '', 'Status: accepted', '', 'Too few consumers.', '',
        '## 2026-01-20 — Version the API', '', 'Status: accepted', `Supersedes: ${link}`, '', 'External consumers now.', '',
      ].join('\n')
      const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
      expect(reading.problems).toEqual([])
      expect(summary(reading.records)).toEqual({
        'DEC-do-not-version-the-api-before-beta': ['superseded', '2025-10-18', null, 'DEC-version-the-api'],
        'DEC-version-the-api': ['accepted', '2026-01-20', 'DEC-do-not-version-the-api-before-beta', null],
      })
    }
  })

  it('keys records named by an ISO date (yyyy-mm-dd-slug.md) by their names, not by their year, and dates them by it', () => {
    const file = (name: string, text: string) => ({ path: name, name, bytes: new TextEncoder().encode(text) })
    const reading = readRecordFolder([
      file('2024-01-15-use-postgres.md', '# Use Postgres\n\n## Status\n\nSuperseded by [Use CockroachDB](2024-03-02-use-cockroachdb.md)\n\n## Context\n\nJoins.\n\n## Decision\n\nPostgres.\n'),
      file('2024-03-02-use-cockroachdb.md', '# Use CockroachDB\n\n- Status: accepted\n\n## Decision Outcome\n\nChosen option: "CockroachDB", because it spreads.\n'),
    ])
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      '2024-01-15-use-postgres': ['superseded', '2024-01-15', null, '2024-03-02-use-cockroachdb'],
      '2024-03-02-use-cockroachdb': ['accepted', '2024-03-02', '2024-01-15-use-postgres', null],
    })
  })

  it('DECISIONS.md: a "Context:" field is the rationale when no "Rationale:" is given, and "---" between sections is no prose', () => {
    const text = [
      '# Architecture Decisions', '',
      '## ADR-001: Use TypeScript strict mode', '', '**Status:** Accepted', '**Date:** 2024-01-15', '',
      '**Context:** Runtime type errors reached production.', '', '**Decision:** Enable `strict`.', '', '---', '',
      '## ADR-002: Use pnpm', '', '**Status:** Accepted', '**Date:** 2024-02-01', '', 'npm was slow.', '', '---', '',
      '## ADR-003: Use Bun', '', '- Status: Proposed', '- Date: 2024-03-01', '- Rationale: Faster installs.', '- Context: CI minutes.', '',
    ].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-001', 'Enable `strict`.', 'Runtime type errors reached production.'],
      ['ADR-002', 'Use pnpm', 'npm was slow.'],
      ['ADR-003', 'Use Bun', 'Faster installs.'],
    ])
  })

  it('DECISIONS.md: "### Decision" and "### Context" under a decision are its decision and rationale, as an adr-tools record\'s "##" ones are', () => {
    const text = [
      '# Architecture Decisions', '',
      '## ADR-001: Use PostgreSQL', '', '**Status:** Accepted', '**Date:** 2026-01-10', '',
      '### Context', '', 'We need a relational database with JSON support.', '',
      '### Decision', '', 'We will use PostgreSQL 16 for all services.', '',
      '### Consequences', '', '- Need to run migrations.', '',
      '## ADR-002: Use Redis', '', '- Status: Accepted', '- Decision: Redis for sessions.', '', '### Context', '', 'Sessions are lost on deploy.', '',
    ].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.title, r.decision, r.rationale])).toEqual([
      ['ADR-001', 'Use PostgreSQL', 'We will use PostgreSQL 16 for all services.', 'We need a relational database with JSON support.'],
      ['ADR-002', 'Use Redis', 'Redis for sessions.', 'Sessions are lost on deploy.'],
    ])
  })

  it('the "---" that closes a section is none of its text: a DECISIONS.md "###" part, an adr-tools "##" section', () => {
    const text = [
      '# Decisions', '',
      '## D-010 Use Redis for sessions', '', '### Status', '', 'Superseded by D-011', '', '### Decision', '', 'Store sessions in Redis.', '', '---', '',
      '## D-011 Use Postgres for sessions', '', '### Status', '', 'Accepted', '', '### Decision', '', 'Store sessions in Postgres.', '', '### Context', '', 'One fewer service to run.', '', '* * *', '',
    ].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['D-010', 'Store sessions in Redis.', 'not stated in DECISIONS.md'],
      ['D-011', 'Store sessions in Postgres.', 'One fewer service to run.'],
    ])
    // So does an adr-tools record's section, before the next "##", and a --- in a code block stays.
    const adr = readTexts({
      '0001-use-redis.md': '# 1. Use Redis\n\nDate: 2024-01-10\n\n## Status\n\nAccepted\n\n## Context\n\nWe need a cache.\n\n---\n\n## Decision\n\nWe will use Redis:\n\n```yaml\n---\nmaxmemory: 1gb\n```\n\n___\n\n## Consequences\n\nRun it.\n',
    })
    expect(adr.problems).toEqual([])
    expect(adr.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([['ADR-0001', 'We will use Redis:\n\n```yaml\n---\nmaxmemory: 1gb\n```', 'We need a cache.']])
  })

  it('DECISIONS.md: a "### Status" part gives the status and its links, as an adr-tools "## Status" section does', () => {
    const text = [
      '# Decision log', '',
      '## ADR-001: Use MySQL', '', 'Date: 2026-01-05', '', '### Status', '', 'Superseded by [ADR-002](#adr-002-use-postgresql)', '',
      '### Context', '', 'We need a database.', '', '### Decision', '', 'MySQL 8.', '',
      '## ADR-002: Use PostgreSQL', '', 'Date: 2026-01-10', '', '### Status', '', 'Accepted', '', 'Supersedes [ADR-001](#adr-001-use-mysql)', '',
      '### Context', '', 'We need JSON support.', '', '### Decision', '', 'PostgreSQL 16.', '',
      '## ADR-003: Use Kafka', '', '### Context', '', 'Events.', '',
    ].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(summary(reading.records)).toEqual({
      'ADR-001': ['superseded', '2026-01-05', null, 'ADR-002'],
      'ADR-002': ['accepted', '2026-01-10', 'ADR-001', null],
    })
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-001', 'MySQL 8.', 'We need a database.'],
      ['ADR-002', 'PostgreSQL 16.', 'We need JSON support.'],
    ])
    expect(reading.problems).toEqual([{ path: 'DECISIONS.md', line: 37, message: '"ADR-003: Use Kafka" has no "Status:" field' }])
  })

  it('DECISIONS.md: a field beside the status in a "### Status" part is read as that field, not passed over as an unknown status', () => {
    const text = ['# Decisions', '', '## D-010: Never force push', '', '### Status', '', 'Accepted', '', '- Enforce: Required', '- Date: 2024-03-01', '', '### Decision', '', 'Agents never force push.', ''].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.status, r.enforce, r.date])).toEqual([['D-010', 'accepted', 'required', '2024-03-01']])
  })

  it('DECISIONS.md: the lines that go on a status or date field stay prose, as before fields went on over lines; a "### Status" or "### Decision" part is no rationale', () => {
    const text = [
      '# Decisions', '',
      '## D-001: Use X', '- Status: accepted', '- Date: 2024-01-01', '  (approved by the whole team)', '', 'Because reasons.', '',
      '## D-002: Use Y', '', '### Status', '', 'Accepted', '', '### Decision', '', 'Y 2.', '',
    ].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['D-001', 'Use X', '(approved by the whole team)\n\nBecause reasons.'],
      ['D-002', 'Y 2.', 'not stated in DECISIONS.md'],
    ])
  })

  it('DECISIONS.md: a field written over several lines keeps them all, and they are no prose', () => {
    const text = [
      '# Decisions', '',
      '## D-002: Use Redis for sessions', '',
      '- **Status**: Proposed', '- **Decision**: Store sessions in Redis', '  with a 24 h TTL.', '- **Context**: Sessions are lost',
      '  on every deploy.', '- Date: 2026-01-12', '',
      '## D-003: Use Vitest', '', '- Status: Accepted', '- Decision: Vitest.', '', '  An indented paragraph after a blank line is prose.', '',
    ].join('\n')
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['D-002', 'Store sessions in Redis\nwith a 24 h TTL.', 'Sessions are lost\non every deploy.'],
      ['D-003', 'Vitest.', 'An indented paragraph after a blank line is prose.'],
    ])
  })

  it('drops a link of a record to itself, saying so (a section copied with its links)', () => {
    const text = '# Decisions\n\n## D-004: Use Argo CD (2024-06-01)\n- Status: Accepted\n- Supersedes: D-004\n'
    const reading = readRecordFolder([{ path: 'DECISIONS.md', name: 'DECISIONS.md', bytes: new TextEncoder().encode(text) }])
    expect(reading.records[0]).toMatchObject({ key: 'D-004', status: 'accepted', supersedes: null })
    expect(reading.problems).toEqual([{ path: 'DECISIONS.md', line: 5, message: 'supersedes "D-004" names D-004 itself; the link is left out' }])
  })

  it('reports a file that is no decision record, and one without a title', () => {
    const files = [
      { name: '0001-notes.md', text: '# Notes\n\nSome thoughts.\n' },
      { name: '0002-untitled.md', text: 'Date: 2024-01-01\n\n## Status\n\nAccepted\n' },
    ].map((f) => ({ path: f.name, name: f.name, bytes: new TextEncoder().encode(f.text) }))
    expect(readRecordFolder(files).problems.map((p) => [p.path, p.line])).toEqual([
      ['0001-notes.md', 1],
      ['0002-untitled.md', 1],
    ])
  })
})

describe('status words and fields', () => {
  it('maps the words of each format to the lifecycle', () => {
    expect(readStatusLine('Accepted')).toEqual({ status: 'accepted' })
    expect(readStatusLine('**Proposed**')).toEqual({ status: 'proposed' })
    expect(readStatusLine('draft')).toEqual({ status: 'proposed' })
    expect(readStatusLine('Rejected')).toEqual({ status: 'revoked' })
    expect(readStatusLine('Deprecated')).toEqual({ status: 'deprecated' })
    expect(readStatusLine('superseded by ADR-0005')).toEqual({ status: 'superseded', supersededBy: 'ADR-0005' })
    expect(readStatusLine('Superceded by [5. Use X](0005-use-x.md)')).toEqual({ status: 'superseded', supersededBy: '0005-use-x.md' })
    expect(readStatusLine('Supercedes [2. Use Y](0002-use-y.md)')).toEqual({ supersedes: '0002-use-y.md' })
    expect(readStatusLine('Amended by [4. Z](0004-z.md)')).toEqual({})
    // A decision carried out was accepted first.
    expect(readStatusLine('Implemented')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Done')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Completed')).toEqual({ status: 'accepted' })
    // Not decided yet: nothing in force.
    for (const word of ['In progress', 'Deferred', 'On hold', 'Postponed']) expect(readStatusLine(word)).toEqual({ status: 'proposed' })
    expect(readStatusLine('maybe later')).toBeUndefined()
    // Underscores inside a word are no emphasis (CommonMark): file names keep them; _emphasis_ goes.
    expect(readStatusLine('Superseded by [5. Use X](0005_use_x.md)')).toEqual({ status: 'superseded', supersededBy: '0005_use_x.md' })
    expect(readStatusLine('_Superseded by_ ADR_0005')).toEqual({ status: 'superseded', supersededBy: 'ADR_0005' })
    expect(readStatusLine('__Accepted__')).toEqual({ status: 'accepted' })
    // "Replaced by" / "Replaces", as some teams write the supersede link, are that link.
    expect(readStatusLine('Replaced by [2. X](0002-x.md)')).toEqual({ status: 'superseded', supersededBy: '0002-x.md' })
    expect(readStatusLine('Replaces [1. Y](0001-y.md)')).toEqual({ supersedes: '0001-y.md' })
    // A badge before the word is no part of it.
    expect(readStatusLine('✅ Accepted')).toEqual({ status: 'accepted' })
    expect(readStatusLine('- ⚠️ **Deprecated**')).toEqual({ status: 'deprecated' })
    expect(readStatusLine('🟡 Proposed')).toEqual({ status: 'proposed' })
    // Inside the emphasis or brackets the status is written in, and with a skin tone.
    expect(readStatusLine('**✅ Accepted**')).toEqual({ status: 'accepted' })
    expect(readStatusLine('_✅ Accepted_')).toEqual({ status: 'accepted' })
    expect(readStatusLine('`✅ Accepted`')).toEqual({ status: 'accepted' })
    expect(readStatusLine('[✅ Accepted]')).toEqual({ status: 'accepted' })
    expect(readStatusLine('👍🏽 Accepted')).toEqual({ status: 'accepted' })
    expect(readStatusLine('**🔄 Superseded by** [5. Use X](0005-use-x.md)')).toEqual({ status: 'superseded', supersededBy: '0005-use-x.md' })
  })

  it('reads dates in the forms records use, and refuses days that do not exist', () => {
    expect(readDate('2024-03-04')).toBe('2024-03-04')
    expect(readDate('2024/03/04')).toBe('2024-03-04')
    expect(readDate('20240304')).toBe('2024-03-04')
    expect(readDate('2024-03-04T10:00:00Z')).toBe('2024-03-04')
    // Jekyll's own form, which MADR sites built with it keep in the front matter: the offset after a space.
    expect(readDate('2024-03-04 21:33:43 -0800')).toBe('2024-03-04')
    expect(readDate('2024-03-04 23:30:00 -05:00')).toBe('2024-03-04')
    expect(readDate('2024-02-30')).toBeUndefined()
    expect(readDate('someday')).toBeUndefined()
  })

  it('reads a date written by hand, its month named or its day in one digit, and leaves one whose order is unsure unread', () => {
    for (const text of ['4 March 2024', '4th March, 2024', 'March 4, 2024', 'Mar 4 2024', 'Mar. 4th, 2024', '2024-3-4', '2024/3/04']) {
      expect(readDate(text), text).toBe('2024-03-04')
    }
    expect(readDate('29 Sept 2024')).toBe('2024-09-29')
    expect(readDate('29 February 2024')).toBe('2024-02-29')
    expect(readDate('29 February 2023')).toBeUndefined()
    expect(readDate('04/03/2024')).toBeUndefined()
    expect(readDate('13/02/2016')).toBe('2016-02-13')
    expect(readDate('March 2024')).toBeUndefined()
    expect(readDate('4 Ma 2024')).toBeUndefined()
    expect(readDate('4 Mayo 2024')).toBeUndefined()
  })

  it('reads a date after its weekday, with "of", or day first with dots, and leaves one whose weekday is another day unread', () => {
    for (const text of ['Monday, 4 March 2024', 'Mon 4 Mar 2024', 'Monday, March 4, 2024', '4th of March 2024', 'Monday, 4th of March 2024', '04.03.2024', '4.3.2024']) {
      expect(readDate(text), text).toBe('2024-03-04')
    }
    expect(readDate('Tuesday, 12 March 2019')).toBe('2019-03-12')
    expect(readDate('12.05.2019')).toBe('2019-05-12')
    // The 4th of March 2024 was a Monday: the weekday or the day is wrong, and which is not said.
    expect(readDate('Tuesday, 4 March 2024')).toBeUndefined()
    expect(readDate('31.02.2024')).toBeUndefined()
    expect(readDate('5 juin 2023')).toBeUndefined()
    expect(readDate('Someday, 4 March 2024')).toBeUndefined()
  })

  it('reads fields written as bullets, bold or plain', () => {
    for (const text of ['- Status: accepted', '* **Status:** accepted', '- **Status**: accepted', 'Status: accepted']) {
      expect(fieldOf(numbered(text), /^status$/i)?.value).toBe('accepted')
    }
  })
})

/** Reads files given as text, as readRecordFolder reads them from disk. */
function readTexts(files: Record<string, string>, today?: string) {
  return readRecordFolder(
    Object.entries(files).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })),
    undefined,
    [],
    today,
  )
}

describe('files of a folder that are not .md', () => {
  it('a record saved without its .md, or as .markdown, is said, not passed over as an image is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adr-'))
    try {
      const adr = '# 16. Handle concurrent git operations\n\nDate: 2021-05-04\n\n## Status\n\nAccepted\n\n## Decision\n\nOne worker.\n'
      await writeFile(join(dir, '0015-remove-postgres.md'), adr.replace('16.', '15.'))
      await writeFile(join(dir, '0016-handle-concurrent-git-operations'), adr)
      await writeFile(join(dir, '0017-use-queues.markdown'), adr.replace('16.', '17.'))
      // Named by a date, as log4brains and MADR name records (hyperledger/identus-cloud-agent's
      // `docs/decisions/20240604-hdkey-domain-separation` has no `.md`).
      await writeFile(join(dir, '20240604-hdkey-domain-separation'), '# HDKey domain separation\n\n- Status: accepted\n')
      await writeFile(join(dir, '2024-06-05-use-b'), '# Use B\n\n- Status: accepted\n')
      await writeFile(join(dir, '0008-hexagonal-architecture.jpg'), 'not text')
      await writeFile(join(dir, 'Makefile'), 'all:\n')
      const reading = await readAdrFolder(dir)
      expect(reading.records.map((r) => r.key)).toEqual(['ADR-0015'])
      expect([...reading.problems].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
        { path: '0016-handle-concurrent-git-operations', line: 1, message: 'named as a record but not a .md file, so it is not read; rename it 0016-handle-concurrent-git-operations.md to import it' },
        { path: '0017-use-queues.markdown', line: 1, message: 'named as a record but not a .md file, so it is not read; rename it 0017-use-queues.md to import it' },
        { path: '2024-06-05-use-b', line: 1, message: 'named as a record but not a .md file, so it is not read; rename it 2024-06-05-use-b.md to import it' },
        { path: '20240604-hdkey-domain-separation', line: 1, message: 'named as a record but not a .md file, so it is not read; rename it 20240604-hdkey-domain-separation.md to import it' },
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a record linked into the folder is read as its file, a link to a folder is passed over, and one to nothing is said', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adr-'))
    try {
      await mkdir(join(dir, 'shared'))
      await writeFile(join(dir, '0001-use-a.md'), '# 1. Use A\n\n## Status\n\nSuperseded by [2. Use B](0002-use-b.md)\n')
      await writeFile(join(dir, 'shared', 'b.md'), '# 2. Use B\n\n## Status\n\nAccepted\n')
      await symlink(join(dir, 'shared', 'b.md'), join(dir, '0002-use-b.md'))
      await symlink(join(dir, 'shared'), join(dir, '0003-folder.md'))
      await symlink(join(dir, 'gone.md'), join(dir, '0004-gone.md'))
      // Not a record's name: no file of the folder.
      await symlink(join(dir, 'gone.png'), join(dir, 'diagram.png'))
      const reading = await readAdrFolder(dir)
      expect(reading.problems).toEqual([{ path: '0004-gone.md', line: 1, message: `cannot read: a symbolic link to ${join(dir, 'gone.md')}, which is not there` }])
      expect(summary(reading.records)).toEqual({ 'ADR-0001': ['superseded', null, null, 'ADR-0002'], 'ADR-0002': ['accepted', null, 'ADR-0001', null] })
      // A record's link to nothing is no record deleted: its decision is not said to be gone.
      expect(reading.files).toEqual(['0001-use-a.md', '0002-use-b.md', '0004-gone.md'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('records as projects write them', () => {
  it('DECISIONS.md: a date in brackets after the title is taken out with its brackets', () => {
    const reading = readTexts({
      'DECISIONS.md': '# Decisions\n\n## D-001: Use TypeScript (2023-01-10)\n\n- Status: accepted\n\nType errors cost us a release.\n\n' +
        '## D-002 — Use pnpm — 2023-05-01\n\n- Status: accepted\n\n' +
        // Brackets the title writes itself are not the date's.
        '## D-003: Call close() on every stream [] (2023-06-01)\n\n- Status: accepted\n\n' +
        // A title that opens with a bracket keeps it; the brackets around the key go.
        '## D-004: (Re)use the connection pool\n\n- Status: accepted\n- Date: 2023-07-01\n\n' +
        '## [D-005] Use Vitest\n\n- Status: accepted\n- Date: 2023-08-01\n\n' +
        // A key after the title goes with its brackets too.
        '## Use Postgres (D-006)\n\n- Status: accepted\n- Date: 2023-09-01\n\n' +
        '## Use Redis [D-007] (2023-10-01)\n\n- Status: accepted\n',
    })
    expect(reading.records.map((r) => [r.key, r.title, r.decision, r.date])).toEqual([
      ['D-001', 'Use TypeScript', 'Use TypeScript', '2023-01-10'],
      ['D-002', 'Use pnpm', 'Use pnpm', '2023-05-01'],
      ['D-003', 'Call close() on every stream []', 'Call close() on every stream []', '2023-06-01'],
      ['D-004', '(Re)use the connection pool', '(Re)use the connection pool', '2023-07-01'],
      ['D-005', 'Use Vitest', 'Use Vitest', '2023-08-01'],
      ['D-006', 'Use Postgres', 'Use Postgres', '2023-09-01'],
      ['D-007', 'Use Redis', 'Use Redis', '2023-10-01'],
    ])
  })
})

describe('DECISIONS.md titles in any script', () => {
  it('gives sections without a key their own keys, however little of the title is Latin', () => {
    const reading = readTexts({
      'DECISIONS.md': '# 決定\n\n## データ移行の方針\n\n- Status: accepted\n- Date: 2024-01-01\n\n' +
        '## API 설계\n\n- Status: accepted\n- Date: 2024-02-01\n\n' +
        '## API 배포\n\n- Status: accepted\n- Date: 2024-03-01\n\n' +
        '## Café au lait for everyone\n\n- Status: accepted\n- Date: 2024-04-01\n',
    })
    expect(reading.problems).toEqual([])
    const keys = reading.records.map((r) => r.key)
    expect(keys).toHaveLength(4)
    expect(new Set(keys).size).toBe(4)
    expect(keys[0]).toMatch(/^DEC-[0-9a-f]{8}$/)
    expect(keys[1]).toMatch(/^DEC-api-[0-9a-f]{8}$/)
    // A title in Latin letters, accents included, keeps its plain slug.
    expect(keys[3]).toBe('DEC-cafe-au-lait-for-everyone')
    // So does one with Latin letters that have no ASCII form: the key it had before hashes were
    // added, or a re-import would store the decision a second time beside the old key.
    const latin = readTexts({ 'DECISIONS.md': '## Straße sperren\n\n- Status: accepted\n- Date: 2024-01-01\n\n## Løsning for lagring\n\n- Status: accepted\n- Date: 2024-01-02\n' })
    expect(latin.records.map((r) => r.key)).toEqual(['DEC-stra-e-sperren', 'DEC-l-sning-for-lagring'])
    // The same title gives the same key on every import.
    expect(readTexts({ 'DECISIONS.md': '## API 설계\n\n- Status: accepted\n- Date: 2024-02-01\n' }).records[0]?.key).toBe(keys[1])
  })
})

describe('log4brains and MADR 2 bullets with the template comments kept', () => {
  it('reads "- Date: 2023-07-20 <!-- optional -->" as the date, and leaves the comments out of the deciders', () => {
    const reading = readTexts({
      '20230720-use-sqlmodel.md':
        '# Use SQLModel\n\n- Status: accepted <!-- optional -->\n- Deciders: JLB <!-- optional -->\n' +
        '- Date: 2023-07-20 <!-- optional. To customize the ordering without relying on Git: created::[[YYYY-MM-DD]], updated::[[YYYY-MM-DD]] -->\n\n' +
        '## Decision Outcome\n\nChosen option: "SQLModel", because it generates the tables.\n',
      '0001-use-angular.md':
        '# Use Angular\n\n* Status: superseded by [ADR-0002](0002-use-react.md) <!-- optional -->\n* Date: 2018-01-01 <!-- optional -->\n',
      '0002-use-react.md': '# Use React\n\n* Status: accepted\n* Date: 2019-01-01\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      '20230720-use-sqlmodel': ['accepted', '2023-07-20', null, null],
      'ADR-0001': ['superseded', '2018-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2019-01-01', 'ADR-0001', null],
    })
    expect(reading.records.find((r) => r.key === '20230720-use-sqlmodel')?.evidence[0]?.summary).toBe(
      'log4brains record 20230720-use-sqlmodel.md; deciders: JLB',
    )
  })
})

describe('MADR decision outcomes', () => {
  it('"because of X" keeps its "because": "of X" alone is no reason', () => {
    const reading = readTexts({
      '20210601-use-pnpm.md': '# Use pnpm\n\n- Status: accepted\n\n## Decision Outcome\n\nChosen option: "pnpm", because of disk use.\n',
      '0002-use-go.md': '---\nstatus: accepted\n---\n# Use Go\n\n## Decision Outcome\n\nChosen option: "Go", because offers static binaries.\n',
    })
    expect(reading.records.map((r) => r.rationale)).toEqual(['offers static binaries.', 'because of disk use.'])
  })

  it('"Chosen option: X, because" with the reasons listed below it: the list is the rationale', () => {
    const reading = readTexts({
      '0000-use-madr.md':
        '---\nstatus: accepted\ndate: 2022-09-14\n---\n\n# Use MADR\n\n## Context and Problem Statement\n\nWhich format?\n\n' +
        '## Decision Outcome\n\nChosen option: "MADR 4.0.0", because\n\n* Implicit assumptions should be made explicit.\n' +
        '* MADR allows for structured capturing of any decision.\n\n### Consequences\n\n* Good, because it is lean.\n',
      '0001-use-pino.md':
        '---\nstatus: accepted\ndate: 2023-06-01\n---\n\n# Use pino\n\n## Context and Problem Statement\n\nLogs.\n\n' +
        '## Decision Outcome\n\nChosen option: "pino", because:\n\n- **Fast**: it writes JSON.\n',
    })
    const [madr, pino] = reading.records
    expect(madr?.decision).toBe(
      'Chosen option: "MADR 4.0.0", because\n\n* Implicit assumptions should be made explicit.\n* MADR allows for structured capturing of any decision.',
    )
    expect(madr?.rationale).toBe('* Implicit assumptions should be made explicit.\n* MADR allows for structured capturing of any decision.')
    expect(pino?.rationale).toBe('- **Fast**: it writes JSON.')
  })

  it('"Chosen option: X, with these settings:" and the list below it: the sentence after the list is the rationale', () => {
    const outcome = (after: string) =>
      '---\nstatus: accepted\n---\n\n# Use Kafka\n\n## Context and Problem Statement\n\nWe need a queue.\n\n' +
      `## Decision Outcome\n\nChosen option: "Kafka", with these settings:\n\n* three replicas\n* retention of 7 days\n\n${after}`
    const reading = readTexts({
      '0001-use-kafka.md': outcome('Kafka is the only broker our ops team already runs.\n\n### Consequences\n\n* Good, because it scales.\n'),
      // No sentence after the list: the context, as before; nor is a heading, a comment or a line that opens a list.
      '0002-use-kafka.md': outcome('### Consequences\n\n* Good, because it scales.\n'),
      '0003-use-kafka.md': outcome('<!-- This is an optional element. Feel free to remove. -->\n### Consequences\n'),
      '0004-use-kafka.md': outcome('**Positive Consequences:**\n\n* it scales\n'),
    })
    expect(reading.records.map((r) => r.rationale)).toEqual(['Kafka is the only broker our ops team already runs.', 'We need a queue.', 'We need a queue.', 'We need a queue.'])
    // After a code example, or in a "## Decision" section, what follows is more of the decision.
    const more = readTexts({
      '0005-use-fetch.md':
        '---\nstatus: accepted\n---\n\n# Use fetch\n\n## Context\n\nToo many HTTP packages.\n\n## Decision Outcome\n\nBackends use node-fetch, so:\n\n```ts\nimport fetch from \'node-fetch\'\n```\n\nFrontends use fetchApiRef.\n',
      '0006-use-fetch.md': '---\nstatus: accepted\n---\n\n# Use fetch\n\n## Context\n\nToo many HTTP packages.\n\n## Decision\n\nWe will:\n\n* use node-fetch\n\nFrontends use fetchApiRef.\n',
    })
    expect(more.records.map((r) => r.rationale)).toEqual(['Too many HTTP packages.', 'Too many HTTP packages.'])
    expect(reading.records[0]?.decision).toBe('Chosen option: "Kafka", with these settings:\n\n* three replicas\n* retention of 7 days')
  })
})

describe('a MADR record whose front matter has no date', () => {
  it('is read, dated by a "Date:" line under its title, else by its file name, else by nothing', () => {
    const madr = (title: string, under = '') => `---\nstatus: accepted\ndecision-makers: Ann\n---\n\n# ${title}\n${under}\n## Decision Outcome\n\nChosen option: "${title}".\n`
    const reading = readTexts({
      '0001-use-rest.md': madr('Use REST', '\nDate: 2023-02-01\n'),
      '20230301-use-grpc.md': madr('Use gRPC'),
      '0003-use-zod.md': madr('Use Zod'),
      '0004-use-vite.md': madr('Use Vite', '\n* Date: March\n'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2023-02-01', null, null],
      '20230301-use-grpc': ['accepted', '2023-03-01', null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([{ path: '0004-use-vite.md', line: 8, message: '"March" is not a date; the record is read without it' }])
  })
})

describe("a MADR record's decision-makers", () => {
  it('names no one for the template placeholder left in braces, and says a map or list that names people', () => {
    const madr = (makers: string) => `---\nstatus: accepted\ndecision-makers: ${makers}\n---\n\n# Use REST\n\n## Decision Outcome\n\nChosen option: "REST".\n`
    const reading = readTexts({
      '0001-use-rest.md': madr('{list everyone involved in the decision}'),
      '0002-use-grpc.md': madr('{lead: Ann, reviewer: [Bo, Cy]}'),
      '0003-use-zod.md': madr('[Ann, {list everyone else}]'),
    })
    const said = Object.fromEntries(reading.records.map((r) => [r.key, r.evidence[0]?.summary ?? '']))
    expect(said['ADR-0001']).not.toContain('decision-makers')
    expect(said['ADR-0001']).not.toContain('[object Object]')
    expect(said['ADR-0002']).toContain('decision-makers: lead: Ann, reviewer: Bo, Cy')
    expect(said['ADR-0003']).toMatch(/decision-makers: Ann$/)
  })
})

describe('a MADR record titled in its front matter', () => {
  it('is titled by its title key in any case, as its other keys are read, where it has no heading', () => {
    const reading = readTexts({
      '0001-use-rest.md': '---\nstatus: accepted\ntitle: Use REST\n---\n\n## Decision Outcome\n\nChosen option: "REST".\n',
      '0002-use-grpc.md': '---\nStatus: accepted\nTitle: Use gRPC\n---\n\n## Decision Outcome\n\nChosen option: "gRPC".\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.title])).toEqual([
      ['ADR-0001', 'Use REST'],
      ['ADR-0002', 'Use gRPC'],
    ])
  })
})

describe('a record that says no date, in every format', () => {
  it('is read with no date, as a MADR one is, and so is one whose date cannot be read, a problem at its line', () => {
    const reading = readTexts({
      '0001-use-rest.md': '# 1. Use REST\n\n## Status\n\nAccepted\n\n## Decision\n\nREST.\n',
      '0002-use-grpc.md': '# 2. Use gRPC\n\nDate: soon\n\n## Status\n\nAccepted\n',
      '0003-use-zod.md': '# Use Zod\n\n- Status: accepted\n- Deciders: Ann\n',
      '0004-use-vite.md': '# Use Vite\n\n- Status: accepted\n- Date: March\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: accepted\n\n## D-002: Use spaces\n\n- Status: accepted\n- Date: 2024-13-01\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', null, null, null],
      'D-001': ['accepted', null, null, null],
      'D-002': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0002-use-grpc.md', line: 3, message: '"soon" is not a date; the record is read without it' },
      { path: '0004-use-vite.md', line: 4, message: '"March" is not a date; the record is read without it' },
      { path: 'DECISIONS.md', line: 10, message: '"2024-13-01" is not a date; the record is read without it' },
    ])
  })
})

describe('a record whose date field is left empty', () => {
  it('is read as one that writes none, in every format, as MADR reads an empty `date:`: the next date it writes, else none, and nothing said', () => {
    const reading = readTexts({
      // adr-tools: an empty Date: line; the day of its status comes next.
      '0001-use-a.md': '# 1. Use A\n\nDate:\n\n## Status\n\nAccepted on 2024-02-01\n\n## Decision\n\nA.\n',
      '0002-use-b.md': '# 2. Use B\n\nDate:   \n\n## Status\n\nAccepted\n\n## Decision\n\nB.\n',
      '0003-use-c.md': '---\nstatus: accepted\ndate:\n---\n\n# Use C\n\n## Decision Outcome\n\nChosen option: "C".\n',
      // log4brains: the file name's date comes next.
      '20240203-use-d.md': '# Use D\n\n- Status: accepted\n- Date:\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use E\n\n- Status: accepted\n- Date:\n\nE.\n\n## D-002: Use F (2024-02-04)\n\n- Status: accepted\n- Date: \n\nF.\n',
      'D-099-use-g.md': '---\nid: D-099\nslug: use-g\ntitle: Use G\ndate:\nsource: session\nenforce: advisory\n---\n\n# Use G\n\nG.\n\n## Reasoning\n\nBecause.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-01', null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      '20240203-use-d': ['accepted', '2024-02-03', null, null],
      'D-001': ['accepted', null, null, null],
      'D-002': ['accepted', '2024-02-04', null, null],
      'D-099': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([])
  })
})

describe('a record whose date cannot be read', () => {
  it('is read as if that date were not written: the next date its format reads, else none, and said at its line, with the date read instead', () => {
    const reading = readTexts({
      // adr-tools: the day written with the status.
      '0001-use-rest.md': '# 1. Use REST\n\nDate: 5 juin 2023\n\n## Status\n\nAccepted on 2023-06-05\n',
      // MADR: the front matter's date, then the "Date:" line under the title.
      '0002-use-grpc.md': '---\nstatus: accepted\ndate: 5 juin 2023\n---\n\n# Use gRPC\n\nDate: 2023-06-06\n',
      // log4brains: the file name's date.
      '20230607-use-zod.md': '# Use Zod\n\n- Status: accepted\n- Date: le 7 juin\n',
      // DECISIONS.md: the heading's date, and one with none.
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs (2023-06-08)\n\n- Status: accepted\n- Date: 8/6/23\n\n## D-002: Use spaces\n\n- Status: accepted\n- Date: Juni 2023\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2023-06-05', null, null],
      'ADR-0002': ['accepted', '2023-06-06', null, null],
      '20230607-use-zod': ['accepted', '2023-06-07', null, null],
      'D-001': ['accepted', '2023-06-08', null, null],
      'D-002': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0001-use-rest.md', line: 3, message: '"5 juin 2023" is not a date; passed over, the record is dated 2023-06-05' },
      { path: '0002-use-grpc.md', line: 3, message: '"5 juin 2023" is not a date; passed over, the record is dated 2023-06-06' },
      { path: '20230607-use-zod.md', line: 4, message: '"le 7 juin" is not a date; passed over, the record is dated 2023-06-07' },
      { path: 'DECISIONS.md', line: 6, message: '"8/6/23" is not a date; passed over, the record is dated 2023-06-08' },
      { path: 'DECISIONS.md', line: 11, message: '"Juni 2023" is not a date; the record is read without it' },
    ])
  })
})

describe('a MADR record whose front matter date is a YAML list or mapping', () => {
  it('is read without it, said as written, as AXME Code says the same text: a list is not a date', () => {
    const reading = readTexts({
      '0001-use-a.md': '---\nstatus: accepted\ndate: [2024-02-01]\n---\n\n# Use A\n\n## Decision Outcome\n\nChosen option: "A".\n',
      // The next date the record writes is taken: the "Date:" line under the title, the day of its status.
      '0002-use-b.md': '---\nstatus: accepted\ndate:\n  - 2024-02-01\n  - 2024-02-02\n---\n\n# Use B\n\nDate: 2024-02-03\n',
      '0003-use-c.md': '---\nstatus: accepted (2024-02-05)\ndate: {on: 2024-02-04}\n---\n\n# Use C\n',
      'D-001-use-d.md': '---\nid: D-001\nslug: use-d\ntitle: Use D\ndate: [2024-02-01]\nsource: session\nenforce: advisory\n---\n\n# Use D\n\nD.\n\n## Reasoning\n\nBecause.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', '2024-02-03', null, null],
      'ADR-0003': ['accepted', '2024-02-05', null, null],
      'D-001': ['accepted', null, null, null],
    })
    const unread = 'is not a date; the record is read without it'
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: `"[2024-02-01]" ${unread}` },
      { path: '0002-use-b.md', line: 3, message: '"[2024-02-01, 2024-02-02]" is not a date; passed over, the record is dated 2024-02-03' },
      { path: '0003-use-c.md', line: 3, message: '"{on: 2024-02-04}" is not a date; passed over, the record is dated 2024-02-05' },
      { path: 'D-001-use-d.md', line: 5, message: `"[2024-02-01]" ${unread}` },
    ])
  })
})

describe('a MADR record whose front matter date is an empty YAML list or mapping', () => {
  it('is read as one whose date is left empty: the next date it writes, else none, and nothing said', () => {
    const reading = readTexts({
      '0001-use-a.md': '---\nstatus: accepted\ndate: []\n---\n\n# Use A\n\n## Decision Outcome\n\nChosen option: "A".\n',
      // The next date the record writes is taken: the "Date:" line under the title, the file name's, the day of its status.
      '0002-use-b.md': '---\nstatus: accepted\ndate: [ ]\n---\n\n# Use B\n\nDate: 2024-02-03\n',
      '2024-02-04-use-c.md': '---\nstatus: accepted\ndate: {}\n---\n\n# Use C\n',
      '0005-use-e.md': '---\nstatus: accepted (2024-02-05)\nDate: []\n---\n\n# Use E\n',
      // A list with an item stays said, as a list is no date.
      '0006-use-f.md': '---\nstatus: accepted\ndate: [""]\n---\n\n# Use F\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', '2024-02-03', null, null],
      '2024-02-04-use-c': ['accepted', '2024-02-04', null, null],
      'ADR-0005': ['accepted', '2024-02-05', null, null],
      'ADR-0006': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([{ path: '0006-use-f.md', line: 3, message: '"[\"\"]" is not a date; the record is read without it' }])
  })
})

describe('a MADR record whose front matter status is a YAML list', () => {
  it('reads a list of one as its item, as `Status: [Accepted]` is read, and refuses a list of more, as a decision has one status', () => {
    const reading = readTexts({
      '0001-use-a.md': '---\nstatus: [accepted]\ndate: 2024-02-01\n---\n\n# Use A\n\n## Decision Outcome\n\nChosen option: "A".\n',
      '0002-use-b.md': '---\nstatus:\n  - deprecated\n---\n\n# Use B\n\n## Decision Outcome\n\nChosen option: "B".\n',
      // Read as its first, "accepted", the record written deprecated too was enforced as in force.
      '0003-use-c.md': '---\nstatus: [accepted, deprecated]\n---\n\n# Use C\n\n## Decision Outcome\n\nChosen option: "C".\n',
      '0004-use-d.md': '---\ntitle: Use D\nstatus:\n  - accepted\n  - superseded by ADR-0001\n---\n\n## Decision Outcome\n\nChosen option: "D".\n',
      // The template's statuses written as a YAML list: said as the template's list, as in braces.
      '0005-use-e.md': '---\nstatus: [proposed, accepted, rejected, deprecated]\n---\n\n# Use E\n\n## Decision Outcome\n\nChosen option: "E".\n',
      // An empty list is a status left empty, as `status:` is.
      '0006-use-f.md': '---\nstatus: []\n---\n\n# Use F\n\n## Decision Outcome\n\nChosen option: "F".\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-01', null, null],
      'ADR-0002': ['deprecated', null, null, null],
    })
    const one = 'a list of statuses, where a decision has one; write the one that holds'
    expect(reading.problems).toEqual([
      { path: '0003-use-c.md', line: 2, message: `unknown status "[accepted, deprecated]": ${one}` },
      { path: '0004-use-d.md', line: 3, message: `unknown status "[accepted, superseded by ADR-0001]": ${one}` },
      { path: '0005-use-e.md', line: 2, message: `unknown status "[proposed, accepted, rejected, deprecated]": the template's list of statuses, left as it was; write the one that holds` },
      { path: '0006-use-f.md', line: 2, message: 'the front matter has no status' },
    ])
  })
})

describe('a MADR front matter status written otherwise than as one word', () => {
  const madr = (status: string) => `---\nstatus: ${status}\ndate: 2024-02-01\n---\n\n# Use it\n\n## Decision Outcome\n\nChosen option: "it".\n`
  const one = 'a list of statuses, where a decision has one; write the one that holds'

  it('reads a list of two words for one status as the status line of those words reads', () => {
    const reading = readTexts({
      '0001-use-a.md': madr('[Accepted, Implemented]'),
      '0002-use-b.md': madr('Accepted, implemented'),
      '0003-use-c.md': madr('[accepted, done]'),
      // Two statuses, as the line `Proposed, accepted` is: still refused.
      '0004-use-d.md': madr('[Proposed, Accepted]'),
      '0005-use-e.md': madr('[frobbed, twiddled]'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-01', null, null],
      'ADR-0002': ['accepted', '2024-02-01', null, null],
      'ADR-0003': ['accepted', '2024-02-01', null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0004-use-d.md', line: 2, message: `unknown status "[Proposed, Accepted]": ${one}` },
      // Said as the list written, not as the line its items were read as.
      { path: '0005-use-e.md', line: 2, message: 'unknown status "[frobbed, twiddled]"' },
    ])
  })

  it('says a nested, empty, null or numeric status at its line, and imports none of them', () => {
    const reading = readTexts({
      '0001-use-a.md': madr('[{accepted}]'),
      '0002-use-b.md': madr('{a: b}'),
      // Unwrapped, a list in a list was read as accepted, unsaid, where the line `Status: [[accepted]]` is none.
      '0003-use-c.md': madr('[[accepted]]'),
      // Said as a status section naming none, which a MADR record has not.
      '0004-use-d.md': madr('""'),
      '0005-use-e.md': madr('null'),
      '0006-use-f.md': madr('42'),
      '0007-use-g.md': madr('[accepted, null]'),
    })
    expect(reading.records).toEqual([])
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 2, message: 'unknown status "[{accepted}]"' },
      { path: '0002-use-b.md', line: 2, message: 'unknown status "{a: b}"' },
      { path: '0003-use-c.md', line: 2, message: 'unknown status "[[accepted]]": a list inside a list; write the one status that holds' },
      { path: '0004-use-d.md', line: 2, message: 'the front matter has no status' },
      { path: '0005-use-e.md', line: 2, message: 'the front matter has no status' },
      { path: '0006-use-f.md', line: 2, message: 'unknown status "42"' },
      { path: '0007-use-g.md', line: 2, message: `unknown status "[accepted, null]": ${one}` },
    ])
  })

  it('reads a status or a link that is an alias to its own list as none, rather than unwrapping it without end, and says each at its line as written', () => {
    const matter = (key: string, title: string) => `---\nstatus: accepted\n${key}\n---\n\n# ${title}\n\n## Decision Outcome\n\nChosen option: "${title}".\n`
    const reading = readTexts({
      '0001-use-a.md': madr('&a [*a]'),
      // Passed over unsaid, the record was imported with no link and no word of why.
      '0002-use-b.md': matter('supersedes: &s [*s]', 'Use B'),
      '0003-use-c.md': matter('Superseded-By:  &t [*t]', 'Use C'),
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0002': ['accepted', null, null, null], 'ADR-0003': ['accepted', null, null, null] })
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 2, message: 'unknown status "&a [*a]": a list inside a list; write the one status that holds' },
      { path: '0002-use-b.md', line: 3, message: 'supersedes "&s [*s]" is a list inside itself, which names no record' },
      { path: '0003-use-c.md', line: 3, message: 'Superseded-By "&t [*t]" is a list inside itself, which names no record' },
    ])
  })

  it('says a link written as a mapping at its line, as written, and imports the record without it', () => {
    const matter = (key: string, title: string) => `---\nstatus: accepted\n${key}\n---\n\n# ${title}\n\n## Decision Outcome\n\nChosen option: "${title}".\n`
    const reading = readTexts({
      '0001-use-a.md': matter('', 'Use A'),
      // Each passed over unsaid: imported with no link and no word of why.
      '0002-use-b.md': matter('supersedes: {ADR-0001}  # braces', 'Use B'),
      '0003-use-c.md': matter('Superseded-By: [{a: b}]', 'Use C'),
      '0004-use-d.md': matter('supersedes:\n  a: b', 'Use D'),
      // Left empty, as `supersedes:` with nothing after it: no link, nothing said.
      '0005-use-e.md': matter('supersedes: {}', 'Use E'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', null, null, null],
      'ADR-0005': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0002-use-b.md', line: 3, message: 'supersedes "{ADR-0001}" is a mapping, which names no record' },
      { path: '0003-use-c.md', line: 3, message: 'Superseded-By "[{a: b}]" holds a mapping, which names no record' },
      { path: '0004-use-d.md', line: 3, message: 'supersedes "{a: b}" is a mapping, which names no record' },
    ])
  })

  it('says an enforce written as a list or mapping as its line writes it, an alias to its own list too, and imports none of them', () => {
    const matter = (enforce: string) => `---\nstatus: accepted\nenforce: ${enforce}\n---\n\n# Use it\n\n## Decision Outcome\n\nChosen option: "it".\n`
    const reading = readTexts({
      // Said `enforce ""`, as JavaScript writes a list that holds itself.
      '0001-use-a.md': matter('&e [*e]'),
      // Said `enforce "[object Object]"`.
      '0002-use-b.md': matter('{a: b}'),
      // Read as its innermost item, unsaid, as a status so written no longer is.
      '0003-use-c.md': matter('[[required]]'),
      // A list of one is its item, as a status's is.
      '0004-use-d.md': matter('[required]'),
    })
    expect(reading.records.map((r) => [r.key, r.enforce])).toEqual([['ADR-0004', 'required']])
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: 'enforce "&e [*e]" is neither required nor advisory' },
      { path: '0002-use-b.md', line: 3, message: 'enforce "{a: b}" is neither required nor advisory' },
      { path: '0003-use-c.md', line: 3, message: 'enforce "[[required]]" is neither required nor advisory' },
    ])
  })

  it('says a date, or keeps the decision-makers, that is an alias to its own list as the line writes it, not as YAML writes it anew', () => {
    const matter = (field: string) => `---\nstatus: accepted\n${field}\n---\n\n# Use it\n\n## Decision Outcome\n\nChosen option: "it".\n`
    const reading = readTexts({
      // Said `"&a1 [*a1]" is not a date`, an anchor the file never wrote.
      '0001-use-a.md': matter('date: &a [*a]'),
      '0002-use-b.md': matter('Date: [&d [*d]]'),
      // Followed without end: a stack overflow, said as the whole folder that could not be read.
      '0003-use-c.md': matter('decision-makers: &m [*m]'),
      '0004-use-d.md': matter('deciders: [Ann, &n [*n]]'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: '"&a [*a]" is not a date; the record is read without it' },
      { path: '0002-use-b.md', line: 3, message: '"[&d [*d]]" is not a date; the record is read without it' },
    ])
    const summaries = Object.fromEntries(reading.records.map((r) => [r.key, r.evidence[0]?.summary]))
    expect(summaries['ADR-0003']).toBe('madr record 0003-use-c.md; decision-makers: &m [*m]')
    expect(summaries['ADR-0004']).toBe('madr record 0004-use-d.md; decision-makers: [Ann, &n [*n]]')
  })

  it('says an enforce left empty as empty, in any format, and imports none of them', () => {
    const matter = (enforce: string) => `---\nstatus: accepted\n${enforce}\n---\n\n# Use it\n\n## Decision Outcome\n\nChosen option: "it".\n`
    const reading = readTexts({
      // Said `enforce "null"`, a word the file never wrote.
      '0001-use-a.md': matter('enforce:'),
      '0002-use-b.md': matter('Enforce:   # later'),
      // Said `enforce "[]"` and `enforce "{}"`.
      '0003-use-c.md': matter('enforce: []'),
      '0004-use-d.md': matter('enforce: {}'),
      '0005-use-e.md': matter('enforce: ""'),
      // Said `enforce ""`.
      '0006-use-f.md': '# 6. Use F\n\nDate: 2024-01-06\nEnforce:\n\n## Status\n\nAccepted\n\n## Decision\n\nF.\n',
      '0007-use-g.md': matter('enforce: [required]'),
    })
    const empty = 'enforce is empty: write required or advisory, or leave the field out for advisory'
    expect(reading.records.map((r) => [r.key, r.enforce])).toEqual([['ADR-0007', 'required']])
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: empty },
      { path: '0002-use-b.md', line: 3, message: empty },
      { path: '0003-use-c.md', line: 3, message: empty },
      { path: '0004-use-d.md', line: 3, message: empty },
      { path: '0005-use-e.md', line: 3, message: empty },
      { path: '0006-use-f.md', line: 4, message: empty },
    ])
  })

  it('says a value as its line writes it without the comment after it, which is no part of it', () => {
    const matter = (fields: string) => `---\n${fields}\n---\n\n# Use it\n\n## Decision Outcome\n\nChosen option: "it".\n`
    const reading = readTexts({
      // Each was said with its comment, `enforce "&e [*e]  # loops"`, `"[2024-02-01] # when" is not a date`.
      '0001-use-a.md': matter('status: accepted\nenforce: &e [*e]  # loops'),
      '0002-use-b.md': matter('status: accepted\ndate: [2024-02-01] # when'),
      '0003-use-c.md': matter('status: accepted\nsupersedes: &s [*s] #loops'),
      '0004-use-d.md': matter('status: accepted\ndecision-makers: &m [*m] # all of us'),
      '0005-use-e.md': matter('status: {accepted}  # for now'),
      '0006-use-f.md': matter('status: &a [*a] # loops'),
      // A `#` in quotes is the value's, and so is the anchor alone on its line, the list under it.
      '0007-use-g.md': matter('status: accepted\nenforce: "# one" # two'),
      '0008-use-h.md': matter('status: accepted\ndate: &d\n  - 2024-02-01'),
      '0009-use-i.md': matter('status: accepted\ndate:\n  - 2024-02-01'),
    })
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: 'enforce "&e [*e]" is neither required nor advisory' },
      { path: '0002-use-b.md', line: 3, message: '"[2024-02-01]" is not a date; the record is read without it' },
      { path: '0003-use-c.md', line: 3, message: 'supersedes "&s [*s]" is a list inside itself, which names no record' },
      { path: '0005-use-e.md', line: 2, message: 'unknown status "{accepted}"' },
      { path: '0006-use-f.md', line: 2, message: 'unknown status "&a [*a]": a list inside a list; write the one status that holds' },
      { path: '0007-use-g.md', line: 3, message: 'enforce "# one" is neither required nor advisory' },
      { path: '0008-use-h.md', line: 3, message: '"[2024-02-01]" is not a date; the record is read without it' },
      { path: '0009-use-i.md', line: 3, message: '"[2024-02-01]" is not a date; the record is read without it' },
    ])
    expect(reading.records.find((r) => r.key === 'ADR-0004')?.evidence[0]?.summary).toBe('madr record 0004-use-d.md; decision-makers: &m [*m]')
  })
})

describe('a status line that lists two statuses', () => {
  const nygard = (n: number, status: string) => `# ${n}. Use ${n}\n\nDate: 2024-02-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nWe use ${n}.\n`
  const one = 'a list of statuses, where a decision has one; write the one that holds'

  it('is an unknown status said as a list, as the YAML list is, in each format, rather than read by its first word', () => {
    const reading = readTexts({
      // Read as its first word, accepted, the record written deprecated too was imported in force.
      '0001-use-1.md': nygard(1, 'Accepted, deprecated'),
      '0002-use-2.md': nygard(2, 'accepted,deprecated'),
      '0003-use-3.md': '---\nstatus: accepted; rejected\n---\n\n# Use 3\n\n## Decision Outcome\n\nChosen option: "3".\n',
      '20240104-use-4.md': '# Use 4\n\n- Status: proposed, accepted on 2024-02-01\n- Date: 2024-01-04\n\n## Decision Outcome\n\nChosen option: "4".\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use 5\n\n- Status: Accepted and deprecated\n- Decision: We use 5.\n',
    })
    expect(reading.records).toEqual([])
    expect(reading.problems).toEqual([
      { path: '0001-use-1.md', line: 7, message: `unknown status "Accepted, deprecated": ${one}` },
      { path: '0002-use-2.md', line: 7, message: `unknown status "accepted,deprecated": ${one}` },
      { path: '0003-use-3.md', line: 2, message: `unknown status "accepted; rejected": ${one}` },
      { path: '20240104-use-4.md', line: 3, message: `unknown status "proposed, accepted on 2024-02-01": ${one}` },
      { path: 'DECISIONS.md', line: 5, message: `unknown status "Accepted and deprecated": ${one}` },
    ])
  })

  it('still reads one status with its day, its link, a second word for it or a note after it', () => {
    const reading = readTexts({
      '0001-use-1.md': nygard(1, 'Accepted on 2024-02-01'),
      '0002-use-2.md': nygard(2, 'Accepted (2020-05-05)'),
      '0003-use-3.md': nygard(3, 'Deprecated | Superseded by [1. Use 1](0001-use-1.md)'),
      '0004-use-4.md': nygard(4, 'Accepted/Implemented'),
      '0005-use-5.md': nygard(5, 'Accepted, but only for the backend'),
      '0006-use-6.md': nygard(6, 'Accepted, implemented'),
      '0007-use-7.md': nygard(7, 'Accepted, open to revisiting next year'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-01', 'ADR-0003', null],
      'ADR-0002': ['accepted', '2024-02-02', null, null],
      'ADR-0003': ['superseded', '2024-02-03', null, 'ADR-0001'],
      'ADR-0004': ['accepted', '2024-02-04', null, null],
      'ADR-0005': ['accepted', '2024-02-05', null, null],
      'ADR-0006': ['accepted', '2024-02-06', null, null],
      'ADR-0007': ['accepted', '2024-02-07', null, null],
    })
  })
})

describe('a record dated by an ISO time the clock has not', () => {
  it('is read without it, as the service refuses that `date`, and one with a time of the day keeps its day', () => {
    const reading = readTexts({
      '0001-use-rest.md': '# 1. Use REST\n\nDate: 2024-02-01T25:00:00Z\n\n## Status\n\nAccepted on 2024-02-03\n',
      '0002-use-grpc.md': '---\nstatus: accepted\ndate: 2024-02-01T23:59:60Z\n---\n\n# Use gRPC\n',
      '0003-use-zod.md': '# 3. Use Zod\n\nDate: 2024-02-01T23:59:59.123456789+14:00\n\n## Status\n\nAccepted\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: accepted\n- Date: 2024-02-01 10:00:00 +2400\n\n## D-002: Use spaces\n\n- Status: accepted\n- Date: 2024-02-01 10:00:00 -0800\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-03', null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', '2024-02-01', null, null],
      'D-001': ['accepted', null, null, null],
      'D-002': ['accepted', '2024-02-01', null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0001-use-rest.md', line: 3, message: '"2024-02-01T25:00:00Z" is not a date; passed over, the record is dated 2024-02-03' },
      { path: '0002-use-grpc.md', line: 3, message: '"2024-02-01T23:59:60Z" is not a date; the record is read without it' },
      { path: 'DECISIONS.md', line: 6, message: '"2024-02-01 10:00:00 +2400" is not a date; the record is read without it' },
    ])
  })
})

describe('a record named by a day before 1970', () => {
  it('is read without that day, said as a date written so is, MADR as log4brains: the day of its status, else none', () => {
    const reading = readTexts({
      // MADR with no date of its own: the file name's, a slip of the year; then the day of its status.
      '02020505-use-grpc.md': '---\nstatus: accepted (2020-05-05)\n---\n\n# Use gRPC\n\n## Decision Outcome\n\nChosen option: "gRPC".\n',
      '1969-12-31-use-rest.md': '---\nstatus: accepted\n---\n\n# Use REST\n\n## Decision Outcome\n\nChosen option: "REST".\n',
      // log4brains, which said so already.
      '19690101-use-zod.md': '# Use Zod\n\n- Status: accepted\n',
    })
    expect(reading.formats).toEqual({ madr: 2, log4brains: 1 })
    expect(summary(reading.records)).toEqual({
      '02020505-use-grpc': ['accepted', '2020-05-05', null, null],
      '1969-12-31-use-rest': ['accepted', null, null, null],
      '19690101-use-zod': ['accepted', null, null, null],
    })
    expect(reading.problems).toEqual([
      { path: '02020505-use-grpc.md', line: 1, message: '"0202-05-05" is before 1970; passed over, the record is dated 2020-05-05' },
      { path: '1969-12-31-use-rest.md', line: 1, message: '"1969-12-31" is before 1970; the record is read without it' },
      { path: '19690101-use-zod.md', line: 1, message: '"1969-01-01" is before 1970; the record is read without it' },
    ])
  })
})

describe('an adr-tools record in a date-named file that writes no date', () => {
  it('is dated by its file name, as a MADR or log4brains one is, not by the day it is imported', () => {
    const reading = readTexts({
      '2023-01-15-use-x.md': '# Use X\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use X.\n',
      '20230116-use-y.md': '# Use Y\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use Y.\n',
      // A "Date:" line it writes still comes first.
      '2023-01-17-use-z.md': '# Use Z\n\nDate: 2023-02-01\n\n## Status\n\nAccepted\n',
    })
    expect(reading.formats).toEqual({ 'adr-tools': 3 })
    expect(summary(reading.records)).toEqual({
      '2023-01-15-use-x': ['accepted', '2023-01-15', null, null],
      '20230116-use-y': ['accepted', '2023-01-16', null, null],
      '2023-01-17-use-z': ['accepted', '2023-02-01', null, null],
    })
    expect(reading.problems).toEqual([])
  })
})

describe("a record dated after the reader's tomorrow", () => {
  it('is read without that day, said at its line as a day before 1970 is, in every format: the next date it writes, else none', () => {
    const files = {
      // adr-tools: a Date: line a typo put in 2099; the day of its status comes next.
      '0001-use-a.md': '# 1. Use A\n\nDate: 2099-01-01\n\n## Status\n\nAccepted on 2026-11-30\n\n## Decision\n\nA.\n',
      // A status log with a day after tomorrow, which was its latest step: the step of the latest day read holds.
      '0002-use-b.md': '# 2. Use B\n\n## Status\n\n2099-01-01 Proposed\n2026-11-02 Accepted\n\n## Decision\n\nB.\n',
      // MADR: the front matter's date, then the day of its status.
      '0003-use-c.md': '---\nstatus: accepted (2026-12-05)\ndate: 9999-12-31\n---\n\n# Use C\n\n## Decision Outcome\n\nChosen option: "C".\n',
      // log4brains, named by a day after tomorrow.
      '20991231-use-d.md': '# Use D\n\n- Status: accepted\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use E\n\n- Status: accepted\n- Date: 31.12.2099\n\nE.\n',
      // AXME Code.
      'D-099-use-f.md': '---\nid: D-099\nslug: use-f\ntitle: Use F\ndate: 2099-06-01\nsource: session\nenforce: advisory\n---\n\n# Use F\n\nF.\n\n## Reasoning\n\nBecause.\n',
    }
    const reading = readTexts(files, '2026-12-04')
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2026-11-30', null, null],
      'ADR-0002': ['accepted', '2026-11-02', null, null],
      'ADR-0003': ['accepted', '2026-12-05', null, null],
      '20991231-use-d': ['accepted', null, null, null],
      'D-001': ['accepted', null, null, null],
      'D-099': ['accepted', null, null, null],
    })
    const after = (day: string, dated?: string) =>
      `"${day}" is after tomorrow (2026-12-05); ${dated === undefined ? 'the record is read without it' : `passed over, the record is dated ${dated}`}`
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: after('2099-01-01', '2026-11-30') },
      { path: '0002-use-b.md', line: 5, message: after('2099-01-01', '2026-11-02') },
      { path: '0003-use-c.md', line: 3, message: after('9999-12-31', '2026-12-05') },
      { path: '20991231-use-d.md', line: 1, message: after('2099-12-31') },
      { path: 'D-099-use-f.md', line: 5, message: after('2099-06-01') },
      { path: 'DECISIONS.md', line: 6, message: after('31.12.2099') },
    ])
    // Without a day to read by, as before: the days as written.
    expect(summary(readTexts(files).records)['ADR-0001']).toEqual(['accepted', '2099-01-01', null, null])
  })
})

describe('a "Supersedes" line in the body of a record whose status is written elsewhere', () => {
  it('links as in an adr-tools record: under the title or in a "## Status" section, MADR and MADR 2 alike', () => {
    const madr = (title: string, body = '') => `---\nstatus: accepted\ndate: 2024-01-01\n---\n\n# ${title}\n${body}\n## Decision Outcome\n\nChosen option: "${title}".\n`
    const bullets = (title: string, body = '') => `# ${title}\n\n- Status: accepted\n- Date: 2024-01-01\n${body}`
    const reading = readTexts({
      '0001-use-a.md': madr('Use A'),
      '0002-use-b.md': madr('Use B', '\nSupersedes [ADR-0001](0001-use-a.md)\n'),
      '0003-use-c.md': madr('Use C', '\n## Status\n\nSupersedes ADR-0002\n'),
      '0004-use-d.md': bullets('Use D'),
      '0005-use-e.md': bullets('Use E', '\nSupersedes [4. Use D](0004-use-d.md)\n'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['superseded', '2024-01-01', 'ADR-0001', 'ADR-0003'],
      'ADR-0003': ['accepted', '2024-01-01', 'ADR-0002', null],
      'ADR-0004': ['superseded', '2024-01-01', null, 'ADR-0005'],
      'ADR-0005': ['accepted', '2024-01-01', 'ADR-0004', null],
    })
    expect(reading.problems).toEqual([])
  })

  it('is a link or a record named in one word: a line of prose under the title is none', () => {
    const madr = (title: string, body = '') => `---\nstatus: accepted\ndate: 2024-01-01\n---\n\n# ${title}\n${body}\n## Decision Outcome\n\nChosen option: "${title}".\n`
    const reading = readTexts({
      '0001-use-cron.md': madr('Use cron'),
      '0002-use-a-queue.md': madr('Use a queue', '\nReplaces the nightly cron job with a queue worker.\n'),
      '0003-use-b.md': madr('Use B', '\n**Supersedes:** ADR-0002\n'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-01-01', null, null],
      'ADR-0002': ['superseded', '2024-01-01', null, 'ADR-0003'],
      'ADR-0003': ['accepted', '2024-01-01', 'ADR-0002', null],
    })
    expect(reading.problems).toEqual([])
  })
})

describe('a link that names a record by its number in words', () => {
  it('"ADR 5", "ADR-5", "ADR-0005" and "ADR 0005" all name the record numbered 5, in every format', () => {
    const adr = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n`
    const madr = (title: string, status: string) => `---\nstatus: ${status}\ndate: 2024-01-01\n---\n\n# ${title}\n`
    const bullets = (title: string, fields: string) => `# ${title}\n\n${fields}\n- Date: 2024-01-01\n`
    const reading = readTexts({
      '0001-use-rest.md': adr(1, 'Use REST', 'Superseded by ADR 5'),
      '0002-use-soap.md': madr('Use SOAP', 'superseded by adr 0005'),
      '0003-use-xml.md': bullets('Use XML', '- Status: superseded by ADR-5'),
      '0004-use-yaml.md': adr(4, 'Use YAML', 'Accepted'),
      '0005-use-grpc.md': bullets('Use gRPC', '- Status: accepted\n- Supersedes: ADR 0004'),
      // A log keys its sections as it writes them (ADR-007): "ADR 7" names that key too.
      'DECISIONS.md': '# Decisions\n\n## ADR-006: Use tabs\n\n- Status: superseded\n- Date: 2024-06-01\n- Superseded by: ADR 7\n\n' +
        '## ADR-007: Use spaces\n\n- Status: accepted\n- Date: 2024-07-01\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0005'],
      'ADR-0002': ['superseded', '2024-01-01', null, 'ADR-0005'],
      'ADR-0003': ['superseded', '2024-01-01', null, 'ADR-0005'],
      'ADR-0004': ['superseded', '2024-04-01', null, 'ADR-0005'],
      // The others name it too, but a record supersedes one: the one its own "Supersedes" names.
      'ADR-0005': ['accepted', '2024-01-01', 'ADR-0004', null],
      'ADR-006': ['superseded', '2024-06-01', null, 'ADR-007'],
      'ADR-007': ['accepted', '2024-07-01', 'ADR-006', null],
    })
  })
})

describe('templates beside the records', () => {
  it('skips a file whose name says "template" and carries no record number, and reads a numbered record about templates', () => {
    const template = '# [short title of solved problem and solution]\n\n- Status: [proposed | rejected | accepted]\n- Date: [YYYY-MM-DD]\n'
    const reading = readTexts({
      'template-madr.md': template,
      'adr_template_v2.md': template,
      'TEMPLATE.md': template,
      'adr-template-short.md': template,
      '0005-use-templates-for-emails.md': '# 5. Use templates for emails\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.skipped.sort()).toEqual(['TEMPLATE.md', 'adr-template-short.md', 'adr_template_v2.md', 'template-madr.md'])
    expect(summary(reading.records)).toEqual({ 'ADR-0005': ['accepted', '2024-05-01', null, null] })
  })
})

describe('a status written in its heading', () => {
  it('reads "## Status: Accepted" as the status, alone or with lines under it', () => {
    const reading = readTexts({
      '0001-use-rest.md': '# 1. Use REST\n\nDate: 2024-01-01\n\n## Status: Superseded\n\nSuperseded by [2. Use gRPC](0002-use-grpc.md)\n\n## Decision\n\nREST.\n',
      '0002-use-grpc.md': '# 2. Use gRPC\n\nDate: 2024-02-01\n\n## Status: **Accepted** ##\n\n## Decision\n\ngRPC.\n',
      '0003-use-soap.md': '# 3. Use SOAP\n\nDate: 2024-03-01\n\n## Status: maybe\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-02-01', 'ADR-0001', null],
    })
    expect(reading.records.map((r) => r.origin.format)).toEqual(['adr-tools', 'adr-tools'])
    expect(reading.records[1]?.decision).toBe('gRPC.')
    expect(reading.problems).toEqual([{ path: '0003-use-soap.md', line: 5, message: 'unknown status "maybe"' }])
  })
})

describe('fields in a table under the title', () => {
  it('reads "| Status | Accepted |" and "| **Date** | … |" rows as the record\'s fields', () => {
    const reading = readTexts({
      '0001-use-postgres.md': '# ADR-001: Use Postgres\n\n| Field | Value |\n|---|---|\n| **Status** | Accepted |\n| Date | 2024-02-01 |\n| Deciders | Ana |\n\n## Decision Outcome\n\nPostgres.\n',
      '0002-use-redis.md': '# Use Redis\n\n| Status | Superseded by [ADR-0001](0001-use-postgres.md) |\n|---|---|\n\n## Decision Outcome\n\nRedis.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-01', 'ADR-0002', null],
      'ADR-0002': ['superseded', null, null, 'ADR-0001'],
    })
    expect(reading.records[0]).toMatchObject({ title: 'Use Postgres', decision: 'Postgres.' })
  })
})

describe('a status heading in bold', () => {
  it('reads "## **Status**" and "## **Status:** Accepted" as the status section', () => {
    const adr = (n: number, heading: string, body: string) => `# ${n}. Use ${n}\n\nDate: 2024-01-0${n}\n\n## ${heading}\n\n${body}\n\n## Decision\n\nD.\n`
    const reading = readTexts({
      '0001-use-1.md': adr(1, '**Status**', 'Accepted'),
      '0002-use-2.md': adr(2, '**Status:** Proposed', ''),
      '0003-use-3.md': adr(3, '__Status__', 'Superseded by [1. Use 1](0001-use-1.md)'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-01-01', 'ADR-0003', null],
      'ADR-0002': ['proposed', '2024-01-02', null, null],
      'ADR-0003': ['superseded', '2024-01-03', null, 'ADR-0001'],
    })
  })
})

describe('field lines under "## Status"', () => {
  it('reads "Status: Accepted" as the status, and the other fields of the section ("Date:", "Deciders:") as no status', () => {
    const adr = (n: number, title: string, head: string, status: string) => `# ${n}. ${title}\n${head}\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const reading = readTexts({
      '0001-use-rest.md': adr(1, 'Use REST', '\nDate: 2024-01-01\n', '**Status:** Superseded by ADR-0002\n**Deciders:** Ann'),
      // The date written in the section dates a record with none under its title.
      '0002-use-grpc.md': adr(2, 'Use gRPC', '', 'Status: Accepted\nDate: 2024-02-01\nDeciders: Ann, Bo\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
      '0003-use-soap.md': adr(3, 'Use SOAP', '', '- Status: maybe\n- Date: 2024-03-01'),
      '0004-use-xml.md': adr(4, 'Use XML', '', 'Date: 2024-04-01\nDeciders: Ann'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-02-01', 'ADR-0001', null],
    })
    expect(reading.problems).toEqual([
      { path: '0003-use-soap.md', line: 5, message: 'unknown status "maybe"' },
      { path: '0004-use-xml.md', line: 3, message: 'the status section names no status' },
    ])
  })
})

describe('a link written on the new record only', () => {
  it('an accepted record that "Supersedes" one still marked Accepted leaves it superseded, not in force beside it', () => {
    const adr = (n: number, title: string, status: string) =>
      `# ${n}. ${title}\n\nDate: 202${n}-01-01\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const reading = readTexts({
      '0001-use-rest.md': adr(1, 'Use REST', 'Accepted'),
      '0002-use-grpc.md': adr(2, 'Use gRPC', 'Accepted\n\nSupersedes [1. Use REST](0001-use-rest.md)'),
      '0003-use-soap.md': adr(3, 'Use SOAP', 'Accepted'),
      '0004-use-graphql.md': adr(4, 'Use GraphQL', 'Proposed\n\nSupersedes [3. Use SOAP](0003-use-soap.md)'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2021-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2022-01-01', 'ADR-0001', null],
      // A proposal replaces nothing until it is accepted.
      'ADR-0003': ['accepted', '2023-01-01', null, null],
      'ADR-0004': ['proposed', '2024-01-01', 'ADR-0003', null],
    })
  })
})

describe('a DECISIONS.md that groups its decisions under "##" headings', () => {
  it('reads each "###" decision of a group, not the group as one decision', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decision log\n\n## Active\n\n### D-001: Use TypeScript\n\n- Status: accepted\n- Date: 2023-01-10\n\nTypes.\n\n' +
        '### D-002: Use pnpm\n\n- Status: accepted\n- Date: 2023-02-10\n\nSpeed.\n\n' +
        '## Archive\n\n### D-000: Use JavaScript\n\n- Status: superseded by D-001\n- Date: 2022-01-10\n\n' +
        '## D-003: Use Vitest\n\n- Status: proposed\n- Date: 2023-03-01\n\n### Context\n\nJest is slow.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'D-000': ['superseded', '2022-01-10', null, 'D-001'],
      'D-001': ['accepted', '2023-01-10', 'D-000', null],
      'D-002': ['accepted', '2023-02-10', null, null],
      'D-003': ['proposed', '2023-03-01', null, null],
    })
    expect(reading.records.find((r) => r.key === 'D-002')).toMatchObject({ title: 'Use pnpm', rationale: 'Speed.', origin: { line: 12 } })
    expect(reading.records.find((r) => r.key === 'D-003')?.rationale).toBe('Jest is slow.')
  })
})

describe('records whose fields are bold lines, not bullets', () => {
  it('reads "**Status:** Accepted" and "**Date:**" under the title as log4brains bullets are read', () => {
    const reading = readTexts({
      '0003-watcher-owns-fsnotify.md':
        '# ADR-0003: watcher owns the fsnotify lifecycle\n\n**Status:** Accepted\n**Date:** 2024-12-19  \n**Decision Makers:** Ops\n\n' +
        '## Context\n\nThe app watches files.\n\n## Decision\n\nThe watcher owns it.\n',
      '0004-plain.md': '# Use plain fields\n\nStatus: Proposed\nDate: 2025-01-02\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0003': ['accepted', '2024-12-19', null, null],
      'ADR-0004': ['proposed', '2025-01-02', null, null],
    })
    expect(reading.records[0]).toMatchObject({ decision: 'The watcher owns it.', rationale: 'The app watches files.' })
  })
})

describe('records as editors and tools write them', () => {
  const files = (entries: Record<string, string>) =>
    Object.entries(entries).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) }))

  it('reads an adr-tools record whose headings close with "#"s, as Markdown allows', () => {
    const text = '# 6. Never force push ##\r\n\r\nDate: 2024-10-03\r\n\r\n## Status ##\r\n\r\nProposed\r\n\r\n## Decision ##\r\n\r\nAgents never force push.\r\n'
    const reading = readRecordFolder(files({ '0006-never-force-push.md': text }))
    expect(reading.problems).toEqual([])
    expect(reading.records[0]).toMatchObject({ key: 'ADR-0006', title: 'Never force push', status: 'proposed', decision: 'Agents never force push.' })
  })

  it('follows "Superseded by" and "Supersedes" written as reference links, in every format', () => {
    const adr = (n: number, title: string, status: string, tail = '') =>
      `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n${tail}`
    const reading = readRecordFolder(
      files({
        '0001-use-rest.md': adr(1, 'Use REST', 'Superseded by [2. Use gRPC][grpc]\n\n[grpc]: 0002-use-grpc.md'),
        '0002-use-grpc.md': adr(2, 'Use gRPC', 'Accepted\n\nSupersedes [ADR 1][]', '\n[ADR 1]: ./0001-use-rest.md\n'),
        '20240301-use-redis.md': '# Use Redis\n\n- Status: superseded by [the Postgres record][pg]\n- Date: 2024-03-01\n\n[pg]: 20240401-use-postgres.md\n',
        '20240401-use-postgres.md': '# Use Postgres\n\n- Status: accepted\n- Date: 2024-04-01\n',
        'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: Superseded by [D-002]\n- Date: 2024-01-01\n\n## D-002: Use spaces\n\n- Status: Accepted\n- Date: 2024-02-01\n\n[D-002]: #d-002-use-spaces\n',
      }),
    )
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-02-01', 'ADR-0001', null],
      '20240301-use-redis': ['superseded', '2024-03-01', null, '20240401-use-postgres'],
      '20240401-use-postgres': ['accepted', '2024-04-01', '20240301-use-redis', null],
    })
    expect(reading.records.find((r) => r.key === 'ADR-0002')?.decision).toBe('Use gRPC.')
  })

  it('reads the links adr-tools writes for any link type ("adr new -l 3:Extends:Extended by") as links, not statuses', () => {
    const adr = (n: number, title: string, status: string) =>
      `# ${n}. ${title}\n\nDate: 2024-0${n}-01\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const reading = readRecordFolder(
      files({
        '0003-use-kafka.md': adr(3, 'Use Kafka', 'Accepted\n\nExtended by [4. Use Kafka Connect](0004-use-kafka-connect.md)'),
        '0004-use-kafka-connect.md': adr(4, 'Use Kafka Connect', 'Accepted\n\nExtends [3. Use Kafka](0003-use-kafka.md)\n\nRelates to [3. Use Kafka](0003-use-kafka.md)'),
      }),
    )
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0003': ['accepted', '2024-03-01', null, null],
      'ADR-0004': ['accepted', '2024-04-01', null, null],
    })
  })
})

describe('a folder checked out with CRLF line endings (core.autocrlf on Windows)', () => {
  it.each(['adr-tools', 'madr', 'log4brains', 'decisions-md'])('%s: reads the same records as the LF checkout, evidence hashes included', async (format) => {
    const lf = await readAdrFolder(FIXTURES + format)
    const crlf = readRecordFolder(
      await Promise.all(
        lf.files.map(async (name) => {
          const bytes = await readFile(FIXTURES + format + '/' + name)
          const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
          // A file that is not UTF-8 is left as it is: it is unreadable either way.
          const utf8 = !text.includes('\uFFFD')
          return { path: name, name, bytes: utf8 ? new TextEncoder().encode(text.replace(/\r?\n/g, '\r\n')) : bytes }
        }),
      ),
    )
    expect(lf.records.length).toBeGreaterThan(0)
    expect(crlf.records).toEqual(lf.records)
  })
})

describe('a file read with --format madr', () => {
  it('says a file with no front matter has none, and one whose front matter is left open that it is never closed', () => {
    const reading = readRecordFolder(
      Object.entries({
        '0001-use-adr-tools.md': '# 1. Use adr-tools\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n',
        '0002-open-matter.md': '---\nstatus: accepted\n\n# Open matter\n',
      }).map(([name, text]) => ({ path: name, name, bytes: new TextEncoder().encode(text) })),
      'madr',
    )
    expect(reading.records).toEqual([])
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0001-use-adr-tools.md', 1, 'no front matter: a MADR record opens with "---" on its first line'],
      ['0002-open-matter.md', 1, 'the front matter opened by "---" is never closed'],
    ])
  })
})

describe('a status and its supersede link on one line', () => {
  /** An adr-tools record as `adr new` writes it, its status section as the team left it. */
  const adrTools = (n: number, title: string, date: string, status: string) =>
    `# ${n}. ${title}\n\nDate: ${date}\n\n## Status\n\n${status}\n\n## Context\n\nThe issue motivating this decision.\n\n## Decision\n\n${title}.\n\n## Consequences\n\nSome.\n`

  it('adr-tools: "Accepted, Supersedes [2. …](0002-….md)" and "Deprecated; superseded by […]" keep their links', () => {
    const reading = readTexts({
      '0001-record-architecture-decisions.md': adrTools(1, 'Record architecture decisions', '2019-06-03', 'Accepted'),
      '0002-use-mysql.md': adrTools(2, 'Use MySQL', '2019-11-02', 'Accepted'),
      '0003-use-postgresql.md': adrTools(3, 'Use PostgreSQL', '2020-05-05', 'Accepted, Supersedes [2. Use MySQL](0002-use-mysql.md)'),
      '0004-ship-nightly-builds.md': adrTools(4, 'Ship nightly builds', '2020-06-10', 'Deprecated; superseded by [5. Ship weekly builds](0005-ship-weekly-builds.md)'),
      '0005-ship-weekly-builds.md': adrTools(5, 'Ship weekly builds', '2021-01-12', 'Accepted'),
      // A proposal names what it would replace: the old one stays in force until it is accepted.
      '0006-use-cockroachdb.md': adrTools(6, 'Use CockroachDB', '2021-03-01', 'Proposed. If accepted, supersedes [ADR 3](0003-use-postgresql.md)'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2019-06-03', null, null],
      'ADR-0002': ['superseded', '2019-11-02', null, 'ADR-0003'],
      'ADR-0003': ['accepted', '2020-05-05', 'ADR-0002', null],
      'ADR-0004': ['superseded', '2020-06-10', null, 'ADR-0005'],
      'ADR-0005': ['accepted', '2021-01-12', 'ADR-0004', null],
      'ADR-0006': ['proposed', '2021-03-01', 'ADR-0003', null],
    })
  })

  it('log4brains, MADR 2 bullets and a DECISIONS.md: the status bullet\'s "supersedes" link is the record\'s', () => {
    const reading = readTexts({
      '20240215-use-webpack-for-the-frontend-build.md':
        '# Use Webpack for the frontend build\n\n- Status: accepted\n- Date: 2024-02-15\n- Tags: frontend\n\n## Decision Outcome\n\nChosen option: "Webpack", because it is what we know.\n',
      '20240402-use-vite-for-the-frontend-build.md':
        '# Use Vite for the frontend build\n\n- Status: accepted, supersedes [20240215-use-webpack-for-the-frontend-build](20240215-use-webpack-for-the-frontend-build.md)\n- Date: 2024-04-02\n- Tags: frontend\n\n## Decision Outcome\n\nChosen option: "Vite", because builds take seconds.\n',
      '0001-use-winston-for-logging.md':
        '# Use Winston for logging\n\n* Status: accepted\n* Deciders: Alice, Bob\n* Date: 2023-02-01\n\n## Decision Outcome\n\nChosen option: "Winston", because it is everywhere.\n',
      '0002-use-pino-for-logging.md':
        '# Use Pino for logging\n\n* Status: accepted, supersedes [ADR-0001](0001-use-winston-for-logging.md) <!-- optional -->\n* Deciders: Alice\n* Date: 2023-09-14\n\n## Decision Outcome\n\nChosen option: "Pino", because it is fast.\n',
      'DECISIONS.md':
        '# Decisions\n\n## D-001: Use tabs\n\n- Status: Accepted\n- Date: 2024-01-01\n\nHabit.\n\n## D-002: Use spaces\n\n- Status: Accepted, supersedes D-001\n- Date: 2024-02-01\n\nThe formatter says so.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      '20240215-use-webpack-for-the-frontend-build': ['superseded', '2024-02-15', null, '20240402-use-vite-for-the-frontend-build'],
      '20240402-use-vite-for-the-frontend-build': ['accepted', '2024-04-02', '20240215-use-webpack-for-the-frontend-build', null],
      'ADR-0001': ['superseded', '2023-02-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2023-09-14', 'ADR-0001', null],
      'D-001': ['superseded', '2024-01-01', null, 'D-002'],
      'D-002': ['accepted', '2024-02-01', 'D-001', null],
    })
  })

  it('reads words after the status that name no record as no link', () => {
    expect(readStatusLine('Accepted, replaces the manual release checklist')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted, replaces utf-8 handling in the importer')).toEqual({ status: 'accepted' })
    // A record or a link further on in the words is mentioned, not replaced.
    expect(readStatusLine('Accepted, replaces the workaround of ADR-0003 for now')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted, replaces the release checklist ([wiki](https://wiki.example/release))')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted, supersedes: ADR-0003')).toEqual({ status: 'accepted', supersedes: 'ADR-0003' })
    expect(readStatusLine('Accepted, supersedes adr 2')).toEqual({ status: 'accepted', supersedes: 'adr 2' })
    expect(readStatusLine('Accepted (supersedes ADR-0002)')).toEqual({ status: 'accepted', supersedes: 'ADR-0002' })
    expect(readStatusLine('Accepted — Superceded by 0007-use-grpc.md')).toEqual({ status: 'superseded', supersededBy: '0007-use-grpc.md' })
    expect(readStatusLine('Accepted on 2026-09-06. Supersedes [ADR 0009](0009-routing.md) for legacy apps')).toEqual({ status: 'accepted', supersedes: '0009-routing.md', date: '2026-09-06' })
  })
})

describe('status forms real repositories write', () => {
  it('a status that moved on ("Proposed → Accepted", "Proposed -> Accepted") is the last one', () => {
    expect(readStatusLine('Proposed → Accepted')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Proposed -> Accepted')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Draft => Proposed => Rejected')).toEqual({ status: 'revoked' })
    expect(readStatusLine('**Proposed** → **Accepted**')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Proposed → Accepted → Superseded by [7. Use gRPC](0007-use-grpc.md)')).toEqual({
      status: 'superseded',
      supersededBy: '0007-use-grpc.md',
    })
    // An arrow inside a link's text is no step.
    expect(readStatusLine('Superseded by [7. REST -> gRPC](0007-rest-to-grpc.md)')).toEqual({ status: 'superseded', supersededBy: '0007-rest-to-grpc.md' })
    // Nor is one to words that are no status: the line reads by its first word, as any other.
    expect(readStatusLine('Proposed -> we will see')).toEqual({ status: 'proposed' })
  })

  it('"Obsoleted by [...]" names the record that replaces it, as "Superseded by" does; "Obsoletes" as "Supersedes"', () => {
    expect(readStatusLine('Obsoleted by [5. Use Kafka](0005-use-kafka.md)')).toEqual({ status: 'superseded', supersededBy: '0005-use-kafka.md' })
    expect(readStatusLine('Obsoletes [2. Use RabbitMQ](0002-use-rabbitmq.md)')).toEqual({ supersedes: '0002-use-rabbitmq.md' })
    expect(readStatusLine('Accepted, obsoletes ADR-0002')).toEqual({ status: 'accepted', supersedes: 'ADR-0002' })
    // Obsolete alone names no successor: deprecated, as before.
    expect(readStatusLine('Obsolete')).toEqual({ status: 'deprecated' })
  })

  it('a record named by its number ("Superseded by ADR-002") is found in a file numbered another way (ADR-002-use-b.md, adr-004-….md, 0006_use_f.md)', () => {
    const adr = (title: string, status: string) => `# ${title}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Context\n\nC.\n`
    const reading = readTexts({
      'ADR-001-use-a.md': adr('ADR-001: Use A', 'Superseded by ADR-002'),
      'ADR-002-use-b.md': adr('ADR-002: Use B', 'Accepted'),
      'adr-003-use-c.md': adr('ADR-003: Use C', 'Superseded by ADR 4'),
      'adr-004-use-d.md': adr('ADR-004: Use D', 'Accepted'),
      '0005_use_e.md': adr('5. Use E', 'Superseded by ADR-0006'),
      '0006_use_f.md': adr('6. Use F', 'Accepted'),
      // Two files of one number: the number names neither.
      'ADR-007-use-g.md': adr('ADR-007: Use G', 'Superseded by ADR-008'),
      'ADR-008-use-h.md': adr('ADR-008: Use H', 'Accepted'),
      'adr-008-use-h2.md': adr('ADR-008: Use H2', 'Accepted'),
    })
    expect(reading.problems.map((p) => [p.path, p.message])).toEqual([['ADR-007-use-g.md', 'superseded by "ADR-008" names no record in this folder; the link is left out']])
    // Each keyed by its number, as adr-tools' are, but the two numbered 8, which keep their names.
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-01-01', 'ADR-0001', null],
      'ADR-0003': ['superseded', '2024-01-01', null, 'ADR-0004'],
      'ADR-0004': ['accepted', '2024-01-01', 'ADR-0003', null],
      'ADR-0005': ['superseded', '2024-01-01', null, 'ADR-0006'],
      'ADR-0006': ['accepted', '2024-01-01', 'ADR-0005', null],
      'ADR-0007': ['superseded', '2024-01-01', null, null],
      'ADR-008-use-h': ['accepted', '2024-01-01', null, null],
      'adr-008-use-h2': ['accepted', '2024-01-01', null, null],
    })
  })

  it('a file numbered another way (ADR-0013-use-postgres.md, adr-2-….md, ADR-013_….md) is keyed by its number as adr-tools\' are, when no other file or section has it', () => {
    const adr = (title: string, status: string) => `# ${title}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Context\n\nC.\n`
    const reading = readTexts({
      'adr-2-use-mysql.md': adr('ADR-2: Use MySQL', 'Superseded by [ADR-013](ADR-013_use_postgres.md)'),
      'ADR-013_use_postgres.md': adr('ADR-013: Use Postgres', 'Accepted'),
      'ADR-0014-use-redis.md': adr('ADR-0014: Use Redis', 'Accepted\n\nSupersedes ADR-013_use_postgres'),
      'ADR-00015-use-nats.md': adr('ADR-00015: Use NATS', 'Accepted'),
      // Number 20 is also adr-tools' 0020-….md, and 21 a section's of the log: each keeps its whole name.
      'ADR-0020-use-a.md': adr('ADR-0020: Use A', 'Accepted'),
      '0020-use-b.md': adr('20. Use B', 'Accepted'),
      'ADR-21-use-c.md': adr('ADR-21: Use C', 'Accepted'),
      'DECISIONS.md': '# Decisions\n\n## ADR-021: Use D\n\n- Status: accepted\n- Decision: D.\n',
      // Number 30 is also that of a file that cannot be read: the number names neither.
      'ADR-0030-use-e.md': adr('ADR-0030: Use E', 'Accepted'),
      'ADR-030-use-f.md': adr('ADR-030: Use F', 'Pondering'),
    })
    expect(summary(reading.records)).toEqual({
      // The zeros as keyOfFile writes adr-tools' (`13-x.md` and `0013-x.md` are ADR-0013, `00015-x.md` ADR-00015).
      'ADR-0002': ['superseded', '2024-01-01', null, 'ADR-0013'],
      // A link to the file, or to its whole name, names the key it has now.
      'ADR-0013': ['superseded', '2024-01-01', 'ADR-0002', 'ADR-0014'],
      'ADR-0014': ['accepted', '2024-01-01', 'ADR-0013', null],
      'ADR-00015': ['accepted', '2024-01-01', null, null],
      'ADR-0020-use-a': ['accepted', '2024-01-01', null, null],
      'ADR-0020': ['accepted', '2024-01-01', null, null],
      'ADR-21-use-c': ['accepted', '2024-01-01', null, null],
      'ADR-021': ['accepted', null, null, null],
      'ADR-0030-use-e': ['accepted', '2024-01-01', null, null],
    })
    expect(reading.records.find((r) => r.key === 'ADR-0013')?.origin.path).toBe('ADR-013_use_postgres.md')
  })

  it('a file named by its number alone, ADR-001.md or adr-3.md, is keyed by it as ADR-002-use-b.md is, when no other file has it', () => {
    const adr = (title: string, status: string) => `# ${title}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Context\n\nC.\n`
    const reading = readTexts({
      'ADR-001.md': adr('ADR-001: Use A', 'Superseded by ADR-002'),
      'ADR-002-use-b.md': adr('ADR-002: Use B', 'Superseded by [ADR-3](adr-3.md)'),
      'adr-3.md': adr('ADR-3: Use C', 'Accepted'),
      'ADR-0004.md': adr('ADR-0004: Use D', 'Accepted'),
      // Two files numbered 5: each keeps its name.
      'ADR-005.md': adr('ADR-005: Use E', 'Accepted'),
      'ADR-5-use-f.md': adr('ADR-5: Use F', 'Accepted'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['superseded', '2024-01-01', 'ADR-0001', 'ADR-0003'],
      'ADR-0003': ['accepted', '2024-01-01', 'ADR-0002', null],
      'ADR-0004': ['accepted', '2024-01-01', null, null],
      'ADR-005': ['accepted', '2024-01-01', null, null],
      'ADR-5-use-f': ['accepted', '2024-01-01', null, null],
    })
  })

  it('a file named with spaces, ADR 001 - Use A.md or ADR 12 Use L.md, is keyed by its number as ADR-002-use-b.md is, links to it included', () => {
    const adr = (title: string, status: string) => `# ${title}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Context\n\nC.\n`
    const reading = readTexts({
      'ADR 001 - Use A.md': adr('ADR 001: Use A', 'Superseded by [ADR 002](ADR-002%20Use%20B.md)'),
      'ADR-002 Use B.md': adr('ADR-002: Use B', 'Superseded by [ADR 003](<ADR 003.md>)'),
      'ADR 003.md': adr('ADR 003: Use C', 'Accepted'),
      // A template's word of another language in a record numbered after `ADR ` is the record's, as in ADR-0014-modelo-de-datos.md.
      'ADR 14 Modelo de datos.md': adr('ADR 14: Modelo de datos', 'Accepted'),
      '0004 Use D.md': adr('4. Use D', 'Accepted'),
      'ADR 12 Use L.md': adr('ADR 12: Use L', 'Superseded by [ADR 13](ADR%2013%20-%20Use%20M.md)'),
      'ADR 13 - Use M.md': adr('ADR 13: Use M', 'Accepted\n\nSupersedes [ADR 12](<ADR 12 Use L.md>)'),
      // Two files numbered 5: each keeps its whole name, as two of ADR-005-x.md do.
      'ADR 005 Use E.md': adr('ADR 005: Use E', 'Accepted'),
      'ADR-005-use-f.md': adr('ADR-005: Use F', 'Accepted'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['superseded', '2024-01-01', 'ADR-0001', 'ADR-0003'],
      'ADR-0003': ['accepted', '2024-01-01', 'ADR-0002', null],
      'ADR-0004': ['accepted', '2024-01-01', null, null],
      'ADR-0012': ['superseded', '2024-01-01', null, 'ADR-0013'],
      'ADR-0013': ['accepted', '2024-01-01', 'ADR-0012', null],
      'ADR-0014': ['accepted', '2024-01-01', null, null],
      ...Object.fromEntries(reading.records.filter((r) => /005/.test(r.origin.path)).map((r) => [r.key, ['accepted', '2024-01-01', null, null]])),
    })
    // Two files numbered 5: each keeps its whole name, as two of ADR-005-x.md do.
    const fives = reading.records.filter((r) => /005/.test(r.origin.path)).map((r) => r.key)
    expect(fives).toEqual([expect.stringMatching(/^ADR-005-Use-E-[0-9a-f]{8}$|^adr-005-use-e-[0-9a-f]{8}$/), 'ADR-005-use-f'])
  })

  it('a document beside the records named by a number and a space, 1 - Intro.md or 2024 Roadmap.md, takes no record\'s number', () => {
    const adr = (title: string) => `# ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n`
    const reading = readTexts({
      'ADR-001-use-a.md': adr('ADR-001: Use A'),
      'ADR 12 Use L.md': adr('ADR 12: Use L'),
      '1 - Intro.md': '# Intro\n\nWhat this folder holds.\n',
      '12 Notes.md': '# Notes\n\nProse.\n',
      '2024 Roadmap.md': '# Roadmap\n\nProse.\n',
    })
    expect(reading.records.map((r) => r.key).sort()).toEqual(['ADR-0001', 'ADR-0012'])
    expect(reading.problems.map((p) => p.path)).toEqual(['1 - Intro.md', '12 Notes.md', '2024 Roadmap.md'])
  })

  it('"Superseded" and its successor joined otherwise than by "by ("Superseded (ADR-0005)", "Superseded, see [ADR-0005](…)") keeps the link', () => {
    for (const line of ['Superseded (by [ADR-0005](0005-x.md))', 'Superseded, see [ADR-0005](0005-x.md)', 'Superseded: [ADR-0005](0005-x.md)', 'Superseded → [ADR-0005](0005-x.md)', 'Superseded in favour of [ADR-0005](0005-x.md)']) {
      expect(readStatusLine(line), line).toEqual({ status: 'superseded', supersededBy: '0005-x.md' })
    }
    expect(readStatusLine('Superseded (ADR-0005)')).toEqual({ status: 'superseded', supersededBy: 'ADR-0005' })
    expect(readStatusLine('Superseded in favor of ADR-0005')).toEqual({ status: 'superseded', supersededBy: 'ADR-0005' })
    // Naming none, it is superseded with no link, as before.
    expect(readStatusLine('Superseded')).toEqual({ status: 'superseded' })
    expect(readStatusLine('Superseded (see the roadmap)')).toEqual({ status: 'superseded' })
    // Words with a number in lower case are no record's key: no link, and no "names no record" said.
    expect(readStatusLine('Superseded (v2-3 migration)')).toEqual({ status: 'superseded' })
    expect(readStatusLine('Superseded: covid-19 changed the plan')).toEqual({ status: 'superseded' })
    expect(readStatusLine('Superseded (adr-5)')).toEqual({ status: 'superseded', supersededBy: 'adr-5' })
  })

  it('a record named at the end of a sentence ("Superseded by ADR-0009.") is named without its full stop', () => {
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Superseded by ADR-0002.'),
      '0002-use-x2.md': adr(2, 'Accepted'),
      '0003-use-x3.md': adr(3, 'Superseded by ADR 4.'),
      '0004-use-x4.md': adr(4, 'Accepted'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-01-02', 'ADR-0001', null],
      'ADR-0003': ['superseded', '2024-01-03', null, 'ADR-0004'],
      'ADR-0004': ['accepted', '2024-01-04', 'ADR-0003', null],
    })
  })

  it('a record named before prose that holds a "/" ("Superseded by D-16 (2026-10-04). … sending `/api` to …") is that record, not the words after the "/"', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n### D-5: One container image serves both the API and the frontend\n\n- **Date:** 2026-10-04\n' +
        "- **Status:** Superseded by D-16 (2026-10-04). The home lab's apps all ship a backend and a frontend image, with Traefik sending `/api` to the backend on the same host name.\n" +
        '- **Why:** The page and the API share an origin.\n\n' +
        '### D-16: Deploy through the home-lab repo\n\n- **Date:** 2026-10-04\n- **Status:** Accepted\n- **Why:** The home lab already has a registry.\n',
      '0001-use-x1.md': '# 1. Use X1\n\nDate: 2024-01-01\n\n## Status\n\nSuperseded by ADR-0002, which moves the service to v2/api and drops v1/api.\n\n## Decision\n\nX1.\n',
      '0002-use-x2.md': '# 2. Use X2\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nX2.\n',
      // A path written bare, after words too, is still read as the file it names.
      '0003-use-x3.md': '# 3. Use X3\n\nDate: 2024-01-03\n\n## Status\n\nSuperseded by ./0004-use-x4.md\n\n## Decision\n\nX3.\n',
      '0005-use-x5.md': '# 5. Use X5\n\nDate: 2024-01-05\n\n## Status\n\nSuperseded by the record in ../adr/0006-use-x6.md.\n\n## Decision\n\nX5.\n',
      '0006-use-x6.md': '# 6. Use X6\n\nDate: 2024-01-06\n\n## Status\n\nAccepted\n\n## Decision\n\nX6.\n',
      '0004-use-x4.md': '# 4. Use X4\n\nDate: 2024-01-04\n\n## Status\n\nAccepted\n\n## Decision\n\nX4.\n',
      // Words after the path too, as a version before these read them: the file, not the words.
      '0007-use-x7.md': '# 7. Use X7\n\nDate: 2024-01-07\n\n## Status\n\nSuperseded by the record in ../adr/0008-use-x8.md, which moves the routes\n\n## Decision\n\nX7.\n',
      '0008-use-x8.md': '# 8. Use X8\n\nDate: 2024-01-08\n\n## Status\n\nAccepted\n\n## Decision\n\nX8.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0007': ['superseded', '2024-01-07', null, 'ADR-0008'],
      'ADR-0008': ['accepted', '2024-01-08', 'ADR-0007', null],
      'D-5': ['superseded', '2026-10-04', null, 'D-16'],
      'D-16': ['accepted', '2026-10-04', 'D-5', null],
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-01-02', 'ADR-0001', null],
      'ADR-0003': ['superseded', '2024-01-03', null, 'ADR-0004'],
      'ADR-0004': ['accepted', '2024-01-04', 'ADR-0003', null],
      'ADR-0005': ['superseded', '2024-01-05', null, 'ADR-0006'],
      'ADR-0006': ['accepted', '2024-01-06', 'ADR-0005', null],
    })
  })

  it('DECISIONS.md: a link naming a section by the label its heading begins with ("Superseded by D16 (…)" of "### D16: Deploy …") finds it', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n### D5: One container image serves both the API and the frontend\n\n- **Date:** 2026-10-04\n' +
        '- **Status:** Superseded by D16 (2026-10-04). The home lab apps all ship a backend and a frontend image.\n\n' +
        '### D8: The container uses host networking\n\n- **Date:** 2026-10-04\n- **Status:** Superseded by D16\n\n' +
        '### D9: Keep FastAPI\n\n- **Date:** 2026-10-04\n- **Status:** Accepted\n- **Supersedes:** d1\n\n' +
        '### D1: Use aiohttp\n\n- **Date:** 2026-10-03\n- **Status:** Accepted\n\n' +
        '### D16: Deploy through the home-lab repo\n\n- **Date:** 2026-10-04\n- **Status:** Accepted\n',
    })
    const d5 = 'DEC-d5-one-container-image-serves-both-the-api-and-the'
    const d8 = 'DEC-d8-the-container-uses-host-networking'
    const d9 = 'DEC-d9-keep-fastapi'
    const d1 = 'DEC-d1-use-aiohttp'
    const d16 = 'DEC-d16-deploy-through-the-home-lab-repo'
    expect(reading.problems.filter((p) => p.message.includes('names no record'))).toEqual([])
    expect(summary(reading.records)).toMatchObject({
      [d5]: ['superseded', '2026-10-04', null, d16],
      [d9]: ['accepted', '2026-10-04', d1, null],
      [d1]: ['superseded', '2026-10-03', null, d9],
    })
    expect(summary(reading.records)[d16]?.[2]).toBe(d5)
    expect(summary(reading.records)[d8]?.[0]).toBe('superseded')
  })

  it('DECISIONS.md: a link naming a section by its number as its heading writes it ("Decision 3", "#5" of "## 5. Use X") finds it', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n## Decision 1: Use SQLite\n\n- Status: Superseded by Decision 3\n- Date: 2024-01-10\n\nEnough.\n\n' +
        '## Decision 3: Use Postgres\n\n- Status: Accepted\n- Date: 2024-03-01\n- Supersedes: decision 1\n\nJoins.\n\n' +
        '## 4. Use gRPC internally\n\n- Status: Superseded by #5\n- Date: 2024-04-01\n\nFast.\n\n' +
        '## 5. Use REST internally too\n\n- Status: Accepted\n- Date: 2024-05-01\n\nOne protocol.\n\n' +
        // A count that begins a title is no label: `3 replicas` names no section `## 3. …`.
        '## 3 replicas per region\n\n- Status: Accepted\n- Date: 2024-05-02\n\nQuorum.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'DEC-decision-1-use-sqlite': ['superseded', '2024-01-10', null, 'DEC-decision-3-use-postgres'],
      'DEC-decision-3-use-postgres': ['accepted', '2024-03-01', 'DEC-decision-1-use-sqlite', null],
      'DEC-4-use-grpc-internally': ['superseded', '2024-04-01', null, 'DEC-5-use-rest-internally-too'],
      'DEC-5-use-rest-internally-too': ['accepted', '2024-05-01', 'DEC-4-use-grpc-internally', null],
      'DEC-3-replicas-per-region': ['accepted', '2024-05-02', null, null],
    })
  })

  it('DECISIONS.md: "Decision 3" (or "Decision #3") names the "### 3. …" of its own log, as its headings number its decisions', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions Archive\n\n### 1. MCP-Centric Squad-of-Squads Architecture\n**Date:** 2026-03-11  \n**Status:** Superseded by Decision 3 (Holacracy-First Architecture)  \n\nHub and spoke.\n\n' +
        '### 2. Protocol layers\n**Date:** 2026-03-11  \n**Status:** Superseded by Decision #3  \n\nThree layers.\n\n' +
        '### 3. Holacracy-First Architecture\n**Date:** 2026-03-12  \n**Status:** Accepted  \n\nCircles.\n',
      // A fragment after a number is none of it, as before.
      '0007-use-a.md': '# 7. Use A\n\nDate: 2024-01-07\n\n## Status\n\nSuperseded by 8 #perf\n\n## Decision\n\nA.\n',
      '0008-use-h.md': '# 8. Use H\n\nDate: 2024-01-08\n\n## Status\n\nAccepted\n\n## Decision\n\nH.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0007': ['superseded', '2024-01-07', null, 'ADR-0008'],
      'ADR-0008': ['accepted', '2024-01-08', 'ADR-0007', null],
      'DEC-1-mcp-centric-squad-of-squads-architecture': ['superseded', '2026-03-11', null, 'DEC-3-holacracy-first-architecture'],
      'DEC-2-protocol-layers': ['superseded', '2026-03-11', null, 'DEC-3-holacracy-first-architecture'],
      'DEC-3-holacracy-first-architecture': ['accepted', '2026-03-12', 'DEC-1-mcp-centric-squad-of-squads-architecture', null],
    })
    // Numbered with zeros, which the title leaves out (`### 022 — Renewal savings`): the heading's number all the same.
    const zeros = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n### 022 — Renewal savings tracking and dashboard\n\n**Status:** Superseded by Decision 023\n**Date:** 2026-04-01\n\nSavings.\n\n' +
        '### 023 — Savings ledger\n\n**Status:** Accepted\n**Date:** 2026-04-20\n\nLedger.\n',
    })
    expect(zeros.problems).toEqual([])
    expect(summary(zeros.records)).toEqual({
      'DEC-022-renewal-savings-tracking-and-dashboard': ['superseded', '2026-04-01', null, 'DEC-023-savings-ledger'],
      'DEC-023-savings-ledger': ['accepted', '2026-04-20', 'DEC-022-renewal-savings-tracking-and-dashboard', null],
    })
  })

  it('DECISIONS.md: a number alone names a section of its own log, and only when it is the name, not a count before words', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n## 1. One Postgres for everything\n\n- Status: Superseded by 3 regional databases, one per market\n- Date: 2024-01-10\n\nOne database.\n\n' +
        '## 2. Use Redis for sessions\n\n- Status: Accepted\n- Date: 2024-02-01\n\nSessions.\n\n' +
        '## 3. Shard by tenant\n\n- Status: Accepted\n- Date: 2024-03-01\n\nTenants.\n',
      // An ADR's `2` is ADR-0002, not in the folder: no section of a log beside it.
      '0007-use-cron.md': '# 7. Use cron for jobs\n\nDate: 2024-04-01\n\n## Status\n\nSuperseded by 2\n\n## Context\n\nJobs.\n',
    })
    expect(summary(reading.records)).toEqual({
      'DEC-1-one-postgres-for-everything': ['superseded', '2024-01-10', null, null],
      'DEC-2-use-redis-for-sessions': ['accepted', '2024-02-01', null, null],
      'DEC-3-shard-by-tenant': ['accepted', '2024-03-01', null, null],
      'ADR-0007': ['superseded', '2024-04-01', null, null],
    })
    expect(reading.problems.map((p) => p.message)).toEqual([
      'superseded by "2" names no record in this folder; the link is left out',
      'superseded by "3 regional databases, one per market" names no record in this folder; the link is left out',
    ])
  })

  it('a status struck out no longer holds: the line says what is not struck ("~~Accepted~~ → **Superseded by [5. …](…)**")', () => {
    expect(readStatusLine('~~Accepted~~ → **Superseded by [ADR-0005](./0005-new-approach.md)**')).toEqual({ status: 'superseded', supersededBy: '0005-new-approach.md' })
    expect(readStatusLine('~~accepted~~ — **superseded by [ADR-0015](0015-drafts.md)**')).toEqual({ status: 'superseded', supersededBy: '0015-drafts.md' })
    expect(readStatusLine('~~Accepted~~ **Superseded by ADR-006**')).toEqual({ status: 'superseded', supersededBy: 'ADR-006' })
    expect(readStatusLine('~~Accepted~~ Deprecated (Console→Hub, #140)')).toEqual({ status: 'deprecated' })
    expect(readStatusLine('**Proposed** | ~~Accepted~~ | ~~Deprecated~~ | ~~Superceded~~')).toEqual({ status: 'proposed' })
    expect(readStatusLine('~~Proposed~~ | **Accepted** | ~~Deprecated~~ | ~~Superceded~~')).toEqual({ status: 'accepted' })
  })

  it('a "## Date" section, as the status has its own, dates the record; one that cannot be read is said', () => {
    const reading = readTexts({
      '0003-api-keys.md': '# ADR-003: API Key Security\n\n## Status\nAccepted\n\n## Date\n2025-09-26\n\n## Context\nKeys.\n',
      '0045-glyphs.md': '# ADR-045: Ten radicals\n\n## Status\n\nApproved\n\n## Date\n\n2026-04-22\n\n## Context\n\nGlyphs.\n',
      '0046-bad-day.md': '# ADR-046: Bad day\n\n## Status\n\nAccepted\n\n## Date\n\nsoon\n\n## Context\n\nX.\n',
    })
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([['0046-bad-day.md', 9, '"soon" is not a date; the record is read without it']])
    expect(summary(reading.records)).toEqual({
      'ADR-0003': ['accepted', '2025-09-26', null, null],
      'ADR-0045': ['accepted', '2026-04-22', null, null],
      'ADR-0046': ['accepted', null, null, null],
    })
  })

  it('a record "partially superseded by" another still holds in the rest: its status stands and no successor replaces it', () => {
    for (const line of ['Accepted, partially superseded by ADR-0009', 'Accepted, partially superseded by [ADR 0005](0005-x.md) (§1 layout)', '**Accepted, partially superseded by [ADR 0005](0005-x.md)**', 'accepted (partly superseded by ADR-0002)']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted' })
    }
    expect(readStatusLine('Partially superseded by ADR-0009')).toEqual({})
    expect(readStatusLine('Partially superseded by [ADR-0009](0009-x.md)')).toEqual({})
    // Whole, it is still a supersede.
    expect(readStatusLine('Accepted, superseded by ADR-0009')).toEqual({ status: 'superseded', supersededBy: 'ADR-0009' })
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Accepted, partially superseded by [ADR 0002](0002-use-x2.md) (§1 layout, §4 storage).'),
      '0002-use-x2.md': adr(2, 'Accepted'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', '2024-01-01', null, null], 'ADR-0002': ['accepted', '2024-01-02', null, null] })
  })

  it('a status saying a part of the record is superseded, naming the part ("the 14-command figure is superseded by …"), stands', async () => {
    for (const line of [
      'Accepted; the 14-command figure is superseded by [ADR-0178](./0178-x.md); the spine is 16.',
      'Accepted, its retry limit was superseded by ADR-0009',
      'Accepted. The storage section has been superseded by ADR-0009',
    ]) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted' })
    }
    // The record itself named, or nothing, is still the whole superseded.
    for (const line of ['Accepted; this ADR is superseded by ADR-0009', 'Accepted, the decision was superseded by ADR-0009', 'Accepted, the proposal is superseded by ADR-0009', 'Accepted; the approach was superseded by ADR-0009', 'Accepted; now superseded by ADR-0009', 'Accepted, it is superseded by ADR-0009']) {
      expect(readStatusLine(line), line).toEqual({ status: 'superseded', supersededBy: 'ADR-0009' })
    }
    const reading = await readAdrFolder(FIXTURES + 'part-superseded')
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-0160': ['accepted', '2026-08-27', null, null], 'ADR-0178': ['accepted', '2026-09-01', null, null] })
  })

  it('a link whose destination is in angle brackets ("[8. Use H](<0008-use-h.md>)") names the file between them', () => {
    expect(readStatusLine('Superceded by [8. Use H](<0008-use-h.md>)')).toEqual({ status: 'superseded', supersededBy: '0008-use-h.md' })
    expect(readStatusLine('Supercedes [2. Use B](<0002 use b.md>)')).toEqual({ supersedes: '0002 use b.md' })
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0007-use-x7.md': adr(7, 'Superceded by [8. Use X8](<0008-use-x8.md>)'),
      '0008-use-x8.md': adr(8, 'Accepted'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-0007': ['superseded', '2024-01-07', null, 'ADR-0008'], 'ADR-0008': ['accepted', '2024-01-08', 'ADR-0007', null] })
  })

  it('an arrow before a link line points at it, as a bullet would ("-> Supercedes [5. …](0005-….md)")', () => {
    expect(readStatusLine('-> Supercedes [5. Dedicated service](0005-dedicated-service.md)')).toEqual({ supersedes: '0005-dedicated-service.md' })
    expect(readStatusLine('→ Superseded by [7. Use Y](0007-use-y.md)')).toEqual({ status: 'superseded', supersededBy: '0007-use-y.md' })
    // Between two statuses it is still a step.
    expect(readStatusLine('Proposed -> Accepted')).toEqual({ status: 'accepted' })
  })

  it('a date written with the status ("2020-05-05 Accepted", "Accepted (2020-05-05)", "Accepted on 2020-05-05") is no part of it: it is its day', () => {
    for (const line of ['2020-05-05 Accepted', '2020-05-05: Accepted', '[2020-05-05] Accepted', 'Accepted (2020-05-05)', 'Accepted on 2020-05-05.', 'Accepted 2020-05-05', '**Accepted** (2020-05-05)']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    // A day that is none, or not all of one, is no day; the status is read all the same (and the day
    // that cannot be read, said).
    expect(readStatusLine('Accepted (2026-06)')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted on 2026-02-30')).toEqual({ status: 'accepted', unreadDate: '2026-02-30' })
    // The day of the status that holds, not of an earlier step.
    expect(readStatusLine('Proposed (2020-01-10) → Accepted')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Proposed (2020-01-10) → Accepted (2020-02-03)')).toEqual({ status: 'accepted', date: '2020-02-03' })
    expect(readStatusLine('2021-02-01 Superseded by [4. Use Vite](0004-use-vite.md)')).toEqual({ status: 'superseded', supersededBy: '0004-use-vite.md' })
    // With a link after the status, the day is the status's as without one, before it or after it.
    expect(readStatusLine('2020-05-05 Accepted, supersedes [1. Use X](0001-use-x.md)')).toEqual({ status: 'accepted', supersedes: '0001-use-x.md', date: '2020-05-05' })
    expect(readStatusLine('Accepted on 2020-05-05, supersedes [1. Use X](0001-use-x.md)')).toEqual({ status: 'accepted', supersedes: '0001-use-x.md', date: '2020-05-05' })
    expect(readStatusLine('2020-02-30 Accepted, supersedes ADR-0001')).toEqual({ status: 'accepted', supersedes: 'ADR-0001', unreadDate: '2020-02-30' })
  })

  it('a date written with the status as an ISO time is its day where a `Date:` field would be, and said unread where that field would be', () => {
    for (const line of ['Accepted on 2020-05-05T10:00:00Z', 'Accepted (2020-05-05T10:00:00.123+02:00)', 'Accepted on 2020-05-05T23:59:59Z.', '2020-05-05T10:00:00Z Accepted', '[2020-05-05T10:00Z] Accepted']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    // Jekyll's time, a space for the `T`, is read as a `Date:` field reads it, before the status word too;
    // a day with words after it keeps its day.
    for (const line of ['Accepted on 2020-05-05 21:33:43 -0800', 'Accepted (2020-05-05 21:33)', '2020-05-05 21:33:43 -0800 Accepted', '[2020-05-05 21:33:43 +02:00] Accepted', '2020-05-05 21:33:43Z: Accepted', 'Accepted on 2020-05-05 by the team']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    // A zone named after the time and a space goes with it, as a `Date:` field holding it reads its day:
    // these were said as no date, the time and zone with them.
    for (const line of ['Accepted on 2020-05-05T10:00:00 UTC', 'Accepted (2020-05-05 10:00:00 PST)', '2020-05-05T10:00:00 GMT+1: Accepted', 'Accepted on 2020-05-05T10:00 utc.', 'Accepted on 2020-05-05 10:00:00 UTC', 'Accepted (2020-05-05T10:00:00 UTC+05:30)', 'Accepted on 2020-05-05 10:00:00 CEST by the team']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    // So does a `Z` or an offset after the time and a space, after a `T` or Jekyll's space: these were
    // said as no date, the time and zone with them, where the zone named was read.
    for (const line of [
      'Accepted on 2020-05-05T10:00:00 Z',
      'Accepted (2020-05-05T10:00 +01:00)',
      'Accepted on 2020-05-05T10:00:00 -0800.',
      '2020-05-05T10:00:00 Z Accepted',
      '2020-05-05T10:00:00 -0800: Accepted',
      'Accepted on 2020-05-05T10:00:00 z',
      'Accepted on 2020-05-05 10:00:00 Z',
      '[2020-05-05 10:00:00 Z] Accepted',
    ]) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    // A time the clock has not, or not written as one, is no day: as `Date: 2020-05-05T25:00:00Z` is not.
    for (const [line, written] of [
      ['Accepted on 2020-05-05T25:00:00Z', '2020-05-05T25:00:00Z'],
      ['Accepted (2020-05-05T23:59:60Z)', '2020-05-05T23:59:60Z'],
      ['Accepted on 2020-05-05t10:00:00z', '2020-05-05t10:00:00z'],
      ['2020-05-05T24:00:00Z Accepted', '2020-05-05T24:00:00Z'],
      ['2020-05-05T10:00:00+24:00: Accepted', '2020-05-05T10:00:00+24:00'],
      // A day with slashes or dots takes no time in a `Date:` field (`date` writes it with dashes).
      ['Accepted on 2020/05/05T10:00:00Z', '2020/05/05T10:00:00Z'],
      ['2020.05.05T10:00 Accepted', '2020.05.05T10:00'],
      // A zone after a space goes with the time, as a `Date:` field holds it: after a time the clock
      // has not, an offset beyond ±23:59, more than one space, or a day with slashes, it is no date.
      ['Accepted on 2020-05-05T25:00:00 Z', '2020-05-05T25:00:00 Z'],
      ['Accepted (2020-05-05 25:00:00 Z)', '2020-05-05 25:00:00 Z'],
      ['Accepted on 2020-05-05T10:00:00 +24:00', '2020-05-05T10:00:00 +24:00'],
      ['Accepted on 2020-05-05T10:00:00  Z', '2020-05-05T10:00:00  Z'],
      ['Accepted on 2020/05/05T10:00:00 Z', '2020/05/05T10:00:00 Z'],
      // Jekyll's time the clock has not, or after a day not written with dashes, or a time after a day written first.
      ['Accepted on 2020-05-05 25:00:00 -0800', '2020-05-05 25:00:00 -0800'],
      ['2020-05-05 21:33:60 Accepted', '2020-05-05 21:33:60'],
      ['Accepted (2020/05/05 10:00:00)', '2020/05/05 10:00:00'],
      ['Accepted on 05.05.2020 10:00:00', '05.05.2020 10:00:00'],
      ['05.05.2020T10:00 Accepted', '05.05.2020T10:00'],
      // A zone named after a time the clock has not, or with an offset beyond ±23:59, is no date either.
      ['Accepted on 2020-05-05 25:00:00 UTC', '2020-05-05 25:00:00 UTC'],
      ['Accepted on 2020-05-05T10:00:00 UTC+25', '2020-05-05T10:00:00 UTC+25'],
      ['2020-05-05T10:00:00 GMT+24: Accepted', '2020-05-05T10:00:00 GMT+24'],
    ] as const) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', unreadDate: written })
      expect(readDate(written), written).toBeUndefined()
    }
  })

  it('a time after a day and a space not in Jekyll\'s full form is prose: the day is read alone, as a day with words after it', () => {
    // Taken with the day as a `Date:` field's value, `9:30` and `10:5` made the day unread, and said.
    for (const line of [
      'Accepted on 2020-05-05 9:30',
      'Accepted (2020-05-05 10:5)',
      'Accepted on 2020-05-05 10:00 am',
      'Accepted (2020-05-05 14:00-16:00)',
      'Accepted (2020-05-05 21:33)',
      'Accepted (2020-05-05 10:00 PST)',
      'Accepted (2020/05/05 10:00)',
      'Accepted on 05.05.2020 10:00',
      // Jekyll's full form, then more of a time: a range, or am / pm, is prose too.
      'Accepted on 2020-05-05 21:33:43-22:00:00',
      'Accepted on 2020-05-05 09:00:00 to 10:00:00',
      'Accepted (2020-05-05 10:00:00 am)',
      // A word in capitals after Jekyll's full form that names no zone is prose: the time is read without it.
      'Accepted on 2020-05-05 10:00:00 THAT day',
      'Accepted on 2020-05-05 10:00:00 BUT not for mobile',
      'Accepted on 2020-05-05T10:00:00 NOT yet deployed',
    ]) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    // Words between the day and the status word make no status log line, as before a time was read there.
    expect(readStatusLine('2020-05-05 9:30 Accepted')).toBeUndefined()
  })

  it('a date written with the status as Jekyll writes it is read as a `Date:` field written so: its day, or said whole, and the status read either way', () => {
    const adr = (n: number, date: string, status: string) => `# ${n}. Use X${n}\n\n${date}## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Date: 2024-02-01 25:00:00 -0800\n\n', 'Accepted'),
      '0002-use-x2.md': adr(2, '', 'Accepted on 2024-02-01 25:00:00 -0800'),
      '0003-use-x3.md': adr(3, 'Date: 2024-02-01 21:33:43 -0800\n\n', 'Accepted'),
      '0004-use-x4.md': adr(4, '', 'Accepted on 2024-02-01 21:33:43 -0800'),
      // A status log line that starts with the time: the record was left out, `unknown status`.
      '0005-use-x5.md': adr(5, '', '2024-02-01 21:33:43 -0800 Accepted'),
      // A zone named after the time and a space: its day, in the field and beside the status, where both were said as no date.
      '0006-use-x6.md': adr(6, 'Date: 2024-02-01T10:00:00 UTC\n\n', 'Accepted'),
      '0007-use-x7.md': adr(7, '', 'Accepted on 2024-02-01T10:00:00 UTC'),
      '0008-use-x8.md': adr(8, 'Date: 2024-02-01 10:00:00 UTC\n\n', 'Accepted'),
      '0009-use-x9.md': adr(9, '', 'Accepted on 2024-02-01 10:00:00 GMT+1'),
      // One whose time the clock has not is no date, named or not.
      '0010-use-x10.md': adr(10, 'Date: 2024-02-01 25:00:00 UTC\n\n', 'Accepted'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', '2024-02-01', null, null],
      'ADR-0004': ['accepted', '2024-02-01', null, null],
      'ADR-0005': ['accepted', '2024-02-01', null, null],
      'ADR-0006': ['accepted', '2024-02-01', null, null],
      'ADR-0007': ['accepted', '2024-02-01', null, null],
      'ADR-0008': ['accepted', '2024-02-01', null, null],
      'ADR-0009': ['accepted', '2024-02-01', null, null],
      'ADR-0010': ['accepted', null, null, null],
    })
    const unread = 'is not a date; the record is read without it'
    expect(reading.problems).toEqual([
      { path: '0001-use-x1.md', line: 3, message: `"2024-02-01 25:00:00 -0800" ${unread}` },
      { path: '0002-use-x2.md', line: 5, message: `"2024-02-01 25:00:00 -0800" ${unread}` },
      { path: '0010-use-x10.md', line: 3, message: `"2024-02-01 25:00:00 UTC" ${unread}` },
    ])
  })

  it('a date written with a space before its `Z` or offset is its day, in a `Date:` field and with the status, and said unread where its time is none', () => {
    const adr = (n: number, date: string, status: string) => `# ${n}. Use X${n}\n\n${date}## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    // Each was said as not a date and read without it, where a zone named was read. (The third is dated by
    // its file name, which comes before the day written with the status: its status's day is read, not said.)
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Date: 2024-02-01T10:00:00 Z\n\n', 'Accepted'),
      '0002-use-x2.md': adr(2, '', 'Accepted on 2024-02-01T10:00:00 Z'),
      '20240203-use-x3.md': '# Use X3\n\n- Status: accepted (2024-02-01T10:00:00 +01:00)\n',
      '0004-use-x4.md': adr(4, 'Date: 2024-02-01T10:00:00 -0800\n\n', 'Accepted'),
      '0005-use-x5.md': adr(5, 'Date: 2024-02-01 10:00:00 Z\n\n', 'Accepted'),
      '0006-use-x6.md': adr(6, '', 'Accepted on 2024-02-01 10:00:00 Z'),
      '0007-use-x7.md': adr(7, '', '2024-02-01T10:00:00 +01:00 Accepted'),
      // A time the clock has not, or an offset beyond ±23:59, is no date still, and said.
      '20240203-use-x8.md': '# Use X8\n\n- Status: accepted (2024-02-01T25:00:00 Z)\n',
      '0009-use-x9.md': adr(9, 'Date: 2024-02-01T10:00:00 +24:00\n\n', 'Accepted'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-02-01', null, null],
      'ADR-0002': ['accepted', '2024-02-01', null, null],
      '20240203-use-x3': ['accepted', '2024-02-03', null, null],
      'ADR-0004': ['accepted', '2024-02-01', null, null],
      'ADR-0005': ['accepted', '2024-02-01', null, null],
      'ADR-0006': ['accepted', '2024-02-01', null, null],
      'ADR-0007': ['accepted', '2024-02-01', null, null],
      '20240203-use-x8': ['accepted', '2024-02-03', null, null],
      'ADR-0009': ['accepted', null, null, null],
    })
    const unread = 'is not a date; the record is read without it'
    expect(reading.problems).toEqual([
      { path: '0009-use-x9.md', line: 3, message: `"2024-02-01T10:00:00 +24:00" ${unread}` },
      // Dated by its file name, the day with its status is passed over for it.
      { path: '20240203-use-x8.md', line: 3, message: '"2024-02-01T25:00:00 Z" is not a date; passed over, the record is dated 2024-02-03' },
    ])
  })

  it('a note under the status that says no status is passed over, and said, rather than the record left out; alone it is an unknown status', () => {
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Accepted\n\nWe discussed this with the platform team; see the meeting notes.'),
      '0002-use-x2.md': adr(2, 'Accepted — 2024-01-02\n\nAmended by [ADR-0001](0001-use-x1.md) (2024-02-01): decisions #3\nand #4 below no longer hold.'),
      '0003-use-x3.md': adr(3, 'Needs another round with Priya before we decide'),
      // A note that speaks of the lifecycle may take the status back: unread, as before, not accepted.
      '0004-use-x4.md': adr(4, 'Accepted\n\nLater rejected by the security review.'),
      '0005-use-x5.md': adr(5, 'Accepted\n\nReverted on 2024-05-01 after the outage.'),
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n### Status\n\nAccepted\n\nWe talked it over at the retro.\n\n### Context\n\nHabit.\n',
    })
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0001-use-x1.md', 9, 'unknown status "We discussed this with the platform team; see the meeting notes."; passed over, the record is read as accepted'],
      ['0002-use-x2.md', 10, 'unknown status "and #4 below no longer hold."; passed over, the record is read as accepted'],
      ['0003-use-x3.md', 7, 'unknown status "Needs another round with Priya before we decide"'],
      ['0004-use-x4.md', 9, 'unknown status "Later rejected by the security review."'],
      ['0005-use-x5.md', 9, 'unknown status "Reverted on 2024-05-01 after the outage."'],
      ['DECISIONS.md', 9, 'unknown status "We talked it over at the retro."; passed over, the record is read as accepted'],
    ])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2024-01-01', null, null],
      'ADR-0002': ['accepted', '2024-01-02', null, null],
      'D-001': ['accepted', null, null, null],
    })
  })

  it('front matter with no status is read as accepted only on a file named as a record: a page of the site, or a status left empty, is refused', () => {
    const reading = readTexts({
      '0005-use-z.md': '---\nparent: Decisions\n---\n# Use Z\n\n## Decision Outcome\n\nZ.\n',
      'contributing.md': '---\ntitle: Contributing to our decisions\nnav_order: 99\n---\n# Contributing\n\nWrite a record with `adr new` and open a pull request.\n',
      '0006-use-w.md': '---\nstatus:\ndate: 2024-01-02\n---\n# Use W\n\n## Decision Outcome\n\nW.\n',
      // A status key written in capitals is a status, not none.
      '0007-use-v.md': '---\nStatus: Deprecated\n---\n# Use V\n\n## Decision Outcome\n\nV.\n',
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0005': ['accepted', null, null, null], 'ADR-0007': ['deprecated', null, null, null] })
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0005-use-z.md', 1, 'the front matter has no status; read as accepted (MADR makes the field optional)'],
      ['0006-use-w.md', 2, 'the front matter has no status'],
      ['contributing.md', 1, 'the front matter has no status'],
    ])
  })

  it('a status shown in a code block is an example, not the record\'s: MADR\'s own record on front matter reads as MADR with no status', () => {
    const example = '```markdown\n---\nstatus: accepted\ndeciders:\ndate:\n---\n\n## Status\n\nAccepted\n```\n'
    const reading = readTexts({
      '0013-use-yaml-front-matter-for-meta-data.md': `---\nparent: Decisions\nnav_order: 13\n---\n# Use YAML front matter for meta data\n\n## Decision Outcome\n\nChosen option: "Use YAML front matter", because comes out best (see below).\n\n## Use YAML front matter\n\nExample:\n\n${example}`,
      // and a Nygard record showing a log4brains header in a block is still adr-tools
      '0014-use-w.md': `# 14. Use W\n\n## Status\n\nProposed\n\n## Decision\n\nWrite:\n\n~~~\n- Status: accepted\n~~~\n`,
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0013': ['accepted', null, null, null], 'ADR-0014': ['proposed', null, null, null] })
    expect(reading.formats).toEqual({ madr: 1, 'adr-tools': 1 })
    expect(reading.problems).toEqual([
      { path: '0013-use-yaml-front-matter-for-meta-data.md', line: 1, message: 'the front matter has no status; read as accepted (MADR makes the field optional)', read: true },
    ])
  })

  it('front matter a site generator wants (Jekyll\'s layout, nav_order) on a record whose body writes its status is read by the body, not refused as MADR with no status', () => {
    const reading = readTexts({
      '0002-use-w.md': '---\nlayout: default\nnav_order: 2\n---\n\n# 2. Use W\n\nDate: 2021-03-01\n\n## Status\n\nSuperceded by [3. Use X](0003-use-x.md)\n\n## Context\n\nC.\n\n## Decision\n\nW.\n',
      '0003-use-x.md': '---\nlayout: default\ntitle: Use X\nnav_order: 3\n---\n\n# 3. Use X\n\nDate: 2021-03-10\n\n## Status\n\nAccepted\n\nSupercedes [2. Use W](0002-use-w.md)\n\n## Context\n\nC.\n\n## Decision\n\nX.\n',
      '0004-use-y.md': '---\nparent: Decisions\nnav_order: 4\n---\n# Use Y\n\n- Status: accepted\n- Date: 2021-04-01\n\n## Decision Outcome\n\nChosen option: "Y", because it is simple.\n',
      // Front matter with no status and none in the body either: MADR with no status, which MADR 4
      // allows (its own records are written so): read as accepted, and said.
      '0005-use-z.md': '---\nparent: Decisions\nnav_order: 5\n---\n# Use Z\n\n## Decision Outcome\n\nChosen option: "Z", because it is simple.\n',
    })
    expect(reading.problems).toEqual([{ path: '0005-use-z.md', line: 1, message: 'the front matter has no status; read as accepted (MADR makes the field optional)', read: true }])
    expect(summary(reading.records)).toEqual({
      'ADR-0002': ['superseded', '2021-03-01', null, 'ADR-0003'],
      'ADR-0003': ['accepted', '2021-03-10', 'ADR-0002', null],
      'ADR-0004': ['accepted', '2021-04-01', null, null],
      'ADR-0005': ['accepted', null, null, null],
    })
    expect(reading.records.find((r) => r.key === 'ADR-0005')).toMatchObject({ title: 'Use Z', decision: 'Chosen option: "Z", because it is simple.', enforce: 'advisory' })
    expect(reading.records.find((r) => r.key === 'ADR-0003')?.title).toBe('Use X')
  })

  it('fields set apart in a block quote under the title ("> **Status:** accepted") are read, not the file left out as no record', () => {
    const reading = readTexts({
      '0001-one-session.md': '# ADR-0001 — One workbench session\n\n> **Status:** accepted\n> **Date:** 2026-06-20\n\n## Context\n\nState is split.\n\n## Decision\n\nOne session.\n',
      '0003-harvest-ledger.md': '# ADR-003 — The harvest ledger\n\n> **Status:** Superseded by [ADR-0001](0001-one-session.md)  \n> **Date:** 2026-08-08  \n> **Affects:** overview\n\n## Context\n\nX.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2026-06-20', 'ADR-0003', null],
      'ADR-0003': ['superseded', '2026-08-08', null, 'ADR-0001'],
    })
  })

  it('fields written on one line, each in bold after a "|" or "·" ("**Status:** Accepted | **Date:** 2026-07-13"), are each read', () => {
    const reading = readTexts({
      '0040-release-events.md': '# ADR-040: Release event versioning\n\n**Status:** Accepted | **Date:** 2026-07-13\n\nNamed event types.\n',
      '0071-one-channel.md': '# ADR-0071 — One channel\n\n**Status:** Accepted · **Date:** 2026-09-20 · **Owner:** core\n\n## Context\n\nPlugins.\n',
      '0072-two-channels.md': '# ADR-0072 — Two channels\n\n**Status:** Superseded by [ADR-0071](0071-one-channel.md) · **Date:** 2026-09-01\n\n## Context\n\nPlugins.\n',
      '0073-bad-day.md': '# ADR-0073 — Bad day\n\n**Status:** Proposed | **Date:** 2025-05\n\n## Context\n\nX.\n',
    })
    // A date written so that cannot be read is said, as on a line of its own.
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([['0073-bad-day.md', 3, '"2025-05" is not a date; the record is read without it']])
    expect(summary(reading.records)).toEqual({
      'ADR-0040': ['accepted', '2026-07-13', null, null],
      'ADR-0071': ['accepted', '2026-09-20', 'ADR-0072', null],
      'ADR-0072': ['superseded', '2026-09-01', null, 'ADR-0071'],
      'ADR-0073': ['proposed', null, null, null],
    })
  })

  it('a day after a dash ("Accepted — 2026-05-20", "Accepted - 2026-06-26") is the status\'s day, as one before it is', () => {
    for (const line of ['Accepted — 2026-05-20', 'Accepted – 2026-05-20', 'Accepted - 2026-05-20.', '**Accepted** — 2026-05-20 (audit campaign)', 'Accepted-2026-05-20']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2026-05-20' })
    }
    const reading = readTexts({
      '0001-modular-monolith.md': '# ADR-0001: Modular monolith\n\n## Status\nAccepted — 2026-01-10\n\n## Decision\nOne deployable.\n',
      '0002-active-edit-layer.md': '# ADR-0002 — Active edit layer\n\n**Status:** Accepted — 2026-05-20\n\n## Context\n\nRouter.\n',
      '0004-screenshots.md': '# ADR 0004: Screenshot analysis\n\nStatus: Accepted - 2026-06-26\n\n## Context\n\nUsers.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2026-01-10', null, null],
      'ADR-0002': ['accepted', '2026-05-20', null, null],
      'ADR-0004': ['accepted', '2026-06-26', null, null],
    })
  })

  it('a day after a full stop ("Accepted. 2026-09-10.") is the status\'s day, as many records write it', () => {
    for (const [line, date] of [
      ['Accepted. 2026-09-10.', '2026-09-10'],
      ['Accepted. 2026-09-13. User explicitly approved the complete DESIGN.', '2026-09-13'],
      ['**Accepted.** 2026-06-21', '2026-06-21'],
      ['Accepted.2026-06-21', '2026-06-21'],
    ]) {
      expect(readStatusLine(line as string), line).toEqual({ status: 'accepted', date })
    }
    // A day that cannot be read is said, as after any other separator.
    expect(readStatusLine('Accepted. 12/02/2016.')).toEqual({ status: 'accepted', unreadDate: '12/02/2016' })
    const reading = readTexts({
      '0001-separate-agent-bus-database.md': '# ADR 0001: Separate Agent Bus Database\n\n## Status\n\nAccepted. 2026-09-10.\n\n## Context\n\nOne coordinator.\n\n## Decision\n\nTwo databases.\n',
      '0004-open-signup.md': '# ADR 0004 — Open signup from the site URL\n\n## Status\n\nAccepted. 2026-08-31. Ahmed: anyone can sign up through a link\nand then track.\n\n## Context\n\nv1 was invite-code gated.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2026-09-10', null, null],
      'ADR-0004': ['accepted', '2026-08-31', null, null],
    })
  })

  it('a day with its month named, after the status word ("Accepted on July 16, 2026."), is the status\'s day, as a "Date:" field\'s is', () => {
    for (const [line, date] of [
      ['Accepted on July 16, 2026.', '2026-07-16'],
      ['Accepted on 5 May 2020', '2020-05-05'],
      ['Accepted (May 5, 2020)', '2020-05-05'],
      ['Accepted — 10 Sept 2025', '2025-09-10'],
      ['Accepted on 5th of May, 2020 by the team', '2020-05-05'],
      // A status log on one line, each step with such a day: the latest holds, as with days in numbers.
      ['Proposed (March 3, 2024), Accepted (April 5, 2024)', '2024-04-05'],
    ]) {
      expect(readStatusLine(line as string), line).toEqual({ status: 'accepted', date })
    }
    // A month that is none, or a day the month has not, is said as a date that cannot be read.
    expect(readStatusLine('Accepted on February 30, 2026')).toEqual({ status: 'accepted', unreadDate: 'February 30, 2026' })
    // A month and year alone are no day, nor words that name no month: the record is undated, unsaid, as before.
    expect(readStatusLine('Accepted in March 2024')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted in sprint 12, 2024')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted on JULY 16, 2026')).toEqual({ status: 'accepted', date: '2026-07-16' })
    const reading = readTexts({
      '0001-separate-app-development.md': '# ADR: Separate application development from system maintenance\n\n## Status\n\nAccepted on July 16, 2026.\n\nImplementation is prepared in source.\n\n## Decision\n\nTwo roles.\n',
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', '2026-07-16', null, null] })
  })

  it('a day with its month named after its weekday, after the status word ("Accepted on Tuesday, 5 May 2020"), is read as a "Date:" field\'s is', () => {
    // A Date: field reads `Tuesday, 5 May 2020`; written after the status, it was passed over unsaid.
    for (const line of ['Accepted on Tuesday, 5 May 2020', 'Accepted (Tue 5 May 2020)', 'Accepted on Thursday, July 16, 2026.']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: line.includes('2020') ? '2020-05-05' : '2026-07-16' })
    }
    // A weekday that is not that day's leaves it unread, said, as in a Date: field.
    expect(readStatusLine('Accepted on Monday, 5 May 2020')).toEqual({ status: 'accepted', unreadDate: 'Monday, 5 May 2020' })
  })

  it('a day with its month named in another language after the status word ("Accepted on 5 juin 2023") is said as not a date, as a "Date:" field\'s is', () => {
    // readDate reads none of them, and a `Date: 5 juin 2023` is said as not a date; after the status
    // it was passed over unsaid, the record read as accepted with nothing said of the day.
    for (const [line, written] of [
      ['Accepted on 5 juin 2023', '5 juin 2023'],
      ['Accepté le 1er juin 2023', '1er juin 2023'],
      ['Aceptado el 5 de junio de 2023', '5 de junio de 2023'],
      ['Angenommen am 5. Juni 2023', '5. Juni 2023'],
      ['Accettato il 5 giugno 2023', '5 giugno 2023'],
      ['Aceito em 5 de março de 2023', '5 de março de 2023'],
      ['Accepted (5 AOÛT 2023)', '5 AOÛT 2023'],
    ] as const) {
      expect(readDate(written), written).toBeUndefined()
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', unreadDate: written })
    }
    // A word that names no month is prose, as in English (`Accepted in sprint 12, 2024`).
    expect(readStatusLine('Accepted on 5 juinx 2023')).toEqual({ status: 'accepted' })
    const reading = readTexts({
      '0001-use-a.md': '# 1. Use A\n\nDate: 5 juin 2023\n\n## Status\n\nAccepted\n',
      '0002-use-b.md': '# 2. Use B\n\n## Status\n\nAccepted on 5 juin 2023\n',
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null], 'ADR-0002': ['accepted', null, null, null] })
    expect(reading.problems).toEqual([
      { path: '0001-use-a.md', line: 3, message: '"5 juin 2023" is not a date; the record is read without it' },
      { path: '0002-use-b.md', line: 5, message: '"5 juin 2023" is not a date; the record is read without it' },
    ])
  })

  it('a day in numbers after its weekday, after the status word ("Accepted on Tuesday, 2020-05-05"), is read as a "Date:" field\'s is', () => {
    // A Date: field reads `Tuesday, 2020-05-05`; after the status only a day with its month named
    // was taken after its weekday, and this one was passed over unsaid, the record dated its import.
    for (const line of ['Accepted on Tuesday, 2020-05-05', 'Accepted (Tue 2020-05-05)', 'Accepted: Tuesday 05.05.2020']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2020-05-05' })
    }
    expect(readStatusLine('Accepted on Monday, 2020-05-05')).toEqual({ status: 'accepted', unreadDate: 'Monday, 2020-05-05' })
    // A status log's steps so written: the latest.
    expect(readStatusLine('Proposed on Monday, 2020-05-04; Accepted on Tuesday, 2020-05-05')).toEqual({ status: 'accepted', date: '2020-05-05' })
  })

  it('a status log on one line is still split at a comma before a day written in numbers ("Proposed 2025-01-10, 2025-03-01 Accepted")', () => {
    // Only the year of a day with its month named (`March 3, 2024`) is no step of its own: a day
    // in numbers after the comma begins the next step, which holds, as before days with a month named were read.
    for (const line of ['Proposed 2025-01-10, 2025-03-01 Accepted', 'Proposed on 2025-01-10, 2025-03-01: Accepted', 'Proposed 2025-01-10; 2025/03/01 Accepted']) {
      expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: '2025-03-01' })
    }
    expect(readStatusLine('Proposed (March 3, 2024), Accepted (5 April, 2024)')).toEqual({ status: 'accepted', date: '2024-04-05' })
    // A step's day after a comma is still its own, in numbers too: the step is the status and what follows until the next.
    expect(readStatusLine('Accepted by the team, 2024-01-01; Deprecated by the board, 2024-06-01')).toEqual({ status: 'deprecated', date: '2024-06-01' })
    expect(readStatusLine('Proposed, 2024-01-01; Accepted, 2024-02-01')).toEqual({ status: 'accepted', date: '2024-02-01' })
    expect(readStatusLine('Accepted, 2024-02-01')).toEqual({ status: 'accepted', date: '2024-02-01' })
    const reading = readTexts({ '0021-v2-gateway.md': '# 21. The v2 gateway\n\n## Status\n\nProposed 2025-01-10, 2025-03-01 Accepted\n\n## Context\n\nv2.\n' })
    expect(summary(reading.records)).toEqual({ 'ADR-0021': ['accepted', '2025-03-01', null, null] })
  })

  it('a day after who accepted it ("Accepted by the maintainer on 2026-10-06") is the status\'s day', () => {
    for (const [line, date] of [
      ['Accepted by the maintainer on 2026-10-06 (#177). It amends', '2026-10-06'],
      ['Accepted by Matthew on 2026-08-10.', '2026-08-10'],
      ['Accepted by Roy Kollen Svendsen, 2026-10-05.', '2026-10-05'],
      ['Accepted by the organiser on 1 September 2026.', '2026-09-01'],
      ['Accepted by explicit Product Owner decision on 2026-08-18. Implemented as a narrow Product Owner', '2026-08-18'],
    ]) {
      expect(readStatusLine(line as string), line).toEqual({ status: 'accepted', date })
    }
    // Who alone is no day; a day in a later sentence is not the status's.
    expect(readStatusLine('Accepted by user.')).toEqual({ status: 'accepted' })
    expect(readStatusLine('Accepted by the team. Reviewed on 2026-01-01.')).toEqual({ status: 'accepted' })
    const reading = readTexts({
      '0006-bounded-role-and-pause-matrix.md':
        '# ADR-0006: Bounded role and pause matrix\n\n## Status\n\nAccepted by the owner on 30 August 2026. Superseded by ADR-0015 (minimal money authority).\n\n## Context\n\nPhase 1.\n',
      '0015-minimal-money-authority.md': '# ADR-0015: Minimal money authority\n\n## Status\n\nAccepted by the owner on 2026-09-20.\n\n## Context\n\nPhase 2.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0006': ['superseded', '2026-08-30', null, 'ADR-0015'],
      'ADR-0015': ['accepted', '2026-09-20', 'ADR-0006', null],
    })
  })

  it('a "Decision date:" field dates the record as a "Date:" field does, in every format; a "Date:" still comes first', () => {
    const reading = readTexts({
      '0029-place-help-in-the-footer.md':
        '# ADR-0029: Place Help in the footer and use consistent icon buttons\n\n- **Status:** accepted\n- **Decision date:** 2026-09-30\n- **Documented:** 2026-10-02\n\n## Context\n\nHeader.\n\n## Decision\n\nFooter.\n',
      '0014-wizard-enhancements.md':
        '# Wizard Enhancements\n\n- **Status:** Proposed (Revision 2)\n- **Creation Date:** 2024-01-23\n- **Decision Date:** 2024-02-13\n\n## Context\n\nC.\n',
      '0015-use-grpc.md': '# 15. Use gRPC\n\nDecision date: 2025-03-04\n\n## Status\n\nAccepted\n\n## Decision\n\ngRPC.\n',
      '0016-use-protobuf.md': '# 16. Use Protobuf\n\nDate: 2025-03-05\nDecision date: 2025-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nProtobuf.\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: Accepted\n- Decision date: 2024-01-10\n\nHabit.\n',
      // A column of a table of fields too, as `| Status | Date |` is read: not the status of a table in rows.
      '0017-use-avro.md': '# 17. Use Avro\n\n| Status | Decision date |\n|---|---|\n| Accepted | 2025-03-06 |\n\n## Decision\n\nAvro.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0014': ['proposed', '2024-02-13', null, null],
      'ADR-0015': ['accepted', '2025-03-04', null, null],
      'ADR-0016': ['accepted', '2025-03-05', null, null],
      'ADR-0017': ['accepted', '2025-03-06', null, null],
      'ADR-0029': ['accepted', '2026-09-30', null, null],
      'D-001': ['accepted', '2024-01-10', null, null],
    })
    // A field, not prose: the log's rationale is its prose alone.
    expect(reading.records.find((r) => r.key === 'D-001')?.rationale).toBe('Habit.')
  })

  it('a "Date:" that writes no day (`TBD`, `unknown`, `-`) leaves a "Decision date:" after it to date the record, in every format', () => {
    const reading = readTexts({
      '0015-use-grpc.md': '# 15. Use gRPC\n\nDate: TBD\nDecision date: 2024-03-01\n\n## Status\n\nAccepted\n\n## Decision\n\ngRPC.\n',
      '0016-use-protobuf.md': '# Use Protobuf\n\n- Status: accepted\n- Date: unknown\n- Decision date: 2024-03-02\n\n## Decision Outcome\n\nChosen option: "Protobuf", because it is typed.\n',
      '0017-use-avro.md': '---\nstatus: accepted\n---\n\n# Use Avro\n\n- Date: -\n- Decision date: 2024-03-03\n\n## Decision Outcome\n\nChosen option: "Avro", because it is small.\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: Accepted\n- Date: TBD\n- Decision date: 2024-03-04\n\nHabit.\n',
      // log4brains: before the day its file is named by, as a "Date:" field is.
      '20240101-use-yaml.md': '# Use YAML\n\n- Status: accepted\n- Date: TBD\n- Decision date: 2024-03-05\n\n## Context and Problem Statement\n\nC.\n\n## Decision Outcome\n\nYAML.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0015': ['accepted', '2024-03-01', null, null],
      'ADR-0016': ['accepted', '2024-03-02', null, null],
      'ADR-0017': ['accepted', '2024-03-03', null, null],
      'D-001': ['accepted', '2024-03-04', null, null],
      '20240101-use-yaml': ['accepted', '2024-03-05', null, null],
    })
    // What the first field writes is still said, passed over for the day the record is dated: not
    // as one the record is read without, which it is not (so it was said).
    expect(reading.problems.map((p) => `${p.path}:${p.line}: ${p.message}`)).toEqual([
      '0015-use-grpc.md:3: "TBD" is not a date; passed over, the record is dated 2024-03-01',
      '0016-use-protobuf.md:4: "unknown" is not a date; passed over, the record is dated 2024-03-02',
      '0017-use-avro.md:7: "-" is not a date; passed over, the record is dated 2024-03-03',
      '20240101-use-yaml.md:4: "TBD" is not a date; passed over, the record is dated 2024-03-05',
      'DECISIONS.md:6: "TBD" is not a date; passed over, the record is dated 2024-03-04',
    ])
  })

  it('a "Date:" that writes a day it cannot read (`12/02/2016`, `5 juin 2016`) still comes before a "Decision date:", as one it reads does', () => {
    // A day-first folder (`14/02/2016` can be read one way only) reads `12/02/2016` as the 12th of
    // February: a "Decision date:" after it is no reason to date the record otherwise than
    // `Date: 14/02/2016` dates the record beside it.
    const reading = readTexts({
      '0001-use-a.md': '# 1. Use A\n\nDate: 14/02/2016\nDecision date: 2016-02-20\n\n## Status\n\nAccepted\n\n## Decision\n\nA.\n',
      '0002-use-b.md': '# 2. Use B\n\nDate: 12/02/2016\nDecision date: 2016-02-20\n\n## Status\n\nAccepted\n\n## Decision\n\nB.\n',
      '0003-use-c.md': '# Use C\n\n- Status: accepted\n- Date: 5 juin 2016\n- Decision date: 2016-02-20\n\n## Decision Outcome\n\nChosen option: "C", because it is small.\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: Accepted\n- Date: 5 juin 2016\n- Decision date: 2016-02-20\n\nHabit.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2016-02-14', null, null],
      'ADR-0002': ['accepted', '2016-02-12', null, null],
      'ADR-0003': ['accepted', null, null, null],
      'D-001': ['accepted', null, null, null],
    })
    expect(reading.problems.map((p) => `${p.path}:${p.line}: ${p.message}`)).toEqual([
      '0002-use-b.md:3: "12/02/2016" is read as 2016-02-12, day first, as this folder writes its dates ("14/02/2016" in 0001-use-a.md); write it as YYYY-MM-DD to say so',
      '0003-use-c.md:4: "5 juin 2016" is not a date; the record is read without it',
      'DECISIONS.md:6: "5 juin 2016" is not a date; the record is read without it',
    ])
  })

  it('a record that writes no "Date:" is dated by the day written with its status, in every format; a "Date:" still comes first', () => {
    const reading = readTexts({
      '0009-owner-issued-thread-settings.md':
        '# ADR 0009: Owner-issued remote thread settings\n\n## Status\n\nAccepted on 2026-08-31.\n\n## Context\n\nA supervising node edits them.\n\n## Decision\n\nThe owner issues them.\n',
      '0010-use-grpc.md': '# 10. Use gRPC\n\nDate: 2026-09-01\n\n## Status\n\nAccepted (2026-09-15)\n\n## Decision\n\ngRPC.\n',
      '0011-use-protobuf.md': '---\nstatus: "accepted (2026-09-20)"\n---\n\n# Use Protobuf\n\n## Decision Outcome\n\nChosen option: "Protobuf", because it is typed.\n',
      '0012-keep-json-for-webhooks.md': '# Keep JSON for webhooks\n\n* Status: 2026-09-22 Accepted\n* Deciders: Alice\n\n## Decision Outcome\n\nChosen option: "JSON", because partners read it.\n',
      'DECISIONS.md': '# Decisions\n\n## D-001: Use tabs\n\n- Status: Accepted on 2024-01-10\n\nHabit.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0009': ['accepted', '2026-08-31', null, null],
      'ADR-0010': ['accepted', '2026-09-01', null, null],
      'ADR-0011': ['accepted', '2026-09-20', null, null],
      'ADR-0012': ['accepted', '2026-09-22', null, null],
      'D-001': ['accepted', '2024-01-10', null, null],
    })
  })

  it('a status log, a day on each line, is the latest day\'s status, dated so; a "Superseded by" still wins', () => {
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, '2020-01-10 Proposed\n\n2020-02-01 Accepted'),
      '0002-use-x2.md': adr(2, '* 2020-02-01 Accepted\n* 2020-01-10 Proposed'),
      '0003-use-x3.md': adr(3, 'Accepted\n\n2022-03-01 Deprecated'),
      '0004-use-x4.md': adr(4, '2020-01-10 Accepted\n\nSuperseded by [1. Use X1](0001-use-x1.md)'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2020-02-01', 'ADR-0004', null],
      'ADR-0002': ['accepted', '2020-02-01', null, null],
      'ADR-0003': ['deprecated', '2022-03-01', null, null],
      'ADR-0004': ['superseded', '2020-01-10', null, 'ADR-0001'],
    })
  })

  it('adr-tools records written so are read, and their links followed', () => {
    const adr = (n: number, title: string, status: string) =>
      `# ${n}. ${title}\n\nDate: 2020-0${n}-05\n\n## Status\n\n${status}\n\n## Context\n\nContext.\n\n## Decision\n\n${title}.\n`
    const reading = readTexts({
      '0001-use-rabbitmq.md': adr(1, 'Use RabbitMQ', '2020-01-05 Accepted\n\nObsoleted by [2. Use Kafka](0002-use-kafka.md)'),
      '0002-use-kafka.md': adr(2, 'Use Kafka', 'Proposed → Accepted\n\nObsoletes [1. Use RabbitMQ](0001-use-rabbitmq.md)'),
      '0003-use-avro.md': adr(3, 'Use Avro', 'Proposed -> Accepted'),
      '0004-use-protobuf.md': adr(4, 'Use Protobuf', 'Accepted (2020-04-05)'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2020-01-05', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2020-02-05', 'ADR-0001', null],
      'ADR-0003': ['accepted', '2020-03-05', null, null],
      'ADR-0004': ['accepted', '2020-04-05', null, null],
    })
  })
})

describe('links and titles as MADR and log4brains users write them', () => {
  const madr = (status: string, title: string, extra = '', body = '') =>
    `---\nstatus: ${status}\ndate: 2024-01-0${title.length % 9 || 1}\n${extra}---\n\n# ${title}\n\n${body}## Decision Outcome\n\nChosen option: "${title}".\n`

  it('MADR: a `supersedes:` in the front matter links the records both ways, as a list of one too', () => {
    const reading = readTexts({
      '0001-use-rest.md': madr('accepted', 'Use REST'),
      '0002-use-grpc.md': madr('accepted', 'Use gRPC', 'supersedes: 0001-use-rest.md\n'),
      '0003-use-soap.md': madr('accepted', 'Use SOAP'),
      '0004-use-graphql.md': madr('accepted', 'Use GraphQL', 'supersedes: [ADR-0003]\n'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['superseded', expect.any(String), null, 'ADR-0002'],
      'ADR-0002': ['accepted', expect.any(String), 'ADR-0001', null],
      'ADR-0003': ['superseded', expect.any(String), null, 'ADR-0004'],
      'ADR-0004': ['accepted', expect.any(String), 'ADR-0003', null],
    })
  })

  it('MADR: a front matter list of two predecessors links the first, and says the other is left out', () => {
    const reading = readTexts({
      '0001-use-rest.md': madr('accepted', 'Use REST'),
      '0002-use-soap.md': madr('accepted', 'Use SOAP'),
      '0003-use-grpc.md': madr('accepted', 'Use gRPC', 'supersedes: [0001-use-rest.md, 0002-use-soap.md]\n'),
    })
    expect(reading.problems).toEqual([{ path: '0003-use-grpc.md', line: 4, message: 'supersedes lists 2 records; a decision links one, so only the first is linked' }])
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['superseded', expect.any(String), null, 'ADR-0003'],
      'ADR-0002': ['accepted', expect.any(String), null, null],
      'ADR-0003': ['accepted', expect.any(String), 'ADR-0001', null],
    })
  })

  it('MADR and log4brains: a "Superseded by" line in the body names the successor, and the record still written accepted is superseded', () => {
    const reading = readTexts({
      '0001-use-rest.md': madr('accepted', 'Use REST', '', 'Superseded by [ADR-0002](0002-use-grpc.md)\n\n'),
      '0002-use-grpc.md': madr('accepted', 'Use gRPC'),
      '20240301-use-yarn.md': '# Use Yarn\n\n- Status: accepted\n- Superseded by: [Use pnpm](20240401-use-pnpm.md)\n- Date: 2024-03-01\n\n## Decision Outcome\n\nYarn.\n',
      '20240401-use-pnpm.md': '# Use pnpm\n\n- Status: accepted\n- Date: 2024-04-01\n\n## Decision Outcome\n\npnpm.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['superseded', expect.any(String), null, 'ADR-0002'],
      'ADR-0002': ['accepted', expect.any(String), 'ADR-0001', null],
      '20240301-use-yarn': ['superseded', '2024-03-01', null, '20240401-use-pnpm'],
      '20240401-use-pnpm': ['accepted', '2024-04-01', '20240301-use-yarn', null],
    })
  })

  it('MADR and log4brains: a "Superseded by" placeholder leaves an accepted record in force; a successor not in the folder still supersedes it', () => {
    const reading = readTexts({
      '0001-use-rest.md': madr('accepted', 'Use REST', '', 'Superseded by: none\n\n'),
      '0002-use-grpc.md': madr('accepted', 'Use gRPC', 'superseded-by: 0009-use-graphql.md\n'),
      '0003-use-soap.md': madr('accepted', 'Use SOAP', '', 'Superseded by: N/A\n\n'),
      '0004-use-x.md': '# 4. Use X\n\n- Status: accepted\n- Superseded by: [ADR-0012](../platform/0012-use-y.md)\n\n## Decision Outcome\n\nX.\n',
      '20240301-use-yarn.md': '# Use Yarn\n\n- Status: accepted\n- Superseded by: -\n- Date: 2024-03-01\n\n## Decision Outcome\n\nYarn.\n',
    })
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['accepted', expect.any(String), null, null],
      // The record says it was replaced, by a record another folder (or an earlier commit) holds:
      // superseded, as an adr-tools "Superseded by" line to it makes one; the link is left out.
      'ADR-0002': ['superseded', expect.any(String), null, null],
      'ADR-0003': ['accepted', expect.any(String), null, null],
      'ADR-0004': ['superseded', null, null, null],
      '20240301-use-yarn': ['accepted', '2024-03-01', null, null],
    })
    // A link to a record not in the folder is said; a placeholder is no link, and not said.
    expect(reading.problems.map((p) => p.path)).toEqual(['0002-use-grpc.md', '0004-use-x.md'])
  })

  it('adr-tools: a "Superseded by" placeholder in the status section leaves an accepted record in force, as in MADR', () => {
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\nDate: 2020-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Accepted\n\nSuperseded by: none'),
      '0002-use-x2.md': adr(2, 'Accepted\n\nSuperseded by: N/A'),
      '0003-use-x3.md': adr(3, 'Accepted\n\nSuperseded by: -'),
      // A successor the folder does not hold still supersedes it, as before.
      '0004-use-x4.md': adr(4, 'Accepted\n\nSuperseded by [9. Use Y](0009-use-y.md)'),
    })
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['accepted', '2020-01-01', null, null],
      'ADR-0002': ['accepted', '2020-01-02', null, null],
      'ADR-0003': ['accepted', '2020-01-03', null, null],
      'ADR-0004': ['superseded', '2020-01-04', null, null],
    })
    // The link to a record not in the folder is said; a placeholder is no link, and not said, as in MADR.
    expect(reading.problems.map((p) => p.path)).toEqual(['0004-use-x4.md'])
  })

  it('a placeholder where a link would be, "Supersedes: none" or "Superseded by: N/A", is no link in every format, and not said as one that could not be read', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n## D-001: Use X1\n\n- Status: accepted\n- Date: 2020-01-01\n- Supersedes: none\n- Superseded by: N/A\n- Decision: X1\n- Rationale: why\n\n' +
        '## D-002: Use X2\n\n### Status\n\nAccepted\n\nSuperseded by: TBD\n\n### Decision\n\nX2\n\n### Context\n\nwhy\n',
      '0001-use-x1.md': '---\nstatus: accepted\ndate: 2020-01-01\nsupersedes: none\nsuperseded-by: N/A\n---\n\n# Use X1\n\n## Decision Outcome\n\nX1.\n',
      '0002-use-x2.md': '# 2. Use X2\n\nDate: 2020-01-02\n\n## Status\n\nAccepted\n\nSupersedes: none\n\n## Links\n\n* Superseded by: N/A\n\n## Decision\n\nX2.\n',
      '20200103-use-x3.md': '# Use X3\n\n- Status: accepted\n- Supersedes: N/A\n- Superseded by: -\n\n## Decision Outcome\n\nX3.\n',
    })
    expect(summary(reading.records)).toEqual({
      'D-001': ['accepted', '2020-01-01', null, null],
      'D-002': ['accepted', null, null, null],
      'ADR-0001': ['accepted', '2020-01-01', null, null],
      'ADR-0002': ['accepted', '2020-01-02', null, null],
      '20200103-use-x3': ['accepted', '2020-01-03', null, null],
    })
    expect(reading.problems).toEqual([])
  })

  it('a link to a record renamed since (same number, new slug) follows the number', () => {
    const adr = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2020-0${n}-05\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const reading = readTexts({
      '0001-use-mysql.md': adr(1, 'Use MySQL', 'Superseded by [2. Use Postgres](0002-use-postgres.md)'),
      '0002-use-postgresql-16.md': adr(2, 'Use PostgreSQL 16', 'Accepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)'),
      '0003-use-redis.md': adr(3, 'Use Redis', 'Superseded by [9. Use Valkey](0009-use-valkey.md)'),
      // A link written without its .md, as some editors and wikis write one, follows the number too.
      '0004-use-memcached.md': adr(4, 'Use Memcached', 'Superseded by [2. Use Postgres](0002-use-postgres)'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2020-01-05', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2020-02-05', 'ADR-0001', null],
      'ADR-0003': ['superseded', '2020-03-05', null, null],
      'ADR-0004': ['superseded', '2020-04-05', null, 'ADR-0002'],
    })
    // A number no record has is still a link to nothing, and said.
    expect(reading.problems).toEqual([{ path: '0003-use-redis.md', line: 7, message: 'superseded by "0009-use-valkey.md" names no record in this folder; the link is left out' }])
  })

  it('a link to a record of the folder that cannot be read names its key, and says the file could not be read', async () => {
    const adr = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2020-0${n}-05\n\n## Status\n\n${status}\n\n## Decision\n\n${title}.\n`
    const reading = readTexts({
      '0001-use-mysql.md': adr(1, 'Use MySQL', 'Superseded by [2. Use Postgres](0002-use-postgres.md)'),
      '0002-use-postgres.md': adr(2, 'Use Postgres', 'Pondering\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)'),
      '0003-use-redis.md': adr(3, 'Use Redis', 'Superseded by ADR-0004'),
      '0004-use-valkey.md': '# 4. Use Valkey\n\nNo status yet.\n',
      '0005-use-kafka.md': adr(5, 'Use Kafka', 'Superseded by [9. Use NATS](0009-use-nats.md)'),
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2020-01-05', null, 'ADR-0002'],
      'ADR-0003': ['superseded', '2020-03-05', null, 'ADR-0004'],
      'ADR-0005': ['superseded', '2020-05-05', null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0002-use-postgres.md', line: 7, message: 'unknown status "Pondering"' },
      expect.objectContaining({ path: '0004-use-valkey.md', line: 1 }),
      {
        path: '0001-use-mysql.md',
        line: 7,
        message: 'superseded by "0002-use-postgres.md" names ADR-0002, whose record 0002-use-postgres.md could not be read; the link stands as the store holds it',
        read: true,
      },
      { path: '0003-use-redis.md', line: 7, message: 'superseded by "ADR-0004" names ADR-0004, whose record 0004-use-valkey.md could not be read; the link stands as the store holds it', read: true },
      // A record the folder does not hold is still none.
      { path: '0005-use-kafka.md', line: 7, message: 'superseded by "0009-use-nats.md" names no record in this folder; the link is left out' },
    ])
  })

  it('a link to a section of a DECISIONS.md that cannot be read names its key, and says so', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n## D-001: Use MongoDB\n\n- Status: Superseded\n- Superseded by: D-002\n- Decision: Use MongoDB.\n\n' +
        '## D-002: Use Postgres\n\n- Status: Pondering\n- Supersedes: D-001\n- Decision: Use Postgres.\n',
    })
    expect(summary(reading.records)).toEqual({ 'D-001': ['superseded', null, null, 'D-002'] })
    expect(reading.problems).toEqual([
      { path: 'DECISIONS.md', line: 11, message: 'unknown status "Pondering"' },
      { path: 'DECISIONS.md', line: 6, message: 'superseded by "D-002" names D-002, whose section in DECISIONS.md could not be read; the link stands as the store holds it', read: true },
    ])
  })

  it('a link to a record file the system will not let us read names its key too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adr-'))
    try {
      await writeFile(join(dir, '0001-use-a.md'), '# 1. Use A\n\n## Status\n\nSuperseded by [2. Use B](0002-use-b.md)\n')
      await symlink(join(dir, 'gone.md'), join(dir, '0002-use-b.md'))
      const reading = await readAdrFolder(dir)
      expect(summary(reading.records)).toEqual({ 'ADR-0001': ['superseded', null, null, 'ADR-0002'] })
      expect(reading.problems.map((p) => p.message)).toEqual([
        `cannot read: a symbolic link to ${join(dir, 'gone.md')}, which is not there`,
        'superseded by "0002-use-b.md" names ADR-0002, whose record 0002-use-b.md could not be read; the link stands as the store holds it',
      ])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('titles lose the number their heading repeats ("6. ", "ADR-001: ", "ADR 12 - ", "0016 - "), and keep a number that is part of them, and the marks markdown renders', () => {
    const reading = readTexts({
      '0001-a.md': madr('accepted', 'ADR-001: Use PostgreSQL'),
      '0002-b.md': madr('accepted', '2. Use Kafka'),
      '0003-c.md': madr('accepted', '1.5x memory budget'),
      '20240101-d.md': '# ADR 12 - Use pnpm\n\n- Status: accepted\n\n## Decision Outcome\n\npnpm.\n',
      '20240102-e.md': '# 3 replicas per region\n\n- Status: accepted\n\n## Decision Outcome\n\nThree.\n',
      '0006-f.md': '# 6. ADR-006: Use Valkey\n\nDate: 2024-01-06\n\n## Status\n\nAccepted\n\n## Decision\n\nValkey.\n',
      // A number that is not the record's is the title's: a year, a count.
      '0007-g.md': madr('accepted', '2024: The year of Rust'),
      '0008-h.md': '# 8. 2025: Freeze the public API\n\nDate: 2024-01-08\n\n## Status\n\nAccepted\n\n## Decision\n\nFreeze.\n',
      '20240103-i.md': '# 10. Three environments\n\n- Status: accepted\n\n## Decision Outcome\n\nThree.\n',
      '0009-j.md': madr('accepted', '9: Use Valkey'),
      '0011-k.md': '# 1.5x memory budget\n\nDate: 2024-01-11\n\n## Status\n\nAccepted\n\n## Decision\n\nBudget.\n',
      '0012-l.md': '# 12.Use Kafka\n\nDate: 2024-01-12\n\n## Status\n\nAccepted\n\n## Decision\n\nKafka.\n',
      // A file numbered otherwise (as a link finds it) repeats its number in the title all the same.
      'ADR-013-m.md': madr('accepted', '13. Use NATS'),
      '0014_n.md': '# 14: Use Redis\n\n- Status: accepted\n- Date: 2024-01-14\n\n## Decision Outcome\n\nRedis.\n',
      'adr-15-o.md': '# 15. Use Zig\n\n- Status: accepted\n- Date: 2024-01-15\n\n## Decision Outcome\n\nZig.\n',
      // Before a dash, as public logs write it (`# 0001 - Gobernanza …` in KikoNet13/Cuentos-Cosmere, `# 0002 — A generic …`).
      '0016-p.md': '# 0016 - Use Deno\n\n- Status: accepted\n- Date: 2024-01-16\n\n## Decision Outcome\n\nDeno.\n',
      '0017-q.md': '# 0017 \u2014 Use Bun\n\nDate: 2024-01-17\n\n## Status\n\nAccepted\n\n## Decision\n\nBun.\n',
      '0018-r.md': madr('accepted', '2 - 3 replicas per zone'),
      // The marks markdown renders are no part of it (`# 0007 - Canon `NN.json` sin SQLite`, in KikoNet13/Cuentos-Cosmere).
      '0019-s.md': '# 19. Use **Postgres** via [pg](https://node-postgres.com) and `pg_bouncer`\n\nDate: 2024-01-19\n\n## Status\n\nAccepted\n',
      '0020-t.md': madr('accepted', 'Use _Redis_ <sup>beta</sup> for my_cache, not ~~Memcached~~'),
      '0021-u.md': madr('accepted', 'Read `**kwargs` and *args in `a_b_c`'),
      // `ADR` written out, as 18F/identity-pki heads its records, with the number or none.
      '0022-v.md': '# Architecture Decision Record 22: Lifecycle Policy for ECR\n\n__Status__: Implemented\n\n## Decision\n\nKeep ten images.\n',
      '0023-w.md': '# Architecture Decision Record: Establish Format for ADRs\n\n__Status__: Accepted\n\n## Decision\n\nWrite records.\n',
      '0024-x.md': madr('accepted', 'ADR: Use Zod'),
      '0025-y.md': madr('accepted', 'ADRs are kept in doc/adr'),
      // A type's parameters are no HTML tag: `<T>`, `<u8>` name no element, `<String, Object>` is no tag at all.
      '0026-z.md': madr('accepted', 'Return Result<T> from handlers, Vec<u8> for buffers, Pair<A>'),
      '0027-a.md': madr('accepted', 'Use Map<String, Object> for config, <b>not</b> a class'),
    })
    expect(reading.problems).toEqual([])
    expect(Object.fromEntries(reading.records.map((r) => [r.key, r.title]))).toEqual({
      'ADR-0001': 'Use PostgreSQL',
      'ADR-0002': 'Use Kafka',
      'ADR-0003': '1.5x memory budget',
      '20240101-d': 'Use pnpm',
      '20240102-e': '3 replicas per region',
      'ADR-0006': 'Use Valkey',
      'ADR-0007': '2024: The year of Rust',
      'ADR-0008': '2025: Freeze the public API',
      '20240103-i': '10. Three environments',
      'ADR-0009': 'Use Valkey',
      'ADR-0011': '1.5x memory budget',
      'ADR-0012': 'Use Kafka',
      'ADR-0013': 'Use NATS',
      'ADR-0014': 'Use Redis',
      'ADR-0015': 'Use Zig',
      'ADR-0016': 'Use Deno',
      'ADR-0017': 'Use Bun',
      'ADR-0018': '2 - 3 replicas per zone',
      'ADR-0019': 'Use Postgres via pg and pg_bouncer',
      'ADR-0020': 'Use Redis beta for my_cache, not Memcached',
      'ADR-0021': 'Read **kwargs and *args in a_b_c',
      'ADR-0022': 'Lifecycle Policy for ECR',
      'ADR-0023': 'Establish Format for ADRs',
      'ADR-0024': 'Use Zod',
      'ADR-0025': 'ADRs are kept in doc/adr',
      'ADR-0026': 'Return Result<T> from handlers, Vec<u8> for buffers, Pair<A>',
      'ADR-0027': 'Use Map<String, Object> for config, not a class',
    })
  })
})

describe('a status section a level or two down', () => {
  it('reads "### Status" and "#### Status" records as adr-tools ones, their sections at that depth', () => {
    const reading = readTexts({
      '0001-use-postgres.md': '# 1. Use Postgres\n\nDate: 2020-01-01\n\n### Status\n\nSuperseded by [2. Use Redis](0002-use-redis.md)\n\n### Context\n\nWe need a DB.\n\n### Decision\n\nWe will use Postgres.\n',
      '0002-use-redis.md': '# 2. Use Redis\n\n#### Status\n\nAccepted\n\n#### Decision\n\nWe use Redis.\n',
      // A "### Status" under a "## Status" is no deeper status section: the record's sections stay "##".
      '0003-use-kafka.md': '# 3. Use Kafka\n\n## Status\n\nProposed\n\n## Decision\n\nKafka.\n\n### Status quo\n\nNone.\n',
      // A log of decisions each with its "### Status" is no one record: not read as one.
      'history.md': '# Log\n\n## Use A\n\n### Status\n\nAccepted\n\n## Use B\n\n### Status\n\nRejected\n',
    })
    // Said so, rather than said to have no status section.
    expect(reading.problems).toEqual([
      { path: 'history.md', line: 1, message: 'not a decision record: its 2 status sections are those of a log of decisions, which is read as one when named DECISIONS.md (or decision-log.md, or for the kind of its decisions, ARCHITECTURE_DECISIONS.md, DESIGN_DECISIONS.md)' },
    ])
    expect(readTexts({ 'DECISIONS.md': '# Log\n\n## Use A\n\n### Status\n\nAccepted\n\n## Use B\n\n### Status\n\nRejected\n' }).records.map((r) => r.status)).toEqual(['accepted', 'revoked'])
    // As the message says, a log named for the kind of its decisions is one too.
    expect(readTexts({ 'ARCHITECTURE_DECISIONS.md': '# Log\n\n## Use A\n\n### Status\n\nAccepted\n\n## Use B\n\n### Status\n\nRejected\n' }).records.map((r) => r.status)).toEqual(['accepted', 'revoked'])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2020-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', null, 'ADR-0001', null],
      'ADR-0003': ['proposed', null, null, null],
    })
    expect(reading.records.map((r) => r.origin.format)).toEqual(['adr-tools', 'adr-tools', 'adr-tools'])
    expect(reading.records[0]).toMatchObject({ decision: 'We will use Postgres.', rationale: 'We need a DB.' })
    expect(reading.records[1]?.decision).toBe('We use Redis.')
    expect(reading.records[2]?.decision).toBe('Kafka.\n\n### Status quo\n\nNone.')
  })
})

describe('fields in a table laid out in columns', () => {
  it('reads "| Status | Date | Deciders |" over a row of values as those fields', () => {
    const reading = readTexts({
      '0001-use-kafka.md': '# 1. Use Kafka\n\n| Status | Date | Deciders |\n|---|:---:|---|\n| Superseded by [ADR-0002](0002-use-nats.md) | 2021-03-04 | Alice |\n\n## Decision\n\nWe will use Kafka.\n',
      '0002-use-nats.md': '# 2. Use NATS\n\n| **Date** | **Status** |\n| --- | --- |\n| 2022-05-06 | Accepted |\n\n## Decision\n\nNATS.\n',
      // A table of fields in rows, a field's name in the first cell of each: as before.
      '0003-use-redis.md': '# 3. Use Redis\n\n| Status | Proposed |\n|---|---|\n| Date | 2023-01-02 |\n\n## Decision\n\nRedis.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2021-03-04', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2022-05-06', 'ADR-0001', null],
      'ADR-0003': ['proposed', '2023-01-02', null, null],
    })
    expect(reading.records[0]?.evidence[0]?.summary).toContain('deciders: Alice')
  })
})

describe('a link that names several records', () => {
  it('links the first a line (or a second line) names and says the others are left out, as a front matter list is', () => {
    const adr = (n: number, status: string) => `# ${n}. Use ${n}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Decision\n\nD${n}.\n`
    const reading = readTexts({
      '0001-use-1.md': adr(1, 'Superseded by ADR-0005 and ADR-0006'),
      '0002-use-2.md': adr(2, 'Superseded by [5. Use 5](0005-use-5.md) and [6. Use 6](0006-use-6.md)'),
      '0003-use-3.md': adr(3, 'Superseded by [5. Use 5](0005-use-5.md)\nSuperseded by [6. Use 6](0006-use-6.md)'),
      '0004-use-4.md': '# 4. Use 4\n\n- Status: accepted\n- Supersedes: ADR-0001, ADR-0002\n- Date: 2024-01-04\n',
      '0005-use-5.md': adr(5, 'Accepted'),
      '0006-use-6.md': adr(6, 'Accepted'),
      'DECISIONS.md': '# Log\n\n## D-001: Use tabs\n\n- Status: Superseded by D-002 and D-003\n\n## D-002: Use spaces\n\n- Status: Accepted\n\n## D-003: Use both\n\n- Status: Accepted\n- Supersedes: D-001 & D-002\n',
    })
    expect(summary(reading.records)).toMatchObject({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0005'],
      'ADR-0002': ['superseded', '2024-01-02', null, 'ADR-0005'],
      'ADR-0003': ['superseded', '2024-01-03', null, 'ADR-0006'],
      'ADR-0004': ['accepted', '2024-01-04', 'ADR-0001', null],
      'D-001': ['superseded', null, null, 'D-002'],
      'D-003': ['accepted', null, 'D-001', null],
    })
    const only = 'a decision links one, so only the first is linked'
    expect(reading.problems).toEqual(
      expect.arrayContaining([
        { path: '0001-use-1.md', line: 7, message: `Superseded by names 2 records (ADR-0005, ADR-0006); ${only}` },
        { path: '0002-use-2.md', line: 7, message: `Superseded by names 2 records (0005-use-5.md, 0006-use-6.md); ${only}` },
        { path: '0003-use-3.md', line: 7, message: 'Superseded by is written again at line 8; a decision links one, so only "0006-use-6.md" is linked' },
        { path: '0004-use-4.md', line: 4, message: `Supersedes names 2 records (ADR-0001, ADR-0002); ${only}` },
        { path: 'DECISIONS.md', line: 5, message: `Superseded by names 2 records (D-002, D-003); ${only}` },
        { path: 'DECISIONS.md', line: 14, message: `Supersedes names 2 records (D-001, D-002); ${only}` },
      ]),
    )
    expect(reading.problems).toHaveLength(6)
  })
})

describe('a DECISIONS.md heading dated by an ISO time', () => {
  it('is dated as by a `- Date:` field written so, its time left out of the title, and a time `date` refuses is said at the heading', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## D-001: Use tabs (2024-02-01T10:00:00Z)\n\n- Status: Accepted\n\n## D-002: Use spaces (2024-02-01T25:00:00Z)\n\n- Status: Accepted on 2024-02-03\n\n' +
        '## D-003: Use mixed [2024-02-01T23:59:59.5+14:00]\n\n- Status: Accepted\n\n## Use Node 20 - 2024-02-01T10:00Z\n\n- Status: Accepted\n',
    })
    expect(reading.records.map((r) => [r.key, r.title, r.date ?? null])).toEqual([
      ['D-001', 'Use tabs', '2024-02-01'],
      ['D-002', 'Use spaces', '2024-02-03'],
      ['D-003', 'Use mixed', '2024-02-01'],
      // A section keyed by its title keeps the key it had, as one dated day first does.
      ['DEC-use-node-20-2024-02-01t10-00z', 'Use Node 20', '2024-02-01'],
    ])
    expect(reading.problems).toEqual([
      { path: 'DECISIONS.md', line: 7, message: '"2024-02-01T25:00:00Z" is not a date; passed over, the record is dated 2024-02-03' },
    ])
  })
})

describe('a DECISIONS.md heading dated by a time as Jekyll writes it', () => {
  it('is dated as by a `- Date:` field written so, its time left out of the title, and a time the field says is none said at the heading', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## D-001: Use tabs (2024-02-01 21:33:43 -0800)\n\n- Status: Accepted\n\n## D-002: Use spaces (2024-02-01 25:00:00 -0800)\n\n- Status: Accepted on 2024-02-03\n\n' +
        '## D-003: Use mixed [2024-02-01 21:33:43]\n\n- Status: Accepted\n\n## Use Node 20 - 2024-02-01 21:33:43 +02:00\n\n- Status: Accepted\n\n' +
        // A space before a `Z` or an offset dates the section too, as a `- Date:` field holding it does, and is left out of the title.
        '## D-005: Use Deno (2024-02-01T10:00:00 Z)\n\n- Status: Accepted\n\n## D-006: Use Bun (2024-02-01 10:00:00 Z)\n\n- Status: Accepted\n- Supersedes: Use Node 20\n\n' +
        // A zone named after a space dates the section, as a `- Date:` field holding it does, and is left out of the title.
        '## D-007: Use Go (2024-02-01T10:00:00 UTC)\n\n- Status: Accepted\n\n## D-008: Use Zig (2024-02-01 10:00:00 PST)\n\n- Status: Accepted\n\n' +
        '## Use Nim 2024-02-01 10:00:00 gmt+1\n\n- Status: Accepted\n\n## D-010: Use Odin (2024-02-01 10:00:00 UTC+25)\n\n- Status: Accepted\n\n' +
        '## D-011: Use Lua [2024-02-01T10:00:00 +01:00]\n\n- Status: Accepted\n\n## D-012: Use Elm (2024-02-01T25:00:00 Z)\n\n- Status: Accepted\n',
    })
    expect(reading.records.map((r) => [r.key, r.title, r.date ?? null])).toEqual([
      ['D-001', 'Use tabs', '2024-02-01'],
      ['D-002', 'Use spaces', '2024-02-03'],
      ['D-003', 'Use mixed', '2024-02-01'],
      // A section keyed by its title keeps the key it had, as one dated by an ISO time does.
      ['DEC-use-node-20-21-33-43-02-00', 'Use Node 20', '2024-02-01'],
      ['D-005', 'Use Deno', '2024-02-01'],
      ['D-006', 'Use Bun', '2024-02-01'],
      ['D-007', 'Use Go', '2024-02-01'],
      ['D-008', 'Use Zig', '2024-02-01'],
      // Keyed by its title, it keeps the key it had, as the section dated by Jekyll's offset does.
      ['DEC-use-nim-10-00-00-gmt-1', 'Use Nim', '2024-02-01'],
      // An offset beyond ±23:59 is none: said at the heading, and left out of the title all the same.
      ['D-010', 'Use Odin', null],
      ['D-011', 'Use Lua', '2024-02-01'],
      // A time the clock has not is none, the space before its `Z` or not.
      ['D-012', 'Use Elm', null],
    ])
    // Named by its title as imported, the section is found.
    expect(reading.records.find((r) => r.key === 'D-006')?.supersedes).toBe('DEC-use-node-20-21-33-43-02-00')
    const unread = 'is not a date; the record is read without it'
    expect(reading.problems).toEqual([
      { path: 'DECISIONS.md', line: 7, message: '"2024-02-01 25:00:00 -0800" is not a date; passed over, the record is dated 2024-02-03' },
      { path: 'DECISIONS.md', line: 40, message: `"2024-02-01 10:00:00 UTC+25" ${unread}` },
      { path: 'DECISIONS.md', line: 48, message: `"2024-02-01T25:00:00 Z" ${unread}` },
    ])
  })
})

describe('a DECISIONS.md heading with a time after its day not in Jekyll\'s full form', () => {
  it('is dated by the day alone, the time left in the title as prose, and nothing said', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## Standup 2024-02-01 9:30\n\n- Status: Accepted\n\n## Moved call to 2024-02-01 10:00 am\n\n- Status: Accepted\n\n' +
        '## Freeze deploys 2024-02-01 14:00-16:00\n\n- Status: Accepted\n\n## D-004: Use Nim (2024-02-01 10:5)\n\n- Status: Accepted\n\n' +
        '## D-005: Use mixed [2024-02-01 21:33]\n\n- Status: Accepted\n\n## D-006: Use Zig (2024-02-01 10:00 PST)\n\n- Status: Accepted\n\n' +
        // Jekyll's full form, then more of a time: prose too.
        '## Maintenance 2024-02-01 21:00:00 to 23:00:00\n\n- Status: Accepted\n',
    })
    // The title keeps what the day leaves of the heading (spaces run together here), as it did before a time was read there.
    expect(reading.records.map((r) => [r.key, r.title.replace(/\s+/g, ' '), r.date ?? null])).toEqual([
      ['DEC-standup-9-30', 'Standup 9:30', '2024-02-01'],
      ['DEC-moved-call-to-10-00-am', 'Moved call to 10:00 am', '2024-02-01'],
      ['DEC-freeze-deploys-14-00-16-00', 'Freeze deploys 14:00-16:00', '2024-02-01'],
      ['D-004', 'Use Nim ( 10:5)', '2024-02-01'],
      ['D-005', 'Use mixed [ 21:33]', '2024-02-01'],
      ['D-006', 'Use Zig ( 10:00 PST)', '2024-02-01'],
      ['DEC-maintenance-21-00-00-to-23-00-00', 'Maintenance 21:00:00 to 23:00:00', '2024-02-01'],
    ])
    expect(reading.problems).toEqual([])
  })

  it('beside a status, leaves the day read alone and nothing said', () => {
    const adr = (n: number, status: string) => `# ${n}. Use X${n}\n\n## Status\n\n${status}\n\n## Decision\n\nX${n}.\n`
    const reading = readTexts({
      '0001-use-x1.md': adr(1, 'Accepted on 2024-02-01 9:30'),
      '0002-use-x2.md': adr(2, 'Accepted on 2024-02-01 10:00 am'),
      '0003-use-x3.md': adr(3, 'Accepted (2024-02-01 14:00-16:00)'),
      '0004-use-x4.md': adr(4, 'Accepted (2024-02-01 10:5)'),
      '0005-use-x5.md': adr(5, 'Accepted (2024-02-01 10:00 PST)'),
    })
    const dated = ['accepted', '2024-02-01', null, null]
    expect(summary(reading.records)).toEqual({ 'ADR-0001': dated, 'ADR-0002': dated, 'ADR-0003': dated, 'ADR-0004': dated, 'ADR-0005': dated })
    expect(reading.problems).toEqual([])
  })

  it('is dated by the day its heading writes first, with Jekyll\'s time, not by a day written after it', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## D-001: Pick a queue (2024-02-01 10:00:00), review 2024-03-01\n\n- Status: Accepted\n\n' +
        '## D-002: Pick a cache (2024-02-01 25:00:00), review 2024-03-01\n\n- Status: Accepted\n',
    })
    expect(reading.records.map((r) => [r.key, r.date ?? null])).toEqual([
      ['D-001', '2024-02-01'],
      ['D-002', null],
    ])
    expect(reading.problems).toEqual([{ path: 'DECISIONS.md', line: 7, message: '"2024-02-01 25:00:00" is not a date; the record is read without it' }])
  })
})

describe('a day written day or month first', () => {
  it('reads one written with dots and says one written with slashes, beside a status or in a heading, rather than pass it over', () => {
    const adr = (n: number, status: string) => `# ${n}. Use ${n}\n\n## Status\n\n${status}\n\n## Decision\n\nD${n}.\n`
    const reading = readTexts({
      '0001-use-1.md': adr(1, 'Accepted on 12/02/2016'),
      '0002-use-2.md': adr(2, '31.12.2023 Accepted'),
      '0003-use-3.md': '# 3. Use 3\n\n- Status: accepted (12/02/2016)\n',
      'DECISIONS.md': '# Log\n\n## D-001: Use tabs (12/02/2016)\n\n- Status: Accepted\n\n## D-002: Use spaces (31.12.2023)\n\n- Status: Accepted\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', '2023-12-31', null, null],
      'ADR-0003': ['accepted', null, null, null],
      'D-001': ['accepted', null, null, null],
      'D-002': ['accepted', '2023-12-31', null, null],
    })
    const unread = 'could be 2016-02-12 or 2016-12-02; the record is read without it (write the one it is as YYYY-MM-DD)'
    expect(reading.problems).toEqual([
      { path: '0001-use-1.md', line: 5, message: `"12/02/2016" ${unread}` },
      { path: '0003-use-3.md', line: 3, message: `"12/02/2016" ${unread}` },
      { path: 'DECISIONS.md', line: 3, message: `"12/02/2016" ${unread}` },
    ])
  })
})

describe('a day written day or month first in a DECISIONS.md heading', () => {
  it('leaves the title as an ISO day does: the day read as the date is no part of the title, nor is one said unread', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## D-001: Use tabs (12/02/2016)\n\n- Status: Accepted\n\n## D-002: Use spaces (31.12.2023)\n\n- Status: Accepted\n\n' +
        '## D-003: Use mixed (2023-12-31)\n\n- Status: Accepted\n\n## D-004: Use Node 20 - 21/02/2017\n\n- Status: Accepted\n',
    })
    const titles = Object.fromEntries(reading.records.map((r) => [r.key, [r.title, r.date ?? null]]))
    expect(titles).toEqual({
      'D-001': ['Use tabs', null],
      'D-002': ['Use spaces', '2023-12-31'],
      'D-003': ['Use mixed', '2023-12-31'],
      'D-004': ['Use Node 20', '2017-02-21'],
    })
  })

  it('finds a section a link names by its title as shown, the day first in its heading left out, as one dated YYYY-MM-DD', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## Use Mongo (2025-06-03)\n\n- Status: Superseded\n\n## Use Redis (2025-06-04)\n\n- Status: Accepted\n- Supersedes: Use Mongo\n\n' +
        '## Use Couch (03.06.2025)\n\n- Status: Superseded\n\n## Use Pg (04.06.2025)\n\n- Status: Accepted\n- Supersedes: Use Couch\n',
    })
    expect(reading.records.map((r) => [r.key, r.title, r.supersedes])).toEqual([
      ['DEC-use-mongo', 'Use Mongo', null],
      ['DEC-use-redis', 'Use Redis', 'DEC-use-mongo'],
      ['DEC-use-couch-03-06-2025', 'Use Couch', null],
      ['DEC-use-pg-04-06-2025', 'Use Pg', 'DEC-use-couch-03-06-2025'],
    ])
    expect(reading.problems).toEqual([])
  })

  it('leaves out a link naming by title two sections titled alike, said', () => {
    const reading = readTexts({
      'DECISIONS.md':
        '# Log\n\n## Use Couch (03.06.2025)\n\n- Status: Superseded\n\n## Use Couch (05.06.2025)\n\n- Status: Superseded\n\n' +
        '## Use Pg (06.06.2025)\n\n- Status: Accepted\n- Supersedes: Use Couch\n',
    })
    expect(reading.records.find((r) => r.title === 'Use Pg')?.supersedes).toBeNull()
    // It names two records, not none: said with their keys, and a link by one of them is taken.
    expect(reading.problems.map((p) => p.message)).toEqual([
      'supersedes "Use Couch" names 2 sections titled alike (DEC-use-couch-03-06-2025, DEC-use-couch-05-06-2025): name one by its key; the link is left out',
    ])
    const byKey = readTexts({
      'DECISIONS.md':
        '# Log\n\n## Use Couch (03.06.2025)\n\n- Status: Superseded\n\n## Use Couch (05.06.2025)\n\n- Status: Superseded\n\n' +
        '## Use Pg (06.06.2025)\n\n- Status: Accepted\n- Supersedes: DEC-use-couch-05-06-2025\n',
    })
    expect(byKey.records.find((r) => r.title === 'Use Pg')?.supersedes).toBe('DEC-use-couch-05-06-2025')
    expect(byKey.problems).toEqual([])
  })

  it('keys a section with no key by its heading as before, the day first in it included, so a re-import finds it', () => {
    const reading = readTexts({ 'DECISIONS.md': '# Log\n\n## 03.06.2025 — Use Mongo\n\n- Status: Accepted\n' })
    expect(reading.records.map((r) => [r.key, r.title, r.date])).toEqual([['DEC-03-06-2025-use-mongo', 'Use Mongo', '2025-06-03']])
  })
})

describe('a day written with slashes that only one order makes a day', () => {
  it('is read, as adr-tools wrote its dates before 2018, in a Date: line, beside a status and in a heading', () => {
    const adr = (n: number, date: string, status: string) => `# ${n}. Use ${n}\n\nDate: ${date}\n\n## Status\n\n${status}\n\n## Decision\n\nD${n}.\n`
    const reading = readTexts({
      '0001-use-1.md': adr(1, '21/02/2017', 'Accepted'),
      '0002-use-2.md': adr(2, '05/06/2020', 'Accepted on 13/02/2016'),
      'DECISIONS.md': '# Log\n\n## D-001: Use tabs (02/21/2017)\n\n- Status: Accepted\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', '2017-02-21', null, null],
      'ADR-0002': ['accepted', '2016-02-13', null, null],
      'D-001': ['accepted', '2017-02-21', null, null],
    })
    expect(reading.problems).toEqual([
      { path: '0002-use-2.md', line: 3, message: '"05/06/2020" could be 2020-06-05 or 2020-05-06; passed over, the record is dated 2016-02-13 (write the one it is as YYYY-MM-DD)' },
    ])
  })
})

describe('a decision that ends in a colon', () => {
  it('goes on over the list under it, in a MADR outcome and a DECISIONS.md "Decision:" field', () => {
    const reading = readTexts({
      '0001-use-postgres.md':
        '---\nstatus: accepted\ndate: 2023-01-01\n---\n# Use Postgres\n\n## Decision Outcome\n\nChosen option: "Postgres", with these settings:\n\n* pooled connections\n* read replicas\n\n### Consequences\n\n* Good\n',
      'DECISIONS.md':
        '# Log\n\n## D-001: Use tabs\n\n- Status: Accepted\n- Decision: We will indent as follows:\n  - tabs in Go\n  - spaces in YAML\n- Rationale: consistency\n\n## D-002: Use CI\n\n- Status: Accepted\n- Decision: Run CI on every push.\n  - a note that is its own bullet\n',
    })
    expect(reading.problems).toEqual([])
    const byKey = Object.fromEntries(reading.records.map((r) => [r.key, r]))
    expect(byKey['ADR-0001']?.decision).toBe('Chosen option: "Postgres", with these settings:\n\n* pooled connections\n* read replicas')
    expect(byKey['D-001']).toMatchObject({ decision: 'We will indent as follows:\n- tabs in Go\n- spaces in YAML', rationale: 'consistency' })
    // A text that does not end in a colon keeps to itself: the bullet under it is prose.
    expect(byKey['D-002']).toMatchObject({ decision: 'Run CI on every push.', rationale: '- a note that is its own bullet' })
  })
})

describe('a record with a "## Status" section and MADR\'s other sections', () => {
  it('reads its "Decision Outcome" and "Context and Problem Statement", and a "Rationale" section, rather than decide its title for no stated reason', () => {
    const reading = readTexts({
      '0001-use-postgres.md':
        '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Context and Problem Statement\n\nWe need a relational store.\n\n## Decision Drivers\n\n* cost\n\n## Decision Outcome\n\nChosen option: "Postgres", because it is free.\n\n### Consequences\n\n* ok\n',
      '0002-use-redis.md': '# 2. Use Redis\n\n## Status\n\nAccepted\n\n## Context and Problem Statement\n\nWe need a cache.\n\n## Decision Outcome\n\nChosen option: "Redis".\n',
      '0003-use-kafka.md': '# 3. Use Kafka\n\n## Status\n\nAccepted\n\n## Decision\n\nUse Kafka.\n\n## Rationale\n\nIt keeps the log.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-0001', 'Chosen option: "Postgres", because it is free.', 'it is free.'],
      ['ADR-0002', 'Chosen option: "Redis".', 'We need a cache.'],
      ['ADR-0003', 'Use Kafka.', 'It keeps the log.'],
    ])
  })

  it('reads the "Argument" of Tyree and Akerman\'s template as the rationale', () => {
    const reading = readTexts({
      '0004-use-grpc.md':
        '# 4. Use gRPC\n\n## Issue\n\nServices need to talk.\n\n## Decision\n\nUse gRPC between services.\n\n## Status\n\nAccepted\n\n## Positions\n\n* REST\n* gRPC\n\n## Argument\n\nTyped contracts and streaming.\n\n## Implications\n\nA proto repository.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.status, r.decision, r.rationale])).toEqual([['ADR-0004', 'accepted', 'Use gRPC between services.', 'Typed contracts and streaming.']])
  })

  it('reads a status written in its heading after a dash, "## Status - ACTIVE", as Gareth Morgan\'s template writes it', () => {
    const reading = readTexts({
      '001-use-rabbitmq.md': '# [001] Use RabbitMQ\n\n## Status - DRAFT\n\n## Context\n\nServices poll each other.\n',
      '002-use-kafka.md': '# [002] Use Kafka\n\n## Status \u2014 ACTIVE\n\n## Context\n\nRabbit loses events.\n',
      '003-use-nats.md': '# 3. Use NATS\n\n### Status - Accepted\n\n### Context\n\nKafka is heavy.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.status, r.rationale])).toEqual([
      ['ADR-0001', 'proposed', 'Services poll each other.'],
      ['ADR-0002', 'accepted', 'Rabbit loses events.'],
      ['ADR-0003', 'accepted', 'Kafka is heavy.'],
    ])
  })

  it('reads the "[001]" before the title and the "Decided Approach" of Gareth Morgan\'s template', () => {
    const reading = readTexts({
      '001-use-kafka.md': '# [001] Use Kafka\n\n## Status - ACTIVE\n\n## Context\n\nServices poll.\n\n## Decided Approach\n\nWe will publish events to Kafka.\n',
      '002-use-nats.md': '# [ADR-002] Use NATS\n\n## Status\n\nProposed\n\n## Decision\n\nNATS.\n',
      // A bracket that is not the file's number is part of the title.
      '003-use-redis.md': '# [2024] Redis\n\n## Status\n\nAccepted\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.title, r.decision])).toEqual([
      ['ADR-0001', 'Use Kafka', 'We will publish events to Kafka.'],
      ['ADR-0002', 'Use NATS', 'NATS.'],
      ['ADR-0003', '[2024] Redis', '[2024] Redis'],
    ])
  })

  it('reads the sections of the Alexandrian template by the names they give in brackets, and its "Solution"', () => {
    const reading = readTexts({
      '0001-use-postgres.md':
        '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Prologue (Summary)\n\nPostgres for orders.\n\n## Discussion (Context)\n\nOrders must not be lost.\n\n' +
        '## Solution\n\nWe run PostgreSQL 16.\n\n## Consequences\n\nOps.\n',
      '0002-use-kafka.md': '# 2. Use Kafka\n\n## Status\n\nAccepted\n\n## Discussion (Context)\n\nServices poll.\n\n## Solution (Decision)\n\nWe publish to Kafka.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-0001', 'We run PostgreSQL 16.', 'Orders must not be lost.'],
      ['ADR-0002', 'We publish to Kafka.', 'Services poll.'],
    ])
  })

  it('takes a "## Rationale" section, rather than the context, as the rationale of a record that writes both', () => {
    const sections = '## Context\n\nServices need to talk.\n\n## Decision\n\nUse RabbitMQ.\n\n## Rationale\n\nThe team runs it already.\n\n## Consequences\n\nOps.\n'
    const reading = readTexts({
      '0001-use-rabbitmq.md': `# 1. Use RabbitMQ\n\nDate: 2025-11-04\n\n## Status\n\nAccepted\n\n${sections}`,
      '0002-use-rabbitmq.md': `# ADR 002: Use RabbitMQ\n\n**Status:** Accepted\n**Date:** 2025-11-04\n\n${sections}`,
      '0003-use-rabbitmq.md': `---\nstatus: accepted\n---\n\n# Use RabbitMQ\n\n${sections}`,
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-0001', 'Use RabbitMQ.', 'The team runs it already.'],
      ['ADR-0002', 'Use RabbitMQ.', 'The team runs it already.'],
      ['ADR-0003', 'Use RabbitMQ.', 'The team runs it already.'],
    ])
  })

  it('leaves out the HTML comments a template writes in its sections, but not those of a code example', () => {
    // GOV.UK's template, its guidance left in place.
    const reading = readTexts({
      '0001-use-x.md':
        '# 1. Use X\n\nDate: 2024-03-01\n\n## Status\n\nAccepted\n\n## Context\n\n<!--\n  Describe the problem being solved.\n-->\nWe need X. <!-- say why -->\n\n' +
        '## Decision\n\n<!--\n  Describe the decision we have made.\n-->\n\nWe will use X:\n\n```html\n<!-- kept -->\n```\n',
      '0002-use-y.md': '# 2. Use Y\n\n## Status\n\nAccepted\n\n## Context\n\n<!--\n  Describe the problem being solved.\n-->\n\n## Decision\n\n<!-- Describe the decision we have made. -->\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-0001', 'We will use X:\n\n```html\n<!-- kept -->\n```', 'We need X.'],
      ['ADR-0002', 'Use Y', 'not stated in 0002-use-y.md'],
    ])
  })

  it("leaves out a template's guidance written in prose, Nygard's questions and adr-tools' sentences, but not an example's", async () => {
    // Minimised from public logs: commanded/adr keeps Nygard's questions above each section's text,
    // and adr-tools logs keep the template's sentences, a section never filled in holding only its own.
    const reading = await readAdrFolder(FIXTURES + 'template-guidance')
    expect(reading.problems).toEqual([])
    expect(reading.skipped).toEqual(['README.md'])
    expect(reading.records.map((r) => [r.key, r.decision, r.rationale])).toEqual([
      ['ADR-0001', 'Any change to the libraries is proposed as a record in this folder.', 'Ideas for the libraries are argued over in chat and lost.'],
      // Nothing but the guidance: the decision is its title, as with an empty section, and no reason is stated.
      ['ADR-0002', 'Tune the services', 'not stated in 0002-tune-the-services.md'],
      [
        'ADR-0003',
        "Get a line-interactive UPS.\n\nEvery record of ours starts from this template:\n\n```markdown\n## Decision\n\nWhat is the change that we're proposing and/or doing?\n```",
        'Power cuts corrupt the disks.',
      ],
    ])
  })

  it('keeps the text after a `<!--` written in a code span, which opens no comment', () => {
    const reading = readTexts({
      '0001-use-x.md':
        '# 1. Use X\n\n## Status\n\nAccepted\n\n## Context\n\nWe measured <!-- internally --> 300 ms.\n\n' +
        '## Decision\n\nWe will mark the guidance in our templates with `<!--` and `-->`, and keep it out of the pages.\n\nReviewers check it.\n',
    })
    expect(reading.records.map((r) => [r.decision, r.rationale])).toEqual([
      ['We will mark the guidance in our templates with `<!--` and `-->`, and keep it out of the pages.\n\nReviewers check it.', 'We measured  300 ms.'],
    ])
  })

  it('reads the reasons of a Y-statement written as the decision of a record with no context', () => {
    const y =
      'In the context of the order service, facing the need to store orders durably, we decided for PostgreSQL\nand neglected MongoDB, ' +
      'to achieve transactional consistency, accepting the cost of running it, because the team already runs Postgres.'
    const reading = readTexts({
      '0001-use-postgres.md': `# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\n${y}\n\n## Consequences\n\nOps.\n`,
      // Its words in bold, and a "because" alone.
      '0002-use-kafka.md': '# 2. Use Kafka\n\n## Status\n\nAccepted\n\n## Decision\n\n**In the context of** billing, **facing** lost events, **we decided for** Kafka, **because** it keeps the log.\n',
      // A record with its context keeps it as its rationale; a Nygard record's "because" is still no rationale.
      '0003-use-redis.md': '# 3. Use Redis\n\n## Status\n\nAccepted\n\n## Context\n\nSessions are slow.\n\n## Decision\n\nIn the context of sessions, facing latency, we decided for Redis, because it is fast.\n',
      '0004-use-s3.md': '# 4. Use S3\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use S3 because it is cheap.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.rationale])).toEqual([
      ['ADR-0001', 'to achieve transactional consistency, accepting the cost of running it, because the team already runs Postgres.'],
      ['ADR-0002', 'because it keeps the log.'],
      ['ADR-0003', 'Sessions are slow.'],
      ['ADR-0004', 'not stated in 0004-use-s3.md'],
    ])
    expect(reading.records[0]?.decision).toBe(y)
  })

  it('reads a supersede link in the "Related decisions" section of Tyree and Akerman\'s template', () => {
    const old = '# 1. Use REST\n\n## Issue\n\nServices need to talk.\n\n## Decision\n\nUse REST.\n\n## Status\n\nAccepted\n'
    const reading = readTexts({
      '0001-use-rest.md': old,
      '0002-use-grpc.md':
        '# 2. Use gRPC\n\n## Issue\n\nREST is untyped.\n\n## Decision\n\nUse gRPC.\n\n## Status\n\nAccepted\n\n## Argument\n\nTyped contracts.\n\n' +
        '## Related decisions\n\nSupersedes [1. Use REST](0001-use-rest.md)\n\nThe proto repository is ADR 3, when written.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['superseded', null, null, 'ADR-0002'], 'ADR-0002': ['accepted', null, 'ADR-0001', null] })
    // Written apart from a status that still says accepted, a successor supersedes the record too.
    const named = readTexts({
      '0001-use-rest.md': old + '\n## Related decisions\n\nSuperseded by [2. Use gRPC](0002-use-grpc.md)\n',
      '0002-use-grpc.md': '# 2. Use gRPC\n\n## Decision\n\nUse gRPC.\n\n## Status\n\nAccepted\n',
    })
    expect(summary(named.records)).toEqual({ 'ADR-0001': ['superseded', null, null, 'ADR-0002'], 'ADR-0002': ['accepted', null, 'ADR-0001', null] })
  })
})

describe('a DECISIONS.md without "##" sections', () => {
  it('reads decisions kept a level down, right under the title, and says a log it finds no decision in', () => {
    const under = readTexts({ 'DECISIONS.md': '# Decisions\n\n### D-001: Use TS\n\n- Status: Accepted\n- Date: 2024-01-10\n\n### D-002: Use pnpm\n\n- Status: Superseded by D-001\n' })
    expect(under.problems).toEqual([])
    expect(summary(under.records)).toEqual({ 'D-001': ['accepted', '2024-01-10', 'D-002', null], 'D-002': ['superseded', null, null, 'D-001'] })
    const table = readTexts({ 'DECISIONS.md': '# Decision Log\n\n| ID | Date | Decision | Status |\n|---|---|---|---|\n| D-001 | 2024-01-10 | Use TS | Accepted |\n' })
    expect(table.records).toEqual([])
    expect(table.problems).toEqual([{ path: 'DECISIONS.md', line: 1, message: 'no decision found: a DECISIONS.md holds one "## " section per decision, with a "- Status:" field' }])
    // A log begun, with no decision yet, is no problem.
    expect(readTexts({ 'DECISIONS.md': '# Decisions\n' }).problems).toEqual([])
  })
})

describe('section headings marked with an emoji', () => {
  it('reads "## 🚦 Status", "## 🧭 Context" and "## ✅ Decision" as the sections they name', () => {
    const reading = readTexts({
      '0001-use-postgres.md': '# 1. Use Postgres\n\nDate: 2024-01-01\n\n## 🚦 Status\n\nSuperseded by ADR-0002\n\n## 🧭 Context\n\nWe need a DB.\n\n## ✅ Decision\n\nPostgres.\n',
      '0002-use-sqlite.md': '# 2. Use SQLite\n\n### ⚠️ Status: Accepted\n\n### Decision\n\nSQLite.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-01', null, 'ADR-0002'],
      'ADR-0002': ['accepted', null, 'ADR-0001', null],
    })
    expect(reading.records[0]).toMatchObject({ decision: 'Postgres.', rationale: 'We need a DB.' })
    expect(reading.records[1]?.decision).toBe('SQLite.')
  })
})

describe('setext headings', () => {
  it('reads "Title" over "=====" as the title and "Status" over "-----" as its section, in every format', () => {
    const reading = readTexts({
      '0001-use-postgres.md': 'Use Postgres\n============\n\nDate: 2024-01-05\n\nStatus\n------\n\nSuperseded by ADR-0002\n\nContext\n-------\n\nBilling needs joins.\n\nDecision\n--------\n\nWe will use PostgreSQL.\n',
      '0002-use-redis.md': '---\nstatus: accepted\n\ndate: 2024-02-05\n---\n\nUse Redis\n=========\n\nDecision Outcome\n----------------\n\nChosen option: "Redis", because it is fast.\n',
      'DECISIONS.md': 'Decisions\n=========\n\nD-001 Use tabs\n--------------\n\n- Status: accepted\n\nTabs let each reader pick a width.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2024-01-05', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2024-02-05', 'ADR-0001', null],
      'D-001': ['accepted', null, null, null],
    })
    expect(reading.records[0]).toMatchObject({ title: 'Use Postgres', decision: 'We will use PostgreSQL.', rationale: 'Billing needs joins.', origin: { line: 1, format: 'adr-tools' } })
    expect(reading.records[1]).toMatchObject({ title: 'Use Redis', rationale: 'it is fast.' })
    expect(reading.records[2]).toMatchObject({ title: 'Use tabs', rationale: 'Tabs let each reader pick a width.' })
  })

  it('takes a log begun with an underlined title and no decision yet for no problem', () => {
    expect(readTexts({ 'DECISIONS.md': 'Decisions\n=========\n' }).problems).toEqual([])
  })

  it('takes a "---" under a bullet or under a paragraph\'s last line for a break, not a heading', () => {
    const reading = readTexts({
      '0001-use-x.md': '# 1. Use X\n\n- Status: accepted\n---\n\n## Context\n\nWe looked at X\nand at Y.\n---\n\n## Decision\n\n1. X.\n---\n',
      // Nor is the end of the front matter a site wants, after a blank line in it.
      '0002-use-y.md': '---\nlayout: default\n\nnav_order: 3\n---\n\n# 2. Use Y\n\n## Status\n\nAccepted\n',
      // Nor is a line of fields over a break.
      '0003-use-z.md': '# 3. Use Z\n\n**Status:** Accepted | **Date:** 2024-01-10\n---\n\n## Decision\n\nZ.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records[0]).toMatchObject({ title: 'Use X', status: 'accepted', decision: '1. X.\n---' })
    expect(reading.records[1]).toMatchObject({ title: 'Use Y', status: 'accepted', origin: { format: 'adr-tools' } })
    expect(reading.records[2]).toMatchObject({ title: 'Use Z', status: 'accepted', date: '2024-01-10', decision: 'Z.' })
  })
})

describe('the Planguage template', () => {
  const planguage = (status: string) =>
    '# Response time of the search page\n\n- Tag: search.response\n- Gist: The search page answers fast.\n' +
    '- Requirement: The search page answers within 200 ms at the 95th percentile.\n' +
    `- Rationale: Users abandon searches that take longer than a second.\n- Priority: high\n- Status: ${status}\n- Date: 2024-03-01\n`

  it('reads its "Rationale:" field as the rationale', () => {
    const reading = readTexts({ '0001-response-time.md': planguage('accepted') })
    expect(reading.problems).toEqual([])
    expect(reading.records[0]).toMatchObject({ status: 'accepted', date: '2024-03-01', rationale: 'Users abandon searches that take longer than a second.' })
  })

  it('reads its "Requirement:" field as the decision, and a "Decision:" field before it', () => {
    const reading = readTexts({
      '0001-response-time.md': planguage('accepted'),
      '0002-use-x.md': '# Use X\n\n**Status:** Accepted\n**Decision:** We use X everywhere.\n**Requirement:** none\n',
      // A decision section says it before any field.
      '0003-use-y.md': '# Use Y\n\n* Status: accepted\n* Decision: Y\n\n## Decision Outcome\n\nChosen option: "Y", because it is fast.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => r.decision)).toEqual([
      'The search page answers within 200 ms at the 95th percentile.',
      'We use X everywhere.',
      'Chosen option: "Y", because it is fast.',
    ])
  })
  it('reads its statuses: draft and reviewed are proposals, committed is accepted', () => {
    const reading = readTexts({ '0001-a.md': planguage('draft'), '0002-b.md': planguage('reviewed'), '0003-c.md': planguage('committed') })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => r.status)).toEqual(['proposed', 'proposed', 'accepted'])
    // A note beside a status that says who reviewed it is no status.
    expect(readStatusLine('Reviewed by the platform team')).toBeUndefined()
  })
})

describe('the format a record read by its fields is counted as', () => {
  it('is MADR for "* Status:" bullets in a numbered file, and adr-tools for a Nygard record with its fields in a table or a line', () => {
    const nygard = (fields: string) => `# 1. Use Y\n\n${fields}\n\n## Context\n\nWe need Y.\n\n## Decision\n\nWe use Y.\n`
    const reading = readTexts({
      '0001-madr-2.md': '# Use X\n\n* Status: accepted\n* Date: 2024-01-01\n\n## Decision Outcome\n\nChosen option: "X".\n',
      '0002-table.md': nygard('| Field | Value |\n|---|---|\n| Status | Accepted |\n| Date | 2024-01-01 |'),
      '0003-columns.md': nygard('| Status | Date |\n|---|---|\n| Accepted | 2024-01-01 |'),
      '0004-bold.md': nygard('**Status:** Accepted'),
      '20240101-log4brains.md': '# Use Z\n\n- Status: accepted\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.origin.format, r.evidence[0]?.summary])).toEqual([
      ['ADR-0001', 'madr', 'madr record 0001-madr-2.md'],
      ['ADR-0002', 'adr-tools', 'adr-tools record 0002-table.md'],
      ['ADR-0003', 'adr-tools', 'adr-tools record 0003-columns.md'],
      ['ADR-0004', 'adr-tools', 'adr-tools record 0004-bold.md'],
      ['20240101-log4brains', 'log4brains', 'log4brains record 20240101-log4brains.md'],
    ])
    expect(reading.formats).toEqual({ madr: 1, 'adr-tools': 3, log4brains: 1 })
  })
})

describe('the "## Links" section of the MADR 2 template', () => {
  it('reads the supersede links listed there, and passes over the template\'s placeholders and other link types', () => {
    const madr2 = (title: string, date: string, links: string) =>
      `# ${title}\n\n* Status: accepted <!-- optional -->\n* Date: ${date} <!-- optional -->\n\n## Decision Outcome\n\nChosen option: "${title}".\n\n## Links <!-- optional -->\n\n${links}\n`
    const reading = readTexts({
      '0001-use-json-schema.md': madr2('Use JSON Schema', '2021-05-03', '* [Link type] [Link to ADR] <!-- example: Refined by [ADR-0005](0005-example.md) -->\n* … <!-- numbers of links can vary -->'),
      '0002-use-zod.md': madr2('Use Zod', '2023-01-01', '* Supersedes [ADR-0001](0001-use-json-schema.md)\n* Refined by [ADR-0003](0003-use-zod-errors.md)'),
      '0003-use-zod-errors.md': madr2('Use Zod errors', '2023-02-01', '* Refines [ADR-0002](0002-use-zod.md)'),
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', '2021-05-03', null, 'ADR-0002'],
      'ADR-0002': ['accepted', '2023-01-01', 'ADR-0001', null],
      'ADR-0003': ['accepted', '2023-02-01', null, null],
    })
  })
})

describe('a record of MADR\'s minimal templates, with no front matter', () => {
  it('is read as accepted, and said, when named as a record with a "## Decision Outcome"; another page is not', () => {
    const minimal = '# Use Kafka for events\n\n## Context and Problem Statement\n\nServices poll each other.\n\n## Considered Options\n\n* Kafka\n* RabbitMQ\n\n' +
      '## Decision Outcome\n\nChosen option: "Kafka", because it keeps the event log.\n\n<!-- This is an optional element. Feel free to remove. -->\n### Consequences\n\n* Good, because replay.\n'
    const reading = readTexts({ '0001-use-kafka.md': minimal, 'notes.md': minimal })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null] })
    expect(reading.records[0]).toMatchObject({ title: 'Use Kafka for events', rationale: 'it keeps the event log.', origin: { format: 'madr' } })
    expect(reading.problems).toEqual([
      { path: '0001-use-kafka.md', line: 1, message: 'no front matter, so no status; read as accepted (MADR makes the field optional)', read: true },
      { path: 'notes.md', line: 1, message: 'not a decision record: no "## Status" section, front matter or "- Status:" bullet' },
    ])
  })
})

describe('status words teams write beside the templates\' own', () => {
  it('reads a proposal, a work in progress (in-progress) or one under discussion as proposed, and one cancelled or discarded as revoked', () => {
    for (const word of ['Proposal', 'WIP', 'Work in progress', 'Under discussion', 'In discussion']) expect(readStatusLine(word)).toEqual({ status: 'proposed' })
    // Dead, as Beaker's proposals mark one given up.
    for (const word of ['Cancelled', 'Canceled', 'Discarded', 'Dead']) expect(readStatusLine(word)).toEqual({ status: 'revoked' })
    expect(readStatusLine('Deadline 2024-01-01')).toBeUndefined()
    // Joined by a hyphen or an underscore, as hyperledger/identus-cloud-agent writes `- Status: in-progress`.
    for (const word of ['in-progress', 'In_Progress', 'on-hold', 'under-review', 'work-in-progress']) expect(readStatusLine(word)).toEqual({ status: 'proposed' })
    expect(readStatusLine('in-progressive')).toBeUndefined()
    // Final, as a PEP is; locked, ratified or settled, as logs mark a decision no longer open.
    for (const word of ['Final', 'Finalized', 'locked.', 'Ratified', 'Settled']) expect(readStatusLine(word)).toEqual({ status: 'accepted' })
    expect(readStatusLine('Final (2024-01-02)')).toEqual({ status: 'accepted', date: '2024-01-02' })
    expect(readStatusLine('Ratified on 2024-01-02')).toEqual({ status: 'accepted', date: '2024-01-02' })
    // Those words begin English phrases too, which say no status of a decision: unknown, and said, as before.
    for (const line of ['Final review pending', 'Final draft', 'Locked out by security review', 'Settled? Not yet', 'Dead code removal', 'Dead-end, see notes']) {
      expect(readStatusLine(line)).toBeUndefined()
    }
    const reading = readTexts({
      '0001-use-x.md': '# 1. Use X\n\n## Status\n\nCancelled\n',
      // A note that says the decision was cancelled takes the status back: not passed over.
      '0002-use-y.md': '# 2. Use Y\n\n## Status\n\nAccepted\n\nLater cancelled by the board.\n',
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['revoked', null, null, null] })
    expect(reading.problems).toEqual([{ path: '0002-use-y.md', line: 7, message: 'unknown status "Later cancelled by the board."' }])
  })
})

describe('a decision the evidence went against', () => {
  it('reads one marked disproven (or refuted) as revoked, as Decision Brain\'s logs mark one tried and found not to hold', () => {
    for (const word of ['Disproven', 'Disproved', 'Refuted', '❌ Disproven']) expect(readStatusLine(word)).toEqual({ status: 'revoked' })
    const reading = readTexts({
      'DECISIONS.md':
        '# Decisions\n\n## D-001: Keep the router rule\n- Status: Accepted\n- Decision: Keep it.\n- Rationale: 0/20 vs 16/20.\n\n' +
        '## D-002: The corrected router text fixes memory routing\n- Status: Disproven\n- Decision: Use the corrected text.\n- Rationale: Tried: 0/20.\n',
      // A note that says the decision was disproven takes the status back: not passed over.
      '0003-use-y.md': '# 3. Use Y\n\n## Status\n\nAccepted\n\nLater disproven by the benchmark.\n',
    })
    expect(summary(reading.records)).toEqual({ 'D-001': ['accepted', null, null, null], 'D-002': ['revoked', null, null, null] })
    expect(reading.problems).toEqual([{ path: '0003-use-y.md', line: 7, message: 'unknown status "Later disproven by the benchmark."' }])
  })
})

describe('a Nygard record written in fields under its title', () => {
  it('takes its "Context:" field as the rationale when nothing else states one', () => {
    const reading = readTexts({
      '0003-use-docker.md': '# 3. Use Docker\n\n**Status**: Accepted\n\n**Context**: Builds differ between laptops.\n\n**Decision**: We build and run everything in Docker.\n',
      // A "because" in the outcome says why before the field does.
      '0004-use-y.md': '# Use Y\n\n* Status: accepted\n* Context: Z is slow.\n\n## Decision Outcome\n\nChosen option: "Y", because it is fast.\n',
    })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.decision, r.rationale])).toEqual([
      ['We build and run everything in Docker.', 'Builds differ between laptops.'],
      ['Chosen option: "Y", because it is fast.', 'it is fast.'],
    ])
  })
})

describe('a decision log not named DECISIONS.md', () => {
  it('is read as one when named as a decision log, and a record named by its decision is not', () => {
    const log = '# Decision log\n\n## D-001 Use tabs\n\n- Status: accepted\n\nTabs let each reader pick a width.\n'
    for (const name of ['decision-log.md', 'DECISION_LOG.md', 'decisionlog.md', 'Decision Log.md', 'decision-log-2023.md']) {
      const reading = readTexts({ [name]: log })
      expect(reading.problems).toEqual([])
      expect(reading.formats).toEqual({ 'decisions-md': 1 })
      expect(reading.records[0]).toMatchObject({ key: 'D-001', status: 'accepted' })
    }
    expect(readTexts({ 'decision-0005-use-x.md': '# Use X\n\n## Status\n\nAccepted\n' }).formats).toEqual({ 'adr-tools': 1 })
    // Its decisions each with a "### Status" part, as a log of Nygard's sections writes them.
    const parts = readTexts({ 'decision-log.md': '# Log\n\n## Use A\n\n### Status\n\nAccepted\n\n## Use B\n\n### Status\n\nRejected\n' })
    expect(parts.problems).toEqual([])
    expect(summary(parts.records)).toEqual({ 'DEC-use-a': ['accepted', null, null, null], 'DEC-use-b': ['revoked', null, null, null] })
  })
})

describe('a decision log named for the kind of its decisions', () => {
  it('is read as one: ARCHITECTURE_DECISIONS.md, architecture-decisions.md, DESIGN_DECISIONS.md, TECHNICAL_DECISIONS.md', () => {
    const log =
      '# Architecture Decision Records (ADRs)\n\nThis document records the key architectural decisions.\n\n' +
      '## ADR-001: SQLite as Primary Database\n\n**Date:** 2025-07-26  \n**Status:** Accepted  \n**Context:** Need for a lightweight database.\n\n**Decision:** Use SQLite.\n\n' +
      '## ADR-002: Express.js for REST API\n\n**Date:** 2025-07-26  \n**Status:** Accepted  \n**Context:** Need for a mature web framework.\n\n**Decision:** Use Express.js.\n'
    for (const name of ['ARCHITECTURE_DECISIONS.md', 'architecture-decisions.md', 'Architectural Decisions.md', 'DESIGN_DECISIONS.md', 'TECHNICAL_DECISIONS.md', 'architecture-decision-log.md']) {
      const reading = readTexts({ [name]: log })
      expect(reading.problems, name).toEqual([])
      expect(reading.formats, name).toEqual({ 'decisions-md': 2 })
      expect(summary(reading.records), name).toEqual({ 'ADR-001': ['accepted', '2025-07-26', null, null], 'ADR-002': ['accepted', '2025-07-26', null, null] })
    }
    // A record named for what it decides is still a record: adr-tools' first, numbered.
    expect(readTexts({ '0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\n## Status\n\nAccepted\n' }).formats).toEqual({ 'adr-tools': 1 })
  })

  it('a heading inside an HTML comment, as a log keeps the template of its next entry, is no section of it', () => {
    const log =
      '# Architecture Decision Records\n\n## ADR-001: Flask + SQLite Tech Stack Selection\n\n**Date**: 2026-03-28\n**Status**: Accepted\n\n### Decision\n\nFlask + SQLite.\n\n---\n\n' +
      '<!--\nTEMPLATE FOR NEW ADRs — copy this block when adding a new record:\n\n## ADR-[NNN]: [Short Title]\n\n**Date**: YYYY-MM-DD\n**Status**: Accepted\n\n### Context\n[What situation prompted this decision.]\n-->\n'
    const reading = readTexts({ 'ARCHITECTURE_DECISIONS.md': log })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-001': ['accepted', '2026-03-28', null, null] })
    expect(reading.records[0]?.decision).toBe('Flask + SQLite.')
    // Nor are its fields the entry's before it.
    const last = readTexts({
      'ARCHITECTURE_DECISIONS.md': '# Decisions\n\n## ADR-002: Use X\n\n**Status**: Accepted\n\nX it is.\n\n<!--\n## ADR-[NNN]: [Short Title]\n\n**Date**: YYYY-MM-DD\n**Supersedes**: ADR-001\n-->\n',
    })
    expect(last.problems).toEqual([])
    expect(summary(last.records)).toEqual({ 'ADR-002': ['accepted', null, null, null] })
  })

  it('an index of the log\'s decisions with a break after it, as logs set their sections apart, is still no decision', () => {
    const reading = readTexts({
      'ARCHITECTURE_DECISIONS.md':
        '# Architecture Decision Records\n\n---\n\n## Decision Index\n\n| ID | Title | Status | Date |\n|----|-------|--------|------|\n| ADR-001 | Flask + SQLite tech stack selection | Accepted | 2026-03-28 |\n\n---\n\n' +
        '## ADR-001: Flask + SQLite Tech Stack Selection\n\n**Date**: 2026-03-28\n**Status**: Accepted\n\nFlask.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-001': ['accepted', '2026-03-28', null, null] })
  })

  it('one record named so, with its one "## Status" section, front matter with a status or MADR\'s one "## Decision Outcome", is still that record, as before such names were logs', () => {
    const record = '# Use Postgres for all services\n\nDate: 2024-02-02\n\n## Status\n\nAccepted\n\n## Context\n\nOne database.\n\n## Decision\n\nPostgres.\n'
    const madr = '---\nstatus: accepted\ndate: 2024-03-03\n---\n\n# Use Kafka for events\n\n## Decision Outcome\n\nKafka.\n'
    const madr2 = '# Use gRPC inside\n\n* Status: accepted\n* Date: 2024-04-04\n\n## Context and Problem Statement\n\nCalls.\n\n## Decision Outcome\n\nChosen option: gRPC.\n'
    const reading = readTexts({ 'technical-decisions.md': record, 'design-decisions.md': madr, 'architecture-decisions.md': madr2 })
    expect(reading.problems).toEqual([])
    expect(reading.formats).toEqual({ 'adr-tools': 1, madr: 2 })
    expect(summary(reading.records)).toEqual({
      'technical-decisions': ['accepted', '2024-02-02', null, null],
      'design-decisions': ['accepted', '2024-03-03', null, null],
      'architecture-decisions': ['accepted', '2024-04-04', null, null],
    })
    // DECISIONS.md is a log whatever it holds, as before.
    expect(readTexts({ 'DECISIONS.md': record }).formats).toEqual({})
  })

  it('a log that lists the records of its folder, a section of a record\'s number and title, imports that record once, from its file', () => {
    const postgres = '# 1. Use Postgres\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n'
    const index =
      "# Architecture Decisions\n\nAn index of this project's ADRs.\n\n## ADR-001: Use Postgres\n\n- Status: Accepted\n- Date: 2024-01-01\n- Record: [0001-use-postgres.md](0001-use-postgres.md)\n\n" +
      '## ADR-002: Use Redis\n\n- Status: Accepted\n- Date: 2024-01-02\n\nRedis, which no file of the folder records.\n'
    const reading = readTexts({ '0001-use-postgres.md': postgres, 'architecture-decisions.md': index })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', '2024-01-01', null, null], 'ADR-002': ['accepted', '2024-01-02', null, null] })
    expect(reading.problems).toEqual([
      { path: 'architecture-decisions.md', line: 5, message: '"ADR-001: Use Postgres" lists 0001-use-postgres.md, of its number and title: read from that file alone', read: true },
    ])
    // A record named with the number as the log keys it keeps its number's key, as no log named it.
    const named = readTexts({ 'ADR-001-use-postgres.md': postgres.replace('# 1. ', '# ADR-001: '), 'ARCHITECTURE_DECISIONS.md': index })
    expect(Object.keys(summary(named.records))).toEqual(['ADR-0001', 'ADR-002'])
    // DECISIONS.md is read as before.
    expect(Object.keys(summary(readTexts({ '0001-use-postgres.md': postgres, 'DECISIONS.md': index }).records))).toEqual(['ADR-0001', 'ADR-001', 'ADR-002'])
  })

  it('a log whose template of a record, in an HTML comment, writes one "## Status" or "## Decision Outcome" is still a log', () => {
    const entries = '## ADR-001: Use Postgres\n\n**Status:** Accepted\n**Date:** 2024-01-01\n\nPostgres.\n\n## ADR-002: Use Redis\n\n**Status:** Accepted\n**Date:** 2024-01-02\n\nRedis.\n'
    for (const template of ['## Status\n\nProposed\n', '## Decision Outcome\n\nChosen option: …\n']) {
      const log = `# Architecture Decisions\n\n<!--\nCopy for a new entry:\n\n# ADR-NNN: Title\n\n${template}-->\n\n${entries}`
      const reading = readTexts({ 'ARCHITECTURE_DECISIONS.md': log })
      expect(reading.problems, template).toEqual([])
      expect(summary(reading.records), template).toEqual({ 'ADR-001': ['accepted', '2024-01-01', null, null], 'ADR-002': ['accepted', '2024-01-02', null, null] })
    }
  })
})

describe("a status left as the template's list of choices", () => {
  it('is an unknown status, the record not imported, in MADR 2 bullets, MADR 3 front matter and a Nygard section alike', () => {
    const reading = readTexts({
      '0001-use-x.md':
        '# Use X\n\n* Status: [proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)] <!-- optional -->\n\n## Decision Outcome\n\nChosen option: "X", because x.\n',
      '0002-use-y.md': '---\nstatus: proposed | rejected | accepted | deprecated | superseded by ADR-0123\n---\n# Use Y\n\n## Decision Outcome\n\nChosen option: "Y", because y.\n',
      '0003-use-z.md': '# 3. Use Z\n\n## Status\n\nProposed | Accepted | Rejected\n\n## Decision\n\nZ.\n',
      '0005-use-v.md': '# 5. Use V\n\n## Status\n\nProposed / Accepted / Rejected\n\n## Decision\n\nV.\n',
      '0006-use-u.md': '# 6. Use U\n\n## Status\n\nAccepted/Rejected\n\n## Decision\n\nU.\n',
      // Struck out but one, the status that holds: read as before.
      '0004-use-w.md': '# 4. Use W\n\n## Status\n\n**Accepted** | ~~Proposed~~ | ~~Rejected~~\n\n## Decision\n\nW.\n',
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0004': ['accepted', null, null, null] })
    const left = `unknown status "…": the template's list of statuses, left as it was; write the one that holds`
    expect(reading.problems.map((p) => [p.path, p.line, p.message.replace(/ ".*"/, ' "…"')])).toEqual([
      ['0001-use-x.md', 3, left],
      ['0002-use-y.md', 2, left],
      ['0003-use-z.md', 5, left],
      ['0005-use-v.md', 5, left],
      ['0006-use-u.md', 5, left],
    ])
  })

  it("says MADR 3's template list, in braces YAML cannot read, as the template's list, not as front matter that is not YAML", () => {
    const reading = readTexts({
      '0001-use-x.md':
        '---\n# These are optional elements. Feel free to remove any of them.\nstatus: {proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)}\ndate: 2024-11-27\n---\n# Use X\n\n## Decision Outcome\n\nChosen option: "X", because x.\n',
    })
    expect(reading.records).toEqual([])
    expect(reading.problems).toEqual([
      {
        path: '0001-use-x.md',
        line: 3,
        message: `unknown status "{proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-example.md)}": the template's list of statuses, left as it was; write the one that holds`,
      },
    ])
  })

  it('reads a status beside a link as before: one status, then the record that replaced it', () => {
    expect(readStatusLine('Deprecated | Superseded by [9. Next](0009-next.md)')).toMatchObject({ status: 'superseded', supersededBy: '0009-next.md' })
    expect(readStatusLine('Accepted | Supersedes [1. Old](0001-old.md)')).toMatchObject({ status: 'accepted', supersedes: '0001-old.md' })
    // A slash in a link, or between two words for one status, is no list of choices.
    expect(readStatusLine('Superseded by [9. Next](docs/adr/0009-next.md)')).toMatchObject({ status: 'superseded', supersededBy: '0009-next.md' })
    expect(readStatusLine('Accepted/Implemented')).toMatchObject({ status: 'accepted' })
    expect(readStatusLine('Rejected / withdrawn')).toMatchObject({ status: 'revoked' })
  })

  it("reads a status whose link's address has folders named as statuses as that status, not as the template's list", () => {
    // An RFC repository keeps its records in accepted/ and rejected/; a URL's path is no list of choices.
    expect(readStatusLine('Accepted (see [RFC 12](https://github.com/org/rfcs/blob/main/rejected/0012-old.md))')).toMatchObject({ status: 'accepted' })
    expect(readStatusLine('Accepted, see https://wiki.example.com/arch/rejected/draft/12')).toMatchObject({ status: 'accepted' })
    expect(readStatusLine('Accepted (<https://example.com/proposed/rejected/12>)')).toMatchObject({ status: 'accepted' })
    expect(readStatusLine('Superseded by [9. Next](../proposed/accepted/0009-next.md)')).toMatchObject({ status: 'superseded', supersededBy: '0009-next.md' })
    const reading = readTexts({
      '0001-use-x.md': '# 1. Use X\n\n## Status\n\nAccepted (see [RFC 12](https://github.com/org/rfcs/blob/main/rejected/0012-old.md))\n\n## Decision\n\nX.\n',
    })
    expect(reading.problems).toEqual([])
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null] })
  })
})

describe('a status log written on one line', () => {
  it('holds the latest day\'s status, as a status log of a line per day does, and a status without a day on each is read as before', () => {
    expect(readStatusLine('Proposed (2020-01-01), Accepted (2020-02-01)')).toEqual({ status: 'accepted', date: '2020-02-01' })
    expect(readStatusLine('Proposed 2020-01-01; Accepted 2020-02-01; Deprecated 2021-06-30')).toEqual({ status: 'deprecated', date: '2021-06-30' })
    // Written newest first, the latest day still holds.
    expect(readStatusLine('Accepted (2020-02-01), Proposed (2020-01-01)')).toEqual({ status: 'accepted', date: '2020-02-01' })
    expect(readStatusLine('Accepted, 2020-05-05')).toEqual({ status: 'accepted', date: '2020-05-05' })
    expect(readStatusLine('Accepted, but see ADR-0009')).toEqual({ status: 'accepted' })
  })
})

describe('a status given as a checklist', () => {
  it('is the status ticked, a line per box or boxes on one line; none ticked names no status', () => {
    const reading = readTexts({
      '0001-use-x.md': '# 1. Use X\n\n## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Rejected\n- [ ] Superseded\n\n## Decision\n\nX.\n',
      '0002-use-y.md': '# 2. Use Y\n\n## Status\n\n[ ] Proposed [X] Deprecated [ ] Rejected\n\n## Decision\n\nY.\n',
      '0003-use-z.md': '# 3. Use Z\n\n* Status: [x] proposed [ ] accepted\n\n## Decision Outcome\n\nChosen option: "Z", because z.\n',
      '0004-use-w.md': '# 4. Use W\n\n## Status\n\n- [ ] Proposed\n- [ ] Accepted\n\n## Decision\n\nW.\n',
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['deprecated', null, null, null],
      'ADR-0003': ['proposed', null, null, null],
    })
    expect(reading.problems).toEqual([{ path: '0004-use-w.md', line: 3, message: 'the status section names no status' }])
  })
})

describe('a heading of a long run of spaces', () => {
  it('is read as any heading, a record and a log alike, not matched over and over until the import is stopped', () => {
    const spaces = ' '.repeat(3_000)
    const reading = readTexts({
      '0001-use-x.md': `# 1. Use X\n\n## Status${spaces}#\n\nAccepted\n\n## Decision${spaces}now\n\nX.\n`,
      'DECISIONS.md': `# Log\n\n## D-001: Use Y${spaces}(really)\n\n- Status: Accepted\n\n### Status${spaces}x\n\nY.\n`,
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null], 'D-001': ['accepted', null, null, null] })
  })
})

describe('a status heading with a long run of spaces before a word', () => {
  it('is tried as a status section in a moment, as any heading, not over every split of its spaces', () => {
    const reading = readTexts({ '0001-use-x.md': `# 1. Use X\n\n## Status${' '.repeat(200_000)}x\n\nAccepted\n` })
    expect(reading.records).toEqual([])
    expect(reading.problems.map((p) => [p.path, p.line])).toEqual([['0001-use-x.md', 1]])
  })
})

describe('a line of a long run of spaces in a log', () => {
  it('is read as a blank line in a moment, not tried for a next field at each of its spaces whenever a field is looked for', () => {
    const reading = readTexts({ 'ARCHITECTURE_DECISIONS.md': `# Log\n\n## ADR-001: Use X\n\n- Status: Accepted\n\n${' '.repeat(100_000)}\n\nX.\n` })
    expect(summary(reading.records)).toEqual({ 'ADR-001': ['accepted', null, null, null] })
  })
})

describe('a log heading with a long run of spaces inside its title', () => {
  it('is titled in a moment, not tried for its closing separators at each of its spaces', () => {
    const reading = readTexts({ 'DECISIONS.md': `# Log\n\n## D-001: Use X${' '.repeat(200_000)}now\n\n- Status: Accepted\n` })
    expect(summary(reading.records)).toEqual({ 'D-001': ['accepted', null, null, null] })
  })
})

describe('a status line with a long run of spaces before a word', () => {
  it('is read in a moment, not tried for a link word over every split of its spaces', () => {
    const spaces = ' '.repeat(20_000)
    const reading = readTexts({
      '0001-use-x.md': `# 1. Use X\n\n## Status\n\nAccepted${spaces}x\n`,
      'DECISIONS.md': `# Log\n\n## D-001: Use Y\n\n- Status: Accepted${spaces}, superseded by D-002\n\n## D-002: Use Z\n\n- Status: Accepted\n`,
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null], 'D-001': ['superseded', null, null, 'D-002'], 'D-002': ['accepted', null, 'D-001', null] })
  })
})

describe('a status line of a status, a long run of spaces and a word', () => {
  it('is split into its statuses, steps and days in a moment, not tried at each of its spaces', () => {
    const spaces = ' '.repeat(100_000)
    const reading = readTexts({ '0001-use-x.md': `# 1. Use X\n\n## Status\n\nAccepted${spaces}x\n`, 'DECISIONS.md': `# Log\n\n## D-001: Use Y\n\n- Status: Proposed${spaces}-> Accepted\n` })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null], 'D-001': ['accepted', null, null, null] })
  })
})

describe('a record holding a long run of [', () => {
  it('is read in a moment, its links not looked for from each [ to the end', () => {
    const brackets = '['.repeat(300_000)
    const reading = readTexts({ '0001-use-x.md': `# 1. Use X ${brackets}\n\n## Status\n\nSuperseded by ${brackets}\n` })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['superseded', null, null, null] })
    expect(reading.records[0]?.title).toBe(`Use X ${brackets.slice(0, 293)}…`)
    expect(reading.problems.map((p) => p.line)).toEqual([5])
  })
})

describe('a link after a status, then a long run of full stops and a word', () => {
  it('is read in a moment, the stops that end its name not tried from each of them', () => {
    const stops = '.'.repeat(200_000)
    const reading = readTexts({
      '0001-use-x.md': `# 1. Use X\n\n## Status\n\nSuperseded by Accepted${stops}x\n`,
      '0002-use-y.md': `# 2. Use Y\n\n## Status\n\nAccepted, supersedes ADR-1${stops}x\n`,
    })
    // `ADR-1` and the stops after it, the end of a sentence, name ADR-0001; `Accepted` and its stops name no record.
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['superseded', null, null, 'ADR-0002'], 'ADR-0002': ['accepted', null, 'ADR-0001', null] })
    expect(reading.problems.map((p) => [p.path, p.line])).toEqual([['0001-use-x.md', 5]])
  })
})

describe('status lines and a paragraph of long runs that the patterns tried from each of their characters', () => {
  it('are read in a moment, as before: underscores, `](`, `-a` and bars after a status, and full stops before a word', () => {
    const n = 100_000
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n\n## Status\n\nAccepted${'_'.repeat(n)}x\n`,
      '0002-use-b.md': `# 2. Use B\n\n## Status\n\nAccepted ${']('.repeat(n / 2)}\n`,
      '0003-use-c.md': `# 3. Use C\n\n## Status\n\nAccepted ${'-a'.repeat(n / 2)}\n`,
      '0004-use-d.md': `# 4. Use D\n\n## Status\n\nAccepted\n\n## Context\n\n${'.'.repeat(n)}x\n`,
      '0005-use-e.md': `# 5. Use E\n\n## Status\n\nAccepted ${'|'.repeat(n)}\n`,
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', null, null, null],
      'ADR-0005': ['accepted', null, null, null],
    })
    expect(reading.problems.map((p) => [p.path, p.line, p.message.slice(0, 25)])).toEqual([['0001-use-a.md', 5, 'unknown status "Accepted_']])
  })
})

describe('blank lines, and a long run of spaces after a status heading or a field cell', () => {
  it('are read in a moment: a format told over 100,000 blank lines, `## Status` and `| Status` before 100,000 spaces', () => {
    const n = 100_000
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n${'\n'.repeat(n)}## Status\n\nAccepted\n`,
      '0002-use-b.md': `# 2. Use B\n\n## Status\n\n${' '.repeat(n)}x\n\nAccepted\n`,
      '0003-use-c.md': `# 3. Use C\n\n| Status${' '.repeat(n)}x\n\n## Status\n\nAccepted\n`,
      '0004-use-d.md': `# 4. Use D\n${'\t\n'.repeat(n / 2)}- Status: accepted\n`,
    })
    expect(reading.formats).toEqual({ 'adr-tools': 3, madr: 1 })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['accepted', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
      'ADR-0004': ['accepted', null, null, null],
    })
    expect(reading.problems.map((p) => [p.path, p.line])).toEqual([['0002-use-b.md', 5]])
  })
})

describe('a status and a link word, then a long run of spaces or full stops before a word', () => {
  it('is read in a moment, as before: the white space before a name, and the stops of a listed status, tried once', () => {
    const n = 200_000
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n\n## Status\n\nAccepted, supersedes ${' '.repeat(n)}x\n`,
      '0002-use-b.md': `# 2. Use B\n\n## Status\n\nAccepted, supersedes ${'.'.repeat(n)}x\n`,
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null], 'ADR-0002': ['accepted', null, null, null] })
    expect(reading.problems).toEqual([])
  })
})

describe('a section of 200,000 lines', () => {
  it('is read, in a record and in a log, its lines not passed as as many arguments, which overflowed the stack', () => {
    const lines = 'x\n'.repeat(200_000)
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n\n## Status\n\nAccepted\n\n## Context\n\n${lines}\n## Decision\n\nA.\n`,
      'DECISIONS.md': `# Log\n\n## D-001: Use B\n\n- Status: Accepted\n\n${lines}`,
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null], 'D-001': ['accepted', null, null, null] })
    expect(reading.records.find((r) => r.key === 'ADR-0001')?.decision).toBe('A.')
  })
})

describe('a long run of spaces after `by`, or in a decision outcome before a word', () => {
  it('is read in a moment, as before: who took the step, and a `because`, looked for once a run', () => {
    const spaces = ' '.repeat(100_000)
    const words = `Accepted${spaces}x`
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n\n## Status\n\nSuperseded by ${spaces}x\n`,
      '0002-use-b.md': `# 2. Use B\n\n## Status\n\nAccepted by ${'\t'.repeat(100_000)}x\n`,
      '0003-use-c.md': `# ${words}\n\n* Status: ${words}\n* Date: ${words}\n\n## Decision Outcome\n\n${words}\n`,
    })
    expect(summary(reading.records)).toEqual({
      'ADR-0001': ['superseded', null, null, null],
      'ADR-0002': ['accepted', null, null, null],
      'ADR-0003': ['accepted', null, null, null],
    })
    expect(reading.problems.map((p) => [p.path, p.line])).toEqual([['0003-use-c.md', 4], ['0001-use-a.md', 5]])
  })
})

describe('front matter that is not YAML', () => {
  it('is said at its line with yaml’s reason, as before its errors were left unformatted', () => {
    const record = (matter: string) => `---\n${matter}\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X".\n`
    const reading = readTexts({
      '0001-use-a.md': record('status: accepted\ndate: [2024-01-02'),
      '0002-use-b.md': record('status: accepted\n  date: 2024-01-02\n deciders: Ann'),
      '0003-use-c.md': record('status: accepted\nstatus: proposed'),
      '0004-use-d.md': record('date: 2024-01-02\nstatus: "accepted\ndeciders: Ann'),
      '0005-use-e.md': record('status: "accepted" for now'),
      '0006-use-f.md': record('status: accepted\n\tdate: 2024-01-02'),
      '0007-use-g.md': record(`status: accepted\ndeciders: ${'['.repeat(12_000)}`),
      '0008-use-h.md': record('status: accepted\ndeciders: }'),
    })
    expect(reading.records).toEqual([])
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0001-use-a.md', 3, 'front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]'],
      ['0002-use-b.md', 2, 'front matter is not valid YAML: Nested mappings are not allowed in compact mappings'],
      ['0003-use-c.md', 3, 'front matter is not valid YAML: Map keys must be unique'],
      ['0004-use-d.md', 4, 'front matter is not valid YAML: Missing closing "quote'],
      ['0005-use-e.md', 2, 'front matter is not valid YAML: Unexpected scalar at node end'],
      ['0006-use-f.md', 3, 'front matter is not valid YAML: Tabs are not allowed as indentation'],
      ['0007-use-g.md', 3, 'front matter is not valid YAML: Maximum call stack size exceeded'],
      ['0008-use-h.md', 3, 'front matter is not valid YAML: Unexpected flow-map-end token in YAML stream: "}"'],
    ])
  })

  it('says an alias to no anchor at the alias, and an error YAML gives no place at the front matter\'s first line, not at its first key', () => {
    // Both were said at line 2, the front matter's first line, which holds no fault.
    const record = (matter: string) => `---\n${matter}\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X".\n`
    const tens = (alias: string) => `[${Array(10).fill(alias).join(', ')}]`
    const reading = readTexts({
      '0001-use-a.md': record('status: accepted\ndeciders: *nope'),
      // Its anchor after it: the alias before is the one unresolved.
      '0002-use-b.md': record('status: accepted\ndeciders: [Ann]\nconsulted: *team\ninformed: &team [Bob]'),
      // Another alias resolved before it, and the unresolved one in a list.
      '0003-use-c.md': record('status: accepted\ndeciders: &team [Ann]\nconsulted: *team\ninformed:\n  - Bob\n  - *others'),
      '0004-use-d.md': record(`status: accepted\na: &a ${tens('x')}\nb: &b ${tens('*a')}\nc: &c ${tens('*b')}\nd: &d ${tens('*c')}\ne: ${tens('*d')}`),
    })
    expect(reading.records).toEqual([])
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0001-use-a.md', 3, 'front matter is not valid YAML: Unresolved alias (the anchor must be set before the alias): nope'],
      ['0002-use-b.md', 4, 'front matter is not valid YAML: Unresolved alias (the anchor must be set before the alias): team'],
      ['0003-use-c.md', 7, 'front matter is not valid YAML: Unresolved alias (the anchor must be set before the alias): others'],
      // Valid YAML, refused for safety: not said as YAML that is not.
      ['0004-use-d.md', 1, 'front matter has too many aliases to read safely (Excessive alias count indicates a resource exhaustion attack)'],
    ])
  })

  it('over 64 KB is said at its first line, naming the limit, and not read, in a moment however it is written; the rest of the folder is imported', () => {
    // 100 KB of `]`, `}`, `* ` or `:` lines took yaml 3 to 20 s each, most of it quoting the lines
    // around each of its errors, and held up the import of the whole folder.
    const n = 100_000
    const madr = (matter: string) => `---\nstatus: accepted\n${matter}\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X".\n`
    const reading = readTexts({
      '0001-use-a.md': madr(`deciders: ${']'.repeat(n)}`),
      '0002-use-b.md': madr(`deciders: ${'}'.repeat(n)}`),
      '0003-use-c.md': madr(`deciders: ${'* '.repeat(n / 2)}`),
      '0004-use-d.md': madr(':\n'.repeat(n / 2)),
      '0005-use-e.md': madr(`deciders: ${'['.repeat(n)}`),
      '0006-use-f.md': madr('deciders: Ann'),
      'D-001-use-g.md': `---\nid: D-001\ntitle: Use G\nsource: ${'] '.repeat(n / 2)}\n---\n\n# Use G\n`,
    })
    expect(summary(reading.records)).toEqual({ 'ADR-0006': ['accepted', null, null, null] })
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual(
      ['0001-use-a.md', '0002-use-b.md', '0003-use-c.md', '0004-use-d.md', '0005-use-e.md', 'D-001-use-g.md'].map((path) => [
        path,
        1,
        "the front matter is 98 KB, over the 64 KB a record's is read to; it is not read",
      ]),
    )
  })

  it('with a tag YAML does not know is read, and nothing written to stderr beside its problems', () => {
    // yaml warned of `!custom` on the process's stderr, `(node:…) [TAG_RESOLVE_FAILED] YAMLWarning`.
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined)
    try {
      const reading = readTexts({ '0001-use-x.md': '---\nstatus: accepted\nowner: !custom Ann\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X".\n' })
      expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null] })
      expect(warn).not.toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })

  it('of 64 KB is read, and one byte more is not', () => {
    const record = (bytes: number) => {
      const head = 'status: accepted\nnotes: '
      return `---\n${head}${'x'.repeat(bytes - head.length)}\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X".\n`
    }
    // Counted in bytes of UTF-8, as the limit is said: 64 KB of é is 32,768 of them (here 32,757 and the 24 bytes before).
    const accents = `---\nstatus: accepted\nnotes: ${'é'.repeat(32_757)}\n---\n\n# Use Z\n\n## Decision Outcome\n\nChosen option: "Z".\n`
    const reading = readTexts({ '0001-use-x.md': record(64 * 1024), '0002-use-y.md': record(64 * 1024 + 1), '0003-use-z.md': accents })
    expect(summary(reading.records)).toEqual({ 'ADR-0001': ['accepted', null, null, null] })
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0002-use-y.md', 1, "the front matter is 65 KB, over the 64 KB a record's is read to; it is not read"],
      ['0003-use-z.md', 1, "the front matter is 65 KB, over the 64 KB a record's is read to; it is not read"],
    ])
  })

  it('of an AXME Code record holding a decision and reasoning at the limits the service stores, in a script of three bytes a character, is read', () => {
    // 8,000 characters each (a decision's text limit), 24,000 bytes each in UTF-8: over 16 KB, the
    // limit first chosen, which refused records the service would store.
    const text = '決'.repeat(8_000)
    const reading = readTexts({ 'D-001-use-g.md': `---\nid: D-001\ntitle: Use G\nenforce: required\ndecision: ${text}\nreasoning: ${text}\ndate: 2025-10-03\n---\n` })
    expect(reading.problems).toEqual([])
    expect(reading.records.map((r) => [r.key, r.decision.length, r.rationale.length])).toEqual([['D-001', 8_000, 8_000]])
  })
})

describe('a problem quoting a long value', () => {
  // A status, date or link of 100,000 characters (a file pasted into a field, minified) was quoted
  // whole: one problem line of 100 KB in the terminal, and in --json.
  const long = 'x'.repeat(100_000)
  const shown = `"${'x'.repeat(100)}…" (100,000 characters)`

  it('quotes its first 100 characters and says its length, wherever a problem quotes a value; one of 100 is quoted whole', () => {
    const madr = (matter: string) => `---\n${matter}\n---\n\n# Use X\n\n## Decision Outcome\n\nChosen option: "X".\n`
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n\nDate: 2024-01-01\n\n## Status\n\n${long}\n\n## Decision\n\nA.\n`,
      '0002-use-b.md': `# 2. Use B\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n${long}\n\n## Decision\n\nB.\n`,
      '0003-use-c.md': `# 3. Use C\n\nDate: ${long}\n\n## Status\n\nAccepted\n\n## Decision\n\nC.\n`,
      '0004-use-d.md': `# 4. Use D\n\nDate: 2024-01-04\nEnforce: ${long}\n\n## Status\n\nAccepted\n\n## Decision\n\nD.\n`,
      '0005-use-e.md': `# 5. Use E\n\nDate: 2024-01-05\n\n## Status\n\nSuperseded by ${long}.md\n\n## Decision\n\nE.\n`,
      '0006-use-f.md': madr(`status: ${'y'.repeat(60_000)}`),
      '0007-use-g.md': madr(`status: accepted\ndeciders: |${'z'.repeat(60_000)}\n  Ann`),
      '0008-use-h.md': `# 8. Use H\n\nDate: 2024-01-08\n\n## Status\n\n${'w'.repeat(100)}\n\n## Decision\n\nH.\n`,
      'DECISIONS.md': `# Decisions\n\n## ${'v'.repeat(100_000)}\n\nNo status here.\n\n## D-001: Use tabs\n\n- Status: Accepted\n\nHabit.\n`,
    })
    expect(reading.problems.map((p) => [p.path, p.line, p.message])).toEqual([
      ['0001-use-a.md', 7, `unknown status ${shown}`],
      ['0002-use-b.md', 9, `unknown status ${shown}; passed over, the record is read as accepted`],
      ['0003-use-c.md', 3, `${shown} is not a date; the record is read without it`],
      ['0004-use-d.md', 4, `enforce ${shown} is neither required nor advisory`],
      ['0006-use-f.md', 2, `unknown status "${'y'.repeat(100)}…" (60,000 characters)`],
      ['0007-use-g.md', 3, `front matter is not valid YAML: ${`Block scalar header includes extra characters: |${'z'.repeat(60_000)}`.slice(0, 100)}… (60,048 characters)`],
      ['0008-use-h.md', 7, `unknown status "${'w'.repeat(100)}"`],
      ['DECISIONS.md', 3, `"${'v'.repeat(100)}…" (100,000 characters) has no "Status:" field`],
      ['0005-use-e.md', 7, `superseded by "${'x'.repeat(100)}…" (100,003 characters) names no record in this folder; the link is left out`],
    ])
  })

  it('names the first five of a list (the records a link names, the places a key is written), then how many more', () => {
    const keys = Array.from({ length: 500 }, (_, i) => `ADR-${String(i + 2).padStart(4, '0')}`)
    // A key written in 300 sections: each said naming the 299 others, megabytes in all.
    const sections = Array.from({ length: 300 }, () => '## D-001: Use tabs\n\n- Status: Accepted\n').join('\n')
    const reading = readTexts({
      '0001-use-a.md': `# 1. Use A\n\nDate: 2024-01-01\n\n## Status\n\nSuperseded by ${keys.join(', ')}\n\n## Decision\n\nA.\n`,
      'DECISIONS.md': `# Decisions\n\n${sections}`,
    })
    const messages = reading.problems.map((p) => `${p.path}:${p.line}: ${p.message}`)
    expect(messages).toContain(
      '0001-use-a.md:7: Superseded by names 500 records (ADR-0002, ADR-0003, ADR-0004, ADR-0005, ADR-0006, and 495 more); a decision links one, so only the first is linked',
    )
    expect(messages).toContain(
      'DECISIONS.md:3: D-001 is also the key of DECISIONS.md:7, DECISIONS.md:11, DECISIONS.md:15, DECISIONS.md:19, DECISIONS.md:23, and 294 more; none of the 300 is imported until all but one have a key of their own',
    )
    expect(Math.max(...messages.map((m) => m.length))).toBeLessThan(400)
  })

  it('is cut between two characters as a reader sees them, an emoji and its skin tone kept together, and counted in characters', () => {
    const value = `${'a'.repeat(99)}👍🏽${'b'.repeat(50)}`
    const reading = readTexts({ '0001-use-a.md': `# 1. Use A\n\nDate: 2024-01-01\n\n## Status\n\n${value}\n\n## Decision\n\nA.\n` })
    expect(reading.problems.map((p) => p.message)).toEqual([`unknown status "${'a'.repeat(99)}…" (151 characters)`])
  })
})
