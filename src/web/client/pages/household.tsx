// /households/{id}: one household — its details, people, estate, advisors and chart — and, for
// writers, every change to them. The page holds the household's ETag (one version for the
// household, its members, entities, links and assignments); every write sends it as If-Match. When someone else changed the
// household first (412), the page reloads and says so in words; nothing is overwritten.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiProblem, type ApiResponse } from '../api.ts'
import { navigate } from '../router.ts'
import { can, useMe } from '../session.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { DetailsSection } from '../households/details-section.tsx'
import { MembersSection } from '../households/members-section.tsx'
import { EstateSection } from '../households/estate-section.tsx'
import { AssignmentsSection } from '../households/assignments-section.tsx'
import { HouseholdChart } from '../households/household-chart.tsx'
import { setFlash } from '../households/flash.ts'
import { plural, problemText } from '../format.ts'
import type { Editor, HouseholdPageContext, WriteResult } from '../households/household-writes.ts'
import type { User, UserList } from '../../../schemas/organization.ts'
import type { Member } from '../../../schemas/member.ts'
import type { Household } from '../../../schemas/household.ts'
import type { Entity, Link } from '../households/estate-wire.ts'

const CONFLICT_MESSAGE =
  'Someone else changed this household while you were working on it, so your change was not saved. The page now shows their version: check it, then make your change again.'

interface Snapshot {
  household: Household
  members: Member[]
  entities: Entity[]
  links: Link[]
  etag: string
}

type LoadState =
  | { kind: 'loading' }
  | { kind: 'notFound' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; snapshot: Snapshot }

type Notice = { kind: 'success' | 'conflict' | 'error'; text: string } | null

export function HouseholdPage({ id }: { id: string }) {
  // A new id is a new page: nothing (drafts, open editors, the chart) carries over.
  return <HouseholdView key={id} id={id} />
}

/** The household, its members, entities and links at one version (read again if a change landed between the reads). */
async function readSnapshot(id: string): Promise<Snapshot> {
  const path = `/api/v1/relationships/${encodeURIComponent(id)}`
  for (let attempt = 0; ; attempt++) {
    const [household, members, entities, links] = await Promise.all([
      api<{ household: Household }>(path),
      api<{ members: Member[] }>(`${path}/members`),
      api<{ entities: Entity[] }>(`${path}/entities`),
      api<{ links: Link[] }>(`${path}/links`),
    ])
    const versions = new Set([household.etag, members.etag, entities.etag, links.etag])
    if ((versions.size === 1 && household.etag) || attempt >= 2) {
      return {
        household: household.body.household,
        members: members.body.members,
        entities: entities.body.entities,
        links: links.body.links,
        etag: household.etag ?? members.etag ?? '*',
      }
    }
  }
}

