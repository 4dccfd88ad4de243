import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from './support/processes'

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

describe('a command whose service is there but does not answer', () => {
  it('says so in one line naming the URL and why, and exits 1, without a stack trace', async () => {
    // Takes each connection and drops it at once (a service crashing mid-request): fetch may wait out toggle's 5 s.
    const rude = createServer((socket) => socket.destroy())
    servers.push(rude)
    await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(rude.address() as { port: number }).port}`
    const result = await runCli(['toggle', '--session', 's-1', '--off'], { env: { DECISION_MEMORY_URL: url } })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(`^decision-memory toggle: PUT ${url}/v1/sessions/s-1/personalization: (no answer within 5 s \\(is the service busy or stuck\\?\\)|the request failed: .+)\\n$`),
    )
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
