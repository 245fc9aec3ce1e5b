// Server-side request forgery: an endpoint's host must not lead a delivery into the network Hearth
// runs in (the database, a metadata service at 169.254.169.254, an admin port on localhost). In
// production the host is resolved at every attempt, every address it has is checked, and the
// connection goes to exactly the address checked (pinnedLookup), so that a name re-pointed between
// the check and the connection (DNS rebinding) cannot send it elsewhere. Outside production,
// loopback receivers are allowed (localhost development), but the connection is pinned all the same.
//
// Resolution is part of the attempt: it ends when the attempt's signal does (its timeout, or the
// instance stopping), so a hanging DNS server can neither hold an attempt past its job's lease
// (pg-boss would hand the job to another worker and the message would go twice) nor hold a
// worker slot. Names are asked of DNS through c-ares (dns.promises.Resolver), which has timeouts
// of its own and runs off libuv's 4-thread pool: dns.lookup (getaddrinfo) runs on that pool and
// cannot be cancelled, so a few hanging look-ups would stall every other file and crypto call of
// the process. Literal addresses are never looked up.
import { lookup as dnsLookup, Resolver as DnsResolver } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/**
 * Every address of a host name; injectable for tests. `signal` ends with the attempt: a resolver
 * should stop then (resolveForDelivery stops waiting for it either way).
 */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<ResolvedAddress[]>

/** How long c-ares waits for one DNS answer, and how often it asks (per server). */
const DNS_TIMEOUT_MS = 2000
const DNS_TRIES = 2

/** Names answered by the hosts file, as today: c-ares asks DNS only, which does not know them. */
const LOCAL_NAMES = new Set(['localhost', 'localhost.'])

export const systemResolver: Resolver = async (hostname, signal) => {
  if (LOCAL_NAMES.has(hostname.toLowerCase())) {
    // The hosts file, not a network: getaddrinfo answers at once, so the thread pool is not at risk.
    return (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
      address,
      family: family === 6 ? 6 : 4,
    }))
  }
  // A channel per attempt, so that cancelling it (at the attempt's end) cancels only this attempt's queries.
  const resolver = new DnsResolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES })
  const cancel = () => resolver.cancel()
  signal.addEventListener('abort', cancel, { once: true })
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)])
    // IPv4 first: the connection goes to the first address only, and more networks route IPv4.
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ]
    if (addresses.length > 0) return addresses
    // Neither family answered: the IPv4 reason says why (ENOTFOUND, ETIMEOUT, …), unless it merely had none.
    const failed = [v4, v6].find(
      (outcome): outcome is PromiseRejectedResult =>
        outcome.status === 'rejected' && (outcome.reason as NodeJS.ErrnoException).code !== 'ENODATA',
    )
    if (failed) throw failed.reason
    return []
  } finally {
    signal.removeEventListener('abort', cancel)
  }
}

/** The host name did not resolve: in words for the delivery log (a DNS server's ECONNREFUSED is not the receiver's). */
export class HostUnresolved extends Error {}

export class AddressRefused extends Error {}

/**
 * Why an address must not be delivered to, or undefined when it is a public unicast address.
 * Everything ipaddr.js does not call "unicast" is refused: private, loopback, link-local,
 * unique-local, carrier-grade NAT, multicast, broadcast, unspecified, reserved and documentation
 * ranges, Teredo, IPv4-translated. The IPv6 forms that carry an IPv4 address inside are judged by
 * that address where they lead to it (IPv4-mapped, NAT64's well-known prefix 64:ff9b::/96, whose
 * public form an IPv6-only network's DNS64 answers, and 6to4's 2002::/16), and refused where they
 * lead nowhere public (IPv4-compatible ::/96, deprecated; NAT64's local-use 64:ff9b:1::/48, which
 * goes wherever the local operator's translator says). ipaddr.js calls ::/96 "unicast", and its
 * rfc6052 range takes both NAT64 prefixes, so these are decided here before asking it.
 */
export function refusedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address'
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv4') return rangeOf(parsed)
  const v6 = parsed as ipaddr.IPv6
  const own = v6.range()
  if (own === 'unspecified' || own === 'loopback') return own
  const parts = v6.parts
  const embedded = (high: number, low: number) =>
    ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4
  const judged = (name: string, inner: ipaddr.IPv4) => {
    const range = rangeOf(inner)
    return range === undefined ? undefined : `${name} of ${inner.toString()}, ${range}`
  }
  if (v6.isIPv4MappedAddress()) return rangeOf(v6.toIPv4Address())
  if (parts.slice(0, 6).every((part) => part === 0)) return 'IPv4-compatible'
  if (parts[0] === 0x64 && parts[1] === 0xff9b) {
    if (parts.slice(2, 6).every((part) => part === 0)) return judged('NAT64', embedded(parts[6]!, parts[7]!))
    return 'NAT64 local-use'
  }
  if (parts[0] === 0x2002) return judged('6to4', embedded(parts[1]!, parts[2]!))
  return own === 'unicast' ? undefined : own
}

function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = address.range()
  return range === 'unicast' ? undefined : range
}

/**
 * The address to connect to for `hostname`: the first it resolves to, after checking all of them.
 * Gives up when `signal` ends (the attempt's timeout or the instance stopping), answering the
 * signal's reason, whatever the resolver does.
 */
export async function resolveForDelivery(
  hostname: string,
  resolve: Resolver,
  production: boolean,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  const addresses = ipaddr.isValid(bare)
    ? [{ address: bare, family: bare.includes(':') ? 6 : 4 } as const]
    : await resolveUntil(bare, resolve, signal)
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

/** The resolver's answer, or the signal's end, whichever comes first. */
async function resolveUntil(hostname: string, resolve: Resolver, signal: AbortSignal): Promise<ResolvedAddress[]> {
  signal.throwIfAborted()
  let stop: (() => void) | undefined
  const ended = new Promise<never>((_, reject) => {
    // AbortSignal.timeout's and abort()'s reasons are DOMExceptions, which are Errors.
    stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    signal.addEventListener('abort', stop, { once: true })
  })
  try {
    return await Promise.race([
      resolve(hostname, signal).catch((error: unknown) => {
        // An abort is the signal's to report (the race answers its reason); anything else is DNS's.
        if (signal.aborted) throw signal.reason
        const code = (error as NodeJS.ErrnoException).code
        throw new HostUnresolved(`${hostname}: ${code ?? (error as Error).message}`.slice(0, 200))
      }),
      ended,
    ])
  } finally {
    if (stop) signal.removeEventListener('abort', stop)
  }
}

/** A lookup for http(s).request that answers `resolved` whatever it is asked: the connection goes there. */
export function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address (all: true) when it may try several (autoSelectFamily).
    if (options.all) callback(null, [{ address: resolved.address, family: resolved.family }])
    else callback(null, resolved.address, resolved.family)
  }
}
