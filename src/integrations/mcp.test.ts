import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { adrText, importedRepository, shopWithOneRecord, shopWithTwoRecords } from '../../test/support/adr-repository'
import { bigWhyCase, BIG_WHY_CASES } from '../../test/support/big-why'
import { REQUIRED_TIER_L, scopedToSrcOverTime } from '../../test/support/decision-record'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { tempDir } from '../../test/support/temp-dir'
import { loneSurrogateIn, textLeaves } from '../../test/support/text-leaves'
import { createTestApp } from '../../test/support/test-app'
import { commandLine } from '../config/bin-path'
import { mcpBackend } from '../cli/mcp'
import { fixedClock, systemClock, type Clock } from '../clock'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { DecisionInputSchema } from '../decisions/decision'
import { createDecisions } from '../decisions/decisions'
import { InputError } from '../domain/errors'
import type { ObservationInput } from '../domain/observation'
import { openStores } from '../open-store'
import { planQuestionsToAsk } from '../plan-questions'
import { createMcpServer, type BackendAnswer, type McpBackend } from './mcp'

/** A backend that records what the tools pass on and stores nothing. */
function recordingBackend() {
  const observed: ObservationInput[] = []
  const backend: McpBackend = {
    recommend: async () => ({ ok: true, body: {} }),
    plan: async () => ({ ok: true, body: {} }),
    observe: async (inputs) => {
      observed.push(...inputs)
      return { ok: true, body: { stored: [], duplicates: [] } }
    },
    whyPoint: async () => ({ ok: true, body: {} }),
    whyDecision: async () => ({ ok: true, body: {} }),
    check: async () => ({ ok: true, body: {} }),
    listDecisions: async () => ({ ok: true, body: { decisions: [] } }),
  }
  return { backend, observed }
}

/** A backend whose check_decision records what it is asked, and answers nothing. */
function checkRecording() {
  const asked: unknown[] = []
  const backend: McpBackend = {
    ...recordingBackend().backend,
    check: async (request) => {
      asked.push(request)
      return { ok: true, body: {} }
    },
  }
  return { backend, asked }
}

async function connected(backend: McpBackend, defaultUser: string | undefined, clock = fixedClock(NOW), defaultProject?: string) {
  const server = createMcpServer(backend, { version: '0.0.0', defaultUser, clock, defaultProject })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(clientSide)
  return client
}

const NOW = '2026-07-01T12:00:00.000Z'
const WHY_Q = { question: 'Which database?', all_options: ['pg', 'mysql'] }
const CHOICE = { question: 'Which database?', all_options: ['pg', 'mysql'], user_choice: 'pg' }

describe('createMcpServer: the default user', () => {
  it('is checked as a user given in the call is: a $DECISION_MEMORY_USER no route accepts is a tool error', async () => {
    for (const defaultUser of ['', '!system']) {
      const { backend, observed } = recordingBackend()
      const client = await connected(backend, defaultUser)
      const answer = await client.callTool({ name: 'record_choice', arguments: CHOICE })
      expect(answer.isError).toBe(true)
      expect(JSON.stringify(answer.content)).toContain('user')
      expect(observed).toEqual([])
      await client.close()
    }
  })

  it('is normalised to NFC as a user given in the call is', async () => {
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, 'jose\u0301')
    await client.callTool({ name: 'record_choice', arguments: CHOICE })
    await client.callTool({ name: 'record_choice', arguments: { ...CHOICE, user: 'jose\u0301' } })
    expect(observed.map((o) => o.user)).toEqual(['jos\u00e9', 'jos\u00e9'])
    await client.close()
  })

  it('is "default" when $DECISION_MEMORY_USER is not set', async () => {
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, undefined)
    await client.callTool({ name: 'record_choice', arguments: CHOICE })
    expect(observed.map((o) => o.user)).toEqual(['default'])
    const { tools } = await client.listTools()
    expect(tools.find((t) => t.name === 'recommend')?.inputSchema.properties?.user).toMatchObject({ default: 'default' })
    await client.close()
  })
})

describe('createMcpServer: the default project', () => {
  /** A backend that records the project of every request it gets, by what it was asked. */
  function projectsBackend() {
    const projects: Array<[string, string | undefined]> = []
    const backend: McpBackend = {
      recommend: async (request) => (projects.push(['recommend', request.project]), { ok: true, body: { point: 'db' } }),
      plan: async (request) => (projects.push(['plan', request.project]), { ok: true, body: {} }),
      observe: async (inputs) => (projects.push(...inputs.map((i): [string, string | undefined] => ['observe', i.project])), { ok: true, body: {} }),
      whyPoint: async (query) => (projects.push(['whyPoint', query.project]), { ok: true, body: {} }),
      whyDecision: async () => (projects.push(['whyDecision', undefined]), { ok: true, body: {} }),
      check: async () => ({ ok: true, body: {} }),
      listDecisions: async () => ({ ok: true, body: { decisions: [] } }),
    }
    return { backend, projects }
  }
  /** Each call, and what it asks of the backend: `why` of a question asks the point's why beside the recommendation. */
  const CALLS: Array<[string, Record<string, unknown>, string[]]> = [
    ['recommend', WHY_Q, ['recommend']],
    ['plan_questions', { questions: [{ question: 'Which database?', options: [{ label: 'pg' }, { label: 'mysql' }] }] }, ['plan']],
    ['record_choice', CHOICE, ['observe']],
    ['why', WHY_Q, ['recommend', 'whyPoint']],
    ['why', { point: 'db' }, ['whyPoint']],
  ]

  it('is the one the server was started in when a call names none (or null); a project named wins', async () => {
    const { backend, projects } = projectsBackend()
    const client = await connected(backend, undefined, fixedClock(NOW), '/home/alice/web')
    for (const [name, args, asked] of CALLS) {
      for (const [given, expected] of [[undefined, '/home/alice/web'], [null, '/home/alice/web'], ['api', 'api']] as const) {
        const answer = await client.callTool({ name, arguments: given === undefined ? args : { ...args, project: given } })
        expect(answer.isError, `${name} ${given}: ${JSON.stringify(answer.content)}`).toBeFalsy()
        expect(projects.splice(0), `${name} ${given}`).toEqual(asked.map((a) => [a, expected]))
      }
    }
    // A decision's why holds no project: none is put in, and one named beside the key is still refused.
    expect((await client.callTool({ name: 'why', arguments: { key: 'D-001' } })).isError).toBeFalsy()
    const refused = await client.callTool({ name: 'why', arguments: { key: 'D-001', project: 'api' } })
    expect(JSON.stringify(refused.content)).toContain('- project: ')
    expect(projects).toEqual([['whyDecision', undefined]])
    await client.close()
  })

  it('is said in the description of each tool\'s project, and is none when the server was started in no repository', async () => {
    const { backend, projects } = projectsBackend()
    const client = await connected(backend, undefined, fixedClock(NOW), '/home/alice/web')
    const { tools } = await client.listTools()
    const described = tools.filter((t) => t.inputSchema.properties?.project !== undefined)
    expect(described.map((t) => t.name).sort()).toEqual(['plan_questions', 'recommend', 'record_choice', 'why'])
    for (const tool of described) {
      expect((tool.inputSchema.properties?.project as { description: string }).description, tool.name).toContain('Default: "/home/alice/web"')
    }
    await client.close()
    const none = await connected(backend, undefined)
    for (const [name, args, asked] of CALLS) {
      await none.callTool({ name, arguments: args })
      expect(projects.splice(0), name).toEqual(asked.map((a) => [a, undefined]))
    }
    const listed = await none.listTools()
    expect(JSON.stringify(listed.tools)).not.toContain('Default: "')
    await none.close()
  })
})

describe('createMcpServer: version negotiation', () => {
  /** The initialize result a client asking `protocolVersion` gets, as the server sends it. */
  async function initialized(protocolVersion: string) {
    const server = createMcpServer(recordingBackend().backend, { version: '0.0.0' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const answer = new Promise<{ result?: Record<string, unknown> }>((answered) => {
      clientSide.onmessage = (message) => answered(message as { result?: Record<string, unknown> })
    })
    await clientSide.start()
    await clientSide.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
    const { result } = await answer
    await clientSide.close()
    return result
  }

  // The README names these: a client of any of them gets the version it asked for, and one asking a
  // version newer than the server's (or no date) its newest, which MCP has the client take or
  // disconnect from, rather than an error. An SDK that drops one fails here before the README lies.
  it('answers the version the client asks for when the server has it, else its newest, with its name', async () => {
    for (const version of ['2024-10-07', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      expect((await initialized(version))?.protocolVersion, version).toBe(version)
    }
    for (const version of ['2099-01-01', 'draft']) {
      expect(await initialized(version), version).toMatchObject({
        protocolVersion: '2025-11-25',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'decision-memory', version: '0.0.0' },
      })
    }
  })
})

describe('createMcpServer: capabilities', () => {
  it('are tools whose list never changes: no listChanged promised that is never sent', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } })
    // README says a client shows no instructions: the tools' descriptions say when to call each.
    expect(client.getInstructions()).toBeUndefined()
    await client.close()
  })

  it('mark only why read-only, so that Claude Code runs it in plan mode; none destructive, none beyond the memory', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]))
    expect(annotations).toEqual({
      recommend: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      plan_questions: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      record_choice: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      why: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      check_decision: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    })
    await client.close()
  })
})

