/**
 * Every string a zod schema reads, at any depth, with where it is (`questions[].header`,
 * `all_options[]|1.description`: `[]` an array's item, `|N` a union's Nth member, `{key}` and `{}`
 * a record's keys and values), so that a test can try each with a text no rule of its own names.
 */
export function textLeaves(schema: unknown, where = ''): Array<{ where: string; schema: { safeParse(value: unknown): { success: boolean } } }> {
  const leaves: ReturnType<typeof textLeaves> = []
  const seen = new Set<unknown>()
  const walk = (node: any, at: string) => {
    const def = node?._zod?.def
    if (def === undefined || seen.has(node)) return
    seen.add(node)
    switch (def.type) {
      case 'string':
        leaves.push({ where: at, schema: node })
        return
      case 'object':
        for (const [name, field] of Object.entries(def.shape)) walk(field, `${at}.${name}`)
        if (def.catchall !== undefined) walk(def.catchall, `${at}.*`)
        return
      case 'array':
        return walk(def.element, `${at}[]`)
      case 'union':
        return def.options.forEach((option: unknown, i: number) => walk(option, `${at}|${i}`))
      case 'intersection':
        walk(def.left, at)
        return walk(def.right, at)
      case 'record':
        walk(def.keyType, `${at}{key}`)
        return walk(def.valueType, `${at}{}`)
      case 'tuple':
        def.items.forEach((item: unknown, i: number) => walk(item, `${at}[${i}]`))
        if (def.rest != null) walk(def.rest, `${at}[]`)
        return
      case 'pipe':
        walk(def.in, at)
        return walk(def.out, at)
      case 'lazy':
        return walk(def.getter(), at)
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        return walk(def.innerType, at)
      case 'unknown':
      case 'any':
      case 'custom':
      case 'transform':
      case 'number':
      case 'boolean':
      case 'literal':
      case 'enum':
      case 'null':
      case 'undefined':
      case 'never':
        return
      default:
        // A kind of schema this walk does not know could hide a string: said, not passed over.
        throw new Error(`textLeaves: no walk into a ${def.type} at ${at}`)
    }
  }
  walk(schema, where)
  return leaves
}

/** Texts one of which a string of a route or tool takes, whatever its own rule (a name, a date, a key, a path). */
const TAKEN = ['a', 'Tier S', 'D-1', 'src/a', '2026-01-01', '2026-07-01T09:00:00Z', '12', 'http://x', 'toolu_1']

/**
 * What a string schema makes of a text it takes with a lone surrogate put at its end and at its
 * start: `taken` when it takes either, `refused` when it refuses both, `untried` when it takes none
 * of TAKEN (nothing known to add a surrogate to).
 */
export function loneSurrogateIn(schema: { safeParse(value: unknown): { success: boolean } }): 'taken' | 'refused' | 'untried' {
  const text = TAKEN.find((candidate) => schema.safeParse(candidate).success)
  if (text === undefined) return 'untried'
  return schema.safeParse(`${text}\ud800`).success || schema.safeParse(`\udc00${text}`).success ? 'taken' : 'refused'
}
