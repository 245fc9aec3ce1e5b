// The README's estate walk-through, run as written: its shell block (between the
// estate-walk-through markers) goes to bash with curl against a real app on loopback, after the
// walk-through's earlier steps (the Alvarez household, Elena, Tomas and Lucia) are done over HTTP.
// What the README then says — the entities and links it made, the refusal of a third LLC owner, the
// chart payload it prints and the ETag its DELETE names — is compared with what the API answers.
import { readFileSync } from 'node:fs'
import { CHART_VERSION } from '../../chart/version.ts'
import type { Relationship } from '../../chart/payload.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { ENTITY_VARIABLES, LINK_LINES, runEstateWalkThrough, UUID } from '../helpers/readme-estate.ts'

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const REL = '/api/v1/relationships'

describe.each(storeKinds())("the README's estate walk-through on %s", (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let householdId: string
  const ids = new Map<string, string>()

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    key = (await createOrgWithKey(store.db)).key
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('runs as written with curl: every entity and link it posts is created', async () => {
    const walk = await runEstateWalkThrough(api.url, key)
    householdId = walk.householdId
    for (const [name, id] of walk.ids) ids.set(name, id)
    expect([ENTITY_VARIABLES.length, LINK_LINES.length]).toEqual([5, 12])
    expect(
      walk.linkOutput.every((line) => UUID.test(line)),
      walk.linkOutput.join('\n'),
    ).toBe(true)

    const entities = (await call(`${api.url}${REL}/${householdId}/entities`, key)).body.entities as { id: string }[]
    expect(entities.map((e) => e.id).sort()).toEqual(ENTITY_VARIABLES.map((name) => ids.get(name)).sort())
    const links = (await call(`${api.url}${REL}/${householdId}/links`, key)).body.links as Record<string, unknown>[]
    expect(links.map((l) => ({ from: l.from, type: l.type, to: l.to, share: l.share })).sort(byJson)).toEqual(
      LINK_LINES.map((l) => ({ from: ids.get(l.from), type: l.type, to: ids.get(l.to), share: l.share })).sort(byJson),
    )
  })

  it('draws the chart payload the README prints, naming its release, at the ETag the README deletes with', async () => {
    const chart = await call(`${api.url}${REL}/${householdId}/chart`, key)
    expect(chart.status).toBe(200)
    expect(chart.headers.get('hearth-chart-version')).toBe(CHART_VERSION)
    expect(README).toContain(`Hearth-Chart-Version: ${CHART_VERSION}`)
    expect(comparable(chart.body)).toEqual(comparable(readmeChartPayload(ids)))
    // Here: the create, three members and the block's writes. The README made two more before the
    // block (its PATCH of the household and its assignments), and deletes with the ETag after them.
    const writes = 1 + 3 + ENTITY_VARIABLES.length + LINK_LINES.length
    expect(chart.headers.get('etag')).toBe(`"${String(writes)}"`)
    expect(README).toContain(`-H 'If-Match: "${String(writes + 2)}"'`)
  })

  it('refuses a third owner of the LLC as the README says: link_shares_exceed on /share', async () => {
    const refused = await call(`${api.url}${REL}/${householdId}/links`, key, {
      body: { from: ids.get('LUCIA'), type: 'owner', to: ids.get('LLC'), share: 10 },
    })
    expect(README).toContain('# 400 {"error":"…","code":"link_shares_exceed","requestId":"…","field":"/share"}')
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'link_shares_exceed', field: '/share' })
  })
})

/** The payload the README prints after `curl … /chart`, its <placeholders> replaced by the ids they stand for. */
function readmeChartPayload(ids: Map<string, string>): unknown {
  const start = README.indexOf('curl -s -H "Authorization: Bearer $KEY" "$API/relationships/$ID/chart"')
  const end = README.indexOf('```', start)
  const printed = README.slice(start, end)
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/^# ?/, ''))
    .join('')
  return JSON.parse(printed.replace(/<(\w+)>/g, (_, name: string) => ids.get(name.toUpperCase()) ?? `<${name}>`))
}

/**
 * A payload with its order left out where the API promises none: spouses are mutual (either may be
 * `from`), and rows created in one millisecond come back in id order, which is random here.
 */
function comparable(payload: unknown): unknown {
  const { relationships, links, ...rest } = payload as { relationships: Relationship[]; links: unknown[] }
  const mutual = (r: Relationship) =>
    r.type === 'parent' ? r : { ...r, from: [r.from, r.to].sort()[0], to: [r.from, r.to].sort()[1] }
  return { ...rest, relationships: relationships.map(mutual).sort(byJson), links: [...links].sort(byJson) }
}

function byJson(a: unknown, b: unknown): number {
  return JSON.stringify(a).localeCompare(JSON.stringify(b))
}
