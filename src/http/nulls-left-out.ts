import { z } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { JSON_REQUEST } from './json-type'

/**
 * A field's schema with `null` read as the field left out: clients that write an unset field as
 * null (Python's None through json.dumps, pydantic without exclude_none, Jackson's default, Go
 * pointers without omitempty) were refused (`project: a name (text), not null`), and an export's
 * own lines carry such nulls. The domain never sees the null. The OpenAPI generator documents it,
 * since the field then parses null (`type: [..., "null"]`), and not required, as it parses nothing.
 */
export function nullLeftOut<T extends z.ZodType>(field: T): T {
  return z.preprocess((value) => (value === null ? undefined : value), field) as unknown as T
}

type Schema = z.core.$ZodType

/**
 * `schema` with every optional field of its objects, at any depth (an option's `description`, a
 * question's `header`, a scope's `task`), taking null as left out (nullLeftOut), but for those named
 * in `kept` (by field name, at any depth): one whose absence does what a null did not ask for (a
 * toggle's `enabled`, absent, flips the setting). A field that takes null
 * already (a decision's `source`, an import's `date`) keeps its meaning; a field of its own making
 * (a pipe, a record: a `context`'s values) is not looked into. A part with nothing to change is the
 * same instance, its metadata and cost as they were; one changed is a clone, whose metadata it
 * inherits. Typed as the schema it was: its output is the same, null being read as undefined.
 */
export function nullsLeftOut<T extends z.ZodType>(schema: T, kept: readonly string[] = []): T {
  return rewritten(schema, new Set(kept)) as T
}

function rewritten(schema: Schema, kept: ReadonlySet<string>): Schema {
  const def = schema._zod.def
  switch (def.type) {
    case 'object': {
      const shape = (def as z.core.$ZodObjectDef).shape
      let changed = false
      const fields: Record<string, Schema> = {}
      for (const [name, field] of Object.entries(shape)) {
        const inner = rewritten(field, kept)
        const taken = field._zod.optin !== undefined && !kept.has(name) && !takesNull(field) ? nullLeftOut(inner as z.ZodType) : inner
        if (taken !== field) changed = true
        fields[name] = taken
      }
      return changed ? withParent(schema, { ...def, shape: fields }) : schema
    }
    case 'array': {
      const { element } = def as z.core.$ZodArrayDef
      const inner = rewritten(element, kept)
      return inner === element ? schema : withParent(schema, { ...def, element: inner })
    }
    case 'union': {
      const { options } = def as z.core.$ZodUnionDef
      const inner = options.map((option) => rewritten(option, kept))
      return inner.every((option, i) => option === options[i]) ? schema : withParent(schema, { ...def, options: inner })
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable': {
      const { innerType } = def as z.core.$ZodOptionalDef
      const inner = rewritten(innerType, kept)
      return inner === innerType ? schema : withParent(schema, { ...def, innerType: inner })
    }
    default:
      return schema
  }
}

/** Whether a field takes null already, with a meaning of its own (`source: null`, `date: null`). */
const takesNull = (field: Schema) => z.safeParse(field, null).success

/** A clone of `schema` of another definition that inherits its metadata (`.meta()`, `.openapi()`). */
function withParent(schema: Schema, def: object): Schema {
  return z.core.util.clone(schema, def as z.core.$ZodTypeDef, { parent: true })
}

/** The bodies a whole `null` is refused for, though they may be left out (nullBodyRefused). */
const refusingNull = new WeakSet<object>()

/**
 * `schema`, the body of a route that may go without one, marked as one that a whole body of `null`
 * is not read as none for (see nullBodyLeftOut): no body does what a null did not ask for (a toggle,
 * left without a body, flips the setting), as `kept` says of a field (nullsLeftOut). Its own error
 * says what to send. The same instance.
 */
export function nullBodyRefused<T extends z.ZodType>(schema: T): T {
  refusingNull.add(schema)
  return schema
}

/** Whether a body of `null` is read as none for a route whose body is `schema` and may be left out. */
export const nullReadAsNoBody = (schema: unknown): boolean => !(typeof schema === 'object' && schema !== null && refusingNull.has(schema))

/** A JSON text that is `null` alone, with JSON's own white space about it. */
const NULL_TEXT = /^[ \t\n\r]*null[ \t\n\r]*$/

/**
 * Before the validation of a route whose body may be left out (a session's start, a toggle, a
 * decision's accept, deprecate and revoke, a decay scan): a whole body that is JSON `null` is read
 * as none, as utf8Body (app.ts) reads an empty one, `{}`. A client that serialises the payload it
 * was given, none (`json.dumps(None)`), sends it; it was refused `(body): expected object, received
 * null` where no body, or `{}`, was taken, as a null optional field is read as left out. A route
 * that needs a body keeps refusing it, naming `(body)`, and so does one whose body is marked
 * nullBodyRefused (a toggle). Its text is the one utf8Body kept.
 */
export const nullBodyLeftOut: MiddlewareHandler = async (c, next) => {
  if (JSON_REQUEST.test(c.req.header('content-type') ?? '') && NULL_TEXT.test(await c.req.text())) {
    // hono's cache holds the promise of the body, as utf8Body sets it.
    ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}')
  }
  await next()
}
