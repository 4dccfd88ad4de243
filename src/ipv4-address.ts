import { isIPv4 } from 'node:net'

/** One to four parts, each decimal, octal (a leading 0) or hex (0x…), as inet_aton takes them; no trailing dot. */
const NUMERIC = /^(?:0x[0-9a-f]+|\d+)(?:\.(?:0x[0-9a-f]+|\d+)){0,3}$/i

/**
 * An IPv4 address in any form the system resolver reads as one (inet_aton: `127.1`, `0x7f.1`,
 * `0177.0.0.1`, `2130706433`), as its four decimal parts (`127.0.0.1`); undefined for anything
 * else. Node's `net.isIP` knows only the four decimal parts, while `listen` and `connect` hand a
 * host to getaddrinfo, which binds `127.1` as 127.0.0.1, and asks DNS (search domains and all) for
 * what is no address, `127.0.0.999` or `127.1.`. The WHATWG URL parser reads these forms as
 * inet_aton does, and refuses a part out of range or `08`, which inet_aton does not take either.
 */
export function ipv4Address(host: string): string | undefined {
  if (!NUMERIC.test(host)) return undefined
  let hostname: string
  try {
    hostname = new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
  return isIPv4(hostname) ? hostname : undefined
}
