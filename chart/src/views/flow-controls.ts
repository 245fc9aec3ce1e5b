// The Flow view's controls: who dies first (two radio buttons, only when two clients are living) and
// the year of each death (number inputs from the first year of the exclusion table to 2200, the second
// never before the first). A change is committed when the reader leaves the field or presses Enter
// (not on each keystroke: "20" on the way to "2030" is no year), then handed to onChange as the
// projection's choices; show() puts the years the projection used back in the fields (a year out of
// range comes back clamped, as projectEstate clamps it). flowChoicesOf(projection) gives the choices
// that make a projection again: the view shell starts from them when it is drawn anew (main.ts keeps
// them across an appearance redraw).
import { PROJECTION_YEARS } from '../flow/federal-estate-tax.ts'
import type { ProjectionChoices } from '../flow/project-estate.ts'
import type { EstateProjection } from '../flow/projection-types.ts'
import { htmlElement } from './dom.ts'

/** The first year the exclusion table knows; the payload's own limits (PAYLOAD_LIMITS) are the same years. */
const FIRST_YEAR = PROJECTION_YEARS.first
const LAST_YEAR = PROJECTION_YEARS.last

export interface FlowClient {
  readonly id: string
  readonly name: string
}

export interface FlowControls {
  /** The projection drawn now: the fields show its order and years. */
  show(projection: EstateProjection): void
}

/** What the reader chooses in the Flow view: who dies first and the years (the view shell carries them across redraws). */
export type FlowChoices = Pick<ProjectionChoices, 'firstDeath' | 'firstDeathYear' | 'secondDeathYear'>

/** The choices that make `projection` again: its order and years, as the projection used them. */
export function flowChoicesOf(projection: EstateProjection): FlowChoices {
  const { order, years } = projection.assumptions
  return {
    ...(order[0] === undefined ? {} : { firstDeath: order[0] }),
    ...(years[0] === undefined ? {} : { firstDeathYear: years[0] }),
    ...(years[1] === undefined ? {} : { secondDeathYear: years[1] }),
  }
}

function yearField(parent: Element, id: string, label: string): HTMLInputElement {
  const field = htmlElement('div', 'hv-flow-field', parent)
  const labelElement = htmlElement('label', 'hv-flow-label', field, label)
  labelElement.htmlFor = id
  const input = htmlElement('input', 'hv-flow-year', field)
  input.type = 'number'
  input.id = id
  input.min = String(FIRST_YEAR)
  input.max = String(LAST_YEAR)
  input.step = '1'
  input.inputMode = 'numeric'
  return input
}

export function createFlowControls(
  parent: Element,
  clients: readonly FlowClient[],
  idPrefix: string,
  onChange: (choices: FlowChoices) => void,
  signal: AbortSignal,
): FlowControls {
  const bar = htmlElement('div', 'hv-flow-controls', parent)
  let shown: EstateProjection | null = null
  const choices = (): FlowChoices => flowChoicesOf(shown!)

  const radios: HTMLInputElement[] = []
  if (clients.length === 2) {
    const fieldset = htmlElement('fieldset', 'hv-flow-order', bar)
    htmlElement('legend', 'hv-flow-label', fieldset, 'Who dies first')
    for (const client of clients) {
      const label = htmlElement('label', 'hv-flow-choice', fieldset)
      const radio = htmlElement('input', '', label)
      radio.type = 'radio'
      radio.name = `${idPrefix}-first`
      radio.value = client.id
      label.append(client.name)
      radio.addEventListener(
        'change',
        () => {
          if (radio.checked && shown !== null) onChange({ ...choices(), firstDeath: client.id })
        },
        { signal },
      )
      radios.push(radio)
    }
  }

  const years = [yearField(bar, `${idPrefix}-first-year`, 'First death in')]
  if (clients.length === 2) years.push(yearField(bar, `${idPrefix}-second-year`, 'Second death in'))
  years.forEach((input, k) => {
    const commit = () => {
      if (shown === null) return
      const now = shown.assumptions.years[k]
      const typed = Math.trunc(Number(input.value))
      if (input.value.trim() === '' || !Number.isFinite(typed) || typed === now) {
        input.value = String(now)
        return
      }
      const year = Math.min(LAST_YEAR, Math.max(FIRST_YEAR, typed))
      const next = { ...choices() }
      if (k === 0) {
        next.firstDeathYear = year
        // The second death moves with the first when it would come before it.
        if (next.secondDeathYear !== undefined) next.secondDeathYear = Math.max(year, next.secondDeathYear)
      } else next.secondDeathYear = Math.max(next.firstDeathYear ?? FIRST_YEAR, year)
      onChange(next)
    }
    input.addEventListener('change', commit, { signal })
    input.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Enter') commit()
      },
      { signal },
    )
  })

  return {
    show(projection) {
      shown = projection
      const { order, years: drawnYears } = projection.assumptions
      for (const radio of radios) radio.checked = radio.value === order[0]
      years.forEach((input, k) => {
        const year = drawnYears[k]
        input.disabled = year === undefined
        if (year !== undefined) input.value = String(year)
      })
      if (years[1] !== undefined && drawnYears[0] !== undefined) years[1].min = String(drawnYears[0])
    },
  }
}
