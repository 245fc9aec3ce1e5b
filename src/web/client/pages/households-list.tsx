// /households: the organization's households, searched as you type, sorted by a column, filtered
// by sample, paged. Everything the view shows is in the URL (list-state.ts). While the next page
// loads the current rows stay (marked busy), and an answer that arrives after a newer request was
// made is dropped, so a slow old search never replaces a newer one.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { navigate, type Location } from '../router.ts'
import { can, useMe } from '../session.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { LoadError } from '../components/load-error.tsx'
import {
  apiQuery,
  isFiltered,
  listUrl,
  PAGE_SIZES,
  readListState,
  SEARCH_MAX,
  sortedBy,
  type ListState,
  type SampleFilter,
  type SortKey,
} from '../households/list-state.ts'
import { formatCount, formatDate, plural, problemText } from '../format.ts'
import { takeFlash } from '../households/flash.ts'
import type { HouseholdList, HouseholdListItem } from '../../../schemas/household.ts'

const SEARCH_DELAY_MS = 250

interface Loaded {
  list: HouseholdList
  state: ListState
}

export function HouseholdsListPage({ location }: { location: Location }) {
  const me = useMe()
  const state = readListState(location.query)
  const latest = useRef(state)
  latest.current = state
  const requestKey = apiQuery(state)

  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const [flash] = useState(takeFlash)

  useEffect(() => {
    // A newer request (or leaving the page) cancels this one; an answer already on its way is dropped.
    const controller = new AbortController()
    const requested = state
    setLoading(true)
    api<HouseholdList>(`/api/v1/relationships?${requestKey}`, { signal: controller.signal }).then(
      ({ body }) => {
        if (controller.signal.aborted) return
        setLoaded({ list: body, state: requested })
        setError(null)
        setLoading(false)
      },
      (problem: unknown) => {
        if (controller.signal.aborted) return
        setError(problemText(problem))
        setLoading(false)
      },
    )
    return () => controller.abort()
  }, [requestKey, attempt])

  const go = (next: ListState, replace = false) => navigate(listUrl(next), { replace })

  // The search box: what is typed goes to the URL 250 ms after the last key (replacing the
  // history entry, so Back does not step through every letter); the URL changing any other way
  // (Back, a link, "Clear search") puts its value back in the box.
  const [draft, setDraft] = useState(state.q)
  const pushedQ = useRef(state.q)
  useEffect(() => {
    if (state.q !== pushedQ.current) {
      pushedQ.current = state.q
      setDraft(state.q)
    }
  }, [state.q])
  useEffect(() => {
    const q = draft.trim()
    if (q === latest.current.q) return
    const timer = setTimeout(() => {
      pushedQ.current = q
      go({ ...latest.current, q, page: 1 }, true)
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [draft])

  const applySearchNow = () => {
    const q = draft.trim()
    if (q === state.q) return
    pushedQ.current = q
    go({ ...state, q, page: 1 }, true)
  }
  const clearFilters = () => {
    pushedQ.current = ''
    setDraft('')
    go({ ...state, q: '', sample: 'all', page: 1 })
  }

  const list = loaded?.list
  const shown = loaded?.state ?? state
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1
  const writer = can(me, 'relationships:write')

  return (
    <section class="households-list">
      <div class="page-title-row">
        <PageHeading title="Households">Households</PageHeading>
        {writer && (
          <a class="button primary" href="/households/new">
            New household
          </a>
        )}
      </div>
      {flash && (
        <p class="notice success" role="status">
          {flash}
        </p>
      )}

      <form
        class="toolbar list-controls"
        role="search"
        aria-label="Households"
        onSubmit={(event) => {
          event.preventDefault()
          applySearchNow()
        }}
      >
        <div class="field search-field">
          <label for="household-search">Search</label>
          <input
            id="household-search"
            type="search"
            name="q"
            value={draft}
            maxLength={SEARCH_MAX}
            autocomplete="off"
            aria-describedby="household-search-hint"
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
          <p class="hint" id="household-search-hint">
            Household, member or deceased spouse name
          </p>
        </div>
        <div class="field">
          <label for="household-sample">Show</label>
          <select
            id="household-sample"
            value={state.sample}
            onChange={(event) => go({ ...state, sample: event.currentTarget.value as SampleFilter, page: 1 })}
          >
            <option value="all">All households</option>
            <option value="exclude">Without samples</option>
            <option value="only">Only samples</option>
          </select>
        </div>
        <div class="field">
          <label for="household-page-size">Per page</label>
          <select
            id="household-page-size"
            value={String(state.size)}
            onChange={(event) => go({ ...state, size: Number(event.currentTarget.value), page: 1 })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </form>

      <p class="list-status" role="status" aria-live="polite" aria-atomic="true">
        {list ? statusText(list, shown) : loading ? 'Loading households…' : ''}
      </p>

      {error && <LoadError what="Households" error={error} onRetry={() => setAttempt((n) => n + 1)} />}

      {list && list.households.length > 0 && (
        <HouseholdTable
          households={list.households}
          state={shown}
          busy={loading}
          onSort={(key) => go(sortedBy(state, key))}
        />
      )}

      {list?.households.length === 0 && (
        <EmptyState list={list} state={shown} pages={pages} writer={writer} onClear={clearFilters} />
      )}

      {list && list.total > 0 && (
        <nav class="pagination" aria-label="Pages">
          <PageLink state={shown} page={shown.page - 1} disabled={shown.page <= 1} rel="prev">
            Previous
          </PageLink>
          <span>
            Page {formatCount(Math.min(shown.page, pages))} of {formatCount(pages)}
          </span>
          <PageLink state={shown} page={shown.page + 1} disabled={shown.page >= pages} rel="next">
            Next
          </PageLink>
        </nav>
      )}
    </section>
  )
}

function statusText(list: HouseholdList, state: ListState): string {
  const matching = state.q ? ` matching “${state.q}”` : ''
  if (list.total === 0) return state.q || state.sample !== 'all' ? `No households${matching}.` : 'No households yet.'
  if (list.households.length === 0)
    return `No households on page ${formatCount(state.page)}; there are ${plural(list.total, 'household')}${matching}.`
  const first = (list.page - 1) * list.pageSize + 1
  const last = first + list.households.length - 1
  return `Showing ${formatCount(first)}–${formatCount(last)} of ${plural(list.total, 'household')}${matching}.`
}

const COLUMNS: { key: SortKey; label: string; class?: string }[] = [
  { key: 'name', label: 'Household' },
  { key: 'members', label: 'Members', class: 'number' },
  { key: 'createdAt', label: 'Created' },
]

function SortHeader({
  column,
  state,
  onSort,
}: {
  column: (typeof COLUMNS)[number]
  state: ListState
  onSort: (key: SortKey) => void
}) {
  const active = state.sort === column.key
  const direction = state.order === 'asc' ? 'ascending' : 'descending'
  return (
    <th scope="col" class={column.class} aria-sort={active ? direction : undefined}>
      <button type="button" class="sort-button" onClick={() => onSort(column.key)}>
        {column.label}
        <span class="sort-indicator" aria-hidden="true">
          {active ? (state.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  )
}

function HouseholdTable({
  households,
  state,
  busy,
  onSort,
}: {
  households: HouseholdListItem[]
  state: ListState
  busy: boolean
  onSort: (key: SortKey) => void
}) {
  const [name, members, created] = COLUMNS as [
    (typeof COLUMNS)[number],
    (typeof COLUMNS)[number],
    (typeof COLUMNS)[number],
  ]
  return (
    <div class="table-scroll">
      <table class={busy ? 'households is-busy' : 'households'} aria-busy={busy ? 'true' : 'false'}>
        <caption class="visually-hidden">Households. Column headers with buttons sort the list.</caption>
        <thead>
          <tr>
            <SortHeader column={name} state={state} onSort={onSort} />
            <SortHeader column={members} state={state} onSort={onSort} />
            <th scope="col">People</th>
            <th scope="col">Advisors</th>
            <SortHeader column={created} state={state} onSort={onSort} />
          </tr>
        </thead>
        <tbody>
          {households.map((household) => (
            <tr key={household.id}>
              <th scope="row">
                <a href={`/households/${encodeURIComponent(household.id)}`}>{household.name}</a>
                {household.isSample && <span class="tag">Sample</span>}
              </th>
              <td class="number">{formatCount(household.counts.members)}</td>
              <td>{peopleText(household)}</td>
              <td>
                {household.assignments.length ? (
                  household.assignments.map((a) => a.name).join(', ')
                ) : (
                  <span class="muted">None</span>
                )}
              </td>
              <td>
                <time dateTime={household.createdAt}>{formatDate(household.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function peopleText(household: HouseholdListItem): string {
  const names = household.members.slice(0, 3).map((m) => m.name)
  const more = household.counts.members - names.length
  return more > 0 ? `${names.join(', ')} and ${formatCount(more)} more` : names.join(', ')
}

function EmptyState({
  list,
  state,
  pages,
  writer,
  onClear,
}: {
  list: HouseholdList
  state: ListState
  pages: number
  writer: boolean
  onClear: () => void
}) {
  if (list.total > 0) {
    return (
      <div class="empty">
        <p>This page is past the end of the list.</p>
        <p>
          <a href={listUrl({ ...state, page: pages })}>Go to the last page ({formatCount(pages)})</a>
        </p>
      </div>
    )
  }
  if (isFiltered(state)) {
    return (
      <div class="empty">
        <p>{state.q ? `No households match “${state.q}”.` : 'No households match this filter.'}</p>
        <p>
          <button type="button" onClick={onClear}>
            {state.q ? 'Clear the search' : 'Show all households'}
          </button>
        </p>
      </div>
    )
  }
  return (
    <div class="empty">
      <p>Your organization has no households yet.</p>
      {writer ? (
        <p>
          <a class="button primary" href="/households/new">
            Create the first household
          </a>
        </p>
      ) : (
        <p>When an advisor creates one, it appears here.</p>
      )}
    </div>
  )
}

function PageLink({
  state,
  page,
  disabled,
  rel,
  children,
}: {
  state: ListState
  page: number
  disabled: boolean
  rel: string
  children: string
}) {
  if (disabled) {
    return (
      <span class="button" aria-disabled="true">
        {children}
      </span>
    )
  }
  return (
    <a class="button" href={listUrl({ ...state, page })} rel={rel}>
      {children}
    </a>
  )
}
