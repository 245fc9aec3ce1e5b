// The organization's users, for its admins: list, invite (the rules of `hearth users add`),
// change a role, remove. A role change applies from the user's next request (a session takes its
// role from the users row on every request); a removal ends the user's sessions at once. The
// organization always keeps an admin. Another organization's user id, an unknown one and a
// malformed one are the same 404.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { listUsers, removeUser, updateUserRole, type UserChange } from '../../store/users.ts'
import { inviteUser } from '../../operator/operations.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { isUuid } from '../../domain/ids.ts'
import { CreateUserBody, UpdateUserBody, User, UserList, UserParams } from '../../schemas/organization.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import { organizationOperationDocs, underCliRules } from './organization-common.ts'

const USERS_PATH = '/api/v1/users'

function userNotFound(): ApiError {
  return new ApiError('not_found', 'No user with this id in your organization.')
}

/** A user id from the path; anything but a UUID names no user (404, never 400). */
function userIdOf(params: { userId: string }): string {
  if (!isUuid(params.userId)) throw userNotFound()
  return params.userId.toLowerCase()
}

/** The value of a change the store made, or the error of the one it refused. */
function changed<T>(change: UserChange<T>): T {
  if (change.ok) return change.value
  if (change.reason === 'not_found') throw userNotFound()
  throw new ApiError('last_admin', 'An organization needs at least one admin: make another user an admin first.')
}

export function registerOrganizationUserRoutes(app: App, db: Kysely<Database>): void {
  app.get(
    USERS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'listUsers',
          'List users',
          "The organization's users, oldest first, with their role and whether they have signed in yet.",
        ),
        response: { 200: UserList, ...authErrors },
      },
    },
    async (request) => ({ users: await listUsers(db, principalOf(request).orgId) }),
  )

  app.post(
    USERS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'inviteUser',
          'Invite a user',
          'Adds a user with the role given, status invited: they sign in at the identity provider with this email, which makes them active. 409 user_exists when the organization has a user with this email already (in any case).',
          true,
        ),
        body: CreateUserBody,
        response: { 201: User, 400: ErrorBody, ...authErrors, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      const { email, name, role } = request.body
      const orgId = principalOf(request).orgId
      const user = await underCliRules(() => inviteUser(db, orgId, { email, name, role }))
      if (!user) throw new ApiError('user_exists', `Your organization already has a user with the email ${email}.`)
      return reply.status(201).send(user)
    },
  )

  app.patch(
    `${USERS_PATH}/:userId`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'updateUserRole',
          "Change a user's role",
          'Gives the user another role, from their next request on. 409 last_admin when that would leave the organization without an admin.',
          true,
        ),
        params: UserParams,
        body: UpdateUserBody,
        response: {
          200: User,
          400: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          ...authErrors,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request) =>
      changed(await updateUserRole(db, principalOf(request).orgId, userIdOf(request.params), request.body.role)),
  )

  app.delete(
    `${USERS_PATH}/:userId`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'removeUser',
          'Remove a user',
          "Removes the user with their sessions (signed out at once) and their household assignments. 409 last_admin when the user is the organization's only admin.",
          true,
        ),
        params: UserParams,
        response: {
          204: Type.Null({ description: 'Removed.' }),
          400: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          ...authErrors,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      changed(await removeUser(db, principalOf(request).orgId, userIdOf(request.params)))
      return reply.status(204).send(null)
    },
  )
}
