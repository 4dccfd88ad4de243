/**
 * Group commit: calls that arrive while the previous write is still being synced wait for it, and
 * are then written together, in one atomic batch with one sync; each caller gets its own answer
 * once that batch is on disk. Under concurrent load this pays one fsync per group instead of one
 * per call, and keeps the promise of R-SVC-3: nothing is acknowledged before it is synced. A failed
 * write fails every call of its group.
 */
export function createGroupCommit<In, Out>(options: {
  /** The store's write queue: the group's write runs in turn with every other write. */
  enqueue: <T>(work: () => Promise<T>) => Promise<T>
  /** Writes a group of inputs as one batch; answers one output per input, in order. */
  write: (inputs: In[]) => Promise<Out[]>
}): (input: In) => Promise<Out> {
  const { enqueue, write } = options
  let waiting: Array<{ input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> = []

  async function commit(): Promise<void> {
    const group = waiting
    waiting = []
    try {
      const outputs = await write(group.map((g) => g.input))
      group.forEach((g, i) => g.resolve(outputs[i] as Out))
    } catch (error) {
      for (const g of group) g.reject(error)
    }
  }

  return function submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject })
      // The first of a group books its write; the others join it until it runs.
      if (waiting.length === 1) void enqueue(commit)
    })
  }
}
