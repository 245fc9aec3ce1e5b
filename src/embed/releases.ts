// The released chart builds under dist/chart/v<version>/, read once at start into memory (a release
// is a few files of a few KB). Only directories named like a release are served: a staging
// directory, `latest` or anything else is not a version.
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { projectPath } from '../project-files.ts'

const DEFAULT_RELEASES_DIR = projectPath('dist', 'chart')

const VERSION_DIRECTORY = /^v\d+\.\d+\.\d+$/

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
}

export interface ChartFile {
  body: Buffer
  contentType: string
  /** Strong validator: the SHA-256 of the bytes. */
  etag: string
  /** The pinned page itself, which carries the CSP. */
  isPage: boolean
}

/** Every released file by its URL path, e.g. `/chart/v0.1.0/index.html`. */
export type ChartReleases = Map<string, ChartFile>

export async function loadChartReleases(directory: string = DEFAULT_RELEASES_DIR): Promise<ChartReleases> {
  const releases: ChartReleases = new Map()
  let versions: string[]
  try {
    versions = (await readdir(directory, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && VERSION_DIRECTORY.test(entry.name))
      .map((entry) => entry.name)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return releases
    throw error
  }
  for (const version of versions) {
    for (const name of await readdir(path.join(directory, version))) {
      const file = chartFile(name, await readFile(path.join(directory, version, name)))
      if (file) releases.set(`/chart/${version}/${name}`, file)
    }
  }
  return releases
}

/** How a release file is served; undefined for a kind of file that is not served. */
export function chartFile(name: string, body: Buffer): ChartFile | undefined {
  const contentType = CONTENT_TYPES[path.extname(name)]
  if (!contentType) return undefined
  return {
    body,
    contentType,
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
    isPage: name === 'index.html',
  }
}

/** The released versions, e.g. ['0.1.0'], for messages and the banner. */
export function releasedVersions(releases: ChartReleases): string[] {
  const versions = new Set([...releases.keys()].map((key) => key.split('/')[2]?.slice(1) ?? ''))
  return [...versions].filter(Boolean).sort()
}
