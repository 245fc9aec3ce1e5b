// One member's fields (name, role, dates, email) and their relationships to the household's other
// members. A member's own relationships are its spouses, partners, former spouses and its
// parents; a link to one of its children belongs to the child (the API's rule), so it is shown
// here as text with a pointer to the child's row.
import { Field } from '../components/fields.tsx'
import type { FieldErrors } from './form-errors.ts'
import { MEMBER_ROLE_LABELS, today } from './format.ts'
import { NAME_MAX } from './household-fields.tsx'
import { MEMBER_ROLES } from '../../../domain/household-roles.ts'
import type { CreateMemberBody, Member, MemberRelationship, MemberRole, RelationshipType, UpdateMemberBody } from '../../../schemas/member.ts'

export interface MemberDraft {
  name: string
  role: MemberRole | ''
  birthDate: string
  deathDate: string
  email: string
  /** Other member id → this member's relationship to them ('' = none). */
  relationships: Record<string, RelationshipType | ''>
}

export const EMPTY_MEMBER_DRAFT: MemberDraft = { name: '', role: '', birthDate: '', deathDate: '', email: '', relationships: {} }

export const MEMBER_LABELS = {
  name: 'Name',
  role: 'Role',
  birthDate: 'Date of birth',
  deathDate: 'Date of death',
  email: 'Email',
  relationships: 'Relationships',
} as const

const EMAIL_MAX = 254
const SINGLE_ROLES: ReadonlySet<MemberRole> = new Set(['primaryClient', 'coClient'])

export function memberDraftOf(member: Member): MemberDraft {
  return {
    name: member.name,
    role: member.role,
    birthDate: member.birthDate ?? '',
    deathDate: member.deathDate ?? '',
    email: member.email ?? '',
    relationships: Object.fromEntries(member.relationships.map((r) => [r.memberId, r.type])),
  }
}

function relationshipsOf(draft: MemberDraft): MemberRelationship[] {
  return Object.entries(draft.relationships)
    .filter((entry): entry is [string, RelationshipType] => entry[1] !== '')
    .map(([memberId, type]) => ({ memberId, type }))
}

/** The create body: fields that are set. */
export function memberCreateBody(draft: MemberDraft): CreateMemberBody {
  const body: CreateMemberBody = { name: draft.name, role: draft.role as MemberRole }
  if (draft.birthDate) body.birthDate = draft.birthDate
  if (draft.deathDate) body.deathDate = draft.deathDate
  if (draft.email.trim()) body.email = draft.email.trim()
  const relationships = relationshipsOf(draft)
  if (relationships.length) body.relationships = relationships
  return body
}

/** The merge patch from the member as read: only what changed (null clears). */
export function memberPatch(member: Member, draft: MemberDraft): UpdateMemberBody {
  const patch: UpdateMemberBody = {}
  if (draft.name !== member.name) patch.name = draft.name
  if (draft.role !== member.role && draft.role !== '') patch.role = draft.role
  const optional = (value: string) => (value.trim() === '' ? null : value.trim())
  if (optional(draft.birthDate) !== member.birthDate) patch.birthDate = optional(draft.birthDate)
  if (optional(draft.deathDate) !== member.deathDate) patch.deathDate = optional(draft.deathDate)
  if (optional(draft.email) !== member.email) patch.email = optional(draft.email)
  const key = (list: MemberRelationship[]) => list.map((r) => `${r.memberId}:${r.type}`).sort().join(',')
  const relationships = relationshipsOf(draft)
  if (key(relationships) !== key(member.relationships)) patch.relationships = relationships
  return patch
}

/** Who holds the roles a household has one of (primary client, co-client). */
export function takenRolesOf(members: ReadonlyArray<{ role: MemberRole | ''; name: string }>): Map<MemberRole, string> {
  const taken = new Map<MemberRole, string>()
  for (const member of members) if (member.role !== '' && SINGLE_ROLES.has(member.role)) taken.set(member.role, member.name.trim() || 'another person')
  return taken
}

interface MemberFieldsProps {
  idPrefix: string
  /** Prepended to input names ("members.0."), so that errors find their inputs. */
  namePrefix?: string
  draft: MemberDraft
  errors: FieldErrors
  /** The household's other members (for relationships and for roles already taken). */
  others: readonly Member[]
  /** The member being edited, if any: its children are the others that list it as a parent. */
  memberId?: string
  /** Roles only one member can have, already held (role → holder's name); default: from others. */
  takenRoles?: ReadonlyMap<MemberRole, string>
  disabled?: boolean
  onChange: (next: MemberDraft) => void
}

