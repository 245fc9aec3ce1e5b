// A link's fields (who holds what in one entity): who (a member or another entity of the
// household), the role, and for some roles a share and a beneficiary type. The roles offered are
// the ones that fit the entity's kind; the API checks everything again (shares summing to at most
// 100, no ownership cycle) and its sentence goes next to the field it names.
import { Field } from '../components/fields.tsx'
import type { FieldErrors } from './form-errors.ts'
import {
  BENEFICIARY_TYPES,
  entityGroupOf,
  entityKindLabel,
  isParty,
  LINK_TYPES,
  SHARED_LINK_TYPES,
  type BeneficiaryType,
  type EntityKind,
  type LinkType,
} from '../../../domain/estate-vocabulary.ts'
import type { CreateLinkBody, Entity } from './estate-wire.ts'
import type { Member } from '../../../schemas/member.ts'

export const LINK_TYPE_LABELS: Record<LinkType, string> = {
  grantor: 'Grantor',
  trustee: 'Trustee',
  successorTrustee: 'Successor trustee',
  beneficiary: 'Beneficiary',
  owner: 'Owner',
  insured: 'Insured',
  generalPartner: 'General partner',
  limitedPartner: 'Limited partner',
}

export const BENEFICIARY_TYPE_LABELS: Record<BeneficiaryType, string> = {
  primary: 'Primary',
  contingent: 'Contingent',
  income: 'Income',
  remainder: 'Remainder',
}

export const LINK_LABELS = {
  from: 'Who',
  type: 'Role',
  share: 'Share (%)',
  beneficiaryType: 'Beneficiary type',
} as const

/** The roles a member or entity can hold in an entity of this kind (the API's link_kind_mismatch and link_party_owned). */
export function linkTypesFor(kind: EntityKind): LinkType[] {
  if (kind === 'other') return [...LINK_TYPES]
  if (isParty(kind)) return []
  const group = entityGroupOf(kind)
  return LINK_TYPES.filter((type) => {
    if (type === 'grantor' || type === 'trustee' || type === 'successorTrustee')
      return group === 'trust' || group === 'charity'
    if (type === 'insured') return kind === 'lifeInsurance'
    if (type === 'generalPartner' || type === 'limitedPartner')
      return kind === 'flp' || kind === 'llc' || kind === 'corporation'
    return true
  })
}

export interface LinkDraft {
  from: string
  type: LinkType | ''
  share: string
  beneficiaryType: BeneficiaryType
}

export const EMPTY_LINK_DRAFT: LinkDraft = { from: '', type: '', share: '', beneficiaryType: 'primary' }

export function linkCreateBody(to: string, draft: LinkDraft): CreateLinkBody {
  const type = draft.type as LinkType
  const body: CreateLinkBody = { from: draft.from, to, type }
  if (SHARED_LINK_TYPES.has(type) && draft.share.trim() !== '') body.share = Number(draft.share)
  if (type === 'beneficiary') body.beneficiaryType = draft.beneficiaryType
  return body
}

interface LinkFieldsProps {
  idPrefix: string
  entity: Entity
  draft: LinkDraft
  errors: FieldErrors
  members: readonly Member[]
  entities: readonly Entity[]
  onChange: (next: LinkDraft) => void
}

export function LinkFields({ idPrefix, entity, draft, errors, members, entities, onChange }: LinkFieldsProps) {
  const id = (field: string) => `${idPrefix}-${field}`
  const set = (field: keyof LinkDraft) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...draft, [field]: event.currentTarget.value })
  const others = entities.filter((other) => other.id !== entity.id)
  const shared = draft.type !== '' && SHARED_LINK_TYPES.has(draft.type)

  return (
    <div class="field-row">
      <Field id={id('from')} label={LINK_LABELS.from} error={errors.from} class="grow">
        {(a11y) => (
          <select {...a11y} name="from" required value={draft.from} onChange={set('from')}>
            <option value="">Choose a person or an entity</option>
            {members.length > 0 && (
              <optgroup label="People">
                {members.map((member) => (
                  <option key={member.id} value={member.id}>
                    {member.name}
                  </option>
                ))}
              </optgroup>
            )}
            {others.length > 0 && (
              <optgroup label="Entities">
                {others.map((other) => (
                  <option key={other.id} value={other.id}>
                    {other.name} ({entityKindLabel(other.kind)})
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        )}
      </Field>
      <Field id={id('type')} label={LINK_LABELS.type} error={errors.type}>
        {(a11y) => (
          <select {...a11y} name="type" required value={draft.type} onChange={set('type')}>
            <option value="">Choose a role</option>
            {linkTypesFor(entity.kind).map((type) => (
              <option key={type} value={type}>
                {LINK_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {shared && (
        <Field
          id={id('share')}
          label={LINK_LABELS.share}
          hint="Optional; more than 0, at most 100."
          error={errors.share}
        >
          {(a11y) => (
            <input
              {...a11y}
              name="share"
              type="number"
              min="0.0001"
              max="100"
              step="0.0001"
              inputMode="decimal"
              value={draft.share}
              onInput={set('share')}
            />
          )}
        </Field>
      )}
      {draft.type === 'beneficiary' && (
        <Field id={id('beneficiaryType')} label={LINK_LABELS.beneficiaryType} error={errors.beneficiaryType}>
          {(a11y) => (
            <select {...a11y} name="beneficiaryType" value={draft.beneficiaryType} onChange={set('beneficiaryType')}>
              {BENEFICIARY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {BENEFICIARY_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </div>
  )
}
