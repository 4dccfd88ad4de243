import { describe, expect, it } from 'vitest'
import { matchPlainly, matchWithin, TURNS_LIMIT_MS } from './pattern-match'

// 2^40 ways to split the a's: run to its end, this pattern holds the thread for days.
const CATASTROPHIC = '(a+)+$'
const TEXT = `git push --force ${'a'.repeat(40)}!`

describe('must_not patterns under a time limit', () => {
  it('answers, for patterns that finish, the first text each matches (-1: none), as RegExp does', () => {
    const patterns = ['git push --force', '^rm -rf', 'a{40}!$', '(?:x|y)+z']
    expect(matchWithin(50)(patterns, [TEXT])).toEqual(matchPlainly(patterns, [TEXT]))
    expect(matchWithin(50)(patterns, [TEXT])).toEqual([0, -1, 0, -1])
    expect(matchWithin(50)([], [TEXT])).toEqual([])
  })

  it('tests each pattern against every form of a command, and names the first it matches', () => {
    const forms = ["git push '--force' origin main", 'git push --force origin main']
    expect(matchWithin(50)(['git push --force', "'--force'", 'nothing-like-this'], forms)).toEqual([1, 0, -1])
    expect(matchPlainly(['git push --force', "'--force'", 'nothing-like-this'], forms)).toEqual([1, 0, -1])
  })

  it('leaves undecided a pattern that backtracks past the limit, and still decides the others', () => {
    expect(matchWithin(20)(['git push', CATASTROPHIC, 'nothing-like-this'], [TEXT])).toEqual([0, undefined, -1])
  })

  it('can be used again after a pattern ran out of time', () => {
    const match = matchWithin(20)
    expect(match([CATASTROPHIC], [TEXT])).toEqual([undefined])
    expect(match(['force'], [TEXT])).toEqual([0])
  })
})

describe('a check with many slow patterns', () => {
  // The limit on a check's turns is counted on a clock of the test's: what is decided does not
  // depend on how loaded the machine is (a vm timeout is still real time: a slow pattern costs
  // 5 + 10 + 20 ms of it).
  const frozen = () => 0

  it('decides every pattern that finishes, wherever it stands among slow ones', () => {
    const slow = Array.from({ length: 12 }, (_, i) => `(a+)+$|x{${i}}y`)
    const answers = matchWithin(20, frozen)([...slow, 'git push', 'rm -rf'], [TEXT])
    expect(answers).toEqual([...Array(12).fill(undefined), 0, -1])
  })

  it('begins no turn once the check has had TURNS_LIMIT_MS, so that fifty slow patterns cannot hold the service', () => {
    // One decision may have 50 patterns: at about 35 ms a slow one, the check took 1.8 s.
    const slow = Array.from({ length: 50 }, (_, i) => `(a+)+$|x{${i}}y`)
    let reads = 0
    // Read once to set the limit, then once before each turn: this clock passes the limit at the
    // fourth turn, so the first three patterns get theirs and no other does.
    const clock = () => reads++ * (TURNS_LIMIT_MS / 4)
    // Turns long enough that the fast pattern's one turn does not stall on a loaded machine (50 ms
    // did, once, at a load of six on 2 cores); the two slow patterns before the limit cost 0.8 s.
    const answers = matchWithin(20, clock, [400, 800, 1600])([slow[0] as string, 'git push --force', ...slow.slice(1), 'force'], [TEXT])
    // The fast pattern at the end would have been decided (matched) in the first round.
    expect(answers).toEqual([undefined, 0, ...Array(50).fill(undefined)])
  })

  it('gives an urgent pattern all its turns before any other pattern its first', () => {
    // A clock that passes the limit at the fourth turn, as above.
    const clock = () => {
      let reads = 0
      return () => reads++ * (TURNS_LIMIT_MS / 4)
    }
    // The fast pattern has one turn at most before the limit: turns long enough that a loaded
    // machine does not stall it (5 ms did, with the test machine's load at 9 on 2 cores, and 50 ms
    // did once, in a full run at a load of 9). The slow pattern's turns cost 3.6 s in all.
    const turns = [300, 600, 1200]
    // In rounds, the fast pattern gets its first turn right after the slow one's first.
    expect(matchWithin(20, clock(), turns)([CATASTROPHIC, 'force'], [TEXT])).toEqual([undefined, 0])
    // Urgent, the slow one takes its three turns (a first turn that stalled on a loaded machine
    // gets its second at once), and the limit is reached before the other's first.
    expect(matchWithin(20, clock(), turns)([CATASTROPHIC, 'force'], [TEXT], 1)).toEqual([undefined, undefined])
  })

  it('decides an urgent pattern that finishes, wherever it stands among slow urgent ones', () => {
    // A required decision whose patterns are a dozen slow ones and then 'force': taken one pattern
    // at a time, the slow ones' three turns each (36) run past a limit reached at the twentieth
    // turn, and 'force' was never tried, which lets the command through.
    let reads = 0
    const clock = () => reads++ * (TURNS_LIMIT_MS / 20)
    const slow = Array.from({ length: 12 }, (_, i) => `(a+)+$|x{${i}}y`)
    // Turns long enough that 'force', which has one turn before the limit, does not stall on a loaded
    // machine: with 20 ms turns it did once in a full run beside a service under load (the slow
    // patterns' turns are real time, about 1.5 s in all here).
    expect(matchWithin(20, clock, [60, 120, 240])([...slow, 'force', 'nothing-like-this'], [TEXT], 13)).toEqual([...Array(12).fill(undefined), 0, undefined])
  })
})

describe('a check with thousands of patterns', () => {
  it('decides every pattern that finishes, thousands of them beside a slow one, before the turns run out', () => {
    // The must_not patterns of 2,000 required decisions, two each, and one slow pattern among them.
    const patterns = Array.from({ length: 4000 }, (_, i) => (i % 2 === 0 ? `^rm -rf /srv/app${i}( |$)` : `git push .*--force.*branch${i}`))
    patterns.splice(1234, 0, CATASTROPHIC)
    // A clock that passes the limit at the thousandth read: one read a turn, 1,000 turns at most.
    let reads = 0
    const clock = () => reads++ * (TURNS_LIMIT_MS / 1000)
    // Turns long enough that a pattern that finishes does not stall on a loaded machine.
    const answers = matchWithin(20, clock, [50, 100, 200])(patterns, [TEXT, 'rm -rf /srv/app3998'], patterns.length)
    expect(answers[1234]).toBeUndefined()
    const others = answers.filter((_, i) => i !== 1234)
    expect(others.filter((m) => m === undefined)).toHaveLength(0)
    expect(others).toEqual(matchPlainly(patterns.filter((_, i) => i !== 1234), [TEXT, 'rm -rf /srv/app3998']))
    expect(others.filter((m) => m !== undefined && m >= 0)).toHaveLength(1)
  })
})
