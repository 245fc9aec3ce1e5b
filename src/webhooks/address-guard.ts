// Server-side request forgery: an endpoint's host must not lead a delivery into the network Hearth
// runs in (the database, a metadata service at 169.254.169.254, an admin port on localhost). In
// production the host is resolved at every attempt, every address it has is checked, and the
// connection goes to exactly the address checked (pinnedLookup), so that a name re-pointed between
// the check and the connection (DNS rebinding) cannot send it elsewhere. Outside production,
// loopback receivers are allowed (localhost development), but the connection is pinned all the same.
import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Every address of a host name, as dns.promises.lookup(host, {all: true}) answers; injectable for tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }))

export class AddressRefused extends Error {}

/**
 * Why an address must not be delivered to, or undefined when it is a public unicast address.
 * Everything ipaddr.js does not call "unicast" is refused: private, loopback, link-local,
 * unique-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved and documentation
 * ranges, and the IPv6 forms that carry an IPv4 address inside (IPv4-mapped is judged as that IPv4).
 */
export function refusedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address'
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  const range = parsed.range()
  return range === 'unicast' ? undefined : range
}

/** The address to connect to for `hostname`: the first it resolves to, after checking all of them. */
export async function resolveForDelivery(
  hostname: string,
  resolve: Resolver,
  production: boolean,
): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  const addresses = ipaddr.isValid(bare)
    ? [{ address: bare, family: bare.includes(':') ? 6 : 4 } as const]
    : await resolve(bare)
  const first = addresses[0]
  if (!first) throw new AddressRefused(`${hostname} has no address`)
  if (production) {
    for (const { address } of addresses) {
      const range = refusedRange(address)
      if (range)
        throw new AddressRefused(
          `${hostname} resolves to ${address} (${range}): deliveries go only to public addresses`,
        )
    }
  }
  return first
}

/** A lookup for http(s).request that answers `resolved` whatever it is asked: the connection goes there. */
export function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address (all: true) when it may try several (autoSelectFamily).
    if (options.all) callback(null, [{ address: resolved.address, family: resolved.family }])
    else callback(null, resolved.address, resolved.family)
  }
}
