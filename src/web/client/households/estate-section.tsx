// The household's estate: its trusts, business entities, charities, holdings and parties, with
// their values and estate side, and who holds what (grantor, trustee, beneficiary with a share,
// owner…). Writers add, change and remove entities and add and remove links, each under If-Match
// with the household's ETag; a refusal goes next to the field the API's pointer names.
import { Fragment, type ComponentChildren } from 'preact'
import { useRef, useState } from 'preact/hooks'
import { api, type ApiResponse } from '../api.ts'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { FormSummary } from '../components/fields.tsx'
import { formatDay, plural } from '../format.ts'
import type { HouseholdPageContext } from './household-writes.ts'
import { EditorActions, useEditorForm } from './section-editor.tsx'
import {
  EMPTY_ENTITY_DRAFT,
  ENTITY_LABELS,
  entityCreateBody,
  entityDraftOf,
  EntityFields,
  entityPatch,
  ESTATE_WORDS,
  type EntityDraft,
} from './entity-fields.tsx'
import {
  BENEFICIARY_TYPE_LABELS,
  EMPTY_LINK_DRAFT,
  LINK_LABELS,
  LINK_TYPE_LABELS,
  linkCreateBody,
  LinkFields,
  linkTypesFor,
  type LinkDraft,
} from './link-fields.tsx'
import { entityKindLabel } from '../../../domain/estate-vocabulary.ts'
import type { Entity, Link } from './estate-wire.ts'

const COLUMNS = 6

/** A link in words, as read from the entity it is to: "Margaret Whitfield — Beneficiary, 50 % (primary)". */
function linkWords(link: Link, names: ReadonlyMap<string, string>): { who: string; role: string } {
  const details = [
    link.share === null ? null : `${link.share} %`,
    link.beneficiaryType === null ? null : BENEFICIARY_TYPE_LABELS[link.beneficiaryType].toLowerCase(),
  ].filter((part) => part !== null)
  return {
    who: names.get(link.from) ?? 'someone no longer in the household',
    role: `${LINK_TYPE_LABELS[link.type]}${details.length > 0 ? `, ${details.join(', ')}` : ''}`,
  }
}

/** An amount in the household's currency (an ISO 4217 code; a code the browser does not know is written after the number). */
function moneyIn(currency: string | null | undefined, value: number): string {
  const code = currency ?? 'USD'
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: code, minimumFractionDigits: 0 }).format(
      value,
    )
  } catch {
    return `${new Intl.NumberFormat().format(value)} ${code}`
  }
}

function estateText(entity: Entity): string {
  if (entity.estate === null) return 'Party (no value)'
  return `${ESTATE_WORDS[entity.estate]}${entity.estateSet ? '' : ' (default)'}`
}

