// The API keeps resolved keys in its process (src/auth/api-key-cache.ts) and lets them go when the
// database says a key or its organization's limits changed (migration 0020, src/store/key-changes.ts).
// Each rule has a test that fails without it: a kept key is really used (a change nobody is told
// of goes unseen), a revocation by anyone is refused, a limits change applies, and while the
// watch's connection is down every request reads its key again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { revokeApiKey } from '../../src/store/api-keys.ts'
import type { Store } from '../../src/store/db.ts'
import { until } from '../helpers/cli.ts'

/** A notification on its way from PostgreSQL arrives within milliseconds; this much is a failure. */
const NOTIFIED_MS = 5000

describe.each(storeKinds())('the API key cache on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgId: string
  let admin: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    const org = await createOrgWithKey(store.db, ['org:admin', 'relationships:read'])
    orgId = org.orgId
    admin = org.key
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const list = (key: string) => call(`${api.url}/api/v1/relationships?pageSize=1`, key)
  /** Runs `write` with the key-change trigger off: a change no process is told of. */
  async function withoutNotifying<T>(write: () => Promise<T>): Promise<T> {
    await sql`ALTER TABLE api_keys DISABLE TRIGGER api_keys_notify_change`.execute(store.db)
    try {
      return await write()
    } finally {
      await sql`ALTER TABLE api_keys ENABLE ALWAYS TRIGGER api_keys_notify_change`.execute(store.db)
    }
  }
  const newKey = () => createKey(store.db, orgId, ['relationships:read'])

  it('watches changes to keys from the start', () => {
    expect(store.keyChanges.watching).toBe(true)
  })

  it('keeps a resolved key: a revocation that notifies no one goes unseen (so the cache is used)', async () => {
    const { id, key } = await newKey()
    expect((await list(key)).status).toBe(200)
    await withoutNotifying(() => sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`.execute(store.db))
    expect((await list(key)).status).toBe(200)
    // Any notified change lets every kept key go: this one is refused from then on.
    const generation = store.keyChanges.generation
    await sql`UPDATE api_keys SET permissions = array_append(permissions, 'events:read') WHERE id = ${id}`.execute(
      store.db,
    )
    await until(() => store.keyChanges.generation > generation, 'the notification', NOTIFIED_MS)
    expect((await list(key)).body).toMatchObject({ code: 'api_key_revoked' })
  })

  it('refuses a key revoked through the admin API from the next request', async () => {
    const { id, key } = await newKey()
    expect((await list(key)).status).toBe(200)
    // Without the notification: this process empties its cache itself, not waiting to be told.
    const revoked = await withoutNotifying(() => call(`${api.url}/api/v1/keys/${id}`, admin, { method: 'DELETE' }))
    expect(revoked.status).toBe(204)
    expect((await list(key)).status).toBe(401)
  })

  it('refuses a key revoked by another connection (the CLI, another instance) once told', async () => {
    const { id, key } = await newKey()
    expect((await list(key)).status).toBe(200)
    const generation = store.keyChanges.generation
    // Another process on PostgreSQL; on the embedded database every writer goes through this one.
    const other: Store = kind === 'postgres' ? await store.reopen() : store
    try {
      expect(await revokeApiKey(other.db, id)).toBeDefined()
    } finally {
      if (other !== store) await other.close()
    }
    if (kind === 'pglite') {
      // The notification came before the revoking statement's reply.
      expect(store.keyChanges.generation).toBeGreaterThan(generation)
    } else await until(() => store.keyChanges.generation > generation, 'the notification', NOTIFIED_MS)
    const refused = await list(key)
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ code: 'api_key_revoked' })
  })

  // What findApiKeyByHash reads and can change, each alone; then what it does not read, which
  // notifies no one (else any key's use, or a no-op revocation, would empty every process's cache).
  it('is told of a change to each column a resolved key holds, and of nothing else', async () => {
    const { id } = await newKey()
    const otherOrg = await createOrgWithKey(store.db)
    const changes = [
      sql`UPDATE api_keys SET permissions = '{relationships:read,events:read}' WHERE id = ${id}`,
      sql`UPDATE api_keys SET expires_at = now() + interval '1 day' WHERE id = ${id}`,
      sql`UPDATE api_keys SET secret_hash = 'x' || secret_hash WHERE id = ${id}`,
      sql`UPDATE api_keys SET org_id = ${otherOrg.orgId} WHERE id = ${id}`,
      sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`,
      sql`UPDATE orgs SET rate_limit_max = 1001 WHERE id = ${orgId}`,
      sql`UPDATE orgs SET key_rate_limit_max = 1002 WHERE id = ${orgId}`,
      sql`UPDATE orgs SET admin_rate_limit_max = 1003 WHERE id = ${orgId}`,
      sql`UPDATE orgs SET admin_key_rate_limit_max = 1004 WHERE id = ${orgId}`,
      sql`DELETE FROM api_keys WHERE id = ${id}`,
    ]
    for (const change of changes) {
      const generation = store.keyChanges.generation
      await change.execute(store.db)
      await until(
        () => store.keyChanges.generation > generation,
        `a notification of ${change.compile(store.db).sql}`,
        NOTIFIED_MS,
      )
    }
    const { id: quiet } = await newKey()
    const generation = store.keyChanges.generation
    await sql`UPDATE api_keys SET name = 'renamed', last_used_at = now() WHERE id = ${quiet}`.execute(store.db)
    await sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${quiet}`.execute(store.db)
    // Revoking it again, and limits set to what they are: no change, no notification.
    await sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${quiet}`.execute(store.db)
    await sql`UPDATE orgs SET rate_limit_max = rate_limit_max WHERE id = ${orgId}`.execute(store.db)
    // Notifications arrive in commit order: once a later one is here, an earlier one would be too.
    await sql`UPDATE orgs SET rate_limit_max = 1005 WHERE id = ${orgId}`.execute(store.db)
    await until(() => store.keyChanges.generation >= generation + 2, 'the revocation and the last change', NOTIFIED_MS)
    expect(store.keyChanges.generation).toBe(generation + 2)
  })

  it("applies a change to the organization's limits from the next request", async () => {
    const { key } = await newKey()
    const policy = async () => (await list(key)).headers.get('ratelimit-policy')
    const before = await policy()
    const generation = store.keyChanges.generation
    await sql`UPDATE orgs SET key_rate_limit_max = 7 WHERE id = ${orgId}`.execute(store.db)
    await until(() => store.keyChanges.generation > generation, 'the notification', NOTIFIED_MS)
    const after = await policy()
    expect(after).not.toBe(before)
    expect(after).toMatch(/^"default";q=7;/)
  })

  it.runIf(kind === 'postgres')(
    'reads every key while its connection to PostgreSQL is lost, and watches again once it is back',
    async () => {
      const { id, key } = await newKey()
      expect((await list(key)).status).toBe(200)
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'hearth-key-changes' AND datname = current_database()`.execute(store.db)
      await until(() => !store.keyChanges.watching, 'the watch to stop', NOTIFIED_MS)
      // Read again, and not kept: a change unseen by any watch is refused all the same.
      expect((await list(key)).status).toBe(200)
      await withoutNotifying(() => sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`.execute(store.db))
      expect((await list(key)).status).toBe(401)
      await until(() => store.keyChanges.watching, 'the watch to start again', NOTIFIED_MS)
      const { key: fresh } = await newKey()
      expect((await list(fresh)).status).toBe(200)
    },
  )
})
