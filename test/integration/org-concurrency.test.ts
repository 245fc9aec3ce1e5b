// Each organization is guaranteed `perOrg` units of requests in progress and may borrow up to twice
// that while no other organization waits (plugins/org-concurrency.ts). One organization's units are
// held by requests really in progress (creates whose bodies are held back, test/helpers/held-request.ts);
// then another organization is served at once, the holding organization's excess waits in its own
// queue or is refused 429 concurrency_limited, freed units go first to an organization within its
// share, an expensive search weighs more than a list, and units come back when responses finish,
// fail or their clients go away.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import type { RequestLimits } from '../../src/app.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { holdCreate, type HeldRequest } from '../helpers/held-request.ts'
import { BORROW_FACTOR, type OrgConcurrencyOptions } from '../../src/http/plugins/org-concurrency.ts'

const LIST = '/api/v1/relationships'

/** One sample of the app's /metrics (these series have at most a `reason` label). */
async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text()
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `))
  if (line === undefined) throw new Error(`${series} is not in /metrics`)
  return Number(line.slice(series.length + 1))
}

/** Waits until the app reports `value` for `series` (requests reach the hook a little after their head is read). */
async function reaches(url: string, series: string, value: number): Promise<void> {
  await vi.waitFor(async () => expect(await metric(url, series)).toBe(value), { timeout: 10_000, interval: 20 })
}

/** A request's promise and whether it has settled yet. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  )
  return { promise, settled: () => settled }
}

describe.each(storeKinds())('per-organization concurrency on %s', (kind) => {
  let store: TestStore
  let flooding: { orgId: string; key: string }
  let quiet: { orgId: string; key: string }

  beforeAll(async () => {
    store = await openTestStore(kind)
    flooding = await createOrgWithKey(store.db)
    quiet = await createOrgWithKey(store.db)
  })
  afterAll(async () => {
    await store?.drop()
  })

  // Every request held back in a test, so that a failing test still lets the app close.
  const heldRequests: HeldRequest[] = []

  async function hold(api: TestApp, name: string): Promise<HeldRequest> {
    const held = await holdCreate(api.url, flooding.key, name)
    held.response.catch(() => {
      // Awaited by the test, or aborted after it: the abort's rejection must not go unhandled.
    })
    heldRequests.push(held)
    return held
  }

  async function holdSlots(api: TestApp, count: number): Promise<HeldRequest[]> {
    const held: HeldRequest[] = []
    for (let i = 0; i < count; i++) held.push(await hold(api, 'The Held Family'))
    await reaches(api.url, 'org_concurrency_in_progress', count)
    return held
  }

  async function withApp(
    orgConcurrency: OrgConcurrencyOptions,
    run: (api: TestApp) => Promise<void>,
    limits?: RequestLimits,
  ): Promise<void> {
    const api = await startApp(store, { orgConcurrency, ...(limits ? { limits } : {}) })
    try {
      await run(api)
    } finally {
      for (const held of heldRequests.splice(0)) held.abort()
      await api.close()
    }
  }

  it('while one organization holds all it may borrow, another is served at once; the excess waits, then is refused past the queue', async () => {
    await withApp({ perOrg: 2, queueLength: 1, waitMs: 60_000 }, async (api) => {
      // Alone, an organization borrows up to twice its share: four requests of a share of two run.
      const held = await holdSlots(api, 4)

      const waiting = watch(call(`${api.url}${LIST}`, flooding.key))
      await reaches(api.url, 'org_concurrency_waiting', 1)

      // The other organization does not queue behind the first one's requests.
      expect((await call(`${api.url}${LIST}`, quiet.key)).status).toBe(200)
      expect(waiting.settled()).toBe(false)

      // The queue holds one: the next request of the same organization is refused at once.
      const refused = await call(`${api.url}${LIST}`, flooding.key)
      expect(refused.status).toBe(429)
      expect(refused.body.code).toBe('concurrency_limited')
      expect(typeof refused.body.error).toBe('string')
      expect(typeof refused.body.requestId).toBe('string')
      expect(new Date(String(refused.body.resetAt)).toISOString()).toBe(refused.body.resetAt)
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(await metric(api.url, 'org_concurrency_refusals_total{reason="queue_full"}')).toBe(1)

      // Never the other organization's, and public routes are not limited at all.
      expect((await call(`${api.url}${LIST}`, quiet.key)).status).toBe(200)
      const document = await fetch(`${api.url}/api/v1/openapi.json`)
      await document.arrayBuffer() // read whole, or the open response holds the app's close
      expect(document.status).toBe(200)

      // A unit that frees goes to the waiting request (nobody else waits: it may borrow again).
      held[0]?.finish()
      expect((await held[0]?.response)?.status).toBe(201)
      expect((await waiting.promise).status).toBe(200)
      for (const request of held.slice(1)) request.finish()
      expect(
        (await Promise.all(held.slice(1).map((request) => request.response))).map((response) => response.status),
      ).toEqual([201, 201, 201])
      await reaches(api.url, 'org_concurrency_in_progress', 0)
      await reaches(api.url, 'org_concurrency_waiting', 0)
    })
  })

  it("requests waiting in one organization's queue do not fill the instance's limit: another organization is not answered 503", async () => {
    // Six requests at once per process; the flooding organization runs two and queues four.
    await withApp(
      { perOrg: 1, queueLength: 10, waitMs: 60_000 },
      async (api) => {
        const held = await holdSlots(api, 2)
        const queued = Array.from({ length: 4 }, () => watch(call(`${api.url}${LIST}`, flooding.key)))
        await reaches(api.url, 'org_concurrency_waiting', 4)
        const other = await call(`${api.url}${LIST}`, quiet.key)
        expect(other.status, JSON.stringify(other.body)).toBe(200)
        for (const request of held) request.finish()
        expect(
          (await Promise.all(queued.map((request) => request.promise))).map((response) => response.status),
        ).toEqual([200, 200, 200, 200])
      },
      { requestTimeoutSeconds: 30, maxConcurrentRequests: 6 },
    )
  })

  it('a request refused for concurrency is given its rate-limit charge back', async () => {
    await withApp({ perOrg: 1, queueLength: 0, waitMs: 60_000 }, async (api) => {
      const held = await holdSlots(api, 2)
      const refusals = [await call(`${api.url}${LIST}`, flooding.key), await call(`${api.url}${LIST}`, flooding.key)]
      expect(refusals.map((response) => response.body.code)).toEqual(['concurrency_limited', 'concurrency_limited'])
      // Each refusal gave back its unit: the key's remaining budget did not move between them.
      const remaining = refusals.map(
        (response) => /"default";r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1],
      )
      expect(remaining[0]).toBeDefined()
      expect(remaining[1]).toBe(remaining[0])
      for (const request of held) request.finish()
    })
  })

  it('a request that waits longer than the queue timeout is refused', async () => {
    await withApp({ perOrg: 1, queueLength: 5, waitMs: 100 }, async (api) => {
      const held = await holdSlots(api, 2)
      const refused = await call(`${api.url}${LIST}`, flooding.key)
      expect(refused.status).toBe(429)
      expect(refused.body.code).toBe('concurrency_limited')
      expect(await metric(api.url, 'org_concurrency_refusals_total{reason="wait_timeout"}')).toBe(1)
      expect(await metric(api.url, 'org_concurrency_waiting')).toBe(0)
      for (const request of held) request.finish()
      expect((await Promise.all(held.map((request) => request.response))).map((response) => response.status)).toEqual([
        201, 201,
      ])
    })
  })

  it('freed units go first to an organization within its share, before a borrower', async () => {
    // Share 2, capacity 4. The flooding organization borrows (3 running); the quiet one runs its share (2).
    await withApp({ perOrg: 2, queueLength: 10, waitMs: 60_000 }, async (api) => {
      const flood = await holdSlots(api, 3)
      const quietHeld = [
        await holdCreate(api.url, quiet.key, 'Quiet One'),
        await holdCreate(api.url, quiet.key, 'Quiet Two'),
      ]
      for (const request of quietHeld)
        request.response.catch(() => {
          // Awaited below, or aborted after the test: the abort's rejection must not go unhandled.
        })
      heldRequests.push(...quietHeld)
      await reaches(api.url, 'org_concurrency_in_progress', 5)

      // Both are past their share and the process past its capacity: both wait.
      const floodNext = watch(call(`${api.url}${LIST}`, flooding.key))
      await reaches(api.url, 'org_concurrency_waiting', 1)
      const quietNext = watch(call(`${api.url}${LIST}`, quiet.key))
      await reaches(api.url, 'org_concurrency_waiting', 2)

      // One of the quiet organization's requests ends: the unit goes back to it, not to the borrower.
      quietHeld[0]?.finish()
      expect((await quietHeld[0]?.response)?.status).toBe(201)
      expect((await quietNext.promise).status).toBe(200)
      expect(floodNext.settled()).toBe(false)

      // Once the borrower is back within what it may hold, its request starts too.
      for (const request of [...flood, ...quietHeld.slice(1)]) request.finish()
      expect((await floodNext.promise).status).toBe(200)
    })
  })

  it('an expensive search weighs more than a list: at the edge of what may run, the list starts and the search waits', async () => {
    await withApp({ perOrg: 2, queueLength: 10, waitMs: 60_000 }, async (api) => {
      const held = await holdSlots(api, 3)
      // 3 of 4 units in progress: a list (1 unit) fits, a search (5, weighed as the whole share, 2) does not.
      expect((await call(`${api.url}${LIST}`, flooding.key)).status).toBe(200)
      const search = watch(call(`${api.url}${LIST}?search=held`, flooding.key))
      await reaches(api.url, 'org_concurrency_waiting', 1)
      held[0]?.finish()
      expect((await held[0]?.response)?.status).toBe(201)
      expect((await search.promise).status).toBe(200)
      for (const request of held.slice(1)) request.finish()
    })
  })

  it('units come back when clients go away and when requests fail: afterwards the organization again runs exactly what it may borrow', async () => {
    const perOrg = 2
    const capacity = perOrg * BORROW_FACTOR
    await withApp({ perOrg, queueLength: 10, waitMs: 60_000 }, async (api) => {
      const held = await holdSlots(api, capacity)
      const queued = await hold(api, 'The Queued Family')
      await reaches(api.url, 'org_concurrency_waiting', 1)

      // Clients that go away: while waiting, then while holding a slot.
      for (const request of [queued, ...held]) request.abort()
      await reaches(api.url, 'org_concurrency_waiting', 0)
      await reaches(api.url, 'org_concurrency_in_progress', 0)

      // Requests that fail after taking a slot (validation, not found), more at once than the share.
      const failures = await Promise.all([
        ...Array.from({ length: 4 }, () => call(`${api.url}${LIST}`, flooding.key, { body: { name: '' } })),
        ...Array.from({ length: 4 }, () =>
          call(`${api.url}${LIST}/00000000-0000-4000-8000-000000000000`, flooding.key),
        ),
      ])
      expect(failures.map((response) => response.status).sort()).toEqual([400, 400, 400, 400, 404, 404, 404, 404])
      await reaches(api.url, 'org_concurrency_in_progress', 0)

      // Nothing leaked: the organization holds all it may borrow again, and the next one waits.
      const again = await holdSlots(api, capacity)
      const next = watch(call(`${api.url}${LIST}`, flooding.key))
      await reaches(api.url, 'org_concurrency_waiting', 1)
      for (const request of again) request.finish()
      expect((await Promise.all(again.map((request) => request.response))).map((response) => response.status)).toEqual([
        201, 201, 201, 201,
      ])
      expect((await next.promise).status).toBe(200)
    })
  })
})
