// The bulk import's rate (issue 17): N households (default 100,000; each 3 members with their
// kinships, 1–2 entities, 2–3 links) as one JSON Lines file, POSTed to the real API (bench/server.ts,
// its own process, pool of 10) on a throw-away PostgreSQL database, timed until every line has its
// result; then the same file again (every line unchanged). The reference, measured in the same run
// on the same server: the same kind of household written one request at a time by PUT
// …/by-external-id with 10 clients at once (a sync job without the import), so the ratio says what
// the import adds or saves over the API a partner would otherwise call.
//
//   node --import tsx bench/import.ts [--households 100000] [--reference 3000] [--store postgres|pglite]
//     [--lanes N] [--batch N]   (the import worker's lanes and lines per claim; its defaults otherwise)
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { openStore } from '../src/store/db.ts'
import { createOrg } from '../src/store/orgs.ts'
import { issueApiKey } from '../src/auth/issue-api-key.ts'
import { provisionDatabase } from './database.ts'
import { compiledApiServer } from './api-server-script.ts'
import { startChild } from './child.ts'
import { cleanup, onCleanup } from './cleanup.ts'
import { describeMachine } from './machine.ts'

const { values } = parseArgs({
  options: {
    households: { type: 'string', default: '100000' },
    reference: { type: 'string', default: '3000' },
    store: { type: 'string', default: 'postgres' },
    lanes: { type: 'string' },
    batch: { type: 'string' },
  },
})
const HOUSEHOLDS = Number(values.households)
const REFERENCE = Number(values.reference)
const STORE = values.store === 'pglite' ? 'pglite' : 'postgres'

const FIRST = ['Alex', 'Blair', 'Casey', 'Drew', 'Emery', 'Finley', 'Gray', 'Harper', 'Jordan', 'Kai']
const LAST = ['Rivera', 'Chen', 'Okafor', 'Novak', 'Haddad', 'Larsen', 'Moreau', 'Tanaka', 'Silva', 'Kowalski']

/** The i-th household: 3 members with their kinships, 1–2 entities, 2–3 links. */
function household(prefix: string, i: number): object {
  const last = LAST[i % LAST.length] ?? 'Doe'
  const id = `${prefix}${i}`
  const entities: object[] = [
    { externalId: 'rlt', name: `${last} Revocable Trust`, kind: 'revocableTrust', value: 1_000_000 + i },
  ]
  const links: object[] = [
    { from: 'p1', to: 'rlt', type: 'grantor' },
    { from: 'c1', to: 'rlt', type: 'beneficiary', share: 100 },
  ]
  if (i % 2 === 0) {
    entities.push({ externalId: 'llc', name: `${last} Holdings LLC`, kind: 'llc', value: 250_000 })
    links.push({ from: 'rlt', to: 'llc', type: 'owner', share: 100 })
  }
  return {
    externalId: id,
    name: `${last} Family ${i}`,
    members: [
      { externalId: 'p1', name: `${FIRST[i % 10] ?? 'A'} ${last}`, role: 'primaryClient', birthDate: '1960-04-02' },
      {
        externalId: 'p2',
        name: `${FIRST[(i + 3) % 10] ?? 'B'} ${last}`,
        role: 'coClient',
        relationships: [{ externalId: 'p1', type: 'spouse' }],
      },
      {
        externalId: 'c1',
        name: `${FIRST[(i + 5) % 10] ?? 'C'} ${last}`,
        role: 'child',
        relationships: [
          { externalId: 'p1', type: 'parent' },
          { externalId: 'p2', type: 'parent' },
        ],
      },
    ],
    entities,
    links,
  }
}

