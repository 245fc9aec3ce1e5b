// Whether build/ still matches the sources it was compiled from. The build records when it started
// and which files it read (build/build-info.json); it is stale once any of them is newer or gone.
// Cheap enough for every start of `hearth` (a few hundred stat calls), so it needs nothing but node:fs.
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUILD_DIR = path.join(ROOT, 'build')
export const BUILD_INFO = path.join(BUILD_DIR, 'build-info.json')

/**
 * @typedef {object} BuildInfo
 * @property {number} startedAt when the build began to read its sources (ms since the epoch)
 * @property {string[]} inputs the files it read, relative to the project folder
 * @property {string[]} outputs the compiled files it wrote, relative to the project folder
 */

/** @returns {BuildInfo | undefined} */
export function readBuildInfo() {
  try {
    return JSON.parse(readFileSync(BUILD_INFO, 'utf8'))
  } catch {
    return undefined
  }
}

/** @returns {string | undefined} why build/ must be built again, or undefined when it is up to date */
export function staleBecause() {
  const info = readBuildInfo()
  if (!info) return 'there is no build yet'
  for (const input of info.inputs) {
    let modified
    try {
      modified = statSync(path.join(ROOT, input)).mtimeMs
    } catch {
      return `${input} is gone since the last build`
    }
    if (modified > info.startedAt) return `${input} changed after the last build`
  }
  return undefined
}
