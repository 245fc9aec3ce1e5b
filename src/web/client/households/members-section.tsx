// The household's people: who they are and how they are related; writers add, change and remove
// them (each under If-Match with the household's ETag, which every member change moves).
import { Fragment, type ComponentChildren } from 'preact'
import { useRef, useState } from 'preact/hooks'
import { api, type ApiResponse } from '../api.ts'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { FormSummary } from '../components/fields.tsx'
import { formatDay } from '../format.ts'
import { MEMBER_ROLE_LABELS } from './format.ts'
import type { HouseholdPageContext } from './household-writes.ts'
import { EditorActions, useEditorForm } from './section-editor.tsx'
import {
  EMPTY_MEMBER_DRAFT,
  MEMBER_LABELS,
  memberCreateBody,
  memberDraftOf,
  MemberFields,
  memberPatch,
  parentOfDraft,
  type MemberDraft,
} from './member-fields.tsx'
import { parentOfChanges, sendChildChanges } from './kinship-writes.ts'
import type { Member } from '../../../schemas/member.ts'

const RELATION_WORDS = {
  spouse: 'Spouse of',
  partner: 'Partner of',
  exSpouse: 'Former spouse of',
  parent: 'Child of',
} as const

/** How a member stands to the others, in words: their own relationships, then their children. */
function relationsOf(member: Member, members: readonly Member[]): { key: string; words: string; name: string }[] {
  const byId = new Map(members.map((m) => [m.id, m]))
  const own = member.relationships.map((r) => ({
    key: `${r.type}-${r.memberId}`,
    words: RELATION_WORDS[r.type],
    name: byId.get(r.memberId)?.name ?? 'a former member',
  }))
  const children = members
    .filter((m) => m.relationships.some((r) => r.memberId === member.id && r.type === 'parent'))
    .map((child) => ({ key: `child-${child.id}`, words: 'Parent of', name: child.name }))
  return [...own, ...children]
}

