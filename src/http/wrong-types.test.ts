import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp } from '../../test/support/test-app'

/** A value of each JSON type, and how a message names it. */
const TYPES: Array<[unknown, string]> = [
  ['yes', 'a string'],
  [null, 'null'],
  [7, 'a number'],
  [{ a: 1 }, 'an object'],
  [['x'], 'an array'],
  [true, 'a boolean'],
]

/** `body` with `value` at the dotted `path`, the objects and arrays on the way made as needed. */
function withAt(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body)
  const keys = path.split('.')
  let holder: any = copy
  keys.slice(0, -1).forEach((key, i) => {
    if (typeof holder[key] !== 'object' || holder[key] === null) holder[key] = /^\d+$/.test(keys[i + 1]!) ? [] : {}
    holder = holder[key]
  })
  holder[keys.at(-1)!] = value
  return copy
}

const DECISION = { title: 't', decision: 'd', rationale: 'r' }
const OBSERVATION = { question: 'Which tier?', user_choice: 'S', all_options: ['S', 'M'] }
const RECOMMENDATION = { question: 'Which tier?', all_options: ['S', 'M'] }
const PLAN = { questions: [{ question: 'Which tier?', header: 'Tier', options: [{ label: 'S' }, { label: 'M' }] }] }

// A PreToolUse and a PostToolUse of AskUserQuestion as Claude Code sends them, and an import as import-adr sends it.
const PRE = claudeCodeFixture('pre-tool-use')
const POST = claudeCodeFixture('post-tool-use-single')
const IMPORT = {
  records: [{ key: 'D-9', title: 't', decision: 'd', rationale: 'r', status: 'accepted', date: null, origin: { path: 'docs/adr/0009-x.md', line: 1, format: 'madr' } }],
}

const NAME = 'a name (text)'
const PATH = 'a path (text)'
const QUESTION = 'a question: an object with its question and options'
const LABEL = "an option's label (text)"
const LABELS = "an option's label, or an array of labels"
const OPTIONS = 'an array of options: labels, or objects {label, description}'
const OPTION = 'an option: its label, or an object {label, description}'