describe('createMcpServer: the tools’ input schemas', () => {
  it('carry patterns any JSON Schema validator reads alike: no \\p{…}, which needs JavaScript’s u flag, and no lookaround', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const patterns = new Set<string>()
    JSON.stringify(tools, (key, value) => {
      if (key === 'pattern' && typeof value === 'string') patterns.add(value)
      return value
    })
    expect(patterns.size).toBeGreaterThan(0)
    for (const pattern of patterns) expect(pattern).not.toMatch(/\\[pP]\{/)
    // Lookarounds are outside JSON Schema's recommended subset of regular expressions.
    for (const pattern of patterns) expect(pattern).not.toMatch(/\((?:\?[=!]|\?<[=!])/)
    // The user property of the tools that take one: the names they take pass its patterns with or without the u flag.
    const withUser = tools.filter((tool) => tool.inputSchema.properties?.user !== undefined)
    expect(withUser.map((tool) => tool.name).sort()).toEqual(['check_decision', 'plan_questions', 'recommend', 'record_choice', 'why'])
    for (const tool of withUser) {
      const user = tool.inputSchema.properties?.user as { allOf?: Array<{ pattern: string }>; pattern?: string }
      const own = user.allOf?.map((p) => p.pattern) ?? (user.pattern === undefined ? [] : [user.pattern])
      expect(own.length, tool.name).toBeGreaterThan(0)
      for (const flags of ['', 'u']) {
        const all = own.map((p) => new RegExp(p, flags))
        for (const name of ['alice', 'Café', 'Ελένη 😀']) expect(all.every((re) => re.test(name)), `${tool.name} ${name} /${flags}`).toBe(true)
        for (const bad of ['a\u0000b', 'tab\there', '!x']) expect(all.every((re) => re.test(bad)), `${tool.name} ${JSON.stringify(bad)} /${flags}`).toBe(false)
      }
    }
    await client.close()
  })
})

describe('createMcpServer: what a client checks against the input schemas', () => {
  const Q = { question: 'Which database?', all_options: ['pg', 'mysql'] }
  const ASK = { question: 'Which database?', options: [{ label: 'pg' }, { label: 'mysql' }] }
  /** Arguments each tool refuses, by the field that refuses them (as the SDK's error names it): blank where blank means nothing, `.`/`..` as a name. */
  const REFUSED: Array<[string, string, Record<string, unknown>]> = [
    ['recommend', 'question', { ...Q, question: ' \t\n ' }],
    ['recommend', 'user', { ...Q, user: '.' }],
    ['recommend', 'project', { ...Q, project: '..' }],
    ['recommend', 'session_id', { ...Q, session_id: '.' }],
    ['recommend', 'point', { ...Q, point: '..' }],
    ['recommend', 'all_options.1', { ...Q, all_options: ['pg', '\u3000'] }],
    ['recommend', 'all_options.1.label', { ...Q, all_options: ['pg', { label: ' ' }] }],
    ['recommend', 'static_default', { ...Q, static_default: '\u00a0' }],
    ['why', 'user', { ...Q, user: '..' }],
    // The words that follow /v1/decisions/ as routes of their own, in any case: no decision's key.
    ['why', 'key', { key: 'check' }],
    ['why', 'key', { key: 'Pulses' }],
    ['record_choice', 'question', { ...Q, question: '  ', user_choice: 'pg' }],
    ['record_choice', 'user_choice', { ...Q, user_choice: ' ' }],
    ['record_choice', 'user_choice.1', { ...Q, user_choice: ['pg', '\ufeff'], multi_select: true }],
    ['record_choice', 'point', { ...Q, user_choice: 'pg', point: '.' }],
    ['plan_questions', 'questions.0.question', { questions: [{ ...ASK, question: '\n' }] }],
    ['plan_questions', 'questions.0.options.1.label', { questions: [{ ...ASK, options: [{ label: 'pg' }, { label: '  ' }] }] }],
    ['plan_questions', 'session_id', { questions: [ASK], session_id: '..' }],
    ['check_decision', 'point', { choice: 'pg', point: '.' }],
    ['check_decision', 'choice', { choice: '\t', point: 'db' }],
  ]
  /** Arguments each tool takes, close to those: names that merely start or end with dots, text around white space. */
  const TAKEN: Array<[string, Record<string, unknown>]> = [
    ['recommend', { ...Q, question: ' Which? ', user: '.a', project: '...', session_id: '.!', point: 'a..' }],
    ['recommend', { ...Q, all_options: [' pg ', { label: '\u3000mysql' }], static_default: ' pg' }],
    ['why', { ...Q, user: '..x' }],
    ['why', { key: 'checks' }],
    ['why', { key: 'D-check' }],
    ['record_choice', { ...Q, user_choice: ' pg\n', point: '.db', context: { ' ': 'x' } }],
    ['plan_questions', { questions: [{ ...ASK, question: ' Which database? ' }], session_id: '.s' }],
    ['check_decision', { choice: ' pg ', point: '.db', task: '.t', stage: 'x.' }],
    // A run's task and stage are what a context value may be (as why takes them): not names.
    ['check_decision', { action: 'ls', task: '..', stage: '.' }],
  ]

  it('refuse in the schema what the tool refuses: blank text where the service trims it, "." and ".." as a name, a route\'s word as a decision\'s key', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const validator = new AjvJsonSchemaValidator()
    const check = (name: string) => validator.getValidator(tools.find((t) => t.name === name)?.inputSchema as never)
    for (const [name, field, args] of REFUSED) {
      expect(check(name)(args).valid, `${name} ${field} in the schema`).toBe(false)
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, `${name} ${field} by the tool`).toBe(true)
      const lines = (answer.content as Array<{ text: string }>)[0]?.text.split('\n') ?? []
      expect(lines.some((line) => line.startsWith(`- ${field}: `)), `${name} ${field}: ${lines.join(' / ')}`).toBe(true)
    }
    for (const [name, args] of TAKEN) {
      expect(check(name)(args), `${name} ${JSON.stringify(args)} in the schema`).toMatchObject({ valid: true })
      expect((await client.callTool({ name, arguments: args })).isError, `${name} ${JSON.stringify(args)} by the tool`).toBeFalsy()
    }
    await client.close()
  })

  it('refuse an argument the tool does not have, in the schema and by the tool, naming it; questions and options stay open', async () => {
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const validator = new AjvJsonSchemaValidator()
    const check = (name: string) => validator.getValidator(tools.find((t) => t.name === name)?.inputSchema as never)
    const misspelt: Array<[string, string, Record<string, unknown>]> = [
      ['record_choice', 'decisionId', { ...CHOICE, decisionId: 'cam-1' }],
      ['recommend', 'asOf', { ...Q, asOf: '2026-01-01T00:00:00Z' }],
      ['why', 'staticDefault', { ...Q, staticDefault: 'pg' }],
      ['plan_questions', 'sesion_id', { questions: [ASK], sesion_id: 's' }],
      ['check_decision', 'pth', { action: 'ls', pth: '/srv' }],
    ]
    for (const [name, field, args] of misspelt) {
      expect(tools.find((t) => t.name === name)?.inputSchema.additionalProperties, name).toBe(false)
      expect(check(name)(args).valid, `${name} ${field} in the schema`).toBe(false)
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, `${name} ${field} by the tool`).toBe(true)
      expect((answer.content as Array<{ text: string }>)[0]?.text, name).toContain(field)
    }
    expect(observed).toEqual([])
    const open = { questions: [{ ...ASK, preview: 'x', options: [{ label: 'pg', shortcut: 'p' }, { label: 'mysql' }] }] }
    expect(check('plan_questions')(open)).toMatchObject({ valid: true })
    expect((await client.callTool({ name: 'plan_questions', arguments: open })).isError).toBeFalsy()
    const option = { ...CHOICE, all_options: [{ label: 'pg', preview: 'x' }, 'mysql'] }
    expect(check('record_choice')(option)).toMatchObject({ valid: true })
    expect((await client.callTool({ name: 'record_choice', arguments: option })).isError).toBeFalsy()
    await client.close()
  })

  it('say arguments that do not fit as the route says the same body: each field with what it takes, not zod\'s "Invalid input at"', async () => {
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, undefined)
    const t = await createTestApp()
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['record_choice', '/v1/observations', { question: 'Which database?', all_options: ['pg', 'mysql'] }],
      ['record_choice', '/v1/observations', { ...CHOICE, user_choice: { label: 'pg' } }],
      ['record_choice', '/v1/observations', { ...CHOICE, decisionId: 'cam-1', timestamp: 'now' }],
      ['recommend', '/v1/recommendations', { ...Q, all_options: [1, { name: 'mysql' }] }],
      ['recommend', '/v1/recommendations', { ...Q, all_options: 'pg, mysql, sqlite, mariadb, oracle, mssql, db2, cockroach, yugabyte' }],
      ['plan_questions', '/v1/plan', { questions: JSON.stringify([ASK]) }],
      ['check_decision', '/v1/decisions/check', {}],
    ]
    for (const [name, route, args] of cases) {
      const { body } = await t.call('POST', route, args)
      const issues = body.error.issues as Array<{ path: string; message: string }>
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, name).toBe(true)
      expect((answer.content as Array<{ text: string }>)[0]?.text).toBe(
        [`invalid_request: invalid arguments: ${issues.map((i) => i.path).join(', ')}`, ...issues.map((i) => `- ${i.path}: ${i.message}`)].join('\n'),
      )
    }
    // A field breaking two rules (an empty action is too short and blank) is named once in the first line.
    const empty = await client.callTool({ name: 'check_decision', arguments: { action: '' } })
    expect((empty.content as Array<{ text: string }>)[0]?.text).toMatch(/^invalid_request: invalid arguments: action\n- action: .+\n- action: /)
    const missing = await client.callTool({ name: 'record_choice', arguments: { question: 'Which database?', all_options: ['pg', 'mysql'] } })
    expect((missing.content as Array<{ text: string }>)[0]?.text).toContain('- user_choice: missing: expected string or array')
    expect(observed).toEqual([])
    await client.close()
  })

  it('stay schemas the Claude API takes: an object at the top, with no anyOf, oneOf or allOf there', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    expect(tools).toHaveLength(5)
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object')
      for (const key of ['anyOf', 'oneOf', 'allOf', 'not', '$ref']) expect(tool.inputSchema, `${tool.name} ${key}`).not.toHaveProperty(key)
    }
    await client.close()
  })

  it('give every property a type, at any depth, as function schemas of the OpenAPI subset (Gemini\'s) want', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const untyped: string[] = []
    const walk = (schema: Record<string, unknown>, at: string): void => {
      const alternatives = (schema.anyOf ?? schema.allOf) as Array<Record<string, unknown>> | undefined
      if (alternatives !== undefined) return alternatives.forEach((one, i) => walk(one, `${at}|${i}`))
      if (schema.type === undefined) untyped.push(at)
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(property, `${at}.${name}`)
      if (typeof schema.items === 'object') walk(schema.items as Record<string, unknown>, `${at}[]`)
      // `{}` is a loose object's (a question's, an option's): fields of its own, of any value, not a property.
      const more = schema.additionalProperties
      if (typeof more === 'object' && more !== null && Object.keys(more).length > 0) walk(more as Record<string, unknown>, `${at}{}`)
    }
    for (const tool of tools) walk(tool.inputSchema, tool.name)
    expect(untyped).toEqual([])
    const plan = tools.find((t) => t.name === 'plan_questions')?.inputSchema.properties ?? {}
    for (const name of ['answers', 'annotations', 'metadata']) expect(plan[name], name).toMatchObject({ type: 'object' })
    await client.close()
  })

  it('have no oneOf at any depth: a plan_questions question is one object schema, which OpenAI\'s and Gemini\'s function schemas take', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    for (const tool of tools) expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('"oneOf"')
    const question = (tools.find((t) => t.name === 'plan_questions')?.inputSchema.properties?.questions as { items: Record<string, unknown> }).items
    expect(question).toMatchObject({ type: 'object', required: ['question'] })
    await client.close()
  })

  it("hold no keyword Gemini's function declarations refuse, at any depth: no propertyNames, patternProperties, $ref, $defs, const or type array", async () => {
    // Gemini's `parameters` (what Gemini CLIs before `parametersJsonSchema`, and gateways from other
    // clients to Gemini, send a tool's schema as) refuse the whole request for one of these:
    // `Unknown name "propertyNames" at 'tools[0].function_declarations[3].parameters…'`.
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const found: string[] = []
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}[${i}]`))
      for (const [key, value] of Object.entries(node)) {
        if (['propertyNames', 'patternProperties', '$ref', '$defs', 'definitions', 'const'].includes(key)) found.push(`${at}.${key}`)
        if (key === 'type' && Array.isArray(value)) found.push(`${at}.type`)
        // A property's name is not a keyword: `properties` holds schemas by name.
        if (key === 'properties') for (const [name, schema] of Object.entries(value as object)) walk(schema, `${at}.${name}`)
        else if (!['enum', 'default', 'examples', 'required'].includes(key)) walk(value, `${at}.${key}`)
      }
    }
    for (const tool of tools) walk(tool.inputSchema, tool.name)
    expect(found).toEqual([])
    await client.close()
  })

  it("are never sent in OpenAI's strict mode with an optional argument: some object stays open, as Codex turns strict on only when none is", async () => {
    // Codex sends a tool `strict: true` when every object of its schema has additionalProperties:
    // false; OpenAI then refuses the tool unless every property is `required`, which an optional
    // argument is not. An option object and a context stay open (as on the routes), so each is sent
    // `strict: false`; closing them all would take every tool out of Codex.
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const objects = (node: unknown): Array<Record<string, unknown>> => {
      if (typeof node !== 'object' || node === null) return []
      if (Array.isArray(node)) return node.flatMap(objects)
      const own = node as Record<string, unknown>
      const here = own.type === 'object' || own.properties !== undefined ? [own] : []
      const inner = [
        ...Object.values((own.properties ?? {}) as object),
        own.items,
        ...((own.anyOf ?? []) as unknown[]),
        typeof own.additionalProperties === 'object' ? own.additionalProperties : undefined,
      ]
      return [...here, ...inner.flatMap(objects)]
    }
    for (const tool of tools) {
      const all = objects(tool.inputSchema)
      const strict = all.every((object) => object.additionalProperties === false)
      const everyRequired = all.every((object) => Object.keys((object.properties ?? {}) as object).every((name) => ((object.required ?? []) as string[]).includes(name)))
      expect(!strict || everyRequired, tool.name).toBe(true)
    }
    await client.close()
  })

  it("say a context key's rules in context's description, and refuse a key that breaks them in the tool, naming it", async () => {
    // Not in the schema (no propertyNames, above): a client that checks the schema sends such a key,
    // and the tool refuses it as the route does, its path the key.
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const validator = new AjvJsonSchemaValidator()
    for (const tool of tools.filter((t) => t.inputSchema.properties?.context !== undefined)) {
      expect((tool.inputSchema.properties?.context as { description: string }).description, tool.name).toContain('each of 1 to 100 characters without control characters')
    }
    const schema = tools.find((t) => t.name === 'record_choice')?.inputSchema
    const args = { ...Q, user_choice: 'pg', context: { 'a\u0085b': 1 } }
    expect(validator.getValidator(schema as never)(args)).toMatchObject({ valid: true })
    for (const [key, field] of [['a\u0085b', 'context.a\u0085b'], ['k'.repeat(101), `context.${'k'.repeat(101)}`]] as const) {
      const answer = await client.callTool({ name: 'record_choice', arguments: { ...args, context: { [key]: 1 } } })
      expect(answer.isError, key).toBe(true)
      const lines = (answer.content as Array<{ text: string }>)[0]?.text.split('\n') ?? []
      expect(lines.some((line) => line.startsWith(`- ${field}: `)), lines.join(' / ')).toBe(true)
    }
    expect(observed).toEqual([])
    await client.close()
  })
})

/** The server behind a raw JSON-RPC line, as a client sees it: what it sends, the message answered to each id. */
async function rawSession(backend: McpBackend = recordingBackend().backend) {
  const server = createMcpServer(backend, { version: '0.0.0' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const waiting = new Map<string | number, (message: unknown) => void>()
  clientSide.onmessage = (message) => {
    const id = (message as { id?: string | number }).id
    if (id !== undefined) waiting.get(id)?.(message)
  }
  await clientSide.start()
  const request = (id: string | number, method: string, params?: unknown) =>
    new Promise<{ id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }>((answered) => {
      waiting.set(id, answered as (message: unknown) => void)
      void clientSide.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as never)
    })
  await request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } })
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  return { request, close: () => clientSide.close() }
}

describe('createMcpServer: argument descriptions', () => {
  it('describe every argument of every tool, as the OpenAPI document describes the route\'s field', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const doc = (await (await createTestApp()).call('GET', '/openapi.json')).body
    /** The route body each tool takes, as the OpenAPI document names its schema. */
    const bodies: Record<string, string> = {
      recommend: 'RecommendationRequest',
      plan_questions: 'PlanRequest',
      record_choice: 'ObservationInput',
      why: 'RecommendationRequest',
      check_decision: 'DecisionCheck',
    }
    for (const tool of tools) {
      const documented = doc.components.schemas[bodies[tool.name] as string].properties as Record<string, { description?: string }>
      // The document says a request field's default after its description (docs.ts), which a tool says its own way.
      for (const property of Object.values(documented)) property.description = property.description?.replace(/ ?When not sent: `[^`]*`\.$/, '')
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        const description = (property as { description?: unknown }).description
        expect(typeof description === 'string' && description.length > 0, `${tool.name}.${name}`).toBe(true)
        // The MCP server's user defaults otherwise, and says so after the shared description.
        if (name === 'user') expect(description, tool.name).toContain(documented.user?.description)
        else if (documented[name] !== undefined) expect(description, `${tool.name}.${name}`).toBe(documented[name]?.description)
      }
    }
    await client.close()
  })
})

describe('createMcpServer: the point argument', () => {
  it('says that a point not named is keyed by the question and its options, so the same question with other options is another point (R-CAP-4)', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    for (const name of ['recommend', 'record_choice', 'why']) {
      const point = tools.find((t) => t.name === name)?.inputSchema.properties?.point as { description: string }
      expect(point.description, name).toContain('option labels')
      expect(point.description, name).toContain('another point unless named')
    }
    await client.close()
  })
})

