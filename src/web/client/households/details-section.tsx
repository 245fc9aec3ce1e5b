// The household's own fields: shown as a list, edited (by writers) as a merge patch of what changed.
import { useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { FormSummary } from '../components/fields.tsx'
import { formatDate, formatDay } from '../format.ts'
import { formatMoney } from './format.ts'
import {
  bodyOfDraft,
  draftOf,
  HOUSEHOLD_LABELS,
  HouseholdFields,
  patchOf,
  type HouseholdDraft,
} from './household-fields.tsx'
import type { HouseholdPageContext } from './household-writes.ts'
import { EditableSection, EditorActions, useEditorForm } from './section-editor.tsx'
import type { Household } from '../../../schemas/household.ts'

const yesNo = (value: boolean | null) => (value === null ? 'Not recorded' : value ? 'Yes' : 'No')

export function DetailsSection({ page }: { page: HouseholdPageContext }) {
  const { household } = page
  return (
    <EditableSection
      page={page}
      editor="details"
      title="Details"
      editLabel="Edit details"
      view={<DetailsList household={household} />}
      form={(close) => <DetailsForm household={household} page={page} onDone={close} />}
    />
  )
}

function DetailsList({ household }: { household: Household }) {
  return (
    <dl class="details">
      <div>
        <dt>Household name</dt>
        <dd>{household.name}</dd>
      </div>
      <div>
        <dt>Deceased spouse</dt>
        <dd>{household.deceasedSpouseName ?? <span class="muted">None recorded</span>}</dd>
      </div>
      <div>
        <dt>Deceased spouse’s date of death</dt>
        <dd>
          {household.dsueDateOfDeath ? formatDay(household.dsueDateOfDeath) : <span class="muted">Not recorded</span>}
        </dd>
      </div>
      <div>
        <dt>DSUE amount received</dt>
        <dd>
          {household.dsueReceived === null ? (
            <span class="muted">Not recorded</span>
          ) : (
            formatMoney(household.dsueReceived)
          )}
        </dd>
      </div>
      <div>
        <dt>Primary client as donor</dt>
        <dd>{yesNo(household.primaryClientAsDonor)}</dd>
      </div>
      <div>
        <dt>Co-client as donor</dt>
        <dd>{yesNo(household.coClientAsDonor)}</dd>
      </div>
      {household.metadata !== null && (
        <div class="wide">
          <dt>Metadata</dt>
          <dd>
            <pre class="metadata">{JSON.stringify(household.metadata, null, 2)}</pre>
          </dd>
        </div>
      )}
      <div>
        <dt>Created</dt>
        <dd>
          <time dateTime={household.createdAt}>{formatDate(household.createdAt)}</time>
        </dd>
      </div>
      <div>
        <dt>Last changed</dt>
        <dd>
          <time dateTime={household.updatedAt}>{formatDate(household.updatedAt)}</time>
        </dd>
      </div>
      {household.isSample && (
        <div>
          <dt>Sample</dt>
          <dd>Yes: this household came with your organization, to try Hearth with.</dd>
        </div>
      )}
    </dl>
  )
}

function DetailsForm({
  household,
  page,
  onDone,
}: {
  household: Household
  page: HouseholdPageContext
  onDone: () => void
}) {
  const [draft, setDraft] = useState<HouseholdDraft>(() => draftOf(household))
  const { busy, formRef, form, send } = useEditorForm(page, onDone, 'input, select, textarea')

  async function save(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element || !form.checkNative(element)) return
    const checked = bodyOfDraft(draft)
    if (!checked.ok) {
      form.showProblem(element, new ApiProblem(400, 'invalid_body', checked.message, `/${checked.field}`), {
        [checked.field]: HOUSEHOLD_LABELS[checked.field],
      })
      return
    }
    const patch = patchOf(household, checked.body)
    if (Object.keys(patch).length === 0) {
      onDone()
      return
    }
    await send(
      element,
      (ifMatch) =>
        api<{ household: Household }>(`/api/v1/relationships/${household.id}`, {
          method: 'PATCH',
          body: patch,
          headers: { 'if-match': ifMatch },
        }),
      'The details were saved.',
      HOUSEHOLD_LABELS,
    )
  }

  return (
    <form
      ref={formRef}
      noValidate
      class="household-form"
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void save(event)}
    >
      <FormSummary message={form.summary} summaryRef={form.summaryRef} />
      <HouseholdFields
        idPrefix="edit-household"
        draft={draft}
        errors={form.errors}
        onChange={(field, value) => {
          setDraft((current) => ({ ...current, [field]: value }))
          form.clearField(field)
        }}
      />
      <EditorActions busy={busy} saveLabel="Save details" onCancel={onDone} />
    </form>
  )
}
