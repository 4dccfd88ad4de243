import { FIRST_DECISION_DAY, isCalendarDate, TIME_OF_DAY, TIME_ZONE, type DecisionStatus } from '../decision'
import { linksIn } from './links'
import { linkTarget, withoutTrailing, type LinkDefinitions } from './markdown'
import { quoted } from './quoted-value'

/**
 * What a template leaves where a successor would be named (`none`, `-`, `N/A`, read as `A` from
 * its `/`, `TBD`): no record. A "Superseded by" that names anything else names a successor, found or not.
 */
export const SUCCESSOR_PLACEHOLDER = /^(?:|[-\u2013\u2014\u2026._/?]+|none\.?|n\/?a|a|tbd|tba|nil|null|nothing|no|not yet|\(none\))$/i

/**
 * The words decision records use for a status, mapped to the lifecycle (R-CON-1): adr-tools
 * writes `Accepted`, `Proposed`, `Superceded by [...]`; MADR and log4brains `accepted`, `draft`,
 * `rejected`, `deprecated`, `superseded by ...`. A rejected proposal is `revoked`.
 */
/**
 * After a status word that begins English phrases too (`final`, `locked`, `dead`): nothing but marks
 * that end it (`locked.`), or its day (`Final (2024-01-02)`, `Ratified on 2024-01-02`).
 */
const ALONE = String.raw`(?=[\s.!]*$|(?:\s*[(:,\u2014\u2013-]\s*|\s+on\s+|\s+)\d[\d\s./:tz+-]*[\s.!)\]]*$)`

const WORDS: Array<[RegExp, DecisionStatus]> = [
  // Done, completed: carried out, as implemented is, so accepted first.
  // Committed, as the Planguage template's statuses end (draft, reviewed, committed).
  [/^(accepted|approved|adopted|agreed|decided|active|implemented|done|completed?|committed)\b/, 'accepted'],
  // Final, as a PEP is once accepted and done; locked, ratified or settled, as logs mark a decision
  // no longer open (`- **Status:** locked.` in a game's DECISIONS.md): the word alone, or with its
  // day, as English phrases begin with it that say no status (`Final review pending`, `Locked out by …`).
  [new RegExp(String.raw`^(final|finali[sz]ed|locked|ratified|settled)${ALONE}`), 'accepted'],
  // Reviewed, not yet committed (Planguage): no decision yet. Not "Reviewed by …", a note beside a status.
  [/^reviewed\b(?!\s+by\b)/, 'proposed'],
  // Deferred, on hold, in progress: not decided yet, so not in force.
  // A proposal, a work in progress, under discussion: as proposed.
  [/^(proposed|proposal|draft|pending|open|in review|under review|suggested|in progress|deferred|on hold|postponed|wip|work in progress|under discussion|in discussion)\b/, 'proposed'],
  [/^(superseded|superceded)\b/, 'superseded'],
  [/^(deprecated|obsolete|retired)\b/, 'deprecated'],
  // Cancelled (or canceled), discarded: given up, as abandoned is. Disproven (or refuted): tried and
  // found not to hold, as Decision Brain's logs mark a decision the evidence went against.
  [/^(rejected|revoked|withdrawn|declined|abandoned|cancell?ed|discarded|disproven|disproved|refuted)\b/, 'revoked'],
  // Dead, as Beaker's proposals mark one given up (`**Status:** Dead`, then what superseded it): alone,
  // as `Dead code removal` is no status.
  [new RegExp(String.raw`^dead${ALONE}`), 'revoked'],
  // The same statuses as Spanish, Portuguese, French, German and Italian records write them, which
  // logs written from the templates translated hold (`- Estado: aceptado`, `## Statut` `Accepté`).
  // Read after the English words, a word of a letter more than they match being no status of theirs.
  [/^(aceptad[oa]|aprobad[oa]|adoptad[oa]|implementad[oa]|vigente|aceit[oa]|aprovad[oa]|adotad[oa]|implementad[oa]|accept[eé]e?s?|approuv[eé]e?s?|adopt[eé]e?s?|en vigueur|akzeptiert|angenommen|beschlossen|genehmigt|umgesetzt|accettat[oa]|approvat[oa]|adottat[oa])(?![\p{L}\p{N}])/u, 'accepted'],
  [/^(propuest[oa]|borrador|en revisi[oó]n|pendiente|en discusi[oó]n|propost[oa]|rascunho|em revis[aã]o|em discuss[aã]o|pendente|propos[eé]e?s?|brouillon|en attente|en discussion|en cours|vorgeschlagen|vorschlag|entwurf|in (?:pr[uü]fung|diskussion|bearbeitung)|offen|bozza|in revisione|in discussione|in attesa)(?![\p{L}\p{N}])/u, 'proposed'],
  [/^(reemplazad[oa]|sustituid[oa]|superad[oa]|substitu[ií]d[oa]|remplac[eé]e?s?|ersetzt|abgel[oö]st|sostituit[oa]|superat[oa])(?![\p{L}\p{N}])/u, 'superseded'],
  [/^(obsolet[oa]|deprecad[oa]|obsol[eè]te|d[eé]pr[eé]ci[eé]e?s?|veraltet|[uü]berholt|deprecat[oa])(?![\p{L}\p{N}])/u, 'deprecated'],
  [/^(rechazad[oa]|descartad[oa]|cancelad[oa]|revocad[oa]|retirad[oa]|rejeitad[oa]|descartad[oa]|revogad[oa]|rejet[eé]e?s?|refus[eé]e?s?|abandonn[eé]e?s?|annul[eé]e?s?|abgelehnt|verworfen|zur[uü]ckgezogen|rifiutat[oa]|respint[oa]|annullat[oa]|scartat[oa])(?![\p{L}\p{N}])/u, 'revoked'],
]

/**
 * The underscores of emphasis, around a word and not inside one (`_Accepted_`; `0005_use_x.md`
 * keeps its own, as CommonMark reads them), the character before them as `$1`. Tried from a run's
 * first `_` only (`(?<!_)`), where a match in the run begins anyway: tried from each, `_+` ran to
 * the run's end, and `Accepted`, 100,000 `_` and `x` took minutes.
 */
export const UNDERSCORES = /(^|[^\p{L}\p{N}_])_+|(?<!_)_+(?=[^\p{L}\p{N}_]|$)/gu

/** Status badges before the word: emoji and symbols, with their variation selectors, joiners and skin tones. */
const BADGE = /^[\p{Extended_Pictographic}\p{So}\p{Emoji_Modifier}\uFE0F\u200D\s]+/u

/** What one status line says: a status, and the links it carries. */
export interface StatusLine {
  status?: DecisionStatus
  /** "Superseded by X": the target named (a file name or a key). */
  supersededBy?: string
  /** "Supersedes X" (adr-tools writes "Supercedes"). */
  supersedes?: string
  /**
   * The records named after the first where a line names more than one (`Superseded by ADR-0020 and
   * ADR-0025`, `by [20](…) and [25](…)`): a decision links one, so they are left out, and said.
   */
  moreSupersededBy?: string[]
  moreSupersedes?: string[]
  /** A day written with the status that cannot be read (`Accepted on 12/02/2016`), as written. */
  unreadDate?: string
  /** The day written with the status (`Accepted on 2020-05-05`, `2020-05-05 Accepted`), as `YYYY-MM-DD`. */
  date?: string
}

