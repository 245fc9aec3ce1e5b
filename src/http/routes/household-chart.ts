// GET a household as chart payload v1 (DESIGN §4), ready to post into the embedded chart in a render
// message, on both path prefixes. The ETag is the household's (its version moves with every change to
// the household, its members and their relationships); If-None-Match → 304 costs 0.1 unit of rate-limit budget.
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { Payload } from '../../../chart/payload.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { toChartPayload } from '../../domain/chart-payload.ts'
import { readHouseholdChart } from '../../store/household-chart.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, householdOperationDocs, HOUSEHOLDS_PATH, RELATIONSHIPS_PATH } from './relationships.ts'
import { HouseholdIdParams, householdIdOf, householdNotFound } from './relationship-record.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

const DESCRIPTION = [
  'The household as the chart payload v1 (the `payload` of the embed\'s render message; the same JSON Schema as payload.schema.json beside each pinned chart).',
  'household.name is the household\'s name; people are its members (member ids as ids, the same roles, birthDate and deathDate);',
  'relationships are the members\' relationships (for parent, `from` is a parent of `to`).',
  'A deceased spouse recorded on the household (deceasedSpouseName) is a person with role spouse, id `deceased-spouse` and deathDate = dsueDateOfDeath when known,',
  'joined as spouse to the primary client when there is one (unless a member already bears that name).',
  'entities and links are always empty: Hearth holds no trusts or other entities yet — add your own before posting.',
  'A household with no one to draw (no members and no deceased spouse) is 409 chart_needs_members: the payload needs at least one person.',
  `The ETag is the household's; If-None-Match with it answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
].join(' ')

export function registerHouseholdChartRoutes(app: App, db: Kysely<Database>, legacy: boolean): void {
  const path = `${legacy ? HOUSEHOLDS_PATH : RELATIONSHIPS_PATH}/:id/chart`

  app.get(
    path,
    {
      config: { permission: 'relationships:read', legacy },
      schema: {
        operationId: legacy ? 'getHouseholdChart' : 'getRelationshipChart',
        summary: legacy ? 'Get a household as a chart payload' : 'Get a relationship as a chart payload',
        description: `${legacy ? 'Deprecated alias of GET /api/v1/relationships/{id}/chart. ' : ''}${DESCRIPTION}`,
        ...householdOperationDocs(legacy),
        params: HouseholdIdParams,
        headers: IfNoneMatchHeaders,
        response: { 200: Payload, 304: NotModified, 404: ErrorBody, 409: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const found = await readHouseholdChart(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      const payload = toChartPayload(found.record)
      if (!payload) {
        throw new ApiError('chart_needs_members', 'The household has no members (and no deceased spouse) yet: add a member, then fetch its chart.')
      }
      if (await answeredNotModified(request, reply, found.version)) return reply
      return payload
    },
  )
}
