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

/** Whether `signal` is one that stops the service. */
const isStop = (signal: string): signal is StopSignal => (STOP_SIGNALS as readonly string[]).includes(signal)

/** The first stop signal in `signals`. */
const firstStop = (signals: readonly string[]): StopSignal | undefined => signals.find(isStop)

/**
 * Holds SIGTERM and SIGINT for the service from now on. Until the service hands them over, a stop
 * signal is kept, not acted on: one sent in the half second of its start (a supervisor's stop, a
 * test's) ended it by the signal's default action, exit 143 or 130, with no `stopped` line and
 * the store, if it had been opened, not closed. `before`: the signals its command holds itself
 * from before this module loaded (bin/decision-memory.js), read as they come, the first of them
 * being the first received: that holder is left in place, as a signal it took but had not yet been
 * told of when it was removed would be lost. The process's one holder: a second call returns the first.
 */
export function holdStopSignals(before: readonly string[] = [], target: NodeJS.EventEmitter = process, die: (signal: StopSignal) => void = dieOf): HeldStopSignals {
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
  // A second stop signal before the service can stop (Ctrl-C twice: a start stuck in a step, a
  // store slow to open) ends the process at once, as a second one during its stop does (serve.ts):
  // held, it waited for that step to end. Those the command held before this module loaded count
  // as they were then (its holder sees every later one too, as this one does).
  let stops = before.filter(isStop).length
  const onSignal = (signal: StopSignal) => {
    own ??= signal
    received()
    stops += 1
    if (handler !== undefined) handler(signal)
    else if (stops > 1) die(signal)
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
  const last = before.findLast(isStop)
  if (stops > 1 && last !== undefined) die(last)
  return holder
}

/** The process ended by `signal`'s default action (143 for SIGTERM, 130 for SIGINT), no handler left to hold it. */
function dieOf(signal: StopSignal): void {
  for (const stop of STOP_SIGNALS) process.removeAllListeners(stop)
  process.kill(process.pid, signal)
}
