// Files Hearth reads at run time (SQL migrations, chart releases, the demo partner's page, the
// prebuilt web app) are found from the project folder, whether this code runs from its sources
// (src/, under vitest or tsx) or compiled (build/src/, what `hearth` and `npm start` run): the
// folder is the nearest one above this file that holds package.json, so only .ts files are compiled
// and every other file is read where it lives.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

function projectRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`)
  }
}

const ROOT = projectRoot()

/** The absolute path of a file or folder given relative to the project folder. */
export function projectPath(...segments: string[]): string {
  return path.join(ROOT, ...segments)
}
