// Who at the organization looks after the household. Writers change roles and remove people;
// admins, who can list the organization's users, also assign new ones. The set is saved whole
// (PUT) under If-Match.
import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { Field, FormSummary } from '../components/fields.tsx'
import { ASSIGNMENT_ROLE_LABELS } from './format.ts'
import type { HouseholdPageContext } from './household-writes.ts'
import { EditableSection, EditorActions, useEditorForm } from './section-editor.tsx'
import { ASSIGNMENT_ROLES } from '../../../domain/household-roles.ts'
import type { AssignmentRole } from '../../../schemas/assignment.ts'
import type { AssignmentSummary, Household } from '../../../schemas/household.ts'

export function AssignmentsSection({ page }: { page: HouseholdPageContext }) {
  const { household } = page
  return (
    <EditableSection
      page={page}
      editor="assignments"
      title="Advisors"
      editLabel="Change advisors"
      view={
        household.assignments.length === 0 ? (
          <p class="muted">No one is assigned to this household.</p>
        ) : (
          <ul class="assignments">
            {household.assignments.map((a) => (
              <li key={a.userId}>
                <span class="assignee">{a.name}</span> <span class="muted">· {ASSIGNMENT_ROLE_LABELS[a.role]}</span>
              </li>
            ))}
          </ul>
        )
      }
      form={(close) => <AssignmentsForm page={page} onDone={close} />}
    />
  )
}

function AssignmentRoleOptions() {
  return (
    <>
      {ASSIGNMENT_ROLES.map((role) => (
        <option key={role} value={role}>
          {ASSIGNMENT_ROLE_LABELS[role]}
        </option>
      ))}
    </>
  )
}

function AssignmentsForm({ page, onDone }: { page: HouseholdPageContext; onDone: () => void }) {
  const { household, users } = page
  const [draft, setDraft] = useState<AssignmentSummary[]>(household.assignments)
  const [newUser, setNewUser] = useState('')
  const [newRole, setNewRole] = useState<AssignmentRole>('advisor')
  const { busy, formRef, form, send } = useEditorForm(page, onDone, 'select, button')
  const assignable = (users ?? []).filter((u) => !draft.some((a) => a.userId === u.id))
  const labels = Object.fromEntries(draft.map((a, i) => [`assignments.${i}`, `${a.name}’s assignment`]))

  const addUser = () => {
    const user = assignable.find((u) => u.id === newUser)
    if (!user) {
      form.setSummary('Choose a person to assign first.')
      return
    }
    setDraft((current) => [...current, { userId: user.id, name: user.name, role: newRole }])
    setNewUser('')
    form.clear()
  }

  async function save(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element) return
    const body = { assignments: draft.map(({ userId, role }) => ({ userId, role })) }
    await send(
      element,
      (ifMatch) =>
        api<{ household: Household }>(`/api/v1/relationships/${household.id}/assignments`, {
          method: 'PUT',
          body,
          headers: { 'if-match': ifMatch },
        }),
      'The advisors were saved.',
      labels,
    )
  }

  return (
    <form
      ref={formRef}
      noValidate
      class="assignments-form"
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void save(event)}
    >
      <FormSummary message={form.summary} summaryRef={form.summaryRef} />
      {draft.length === 0 ? (
        <p class="muted">No one is assigned. {users ? 'Add someone below.' : ''}</p>
      ) : (
        <ul class="assignment-rows plain">
          {draft.map((assignment, i) => (
            <li key={assignment.userId} class="field-row">
              <Field
                id={`assignment-${assignment.userId}`}
                label={
                  <>
                    Role of <span class="assignee">{assignment.name}</span>
                  </>
                }
                error={form.errors[`assignments.${i}`]}
              >
                {(a11y) => (
                  <select
                    {...a11y}
                    name={`assignments.${i}`}
                    value={assignment.role}
                    onChange={(event) => {
                      const role = event.currentTarget.value as AssignmentRole
                      setDraft((current) => current.map((a) => (a.userId === assignment.userId ? { ...a, role } : a)))
                      form.clear()
                    }}
                  >
                    <AssignmentRoleOptions />
                  </select>
                )}
              </Field>
              <button
                type="button"
                class="link remove-assignment"
                onClick={() => {
                  setDraft((current) => current.filter((a) => a.userId !== assignment.userId))
                  form.clear()
                }}
              >
                Unassign<span class="visually-hidden"> {assignment.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {users ? (
        assignable.length > 0 && (
          <fieldset>
            <legend>Assign someone</legend>
            <div class="field-row">
              <Field id="assign-user" label="Person">
                {(a11y) => (
                  <select {...a11y} value={newUser} onChange={(event) => setNewUser(event.currentTarget.value)}>
                    <option value="">Choose a person</option>
                    {assignable.map((user) => (
                      <option key={user.id} value={user.id}>
                        {user.name} ({user.email})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field id="assign-role" label="Role">
                {(a11y) => (
                  <select
                    {...a11y}
                    value={newRole}
                    onChange={(event) => setNewRole(event.currentTarget.value as AssignmentRole)}
                  >
                    <AssignmentRoleOptions />
                  </select>
                )}
              </Field>
              <button type="button" class="align-end" onClick={addUser}>
                Add to the list
              </button>
            </div>
          </fieldset>
        )
      ) : (
        <p class="hint">
          Only admins can assign someone new (they can see your organization’s users). You can change roles or unassign
          people.
        </p>
      )}
      <EditorActions busy={busy} saveLabel="Save advisors" onCancel={onDone} />
    </form>
  )
}
