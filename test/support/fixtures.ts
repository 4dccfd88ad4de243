import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The Claude Code hook payloads, copied from the workplace's shared/fixtures/claude-code/ so that a clone anywhere has them. */
export const CLAUDE_CODE_FIXTURES = fileURLToPath(new URL('../fixtures/claude-code/', import.meta.url))

/** A fresh copy of one fixture, e.g. `claudeCodeFixture('post-tool-use-multi')`. */
export function claudeCodeFixture(name: string): any {
  return JSON.parse(readFileSync(`${CLAUDE_CODE_FIXTURES}${name}.json`, 'utf8'))
}
