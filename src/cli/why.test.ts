import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { adrText, importedRepository, shopWithOneRecord, shopWithRecordsDeleted, shopWithTwoRecords } from '../../test/support/adr-repository'
import { bigWhyCase, BIG_WHY_CASES } from '../../test/support/big-why'
import { captured } from '../../test/support/captured'
import { decisionRecord, REQUIRED_TIER_L, scopedToSrcOverTime } from '../../test/support/decision-record'
import { createTestApp } from '../../test/support/test-app'
import { fixedClock } from '../clock'
import { DecisionInputSchema } from '../decisions/decision'
import { createDecisions } from '../decisions/decisions'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { openStores } from '../open-store'
import { tempDir } from '../../test/support/temp-dir'
import type { ChainLink, DecisionWhy } from '../decisions/decisions'
import type { PointWhy } from '../decisions/explain-point'
import { importAdrCommand } from './import-adr'
import { notAsOf } from '../answer-as-of'
import { chainText, pointText, WHY_HELP, whyCommand } from './why'

const link = (key: string, status: ChainLink['status'], rationale: string): ChainLink =>
  ({
    key,
    title: `title of ${key}`,
    status,
    enforce: 'advisory',
    date: '2026-01-01',
    decision: `decision of ${key}`,
    rationale,
    accepted_at: null,
    superseded_at: null,
    supersedes: null,
    superseded_by: null,
  }) as ChainLink

const chain = (key: string): DecisionWhy => ({
  key,
  as_of: '2026-11-01T00:00:00.000Z',
  current: 'ADR-0002',
  in_force: 'ADR-0002',
  chain: [link('ADR-0001', 'superseded', 'old reasons'), link('ADR-0002', 'accepted', 'new reasons')],
  proposals: [],
  rationale: key === 'ADR-0001' ? 'old reasons' : 'new reasons',
  evidence: [{ kind: 'decision-record', summary: `record of ${key}`, uri: `${key}.md`, hash: null }],
  events: [],
})

/** Writes decisions into the store at `store` (closed again after), on `clock`, as the service would. */
async function withDecisions(store: string, clock: ReturnType<typeof fixedClock>, write: (decisions: ReturnType<typeof createDecisions>) => Promise<void>): Promise<void> {
  const { store: memory, decisionStore } = await openStores(store)
  try {
    await write(createDecisions({ store: decisionStore, clock, policy: await loadPolicy(DEFAULT_POLICY_FILE) }))
  } finally {
    await memory.close()
  }
}

/** Runs `run` in a folder of `repo` removed once the process is in it, as a shell left in a deleted folder is; back where it was after. */
async function inRemovedFolder(repo: string, run: () => Promise<void>): Promise<void> {
  const gone = join(repo, 'src', 'gone')
  mkdirSync(gone)
  const cwd = process.cwd()
  try {
    process.chdir(gone)
    rmSync(gone, { recursive: true })
    await run()
  } finally {
    process.chdir(cwd)
  }
}

