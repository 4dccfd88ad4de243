import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { claudeCodeFixture } from '../../test/support/fixtures'
import { createTestApp } from '../../test/support/test-app'
import { ALICE, BOB, OPS, testTokens } from '../../test/support/tokens'
import { answerWhatNodeRefuses } from '../cli/serve'
import { bareName } from '../domain/observation'

/*
 * The API against its own OpenAPI document: requests built from the document's request schemas
 * (and bodies agents send), broken one part at a time, must get a status the document lists, an
 * answer that fits the schema it gives, and a refusal naming a field the schema refuses; and
 * sequences of requests must keep what the spec promises, against a model of what is held.
 * test/hostile-input.test.ts sends random JSON for 5xx alone; response-contract.test.ts tours the
 * answers in states built by hand.
 */

/** The subset of JSON Schema the OpenAPI document uses, for requests and answers. */
type Schema = {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  dependentRequired?: Record<string, string[]>
  additionalProperties?: boolean | Schema
  propertyNames?: Schema
  maxProperties?: number
  minProperties?: number
  items?: Schema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  default?: unknown
}
type Parameter = { in: string; name: string; required?: boolean; schema: Schema }
type Operation = {
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>
}
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }

const KNOWN_KEYWORDS = new Set([
  '$ref', 'type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'properties', 'required', 'dependentRequired', 'additionalProperties', 'propertyNames',
  'maxProperties', 'minProperties', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum',
  'exclusiveMinimum', 'exclusiveMaximum', 'default', 'description', 'example', 'examples', 'format', 'readOnly', 'title',
  // An annotation, as readOnly is: DecisionInput's seed names (`id`, `reasoning`), taken as the fields they name.
  'deprecated',
])

function resolve(doc: Document, schema: Schema): Schema {
  return schema.$ref === undefined ? schema : resolve(doc, doc.components.schemas[schema.$ref.split('/').pop() as string] as Schema)
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

const segment = (key: string) => (key === '' ? '""' : key)
const join = (at: string, key: string | number) => (at === '' ? segment(String(key)) : `${at}.${segment(String(key))}`)

/**
 * Where a value departs from a schema: the dotted paths (as the service names fields, '' the body)
 * and why. An answer says no more than its document: there a field no schema lists departs too,
 * but under `additionalProperties` (a record, or an object kept as sent).
 */
function departures(doc: Document, raw: Schema, value: unknown, at = '', answer = false): Array<{ path: string; why: string }> {
  const schema = resolve(doc, raw)
  const out: Array<{ path: string; why: string }> = []
  const fail = (why: string, path = at) => out.push({ path, why })
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
    const branches = (schema.anyOf ?? schema.oneOf) as Schema[]
    const each = branches.map((branch) => departures(doc, branch, value, at, answer))
    const fitting = each.filter((d) => d.length === 0).length
    if (schema.oneOf !== undefined ? fitting !== 1 : fitting === 0) {
      // The branch of the value's own type says where; else the union at its path.
      const sameType = each.filter((d) => !d.some((x) => x.path === at && x.why.startsWith('type ')))
      if (sameType.length === 1) out.push(...(sameType[0] as Array<{ path: string; why: string }>))
      else fail(`fits no branch (${each.map((d) => d[0]?.why).join(' | ')})`)
    }
  }
  for (const branch of schema.allOf ?? []) out.push(...departures(doc, branch, value, at, answer))
  const type = typeOf(value)
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type]
    if (!types.includes(type) && !(type === 'integer' && types.includes('number'))) {
      fail(`type ${type}, documented ${types.join(' or ')}`)
      return out
    }
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) fail(`${JSON.stringify(value)} is not among ${JSON.stringify(schema.enum)}`)
  if (schema.const !== undefined && schema.const !== value) fail(`not ${JSON.stringify(schema.const)}`)
  if (typeof value === 'string') {
    const length = [...value].length
    if (schema.minLength !== undefined && length < schema.minLength) fail(`shorter than ${schema.minLength}`)
    if (schema.maxLength !== undefined && length > schema.maxLength) fail(`longer than ${schema.maxLength}`)
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) fail(`does not match ${schema.pattern}`)
    if ((schema as { format?: string }).format === 'date-time' && !isCalendarMoment(value)) fail('not a date-time (RFC 3339)')
    if ((schema as { format?: string }).format === 'uri' && !URL.canParse(value.trim())) fail('not a URI')
    // The document says in words where its pattern cannot: an identifier holds no lone surrogate.
    if (/lone surrogates/.test((schema as { description?: string }).description ?? '') && LONE_SURROGATE.test(value)) fail('a lone surrogate')
    // And that a written name has none of the invisible characters above U+FFFF at its ends, which a pattern without the u flag cannot say.
    if (/above U\+FFFF/.test((schema as { description?: string }).description ?? '') && bareName(value) !== value) fail('an invisible character at an end')
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail(`below ${schema.minimum}`)
    if (schema.maximum !== undefined && value > schema.maximum) fail(`above ${schema.maximum}`)
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) fail(`not above ${schema.exclusiveMinimum}`)
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) fail(`not below ${schema.exclusiveMaximum}`)
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`)
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`)
    if (schema.items !== undefined) value.forEach((item, i) => out.push(...departures(doc, schema.items as Schema, item, join(at, i), answer)))
  }
  if (type === 'object') {
    const object = value as Record<string, unknown>
    const keys = Object.keys(object)
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) fail(`more than ${schema.maxProperties} fields`)
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) fail(`fewer than ${schema.minProperties} fields`)
    for (const key of schema.required ?? []) if (!Object.hasOwn(object, key)) fail('required, missing', join(at, key))
    for (const [key, needs] of Object.entries(schema.dependentRequired ?? {})) {
      // Either names it: the field given without the one it needs, or the one missing.
      for (const need of needs) {
        if (!Object.hasOwn(object, key) || Object.hasOwn(object, need)) continue
        fail(`required with ${key}, missing`, join(at, need))
        fail(`given without ${need}`, join(at, key))
      }
    }
    for (const key of keys) {
      const field = object[key]
      if (schema.propertyNames !== undefined) for (const d of departures(doc, schema.propertyNames, key, join(at, key))) out.push({ path: d.path, why: `key ${d.why}` })
      const documented = schema.properties !== undefined && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined
      if (documented !== undefined) out.push(...departures(doc, documented, field, join(at, key), answer))
      else if (typeof schema.additionalProperties === 'object') out.push(...departures(doc, schema.additionalProperties, field, join(at, key), answer))
      else if (schema.additionalProperties === false || (answer && schema.additionalProperties === undefined && schema.properties !== undefined)) fail('not documented', join(at, key))
    }
  }
  return out
}

/** An RFC 3339 date-time whose day, hour and offset exist. */
function isCalendarMoment(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(value)
  if (m === null) return false
  const [y, mo, d, h, mi, se, oh, om] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as number[]
  const day = new Date(Date.UTC(y as number, (mo as number) - 1, d))
  return day.getUTCFullYear() === y && day.getUTCMonth() === (mo as number) - 1 && day.getUTCDate() === d && (h as number) < 24 && (mi as number) < 60 && (se as number) < 60 && (oh as number) < 24 && (om as number) < 60
}

