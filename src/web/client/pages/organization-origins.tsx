// /admin/origins: the embed origins, the partner sites allowed to frame the household chart.
// Add one (the API's own sentence next to the field when it is not a bare origin), list them,
// remove one after a confirmation.
import { useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { Field, FormSummary, useFormSummary } from '../components/fields.tsx'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { LoadError } from '../components/load-error.tsx'
import { useApiData } from '../hooks/use-api-data.ts'
import { useFocusRequest } from '../hooks/focus-request.ts'
import { LiveStatus, Loading } from '../components/load-states.tsx'
import { formatDate, problemText } from '../format.ts'
import type { FrameOrigin, FrameOriginList } from '../../../schemas/organization.ts'

const ORIGIN_MAX = 300

export function OrganizationOriginsPage() {
  const origins = useApiData<FrameOriginList>('/api/v1/embed/origins')
  const [status, setStatus] = useState('')
  const removal = useConfirmation<FrameOrigin>()
  const [listHeading, focusList] = useFocusRequest<HTMLHeadingElement>()

  async function remove({ origin }: FrameOrigin) {
    try {
      await api(`/api/v1/embed/origins/${encodeURIComponent(origin)}`, { method: 'DELETE' })
      setStatus(`Removed ${origin}. New chart tokens can no longer name it.`)
    } catch (problem) {
      // Removed meanwhile (another admin, the CLI): the list is out of date, the goal reached.
      if (!(problem instanceof ApiProblem && problem.status === 404)) throw problem
      setStatus(`${origin} was not registered any more.`)
    }
    removal.close()
    origins.reload()
    focusList()
  }

  const list = origins.data?.origins
  const removing = removal.subject
  return (
    <section class="admin-page admin-origins">
      <PageHeading title="Embed origins">Embed origins</PageHeading>
      <p class="admin-intro">
        An embed origin is a website (its scheme, host and port, such as https://portal.example.com) allowed to show
        your households' chart in a frame on its pages; chart tokens can only be minted for these sites.
      </p>

      <AddOriginForm
        known={list?.map((o) => o.origin) ?? []}
        onAdded={(message) => {
          setStatus(message)
          origins.reload()
        }}
      />

      <section
        class="admin-section"
        aria-labelledby="origins-list-title"
        aria-busy={origins.loading ? 'true' : 'false'}
      >
        <h2 id="origins-list-title" ref={listHeading} tabIndex={-1} class="section-heading">
          Allowed sites
        </h2>
        <LiveStatus message={status} />
        {origins.error && <LoadError what="The embed origins" error={origins.error} onRetry={origins.reload} />}
        {!list && origins.loading && <Loading>Loading embed origins…</Loading>}
        {list?.length === 0 && (
          <div class="empty">
            <p>No embed origins yet, so no site can show your chart.</p>
            <p>Add the address of a partner site above to let it frame the chart.</p>
          </div>
        )}
        {list && list.length > 0 && (
          <div class="table-scroll">
            <table class="admin-table embed-origins">
              <caption class="visually-hidden">Sites allowed to frame the chart, in alphabetical order</caption>
              <thead>
                <tr>
                  <th scope="col">Origin</th>
                  <th scope="col">Added</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((origin) => (
                  <tr key={origin.origin}>
                    <th scope="row">
                      <code class="mono">{origin.origin}</code>
                    </th>
                    <td>
                      <time dateTime={origin.createdAt}>{formatDate(origin.createdAt)}</time>
                    </td>
                    <td class="actions">
                      <button type="button" class="danger" onClick={() => removal.ask(origin)}>
                        Remove<span class="visually-hidden"> {origin.origin}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.origin}?`}
          confirmLabel="Remove origin"
          busy={removal.busy}
          error={removal.error}
          onConfirm={() => void removal.run(remove)}
          onCancel={() => removal.close()}
        >
          <p>
            New chart tokens can no longer be minted for <code class="mono">{removing.origin}</code>, and its pages stop
            showing the chart once the tokens they hold expire (10 minutes at most). You can add it again later.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}

function AddOriginForm({ known, onAdded }: { known: string[]; onAdded: (message: string) => void }) {
  const [origin, setOrigin] = useState('')
  const [error, setError] = useState<string | undefined>(undefined)
  const summary = useFormSummary()
  const [busy, setBusy] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)

  async function submit(event: Event) {
    event.preventDefault()
    if (busy) return
    summary.clear()
    const value = origin.trim()
    if (!value) {
      setError('Enter the address of the site, such as https://portal.example.com.')
      inputRef.current?.focus()
      return
    }
    setBusy(true)
    try {
      // 201 when added, 200 (with its first registration time) when it was allowed already.
      const { body } = await api<FrameOrigin>('/api/v1/embed/origins', { method: 'POST', body: { origin: value } })
      setOrigin('')
      setError(undefined)
      onAdded(
        known.includes(body.origin)
          ? `${body.origin} was already allowed (since ${formatDate(body.createdAt)}).`
          : `Added ${body.origin}.`,
      )
    } catch (problem) {
      if (problem instanceof ApiProblem && problem.status === 400) {
        // The API says what is wrong with the origin ("origin: … is not a bare origin (did you mean …?)").
        setError(problem.message.replace(/^origin:\s*/, ''))
        inputRef.current?.focus()
      } else {
        summary.show(`The origin was not added: ${problemText(problem)}`)
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      class="admin-form add-origin"
      noValidate
      aria-labelledby="add-origin-title"
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="add-origin-title" class="section-heading">
        Add a site
      </h2>
      <FormSummary message={summary.message} summaryRef={summary.ref} />
      <Field
        id="origin-input"
        label="Origin"
        hint="Scheme, host and port only: no path and no trailing slash, e.g. https://portal.example.com or https://portal.example.com:8443. http only for localhost."
        error={error}
      >
        {(a11y) => (
          <input
            {...a11y}
            ref={inputRef}
            type="text"
            inputMode="url"
            name="origin"
            autocomplete="off"
            spellcheck={false}
            maxLength={ORIGIN_MAX}
            placeholder="https://"
            value={origin}
            onInput={(event) => {
              setOrigin(event.currentTarget.value)
              setError(undefined)
            }}
          />
        )}
      </Field>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add origin'}
        </button>
      </div>
    </form>
  )
}
