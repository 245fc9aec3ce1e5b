// `npm run bench:fairness`: does one organization flooding expensive requests slow down another?
// (issue 12, item 2: another organization's list p99 within 2× of its quiet value, as a ratio in one run.)
//
// Seeds PostgreSQL with several orgs (seed.ts: the big org holds half the households, the small
// "reference" org a tenth), then, once with the per-organization concurrency limit as production
// configures it and once with it off (HEARTH_ORG_CONCURRENCY=0), each on a fresh API process:
//   1. quiet: the small org's list page 1 at a fixed rate, alone;
//   2. flooded: the same, while the big org searches for "_" (it matches nothing, so every search
//      reads all of the org's search text) on 200 connections, each sending its next request as soon as
//      it is answered (a client that ignores Retry-After). The API's rate budgets are set out of reach (bench/server.ts): the flood runs
//      at the top of its budget, and only the concurrency limit stands between it and the pool.
// Prints, per setting, the small org's p50 and p99 quiet and flooded, their p99 ratio, and what
// the flood got (answers, 429s, errors). Progress goes to stderr, the report to stdout.
import { parseArgs } from 'node:util'
import { openStore } from '../src/store/db.ts'
import { cleanup, cleanupOnSignals } from './cleanup.ts'
import { provisionDatabase, type BenchDatabase } from './database.ts'
import { seed, type SeedResult } from './seed.ts'
import { compiledApiServer } from './api-server-script.ts'
import { startChild } from './child.ts'
import { measure, probe, warmUp, type LoadResult, type LoadSettings } from './load.ts'
import { RELATIONSHIPS, type CaseRequest } from './cases.ts'
import { describeMachine } from './machine.ts'

const log = (line: string) => console.error(line)

/** The target: the small org's flooded list p99 at most this many times its quiet p99. */
const TARGET_RATIO = 2
const LIST: CaseRequest = { method: 'GET', path: `${RELATIONSHIPS}?sortBy=name&sortOrder=asc&pageSize=50` }
const FLOOD: CaseRequest = { method: 'GET', path: `${RELATIONSHIPS}?search=_` }
/** The small org's offered load: a steady client, not a second flood (its latency is what is measured). */
const QUIET_CONNECTIONS = 4
const QUIET_RATE = 40
const ORGS = 3

interface Setting {
  label: string
  /** HEARTH_ORG_CONCURRENCY for the API process; undefined: production's default. */
  orgConcurrency: string | undefined
}
// The default, a share of 2 (about the cores of this machine's database), and off.
const SETTINGS: Setting[] = [
  { label: 'on, default (a share of 5 units, borrowing up to 10: the pool)', orgConcurrency: undefined },
  { label: 'on, HEARTH_ORG_CONCURRENCY=2 (borrowing up to 4)', orgConcurrency: '2' },
  { label: 'off (HEARTH_ORG_CONCURRENCY=0)', orgConcurrency: '0' },
]

interface Outcome {
  setting: Setting
  quiet: LoadResult
  flooded: LoadResult
  flood: LoadResult
}

const USAGE = `Usage: npm run bench:fairness -- [--households N] [--duration S] [--warmup S] [--flood-connections C]
  --households N          households to seed across ${ORGS} orgs; the flooding org gets half, the measured one a tenth (default 200000)
  --duration S            measured seconds, quiet and flooded each (default 10)
  --warmup S              unmeasured seconds before each (default 2)
  --flood-connections C   the flooding org's connections (default 200)`

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      households: { type: 'string', default: '200000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      'flood-connections': { type: 'string', default: '200' },
      help: { type: 'boolean', default: false },
    },
  })
  const whole = (name: string, raw: string, min: number) => {
    if (!/^\d+$/.test(raw) || Number(raw) < min)
      throw new Error(`--${name} needs a whole number ≥ ${min}, got "${raw}"\n\n${USAGE}`)
    return Number(raw)
  }
  return {
    help: values.help,
    households: whole('households', values.households, 100),
    duration: whole('duration', values.duration, 1),
    warmup: whole('warmup', values.warmup, 0),
    floodConnections: whole('flood-connections', values['flood-connections'], 1),
  }
}

