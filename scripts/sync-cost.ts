// What durability costs (R-SVC-3): stores the same observations one synced batch per request (as
// the service does for requests one at a time), one unsynced batch per request, all in one synced
// batch, and as concurrent requests (which the store's group commit writes in shared synced
// batches), on classic-level in a temporary directory, and prints the time of each.
//
//   npx tsx scripts/sync-cost.ts [--count 500]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import type { Observation } from '../src/domain/observation'
import { createLevelStore } from '../src/memory/level-store'
import { parseFlags, positiveInteger, readFlags } from './flags'

// Checked before any store is opened: a mistake in them is said on one line, exit 2.
const count = readFlags('sync-cost', () => positiveInteger(parseFlags({ options: { count: { type: 'string', default: '500' } } }).values.count, 'count'))

function observation(i: number): Observation {
  return {
    id: `obs-${i}`, user: 'bench', project: null, session_id: null, point: 'tier', decision_id: `d-${i}`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), recorded_at: '2026-01-01T00:00:00.000Z',
    question: 'Which tier?', header: null, options: ['S', 'M', 'L'], chosen: ['M'], other: null,
    multi_select: false, context: {}, source: 'user',
  }
}

async function measure(name: string, sync: boolean, how: 'one by one' | 'one batch' | 'concurrent') {
  const dir = await mkdtemp(join(tmpdir(), 'dm-sync-'))
  const store = await createLevelStore(new Level<string, string>(dir) as never, { sync })
  const all = Array.from({ length: count }, (_, i) => observation(i))
  const started = performance.now()
  if (how === 'one batch') await store.addObservations(all, [])
  else if (how === 'concurrent') await Promise.all(all.map((o) => store.addObservations([o], [])))
  else for (const o of all) await store.addObservations([o], [])
  const ms = performance.now() - started
  await store.close()
  await rm(dir, { recursive: true, force: true })
  process.stdout.write(`${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${((ms / count) * 1000).toFixed(0).padStart(6)} µs/observation\n`)
}

process.stdout.write(`${count} observations, classic-level in ${tmpdir()}\n`)
await measure('one synced batch per request', true, 'one by one')
await measure('one unsynced batch per request', false, 'one by one')
await measure('one synced batch for all', true, 'one batch')
await measure('concurrent requests (group commit)', true, 'concurrent')
