import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ownDescription } from './labels'
import { withRationale } from './question-plan'

/** Pieces of an agent's description: words, every sentence end, colons, commas, spaces, and words of a rationale. */
const piece = fc.oneof(
  fc.constantFrom(
    'Fast', 'small teams', ' ', '  ', '\n', '.', '!', '?', '\u2026', '。', '！', '？', '．', '؟', '।', '॥', ':', '：', ',', ';', '、', '，', '；', '،', '؛',
    'Recommended when ', ' \u2014 ', 'based on ', '50% of recent choices', 'static default, ', '(', ')',
  ),
  fc.string({ maxLength: 3 }),
)
const description = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''))
const precondition = fc.constantFrom('the team is small', 'latency matters: p99 < 10ms', 'a — b', 'it is Friday.')
const rationale = fc.oneof(
  fc.tuple(precondition, fc.integer({ min: 1, max: 100 })).map(([p, n]) => `Recommended when ${p} \u2014 based on ${n}% of recent choices`),
  precondition.map((p) => `Recommended when ${p} \u2014 based on static default, personalization is off for this session`),
  precondition.map((p) => `Recommended when ${p} \u2014 based on advisory decision use-postgres, 3 observations needed for personalization`),
  precondition.map((p) => `Recommended when ${p} \u2014 required by decision use-postgres: Payroll data stays in the EU.`),
  precondition.map((p) => `Recommended when ${p} \u2014 each selected in at least 62.5% of recent choices`),
)

describe('a rationale added to a description (withRationale), then taken away (ownDescription)', () => {
  it('gives back the agent’s text, and the same question when planned again', () => {
    fc.assert(
      fc.property(description, rationale, (own, why) => {
        // Only the agent's own text: one that already ends in a rationale of this service's is taken apart anyway.
        fc.pre(ownDescription(own) === own)
        const planned = withRationale(own, why)
        const back = ownDescription(planned)
        expect(withRationale(back ?? '', why)).toBe(planned)
        const text = own.replace(/[\s,;、，；،؛]+$/, '')
        if (/[^.!?\u2026。！？．؟।॥\s,;、，；،؛:：]/.test(text)) expect(back?.startsWith(text)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})
