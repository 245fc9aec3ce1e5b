// The web app's client: one script and one stylesheet, bundled by esbuild from src/web/client when
// the first page is asked for (about a third of a second, once per process), then served from
// memory under content-hashed names, so browsers may cache them for a year.
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { CHART_VERSION } from '../../chart/version.ts'

const clientDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'client')
export const ASSET_PREFIX = '/app/'

export interface Asset {
  contentType: string
  body: Buffer
  /** The same bytes gzipped, for browsers that accept it (all do). */
  gzipped: Buffer
}

export interface WebAssets {
  scriptPath: string
  stylesheetPath: string
  /** Asset path (under ASSET_PREFIX) → asset. */
  files: Map<string, Asset>
}

let built: Promise<WebAssets> | undefined

/** Builds once per process; a failed build is retried on the next request. */
export function webAssets(): Promise<WebAssets> {
  built ??= buildWebAssets().catch((error: unknown) => {
    built = undefined
    throw error
  })
  return built
}

async function buildWebAssets(): Promise<WebAssets> {
  const result = await build({
    entryPoints: [path.join(clientDir, 'main.tsx')],
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'eof',
    write: false,
    outdir: 'out',
    entryNames: 'app',
    logLevel: 'silent',
    // The chart SDK is bundled in; it frames the chart release of this version from the embed origin.
    define: { __CHART_VERSION__: JSON.stringify(CHART_VERSION) },
  })
  const script = result.outputFiles.find((file) => file.path.endsWith('.js'))
  const stylesheet = result.outputFiles.find((file) => file.path.endsWith('.css'))
  if (!script || !stylesheet) throw new Error('the web app build must give one script and one stylesheet')
  const files = new Map<string, Asset>()
  const add = (extension: string, contentType: string, contents: Uint8Array) => {
    const body = Buffer.from(contents)
    const name = `${ASSET_PREFIX}app-${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${extension}`
    files.set(name, { contentType, body, gzipped: gzipSync(body, { level: 9 }) })
    return name
  }
  return {
    scriptPath: add('js', 'text/javascript; charset=utf-8', script.contents),
    stylesheetPath: add('css', 'text/css; charset=utf-8', stylesheet.contents),
    files,
  }
}
