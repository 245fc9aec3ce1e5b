// Fuzzes every admin operation (the OpenAPI document's 'admin' tag) over real HTTP on a real
// store: random ids and origins in the path (the fuzzing org's, another org's, unknown, junk),
// bodies, content types, queries and credentials. Every answer is a status the document lists for
// that operation, errors are {error, code} with the code's own status, never a 5xx or a hang;
// only a same-origin admin gets past authorization; and the other organization is exactly as it was.
import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { createEndpoint, sendTestMessage } from '../../src/webhooks/endpoint-operations.ts'
import { createSession } from '../../src/auth/sessions.ts'
import { PERMISSIONS } from '../../src/domain/permissions.ts'
import { ERRORS } from '../../src/http/errors.ts'
import { ALL_PERMISSIONS, createKey, startApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/app.ts'
import { fetchOutcome, type Outcome } from '../helpers/fuzz-http.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'

const PROPERTY_TEST_TIMEOUT_MS = 180_000
const RUNS = 300

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'
interface Operation {
  method: Method
  /** Templated, e.g. /api/v1/users/{userId}. */
  path: string
  statuses: Set<number>
}

type CredentialKind = 'admin' | 'crossSiteAdmin' | 'advisor' | 'apiKey' | 'none'
type BodySpec = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; text: string }

