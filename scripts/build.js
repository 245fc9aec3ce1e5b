#!/usr/bin/env node
// `npm run build` (run by npm install too, and by bin/hearth.js when a source changed since the last
// build): compiles Hearth's TypeScript file by file into build/, in the layout of the sources
// (build/src/…, build/chart/…, so relative imports and import.meta.url keep their meaning), then
// builds the web app's client into build/web (src/web/bundle.ts). esbuild only removes the types:
// `npm run typecheck` (tsc --noEmit) is what checks them. Plain JavaScript, so that it runs before
// anything is compiled and without development dependencies.
//
//   node scripts/build.js              build
//   node scripts/build.js --if-stale   build only when a source changed since the last build
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { BUILD_DIR, BUILD_INFO, ROOT, readBuildInfo, staleBecause } from './build-freshness.js'

/**
 * What the compiled program can load: the CLI (every command and server, through its imports), the
 * threads it starts by path, not by import (the embedded database's, src/store/pglite-thread.ts; the
 * webhook deliveries', src/webhooks/start-delivery-thread.ts), the web build, and the benches' API server
 * (bench/api-server-script.ts: the benches measure the program as built, not under tsx).
 */
const ENTRIES = [
  'src/cli/main.ts',
  'src/store/pglite-worker.ts',
  'src/webhooks/delivery-thread.ts',
  'src/web/bundle.ts',
  // Only where the project has its benches: a copy with just the program (test/cli/build.test.ts) builds without it.
  ...(existsSync(path.join(ROOT, 'bench', 'server.ts')) ? ['bench/server.ts'] : []),
]
/** Files that change the output without being imported. */
const BUILD_SETTINGS = ['scripts/build.js', 'tsconfig.json']

/** Leaves every import as it is, but a relative one to a .ts file names the compiled .js beside it. */
const eachFileAlone = {
  name: 'each-file-alone',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined
      const relative = /^\.\.?\//.test(args.path)
      return { path: relative ? args.path.replace(/\.tsx?$/, '.js') : args.path, external: true }
    })
  },
}

/** Writes through a temporary name, so that a process starting meanwhile never reads half a file. */
function writeAtomically(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, contents)
  renameSync(temporary, file)
}

function sameContents(file, contents) {
  try {
    return readFileSync(file).equals(contents)
  } catch {
    return false
  }
}

/** Builds everything; returns how many compiled files it wrote (unchanged ones are left alone). */
export async function buildHearth() {
  const startedAt = Date.now()
  const common = { absWorkingDir: ROOT, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent' }
  // Every source file the entries reach, dynamic imports included.
  const graph = await build({
    ...common,
    entryPoints: ENTRIES,
    bundle: true,
    packages: 'external',
    write: false,
    metafile: true,
    outdir: 'unused',
  })
  const sources = Object.keys(graph.metafile.inputs).sort()
  const compiled = await build({
    ...common,
    entryPoints: sources,
    outdir: BUILD_DIR,
    outbase: '.',
    bundle: true,
    plugins: [eachFileAlone],
    write: false,
  })
  let written = 0
  for (const file of compiled.outputFiles) {
    if (sameContents(file.path, file.contents)) continue
    writeAtomically(file.path, file.contents)
    written++
  }
  const outputs = compiled.outputFiles.map((file) => path.relative(ROOT, file.path)).sort()
  const current = new Set(outputs)
  for (const old of readBuildInfo()?.outputs ?? []) if (!current.has(old)) rmSync(path.join(ROOT, old), { force: true })

  const bundleUrl = pathToFileURL(path.join(BUILD_DIR, 'src', 'web', 'bundle.js')).href
  const { bundleWebApp } = await import(bundleUrl)
  const web = await bundleWebApp()
  const inputs = [...new Set([...sources, ...web.inputs, ...BUILD_SETTINGS])].sort()
  writeAtomically(BUILD_INFO, JSON.stringify({ startedAt, inputs, outputs }, null, 2) + '\n')
  return written
}

/** Builds unless build/ is up to date; returns why it built, or undefined. */
export async function buildIfStale() {
  const reason = staleBecause()
  if (reason) await buildHearth()
  return reason
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now()
  try {
    if (process.argv.includes('--if-stale')) {
      const reason = await buildIfStale()
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      console.log(reason ? `Built build/ in ${seconds} s (${reason}).` : 'build/ is up to date.')
    } else {
      const written = await buildHearth()
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      console.log(`Built build/ in ${seconds} s (${written} compiled files changed).`)
    }
  } catch (error) {
    console.error(`The build failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
