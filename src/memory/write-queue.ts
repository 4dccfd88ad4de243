/** Runs async work one piece at a time, so that check-then-write stays atomic in this process. */
export function createWriteQueue() {
  let tail: Promise<unknown> = Promise.resolve()
  return function enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = tail.then(work, work)
    tail = run.catch(() => undefined)
    return run
  }
}