describe('createMcpServer: the context property', () => {
  it('says in the schema the bound on keys the tools hold it to: a client that checks the schema refuses what the tool would', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const withContext = tools.filter((tool) => tool.inputSchema.properties?.context !== undefined)
    expect(withContext.map((tool) => tool.name).sort()).toEqual(['plan_questions', 'recommend', 'record_choice', 'why'])
    for (const tool of withContext) expect(tool.inputSchema.properties?.context, tool.name).toMatchObject({ maxProperties: 32 })
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
    expect((await client.callTool({ name: 'record_choice', arguments: { ...CHOICE, context: keys(32) } })).isError).toBeFalsy()
    const over = await client.callTool({ name: 'record_choice', arguments: { ...CHOICE, context: keys(33) } })
    expect(over.isError).toBe(true)
    expect(JSON.stringify(over.content)).toContain('- context: at most 32 keys')
    await client.close()
  })
})

describe('createMcpServer: a lone surrogate in a text', () => {
  it('is refused by each tool as the routes refuse it, naming the field, and nothing is passed on', async () => {
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, undefined)
    for (const [name, args, said] of [
      ['record_choice', { ...CHOICE, question: 'Which\ud800 database?' }, 'question: must not contain lone surrogates'],
      ['record_choice', { ...CHOICE, user_choice: 'pg\udc00' }, 'user_choice: must not contain lone surrogates'],
      ['recommend', { ...WHY_Q, context: { phase: 'run\ud800' } }, 'context.phase: must not contain lone surrogates'],
      ['plan_questions', { questions: [{ question: 'Which database?', header: 'DB\ud800', options: [{ label: 'pg' }, { label: 'mysql' }] }] }, 'questions.0.header: must not contain lone surrogates'],
      ['check_decision', { action: 'psql\ud800' }, 'action: must not contain lone surrogates'],
      ['why', { file: 'src/db\ud800.ts' }, 'file: must not contain lone surrogates'],
    ] as const) {
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, name).toBe(true)
      expect(JSON.stringify(answer.content), name).toContain(said)
    }
    expect(observed).toEqual([])
    await client.close()
  })

  it('is refused by every text of every tool, so that one added without the rule is seen here', () => {
    const server = createMcpServer(recordingBackend().backend, { version: '0.0.0' })
    // The SDK's own table of what each tool checks its arguments by (private, as validateToolInput is).
    const tools = (server as unknown as { _registeredTools: Record<string, { inputSchema?: unknown }> })._registeredTools
    const said: Record<string, string> = {}
    let tried = 0
    for (const [name, tool] of Object.entries(tools)) {
      for (const leaf of textLeaves(tool.inputSchema, name)) {
        tried += 1
        const answer = loneSurrogateIn(leaf.schema)
        if (answer !== 'refused') said[leaf.where] = answer
      }
    }
    expect(said).toEqual({})
    expect(tried).toBeGreaterThan(30)
  })
})

describe('createMcpServer: a label over the limit as sent', () => {
  it('is refused in words that say the limit once normalised, not as if 1,000 were the label limit', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const over = await client.callTool({ name: 'record_choice', arguments: { ...CHOICE, all_options: ['a', 'x'.repeat(1001)] } })
    expect(over.isError).toBe(true)
    expect(JSON.stringify(over.content)).toContain(
      'all_options.1: at most 1000 characters once the white space at its ends is taken off, not 1001 (and at most 500 once normalised: a trailing \\" (Recommended)\\" and the white space at its ends not counted, a run of white space inside counted as one)',
    )
    await client.close()
  })
})

describe('createMcpServer: a text or a list over its limit', () => {
  it('is told the limit and the length sent, as the routes tell it', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    // zod said `Too big: expected string to have <=200 characters` and `… array to have <=20 items`.
    const long = await client.callTool({ name: 'record_choice', arguments: { ...CHOICE, user: 'u'.repeat(201) } })
    expect([long.isError, JSON.stringify(long.content)]).toEqual([true, expect.stringContaining('- user: at most 200 characters, not 201')])
    const questions = Array.from({ length: 21 }, (_, i) => ({ question: `Q${i}?`, options: [{ label: 'a' }, { label: 'b' }] }))
    const many = await client.callTool({ name: 'plan_questions', arguments: { questions } })
    expect([many.isError, JSON.stringify(many.content)]).toEqual([true, expect.stringContaining('- questions: at most 20 questions, not 21')])
    await client.close()
  })
})

describe('createMcpServer: JSON-RPC errors', () => {
  it('answers a request whose params do not fit its method with -32602 Invalid params naming the field, not -32603', async () => {
    const session = await rawSession()
    const noName = await session.request(1, 'tools/call', { arguments: {} })
    expect(noName.error?.code).toBe(-32602)
    expect(noName.error?.message).toContain('params.name')
    // Said as a tool's argument left out is said (JSON has no undefined), not zod's "received undefined".
    expect(noName.error?.message).toBe('Invalid params: params.name: missing: expected string')
    const noParams = await session.request('two', 'tools/call')
    expect(noParams).toMatchObject({ id: 'two', error: { code: -32602 } })
    expect(noParams.error?.message).toContain('params')
    const argumentsText = await session.request(3, 'tools/call', { name: 'recommend', arguments: '{"question": "Q?"}' })
    expect(argumentsText.error?.code).toBe(-32602)
    expect(argumentsText.error?.message).toContain('params.arguments')
    const badCursor = await session.request(4, 'tools/list', { cursor: 5 })
    expect(badCursor.error?.code).toBe(-32602)
    expect(badCursor.error?.message).toContain('params.cursor')
    const badInitialize = await session.request(5, 'initialize', { capabilities: {} })
    expect(badInitialize.error?.code).toBe(-32602)
    expect(badInitialize.error?.message).toContain('params.protocolVersion')
    // What fits is served as before.
    expect((await session.request(6, 'tools/call', { name: 'check_decision', arguments: { action: 'ls' } })).result?.isError).toBeFalsy()
    expect((await session.request(7, 'tools/list')).result?.tools).toHaveLength(5)
    expect(await session.request(8, 'ping')).toMatchObject({ id: 8, result: {} })
    expect((await session.request(9, 'resources/list')).error?.code).toBe(-32601)
    await session.close()
  })

  it('answers a tools/call of a tool it does not have with -32602, as MCP says of unknown tools, not with a tool result', async () => {
    const session = await rawSession()
    const unknown = await session.request(1, 'tools/call', { name: 'record', arguments: { question: 'Q?' } })
    expect(unknown.result).toBeUndefined()
    expect(unknown.error?.code).toBe(-32602)
    expect(unknown.error?.message).toContain('record')
    expect(unknown.error?.message).toContain('record_choice')
    // A name an object has of its own prototype is no tool either.
    expect((await session.request(2, 'tools/call', { name: 'constructor' })).error?.code).toBe(-32602)
    // Every listed tool is one it has.
    const { tools } = (await session.request(3, 'tools/list')).result as { tools: Array<{ name: string }> }
    for (const [i, tool] of tools.entries()) {
      expect((await session.request(10 + i, 'tools/call', { name: tool.name, arguments: {} })).error, tool.name).toBeUndefined()
    }
    await session.close()
  })

  it('answers tools/list with a cursor it never gave with -32602, as MCP wants of an invalid cursor, not with the first page again', async () => {
    const session = await rawSession()
    const first = (await session.request(1, 'tools/list')).result
    // One page: no cursor is ever given, so none can be valid.
    expect(first?.nextCursor).toBeUndefined()
    const paged = await session.request(2, 'tools/list', { cursor: 'eyJwYWdlIjogMn0=' })
    expect(paged.result).toBeUndefined()
    expect(paged.error?.code).toBe(-32602)
    expect(paged.error?.message).toContain('params.cursor')
    expect(paged.error?.message).toContain('nextCursor')
    // No cursor, or none written as null, is the first (and only) page.
    expect((await session.request(3, 'tools/list', {})).result?.tools).toHaveLength(5)
    expect((await session.request(4, 'tools/list', { _meta: {} })).result?.tools).toHaveLength(5)
    await session.close()
  })
})

describe('createMcpServer: notifications', () => {
  it('ignores one whose params do not fit its method, said in one line (no answer: a notification gets none), and serves on', async () => {
    const server = createMcpServer(recordingBackend().backend, { version: '0.0.0' })
    const said: string[] = []
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    server.server.onerror = (error) => said.push(error.message)
    const answers: unknown[] = []
    clientSide.onmessage = (message) => answers.push(message)
    await clientSide.start()
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/cancelled' })
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { a: 1 } } })
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 'half' } })
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'ping' })
    await vi.waitFor(() => expect(answers).toHaveLength(1))
    expect(answers).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
    expect(said).toHaveLength(3)
    for (const line of said) expect(line).not.toContain('\n')
    expect(said[0]).toMatch(/^notifications\/cancelled ignored: params: /)
    expect(said[0]).toBe('notifications/cancelled ignored: params: missing: expected object')
    expect(said[1]).toMatch(/^notifications\/cancelled ignored: params\.requestId: /)
    expect(said[2]).toMatch(/^notifications\/progress ignored: params\.progress/)
    await clientSide.close()
  })

  it('leaves unanswered a call cancelled in flight, whose work still happens: a cancelled record_choice is stored', async () => {
    const observed: ObservationInput[] = []
    let release: () => void = () => undefined
    const gate = new Promise<void>((open) => (release = open))
    const backend: McpBackend = {
      ...recordingBackend().backend,
      observe: async (inputs) => {
        await gate
        observed.push(...inputs)
        return { ok: true, body: { stored: [], duplicates: [] } }
      },
    }
    const server = createMcpServer(backend, { version: '0.0.0', defaultUser: 'alice', clock: fixedClock(NOW) })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const answers: Array<{ id?: unknown }> = []
    clientSide.onmessage = (message) => answers.push(message as { id?: unknown })
    await clientSide.start()
    await clientSide.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'record_choice', arguments: CHOICE } })
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user stopped it' } })
    release()
    await clientSide.send({ jsonrpc: '2.0', id: 8, method: 'ping' })
    await vi.waitFor(() => expect(observed).toHaveLength(1))
    await vi.waitFor(() => expect(answers.map((a) => a.id)).toContain(8))
    expect(observed[0]).toMatchObject({ user: 'alice', user_choice: 'pg' })
    expect(answers.map((a) => a.id)).toEqual([8])
    await clientSide.close()
  })

  it('says what a field of a few types takes, and that it is missing when left out, as the routes say it, not zod\'s bare "Invalid input"', async () => {
    const server = createMcpServer(recordingBackend().backend, { version: '0.0.0' })
    const said: string[] = []
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    server.server.onerror = (error) => said.push(error.message)
    await clientSide.start()
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } })
    await clientSide.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: null } })
    await vi.waitFor(() => expect(said).toHaveLength(2))
    expect(said).toEqual([
      'notifications/progress ignored: params.progressToken: missing: expected string or number',
      'notifications/cancelled ignored: params.requestId: Invalid input: expected string or number, received null',
    ])
    await clientSide.close()
  })
})

describe('createMcpServer: task-augmented requests', () => {
  it('answers a request with a `task` as one without, as MCP wants of a server that declares no tasks, not with -32603', async () => {
    const { backend, observed } = recordingBackend()
    const session = await rawSession(backend)
    const called = await session.request(1, 'tools/call', { name: 'record_choice', arguments: CHOICE, task: { ttl: 60000 } })
    expect(called.error).toBeUndefined()
    // The tool's own result, not a CreateTaskResult: no task was made.
    expect(called.result?.isError).toBeFalsy()
    expect(called.result?.task).toBeUndefined()
    expect(observed).toHaveLength(1)
    expect(await session.request(2, 'ping', { task: {} })).toMatchObject({ id: 2, result: {} })
    expect((await session.request(3, 'tools/list', { task: { ttl: 5 } })).result?.tools).toHaveLength(5)
    // Whatever it holds is ignored: it is no field of ours to refuse.
    expect((await session.request(4, 'tools/call', { name: 'check_decision', arguments: { action: 'ls' }, task: 5 })).result?.isError).toBeFalsy()
    await session.close()
  })
})

