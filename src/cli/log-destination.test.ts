import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { batchedDestination, GATHER_CHARS, GATHER_MS, MAX_WAITING_CHARS, type WriteBytes } from './log-destination'

/** A file descriptor whose writes the test completes by hand: how many bytes, or an error. */
function heldWrites() {
  const calls: Array<{ text: string; done: (error: NodeJS.ErrnoException | null, written: number) => void }> = []
  const writeBytes: WriteBytes = (bytes, done) => void calls.push({ text: bytes.toString('utf8'), done })
  return { calls, writeBytes }
}

const later = (ms: number) => vi.advanceTimersByTimeAsync(ms)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the log destination', () => {
  it('writes the lines of GATHER_MS in one write, in order, and those logged meanwhile in the next, GATHER_MS later', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes })
    log.write('a\n')
    await later(GATHER_MS / 2)
    log.write('b\n')
    expect(calls).toHaveLength(0)
    await later(GATHER_MS / 2)
    expect(calls.map((c) => c.text)).toEqual(['a\nb\n'])
    log.write('c\n')
    log.write('é\n')
    await later(GATHER_MS)
    expect(calls).toHaveLength(1)
    calls[0]?.done(null, 4)
    expect(calls).toHaveLength(1)
    await later(GATHER_MS - 1)
    expect(calls).toHaveLength(1)
    await later(1)
    expect(calls.map((c) => c.text)).toEqual(['a\nb\n', 'c\né\n'])
    calls[1]?.done(null, Buffer.byteLength('c\né\n'))
    let ended = false
    await log.end().then(() => (ended = true))
    expect(ended).toBe(true)
  })

  it('writes at once once GATHER_CHARS wait', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes })
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < GATHER_CHARS / line.length - 1; i++) log.write(line)
    expect(calls).toHaveLength(0)
    log.write(line)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.text).toHaveLength(GATHER_CHARS)
  })

  it('goes on with the rest after a short write', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes })
    log.write('first line\n')
    await later(GATHER_MS)
    calls[0]?.done(null, 6)
    expect(calls.map((c) => c.text)).toEqual(['first line\n', 'line\n'])
  })

  it('writes, on end, what waits at once, and resolves once the write in flight and those lines are out', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes })
    log.write('a\n')
    const first = log.end()
    expect(calls.map((c) => c.text)).toEqual(['a\n'])
    calls[0]?.done(null, 2)
    await first
    log.write('b\n')
    await later(GATHER_MS)
    log.write('c\n')
    let ended = false
    const ending = log.end().then(() => (ended = true))
    await later(0)
    expect(ended).toBe(false)
    calls[1]?.done(null, 2)
    expect(calls.map((c) => c.text)).toEqual(['a\n', 'b\n', 'c\n'])
    await later(0)
    expect(ended).toBe(false)
    calls[2]?.done(null, 2)
    await ending
  })

  it('tries again a moment later when the descriptor is full (EAGAIN)', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes })
    log.write('a\n')
    await later(GATHER_MS)
    calls[0]?.done(Object.assign(new Error('full'), { code: 'EAGAIN' }), 0)
    expect(calls).toHaveLength(1)
    await later(10)
    expect(calls.map((c) => c.text)).toEqual(['a\n', 'a\n'])
  })

  it('drops what waits, and later lines, once the reader is gone, and still ends', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes })
    log.write('a\n')
    await later(GATHER_MS)
    log.write('b\n')
    calls[0]?.done(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }), 0)
    log.write('c\n')
    await log.end()
    await later(GATHER_MS)
    expect(calls).toHaveLength(1)
  })

  it('drops the lines of a write that finds the disk full, and goes on, saying how many, once there is room again', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes, droppedLine: (count) => `dropped ${count}\n` })
    log.write('a\n')
    log.write('b\n')
    await later(GATHER_MS)
    calls[0]?.done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), 0)
    log.write('c\n')
    await later(GATHER_MS)
    calls[1]?.done(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), 0)
    log.write('d\n')
    await later(GATHER_MS)
    calls[2]?.done(null, 'd\n'.length)
    await later(GATHER_MS)
    expect(calls.map((c) => c.text)).toEqual(['a\nb\n', 'c\n', 'd\n', 'dropped 3\n'])
    calls[3]?.done(null, 'dropped 3\n'.length)
    await log.end()
  })

  it('drops the lines past MAX_WAITING_CHARS behind a write that does not finish, and says how many in their place', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes, droppedLine: (count) => `dropped ${count}\n` })
    log.write('stuck\n')
    await later(GATHER_MS)
    const line = `${'x'.repeat(1023)}\n`
    const room = MAX_WAITING_CHARS / line.length
    for (let i = 0; i < room + 3; i++) log.write(line)
    calls[0]?.done(null, 'stuck\n'.length)
    expect(calls).toHaveLength(2)
    expect(calls[1]?.text).toBe(line.repeat(room))
    log.write('after\n')
    calls[1]?.done(null, MAX_WAITING_CHARS)
    await later(GATHER_MS)
    expect(calls[2]?.text).toBe('dropped 3\nafter\n')
  })

  it('says on end how many lines were dropped, when none came after them', async () => {
    const { calls, writeBytes } = heldWrites()
    const log = batchedDestination(1, { writeBytes, droppedLine: (count) => `dropped ${count}\n` })
    log.write('stuck\n')
    await later(GATHER_MS)
    for (let i = 0; i < MAX_WAITING_CHARS / 1024 + 1; i++) log.write(`${'x'.repeat(1023)}\n`)
    const ending = log.end()
    calls[0]?.done(null, 'stuck\n'.length)
    calls[1]?.done(null, MAX_WAITING_CHARS + 'dropped 1\n'.length)
    await ending
    expect(calls[1]?.text.endsWith('x\ndropped 1\n')).toBe(true)
  })
})
