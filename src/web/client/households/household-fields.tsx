// The household's own fields (every field of the create body), as one fieldset shared by the
// create page and the edit form. Inputs are named by their API field names, so an API error's
// field ("/dsueReceived") finds its input. The browser checks what it can (required, lengths,
// dates not in the future, cents); the API checks everything again and has the last word.
import { Field, YesNoSelect } from '../components/fields.tsx'
import type { FieldErrors } from './form-errors.ts'
import { today } from './format.ts'
import type { CreateHouseholdBody, Household, UpdateHouseholdBody } from '../../../schemas/household.ts'

export type YesNo = '' | 'yes' | 'no'
export type Portability = '' | 'yes' | 'no' | 'unknown'

export interface HouseholdDraft {
  name: string
  deceasedSpouseName: string
  dsueReceived: string
  dsueDateOfDeath: string
  primaryClientAsDonor: YesNo
  coClientAsDonor: YesNo
  currency: string
  portabilityElected: Portability
  primaryClientLifetimeGifts: string
  coClientLifetimeGifts: string
  primaryClientExemptionUsed: string
  coClientExemptionUsed: string
  primaryClientUsCitizen: YesNo
  coClientUsCitizen: YesNo
  externalId: string
  metadata: string
}

/** The estate settings' amounts: typed as numbers, sent as numbers (null when empty). */
const ESTATE_AMOUNTS = [
  'primaryClientLifetimeGifts',
  'coClientLifetimeGifts',
  'primaryClientExemptionUsed',
  'coClientExemptionUsed',
] as const

export const EMPTY_HOUSEHOLD_DRAFT: HouseholdDraft = {
  name: '',
  deceasedSpouseName: '',
  dsueReceived: '',
  dsueDateOfDeath: '',
  primaryClientAsDonor: '',
  coClientAsDonor: '',
  currency: 'USD',
  portabilityElected: '',
  primaryClientLifetimeGifts: '',
  coClientLifetimeGifts: '',
  primaryClientExemptionUsed: '',
  coClientExemptionUsed: '',
  primaryClientUsCitizen: '',
  coClientUsCitizen: '',
  externalId: '',
  metadata: '',
}

export const HOUSEHOLD_LABELS: Record<keyof HouseholdDraft, string> = {
  name: 'Household name',
  deceasedSpouseName: 'Deceased spouse’s name',
  dsueReceived: 'DSUE amount received',
  dsueDateOfDeath: 'Deceased spouse’s date of death',
  primaryClientAsDonor: 'Primary client as donor',
  coClientAsDonor: 'Co-client as donor',
  currency: 'Currency',
  portabilityElected: 'Portability elected',
  primaryClientLifetimeGifts: 'Primary client’s lifetime taxable gifts',
  coClientLifetimeGifts: 'Co-client’s lifetime taxable gifts',
  primaryClientExemptionUsed: 'Primary client’s exemption used',
  coClientExemptionUsed: 'Co-client’s exemption used',
  primaryClientUsCitizen: 'Primary client is a US citizen',
  coClientUsCitizen: 'Co-client is a US citizen',
  externalId: 'External id',
  metadata: 'Metadata (JSON)',
}

export const NAME_MAX = 200
const AMOUNT_MAX = 1e12

const yesNoOf = (value: boolean | null): YesNo => (value === null ? '' : value ? 'yes' : 'no')
const booleanOf = (value: YesNo): boolean | null => (value === '' ? null : value === 'yes')
const amountText = (value: number | null): string => (value === null ? '' : String(value))
const amountOf = (value: string): number | null => (value.trim() === '' ? null : Number(value))

export function draftOf(household: Household): HouseholdDraft {
  return {
    name: household.name,
    deceasedSpouseName: household.deceasedSpouseName ?? '',
    dsueReceived: amountText(household.dsueReceived),
    dsueDateOfDeath: household.dsueDateOfDeath ?? '',
    primaryClientAsDonor: yesNoOf(household.primaryClientAsDonor),
    coClientAsDonor: yesNoOf(household.coClientAsDonor),
    currency: household.currency ?? 'USD',
    portabilityElected: household.portabilityElected ?? '',
    primaryClientLifetimeGifts: amountText(household.primaryClientLifetimeGifts),
    coClientLifetimeGifts: amountText(household.coClientLifetimeGifts),
    primaryClientExemptionUsed: amountText(household.primaryClientExemptionUsed),
    coClientExemptionUsed: amountText(household.coClientExemptionUsed),
    primaryClientUsCitizen: yesNoOf(household.primaryClientUsCitizen),
    coClientUsCitizen: yesNoOf(household.coClientUsCitizen),
    externalId: household.externalId ?? '',
    metadata: household.metadata === null ? '' : JSON.stringify(household.metadata, null, 2),
  }
}

export type DraftResult =
  { ok: true; body: Required<UpdateHouseholdBody> } | { ok: false; field: keyof HouseholdDraft; message: string }

