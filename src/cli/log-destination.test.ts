import { afterEach, describe, expect, it, vi } from 'vitest'
import { batchedDestination, type WriteBytes } from './log-destination'

/** A file descriptor whose writes the test completes by hand: how many bytes, or an error. */
function heldWrites() {
  const calls: Array<{ text: string; done: (error: NodeJS.ErrnoException | null, written: number) => void }> = []
  const writeBytes: WriteBytes = (bytes, done) => void calls.push({ text: bytes.toString('utf8'), done })
  return { calls, writeBytes }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

afterEach(() => {
  vi.useRealTimers()
})

describe('the log destination', () => {
  it('writes the lines of one turn of the event loop in one write, in order, and those logged meanwhile in the next', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, writeBytes)
    log.write('a\n')
    log.write('b\n')
    expect(calls).toHaveLength(0)
    await turn()
    expect(calls.map((c) => c.text)).toEqual(['a\nb\n'])
    log.write('c\n')
    log.write('é\n')
    await turn()
    expect(calls).toHaveLength(1)
    calls[0]?.done(null, 4)
    expect(calls.map((c) => c.text)).toEqual(['a\nb\n', 'c\né\n'])
    calls[1]?.done(null, Buffer.byteLength('c\né\n'))
    let ended = false
    await log.end().then(() => (ended = true))
    expect(ended).toBe(true)
  })

  it('goes on with the rest after a short write', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, writeBytes)
    log.write('first line\n')
    await turn()
    calls[0]?.done(null, 6)
    expect(calls.map((c) => c.text)).toEqual(['first line\n', 'line\n'])
  })

  it('waits, on end, for the write in flight and for the lines still to go', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, writeBytes)
    log.write('a\n')
    await turn()
    log.write('b\n')
    let ended = false
    const ending = log.end().then(() => (ended = true))
    await turn()
    expect(ended).toBe(false)
    calls[0]?.done(null, 2)
    await turn()
    expect(ended).toBe(false)
    calls[1]?.done(null, 2)
    await ending
    expect(calls.map((c) => c.text)).toEqual(['a\n', 'b\n'])
  })

  it('tries again a moment later when the descriptor is full (EAGAIN)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, writeBytes)
    log.write('a\n')
    await turn()
    calls[0]?.done(Object.assign(new Error('full'), { code: 'EAGAIN' }), 0)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(10)
    expect(calls.map((c) => c.text)).toEqual(['a\n', 'a\n'])
  })

  it('drops what waits, and later lines, once the reader is gone, and still ends', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, writeBytes)
    log.write('a\n')
    await turn()
    log.write('b\n')
    calls[0]?.done(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }), 0)
    log.write('c\n')
    await log.end()
    await turn()
    expect(calls).toHaveLength(1)
  })
})
