// Per-process counts. Correct for one instance; several instances each count on their own.
// The algorithm and its guarantee are in sliding-window.ts; the Redis store runs the same in Lua.
import { bucketMsOf, chargeFor, oldestCountedBucket, stateOf } from './sliding-window.ts'
import type { Budget, BudgetState, Charge, ConsumeResult, RateLimitStore } from './store.ts'

interface Counted {
  windowMs: number
  /** Bucket index -> milli-units. */
  buckets: Map<number, number>
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counts = new Map<string, Counted>()
  private readonly sweeper: NodeJS.Timeout

  constructor(sweepEveryMs = 60_000) {
    // Forget budgets with nothing left in their window, so memory follows the active credentials.
    this.sweeper = setInterval(() => this.sweep(Date.now()), sweepEveryMs)
    this.sweeper.unref()
  }

  async consume(budgets: Budget[], costMilli: number, now: number): Promise<ConsumeResult> {
    const counted = budgets.map((budget) => this.counted(budget, now))
    const allowed = budgets.every(
      (budget, i) => sum(counted[i] ?? []) + chargeFor(costMilli, budget.limitMilli) <= budget.limitMilli,
    )
    if (allowed) {
      budgets.forEach((budget, i) => {
        const index = this.add(budget, chargeFor(costMilli, budget.limitMilli), now)
        const buckets = counted[i] ?? []
        // Mirror the charge in the list already read (the hot path reads each budget once).
        const last = buckets.at(-1)
        if (last?.[0] === index) last[1] += chargeFor(costMilli, budget.limitMilli)
        else counted[i] = this.counted(budget, now)
      })
    }
    const states = budgets.map((budget, i) =>
      stateOf(counted[i] ?? [], budget.limitMilli, budget.windowMs, costMilli, now, allowed),
    )
    return { allowed, states }
  }

  async refund(charge: Charge, milli: number, now: number): Promise<BudgetState[]> {
    return charge.budgets.map((budget) => {
      const entry = this.counts.get(idOf(budget))
      const index = Math.floor(charge.at / bucketMsOf(budget.windowMs))
      const held = entry?.buckets.get(index)
      if (entry && held !== undefined)
        entry.buckets.set(index, Math.max(0, held - Math.min(milli, chargeFor(charge.costMilli, budget.limitMilli))))
      return stateOf(this.counted(budget, now), budget.limitMilli, budget.windowMs, 0, now, true)
    })
  }

  status(): 'memory' {
    return 'memory'
  }

  sweep(now: number): void {
    for (const [id, entry] of this.counts) {
      const oldest = oldestCountedBucket(now, entry.windowMs)
      for (const index of entry.buckets.keys()) if (index < oldest) entry.buckets.delete(index)
      if (entry.buckets.size === 0) this.counts.delete(id)
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    this.counts.clear()
  }

  /** The budget's counted buckets, oldest first; older ones are dropped on the way. */
  private counted(budget: Budget, now: number): [number, number][] {
    const entry = this.counts.get(idOf(budget))
    if (!entry) return []
    const oldest = oldestCountedBucket(now, budget.windowMs)
    const buckets: [number, number][] = []
    let ordered = true
    for (const [index, milli] of entry.buckets) {
      if (index < oldest) entry.buckets.delete(index)
      else {
        // Buckets are added as time goes on, so they are almost always in order already.
        if (ordered && buckets.length > 0 && (buckets.at(-1)?.[0] ?? index) > index) ordered = false
        buckets.push([index, milli])
      }
    }
    return ordered ? buckets : buckets.sort((a, b) => a[0] - b[0])
  }

  /** Charges `milli` to the bucket containing `now`; answers its index. */
  private add(budget: Budget, milli: number, now: number): number {
    const id = idOf(budget)
    let entry = this.counts.get(id)
    if (!entry) {
      entry = { windowMs: budget.windowMs, buckets: new Map() }
      this.counts.set(id, entry)
    }
    const index = Math.floor(now / bucketMsOf(budget.windowMs))
    entry.buckets.set(index, (entry.buckets.get(index) ?? 0) + milli)
    return index
  }
}

function idOf(budget: Budget): string {
  return `${budget.policy}:${budget.key}`
}

function sum(buckets: readonly (readonly [number, number])[]): number {
  let total = 0
  for (const [, milli] of buckets) total += milli
  return total
}
