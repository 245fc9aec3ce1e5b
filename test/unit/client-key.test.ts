import { describe, expect, it } from 'vitest'
import { clientKey } from '../../src/net/client-key.ts'

describe('clientKey: whose per-address budget a client address spends', () => {
  it('keys IPv4 by the address itself', () => {
    expect(clientKey('192.0.2.1')).toBe('192.0.2.1')
    expect(clientKey('127.0.0.1')).toBe('127.0.0.1')
    expect(clientKey('192.0.2.2')).not.toBe(clientKey('192.0.2.1'))
  })

  it('keys an IPv4-mapped IPv6 address (dotted or hex) as the IPv4 address', () => {
    expect(clientKey('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(clientKey('::FFFF:192.0.2.1')).toBe('192.0.2.1')
    expect(clientKey('::ffff:c000:201')).toBe('192.0.2.1')
    expect(clientKey('0:0:0:0:0:ffff:c000:0201')).toBe('192.0.2.1')
    expect(clientKey('::ffff:127.0.0.1')).toBe(clientKey('127.0.0.1'))
  })

  it('keys IPv6 by its /64, so a client cannot pick a fresh budget from its prefix', () => {
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64')
  })

  it('expands compressed forms wherever the :: sits, and lowercases', () => {
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64')
    expect(clientKey('2001:DB8:0:0:ABCD::1')).toBe('2001:db8:0:0::/64')
    expect(clientKey('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8:0:0::/64')
    expect(clientKey('2001:db8:1::2:3')).toBe('2001:db8:1:0::/64')
    expect(clientKey('::2001:db8:1:2:3')).toBe('0:0:0:2001::/64')
    expect(clientKey('fe80::')).toBe('fe80:0:0:0::/64')
  })

  it('keys ::1 and :: by their /64 (not as IPv4)', () => {
    expect(clientKey('::1')).toBe('0:0:0:0::/64')
    expect(clientKey('::')).toBe('0:0:0:0::/64')
  })

  it('drops a zone id: it names the local interface, not the client', () => {
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(clientKey('fe80::2%1')).toBe('fe80:0:0:0::/64')
  })

  it('keys something that is not an address by itself rather than by nothing', () => {
    expect(clientKey('unknown')).toBe('unknown')
    expect(clientKey('')).toBe('')
  })
})
