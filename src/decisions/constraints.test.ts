import { describe, expect, it } from 'vitest'
import { checkAgainst, normalizeAction } from './constraints'
import { contractFor } from './enforcement'
import { matchOption } from '../domain/labels'
import { matchWithin, TURNS_LIMIT_MS } from './pattern-match'
import { decisionRecord } from '../../test/support/decision-record'
import type { Constraint, DecisionRecord } from './decision'

function decision(key: string, constraints: Constraint[], extra: Partial<DecisionRecord> = {}): DecisionRecord {
  return decisionRecord(key, { constraints, ...extra })
}

const FORCE = decision('D-021', [{ kind: 'must_not', pattern: 'git push --force' }])

describe('checking actions and choices (R-CON-3)', () => {
  it('blocks a command matching a required must_not pattern, citing the decision', () => {
    const verdict = checkAgainst([FORCE], { action: 'git push --force origin main' })
    expect(verdict.allowed).toBe(false)
    expect(verdict.blocked_by).toHaveLength(1)
    expect(verdict.blocked_by[0]).toMatchObject({ key: 'D-021', enforce: 'required', rationale: 'because D-021' })
    expect(verdict.blocked_by[0]?.message).toContain('/git push --force/')
    expect(verdict.checked).toEqual(['D-021'])
  })

  it('quotes a long command by its start and length in the message, not whole', () => {
    const script = `cat > notes.md <<'EOF'\n${'a line of notes\n'.repeat(2000)}EOF\ngit push --force`
    const [blocked] = checkAgainst([FORCE], { action: script }).blocked_by
    expect(blocked?.message).toMatch(/^"cat > notes\.md <<'EOF' a line of notes a line .*… \(\d+ characters\)" matches the must_not pattern \/git push --force\//)
    expect(blocked?.message.length).toBeLessThan(800)
    // A short one whole, as before.
    expect(checkAgainst([FORCE], { action: 'git push --force' }).blocked_by[0]?.message).toBe('"git push --force" matches the must_not pattern /git push --force/')
  })

  it('quotes a long command cut between characters, counted as characters: no half emoji, no accent torn off', () => {
    // 299 letters, then a family emoji (five code points joined): cut before it, not within it.
    const family = `echo ${'a'.repeat(294)}👨‍👩‍👧 && git push --force`
    expect(checkAgainst([FORCE], { action: family }).blocked_by[0]?.message).toMatch(new RegExp(`^"echo a{294}… \\(${[...family].length} characters\\)"`))
    // A letter and its combining accent stay together.
    const accents = `echo ${'e\u0301'.repeat(200)} && git push --force`
    expect(checkAgainst([FORCE], { action: accents }).blocked_by[0]?.message).toMatch(new RegExp(`^"echo (?:e\u0301){147}… \\(${[...accents].length} characters\\)"`))
    // 200 emoji (400 UTF-16 units) and the command: within 300 characters, quoted whole.
    const emoji = `echo ${'😀'.repeat(200)} && git push --force`
    expect(checkAgainst([FORCE], { action: emoji }).blocked_by[0]?.message).toBe(`"${emoji}" matches the must_not pattern /git push --force/`)
  })

  it('allows a command the pattern does not match', () => {
    expect(checkAgainst([FORCE], { action: 'git push origin main' })).toMatchObject({ allowed: true, blocked_by: [], warnings: [] })
  })

  it('compares commands with white space runs made one', () => {
    expect(normalizeAction('  git   push\t--force  ')).toBe('git push --force')
    expect(checkAgainst([FORCE], { action: 'cd repo &&  git  push  --force' }).allowed).toBe(false)
  })

  it('only warns for an advisory decision', () => {
    const advisory = decision('D-030', [{ kind: 'must_not', pattern: 'rm -rf' }], { enforce: 'advisory' })
    const verdict = checkAgainst([advisory], { action: 'rm -rf build' })
    expect(verdict.allowed).toBe(true)
    expect(verdict.warnings.map((w) => w.key)).toEqual(['D-030'])
  })

  it('checks a choice at a point against must, must_not and prefer options', () => {
    const at = { points: ['complexity-tier'], task: null, path: null, stage: null }
    const must = decision('D-1', [{ kind: 'must', option: 'Tier L' }], { scope: at })
    const never = decision('D-2', [{ kind: 'must_not', option: 'Tier S' }], { scope: at })
    const prefer = decision('D-3', [{ kind: 'prefer', option: 'Tier M' }], { scope: at })
    expect(checkAgainst([must, never, prefer], { choice: 'tier l (Recommended)', point: 'complexity-tier' })).toMatchObject({
      allowed: true,
      warnings: [{ key: 'D-3' }],
    })
    const broken = checkAgainst([must, never, prefer], { choice: 'Tier S', point: 'complexity-tier' })
    expect(broken.allowed).toBe(false)
    expect(broken.blocked_by.map((b) => b.key)).toEqual(['D-1', 'D-2'])
    expect(checkAgainst([must, never], { choice: 'Tier S', point: 'model-selection' }).allowed).toBe(true)
  })

  it('compares a choice with an option in any case as a user types it: STRASSE is Straße, izmir is İzmir', () => {
    const at = { points: ['route'], task: null, path: null, stage: null }
    const never = decision('D-4', [{ kind: 'must_not', option: 'Straße' }], { scope: at })
    const city = decision('D-5', [{ kind: 'must_not', option: 'İzmir' }], { scope: at })
    expect(checkAgainst([never, city], { choice: 'STRASSE', point: 'route' }).blocked_by.map((b) => b.key)).toEqual(['D-4'])
    expect(checkAgainst([never, city], { choice: 'izmir', point: 'route' }).blocked_by.map((b) => b.key)).toEqual(['D-5'])
    expect(checkAgainst([never, city], { choice: 'Weg', point: 'route' }).allowed).toBe(true)
  })

  it('blocks a choice at no point where a must_not or a limit blocks it at one of the points, never by a must (R-CON-3: point?)', () => {
    const at = (...points: string[]) => ({ scope: { points, task: null, path: null, stage: null } })
    const decisions = [
      decision('D-1', [{ kind: 'must_not', option: 'Tier S' }], at('complexity-tier', 'review-tier')),
      decision('D-2', [{ kind: 'must', option: 'Tier L' }, { kind: 'must_not', option: 'Kafka' }], at('complexity-tier')),
      decision('D-3', [{ kind: 'limit', option: 'replicas', value: 3 }], at('replicas')),
      decision('D-4', [{ kind: 'limit', value: 8 }]),
      decision('D-5', [{ kind: 'must_not', option: 'Redis' }, { kind: 'prefer', option: 'Memcached' }], at('cache')),
    ]
    const defaultAt = (point: string) => (point === 'complexity-tier' ? 'Tier M' : undefined)
    const keys = (verdict: { blocked_by: Array<{ key: string; constraint: Constraint }> }, but?: 'must') =>
      verdict.blocked_by.filter((b) => b.constraint.kind !== but).map((b) => b.key)
    const points = ['complexity-tier', 'review-tier', 'replicas', 'cache']
    for (const choice of ['S', 'Tier S', 'tier s (Recommended)', 'Kafka', 'Redis', 'Redis Cluster', '5', '5 replicas', '9', '3', 'Tier L', ['Tier L', '9']]) {
      const atNoPoint = checkAgainst(decisions, { choice }, undefined, defaultAt)
      const atSome = new Set(points.flatMap((point) => keys(checkAgainst(decisions, { choice, point }, undefined, defaultAt), 'must')))
      expect(keys(atNoPoint), JSON.stringify(choice)).toEqual(decisions.map((d) => d.key).filter((key) => atSome.has(key)))
      expect(atNoPoint.warnings, JSON.stringify(choice)).toEqual([])
    }
    const blocked = (choice: string) => keys(checkAgainst(decisions, { choice }, undefined, defaultAt))
    expect([blocked('S'), blocked('Kafka'), blocked('Memcached'), blocked('9'), blocked('Tier L')]).toEqual([['D-1'], ['D-2'], [], ['D-3', 'D-4'], []])
  })

  it('reads a choice in other words among the options named at the point, the policy default among them: none where two would do', () => {
    const at = { points: ['complexity-tier'], task: null, path: null, stage: null }
    const never = decision('D-2', [{ kind: 'must_not', option: 'Tier S' }], { scope: at })
    const retries = decision('D-6', [{ kind: 'limit', option: 'tier', value: 3 }], { scope: at })
    const check = (choice: string, pointDefault?: string) => checkAgainst([never, retries], { choice, point: 'complexity-tier' }, undefined, () => pointDefault)
    // Tier S alone is named (D-6's limit names what it counts, no option): nothing is read in
    // other words; beside the policy's Tier M, S is Tier S, and Tier is neither.
    expect(check('S').allowed).toBe(true)
    expect(check('Tier').allowed).toBe(true)
    expect(check('S', 'Tier M').blocked_by.map((b) => b.key)).toEqual(['D-2'])
    expect(check('Tier', 'Tier M').allowed).toBe(true)
    // Shortened words name nothing.
    expect(check('Sm', 'Tier M').allowed).toBe(true)
  })

  it('reads a choice among the options offered as the recommendation offering them does: it blocks what contractFor rules out', () => {
    const at = (point: string) => ({ points: [point], task: null, path: null, stage: null })
    const cases: Array<{ decisions: DecisionRecord[]; point: string; offered: string[] }> = [
      { decisions: [decision('D-1', [{ kind: 'must_not', option: 'Sonnet' }], { scope: at('model') })], point: 'model', offered: ['Claude Opus 4.1', 'Claude Sonnet 4.5', 'Claude Haiku 4.5'] },
      { decisions: [decision('D-2', [{ kind: 'must_not', option: 'Redis' }, { kind: 'prefer', option: 'Memcached' }], { scope: at('cache') })], point: 'cache', offered: ['Redis', 'Redis Cluster', 'Memcached'] },
      // Two options only folding makes one: the choice in another case of one is that one, as a choice is resolved.
      { decisions: [decision('D-3', [{ kind: 'must_not', option: 'Maße' }], { scope: at('unit') })], point: 'unit', offered: ['Masse', 'Maße'] },
    ]
    for (const { decisions, point, offered } of cases) {
      const ruledOut = contractFor(decisions, offered.map((option) => ({ option })), undefined).ruledOut
      for (const choice of [...offered, ...offered.map((o) => o.toLocaleUpperCase('en'))]) {
        const kept = !ruledOut.has(matchOption(choice, offered) as string)
        expect(checkAgainst(decisions, { choice, point, offered }).allowed, choice).toBe(kept)
      }
    }
    // Read without them, MASSE is Maße as labels are compared in any case.
    expect(checkAgainst(cases[2]?.decisions ?? [], { choice: 'MASSE', point: 'unit' }).allowed).toBe(false)
  })

  it('reads a choice none of the options offered is as it reads one without them', () => {
    const at = { points: ['complexity-tier'], task: null, path: null, stage: null }
    const never = decision('D-2', [{ kind: 'must_not', option: 'Tier S' }], { scope: at })
    const check = (choice: string) => checkAgainst([never], { choice, point: 'complexity-tier', offered: ['S', 'M', 'L'] }, undefined, () => 'Tier M')
    expect(check('Tier S (Recommended)').blocked_by.map((b) => b.message)).toEqual(['at complexity-tier "Tier S" must not be chosen'])
    expect(check('Small').allowed).toBe(true)
  })

  it('reads a choice named twice in an array once, as an observation keeps it: said once, blocked once', () => {
    const at = { points: ['complexity-tier'], task: null, path: null, stage: null }
    const never = decision('D-2', [{ kind: 'must_not', option: 'Tier S' }], { scope: at })
    const large = decision('D-3', [{ kind: 'must', option: 'Tier L' }], { scope: at })
    const limit = decision('D-4', [{ kind: 'limit', value: 3 }], { scope: at })
    const messages = checkAgainst([never, large, limit], { choice: ['S', 'S ', '5', '5'], point: 'complexity-tier' }, undefined, () => 'Tier M').blocked_by.map((b) => b.message)
    expect(messages).toEqual([
      'at complexity-tier "Tier S" must not be chosen (the choice "S" is it in other words)',
      'at complexity-tier the choice must include "Tier L", not only "S", "5"',
      '5 is over the limit 3',
    ])
  })

  it('reads a choice named twice in other cases once where the options offered name it so: blocked once', () => {
    const limit = decision('D-4', [{ kind: 'limit', value: 1_000_000 }], { scope: { points: ['users'], task: null, path: null, stage: null } })
    const checked = checkAgainst([limit], { choice: ['2M users', '2m users'], point: 'users', offered: ['2M users', '1k users'] })
    expect(checked.blocked_by.map((b) => b.message)).toEqual(['2000000 is over the limit 1000000'])
  })

  it('blocks a number over a limit', () => {
    const limit = decision('D-9', [{ kind: 'limit', option: 'retries', value: 3 }])
    expect(checkAgainst([limit], { choice: '5', point: 'retries' }).allowed).toBe(false)
    expect(checkAgainst([limit], { choice: '3', point: 'retries' }).allowed).toBe(true)
    expect(checkAgainst([limit], { choice: 'many', point: 'retries' }).allowed).toBe(true)
  })

  it('reads units only for a limit bound to the point: one bound to none is checked at every point, where units count other things', () => {
    const global = decision('D-8', [{ kind: 'limit', value: 3 }])
    for (const choice of ['16 GB RAM', '10 min', '4K video']) {
      expect(checkAgainst([global], { choice, point: 'memory' }).allowed, choice).toBe(true)
    }
    expect(checkAgainst([global], { choice: '5', point: 'memory' }).allowed).toBe(false)
  })

  it('reads a number with its unit as that number, and leaves ranges and names alone', () => {
    const limit = decision('D-9', [{ kind: 'limit', option: 'replicas', value: 3 }], { scope: { points: ['replicas'], task: null, path: null, stage: null } })
    for (const choice of ['5 replicas', '8 GB', '16GB', '90%', '4 Ärzte', '1e5 replicas', '1e309GB', '4E0 nodes']) {
      expect(checkAgainst([limit], { choice, point: 'replicas' }).allowed, choice).toBe(false)
    }
    for (const choice of ['3 replicas', '1 replica', '3-5 people', 'Tier 5', 'v5', '5 replicas, 2 zones', '2 of 5', '2e0 replicas', '1ea']) {
      expect(checkAgainst([limit], { choice, point: 'replicas' }).allowed, choice).toBe(true)
    }
  })

  it('reads thousands as written, 10k and 1,000 users, and an ordinal as no number', () => {
    const limit = decision('D-9', [{ kind: 'limit', option: 'requests per second', value: 5000 }], { scope: { points: ['rps'], task: null, path: null, stage: null } })
    const message = (choice: string) => checkAgainst([limit], { choice, point: 'rps' }).blocked_by.map((b) => b.message)
    expect(message('10k')).toEqual(['10000 is over the limit 5000 (requests per second)'])
    expect(message('10K rps')).toEqual(['10000 is over the limit 5000 (requests per second)'])
    expect(message('2.5k')).toEqual([])
    expect(message('1M')).toEqual(['1000000 is over the limit 5000 (requests per second)'])
    expect(message('12,000')).toEqual(['12000 is over the limit 5000 (requests per second)'])
    expect(message('6,500 users')).toEqual(['6500 is over the limit 5000 (requests per second)'])
    // A decimal comma or a list is no thousands: '1,5' and '5,6' stay no number.
    expect(message('1,5')).toEqual([])
    const three = decision('D-10', [{ kind: 'limit', value: 3 }])
    for (const choice of ['5th option', '4th', '10th percentile']) {
      expect(checkAgainst([three], { choice, point: 'x' }).allowed, choice).toBe(true)
    }
  })

  it('reads a choice under a limit as a label is matched: an annotated option is that option', () => {
    const limit = decision('D-9', [{ kind: 'limit', value: 3 }], { scope: { points: ['retries'], task: null, path: null, stage: null } })
    for (const choice of ['5 (Recommended)', '5 (80% of recent choices)', ' 5 ']) {
      expect(checkAgainst([limit], { choice, point: 'retries' }).blocked_by.map((b) => b.message)).toEqual(['5 is over the limit 3'])
    }
    expect(checkAgainst([limit], { choice: '3 (Recommended)', point: 'retries' }).allowed).toBe(true)
  })

  it('blocks a number too large for a double (it reads as Infinity), with or without its unit, and names it as written', () => {
    const bound = decision('D-9', [{ kind: 'limit', value: 3 }], { scope: { points: ['retries'], task: null, path: null, stage: null } })
    const global = decision('D-8', [{ kind: 'limit', value: 3 }])
    const huge = `1${'0'.repeat(400)}`
    for (const choice of ['1e309', '1.7976931348623157e309', huge]) {
      expect(checkAgainst([bound], { choice, point: 'retries' }).blocked_by.map((b) => b.message), choice).toEqual([`${choice} is over the limit 3`])
      expect(checkAgainst([global], { choice, point: 'other' }).allowed, choice).toBe(false)
    }
    expect(checkAgainst([bound], { choice: `${huge} replicas`, point: 'retries' }).allowed).toBe(false)
    // Below the limit however large, and the word: no number over it.
    for (const choice of ['-1e309', `-${huge}`, 'Infinity']) {
      expect(checkAgainst([bound], { choice, point: 'retries' }).allowed, choice).toBe(true)
    }
  })
})

describe('a must_not pattern that cannot be decided in time', () => {
  it('only warns, naming the pattern, even for a required decision; the other patterns still count', () => {
    const slow = decision('D-030', [{ kind: 'must_not', pattern: '(a+)+$' }])
    const undecided = (patterns: readonly string[]) => patterns.map((p) => (p === '(a+)+$' ? undefined : p === 'git push --force' ? 0 : -1))
    const verdict = checkAgainst([slow, FORCE], { action: 'git push --force aaaa!' }, undecided)
    expect(verdict.allowed).toBe(false)
    expect(verdict.blocked_by.map((v) => v.key)).toEqual(['D-021'])
    expect(verdict.warnings).toHaveLength(1)
    expect(verdict.warnings[0]).toMatchObject({ key: 'D-030', enforce: 'required' })
    expect(verdict.warnings[0]?.message).toContain('could not be checked against the must_not pattern /(a+)+$/')
    expect(checkAgainst([slow], { action: 'ls' }, undecided)).toMatchObject({ allowed: true, blocked_by: [] })
  })

  it('decides a required decision’s fast pattern first, however many slow advisory patterns come before it', () => {
    // Two advisory decisions of 50 slow patterns each use up the turns of a check (0.4 s) before
    // a required pattern listed after them is reached: it would stay undecided, and the guard would
    // let the force push through.
    const sloppy = (key: string) =>
      decision(key, Array.from({ length: 50 }, (_, i) => ({ kind: 'must_not' as const, pattern: `(a+)+$|x{${i}}y${key}` })), { enforce: 'advisory' })
    const force = decision('D-090', [{ kind: 'must_not', pattern: 'git push --force' }])
    // The turns' limit counted on a clock that passes it at the fourth turn: the required pattern's
    // turns come before it, whatever the load of the machine. Turns of 200 ms and more, not the
    // service's 5 ms first: a turn is real time, and on a machine loaded ten deep a fast pattern's
    // 5 ms turn stalled, which this clock leaves no later turn to make up for.
    let reads = 0
    const match = matchWithin(20, () => reads++ * (TURNS_LIMIT_MS / 4), [200, 400, 800])
    const verdict = checkAgainst([sloppy('D-010'), sloppy('D-011'), force], { action: `git push --force origin main; echo ${'a'.repeat(40)}!` }, match)
    expect(verdict.allowed).toBe(false)
    expect(verdict.blocked_by.map((v) => v.key)).toEqual(['D-090'])
  })
})
