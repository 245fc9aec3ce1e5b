// The organization's embed (frame) origins, for its admins: the partner pages allowed to frame
// the chart and named in chart tokens. The same rules as `hearth origins add|remove|list`.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { listFrameOriginRecords, registerFrameOrigin, removeFrameOrigin } from '../../store/origins.ts'
import { parseFrameOrigin } from '../../domain/origins.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { AddFrameOriginBody, FrameOrigin, FrameOriginList, FrameOriginParams } from '../../schemas/organization.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import { organizationOperationDocs } from './organization-common.ts'

const ORIGINS_PATH = '/api/v1/embed/origins'

export function registerOrganizationOriginRoutes(app: App, db: Kysely<Database>): void {
  app.get(
    ORIGINS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'listFrameOrigins',
          'List embed origins',
          "The origins allowed to frame the organization's charts, in alphabetical order.",
        ),
        response: { 200: FrameOriginList, ...authErrors },
      },
    },
    async (request) => {
      const origins = await listFrameOriginRecords(db, principalOf(request).orgId)
      return { origins: origins.map((row) => ({ origin: row.origin, createdAt: row.createdAt.toISOString() })) }
    },
  )

  app.post(
    ORIGINS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'addFrameOrigin',
          'Add an embed origin',
          'Allows the origin to frame the chart and to be named in chart tokens. Answers 201 when added, 200 when it was registered already (with its first registration time); a malformed origin is 400 invalid_frame_origin.',
          true,
        ),
        body: AddFrameOriginBody,
        response: { 200: FrameOrigin, 201: FrameOrigin, 400: ErrorBody, ...authErrors, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      const parsed = parseFrameOrigin(request.body.origin)
      if (!parsed.ok) throw new ApiError('invalid_frame_origin', `origin: ${parsed.reason}`, { field: '/origin' })
      const registered = await registerFrameOrigin(db, principalOf(request).orgId, parsed.origin)
      return reply
        .status(registered.added ? 201 : 200)
        .send({ origin: registered.origin, createdAt: registered.createdAt.toISOString() })
    },
  )

  app.delete(
    `${ORIGINS_PATH}/:origin`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'removeFrameOrigin',
          'Remove an embed origin',
          'New chart tokens can no longer name the origin (tokens minted before keep working until they expire, 10 minutes at most). 404 when it is not registered.',
          true,
        ),
        params: FrameOriginParams,
        response: {
          204: Type.Null({ description: 'Removed.' }),
          400: ErrorBody,
          404: ErrorBody,
          ...authErrors,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      if (!(await removeFrameOrigin(db, principalOf(request).orgId, request.params.origin))) {
        throw new ApiError('not_found', 'This origin is not registered for your organization.')
      }
      return reply.status(204).send(null)
    },
  )
}
