import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { commandFolders } from './command-folders'

/** Commands as Claude Code writes them, each `echo Mn` a part whose folder Bash itself says. */
const COMMANDS = [
  'cd web && echo M1 && cd api && echo M2 && cd ../.. && echo M3',
  '(cd web && echo M1) && echo M2',
  'cd web; ( cd api; echo M1 ) 2>&1 | cat\necho M2',
  '{ cd web; echo M1; } | cat; echo M2',
  'cd web \\\n  && echo M1',
  'cd web # build there\necho M1',
  'cat <<< "x" >/dev/null\ncd web\necho M1',
  'cd "my dir" && echo M1',
  'cd ñandú && echo M1',
  'pushd web >/dev/null && pushd api >/dev/null && popd >/dev/null && echo M1 && popd >/dev/null && echo M2',
  'cd web >& /dev/null && echo M1',
  'cd web; cd - >/dev/null; echo M1',
  'x="$(cd web && pwd)"; echo M1',
  'cd web && bash -c "cd api" && echo M1',
  '( ( cd web; ( cd api && echo M1 ); echo M2 ) ); echo M3',
  'cd web && cat <<EOF >/dev/null\ncd api\nEOF\necho M1',
  'cd web && echo "$(cat <<\'EOF\'\nit\'s (x)\nEOF\n)" >/dev/null && echo M1',
]

describe.skipIf(process.platform === 'win32')('commandFolders against Bash', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'dm-folders-')))
  for (const dir of ['web/api', 'my dir', 'ñandú']) mkdirSync(join(root, dir), { recursive: true })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it.each(COMMANDS)('reads the folders Bash runs %j in', (command) => {
    const said = execFileSync('bash', ['-c', command.replace(/echo (M\d)/g, 'echo $1 "$PWD"')], { cwd: root, encoding: 'utf8' })
    const bash = Object.fromEntries([...said.matchAll(/^(M\d) (.*)$/gm)].map((m) => [m[1], m[2]]))
    const read = Object.fromEntries(
      commandFolders(command, root)
        .parts.map((p) => [/^echo (M\d)$/.exec(command.slice(p.start, p.end))?.[1], p.folder ?? '?'])
        .filter(([marker]) => marker !== undefined),
    )
    expect(read).toEqual(bash)
  })
})
