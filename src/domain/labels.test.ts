import { describe, expect, it } from 'vitest'
import { matchOption, matchInOtherWords, normalizeLabel, ownDescription, resolveChoice, splitJoinedLabels } from './labels'

describe('normalizeLabel (R-CAP-3)', () => {
  it.each([
    ['Option A (Recommended)', 'Option A'],
    ['Option A (recommended)', 'Option A'],
    ['  Tier   M  ', 'Tier M'],
    ['Tier M (60% of recent choices)', 'Tier M'],
    ['Tier M (static default)', 'Tier M'],
    ['Tier M (Recommended) (Recommended)', 'Tier M'],
    ['(Recommended)', '(Recommended)'],
    ['Lint, format', 'Lint, format'],
    // Full-width parentheses, as an agent writing Japanese or Chinese writes them.
    ['ティアM（Recommended）', 'ティアM'],
    ['ティアM (中)（Recommended）', 'ティアM (中)'],
    ['（Recommended）', '（Recommended）'],
    // Invisible marks at its ends, which trim() leaves: a right-to-left label's RLM after its mark,
    // a zero width space pasted with it. One inside it, or ending an emoji, is part of it.
    ['كافكا (Recommended)\u200f', 'كافكا'],
    ['\u200fكافكا\u200f', 'كافكا'],
    ['Kafka\u200b (Recommended)', 'Kafka'],
    ['\u2060Kafka\u200b', 'Kafka'],
    ['Ka\u200bfka', 'Ka\u200bfka'],
    ['Ship it \u2764\ufe0f', 'Ship it \u2764\ufe0f'],
    ['\u200b', '\u200b'],
    // Spaces inside the mark's parentheses, as an agent may type them.
    ['Kafka ( Recommended )', 'Kafka'],
    ['Kafka (recommended )', 'Kafka'],
    ['Kafka（ Recommended）', 'Kafka'],
    ['Kafka ( static default )', 'Kafka'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeLabel(input)).toBe(expected)
  })

  it('makes labels that differ only in Unicode normalisation form equal', () => {
    expect(normalizeLabel('Cafe\u0301')).toBe(normalizeLabel('Caf\u00e9'))
  })
})