export function MemberFields({ idPrefix, namePrefix = '', draft, errors, others, memberId, takenRoles: taken, disabled, onChange }: MemberFieldsProps) {
  const id = (field: string) => `${idPrefix}-${field}`
  const name = (field: string) => `${namePrefix}${field}`
  const error = (field: string) => errors[name(field)]
  const set = (field: Exclude<keyof MemberDraft, 'relationships'>) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...draft, [field]: event.currentTarget.value })
  const latestDate = today()
  const takenRoles = taken ?? takenRolesOf(others)
  const childrenIds = new Set(memberId ? others.filter((m) => m.relationships.some((r) => r.memberId === memberId && r.type === 'parent')).map((m) => m.id) : [])

  return (
    <>
      <div class="field-row">
        <Field id={id('name')} label={MEMBER_LABELS.name} error={error('name')} class="grow">
          {(a11y) => (
            <input {...a11y} name={name('name')} type="text" required maxLength={NAME_MAX} autocomplete="off" value={draft.name} disabled={disabled} onInput={set('name')} />
          )}
        </Field>
        <Field id={id('role')} label={MEMBER_LABELS.role} error={error('role')}>
          {(a11y) => (
            <select {...a11y} name={name('role')} required value={draft.role} disabled={disabled} onChange={set('role')}>
              <option value="">Choose a role</option>
              {MEMBER_ROLES.map((role) => {
                const holder = takenRoles.get(role)
                return (
                  <option key={role} value={role} disabled={holder !== undefined && draft.role !== role}>
                    {MEMBER_ROLE_LABELS[role]}
                    {holder !== undefined && draft.role !== role ? ` (already ${holder})` : ''}
                  </option>
                )
              })}
            </select>
          )}
        </Field>
      </div>
      <div class="field-row">
        <Field id={id('birthDate')} label={MEMBER_LABELS.birthDate} error={error('birthDate')}>
          {(a11y) => <input {...a11y} name={name('birthDate')} type="date" min="1800-01-01" max={latestDate} value={draft.birthDate} disabled={disabled} onInput={set('birthDate')} />}
        </Field>
        <Field id={id('deathDate')} label={MEMBER_LABELS.deathDate} hint="Only for a person who has died." error={error('deathDate')}>
          {(a11y) => (
            <input {...a11y} name={name('deathDate')} type="date" min={draft.birthDate || '1800-01-01'} max={latestDate} value={draft.deathDate} disabled={disabled} onInput={set('deathDate')} />
          )}
        </Field>
        <Field id={id('email')} label={MEMBER_LABELS.email} error={error('email')} class="grow">
          {(a11y) => (
            <input {...a11y} name={name('email')} type="email" maxLength={EMAIL_MAX} autocomplete="off" value={draft.email} disabled={disabled} onInput={set('email')} />
          )}
        </Field>
      </div>
      {others.length > 0 && (
        <fieldset
          class="relationships"
          // Named (and focusable) so that an API error about relationships finds this group.
          name={name('relationships')}
          tabIndex={-1}
          disabled={disabled}
          aria-invalid={error('relationships') ? 'true' : undefined}
          aria-describedby={error('relationships') ? id('relationships-error') : undefined}
        >
          <legend>{MEMBER_LABELS.relationships}</legend>
          {others.map((other) =>
            childrenIds.has(other.id) ? (
              <p key={other.id} class="relationship-fixed">
                Parent of <strong>{other.name}</strong> <span class="hint">(change it with {other.name}’s relationships)</span>
              </p>
            ) : (
              <div class="field relationship-field" key={other.id}>
                <label for={id(`rel-${other.id}`)}>
                  Relationship to <span class="member-name">{other.name}</span>
                </label>
                <select
                  id={id(`rel-${other.id}`)}
                  value={draft.relationships[other.id] ?? ''}
                  onChange={(event) =>
                    onChange({ ...draft, relationships: { ...draft.relationships, [other.id]: event.currentTarget.value as RelationshipType | '' } })
                  }
                >
                  <option value="">None</option>
                  <option value="spouse">Spouse</option>
                  <option value="partner">Partner</option>
                  <option value="exSpouse">Former spouse</option>
                  <option value="parent">Child (of {other.name})</option>
                </select>
              </div>
            ),
          )}
          {error('relationships') && (
            <p class="field-error" id={id('relationships-error')}>
              {error('relationships')}
            </p>
          )}
        </fieldset>
      )}
    </>
  )
}
