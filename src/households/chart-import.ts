// Importing a chart payload into a household (PUT …/chart): the payload replaces the household's
// members, kinships, entities and links in one transaction under the household's version
// (writeHousehold), matching existing members and entities by id or externalId (see
// domain/chart-import.ts for what is matched, created, deleted and kept). Every rule is applied
// before anything is committed — the chart's own (checkPayloadRules), the members' and entities'
// field rules, and each link through the links API's own checkLink — so a refused payload writes
// nothing, and the refusal's field is the JSON Pointer of its first problem in the payload.
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { Payload } from '../../chart/payload.ts'
import { ImportRefused, planChartImport } from '../domain/chart-import.ts'
import { toChartPayload } from '../domain/chart-payload.ts'
import { readImportTarget, writeImportRows } from '../store/chart-import.ts'
import { insertLink } from '../store/entity-links.ts'
import { readHouseholdChart } from '../store/household-chart.ts'
import type { ExpectedVersions } from '../store/household-record.ts'
import { recordAudit } from '../store/audit.ts'
import { checkLink } from './entity-links.ts'
import { writeHousehold, type Written } from './household-write.ts'
import { householdNotFound, RuleViolation } from './rule-violation.ts'

export interface ImportChartInput {
  householdId: string
  /** The household's versions the caller read (If-Match). */
  expected: ExpectedVersions
  payload: Payload
}

/** Replaces the household's records with the payload's; answers the payload as GET …/chart now gives it, with the new version. */
export async function importChart(
  db: Kysely<Database>,
  principal: Principal,
  input: ImportChartInput,
): Promise<Written<Payload>> {
  const { householdId, payload } = input
  const { orgId } = principal
  return writeHousehold(db, { orgId, id: householdId, expected: input.expected }, async (trx) => {
    let plan
    try {
      plan = planChartImport(payload, await readImportTarget(trx, householdId), randomUUID)
    } catch (error) {
      if (error instanceof ImportRefused)
        throw new RuleViolation(error.problem.code, error.message, error.problem.field)
      throw error
    }
    // writeImportRows deletes the household's links, so the count of links is the count inserted here
    // (counting them again for every link made a large import quadratic).
    await writeImportRows(trx, householdId, plan)
    let inserted = 0
    for (const link of plan.links) {
      const { at, ...body } = link
      if (at !== null) {
        await insertLink(trx, householdId, await checkLink(trx, householdId, body, at, inserted))
        inserted++
        continue
      }
      // A link a payload read as 0.1.x cannot say, kept from the household: dropped when the payload's records no longer fit it.
      try {
        await insertLink(trx, householdId, await checkLink(trx, householdId, body, '', inserted))
        inserted++
      } catch (error) {
        if (!(error instanceof RuleViolation)) throw error
      }
    }
    await recordAudit(trx, { actor: principal, action: 'chart.import', householdId, changed: plan.changed })
    const stored = await readHouseholdChart(trx, orgId, householdId)
    const answer = stored && toChartPayload(stored.record)
    if (!answer) throw householdNotFound()
    return answer
  })
}
