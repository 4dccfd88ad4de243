/**
 * Ambiguous repeats of a regular expression: a repeated group whose text can be matched in two ways
 * at each repeat, `(a|a)*`, `(\w|\d)+`, `(test|tests?)+`, `(a|aa)+`. On a text that almost matches,
 * a backtracking engine tries every way, 2^n of them for n repeats: `(\w|\d)+$` took 7 s on 28
 * digits and a `!`, holding the event loop. nestedRepeat sees a repeat inside a repeated group,
 * `(a+)+`; this sees those too, and the others, by the test of Allauzen, Mohri and Rastogi (2008, "General
 * algorithms for testing the ambiguity of finite automata"): the position (Glushkov) automaton of
 * the rule is exponentially ambiguous exactly when a strongly connected component of its product
 * with itself holds a pair of one state and a pair of two different states. Characters are compared
 * on a sample: the printable ASCII, some letters, digits and spaces of other scripts, and each
 * character the rule names, written out or by its escape; anchors, lookarounds and back references match nothing here (a
 * lookaround's own pattern is tested on its own). Pure, and it never throws.
 */

/** A part of the rule: a character (set), a sequence, alternatives, a repeat, or nothing. */
type Node =
  | { kind: 'char'; atom: string }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; items: Node[] }
  | { kind: 'repeat'; item: Node; min: number; max: number; source: string }
  | { kind: 'empty' }

/** A repeat of at most this many is written out; one of more is read as unbounded. */
const MOST_WRITTEN_OUT = 8
/** The most positions a rule is tested with: past it, the test is left out rather than slow. */
const MOST_POSITIONS = 3000
/**
 * The most work the test of one rule takes, a unit for each character of the sample a set is
 * tried on, each follow of a position written and each pair of positions stepped through: past
 * it, the rule is taken rather than the start held. Without it, a rule of 2,900 optional
 * characters repeated took 3 s and 400 MB, within MOST_POSITIONS (now 0.1 s); a list of 300 words
 * repeated, `(?:w0|…|w299)+`, takes 440,000 (0.1 s), the default policy none.
 */
export const MOST_WORK = 2_000_000

/** Work left to the test of a rule; spent past it, it throws, and the rule is taken. */
class Budget {
  constructor(private left: number) {}
  spend(units: number): void {
    this.left -= units
    if (this.left < 0) throw new RangeError('over the work budget')
  }
}

/**
 * The first repeat of `source` (read with `flags`, as the rule is compiled) whose text can be
 * matched in two ways at each repeat, as written in the rule (`(a|a)*`), or undefined; undefined
 * too when finding it would take more than `work` (MOST_WORK).
 */
export function ambiguousRepeat(source: string, flags: string, work = MOST_WORK): string | undefined {
  try {
    const lookarounds: Node[] = []
    const root = parse(source, lookarounds)
    const sample = sampleOf(source)
    const budget = new Budget(work)
    for (const tree of [root, ...lookarounds]) {
      const found = firstAmbiguous(tree, flags, sample, budget)
      if (found !== undefined) return found
    }
  } catch {
    // A rule this reader does not follow is left to the engine, which compiled it.
  }
  return undefined
}

/** What a group of alternatives is told, where they are not all of one character: an example of each way they overlap. */
const ALTERNATIVES_HINT = 'alternatives no text fits two of, nor a run of them another, as (tests?)+ for (test|tests?)+ and a+ for (a|aa)+'
/** What a group of parts is told: a round split in two (parts all optional), or a repeat of varying length repeated. */
const PARTS_HINT =
  'parts that cannot split a round in two, one of them at least required, as (?:a|b)* for (a?b?)*, and one repeat where a repeat of varying length is repeated, as a{2,} for (a{2,3})+'

/** The quantifier that ends a repeat's source (`+`, `*?`, `{1,30}`). */
const QUANTIFIER = /(?:[*+?]|\{\d+(?:,\d*)?\})\??$/

