// One entity's fields (a trust, business, charity, holding or party of the household): name, short
// name, kind, value with its date, estate side and notes. Inputs are named by the API's field
// names, so a refusal's pointer (/value) finds its input. A party (a corporate trustee) holds no
// value and sits in no estate: those inputs go away when a party kind is chosen.
import { Field } from '../components/fields.tsx'
import type { FieldErrors } from './form-errors.ts'
import { today } from './format.ts'
import { NAME_MAX } from './household-fields.tsx'
import {
  defaultEstateSide,
  ENTITY_KINDS,
  entityGroupOf,
  entityKindLabel,
  isParty,
  type EntityGroup,
  type EntityKind,
  type EstateSide,
} from '../../../domain/estate-vocabulary.ts'
import type { CreateEntityBody, Entity, UpdateEntityBody } from './estate-wire.ts'

export interface EntityDraft {
  name: string
  shortName: string
  kind: EntityKind | ''
  value: string
  valueAsOf: string
  /** '' = the kind's default. */
  estate: EstateSide | ''
  notes: string
}

export const EMPTY_ENTITY_DRAFT: EntityDraft = {
  name: '',
  shortName: '',
  kind: '',
  value: '',
  valueAsOf: '',
  estate: '',
  notes: '',
}

export const ENTITY_LABELS = {
  name: 'Name',
  shortName: 'Short name',
  kind: 'Kind',
  value: 'Value',
  valueAsOf: 'Value as of',
  estate: 'Estate',
  notes: 'Notes',
} as const

const SHORT_NAME_MAX = 40
const NOTES_MAX = 4000
const VALUE_MAX = 1e12

const GROUP_LABELS: Record<EntityGroup, string> = {
  trust: 'Trusts',
  business: 'Business entities',
  charity: 'Charities',
  holding: 'Holdings',
  party: 'Parties (hold no value)',
  other: 'Other',
}

/** The kinds by group, in the vocabulary's order, for the kind's <optgroup>s. */
const KINDS_BY_GROUP: [EntityGroup, EntityKind[]][] = (() => {
  const groups = new Map<EntityGroup, EntityKind[]>()
  for (const kind of ENTITY_KINDS) {
    const group = entityGroupOf(kind)
    groups.set(group, [...(groups.get(group) ?? []), kind])
  }
  return [...groups]
})()

export const ESTATE_WORDS: Record<EstateSide, string> = { in: 'In estate', out: 'Out of estate' }

export function entityDraftOf(entity: Entity): EntityDraft {
  return {
    name: entity.name,
    shortName: entity.shortName ?? '',
    kind: entity.kind,
    value: entity.value === null ? '' : String(entity.value),
    valueAsOf: entity.valueAsOf ?? '',
    estate: entity.estateSet && entity.estate !== null ? entity.estate : '',
    notes: entity.notes ?? '',
  }
}

const optional = (value: string): string | null => (value.trim() === '' ? null : value.trim())
const amount = (value: string): number | null => (value.trim() === '' ? null : Number(value))

/** The create body: the fields that are set (a party's value and estate are not sent). */
export function entityCreateBody(draft: EntityDraft): CreateEntityBody {
  const body: CreateEntityBody = { name: draft.name, kind: draft.kind as EntityKind }
  const party = draft.kind !== '' && isParty(draft.kind)
  if (optional(draft.shortName) !== null) body.shortName = optional(draft.shortName)
  if (!party && amount(draft.value) !== null) body.value = amount(draft.value)
  if (!party && optional(draft.valueAsOf) !== null) body.valueAsOf = optional(draft.valueAsOf)
  if (!party && draft.estate !== '') body.estate = draft.estate
  if (optional(draft.notes) !== null) body.notes = optional(draft.notes)
  return body
}

