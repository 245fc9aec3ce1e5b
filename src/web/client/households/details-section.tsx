// The household's own fields: shown as a list, edited (by writers) as a merge patch of what changed.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { FormSummary } from '../components/fields.tsx'
import { useFormErrors } from './form-errors.ts'
import { formatCalendarDate, formatMoney, formatTimestamp } from './format.ts'
import { bodyOfDraft, draftOf, HOUSEHOLD_LABELS, HouseholdFields, patchOf, type HouseholdDraft } from './household-fields.tsx'
import type { HouseholdPageContext } from './household-writes.ts'
import type { Household } from './types.ts'

const yesNo = (value: boolean | null) => (value === null ? 'Not recorded' : value ? 'Yes' : 'No')

export function DetailsSection({ page }: { page: HouseholdPageContext }) {
  const { household } = page
  const editing = page.editor?.kind === 'details'
  const editButton = useRef<HTMLButtonElement>(null)

  const close = () => {
    page.setEditor(null)
    requestAnimationFrame(() => editButton.current?.focus())
  }

  return (
    <section aria-labelledby="details-heading" class="household-section">
      <div class="section-title-row">
        <h2 id="details-heading">Details</h2>
        {page.canWrite && !editing && (
          <button type="button" ref={editButton} onClick={() => page.setEditor({ kind: 'details' })}>
            Edit details
          </button>
        )}
      </div>
      {editing ? <DetailsForm household={household} page={page} onDone={close} /> : <DetailsList household={household} />}
    </section>
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
        <dd>{household.dsueDateOfDeath ? formatCalendarDate(household.dsueDateOfDeath) : <span class="muted">Not recorded</span>}</dd>
      </div>
      <div>
        <dt>DSUE amount received</dt>
        <dd>{household.dsueReceived === null ? <span class="muted">Not recorded</span> : formatMoney(household.dsueReceived)}</dd>
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
          <time dateTime={household.createdAt}>{formatTimestamp(household.createdAt)}</time>
        </dd>
      </div>
      <div>
        <dt>Last changed</dt>
        <dd>
          <time dateTime={household.updatedAt}>{formatTimestamp(household.updatedAt)}</time>
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

function DetailsForm({ household, page, onDone }: { household: Household; page: HouseholdPageContext; onDone: () => void }) {
  const [draft, setDraft] = useState<HouseholdDraft>(() => draftOf(household))
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const form = useFormErrors()
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus()
  }, [])

  async function save(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element || !form.checkNative(element)) return
    const checked = bodyOfDraft(draft)
    if (!checked.ok) {
      form.showProblem(element, new ApiProblem(400, 'invalid_body', checked.message), { [checked.field]: HOUSEHOLD_LABELS[checked.field] })
      return
    }
    const patch = patchOf(household, checked.body)
    if (Object.keys(patch).length === 0) {
      onDone()
      return
    }
    setBusy(true)
    try {
      const result = await page.write(
        (ifMatch) => api<{ household: Household }>(`/api/v1/relationships/${household.id}`, { method: 'PATCH', body: patch, headers: { 'if-match': ifMatch } }),
        'The details were saved.',
      )
      if (result.ok) onDone()
    } catch (problem) {
      form.showProblem(element, problem, HOUSEHOLD_LABELS)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form ref={formRef} noValidate class="household-form" aria-busy={busy ? 'true' : 'false'} onSubmit={(event) => void save(event)}>
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
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save details'}
        </button>
        <button type="button" disabled={busy} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
