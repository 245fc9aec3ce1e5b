// A household as chart payload 0.1.x (DESIGN §4), on both path prefixes: GET reads it, ready to
// post into the embedded chart in a render message; PUT imports a payload, replacing the
// household's members, kinships, entities and links (src/households/chart-import.ts). The ETag is
// the household's (its version moves with every change to the household and everything in it);
// If-None-Match → 304 costs 0.1 unit of rate-limit budget. Every answer names the chart release
// whose payload it speaks in the Hearth-Chart-Version header.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { Payload } from '../../../chart/payload.ts'
import { CHART_VERSION } from '../../../chart/version.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { toChartPayload } from '../../domain/chart-payload.ts'
import { readHouseholdChart } from '../../store/household-chart.ts'
import { importChart } from '../../households/chart-import.ts'
import { ESTATE_LIMITS } from '../../domain/estate-vocabulary.ts'
import { ApiError } from '../errors.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, conditionalWriteErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { HouseholdIdParams, householdIdOf, IfMatchHeaders } from './household-record.ts'
import { householdNotFound } from '../../households/rule-violation.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

/** The header that names the chart release whose payload a GET or PUT …/chart speaks. */
const CHART_VERSION_HEADER = 'Hearth-Chart-Version'

const VersionHeader = {
  [CHART_VERSION_HEADER]: Type.String({
    description: `The chart release whose payload this is (${CHART_VERSION}).`,
    examples: [CHART_VERSION],
  }),
}

