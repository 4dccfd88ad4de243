import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { outsideEnv } from './support/processes'
import { BIN } from './support/spawn-service'
import { tempDir } from './support/temp-dir'

/**
 * `npm start` runs the service under a shell that does not pass npm's signals on: the service is
 * a grandchild of what was killed. A node process that spawns it (its output going straight to
 * ours, as npm's shell passes its own) stands for that shell here.
 */
function startUnderParent(env: NodeJS.ProcessEnv) {
  const dataDir = tempDir('dm-npm-start-')
  const script = `require('node:child_process').spawn(process.execPath, ${JSON.stringify([BIN, 'serve', '--port', '0', '--data', dataDir])}, { stdio: ['ignore', 'inherit', 'inherit'] }); setInterval(() => {}, 1000)`
  const parent = spawn(process.execPath, ['-e', script], { env: { ...outsideEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: string[] = []
  const events = (name: string) => lines.filter((l) => l.includes(`"event":"${name}"`))
  // The pipe closes once every writer is gone: the parent, and the service it started.
  const closed = new Promise<void>((done) => parent.stdout.once('close', () => done()))
  const listening = new Promise<void>((done) => {
    createInterface({ input: parent.stdout }).on('line', (line) => {
      lines.push(line)
      if (line.includes('"event":"listening"')) done()
    })
  })
  return { parent, lines, events, closed, listening }
}

describe('serve under npm start', () => {
  it('stops cleanly when npm start (its parent) is gone, as on SIGTERM, so that its port and store are let go', async () => {
    const run = startUnderParent({ npm_lifecycle_event: 'start' })
    await run.listening
    run.parent.kill('SIGKILL')
    await run.closed
    expect(run.events('parent-gone')).toHaveLength(1)
    expect(run.events('stopped')).toHaveLength(1)
  })
})