describe('createMcpServer: null for an argument', () => {
  it('reads an argument given as null as one not given, and keeps a null inside one', async () => {
    const { backend, observed } = recordingBackend()
    const client = await connected(backend, 'alice')
    const answer = await client.callTool({
      name: 'record_choice',
      arguments: { ...CHOICE, user: null, project: null, session_id: null, header: null, context: { phase: 'run', ticket: null } },
    })
    expect(answer.isError).toBeFalsy()
    expect(observed).toHaveLength(1)
    expect(observed[0]).toMatchObject({ user: 'alice', context: { phase: 'run', ticket: null } })
    expect(observed[0]).not.toHaveProperty('project')
    // A required argument given as null is missing, and said so.
    const missing = await client.callTool({ name: 'record_choice', arguments: { ...CHOICE, user_choice: null } })
    expect(missing.isError).toBe(true)
    expect(JSON.stringify(missing.content)).toContain('user_choice')
    await client.close()
  })
  it('reads `"arguments": null` and a tools/list `"cursor": null` as none given, as `"params": null` is: a tool error names what is missing', async () => {
    const session = await rawSession()
    const text = (answer: { result?: Record<string, unknown> }) => (answer.result?.content as Array<{ text: string }>)[0]?.text ?? ''
    const why = await session.request(1, 'tools/call', { name: 'why', arguments: null })
    expect(why.error).toBeUndefined()
    expect(why.result?.isError).toBe(true)
    expect(text(why)).toContain('- question: required')
    const check = await session.request(2, 'tools/call', { name: 'check_decision', arguments: null })
    expect(text(check).split('\n').slice(1)).toEqual(['- action: give an action or a choice'])
    expect((await session.request(3, 'tools/list', { cursor: null })).result?.tools).toHaveLength(5)
    // Anything else there is still refused, named.
    expect((await session.request(4, 'tools/call', { name: 'why', arguments: 'x' })).error?.message).toContain('params.arguments')
    expect((await session.request(5, 'tools/list', { cursor: 5 })).error?.message).toContain('params.cursor')
    await session.close()
  })

  it('reads null for an optional field of a question or an option as not given, and names a required one given null', async () => {
    const { backend: recording, observed } = recordingBackend()
    const plans: unknown[] = []
    const recommended: unknown[] = []
    const backend: McpBackend = {
      ...recording,
      plan: async (request) => (plans.push(request), { ok: true, body: {} }),
      recommend: async (request) => (recommended.push(request), { ok: true, body: {} }),
    }
    const client = await connected(backend, undefined)
    const options = [{ label: 'pg', description: null }, { label: 'mysql', description: 'Older.' }]
    const question = { question: 'Which database?', header: 'DB', options, multiSelect: null, description: null }
    const planned = await client.callTool({ name: 'plan_questions', arguments: { questions: [question, { ...question, question: 'Which cache?', header: null }] } })
    expect(planned.isError, JSON.stringify(planned.content)).toBeFalsy()
    const kept = [{ label: 'pg' }, { label: 'mysql', description: 'Older.' }]
    expect(plans).toEqual([
      {
        user: 'default',
        questions: [
          { question: 'Which database?', header: 'DB', options: kept },
          { question: 'Which cache?', options: kept },
        ],
      },
    ])
    for (const name of ['recommend', 'why', 'record_choice']) {
      const all_options = ['sqlite', { label: 'pg', description: null }, { label: 'mysql', description: null }]
      const args = { ...(name === 'record_choice' ? CHOICE : WHY_Q), all_options, context: { ticket: null } }
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, `${name}: ${JSON.stringify(answer.content)}`).toBeFalsy()
    }
    for (const request of [...recommended, ...observed]) {
      expect(request).toMatchObject({ all_options: ['sqlite', { label: 'pg' }, { label: 'mysql' }], context: { ticket: null } })
      expect(JSON.stringify(request)).not.toContain('description')
    }
    expect(recommended).toHaveLength(2)
    expect(observed).toHaveLength(1)
    // A required field given null is refused, named, as before.
    const refused: Array<[string, string, Record<string, unknown>]> = [
      ['plan_questions', 'questions.0.question', { questions: [{ ...question, question: null }] }],
      ['plan_questions', 'questions.0.options', { questions: [{ ...question, options: null }] }],
      ['plan_questions', 'questions.0.options.1.label', { questions: [{ ...question, options: [{ label: 'pg' }, { label: null }] }] }],
      ['recommend', 'all_options.0.label', { ...WHY_Q, all_options: [{ label: null }, 'mysql'] }],
      ['record_choice', 'all_options.1.label', { ...CHOICE, all_options: ['pg', { label: null, description: null }] }],
    ]
    for (const [name, field, args] of refused) {
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, `${name} ${field}`).toBe(true)
      const lines = (answer.content as Array<{ text: string }>)[0]?.text.split('\n') ?? []
      expect(lines.some((line) => line.startsWith(`- ${field}: `)), `${name} ${field}: ${lines.join(' / ')}`).toBe(true)
    }
    expect(plans).toHaveLength(1)
    await client.close()
  })
})

describe('createMcpServer: a __proto__ argument', () => {
  it('is a tool error naming it an unknown field, as any other unknown argument is, not dropped with the call made without it', async () => {
    const { backend, observed } = recordingBackend()
    const session = await rawSession(backend)
    const text = (answer: { result?: Record<string, unknown> }) => (answer.result?.content as Array<{ text: string }>)[0]?.text ?? ''
    // As lines read off stdin: JSON.parse makes "__proto__" an own key, which zod drops.
    const calls = [
      '{"name":"record_choice","arguments":{"__proto__":{"user":"mallory"},"question":"Q?","all_options":["a","b"],"user_choice":"a"}}',
      '{"name":"check_decision","arguments":{"__proto__":{"action":"ls"}}}',
      '{"name":"recommend","arguments":{"__proto__":1,"question":"Q?","all_options":["a","b"]}}',
      '{"name":"why","arguments":{"__proto__":1,"question":"Q?","all_options":["a","b"]}}',
      '{"name":"plan_questions","arguments":{"__proto__":[],"questions":[{"question":"Q?","options":[{"label":"a"},{"label":"b"}]}]}}',
    ]
    let id = 1
    for (const call of calls) {
      const proto = await session.request(id++, 'tools/call', JSON.parse(call))
      const zz = await session.request(id++, 'tools/call', JSON.parse(call.replace('"__proto__"', '"zz"')))
      expect(proto.error, call).toBeUndefined()
      expect(proto.result?.isError, call).toBe(true)
      expect(text(proto), call).toContain('- __proto__: unknown field')
      expect(text(proto), call).toBe(text(zz).replaceAll('zz', '__proto__'))
    }
    // A key sent as the name the server carries __proto__ under is not taken for __proto__.
    const carrier = await session.request(id++, 'tools/call', { name: 'recommend', arguments: { '\u0000__proto__': 1, question: 'Q?', all_options: ['a', 'b'] } })
    expect(carrier.result?.isError).toBe(true)
    expect(text(carrier)).not.toContain('__proto__')
    expect(observed).toEqual([])
    expect(Object.getPrototypeOf({})).toBe(Object.prototype)
    await session.close()
  })
})

describe('createMcpServer: why', () => {
  /** A backend that recommends at point `db` and answers `GET /v1/why` as given. */
  function whyBackend(whyPoint: McpBackend['whyPoint']): McpBackend {
    return { ...recordingBackend().backend, recommend: async () => ({ ok: true, body: { point: 'db', recommended: 'pg' } }), whyPoint }
  }
  const WHY = { question: 'Which database?', all_options: ['pg', 'mysql'] }

  it('tells a file of another JSON type what it takes, as the routes tell their fields, not zod\'s "Invalid input"', async () => {
    const client = await connected(whyBackend(async () => ({ ok: true, body: {} })), undefined)
    for (const [file, type] of [[7, 'a number'], [{ path: 'a' }, 'an object'], [['a'], 'an array'], [true, 'a boolean']] as const) {
      const answer = await client.callTool({ name: 'why', arguments: { file } })
      expect(answer.isError).toBe(true)
      expect((answer.content as Array<{ text: string }>)[0]?.text).toBe(
        `invalid_request: invalid arguments: file\n- file: a file or folder (text), such as src/billing/invoice.ts, not ${type}`,
      )
    }
    await client.close()
  })

  it('gives point_why null at a point nothing is known of (no observation, no decision)', async () => {
    const client = await connected(whyBackend(async () => ({ ok: false, error: { code: 'point_not_found', message: 'nothing is known of point db' } })), undefined)
    const answer = await client.callTool({ name: 'why', arguments: WHY })
    expect(answer.isError).toBeFalsy()
    expect(JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? '')).toMatchObject({ point: 'db', recommended: 'pg', point_why: null })
    await client.close()
  })

  it('states the context and change tests behind the recommendation', async () => {
    const contextTest = { method: 'chi-squared …', key: 'phase', value: 'run', matching: 6, others: 6, p_value: 0.002, level: 0.05 }
    const backend: McpBackend = {
      ...whyBackend(async () => ({ ok: false, error: { code: 'point_not_found', message: 'nothing is known of point db' } })),
      recommend: async () => ({ ok: true, body: { point: 'db', recommended: 'pg', context_key: 'phase', context_test: contextTest, change_test: null } }),
    }
    const client = await connected(backend, undefined)
    const answer = JSON.parse(((await client.callTool({ name: 'why', arguments: WHY })).content as Array<{ text: string }>)[0]?.text ?? '')
    expect(answer).toMatchObject({ context_key: 'phase', context_test: contextTest, change_test: null })
    await client.close()
  })

  it('is a tool error naming the point and the cause when what is behind the point cannot be read, not a point_why of null', async () => {
    for (const error of [
      { code: 'http_500', message: 'the service answered 500' },
      { code: 'forbidden', message: 'this token may not act for alice' },
    ]) {
      const client = await connected(whyBackend(async () => ({ ok: false, error })), undefined)
      const answer = await client.callTool({ name: 'why', arguments: WHY })
      expect(answer.isError).toBe(true)
      const text = (answer.content as Array<{ text: string }>)[0]?.text
      expect(text).toBe(`${error.code}: what is behind point db could not be read: ${error.message}`)
      await client.close()
    }
  })

  it('says what each decision did to this recommendation, not only to the point\'s latest question in point_why', async () => {
    // Required D-060 fixes Postgres at db; the agent offers Mongo and MySQL: D-060 is not offered
    // here, while point_why, recomputed from the options the point knows, has it enforced.
    const effect = { key: 'D-060', enforce: 'required', effect: 'not-offered', detail: 'must Postgres: not offered' }
    const backend: McpBackend = {
      ...recordingBackend().backend,
      recommend: async () => ({
        ok: true,
        body: { point: 'db', recommended: 'Mongo', state: 'static-default', decisions: [effect], learned: { state: 'static-default', recommended: 'Mongo', confidence: 0.5 } },
      }),
      whyPoint: async () => ({ ok: true, body: { point: 'db', recommendation: { state: 'enforced', recommended: 'Postgres' }, decisions: [{ key: 'D-060', effect: 'enforced' }] } }),
    }
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'why', arguments: { question: 'Which database?', all_options: ['Mongo', 'MySQL'], point: 'db' } })
    const body = JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? '')
    expect(body).toMatchObject({ recommended: 'Mongo', decisions: [effect], learned: { recommended: 'Mongo' }, point_why: { decisions: [{ effect: 'enforced' }] } })
    // No decision bound to the point: an empty list, not a missing field.
    const plain = await connected(whyBackend(async () => ({ ok: true, body: {} })), undefined)
    const none = JSON.parse(((await plain.callTool({ name: 'why', arguments: WHY })).content as Array<{ text: string }>)[0]?.text ?? '')
    expect(none.decisions).toEqual([])
    expect(none).not.toHaveProperty('learned')
    await client.close()
    await plain.close()
  })

  it('asks why of the point in the recommendation\'s run: its task, path and stage (R-CON-4), as of its as_of', async () => {
    const asked: unknown[] = []
    const backend: McpBackend = {
      ...recordingBackend().backend,
      recommend: async () => ({ ok: true, body: { point: 'complexity-tier' } }),
      whyPoint: async (query) => {
        asked.push(query)
        return { ok: true, body: {} }
      },
    }
    const client = await connected(backend, 'alice')
    const context = { path: 'services/billing/x.ts', stage: 'plan', phase: 'run' }
    await client.callTool({ name: 'why', arguments: { question: 'Which tier?', all_options: ['S', 'L'], context, session_id: 's-1', as_of: '2026-07-01T10:00:00Z' } })
    expect(asked).toEqual([
      { user: 'alice', project: undefined, session_id: 's-1', point: 'complexity-tier', as_of: '2026-07-01T10:00:00Z', task: undefined, path: 'services/billing/x.ts', stage: 'plan' },
    ])
    await client.close()
  })
})

