// Webhook deliveries end to end, on each store: a household write's events reach a real receiver
// on loopback, signed in the Standard Webhooks format (verified with the standardwebhooks package),
// once per event and endpoint, with the event id as webhook-id; only the types an endpoint asked
// for; the attempt recorded in the delivery log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
    api = await startApp(store.db)
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
    expect(receiver.forEvent(event.id)).toHaveLength(1)
    // The body is the event exactly as the change feed answers it.
    const feed = await call(`${api.url}/api/v1/events?limit=1000`, org.key)
    const inFeed = (feed.body.events as { id: string }[]).find((candidate) => candidate.id === event.id)
    expect(JSON.parse(request.body)).toEqual(inFeed)
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