describe('decision-memory why KEY, the chain as text', () => {
  it('prints the evidence under the decision asked about, not under the current one', () => {
    const lines = chainText(chain('ADR-0001')).trimEnd().split('\n')
    expect(lines).toEqual([
      '- ADR-0001 [superseded, advisory] title of ADR-0001',
      '    decided 2026-01-01',
      '    why: old reasons',
      '    evidence: decision-record: record of ADR-0001 <ADR-0001.md>',
      '* ADR-0002 [accepted, advisory] title of ADR-0002',
      '    decided 2026-01-01',
      '    why: new reasons',
    ])
  })

  it("prints each link's own evidence and source under it, as a service of this version sends them", () => {
    const record = (key: string) => [{ kind: 'decision-record', summary: `record of ${key}`, uri: null, hash: null }]
    const why: DecisionWhy = {
      ...chain('ADR-0002'),
      chain: [
        { ...link('ADR-0001', 'superseded', 'old reasons'), source: 'design  review', evidence: record('ADR-0001') },
        { ...link('ADR-0002', 'accepted', 'new reasons'), source: null, evidence: record('ADR-0002') },
      ],
      evidence: record('ADR-0002'),
    }
    expect(chainText(why).trimEnd().split('\n')).toEqual([
      '- ADR-0001 [superseded, advisory] title of ADR-0001',
      '    decided 2026-01-01',
      '    why: old reasons',
      '    source: design review',
      '    evidence: decision-record: record of ADR-0001',
      '* ADR-0002 [accepted, advisory] title of ADR-0002',
      '    decided 2026-01-01',
      '    why: new reasons',
      '    evidence: decision-record: record of ADR-0002',
    ])
  })

  it('ends with a line for each proposal pending to supersede a link, after the decision in force', () => {
    const proposal = { key: 'ADR-0003', title: 'Use CockroachDB', enforce: 'required' as const, date: '2026-02-01', decision: 'd', rationale: 'r', supersedes: 'ADR-0002', proposed_at: '2026-02-01T09:00:00.000Z' }
    const why: DecisionWhy = { ...chain('ADR-0001'), proposals: [proposal] }
    expect(chainText(why, '  ').trimEnd().split('\n').at(-1)).toBe('  pending: ADR-0003 [proposed, required] Use CockroachDB, proposed 2026-02-01T09:00:00.000Z to supersede ADR-0002')
    // One accepting would not make the change it names says so, as the service tells it.
    const stale = { ...proposal, supersedes: 'ADR-0001', warning: 'accepting it is refused: ADR-0001 is superseded by ADR-0002 already' }
    expect(chainText({ ...why, proposals: [stale] }).trimEnd().split('\n').at(-1)).toBe(
      'pending: ADR-0003 [proposed, required] Use CockroachDB, proposed 2026-02-01T09:00:00.000Z to supersede ADR-0001 (accepting it is refused: ADR-0001 is superseded by ADR-0002 already)',
    )
    // A service of an older version sends no proposals: nothing is said of them.
    const { proposals: _, ...older } = why
    expect(chainText(older as DecisionWhy)).not.toContain('pending')
  })

  it('asked about the current decision, its evidence comes last, under it', () => {
    const lines = chainText(chain('ADR-0002')).trimEnd().split('\n')
    expect(lines.slice(3)).toEqual([
      '* ADR-0002 [accepted, advisory] title of ADR-0002',
      '    decided 2026-01-01',
      '    why: new reasons',
      '    evidence: decision-record: record of ADR-0002 <ADR-0002.md>',
    ])
  })

  it('says which decision is in force when the newest is not accepted', () => {
    const rejected: DecisionWhy = {
      ...chain('ADR-0002'),
      in_force: 'ADR-0001',
      chain: [link('ADR-0001', 'accepted', 'old reasons'), link('ADR-0002', 'revoked', 'new reasons')],
    }
    expect(chainText(rejected).trimEnd().split('\n').at(-1)).toBe('in force: ADR-0001 (the newest, ADR-0002, is revoked)')
    const none: DecisionWhy = { ...rejected, in_force: null, chain: [link('ADR-0001', 'superseded', 'old'), link('ADR-0002', 'deprecated', 'new')] }
    expect(chainText(none, '  ').trimEnd().split('\n').at(-1)).toBe('  in force: none (the newest, ADR-0002, is deprecated)')
    expect(chainText(chain('ADR-0002'))).not.toContain('in force')
  })

  it('says when a link was revoked or deprecated, and the reason given; not the default reason of a supersede', () => {
    const revoked = { ...link('N-2', 'revoked', 'faster'), accepted_at: '2026-01-02T00:00:00.000Z', revoked_at: '2026-01-03T00:00:00.000Z', deprecated_at: null, reason: 'pnpm broke CI' }
    const superseded = { ...link('N-1', 'superseded', 'default'), superseded_at: '2026-01-02T00:00:00.000Z', superseded_by: 'N-2', revoked_at: null, deprecated_at: null, reason: 'superseded by N-2' }
    const why: DecisionWhy = { ...chain('N-1'), key: 'N-1', current: 'N-2', in_force: null, chain: [superseded, revoked], evidence: [] }
    expect(chainText(why).trimEnd().split('\n')).toEqual([
      '- N-1 [superseded, advisory] title of N-1',
      '    decided 2026-01-01, superseded 2026-01-02T00:00:00.000Z',
      '    why: default',
      '* N-2 [revoked, advisory] title of N-2',
      '    decided 2026-01-01, accepted 2026-01-02T00:00:00.000Z, revoked 2026-01-03T00:00:00.000Z',
      '    why: faster',
      '    revoked: pnpm broke CI',
      'in force: none (the newest, N-2, is revoked)',
    ])
    const deprecated = { ...link('Y-1', 'deprecated', 'x'), deprecated_at: '2026-01-04T00:00:00.000Z', revoked_at: null, reason: 'unmaintained' }
    expect(chainText({ ...chain('Y-1'), key: 'Y-1', current: 'Y-1', in_force: null, chain: [deprecated], evidence: [] })).toContain(
      '    decided 2026-01-01, deprecated 2026-01-04T00:00:00.000Z\n    why: x\n    deprecated: unmaintained\n',
    )
  })

  it('says the steps of a link in the order they happened: deprecated, then superseded', () => {
    const deprecated = {
      ...link('Y-1', 'superseded', 'x'),
      accepted_at: '2026-01-02T00:00:00.000Z',
      deprecated_at: '2026-01-04T00:00:00.000Z',
      superseded_at: '2026-01-05T00:00:00.000Z',
      superseded_by: 'Y-2',
      revoked_at: null,
      reason: 'superseded by Y-2',
    }
    const why: DecisionWhy = { ...chain('Y-1'), key: 'Y-1', current: 'Y-2', chain: [deprecated, link('Y-2', 'accepted', 'y')], evidence: [] }
    expect(chainText(why).split('\n')[1]).toBe(
      '    decided 2026-01-01, accepted 2026-01-02T00:00:00.000Z, deprecated 2026-01-04T00:00:00.000Z, superseded 2026-01-05T00:00:00.000Z',
    )
  })

  it('says under a link stored with a glob path scope that it applies to none of the paths the glob matches', () => {
    const warning = 'scope.path "src/billing/**" is a glob, which a version before this took: … supersede it with one scoped to src/billing'
    const globbed = { ...link('G-1', 'accepted', 'x'), scope_warning: warning }
    const why: DecisionWhy = { ...chain('G-1'), key: 'G-1', current: 'G-1', in_force: 'G-1', chain: [globbed], evidence: [] }
    expect(chainText(why).trimEnd().split('\n')).toEqual(['* G-1 [accepted, advisory] title of G-1', '    decided 2026-01-01', '    why: x', `    warning: ${warning}`])
  })

  it('reads the decision in force from the chain of a service of an older version, which sends no in_force', () => {
    const { in_force: _, ...older } = chain('ADR-0002')
    expect(chainText(older as DecisionWhy)).not.toContain('in force')
    const { in_force: __, ...rejected } = { ...chain('ADR-0002'), chain: [link('ADR-0001', 'accepted', 'old'), link('ADR-0002', 'revoked', 'new')] }
    expect(chainText(rejected as DecisionWhy).trimEnd().split('\n').at(-1)).toBe('in force: ADR-0001 (the newest, ADR-0002, is revoked)')
  })
})

describe('decision-memory why KEY, a name no key can be', () => {
  it('quotes a long one cut, with its length, as other values sent are quoted in messages', async () => {
    // A version before this echoed all 5,000 characters of it in the one line of the refusal.
    const long = 'a'.repeat(5000)
    const refused = whyCommand([long, '--data', join(tempDir('dm-why-key-'), 'no-store')])
    await expect(refused).rejects.toHaveProperty('name', 'UsageError')
    await expect(refused).rejects.toThrow(`KEY "${'a'.repeat(100)}…" (5000 characters): at most 120 characters, not 5000`)
    // A short one is quoted whole, as before; a control character in it is escaped.
    await expect(whyCommand(['No\u001bDecisions', '--data', join(tempDir('dm-why-key-'), 'no-store')])).rejects.toThrow(/^KEY "No\\u001bDecisions": letters, digits/)
  })
})