/**
 * Reads a status line; undefined when it says nothing known. Lines that link without changing
 * the status (adr-tools' `Amended by`, `Clarified by`, `Extends`, any link type) read as `{}`. A reference link
 * (`Superseded by [ADR 5][adr5]`) is resolved with the record's `definitions`.
 */
export function readStatusLine(text: string, definitions?: LinkDefinitions): StatusLine | undefined {
  const unticked = text
    // A status struck out no longer holds (`~~Accepted~~ → **Superseded by [5. …](0005-….md)**`,
    // `**Proposed** | ~~Accepted~~ | ~~Deprecated~~`): the line says what is not struck, with what joined it.
    .replace(STRUCK, '')
    .replace(/^\s*[-*+]\s+/, '')
  const ticked = tickedOf(unticked)
  if (ticked === null) return {}
  const plain = (ticked ?? unticked)
    // An arrow that points at the line, as a bullet would (`-> Supercedes [5. …](0005-….md)`).
    .replace(LEADING_ARROW, '')
    // Emphasis and code marks; an underscore inside a word (`0005_use_x.md`) is none (CommonMark).
    .replace(/[*`]/g, '')
    .replace(UNDERSCORES, '$1')
    // A mark before the word, as status badges are written (`✅ Accepted`, `⚠️ Deprecated`,
    // `🟡 Proposed`), inside the emphasis it may be in (`**✅ Accepted**`).
    .replace(BADGE, '')
    .trim()
  // The day written before the status (`2020-05-05 Accepted`, `[2020-05-05] Accepted`), as a
  // status log line puts it, is no part of it.
  const before = DAY_BEFORE.exec(plain)
  const rest = before === null ? plain : plain.slice(before[0].length)
  const read = readStatusWords(rest, before?.[1], definitions)
  // A day written with the status that cannot be read (`Accepted on 12/02/2016`: the 12th of February
  // or December 2nd) is said, not guessed, nor passed over in silence.
  const written = before?.[1] ?? dayAfter(rest)
  if (read?.status !== undefined && read.date === undefined && written !== undefined && readDate(written) === undefined) return { ...read, unreadDate: written }
  return read
}

/**
 * The status a checklist ticks (`- [x] Accepted`, a line per box, or `[ ] Proposed [x] Accepted` on
 * one line), as some templates give the statuses to choose from: the text after the one box ticked;
 * null where no box is ticked (the status chosen elsewhere, or not yet: this line names none); the
 * line itself where two are, which names no one status; undefined where the line is no checklist.
 */
function tickedOf(line: string): string | null | undefined {
  if (!/^\[[ xX]\]\s/.test(line)) return undefined
  const parts = line.split(/\[([ xX])\]/)
  const ticked = parts.flatMap((part, i) => (i % 2 === 1 && part !== ' ' ? [(parts[i + 1] ?? '').trim()] : []))
  if (ticked.length === 0) return null
  return ticked.length === 1 ? (ticked[0] as string) : line
}

/**
 * The zones named by the abbreviations ending in T that records write after a time (`PST`, `CEST`,
 * `AEST`), in capitals. A list, not any capitals ending in T: `Accepted on 2024-02-01 10:00:00 THAT
 * day` or `… BUT not for mobile` write a word, which was taken as the time's zone, and the record,
 * dated 2024-02-01 before the zone was read, lost its day.
 */
const NAMED_ZONE = String.raw`(?:ACDT|ACST|AEDT|AEST|AKDT|AKST|AWST|CEST|EEST|MEST|NZDT|NZST|SAST|WEST|ADT|ART|AST|BRT|BST|CAT|CDT|CET|CLT|COT|CST|EAT|EDT|EET|EST|GST|HDT|HKT|HST|ICT|IDT|IST|JST|KST|MDT|MET|MST|NDT|NST|PDT|PET|PHT|PKT|PST|SGT|VET|WAT|WET)`

/**
 * A zone named after a time and a space that readDate reads as it reads an offset, the day as
 * written being the date: UTC or GMT in any case, alone or with an offset within ±23:59 (`GMT+1`,
 * `UTC+05:30`, `utc-0800`; `UTC+25` is none), or an abbreviation of NAMED_ZONE (`PST`, `CEST`).
 */
const NAMED_TIME_ZONE = String.raw`(?:(?:[Uu][Tt][Cc]|[Gg][Mm][Tt])(?:[+-](?:(?:[01]?\d|2[0-3])(?::[0-5]\d)?|(?:[01]\d|2[0-3])[0-5]\d))?|${NAMED_ZONE})`

/** A zone a time ends with: `Z`, an offset (`-0800`, `+01:00`, `+01`), or named (`UTC`, `GMT+1`, `utc`, or in capitals ending in T, `PST`, `CEST`: NAMED_ZONE). */
const ZONE = String.raw`(?:[Zz]|[+-]\d{2}(?::?\d{2})?|(?:[Uu][Tt][Cc]|[Gg][Mm][Tt])(?:[+-]\d{1,2}(?::?\d{2})?)?|${NAMED_ZONE})`

/**
 * A zone written after a space (` Z`, ` +01:00`, ` -0800`), or named (` UTC`, ` GMT+1`, ` utc`, or
 * in capitals ending in T, ` PST`, ` CEST`), then no more of a time. A time beside a status takes it
 * too, to be read as a `Date:` field holding it is: its day where one space comes before a `Z`, an
 * offset within ±23:59 or a zone named (`Accepted on 2024-02-01T10:00:00 Z`, `… UTC`,
 * NAMED_TIME_ZONE), and said whole otherwise (`UTC+25`, `+24:00`, two spaces), rather than the time
 * read without it and the zone left behind as words after the day.
 */
export const ZONE_AFTER_SPACE = String.raw`\s+${ZONE}(?![\w+-]|:\w)`

/**
 * Text that goes on as a time after one: a digit after a dash, a colon, a slash or a word joining
 * times (`- 16:00:00`, `to 22:00:00`), or `am` / `pm`.
 */
const MORE_TIME = String.raw`\s*(?:[^\w\s]\s*|(?:[Tt]o|[Tt]ill|[Uu]ntil|[Tt]hru|[Tt]hrough|[Aa]nd|[Oo]r)\s+)?\d|\s*[AaPp]\.?[Mm](?![A-Za-z])`

/**
 * Jekyll's time after a day, a space for the `T` (`2024-02-01 21:33:43 -0800`, as its front matter's
 * `date:` writes it, which readDate reads), in its full form alone: two digits each of hours,
 * minutes and seconds (a fraction after them too), then a zone after a space or glued (`-0800`,
 * ` +01:00`, `Z`, ` UTC`), then the end, a closing bracket, or a space or a mark that starts no more
 * of a time. A status line or a heading is prose: `Standup 2024-02-01 9:30`, `Moved call to
 * 2024-02-01 10:00 am`, `Freeze deploys 2024-02-01 14:00-16:00` or `Accepted (2024-02-01 10:5)` write
 * a day and words after it, so the day is read alone and the words left where they are; taken as
 * the date, `9:30` and `10:5` made the day said as none, and the others lost their time from the title.
 */
export const JEKYLL_TIME = String.raw`\s+\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:${ZONE_AFTER_SPACE}|${ZONE})?(?:(?=[)\]])|(?!\w|${MORE_TIME}))`

/**
 * The time written onto a day (`T10:00:00Z`, `t10:00`; a colon or a dot only inside it, so `…Z.` and
 * `…Z: Accepted` end where they should), with a zone written after a space (`T10:00:00 Z`,
 * `T10:00:00 +01:00`, `T10:00:00 UTC`): what readDate is given to read as a `Date:` field's whole
 * value, which reads its day after one space before the zone as it does with the zone glued.
 */
export const TIME_WRITTEN = String.raw`[Tt](?:[\w+-]|[:.](?=\w))*(?:${ZONE_AFTER_SPACE})?`

/**
 * A day as records write one beside a status: `2020-05-05`, `2020/05/05`, `05.05.2020`, or
 * `05/06/2020`, which cannot be read; each with the time written onto it too, after a `T`
 * (`2020-05-05T10:00:00Z`, a colon or a dot only inside it) or after a space as Jekyll writes it
 * (`2020-05-05 21:33:43 -0800`), so that the time is read as readDate reads a `Date:` field's:
 * `Accepted on 2020-05-05T25:00:00Z` was read as 2020-05-05, where `Date: 2020-05-05T25:00:00Z` is
 * not a date, and so was `Accepted on 2020/05/05T10:00:00Z`, where a `Date:` field takes a time only
 * after a day written with dashes. A zone written after a space (`2020-05-05T10:00:00 Z`, `… +01:00`,
 * `… UTC`) goes with the time, as a `Date:` field holds it, read as the field reads it (its day after
 * one space before a valid zone, else no date): beside a status the time was taken without it, and read as 2020-05-05. Jekyll's time was left after the day, so
 * `Accepted on 2020-05-05 25:00:00 -0800` was read as 2020-05-05, and `2020-05-05 21:33:43 -0800
 * Accepted` as no status at all. A day is taken without its time only where Jekyll's full time does
 * not follow, so a shorter match of one that is no date reads no day; words after the day, a time
 * written otherwise among them (`Accepted on 2020-05-05 9:30`), are prose, and the day is read alone.
 */
const DAY_ALONE_OR_TIMED = String.raw`(?:${TIME_WRITTEN}|${JEKYLL_TIME}|(?![Tt]|${JEKYLL_TIME}))`
const DAY_WRITTEN = String.raw`(?:\d{4}(?:-\d{2}-\d{2}|[./]\d{1,2}[./]\d{1,2})|\d{1,2}[./]\d{1,2}[./]\d{4})${DAY_ALONE_OR_TIMED}`

/** A word that begins as a month's name does, in any case (`July`, `Sept`, `DEC`), spelt out: dayAfter's patterns have no `i` flag, and the rest of it is read as written. */
const MONTH_WORD = `(?:${['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
  .map((m) => [...m].map((c) => `[${c}${c.toUpperCase()}]`).join(''))
  .join('|')})\\p{L}*`

/** A word that begins as a weekday's name does (`Tuesday`, `Tue`), in any case, as MONTH_WORD is written. */
const WEEKDAY_WORD = `(?:${['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']
  .map((d) => [...d].map((c) => `[${c}${c.toUpperCase()}]`).join(''))
  .join('|')})\\p{L}*`

/**
 * A day with its month named, as readDate reads one (`5 May 2020`, `5th of May, 2020`, `July 16,
 * 2026`, after its weekday too, `Tuesday, 5 May 2020`): written after a status word by hand
 * (`Accepted on July 16, 2026.`), it was passed over unsaid, where a `Date:` field written so
 * dates the record. A word that begins as no month does (`Accepted in sprint 12, 2024`) is prose;
 * a day the month has not (`February 30, 2026`), or another weekday's, is said.
 */
const NAMED_DAY_WRITTEN = String.raw`(?:${WEEKDAY_WORD}\.?,?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH_WORD}\.?,?\s+\d{4}|${MONTH_WORD}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})`

/**
 * The months as the records whose status words are read in Spanish, Portuguese, French, German and
 * Italian name them (`junio`, `junho`, `juin`, `Juni`, `giugno`), with and without their accents.
 */
const OTHER_MONTHS = [
  ...['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre'],
  ...['janeiro', 'fevereiro', 'março', 'marco', 'maio', 'junho', 'julho', 'setembro', 'outubro', 'novembro', 'dezembro'],
  ...['janvier', 'février', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'aout', 'septembre', 'octobre', 'novembre', 'décembre', 'decembre'],
  ...['januar', 'jänner', 'februar', 'märz', 'maerz', 'april', 'juni', 'juli', 'august', 'september', 'oktober', 'dezember'],
  ...['gennaio', 'febbraio', 'aprile', 'maggio', 'giugno', 'luglio', 'settembre', 'ottobre', 'dicembre'],
]

/** One of OTHER_MONTHS, whole, in any case (`juin`, `Juni`, `JUIN`), as MONTH_WORD is written. */
const OTHER_MONTH_WORD = `(?:${OTHER_MONTHS.map((m) => [...m].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})(?!\\p{L})`

/**
 * A day with its month named in another language, as those records write one (`5 juin 2023`,
 * `1er juin 2023`, `5. Juni 2023`, `5 de junio de 2023`): readDate reads none, and a `Date:` field
 * written so is said as not a date; beside a status (`Accepted on 5 juin 2023`, `Accepté le 5 juin
 * 2023`) it was passed over unsaid, the record read as if no day were written there.
 */
const OTHER_NAMED_DAY_WRITTEN = String.raw`\d{1,2}(?:\.|er)?\s+(?:de\s+)?${OTHER_MONTH_WORD}\.?,?\s+(?:de\s+)?\d{4}`

/** Struck-out text (`~~Accepted~~`) and the separator after it (`|`, `,`, a dash or an arrow). */
const STRUCK = /~~[^~]*~~\s*(?:[|,;:\u2014\u2013]|->|=>|\u2192)?\s*/g

/** An arrow before a line's words: no step of a status that moved on, for none came before it. */
const LEADING_ARROW = /^\s*(?:\u2192|\u27f6|\u2794|\u279c|\u21d2|->|=>)\s*/

/** A day before a status word, and what separates them. */
const DAY_BEFORE = new RegExp(String.raw`^\[?(${DAY_WRITTEN})\]?(?:\s*[:\u2014\u2013-]\s*|\s+)(?=\p{L})`, 'u')
/** The day dayAfter reads, and the end of it: tried right after a separator. */
const DAY_AND_END = String.raw`((?:${WEEKDAY_WORD}\.?,?\s+)?${DAY_WRITTEN}|${NAMED_DAY_WRITTEN}|${OTHER_NAMED_DAY_WRITTEN})(?![\d./-]*\d)`
/** The separators between a status word and its day but who took the step, and the day after them. */
export const DAY_AFTER_WORD = new RegExp(String.raw`^\p{L}+(?:\s*[(:,.\u2014\u2013-]\s*|\s+(?:on|el|le|am|em|il)\s+|\s+)${DAY_AND_END}`, 'u')
/** The words before who took the step, `Accepted by`, and the white space after them. */
const ACCEPTED_BY = /^\p{L}+\s+by(\s+)/u
/** The end of who took the step, `on` or a comma, and the day after it, tried where a name may end. */
const ON_DAY = new RegExp(String.raw`(?:\s+on\s+|\s*,\s*)${DAY_AND_END}`, 'uy')

/**
 * A day right after a status word: `Accepted (2020-05-05)`, `Accepted on 2020-05-05`, `Accepted: 2020-05-05`,
 * after its weekday too, as a `Date:` field reads it (`Accepted on Tuesday, 2020-05-05`),
 * or after a dash, `Accepted — 2020-05-05`, `Accepted - 2020-05-05`, as a day before it may be written,
 * or after a full stop, `Accepted. 2026-09-10.`, as many records write the status as a sentence;
 * "on" as a record in another language writes it too (`Aceptado el …`, `Acceptée le …`, `Angenommen am …`).
 * Or after who took the step (`Accepted by the maintainer on 2026-10-06`, `Accepted by Roy Kollen
 * Svendsen, 2026-10-05`), as many records write it: words of the same sentence (no full stop,
 * bracket or semicolon among them, 1 to 80 characters), then `on` or a comma. Read as
 * `\s+by\s+[^.;:()\[\]\n]{1,80}?(?:\s+on\s+|\s*,\s*)` was, whose white space after `by`, lazy
 * name and white space before `on` split a run of spaces every way, from each place the name might
 * end to the run's end: `Superseded by`, 20,000 spaces and a word took a minute and a half. A name
 * begun inside that white space ends where the name begun at its end has ended already, else at a
 * character of the white space, from which what follows reads alike: each is tried once, in the
 * order the pattern tried them.
 */
export function dayAfter(text: string): string | undefined {
  const word = DAY_AFTER_WORD.exec(text)
  if (word !== null) return word[1]
  const by = ACCEPTED_BY.exec(text)
  if (by === null) return undefined
  const end = by[0].length
  const start = end - (by[1] as string).length
  const dayAt = (at: number) => {
    ON_DAY.lastIndex = at
    return ON_DAY.exec(text)?.[1]
  }
  // The name from the end of the white space: 1 to 80 characters, none of `.;:()[]` or a line break.
  for (let at = end, count = 0; count < 80; count++) {
    const char = String.fromCodePoint(text.codePointAt(at) ?? 0x0a)
    if (/[.;:()[\]\n]/.test(char)) break
    at += char.length
    const day = dayAt(at)
    if (day !== undefined) return day
  }
  // A name begun inside the white space: ending at its last character, then at any before it, alike.
  if (end - start < 2) return undefined
  if (text[end - 1] !== '\n') {
    const day = dayAt(end)
    if (day !== undefined) return day
  }
  for (let at = end - 1; at >= start + 2; at--) if (text[at - 1] !== '\n') return dayAt(at)
  return undefined
}

/**
 * "Superseded by" and "Supersedes" as records in Spanish, Portuguese, French, German and Italian
 * write them (`reemplazado por 0007`, `remplacé par [ADR-5](…)`, `ersetzt durch ADR-5`,
 * `Reemplaza a [ADR-2](…)`). German's `ersetzt` alone is "replaced", its successor after `durch`.
 */
const TRANSLATED_SUPERSEDED_BY = String.raw`(?:(?:reemplazad[oa]|sustituid[oa]|superad[oa]|substitu[ií]d[oa])\s+por|remplac[eé]e?s?\s+par|(?:ersetzt|abgel[oö]st)\s+(?:durch|von)|(?:sostituit[oa]|superat[oa])\s+da)(?![A-Za-z\u00C0-\u024F])`
const TRANSLATED_SUPERSEDES = String.raw`(?:(?:reemplaza|sustituye|substitui|sostituisce)(?![A-Za-z\u00C0-\u024F])(?:\s+a(?=\s))?|remplace(?![A-Za-z\u00C0-\u024F]))`
/**
 * The link words of a supersede, as records write them (adr-tools writes "Supercedes"); one list for
 * a link on a line of its own and one after a status on its line. "Obsoleted by" names what replaces
 * the record, as RFCs use it (and adr-tools users name their own link types, `adr new -l
 * "3:Obsoletes:Obsoleted by"`): a supersede, not a deprecation, which names no successor.
 */
const SUPERSEDED_BY = String.raw`(?:(?:superseded|superceded|replaced|obsoleted)\s+by|${TRANSLATED_SUPERSEDED_BY})`
const SUPERSEDES = String.raw`(?:supersedes|supercedes|replaces|obsoletes|${TRANSLATED_SUPERSEDES})`
/** A line that is a link alone: `Superseded by [3. …](…)`, `Supersedes: ADR-0002`. */
const SUPERSEDED_BY_LINE = new RegExp(String.raw`^${SUPERSEDED_BY}\s*:?\s*(.+)$`, 'i')
const SUPERSEDES_LINE = new RegExp(String.raw`^${SUPERSEDES}\s*:?\s*(.+)$`, 'i')

function readStatusWords(plain: string, dayBefore: string | undefined, definitions?: LinkDefinitions): StatusLine | undefined {
  const words = plain.replace(/^\[|\]$/g, '').replace(BADGE, '').toLowerCase()
  if (listsChoices(words)) return undefined
  // Replaced in part, the record still holds in the rest: a link that changes no status, as "Amended by" is.
  if (PARTLY.test(words)) return {}
  const superseded = SUPERSEDED_BY_LINE.exec(plain)
  if (superseded !== null) {
    const [first, ...more] = recordsNamed(superseded[1] as string, definitions)
    return { status: 'superseded', supersededBy: first ?? linkTarget(superseded[1] as string, definitions), ...(more.length > 0 ? { moreSupersededBy: more } : {}) }
  }
  const supersedes = SUPERSEDES_LINE.exec(plain)
  if (supersedes !== null) {
    const [first, ...more] = recordsNamed(supersedes[1] as string, definitions)
    return { supersedes: first ?? linkTarget(supersedes[1] as string, definitions), ...(more.length > 0 ? { moreSupersedes: more } : {}) }
  }
  const moved = statusMovedOn(plain, definitions) ?? statusLogOnLine(plain, definitions)
  if (moved !== undefined) return moved
  // The day written with the status word is the status's day, when it is a day of the calendar.
  const day = readDate(dayBefore ?? dayAfter(plain) ?? '')
  const withLink = statusWithLink(plain, definitions)
  // A day before the status (`2020-05-05 Accepted, supersedes […]`) was cut off the words the link's head is read from.
  if (withLink !== undefined) return withLink.date === undefined && day !== undefined ? { ...withLink, date: day } : withLink
  if (/^(amended by|amends|clarified by|clarifies)\b/.test(words)) return {}
  // "Superseded" and then its successor, joined otherwise than by "by" (`Superseded (ADR-0005)`,
  // `Superseded, see [ADR-0005](…)`, `Superseded in favour of ADR-0005`): the link is the record named.
  const successor = SUCCESSOR.exec(plain)
  // A key is written in capitals (`ADR-0005`, `DEC-12`): `Superseded (v2-3 migration)` names no record.
  if (successor !== null && KEY_LIKE.test(successor[1] as string)) {
    const named = successor[1] as string
    return { status: 'superseded', supersededBy: named.startsWith('[') ? linkTarget(named, definitions) : named, ...(day === undefined ? {} : { date: day }) }
  }
  // Statuses listed (`Accepted, deprecated`, `accepted,deprecated`), of which a decision has one:
  // read by its first word, a record written deprecated too was imported in force.
  if (listsStatuses(words)) return undefined
  // The words of a status joined by a hyphen or an underscore, as a tag or a key writes them
  // (`in-progress`, `on_hold`, `under-review`), are its words.
  const joined = words.replace(/(\p{L})[-_](?=\p{L})/gu, '$1 ')
  for (const [pattern, status] of WORDS) if (pattern.test(words) || pattern.test(joined)) return day === undefined ? { status } : { status, date: day }
  // adr-tools writes a line per link of any type its user names (`adr new -l "3:Extends:Extended
  // by"`, `adr link`): words and a link to another record, which change no status.
  if (/^[a-z][a-z -]*\s\[[^\]]*\](?:\([^)]*\)|\s?\[[^\]]*\])?$/i.test(plain)) return {}
  return undefined
}

