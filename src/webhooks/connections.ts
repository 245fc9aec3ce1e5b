// Connections kept open between attempts, one pool per endpoint origin and checked address. A new
// connection per attempt (and in production a TLS handshake) cost more than the rest of an attempt;
// reusing one keeps the address rule: each pool connects only to the address it is keyed by, which
// the attempt resolved and checked just before (address-guard.ts), so a host that now resolves
// elsewhere gets another pool, never this one's sockets. Idle sockets close after IDLE_MS, below
// the 5 s keep-alive of common servers (Node's included), so that a reused socket is rarely one the
// receiver is closing; the least recently used pools beyond MAX_POOLS are closed.
import http from 'node:http'
import https from 'node:https'
import { pinnedLookup, type ResolvedAddress } from './address-guard.ts'

const IDLE_MS = 4000
const MAX_POOLS = 256
/** Sockets one pool opens at most; more attempts to one endpoint wait for one of them. */
const SOCKETS_PER_POOL = 16

export class ConnectionPools {
  private readonly pools = new Map<string, http.Agent>()

  /** The pool for `target` at `address`, the most recently used from now on. */
  agentFor(target: URL, address: ResolvedAddress): http.Agent {
    const key = `${target.protocol}//${target.host}@${address.address}`
    const existing = this.pools.get(key)
    if (existing) {
      this.pools.delete(key)
      this.pools.set(key, existing)
      return existing
    }
    const options = {
      keepAlive: true,
      maxSockets: SOCKETS_PER_POOL,
      timeout: IDLE_MS,
      lookup: pinnedLookup(address),
    }
    const agent = target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
    this.pools.set(key, agent)
    for (const [oldest, pool] of this.pools) {
      if (this.pools.size <= MAX_POOLS) break
      this.pools.delete(oldest)
      pool.destroy()
    }
    return agent
  }

  /** Closes every pool's sockets (the worker stopped). */
  close(): void {
    for (const pool of this.pools.values()) pool.destroy()
    this.pools.clear()
  }
}
