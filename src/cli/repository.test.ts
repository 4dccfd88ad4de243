import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pathInRepository, repositoryRoot } from './repository'

describe('the repository a cwd is in', () => {
  it('finds the repository by the nearest .git above the cwd, a worktree\'s .git file included; outside one, the cwd as it is', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-guard-'))
    try {
      await mkdir(join(repo, 'a', 'b'), { recursive: true })
      expect(pathInRepository(join(repo, 'a', 'b'))).toBe(join(repo, 'a', 'b'))
      await writeFile(join(repo, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n')
      expect(pathInRepository(join(repo, 'a', 'b'))).toBe('a/b')
      expect(pathInRepository(repo)).toBe('.')
      // A nested repository (a submodule) is its own root.
      await mkdir(join(repo, 'a', '.git'))
      expect(pathInRepository(join(repo, 'a', 'b'))).toBe('b')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
    expect(pathInRepository('/home/dev/acme-api/src', (dir) => dir === '/home/dev/acme-api')).toBe('src')
    expect(pathInRepository('/srv/x', () => false)).toBe('/srv/x')
    expect(repositoryRoot('/home/dev/acme-api/src/x', (dir) => dir === '/home/dev/acme-api')).toBe('/home/dev/acme-api')
    expect(repositoryRoot('/srv/x', () => false)).toBeUndefined()
  })
})