describe('createMcpServer: why of a decision or of a point alone', () => {
  /** A backend that records which why was asked, and with what. */
  function askedBackend() {
    const asked: Array<[string, unknown]> = []
    const backend: McpBackend = {
      ...recordingBackend().backend,
      recommend: async (request) => (asked.push(['recommend', request]), { ok: true, body: { point: 'db' } }),
      // As the routes answer: the moment asked for, as_of, said in the answer when one was given.
      whyPoint: async (query) => (asked.push(['whyPoint', query]), { ok: true, body: { point: query.point, decisions: [], ...(query.as_of === undefined ? {} : { as_of: query.as_of }) } }),
      whyDecision: async (key, query) => (asked.push(['whyDecision', { key, ...query }]), { ok: true, body: { key, as_of: query.as_of, chain: [] } }),
    }
    return { backend, asked }
  }
  const text = (answer: Awaited<ReturnType<Client['callTool']>>) => (answer.content as Array<{ text: string }>)[0]?.text ?? ''

  it('says in the schema that a key, a point alone or a question is asked of: question and all_options not required', async () => {
    const client = await connected(askedBackend().backend, undefined)
    const why = (await client.listTools()).tools.find((t) => t.name === 'why')
    expect(why?.inputSchema.required ?? []).not.toContain('question')
    expect(why?.inputSchema.required ?? []).not.toContain('all_options')
    expect(why?.inputSchema.properties?.key).toMatchObject({ type: 'string', maxLength: expect.any(Number) })
    expect(why?.description).toContain('`key`')
    await client.close()
  })

  it('answers a decision\'s why by its key, as of as_of, asking nothing of a recommendation', async () => {
    const { backend, asked } = askedBackend()
    const client = await connected(backend, 'alice')
    const answer = await client.callTool({ name: 'why', arguments: { key: 'ADR-0005', as_of: '2026-07-01T10:00:00Z' } })
    expect(answer.isError).toBeFalsy()
    // The route's answer as it is, with the moment it describes (as_of), for the agent to check.
    expect(JSON.parse(text(answer))).toEqual({ key: 'ADR-0005', as_of: '2026-07-01T10:00:00Z', chain: [] })
    expect(asked).toEqual([['whyDecision', { key: 'ADR-0005', as_of: '2026-07-01T10:00:00Z' }]])
    await client.close()
  })

  it('is a tool error when an answer asked as of a moment does not say that moment, as why --as-of refuses it: an older service answers as of now', async () => {
    const then = '2026-07-01T10:00:00Z'
    // What a service of an older version sends whatever as_of asks: today's chain, no as_of.
    const older: McpBackend = {
      ...askedBackend().backend,
      whyDecision: async (key) => ({ ok: true, body: { key, chain: [] } }),
      whyPoint: async (query) => ({ ok: true, body: { point: query.point, decisions: [] } }),
    }
    const client = await connected(older, undefined)
    for (const [args, what] of [
      [{ key: 'D-001', as_of: then }, 'D-001'],
      [{ point: 'db', as_of: then }, 'point db'],
      [{ ...WHY_Q, as_of: then }, 'point db'],
    ] as const) {
      const answer = await client.callTool({ name: 'why', arguments: args })
      expect(answer.isError, JSON.stringify(args)).toBe(true)
      expect(text(answer)).toMatch(new RegExp(`^as_of_not_answered: .*the service does not answer ${what} as of a moment .*older version.*Nothing answered as of ${then}`))
    }
    // Without as_of nothing is claimed of a moment: the answer passes as it is.
    expect((await client.callTool({ name: 'why', arguments: { key: 'D-001' } })).isError).toBeFalsy()
    expect((await client.callTool({ name: 'why', arguments: WHY_Q })).isError).toBeFalsy()
    // One that names another moment than the one asked is refused too; the same moment written
    // another way is that moment.
    const other = await connected({ ...older, whyDecision: async (key) => ({ ok: true, body: { key, as_of: '2026-12-01T00:00:00.000Z' } }) }, undefined)
    expect(text(await other.callTool({ name: 'why', arguments: { key: 'D-001', as_of: then } }))).toContain(`as of 2026-12-01T00:00:00.000Z, not as of ${then}`)
    const same = await connected({ ...older, whyDecision: async (key) => ({ ok: true, body: { key, as_of: '2026-07-01T12:00:00+02:00' } }) }, undefined)
    expect((await same.callTool({ name: 'why', arguments: { key: 'D-001', as_of: then } })).isError).toBeFalsy()
    await Promise.all([client.close(), other.close(), same.close()])
  })

  it('refuses a key given with a question, a point or a session, naming each, and asks nothing', async () => {
    const { backend, asked } = askedBackend()
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'why', arguments: { key: 'D-001', ...WHY_Q, point: 'db', session_id: 's-1' } })
    expect(answer.isError).toBe(true)
    const lines = text(answer).split('\n')
    expect(lines[0]).toMatch(/^invalid_request: why with key .*drop /)
    const named = ['all_options', 'point', 'question', 'session_id']
    expect(lines[0]?.split('drop ')[1]?.split(', ').sort()).toEqual(named)
    expect(lines.slice(1).map((line) => line.split(':')[0]).sort()).toEqual(named.map((field) => `- ${field}`))
    expect(asked).toEqual([])
    await client.close()
  })

  it('answers a point alone with what GET /v1/why says of it, in the run its context describes', async () => {
    const { backend, asked } = askedBackend()
    const client = await connected(backend, 'alice')
    const context = { task: 'billing', stage: 'plan' }
    const answer = await client.callTool({ name: 'why', arguments: { point: 'complexity-tier', session_id: 's-1', context } })
    expect(JSON.parse(text(answer))).toEqual({ point: 'complexity-tier', decisions: [] })
    expect(asked).toEqual([
      ['whyPoint', { user: 'alice', project: undefined, session_id: 's-1', point: 'complexity-tier', as_of: undefined, task: 'billing', path: undefined, stage: 'plan' }],
    ])
    await client.close()
  })

  it('is a tool error at a point alone nothing is known of: no recommendation to stand in for it', async () => {
    const backend: McpBackend = {
      ...askedBackend().backend,
      whyPoint: async () => ({ ok: false, error: { code: 'point_not_found', message: 'nothing is known of point db' } }),
    }
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'why', arguments: { point: 'db' } })
    expect(answer.isError).toBe(true)
    expect(text(answer)).toBe('point_not_found: nothing is known of point db')
    await client.close()
  })

  it('says, at a point alone the policy names with nothing held there, what a recommendation there gives, as the route does', async () => {
    const app = await createTestApp()
    const backend = mcpBackend(async (path, body, _local, method = 'POST') => {
      const answer = await app.call(method, path, body)
      return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
    })
    const client = await connected(backend, 'alice', app.clock)
    const answer = await client.callTool({ name: 'why', arguments: { point: 'development-methodology' } })
    expect(answer.isError).toBe(true)
    expect(text(answer)).toBe(
      'point_not_found: nothing is known of point development-methodology for user alice: no observation and no decision is held there, ' +
        'so a recommendation asked there gives the policy\'s static default, TDD: "Recommended when the change has behaviour that tests can pin down ' +
        '— based on static default, 5 observations needed for personalization"\n' +
        '- point: no observation and no decision at this point; the question and its options, asked of POST /v1/recommendations (or the MCP tool recommend, or why), give the recommendation there',
    )
    // With the question, the recommendation it names: what `why` explains, point_why null beside it.
    const asked = await client.callTool({ name: 'why', arguments: { point: 'development-methodology', question: 'TDD or DDD?', all_options: ['DDD', 'TDD'] } })
    const body = JSON.parse(text(asked))
    expect([asked.isError ?? false, body.recommended, body.precondition, body.point_why]).toEqual([false, 'TDD', 'the change has behaviour that tests can pin down', null])
    await client.close()
  })

  it('refuses what describes a question at a point alone, and half a question, naming the field', async () => {
    const { backend, asked } = askedBackend()
    const client = await connected(backend, undefined)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ point: 'db', static_default: 'pg' }, 'static_default'],
      [{ point: 'db', header: 'DB', multiSelect: true }, 'header'],
      [{ question: 'Which database?' }, 'all_options'],
      [{ all_options: ['pg', 'mysql'], point: 'db' }, 'question'],
      [{}, 'question'],
      [{ session_id: 's-1' }, 'question'],
    ]
    for (const [args, field] of cases) {
      const answer = await client.callTool({ name: 'why', arguments: args })
      expect(answer.isError, JSON.stringify(args)).toBe(true)
      expect(text(answer).split('\n').slice(1).some((line) => line.startsWith(`- ${field}: `)), `${JSON.stringify(args)}: ${text(answer)}`).toBe(true)
    }
    expect(asked).toEqual([])
    await client.close()
  })

  it('still answers a question as recommend takes it, with the point\'s why beside it', async () => {
    const { backend, asked } = askedBackend()
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'why', arguments: { ...WHY_Q, point: 'db' } })
    expect(JSON.parse(text(answer))).toMatchObject({ point: 'db', point_why: { point: 'db', decisions: [] } })
    expect(asked.map(([name]) => name)).toEqual(['recommend', 'whyPoint'])
    // As of now, by the clock: an explanation reads what a recommendation would, and starts no
    // session nor counts a pulse, as a replay does not.
    expect(asked[0]?.[1]).toEqual({ user: 'default', ...WHY_Q, point: 'db', as_of: NOW })
    expect(asked[1]?.[1]).toMatchObject({ point: 'db', as_of: NOW })
    asked.length = 0
    await client.callTool({ name: 'why', arguments: { ...WHY_Q, as_of: '2026-06-01T00:00:00Z' } })
    expect(asked.map(([, request]) => (request as { as_of?: string }).as_of)).toEqual(['2026-06-01T00:00:00Z', '2026-06-01T00:00:00Z'])
    await client.close()
  })

  it('says the server\'s clock is ahead of the service\'s when the moment it reads as of is refused as future', async () => {
    const backend: McpBackend = {
      ...askedBackend().backend,
      recommend: async () => ({ ok: false, error: { code: 'timestamp_in_future', message: `as_of ${NOW} is in the future`, issues: [{ path: 'as_of', message: 'must not be more than 5 minutes ahead of the service clock' }] } }),
    }
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'why', arguments: WHY_Q })
    expect(answer.isError).toBe(true)
    expect(text(answer).split('\n')[0]).toBe(`timestamp_in_future: this MCP server's clock (${NOW}) is more than 5 minutes ahead of the service's: set it right, or give as_of`)
    await client.close()
  })

  it('refuses a context key other than the run\'s at a point alone, which would explain another recommendation', async () => {
    const { backend, asked } = askedBackend()
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'why', arguments: { point: 'deploy', context: { phase: 'run', path: 'services/x' } } })
    expect(answer.isError).toBe(true)
    expect(text(answer).split('\n').slice(1)).toEqual(['- context.phase: at a point alone the context gives only `task`, `path` and `stage`'])
    expect(asked).toEqual([])
    await client.close()
  })
})

describe('createMcpServer: tool results', () => {
  it('are the body as compact JSON, with no indentation: the text stays in the agent\'s context every turn', async () => {
    const body = { point: 'db', options: [{ option: 'pg', share: 0.8 }], layers: { recent: { counts: [{ option: 'pg', count: 4 }] } } }
    const answer = async () => ({ ok: true as const, body })
    const backend: McpBackend = { recommend: answer, plan: answer, observe: answer, whyPoint: answer, whyDecision: answer, check: answer, listDecisions: answer }
    const client = await connected(backend, undefined)
    const calls: Array<[string, Record<string, unknown>]> = [
      ['recommend', WHY_Q],
      ['plan_questions', { questions: [{ question: 'Which database?', options: [{ label: 'pg' }, { label: 'mysql' }] }] }],
      ['record_choice', CHOICE],
      ['why', { point: 'db' }],
      ['why', { key: 'D-001' }],
      ['check_decision', { action: 'ls' }],
    ]
    for (const [name, args] of calls) {
      const text = ((await client.callTool({ name, arguments: args })).content as Array<{ text: string }>)[0]?.text
      expect(text, name).toBe(JSON.stringify(body))
    }
    await client.close()
  })
})

describe('createMcpServer: arguments over the service\'s body limit', () => {
  it('are refused as the route refuses that body (413 body_too_large), on a store opened by the server as through the service', async () => {
    // 50 options with 2,000-emoji descriptions: within every field's limit, some 500 KB of UTF-8.
    const all_options = Array.from({ length: 50 }, (_, i) => ({ label: `option ${i}`, description: '😀'.repeat(2000) }))
    const big = { question: 'Which one?', all_options }
    const t = await createTestApp()
    expect((await t.call('POST', '/v1/observations', { ...big, user_choice: 'option 1' })).body.error.code).toBe('body_too_large')
    const { backend, observed } = recordingBackend()
    const asked = checkRecording()
    const client = await connected({ ...backend, recommend: async () => ({ ok: true, body: { point: 'x' } }), check: asked.backend.check }, undefined)
    const calls: Array<[string, Record<string, unknown>]> = [
      ['record_choice', { ...big, user_choice: 'option 1' }],
      ['recommend', big],
      ['why', big],
      ['check_decision', { choice: 'option 1', point: 'x', all_options }],
      ['plan_questions', { questions: [{ question: 'Which one?', options: all_options.slice(0, 4) }], context: { note: '😀'.repeat(500) }, metadata: { pad: '😀'.repeat(70_000) } }],
    ]
    for (const [name, args] of calls) {
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, name).toBe(true)
      expect((answer.content as Array<{ text: string }>)[0]?.text, name).toBe('body_too_large: the arguments are over 256 KB, the most the service takes in a body')
    }
    expect(observed).toEqual([])
    expect(asked.asked).toEqual([])
    // Under the limit, the same call goes on.
    expect((await client.callTool({ name: 'record_choice', arguments: { ...big, all_options: all_options.slice(0, 20), user_choice: 'option 1' } })).isError).toBeFalsy()
    expect(observed).toHaveLength(1)
    await client.close()
  })
})

describe('createMcpServer: arguments nested thousands deep', () => {
  it('are a tool error naming the field, as the route\'s 400 names it, not "Maximum call stack size exceeded"', async () => {
    // What JSON.parse takes (a line of 200 KB) but JSON.stringify, being recursive, cannot write back.
    let deep: unknown = []
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const { backend, observed } = recordingBackend()
    const planned: unknown[] = []
    const session = await rawSession({ ...backend, plan: async (request) => (planned.push(request), { ok: true, body: {} }) })
    const text = (answer: { result?: Record<string, unknown> }) => (answer.result?.content as Array<{ text: string }>)[0]?.text ?? ''
    const context = await session.request(1, 'tools/call', { name: 'record_choice', arguments: { ...CHOICE, context: { k: deep } } })
    expect(context.result?.isError).toBe(true)
    expect(text(context)).toContain('- context.k: ')
    const unknown = await session.request(2, 'tools/call', { name: 'recommend', arguments: { question: 'Q?', all_options: ['a', 'b'], zz: deep } })
    expect(text(unknown).split('\n').slice(1)).toEqual(['- zz: unknown field'])
    for (const answer of [context, unknown]) expect(text(answer)).not.toContain('call stack')
    expect(observed).toEqual([])
    // plan_questions' fields that take any value are taken at any depth and ignored, as POST /v1/plan
    // takes them, and a question nesting past the bound is named as the route names it.
    const question = { question: 'Which database?', options: [{ label: 'pg' }, { label: 'mysql' }] }
    const metadata = await session.request(3, 'tools/call', { name: 'plan_questions', arguments: { questions: [question], metadata: deep } })
    expect(metadata.result?.isError, text(metadata)).toBeFalsy()
    expect(planned).toHaveLength(1)
    const both = await session.request(5, 'tools/call', { name: 'plan_questions', arguments: { questions: [], annotations: deep } })
    expect(text(both).split('\n').slice(1).map((line) => line.split(':')[0])).toEqual(['- questions'])
    const inQuestion = await session.request(6, 'tools/call', { name: 'plan_questions', arguments: { questions: [{ ...question, extra: deep }] } })
    expect(text(inQuestion).split('\n')).toEqual(['invalid_request: invalid arguments: questions.0', '- questions.0: must not nest arrays and objects more than 64 levels deep'])
    expect(planned).toHaveLength(1)
    await session.close()
  })
})

