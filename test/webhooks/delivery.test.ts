// Webhook deliveries end to end, on each store: a household write's events reach a real receiver
// on loopback, signed in the Standard Webhooks format (verified with the standardwebhooks package),
// once per event and endpoint, with the event id as webhook-id; only the types an endpoint asked
// for; the attempt recorded in the delivery log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { ALL_PERMISSIONS, call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { eventually, startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'
import { startWebhooks, type WebhookService } from '../../src/webhooks/service.ts'
import { insertEndpoint } from '../../src/store/webhook-endpoints.ts'
import { newWebhookSecret } from '../../src/webhooks/secrets.ts'

describe.each(storeKinds())('webhook deliveries on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let receiver: Receiver
  let webhooks: WebhookService
  let org: Awaited<ReturnType<typeof createOrgWithKey>>

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    receiver = await startReceiver()
    org = await createOrgWithKey(store.db, [...ALL_PERMISSIONS, 'events:read'])
    webhooks = await startWebhooks(
      store,
      {
        databaseUrl: store.env.DATABASE_URL,
        production: false,
        attemptTimeoutMs: 2000,
        concurrency: 4,
        retryUnitMs: 1,
        retentionDays: 30,
        pollIntervalMs: 200,
        maintenanceIntervalSeconds: 1,
        recordMarginSeconds: 2,
      },
      (error, message) => console.error(message, error),
    )
  })
  /** pg-boss jobs (waiting, done or archived) made for the delivery `deliveryId`. */
  const jobsOf = async (deliveryId: string): Promise<number> => {
    const result = await sql<{ n: number }>`
      SELECT ((SELECT count(*) FROM pgboss.job WHERE data->>'deliveryId' = ${deliveryId})
        + (SELECT count(*) FROM pgboss.archive WHERE data->>'deliveryId' = ${deliveryId}))::int AS n
    `.execute(store.db)
    return result.rows[0]?.n ?? -1
  }

  afterAll(async () => {
    await webhooks?.close()
    await api?.close()
    await receiver?.close()
    await store?.drop()
  })

  it('delivers a signed event once, with the event id as webhook-id, and records the attempt', async () => {
    const secret = newWebhookSecret()
    const endpoint = await insertEndpoint(store.db, {
      orgId: org.orgId,
      url: receiver.url,
      description: '',
      eventTypes: null,
      secret,
    })
    const created = await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'Webhook Family' } })
    expect(created.status).toBe(201)
    const request = await eventually(() => receiver.requests[0])
    const event = verifyRequest(secret, request) as { id: string; type: string }
    expect(event.type).toBe('household.created')
    expect(request.headers['webhook-id']).toBe(event.id)
    const delivery = await eventually(async () =>
      store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpoint.id)
        .where('status', '=', 'succeeded')
        .executeTakeFirst(),
    )
    expect(delivery.attempts).toBe(1)
    expect(delivery.lease_until).toBeNull()
    expect(receiver.forEvent(event.id)).toHaveLength(1)
    // The dispatching instance made the first attempt itself, under a lease: no pg-boss job was
    // queued, fetched or completed for it (migration 0016).
    expect(await jobsOf(delivery.id)).toBe(0)
    // The body is the event exactly as the change feed answers it.
    const feed = await call(`${api.url}/api/v1/events?limit=1000`, org.key)
    const inFeed = (feed.body.events as { id: string }[]).find((candidate) => candidate.id === event.id)
    expect(JSON.parse(request.body)).toEqual(inFeed)
  })

  it('a burst of writes: each event once, each delivery succeeded at attempt 1, recorded in batches', async () => {
    const burst = await startReceiver()
    try {
      const endpoint = await insertEndpoint(store.db, {
        orgId: org.orgId,
        url: burst.url,
        description: '',
        eventTypes: ['household.created'],
        secret: newWebhookSecret(),
      })
      const households = 24
      await Promise.all(
        Array.from({ length: households }, (_, i) =>
          call(`${api.url}/api/v1/relationships`, org.key, { body: { name: `Burst ${i}` } }),
        ),
      )
      const deliveries = await eventually(async () => {
        const rows = await store.db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('endpoint_id', '=', endpoint.id)
          .where('status', '=', 'succeeded')
          .execute()
        return rows.length === households && rows
      })
      expect(deliveries.every((delivery) => delivery.attempts === 1 && delivery.lease_until === null)).toBe(true)
      const attempts = await store.db
        .selectFrom('webhook_attempts')
        .select(['attempt', 'succeeded'])
        .where(
          'delivery_id',
          'in',
          deliveries.map((delivery) => delivery.id),
        )
        .execute()
      expect(attempts).toHaveLength(households)
      expect(attempts.every((attempt) => attempt.attempt === 1 && attempt.succeeded)).toBe(true)
      const byEvent = new Map<string, number>()
      for (const request of burst.requests) {
        const id = String(request.headers['webhook-id'])
        byEvent.set(id, (byEvent.get(id) ?? 0) + 1)
      }
      expect(byEvent.size).toBe(households)
      expect([...byEvent.values()].every((count) => count === 1)).toBe(true)
    } finally {
      await burst.close()
    }
  })

  it('sends only the event types an endpoint asked for', async () => {
    const typed = await startReceiver()
    try {
      await insertEndpoint(store.db, {
        orgId: org.orgId,
        url: typed.url,
        description: '',
        eventTypes: ['household.updated'],
        secret: newWebhookSecret(),
      })
      const created = await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'Typed Family' } })
      const id = (created.body.household as { id: string }).id
      await call(`${api.url}/api/v1/relationships/${id}`, org.key, {
        method: 'PATCH',
        body: { name: 'Typed Family II' },
        headers: { 'if-match': '"1"' },
      })
      const request = await eventually(() => typed.requests[0])
      expect(JSON.parse(request.body)).toMatchObject({ type: 'household.updated', householdId: id })
      await webhooks.dispatchNow()
      expect(typed.requests.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['household.updated'])
    } finally {
      await typed.close()
    }
  })
})
