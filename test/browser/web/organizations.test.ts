// Someone invited by two organizations, in real Chromium through the development identity
// provider: the sign-in asks which organization, binds only that one, and the header's menu
// switches to the other — whose households the app then shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { seedHouseholds } from '../../helpers/seed.ts'
import { createUser } from '../../../src/store/users.ts'
import { openWatchedPage, pageProblems, seriousViolations } from './web-page.ts'

const EMAIL = 'olive.omni@example.com'

describe.runIf(hasChromium())('web app: choosing and switching organizations', () => {
  let stack: WebStack
  let browser: Browser
  let birch: string

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
    birch = (await stack.addOrg('Birch Advisors')).orgId
    // Invited first by the stack's organization (the older one), then by Birch.
    await createUser(stack.store.db, { orgId: stack.orgId, email: EMAIL, name: 'Olive Omni', role: 'advisor' })
    await createUser(stack.store.db, { orgId: birch, email: EMAIL, name: 'Olive Omni', role: 'viewer' })
    await seedHouseholds(stack.store.db, stack.orgId, [{ name: 'Test Partners household' }])
    await seedHouseholds(stack.store.db, birch, [{ name: 'Birch household' }])
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  it('chooses Birch at sign-in, then switches to the other organization from the header menu', async () => {
    const context = await browser.newContext()
    const watched = await openWatchedPage(context)
    const { page } = watched

    await page.goto(`${stack.url}/auth/sign-in?returnTo=/households`)
    await page.getByLabel('Or sign in as another address').fill(EMAIL)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'Choose an organization' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect((await context.cookies()).some((cookie) => cookie.name === 'idp-session')).toBe(false)

    await page.getByRole('button', { name: /Birch Advisors/ }).click()
    await page.waitForURL(`${stack.url}/households`)
    await page.getByRole('link', { name: 'Birch household' }).waitFor()
    expect(await page.getByText('Test Partners household').count()).toBe(0)
    // Only Birch's invitation was accepted.
    const bound = await stack.store.db
      .selectFrom('users')
      .select(['org_id', 'idp_subject'])
      .where('email', '=', EMAIL)
      .orderBy('created_at')
      .execute()
    expect(bound).toEqual([
      { org_id: stack.orgId, idp_subject: null },
      { org_id: birch, idp_subject: `email:${EMAIL}` },
    ])

    // The menu, by keyboard: the current organization is marked; the other is still an invitation.
    const summary = page.locator('.org-switcher summary')
    await summary.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('list', { name: 'Your organizations' })
    await menu.waitFor()
    await expect(menu.locator('[aria-current="true"]').textContent()).resolves.toContain('Birch Advisors')
    const other = menu.getByRole('button', { name: /Test Wealth Partners/ })
    await expect(other.textContent()).resolves.toContain('invited as advisor')
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await expect(page.locator('.org-switcher').getAttribute('open')).resolves.toBeNull()

    await summary.click()
    await other.click()
    await page.getByRole('link', { name: 'Test Partners household' }).waitFor()
    expect(await page.getByText('Birch household').count()).toBe(0)
    await expect(summary.textContent()).resolves.toContain('Test Wealth Partners')

    expect(await pageProblems(watched)).toEqual([])
    await context.close()
  })
})
