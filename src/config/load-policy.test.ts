import { writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { DEFAULT_POLICY_FILE, loadPolicy, parsePolicy, PolicyFileError } from './load-policy'
import { tempDir } from '../../test/support/temp-dir'

describe('policies (R-POL)', () => {
  it('loads the default policy with the numbers of the spec and the seed points', async () => {
    const policy = await loadPolicy()
    expect(policy.thresholds).toEqual({ min_observations: 5, sufficient_observations: 20 })
    expect(policy.decay.alpha).toBe(0.5)
    expect(policy.recall.ttl_days).toBe(28)
    expect(policy.ask.auto_resolve_p).toBe(0.9)
    expect(policy.points.map((p) => p.key)).toEqual(['complexity-tier', 'development-methodology', 'model-selection', 'effort-level'])
    for (const point of policy.points) {
      expect(point.static_default).toBeTruthy()
      expect(point.precondition).toBeTruthy()
      // Shown to the user as `Recommended when <precondition>` (R-REC-5): a clause, not a noun phrase
      // ("Recommended when a task of ordinary difficulty").
      expect(point.precondition).toMatch(/^the \w+ (is|has) /)
    }
  })

  it('names the file and the field of a broken policy', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    raw.thresholds.min_observations = 0
    raw.points[1].match.question = '(unclosed'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(PolicyFileError)
    try {
      parsePolicy(JSON.stringify(raw), 'mine.json')
    } catch (error) {
      expect((error as Error).message).toContain('mine.json')
      expect((error as Error).message).toContain('thresholds.min_observations')
      expect((error as Error).message).toContain('points.1.match.question')
    }
  })

  it('says a required field left out is missing, as the service says it, not that it received undefined', () => {
    // A file has no undefined either: zod's "Invalid input: expected string, received undefined" meant a field not written.
    const message = (() => {
      try {
        parsePolicy('{"points": [{"always_ask": true}]}', 'mine.json')
      } catch (error) {
        return (error as PolicyFileError).message
      }
      return ''
    })()
    expect(message.split('\n')).toContain('  points.0.key: missing: expected string')
    expect(message.split('\n')).toContain('  points.0.match: missing: expected object')
    expect(message).not.toContain('undefined')
  })

  it('refuses a point key that requests could not name (R-POL, the identifiers of R-SVC-2)', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    raw.points[0].key = '!tier'
    raw.points[1].key = 'method\u0007'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      'mine.json: invalid policy\n  points.0.key: must not start with "!"\n  points.1.key: must not contain control characters or lone surrogates',
    )
  })

  it('refuses a lone surrogate in a text of the policy, as a point key and every text of a request refuse one, naming the field', async () => {
    // JSON.stringify writes each as the escape `"\ud800"`, as a hand may: a static default holding
    // one names no option a request can send, a term or rule no question, and a precondition was
    // said in every answer standing on it.
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    raw.sensitive_terms.push('sec\ud800')
    raw.default_precondition = 'not yet\udc00'
    raw.points[0].match.header = 'tier\ud800'
    raw.points[0].match.question = 'which tier\ud800'
    raw.points[0].static_default = 'Tier M\ud800'
    raw.points[0].precondition = '\udfff typical'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      'mine.json: invalid policy\n' +
        '  sensitive_terms.8: must not contain lone surrogates\n' +
        '  default_precondition: must not contain lone surrogates\n' +
        '  points.0.match.header: must not contain lone surrogates\n' +
        '  points.0.match.question: must not contain lone surrogates\n' +
        '  points.0.static_default: must not contain lone surrogates\n' +
        '  points.0.precondition: must not contain lone surrogates',
    )
    // YAML's double quotes write one as JSON does; a pair, an emoji, is one character, and taken.
    const dir = tempDir('dm-policy-')
    writeFileSync(join(dir, 'lone.yaml'), 'points:\n  - key: tier\n    match: {question: tier}\n    static_default: "Tier \\ud800M"\n')
    await expect(loadPolicy(join(dir, 'lone.yaml'))).rejects.toThrow(`${join(dir, 'lone.yaml')}: invalid policy\n  points.0.static_default (line 4): must not contain lone surrogates`)
    writeFileSync(join(dir, 'pair.yaml'), 'points:\n  - key: tier\n    match: {question: "tier \\ud83d\\ude80"}\n    static_default: "Tier \\ud83d\\ude80"\n')
    expect((await loadPolicy(join(dir, 'pair.yaml'))).points[0]?.static_default).toBe('Tier \u{1F680}')
  })

  it('refuses a point key spaced at its ends, or white space alone, as the routes refuse a point written so', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    raw.points[0].key = 'tier '
    raw.points[1].key = '\u00a0method'
    raw.points[2].key = '   '
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      'mine.json: invalid policy\n' +
        '  points.0.key: no spaces at its ends: "tier " would be another name than "tier"\n' +
        '  points.1.key: no spaces at its ends: "\u00a0method" would be another name than "method"\n' +
        '  points.2.key: must not be empty or white space alone',
    )
  })

  it('reads YAML too, and reports unreadable files and bad syntax with the path', async () => {
    const dir = tempDir('dm-policy-')
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const { stringify } = await import('yaml')
    writeFileSync(join(dir, 'p.yaml'), stringify({ ...raw, ask: { auto_resolve_p: 0.8 } }))
    expect((await loadPolicy(join(dir, 'p.yaml'))).ask.auto_resolve_p).toBe(0.8)
    // The code alone (ENOENT) said neither what was wrong nor what to give instead.
    await expect(loadPolicy(join(dir, 'missing.json'))).rejects.toThrow(
      new PolicyFileError(`${join(dir, 'missing.json')}: cannot read policy file: there is no such file (ENOENT): give --policy the path of a policy file`),
    )
    writeFileSync(join(dir, 'bad.json'), '{ nope')
    await expect(loadPolicy(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json: not valid JSON/)
  })

  it('refuses what is no file, and a file of more than 4 MB, naming --policy, rather than read it', async () => {
    // /dev/null read as an empty file; /dev/zero and a named pipe were read until memory or a writer came.
    await expect(loadPolicy('/dev/null')).rejects.toThrow(new PolicyFileError('/dev/null: cannot read policy file: a device, not a file: give --policy the path of a policy file'))
    const big = join(tempDir('dm-policy-big-'), 'policy.json')
    writeFileSync(big, `{}${' '.repeat(4 * 1024 * 1024)}`)
    await expect(loadPolicy(big)).rejects.toThrow(new PolicyFileError(`${big}: cannot read policy file: it holds 4194306 bytes, more than 4 MB, more than any policy file: give --policy the path of a policy file`))
    // A folder was said by its code alone, EISDIR.
    const folder = tempDir('dm-policy-folder-')
    await expect(loadPolicy(folder)).rejects.toThrow(new PolicyFileError(`${folder}: cannot read policy file: a folder, not a file (EISDIR): give --policy the path of a policy file`))
  })

  it('refuses a scan.cron that is not a cron expression, naming the file and the field (R-POL)', async () => {
    const policy = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    policy.scan.cron = 'every day at three'
    expect(() => parsePolicy(JSON.stringify(policy), 'mine.json')).toThrow(PolicyFileError)
    expect(() => parsePolicy(JSON.stringify(policy), 'mine.json')).toThrow(
      'mine.json: invalid policy\n  scan.cron: not a cron expression: "every day at three"',
    )
    policy.scan.cron = '17 3 * * *'
    expect(parsePolicy(JSON.stringify(policy), 'mine.json').scan.cron).toBe('17 3 * * *')
  })
  it('names every problem of a file at once: a cron expression, the cross-field checks and a wrong type together (R-POL)', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    raw.decay.alpha = 'half'
    raw.thresholds.sufficient_observations = 3
    raw.confidence.high = 0.5
    raw.confidence.medium = 0.8
    raw.expertise.beginner_below = 60
    raw.points[0].match.question = '(unclosed'
    raw.points[1].always_ask = 'yes'
    raw.points[2].key = raw.points[3].key
    raw.scan.cron = 'every day at three'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      [
        'mine.json: invalid policy',
        '  thresholds.sufficient_observations: must be at least thresholds.min_observations: 3 is below 5',
        '  confidence.medium_high: must be at most confidence.high: 0.75 is above 0.5',
        '  confidence.medium: must be at most confidence.medium_high: 0.8 is above 0.75',
        '  decay.alpha: a number, not a string',
        '  expertise.expert_above: must be at least expertise.beginner_below: 50 is below 60',
        '  points.0.match.question: not a valid regular expression (Unterminated group): (unclosed',
        '  points.1.always_ask: true or false, not a string ("yes" is text: write true)',
        '  points.3.key: duplicate key effort-level',
        '  scan.cron: not a cron expression: "every day at three"',
      ].join('\n'),
    )
  })
})

