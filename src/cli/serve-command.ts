// `hearth serve` (and `npm start`): starts Hearth, prints where it is and, with the demo, a
// curl line that works as pasted; stops cleanly on SIGINT or SIGTERM.
import { loadConfig, type Config } from '../config.ts'
import { serve, type Listener, type RunningService } from '../serve.ts'
import { DataDirBusyError } from '../admin/data-dir-lock.ts'
import { CliError } from './cli-error.ts'

function banner(config: Config, service: RunningService): string {
  const lines = ['', 'Hearth is running']
  if (service.apiUrl) {
    lines.push(`  Web app      ${service.apiUrl}/   sign in there`)
    lines.push(`  API          ${service.apiUrl}   reference: ${service.apiUrl}/docs`)
  }
  if (service.signIn) {
    const how = service.signIn.development ? 'development identity provider: choose a demo person, no password' : 'OIDC_ISSUER'
    lines.push(`  Sign-in      ${service.signIn.issuer}   (${how})`)
  } else if (service.apiUrl) {
    lines.push('  Sign-in      not set up: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (see the README)')
  }
  if (service.embedUrl) lines.push(`  Embed origin ${service.embedUrl}`)
  if (service.demoPartnerUrl) lines.push(`  Demo partner ${service.demoPartnerUrl}   (the household chart, embedded as a partner would)`)
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

export async function serveCommand(only: Listener | undefined): Promise<number> {
  const config = loadConfig()
  let service: RunningService
  try {
    service = await serve(config, only)
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      throw new CliError(`${error.message}. Stop it first, or point HEARTH_DATA_DIR at another directory.`, 1)
    }
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      throw new CliError(`${(error as Error).message}: another program uses that port; set PORT / HEARTH_EMBED_PORT${config.demo ? ' / HEARTH_DEMO_PORT' : ''}${config.oidcIssuer || config.production ? '' : ' / HEARTH_IDP_PORT'}`, 1)
    }
    throw error
  }
  process.stdout.write(banner(config, service))
  return new Promise((resolve) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`${signal} again: exiting without waiting\n`)
        process.exit(1)
      }
      stopping = true
      process.stderr.write(`${signal}: finishing in-flight requests, then stopping\n`)
      void service.close().then(() => resolve(0))
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}
