// `hearth serve` (and `npm start`): starts Hearth, prints where it is and, with the demo, a
// curl line that works as pasted; stops cleanly on SIGINT or SIGTERM. With --workers n (or
// HEARTH_WORKERS) on PostgreSQL, the API runs in n worker processes (src/cluster/).
import cluster from 'node:cluster'
import { loadConfig, type Config } from '../config.ts'
import { serve, type Listener, type RunningService } from '../serve.ts'
import { DataDirBusyError } from '../operator/data-dir-lock.ts'
import { appliedMigrationsLine } from '../store/migrate.ts'
import { WorkerPool } from '../cluster/primary.ts'
import { runWorker } from '../cluster/worker.ts'
import { CliError } from './cli-error.ts'
import { usesDemo, usesDevelopmentSignIn } from '../dev-idp/loopback-only.ts'

function banner(config: Config, service: RunningService, workerPids: number[] | undefined): string {
  const lines = ['', 'Hearth is running']
  if (service.apiUrl) {
    lines.push(`  Web app      ${service.apiUrl}/   sign in there`)
    lines.push(`  API          ${service.apiUrl}   reference: ${service.apiUrl}/docs`)
    if (workerPids)
      lines.push(
        `  Workers      ${workerPids.length} processes serve the API (pids ${workerPids.join(', ')}); one that ends is replaced`,
      )
  }
  if (service.signIn) {
    const how = service.signIn.development
      ? 'development identity provider: choose a demo person, no password'
      : 'OIDC_ISSUER'
    lines.push(`  Sign-in      ${service.signIn.issuer}   (${how})`)
  } else if (service.apiUrl) {
    lines.push('  Sign-in      not set up: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (see the README)')
  }
  if (service.embedUrl) lines.push(`  Embed origin ${service.embedUrl}`)
  if (service.demoPartnerUrl)
    lines.push(`  Demo partner ${service.demoPartnerUrl}   (the household chart, embedded as a partner would)`)
  lines.push(`  Database     ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}`}`)
  if (service.demo && service.apiUrl) {
    const { org, key, created } = service.demo
    lines.push(
      '',
      `Demo organization "${org.name}" (${org.id})${created ? ', created with sample households' : ''}.`,
      'A fresh demo key (valid 30 days) — paste this to list its households:',
      '',
      `  curl -s -H "Authorization: Bearer ${key}" "${service.apiUrl}/api/v1/relationships?pageSize=3"`,
      '',
      'Turn the demo off with HEARTH_DEMO=0 (it is always off with NODE_ENV=production).',
    )
  }
  return lines.join('\n') + '\n'
}

/** `workers`: the --workers flag, which wins over HEARTH_WORKERS. */
export async function serveCommand(only: Listener | undefined, workers?: number): Promise<number> {
  if (cluster.isWorker) return runWorker()
  const config = loadConfig()
  const count = workers ?? config.workers
  const setting = workers === undefined ? `HEARTH_WORKERS=${count}` : `--workers ${count}`
  if (count > 1 && !config.databaseUrl) {
    throw new CliError(
      `${setting} needs PostgreSQL (DATABASE_URL): the embedded database can be opened by one process only`,
      2,
    )
  }
  if (count > 1 && only === 'embed')
    throw new CliError(`${setting} runs the API in several processes, and --only embed runs no API`, 2)
  const pool = count > 1 ? new WorkerPool(count) : undefined
  let service: RunningService
  try {
    service = await serve(config, only, pool?.start)
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      throw new CliError(`${error.message}. Stop it first, or point HEARTH_DATA_DIR at another directory.`, 1)
    }
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      throw new CliError(
        `${(error as Error).message}: another program uses that port; set PORT / HEARTH_EMBED_PORT${usesDemo(config, only) ? ' / HEARTH_DEMO_PORT' : ''}${usesDevelopmentSignIn(config, only) ? ' / HEARTH_IDP_PORT' : ''}`,
        1,
      )
    }
    throw error
  }
  const migrated = appliedMigrationsLine(service.store.migrations)
  process.stdout.write((migrated ? `${migrated}\n` : '') + banner(config, service, pool?.pids()))
  return new Promise((resolve, reject) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`${signal} again: exiting without waiting\n`)
        process.exit(1)
      }
      stopping = true
      process.stderr.write(`${signal}: finishing in-flight requests, then stopping\n`)
      service.close().then(() => resolve(0), reject)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    void pool?.gaveUp.then(async (reason) => {
      if (stopping) return
      stopping = true
      await service
        .close()
        .catch((error: unknown) => process.stderr.write(`while stopping: ${(error as Error).message}\n`))
      reject(new CliError(reason, 1))
    })
  })
}
