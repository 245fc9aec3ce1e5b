// The households pages of the web app in real Chromium, against the whole stack (API, store, embed
// origin, identity provider): the list (search, sort, filter, paging — all in the URL), creating a
// household, editing under If-Match with a conflicting change made over HTTP in between, members,
// the chart in its iframe, what a viewer may do, and names that look like markup. Every page is
// watched for errors and CSP violations; every wait is for a condition, never for a time.
import { readFile } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { openWatchedPage, pageProblems, seriousViolations, type WatchedPage } from './web-page.ts'
import { personBox, textLines } from './chart-frame.ts'
import { seedHouseholds } from '../../helpers/seed.ts'
import { createKey } from '../../helpers/app.ts'
import type { UserRole } from '../../../src/domain/user-roles.ts'

const IMG = '<img src=x onerror="window.__xss=1">'
const SCRIPT = '<script>window.__xss=1</script>'
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Matches text that starts with `prefix`, taken literally (the names here are full of regex characters). */
const startsWith = (prefix: string) => new RegExp(`^${escapeRegExp(prefix)}`)
const CONFLICT_TEXT = 'Someone else changed this household while you were working on it'

describe.runIf(hasChromium())('web app: households', () => {
  let stack: WebStack
  let browser: Browser
  let key: string
  const opened: WatchedPage[] = []

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
    key = (await createKey(stack.store.db, stack.orgId)).key
    // 23 households for the list: every 4th a sample, 0–2 members each.
    await seedHouseholds(
      stack.store.db,
      stack.orgId,
      Array.from({ length: 23 }, (_, i) => {
        const n = String(i + 1).padStart(2, '0')
        return {
          name: `Pager ${n}`,
          sample: (i + 1) % 4 === 0,
          members: Array.from({ length: (i + 1) % 3 }, (_, m) => `Pager ${n} person ${m + 1}`),
        }
      }),
    )
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

  /** A new browser context signed in as the role's user, on `path`; errors and CSP violations are recorded. */
  async function openAs(
    role: UserRole,
    path = '/households',
    email = stack.users[role].email,
    colorScheme: 'light' | 'dark' = 'light',
  ): Promise<Page> {
    const context = await browser.newContext({ colorScheme })
    const watched = await openWatchedPage(context)
    opened.push(watched)
    const { page } = watched
    await stack.signIn(page, email, path)
    return page
  }

  /** The API, as another system (an API key) would call it. */
  async function callApi(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return {
      status: response.status,
      etag: response.headers.get('etag'),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    }
  }

  async function seedOne(name: string, members: string[] = [], deceasedSpouseName?: string): Promise<string> {
    const ids = await seedHouseholds(stack.store.db, stack.orgId, [
      { name, members, ...(deceasedSpouseName ? { deceasedSpouseName } : {}) },
    ])
    return ids.get(name)!
  }

  async function memberId(householdId: string, name: string): Promise<string> {
    const members = (await callApi('GET', `/api/v1/relationships/${householdId}/members`)).body?.members as {
      id: string
      name: string
    }[]
    return members.find((m) => m.name === name)!.id
  }

  const rowNames = (page: Page) => page.locator('table.households tbody th[scope="row"] a').allTextContents()
  const status = (page: Page) => page.locator('.list-status')
  const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams)

  /** Waits until the list is not busy and its rows satisfy `predicate`; answers the rows. */
  async function waitForRows(page: Page, predicate: (names: string[]) => boolean): Promise<string[]> {
    const read = () =>
      page.evaluate(() => ({
        busy: document.querySelector('table.households')?.getAttribute('aria-busy') === 'true',
        names: Array.from(document.querySelectorAll('table.households tbody th[scope="row"] a')).map(
          (a) => a.textContent ?? '',
        ),
      }))
    await expect
      .poll(async () => {
        const { busy, names } = await read()
        return !busy && predicate(names)
      })
      .toBe(true)
    return (await read()).names
  }

  it('searches, sorts, filters and pages, with everything in the URL, restored on reload and Back', async () => {
    const page = await openAs('advisor')
    expect(page.url()).toBe(`${stack.url}/households`)

    await page.getByLabel('Search').fill('Pager')
    await page.waitForURL((url) => url.searchParams.get('q') === 'Pager')
    await expect.poll(() => status(page).textContent()).toBe('Showing 1–23 of 23 households matching “Pager”.')
    // Defaults stay out of the URL; the newest come first.
    expect(query(page)).toEqual({ q: 'Pager' })
    expect((await rowNames(page))[0]).toBe('Pager 23')

    await page.getByLabel('Per page').selectOption('10')
    await page.waitForURL((url) => url.searchParams.get('size') === '10')
    await expect.poll(() => status(page).textContent()).toBe('Showing 1–10 of 23 households matching “Pager”.')
    await expect(page.getByRole('navigation', { name: 'Pages' }).textContent()).resolves.toContain('Page 1 of 3')

    await page.getByRole('link', { name: 'Next' }).click()
    await page.waitForURL((url) => url.searchParams.get('page') === '2')
    await expect.poll(() => status(page).textContent()).toBe('Showing 11–20 of 23 households matching “Pager”.')
    expect(await waitForRows(page, (names) => names[0] === 'Pager 13')).toHaveLength(10)

    // Sorting by name starts A→Z (its default direction, left out of the URL) and goes back to page 1.
    await page.getByRole('button', { name: 'Household' }).click()
    await page.waitForURL((url) => url.searchParams.get('sort') === 'name' && !url.searchParams.has('page'))
    expect(query(page)).toEqual({ q: 'Pager', sort: 'name', size: '10' })
    expect((await waitForRows(page, (names) => names[0] === 'Pager 01')).slice(0, 3)).toEqual([
      'Pager 01',
      'Pager 02',
      'Pager 03',
    ])
    await expect(page.locator('th[aria-sort]').getAttribute('aria-sort')).resolves.toBe('ascending')
    await page.getByRole('button', { name: 'Household' }).click()
    await page.waitForURL((url) => url.searchParams.get('order') === 'desc')
    await waitForRows(page, (names) => names[0] === 'Pager 23')
    await expect(page.locator('th[aria-sort]').getAttribute('aria-sort')).resolves.toBe('descending')

    // Members: the biggest first.
    await page.getByRole('button', { name: 'Members' }).click()
    await page.waitForURL((url) => url.searchParams.get('sort') === 'members' && !url.searchParams.has('order'))
    // The URL changes at once; the rows follow when the answer comes: wait for rows in that order
    // (the previous rows, sorted by name, are not).
    const memberCounts = async () =>
      (await page.locator('table.households tbody td.number').allTextContents()).map(Number)
    await expect
      .poll(async () => {
        const counts = await memberCounts()
        return (
          counts.length === 10 &&
          counts[0] === 2 &&
          counts.every((count, i) => i === 0 || (counts[i - 1] ?? 0) >= count)
        )
      })
      .toBe(true)

    await page.getByLabel('Show').selectOption('only')
    await page.waitForURL((url) => url.searchParams.get('sample') === 'only')
    await expect.poll(() => status(page).textContent()).toBe('Showing 1–5 of 5 households matching “Pager”.')
    const samples = await waitForRows(page, (names) => names.length === 5)
    expect(samples.sort()).toEqual(['Pager 04', 'Pager 08', 'Pager 12', 'Pager 16', 'Pager 20'])
    expect(await page.locator('table.households tbody .tag').count()).toBe(5)

    // Reload: the same view, every control set as before.
    const before = page.url()
    await page.reload()
    await expect.poll(() => status(page).textContent()).toBe('Showing 1–5 of 5 households matching “Pager”.')
    expect(page.url()).toBe(before)
    await expect(page.getByLabel('Search').inputValue()).resolves.toBe('Pager')
    await expect(page.getByLabel('Show').inputValue()).resolves.toBe('only')
    await expect(page.getByLabel('Per page').inputValue()).resolves.toBe('10')
    await expect(page.locator('th[aria-sort]').textContent()).resolves.toContain('Members')

    // Back undoes the filter; the search stays.
    await page.goBack()
    await page.waitForURL((url) => !url.searchParams.has('sample'))
    await expect.poll(() => status(page).textContent()).toBe('Showing 1–10 of 23 households matching “Pager”.')
    await expect(page.getByLabel('Show').inputValue()).resolves.toBe('all')

    // No match: said in words, with a way back.
    await page.getByLabel('Search').fill('no such household anywhere')
    await page.getByText('No households match “no such household anywhere”.').waitFor()
    await page.getByRole('button', { name: 'Clear the search' }).click()
    await page.waitForURL((url) => !url.searchParams.has('q'))
    await expect(page.getByLabel('Search').inputValue()).resolves.toBe('')
  })

  it('cancels a slow search that a newer one overtook; its answer never replaces the newer rows', async () => {
    const page = await openAs('advisor')
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/api/v1/relationships?*', async (route) => {
      if (new URL(route.request().url()).searchParams.get('search') === 'Pager') await gate
      // The held request may have been cancelled by the page meanwhile: nothing left to continue.
      await route.continue().catch(() => undefined)
    })
    const cancelled = page.waitForEvent(
      'requestfailed',
      (request) => new URL(request.url()).searchParams.get('search') === 'Pager',
    )
    await page.getByLabel('Search').fill('Pager')
    await page.waitForURL((url) => url.searchParams.get('q') === 'Pager')
    await page.getByLabel('Search').fill('Pager 07')
    await waitForRows(page, (names) => names.length === 1 && names[0] === 'Pager 07')
    // The page aborted the older request on the network once the newer one started.
    await cancelled
    release()
    // Give the page any turn a late answer would have had, then check nothing changed.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    expect(await rowNames(page)).toEqual(['Pager 07'])
    await expect(status(page).textContent()).resolves.toBe('Showing 1–1 of 1 household matching “Pager 07”.')
  })

  it('an organization with no households invites a writer to create the first', async () => {
    const other = await stack.addOrg('Empty Partners')
    const page = await openAs('admin', '/households', other.admin.email)
    await page.getByText('Your organization has no households yet.').waitFor()
    await page.getByRole('link', { name: 'Create the first household' }).click()
    await page.waitForURL(`${stack.url}/households/new`)
    await page.getByRole('heading', { level: 1, name: 'New household' }).waitFor()
  })

  it('creates a household: an API refusal shows next to its field, then success opens the household', async () => {
    const page = await openAs('advisor')
    await page.getByRole('link', { name: 'New household' }).click()
    await page.waitForURL(`${stack.url}/households/new`)
    // After a navigation in the app, focus is on the new page's heading.
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'New household',
    )

    // Blank after trimming: the browser's `required` lets it through, the API refuses it.
    const name = page.getByLabel('Household name')
    await name.fill('   ')
    await page.getByLabel('DSUE amount received').fill('1250000.5')
    await page.getByRole('button', { name: 'Create household' }).click()
    const error = page.locator('#new-household-name-error')
    await error.waitFor()
    await expect(error.textContent()).resolves.toBe('Household name must not be blank')
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true')
    await expect(name.getAttribute('aria-describedby')).resolves.toContain('new-household-name-error')
    await page.waitForFunction(() => document.activeElement?.id === 'new-household-name')

    // A person's field the browser checks itself: required name.
    await page.getByRole('button', { name: 'Add a person' }).click()
    await page.getByRole('button', { name: 'Create household' }).click()
    const personName = page.locator('input[name="members.0.name"]')
    await expect.poll(() => personName.getAttribute('aria-invalid')).toBe('true')
    await personName.fill('Ngozi Okafor')
    await page.locator('input[name="members.0.birthDate"]').fill('1961-04-02')

    await name.fill('Okafor Family')
    await page.getByLabel('Deceased spouse’s name').fill('Emeka Okafor')
    await page.getByLabel('Deceased spouse’s date of death').fill('2019-11-30')
    await page.getByLabel('Primary client as donor').selectOption('yes')
    // A double click sends two requests with one Idempotency-Key: one household.
    await page.getByRole('button', { name: 'Create household' }).dblclick()
    await page.waitForURL(/\/households\/[0-9a-f-]{36}$/)
    await page.getByRole('heading', { level: 1, name: 'Okafor Family' }).waitFor()
    await page.getByRole('rowheader', { name: 'Ngozi Okafor' }).waitFor()
    await expect(page.locator('dl.details').textContent()).resolves.toContain('Emeka Okafor')

    const listed = await callApi('GET', '/api/v1/relationships?search=Okafor%20Family')
    expect(listed.body?.total).toBe(1)
    const created = (listed.body?.households as Record<string, unknown>[])[0]
    expect(page.url()).toBe(`${stack.url}/households/${created?.id as string}`)
    const full = await callApi('GET', `/api/v1/relationships/${created?.id as string}`)
    expect(full.body?.household).toMatchObject({
      name: 'Okafor Family',
      dsueReceived: 1250000.5,
      deceasedSpouseName: 'Emeka Okafor',
      dsueDateOfDeath: '2019-11-30',
      primaryClientAsDonor: true,
      coClientAsDonor: null,
    })
  })

  it('files a household under an external id; one already taken in the organization is refused at its field', async () => {
    const taken = await callApi('POST', '/api/v1/relationships', { name: 'Taken Id Family', externalId: 'crm-7001' })
    expect(taken.status).toBe(201)
    const page = await openAs('advisor')
    await page.getByRole('link', { name: 'New household' }).click()
    await page.waitForURL(`${stack.url}/households/new`)
    await page.getByLabel('Household name').fill('Synced Family')
    await page.getByText('For integrations (optional)').click()
    const externalId = page.getByLabel('External id')
    await externalId.fill('crm-7001')
    await page.getByRole('button', { name: 'Create household' }).click()
    const error = page.locator('#new-household-externalId-error')
    await error.waitFor()
    await expect(error.textContent()).resolves.toMatch(/crm-7001/)
    await expect(externalId.getAttribute('aria-invalid')).resolves.toBe('true')

    await externalId.fill('crm-7002')
    await page.getByRole('button', { name: 'Create household' }).click()
    await page.waitForURL(/\/households\/[0-9a-f-]{36}$/)
    const found = await callApi('GET', '/api/v1/relationships?externalId=crm-7002')
    expect((found.body?.households as { name: string }[]).map((household) => household.name)).toEqual(['Synced Family'])
  })

  it('keeps a created household when a person is refused, and adds only the people left after the fix', async () => {
    const page = await openAs('advisor', '/households/new')
    await page.getByLabel('Household name').fill('Partial Family')
    await page.getByRole('button', { name: 'Add a person' }).click()
    await page.locator('input[name="members.0.name"]').fill('Pat Partial')
    await page.getByRole('button', { name: 'Add a person' }).click()
    await page.locator('input[name="members.1.name"]').fill('Quin Partial')
    await page.locator('select[name="members.1.role"]').selectOption('child')
    // The browser accepts this address; the API wants a dot in the domain.
    await page.locator('input[name="members.1.email"]').fill('quin@localhost')
    await page.getByRole('button', { name: 'Create household' }).click()

    const emailError = page.locator('[id$="-email-error"]')
    await emailError.waitFor()
    await expect(emailError.textContent()).resolves.toMatch(/^Email of person 2 must be a plausible address/)
    await page.getByRole('status').filter({ hasText: 'was created with 1 person' }).waitFor()
    await expect(page.getByLabel('Household name').isDisabled()).resolves.toBe(true)
    await expect(page.locator('input[name="members.0.name"]').isDisabled()).resolves.toBe(true)

    await page.locator('input[name="members.1.email"]').fill('quin@example.com')
    await page.getByRole('button', { name: 'Add the remaining people' }).click()
    await page.waitForURL(/\/households\/[0-9a-f-]{36}$/)
    await page.getByRole('heading', { level: 1, name: 'Partial Family' }).waitFor()
    await page.getByRole('rowheader', { name: 'Quin Partial' }).waitFor()
    const listed = await callApi('GET', '/api/v1/relationships?search=Partial%20Family')
    expect(listed.body?.total).toBe(1)
    const household = (listed.body?.households as { members: { name: string; role: string }[] }[])[0]
    expect(household?.members).toEqual([
      expect.objectContaining({ name: 'Pat Partial', role: 'primaryClient' }),
      expect.objectContaining({ name: 'Quin Partial', role: 'child' }),
    ])
  })

  it('assigns advisors: admins pick from the organization’s users, advisors change roles', async () => {
    const id = await seedOne('Assigned Family', ['Asa Assigned'])
    const admin = await openAs('admin', `/households/${id}`)
    await admin.getByText('No one is assigned to this household.').waitFor()
    await admin.getByRole('button', { name: 'Change advisors' }).click()
    await admin
      .getByLabel('Person')
      .selectOption({ label: `${stack.users.advisor.name} (${stack.users.advisor.email})` })
    await admin.getByLabel('Role', { exact: true }).selectOption('leadAdvisor')
    await admin.getByRole('button', { name: 'Add to the list' }).click()
    await admin.getByRole('button', { name: 'Save advisors' }).click()
    await admin.getByRole('status').filter({ hasText: 'The advisors were saved.' }).waitFor()
    await admin.locator('ul.assignments', { hasText: `${stack.users.advisor.name} · Lead advisor` }).waitFor()

    const advisor = await openAs('advisor', `/households/${id}`)
    await advisor.getByRole('button', { name: 'Change advisors' }).click()
    await advisor.getByText('Only admins can assign someone new').waitFor()
    await advisor.getByLabel(`Role of ${stack.users.advisor.name}`).selectOption('paraplanner')
    await advisor.getByRole('button', { name: 'Save advisors' }).click()
    await advisor.locator('ul.assignments', { hasText: `${stack.users.advisor.name} · Paraplanner` }).waitFor()
    expect((await callApi('GET', `/api/v1/relationships/${id}/assignments`)).body?.assignments).toEqual([
      { userId: stack.users.advisor.id, name: stack.users.advisor.name, role: 'paraplanner' },
    ])
  })

  it('edits under If-Match: a change made elsewhere in between is a conflict, said in plain words', async () => {
    const id = await seedOne('Conflict Family', ['Cora Conflict'])
    const page = await openAs('advisor', `/households/${id}`)
    await page.getByRole('heading', { level: 1, name: 'Conflict Family' }).waitFor()

    await page.getByRole('button', { name: 'Edit details' }).click()
    await page.getByLabel('Household name').fill('Conflict Family (mine)')

    // Someone else renames it over HTTP while the form is open.
    const current = await callApi('GET', `/api/v1/relationships/${id}`)
    const theirs = await callApi(
      'PATCH',
      `/api/v1/relationships/${id}`,
      { name: 'Conflict Family (theirs)' },
      { 'if-match': current.etag! },
    )
    expect(theirs.status).toBe(200)

    await page.getByRole('button', { name: 'Save details' }).click()
    const alert = page.getByRole('alert').filter({ hasText: CONFLICT_TEXT })
    await alert.waitFor()
    await page.getByRole('heading', { level: 1, name: 'Conflict Family (theirs)' }).waitFor()
    expect((await callApi('GET', `/api/v1/relationships/${id}`)).body?.household).toMatchObject({
      name: 'Conflict Family (theirs)',
    })
    await page.waitForFunction(
      () => document.activeElement?.textContent?.includes('Someone else changed this household') === true,
    )

    // Made again on the fresh version, it is saved.
    await page.getByRole('button', { name: 'Edit details' }).click()
    await expect(page.getByLabel('Household name').inputValue()).resolves.toBe('Conflict Family (theirs)')
    await page.getByLabel('Household name').fill('Conflict Family (both)')
    await page.getByLabel('DSUE amount received').fill('10.25')
    await page.getByRole('button', { name: 'Save details' }).click()
    await page.getByRole('status').filter({ hasText: 'The details were saved.' }).waitFor()
    await page.getByRole('heading', { level: 1, name: 'Conflict Family (both)' }).waitFor()
    expect((await callApi('GET', `/api/v1/relationships/${id}`)).body?.household).toMatchObject({
      name: 'Conflict Family (both)',
      dsueReceived: 10.25,
    })
  })

  it('adds, relates, changes and removes members; the chart renders in its iframe and follows the edits', async () => {
    const id = await seedOne('Members Family')
    const page = await openAs('advisor', `/households/${id}`)
    await page.getByRole('heading', { level: 1, name: 'Members Family' }).waitFor()
    await page.getByText('Add people to the household to see its chart.').waitFor()

    await page.getByRole('button', { name: 'Add a person' }).click()
    const form = page.locator('form.member-form')
    await form.getByLabel('Name').fill('Ann Member')
    await form.getByLabel('Role').selectOption('primaryClient')
    await form.getByRole('button', { name: 'Add person' }).click()
    await page.getByRole('status').filter({ hasText: 'Ann Member was added.' }).waitFor()
    await page.getByRole('rowheader', { name: 'Ann Member' }).waitFor()

    // The chart appears once there is someone to draw.
    await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
    const chart = page.frameLocator('iframe[title="Household chart of Members Family"]')
    await chart.locator('svg').first().waitFor()

    await page.getByRole('button', { name: 'Add a person' }).click()
    await form.getByLabel('Name').fill('Ben Member')
    await form.getByLabel('Role').selectOption('coClient')
    await form.getByLabel('Relationship to Ann Member').selectOption('spouse')
    await form.getByRole('button', { name: 'Add person' }).click()
    await page.getByRole('rowheader', { name: 'Ben Member' }).waitFor()
    await page.getByRole('row', { name: /Ann Member .*Spouse of Ben Member/ }).waitFor()
    await page.getByRole('row', { name: /Ben Member .*Spouse of Ann Member/ }).waitFor()
    // The chart followed: Ben is drawn (his box, named), and the text version has the couple.
    const ann = await memberId(id, 'Ann Member')
    const ben = await memberId(id, 'Ben Member')
    await personBox(chart, ben).locator('.hv-gn-name', { hasText: 'Ben Member' }).waitFor()
    const family = textLines(chart, 'Family')
    await family.filter({ hasText: 'Ann Member, Client: spouse of Ben Member' }).waitFor({ state: 'attached' })
    await family.filter({ hasText: 'Ben Member, Co-client: spouse of Ann Member' }).waitFor({ state: 'attached' })

    // What the browser can check, it checks (a death before the birth); what only the API knows
    // (an address without a dot in its domain), the API refuses — both show next to the field.
    await page.getByRole('button', { name: 'Edit Ben Member' }).click()
    await form.getByLabel('Date of birth').fill('1970-05-06')
    await form.getByLabel('Date of death').fill('1965-01-01')
    await form.getByRole('button', { name: 'Save' }).click()
    const deathError = form.locator(`#member-${ben}-deathDate-error`)
    await deathError.waitFor()
    await expect(form.getByLabel('Date of death').getAttribute('aria-invalid')).resolves.toBe('true')
    await form.getByLabel('Date of death').fill('')
    await form.getByLabel('Email').fill('ben@localhost')
    await form.getByRole('button', { name: 'Save' }).click()
    const emailError = form.locator('.field-error')
    await emailError.waitFor()
    await expect(emailError.textContent()).resolves.toBe(
      'Email must be a plausible address such as name@example.com, or null',
    )
    await expect(form.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true')
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.type === 'email')
    await form.getByLabel('Email').fill('ben@example.com')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('status').filter({ hasText: 'Ben Member was saved.' }).waitFor()
    await page.getByRole('row', { name: /Ben Member .*1970/ }).waitFor()

    // Removing asks first; Cancel keeps, Remove removes.
    await page.getByRole('button', { name: 'Remove Ann Member' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove Ann Member?' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Remove Ann Member' }).click()
    await page.getByRole('dialog', { name: 'Remove Ann Member?' }).getByRole('button', { name: 'Remove' }).click()
    await page.getByRole('rowheader', { name: 'Ann Member' }).waitFor({ state: 'detached' })
    await expect(page.getByRole('row', { name: /Ben Member/ }).textContent()).resolves.not.toContain('Spouse')
    const members = await callApi('GET', `/api/v1/relationships/${id}/members`)
    expect(
      (members.body?.members as { name: string; birthDate: string; email: string }[]).map((m) => [
        m.name,
        m.birthDate,
        m.email,
      ]),
    ).toEqual([['Ben Member', '1970-05-06', 'ben@example.com']])
    // The chart followed: Ann is gone from it, drawing and words, and Ben is no one's spouse there.
    await personBox(chart, ann).waitFor({ state: 'detached' })
    await family.filter({ hasText: 'Ann Member' }).first().waitFor({ state: 'detached' })
    await family.filter({ hasText: /^Ben Member, Co-client, born 1970$/ }).waitFor({ state: 'attached' })
    await personBox(chart, ben).waitFor()
  })

  it('a kinship rule the API refuses shows next to the relationships, where its field points', async () => {
    const id = await seedOne('Kinship Family')
    const add = async (body: Record<string, unknown>) => {
      const etag = (await callApi('GET', `/api/v1/relationships/${id}`)).etag ?? ''
      const added = await callApi('POST', `/api/v1/relationships/${id}/members`, body, { 'if-match': etag })
      expect(added.status, JSON.stringify(added.body)).toBe(201)
      return (added.body?.member as { id: string }).id
    }
    // Three generations: Gus is Pia's parent, Pia is Cal's.
    const gus = await add({ name: 'Gus Kin', role: 'primaryClient' })
    const pia = await add({ name: 'Pia Kin', role: 'child', relationships: [{ memberId: gus, type: 'parent' }] })
    await add({ name: 'Cal Kin', role: 'child', relationships: [{ memberId: pia, type: 'parent' }] })

    const page = await openAs('advisor', `/households/${id}`)
    await page.getByRole('button', { name: 'Edit Gus Kin' }).click()
    const form = page.locator('form.member-form')
    // Gus as Cal's child would make Gus his own ancestor: only the API sees the whole tree.
    await form.getByLabel('Relationship to Cal Kin').selectOption('parent')
    await form.getByRole('button', { name: 'Save' }).click()
    const error = form.locator(`#member-${gus}-relationships-error`)
    await error.waitFor()
    await expect(error.textContent()).resolves.toBe('These parent links would make someone their own ancestor.')
    const group = form.locator(`fieldset[name="relationships"]`)
    await expect(group.getAttribute('aria-invalid')).resolves.toBe('true')
    await expect(group.getAttribute('aria-describedby')).resolves.toBe(`member-${gus}-relationships-error`)
    await expect(form.locator('.form-summary').count()).resolves.toBe(0)
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'relationships')
  })

  it('deletes a household after confirmation; its address then says it is gone', async () => {
    const id = await seedOne('Doomed Family', ['Dana Doomed'])
    const page = await openAs('advisor', `/households/${id}`)
    // The Delete section is under the chart, which the SDK sizes to its drawing when it has
    // rendered: until then the button moves down the page, and a click aimed at it can miss.
    await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
    await page.getByRole('button', { name: 'Delete household' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete Doomed Family?' })
    await dialog.getByRole('button', { name: 'Delete household' }).click()
    await page.waitForURL(`${stack.url}/households`)
    await page.getByText('The household “Doomed Family” was deleted.').waitFor()
    expect((await callApi('GET', `/api/v1/relationships/${id}`)).status).toBe(404)
    await page.goto(`${stack.url}/households/${id}`)
    await page.getByRole('heading', { level: 1, name: 'This household does not exist or was deleted' }).waitFor()
    await page.goto(`${stack.url}/households/not-a-uuid`)
    await page.getByRole('heading', { level: 1, name: 'This household does not exist or was deleted' }).waitFor()
  })

  it('a viewer reads but sees no edit controls, and the API refuses their writes', async () => {
    const id = await seedOne('Viewed Family', ['Vic Viewed'])
    const page = await openAs('viewer')
    await page.getByLabel('Search').fill('Viewed Family')
    await waitForRows(page, (names) => names.length === 1)
    expect(await page.getByRole('link', { name: 'New household' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Viewed Family' }).click()
    await page.getByRole('heading', { level: 1, name: 'Viewed Family' }).waitFor()
    await page.getByRole('rowheader', { name: 'Vic Viewed' }).waitFor()
    await page.getByText('can look at this household but not change it').waitFor()
    await page.getByText('does not include the household chart').waitFor()
    for (const label of [
      'Edit details',
      'Add a person',
      'Change advisors',
      'Delete household',
      'Edit Vic Viewed',
      'Remove Vic Viewed',
    ]) {
      expect(await page.getByRole('button', { name: label }).count(), label).toBe(0)
    }
    expect(await page.locator('iframe').count()).toBe(0)

    const refused = await page.evaluate(async (householdId) => {
      const response = await fetch(`/api/v1/relationships/${householdId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'if-match': '*' },
        body: JSON.stringify({ name: 'Hacked' }),
      })
      return { status: response.status, body: (await response.json()) as { code: string } }
    }, id)
    expect(refused).toMatchObject({ status: 403, body: { code: 'missing_permission' } })
    expect((await callApi('GET', `/api/v1/relationships/${id}`)).body?.household).toMatchObject({
      name: 'Viewed Family',
    })

    await page.goto(`${stack.url}/households/new`)
    await page.getByText('Your role (viewer) cannot create households').waitFor()
    expect(await page.getByRole('button', { name: 'Create household' }).count()).toBe(0)
  })

  it('names that look like markup are text: in the list, on the household page and in the chart', async () => {
    const ids = await seedHouseholds(stack.store.db, stack.orgId, [
      { name: IMG, members: [SCRIPT, IMG] },
      { name: SCRIPT, members: [IMG], deceasedSpouseName: SCRIPT },
    ])
    const page = await openAs('advisor')
    await page.getByLabel('Search').fill('window.__xss')
    await waitForRows(page, (names) => names.length === 2)
    expect((await rowNames(page)).sort()).toEqual([IMG, SCRIPT].sort())
    expect(await page.getByRole('link', { name: IMG, exact: true }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: SCRIPT, exact: true }).isVisible()).toBe(true)
    expect(await page.locator('table.households img, table.households script').count()).toBe(0)

    await page.getByRole('link', { name: IMG, exact: true }).click()
    await page.getByRole('heading', { level: 1, name: IMG, exact: true }).waitFor()
    expect(await page.getByRole('rowheader', { name: SCRIPT, exact: true }).isVisible()).toBe(true)
    expect(await page.getByRole('rowheader', { name: IMG, exact: true }).isVisible()).toBe(true)
    expect(await page.locator('main img, main script').count()).toBe(0)

    // In the chart: drawn as text — the household's name as its title, each person's whole name
    // in their box's <title> — and its text version (opened) shows the names as they are.
    await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
    const chart = page.frameLocator('iframe')
    await expect(chart.locator('.hv-title').textContent()).resolves.toBe(IMG)
    for (const name of [SCRIPT, IMG]) {
      const box = personBox(chart, await memberId(ids.get(IMG)!, name))
      await expect(box.locator('title').textContent()).resolves.toMatch(startsWith(`${name}, `))
    }
    await chart.locator('details.hv-text > summary', { hasText: 'Text version' }).click()
    await textLines(chart, 'Family')
      .filter({ hasText: startsWith(`${SCRIPT}, Client`) })
      .waitFor()
    expect(
      await textLines(chart, 'Family')
        .filter({ hasText: startsWith(`${IMG}, Co-client`) })
        .isVisible(),
    ).toBe(true)
    expect(await chart.locator('img, svg script, body script:not([src])').count()).toBe(0)

    // The other one, reached by URL.
    await page.goto(`${stack.url}/households/${ids.get(SCRIPT)!}`)
    await page.getByRole('heading', { level: 1, name: SCRIPT, exact: true }).waitFor()
    await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
    const other = page.frameLocator('iframe')
    await expect(other.locator('.hv-title').textContent()).resolves.toBe(SCRIPT)
    await other.locator('details.hv-text > summary', { hasText: 'Text version' }).click()
    await textLines(other, 'Family')
      .filter({ hasText: startsWith(`${IMG}, Client`) })
      .waitFor()
    // The deceased spouse, drawn for the household, is named as given too.
    await textLines(other, 'Family')
      .filter({ hasText: startsWith(`${SCRIPT}, `) })
      .waitFor()
    expect(await other.locator('img, svg script, body script:not([src])').count()).toBe(0)

    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()
    const frame = page.frames().find((f) => f !== page.mainFrame())
    expect(await frame?.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()
  })

  it('the chart downloads and prints through the SDK in the app’s page, under the app’s Content-Security-Policy', async () => {
    const id = await seedOne('Printed Family', ['Pia Printed', 'Quinn Printed'])
    const page = await openAs('advisor', `/households/${id}`)
    await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
    const chart = page.frameLocator('iframe[title="Household chart of Printed Family"]')

    // The chart's sandbox allows no download: it hands the PNG to the SDK, which saves it from this
    // page (an object URL and a download link).
    const downloaded = page.waitForEvent('download')
    await chart.getByRole('button', { name: 'Download PNG', exact: true }).click()
    const download = await downloaded
    expect(download.suggestedFilename()).toMatch(/^Printed Family-family-\d{4}-\d{2}-\d{2}\.png$/)
    const png = await readFile(await download.path())
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

    // Nor may it open a print dialog: the SDK prints the chart's print document from a frame of
    // its own in this page, styled through a constructed sheet (the app's CSP allows no inline style).
    await chart.getByRole('button', { name: 'Print', exact: true }).click()
    const printFrame = page.locator('iframe[sandbox="allow-same-origin allow-modals"]')
    await printFrame.waitFor({ state: 'attached' })
    const printed = await (await printFrame.elementHandle())?.contentFrame()
    const printDocument = await printed?.evaluate(() => ({
      text: document.body.textContent ?? '',
      sheets: document.adoptedStyleSheets.length,
    }))
    expect(printDocument?.text).toContain('Printed Family')
    expect(printDocument?.text).toContain('Pia Printed')
    expect(printDocument?.sheets).toBe(1)
    // Any CSP violation in the app's page or the print frame is a console error, checked after the test.
  })

  it('is operable from the keyboard: sortable headers, links, focus on the heading after navigation', async () => {
    const page = await openAs('advisor', '/households?q=Pager&size=10')
    await expect.poll(() => status(page).textContent()).toBe('Showing 1–10 of 23 households matching “Pager”.')
    // Sort with the keyboard.
    await page.getByRole('button', { name: 'Household' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => url.searchParams.get('sort') === 'name')
    await waitForRows(page, (names) => names[0] === 'Pager 01')
    // Open a household with the keyboard: focus lands on its heading.
    await page.getByRole('link', { name: 'Pager 01' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/households\/[0-9a-f-]{36}$/)
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Pager 01',
    )
    // Back: the list as it was.
    await page.goBack()
    await page.waitForURL((url) => url.searchParams.get('sort') === 'name')
    await waitForRows(page, (names) => names[0] === 'Pager 01')
  })

  it.each(['light', 'dark'] as const)(
    'has no serious axe-core findings in its states: list, errors, editors, dialogs (%s)',
    async (colorScheme) => {
      const id = await seedOne('Axe Family', ['Ada Axe', 'Ben Axe'])
      const page = await openAs('admin', '/households?q=Pager&size=10&sort=name', stack.users.admin.email, colorScheme)
      await waitForRows(page, (names) => names.length === 10)
      expect({ view: 'list', findings: await seriousViolations(page) }).toEqual({ view: 'list', findings: [] })

      await page.goto(`${stack.url}/households/new`)
      await page.getByLabel('Household name').fill('  ')
      await page.getByRole('button', { name: 'Add a person' }).click()
      await page.getByRole('button', { name: 'Create household' }).click()
      await expect.poll(() => page.locator('.field-error').count()).toBeGreaterThan(0)
      expect({ view: 'new with errors', findings: await seriousViolations(page) }).toEqual({
        view: 'new with errors',
        findings: [],
      })

      await page.goto(`${stack.url}/households/${id}`)
      await page.getByRole('heading', { level: 1, name: 'Axe Family' }).waitFor()
      await page.locator('.chart-host[data-chart-state="rendered"]').waitFor()
      expect({ view: 'household', findings: await seriousViolations(page) }).toEqual({
        view: 'household',
        findings: [],
      })
      await page.getByRole('button', { name: 'Edit Ben Axe' }).click()
      expect({ view: 'member editor', findings: await seriousViolations(page) }).toEqual({
        view: 'member editor',
        findings: [],
      })
      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('button', { name: 'Edit details' }).click()
      expect({ view: 'details editor', findings: await seriousViolations(page) }).toEqual({
        view: 'details editor',
        findings: [],
      })
      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('button', { name: 'Change advisors' }).click()
      expect({ view: 'advisors editor', findings: await seriousViolations(page) }).toEqual({
        view: 'advisors editor',
        findings: [],
      })
      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('button', { name: 'Delete household' }).click()
      await page.getByRole('dialog').waitFor()
      expect({ view: 'delete dialog', findings: await seriousViolations(page) }).toEqual({
        view: 'delete dialog',
        findings: [],
      })
      await page.keyboard.press('Escape')
      await page.getByRole('dialog').waitFor({ state: 'detached' })
    },
  )
})