/** Every keyword a schema uses that `departures` does not read: a document that outgrows the validator says so. */
function unknownKeywords(doc: Document): string[] {
  const found = new Set<string>()
  const visit = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null) return
    if (Array.isArray(schema)) return schema.forEach(visit)
    for (const [key, value] of Object.entries(schema)) {
      if (!KNOWN_KEYWORDS.has(key)) found.add(key)
      if (key === 'properties') Object.values(value as object).forEach(visit)
      else if (key !== 'enum' && key !== 'examples' && key !== 'example' && key !== 'default' && key !== 'const' && key !== 'dependentRequired') visit(value)
    }
  }
  Object.values(doc.components.schemas).forEach(visit)
  return [...found]
}

const START_MS = Date.parse('2026-07-01T10:00:00.000Z')
/** Strings people and agents send, tried beside random ones so that values mean something. */
const SAMPLES = ['alice', 'default', 'acme/api', 'Tier M', 'Which complexity tier?', 'run', 'D-001', 'src', '__proto__', 'constructor', 'toString', 'Café', '测试', '🙂']

/** A value the schema takes, built from the schema alone. */
function arbitraryOf(doc: Document, raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw)
  const valid = <T>(arb: fc.Arbitrary<T>) => arb.filter((v) => departures(doc, schema, v).length === 0)
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
    // Beside an object's own fields (DecisionCheck: one of two of them required), it narrows them.
    if (schema.properties !== undefined) {
      const { anyOf: _anyOf, oneOf: _oneOf, ...fields } = schema
      return valid(arbitraryOf(doc, fields, depth))
    }
    return valid(fc.oneof(...((schema.anyOf ?? schema.oneOf) as Schema[]).map((b) => arbitraryOf(doc, b, depth + 1))))
  }
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  if (schema.const !== undefined) return fc.constant(schema.const)
  const types = schema.type === undefined ? ['string', 'number', 'boolean', 'null'] : Array.isArray(schema.type) ? schema.type : [schema.type]
  return fc.oneof(...types.map((type) => arbitraryOfType(doc, schema, type, depth)))
}

function arbitraryOfType(doc: Document, schema: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  const fits = (v: unknown) => departures(doc, { ...schema, type }, v).length === 0
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER), max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER) })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true })
    case 'string': {
      const max = Math.min(schema.maxLength ?? 40, 40)
      const min = Math.min(schema.minLength ?? 0, max)
      const candidates: Array<fc.Arbitrary<string>> = [fc.string({ minLength: min, maxLength: max }), fc.constantFrom(...SAMPLES)]
      if ((schema as { format?: string }).format === 'date-time') {
        return fc.integer({ min: START_MS - 400 * 86_400_000, max: START_MS }).map((ms) => new Date(ms).toISOString())
      }
      if (schema.pattern?.startsWith('^\\d{4}-\\d{2}-\\d{2}') === true) {
        candidates.push(fc.integer({ min: START_MS - 400 * 86_400_000, max: START_MS }).map((ms) => new Date(ms).toISOString()))
      }
      const matching = schema.pattern === undefined ? undefined : withoutLookahead(schema.pattern)
      if (matching !== undefined) candidates.push(fc.stringMatching(new RegExp(matching, 'u'), { size: 'xsmall' }))
      return fc.oneof(...candidates).filter(fits)
    }
    case 'array': {
      const items = schema.items === undefined ? fc.string() : arbitraryOf(doc, schema.items, depth + 1)
      const min = schema.minItems ?? 0
      return fc.array(items, { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? 4, 4)) }).filter(fits)
    }
    case 'object': {
      const properties = schema.properties ?? {}
      const required = schema.required ?? []
      const fields = fc.record(
        Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, arbitraryOf(doc, v, depth + 1)])),
        { requiredKeys: required.filter((k) => Object.hasOwn(properties, k)) },
      )
      const extra =
        typeof schema.additionalProperties === 'object' && depth < 6
          ? fc.dictionary(
              schema.propertyNames === undefined ? fc.string({ minLength: 1, maxLength: 10 }) : (arbitraryOf(doc, schema.propertyNames, depth + 1) as fc.Arbitrary<string>),
              arbitraryOf(doc, schema.additionalProperties, depth + 1),
              { maxKeys: 3 },
            )
          : fc.constant({})
      return fc.tuple(extra, fields).map(([e, f]) => ({ ...e, ...f })).filter(fits)
    }
    default:
      throw new Error(`no arbitrary for type ${type}`)
  }
}

/**
 * A pattern without its leading negative lookaheads (a scope's path, `^(?![ …])(?![\\s\\S]*\\*)…`,
 * lookaheads alone), which fast-check cannot build strings for: the strings built are filtered by
 * the whole. Undefined when nothing is left.
 */
function withoutLookahead(pattern: string): string | undefined {
  let rest = pattern
  while (rest.startsWith('^(?!')) {
    let depth = 0
    let end = -1
    for (let i = 1; i < rest.length && end < 0; i++) {
      if (rest[i] === '\\') i++
      else if (rest[i] === '(') depth++
      else if (rest[i] === ')' && --depth === 0) end = i
    }
    if (end < 0) return pattern
    rest = `^${rest.slice(end + 1)}`
  }
  return rest === '^' ? undefined : rest
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Every place in a value: [] the value itself, then each field and item, by its path. */
function places(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at]
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...places(item, [...at, i])))
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(...places(v, [...at, k]))
  return out
}

function deep(levels: number): Json {
  let value: Json = 'x'
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value }
  return value
}

/** What a mutation puts in place of a value, or beside it. */
const REPLACEMENTS: Array<fc.Arbitrary<Json>> = [
  fc.constantFrom<Json>(null, true, false, 0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53, -(2 ** 53) - 2, 5e-324, [], {}, '', ' ', '\u0000'),
  fc.constantFrom<Json>('__proto__', 'constructor', 'prototype', 'hasOwnProperty', '\ud800', 'a\udc00b', '\u202e', 'e\u0301', '🙂'.repeat(3), '\u0007'),
  fc.constantFrom<Json>('x'.repeat(5000), 'y'.repeat(120_000), 'z'.repeat(300_000)),
  fc.constantFrom<Json>(deep(40), deep(200)),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
]
type Mutation = { kind: string; at: Array<string | number> }

/** A valid value with one thing broken (or made odd), and where. */
function mutated(value: unknown): fc.Arbitrary<{ value: Json; mutation: Mutation }> {
  const all = places(value)
  return fc
    .record({
      index: fc.nat(all.length - 1),
      kind: fc.constantFrom('replace', 'replace', 'delete', 'extra', 'duplicate', 'proto-key'),
      replacement: fc.oneof(...REPLACEMENTS),
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'extra', ''), fc.string({ maxLength: 8 })),
    })
    .map(({ index, kind, replacement, key }) => {
      const copy = JSON.parse(JSON.stringify(value ?? null)) as Json
      const at = all[index] as Array<string | number>
      const parentPath = at.slice(0, -1)
      const last = at[at.length - 1]
      const get = (path: Array<string | number>) => path.reduce<any>((v, k) => (v === null || v === undefined ? v : v[k]), copy)
      const target = get(at)
      const parent = get(parentPath)
      const set = (v: Json) => {
        if (at.length === 0) return v
        Object.defineProperty(parent, last as string, { value: v, enumerable: true, writable: true, configurable: true })
        return copy
      }
      if (kind === 'delete' && at.length > 0) {
        if (Array.isArray(parent)) parent.splice(last as number, 1)
        else delete parent[last as string]
        return { value: copy, mutation: { kind, at } }
      }
      if ((kind === 'extra' || kind === 'proto-key') && typeof target === 'object' && target !== null && !Array.isArray(target)) {
        const name = kind === 'proto-key' ? '__proto__' : key
        Object.defineProperty(target, name, { value: replacement, enumerable: true, writable: true, configurable: true })
        return { value: copy, mutation: { kind, at: [...at, name] } }
      }
      if (kind === 'duplicate' && Array.isArray(target) && target.length > 0) {
        target.push(JSON.parse(JSON.stringify(target[0])))
        return { value: copy, mutation: { kind, at } }
      }
      return { value: set(replacement), mutation: { kind: 'replace', at } }
    })
}

