// zod, extended with `.openapi()` before any schema is built: the schemas of the domain are the
// ones the HTTP routes validate with and document, and zod adds the method only to schemas made
// after the extension.
import { z } from '@hono/zod-openapi'
import { boundSaid } from './zod-issues'

// Every length and range limit said in the service's words, `title: at most 300 characters, not
// 412`, not zod's `Too big: expected string to have <=300 characters`: the map zod falls back to
// when neither the check nor its schema has words of its own (a label's limit and a key's
// emptiness keep theirs). Set here, before any schema is built, for every route, MCP tool, hook
// payload and policy file alike. Error maps are not part of the JSON Schema: the OpenAPI document
// and MCP tools/list are unchanged.
z.config({ customError: (issue) => boundSaid(issue) })

export { z }
