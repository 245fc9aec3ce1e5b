// The whole web app on loopback, as `npm start` runs it: a real store, the embed origin with the
// chart built from the current source, the development identity provider, and the API (with the
// web app) whose public URL is its real address. An org with one user per role; signIn walks the
// real sign-in (the provider's page, the callback) in Chromium.
import type { FastifyInstance } from 'fastify'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { startApp } from './app.ts'
import { buildEmbedApp } from '../../src/embed/server.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { startDevIdentityProvider, type DevIdentityProvider } from '../../src/dev-idp/server.ts'
import { OidcSignIn, CALLBACK_PATH } from '../../src/auth/oidc.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'
import { freePort } from '../../src/net/free-port.ts'
import { currentChartRelease } from './chart-stack.ts'
import { openTestStore, type TestStore } from './stores.ts'

export interface WebUser {
  id: string
  email: string
  name: string
  role: UserRole
}

export interface WebStack {
  store: TestStore
  /** The web app and API, e.g. http://127.0.0.1:41234 */
  url: string
  embedOrigin: string
  idp: DevIdentityProvider
  orgId: string
  users: Record<UserRole, WebUser>
  /** Adds another organization with an admin, for tenancy tests. */
  addOrg(name: string): Promise<{ orgId: string; admin: WebUser }>
  /** Signs in through the development identity provider as this address; the page ends on returnTo. */
  signIn(page: Page, email: string, returnTo?: string): Promise<void>
  close(): Promise<void>
}

export async function startWebStack(): Promise<WebStack> {
  const store = await openTestStore('pglite')
  // The API must know its address (its public URL) before it listens.
  const port = await freePort('127.0.0.1')
  const url = `http://127.0.0.1:${port}`
  // The embed origin lets the web app (url) frame the chart.
  const embedApp: FastifyInstance = buildEmbedApp({
    db: store.db,
    releases: await currentChartRelease(),
    limiter: new RateLimiter(new MemoryRateLimitStore()),
    addressBudget: { limit: 100_000, windowSeconds: 60 },
    appOrigin: url,
  })
  await embedApp.listen({ host: '127.0.0.1', port: 0 })
  const embedOrigin = `http://127.0.0.1:${(embedApp.server.address() as AddressInfo).port}`
  const idp = await startDevIdentityProvider({ host: '127.0.0.1', port: 0, redirectUri: `${url}${CALLBACK_PATH}` })
  const api = await startApp(store, { publicUrl: url, port, embedOrigin, oidc: new OidcSignIn(store.db, idp, url) })

  async function addUser(orgId: string, role: UserRole, email: string, name: string): Promise<WebUser> {
    const user = await createUser(store.db, { orgId, email, name, role })
    if (!user) throw new Error(`could not create ${email}`)
    return { id: user.id, email, name, role }
  }

  const org = await createOrg(store.db, 'Test Wealth Partners')
  const users = {
    admin: await addUser(org.id, 'admin', 'ada.admin@example.com', 'Ada Admin'),
    advisor: await addUser(org.id, 'advisor', 'avi.advisor@example.com', 'Avi Advisor'),
    viewer: await addUser(org.id, 'viewer', 'vera.viewer@example.com', 'Vera Viewer'),
  }

  return {
    store,
    url,
    embedOrigin,
    idp,
    orgId: org.id,
    users,
    async addOrg(name) {
      const other = await createOrg(store.db, name)
      const slug = name.toLowerCase().replace(/[^a-z]+/g, '.')
      return { orgId: other.id, admin: await addUser(other.id, 'admin', `admin@${slug}.example.com`, `${name} Admin`) }
    },
    async signIn(page, email, returnTo = '/households') {
      await page.goto(`${url}/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`)
      await page.getByLabel('Or sign in as another address').fill(email)
      await page.getByRole('button', { name: 'Continue' }).click()
      await page.waitForURL(`${url}${returnTo}`)
    },
    async close() {
      await api.close()
      await idp.close()
      await embedApp.close()
      await store.drop()
    },
  }
}
