// Receivers that fail, each its own test, on each store: an answer of 500, a closed connection, a
// redirect, nothing listening, and one that takes 30 s. Each attempt is recorded with its reason,
// the next is due no sooner than the schedule says, nothing is lost (the delivery succeeds once the
// receiver recovers), and a slow receiver holds no other delivery up; nor does a host name whose
// DNS never answers (an injected resolver). An attempt in flight when its delivery is sent again is
// recorded all the same. An endpoint failing for 3 days (its failing spell faked in the table) is
// disabled with a reason, and its deliveries stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { eventually, startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'
import { addEndpoint, startTestWebhooks, TEST_ATTEMPT_TIMEOUT_MS } from '../helpers/webhooks.ts'
import type { WebhookService } from '../../src/webhooks/service.ts'
import { systemResolver, type Resolver } from '../../src/webhooks/address-guard.ts'
import { resendDelivery } from '../../src/store/webhook-deliveries.ts'
import { RETRY_WAITS_SECONDS } from '../../src/webhooks/schedule.ts'

/** Names under it never resolve: their DNS server does not answer (and never says so). */
const HANGING_DOMAIN = 'hangs.invalid'

/** The system's resolver, except for names under `domain`, whose resolution never ends. */
function hangingFor(domain: string): Resolver {
  return (hostname, signal) =>
    hostname.endsWith(`.${domain}`) ? new Promise(() => undefined) : systemResolver(hostname, signal)
}

