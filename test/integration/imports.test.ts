// Issue 17, bulk import: POST /api/v1/imports with JSON Lines answers 202, the lines are processed
// in the background with a result each (created, updated, unchanged, or the error with its line,
// code and JSON Pointer); the same file again changes nothing and emits no event; a malformed line
// fails alone; a declared 1 GB upload is refused before its body is read; another organization's
// import is 404; an app closed mid-import leaves it to the next one on the same store. On PGlite
// and on PostgreSQL.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'

const WRITE = ['relationships:read', 'relationships:write']
/** Quick to notice new work and to take over claims: the tests wait on them. */
const WORKER = { lanes: 2, batch: 8, leaseMs: 1500, idleMs: 50 }

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

const household = (externalId: string, name = `Household ${externalId}`) => ({
  externalId,
  name,
  members: [
    { externalId: `${externalId}-a`, name: 'Alex', role: 'primaryClient' },
    {
      externalId: `${externalId}-b`,
      name: 'Blair',
      role: 'coClient',
      relationships: [{ externalId: `${externalId}-a`, type: 'spouse' }],
    },
    {
      externalId: `${externalId}-c`,
      name: 'Casey',
      role: 'child',
      relationships: [{ externalId: `${externalId}-a`, type: 'parent' }],
    },
  ],
  entities: [{ externalId: 'trust', name: 'Family Trust', kind: 'revocableTrust', value: 1000000 }],
  links: [
    { from: `${externalId}-a`, to: 'trust', type: 'grantor' },
    { from: `${externalId}-c`, to: 'trust', type: 'beneficiary', share: 100 },
  ],
})

const jsonl = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')

