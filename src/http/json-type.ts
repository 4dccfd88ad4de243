/** The content types @hono/zod-openapi lets through to a JSON body's validator (its `jsonRequestRegex`); any other is refused 415. */
export const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i

/** A JSON media type without parameters, of the types JSON_REQUEST takes. */
const JSON_ESSENCE = /^application\/([a-z-.]+\+)?json$/i

/** The media type of a content type, without its parameters, if it is JSON. */
const essenceOf = (type: string): string | undefined => {
  const essence = (type.split(';', 1)[0] as string).trim()
  return JSON_ESSENCE.test(essence) ? essence : undefined
}

/** The key of the content type a request sent, where utf8Body (app.ts) gave the route another: a 415 quotes it. */
export const SENT_TYPE = 'sentContentType'

/**
 * The types of a Content-Type given more than once, which @hono/node-server joins with `, `: split
 * at each comma outside a quoted parameter value, as no media type holds one (RFC 9110's `token`),
 * or at each comma where a quote is left open.
 */
function typesOf(type: string): string[] {
  if (!type.includes(',')) return [type]
  const types: string[] = []
  let quoted = false
  let start = 0
  for (let i = 0; i < type.length; i++) {
    const character = type[i]
    if (quoted && character === '\\') i++
    else if (character === '"') quoted = !quoted
    else if (character === ',' && !quoted) {
      types.push(type.slice(start, i))
      start = i + 1
    }
  }
  types.push(type.slice(start))
  // A quote left open holds no value: a first type cut short (`a="x`) hid the second in it.
  return quoted ? type.split(',') : types
}

/**
 * The content type a body's route judges it by: `type` itself where @hono/zod-openapi takes it,
 * else its media type alone where that is JSON, so that a type written as RFC 9110 allows but as
 * that pattern does not (`application/json ; charset=utf-8`, white space before a `;`, or a `;` with
 * no parameter after it: `parameters = *( OWS ";" OWS [ parameter ] )`) is taken as its JSON. Its
 * parameters are read by nothing: a JSON body is UTF-8 whatever its `charset`. So is a header
 * given twice (`curl -H` twice in another case), which @hono/node-server joins with `, `, where
 * each names JSON (Node itself takes the first); where one does not, that one, which the route
 * refuses (415), as it refuses any type that is not JSON: that pattern took the two joined where
 * the first had a parameter (`application/json; charset=utf-8, text/plain`, its value read as
 * `utf-8, text/plain`).
 */
export function judgedType(type: string): string {
  const types = typesOf(type)
  if (types.length === 1) return JSON_REQUEST.test(type) ? type : (essenceOf(type) ?? type)
  const essences = types.map(essenceOf)
  const other = essences.indexOf(undefined)
  return other === -1 ? (essences[0] as string) : (types[other] as string).trim()
}
