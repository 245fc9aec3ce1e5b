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
  /** 1, or ≥ 3: half the households in the measured org, a tenth in a reference org, the rest spread. */
  orgs: number
  /** API processes; above 1, each read case is measured on all of them too. */
  instances: number
  /** When set, each API process may use at most this many cores (a CFS quota, see cpu-limit.ts). */
  apiCpu: number | undefined
  /** Webhooks on: an endpoint of the measured org at a receiver here, and each API process delivering to it. */
  webhooks: boolean
  /** When set, the cases' figures are also written here as JSON (bench/growth.ts reads them). */
  jsonFile: string | undefined
}

/** From this many households, --orgs and --instances default to the issue-6 scale run. */
const SCALE_HOUSEHOLDS = 1_000_000
const SCALE_ORGS = 100
const SCALE_INSTANCES = 2

export const USAGE = `Usage: npm run bench -- [flags]
  --store postgres|pglite   store to benchmark (default postgres; DATABASE_URL is used when set,
                            else a throw-away database on postgres://postgres@127.0.0.1:5432)
  --households N            households to seed (default 100000)
  --duration S              measured seconds per case, API and ceiling each (default 8)
  --warmup S                unmeasured seconds before each measurement (default 2)
  --connections C           concurrent connections (default 10)
  --orgs N                  1, or N ≥ 3 orgs: half the households in the org the cases run against,
                            a tenth in a reference org (list-ref), the rest spread over the others
                            (default 1; ${SCALE_ORGS} from ${SCALE_HOUSEHOLDS.toLocaleString('en-US')} households)
  --instances N             API processes on the same database; above 1, each read case is also
                            measured on all N at once, the connections split between them
                            (default 1; ${SCALE_INSTANCES} from ${SCALE_HOUSEHOLDS.toLocaleString('en-US')} households)
  --cases a,b,…             subset of ${CASE_NAMES.join(',')} (default all;
                            list-ref only with --orgs 3 or more)
  --retries N               when other processes used more than 0.25 cores during a measurement,
                            wait for quiet and repeat it, up to N times; the quietest counts (default 2)
  --api-cpu C               cap each API process at C cores (0.1–4, e.g. 0.2) with a CFS quota, as a
                            container CPU limit would: with --instances, measures whether instances
                            add throughput when the API tier, not the database, is the limit
                            (Linux cgroup v1, root)
  --webhooks                register a webhook endpoint of every event type for the measured org, at
                            a receiver in this process, and run the webhook dispatcher and workers in
                            each API process: the write cases then pay for events and their deliveries
  --cpu-prof DIR            profile the API server child (node --cpu-prof) into DIR
  --json FILE               also write each case's figures to FILE as JSON (npm run bench:growth)
  --help                    this text`

export class UsageError extends Error {}

function positiveInteger(flag: string, raw: string, min = 1): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(`${flag} needs a whole number ≥ ${min}, got "${raw}"`)
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
    orgs: 1,
    instances: 1,
    apiCpu: undefined,
    webhooks: false,
    jsonFile: undefined,
  }
  let orgs: number | undefined
  let instances: number | undefined
  let cases: CaseName[] | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ''
    if (arg === '--help' || arg === '-h') return 'help'
    // Accept both "--flag value" and "--flag=value".
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined]
    const value = (): string => {
      const next = inline ?? argv[++i]
      if (next === undefined) throw new UsageError(`${flag} needs a value`)
      return next
    }
    switch (flag) {
      case '--store': {
        const store = value()
        if (store !== 'postgres' && store !== 'pglite')
          throw new UsageError(`--store must be postgres or pglite, got "${store}"`)
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
        const names = value()
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
        const unknown = names.filter((name) => !(CASE_NAMES as readonly string[]).includes(name))
        if (unknown.length > 0 || names.length === 0) {
          throw new UsageError(
            `--cases takes a comma-separated subset of ${CASE_NAMES.join(',')}; unknown: ${unknown.join(',') || '(empty)'}`,
          )
        }
        // Keep the canonical order: create runs last because it adds households.
        cases = CASE_NAMES.filter((name) => names.includes(name))
        break
      }
      case '--orgs':
        orgs = positiveInteger(flag, value())
        if (orgs === 2 || orgs > 1000) throw new UsageError(`--orgs must be 1 or 3–1000, got ${orgs}`)
        break
      case '--instances':
        instances = positiveInteger(flag, value())
        if (instances > 8) throw new UsageError(`--instances must be 1–8, got ${instances}`)
        break
      case '--retries':
        options.retries = positiveInteger(flag, value(), 0)
        break
      case '--webhooks':
        options.webhooks = true
        break
      case '--cpu-prof':
        options.cpuProfDir = value()
        break
      case '--json':
        options.jsonFile = value()
        break
      case '--api-cpu': {
        const raw = value()
        const cores = Number(raw)
        // 0.1 cores is Linux's smallest quota (1 ms) in the 10 ms period cpu-limit.ts uses.
        if (!/^\d+(\.\d+)?$/.test(raw) || cores < 0.1 || cores > 4)
          throw new UsageError(`--api-cpu needs a number of cores from 0.1 to 4, got "${raw}"`)
        options.apiCpu = cores
        break
      }
      default:
        throw new UsageError(`unknown flag "${arg}"`)
    }
  }
  const scale = options.households >= SCALE_HOUSEHOLDS
  options.orgs = orgs ?? (scale ? SCALE_ORGS : 1)
  options.instances = instances ?? (scale && options.store === 'postgres' ? SCALE_INSTANCES : 1)
  if (cases?.includes('list-ref') && options.orgs === 1)
    throw new UsageError('list-ref needs --orgs 3 or more (it lists the reference org)')
  options.cases = cases ?? CASE_NAMES.filter((name) => name !== 'list-ref' || options.orgs > 1)
  // A PGlite directory is opened by one process at a time.
  if (options.instances > 1 && options.store === 'pglite')
    throw new UsageError('--instances above 1 needs --store postgres (a PGlite directory is opened by one process)')
  if (options.connections < options.instances)
    throw new UsageError(`--connections (${options.connections}) must be at least --instances (${options.instances})`)
  return options
}
