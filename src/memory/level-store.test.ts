import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Level } from 'level'
import { MemoryLevel } from 'memory-level'
import { afterAll } from 'vitest'
import { createLevelStore } from './level-store'
import { storeSuite } from './store.suite'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

storeSuite('memory-level', () => createLevelStore(new MemoryLevel<string, string>() as never))

storeSuite('classic-level', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dm-store-'))
  dirs.push(dir)
  return createLevelStore(new Level<string, string>(dir) as never)
})
