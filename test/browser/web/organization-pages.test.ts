// The organization pages of the web app (/admin/*) in real Chromium, against the whole stack: API
// keys (created in the page, copied, used over HTTP with exactly their permissions, revoked in the page), embed
// origins (a bad one refused next to the field), members (invited, signed in through the
// development identity provider, role changed, the last admin kept), usage (chart tokens minted
// and API calls made over HTTP, shown as an SVG bar chart and tables), what a non-admin gets, and
// names that look like markup. Every page is watched for errors and CSP violations; every wait is
// for a condition (usage counts are written in batches: polled with a deadline), never for a time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { openWatchedPage, pageProblems, seriousViolations, type WatchedPage } from './web-page.ts'
import { issueApiKey } from '../../../src/auth/issue-api-key.ts'
import { registerFrameOrigin } from '../../../src/store/origins.ts'
import type { UserRole } from '../../../src/domain/user-roles.ts'

const IMG = '<img src=x onerror="window.__xss=1">'
const SCRIPT = '<script>window.__xss=1</script>'
/** How long usage counts may take to be written (they are flushed every few seconds). */
const USAGE_DEADLINE_MS = 25_000

interface OpenOptions {
  email?: string
  /** Lets the page use the clipboard (granted for the app's origin). */
  clipboard?: boolean
  /** Makes navigator.clipboard.writeText refuse, as a browser that does not allow it would. */
  clipboardRefused?: boolean
}

