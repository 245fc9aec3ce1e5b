// Shared sliding-window counts in Redis, so N instances together allow exactly the budget. The
// algorithm and its guarantee are in sliding-window.ts; the Lua below is the same rules, run
// atomically by Redis over every budget of a request in one round trip: all are charged or none,
// and concurrent requests on any instance never read the same count.
// Keys: `hearth:rl:<policy>:<key>`, a hash of bucket index -> milli-units; buckets that left the
// window are deleted as they are met, and the key expires a window and a bucket after its last charge.
//
// Why not a library: rate-limiter-flexible (the well-kept one) checks one key per call, in fixed
// windows or a token bucket; its RateLimiterUnion consumes several limiters one by one, not all or
// none, so a request refused by the organization's budget would still spend the key's. Neither
// gives "never more than the budget in any window" (see sliding-window.ts).
//
// A dead Redis must fail fast rather than hold requests: no offline queue (commands fail at once
// while disconnected), a short command timeout, and no resending of commands after a reconnect (a
// resent charge could count a request twice). The client keeps reconnecting in the background.
// FallbackRateLimitStore (fallback-store.ts) decides what happens while Redis fails.
import { Redis, type Result } from 'ioredis'
import type { Budget, BudgetState, Charge, ConsumeResult, RateLimitStore } from './store.ts'

/** sliding-window.ts in Lua: the counted buckets of a key (older ones deleted) and a budget's state. */
const COMMON = `
local now = tonumber(ARGV[1])
local function counted(key, window)
  local g = math.max(1, math.floor(window / 60))
  local oldest = math.floor((now - window) / g)
  local flat = redis.call('HGETALL', key)
  local buckets, stale = {}, {}
  for j = 1, #flat, 2 do
    local index = tonumber(flat[j])
    if index < oldest then stale[#stale + 1] = flat[j] else buckets[#buckets + 1] = {index, tonumber(flat[j + 1])} end
  end
  if #stale > 0 then redis.call('HDEL', key, unpack(stale)) end
  table.sort(buckets, function(a, b) return a[1] < b[1] end)
  return buckets, g
end
local function used(buckets)
  local total = 0
  for _, b in ipairs(buckets) do total = total + b[2] end
  return total
end
local function state(buckets, g, limit, window, charge, admitted)
  local total = used(buckets)
  if admitted or total + charge <= limit then
    for _, b in ipairs(buckets) do if b[2] > 0 then return {total, (b[1] + 1) * g + window} end end
    return {total, now}
  end
  local left = total
  for _, b in ipairs(buckets) do
    left = left - b[2]
    if left + charge <= limit then return {total, (b[1] + 1) * g + window} end
  end
  return {total, now}
end
`

/**
 * KEYS: the budgets' keys. ARGV: now, cost (milli), then limit (milli) and window (ms) per key.
 * Returns [allowed (1|0), then used and resetAt per key].
 */
const CONSUME = `${COMMON}
local cost = tonumber(ARGV[2])
local budgets = {}
local allowed = true
for i = 1, #KEYS do
  local limit, window = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  local buckets, g = counted(KEYS[i], window)
  local charge = math.min(cost, limit)
  if used(buckets) + charge > limit then allowed = false end
  budgets[i] = {buckets, g, limit, window, charge}
end
local out = {allowed and 1 or 0}
for i = 1, #KEYS do
  local b = budgets[i]
  if allowed then
    local index = math.floor(now / b[2])
    redis.call('HINCRBY', KEYS[i], string.format('%d', index), b[5])
    redis.call('PEXPIRE', KEYS[i], b[4] + b[2])
    b[1] = counted(KEYS[i], b[4])
  end
  local s = state(b[1], b[2], b[3], b[4], b[5], allowed)
  out[#out + 1] = s[1]
  out[#out + 1] = s[2]
end
return out`

/**
 * KEYS: the budgets' keys. ARGV: now, milli to give back, when the charge was made, its cost
 * (milli), then limit and window per key. Lowers the charge's bucket, never below zero, never
 * creating it. Returns used and resetAt per key.
 */
const REFUND = `${COMMON}
local milli, at, cost = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
for i = 1, #KEYS do
  local limit, window = tonumber(ARGV[3 + 2 * i]), tonumber(ARGV[4 + 2 * i])
  local g = math.max(1, math.floor(window / 60))
  local field = string.format('%d', math.floor(at / g))
  local held = tonumber(redis.call('HGET', KEYS[i], field))
  if held then redis.call('HSET', KEYS[i], field, math.max(0, held - math.min(milli, math.min(cost, limit)))) end
  local buckets = counted(KEYS[i], window)
  local s = state(buckets, g, limit, window, 0, true)
  out[#out + 1] = s[1]
  out[#out + 1] = s[2]
end
return out`

