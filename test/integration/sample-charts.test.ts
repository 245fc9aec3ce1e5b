// Every sample household draws: its GET …/chart payload 0.2.0 passes the chart's own checks (the
// schema, then the rules) and carries the whole estate the sample holds (every entity, parties
// included, every link and kinship with its details); its payload 0.1.x (?chartVersion=0.1.1) passes
// them too, with the parties left out.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payloadJsonSchema, type Payload } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import { isParty } from '../../src/domain/estate-vocabulary.ts'
import { addSampleHouseholds } from '../../src/store/samples.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'

const validatePayload = new Ajv2020({ allErrors: true }).compile(payloadJsonSchema(CHART_VERSION))

describe.each(storeKinds())('the sample households’ charts on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let orgId: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ orgId, key } = await createOrgWithKey(store.db))
    await addSampleHouseholds(store.db, orgId)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('draw in 0.2.0 with every entity, link and kinship, and in 0.1.x with the entities that are not parties', async () => {
    const list = await call(`${api.url}/api/v1/relationships?pageSize=100`, key)
    const households = list.body.households as { id: string; name: string }[]
    expect(households).toHaveLength(SAMPLE_HOUSEHOLDS.length)
    for (const sample of SAMPLE_HOUSEHOLDS) {
      const id = households.find((h) => h.name === sample.fields.name)!.id
      const chart = await call(`${api.url}/api/v1/relationships/${id}/chart`, key)
      expect(chart.status, sample.fields.name).toBe(200)
      const payload = chart.body as unknown as Payload
      expect(validatePayload(payload), JSON.stringify(validatePayload.errors)).toBe(true)
      expect(checkPayloadRules(payload), sample.fields.name).toBeNull()
      const entityFacts = (e: { name: string; kind: string; shortName?: string; valueAsOf?: string }) =>
        `${e.name} ${e.kind} ${e.shortName ?? ''} ${e.valueAsOf ?? ''}`
      expect((payload.entities ?? []).map(entityFacts).sort()).toEqual(sample.entities.map(entityFacts).sort())
      expect(payload.links, sample.fields.name).toHaveLength(sample.links.length)
      expect(payload.relationships?.length ?? 0, sample.fields.name).toBeGreaterThanOrEqual(sample.kinships.length)
      const parentKinds = sample.kinships.filter((k) => k.parentKind !== undefined).length
      expect((payload.relationships ?? []).filter((r) => r.parentKind !== undefined)).toHaveLength(parentKinds)

      const pinned = await call(`${api.url}/api/v1/relationships/${id}/chart?chartVersion=0.1.1`, key)
      expect(pinned.status, sample.fields.name).toBe(200)
      const payload01 = pinned.body as unknown as Payload
      expect(validatePayload(payload01), JSON.stringify(validatePayload.errors)).toBe(true)
      expect(checkPayloadRules(payload01), sample.fields.name).toBeNull()
      expect((payload01.entities ?? []).map((e) => e.name).sort()).toEqual(
        sample.entities
          .filter((e) => !isParty(e.kind))
          .map((e) => e.name)
          .sort(),
      )
    }
  })
})
