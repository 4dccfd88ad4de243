import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** The host whose DNS lookup hangs under the preload `stuckDnsPreload` writes. */
export const STUCK_HOST = 'dm.stuck.test'

/** What the preload prints once the lookup gives up: a process that prints it waited for it. */
export const LOOKUP_GAVE_UP = 'the DNS lookup gave up'

/**
 * Writes, in `dir`, a script to preload (`NODE_OPTIONS=--require FILE`) under which a lookup of
 * STUCK_HOST hangs as one does when the resolver cannot be reached (a VPN down): getaddrinfo runs
 * to its own timeout (here 15 s), which aborting the fetch does not cut short, and holds the
 * process meanwhile. Returns the script's path.
 */
export async function stuckDnsPreload(dir: string): Promise<string> {
  const file = join(dir, 'stuck-dns.cjs')
  await writeFile(
    file,
    `const dns = require('node:dns'); const lookup = dns.lookup
dns.lookup = function (host, options, callback) {
  if (host !== ${JSON.stringify(STUCK_HOST)}) return lookup.apply(this, arguments)
  const done = typeof options === 'function' ? options : callback
  setTimeout(() => { process.stderr.write(${JSON.stringify(`${LOOKUP_GAVE_UP}\n`)}); done(Object.assign(new Error('getaddrinfo EAI_AGAIN ' + host), { code: 'EAI_AGAIN' })) }, 15000)
}\n`,
  )
  return file
}
