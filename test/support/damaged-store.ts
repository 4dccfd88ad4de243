import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Level } from 'level'
import { systemClock } from '../../src/clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../../src/config/load-policy'
import { createDecisionMemory } from '../../src/decision-memory'
import { DecisionInputSchema } from '../../src/decisions/decision'
import { createDecisions } from '../../src/decisions/decisions'
import { openStores } from '../../src/open-store'
import { tempDir } from './temp-dir'

/**
 * A store holding alice's choices (session `s-1`) and a decision D-1, as the service stores them,
 * opened once more so that LevelDB writes its log into table files, then every table file cut
 * short: each read of it fails with LevelDB's IO error.
 */
export async function damagedStore(prefix: string): Promise<string> {
  const dataDir = tempDir(prefix)
  const { store, decisionStore } = await openStores(dataDir)
  try {
    const policy = await loadPolicy(DEFAULT_POLICY_FILE)
    const decisions = createDecisions({ store: decisionStore, clock: systemClock, policy })
    const memory = createDecisionMemory({ store, policy, clock: systemClock, decisions })
    for (let i = 0; i < 30; i++) {
      await memory.observe([{ user: 'alice', session_id: 's-1', decision_id: `d-${i}`, question: 'Which tier?', user_choice: 'Tier M', all_options: ['Tier S', 'Tier M'], source: 'user' }])
    }
    await decisions.propose(DecisionInputSchema.parse({ key: 'D-1', title: 'Cents', decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted' }))
  } finally {
    await store.close()
  }
  const db = new Level<string, string>(dataDir)
  await db.open()
  await db.close()
  const tables = (await readdir(dataDir)).filter((name) => name.endsWith('.ldb'))
  if (tables.length === 0) throw new Error(`no table file in ${dataDir} to cut short`)
  for (const table of tables) await writeFile(join(dataDir, table), (await readFile(join(dataDir, table))).subarray(0, 300))
  return dataDir
}
