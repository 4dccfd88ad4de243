import { beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { DEFAULT_POLICY_FILE, loadPolicy, parsePolicy } from '../config/load-policy'
import { decisionPointKey, hashPointKey, isSensitive, normalizeQuestion } from './decision-point'
import type { CompiledPolicy } from './policy'

let policy: CompiledPolicy
beforeAll(async () => {
  policy = await loadPolicy()
})

describe('decision point keys (R-CAP-4)', () => {
  it('uses point when given', () => {
    expect(decisionPointKey({ point: 'next-step', question: 'Which tier?', options: ['a'] }, policy)).toBe('next-step')
  })

  it('matches a policy rule on the header or the question', () => {
    expect(decisionPointKey({ header: 'Tier', question: 'Pick one', options: ['S', 'M'] }, policy)).toBe('complexity-tier')
    expect(decisionPointKey({ question: 'Which development methodology for this change?', options: ['TDD', 'DDD'] }, policy)).toBe(
      'development-methodology',
    )
  })

  it("keys the seed's tier question, the tiers named in it, to complexity-tier under any header", () => {
    // "Tier S, M or L?" is how the seed's own example asks; under a header other than `Tier` it
    // was a hashed point of its own: the first option, Tier S, its static default, not Tier M.
    for (const question of ['Tier S, M or L?', 'Tier S, Tier M or Tier L?', 'Tier S/M/L?', 'Tier S, M, or L for this SPEC?']) {
      for (const header of [undefined, 'Scope', 'SPEC tier']) {
        expect(decisionPointKey({ header, question, options: ['Tier S', 'Tier M', 'Tier L'] }, policy)).toBe('complexity-tier')
      }
    }
    expect(decisionPointKey({ header: 'Size', question: 'T-shirt size S, M or L?', options: ['S', 'M', 'L'] }, policy)).toMatch(/^q-/)
  })

  it('keys the default questions as agents word them: a header ending in a mark, the point named in other words', () => {
    const key = (header: string | undefined, question: string) => decisionPointKey({ header, question, options: ['A', 'B'] }, policy)
    // A header ending in a mark is keyed as the question is, its trailing punctuation dropped.
    for (const [header, point] of [['Tier:', 'complexity-tier'], ['Effort?', 'effort-level'], ['Model ', 'model-selection'], ['Method:', 'development-methodology']]) {
      expect(key(header, 'Pick one')).toBe(point)
    }
    // Under a header of its own, the question names the point.
    expect(key('Scope', 'What tier should this SPEC be?')).toBe('complexity-tier')
    expect(key('Size', 'What complexity tier fits this change?')).toBe('complexity-tier')
    expect(key(undefined, 'What model should I use for the implementation?')).toBe('model-selection')
    expect(key('Implementer', 'Which Claude model should implement this?')).toBe('model-selection')
    expect(key('Scope', 'Which tier?')).toBe('complexity-tier')
    expect(key('Scope', 'Which tier for this SPEC?')).toBe('complexity-tier')
    expect(key('Implementer', 'Which model should implement this?')).toBe('model-selection')
    expect(key('Reviewers', 'Which models should review this PR?')).toBe('model-selection')
    // Which model of Claude, and which tier of complexity, are still those points; so are a model
    // asked of data or a schema, which Claude models are asked to work on.
    expect(key('Scope', 'Which tier of complexity fits this change?')).toBe('complexity-tier')
    // Of the options offered, too: "of" names another thing only when a thing follows it.
    expect(key('Scope', 'Which tier of the three fits this change?')).toBe('complexity-tier')
    expect(key('Implementer', 'Which model of the two: Opus or Sonnet?')).toBe('model-selection')
    expect(key('Scope', 'Which tier of these fits best?')).toBe('complexity-tier')
    expect(key('Scope', 'Which tier of the three?')).toBe('complexity-tier')
    // The options offered, listed or pointed at after it, are no other thing: a version before this keyed these to q-….
    for (const [header, question, point] of [
      ['Implementer', 'Which model of the three (Opus, Sonnet, Haiku) should implement this?', 'model-selection'],
      ['Implementer', 'Which model of the two for this task?', 'model-selection'],
      ['Scope', 'Which tier of the three — S, M or L?', 'complexity-tier'],
      ['Scope', 'Which tier of the three - S, M or L?', 'complexity-tier'],
      ['Scope', 'Which tier of the three for this SPEC?', 'complexity-tier'],
      ['Scope', 'Which tier of these three fits?', 'complexity-tier'],
      ['Scope', 'Which tier of the three tiers fits this change?', 'complexity-tier'],
      ['Scope', 'Which tier of the following applies?', 'complexity-tier'],
      ['Scope', 'Which tier of the three seems right?', 'complexity-tier'],
    ] as const) {
      expect(key(header, question), question).toBe(point)
    }
    // But not of a number of other things, named after it: those were keyed to the points too.
    for (const [header, question] of [
      ['Cache', 'Which tier of the three-tier architecture should hold the cache?'],
      ['Storage', 'Which tier of the two storage classes should the logs go to?'],
      ['Infra', 'Which tier of these services should cache it?'],
      ['Commit', 'Which model of the two-phase commit should we use?'],
      ['Data', 'Which model of the following entities needs an index?'],
    ] as const) {
      expect(key(header, question), question).toMatch(/^q-/)
    }
    expect(key('Implementer', 'Which model of Claude should implement this?')).toBe('model-selection')
    expect(key('Implementer', 'Which model should migrate the data layer?')).toBe('model-selection')
    expect(key('Reviewer', 'Which model should review the schema change?')).toBe('model-selection')
    // The point's own name as a header (12 characters, as Claude Code allows).
    expect(key('Effort level', 'How hard should Claude think?')).toBe('effort-level')
  })

  it('keeps questions that only share a word with a default point to points of their own', () => {
    const key = (header: string | undefined, question: string) => decisionPointKey({ header, question, options: ['A', 'B'] }, policy)
    for (const [header, question] of [
      [undefined, 'Tiered storage?'],
      ['Storage', 'What tiered storage class should we use?'],
      ['Pricing', 'What tiers does the plan have?'],
      ['Cache', 'What tier of the cache should we evict first?'],
      ['Schema', 'Which data model fits this feature?'],
      ['Modelling', 'What modelling approach should we take?'],
      ['Effort estimate', 'How many story points?'],
      ['Models', 'Which ORM should we use?'],
      // Tiers and models of other things: a service's, a cache's, an entity's.
      ['Plan', 'What tier of service should we buy?'],
      ['Cache', 'What tier should the Redis cache run on: Basic, Standard or Premium?'],
      ['Domain', 'What model should the Order entity use?'],
      ['Consistency', 'What model of consistency do we need?'],
      ['Schema', 'What model should we use for the orders table?'],
      // Asked with "Which", as with "What": a tier of something bought, a model of data.
      ['Plan', 'Which tier of service should we buy?'],
      ['Pricing', 'Which tiers does the plan have?'],
      ['Consistency', 'Which model of consistency do we need?'],
      ['Modelling', 'Which modelling approach should we take?'],
    ] as const) {
      expect(key(header, question), `${header} / ${question}`).toMatch(/^q-/)
    }
  })

  it('keeps them there when the question is sent with two spaces, a non-breaking one or a line break', () => {
    // The rule is tried on the text as sent too, where `(?! of\b)` saw `  of` and `.*` stopped at
    // the line's end: the tier of a service was the SPEC's tier there, the orders table's model Claude's.
    const key = (header: string, question: string) => decisionPointKey({ header, question, options: ['A', 'B'] }, policy)
    for (const [header, question] of [
      ['Plan', 'Which tier  of service should we buy?'],
      ['Plan', 'Which tier\u00a0of service should we buy?'],
      ['Support', 'What tier\nof support does this ticket need?'],
      ['Consistency', 'Which model  of consistency do we need?'],
      ['Consistency', 'Which models\nof consistency do we need?'],
      ['Schema', 'What model should we use\nfor the orders table?'],
      ['Domain', 'What model should I use for\nthe Order entity?'],
    ] as const) {
      expect(key(header, question), JSON.stringify(question)).toMatch(/^q-/)
    }
    // Nor is what is the point lost so: a tier of complexity, a model of Claude.
    expect(key('Scope', 'Which tier of\u00a0complexity fits this change?')).toBe('complexity-tier')
    expect(key('Implementer', 'Which model  of Claude should implement this?')).toBe('model-selection')
  })

  it('matches a rule on the question and header as keyed: white space collapsed, trimmed, trailing punctuation dropped', () => {
    for (const question of ['Which complexity  tier?', 'Which\u00a0complexity tier', '  which complexity tier  ', 'Which complexity\ttier?']) {
      expect(decisionPointKey({ question, options: ['S', 'M'] }, policy)).toBe('complexity-tier')
    }
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const anchored = parsePolicy(JSON.stringify({ ...raw, points: [{ key: 'tier', match: { header: '^tier$', question: '^which tier$' } }] }), 'own.json')
    for (const question of ['Which tier?', ' Which tier ', 'Which\u00a0tier', 'WHICH  TIER?!']) {
      expect(decisionPointKey({ question, options: ['S', 'M'] }, anchored)).toBe('tier')
    }
    expect(decisionPointKey({ header: ' Tier: ', question: 'Pick one', options: ['S', 'M'] }, anchored)).toBe('tier')
    expect(decisionPointKey({ question: 'Which tiers?', options: ['S', 'M'] }, anchored)).toMatch(/^q-/)
  })

  it('reads a rule in Unicode mode: a property escape, an emoji, a character of a rule fit as written', () => {
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const own = parsePolicy(
      JSON.stringify({
        ...raw,
        points: [
          { key: 'han', match: { question: '^\\p{Script=Han}+$' } },
          { key: 'rocket', match: { question: '[🚀]' } },
          { key: 'short', match: { header: '^.{2}$' } },
          // Refused in Unicode mode (an escaped hyphen outside a class), valid before: read as before.
          { key: 'legacy', match: { question: '^pre\\-flight' } },
        ],
      }),
      'own.json',
    )
    const key = (question: string, header?: string) => decisionPointKey({ question, header, options: ['S', 'M'] }, own)
    expect(key('用哪个数据库？')).toBe('han')
    expect(key('p{Script=Han}')).toMatch(/^q-/)
    expect(key('Ship it 🚀?')).toBe('rocket')
    // Another emoji shares the rocket's first UTF-16 unit, not the rocket.
    expect(key('Ship it 😀?')).toMatch(/^q-/)
    expect(key('Which one?', '🚀🛠')).toBe('short')
    expect(key('Pre-flight checks?')).toBe('legacy')
  })

  it('reads a rule as the question is read (NFC, white space one space), and still fits one that names a trailing "?"', () => {
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const own = parsePolicy(
      JSON.stringify({
        ...raw,
        points: [
          { key: 'spaced', match: { question: '^which  complexity\u00a0tier$' } },
          { key: 'accented', match: { question: 'donne\u0301es' } },
          { key: 'asked', match: { question: 'next step\\?$', header: '^Step\\S$' } },
        ],
      }),
      'own.json',
    )
    expect(decisionPointKey({ question: 'Which complexity tier?', options: ['S'] }, own)).toBe('spaced')
    expect(decisionPointKey({ question: 'Où vont les données ?', options: ['S'] }, own)).toBe('accented')
    expect(decisionPointKey({ question: 'What is the next step?', options: ['S'] }, own)).toBe('asked')
    // Sent with two spaces, or one after the `?`: fitted as the rule, its white space one space, reads it.
    expect(decisionPointKey({ question: 'What is the next  step?', options: ['S'] }, own)).toBe('asked')
    expect(decisionPointKey({ question: 'What is the next step? ', options: ['S'] }, own)).toBe('asked')
    // `\S` stays "not white space": the rule is not lower-cased.
    expect(decisionPointKey({ header: 'Step2', question: 'Go on', options: ['S'] }, own)).toBe('asked')
    expect(decisionPointKey({ header: 'Step 2', question: 'Go on', options: ['S'] }, own)).toMatch(/^q-/)
  })

  it('reads a rule with no white space at its ends, as a YAML block writes one, but an escaped space kept', async () => {
    // `question: |` ends the rule in a newline: `which database ` fit neither `Which database?` nor its key.
    const own = parsePolicy(
      ['points:', '  - key: db', '    match:', '      question: |', '        which database', '  - key: tier', '    match: { header: "^tier\\\\ " }', ''].join('\n'),
      'own.yaml',
      JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8')),
    )
    expect(own.points[1]?.match.header).toBe('^tier\\ ')
    expect(decisionPointKey({ question: 'Which database?', options: ['S'] }, own)).toBe('db')
    expect(decisionPointKey({ question: 'Which database should this use?', options: ['S'] }, own)).toBe('db')
    expect(decisionPointKey({ header: 'tier 2', question: 'Go on', options: ['S'] }, own)).toBe('tier')
    expect(decisionPointKey({ header: 'tier', question: 'Go on', options: ['S'] }, own)).toMatch(/^q-/)
  })

  it('hashes the normalised question and the sorted labels otherwise', () => {
    const a = decisionPointKey({ question: 'Choose the next step', options: ['Option A', 'Option B', 'Option C'] }, policy)
    const b = decisionPointKey({ question: '  choose the NEXT step? ', options: ['Option C (Recommended)', 'Option A', 'Option B'] }, policy)
    expect(a).toMatch(/^q-[0-9a-f]{20}$/)
    expect(b).toBe(a)
    expect(hashPointKey('Choose the next step', ['Option A', 'Option B'])).not.toBe(a)
  })

  it('normalises question text', () => {
    expect(normalizeQuestion('  Which   Tier?!  ')).toBe('which tier')
    // Full-width marks are how Chinese and Japanese end a question: dropped as their ASCII forms are.
    expect(normalizeQuestion('どのDBを使いますか？')).toBe('どのdbを使いますか')
    expect(normalizeQuestion('用哪个数据库？！')).toBe(normalizeQuestion('用哪个数据库'))
    expect(normalizeQuestion('次の手順を選んでください。')).toBe('次の手順を選んでください')
    expect(hashPointKey('どのDBを使いますか？', ['A', 'B'])).toBe(hashPointKey('どのDBを使いますか', ['A', 'B']))
    // Arabic ends a question with ؟ (an agent may write ? instead), Hindi a sentence with ।.
    expect(normalizeQuestion('أي قاعدة بيانات نستخدم؟')).toBe('أي قاعدة بيانات نستخدم')
    expect(hashPointKey('أي قاعدة بيانات نستخدم؟', ['A', 'B'])).toBe(hashPointKey('أي قاعدة بيانات نستخدم?', ['A', 'B']))
    expect(normalizeQuestion('कौन सा डेटाबेस चुनें।')).toBe('कौन सा डेटाबेस चुनें')
    // A right-to-left mark after the question mark, invisible, does not keep the mark.
    expect(normalizeQuestion('أي قاعدة بيانات نستخدم؟\u200f')).toBe('أي قاعدة بيانات نستخدم')
    expect(normalizeQuestion('Which database?\u200e')).toBe('which database')
  })

  it('finds sensitive terms in the question or header', () => {
    expect(isSensitive({ question: 'How should we handle this security incident?', key: 'q-x' }, policy)).toBe(true)
    expect(isSensitive({ question: 'Which tier?', key: 'complexity-tier' }, policy)).toBe(false)
  })

  it('finds a term written right after a Chinese or Japanese letter, as those languages write an English word', () => {
    expect(isSensitive({ question: 'DBのpasswordを更新しますか？', key: 'q-x' }, policy)).toBe(true)
    expect(isSensitive({ question: '修改production data吗', key: 'q-x' }, policy)).toBe(true)
    // After the long-vowel mark that ends サーバー, a letter of no one script (Common), used only in Japanese.
    expect(isSensitive({ question: 'サーバーpasswordを変えますか？', key: 'q-x' }, policy)).toBe(true)
    // A letter of a spaced script still joins the word: nonsecret, Δpassword name no term.
    expect(isSensitive({ question: 'Use the nonsecret one?', key: 'q-x' }, policy)).toBe(false)
    expect(isSensitive({ question: 'Δpassword?', key: 'q-x' }, policy)).toBe(false)
  })

  it('finds a term in its plural, -ies too: vulnerabilities are a vulnerability', () => {
    expect(isSensitive({ question: 'Which vulnerabilities should we patch first?', key: 'q-x' }, policy)).toBe(true)
    expect(isSensitive({ question: 'Which VULNERABILITIES?', key: 'q-x' }, policy)).toBe(true)
    expect(isSensitive({ question: 'Review the open incidents?', key: 'q-x' }, policy)).toBe(true)
    expect(isSensitive({ question: 'Which queries should we cache?', key: 'q-x' }, policy)).toBe(false)
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const own = parsePolicy(JSON.stringify({ ...raw, sensitive_terms: ['privacy policy', 'key'] }), 'own.json')
    expect(isSensitive({ question: 'Update the privacy  policies?', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: 'Rotate the keys?', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: 'Update the privacies policy?', key: 'q-x' }, own)).toBe(false)
  })

  it("finds sensitive terms in an offered option's label, matched as in the question, not in its description", () => {
    const question = { question: 'What should the migration do with the old table?', key: 'q-x' }
    expect(isSensitive({ ...question, options: [{ option: 'Keep production data' }, { option: 'Drop it' }] }, policy)).toBe(true)
    expect(isSensitive({ ...question, options: [{ option: 'Keep production\n data' }, { option: 'Drop it' }] }, policy)).toBe(true)
    // A description describes: `best for security reviews` does not make a model question sensitive.
    expect(isSensitive({ question: 'Which model?', key: 'q-y', options: [{ option: 'Opus', description: 'best for security reviews' }, { option: 'Sonnet' }] }, policy)).toBe(false)
    expect(isSensitive({ ...question, options: [{ option: 'Rotate the CREDENTIALS' }, { option: 'Leave them' }] }, policy)).toBe(true)
    // The same rules: a term starts a word, so `insecurity` or `nonsecret` names no term.
    expect(isSensitive({ ...question, options: [{ option: 'Keep it', description: 'no insecurity here' }, { option: 'nonsecret' }] }, policy)).toBe(false)
    expect(isSensitive({ ...question, options: [{ option: 'Keep it' }, { option: 'Drop it' }] }, policy)).toBe(false)
  })

  it("finds a policy's own terms that start with a sign or a letter outside ASCII, and across any white space", () => {
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const own = parsePolicy(JSON.stringify({ ...raw, sensitive_terms: ['.env', 'ключ', 'production data'] }), 'own.json')
    expect(isSensitive({ question: 'May I edit the .env file?', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: 'Где хранить ключ?', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: 'Copy the production\n data?', key: 'q-x' }, own)).toBe(true)
    // Still the start of a word: neither inside one nor after a letter of another script.
    expect(isSensitive({ question: 'Which environment?', key: 'q-x' }, own)).toBe(false)
    expect(isSensitive({ question: 'Как переключить?', key: 'q-x' }, own)).toBe(false)
    expect(() => parsePolicy(JSON.stringify({ ...raw, sensitive_terms: ['  '] }), 'own.json')).toThrow('own.json: invalid policy\n  sensitive_terms.0: must not be blank')
  })

  it('finds a term of a script written without spaces (Chinese, Japanese, Thai) inside a sentence', () => {
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const own = parsePolicy(JSON.stringify({ ...raw, sensitive_terms: ['本番データ', 'パスワード', '密码', 'รหัสผ่าน', 'ключ'] }), 'own.json')
    // No space before a word there: the letter before it is of another word of the sentence.
    expect(isSensitive({ question: 'どの本番データを消しますか？', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: '新しいパスワードを設定しますか', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: '修改数据库密码？', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: 'เปลี่ยนรหัสผ่านไหม', key: 'q-x' }, own)).toBe(true)
    expect(isSensitive({ question: 'どのテストデータを使いますか？', key: 'q-x' }, own)).toBe(false)
    // A term of a spaced script still starts a word.
    expect(isSensitive({ question: 'Как переключить?', key: 'q-x' }, own)).toBe(false)
  })

  it('finds a term written in one Unicode form in a question written in the other (NFC and NFD)', () => {
    const raw = JSON.parse(readFileSync(DEFAULT_POLICY_FILE, 'utf8'))
    const decomposed = parsePolicy(JSON.stringify({ ...raw, sensitive_terms: ['donne\u0301es prive\u0301es'] }), 'own.json')
    expect(isSensitive({ question: 'Exporter les données privées ?', key: 'q-x' }, decomposed)).toBe(true)
    const composed = parsePolicy(JSON.stringify({ ...raw, sensitive_terms: ['données privées'] }), 'own.json')
    expect(isSensitive({ question: 'Exporter les donne\u0301es prive\u0301es ?', key: 'q-x' }, composed)).toBe(true)
    expect(isSensitive({ question: 'Exporter les donne\u0301es ?', key: 'q-x', header: 'prive\u0301es' }, composed)).toBe(false)
  })
})

describe('the keys a history is under, kept by 5adb539 (NFC again after lowering)', () => {
  // Keys as 52639dd made them: a question keyed anew would start again from the static default.
  it.each([
    ['ASCII', 'Which DB should we use?', 'q-a128e730d7a5367a78d2'],
    ['Latin, composed', 'Élément à créer ?', 'q-58291425a655ae3d50c4'],
    ['Latin, decomposed', 'E\u0301le\u0301ment a\u0300 cre\u0301er ?', 'q-58291425a655ae3d50c4'],
    ['Latin capitals, decomposed', 'E\u0301TE\u0301 OU HIVER ?', 'q-01c627d393ec751d2681'],
    ['Greek', 'Ποια βάση δεδομένων; ΐ', 'q-863e810e63e308626a77'],
    ['Greek capitals', 'ΠΟΙΑ ΒΆΣΗ ΟΔΟΣ;', 'q-d31302f1aac4b5222aa6'],
    ['Turkish', 'İstanbul mı İzmir mi?', 'q-d180d6254079e3906d5c'],
    ['German', 'Welche GRÖSSE, welche Straße?', 'q-656db97b95c8e9ded07b'],
    ['CJK', '使用哪个数据库？', 'q-b302c48de866d76a0bd7'],
    ['Arabic', 'أي قاعدة بيانات نستخدم؟', 'q-3ed56fc0707fa99d2d02'],
  ])('keeps the key of a question in %s', (_, question, key) => {
    expect(hashPointKey(question, ['a', 'b'])).toBe(key)
  })

  it('keys anew only a question in capitals whose letter, lowered, composes with its accent (README, Questions keyed anew)', () => {
    // 52639dd keyed `ΠΟΙΑ Ϊ́;` (U+03AA U+0301) as q-59506d2f4891059e2e81, its lowered `ΐ` not made one character.
    expect(hashPointKey('ΠΟΙΑ \u03aa\u0301;', ['a', 'b'])).toBe(hashPointKey('ποια \u0390;', ['a', 'b']))
    expect(hashPointKey('ΠΟΙΑ \u03aa\u0301;', ['a', 'b'])).not.toBe('q-59506d2f4891059e2e81')
  })
})
