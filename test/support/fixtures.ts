import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The shared Claude Code hook payloads (`../shared/fixtures/claude-code/` from the project root). */
export const CLAUDE_CODE_FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/claude-code/', import.meta.url))

/** A fresh copy of one fixture, e.g. `claudeCodeFixture('post-tool-use-multi')`. */
export function claudeCodeFixture(name: string): any {
  return JSON.parse(readFileSync(`${CLAUDE_CODE_FIXTURES}${name}.json`, 'utf8'))
}
