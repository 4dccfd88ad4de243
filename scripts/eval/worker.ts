// A child process of `npm run eval`: simulates the users it is given and sends their records back.
import { compilePolicy } from '../../src/domain/policy'
import { simulateInProcess } from './evaluation'
import type { WorkerTask } from './parallel'
import { generateUsers } from './users'

process.once('message', async (task: WorkerTask) => {
  const wanted = new Set(task.indexes)
  const users = generateUsers(task.population).filter((_, i) => wanted.has(i))
  const results = await simulateInProcess(users, {
    ...task.population,
    policy: compilePolicy(task.policy),
  })
  process.send?.(results, () => process.disconnect())
})
