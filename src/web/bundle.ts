// Builds the web app's client ahead of time (npm run build, run on install and by `hearth` when
// src/ changed): esbuild bundles src/web/client into one script and one stylesheet, named by the
// hash of their bytes so browsers may cache them for a year, each beside its gzipped copy, and
// manifest.json names them. The server only reads these files (assets.ts).
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { CHART_VERSION } from '../../chart/version.ts'
import { projectPath } from '../project-files.ts'
import { MANIFEST_FILE, WEB_BUILD_DIR, type WebManifest } from './assets.ts'

/** Writes through a temporary name, so that a server reading the folder never sees half a file. */
function writeAtomically(file: string, contents: Uint8Array | string): void {
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, contents)
  renameSync(temporary, file)
}

/** Bundles the client into outDir; gives the source files it read, relative to the project folder. */
export async function bundleWebApp(outDir: string = WEB_BUILD_DIR): Promise<{ inputs: string[] }> {
  const result = await build({
    absWorkingDir: projectPath(),
    entryPoints: [projectPath('src', 'web', 'client', 'main.tsx')],
    bundle: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'eof',
    write: false,
    metafile: true,
    outdir: 'out',
    entryNames: 'app',
    logLevel: 'silent',
    // The chart SDK is bundled in; it frames the chart release of this version from the embed origin.
    define: { __CHART_VERSION__: JSON.stringify(CHART_VERSION) },
  })
  const script = result.outputFiles.find((file) => file.path.endsWith('.js'))
  const stylesheet = result.outputFiles.find((file) => file.path.endsWith('.css'))
  if (!script || !stylesheet) throw new Error('the web app build must give one script and one stylesheet')
  mkdirSync(outDir, { recursive: true })
  const write = (extension: string, contents: Uint8Array): string => {
    const name = `app-${createHash('sha256').update(contents).digest('hex').slice(0, 12)}.${extension}`
    writeAtomically(path.join(outDir, name), contents)
    writeAtomically(path.join(outDir, `${name}.gz`), gzipSync(contents, { level: 9 }))
    return name
  }
  const manifest: WebManifest = { script: write('js', script.contents), stylesheet: write('css', stylesheet.contents) }
  writeAtomically(path.join(outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n')
  // Earlier builds' files go; a server that already read them keeps them in memory.
  const current = new Set([
    MANIFEST_FILE,
    manifest.script,
    `${manifest.script}.gz`,
    manifest.stylesheet,
    `${manifest.stylesheet}.gz`,
  ])
  for (const file of readdirSync(outDir)) if (!current.has(file)) rmSync(path.join(outDir, file), { force: true })
  return { inputs: Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/')) }
}
