// /admin/webhooks/{id}: one webhook endpoint. Its settings and status (when disabled: why and since
// when), its actions — send a test event, rotate the secret (the new one shown once, with until
// when the previous one keeps signing), disable or enable, delete after a confirmation — and its
// delivery log, newest first: each event's type and id, status, attempts, last answer and next
// attempt, every attempt on demand, and "Send again". While a delivery is due within seconds the
// log reads itself again, and what became of the one just sent is said in a live region.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { LoadError } from '../components/load-error.tsx'
import { useApiData } from '../hooks/use-api-data.ts'
import { useFocusRequest } from '../hooks/focus-request.ts'
import { ActionError, LiveStatus, Loading } from '../components/load-states.tsx'
import { formatDateTime, plural, problemText } from '../format.ts'
import { navigate } from '../router.ts'
import { WebhookSecretPanel } from '../organization/webhook-secret.tsx'
import { EndpointStatus, EventTypeList } from './organization-webhooks.tsx'
import {
  answerText,
  DELIVERY_STATUS_LABELS,
  endpointPath,
  eventTypeLabel,
  leaveMessageForList,
  OVERLAP_CHOICES,
  TEST_EVENT_TYPE,
  type WebhookDelivery,
  type WebhookDeliveryAnswer,
  type WebhookDeliveryDetail,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookSecretAnswer,
} from '../organization/webhooks.ts'

const LOG_PAGE = 25
const API_PAGE_MAX = 200
/** The log reads itself again this often while a delivery is due soon. */
const REFRESH_MS = 1500
/** "Soon": a pending delivery whose next attempt is within this is waited for. */
const SOON_MS = 20_000
/** How long what became of a delivery just queued is waited for. */
const WATCH_MS = 60_000

