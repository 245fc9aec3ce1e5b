// `npm run docs:screenshots`: the README's pictures of the web app, taken from the real thing —
// the whole stack on loopback with the sample households, signed in through the development
// identity provider, in Debian's Chromium. Writes docs/web-households.png, docs/web-household.png,
// docs/web-keys.png and docs/estate-walk-through.png (the README's estate walk-through, run as
// written, and the chart its household draws).
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { launchChromium } from '../test/helpers/browser.ts'
import { startWebStack } from '../test/helpers/web-stack.ts'
import { addSampleHouseholds } from '../src/store/samples.ts'
import { call, createKey } from '../test/helpers/app.ts'
import { runEstateWalkThrough } from '../test/helpers/readme-estate.ts'

const docsDir = path.dirname(fileURLToPath(import.meta.url))

const stack = await startWebStack()

/** The sample household as an advisor would have filled it in: who is married to whom, who is whose child. */
async function relateWhitfields() {
  const { key } = await createKey(stack.store.db, stack.orgId)
  const list = await call(`${stack.url}/api/v1/relationships?search=Whitfield%20Family`, key)
  const id = (list.body.households as { id: string }[])[0]?.id
  const members = (await call(`${stack.url}/api/v1/relationships/${id}/members`, key)).body.members as {
    id: string
    name: string
  }[]
  const idOf = (name: string) => members.find((member) => member.name === name)?.id ?? ''
  const links: [string, [string, string][]][] = [
    ['Thomas Whitfield', [['Margaret Whitfield', 'spouse']]],
    [
      'Emily Whitfield-Hart',
      [
        ['Margaret Whitfield', 'parent'],
        ['Thomas Whitfield', 'parent'],
      ],
    ],
    [
      'James Whitfield',
      [
        ['Margaret Whitfield', 'parent'],
        ['Thomas Whitfield', 'parent'],
      ],
    ],
    ['Olivia Hart', [['Emily Whitfield-Hart', 'parent']]],
    ['Noah Hart', [['Emily Whitfield-Hart', 'parent']]],
  ]
  for (const [name, relations] of links) {
    const relationships = relations.map(([other, type]) => ({ memberId: idOf(other), type }))
    const patched = await call(`${stack.url}/api/v1/relationships/${id}/members/${idOf(name)}`, key, {
      method: 'PATCH',
      body: { relationships },
      headers: { 'if-match': '*', 'content-type': 'application/merge-patch+json' },
    })
    if (patched.status !== 200) throw new Error(`could not relate ${name}: ${JSON.stringify(patched.body)}`)
  }
}
const browser = await launchChromium()
try {
  await addSampleHouseholds(stack.store.db, stack.orgId)
  await relateWhitfields()
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  })
  const page = await context.newPage()
  await stack.signIn(page, stack.users.admin.email)

  await page.goto(`${stack.url}/households?sortBy=name&sortOrder=asc`)
  await page.locator('main table tbody tr').first().waitFor()
  await page.screenshot({ path: path.join(docsDir, 'web-households.png') })

  await page
    .getByRole('link', { name: /Whitfield/ })
    .first()
    .click()
  await page.locator('[data-chart-state="rendered"]').waitFor()
  // The chart sizes its frame after drawing (resize): wait until the frame holds the whole drawing.
  // Runs in the page; docs/ has Node's types only, hence the cast.
  interface PageGlobals {
    document: { querySelector(selector: string): { getBoundingClientRect(): { height: number } } | null }
  }
  await page.waitForFunction(
    () =>
      ((globalThis as unknown as PageGlobals).document.querySelector('.chart-host iframe')?.getBoundingClientRect()
        .height ?? 0) > 150,
  )
  await page.locator('.chart-host iframe').scrollIntoViewIfNeeded()
  await page.screenshot({ path: path.join(docsDir, 'web-household.png'), fullPage: true })

  const { key: walkThroughKey } = await createKey(stack.store.db, stack.orgId)
  const walkThrough = await runEstateWalkThrough(stack.url, walkThroughKey)
  await page.goto(`${stack.url}/households/${walkThrough.householdId}`)
  await page.locator('[data-chart-state="rendered"]').waitFor()
  await page.waitForFunction(
    () =>
      ((globalThis as unknown as PageGlobals).document.querySelector('.chart-host iframe')?.getBoundingClientRect()
        .height ?? 0) > 150,
  )
  await page.locator('.chart-host iframe').screenshot({ path: path.join(docsDir, 'estate-walk-through.png') })

  await page.goto(`${stack.url}/admin/keys`)
  await page.getByLabel(/name/i).first().fill('CRM sync')
  await page.getByRole('checkbox', { name: /relationships:read/ }).check()
  await page.getByRole('button', { name: /create/i }).click()
  await page.getByText(/will not be shown again/i).waitFor()
  await page.screenshot({ path: path.join(docsDir, 'web-keys.png'), fullPage: true })
  console.log('wrote docs/web-households.png, docs/web-household.png, docs/web-keys.png, docs/estate-walk-through.png')
} finally {
  await browser.close()
  await stack.close()
}