/**
 * How to write `repeat` (one ambiguousRepeat found) so that each text is matched one way, fitted to
 * its group: alternatives of one character each become one set of them (`[\w\d]+` for
 * `(\w|\d)+`); other alternatives are told how alternatives overlap, and a group of parts how its
 * rounds split, each with an example of its kind. A hint for `(\w|\d)+` given of every rule,
 * `(test|tests?)+` and `(a?b?)*` included, fitted none of those.
 */
export function oneWayHint(repeat: string): string {
  let node: Node
  try {
    node = single(parse(repeat, []))
  } catch {
    return ALTERNATIVES_HINT
  }
  if (node.kind !== 'repeat') return PARTS_HINT
  const group = single(node.item)
  if (group.kind === 'alt') {
    const set = oneSet(group.items.map(single))
    const quantifier = QUANTIFIER.exec(repeat)?.[0]
    return set === undefined || quantifier === undefined ? ALTERNATIVES_HINT : `its alternatives, of one character each, as one set, ${set}${quantifier}`
  }
  return holdsAlternatives(group) ? ALTERNATIVES_HINT : PARTS_HINT
}

/** A sequence of one part as that part, as a group's alternatives and a rule of one part are read. */
function single(node: Node): Node {
  return node.kind === 'seq' && node.items.length === 1 ? single(node.items[0] as Node) : node
}

function holdsAlternatives(node: Node): boolean {
  if (node.kind === 'alt') return true
  if (node.kind === 'seq') return node.items.some(holdsAlternatives)
  return node.kind === 'repeat' && holdsAlternatives(node.item)
}

/**
 * Alternatives each of one character written as one character set (`[\w\da-z]`), or undefined
 * where one cannot stand in a set: any character (`.`), a set that is negated, or no character.
 */
function oneSet(alternatives: Node[]): string | undefined {
  const parts: string[] = []
  for (const alternative of alternatives) {
    if (alternative.kind !== 'char') return undefined
    const { atom } = alternative
    if (atom === '.' || atom.startsWith('[^')) return undefined
    const part = atom.startsWith('[') ? literalEdgeDashes(atom.slice(1, -1)) : atom.startsWith('\\') ? atom : /[\\\]^-]/.test(atom) ? `\\${atom}` : atom
    if (part === '' || parts.includes(part)) continue
    parts.push(part)
  }
  return parts.length === 0 ? undefined : `[${parts.join('')}]`
}

/**
 * A set's inside with a `-` at its start or end, a character there, escaped: beside another set's
 * inside it would end a range, `[a-]` and `-` written `[a-\-]`, a range out of order, which a
 * policy pasting the hint refused, and `-` and `[-a]` written `[\--a]`, every character from `-`
 * to `a`, digits and capitals among them.
 */
function literalEdgeDashes(inside: string): string {
  const started = inside.startsWith('-') ? `\\${inside}` : inside
  // A `-` at the end after an even run of backslashes (none, or `\\` escaping one) is unescaped.
  const escapes = /(\\*)-$/.exec(started)?.[1]?.length
  return escapes !== undefined && escapes % 2 === 0 ? `${started.slice(0, -1)}\\-` : started
}

/** The innermost, leftmost repeat whose own automaton (its group repeated) is ambiguous. */
function firstAmbiguous(node: Node, flags: string, sample: string[], budget: Budget): string | undefined {
  const inner = node.kind === 'seq' || node.kind === 'alt' ? node.items : node.kind === 'repeat' ? [node.item] : []
  for (const item of inner) {
    const found = firstAmbiguous(item, flags, sample, budget)
    if (found !== undefined) return found
  }
  // A character repeated alone (`\s+`, `.*`, most repeats of a rule) matches a text one way.
  if (node.kind === 'repeat' && node.max > 1 && node.item.kind !== 'char' && node.item.kind !== 'empty' && exponentiallyAmbiguous(node, flags, sample, budget)) return node.source
  return undefined
}

