import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/support/test-app'
import { actionForms, collapseWhiteSpace } from './shell-forms'

/** Pieces of shell grammar, run together in any order: unbalanced quotes, heredocs cut short, nesting. */
const piece = fc.oneof(
  fc.constantFrom(
    ' ', '\n', '\t', '\\', '\\\n', "'", '"', '`', '$', '$(', '$((', '${', "$'", '$"', '(', ')', '((', '))', '{', '}', ';', ';;', '&', '&&',
    '|', '||', '|&', '!', '#', '<', '>', '<<', '<<-', '<<<', '>|', '&>', '2>&1', '<(', '>(', 'EOF', "'EOF'", '=', 'a=(', 'FOO=1',
    'sudo', '-iu', 'env', 'xargs', 'timeout', 'nohup', 'bash', '-c', '-lc', 'sh', 'eval', 'echo', 'printf', 'cat', 'git', 'push',
    '--force', '-f', 'case', 'in', 'esac', 'if', 'then', 'fi', 'do', 'done', '[[', ']]', '\\x2d', '\\u002d', '\\U110000', '\\c',
    '\0', '\x1b', '\ud800', '\udfff',
  ),
  fc.string({ unit: 'binary', maxLength: 4 }),
)
const command = fc.array(piece, { maxLength: 120 }).map((pieces) => pieces.join(''))

describe('the forms of any text (R-CON-3)', () => {
  it('are read without throwing, the text as written first, within their bounds', () => {
    fc.assert(
      fc.property(command, (action) => {
        const forms = actionForms(action)
        // As written, each line bash reads as a command of its own ended by `;` and a line end.
        const apart = (text: string) => collapseWhiteSpace(text.replace(/[;\n]/g, ' '))
        expect(apart(forms[0] as string)).toBe(apart(action))
        expect(new Set(forms).size).toBe(forms.length)
        expect(forms.length).toBeLessThanOrEqual(1 + 2 * 256)
        expect(forms.reduce((n, f) => n + f.length, 0)).toBeLessThanOrEqual(2 * 400_000 + action.length)
      }),
      { numRuns: 2000 },
    )
  })

  it('never make the check route answer 5xx', async () => {
    const { call } = await createTestApp()
    const created = await call('POST', '/v1/decisions', {
      title: 'Never force push',
      decision: 'We never force push.',
      rationale: 'Shared branches.',
      enforce: 'required',
      status: 'accepted',
      constraints: [{ kind: 'must_not', pattern: '^git push (.* )?(--force|-f\\b)' }],
    })
    expect(created.status).toBe(201)
    await fc.assert(
      fc.asyncProperty(command, async (action) => {
        const answer = await call('POST', '/v1/decisions/check', { action })
        expect(answer.status).toBeLessThan(500)
      }),
      { numRuns: 200 },
    )
  })
})