/**
 * Whether a status line is the template's list of the statuses to choose from, left as it was
 * (MADR 2's `[proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](…)]`, MADR
 * 3's `proposed | rejected | accepted | …`, or `Proposed / Accepted / Rejected`): it says no
 * status. Read by its first word, or by its link, such a record was imported proposed, or
 * superseded by the template's example. Three statuses or more between `|` or `/`, or both
 * accepted and rejected; one status beside a link (`Deprecated | Superseded by […]`), or two
 * words for one status (`Accepted/Implemented`), is a status.
 */
export function listsChoices(words: string): boolean {
  // A link's address is no list: its folders may be named as statuses (an RFC repository's
  // `rfcs/blob/main/rejected/0012.md`), and an accepted record that linked one was left out.
  const said = withoutAddresses(words)
  const choices = said.split(/[|/]/).flatMap((choice) => {
    const word = choice.trim()
    const superseded = SUPERSEDED_BY_FIRST.test(word)
    return superseded ? ['superseded'] : WORDS.filter(([pattern]) => pattern.test(word)).map(([, status]) => status)
  })
  return choices.length >= 3 || (choices.includes('accepted') && choices.includes('revoked'))
}

/** A choice that is a link word of a successor (`superseded by [ADR-0005](…)`), built once, not once a choice. */
const SUPERSEDED_BY_FIRST = new RegExp(String.raw`^${SUPERSEDED_BY}\b`)