const TIER_OPTIONS = ['Tier S', { label: 'Tier M (Recommended)', description: 'Most specs' }, 'Tier L']
const OBSERVATION = {
  decision_id: 'moai-ask-001', timestamp: '2026-06-30T10:00:00Z', question: 'Which complexity tier should this SPEC use?', header: 'Tier',
  user_choice: 'Tier M (Recommended)', all_options: TIER_OPTIONS, context: { phase: 'run', spec_id: 'SPEC-1', billing: true, n: 3, none: null },
  user: 'alice', project: 'acme/api', session_id: 's-1',
}
const QUESTION = { question: 'Which checks should run?', header: 'Checks', multiSelect: true, options: [{ label: 'Lint', description: 'fast' }, { label: 'Unit' }, { label: 'E2E' }] }
/** Bodies as agents and people send them, mutated beside the ones built from the schemas: they reach past validation. */
const REAL_BODIES: Record<string, unknown[]> = {
  'post /v1/observations': [
    OBSERVATION,
    [OBSERVATION, { ...OBSERVATION, decision_id: 'moai-ask-002', user_choice: 'Something else' }],
    { question: 'Which checks?', user_choice: ['Lint', 'Unit'], all_options: ['Lint', 'Unit', 'E2E'], multi_select: true },
  ],
  'post /v1/recommendations': [
    { user: 'alice', project: 'acme/api', session_id: 's-1', question: OBSERVATION.question, header: 'Tier', all_options: TIER_OPTIONS, context: { phase: 'run' }, static_default: 'Tier S' },
    { question: 'Which checks?', all_options: ['Lint', 'Unit', 'E2E'], multi_select: true, as_of: '2026-06-30T10:00:00Z' },
  ],
  'post /v1/sessions': [{ user: 'alice', project: 'acme/api', session_id: 's-9', started_at: '2026-06-30T10:00:00Z' }, {}],
  'put /v1/sessions/{id}/personalization': [{ enabled: false }, {}, { enabled: true, user: 'alice' }],
  'post /v1/plan': [
    {
      user: 'alice',
      project: 'acme/api',
      session_id: 's-1',
      questions: [QUESTION, { question: OBSERVATION.question, header: 'Tier', multiSelect: false, options: [{ label: 'Tier S' }, { label: 'Tier M' }] }],
      context: { phase: 'plan' },
    },
  ],
  'post /v1/hooks/claude-code': ['post-tool-use-single', 'post-tool-use-multi', 'pre-tool-use', 'pre-tool-use-bash', 'session-start'].map((name) => claudeCodeFixture(name)),
  'post /v1/decisions': [
    {
      key: 'D-100',
      title: 'Use Postgres',
      decision: 'Postgres for every service',
      rationale: 'One database to run',
      enforce: 'required',
      status: 'accepted',
      scope: { points: ['tier'], path: 'services/api', task: 'build', stage: 'run' },
      constraints: [{ kind: 'must', option: 'Tier M' }, { kind: 'must_not', pattern: 'git push --force' }, { kind: 'limit', value: 3 }],
      evidence: [{ kind: 'doc', summary: 'ADR 1', uri: 'https://example.com/adr/1' }],
    },
  ],
  'post /v1/decisions/check': [
    { action: 'git push --force origin main', path: 'services/api' },
    { choice: 'Tier L', point: 'tier', all_options: ['Tier S', 'Tier M', 'Tier L'] },
    { choice: ['Lint', 'Unit'], point: 'checks' },
    { choice: 'Kafka' },
  ],
  'post /v1/decisions/{key}/supersede': [{ by: 'D-100', reason: 'replaced' }],
  'post /v1/decisions/{key}/accept': [{}, { reason: 'agreed' }],
  'post /v1/maintenance/decay-scan': [{ force: true }, {}, { force: true, now: '2026-07-01T10:00:00Z' }],
}

type App = Awaited<ReturnType<typeof createTestApp>>['app']
type Sent = { method: string; template: string; params: Record<string, string>; query: Record<string, string>; body?: Json; mutation?: Mutation & { in: string }; authorization?: string }
type Problem = { kind: string; where: string; detail: string }

/** A request to an operation: valid parts from its schemas, maybe one of them broken. */
function requestOf(doc: Document, method: string, template: string, op: Operation, authorization: fc.Arbitrary<string | undefined>): fc.Arbitrary<Sent> {
  const parameters = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query')
  const bodySchema = op.requestBody?.content['application/json']?.schema
  const paramArbs = Object.fromEntries(parameters.map((p) => [`${p.in}:${p.name}`, p.required === true ? arbitraryOf(doc, p.schema) : fc.option(arbitraryOf(doc, p.schema), { nil: undefined, freq: 2 })]))
  const real = REAL_BODIES[`${method} ${template}`] ?? []
  const bodies = bodySchema === undefined ? fc.constant(undefined) : real.length === 0 ? arbitraryOf(doc, bodySchema) : fc.oneof(arbitraryOf(doc, bodySchema), fc.constantFrom(...real), fc.constantFrom(...real))
  const valid = fc.record({ parts: fc.record(paramArbs), body: bodies })
  return fc.tuple(valid, fc.nat(9), fc.string({ maxLength: 30 }), authorization, fc.constantFrom('__proto__', '\ud800', 'x'.repeat(300), '!x', ' ', '%', 'a/b', '2026-02-30T10:00:00Z', '-1', '99999')).chain(([v, dice, text, auth, odd]) => {
    const params: Record<string, string> = {}
    const query: Record<string, string> = {}
    for (const [key, value] of Object.entries(v.parts)) {
      if (value === undefined) continue
      const [where, name] = key.split(':') as [string, string]
      ;(where === 'path' ? params : query)[name] = String(value)
    }
    const base: Sent = { method, template, params, query, body: v.body as Json | undefined, ...(auth === undefined ? {} : { authorization: auth }) }
    if (dice < 3 || (bodySchema === undefined && parameters.length === 0)) return fc.constant(base)
    if ((dice < 6 || bodySchema === undefined) && parameters.length > 0) {
      // One parameter given something odd.
      return fc.constantFrom(...parameters).map((p) => {
        const value = dice % 2 === 0 ? odd : text
        const out = { ...base, params: { ...params }, query: { ...query } }
        ;(p.in === 'path' ? out.params : out.query)[p.name] = value
        return { ...out, mutation: { kind: 'param', at: [p.name], in: p.in } }
      })
    }
    return mutated(v.body).map(({ value, mutation }) => ({ ...base, body: value, mutation: { ...mutation, in: 'body' } }))
  })
}

function departuresOfRequest(doc: Document, op: Operation, sent: Sent) {
  const out: Array<{ path: string; why: string }> = []
  for (const p of op.parameters ?? []) {
    const value = p.in === 'path' ? sent.params[p.name] : p.in === 'query' ? sent.query[p.name] : undefined
    if (p.in !== 'path' && p.in !== 'query') continue
    if (value === undefined) {
      if (p.required === true) out.push({ path: p.name, why: 'required, missing' })
    } else out.push(...departures(doc, p.schema, value, p.name))
  }
  const bodySchema = op.requestBody?.content['application/json']?.schema
  if (bodySchema !== undefined) out.push(...departures(doc, bodySchema, sent.body === undefined ? {} : sent.body))
  return out
}

