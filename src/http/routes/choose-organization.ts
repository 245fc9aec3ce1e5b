// POST /auth/choose-organization: the end of a sign-in that offered a choice of organization (see
// src/auth/organization-choice.ts). The page's form posts the chosen orgId; the pending choice is
// taken once from the cookie, only that organization's invitation (if it is one) is bound, and the
// session starts there. Invitations not chosen stay open. Every refusal is a page, never a session.
import querystring from 'node:querystring'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Database } from '../../store/tables.ts'
import { createSession, SESSION_COOKIE, sessionCookieAttributes } from '../../auth/sessions.ts'
import { CHOICE_COOKIE, CHOOSE_ORGANIZATION_PATH, takeOrganizationChoice } from '../../auth/organization-choice.ts'
import { signInToOrganization } from '../../store/user-identities.ts'
import { messagePage, type MessagePage } from '../../web/pages.ts'
import { webAssets } from '../../web/assets.ts'
import { checkSameOrigin } from '../same-origin.ts'
import { sendAuthPage, SIGN_IN_PATH } from './sign-in.ts'
import type { App } from '../types.ts'

const SIGN_IN_AGAIN = { href: SIGN_IN_PATH, label: 'Sign in again' }

export function registerChooseOrganizationRoute(app: App, db: Kysely<Database>, publicUrl: string): void {
  const ownOrigin = new URL(publicUrl).origin
  const cookieAttributes = sessionCookieAttributes(publicUrl)
  const choiceCookie = { ...cookieAttributes, path: '/auth' } as const
  const answerPage = async (reply: Parameters<typeof sendAuthPage>[0], status: number, page: MessagePage) =>
    sendAuthPage(reply, status, messagePage(await webAssets(), page))

  // The page's form is an HTML form: its body is urlencoded, a type no other route accepts.
  void app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>()
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, querystring.parse(body.toString()))
    })

    scope.post(
      CHOOSE_ORGANIZATION_PATH,
      {
        // A forged body (no orgId, or not an id) is the API's 400 invalid_body: the page only posts ids.
        schema: { hide: true, body: Type.Object({ orgId: Type.String({ format: 'uuid' }) }) },
        // Before the body is read, and before the choice is spent: another site cannot pick for the person.
        onRequest: async (request, reply) => {
          const verdict = checkSameOrigin(request.headers, ownOrigin)
          if (!verdict.ok) {
            request.log.warn({ reason: verdict.reason }, 'organization choice refused: cross-site')
            return answerPage(reply, 403, {
              title: 'Sign-in could not be verified',
              paragraphs: [
                `This choice did not come from Hearth's own page: ${verdict.reason}. For your safety nothing was signed in.`,
              ],
              action: SIGN_IN_AGAIN,
            })
          }
        },
      },
      async (request, reply) => {
        reply.clearCookie(CHOICE_COOKIE, choiceCookie)
        const pending = await takeOrganizationChoice(db, request.cookies[CHOICE_COOKIE])
        if (!pending) {
          return answerPage(reply, 400, {
            title: 'This sign-in has expired',
            paragraphs: ['The choice of organization works once and for ten minutes. Sign in again to choose.'],
            action: SIGN_IN_AGAIN,
          })
        }
        const user = await signInToOrganization(db, pending.identity, request.body.orgId, new Date())
        if (!user) {
          return answerPage(reply, 403, {
            title: 'You cannot join that organization',
            paragraphs: [
              'You are not a member of that organization and it has no open invitation for your verified address (it may have been withdrawn). Sign in again to choose.',
            ],
            action: SIGN_IN_AGAIN,
          })
        }
        const { value } = await createSession(db, {
          id: user.id,
          orgId: user.orgId,
          verifiedEmail: pending.identity.verifiedEmail,
        })
        reply.setCookie(SESSION_COOKIE, value, cookieAttributes)
        return reply.header('Cache-Control', 'no-store').redirect(pending.returnTo, 303)
      },
    )
  })
}