/**
 * A status line's words without what its links point at, which may be named as statuses are (an
 * RFC repository's `rfcs/blob/main/rejected/0012.md`): a link's target (`[…](…)` as `[…]`), an
 * address in angle brackets (`<https://…>`) and a bare one (`https://…`), as
 * `.replace(/\]\([^)]*\)/g, ']').replace(/<[a-z][a-z0-9+.-]*:[^>\s]*>/gi, '').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '')`
 * left them. Those scanned from each `](` to the end where no `)` followed, and from each letter of
 * a run such as `-a-a-a` for the `:` after it: 100,000 characters of either took minutes.
 */
export function withoutAddresses(words: string): string {
  // A target ends at a `)`: none begins after the last one.
  const lastParen = words.lastIndexOf(')') + 1
  const targetless = words.slice(0, lastParen).replace(/\]\([^)]*\)/g, ']') + words.slice(lastParen)
  return withoutBareAddresses(targetless.replace(/<[a-z][a-z0-9+.-]*:[^>\s]*>/gi, ''))
}

/**
 * A text without its addresses, as `.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '')` left it. Every
 * letter of a run of a scheme's characters ends its scheme at the run's end, where the `://` is or
 * is not: the run is found once, from its first character, and the address begins at the first
 * letter of it after a word's boundary.
 */