const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`) || a === '' || b === ''

const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/
const LONE_SURROGATE_ONLY = /^[\ud800-\udfff]$/
function wtf8(unit: number) {
  return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
}

/**
 * Rules the document states in words (a description) where its JSON Schema cannot: a request its
 * schema takes may be refused for them, by an issue with one of these messages.
 */
const WORDED = [
  /differs from multi_select: give one of the two/, // ObservationInput, RecommendationRequest, DecisionCheck: multiSelect and multi_select
  /differs from (key|rationale): give one of the two/, // DecisionInput: the seed's names id and reasoning beside key and rationale
  /a choice question .*2 to 4 options/, // PlanRequest.questions[].options, for a choice question only
  /an http:\/\/ or https:\/\/ URL/, // the hook's service_url: a URL with a host
  /not a calendar date|a day from 1970-01-01/, // DecisionInput.date: a day that exists, from 1970 to tomorrow
  /names no option and no text/, // user_choice of commas alone
  /characters once normalised/, // a label: its maxLength is as sent, its limit once normalised
  /lone surrogates/, // identifiers and ids: said in some descriptions, in no pattern
  /invisible characters (?:at its ends|alone): .*\\ud[89ab][0-9a-f]{2}\\ud[c-f]/, // a written name's invisible characters above U+FFFF at its ends: escaped by their code units, in no pattern
  /more than 64 levels deep/, // any body: README, Limits
  /give at least one record/, // DecisionImport: records, or the folder they were read from
  /question texts must be unique/, // PlanRequest.questions: answers are keyed by the text
  /not taken with a PreToolUse/, // the hook's `at`: for a capture sent late
  /required for AskUserQuestion events/, // the hook's tool_use_id: the idempotency key of a capture
  /must be a string at a (PreToolUse|PostToolUse)/, // the hook's tool_name: anything at another event, a string at a tool event
  /cannot name itself|cannot be superseded by .*, which it supersedes/, // DecisionImport: supersede links that close a loop
  /give the user in the (body|path), not in the query/, // `?user=` where the user is the body's or the path's: must name that one
]
/** PlanRequest's AskUserQuestion fields the service ignores: listed as objects (for Gemini's function schemas, README), taken as anything. */
const IGNORED_FIELDS = /^(answers|annotations|metadata)(\.|$)/

/** Sends a request and says where its answer departs from the document. */
async function check(doc: Document, app: App, sent: Sent, problems: Problem[], statuses: number[]) {
  const op = doc.paths[sent.template]?.[sent.method] as Operation
  // A lone surrogate has no UTF-8: a path carries the bytes it would have had (WTF-8), a query its U+FFFD.
  const encode = (value: string) =>
    value
      .split(LONE_SURROGATE)
      .map((part) => (LONE_SURROGATE_ONLY.test(part) ? wtf8(part.charCodeAt(0)) : encodeURIComponent(part)))
      .join('')
  for (const [name, value] of Object.entries(sent.query)) sent.query[name] = value.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd')
  let path = sent.template.replace(/\{([^}]+)\}/g, (_, name: string) => encode(sent.params[name] ?? ''))
  const search = new URLSearchParams(Object.entries(sent.query)).toString()
  if (search !== '') path += `?${search}`
  const text = sent.body === undefined ? undefined : JSON.stringify(sent.body)
  const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' }
  if (sent.authorization !== undefined) headers.authorization = sent.authorization
  const response = await app.request(path, { method: sent.method.toUpperCase(), headers, body: text })
  statuses.push(response.status)
  const where = `${sent.method.toUpperCase()} ${sent.template} → ${response.status}`
  const raw = await response.text()
  const problem = (kind: string, detail: string) => problems.push({ kind, where, detail: `${detail}\n  sent ${path} ${text?.slice(0, 400) ?? ''}\n  mutation ${JSON.stringify(sent.mutation)}\n  answer ${raw.slice(0, 600)}` })
  if (response.status >= 500) return problem('5xx', 'a server error')
  // A path parameter that is empty, a dot segment or holds a slash names another route, or none.
  if ((response.status === 404 || response.status === 405) && Object.values(sent.params).some((v) => v === '' || v === '.' || v === '..' || v.includes('/'))) return
  const documented = op.responses[String(response.status)]
  if (documented === undefined) return problem('status', 'status not documented')
  const [type, media] = Object.entries(documented.content ?? {})[0] ?? []
  if (type !== 'application/json') return
  let json: any
  try {
    json = JSON.parse(raw)
  } catch {
    return problem('not-json', 'documented JSON, not JSON')
  }
  for (const d of departures(doc, (media as { schema: Schema }).schema, json, '', true)) problem('answer-schema', `${d.path || '(body)'}: ${d.why}`)
  const sentDepartures = departuresOfRequest(doc, op, sent)
  if (response.status >= 400) {
    const error = json?.error
    if (error?.request_id !== response.headers.get('x-request-id')) problem('request-id', `request_id ${error?.request_id} is not the X-Request-Id ${response.headers.get('x-request-id')}`)
    // Every refusal names what it refuses: but the token's (401, 403) and the body's size (413), which no field is.
    if (![401, 403, 413].includes(response.status) && (error?.issues?.length ?? 0) === 0) problem('no-issue', `${error?.code} names no field`)
    if (response.status === 400 && error?.code === 'invalid_request') {
      const issues = error.issues as Array<{ path: string; message: string }>
      if (issues.some((i) => WORDED.some((w) => w.test(i.message)))) return
      // ClaudeCodeHookPayload documents tool_input and tool_response as anything: they are read as the tool's own.
      if (sent.template === '/v1/hooks/claude-code' && issues.every((i) => /^tool_(input|response)(\.|$)/.test(i.path))) return
      // A toggle's id and user are documented as a read takes them, with the spaced ones refused in words: a session not stored is started, and its names written.
      if (sent.template === '/v1/sessions/{id}/personalization' && issues.every((i) => ['id', 'user'].includes(i.path) && /^no (spaces|invisible characters|spaces or invisible characters) at its ends|(white space|invisible characters) alone/.test(i.message))) return
      if (sentDepartures.length === 0) problem('refused-documented', `the document takes this request: ${JSON.stringify(error.issues)}`)
      else {
        const issuePaths = (error.issues as Array<{ path: string }>).map((i) => (i.path === '(body)' ? '' : i.path))
        if (!sentDepartures.some((d) => issuePaths.some((p) => related(p, d.path)))) {
          problem('issue-path', `issues ${JSON.stringify(issuePaths)} name none of ${JSON.stringify(sentDepartures)}`)
        }
      }
    }
  } else if (sentDepartures.filter((d) => !IGNORED_FIELDS.test(d.path)).length > 0) problem('accepted-undocumented', `taken though the document refuses it: ${JSON.stringify(sentDepartures)}`)
}

function operationsOf(doc: Document) {
  return Object.entries(doc.paths).flatMap(([template, ops]) => Object.entries(ops).map(([method, op]) => ({ template, method, op })))
}

/** Every operation of the document, sent valid and broken requests; the answers' statuses, as counted. */
async function conform(numRuns: number, seed: number, withAuth = false) {
  const { app } = await createTestApp(withAuth ? { auth: testTokens } : {})
  // With --auth: alice's token, bob's, one for every user, none, or one that is no token.
  const authorization = withAuth ? fc.constantFrom(`Bearer ${ALICE}`, `Bearer ${BOB}`, `Bearer ${OPS}`, undefined, 'Bearer nope', ALICE) : fc.constant(undefined)
  const doc = (await (await app.request('/openapi.json', { headers: { authorization: `Bearer ${OPS}` } })).json()) as Document
  const statuses: number[] = []
  for (const { template, method, op } of operationsOf(doc)) {
    await fc.assert(
      fc.asyncProperty(requestOf(doc, method, template, op, authorization), async (sent) => {
        const problems: Problem[] = []
        await check(doc, app, sent, problems, statuses)
        if (problems.length > 0) throw new Error(problems.map((p) => `${p.kind}: ${p.where}: ${p.detail}`).join('\n'))
      }),
      { numRuns, seed },
    )
  }
  return statuses
}

/** Sends one request and checks its answer against the document: the JSON, or the text of a non-JSON answer. */
async function documented(doc: Document, app: App, method: string, template: string, path: string, body: unknown, problems: Problem[]): Promise<{ status: number; json?: any; text: string }> {
  const text = body === undefined ? undefined : JSON.stringify(body)
  const response = await app.request(path, { method: method.toUpperCase(), headers: text === undefined ? {} : { 'content-type': 'application/json' }, body: text })
  const raw = await response.text()
  const where = `${method.toUpperCase()} ${path} → ${response.status}`
  const problem = (kind: string, detail: string) => problems.push({ kind, where, detail: `${detail}\n  sent ${text?.slice(0, 400) ?? ''}\n  answer ${raw.slice(0, 600)}` })
  const answer = doc.paths[template]?.[method]?.responses[String(response.status)]
  if (response.status >= 500 || answer === undefined) {
    problem('status', 'status not documented')
    return { status: response.status, text: raw }
  }
  const [type, media] = Object.entries(answer.content ?? {})[0] ?? []
  if (type !== 'application/json') return { status: response.status, text: raw }
  const json = JSON.parse(raw)
  for (const d of departures(doc, (media as { schema: Schema }).schema, json, '', true)) problem('answer-schema', `${d.path || '(body)'}: ${d.why}`)
  return { status: response.status, json, text: raw }
}

const USERS = ['alice', 'bob', '__proto__', 'constructor']
const POINTS = [
  { point: 'tier', question: 'Which complexity tier?', options: ['Tier S', 'Tier M', 'Tier L', '__proto__'], multi: false },
  { point: 'toString', question: 'Which checks should run?', options: ['Lint', 'constructor', { label: 'E2E', description: 'slow' }], multi: true },
]
const labelOf = (o: string | { label: string }) => (typeof o === 'string' ? o : o.label)
type Step =
  | { kind: 'observe'; user: string; at: number; choice: number[]; decision?: string; project?: string; session: string; twice: boolean }
  | { kind: 'recommend'; user: string; at: number; session?: string }
  | { kind: 'hook'; user: string; at: number; toolUse: string; session: string }
  | { kind: 'toggle'; user: string; at: number; session: string; enabled: boolean }
  | { kind: 'forget' | 'export' | 'preferences' | 'why'; user: string; at: number }
  | { kind: 'propose'; user: string; at: number; key: string; enforce: string; accepted: boolean; constraint: string; option: number; supersedes?: string }
  | { kind: 'transition'; user: string; at: number; key: string; to: string }

const someUser = fc.oneof({ weight: 3, arbitrary: fc.constant('alice') }, { weight: 2, arbitrary: fc.constantFrom(...USERS) })
const KEYS = ['D-1', 'D-2', 'D-3']
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('observe' as const),
      user: someUser,
      at: fc.nat(POINTS.length - 1),
      choice: fc.uniqueArray(fc.nat(3), { minLength: 1, maxLength: 3 }),
      decision: fc.option(fc.constantFrom('d-1', '__proto__', 'constructor'), { nil: undefined, freq: 3 }),
      project: fc.option(fc.constantFrom('acme/api', 'toString'), { nil: undefined }),
      session: fc.constantFrom('s-1', 's-2', 'hasOwnProperty'),
      twice: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      { kind: fc.constant('recommend' as const), user: someUser, at: fc.nat(POINTS.length - 1), session: fc.option(fc.constantFrom('s-1', 's-2'), { nil: undefined }) },
      { requiredKeys: ['kind', 'user', 'at'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('hook' as const), user: someUser, at: fc.constant(0), toolUse: fc.constantFrom('toolu_1', 'toolu_2', '__proto__'), session: fc.constantFrom('s-1', 's-2') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('toggle' as const), user: someUser, at: fc.constant(0), session: fc.constantFrom('s-1', 's-2'), enabled: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('forget' as const, 'export' as const, 'preferences' as const, 'why' as const), user: someUser, at: fc.nat(POINTS.length - 1) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('propose' as const),
      user: fc.constant('alice'),
      at: fc.constant(0),
      key: fc.constantFrom(...KEYS),
      enforce: fc.constantFrom('required', 'advisory'),
      accepted: fc.boolean(),
      constraint: fc.constantFrom('must', 'must_not', 'prefer'),
      option: fc.nat(3),
      supersedes: fc.option(fc.constantFrom(...KEYS), { nil: undefined, freq: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('transition' as const), user: fc.constant('alice'), at: fc.constant(0), key: fc.constantFrom(...KEYS), to: fc.constantFrom('accept', 'deprecate', 'revoke') }),
  },
)

/** Every decision's why cites decisions that exist, and holds at most one in force (R-CON-5). */
async function checkChains(doc: Document, app: App, problems: Problem[], fail: (kind: string, detail: string) => void) {
  const all = ((await (await app.request('/v1/decisions')).json()) as { decisions: unknown }).decisions as Array<{ key: string; status: string; supersedes: string | null; superseded_by: string | null }>
  const keys = new Set(all.map((d) => d.key))
  for (const d of all) {
    if (d.supersedes !== null && !keys.has(d.supersedes)) fail('R-CON-5', `${d.key} supersedes ${d.supersedes}, which does not exist`)
    if (d.superseded_by !== null && !keys.has(d.superseded_by)) fail('R-CON-5', `${d.key} is superseded by ${d.superseded_by}, which does not exist`)
    if (d.status === 'superseded' && d.superseded_by === null) fail('R-CON-5', `${d.key} is superseded by nothing`)
    const { status, json } = await documented(doc, app, 'get', '/v1/decisions/{key}/why', `/v1/decisions/${d.key}/why`, undefined, problems)
    if (status !== 200) { fail('why', `${d.key}: ${status} ${JSON.stringify(json)}`); continue }
    for (const link of json.chain as Array<{ key: string }>) if (!keys.has(link.key)) fail('R-CON-5', `${d.key}'s chain cites ${link.key}, which does not exist`)
    if (json.in_force !== null && all.find((x) => x.key === json.in_force)?.status !== 'accepted') fail('R-CON-5', `${d.key}'s in_force ${json.in_force} is not accepted`)
  }
}

