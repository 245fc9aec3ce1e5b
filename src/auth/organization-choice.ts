// Choosing an organization at sign-in. When a verified identity could sign in to more than one
// organization, the callback binds nothing: it keeps the identity server-side for
// CHOICE_LIFETIME_MS under the hash of a random token, and the browser holds the token in a cookie
// scoped to /auth (like the sign-in state). The pick brings the token back once; only then is the
// chosen organization's invitation, and no other, bound to the identity.
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { insertSignInChoice, takeSignInChoice } from '../store/sign-in-choices.ts'
import type { Identity } from '../store/user-identities.ts'

export const CHOICE_COOKIE = 'hearth-sign-in-choice'
export const CHOOSE_ORGANIZATION_PATH = '/auth/choose-organization'
/** As long as a sign-in attempt: time to read the list, not to leave it open overnight. */
export const CHOICE_LIFETIME_MS = 10 * 60_000

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Keeps the identity until the person picks an organization; answers the token for the cookie. */
export async function offerOrganizationChoice(
  db: Kysely<Database>,
  identity: Identity,
  returnTo: string,
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  await insertSignInChoice(
    db,
    hashToken(token),
    { ...identity, returnTo },
    now,
    new Date(now.getTime() + CHOICE_LIFETIME_MS),
  )
  return token
}

/** The identity waiting under this token, taken so that it works once; undefined if unknown, spent or expired. */
export async function takeOrganizationChoice(
  db: Kysely<Database>,
  token: string | undefined,
  now = new Date(),
): Promise<{ identity: Identity; returnTo: string } | undefined> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined
  const pending = await takeSignInChoice(db, hashToken(token), now)
  if (!pending) return undefined
  return {
    identity: { issuer: pending.issuer, subject: pending.subject, verifiedEmail: pending.verifiedEmail },
    returnTo: pending.returnTo,
  }
}
