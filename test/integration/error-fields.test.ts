// Every request-shape error names its field: `field` is a JSON Pointer (RFC 6901) into the body,
// the query string or the headers, beside the unchanged `error` and `code`, and the OpenAPI
// document's error schema says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'

const REL = '/api/v1/relationships'

interface SchemaObject {
  $ref?: string
  properties?: Record<string, { type?: string; description?: string }>
  required?: string[]
}

describe.each(storeKinds())('error fields on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ key } = await createOrgWithKey(store.db))
  })
  afterAll(async () => {
    await api.close()
    await store.drop()
  })

  const url = (path: string) => `${api.url}${path}`
  const create = (body: unknown, headers: Record<string, string> = {}) =>
    call(url(REL), key, { method: 'POST', body, headers })

  it.each([
    ['a missing required property', {}, '/name', /^name is required$/],
    ['a wrong type', { name: 1 }, '/name', /^name must be a string$/],
    ['a property the schema does not have', { name: 'x', color: 'red' }, '/color', /^unknown field "color"/],
    ['an unknown property whose name needs escaping', { name: 'x', 'a/b~c': 1 }, '/a~1b~0c', /^unknown field "a\/b~c"/],
    ['an object field given a string', { name: 'x', metadata: 'text' }, '/metadata', /^metadata must be/],
    ['a body that is not an object', [], '', /must be an object/],
  ])('invalid_body for %s points at it', async (_, body, field, message) => {
    const response = await create(body)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'invalid_body', field })
    expect(response.body.error).toMatch(message)
  })

  it('invalid_body for a nested member field points into the array', async () => {
    const created = await create({ name: 'Pointer Family' })
    expect(created.status).toBe(201)
    const id = (created.body.household as { id: string }).id
    const etag = created.headers.get('etag') ?? ''
    const add = (body: unknown) =>
      call(url(`${REL}/${id}/members`), key, { method: 'POST', body, headers: { 'if-match': etag } })

    const badType = await add({
      name: 'Ada',
      role: 'child',
      relationships: [
        { memberId: '00000000-0000-4000-8000-000000000000', type: 'spouse' },
        { memberId: '00000000-0000-4000-8000-000000000001', type: 'cousin' },
      ],
    })
    expect(badType.status).toBe(400)
    expect(badType.body).toMatchObject({ code: 'invalid_body', field: '/relationships/1/type' })
    expect(badType.body.error).toMatch(/^relationships\.1\.type must be one of: /)

    const missing = await add({ name: 'Ada', role: 'child', relationships: [{ type: 'spouse' }] })
    expect(missing.body).toMatchObject({ code: 'invalid_body', field: '/relationships/0/memberId' })
    expect(missing.body.error).toBe('memberId is required')

    const role = await add({ name: 'Ada', role: 'cousin' })
    expect(role.body).toMatchObject({ code: 'invalid_body', field: '/role' })
  })

  it('rule errors past the schema name their field on the wire too: household, member, kinship, assignment', async () => {
    expect((await create({ name: '   ' })).body).toMatchObject({ code: 'invalid_body', field: '/name' })
    const created = await create({ name: 'Rules Family' })
    const id = (created.body.household as { id: string }).id
    const write = async (method: string, path: string, body: unknown) => {
      const etag = (await call(url(`${REL}/${id}`), key)).headers.get('etag') ?? ''
      return call(url(`${REL}/${id}${path}`), key, { method, body, headers: { 'if-match': etag } })
    }
    expect(
      (await write('POST', '/members', { name: 'Ann', role: 'child', email: 'ann@localhost' })).body,
    ).toMatchObject({ code: 'invalid_body', field: '/email' })
    const ann = await write('POST', '/members', { name: 'Ann', role: 'primaryClient' })
    expect(ann.status).toBe(201)
    const annId = (ann.body.member as { id: string }).id
    expect((await write('POST', '/members', { name: 'Bo', role: 'primaryClient' })).body).toMatchObject({
      code: 'member_role_taken',
      field: '/role',
    })
    const kinship = await write('POST', '/members', {
      name: 'Bo',
      role: 'child',
      relationships: [{ memberId: '00000000-0000-4000-8000-000000000000', type: 'parent' }],
    })
    expect(kinship.body).toMatchObject({ code: 'relationship_member_unknown', field: '/relationships/0/memberId' })
    expect(
      (await write('PATCH', `/members/${annId}`, { relationships: [{ memberId: annId, type: 'spouse' }] })).body,
    ).toMatchObject({ code: 'relationship_self', field: '/relationships/0/memberId' })
    const unknownUser = await write('PUT', '/assignments', {
      assignments: [{ userId: '00000000-0000-4000-8000-000000000000', role: 'leadAdvisor' }],
    })
    expect(unknownUser.body).toMatchObject({ code: 'assignment_user_unknown', field: '/assignments/0/userId' })
  })

  it.each([
    ['pageSize=5000', '/pageSize', 'pageSize must be <= 1000'],
    ['pageSize=0', '/pageSize', 'pageSize must be >= 1'],
    ['pageSize=many', '/pageSize', 'pageSize must be a whole number'],
    ['sortOrder=up', '/sortOrder', 'sortOrder must be one of: asc, desc'],
    // Past the schema: the listing's own rules.
    ['pageSize=Infinity', '/pageSize', 'pageSize must be a whole number'],
    ['ids=nope', '/ids', 'is not a household UUID'],
    ['isSample=true&excludeSample=true', '/excludeSample', 'contradict each other'],
    ['search=a%00b', '/search', 'NUL characters'],
    ['cursor=abc&page=2', '/page', 'send either page or cursor'],
  ])('invalid_query for %s points into the query string', async (query, field, message) => {
    const response = await call(url(`${REL}?${query}`), key)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'invalid_query', field })
    expect(response.body.error).toEqual(expect.stringContaining(message))
  })

  it('invalid_cursor points at the cursor', async () => {
    const response = await call(url(`${REL}?cursor=abc`), key)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'invalid_cursor', field: '/cursor' })
  })

  it('invalid_header points at the header by its lower-case name', async () => {
    const response = await create({ name: 'Header Family' }, { 'Idempotency-Key': 'has space' })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'invalid_header', field: '/idempotency-key' })
  })

  it('errors about no one field carry none', async () => {
    const response = await call(url(REL), key, { method: 'POST', body: '{"name":' })
    expect(response.body.code).toBe('invalid_json')
    expect(response.body).not.toHaveProperty('field')
  })

  it('the OpenAPI error schema documents field as a JSON Pointer', async () => {
    const doc = (await call(url('/api/v1/openapi.json'), undefined)).body as {
      info: { description: string }
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: SchemaObject }> }> }>
      >
      components?: { schemas?: Record<string, SchemaObject> }
    }
    const resolve = (schema: SchemaObject): SchemaObject =>
      schema.$ref ? (doc.components?.schemas?.[schema.$ref.split('/').at(-1) ?? ''] ?? {}) : schema
    for (const [path, method] of [
      ['/api/v1/relationships', 'post'],
      ['/api/v1/relationships', 'get'],
    ] as const) {
      const schema = doc.paths[path]?.[method]?.responses['400']?.content?.['application/json']?.schema
      expect(schema, `${method} ${path} 400`).toBeDefined()
      const resolved = resolve(schema ?? {})
      const field = resolved.properties?.field
      expect(field?.type).toBe('string')
      expect(field?.description).toMatch(/JSON Pointer \(RFC 6901\)/)
      expect(field?.description).toContain('/pageSize')
      expect(resolved.required ?? []).not.toContain('field')
    }
    // The description's section on errors tells partners to place messages by field.
    expect(doc.info.description).toMatch(/also has `field`, a JSON Pointer \(RFC 6901\)/)
  })
})