describe('resolveChoice', () => {
  const options = ['Tier S', 'Tier M', 'Tier L']
  it('matches after normalisation, then ignoring case', () => {
    expect(resolveChoice('Tier M (Recommended)', options, false)).toEqual({ chosen: ['Tier M'], other: null })
    expect(resolveChoice('tier m', options, false)).toEqual({ chosen: ['Tier M'], other: null })
    expect(matchOption('TIER L', options)).toBe('Tier L')
    // In any case as a user types it: German's ß is SS in capitals, Turkish's İ is i in lower case.
    expect(matchOption('STRASSE', ['Straße', 'Weg'])).toBe('Straße')
    expect(matchOption('izmir', ['İzmir', 'Ankara'])).toBe('İzmir')
    expect(matchOption('İZMİR', ['izmir', 'Ankara'])).toBe('izmir')
    // The capital ẞ, which upper-cases to itself, and a Greek letter whose cases compose differently.
    expect(matchOption('strasse', ['STRAẞE', 'Weg'])).toBe('STRAẞE')
    expect(matchOption('STRAẞE', ['strasse', 'Weg'])).toBe('strasse')
    expect(matchOption('ΠΡΩΐ', ['πρωΐ', 'βράδυ'])).toBe('πρωΐ')
    expect(matchOption('Σοφία', ['ΣΟΦΊΑ', 'x'])).toBe('ΣΟΦΊΑ')
    // Options that folding alone makes one: a choice in another case of one of them is that one.
    expect(matchOption('masse', ['Maße', 'Masse'])).toBe('Masse')
    expect(matchOption('sik', ['sık', 'Sik'])).toBe('Sik')
    expect(matchOption('MASSE', ['Maße', 'Masse'])).toBe('Masse')
  })

  it('keeps free text as other', () => {
    expect(resolveChoice('something custom', options, false)).toEqual({ chosen: [], other: 'something custom' })
  })

  it('keeps free text as the user typed it: lines, spaces and their own "(recommended)" (R-CAP-3)', () => {
    // Normalised only to be matched: a text that matches no option is kept, trimmed and in NFC.
    const typed = 'Tier XL for the API\n\n  and Tier S  elsewhere (recommended by ops)'
    expect(resolveChoice(`  ${typed}\n`, options, false)).toEqual({ chosen: [], other: typed })
    expect(resolveChoice('Keep both (Recommended)', options, false)).toEqual({ chosen: [], other: 'Keep both (Recommended)' })
    expect(resolveChoice('Cafe\u0301  au lait', options, false)).toEqual({ chosen: [], other: 'Caf\u00e9  au lait' })
    expect(resolveChoice(['Tier S', 'my  own\ncheck'], options, true)).toEqual({ chosen: ['Tier S'], other: 'my  own\ncheck' })
  })

  it('takes arrays for multi-select', () => {
    expect(resolveChoice(['Tier S', 'Tier L (Recommended)', 'x'], options, true)).toEqual({
      chosen: ['Tier S', 'Tier L'],
      other: 'x',
    })
  })

  it('counts an option named twice in an array once', () => {
    expect(resolveChoice(['Tier S', 'Tier S (Recommended)', 'tier s'], options, true)).toEqual({ chosen: ['Tier S'], other: null })
  })

  it('keeps a text named twice in an array once, as it first came, as an option named twice is one choice', () => {
    // A client that sends the user's "Other" both as typed and once more: the user never typed it twice.
    expect(resolveChoice(['Tier S', 'my own', 'my  own ', 'Tier S'], options, true)).toEqual({ chosen: ['Tier S'], other: 'my own' })
    expect(resolveChoice(['Tier XL', 'Tier XL'], options, false)).toEqual({ chosen: [], other: 'Tier XL' })
    // Two texts are two: both kept.
    expect(resolveChoice(['a', 'b', 'a'], options, true)).toEqual({ chosen: [], other: 'a, b' })
  })
})

