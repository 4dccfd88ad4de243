// The long form of test/e2e/crash-durability.test.ts (R-SVC-3): many kill -9 cycles of the real
// service under concurrent writers, checking after each restart that every acknowledged
// observation is present exactly once.
//
//   npx tsx scripts/crash-soak.ts [--cycles 200] [--clients 8] [--seed N] [--data DIR]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crashCycles } from '../test/support/crash-cycles'
import { nonNegativeInteger, parseFlags, positiveInteger, readFlags } from './flags'

// Checked before any service is started: a mistake in them is said on one line, exit 2.
const { values, cycles, clients, seed } = readFlags('crash-soak', () => {
  const { values } = parseFlags({
    options: {
      cycles: { type: 'string', default: '200' },
      clients: { type: 'string', default: '8' },
      seed: { type: 'string' },
      data: { type: 'string' },
    },
  })
  return {
    values,
    cycles: positiveInteger(values.cycles, 'cycles'),
    clients: positiveInteger(values.clients, 'clients'),
    seed: values.seed === undefined ? undefined : nonNegativeInteger(values.seed, 'seed'),
  }
})
const dataDir = values.data ?? (await mkdtemp(join(tmpdir(), 'dm-soak-')))
const started = Date.now()
const report = await crashCycles({
  dataDir,
  cycles,
  clients,
  seed,
  onCycle: (cycle, r) =>
    process.stdout.write(
      `cycle ${cycle}: ${r.acknowledged} acknowledged, ${r.unacknowledged} cut off so far, ${r.problems.length} problems\n`,
    ),
})
process.stdout.write(
  `${report.cycles} cycles in ${Math.round((Date.now() - started) / 1000)} s, seed ${report.seed}: ` +
    `${report.acknowledged} observations acknowledged, ${report.unacknowledged} cut off by a kill and retried\n`,
)
for (const problem of report.problems) process.stdout.write(`PROBLEM ${problem}\n`)
if (values.data === undefined) await rm(dataDir, { recursive: true, force: true })
process.exitCode = report.problems.length === 0 ? 0 : 1
