import { describe, expect, it } from 'vitest'
import { BIN_PATH, shellWord } from '../cli/bin-path'
import { HOOK_TEXT_LIMIT, rationalePart, rationaleQuoted, textPart, withinHookLimit } from './hook-text'

/** The command a hint prints to show a decision whole: this checkout's bin by path, as it runs. */
const WHY = (key: string) => `node ${shellWord(BIN_PATH)} why ${key}`

describe('a hook text within what Claude Code shows whole', () => {
  it('leaves a text that fits as it is', () => {
    const text = 'x'.repeat(HOOK_TEXT_LIMIT)
    expect(withinHookLimit(text, [textPart(text)])).toBe(text)
    expect(rationaleQuoted('D-001', 'Short.')).toBe('Short.')
  })

  it('quotes a long rationale by its start, then the command that prints the whole, as it runs', () => {
    // `decision-memory` is on no PATH (the package is not installed): the command runs this
    // checkout's bin with node, as the hook's command to be asked again does.
    const quoted = rationaleQuoted('D-001', 'why '.repeat(2000))
    expect(quoted).toBe(`${'why '.repeat(125)}… (the whole rationale: ${WHY('D-001')})`)
    // A service elsewhere than the default address is named, so that a new shell finds it.
    expect(rationaleQuoted('D-001', 'why '.repeat(2000), 'DECISION_MEMORY_URL=http://127.0.0.1:7421 ')).toMatch(
      /… \(the whole rationale: DECISION_MEMORY_URL=http:\/\/127\.0\.0\.1:7421 node .+ why D-001\)$/,
    )
  })

  it('cuts the longest parts, each to one length, keeping the beginning and the end whole', () => {
    const question = `Which ${'very '.repeat(1000)}long question?`
    const rationale = 'because '.repeat(1000)
    const text = `decision-memory answered for you: "${question}" = "A" (required by decision D-001: ${rationaleQuoted('D-001', rationale)}). To be asked again in this session: node bin.js toggle --off`
    const fitted = withinHookLimit(`${text} ${text.replace('D-001', 'D-002')}`, [textPart(question), rationalePart('D-001', rationale)], 1000)
    expect(fitted.length).toBeLessThanOrEqual(1000)
    expect(fitted).toMatch(/^decision-memory answered for you: "Which very /)
    expect(fitted).toMatch(/To be asked again in this session: node bin\.js toggle --off$/)
    // The rationale cut still says where the whole is.
    expect(fitted).toContain(`… (the whole rationale: ${WHY('D-001')})`)
    expect(fitted).not.toContain(' […] ')
  })

  it('leaves out the middle when the parts alone cannot make it fit, never within a character', () => {
    const text = `Blocked: ${'🙂'.repeat(10_000)} run this last`
    const fitted = withinHookLimit(text)
    expect(fitted.length).toBeLessThanOrEqual(HOOK_TEXT_LIMIT)
    expect(fitted).toMatch(/^Blocked: 🙂/)
    expect(fitted).toMatch(/🙂 run this last$/)
    expect(fitted).toContain(' […] ')
    expect(fitted).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
  })
})