export function OrganizationWebhookPage({ id }: { id: string }) {
  const endpoint = useApiData<WebhookEndpoint>(endpointPath(id))
  const [status, setStatus] = useState('')
  const [actionError, setActionError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'test' | 'enable' | null>(null)
  const [rotated, setRotated] = useState<WebhookSecretAnswer | null>(null)
  const [overlap, setOverlap] = useState(OVERLAP_CHOICES[0]?.seconds ?? 86_400)
  const rotation = useConfirmation<WebhookEndpoint>()
  const disabling = useConfirmation<WebhookEndpoint>()
  const removal = useConfirmation<WebhookEndpoint>()
  const [actionsHeading, focusActions] = useFocusRequest<HTMLHeadingElement>()
  const log = useDeliveryLog(id)

  const current = endpoint.data

  /** Reports what became of a delivery just queued, once the log shows its next attempt. */
  const watch = log.watch
  useEffect(() => {
    const watched = log.watched
    if (!watched) return
    const delivery = log.deliveries.find((d) => d.id === watched.id)
    if (Date.now() - watched.since > WATCH_MS) {
      watch(null)
      return
    }
    if (!delivery || (delivery.attempts <= watched.attempts && delivery.status === 'pending')) return
    const what = watched.label
    const answer = answerText(delivery.lastResponseStatus, delivery.lastError)
    if (delivery.status === 'succeeded') setStatus(`${what} was delivered${answer ? ` (${answer})` : ''}.`)
    else if (delivery.status === 'failed')
      setStatus(`${what} failed${answer ? `: ${answer}` : ''}. No attempts are left.`)
    else
      setStatus(
        `${what} failed${answer ? `: ${answer}` : ''}.${delivery.nextAttemptAt ? ` The next attempt is at ${formatDateTime(delivery.nextAttemptAt)}.` : ''}`,
      )
    watch(null)
    // The endpoint's failing clock may have started or stopped with this attempt.
    endpoint.reload()
  }, [log.deliveries, log.watched])

  async function act(kind: 'test' | 'enable', action: () => Promise<void>) {
    if (busy) return
    setBusy(kind)
    setActionError(null)
    try {
      await action()
    } catch (problem) {
      setActionError(problemText(problem))
    } finally {
      setBusy(null)
    }
  }

  const sendTest = () =>
    act('test', async () => {
      const { body } = await api<WebhookDeliveryAnswer>(`${endpointPath(id)}/test`, { method: 'POST' })
      setStatus('Test event queued: it is sent within seconds. Its delivery is at the top of the log below.')
      watch({ id: body.delivery.id, attempts: body.delivery.attempts, label: 'The test event' })
      log.refresh()
    })

  const enable = () =>
    act('enable', async () => {
      const { body } = await api<WebhookEndpoint>(endpointPath(id), { method: 'PATCH', body: { enabled: true } })
      endpoint.update(() => body)
      setStatus(
        'Enabled. New events are sent to it again; its failed deliveries can be sent again from the log below. Events that occurred while it was disabled are not sent: the receiver can read them from the change feed.',
      )
    })

  async function disable(target: WebhookEndpoint) {
    const { body } = await api<WebhookEndpoint>(endpointPath(target.id), { method: 'PATCH', body: { enabled: false } })
    endpoint.update(() => body)
    setStatus('Disabled. Nothing is sent to it until it is enabled again.')
    disabling.close()
    log.refresh()
    // The Disable button that opened the dialog becomes Enable: the focus goes to the actions' heading.
    focusActions()
  }

  async function rotate(target: WebhookEndpoint) {
    const { body } = await api<WebhookSecretAnswer>(`${endpointPath(target.id)}/rotate-secret`, {
      method: 'POST',
      body: { overlapSeconds: overlap },
    })
    endpoint.update(() => body.endpoint)
    setStatus('')
    rotation.close()
    setRotated(body)
  }

  async function remove(target: WebhookEndpoint) {
    try {
      await api(endpointPath(target.id), { method: 'DELETE' })
      leaveMessageForList(`Deleted the endpoint ${target.url}. Nothing more is sent to it.`)
    } catch (problem) {
      // Deleted meanwhile (another admin, the CLI): the goal is reached.
      if (!(problem instanceof ApiProblem && problem.status === 404)) throw problem
      leaveMessageForList(`The endpoint ${target.url} was already deleted.`)
    }
    removal.close()
    navigate('/admin/webhooks')
  }

  return (
    <section class="admin-page admin-webhook">
      <p class="back-link">
        <a href="/admin/webhooks">All webhook endpoints</a>
      </p>
      <PageHeading title="Webhook endpoint">Webhook endpoint</PageHeading>
      {endpoint.error && !current && <LoadError what="The endpoint" error={endpoint.error} onRetry={endpoint.reload} />}
      {!current && endpoint.loading && <Loading>Loading the endpoint…</Loading>}
      {current && (
        <>
          <dl class="details webhook-details">
            <div class="wide">
              <dt>URL</dt>
              <dd>
                <code class="mono">{current.url}</code>
              </dd>
            </div>
            {current.description && (
              <div class="wide">
                <dt>Description</dt>
                <dd>{current.description}</dd>
              </div>
            )}
            <div class="wide">
              <dt>Status</dt>
              <dd>
                <EndpointStatus endpoint={current} />
              </dd>
            </div>
            <div>
              <dt>Event types</dt>
              <dd>
                <EventTypeList types={current.eventTypes} />
              </dd>
            </div>
            <div>
              <dt>Signing secret</dt>
              <dd>
                {current.previousSecretExpiresAt ? (
                  <>
                    Rotated: the previous secret also signs until{' '}
                    <time dateTime={current.previousSecretExpiresAt}>
                      {formatDateTime(current.previousSecretExpiresAt)}
                    </time>
                    .
                  </>
                ) : (
                  'One secret signs each delivery.'
                )}
              </dd>
            </div>
            <div>
              <dt>Added</dt>
              <dd>
                <time dateTime={current.createdAt}>{formatDateTime(current.createdAt)}</time>
              </dd>
            </div>
          </dl>

          {rotated ? (
            <WebhookSecretPanel
              answer={rotated}
              title="The new signing secret"
              rotated
              onDone={() => {
                setRotated(null)
                focusActions()
              }}
            />
          ) : null}

          <section class="admin-section webhook-actions" aria-labelledby="webhook-actions-title">
            <h2 id="webhook-actions-title" ref={actionsHeading} tabIndex={-1} class="section-heading">
              Actions
            </h2>
            <LiveStatus message={status} />
            <ActionError message={actionError} />
            <div class="form-actions">
              <button
                type="button"
                class="primary"
                disabled={busy !== null || !current.enabled}
                aria-describedby={current.enabled ? undefined : 'webhook-test-disabled'}
                onClick={() => void sendTest()}
              >
                {busy === 'test' ? 'Sending…' : 'Send a test event'}
              </button>
              <button type="button" onClick={() => rotation.ask(current)}>
                Rotate secret
              </button>
              {current.enabled ? (
                <button type="button" onClick={() => disabling.ask(current)}>
                  Disable
                </button>
              ) : (
                <button type="button" disabled={busy !== null} onClick={() => void enable()}>
                  {busy === 'enable' ? 'Enabling…' : 'Enable'}
                </button>
              )}
              <button type="button" class="danger" onClick={() => removal.ask(current)}>
                Delete endpoint
              </button>
            </div>
            {!current.enabled && (
              <p class="hint" id="webhook-test-disabled">
                A disabled endpoint gets no test event: enable it first.
              </p>
            )}
          </section>

          <DeliveryLog log={log} endpoint={current} onSentAgain={setStatus} />
        </>
      )}

      {rotation.subject && (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          busy={rotation.busy}
          error={rotation.error}
          onConfirm={() => void rotation.run(rotate)}
          onCancel={() => rotation.close()}
        >
          <p>
            Hearth makes a new secret, shown once. Until your receiver has it, the current secret can keep signing
            beside it.
          </p>
          <div class="field">
            <label for="webhook-overlap">The current secret keeps signing for</label>
            <select
              id="webhook-overlap"
              value={String(overlap)}
              onChange={(event) => setOverlap(Number(event.currentTarget.value))}
            >
              {OVERLAP_CHOICES.map((choice) => (
                <option key={choice.seconds} value={String(choice.seconds)}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        </ConfirmDialog>
      )}

      {disabling.subject && (
        <ConfirmDialog
          title="Disable this endpoint?"
          confirmLabel="Disable endpoint"
          busy={disabling.busy}
          error={disabling.error}
          onConfirm={() => void disabling.run(disable)}
          onCancel={() => disabling.close()}
        >
          <p>
            Nothing is sent to <code class="mono">{disabling.subject.url}</code> until it is enabled again; deliveries
            waiting for a retry fail as not sent. After enabling it you can send them again one by one.
          </p>
        </ConfirmDialog>
      )}

      {removal.subject && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          busy={removal.busy}
          error={removal.error}
          onConfirm={() => void removal.run(remove)}
          onCancel={() => removal.close()}
        >
          <p>
            <code class="mono">{removal.subject.url}</code> is removed with its delivery log, and nothing more is sent
            to it (an attempt already under way may still arrive). This cannot be undone: you would add it again, with a
            new secret.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}

interface Watched {
  id: string
  /** Attempts when it was queued: the next one tells what became of it. */
  attempts: number
  label: string
  /** When it was queued (Date.now()). */
  since: number
}

interface DeliveryLogState {
  deliveries: WebhookDelivery[]
  /** Whether older deliveries may follow. */
  more: boolean
  loaded: boolean
  loading: boolean
  error: string | null
  refresh: () => void
  showOlder: () => void
  watched: Watched | null
  watch: (watched: Omit<Watched, 'since'> | null) => void
}

/** The newest `count` deliveries, read in pages of at most the API's maximum. */
async function readLog(endpointId: string, count: number): Promise<{ deliveries: WebhookDelivery[]; more: boolean }> {
  const deliveries: WebhookDelivery[] = []
  let before: string | null = null
  do {
    const query = new URLSearchParams({ limit: String(Math.min(API_PAGE_MAX, count - deliveries.length)) })
    if (before) query.set('before', before)
    const { body }: { body: WebhookDeliveryList } = await api<WebhookDeliveryList>(
      `${endpointPath(endpointId)}/deliveries?${query.toString()}`,
    )
    deliveries.push(...body.deliveries)
    before = body.nextCursor
  } while (before && deliveries.length < count)
  return { deliveries, more: before !== null }
}

/**
 * The log as far as it was shown: every read asks again for all of it (newest first), so that new
 * deliveries at the top never push one out of sight between pages.
 */
function useDeliveryLog(endpointId: string): DeliveryLogState {
  const [count, setCount] = useState(LOG_PAGE)
  const [reads, setReads] = useState(0)
  const [state, setState] = useState<{ deliveries: WebhookDelivery[]; more: boolean; read: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [watched, setWatched] = useState<Watched | null>(null)

  useEffect(() => {
    let current = true
    readLog(endpointId, count).then(
      (result) => {
        if (!current) return
        setState({ ...result, read: reads })
        setError(null)
      },
      (problem: unknown) => {
        if (current) setError(problemText(problem))
      },
    )
    return () => {
      current = false
    }
  }, [endpointId, count, reads])

  const refresh = useCallback(() => setReads((n) => n + 1), [])
  const deliveries = state?.deliveries ?? []

  // Read again while a delivery is due within seconds (or one just queued has not been tried yet).
  const now = Date.now()
  const dueSoon =
    watched !== null ||
    deliveries.some(
      (d) => d.status === 'pending' && (d.nextAttemptAt === null || Date.parse(d.nextAttemptAt) - now < SOON_MS),
    )
  const settledRead = state?.read
  useEffect(() => {
    if (!dueSoon || settledRead !== reads) return
    const timer = setTimeout(refresh, REFRESH_MS)
    return () => clearTimeout(timer)
  }, [dueSoon, settledRead, reads])

  const watch = useCallback(
    (next: Omit<Watched, 'since'> | null) => setWatched(next && { ...next, since: Date.now() }),
    [],
  )
  return {
    deliveries,
    more: state?.more ?? false,
    loaded: state !== null,
    loading: state?.read !== reads,
    error,
    refresh,
    showOlder: () => setCount((n) => n + LOG_PAGE),
    watched,
    watch,
  }
}

function DeliveryLog({
  log,
  endpoint,
  onSentAgain,
}: {
  log: DeliveryLogState
  endpoint: WebhookEndpoint
  onSentAgain: (message: string) => void
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const [sending, setSending] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [shownBefore, setShownBefore] = useState(0)

  async function sendAgain(delivery: WebhookDelivery) {
    if (sending) return
    setSending(delivery.id)
    setError(null)
    try {
      const { body } = await api<WebhookDeliveryAnswer>(
        `${endpointPath(delivery.endpointId)}/deliveries/${encodeURIComponent(delivery.id)}/retry`,
        { method: 'POST' },
      )
      const label =
        delivery.eventType === TEST_EVENT_TYPE
          ? 'The test event'
          : `The ${delivery.eventType} event ${delivery.eventId}`
      onSentAgain(`${label} is sent again within seconds.`)
      log.watch({ id: body.delivery.id, attempts: body.delivery.attempts, label })
      log.refresh()
    } catch (problem) {
      setError(`It was not sent again: ${problemText(problem)}`)
    } finally {
      setSending(null)
    }
  }

  function toggle(id: string) {
    setOpen((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  const { deliveries } = log
  return (
    <section
      class="admin-section delivery-log"
      aria-labelledby="delivery-log-title"
      aria-busy={!log.loaded ? 'true' : 'false'}
    >
      <div class="section-title-row">
        <h2 id="delivery-log-title" tabIndex={-1} class="section-heading">
          Delivery log
        </h2>
        <button type="button" onClick={log.refresh}>
          Refresh<span class="visually-hidden"> the delivery log</span>
        </button>
      </div>
      <p class="hint">
        Every event sent to <code class="mono">{endpoint.url}</code>, newest first. The webhook-id header carries the
        event id, the same on every attempt, so your receiver can skip one it already has.
        {!endpoint.enabled && ' While the endpoint is disabled nothing is sent again: enable it first.'}
      </p>
      <ActionError message={error} />
      {log.error && <LoadError what="The delivery log" error={log.error} onRetry={log.refresh} />}
      {!log.loaded && !log.error && <Loading>Loading the delivery log…</Loading>}
      {log.loaded && deliveries.length === 0 && (
        <div class="empty">
          <p>Nothing has been sent to this endpoint yet.</p>
          <p>Send a test event above to try your receiver.</p>
        </div>
      )}
      {deliveries.length > 0 && (
        <div class="table-scroll">
          <table class="admin-table webhook-deliveries">
            <caption class="visually-hidden">Deliveries to this endpoint, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col" class="number">
                  Attempts
                </th>
                <th scope="col">Last attempt</th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            {deliveries.map((delivery, index) => (
              <DeliveryRows
                key={delivery.id}
                delivery={delivery}
                open={open.has(delivery.id)}
                sending={sending === delivery.id}
                canSend={endpoint.enabled}
                onToggle={() => toggle(delivery.id)}
                onSendAgain={() => void sendAgain(delivery)}
                firstNew={index === shownBefore && shownBefore > 0}
              />
            ))}
          </table>
        </div>
      )}
      {log.more && (
        <p>
          <button
            type="button"
            onClick={() => {
              setShownBefore(deliveries.length)
              log.showOlder()
            }}
          >
            Show older deliveries
          </button>
        </p>
      )}
      <p class="visually-hidden" role="status" aria-live="polite">
        {log.loaded ? `${plural(deliveries.length, 'delivery', 'deliveries')} shown.` : ''}
      </p>
    </section>
  )
}

function DeliveryRows({
  delivery,
  open,
  sending,
  canSend,
  onToggle,
  onSendAgain,
  firstNew,
}: {
  delivery: WebhookDelivery
  open: boolean
  sending: boolean
  canSend: boolean
  onToggle: () => void
  onSendAgain: () => void
  firstNew: boolean
}) {
  const answer = answerText(delivery.lastResponseStatus, delivery.lastError)
  const attemptsId = `attempts-${delivery.id}`
  const name = `${delivery.eventType} ${delivery.eventId}`
  const rowRef = useRef<HTMLTableRowElement>(null)
  useEffect(() => {
    // The first of the older deliveries just shown takes the focus (the button may be gone).
    if (firstNew) rowRef.current?.querySelector<HTMLElement>('button')?.focus()
  }, [firstNew])
  return (
    <tbody data-delivery-id={delivery.id} data-event-id={delivery.eventId}>
      <tr ref={rowRef} class={open ? 'is-open' : ''}>
        <th scope="row" class="delivery-event">
          <code class="mono">{eventTypeLabel(delivery.eventType)}</code>
          <span class="muted event-id mono">{delivery.eventId}</span>
        </th>
        <td>
          <span class={`status-tag delivery-status delivery-${delivery.status}`}>
            {DELIVERY_STATUS_LABELS[delivery.status]}
          </span>
        </td>
        <td class="number delivery-attempts">{delivery.attempts}</td>
        <td>
          {delivery.lastAttemptAt ? (
            <>
              <time dateTime={delivery.lastAttemptAt}>{formatDateTime(delivery.lastAttemptAt)}</time>
              {answer && <span class="delivery-answer">{answer}</span>}
            </>
          ) : (
            <span class="muted">Not yet</span>
          )}
        </td>
        <td>
          {delivery.nextAttemptAt ? (
            <time dateTime={delivery.nextAttemptAt}>{formatDateTime(delivery.nextAttemptAt)}</time>
          ) : (
            <span class="muted">{delivery.status === 'pending' ? 'Now' : 'None'}</span>
          )}
        </td>
        <td class="actions">
          <button type="button" aria-expanded={open ? 'true' : 'false'} aria-controls={attemptsId} onClick={onToggle}>
            {open ? 'Hide attempts' : 'Attempts'}
            <span class="visually-hidden"> of {name}</span>
          </button>{' '}
          <button type="button" disabled={sending || !canSend} onClick={onSendAgain}>
            {sending ? 'Sending…' : 'Send again'}
            <span class="visually-hidden"> {name}</span>
          </button>
        </td>
      </tr>
      <tr id={attemptsId} class="attempts-row" hidden={!open}>
        <td colSpan={6}>{open && <AttemptList delivery={delivery} />}</td>
      </tr>
    </tbody>
  )
}

/** Every attempt of a delivery, read again whenever the log shows it changed. */
function AttemptList({ delivery }: { delivery: WebhookDelivery }) {
  const detail = useApiData<WebhookDeliveryDetail>(
    `${endpointPath(delivery.endpointId)}/deliveries/${encodeURIComponent(delivery.id)}`,
  )
  const first = useRef(true)
  const { reload } = detail
  useEffect(() => {
    if (first.current) first.current = false
    else reload()
  }, [delivery.attempts, delivery.status])
  if (detail.error) return <LoadError what="The attempts" error={detail.error} onRetry={reload} />
  const attempts = detail.data?.attempts
  if (!attempts) return <Loading>Loading the attempts…</Loading>
  if (attempts.length === 0) return <p class="muted">No attempt yet.</p>
  return (
    <table class="webhook-attempts">
      <caption class="visually-hidden">Attempts of this delivery, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Attempt</th>
          <th scope="col">When</th>
          <th scope="col">Result</th>
          <th scope="col">Answer</th>
          <th scope="col" class="number">
            Took
          </th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.attempt}>
            <th scope="row">
              {attempt.attempt}
              {attempt.trigger === 'manual' && <span class="muted"> (sent again)</span>}
            </th>
            <td>
              <time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
            </td>
            <td>
              <span class={`status-tag delivery-${attempt.succeeded ? 'succeeded' : 'failed'}`}>
                {attempt.succeeded ? 'Succeeded' : 'Failed'}
              </span>
            </td>
            <td>{answerText(attempt.responseStatus, attempt.error) || <span class="muted">—</span>}</td>
            <td class="number">{attempt.durationMs} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
