// @hearth/api-client as a partner installs it: `npm pack` (prepack builds dist/ from src/), the tarball
// installed into a scratch project from npm's cache, and a Node program there that imports it, calls
// a real API on loopback with a key, and verifies webhooks signed by standardwebhooks: a good delivery
// is answered with its event; forged, altered, replayed (10 minutes old) and re-signed (another
// secret) deliveries are refused with their reason. The shipped types are checked too, by tsc in the
// scratch project against the installed package alone.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { packPackage, scratchProject, tarballFiles, type ScratchProject } from '../helpers/packages.ts'
import { openTestStore, type TestStore } from '../helpers/stores.ts'

interface Delivery {
  name: string
  body: string
  headers: Record<string, string>
  /** Pass the headers to verifyWebhook as a fetch Headers object instead of a plain record. */
  asHeaders?: boolean
}

interface Outcome {
  name: string
  event?: unknown
  refused?: { reason: string; message: string; name: string }
}

interface ProgramOutput {
  created: { id: string; name: string }
  listed: { names: string[]; total: number }
  wrongKey: { status: number; code: string }
  webhooks: Outcome[]
}

/** The partner's program, as plain JavaScript a partner would write against the installed package. */
const PROGRAM = `
import { readFileSync } from 'node:fs'
import { createHearthClient, verifyWebhook, WebhookVerificationError } from '@hearth/api-client'

const hearth = createHearthClient({ baseUrl: process.env.HEARTH_API_URL, apiKey: process.env.HEARTH_KEY })
const created = await hearth.POST('/api/v1/relationships', { body: { name: 'Scratch Family' } })
if (created.error) throw new Error('create: ' + JSON.stringify(created.error))
const listed = await hearth.GET('/api/v1/relationships', { params: { query: { pageSize: 100, excludeSample: true } } })
if (listed.error) throw new Error('list: ' + JSON.stringify(listed.error))
const stranger = createHearthClient({ baseUrl: process.env.HEARTH_API_URL, apiKey: 'idx_' + 'x'.repeat(38) })
const refused = await stranger.GET('/api/v1/relationships')

const webhooks = []
for (const delivery of JSON.parse(readFileSync('deliveries.json', 'utf8'))) {
  const headers = delivery.asHeaders ? new Headers(delivery.headers) : delivery.headers
  try {
    webhooks.push({ name: delivery.name, event: verifyWebhook(delivery.body, headers, process.env.WEBHOOK_SECRET) })
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    webhooks.push({ name: delivery.name, refused: { reason: error.reason, message: error.message, name: error.name } })
  }
}
console.log(JSON.stringify({
  created: { id: created.data.household.id, name: created.data.household.name },
  listed: { names: listed.data.households.map((household) => household.name), total: listed.data.total },
  wrongKey: { status: refused.response.status, code: refused.error?.code },
  webhooks,
}))
`

