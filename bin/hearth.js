#!/usr/bin/env node
// The `hearth` command: runs the compiled CLI in build/ (scripts/build.js; npm install builds it).
// A source edited since the last build would run stale code, so the command builds again first
// (about a second) and says so. Cluster workers run the build their primary checked, and the test
// suite, which builds once before it starts (test/global-setup.ts), sets HEARTH_SKIP_BUILD_CHECK=1
// so that files edited during a run do not rebuild under the tests' feet.
import cluster from 'node:cluster'
import { staleBecause } from '../scripts/build-freshness.js'

if (cluster.isPrimary && process.env.HEARTH_SKIP_BUILD_CHECK !== '1') {
  const reason = staleBecause()
  if (reason) {
    console.error(`hearth: ${reason}; building (npm run build)…`)
    const { buildHearth } = await import('../scripts/build.js')
    try {
      await buildHearth()
    } catch (error) {
      console.error(`hearth: the build failed: ${error instanceof Error ? error.message : String(error)}`)
      process.exit(1)
    }
  }
}
const { main } = await import('../build/src/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
