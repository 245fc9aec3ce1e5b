// HEARTH_TRUST_PROXY: which hops in front of Hearth may say who the client is in X-Forwarded-For.
// Every proxy appends the address it was reached from, so the entries on the right were written by
// proxies and the leftmost by whoever sent the request, that is anyone. The client is therefore the
// rightmost hop that is not a trusted proxy (proxy-addr, which Fastify uses, walks the chain from the
// socket inwards and stops there). "Trust every hop" would make the leftmost, client-chosen entry the
// address that failed-authentication limits count against, so it is not offered at all.
import net from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * 0: no proxy, the socket's peer is the client. A number n: n proxies in front, so the n hops
 * nearest Hearth are trusted (only safe when nobody can reach Hearth except through them). A list:
 * the proxies' addresses or CIDR ranges; hops from those are trusted, wherever they sit.
 */
export type ProxyTrust = number | string[]

/**
 * More hops than this is not a real deployment; and a hop count above the proxies really there
 * trusts hops the client wrote, which is "trust everything" again.
 */
export const MAX_PROXY_HOPS = 10

/** Why one list entry is not a proxy address or range, or undefined when it is one. */
export function proxyEntryProblem(entry: string): string | undefined {
  const [address = '', prefix, ...rest] = entry.split('/')
  const family = net.isIP(address)
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address or a CIDR range (address/prefix)`
  if (prefix === undefined) return undefined
  const bits = family === 4 ? 32 : 128
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)
    return `"${entry}" has a prefix length that is not 0 to ${bits}`
  if (Number(prefix) === 0) return `"${entry}" is every address, which would trust every hop`
  const shortest = shortestPrefixFor(address, family, Number(prefix))
  if (Number(prefix) < shortest.bits) {
    return `"${entry}" is wider than a /${shortest.bits} (${shortest.of}), so most clients could name themselves: list your proxies' own addresses or narrower ranges (e.g. 10.0.0.0/8, 192.168.1.5, fd12:3456::/32)`
  }
  return undefined
}

/**
 * The widest range accepted as "proxies": a /8 of IPv4, a /32 of IPv6, and /104 for an IPv6 range
 * that covers IPv4-mapped addresses (::ffff:0:0/96 is every IPv4 hop, as are ::/32 or
 * 0.0.0.0/1,128.0.0.0/1): /0 is not the only spelling of "trust everyone".
 */
function shortestPrefixFor(address: string, family: number, prefix: number): { bits: number; of: string } {
  if (family === 4) return { bits: 8, of: 'IPv4' }
  // The range holds IPv4-mapped addresses when its first bits (up to 96) are those of ::ffff:0:0.
  const holdsMapped = ipaddr.IPv6.parse('::ffff:0:0').match(ipaddr.IPv6.parse(address), Math.min(prefix, 96))
  return holdsMapped ? { bits: 104, of: 'for IPv4-mapped IPv6, that is a /8 of IPv4' } : { bits: 32, of: 'IPv6' }
}

/** Who may name the client for one hop: Fastify's trustProxy option, as proxy-addr takes it. */
export type TrustHop = (address: string, hop: number) => boolean

/** Fastify's trustProxy option for a setting. */
export function fastifyTrustProxy(trust: ProxyTrust): false | string[] | TrustHop {
  if (Array.isArray(trust)) return trust
  if (trust === 0) return false
  // Fastify turns a plain number into "trust no hop" (its hop count cannot check the peer), so the
  // hop count is given as the function it stands for: hop 0 is the socket's peer, the nearest proxy.
  return (_address, hop) => hop < trust
}