/** The characters the rule's sets are compared on: the sample, and every one the rule names. */
function sampleOf(source: string): string[] {
  const chars = new Set<string>()
  for (let c = 0x20; c < 0x7f; c++) chars.add(String.fromCharCode(c))
  for (const c of '\t\n\u00a0\u2003\u3000éüßøкЖяαΩ中文アあ한ไ١٣۵߀😀कবகبשաაሀ') chars.add(c)
  for (const c of source) if (c.codePointAt(0)! >= 0x80) chars.add(c)
  // Named by its escape, `\u0905`, `\u{97f}`, `\xc0`, as a range's ends most often are: a set of
  // Devanagari and \p{L} met on no character of the sample.
  for (const m of source.matchAll(/\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/g)) {
    const code = Number.parseInt((m[1] ?? m[2] ?? m[3]) as string, 16)
    if (code >= 0x80 && code <= 0x10ffff) chars.add(String.fromCodePoint(code))
  }
  return [...chars]
}

/** Reads the rule into nodes; a lookaround's pattern goes to `lookarounds`, and matches nothing in place. */
function parse(source: string, lookarounds: Node[]): Node {
  let i = 0
  const alternatives = (): Node => {
    const items: Node[] = [sequence()]
    while (source[i] === '|') {
      i++
      items.push(sequence())
    }
    return items.length === 1 ? (items[0] as Node) : { kind: 'alt', items }
  }
  const sequence = (): Node => {
    const items: Node[] = []
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const start = i
      let item = atom()
      const repeat = quantifier()
      if (repeat !== undefined) item = { kind: 'repeat', item, min: repeat.min, max: repeat.max, source: source.slice(start, i) }
      items.push(item)
    }
    return { kind: 'seq', items }
  }
  const quantifier = (): { min: number; max: number } | undefined => {
    const c = source[i]
    let bounds: { min: number; max: number } | undefined
    if (c === '*') bounds = { min: 0, max: Infinity }
    else if (c === '+') bounds = { min: 1, max: Infinity }
    else if (c === '?') bounds = { min: 0, max: 1 }
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))
      if (m === null) return undefined
      i += m[0].length - 1
      bounds = { min: Number(m[1]), max: m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]) }
    }
    if (bounds === undefined) return undefined
    i++
    if (source[i] === '?') i++
    return bounds
  }
  const atom = (): Node => {
    const c = source[i] as string
    if (c === '(') {
      const look = /^\(\?<?[=!]/.exec(source.slice(i, i + 4))
      const prefix = look !== null ? look[0].length : source.startsWith('(?:', i) ? 3 : /^\(\?<[^=!]/.test(source.slice(i, i + 4)) ? source.indexOf('>', i) + 1 - i : 1
      i += prefix
      const inner = alternatives()
      i++ // the `)`
      if (look === null) return inner
      lookarounds.push(inner)
      return { kind: 'empty' }
    }
    if (c === '[') {
      const start = i
      i += source[i + 1] === '^' ? 2 : 1
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1
      i++
      return { kind: 'char', atom: source.slice(start, i) }
    }
    if (c === '^' || c === '$') {
      i++
      return { kind: 'empty' }
    }
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      if (next === 'b' || next === 'B') {
        i += 2
        return { kind: 'empty' }
      }
      // A back reference matches what its group matched: nothing here.
      const backReference = /^\\(?:[1-9]\d*|k<[^>]*>)/.exec(source.slice(i))
      if (backReference !== null) {
        i += backReference[0].length
        return { kind: 'empty' }
      }
      const escape = /^\\(?:[pP]\{[^}]*\}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|0|[\s\S])/.exec(source.slice(i))
      const text = escape === null ? source.slice(i, i + 2) : escape[0]
      i += text.length
      return { kind: 'char', atom: text }
    }
    // One character, a surrogate pair whole.
    const char = String.fromCodePoint(source.codePointAt(i)!)
    i += char.length
    return { kind: 'char', atom: char }
  }
  const root = alternatives()
  if (i < source.length) throw new Error('unbalanced')
  return root
}

/** A position automaton: each position's characters (a bit per character of the sample) and the positions that may follow it. */
interface Automaton {
  chars: Uint32Array[]
  follow: Array<Set<number>>
  /**
   * Follows written twice, by two parts of the rule: in `(a*)*` the inner repeat's a→a and the
   * outer one's, in `(a?b?)*` the group's a→b and, past a round that ends after a, its repeat's.
   * A set keeps one; the engine tries both.
   */
  twice: Array<[number, number]>
}

