import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { holdStopSignals, type StopSignal } from './stop-signals'

describe('holding the stop signals for the start of the service', () => {
  it('keeps a signal that came before the service could stop, and hands it over once it can, then every later one', () => {
    const process = new EventEmitter()
    const held = holdStopSignals([], process)
    expect(held.received()).toBeUndefined()
    expect(held.aborted.aborted).toBe(false)
    process.emit('SIGINT', 'SIGINT')
    process.emit('SIGTERM', 'SIGTERM')
    // The first one is the one received; the start's waits end at it.
    expect(held.received()).toBe('SIGINT')
    expect(held.aborted.aborted).toBe(true)
    const stops: StopSignal[] = []
    held.handOver((signal) => stops.push(signal))
    expect(stops).toEqual(['SIGINT'])
    process.emit('SIGTERM', 'SIGTERM')
    expect(stops).toEqual(['SIGINT', 'SIGTERM'])
  })

  it('hands over nothing when no signal came', () => {
    const process = new EventEmitter()
    const held = holdStopSignals([], process)
    const stops: StopSignal[] = []
    held.handOver((signal) => stops.push(signal))
    expect(stops).toEqual([])
    process.emit('SIGTERM', 'SIGTERM')
    expect(stops).toEqual(['SIGTERM'])
  })

  it('counts the signals the command held before it loaded, as they come, the first of them first', () => {
    const process = new EventEmitter()
    // The array the command's own holder (bin/decision-memory.js) keeps filling.
    const before: string[] = []
    const held = holdStopSignals(before, process)
    expect(held.received()).toBeUndefined()
    // One the command's holder was told of only after this holder was made.
    before.push('SIGTERM')
    process.emit('SIGINT', 'SIGINT')
    expect(held.received()).toBe('SIGTERM')
    expect(held.aborted.aborted).toBe(true)
    const stops: StopSignal[] = []
    held.handOver((signal) => stops.push(signal))
    expect(stops).toEqual(['SIGTERM'])
  })
})
