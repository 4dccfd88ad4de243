import { describe, expect, it } from 'vitest'
import { explainPoint, type PolicyPoint } from './explain-point'

const NOW = new Date('2026-07-01T10:00:00.000Z')

/** explainPoint where nothing is held: no observation, no decisions, no recommendation to make. */
function nothingHeld(policyPoint?: (point: string) => PolicyPoint | undefined) {
  const deps = {
    observationsAt: async () => [],
    recommend: async () => {
      throw new Error('no recommendation is made where nothing is held')
    },
    decisions: undefined,
    ...(policyPoint === undefined ? {} : { policyPoint }),
  }
  return (point: string, replay = false) => explainPoint(deps, { user: 'alice', point, asOf: NOW, replay })
}

describe('explainPoint where nothing is held at the point (R-CON-5)', () => {
  const TIER: PolicyPoint = { static_default: 'Tier M', precondition: 'the change is of typical scope', min_observations: 5 }
  const policy = (point: string) => (point === 'complexity-tier' ? TIER : undefined)

  it('says, at a point the policy names, what a recommendation there gives: its static default, as the option describes it', async () => {
    await expect(nothingHeld(policy)('complexity-tier')).rejects.toMatchObject({
      code: 'point_not_found',
      status: 404,
      message:
        'nothing is known of point complexity-tier for user alice: no observation and no decision is held there, so a recommendation asked there gives ' +
        'the policy\'s static default, Tier M: "Recommended when the change is of typical scope — based on static default, 5 observations needed for personalization"',
      issues: [
        {
          path: 'point',
          message: 'no observation and no decision at this point; the question and its options, asked of POST /v1/recommendations (or the MCP tool recommend, or why), give the recommendation there',
        },
      ],
    })
  })

  it('says the first option where the policy names the point without a static default', async () => {
    const open = () => ({ static_default: undefined, precondition: 'there is little history', min_observations: 3 })
    await expect(nothingHeld(open)('effort-level')).rejects.toThrow(
      'so a recommendation asked there gives the first option its question offers: "Recommended when there is little history — based on static default, 3 observations needed for personalization"',
    )
  })

  it('says, in a replay, that nothing was held then', async () => {
    await expect(nothingHeld(policy)('complexity-tier', true)).rejects.toThrow(
      `nothing is known of point complexity-tier for user alice as of ${NOW.toISOString()}: no observation and no decision was held there then, so a recommendation asked there as of then gives the policy's static default, Tier M`,
    )
  })

  it('says nothing is known alone at a point the policy does not name, or with no policy given', async () => {
    for (const asked of [nothingHeld(policy), nothingHeld()]) {
      await expect(asked('tier')).rejects.toMatchObject({
        message: 'nothing is known of point tier for user alice',
        issues: [{ path: 'point', message: 'no observation and no decision at this point' }],
      })
    }
  })
})