/** Runs steps against a fresh app and a model of what it must hold; says where the two part. */
async function runSteps(steps: Step[], problems: Problem[]) {
  const { app } = await createTestApp()
  const doc = (await (await app.request('/openapi.json')).json()) as Document
  // The model: per user, the decision_ids seen and the observations held per point.
  const seen = new Map<string, Set<string>>()
  const held = new Map<string, number[]>()
  const counts = (user: string) => held.get(user) ?? POINTS.map(() => 0)
  // When each was made, per user and point: a replay (R-REC-9) counts those up to its as_of.
  const times = new Map<string, number[][]>()
  // The hook's captures, per user: the tool_use_ids seen and the observations they made; personalization per user and session.
  const hooked = new Map<string, Set<string>>()
  const off = new Set<string>()
  const total = (user: string) => counts(user).reduce((a, b) => a + b, 0) + (hooked.get(user)?.size ?? 0)
  let index = 0
  const fail = (kind: string, detail: string) => problems.push({ kind, where: `step ${index}`, detail })
  let minute = 0
  // The users forgotten with nothing done for them since: their export must be its header and end line alone.
  const forgotten = new Set<string>()
  for (const [i, s] of steps.entries()) {
    index = i
    if (s.kind !== 'export' && s.kind !== 'preferences') forgotten.delete(s.user)
    const p = POINTS[s.at] as (typeof POINTS)[number]
    const user = encodeURIComponent(s.user)
    if (s.kind === 'observe') {
      minute += 1
      const labels = s.choice.map((i) => (i < p.options.length ? labelOf(p.options[i] as string) : `free text ${i}`))
      const one = {
        question: p.question, all_options: p.options, user: s.user, session_id: s.session, point: p.point, multi_select: p.multi,
        user_choice: p.multi ? labels : labels[0], timestamp: new Date(Date.parse('2026-07-01T09:00:00.000Z') + minute * 1000).toISOString(),
        ...(s.decision === undefined ? {} : { decision_id: s.decision }), ...(s.project === undefined ? {} : { project: s.project }),
      }
      const body = s.twice ? [one, one] : one
      const { status, json } = await documented(doc, app, 'post', '/v1/observations', '/v1/observations', body, problems)
      if (status !== 201) { fail('observe', `${status} ${JSON.stringify(json)}`); continue }
      const ids = seen.get(s.user) ?? new Set<string>()
      const fresh = s.decision === undefined ? (s.twice ? 2 : 1) : ids.has(s.decision) ? 0 : 1
      const duplicates = (s.twice ? 2 : 1) - fresh
      if (json.stored.length !== fresh || json.duplicates.length !== duplicates) fail('R-CAP-2', `expected ${fresh} stored, ${duplicates} duplicates: ${JSON.stringify(json)}`)
      if (s.decision !== undefined) ids.add(s.decision)
      seen.set(s.user, ids)
      const c = counts(s.user)
      c[s.at] = (c[s.at] as number) + fresh
      held.set(s.user, c)
      const t = times.get(s.user) ?? POINTS.map(() => [])
      for (let k = 0; k < fresh; k++) t[s.at]?.push(minute)
      times.set(s.user, t)
    } else if (s.kind === 'recommend') {
      if (minute > 0) {
        const then = Math.ceil(minute / 2)
        const as_of = new Date(Date.parse('2026-07-01T09:00:00.000Z') + then * 1000).toISOString()
        const replay = { question: p.question, all_options: p.options, user: s.user, point: p.point, multi_select: p.multi, as_of }
        const { status, json } = await documented(doc, app, 'post', '/v1/recommendations', '/v1/recommendations', replay, problems)
        const expected = (times.get(s.user)?.[s.at] ?? []).filter((m) => m <= then).length
        if (status !== 200) fail('recommend', `${status} ${JSON.stringify(json)}`)
        else if (json.observations !== expected) fail('R-REC-9', `as of ${as_of}: ${json.observations} observations, ${expected} made by then`)
      }
      const body = { question: p.question, all_options: p.options, user: s.user, point: p.point, multi_select: p.multi, ...(s.session === undefined ? {} : { session_id: s.session }) }
      const { status, json } = await documented(doc, app, 'post', '/v1/recommendations', '/v1/recommendations', body, problems)
      if (status !== 200) { fail('recommend', `${status} ${JSON.stringify(json)}`); continue }
      const isOff = s.session !== undefined && off.has(`${s.user}\u0000${s.session}`)
      if (json.state !== 'enforced' && isOff !== (json.state === 'personalization-off')) fail('R-SES-3', `state ${json.state}, personalization ${isOff ? 'off' : 'on'}`)
      // Decisions bound to the point: a required must fixes it, a required must_not takes an option out of the offer.
      type Listed = { key: string; enforce: string; date: string; updated_at: string; constraints: Array<{ kind: string; option?: string }> }
      const listed = ((await (await app.request(`/v1/decisions?point=${p.point}&status=accepted`)).json()) as { decisions: unknown }).decisions as Listed[]
      // Newest first, by code unit: by date, then last change, then key as listed. Of contradicting required decisions, the newer holds.
      const order = (a: Listed, b: Listed) => [b.date, b.updated_at, b.key].join('\u0000') < [a.date, a.updated_at, a.key].join('\u0000') ? -1 : 1
      const required = listed.filter((d) => d.enforce === 'required').sort(order)
      const naming = (option: string | undefined) => required.find((d) => d.constraints.some((c) => (c.kind === 'must' || c.kind === 'must_not') && c.option === option))
      const holding = required.flatMap((d) => d.constraints.filter((c) => c.kind === 'must' && naming(c.option) === d).map((c) => c.option))
      const musts = new Set(required.flatMap((d) => d.constraints.filter((c) => c.kind === 'must').map((c) => c.option)))
      const mustNots = new Set(required.flatMap((d) => d.constraints.filter((c) => c.kind === 'must_not').map((c) => c.option)))
      const offered = p.options.map((o) => labelOf(o as string)).filter((o) => musts.size > 0 || !mustNots.has(o)).sort()
      const given = (json.options as Array<{ option: string }>).map((o) => o.option).sort()
      if (musts.size === 0 && mustNots.size === 0 && JSON.stringify(offered) !== JSON.stringify(given)) fail('options-cover', `options ${JSON.stringify(given)} are not all_options ${JSON.stringify(offered)}`)
      if (musts.size === 0 && mustNots.size > 0 && !given.every((o) => !mustNots.has(o))) fail('R-CON-2', `options ${JSON.stringify(given)} keep a required must_not of ${JSON.stringify([...mustNots])}`)
      // The newest required must whose option no newer required must_not rules out fixes the answer.
      if (!p.multi && holding.length > 0 && (json.state !== 'enforced' || json.recommended !== holding[0])) fail('R-CON-2', `accepted required must ${holding[0]} holds: state ${json.state}, recommended ${JSON.stringify(json.recommended)}`)
      // Required decisions that contradict each other: named, and the question asked.
      const contradicting = (!p.multi && musts.size > 1) || [...musts].some((o) => mustNots.has(o))
      if (contradicting && (json.ask !== true || (json.conflicts ?? []).length === 0)) fail('R-CON-2', `contradicting required decisions: ask ${json.ask}, conflicts ${JSON.stringify(json.conflicts)}`)
      if (musts.size === 0 && json.state === 'enforced' && mustNots.size === 0) fail('R-CON-2', `enforced with no required decision in force: ${JSON.stringify(listed)}`)
      if (json.observations !== (counts(s.user)[s.at] as number)) fail('observations', `${json.observations} observations, the user made ${counts(s.user)[s.at]}`)
    } else if (s.kind === 'forget') {
      const { status, json } = await documented(doc, app, 'delete', '/v1/users/{user}', `/v1/users/${user}`, undefined, problems)
      if (status !== 200) { fail('forget', `${status} ${JSON.stringify(json)}`); continue }
      seen.delete(s.user)
      held.delete(s.user)
      times.delete(s.user)
      hooked.delete(s.user)
      forgotten.add(s.user)
      for (const key of [...off]) if (key.startsWith(`${s.user}\u0000`)) off.delete(key)
    } else if (s.kind === 'export') {
      const { status, text } = await documented(doc, app, 'get', '/v1/users/{user}/export', `/v1/users/${user}/export`, undefined, problems)
      if (status !== 200) { fail('export', `${status} ${text}`); continue }
      const lines = text.trim().split('\n').map((l) => JSON.parse(l))
      const observations = lines.filter((l) => l.type === 'observation')
      const expected = total(s.user)
      if (lines[0]?.type !== 'export' || lines[0]?.user !== s.user) fail('export', `header ${JSON.stringify(lines[0])}`)
      if (lines.at(-1)?.type !== 'end' || lines.at(-1)?.counts?.observation !== observations.length) fail('export', `end ${JSON.stringify(lines.at(-1))}`)
      if (observations.length !== expected) fail('R-SVC-5', `export has ${observations.length} observations, expected ${expected}`)
      if (observations.some((o) => o.data?.user !== s.user)) fail('R-SVC-5', 'an observation of another user exported')
      if (forgotten.has(s.user) && lines.length !== 2) fail('R-SVC-5', `a forgotten user's export holds ${text}`)
    } else if (s.kind === 'propose') {
      const option = labelOf(POINTS[0]?.options[s.option] as string)
      const body = {
        key: s.key, title: `Decide ${s.key}`, decision: `${s.constraint} ${option}`, rationale: 'Because', enforce: s.enforce, status: s.accepted ? 'accepted' : 'proposed',
        scope: { points: [POINTS[0]?.point] }, constraints: [s.constraint === 'must_not' ? { kind: 'must_not', option } : { kind: s.constraint, option }],
        ...(s.supersedes === undefined ? {} : { supersedes: s.supersedes }),
      }
      const { status, json } = await documented(doc, app, 'post', '/v1/decisions', '/v1/decisions', body, problems)
      if (status >= 500) fail('propose', `${status} ${JSON.stringify(json)}`)
      await checkChains(doc, app, problems, fail)
    } else if (s.kind === 'transition') {
      const { status, json } = await documented(doc, app, 'post', `/v1/decisions/{key}/${s.to}`, `/v1/decisions/${s.key}/${s.to}`, {}, problems)
      if (status >= 500) fail('transition', `${status} ${JSON.stringify(json)}`)
      await checkChains(doc, app, problems, fail)
    } else if (s.kind === 'hook') {
      const payload = claudeCodeFixture('post-tool-use-single')
      payload.tool_use_id = s.toolUse
      payload.session_id = s.session
      const { status, json } = await documented(doc, app, 'post', '/v1/hooks/claude-code', `/v1/hooks/claude-code?user=${user}`, payload, problems)
      if (status !== 200) { fail('hook', `${status} ${JSON.stringify(json)}`); continue }
      const ids = hooked.get(s.user) ?? new Set<string>()
      ids.add(s.toolUse)
      hooked.set(s.user, ids)
    } else if (s.kind === 'toggle') {
      const { status, json } = await documented(doc, app, 'put', '/v1/sessions/{id}/personalization', `/v1/sessions/${s.session}/personalization`, { enabled: s.enabled, user: s.user }, problems)
      if (status !== 200) { fail('toggle', `${status} ${JSON.stringify(json)}`); continue }
      if (s.enabled) off.delete(`${s.user}\u0000${s.session}`)
      else off.add(`${s.user}\u0000${s.session}`)
    } else if (s.kind === 'why') {
      const { status, json } = await documented(doc, app, 'get', '/v1/why', `/v1/why?user=${user}&point=${p.point}`, undefined, problems)
      if (status === 404 && counts(s.user)[s.at] === 0) continue
      if (status !== 200) { fail('why', `${status} ${JSON.stringify(json)}`); continue }
      const exported = await (await app.request(`/v1/users/${user}/export`)).text()
      const ids = new Set(exported.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'observation').map((l) => l.data.id))
      const cited = JSON.stringify(json).match(/obs-[a-z0-9]+-[0-9a-f]+/g) ?? []
      for (const id of cited) if (!ids.has(id)) fail('R-CON-5', `why cites ${id}, which the user's export does not hold`)
    } else {
      const { status, json } = await documented(doc, app, 'get', '/v1/users/{user}/preferences', `/v1/users/${user}/preferences`, undefined, problems)
      if (status !== 200) { fail('preferences', `${status} ${JSON.stringify(json)}`); continue }
      const c = counts(s.user)
      for (const [i, pt] of POINTS.entries()) {
        const listed = (json.points as Array<{ point: string; observations: number }>).find((x) => x.point === pt.point)
        if (forgotten.has(s.user) && listed !== undefined) fail('R-SVC-5', `a forgotten user's preferences list ${pt.point}`)
        if ((c[i] as number) > 0 && listed === undefined) fail('preferences', `${pt.point} not listed, ${c[i]} observations held`)
        // Unless it found a change of preference, when it counts the recent choices alone.
        const changed = (listed as { changed_since?: unknown } | undefined)?.changed_since != null
        if (listed !== undefined && !changed && listed.observations !== c[i]) fail('preferences-count', `${pt.point}: ${listed.observations} observations, ${c[i]} held`)
      }
      if (minute === 0) continue
      // As of a moment (R-REC-9): the points asked by then, each with the choices made by then.
      const then = Math.ceil(minute / 2)
      const as_of = new Date(Date.parse('2026-07-01T09:00:00.000Z') + then * 1000).toISOString()
      const replay = await documented(doc, app, 'get', '/v1/users/{user}/preferences', `/v1/users/${user}/preferences?as_of=${as_of}`, undefined, problems)
      if (replay.status !== 200) { fail('preferences', `${replay.status} ${replay.text}`); continue }
      for (const [i, pt] of POINTS.entries()) {
        const listed = (replay.json.points as Array<{ point: string; observations: number; changed_since?: unknown }>).find((x) => x.point === pt.point)
        const expected = (times.get(s.user)?.[i] ?? []).filter((m) => m <= then).length
        if (expected === 0 ? listed !== undefined : listed === undefined || (listed.changed_since == null && listed.observations !== expected)) {
          fail('R-REC-9', `preferences as of ${as_of}, ${pt.point}: ${JSON.stringify(listed?.observations)} observations, ${expected} made by then`)
        }
      }
    }
  }
}

