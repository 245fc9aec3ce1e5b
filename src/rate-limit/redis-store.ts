// Shared fixed-window counts in Redis, so N instances together allow exactly the budget. Each
// operation is one Lua script, run atomically by Redis: concurrent requests on any instance never
// read the same count. Keys: `hearth:rl:<key>:<windowStart>`, expiring at the window's end.
//
// A dead Redis must fail fast rather than hold requests: no offline queue (commands fail at once
// while disconnected), a short command timeout, and no resending of commands after a reconnect (a
// resent INCR could count a request twice). The client keeps reconnecting in the background.
// FallbackRateLimitStore (fallback-store.ts) decides what happens while Redis fails.
import { Redis, type Result } from 'ioredis'
import { windowOf, type RateLimitStore, type WindowCount } from './store.ts'

/** KEYS[1] the window's key, ARGV[1] the window's end (epoch ms). Returns the count, this hit included. */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`

/** KEYS[1] the window's key. Takes one back, never below zero, and never creates the key. */
const REFUND = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then count = redis.call('DECR', KEYS[1]) end
return count`

declare module 'ioredis' {
  interface RedisCommander<Context> {
    hearthRateLimitHit(key: string, windowEnd: number): Result<number, Context>
    hearthRateLimitRefund(key: string): Result<number, Context>
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
    this.client.defineCommand('hearthRateLimitHit', { numberOfKeys: 1, lua: HIT })
    this.client.defineCommand('hearthRateLimitRefund', { numberOfKeys: 1, lua: REFUND })
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

  /** The Redis key counting `key` in the window that starts at `windowStart`. */
  keyOf(key: string, windowStart: number): string {
    return `${this.prefix}${key}:${windowStart}`
  }

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const { start, end } = windowOf(now, windowMs)
    const count = await this.client.hearthRateLimitHit(this.keyOf(key, start), end)
    return { count, resetAt: end }
  }

  async refund(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const { start, end } = windowOf(now, windowMs)
    const count = await this.client.hearthRateLimitRefund(this.keyOf(key, start))
    return { count, resetAt: end }
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
