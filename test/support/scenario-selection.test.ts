import { describe, expect, it } from 'vitest'
import { selectScenarios } from './scenario-selection'

const NAMES = ['0-print-mode', '1-single-no-history', '2-single-auto-resolved', '10-tty-one-answered-one-asked', '11-guard-force-push', '12-one-question-refused', 'mcp-1-local-scope', 'mcp-2-project-scope']
const SCENARIOS = NAMES.map((name) => ({ name }))
const names = (only: string[]) => selectScenarios(SCENARIOS, only).map((s) => s.name)

describe('the SCENARIO arguments of claude-code-e2e', () => {
  it('pick a scenario where they name it whole: 1 is scenario 1 alone, not 10, 11 and 12', () => {
    expect(names(['1'])).toEqual(['1-single-no-history'])
    expect(names(['12'])).toEqual(['12-one-question-refused'])
    expect(names(['1', '11'])).toEqual(['1-single-no-history', '11-guard-force-push'])
  })

  it('pick every scenario whose name begins with them as whole words, as the usage line says (mcp- for the MCP ones)', () => {
    expect(names(['mcp-'])).toEqual(['mcp-1-local-scope', 'mcp-2-project-scope'])
    expect(names(['mcp'])).toEqual(['mcp-1-local-scope', 'mcp-2-project-scope'])
    expect(names(['mcp-1'])).toEqual(['mcp-1-local-scope'])
    expect(names(['1-single'])).toEqual(['1-single-no-history'])
    expect(names(['11-guard-force-push'])).toEqual(['11-guard-force-push'])
    expect(names(['1-sin'])).toEqual([])
  })

  it('pick them all when none is given', () => {
    expect(names([])).toEqual(NAMES)
  })
})
