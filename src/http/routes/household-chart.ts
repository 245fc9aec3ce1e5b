// A household as a chart payload (DESIGN §4), on both path prefixes: GET reads it, ready to post
// into the embedded chart in a render message — payload 0.3.0 (the newest release, CHART_VERSION)
// by default, the payload of an older release for a partner pinned to it who asks with
// ?chartVersion=0.3.0, 0.2.0, 0.1.1 or 0.1.0 (PAYLOAD_OF_RELEASE in domain/chart-payload.ts lists them);
// PUT imports a payload of any of them, replacing the household's members, kinships, entities and
// links and storing 0.3.0's estate facts in its settings (src/households/chart-import.ts). The ETag
// is the household's (its version moves with every change to the household and everything in it);
// If-None-Match → 304 costs 0.1 unit of rate-limit budget. Every answer names the chart release
// whose payload it speaks in the Hearth-Chart-Version header.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { Payload } from '../../../chart/payload.ts'
import { CHART_VERSION } from '../../../chart/version.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { PAYLOAD_OF_RELEASE } from '../../domain/chart-payload.ts'
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

/** The chartVersion values GET answers in, newest first (CHART_VERSION, the default, among them). */
const CHART_VERSIONS: readonly string[] = [...PAYLOAD_OF_RELEASE.keys()]
/** The older releases a host page pinned to one asks for. */
const PINNED_RELEASES = CHART_VERSIONS.filter((version) => version !== CHART_VERSION)

const VersionHeader = {
  [CHART_VERSION_HEADER]: Type.String({
    description: `The chart release whose payload this is: ${CHART_VERSION}, or the release asked for with chartVersion.`,
    examples: [CHART_VERSION],
  }),
}

const ChartQuery = Type.Object(
  {
    chartVersion: Type.Optional(
      Type.String({
        maxLength: 100,
        description: `The chart release whose payload to answer in: ${CHART_VERSION} (the default) or, for a host page pinned to an older chart, ${PINNED_RELEASES.join(', ')} (0.1.1 and 0.1.0: payload 0.1.x). Any other value is 400 invalid_query.`,
        examples: [CHART_VERSION, '0.2.0', '0.1.1'],
      }),
    ),
  },
  { additionalProperties: true, description: 'Unknown query parameters are ignored.' },
)