function request(
  port: number,
  key: string,
  method: string,
  pathname: string,
  body?: { type: string; data: string | NodeJS.ReadableStream; length?: number },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` }
    if (body) headers['content-type'] = body.type
    if (body?.length !== undefined) headers['content-length'] = String(body.length)
    const req = http.request({ host: '127.0.0.1', port, method, path: pathname, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    if (!body) req.end()
    else if (typeof body.data === 'string') req.end(body.data)
    else body.data.pipe(req)
  })
}

interface ImportState {
  status: string
  lines: Record<string, number>
}

async function waitDone(port: number, key: string, id: string): Promise<ImportState> {
  for (;;) {
    const answer = await request(port, key, 'GET', `/api/v1/imports/${id}`)
    const state = (JSON.parse(answer.text) as { import: ImportState }).import
    if (state.status === 'done') return state
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

async function timedImport(port: number, key: string, file: string) {
  const started = performance.now()
  const posted = await request(port, key, 'POST', '/api/v1/imports', {
    type: 'application/x-ndjson',
    data: createReadStream(file),
    length: statSync(file).size,
  })
  if (posted.status !== 202) throw new Error(`import answered ${posted.status}: ${posted.text}`)
  const uploaded = performance.now()
  const id = (JSON.parse(posted.text) as { import: { id: string } }).import.id
  const state = await waitDone(port, key, id)
  const done = performance.now()
  return { uploadMs: uploaded - started, totalMs: done - started, state }
}

async function main(): Promise<void> {
  const machine = describeMachine()
  const database = await provisionDatabase(STORE)
  const store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir })
  const org = await createOrg(store.db, 'Import bench')
  const { key } = await issueApiKey(store.db, {
    orgId: org.id,
    name: 'bench',
    permissions: ['relationships:read', 'relationships:write'],
    expiresAt: null,
  })
  await store.close()

  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-import-bench-'))
  onCleanup(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'households.jsonl')
  writeFileSync(
    file,
    `${Array.from({ length: HOUSEHOLDS }, (_, i) => JSON.stringify(household('hh-', i))).join('\n')}\n`,
  )
  const bytes = statSync(file).size
  process.stderr.write(`${HOUSEHOLDS} households, ${(bytes / 1e6).toFixed(1)} MB; starting the API\n`)

  const server = await startChild({
    name: 'api',
    script: compiledApiServer(),
    env: {
      ...(database.databaseUrl ? { BENCH_DATABASE_URL: database.databaseUrl } : { BENCH_DATA_DIR: database.dataDir }),
      ...(values.lanes ? { BENCH_IMPORT_LANES: values.lanes } : {}),
      ...(values.batch ? { BENCH_IMPORT_BATCH: values.batch } : {}),
    },
  })

  // Reference: PUT …/by-external-id, 10 at a time.
  process.stderr.write(`reference: ${REFERENCE} PUTs, 10 at a time\n`)
  let next = 0
  const refStarted = performance.now()
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = next++; i < REFERENCE; i = next++) {
        const answer = await request(server.port, key, 'PUT', `/api/v1/relationships/by-external-id/ref-${i}`, {
          type: 'application/json',
          data: JSON.stringify(household('ref-', i)),
        })
        if (answer.status !== 201) throw new Error(`PUT answered ${answer.status}: ${answer.text}`)
      }
    }),
  )
  const refMs = performance.now() - refStarted

  process.stderr.write('import (first time)\n')
  const first = await timedImport(server.port, key, file)
  process.stderr.write(`  ${JSON.stringify(first.state.lines)}\n`)
  process.stderr.write('import (the same file again)\n')
  const second = await timedImport(server.port, key, file)
  process.stderr.write(`  ${JSON.stringify(second.state.lines)}\n`)
  await server.stop()

  const rate = (n: number, ms: number) => Math.round(n / (ms / 1000))
  const refRate = rate(REFERENCE, refMs)
  const lines = [
    `## Bulk import (issue 17) — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `${machine.cores} × ${machine.cpu}, ${machine.memoryGb} GB, Node ${machine.node}, ${STORE === 'postgres' ? 'PostgreSQL' : 'PGlite'}; the API in its own process (pool of 10, the import worker's ${values.lanes ?? 'default'} lanes, ${values.batch ?? 'default'} lines a claim).`,
    `File: ${HOUSEHOLDS} households (3 members with kinships, 1–2 entities, 2–3 links each), ${(bytes / 1e6).toFixed(1)} MB.`,
    '',
    '| run | households | upload (202) | until done | households/s | vs reference |',
    '|---|---|---|---|---|---|',
    `| reference: PUT …/by-external-id, 10 clients | ${REFERENCE} | — | ${(refMs / 1000).toFixed(1)} s | ${refRate} | 1.00 |`,
    `| import, first time (${first.state.lines.created ?? 0} created) | ${HOUSEHOLDS} | ${(first.uploadMs / 1000).toFixed(1)} s | ${(first.totalMs / 1000).toFixed(1)} s | ${rate(HOUSEHOLDS, first.totalMs)} | ${(rate(HOUSEHOLDS, first.totalMs) / refRate).toFixed(2)} |`,
    `| import, same file again (${second.state.lines.unchanged ?? 0} unchanged) | ${HOUSEHOLDS} | ${(second.uploadMs / 1000).toFixed(1)} s | ${(second.totalMs / 1000).toFixed(1)} s | ${rate(HOUSEHOLDS, second.totalMs)} | ${(rate(HOUSEHOLDS, second.totalMs) / refRate).toFixed(2)} |`,
    '',
    `Target: ${HOUSEHOLDS} households in under 5 minutes (${Math.ceil(HOUSEHOLDS / 300)} households/s): ${first.totalMs < 300_000 ? 'met' : 'NOT met'} (${(first.totalMs / 60_000).toFixed(2)} min).`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

try {
  await main()
} finally {
  await cleanup()
}
