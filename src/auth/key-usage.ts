// Counts API calls per key per day (legacy and current paths apart) and remembers when each key
// was last used — in memory, written in one batch every few seconds, so that a request never
// waits for a usage write. A crash loses at most one interval of counts, never a record.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { recordKeyUsage, type KeyUsage } from '../store/api-keys.ts'

export class KeyUsageRecorder {
  private pending = new Map<string, KeyUsage>()
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (error: unknown) => void,
    flushEveryMs = 5_000,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs)
    this.timer.unref()
  }

  record(keyId: string, legacy: boolean, at = new Date()): void {
    const day = at.toISOString().slice(0, 10)
    const id = `${keyId}|${day}|${legacy}`
    const entry = this.pending.get(id)
    if (entry) {
      entry.calls++
      entry.lastUsedAt = at
    } else {
      this.pending.set(id, { keyId, day, legacy, calls: 1, lastUsedAt: at })
    }
  }

  /** Writes what has been counted so far. Flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return
      const batch = [...this.pending.values()]
      this.pending = new Map()
      try {
        await recordKeyUsage(this.db, batch)
      } catch (error) {
        this.onError(error)
      }
    })
    return this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    this.timer = undefined
    await this.flush()
  }
}
