/**
 * A configuration file's text, which is UTF-8 (its byte order mark kept, for the parser to pass
 * over). Read leniently, a file saved in another encoding was taken with U+FFFD for each byte it
 * could not decode: a Latin-1 `é` silently became another text (a match rule no question fits, a
 * token for a user no request names), and a file saved as UTF-16 (as Windows PowerShell 5.1's `>`
 * and `Out-File` save it) was refused for what it parsed as. Refused instead, as the service
 * refuses a body, with the line, and without quoting the text (a tokens file holds tokens):
 * `refuse` makes the error of the file's kind from the message.
 */
export function utf8FileText(bytes: Buffer, file: string, refuse: (message: string) => Error): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      throw refuse(`${file}: not UTF-8 text: it is saved as UTF-16 (as Windows PowerShell 5.1's > and Out-File save it): save it as UTF-8`)
    }
    const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length
    throw refuse(`${file}: not UTF-8 text at line ${line} (saved in another encoding, such as Latin-1?): save it as UTF-8`)
  }
}
