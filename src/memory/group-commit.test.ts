import { describe, expect, it } from 'vitest'
import { createGroupCommit } from './group-commit'
import { createWriteQueue } from './write-queue'

/** A write whose completion the test decides: each call is recorded and waits for `finish`. */
function heldWrites() {
  const groups: string[][] = []
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = []
  return {
    groups,
    write(inputs: string[]): Promise<string[]> {
      groups.push(inputs)
      return new Promise((resolve, reject) => {
        pending.push({ resolve: () => resolve(inputs.map((i) => `${i}!`)), reject })
      })
    },
    finish(i: number) {
      pending[i]?.resolve()
    },
    fail(i: number, error: Error) {
      pending[i]?.reject(error)
    },
  }
}

async function settled() {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

describe('group commit', () => {
  it('writes the calls that arrive during a write together, in order, each with its own answer', async () => {
    const writes = heldWrites()
    const submit = createGroupCommit({ enqueue: createWriteQueue(), write: (inputs: string[]) => writes.write(inputs) })
    const a = submit('a')
    await settled()
    expect(writes.groups).toEqual([['a']])
    const later = [submit('b'), submit('c'), submit('d')]
    await settled()
    // b, c and d wait for a's write to be done, then go in one write.
    expect(writes.groups).toEqual([['a']])
    writes.finish(0)
    expect(await a).toBe('a!')
    await settled()
    expect(writes.groups).toEqual([['a'], ['b', 'c', 'd']])
    writes.finish(1)
    expect(await Promise.all(later)).toEqual(['b!', 'c!', 'd!'])
  })

  it('answers no call of a group before its write is done, and a failed write fails its group only', async () => {
    const writes = heldWrites()
    const submit = createGroupCommit({ enqueue: createWriteQueue(), write: (inputs: string[]) => writes.write(inputs) })
    let acknowledged = false
    const a = submit('a').then((out) => {
      acknowledged = true
      return out
    })
    const b = submit('b')
    await settled()
    expect(writes.groups).toEqual([['a', 'b']])
    expect(acknowledged).toBe(false)
    const c = submit('c')
    writes.fail(0, new Error('disk full'))
    await expect(a).rejects.toThrow('disk full')
    await expect(b).rejects.toThrow('disk full')
    await settled()
    expect(writes.groups).toEqual([['a', 'b'], ['c']])
    writes.finish(1)
    expect(await c).toBe('c!')
  })
})