function withoutBareAddresses(text: string): string {
  const schemes = /(?<![a-z0-9+.-])[a-z0-9+.-]+:\/\/(?=\S)/gi
  let out = ''
  let from = 0
  for (let run = schemes.exec(text); run !== null; run = schemes.exec(text)) {
    const colon = run.index + run[0].length - 3
    let start = run.index
    while (start < colon && !(/[a-z]/i.test(text[start] as string) && (start === 0 || !/\w/.test(text[start - 1] as string)))) start++
    if (start === colon) {
      schemes.lastIndex = colon
      continue
    }
    const space = /\s/g
    space.lastIndex = colon + 3
    const end = space.exec(text)?.index ?? text.length
    out += text.slice(from, start)
    from = end
    schemes.lastIndex = end
  }
  return out + text.slice(from)
}

/*
 * The separators below, in a line split by them, and DAY_WITH_STATUS begin their white space with
 * `(?:(?<!\s)\s+)?` (or `(?<!\s)`) where they began `\s*`: from the first white space of a run
 * only, where a match in the run begins anyway. Tried at each character of a run, `\s*` ran to its
 * end from every one, and a status line of 100,000 spaces took seconds for each.
 */
/** What a list of statuses is written with: `Accepted, deprecated`, `Accepted / Deprecated`, `Accepted and deprecated`. */
export const STATUS_LIST_SEPARATOR = /(?:(?<!\s)\s+)?(?:[,;|/&+]|\sand\s)\s*/
/** What the steps of a status line are written apart with: `Proposed 2025-01-10, 2025-03-01 Accepted`. */
export const STEP_SEPARATOR = /(?:(?<!\s)\s+)?([,;])\s*/
/** What the records a link word names are written apart with: `ADR-0020 and ADR-0025`, `D-1, D-2`. */
export const NAMES_SEPARATOR = /(?:(?<!\s)\s+)?(?:,|&|\+|\band\b)\s*/i

/**
 * Whether a status line lists two statuses or more (`Accepted, deprecated`, `accepted,deprecated`,
 * `Accepted; rejected`, `Accepted and deprecated`, `Accepted / Deprecated`), as a YAML list of
 * them does: a status word, then after a comma, a semicolon, `|`, `/`, `&`, `+` or `and` one
 * that is another status, alone or with its day (`deprecated on 2024-03-01`). Two words for one
 * status (`Accepted/Implemented`, `Accepted, done`) are that status, and a note after the status
 * (`Accepted, but only for the backend`, `Accepted, open to revisiting`) is no second one.
 */
