// The API server the benches start (server.ts), compiled as `hearth serve` runs the product: from
// build/, by plain node. From the sources it would run under tsx, whose loader and transformed
// sources add about 40 MB to the process's RSS (measured 2026-11-28: 174 MB against 133 MB once
// the app is ready), which is no part of what a user runs, and the RSS target is about the product.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Builds build/ if a source changed since the last build, and answers the compiled server's path. */
export function compiledApiServer(): string {
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.js', import.meta.url)), '--if-stale'], {
    stdio: ['ignore', process.stderr, process.stderr],
  })
  return fileURLToPath(new URL('../build/bench/server.js', import.meta.url))
}