/** Type-checked with tsc in the scratch project: the shipped declarations, through the package's exports. */
const TYPED_PROGRAM = `
import { createHearthClient, verifyWebhook, type HearthWebhookEvent, type paths } from '@hearth/api-client'

const hearth = createHearthClient({ baseUrl: 'https://api.hearth.example', apiKey: 'idx_key' })
const { data, error } = await hearth.GET('/api/v1/relationships/{id}', { params: { path: { id: 'some-id' } } })
const name: string | undefined = data?.household.name
const code: string | undefined = error?.code
// @ts-expect-error: the API has no such path
await hearth.GET('/api/v1/nowhere')
// @ts-expect-error: a relationship needs a name
await hearth.POST('/api/v1/relationships', { body: {} })
// @ts-expect-error: pageSize is a number
await hearth.GET('/api/v1/relationships', { params: { query: { pageSize: 'many' } } })
const event: HearthWebhookEvent = verifyWebhook('{}', { 'webhook-id': 'msg_1' }, 'whsec_c2VjcmV0')
type Created = paths['/api/v1/relationships']['post']['responses'][201]['content']['application/json']
const created: Created['household']['id'] = 'an id'
export const used: [string | undefined, string | undefined, HearthWebhookEvent, string] = [name, code, event, created]
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ['typed.ts'],
}

describe('the @hearth/api-client package', () => {
  let store: TestStore
  let api: TestApp
  let key: string
  let packs: string
  let tarball: string
  let project: ScratchProject

  beforeAll(async () => {
    packs = await mkdtemp(path.join(os.tmpdir(), 'hearth-packs-'))
    ;[store, tarball] = await Promise.all([openTestStore('pglite'), packPackage('api-client', packs)])
    ;[api, { key }, project] = await Promise.all([
      startApp(store),
      createOrgWithKey(store.db, ['relationships:read', 'relationships:write']),
      scratchProject([tarball]),
    ])
  })
  afterAll(async () => {
    await project?.remove()
    await api?.close()
    await store?.drop()
    if (packs) await rm(packs, { recursive: true, force: true })
  })

  it('packs only its built files', async () => {
    expect(await tarballFiles(tarball)).toEqual([
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'package.json',
    ])
  })

  it('calls the API with its key and verifies webhooks, refusing forged, replayed and re-signed deliveries', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`
    const otherSecret = `whsec_${randomBytes(24).toString('base64')}`
    const event = {
      id: randomUUID(),
      type: 'household.created',
      occurredAt: new Date().toISOString(),
      householdId: randomUUID(),
      data: { household: { name: 'Scratch Family' } },
    }
    const body = JSON.stringify(event)
    const signed = (payload: string, at: Date, withSecret = secret, id = event.id) => ({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(withSecret).sign(id, at, payload),
    })
    const now = new Date()
    const good = signed(body, now)
    const tenMinutesAgo = new Date(now.getTime() - 10 * 60_000)
    const deliveries: Delivery[] = [
      { name: 'good', body, headers: good },
      // Node's IncomingHttpHeaders and fetch's Headers both work, in any letter case.
      { name: 'good as Headers', body, headers: good, asHeaders: true },
      {
        name: 'good, capitalized',
        body,
        headers: Object.fromEntries(Object.entries(good).map(([name, value]) => [name.toUpperCase(), value])),
      },
      // A signature made up by someone without the secret.
      { name: 'forged', body, headers: { ...good, 'webhook-signature': `v1,${randomBytes(32).toString('base64')}` } },
      // The real signature on a body changed in transit.
      { name: 'altered', body: body.replace('household.created', 'household.deleted'), headers: good },
      // A delivery captured 10 minutes ago, sent again as it was.
      { name: 'replayed', body, headers: signed(body, tenMinutesAgo) },
      // The same body signed with another endpoint's secret.
      { name: 're-signed', body, headers: signed(body, now, otherSecret) },
      { name: 'unsigned', body, headers: { 'webhook-id': event.id, 'webhook-timestamp': good['webhook-timestamp'] } },
    ]
    await writeFile(path.join(project.dir, 'deliveries.json'), JSON.stringify(deliveries))
    await writeFile(path.join(project.dir, 'program.mjs'), PROGRAM)

    const { stdout } = await project.exec('node', ['program.mjs'], {
      HEARTH_API_URL: api.url,
      HEARTH_KEY: key,
      WEBHOOK_SECRET: secret,
    })
    const output = JSON.parse(stdout) as ProgramOutput

    expect(output.created).toEqual({ id: expect.any(String), name: 'Scratch Family' })
    expect(output.listed).toEqual({ names: ['Scratch Family'], total: 1 })
    expect(output.wrongKey).toEqual({ status: 401, code: expect.any(String) })

    const outcomes = new Map(output.webhooks.map((outcome) => [outcome.name, outcome]))
    for (const name of ['good', 'good as Headers', 'good, capitalized']) {
      expect(outcomes.get(name)).toEqual({ name, event })
    }
    const refusals = Object.fromEntries(output.webhooks.map((outcome) => [outcome.name, outcome.refused?.reason]))
    expect(refusals).toEqual({
      good: undefined,
      'good as Headers': undefined,
      'good, capitalized': undefined,
      forged: 'invalid_signature',
      altered: 'invalid_signature',
      replayed: 'timestamp_too_old',
      're-signed': 'invalid_signature',
      unsigned: 'missing_headers',
    })
    expect(outcomes.get('replayed')?.refused).toEqual({
      name: 'WebhookVerificationError',
      reason: 'timestamp_too_old',
      message: expect.stringContaining('more than 5 minutes old'),
    })
    expect(outcomes.get('unsigned')?.refused?.message).toContain('webhook-signature')
  })

  it('ships types that type a partner’s TypeScript (paths, parameters, bodies, answers)', async () => {
    await writeFile(path.join(project.dir, 'typed.ts'), TYPED_PROGRAM)
    await writeFile(path.join(project.dir, 'tsconfig.json'), JSON.stringify(TSCONFIG))
    // Throws with tsc's diagnostics if anything does not check (an unused @ts-expect-error included).
    await project.exec('tsc', ['-p', 'tsconfig.json'])
  })
})
