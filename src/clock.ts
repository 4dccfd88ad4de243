/** Where time comes from: injected everywhere, so that tests set it and nothing reads it behind their back. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that stands still until moved: for tests and replays. */
export function fixedClock(start: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(start)
  return {
    now: () => new Date(current),
    set(at) {
      current = new Date(at)
    },
    advance(ms) {
      current = new Date(current.getTime() + ms)
    },
  }
}
