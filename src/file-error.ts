/** What the codes every file or folder may meet mean, in words a person can act on. */
const WORDS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of the path is a file, not a folder',
  EROFS: 'a read-only file system',
  ENOSPC: 'the disk is full',
}

/**
 * A file system error's `code` in words, those given for this place first, the code kept beside
 * them (`there is no such folder (ENOENT)`); a code with no words, as it is. The code alone said
 * neither what was wrong nor what to give instead.
 */
export function codeInWords(code: string, words: Readonly<Record<string, string>> = {}): string {
  const said = words[code] ?? WORDS[code]
  return said === undefined ? code : `${said} (${code})`
}

/** Why `path` could not be read, in words (codeInWords), with `words` for what this place reads. */
export function cannotRead(path: string, code: string, words: Readonly<Record<string, string>> = {}): string {
  return `cannot read ${path}: ${codeInWords(code, { EACCES: 'this account may not read it', EPERM: 'this account may not read it', ...words })}`
}
