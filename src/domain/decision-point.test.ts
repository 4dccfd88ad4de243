import { beforeAll, describe, expect, it } from 'vitest'
import { loadPolicy } from '../config/load-policy'
import { decisionPointKey, hashPointKey, isSensitive, normalizeQuestion } from './decision-point'
import type { CompiledPolicy } from './policy'

let policy: CompiledPolicy
beforeAll(async () => {
  policy = await loadPolicy()
})

describe('decision point keys (R-CAP-4)', () => {
  it('uses point when given', () => {
    expect(decisionPointKey({ point: 'next-step', question: 'Which tier?', options: ['a'] }, policy)).toBe('next-step')
  })

  it('matches a policy rule on the header or the question', () => {
    expect(decisionPointKey({ header: 'Tier', question: 'Pick one', options: ['S', 'M'] }, policy)).toBe('complexity-tier')
    expect(decisionPointKey({ question: 'Which development methodology for this change?', options: ['TDD', 'DDD'] }, policy)).toBe(
      'development-methodology',
    )
  })

  it('hashes the normalised question and the sorted labels otherwise', () => {
    const a = decisionPointKey({ question: 'Choose the next step', options: ['Option A', 'Option B', 'Option C'] }, policy)
    const b = decisionPointKey({ question: '  choose the NEXT step? ', options: ['Option C (Recommended)', 'Option A', 'Option B'] }, policy)
    expect(a).toMatch(/^q-[0-9a-f]{20}$/)
    expect(b).toBe(a)
    expect(hashPointKey('Choose the next step', ['Option A', 'Option B'])).not.toBe(a)
  })

  it('normalises question text', () => {
    expect(normalizeQuestion('  Which   Tier?!  ')).toBe('which tier')
  })

  it('finds sensitive terms in the question or header', () => {
    expect(isSensitive({ question: 'How should we handle this security incident?', key: 'q-x' }, policy)).toBe(true)
    expect(isSensitive({ question: 'Which tier?', key: 'complexity-tier' }, policy)).toBe(false)
  })
})
