// Operations endpoints on every store: /healthz (alive), /readyz (store reachable, migrations
// applied, extra checks such as Redis), /metrics (Prometheus). They need no credentials, are never
// rate-limited, and the metrics carry route patterns and counts — never ids, keys or origins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rmSync } from 'node:fs'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/db.ts'
import { readMigrations } from '../../src/store/migrate.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { generateApiKey } from '../../src/auth/api-keys.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { freshPgliteDir, freshPostgresDatabase, openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { seedHouseholds } from '../helpers/seed.ts'

const PARTNER = 'https://partner.health.example.com'
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The samples of a Prometheus text exposition (no timestamps, no exemplars: prom-client's defaults). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not an exposition line: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!
    samples.push({ name: match[1]!, labels, value: Number(match[3]) })
  }
  return samples
}

/** The sum of the samples named `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0)
}

async function scrape(
  url: string,
): Promise<{ status: number; contentType: string | null; text: string; samples: Sample[] }> {
  const response = await fetch(`${url}/metrics`)
  const text = await response.text()
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    samples: parseMetrics(text),
  }
}

describe.each(storeKinds())('health and metrics on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgId: string
  let key: string
  let keyId: string
  let householdId: string
  const secrets: string[] = []

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store, {
      rateLimitMax: 3,
      rateLimitWindowSeconds: 3600,
      poolStats: () => store.poolStats(),
    })
    ;({ orgId, key, keyId } = await createOrgWithKey(store.db))
    await addFrameOrigin(store.db, orgId, PARTNER)
    const ids = await seedHouseholds(store.db, orgId, [{ name: 'Metrics Family', members: ['Ada Metrics'] }])
    householdId = ids.get('Metrics Family')!
    secrets.push(orgId, keyId, householdId, key, key.slice(0, 12), PARTNER, 'Metrics Family', 'Ada Metrics')
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('says it is alive and ready, without credentials and never cached', async () => {
    const alive = await fetch(`${api.url}/healthz`)
    expect(alive.status).toBe(200)
    expect(await alive.json()).toEqual({ status: 'ok' })
    expect(alive.headers.get('cache-control')).toBe('no-store')

    const ready = await fetch(`${api.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', redis: 'not configured' },
    })
    expect(ready.headers.get('cache-control')).toBe('no-store')
    // Limited per client address, in a budget of this instance's own (a probe a second is far inside it).
    expect(ready.headers.get('ratelimit')).toMatch(/^"health";r=\d+;t=\d+$/)
  })

  it('is not ready while a migration this code needs is not applied, and ready again once it is', async () => {
    const last = readMigrations().at(-1)
    if (!last) throw new Error('no migrations')
    const label = `${String(last.version).padStart(4, '0')}_${last.name}`
    const saved = await sql<{ version: number; name: string; checksum: string; applied_at: Date }>`
      SELECT version, name, checksum, applied_at FROM schema_migrations WHERE version = ${last.version}`.execute(
      store.db,
    )
    const row = saved.rows[0]
    if (!row) throw new Error('the last migration is not recorded')
    await sql`DELETE FROM schema_migrations WHERE version = ${last.version}`.execute(store.db)
    try {
      const response = await call(`${api.url}/readyz`, undefined)
      expect(response.status).toBe(503)
      expect(response.body).toEqual({
        status: 'not ready',
        checks: { database: 'ok', migrations: `pending: ${label}`, redis: 'not configured' },
      })
    } finally {
      await sql`INSERT INTO schema_migrations (version, name, checksum, applied_at)
        VALUES (${row.version}, ${row.name}, ${row.checksum}, ${row.applied_at})`.execute(store.db)
    }
    expect((await call(`${api.url}/readyz`, undefined)).status).toBe(200)
  })

  it('reports extra readiness checks (Redis) by name, and 503 when one fails or does not answer', async () => {
    let redisUp = true
    const checked = await startApp(store, {
      readinessChecks: [
        {
          name: 'redis',
          check: async () =>
            redisUp ? { ok: true, detail: 'ok' } : { ok: false, detail: 'unreachable: connection refused' },
        },
      ],
    })
    try {
      expect(await call(`${checked.url}/readyz`, undefined)).toMatchObject({
        status: 200,
        body: { checks: { redis: 'ok' } },
      })
      redisUp = false
      const down = await call(`${checked.url}/readyz`, undefined)
      expect(down.status).toBe(503)
      expect(down.body).toEqual({
        status: 'not ready',
        checks: { database: 'ok', migrations: 'ok', redis: 'unreachable: connection refused' },
      })
    } finally {
      await checked.close()
    }
    // A check that never answers: /readyz answers 503 after its timeout instead of hanging.
    const hung = await startApp(store, {
      readinessChecks: [
        {
          name: 'redis',
          check: () =>
            new Promise(() => {
              // Never settles.
            }),
        },
      ],
    })
    try {
      const response = await call(`${hung.url}/readyz`, undefined)
      expect(response.status).toBe(503)
      expect(response.body.checks).toMatchObject({
        database: 'ok',
        redis: expect.stringMatching(/^failing: no answer within \d+ ms$/),
      })
    } finally {
      await hung.close()
    }
  })

  it('counts requests by route pattern and status, with latency histograms, in Prometheus format', async () => {
    const before = (await scrape(api.url)).samples
    const { key: reader } = await createKey(store.db, orgId)
    expect((await call(`${api.url}/api/v1/relationships/${householdId}`, reader)).status).toBe(200)
    expect((await call(`${api.url}/api/v1/relationships/${householdId}`, reader)).status).toBe(200)
    expect((await call(`${api.url}/no/such/path/${householdId}`, undefined)).status).toBe(404)

    const after = await scrape(api.url)
    expect(after.status).toBe(200)
    expect(after.contentType).toBe('text/plain; version=0.0.4; charset=utf-8')
    const record = { method: 'GET', route: '/api/v1/relationships/:id', status: '200' }
    const delta = (name: string, labels: Record<string, string>) =>
      total(after.samples, name, labels) - total(before, name, labels)
    expect(delta('http_requests_total', record)).toBe(2)
    expect(delta('http_request_duration_seconds_count', record)).toBe(2)
    expect(delta('http_request_duration_seconds_bucket', { ...record, le: '+Inf' })).toBe(2)
    expect(delta('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1)
    // The scrapes themselves are counted under their own pattern.
    expect(total(after.samples, 'http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1)
    // Every route label is a pattern: no ids, no query strings.
    const routes = new Set(after.samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route))
    for (const route of routes) {
      expect(route === 'unmatched' || route?.startsWith('/')).toBe(true)
      expect(route).not.toMatch(UUID)
      expect(route).not.toContain('?')
    }
    expect(after.text).toContain('# TYPE http_request_duration_seconds histogram')
    // The store's connection use and the process metrics are there too.
    expect(total(after.samples, 'db_pool_total')).toBeGreaterThanOrEqual(1)
    expect(after.samples.some((s) => s.name === 'db_pool_idle')).toBe(true)
    expect(total(after.samples, 'db_pool_waiting')).toBeGreaterThanOrEqual(0)
    expect(after.samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true)
    expect(after.samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true)
  })

  it('counts legacy-path use and chart mints', async () => {
    const before = (await scrape(api.url)).samples
    const { key: caller } = await createKey(store.db, orgId)
    expect((await call(`${api.url}/api/v1/households/${householdId}`, caller)).status).toBe(200)
    expect(
      (await call(`${api.url}/api/v1/embed/chart-sessions`, caller, { method: 'POST', body: { frameOrigin: PARTNER } }))
        .status,
    ).toBe(201)
    const after = (await scrape(api.url)).samples
    expect(total(after, 'legacy_path_requests_total') - total(before, 'legacy_path_requests_total')).toBe(1)
    expect(total(after, 'chart_mints_total') - total(before, 'chart_mints_total')).toBe(1)
    expect(
      total(after, 'http_requests_total', { route: '/api/v1/households/:id', status: '200' }),
    ).toBeGreaterThanOrEqual(1)
    expect(
      total(after, 'http_requests_total', { route: '/api/v1/embed/chart-sessions', method: 'POST', status: '201' }),
    ).toBeGreaterThanOrEqual(1)
  })

  it('counts 429s by scope, and never limits /healthz, /readyz or /metrics once the budgets are spent', async () => {
    const before = (await scrape(api.url)).samples
    // A key's own budget (3 per window here).
    const { key: spender } = await createKey(store.db, orgId)
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await call(`${api.url}/api/v1/relationships`, spender)).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    // Failed authentications from this address (3 per window here).
    const failures = []
    for (let i = 0; i < 4; i++)
      failures.push((await call(`${api.url}/api/v1/relationships`, generateApiKey().key)).status)
    expect(failures).toEqual([401, 401, 401, 429])

    const after = (await scrape(api.url)).samples
    const refusals = (scope: string) =>
      total(after, 'rate_limit_refusals_total', { scope }) - total(before, 'rate_limit_refusals_total', { scope })
    expect(refusals('credential')).toBe(1)
    expect(refusals('auth_failure')).toBe(1)
    expect(refusals('user')).toBe(0)
    expect(
      total(after, 'http_requests_total', { route: '/api/v1/relationships', status: '429' }),
    ).toBeGreaterThanOrEqual(2)

    // The same address, credential budgets spent: the operations endpoints answer every time, with
    // or without a (spent, or bad) credential, which they ignore: they count against the address's
    // health budget, which this instance keeps in memory.
    for (let i = 0; i < 5; i++) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        for (const credential of [undefined, spender, generateApiKey().key]) {
          const response = await fetch(`${api.url}${path}`, {
            headers: credential ? { authorization: `Bearer ${credential}` } : {},
          })
          await response.arrayBuffer()
          expect(response.status, `${path} with ${credential ? 'a credential' : 'none'}`).toBe(200)
          expect(response.headers.get('ratelimit')).toMatch(/^"health";r=\d+;t=\d+$/)
        }
      }
    }
    // …and the limits still hold for the API.
    expect((await call(`${api.url}/api/v1/relationships`, spender)).status).toBe(429)
  })

  it('reveals no tenant data: no org, key or household ids, no key or its prefix, no origin, no names', async () => {
    const { text } = await scrape(api.url)
    for (const secret of secrets) expect(text.includes(secret), `the metrics contain ${secret}`).toBe(false)
    expect(text).not.toMatch(UUID)
    expect(text).not.toContain('idx_')
  })
})

describe.each(storeKinds())('readiness when the database is gone, on %s', (kind) => {
  let store: Store
  let api: TestApp
  let cleanup: () => Promise<void>
  let killDatabase: () => Promise<void>

  beforeAll(async () => {
    if (kind === 'pglite') {
      const dataDir = freshPgliteDir()
      store = await openStore({ dataDir })
      killDatabase = () => store.close()
      cleanup = async () => {
        await store.close()
        rmSync(dataDir, { recursive: true, force: true })
      }
    } else {
      const database = await freshPostgresDatabase()
      store = await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 4 })
      // DROP DATABASE … WITH (FORCE) ends this pool's connections: every later one is refused.
      killDatabase = () => database.drop()
      cleanup = async () => {
        await store.close()
        await database.drop()
      }
    }
    api = await startApp(store, { poolStats: () => store.poolStats() })
  })
  afterAll(async () => {
    await api?.close()
    await cleanup?.()
  })

  it('answers 503 naming the database, while /healthz and /metrics still answer', async () => {
    expect((await call(`${api.url}/readyz`, undefined)).status).toBe(200)
    await killDatabase()

    const response = await call(`${api.url}/readyz`, undefined)
    expect(response.status).toBe(503)
    const checks = response.body.checks as Record<string, string>
    expect(response.body.status).toBe('not ready')
    expect(checks.database).toMatch(/^unreachable: \S/)
    expect(checks.database?.length).toBeLessThan(140)
    expect(checks.migrations).toBe('unknown: the database is unreachable')
    expect(checks.redis).toBe('not configured')

    expect((await call(`${api.url}/healthz`, undefined)).body).toEqual({ status: 'ok' })
    const metrics = await scrape(api.url)
    expect(metrics.status).toBe(200)
    expect(total(metrics.samples, 'http_requests_total', { route: '/readyz', status: '503' })).toBe(1)
    if (kind === 'pglite') expect(total(metrics.samples, 'db_pool_total')).toBe(0)
  })
})
