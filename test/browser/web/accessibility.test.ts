// Every page of the web app, walked in Chromium after a real sign-in through the development
// identity provider, has no serious or critical axe-core violation — in light and dark themes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { seriousViolations } from './web-page.ts'
import { call, createKey } from '../../helpers/app.ts'

describe.runIf(hasChromium())('accessibility of every page (axe-core)', () => {
  let stack: WebStack
  let browser: Browser
  let householdId: string

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
    const { key } = await createKey(stack.store.db, stack.orgId)
    const created = await call(`${stack.url}/api/v1/relationships`, key, { body: { name: 'The Accessible Family' } })
    householdId = (created.body.household as { id: string }).id
    for (const member of [
      { name: 'Ada Accessible', role: 'primaryClient', birthDate: '1960-01-01' },
      { name: 'Ben Accessible', role: 'coClient', birthDate: '1961-02-02' },
    ]) {
      const added = await call(`${stack.url}/api/v1/relationships/${householdId}/members`, key, {
        body: member,
        headers: { 'if-match': '*' },
      })
      if (added.status !== 201) throw new Error(`member not added: ${JSON.stringify(added.body)}`)
    }
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  /** A context as a person would have it; axe is injected through the DevTools protocol, not the page's CSP. */
  async function context(colorScheme: 'light' | 'dark'): Promise<BrowserContext> {
    return browser.newContext({ colorScheme })
  }

  it.each(['light', 'dark'] as const)('signed-out pages and the sign-in pages (%s)', async (colorScheme) => {
    const ctx = await context(colorScheme)
    const page = await ctx.newPage()
    await page.goto(`${stack.url}/households`)
    await page.getByRole('link', { name: 'Sign in' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Development identity provider' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('Or sign in as another address').fill('nobody@example.org')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('heading', { name: 'You have not been invited' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await ctx.close()
  })

  it.each(['light', 'dark'] as const)('every signed-in page, as an admin (%s)', async (colorScheme) => {
    const ctx = await context(colorScheme)
    const page = await ctx.newPage()
    await stack.signIn(page, stack.users.admin.email)
    const pages: { path: string; heading: RegExp }[] = [
      { path: '/households', heading: /households/i },
      { path: '/households/new', heading: /new household/i },
      { path: `/households/${householdId}`, heading: /The Accessible Family/ },
      { path: '/admin/keys', heading: /API keys/i },
      { path: '/admin/origins', heading: /origins/i },
      { path: '/admin/webhooks', heading: /webhooks/i },
      { path: '/admin/members', heading: /members/i },
      { path: '/admin/usage', heading: /usage/i },
      { path: '/households/00000000-0000-4000-8000-000000000000', heading: /not exist|not found/i },
    ]
    for (const { path, heading } of pages) {
      await page.goto(`${stack.url}${path}`)
      await page.getByRole('heading', { level: 1, name: heading }).waitFor()
      // Let the page finish loading what it shows (no busy regions left).
      await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null)
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] })
    }
    await ctx.close()
  })
})
