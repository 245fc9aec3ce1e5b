// Importing a chart payload into a household (PUT …/chart): the payload replaces the household's
// members, kinships, entities and links in one transaction under the household's version
// (writeHousehold), matching existing members and entities by id or externalId (see
// domain/chart-import.ts for what is matched, created, deleted and kept). Every rule is applied
// before anything is committed — the chart's own (checkPayloadRules), the members' and entities'
// field rules, and each link through the links API's own checkLink — so a refused payload writes
// nothing, and the refusal's field is the JSON Pointer of its first problem in the payload.
// Payload 0.3.0's estate facts go to the household's settings (domain/chart-payload.ts,
// estateSettingsOf: what the payload states is stored, what it leaves out is kept), in the same
// UPDATE that claims the version, checked by the settings' own rules (household-fields.ts); a fact
// the records cannot keep (dispositions, assumptions, a non-client's facts) is refused, never dropped.
// A gifts entry that is the one GET derives from the household's gift settings states nothing (they
// are kept): for a payload with gifts the settings are read first, and when an entry was kept so,
// the write claims the version they were read at, so that nothing is judged against settings it
// did not see.
import { appendEvents } from '../store/events.ts'
import { householdPartsJson } from '../store/household-document.ts'
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { Value } from 'typebox/value'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { Payload } from '../../chart/payload.ts'
import { ImportRefused, planChartImport } from '../domain/chart-import.ts'
import { estateSettingsOf, toChartPayload, type GiftSettings, type StatedSettings } from '../domain/chart-payload.ts'
import { readImportTarget, writeImportRows } from '../store/chart-import.ts'
import { insertLink } from '../store/entity-links.ts'
import { readHouseholdChart } from '../store/household-chart.ts'
import { readHouseholdJson, type ExpectedVersions } from '../store/household-record.ts'
import { recordAudit } from '../store/audit.ts'
import { checkLink } from './entity-links.ts'
import { checkPatchBody, HOUSEHOLD_FIELDS } from './household-fields.ts'
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
  // Worked out before the transaction, since the settings go in the UPDATE that claims the version;
  // a refusal is thrown inside it, after the version's (412) and the chart's own rules.
  const read = (payload.gifts ?? []).length > 0 ? await readGiftSettings(db, orgId, householdId) : undefined
  const seen = read && accepts(input.expected, read.version) ? read : undefined
  const settings = statedSettings(payload, seen?.settings)
  const changes = settings instanceof RuleViolation ? {} : settings.changes
  // Kept as GET's own gifts entry: true of the settings read, so claimed at their version only.
  const expected = seen && !(settings instanceof RuleViolation) && settings.echoed ? [seen.version] : input.expected
  return writeHousehold(db, { orgId, id: householdId, expected, changes }, async (trx) => {
    let plan
    try {
      plan = planChartImport(payload, await readImportTarget(trx, householdId), randomUUID)
    } catch (error) {
      if (error instanceof ImportRefused) throw violation(error)
      throw error
    }
    if (settings instanceof RuleViolation) throw settings
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
    const changed = [...plan.changed, ...Object.keys(changes)]
    await recordAudit(trx, { actor: principal, action: 'chart.import', householdId, changed })
    await appendEvents(trx, {
      orgId,
      householdId,
      events: [{ type: 'household.replaced', resources: await householdPartsJson(trx, orgId, householdId) }],
    })
    const stored = await readHouseholdChart(trx, orgId, householdId)
    const answer = stored && toChartPayload(stored.record)
    if (!answer) throw householdNotFound()
    return answer
  })
}

/** The household's gift settings with the version they were read at; undefined when the org has no such household. */
async function readGiftSettings(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
): Promise<{ version: number; settings: GiftSettings } | undefined> {
  const household = await readHouseholdJson(db, orgId, householdId)
  return household && { version: household.version, settings: JSON.parse(household.body) as GiftSettings }
}

function accepts(expected: ExpectedVersions, version: number): boolean {
  return expected === '*' || expected.includes(version)
}

function violation(error: ImportRefused): RuleViolation {
  return new RuleViolation(error.problem.code, error.message, error.problem.field)
}

/**
 * The household settings the payload's estate facts state, each checked by the setting's own rules
 * (its schema's range, then household-fields.ts's: an amount at most 1e12 with cents, a name, a past
 * date), refused at the fact's place in the payload; or the refusal.
 */
function statedSettings(payload: Payload, current: GiftSettings | undefined): StatedSettings | RuleViolation {
  let stated: StatedSettings
  try {
    stated = estateSettingsOf(payload, current)
  } catch (error) {
    if (error instanceof ImportRefused) return violation(error)
    throw error
  }
  const { changes, at } = stated
  for (const [name, value] of Object.entries(changes) as [keyof typeof changes, unknown][]) {
    const error = Value.Errors(HOUSEHOLD_FIELDS[name].schema, value)[0]
    if (error)
      return new RuleViolation(
        'invalid_body',
        `The household's ${name} ${error.message}, got ${JSON.stringify(value)}: correct it in the payload.`,
        at[name],
      )
  }
  const checked = checkPatchBody(changes)
  if (!checked.ok) return new RuleViolation('invalid_body', `${checked.message}.`, at[checked.field as keyof typeof at])
  return stated
}
