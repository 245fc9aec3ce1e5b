// Issue 17, the import's batch path (src/imports/import-batch.ts): a claimed batch of lines whose
// households are new is written in one transaction, one statement per table. These tests hold it
// to what the per-line path gives: a result per line (errors alone, with their codes and JSON
// Pointers), the counts the triggers keep, the GETs, a household.replaced whose data is exactly
// the GETs' (and byte for byte what the per-line path's readers build), nothing new the second
// time; and when the batch cannot be written (a line's INSERT fails, a household is created under
// one of its externalIds meanwhile), each line still gets its own result, in line order; a file
// that names an externalId twice has its later lines failed at upload. On PGlite and on PostgreSQL (the concurrent create: PostgreSQL only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import type { FeedEvent } from '../helpers/event-mirror.ts'
import { readHouseholdJson } from '../../src/store/household-record.ts'
import { householdPartsJson } from '../../src/store/household-document.ts'
import {
  claimLines,
  insertImport,
  insertLines,
  LineClaimLost,
  markReceived,
  readLines,
} from '../../src/store/imports.ts'
import { processBatch } from '../../src/imports/import-batch.ts'
import { processLine } from '../../src/imports/import-line.ts'

const WRITE = ['relationships:read', 'relationships:write']
/** Batches of 40: a file of 100 lines is three of them, each with new households, errors or both. */
const WORKER = { lanes: 2, batch: 40, leaseMs: 1500, idleMs: 50 }

interface ImportBody {
  id: string
  status: 'processing' | 'done'
  lines: Record<'total' | 'pending' | 'created' | 'updated' | 'unchanged' | 'error', number>
}
interface LineBody {
  line: number
  status: string
  externalId: string | null
  householdId: string | null
  error: { code: string; message: string; field: string | null } | null
}

/** Households of several shapes: every household field kind, valued entities and parties, shares, no parts at all. */
function household(prefix: string, i: number): Record<string, unknown> {
  const externalId = `${prefix}-${i}`
  if (i % 10 === 5) return { externalId, name: `Bare ${prefix} ${i}` }
  const withEntities = i % 4 !== 0
  return {
    externalId,
    name: `Family ${prefix} ${i}`,
    ...(i % 3 === 0
      ? {
          currency: 'EUR',
          metadata: { crm: { id: i, tags: ['a', 'b'] } },
          dsueReceived: 1234.5,
          coClientUsCitizen: true,
        }
      : {}),
    members: [
      {
        externalId: 'p1',
        name: `Alex ${i}`,
        role: 'primaryClient',
        birthDate: '1960-04-02',
        email: `alex${i}@example.com`,
      },
      {
        externalId: 'p2',
        name: `Blair ${i}`,
        role: 'coClient',
        relationships: [{ externalId: 'p1', type: 'spouse', since: '1990-06-01' }],
      },
      {
        externalId: 'c1',
        name: `Casey ${i}`,
        role: 'child',
        relationships: [
          { externalId: 'p1', type: 'parent' },
          { externalId: 'p2', type: 'parent', parentKind: 'adopted' },
        ],
      },
    ],
    ...(withEntities
      ? {
          entities: [
            {
              externalId: 'rlt',
              name: `Trust ${i}`,
              kind: 'revocableTrust',
              value: 1_000_000 + i,
              valueAsOf: '2024-01-31',
            },
            { externalId: 'llc', name: `Holdings ${i}`, kind: 'llc', value: 250_000.25 },
            { externalId: 'bank', name: 'Big Bank', kind: 'corporateTrustee' },
          ],
          links: [
            { from: 'p1', to: 'rlt', type: 'grantor' },
            { from: 'c1', to: 'rlt', type: 'beneficiary', share: 66.6667, beneficiaryType: 'primary' },
            { from: 'p2', to: 'rlt', type: 'beneficiary', share: 33.3333, beneficiaryType: 'primary' },
            { from: 'rlt', to: 'llc', type: 'owner', share: 100 },
          ],
        }
      : {}),
  }
}

const jsonl = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')

