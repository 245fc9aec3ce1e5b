// `npm run chart:release`: builds the chart into dist/chart/v<CHART_VERSION>/. A released version is
// immutable — pages pinned to it must keep getting the same bytes — so an existing release is
// never overwritten: the same bytes again is a no-op, different bytes is an error asking for a new
// version number.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildChartRelease, type Release } from './build.ts'
import { CHART_VERSION } from './version.ts'

export const RELEASES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist/chart')

export type ReleaseOutcome = 'released' | 'unchanged'

export class ReleaseConflictError extends Error {}

export async function releaseChart(version: string, releasesDir: string = RELEASES_DIR): Promise<ReleaseOutcome> {
  const built = await buildChartRelease(version)
  const target = path.join(releasesDir, `v${version}`)
  const existing = await readRelease(target)
  if (existing) {
    const changed = differences(existing, built)
    if (changed.length === 0) return 'unchanged'
    throw new ReleaseConflictError(
      `v${version} is already released and released versions are immutable (${changed.join(', ')} would change): raise CHART_VERSION in chart/version.ts`,
    )
  }
  // Written beside the target and renamed into place, so the server never sees half a release.
  const staging = `${target}.staging-${process.pid}`
  await rm(staging, { recursive: true, force: true })
  await mkdir(staging, { recursive: true })
  for (const [name, bytes] of built) await writeFile(path.join(staging, name), bytes)
  await rename(staging, target)
  return 'released'
}

/** The files of a release directory, or undefined when there is none. */
export async function readRelease(directory: string): Promise<Release | undefined> {
  let names: string[]
  try {
    names = await readdir(directory)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const release: Release = new Map()
  for (const name of names.sort()) release.set(name, await readFile(path.join(directory, name)))
  return release
}

/** Names of files that differ, are missing, or are extra. */
export function differences(a: Release, b: Release): string[] {
  const names = new Set([...a.keys(), ...b.keys()])
  return [...names].sort().filter((name) => {
    const left = a.get(name)
    const right = b.get(name)
    return !left || !right || Buffer.compare(Buffer.from(left), Buffer.from(right)) !== 0
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const outcome = await releaseChart(CHART_VERSION)
    console.log(
      outcome === 'released'
        ? `Released chart v${CHART_VERSION} into dist/chart/v${CHART_VERSION}/`
        : `Chart v${CHART_VERSION} is already released with these bytes.`,
    )
  } catch (error) {
    if (!(error instanceof ReleaseConflictError)) throw error
    console.error(error.message)
    process.exitCode = 1
  }
}