describe('matchInOtherWords: the option a policy point\'s static default names, in other words (R-POL)', () => {
  it('is the option a choice would name first: exact, then in another case', () => {
    expect(matchInOtherWords('Tier M', ['Tier S', 'Tier M', 'Tier L'])).toBe('Tier M')
    expect(matchInOtherWords('tier m', ['Tier S', 'Tier M', 'Tier L'])).toBe('Tier M')
    // Exact before in other words: `M` is one of Tier M's words, but the option `Tier M` is offered.
    expect(matchInOtherWords('Tier M', ['M', 'Tier M'])).toBe('Tier M')
  })

  it('is the one option whose words are among its own, or among whose words its own are, whole words in any case', () => {
    // An agent asking "Tier S, M or L?" offers the tiers without the word Tier.
    expect(matchInOtherWords('Tier M', ['S', 'M', 'L'])).toBe('M')
    expect(matchInOtherWords('Tier M', ['s', 'm', 'l'])).toBe('m')
    // A model named with its family and version.
    expect(matchInOtherWords('Sonnet', ['Opus 4.1', 'Claude Sonnet 4.5', 'Haiku'])).toBe('Claude Sonnet 4.5')
    expect(matchInOtherWords('Medium', ['Low', 'Medium (default)', 'High'])).toBe('Medium (default)')
    expect(matchInOtherWords('TDD', ['Test-driven (TDD)', 'Domain-driven (DDD)'])).toBe('Test-driven (TDD)')
  })

  it('names none where two options would do, or where only a part of a word is shared', () => {
    expect(matchInOtherWords('Sonnet', ['Sonnet 4.5', 'Sonnet 4', 'Opus'])).toBeUndefined()
    expect(matchInOtherWords('Tier M', ['Tier', 'M', 'L'])).toBeUndefined()
    // An abbreviation or a compound is not the word: Med is not Medium, nor Medium-high Medium.
    expect(matchInOtherWords('Medium', ['Low', 'Med', 'High'])).toBeUndefined()
    expect(matchInOtherWords('Medium', ['Low', 'Medium-high', 'High'])).toBeUndefined()
    expect(matchInOtherWords('Tier M', ['Small', 'Medium', 'Large'])).toBeUndefined()
    expect(matchInOtherWords('Tier M', ['Tiers', 'Mid'])).toBeUndefined()
    // A version is one word: Sonnet 4.5 is not Sonnet 4.
    expect(matchInOtherWords('Sonnet 4.5', ['Sonnet 4', 'Opus 4'])).toBeUndefined()
    expect(matchInOtherWords('Tier M', ['Opus', 'Haiku'])).toBeUndefined()
  })

  it('names none whose other words negate or grade the words they share, either way', () => {
    // The longer one says the opposite, or a step from it: not the same option in more words.
    expect(matchInOtherWords('TDD', ['Skip TDD', 'DDD'])).toBeUndefined()
    expect(matchInOtherWords('High', ['Very high', 'Low'])).toBeUndefined()
    expect(matchInOtherWords('Tests', ['No tests', 'Lint'])).toBeUndefined()
    expect(matchInOtherWords('Skip TDD', ['TDD', 'DDD'])).toBeUndefined()
    expect(matchInOtherWords('No TDD', ['TDD', 'DDD'])).toBeUndefined()
    expect(matchInOtherWords('Unit tests only', ['Unit tests', 'E2E'])).toBeUndefined()
    expect(matchInOtherWords('Caching', ['Caching off', 'Redis'])).toBeUndefined()
    expect(matchInOtherWords('Refactor', ["Don't refactor", 'Rewrite'])).toBeUndefined()
    expect(matchInOtherWords('Refactor', ['Don\u2019t refactor', 'Rewrite'])).toBeUndefined()
    expect(matchInOtherWords('Refactor', ["Doesn't refactor", 'Rewrite'])).toBeUndefined()
    // A word a hyphen joins is one word (`non-blocking` is not `blocking`), and one that starts with a negating part negates.
    expect(matchInOtherWords('Blocking', ['Non-blocking', 'Async'])).toBeUndefined()
    expect(matchInOtherWords('Review', ['Non-blocking review', 'Pairing'])).toBeUndefined()
    expect(matchInOtherWords('Deploys', ['Semi-automatic deploys', 'Manual'])).toBeUndefined()
    // The other option is then the one it names, where it is offered.
    expect(matchInOtherWords('TDD', ['Skip TDD', 'TDD first', 'DDD'])).toBe('TDD first')
    expect(matchInOtherWords('High', ['Very high', 'High effort', 'Low'])).toBe('High effort')
  })

  it('still names an option whose other words only say more of it, a negating word inside the shared run too', () => {
    expect(matchInOtherWords('No tests', ['Tests', 'No tests (fast)'])).toBe('No tests (fast)')
    expect(matchInOtherWords('Skip TDD', ['TDD', 'Skip TDD for spikes'])).toBe('Skip TDD for spikes')
    expect(matchInOtherWords('Very high', ['High', 'Very high effort'])).toBe('Very high effort')
    // A word that only starts like one is another word: `Nonstop` is not `non`, `Kick-off` not `off`.
    expect(matchInOtherWords('Builds', ['Nonstop builds', 'Nightly'])).toBe('Nonstop builds')
    expect(matchInOtherWords('Meeting', ['Kick-off meeting', 'Email'])).toBe('Kick-off meeting')
  })

  it('reads un as a hyphen\'s first part only: alone it is French\'s, Spanish\'s and Italian\'s a', () => {
    expect(matchInOtherWords('Monorepo', ['Un monorepo', 'Plusieurs dépôts'])).toBe('Un monorepo')
    expect(matchInOtherWords('Un solo repositorio', ['Solo repositorio', 'Varios'])).toBe('Solo repositorio')
    expect(matchInOtherWords('Versions', ['Un-pinned versions', 'Lockfile'])).toBeUndefined()
  })

  it('reads off and stop as switching it off alone only: before a hyphen they start a word of another sense', () => {
    expect(matchInOtherWords('Backups', ['Off-site backups', 'None'])).toBe('Off-site backups')
    expect(matchInOtherWords('Library', ['Off-the-shelf library', 'Build our own'])).toBe('Off-the-shelf library')
    expect(matchInOtherWords('GC', ['Stop-the-world GC', 'Concurrent'])).toBe('Stop-the-world GC')
    expect(matchInOtherWords('Caching', ['Caching off', 'Redis'])).toBeUndefined()
    expect(matchInOtherWords('Deploys', ['Stop deploys', 'Ship'])).toBeUndefined()
  })

  it('reads the words in a parenthesis or brackets as a note on the option: they refuse nothing', () => {
    expect(matchInOtherWords('TDD', ['TDD (tests first, no code before)', 'Code first'])).toBe('TDD (tests first, no code before)')
    expect(matchInOtherWords('Sonnet', ['Opus', 'Sonnet (more affordable)'])).toBe('Sonnet (more affordable)')
    expect(matchInOtherWords('Rebase', ['Merge', 'Rebase [no merge commits]'])).toBe('Rebase [no merge commits]')
    expect(matchInOtherWords('Strict mode (no any)', ['Strict mode', 'Loose'])).toBe('Strict mode')
    // Outside the note, the word still refuses.
    expect(matchInOtherWords('High', ['Very high (more tokens)', 'Low'])).toBeUndefined()
    expect(matchInOtherWords('TDD', ['Skip TDD (no tests)', 'DDD'])).toBeUndefined()
  })

  it('still refuses a match found in a note by the words of that note: `Code first (no TDD)` is not TDD', () => {
    expect(matchInOtherWords('TDD', ['Code first (no TDD)', 'BDD'])).toBeUndefined()
    expect(matchInOtherWords('Sonnet', ['Opus [not Sonnet]', 'Haiku'])).toBeUndefined()
    expect(matchInOtherWords('High', ['Medium (not high)', 'Low'])).toBeUndefined()
    // Offered beside the option it names: that one, not two fits and the first option in their place.
    expect(matchInOtherWords('TDD', ['Code first (no TDD)', 'TDD (tests first)'])).toBe('TDD (tests first)')
    // A note of its own still refuses nothing.
    expect(matchInOtherWords('TDD', ['TDD (no code before tests) [not BDD]', 'Code first'])).toBe('TDD (no code before tests) [not BDD]')
  })
})

