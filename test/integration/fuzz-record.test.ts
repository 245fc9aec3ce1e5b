// Fuzzes every operation on one household — GET/PATCH/DELETE /{id} and whatever else the OpenAPI
// document lists under /api/v1/relationships/{id} and /api/v1/households/{id} (members,
// assignments, chart… are picked up as they are added) — over real HTTP on a real store.
// Random ids (real, another org's, unknown, malformed), If-Match/If-None-Match junk, content types,
// bodies and credentials: the answer is a status the document lists for that operation, errors
// are {error, code} with a documented code, never a 5xx or a hang, and the other organization's
// households are exactly as they were.
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { householdCounts } from '../../src/store/orgs.ts'
import { ALL_PERMISSIONS, call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { seedHouseholds } from '../helpers/seed.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { fetchOutcome, type Outcome } from '../helpers/fuzz-http.ts'

const PROPERTY_TEST_TIMEOUT_MS = 180_000
const RUNS = 200
const PREFIXES = ['/api/v1/relationships', '/api/v1/households'] as const
const ID_PATH = /^\/api\/v1\/(relationships|households)\/\{id\}/
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

interface Operation {
  method: Method
  /** The templated path, e.g. /api/v1/relationships/{id}/members/{memberId}. */
  path: string
  statuses: Set<number>
  /** relationships:read (GET) or relationships:write (anything else). */
  write: boolean
}

interface Credential {
  label: string
  key: string
  read: boolean
  write: boolean
  org: 'fuzz' | 'other'
}

type IdKind = 'fuzz' | 'other' | 'unknown' | 'malformed'
interface IdSpec {
  kind: IdKind
  /** As it goes into the path (already percent-encoded where needed). */
  value: string
}

type BodySpec = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; text: string }

interface RequestSpec {
  operation: Operation
  id: IdSpec
  /** Values of the other path parameters ({memberId}…), in order. */
  otherParams: string[]
  credential: Credential
  ifMatch: string | undefined
  ifNoneMatch: string | undefined
  contentType: string | undefined
  body: BodySpec
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The documented error codes and their statuses (the table in info.description). */
function documentedCodes(doc: Record<string, unknown>): Map<string, number> {
  const info = isRecord(doc.info) ? doc.info : {}
  const description = typeof info.description === 'string' ? info.description : ''
  const codes = new Map<string, number>()
  for (const match of description.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm))
    codes.set(String(match[2]), Number(match[1]))
  return codes
}

/** Every operation the document lists on a path below …/{id}, on both prefixes. */
function recordOperations(doc: Record<string, unknown>): Operation[] {
  const paths = isRecord(doc.paths) ? doc.paths : {}
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(paths)) {
    if (!ID_PATH.test(path) || !isRecord(item)) continue
    for (const method of METHODS) {
      const op = item[method.toLowerCase()]
      if (!isRecord(op) || !isRecord(op.responses)) continue
      operations.push({
        method,
        path,
        statuses: new Set(Object.keys(op.responses).map(Number)),
        write: method !== 'GET',
      })
    }
  }
  return operations
}

function urlOf(spec: RequestSpec): string {
  let others = 0
  return spec.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'id' ? spec.id.value : (spec.otherParams[others++] ?? 'x'),
  )
}

function describeSpec(spec: RequestSpec): string {
  const body =
    spec.body.kind === 'none'
      ? '(none)'
      : spec.body.kind === 'json'
        ? JSON.stringify(spec.body.value)
        : JSON.stringify(spec.body.text)
  return [
    `${spec.operation.method} ${urlOf(spec)} (id: ${spec.id.kind})`,
    `credential: ${spec.credential.label}`,
    spec.ifMatch === undefined ? '' : `if-match: ${JSON.stringify(spec.ifMatch)}`,
    spec.ifNoneMatch === undefined ? '' : `if-none-match: ${JSON.stringify(spec.ifNoneMatch)}`,
    spec.contentType === undefined ? '' : `content-type: ${JSON.stringify(spec.contentType)}`,
    `body: ${(body ?? 'undefined').slice(0, 300)}`,
  ]
    .filter(Boolean)
    .join('\n  ')
}