describe.each(storeKinds())('import batches on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let orgId: string
  let reader: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store, { imports: WORKER })
    ;({ key, orgId } = await createOrgWithKey(store.db, WRITE))
    reader = (await createKey(store.db, orgId, ['events:read'])).key
  }, 60_000)
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const rel = (path = '') => `${api.url}/api/v1/relationships${path}`

  async function importFile(file: string): Promise<{ done: ImportBody; lines: LineBody[] }> {
    const posted = await call(`${api.url}/api/v1/imports`, key, {
      method: 'POST',
      body: file,
      headers: { 'content-type': 'application/x-ndjson' },
    })
    expect(posted.status).toBe(202)
    const id = (posted.body.import as ImportBody).id
    const deadline = Date.now() + 60_000
    for (;;) {
      const done = (await call(`${api.url}/api/v1/imports/${id}`, key)).body.import as ImportBody
      if (done.status === 'done') {
        const lines = (await call(`${api.url}/api/v1/imports/${id}/lines?limit=1000`, key)).body.lines as LineBody[]
        return { done, lines }
      }
      if (Date.now() > deadline) throw new Error(`import ${id} is not done: ${JSON.stringify(done)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  /** Every readable event after `after`, and the cursor after the last. */
  async function readFeed(after?: string): Promise<{ events: FeedEvent[]; cursor: string | undefined }> {
    const events: FeedEvent[] = []
    let cursor = after
    for (;;) {
      const query = new URLSearchParams({ limit: '500' })
      if (cursor) query.set('after', cursor)
      const page = await call(`${api.url}/api/v1/events?${query.toString()}`, reader)
      expect(page.status).toBe(200)
      const body = page.body as unknown as { events: FeedEvent[]; nextCursor: string }
      events.push(...body.events)
      cursor = body.nextCursor
      if (body.events.length < 500) return { events, cursor }
    }
  }

  /**
   * The events after `after`, once at least `count` are readable: the feed holds back events below
   * a transaction still running in the database (any request's own, such as a key's usage), so
   * committed events may show a moment later.
   */
  async function feed(after?: string, count = 0): Promise<{ events: FeedEvent[]; cursor: string | undefined }> {
    const deadline = Date.now() + 15_000
    for (;;) {
      const read = await readFeed(after)
      if (read.events.length >= count || Date.now() > deadline) return read
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  async function gets(id: string) {
    return {
      household: (await call(rel(`/${id}`), key)).body.household,
      members: (await call(rel(`/${id}/members`), key)).body.members,
      entities: (await call(rel(`/${id}/entities`), key)).body.entities,
      links: (await call(rel(`/${id}/links`), key)).body.links,
    }
  }

  /** Stored counts that disagree with the rows (households of the org), and the org's count against its households. */
  async function countsDisagreeing() {
    const households = await sql<{ id: string }>`
      SELECT h.id FROM households h WHERE h.org_id = ${orgId} AND (
        h.member_count <> (SELECT count(*) FROM members m WHERE m.household_id = h.id)
        OR h.entity_count <> (SELECT count(*) FROM entities e WHERE e.household_id = h.id))`.execute(store.db)
    const org = await sql<{ stored: number; actual: number }>`
      SELECT (SELECT coalesce(sum(households), 0)::int FROM org_household_counts WHERE org_id = ${orgId}) AS stored,
        (SELECT count(*)::int FROM households WHERE org_id = ${orgId}) AS actual`.execute(store.db)
    return { households: households.rows, org: org.rows[0] }
  }

  it('creates a file of new households in batches: a result per line, counts, GETs, and events equal to the GETs', async () => {
    const before = await feed()
    const count = 100
    const file: unknown[] = Array.from({ length: count }, (_, i) => household('new', i))
    // Errors inside the batches, each failing alone: not JSON, a rule (second primaryClient), a link to nothing.
    file[17] = '{"externalId": "broken",'
    file[41] = {
      ...household('new', 41),
      members: [
        { externalId: 'p1', name: 'A', role: 'primaryClient' },
        { externalId: 'p2', name: 'B', role: 'primaryClient' },
      ],
    }
    file[62] = { ...household('new', 62), links: [{ from: 'p1', to: 'nowhere', type: 'grantor' }] }
    const { done, lines } = await importFile(jsonl(file))
    expect(done.lines).toEqual({ total: count, pending: 0, created: count - 3, updated: 0, unchanged: 0, error: 3 })
    expect(
      lines.filter((l) => l.status === 'error').map((l) => [l.line, l.externalId, l.error?.code, l.error?.field]),
    ).toEqual([
      [18, null, 'invalid_json', ''],
      [42, 'new-41', 'member_role_taken', '/members/1/role'],
      [63, 'new-62', 'invalid_body', '/links/0/to'],
    ])
    const created = lines.filter((l) => l.status === 'created')
    expect(created.map((l) => l.externalId)).toEqual(
      Array.from({ length: count }, (_, i) => `new-${i}`).filter((id) => !['new-17', 'new-41', 'new-62'].includes(id)),
    )
    expect(new Set(created.map((l) => l.householdId)).size).toBe(created.length)

    expect(await countsDisagreeing()).toEqual({ households: [], org: { stored: count - 3, actual: count - 3 } })
    const audit = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_log WHERE org_id = ${orgId} AND action = 'household.create'`.execute(
      store.db,
    )
    expect(audit.rows[0]?.n).toBe(count - 3)

    const after = await feed(before.cursor, created.length)
    expect(after.events.map((e) => e.type)).toEqual(created.map(() => 'household.replaced'))
    // One per created line (the lanes' batches commit in any order, so the feed's order is theirs).
    expect(after.events.map((e) => e.householdId).sort()).toEqual(created.map((l) => l.householdId).sort())
    for (const line of created.filter((_, i) => i % 7 === 0 || i === created.length - 1)) {
      const id = line.householdId ?? ''
      const event = after.events.find((e) => e.householdId === id)
      const read = await gets(id)
      expect(event?.data).toEqual(read)
      const document = household('new', line.line - 1) as { members?: unknown[]; entities?: unknown[] }
      expect(read.household).toMatchObject({
        externalId: line.externalId,
        counts: { members: document.members?.length ?? 0, entities: document.entities?.length ?? 0 },
      })
    }
    // Written by the batch path: the 97 households in a few transactions (batches of 40; two lanes
    // claiming at once may split one), not one each.
    const transactions = await sql<{ n: number }>`
      SELECT count(DISTINCT tx)::int AS n FROM events WHERE household_id = ANY(${created.map((l) => l.householdId)}::uuid[])`.execute(
      store.db,
    )
    expect(transactions.rows[0]?.n).toBeLessThanOrEqual(6)
    // Byte for byte what the per-line path writes: its own readers, in one transaction, give the same text.
    const stored = await sql<{ household_id: string; data: string }>`
      SELECT household_id, data FROM events WHERE org_id = ${orgId} AND household_id = ANY(${created.map((l) => l.householdId)}::uuid[])`.execute(
      store.db,
    )
    for (const row of stored.rows) {
      const expected = await store.db.transaction().execute(async (trx) => {
        const h = await readHouseholdJson(trx, orgId, row.household_id)
        const parts = await householdPartsJson(trx, orgId, row.household_id)
        return `{"household":${h?.body ?? 'null'},"members":${parts.members},"entities":${parts.entities},"links":${parts.links}}`
      })
      expect(row.data).toBe(expected)
    }

    // The same file again: every valid line unchanged, the errors again, and no event.
    const again = await importFile(jsonl(file))
    expect(again.done.lines).toEqual({
      total: count,
      pending: 0,
      created: 0,
      updated: 0,
      unchanged: count - 3,
      error: 3,
    })
    expect(again.lines.filter((l) => l.status === 'unchanged').map((l) => l.householdId)).toEqual(
      created.map((l) => l.householdId),
    )
    expect((await feed(after.cursor)).events).toEqual([])
    expect(await countsDisagreeing()).toEqual({ households: [], org: { stored: count - 3, actual: count - 3 } })
  }, 120_000)

  it('an externalId named twice in an import: the later lines fail at upload, naming the first; the rest imports, and again is all unchanged', async () => {
    // Upload batches are 2,000 lines: the repeat on line 2,104 is looked up among lines already stored.
    const padding = Array.from({ length: 2100 }, (_, i) => ({ externalId: `pad-${i}`, notAField: true }))
    const file = [
      household('twice', 1),
      household('twice', 2),
      { ...household('twice', 1), name: 'Renamed once' },
      ...padding,
      { ...household('twice', 1), name: 'Renamed twice' },
      household('twice', 3),
    ]
    const { done, lines } = await importFile(jsonl(file))
    expect(done.lines).toEqual({ total: 2105, pending: 0, created: 3, updated: 0, unchanged: 0, error: 2102 })
    // (The lines after the padding: a page is at most 1,000 lines.)
    const tail = (await call(`${api.url}/api/v1/imports/${done.id}/lines?after=2103`, key)).body.lines as LineBody[]
    const named = [...lines, ...tail].filter((l) => l.externalId?.startsWith('twice-'))
    expect(named.map((l) => [l.line, l.status, l.externalId, l.error?.code, l.error?.field])).toEqual([
      [1, 'created', 'twice-1', undefined, undefined],
      [2, 'created', 'twice-2', undefined, undefined],
      [3, 'error', 'twice-1', 'import_external_id_repeated', '/externalId'],
      [2104, 'error', 'twice-1', 'import_external_id_repeated', '/externalId'],
      [2105, 'created', 'twice-3', undefined, undefined],
    ])
    expect(named[2]?.error?.message).toMatch(
      /^Line 1 of this import already names externalId "twice-1".*Merge the two lines/,
    )
    expect(named[3]?.error?.message).toMatch(/^Line 1 of this import/)
    // The first line is the one applied, whatever the timing.
    const found = await call(rel('?externalId=twice-1'), key)
    expect((found.body.households as { name: string }[]).map((h) => h.name)).toEqual(['Family twice 1'])
    expect(await countsDisagreeing()).toMatchObject({ households: [] })

    // The same file again: the same refusals, and every applied line unchanged.
    const again = await importFile(jsonl(file))
    expect(again.done.lines).toEqual({ total: 2105, pending: 0, created: 0, updated: 0, unchanged: 3, error: 2102 })
  }, 60_000)

  it('a line whose INSERT fails in the database: the batch is done line by line, and only that line fails', async () => {
    // A rule the documents' checks do not know, so the batch's statement fails on one line of it.
    await sql`CREATE FUNCTION refuse_exploding() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'Exploding' THEN RAISE EXCEPTION 'no exploding households'; END IF; RETURN NEW; END $$`.execute(
      store.db,
    )
    await sql`CREATE TRIGGER refuse_exploding BEFORE INSERT ON households FOR EACH ROW EXECUTE FUNCTION refuse_exploding()`.execute(
      store.db,
    )
    // One lane: the file is one claim, so every line of it is done line by line (two lanes may split it).
    await api.close()
    api = await startApp(store, { imports: { ...WORKER, lanes: 1 } })
    try {
      const before = await feed()
      const file = Array.from({ length: 12 }, (_, i) => household('boom', i))
      file[6] = { ...household('boom', 6), name: 'Exploding' }
      const { done, lines } = await importFile(jsonl(file))
      expect(done.lines).toMatchObject({ total: 12, created: 11, error: 1, pending: 0 })
      expect(lines.filter((l) => l.status === 'error').map((l) => [l.line, l.error?.code])).toEqual([
        [7, 'internal_error'],
      ])
      const exploded = await call(rel('?externalId=boom-6'), key)
      expect(exploded.body.households).toEqual([])
      // One event per household created, none for the line that failed (its transaction left nothing).
      const createdIds = lines.filter((l) => l.status === 'created').map((l) => l.householdId ?? '')
      // (Only this file's: an event of the test before may have been held back until now.)
      const events = (await feed(before.cursor, createdIds.length)).events.filter((e) =>
        (e.data as { household?: { externalId?: string } }).household?.externalId?.startsWith('boom-'),
      )
      expect(events.map((e) => e.householdId).sort()).toEqual(createdIds.sort())
      // Done line by line: a transaction per household.
      const transactions = await sql<{ n: number }>`
        SELECT count(DISTINCT tx)::int AS n FROM events WHERE household_id = ANY(${events.map((e) => e.householdId)}::uuid[])`.execute(
        store.db,
      )
      expect(transactions.rows[0]?.n).toBe(11)
      expect(await countsDisagreeing()).toMatchObject({ households: [] })
    } finally {
      await api.close()
      api = await startApp(store, { imports: WORKER })
      await sql`DROP TRIGGER refuse_exploding ON households`.execute(store.db)
      await sql`DROP FUNCTION refuse_exploding()`.execute(store.db)
    }
  }, 60_000)
})

