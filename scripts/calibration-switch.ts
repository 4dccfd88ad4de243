/**
 * Calibration (R-REC-3) around a switch of favourite, measured on seeded simulated users:
 * stationary users, bursty ones (one day in ten all of another option), a strong switch and a weak one (the new favourite chosen 60% of the time, the
 * old 40%), at 1, 5 and 20 choices a day. Each user has 60 days of history, then 30 days in which
 * every question is asked of the service first: asked, the user chooses; auto-resolved, the
 * recommendation is recorded as such (R-ASK-4), no choice of theirs. The truth is the favourite
 * of the user's current choice probabilities. Prints, per kind and rate, the expected calibration
 * error (10 equal-width bins, Naeini et al. 2015), the share right, and the shares of answers that
 * were `high` and wrong and auto-resolved (ask=false) and wrong. With --weekdays, users choose on
 * weekdays only (no choice on Saturdays and Sundays).
 *
 *   npx tsx scripts/calibration-switch.ts [--users 40] [--seeds 1,2] [--rates 1,5,20] [--kinds stationary,bursty,strong,weak] [--weekdays] [--json]
 */
import { parseFlags, positiveInteger, positiveNumber, readFlags, UsageError } from './flags'
import { categorical, random, simulatedMemory } from '../test/support/seeded'

const DAY = 86_400_000
const HOUR = 3_600_000
const START = Date.parse('2026-01-05T09:00:00.000Z')
const HISTORY_DAYS = 60
const AFTER_DAYS = 30

type Kind = 'stationary' | 'bursty' | 'strong' | 'weak'

interface Asked {
  confidence: number
  level: string
  ask: boolean
  right: boolean
  day: number
}

/** About `rate` moments a day (rate × (0.5 + u), rounded), within nine working hours, over `days` days from `from`; none on weekends where `weekdays`. */
function moments(next: () => number, from: number, days: number, rate: number, weekdays: boolean): number[] {
  const out: number[] = []
  for (let day = 0; day < days; day++) {
    const count = Math.round(rate * (0.5 + next()))
    // START is a Monday.
    if (weekdays && (Math.floor((from - START) / DAY) + day) % 7 >= 5) continue
    const today = Array.from({ length: count }, () => from + day * DAY + Math.round(next() * 9 * HOUR))
    out.push(...today.sort((a, b) => a - b))
  }
  return out
}

async function simulate(kind: Kind, rate: number, users: number, seed: number, weekdays: boolean): Promise<Asked[]> {
  const { store, clock, memory } = await simulatedMemory(START)
  const next = random(seed * 1_000 + rate * 10 + ['stationary', 'strong', 'weak', 'bursty'].indexOf(kind))
  const asked: Asked[] = []
  try {
    for (let u = 0; u < users; u++) {
      const k = 2 + Math.floor(next() * 3)
      const options = Array.from({ length: k }, (_, i) => `Option ${'ABCD'[i]}`)
      const before = Math.floor(next() * k)
      const other = (before + 1 + Math.floor(next() * (k - 1))) % k
      const spread = (favourite: number, strength: number) => options.map((_, i) => (i === favourite ? strength : (1 - strength) / (k - 1)))
      let thetaBefore: number[]
      let thetaAfter: number[]
      // Bursty users choose as stationary ones, but one day in ten (the same weekday each time)
      // choose another option all day: the one sitting the change test must not take for a switch.
      const burstDay = Math.floor(next() * 10)
      const burst = options.map((_, i) => (i === other ? 1 : 0))
      if (kind === 'stationary' || kind === 'bursty') {
        // 60/40 to 90/10 for the favourite against the others together.
        thetaBefore = spread(before, 0.6 + next() * 0.3)
        thetaAfter = thetaBefore
      } else if (kind === 'strong') {
        const strength = 0.75 + next() * 0.2
        thetaBefore = spread(before, strength)
        thetaAfter = spread(other, strength)
      } else {
        thetaBefore = spread(before, 0.7 + next() * 0.2)
        // The new favourite 60%, the old one 40%, the others never.
        thetaAfter = options.map((_, i) => (i === other ? 0.6 : i === before ? 0.4 : 0))
      }
      const truth = options[thetaAfter.indexOf(Math.max(...thetaAfter))]
      const question = { user: `user-${u}`, point: 'switch', question: 'Which option?', all_options: options }
      const bursting = (at: number) => kind === 'bursty' && Math.floor((at - START) / DAY) % 10 === burstDay
      const choice = (id: string, at: number, theta: number[]) => ({
        ...question,
        decision_id: id,
        timestamp: new Date(at).toISOString(),
        user_choice: options[categorical(next, bursting(at) ? burst : theta)] as string,
        multi_select: false,
        source: 'user' as const,
      })
      const history = moments(next, START, HISTORY_DAYS, rate, weekdays)
      const switchAt = START + HISTORY_DAYS * DAY
      clock.set(new Date(switchAt - 1))
      await memory.observe(history.map((at, i) => choice(`h${i}`, at, thetaBefore)))
      const after = moments(next, switchAt, AFTER_DAYS, rate, weekdays)
      for (const [i, at] of after.entries()) {
        clock.set(new Date(at))
        const answer = await memory.recommend({ ...question, multi_select: false })
        asked.push({
          confidence: answer.confidence.value,
          level: answer.confidence.level,
          ask: answer.ask,
          right: answer.recommended === truth,
          day: Math.floor((at - switchAt) / DAY),
        })
        await memory.observe([
          answer.ask
            ? choice(`s${i}`, at, thetaAfter)
            : { ...question, decision_id: `s${i}`, timestamp: new Date(at).toISOString(), user_choice: answer.recommended as string, multi_select: false, source: 'auto-resolved' as const },
        ])
      }
    }
  } finally {
    await store.close()
  }
  return asked
}