function HouseholdView({ id }: { id: string }) {
  const me = useMe()
  const canWrite = can(me, 'relationships:write')
  const [load, setLoad] = useState<LoadState>({ kind: 'loading' })
  const [users, setUsers] = useState<User[] | null>(null)
  const [editor, setEditorState] = useState<Editor>(null)
  const [notice, setNotice] = useState<Notice>(null)
  const deletion = useConfirmation<Household>()
  const alertRef = useRef<HTMLDivElement>(null)
  const etag = useRef<string>('')
  const alive = useRef(true)

  const reload = async (): Promise<boolean> => {
    try {
      const snapshot = await readSnapshot(id)
      if (!alive.current) return false
      etag.current = snapshot.etag
      setLoad({ kind: 'ready', snapshot })
      return true
    } catch (problem) {
      if (!alive.current) return false
      if (problem instanceof ApiProblem && problem.status === 404) setLoad({ kind: 'notFound' })
      else setLoad((current) => (current.kind === 'ready' ? current : { kind: 'error', message: problemText(problem) }))
      if (!(problem instanceof ApiProblem && problem.status === 404))
        setNotice({ kind: 'error', text: `The household could not be read again: ${problemText(problem)}` })
      return false
    }
  }

  useEffect(() => {
    alive.current = true
    void reload()
    if (can(me, 'org:admin')) {
      api<UserList>('/api/v1/users').then(
        ({ body }) => alive.current && setUsers(body.users),
        () => undefined, // Without the list, admins edit assignments as everyone else does.
      )
    }
    return () => {
      alive.current = false
    }
  }, [])

  const focusAlert = () => requestAnimationFrame(() => alertRef.current?.focus())

  const setEditor = (next: Editor) => {
    // Opening an editor clears the last message; closing one (after a save) keeps "Saved".
    if (next !== null) setNotice(null)
    setEditorState(next)
  }

  const conflict = async () => {
    setEditorState(null)
    await reload()
    setNotice({ kind: 'conflict', text: CONFLICT_MESSAGE })
    focusAlert()
  }

  async function write<T>(
    request: (ifMatch: string) => Promise<ApiResponse<T>>,
    success?: string,
  ): Promise<WriteResult<T>> {
    setNotice(null)
    let response: ApiResponse<T>
    try {
      response = await request(etag.current)
    } catch (problem) {
      if (problem instanceof ApiProblem && problem.status === 412) {
        await conflict()
        return { ok: false }
      }
      if (problem instanceof ApiProblem && problem.status === 404) {
        setEditorState(null)
        setLoad({ kind: 'notFound' })
        return { ok: false }
      }
      throw problem
    }
    if (response.etag) etag.current = response.etag
    await reload()
    if (success) setNotice({ kind: 'success', text: success })
    return { ok: true, value: response.body }
  }

  async function deleteHousehold(household: Household) {
    try {
      await api<null>(`/api/v1/relationships/${household.id}`, {
        method: 'DELETE',
        headers: { 'if-match': etag.current },
      })
      setFlash(`The household “${household.name}” was deleted.`)
      navigate('/households')
    } catch (problem) {
      if (problem instanceof ApiProblem && problem.status === 412) {
        deletion.close()
        await conflict()
      } else if (problem instanceof ApiProblem && problem.status === 404) {
        deletion.close()
        setLoad({ kind: 'notFound' })
      } else {
        throw problem
      }
    }
  }

  const announcements = (
    <>
      <div
        ref={alertRef}
        tabIndex={-1}
        role="alert"
        class={notice && notice.kind !== 'success' ? 'notice error page-notice' : 'page-notice-empty'}
      >
        {notice && notice.kind !== 'success' ? notice.text : ''}
      </div>
      <div role="status" class={notice?.kind === 'success' ? 'notice success page-notice' : 'page-notice-empty'}>
        {notice?.kind === 'success' ? notice.text : ''}
      </div>
    </>
  )

  if (load.kind === 'loading') {
    return (
      <p class="loading" role="status">
        Loading the household…
      </p>
    )
  }
  if (load.kind === 'notFound') {
    return (
      <section class="message-view">
        <PageHeading title="Household not found">This household does not exist or was deleted</PageHeading>
        <p>It may have been deleted by someone else, or the link may be wrong.</p>
        <p>
          <a href="/households">Go to households</a>
        </p>
      </section>
    )
  }
  if (load.kind === 'error') {
    return (
      <section class="message-view">
        <PageHeading title="Household could not be loaded">This household could not be loaded</PageHeading>
        <p role="alert">{load.message}</p>
        <p>
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>{' '}
          <a href="/households">Go to households</a>
        </p>
      </section>
    )
  }

  const { household, members, entities, links } = load.snapshot
  const page: HouseholdPageContext = {
    household,
    members,
    entities,
    links,
    users,
    canWrite,
    editor,
    setEditor,
    write,
  }

  return (
    <article class="household-page">
      <p class="breadcrumb">
        <a href="/households">Households</a>
      </p>
      <div class="page-title-row">
        <PageHeading title={household.name}>{household.name}</PageHeading>
        {household.isSample && <span class="tag">Sample</span>}
      </div>
      <p class="muted household-summary">
        {plural(members.length, 'person', 'people')} ·{' '}
        {household.assignments.length
          ? `looked after by ${household.assignments.map((a) => a.name).join(', ')}`
          : 'no advisor assigned'}
      </p>
      {!canWrite && (
        <p class="notice read-only-note">Your role ({me.user.role}) can look at this household but not change it.</p>
      )}
      {announcements}

      <DetailsSection page={page} />
      <MembersSection page={page} />
      <EstateSection page={page} />
      <AssignmentsSection page={page} />

      <section aria-labelledby="chart-heading" class="household-section">
        <h2 id="chart-heading">Chart</h2>
        {can(me, 'embed:chart') ? (
          <HouseholdChart householdId={household.id} householdName={household.name} version={load.snapshot.etag} />
        ) : (
          <p class="muted">
            Your role ({me.user.role}) does not include the household chart. An admin can give you the advisor role.
          </p>
        )}
      </section>

      {canWrite && (
        <section aria-labelledby="danger-heading" class="household-section danger-zone">
          <h2 id="danger-heading">Delete</h2>
          <p>Deleting removes the household with its people, estate and advisors. It cannot be undone.</p>
          <button type="button" class="danger" onClick={() => deletion.ask(household)}>
            Delete household
          </button>
          {/* The household as the page shows it now: a save still under way may have renamed it. */}
          {deletion.subject && (
            <ConfirmDialog
              title={`Delete ${household.name}?`}
              confirmLabel="Delete household"
              busy={deletion.busy}
              error={deletion.error}
              onConfirm={() => void deletion.run(() => deleteHousehold(household))}
              onCancel={() => deletion.close()}
            >
              <p>
                <strong>{household.name}</strong> and its {plural(members.length, 'person', 'people')} will be deleted
                for everyone in your organization. This cannot be undone.
              </p>
            </ConfirmDialog>
          )}
        </section>
      )}
    </article>
  )
}