/** The merge patch from the entity as read: only what changed (null clears, estate null = the default). */
export function entityPatch(entity: Entity, draft: EntityDraft): UpdateEntityBody {
  const patch: UpdateEntityBody = {}
  const before = entityDraftOf(entity)
  if (draft.name !== before.name) patch.name = draft.name
  if (draft.kind !== before.kind && draft.kind !== '') patch.kind = draft.kind
  const party = draft.kind !== '' && isParty(draft.kind)
  if (draft.shortName.trim() !== before.shortName) patch.shortName = optional(draft.shortName)
  // Choosing a party clears what a party cannot hold.
  const value = party ? '' : draft.value
  const valueAsOf = party ? '' : draft.valueAsOf
  const estate = party ? '' : draft.estate
  if (amount(value) !== amount(before.value)) patch.value = amount(value)
  if (valueAsOf !== before.valueAsOf) patch.valueAsOf = optional(valueAsOf)
  if (estate !== before.estate) patch.estate = estate === '' ? null : estate
  if (draft.notes.trim() !== before.notes) patch.notes = optional(draft.notes)
  return patch
}

interface EntityFieldsProps {
  idPrefix: string
  draft: EntityDraft
  errors: FieldErrors
  onChange: (next: EntityDraft) => void
}

export function EntityFields({ idPrefix, draft, errors, onChange }: EntityFieldsProps) {
  const id = (field: string) => `${idPrefix}-${field}`
  const set = (field: keyof EntityDraft) => (event: { currentTarget: { value: string } }) =>
    onChange({ ...draft, [field]: event.currentTarget.value })
  const party = draft.kind !== '' && isParty(draft.kind)
  const fallback = draft.kind === '' ? null : defaultEstateSide(draft.kind)

  return (
    <>
      <div class="field-row">
        <Field id={id('name')} label={ENTITY_LABELS.name} error={errors.name} class="grow">
          {(a11y) => (
            <input
              {...a11y}
              name="name"
              type="text"
              required
              maxLength={NAME_MAX}
              autocomplete="off"
              value={draft.name}
              onInput={set('name')}
            />
          )}
        </Field>
        <Field
          id={id('shortName')}
          label={ENTITY_LABELS.shortName}
          hint="What the chart's labels show, e.g. SLAT-C."
          error={errors.shortName}
        >
          {(a11y) => (
            <input
              {...a11y}
              name="shortName"
              type="text"
              maxLength={SHORT_NAME_MAX}
              autocomplete="off"
              value={draft.shortName}
              onInput={set('shortName')}
            />
          )}
        </Field>
        <Field id={id('kind')} label={ENTITY_LABELS.kind} error={errors.kind}>
          {(a11y) => (
            <select {...a11y} name="kind" required value={draft.kind} onChange={set('kind')}>
              <option value="">Choose a kind</option>
              {KINDS_BY_GROUP.map(([group, kinds]) => (
                <optgroup key={group} label={GROUP_LABELS[group]}>
                  {kinds.map((kind) => (
                    <option key={kind} value={kind}>
                      {entityKindLabel(kind)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
      </div>
      {party ? (
        <p class="hint">A party (a corporate trustee, an attorney’s firm) holds no value and is in no estate.</p>
      ) : (
        <div class="field-row">
          <Field id={id('value')} label={ENTITY_LABELS.value} error={errors.value}>
            {(a11y) => (
              <input
                {...a11y}
                name="value"
                type="number"
                min="0"
                max={VALUE_MAX}
                step="0.01"
                inputMode="decimal"
                value={draft.value}
                onInput={set('value')}
              />
            )}
          </Field>
          <Field id={id('valueAsOf')} label={ENTITY_LABELS.valueAsOf} error={errors.valueAsOf}>
            {(a11y) => (
              <input
                {...a11y}
                name="valueAsOf"
                type="date"
                min="1800-01-01"
                max={today()}
                value={draft.valueAsOf}
                onInput={set('valueAsOf')}
              />
            )}
          </Field>
          <Field id={id('estate')} label={ENTITY_LABELS.estate} error={errors.estate}>
            {(a11y) => (
              <select {...a11y} name="estate" value={draft.estate} onChange={set('estate')}>
                <option value="">
                  {fallback ? `The kind’s default (${ESTATE_WORDS[fallback].toLowerCase()})` : 'The kind’s default'}
                </option>
                <option value="in">{ESTATE_WORDS.in}</option>
                <option value="out">{ESTATE_WORDS.out}</option>
              </select>
            )}
          </Field>
        </div>
      )}
      <Field id={id('notes')} label={ENTITY_LABELS.notes} error={errors.notes}>
        {(a11y) => (
          <textarea {...a11y} name="notes" rows={2} maxLength={NOTES_MAX} value={draft.notes} onInput={set('notes')} />
        )}
      </Field>
    </>
  )
}
