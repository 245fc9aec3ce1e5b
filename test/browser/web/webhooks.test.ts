// The Webhooks pages of the web app (/admin/webhooks, /admin/webhooks/{id}) in real Chromium,
// against the whole stack with the webhook dispatcher and workers running and a real HTTP receiver
// on loopback: an endpoint added in the page (a URL the API refuses is said next to the field), its
// secret shown once, copied and verifying what the receiver gets; a test event delivered and seen in
// the log; a failing receiver's answer recorded with its status code, then "Send again"; a rotation
// whose overlap signs with both secrets; disable and enable; delete; an endpoint the 3-day rule
// disabled, with its reason; and nothing of it for viewers and advisors. Every page is watched for
// errors and CSP violations and checked with axe; every wait is for a condition, never for a time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../../helpers/browser.ts'
import { startWebStack, type WebStack } from '../../helpers/web-stack.ts'
import { startReceiver, verifyRequest, type ReceivedRequest, type Receiver } from '../../helpers/webhook-receiver.ts'
import { openWatchedPage, pageProblems, seriousViolations, type WatchedPage } from './web-page.ts'
import { startWebhooks, type WebhookService } from '../../../src/webhooks/service.ts'
import { insertEndpoint } from '../../../src/store/webhook-endpoints.ts'
import { disableEndpoint } from '../../../src/store/webhook-attempts.ts'
import { newWebhookSecret } from '../../../src/webhooks/secrets.ts'
import type { UserRole } from '../../../src/domain/user-roles.ts'

/** Long enough for a delivery on a busy 2-core machine (the workers poll every 200 ms). */
const DELIVERY_DEADLINE_MS = 15_000
const SCENARIO_TIMEOUT_MS = 50_000

