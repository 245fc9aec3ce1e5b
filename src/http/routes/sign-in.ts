// Sign-in to the web app: GET /auth/sign-in sends the browser to the identity provider;
// GET /auth/callback is where it comes back. Success starts a session (the idp-session cookie) and
// returns to the page the person wanted — or, when the identity could work in several
// organizations, answers a page to choose one (choose-organization.ts finishes that). Every failure
// is a page that says what happened and offers a fresh start, and never a session.
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { createSession, SESSION_COOKIE, sessionCookieAttributes } from '../../auth/sessions.ts'
import {
  ATTEMPT_LIFETIME_MS,
  CALLBACK_PATH,
  SIGN_IN_STATE_COOKIE,
  type OidcSignIn,
  type SignInFailure,
} from '../../auth/oidc.ts'
import { webAssets } from '../../web/assets.ts'
import { messagePage, organizationChoicePage, type MessagePage } from '../../web/pages.ts'
import {
  CHOICE_COOKIE,
  CHOICE_LIFETIME_MS,
  CHOOSE_ORGANIZATION_PATH,
  offerOrganizationChoice,
} from '../../auth/organization-choice.ts'
import type { App } from '../types.ts'
import { SIGN_IN_COST } from '../../rate-limit/costs.ts'

export const SIGN_IN_PATH = '/auth/sign-in'
const DEFAULT_RETURN_TO = '/households'
const MESSAGE_PAGE_POLICY =
  "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/**
 * Whether a path leads into /auth as the browser and the router will read it: after dot segments
 * are resolved (`/x/../auth/`, also written `%2e%2e`) and percent-escapes decoded (`/%61uth/`).
 */
function leadsIntoAuth(candidate: string): boolean {
  try {
    const path = decodeURIComponent(new URL(candidate, 'http://app.invalid').pathname)
    return path === '/auth' || path.startsWith('/auth/')
  } catch {
    return true // A malformed escape: not a path to return to.
  }
}

/** Only a path of this app: never another site (an open redirect), nor back into /auth. */
export function safeReturnTo(candidate: string | undefined): string {
  if (!candidate || candidate.length > 2000 || !/^\/(?![/\\])/.test(candidate)) return DEFAULT_RETURN_TO
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\\]/.test(candidate) || !candidate.isWellFormed() || leadsIntoAuth(candidate))
    return DEFAULT_RETURN_TO
  // The Location header carries ASCII only: spaces and anything beyond ASCII go percent-encoded.
  return candidate.replace(/[^\x21-\x7e]+/g, (text) => encodeURI(text))
}

/** A server-written page of the sign-in flow: no script at all, forms only to this origin, never cached. */
export function sendAuthPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('Content-Security-Policy', MESSAGE_PAGE_POLICY)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html)
}