describe('a match rule that could hold the service (R-POL)', () => {
  it('refuses a repeated group with a repeat inside it, naming the field and the group, and takes the seed rules', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // `^(a+)+$` held every route 27 s on a 28-character question that almost matched.
    raw.points[0].match.question = '^(a+)+$'
    raw.points[1].match.header = '(\\w+\\s?)*tier'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      [
        'mine.json: invalid policy',
        '  points.0.match.question: (a+)+ repeats a group that repeats inside it, which can take exponential time on a question that almost matches (every question is tried): write it with one repeat, as a+ for (a+)+',
        '  points.1.match.header: (\\w+\\s?)* repeats a group that repeats inside it, which can take exponential time on a question that almost matches (every question is tried): write it with one repeat, as a+ for (a+)+',
      ].join('\n'),
    )
    raw.points[0].match.question = '^a+$'
    raw.points[1].match.header = '\\w+\\s?tier'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).not.toThrow()
  })

  it('refuses a repeated group that can match the same text in two ways, naming the field and the group', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // `(\w|\d)+$` held every route 7 s on 28 digits and a `!`, `(test|tests?)+` 3 s on 28 `test`s.
    raw.points[0].match.question = '(\\w|\\d)+$'
    raw.points[1].match.header = '(test|tests?)+ runner'
    raw.points[2].match.question = 'which (?=(a|aa)+b)'
    raw.points[3].match.header = '^(?:\\s?-?)+$'
    // The way to write it is said for the group refused: its own alternatives as one set, where each is one character.
    const said = (group: string, hint: string) =>
      `${group} repeats a group that can match the same text in more than one way (two of its alternatives, or two of its parts, fit the same characters), which can take exponential time on a question that almost matches (every question is tried): write it so that each text is matched one way: ${hint}`
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      [
        'mine.json: invalid policy',
        `  points.0.match.question: ${said('(\\w|\\d)+', 'its alternatives, of one character each, as one set, [\\w\\d]+')}`,
        `  points.1.match.header: ${said('(test|tests?)+', 'alternatives no text fits two of, nor a run of them another, as (tests?)+ for (test|tests?)+ and a+ for (a|aa)+')}`,
        `  points.2.match.question: ${said('(a|aa)+', 'alternatives no text fits two of, nor a run of them another, as (tests?)+ for (test|tests?)+ and a+ for (a|aa)+')}`,
        `  points.3.match.header: ${said('(?:\\s?-?)+', 'parts that cannot split a round in two, one of them at least required, as (?:a|b)* for (a?b?)*, and one repeat where a repeat of varying length is repeated, as a{2,} for (a{2,3})+')}`,
      ].join('\n'),
    )
    // Alternatives that part at once, as most rules' do, are taken.
    raw.points[0].match.question = '(ab|ac)+$'
    raw.points[1].match.header = '(tests?|specs?)+ runner'
    raw.points[2].match.question = 'which (?=(a|b)+c)'
    raw.points[3].match.header = '^(?:\\s|-)+$'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).not.toThrow()
  })
})

describe('a match rule that fits every question (R-POL)', () => {
  it('refuses a rule that matches empty text, naming the field, rather than keying every question to its point', async () => {
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // A trailing |: every question asked ("Which database?") was the complexity tier.
    raw.points[0].match.question = 'complexity tier|which tier|'
    raw.points[1].match.header = '^(method)?'
    raw.points[2].match.question = 'which\\s*(model)*'
    // (A rule with an optional part and a required one, which\s*(model)*, is taken.)
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).toThrow(
      [
        'mine.json: invalid policy',
        '  points.0.match.question: complexity tier|which tier| matches empty text, so it fits every question: its point would take every question asked (remove an empty alternative, as a trailing |, or make a part required, as x+ for x*)',
        '  points.1.match.header: ^(method)? matches empty text, so it fits every header: its point would take every question asked (remove an empty alternative, as a trailing |, or make a part required, as x+ for x*)',
      ].join('\n'),
    )
    // The seed rules, and a rule for a blank header only, are taken.
    raw.points[0].match.question = 'complexity tier|which tier'
    raw.points[1].match.header = '^$'
    expect(() => parsePolicy(JSON.stringify(raw), 'mine.json')).not.toThrow()
  })
})

describe('a match rule that is no regular expression (R-POL)', () => {
  it.each([
    ['(unclosed', 'Unterminated group'],
    ['[b-a] tier', 'Range out of order in character class'],
    ['*which', 'Nothing to repeat'],
    ['which tier\\', '\\ at end of pattern'],
    ['a/i: (b', 'Unterminated group'],
  ])('says why the engine refuses %s, without its prefix repeating the rule', (rule, reason) => {
    const policy = JSON.stringify({ points: [{ key: 'tier', match: { question: rule } }] })
    expect(() => parsePolicy(policy, 'mine.json')).toThrow(`  points.0.match.question: not a valid regular expression (${reason}): ${rule}`)
    expect(() => parsePolicy(policy, 'mine.json')).not.toThrow(/Invalid regular expression/)
  })
})

describe('the line of a field a refusal names (R-POL)', () => {
  it('says the line of the point a field is missing from, in a file of many lines, as it says a field\'s own', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // A field left out is on no line: the point it is missing from is, where a policy of many points was counted by hand.
    const said = (text: string, file: string) => {
      try {
        parsePolicy(text, file, base)
      } catch (error) {
        return (error as PolicyFileError).message.split('\n').slice(1)
      }
      return []
    }
    const json = ['{', '  "points": [', '    { "key": "db", "match": { "question": "database" } },', '    {', '      "match": { "question": "cache" }', '    }', '  ]', '}'].join('\n')
    expect(said(json, 'mine.json')).toEqual(['  points.1.key (line 4): missing: expected string'])
    const yaml = ['points:', '  - key: db', '    match: { question: database }', '  - match:', '      question: cache'].join('\n')
    expect(said(yaml, 'mine.yaml')).toEqual(['  points.1.key (line 4): missing: expected string'])
  })

  it('says the line of each field of the file, in JSON as in YAML, beside its path', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const json = ['{', '  "ask": { "auto_resolve_p": 1.5 },', '  "points": [', '    { "key": "db", "match": { "question": "which database" } },', '    {', '      "key": "secrets",', '      "match": { "question": "(secrets" },', '      "sensitiv": true', '    }', '  ]', '}', ''].join('\n')
    expect(() => parsePolicy(json, 'mine.json', base)).toThrow(
      [
        'mine.json: invalid policy',
        '  ask.auto_resolve_p (line 2): at most 1, not 1.5',
        '  points.1.match.question (line 7): not a valid regular expression (Unterminated group): (secrets',
        '  points.1.sensitiv (line 8): unknown field',
      ].join('\n'),
    )
    const yaml = ['# the team policy', 'scan:', '  cron: every day', 'base: &b', '  match: { question: which database }', 'points:', '  - <<: *b', '    key: db', '    always_ask: yes', ''].join('\n')
    expect(() => parsePolicy(yaml, 'mine.yaml', base)).toThrow(
      [
        'mine.yaml: invalid policy',
        '  points.0.always_ask (line 9): true or false, not a string ("yes" is text: write true)',
        '  base (line 4): unknown field',
        '  scan.cron (line 3): not a cron expression: "every day"',
      ].join('\n'),
    )
    // A whole number past 2^53 was said twice, the first time with zod's safe-integer bound as the
    // field's: `ask.check_in_after: at most 9007199254740991, not 1e20`, then `at most 16`. The
    // field's own bound alone; the safe-integer one only for a field with no bound of its own that way.
    for (const [text, said] of [
      ['{"ask":{"check_in_after":1e20}}', ['  ask.check_in_after: at most 16, not 100000000000000000000']],
      ['{"ask":{"check_in_after":-1e20}}', ['  ask.check_in_after: at least 1, not -100000000000000000000']],
      ['{"thresholds":{"min_observations":-1e20}}', ['  thresholds.min_observations: at least 1, not -100000000000000000000']],
      ['{"cache":{"entries":1e17}}', ['  cache.entries: at most 9007199254740991, not 100000000000000000']],
    ] as const) {
      expect(() => parsePolicy(text, 'mine.json', base)).toThrow(new PolicyFileError(['mine.json: invalid policy', ...said].join('\n')))
    }
    // A field the file has only through a merge key, or not at all, has no line of its own: none said.
    expect(() => parsePolicy('base: &b\n  match: { question: "" }\npoints:\n  - <<: *b\n    key: db\n', 'mine.yaml', base)).toThrow(
      '\n  points.0.match.question: must not be empty',
    )
  })
})