export function listsStatuses(words: string): boolean {
  const said = withoutAddresses(words)
  const [first, ...rest] = said.toLowerCase().split(STATUS_LIST_SEPARATOR)
  const held = WORDS.find(([pattern]) => pattern.test((first ?? '').replace(BADGE, '').trim()))?.[1]
  if (held === undefined) return false
  return rest.some((item) => {
    const dayless = item.replace(BADGE, '').replace(DAY_WITH_STATUS, '')
    const word = withoutTrailing(dayless, '.!').trim()
    const whole = WORDS.find(([pattern]) => pattern.exec(word)?.[0] === word)
    return whole !== undefined && whole[1] !== held
  })
}

/**
 * What an unknown status line's words are said to be, after its quoted text: the template's list of
 * statuses left as it was, or statuses listed where a decision has one; else nothing.
 */
export function statusesSaid(words: string): string {
  if (listsChoices(words)) return ": the template's list of statuses, left as it was; write the one that holds"
  if (listsStatuses(words)) return ': a list of statuses, where a decision has one; write the one that holds'
  return ''
}

/** A day written after a status word, to its end: ` on 2024-03-01`, ` (2024-03-01)`, `: 2024-03-01`. */
export const DAY_WITH_STATUS = new RegExp(String.raw`(?<!\s)(?:\s*[(:\u2014\u2013-]\s*|\s+on\s+|\s+)\(?${DAY_WRITTEN}\)?$`)

/** The arrows a status written over time is joined with: `Proposed → Accepted`, `Proposed -> Accepted`. */
export const STEP = /(?:(?<!\s)\s+)?(?:\u2192|\u27f6|\u2794|\u279c|\u21d2|->|=>)\s*/

/**
 * A status as it moved on (`Proposed → Accepted`, `Draft -> Proposed -> Accepted`): the last one
 * holds, as the record's history says it, and the links of every step are kept. Only when each step
 * reads as a status line: an arrow in a link's text (`Superseded by [3. REST -> gRPC](…)`) is none.
 */
function statusMovedOn(plain: string, definitions?: LinkDefinitions): StatusLine | undefined {
  const steps = plain.split(STEP)
  if (steps.length < 2) return undefined
  const read = steps.map((step) => readStatusLine(step, definitions))
  if (read.some((r) => r === undefined)) return undefined
  // The status that holds, and the day written with it; a day of an earlier step is not its day.
  const last = (read as StatusLine[]).findLast((r) => r.status !== undefined)
  const links = (read as StatusLine[]).map(({ status: _status, date: _date, ...link }) => link)
  return { ...Object.assign({}, ...links), ...(last === undefined ? {} : { status: last.status }), ...(last?.date === undefined ? {} : { date: last.date }) }
}

/**
 * A status log written on one line, each step with its day (`Proposed (2020-01-01), Accepted
 * (2020-02-01)`): the latest day's step holds, as in a status log of a line per day, where the
 * first step read alone imported an accepted record as a proposal nothing enforces. Only when
 * each part between `,` or `;` is a status with its day: `Accepted, but see ADR-0009` is a status
 * with words after it, and `Accepted, 2020-05-05` one status and its day.
 */
function statusLogOnLine(plain: string, definitions?: LinkDefinitions): StatusLine | undefined {
  // A step is a status and what follows it up to the next: a part that names no status is of the
  // step before (`Accepted by the team, 2024-01-01`, the year of `March 3, 2024`), and one that does
  // begins a step, its day before it too (`Proposed 2025-01-10, 2025-03-01 Accepted`).
  const parts = plain.split(STEP_SEPARATOR)
  const steps = [parts[0] as string]
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const part = parts[i + 1] as string
    if (readStatusLine(part, definitions)?.status === undefined) steps[steps.length - 1] += `${parts[i] as string} ${part}`
    else steps.push(part)
  }
  if (steps.length < 2) return undefined
  const read = steps.map((step) => readStatusLine(step, definitions))
  if (read.some((r) => r?.status === undefined || r.date === undefined)) return undefined
  // The latest day; of two steps on one day, the one written last.
  const latest = (read as StatusLine[]).reduce((a, b) => ((b.date as string) >= (a.date as string) ? b : a))
  const links = (read as StatusLine[]).map(({ status: _status, date: _date, ...link }) => link)
  return { ...Object.assign({}, ...links), status: latest.status, date: latest.date }
}

/** "Superseded" and the record that replaced it right after, joined by a mark or a few words rather than "by". */
const SUCCESSOR =
  /^superse[dc]ed\b\s*(?:[(:,;\u2014\u2013\u2192-]|->)?\s*(?:by\s*:?\s*|see\s+|in\s+favou?r\s+of\s+)?(\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])?|[Aa][Dd][Rr][-_\s]*\d{1,5}\b|[A-Z][A-Z0-9]*-\d+\b|[^\s()]+\.md\b)/i