describe('decision-memory why --point, the answer as text', () => {
  // The answer of GET /v1/why from a service of d0de46f, before session_id, task, path, stage and ask.
  const older = {
    user: 'alice',
    project: 'acme/api',
    point: 'deploy-target',
    as_of: '2026-11-01T00:00:00.000Z',
    recommendation: {
      state: 'partial',
      recommended: 'fly.io',
      confidence: { value: 0.6869, level: 'medium' },
      precondition: 'any context',
      disclosure: 'based on 62% of recent choices',
      observations: 10,
    },
    decisions: [],
    observations: [],
  } as unknown as PointWhy

  it('says what a service of an older version answered, leaving out what it did not say', () => {
    expect(pointText(older).trimEnd().split('\n')).toEqual([
      'point deploy-target (user alice, project acme/api) as of 2026-11-01T00:00:00.000Z',
      'recommended: fly.io [partial, confidence 0.6869 medium]',
      '  when any context — based on 62% of recent choices',
    ])
  })

  it('says the session, the run and whether the user was asked, when the service does', () => {
    const recommendation = { ...older.recommendation, ask: false, ask_reason: 'sufficient and p 0.95 reaches auto_resolve_p 0.9' } as PointWhy['recommendation']
    const current = { ...older, session_id: 's-1', task: null, path: 'src/billing', stage: null, recommendation }
    const lines = pointText(current).trimEnd().split('\n')
    expect(lines[0]).toBe('point deploy-target (user alice, project acme/api, session s-1, path src/billing) as of 2026-11-01T00:00:00.000Z')
    expect(lines[3]).toBe('  answered for the user: sufficient and p 0.95 reaches auto_resolve_p 0.9')
  })

  it('says each pair of required decisions that contradict each other on a line of its own, whatever the reason asked', () => {
    const message = 'required decisions D-002 and D-001 contradict each other over "Tier L" (the newer, D-002, holds)'
    const conflicts = [{ keys: ['D-002', 'D-001'], options: ['Tier L'], message }]
    const recommendation = { ...older.recommendation, ask: true, ask_reason: 'personalization is off for this session', conflicts } as PointWhy['recommendation']
    const lines = pointText({ ...older, recommendation }).trimEnd().split('\n')
    expect(lines.slice(3)).toEqual(['  asked: personalization is off for this session', `  conflict: ${message}; supersede or revoke one of them`])
  })

  it('says a decision that contradicts itself is to be superseded or revoked, not "one of them"', () => {
    const message = 'required decision D-001 contradicts itself over "Tier S" and "Tier L": its musts name two options where one is chosen (the first, "Tier S", holds)'
    const conflicts = [{ keys: ['D-001', 'D-001'], options: ['Tier S', 'Tier L'], message }]
    const recommendation = { ...older.recommendation, ask: true, ask_reason: `${message}: the user chooses`, conflicts } as PointWhy['recommendation']
    const lines = pointText({ ...older, recommendation }).trimEnd().split('\n')
    expect(lines[4]).toBe(`  conflict: ${message}; supersede it with one whose must names one option, or revoke it`)
  })

  it('quotes a name spaced at its ends, as one stored before writes refused it may be, and the service quotes it', () => {
    const spaced = { ...older, user: ' alice ', project: 'acme ', point: ' deploy-target', session_id: ' s-1', task: null, path: null, stage: ' review' } as unknown as PointWhy
    expect(pointText(spaced).split('\n')[0]).toBe(
      'point " deploy-target" (user " alice ", project "acme ", session " s-1", stage " review") as of 2026-11-01T00:00:00.000Z',
    )
  })

  it('joins a multi-select set with " + ", as preferences does, so that a label holding a comma reads as one option', () => {
    const set = ['Lint, format', 'Unit tests']
    const recommendation = { ...older.recommendation, recommended: set, disclosure: 'each selected in 100% of recent choices' }
    const observations = [{ id: 'obs-1', timestamp: '2026-10-31T00:00:00.000Z', project: 'acme/api', session_id: 's-1', chosen: set, other: null, context: {} }]
    const lines = pointText({ ...older, recommendation, observations } as unknown as PointWhy).trimEnd().split('\n')
    expect(lines[1]).toBe('recommended: Lint, format + Unit tests [partial, confidence 0.6869 medium]')
    expect(lines.at(-1)).toBe('  obs-1  2026-10-31T00:00:00.000Z  Lint, format + Unit tests')
    // None selected half the time: said, not left blank.
    expect(pointText({ ...older, recommendation: { ...recommendation, recommended: [] } } as unknown as PointWhy)).toContain('recommended: nothing [partial')
  })

  it('says how many observations it counted beside those behind the recommendation, which alone are listed', () => {
    const behind = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `obs-${i}`, timestamp: '2026-10-31T00:00:00.000Z', project: 'acme/api', session_id: 's-1', chosen: ['fly.io'], other: null, context: {} }))
    const header = (observations: number, listed: number) =>
      pointText({ ...older, recommendation: { ...older.recommendation, observations }, observations: behind(listed) } as unknown as PointWhy)
        .split('\n')
        .find((l) => l.startsWith('observations behind it'))
    // "6 of 10 counted" read as 4 of the user's choices left out: all 10 are counted, 4 went otherwise.
    expect(header(10, 6)).toBe('observations behind it (the 6 of 10 counted that chose it):')
    expect(header(6, 6)).toBe('observations behind it (6):')
    expect(header(250, 80)).toBe('observations behind it (the 80 of the newest 100 of 250 counted that chose it):')
  })

  it('says nothing is recommended where required decisions rule out every option offered, and why; what the memory alone would pick as such', async () => {
    const app = await createTestApp()
    const noS = { ...REQUIRED_TIER_L, key: 'D-001', title: 'No Tier S', rationale: 'Small tiers skip review.', constraints: [{ kind: 'must_not', option: 'Tier S' }] }
    const noM = { ...REQUIRED_TIER_L, key: 'D-002', title: 'No Tier M', rationale: 'Tier M is retired.', constraints: [{ kind: 'must_not', option: 'Tier M' }] }
    for (const d of [noS, noM]) expect((await app.call('POST', '/v1/decisions', d)).status).toBe(201)
    const choice = { decision_id: 'q-1', timestamp: '2026-07-01T09:00:00Z', question: 'Which tier?', point: 'complexity-tier', user_choice: 'Tier M', all_options: ['Tier S', 'Tier M'] }
    expect((await app.call('POST', '/v1/observations', choice)).status).toBe(201)
    const why = (await app.call('GET', '/v1/why?point=complexity-tier')).body as PointWhy
    const lines = pointText(why).trimEnd().split('\n')
    // `recommended: Tier M [static-default, confidence 0 low]` read as an answer: Tier M is ruled out.
    expect(lines.slice(1, 5)).toEqual([
      'nothing recommended: every option offered is ruled out by required decisions D-001, D-002 [confidence 0 low]',
      '  when required decisions D-001, D-002 are in force — every option offered is ruled out by required decisions D-001: Small tiers skip review.; D-002: Tier M is retired.',
      '  asked: every option offered is ruled out by required decisions D-001, D-002: none is recommended; the user chooses',
      '  observed choices alone would say: Tier M [static-default]',
    ])
    // The observations listed chose what the memory alone would pick, not an answer.
    expect(lines.find((l) => l.startsWith('observations behind'))).toBe('observations behind what observed choices alone would say (1):')
    // An answer a decision fixes still says what it recommends.
    const enforced = { ...why, recommendation: { ...why.recommendation, state: 'enforced', recommended: 'Tier L' } } as PointWhy
    expect(pointText(enforced).split('\n')[1]).toBe('recommended: Tier L [enforced, confidence 0 low]')
  })

  it('says a possible change of preference when the recent sessions chose otherwise than the long term', () => {
    const layer = (majority: string, selection: string[] | null = null) => ({ observations: 3, majority, share: 1, selection, counts: [] })
    const layers = { session: layer('fly.io'), recent: { ...layer('render'), sessions: ['s3', 's2', 's1'] }, long_term: layer('fly.io'), change_suspected: true }
    const at = (l: unknown) => pointText({ ...older, recommendation: { ...older.recommendation, layers: l } } as PointWhy).trimEnd().split('\n')
    expect(at(layers).at(-1)).toBe('  possible change of preference: the last 3 sessions chose render, all sessions, decay-weighted, fly.io')
    const multi = { ...layers, recent: { ...layer('Lint', ['Lint', 'E2E']), sessions: ['s2', 's1'] }, long_term: layer('Lint', ['Lint', 'Typecheck']) }
    expect(at(multi).at(-1)).toBe('  possible change of preference: the last 2 sessions chose Lint + E2E, all sessions, decay-weighted, Lint + Typecheck')
    // A project of one session so far, whose long term backs off to the user's other projects.
    expect(at({ ...layers, recent: { ...layers.recent, sessions: ['s1'] } }).at(-1)).toBe('  possible change of preference: the last session chose render, all sessions, decay-weighted, fly.io')
    // Recent sessions that typed their own answers: no majority, but choices all the same.
    expect(at({ ...layers, recent: { ...layers.recent, majority: null, share: 0 } }).at(-1)).toBe(
      '  possible change of preference: the last 3 sessions chose answers of their own, none of the options, all sessions, decay-weighted, fly.io',
    )
    expect(at({ ...layers, change_suspected: false }).join('\n')).not.toContain('change of preference')
  })

  it('says the recent sessions chose their majority mostly, with its share, where not every recent choice was it', () => {
    // Tier S, Tier S, then Tier L: "the last 3 sessions chose Tier S" was untrue of the third.
    const layer = (majority: string, share: number) => ({ observations: 3, majority, share, selection: null, counts: [] })
    const layers = { session: layer('Tier M', 1), recent: { ...layer('Tier S', 0.6667), sessions: ['s-10', 's-9', 's-8'] }, long_term: layer('Tier M', 0.6), change_suspected: true }
    const at = (l: unknown) => pointText({ ...older, recommendation: { ...older.recommendation, layers: l } } as PointWhy).trimEnd().split('\n')
    expect(at(layers).at(-1)).toBe('  possible change of preference: the last 3 sessions chose mostly Tier S (67% of their choices), all sessions, decay-weighted, Tier M')
    expect(at({ ...layers, recent: { ...layers.recent, sessions: ['s-10'] } }).at(-1)).toBe(
      '  possible change of preference: the last session chose mostly Tier S (67% of its choices), all sessions, decay-weighted, Tier M',
    )
  })
})

