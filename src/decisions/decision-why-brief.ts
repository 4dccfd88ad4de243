import type { ChainLink, DecisionWhy } from './decisions'
import { HISTORY_STATUSES } from './point-why-brief'

/**
 * How long (in characters of JSON) a decision's or a file's why the MCP `why` tool gives whole: some
 * 4,000 tokens, well under the 10,000 Claude Code warns at. Longer, it is given in brief.
 */
export const WHOLE_WHY_CHARACTERS = 16_000

/** A link of a chain in brief: one no longer in force without what it said and why (`evidence_count` says how many pieces). */
export type BriefLink = Omit<ChainLink, 'decision' | 'rationale' | 'source' | 'evidence'> &
  Partial<Pick<ChainLink, 'decision' | 'rationale' | 'source' | 'evidence'>> & { evidence_count?: number }

/** `link` whole, or, when `whole` is false and it is no longer in force (superseded, deprecated, revoked), in brief. */
function linkOf(link: ChainLink, whole: boolean): BriefLink {
  if (whole || !HISTORY_STATUSES.has(link.status)) return link
  const { decision: _decision, rationale: _rationale, source: _source, evidence, ...rest } = link
  return { ...rest, evidence_count: (evidence ?? []).length }
}

/** What `left_out` says of the links given in brief, and where they are whole. */
function historySaid(count: number): string {
  return `the decision, rationale, source and evidence of the ${count} no longer in force (superseded, deprecated or revoked; \`why\` with one's \`key\` gives it whole)`
}

/**
 * `GET /v1/decisions/{key}/why` as the MCP `why` tool gives it (R-CON-5): whole when it is within
 * `limit` characters; else each link of its chain no longer in force but the one asked about in
 * brief (a chain of 30 versions was some 67,000 characters), the decision asked about, the one in
 * force and those proposed whole, and `left_out` naming what is left out and the route and command
 * (`commandLine` of the `why` command's arguments) that give it whole as of the same moment.
 */
export function briefDecisionWhy(body: unknown, options: { commandLine: (args: string[]) => string; limit?: number }): unknown {
  if (!isDecisionWhy(body)) return body
  const size = JSON.stringify(body).length
  if (size <= (options.limit ?? WHOLE_WHY_CHARACTERS)) return body
  const chain = body.chain.map((link) => linkOf(link, link.key === body.key))
  const briefed = chain.filter((link) => 'evidence_count' in link).length
  if (briefed === 0) return body
  const query = new URLSearchParams({ as_of: body.as_of })
  const whole = options.commandLine(['why', body.key, '--as-of', body.as_of, '--json'])
  const brief = {
    ...body,
    chain,
    left_out: `Left out: ${historySaid(briefed)}. The whole answer: GET /v1/decisions/${encodeURIComponent(body.key)}/why?${query}, or ${whole}`,
  }
  return shorter(brief, size) ?? body
}

/**
 * `brief`, when its JSON is shorter than the whole answer's `size`: links that said little, given in
 * brief, save less than `left_out` takes, and an answer over the threshold because the decision in
 * force says much was given longer, with less in it.
 */
function shorter<T>(brief: T, size: number): T | undefined {
  return JSON.stringify(brief).length < size ? brief : undefined
}

/** A file's why, as the MCP `why` tool's `file` answers it (whyOfFile). */
interface FileWhy {
  file: string
  path: string
  decisions: Array<{ key: string; from: string; why: DecisionWhy }>
}

/**
 * A file's why as the MCP `why` tool gives it: whole when within `limit` characters; else each chain
 * once, in `chains` (`{keys, current, in_force, proposals}`), each decision of them once, in `links`
 * (those no longer in force in brief), each entry of `decisions` without its `why` but with `chain`,
 * the index of its chain, and `left_out` naming what is left out and the command that prints each
 * entry's whole `why`, a JSON line each (`commandLine` of the `why` command's arguments, run in the
 * folder the file is read from).
 */
export function briefFileWhy(body: unknown, options: { commandLine: (args: string[]) => string; limit?: number }): unknown {
  if (!isFileWhy(body) || JSON.stringify(body).length <= (options.limit ?? WHOLE_WHY_CHARACTERS)) return body
  const chains: Array<{ keys: string[]; current: string; in_force: string | null; proposals: DecisionWhy['proposals'] }> = []
  const chainIndex = new Map<string, number>()
  const links = new Map<string, ChainLink>()
  const decisions = body.decisions.map(({ why, ...entry }) => {
    const keys = why.chain.map((link) => link.key)
    const id = JSON.stringify([keys, why.current, why.in_force])
    let index = chainIndex.get(id)
    if (index === undefined) {
      index = chains.push({ keys, current: why.current, in_force: why.in_force, proposals: why.proposals }) - 1
      chainIndex.set(id, index)
    }
    for (const link of why.chain) if (!links.has(link.key)) links.set(link.key, link)
    return { ...entry, chain: index }
  })
  const given = [...links.values()].map((link) => linkOf(link, false))
  const briefed = given.filter((link) => 'evidence_count' in link).length
  // The moment the chains were read at: the one asked, or the first chain's (each why says its own).
  const asOf = body.decisions[0]?.why.as_of
  const whole = options.commandLine(['why', body.file.startsWith('-') ? `./${body.file}` : body.file, ...(asOf === undefined ? [] : ['--as-of', asOf]), '--json'])
  const parts = ["each decision's events", ...(briefed === 0 ? [] : [historySaid(briefed)])]
  return {
    file: body.file,
    path: body.path,
    decisions,
    chains,
    links: given,
    // The command prints each entry's `why`, one JSON line each, in the order of `decisions`.
    left_out: `Left out: ${parts.join('; ')}. \`why\` with a decision's \`key\` gives that decision whole, with its chain. Each entry's whole \`why\`, a JSON line each in order: ${whole}`,
  }
}

function isDecisionWhy(body: unknown): body is DecisionWhy {
  if (typeof body !== 'object' || body === null) return false
  const { key, chain, as_of } = body as Record<string, unknown>
  return typeof key === 'string' && typeof as_of === 'string' && Array.isArray(chain) && chain.every((l) => typeof l === 'object' && l !== null && typeof (l as { key?: unknown }).key === 'string')
}

function isFileWhy(body: unknown): body is FileWhy {
  if (typeof body !== 'object' || body === null) return false
  const { file, path, decisions } = body as Record<string, unknown>
  return typeof file === 'string' && typeof path === 'string' && Array.isArray(decisions) && decisions.every((d) => typeof d === 'object' && d !== null && isDecisionWhy((d as { why?: unknown }).why))
}
