import { describe, expect, it } from 'vitest'
import { MCP_HELP } from './mcp'

describe('mcp --help', () => {
  it('names the store opened when no service runs as the server opens it: $DECISION_MEMORY_DATA, else the checkout\'s data', () => {
    const text = MCP_HELP.replace(/\s+/g, ' ')
    expect(text).toContain("when none runs, it opens $DECISION_MEMORY_DATA, else this checkout's ./data")
  })
})