describe('decision-memory why --point, the decisions bound to the point', () => {
  it('prints a chain once, and each other version of it bound to the point as in it, with its evidence', () => {
    const bound = (key: string) => ({ ...chain(key), title: `title of ${key}`, status: 'accepted', enforce: 'advisory', effect: null })
    const other: DecisionWhy = { ...chain('D-009'), current: 'D-009', in_force: 'D-009', chain: [link('D-009', 'accepted', 'its own reasons')], evidence: [] }
    const why = {
      user: 'alice',
      project: null,
      point: 'deploy-target',
      as_of: '2026-11-01T00:00:00.000Z',
      recommendation: null,
      decisions: [bound('ADR-0001'), bound('ADR-0002'), { ...other, title: 'title of D-009', status: 'accepted', enforce: 'advisory', effect: null }],
      observations: [],
    } as unknown as PointWhy
    expect(pointText(why).trimEnd().split('\n').slice(2)).toEqual([
      'decision ADR-0001:',
      '  - ADR-0001 [superseded, advisory] title of ADR-0001',
      '      decided 2026-01-01',
      '      why: old reasons',
      '      evidence: decision-record: record of ADR-0001 <ADR-0001.md>',
      '  * ADR-0002 [accepted, advisory] title of ADR-0002',
      '      decided 2026-01-01',
      '      why: new reasons',
      'decision ADR-0002: in the chain above',
      '    evidence: decision-record: record of ADR-0002 <ADR-0002.md>',
      'decision D-009:',
      '  * D-009 [accepted, advisory] title of D-009',
      '      decided 2026-01-01',
      '      why: its own reasons',
    ])
    // A service of this version sends each link's evidence: printed under its link, not again.
    const withEvidence = (key: string) => {
      const b = bound(key)
      return { ...b, chain: b.chain.map((l) => ({ ...l, source: null, evidence: chain(l.key).evidence })) }
    }
    const lines = pointText({ ...why, decisions: [withEvidence('ADR-0001'), withEvidence('ADR-0002')] } as unknown as PointWhy).trimEnd().split('\n').slice(2)
    expect(lines.filter((l) => l.includes('record of ADR-0002'))).toEqual(['      evidence: decision-record: record of ADR-0002 <ADR-0002.md>'])
    expect(lines.at(-1)).toBe('decision ADR-0002: in the chain above')
  })
})