export function MembersSection({ page }: { page: HouseholdPageContext }) {
  const { members, household } = page
  const removal = useConfirmation<Member>()
  const addButton = useRef<HTMLButtonElement>(null)
  const editor = page.editor
  const adding = editor?.kind === 'newMember'

  const focusLater = (selector: string) =>
    requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus())

  async function remove(member: Member) {
    const result = await page.write(
      (ifMatch) =>
        api<null>(`/api/v1/relationships/${household.id}/members/${member.id}`, {
          method: 'DELETE',
          headers: { 'if-match': ifMatch },
        }),
      `${member.name} was removed from the household.`,
    )
    removal.close()
    if (result.ok) focusLater('#members-heading')
  }

  const removing = removal.subject

  return (
    <section aria-labelledby="members-heading" class="household-section">
      <div class="section-title-row">
        <h2 id="members-heading" tabIndex={-1}>
          People
        </h2>
        {page.canWrite && !adding && (
          <button type="button" ref={addButton} onClick={() => page.setEditor({ kind: 'newMember' })}>
            Add a person
          </button>
        )}
      </div>
      {members.length === 0 ? (
        <p class="empty">
          {page.canWrite
            ? 'No one is in this household yet. Add the clients and their family.'
            : 'No one is in this household yet.'}
        </p>
      ) : (
        <div class="table-scroll">
          <table class="members">
            <caption class="visually-hidden">People of the household</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Born</th>
                <th scope="col">Died</th>
                <th scope="col">Email</th>
                <th scope="col">Relationships</th>
                {page.canWrite && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {members.map((member) => {
                const editing = editor?.kind === 'member' && editor.memberId === member.id
                const relations = relationsOf(member, members)
                return (
                  <Fragment key={member.id}>
                    <tr class={editing ? 'is-editing' : undefined}>
                      <th scope="row" class="member-name">
                        {member.name}
                      </th>
                      <td>{MEMBER_ROLE_LABELS[member.role]}</td>
                      <td>{member.birthDate ? formatDay(member.birthDate) : ''}</td>
                      <td>{member.deathDate ? `† ${formatDay(member.deathDate)}` : ''}</td>
                      <td class="email">{member.email ?? ''}</td>
                      <td>
                        {relations.length > 0 && (
                          <ul class="plain">
                            {relations.map((r) => (
                              <li key={r.key}>
                                {r.words} {r.name}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      {page.canWrite && (
                        <td class="actions">
                          <button
                            type="button"
                            id={`edit-member-${member.id}`}
                            disabled={editing}
                            onClick={() => page.setEditor({ kind: 'member', memberId: member.id })}
                          >
                            Edit<span class="visually-hidden"> {member.name}</span>
                          </button>
                          <button type="button" class="danger" onClick={() => removal.ask(member)}>
                            Remove<span class="visually-hidden"> {member.name}</span>
                          </button>
                        </td>
                      )}
                    </tr>
                    {editing && (
                      <tr class="editor-row">
                        <td colSpan={7}>
                          <MemberForm
                            page={page}
                            member={member}
                            title={`Change ${member.name}`}
                            onDone={() => {
                              page.setEditor(null)
                              focusLater(`#edit-member-${CSS.escape(member.id)}`)
                            }}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {adding && (
        <MemberForm
          page={page}
          title="Add a person"
          onDone={() => {
            page.setEditor(null)
            requestAnimationFrame(() => addButton.current?.focus())
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          confirmLabel="Remove"
          busy={removal.busy}
          error={removal.error}
          onConfirm={() => void removal.run(remove)}
          onCancel={() => removal.close()}
        >
          <p>
            <strong>{removing.name}</strong> will be removed from this household, with their relationships to the
            others. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}

function MemberForm({
  page,
  member,
  title,
  onDone,
}: {
  page: HouseholdPageContext
  member?: Member
  title: ComponentChildren
  onDone: () => void
}) {
  const { household } = page
  const [draft, setDraft] = useState<MemberDraft>(() =>
    member ? memberDraftOf(member, page.members) : EMPTY_MEMBER_DRAFT,
  )
  const { busy, formRef, form, send } = useEditorForm(page, onDone, 'input, select, textarea')
  const others = page.members.filter((m) => m.id !== member?.id)
  const idPrefix = member ? `member-${member.id}` : 'new-member'

  async function save(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element || !form.checkNative(element)) return
    const base = `/api/v1/relationships/${household.id}/members`
    const parentOf = parentOfDraft(draft)
    let request: (ifMatch: string) => Promise<ApiResponse<unknown>>
    if (member) {
      const patch = memberPatch(member, draft)
      const children = parentOfChanges(member.id, parentOf, page.members)
      if (Object.keys(patch).length === 0 && children.length === 0) {
        onDone()
        return
      }
      // The children first: a parent link they drop frees the pair for this member's own kinship.
      request = async (ifMatch) => {
        const etag = await sendChildChanges(household.id, children, ifMatch)
        if (Object.keys(patch).length === 0) return { body: null, etag }
        return api(`${base}/${member.id}`, { method: 'PATCH', body: patch, headers: { 'if-match': etag ?? ifMatch } })
      }
    } else {
      const body = memberCreateBody(draft)
      request = async (ifMatch) => {
        const created = await api<{ member: Member }>(base, { method: 'POST', body, headers: { 'if-match': ifMatch } })
        const children = parentOfChanges(created.body.member.id, parentOf, page.members)
        return { body: created.body, etag: await sendChildChanges(household.id, children, created.etag) }
      }
    }
    const name = draft.name.trim()
    await send(element, request, member ? `${name} was saved.` : `${name} was added.`, MEMBER_LABELS)
  }

  const headingId = `${idPrefix}-form-title`
  return (
    <form
      ref={formRef}
      noValidate
      class="member-form"
      aria-labelledby={headingId}
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void save(event)}
    >
      <h3 id={headingId}>{title}</h3>
      <FormSummary message={form.summary} summaryRef={form.summaryRef} />
      <MemberFields
        idPrefix={idPrefix}
        draft={draft}
        errors={form.errors}
        others={others}
        onChange={(next) => {
          setDraft(next)
          form.clear()
        }}
      />
      <EditorActions busy={busy} saveLabel={member ? 'Save' : 'Add person'} onCancel={onDone} />
    </form>
  )
}