async function send(baseUrl: string, spec: RequestSpec): Promise<Outcome> {
  const headers: Record<string, string> = { authorization: `Bearer ${spec.credential.key}` }
  if (spec.ifMatch !== undefined) headers['if-match'] = spec.ifMatch
  if (spec.ifNoneMatch !== undefined) headers['if-none-match'] = spec.ifNoneMatch
  if (spec.contentType !== undefined) headers['content-type'] = spec.contentType
  const body =
    spec.operation.method === 'GET' || spec.body.kind === 'none'
      ? undefined
      : spec.body.kind === 'json'
        ? (JSON.stringify(spec.body.value) ?? 'null')
        : spec.body.text
  return fetchOutcome(baseUrl + urlOf(spec), { method: spec.operation.method, headers, body }, () => describeSpec(spec))
}

// ---------------------------------------------------------------------------------------------
// Generators

const headerCharArb = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
  .map((code) => String.fromCharCode(code))
const headerTextArb = (maxLength: number) => fc.string({ unit: headerCharArb, maxLength })
const NASTY = ['\u0000', '\ud800', '\u202e', '\u2028', '\ufeff', '%', '_', '\\', '"', "'", '😀', 'é', '/', '?', '#']
const textArb = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: fc.constantFrom(...NASTY) },
    ),
    maxLength,
  })

const entityTagArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 8 }).map((n) => `"${n}"`) },
  { weight: 3, arbitrary: fc.constant('*') },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 8 }).map((n) => `W/"${n}"`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '"',
      '""',
      '"01"',
      '1',
      '"1',
      'W/',
      'W/*',
      '"-1"',
      '"1.0"',
      `"${'9'.repeat(20)}"`,
      '"1" "2"',
      ',',
      ',,*',
      '*, "1"',
      '"\u00e9"',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.integer({ min: 0, max: 8 }).map((n) => `"${n}"`),
        { minLength: 2, maxLength: 5 },
      )
      .map((tags) => tags.join(', ')),
  },
  { weight: 1, arbitrary: headerTextArb(40) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => `"1", ${'"2", '.repeat(Math.floor(n / 5))}"3"`),
  },
)
const conditionalArb = fc.option(entityTagArb, { nil: undefined, freq: 3 })