describe('an empty match rule (R-POL)', () => {
  it('is said once, as too short, not a second time as a rule fitting every question', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const yaml = 'points:\n  - key: database\n    match: { question: which database, header: "" }\n'
    let message = ''
    try {
      parsePolicy(yaml, 'mine.yaml', base)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe('mine.yaml: invalid policy\n  points.0.match.header (line 3): must not be empty')
  })
})

describe('a match rule holding a control character (R-POL)', () => {
  it('refuses a backspace, \\b read by JSON or YAML double quotes before the rule is, rather than fit no question', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // "\bdb\b" in JSON, or in YAML double quotes, is <backspace>db<backspace>: no question fitted it.
    const json = '{ "points": [{ "key": "database", "match": { "question": "\\bdb\\b|which database" } }] }'
    expect(() => parsePolicy(json, 'mine.json', base)).toThrow(
      [
        'mine.json: invalid policy',
        "  points.0.match.question: holds a backspace (U+0008), which no question has: \\b in JSON, or in YAML double quotes, is a backspace, not a word boundary; write \\\\b there (in YAML, or '\\b' in single quotes)",
      ].join('\n'),
    )
    expect(() => parsePolicy('points:\n  - key: database\n    match: { header: "\\adb" }\n', 'mine.yaml', base)).toThrow(
      '  points.0.match.header (line 3): holds the control character U+0007, which no header has',
    )
    // Written as the writer meant it, a word boundary: taken, and it fits.
    const policy = parsePolicy('points:\n  - key: database\n    match: { question: \'\\bdb\\b\' }\n', 'mine.yaml', base)
    expect(policy.compiledPoints[0]?.question?.test('Which DB?')).toBe(true)
  })
})

describe('a match rule with an escape JavaScript has not (R-POL)', () => {
  it('refuses \\A, \\Z, \\z, \\< and other characters read as themselves, rather than fit no question', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // Python's and Ruby's anchors: outside Unicode mode, `\A` is the letter A, and the rule fitted
    // only "awhich databasez", so every database question fell to a hash point.
    const yaml = "points:\n  - key: database\n    match: { question: '\\Awhich database\\Z', header: '^db\\h*$' }\n"
    expect(() => parsePolicy(yaml, 'mine.yaml', base)).toThrow(
      [
        'mine.yaml: invalid policy',
        '  points.0.match.header (line 3): \\h is read as the letter h: a JavaScript regular expression has no such escape, so the rule fits no header without it',
        '  points.0.match.question (line 3): \\A is read as the letter A: a JavaScript regular expression has no such escape (write ^ for the start of the text), so the rule fits no question without it',
      ].join('\n'),
    )
    // GNU grep's and Vim's word boundaries are < and > here.
    expect(() => parsePolicy("points:\n  - key: db\n    match: { question: '\\<db\\>' }\n", 'mine.yaml', base)).toThrow(
      '  points.0.match.question (line 3): \\< is read as the character <: a JavaScript regular expression has no such escape (write \\b for a word boundary), so the rule fits no question without it',
    )
    // A property escape in a rule that another part keeps out of Unicode mode is the letter p there.
    expect(() => parsePolicy("points:\n  - key: db\n    match: { question: '\\p{L}+\\-db' }\n", 'mine.yaml', base)).toThrow(
      '  points.0.match.question (line 3): \\p is read as the letter p: a JavaScript regular expression has no such escape outside Unicode mode, which another part of the rule is not valid in',
    )
    // Escapes JavaScript has, an escaped backslash before a letter, and a rule valid only outside
    // Unicode mode for another reason (`\-`) are taken; written with ^ and $, the rule fits.
    const policy = parsePolicy("points:\n  - key: database\n    match: { question: '^which database$|\\\\Z', header: '^pre\\-\\w\\d\\s\\b\\x41\\cA' }\n", 'mine.yaml', base)
    expect(policy.compiledPoints[0]?.question?.test('which database')).toBe(true)
  })
})

describe('a match rule escaping < and > as punctuation (R-POL)', () => {
  it('takes \\< and \\> that stand where no word boundary of GNU grep could, which fit the questions naming < and >', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // Escaped to be safe, as \- and \: are: each fitted its questions before \< and \> were refused.
    const yaml = "points:\n  - key: generic\n    match: { question: 'Array\\<string\\>' }\n  - key: arrow\n    match: { question: '\\=\\> function' }\n"
    const policy = parsePolicy(yaml, 'mine.yaml', base)
    expect(policy.compiledPoints[0]?.question?.test('Type it as Array<string>?')).toBe(true)
    expect(policy.compiledPoints[1]?.question?.test('Use an => function here?')).toBe(true)
  })
})

describe('a match rule written as a JavaScript literal (R-POL)', () => {
  it('refuses /rule/flags, whose slashes and flags no question holds, saying the rule to write', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const yaml = 'points:\n  - key: queue\n    match: { question: /which (queue|broker)/i }\n'
    expect(() => parsePolicy(yaml, 'mine.yaml', base)).toThrow(
      [
        'mine.yaml: invalid policy',
        '  points.0.match.question (line 3): /which (queue|broker)/i is written as a JavaScript regular expression literal, whose slashes and flags are read as text no question holds: write the rule alone, which (queue|broker) (every rule is read case-insensitive)',
      ].join('\n'),
    )
    // A rule that names slashes of a question's own (a path) is taken, and so is the rule alone.
    const policy = parsePolicy('points:\n  - key: queue\n    match: { question: which (queue|broker), header: /src/ }\n', 'mine.yaml', base)
    expect(policy.compiledPoints[0]?.header?.test('Edit /src/?')).toBe(true)
  })

  it('takes a path whose last part is letters a literal has as flags, which fits the questions naming it', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const yaml = 'points:\n  - key: api\n    match: { question: /api/v }\n  - key: disk\n    match: { question: /dev/sd }\n  - key: home\n    match: { question: /home/guy }\n  - key: bin\n    match: { question: /usr/bin/vim }\n  - key: ui\n    match: { header: /src/ui }\n'
    const policy = parsePolicy(yaml, 'mine.yaml', base)
    expect(policy.compiledPoints[0]?.question?.test('Retire /api/v1 now?')).toBe(true)
    expect(policy.compiledPoints[1]?.question?.test('Format /dev/sdb or /dev/sdc?')).toBe(true)
    expect(policy.compiledPoints[2]?.question?.test('Clean /home/guy/tmp?')).toBe(true)
    expect(policy.compiledPoints[3]?.question?.test('Keep /usr/bin/vim?')).toBe(true)
    expect(policy.compiledPoints[4]?.header?.test('/src/ui/Button')).toBe(true)
    // Flags a literal is written with, on a body no path has, are still refused.
    expect(() => parsePolicy('points:\n  - key: q\n    match: { question: /which queue/g }\n', 'mine.yaml', base)).toThrow('written as a JavaScript regular expression literal')
  })
})