async function seedOrgs(
  database: BenchDatabase,
  households: number,
): Promise<SeedResult & { reference: NonNullable<SeedResult['reference']> }> {
  log(
    `Seeding ${households.toLocaleString('en-US')} households across ${ORGS} orgs into PostgreSQL at ${database.where}…`,
  )
  const store = await openStore({
    databaseUrl: database.databaseUrl,
    dataDir: '',
    poolMax: 2,
    statementTimeoutMs: 3_600_000,
  })
  try {
    const seeded = await seed(store, households, log, undefined, ORGS)
    const { reference } = seeded
    if (!reference) throw new Error('the seed made no second org')
    return { ...seeded, reference }
  } finally {
    await store.close()
  }
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

async function measureSetting(
  setting: Setting,
  database: BenchDatabase,
  seeded: Awaited<ReturnType<typeof seedOrgs>>,
  run: ReturnType<typeof options>,
): Promise<Outcome> {
  const env: Record<string, string> = { BENCH_DATABASE_URL: database.databaseUrl ?? '' }
  if (setting.orgConcurrency !== undefined) env.HEARTH_ORG_CONCURRENCY = setting.orgConcurrency
  const api = await startChild({
    name: `API server (limit ${setting.label})`,
    script: compiledApiServer(),
    env,
  })
  try {
    const url = `http://127.0.0.1:${api.port}`
    const quietSettings: LoadSettings = {
      connections: QUIET_CONNECTIONS,
      rate: QUIET_RATE,
      duration: run.duration,
      warmup: run.warmup,
      headers: bearer(seeded.reference.apiKey),
    }
    const floodSettings: LoadSettings = {
      connections: run.floodConnections,
      // Running from before the quiet org's warm-up to after its measurement.
      duration: run.warmup + run.duration + 2,
      warmup: 0,
      headers: bearer(seeded.apiKey),
    }
    for (const [request, headers] of [
      [LIST, quietSettings.headers],
      [FLOOD, floodSettings.headers],
    ] as const) {
      const answer = await probe(url, request, headers)
      if (answer.status !== 200)
        throw new Error(`${request.path}: the API answered ${answer.status}: ${answer.body.slice(0, 300)}`)
    }

    log(`limit ${setting.label}: quiet…`)
    await warmUp([url], LIST, quietSettings)
    const quiet = await measure([url], LIST, quietSettings)
    log(
      `  quiet:   p50 ${quiet.p50Ms} ms, p99 ${quiet.p99Ms} ms (${quiet.requests} requests, ${quiet.non2xx} non-2xx, ${quiet.errors} errors)`,
    )

    log(`limit ${setting.label}: flooded (${run.floodConnections} connections searching "_")…`)
    const flooding = measure([url], FLOOD, floodSettings)
    await warmUp([url], LIST, quietSettings)
    const flooded = await measure([url], LIST, quietSettings)
    const flood = await flooding
    log(
      `  flooded: p50 ${flooded.p50Ms} ms, p99 ${flooded.p99Ms} ms (${flooded.requests} requests, ${flooded.non2xx} non-2xx, ${flooded.errors} errors)`,
    )
    log(
      `  flood:   ${flood.requests} answers, ${flood.non2xx} non-2xx, ${flood.errors} errors; p50 ${flood.p50Ms} ms, p99 ${flood.p99Ms} ms`,
    )
    return { setting, quiet, flooded, flood }
  } finally {
    await api.stop()
  }
}

function report(
  outcomes: Outcome[],
  seeded: Awaited<ReturnType<typeof seedOrgs>>,
  run: ReturnType<typeof options>,
  command: string,
): string[] {
  const machine = describeMachine()
  const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`
  return [
    '',
    `- date: ${new Date().toISOString().slice(0, 10)}`,
    `- machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB RAM, ${machine.os}; node ${machine.node}`,
    `- store: PostgreSQL (server ${seeded.serverVersion}), API pool of 10, one API process per setting`,
    `- data: ${seeded.totalHouseholds.toLocaleString('en-US')} households in ${seeded.orgs} orgs; flooding org ${seeded.households.toLocaleString('en-US')}, measured org ${seeded.reference.households.toLocaleString('en-US')}`,
    `- measured org: list page 1 by name, ${QUIET_CONNECTIONS} connections at ${QUIET_RATE} req/s, ${run.warmup} s warm-up + ${run.duration} s measured, quiet then flooded`,
    `- flood: \`GET ${FLOOD.path}\` on ${run.floodConnections} connections, each sending again as soon as it is answered (rate budgets out of reach)`,
    `- command: \`${command}\``,
    '',
    `| org concurrency limit | quiet p50 | quiet p99 | flooded p50 | flooded p99 | p99 flooded ÷ quiet (target ≤ ${TARGET_RATIO}×) | measured org non-2xx / errors | flood answers: 2xx / non-2xx / errors |`,
    '|---|---|---|---|---|---|---|---|',
    ...outcomes.map(({ setting, quiet, flooded, flood }) => {
      const ratio = flooded.p99Ms / quiet.p99Ms
      const verdict = ratio <= TARGET_RATIO ? 'meets' : 'misses'
      return `| ${setting.label} | ${ms(quiet.p50Ms)} | ${ms(quiet.p99Ms)} | ${ms(flooded.p50Ms)} | ${ms(flooded.p99Ms)} | **${ratio.toFixed(2)}×** (${verdict}) | ${quiet.non2xx + flooded.non2xx} / ${quiet.errors + flooded.errors} | ${flood.requests - flood.non2xx} / ${flood.non2xx} / ${flood.errors} |`
    }),
    '',
  ]
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  const run = options(argv)
  if (run.help) {
    console.log(USAGE)
    return
  }
  cleanupOnSignals()
  try {
    const database = await provisionDatabase('postgres')
    // Its orgs would stay behind in a database we were given: this bench seeds only throw-away ones.
    if (database.shared)
      throw new Error('npm run bench:fairness seeds a throw-away database: run it without DATABASE_URL')
    const seeded = await seedOrgs(database, run.households)
    const outcomes: Outcome[] = []
    for (const setting of SETTINGS) outcomes.push(await measureSetting(setting, database, seeded, run))
    const command = ['npm run bench:fairness', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' ')
    console.log(report(outcomes, seeded, run, command).join('\n'))
  } finally {
    await cleanup()
  }
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  await cleanup()
  process.exitCode = 1
})