describe('createMcpServer: plan_questions', () => {
  it('tells the agent to record an answer it gives from the plan as auto-resolved, not as the user\'s choice (R-ASK-4)', async () => {
    // The plan records nothing; recorded with record_choice's default source, an answer the
    // memory gave would count as the user's own choice and confirm itself.
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const plan = tools.find((t) => t.name === 'plan_questions')
    expect(plan?.description).toContain('record_choice')
    expect(plan?.description).toContain('source: "auto-resolved"')
    await client.close()
  })
})

describe('createMcpServer: why of a point with a long history (R-CON-5)', () => {
  /** The case built in a test app, and a client of the server over it, through the routes as with a service running. */
  async function overCase(shape: (typeof BIG_WHY_CASES)[number], commandFlags?: string[]) {
    const app = await createTestApp({ now: '2026-12-01T10:00:00.000Z' })
    const { point, question } = await bigWhyCase(app, shape)
    const backend = mcpBackend(async (path, body, _local, method = 'POST') => {
      const answer = await app.call(method, path, body)
      return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
    })
    const server = createMcpServer(backend, { version: '0.0.0', defaultUser: 'alice', clock: app.clock, defaultProject: 'p1', ...(commandFlags === undefined ? {} : { commandFlags }) })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientSide)
    const text = async (args: Record<string, unknown>) => {
      const answer = await client.callTool({ name: 'why', arguments: args })
      const said = (answer.content as Array<{ text: string }>)[0]?.text ?? ''
      expect(answer.isError, said).toBeFalsy()
      return said
    }
    return { app, client, point, question, text }
  }

  // Claude Code warns above 10,000 tokens of a tool's output (some 40,000 characters at 4 a token)
  // and cuts it above MAX_MCP_OUTPUT_TOKENS, 25,000 by default: the chain of each of ten versions
  // made the answer of a point some 250,000 characters.
  it('answers a decision superseded through 10 versions, 3 evidence each, in under 16,000 characters, with a point or a question', async () => {
    const { client, point, question, text } = await overCase(BIG_WHY_CASES[0] as (typeof BIG_WHY_CASES)[number])
    const alone = await text({ point })
    expect(alone.length).toBeLessThan(16_000)
    expect(JSON.parse(alone).chains).toEqual([expect.objectContaining({ current: 'Q-010', in_force: 'Q-010' })])
    const asked = await text({ question: question.question, point, all_options: question.all_options })
    expect(asked.length).toBeLessThan(16_000)
    expect(JSON.parse(asked).point_why.decisions).toHaveLength(10)
    await client.close()
  })

  it.each(BIG_WHY_CASES.map((c) => [c.name, c] as const))('stays under the 10,000 tokens Claude Code warns at, each decision it names there once: %s', async (_name, shape) => {
    const { app, client, point, question, text } = await overCase(shape)
    const export_ = (await app.call('GET', '/v1/users/alice/export')).body as string
    const held = new Set(export_.split('\n').flatMap((l) => (l.startsWith('{"type":"observation"') ? [JSON.parse(l).data.id as string] : [])))
    for (const args of [{ point }, { question: question.question, point, all_options: question.all_options }]) {
      const said = await text(args)
      expect(said.length).toBeLessThan(40_000)
      const why = JSON.parse(said)
      const behind = 'point_why' in why ? why.point_why : why
      const given = behind.decisions.map((d: { key: string }) => d.key)
      expect(new Set(given).size).toBe(given.length)
      for (const chain of behind.chains) for (const key of chain.keys) expect(given).toContain(key)
      for (const key of given) expect((await app.call('GET', `/v1/decisions/${key}`)).status).toBe(200)
      expect(behind.observations.length).toBeGreaterThan(0)
      for (const o of behind.observations) expect(held.has(o.id), o.id).toBe(true)
    }
    await client.close()
  })

  it('answers a decision of a chain of 30 versions by key in under 20,000 characters, the one asked and the one in force whole', async () => {
    const { client, text } = await overCase(BIG_WHY_CASES[3] as (typeof BIG_WHY_CASES)[number])
    const said = await text({ key: 'Q-001' })
    expect(said.length).toBeLessThan(20_000)
    const why = JSON.parse(said)
    expect(why).toMatchObject({ key: 'Q-001', current: 'Q-030', in_force: 'Q-030' })
    expect(why.chain).toHaveLength(30)
    expect(why.chain[0]).toHaveProperty('rationale')
    expect(why.chain[29]).toHaveProperty('evidence')
    expect(why.chain[1]).toMatchObject({ key: 'Q-002', evidence_count: 3 })
    expect(why.left_out).toContain(commandLine(['why', 'Q-001', '--as-of', why.as_of, '--json']))
    await client.close()
  })

  it('names the command that gives the whole answer with the store and policy the server was started with', async () => {
    const { client, point, text } = await overCase(BIG_WHY_CASES[0] as (typeof BIG_WHY_CASES)[number], ['--data', '/srv/dm data', '--policy', '/etc/dm.yaml'])
    const { left_out, as_of } = JSON.parse(await text({ point }))
    expect(left_out).toContain(commandLine(['why', '--point', point, '--user', 'alice', '--project', 'p1', '--as-of', as_of, '--json', '--data', '/srv/dm data', '--policy', '/etc/dm.yaml']))
    await client.close()
  })
})

describe('createMcpServer: plan_questions with questions asking for text or a number', () => {
  const NAME = { question: 'What should the service be called?', header: 'Name', kind: 'text' }
  const DB = { question: 'Which database?', header: 'DB', options: [{ label: 'pg', description: '' }, { label: 'mysql', description: '' }] }

  it('plans the choice questions beside them, which come back as written, in their places, asked', async () => {
    const { call } = await createTestApp()
    const backend: McpBackend = {
      ...recordingBackend().backend,
      plan: async (request) => {
        const answer = await call('POST', '/v1/plan', request)
        return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
      },
    }
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const validator = new AjvJsonSchemaValidator()
    const args = { questions: [NAME, DB, { question: 'Which port?', kind: 'number', options: null }] }
    expect(validator.getValidator(tools.find((t) => t.name === 'plan_questions')?.inputSchema as never)(args)).toMatchObject({ valid: true })
    const answer = await client.callTool({ name: 'plan_questions', arguments: args })
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy()
    const plan = JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? 'null')
    expect(plan.questions.map((q: { ask: boolean; recommendation: unknown }) => [q.ask, q.recommendation === null])).toEqual([
      [true, true],
      [true, false],
      [true, true],
    ])
    expect(plan.questions[0]).toMatchObject({ ask_user_question: NAME, kind: 'text', answer: null })
    // A null `options` beside a kind that takes none is read as not given, as a null optional field is.
    expect(plan.ask_user_question_input.questions).toEqual([NAME, expect.objectContaining({ question: DB.question }), { question: 'Which port?', kind: 'number' }])
    await client.close()
  })
})

describe('createMcpServer: plan_questions, then AskUserQuestion with the hook installed', () => {
  const QUEUE = 'Which queue backend?'
  const queue = { question: QUEUE, header: 'Queue', multiSelect: false, options: ['Redis', 'SQS', 'Kafka'].map((label) => ({ label, description: `${label} queues` })) }

  it('records the answer to a question the plan took options out of at the point it was planned at', async () => {
    const { call, memory, store } = await createTestApp()
    // As the server plans on a store it opens itself, no service running.
    const backend: McpBackend = { ...recordingBackend().backend, plan: async (request) => ({ ok: true, body: await planQuestionsToAsk(memory, request) }) }
    const point = (await call('POST', '/v1/plan', { questions: [queue] })).body.questions[0].recommendation.point
    const noKafka = { ...REQUIRED_TIER_L, key: 'D-083', title: 'Queues', scope: { points: [point] }, constraints: [{ kind: 'must_not', option: 'Kafka' }] }
    expect((await call('POST', '/v1/decisions', noKafka)).status).toBe(201)
    const client = await connected(backend, undefined)
    const answer = await client.callTool({ name: 'plan_questions', arguments: { questions: [queue] } })
    const shown = JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? 'null').ask_user_question_input.questions
    expect(shown[0].options).toHaveLength(2)
    await client.close()
    // The agent passes the plan's input to AskUserQuestion: the hook sees the options left, and the user picks SQS.
    const pre = { ...claudeCodeFixture('pre-tool-use'), tool_use_id: 'toolu_mcp_plan', tool_input: { questions: shown } }
    expect((await call('POST', '/v1/hooks/claude-code', pre)).status).toBe(200)
    const input = { questions: shown, answers: { [QUEUE]: 'SQS' }, annotations: {} }
    const post = { ...claudeCodeFixture('post-tool-use-single'), tool_use_id: 'toolu_mcp_plan', tool_input: input, tool_response: input }
    expect((await call('POST', '/v1/hooks/claude-code', post)).status).toBe(200)
    const stored = []
    for await (const o of store.observationsOf('default')) stored.push(o)
    expect(stored.map((o) => [o.point, o.chosen])).toEqual([[point, ['SQS']]])
  })
})

describe('createMcpServer: record_choice', () => {
  it('tells the agent that the hooks record AskUserQuestion answers already: recorded again under its own decision_id, one counts twice', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const record = tools.find((t) => t.name === 'record_choice')
    expect(record?.description).toContain('PostToolUse')
    expect(record?.description).toContain('AskUserQuestion')
    await client.close()
  })
})