interface RequestSpec {
  operation: Operation
  /** The path parameter, if the operation has one, before percent-encoding. */
  param: string
  since: string | undefined
  credential: CredentialKind
  contentType: string
  body: BodySpec
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

describe.each(storeKinds())('fuzzing the admin API on %s', (kind) => {
  let store: TestStore
  let app: TestApp
  let operations: Operation[]
  let fuzzOrg: string
  let otherOrg: string
  let admin: { id: string; orgId: string }
  const cookies: Partial<Record<'admin' | 'advisor', string>> = {}
  let apiKey: string
  /** Ids and origins of both organizations, for the path. */
  const known: string[] = []
  let otherBefore: unknown

  async function addUser(orgId: string, role: UserRole) {
    const user = await createUser(store.db, {
      orgId,
      email: `${role}-${randomBytes(4).toString('hex')}@example.test`,
      name: role,
      role,
    })
    if (!user) throw new Error('user not created')
    return { id: user.id, orgId }
  }

  /** The other organization as stored: its users, keys and origins. */
  async function otherState(): Promise<unknown> {
    return {
      users: await store.db.selectFrom('users').selectAll().where('org_id', '=', otherOrg).orderBy('id').execute(),
      keys: await store.db.selectFrom('api_keys').selectAll().where('org_id', '=', otherOrg).orderBy('id').execute(),
      origins: await store.db
        .selectFrom('frame_origins')
        .selectAll()
        .where('org_id', '=', otherOrg)
        .orderBy('origin')
        .execute(),
      webhookEndpoints: await store.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('org_id', '=', otherOrg)
        .orderBy('id')
        .execute(),
      webhookDeliveries: await store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('org_id', '=', otherOrg)
        .orderBy('id')
        .execute(),
    }
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    app = await startApp(store)
    fuzzOrg = (await createOrg(store.db, 'Fuzzed admin')).id
    otherOrg = (await createOrg(store.db, 'Bystander')).id
    admin = await addUser(fuzzOrg, 'admin')
    cookies.admin = (await createSession(store.db, admin)).value
    cookies.advisor = (await createSession(store.db, await addUser(fuzzOrg, 'advisor'))).value
    apiKey = (await createKey(store.db, fuzzOrg, ALL_PERMISSIONS)).key
    for (const orgId of [fuzzOrg, otherOrg]) {
      for (const role of ['admin', 'advisor', 'viewer'] as const) known.push((await addUser(orgId, role)).id)
      known.push((await createKey(store.db, orgId)).id)
      const origin = `https://${orgId.slice(0, 8)}.example`
      await addFrameOrigin(store.db, orgId, origin)
      known.push(origin)
      const { endpoint } = await createEndpoint(store.db, orgId, { url: 'https://hooks.example/in' }, false)
      known.push(endpoint.id)
      known.push((await sendTestMessage(store.db, orgId, endpoint.id))?.id ?? '')
    }
    otherBefore = await otherState()

    const doc = (await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>
    }
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.tags?.includes('admin'))
        .map(([method, op]) => ({
          method: method.toUpperCase() as Method,
          path,
          statuses: new Set(Object.keys(op.responses).map(Number)),
        })),
    )
    expect(operations.length).toBe(23)
  })

  afterAll(async () => {
    await app?.close()
    await store?.drop()
  })

  const text = fc.string({ unit: 'grapheme', maxLength: 40 })
  const day = fc
    .date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10))
  const nearlyValid = fc.record(
    {
      name: fc.oneof(text, fc.constant('Fuzzed'), fc.integer()),
      permissions: fc.oneof(
        fc.array(fc.oneof(fc.constantFrom(...PERMISSIONS, 'org:admin'), text), { maxLength: 6 }),
        text,
      ),
      expiresInDays: fc.oneof(fc.integer({ min: -10, max: 4000 }), fc.double(), text),
      email: fc.oneof(fc.emailAddress(), text),
      role: fc.oneof(fc.constantFrom('admin', 'advisor', 'viewer'), text),
      origin: fc.oneof(
        fc.webUrl(),
        fc.constantFrom(...['https://fuzz.example', 'http://localhost:3000', 'https://fuzz.example/']),
        text,
      ),
      orgId: fc.uuid(),
      // The webhook endpoints' fields.
      url: fc.oneof(fc.webUrl(), fc.constantFrom('https://hooks.example/a', 'http://localhost:4000/h'), text),
      eventTypes: fc.oneof(
        fc.array(fc.constantFrom('household.created', 'member.updated', 'nonsense'), { maxLength: 3 }),
        fc.constant(null),
        text,
      ),
      description: fc.oneof(text, fc.integer()),
      enabled: fc.oneof(fc.boolean(), text),
      overlapSeconds: fc.oneof(fc.integer({ min: -5, max: 700_000 }), fc.double(), text),
      // PATCH /api/v1/limits: lowerings that stay well above what the run spends (a tiny organization
      // budget would answer every later request 429), nulls, out of range, and junk.
      requests: fc.oneof(
        fc.integer({ min: 5000, max: 2_000_000 }),
        fc.constant(null),
        fc.integer({ min: -2, max: 0 }),
        fc.double(),
        text,
      ),
      keyRequests: fc.oneof(
        fc.integer({ min: 5000, max: 200_000 }),
        fc.constant(null),
        fc.integer({ min: -2, max: 0 }),
        text,
      ),
    },
    { requiredKeys: [] },
  )

  function specArb(): fc.Arbitrary<RequestSpec> {
    return fc.record({
      operation: fc.constantFrom(...operations),
      param: fc.oneof(
        fc.constantFrom(...known),
        fc.uuid(),
        // Not '.' or '..': URLs resolve them (even as %2E), so the request would go to another path.
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((p) => p !== '.' && p !== '..'),
        fc.webUrl(),
      ),
      since: fc.option(fc.oneof(day, text), { nil: undefined }),
      credential: fc.constantFrom<CredentialKind>(
        'admin',
        'admin',
        'admin',
        'crossSiteAdmin',
        'advisor',
        'apiKey',
        'none',
      ),
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/merge-patch+json',
        'text/plain',
        'application/json; charset=latin1',
      ),
      body: fc.oneof(
        fc.constant<BodySpec>({ kind: 'none' }),
        nearlyValid.map<BodySpec>((value) => ({ kind: 'json', value })),
        fc.jsonValue().map<BodySpec>((value) => ({ kind: 'json', value })),
        text.map<BodySpec>((t) => ({ kind: 'text', text: t })),
      ),
    })
  }

  function urlOf(spec: RequestSpec): string {
    const path = spec.operation.path.replace(/\{[^}]+\}/, encodeURIComponent(spec.param))
    return spec.since === undefined ? path : `${path}?since=${encodeURIComponent(spec.since)}`
  }

  async function send(spec: RequestSpec): Promise<Outcome> {
    const headers: Record<string, string> = {}
    if (spec.credential === 'apiKey') headers.authorization = `Bearer ${apiKey}`
    if (spec.credential === 'admin' || spec.credential === 'crossSiteAdmin')
      headers.cookie = `idp-session=${cookies.admin ?? ''}`
    if (spec.credential === 'advisor') headers.cookie = `idp-session=${cookies.advisor ?? ''}`
    headers.origin = spec.credential === 'crossSiteAdmin' ? 'https://evil.example' : TEST_PUBLIC_URL
    const hasBody = spec.operation.method !== 'GET' && spec.body.kind !== 'none'
    if (hasBody) headers['content-type'] = spec.contentType
    const body = !hasBody
      ? undefined
      : spec.body.kind === 'json'
        ? JSON.stringify(spec.body.value)
        : spec.body.kind === 'text'
          ? spec.body.text
          : undefined
    return fetchOutcome(
      `${app.url}${urlOf(spec)}`,
      { method: spec.operation.method, headers, body },
      () => `${spec.operation.method} ${urlOf(spec)} as ${spec.credential} with ${body ?? 'no body'}`,
    )
  }

  function check(spec: RequestSpec, outcome: Outcome): void {
    const context = `\n  ${spec.operation.method} ${urlOf(spec)} as ${spec.credential}, ${JSON.stringify(spec.body).slice(0, 300)}\nanswered ${outcome.status}: ${outcome.text.slice(0, 300)}`
    expect(outcome.status, `a 5xx${context}`).toBeLessThan(500)
    expect(spec.operation.statuses.has(outcome.status), `undocumented status${context}`).toBe(true)
    const expected: Partial<Record<CredentialKind, number>> = { none: 401, advisor: 403, apiKey: 403 }
    if (spec.operation.method !== 'GET') expected.crossSiteAdmin = 403
    const refused = expected[spec.credential]
    if (refused !== undefined) expect(outcome.status, `not refused${context}`).toBe(refused)
    if (outcome.status === 204) {
      expect(outcome.text, `a body with 204${context}`).toBe('')
      return
    }
    expect(isRecord(outcome.json), `not a JSON object${context}`).toBe(true)
    const body = isRecord(outcome.json) ? outcome.json : {}
    if (outcome.status >= 400) {
      expect(typeof body.error, `no string "error"${context}`).toBe('string')
      const code = String(body.code) as keyof typeof ERRORS
      expect(ERRORS[code]?.status, `code "${code}" is not documented with status ${outcome.status}${context}`).toBe(
        outcome.status,
      )
    }
  }

  it(
    'answers every request with a documented status and error, and leaves the other organization alone',
    async () => {
      const statuses = new Map<number, number>()
      await fc.assert(
        fc.asyncProperty(specArb(), async (spec) => {
          const outcome = await send(spec)
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1)
          check(spec, outcome)
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 30_000, markInterruptAsFailure: true },
      )
      // The requests got past authorization and validation too, not only refused at the door.
      const seen = [...statuses.keys()]
      expect(
        seen.filter((status) => status < 300),
        JSON.stringify([...statuses]),
      ).not.toEqual([])
      expect(seen, JSON.stringify([...statuses])).toEqual(expect.arrayContaining([400, 401, 403, 404]))
      expect(await otherState()).toEqual(otherBefore)
      // The fuzzing admin was never in the pool of ids: still an admin, still signed in.
      expect(
        (await store.db.selectFrom('users').select('role').where('id', '=', admin.id).executeTakeFirstOrThrow()).role,
      ).toBe('admin')
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )
})
