// Whether an address stays on this machine. Services that trust whoever reaches them (the
// passwordless development sign-in, the demo) may only listen on such an address.
import net from 'node:net'

const LOOPBACK = new net.BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/**
 * 127.0.0.0/8, ::1 (IPv4-mapped forms included) or the name localhost. 0.0.0.0 and :: are every
 * interface, and any other name may resolve to anything: neither is loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  if (bare.toLowerCase() === 'localhost') return true
  const family = net.isIP(bare)
  if (family === 0) return false
  return LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6')
}
