// The links of one relationship's estate (who holds what): list and add (…/{id}/links), read,
// change and remove one (…/{id}/links/{linkId}), on both path prefixes. Links are part of the
// household: every change is a use case of src/households/entity-links.ts that moves the
// household's version (its ETag), and an If-Match of a household that changed since is 412.
// Unknown, malformed and other orgs' household, link or entity ids are all 404.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import {
  CreateLinkBody,
  LinkEnvelope,
  LinkList,
  LinkListQuery,
  LinkParams,
  UpdateLinkBody,
} from '../../schemas/entity-link.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { readLinks, readLinkWithVersion } from '../../store/entity-links.ts'
import { createLink, deleteLink, updateLink } from '../../households/entity-links.ts'
import { entityNotFound, householdNotFound, linkNotFound } from '../../households/rule-violation.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, conditionalWriteErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { HouseholdIdParams, householdIdOf, IfMatchHeaders } from './household-record.ts'
import { isUuid } from '../../domain/ids.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'
import { ESTATE_LIMITS } from '../../domain/estate-vocabulary.ts'

/** A link id from the path; anything but a UUID names no link (404). */
function linkIdOf(params: { linkId: string }): string {
  if (!isUuid(params.linkId)) throw linkNotFound()
  return params.linkId.toLowerCase()
}

const CREATE_REFUSALS = `Refusals (400 unless said): not_found (404, with field /from or /to: the id names no member or entity of your organization), link_target_other_household (/from or /to names a member or entity of another household), link_share_not_allowed (/share on a type without shares, /beneficiaryType on a type other than beneficiary), link_shares_exceed (/share: the owners' and partners' shares of the entity, or its primary beneficiaries', would pass 100), link_ownership_cycle (/to: the entity would own itself through a chain of owners), link_party_owned (/to: a party such as a corporate trustee cannot be owned, have partners or beneficiaries or be insured; it may be a trustee), link_kind_mismatch (/type: insured only to lifeInsurance, generalPartner and limitedPartner only to flp, llc and corporation, grantor, trustee and successorTrustee only to trusts and charities), link_duplicate (/type: the same from, to and type exist), household_links_limit (at most ${ESTATE_LIMITS.links} links per household), invalid_body.`

export function registerHouseholdLinkRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const { base, docs, legacy } = surface
  const listPath = `${base}/:id/links`
  const onePath = `${base}/:id/links/:linkId`
  const alias = (operation: string, path: string) => surface.alias(operation, `/{id}/${path}`)
  const name = (operation: string) =>
    legacy
      ? `${operation}HouseholdLink${operation === 'list' ? 's' : ''}`
      : `${operation}RelationshipLink${operation === 'list' ? 's' : ''}`
  const what = legacy ? 'household' : 'relationship'
  const etagNote = "The ETag is the household's: links are part of it, so any change to them moves it."
  const readNote = `If-None-Match with the current ETag answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`

  app.get(
    listPath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: name('list'),
        summary: `List the links of a ${what}'s estate`,
        description: `${alias('GET', 'links')}Every link (who holds what: grantor, trustee, beneficiary, owner…) of the household, oldest first, or with ?entityId= only the links to or from that entity (404 when it names no entity of the household), and the household's ETag. ${etagNote} ${readNote}`,
        ...docs,
        params: HouseholdIdParams,
        querystring: LinkListQuery,
        headers: IfNoneMatchHeaders,
        response: { 200: LinkList, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const { entityId } = request.query
      if (entityId !== undefined && !isUuid(entityId)) throw entityNotFound()
      const found = await readLinks(db, principalOf(request).orgId, id, entityId?.toLowerCase())
      if (!found) {
        if (entityId === undefined) throw householdNotFound()
        // Tell a missing household from a missing entity, as a GET of either would.
        if (!(await readLinks(db, principalOf(request).orgId, id))) throw householdNotFound()
        throw entityNotFound()
      }
      if (await answeredNotModified(request, reply, found.version)) return reply
      return { links: found.links }
    },
  )

  app.post(
    listPath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('create'),
        summary: `Add a link to a ${what}'s estate`,
        description: `${alias('POST', 'links')}Adds a link from a member or entity of the household to one of its entities. If-Match is optional: when sent, it must name the household's current ETag (412 otherwise); without it the write still waits its turn behind any other write to the household, so two links that would together make an ownership cycle are never both added. Answers 201 with the link, its Location and the household's new ETag. ${CREATE_REFUSALS} Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: Type.Object({
          'if-match': Type.Optional(
            Type.String({
              description: "Optional: the household's ETag (or *); 412 when the household changed since.",
            }),
          ),
        }),
        body: CreateLinkBody,
        response: {
          201: LinkEnvelope,
          400: ErrorBody,
          404: ErrorBody,
          412: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const ifMatch = request.headers['if-match']
      const expected = ifMatch === undefined || ifMatch.trim() === '' ? '*' : expectedVersions(ifMatch)
      const created = await createLink(db, principalOf(request), { householdId, expected, body: request.body })
      reply.header('ETag', etagOf(created.version))
      reply.header('Location', `${base}/${householdId}/links/${created.value.id}`)
      return reply.status(201).send({ link: created.value })
    },
  )

  app.get(
    onePath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: name('get'),
        summary: `Get a link of a ${what}'s estate`,
        description: `${alias('GET', 'links/{linkId}')}One link, and the household's ETag. ${etagNote} ${readNote}`,
        ...docs,
        params: LinkParams,
        headers: IfNoneMatchHeaders,
        response: { 200: LinkEnvelope, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const linkId = linkIdOf(request.params)
      const found = await readLinkWithVersion(db, principalOf(request).orgId, householdId, linkId)
      if (!found) throw linkNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return { link: found.link }
    },
  )

  app.patch(
    onePath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('update'),
        summary: `Update a link of a ${what}'s estate`,
        description: `${alias('PATCH', 'links/{linkId}')}A JSON merge patch (application/merge-patch+json or application/json) of the link's share and beneficiaryType, under If-Match with the household's ETag (428 without it, 412 when stale); from, to and type do not change (delete the link and add another). Answers the link with the household's new ETag. Refusals: link_share_not_allowed, link_shares_exceed, invalid_body. Needs relationships:write or households:write.`,
        ...docs,
        params: LinkParams,
        headers: IfMatchHeaders,
        body: UpdateLinkBody,
        response: { 200: LinkEnvelope, ...conditionalWriteErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const linkId = linkIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const updated = await updateLink(db, principalOf(request), { householdId, linkId, expected, patch: request.body })
      reply.header('ETag', etagOf(updated.version))
      return { link: updated.value }
    },
  )

  app.delete(
    onePath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('delete'),
        summary: `Remove a link from a ${what}'s estate`,
        description: `${alias('DELETE', 'links/{linkId}')}Removes the link, under If-Match with the household's ETag (428 without it, 412 when stale). Answers 204 with the household's new ETag. Needs relationships:write or households:write.`,
        ...docs,
        params: LinkParams,
        headers: IfMatchHeaders,
        // A DELETE needs no body; one that is sent is still read (400 when not JSON, 413, 415).
        response: { 204: Type.Null({ description: 'Removed.' }), ...conditionalWriteErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const linkId = linkIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const removed = await deleteLink(db, principalOf(request), { householdId, linkId, expected })
      reply.header('ETag', etagOf(removed.version))
      return reply.status(204).send(null)
    },
  )
}