export function registerSignInRoutes(
  app: App,
  db: Kysely<Database>,
  options: { publicUrl: string; oidc: OidcSignIn | undefined },
): void {
  const cookieAttributes = sessionCookieAttributes(options.publicUrl)
  const stateCookie = { ...cookieAttributes, path: '/auth' } as const
  const retry = (returnTo = DEFAULT_RETURN_TO) => ({
    href: `${SIGN_IN_PATH}?returnTo=${encodeURIComponent(returnTo)}`,
    label: 'Sign in again',
  })

  async function answerPage(reply: FastifyReply, status: number, page: MessagePage) {
    return sendAuthPage(reply, status, messagePage(await webAssets(), page))
  }

  app.get(
    SIGN_IN_PATH,
    // Limited per client address like every route without credentials, at SIGN_IN_COST: each start writes a row.
    {
      config: { rateLimitCost: () => SIGN_IN_COST },
      schema: { hide: true, querystring: Type.Object({ returnTo: Type.Optional(Type.String()) }) },
    },
    async (request, reply) => {
      if (!options.oidc) {
        return answerPage(reply, 503, {
          title: 'Sign-in is not set up',
          paragraphs: [
            'This Hearth has no identity provider. Its operator sets OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (see the README).',
          ],
        })
      }
      const started = await options.oidc.start(safeReturnTo(request.query.returnTo), request.ip)
      if (!started.ok) return answerPage(reply, 502, failurePage(started.failure, retry()))
      reply.setCookie(SIGN_IN_STATE_COOKIE, started.state, { ...stateCookie, maxAge: ATTEMPT_LIFETIME_MS / 1000 })
      return reply.header('Cache-Control', 'no-store').redirect(started.redirectTo, 302)
    },
  )

  app.get(
    CALLBACK_PATH,
    { config: { rateLimitCost: () => SIGN_IN_COST }, schema: { hide: true } },
    async (request, reply) => {
      reply.clearCookie(SIGN_IN_STATE_COOKIE, stateCookie)
      if (!options.oidc)
        return answerPage(reply, 503, {
          title: 'Sign-in is not set up',
          paragraphs: ['This Hearth has no identity provider.'],
        })
      const url = new URL(request.url, 'http://callback.invalid')
      const result = await options.oidc.finish(url, request.cookies[SIGN_IN_STATE_COOKIE])
      if (!result.ok) {
        request.log.warn({ reason: result.failure.reason }, 'sign-in refused')
        return answerPage(
          reply,
          result.failure.reason === 'not_invited' ? 403 : 400,
          failurePage(result.failure, retry()),
        )
      }
      if (result.kind === 'choose') {
        // Several organizations: nothing is bound until the person picks one (choose-organization.ts).
        const token = await offerOrganizationChoice(db, result.identity, result.returnTo)
        reply.setCookie(CHOICE_COOKIE, token, { ...stateCookie, maxAge: CHOICE_LIFETIME_MS / 1000 })
        const page = organizationChoicePage(await webAssets(), {
          action: CHOOSE_ORGANIZATION_PATH,
          email: result.identity.verifiedEmail,
          organizations: result.choices,
        })
        return sendAuthPage(reply, 200, page)
      }
      // A new session value on every sign-in: nobody can plant a cookie and wait for it to be signed in.
      const { value } = await createSession(db, {
        id: result.user.id,
        orgId: result.user.orgId,
        verifiedEmail: result.identity.verifiedEmail,
      })
      reply.setCookie(SESSION_COOKIE, value, cookieAttributes)
      return reply.header('Cache-Control', 'no-store').redirect(result.returnTo, 303)
    },
  )
}

function failurePage(failure: SignInFailure, action: { href: string; label: string }): MessagePage {
  switch (failure.reason) {
    case 'not_invited':
      return {
        title: 'You have not been invited',
        paragraphs: [
          failure.email
            ? `You signed in as ${failure.email}, but no organization on this Hearth has invited that address.`
            : 'You signed in, but the identity provider did not give us a verified email address, so we cannot find your invitation.',
          'Ask an admin of your organization to invite you (Admin → Members), then sign in again.',
        ],
        action: { ...action, label: 'Sign in with another account' },
      }
    case 'provider_unreachable':
      return {
        title: 'The identity provider cannot be reached',
        paragraphs: [
          'Hearth could not reach the sign-in service. Try again in a moment; if it keeps happening, tell your administrator.',
        ],
        action,
      }
    case 'provider_error':
      return {
        title: 'Sign-in was not completed',
        paragraphs: [`The identity provider said: ${failure.detail}.`],
        action,
      }
    case 'state_mismatch':
      return {
        title: 'Sign-in could not be verified',
        paragraphs: [
          'This sign-in was not started in this browser, or it was started twice. For your safety nothing was signed in.',
        ],
        action,
      }
    case 'attempt_unknown':
      return {
        title: 'This sign-in has expired',
        paragraphs: ['Sign-in links work once and for ten minutes. Start again.'],
        action,
      }
    case 'token_rejected':
      return {
        title: 'Sign-in could not be verified',
        paragraphs: [
          "The identity provider's answer did not pass our checks, so nothing was signed in. Start again; if it keeps happening, tell your administrator.",
        ],
        action,
      }
  }
}