const GET_DESCRIPTION = [
  `The household as the payload of chart ${CHART_VERSION} (payload 0.1.x: the \`payload\` of the embed's render message; the same JSON Schema as payload.schema.json beside each pinned chart). The header ${CHART_VERSION_HEADER} names that release; this endpoint keeps 0.1.x's shape until the next chart release defines a payload that carries every fact below.`,
  "household.name is the household's name; people are its members (member ids as ids, the same roles, birthDate and deathDate; email and externalId are left out);",
  "relationships are the members' kinships (for parent, `from` is a parent of `to`; parentKind, since and until are left out).",
  'A deceased spouse recorded on the household (deceasedSpouseName) is a person with role spouse, id `deceased-spouse` and deathDate = dsueDateOfDeath when known,',
  'joined as spouse to the primary client when there is one (unless a member already bears that name).',
  "entities are the household's entities (entity ids as ids, name and value). A kind 0.1.x does not know (clt, qprt, qtip, creditShelterTrust, dynastyTrust, specialNeedsTrust, corporation, publicCharity and the holdings) is `other`, and estate is always written as the side the entity is counted on (as set, else its kind's default), so `other` never moves an entity across the estate line; shortName, valueAsOf, notes and externalId are left out.",
  'Parties (corporateTrustee, lawFirm, otherParty) are left out with every link to or from them: 0.1.x has no party.',
  'links: grantor, trustee, beneficiary (with its share; beneficiaryType is left out) and owner (with its share) as they are; generalPartner and limitedPartner are drawn as owner with their share; successorTrustee and insured links are left out.',
  "The household's estate settings (currency, portability, gifts, exemption used, citizenship) are not in 0.1.x.",
  'A household with no one to draw (no members and no deceased spouse) is 409 chart_needs_members: the payload needs at least one person.',
  `The ETag is the household's; If-None-Match with it answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
].join(' ')

const PUT_DESCRIPTION = [
  `Imports a payload of chart ${CHART_VERSION} (payload 0.1.x, the schema GET answers with): it replaces the household's members, their kinships, its entities and its links in one transaction, under If-Match with the household's ETag (428 without it, 412 when stale). household.name and options are not stored.`,
  "Matching: a person (entity) whose id is the id of a member (entity) of this household, or else its externalId, updates it; any other is created with externalId = the payload's id, so that sending the same payload again changes no ids; members and entities the payload does not name are deleted, with their links.",
  "What 0.1.x cannot say is kept where its subject stays, so a payload read with GET and sent back changes nothing: members' email, kinships' parentKind, since and until, entities' shortName, notes and valueAsOf (while the value is unchanged), an entity's kind when the payload says `other` for a kind 0.1.x does not know, a partner's link (drawn as owner), a beneficiary's beneficiaryType (new beneficiaries are primary); parties and their links, and successorTrustee and insured links, stay as long as what they join stays and still fits. An estate equal to the kind's default on an entity that had none set stays not set. A new value is recorded in the entity's valuations (with no valueAsOf).",
  "Refused whole — nothing is written — with the JSON Pointer of the first problem in `field` (e.g. /links/3/share): the chart's own rules (ids unique across people and entities, relationships and links naming what they must, no one their own ancestor: invalid_body, relationship_cycle, relationship_conflict), the members' rules (names, real past dates, one primaryClient and one coClient: member_role_taken; two people have one relationship: relationship_conflict), the entities' (value at most 1e12 with cents), and every rule of POST …/links (link_share_not_allowed, link_shares_exceed, link_ownership_cycle, link_kind_mismatch, link_duplicate, " +
    `household_links_limit), with at most ${ESTATE_LIMITS.entities} entities (household_entities_limit) and ${ESTATE_LIMITS.links} links.`,
  "A person GET drew for the household's deceasedSpouseName (id `deceased-spouse`) is stored as a member like any other, so the deceased spouse becomes a member (a member with that name replaces the drawn person in GET).",
  `Audited as chart.import (changed names members, relationships, entities and links). Answers 200 with the payload as GET now gives it, the new ETag and ${CHART_VERSION_HEADER}. Needs relationships:write or households:write.`,
].join(' ')

/** What the OpenAPI document shows as a PUT body: a couple, their child, a revocable trust and an LLC. */
const IMPORT_EXAMPLE: Payload = {
  household: { name: 'Rivera Family' },
  people: [
    { id: 'crm-pat', name: 'Pat Rivera', role: 'primaryClient', birthDate: '1961-04-02' },
    { id: 'crm-sam', name: 'Sam Rivera', role: 'coClient' },
    { id: 'crm-ava', name: 'Ava Rivera', role: 'child' },
  ],
  relationships: [
    { from: 'crm-pat', to: 'crm-sam', type: 'spouse' },
    { from: 'crm-pat', to: 'crm-ava', type: 'parent' },
    { from: 'crm-sam', to: 'crm-ava', type: 'parent' },
  ],
  entities: [
    { id: 'rlt', name: 'Rivera Revocable Trust', kind: 'revocableTrust', value: 2500000 },
    { id: 'llc', name: 'Rivera Holdings LLC', kind: 'llc', value: 1200000, estate: 'in' },
  ],
  links: [
    { from: 'crm-pat', to: 'rlt', type: 'grantor' },
    { from: 'crm-sam', to: 'rlt', type: 'trustee' },
    { from: 'crm-ava', to: 'rlt', type: 'beneficiary', share: 100 },
    { from: 'rlt', to: 'llc', type: 'owner', share: 100 },
  ],
}

export function registerHouseholdChartRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const path = `${surface.base}/:id/chart`
  const { legacy } = surface

  app.get(
    path,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: legacy ? 'getHouseholdChart' : 'getRelationshipChart',
        summary: legacy ? 'Get a household as a chart payload' : 'Get a relationship as a chart payload',
        description: `${surface.alias('GET', '/{id}/chart')}${GET_DESCRIPTION}`,
        ...surface.docs,
        params: HouseholdIdParams,
        headers: IfNoneMatchHeaders,
        response: {
          200: { ...Payload, headers: VersionHeader },
          304: NotModified,
          404: ErrorBody,
          409: ErrorBody,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const found = await readHouseholdChart(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      const payload = toChartPayload(found.record)
      if (!payload) {
        throw new ApiError(
          'chart_needs_members',
          'The household has no members (and no deceased spouse) yet: add a member, then fetch its chart.',
        )
      }
      reply.header(CHART_VERSION_HEADER, CHART_VERSION)
      if (await answeredNotModified(request, reply, found.version)) return reply
      return payload
    },
  )

  app.put(
    path,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: legacy ? 'importHouseholdChart' : 'importRelationshipChart',
        summary: legacy ? 'Replace a household with a chart payload' : 'Replace a relationship with a chart payload',
        description: `${surface.alias('PUT', '/{id}/chart')}${PUT_DESCRIPTION}`,
        ...surface.docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        body: { ...Payload, examples: [IMPORT_EXAMPLE] },
        response: { 200: { ...Payload, headers: VersionHeader }, ...conditionalWriteErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const imported = await importChart(db, principalOf(request), { householdId, expected, payload: request.body })
      reply.header('ETag', etagOf(imported.version))
      reply.header(CHART_VERSION_HEADER, CHART_VERSION)
      return imported.value
    },
  )
}
