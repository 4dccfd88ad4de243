import { describe, expect, it } from 'vitest'
import { editDistance, nearestNames } from './edit-distance'

describe('editDistance', () => {
  it('counts a letter added, dropped or changed, and two side by side swapped, as one each', () => {
    expect(editDistance('export', 'export')).toBe(0)
    expect(editDistance('expor', 'export')).toBe(1)
    expect(editDistance('gaurd', 'guard')).toBe(1)
    expect(editDistance('prefrences', 'preferences')).toBe(1)
    expect(editDistance('', 'why')).toBe(3)
  })
})

describe('nearestNames', () => {
  const commands = ['serve', 'toggle', 'hook', 'guard', 'why', 'preferences', 'export', 'forget', 'help', 'version']

  it('names the nearest of a slip, the same but for case first', () => {
    expect(nearestNames('prefrences', commands)).toEqual(['preferences'])
    expect(nearestNames('Serve', commands)).toEqual(['serve'])
    expect(nearestNames('hlep', commands)).toEqual(['help'])
  })

  it('names none for a name too short or too far for a slip: --on is no slip of --off', () => {
    expect(nearestNames('x', commands)).toEqual([])
    expect(nearestNames('bogus', commands)).toEqual([])
    expect(nearestNames('--on', ['--off', '--show'])).toEqual([])
  })

  it('names every one as near', () => {
    expect(nearestNames('--of', ['--on', '--off', '--show'])).toEqual(['--on', '--off'])
  })
})
