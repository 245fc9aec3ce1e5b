// The web app's client as the server serves it: one hashed script and stylesheet, built ahead of
// time from today's sources (npm run build, which the suite runs first), gzip as sent, inside the
// first-load budget, and a shell that names them.
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { webAssets, MANIFEST_FILE, type WebManifest } from '../../src/web/assets.ts'
import { bundleWebApp } from '../../src/web/bundle.ts'
import { shellPage, appPolicy } from '../../src/web/pages.ts'

const FIRST_LOAD_BUDGET_GZIP_BYTES = 150 * 1024

describe('web app assets', () => {
  it('has one content-hashed script and stylesheet within the first-load budget', async () => {
    const assets = await webAssets()
    expect(assets.scriptPath).toMatch(/^\/app\/app-[0-9a-f]{12}\.js$/)
    expect(assets.stylesheetPath).toMatch(/^\/app\/app-[0-9a-f]{12}\.css$/)
    const script = assets.files.get(assets.scriptPath)
    if (!script) throw new Error('no script')
    expect(gunzipSync(script.gzipped).equals(script.body)).toBe(true)
    expect(script.gzipped.length).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_GZIP_BYTES)
  })

  it('serves what the sources build now, each file named by the hash of its bytes', async () => {
    const assets = await webAssets()
    for (const [name, asset] of assets.files) {
      const hash = createHash('sha256').update(asset.body).digest('hex').slice(0, 12)
      expect(name).toMatch(new RegExp(`^/app/app-${hash}\\.(js|css)$`))
      expect(gunzipSync(asset.gzipped).equals(asset.body)).toBe(true)
    }
    const fresh = mkdtempSync(path.join(os.tmpdir(), 'hearth-web-bundle-'))
    try {
      const { inputs } = await bundleWebApp(fresh)
      expect(inputs).toContain('src/web/client/main.tsx')
      const manifest = JSON.parse(readFileSync(path.join(fresh, MANIFEST_FILE), 'utf8')) as WebManifest
      expect([assets.scriptPath, assets.stylesheetPath]).toEqual([
        `/app/${manifest.script}`,
        `/app/${manifest.stylesheet}`,
      ])
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('the shell loads exactly those, with no inline script or style', async () => {
    const assets = await webAssets()
    const html = shellPage(assets)
    expect(html).toContain(`src="${assets.scriptPath}"`)
    expect(html).toContain(`href="${assets.stylesheetPath}"`)
    expect(html).not.toMatch(/<script>(?!<\/script>)|<style|style="/)
  })

  it('the policy allows frames only from the embed origin and no inline code', () => {
    const policy = appPolicy('https://embed.example.com')
    expect(policy).toContain('frame-src https://embed.example.com')
    expect(policy).toContain("script-src 'self'")
    expect(policy).not.toContain('unsafe-inline')
    expect(policy).toContain("frame-ancestors 'none'")
  })
})
