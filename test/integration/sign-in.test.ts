// Sign-in to the web app with OpenID Connect, over real HTTP on loopback, as a browser walks it:
// Hearth's /auth/sign-in, the identity provider, Hearth's /auth/callback — with fetch, manual
// redirects and a cookie jar (test/helpers/oidc-walk.ts), no browser.
//
// Two providers: the development one (oidc-provider, as `npm start` runs it) for the flow itself,
// and a fake one (test/helpers/fake-oidc-provider.ts) that can be made to lie in its ID tokens
// (wrong nonce, issuer, audience, expired, bad signature) or to claim any email address.
// Every refusal is a page, and never a session.
import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { startApp } from '../helpers/app.ts'
import { startSignInApp, type SignInApp } from '../helpers/sign-in-app.ts'
import { HttpBrowser, setCookieFor, signInOverHttp, walkToCallback, type Hop } from '../helpers/oidc-walk.ts'
import { freePort } from '../../src/net/free-port.ts'
import { startFakeOidcProvider, type FakeOidcProvider, type IdTokenTamper } from '../helpers/fake-oidc-provider.ts'
import { startDevIdentityProvider, type DevIdentityProvider } from '../../src/dev-idp/server.ts'
import { ATTEMPT_LIFETIME_MS, CALLBACK_PATH, SIGN_IN_STATE_COOKIE } from '../../src/auth/oidc.ts'
import { SESSION_COOKIE } from '../../src/auth/sessions.ts'
import { signInIdentity } from '../../src/store/user-identities.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'

const HOME = '/households'

interface Invitee {
  id: string
  email: string
  orgId: string
}

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex')

/** The Set-Cookie attributes, lower-cased, without the name=value pair. */
function cookieAttributes(header: string | undefined): string[] {
  return (header ?? '')
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase())
}

