// Every sample household draws: its GET …/chart payload passes the chart's own checks (the schema,
// then the rules), and carries the estate the sample holds (its entities and links, parties and
// the link types payload 0.1.x has no word for left out).
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
    api = await startApp(store.db)
    ;({ orgId, key } = await createOrgWithKey(store.db))
    await addSampleHouseholds(store.db, orgId)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('draw, each with its kinships and the entities that are not parties', async () => {
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
      expect((payload.entities ?? []).map((e) => e.name).sort()).toEqual(
        sample.entities
          .filter((e) => !isParty(e.kind))
          .map((e) => e.name)
          .sort(),
      )
      expect(payload.relationships?.length ?? 0, sample.fields.name).toBeGreaterThanOrEqual(sample.kinships.length)
    }
  })
})
