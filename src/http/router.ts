import { OpenAPIHono } from '@hono/zod-openapi'
import { validationHook } from './errors'

/** A router whose every route answers validation failures the same way. */
export function createRouter() {
  return new OpenAPIHono({ defaultHook: validationHook as never })
}