export function EstateSection({ page }: { page: HouseholdPageContext }) {
  const { entities, links, members, household } = page
  const removal = useConfirmation<Entity>()
  const addButton = useRef<HTMLButtonElement>(null)
  const editor = page.editor
  const adding = editor?.kind === 'newEntity'
  const names = new Map<string, string>([
    ...members.map((m): [string, string] => [m.id, m.name]),
    ...entities.map((e): [string, string] => [e.id, e.name]),
  ])

  const focusLater = (selector: string) =>
    requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus())

  async function remove(entity: Entity) {
    const result = await page.write(
      (ifMatch) =>
        api<null>(`/api/v1/relationships/${household.id}/entities/${entity.id}`, {
          method: 'DELETE',
          headers: { 'if-match': ifMatch },
        }),
      `${entity.name} was removed from the household.`,
    )
    removal.close()
    if (result.ok) focusLater('#estate-heading')
  }

  const removing = removal.subject
  const linksOf = (entity: Entity) => links.filter((link) => link.to === entity.id)

  return (
    <section aria-labelledby="estate-heading" class="household-section">
      <div class="section-title-row">
        <h2 id="estate-heading" tabIndex={-1}>
          Estate
        </h2>
        {page.canWrite && !adding && (
          <button type="button" ref={addButton} onClick={() => page.setEditor({ kind: 'newEntity' })}>
            Add an entity
          </button>
        )}
      </div>
      {entities.length === 0 ? (
        <p class="empty">
          {page.canWrite
            ? 'No trusts, businesses or holdings yet. Add the household’s trusts, entities and accounts, then who holds what.'
            : 'No trusts, businesses or holdings yet.'}
        </p>
      ) : (
        <div class="table-scroll">
          <table class="members estate">
            <caption class="visually-hidden">Trusts, entities and holdings of the household</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Value</th>
                <th scope="col">Estate</th>
                <th scope="col">Who holds what</th>
                {page.canWrite && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {entities.map((entity) => {
                const editing = editor?.kind === 'entity' && editor.entityId === entity.id
                const linking = editor?.kind === 'links' && editor.entityId === entity.id
                const own = linksOf(entity)
                return (
                  <Fragment key={entity.id}>
                    <tr class={editing || linking ? 'is-editing' : undefined}>
                      <th scope="row" class="member-name">
                        {entity.name}
                        {entity.shortName && <span class="muted"> ({entity.shortName})</span>}
                      </th>
                      <td>{entityKindLabel(entity.kind)}</td>
                      <td>
                        {entity.value === null ? '' : moneyIn(household.currency, entity.value)}
                        {entity.valueAsOf && <span class="muted"> as of {formatDay(entity.valueAsOf)}</span>}
                      </td>
                      <td>{estateText(entity)}</td>
                      <td>
                        {own.length > 0 && (
                          <ul class="plain">
                            {own.map((link) => {
                              const words = linkWords(link, names)
                              return (
                                <li key={link.id}>
                                  {words.who} — {words.role}
                                </li>
                              )
                            })}
                          </ul>
                        )}
                      </td>
                      {page.canWrite && (
                        <td class="actions">
                          <button
                            type="button"
                            id={`edit-entity-${entity.id}`}
                            disabled={editing}
                            onClick={() => page.setEditor({ kind: 'entity', entityId: entity.id })}
                          >
                            Edit<span class="visually-hidden"> {entity.name}</span>
                          </button>
                          {linkTypesFor(entity.kind).length > 0 && (
                            <button
                              type="button"
                              id={`links-entity-${entity.id}`}
                              disabled={linking}
                              onClick={() => page.setEditor({ kind: 'links', entityId: entity.id })}
                            >
                              Who holds what<span class="visually-hidden"> in {entity.name}</span>
                            </button>
                          )}
                          <button type="button" class="danger" onClick={() => removal.ask(entity)}>
                            Remove<span class="visually-hidden"> {entity.name}</span>
                          </button>
                        </td>
                      )}
                    </tr>
                    {editing && (
                      <tr class="editor-row">
                        <td colSpan={COLUMNS}>
                          <EntityForm
                            page={page}
                            entity={entity}
                            title={`Change ${entity.name}`}
                            onDone={() => {
                              page.setEditor(null)
                              focusLater(`#edit-entity-${CSS.escape(entity.id)}`)
                            }}
                          />
                        </td>
                      </tr>
                    )}
                    {linking && (
                      <tr class="editor-row">
                        <td colSpan={COLUMNS}>
                          <LinksEditor
                            page={page}
                            entity={entity}
                            links={own}
                            names={names}
                            onClose={() => {
                              page.setEditor(null)
                              focusLater(`#links-entity-${CSS.escape(entity.id)}`)
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
        <EntityForm
          page={page}
          title="Add an entity"
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
            <strong>{removing.name}</strong> will be removed from this household, with its value history and{' '}
            {plural(links.filter((link) => link.to === removing.id || link.from === removing.id).length, 'link')} to and
            from it. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}

function EntityForm({
  page,
  entity,
  title,
  onDone,
}: {
  page: HouseholdPageContext
  entity?: Entity
  title: ComponentChildren
  onDone: () => void
}) {
  const { household } = page
  const [draft, setDraft] = useState<EntityDraft>(() => (entity ? entityDraftOf(entity) : EMPTY_ENTITY_DRAFT))
  const { busy, formRef, form, send } = useEditorForm(page, onDone, 'input, select, textarea')
  const idPrefix = entity ? `entity-${entity.id}` : 'new-entity'

  async function save(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element || !form.checkNative(element)) return
    const base = `/api/v1/relationships/${household.id}/entities`
    let request: (ifMatch: string) => Promise<ApiResponse<unknown>>
    if (entity) {
      const patch = entityPatch(entity, draft)
      if (Object.keys(patch).length === 0) {
        onDone()
        return
      }
      request = (ifMatch) =>
        api(`${base}/${entity.id}`, { method: 'PATCH', body: patch, headers: { 'if-match': ifMatch } })
    } else {
      const body = entityCreateBody(draft)
      request = (ifMatch) => api(base, { method: 'POST', body, headers: { 'if-match': ifMatch } })
    }
    const name = draft.name.trim()
    await send(element, request, entity ? `${name} was saved.` : `${name} was added.`, ENTITY_LABELS)
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
      <EntityFields
        idPrefix={idPrefix}
        draft={draft}
        errors={form.errors}
        onChange={(next) => {
          setDraft(next)
          form.clear()
        }}
      />
      <EditorActions busy={busy} saveLabel={entity ? 'Save' : 'Add entity'} onCancel={onDone} />
    </form>
  )
}

/** One entity's links, each removable, and a form that adds one and stays open for the next. */
function LinksEditor({
  page,
  entity,
  links,
  names,
  onClose,
}: {
  page: HouseholdPageContext
  entity: Entity
  links: readonly Link[]
  names: ReadonlyMap<string, string>
  onClose: () => void
}) {
  const { household } = page
  const [draft, setDraft] = useState<LinkDraft>(EMPTY_LINK_DRAFT)
  const [removing, setRemoving] = useState<string | null>(null)
  // Saved: the form empties for the next link and takes the focus again.
  const { busy, formRef, form, send } = useEditorForm(
    page,
    () => {
      setDraft(EMPTY_LINK_DRAFT)
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('select')?.focus())
    },
    'select',
  )
  const idPrefix = `links-${entity.id}`
  const headingId = `${idPrefix}-title`

  async function add(event: Event) {
    event.preventDefault()
    const element = formRef.current
    if (busy || !element || !form.checkNative(element)) return
    const body = linkCreateBody(entity.id, draft)
    const who = names.get(draft.from) ?? 'The link'
    await send(
      element,
      (ifMatch) =>
        api(`/api/v1/relationships/${household.id}/links`, { method: 'POST', body, headers: { 'if-match': ifMatch } }),
      `${who} was added as ${LINK_TYPE_LABELS[body.type].toLowerCase()} of ${entity.name}.`,
      LINK_LABELS,
    )
  }

  async function remove(link: Link) {
    setRemoving(link.id)
    try {
      await page.write(
        (ifMatch) =>
          api<null>(`/api/v1/relationships/${household.id}/links/${link.id}`, {
            method: 'DELETE',
            headers: { 'if-match': ifMatch },
          }),
        `${names.get(link.from) ?? 'The link'} is no longer ${LINK_TYPE_LABELS[link.type].toLowerCase()} of ${entity.name}.`,
      )
      requestAnimationFrame(() => document.getElementById(`${idPrefix}-title`)?.focus())
    } catch (problem) {
      form.showProblem(formRef.current, problem, {})
    } finally {
      setRemoving(null)
    }
  }

  return (
    <div class="links-editor">
      <h3 id={headingId} tabIndex={-1}>
        Who holds what in {entity.name}
      </h3>
      {links.length === 0 ? (
        <p class="empty">No one holds a role in {entity.name} yet.</p>
      ) : (
        <ul class="plain link-list">
          {links.map((link) => {
            const words = linkWords(link, names)
            return (
              <li key={link.id}>
                {words.who} — {words.role}{' '}
                <button
                  type="button"
                  class="link danger"
                  disabled={removing !== null}
                  onClick={() => void remove(link)}
                >
                  Remove
                  <span class="visually-hidden">
                    {' '}
                    {words.who} as {words.role}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
      <form
        ref={formRef}
        noValidate
        class="member-form"
        aria-label={`Add who holds what in ${entity.name}`}
        aria-busy={busy ? 'true' : 'false'}
        onSubmit={(event) => void add(event)}
      >
        <FormSummary message={form.summary} summaryRef={form.summaryRef} />
        <LinkFields
          idPrefix={idPrefix}
          entity={entity}
          draft={draft}
          errors={form.errors}
          members={page.members}
          entities={page.entities}
          onChange={(next) => {
            setDraft(next)
            form.clear()
          }}
        />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Add'}
          </button>
          <button type="button" disabled={busy} onClick={onClose}>
            Done
          </button>
        </div>
      </form>
    </div>
  )
}