// Fixed, so that a run is the same run everywhere; DM_FUZZ_SEED and DM_FUZZ_SCALE widen a search by hand.
const SEED = Number(process.env.DM_FUZZ_SEED ?? 20261204)
const SCALE = Number(process.env.DM_FUZZ_SCALE ?? 1)

describe('the OpenAPI document describes every answer the API gives (R-SVC-1, R-SVC-2)', () => {
  it('the validator reads every keyword the document uses', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as Document
    expect(unknownKeywords(doc)).toEqual([])
  })

  it('every operation, sent requests built from its schemas and broken one part at a time: no 5xx, each answer documented, each refusal naming the field', { timeout: 60_000 * SCALE }, async () => {
    const statuses = await conform(100 * SCALE, SEED)
    // Not a run of refusals alone: the valid requests reach past validation.
    expect(statuses.filter((s) => s < 300).length).toBeGreaterThan(statuses.length / 4)
    expect(statuses.filter((s) => s >= 400).length).toBeGreaterThan(statuses.length / 4)
  })
  it('a request whose URL the document takes but Node’s parser refuses as over its 16 KB of headers: a 431 every operation lists', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as Document
    // The hook's project at its longest, in characters of 4 bytes: 12 once percent-encoded.
    const op = doc.paths['/v1/hooks/claude-code']?.post as Operation
    const project = (op.parameters ?? []).find((p) => p.in === 'query' && p.name === 'project') as Parameter
    const value = '\u{1F642}'.repeat(resolve(doc, project.schema).maxLength as number)
    expect(departures(doc, project.schema, value)).toEqual([])
    // As serve answers what Node's parser refuses, before any route; Node's own limit, as serve leaves it.
    const server: Server = createServer((_req, res) => res.end())
    answerWhatNodeRefuses(server, pino({ level: 'silent' }))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    try {
      const { port } = server.address() as AddressInfo
      const answer = await new Promise<{ status: number; body: Json }>((done, fail) => {
        const sent = request({ port, host: '127.0.0.1', method: 'POST', path: `/v1/hooks/claude-code?project=${encodeURIComponent(value)}` }, (res) => {
          let text = ''
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
          res.on('end', () => done({ status: res.statusCode as number, body: JSON.parse(text) as Json }))
        })
        sent.on('error', fail)
        sent.end()
      })
      expect(answer.status).toBe(431)
      for (const { template, method, op: each } of operationsOf(doc)) {
        const documented = each.responses['431']?.content?.['application/json']?.schema
        expect({ template, method, documented: documented !== undefined }).toEqual({ template, method, documented: true })
        expect(departures(doc, documented as Schema, answer.body, '', true)).toEqual([])
      }
    } finally {
      server.close()
    }
  })
})