describe('decision-memory why --point, a long chain with a change pending on it', () => {
  it('prints each link of a chain of 30 versions once, a proposal to supersede its newest too: its chain is the same one and itself', async () => {
    const app = await createTestApp({ now: '2026-12-01T10:00:00.000Z' })
    const { point } = await bigWhyCase(app, BIG_WHY_CASES[3] as (typeof BIG_WHY_CASES)[number])
    const proposal = { key: 'Q-NEW', title: 'Billing queue, Kafka', decision: 'Use Kafka', rationale: 'the volume doubled', enforce: 'advisory', scope: { points: [point] }, supersedes: 'Q-030' }
    expect((await app.call('POST', '/v1/decisions', proposal)).status).toBe(201)
    const why = (await app.call('GET', `/v1/why?user=alice&project=p1&point=${point}`)).body as PointWhy
    expect(why.decisions.map((d) => d.key).at(-1)).toBe('Q-NEW')
    const text = pointText(why)
    // Each link once: the proposal's chain, Q-001 … Q-030 and itself, was printed whole a second time (some 100,000 characters).
    const links = text.split('\n').filter((l) => /^  [*-] \S+ \[/.test(l)).map((l) => l.split(' ')[3])
    expect(links).toEqual([...Array.from({ length: 30 }, (_, i) => `Q-${String(i + 1).padStart(3, '0')}`), 'Q-NEW'])
    expect(text.length).toBeLessThan(60_000)
    const lines = text.trimEnd().split('\n')
    const from = lines.indexOf('decision Q-NEW:')
    expect(lines.slice(from, from + 6)).toEqual([
      'decision Q-NEW:',
      '  Q-001 … Q-030 (30 links): in the chain above',
      '  * Q-NEW [proposed, advisory] Billing queue, Kafka',
      expect.stringMatching(/^      decided /),
      '      why: the volume doubled',
      '  in force: Q-030 (the newest, Q-NEW, is proposed)',
    ])
  })
})

describe('decision-memory why --point, a decision that did not apply', () => {
  const why = (decision: Record<string, unknown>) =>
    ({
      user: 'alice',
      project: null,
      point: 'tier',
      as_of: '2026-11-01T00:00:00.000Z',
      path: null,
      recommendation: { state: 'partial', recommended: 'Tier M', confidence: { value: 0.6, level: 'medium' }, precondition: 'any context', disclosure: 'based on 60% of recent choices', observations: 6 },
      decisions: [{ ...chain('B-1'), current: 'B-1', in_force: 'B-1', chain: [link('B-1', 'accepted', 'billing')], evidence: [], title: 'Billing is Tier S', status: 'accepted', enforce: 'required', effect: null, ...decision }],
      observations: [],
    }) as unknown as PointWhy
  const heading = (w: PointWhy) => pointText(w).split('\n').find((l) => l.startsWith('decision B-1'))

  it('says which of its scopes the run is outside of, rather than that it had no effect', () => {
    expect(heading(why({ out_of_scope: [{ field: 'path', scope: 'src/billing', run: null }] }))).toBe('decision B-1 (not applied: scoped to path src/billing, no path given):')
    expect(heading(why({ out_of_scope: [{ field: 'path', scope: 'src/billing', run: 'src/web' }, { field: 'stage', scope: 'plan', run: null }] }))).toBe(
      'decision B-1 (not applied: scoped to path src/billing, not src/web; scoped to stage plan, no stage given):',
    )
    // In scope and changing nothing (advice against an option not recommended), or a service that does not say.
    expect(heading(why({ out_of_scope: [] }))).toBe('decision B-1 (no effect on this recommendation):')
    expect(heading(why({}))).toBe('decision B-1 (no effect on this recommendation):')
  })

  it('says it with no recommendation too, where it is why there is none (its option the only one known)', () => {
    const none = (decision: Record<string, unknown>) => ({ ...why(decision), recommendation: null }) as unknown as PointWhy
    expect(heading(none({ out_of_scope: [{ field: 'path', scope: 'src/billing', run: null }] }))).toBe('decision B-1 (not applied: scoped to path src/billing, no path given):')
    // In scope, with nothing recommended, there is no recommendation for it to have no effect on.
    expect(heading(none({ out_of_scope: [] }))).toBe('decision B-1:')
  })
})

describe('decision-memory why --as-of, an answer that does not say the moment asked', () => {
  it('says an older service may have answered as of now, not that it did: one from before as_of was echoed answered as of then', () => {
    const said = notAsOf({ key: 'D-001' }, '2026-11-01T00:00:00Z', 'D-001') as string
    expect(said).toContain('may answer as of now whatever --as-of says, and none says which moment it answered for')
    expect(notAsOf({ key: 'D-001', as_of: '2026-11-01T00:00:00.000Z' }, '2026-11-01T02:00:00+02:00', 'D-001')).toBeUndefined()
  })
})

describe('decision-memory why FILE, a record import-adr read', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  const adr = adrText

  const imported = importedRepository

  it('prints the chain of the decision imported from an adr-tools file, as why ADR-NNNN does', async () => {
    const { store, repo } = await shopWithTwoRecords('dm-why-file-')
    const byFile = await captured(() => whyCommand([join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '--data', store]))
    const byKey = await captured(() => whyCommand(['ADR-0001', '--data', store]))
    expect(byFile).toEqual({ code: 0, stdout: byKey.stdout, stderr: '' })
    expect(byFile.stdout).toContain('- ADR-0001 [superseded, advisory] Use SQLite\n')
    expect(byFile.stdout).toContain('* ADR-0002 [accepted, advisory] Use Postgres\n')
  })

  it('prints each decision of a DECISIONS.md, in the order of the file, named with its line', async () => {
    const parent = tempDir('dm-why-file-')
    const store = join(parent, 'store')
    const log = '# Decisions\n\n## D-001: Use Zod\n\n- Status: Accepted\n- Rationale: Zod composes with inferred types.\n\n## D-002: No API versions before beta\n\n- Status: Proposed\n- Rationale: Too few consumers yet.\n'
    const repo = await imported(parent, 'api', store, { 'DECISIONS.md': log })
    const { code, stdout } = await captured(() => whyCommand([join(repo, 'doc', 'adr', 'DECISIONS.md'), '--data', store]))
    expect(code).toBe(0)
    const headings = stdout.split('\n').filter((l) => l.includes(', from '))
    expect(headings).toEqual([`D-001, from ${join(repo, 'doc', 'adr', 'DECISIONS.md')}:3`, `D-002, from ${join(repo, 'doc', 'adr', 'DECISIONS.md')}:8`])
    expect(stdout).toContain('why: Zod composes with inferred types.')
    expect(stdout).toContain('why: Too few consumers yet.')
  })

  it('prints, for the folder of the records, the decision imported from each, named with its record', async () => {
    const { store, repo } = await shopWithTwoRecords('dm-why-file-')
    const folder = join(repo, 'doc', 'adr')
    const { code, stdout, stderr } = await captured(() => whyCommand([folder, '--data', store]))
    // `import-adr doc/adr` imported them from it: a version before this said no decision was, exit 1.
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout.split('\n').filter((l) => l.includes(', from '))).toEqual([
      `ADR-0001, from ${join(folder, '0001-use-sqlite.md')}:1`,
      `ADR-0002, from ${join(folder, '0002-use-postgres.md')}:1`,
    ])
    expect(stdout).toContain('* ADR-0002 [accepted, advisory] Use Postgres\n')
  })

  it('reads `.` and `..` as the folders they are, as `./` and `../`: the folder of the records run in it, or above it', async () => {
    const { store, repo } = await shopWithTwoRecords('dm-why-file-')
    mkdirSync(join(repo, 'doc', 'adr', 'drafts'))
    const cwd = process.cwd()
    try {
      process.chdir(join(repo, 'doc', 'adr'))
      // A version before this took them for keys: exit 2, `KEY ".": letters, digits, …`.
      const here = await captured(() => whyCommand(['.', '--data', store]))
      expect({ code: here.code, stderr: here.stderr }).toEqual({ code: 0, stderr: '' })
      expect(here.stdout.split('\n').filter((l) => l.includes(', from '))).toEqual(['ADR-0001, from 0001-use-sqlite.md:1', 'ADR-0002, from 0002-use-postgres.md:1'])
      process.chdir(join(repo, 'doc', 'adr', 'drafts'))
      const above = await captured(() => whyCommand(['..', '--data', store]))
      expect({ code: above.code, stderr: above.stderr }).toEqual({ code: 0, stderr: '' })
      expect(above.stdout.split('\n').filter((l) => l.includes(', from '))).toEqual(['ADR-0001, from ../0001-use-sqlite.md:1', 'ADR-0002, from ../0002-use-postgres.md:1'])
    } finally {
      process.chdir(cwd)
    }
  })

  it('follows a symbolic link to a folder of records deleted since, a name here, to the records imported there', async () => {
    const { store, repo } = await shopWithTwoRecords('dm-why-file-')
    symlinkSync(join('doc', 'adr'), join(repo, 'adrs'))
    // `git rm -r doc/adr`: the link is still there, leading nowhere.
    rmSync(join(repo, 'doc'), { recursive: true })
    const cwd = process.cwd()
    try {
      process.chdir(repo)
      // A version before this took `adrs` for a key: `no decision adrs (key: no decision has the key adrs)`, exit 1.
      const { code, stdout, stderr } = await captured(() => whyCommand(['adrs', '--data', store]))
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(stdout.split('\n').filter((l) => l.includes(', from '))).toEqual([
        `ADR-0001, from ${join('adrs', '0001-use-sqlite.md')}:1`,
        `ADR-0002, from ${join('adrs', '0002-use-postgres.md')}:1`,
      ])
      expect(stdout).toContain('* ADR-0002 [accepted, advisory] Use Postgres\n')
    } finally {
      process.chdir(cwd)
    }
  })

  it('reads a bare name of a folder of records deleted since as that folder, where no decision has it as its key', async () => {
    const { store, repo } = await shopWithTwoRecords('dm-why-file-')
    // `git rm -r doc/adr`, with doc/ still there: `adr` is no entry in doc/, and no key.
    rmSync(join(repo, 'doc', 'adr'), { recursive: true })
    writeFileSync(join(repo, 'doc', 'NOTES.md'), '# Notes\n')
    const cwd = process.cwd()
    try {
      process.chdir(join(repo, 'doc'))
      // A version before this took `adr` for a key: `no decision adr`, exit 1.
      const folder = await captured(() => whyCommand(['adr', '--data', store]))
      expect({ code: folder.code, stderr: folder.stderr }).toEqual({ code: 0, stderr: '' })
      expect(folder.stdout.split('\n').filter((l) => l.includes(', from '))).toEqual([
        `ADR-0001, from ${join('adr', '0001-use-sqlite.md')}:1`,
        `ADR-0002, from ${join('adr', '0002-use-postgres.md')}:1`,
      ])
      expect(folder.stdout).toContain('* ADR-0002 [accepted, advisory] Use Postgres\n')
      // As `why ./adr` reads it.
      expect((await captured(() => whyCommand(['./adr', '--data', store]))).stdout).toBe(folder.stdout)
      // A name of no folder the records were imported from is still a key no decision has.
      const none = await captured(() => whyCommand(['doc', '--data', store]))
      expect(none.code).toBe(1)
      expect(none.stderr).toMatch(/^decision-memory why: no decision doc\b/)
      // A key keeps its decision, a folder of its name deleted since or not.
      await withDecisions(store, fixedClock('2026-11-01T00:00:00Z'), async (decisions) => {
        await decisions.propose(DecisionInputSchema.parse({ key: 'adr', title: 'Write records', decision: 'Each decision gets a record.', rationale: 'We forget.', status: 'accepted' }))
      })
      const key = await captured(() => whyCommand(['adr', '--data', store]))
      expect(key).toEqual({ code: 0, stdout: '* adr [accepted, advisory] Write records\n    decided 2026-11-01, accepted 2026-11-01T00:00:00.000Z\n    why: We forget.\n', stderr: '' })
    } finally {
      process.chdir(cwd)
    }
  })

  it('reads a bare name no key can be of a folder of records deleted since as that folder (`Architecture Decisions`)', async () => {
    // `git rm -r "docs/Architecture Decisions"` after its import.
    const { parent, store, repo } = await shopWithRecordsDeleted('dm-why-file-', join('docs', 'Architecture Decisions'))
    const cwd = process.cwd()
    try {
      process.chdir(join(repo, 'docs'))
      // A version before this said `KEY "Architecture Decisions": letters, digits, …`, exit 2, where `./Architecture Decisions` was read.
      const { code, stdout, stderr } = await captured(() => whyCommand(['Architecture Decisions', '--data', store]))
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(stdout).toContain('* ADR-0001 [accepted, advisory] Use SQLite\n')
      expect(stdout).toBe((await captured(() => whyCommand(['./Architecture Decisions', '--data', store]))).stdout)
      // A name no key can be, of no such folder, is still the key's mistake.
      await expect(whyCommand(['No Decisions', '--data', store])).rejects.toThrow(/^KEY "No Decisions": letters, digits/)
      await expect(whyCommand(['_adr', '--data', join(parent, 'no-store')])).rejects.toHaveProperty('name', 'UsageError')
    } finally {
      process.chdir(cwd)
    }
  })

  it('reads a bare name of the folder the records were imported from, deleted with them, at the root', async () => {
    // `git rm -r docs` after its import.
    const { store, repo } = await shopWithRecordsDeleted('dm-why-file-', 'docs')
    const cwd = process.cwd()
    try {
      process.chdir(repo)
      const { code, stdout, stderr } = await captured(() => whyCommand(['docs', '--data', store]))
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(stdout).toContain('* ADR-0001 [accepted, advisory] Use SQLite\n')
    } finally {
      process.chdir(cwd)
    }
  })

  it('does not take the same file of another repository for the one imported', async () => {
    const parent = tempDir('dm-why-file-')
    const store = join(parent, 'store')
    const files = { '0001-use-sqlite.md': adr(1, 'Use SQLite', 'Accepted') }
    await imported(parent, 'shop', store, files)
    const other = join(parent, 'web')
    mkdirSync(join(other, '.git'), { recursive: true })
    mkdirSync(join(other, 'doc', 'adr'), { recursive: true })
    writeFileSync(join(other, 'doc', 'adr', '0001-use-sqlite.md'), files['0001-use-sqlite.md'])
    const { code, stdout, stderr } = await captured(() => whyCommand([join(other, 'doc', 'adr', '0001-use-sqlite.md'), '--data', store]))
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toContain(`no decision was imported from ${join(other, 'doc', 'adr', '0001-use-sqlite.md')} or is scoped to its path (import-adr ${join(other, 'doc', 'adr')} reads its folder's records)`)
  })

  it('prints, for a file of the code, the decisions in force scoped to its path or a folder above it', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    await withDecisions(store, fixedClock('2026-11-01T00:00:00Z'), async (decisions) => {
      const made = { decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted' as const }
      await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-100', title: 'Cents in billing', scope: { path: 'src' } }))
      await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-101', title: 'Cents in the web', scope: { path: 'src/web' } }))
      await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-102', title: 'Cents everywhere' }))
    })
    const { code, stdout } = await captured(() => whyCommand([join(repo, 'src', 'billing.ts'), '--data', store]))
    expect(code).toBe(0)
    // Said where it comes from; not D-101, scoped elsewhere, nor D-102, which holds everywhere.
    expect(stdout.split('\n').filter((l) => /^\S/.test(l))).toEqual(['D-100, scoped to src', '* D-100 [accepted, advisory] Cents in billing'])
    writeFileSync(join(repo, 'Makefile'), 'all:\n')
    const none = await captured(() => whyCommand([join(repo, 'Makefile'), '--data', store]))
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('or is scoped to its path, Makefile (decisions with no path apply everywhere: GET /v1/decisions/applicable?path=Makefile; why --point POINT --path Makefile explains a point there)')
    // A file of the code named as a template is a file of the code, not a record import-adr reads past.
    writeFileSync(join(repo, 'email-template.ts'), 'export {}\n')
    const template = await captured(() => whyCommand([join(repo, 'email-template.ts'), '--data', store]))
    expect(template.stderr).toContain('or is scoped to its path, email-template.ts (decisions with no path apply everywhere: GET /v1/decisions/applicable?path=email-template.ts;')
    // A path with a space: the why to run says it quoted, as a shell reads it.
    mkdirSync(join(repo, 'build scripts'))
    writeFileSync(join(repo, 'build scripts', 'ship.sh'), 'exit 0\n')
    const spaced = await captured(() => whyCommand([join(repo, 'build scripts', 'ship.sh'), '--data', store]))
    expect(spaced.stderr).toContain("why --point POINT --path 'build scripts/ship.sh' explains a point there)")
    // A leading ~ quoted too: a shell reads `~root/x.sh` bare as a file in root's home.
    mkdirSync(join(repo, '~root'))
    writeFileSync(join(repo, '~root', 'x.sh'), 'exit 0\n')
    const tilde = await captured(() => whyCommand([join(repo, '~root', 'x.sh'), '--data', store]))
    expect(tilde.stderr).toContain("why --point POINT --path '~root/x.sh' explains a point there)")
  })

  it('prints, for a file of the code, a decision whose stored glob scope would hold it but for the glob, with its warning', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    await withDecisions(store, fixedClock('2026-11-01T00:00:00Z'), async (decisions) => {
      await decisions.propose(DecisionInputSchema.parse({ key: 'D-100', title: 'Cents in billing', decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted', scope: { path: 'src' } }))
    })
    // Written by a version that took a glob as a path scope, as the routes now refuse it.
    const { store: memory, decisionStore } = await openStores(store)
    try {
      await decisionStore.transact(async (tx) => tx.put(decisionRecord('D-GLOB', { scope: { points: [], task: null, path: 'src/**', stage: null } })))
    } finally {
      await memory.close()
    }
    const { code, stdout } = await captured(() => whyCommand([join(repo, 'src', 'billing.ts'), '--data', store]))
    expect(code).toBe(0)
    expect(stdout.split('\n').filter((l) => /^\S/.test(l))).toEqual([
      'D-100, scoped to src',
      '* D-100 [accepted, advisory] Cents in billing',
      'D-GLOB, scoped to the glob src/**, which holds none of the paths it would match (see its warning)',
      '* D-GLOB [accepted, required] title of D-GLOB',
    ])
    expect(stdout).toContain('    warning: scope.path "src/**" is a glob, which a version before this took: a path scope is a prefix compared as written, so this decision applies to none of the paths the glob would match, only to one holding it as written; supersede it with one scoped to src\n')
    // Outside the folder the glob was written in, it is none of the file's.
    writeFileSync(join(repo, 'Makefile'), 'all:\n')
    expect((await captured(() => whyCommand([join(repo, 'Makefile'), '--data', store]))).code).toBe(1)
  })

  it('reads a file named bare in the folder it runs in as that file, not as a key no decision has', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    await withDecisions(store, fixedClock('2026-11-01T00:00:00Z'), async (decisions) => {
      await decisions.propose(DecisionInputSchema.parse({ key: 'D-100', title: 'Cents in billing', decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted', scope: { path: 'src' } }))
    })
    writeFileSync(join(repo, 'NOTES.md'), '# Notes\n')
    const cwd = process.cwd()
    try {
      process.chdir(join(repo, 'src'))
      const code = await captured(() => whyCommand(['billing.ts', '--data', store]))
      expect(code.code).toBe(0)
      expect(code.stdout.split('\n').filter((l) => /^\S/.test(l))).toEqual(['D-100, scoped to src', '* D-100 [accepted, advisory] Cents in billing'])
      process.chdir(repo)
      const notes = await captured(() => whyCommand(['NOTES.md', '--data', store]))
      expect(notes).toEqual({ code: 1, stdout: '', stderr: "decision-memory why: no decision was imported from NOTES.md or is scoped to its path (import-adr . reads its folder's records)\n" })
      // A README is no record: import-adr would read past it, and is not what to run.
      writeFileSync(join(repo, 'README.md'), '# Shop\n')
      const readme = await captured(() => whyCommand(['README.md', '--data', store]))
      expect(readme).toEqual({ code: 1, stdout: '', stderr: 'decision-memory why: no decision was imported from README.md or is scoped to its path (import-adr reads no README, index or template as a record)\n' })
    } finally {
      process.chdir(cwd)
    }
  })

  it('says a relative FILE cannot be read in a folder removed under the shell, rather than crash; an absolute one still is', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    await inRemovedFolder(repo, async () => {
      const relative = await captured(() => whyCommand(['doc/adr/0001-use-sqlite.md', '--data', store]))
      expect(relative).toEqual({
        code: 1,
        stdout: '',
        stderr: 'decision-memory why: the folder this runs in is gone (removed since the shell entered it): give FILE as an absolute path, or run it in a folder that exists\n',
      })
      const absolute = await captured(() => whyCommand([join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '--data', store]))
      expect({ code: absolute.code, stderr: absolute.stderr }).toEqual({ code: 0, stderr: '' })
    })
  })

  it('says --project . and --path . name no folder in one removed under the shell, rather than crash', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-gone-')
    await inRemovedFolder(repo, async () => {
      for (const flag of ['project', 'path']) {
        const run = whyCommand(['--point', 'tier', `--${flag}`, '.', '--data', store])
        await expect(run, flag).rejects.toThrow(`--${flag} .: the folder this runs in is gone (removed since the shell entered it): give the ${flag} by name`)
        await expect(whyCommand(['--point', 'tier', `--${flag}`, '.', '--data', store]), flag).rejects.toHaveProperty('name', 'UsageError')
      }
    })
  })

  it('with --as-of, lists for a file of the code the decisions scoped to its path then, not those of now', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    const clock = fixedClock('2026-11-01T00:00:00Z')
    await withDecisions(store, clock, async (decisions) => {
      await scopedToSrcOverTime(decisions, clock)
    })
    const then = await captured(() => whyCommand([join(repo, 'src', 'billing.ts'), '--as-of', '2026-11-02T00:00:00Z', '--data', store]))
    expect({ code: then.code, stderr: then.stderr }).toEqual({ code: 0, stderr: '' })
    expect(then.stdout.split('\n').filter((l) => l.includes(', scoped to '))).toEqual(['D-100, scoped to src', 'D-101, scoped to src'])
    const now = await captured(() => whyCommand([join(repo, 'src', 'billing.ts'), '--data', store]))
    expect(now.stdout.split('\n').filter((l) => l.includes(', scoped to '))).toEqual(['D-100, scoped to src', 'D-102, scoped to src'])
    // The record was imported after that moment: said as of then, not as a key no decision has then.
    const record = join(repo, 'doc', 'adr', '0001-use-sqlite.md')
    const before = await captured(() => whyCommand([record, '--as-of', '2026-11-02T00:00:00Z', '--data', store]))
    expect(before).toEqual({ code: 1, stdout: '', stderr: `decision-memory why: as of 2026-11-02T00:00:00Z, no decision was imported from ${record} or is scoped to its path (import-adr ${join(repo, 'doc', 'adr')} reads its folder's records)\n` })
  })

  it('with an --as-of in the future, says the flag is wrong, as with KEY, for a file too', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    const ahead = new Date(Date.now() + 3600_000).toISOString()
    await expect(whyCommand([join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '--as-of', ahead, '--data', store])).rejects.toThrow(/^--as-of: .*in the future/)
    await expect(whyCommand([join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '--as-of', ahead, '--data', store])).rejects.toHaveProperty('name', 'UsageError')
    // Read by the command itself, against this machine's clock: no service to name, for a key or a file.
    for (const target of ['ADR-0001', join(repo, 'doc', 'adr', '0001-use-sqlite.md')]) {
      await expect(whyCommand([target, '--as-of', ahead, '--data', store]), target).rejects.toThrow(
        new RegExp(`^--as-of: as_of ${ahead.replace(/[.]/g, '\\.')} is in the future: more than 5 minutes ahead of this machine's clock \\(`),
      )
    }
  })

  it('finds the decision of a record whose file was deleted since (git rm), which the store still holds', async () => {
    const { store, repo } = await shopWithOneRecord('dm-why-file-')
    rmSync(join(repo, 'doc', 'adr', '0001-use-sqlite.md'))
    const { code, stdout } = await captured(() => whyCommand([join(repo, 'doc', 'adr', '0001-use-sqlite.md'), '--data', store]))
    expect(code).toBe(0)
    expect(stdout).toContain('* ADR-0001 [accepted, advisory] Use SQLite\n')
    const gone = await captured(() => whyCommand([join(repo, 'doc', 'adr', '0002-not-there.md'), '--data', store]))
    expect(gone.code).toBe(1)
    expect(gone.stderr).toBe(`decision-memory why: no decision was imported from ${join(repo, 'doc', 'adr', '0002-not-there.md')} or is scoped to its path, and there is no such file here\n`)
  })
})

