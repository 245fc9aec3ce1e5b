// The passwordless development sign-in signs anyone in as anyone (an admin of another
// organization included), and the demo prints a working key and serves a partner site: both are
// for one developer on one machine. Whatever NODE_ENV says, when either would start, HOST must be a
// loopback address and HEARTH_PUBLIC_URL (where browsers are sent back to) must name this machine.
import { ConfigError, type Config } from '../config.ts'
import { isLoopbackHost } from '../net/loopback.ts'
import type { Listener } from '../serve.ts'

type DevelopmentConfig = Pick<Config, 'host' | 'publicUrl' | 'oidcIssuer' | 'production' | 'demo'>

/**
 * Whether `hearth serve` starts the development identity provider: when the whole service runs here
 * (`only` unset) and no identity provider is configured, outside production (in production sign-in is
 * simply not set up). `--only api` is an instance among others behind a load balancer, where a
 * passwordless sign-in has no place; `--only embed` runs no API to sign in to.
 */
export function usesDevelopmentSignIn(config: DevelopmentConfig, only: Listener | undefined): boolean {
  return only === undefined && !config.oidcIssuer && !config.production
}

/** Whether `hearth serve` prepares the demo (its organization, key and partner site): never with `--only api`. */
export function usesDemo(config: DevelopmentConfig, only: Listener | undefined): boolean {
  return config.demo && only !== 'api'
}

/** Refuses (ConfigError, so exit 2) to start the development sign-in or the demo off loopback. */
export function assertDevelopmentServicesOnLoopback(config: DevelopmentConfig, only: Listener | undefined): void {
  const signIn = usesDevelopmentSignIn(config, only)
  const demo = usesDemo(config, only)
  if (!signIn && !demo) return
  const publicHost = config.publicUrl === undefined ? undefined : new URL(config.publicUrl).hostname
  const where = !isLoopbackHost(config.host)
    ? `HOST=${config.host} is not a loopback address`
    : publicHost !== undefined && !isLoopbackHost(publicHost)
      ? `HEARTH_PUBLIC_URL=${config.publicUrl} is not on this machine`
      : undefined
  if (!where) return
  const what =
    signIn && demo
      ? 'the passwordless development sign-in and the demo'
      : signIn
        ? 'the passwordless development sign-in'
        : 'the demo'
  const steps = [
    signIn ? 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET to sign in with your identity provider' : undefined,
    demo ? 'HEARTH_DEMO=0 to turn the demo off' : undefined,
  ].filter((step) => step !== undefined)
  const keepLocal = where.startsWith('HOST') ? 'HOST=127.0.0.1' : 'HEARTH_PUBLIC_URL=http://127.0.0.1:<PORT>'
  throw new ConfigError(
    `${where}, and ${what} must only be reachable from this machine: set ${steps.join(' and ')}, or ${keepLocal} to keep ${signIn && demo ? 'them' : 'it'} here`,
  )
}
