// A child process of `scripts/eval/calibration-multi-select.ts`: simulates the users it is given
// and sends their records back.
import { simulateMultiSelect } from './multi-select'

process.once('message', async (task: { seed: number; indexes: number[]; src: string }) => {
  const records = await simulateMultiSelect(task.seed, task.indexes, task.src)
  process.send?.(records, () => process.disconnect())
})
