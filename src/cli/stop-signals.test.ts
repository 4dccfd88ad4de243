import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { holdStopSignals, type StopSignal } from './stop-signals'

describe('holding the stop signals for the start of the service', () => {
  it('keeps a signal that came before the service could stop, and hands it over once it can, then every later one', () => {
    const process = new EventEmitter()
    const died: StopSignal[] = []
    const held = holdStopSignals([], process, (signal) => died.push(signal))
    expect(held.received()).toBeUndefined()
    expect(held.aborted.aborted).toBe(false)
    process.emit('SIGINT', 'SIGINT')
    // The first one is the one received; the start's waits end at it.
    expect(held.received()).toBe('SIGINT')
    expect(held.aborted.aborted).toBe(true)
    const stops: StopSignal[] = []
    held.handOver((signal) => stops.push(signal))
    expect(stops).toEqual(['SIGINT'])
    process.emit('SIGTERM', 'SIGTERM')
    expect(stops).toEqual(['SIGINT', 'SIGTERM'])
    expect(died).toEqual([])
  })

  it('ends the process at once at a second signal before the service could stop, as a second one during its stop does', () => {
    const process = new EventEmitter()
    const died: StopSignal[] = []
    const held = holdStopSignals([], process, (signal) => died.push(signal))
    process.emit('SIGINT', 'SIGINT')
    expect(died).toEqual([])
    // Ctrl-C twice: a start stuck in a step (a store slow to open) is not waited for.
    process.emit('SIGTERM', 'SIGTERM')
    expect(died).toEqual(['SIGTERM'])
    expect(held.received()).toBe('SIGINT')
    // Two the command held before this module loaded: at once.
    const early: StopSignal[] = []
    holdStopSignals(['SIGINT', 'SIGINT'], new EventEmitter(), (signal) => early.push(signal))
    expect(early).toEqual(['SIGINT'])
    // One before and one after: the second.
    const split: StopSignal[] = []
    const other = new EventEmitter()
    holdStopSignals(['SIGTERM'], other, (signal) => split.push(signal))
    expect(split).toEqual([])
    other.emit('SIGINT', 'SIGINT')
    expect(split).toEqual(['SIGINT'])
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