const fieldValueArb = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0.01,
    1.005,
    1e12,
    -1,
    2500000.5,
    '12',
    '2019-01-01',
    '2021-02-29',
    '2999-01-01',
    '   ',
    'x'.repeat(201),
    'tab\there',
  ),
  textArb(30),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(textArb(6), fc.oneof(textArb(10), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
)
const plausiblePatchArb = fc.record(
  {
    name: fc.oneof(fc.constantFrom('Fuzzed Name', '  Padded  ', 'Ünïcödé 😀'), fieldValueArb),
    dsueReceived: fc.oneof(
      fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
      fieldValueArb,
    ),
    deceasedSpouseName: fc.oneof(fc.constantFrom('Someone', null), fieldValueArb),
    dsueDateOfDeath: fc.oneof(fc.constantFrom('2001-09-30', null), fieldValueArb),
    metadata: fc.oneof(
      fc.dictionary(textArb(8), fc.oneof(textArb(10), fc.integer(), fc.boolean()), { maxKeys: 3 }),
      fieldValueArb,
    ),
    primaryClientAsDonor: fc.oneof(fc.boolean(), fc.constant(null), fieldValueArb),
    coClientAsDonor: fc.oneof(fc.boolean(), fc.constant(null), fieldValueArb),
    // The estate settings: currency refuses null (it always has a value) and lower case.
    currency: fc.oneof(fc.constantFrom('USD', 'EUR', 'usd', null), fieldValueArb),
    portabilityElected: fc.oneof(fc.constantFrom('yes', 'no', 'unknown', null), fieldValueArb),
    primaryClientLifetimeGifts: fc.oneof(
      fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
      fieldValueArb,
    ),
    coClientUsCitizen: fc.oneof(fc.boolean(), fc.constant(null), fieldValueArb),
  },
  { requiredKeys: [] },
)
/** Bodies of the other operations (members, assignments…): shapes near what they may take. */
const otherBodyArb = fc.oneof(
  fc.record(
    {
      name: fc.oneof(textArb(20), fieldValueArb),
      role: fc.constantFrom('primaryClient', 'coClient', 'child', 'other', 'nope', 1),
      birthDate: fc.oneof(fc.constantFrom('1980-01-01', '2999-01-01'), fieldValueArb),
    },
    { requiredKeys: [] },
  ),
  fc.record({
    assignments: fc.array(
      fc.record({ userId: fc.oneof(fc.uuid(), textArb(10)), role: fc.constantFrom('leadAdvisor', 'advisor', 'x') }),
      { maxLength: 3 },
    ),
  }),
  fc.array(fc.record({ userId: fc.uuid(), role: fc.constantFrom('leadAdvisor', 'advisor') }), { maxLength: 3 }),
)
const bodyArb: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 8, arbitrary: plausiblePatchArb.map((value): BodySpec => ({ kind: 'json', value })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        plausiblePatchArb,
        fc.dictionary(
          fc.constantFrom('id', 'orgId', 'version', 'createdAt', 'updatedAt', 'members', 'extra'),
          fieldValueArb,
          { minKeys: 1, maxKeys: 2 },
        ),
      )
      .map(([a, b]): BodySpec => ({ kind: 'json', value: { ...a, ...b } })),
  },
  { weight: 2, arbitrary: otherBodyArb.map((value): BodySpec => ({ kind: 'json', value })) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value): BodySpec => ({ kind: 'json', value })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '',
        '{',
        '{"name":',
        'null',
        '[]',
        '{"__proto__":{"x":1},"name":"p"}',
        '{"constructor":{"prototype":{}}}',
        `{"metadata":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`,
        `{"name":"${'x'.repeat(1_100_000)}"}`,
        '\ufeff{}',
      )
      .map((text): BodySpec => ({ kind: 'text', text })),
  },
  { weight: 1, arbitrary: textArb(60).map((text): BodySpec => ({ kind: 'text', text })) },
  { weight: 2, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
)
const contentTypeArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('application/merge-patch+json', 'application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/merge-patch+json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      'application/json-patch+json',
      '*/*',
      'json',
    ),
  },
  { weight: 1, arbitrary: headerTextArb(30) },
  { weight: 1, arbitrary: fc.constant(undefined) },
)

/** The fuzzing org's live households; replenished between runs, so read at generation time. */
interface IdPool {
  fuzz: string[]
  other: string[]
}

function idArb(pool: IdPool): fc.Arbitrary<IdSpec> {
  const fuzzId = fc.nat().map((i) => pool.fuzz[i % pool.fuzz.length] ?? '')
  return fc.oneof(
    { weight: 8, arbitrary: fuzzId.map((value): IdSpec => ({ kind: 'fuzz', value })) },
    { weight: 1, arbitrary: fuzzId.map((value): IdSpec => ({ kind: 'fuzz', value: value.toUpperCase() })) },
    { weight: 3, arbitrary: fc.constantFrom(...pool.other).map((value): IdSpec => ({ kind: 'other', value })) },
    { weight: 2, arbitrary: fc.uuid().map((value): IdSpec => ({ kind: 'unknown', value })) },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.constantFrom(
            'abc',
            '0',
            '-1',
            'null',
            '%20',
            '..%2Fx',
            '%00',
            '%25',
            "1'%20OR%201%3D1",
            '{id}',
            'x'.repeat(300),
            '%zz',
            '%C3',
            '%E0%A4%A',
            '%FF',
            '00000000-0000-0000-0000-00000000000g',
            '%7B00000000-0000-0000-0000-000000000000%7D',
          ),
          fuzzId.map((id) => `${id}x`),
          fuzzId.map((id) => id.replaceAll('-', '')),
          textArb(20).map((text) => Buffer.from(text, 'utf8').toString('hex').replace(/../g, '%$&') || 'empty'),
        )
        .map((value): IdSpec => ({ kind: 'malformed', value })),
    },
  )
}

