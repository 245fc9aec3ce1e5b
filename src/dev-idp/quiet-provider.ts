// oidc-provider prints two warnings that do not apply to the development identity provider and that
// told every newcomer running `npm start` that something was wrong:
// - "Unsupported runtime. Use Node.js v22.x LTS…", when version 9 loads on any Node.js release line
//   before 22 (it reads process.release.lts). It declares no engines and runs on Node.js 20.19,
//   Hearth's supported floor, where Hearth's sign-in tests run it.
// - "a quick start development-only in-memory adapter is used, you MUST change it…", when it keeps
//   its state in memory. This provider is for one developer's machine (loopback only, never
//   production): forgetting its sign-ins on restart is what it should do.
// Those two lines are dropped while the library loads and the provider is built; any other warning
// still prints.
import type Provider from 'oidc-provider'
import type { Configuration } from 'oidc-provider'

const NOT_APPLICABLE = [
  'oidc-provider WARNING: Unsupported runtime.',
  'oidc-provider WARNING: a quick start development-only in-memory adapter is used',
]

export async function createQuietProvider(issuer: string, configuration: Configuration): Promise<Provider> {
  const original = Object.getOwnPropertyDescriptor(console, 'warn')
  const warn = console.warn.bind(console)
  console.warn = (...data: unknown[]) => {
    const first = data[0]
    if (typeof first === 'string' && NOT_APPLICABLE.some((line) => first.includes(line))) return
    warn(...data)
  }
  try {
    const { default: OidcProvider } = await import('oidc-provider')
    return new OidcProvider(issuer, configuration)
  } finally {
    if (original) Object.defineProperty(console, 'warn', original)
  }
}
