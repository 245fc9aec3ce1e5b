// Another site cannot write with a signed-in person's cookie: a form it posts and a fetch it sends
// with credentials both reach Hearth with the idp-session cookie (loopback ports are one "site", so
// SameSite=Lax lets them through — the harder case) and are refused with 403 cross_site_request;
// nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { startSite, type Site } from '../../helpers/sites.ts'

describe.runIf(hasChromium())('cross-site writes with the session cookie', () => {
  let stack: WebStack
  let browser: Browser
  let context: BrowserContext
  let attacker: Site

  const households = async () =>
    Number(
      (
        await stack.store.db
          .selectFrom('households')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', stack.orgId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
    attacker = await startSite()
    const target = `${stack.url}/api/v1/relationships`
    attacker.set('/form.html', {
      type: 'text/html',
      body: `<!doctype html><form id="f" method="post" action="${target}" enctype="text/plain"><input name='{"name":"Forged","x":"' value='"}'></form>`,
    })
    attacker.set('/fetch.html', { type: 'text/html', body: '<!doctype html><p>attacker</p>' })
    context = await browser.newContext()
    await stack.signIn(await context.newPage(), stack.users.advisor.email)
  })
  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await attacker?.close()
    await stack?.close()
  })

  it('a cross-site form post → 403 cross_site_request, nothing written', async () => {
    const before = await households()
    const page = await context.newPage()
    await page.goto(`${attacker.origin}/form.html`)
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${stack.url}/api/v1/relationships`),
      page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit()),
    ])
    expect(response.status()).toBe(403)
    // The request carried the cookie: the refusal is the origin check's, not a missing session.
    expect((await response.request().allHeaders()).cookie).toContain('idp-session=')
    expect(((await response.json()) as { code: string }).code).toBe('cross_site_request')
    expect(await households()).toBe(before)
    await page.close()
  })

  it('a cross-site fetch with credentials → 403 cross_site_request, nothing written', async () => {
    const before = await households()
    const page = await context.newPage()
    await page.goto(`${attacker.origin}/fetch.html`)
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${stack.url}/api/v1/relationships`),
      page.evaluate(async (target) => {
        // no-cors: the simple request a page can always send; its answer is opaque to the page.
        await fetch(target, {
          method: 'POST',
          mode: 'no-cors',
          credentials: 'include',
          headers: { 'content-type': 'text/plain' },
          body: '{"name":"Forged"}',
        })
      }, `${stack.url}/api/v1/relationships`),
    ])
    // 403, not 401: the cookie arrived (without it the answer is 401 missing_credentials).
    expect(response.status()).toBe(403)
    expect(await households()).toBe(before)
    await page.close()
  })

  it('the same write from the app itself succeeds (the check is not simply refusing everything)', async () => {
    const before = await households()
    const page = await context.newPage()
    await page.goto(`${stack.url}/households`)
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/v1/relationships', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"The Legitimate Family"}',
      })
      return response.status
    })
    expect(status).toBe(201)
    expect(await households()).toBe(before + 1)
    await page.close()
  })
})