describe('createMcpServer: check_decision', () => {
  /** A service run with --auth, called with a token for alice alone: another user named is refused, none is checked. */
  function aliceOnly() {
    const asked: unknown[] = []
    const backend: McpBackend = {
      ...recordingBackend().backend,
      check: async (request) => {
        asked.push(request)
        if (request.user !== undefined && request.user !== 'alice') return { ok: false, error: { code: 'forbidden', message: `token "alice-laptop" may not act for user "${request.user}"`, issues: [{ path: 'user', message: 'not a user this token may act for' }] } }
        return { ok: true, body: { allowed: true, blocked_by: [], warnings: [], checked: 0 } }
      },
    }
    return { backend, asked }
  }

  it("sends no user the check does not read, and without $DECISION_MEMORY_USER falls back to none where the token may not act for default, as it checked before it took one", async () => {
    const { backend, asked } = aliceOnly()
    const client = await connected(backend, undefined)
    // A command reads no user: checked as before, whatever the token.
    expect((await client.callTool({ name: 'check_decision', arguments: { action: 'git push --force' } })).isError).toBeFalsy()
    expect(asked).toEqual([{ action: 'git push --force' }])
    // One label at a point: default's history asked for, refused for the token, so the decisions alone.
    asked.length = 0
    const choice = await client.callTool({ name: 'check_decision', arguments: { choice: 'Lint, E2E tests', point: 'checks' } })
    expect(choice.isError, JSON.stringify(choice.content)).toBeFalsy()
    expect(asked).toEqual([{ choice: 'Lint, E2E tests', point: 'checks', user: 'default' }, { choice: 'Lint, E2E tests', point: 'checks' }])
    // A user the call names is the caller's to be refused: no fallback.
    asked.length = 0
    const named = await client.callTool({ name: 'check_decision', arguments: { choice: 'Lint', point: 'checks', user: 'bob' } })
    expect(named.isError).toBe(true)
    expect((named.content as Array<{ text: string }>)[0]?.text).toContain('may not act for user "bob"')
    expect(asked).toEqual([{ choice: 'Lint', point: 'checks', user: 'bob' }])
    await client.close()
    // The server's $DECISION_MEMORY_USER is sent as the other tools send it, and refused as theirs is.
    const server = aliceOnly()
    const withUser = await connected(server.backend, 'alice')
    expect((await withUser.callTool({ name: 'check_decision', arguments: { choice: 'Lint', point: 'checks' } })).isError).toBeFalsy()
    expect(server.asked).toEqual([{ choice: 'Lint', point: 'checks', user: 'alice' }])
    await withUser.close()
  })

  it('asks a service that reads no user on a check (a version before it took one) by the decisions alone, rather than failing every such check', async () => {
    for (const defaultUser of [undefined, 'alice']) {
      const asked: unknown[] = []
      const backend: McpBackend = {
        ...recordingBackend().backend,
        check: async (request) => {
          asked.push(request)
          if (request.user !== undefined) return { ok: false, error: { code: 'invalid_request', message: 'invalid request: user', issues: [{ path: 'user', message: 'unknown field' }] } }
          return { ok: true, body: { allowed: true, blocked_by: [], warnings: [], checked: 0 } }
        },
      }
      const client = await connected(backend, defaultUser)
      const answer = await client.callTool({ name: 'check_decision', arguments: { choice: 'Lint, E2E tests', point: 'checks' } })
      expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy()
      const user = defaultUser ?? 'default'
      expect(asked).toEqual([{ choice: 'Lint, E2E tests', point: 'checks', user }, { choice: 'Lint, E2E tests', point: 'checks' }])
      await client.close()
    }
  })

  it('says where the point of a choice comes from: the one a recommendation or a plan gave for the question', async () => {
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const point = tools.find((t) => t.name === 'check_decision')?.inputSchema.properties?.point as { description?: string }
    expect(point.description).toContain('the `point` a recommendation or a plan gave')
    await client.close()
  })

  it('takes as_of, as POST /v1/decisions/check does, and passes it on: an audit of a check made then (R-REC-9)', async () => {
    const { backend, asked } = checkRecording()
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const check = tools.find((t) => t.name === 'check_decision')
    expect(check?.inputSchema.properties?.as_of).toMatchObject({ type: 'string', format: 'date-time' })
    expect(check?.description).toContain('as_of')
    await client.callTool({ name: 'check_decision', arguments: { action: 'git push --force', as_of: '2026-07-01T10:00:00Z' } })
    expect(asked).toEqual([{ action: 'git push --force', as_of: '2026-07-01T10:00:00Z' }])
    const garbled = await client.callTool({ name: 'check_decision', arguments: { action: 'ls', as_of: 'last tuesday' } })
    expect(garbled.isError).toBe(true)
    expect(JSON.stringify(garbled.content)).toContain('as_of')
    expect(asked).toHaveLength(1)
    await client.close()
  })

  it('takes multi_select with a choice and passes it on; without one it is refused naming it, nothing asked', async () => {
    const { backend, asked } = checkRecording()
    const client = await connected(backend, undefined)
    await client.callTool({ name: 'check_decision', arguments: { choice: ['pg', 'mysql'], point: 'db', multi_select: true } })
    expect(asked).toEqual([{ choice: ['pg', 'mysql'], point: 'db', multi_select: true }])
    const alone = await client.callTool({ name: 'check_decision', arguments: { action: 'ls', multi_select: false } })
    expect(alone.isError).toBe(true)
    expect((alone.content as Array<{ text: string }>)[0]?.text).toContain('- multi_select: ')
    expect(asked).toHaveLength(1)
    await client.close()
  })

  it('takes multiSelect as recommend takes it, described alike, and passes it on; without a choice it is refused naming it', async () => {
    const { backend, asked } = checkRecording()
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const check = tools.find((t) => t.name === 'check_decision')
    const recommend = tools.find((t) => t.name === 'recommend')
    expect(check?.inputSchema.properties?.multiSelect).toEqual(recommend?.inputSchema.properties?.multiSelect)
    await client.callTool({ name: 'check_decision', arguments: { choice: ['pg', 'mysql'], point: 'db', multiSelect: true } })
    expect(asked).toEqual([{ choice: ['pg', 'mysql'], point: 'db', multiSelect: true }])
    const alone = await client.callTool({ name: 'check_decision', arguments: { action: 'ls', multiSelect: false } })
    expect(alone.isError).toBe(true)
    expect((alone.content as Array<{ text: string }>)[0]?.text).toContain('- multiSelect: ')
    expect(asked).toHaveLength(1)
    await client.close()
  })

  it('takes the options a choice was offered among, as recommend takes them, and passes them on as given', async () => {
    const { backend, asked } = checkRecording()
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const check = tools.find((t) => t.name === 'check_decision')
    const recommend = tools.find((t) => t.name === 'recommend')
    expect(check?.inputSchema.properties?.all_options).toMatchObject({ type: 'array', items: (recommend?.inputSchema.properties?.all_options as { items: unknown }).items })
    expect(check?.description).toContain('all_options')
    const options = ['Claude Opus 4.1', { label: 'Claude Sonnet 4.5', description: 'balanced' }]
    await client.callTool({ name: 'check_decision', arguments: { choice: 'Claude Sonnet 4.5', point: 'model-selection', all_options: options } })
    expect(asked).toEqual([{ choice: 'Claude Sonnet 4.5', point: 'model-selection', all_options: options, user: 'default' }])
    const alone = await client.callTool({ name: 'check_decision', arguments: { action: 'ls', all_options: options } })
    expect(alone.isError).toBe(true)
    expect(JSON.stringify(alone.content)).toContain('- all_options: the options offered are read with a choice')
    expect(asked).toHaveLength(1)
    await client.close()
  })

  it('checks a choice with no point as the route does: read at every point of the decisions, all_options refused without one (R-CON-3)', async () => {
    const { call } = await createTestApp()
    const noKafka = { ...REQUIRED_TIER_L, key: 'D-083', title: 'Queues', scope: { points: ['queue-backend'] }, constraints: [{ kind: 'must_not', option: 'Kafka' }] }
    expect((await call('POST', '/v1/decisions', noKafka)).status).toBe(201)
    const backend: McpBackend = {
      ...recordingBackend().backend,
      check: async (request) => {
        const answer = await call('POST', '/v1/decisions/check', request)
        return answer.status < 400 ? { ok: true, body: answer.body } : { ok: false, error: answer.body.error }
      },
    }
    const client = await connected(backend, undefined)
    const { tools } = await client.listTools()
    const check = tools.find((t) => t.name === 'check_decision')
    expect(new AjvJsonSchemaValidator().getValidator(check?.inputSchema as never)({ choice: 'Kafka' })).toMatchObject({ valid: true })
    const answer = await client.callTool({ name: 'check_decision', arguments: { choice: 'Kafka' } })
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy()
    const verdict = JSON.parse((answer.content as Array<{ text: string }>)[0]?.text ?? 'null')
    expect(verdict).toMatchObject({ allowed: false, blocked_by: [{ key: 'D-083', message: 'at queue-backend "Kafka" must not be chosen' }], checked: ['D-083'] })
    const offered = await client.callTool({ name: 'check_decision', arguments: { choice: 'Kafka', all_options: ['Kafka', 'SQS'] } })
    expect(offered.isError).toBe(true)
    expect(JSON.stringify(offered.content)).toContain('- point: the options offered are read at the point their question was asked')
    await client.close()
  })

  it('tells the agent to give path relative to the repository root: an absolute cwd matches no decision scoped by a relative path', async () => {
    // Decisions are scoped as `services/payments`; an agent that sends its absolute working
    // directory, as it knows it, is told allowed where the guard (which sends it relative) denies.
    const client = await connected(recordingBackend().backend, undefined)
    const { tools } = await client.listTools()
    const path = tools.find((t) => t.name === 'check_decision')?.inputSchema.properties?.path as { description?: string } | undefined
    expect(path?.description).toMatch(/relative to the root of its git repository/)
    expect(path?.description).toMatch(/absolute path matches only decisions scoped by absolute paths/)
    await client.close()
  })
})

