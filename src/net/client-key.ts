// Whose budget a client address spends. An IPv4 address is one client, but an IPv6 client is
// handed a whole /64 (2^64 addresses, RFC 6177 / SLAAC) and can pick a fresh one per request: keyed
// by the exact address, every per-address limit (the address and failed-authentication budgets,
// the pending sign-ins, the embed origin) would be as many limits as it likes. So IPv6 counts by its
// /64, and an IPv4-mapped IPv6 address (::ffff:192.0.2.1, as a dual-stack socket reports IPv4
// peers) counts as the IPv4 address it is, in the same budget as that address written plainly.
import ipaddr from 'ipaddr.js'

/** The key a client address is limited by: IPv4 as is, IPv6 as its /64 (e.g. `2001:db8:1:2::/64`). */
export function clientKey(ip: string): string {
  // Fastify hands over whatever the socket or a trusted X-Forwarded-For said; something that is
  // not an address (never seen in practice) still keys its own budget rather than none.
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.parse(ip)
  if (address.kind() === 'ipv4') return address.toString()
  const v6 = address as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString()
  // The zone (fe80::1%eth0) names the local interface, not the client: the /64 alone is the key.
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}