/** What SUCCESSOR may name, in the case it is written: a link, `ADR-5` in any case, a key in capitals, a file. */
const KEY_LIKE = /^(?:\[|[Aa][Dd][Rr][-_\s]*\d|[A-Z][A-Z0-9]*-\d+$|.*\.md$)/

/** A supersede in part (`Partially superseded by ADR-0009`): the record still holds in the rest. */
const PARTLY = new RegExp(String.raw`^(?:partially|partly)\s+(?:${SUPERSEDED_BY}|${SUPERSEDES})\b`, 'i')

/** A link word, tried where it would begin: `Supersedes`, `superseded by`. */
const LINK_WORD = new RegExp(String.raw`${SUPERSEDED_BY}\b|${SUPERSEDES}\b`, 'iy')

/** What may be written between a status and a link word: white space around one mark, or white space. */
const BEFORE_LINK_WORD = /^\s*(?:[,;:.(\u2014\u2013]|\s-|\s)\s*$/

/** A character such a mark or white space is made of. */
const MARK_OR_SPACE = /[\s,;:.(\u2014\u2013-]/

/**
 * A link word after a status on its line (`Accepted, Supersedes [...]`, `Deprecated; superseded by
 * [...]`): what is before it (the least of the line there may be), the word and what is after it,
 * as `/^(.+?)\s*(?:[,;:.(—–]|\s-|\s)\s*(SUPERSEDED_BY\b|SUPERSEDES\b)(.*)$/i` read them; that
 * pattern tried every split of a run of spaces between its lazy text and the white space on either
 * side of the mark, and one status line of 10,000 spaces before a word took minutes. The word
 * begins with a letter, which no mark is: the first link word with marks or spaces before it that
 * may be split so is the one the pattern found, and its least start of those is the text's end.
 */
export function linkAfterStatus(plain: string): [before: string, word: string, rest: string] | undefined {
  // The text before the word and after it hold no line break, as `.` reads none; what is between may.
  const firstBreak = plain.search(/[\n\r\u2028\u2029]/)
  const lastBreak = Math.max(...['\n', '\r', '\u2028', '\u2029'].map((b) => plain.lastIndexOf(b)))
  for (let at = 2; at < plain.length; at++) {
    if (!MARK_OR_SPACE.test(plain[at - 1] as string)) continue
    LINK_WORD.lastIndex = at
    const word = LINK_WORD.exec(plain)
    if (word === null || lastBreak >= at + word[0].length) continue
    let start = at - 1
    while (start > 1 && MARK_OR_SPACE.test(plain[start - 1] as string)) start--
    // Marks and white space between the status and the word: the least start leaving one mark at most.
    const marks: number[] = []
    for (let i = start; i < at; i++) if (!/\s/.test(plain[i] as string)) marks.push(i)
    if (marks.length >= 2) start = (marks[marks.length - 2] as number) + 1
    // Else that mark is a `-` with no white space before it, and the white space after it is the split.
    for (const from of [start, start + 1]) {
      if (firstBreak >= 0 && firstBreak < from) return undefined
      if (from < at && BEFORE_LINK_WORD.test(plain.slice(from, at))) return [plain.slice(0, from), word[0], plain.slice(at + word[0].length)]
    }
  }
  return undefined
}

/**
 * What names a record right after a link word in the middle of a line: a Markdown link, a key
 * (`ADR-0002`, `adr 2`, `D-004`: capitals, as keys are written, so `utf-8` is none) or a file. Only
 * there: words after it (`replaces the workaround of ADR-0003`, `replaces the checklist [wiki](…)`)
 * are prose, and a record they mention is not the one replaced.
 * The white space around its `:` is read one way (`\s*(?::\s*)?`), where `\s*:?\s*` split a run of
 * spaces after `Accepted, supersedes` every way, seconds for 100,000 before a word.
 */
export const NAMED_RECORD = /^\s*(?::\s*)?(\[[^\]]*\]|[Aa][Dd][Rr][-_\s]*\d{1,5}\b|[A-Z][A-Z0-9]*-\d+\b|[^\s()]+\.md\b)/

/**
 * The subject of a link word after the status, when it names a part of the record rather than the
 * record (`Accepted; the 14-command figure is`, `Accepted, its retry limit was`): `the`, `its`, … and
 * words, then `is`, `was`, `has been`, …. The record itself (`this ADR is`, `the decision was`, `it is`),
 * and the words a record calls itself by (`the proposal`, `the approach`, `the choice`), is no part.
 */
const PART_NAMED =
  /[,;.:]\s*(?:the|its|their|our|one|a|an|some)\s+(?!(?:adr|decision|record|status|whole|proposal|approach|choice|solution|option|design|policy)\s+(?:is|are|was|were|has|have)\b)[^,;.:]*?\b(?:is|are|was|were|has\s+been|have\s+been)(?:\s+(?:now|since|also))?$/i

/**
 * A status and a supersede link on one line (`Accepted, Supersedes [2. Use X](0002-use-x.md)`), as
 * people write them when they merge the lines adr-tools writes apart. A "Superseded by" makes it
 * superseded, as on a line of its own. Only a link that names a record is one: `Accepted, replaces the
 * manual process` is a status with words after it.
 */
function statusWithLink(plain: string, definitions?: LinkDefinitions): StatusLine | undefined {
  const match = linkAfterStatus(plain)
  if (match === undefined) return undefined
  const [before, linkWord, rest] = match
  const named = NAMED_RECORD.exec(rest)
  const head = readStatusLine(before, definitions)
  if (named === null || head?.status === undefined) return undefined
  // `Accepted, partially superseded by ADR-0009`: still accepted, in the rest; no successor replaces it.
  if (/\b(?:partially|partly)$/i.test(before)) return head
  // `Accepted; the 14-command figure is superseded by ADR-0178`: a part named, not the record, is
  // replaced, and the record stands as partly superseded does.
  if (PART_NAMED.test(before)) return head
  const target = (named[1] as string).startsWith('[') ? linkTarget(rest, definitions) : (named[1] as string)
  const more = recordsNamed(rest, definitions).slice(1)
  return /\bby$/i.test(linkWord)
    ? { ...head, status: 'superseded', supersededBy: target, ...(more.length > 0 ? { moreSupersededBy: more } : {}) }
    : { ...head, supersedes: target, ...(more.length > 0 ? { moreSupersedes: more } : {}) }
}

/** A record named without a link: a key, an ADR number, a file. */
const ONE_NAME = /^(?:[Aa][Dd][Rr][-_\s]*\d{1,5}|[A-Z][A-Z0-9]*-\d+|[^\s()]+\.md|\d{1,5})$/

/**
 * The records a link word names when it names several (`ADR-0020 and ADR-0025`, `[20](…), [25](…)`,
 * links joined by `and`, `,`, `&` or `+`), each as linkTarget reads one; else [], and the text
 * is read as one link.
 */
export function recordsNamed(text: string, definitions?: LinkDefinitions): string[] {
  // A link to a page elsewhere (`(see [the RFC](https://…))`) names no record of the folder.
  const links = linksIn(text).filter((link) => !/:\/\//.test(link))
  if (links.length >= 2) return links.map((link) => linkTarget(link, definitions))
  const parts = withoutTrailing(text.trim(), '.;')
    .split(NAMES_SEPARATOR)
    .filter((part) => part !== '')
  return parts.length >= 2 && parts.every((part) => ONE_NAME.test(part)) ? parts : []
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** The number of an English month's name, whole or cut to 3 letters or more (`March`, `Mar`, `Mar.`, `Sept`), else undefined. */
function monthOf(name: string): number | undefined {
  const word = name.toLowerCase().replace(/\.$/, '')
  if (word.length < 3) return undefined
  const i = MONTHS.findIndex((month) => month.startsWith(word))
  return i < 0 ? undefined : i + 1
}

/** `5 May 2020`, `5th May, 2020`, `5th of May 2020`, `May 5, 2020`: a day with its month named, which no order makes ambiguous. */
const NAMED_MONTH_DATE = /^\s*(?:(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+\.?),?\s+(\d{4})|([a-z]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))\s*$/i

/**
 * `21/02/2017`, `02/21/2017`: a day and a month with slashes, read only when one order alone makes a
 * day of the calendar (a number over 12 is the day), or both make the same one (`05/05/2020`), as
 * adr-tools wrote its dates before 2018 (`dd/mm/yyyy`, its own records among them); `05/06/2020`, the
 * 5th of June or May 6th, is left unread, never guessed.
 */
const SLASHED_DATE = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/

/** The days of the calendar a slashed date can be, day first or month first, each once: none, one or two. */
function slashedReadings(text: string): string[] {
  const slashed = SLASHED_DATE.exec(text)
  if (slashed === null) return []
  const [, a, b, year] = slashed as unknown as [string, string, string, string]
  const pad = (n: string) => n.padStart(2, '0')
  return [...new Set([`${year}-${pad(b)}-${pad(a)}`, `${year}-${pad(a)}-${pad(b)}`].filter(isCalendarDate))]
}

/**
 * What an import says of a date it could not read: a day and a month with slashes that both orders
 * make a day (`12/02/2016`) names both, since it is a date, only not one to guess. Then what the
 * record is read with: without a date, or, when another of its fields (or its file name) dated it
 * (`dated`: `Date: TBD` over `Decision date: 2024-03-01`), passed over for that day, as a line of a
 * status section is passed over for the status another names: "the record is read without it" said
 * a record had no date that was imported dated.
 */
export function unreadDateMessage(text: string, latest?: string, dated?: string | null): string {
  const outcome = dated == null ? 'the record is read without it' : `passed over, the record is dated ${dated}`
  const day = readCalendarDay(text)
  if (day !== undefined && day < FIRST_DECISION_DAY) return `${quoted(text)} is before ${FIRST_DECISION_DAY.slice(0, 4)}; ${outcome}`
  if (day !== undefined && latest !== undefined && day > latest) return `${quoted(text)} is after tomorrow (${latest}); ${outcome}`
  const readings = slashedReadings(text)
  if (readings.length === 2) return `${quoted(text)} could be ${readings[0]} or ${readings[1]}; ${outcome} (write the one it is as YYYY-MM-DD)`
  return `${quoted(text)} is not a date; ${outcome}`
}

/** `12.05.2019`, `12.5.2019`: the day first, as every convention that writes dots has it (German, Russian, …). */
const DOTTED_DATE = /^\s*(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})\s*$/

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

/** A weekday named before a date (`Tuesday, 12 March 2019`, `Tue 12 Mar 2019`), and the date after it. */
const WEEKDAY_BEFORE = /^\s*([a-z]{3,})\.?,?\s+(\S.*)$/i

/**
 * A record's date as `YYYY-MM-DD`: from `2024-03-04`, `2024/03/04`, `2024-3-4`, `20240304`, an ISO
 * time a decision's `date` takes (its day as written, whatever its offset; a space before the offset too, `2024-03-04 21:33:43 -0800`, as Jekyll writes it, or before a `Z` or an offset after a `T` time, `2024-03-04T10:00:00 Z`; a zone named after a space, `2024-03-04T10:00:00 UTC`, `2024-03-04 10:00:00 PST`), with the month named in English, `4 March
 * 2024`, `4th of March 2024` or `March 4, 2024` (records written by hand), or day first with dots,
 * `04.03.2024`; after the weekday, `Monday, 4 March 2024`, when it is that day's (a weekday that is
 * not leaves it unread: one of the two is wrong); with slashes when only one order is a day,
 * `21/02/2017` or `02/21/2017`. `04/03/2024` stays unread: the 4th of March or April 3rd. A day
 * before 1970 (FIRST_DECISION_DAY) stays unread too, and one after `latest` (the reader's tomorrow), when given.
 * A full stop after the last digit, as a sentence ends (`2026-09-27.`), is no part of the date.
 */
export function readDate(text: string, latest?: string): string | undefined {
  const day = readCalendarDay(text)
  // A day before the first a decision may be dated (`0202-05-05`, a slip of the year), or after
  // tomorrow (`2099-01-01`, `9999-12-31`, which would stand after every later decision), is no
  // decision's day: unread, and said, rather than the service refusing the whole import for it.
  return day !== undefined && day >= FIRST_DECISION_DAY && (latest === undefined || day <= latest) ? day : undefined
}

/** The day of the calendar a text writes, as readDate reads it, whatever its year. */
function readCalendarDay(written: string): string | undefined {
  // A field line written as a sentence ends with its full stop (`Date: 2026-09-27.`): one, after a digit.
  const text = written.replace(/(\d)\.\s*$/, '$1')
  const weekday = WEEKDAY_BEFORE.exec(text)
  const named = weekday === null ? -1 : WEEKDAYS.findIndex((d) => d.startsWith((weekday[1] as string).toLowerCase()))
  if (weekday !== null && named >= 0) {
    const day = readDay(weekday[2] as string)
    return day !== undefined && new Date(`${day}T00:00:00Z`).getUTCDay() === named ? day : undefined
  }
  return readDay(text)
}

/**
 * A day in numbers, year first, with dashes, and the ISO time it goes on with as a decision's `date`
 * takes it (`2024-02-01T10:00:00Z`), or after a space as Jekyll writes it (`2020-05-05 21:33:43
 * -0800`): so that `2024-02-01T25:00:00Z`, a leap second, a `+24:00`, or a time after a day with
 * slashes (`2024/02/01T10:00:00Z`), is no date here either, rather than read as its day. After
 * either time, one space before a `Z` (`z` too) or an offset within ±23:59 (`2024-02-01T10:00:00 Z`,
 * `… +01:00`, `2024-02-01 10:00:00 Z`), or before a zone named (`2024-02-01T10:00:00 UTC`, `… PST`,
 * `… GMT+1`: NAMED_TIME_ZONE), says the time as clearly as the zone glued to it: its day as written,
 * where such a date was said as none, and `Accepted on 2024-02-01T10:00:00 Z` beside a status with it.
 */
const YEAR_FIRST_TIME = new RegExp(`^\\s*(\\d{4})-(\\d{2})-(\\d{2})[T ]${TIME_OF_DAY}(?: ?${TIME_ZONE}| z| ${NAMED_TIME_ZONE})?\\s*$`)

/** A day in numbers, year first, alone: `2024-02-01`, `2024/02/01`, `2024.02.01`, `20240201`. */
const YEAR_FIRST_DATE = /^\s*(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})\s*$/

/** A date without a weekday, as readDate reads it. */
function readDay(text: string): string | undefined {
  const pad = (n: string) => n.padStart(2, '0')
  const numbers =
    YEAR_FIRST_DATE.exec(text) ??
    YEAR_FIRST_TIME.exec(text) ??
    /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\s*$/.exec(text)
  const dotted = numbers === null ? DOTTED_DATE.exec(text) : null
  const named = numbers === null && dotted === null ? NAMED_MONTH_DATE.exec(text) : null
  let day: string
  if (numbers !== null) day = `${numbers[1]}-${pad(numbers[2] as string)}-${pad(numbers[3] as string)}`
  else if (dotted !== null) day = `${dotted[3]}-${pad(dotted[2] as string)}-${pad(dotted[1] as string)}`
  else if (named !== null) {
    const [dayOfMonth, monthName, year] = (named[1] !== undefined ? [named[1], named[2], named[3]] : [named[5], named[4], named[6]]) as [string, string, string]
    const month = monthOf(monthName)
    if (month === undefined) return undefined
    day = `${year}-${pad(String(month))}-${pad(dayOfMonth)}`
  } else {
    // Read only when one order alone makes a day, or both the same one: never guessed.
    const readings = slashedReadings(text)
    return readings.length === 1 ? readings[0] : undefined
  }
  return isCalendarDate(day) ? day : undefined
}
