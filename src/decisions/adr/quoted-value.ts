import { characters, leadingCharacters } from '../../domain/limits'

/**
 * The most of a value an import problem quotes: a status line, a date or a link as a person writes
 * one fits, and so does the list of statuses a MADR template leaves (`{proposed | rejected | … |
 * superseded by [ADR-0005](0005-example.md)}`, 93 characters), which the user reads to see it is that.
 */
export const QUOTED_CHARACTERS = 100

/**
 * A value as an import problem quotes it: whole (`"Pondering"`), or, over QUOTED_CHARACTERS, its
 * first 100 characters, `…` and its length (`"We discussed…" (100,000 characters)`). Quoted whole,
 * a 100 KB `## Status` line (a file pasted into it, minified) made a problem line of 100 KB, which
 * scrolled the folder's other problems out of the terminal; the path and line find the rest.
 */
export function quoted(value: string): string {
  const cut = cutShort(value)
  return cut === undefined ? `"${value}"` : `"${cut.head}…" (${cut.length} characters)`
}

/**
 * Another's words an import problem repeats (YAML's reason, which quotes what it could not read:
 * `Block scalar header includes extra characters: |…`), bounded as quoted bounds a value: whole, or
 * its first 100 characters, `…` and its length.
 */
export function shortened(text: string): string {
  const cut = cutShort(text)
  return cut === undefined ? text : `${cut.head}… (${cut.length} characters)`
}

/** A text over QUOTED_CHARACTERS as its first ones and its length, written with thousands separated; else undefined. */
function cutShort(text: string): { head: string; length: string } | undefined {
  // A text of at most 100 UTF-16 units is at most 100 characters: not counted.
  if (text.length <= QUOTED_CHARACTERS) return undefined
  const length = characters(text)
  if (length <= QUOTED_CHARACTERS) return undefined
  return { head: leadingCharacters(text, QUOTED_CHARACTERS), length: length.toLocaleString('en-US') }
}

/** The most items of a list an import problem names before saying how many more. */
export const LISTED_ITEMS = 5

/**
 * Items an import problem lists (the records a link names, the places that share a key), each
 * shortened, the first five and then how many more: `ADR-1, ADR-2, ADR-3, ADR-4, ADR-5, and 995
 * more`. Listed whole, a key written in 2,000 sections of a log made each of its 2,000 problem lines
 * name the 1,999 others, tens of megabytes said.
 */
export function shortList(items: readonly string[]): string {
  const shown = items.slice(0, LISTED_ITEMS).map(shortened).join(', ')
  return items.length > LISTED_ITEMS ? `${shown}, and ${(items.length - LISTED_ITEMS).toLocaleString('en-US')} more` : shown
}