describe('why --help', () => {
  it('says --all-projects is the default in / or the home folder only outside a repository', () => {
    // A home folder kept in git is its project, by default as with `.`.
    const text = WHY_HELP.replace(/\s+/g, ' ')
    expect(text).toContain('--all-projects with --point: across every project wherever the command runs, as by default in / or the home folder outside a repository')
  })

  it('says a session started in / or the home folder lends its subfolders no project, as the hooks keep none', () => {
    // inProjectFolder: ~/notes and ~/scratch of a session started in ~ are projects of their own.
    const text = WHY_HELP.replace(/\s+/g, ' ')
    expect(text).toContain("below the folder that session was started in (not / or the home folder, whose subfolders keep their own), the session's project")
  })
})

describe('decision-memory why --point at a point the policy names, nothing held there', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('says what a recommendation there gives, the policy\'s static default with its precondition, then the command that lists the points', async () => {
    const { store } = await shopWithOneRecord('dm-why-policy-point-')
    const { code, stdout, stderr } = await captured(() => whyCommand(['--point', 'complexity-tier', '--user', 'alice', '--all-projects', '--data', store]))
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(
      'decision-memory why: nothing is known of point complexity-tier for user alice: no observation and no decision is held there, ' +
        'so a recommendation asked there gives the policy\'s static default, Tier M: "Recommended when the change is of typical, moderate scope ' +
        '(the usual default for SPEC work) — based on static default, 5 observations needed for personalization"; ' +
        `\`decision-memory preferences --user alice --data ${store}\` lists the points learned about alice\n`,
    )
    // A point the policy does not name: as before.
    const guessed = await captured(() => whyCommand(['--point', 'tier', '--user', 'alice', '--all-projects', '--data', store]))
    expect(guessed.stderr).toBe(`decision-memory why: nothing is known of point tier for user alice; \`decision-memory preferences --user alice --data ${store}\` lists the points learned about alice\n`)
  })
})