describe('a word boundary beside a letter outside ASCII (R-POL)', () => {
  it('refuses \\b beside such a letter, which JavaScript sees no word in, rather than fit no question', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // To JavaScript, between a space and к there is no word boundary: `\bключ\b` fitted no question
    // that names the key, "Какой ключ?" no more than any other.
    const yaml = "points:\n  - key: key\n    match: { question: '\\bключ\\b', header: '\\büber' }\n"
    let message = ''
    try {
      parsePolicy(yaml, 'mine.yaml', base)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message.split('\n')).toEqual([
      'mine.yaml: invalid policy',
      '  points.0.match.header (line 3): \\b beside ü is no word boundary: to a JavaScript regular expression only ASCII letters, digits and _ make words, so the rule fits no header where the word stands alone (write (?<![\\p{L}\\p{N}_]) before a word and (?![\\p{L}\\p{N}_]) after it)',
      '  points.0.match.question (line 3): \\b beside к is no word boundary: to a JavaScript regular expression only ASCII letters, digits and _ make words, so the rule fits no question where the word stands alone (write (?<![\\p{L}\\p{N}_]) before a word and (?![\\p{L}\\p{N}_]) after it)',
    ])
    // Written as the refusal says, the rule fits; a boundary beside ASCII letters (`\bdonnées\b`) is taken.
    const policy = parsePolicy("points:\n  - key: key\n    match: { question: '(?<![\\p{L}\\p{N}_])ключ(?![\\p{L}\\p{N}_])', header: '\\bdonnées\\b' }\n", 'mine.yaml', base)
    expect(policy.compiledPoints[0]?.question?.test('Какой ключ?')).toBe(true)
    expect(policy.compiledPoints[0]?.question?.test('Какой ключик?')).toBe(false)
  })

  it('takes a rule with a way round such a part, which fits the questions that way names', async () => {
    const base = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    // A bilingual rule, a group of both words, a part that may be left out, an anchor in one alternative:
    // each fitted English questions before these refusals, and still does.
    const rules = ['\\bdb\\b|\\bбаза\\b', '(\\bdb\\b|\\bбаза\\b)', '(\\bбаза\\b )?\\bdb\\b', '^which db|\\Awhich database']
    const yaml = `points:\n${rules.map((rule, i) => `  - key: p${i}\n    match: { question: '${rule}' }\n`).join('')}`
    const policy = parsePolicy(yaml, 'mine.yaml', base)
    for (const point of policy.compiledPoints) expect(point.question?.test('Which db should we use?')).toBe(true)
    // Every way through the rule meeting one is still refused.
    expect(() => parsePolicy("points:\n  - key: k\n    match: { question: '(\\bбаза|\\bключ) db' }\n", 'mine.yaml', base)).toThrow('\\b beside б is no word boundary')
    expect(() => parsePolicy("points:\n  - key: k\n    match: { question: 'which (\\Adb|\\Adatabase)' }\n", 'mine.yaml', base)).toThrow('\\A is read as the letter A')
  })
})

describe('a JSON policy with a syntax error (R-POL)', () => {
  it('says an unexpected word on one line, with the text around it', () => {
    const text = '{\n  "decay": { "alpha": True }\n}\n'
    expect(() => parsePolicy(text, 'mine.json')).toThrow(/^mine\.json: not valid JSON: Unexpected token .*True.*\\n.*$/)
  })

  it('says the line and column, as a YAML error does, not only the position', () => {
    const text = '{\n  "thresholds": { "min_observations": 3, },\n  "ask": { "auto_resolve_p": 0.8 }\n}\n'
    expect(() => parsePolicy(text, '/home/me/mine.json')).toThrow(/^\/home\/me\/mine\.json: not valid JSON: .*\(line 2, column 42\);/)
  })

  it('names a comment or a trailing comma, which JSON has not, rather than only an unexpected token', () => {
    const problem = (text: string) => {
      try {
        parsePolicy(text, 'mine.json')
      } catch (error) {
        return (error as Error).message.replace(/^.*?\(line \d+, column \d+\)|^.*? is not valid JSON/, '')
      }
      return 'taken'
    }
    const comment = ': JSON has none (remove it, or write the policy as YAML, a .yaml file, where # starts one)'
    expect(problem('{\n  // the team policy\n  "ask": { "auto_resolve_p": 0.8 }\n}\n')).toBe(`; a comment at line 2, column 3${comment}`)
    expect(problem('{\n  "decay": { "alpha": /* was 0.5 */ 0.3 }\n}\n')).toBe(`; a comment at line 2, column 23${comment}`)
    expect(problem('# team policy\n{}\n')).toBe(`; a comment at line 1, column 1${comment}`)
    expect(problem('{ "sensitive_terms": ["vault", "api key",],\n  "ask": {} }')).toBe('; a comma before a closing bracket at line 1, column 41: JSON takes none (remove it)')
    // Within a string, neither is one: the parser's own words, and nothing more.
    expect(problem('{ "points": [{ "key": "a//b", "match": { "question": "x#y, ]" } }], "ask": }')).toBe('')
  })
})

