import { realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { originName, originUrlIn, pathInRepository, projectOfFolder, projectRoot, realFolder, repositoryName, repositoryRoot, workingProjectOf } from './repository'

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

  it('is one root however the cwd is written: with a trailing slash or a `..` in it', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'dm-root-'))
    try {
      await mkdir(join(repo, '.git'))
      await mkdir(join(repo, 'src'))
      for (const cwd of [`${repo}/`, `${repo}//`, join(repo, 'src') + '/..', `${repo}/src/../`]) expect(repositoryRoot(cwd), cwd).toBe(repo)
      expect(pathInRepository(`${repo}/src/`)).toBe('src')
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
    expect(repositoryRoot('/home/dev/acme-api/', (dir) => dir === '/home/dev/acme-api')).toBe('/home/dev/acme-api')
  })
})

describe('the project a repository root is of', () => {
  it('is the main working tree for every linked worktree of a repository, the folder itself for a clone or a submodule', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-project-'))
    const linked = async (root: string, gitDir: string, commondir?: string) => {
      await mkdir(gitDir, { recursive: true })
      if (commondir !== undefined) await writeFile(join(gitDir, 'commondir'), `${commondir}\n`)
      await mkdir(root, { recursive: true })
      await writeFile(join(root, '.git'), `gitdir: ${gitDir}\n`)
    }
    try {
      const main = join(dir, 'acme-api')
      await mkdir(join(main, '.git', 'worktrees'), { recursive: true })
      expect(projectRoot(main)).toBe(main)
      // `git worktree add ../acme-api-feature`, and `claude --worktree` inside the repository.
      await linked(join(dir, 'acme-api-feature'), join(main, '.git', 'worktrees', 'acme-api-feature'), '../..')
      await linked(join(main, '.claude', 'worktrees', 'fix'), join(main, '.git', 'worktrees', 'fix'), '../..')
      expect(projectRoot(join(dir, 'acme-api-feature'))).toBe(main)
      expect(projectRoot(join(main, '.claude', 'worktrees', 'fix'))).toBe(main)
      // A bare repository with its worktrees beside it (`proj/.bare`, `proj/main`, `proj/feature`): the bare one names them.
      await linked(join(dir, 'proj', 'main'), join(dir, 'proj', '.bare', 'worktrees', 'main'), '../..')
      await linked(join(dir, 'proj', 'feature'), join(dir, 'proj', '.bare', 'worktrees', 'feature'), '../..')
      expect(projectRoot(join(dir, 'proj', 'main'))).toBe(join(dir, 'proj', '.bare'))
      expect(projectRoot(join(dir, 'proj', 'feature'))).toBe(join(dir, 'proj', '.bare'))
      // A submodule's .git file points into the parent's .git/modules, with no common directory: its own project.
      await linked(join(main, 'vendor', 'libfoo'), join(main, '.git', 'modules', 'vendor', 'libfoo'))
      expect(projectRoot(join(main, 'vendor', 'libfoo'))).toBe(join(main, 'vendor', 'libfoo'))
      // A worktree whose git directory was pruned: the folder itself, as before.
      await mkdir(join(dir, 'stale'))
      await writeFile(join(dir, 'stale', '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'gone')}\n`)
      expect(projectRoot(join(dir, 'stale'))).toBe(join(dir, 'stale'))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the name of a repository', () => {
  it('is its origin remote, the same however the URL is written, with no credentials', () => {
    const names = [
      'git@github.com:acme/web.git',
      'https://github.com/acme/web',
      'https://deploy:s3cret@GitHub.com/acme/web.git/',
      'ssh://git@github.com:22/acme/web.git',
      'git+ssh://git@github.com/acme/web',
    ].map((url) => repositoryName(url, '/home/dev/web-2'))
    expect(new Set(names)).toEqual(new Set(['github.com/acme/web']))
    expect(repositoryName('../upstream/web.git', '/srv/clones/web-2')).toBe('/srv/clones/upstream/web')
    expect(repositoryName('file:///srv/git/web.git', '/home/dev/web')).toBe('/srv/git/web')
  })

  it('is the same for a path in the home directory of the host however it is written (~/ or none)', () => {
    const names = ['ssh://git@host.example/~/web.git', 'git@host.example:~/web.git', 'git@host.example:web.git'].map((url) => repositoryName(url, '/home/dev/web'))
    expect(names).toEqual(['host.example/web', 'host.example/web', 'host.example/web'])
  })

  it('is read from the config: the url of [remote "origin"], not of another remote', () => {
    const config = '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@github.com:other/web.git\n[remote "origin"]\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\turl = git@github.com:acme/web.git\n'
    expect(originUrlIn(config)).toBe('git@github.com:acme/web.git')
    expect(originUrlIn('[remote "upstream"]\n\turl = x\n')).toBeUndefined()
  })

  it('keeps no token of a query or a fragment, and no comment of the config line, in the name', () => {
    for (const url of ['https://gitlab.com/acme/web.git?private_token=s3cret', 'https://gitlab.com/acme/web?private_token=s3cret#main', 'https://gitlab.com/acme/web.git#s3cret']) {
      expect(repositoryName(url, '/home/dev/web')).toBe('gitlab.com/acme/web')
    }
    expect(repositoryName('https://gitlab.com?private_token=s3cret', '/home/dev/web')).toBe('gitlab.com')
    const config = (url: string) => `[remote "origin"]\n\turl = ${url}\n`
    expect(originUrlIn(config('git@github.com:acme/web.git # the company mirror'))).toBe('git@github.com:acme/web.git')
    expect(originUrlIn(config('git@github.com:acme/web.git ; old'))).toBe('git@github.com:acme/web.git')
    expect(originUrlIn(config('"https://github.com/acme/web#x" # quoted'))).toBe('https://github.com/acme/web#x')
  })

  it('is the same for a clone and a worktree of it, whatever their directories are called; without an origin, none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-origin-'))
    try {
      await mkdir(join(dir, 'web-2', '.git', 'worktrees', 'feature'), { recursive: true })
      await writeFile(join(dir, 'web-2', '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/acme/web.git\n')
      await writeFile(join(dir, 'web-2', '.git', 'worktrees', 'feature', 'commondir'), '../..\n')
      await mkdir(join(dir, 'feature'))
      await writeFile(join(dir, 'feature', '.git'), `gitdir: ${join(dir, 'web-2', '.git', 'worktrees', 'feature')}\n`)
      expect(originName(join(dir, 'web-2'))).toBe('github.com/acme/web')
      expect(originName(join(dir, 'feature'))).toBe('github.com/acme/web')
      await mkdir(join(dir, 'local', '.git'), { recursive: true })
      await writeFile(join(dir, 'local', '.git', 'config'), '[core]\n\tbare = false\n')
      expect(originName(join(dir, 'local'))).toBeUndefined()
      expect(originName(join(dir, 'nowhere'))).toBeUndefined()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('the project the MCP server\'s tools and why --point take for the folder they run in', () => {
  it('is the one the hook records there, in a git repository or not: a project folder outside git included', async () => {
    const dir = realpathSync(await mkdtemp(join(tmpdir(), 'dm-working-')))
    try {
      const repo = join(dir, 'acme-api')
      await mkdir(join(repo, '.git'), { recursive: true })
      await mkdir(join(repo, 'src'))
      const notes = join(dir, 'notes')
      await mkdir(notes)
      const link = join(dir, 'notes-link')
      await symlink(notes, link, 'junction')
      const home = join(dir, 'home')
      await mkdir(home)
      // In a repository: its root, as before.
      expect(workingProjectOf(join(repo, 'src'), home)).toBe(repo)
      // Outside one: the folder, as the hook sends its cwd there (a link followed, as its ?project= is),
      // so that Claude Code's MCP server there reads and records what the hooks record there.
      expect(workingProjectOf(notes, home)).toBe(notes)
      expect(workingProjectOf(link, home)).toBe(notes)
      expect(workingProjectOf(`${notes}/`, home)).toBe(notes)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('is none in the root folder or the home folder, where clients other than Claude Code start an MCP server', async () => {
    const dir = realpathSync(await mkdtemp(join(tmpdir(), 'dm-working-')))
    try {
      const home = join(dir, 'home')
      await mkdir(join(home, 'work'), { recursive: true })
      const link = join(dir, 'home-link')
      await symlink(home, link, 'junction')
      expect(workingProjectOf(resolve('/'), home)).toBeUndefined()
      expect(workingProjectOf(home, home)).toBeUndefined()
      expect(workingProjectOf(home, link)).toBeUndefined()
      expect(workingProjectOf(link, home)).toBeUndefined()
      // A folder under the home folder is a project of its own, as the hook records it.
      expect(workingProjectOf(join(home, 'work'), home)).toBe(join(home, 'work'))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('is the repository in a home folder that is a git repository, as the hook records it there', async () => {
    const dir = realpathSync(await mkdtemp(join(tmpdir(), 'dm-working-')))
    try {
      // Dotfiles kept by `git init ~`: the hooks record the repository's root, so the tools and
      // `why --point` take it too (README and the help say "outside a git repository" of the home folder).
      const home = join(dir, 'home')
      await mkdir(join(home, '.git'), { recursive: true })
      await mkdir(join(home, 'notes'))
      expect(workingProjectOf(home, home)).toBe(home)
      expect(workingProjectOf(join(home, 'notes'), home)).toBe(home)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reads the home folder as the other commands do: a HOME set relative or empty is not the folder it resolves to', async () => {
    const dir = realpathSync(await mkdtemp(join(tmpdir(), 'dm-working-')))
    try {
      const notes = join(dir, 'notes')
      await mkdir(notes)
      // Resolved as a path, a HOME of `notes` from here (or empty, in the folder started in) named the
      // project folder itself the home folder: a server started there had no project.
      vi.stubEnv('HOME', relative(process.cwd(), notes))
      expect(workingProjectOf(notes)).toBe(notes)
    } finally {
      vi.unstubAllEnvs()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('a repository reached through a symbolic link', () => {
  it('is one project, and one path in it, whether the cwd is written through the link or as the folder it points to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-link-'))
    try {
      // The temporary folder may itself be reached through a link (macOS's /tmp): the real one is expected.
      const real = join(realpathSync(dir), 'data', 'proj')
      await mkdir(join(real, '.git'), { recursive: true })
      await mkdir(join(real, 'services', 'billing'), { recursive: true })
      await mkdir(join(dir, 'home'))
      const link = join(dir, 'home', 'proj')
      // A junction on Windows, which needs no privilege; the type is ignored elsewhere.
      await symlink(real, link, 'junction')
      // `/home/u/proj` as Claude Code may send it, `/data/proj` as process.cwd() gives it to the MCP server.
      for (const cwd of [link, real, join(link, 'services', 'billing'), `${link}/`]) expect(projectOfFolder(cwd), cwd).toBe(real)
      expect(repositoryRoot(link)).toBe(real)
      expect(pathInRepository(join(link, 'services', 'billing'))).toBe('services/billing')
      expect(pathInRepository(link)).toBe('.')
      // A folder under the link that is not there (removed since): resolved as far as it exists.
      expect(projectOfFolder(join(link, 'gone', 'deeper'))).toBe(real)
      expect(pathInRepository(join(link, 'gone'))).toBe('gone')
      // Outside a repository, the cwd as it was written, link or not.
      expect(pathInRepository(join(dir, 'home'))).toBe(join(dir, 'home'))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('gives the path of a folder in the repository as written, through a link inside it, as the decisions scoped to it name it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-link-in-'))
    try {
      const repo = join(realpathSync(dir), 'shop')
      await mkdir(join(repo, '.git'), { recursive: true })
      await mkdir(join(repo, 'legacy', 'payments', 'api'), { recursive: true })
      await mkdir(join(repo, 'services'))
      // `services/payments`, a link to `../legacy/payments`: a decision scoped to services/payments
      // holds there (the guard sends this path), as it did before the links of the root were followed.
      await symlink(join('..', 'legacy', 'payments'), join(repo, 'services', 'payments'), 'junction')
      expect(pathInRepository(join(repo, 'services', 'payments'))).toBe('services/payments')
      expect(pathInRepository(join(repo, 'services', 'payments', 'api'))).toBe('services/payments/api')
      expect(pathInRepository(join(repo, 'legacy', 'payments'))).toBe('legacy/payments')
      // The project is the repository's either way.
      expect(projectOfFolder(join(repo, 'services', 'payments'))).toBe(repo)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('gives the path in the repository the project is, for a link from another repository into a folder of it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dm-link-across-'))
    try {
      // `~/payments`, a link to `/data/shop/services/payments`, in a home folder that is a repository
      // itself (its dotfiles): the project is shop, so the path is shop's, not `payments` in home's.
      const home = join(realpathSync(dir), 'home')
      const shop = join(realpathSync(dir), 'data', 'shop')
      await mkdir(join(home, '.git'), { recursive: true })
      await mkdir(join(shop, '.git'), { recursive: true })
      await mkdir(join(shop, 'services', 'payments', 'api'), { recursive: true })
      await symlink(join(shop, 'services', 'payments'), join(home, 'payments'), 'junction')
      expect(projectOfFolder(join(home, 'payments'))).toBe(shop)
      expect(pathInRepository(join(home, 'payments'))).toBe('services/payments')
      expect(pathInRepository(join(home, 'payments', 'api'))).toBe('services/payments/api')
      // In home itself, home's.
      expect(pathInRepository(join(home))).toBe('.')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('takes a path that is nowhere on this machine, a Windows one among them, as written', () => {
    for (const path of ['C:\\Users\\dev\\acme-api\\src', '/nowhere-dm/acme-api/src']) {
      expect(realFolder(path)).toBe(resolve(path))
    }
    expect(repositoryRoot('/nowhere-dm/acme-api/src', (d) => d === '/nowhere-dm/acme-api')).toBe('/nowhere-dm/acme-api')
  })
})
