// The text version of the chart: every person, entity, relationship and link in words.
import type { Payload } from '../payload.ts'
import { compactValue, entityDescription, personDescription } from './format.ts'

const REL: Record<string, string> = {
  spouse: 'spouse of',
  partner: 'partner of',
  exSpouse: 'former spouse of',
  parent: 'parent of',
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, parent: Element, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = text
  parent.append(e)
  return e
}

function section(parent: Element, title: string, items: string[]): void {
  if (!items.length) return
  el('h3', parent, title)
  const ul = el('ul', parent)
  for (const t of items) el('li', ul, t)
}

export function textAlternative(payload: Payload): HTMLDetailsElement {
  const details = document.createElement('details')
  details.className = 'hc-text'
  el('summary', details, 'Text version')
  const body = el('div', details)
  body.className = 'hc-text-body'
  const names = new Map<string, string>()
  for (const p of payload.people) names.set(p.id, p.name)
  for (const e of payload.entities ?? []) names.set(e.id, e.name)
  const nameOf = (id: string) => names.get(id) ?? id
  const exact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

  section(body, `People (${payload.people.length})`, payload.people.map(personDescription))
  const ents = payload.entities ?? []
  section(
    body,
    `Entities (${ents.length})`,
    ents.map((e) =>
      entityDescription(e).replace(`value ${compactValue(e.value ?? 0)}`, `value ${exact.format(e.value ?? 0)}`),
    ),
  )
  section(
    body,
    'Family relationships',
    (payload.relationships ?? []).map((r) => `${nameOf(r.from)} — ${REL[r.type] ?? r.type} — ${nameOf(r.to)}`),
  )
  section(
    body,
    'Roles in entities',
    (payload.links ?? []).map(
      (l) =>
        `${nameOf(l.from)} — ${l.type}${l.share !== undefined ? ` (${+l.share.toFixed(2)}%)` : ''} of — ${nameOf(l.to)}`,
    ),
  )
  return details
}
