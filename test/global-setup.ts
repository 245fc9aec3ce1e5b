// Creates the migrated PGlite template once per machine and migration set (a new PGlite
// directory costs seconds; copying one costs milliseconds).
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { openStore } from '../src/store/db.ts'
import { pgliteTemplateDir } from './helpers/environment.ts'

export default async function setup(): Promise<void> {
  const template = pgliteTemplateDir()
  if (existsSync(template)) return
  const building = mkdtempSync(path.join(path.dirname(template), 'hearth-template-building-'))
  const store = await openStore({ dataDir: building })
  await store.close()
  try {
    renameSync(building, template)
  } catch {
    rmSync(building, { recursive: true, force: true }) // Another run made it first.
  }
}
