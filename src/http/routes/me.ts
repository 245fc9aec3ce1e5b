// GET /api/v1/me: who the web app's user is — for its header, and to show only what their role allows.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { listUserOrganizations, readUserProfile } from '../../store/user-identities.ts'
import { ErrorBody, RateLimitErrorBody } from '../../schemas/errors.ts'
import { StringEnum } from '../../schemas/common.ts'
import { USER_ROLES } from '../../domain/user-roles.ts'
import { principalOf } from '../plugins/authenticate.ts'
import { ApiError } from '../errors.ts'
import type { App } from '../types.ts'

const Me = Type.Object(
  {
    user: Type.Object({
      id: Type.String({ format: 'uuid' }),
      email: Type.String(),
      name: Type.String(),
      role: StringEnum(USER_ROLES),
    }),
    org: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
    permissions: Type.Array(Type.String(), {
      description: 'What the role allows, in the names routes ask for (org:admin: manage keys, origins, users).',
    }),
    organizations: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          name: Type.String(),
          role: StringEnum(USER_ROLES),
          current: Type.Boolean({ description: 'The organization this session works in (the same as `org`).' }),
          invited: Type.Boolean({
            description:
              'An open invitation to the address verified at sign-in, not accepted yet: switching to it accepts it.',
          }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Every organization the signed-in person can work in (oldest first): where their identity is a user, and open invitations to the address the identity provider verified at sign-in. POST /auth/switch-organization moves the session to one of them.',
      },
    ),
  },
  { additionalProperties: false },
)

export function registerMeRoute(app: App, db: Kysely<Database>): void {
  app.get(
    '/api/v1/me',
    {
      config: { signedIn: true },
      schema: {
        operationId: 'getMe',
        summary: 'The signed-in user',
        description:
          "The web app's user, their organization, what their role allows, and the organizations they can switch to. Needs the idp-session cookie; API keys are not users.",
        tags: ['session'],
        security: [{ SessionAuth: [] }],
        response: { 200: Me, 401: ErrorBody, 429: RateLimitErrorBody },
      },
    },
    async (request) => {
      const principal = principalOf(request)
      const profile = await readUserProfile(db, principal.id)
      // The session resolved a moment ago; its user can only be gone if removed in between.
      if (!profile) throw new ApiError('session_invalid', 'Your user was removed. Sign in again.')
      const { org, ...user } = profile
      const choices = await listUserOrganizations(
        db,
        principal.id,
        principal.kind === 'user' ? principal.verifiedEmail : null,
      )
      const organizations = choices.map((choice) => ({
        id: choice.orgId,
        name: choice.orgName,
        role: choice.role,
        current: choice.orgId === principal.orgId,
        invited: choice.invited,
      }))
      return { user, org, permissions: [...principal.permissions], organizations }
    },
  )
}
