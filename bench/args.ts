// Command-line flags of `npm run bench`. Parsed by hand (no dependency) and validated up front,
// so that a typo fails in a second instead of after a minute of seeding.
import { CASE_NAMES, type CaseName } from './cases.ts'

export type StoreChoice = 'postgres' | 'pglite'

export interface BenchOptions {
  store: StoreChoice
  households: number
  /** Seconds of measurement per case (API and ceiling each). */
  duration: number
  /** Seconds of unmeasured load before each measurement: JIT, pool connections, caches. */
  warmup: number
  connections: number
  cases: CaseName[]
  /** Extra measurements allowed per server and case when other processes were busy. */
  retries: number
  /** When set, the API child runs with --cpu-prof and writes its profile here on exit. */
  cpuProfDir: string | undefined
}

export const USAGE = `Usage: npm run bench -- [flags]
  --store postgres|pglite   store to benchmark (default postgres; DATABASE_URL is used when set,
                            else a throw-away database on postgres://postgres@127.0.0.1:5432)
  --households N            households to seed (default 100000)
  --duration S              measured seconds per case, API and ceiling each (default 8)
  --warmup S                unmeasured seconds before each measurement (default 2)
  --connections C           concurrent connections (default 10)
  --cases a,b,…             subset of ${CASE_NAMES.join(',')} (default all)
  --retries N               when other processes used more than 0.25 cores during a measurement,
                            wait for quiet and repeat it, up to N times; the quietest counts (default 2)
  --cpu-prof DIR            profile the API server child (node --cpu-prof) into DIR
  --help                    this text`

export class UsageError extends Error {}

function positiveInteger(flag: string, raw: string, min = 1): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} needs a whole number ≥ ${min}, got "${raw}"`)
  return Number(raw)
}

export function parseArgs(argv: string[]): BenchOptions | 'help' {
  const options: BenchOptions = {
    store: 'postgres',
    households: 100_000,
    duration: 8,
    warmup: 2,
    connections: 10,
    cases: [...CASE_NAMES],
    retries: 2,
    cpuProfDir: undefined,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--help' || arg === '-h') return 'help'
    // Accept both "--flag value" and "--flag=value".
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = (): string => {
      const next = inline ?? argv[++i]
      if (next === undefined) throw new UsageError(`${flag} needs a value`)
      return next
    }
    switch (flag) {
      case '--store': {
        const store = value()
        if (store !== 'postgres' && store !== 'pglite') throw new UsageError(`--store must be postgres or pglite, got "${store}"`)
        options.store = store
        break
      }
      case '--households':
        options.households = positiveInteger(flag, value(), 50)
        break
      case '--duration':
        options.duration = positiveInteger(flag, value())
        break
      case '--warmup':
        options.warmup = positiveInteger(flag, value(), 0)
        break
      case '--connections':
        options.connections = positiveInteger(flag, value())
        break
      case '--cases': {
        const names = value().split(',').map((name) => name.trim()).filter(Boolean)
        const unknown = names.filter((name) => !(CASE_NAMES as readonly string[]).includes(name))
        if (unknown.length > 0 || names.length === 0) {
          throw new UsageError(`--cases takes a comma-separated subset of ${CASE_NAMES.join(',')}; unknown: ${unknown.join(',') || '(empty)'}`)
        }
        // Keep the canonical order: create runs last because it adds households.
        options.cases = CASE_NAMES.filter((name) => names.includes(name))
        break
      }
      case '--retries':
        options.retries = positiveInteger(flag, value(), 0)
        break
      case '--cpu-prof':
        options.cpuProfDir = value()
        break
      default:
        throw new UsageError(`unknown flag "${arg}"`)
    }
  }
  return options
}
