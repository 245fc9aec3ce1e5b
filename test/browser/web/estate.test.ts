// The Estate section of the household page in real Chromium, against the whole stack: an advisor
// adds a trust and a corporate trustee, then the trust's grantor, trustee and beneficiaries; a
// share the API refuses (primary beneficiaries over 100 %) shows next to the share field; the
// trust appears in the household's chart; a sample household's estate is listed and drawn; axe
// finds nothing serious on the page with the section open. Kinship is set from either side (a
// parent's row offers "parent of") and while creating a household. Every wait is for a condition.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { openWatchedPage, pageProblems, seriousViolations, type WatchedPage } from './web-page.ts'
import { entityCard, textLines } from './chart-frame.ts'
import { seedHouseholds } from '../../helpers/seed.ts'
import { createKey } from '../../helpers/app.ts'
import { addSampleHouseholds } from '../../../src/store/samples.ts'

const TRUST = 'Ann Member Revocable Trust'
const TRUSTEE = 'Acme Trust Company'
// Each test walks many steps through the page on a shared machine: more than vitest's 30 s default.
const STEPS_TIMEOUT = 120_000

describe.runIf(hasChromium())('web app: the Estate section and kinship', () => {
  let stack: WebStack
  let browser: Browser
  let key: string
  const opened: WatchedPage[] = []

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
    key = (await createKey(stack.store.db, stack.orgId)).key
  })
  afterEach(async () => {
    for (const watched of opened.splice(0)) {
      const problems = await pageProblems(watched)
      await watched.context.close()
      expect(problems).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  async function openAs(path: string): Promise<Page> {
    const context = await browser.newContext()
    const watched = await openWatchedPage(context)
    opened.push(watched)
    await stack.signIn(watched.page, stack.users.advisor.email, path)
    return watched.page
  }

  async function callApi(path: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    return (await response.json()) as Record<string, unknown>
  }

  it(
    'adds a trust with its grantor, trustee and beneficiaries; a share over 100 % is refused next to the share; the chart draws the trust',
    async () => {
      const ids = await seedHouseholds(stack.store.db, stack.orgId, [
        { name: 'Estate Family', members: ['Ann Member', 'Ben Member', 'Cara Member'] },
      ])
      const id = ids.get('Estate Family')!
      const page = await openAs(`/households/${id}`)
      await page.getByRole('heading', { level: 1, name: 'Estate Family' }).waitFor()
      const estate = page.locator('section[aria-labelledby="estate-heading"]')
      await estate.getByText('No trusts, businesses or holdings yet.').waitFor()

      // The trust, with a value; then the corporate trustee, a party: it has no value to give.
      await estate.getByRole('button', { name: 'Add an entity' }).click()
      const form = estate.locator('form.member-form')
      await form.getByLabel('Name', { exact: true }).fill(TRUST)
      await form.getByLabel('Short name').fill('RLT')
      await form.getByLabel('Kind').selectOption('revocableTrust')
      await form.getByLabel('Value', { exact: true }).fill('1500000')
      await form.getByLabel('Value as of').fill('2025-01-31')
      await form.getByRole('button', { name: 'Add entity' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `${TRUST} was added.` })
        .waitFor()
      await estate
        .getByRole('row', { name: new RegExp(`${TRUST} \\(RLT\\) Revocable trust .*1,500,000.* In estate`) })
        .waitFor()

      await estate.getByRole('button', { name: 'Add an entity' }).click()
      await form.getByLabel('Name', { exact: true }).fill(TRUSTEE)
      await form.getByLabel('Kind').selectOption('corporateTrustee')
      await form.getByText('A party (a corporate trustee, an attorney’s firm) holds no value').waitFor()
      expect(await form.getByLabel('Value', { exact: true }).count()).toBe(0)
      await form.getByRole('button', { name: 'Add entity' }).click()
      await estate.getByRole('row', { name: new RegExp(`${TRUSTEE} Corporate trustee .*Party`) }).waitFor()
      // A party holds no role to give: it is given roles in other entities.
      expect(await estate.getByRole('button', { name: `Who holds what in ${TRUSTEE}` }).count()).toBe(0)

      // Who holds what in the trust.
      await estate.getByRole('button', { name: `Who holds what in ${TRUST}` }).click()
      const links = estate.locator('.links-editor')
      await links.getByRole('heading', { name: `Who holds what in ${TRUST}` }).waitFor()
      const linkForm = links.locator('form')
      const addLink = async (who: string, role: string, share?: string, beneficiaryType?: string) => {
        await linkForm.getByLabel('Who').selectOption({ label: who })
        await linkForm.getByLabel('Role').selectOption(role)
        if (share !== undefined) await linkForm.getByLabel('Share (%)').fill(share)
        if (beneficiaryType !== undefined) await linkForm.getByLabel('Beneficiary type').selectOption(beneficiaryType)
        await linkForm.getByRole('button', { name: 'Add', exact: true }).click()
      }
      await addLink('Ann Member', 'grantor')
      await links.locator('li', { hasText: 'Ann Member — Grantor' }).waitFor()
      await addLink(`${TRUSTEE} (Corporate trustee)`, 'trustee')
      await links.locator('li', { hasText: `${TRUSTEE} — Trustee` }).waitFor()
      await addLink('Ben Member', 'beneficiary', '60')
      await links.locator('li', { hasText: 'Ben Member — Beneficiary, 60 %, primary' }).waitFor()

      // 60 + 50 > 100: the API refuses, and says so next to the share, which takes the focus.
      await addLink('Cara Member', 'beneficiary', '50', 'primary')
      const shareError = linkForm.locator(`[id$="-share-error"]`)
      await shareError.waitFor()
      expect(await shareError.textContent()).toMatch(/100/)
      await expect(linkForm.getByLabel('Share (%)').getAttribute('aria-invalid')).resolves.toBe('true')
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'share')
      await linkForm.getByLabel('Share (%)').fill('40')
      await linkForm.getByRole('button', { name: 'Add', exact: true }).click()
      await links.locator('li', { hasText: 'Cara Member — Beneficiary, 40 %, primary' }).waitFor()
      expect(await shareError.count()).toBe(0)

      // axe, with the links editor open.
      expect(await seriousViolations(page)).toEqual([])
      await links.getByRole('button', { name: 'Done' }).click()
      await estate.getByRole('row', { name: new RegExp(`${TRUST} .*Ann Member — Grantor`) }).waitFor()

      // What the API holds is what the page showed.
      const stored = (await callApi(`/api/v1/relationships/${id}/links`)).links as {
        type: string
        share: number | null
      }[]
      expect(stored.map((link) => [link.type, link.share]).sort()).toEqual(
        [
          ['beneficiary', 40],
          ['beneficiary', 60],
          ['grantor', null],
          ['trustee', null],
        ].sort(),
      )

      // The chart draws the trust (its card in the genogram's estate strip, the corporate trustee a
      // party beside it) and its text version names the trust with its kind.
      await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
      const chart = page.frameLocator('iframe[title="Household chart of Estate Family"]')
      await entityCard(chart, TRUST).waitFor()
      await chart.locator('.hv-gn-party', { has: chart.locator('title', { hasText: TRUSTEE }) }).waitFor()
      await textLines(chart, 'Structure')
        .filter({ hasText: `${TRUST}: Revocable trust` })
        .waitFor({ state: 'attached' })

      // Change the trust's value; then remove the corporate trustee (and its link) after confirming.
      await estate.getByRole('button', { name: `Edit ${TRUST}` }).click()
      await form.getByLabel('Value', { exact: true }).fill('1750000')
      await form.getByRole('button', { name: 'Save' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `${TRUST} was saved.` })
        .waitFor()
      await estate.getByRole('row', { name: new RegExp(`${TRUST} .*1,750,000`) }).waitFor()
      await estate.getByRole('button', { name: `Remove ${TRUSTEE}` }).click()
      const dialog = page.getByRole('dialog', { name: `Remove ${TRUSTEE}?` })
      await dialog.getByText('1 link').waitFor()
      await dialog.getByRole('button', { name: 'Remove' }).click()
      await estate.getByRole('rowheader', { name: TRUSTEE }).waitFor({ state: 'detached' })
      await expect(estate.getByRole('row', { name: new RegExp(TRUST) }).textContent()).resolves.not.toContain('Trustee')
      expect(await seriousViolations(page)).toEqual([])
    },
    STEPS_TIMEOUT,
  )

  it(
    "shows a sample household's estate and draws it; axe passes on the page",
    async () => {
      await addSampleHouseholds(stack.store.db, stack.orgId)
      const list = (await callApi('/api/v1/relationships?search=Whitfield')).households as {
        id: string
        name: string
      }[]
      const whitfield = list.find((household) => household.name === 'Whitfield Family')!
      const page = await openAs(`/households/${whitfield.id}`)
      await page.getByRole('heading', { level: 1, name: 'Whitfield Family' }).waitFor()
      const estate = page.locator('section[aria-labelledby="estate-heading"]')
      await estate
        .getByRole('row', { name: /Whitfield Family Revocable Trust .*Margaret Whitfield — Grantor/ })
        .waitFor()
      await estate
        .getByRole('row', { name: /Survivorship policy .*Whitfield Irrevocable Life Insurance Trust — Owner, 100 %/ })
        .waitFor()
      // The couple is joined and the children linked.
      await page.getByRole('row', { name: /Margaret Whitfield .*Spouse of Thomas Whitfield/ }).waitFor()
      await page.getByRole('row', { name: /Emily Whitfield-Hart .*Child of Margaret Whitfield/ }).waitFor()
      await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
      const chart = page.frameLocator('iframe[title="Household chart of Whitfield Family"]')
      await entityCard(chart, 'Whitfield Properties LLC').waitFor()
      await textLines(chart, 'Structure')
        .filter({ hasText: 'Whitfield Properties LLC: LLC' })
        .waitFor({ state: 'attached' })
      expect(await seriousViolations(page)).toEqual([])
    },
    STEPS_TIMEOUT,
  )

  it(
    'a parent\'s row sets and clears "parent of"; relationships are set while creating a household',
    async () => {
      const ids = await seedHouseholds(stack.store.db, stack.orgId, [
        { name: 'Kin Family', members: ['Ann Kin', 'Ben Kin', 'Cara Kin'] },
      ])
      const page = await openAs(`/households/${ids.get('Kin Family')!}`)
      await page.getByRole('heading', { level: 1, name: 'Kin Family' }).waitFor()
      const form = page.locator('form.member-form')
      await page.getByRole('button', { name: 'Edit Ann Kin' }).click()
      await form.getByLabel('Relationship to Ben Kin').selectOption('spouse')
      await form.getByLabel('Relationship to Cara Kin').selectOption('parentOf')
      await form.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('status').filter({ hasText: 'Ann Kin was saved.' }).waitFor()
      await page.getByRole('row', { name: /Cara Kin .*Child of Ann Kin/ }).waitFor()
      await page.getByRole('row', { name: /Ann Kin .*Spouse of Ben Kin.*Parent of Cara Kin/ }).waitFor()
      // From Ben's side too; then Ann's "parent of" cleared from Ann's row.
      await page.getByRole('button', { name: 'Edit Ben Kin' }).click()
      await form.getByLabel('Relationship to Cara Kin').selectOption('parentOf')
      await form.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('row', { name: /Cara Kin .*Child of Ann Kin.*Child of Ben Kin/ }).waitFor()
      await page.getByRole('button', { name: 'Edit Ann Kin' }).click()
      await expect(form.getByLabel('Relationship to Cara Kin').inputValue()).resolves.toBe('parentOf')
      await form.getByLabel('Relationship to Cara Kin').selectOption('')
      await form.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('status').filter({ hasText: 'Ann Kin was saved.' }).waitFor()
      await expect(page.getByRole('row', { name: /^Cara Kin / }).textContent()).resolves.not.toContain('Ann Kin')
      await page.getByRole('row', { name: /Ann Kin .*Spouse of Ben Kin/ }).waitFor()

      // Creating a household: each person is related to the people above it.
      await page.goto(`${stack.url}/households/new`)
      await page.getByLabel('Household name').fill('Created Kin Family')
      for (const [i, name, role] of [
        [0, 'Dana Kin', 'primaryClient'],
        [1, 'Eli Kin', 'coClient'],
        [2, 'Fay Kin', 'child'],
        [3, 'Gus Kin', 'parent'],
      ] as const) {
        await page.getByRole('button', { name: 'Add a person' }).click()
        await page.locator(`input[name="members.${i}.name"]`).fill(name)
        await page.locator(`select[name="members.${i}.role"]`).selectOption(role)
      }
      const person = (n: number) => page.getByRole('group', { name: `Person ${n}` })
      await person(2).getByLabel('Relationship to Dana Kin').selectOption('spouse')
      await person(3).getByLabel('Relationship to Dana Kin').selectOption('parent')
      await person(3).getByLabel('Relationship to Eli Kin').selectOption('parent')
      await person(4).getByLabel('Relationship to Dana Kin').selectOption('parentOf')
      expect(await seriousViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'Create household' }).click()
      await page.getByRole('heading', { level: 1, name: 'Created Kin Family' }).waitFor()
      await page.getByRole('row', { name: /Dana Kin .*Spouse of Eli Kin/ }).waitFor()
      await page.getByRole('row', { name: /Fay Kin .*Child of Dana Kin.*Child of Eli Kin/ }).waitFor()
      await page.getByRole('row', { name: /Dana Kin .*Child of Gus Kin/ }).waitFor()
      await page.getByRole('row', { name: /Gus Kin .*Parent of Dana Kin/ }).waitFor()
    },
    STEPS_TIMEOUT,
  )
})
