// /admin/members: the organization's users. Invite someone by email (they become active the first
// time they sign in with it), change a role (saved on change, said in a live region), remove a
// member after a confirmation. The API keeps at least one admin (409 last_admin), said in words.
//
// Removing yourself is allowed, behind a confirmation that says plainly what happens (you are
// signed out at once and only another admin can invite you back): the API allows it whenever
// another admin remains, and an admin leaving the organization has no other way out. Giving up
// your own admin role asks the same way, since the organization pages close behind you.
import { useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { useMe } from '../session.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { Field, FormSummary, useFormSummary } from '../components/fields.tsx'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { LoadError } from '../components/load-error.tsx'
import { useApiData } from '../hooks/use-api-data.ts'
import { useFocusRequest } from '../hooks/focus-request.ts'
import { ActionError, LiveStatus, Loading } from '../components/load-states.tsx'
import { formatDateTime, problemCode, problemText } from '../format.ts'
import { ROLES, roleLabel } from '../organization/choices.ts'
import type { User, UserList } from '../../../schemas/organization.ts'
import { DEFAULT_USER_ROLE, type UserRole } from '../../../domain/user-roles.ts'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const EMAIL_MAX = 254
const NAME_MAX = 200

function withArticle(role: UserRole): string {
  return /^[aeiou]/.test(role) ? `an ${role}` : `a ${role}`
}

function lastAdminText(user: User, self: boolean, action: 'remove' | 'role'): string {
  const who = self ? 'You are' : `${user.name} is`
  const what =
    action === 'remove'
      ? self
        ? 'you cannot be removed'
        : 'they cannot be removed'
      : self
        ? 'your role stays admin'
        : 'their role stays admin'
  return `${who} your organization's only admin, so ${what}: an organization needs at least one admin. Make another member an admin first.`
}

export function OrganizationMembersPage() {
  const me = useMe()
  const users = useApiData<UserList>('/api/v1/users')
  const [status, setStatus] = useState('')
  const [actionError, setActionError] = useState<string | null>(null)
  const [pendingRoles, setPendingRoles] = useState<Record<string, UserRole>>({})
  const [demoting, setDemoting] = useState<{ user: User; role: UserRole } | null>(null)
  const [demoteBusy, setDemoteBusy] = useState(false)
  const [demoteError, setDemoteError] = useState<string | null>(null)
  const removal = useConfirmation<User>()
  const [listHeading, focusList] = useFocusRequest<HTMLHeadingElement>()

  const isSelf = (user: User) => user.id === me.user.id

  function setPending(userId: string, role: UserRole | null) {
    setPendingRoles((current) =>
      role
        ? { ...current, [userId]: role }
        : Object.fromEntries(Object.entries(current).filter(([id]) => id !== userId)),
    )
  }

  /** Saves a role; answers the refusal's sentence, or null when saved. */
  async function saveRole(user: User, role: UserRole): Promise<string | null> {
    setStatus('')
    setActionError(null)
    setPending(user.id, role)
    try {
      const { body } = await api<User>(`/api/v1/users/${encodeURIComponent(user.id)}`, {
        method: 'PATCH',
        body: { role },
      })
      users.update((data) => ({ users: data.users.map((u) => (u.id === body.id ? body : u)) }))
      if (isSelf(user) && body.role !== 'admin') {
        // The organization pages are closed to us now: start again as what we have become.
        window.location.assign('/households')
        return null
      }
      setStatus(`Saved: ${body.name} is now ${withArticle(body.role)}.`)
      return null
    } catch (problem) {
      if (problemCode(problem) === 'last_admin') return lastAdminText(user, isSelf(user), 'role')
      if (problem instanceof ApiProblem && problem.status === 404) {
        users.reload()
        return `${user.name} is no longer a member of your organization.`
      }
      return `The role of ${user.name} was not changed: ${problemText(problem)}`
    } finally {
      setPending(user.id, null)
    }
  }

  function changeRole(user: User, role: UserRole) {
    if (role === user.role) return
    if (isSelf(user) && role !== 'admin') {
      setPending(user.id, role)
      setDemoteError(null)
      setDemoting({ user, role })
      return
    }
    void saveRole(user, role).then((error) => setActionError(error))
  }

  async function confirmDemote() {
    if (!demoting || demoteBusy) return
    setDemoteBusy(true)
    const error = await saveRole(demoting.user, demoting.role)
    setDemoteBusy(false)
    if (error) {
      setPending(demoting.user.id, demoting.role)
      setDemoteError(error)
    } else {
      setDemoting(null)
    }
  }

  /** Removes a member; what is thrown is the dialog's sentence. */
  async function remove(user: User) {
    try {
      await api(`/api/v1/users/${encodeURIComponent(user.id)}`, { method: 'DELETE' })
      if (isSelf(user)) {
        // Our sessions ended with the account.
        window.location.assign('/signed-out')
        return
      }
      users.update((data) => ({ users: data.users.filter((u) => u.id !== user.id) }))
      setStatus(`Removed ${user.name} (${user.email}).`)
      removal.close()
      focusList()
    } catch (problem) {
      if (problemCode(problem) === 'last_admin')
        throw new Error(lastAdminText(user, isSelf(user), 'remove'), { cause: problem })
      if (!(problem instanceof ApiProblem && problem.status === 404))
        throw new Error(`${user.name} was not removed: ${problemText(problem)}`, { cause: problem })
      users.update((data) => ({ users: data.users.filter((u) => u.id !== user.id) }))
      setStatus(`${user.name} was no longer a member.`)
      removal.close()
      focusList()
    }
  }

  const list = users.data?.users
  const removing = removal.subject
  return (
    <section class="admin-page admin-members">
      <PageHeading title="Members">Members</PageHeading>
      <p class="admin-intro">
        The people of {me.org.name} who sign in to Hearth. Invite someone with the email address they sign in with;
        their role says what they may do.
      </p>

      <InviteForm
        onInvited={(user) => {
          users.update((data) => ({ users: [...data.users.filter((u) => u.id !== user.id), user] }))
          setActionError(null)
          setStatus(
            `Invited ${user.name} (${user.email}) as ${withArticle(user.role)}. Hearth sends no email: tell them to sign in with this address, which makes them active.`,
          )
        }}
      />

      <section class="admin-section" aria-labelledby="members-list-title" aria-busy={users.loading ? 'true' : 'false'}>
        <h2 id="members-list-title" ref={listHeading} tabIndex={-1} class="section-heading">
          People
        </h2>
        <LiveStatus message={status} />
        <ActionError message={actionError} />
        {users.error && <LoadError what="The members" error={users.error} onRetry={users.reload} />}
        {!list && users.loading && <Loading>Loading members…</Loading>}
        {list?.length === 0 && (
          <div class="empty">
            <p>Your organization has no members.</p>
          </div>
        )}
        {list && list.length > 0 && (
          <div class="table-scroll">
            <table class="admin-table members-table">
              <caption class="visually-hidden">
                Members of your organization, oldest first. Changing a role saves it at once.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((user) => {
                  const roleId = `role-${user.id}`
                  const pending = pendingRoles[user.id]
                  return (
                    <tr key={user.id} data-user-id={user.id}>
                      <th scope="row" class="member-name">
                        {user.name}
                        {isSelf(user) && <span class="tag">you</span>}
                      </th>
                      <td class="member-email">{user.email}</td>
                      <td>
                        <label class="visually-hidden" for={roleId}>
                          Role of {user.name}
                        </label>
                        <select
                          id={roleId}
                          value={pending ?? user.role}
                          disabled={pending !== undefined}
                          aria-busy={pending !== undefined ? 'true' : undefined}
                          onChange={(event) => changeRole(user, event.currentTarget.value as UserRole)}
                        >
                          {ROLES.map((role) => (
                            <option key={role.value} value={role.value}>
                              {role.label}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td>
                        <span class={`status-tag status-${user.status}`}>
                          {user.status === 'active' ? 'Active' : 'Invited'}
                        </span>
                      </td>
                      <td>
                        {user.lastSignInAt ? (
                          <time dateTime={user.lastSignInAt}>{formatDateTime(user.lastSignInAt)}</time>
                        ) : (
                          <span class="muted">Never</span>
                        )}
                      </td>
                      <td class="actions">
                        <button type="button" class="danger" onClick={() => removal.ask(user)}>
                          {isSelf(user) ? 'Remove myself' : 'Remove'}
                          {!isSelf(user) && <span class="visually-hidden"> {user.name}</span>}
                        </button>
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        )}
        <p class="hint">
          Roles: {ROLES.map((role, i) => `${i > 0 ? '; ' : ''}${role.label.toLowerCase()} — ${role.hint}`).join('')}.
        </p>
      </section>

      {demoting && (
        <ConfirmDialog
          title="Give up your admin role?"
          confirmLabel={`Make me ${withArticle(demoting.role)}`}
          busy={demoteBusy}
          error={demoteError}
          onConfirm={() => void confirmDemote()}
          onCancel={() => {
            setPending(demoting.user.id, null)
            setDemoting(null)
          }}
        >
          <p>
            You will become {withArticle(demoting.role)} at once and lose these admin pages (keys, embed origins,
            members and usage). Only another admin can make you an admin again.
          </p>
        </ConfirmDialog>
      )}

      {removing && (
        <ConfirmDialog
          title={isSelf(removing) ? 'Remove yourself from the organization?' : `Remove ${removing.name}?`}
          confirmLabel={isSelf(removing) ? 'Remove me and sign me out' : 'Remove member'}
          busy={removal.busy}
          error={removal.error}
          onConfirm={() => void removal.run(remove)}
          onCancel={() => removal.close()}
        >
          {isSelf(removing) ? (
            <p>
              <strong>This removes your own account ({removing.email}).</strong> You will be signed out at once,
              everywhere, and taken off every household you are assigned to. You cannot sign in to {me.org.name} again
              unless another admin invites you.
            </p>
          ) : (
            <p>
              <strong>{removing.name}</strong> ({removing.email}) loses access at once: they are signed out everywhere
              and taken off every household they are assigned to. You can invite them again later.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  )
}

interface InviteErrors {
  email?: string
  name?: string
}

function InviteForm({ onInvited }: { onInvited: (user: User) => void }) {
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [role, setRole] = useState<UserRole>(DEFAULT_USER_ROLE)
  const [errors, setErrors] = useState<InviteErrors>({})
  const summary = useFormSummary()
  const [busy, setBusy] = useState(false)
  const emailRef = useRef<HTMLInputElement>(null)
  const nameRef = useRef<HTMLInputElement>(null)

  function show(found: InviteErrors) {
    setErrors(found)
    if (found.email) emailRef.current?.focus()
    else if (found.name) nameRef.current?.focus()
  }

  async function submit(event: Event) {
    event.preventDefault()
    if (busy) return
    summary.clear()
    const found: InviteErrors = {}
    const trimmedEmail = email.trim()
    const trimmedName = name.trim()
    if (!trimmedEmail) found.email = 'Enter the email address they sign in with.'
    else if (!EMAIL.test(trimmedEmail) || trimmedEmail.length > EMAIL_MAX)
      found.email = 'Enter an email address such as name@example.com.'
    if (trimmedName.length > NAME_MAX) found.name = `The name can be at most ${NAME_MAX} characters.`
    if (found.email || found.name) {
      show(found)
      return
    }
    const body: { email: string; role: UserRole; name?: string } = { email: trimmedEmail, role }
    if (trimmedName) body.name = trimmedName
    setBusy(true)
    try {
      const { body: user } = await api<User>('/api/v1/users', { method: 'POST', body })
      setEmail('')
      setName('')
      setRole(DEFAULT_USER_ROLE)
      setErrors({})
      onInvited(user)
    } catch (problem) {
      const message = problemText(problem)
      if (problemCode(problem) === 'user_exists') show({ email: message })
      else if (problem instanceof ApiProblem && problem.status === 400 && /^email\b/.test(message))
        show({ email: 'Enter an email address such as name@example.com.' })
      else if (problem instanceof ApiProblem && problem.status === 400 && /^name\b/.test(message))
        show({ name: message })
      else {
        summary.show(`The invitation was not saved: ${message}`)
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      class="admin-form invite-member"
      noValidate
      aria-labelledby="invite-title"
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="invite-title" class="section-heading">
        Invite someone
      </h2>
      <FormSummary message={summary.message} summaryRef={summary.ref} />
      <div class="field-row">
        <Field id="invite-email" label="Email" hint="The address they sign in with." error={errors.email}>
          {(a11y) => (
            <input
              {...a11y}
              ref={emailRef}
              type="email"
              name="email"
              autocomplete="off"
              spellcheck={false}
              maxLength={EMAIL_MAX}
              value={email}
              onInput={(event) => {
                setEmail(event.currentTarget.value)
                setErrors((current) => ({ ...current, email: undefined }))
              }}
            />
          )}
        </Field>
        <Field
          id="invite-name"
          label="Name (optional)"
          hint="How Hearth shows them; if empty, the part of the email before @."
          error={errors.name}
        >
          {(a11y) => (
            <input
              {...a11y}
              ref={nameRef}
              type="text"
              name="name"
              autocomplete="off"
              maxLength={NAME_MAX}
              value={name}
              onInput={(event) => {
                setName(event.currentTarget.value)
                setErrors((current) => ({ ...current, name: undefined }))
              }}
            />
          )}
        </Field>
        <Field id="invite-role" label="Role" hint={ROLES.find((r) => r.value === role)?.hint}>
          {(a11y) => (
            <select
              {...a11y}
              name="role"
              value={role}
              onChange={(event) => setRole(event.currentTarget.value as UserRole)}
            >
              {ROLES.map((option) => (
                <option key={option.value} value={option.value}>
                  {roleLabel(option.value)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </div>
    </form>
  )
}