describe('createMcpServer: why of a file, as why FILE answers it', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })
  const text = (answer: Awaited<ReturnType<Client['callTool']>>) => (answer.content as Array<{ text: string }>)[0]?.text ?? ''
  const adr = adrText
  const LOG = '# Decisions\n\n## D-001: Use Zod\n\n- Status: Accepted\n- Rationale: Zod composes with inferred types.\n\n## D-002: No API versions before beta\n\n- Status: Proposed\n- Rationale: Too few consumers yet.\n'

  const imported = importedRepository

  /** Decisions proposed in the store at `store` on `clock` (closed again after), as the service would make them. */
  async function proposed(store: string, clock: ReturnType<typeof fixedClock>, write: (decisions: ReturnType<typeof createDecisions>) => Promise<void>) {
    const { store: memory, decisionStore } = await openStores(store)
    try {
      await write(createDecisions({ store: decisionStore, clock, policy: await loadPolicy(DEFAULT_POLICY_FILE) }))
    } finally {
      await memory.close()
    }
  }

  /** The server's backend on the store at `dir`, as when no service runs: the decisions, and a decision's why, read there. */
  async function storeBackend(dir: string, clock: Clock = systemClock) {
    const { store, decisionStore } = await openStores(dir)
    const decisions = createDecisions({ store: decisionStore, clock, policy: await loadPolicy(DEFAULT_POLICY_FILE) })
    const asked: string[] = []
    const answer = async (run: () => Promise<unknown>): Promise<BackendAnswer> => {
      try {
        return { ok: true, body: await run() }
      } catch (error) {
        if (!(error instanceof InputError)) throw error
        return { ok: false, error: { code: error.code, message: error.message, issues: error.issues } }
      }
    }
    const backend: McpBackend = {
      ...recordingBackend().backend,
      listDecisions: (query) => (asked.push('listDecisions'), answer(async () => ({ decisions: await decisions.list(query) }))),
      whyDecision: (key, query) => (asked.push(`whyDecision ${key}`), answer(() => decisions.why(key, query))),
    }
    return { backend, asked, close: () => store.close() }
  }

  /** A client of a server started in `folder`. */
  async function startedIn(backend: McpBackend, folder: string) {
    const server = createMcpServer(backend, { version: '0.0.0', clock: fixedClock(NOW), folder })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientSide)
    return client
  }

  it('answers a record\'s file with the chain of the decision imported from it, as why KEY does; a DECISIONS.md section by section', async () => {
    const { parent, store, repo: shop } = await shopWithTwoRecords('dm-mcp-why-file-')
    const api = await imported(parent, 'api', store, { 'DECISIONS.md': LOG })
    const { backend, close } = await storeBackend(store)
    try {
      const client = await startedIn(backend, shop)
      const answer = await client.callTool({ name: 'why', arguments: { file: 'doc/adr/0001-use-sqlite.md' } })
      expect(answer.isError, text(answer)).toBeFalsy()
      const body = JSON.parse(text(answer))
      expect(body).toMatchObject({ file: 'doc/adr/0001-use-sqlite.md', path: 'doc/adr/0001-use-sqlite.md', decisions: [{ key: 'ADR-0001', from: 'record' }] })
      expect(body.decisions).toHaveLength(1)
      // The chain the key answers, read a moment apart.
      const { as_of: _, ...byKey } = JSON.parse(text(await client.callTool({ name: 'why', arguments: { key: 'ADR-0001' } })))
      const { as_of: __, ...byFile } = body.decisions[0].why
      expect(byFile).toEqual(byKey)
      expect(byFile.chain.map((link: { key: string; status: string }) => `${link.key} ${link.status}`)).toEqual(['ADR-0001 superseded', 'ADR-0002 accepted'])
      // Absolute, the same file.
      const absolute = JSON.parse(text(await client.callTool({ name: 'why', arguments: { file: join(shop, 'doc', 'adr', '0001-use-sqlite.md') } })))
      expect(absolute.decisions.map((d: { key: string }) => d.key)).toEqual(['ADR-0001'])
      // The folder the records were imported from: each record's decision, with its file.
      const folder = JSON.parse(text(await client.callTool({ name: 'why', arguments: { file: 'doc/adr' } })))
      expect(folder.decisions.map((d: { key: string; from: string; file: string }) => [d.key, d.from, d.file])).toEqual([
        ['ADR-0001', 'record', join('doc/adr', '0001-use-sqlite.md')],
        ['ADR-0002', 'record', join('doc/adr', '0002-use-postgres.md')],
      ])
      await client.close()
      // A log of decisions: each of its sections, in the order of the file, with its line.
      const inApi = await startedIn(backend, api)
      const log = JSON.parse(text(await inApi.callTool({ name: 'why', arguments: { file: 'doc/adr/DECISIONS.md' } })))
      expect(log.decisions.map((d: { key: string; from: string; line: number }) => [d.key, d.from, d.line])).toEqual([
        ['D-001', 'record', 3],
        ['D-002', 'record', 8],
      ])
      expect(log.decisions[0].why.rationale).toBe('Zod composes with inferred types.')
      await inApi.close()
    } finally {
      await close()
    }
  })

  it('answers a file of the code with the decisions in force scoped to its path or a folder above, read from the folder the server was started in', async () => {
    const { store, repo } = await shopWithOneRecord('dm-mcp-why-file-')
    await proposed(store, fixedClock('2026-11-01T00:00:00Z'), async (decisions) => {
      const made = { decision: 'Amounts are integer cents.', rationale: 'Floats lost a cent.', status: 'accepted' as const }
      await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-100', title: 'Cents in billing', scope: { path: 'src' } }))
      await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-101', title: 'Cents in the web', scope: { path: 'src/web' } }))
      await decisions.propose(DecisionInputSchema.parse({ ...made, key: 'D-102', title: 'Cents everywhere' }))
    })
    const { backend, close } = await storeBackend(store)
    try {
      // Started in src (Claude Code starts it in the agent's folder): `billing.ts` is src/billing.ts, as `why billing.ts` run there reads it.
      for (const [folder, file] of [[join(repo, 'src'), 'billing.ts'], [repo, 'src/billing.ts']] as const) {
        const client = await startedIn(backend, folder)
        const body = JSON.parse(text(await client.callTool({ name: 'why', arguments: { file } })))
        // Not D-101, scoped elsewhere, nor D-102, which holds everywhere.
        expect(body, folder).toMatchObject({ file, path: 'src/billing.ts', decisions: [{ key: 'D-100', from: 'scope', scope: 'src', why: { key: 'D-100', rationale: 'Floats lost a cent.' } }] })
        expect(body.decisions, folder).toHaveLength(1)
        await client.close()
      }
    } finally {
      await close()
    }
  })

  it('finds the decision of a record deleted since; a file no decision is behind is decision_not_found naming file, with what answers instead', async () => {
    const { store, repo } = await shopWithOneRecord('dm-mcp-why-file-')
    rmSync(join(repo, 'doc', 'adr', '0001-use-sqlite.md'))
    writeFileSync(join(repo, 'Makefile'), 'all:\n')
    writeFileSync(join(repo, 'README.md'), '# Shop\n')
    const { backend, asked, close } = await storeBackend(store)
    try {
      const client = await startedIn(backend, repo)
      const gone = JSON.parse(text(await client.callTool({ name: 'why', arguments: { file: 'doc/adr/0001-use-sqlite.md' } })))
      expect(gone.decisions.map((d: { key: string; why: { current: string } }) => [d.key, d.why.current])).toEqual([['ADR-0001', 'ADR-0001']])
      asked.splice(0)
      const none = async (file: string) => {
        const answer = await client.callTool({ name: 'why', arguments: { file } })
        expect(answer.isError, file).toBe(true)
        const [first, ...issues] = text(answer).split('\n')
        expect(issues, file).toEqual(['- file: no decision was imported from it or is scoped to its path'])
        return first
      }
      expect(await none('doc/adr/0002-not-there.md')).toBe(
        `decision_not_found: no decision was imported from doc/adr/0002-not-there.md or is scoped to its path, and there is no such file in ${repo}, the folder the server was started in`,
      )
      expect(await none('Makefile')).toBe(
        'decision_not_found: no decision was imported from Makefile or is scoped to its path, Makefile (decisions with no path apply everywhere: ' +
          'GET /v1/decisions/applicable?path=Makefile; `why` with `point` and context.path "Makefile" explains a point there)',
      )
      expect(await none('README.md')).toBe('decision_not_found: no decision was imported from README.md or is scoped to its path (import-adr reads no README, index or template as a record)')
      // A name no decision has through the file is not read as a key either: the agent said `file`.
      expect(await none('ADR-0001')).toContain('no decision was imported from ADR-0001')
      // Only the list was read: no chain asked of a decision that is not behind the file.
      expect(asked).toEqual(['listDecisions', 'listDecisions', 'listDecisions', 'listDecisions'])
      await client.close()
    } finally {
      await close()
    }
  })

  it('with as_of, lists the decisions behind a file as they stood then, each chain as of then; an answer not as of then is refused', async () => {
    const { store, repo } = await shopWithOneRecord('dm-mcp-why-file-')
    const clock = fixedClock('2026-11-01T00:00:00Z')
    await proposed(store, clock, async (decisions) => {
      await scopedToSrcOverTime(decisions, clock)
    })
    const { backend, close } = await storeBackend(store)
    try {
      const client = await startedIn(backend, repo)
      const then = JSON.parse(text(await client.callTool({ name: 'why', arguments: { file: 'src/billing.ts', as_of: '2026-11-02T00:00:00Z' } })))
      expect(then.decisions.map((d: { key: string; why: { as_of: string; chain: Array<{ status: string }> } }) => [d.key, d.why.as_of, d.why.chain[0]?.status])).toEqual([
        ['D-100', '2026-11-02T00:00:00.000Z', 'accepted'],
        ['D-101', '2026-11-02T00:00:00.000Z', 'accepted'],
      ])
      const now = JSON.parse(text(await client.callTool({ name: 'why', arguments: { file: 'src/billing.ts' } })))
      expect(now.decisions.map((d: { key: string }) => d.key)).toEqual(['D-100', 'D-102'])
      // The record was imported after that moment: none behind it then, said so.
      const before = await client.callTool({ name: 'why', arguments: { file: 'doc/adr/0001-use-sqlite.md', as_of: '2026-11-02T00:00:00Z' } })
      expect(text(before).split('\n')[1]).toBe('- file: no decision was imported from it or is scoped to its path as of 2026-11-02T00:00:00Z')
      expect(text(before).split('\n')[0]).toBe(
        "decision_not_found: as of 2026-11-02T00:00:00Z, no decision was imported from doc/adr/0001-use-sqlite.md or is scoped to its path (import-adr doc/adr reads its folder's records)",
      )
      await client.close()
    } finally {
      await close()
    }
    // A service of an older version answers a chain as of now, saying no as_of: refused, as for a key.
    const older: McpBackend = {
      ...recordingBackend().backend,
      listDecisions: async () => ({ ok: true, body: { decisions: [{ key: 'D-100', status: 'accepted', scope: { path: 'src' }, imported: null }] } }),
      whyDecision: async (key) => ({ ok: true, body: { key, chain: [] } }),
    }
    const client = await startedIn(older, repo)
    const refused = await client.callTool({ name: 'why', arguments: { file: 'src/billing.ts', as_of: '2026-11-02T00:00:00Z' } })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toMatch(/^as_of_not_answered: the service does not answer D-100 as of a moment/)
    await client.close()
  })

  it('names a decision scoped to the file that is no longer in force, rather than saying none is scoped there', async () => {
    const repo = tempDir('dm-mcp-why-file-gone-')
    mkdirSync(join(repo, '.git'))
    mkdirSync(join(repo, 'src', 'auth'), { recursive: true })
    writeFileSync(join(repo, 'src', 'auth', 'shim.ts'), 'export {}\n')
    const deprecated = { key: 'OLD-1', status: 'deprecated', superseded_by: null, scope: { path: 'src/auth' }, imported: null }
    const backend: McpBackend = { ...recordingBackend().backend, listDecisions: async () => ({ ok: true, body: { decisions: [deprecated] } }) }
    const client = await startedIn(backend, repo)
    const answer = await client.callTool({ name: 'why', arguments: { file: 'src/auth/shim.ts' } })
    expect(answer.isError).toBe(true)
    const [first, ...issues] = text(answer).split('\n')
    expect(first).toMatch(/^decision_not_found: no decision was imported from src\/auth\/shim\.ts or is in force scoped to its path, src\/auth\/shim\.ts \(/)
    expect(first).toMatch(/; not in force there: OLD-1 \(deprecated, scoped to src\/auth\): `why` with `key` "OLD-1" tells its history$/)
    expect(issues).toEqual(['- file: no decision was imported from it or is in force scoped to its path'])
    await client.close()
  })

  it('refuses key and file together, and file with any argument but as_of, naming each, and asks nothing', async () => {
    const asked: string[] = []
    const backend: McpBackend = {
      ...recordingBackend().backend,
      listDecisions: async () => (asked.push('listDecisions'), { ok: true, body: { decisions: [] } }),
      whyDecision: async (key) => (asked.push(`whyDecision ${key}`), { ok: true, body: { key, chain: [] } }),
    }
    const client = await startedIn(backend, tempDir('dm-mcp-why-file-'))
    const both = await client.callTool({ name: 'why', arguments: { key: 'D-001', file: 'src/billing.ts' } })
    expect(both.isError).toBe(true)
    expect(text(both).split('\n')).toEqual([
      'invalid_request: why explains one decision by its key, or the decisions behind a file: give `key` or `file`, not both',
      '- key: not taken with `file`: give `key` or `file`',
      '- file: not taken with `key`: give `key` or `file`',
    ])
    const extra = await client.callTool({ name: 'why', arguments: { file: 'src/billing.ts', point: 'db', project: 'api', ...WHY_Q } })
    expect(extra.isError).toBe(true)
    const lines = text(extra).split('\n')
    expect(lines[0]).toMatch(/^invalid_request: why with file explains the decisions behind that file, and takes only as_of beside it: drop /)
    expect(lines.slice(1).map((line) => line.split(':')[0]).sort()).toEqual(['- all_options', '- point', '- project', '- question'])
    // Checked as an argument: not empty, no control characters; named.
    for (const file of ['', 'src/\u0000billing.ts']) {
      const bad = await client.callTool({ name: 'why', arguments: { file } })
      expect(bad.isError, JSON.stringify(file)).toBe(true)
      expect(text(bad).split('\n')[1], JSON.stringify(file)).toMatch(/^- file: /)
    }
    expect(asked).toEqual([])
    // A file given null is not given: a key's why, as before.
    const key = await client.callTool({ name: 'why', arguments: { key: 'D-001', file: null } })
    expect(key.isError, text(key)).toBeFalsy()
    expect(asked).toEqual(['whyDecision D-001'])
    await client.close()
  })

  it('says in the schema that a file is asked of, and from which folder a relative one is read', async () => {
    const client = await startedIn(recordingBackend().backend, '/home/alice/shop')
    const why = (await client.listTools()).tools.find((t) => t.name === 'why')
    expect(why?.inputSchema.required ?? []).not.toContain('file')
    const file = why?.inputSchema.properties?.file as { type: string; description: string }
    expect(file.type).toBe('string')
    expect(file.description).toContain('relative to "/home/alice/shop", the folder the server was started in')
    expect(why?.description).toContain('With `file`')
    await client.close()
  })

  it('gives a folder of 30 records superseding each other each decision once, its chain once: under 24,000 characters where whole it was the chain 30 times', async () => {
    // Each record says why at ADR length: the context a team writes, and what was decided.
    const context = (n: number) =>
      `Version ${n} of the billing queue. Billing events must be processed exactly once and in order per customer; the platform team runs Redis ` +
      'streams with consumer groups and acknowledgement, so there is no new system to operate. SQS FIFO queues cap throughput per group and add ' +
      'a cloud dependency to local development; Kafka would need a cluster we do not have the people to run. Redis persistence must be AOF every second.'
    const records: Record<string, string> = {}
    for (let n = 1; n <= 30; n++) {
      const status = n === 30 ? 'Accepted' : `Superseded by [${n + 1}. Billing queue ${n + 1}](${String(n + 1).padStart(4, '0')}-billing-queue-${n + 1}.md)`
      records[`${String(n).padStart(4, '0')}-billing-queue-${n}.md`] =
        `# ${n}. Billing queue ${n}\n\nDate: 2024-01-01\n\n## Status\n\n${status}\n\n## Context\n\n${context(n)}\n\n## Decision\n\nThe billing service consumes its events from Redis, version ${n}.\n`
    }
    const parent = tempDir('dm-mcp-why-long-')
    const store = join(parent, 'store')
    const shop = await imported(parent, 'shop', store, records)
    const { backend, close } = await storeBackend(store)
    try {
      const client = await startedIn(backend, shop)
      const answer = await client.callTool({ name: 'why', arguments: { file: 'doc/adr' } })
      expect(answer.isError, text(answer)).toBeFalsy()
      expect(text(answer).length).toBeLessThan(24_000)
      const body = JSON.parse(text(answer))
      const keys = Array.from({ length: 30 }, (_, i) => `ADR-${String(i + 1).padStart(4, '0')}`)
      expect(body.decisions.map((d: { key: string; from: string; chain: number }) => [d.key, d.from, d.chain])).toEqual(keys.map((key) => [key, 'record', 0]))
      expect(body.chains).toEqual([{ keys, current: 'ADR-0030', in_force: 'ADR-0030', proposals: [] }])
      expect(body.links.map((l: { key: string }) => l.key)).toEqual(keys)
      expect(body.links[29]).toMatchObject({ key: 'ADR-0030', status: 'accepted', rationale: expect.stringContaining('Version 30') })
      expect(body.links[0]).toMatchObject({ key: 'ADR-0001', status: 'superseded', evidence_count: 1 })
      expect(body.left_out).toContain(`cd ${shop} && `)
      expect(body.left_out).toMatch(/Each entry's whole `why`, a JSON line each in order: cd .* why doc\/adr --as-of \S+ --json$/)
      // A decision of it asked by key gives its own link whole.
      const first = JSON.parse(text(await client.callTool({ name: 'why', arguments: { key: 'ADR-0001' } })))
      expect(first.chain[0]).toMatchObject({ key: 'ADR-0001', rationale: expect.stringContaining('Version 1') })
      await client.close()
    } finally {
      await close()
    }
  })
})

describe('createMcpServer: a name spaced at its ends, or white space alone', () => {
  it('is refused by the tools that write, in the schema and by the tool, naming the field; why still reads one stored so', async () => {
    const asked: unknown[] = []
    const { backend, observed } = recordingBackend()
    const client = await connected({ ...backend, whyPoint: async (query) => (asked.push(query), { ok: true, body: {} }) }, undefined)
    const { tools } = await client.listTools()
    const validator = new AjvJsonSchemaValidator()
    const check = (name: string) => validator.getValidator(tools.find((t) => t.name === name)?.inputSchema as never)
    const refused: Array<[string, string, Record<string, unknown>]> = [
      ['record_choice', 'user', { ...CHOICE, user: ' CaseU ' }],
      ['record_choice', 'session_id', { ...CHOICE, session_id: '   ' }],
      ['record_choice', 'decision_id', { ...CHOICE, decision_id: 'd-1 ' }],
      ['record_choice', 'point', { ...CHOICE, point: ' db' }],
      ['recommend', 'project', { ...WHY_Q, project: 'acme ' }],
      ['recommend', 'session_id', { ...WHY_Q, session_id: ' ' }],
      ['plan_questions', 'user', { user: 'alice\u00a0', questions: [{ question: 'Which database?', header: 'DB', options: [{ label: 'pg' }, { label: 'mysql' }], multiSelect: false }] }],
    ]
    for (const [name, field, args] of refused) {
      expect(check(name)(args).valid, `${name} ${field} in the schema`).toBe(false)
      const answer = await client.callTool({ name, arguments: args })
      expect(answer.isError, `${name} ${field} by the tool`).toBe(true)
      const lines = (answer.content as Array<{ text: string }>)[0]?.text.split('\n') ?? []
      expect(lines.some((line) => line.startsWith(`- ${field}: `)), `${name} ${field}: ${lines.join(' / ')}`).toBe(true)
    }
    expect(observed).toEqual([])
    const why = { user: ' CaseU ', project: ' acme ', session_id: ' s-1 ', point: ' db ' }
    expect(check('why')(why)).toMatchObject({ valid: true })
    expect((await client.callTool({ name: 'why', arguments: why })).isError).toBeFalsy()
    expect(asked).toMatchObject([why])
    await client.close()
  })

  it('is refused by why of a question, as recommend refuses it, before any memory is asked: a store the server opened took it', async () => {
    const recommended: unknown[] = []
    const { backend } = recordingBackend()
    const client = await connected({ ...backend, recommend: async (request) => (recommended.push(request), { ok: true, body: {} }) }, undefined)
    for (const [field, value] of [['user', ' CaseU '], ['project', 'acme '], ['session_id', ' s-1'], ['point', 'db\u00a0']] as const) {
      const why = await client.callTool({ name: 'why', arguments: { ...WHY_Q, [field]: value } })
      const recommend = await client.callTool({ name: 'recommend', arguments: { ...WHY_Q, [field]: value } })
      expect(why.isError, field).toBe(true)
      expect((why.content as Array<{ text: string }>)[0]?.text, field).toBe((recommend.content as Array<{ text: string }>)[0]?.text)
    }
    expect(recommended).toEqual([])
    await client.close()
  })
})
