import { connect, createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { closedPort } from './processes'

/** What listening on `port` of loopback came to: 'listening' (then closed again) or the error's code. */
function listenOn(port: number): Promise<string> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve('listening')))
  })
}

/** What connecting to `port` of loopback came to: 'connected' or the error's code. */
function connectTo(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => (socket.destroy(), resolve('connected')))
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
  })
}

describe('closedPort', () => {
  it('gives a port that is refused, and that no server can be given while the test runs', async () => {
    // Released at once, the port was free: any listen(0) of the test files run beside this one
    // could be given it (1 in 7,000 of them), and the commands sent to it reached that service.
    const held = await closedPort()
    expect(await connectTo(held)).toBe('ECONNREFUSED')
    expect(await listenOn(held)).toBe('EADDRINUSE')
    expect(await connectTo(held)).toBe('ECONNREFUSED')
  })
})