function requestArb(operations: Operation[], credentials: Credential[], pool: IdPool): fc.Arbitrary<RequestSpec> {
  const main = credentials[0]
  if (!main) throw new Error('no credentials')
  return fc
    .record({
      operation: fc.constantFrom(...operations),
      id: idArb(pool),
      otherParams: fc.array(fc.oneof(fc.uuid(), fc.constantFrom('abc', '%20', '0')), { minLength: 2, maxLength: 2 }),
      credential: fc.oneof(
        { weight: 6, arbitrary: fc.constant(main) },
        { weight: 2, arbitrary: fc.constantFrom(...credentials) },
      ),
      ifMatch: conditionalArb,
      ifNoneMatch: conditionalArb,
      contentType: contentTypeArb,
      body: bodyArb,
    })
    .map((spec) => {
      // The other org's key aims at our households, never at its own: its households must stay as they are.
      if (spec.credential.org === 'other' && spec.id.kind === 'other')
        return { ...spec, id: { kind: 'fuzz' as const, value: pool.fuzz[0] ?? '' } }
      return spec
    })
}

// ---------------------------------------------------------------------------------------------
// What every answer must satisfy

interface Checker {
  codes: Map<string, number>
  /** Undocumented statuses of operations other than GET/PATCH/DELETE /{id}, with an example request. */
}

function checkOutcome(checker: Checker, spec: RequestSpec, outcome: Outcome): void {
  const context = `\n  ${describeSpec(spec)}\nanswered ${outcome.status}: ${outcome.text.slice(0, 400)}`
  expect(outcome.status, `a 5xx${context}`).toBeLessThan(500)
  // In bytes as sent: fetch percent-encodes what the URL parser would (non-ASCII becomes 3 bytes a byte).
  const sent = new URL(urlOf(spec), 'http://hearth.test')
  const head =
    Buffer.byteLength(spec.ifMatch ?? '') +
    Buffer.byteLength(spec.ifNoneMatch ?? '') +
    Buffer.byteLength(sent.pathname + sent.search)
  if (outcome.status === 431) {
    expect(head, `431 for a small request head${context}`).toBeGreaterThan(60 * 1024)
    return
  }
  const { operation, credential, id } = spec
  const own = operation.path.endsWith('{id}')
  if (!operation.statuses.has(outcome.status)) {
    expect.fail(
      `${operation.method} ${operation.path} answered ${outcome.status}, which its documentation does not list (documented: ${[...operation.statuses].join(', ')})${context}`,
    )
  }

  // A path that is not valid percent-encoding is a 404 before anything else (it names nothing).
  const undecodable =
    /%(?![0-9a-f]{2})|%[89a-f][0-9a-f](?!%)|%e[0-9a-f]%[0-9a-f]{2}(?!%)/i.test(urlOf(spec)) || /%ff/i.test(urlOf(spec))
  if (undecodable && outcome.status === 404) return
  // Permission first; then nobody outside the org ever learns that a household exists.
  if (!(operation.write ? credential.write : credential.read))
    expect(outcome.status, `no permission${context}`).toBe(403)
  if (id.kind !== 'fuzz' || credential.org !== 'fuzz') {
    expect(
      outcome.status < 300 || outcome.status === 304 || outcome.status === 412,
      `a household outside the caller's org answered ${outcome.status}${context}`,
    ).toBe(false)
  }
  if (spec.operation.path.startsWith(PREFIXES[1])) {
    expect(outcome.headers.get('deprecation') ?? '', `no Deprecation header${context}`).toMatch(/^@\d+$/)
    expect(outcome.headers.get('link') ?? '', `no successor Link${context}`).toContain('rel="successor-version"')
  } else {
    expect(outcome.headers.get('deprecation'), `Deprecation on the new path${context}`).toBeNull()
  }
  expect(outcome.headers.get('ratelimit') ?? '', `no RateLimit header${context}`).toMatch(/r=\d+/)

  if (outcome.status === 204 || outcome.status === 304) {
    expect(outcome.text, `a body with ${outcome.status}${context}`).toBe('')
    if (outcome.status === 304)
      expect(outcome.headers.get('etag') ?? '', `304 without ETag${context}`).toMatch(/^"\d+"$/)
    return
  }
  expect(outcome.headers.get('content-type') ?? '', `not JSON${context}`).toMatch(/^application\/json/)
  expect(isRecord(outcome.json), `a body that is not a JSON object${context}`).toBe(true)
  const body = isRecord(outcome.json) ? outcome.json : {}
  if (outcome.status >= 400) {
    expect(typeof body.error, `no string "error"${context}`).toBe('string')
    expect(typeof body.code, `no string "code"${context}`).toBe('string')
    const code = String(body.code)
    expect(checker.codes.get(code), `code "${code}" is not documented with status ${outcome.status}${context}`).toBe(
      outcome.status,
    )
    expect(body.requestId, `requestId differs from X-Request-Id${context}`).toBe(outcome.headers.get('x-request-id'))
    // The only household errors a write gets: precondition, not found.
    if (outcome.status === 428)
      expect(
        spec.ifMatch === undefined || spec.ifMatch.trim() === '',
        `428 with If-Match ${JSON.stringify(spec.ifMatch)}${context}`,
      ).toBe(true)
    return
  }
  if (own && outcome.status === 200) {
    expect(isRecord(body.household) && String(body.household.id), `another household in the answer${context}`).toBe(
      id.value.toLowerCase(),
    )
    expect(outcome.headers.get('etag') ?? '', `no ETag${context}`).toMatch(/^"\d+"$/)
  }
}