/**
 * How many times `run` lower-cases a text: the work of comparing labels (matchOption compares each
 * option in another case, then folded), counted rather than timed.
 */
function loweredIn(run: () => void): number {
  const lower = String.prototype.toLocaleLowerCase
  let lowered = 0
  String.prototype.toLocaleLowerCase = function (this: string, ...args: Parameters<typeof lower>) {
    lowered++
    return lower.apply(this, args)
  }
  try {
    run()
  } finally {
    String.prototype.toLocaleLowerCase = lower
  }
  return lowered
}

describe('splitJoinedLabels: Claude Code joins multi-select answers with ", "', () => {
  const options = ['Lint, format', 'Unit tests', 'E2E tests']
  it('splits by the known labels, even those containing commas', () => {
    expect(splitJoinedLabels('Lint, format, Unit tests', options)).toEqual({
      chosen: ['Lint, format', 'Unit tests'],
      other: null,
    })
  })
  it('keeps what matches no label as free text', () => {
    expect(splitJoinedLabels('Unit tests, fuzzing', options)).toEqual({ chosen: ['Unit tests'], other: 'fuzzing' })
  })
  it('resolves a joined string when the point is multi-select', () => {
    expect(resolveChoice('E2E tests, Lint, format', options, true).chosen).toEqual(['E2E tests', 'Lint, format'])
  })

  it('takes the longest label that matches, where a shorter label starts it', () => {
    const both = ['Lint', 'Lint, format', 'Unit tests']
    expect(splitJoinedLabels('Lint, format, Unit tests', both)).toEqual({ chosen: ['Lint, format', 'Unit tests'], other: null })
    expect(splitJoinedLabels('Unit tests, Lint', both)).toEqual({ chosen: ['Unit tests', 'Lint'], other: null })
  })

  it('finds a label that holds a comma with no space after it, and keeps free text as typed (R-CAP-3, R-CAP-5)', () => {
    const loads = ['1,000 users', '10,000 users', '100,000 users']
    expect(splitJoinedLabels('1,000 users, 100,000 users', loads)).toEqual({ chosen: ['1,000 users', '100,000 users'], other: null })
    expect(resolveChoice('10,000 users', loads, true)).toEqual({ chosen: ['10,000 users'], other: null })
    expect(splitJoinedLabels('1,000 users, 1,5 million users', loads)).toEqual({ chosen: ['1,000 users'], other: '1,5 million users' })
    // Still read as before: a label with ", " sent without its space, and text runs joined with ", ".
    expect(splitJoinedLabels('Lint,format, Unit tests', options)).toEqual({ chosen: ['Lint, format', 'Unit tests'], other: null })
    expect(splitJoinedLabels('Unit tests, fuzzing, , mutation', options)).toEqual({ chosen: ['Unit tests'], other: 'fuzzing, mutation' })
  })

  it('keeps the spaces the user typed inside free text, before a comma too, trimming only its ends (R-CAP-3)', () => {
    expect(splitJoinedLabels('Unit tests, foo ,bar', options)).toEqual({ chosen: ['Unit tests'], other: 'foo ,bar' })
    expect(splitJoinedLabels(' foo ,  bar , E2E tests', options)).toEqual({ chosen: ['E2E tests'], other: 'foo ,  bar' })
    expect(resolveChoice('foo ,bar, Unit tests', options, true)).toEqual({ chosen: ['Unit tests'], other: 'foo ,bar' })
    // Runs of free text a label stands between are still two, joined with ", ".
    expect(splitJoinedLabels('a ,b, Unit tests, c ,d', options)).toEqual({ chosen: ['Unit tests'], other: 'a ,b, c ,d' })
  })

  it('tries only runs as long as an option is: a long answer of free text is read part by part', () => {
    // A list pasted as the answer (300 files here): each run of its parts, of every length, was
    // built and compared, and the service was busy for seconds (2,000 parts: minutes) for one answer.
    const answer = Array.from({ length: 300 }, (_, i) => `file${i}.ts`).join(', ')
    // Each part alone and with the next (`Lint, format` holds one comma), as sent and joined with
    // ", ", each compared with an option in another case and folded (a handful of lower-casings).
    expect(loweredIn(() => expect(splitJoinedLabels(answer, ['Lint, format', 'Unit tests'])).toEqual({ chosen: [], other: answer }))).toBeLessThanOrEqual(300 * 2 * 2 * 10)
    // Nor a run of every length up to the option with the most commas (250, in a label of 500):
    // only the lengths the options have.
    const commas = [Array.from({ length: 251 }, () => 'a').join(','), 'x']
    expect(loweredIn(() => expect(splitJoinedLabels(answer, commas)).toEqual({ chosen: [], other: answer }))).toBeLessThanOrEqual(300 * 2 * 2 * 10)
  })

  it('compares a run only with the options of as many commas: 50 options of 50 lengths are not each tried at each', () => {
    // An observation may offer 50 options (POST /v1/observations): of 0 to 49 commas, every run
    // was compared with all 50, in three cases, and one answer of 250 parts (`a,a,…`, 500
    // characters) held the service for 0.4 s, a request of ten such observations for seconds.
    // Counted as the labels lower-cased.
    const offered = Array.from({ length: 50 }, (_, k) => Array.from({ length: k + 1 }, (_, m) => (m === k ? `option ${k}` : `part ${m}`)).join(', '))
    const answer = Array.from({ length: 250 }, (_, i) => `file${i}.ts`).join(', ')
    // Each run of each length, as sent and joined: itself and the one option of its length, in
    // another case and folded (a handful each), not the 50.
    expect(loweredIn(() => expect(splitJoinedLabels(answer, offered)).toEqual({ chosen: [], other: answer }))).toBeLessThanOrEqual(250 * 50 * 2 * 8)
    // And what is chosen is as before: an option among them, of a length tried first or last.
    expect(splitJoinedLabels(`${offered[49]}, file.ts, ${offered[0]}`, offered)).toEqual({ chosen: [offered[49], offered[0]], other: 'file.ts' })
  })
})