declare module 'ioredis' {
  interface RedisCommander<Context> {
    hearthRateLimitConsume(keyCount: number, ...keysAndArgs: (string | number)[]): Result<number[], Context>
    hearthRateLimitRefund(keyCount: number, ...keysAndArgs: (string | number)[]): Result<number[], Context>
  }
}

export const REDIS_KEY_PREFIX = 'hearth:rl:'

export interface RedisRateLimitOptions {
  /** Prepended to every key (default `hearth:rl:`); tests use their own to touch only their keys. */
  prefix?: string
  /** How long one command may take before it counts as failed (default 250 ms). */
  commandTimeoutMs?: number
}

/** Told when the connection to Redis comes up (true) or goes down (false, with the reason). */
export type AvailabilityListener = (available: boolean, reason?: string) => void

export class RedisRateLimitStore implements RateLimitStore {
  readonly client: Redis
  private readonly prefix: string
  private readonly listeners: AvailabilityListener[] = []
  private error: string | undefined
  private closed = false

  constructor(url: string, options: RedisRateLimitOptions = {}) {
    this.prefix = options.prefix ?? REDIS_KEY_PREFIX
    this.client = new Redis(url, {
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 1000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // Reconnect for ever, at most a second apart, so limits are shared again soon after Redis is back.
      retryStrategy: (times) => Math.min(times * 100, 1000),
    })
    // No numberOfKeys: each call passes its own count (one key per budget).
    this.client.defineCommand('hearthRateLimitConsume', { lua: CONSUME })
    this.client.defineCommand('hearthRateLimitRefund', { lua: REFUND })
    // Errors also reject the command that met them; here they only name the reason of an outage.
    this.client.on('error', (error: Error) => {
      this.error = error.message
    })
    this.client.on('ready', () => {
      this.error = undefined
      this.tell(true)
    })
    this.client.on('close', () => this.tell(false, this.error ?? 'the connection to Redis closed'))
  }

  /** The last connection error since the last successful connection. */
  get lastError(): string | undefined {
    return this.error
  }

  /** The Redis key of a budget: `hearth:rl:<policy>:<key>`. */
  keyOf(budget: Pick<Budget, 'policy' | 'key'>): string {
    return `${this.prefix}${budget.policy}:${budget.key}`
  }

  async consume(budgets: Budget[], costMilli: number, now: number): Promise<ConsumeResult> {
    const reply = await this.client.hearthRateLimitConsume(
      budgets.length,
      ...budgets.map((b) => this.keyOf(b)),
      now,
      costMilli,
      ...limitsOf(budgets),
    )
    return { allowed: reply[0] === 1, states: statesOf(reply.slice(1)) }
  }

  async refund(charge: Charge, milli: number, now: number): Promise<BudgetState[]> {
    const { budgets } = charge
    const keys = budgets.map((b) => this.keyOf(b))
    const reply = await this.client.hearthRateLimitRefund(
      budgets.length,
      ...keys,
      now,
      milli,
      charge.at,
      charge.costMilli,
      ...limitsOf(budgets),
    )
    return statesOf(reply)
  }

  status(): 'ok' | 'unreachable' {
    return this.client.status === 'ready' ? 'ok' : 'unreachable'
  }

  onAvailability(listener: AvailabilityListener): void {
    this.listeners.push(listener)
  }

  /**
   * Waits for the first connection attempt (at most the connect timeout, ~1 s): true when Redis
   * answers. Either way the client keeps reconnecting in the background.
   */
  connected(): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true)
    if (this.closed) return Promise.resolve(false)
    return new Promise((resolve) => {
      const up = () => settle(true)
      const down = () => settle(false)
      const settle = (value: boolean) => {
        this.client.off('ready', up)
        this.client.off('close', down)
        resolve(value)
      }
      this.client.once('ready', up)
      this.client.once('close', down)
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.listeners.length = 0
    if (this.client.status === 'ready') {
      try {
        await this.client.quit()
        return
      } catch {
        // Fall through: drop the connection.
      }
    }
    this.client.disconnect()
  }

  private tell(available: boolean, reason?: string): void {
    if (this.closed) return
    for (const listener of this.listeners) listener(available, reason)
  }
}

function limitsOf(budgets: Budget[]): number[] {
  return budgets.flatMap((b) => [b.limitMilli, b.windowMs])
}

function statesOf(pairs: number[]): BudgetState[] {
  const states: BudgetState[] = []
  for (let i = 0; i + 1 < pairs.length; i += 2) states.push({ usedMilli: pairs[i] ?? 0, resetAt: pairs[i + 1] ?? 0 })
  return states
}
