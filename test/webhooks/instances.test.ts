// Several instances on one PostgreSQL database, each running the dispatcher and the workers (as
// every `hearth serve` process does): each event reaches the receiver once per attempt, never
// twice because two instances saw it; and an instance killed in the middle of an attempt (its
// receiver holding the request) leaves the attempt to be made by another once the job's lease
// runs out. PostgreSQL only: the embedded database is one process's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { eventually, startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'
import { addEndpoint, startTestWebhooks } from '../helpers/webhooks.ts'
import type { WebhookService } from '../../src/webhooks/service.ts'
import type { Store } from '../../src/store/db.ts'

const onPostgres = storeKinds().includes('postgres')

describe.runIf(onPostgres)('webhooks on several instances of one PostgreSQL database', () => {
  let store: TestStore
  let other: Store
  let api: TestApp
  let receiver: Receiver
  const services: WebhookService[] = []

  beforeAll(async () => {
    store = await openTestStore('postgres')
    other = await store.reopen()
    api = await startApp(store)
    receiver = await startReceiver()
  })
  afterAll(async () => {
    for (const service of services) await service.close()
    await api?.close()
    await receiver?.close()
    await other?.close()
    await store?.drop()
  })

  const instance = async (on: Store) => {
    const service = await startTestWebhooks({ ...on, env: store.env })
    services.push(service)
    return service
  }

  it('two instances deliver each event once', async () => {
    await instance(store)
    await instance(other)
    const org = await createOrgWithKey(store.db)
    const endpoint = await addEndpoint(store, org.orgId, receiver.url)
    const households = 30
    await Promise.all(
      Array.from({ length: households }, (_, i) =>
        call(`${api.url}/api/v1/relationships`, org.key, { body: { name: `Family ${i}` } }),
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
    }, 30_000)
    for (const delivery of deliveries) {
      expect(delivery.attempts).toBe(1)
      expect(receiver.forEvent(delivery.event_id)).toHaveLength(1)
    }
    expect(receiver.requests).toHaveLength(households)
    for (const request of receiver.requests) verifyRequest(endpoint.secret, request)
    for (const service of services.splice(0)) await service.close()
  })

  it('an instance killed mid-attempt leaves the attempt to another', async () => {
    const doomed = await instance(store)
    const org = await createOrgWithKey(store.db)
    const endpoint = await addEndpoint(store, org.orgId, receiver.url)
    let first = true
    receiver.answer(() => {
      if (!first) return { status: 204 }
      first = false
      return { hold: true }
    })
    await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'Killed Family' } })
    const held = await eventually(() => receiver.requests.find((request) => request.body.includes('Killed Family')))
    const eventId = String(held.headers['webhook-id'])
    await instance(other)
    // As a killed process: nothing recorded, nothing handed back. The doomed instance dispatched
    // the event and made its first attempt under a lease (no job, migration 0016): the other
    // instance queues a job for it once the lease has run out.
    await doomed.halt()
    services.splice(services.indexOf(doomed), 1)
    const delivery = await eventually(async () => {
      const row = await store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpoint.id)
        .executeTakeFirst()
      return row?.status === 'succeeded' && row
    }, 40_000)
    expect(receiver.forEvent(eventId)).toHaveLength(2)
    // The attempt the killed instance made was never recorded; the one that succeeded was.
    expect(delivery.attempts).toBe(1)
    const attempts = await store.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .execute()
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, succeeded: true })])
  }, 60_000)
})
