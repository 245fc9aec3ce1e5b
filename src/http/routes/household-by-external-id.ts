// PUT /api/v1/relationships/by-external-id/{externalId} (and the same on the legacy
// /api/v1/households): a household whole, keyed by the partner's own ids, created or replaced
// (src/households/household-document.ts), so that a sync job needs no map of Hearth ids. HTTP's
// own preconditions say which: no household has the externalId → created (201, Location, ETag),
// unless If-Match is sent (412: it names nothing); one has it → replaced under If-Match (200, ETag;
// 428 without it, 412 when stale, `*` for any version); If-None-Match: * makes it create-only.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { HouseholdDocument, HouseholdWhole } from '../../schemas/household-document.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { EXTERNAL_ID_PATTERN } from '../../domain/external-id.ts'
import { putHouseholdDocument } from '../../households/household-document.ts'
import { ApiError } from '../errors.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'

const ExternalIdParams = Type.Object({
  externalId: Type.String({
    pattern: EXTERNAL_ID_PATTERN,
    description: "Your own id for the household (1–64 letters, digits and _ . : -, the chart payload's id rule).",
  }),
})

const PutHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description:
        "The household's ETag (from GET, or from this PUT's last answer), or *: required to replace a household that has this externalId (428 without it, 412 when it changed since). Sent when no household has it: 412.",
    }),
  ),
  'if-none-match': Type.Optional(
    Type.String({
      description: '* only: create, never replace (412 when a household already has this externalId).',
    }),
  ),
})

const DESCRIPTION = [
  "Creates or replaces, whole, the household whose externalId is the path's: a sync job sends what it holds, keyed by its own ids, and needs no map of Hearth ids.",
  "The body is a HouseholdDocument: the household's create fields (its externalId, when sent, must be the path's: 400 otherwise), and its members, entities and links, each member and entity with its externalId; relationships and links name members and entities by it.",
  'No household of your organization has the externalId: it is created, 201 with Location and ETag. One has it: it is replaced, under If-Match (428 without it, 412 when stale; * takes any version), 200 with the new ETag. If-None-Match: * creates only (412 when it exists).',
  'Replacing keeps the ids of the members and entities matched by externalId, creates the others and deletes those the document does not name, with their relationships and links; the household fields the document leaves out are cleared (currency back to USD). Members and entities created by the other endpoints without an externalId are not named by any document, so a replace deletes them.',
  'Every rule of the records applies, with the same codes (member_role_taken, relationship_conflict, relationship_cycle, entity_party_value, link_shares_exceed, link_ownership_cycle, link_kind_mismatch…), and nothing is written when one fails; field is the JSON Pointer of the first problem in the document (e.g. /members/2/relationships/0/externalId, /links/3/share).',
  'The same document again, while the household has not changed since it was written, writes nothing (200 with the same ETag, and no event). Otherwise the write emits one household.replaced event, whose data is this answer.',
  'Answers the household whole: the household, its members, entities and links as their GETs answer them. Needs relationships:write or households:write.',
].join(' ')

export function registerHouseholdByExternalIdRoute(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const { legacy } = surface
  app.put(
    `${surface.base}/by-external-id/:externalId`,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: surface.pick('putRelationshipByExternalId', 'putHouseholdByExternalId'),
        summary: legacy
          ? 'Create or replace a household by its external id'
          : 'Create or replace a relationship by its external id',
        description: `${surface.alias('PUT', '/by-external-id/{externalId}')}${DESCRIPTION}`,
        ...surface.docs,
        params: ExternalIdParams,
        headers: PutHeaders,
        body: HouseholdDocument,
        response: {
          200: HouseholdWhole,
          201: HouseholdWhole,
          400: ErrorBody,
          409: ErrorBody,
          412: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          428: ErrorBody,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const { externalId } = request.params
      const document = request.body
      if (document.externalId != null && document.externalId !== externalId)
        throw new ApiError(
          'invalid_body',
          `externalId (${document.externalId}) is not the path's (${externalId}): the path names the household; leave externalId out of the body, or send the same.`,
          { field: '/externalId' },
        )
      const ifNoneMatch = request.headers['if-none-match']
      if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*')
        throw new ApiError('invalid_header', 'If-None-Match on this PUT takes * only (create, never replace).', {
          field: '/if-none-match',
        })
      const ifMatch = request.headers['if-match']
      const result = await putHouseholdDocument(db, principalOf(request), {
        externalId,
        document,
        mode: 'put',
        ifMatch: ifMatch === undefined ? undefined : expectedVersions(ifMatch),
        createOnly: ifNoneMatch !== undefined,
        answerWhole: true,
      })
      reply.header('ETag', etagOf(result.version))
      if (result.kind === 'created') reply.status(201).header('Location', `${surface.base}/${result.householdId}`)
      return reply
        .type('application/json; charset=utf-8')
        .send((result.whole ?? '{}') as unknown as Static<typeof HouseholdWhole>)
    },
  )
}
