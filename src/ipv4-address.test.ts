import { describe, expect, it } from 'vitest'
import { ipv4Address } from './ipv4-address'

describe('ipv4Address', () => {
  it('reads an IPv4 address in each form the resolver takes for one (inet_aton), as its four decimal parts', () => {
    expect(ipv4Address('127.0.0.1')).toBe('127.0.0.1')
    expect(ipv4Address('127.1')).toBe('127.0.0.1')
    expect(ipv4Address('127.1.2')).toBe('127.1.0.2')
    expect(ipv4Address('0x7f.1')).toBe('127.0.0.1')
    expect(ipv4Address('0X7F.0.0.1')).toBe('127.0.0.1')
    expect(ipv4Address('0177.0.0.1')).toBe('127.0.0.1')
    expect(ipv4Address('127.000.000.001')).toBe('127.0.0.1')
    expect(ipv4Address('2130706433')).toBe('127.0.0.1')
    expect(ipv4Address('10.1')).toBe('10.0.0.1')
  })

  it('takes nothing else: a part past its range or not a number, a trailing dot, a name, an IPv6 address', () => {
    // Not addresses to the resolver either (getaddrinfo asks DNS for them, search domains and all).
    for (const host of ['127.0.0.999', '127.0.0.08', '127.1.', '127.0.0.1.', '0x', '127..1', '1.2.3.4.5', '4294967296', 'localhost', '::1', '', '127.0.0.1 ', ' 127.1']) {
      expect(ipv4Address(host), JSON.stringify(host)).toBeUndefined()
    }
  })
})
