// Resolved API keys, kept in this process so that a request need not read its key from the
// database: that read was one round trip in every request, and on a busy two-core machine each
// round trip costs the API a wake-up of PostgreSQL and a turn of the scheduler (a create with
// webhooks on: 856 → 1,030 req/s, PostgreSQL's CPU per list page 1.9–2.0 → 0.45 ms; bench/RESULTS.md).
//
// A key is kept only while the store watches changes to keys (src/store/key-changes.ts: any
// process's revocation, expiry, permission or rate-limit change notifies every API process when
// it commits), and only if no change was seen between the start of its read and its end: a read
// that began before a revocation committed may have seen the key as it was, so it is used for
// its own request (as it would have been without a cache) and not kept. When a revoked key is
// refused:
//   - revoked through this process's admin API: from the next request, as without a cache (forget());
//   - on the embedded database, by anyone (the CLI goes through the server): the notification
//     reaches the API's thread before the revoking statement's reply;
//   - on PostgreSQL by another process (the CLI, another instance): once PostgreSQL's notification
//     arrives, a few milliseconds after the commit (test/integration/api-key-cache.test.ts).
// Unknown keys are not kept: a key issued later must work at once.
import type { KeyChangeWatch } from '../store/key-changes.ts'

/** Keys kept at most; the least recently used go first. A key's entry is about 300 bytes. */
const MAX_KEYS = 10_000
/**
 * How long a key is kept however quiet the watch: should a notification ever be lost unseen, a
 * change applies within this. (The watch finds a silently dead connection within 15 s.)
 */
const MAX_AGE_MS = 60_000

export class ApiKeyCache<Key> {
  private readonly keys = new Map<string, { key: Key; readAt: number }>()
  private generation: number
  /** Goes up at each forget(): a read begun before one is not kept. */
  private forgotten = 0

  constructor(
    private readonly watch: KeyChangeWatch,
    private readonly read: (hash: string) => Promise<Key | undefined>,
    private readonly now: () => number = Date.now,
  ) {
    this.generation = watch.generation
  }

  async find(hash: string): Promise<Key | undefined> {
    this.forgetIfChanged()
    const kept = this.keys.get(hash)
    this.keys.delete(hash)
    if (kept !== undefined && this.now() - kept.readAt < MAX_AGE_MS) {
      // Most recently used last: the Map's order is the eviction order.
      this.keys.set(hash, kept)
      return kept.key
    }
    const readFrom = this.watch.generation
    const forgottenBefore = this.forgotten
    const readAt = this.now()
    const key = await this.read(hash)
    const unchanged = this.watch.generation === readFrom && this.forgotten === forgottenBefore
    if (key !== undefined && unchanged && this.watch.watching) {
      this.keys.set(hash, { key, readAt })
      if (this.keys.size > MAX_KEYS) this.keys.delete(this.keys.keys().next().value ?? hash)
    }
    return key
  }

  /**
   * Empties the cache now, and keeps nothing read before: this process changed a key or its
   * organization's limits, and its next request must not wait for the database's notification.
   */
  forget(): void {
    this.keys.clear()
    this.forgotten++
  }

  /** Empties the cache when a change was seen since it was last filled, or while changes are not watched. */
  private forgetIfChanged(): void {
    if (this.watch.generation === this.generation && this.watch.watching) return
    this.keys.clear()
    this.generation = this.watch.generation
  }
}