/** Each field of a body, what it is told it takes, and the JSON types it takes (a string when not said). */
const FIELDS: Array<[string, Record<string, unknown>, string, string, string[]?]> = [
  ['/v1/decisions', DECISION, 'title', 'text'],
  ['/v1/decisions', DECISION, 'decision', 'text'],
  ['/v1/decisions', DECISION, 'rationale', 'text'],
  // The seed's names of key and rationale (seeds/000), told under the name sent.
  ['/v1/decisions', DECISION, 'id', 'letters, digits, ".", "_" and "-", starting with a letter or digit'],
  ['/v1/decisions', DECISION, 'reasoning', 'text'],
  ['/v1/decisions', DECISION, 'constraints', 'an array of constraints', ['an array']],
  ['/v1/decisions', DECISION, 'constraints.0', 'a constraint: an object with its kind', ['an object']],
  ['/v1/decisions', { ...DECISION, constraints: [{ kind: 'must' }] }, 'constraints.0.option', LABEL],
  ['/v1/decisions', { ...DECISION, constraints: [{ kind: 'must_not' }] }, 'constraints.0.pattern', 'a regular expression (text)'],
  ['/v1/decisions', DECISION, 'scope.points', 'an array of decision point keys', ['an array']],
  ['/v1/decisions', DECISION, 'scope.points.0', NAME],
  ['/v1/decisions/check', { action: 'ls' }, 'action', 'a shell command (text)'],
  ['/v1/decisions/check', { choice: 'S' }, 'point', NAME],
  ['/v1/decisions/check', { action: 'ls' }, 'choice', LABELS, ['a string', 'an array']],
  ['/v1/decisions/check', { choice: 'S', point: 'p' }, 'all_options', OPTIONS, ['an array']],
  ['/v1/decisions/check', { choice: 'S' }, 'multi_select', 'true or false', ['a boolean']],
  ['/v1/decisions/check', { action: 'ls' }, 'path', 'a path such as services/billing'],
  ['/v1/decisions/D-1/accept', {}, 'reason', 'text'],
  ['/v1/decisions/D-1/supersede', { by: 'D-2' }, 'reason', 'text'],
  ['/v1/observations', OBSERVATION, 'question', 'a question (text)'],
  ['/v1/observations', OBSERVATION, 'user_choice', LABELS, ['a string', 'an array']],
  ['/v1/observations', { ...OBSERVATION, user_choice: ['S'] }, 'user_choice.0', LABEL],
  ['/v1/observations', OBSERVATION, 'all_options', OPTIONS, ['an array']],
  ['/v1/observations', OBSERVATION, 'all_options.0.label', LABEL],
  ['/v1/observations', OBSERVATION, 'user', NAME],
  ['/v1/observations', OBSERVATION, 'project', NAME],
  ['/v1/observations', OBSERVATION, 'session_id', NAME],
  ['/v1/observations', OBSERVATION, 'point', NAME],
  ['/v1/observations', OBSERVATION, 'header', 'text'],
  ['/v1/observations', OBSERVATION, 'decision_id', 'an id (text)'],
  ['/v1/observations', OBSERVATION, 'multiSelect', 'true or false', ['a boolean']],
  ['/v1/recommendations', RECOMMENDATION, 'question', 'a question (text)'],
  ['/v1/recommendations', RECOMMENDATION, 'all_options', OPTIONS, ['an array']],
  ['/v1/recommendations', RECOMMENDATION, 'user', NAME],
  ['/v1/recommendations', RECOMMENDATION, 'point', NAME],
  ['/v1/recommendations', RECOMMENDATION, 'static_default', LABEL],
  ['/v1/recommendations', RECOMMENDATION, 'multi_select', 'true or false', ['a boolean']],
  ['/v1/plan', PLAN, 'user', NAME],
  ['/v1/plan', PLAN, 'session_id', NAME],
  ['/v1/plan', PLAN, 'questions', 'an array of questions', ['an array']],
  ['/v1/plan', PLAN, 'questions.0.question', 'a question (text)'],
  ['/v1/plan', PLAN, 'questions.0.header', 'text'],
  ['/v1/plan', PLAN, 'questions.0.options.0.label', LABEL],
  ['/v1/sessions', {}, 'project', NAME],
  ['/v1/hooks/claude-code', PRE, 'hook_event_name', "the event's name (text), such as PreToolUse"],
  ['/v1/hooks/claude-code', PRE, 'tool_use_id', 'an id (text)'],
  ['/v1/hooks/claude-code', PRE, 'tool_input', "AskUserQuestion's input: an object with its questions", ['an object']],
  ['/v1/hooks/claude-code', PRE, 'tool_input.questions', 'an array of questions', ['an array']],
  ['/v1/hooks/claude-code', PRE, 'tool_input.answers', 'an object, its keys the question texts', ['an object']],
  ['/v1/hooks/claude-code', POST, 'tool_response.questions', 'an array of questions', ['an array']],
  ['/v1/hooks/claude-code', POST, 'tool_response.answers', 'an object, its keys the question texts', ['an object']],
  ['/v1/decisions/import', IMPORT, 'records', 'an array of records', ['an array']],
  ['/v1/decisions/import', IMPORT, 'records.0', 'a record: an object with its key, title, decision, rationale, status, date and origin', ['an object']],
  ['/v1/decisions/import', IMPORT, 'records.0.date', 'a date YYYY-MM-DD (or an ISO time, such as 2026-01-01T10:00:00Z), or null when the record says none', ['a string', 'null']],
  ['/v1/decisions/import', IMPORT, 'records.0.origin', 'an origin: an object of path, line and format', ['an object']],
  ['/v1/decisions/import', IMPORT, 'records.0.origin.path', PATH],
  ['/v1/decisions/import', IMPORT, 'records.0.origin.line', 'a line number: a whole number from 1', ['a number']],
  ['/v1/decisions/import', IMPORT, 'records.0.origin.folder', PATH],
  ['/v1/decisions/import', IMPORT, 'records.0.origin.aliases', 'an array of folders', ['an array']],
  ['/v1/decisions/import', IMPORT, 'records.0.origin.aliases.0', PATH],
  ['/v1/decisions/import', IMPORT, 'records.0.evidence', 'an array of evidence', ['an array']],
  ['/v1/decisions/import', IMPORT, 'folder', PATH],
  ['/v1/decisions/import', IMPORT, 'aliases', 'an array of folders', ['an array']],
  ['/v1/decisions/import', IMPORT, 'moved', 'an array of folders', ['an array']],
  ['/v1/decisions/import', IMPORT, 'moved.0', PATH],
  ['/v1/decisions/import', IMPORT, 'files', 'an array of files', ['an array']],
  ['/v1/decisions/import', IMPORT, 'files.0', PATH],
  ['/v1/decisions/import', IMPORT, 'logs', 'an array of logs', ['an array']],
  ['/v1/decisions/import', IMPORT, 'logs.0', 'a log: an object of path and keys', ['an object']],
  ['/v1/decisions/import', { ...IMPORT, logs: [{ path: 'DECISIONS.md', keys: ['k'] }] }, 'logs.0.path', PATH],
  ['/v1/decisions/import', { ...IMPORT, logs: [{ path: 'DECISIONS.md', keys: ['k'] }] }, 'logs.0.keys', 'an array of keys', ['an array']],
  ['/v1/decisions/import', { ...IMPORT, logs: [{ path: 'DECISIONS.md', keys: ['k'] }] }, 'logs.0.keys.0', 'a key (text)'],
  ['/v1/maintenance/decay-scan', {}, 'force', 'true or false', ['a boolean']],
]

