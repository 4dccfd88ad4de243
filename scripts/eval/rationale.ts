import type { Policy } from '../../src/domain/policy'

/** Why each default of the policy is what it is, as the evaluation found (markdown list items). */
export function policyRationale(policy: Policy): string[] {
  return [
    `- \`decay.alpha\` = ${policy.decay.alpha}.`,
  ]
}