// A lane whose lease ran out while it was still on its lines (waiting on a household's lock, say)
// while another lane claimed them: the first lane's recording fails, and its household write with
// it, so each line is applied once (one household, one household.replaced). The lease is made to
// run out by setting claimed_until in the past, rather than by waiting for it.
describe.each(storeKinds())('a lane whose lease ran out on %s', (kind) => {
  let store: TestStore

  beforeAll(async () => {
    store = await openTestStore(kind)
  }, 60_000)
  afterAll(async () => {
    await store?.drop()
  })

  it('cannot record its lines once another lane claimed them: its write is rolled back, batch and line alike', async () => {
    const { orgId } = await createOrgWithKey(store.db, WRITE)
    const actor = { kind: 'apiKey' as const, id: orgId, orgId }
    const importId = await insertImport(store.db, actor)
    const bodies = [JSON.stringify(household('lapsed', 1)), JSON.stringify(household('lapsed', 2))]
    await insertLines(
      store.db,
      importId,
      bodies.map((body, i) => ({ line: i + 1, body })),
    )
    await markReceived(store.db, importId, bodies.length)
    const first = await claimLines(store.db, 50, 60_000)
    expect(first.map((l) => l.line)).toEqual([1, 2])
    // The first lane's lease runs out while it is still on the lines; the second lane claims them.
    await sql`UPDATE import_lines SET claimed_until = clock_timestamp() - interval '1 second' WHERE import_id = ${importId}`.execute(
      store.db,
    )
    const second = await claimLines(store.db, 50, 60_000)
    expect(second.map((l) => l.line)).toEqual([1, 2])

    const households = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM households WHERE org_id = ${orgId}`.execute(store.db))
        .rows[0]?.n
    const events = async () =>
      (
        await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM events WHERE org_id = ${orgId} AND type = 'household.replaced'`.execute(
          store.db,
        )
      ).rows[0]?.n

    // The first lane's batch: its transaction fails on recording, and leaves its lines to the per-line path…
    const logged: unknown[] = []
    const oneByOne = await processBatch(store.db, first, (error) => logged.push(error))
    expect(logged).toEqual([])
    expect(oneByOne.map((l) => l.line)).toEqual([1, 2])
    expect(await households()).toBe(0)
    // …where each line's write is rolled back too.
    for (const line of oneByOne) await expect(processLine(store.db, line)).rejects.toBeInstanceOf(LineClaimLost)
    expect(await households()).toBe(0)
    expect(await events()).toBe(0)
    expect((await readLines(store.db, importId, { after: 0, limit: 10 })).map((r) => r.status)).toEqual([
      'pending',
      'pending',
    ])

    // The second lane applies them, once each.
    expect(await processBatch(store.db, second, () => undefined)).toEqual([])
    const results = await readLines(store.db, importId, { after: 0, limit: 10 })
    expect(results.map((r) => [r.line, r.status, r.externalId])).toEqual([
      [1, 'created', 'lapsed-1'],
      [2, 'created', 'lapsed-2'],
    ])
    expect(await households()).toBe(2)
    expect(await events()).toBe(2)
    // A lane that comes back to a line already recorded by another writes nothing either.
    const [late] = first
    if (!late) throw new Error('the first lane claimed nothing')
    await expect(processLine(store.db, late)).rejects.toBeInstanceOf(LineClaimLost)
    expect(await events()).toBe(2)
  }, 60_000)

  it('an update by a lane that lost its line is rolled back: the newer document stays, with one event', async () => {
    const { orgId } = await createOrgWithKey(store.db, WRITE)
    const actor = { kind: 'apiKey' as const, id: orgId, orgId }
    const existing = await insertImport(store.db, actor)
    await insertLines(store.db, existing, [{ line: 1, body: JSON.stringify(household('stale', 1)) }])
    await markReceived(store.db, existing, 1)
    expect(await processBatch(store.db, await claimLines(store.db, 50, 60_000), () => undefined)).toEqual([])

    const importId = await insertImport(store.db, actor)
    await insertLines(store.db, importId, [
      { line: 1, body: JSON.stringify({ ...household('stale', 1), name: 'Renamed by the import' }) },
    ])
    await markReceived(store.db, importId, 1)
    const [mine] = await claimLines(store.db, 50, 60_000)
    await sql`UPDATE import_lines SET claimed_until = clock_timestamp() - interval '1 second' WHERE import_id = ${importId}`.execute(
      store.db,
    )
    const [theirs] = await claimLines(store.db, 50, 60_000)
    if (!mine || !theirs) throw new Error('the line was not claimed twice')
    const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM events WHERE org_id = ${orgId}`.execute(
      store.db,
    )
    await processLine(store.db, theirs)
    // The household is renamed again by someone else after the import's line applied.
    await sql`UPDATE households SET name = 'Newer', version = version + 1 WHERE org_id = ${orgId}`.execute(store.db)
    // The lane that lost the line writes it again over the newer name: refused, rolled back.
    await expect(processLine(store.db, mine)).rejects.toBeInstanceOf(LineClaimLost)
    const after = await sql<{ n: number; name: string }>`
      SELECT (SELECT count(*)::int FROM events WHERE org_id = ${orgId}) AS n,
        (SELECT name FROM households WHERE org_id = ${orgId}) AS name`.execute(store.db)
    expect(after.rows[0]).toEqual({ n: (before.rows[0]?.n ?? 0) + 1, name: 'Newer' })
    expect((await readLines(store.db, importId, { after: 0, limit: 10 }))[0]?.status).toBe('updated')
  }, 60_000)
})

// PostgreSQL only: a second connection creates a household under one of the batch's externalIds
// after the batch looked them up and before it commits (PGlite has one connection: nothing runs
// between). The batch's INSERT waits on that household's index entry, then fails on it; the batch
// is done line by line, and the household created meanwhile is updated by its line.
describe.each(storeKinds().filter((kind) => kind === 'postgres'))('an import batch racing a create on %s', (kind) => {
  let store: TestStore

  beforeAll(async () => {
    store = await openTestStore(kind)
  }, 60_000)
  afterAll(async () => {
    await store?.drop()
  })

  it('is done again line by line when a household is created under one of its externalIds meanwhile', async () => {
    const { orgId } = await createOrgWithKey(store.db, WRITE)
    const actor = { kind: 'apiKey' as const, id: orgId, orgId }
    const importId = await insertImport(store.db, actor)
    const bodies = Array.from({ length: 6 }, (_, i) => JSON.stringify(household('race', i)))
    await insertLines(
      store.db,
      importId,
      bodies.map((body, i) => ({ line: i + 1, body })),
    )
    await markReceived(store.db, importId, bodies.length)
    const claimed = await claimLines(store.db, 50, 60_000)
    expect(claimed).toHaveLength(6)

    const other = await store.reopen()
    let commit: () => void = () => undefined
    const held = new Promise<undefined>((resolve) => (commit = () => resolve(undefined)))
    let inserted: () => void = () => undefined
    const insertedYet = new Promise<undefined>((resolve) => (inserted = () => resolve(undefined)))
    const racing = other.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO households (org_id, name, external_id) VALUES (${orgId}, 'Created meanwhile', 'race-3')`.execute(
        trx,
      )
      inserted()
      await held
    })
    // The other connection's INSERT first (connecting may take a while), so that the batch waits on it.
    await Promise.race([insertedYet, racing])
    try {
      // The batch looks race-3 up (not there: uncommitted), then its INSERT waits on race-3's index entry.
      const logged: unknown[] = []
      const batch = processBatch(store.db, claimed, (error) => logged.push(error))
      for (let waited = 0; ; waited += 20) {
        // This test's database only: the cluster is shared with the other test files.
        const waiting = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(store.db)
        if ((waiting.rows[0]?.n ?? 0) > 0) break
        if (waited > 10_000) throw new Error('the batch never waited on the racing create')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      commit()
      await racing
      const oneByOne = await batch
      expect(logged, 'a unique violation is expected, not logged').toEqual([])
      expect(oneByOne.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6])
      for (const line of oneByOne) await processLine(store.db, line)
    } finally {
      commit()
      await racing.catch(() => undefined)
      await other.close()
    }
    const results = await readLines(store.db, importId, { after: 0, limit: 100 })
    expect(results.map((r) => [r.line, r.status, r.externalId])).toEqual([
      [1, 'created', 'race-0'],
      [2, 'created', 'race-1'],
      [3, 'created', 'race-2'],
      [4, 'updated', 'race-3'],
      [5, 'created', 'race-4'],
      [6, 'created', 'race-5'],
    ])
    const households = await sql<{ n: number; names: string[] }>`
      SELECT count(*)::int AS n, array_agg(name ORDER BY external_id) AS names
      FROM households WHERE org_id = ${orgId}`.execute(store.db)
    expect(households.rows[0]?.n).toBe(6)
    expect(households.rows[0]?.names[3]).toBe('Family race 3')
  }, 60_000)
})
