/** The content types @hono/zod-openapi lets through to a JSON body's validator (its `jsonRequestRegex`); any other is refused 415. */
export const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i

/** A JSON media type without parameters, of the types JSON_REQUEST takes. */
const JSON_ESSENCE = /^application\/([a-z-.]+\+)?json$/i

/** The media type of a content type, without its parameters, if it is JSON. */
const essenceOf = (type: string): string | undefined => {
  const essence = (type.split(';', 1)[0] as string).trim()
  return JSON_ESSENCE.test(essence) ? essence : undefined
}

/**
 * The content type a JSON body is judged by: `type` itself where @hono/zod-openapi takes it, else
 * its media type alone where that is JSON, so that a type written as RFC 9110 allows but as that
 * pattern does not (`application/json ; charset=utf-8`, white space before a `;`, or a `;` with no
 * parameter after it: `parameters = *( OWS ";" OWS [ parameter ] )`) is taken as its JSON. Its
 * parameters are read by nothing: a JSON body is UTF-8 whatever its `charset`. So is a header
 * given twice (`curl -H` twice in another case), which @hono/node-server joins with `, `, where
 * each names JSON: Node itself takes the first. Undefined for a type that is not JSON, which the
 * route refuses (415).
 */
export function jsonTypeOf(type: string): string | undefined {
  if (JSON_REQUEST.test(type)) return type
  const essences = type.split(',').map(essenceOf)
  return essences.every((essence) => essence !== undefined) ? essences[0] : undefined
}
