// Chart protocol v1 in real Chromium, without the SDK: a hand-written partner page mounts the chart
// exactly as spec §4.4 says (sandbox, pinned src, messages only from the embed origin and the
// iframe's window, render on ready to the embed origin) and records every message. Then the happy
// path, each kind of abuse, the network the chart makes, resize, select, theme and storage, and
// 0.2.0's extensions: handles (download, printdocument), setView, focus, print and appearance, and
// 0.3.0's estate message (after a render and after the reader's change; an appearance redraw keeps
// the reader's Flow choices and posts none).
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Frame, Page } from 'playwright-core'
import { decodeJwt, generateKeyPair, SignJWT } from 'jose'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import { loadChartSigner, mintChartToken } from '../../src/embed/tokens.ts'
import type { Payload } from '../../chart/payload.ts'
import { projectEstate } from '../../chart/src/flow/project-estate.ts'
import type { EstateProjection } from '../../chart/src/flow/projection-types.ts'

const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload

interface Message {
  type?: string
  code?: string
  message?: string
  path?: string
  height?: number
  id?: string
  kind?: string
  view?: string
  fileName?: string
  mediaType?: string
  /** A download's Blob, as page.evaluate returns it (an empty object): see downloadsOf for its bytes. */
  data?: unknown
  title?: string
  html?: string
  css?: string
}

/** What the test reads inside a frame (this file compiles without the DOM library). */
interface FrameGlobals {
  document: {
    cookie: string
    activeElement: {
      getAttribute(name: string): string | null
      closest(selector: string): unknown
      textContent: string | null
    } | null
  }
  localStorage: { length: number }
  sessionStorage: { length: number }
  indexedDB: { databases(): Promise<unknown[]> }
  parent: { frames: { postMessage(message: unknown, targetOrigin: string): void }[] }
}

/** What the partner page keeps on `window`. */
interface HostWindow {
  received: Message[]
  ignored: { origin: string; data: unknown }[]
  send(message: unknown): void
}

interface Host {
  page: Page
  chart: Frame
  requests: { url: string; postData: string | null }[]
  dialogs: string[]
  /** Console errors of the page and its frames (a CSP violation is one). */
  consoleErrors: string[]
}