describe('a YAML policy in a file not named .yaml (R-POL)', () => {
  it('says it reads as YAML, and what to name it, rather than only an unexpected token', () => {
    // README's example policy is YAML: pasted into mine.json, it was refused at its first letter.
    const hint = (name: string) => `; it reads as YAML, which a policy file is read as only when its name ends in .yaml or .yml: rename it ${name}`
    expect(() => parsePolicy('thresholds: { min_observations: 3 }\nask: { auto_resolve_p: 0.8 }\n', '/home/me/mine.json')).toThrow(new RegExp(`^/home/me/mine\\.json: not valid JSON: .*${escape(hint('mine.yaml'))}$`))
    expect(() => parsePolicy('ask:\n  auto_resolve_p: 0.8\n', 'policy')).toThrow(new RegExp(`${escape(hint('policy.yaml'))}$`))
    // A name starting with a dot is no extension: `.yaml` alone would be a file of no name.
    expect(() => parsePolicy('ask:\n  auto_resolve_p: 0.8\n', '/home/me/.dm-policy')).toThrow(new RegExp(`${escape(hint('.dm-policy.yaml'))}$`))
    // One beginning with a # comment, as README's example does, is YAML's comment, not JSON's habit:
    // told `remove it`, it was refused again at its first field.
    const readme = '# mine.yaml: ask less (auto-resolve from p >= 0.8), and personalise from the 3rd observation\nthresholds: { min_observations: 3 }\nask: { auto_resolve_p: 0.8 }\n'
    expect(() => parsePolicy(readme, '/home/me/mine.json')).toThrow(new RegExp(`^/home/me/mine\\.json: not valid JSON: Unexpected token '#', .* is not valid JSON${escape(hint('mine.yaml'))}$`))
    expect(() => parsePolicy('# ours\nask:\n  auto_resolve_p: 0.8\n', 'policy')).toThrow(new RegExp(`JSON${escape(hint('policy.yaml'))}$`))
    // JSON after a # comment is JSON with a comment: said as one, not as YAML.
    expect(() => parsePolicy('# ours\n{ "ask": { "auto_resolve_p": 0.8 } }\n', 'policy')).toThrow(/a comment at line 1, column 1: JSON has none \(remove it, or write the policy as YAML, a \.yaml file, where # starts one\)$/)
    // JSON with a mistake in it is JSON: no such hint, though YAML would read `True` as text.
    expect(() => parsePolicy('{\n  "decay": { "alpha": True }\n}\n', 'mine.json')).not.toThrow(/reads as YAML/)
    expect(() => parsePolicy('just some words\n', 'mine.json')).not.toThrow(/reads as YAML/)
  })
})

/** `text` as a regular expression matching it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

describe('a policy file of its own (R-POL)', () => {
  const write = (name: string, text: string) => {
    const dir = tempDir('dm-policy-')
    writeFileSync(join(dir, name), text)
    return join(dir, name)
  }

  it('needs only the fields it changes: the others are the default policy', async () => {
    const defaults = await loadPolicy()
    const file = write('mine.yaml', 'thresholds:\n  min_observations: 3\nask:\n  auto_resolve_p: 0.8\n')
    const policy = await loadPolicy(file)
    expect(policy.thresholds).toEqual({ min_observations: 3, sufficient_observations: 20 })
    expect(policy.ask).toEqual({ auto_resolve_p: 0.8, check_in_after: 9 })
    expect(policy.decay).toEqual(defaults.decay)
    expect(policy.points.map((p) => p.key)).toEqual(defaults.points.map((p) => p.key))
    expect(policy.sensitivePattern?.source).toBe(defaults.sensitivePattern?.source)
  })

  it('says both values when a field it sets is out of order with one it leaves to the default policy', async () => {
    const file = write('bands.yaml', 'confidence:\n  high: 0.7\n')
    await expect(loadPolicy(file)).rejects.toThrow(`${file}: invalid policy\n  confidence.medium_high: must be at most confidence.high: 0.75 is above 0.7`)
  })

  it('reads a file saved with a byte order mark, JSON as YAML', async () => {
    for (const [name, text] of [['bom.json', '{"ask": {"auto_resolve_p": 0.8}}'], ['bom.yaml', 'ask: { auto_resolve_p: 0.8 }\n']]) {
      expect((await loadPolicy(write(name as string, `\uFEFF${text}`))).ask.auto_resolve_p).toBe(0.8)
    }
  })

  it('says a second YAML document in the words of the file, not the parser\'s advice to a programmer', async () => {
    for (const text of ['ask: { auto_resolve_p: 0.8 }\n---\n', '---\nask: { auto_resolve_p: 0.8 }\n---\nthresholds: { min_observations: 3 }\n']) {
      const file = write('two.yaml', text)
      const refusal = await loadPolicy(file).then(() => '', (error: Error) => error.message)
      expect(refusal).toContain(`${file}: not valid YAML: a second YAML document begins (a policy is one: remove this --- line, or what follows it) at line`)
      expect(refusal).not.toContain('parseAllDocuments')
    }
  })

  it('refuses a file that is not UTF-8, with its line, rather than read a byte it cannot decode as U+FFFD', async () => {
    const latin1 = (name: string, text: string) => {
      const file = write(name, '')
      writeFileSync(file, Buffer.from(text, 'latin1'))
      return file
    }
    // A Latin-1 é in a rule: read as U+FFFD, the rule fitted no question, and nothing said so.
    const rule = latin1('latin1.yaml', 'ask: { auto_resolve_p: 0.8 }\npoints: [{ key: data, match: { question: "données" } }]\n')
    await expect(loadPolicy(rule)).rejects.toThrow(`${rule}: not UTF-8 text at line 2 (saved in another encoding, such as Latin-1?): save it as UTF-8`)
    // Saved as UTF-16, as Windows PowerShell 5.1's `>` saves it: JSON and YAML alike.
    for (const name of ['utf16.json', 'utf16.yaml']) {
      const file = write(name, '')
      writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"ask": {"auto_resolve_p": 0.8}}\r\n', 'utf16le')]))
      await expect(loadPolicy(file)).rejects.toThrow(`${file}: not UTF-8 text: it is saved as UTF-16 (as Windows PowerShell 5.1's > and Out-File save it): save it as UTF-8`)
    }
    // UTF-8, its byte order mark included, is read as before.
    expect((await loadPolicy(write('utf8.yaml', '\uFEFFpoints: [{ key: data, match: { question: "données" } }]\n'))).points[0]?.match.question).toBe('données')
  })

  it('refuses a JSON key given twice in one object, naming each, rather than silently keeping the last', async () => {
    const file = write(
      'twice.json',
      '{"ask": {"auto_resolve_p": 0.8, "auto_resolve_p": 0.95}, "points": [{"key": "db", "match": {"header": "^db$"}, "static_default": "Postgres", "static_default": "MySQL"}], "ask": {"auto_resolve_p": 0.8}}',
    )
    await expect(loadPolicy(file)).rejects.toThrow(PolicyFileError)
    await expect(loadPolicy(file)).rejects.toThrow(
      [`${file}: invalid policy`, '  ask.auto_resolve_p: given more than once', '  points.0.static_default: given more than once', '  ask: given more than once'].join('\n'),
    )
    // In a file of lines, each with the line it is given again on, as every other refusal names one.
    await expect(loadPolicy(write('lines.json', '{\n  "ask": {\n    "auto_resolve_p": 0.8,\n    "auto_resolve_p": 0.95\n  },\n  "points": [\n    {"key": "db", "match": {"header": "^db$"},\n     "static_default": "Postgres", "static_default": "MySQL"}\n  ]\n}\n'))).rejects.toThrow(
      ['  ask.auto_resolve_p (line 4): given more than once', '  points.0.static_default (line 8): given more than once'].join('\n'),
    )
    // Beside any other problem of the file, all at once.
    await expect(loadPolicy(write('both.json', '{"decay": {"alpha": -1}, "decay": {"alpha": -1}}'))).rejects.toThrow(
      /invalid policy\n {2}decay: given more than once\n {2}decay\.alpha: at least 0, not -1$/,
    )
    // A YAML key given twice is the YAML parser's error, with its line.
    await expect(loadPolicy(write('twice.yaml', 'ask:\n  auto_resolve_p: 0.8\n  auto_resolve_p: 0.95\n'))).rejects.toThrow(
      /twice\.yaml: not valid YAML: Map keys must be unique at line 3/,
    )
  })

  it('reads YAML merge keys: points that share fields name them once', async () => {
    const file = write(
      'merged.yaml',
      [
        'points:',
        '  - &asked',
        '    key: database',
        '    match: { header: "^database$" }',
        '    always_ask: true',
        '    precondition: the team decides this together',
        '  - <<: *asked',
        '    key: cache',
        '    match: { header: "^cache$" }',
        '',
      ].join('\n'),
    )
    const policy = await loadPolicy(file)
    expect(policy.points.map((p) => [p.key, p.always_ask, p.precondition])).toEqual([
      ['database', true, 'the team decides this together'],
      ['cache', true, 'the team decides this together'],
    ])
  })

  it('replaces a list it gives (its points are all the points)', async () => {
    const file = write('points.json', JSON.stringify({ points: [{ key: 'database', match: { header: '^database$' }, static_default: 'Postgres' }] }))
    const policy = await loadPolicy(file)
    expect(policy.points.map((p) => p.key)).toEqual(['database'])
    expect(policy.compiledPoints[0]?.header?.test('Database')).toBe(true)
    expect(policy.thresholds.min_observations).toBe(5)
  })

  it('refuses a file with no policy in it, JSON or YAML alike, saying that {} is the default policy', async () => {
    for (const [name, text] of [['empty.yaml', ''], ['empty.json', ''], ['blank.json', ' \n'], ['comments.yml', '# thresholds: { min_observations: 3 }\n'], ['null.json', 'null'], ['tilde.yaml', '~\n']] as const) {
      const message = await loadPolicy(write(name, text)).then(() => 'loaded', (error: Error) => error.message)
      expect(message).toMatch(new RegExp(`${name.replace('.', '\\.')}: invalid policy\n {2}\\(root\\): the file holds no policy \\(it is empty(, only comments)? or null\\): write \\{\\} for the default policy, or the fields it changes$`))
    }
    expect((await loadPolicy(write('default.json', '{}'))).points).toEqual((await loadPolicy()).points)
    expect((await loadPolicy(write('default.yaml', '{}\n'))).points).toEqual((await loadPolicy()).points)
  })

  it('takes no YAML 1.1 tag for a Map or a Set, which would leave its group of fields silently at the default', async () => {
    // `!!omap` made a Map and `!!set` a Set: merged over the default policy as objects with no field.
    await expect(loadPolicy(write('omap.yaml', 'ask: !!omap [auto_resolve_p: 0.1]\n'))).rejects.toThrow(/omap\.yaml: invalid policy\n {2}ask: an object, not an array\n/)
    await expect(loadPolicy(write('set.yaml', 'thresholds: !!set { min_observations }\n'))).rejects.toThrow(
      /set\.yaml: invalid policy\n {2}thresholds\.min_observations: a whole number, not null /,
    )
    // Nor bytes or a Date, said as their fields: the text written is what is refused.
    await expect(loadPolicy(write('binary.yaml', 'thresholds: !!binary aGVsbG8=\n'))).rejects.toThrow(/binary\.yaml: invalid policy\n {2}thresholds: an object, not a string\n {2}line 1, column 13: tag !!binary not resolved: its value is read as written$/)
    await expect(loadPolicy(write('date.yaml', 'decay: { alpha: !!timestamp 2001-12-14 }\n'))).rejects.toThrow(/date\.yaml: invalid policy\n {2}decay\.alpha: a number, not a string\n {2}line 1, column 17: tag !!timestamp not resolved: its value is read as written$/)
  })

  it('says nothing of a tag it does not resolve beside its refusal: no Node warning printed after it', async () => {
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    try {
      await expect(loadPolicy(write('tagged.yaml', 'thresholds:\n  min_observations: !foo 5\n'))).rejects.toThrow(/tagged\.yaml: invalid policy\n {2}thresholds\.min_observations \(line 2\): /)
      await expect(loadPolicy(write('omap-warned.yaml', 'ask: !!omap [auto_resolve_p: 0.1]\n'))).rejects.toThrow(PolicyFileError)
      expect(warned).not.toHaveBeenCalled()
    } finally {
      warned.mockRestore()
    }
  })

  it('names a tag it does not resolve in its refusal, rather than tell to take off quotes there are none of', async () => {
    const refusal = loadPolicy(write('tag-named.yaml', 'thresholds:\n  min_observations: !foo 5\ndecay: { alpha: !!timestamp 2001-12-14 }\n'))
    await expect(refusal).rejects.toThrow(
      /tag-named\.yaml: invalid policy\n {2}thresholds\.min_observations \(line 2\): a whole number, not a string\n(.*\n)* {2}line 2, column 21: tag !foo not resolved: its value is read as written\n {2}line 3, column 17: tag !!timestamp not resolved: its value is read as written$/,
    )
    // A number in quotes, with no tag, is still told to lose them.
    await expect(loadPolicy(write('quoted.yaml', 'thresholds:\n  min_observations: "5"\n'))).rejects.toThrow(/\(write 5 without quotes: in quotes it is text\)$/)
  })

  it('refuses a field it does not know, naming it, rather than leaving the setting at its default', async () => {
    const file = write('typo.json', JSON.stringify({ tresholds: { min_observations: 3 }, decay: { alpha: 0.7, half_life: 3 }, points: [{ key: 'x', match: { header: 'x', title: 'y' } }] }))
    await expect(loadPolicy(file)).rejects.toThrow(PolicyFileError)
    const message = await loadPolicy(file).catch((error: Error) => error.message)
    expect(message).toContain('typo.json: invalid policy')
    expect(message).toContain('  tresholds: unknown field')
    expect(message).toContain('  decay.half_life: unknown field')
    expect(message).toContain('  points.0.match.title: unknown field')
    expect(await loadPolicy(write('proto.json', '{"__proto__": {"decay": {"alpha": 3}}}')).catch((error: Error) => error.message)).toContain('__proto__: unknown field')
  })

  it('says to quote a match rule YAML read as a list or a mapping: a bare [tier] or {2}', async () => {
    const file = write('flow.yaml', ['points:', '  - key: tier', '    match:', '      question: [tier]', '      header: {2}', '    static_default: [a]', ''].join('\n'))
    await expect(loadPolicy(file)).rejects.toThrow(
      [
        `${file}: invalid policy`,
        '  points.0.match.header (line 5): text, not an object (put the text in quotes: unquoted, YAML read what begins with { as a mapping)',
        '  points.0.match.question (line 4): text, not an array (put the text in quotes: unquoted, YAML read what begins with [ as a list)',
        // A list where a static default goes is no rule mistyped: no advice to quote it.
        '  points.0.static_default (line 6): text, not an array',
      ].join('\n'),
    )
  })

  it('says YAML read a key or a - with nothing after it as null, where received null names no null written', async () => {
    const file = write(
      'empty.yaml',
      ['thresholds:', '  min_observations:', 'decay:', 'alpha: 0.7', 'sensitive_terms:', '  - security', '  -', 'points:', '  - key: python', '    match: { header: "^python$" }', '    static_default: # to fill in', '  -', ''].join('\n'),
    )
    const lines = String(await loadPolicy(file).catch((error: Error) => error.message)).split('\n')
    expect(lines).toContain('  thresholds.min_observations (line 2): a whole number, not null (YAML reads a key with nothing after its colon as null: write the value after the colon)')
    // Fields meant under a group but not indented leave the group empty.
    expect(lines).toContain('  decay (line 3): an object, not null (YAML reads a key with nothing after its colon as null: indent the fields that go under it)')
    expect(lines).toContain('  sensitive_terms.1 (line 7): text, not null (YAML reads a - with nothing after it as null: write the entry after the -, or remove the line)')
    expect(lines).toContain('  points.0.static_default (line 11): text, not null (YAML reads a key with nothing after its colon as null: write the value after the colon)')
    // A stray - where a point goes wants removing: fields indented under a - make it no null.
    expect(lines).toContain('  points.1 (line 12): an object, not null (YAML reads a - with nothing after it as null: write the entry after the -, or remove the line)')
    // A null written is meant: said as it was, without the hint; in JSON too.
    for (const [name, text] of [
      ['null.yaml', 'thresholds:\n  min_observations: null\n'],
      ['tilde.yaml', 'thresholds:\n  min_observations: ~\n'],
      ['null.json', '{"thresholds": {"min_observations": null}}'],
    ] as const) {
      expect(await loadPolicy(write(name, text)).catch((error: Error) => error.message), name).toMatch(/thresholds\.min_observations( \(line 2\))?: a whole number, not null$/)
    }
  })

  it('says how to write a value YAML read as another type: yes and on are text, a bare 3.10 a number, a quoted 3 text', async () => {
    const file = write(
      'quirks.yaml',
      ['thresholds: { min_observations: "3" }', 'points:', '  - key: python', '    match: { header: "^python$" }', '    static_default: 3.10', '    always_ask: yes', ''].join('\n'),
    )
    await expect(loadPolicy(file)).rejects.toThrow(
      [
        `${file}: invalid policy`,
        '  thresholds.min_observations (line 1): a whole number, not a string (write 3 without quotes: in quotes it is text)',
        '  points.0.static_default (line 5): text, not a number (put the text in quotes: unquoted, it was read as the number 3.1)',
        '  points.0.always_ask (line 6): true or false, not a string ("yes" is text: write true)',
      ].join('\n'),
    )
    const quoted = await loadPolicy(write('quoted.yaml', 'points:\n  - key: python\n    match: { header: "^python$" }\n    static_default: "3.10"\n    always_ask: true\n'))
    expect(quoted.points.map((p) => [p.static_default, p.always_ask])).toEqual([['3.10', true]])
  })

  it('says what a field takes and what the file gave it, as a request is told, not in zod\'s words', async () => {
    // zod said `Invalid input: expected int, received number`, `… expected number, received Infinity`
    // and `Too small: expected number to be >0`, naming neither what was written nor, for the
    // first two, what was wrong with it.
    const file = write(
      'words.yaml',
      ['thresholds: { min_observations: 2.5 }', 'decay: { alpha: .inf }', 'change: { significance: 0 }', 'sensitive_terms: security', 'points:', '  - key: 7', '    match: { header: x }', '    sensitive: off', ''].join('\n'),
    )
    await expect(loadPolicy(file)).rejects.toThrow(
      [
        `${file}: invalid policy`,
        '  thresholds.min_observations (line 1): a whole number, not 2.5',
        '  decay.alpha (line 2): a finite number, not Infinity',
        '  change.significance (line 3): above 0, not 0',
        '  sensitive_terms (line 4): an array, not a string',
        // A field's own words are kept.
        '  points.0.key (line 6): a name (text), not a number (put the text in quotes: unquoted, it was read as the number 7)',
        '  points.0.sensitive (line 8): true or false, not a string ("off" is text: write false)',
      ].join('\n'),
    )
  })

  it('says a whole-number field given no number wants a whole number, as it says one given 2.5', async () => {
    // Zod names the type `number` before it checks the whole: `a number, not a string` let a 1.5 seem right.
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8')) as { ask: Record<string, unknown>; core: Record<string, unknown>; decay: Record<string, unknown> }
    raw.ask.check_in_after = '9'
    raw.core.max_entries = null
    raw.decay.alpha = null
    expect(() => parsePolicy(JSON.stringify(raw), 'whole.json')).toThrow(
      [
        'whole.json: invalid policy',
        '  decay.alpha: a number, not null',
        '  core.max_entries: a whole number, not null',
        '  ask.check_in_after: a whole number, not a string (write 9 without quotes: in quotes it is text)',
      ].join('\n'),
    )
  })

  it('refuses a recall TTL or scan cadence past a century, whose dates the decay scan could not make (R-MEM-3, R-MEM-7)', async () => {
    await expect(loadPolicy(write('forever.yaml', 'recall: { ttl_days: 1e9 }\nscan: { cadence_hours: 1e12 }\n'))).rejects.toThrow(
      /invalid policy\n {2}recall\.ttl_days \(line 1\): at most 36500, not 1000000000\n {2}scan\.cadence_hours \(line 2\): at most 876000, not 1000000000000$/,
    )
    const century = await loadPolicy(write('century.yaml', 'recall: { ttl_days: 36500 }\nscan: { cadence_hours: 876000 }\n'))
    expect([century.recall.ttl_days, century.scan.cadence_hours]).toEqual([36500, 876000])
  })

  it('reads a precondition written as a YAML block as one line, without the newline it ends in (R-REC-5)', async () => {
    // `|` and `>` end the text in a newline: the description read "Recommended when the service is
    // small\n — based on static default, …".
    const file = write(
      'blocks.yaml',
      [
        'default_precondition: >',
        '  there is not yet',
        '  enough history',
        'unchosen_options_precondition: "  none of these  chosen yet "',
        'points:',
        '  - key: database',
        '    match: { question: "which database" }',
        '    static_default: MySQL',
        '    precondition: |',
        '      the service is small',
        '      and read-mostly',
        '',
      ].join('\n'),
    )
    const policy = await loadPolicy(file)
    expect(policy.default_precondition).toBe('there is not yet enough history')
    expect(policy.unchosen_options_precondition).toBe('none of these chosen yet')
    expect(policy.points[0]?.precondition).toBe('the service is small and read-mostly')
  })

  it('refuses a blank static default or precondition, which would silently say nothing (R-REC-1, R-REC-5)', async () => {
    const file = write(
      'blank.yaml',
      [
        'default_precondition: "  "',
        'personalization_off_precondition: ""',
        'unchosen_options_precondition: " "',
        'points:',
        '  - key: database',
        '    match: { header: "^database$" }',
        '    static_default: "  "',
        '    precondition: "\\t"',
        '',
      ].join('\n'),
    )
    await expect(loadPolicy(file)).rejects.toThrow(
      [
        `${file}: invalid policy`,
        '  default_precondition (line 1): must not be blank',
        '  personalization_off_precondition (line 2): must not be blank',
        '  unchosen_options_precondition (line 3): must not be blank',
        '  points.0.static_default (line 7): must not be blank',
        '  points.0.precondition (line 8): must not be blank',
      ].join('\n'),
    )
  })

  it('refuses a match rule of white space alone as blank, not as a rule shown as spaces that fits every question', async () => {
    // Read with its ends trimmed, "  " is the empty rule: it was refused as `   matches empty text,
    // so it fits every header`, the rule quoted as the spaces it is, which the reader cannot see.
    const file = write('blank-rule.yaml', ['points:', '  - key: database', '    match: { header: "  ", question: "\\t" }', ''].join('\n'))
    await expect(loadPolicy(file)).rejects.toThrow(
      [`${file}: invalid policy`, '  points.0.match.header (line 3): must not be blank', '  points.0.match.question (line 3): must not be blank'].join('\n'),
    )
  })

  it('refuses a match rule of invisible marks alone as blank, as it refuses white space alone', async () => {
    // A zero-width space looks blank and fits only a question holding one: never what a user meant.
    const file = write(
      'invisible-rule.yaml',
      ['points:', '  - key: database', '    match: { header: "\u200b", question: " \u2060\u00ad " }', '  - key: queue', '    match: { header: "\u200bqueue" }', ''].join('\n'),
    )
    const message = await loadPolicy(file).catch((error: Error) => error.message)
    expect(message).toBe([`${file}: invalid policy`, '  points.0.match.header (line 3): must not be blank', '  points.0.match.question (line 3): must not be blank'].join('\n'))
  })

  it('refuses a term, static default or precondition of invisible marks alone as blank, as it refuses such a match rule', async () => {
    // A zero-width space looks blank: a precondition of one said `Recommended when  — based on …`.
    const file = write(
      'invisible-words.yaml',
      [
        'sensitive_terms: ["secret", " \u2060\u00ad "]',
        'default_precondition: "\u200b"',
        'points:',
        '  - key: database',
        '    match: { header: "^database$" }',
        '    static_default: "\u200b"',
        '    precondition: "\u200e \u200b"',
        '  - key: queue',
        '    match: { header: "^queue$" }',
        '    precondition: "\u200bthe queue is small"',
        '',
      ].join('\n'),
    )
    const message = await loadPolicy(file).catch((error: Error) => error.message)
    expect(message).toBe(
      [
        `${file}: invalid policy`,
        '  sensitive_terms.1 (line 1): must not be blank',
        '  default_precondition (line 2): must not be blank',
        '  points.0.static_default (line 6): must not be blank',
        '  points.0.precondition (line 7): must not be blank',
      ].join('\n'),
    )
  })

  it('still names the field of a value that is wrong, and null replaces rather than falls back', async () => {
    const message = await loadPolicy(write('bad.yaml', 'decay:\n  alpha: -1\nrecall: null\n')).catch((error: Error) => error.message)
    expect(message).toContain('decay.alpha (line 2): at least 0, not -1')
    expect(message).toContain('recall (line 3): an object, not null')
  })
})

describe('a policy nested thousands deep (R-POL)', () => {
  it('is refused naming the field that nests, before its lines are looked for (which took time and memory by the square of its depth)', () => {
    const deep = (open: string, close: string, levels: number) => open.repeat(levels) + '1' + close.repeat(levels)
    expect(() => parsePolicy(`{"thresholds":${deep('{"thresholds":', '}', 10_000)}}`, 'mine.json')).toThrow(
      new PolicyFileError('mine.json: invalid policy\n  thresholds: nests arrays and objects more than 64 levels deep, deeper than any policy'),
    )
    expect(() => parsePolicy(`{\n"ask": {},\n"points": ${deep('[', ']', 10_000)}\n}`, 'mine.json')).toThrow(
      new PolicyFileError('mine.json: invalid policy\n  points: nests arrays and objects more than 64 levels deep, deeper than any policy'),
    )
    expect(() => parsePolicy(deep('[', ']', 10_000), 'mine.json')).toThrow(
      new PolicyFileError('mine.json: invalid policy\n  (root): nests arrays and objects more than 64 levels deep, deeper than any policy'),
    )
  })
})

describe('a YAML alias inside the value its own anchor names (R-POL)', () => {
  it('is refused naming the field and the alias, not as a value nested 64 levels deep, which the file does not write', async () => {
    // `sensitive_terms: &x [*x]` is a list holding itself: it was said to nest more than 64 levels deep.
    expect(() => parsePolicy('ask: { auto_resolve_p: 0.8 }\nsensitive_terms: &x [payments, *x]\n', 'mine.yaml')).toThrow(
      new PolicyFileError(
        'mine.yaml: invalid policy\n  sensitive_terms.1 (line 2): the alias *x stands inside the value its anchor &x names, so that value would hold itself without end: write the value out there',
      ),
    )
    expect(() => parsePolicy('points:\n  - &p\n    key: db\n    match: { question: "which db" }\n    static_default: *p\n', 'mine.yaml')).toThrow(
      new PolicyFileError(
        'mine.yaml: invalid policy\n  points.0.static_default (line 5): the alias *p stands inside the value its anchor &p names, so that value would hold itself without end: write the value out there',
      ),
    )
    // A merge key is named as written, not as the symbol the parser reads it as, `Symbol(<<)`.
    expect(() => parsePolicy('ask: { auto_resolve_p: 0.8 }\nscan: &s\n  <<: *s\n', 'mine.yaml')).toThrow(
      new PolicyFileError('mine.yaml: invalid policy\n  scan.<< (line 3): the alias *s stands inside the value its anchor &s names, so that value would hold itself without end: write the value out there'),
    )
    // On one line, no line is said; an anchor used beside itself, not inside, is taken.
    expect(() => parsePolicy('a: &x [*x]', 'mine.yaml')).toThrow(
      new PolicyFileError('mine.yaml: invalid policy\n  a.0: the alias *x stands inside the value its anchor &x names, so that value would hold itself without end: write the value out there'),
    )
    const base: unknown = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    const beside = 'points:\n  - &p\n    key: db\n    match: &m { question: "which db" }\n  - key: db2\n    match: *m\n'
    expect(parsePolicy(beside, 'mine.yaml', base).points.map((p) => p.key)).toEqual(['db', 'db2'])
  })
})

describe('README\'s policy table gives each number\'s range as the loader holds it (R-POL)', () => {
  const README = join(__dirname, '..', '..', 'README.md')
  // [field, the words of its row, the lowest value taken or undefined (an open bound), the value
  // just past it, the highest taken or undefined, the value just past it]
  const RANGES: Array<[string, string, number | undefined, number, number | undefined, number]> = [
    ['confidence.prior', '0.5 to 10', 0.5, 0.49, 10, 10.01],
    ['confidence.predictive_prior', '0.1 to 10', 0.1, 0.09, 10, 10.01],
    ['confidence.contradiction_shrink', '0 (not at all) to 1', 0, -0.01, 1, 1.01],
    ['decay.alpha', '0 to 5', 0, -0.01, 5, 5.01],
    ['ask.auto_resolve_p', '0 to 1', 0, -0.01, 1, 1.01],
    ['change.significance', 'between 0 and 1, neither included', undefined, 0, undefined, 1],
    ['context.significance', 'between 0 and 1, neither included', undefined, 0, undefined, 1],
    ['context.precondition_share', '0 to 1', 0, -0.01, 1, 1.01],
    ['cache.seconds', '0 to 3600', 0, -1, 3600, 3601],
    ['cache.megabytes', '0 to 1024', 0, -1, 1024, 1025],
  ]

  it('states each range in the field\'s row, and the loader takes its ends and refuses past them', async () => {
    const table = (await readFile(README, 'utf8')).split('\n').filter((line) => line.startsWith('| `'))
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    for (const [field, words, low, belowLow, high, aboveHigh] of RANGES) {
      const [group, name] = field.split('.') as [string, string]
      const row = table.find((line) => line.startsWith(`| \`${field}\``) || (line.startsWith(`| \`${group}.`) && line.split('|')[1]?.includes(name)))
      expect([field, row?.includes(words)]).toEqual([field, true])
      const withValue = (value: number) => JSON.stringify({ ...raw, [group]: { ...raw[group], [name]: value } })
      for (const taken of [low, high]) if (taken !== undefined) expect(() => parsePolicy(withValue(taken), 'p.json'), `${field} ${taken}`).not.toThrow()
      for (const refused of [belowLow, aboveHigh]) expect(() => parsePolicy(withValue(refused), 'p.json'), `${field} ${refused}`).toThrow(`${field}`)
    }
  })

  // The rows with a lower bound alone: [field, the words of its row, the lowest value taken beside
  // the default policy's other fields, the value just below it, whether a fraction is refused].
  const FLOORS: Array<[string, string, number, number, boolean]> = [
    ['thresholds.min_observations', 'a whole number, at least 1', 1, 0, true],
    ['thresholds.sufficient_observations', 'a whole number, at least N', 5, 4, true],
    ['recall.ttl_days', 'above 0, at most 36500', 0.01, 0, false],
    ['scan.cadence_hours', 'above 0, at most 876000 hours', 0.01, 0, false],
    ['core.max_entries', 'a whole number, at least 1', 1, 0, true],
    ['expertise.beginner_below', '`beginner_below` at least 1', 1, 0, true],
    ['expertise.expert_above', '`expert_above` at least `beginner_below`', 10, 9, true],
  ]

  it('states the floor of each number that has one alone, and whether it is whole, as the loader holds it', async () => {
    const table = (await readFile(README, 'utf8')).split('\n').filter((line) => line.startsWith('| `'))
    const raw = JSON.parse(await readFile(DEFAULT_POLICY_FILE, 'utf8'))
    for (const [field, words, low, belowLow, whole] of FLOORS) {
      const [group, name] = field.split('.') as [string, string]
      const row = table.find((line) => line.startsWith(`| \`${field}\``) || (line.startsWith(`| \`${group}.`) && line.split('|')[1]?.includes(name)))
      expect([field, row?.includes(words)]).toEqual([field, true])
      if (whole) expect([field, row?.includes('whole number')]).toEqual([field, true])
      const withValue = (value: number) => JSON.stringify({ ...raw, [group]: { ...raw[group], [name]: value } })
      expect(() => parsePolicy(withValue(low), 'p.json'), `${field} ${low}`).not.toThrow()
      expect(() => parsePolicy(withValue(belowLow), 'p.json'), `${field} ${belowLow}`).toThrow(field)
      if (whole) expect(() => parsePolicy(withValue(low + 0.5), 'p.json'), `${field} ${low + 0.5}`).toThrow(field)
    }
  })
})
