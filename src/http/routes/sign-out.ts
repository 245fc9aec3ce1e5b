// Sign out of the web app: POST /auth/sign-out ends the session the cookie names;
// POST /auth/sign-out-everywhere ends every session of its user (other browsers, lost devices).
// Both need a live idp-session cookie (a key is not a session) and a same-origin request, and
// both tell the browser to drop the cookie. Sign-in (OpenID Connect) issues the cookie; it comes later.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { endAllSessions, endSession, SESSION_COOKIE, sessionCookieAttributes } from '../../auth/sessions.ts'
import { ErrorBody, RateLimitErrorBody } from '../../schemas/errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'

const SIGN_OUT_PATH = '/auth/sign-out'
const SIGN_OUT_EVERYWHERE_PATH = '/auth/sign-out-everywhere'

export function registerSignOutRoutes(app: App, db: Kysely<Database>, publicUrl: string): void {
  const cookieAttributes = sessionCookieAttributes(publicUrl)
  const schema = (operationId: string, summary: string, description: string) => ({
    operationId,
    summary,
    description,
    tags: ['session'],
    security: [{ SessionAuth: [] }],
    response: {
      204: Type.Null({ description: 'Signed out; the response clears the idp-session cookie.' }),
      401: ErrorBody,
      403: ErrorBody,
      429: RateLimitErrorBody,
    },
  })

  app.post(
    SIGN_OUT_PATH,
    {
      config: { signedIn: true },
      schema: schema(
        'signOut',
        'Sign out',
        'Ends the session of the idp-session cookie. Needs a same-origin request (Origin or Sec-Fetch-Site).',
      ),
    },
    async (request, reply) => {
      const principal = principalOf(request)
      if (principal.kind === 'user') await endSession(db, principal.sessionId)
      reply.clearCookie(SESSION_COOKIE, cookieAttributes)
      return reply.status(204).send(null)
    },
  )

  app.post(
    SIGN_OUT_EVERYWHERE_PATH,
    {
      config: { signedIn: true },
      schema: schema(
        'signOutEverywhere',
        'Sign out everywhere',
        'Ends every session of the signed-in user, in every browser. Needs a same-origin request (Origin or Sec-Fetch-Site).',
      ),
    },
    async (request, reply) => {
      const principal = principalOf(request)
      if (principal.kind === 'user') await endAllSessions(db, principal.id)
      reply.clearCookie(SESSION_COOKIE, cookieAttributes)
      return reply.status(204).send(null)
    },
  )
}
