import type { Policy } from './policy'

export type ExpertiseLevel = 'beginner' | 'intermediate' | 'expert'
export type Strength = 'strong' | 'medium' | 'weak' | 'neutral'

/** Expertise from the number of distinct sessions (R-SES-2): beginner below 10, expert above 50. */
export function expertiseLevel(sessions: number, policy: Policy): ExpertiseLevel {
  if (sessions < policy.expertise.beginner_below) return 'beginner'
  if (sessions > policy.expertise.expert_above) return 'expert'
  return 'intermediate'
}

const BY_LEVEL: Record<ExpertiseLevel, Strength> = {
  beginner: 'strong',
  intermediate: 'medium',
  expert: 'weak',
}

/**
 * Strength of a recommendation (R-REC-6): by expertise, `neutral` on sensitive points and when
 * personalization is off, and never stronger than the evidence: a learned majority, or a static
 * default the user's choices so far went against, held with low confidence is at most `medium`.
 */
export function recommendationStrength(input: {
  level: ExpertiseLevel
  sensitive: boolean
  personalization: boolean
  weakEvidence: boolean
}): Strength {
  if (input.sensitive || !input.personalization) return 'neutral'
  const strength = BY_LEVEL[input.level]
  if (input.weakEvidence && strength === 'strong') return 'medium'
  return strength
}
