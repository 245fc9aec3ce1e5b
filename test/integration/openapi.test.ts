// The OpenAPI document: what it says (spec §4.1, §4.2, §5, §9) and whether the service keeps to
// it. Real responses from real calls — every status a test can provoke on the four operations —
// are validated with Ajv (JSON Schema 2020-12) against the schema the document gives for that
// path, method and status; an undocumented status fails.
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateApiKey } from '../../src/auth/api-keys.ts'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import { revokeApiKey } from '../../src/store/api-keys.ts'
import { addSampleHouseholds } from '../../src/store/samples.ts'
import { ALL_PERMISSIONS, call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { NOT_MODIFIED_COST } from '../../src/rate-limit/costs.ts'

const RELATIONSHIPS = '/api/v1/relationships'
const HOUSEHOLDS = '/api/v1/households'
const PATHS = [RELATIONSHIPS, HOUSEHOLDS] as const
const METHODS = ['get', 'post'] as const
/** The operations on one household (GET/PATCH/DELETE …/{id}). */
const RECORD_METHODS = ['get', 'patch', 'delete'] as const
type Method = (typeof METHODS)[number] | (typeof RECORD_METHODS)[number]

type JsonSchema = Record<string, unknown>
interface Parameter {
  name: string
  in: string
  required?: boolean
  schema?: JsonSchema
}
interface ResponseObject {
  description?: string
  content?: Record<string, { schema?: JsonSchema }>
}
interface Operation {
  operationId?: string
  summary?: string
  description?: string
  deprecated?: boolean
  parameters?: Parameter[]
  security?: Record<string, string[]>[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  responses: Record<string, ResponseObject>
}
interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths: Record<string, Partial<Record<Method, Operation>>>
  components?: { securitySchemes?: Record<string, Record<string, unknown>> }
}

type CallResult = Awaited<ReturnType<typeof call>>

/** The spec's query parameters of the list operation (§4.1). */
const SPEC_PARAMETERS = ['search', 'page', 'pageSize', 'sortBy', 'sortOrder', 'excludeSample', 'isSample', 'ids']

/** The household's estate settings (issue 14): create and patch fields beside the seed's. */
const ESTATE_SETTINGS = [
  'currency',
  'portabilityElected',
  'primaryClientLifetimeGifts',
  'coClientLifetimeGifts',
  'primaryClientExemptionUsed',
  'coClientExemptionUsed',
  'primaryClientUsCitizen',
  'coClientUsCitizen',
  // Issue 17: the partner's own id for the household.
  'externalId',
]

const FULL_BODY = {
  name: '  The Fullers  ',
  dsueReceived: 1_234_567.89,
  deceasedSpouseName: 'Fred Fuller',
  dsueDateOfDeath: '2019-06-30',
  metadata: { crmId: 'A-17', tags: ['vip', 'estate'], nested: { level: { deeper: true } }, score: 4.5, none: null },
  primaryClientAsDonor: true,
  coClientAsDonor: false,
}

describe.each(storeKinds())('the OpenAPI document on %s', (kind) => {
  let store: TestStore
  let app: TestApp
  let doc: OpenApiDocument
  let orgId: string
  let keys: {
    all: string
    read: string
    write: string
    legacyRead: string
    legacyWrite: string
    embedOnly: string
    expired: string
    revoked: string
  }
  let sampleIds: string[]
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
  addFormats.default(ajv)
  const validators = new Map<string, ValidateFunction>()
  /** Statuses checked against the document, per "METHOD path". */
  const produced = new Map<string, Set<number>>()

  function operation(path: string, method: Method): Operation {
    const op = doc.paths[path]?.[method]
    if (!op) throw new Error(`the document has no ${method.toUpperCase()} ${path}`)
    return op
  }

  /** Validates a real response against what the document says for its path, method and status. */
  function conforms(path: string, method: Method, response: CallResult): void {
    const op = operation(path, method)
    const documented = op.responses[String(response.status)]
    const where = `${method.toUpperCase()} ${path} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`
    expect(
      documented,
      `${where}: the status is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
    ).toBeDefined()
    const seen = produced.get(`${method} ${path}`) ?? new Set<number>()
    seen.add(response.status)
    produced.set(`${method} ${path}`, seen)
    if (response.status === 204 || response.status === 304) {
      // No content: the document must not promise a body either.
      expect(response.body, where).toEqual({})
      expect(
        Object.keys(documented?.content ?? {}).filter(
          (type) => type !== 'application/json' || documented?.content?.[type]?.schema?.type !== 'null',
        ),
        where,
      ).toEqual([])
      return
    }
    expect(response.headers.get('content-type') ?? '', where).toMatch(/^application\/json/)
    const schema = documented?.content?.['application/json']?.schema
    expect(schema, `${where}: no application/json schema documented`).toBeDefined()
    const id = `${method} ${path} ${response.status}`
    let validate = validators.get(id)
    if (!validate) {
      validate = ajv.compile(schema ?? {})
      validators.set(id, validate)
    }
    if (!validate(response.body)) {
      throw new Error(
        `${where}\ndoes not match its documented schema: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}`,
      )
    }
  }

  /** Calls, checks the status (and code) the test expects, then checks the response against the document. */
  async function expectCall(
    path: string,
    method: Method,
    expected: { status: number; code?: string },
    init: {
      key?: string | undefined
      query?: string
      body?: unknown
      headers?: Record<string, string>
      base?: string
    } = {},
  ): Promise<CallResult> {
    const url = `${init.base ?? app.url}${path}${init.query ? `?${init.query}` : ''}`
    const response = await call(url, init.key, { method: method.toUpperCase(), body: init.body, headers: init.headers })
    expect(response.status, `${method.toUpperCase()} ${url}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(
      expected.status,
    )
    if (expected.code) expect(response.body.code).toBe(expected.code)
    conforms(path, method, response)
    return response
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    app = await startApp(store)
    const org = await createOrgWithKey(store.db, ALL_PERMISSIONS)
    orgId = org.orgId
    // Sample households have members and assignments, so list items are complete.
    await addSampleHouseholds(store.db, orgId)
    const make = async (permissions: string[], expiresAt: Date | null = null) =>
      (await createKey(store.db, orgId, permissions, expiresAt)).key
    const revoked = await createKey(store.db, orgId, ALL_PERMISSIONS)
    await revokeApiKey(store.db, revoked.id)
    keys = {
      all: org.key,
      read: await make(['relationships:read']),
      write: await make(['relationships:write']),
      legacyRead: await make(['households:read']),
      legacyWrite: await make(['households:write']),
      embedOnly: await make(['embed:chart']),
      expired: await make(ALL_PERMISSIONS, new Date(Date.now() - 60_000)),
      revoked: revoked.key,
    }
    const response = await fetch(`${app.url}/api/v1/openapi.json`)
    expect(response.status).toBe(200)
    doc = (await response.json()) as OpenApiDocument
    const list = await call(`${app.url}${RELATIONSHIPS}?pageSize=1000`, keys.all)
    sampleIds = (list.body.households as { id: string }[]).map((h) => h.id)
  })

  afterAll(async () => {
    await app?.close()
    await store?.drop()
  })

  describe('what it says', () => {
    it('is OpenAPI 3.1.0 for interface version 1.0.0, served without credentials', () => {
      expect(doc.openapi).toBe('3.1.0')
      expect(doc.info.version).toBe('1.0.0')
      expect(doc.info.title).toEqual(expect.any(String))
    })

    it('has list and create on /api/v1/relationships and on the deprecated /api/v1/households', () => {
      for (const path of PATHS)
        for (const method of METHODS) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined()
      for (const method of METHODS) {
        expect(operation(HOUSEHOLDS, method).deprecated, `${method} households is deprecated`).toBe(true)
        expect(operation(RELATIONSHIPS, method).deprecated ?? false, `${method} relationships is not deprecated`).toBe(
          false,
        )
      }
      // §4.2: the legacy create is documented separately as "Create household" with households:write.
      expect(operation(HOUSEHOLDS, 'post').summary).toBe('Create household')
      expect(operation(HOUSEHOLDS, 'post').description).toContain('households:write')
      expect(operation(HOUSEHOLDS, 'get').description).toContain('households:read')
      const ids = PATHS.flatMap((path) => METHODS.map((method) => operation(path, method).operationId))
      expect(new Set(ids).size, 'operationIds are unique').toBe(4)
    })

    it('declares BearerAuth and the idp-session cookie, and both operations accept either', () => {
      const schemes = doc.components?.securitySchemes ?? {}
      expect(schemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
      expect(schemes.SessionAuth).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'idp-session' })
      for (const path of PATHS) {
        for (const method of METHODS) {
          expect(operation(path, method).security, `${method} ${path}`).toEqual(
            expect.arrayContaining([{ BearerAuth: [] }, { SessionAuth: [] }]),
          )
        }
      }
    })

    it('says what a 304 costs wherever it offers one: a fraction of a unit, never nothing', () => {
      const offering = Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.entries(operations).flatMap(([method, op]) =>
          op.description?.includes('304') ? [{ at: `${method} ${path}`, description: op.description }] : [],
        ),
      )
      expect(offering.length).toBeGreaterThanOrEqual(4)
      for (const { at, description } of offering) {
        expect(description, at).toContain(`costs ${NOT_MODIFIED_COST} unit of rate-limit budget`)
        expect(description, at).not.toMatch(/costs no rate-limit budget|costs nothing|is free/)
      }
    })

    it('documents the eight query parameters of the list with their constraints', () => {
      for (const path of PATHS) {
        const parameters = operation(path, 'get').parameters ?? []
        const byName = new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]))
        expect([...byName.keys()], path).toEqual(expect.arrayContaining(SPEC_PARAMETERS))
        for (const name of SPEC_PARAMETERS)
          expect(byName.get(name)?.required ?? false, `${name} is optional`).toBe(false)
        expect(byName.get('page')?.schema).toMatchObject({ type: 'integer', minimum: 1 })
        expect(byName.get('pageSize')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 })
        expect(byName.get('sortBy')?.schema).toMatchObject({ type: 'string' })
        expect([...((byName.get('sortBy')?.schema?.enum as string[] | undefined) ?? [])].sort()).toEqual([
          'createdAt',
          'members',
          'name',
        ])
        expect([...((byName.get('sortOrder')?.schema?.enum as string[] | undefined) ?? [])].sort()).toEqual([
          'asc',
          'desc',
        ])
        expect(byName.get('excludeSample')?.schema).toMatchObject({ type: 'boolean' })
        expect(byName.get('isSample')?.schema).toMatchObject({ type: 'boolean' })
        expect(byName.get('search')?.schema).toMatchObject({ type: 'string' })
        // "the key may be repeated and/or values may be comma-separated": an array of strings.
        expect(byName.get('ids')?.schema).toMatchObject({ type: 'array', items: { type: 'string' } })
      }
    })

    it('documents the create body fields of §2.2 and the list response of §2.3', () => {
      for (const path of PATHS) {
        const body = operation(path, 'post').requestBody?.content?.['application/json']?.schema
        expect(body, path).toBeDefined()
        expect(Object.keys((body?.properties as object | undefined) ?? {}).sort()).toEqual(
          [
            'coClientAsDonor',
            'dsueDateOfDeath',
            'dsueReceived',
            'deceasedSpouseName',
            'metadata',
            'name',
            'primaryClientAsDonor',
            ...ESTATE_SETTINGS,
          ].sort(),
        )
        const list = operation(path, 'get').responses['200']?.content?.['application/json']?.schema
        expect(list?.required).toEqual(expect.arrayContaining(['households', 'total', 'page', 'pageSize']))
        expect((list?.properties as Record<string, JsonSchema> | undefined)?.households).toMatchObject({
          type: 'array',
          maxItems: 1000,
        })
        const created = operation(path, 'post').responses['201']?.content?.['application/json']?.schema
        expect(created?.required).toEqual(['household'])
        expect(operation(path, 'get').responses['429']?.content?.['application/json']?.schema?.required).toEqual(
          expect.arrayContaining(['error', 'resetAt']),
        )
      }
    })

    it('serves a readable reference at /docs that loads this document', async () => {
      const page = await fetch(`${app.url}/docs`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type') ?? '').toMatch(/^text\/html/)
      const html = await page.text()
      expect(html).toMatch(/<html/i)
      expect(html).toMatch(/<script[^>]+src=/i)
      // The page's script loads the document from /docs/json: it must be the same document.
      const shown = await fetch(`${app.url}/docs/json`)
      expect(shown.status).toBe(200)
      expect(await shown.json()).toEqual(doc)
    })
  })

  describe.each(PATHS)('real responses on %s match the document', (path) => {
    it('200: the list with defaults, search, ids, every sort, the sample filters and a page past the end', async () => {
      const all = await expectCall(path, 'get', { status: 200 }, { key: keys.all })
      expect(all.body).toMatchObject({ page: 1, pageSize: 50 })
      expect((all.body.households as unknown[]).length).toBeGreaterThan(0)

      const member = SAMPLE_HOUSEHOLDS.find((h) => h.members.length > 0)?.members[0]?.name ?? ''
      const found = await expectCall(
        path,
        'get',
        { status: 200 },
        { key: keys.all, query: `search=${encodeURIComponent(member.split(' ')[0] ?? '')}` },
      )
      expect(found.body.total).toBeGreaterThan(0)

      const [first = '', second = ''] = sampleIds
      const byIds = await expectCall(
        path,
        'get',
        { status: 200 },
        { key: keys.all, query: `ids=${first},${second.toUpperCase()}` },
      )
      expect((byIds.body.households as { id: string }[]).map((h) => h.id).sort()).toEqual([first, second].sort())
      await expectCall(path, 'get', { status: 200 }, { key: keys.all, query: `ids=${first}&ids=${second}` })

      for (const sortBy of ['name', 'members', 'createdAt']) {
        for (const sortOrder of ['asc', 'desc']) {
          await expectCall(
            path,
            'get',
            { status: 200 },
            { key: keys.all, query: `sortBy=${sortBy}&sortOrder=${sortOrder}&pageSize=1000` },
          )
        }
      }
      await expectCall(path, 'get', { status: 200 }, { key: keys.all, query: 'isSample=true' })
      await expectCall(path, 'get', { status: 200 }, { key: keys.all, query: 'excludeSample=true' })
      await expectCall(path, 'get', { status: 200 }, { key: keys.all, query: 'isSample=false&pageSize=1' })
      const past = await expectCall(path, 'get', { status: 200 }, { key: keys.all, query: 'page=1000&pageSize=10' })
      expect(past.body.households).toEqual([])
      expect(past.body.total).toBeGreaterThan(0)
      // The legacy permission name reads on both paths.
      await expectCall(path, 'get', { status: 200 }, { key: keys.legacyRead })
    })

    it('201: a create with every optional field set, with only a name, and an idempotent replay', async () => {
      const full = await expectCall(path, 'post', { status: 201 }, { key: keys.all, body: FULL_BODY })
      const household = full.body.household as Record<string, unknown>
      expect(household).toMatchObject({
        ...FULL_BODY,
        name: 'The Fullers',
        isSample: false,
        members: [],
        assignments: [],
      })
      expect(full.headers.get('location')).toBe(`${path}/${String(household.id)}`)

      const minimal = await expectCall(path, 'post', { status: 201 }, { key: keys.all, body: { name: 'Only A Name' } })
      expect(minimal.body.household).toMatchObject({
        name: 'Only A Name',
        dsueReceived: null,
        metadata: null,
        coClientAsDonor: null,
      })

      const nulls = {
        name: 'Explicit Nulls',
        dsueReceived: null,
        deceasedSpouseName: null,
        dsueDateOfDeath: null,
        metadata: null,
        primaryClientAsDonor: null,
        coClientAsDonor: null,
      }
      await expectCall(path, 'post', { status: 201 }, { key: keys.legacyWrite, body: nulls })

      // A replay comes from the stored response: it must match the document too.
      const headers = { 'idempotency-key': `replay-${path}-${kind}` }
      const first = await expectCall(path, 'post', { status: 201 }, { key: keys.all, body: FULL_BODY, headers })
      const replay = await expectCall(path, 'post', { status: 201 }, { key: keys.all, body: { ...FULL_BODY }, headers })
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect(replay.body).toEqual(first.body)
    })

    it('400: bad query values and bad bodies', async () => {
      for (const query of [
        'page=0',
        'pageSize=1001',
        'pageSize=0',
        'sortBy=size',
        'sortOrder=up',
        'isSample=maybe',
        'isSample=true&excludeSample=true',
        'ids=nope',
        `search=${'x'.repeat(201)}`,
      ]) {
        await expectCall(path, 'get', { status: 400, code: 'invalid_query' }, { key: keys.all, query })
      }
      const bad: [unknown, string][] = [
        [{}, 'invalid_body'],
        [{ name: 1 }, 'invalid_body'],
        [{ name: '   ' }, 'invalid_body'],
        [{ name: 'x', color: 'red' }, 'invalid_body'],
        [{ name: 'x', dsueReceived: 1.005 }, 'invalid_body'],
        [{ name: 'x', dsueReceived: '12' }, 'invalid_body'],
        [{ name: 'x', dsueDateOfDeath: '2021-02-29' }, 'invalid_body'],
        [{ name: 'x', dsueDateOfDeath: '2999-01-01' }, 'invalid_body'],
        [{ name: 'x', metadata: [] }, 'invalid_body'],
        [{ name: 'x', primaryClientAsDonor: 'yes' }, 'invalid_body'],
        ['{"name":', 'invalid_json'],
        ['[]', 'invalid_body'],
      ]
      for (const [body, code] of bad) await expectCall(path, 'post', { status: 400, code }, { key: keys.all, body })
      await expectCall(
        path,
        'post',
        { status: 400, code: 'invalid_json' },
        { key: keys.all, headers: { 'content-type': 'application/json' }, body: '' },
      )
      await expectCall(
        path,
        'post',
        { status: 400, code: 'invalid_header' },
        { key: keys.all, body: { name: 'x' }, headers: { 'idempotency-key': 'k'.repeat(256) } },
      )
    })

    it('401: no key, a malformed key, an unknown key, an expired key, a revoked key', async () => {
      const cases: [string | undefined, string][] = [
        [undefined, 'missing_credentials'],
        ['idx_short', 'invalid_credentials'],
        [generateApiKey().key, 'invalid_credentials'],
        [keys.expired, 'api_key_expired'],
        [keys.revoked, 'api_key_revoked'],
      ]
      for (const method of METHODS) {
        for (const [key, code] of cases) {
          const response = await expectCall(
            path,
            method,
            { status: 401, code },
            { key, body: method === 'post' ? { name: 'x' } : undefined },
          )
          expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /)
        }
      }
    })

    it('403: a key without the permission', async () => {
      await expectCall(path, 'get', { status: 403, code: 'missing_permission' }, { key: keys.embedOnly })
      await expectCall(
        path,
        'post',
        { status: 403, code: 'missing_permission' },
        { key: keys.read, body: { name: 'x' } },
      )
      await expectCall(
        path,
        'post',
        { status: 403, code: 'missing_permission' },
        { key: keys.legacyRead, body: { name: 'x' } },
      )
    })

    it('409: an Idempotency-Key reused with another body', async () => {
      const headers = { 'idempotency-key': `conflict-${path}-${kind}` }
      await expectCall(path, 'post', { status: 201 }, { key: keys.all, body: { name: 'First Body' }, headers })
      await expectCall(
        path,
        'post',
        { status: 409, code: 'idempotency_key_reused' },
        { key: keys.all, body: { name: 'Other Body' }, headers },
      )
    })

    it('413: a body over 1 MB', async () => {
      const body = JSON.stringify({ name: 'Big', metadata: { blob: 'x'.repeat(1024 * 1024) } })
      await expectCall(path, 'post', { status: 413, code: 'body_too_large' }, { key: keys.all, body })
    })

    it('415: a text/plain body', async () => {
      await expectCall(
        path,
        'post',
        { status: 415, code: 'unsupported_media_type' },
        { key: keys.all, body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } },
      )
      await expectCall(
        path,
        'post',
        { status: 415, code: 'unsupported_media_type' },
        { key: keys.all, body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      )
    })

    it('429: a credential past its budget, and failed authentications past theirs', async () => {
      const limited = await startApp(store, { rateLimitMax: 2 })
      try {
        for (const method of METHODS) {
          const key = (await createKey(store.db, orgId, ALL_PERMISSIONS)).key
          let response: CallResult | undefined
          // Fixed windows: a window may end in between, so allow a few more calls than the budget.
          for (let i = 0; i < 8 && response?.status !== 429; i++) {
            response = await call(`${limited.url}${path}`, key, {
              method: method.toUpperCase(),
              body: method === 'post' ? { name: `Limited ${i}` } : undefined,
            })
            expect([200, 201, 429], JSON.stringify(response.body)).toContain(response.status)
            conforms(path, method, response)
          }
          expect(response?.status).toBe(429)
          expect(response?.headers.get('retry-after')).toMatch(/^\d+$/)
          expect(response?.body.code).toBe('rate_limited')
        }
        for (const method of METHODS) {
          let response: CallResult | undefined
          for (let i = 0; i < 8 && response?.status !== 429; i++) {
            response = await call(`${limited.url}${path}`, 'idx_wrong', {
              method: method.toUpperCase(),
              body: method === 'post' ? { name: 'x' } : undefined,
            })
            expect([401, 429]).toContain(response.status)
            conforms(path, method, response)
          }
          expect(response?.status).toBe(429)
        }
      } finally {
        await limited.close()
      }
    })

    it('every status documented for the two operations was produced and checked above', () => {
      for (const method of METHODS) {
        const documented = Object.keys(operation(path, method).responses).map(Number)
        const seen = produced.get(`${method} ${path}`) ?? new Set<number>()
        expect(
          documented.filter((status) => !seen.has(status)),
          `${method.toUpperCase()} ${path}: documented but never produced`,
        ).toEqual([])
      }
    })
  })
  describe.each(PATHS)('real responses on %s/{id} match the document', (prefix) => {
    const path = `${prefix}/{id}`
    const at = (id: string) => `${prefix}/${id}`
    /** Calls …/{id} and checks the answer against the document of the templated path. */
    async function expectRecordCall(
      id: string,
      method: (typeof RECORD_METHODS)[number],
      expected: { status: number; code?: string },
      init: { key?: string | undefined; body?: unknown; headers?: Record<string, string>; base?: string } = {},
    ): Promise<CallResult> {
      const url = `${init.base ?? app.url}${at(id)}`
      const response = await call(url, init.key, {
        method: method.toUpperCase(),
        body: init.body,
        headers: init.headers,
      })
      expect(response.status, `${method.toUpperCase()} ${url}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(
        expected.status,
      )
      if (expected.code) expect(response.body.code).toBe(expected.code)
      conforms(path, method, response)
      return response
    }
    const fresh = async (body: unknown = FULL_BODY) => {
      const created = await call(`${app.url}${prefix}`, keys.all, { method: 'POST', body })
      expect(created.status).toBe(201)
      return (created.body.household as { id: string }).id
    }
    const unknown = '00000000-0000-4000-8000-000000000000'

    it('is documented: three operations with unique ids, the id parameter, If-Match, the merge-patch body and their errors', () => {
      for (const method of RECORD_METHODS) {
        const op = operation(path, method)
        expect(op.deprecated ?? false, `${method} ${path}`).toBe(prefix === HOUSEHOLDS)
        expect(op.security).toEqual(expect.arrayContaining([{ BearerAuth: [] }, { SessionAuth: [] }]))
        expect(op.parameters?.find((p) => p.in === 'path' && p.name === 'id')?.required).toBe(true)
        for (const status of ['401', '403', '404', '429'])
          expect(op.responses[status], `${method} ${status}`).toBeDefined()
      }
      expect(Object.keys(operation(path, 'get').responses).sort()).toEqual(['200', '304', '401', '403', '404', '429'])
      for (const method of ['patch', 'delete'] as const) {
        const op = operation(path, method)
        expect(
          op.parameters?.find((p) => p.in === 'header' && p.name === 'if-match'),
          `${method} documents If-Match`,
        ).toBeDefined()
        for (const status of ['400', '412', '413', '415', '428'])
          expect(op.responses[status], `${method} ${status}`).toBeDefined()
      }
      expect(operation(path, 'patch').responses['200']).toBeDefined()
      expect(operation(path, 'delete').responses['204']).toBeDefined()
      const body = operation(path, 'patch').requestBody?.content ?? {}
      expect(Object.keys(body)).toEqual(expect.arrayContaining(['application/json']))
      const properties = Object.keys((body['application/json']?.schema?.properties as object | undefined) ?? {}).sort()
      expect(properties).toEqual(
        [
          'coClientAsDonor',
          'dsueDateOfDeath',
          'dsueReceived',
          'deceasedSpouseName',
          'metadata',
          'name',
          'primaryClientAsDonor',
          ...ESTATE_SETTINGS,
        ].sort(),
      )
      const ids = PATHS.flatMap((p) => RECORD_METHODS.map((method) => operation(`${p}/{id}`, method).operationId))
      expect(new Set(ids).size).toBe(6)
    })

    it('GET: 200, 304, 404 (unknown, malformed, another org), 401, 403', async () => {
      const id = await fresh()
      const full = await expectRecordCall(id, 'get', { status: 200 }, { key: keys.all })
      expect(full.headers.get('etag')).toBe('"1"')
      await expectRecordCall(id, 'get', { status: 200 }, { key: keys.legacyRead })
      const [sample = ''] = sampleIds
      await expectRecordCall(sample, 'get', { status: 200 }, { key: keys.read })
      await expectRecordCall(id, 'get', { status: 304 }, { key: keys.all, headers: { 'if-none-match': '"1"' } })
      const other = await createOrgWithKey(store.db)
      for (const missing of [unknown, 'abc', id.slice(1)])
        await expectRecordCall(missing, 'get', { status: 404, code: 'not_found' }, { key: keys.all })
      await expectRecordCall(id, 'get', { status: 404, code: 'not_found' }, { key: other.key })
      await expectRecordCall(id, 'get', { status: 401, code: 'missing_credentials' }, {})
      await expectRecordCall(id, 'get', { status: 401, code: 'api_key_revoked' }, { key: keys.revoked })
      await expectRecordCall(id, 'get', { status: 403, code: 'missing_permission' }, { key: keys.embedOnly })
    })

    it('PATCH: 200, 400, 404, 409, 412, 413, 415, 428, 401, 403', async () => {
      const id = await fresh()
      const patched = await expectRecordCall(
        id,
        'patch',
        { status: 200 },
        {
          key: keys.all,
          body: { name: 'Patched', metadata: null },
          headers: { 'if-match': '"1"', 'content-type': 'application/merge-patch+json' },
        },
      )
      expect(patched.headers.get('etag')).toBe('"2"')
      await expectRecordCall(
        id,
        'patch',
        { status: 200 },
        { key: keys.legacyWrite, body: { dsueReceived: null }, headers: { 'if-match': '*' } },
      )
      for (const body of [
        {},
        { name: null },
        { name: '  ' },
        { dsueReceived: 1.005 },
        { metadata: [] },
        { other: 1 },
      ]) {
        await expectRecordCall(
          id,
          'patch',
          { status: 400, code: 'invalid_body' },
          { key: keys.all, body, headers: { 'if-match': '*' } },
        )
      }
      await expectRecordCall(
        id,
        'patch',
        { status: 400, code: 'invalid_json' },
        { key: keys.all, body: '{"name":', headers: { 'if-match': '*' } },
      )
      await expectRecordCall(
        unknown,
        'patch',
        { status: 404, code: 'not_found' },
        { key: keys.all, body: { name: 'x' }, headers: { 'if-match': '*' } },
      )
      await expectRecordCall(
        id,
        'patch',
        { status: 412, code: 'precondition_failed' },
        { key: keys.all, body: { name: 'x' }, headers: { 'if-match': '"1"' } },
      )
      await expectRecordCall(
        id,
        'patch',
        { status: 413, code: 'body_too_large' },
        {
          key: keys.all,
          body: JSON.stringify({ metadata: { blob: 'x'.repeat(1024 * 1024) } }),
          headers: { 'if-match': '*' },
        },
      )
      await expectRecordCall(
        id,
        'patch',
        { status: 415, code: 'unsupported_media_type' },
        { key: keys.all, body: '{"name":"x"}', headers: { 'if-match': '*', 'content-type': 'text/plain' } },
      )
      await expectRecordCall(
        id,
        'patch',
        { status: 428, code: 'precondition_required' },
        { key: keys.all, body: { name: 'x' } },
      )
      const holder = await fresh()
      await expectRecordCall(
        holder,
        'patch',
        { status: 200 },
        { key: keys.all, body: { externalId: `held-${holder}` }, headers: { 'if-match': '*' } },
      )
      const taken = await expectRecordCall(
        id,
        'patch',
        { status: 409, code: 'household_external_id_taken' },
        { key: keys.all, body: { externalId: `held-${holder}` }, headers: { 'if-match': '*' } },
      )
      expect(taken.body).toMatchObject({ existingId: holder, field: '/externalId' })
      await expectRecordCall(
        id,
        'patch',
        { status: 401, code: 'invalid_credentials' },
        { key: 'idx_short', body: { name: 'x' }, headers: { 'if-match': '*' } },
      )
      await expectRecordCall(
        id,
        'patch',
        { status: 403, code: 'missing_permission' },
        { key: keys.read, body: { name: 'x' }, headers: { 'if-match': '*' } },
      )
    })

    it('DELETE: 204, 400, 404, 412, 413, 415, 428, 401, 403', async () => {
      const id = await fresh()
      await expectRecordCall(id, 'delete', { status: 428, code: 'precondition_required' }, { key: keys.all })
      await expectRecordCall(
        id,
        'delete',
        { status: 412, code: 'precondition_failed' },
        { key: keys.all, headers: { 'if-match': '"2"' } },
      )
      // A body on a DELETE is ignored, but it is still read: bad JSON, another type or too much is refused.
      await expectRecordCall(
        id,
        'delete',
        { status: 400, code: 'invalid_json' },
        { key: keys.all, body: '{', headers: { 'if-match': '*' } },
      )
      await expectRecordCall(
        id,
        'delete',
        { status: 415, code: 'unsupported_media_type' },
        { key: keys.all, body: 'x', headers: { 'if-match': '*', 'content-type': 'text/plain' } },
      )
      await expectRecordCall(
        id,
        'delete',
        { status: 413, code: 'body_too_large' },
        { key: keys.all, body: JSON.stringify({ blob: 'x'.repeat(1024 * 1024) }), headers: { 'if-match': '*' } },
      )
      await expectRecordCall(
        id,
        'delete',
        { status: 401, code: 'api_key_expired' },
        { key: keys.expired, headers: { 'if-match': '*' } },
      )
      await expectRecordCall(
        id,
        'delete',
        { status: 403, code: 'missing_permission' },
        { key: keys.legacyRead, headers: { 'if-match': '*' } },
      )
      await expectRecordCall(id, 'delete', { status: 204 }, { key: keys.legacyWrite, headers: { 'if-match': '"1"' } })
      await expectRecordCall(
        id,
        'delete',
        { status: 404, code: 'not_found' },
        { key: keys.all, headers: { 'if-match': '*' } },
      )
    })

    it('429 on each operation, with resetAt', async () => {
      const limited = await startApp(store, { rateLimitMax: 1, rateLimitWindowSeconds: 3600 })
      try {
        const id = await fresh()
        for (const method of RECORD_METHODS) {
          const key = (await createKey(store.db, orgId, ALL_PERMISSIONS)).key
          const init = {
            key,
            base: limited.url,
            body: method === 'patch' ? { name: 'x' } : undefined,
            headers: { 'if-match': '*' },
          }
          await expectRecordCall(id, 'get', { status: 200 }, { ...init, body: undefined })
          const refused = await expectRecordCall(id, method, { status: 429, code: 'rate_limited' }, init)
          expect(refused.body.resetAt).toEqual(expect.any(String))
        }
      } finally {
        await limited.close()
      }
    })

    it('every status documented for the three operations was produced and checked above', () => {
      for (const method of RECORD_METHODS) {
        const documented = Object.keys(operation(path, method).responses).map(Number)
        const seen = produced.get(`${method} ${path}`) ?? new Set<number>()
        expect(
          documented.filter((status) => !seen.has(status)),
          `${method.toUpperCase()} ${path}: documented but never produced`,
        ).toEqual([])
      }
    })
  })
})
