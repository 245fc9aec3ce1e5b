// packages/api-client/src/schema.d.ts is generated from the OpenAPI document the app serves: CI
// generates it again, in memory, and fails while the committed file is not what the routes give.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENERATE_COMMAND, SCHEMA_FILE, generateSchema } from '../../packages/api-client/scripts/generate.ts'
import { openTestStore, type TestStore } from '../helpers/stores.ts'

describe('the API client’s generated types', () => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore('pglite')
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('are what the current routes give', async () => {
    const [generated, committed] = await Promise.all([generateSchema(store.db), readFile(SCHEMA_FILE, 'utf8')])
    if (generated !== committed) {
      expect.fail(
        `packages/api-client/src/schema.d.ts is not what the current routes give: run \`${GENERATE_COMMAND}\``,
      )
    }
  })
})
