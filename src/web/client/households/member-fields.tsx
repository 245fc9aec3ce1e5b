// One member's fields (name, role, dates, email) and their relationships to the household's other
// members, from either side: spouse, partner, former spouse, child of, and parent of. The API keeps
// a parent link on the child, so "parent of" is sent as a change of the child's relationships
// (kinship-writes.ts); the others are this member's own.
import { Field } from '../components/fields.tsx'
import type { FieldErrors } from './form-errors.ts'
import { MEMBER_ROLE_LABELS, today } from './format.ts'
import { NAME_MAX } from './household-fields.tsx'
import { MEMBER_ROLES, ONE_PER_HOUSEHOLD_ROLES } from '../../../domain/household-roles.ts'
import { childrenOf, kinshipsToSend } from './kinship-writes.ts'
import type {
  CreateMemberBody,
  Member,
  Kinship,
  MemberRole,
  KinshipType,
  UpdateMemberBody,
} from '../../../schemas/member.ts'

export interface MemberDraft {
  name: string
  role: MemberRole | ''
  birthDate: string
  deathDate: string
  email: string
  /** Other member id → this member's relationship to them ('' = none; parentOf: this member is their parent). */
  relationships: Record<string, DraftKinship>
}

export type DraftKinship = KinshipType | 'parentOf' | ''

/** What MemberFields needs of the other members. */
export interface OtherMember {
  id: string
  name: string
  role: MemberRole | ''
}

export const EMPTY_MEMBER_DRAFT: MemberDraft = {
  name: '',
  role: '',
  birthDate: '',
  deathDate: '',
  email: '',
  relationships: {},
}

export const MEMBER_LABELS = {
  name: 'Name',
  role: 'Role',
  birthDate: 'Date of birth',
  deathDate: 'Date of death',
  email: 'Email',
  relationships: 'Relationships',
} as const

const EMAIL_MAX = 254

/** The member as a draft; `members` (the household's) tell whose parent it is. */
export function memberDraftOf(member: Member, members: readonly Member[]): MemberDraft {
  const parentOf = [...childrenOf(member.id, members)].map((id): [string, DraftKinship] => [id, 'parentOf'])
  return {
    name: member.name,
    role: member.role,
    birthDate: member.birthDate ?? '',
    deathDate: member.deathDate ?? '',
    email: member.email ?? '',
    relationships: Object.fromEntries([
      ...parentOf,
      ...member.relationships.map((r): [string, DraftKinship] => [r.memberId, r.type]),
    ]),
  }
}

/** The members this member is to be the parent of. */
export function parentOfDraft(draft: MemberDraft): Set<string> {
  return new Set(
    Object.entries(draft.relationships)
      .filter((entry) => entry[1] === 'parentOf')
      .map(([memberId]) => memberId),
  )
}

/** This member's own relationships; an unchanged one keeps what else was stated about it (its dates, its kind). */
function relationshipsOf(draft: MemberDraft, member?: Member): Kinship[] {
  const before = new Map(kinshipsToSend(member?.relationships ?? []).map((r) => [r.memberId, r]))
  return Object.entries(draft.relationships)
    .filter((entry): entry is [string, KinshipType] => entry[1] !== '' && entry[1] !== 'parentOf')
    .map(([memberId, type]) => {
      const kept = before.get(memberId)
      return kept?.type === type ? kept : { memberId, type }
    })
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
  const key = (list: Kinship[]) =>
    list
      .map((r) => `${r.memberId}:${r.type}`)
      .sort()
      .join(',')
  const relationships = relationshipsOf(draft, member)
  if (key(relationships) !== key(member.relationships)) patch.relationships = relationships
  return patch
}

/** Who holds the roles a household has one of (primary client, co-client). */
export function takenRolesOf(members: readonly Pick<OtherMember, 'role' | 'name'>[]): Map<MemberRole, string> {
  const taken = new Map<MemberRole, string>()
  for (const member of members)
    if (member.role !== '' && ONE_PER_HOUSEHOLD_ROLES.has(member.role))
      taken.set(member.role, member.name.trim() || 'another person')
  return taken
}