// ---------------------------------------------------------------------------------------------

describe.each(storeKinds())('fuzzing the household record endpoints on %s', (kind) => {
  let store: TestStore
  let app: TestApp
  let operations: Operation[]
  let credentials: Credential[]
  let checker: Checker
  let fuzzOrgId: string
  let otherOrgId: string
  const pool: IdPool = { fuzz: [], other: [] }
  let otherBefore: unknown
  let otherAuditBefore: number

  /** The other org's households as stored (version and updatedAt included) and as its key reads them. */
  async function otherState(): Promise<unknown> {
    const rows = await store.db
      .selectFrom('households')
      .selectAll()
      .where('org_id', '=', otherOrgId)
      .orderBy('id')
      .execute()
    const members = await store.db
      .selectFrom('members')
      .selectAll()
      .where('household_id', 'in', pool.other)
      .orderBy('id')
      .execute()
    return { rows, members, counts: await householdCounts(store.db, otherOrgId) }
  }
  const auditCount = async (orgId: string) =>
    (
      await store.db
        .selectFrom('audit_log')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n

  /** Keeps a few households in the fuzzing org alive: deletes would otherwise leave only 404s. */
  async function replenish(): Promise<void> {
    const rows = await store.db.selectFrom('households').select('id').where('id', 'in', pool.fuzz).execute()
    const alive = new Set(rows.map((r) => r.id))
    const missing = pool.fuzz.filter((id) => !alive.has(id)).length
    if (missing === 0) return
    const added = await seedHouseholds(
      store.db,
      fuzzOrgId,
      Array.from({ length: missing }, (_, i) => ({ name: `Replenished ${i}`, members: ['Ann Fuzz', 'Bo Fuzz'] })),
    )
    pool.fuzz = [...pool.fuzz.filter((id) => alive.has(id)), ...added.values()]
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    app = await startApp(store, { rateLimitMax: 1_000_000 })
    const fuzzOrg = await createOrgWithKey(store.db, ALL_PERMISSIONS)
    fuzzOrgId = fuzzOrg.orgId
    const other = await createOrgWithKey(store.db, ALL_PERMISSIONS)
    otherOrgId = other.orgId
    const make = async (label: string, permissions: string[]): Promise<Credential> => ({
      label,
      key: (await createKey(store.db, fuzzOrgId, permissions)).key,
      // A write permission implies read.
      read: permissions.some((p) =>
        ['relationships:read', 'households:read', 'relationships:write', 'households:write'].includes(p),
      ),
      write: permissions.some((p) => p === 'relationships:write' || p === 'households:write'),
      org: 'fuzz',
    })
    credentials = [
      { label: 'all permissions', key: fuzzOrg.key, read: true, write: true, org: 'fuzz' },
      await make('relationships:read', ['relationships:read']),
      await make('households:read', ['households:read']),
      await make('relationships:write', ['relationships:write']),
      await make('households:write', ['households:write']),
      await make('embed:chart only', ['embed:chart']),
      { label: 'other org, all permissions', key: other.key, read: true, write: true, org: 'other' },
    ]
    pool.fuzz = [
      ...(
        await seedHouseholds(
          store.db,
          fuzzOrgId,
          Array.from({ length: 6 }, (_, i) => ({ name: `Fuzz ${i}`, members: ['Ann Fuzz', 'Bo Fuzz'] })),
        )
      ).values(),
    ]
    pool.other = [
      ...(
        await seedHouseholds(store.db, otherOrgId, [
          { name: 'Other One', members: ['Secret Person', 'Second Person'] },
          { name: 'Other Two' },
        ])
      ).values(),
    ]
    // The other org's households also went through the API once, so they have a version of 2.
    for (const id of pool.other) {
      const response = await call(`${app.url}/api/v1/relationships/${id}`, other.key, {
        method: 'PATCH',
        body: { metadata: { secret: 'other' } },
        headers: { 'if-match': '"1"' },
      })
      expect(response.status).toBe(200)
    }
    const doc = (await (await fetch(`${app.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>
    operations = recordOperations(doc)
    const names = operations.map((op) => `${op.method} ${op.path}`)
    for (const prefix of PREFIXES)
      for (const method of ['GET', 'PATCH', 'DELETE']) expect(names).toContain(`${method} ${prefix}/{id}`)
    checker = { codes: documentedCodes(doc) }
    expect(checker.codes.size).toBeGreaterThan(5)
    otherBefore = await otherState()
    otherAuditBefore = await auditCount(otherOrgId)
  })

  afterAll(async () => {
    await app?.close()
    await store?.drop()
  })

  it(
    'random ids, conditional headers, content types, bodies and credentials: documented statuses and error bodies, no 5xx, no hang',
    async () => {
      let n = 0
      await fc.assert(
        fc.asyncProperty(requestArb(operations, credentials, pool), async (spec) => {
          if (++n % 20 === 0) await replenish()
          checkOutcome(checker, spec, await send(app.url, spec))
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 30_000, markInterruptAsFailure: true },
      )
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it(
    'concurrent batches of random requests on the same households are each answered correctly',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(requestArb(operations, credentials, pool), { minLength: 2, maxLength: 8 }),
          async (specs) => {
            await replenish()
            const outcomes = await Promise.all(specs.map((spec) => send(app.url, spec)))
            specs.forEach((spec, i) => {
              const outcome = outcomes[i]
              if (outcome) checkOutcome(checker, spec, outcome)
            })
          },
        ),
        { numRuns: 40, interruptAfterTimeLimit: PROPERTY_TEST_TIMEOUT_MS - 30_000, markInterruptAsFailure: true },
      )
    },
    PROPERTY_TEST_TIMEOUT_MS,
  )

  it('after the fuzzing, the other organization is exactly as it was (rows, versions, updatedAt, members, counters, audit log)', async () => {
    expect(await otherState()).toEqual(otherBefore)
    expect(await auditCount(otherOrgId)).toBe(otherAuditBefore)
    // And the fuzzing org's counter still agrees with its rows.
    const rows = await store.db
      .selectFrom('households')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('org_id', '=', fuzzOrgId)
      .executeTakeFirstOrThrow()
    expect((await householdCounts(store.db, fuzzOrgId)).households).toBe(rows.n)
    // No audit row of the fuzzing org names another org's household.
    const foreign = await store.db
      .selectFrom('audit_log')
      .select('id')
      .where('org_id', '=', fuzzOrgId)
      .where('household_id', 'in', pool.other)
      .execute()
    expect(foreign).toEqual([])
  })
})