/** Every field as the API takes it (null: not set). Only metadata can be refused here: it must parse. */
export function bodyOfDraft(draft: HouseholdDraft): DraftResult {
  let metadata: Record<string, unknown> | null = null
  if (draft.metadata.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(draft.metadata)
    } catch {
      return {
        ok: false,
        field: 'metadata',
        message: 'Metadata is not valid JSON. Write an object such as {"source": "CRM"}, or leave it empty.',
      }
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return {
        ok: false,
        field: 'metadata',
        message: 'Metadata must be a JSON object, such as {"source": "CRM"}, or empty.',
      }
    }
    metadata = parsed as Record<string, unknown>
  }
  const text = (value: string) => (value.trim() === '' ? null : value)
  return {
    ok: true,
    body: {
      // Sent as typed: the API trims it and refuses a blank one, which then shows at the field.
      name: draft.name,
      deceasedSpouseName: text(draft.deceasedSpouseName),
      dsueReceived: amountOf(draft.dsueReceived),
      dsueDateOfDeath: text(draft.dsueDateOfDeath),
      metadata,
      primaryClientAsDonor: booleanOf(draft.primaryClientAsDonor),
      coClientAsDonor: booleanOf(draft.coClientAsDonor),
      // Sent as typed (upper-cased): an empty one is null, which the API refuses at the field with what to send.
      currency: text(draft.currency.trim().toUpperCase()),
      portabilityElected: draft.portabilityElected === '' ? null : draft.portabilityElected,
      primaryClientLifetimeGifts: amountOf(draft.primaryClientLifetimeGifts),
      coClientLifetimeGifts: amountOf(draft.coClientLifetimeGifts),
      primaryClientExemptionUsed: amountOf(draft.primaryClientExemptionUsed),
      coClientExemptionUsed: amountOf(draft.coClientExemptionUsed),
      primaryClientUsCitizen: booleanOf(draft.primaryClientUsCitizen),
      coClientUsCitizen: booleanOf(draft.coClientUsCitizen),
      // Sent as typed: the API refuses one outside its rule (or taken in the organization) at the field.
      externalId: text(draft.externalId.trim()),
    },
  }
}

/** The create body: the fields that are set. */
export function createBodyOf(body: Required<UpdateHouseholdBody>): CreateHouseholdBody {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) as CreateHouseholdBody
}

/** The merge patch from the household as read to the edited fields: only what changed (null clears). */
export function patchOf(household: Household, body: Required<UpdateHouseholdBody>): UpdateHouseholdBody {
  const patch: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body) as [keyof UpdateHouseholdBody, unknown][]) {
    const before = household[key]
    if (JSON.stringify(before ?? null) !== JSON.stringify(value ?? null)) patch[key] = value
  }
  return patch
}

interface HouseholdFieldsProps {
  idPrefix: string
  draft: HouseholdDraft
  errors: FieldErrors
  disabled?: boolean
  onChange: (field: keyof HouseholdDraft, value: string) => void
}

