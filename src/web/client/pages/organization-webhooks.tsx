// /admin/webhooks: the organization's webhook endpoints. Register one (URL, optional description,
// every event type or the ones chosen from the list the API documents) and see its signing secret
// once, with a Copy button; list every endpoint with its event types, whether it is enabled (and
// when it is not, why and since when), whether it is failing, and its last delivery. Each
// endpoint's own page (organization-webhook.tsx) holds its actions and its delivery log.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { Field, FormSummary, useFormSummary } from '../components/fields.tsx'
import { LoadError } from '../components/load-error.tsx'
import { useApiData } from '../hooks/use-api-data.ts'
import { LiveStatus, Loading } from '../components/load-states.tsx'
import { formatDate, formatDateTime, problemText } from '../format.ts'
import { WebhookSecretPanel } from '../organization/webhook-secret.tsx'
import {
  answerText,
  DELIVERY_STATUS_LABELS,
  DESCRIPTION_MAX,
  endpointPage,
  endpointPath,
  ENDPOINTS_PATH,
  EVENT_TYPE_CHOICES,
  eventTypeLabel,
  takeMessageForList,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookSecretAnswer,
} from '../organization/webhooks.ts'

const URL_MAX = 2000

export function OrganizationWebhooksPage() {
  const endpoints = useApiData<WebhookEndpointList>(ENDPOINTS_PATH)
  const [created, setCreated] = useState<WebhookSecretAnswer | null>(null)
  const [formFocus, setFormFocus] = useState(false)
  const [status, setStatus] = useState('')

  // A message from the endpoint's page (it was deleted), set after the first render so it is announced.
  useEffect(() => {
    const message = takeMessageForList()
    if (message) setStatus(message)
  }, [])

  const list = endpoints.data?.endpoints
  return (
    <section class="admin-page admin-webhooks">
      <PageHeading title="Webhooks">Webhooks</PageHeading>
      <p class="admin-intro">
        A webhook endpoint is an address on a partner's or your own server to which Hearth POSTs each change to your
        households as it happens, signed with the endpoint's secret (the Standard Webhooks format). A delivery that
        fails is tried again for more than 3 days; an endpoint whose every attempt fails for 3 days is disabled, and its
        page says why.
      </p>

      {created ? (
        <WebhookSecretPanel
          answer={created}
          title="The signing secret of your new endpoint"
          onDone={() => {
            setCreated(null)
            setFormFocus(true)
          }}
        >
          <p>
            Registered <code class="mono">{created.endpoint.url}</code>. To check your receiver, open{' '}
            <a href={endpointPage(created.endpoint.id)}>its page</a> and send a test event.
          </p>
        </WebhookSecretPanel>
      ) : (
        <AddEndpointForm
          focusOnMount={formFocus}
          onCreated={(answer) => {
            setStatus('')
            setCreated(answer)
            endpoints.reload()
          }}
        />
      )}

      <section
        class="admin-section"
        aria-labelledby="webhooks-list-title"
        aria-busy={endpoints.loading ? 'true' : 'false'}
      >
        <h2 id="webhooks-list-title" tabIndex={-1} class="section-heading">
          Endpoints
        </h2>
        <LiveStatus message={status} />
        {endpoints.error && <LoadError what="The endpoints" error={endpoints.error} onRetry={endpoints.reload} />}
        {!list && endpoints.loading && <Loading>Loading endpoints…</Loading>}
        {list?.length === 0 && (
          <div class="empty">
            <p>Your organization has no webhook endpoints yet.</p>
            <p>Add one above when another system should hear about changes to your households as they happen.</p>
          </div>
        )}
        {list && list.length > 0 && <EndpointTable endpoints={list} />}
      </section>
    </section>
  )
}

function EndpointTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  return (
    <div class="table-scroll">
      <table class="admin-table webhook-endpoints">
        <caption class="visually-hidden">Your organization's webhook endpoints, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Event types</th>
            <th scope="col">Status</th>
            <th scope="col">Last delivery</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id} data-endpoint-id={endpoint.id} class={endpoint.enabled ? '' : 'endpoint-disabled'}>
              <th scope="row" class="endpoint-url">
                <a href={endpointPage(endpoint.id)}>
                  <span class="mono">{endpoint.url}</span>
                </a>
                {endpoint.description && <span class="muted endpoint-description">{endpoint.description}</span>}
                <span class="muted endpoint-description">Added {formatDate(endpoint.createdAt)}</span>
              </th>
              <td>
                <EventTypeList types={endpoint.eventTypes} />
              </td>
              <td>
                <EndpointStatus endpoint={endpoint} />
              </td>
              <td>
                <LastDelivery endpoint={endpoint} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function EventTypeList({ types }: { types: string[] | null }) {
  if (types === null) return <span>Every event type</span>
  return (
    <ul class="plain permission-list">
      {types.map((type) => (
        <li key={type}>
          <code class="mono">{type}</code>
        </li>
      ))}
    </ul>
  )
}

