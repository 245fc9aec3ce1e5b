// Per-process counts. Correct for one instance; several instances each count on their own.
import { windowOf, type RateLimitStore, type WindowCount } from './store.ts'

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counts = new Map<string, WindowCount>()
  private readonly sweeper: NodeJS.Timeout

  constructor(sweepEveryMs = 60_000) {
    // Forget finished windows so that memory follows the number of active credentials.
    this.sweeper = setInterval(() => this.sweep(Date.now()), sweepEveryMs)
    this.sweeper.unref()
  }

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const { end } = windowOf(now, windowMs)
    const current = this.counts.get(key)
    if (current && current.resetAt === end) {
      current.count++
      return { ...current }
    }
    const fresh = { count: 1, resetAt: end }
    this.counts.set(key, fresh)
    return { ...fresh }
  }

  async refund(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const { end } = windowOf(now, windowMs)
    const current = this.counts.get(key)
    if (!current || current.resetAt !== end) return { count: 0, resetAt: end }
    current.count = Math.max(0, current.count - 1)
    return { ...current }
  }

  status(): 'memory' {
    return 'memory'
  }

  sweep(now: number): void {
    for (const [key, value] of this.counts) if (value.resetAt <= now) this.counts.delete(key)
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    this.counts.clear()
  }
}