export function HouseholdFields({ idPrefix, draft, errors, disabled, onChange }: HouseholdFieldsProps) {
  const id = (field: string) => `${idPrefix}-${field}`
  const input = (field: keyof HouseholdDraft) => (event: { currentTarget: { value: string } }) =>
    onChange(field, event.currentTarget.value)
  const latestDate = today()
  return (
    <>
      <Field
        id={id('name')}
        label={HOUSEHOLD_LABELS.name}
        hint="Usually the family’s name, e.g. “Chen Family”."
        error={errors.name}
      >
        {(a11y) => (
          <input
            {...a11y}
            name="name"
            type="text"
            required
            maxLength={NAME_MAX}
            autocomplete="off"
            value={draft.name}
            disabled={disabled}
            onInput={input('name')}
          />
        )}
      </Field>
      <fieldset disabled={disabled}>
        <legend>Deceased spouse and DSUE</legend>
        <p class="hint">Only when a client’s spouse has died: the deceased spousal unused exclusion (DSUE) received.</p>
        <Field
          id={id('deceasedSpouseName')}
          label={HOUSEHOLD_LABELS.deceasedSpouseName}
          error={errors.deceasedSpouseName}
        >
          {(a11y) => (
            <input
              {...a11y}
              name="deceasedSpouseName"
              type="text"
              maxLength={NAME_MAX}
              autocomplete="off"
              value={draft.deceasedSpouseName}
              onInput={input('deceasedSpouseName')}
            />
          )}
        </Field>
        <Field id={id('dsueDateOfDeath')} label={HOUSEHOLD_LABELS.dsueDateOfDeath} error={errors.dsueDateOfDeath}>
          {(a11y) => (
            <input
              {...a11y}
              name="dsueDateOfDeath"
              type="date"
              min="1800-01-01"
              max={latestDate}
              value={draft.dsueDateOfDeath}
              onInput={input('dsueDateOfDeath')}
            />
          )}
        </Field>
        <Field
          id={id('dsueReceived')}
          label={HOUSEHOLD_LABELS.dsueReceived}
          hint="In the household’s currency, with at most 2 decimals."
          error={errors.dsueReceived}
        >
          {(a11y) => (
            <input
              {...a11y}
              name="dsueReceived"
              type="number"
              inputMode="decimal"
              min="0"
              max={String(AMOUNT_MAX)}
              step="0.01"
              value={draft.dsueReceived}
              onInput={input('dsueReceived')}
            />
          )}
        </Field>
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>Gifting</legend>
        <div class="field-row">
          <Field
            id={id('primaryClientAsDonor')}
            label={HOUSEHOLD_LABELS.primaryClientAsDonor}
            error={errors.primaryClientAsDonor}
          >
            {(a11y) => (
              <YesNoSelect
                a11y={a11y}
                name="primaryClientAsDonor"
                value={draft.primaryClientAsDonor}
                onChange={(v) => onChange('primaryClientAsDonor', v)}
              />
            )}
          </Field>
          <Field id={id('coClientAsDonor')} label={HOUSEHOLD_LABELS.coClientAsDonor} error={errors.coClientAsDonor}>
            {(a11y) => (
              <YesNoSelect
                a11y={a11y}
                name="coClientAsDonor"
                value={draft.coClientAsDonor}
                onChange={(v) => onChange('coClientAsDonor', v)}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>Estate settings</legend>
        <p class="hint">
          Facts the chart’s estate projection reads. Hearth stores them as entered and computes nothing from them.
        </p>
        <div class="field-row">
          <Field
            id={id('currency')}
            label={HOUSEHOLD_LABELS.currency}
            hint="An ISO 4217 code, e.g. USD or EUR: the currency of every amount of this household."
            error={errors.currency}
          >
            {(a11y) => (
              <input
                {...a11y}
                name="currency"
                type="text"
                required
                minLength={3}
                maxLength={3}
                pattern="[A-Za-z]{3}"
                autocomplete="off"
                spellcheck={false}
                value={draft.currency}
                onInput={input('currency')}
              />
            )}
          </Field>
          <Field
            id={id('portabilityElected')}
            label={HOUSEHOLD_LABELS.portabilityElected}
            hint="Whether the deceased spouse’s unused exclusion (DSUE) was elected to be ported."
            error={errors.portabilityElected}
          >
            {(a11y) => (
              <select
                {...a11y}
                name="portabilityElected"
                value={draft.portabilityElected}
                onChange={(event) => onChange('portabilityElected', event.currentTarget.value)}
              >
                <option value="">Not stated</option>
                <option value="yes">Yes</option>
                <option value="no">No</option>
                <option value="unknown">Unknown</option>
              </select>
            )}
          </Field>
        </div>
        <div class="field-row">
          {ESTATE_AMOUNTS.map((field) => (
            <Field
              key={field}
              id={id(field)}
              label={HOUSEHOLD_LABELS[field]}
              hint="In the household’s currency, with at most 2 decimals."
              error={errors[field]}
            >
              {(a11y) => (
                <input
                  {...a11y}
                  name={field}
                  type="number"
                  inputMode="decimal"
                  min="0"
                  max={String(AMOUNT_MAX)}
                  step="0.01"
                  value={draft[field]}
                  onInput={input(field)}
                />
              )}
            </Field>
          ))}
        </div>
        <div class="field-row">
          {(['primaryClientUsCitizen', 'coClientUsCitizen'] as const).map((field) => (
            <Field key={field} id={id(field)} label={HOUSEHOLD_LABELS[field]} error={errors[field]}>
              {(a11y) => (
                <YesNoSelect a11y={a11y} name={field} value={draft[field]} onChange={(v) => onChange(field, v)} />
              )}
            </Field>
          ))}
        </div>
      </fieldset>
      <details
        class="metadata-details"
        open={draft.metadata.trim() !== '' || draft.externalId !== '' || Boolean(errors.metadata ?? errors.externalId)}
      >
        <summary>For integrations (optional)</summary>
        <Field
          id={id('externalId')}
          label={HOUSEHOLD_LABELS.externalId}
          hint="Your other system’s id for this household (1–64 letters, digits and _ . : -), unique in the organization; a sync job finds the household by it."
          error={errors.externalId}
        >
          {(a11y) => (
            <input
              {...a11y}
              name="externalId"
              type="text"
              maxLength={64}
              pattern="[A-Za-z0-9_.:\-]{1,64}"
              autocomplete="off"
              spellcheck={false}
              value={draft.externalId}
              disabled={disabled}
              onInput={input('externalId')}
            />
          )}
        </Field>
        <Field
          id={id('metadata')}
          label={HOUSEHOLD_LABELS.metadata}
          hint={'A JSON object your other systems can read, e.g. {"crmId": "A-1042"}. At most 16 KB and 8 levels deep.'}
          error={errors.metadata}
        >
          {(a11y) => (
            <textarea
              {...a11y}
              name="metadata"
              rows={4}
              spellcheck={false}
              value={draft.metadata}
              disabled={disabled}
              onInput={input('metadata')}
            />
          )}
        </Field>
      </details>
    </>
  )
}
