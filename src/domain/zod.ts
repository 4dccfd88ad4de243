// zod, extended with `.openapi()` before any schema is built: the schemas of the domain are the
// ones the HTTP routes validate with and document, and zod adds the method only to schemas made
// after the extension.
export { z } from '@hono/zod-openapi'
