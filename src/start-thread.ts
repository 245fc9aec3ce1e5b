// Starts a worker thread on one of our own modules: compiled (build/), or from the sources (tests,
// bench, `node --import tsx`). From the sources it runs the compiled module while build/ is current
// (the test suite builds before it starts); otherwise the thread first registers tsx's loader
// through its API, since on Node 20 a worker inherits neither the parent's loader nor an --import
// in its execArgv. That registration costs about 0.4 s per thread, at every store a test opens.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

/** What scripts/build-freshness.js exports (plain JavaScript, beside bin/hearth.js, which uses it too). */
interface BuildFreshness {
  ROOT: string
  BUILD_DIR: string
  staleBecause: () => string | undefined
}

/** `source`: the module's .ts URL, as `new URL('./x.ts', import.meta.url)` names it beside its caller. */
export async function startThread(source: URL, workerData: unknown): Promise<Worker> {
  const compiledBeside = new URL(source.href.replace(/\.ts$/, '.js'))
  if (!import.meta.url.endsWith('.ts')) return new Worker(compiledBeside, { workerData })
  // Imported by a computed name so that the build does not compile the check into build/ (where it
  // would look for sources beside the compiled files): only the sources ask it.
  const freshness = new URL('../scripts/build-freshness.js', import.meta.url).href
  const { ROOT, BUILD_DIR, staleBecause } = (await import(freshness)) as BuildFreshness
  if (staleBecause() === undefined) {
    const compiled = path.join(BUILD_DIR, path.relative(ROOT, fileURLToPath(compiledBeside)))
    return new Worker(pathToFileURL(compiled), { workerData })
  }
  const bootstrap = `import(${JSON.stringify(tsxApi())}).then(({ register }) => { register(); return import(${JSON.stringify(source.href)}) })`
  return new Worker(bootstrap, { eval: true, workerData })
}

/** The URL of tsx's ESM API (`tsx/esm/api` under the import condition), from the exports of its package.json. */
function tsxApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } } | string>
  }
  const api = manifest.exports['./esm/api']
  const file = typeof api === 'object' ? api.import?.default : undefined
  if (!file) throw new Error("tsx's package.json no longer exports ./esm/api for import")
  return pathToFileURL(path.join(path.dirname(manifestPath), file)).href
}
