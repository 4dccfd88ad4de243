import { describe, expect, it } from 'vitest'
import { createReadCache } from './read-cache'

describe('read cache', () => {
  it('loads a key once, then answers it without loading, absent values too', async () => {
    const cache = createReadCache<string | undefined>(10)
    let loads = 0
    const load = async () => {
      loads++
      return undefined
    }
    expect(await cache.read('a', load)).toBeUndefined()
    expect(await cache.read('a', load)).toBeUndefined()
    expect(loads).toBe(1)
  })

  it('loads again after a write of the key, and keeps no value whose load raced a write', async () => {
    const cache = createReadCache<string>(10)
    let stored = 'old'
    let release: () => void = () => undefined
    const slowLoad = () => new Promise<string>((resolve) => (release = () => resolve(stored)))
    const racing = cache.read('a', slowLoad)
    // The write lands while the load is in flight, and the load answers what it read before.
    const before = stored
    stored = 'new'
    cache.written(['a'])
    stored = before
    release()
    expect(await racing).toBe('old')
    stored = 'new'
    expect(await cache.read('a', async () => stored)).toBe('new')
  })

  it('holds at most its limit, and drops keys a write matches', async () => {
    const cache = createReadCache<number>(2)
    let loads = 0
    const load = (v: number) => async () => {
      loads++
      return v
    }
    await cache.read('u1\0a', load(1))
    await cache.read('u1\0b', load(2))
    await cache.read('u2\0a', load(3))
    expect(loads).toBe(3)
    await cache.read('u1\0a', load(1))
    expect(loads).toBe(4)
    cache.written([], (k) => k.startsWith('u2\0'))
    await cache.read('u2\0a', load(3))
    expect(loads).toBe(5)
  })
})