/** Enabled or disabled (why, and since when), and failing since when. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.enabled) {
    return (
      <div class="endpoint-status">
        <span class="status-tag status-revoked">Disabled</span>
        {endpoint.disabledAt && (
          <span class="muted status-when">
            {' '}
            since <time dateTime={endpoint.disabledAt}>{formatDateTime(endpoint.disabledAt)}</time>
          </span>
        )}
        {endpoint.disabledReason && <p class="disabled-reason">{endpoint.disabledReason}</p>}
      </div>
    )
  }
  return (
    <div class="endpoint-status">
      <span class="status-tag status-active">Enabled</span>
      {endpoint.failingSince && (
        <p class="failing-since">
          Every attempt has failed since{' '}
          <time dateTime={endpoint.failingSince}>{formatDateTime(endpoint.failingSince)}</time>; after 3 days of it the
          endpoint is disabled.
        </p>
      )}
    </div>
  )
}

/** The endpoint's newest delivery (the list of endpoints does not carry it: one small read each). */
function LastDelivery({ endpoint }: { endpoint: WebhookEndpoint }) {
  const last = useApiData<WebhookDeliveryList>(`${endpointPath(endpoint.id)}/deliveries?limit=1`)
  if (last.error) return <span class="muted">Not known: {last.error}</span>
  if (!last.data) return <span class="muted">Loading…</span>
  const delivery = last.data.deliveries[0]
  if (!delivery) return <span class="muted">None yet</span>
  const answer = answerText(delivery.lastResponseStatus, delivery.lastError)
  return (
    <div class="last-delivery">
      <span class={`status-tag delivery-${delivery.status}`}>{DELIVERY_STATUS_LABELS[delivery.status]}</span>{' '}
      <code class="mono">{eventTypeLabel(delivery.eventType)}</code>
      <span class="muted endpoint-description">
        {delivery.lastAttemptAt ? (
          <>
            <time dateTime={delivery.lastAttemptAt}>{formatDateTime(delivery.lastAttemptAt)}</time>
            {answer && `: ${answer}`}
          </>
        ) : (
          'Not attempted yet'
        )}
      </span>
    </div>
  )
}

interface EndpointFormErrors {
  url?: string
  description?: string
  eventTypes?: string
}