describe.runIf(hasChromium())('web app: admin pages', () => {
  let stack: WebStack
  let browser: Browser
  const opened: WatchedPage[] = []

  beforeAll(async () => {
    stack = await startWebStack()
    browser = await launchChromium()
  })
  afterEach(async () => {
    for (const watched of opened.splice(0)) {
      const problems = await pageProblems(watched)
      const xss = await watched.page
        .evaluate(() => (window as unknown as { __xss?: unknown }).__xss)
        .catch(() => undefined)
      await watched.context.close()
      expect([...problems, ...(xss === undefined ? [] : ['window.__xss was set'])]).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  /** A new browser context signed in as the role's user, on `path`; errors and CSP violations are recorded. */
  async function openAs(role: UserRole, path: string, options: OpenOptions = {}): Promise<Page> {
    const context = await browser.newContext()
    if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url })
    if (options.clipboardRefused) {
      await context.addInitScript(() => {
        if (navigator.clipboard)
          navigator.clipboard.writeText = () =>
            Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'))
      })
    }
    const watched = await openWatchedPage(context)
    opened.push(watched)
    const { page } = watched
    await stack.signIn(page, options.email ?? stack.users[role].email, path)
    return page
  }

  /** The API as another system calls it: with an API key. */
  async function withKey(
    key: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> | null }> {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null }
  }

  /** The API as the signed-in user of `page` calls it (their session cookie). */
  async function asUser(page: Page, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'idp-session')
    const response = await fetch(`${stack.url}${path}`, { headers: { cookie: `idp-session=${cookie?.value ?? ''}` } })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })
  const keyRow = (page: Page, name: string) =>
    page.locator('table.api-keys tbody tr', { has: page.getByRole('rowheader', { name, exact: true }) })
  const memberRow = (page: Page, name: string) =>
    page.locator('table.members-table tbody tr', { has: page.getByRole('rowheader', { name }) })

  async function waitForText(locator: Locator, text: string): Promise<void> {
    await expect.poll(async () => (await locator.textContent()) ?? '', { timeout: 10_000 }).toContain(text)
  }

  it('creates a key with one permission, shows it once and copies it; the key can do exactly that, until it is revoked', async () => {
    const page = await openAs('admin', '/admin/keys', { clipboard: true })
    await heading(page, 'API keys').waitFor()
    await page.getByText('Your organization has no API keys yet.').waitFor()

    // Nothing chosen: said next to the fields, nothing sent.
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.getByText('Give the key a name, so that you can tell it apart later.').waitFor()
    await page.getByText('Choose at least one permission.').waitFor()
    await expect(page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true')

    await page.getByLabel('Name', { exact: true }).fill('CRM sync')
    await page.getByRole('checkbox', { name: /relationships:read/ }).check()
    await page.getByRole('button', { name: 'Create key' }).click()

    const panel = page.getByRole('region', { name: 'Your new key “CRM sync”' })
    await panel.waitFor()
    // The panel's heading takes the focus, so that a screen reader starts there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-key-title')
    await expect(panel.textContent()).resolves.toContain('it will not be shown again')
    const key = (await page.locator('#new-key-value').textContent())?.trim() ?? ''
    expect(key).toMatch(/^idx_[0-9A-Za-z]{38}$/)
    await expect(panel.locator('pre.curl').textContent()).resolves.toContain(
      `curl -H "Authorization: Bearer ${key}" "${stack.url}/api/v1/relationships?pageSize=1"`,
    )

    await panel.getByRole('button', { name: 'Copy key' }).click()
    await waitForText(panel.getByRole('status'), 'Copied the key to the clipboard.')
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key)
    expect(await seriousViolations(page)).toEqual([])

    // The key can read and nothing else.
    expect((await withKey(key, 'GET', '/api/v1/relationships')).status).toBe(200)
    const write = await withKey(key, 'POST', '/api/v1/relationships', { name: 'Not allowed' })
    expect(write.status).toBe(403)

    await page.getByRole('button', { name: 'Done: I have stored the key' }).click()
    await expect(page.locator('#new-key-value').count()).resolves.toBe(0)
    const row = keyRow(page, 'CRM sync')
    await waitForText(row, 'Active')
    await expect(row.locator('code').first().textContent()).resolves.toBe(`${key.slice(0, 12)}…`)
    await expect(row.locator('.permission-list').textContent()).resolves.toBe('relationships:read')
    // The key is shown nowhere any more.
    await expect(page.content()).resolves.not.toContain(key)

    // Revoke, after a confirmation.
    await row.getByRole('button', { name: 'Revoke CRM sync' }).click()
    const dialog = page.getByRole('dialog', { name: 'Revoke “CRM sync”?' })
    await dialog.waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Revoke key' }).click()
    await waitForText(page.locator('.admin-status'), 'Revoked “CRM sync”.')
    // The Revoke button is gone with the key's new status: the focus goes to the list's heading.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('keys-list-title')
    await waitForText(row.locator('.status-tag'), 'Revoked')
    await expect(row.getByRole('button').count()).resolves.toBe(0)
    expect((await withKey(key, 'GET', '/api/v1/relationships')).status).toBe(401)

    // Revoked keys stay listed as revoked.
    await page.reload()
    await waitForText(keyRow(page, 'CRM sync').locator('.status-tag'), 'Revoked')
  })

  it('when the browser refuses the clipboard, selects the key to copy by hand; a chart key gets a chart-token command', async () => {
    const page = await openAs('admin', '/admin/keys', { clipboardRefused: true })
    await page.getByLabel('Name', { exact: true }).fill('Partner portal')
    await page.getByRole('checkbox', { name: /embed:chart/ }).check()
    await page.getByLabel('Expires after (days)').fill('0')
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.getByText('Enter a whole number of days from 1 to 3650, or leave it empty.').waitFor()
    await page.getByLabel('Expires after (days)').fill('30')
    await page.getByRole('button', { name: 'Create key' }).click()

    const panel = page.getByRole('region', { name: 'Your new key “Partner portal”' })
    await panel.waitFor()
    const key = (await page.locator('#new-key-value').textContent())?.trim() ?? ''
    await expect(panel.locator('pre.curl').textContent()).resolves.toContain(`${stack.url}/api/v1/embed/chart-sessions`)
    await panel.getByRole('button', { name: 'Copy key' }).click()
    await waitForText(panel.getByRole('status'), 'did not let Hearth copy the key, so it is selected')
    await expect(page.evaluate(() => window.getSelection()?.toString())).resolves.toBe(key)

    await page.getByRole('button', { name: 'Done: I have stored the key' }).click()
    const row = keyRow(page, 'Partner portal')
    await waitForText(row, 'Active')
    await expect(row.locator('td').nth(4).textContent()).resolves.not.toBe('Never')
  })

  it('adds an embed origin (a bad one is refused next to the field) and removes it', async () => {
    const page = await openAs('admin', '/admin/origins')
    await heading(page, 'Embed origins').waitFor()
    await page.getByText("allowed to show your households' chart in a frame", { exact: false }).waitFor()
    await page.getByText('No embed origins yet, so no site can show your chart.').waitFor()

    const input = page.getByLabel('Origin', { exact: true })
    await input.fill('https://partner.example.com/embed')
    await page.getByRole('button', { name: 'Add origin' }).click()
    const error = page.locator('#origin-input-error')
    await waitForText(error, 'is not a bare origin (did you mean https://partner.example.com?)')
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true')
    await expect(input.getAttribute('aria-describedby')).resolves.toContain('origin-input-error')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('origin-input')
    expect(await seriousViolations(page)).toEqual([])

    await input.fill('https://partner.example.com')
    await page.getByRole('button', { name: 'Add origin' }).click()
    await waitForText(page.locator('.admin-status'), 'Added https://partner.example.com.')
    await expect(error.count()).resolves.toBe(0)
    await expect(input.inputValue()).resolves.toBe('')
    const row = page.locator('table.embed-origins tbody tr')
    await expect.poll(() => row.allTextContents()).toEqual([expect.stringContaining('https://partner.example.com')])
    expect((await asUser(page, '/api/v1/embed/origins')).body).toMatchObject({
      origins: [{ origin: 'https://partner.example.com' }],
    })

    await page.getByRole('button', { name: 'Remove https://partner.example.com' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove https://partner.example.com?' })
    await dialog.getByRole('button', { name: 'Remove origin' }).click()
    await waitForText(page.locator('.admin-status'), 'Removed https://partner.example.com.')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('origins-list-title')
    await page.getByText('No embed origins yet, so no site can show your chart.').waitFor()
    expect((await asUser(page, '/api/v1/embed/origins')).body).toEqual({ origins: [] })
  })

  it('invites a member, who becomes active on first sign-in; changes a role; keeps the last admin', async () => {
    const page = await openAs('admin', '/admin/members')
    await heading(page, 'Members').waitFor()
    await memberRow(page, 'Ada Admin').waitFor()

    await page.getByLabel('Email').fill('nina.new@example.com')
    await page.getByLabel('Name (optional)').fill('Nina New')
    await page.getByLabel('Role', { exact: true }).selectOption('advisor')
    await page.getByRole('button', { name: 'Invite', exact: true }).click()
    await waitForText(page.locator('.admin-status'), 'Invited Nina New (nina.new@example.com) as an advisor.')
    const nina = memberRow(page, 'Nina New')
    await waitForText(nina, 'Invited')
    await expect(nina.textContent()).resolves.toContain('Never')

    // The same address again is refused next to the email field.
    await page.getByLabel('Email').fill('NINA.NEW@example.com')
    await page.getByRole('button', { name: 'Invite', exact: true }).click()
    await waitForText(page.locator('#invite-email-error'), 'already has a user with the email')

    // Nina signs in through the identity provider with the invited address: she is active.
    const ninaPage = await openAs('advisor', '/households', { email: 'nina.new@example.com' })
    await ninaPage.getByText('Nina New', { exact: false }).first().waitFor()
    await page.reload()
    await waitForText(memberRow(page, 'Nina New').locator('.status-tag'), 'Active')
    await expect(memberRow(page, 'Nina New').locator('time').count()).resolves.toBe(1)

    // A role is saved as soon as it is chosen, and said so.
    await page.getByLabel('Role of Nina New').selectOption('viewer')
    await waitForText(page.locator('.admin-status'), 'Saved: Nina New is now a viewer.')
    const users = (await asUser(page, '/api/v1/users')).body.users as {
      email: string
      role: string
      status: string
    }[]
    expect(users.find((u) => u.email === 'nina.new@example.com')).toMatchObject({ role: 'viewer', status: 'active' })

    // Ada is the only admin: she can neither give up the role nor leave.
    await page.getByLabel('Role of Ada Admin').selectOption('viewer')
    const demote = page.getByRole('dialog', { name: 'Give up your admin role?' })
    await demote.getByRole('button', { name: 'Make me a viewer' }).click()
    await waitForText(demote.getByRole('alert'), "You are your organization's only admin, so your role stays admin")
    await demote.getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => page.getByLabel('Role of Ada Admin').inputValue()).toBe('admin')

    await memberRow(page, 'Ada Admin').getByRole('button', { name: 'Remove myself' }).click()
    const leave = page.getByRole('dialog', { name: 'Remove yourself from the organization?' })
    await leave.getByRole('button', { name: 'Remove me and sign me out' }).click()
    await waitForText(
      leave.getByRole('alert'),
      "You are your organization's only admin, so you cannot be removed: an organization needs at least one admin.",
    )
    expect(await seriousViolations(page)).toEqual([])
    await leave.getByRole('button', { name: 'Cancel' }).click()
    expect((await asUser(page, '/api/v1/me')).status).toBe(200)

    // Another member is removed after a confirmation.
    await nina.getByRole('button', { name: 'Remove Nina New' }).click()
    await page.getByRole('dialog', { name: 'Remove Nina New?' }).getByRole('button', { name: 'Remove member' }).click()
    await waitForText(page.locator('.admin-status'), 'Removed Nina New (nina.new@example.com).')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('members-list-title')
    await expect(memberRow(page, 'Nina New').count()).resolves.toBe(0)
    expect((await asUser(ninaPage, '/api/v1/me')).status).toBe(401)
  })

  it('shows chart tokens per origin as a bar chart and a table, and API calls per key with the legacy ones', async () => {
    const other = await stack.addOrg('Quiet Partners')
    const quiet = await openAs('admin', '/admin/usage', { email: other.admin.email })
    await heading(quiet, 'Usage').waitFor()
    await quiet.getByText('No chart renders in this period.').waitFor()
    await quiet.getByText('No API calls with a key in this period.').waitFor()

    const frameOrigin = 'https://crm.example.net'
    await registerFrameOrigin(stack.store.db, stack.orgId, frameOrigin)
    const { key } = await issueApiKey(stack.store.db, {
      orgId: stack.orgId,
      name: 'Usage probe',
      permissions: ['embed:chart', 'relationships:read'],
      expiresAt: null,
    })
    for (let i = 0; i < 3; i += 1)
      expect((await withKey(key, 'POST', '/api/v1/embed/chart-sessions', { frameOrigin })).status).toBe(201)
    expect((await withKey(key, 'GET', '/api/v1/relationships')).status).toBe(200)
    expect((await withKey(key, 'GET', '/api/v1/households')).status).toBe(200)
    expect((await withKey(key, 'GET', '/api/v1/households')).status).toBe(200)

    const page = await openAs('admin', '/admin/usage')
    const today = new Date().toISOString().slice(0, 10)
    const since = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)
    // Counts are written in batches: wait (with a deadline) until the API has them.
    await expect
      .poll(
        async () => {
          const usage = (await asUser(page, `/api/v1/usage?since=${since}`)).body as {
            chart: { frameOrigin: string; mints: number }[]
            apiCalls: { keyName: string; calls: number; legacyCalls: number }[]
          }
          const mints = usage.chart.filter((r) => r.frameOrigin === frameOrigin).reduce((n, r) => n + r.mints, 0)
          const probe = usage.apiCalls.filter((r) => r.keyName === 'Usage probe')
          return {
            mints,
            calls: probe.reduce((n, r) => n + r.calls, 0),
            legacy: probe.reduce((n, r) => n + r.legacyCalls, 0),
          }
        },
        { timeout: USAGE_DEADLINE_MS, interval: 250 },
      )
      .toEqual({ mints: 3, calls: 6, legacy: 2 })

    // The period is in the URL.
    await page.getByLabel('Period').selectOption('7')
    await page.waitForURL(`${stack.url}/admin/usage?days=7`)
    await page.locator('.admin-usage section[aria-busy="false"] table.chart-totals').waitFor()

    const figure = page.locator(`figure[data-origin="${frameOrigin}"]`)
    const chart = figure.locator('svg.bar-chart[role="img"]')
    await expect(chart.getAttribute('aria-label')).resolves.toContain(`Chart tokens for ${frameOrigin} per day`)
    await expect(chart.getAttribute('aria-label')).resolves.toContain('3 tokens minted')
    await expect(chart.locator('title').first().textContent()).resolves.toContain(frameOrigin)
    await expect(chart.locator('desc').count()).resolves.toBe(1)
    // Seven days, one group each; today's group has the minted bar, labelled 3.
    await expect(chart.locator('g.bars > g').count()).resolves.toBe(7)
    const bars = chart.locator(`g[data-category="${today}"] rect.bar-mints`)
    await expect(bars.getAttribute('data-value')).resolves.toBe('3')
    expect(Number(await bars.getAttribute('height'))).toBeGreaterThan(0)
    await expect(figure.locator('.chart-legend').textContent()).resolves.toBe('Tokens mintedCharts rendered')

    const totals = page.locator('table.chart-totals tbody tr', { hasText: frameOrigin })
    await expect(totals.locator('td').allTextContents()).resolves.toEqual(['3', '0'])
    await figure.getByText(`Numbers per day for ${frameOrigin}`).click()
    expect(await seriousViolations(page)).toEqual([])
    await expect(figure.locator('table.usage-per-day tbody tr').count()).resolves.toBe(1)
    await expect(figure.locator('table.usage-per-day tbody td').allTextContents()).resolves.toEqual(['3', '0'])

    const calls = page.locator('table.api-totals tbody tr', { hasText: 'Usage probe' })
    await expect(calls.locator('td').allTextContents()).resolves.toEqual(['6', '2'])
    await waitForText(
      page.locator('.legacy-notice'),
      '2 calls used the deprecated /api/v1/households paths, with the key “Usage probe”',
    )
    await expect(
      page.locator('figure[aria-labelledby="api-calls-chart-title"] svg[role="img"]').getAttribute('aria-label'),
    ).resolves.toContain('2 of them on the legacy households paths')

    // Back to the default period: out of the URL.
    await page.getByLabel('Period').selectOption('30')
    await page.waitForURL(`${stack.url}/admin/usage`)
    await page.goBack()
    await page.waitForURL(`${stack.url}/admin/usage?days=7`)
    await expect(page.getByLabel('Period').inputValue()).resolves.toBe('7')
    await page.getByLabel('Period').selectOption('90')
    await page.waitForURL(`${stack.url}/admin/usage?days=90`)
    await page.locator('.admin-usage section[aria-busy="false"] table.chart-totals').waitFor()
    await expect(figure.locator('svg.bar-chart g.bars > g').count()).resolves.toBe(90)
  })

  it('refuses a non-admin: "Admins only" in the page, 403 from the API', async () => {
    const page = await openAs('advisor', '/admin/keys')
    await heading(page, 'Admins only').waitFor()
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).count(),
    ).resolves.toBe(0)
    for (const path of ['/api/v1/keys', '/api/v1/users', '/api/v1/embed/origins', '/api/v1/usage']) {
      expect((await asUser(page, path)).status).toBe(403)
    }
  })

  it('shows names that look like markup as text', async () => {
    const page = await openAs('admin', '/admin/members')
    await page.getByLabel('Email').fill('markup@example.com')
    await page.getByLabel('Name (optional)').fill(IMG)
    await page.getByRole('button', { name: 'Invite', exact: true }).click()
    await waitForText(page.locator('.admin-status'), `Invited ${IMG}`)
    await page.reload()
    await expect.poll(() => page.locator('table.members-table th[scope="row"]').allTextContents()).toContain(IMG)
    await expect(page.locator('main img').count()).resolves.toBe(0)

    await page.goto(`${stack.url}/admin/keys`)
    await page.getByLabel('Name', { exact: true }).fill(SCRIPT)
    await page.getByRole('checkbox', { name: /relationships:read/ }).check()
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.getByRole('region', { name: `Your new key “${SCRIPT}”` }).waitFor()
    await page.getByRole('button', { name: 'Done: I have stored the key' }).click()
    await keyRow(page, SCRIPT).waitFor()
    await expect(page.locator('main script').count()).resolves.toBe(0)
    await expect(page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).resolves.toBeUndefined()
  })
})
