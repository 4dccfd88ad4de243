import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DecisionDateSchema, isCalendarDate } from '../decision'
import { readDecisionsMd } from './decisions-md'
import { DAY_AFTER_WORD, DAY_WITH_STATUS, dayAfter, linkAfterStatus, NAMED_RECORD, NAMES_SEPARATOR, readDate, readStatusLine, STATUS_LIST_SEPARATOR, STEP, STEP_SEPARATOR, UNDERSCORES, unreadDateMessage, withoutAddresses } from './status-words'

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** Text a record's date field may hold: digits, separators, month names and noise, run together. */
const piece = fc.oneof(
  fc.constantFrom('-', '/', '.', ' ', 'T', 'Z', ':', '+', ',', 'st', 'th', '\t', '\n', '0', '00', '1', '12', '13', '29', '30', '31', '2024', '1900', '0000', '9999'),
  fc.constantFrom(...MONTHS, ...MONTHS.map((m) => m.slice(0, 3)), 'Sept', 'Mar.', 'ma', 'Mayy'),
  fc.string({ unit: 'binary', maxLength: 3 }),
)
const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''))

/** Any day from 1970 to 9999 as `YYYY-MM-DD`: the days a decision may be dated. */
const day = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))

/** Any day from year 0 to 1969 as `YYYY-MM-DD`: none a decision may be dated. */
const dayBefore1970 = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('1969-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10))

describe('readDate, for any text', () => {
  it('never throws, and any day it reads is a day of the calendar', () => {
    fc.assert(
      fc.property(text, (t) => {
        const read = readDate(t)
        if (read !== undefined) expect(isCalendarDate(read)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('reads a day it read, written as YYYY-MM-DD, as the same day', () => {
    fc.assert(
      fc.property(text, (t) => {
        const read = readDate(t)
        if (read !== undefined) expect(readDate(read)).toBe(read)
      }),
      { numRuns: 2000 },
    )
  })

  it('reads every day of the calendar in its forms as that day', () => {
    fc.assert(
      fc.property(day, (d) => {
        const [y, m, dd] = d.split('-') as [string, string, string]
        const month = MONTHS[Number(m) - 1] as string
        expect(readDate(d)).toBe(d)
        expect(readDate(`${y}/${m}/${dd}`)).toBe(d)
        expect(readDate(`${y}${m}${dd}`)).toBe(d)
        expect(readDate(`${y}-${Number(m)}-${Number(dd)}`)).toBe(d)
        expect(readDate(`${d}T10:00:00+02:00`)).toBe(d)
        expect(readDate(`${Number(dd)} ${month} ${y}`)).toBe(d)
        expect(readDate(`${month} ${Number(dd)}, ${y}`)).toBe(d)
      }),
      { numRuns: 500 },
    )
  })

  it('reads no day before 1970, in any of its forms, and says why it is unread', () => {
    fc.assert(
      fc.property(dayBefore1970, (d) => {
        const [y, m, dd] = d.split('-') as [string, string, string]
        for (const written of [d, `${y}/${m}/${dd}`, `${d}T10:00:00Z`, `${Number(dd)} ${MONTHS[Number(m) - 1]} ${y}`]) {
          expect(readDate(written), written).toBeUndefined()
          expect(unreadDateMessage(written)).toBe(`"${written}" is before 1970; the record is read without it`)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('reads the day of an ISO time exactly when a decision\'s `date` takes that time, with a T or a space before it', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    // Hours, minutes and seconds the clock has and has not (24:00, a leap second 23:59:60, 10:61),
    // seconds and fractions or none, an offset with or without its colon, within ±23:59 or not.
    const time = fc
      .tuple(
        two(25), two(61),
        fc.option(fc.tuple(two(61), fc.constantFrom('', '.5', '.123456789')), { nil: undefined }),
        fc.constantFrom('', 'Z', '+', '-'), two(25), two(61), fc.boolean(),
      )
      .map(([h, m, s, sign, oh, om, colon]) => ({
        clock: `${h}:${m}${s === undefined ? '' : `:${s[0]}${s[1]}`}`,
        zone: sign === '' || sign === 'Z' ? sign : `${sign}${oh}${colon ? ':' : ''}${om}`,
      }))
    fc.assert(
      fc.property(day, time, (d, { clock, zone }) => {
        const t = `${clock}${zone}`
        const taken = DecisionDateSchema.safeParse(`${d}T${t}`).success
        expect(readDate(`${d}T${t}`), `${d}T${t}`).toBe(taken ? d : undefined)
        // Jekyll writes the time after a space: read as the same time.
        expect(readDate(`${d} ${t}`), `${d} ${t}`).toBe(taken ? d : undefined)
        if (!taken) expect(unreadDateMessage(`${d}T${t}`)).toBe(`"${d}T${t}" is not a date; the record is read without it`)
        // A space before the `Z` or the offset, after either, names the same time: read exactly when it is the clock's.
        if (zone !== '') {
          for (const written of [`${d}T${clock} ${zone}`, `${d} ${clock} ${zone}`]) expect(readDate(written), written).toBe(taken ? d : undefined)
        }
      }),
      { numRuns: 2000 },
    )
    for (const written of ['2024-02-01T25:00:00Z', '2024-02-01T24:00:00Z', '2024-02-01T23:59:60Z', '2024-02-01T10:00:00+24:00', '2024-02-01T10', '2024-02-01T::', '2024-02-01T1:2:3'])
      expect(readDate(written), written).toBeUndefined()
    expect(readDate('2020-05-05 21:33:43 -0800')).toBe('2020-05-05')
    expect(readDate('2024-02-01T10:00:00.123456789+23:59')).toBe('2024-02-01')
  })

  it('reads a time only after a day written as a decision\'s `date` writes it, and its day with one space before its zone too', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    // A time of the day the clock has, with or without its zone, written onto a day with slashes,
    // dots or nothing between its parts: `date` refuses each (it takes `YYYY-MM-DDThh:mm…` alone), so
    // none is read, and each is said as not a date. With a space before its zone after a `T`, `date`
    // refuses it too, but it names its day as clearly as `… UTC` does: read as its day.
    const time = fc
      .tuple(two(23), two(59), fc.constantFrom('', ':00', ':59.5'), fc.constantFrom('', 'Z', '+02:00', '-0800'))
      .map(([h, m, s, zone]) => ({ time: `${h}:${m}${s}`, zone }))
    fc.assert(
      fc.property(day, time, (d, { time: t, zone }) => {
        const [y, m, dd] = d.split('-') as [string, string, string]
        expect(readDate(`${d}T${t}${zone}`), `${d}T${t}${zone}`).toBe(d)
        for (const written of [`${y}/${m}/${dd}T${t}${zone}`, `${y}.${m}.${dd}T${t}${zone}`, `${y}${m}${dd}T${t}${zone}`, `${y}/${m}/${dd} ${t}${zone}`]) {
          expect(DecisionDateSchema.safeParse(written).success, written).toBe(false)
          expect(readDate(written), written).toBeUndefined()
          expect(unreadDateMessage(written)).toBe(`"${written}" is not a date; the record is read without it`)
        }
        if (zone !== '') {
          const spaced = `${d}T${t} ${zone}`
          expect(DecisionDateSchema.safeParse(spaced).success, spaced).toBe(false)
          expect(readDate(spaced), spaced).toBe(d)
        }
      }),
      { numRuns: 500 },
    )
    // A time after a day with slashes or none between its parts, more than one space before the zone, a
    // `z` glued to the time or after a lowercase `t`, as `date` refuses them, or an offset cut short, stays unread.
    for (const written of ['2024/02/01T10:00:00Z', '2024/02/01T10:00:00 Z', '20240201T100000Z', '2024-02-01T10:00:00  Z', '2024-02-01T10:00:00z', '2024-02-01t10:00:00 Z', '2024-02-01T10:00:00 +01', '2024-02-01T25:00:00 Z', '2024-02-01 10:00:00 +24:00'])
      expect(readDate(written), written).toBeUndefined()
    // Jekyll's form, a space for the T and before the offset, is read still, and a space before a `Z` or an
    // offset after a `T` time too, or before a `Z` in Jekyll's form; so are the days alone.
    for (const written of ['2020-05-05 21:33:43 -0800', '2020-05-05 21:33:43 +02:00', '2020-05-05 21:33:43', '2020-05-05 21:33:43Z', '2020-05-05T10:00:00 Z', '2020-05-05T10:00:00 z', '2020-05-05T10:00:00 +01:00', '2020-05-05T10:00:00 -0800', '2020-05-05 10:00:00 Z', '2020/05/05', '2020.05.05', '20200505'])
      expect(readDate(written), written).toBe('2020-05-05')
  })

  it('reads the day of a time with a zone named after a space, with a T or Jekyll\'s space before the time, exactly when the time and the zone\'s offset are the clock\'s', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    // UTC and GMT in any case, alone or with an offset (of one or two digits of hours, minutes after a
    // colon or after two digits), and abbreviations of zones in capitals.
    const named = fc.oneof(
      fc.constantFrom('UTC', 'utc', 'Utc', 'GMT', 'gmt', 'PST', 'PDT', 'CEST', 'AEST', 'IST', 'JST').map((zone) => ({ zone, valid: true })),
      fc
        .tuple(fc.constantFrom('UTC', 'GMT', 'utc'), fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 25 }), fc.option(two(61), { nil: undefined }), fc.constantFrom('', ':'), fc.boolean())
        .map(([name, sign, h, m, colon, pad]) => {
          const hours = pad ? String(h).padStart(2, '0') : String(h)
          const minutes = m === undefined ? '' : `${hours.length === 2 ? colon : ':'}${m}`
          return { zone: `${name}${sign}${hours}${minutes}`, valid: h <= 23 && (m === undefined || Number(m) <= 59) }
        }),
    )
    const time = fc.tuple(two(25), two(61), fc.option(two(61), { nil: undefined })).map(([h, m, s]) => ({
      time: `${h}:${m}${s === undefined ? '' : `:${s}`}`,
      valid: Number(h) <= 23 && Number(m) <= 59 && (s === undefined || Number(s) <= 59),
    }))
    fc.assert(
      fc.property(day, time, named, fc.constantFrom('T', ' '), (d, t, z, join) => {
        const written = `${d}${join}${t.time} ${z.zone}`
        expect(readDate(written), written).toBe(t.valid && z.valid ? d : undefined)
      }),
      { numRuns: 2000 },
    )
    for (const written of ['2024-02-01T10:00:00 UTC', '2024-02-01 10:00:00 UTC', '2024-02-01T10:00:00 GMT+1', '2024-02-01T10:00:00 UTC+05:30', '2024-02-01 23:59:59 PST'])
      expect(readDate(written), written).toBe('2024-02-01')
    // A time the clock has not, an offset beyond ±23:59, or a word that names no zone, is no date still.
    for (const written of ['2024-02-01 25:00:00 UTC', '2024-02-01T10:00:00 UTC+25', '2024-02-01T10:00:00 GMT+24:00', '2024-02-01T10:00:00 THAT', '2024-02-01T10:00:00 pst'])
      expect(readDate(written), written).toBeUndefined()
  })

  it('reads a time written beside a status as a `Date:` field holding it: its day, or said unread whole, its zone after a space too', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    const digit = fc.integer({ min: 0, max: 9 }).map(String)
    // A day as records write one beside a status, year first with dashes, slashes or dots, or day first;
    // after a `T` any time, after a space Jekyll's full form alone (any other is prose, as the next property says).
    const written = fc
      .tuple(day, fc.constantFrom('-', '/', '.', 'day first'), fc.constantFrom('T', 't', ' ', '  '))
      .chain(([d, sep, join]) => {
        const [y, mo, dd] = d.split('-') as [string, string, string]
        const dayWritten = sep === 'day first' ? `${dd}.${mo}.${y}` : [y, mo, dd].join(sep)
        const jekyll = join.trim() === ''
        return fc
          .tuple(
            jekyll ? two(25) : fc.oneof(two(25), digit),
            jekyll ? two(61) : fc.oneof(two(61), digit),
            fc.constantFrom(...(jekyll ? [':00', ':59.5', ':61'] : ['', ':00', ':59.5'])),
            fc.constantFrom('', ' ', '  '),
            fc.constantFrom('', 'Z', '+02:00', '-0800', '+24:00', '+01', 'UTC', 'utc', 'GMT+1', 'PST', 'CEST'),
          )
          .map(([h, m, s, space, zone]) => `${dayWritten}${join}${h}:${m}${s}${zone === '' ? '' : space}${zone}`)
      })
    fc.assert(
      fc.property(written, fc.constantFrom('Accepted on %', 'Accepted (%)', 'Accepted — %.', '% Accepted', '%: Accepted', '[%] Accepted'), (w, form) => {
        const line = form.replace('%', w)
        const day = readDate(w)
        expect(readStatusLine(line), line).toEqual(day === undefined ? { status: 'accepted', unreadDate: w } : { status: 'accepted', date: day })
      }),
      { numRuns: 2000 },
    )
  })

  it('reads the day alone where a time after it and a space is not in Jekyll\'s full form, beside a status or in a DECISIONS.md heading, and leaves the time as prose', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
    const oneOrTwo = (max: number) => fc.oneof(two(max), fc.integer({ min: 0, max: 9 }).map(String))
    // Hours and minutes without seconds, a digit of minutes, or Jekyll's full form followed by more of a time.
    const prose = fc.oneof(
      fc
        .tuple(oneOrTwo(23), oneOrTwo(59), fc.constantFrom('', ' am', 'pm', ' PM', ' a.m.', ' PST', ' UTC', ' -0800', 'Z', '+01:00', '-16:00', ' - 16:00', ' to 16:00', ' by Alice', ': noted', ', noted'))
        .map(([h, m, tail]) => `${h}:${m}${tail}`),
      fc
        .tuple(two(23), two(59), two(59), fc.constantFrom('-16:00:00', ' - 16:00:00', '\u201317:00', ' to 16:00:00', ' until 9', ' am', 'pm', ' / 16:00', 'Z-16:00', ' -0800 - 16:00'))
        .map(([h, m, s, tail]) => `${h}:${m}:${s}${tail}`),
    )
    const written = fc.tuple(day, fc.constantFrom('-', '/', '.', 'day first')).map(([d, sep]) => {
      const [y, mo, dd] = d.split('-') as [string, string, string]
      return { d, dayWritten: sep === 'day first' ? `${dd}.${mo}.${y}` : [y, mo, dd].join(sep) }
    })
    fc.assert(
      fc.property(written, prose, fc.constantFrom('Accepted on %', 'Accepted (%)', 'Accepted — %.', 'Accepted: %', 'Accepted %'), ({ d, dayWritten }, p, form) => {
        const line = form.replace('%', `${dayWritten} ${p}`)
        expect(readStatusLine(line), line).toEqual({ status: 'accepted', date: d })
      }),
      { numRuns: 1000 },
    )
    // A DECISIONS.md heading shares the time's form: its day dates the section, and the time stays in the title.
    fc.assert(
      fc.property(day, prose, fc.constantFrom('D-001: Use X (%)', 'D-001: Use X [%]', 'D-001: Use X %', 'Use X - %'), (d, p, form) => {
        const heading = form.replace('%', `${d} ${p}`)
        const reading = readDecisionsMd({ path: 'DECISIONS.md', name: 'DECISIONS.md', text: `# Log\n\n## ${heading}\n\n- Status: Accepted\n` })
        expect(reading.problems, heading).toEqual([])
        expect(reading.records.map((r) => r.date), heading).toEqual([d])
        expect(reading.records[0]?.title, heading).toContain(p)
      }),
      { numRuns: 500 },
    )
  })

  it('reads a day and month in numbers with slashes only where one order alone is a day, and with dashes never', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1970, max: 9999 }), (a, b, y) => {
        const two = (n: number) => String(n).padStart(2, '0')
        const readings = new Set([`${y}-${two(b)}-${two(a)}`, `${y}-${two(a)}-${two(b)}`].filter(isCalendarDate))
        const only = readings.size === 1 ? [...readings][0] : undefined
        expect(readDate(`${two(a)}/${two(b)}/${y}`)).toBe(only)
        expect(readDate(`${a}/${b}/${y}`)).toBe(only)
        expect(readDate(`${two(a)}-${two(b)}-${y}`)).toBeUndefined()
      }),
      { numRuns: 300 },
    )
    // adr-tools wrote dd/mm/yyyy before 2018 (its own records say `Date: 21/02/2017`)
    expect(readDate('21/02/2017')).toBe('2017-02-21')
    expect(readDate('02/21/2017')).toBe('2017-02-21')
    expect(readDate('05/05/2020')).toBe('2020-05-05')
    expect(readDate('31/02/2017')).toBeUndefined()
    expect(readDate('04/03/2024')).toBeUndefined()
  })
})

describe('linkAfterStatus, for any line', () => {
  /** A status line's words, marks and white space, and the link words in several languages. */
  const line = fc
    .array(
      fc.oneof(
        fc.constantFrom(' ', '  ', '\t', '\u00a0', ',', ';', ':', '.', '(', '\u2014', '\u2013', '-', '\n', '\r\n', '\u2028', 'x', 'é', 'Accepted', 'ADR-1', '[2](0002-x.md)'),
        fc.constantFrom('superseded', 'Superseded', ' by', 'by', 'Supersedes', 'replaces', 'replaced', 'ersetzt', ' durch', 'remplacée', 'remplace', ' par', 'reemplaza', ' a', 'partially'),
      ),
      { maxLength: 14 },
    )
    .map((pieces) => pieces.join(''))
  // The pattern linkAfterStatus replaces, as it was built.
  const before = /^(.+?)\s*(?:[,;:.(\u2014\u2013]|\s-|\s)\s*((?:(?:superseded|superceded|replaced|obsoleted)\s+by|(?:(?:reemplazad[oa]|sustituid[oa]|superad[oa]|substitu[ií]d[oa])\s+por|remplac[eé]e?s?\s+par|(?:ersetzt|abgel[oö]st)\s+(?:durch|von)|(?:sostituit[oa]|superat[oa])\s+da)(?![A-Za-z\u00C0-\u024F]))\b|(?:supersedes|supercedes|replaces|obsoletes|(?:(?:reemplaza|sustituye|substitui|sostituisce)(?![A-Za-z\u00C0-\u024F])(?:\s+a(?=\s))?|remplace(?![A-Za-z\u00C0-\u024F])))\b)(.*)$/i

  it('splits it as the pattern that tried every split of its white space did', () => {
    fc.assert(
      fc.property(line, (text) => {
        const match = before.exec(text)
        expect(linkAfterStatus(text)).toEqual(match === null ? undefined : [match[1], match[2], match[3]])
      }),
      { numRuns: 20000, examples: [['Accepted, superseded by ADR-1'], [' -superseded by x'], ['a  -  - replaces x'], ['x\t,\tSupersedes: [2](0002-x.md)']] },
    )
  })
})

describe('the separators of a status line, for any line', () => {
  /** White space, the marks and words the separators are written with, and statuses and days. */
  const line = fc
    .array(
      fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', ',', ';', '|', '/', '&', '+', 'and', ' and ', 'andy', '->', '=>', '\u2192', '-', '>', '(', ')', ':', '\u2014', 'on', ' on ', 'Accepted', 'ADR-1', '2024-01-10', '31.12.2023', 'x'),
      { maxLength: 16 },
    )
    .map((pieces) => pieces.join(''))

  it('split it, and find a day after a status, where the patterns tried at every character of a run of white space did', () => {
    // The patterns as they were, each beginning with `\s*`.
    const dayBefore = new RegExp(DAY_WITH_STATUS.source.replace(/^\(\?<!\\s\)/, ''), DAY_WITH_STATUS.flags)
    expect(dayBefore.source.startsWith(String.raw`(?:\s*[(:`)).toBe(true)
    fc.assert(
      fc.property(line, (text) => {
        expect(text.split(STATUS_LIST_SEPARATOR)).toEqual(text.split(/\s*(?:[,;|/&+]|\sand\s)\s*/))
        expect(text.split(STEP_SEPARATOR)).toEqual(text.split(/\s*([,;])\s*/))
        expect(text.split(STEP)).toEqual(text.split(/\s*(?:\u2192|\u27f6|\u2794|\u279c|\u21d2|->|=>)\s*/))
        expect(text.split(NAMES_SEPARATOR)).toEqual(text.split(/\s*(?:,|&|\+|\band\b)\s*/i))
        expect(text.replace(DAY_WITH_STATUS, '')).toBe(text.replace(dayBefore, ''))
      }),
      { numRuns: 20000 },
    )
  })
})

describe('the words of a status line without their links\' addresses and emphasis, for any line', () => {
  /** Links, addresses and schemes, runs of a scheme's characters, underscores and words. */
  const line = fc
    .array(
      fc.constantFrom('](', ')', '(', ']', '[', '<', '>', ':', '//', '://', 'https', 'a', 'Z', '-', '.', '+', '0', '_', '__', ' ', '\t', '\n', 'é', 'x_y', 'rejected'),
      { maxLength: 18 },
    )
    .map((pieces) => pieces.join(''))

  it('are what the patterns tried from every character of a run left', () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(withoutAddresses(text)).toBe(text.replace(/\]\([^)]*\)/g, ']').replace(/<[a-z][a-z0-9+.-]*:[^>\s]*>/gi, '').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ''))
        expect(text.replace(UNDERSCORES, '$1')).toBe(text.replace(/(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, '$1'))
      }),
      { numRuns: 20000, examples: [['0a://b.c://d'], ['x-https://a b'], ['_a://b'], ['[a](rejected/1) <https://x> z']] },
    )
  })
})