const GET_DESCRIPTION = [
  `The household as the payload of chart ${CHART_VERSION} (payload 0.3.0: the \`payload\` of the embed's render message; the same JSON Schema as payload.schema.json beside each pinned chart). The header ${CHART_VERSION_HEADER} names that release.`,
  "household.name is the household's name, with its currency (ISO 4217) from the estate settings; people are its members (member ids as ids, the same roles, birthDate and deathDate; email and externalId are left out);",
  "relationships are the members' kinships (for parent, `from` is a parent of `to`), with parentKind on parent kinships and since and until on couples' when recorded.",
  'A deceased spouse recorded on the household (deceasedSpouseName) is a person with role spouse, id `deceased-spouse` and deathDate = dsueDateOfDeath when known,',
  'joined as spouse to the primary client when there is one (unless a member already bears that name).',
  "entities are all the household's entities, parties included (entity ids as ids, name, shortName, kind, value and valueAsOf); estate is written only when set on the entity (absent, the chart applies the kind's default, the same table as the records API's); a party has no value, valueAsOf or estate; notes and externalId are left out.",
  'links are all its links, every type, with share and beneficiaryType.',
  "The household's estate settings are the estate projection's facts: the primary client carries usCitizen (from primaryClientUsCitizen) and the co-client usCitizen (from coClientUsCitizen) when recorded;",
  'the primary client carries dsueReceived when the household\'s dsueReceived is more than 0: {amount, from: the deceased spouse\'s id (`deceased-spouse`, or the member bearing deceasedSpouseName) when there is one, portabilityElected: true for "yes", false for "no", left out for "unknown" or not recorded};',
  "gifts has one entry per client who gave: {donor, taxableGifts from *LifetimeGifts and exclusionUsed from *ExemptionUsed when recorded} (exclusionUsed at most taxableGifts, as the chart requires: a larger exemption used is written as the gifts' amount); an exemption used above 0 with no gifts amount recorded gives both as that amount (only taxable gifts use the exemption, so at least that much was given); a client marked *AsDonor with no amount recorded gets {donor} alone (gifts of an unknown amount); a client with neither gets none, and gifts is left out when no one has an entry. The records hold no dispositions or assumptions.",
  `For a host page pinned to an older chart, chartVersion=0.2.0 answers payload 0.2.0, exactly as that release's GET did: the same, without usCitizen, dsueReceived and gifts.`,
  `chartVersion=0.1.1 or 0.1.0 answers payload 0.1.x, exactly as those releases' GET did (and ${CHART_VERSION_HEADER} names the release asked for):`,
  "no currency, parentKind, since, until, shortName, valueAsOf or beneficiaryType; a kind 0.1.x does not know (clt, qprt, qtip, creditShelterTrust, dynastyTrust, specialNeedsTrust, corporation, publicCharity and the holdings) is `other`, with estate always written as the side the entity is counted on (as set, else its kind's default), so `other` never moves an entity across the estate line;",
  'parties are left out with every link to or from them; generalPartner and limitedPartner links are drawn as owner with their share; successorTrustee and insured links are left out.',
  `Any other chartVersion is 400 invalid_query naming the accepted values (${CHART_VERSIONS.join(', ')}).`,
  'A household with no one to draw (no members and no deceased spouse) is 409 chart_needs_members: the payload needs at least one person.',
  `The ETag is the household's; If-None-Match with it answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
].join(' ')

const PUT_DESCRIPTION = [
  `Imports a payload of chart ${CHART_VERSION} (payload 0.3.0, the schema GET answers with; a payload 0.2.0 or 0.1.x is one too): it replaces the household's members, their kinships, its entities and its links in one transaction, under If-Match with the household's ETag (428 without it, 412 when stale). household.name, currency, asOf and options are not stored (the currency is an estate setting).`,
  "0.3.0's estate facts are stored in the household's estate settings, the inverse of GET: usCitizen of the primaryClient (coClient) → primaryClientUsCitizen (coClientUsCitizen); the primaryClient's dsueReceived → dsueReceived (amount) and portabilityElected (true → yes, false → no), its from → deceasedSpouseName (that person's name) and dsueDateOfDeath (their deathDate, when stated); a gift entry of the primaryClient (coClient) → primaryClientAsDonor true, taxableGifts → primaryClientLifetimeGifts, exclusionUsed → primaryClientExemptionUsed (coClient… likewise). A setting the payload does not state is kept (PATCH the household to clear one), and so are a client's gift settings when their entry is exactly the one GET derives from them (no amount is recorded that was never entered). Each is checked by the setting's own rules (amounts at most 1e12 with cents: invalid_body at the fact).",
  "Refused (invalid_body, with the fact's JSON Pointer) rather than lost: dispositions or assumptions that say anything (the records API does not store them: remove them, and send them to the chart in the render message), usCitizen or gifts of a person who is not the primaryClient or the coClient, and dsueReceived on anyone but the primaryClient (the records keep these per client; the household's DSUE is the primary client's).",
  "Matching: a person (entity) whose id is the id of a member (entity) of this household, or else its externalId, updates it; any other is created with externalId = the payload's id, so that sending the same payload again changes no ids; members and entities the payload does not name are deleted, with their links (parties too, unless the payload is read as 0.1.x: below).",
  "What the payload states is stored: parentKind, since and until, shortName and valueAsOf, parties and their links, every link type with its share and beneficiaryType. Members' email, kinships' parentKind, since and until, and entities' shortName, notes and valueAsOf (while the value is unchanged) that it leaves out are kept, so a payload read with GET (of any release) and sent back changes nothing. An estate equal to the kind's default on an entity that had none set stays not set. A new value is recorded in the entity's valuations.",
  "A payload that uses anything only payload 0.2.0 has — household currency or asOf; parentKind, since or until; shortName or valueAsOf; an entity kind or a link type 0.1.x does not know (parties, successorTrustee, insured, generalPartner, limitedPartner…); beneficiaryType — speaks 0.2.0, and its links, parties and kinds are exactly what it states: owner is owner, a beneficiary without beneficiaryType is primary, `other` is other, and the parties and links it leaves out are deleted. A payload that uses none of them is read as 0.1.x, which cannot say those facts, so they are kept: an entity's kind when it says `other` for a kind 0.1.x does not know; a partner's link drawn as owner (an owner sent back with the shares GET added keeps the pair's owner and partner links; an owner for a pair with only a partner link stays that partner); a beneficiary's beneficiaryType (new beneficiaries are primary); parties it does not name and their links, and successorTrustee and insured links, as long as what they join stays and still fits. To remove those with a 0.1.x payload, use the members, entities and links endpoints.",
  "Refused whole — nothing is written — with the JSON Pointer of the first problem in `field` (e.g. /links/3/share): the chart's own rules (ids unique across people and entities, relationships and links naming what they must, no one their own ancestor, parentKind only on parent relationships, since and until only on couples and not reversed: invalid_body, relationship_cycle, relationship_conflict; a party with a value: entity_party_value; a party owned, a beneficiary's entity or insured, or owning or benefiting: link_party_owned; a link type to a kind it does not fit: link_kind_mismatch; share or beneficiaryType on a type that has none: link_share_not_allowed), the members' rules (names, real past dates, one primaryClient and one coClient: member_role_taken; two people have one relationship: relationship_conflict), the entities' (value at most 1e12 with cents), and every rule of POST …/links (link_share_not_allowed, link_shares_exceed, link_ownership_cycle, link_kind_mismatch, link_duplicate, " +
    `household_links_limit), with at most ${ESTATE_LIMITS.entities} entities (household_entities_limit) and ${ESTATE_LIMITS.links} links.`,
  "A person GET drew for the household's deceasedSpouseName (id `deceased-spouse`) is stored as a member like any other, so the deceased spouse becomes a member (a member with that name replaces the drawn person in GET).",
  `Audited as chart.import (changed names members, relationships, entities and links, and the estate settings the payload states). Answers 200 with the payload as GET now gives it (${CHART_VERSION}), the new ETag and ${CHART_VERSION_HEADER}. Needs relationships:write or households:write.`,
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
        querystring: ChartQuery,
        headers: IfNoneMatchHeaders,
        response: {
          200: { ...Payload, headers: VersionHeader },
          304: NotModified,
          400: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const version = request.query.chartVersion ?? CHART_VERSION
      const toPayload = PAYLOAD_OF_RELEASE.get(version)
      if (!toPayload)
        throw new ApiError(
          'invalid_query',
          `chartVersion is the chart release whose payload to answer in: one of ${CHART_VERSIONS.join(', ')}; got "${version}".`,
          { field: '/chartVersion' },
        )
      const id = householdIdOf(request.params)
      const found = await readHouseholdChart(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      const payload = toPayload(found.record)
      if (!payload) {
        throw new ApiError(
          'chart_needs_members',
          'The household has no members (and no deceased spouse) yet: add a member, then fetch its chart.',
        )
      }
      reply.header(CHART_VERSION_HEADER, version)
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
