// Signing in to the web app in real Chromium, through the development identity provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'

describe.runIf(hasChromium())('web app sign-in', () => {
  let stack: WebStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  it('a signed-out visitor is offered sign-in, and comes back signed in to the page they asked for', async () => {
    const page = await browser.newPage()
    await page.goto(`${stack.url}/households?q=smith`)
    await page.getByRole('link', { name: 'Sign in' }).click()
    await page.getByLabel('Or sign in as another address').fill(stack.users.advisor.email)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL(`${stack.url}/households?q=smith`)
    // The app asks /api/v1/me after it loads: wait for the name to be shown (isVisible would not wait).
    await page.getByText(stack.users.advisor.name, { exact: false }).first().waitFor({ state: 'visible' })
    const cookie = (await page.context().cookies()).find((c) => c.name === 'idp-session')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    await page.close()
  })

  it('an uninvited identity gets the "not invited" page and no session', async () => {
    const page = await browser.newPage()
    await page.goto(`${stack.url}/auth/sign-in`)
    await page.getByLabel('Or sign in as another address').fill('stranger@example.org')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'You have not been invited' }).waitFor()
    await expect(page.getByText('stranger@example.org', { exact: false }).isVisible()).resolves.toBe(true)
    expect((await page.context().cookies()).some((c) => c.name === 'idp-session')).toBe(false)
    await page.close()
  })

  it('sign out ends the session: the old cookie is refused afterwards', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await stack.signIn(page, stack.users.viewer.email)
    const cookie = (await context.cookies()).find((c) => c.name === 'idp-session')
    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForURL(`${stack.url}/signed-out`)
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor()
    const replay = await fetch(`${stack.url}/api/v1/me`, { headers: { cookie: `idp-session=${cookie?.value ?? ''}` } })
    expect(replay.status).toBe(401)
    await context.close()
  })
})
