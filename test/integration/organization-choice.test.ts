// Someone invited by several organizations chooses one at sign-in, and only that invitation is
// bound; signed in, they switch organizations and the API answers for the one they chose. Over
// real HTTP on loopback with the fake identity provider (test/helpers/fake-oidc-provider.ts) and a
// cookie jar (test/helpers/oidc-walk.ts). The finding this answers: the first sign-in used to bind
// every invitation of the address and sign in to the oldest, so an organization could capture
// another's invitee by inviting them first.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { startSignInApp, type SignInApp } from '../helpers/sign-in-app.ts'
import { HttpBrowser, setCookieFor, signInOverHttp, type Hop } from '../helpers/oidc-walk.ts'
import { startFakeOidcProvider, type FakeOidcProvider } from '../helpers/fake-oidc-provider.ts'
import { seedHouseholds } from '../helpers/seed.ts'
import { CHOICE_COOKIE, CHOOSE_ORGANIZATION_PATH } from '../../src/auth/organization-choice.ts'
import { SESSION_COOKIE } from '../../src/auth/sessions.ts'
import { SWITCH_ORGANIZATION_PATH } from '../../src/http/routes/switch-organization.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'

describe.each(storeKinds())('choosing and switching organizations on %s', (kind) => {
  let store: TestStore
  let fake: FakeOidcProvider
  let app: SignInApp
  let same: Record<string, string>
  let orgA: string
  let orgB: string
  let orgC: string
  let person = 0

  /** A fresh address per test, invited wherever the test says. */
  let email: string
  let subject: string

  async function invite(org: string, role: UserRole = 'advisor', address = email): Promise<string> {
    const user = await createUser(store.db, {
      orgId: org,
      email: address,
      name: address.split('@')[0] ?? address,
      role,
    })
    if (!user) throw new Error(`could not invite ${address}`)
    return user.id
  }

  const userRow = (id: string) =>
    store.db
      .selectFrom('users')
      .select(['idp_issuer', 'idp_subject', 'org_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const sessionCount = async () =>
    Number(
      (
        await store.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const choiceHash = (token: string) => createHash('sha256').update(token).digest('hex')

  async function me(browser: HttpBrowser) {
    const hop = await browser.request(`${app.url}/api/v1/me`)
    expect(hop.status, hop.body).toBe(200)
    return JSON.parse(hop.body) as {
      org: { id: string }
      organizations: { id: string; name: string; role: string; current: boolean; invited: boolean }[]
    }
  }

  async function householdNames(browser: HttpBrowser): Promise<string[]> {
    const hop = await browser.request(`${app.url}/api/v1/relationships?pageSize=100`)
    expect(hop.status, hop.body).toBe(200)
    return (JSON.parse(hop.body) as { households: { name: string }[] }).households
      .map((household) => household.name)
      .sort()
  }

  /** Signs in as this test's person up to the choice page. */
  async function reachChoice(returnTo?: string): Promise<{ browser: HttpBrowser; page: Hop }> {
    const browser = new HttpBrowser()
    const { callback } = await signInOverHttp(browser, app.url, returnTo === undefined ? {} : { returnTo })
    return { browser, page: callback }
  }

  const choose = (browser: HttpBrowser, orgId: string, headers = same) =>
    browser.request(`${app.url}${CHOOSE_ORGANIZATION_PATH}`, { form: { orgId }, headers })
  const switchTo = (browser: HttpBrowser, orgId: string, headers = same) =>
    browser.request(`${app.url}${SWITCH_ORGANIZATION_PATH}`, { method: 'POST', json: { orgId }, headers })

  beforeAll(async () => {
    store = await openTestStore(kind)
    app = await startSignInApp(store, async (redirectUri) => {
      fake = await startFakeOidcProvider({ redirectUri })
      return fake
    })
    same = { origin: app.url }
    // A is the older organization: under the old rule it would have captured the invitee.
    orgA = (await createOrg(store.db, 'Alder & Co')).id
    orgB = (await createOrg(store.db, 'Birch Advisors')).id
    orgC = (await createOrg(store.db, 'Cedar Trust')).id
    await seedHouseholds(store.db, orgA, [{ name: 'Alder household' }])
    await seedHouseholds(store.db, orgB, [{ name: 'Birch household' }])
  })
  afterAll(async () => {
    await app?.api.close()
    await fake?.close()
    await store?.drop()
  })
  beforeEach(() => {
    person += 1
    email = `pat.${person}@example.com`
    subject = `pat-${person}`
    fake.identity = { subject, email, emailVerified: true }
  })

  it('invited by two organizations: the callback shows a choice, binds nothing and starts no session', async () => {
    const inA = await invite(orgA, 'viewer')
    const inB = await invite(orgB, 'admin')
    const sessions = await sessionCount()
    const { browser, page } = await reachChoice()

    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('cache-control')).toBe('no-store')
    const policy = page.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("form-action 'self'")
    expect(policy).not.toContain('script-src')
    expect(page.body).toContain('<h1>Choose an organization</h1>')
    expect(page.body).toContain(`<form method="post" action="${CHOOSE_ORGANIZATION_PATH}">`)
    expect(page.body).toContain(`name="orgId" value="${orgA}"`)
    expect(page.body).toContain('Alder &amp; Co')
    expect(page.body).toContain('invited as viewer')
    expect(page.body).toContain(`name="orgId" value="${orgB}"`)
    expect(page.body).toContain('invited as admin')
    expect(page.body).not.toContain(orgC)

    // The pending choice: a cookie on /auth, kept server-side by its hash only.
    const token = browser.jar.get(app.url, CHOICE_COOKIE) ?? ''
    expect(setCookieFor(page, CHOICE_COOKIE)?.toLowerCase()).toContain('path=/auth')
    expect(setCookieFor(page, CHOICE_COOKIE)?.toLowerCase()).toContain('httponly')
    const pending = await store.db
      .selectFrom('sign_in_choices')
      .selectAll()
      .where('token_hash', '=', choiceHash(token))
      .executeTakeFirstOrThrow()
    expect(pending).toMatchObject({ idp_issuer: fake.issuer, idp_subject: subject, verified_email: email })

    expect(setCookieFor(page, SESSION_COOKIE)).toBeUndefined()
    expect(await sessionCount()).toBe(sessions)
    expect(await userRow(inA)).toMatchObject({ idp_issuer: null, idp_subject: null })
    expect(await userRow(inB)).toMatchObject({ idp_issuer: null, idp_subject: null })
    expect((await browser.request(`${app.url}/api/v1/me`)).status).toBe(401)
  })

  it("choosing B binds only B and signs in to B; A's invitation stays open and is listed as invited", async () => {
    const inA = await invite(orgA)
    const inB = await invite(orgB, 'admin')
    const { browser } = await reachChoice('/households?q=birch')

    const chosen = await choose(browser, orgB)
    expect(chosen.status).toBe(303)
    expect(chosen.headers.get('location')).toBe('/households?q=birch')
    expect(setCookieFor(chosen, SESSION_COOKIE)).toMatch(/^idp-session=[\w-]{43};/)
    expect(browser.jar.get(app.url, CHOICE_COOKIE)).toBeUndefined()

    expect(await userRow(inB)).toMatchObject({ idp_issuer: fake.issuer, idp_subject: subject })
    expect(await userRow(inA)).toMatchObject({ idp_issuer: null, idp_subject: null })
    const profile = await me(browser)
    expect(profile.org.id).toBe(orgB)
    expect(profile.organizations).toEqual([
      { id: orgA, name: 'Alder & Co', role: 'advisor', current: false, invited: true },
      { id: orgB, name: 'Birch Advisors', role: 'admin', current: true, invited: false },
    ])
    expect(await householdNames(browser)).toEqual(['Birch household'])

    // The next sign-in offers the choice again (A's invitation is still open): B as a member.
    const next = await reachChoice()
    expect(next.page.status).toBe(200)
    expect(next.page.body).toContain('member, admin')
    expect(next.page.body).toContain('invited as advisor')
  })

  it('a choice works once, and not after it expires', async () => {
    const inA = await invite(orgA)
    await invite(orgB)
    const { browser } = await reachChoice()
    const token = browser.jar.get(app.url, CHOICE_COOKIE) ?? ''
    expect((await choose(browser, orgB)).status).toBe(303)

    // The same cookie again, for the other organization: refused, and A stays unbound.
    const replayed = await new HttpBrowser().request(`${app.url}${CHOOSE_ORGANIZATION_PATH}`, {
      form: { orgId: orgA },
      headers: same,
      cookie: `${CHOICE_COOKIE}=${token}`,
    })
    expect(replayed.status).toBe(400)
    expect(replayed.body).toContain('<h1>This sign-in has expired</h1>')
    expect(setCookieFor(replayed, SESSION_COOKIE)).toBeUndefined()
    expect(await userRow(inA)).toMatchObject({ idp_subject: null })

    // A fresh choice past its expiry.
    const late = await reachChoice()
    const lateToken = late.browser.jar.get(app.url, CHOICE_COOKIE) ?? ''
    await store.db
      .updateTable('sign_in_choices')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', choiceHash(lateToken))
      .execute()
    const expired = await choose(late.browser, orgA)
    expect(expired.status).toBe(400)
    expect(expired.body).toContain('<h1>This sign-in has expired</h1>')
    expect(setCookieFor(expired, SESSION_COOKIE)).toBeUndefined()
    expect(await userRow(inA)).toMatchObject({ idp_subject: null })
  })

  it('a cross-site post to the choice is refused before the choice is spent', async () => {
    const inA = await invite(orgA)
    await invite(orgB)
    const { browser } = await reachChoice()
    const forged: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
      {},
    ]
    for (const headers of forged) {
      const refused = await choose(browser, orgA, headers)
      expect(refused.status, JSON.stringify(headers)).toBe(403)
      expect(refused.body).toContain('<h1>Sign-in could not be verified</h1>')
      expect(setCookieFor(refused, SESSION_COOKIE)).toBeUndefined()
    }
    expect(await userRow(inA)).toMatchObject({ idp_subject: null })
    // The person's own choice still goes through.
    expect((await choose(browser, orgA)).status).toBe(303)
    expect(await userRow(inA)).toMatchObject({ idp_subject: subject })
  })

  it('an organization that was not offered is refused at the choice, and nothing is bound', async () => {
    await invite(orgA)
    await invite(orgB)
    const { browser } = await reachChoice()
    const refused = await choose(browser, orgC)
    expect(refused.status).toBe(403)
    expect(refused.body).toContain('<h1>You cannot join that organization</h1>')
    expect(setCookieFor(refused, SESSION_COOKIE)).toBeUndefined()
    expect(await store.db.selectFrom('users').select('id').where('idp_subject', '=', subject).execute()).toEqual([])
  })

  it('switching: the API answers for the chosen organization, the old cookie stops working, an invitation is accepted only when picked', async () => {
    const inA = await invite(orgA)
    const inB = await invite(orgB)
    const { browser } = await reachChoice()
    expect((await choose(browser, orgB)).status).toBe(303)
    const oldCookie = browser.jar.get(app.url, SESSION_COOKIE) ?? ''
    expect(await householdNames(browser)).toEqual(['Birch household'])

    const switched = await switchTo(browser, orgA)
    expect(switched.status, switched.body).toBe(204)
    const newCookie = browser.jar.get(app.url, SESSION_COOKIE) ?? ''
    expect(newCookie).toMatch(/^[\w-]{43}$/)
    expect(newCookie).not.toBe(oldCookie)
    expect(await userRow(inA)).toMatchObject({ idp_issuer: fake.issuer, idp_subject: subject })
    expect(await householdNames(browser)).toEqual(['Alder household'])
    const profile = await me(browser)
    expect(profile.org.id).toBe(orgA)
    expect(profile.organizations.map(({ id, current, invited }) => ({ id, current, invited }))).toEqual([
      { id: orgA, current: true, invited: false },
      { id: orgB, current: false, invited: false },
    ])

    const old = await new HttpBrowser().request(`${app.url}/api/v1/relationships`, {
      cookie: `${SESSION_COOKIE}=${oldCookie}`,
    })
    expect(old.status).toBe(401)
    expect(JSON.parse(old.body)).toMatchObject({ code: 'session_revoked' })

    // And back to B, a membership now.
    expect((await switchTo(browser, orgB)).status).toBe(204)
    expect(await householdNames(browser)).toEqual(['Birch household'])
    expect(await userRow(inB)).toMatchObject({ idp_subject: subject })
  })

  it('switching to an organization that is not theirs, or cross-site, is refused and keeps the session', async () => {
    await invite(orgA)
    await invite(orgB)
    const { browser } = await reachChoice()
    expect((await choose(browser, orgB)).status).toBe(303)
    const cookie = browser.jar.get(app.url, SESSION_COOKIE)

    for (const orgId of [orgC, '00000000-0000-4000-8000-000000000000']) {
      const refused = await switchTo(browser, orgId)
      expect(refused.status).toBe(404)
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'organization_not_found', requestId: expect.any(String) })
    }
    const malformed = await switchTo(browser, 'not-an-id')
    expect(malformed.status).toBe(400)
    expect(JSON.parse(malformed.body)).toMatchObject({ code: 'invalid_body' })

    const crossSite = await switchTo(browser, orgA, { origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    expect(JSON.parse(crossSite.body)).toMatchObject({ code: 'cross_site_request' })

    expect(browser.jar.get(app.url, SESSION_COOKIE)).toBe(cookie)
    expect((await me(browser)).org.id).toBe(orgB)
    expect(await store.db.selectFrom('users').select('org_id').where('idp_subject', '=', subject).execute()).toEqual([
      { org_id: orgB },
    ])
  })

  it('a member of one organization, and invited nowhere else, signs in directly and is offered no other', async () => {
    const inA = await invite(orgA)
    const first = await signInOverHttp(new HttpBrowser(), app.url)
    expect(first.callback.status).toBe(303)
    const browser = new HttpBrowser()
    const again = await signInOverHttp(browser, app.url)
    expect(again.callback.status).toBe(303)
    expect(await userRow(inA)).toMatchObject({ idp_subject: subject })
    expect((await me(browser)).organizations).toEqual([
      { id: orgA, name: 'Alder & Co', role: 'advisor', current: true, invited: false },
    ])
    expect((await switchTo(browser, orgB)).status).toBe(404)
  })
})
