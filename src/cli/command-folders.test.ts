import { describe, expect, it } from 'vitest'
import { commandFolders } from './command-folders'

/** Each part as written, with the folder it runs in (`?` for one the guard cannot know). */
function where(command: string, cwd = '/repo'): string[] {
  return commandFolders(command, cwd).parts.map((p) => `${command.slice(p.start, p.end)} @ ${p.folder ?? '?'}`)
}

describe('commandFolders: the folder each part of a chain runs in', () => {
  it('follows cd, cd --, pushd and popd across &&, ;, || and newlines, relative or absolute', () => {
    expect(where('cd services/billing && rm -rf build')).toEqual(['cd services/billing @ /repo', 'rm -rf build @ /repo/services/billing'])
    expect(where('cd -- services/billing; rm -rf build || echo no\nls')).toEqual([
      'cd -- services/billing @ /repo',
      'rm -rf build @ /repo/services/billing',
      'echo no @ /repo/services/billing',
      'ls @ /repo/services/billing',
    ])
    expect(where('cd services && cd billing/ && cd .. && make')).toEqual(['cd services @ /repo', 'cd billing/ @ /repo/services', 'cd .. @ /repo/services/billing', 'make @ /repo/services'])
    expect(where('cd /srv/other && make')).toEqual(['cd /srv/other @ /repo', 'make @ /srv/other'])
    expect(where('pushd services/billing && make && popd && ls')).toEqual([
      'pushd services/billing @ /repo',
      'make @ /repo/services/billing',
      'popd @ /repo/services/billing',
      'ls @ /repo',
    ])
    expect(where('cd -P web && cd - && ls')).toEqual(['cd -P web @ /repo', 'cd - @ /repo/web', 'ls @ /repo'])
    expect(where('cd web 2>/dev/null && ls')).toEqual(['cd web 2>/dev/null @ /repo', 'ls @ /repo/web'])
    for (const redirect of ['>& /dev/null', '&> /dev/null', '2>> log', '> log', '>| log', '< /dev/null', '2>&1']) {
      expect(where(`cd web ${redirect} && ls`).at(-1), redirect).toBe('ls @ /repo/web')
    }
  })

  it('reads a quoted or escaped folder as the shell passes it', () => {
    // A backslash before a newline joins the lines, as Claude Code breaks a long command.
    expect(where('cd services/billing \\\n  && rm -rf build').at(-1)).toBe('rm -rf build @ /repo/services/billing')
    expect(where('cd \\\n  services/bil\\\nling && ls').at(-1)).toBe('ls @ /repo/services/billing')
    expect(where('cd "services/my app" && ls').at(-1)).toBe('ls @ /repo/services/my app')
    expect(where("cd 'services/my app' && ls").at(-1)).toBe('ls @ /repo/services/my app')
    expect(where('cd services/my\\ app && ls').at(-1)).toBe('ls @ /repo/services/my app')
  })

  it('leaves the folder unknown after a cd it cannot follow, until one to an absolute path, and says which', () => {
    for (const cd of ['cd "$DIR"', 'cd $(git rev-parse --show-toplevel)/web', 'cd ~/web', 'cd', 'cd services/*', 'cd -', 'popd', 'cd a b']) {
      const found = commandFolders(`${cd} && rm -rf build && cd /repo/web && ls`, '/repo')
      expect(found.parts.map((p) => p.folder), cd).toEqual(['/repo', undefined, undefined, '/repo/web'])
      expect(found.unfollowed, cd).toHaveLength(1)
      expect(found.unfollowed[0], cd).toContain(cd)
    }
    // Relative to a folder not known: not known either.
    expect(where('cd "$D" && cd web && ls').at(-1)).toBe('ls @ ?')
    // Run or not by a condition: not known after it.
    expect(where('if [ -d web ]; then cd web; fi; ls').at(-1)).toBe('ls @ ?')
    expect(where('for d in a b; do cd $d; done && ls').at(-1)).toBe('ls @ ?')
    // A cd after a case's pattern: run or not by it.
    const cased = commandFolders('cd web; case $x in a) cd ..;; esac; rm -rf build', '/repo')
    expect(cased.parts.at(-1)?.folder).toBeUndefined()
    expect(cased.unfollowed).toEqual(['case $x in a) cd ..: inside if, a loop, case or a function, so the commands after it are checked where the command starts'])
  })

  it('keeps the folder after a cd run in a subshell, a pipeline, the background or a shell\'s script, and says it is not followed', () => {
    // A subshell's own parts are followed inside it; its cd moves nothing after it.
    const sub = commandFolders('(cd services/billing && rm -rf build) && ls', '/repo')
    expect(where('(cd services/billing && rm -rf build) && ls')).toEqual(['cd services/billing @ /repo', 'rm -rf build @ /repo/services/billing', 'ls @ /repo'])
    expect(sub.unfollowed).toEqual([])
    expect(where('cd web && ( cd api; make ) 2>&1 | tail\nls')).toEqual(['cd web @ /repo', 'cd api @ /repo/web', 'make @ /repo/web/api', 'tail @ /repo/web', 'ls @ /repo/web'])
    expect(where('(cd "$D" && make); ls').at(-1)).toBe('ls @ /repo')
    expect(where('(( n = 1 )) && ls').at(-1)).toBe('ls @ /repo')
    // Nested deeper than 16, read as before: checked where the innermost subshell followed starts, and said.
    const deep = commandFolders(`${'( '.repeat(40)}cd web && rm -rf build${' )'.repeat(40)}`, '/repo')
    expect(deep.parts).toHaveLength(1)
    expect(deep.unfollowed[0]).toMatch(/^\( \( .*: a cd inside \( … \)/)
    const dollar = commandFolders('x=$(cd services/billing && pwd) && ls', '/repo')
    expect(dollar.unfollowed).toEqual(["x=$(cd services/billing && pwd): a cd inside ( … ), $( … ), bash -c '…' or the like moves nothing after it, so the commands inside are checked where it starts"])
    expect(where("bash -c 'cd web && make' && ls").at(-1)).toBe('ls @ /repo')
    expect(where('cd web | cat; ls').at(-1)).toBe('ls @ /repo')
    expect(where('cd web & ls').at(-1)).toBe('ls @ /repo')
    // A brace group runs in the shell itself.
    expect(where('{ cd web; make; }').filter((p) => p.startsWith('make'))).toEqual(['make @ /repo/web'])
    // Unless it is piped or run in the background: then, as a subshell, its cd moves nothing after it.
    expect(where('{ cd web; make; } | tee log; rm -rf build').slice(-2)).toEqual(['tee log @ /repo', 'rm -rf build @ /repo'])
    expect(where('{ cd web; make; } 2>&1 | tail -5\nrm -rf build').at(-1)).toBe('rm -rf build @ /repo')
    expect(where('{ cd web; make; } &\nrm -rf build').at(-1)).toBe('rm -rf build @ /repo')
    expect(where('{ cd web; make; }; rm -rf build').at(-1)).toBe('rm -rf build @ /repo/web')
  })

  it('keeps a heredoc body, a substitution and a comment inside their command', () => {
    expect(where("cat > notes <<'EOF'\ncd elsewhere && x\nEOF\nrm -rf build")).toEqual(["cat > notes <<'EOF'\ncd elsewhere && x\nEOF @ /repo", 'rm -rf build @ /repo'])
    const commit = 'cd web && git commit -m "$(cat <<\'EOF\'\nFix; cd x\nEOF\n)" && git push'
    expect(where(commit)).toEqual(['cd web @ /repo', 'git commit -m "$(cat <<\'EOF\'\nFix; cd x\nEOF\n)" @ /repo/web', 'git push @ /repo/web'])
    // An apostrophe in a commit message's heredoc, as Claude Code writes one, opens no quote.
    const apostrophe = 'cd web && git commit -m "$(cat <<\'EOF\'\nDon\'t drop the cache\nEOF\n)" && cd .. && git push'
    expect(where(apostrophe).map((p) => p.replace(/\n[^]*\n/, ' … '))).toEqual(['cd web @ /repo', 'git commit -m "$(cat <<\'EOF\' … )" @ /repo/web', 'cd .. @ /repo/web', 'git push @ /repo'])
    // A shift in arithmetic is no heredoc.
    expect(where('echo $((1<<2)) && cd web && ls\nmake').slice(-2)).toEqual(['ls @ /repo/web', 'make @ /repo/web'])
    expect(where('(( n = 1<<3 )); cd web\nmake').at(-1)).toBe('make @ /repo/web')
    expect(where('echo "$((1<<2))"; cd web\nmake').at(-1)).toBe('make @ /repo/web')
    // A here-string is no heredoc: the lines after it are commands of their own (as `bash -c` runs them).
    expect(where('grep x <<< "$v"\ncd web\nrm -rf build')).toEqual(['grep x <<< "$v" @ /repo', 'cd web @ /repo', 'rm -rf build @ /repo/web'])
    expect(where('x="$(cat <<< "a"\necho b)"\ncd web\nrm -rf build').at(-1)).toBe('rm -rf build @ /repo/web')
    expect(where('# cd web\nls')).toEqual(['# cd web @ /repo', 'ls @ /repo'])
    // A comment after a cd is no folder of it.
    expect(where('cd web # build there\nrm -rf build').at(-1)).toBe('rm -rf build @ /repo/web')
    expect(commandFolders('cd web # build there\nrm -rf build', '/repo').unfollowed).toEqual([])
    expect(where('cd web#1 && ls').at(-1)).toBe('ls @ /repo/web#1')
    expect(where('echo "a && cd web" && ls').at(-1)).toBe('ls @ /repo')
    // A word of a message is no cd, and not said to be one not followed.
    expect(commandFolders('git commit -m "then cd into web" && ls', '/repo').unfollowed).toEqual([])
  })

  it('never throws, on unclosed quotes and substitutions either', () => {
    for (const command of ['cd "web', "cd 'web && ls", 'cd $(x && ls', 'cd `x', 'cd ${x', 'cat <<', ')))) cd web; ls', '\\', 'cd \\']) {
      expect(() => commandFolders(command, '/repo'), command).not.toThrow()
    }
  })

  it('never throws on quotes and substitutions nested past the stack, and checks such a command where it starts', () => {
    for (const command of [`echo ${'"$('.repeat(30000)}`, `echo ${'${"'.repeat(30000)}`, `cd web && echo "${'$("'.repeat(30000)}`]) {
      const found = commandFolders(command, '/repo')
      expect(found.parts).toEqual([{ start: 0, end: command.length, folder: '/repo' }])
      expect(found.unfollowed).toEqual(['the command nests quotes and substitutions deeper than the guard follows, so it is checked where it starts'])
    }
  })
})
