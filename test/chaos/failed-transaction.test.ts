// Chaos on every store, PGlite included: a write whose transaction fails after its first statements
// with a connection-loss error (57P01, raised by a trigger on the audit insert, the write's last
// statement) answers 503 database_unavailable, leaves nothing behind (no household, no rename, no
// audit row, no idempotency claim), and the very next request works; once the database answers again,
// the retry with the same Idempotency-Key (or If-Match) applies exactly once.
//
// PGlite runs in the process: there is no connection to terminate, no pooler, no server to restart,
// and no statement timeout (one query at a time, in process), so the other chaos cases (test/chaos/
// on PostgreSQL) do not apply to it. What does apply is this: a transaction that fails midway rolls
// back completely, and its single connection is usable by the next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { databaseErrorsCounted, isDatabaseUnavailable } from '../helpers/chaos.ts'

const REL = '/api/v1/relationships'

describe.each(storeKinds())('a write whose transaction fails midway, on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let orgId: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ key, orgId } = await createOrgWithKey(store.db))
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  /** Until dropped, every audit row of a household named "Doomed…" fails as a terminated connection would. */
  async function failDoomedWrites(): Promise<void> {
    await sql`
      CREATE FUNCTION chaos_fail_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM households WHERE id = NEW.household_id AND name LIKE 'Doomed%') THEN
          RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = 'admin_shutdown';
        END IF;
        RETURN NEW;
      END $$`.execute(store.db)
    await sql`CREATE TRIGGER chaos_fail_doomed BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION chaos_fail_doomed()`.execute(
      store.db,
    )
  }

  async function databaseAnswersAgain(): Promise<void> {
    await sql`DROP TRIGGER chaos_fail_doomed ON audit_log`.execute(store.db)
    await sql`DROP FUNCTION chaos_fail_doomed()`.execute(store.db)
  }

  function expectUnavailable(answer: { status: number; headers: Headers; body: Record<string, unknown> }): void {
    expect(
      isDatabaseUnavailable(answer.status, JSON.stringify(answer.body), answer.headers),
      JSON.stringify(answer.body),
    ).toBe(true)
  }

  const householdsNamed = async (name: string) =>
    store.db
      .selectFrom('households')
      .select(['id', 'version'])
      .where('org_id', '=', orgId)
      .where('name', '=', name)
      .execute()
  const auditRowsOf = async (householdId: string) =>
    Number(
      (
        await store.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('household_id', '=', householdId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('answers 503 and leaves nothing behind; the next request works; the retry applies once', async () => {
    const kept = await call(`${api.url}${REL}`, key, { body: { name: 'Kept' } })
    expect(kept.status).toBe(201)
    const keptId = (kept.body.household as { id: string }).id
    const keptTag = kept.headers.get('etag') ?? ''
    await failDoomedWrites()

    // A create under an Idempotency-Key: the household insert ran, the audit insert failed.
    const create = { body: { name: 'Doomed create' }, headers: { 'idempotency-key': `doomed-${kind}` } }
    expectUnavailable(await call(`${api.url}${REL}`, key, create))
    expect(await householdsNamed('Doomed create')).toEqual([])
    const claims = await store.db.selectFrom('idempotency_keys').select('key').where('org_id', '=', orgId).execute()
    expect(claims, 'the idempotency claim is rolled back with the create').toEqual([])

    // A rename under If-Match: the update ran, the audit insert failed.
    const rename = { method: 'PATCH', body: { name: 'Doomed rename' }, headers: { 'if-match': keptTag } }
    expectUnavailable(await call(`${api.url}${REL}/${keptId}`, key, rename))
    const now = await call(`${api.url}${REL}/${keptId}`, key)
    expect([now.status, (now.body.household as { name: string }).name, now.headers.get('etag')]).toEqual([
      200,
      'Kept',
      keptTag,
    ])
    expect(await auditRowsOf(keptId)).toBe(1)

    // The next requests work (on PGlite: its one connection is not left inside the failed transaction).
    const list = await call(`${api.url}${REL}?pageSize=10`, key)
    expect([list.status, list.body.total]).toEqual([200, 1])

    // Both refusals counted as the connection losses they claimed to be.
    expect(await databaseErrorsCounted(api.url)).toEqual({ timeout: 0, connection: 2 })

    await databaseAnswersAgain()
    const retried = await call(`${api.url}${REL}`, key, create)
    expect(retried.status).toBe(201)
    const replayed = await call(`${api.url}${REL}`, key, create)
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body.household]).toEqual([
      201,
      'true',
      retried.body.household,
    ])
    const created = await householdsNamed('Doomed create')
    expect(created).toHaveLength(1)
    expect(await auditRowsOf(created[0]?.id ?? '')).toBe(1)

    const renamed = await call(`${api.url}${REL}/${keptId}`, key, rename)
    expect([renamed.status, (renamed.body.household as { name: string }).name]).toEqual([200, 'Doomed rename'])
    expect(await auditRowsOf(keptId)).toBe(2)
  })
})