describe.each(storeKinds())('imports on %s', (kind) => {
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

  const upload = (url: string, body: string, as = key, type = 'application/x-ndjson') =>
    call(`${url}/api/v1/imports`, as, { method: 'POST', body, headers: { 'content-type': type } })

  async function finished(url: string, id: string, as = key): Promise<ImportBody> {
    const deadline = Date.now() + 45_000
    for (;;) {
      const answer = await call(`${url}/api/v1/imports/${id}`, as)
      expect(answer.status).toBe(200)
      const body = answer.body.import as ImportBody
      if (body.status === 'done') return body
      if (Date.now() > deadline) throw new Error(`import ${id} is not done: ${JSON.stringify(body)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  async function lines(id: string, query = ''): Promise<LineBody[]> {
    const answer = await call(`${api.url}/api/v1/imports/${id}/lines?limit=1000${query}`, key)
    expect(answer.status).toBe(200)
    return answer.body.lines as LineBody[]
  }

  async function feedCursor(after?: string): Promise<{ types: string[]; next: string }> {
    const query = new URLSearchParams({ limit: '1000' })
    if (after) query.set('after', after)
    const page = await call(`${api.url}/api/v1/events?${query.toString()}`, reader)
    const body = page.body as { events: { type: string }[]; nextCursor: string }
    return { types: body.events.map((e) => e.type), next: body.nextCursor }
  }

  it('records a result per line: created, updated, unchanged, and errors alone, with line, code and field', async () => {
    const file = jsonl([
      household('h1'),
      '',
      '{"externalId": "broken", ',
      { ...household('h2'), members: [household('h2').members[0], { ...household('h2').members[0], externalId: 'x' }] },
      household('h3'),
      household('h1', 'Renamed h1'),
      { name: 'No id' },
      '   ',
      household('h4'),
    ])
    const posted = await upload(api.url, `${file}\n`)
    expect(posted.status).toBe(202)
    const created = posted.body.import as ImportBody
    expect(posted.headers.get('location')).toBe(`/api/v1/imports/${created.id}`)
    // Nine lines, two of them blank (and the final newline ends line 9): seven to process.
    // (The workers may have begun: whatever the state of each line, the states add up to the total.)
    const { total, ...states } = created.lines
    expect(total).toBe(7)
    expect(Object.values(states).reduce((sum, n) => sum + n, 0)).toBe(7)

    const done = await finished(api.url, created.id)
    expect(done.lines).toEqual({ total: 7, pending: 0, created: 3, updated: 0, unchanged: 0, error: 4 })
    const all = await lines(created.id)
    expect(all.map((l) => [l.line, l.status])).toEqual([
      [1, 'created'],
      [3, 'error'],
      [4, 'error'],
      [5, 'created'],
      [6, 'error'],
      [7, 'error'],
      [9, 'created'],
    ])
    const errors = await lines(created.id, '&status=error')
    expect(errors.map((l) => [l.line, l.error?.code, l.error?.field])).toEqual([
      [3, 'invalid_json', ''],
      [4, 'member_role_taken', '/members/1/role'],
      [6, 'import_external_id_repeated', '/externalId'],
      [7, 'invalid_body', '/externalId'],
    ])
    expect(errors[1]?.externalId).toBe('h2')
    // Paged by line number.
    const first = await call(`${api.url}/api/v1/imports/${created.id}/lines?limit=2`, key)
    expect((first.body.lines as LineBody[]).map((l) => l.line)).toEqual([1, 3])
    const second = await call(
      `${api.url}/api/v1/imports/${created.id}/lines?limit=2&after=${String(first.body.nextAfter)}`,
      key,
    )
    expect((second.body.lines as LineBody[]).map((l) => l.line)).toEqual([4, 5])

    // h1 renamed by a file of its own: updated.
    const renamed = await upload(api.url, jsonl([household('h1', 'Renamed h1')]))
    const renamedDone = await finished(api.url, (renamed.body.import as ImportBody).id)
    expect(renamedDone.lines).toMatchObject({ total: 1, updated: 1 })
    const h1 = await call(`${api.url}/api/v1/relationships?externalId=h1`, key)
    expect((h1.body.households as { name: string; counts: { members: number } }[])[0]).toMatchObject({
      name: 'Renamed h1',
      counts: { members: 3 },
    })
    const id = all[0]?.householdId ?? ''
    const links = await call(`${api.url}/api/v1/relationships/${id}/links`, key)
    expect(links.body.links).toHaveLength(2)
  })

  it('importing the same file twice: every line unchanged the second time, and no event', async () => {
    const file = jsonl([household('same-1'), household('same-2'), household('same-3')])
    const first = await upload(api.url, file)
    const firstDone = await finished(api.url, (first.body.import as ImportBody).id)
    expect(firstDone.lines.created).toBe(3)
    const before = await feedCursor()
    let cursor = before.next
    // Read the feed to its end, so that only the second import's events could follow.
    for (let page = await feedCursor(cursor); page.types.length > 0; page = await feedCursor(cursor)) cursor = page.next

    const second = await upload(api.url, file)
    const secondDone = await finished(api.url, (second.body.import as ImportBody).id)
    expect(secondDone.lines).toMatchObject({ total: 3, unchanged: 3, created: 0, updated: 0, error: 0 })
    expect((await feedCursor(cursor)).types).toEqual([])
  })

  it('refuses another media type (415) and a declared size over 256 MB (413) without reading the body', async () => {
    expect((await upload(api.url, '{"name":"x"}', key, 'application/json')).status).toBe(415)
    const url = new URL(`${api.url}/api/v1/imports`)
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/x-ndjson',
            'content-length': String(1024 * 1024 * 1024),
          },
        },
        (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk.toString()))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        },
      )
      request.on('error', reject)
      // Headers only: the answer must come without a byte of the body.
      request.flushHeaders()
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'body_too_large' })
    const left = await store.db.selectFrom('imports').select('id').where('status', '=', 'receiving').execute()
    expect(left).toEqual([])
  })

  it("another organization's import is 404, as an unknown one", async () => {
    const posted = await upload(api.url, jsonl([household('mine')]))
    const id = (posted.body.import as ImportBody).id
    const other = await createOrgWithKey(store.db, WRITE)
    expect((await call(`${api.url}/api/v1/imports/${id}`, other.key)).status).toBe(404)
    expect((await call(`${api.url}/api/v1/imports/${id}/lines`, other.key)).status).toBe(404)
    expect((await call(`${api.url}/api/v1/imports/not-a-uuid`, key)).status).toBe(404)
    await finished(api.url, id)
  })

  it('continues after the app stops mid-import: another app on the same store finishes it, each line once', async () => {
    const count = 150
    const file = jsonl(Array.from({ length: count }, (_, i) => household(`resume-${i}`)))
    // The suite's app would process the import too: only the two apps of this test run.
    await api.close()
    const first = await startApp(store, { imports: { ...WORKER, lanes: 1 } })
    const posted = await upload(first.url, file)
    const id = (posted.body.import as ImportBody).id
    for (;;) {
      const progress = (await call(`${first.url}/api/v1/imports/${id}`, key)).body.import as ImportBody
      if (progress.lines.created >= 10) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await first.close()
    const pending = await store.db
      .selectFrom('import_lines')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('import_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow()
    expect(pending.n, 'the app stopped before the import was done').toBeGreaterThan(0)

    api = await startApp(store, { imports: WORKER })
    const done = await finished(api.url, id)
    expect(done.lines).toMatchObject({ total: count, created: count, error: 0, pending: 0 })
    const households = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM households WHERE org_id = ${orgId} AND external_id LIKE 'resume-%'`.execute(
      store.db,
    )
    expect(households.rows[0]?.n).toBe(count)
    const events = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM events e JOIN households h ON h.id = e.household_id
      WHERE h.external_id LIKE 'resume-%' AND e.type = 'household.replaced'`.execute(store.db)
    expect(events.rows[0]?.n).toBe(count)
  })
})
