/**
 * The options of a write, made once and frozen. abstract-level copies a batch's options into each
 * of its operations (`{ ...options, ...op }`); on Node 20, with a plain options object that copy
 * took about 7 µs an operation, with a frozen one 0.2 µs (a scratch benchmark of abstract-level's
 * batch alone, its native write left out): with five puts an observation, 35 µs of the main
 * thread each (bench/HISTORY.md, the seventh session).
 */
const SYNCED = Object.freeze({ sync: true })
const UNSYNCED = Object.freeze({ sync: false })

/** The options of a write synced to disk before it resolves (`sync`), or left to the OS. */
export function writeOptions(sync: boolean): { readonly sync: boolean } {
  return sync ? SYNCED : UNSYNCED
}
