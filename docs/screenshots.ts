// `npm run docs:screenshots`: the README's pictures of the web app, taken from the real thing —
// the whole stack on loopback with the sample households, signed in through the development
// identity provider, in Debian's Chromium. Writes docs/web-households.png, docs/web-household.png
// and docs/web-keys.png.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium } from '../test/helpers/browser.ts'
import { startWebStack } from '../test/helpers/web-stack.ts'
import { addSampleHouseholds } from '../src/store/samples.ts'

const docsDir = path.dirname(fileURLToPath(import.meta.url))

const stack = await startWebStack()
const browser = await launchChromium()
try {
  await addSampleHouseholds(stack.store.db, stack.orgId)
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1, colorScheme: 'light' })
  const page = await context.newPage()
  await stack.signIn(page, stack.users.admin.email)

  await page.goto(`${stack.url}/households?sortBy=name&sortOrder=asc`)
  await page.locator('main table tbody tr').first().waitFor()
  await page.screenshot({ path: path.join(docsDir, 'web-households.png') })

  await page.getByRole('link', { name: /Whitfield/ }).first().click()
  await page.frameLocator('iframe').locator('svg').first().waitFor()
  await page.screenshot({ path: path.join(docsDir, 'web-household.png'), fullPage: true })

  await page.goto(`${stack.url}/admin/keys`)
  await page.getByLabel(/name/i).first().fill('CRM sync')
  await page.getByRole('checkbox', { name: /relationships:read/ }).check()
  await page.getByRole('button', { name: /create/i }).click()
  await page.getByText(/will not be shown again/i).waitFor()
  await page.screenshot({ path: path.join(docsDir, 'web-keys.png'), fullPage: true })
  console.log('wrote docs/web-households.png, docs/web-household.png, docs/web-keys.png')
} finally {
  await browser.close()
  await stack.close()
}
