import fc from 'fast-check'
import { isAbsolute } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commandFolders } from './command-folders'

/** Pieces of shell grammar, run together in any order: unbalanced quotes, heredocs cut short, nesting, folder changes. */
const piece = fc.oneof(
  fc.constantFrom(
    ' ', '\n', '\t', '\\', "'", '"', '`', '$', '$(', '${', "$'", '(', ')', '{', '}', ';', ';;', '&', '&&', '|', '||', '|&', '!', '#',
    '<', '>', '<<', '<<-', '<<<', '2>', 'EOF', "'EOF'", 'FOO=1', 'cd', 'cd -', 'cd --', 'pushd', 'popd', '..', '/', '~', '*', 'web',
    'if', 'then', 'fi', 'for', 'do', 'done', 'case', 'esac', 'f()', 'function', 'bash', '-c', 'rm -rf build', '\0', '\ud800',
  ),
  fc.string({ unit: 'binary', maxLength: 4 }),
)
const command = fc.array(piece, { maxLength: 120 }).map((pieces) => pieces.join(''))

describe('commandFolders of any text', () => {
  it('reads it without throwing: parts in order, inside the command, each in an absolute folder or none', () => {
    fc.assert(
      fc.property(command, (text) => {
        const { parts } = commandFolders(text, '/repo')
        let last = 0
        for (const part of parts) {
          expect(part.start).toBeGreaterThanOrEqual(last)
          expect(part.end).toBeGreaterThan(part.start)
          expect(part.end).toBeLessThanOrEqual(text.length)
          if (part.folder !== undefined) expect(isAbsolute(part.folder)).toBe(true)
          last = part.end
        }
      }),
      { numRuns: 2000 },
    )
  })

  it("follows a chain's first thousand parts, and takes the rest as one in a folder not known, saying so", () => {
    const chain = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? 'cd web' : 'cd ..')).join(' && ')
    const { parts, unfollowed } = commandFolders(`${chain} && rm -rf build`, '/repo')
    expect(parts).toHaveLength(1001)
    expect(parts.at(-1)).toEqual({ start: 500 * 'cd web && '.length + 500 * 'cd .. && '.length, end: chain.length + ' && rm -rf build'.length, folder: undefined })
    expect(unfollowed).toEqual(['the commands after the first 1000: more than the guard follows, so they are checked where the command starts'])
  })
})