/**
 * The optional fields of the bodies, whose null is read as the field left out (null-fields.test.ts),
 * not refused: the hook's payload is Claude Code's, and keeps its refusals.
 */
const NULL_LEFT_OUT = new Set([
  // A null rationale is left out too, and with no reasoning then missing (null-fields.test.ts).
  ...['id', 'reasoning', 'rationale', 'constraints', 'constraints.0.option', 'constraints.0.pattern', 'constraints.0.value', 'scope.points'].map((f) => `/v1/decisions ${f}`),
  ...['action', 'point', 'choice', 'all_options', 'multi_select', 'path'].map((f) => `/v1/decisions/check ${f}`),
  '/v1/decisions/D-1/accept reason',
  '/v1/decisions/D-1/supersede reason',
  ...['user', 'project', 'session_id', 'point', 'header', 'decision_id', 'multiSelect'].map((f) => `/v1/observations ${f}`),
  ...['user', 'point', 'static_default', 'multi_select'].map((f) => `/v1/recommendations ${f}`),
  ...['user', 'session_id', 'questions.0.header'].map((f) => `/v1/plan ${f}`),
  '/v1/sessions project',
  ...['records.0.origin.folder', 'records.0.origin.aliases', 'records.0.evidence', 'folder', 'aliases', 'moved', 'files', 'logs'].map((f) => `/v1/decisions/import ${f}`),
  '/v1/maintenance/decay-scan force',
])

describe('a field sent as another JSON type is told what it takes, in the words of its other refusals (R-SVC-2)', () => {
  it("at every route's fields, with what was sent, and nothing is stored", async () => {
    const { call } = await createTestApp()
    for (const key of ['D-1', 'D-2']) expect((await call('POST', '/v1/decisions', { ...DECISION, key })).status).toBe(201)
    for (const [route, body, field, takes, types = ['a string']] of FIELDS) {
      const taken = NULL_LEFT_OUT.has(`${route} ${field}`) ? [...types, 'null'] : types
      for (const [value, type] of TYPES.filter(([, type]) => !taken.includes(type))) {
        const answer = await call('POST', route, withAt(body, field, value))
        expect([route, field, value, answer.status, answer.body.error?.issues]).toEqual([route, field, value, 400, [{ path: field, message: `${takes}, not ${type}` }]])
      }
    }
    expect((await call('GET', '/v1/decisions')).body.decisions.map((d: { key: string; status: string }) => [d.key, d.status])).toEqual([
      ['D-1', 'proposed'],
      ['D-2', 'proposed'],
    ])
    expect((await call('POST', '/v1/recommendations', RECOMMENDATION)).body.observations).toBe(0)
  })

  it('a whole-number field is said to take a whole number, and a fraction sent there is named, not called a number', async () => {
    const { call } = await createTestApp()
    // `a line number, from 1, not a number` said of 2.5 that it was not the type it is.
    for (const [line, sent] of [[2.5, '2.5'], [1.5e-300, '1.5e-300'], ['3', 'a string']] as const) {
      const answer = await call('POST', '/v1/decisions/import', withAt(IMPORT, 'records.0.origin.line', line))
      expect([line, answer.status, answer.body.error?.issues]).toEqual([line, 400, [{ path: 'records.0.origin.line', message: `a line number: a whole number from 1, not ${sent}` }]])
    }
    expect((await call('GET', '/v1/decisions')).body.decisions).toEqual([])
  })

  it('a value none of the types of a union takes is told the union\'s words; an object of the right type, its field at fault', async () => {
    const { call } = await createTestApp()
    const refused = await call('POST', '/v1/observations', { ...OBSERVATION, all_options: [7, 'M'] })
    expect(refused.body.error.issues).toEqual([{ path: 'all_options.0', message: `${OPTION}, not a number` }])
    const label = await call('POST', '/v1/observations', { ...OBSERVATION, all_options: [{ label: 7 }, 'M'] })
    expect(label.body.error.issues).toEqual([{ path: 'all_options.0.label', message: `${LABEL}, not a number` }])
    // A PreToolUse asks a question it cannot take as written, and says why in the same words.
    const pre = claudeCodeFixture('pre-tool-use')
    pre.tool_input.questions.push(7)
    const asked = await call('POST', '/v1/hooks/claude-code', pre)
    expect(asked.body.hookSpecificOutput.permissionDecisionReason).toContain(`question 2 (tool_input.questions.1: ${QUESTION}, not a number)`)
    // A field left out is still said missing, whatever it takes.
    const missing = await call('POST', '/v1/observations', { question: 'Which tier?', all_options: ['S', 'M'] })
    expect(missing.body.error.issues).toEqual([{ path: 'user_choice', message: 'missing: expected string or array' }])
    const noTitle = await call('POST', '/v1/decisions', { decision: 'd', rationale: 'r' })
    expect(noTitle.body.error.issues).toEqual([{ path: 'title', message: 'missing: expected string' }])
  })
})
