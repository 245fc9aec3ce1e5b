// `npm run bench:statement-cpu`: what a create statement costs PostgreSQL itself, in CPU of the
// one backend that runs it (utime + stime from /proc, so the machine's other load does not count),
// with and without its event, sent unprepared (parsed and planned each time, as every statement
// was before HEARTH_PREPARED_STATEMENTS) and prepared. The reference, in the same run, is the
// create without its event, unprepared: what a create cost before events (issue 17).
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely'
import pg from 'pg'
import { openStore } from '../src/store/db.ts'
import type { Database } from '../src/store/tables.ts'
import { createOrg } from '../src/store/orgs.ts'
import { insertAuditedHousehold } from '../src/store/households.ts'
import { checkCreateBody } from '../src/households/household-fields.ts'
import { NO_OVERRIDES } from '../src/rate-limit/org-limits.ts'
import { provisionDatabase } from './database.ts'
import { cleanup, cleanupOnSignals } from './cleanup.ts'

const STATEMENTS = 3000
const ROUNDS = 3

/** The create statement exactly as the API sends it, captured from one real create. */
async function captureCreate(databaseUrl: string): Promise<CompiledQuery> {
  const sent: CompiledQuery[] = []
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      sent.push(event.query)
    },
  })
  try {
    const org = await createOrg(db, 'Statement CPU')
    sent.length = 0
    const checked = checkCreateBody({ name: 'Smith household' })
    if (!checked.ok) throw new Error(checked.message)
    const actor = {
      kind: 'apiKey',
      id: randomUUID(),
      orgId: org.id,
      permissions: [],
      rateLimits: NO_OVERRIDES,
    } as const
    await insertAuditedHousehold(db, actor, checked.fields, ['name'])
  } finally {
    await db.destroy()
  }
  const create = sent[0]
  if (!create) throw new Error('no create statement was sent')
  return create
}

/** The same statement without its event: the events CTE taken out. */
function withoutEvent(text: string): string {
  const stripped = text.replace(/, evented AS \([\s\S]*?FROM created h\s*\)/, '')
  if (stripped === text)
    throw new Error('the create statement no longer has its evented CTE where this bench looks for it')
  return stripped
}

async function main(): Promise<void> {
  cleanupOnSignals()
  const database = await provisionDatabase('postgres')
  if (!database.databaseUrl) throw new Error('PostgreSQL only')
  // Migrate the throw-away database as the server does.
  await (await openStore({ databaseUrl: database.databaseUrl, dataDir: '' })).close()
  const create = await captureCreate(database.databaseUrl)
  const bare = withoutEvent(create.sql)
  // The parameters the text names ($1…$n): the event's own go with its CTE.
  const valuesOf = (text: string) =>
    create.parameters.slice(0, Math.max(...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]))))
  const variants = [
    { name: 'create without its event, unprepared (reference)', text: bare, prepared: false },
    { name: 'create with its event, unprepared', text: create.sql, prepared: false },
    { name: 'create without its event, prepared', text: bare, prepared: true },
    { name: 'create with its event, prepared', text: create.sql, prepared: true },
  ]
  const client = new pg.Client({ connectionString: database.databaseUrl })
  await client.connect()
  try {
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid
    const cpuMs = () => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      // utime + stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
      return (Number(fields[11]) + Number(fields[12])) * 10
    }
    const samples = new Map<string, number[]>()
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, variant] of variants.entries()) {
        const values = valuesOf(variant.text)
        const query = variant.prepared ? { name: `statement_cpu_${index}`, text: variant.text, values } : undefined
        const send = () => (query ? client.query(query) : client.query(variant.text, values))
        for (let i = 0; i < 200; i++) await send()
        const before = cpuMs()
        for (let i = 0; i < STATEMENTS; i++) await send()
        samples.set(variant.name, [...(samples.get(variant.name) ?? []), (cpuMs() - before) / STATEMENTS])
        process.stderr.write('.')
      }
    }
    process.stderr.write('\n')
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN
    const reference = median(samples.get(variants[0]?.name ?? '') ?? [])
    console.log(`${STATEMENTS.toLocaleString('en-US')} statements per measurement, median of ${ROUNDS} rounds`)
    console.log('| statement | backend CPU ms per statement | vs reference |')
    console.log('|---|---:|---:|')
    for (const variant of variants) {
      const ms = median(samples.get(variant.name) ?? [])
      console.log(`| ${variant.name} | ${ms.toFixed(3)} | ${(ms / reference).toFixed(2)}× |`)
    }
  } finally {
    await client.end()
    await cleanup()
  }
}

await main()
