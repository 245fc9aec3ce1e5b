// POST /auth/switch-organization: a signed-in person moves to another of their organizations (the
// web app's header menu). The session carries one organization, so switching ends this session
// and starts one for the person's user in the other organization: the API then answers for it.
// Picking an organization whose invitation to the address verified at sign-in is still open
// accepts that invitation, and only that one. An organization that is neither is 404, the same
// answer as one that does not exist, so ids of other organizations cannot be probed.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { createSession, endSession, SESSION_COOKIE, sessionCookieAttributes } from '../../auth/sessions.ts'
import { readUserIdentity, signInToOrganization } from '../../store/user-identities.ts'
import { ErrorBody, RateLimitErrorBody } from '../../schemas/errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import { ApiError } from '../errors.ts'
import type { App } from '../types.ts'

export const SWITCH_ORGANIZATION_PATH = '/auth/switch-organization'

export function registerSwitchOrganizationRoute(app: App, db: Kysely<Database>, publicUrl: string): void {
  const cookieAttributes = sessionCookieAttributes(publicUrl)
  app.post(
    SWITCH_ORGANIZATION_PATH,
    {
      config: { signedIn: true },
      schema: {
        operationId: 'switchOrganization',
        summary: 'Switch organization',
        description:
          'Ends the session of the idp-session cookie and starts one in another organization of the signed-in person: one listed in GET /api/v1/me `organizations`. ' +
          'Choosing one marked `invited` accepts that invitation. The response sets the new idp-session cookie; the old one stops working. ' +
          'Needs a same-origin request (Origin or Sec-Fetch-Site).',
        tags: ['session'],
        security: [{ SessionAuth: [] }],
        body: Type.Object(
          { orgId: Type.String({ format: 'uuid', description: 'The organization to work in.' }) },
          { additionalProperties: false },
        ),
        response: {
          204: Type.Null({ description: 'Switched; the response sets the new idp-session cookie.' }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          429: RateLimitErrorBody,
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      if (principal.kind !== 'user') throw new Error('switch-organization reached without a session')
      const identity = await readUserIdentity(db, principal.id)
      const user =
        identity &&
        (await signInToOrganization(
          db,
          { ...identity, verifiedEmail: principal.verifiedEmail ?? undefined },
          request.body.orgId,
          new Date(),
        ))
      if (!user) {
        throw new ApiError(
          'organization_not_found',
          'You are not a member of this organization and have no open invitation to it. Pick one listed in GET /api/v1/me.',
        )
      }
      const { value } = await createSession(db, {
        id: user.id,
        orgId: user.orgId,
        verifiedEmail: principal.verifiedEmail ?? undefined,
      })
      await endSession(db, principal.sessionId)
      reply.setCookie(SESSION_COOKIE, value, cookieAttributes)
      return reply.status(204).send(null)
    },
  )
}
