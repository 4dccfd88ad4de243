/**
 * Whether a SCENARIO argument of scripts/claude-code-e2e.ts picks the scenario so named: the name
 * begins with it as whole words, the name itself or a part of it up to a `-`. `1` picks
 * `1-single-no-history` alone, not `10-…`, `11-…` and `12-…`, which begin with its character but
 * not with its word; `mcp-` and `mcp` pick every MCP scenario, `mcp-1` the first of them.
 */
export function picks(prefix: string, name: string): boolean {
  if (!name.startsWith(prefix) || prefix === '') return false
  return name.length === prefix.length || prefix.endsWith('-') || name[prefix.length] === '-'
}

/** The scenarios the SCENARIO arguments pick, in their order; all of them when none is given. */
export function selectScenarios<T extends { name: string }>(scenarios: readonly T[], only: readonly string[]): T[] {
  return scenarios.filter((s) => only.length === 0 || only.some((prefix) => picks(prefix, s.name)))
}
