// The web app's client as the server serves it: one hashed script and stylesheet, gzip as sent,
// inside the first-load budget, and a shell that names them.
import { describe, expect, it } from 'vitest'
import { gunzipSync } from 'node:zlib'
import { webAssets } from '../../src/web/assets.ts'
import { shellPage, appPolicy } from '../../src/web/pages.ts'

const FIRST_LOAD_BUDGET_GZIP_BYTES = 150 * 1024

describe('web app assets', () => {
  it('builds one content-hashed script and stylesheet within the first-load budget', async () => {
    const assets = await webAssets()
    expect(assets.scriptPath).toMatch(/^\/app\/app-[0-9a-f]{12}\.js$/)
    expect(assets.stylesheetPath).toMatch(/^\/app\/app-[0-9a-f]{12}\.css$/)
    const script = assets.files.get(assets.scriptPath)
    if (!script) throw new Error('no script')
    expect(gunzipSync(script.gzipped).equals(script.body)).toBe(true)
    expect(script.gzipped.length).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_GZIP_BYTES)
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