describe.runIf(hasChromium())('web app: webhooks', () => {
  let stack: WebStack
  let browser: Browser
  let receiver: Receiver
  let webhooks: WebhookService
  const opened: WatchedPage[] = []

  beforeAll(async () => {
    stack = await startWebStack()
    // The web stack's API does not run the webhook machinery (src/serve.ts does): started here, on
    // its store. A schedule second of a minute: a failed attempt's retry (5 "seconds") never comes
    // during the test, so "Send again" is the only next attempt.
    webhooks = await startWebhooks(
      stack.store,
      {
        databaseUrl: stack.store.env.DATABASE_URL,
        production: false,
        attemptTimeoutMs: 5000,
        concurrency: 4,
        retryUnitMs: 60_000,
        retentionDays: 30,
        pollIntervalMs: 200,
        maintenanceIntervalSeconds: 1,
        recordMarginSeconds: 2,
      },
      (error, message) => console.error(message, error),
    )
    receiver = await startReceiver()
    browser = await launchChromium()
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
    await webhooks?.close()
    await receiver?.close()
    await stack?.close()
  })

  async function openAs(role: UserRole, path: string, options: { clipboard?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext()
    if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url })
    const watched = await openWatchedPage(context)
    opened.push(watched)
    await stack.signIn(watched.page, stack.users[role].email, path)
    return watched.page
  }

  /** The API as the signed-in user of `page` calls it (their session cookie). */
  async function asUser(page: Page, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'idp-session')
    const response = await fetch(`${stack.url}${path}`, { headers: { cookie: `idp-session=${cookie?.value ?? ''}` } })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })
  const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id)
  const actionStatus = (page: Page) => page.locator('.webhook-actions .admin-status')

  async function waitForText(locator: Locator, text: string | RegExp, timeout = 10_000): Promise<void> {
    const matcher = typeof text === 'string' ? expect.stringContaining(text) : expect.stringMatching(text)
    await expect.poll(async () => (await locator.textContent()) ?? '', { timeout }).toEqual(matcher)
  }

  /** The receiver's next request after `seen` requests, once it has come. */
  async function nextRequest(seen: number): Promise<ReceivedRequest> {
    await expect.poll(() => receiver.requests.length, { timeout: DELIVERY_DEADLINE_MS }).toBeGreaterThan(seen)
    const request = receiver.requests[seen]
    if (!request) throw new Error('no request')
    return request
  }

  const eventIdOf = (request: ReceivedRequest) => (JSON.parse(request.body) as { id: string }).id
  const deliveryRow = (page: Page, eventId: string) => page.locator(`tbody[data-event-id="${eventId}"]`)

  it(
    'adds an endpoint and shows its secret once; a test event is delivered; a failing answer is logged with its status and sent again',
    async () => {
      receiver.answer({ status: 204 })
      const page = await openAs('admin', '/admin/webhooks', { clipboard: true })
      await heading(page, 'Webhooks').waitFor()
      await expect(
        page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Webhooks' })
          .getAttribute('aria-current'),
      ).resolves.toBe('page')
      await page.getByText('Your organization has no webhook endpoints yet.').waitFor()

      // Nothing entered: said next to the field, nothing sent. A URL the API refuses: its sentence there.
      const url = page.getByLabel('URL', { exact: true })
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      await waitForText(page.locator('#webhook-url-error'), 'Enter the address Hearth should POST to')
      await url.fill('http://partner.example.com/hook')
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      await waitForText(page.locator('#webhook-url-error'), 'must be https://')
      await expect(url.getAttribute('aria-invalid')).resolves.toBe('true')
      await expect.poll(() => focusedId(page)).toBe('webhook-url')

      // Only chosen types, and none chosen: said before anything is sent.
      await url.fill(receiver.url)
      await page.getByLabel('Description (optional)').fill('CRM sync')
      await page.getByLabel('Only the types chosen below').check()
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      await waitForText(page.locator('#webhook-types-error'), 'Choose at least one event type, or every type.')
      await page.getByRole('checkbox', { name: /^household\.created/ }).check()
      expect(await seriousViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'Add endpoint' }).click()

      const panel = page.getByRole('region', { name: 'The signing secret of your new endpoint' })
      await panel.waitFor()
      await expect.poll(() => focusedId(page)).toBe('webhook-secret-title')
      await expect(panel.textContent()).resolves.toContain('it will not be shown again')
      const secret = (await page.locator('#webhook-secret-value').textContent())?.trim() ?? ''
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
      await panel.getByRole('button', { name: 'Copy secret' }).click()
      await waitForText(panel.getByRole('status'), 'Copied the secret to the clipboard.')
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret)
      expect(await seriousViolations(page)).toEqual([])
      await panel.getByRole('button', { name: 'Done: I have stored the secret' }).click()
      await expect.poll(() => focusedId(page)).toBe('add-webhook-title')
      await expect(page.content()).resolves.not.toContain(secret)

      const row = page.locator('table.webhook-endpoints tbody tr')
      await waitForText(row, receiver.url)
      await expect(row.textContent()).resolves.toContain('CRM sync')
      await expect(row.locator('td').nth(0).textContent()).resolves.toBe('household.created')
      await waitForText(row.locator('td').nth(1), 'Enabled')
      await waitForText(row.locator('td').nth(2), 'None yet')
      expect(await seriousViolations(page)).toEqual([])

      // Its page: a test event, delivered signed with the secret shown, and seen in the log.
      await row.getByRole('link', { name: receiver.url }).click()
      await heading(page, 'Webhook endpoint').waitFor()
      await page.getByText('Nothing has been sent to this endpoint yet.').waitFor()
      const seen = receiver.requests.length
      await page.getByRole('button', { name: 'Send a test event' }).click()
      await waitForText(actionStatus(page), 'Test event queued')
      const first = await nextRequest(seen)
      expect(verifyRequest(secret, first)).toMatchObject({ type: 'webhook.test' })
      await waitForText(actionStatus(page), 'The test event was delivered (HTTP 204).', DELIVERY_DEADLINE_MS)
      const delivered = deliveryRow(page, eventIdOf(first))
      await waitForText(delivered.locator('.delivery-status'), 'Delivered')
      await expect(delivered.locator('td.delivery-attempts').textContent()).resolves.toBe('1')
      await expect(delivered.textContent()).resolves.toContain('webhook.test (test event)')
      await expect(delivered.textContent()).resolves.toContain('HTTP 204')

      // A receiver answering 500: the attempt is logged with its status and a next attempt.
      receiver.answer({ status: 500 })
      await page.getByRole('button', { name: 'Send a test event' }).click()
      const failing = await nextRequest(seen + 1)
      const failingId = eventIdOf(failing)
      await waitForText(
        actionStatus(page),
        /The test event failed: HTTP 500\. The next attempt is at /,
        DELIVERY_DEADLINE_MS,
      )
      const failed = deliveryRow(page, failingId)
      await waitForText(failed.locator('.delivery-status'), 'Pending')
      await expect(failed.locator('td.delivery-attempts').textContent()).resolves.toBe('1')
      await expect(failed.textContent()).resolves.toContain('HTTP 500')
      await expect(failed.locator('td').nth(3).locator('time').count()).resolves.toBe(1)
      await waitForText(page.locator('.webhook-details'), 'Every attempt has failed since')

      // Its attempts, opened from the keyboard.
      const toggle = failed.getByRole('button', { name: `Attempts of webhook.test ${failingId}` })
      await toggle.focus()
      await page.keyboard.press('Enter')
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true')
      const attempts = page.locator(`#attempts-${await failed.getAttribute('data-delivery-id')} table tbody tr`)
      await expect.poll(() => attempts.allTextContents()).toEqual([expect.stringMatching(/^1.*Failed.*HTTP 500/)])
      expect(await seriousViolations(page)).toEqual([])

      // Send again, to a receiver that works again: the same webhook-id, the attempt marked as sent again.
      receiver.answer({ status: 204 })
      await failed.getByRole('button', { name: `Send again webhook.test ${failingId}` }).click()
      await waitForText(actionStatus(page), 'The test event is sent again within seconds.')
      await waitForText(actionStatus(page), 'The test event was delivered (HTTP 204).', DELIVERY_DEADLINE_MS)
      await waitForText(failed.locator('.delivery-status'), 'Delivered')
      await expect(failed.locator('td.delivery-attempts').textContent()).resolves.toBe('2')
      await expect
        .poll(() => attempts.allTextContents())
        .toEqual([
          expect.stringMatching(/^1.*Failed.*HTTP 500/),
          expect.stringMatching(/^2 \(sent again\).*Succeeded.*HTTP 204/),
        ])
      expect(receiver.forEvent(failingId)).toHaveLength(2)
      await waitForText(page.locator('.webhook-details'), 'Enabled')
      await expect(page.locator('.webhook-details').textContent()).resolves.not.toContain('has failed since')

      // The list shows the last delivery.
      await page.getByRole('link', { name: 'All webhook endpoints' }).click()
      await heading(page, 'Webhooks').waitFor()
      await waitForText(page.locator('table.webhook-endpoints tbody tr td').nth(2), 'Delivered')
    },
    SCENARIO_TIMEOUT_MS,
  )

  it(
    'rotates the secret (both sign during the overlap), disables and enables, and deletes after a confirmation',
    async () => {
      receiver.answer({ status: 204 })
      const oldSecret = newWebhookSecret()
      const endpoint = await insertEndpoint(stack.store.db, {
        orgId: stack.orgId,
        url: receiver.url,
        description: 'Rotation',
        eventTypes: null,
        secret: oldSecret,
      })
      const page = await openAs('admin', `/admin/webhooks/${endpoint.id}`)
      await heading(page, 'Webhook endpoint').waitFor()
      await waitForText(page.locator('.webhook-details'), 'Every event type')

      await page.getByRole('button', { name: 'Rotate secret' }).click()
      const rotateDialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' })
      await rotateDialog.waitFor()
      await expect(rotateDialog.getByLabel('The current secret keeps signing for').inputValue()).resolves.toBe('86400')
      expect(await seriousViolations(page)).toEqual([])
      await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click()
      const panel = page.getByRole('region', { name: 'The new signing secret' })
      await panel.waitFor()
      await expect.poll(() => focusedId(page)).toBe('webhook-secret-title')
      await waitForText(panel, 'The previous secret keeps signing until')
      const newSecret = (await page.locator('#webhook-secret-value').textContent())?.trim() ?? ''
      expect(newSecret).toMatch(/^whsec_/)
      expect(newSecret).not.toBe(oldSecret)
      expect(await seriousViolations(page)).toEqual([])

      // During the overlap a delivery verifies with either secret.
      const seen = receiver.requests.length
      await page.getByRole('button', { name: 'Send a test event' }).click()
      const request = await nextRequest(seen)
      expect(verifyRequest(newSecret, request)).toMatchObject({ type: 'webhook.test' })
      expect(verifyRequest(oldSecret, request)).toMatchObject({ type: 'webhook.test' })
      await waitForText(actionStatus(page), 'The test event was delivered (HTTP 204).', DELIVERY_DEADLINE_MS)
      await panel.getByRole('button', { name: 'Done: I have stored the secret' }).click()
      await expect.poll(() => focusedId(page)).toBe('webhook-actions-title')
      await waitForText(page.locator('.webhook-details'), 'Rotated: the previous secret also signs until')
      await expect(page.content()).resolves.not.toContain(newSecret)

      // Disable (after a confirmation), then enable again.
      await page.getByRole('button', { name: 'Disable', exact: true }).click()
      await page
        .getByRole('dialog', { name: 'Disable this endpoint?' })
        .getByRole('button', { name: 'Disable endpoint' })
        .click()
      await waitForText(actionStatus(page), 'Disabled. Nothing is sent to it until it is enabled again.')
      await expect.poll(() => focusedId(page)).toBe('webhook-actions-title')
      await waitForText(page.locator('.webhook-details'), 'Disabled since')
      await expect(page.locator('.webhook-details').textContent()).resolves.toContain('Disabled by an admin.')
      await expect(page.getByRole('button', { name: 'Send a test event' }).isDisabled()).resolves.toBe(true)
      expect((await asUser(page, `/api/v1/webhook-endpoints/${endpoint.id}`)).body).toMatchObject({ enabled: false })
      await page.getByRole('button', { name: 'Enable', exact: true }).click()
      await waitForText(actionStatus(page), 'Enabled. New events are sent to it again')
      await waitForText(page.locator('.webhook-details .status-tag'), 'Enabled')
      await expect(page.getByRole('button', { name: 'Send a test event' }).isDisabled()).resolves.toBe(false)

      // Delete: a confirmation, then back to the list, which says so.
      await page.getByRole('button', { name: 'Delete endpoint' }).click()
      const deleteDialog = page.getByRole('dialog', { name: 'Delete this endpoint?' })
      await deleteDialog.getByRole('button', { name: 'Cancel' }).click()
      await expect(deleteDialog.count()).resolves.toBe(0)
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete endpoint')
      await page.getByRole('button', { name: 'Delete endpoint' }).click()
      await deleteDialog.getByRole('button', { name: 'Delete endpoint' }).click()
      await page.waitForURL(`${stack.url}/admin/webhooks`)
      await heading(page, 'Webhooks').waitFor()
      await waitForText(page.locator('.admin-status'), `Deleted the endpoint ${receiver.url}.`)
      expect((await asUser(page, `/api/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404)
    },
    SCENARIO_TIMEOUT_MS,
  )

  it('shows why the 3-day rule disabled an endpoint, on the list and on its page', async () => {
    const endpoint = await insertEndpoint(stack.store.db, {
      orgId: stack.orgId,
      url: 'https://partner.example.com/hearth',
      description: 'Down for days',
      eventTypes: ['household.created', 'household.deleted'],
      secret: newWebhookSecret(),
    })
    const reason =
      'Disabled at 2030-01-04T00:00:00.000Z: every attempt since 2030-01-01T00:00:00.000Z failed (more than 3 days); the last one: answered 503.'
    await disableEndpoint(stack.store.db, endpoint.id, reason)

    const page = await openAs('admin', '/admin/webhooks')
    const row = page.locator('table.webhook-endpoints tbody tr', {
      has: page.getByRole('link', { name: 'https://partner.example.com/hearth' }),
    })
    await waitForText(row.locator('td').nth(1), 'Disabled since')
    await expect(row.locator('td').nth(1).textContent()).resolves.toContain(reason)
    await expect(row.locator('td').nth(0).textContent()).resolves.toBe('household.createdhousehold.deleted')
    expect(await seriousViolations(page)).toEqual([])

    await row.getByRole('link').click()
    await heading(page, 'Webhook endpoint').waitFor()
    await waitForText(page.locator('.webhook-details'), reason)
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor()
    await page.getByText('A disabled endpoint gets no test event: enable it first.').waitFor()
    await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null)
    expect(await seriousViolations(page)).toEqual([])
  })

  for (const { role, who } of [
    { role: 'viewer', who: 'A viewer' },
    { role: 'advisor', who: 'An advisor' },
  ] as const)
    it(`${who} has no Webhooks entry, and the pages refuse them`, async () => {
      const page = await openAs(role, '/households')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Households' }).waitFor()
      await expect(page.getByRole('link', { name: 'Webhooks' }).count()).resolves.toBe(0)
      for (const path of ['/admin/webhooks', '/admin/webhooks/00000000-0000-4000-8000-000000000000']) {
        await page.goto(`${stack.url}${path}`)
        await page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor()
        await expect(page.getByRole('main').textContent()).resolves.toContain('webhooks')
      }
      expect(await seriousViolations(page)).toEqual([])
      expect((await asUser(page, '/api/v1/webhook-endpoints')).status).toBe(403)
    })
})
