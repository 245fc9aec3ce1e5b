// The webhook administration API over real HTTP, on each store, with the delivery machinery
// running against a real receiver on loopback: an admin registers an endpoint (the secret is in
// that answer only), a test message arrives signed with it, the delivery log shows its attempt, a
// delivery is sent again (a manual attempt, same webhook-id), a rotation makes both secrets sign
// during its overlap and only the new one after. Another organization's endpoints and deliveries
// are 404, and so are malformed ids; keys and non-admins are refused; the URL rule holds.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { ALL_PERMISSIONS, call, createKey, startApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/app.ts'
import { eventually, startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'
import { startWebhooks, type WebhookService } from '../../src/webhooks/service.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'
import { createSession } from '../../src/auth/sessions.ts'

type Response = Awaited<ReturnType<typeof call>>
interface Endpoint {
  id: string
  url: string
  enabled: boolean
  previousSecretExpiresAt: string | null
}
interface Delivery {
  id: string
  eventId: string
  status: string
  attempts: number
}

describe.each(storeKinds())('the webhook admin API on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let receiver: Receiver
  let webhooks: WebhookService
  let cookieA: string
  let cookieB: string
  let orgA: string

  async function signInAs(orgId: string, role: UserRole): Promise<string> {
    const email = `${role}-${randomBytes(4).toString('hex')}@example.test`
    const user = await createUser(store.db, { orgId, email, name: `A ${role}`, role })
    if (!user) throw new Error('user not created')
    return (await createSession(store.db, { id: user.id, orgId })).value
  }

  const as = (cookie: string, path: string, init: { method?: string; body?: unknown } = {}) => {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST')
    return call(`${api.url}${path}`, undefined, {
      ...init,
      method,
      headers: { cookie: `idp-session=${cookie}`, ...(method === 'GET' ? {} : { origin: TEST_PUBLIC_URL }) },
    })
  }

  function expectError(response: Response, status: number, code: string) {
    expect(response.status, JSON.stringify(response.body)).toBe(status)
    expect(response.body).toMatchObject({ code, error: expect.any(String) })
  }

  async function register(cookie = cookieA, url = receiver.url): Promise<{ endpoint: Endpoint; secret: string }> {
    const response = await as(cookie, '/api/v1/webhook-endpoints', { body: { url, description: 'CRM' } })
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body as unknown as { endpoint: Endpoint; secret: string }
  }

  const deliveryOf = async (endpointId: string, deliveryId: string) =>
    (await as(cookieA, `/api/v1/webhook-endpoints/${endpointId}/deliveries/${deliveryId}`)).body as unknown as {
      delivery: Delivery
      attempts: { attempt: number; trigger: string; succeeded: boolean; responseStatus: number | null }[]
    }

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    receiver = await startReceiver()
    orgA = (await createOrg(store.db, 'Org A')).id
    const orgB = (await createOrg(store.db, 'Org B')).id
    cookieA = await signInAs(orgA, 'admin')
    cookieB = await signInAs(orgB, 'admin')
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

  it('shows the secret once: at registration, never in a list or a read', async () => {
    const { endpoint, secret } = await register()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const list = await as(cookieA, '/api/v1/webhook-endpoints')
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6))
    const one = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}`)
    expect(one.status).toBe(200)
    expect(JSON.stringify(one.body)).not.toContain(secret.slice(6))
    expect(one.body).toMatchObject({ id: endpoint.id, url: receiver.url, enabled: true, eventTypes: null })
  })

  it('sends a test message signed with the secret, records it, and sends it again on request', async () => {
    const { endpoint, secret } = await register()
    const queued = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' })
    expect(queued.status, JSON.stringify(queued.body)).toBe(202)
    const delivery = (queued.body as { delivery: Delivery }).delivery
    const first = await eventually(() => receiver.forEvent(delivery.eventId)[0])
    expect(verifyRequest(secret, first)).toMatchObject({ id: delivery.eventId, type: 'webhook.test' })
    const done = await eventually(async () => {
      const read = await deliveryOf(endpoint.id, delivery.id)
      return read.delivery.status === 'succeeded' && read
    })
    expect(done.attempts).toEqual([
      expect.objectContaining({ attempt: 1, trigger: 'schedule', succeeded: true, responseStatus: 204 }),
    ])
    const log = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`)
    expect((log.body as { deliveries: Delivery[] }).deliveries.map((d) => d.id)).toEqual([delivery.id])

    const again = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`, {
      method: 'POST',
    })
    expect(again.status).toBe(202)
    const second = await eventually(() => receiver.forEvent(delivery.eventId)[1])
    expect(second.headers['webhook-id']).toBe(delivery.eventId)
    expect(second.body).toBe(first.body)
    const resent = await eventually(async () => {
      const read = await deliveryOf(endpoint.id, delivery.id)
      return read.attempts.length === 2 && read.delivery.status === 'succeeded' && read
    })
    expect(resent.attempts[1]).toMatchObject({ attempt: 2, trigger: 'manual', succeeded: true })
  })

  it('signs with both secrets during a rotation overlap, and with the new one only after it', async () => {
    const { endpoint, secret: old } = await register()
    const rotated = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      body: { overlapSeconds: 3600 },
    })
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200)
    const { secret: fresh, endpoint: during } = rotated.body as unknown as { secret: string; endpoint: Endpoint }
    expect(fresh).not.toBe(old)
    expect(during.previousSecretExpiresAt).not.toBeNull()
    const test = async () => {
      const queued = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' })
      const { eventId } = (queued.body as { delivery: Delivery }).delivery
      return eventually(() => receiver.forEvent(eventId)[0])
    }
    const overlapping = await test()
    expect(String(overlapping.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(() => verifyRequest(old, overlapping)).not.toThrow()
    expect(() => verifyRequest(fresh, overlapping)).not.toThrow()

    // Rotating again ends the older overlap at once (only two secrets ever sign), and overlapSeconds 0
    // leaves the new one alone.
    const again = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
      body: { overlapSeconds: 0 },
    })
    const { secret: newest } = again.body as unknown as { secret: string }
    const after = await test()
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(() => verifyRequest(newest, after)).not.toThrow()
    expect(() => verifyRequest(fresh, after)).toThrow()
    expect(() => verifyRequest(old, after)).toThrow()
  })

  it("never shows another organization's endpoints or deliveries: 404, as unknown and malformed ids", async () => {
    const { endpoint } = await register()
    const queued = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/test`, { method: 'POST' })
    const delivery = (queued.body as { delivery: Delivery }).delivery
    const paths: [string, string, unknown][] = [
      ['GET', `/api/v1/webhook-endpoints/${endpoint.id}`, undefined],
      ['PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, { description: 'mine now' }],
      ['DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${endpoint.id}/test`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {}],
      ['GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, undefined],
      ['GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`, undefined],
    ]
    for (const [method, path, body] of paths) expectError(await as(cookieB, path, { method, body }), 404, 'not_found')
    expect(JSON.stringify((await as(cookieB, '/api/v1/webhook-endpoints')).body)).not.toContain(endpoint.id)
    for (const id of [randomUUID(), 'not-an-id'])
      expectError(await as(cookieA, `/api/v1/webhook-endpoints/${id}`), 404, 'not_found')
    expectError(
      await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${randomUUID()}`),
      404,
      'not_found',
    )
    // Nothing changed for its owner.
    expect((await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({ description: 'CRM' })
  })

  it('refuses API keys (even with every permission) and non-admins', async () => {
    const { key } = await createKey(store.db, orgA, [...ALL_PERMISSIONS, 'events:read'])
    expectError(await call(`${api.url}/api/v1/webhook-endpoints`, key), 403, 'missing_permission')
    const advisor = await signInAs(orgA, 'advisor')
    expectError(await as(advisor, '/api/v1/webhook-endpoints'), 403, 'missing_permission')
    expectError(
      await as(advisor, '/api/v1/webhook-endpoints', { body: { url: 'https://crm.example/hook' } }),
      403,
      'missing_permission',
    )
  })

  it('holds the URL rule and the event types', async () => {
    for (const url of ['http://crm.example/hook', 'ftp://crm.example/', 'https://user:pw@crm.example/', 'nonsense']) {
      const response = await as(cookieA, '/api/v1/webhook-endpoints', { body: { url } })
      expectError(response, 400, 'invalid_webhook_url')
      expect(response.body.field).toBe('/url')
    }
    const unknownType = await as(cookieA, '/api/v1/webhook-endpoints', {
      body: { url: 'https://crm.example/hook', eventTypes: ['household.exploded'] },
    })
    expect(unknownType.status).toBe(400)
    const typed = await as(cookieA, '/api/v1/webhook-endpoints', {
      body: { url: 'https://crm.example/hook', eventTypes: ['household.created', 'household.created'] },
    })
    expect(typed.status).toBe(201)
    expect((typed.body as { endpoint: { eventTypes: string[] } }).endpoint.eventTypes).toEqual(['household.created'])
  })

  it('rotates with the default overlap of a day when no body is sent', async () => {
    const { endpoint } = await register()
    const rotated = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: 'POST' })
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200)
    const until = Date.parse((rotated.body as { endpoint: Endpoint }).endpoint.previousSecretExpiresAt ?? '')
    expect(until - Date.now()).toBeGreaterThan(86_000_000)
  })

  it('disables and enables an endpoint again by PATCH', async () => {
    const { endpoint } = await register()
    const off = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      body: { enabled: false },
    })
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'Disabled by an admin.' })
    const on = await as(cookieA, `/api/v1/webhook-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      body: { enabled: true },
    })
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null })
  })
})