/** Glushkov's sets of a part: whether it matches empty text, its first and last positions. */
interface Part {
  nullable: boolean
  first: Set<number>
  last: Set<number>
}

/** Whether `repeat` alone (its group, repeated as written) matches some text in exponentially many ways. */
function exponentiallyAmbiguous(repeat: Node, flags: string, sample: string[], budget: Budget): boolean {
  const automaton: Automaton = { chars: [], follow: [], twice: [] }
  const link = (l: number, f: number) => {
    if (automaton.follow[l]!.has(f)) automaton.twice.push([l, f])
    else automaton.follow[l]!.add(f)
  }
  const charsOf = new Map<string, Uint32Array>()
  const build = (node: Node): Part => {
    if (automaton.chars.length > MOST_POSITIONS) throw new Error('too large')
    switch (node.kind) {
      case 'empty':
        return { nullable: true, first: new Set(), last: new Set() }
      case 'char': {
        let chars = charsOf.get(node.atom)
        if (chars === undefined) {
          budget.spend(sample.length)
          const re = new RegExp(`^(?:${node.atom})$`, flags.replace(/[gy]/g, ''))
          chars = new Uint32Array(Math.ceil(sample.length / 32))
          sample.forEach((c, k) => {
            if (re.test(c)) chars![k >> 5]! |= 1 << (k & 31)
          })
          charsOf.set(node.atom, chars)
        }
        const at = automaton.chars.length
        automaton.chars.push(chars)
        automaton.follow.push(new Set())
        return { nullable: false, first: new Set([at]), last: new Set([at]) }
      }
      case 'alt': {
        const parts = node.items.map(build)
        for (const p of parts) budget.spend(p.first.size + p.last.size)
        return { nullable: parts.some((p) => p.nullable), first: union(parts.map((p) => p.first)), last: union(parts.map((p) => p.last)) }
      }
      case 'seq': {
        let whole: Part = { nullable: true, first: new Set(), last: new Set() }
        for (const item of node.items) whole = concat(whole, build(item))
        return whole
      }
      case 'repeat': {
        // Written out up to MOST_WRITTEN_OUT; past it, or unbounded, as `min` copies (at most 2) and a loop.
        const unbounded = node.max > MOST_WRITTEN_OUT
        const required = unbounded ? Math.min(node.min, 2) : node.min
        let whole: Part = { nullable: true, first: new Set(), last: new Set() }
        for (let k = 0; k < required; k++) whole = concat(whole, build(node.item))
        if (unbounded) {
          const looped = build(node.item)
          budget.spend(looped.last.size * looped.first.size)
          for (const l of looped.last) for (const f of looped.first) link(l, f)
          whole = concat(whole, { ...looped, nullable: true })
        } else {
          // Nested, x(x(x)?)? for x{1,3}, as the engine counts: x?x? would read "xx" two ways, and
          // (\d{1,3},)* as ambiguous, which no text of it is.
          let optional: Part = { nullable: true, first: new Set(), last: new Set() }
          for (let k = required; k < node.max; k++) optional = { ...concat(build(node.item), optional), nullable: true }
          whole = concat(whole, optional)
        }
        return whole
      }
    }
  }
  const concat = (a: Part, b: Part): Part => {
    budget.spend(a.last.size * b.first.size + a.first.size + a.last.size)
    for (const l of a.last) for (const f of b.first) link(l, f)
    return {
      nullable: a.nullable && b.nullable,
      first: a.nullable ? union([a.first, b.first]) : a.first,
      last: b.nullable ? union([a.last, b.last]) : b.last,
    }
  }
  build(repeat)
  return twoWaysRound(automaton, budget)
}

function union(sets: ReadonlyArray<Set<number>>): Set<number> {
  const all = new Set<number>()
  for (const s of sets) for (const x of s) all.add(x)
  return all
}