describe('resolveChoice: a multi-select answer joined as Claude Code joins it now, quoting a label that holds ", "', () => {
  const options = ['Lint, format', 'Unit tests', 'E2E tests']

  it('reads the quoted join as its labels, at every doorway (an observation, record_choice), not only the hook', () => {
    expect(resolveChoice('"Lint, format", Unit tests', options, true)).toEqual({ chosen: ['Lint, format', 'Unit tests'], other: null })
    expect(resolveChoice('Unit tests, "Lint, format (Recommended)"', options, true)).toEqual({ chosen: ['Unit tests', 'Lint, format'], other: null })
    // The older join, unquoted, is split by the known labels as before.
    expect(resolveChoice('Lint, format, Unit tests', options, true)).toEqual({ chosen: ['Lint, format', 'Unit tests'], other: null })
  })

  it('keeps a label that is in quotes itself, joined as it is', () => {
    expect(resolveChoice('"Fast", Slow', ['"Fast"', 'Slow'], true)).toEqual({ chosen: ['"Fast"', 'Slow'], other: null })
    // Single-select: the text is the choice, quotes and all.
    expect(resolveChoice('"Lint, format", Unit tests', options, false)).toEqual({ chosen: [], other: '"Lint, format", Unit tests' })
  })
})

describe('ownDescription: the rationale a plan appended is dropped, as a label\'s annotation is', () => {
  const rationale = 'Recommended when any context, as chosen on 2026-12-02 — based on 97% of recent choices'
  it.each([
    [`Large. ${rationale}`, 'Large.'],
    [`Large? ${rationale}`, 'Large?'],
    [`Large, for: ${rationale}`, 'Large, for:'],
    [`大規模向け。 ${rationale}`, '大規模向け。'],
    [`安全ですか？ ${rationale}`, '安全ですか？'],
    [`対象： ${rationale}`, '対象：'],
    [rationale, undefined],
    [`Large. ${rationale}. ${rationale}`, 'Large.'],
    ['Large. Recommended when a decision holds — required by decision D-1: why', 'Large.'],
    ['Small. Recommended when there is not yet enough personal history at this point — based on static default, 5 observations needed for personalization', 'Small.'],
    ['Checks. Recommended when any context — each selected in at least 98% of recent choices across all your projects', 'Checks.'],
    ['Checks. Recommended when any context — no option selected in more than 40% of recent choices', 'Checks.'],
    ['Tier. Recommended when D-2 (advisory): small teams — based on advisory decision D-2, 5 observations needed for personalization', 'Tier.'],
    ['Tier. Recommended when D-2 (advisory): small teams — based on advisory decision D-2; based on 80% of recent choices', 'Tier.'],
    ['Tier. Recommended when required decision D-1 is in force — required by decision D-1: the team agreed', 'Tier.'],
    ['Tier. Recommended when required decisions D-1, D-2 are in force — required by decisions D-1: the team agreed; D-2: audits', 'Tier.'],
    ['Tier. Recommended when any context — based on static default, personalization is off for this session', 'Tier.'],
  ])('%j → %j', (input, expected) => {
    expect(ownDescription(input)).toBe(expected)
  })

  it('keeps what the agent wrote: no rationale of this service, or one not at a sentence\'s start', () => {
    for (const own of ['Fast', 'Recommended when latency matters', 'Recommended when latency matters — see the docs', 'Not Recommended when busy — based on taste']) {
      expect(ownDescription(own)).toBe(own)
    }
    expect(ownDescription(`Recommended when latency matters. ${rationale}`)).toBe('Recommended when latency matters.')
    // The agent's own words may go on as this service's do: only what this service says after the dash is its own.
    for (const own of [
      'Postgres. Recommended when data is relational \u2014 based on the team\'s experience',
      'Recommended when the suite is slow \u2014 each selected in turn by the CI',
      'Recommended when in doubt \u2014 required by decision making at the org level',
      'Recommended when in doubt \u2014 required by decisions made at the org level',
    ]) {
      expect(ownDescription(own)).toBe(own)
    }
    expect(ownDescription(undefined)).toBeUndefined()
  })
})