function ece(asked: readonly Asked[]): number {
  let total = 0
  for (let b = 0; b < 10; b++) {
    const inBin = asked.filter((a) => Math.min(9, Math.floor(a.confidence * 10)) === b)
    if (inBin.length === 0) continue
    const stated = inBin.reduce((s, a) => s + a.confidence, 0) / inBin.length
    const observed = inBin.filter((a) => a.right).length / inBin.length
    total += (inBin.length / asked.length) * Math.abs(observed - stated)
  }
  return total
}

export function summary(asked: readonly Asked[]) {
  const count = asked.length
  const share = (f: (a: Asked) => boolean) => asked.filter(f).length / count
  return {
    count,
    ece: ece(asked),
    right: share((a) => a.right),
    highWrong: share((a) => a.level === 'high' && !a.right),
    auto: share((a) => !a.ask),
    autoWrong: share((a) => !a.ask && !a.right),
    autoWrongDays: [...new Set(asked.filter((a) => !a.ask && !a.right).map((a) => a.day))].sort((x, y) => x - y),
  }
}

const KINDS: readonly Kind[] = ['stationary', 'bursty', 'strong', 'weak']

// Checked before anything is simulated: a mistake in them is said on one line, exit 2.
const { values, users, seeds, rates, kinds } = readFlags('calibration-switch', () => {
  const { values } = parseFlags({
    options: {
      users: { type: 'string', default: '40' },
      seeds: { type: 'string', default: '1,2' },
      rates: { type: 'string', default: '1,5,20' },
      kinds: { type: 'string', default: KINDS.join(',') },
      weekdays: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  })
  return {
    values,
    users: positiveInteger(values.users, 'users'),
    seeds: values.seeds.split(',').map((seed) => positiveInteger(seed, 'seeds')),
    rates: values.rates.split(',').map((rate) => positiveNumber(rate, 'rates')),
    kinds: values.kinds.split(',').map((kind) => {
      if (!KINDS.includes(kind as Kind)) throw new UsageError(`--kinds: no kind ${JSON.stringify(kind)} (${KINDS.join(', ')})`)
      return kind as Kind
    }),
  }
})
const f = (x: number) => x.toFixed(3)
const rows = []
for (const kind of kinds) {
  for (const rate of rates) {
    for (const seed of seeds) {
      const s = summary(await simulate(kind, rate, users, seed, values.weekdays))
      rows.push({ kind, rate, seed, ...s })
      if (!values.json) {
        console.log(
          `${kind.padEnd(10)} ${String(rate).padStart(2)}/day seed ${seed}: n ${String(s.count).padStart(6)}  ECE ${f(s.ece)}  right ${f(s.right)}  high&wrong ${f(s.highWrong)}  auto ${f(s.auto)}  auto&wrong ${f(s.autoWrong)}  days ${s.autoWrongDays.slice(0, 12).join(',')}`,
        )
      }
    }
  }
}
if (values.json) console.log(JSON.stringify(rows))