function AddEndpointForm({
  onCreated,
  focusOnMount,
}: {
  onCreated: (answer: WebhookSecretAnswer) => void
  focusOnMount: boolean
}) {
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [everyType, setEveryType] = useState(true)
  const [types, setTypes] = useState<string[]>([])
  const [errors, setErrors] = useState<EndpointFormErrors>({})
  const summary = useFormSummary()
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus()
  }, [])

  function validate(): EndpointFormErrors {
    const found: EndpointFormErrors = {}
    const trimmed = url.trim()
    if (!trimmed) found.url = 'Enter the address Hearth should POST to, such as https://partner.example.com/hearth.'
    if (description.trim().length > DESCRIPTION_MAX)
      found.description = `The description can be at most ${DESCRIPTION_MAX} characters.`
    if (!everyType && types.length === 0) found.eventTypes = 'Choose at least one event type, or every type.'
    return found
  }

  function focusFirstError(found: EndpointFormErrors) {
    const form = formRef.current
    if (!form) return
    const selector = found.url
      ? '#webhook-url'
      : found.description
        ? '#webhook-description'
        : found.eventTypes
          ? '#webhook-types input:checked, #webhook-types input'
          : null
    if (selector) requestAnimationFrame(() => form.querySelector<HTMLElement>(selector)?.focus())
  }

  async function submit(event: Event) {
    event.preventDefault()
    if (busy) return
    summary.clear()
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length > 0) {
      focusFirstError(found)
      return
    }
    const body: { url: string; description?: string; eventTypes: string[] | null } = {
      url: url.trim(),
      eventTypes: everyType ? null : EVENT_TYPE_CHOICES.map((c) => c.value).filter((t) => types.includes(t)),
    }
    if (description.trim()) body.description = description.trim()
    setBusy(true)
    try {
      const { body: answer } = await api<WebhookSecretAnswer>(ENDPOINTS_PATH, { method: 'POST', body })
      onCreated(answer)
    } catch (problem) {
      // The API's sentence goes next to the field it names (invalid_webhook_url: /url), else above the form.
      const field = problem instanceof ApiProblem && problem.status === 400 ? fieldOf(problem) : null
      if (field) {
        const next = { [field]: problemText(problem) }
        setErrors(next)
        focusFirstError(next)
      } else {
        summary.show(`The endpoint was not added: ${problemText(problem)}`)
      }
    } finally {
      setBusy(false)
    }
  }

  function toggle(type: string, on: boolean) {
    setTypes((current) => (on ? [...current.filter((t) => t !== type), type] : current.filter((t) => t !== type)))
    setErrors((current) => ({ ...current, eventTypes: undefined }))
  }

  const typesDescribedBy = ['webhook-types-hint', errors.eventTypes ? 'webhook-types-error' : '']
    .filter(Boolean)
    .join(' ')
  return (
    <form
      ref={formRef}
      class="admin-form add-webhook"
      noValidate
      aria-labelledby="add-webhook-title"
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="add-webhook-title" ref={headingRef} tabIndex={-1} class="section-heading">
        Add an endpoint
      </h2>
      <FormSummary message={summary.message} summaryRef={summary.ref} />
      <Field
        id="webhook-url"
        label="URL"
        hint="An https:// address that accepts POST requests (http:// only to localhost, 127.0.0.1 or [::1], and not in production), without a user, password or #fragment."
        error={errors.url}
      >
        {(a11y) => (
          <input
            {...a11y}
            type="text"
            inputMode="url"
            name="url"
            autocomplete="off"
            spellcheck={false}
            maxLength={URL_MAX}
            placeholder="https://"
            value={url}
            onInput={(event) => {
              setUrl(event.currentTarget.value)
              setErrors((current) => ({ ...current, url: undefined }))
            }}
          />
        )}
      </Field>
      <Field
        id="webhook-description"
        label="Description (optional)"
        hint="For people: who receives it, e.g. “CRM sync (staging)”."
        error={errors.description}
      >
        {(a11y) => (
          <input
            {...a11y}
            type="text"
            name="description"
            autocomplete="off"
            maxLength={DESCRIPTION_MAX}
            value={description}
            onInput={(event) => {
              setDescription(event.currentTarget.value)
              setErrors((current) => ({ ...current, description: undefined }))
            }}
          />
        )}
      </Field>
      <fieldset id="webhook-types" class="permissions" aria-describedby={typesDescribedBy}>
        <legend>Event types</legend>
        <p class="hint" id="webhook-types-hint">
          Which changes are sent. Every type includes the types Hearth adds later.
        </p>
        <div class="check-row">
          <input
            type="radio"
            id="webhook-types-every"
            name="typeChoice"
            checked={everyType}
            onChange={() => {
              setEveryType(true)
              setErrors((current) => ({ ...current, eventTypes: undefined }))
            }}
          />
          <label for="webhook-types-every">Every event type</label>
        </div>
        <div class="check-row">
          <input
            type="radio"
            id="webhook-types-chosen"
            name="typeChoice"
            checked={!everyType}
            onChange={() => setEveryType(false)}
          />
          <label for="webhook-types-chosen">Only the types chosen below</label>
        </div>
        <div class="webhook-type-choices">
          {EVENT_TYPE_CHOICES.map((choice) => {
            const id = `webhook-type-${choice.value.replace('.', '-')}`
            return (
              <div class="check-row" key={choice.value}>
                <input
                  type="checkbox"
                  id={id}
                  name="eventTypes"
                  value={choice.value}
                  disabled={everyType}
                  checked={!everyType && types.includes(choice.value)}
                  aria-invalid={errors.eventTypes ? 'true' : undefined}
                  onChange={(event) => toggle(choice.value, event.currentTarget.checked)}
                />
                <label for={id}>
                  <code class="mono">{choice.value}</code> <span class="check-hint">— {choice.description}</span>
                </label>
              </div>
            )
          })}
        </div>
        {errors.eventTypes && (
          <p class="field-error" id="webhook-types-error">
            {errors.eventTypes}
          </p>
        )}
      </fieldset>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add endpoint'}
        </button>
      </div>
    </form>
  )
}

function fieldOf(problem: ApiProblem): keyof EndpointFormErrors | null {
  const named = problem.field ?? ''
  if (problem.code === 'invalid_webhook_url' || named.startsWith('/url') || /^url\b/.test(problem.message)) return 'url'
  if (named.startsWith('/description') || /^description\b/.test(problem.message)) return 'description'
  if (named.startsWith('/eventTypes') || /^eventTypes\b/.test(problem.message)) return 'eventTypes'
  return null
}