describe('NAMED_RECORD, for any text after a link word', () => {
  /** White space, colons, and the names of records with the marks around them. */
  const rest = fc
    .array(fc.constantFrom(' ', '  ', '\t', '\n', ':', '.md', 'x.md', '(', '[2](0002-x.md)', '[', ']', 'ADR', '-', '12', 'D-4', 'adr 3', 'x'), { maxLength: 14 })
    .map((pieces) => pieces.join(''))
  const before = new RegExp(NAMED_RECORD.source.replace(String.raw`^\s*(?::\s*)?`, String.raw`^\s*:?\s*`))

  it('names the record the pattern that split the white space around a colon every way named', () => {
    expect(before.source).not.toBe(NAMED_RECORD.source)
    fc.assert(
      fc.property(rest, (text) => {
        expect(NAMED_RECORD.exec(text)?.[1]).toBe(before.exec(text)?.[1])
      }),
      { numRuns: 20000, examples: [['  :.md'], [' : [2](0002-x.md)'], ['::x.md']] },
    )
  })
})

describe('dayAfter, for any status line', () => {
  /** Status words, who took the step, `on` and commas, days, runs of white space and names long and short. */
  const line = fc
    .array(
      fc.constantFrom('Accepted', 'Superseded', ' ', '  ', ' '.repeat(30), '\t', '\n', 'by', ' by ', 'on', ' on ', ',', ', ', 'x', 'Roy', 'a'.repeat(40), '2026-10-06', 'July 16, 2026', 'Tuesday, ', '.', ':', '(', '\u{1F600}', '\u00e9'),
      { maxLength: 14 },
    )
    .map((pieces) => pieces.join(''))
  // The pattern as it was, with who took the step among its separators.
  const before = new RegExp(DAY_AFTER_WORD.source.replace(String.raw`|\s+)(`, String.raw`|\s+|\s+by\s+[^.;:()\[\]\n]{1,80}?(?:\s+on\s+|\s*,\s*))(`), 'u')

  it('reads the day the pattern that split the white space around who took the step every way read', () => {
    expect(before.source).not.toBe(DAY_AFTER_WORD.source)
    fc.assert(
      fc.property(line, (text) => {
        expect(dayAfter(text)).toBe(before.exec(text)?.[1])
      }),
      {
        numRuns: 30000,
        examples: [['Accepted by the maintainer on 2026-10-06'], ['Accepted by Roy Kollen Svendsen, 2026-10-05'], ['Accepted by  , 2026-10-05'], ['Accepted by \n , 2026-10-05'], [`Accepted by ${'a'.repeat(79)} on 2026-10-06`], [`Accepted by ${'\u{1F600}'.repeat(80)} on 2026-10-06`]],
      },
    )
  })

  it('reads it alike where the white space after `by` holds line breaks and other spaces, and names end near 80 characters', () => {
    // Every line begins `… by` and a run of white space, where dayAfter tries the names begun
    // inside it by hand: a line break there ends such a name (`\r` and U+2028 do not), `on` needs
    // white space before it, a comma none; a name of 79 to 81 characters, some two UTF-16 units.
    const space = fc.constantFrom(' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\u3000')
    const after = fc.constantFrom('on', 'On', ' on ', ',', ', ', 'x', 'by', '2026-10-06', 'Tue, 6 Oct 2026', '\n', ' ', '\u{1F600}', '\ud800', '.', '(')
    const long = fc.tuple(fc.integer({ min: 76, max: 81 }), fc.constantFrom('a', '\u{1F600}', ' ')).map(([n, c]) => c.repeat(n))
    const byLine = fc
      .tuple(fc.constantFrom('Accepted', 'Superseded', 'Approved'), fc.array(space, { minLength: 1, maxLength: 3 }), fc.array(space, { minLength: 1, maxLength: 5 }), fc.array(fc.oneof(after, long), { maxLength: 6 }))
      .map(([word, before, afterBy, rest]) => `${word}${before.join('')}by${afterBy.join('')}${rest.join('')}`)
    fc.assert(
      fc.property(byLine, (text) => {
        expect(dayAfter(text)).toBe(before.exec(text)?.[1])
      }),
      {
        numRuns: 8000,
        examples: [['Accepted by\n on 2026-10-06'], ['Accepted by \non 2026-10-06'], ['Accepted by \n, 2026-10-06'], ['Accepted by\r\n, 2026-10-06'], ['Accepted by  on 2026-10-06'], ['Accepted by\u2028on 2026-10-06'], [`Accepted by ${'a'.repeat(80)}, 2026-10-06`], [`Accepted by  ${'a'.repeat(79)}, 2026-10-06`]],
      },
    )
  })
})
