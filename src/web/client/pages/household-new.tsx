// /households/new: a household with every field the create API takes, and (optionally) its first
// people, which the members API adds once the household exists. The browser checks what it can;
// the API checks everything, and its sentence goes next to the field it names. One
// Idempotency-Key per visit, so a double submit (or a retry after a lost answer) creates one
// household. If a person cannot be added, the household is kept and only the people who are left
// can still be changed and sent again. Each person can be related to the people above it (spouse,
// child of, parent of…); those are sent with the person once the others exist.
import { useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { navigate } from '../router.ts'
import { can, useMe } from '../session.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { FormSummary } from '../components/fields.tsx'
import { useFormErrors } from '../households/form-errors.ts'
import {
  bodyOfDraft,
  createBodyOf,
  EMPTY_HOUSEHOLD_DRAFT,
  HOUSEHOLD_LABELS,
  HouseholdFields,
  type HouseholdDraft,
} from '../households/household-fields.tsx'
import {
  EMPTY_MEMBER_DRAFT,
  MEMBER_LABELS,
  memberCreateBody,
  MemberFields,
  parentOfDraft,
  takenRolesOf,
  type MemberDraft,
} from '../households/member-fields.tsx'
import { parentOfChanges, sendChildChanges } from '../households/kinship-writes.ts'
import type { Member } from '../../../schemas/member.ts'
import type { Household } from '../../../schemas/household.ts'

interface PersonRow {
  key: number
  draft: MemberDraft
  /** Set once the API added this person. */
  added?: Member
}

interface Created {
  id: string
  name: string
  etag: string | null
}

let rowKeys = 0

/** How a person row stands in for a member in the relationships of the rows below it. */
const rowId = (key: number) => `row-${key}`

/** The draft with its relationships to rows turned into relationships to the members those rows became. */
function withMemberIds(draft: MemberDraft, people: readonly PersonRow[]): MemberDraft {
  const ids = new Map(people.flatMap((row) => (row.added ? [[rowId(row.key), row.added.id] as const] : [])))
  const relationships = Object.fromEntries(
    Object.entries(draft.relationships).flatMap(([other, type]) => {
      const id = ids.get(other)
      return id === undefined ? [] : [[id, type]]
    }),
  )
  return { ...draft, relationships }
}

/** A random UUID v4; randomUUID needs a secure context, getRandomValues does not. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export function HouseholdNewPage() {
  const me = useMe()
  if (!can(me, 'relationships:write')) {
    return (
      <section>
        <PageHeading title="New household">New household</PageHeading>
        <p class="notice">
          Your role ({me.user.role}) cannot create households: it can look at them but not change them. Ask an admin of{' '}
          {me.org.name} if you need to.
        </p>
        <p>
          <a href="/households">Back to households</a>
        </p>
      </section>
    )
  }
  return <CreateHouseholdForm />
}

function CreateHouseholdForm() {
  const [draft, setDraft] = useState<HouseholdDraft>(EMPTY_HOUSEHOLD_DRAFT)
  const [people, setPeople] = useState<PersonRow[]>([])
  const [created, setCreated] = useState<Created | null>(null)
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const idempotencyKey = useRef(newIdempotencyKey())
  const form = useFormErrors()

  const labels: Record<string, string> = { ...HOUSEHOLD_LABELS }
  people.forEach((row, i) => {
    for (const [field, label] of Object.entries(MEMBER_LABELS))
      labels[`members.${i}.${field}`] = `${label} of person ${i + 1}`
  })

  const updateField = (field: keyof HouseholdDraft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }))
    form.clearField(field)
  }

  const addPerson = () => {
    const key = ++rowKeys
    setPeople((rows) => [
      ...rows,
      { key, draft: { ...EMPTY_MEMBER_DRAFT, role: rows.length === 0 ? 'primaryClient' : '' } },
    ])
    requestAnimationFrame(() => document.getElementById(`person-${key}-name`)?.focus())
  }
  const removePerson = (key: number) => {
    setPeople((rows) => rows.filter((row) => row.key !== key))
    form.clear()
    requestAnimationFrame(() => document.getElementById('add-person')?.focus())
  }

  async function submit(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element) return
    if (!form.checkNative(element)) return
    const checked = bodyOfDraft(draft)
    if (!checked.ok) {
      form.showProblem(element, new ApiProblem(400, 'invalid_body', checked.message, `/${checked.field}`), {
        [checked.field]: HOUSEHOLD_LABELS[checked.field],
      })
      return
    }
    setBusy(true)
    try {
      let household = created
      if (!household) {
        try {
          const { body, etag } = await api<{ household: Household }>('/api/v1/relationships', {
            method: 'POST',
            body: createBodyOf(checked.body),
            headers: { 'idempotency-key': idempotencyKey.current },
          })
          household = { id: body.household.id, name: body.household.name, etag }
        } catch (problem) {
          form.showProblem(element, problem, labels)
          return
        }
        setCreated(household)
      }
      // The people, in order, each under the household's current version.
      let etag = household.etag
      const done = [...people]
      for (const [i, row] of people.entries()) {
        if (row.added) continue
        try {
          const path = `/api/v1/relationships/${household.id}`
          if (!etag) etag = (await api<{ household: Household }>(path)).etag
          const draft = withMemberIds(row.draft, done)
          const answer = await api<{ member: Member }>(`${path}/members`, {
            method: 'POST',
            body: memberCreateBody(draft),
            headers: etag ? { 'if-match': etag } : {},
          })
          etag = answer.etag
          const member = answer.body.member
          done[i] = { ...row, added: member }
          setPeople((rows) => rows.map((r) => (r.key === row.key ? { ...r, added: member } : r)))
          const parentOf = parentOfDraft(draft)
          if (parentOf.size > 0) {
            // The children's relationships as they are now (the people added since may have set some).
            const members = (await api<{ members: Member[] }>(`${path}/members`)).body.members
            etag = await sendChildChanges(household.id, parentOfChanges(member.id, parentOf, members), etag)
          }
        } catch (problem) {
          // Read the version again before the next try: the failed request may have been a 412.
          etag = null
          household = { ...household, etag: null }
          setCreated(household)
          form.showProblem(element, problem, labels, `members.${i}.`)
          return
        }
      }
      navigate(`/households/${encodeURIComponent(household.id)}`)
    } finally {
      setBusy(false)
    }
  }

  const addedCount = people.filter((row) => row.added).length
  const left = people.length - addedCount

  return (
    <section class="household-new">
      <PageHeading title="New household">New household</PageHeading>
      <p>
        <a href="/households">Back to households</a>
      </p>
      {created && (
        <div class="notice success" role="status">
          <p>
            The household <strong>{created.name}</strong> was created
            {addedCount > 0 ? ` with ${addedCount} ${addedCount === 1 ? 'person' : 'people'}` : ''}.{' '}
            {left > 0
              ? `${left === 1 ? 'One person' : `${left} people`} could not be added yet: correct the details below and press “Add the remaining people”, or `
              : ''}
            <a href={`/households/${encodeURIComponent(created.id)}`}>open the household</a>.
          </p>
        </div>
      )}
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-busy={busy ? 'true' : 'false'}
        class="household-form"
      >
        <FormSummary message={form.summary} summaryRef={form.summaryRef} />
        <p class="hint">Only the household name is required. Everything else can be added or changed later.</p>
        <HouseholdFields
          idPrefix="new-household"
          draft={draft}
          errors={form.errors}
          disabled={created !== null}
          onChange={updateField}
        />

        <h2>People</h2>
        <p class="hint">
          Optional: the clients and their family, each with how they are related to the people above. You can also add
          them, and their relationships, on the household’s page.
        </p>
        {people.map((row, i) => (
          <fieldset key={row.key} class="person-row" disabled={row.added !== undefined}>
            <legend>
              Person {i + 1}
              {row.added ? ' (added)' : ''}
            </legend>
            <MemberFields
              idPrefix={`person-${row.key}`}
              namePrefix={`members.${i}.`}
              draft={row.draft}
              errors={form.errors}
              others={people.slice(0, i).map((other, j) => ({
                id: rowId(other.key),
                name: other.draft.name.trim() || `person ${j + 1}`,
                role: other.draft.role,
              }))}
              takenRoles={takenRolesOf(people.filter((other) => other.key !== row.key).map((other) => other.draft))}
              disabled={row.added !== undefined}
              onChange={(next) => {
                setPeople((rows) => rows.map((r) => (r.key === row.key ? { ...r, draft: next } : r)))
                for (const field of Object.keys(MEMBER_LABELS)) form.clearField(`members.${i}.${field}`)
              }}
            />
            {!row.added && (
              <button type="button" class="link" onClick={() => removePerson(row.key)}>
                Remove person {i + 1}
              </button>
            )}
          </fieldset>
        ))}
        <p>
          <button type="button" id="add-person" onClick={addPerson} disabled={busy}>
            Add a person
          </button>
        </p>

        <div class="form-actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : created ? 'Add the remaining people' : 'Create household'}
          </button>
          <a href={created ? `/households/${encodeURIComponent(created.id)}` : '/households'}>Cancel</a>
        </div>
      </form>
    </section>
  )
}