interface MemberFieldsProps {
  idPrefix: string
  /** Prepended to input names ("members.0."), so that errors find their inputs. */
  namePrefix?: string
  draft: MemberDraft
  errors: FieldErrors
  /** The household's other members (for relationships and for roles already taken). */
  others: readonly OtherMember[]
  /** Roles only one member can have, already held (role → holder's name); default: from others. */
  takenRoles?: ReadonlyMap<MemberRole, string>
  disabled?: boolean
  onChange: (next: MemberDraft) => void
}

export function MemberFields({
  idPrefix,
  namePrefix = '',
  draft,
  errors,
  others,
  takenRoles: taken,
  disabled,
  onChange,
}: MemberFieldsProps) {
  const id = (field: string) => `${idPrefix}-${field}`
  const name = (field: string) => `${namePrefix}${field}`
  const error = (field: string) => errors[name(field)]
  const set = (field: Exclude<keyof MemberDraft, 'relationships'>) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...draft, [field]: event.currentTarget.value })
  const latestDate = today()
  const takenRoles = taken ?? takenRolesOf(others)

  return (
    <>
      <div class="field-row">
        <Field id={id('name')} label={MEMBER_LABELS.name} error={error('name')} class="grow">
          {(a11y) => (
            <input
              {...a11y}
              name={name('name')}
              type="text"
              required
              maxLength={NAME_MAX}
              autocomplete="off"
              value={draft.name}
              disabled={disabled}
              onInput={set('name')}
            />
          )}
        </Field>
        <Field id={id('role')} label={MEMBER_LABELS.role} error={error('role')}>
          {(a11y) => (
            <select
              {...a11y}
              name={name('role')}
              required
              value={draft.role}
              disabled={disabled}
              onChange={set('role')}
            >
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
          {(a11y) => (
            <input
              {...a11y}
              name={name('birthDate')}
              type="date"
              min="1800-01-01"
              max={latestDate}
              value={draft.birthDate}
              disabled={disabled}
              onInput={set('birthDate')}
            />
          )}
        </Field>
        <Field
          id={id('deathDate')}
          label={MEMBER_LABELS.deathDate}
          hint="Only for a person who has died."
          error={error('deathDate')}
        >
          {(a11y) => (
            <input
              {...a11y}
              name={name('deathDate')}
              type="date"
              min={draft.birthDate || '1800-01-01'}
              max={latestDate}
              value={draft.deathDate}
              disabled={disabled}
              onInput={set('deathDate')}
            />
          )}
        </Field>
        <Field id={id('email')} label={MEMBER_LABELS.email} error={error('email')} class="grow">
          {(a11y) => (
            <input
              {...a11y}
              name={name('email')}
              type="email"
              maxLength={EMAIL_MAX}
              autocomplete="off"
              value={draft.email}
              disabled={disabled}
              onInput={set('email')}
            />
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
          {others.map((other) => (
            <div class="field relationship-field" key={other.id}>
              <label for={id(`rel-${other.id}`)}>
                Relationship to <span class="member-name">{other.name}</span>
              </label>
              <select
                id={id(`rel-${other.id}`)}
                value={draft.relationships[other.id] ?? ''}
                onChange={(event) =>
                  onChange({
                    ...draft,
                    relationships: {
                      ...draft.relationships,
                      [other.id]: event.currentTarget.value as DraftKinship,
                    },
                  })
                }
              >
                <option value="">None</option>
                <option value="spouse">Spouse</option>
                <option value="partner">Partner</option>
                <option value="exSpouse">Former spouse</option>
                <option value="parent">Child (of {other.name})</option>
                <option value="parentOf">Parent (of {other.name})</option>
              </select>
            </div>
          ))}
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