describe.runIf(hasChromium())('chart protocol v1 (hand-mounted, no SDK)', () => {
  let stack: ChartStack
  let browser: Browser
  let pages = 0

  beforeAll(async () => {
    stack = await startChartStack()
    browser = await launchChromium()
    stack.stranger.set('/attacker.html', {
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><meta charset="utf-8"><title>Stranger</title>',
    })
    // Another window on the partner's own origin: only the source check tells it from the parent.
    stack.partner.set('/sibling.html', {
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><meta charset="utf-8"><title>Sibling</title>',
    })
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  /** Opens a partner page that renders `render` (a whole message, or nothing) when the chart is ready. */
  async function openHost(
    render: Record<string, unknown> | null,
    options: { attacker?: boolean; sibling?: boolean } = {},
  ): Promise<Host> {
    const path = `/host-${++pages}.html`
    const other = options.attacker
      ? `${stack.stranger.origin}/attacker.html`
      : options.sibling
        ? `${stack.partner.origin}/sibling.html`
        : null
    stack.partner.set(path, hostPage(stack.chartUrl, render, other))
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    const requests: Host['requests'] = []
    const dialogs: string[] = []
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      // The partner page's own favicon 404 is not the chart's.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        consoleErrors.push(`${message.text()} (${message.location().url})`)
    })
    page.on('pageerror', (error) => void consoleErrors.push(error.message))
    page.on('request', (request) => void requests.push({ url: request.url(), postData: request.postData() }))
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.goto(`${stack.partner.origin}${path}`)
    await waitFor(page, 'ready')
    const chart = page.frame({ url: stack.chartUrl })
    if (!chart) throw new Error('the chart frame is missing')
    return { page, chart, requests, dialogs, consoleErrors }
  }

  async function renderMessage(payload: unknown = example, token?: string): Promise<Record<string, unknown>> {
    return { type: 'render', v: 1, token: token ?? (await stack.mint()).token, payload }
  }

  async function expectRefused(render: Record<string, unknown>, code: string): Promise<Message> {
    const { page, chart } = await openHost(render)
    try {
      const answer = await waitFor(page, 'error')
      expect(answer).toMatchObject({ type: 'error', code })
      expect(await chart.locator('#chart').evaluate((element) => element.childElementCount)).toBe(0)
      expect(await received(page, 'rendered')).toEqual([])
      return answer
    } finally {
      await page.close()
    }
  }

  it('says ready without secrets, verifies, draws every name, answers rendered and meters the render', async () => {
    const session = await stack.mint()
    const jti = decodeJwt(session.token).jti!
    const { page, chart, requests, consoleErrors } = await openHost(await renderMessage(example, session.token))
    try {
      const [ready] = await received(page, 'ready')
      expect(ready).toEqual({
        type: 'ready',
        protocols: [1],
        capabilities: [
          'rendered',
          'resize',
          'select',
          'error',
          'theme',
          'setView',
          'focus',
          'print',
          'viewchange',
          'appearance',
          'handles',
          'download',
          'printdocument',
          'estate',
        ],
      })
      const rendered = await waitFor(page, 'rendered')
      expect(rendered.height).toBeGreaterThan(0)
      expect(await chart.locator('#chart svg').count()).toBeGreaterThan(0)
      // The drawing names an entity by its short name when it has one (the ILIT's, the SLAT's);
      // the text version below gives every full name.
      for (const name of [
        ...example.people.map((person) => person.name),
        ...(example.entities ?? []).map((entity) => entity.shortName ?? entity.name),
      ]) {
        await expect.poll(() => isNameVisible(chart, name), { message: name }).toBe(true)
      }
      const text = await textVersion(chart)
      for (const name of [
        ...example.people.map((person) => person.name),
        ...(example.entities ?? []).map((entity) => entity.name),
      ])
        expect(text).toContain(name)
      const row = await stack.store.db
        .selectFrom('chart_mints')
        .select('rendered_at')
        .where('jti', '=', jti)
        .executeTakeFirstOrThrow()
      expect(row.rendered_at).toBeInstanceOf(Date)
      expect(requests.filter((request) => request.url.includes('/.well-known/jwks.json'))).toHaveLength(1)
      // Nothing the page's CSP refuses (inline style or script, another request), no uncaught error.
      expect(consoleErrors).toEqual([])
    } finally {
      await page.close()
    }
  })

  describe('refuses, draws nothing and says why', () => {
    it('a render sent by another window than the parent (a stranger frame in the partner page)', async () => {
      const session = await stack.mint()
      const { page, chart, requests } = await openHost(null, { attacker: true })
      try {
        const attacker = page.frame({ url: `${stack.stranger.origin}/attacker.html` })
        if (!attacker) throw new Error('no attacker frame')
        await attacker.evaluate(
          (message) => (globalThis as unknown as FrameGlobals).parent.frames[0]?.postMessage(message, '*'),
          await renderMessage(example, session.token),
        )
        expect(await waitFor(page, 'error')).toMatchObject({ code: 'origin_mismatch' })
        expect(await chart.locator('#chart').evaluate((element) => element.childElementCount)).toBe(0)
        // Refused before the key fetch: not metered.
        expect(requests.filter((request) => request.url.includes('jwks'))).toEqual([])
        const row = await stack.store.db
          .selectFrom('chart_mints')
          .select('rendered_at')
          .where('jti', '=', decodeJwt(session.token).jti!)
          .executeTakeFirstOrThrow()
        expect(row.rendered_at).toBeNull()
      } finally {
        await page.close()
      }
    })

    it("a render with a valid token sent by another window on the partner's own origin", async () => {
      const session = await stack.mint()
      const { page, chart, requests } = await openHost(null, { sibling: true })
      try {
        const sibling = page.frame({ url: `${stack.partner.origin}/sibling.html` })
        if (!sibling) throw new Error('no sibling frame')
        // Same origin as the parent and a token minted for it: only `source === window.parent` refuses it.
        await sibling.evaluate(
          (message) => (globalThis as unknown as FrameGlobals).parent.frames[0]?.postMessage(message, '*'),
          await renderMessage(example, session.token),
        )
        expect(await waitFor(page, 'error')).toMatchObject({
          code: 'origin_mismatch',
          message: 'Render messages are accepted from the parent window only.',
        })
        expect(await chart.locator('#chart').evaluate((element) => element.childElementCount)).toBe(0)
        expect(requests.filter((request) => request.url.includes('jwks'))).toEqual([])
      } finally {
        await page.close()
      }
    })

    it('a token minted for another frame origin', async () => {
      const signer = await loadChartSigner(stack.store.db)
      const { token } = await mintChartToken(signer, {
        issuer: 'x',
        audience: stack.embedOrigin,
        orgId: stack.orgId,
        frameOrigin: stack.stranger.origin,
      })
      const answer = await expectRefused(await renderMessage(example, token), 'origin_mismatch')
      // Both origins, so the partner sees which to change: the token's and the page's that sent it.
      expect(answer.message).toBe(
        `The token was minted for the frame origin ${stack.stranger.origin}, but the render message came from ${stack.partner.origin}: mint the token with frameOrigin ${stack.partner.origin}, or render from ${stack.stranger.origin}.`,
      )
    })

    it('a protocol version other than 1', async () => {
      await expectRefused({ ...(await renderMessage()), v: 2 }, 'version_unsupported')
      await expectRefused({ ...(await renderMessage()), v: '1' }, 'version_unsupported')
    })

    it('an expired token', async () => {
      const signer = await loadChartSigner(stack.store.db)
      const claims = { issuer: 'x', audience: stack.embedOrigin, orgId: stack.orgId, frameOrigin: stack.partner.origin }
      const { token } = await mintChartToken(signer, claims, new Date(Date.now() - 20 * 60_000))
      await expectRefused(await renderMessage(example, token), 'token_expired')
    })

    it('a forged token: a fresh key, the real kid', async () => {
      const signer = await loadChartSigner(stack.store.db)
      await expectRefused(await renderMessage(example, await signedByNewKey(signer.kid, stack)), 'token_invalid')
    })

    it('a token signed by an unknown key', async () => {
      await expectRefused(await renderMessage(example, await signedByNewKey(randomUUID(), stack)), 'token_invalid')
    })

    it('a token for another audience', async () => {
      const signer = await loadChartSigner(stack.store.db)
      const { token } = await mintChartToken(signer, {
        issuer: 'x',
        audience: 'http://127.0.0.1:9',
        orgId: stack.orgId,
        frameOrigin: stack.partner.origin,
      })
      await expectRefused(await renderMessage(example, token), 'token_invalid')
    })

    it('a token that is not a JWT', async () => {
      for (const token of ['not-a-token', 42, '', 'a.b.c'])
        await expectRefused(await renderMessage(example, token as string), 'token_invalid')
    })

    // A hang would hit the test timeout; how fast is for bench/chart, not here.
    it('10,000 people, at /people', async () => {
      const people = Array.from({ length: 10_000 }, (_, i) => ({ id: `p${i}`, name: `Person ${i}`, role: 'other' }))
      const answer = await expectRefused(
        await renderMessage({ ...example, people, relationships: [], links: [] }),
        'payload_invalid',
      )
      expect(answer.path).toBe('/people')
      expect(answer.message).toMatch(/^\/people: must NOT have more than 1000 items/)
    })

    it('a schema problem, at its JSON Pointer', async () => {
      const answer = await expectRefused(
        await renderMessage({ ...example, people: [{ id: 'x', name: 'X' }] }),
        'payload_invalid',
      )
      expect(answer).toMatchObject({ path: '/people/0', message: "/people/0: must have required property 'role'" })
    })

    it('a person who is their own ancestor', async () => {
      const relationships = [...(example.relationships ?? []), { from: 'lucas', to: 'robert', type: 'parent' }]
      const answer = await expectRefused(await renderMessage({ ...example, relationships }), 'payload_invalid')
      expect(answer.path).toMatch(/^\/relationships\/\d+$/)
      expect(answer.message).toContain('own ancestor')
    })

    it('a link to an unknown id, and a duplicate id', async () => {
      const links = [...(example.links ?? []), { from: 'robert', to: 'gone', type: 'grantor' }]
      expect(await expectRefused(await renderMessage({ ...example, links }), 'payload_invalid')).toMatchObject({
        path: `/links/${links.length - 1}/to`,
      })
      const people = [...example.people, { id: 'rlt', name: 'Clash', role: 'other' }]
      expect(await expectRefused(await renderMessage({ ...example, people }), 'payload_invalid')).toMatchObject({
        path: `/entities/0/id`,
      })
    })
  })

  it('shows markup in names as literal text and runs none of it', async () => {
    const names = [
      `<img src=x onerror="parent.postMessage('pwned','*')">`,
      '<script>parent.postMessage("pwned","*")</script>',
      'javascript:alert(1)',
    ]
    const people = example.people.map((person, i) => (i < names.length ? { ...person, name: names[i]! } : person))
    const entities = [{ id: 'evil', name: '<b onmouseover=alert(1)>Trust</b>', kind: 'other' as const }]
    const { page, chart, dialogs } = await openHost(await renderMessage({ ...example, people, entities, links: [] }))
    try {
      await waitFor(page, 'rendered')
      const text = await textVersion(chart)
      for (const name of [...names, entities[0]!.name]) {
        expect(await isNameVisible(chart, name), name).toBe(true)
        expect(text).toContain(name)
      }
      expect(await chart.locator('#chart img, #chart script, #chart b, #chart a').count()).toBe(0)
      // A round trip after the render: anything the names could have run has had its turn.
      await send(page, { type: 'render', v: 2 })
      await waitFor(page, 'error')
      const everything = await page.evaluate(() => {
        const host = globalThis as unknown as HostWindow
        return [...host.received, ...host.ignored.map((entry) => entry.data)]
      })
      // What a name ran would post 'pwned' itself; the estate message carries the names as data, markup and all.
      expect(everything.filter((data) => data === 'pwned')).toEqual([])
      expect(
        everything.filter((data) => JSON.stringify(data).includes('pwned')).map((data) => (data as Message).type),
      ).toEqual(['estate'])
      expect(dialogs).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('keeps a chart shown when a later render is refused, and re-renders without a new key fetch for the same token', async () => {
    const session = await stack.mint()
    const { page, chart, requests } = await openHost(await renderMessage(example, session.token))
    try {
      await waitFor(page, 'rendered')
      // Unknown types and non-objects are ignored; a refused render leaves the chart.
      await send(page, { type: 'hello', v: 1 })
      await send(page, 'render')
      await send(page, { type: 'render', v: 1, token: session.token, payload: { ...example, people: [] } })
      expect(await waitFor(page, 'error')).toMatchObject({ code: 'payload_invalid', path: '/people' })
      expect(await received(page, 'error')).toHaveLength(1)
      await expect.poll(() => isNameVisible(chart, 'Robert Chen')).toBe(true)
      // The same token again, with another payload: drawn, and still one key fetch.
      const smaller: Payload = {
        household: { name: 'Small' },
        people: [{ id: 'solo', name: 'Solo Person', role: 'primaryClient' }],
      }
      await send(page, { type: 'render', v: 1, token: session.token, payload: smaller })
      await waitFor(page, 'rendered', 2)
      await expect.poll(() => isNameVisible(chart, 'Solo Person')).toBe(true)
      expect(await isNameVisible(chart, 'Robert Chen')).toBe(false)
      expect(requests.filter((request) => request.url.includes('/.well-known/jwks.json'))).toHaveLength(1)
      // A new token: one more fetch.
      await send(page, await renderMessage(example))
      await waitFor(page, 'rendered', 3)
      expect(requests.filter((request) => request.url.includes('/.well-known/jwks.json'))).toHaveLength(2)
    } finally {
      await page.close()
    }
  })

  it('says token_invalid when the keys cannot be fetched, and fetches again for the next render', async () => {
    const session = await stack.mint()
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.route('**/.well-known/jwks.json*', (route) => route.abort())
    const path = `/host-${++pages}.html`
    stack.partner.set(path, hostPage(stack.chartUrl, await renderMessage(example, session.token), null))
    try {
      await page.goto(`${stack.partner.origin}${path}`)
      const answer = await waitFor(page, 'error')
      expect(answer).toMatchObject({ code: 'token_invalid' })
      expect(answer.message).toContain('could not be fetched')
      await page.unroute('**/.well-known/jwks.json*')
      await send(page, await renderMessage(example, session.token))
      await waitFor(page, 'rendered')
    } finally {
      await page.close()
    }
  })

  it('asks the network for nothing but its page, its assets and one key set, and sends no payload data', async () => {
    const session = await stack.mint()
    const jti = decodeJwt(session.token).jti!
    const { page, requests } = await openHost(await renderMessage(example, session.token))
    try {
      await waitFor(page, 'rendered')
      // Let the chart settle (fonts, images it might load), then a round trip.
      await send(page, { type: 'render', v: 2 })
      await waitFor(page, 'error')
      const secrets = [
        example.household.name,
        ...example.people.map((person) => person.name),
        ...(example.entities ?? []).map((entity) => entity.name),
      ]
      for (const request of requests) {
        for (const secret of secrets) {
          for (const form of [secret, encodeURIComponent(secret), secret.replace(/ /g, '+')]) {
            expect(request.url).not.toContain(form)
            expect(request.postData ?? '').not.toContain(form)
          }
        }
      }
      const embed = requests
        .filter((request) => request.url.startsWith(stack.embedOrigin))
        .map((request) => request.url.slice(stack.embedOrigin.length))
      const assets = /^\/chart\/v\d+\.\d+\.\d+\/(index\.html|chart-[A-Za-z0-9]+\.(js|css))$/
      expect(embed.filter((url) => !assets.test(url))).toEqual([`/.well-known/jwks.json?render=${jti}`])
      expect(
        requests.filter(
          (request) => !request.url.startsWith(stack.embedOrigin) && !request.url.startsWith(stack.partner.origin),
        ),
      ).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('reports resize when its height grows and shrinks', async () => {
    const { page, chart } = await openHost(await renderMessage())
    try {
      const rendered = await waitFor(page, 'rendered')
      const toggle = chart.locator('#chart details > summary').first()
      const wasOpen = await chart
        .locator('#chart details')
        .first()
        .evaluate((element) => (element as unknown as { open: boolean }).open)
      await toggle.click()
      const first = await waitFor(page, 'resize')
      await toggle.click()
      const second = await waitFor(page, 'resize', 2)
      const heights = [rendered.height ?? 0, first.height ?? 0, second.height ?? 0]
      if (wasOpen) expect(heights[1]).toBeLessThan(heights[0]!)
      else expect(heights[1]).toBeGreaterThan(heights[0]!)
      expect(heights[2]).toBe(heights[0])
      // Grows past and shrinks below the frame's earlier heights: the host followed each report.
      expect(
        await page
          .locator('iframe')
          .first()
          .evaluate((element) => element.getBoundingClientRect().height),
      ).toBe(heights[2])
    } finally {
      await page.close()
    }
  })

  it('sends select for a node chosen with the keyboard, and for a clicked entity', async () => {
    const { page, chart } = await openHost(await renderMessage())
    try {
      await waitFor(page, 'rendered')
      let focused = ''
      for (let presses = 0; presses < 60 && focused === ''; presses++) {
        await page.keyboard.press('Tab')
        focused = await chart.evaluate(() => {
          const active = (globalThis as unknown as FrameGlobals).document.activeElement
          return active?.getAttribute('role') === 'button' && active.closest('svg') ? (active.textContent ?? '') : ''
        })
      }
      expect(focused).not.toBe('')
      const nodes = [
        ...example.people.map((person) => ({ id: person.id, name: person.name, kind: 'person' })),
        ...(example.entities ?? []).map((entity) => ({ id: entity.id, name: entity.name, kind: 'entity' })),
      ]
      const node = nodes
        .filter((candidate) => focused.includes(candidate.name))
        .sort((a, b) => b.name.length - a.name.length)[0]
      expect(node, focused).toBeDefined()
      await page.keyboard.press('Enter')
      expect(await waitFor(page, 'select')).toEqual({ type: 'select', id: node?.id, kind: node?.kind })
      await chart.locator('#chart svg [role="button"]', { hasText: 'Chen Properties LLC' }).first().click()
      expect(await waitFor(page, 'select', 2)).toEqual({ type: 'select', id: 'llc', kind: 'entity' })
    } finally {
      await page.close()
    }
  })

  it('keeps no cookies and no storage', async () => {
    const { page, chart } = await openHost(await renderMessage())
    try {
      await waitFor(page, 'rendered')
      const state = await chart.evaluate(async () => {
        const frame = globalThis as unknown as FrameGlobals
        return {
          cookie: frame.document.cookie,
          local: frame.localStorage.length,
          session: frame.sessionStorage.length,
          databases: (await frame.indexedDB.databases()).length,
        }
      })
      expect(state).toEqual({ cookie: '', local: 0, session: 0, databases: 0 })
      const cookies = await page.context().cookies()
      expect(cookies).toEqual([])
    } finally {
      await page.close()
    }
  })

  it('switches theme on a theme message from its host, and ignores one from another window', async () => {
    const { page, chart } = await openHost(null, { sibling: true })
    try {
      // Before a render there is nothing to theme: ignored, and not remembered.
      await send(page, { type: 'theme', v: 1, theme: 'dark' })
      await send(page, await renderMessage())
      await waitFor(page, 'rendered')
      expect(await themeOf(chart)).toBe('light')
      await send(page, { type: 'theme', v: 1, theme: 'dark' })
      await expect.poll(() => themeOf(chart)).toBe('dark')
      // From another window on the host's own origin: the source check alone refuses it.
      const sibling = page.frame({ url: `${stack.partner.origin}/sibling.html` })
      await sibling?.evaluate(() =>
        (globalThis as unknown as FrameGlobals).parent.frames[0]?.postMessage(
          { type: 'theme', v: 1, theme: 'light' },
          '*',
        ),
      )
      await send(page, { type: 'theme', v: 1, theme: 'purple' })
      // A round trip: both were handled before this answer.
      await send(page, { type: 'render', v: 2 })
      await waitFor(page, 'error')
      expect(await themeOf(chart)).toBe('dark')
    } finally {
      await page.close()
    }
  })

  describe('0.3.0 extensions', () => {
    // A couple whose first death funds a credit-shelter trust, so every kind of figure is there.
    const flowPayload: Payload = {
      ...example,
      people: example.people.map((person) => (person.role === 'coClient' ? { ...person, usCitizen: true } : person)),
      entities: [
        ...(example.entities ?? []),
        { id: 'brokerage', name: 'Chen brokerage account', kind: 'taxableAccount', value: 17_250_000 },
        { id: 'bypass', name: 'Chen bypass trust', kind: 'creditShelterTrust' },
      ],
      links: [...(example.links ?? []), { from: 'robert', to: 'brokerage', type: 'owner' }],
      gifts: [{ donor: 'robert', taxableGifts: 1_200_000 }],
      dispositions: [{ at: 'robert', to: 'bypass', formula: 'unusedExclusion' }],
      assumptions: { firstDeathYear: 2026, secondDeathYear: 2031, portabilityElected: true },
    }

    it('posts the estate projection after rendered, the same figures as projectEstate; no request carries a name or a figure', async () => {
      const { page, requests, consoleErrors } = await openHost(await renderMessage(flowPayload))
      try {
        await waitFor(page, 'rendered')
        const { projection } = (await waitFor(page, 'estate')) as unknown as { projection: unknown }
        const order = await page.evaluate(() =>
          (globalThis as unknown as HostWindow).received.map((message) => message?.type),
        )
        expect(order.indexOf('rendered')).toBeLessThan(order.indexOf('estate'))
        const expected = projectEstate(flowPayload)
        expect(projection).toEqual(JSON.parse(JSON.stringify(expected)))
        expect(expected.deaths).toHaveLength(2)
        // Nothing of the household leaves the page: no request's address or body holds a name or a figure.
        const secrets = [
          ...flowPayload.people.map((person) => person.name),
          ...(flowPayload.entities ?? []).map((entity) => entity.name),
          ...expected.deaths.flatMap((death) => [death.grossEstate.total, death.taxableEstate]).map(String),
          '17250000',
        ]
        for (const request of requests)
          for (const secret of secrets) {
            expect(decodeURIComponent(request.url)).not.toContain(secret)
            expect(request.postData ?? '').not.toContain(secret)
          }
        expect(consoleErrors).toEqual([])
      } finally {
        await page.close()
      }
    })

    it('keeps the reader’s order and years in the Flow view across an appearance redraw, and posts no estate for it', async () => {
      const { page, chart, consoleErrors } = await openHost(await renderMessage(flowPayload))
      try {
        await waitFor(page, 'estate')
        await chart.locator('#chart').getByRole('tab', { name: 'Flow' }).click()
        const order = chart.locator('#chart').getByRole('group', { name: 'Who dies first' })
        await order.getByRole('radio', { name: 'Margaret Chen' }).check()
        const chosen = projectEstate(flowPayload, {
          firstDeath: 'margaret',
          firstDeathYear: 2026,
          secondDeathYear: 2031,
        })
        const heard = (await waitFor(page, 'estate', 2)) as unknown as { projection: EstateProjection }
        expect(heard.projection).toEqual(JSON.parse(JSON.stringify(chosen)))

        await send(page, { type: 'appearance', v: 1, appearance: { accentColor: '#0a6e5c' } })
        await expect.poll(() => accentOf(chart)).toBe('#0a6e5c')
        // Drawn anew on the Flow view, Margaret still first, in the same years.
        expect(await shownTab(chart)).toBe('Flow')
        expect(await order.getByRole('radio', { name: 'Margaret Chen' }).isChecked()).toBe(true)
        expect(await chart.locator('#chart .hv-flow-col[data-column="death-0"] .hv-flow-col-title').textContent()).toBe(
          'First death: Margaret Chen',
        )
        expect(await chart.locator('#chart').getByLabel('Second death in').inputValue()).toBe('2031')

        // The next change in the redrawn view is the next estate: the redraw posted none (the defaults least of all).
        const firstYear = chart.locator('#chart').getByLabel('First death in')
        await firstYear.fill('2030')
        await firstYear.press('Enter')
        const next = (await waitFor(page, 'estate', 3)) as unknown as { projection: EstateProjection }
        expect(next.projection).toEqual(
          JSON.parse(
            JSON.stringify(
              projectEstate(flowPayload, { firstDeath: 'margaret', firstDeathYear: 2030, secondDeathYear: 2031 }),
            ),
          ),
        )
        const estates = (await received(page, 'estate')) as unknown as { projection: EstateProjection }[]
        expect(estates.map((message) => message.projection.assumptions.order[0])).toEqual([
          'robert',
          'margaret',
          'margaret',
        ])
        expect(await received(page, 'rendered')).toHaveLength(1)

        // A render (an update) starts again from its payload's assumptions, and says so.
        await send(page, await renderMessage(flowPayload))
        const rendered = (await waitFor(page, 'estate', 4)) as unknown as { projection: EstateProjection }
        expect(rendered.projection).toEqual(JSON.parse(JSON.stringify(projectEstate(flowPayload))))
        expect(await order.getByRole('radio', { name: 'Robert Chen' }).isChecked()).toBe(true)
        expect(consoleErrors).toEqual([])
      } finally {
        await page.close()
      }
    })
  })

  describe('0.2.0 extensions', () => {
    it('offers Download and Print only for what the render says the host handles', async () => {
      const session = await stack.mint()
      const render = (handles?: unknown) => ({
        type: 'render',
        v: 1,
        token: session.token,
        payload: example,
        ...(handles === undefined ? {} : { handles }),
      })
      const { page, chart, dialogs } = await openHost(render())
      try {
        await waitFor(page, 'rendered')
        // A hand-rolled host that says nothing: no control whose file or dialog would go nowhere.
        expect(await actionButtons(chart)).toEqual(['Present'])
        // Nor does a print request print: the sandbox would block the dialog, and the host did not offer.
        await send(page, { type: 'print', v: 1 })
        const cases: [unknown, string[]][] = [
          [
            ['download', 'print', 'fax'],
            ['Download PNG', 'Download SVG', 'Print', 'Present'],
          ],
          [['print'], ['Print', 'Present']],
          [['download'], ['Download PNG', 'Download SVG', 'Present']],
          ['download', ['Present']],
          [['download', 3], ['Present']],
          [{ download: true }, ['Present']],
        ]
        for (const [i, [handles, buttons]] of cases.entries()) {
          await send(page, render(handles))
          await waitFor(page, 'rendered', i + 2)
          expect(await actionButtons(chart), JSON.stringify(handles)).toEqual(buttons)
        }
        expect(await received(page, 'printdocument')).toEqual([])
        expect(await received(page, 'error')).toEqual([])
        expect(dialogs).toEqual([])
      } finally {
        await page.close()
      }
    })

    it("hands files and the print document to the host, at the render's origin only", async () => {
      const { page, chart } = await openHost({ ...(await renderMessage()), handles: ['download', 'print'] })
      try {
        await waitFor(page, 'rendered')
        // The host's print request: the print layout comes back as a document of its own.
        await send(page, { type: 'print', v: 1 })
        const printed = await waitFor(page, 'printdocument')
        expect(printed.title).toBe(example.household.name)
        expect(printed.html).toContain(example.household.name)
        expect(printed.html).not.toMatch(/<script|\son[a-z]+=/i)
        expect(printed.css).toContain('@media print')

        // Every message the chart posts from now on, with the target origin it names (window.parent
        // is a replaceable attribute: the chart posts through the recorder, which passes it on).
        await chart.evaluate(() => {
          const real = window.parent
          const w = window as unknown as { posted: { type: unknown; targetOrigin: string }[] }
          w.posted = []
          const recorder = {
            postMessage(message: { type?: unknown }, targetOrigin: string) {
              w.posted.push({ type: message.type, targetOrigin })
              real.postMessage(message, targetOrigin)
            },
          }
          Object.defineProperty(window, 'parent', { value: recorder, configurable: true })
        })
        await chart.getByRole('button', { name: 'Download SVG', exact: true }).click()
        const download = await waitFor(page, 'download')
        expect(download.fileName).toMatch(/^Chen Family.*family.*\.svg$/)
        expect(download.mediaType).toBe('image/svg+xml')
        const blob = await page.evaluate(async () => {
          const message = (globalThis as unknown as HostWindow).received.find((m) => m?.type === 'download')
          const data = message?.data
          return data instanceof Blob ? { type: data.type, start: (await data.text()).slice(0, 200) } : null
        })
        expect(blob?.type).toBe('image/svg+xml')
        expect(blob?.start).toContain('<svg')
        await chart.getByRole('button', { name: 'Print', exact: true }).click()
        await waitFor(page, 'printdocument', 2)
        const posted = await chart.evaluate(
          () => (window as unknown as { posted: { type: unknown; targetOrigin: string }[] }).posted,
        )
        expect(posted.filter((m) => m.type === 'download' || m.type === 'printdocument')).toEqual([
          { type: 'download', targetOrigin: stack.partner.origin },
          { type: 'printdocument', targetOrigin: stack.partner.origin },
        ])
      } finally {
        await page.close()
      }
    })

    for (const other of ['sibling', 'attacker'] as const) {
      it(`ignores setView, focus, print and appearance before a render and from another window (${other})`, async () => {
        const { page, chart } = await openHost(null, { [other]: true })
        try {
          const requests = [
            { type: 'setView', v: 1, view: 'estate' },
            { type: 'focus', v: 1, id: 'slat' },
            { type: 'print', v: 1 },
            // Answered with appearance_invalid if it were handled.
            { type: 'appearance', v: 1, appearance: { accentColor: 'red' } },
          ]
          // Before a render: nothing to act on, and not remembered.
          for (const request of requests) await send(page, request)
          await send(page, { ...(await renderMessage()), handles: ['download', 'print'] })
          await waitFor(page, 'rendered')
          // From another window in the partner page (same origin: only the source check refuses it;
          // the stranger's: the origin too).
          const url =
            other === 'sibling' ? `${stack.partner.origin}/sibling.html` : `${stack.stranger.origin}/attacker.html`
          const sender = page.frame({ url })
          if (!sender) throw new Error(`no ${other} frame`)
          await sender.evaluate((requests) => {
            for (const request of requests)
              (globalThis as unknown as FrameGlobals).parent.frames[0]?.postMessage(request, '*')
          }, requests)
          // A round trip: the chart handles messages in order, so everything above has been handled.
          await send(page, { type: 'render', v: 2 })
          expect(await waitFor(page, 'error')).toMatchObject({ code: 'version_unsupported' })
          for (const type of ['viewchange', 'select', 'printdocument'])
            expect(await received(page, type), type).toEqual([])
          expect(await received(page, 'error')).toHaveLength(1)
          expect(await shownTab(chart)).toBe('Family')
          expect(await chart.locator('#chart .hv-selected').count()).toBe(0)
        } finally {
          await page.close()
        }
      })
    }

    it('setView and focus from its host show the view and select the node, answered by viewchange and select', async () => {
      const { page, chart } = await openHost(await renderMessage())
      try {
        await waitFor(page, 'rendered')
        await send(page, { type: 'setView', v: 1, view: 'structure' })
        expect(await waitFor(page, 'viewchange')).toEqual({ type: 'viewchange', view: 'structure' })
        expect(await shownTab(chart)).toBe('Structure')
        await send(page, { type: 'focus', v: 1, id: 'ilit' })
        expect(await waitFor(page, 'select')).toEqual({ type: 'select', id: 'ilit', kind: 'entity' })
        // Values outside the rules are ignored.
        await send(page, { type: 'setView', v: 1, view: 'timeline' })
        await send(page, { type: 'focus', v: 1, id: 7 })
        await send(page, { type: 'setView', v: 2, view: 'estate' })
        await send(page, { type: 'render', v: 2 })
        await waitFor(page, 'error')
        expect(await received(page, 'viewchange')).toHaveLength(1)
        expect(await received(page, 'select')).toHaveLength(1)
        expect(await shownTab(chart)).toBe('Structure')
      } finally {
        await page.close()
      }
    })

    it('redraws in a new appearance on the view and theme shown; refuses an invalid one and keeps the chart', async () => {
      const { page, chart } = await openHost({ ...(await renderMessage()), appearance: { accentColor: '#7a3e9d' } })
      try {
        await waitFor(page, 'rendered')
        expect(await accentOf(chart)).toBe('#7a3e9d')
        await send(page, { type: 'setView', v: 1, view: 'estate' })
        await send(page, { type: 'theme', v: 1, theme: 'dark' })
        await send(page, { type: 'appearance', v: 1, appearance: { accentColor: '#0a6e5c', cornerRadius: 2 } })
        await expect.poll(() => accentOf(chart)).toBe('#0a6e5c')
        expect(await shownTab(chart)).toBe('Estate')
        expect(await themeOf(chart)).toBe('dark')
        expect(await received(page, 'rendered')).toHaveLength(1)

        await send(page, { type: 'appearance', v: 1, appearance: { cornerRadius: 99 } })
        const refused = await waitFor(page, 'error')
        expect(refused).toMatchObject({ code: 'appearance_invalid' })
        expect(refused.message).toContain('appearance.cornerRadius')
        expect(await accentOf(chart)).toBe('#0a6e5c')
        // Still drawn, on the view shown.
        expect(await chart.locator('#chart .hv-title').textContent()).toBe(example.household.name)
        expect(await shownTab(chart)).toBe('Estate')
      } finally {
        await page.close()
      }
    })

    it('refuses a render whose appearance breaks its rules', async () => {
      const answer = await expectRefused(
        { ...(await renderMessage()), appearance: { fontFamily: 'x; background: url(//evil.example)' } },
        'appearance_invalid',
      )
      expect(answer.message).toContain('appearance.fontFamily')
    })
  })
})

/** The partner's page: mounts the chart by spec §4.4 and records what it accepts (and what it ignores). */
function hostPage(chartUrl: string, render: Record<string, unknown> | null, attackerUrl: string | null) {
  const embedOrigin = new URL(chartUrl).origin
  const config = JSON.stringify({ embedOrigin, chartUrl, render, attackerUrl }).replace(/</g, '\\u003c')
  return {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><meta charset="utf-8"><title>Partner</title>
<body>
<script type="application/json" id="config">${config}</script>
<script>
  const config = JSON.parse(document.getElementById('config').textContent)
  window.received = []
  window.ignored = []
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin')
  frame.setAttribute('title', 'Household chart')
  // Wide enough for the example to fit whole (narrower hosts get a window onto the chart).
  frame.style.width = '1300px'
  frame.style.border = '0'
  frame.src = config.chartUrl
  window.send = (message) => frame.contentWindow.postMessage(message, config.embedOrigin)
  window.addEventListener('message', (event) => {
    if (event.origin !== config.embedOrigin || event.source !== frame.contentWindow) {
      window.ignored.push({ origin: event.origin, data: event.data })
      return
    }
    const data = event.data
    window.received.push(data)
    if (data && data.type === 'ready' && config.render) window.send(config.render)
    if (data && (data.type === 'rendered' || data.type === 'resize')) frame.style.height = data.height + 'px'
  })
  document.body.append(frame)
  if (config.attackerUrl) {
    const other = document.createElement('iframe')
    other.src = config.attackerUrl
    document.body.append(other)
  }
</script>
</body>`,
  }
}

async function received(page: Page, type: string): Promise<Message[]> {
  return page.evaluate(
    (wanted) => (globalThis as unknown as HostWindow).received.filter((message) => message?.type === wanted),
    type,
  )
}

/** The `count`-th message of `type` the host accepted (waits for it). */
async function waitFor(page: Page, type: string, count = 1): Promise<Message> {
  await page.waitForFunction(
    ([wanted, n]) =>
      (globalThis as unknown as HostWindow).received.filter((message) => message?.type === wanted).length >= n,
    [type, count] as const,
    { timeout: 10_000 },
  )
  const messages = await received(page, type)
  return messages[count - 1]!
}

async function send(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => (globalThis as unknown as HostWindow).send(m), message)
}

/**
 * Whether `name` is shown as literal text on a visible node of the drawing: the node's text lines,
 * read in order, start with the name, or with a shortened form of it ending in "…" (the drawing
 * shortens what does not fit; a deceased person's name is preceded by "† ").
 */
async function isNameVisible(chart: Frame, name: string): Promise<boolean> {
  const nodes = await chart
    .locator('#chart svg [role="button"]')
    .evaluateAll((elements) =>
      elements
        .filter((element) => element.getBoundingClientRect().width > 0)
        .map((element) => Array.from(element.querySelectorAll('text'), (text) => text.textContent ?? '').join(' ')),
    )
  return nodes.some((shown) => {
    const text = shown.replace(/^† /, '')
    if (text.startsWith(name)) return true
    const cut = text.indexOf('…')
    return cut > 0 && name.startsWith(text.slice(0, cut).trimEnd())
  })
}

/** Opens the chart's text version and reads it. */
async function textVersion(chart: Frame): Promise<string> {
  const details = chart.locator('#chart details').first()
  if (!(await details.evaluate((element) => (element as unknown as { open: boolean }).open)))
    await details.locator('summary').click()
  return details.innerText()
}

/** The labels of the chart head's action buttons (Download, Print, Present). */
async function actionButtons(chart: Frame): Promise<string[]> {
  return chart.locator('#chart .hv-actions button').allTextContents()
}

/** The label of the view tab shown. */
async function shownTab(chart: Frame): Promise<string | null> {
  return chart.locator('#chart [role="tab"][aria-selected="true"]').textContent()
}

/** The accent colour the chart's shell computes (the host's appearance, or the chart's own). */
async function accentOf(chart: Frame): Promise<string> {
  return chart.locator('#chart').evaluate((shell) => getComputedStyle(shell).getPropertyValue('--accent').trim())
}

async function themeOf(chart: Frame): Promise<string | null> {
  return chart.locator('[data-theme]').first().getAttribute('data-theme')
}

/** A chart token signed by a key the embed origin never published, under `kid`. */
async function signedByNewKey(kid: string, stack: ChartStack): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256')
  return new SignJWT({ frameOrigin: stack.partner.origin })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuer('x')
    .setSubject(stack.orgId)
    .setAudience(stack.embedOrigin)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey)
}