describe.each(storeKinds())('sign-in with OpenID Connect on %s', (kind) => {
  let store: TestStore
  let idp: DevIdentityProvider
  let dev: SignInApp
  let fake: FakeOidcProvider
  let viaFake: SignInApp
  let orgId: string
  let otherOrgId: string

  async function invite(email: string, role: UserRole = 'advisor', org = orgId): Promise<Invitee> {
    const user = await createUser(store.db, { orgId: org, email, name: email.split('@')[0] ?? email, role })
    if (!user) throw new Error(`could not invite ${email}`)
    return { id: user.id, email, orgId: org }
  }

  const count = async (table: 'sessions' | 'users' | 'sign_in_attempts') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const sessionsOf = async (userId: string) =>
    Number(
      (
        await store.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const userRow = (id: string) =>
    store.db
      .selectFrom('users')
      .select(['idp_issuer', 'idp_subject', 'last_sign_in_at', 'email'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const me = (url: string, browser: HttpBrowser) => browser.request(`${url}/api/v1/me`)

  /** A refusal: the page, and nothing signed in. */
  function expectRefusalPage(hop: Hop, status: number, title: string) {
    expect(hop.status).toBe(status)
    expect(hop.headers.get('content-type')).toMatch(/^text\/html/)
    expect(hop.headers.get('cache-control')).toBe('no-store')
    expect(hop.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(hop.body).toContain(`<h1>${title}</h1>`)
    expect(hop.body).toContain('href="/auth/sign-in?returnTo=')
    expect(setCookieFor(hop, SESSION_COOKIE)).toBeUndefined()
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    dev = await startSignInApp(store, async (redirectUri) => {
      idp = await startDevIdentityProvider({ host: '127.0.0.1', port: 0, redirectUri })
      return idp
    })
    viaFake = await startSignInApp(store, async (redirectUri) => {
      fake = await startFakeOidcProvider({ redirectUri })
      return fake
    })
    orgId = (await createOrg(store.db, 'Sign-in Wealth Partners')).id
    otherOrgId = (await createOrg(store.db, 'Another Firm')).id
  })
  afterAll(async () => {
    await dev?.api.close()
    await viaFake?.api.close()
    await idp?.close()
    await fake?.close()
    await store?.drop()
  })

  describe('the happy path (development provider)', () => {
    it('starts at the provider with PKCE, state and nonce, the state in a cookie on /auth', async () => {
      const browser = new HttpBrowser()
      const start = await browser.request(
        `${dev.url}/auth/sign-in?returnTo=${encodeURIComponent('/households?q=smith')}`,
      )
      expect(start.status).toBe(302)
      expect(start.headers.get('cache-control')).toBe('no-store')
      const to = start.location ?? new URL('about:blank')
      expect(to.origin).toBe(idp.issuer)
      const query = Object.fromEntries(to.searchParams)
      expect(query).toMatchObject({
        client_id: idp.clientId,
        redirect_uri: `${dev.url}${CALLBACK_PATH}`,
        response_type: 'code',
        scope: 'openid email profile',
        code_challenge_method: 'S256',
      })
      expect(query.code_challenge).toMatch(/^[\w-]{43}$/)
      expect(query.nonce).toMatch(/^[\w-]{20,}$/)
      expect(query.state).toMatch(/^[\w-]{20,}$/)

      const stateCookie = setCookieFor(start, SIGN_IN_STATE_COOKIE)
      expect(stateCookie?.startsWith(`${SIGN_IN_STATE_COOKIE}=${query.state ?? ''};`)).toBe(true)
      const attributes = cookieAttributes(stateCookie)
      expect(attributes).toEqual(
        expect.arrayContaining(['httponly', 'samesite=lax', 'path=/auth', `max-age=${ATTEMPT_LIFETIME_MS / 1000}`]),
      )
      expect(attributes).not.toContain('secure')
      // Kept server-side by the state's hash only, with where to return.
      const attempt = await store.db
        .selectFrom('sign_in_attempts')
        .selectAll()
        .where('state_hash', '=', stateHash(query.state ?? ''))
        .executeTakeFirstOrThrow()
      expect(attempt.return_to).toBe('/households?q=smith')
      expect(attempt.nonce).toBe(query.nonce)
      expect(
        await store.db
          .selectFrom('sign_in_attempts')
          .select('state_hash')
          .where('state_hash', '=', query.state ?? '')
          .execute(),
      ).toEqual([])
    })

    it('signs an invited person in: 303 to returnTo, an idp-session cookie, /api/v1/me, the identity bound', async () => {
      const ana = await invite('ana.advisor@example.com')
      const users = await count('users')
      const browser = new HttpBrowser()
      const before = new Date()
      const { callback, stateCookie } = await signInOverHttp(browser, dev.url, {
        returnTo: '/households?q=smith',
        choice: { email: ana.email },
      })
      const after = new Date()

      expect(callback.status).toBe(303)
      expect(callback.headers.get('location')).toBe('/households?q=smith')
      expect(callback.headers.get('cache-control')).toBe('no-store')
      const session = setCookieFor(callback, SESSION_COOKIE)
      expect(session).toMatch(/^idp-session=[\w-]{43};/)
      const attributes = cookieAttributes(session)
      expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']))
      expect(attributes).not.toContain('secure') // http://127.0.0.1: a Secure cookie would never come back
      // The state cookie is cleared, on its own path, and its attempt is spent.
      expect(cookieAttributes(setCookieFor(callback, SIGN_IN_STATE_COOKIE))).toContain('path=/auth')
      expect(browser.jar.get(dev.url, SIGN_IN_STATE_COOKIE)).toBeUndefined()
      expect(
        await store.db
          .selectFrom('sign_in_attempts')
          .select('state_hash')
          .where('state_hash', '=', stateHash(stateCookie ?? ''))
          .execute(),
      ).toEqual([])

      const profile = await me(dev.url, browser)
      expect(profile.status).toBe(200)
      expect(JSON.parse(profile.body)).toMatchObject({
        user: { id: ana.id, email: ana.email, role: 'advisor' },
        org: { id: orgId },
      })

      const row = await userRow(ana.id)
      expect(row).toMatchObject({ idp_issuer: idp.issuer, idp_subject: `email:${ana.email}` })
      expect(row.last_sign_in_at?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1)
      expect(row.last_sign_in_at?.getTime()).toBeLessThanOrEqual(after.getTime() + 1)
      expect(await sessionsOf(ana.id)).toBe(1)

      // Signing in again (another browser) finds the same user by issuer + subject: a new session.
      const again = new HttpBrowser()
      const second = await signInOverHttp(again, dev.url, { choice: { email: ana.email } })
      expect(second.callback.status).toBe(303)
      expect(second.callback.headers.get('location')).toBe(HOME)
      expect(setCookieFor(second.callback, SESSION_COOKIE)).not.toBe(session)
      expect(JSON.parse((await me(dev.url, again)).body)).toMatchObject({ user: { id: ana.id } })
      expect(await sessionsOf(ana.id)).toBe(2)
      expect(await count('users')).toBe(users) // signing in never creates a user
    })

    it('a demo person of the provider signs in too, by subject', async () => {
      const jordan = await invite('jordan.avery@example.com', 'admin')
      const browser = new HttpBrowser()
      const { callback } = await signInOverHttp(browser, dev.url, { choice: { subject: 'demo-advisor' } })
      expect(callback.status).toBe(303)
      expect(JSON.parse((await me(dev.url, browser)).body)).toMatchObject({ user: { id: jordan.id, role: 'admin' } })
      expect(await userRow(jordan.id)).toMatchObject({ idp_issuer: idp.issuer, idp_subject: 'demo-advisor' })
    })
  })

  describe('which user an identity is (the store)', () => {
    const issuer = 'https://login.example.test'

    it('binds the invitation by verified email (any case), then finds the user by issuer + subject even after the address changes', async () => {
      const casey = await invite('Casey.Carter@Example.com')
      const t0 = new Date('2030-01-01T00:00:00Z')
      expect(
        await signInIdentity(store.db, { issuer, subject: 'casey', verifiedEmail: 'casey.carter@example.com' }, t0),
      ).toEqual({ kind: 'signed_in', user: { id: casey.id, orgId, role: 'advisor' } })
      expect(await userRow(casey.id)).toMatchObject({ idp_issuer: issuer, idp_subject: 'casey', last_sign_in_at: t0 })

      const t1 = new Date('2030-01-02T00:00:00Z')
      expect(
        await signInIdentity(store.db, { issuer, subject: 'casey', verifiedEmail: 'casey@newmail.example' }, t1),
      ).toMatchObject({ user: { id: casey.id } })
      expect(await signInIdentity(store.db, { issuer, subject: 'casey', verifiedEmail: undefined }, t1)).toMatchObject({
        user: { id: casey.id },
      })
      expect(await userRow(casey.id)).toMatchObject({ last_sign_in_at: t1, email: 'Casey.Carter@Example.com' })
    })

    it('an invitation bound to one identity is not taken by another with the same address, nor by the same subject at another issuer', async () => {
      const dana = await invite('dana@example.com')
      await signInIdentity(store.db, { issuer, subject: 'dana-1', verifiedEmail: 'dana@example.com' }, new Date())
      expect(
        await signInIdentity(store.db, { issuer, subject: 'dana-2', verifiedEmail: 'dana@example.com' }, new Date()),
      ).toEqual({ kind: 'not_invited' })
      expect(
        await signInIdentity(
          store.db,
          { issuer: 'https://other-idp.example', subject: 'dana-1', verifiedEmail: undefined },
          new Date(),
        ),
      ).toEqual({ kind: 'not_invited' })
      expect(await userRow(dana.id)).toMatchObject({ idp_issuer: issuer, idp_subject: 'dana-1' })
    })

    it('an unverified address binds nothing', async () => {
      const eli = await invite('eli@example.com')
      expect(await signInIdentity(store.db, { issuer, subject: 'eli', verifiedEmail: undefined }, new Date())).toEqual({
        kind: 'not_invited',
      })
      expect(await userRow(eli.id)).toMatchObject({ idp_issuer: null, idp_subject: null, last_sign_in_at: null })
    })

    it('invitations in two organizations: neither is bound, the person chooses (organization-choice.test.ts)', async () => {
      const first = await invite('fran@example.com', 'viewer', orgId)
      const second = await invite('fran@example.com', 'admin', otherOrgId)
      expect(
        await signInIdentity(store.db, { issuer, subject: 'fran', verifiedEmail: 'fran@example.com' }, new Date()),
      ).toEqual({
        kind: 'choose',
        choices: [
          { orgId, orgName: 'Sign-in Wealth Partners', userId: first.id, role: 'viewer', invited: true },
          { orgId: otherOrgId, orgName: 'Another Firm', userId: second.id, role: 'admin', invited: true },
        ],
      })
      expect(await userRow(first.id)).toMatchObject({ idp_issuer: null, idp_subject: null, last_sign_in_at: null })
      expect(await userRow(second.id)).toMatchObject({ idp_issuer: null, idp_subject: null, last_sign_in_at: null })
    })

    it('lists the choices in the order the invitations were made, even within one millisecond', async () => {
      // Ids against the order of writing, one created_at: ordering by time and then id (as before
      // migration 0012) would list Another Firm first.
      const made = [
        { id: 'ffffffff-ffff-4fff-bfff-ffffffffffff', org_id: orgId, role: 'viewer' as const },
        { id: '00000000-0000-4000-8000-000000000001', org_id: otherOrgId, role: 'admin' as const },
      ]
      for (const user of made)
        await sql`INSERT INTO users (id, org_id, email, name, role, created_at)
          VALUES (${user.id}, ${user.org_id}, 'gus@example.com', 'Gus', ${user.role}, '2026-01-01T00:00:00Z')`.execute(
          store.db,
        )
      const outcome = await signInIdentity(
        store.db,
        { issuer, subject: 'gus', verifiedEmail: 'gus@example.com' },
        new Date(),
      )
      expect(outcome.kind === 'choose' ? outcome.choices.map((choice) => choice.userId) : outcome).toEqual(
        made.map((user) => user.id),
      )
    })

    it('an identity whose new address has an open invitation in an organization it already belongs to still signs in', async () => {
      // Gale (bound) changes her address at the provider to one her organization also invited.
      const gale = await invite('gale@example.com')
      await signInIdentity(store.db, { issuer, subject: 'gale', verifiedEmail: 'gale@example.com' }, new Date())
      const invitation = await invite('gale.new@example.com')
      expect(
        await signInIdentity(store.db, { issuer, subject: 'gale', verifiedEmail: 'gale.new@example.com' }, new Date()),
      ).toMatchObject({ user: { id: gale.id } })
      expect(await userRow(invitation.id)).toMatchObject({ idp_issuer: null, idp_subject: null })
    })
  })

  describe('a callback with the wrong state', () => {
    it("is refused without the state cookie (a callback opened in another browser), with another sign-in's cookie, or with no state: 400, no session", async () => {
      const hana = await invite('hana@example.com')
      const browser = new HttpBrowser()
      const walk = await walkToCallback(browser, dev.url, { choice: { email: hana.email } })
      const sessions = await count('sessions')

      // The attacker's own sign-in, to plant its state cookie (login CSRF).
      const attacker = await walkToCallback(new HttpBrowser(), dev.url, { choice: { email: 'mallory@example.org' } })
      const attempts = [
        { url: walk.callbackUrl, cookie: '' },
        { url: walk.callbackUrl, cookie: `${SIGN_IN_STATE_COOKIE}=${attacker.stateCookie ?? ''}` },
        { url: attacker.callbackUrl, cookie: `${SIGN_IN_STATE_COOKIE}=${walk.stateCookie ?? ''}` },
        { url: withoutState(walk.callbackUrl), cookie: `${SIGN_IN_STATE_COOKIE}=${walk.stateCookie ?? ''}` },
        { url: withoutState(walk.callbackUrl), cookie: '' },
        { url: walk.callbackUrl, cookie: `${SIGN_IN_STATE_COOKIE}=${walk.stateCookie ?? ''}x` },
      ]
      for (const attempt of attempts) {
        const refused = await new HttpBrowser().request(attempt.url, { cookie: attempt.cookie })
        expectRefusalPage(refused, 400, 'Sign-in could not be verified')
      }
      expect(await count('sessions')).toBe(sessions)
      expect(await sessionsOf(hana.id)).toBe(0)

      // None of that spent the real sign-in: its own browser still finishes it.
      const finished = await browser.request(walk.callbackUrl)
      expect(finished.status).toBe(303)
      expect(await sessionsOf(hana.id)).toBe(1)
    })
  })

  describe('a replayed callback', () => {
    it('the very same callback URL and cookie again is refused: 400, no second session', async () => {
      const ivan = await invite('ivan@example.com')
      const browser = new HttpBrowser()
      const { callbackUrl, stateCookie, callback } = await signInOverHttp(browser, dev.url, {
        choice: { email: ivan.email },
      })
      expect(callback.status).toBe(303)
      const sessions = await count('sessions')

      const replayed = await new HttpBrowser().request(callbackUrl, {
        cookie: `${SIGN_IN_STATE_COOKIE}=${stateCookie ?? ''}`,
      })
      expectRefusalPage(replayed, 400, 'This sign-in has expired')
      expect(await count('sessions')).toBe(sessions)
      expect(await sessionsOf(ivan.id)).toBe(1)
    })

    it("does not even reach the provider's token endpoint again", async () => {
      const jo = await invite('jo@example.com')
      fake.identity = { subject: 'jo', email: jo.email, emailVerified: true }
      const { callbackUrl, stateCookie, callback } = await signInOverHttp(new HttpBrowser(), viaFake.url)
      expect(callback.status).toBe(303)
      const tokenRequests = fake.tokenRequests
      const replayed = await new HttpBrowser().request(callbackUrl, {
        cookie: `${SIGN_IN_STATE_COOKIE}=${stateCookie ?? ''}`,
      })
      expectRefusalPage(replayed, 400, 'This sign-in has expired')
      expect(fake.tokenRequests).toBe(tokenRequests)
      expect(await sessionsOf(jo.id)).toBe(1)
    })
  })

  describe('ID tokens that do not pass the checks (fake provider)', () => {
    const tampers: [IdTokenTamper, string][] = [
      ['nonce', 'a nonce other than the one Hearth sent'],
      ['issuer', 'another issuer'],
      ['audience', 'another audience'],
      ['expired', 'an expiry in the past'],
      ['signature', 'a signature by a key the provider does not publish'],
    ]

    it.each(tampers)(
      'an ID token with %s (%s) is refused: 400 "could not be verified", no session, the invitation not bound',
      async (tamper) => {
        const target = await invite(`target.${tamper}@example.com`)
        fake.identity = { subject: `target-${tamper}`, email: target.email, emailVerified: true }
        fake.tamper = tamper
        try {
          const sessions = await count('sessions')
          const browser = new HttpBrowser()
          const { callback, callbackUrl, stateCookie } = await signInOverHttp(browser, viaFake.url)
          expectRefusalPage(callback, 400, 'Sign-in could not be verified')
          expect(callback.body).toContain('did not pass our checks')
          expect(await count('sessions')).toBe(sessions)
          expect(await userRow(target.id)).toMatchObject({ idp_issuer: null, idp_subject: null, last_sign_in_at: null })
          expect((await me(viaFake.url, browser)).status).toBe(401)
          // The attempt is spent all the same.
          const again = await new HttpBrowser().request(callbackUrl, {
            cookie: `${SIGN_IN_STATE_COOKIE}=${stateCookie ?? ''}`,
          })
          expectRefusalPage(again, 400, 'This sign-in has expired')
        } finally {
          fake.tamper = undefined
        }
        // The same identity with an honest token signs in: the refusal was the tampering's doing.
        const honest = await signInOverHttp(new HttpBrowser(), viaFake.url)
        expect(honest.callback.status).toBe(303)
        expect(await sessionsOf(target.id)).toBe(1)
      },
    )
  })

  describe('not invited', () => {
    it('an address no organization invited gets a 403 page naming it, no session and no user row', async () => {
      const users = await count('users')
      const sessions = await count('sessions')
      const browser = new HttpBrowser()
      const { callback } = await signInOverHttp(browser, dev.url, { choice: { email: 'stranger@example.org' } })
      expectRefusalPage(callback, 403, 'You have not been invited')
      expect(callback.body).toContain(
        'You signed in as stranger@example.org, but no organization on this Hearth has invited that address.',
      )
      expect(await count('users')).toBe(users)
      expect(await count('sessions')).toBe(sessions)
      expect(
        await store.db.selectFrom('users').select('id').where('email', '=', 'stranger@example.org').execute(),
      ).toEqual([])
      expect((await me(dev.url, browser)).status).toBe(401)
    })

    it('an unverified address does not bind its invitation: 403, and the page does not claim nobody invited it', async () => {
      const kim = await invite('kim@example.com')
      fake.identity = { subject: 'kim-unverified', email: kim.email, emailVerified: false }
      const { callback } = await signInOverHttp(new HttpBrowser(), viaFake.url)
      expectRefusalPage(callback, 403, 'You have not been invited')
      expect(callback.body).toContain('did not give us a verified email address')
      expect(callback.body).not.toContain('no organization on this Hearth has invited that address')
      expect(await userRow(kim.id)).toMatchObject({ idp_issuer: null, idp_subject: null, last_sign_in_at: null })
      expect(await sessionsOf(kim.id)).toBe(0)

      // No email at all: the same page.
      fake.identity = { subject: 'no-email' }
      const noEmail = await signInOverHttp(new HttpBrowser(), viaFake.url)
      expectRefusalPage(noEmail.callback, 403, 'You have not been invited')
      expect(noEmail.callback.body).toContain('did not give us a verified email address')
    })
  })

  describe('where sign-in returns to', () => {
    const returnsTo = async (returnTo: string): Promise<string | null> => {
      const { callback } = await signInOverHttp(new HttpBrowser(), viaFake.url, { returnTo })
      expect(callback.status, `returnTo ${JSON.stringify(returnTo).slice(0, 80)}`).toBe(303)
      return callback.headers.get('location')
    }

    it('never another site nor /auth: open-redirect attempts all end on /households; a path with a query is kept', async () => {
      const lee = await invite('lee@example.com')
      fake.identity = { subject: 'lee', email: lee.email, emailVerified: true }
      for (const attempt of [
        'https://evil.example',
        '//evil.example',
        '/\\evil.example',
        '\\\\evil.example',
        '/auth/callback',
        '/auth/sign-in?returnTo=https://evil.example',
        `/households?q=${'a'.repeat(5000)}`,
        '/households\r\nSet-Cookie: planted=1',
        '/\t/evil.example',
        'javascript:alert(1)',
      ]) {
        expect(await returnsTo(attempt), JSON.stringify(attempt).slice(0, 80)).toBe(HOME)
      }
      expect(await returnsTo('/households/0b7c6f0e-2f7a-4d0c-9d7e-5b1c2b8f1a11?tab=chart&q=a%20b')).toBe(
        '/households/0b7c6f0e-2f7a-4d0c-9d7e-5b1c2b8f1a11?tab=chart&q=a%20b',
      )
      expect(await returnsTo('/admin/users')).toBe('/admin/users')
    })

    it('a path with characters a header cannot carry as they are still returns there, percent-encoded', async () => {
      const mo = await invite('mo@example.com')
      fake.identity = { subject: 'mo', email: mo.email, emailVerified: true }
      const location = await returnsTo('/households?q=Zoë €')
      expect(new URL(location ?? '', viaFake.url).searchParams.get('q')).toBe('Zoë €')
      expect(new URL(location ?? '', viaFake.url).origin).toBe(viaFake.url)
      expect(await sessionsOf(mo.id)).toBe(1)
    })
  })

  describe('failure pages show what they quote as text', () => {
    it('an address with markup in it is escaped on the not-invited page', async () => {
      const email = '"<img src=x onerror=alert(1)>"@example.com'
      fake.identity = { subject: 'markup', email, emailVerified: true }
      const { callback } = await signInOverHttp(new HttpBrowser(), viaFake.url)
      expectRefusalPage(callback, 403, 'You have not been invited')
      expect(callback.body).not.toContain('<img')
      expect(callback.body).toContain('&lt;img src=x onerror=alert(1)&gt;')
      expect(callback.body).toContain('&quot;&lt;img')
    })

    it("the provider's error description is escaped too", async () => {
      const browser = new HttpBrowser()
      const { callbackUrl } = await walkToCallback(browser, viaFake.url)
      const denied = new URL(callbackUrl)
      denied.search = ''
      denied.searchParams.set('error', 'access_denied')
      denied.searchParams.set('error_description', '<script>alert(1)</script>')
      denied.searchParams.set('state', callbackUrl.searchParams.get('state') ?? '')
      const page = await browser.request(denied)
      expectRefusalPage(page, 400, 'Sign-in was not completed')
      expect(page.body).not.toContain('<script>alert')
      expect(page.body).toContain('access_denied: &lt;script&gt;alert(1)&lt;/script&gt;')
    })
  })

  describe('sign-in attempts expire after ten minutes', () => {
    it('a callback to an attempt past its expiry is refused, and nothing is signed in', async () => {
      const nia = await invite('nia@example.com')
      const browser = new HttpBrowser()
      const walk = await walkToCallback(browser, dev.url, { choice: { email: nia.email } })
      await store.db
        .updateTable('sign_in_attempts')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('state_hash', '=', stateHash(walk.stateCookie ?? ''))
        .execute()
      const page = await browser.request(walk.callbackUrl)
      expectRefusalPage(page, 400, 'This sign-in has expired')
      expect(await sessionsOf(nia.id)).toBe(0)
      expect(await userRow(nia.id)).toMatchObject({ idp_subject: null })
    })

    it('finish() later than ATTEMPT_LIFETIME_MS after start refuses and spends the attempt; just before, it signs in', async () => {
      const oz = await invite('oz@example.com')
      const late = await walkToCallback(new HttpBrowser(), dev.url, { choice: { email: oz.email } })
      const expired = await dev.oidc.finish(
        late.callbackUrl,
        late.stateCookie,
        new Date(Date.now() + ATTEMPT_LIFETIME_MS + 1000),
      )
      expect(expired).toEqual({ ok: false, failure: { reason: 'attempt_unknown' } })
      expect(
        await store.db
          .selectFrom('sign_in_attempts')
          .select('state_hash')
          .where('state_hash', '=', stateHash(late.stateCookie ?? ''))
          .execute(),
      ).toEqual([])

      const startedAt = new Date()
      const inTime = await walkToCallback(new HttpBrowser(), dev.url, { choice: { email: oz.email } })
      const finished = await dev.oidc.finish(
        inTime.callbackUrl,
        inTime.stateCookie,
        new Date(startedAt.getTime() + ATTEMPT_LIFETIME_MS - 1000),
      )
      expect(finished).toMatchObject({ ok: true, user: { id: oz.id }, returnTo: HOME })
    })
  })

  describe('a provider that cannot be reached', () => {
    it('answers 502 with a readable page, and signs in once the provider is up (discovery retried)', async () => {
      // Nothing listens at the issuer yet; the provider starts there later.
      const providerPort = await freePort('127.0.0.1')
      const settings = {
        issuer: `http://127.0.0.1:${providerPort}`,
        clientId: 'hearth-test',
        clientSecret: 'late-secret',
      }
      const app = await startSignInApp(store, async () => settings)
      let late: FakeOidcProvider | undefined
      try {
        const attempts = await count('sign_in_attempts')
        const browser = new HttpBrowser()
        const down = await browser.request(`${app.url}/auth/sign-in?returnTo=/admin`)
        expectRefusalPage(down, 502, 'The identity provider cannot be reached')
        expect(down.body).toContain('Try again in a moment')
        expect(setCookieFor(down, SIGN_IN_STATE_COOKIE)).toBeUndefined()
        expect(await count('sign_in_attempts')).toBe(attempts)

        const pat = await invite('pat@example.com')
        late = await startFakeOidcProvider({
          redirectUri: `${app.url}${CALLBACK_PATH}`,
          port: providerPort,
          clientSecret: settings.clientSecret,
          identity: { subject: 'pat', email: pat.email, emailVerified: true },
        })
        const { callback } = await signInOverHttp(browser, app.url, { returnTo: '/admin' })
        expect(callback.status).toBe(303)
        expect(callback.headers.get('location')).toBe('/admin')
        expect(await sessionsOf(pat.id)).toBe(1)
      } finally {
        await app.api.close()
        await late?.close()
      }
    })
  })

  describe('without an identity provider', () => {
    it('/auth/sign-in answers 503, naming OIDC_ISSUER; the callback too', async () => {
      const api = await startApp(store)
      try {
        const browser = new HttpBrowser()
        const page = await browser.request(`${api.url}/auth/sign-in?returnTo=/households`)
        expect(page.status).toBe(503)
        expect(page.headers.get('content-type')).toMatch(/^text\/html/)
        expect(page.body).toContain('<h1>Sign-in is not set up</h1>')
        expect(page.body).toContain('OIDC_ISSUER')
        expect(setCookieFor(page, SIGN_IN_STATE_COOKIE)).toBeUndefined()
        const callback = await browser.request(`${api.url}${CALLBACK_PATH}?code=x&state=y`, {
          cookie: `${SIGN_IN_STATE_COOKIE}=y`,
        })
        expect(callback.status).toBe(503)
        expect(setCookieFor(callback, SESSION_COOKIE)).toBeUndefined()
      } finally {
        await api.close()
      }
    })
  })
})

function withoutState(url: URL): URL {
  const copy = new URL(url)
  copy.searchParams.delete('state')
  return copy
}