describe.each(storeKinds())('webhook faults on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let webhooks: WebhookService
  const receivers: Receiver[] = []

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    webhooks = await startTestWebhooks(store, { resolve: hangingFor(HANGING_DOMAIN) })
  })
  afterAll(async () => {
    await webhooks?.close()
    await api?.close()
    for (const receiver of receivers) await receiver.close()
    await store?.drop()
  })

  async function receiver(): Promise<Receiver> {
    const started = await startReceiver()
    receivers.push(started)
    return started
  }

  /** A new organization with one endpoint at `url`, and a household created there: its event's id. */
  async function setUp(url: string) {
    const org = await createOrgWithKey(store.db)
    const endpoint = await addEndpoint(store, org.orgId, url)
    const created = await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'Fault Family' } })
    expect(created.status).toBe(201)
    return { org, endpoint }
  }

  const deliveriesOf = (endpointId: string) =>
    store.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute()
  const attemptsOf = (deliveryId: string) =>
    store.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('attempt')
      .execute()

  /** Waits until the endpoint's one delivery has `n` attempts recorded; answers them. */
  async function attempts(endpointId: string, n: number) {
    return eventually(async () => {
      const [delivery] = await deliveriesOf(endpointId)
      if (!delivery) return undefined
      const recorded = await attemptsOf(delivery.id)
      return recorded.length >= n && { delivery, recorded }
    }, 30_000)
  }

  it('500: each attempt is recorded, retried no sooner than the schedule, and delivered once the receiver recovers', async () => {
    const target = await receiver()
    target.answer({ status: 500 })
    const { endpoint } = await setUp(target.url)
    const { recorded } = await attempts(endpoint.id, 3)
    for (const attempt of recorded)
      expect(attempt).toMatchObject({ succeeded: false, response_status: 500, error: 'answered 500' })
    for (let n = 1; n < recorded.length; n++) {
      const gap = recorded[n]!.at.getTime() - recorded[n - 1]!.at.getTime()
      // The schedule's second lasts 1 ms here; a millisecond's slack for the clocks' rounding.
      expect(gap).toBeGreaterThanOrEqual(RETRY_WAITS_SECONDS[n - 1]! - 1)
    }
    const failing = await store.db
      .selectFrom('webhook_endpoints')
      .select('failing_since')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow()
    expect(failing.failing_since).not.toBeNull()
    target.answer({ status: 200 })
    const done = await eventually(async () => {
      const [delivery] = await deliveriesOf(endpoint.id)
      return delivery?.status === 'succeeded' && delivery
    }, 30_000)
    const all = await attemptsOf(done.id)
    expect(all.at(-1)).toMatchObject({ succeeded: true, response_status: 200 })
    expect(done.attempts).toBe(all.length)
    // Every request carried the same webhook-id and verified.
    const ids = new Set(target.requests.map((request) => request.headers['webhook-id']))
    expect(ids.size).toBe(1)
    for (const request of target.requests) verifyRequest(endpoint.secret, request)
    const healed = await store.db
      .selectFrom('webhook_endpoints')
      .select('failing_since')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow()
    expect(healed.failing_since).toBeNull()
  })

  it('a closed connection is a failure with its reason, and retried', async () => {
    const target = await receiver()
    target.answer({ close: true })
    const { endpoint } = await setUp(target.url)
    const { recorded } = await attempts(endpoint.id, 2)
    expect(recorded[0]).toMatchObject({
      succeeded: false,
      response_status: null,
      error: 'the connection was closed before an answer',
    })
  })

  it('a redirect is a failure naming where it pointed, and is never followed', async () => {
    const elsewhere = await receiver()
    const target = await receiver()
    target.answer({ status: 302, location: elsewhere.url })
    const { endpoint } = await setUp(target.url)
    const { recorded } = await attempts(endpoint.id, 2)
    expect(recorded[0]).toMatchObject({ succeeded: false, response_status: 302 })
    expect(recorded[0]!.error).toContain(`redirect to ${elsewhere.url}`)
    expect(elsewhere.requests).toHaveLength(0)
  })

  it('nothing listening: connection refused, retried', async () => {
    const gone = await receiver()
    const url = gone.url
    await gone.close()
    const { endpoint } = await setUp(url)
    const { recorded } = await attempts(endpoint.id, 2)
    expect(recorded[0]).toMatchObject({ succeeded: false, response_status: null, error: 'connection refused' })
  })

  it('a receiver that takes 30 s fails the attempt at the timeout and holds no other delivery up', async () => {
    const slow = await receiver()
    slow.answer({ hold: true })
    const fast = await receiver()
    const slowSide = await setUp(slow.url)
    await eventually(() => slow.requests[0])
    // While the slow receiver holds its request, another organization's event is delivered.
    const fastSide = await setUp(fast.url)
    await eventually(async () => (await deliveriesOf(fastSide.endpoint.id))[0]?.status === 'succeeded')
    expect(fast.requests).toHaveLength(1)
    expect(slow.requests).toHaveLength(1)
    const { recorded } = await attempts(slowSide.endpoint.id, 1)
    expect(recorded[0]).toMatchObject({
      succeeded: false,
      error: `no complete answer within ${TEST_ATTEMPT_TIMEOUT_MS / 1000} s`,
    })
    slow.release()
  })

  it('a host name that never resolves fails the attempt at the timeout, with its reason, and holds no other delivery up', async () => {
    const fast = await receiver()
    // Were the name resolved, it would reach the fast receiver: no request may arrive from it.
    const hanging = await setUp(`http://never.${HANGING_DOMAIN}:${new URL(fast.url).port}/hook`)
    const fastSide = await setUp(fast.url)
    await eventually(async () => (await deliveriesOf(fastSide.endpoint.id))[0]?.status === 'succeeded')
    const { recorded } = await attempts(hanging.endpoint.id, 1)
    expect(recorded[0]).toMatchObject({
      attempt: 1,
      succeeded: false,
      response_status: null,
      error: `the host name did not resolve within ${TEST_ATTEMPT_TIMEOUT_MS / 1000} s`,
    })
    // Ended at the timeout, well inside the job's lease: no other worker was handed the attempt.
    expect(recorded[0]!.duration_ms).toBeGreaterThanOrEqual(TEST_ATTEMPT_TIMEOUT_MS - 50)
    expect(recorded[0]!.duration_ms).toBeLessThan(TEST_ATTEMPT_TIMEOUT_MS + 1000)
    expect(fast.requests).toHaveLength(1)
  })

  it('an attempt in flight when its delivery is sent again is recorded, and so is the one sent again', async () => {
    const target = await receiver()
    let first = true
    target.answer(() => {
      if (!first) return { status: 204 }
      first = false
      return { hold: true }
    })
    const { endpoint } = await setUp(target.url)
    await eventually(() => target.requests[0])
    const [delivery] = await deliveriesOf(endpoint.id)
    // Sent again while the first attempt waits for its answer: the first attempt's job is stale now.
    expect(await resendDelivery(store.db, undefined, endpoint.id, delivery!.id)).toBeDefined()
    await eventually(() => target.requests[1])
    target.release()
    const { recorded } = await attempts(endpoint.id, 2)
    expect(recorded.map((attempt) => attempt.attempt)).toEqual([1, 2])
    // The one sent again answered 204 at once; the held one, released, 204 as well (or it timed out).
    expect(recorded.filter((attempt) => attempt.succeeded).length).toBeGreaterThanOrEqual(1)
    const done = await eventually(async () => {
      const [row] = await deliveriesOf(endpoint.id)
      return row?.status === 'succeeded' && row
    })
    expect(done.attempts).toBe(2)
    expect(target.requests).toHaveLength(2)
  })

  it('an endpoint failing for 3 days is disabled with a reason, and its deliveries stop', async () => {
    const target = await receiver()
    target.answer({ status: 503 })
    const { org, endpoint } = await setUp(target.url)
    await attempts(endpoint.id, 1)
    // Its failing spell began three days and a minute ago (the schedule's unit is 1 ms here, so
    // "3 days" is 259 s; the table says 3 days of real time, which is longer still).
    await sql`UPDATE webhook_endpoints SET failing_since = now() - interval '3 days 1 minute' WHERE id = ${endpoint.id}`.execute(
      store.db,
    )
    const disabled = await eventually(async () => {
      const row = await store.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow()
      return !row.enabled && row
    }, 30_000)
    expect(disabled.disabled_reason).toMatch(
      /^Disabled at .*: every attempt since .* failed \(more than 3 days\); the last one: answered 503\. Fix the receiver/,
    )
    // Events while it is disabled make no deliveries (below): the reason points to the change feed for them.
    expect(disabled.disabled_reason).toContain('read them from the change feed (GET /api/v1/events, events:read)')
    const [delivery] = await deliveriesOf(endpoint.id)
    expect(delivery).toMatchObject({ status: 'failed', job_id: null })
    expect(delivery!.last_error).toContain('the endpoint is now disabled')
    // A new event makes no delivery for it.
    const before = target.requests.length
    await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'After Family' } })
    await webhooks.dispatchNow()
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1)
    expect(target.requests).toHaveLength(before)
  })
})
