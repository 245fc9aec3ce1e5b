// Released charts are immutable: the release checked in under dist/chart/ is exactly what the
// current source builds (so a change to the chart needs a new CHART_VERSION), releasing never
// rewrites a released version, and the embed origin serves every release byte for byte.
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildChartRelease } from '../../chart/build.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { differences, readRelease, releaseChart, ReleaseConflictError, RELEASES_DIR } from '../../chart/release.ts'
import { loadChartReleases } from '../../src/embed/releases.ts'

const TIMEOUT = 60_000

/**
 * The SHA-256 of every file of each published release, as it was published. A partner pinned to one
 * of them must see no change, ever: a new chart is a new version beside them. Each is held from the
 * stop that published it (0.3.0 from stop 23, as it landed: bdf071a's build).
 */
const PUBLISHED: Record<string, Record<string, string>> = {
  '0.1.0': {
    'chart-4LfO05Pw0J.js': 'e0b7ced393f0d09d0926404d190a6238a9f496345d78a9ec89a3bc39396e5e76',
    'chart-x8mNzjS5fc.css': 'c7c98dce34b97dc14db303244b7e0fadb3e5b440ad523e0628ac685e5214136c',
    'example.json': '6ecd3821a349d9909903d08434719206ceaeb9e6af0f28de99ba89d8ab502f8d',
    'index.html': 'd908638b6c1cb5d5af165675180310739b6f238d20bff4c3ad96b988f0c4838f',
    'payload.schema.json': 'ed0ea28c58548cd47ca839d91a98053b92a56982e373d25b68e83c19c8cd5990',
    'sdk.d.ts': '767eee0ca0b2b2fb942134a35547dabe6470fb287513850915bd3f54d2e81233',
    'sdk.js': 'ef6227921b7262c53d01f85f94f3daba2d2350ea6f3f52dfc7a54d0fb1045a92',
  },
  '0.1.1': {
    'chart-RACv2Qui0K.js': '4400afd90ba2d0aed3bf51f0bef782273e7fd5288712f828ef3b78441afbc277',
    'chart-x8mNzjS5fc.css': 'c7c98dce34b97dc14db303244b7e0fadb3e5b440ad523e0628ac685e5214136c',
    'example.json': '6ecd3821a349d9909903d08434719206ceaeb9e6af0f28de99ba89d8ab502f8d',
    'index.html': 'fc0b8ae2b959390d3882b10787bb3bd9310f2d35d343c4a7b257cc18158891b9',
    'payload.schema.json': '0ffbf853bbb94068d1b9cd02710751960fa6daeaeaddb90fe76cabeae27c6cba',
    'sdk.d.ts': '767eee0ca0b2b2fb942134a35547dabe6470fb287513850915bd3f54d2e81233',
    'sdk.js': '66fb61a22830f5e098e2ee000d0b760542aa792e3bcd234962ce059faadcef22',
  },
  '0.2.0': {
    'chart-sosoiL5Kex.js': 'b28b2888be4a7bfd10a6dbad346e44f28a9e0815e9c13e3fcff2559a60601750',
    'chart-xDZCzJnxTY.css': 'fc3642cc99ff4d83b8a473e5059b1c29f030a776ce0ec2d2a2fc5109ee25cbc5',
    'example.json': 'fb585a1a70d1f398843f276a9dad5942e3249ca74cca2e1b93e92b87a36487b0',
    'index.html': '3ec9080657bfd4bf4e8d3faa79e9c81b093cca7b47de3e313efc4fc5daefcdb1',
    'payload.schema.json': 'fc50a2bcce82404e9ed8422f9cf13681ec1fd6e4ee085f98d4c0c0755e07871d',
    'sdk.d.ts': '2bdb5ae33522db8228f17865f208036461c563edd9ddd9535ee83b8cdf335bbe',
    'sdk.js': '3d4f78d233668de6c7d0d3c90c4d21d248d736b3f1a3f8300a91fd39dc13fc40',
  },
  '0.3.0': {
    'chart-VebGMgWEGD.js': '55e6c63205841835d4648de33da8e268c963dcb030ffb85eda770e00b9c1a745',
    'chart-fv5b8qv126.css': '7efe5bf2abf5dbaf99fb2fccbfd78ba56bad54a9fd6bf49daa9ed6ac2ac349ce',
    'example.json': 'fb585a1a70d1f398843f276a9dad5942e3249ca74cca2e1b93e92b87a36487b0',
    'index.html': 'f893b8e6b1836faee0a1acd05a93bf1b45f764e4b0985d417340ba6cabaa3906',
    'payload.schema.json': '8b71614abd4699222ab1bff528f495bb900650dd347cefb6c0d1660fb54b2b75',
    'sdk.d.ts': '83dc4ae71f558309c30861117fa7505b2084bf8ac4d19fc4372a2f3c242a85a5',
    'sdk.js': '8347daa3eb050315f4a4c2f03eb63b813cb12dfe256ef02bd7c317114079065b',
  },
}

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

  it.each(Object.entries(PUBLISHED))(
    'dist/chart/v%s/ is byte for byte as it was published',
    async (version, digests) => {
      const released = await readRelease(path.join(RELEASES_DIR, `v${version}`))
      const actual = Object.fromEntries(
        [...(released ?? new Map<string, Uint8Array>())].map(([name, bytes]) => [
          name,
          createHash('sha256').update(bytes).digest('hex'),
        ]),
      )
      expect(actual).toEqual(digests)
    },
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