describe('the OpenAPI document refuses what the routes refuse', () => {
  it('a word that follows /v1/decisions/ as a route of its own is no key, in any case: in the path, a body, a link', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as Document
    const problems: Problem[] = []
    const statuses: number[] = []
    const proposal = { title: 'Use Postgres', decision: 'Postgres', rationale: 'One database' }
    const record = { title: 'Use Postgres', decision: 'Postgres', rationale: 'One database', status: 'accepted', date: null, origin: { path: 'doc/adr/1.md', line: 1, format: 'madr', folder: 'acme/doc/adr' } }
    // In a path, the words as written are the routes of their own (a 405 for another method); other cases are not.
    for (const word of ['check', 'Import', 'PULSES', 'applicable']) {
      const sent: Sent[] = [
        ...operationsOf(doc)
          .filter(({ op }) => (op.parameters ?? []).some((p) => p.in === 'path' && p.name === 'key'))
          .map(({ template, method, op }) => ({ method, template, params: { key: word === word.toLowerCase() ? word.toUpperCase() : word }, query: {}, ...(op.requestBody === undefined ? {} : { body: (template.endsWith('/supersede') ? { by: 'D-001' } : {}) as Json }) })),
        { method: 'post', template: '/v1/decisions', params: {}, query: {}, body: { ...proposal, key: word } },
        { method: 'post', template: '/v1/decisions', params: {}, query: {}, body: { ...proposal, supersedes: word } },
        { method: 'post', template: '/v1/decisions/{key}/supersede', params: { key: 'D-001' }, query: {}, body: { by: word } },
        { method: 'post', template: '/v1/decisions/import', params: {}, query: {}, body: { records: [{ ...record, key: word }] } },
      ]
      for (const one of sent) await check(doc, app, one, problems, statuses)
    }
    expect(problems.map((p) => `${p.kind}: ${p.where}: ${p.detail}`)).toEqual([])
    expect(new Set(statuses)).toEqual(new Set([400]))
  })

  it('a scope path with spaces at its ends, or a glob, where a path prefix is wanted; a folder in braces is a path', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as Document
    const op = doc.paths['/v1/decisions']?.post as Operation
    const sent = (path: string) => ({ method: 'post', template: '/v1/decisions', params: {}, query: {}, body: { key: 'D-001', title: 'Billing', decision: 'd', rationale: 'r', scope: { path } } as Json })
    for (const path of [' src/billing', 'src/billing ', 'src/billing\u00a0', '\tsrc', 'src/billing/**', 'src/*.ts', 'services/{api,web}']) {
      const response = await app.request('/v1/decisions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify((sent(path) as { body: Json }).body) })
      expect({ path, status: response.status }).toEqual({ path, status: 400 })
      expect(departuresOfRequest(doc, op, sent(path)), path).toContainEqual(expect.objectContaining({ path: 'scope.path' }))
    }
    for (const path of ['src/billing', 'app/{locale}', 'a b/c d', 'src/billing/']) expect(departuresOfRequest(doc, op, sent(path)), path).toEqual([])
  })

  it('a check of neither an action nor a choice, or of options offered without the choice and its point', async () => {
    const { app } = await createTestApp()
    const doc = (await (await app.request('/openapi.json')).json()) as Document
    const op = doc.paths['/v1/decisions/check']?.post as Operation
    for (const body of [{}, { path: 'services/api' }, { point: 'tier' }, { task: 'build', stage: 'run' }] as Json[]) {
      const response = await app.request('/v1/decisions/check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      expect(response.status).toBe(400)
      expect(departuresOfRequest(doc, op, { method: 'post', template: '/v1/decisions/check', params: {}, query: {}, body })).not.toEqual([])
    }
    // The options offered, read with a choice at its point: refused without either.
    for (const body of [{ action: 'git push', all_options: ['A', 'B'] }, { choice: 'A', all_options: ['A', 'B'] }] as Json[]) {
      const response = await app.request('/v1/decisions/check', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      expect(response.status).toBe(400)
      expect(departuresOfRequest(doc, op, { method: 'post', template: '/v1/decisions/check', params: {}, query: {}, body })).not.toEqual([])
    }
    const taken = { method: 'post', template: '/v1/decisions/check', params: {}, query: {} }
    expect(departuresOfRequest(doc, op, { ...taken, body: { choice: 'A', point: 'tier', all_options: ['A', 'B'] } })).toEqual([])
    expect(departuresOfRequest(doc, op, { ...taken, body: { action: 'git push' } })).toEqual([])
    expect(departuresOfRequest(doc, op, { ...taken, body: { choice: 'Tier S', point: 'tier' } })).toEqual([])
  })
})

describe('the OpenAPI document describes every answer the API gives with --auth (R-SVC-4)', () => {
  it('every operation under any token, or none: 401 and 403 documented as the rest', { timeout: 60_000 * SCALE }, async () => {
    const statuses = await conform(50 * SCALE, SEED, true)
    expect(statuses.filter((s) => s === 401 || s === 403).length).toBeGreaterThan(statuses.length / 4)
    expect(statuses.filter((s) => s < 300).length).toBeGreaterThan(statuses.length / 10)
  })
})

describe('sequences of requests keep what the spec promises', () => {
  it('observe, hook, recommend, toggle, decide, forget, export: R-CAP-2, R-SES-3, R-REC-9, R-CON-2, R-CON-5, R-SVC-5, options cover all_options', { timeout: 60_000 * SCALE }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 30, size: 'medium' }), async (steps) => {
        const problems: Problem[] = []
        await runSteps(steps, problems)
        if (problems.length > 0) throw new Error(problems.map((p) => `${p.kind} at ${p.where}: ${p.detail}`).join('\n'))
      }),
      { numRuns: 80 * SCALE, seed: SEED },
    )
  })
})