/**
 * Whether the automaton is exponentially ambiguous (every position of it is reached from its start):
 * a strongly connected component of its product with itself holds a pair of one position, (p, p),
 * and a pair of two, (q, r) (Allauzen, Mohri & Rastogi 2008). Such a cycle runs within one
 * component S of the automaton, and leaves the diagonal where two positions of S that follow one
 * p fit a character alike: so it is found by walking, on one text, from each such pair back to a
 * pair of one position, within S. Each pair stepped through is spent from `budget`.
 */
function twoWaysRound(automaton: Automaton, budget: Budget): boolean {
  const { chars, follow } = automaton
  const meet = (a: number, b: number) => {
    const x = chars[a]!
    const y = chars[b]!
    // One set written twice (its bits shared) fits what it fits, the sample's characters or not: `\p{Script=Cherokee}`.
    if (x === y) return true
    for (let k = 0; k < x.length; k++) if ((x[k]! & y[k]!) !== 0) return true
    return false
  }
  const component = components(follow)
  // A follow written twice on a cycle: two ways round it, on one text, already.
  if (automaton.twice.some(([l, f]) => component[l] === component[f])) return true
  const followWithin = follow.map((next, p) => [...next].filter((q) => component[q] === component[p]))
  const within = (p: number) => followWithin[p]!
  const seen = new Set<number>()
  const size = chars.length
  const queue: number[] = []
  const visit = (a: number, b: number) => {
    const k = a < b ? a * size + b : b * size + a
    if (!seen.has(k)) {
      seen.add(k)
      queue.push(a, b)
    }
  }
  // Walks on from the pairs met so far; true on reaching a pair of one position.
  let at = 0
  const walk = (): boolean | undefined => {
    for (; at < queue.length; at += 2) {
      const nextA = within(queue[at]!)
      const nextB = within(queue[at + 1]!)
      for (const a of nextA) {
        for (const b of nextB) {
          budget.spend(1)
          if (!meet(a, b)) continue
          if (a === b) return true
          visit(a, b)
        }
      }
    }
    return undefined
  }
  // Where the walks leave the diagonal: two positions that follow one, alike. Positions followed
  // by the same ones (the ends of a group's alternatives) are tried once.
  const tried = new Set<string>()
  for (let p = 0; p < size; p++) {
    const next = within(p)
    const key = next.join(',')
    if (next.length < 2 || tried.has(key)) continue
    tried.add(key)
    for (let i = 0; i < next.length; i++) {
      for (let j = i + 1; j < next.length; j++) {
        budget.spend(1)
        if (meet(next[i]!, next[j]!)) visit(next[i]!, next[j]!)
      }
      const found = walk()
      if (found !== undefined) return found
    }
  }
  return false
}

/** The strongly connected component of each position (Tarjan's, iteratively); a position on no cycle has one of its own. */
function components(follow: ReadonlyArray<Set<number>>): number[] {
  const index = new Array<number>(follow.length).fill(-1)
  const low = new Array<number>(follow.length).fill(0)
  const component = new Array<number>(follow.length).fill(-1)
  const onStack = new Array<boolean>(follow.length).fill(false)
  const stack: number[] = []
  let counter = 0
  let found = 0
  for (let root = 0; root < follow.length; root++) {
    if (index[root] !== -1) continue
    const work: Array<{ p: number; next: number[]; at: number }> = []
    const open = (p: number) => {
      index[p] = low[p] = counter++
      stack.push(p)
      onStack[p] = true
      work.push({ p, next: [...follow[p]!], at: 0 })
    }
    open(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      if (frame.at < frame.next.length) {
        const q = frame.next[frame.at++]!
        if (index[q] === -1) open(q)
        else if (onStack[q]) low[frame.p] = Math.min(low[frame.p]!, index[q]!)
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) low[parent.p] = Math.min(low[parent.p]!, low[frame.p]!)
      if (low[frame.p] === index[frame.p]) {
        for (;;) {
          const q = stack.pop()!
          onStack[q] = false
          component[q] = found
          if (q === frame.p) break
        }
        found++
      }
    }
  }
  return component
}
