// Released charts are immutable: the release checked in under dist/chart/ is exactly what the
// current source builds (so a change to the chart needs a new CHART_VERSION), releasing never
// rewrites a released version, and the embed origin serves every release byte for byte.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildChartRelease } from '../../chart/build.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { differences, readRelease, releaseChart, ReleaseConflictError, RELEASES_DIR } from '../../chart/release.ts'
import { loadChartReleases } from '../../src/embed/releases.ts'

const TIMEOUT = 60_000

describe('chart releases', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'hearth-releases-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))

  it(
    `dist/chart/v${CHART_VERSION}/ is what the current source builds (change the chart, raise CHART_VERSION, npm run chart:release)`,
    async () => {
      const released = await readRelease(path.join(RELEASES_DIR, `v${CHART_VERSION}`))
      expect(released, `dist/chart/v${CHART_VERSION}/ is missing: run npm run chart:release`).toBeDefined()
      expect(differences(released ?? new Map<string, Uint8Array>(), await buildChartRelease(CHART_VERSION))).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'the build is reproducible: two builds give the same bytes, with hashed names for the script and stylesheet',
    async () => {
      const [a, b] = [await buildChartRelease('9.9.9'), await buildChartRelease('9.9.9')]
      expect(differences(a, b)).toEqual([])
      const names = [...a.keys()].sort()
      expect(names).toEqual(
        expect.arrayContaining(['example.json', 'index.html', 'payload.schema.json', 'sdk.d.ts', 'sdk.js']),
      )
      const hashed = names.filter((name) => /^chart-[A-Za-z0-9]{10}\.(js|css)$/.test(name))
      expect(hashed).toHaveLength(2)
      const page = new TextDecoder().decode(a.get('index.html'))
      for (const name of hashed) expect(page).toContain(`"${name}"`)
    },
    TIMEOUT,
  )

  it(
    'adding a release leaves the older ones byte for byte, and the embed origin serves them all',
    async () => {
      expect(await releaseChart('0.1.0', scratch)).toBe('released')
      const before = await readRelease(path.join(scratch, 'v0.1.0'))
      expect(await releaseChart('0.1.1', scratch)).toBe('released')
      expect(await releaseChart('0.1.0', scratch)).toBe('unchanged')
      const after = await readRelease(path.join(scratch, 'v0.1.0'))
      expect(differences(before ?? new Map<string, Uint8Array>(), after ?? new Map<string, Uint8Array>())).toEqual([])

      const served = await loadChartReleases(scratch)
      for (const version of ['0.1.0', '0.1.1']) {
        const onDisk = await readRelease(path.join(scratch, `v${version}`))
        for (const [name, bytes] of onDisk ?? []) {
          expect(
            Buffer.compare(served.get(`/chart/v${version}/${name}`)?.body ?? Buffer.alloc(0), Buffer.from(bytes)),
            `${version}/${name}`,
          ).toBe(0)
        }
      }
    },
    TIMEOUT,
  )

  it(
    'refuses to rewrite a released version whose bytes would change, and touches nothing',
    async () => {
      const page = path.join(scratch, 'v0.1.0', 'index.html')
      writeFileSync(page, '<!doctype html><title>tampered</title>')
      await expect(releaseChart('0.1.0', scratch)).rejects.toThrow(ReleaseConflictError)
      await expect(releaseChart('0.1.0', scratch)).rejects.toThrow(
        /v0\.1\.0 is already released .*index\.html.*raise CHART_VERSION/,
      )
      expect(readFileSync(page, 'utf8')).toBe('<!doctype html><title>tampered</title>')
    },
    TIMEOUT,
  )

  it('serves only directories named like a release: not latest, not a staging directory', async () => {
    expect((await loadChartReleases(path.join(scratch, 'nowhere'))).size).toBe(0)
    for (const name of ['latest', 'v0.1', 'v0.3.0.staging-1']) {
      mkdirSync(path.join(scratch, name), { recursive: true })
      writeFileSync(path.join(scratch, name, 'index.html'), '<!doctype html>')
    }
    const versions = new Set([...(await loadChartReleases(scratch)).keys()].map((key) => key.split('/')[2]))
    expect([...versions].sort()).toEqual(['v0.1.0', 'v0.1.1'])
  })
})
