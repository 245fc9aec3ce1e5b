// The web app on the API origin over HTTP: its pages are one shell with a strict CSP, its assets
// are content-hashed and immutable (gzip when accepted), and GET /api/v1/me says who is signed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, startApp, type TestApp } from '../helpers/app.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import { createSession } from '../../src/auth/sessions.ts'

describe('web app routes', () => {
  let store: TestStore
  let api: TestApp

  beforeAll(async () => {
    store = await openTestStore('pglite')
    api = await startApp(store, { embedOrigin: 'https://embed.example.com' })
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('sends / to the households page', async () => {
    const response = await fetch(`${api.url}/`, { redirect: 'manual' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/households')
  })

  it.each(['/households', '/households/new', '/households/0b1c', '/admin/keys', '/signed-out'])(
    'serves the shell at %s with the app policy',
    async (path) => {
      const response = await fetch(`${api.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(response.headers.get('cache-control')).toBe('no-cache')
      const policy = response.headers.get('content-security-policy') ?? ''
      expect(policy).toContain("script-src 'self'")
      expect(policy).toContain('frame-src https://embed.example.com')
      expect(policy).toContain("frame-ancestors 'none'")
      expect(await response.text()).toMatch(/<script type="module" src="\/app\/app-[0-9a-f]{12}\.js"><\/script>/)
    },
  )

  it('points a browser without JavaScript to the API reference, which is there', async () => {
    const html = await (await fetch(`${api.url}/households`)).text()
    const noscript = /<noscript>(.*?)<\/noscript>/s.exec(html)?.[1] ?? ''
    const reference = /href="([^"]+)"/.exec(noscript)?.[1]
    expect(reference).toBe('/docs')
    const docs = await fetch(`${api.url}${reference}`)
    expect(docs.status).toBe(200)
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it('serves the hashed assets immutable, gzipped when the browser accepts it, and 404 for others', async () => {
    const html = await (await fetch(`${api.url}/households`)).text()
    const script = /src="(\/app\/[^"]+\.js)"/.exec(html)?.[1] ?? ''
    const gzipped = await fetch(`${api.url}${script}`, { headers: { 'accept-encoding': 'gzip' } })
    expect(gzipped.status).toBe(200)
    expect(gzipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(gzipped.headers.get('content-type')).toMatch(/^text\/javascript/)
    const plain = await fetch(`${api.url}${script}`, { headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers.get('content-encoding')).toBeNull()
    const body = Buffer.from(await plain.arrayBuffer())
    expect(body.length).toBeGreaterThan(1000)
    expect((await fetch(`${api.url}/app/app-000000000000.js`)).status).toBe(404)
    // fetch decodes gzip itself: what arrived is the same script.
    expect(Buffer.from(await gzipped.arrayBuffer()).equals(body)).toBe(true)
  })

  it('GET /api/v1/me names the signed-in user, their org and what their role allows; keys are not users', async () => {
    const org = await createOrg(store.db, 'Me & Co <b>')
    const user = await createUser(store.db, {
      orgId: org.id,
      email: 'viv@example.com',
      name: 'Viv Viewer',
      role: 'viewer',
    })
    if (!user) throw new Error('no user')
    const { value } = await createSession(store.db, { id: user.id, orgId: org.id })
    const me = await call(`${api.url}/api/v1/me`, undefined, { headers: { cookie: `idp-session=${value}` } })
    expect(me.status).toBe(200)
    expect(me.body).toEqual({
      user: { id: user.id, email: 'viv@example.com', name: 'Viv Viewer', role: 'viewer' },
      org: { id: org.id, name: 'Me & Co <b>' },
      permissions: ['relationships:read', 'households:read'],
      // A session not made by sign-in (no identity bound): only its own organization.
      organizations: [{ id: org.id, name: 'Me & Co <b>', role: 'viewer', current: true, invited: false }],
    })
    const key = await createKey(store.db, org.id)
    const withKey = await call(`${api.url}/api/v1/me`, key.key)
    expect(withKey.status).toBe(401)
    expect((await call(`${api.url}/api/v1/me`, undefined)).status).toBe(401)
  })
})
