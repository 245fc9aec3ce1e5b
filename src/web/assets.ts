// The web app's client: one script and one stylesheet, built ahead of time by `npm run build`
// (bundle.ts) under content-hashed names, so browsers may cache them for a year. The server reads
// them, with their gzipped copies, when the first page is asked for, and serves them from memory.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { projectPath } from '../project-files.ts'

export const ASSET_PREFIX = '/app/'

/** build/web: where the built client is. */
export const WEB_BUILD_DIR = projectPath('build', 'web')
export const MANIFEST_FILE = 'manifest.json'

/** manifest.json: the names, in WEB_BUILD_DIR, of the script and the stylesheet. */
export interface WebManifest {
  script: string
  stylesheet: string
}

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

let loaded: Promise<WebAssets> | undefined

/** Reads the built client once per process; a failed read is retried on the next request. */
export function webAssets(): Promise<WebAssets> {
  loaded ??= loadWebAssets().catch((error: unknown) => {
    loaded = undefined
    throw error
  })
  return loaded
}

async function loadWebAssets(): Promise<WebAssets> {
  let manifest: WebManifest
  try {
    manifest = JSON.parse(await readFile(path.join(WEB_BUILD_DIR, MANIFEST_FILE), 'utf8')) as WebManifest
  } catch (error) {
    throw new Error(`the web app is not built (${(error as Error).message}): run npm run build`, { cause: error })
  }
  const files = new Map<string, Asset>()
  const add = async (name: string, contentType: string): Promise<string> => {
    const [body, gzipped] = await Promise.all([
      readFile(path.join(WEB_BUILD_DIR, name)),
      readFile(path.join(WEB_BUILD_DIR, `${name}.gz`)),
    ])
    files.set(`${ASSET_PREFIX}${name}`, { contentType, body, gzipped })
    return `${ASSET_PREFIX}${name}`
  }
  const [scriptPath, stylesheetPath] = await Promise.all([
    add(manifest.script, 'text/javascript; charset=utf-8'),
    add(manifest.stylesheet, 'text/css; charset=utf-8'),
  ])
  return { scriptPath, stylesheetPath, files }
}
