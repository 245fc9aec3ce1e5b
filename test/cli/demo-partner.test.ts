// The demo partner site that `npm start` runs beside the API and the embed origin: a pretend CRM
// on a third origin that embeds the household chart as a partner would. Its token endpoint mints
// over real HTTP with the demo key (which never reaches the browser) for its own registered
// origins only; its page carries the CSP a partner needs; in Chromium it shows the chart.
import http from 'node:http'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHART_VERSION } from '../../chart/version.ts'
import { RELEASES_DIR } from '../../chart/release.ts'
import { freshPgliteDir } from '../helpers/stores.ts'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import {
  expectEndsAfterGivingBack,
  hearthJson,
  killAll,
  startServer,
  type Banner,
  type ServerProcess,
} from '../helpers/cli.ts'

const TIMEOUT = 120_000

let dataDir = ''
let server: ServerProcess
let banner: Banner
let partnerUrl = ''
let port = 0

beforeAll(async () => {
  dataDir = freshPgliteDir()
  ;({ server, banner } = await startServer({ HEARTH_DATA_DIR: dataDir }))
  partnerUrl = banner.demoPartnerUrl ?? ''
  port = Number(new URL(partnerUrl || 'http://x:1').port)
}, TIMEOUT)

afterAll(async () => {
  await killAll()
  rmSync(dataDir, { recursive: true, force: true })
}, TIMEOUT)

/** A request with the Host header as given (fetch would set it from the URL). */
function request(
  method: string,
  urlPath: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers }, (response) => {
      let body = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>
}

describe('the demo partner site', () => {
  it('the banner prints its URL in the banner style', () => {
    expect(partnerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(port).toBeGreaterThan(0)
    expect(banner.text).toContain(
      `\n  Demo partner ${partnerUrl}   (the household chart, embedded as a partner would)\n`,
    )
    expect(new Set([banner.apiUrl, banner.embedUrl, partnerUrl]).size).toBe(3)
  })

  it('registers its two origins for the demo organization', async () => {
    const { origins } = await hearthJson(['origins', 'list', '--org', banner.demoOrgId ?? ''], {
      HEARTH_DATA_DIR: dataDir,
    })
    expect(origins).toEqual([`http://127.0.0.1:${port}`, `http://localhost:${port}`])
  })

  it('POST /chart-token mints for the origin the browser is on, and only for its own origins', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const host = origin.slice('http://'.length)
      const response = await request('POST', '/chart-token', { host, origin })
      expect(response.status, response.body).toBe(200)
      const body = JSON.parse(response.body) as { token: string; expiresAt: string }
      // Only what the page needs: no key, no embedUrl, nothing else.
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'token'])
      expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now())
      expect(claims(body.token)).toMatchObject({ frameOrigin: origin, aud: banner.embedUrl, sub: banner.demoOrgId })
      expect(response.body).not.toContain('idx_')
    }
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      'localhost',
      '127.0.0.1',
      `[::1]:${port}`,
    ]) {
      const response = await request('POST', '/chart-token', { host })
      expect(response.status, host).toBe(400)
      expect((JSON.parse(response.body) as { error: string }).error).toContain('mints tokens only for')
    }
    // Another site's page may not spend the demo's tokens.
    const crossSite = await request('POST', '/chart-token', {
      host: `127.0.0.1:${port}`,
      origin: 'https://evil.example',
    })
    expect(crossSite.status).toBe(403)
    expect((await request('GET', '/chart-token', { host: `127.0.0.1:${port}` })).status).toBe(405)
  })

  it('serves the page with the CSP a partner needs, and no inline script', async () => {
    const page = await fetch(`${partnerUrl}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const embed = banner.embedUrl
    expect(page.headers.get('content-security-policy')).toBe(
      `default-src 'self'; script-src 'self' ${embed}; connect-src 'self' ${embed}; frame-src ${embed}; style-src 'self'`,
    )
    const html = await page.text()
    expect(html).toContain('Acme Advisors CRM')
    expect(html).toContain('Household chart')
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/app.js">'])
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/)

    const script = await (await fetch(`${partnerUrl}/app.js`)).text()
    expect(script).toContain(`import { mountHouseholdChart } from '${embed}/chart/v${CHART_VERSION}/sdk.js'`)
    expect(script).toContain(`/chart/v\${version}/example.json`)
    for (const text of [html, script]) {
      expect(text).not.toContain('idx_')
      if (banner.demoKey) expect(text).not.toContain(banner.demoKey)
    }
  })

  it.runIf(hasChromium())(
    'in Chromium the page shows the example household in the chart, with a working theme toggle and events log',
    async () => {
      expect(
        existsSync(path.join(RELEASES_DIR, `v${CHART_VERSION}`, 'sdk.js')),
        `dist/chart/v${CHART_VERSION}/ is missing: run npm run chart:release`,
      ).toBe(true)
      const browser = await launchChromium()
      try {
        const page = await browser.newPage()
        const problems: string[] = []
        page.on('pageerror', (error) => problems.push(error.message))
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text())
        })
        await page.goto(partnerUrl)
        const iframe = page.locator('#household-chart iframe')
        await iframe.waitFor({ state: 'attached' })
        const chart = page.frameLocator('#household-chart iframe').locator('#chart')
        await expect.poll(() => chart.textContent(), { timeout: 15_000 }).toContain('Robert Chen')
        expect(await chart.textContent()).toContain('Margaret Chen')
        await expect.poll(() => page.locator('#events').textContent()).toContain('rendered')

        // Selecting a person in the chart reaches the partner page's events log.
        await chart.locator('[role="button"][aria-label*="Margaret Chen"]').first().click()
        await expect
          .poll(() => page.locator('#events').textContent())
          .toContain('select person Margaret Chen (margaret)')
        expect(await page.locator('#selection').textContent()).toBe('Selected: Margaret Chen (person)')

        await page.click('#theme-toggle')
        await expect.poll(() => chart.getAttribute('data-theme')).toBe('dark')
        expect(await page.getAttribute('html', 'data-theme')).toBe('dark')
        expect(problems).toEqual([])
      } finally {
        await browser.close()
      }
    },
    TIMEOUT,
  )

  it(
    'stops with the server, and takes its origins away with it',
    async () => {
      server.child.kill('SIGTERM')
      expect(
        await expectEndsAfterGivingBack(server, dataDir, () => !existsSync(path.join(dataDir, 'hearth.lock'))),
      ).toEqual({ code: 0, signal: null })
      await expect(fetch(`${partnerUrl}/`)).rejects.toThrow()
      const { origins } = await hearthJson(['origins', 'list', '--org', banner.demoOrgId ?? ''], {
        HEARTH_DATA_DIR: dataDir,
      })
      expect(origins).toEqual([])
    },
    TIMEOUT,
  )
})
