/** The signals that stop the service: a supervisor's (systemd, docker stop) and Ctrl-C's. */
export type StopSignal = 'SIGTERM' | 'SIGINT'

const STOP_SIGNALS: readonly StopSignal[] = ['SIGTERM', 'SIGINT']

/** SIGTERM and SIGINT, held from before the service could act on them (holdStopSignals). */
export interface HeldStopSignals {
  /** The first stop signal received, if one was. */
  received(): StopSignal | undefined
  /** Aborted at the first stop signal: for a wait of the start that must not outlast it. */
  readonly aborted: AbortSignal
  /**
   * Hands every stop signal to `handler` from now on, the one received before first (at once):
   * the service's stop, once it has something to stop.
   */
  handOver(handler: (signal: StopSignal) => void): void
}

let held: HeldStopSignals | undefined

/** The first stop signal in `signals`. */
function firstStop(signals: readonly string[]): StopSignal | undefined {
  return signals.find((signal): signal is StopSignal => (STOP_SIGNALS as readonly string[]).includes(signal))
}

/**
 * Holds SIGTERM and SIGINT for the service from now on. Until the service hands them over, a stop
 * signal is kept, not acted on: one sent in the half second of its start (a supervisor's stop, a
 * test's) ended it by the signal's default action, exit 143 or 130, with no `stopped` line and
 * the store, if it had been opened, not closed. `before`: the signals its command holds itself
 * from before this module loaded (bin/decision-memory.js), read as they come, the first of them
 * being the first received: that holder is left in place, as a signal it took but had not yet been
 * told of when it was removed would be lost. The process's one holder: a second call returns the first.
 */
export function holdStopSignals(before: readonly string[] = [], target: NodeJS.EventEmitter = process): HeldStopSignals {
  if (held !== undefined && target === process) return held
  let own: StopSignal | undefined
  let handler: ((signal: StopSignal) => void) | undefined
  const abort = new AbortController()
  const received = () => {
    const first = firstStop(before) ?? own
    if (first !== undefined && !abort.signal.aborted) abort.abort(first)
    return first
  }
  received()
  const onSignal = (signal: StopSignal) => {
    own ??= signal
    received()
    handler?.(signal)
  }
  for (const signal of STOP_SIGNALS) target.on(signal, onSignal)
  const holder: HeldStopSignals = {
    received,
    aborted: abort.signal,
    handOver(next) {
      handler = next
      const first = received()
      if (first !== undefined) next(first)
    },
  }
  if (target === process) held = holder
  return holder
}
