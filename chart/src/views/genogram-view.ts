// The 0.2.0 Family view: the household as a genogram readable at every size. The SVG is drawn at its
// natural size (no text below 11 CSS px) in a scrolling frame, so a wide family pans instead of
// shrinking; a large one opens with its deepest generations folded (collapse.ts foldToFit) and each
// folded person has a "+N descendants" button that opens the fold (and a "Fold" button to close it
// again); a search by name opens only the folds that hide a match and focuses the first. Positions
// come from the 0.1.x layout of the shown people (genogram-model.ts layoutShown); the text is this
// view's own, measured with the canvas: names cut with an ellipsis in their own direction, years and
// marriage dates never cut, parent lines styled by parent kind, former and widowed from the kinship.
// Under the genogram, the estate strip (estate-strip.ts) keeps the estate on screen at open; the
// lines between people and entities are drawn for the selected node only (genogram-link-lines.ts).
// Text is measured and drawn in the host's font family and cards take its corner radius.
import type { Theme } from '../../payload.ts'
import { summarizePerson } from '../estate/summary-person.ts'
import { rolePhrase } from '../estate/summary-roles.ts'
import { findPeople, foldFamily, foldToFit } from '../family/collapse.ts'
import {
  coupleOf,
  descentKind,
  firstViewBudget,
  foldsHiding,
  kinshipWord,
  layoutShown,
  lifeYears,
  marriageLines,
  phrasesLine,
} from '../family/genogram-model.ts'
import type { ChartLayout, Edge, NodeBox, Pt } from '../layout.ts'
import { baseDirection } from '../text/direction.ts'
import { fitText, fitWithTail } from '../text/fit-text.ts'
import { canvasMeasure, cssFont } from '../text/measure.ts'
import type { Appearance } from './appearance.ts'
import { htmlElement, svgElement } from './dom.ts'
import { nodeName } from './node-names.ts'
import { drawEstateStrip, type DrawnStrip } from './estate-strip.ts'
import { drawLinkLines } from './genogram-link-lines.ts'
import { drawLinkLegend } from './genogram-link-legend.ts'
import { familyLinksOf } from './genogram-links.ts'
import { cornerRadiusOf, fontFamilyOf } from './host-appearance.ts'
import type { SelectedKind } from './selection.ts'
import type { DrawnView, ViewHousehold, ViewPerson } from './view-types.ts'

/** The Family view as the shell drives it: a drawn view that also follows the shell's theme. */
export interface FamilyView extends DrawnView {
  setTheme(theme: Theme): void
}

const NAME_SIZE = 13
/** The smallest text the genogram sets (its sub-lines and fold buttons): what printing keeps legible. */
export const LINE_SIZE = 11
const BOLD = 600
const REGULAR = 400
const PAD = 10
/** Baselines of the name, the kinship-and-years line and the marriage-or-roles line in a 54 px box. */
const BASELINES = [19, 34, 48] as const
const PILL_H = 17
/** The frame width to fold for when the panel is hidden at draw time (the chart's default frame). */
const DEFAULT_FRAME = 1100
/** The frame's padding on each side (genogram.css .hv-gn-estate): the strip wraps inside it. */
const STRIP_INSET = 16

/** Numbers the search box of each drawn view, for its label's `for`. */
let serial = 0
const rounded = (value: number) => Math.round(value * 2) / 2
const pathData = (points: readonly Pt[]) => 'M' + points.map(([x, y]) => `${rounded(x)} ${rounded(y)}`).join('L')

interface BoxText {
  text: string
  size: number
  bold: boolean
  className: string
}

export function drawGenogramView(
  panel: HTMLElement,
  household: ViewHousehold,
  theme: Theme,
  onSelect: (id: string, kind: SelectedKind) => void,
  appearance: Appearance = {},
): FamilyView {
  const controller = new AbortController()
  const { signal } = controller
  const fontFamily = fontFamilyOf(appearance)
  const radius = cornerRadiusOf(appearance)
  const measureName = canvasMeasure(cssFont(NAME_SIZE, BOLD, fontFamily))
  const measureLine = canvasMeasure(cssFont(LINE_SIZE, REGULAR, fontFamily))
  const people = new Map(household.people.map((person) => [person.id, person]))
  const relationships = household.relationships ?? []
  const marriages = new Map<string, string[]>()
  const marriageText = (id: string, max: number) => (marriages.get(id) ?? []).find((line) => measureLine(line) <= max)

  const frame = htmlElement('div', 'hv-genogram', panel)
  frame.dataset.theme = theme
  // The selection's lines, under everything else in the frame (genogram.css).
  const linkLayer = svgElement('svg', { class: 'hv-gn-links', 'aria-hidden': 'true' }, frame)
  const form = htmlElement('form', 'hv-gn-find', frame)
  form.setAttribute('role', 'search')
  const inputId = `hv-gn-find-${++serial}`
  const label = htmlElement('label', 'hv-gn-find-label', form, 'Find a person')
  label.htmlFor = inputId
  const input = htmlElement('input', 'hv-gn-find-input', form)
  input.type = 'search'
  input.id = inputId
  input.autocomplete = 'off'
  htmlElement('button', 'hv-gn-find-button', form, 'Find').type = 'submit'
  const status = htmlElement('p', 'hv-gn-status', form)
  status.setAttribute('role', 'status')
  const scroller = htmlElement('div', 'hv-gn-scroll', frame)
  const frameWidth = panel.clientWidth > 0 ? panel.clientWidth : DEFAULT_FRAME
  const strip = drawStrip(frame, household, fontFamily, radius, frameWidth - 2 * STRIP_INSET)
  drawLegend(frame)
  let folded = foldToFit(household, firstViewBudget(frameWidth))
  /** Every person whose branch was folded, at open or since: each shown one keeps a fold button. */
  const foldable = new Set(folded)
  let found = new Set<string>()
  let selectedId: string | null = null
  let groups = new Map<string, SVGGElement>()
  /** The boxes of the last drawing, by person. */
  let placed = new Map<string, NodeBox>()

  for (const line of marriageLines(household)) {
    // The line with its order first; the short form when the box is too narrow for it.
    marriages.set(line.holder, [...(marriages.get(line.holder) ?? []), line.text, line.short])
  }

  function render(): void {
    const { shown, hiddenBy } = foldFamily(household, folded)
    const layout = layoutShown(household, shown)
    const svg = svgElement(
      'svg',
      {
        class: 'hv-gn-svg',
        width: layout.width,
        height: layout.height,
        viewBox: `0 0 ${layout.width} ${layout.height}`,
        role: 'group',
        'aria-label': `${household.household.name}: the family. Tab moves between people; Enter selects.`,
        'font-family': fontFamily,
      },
      scroller,
    )
    scroller.replaceChildren(svg)
    drawEdges(svgElement('g', { class: 'hv-gn-edges' }, svg), layout)
    const boxLayer = svgElement('g', { class: 'hv-gn-boxes' }, svg)
    groups = new Map()
    placed = new Map(layout.boxes.map((box) => [box.id, box]))
    const ordered = layout.boxes.filter((box) => box.kind === 'person').sort((a, b) => a.row - b.row || a.x - b.x)
    /** Each button's count by person: a partner with the same count shares it (one button a couple). */
    const buttons = new Map<string, number>()
    for (const box of ordered) {
      const person = people.get(box.id)
      if (person === undefined) continue
      groups.set(box.id, drawPerson(boxLayer, box, person))
      const hidden = hiddenBy.get(box.id)
      const count =
        hidden ?? (foldable.has(box.id) ? foldFamily(household, new Set([...folded, box.id])).hiddenBy.get(box.id) : 0)
      if (count === undefined || count === 0) continue
      if ([...coupleOf(household, box.id)].some((other) => buttons.get(other) === count)) continue
      buttons.set(box.id, count)
      drawFoldButton(boxLayer, box, person, count, hidden !== undefined)
    }
    if (selectedId !== null) groups.get(selectedId)?.classList.add('hv-selected')
    drawLines()
  }

  /** The selection's lines, drawn again wherever the boxes now are. */
  function drawLines(): void {
    if (strip === undefined) return
    drawLinkLines(linkLayer, frame, familyLinksOf(household, selectedId, strip.drawn.cardIds), {
      person: (id) => groups.get(id)?.querySelector('.hv-gn-card') ?? undefined,
      entity: (id) => strip.drawn.node(id)?.querySelector('.hv-gn-card') ?? undefined,
      personFrame: scroller,
      entityFrame: strip.scroller,
    })
  }

  function drawEdges(layer: SVGGElement, layout: ChartLayout): void {
    const rowOf = new Map(layout.boxes.map((box) => [box.id, box.row]))
    const line = (points: readonly Pt[], className: string, title: string, parent: Element = layer) => {
      const path = svgElement('path', { class: `hv-gn-line ${className}`, d: pathData(points) }, parent)
      if (title !== '') svgElement('title', {}, path).textContent = title
      return path
    }
    for (const edge of layout.edges) {
      if (edge.kind === 'partner' || edge.kind === 'ex') {
        const [a = '', b = ''] = edge.ids
        const kinship = relationships.find(
          (r) => r.type !== 'parent' && ((r.from === a && r.to === b) || (r.from === b && r.to === a)),
        )
        const type = edge.kind === 'ex' ? 'exSpouse' : kinship?.type === 'partner' ? 'partner' : 'spouse'
        line(edge.paths[0] ?? [], `hv-gn-${type}`, edge.title).dataset.ids = `${a} ${b}`
      } else if (edge.kind === 'family') drawFamily(edge, rowOf, line)
      else if (edge.kind === 'parent') {
        const [parent = '', child = ''] = edge.ids
        const kind = descentKind(child, [parent], relationships)
        const path = line(edge.paths[0] ?? [], `hv-gn-descent hv-gn-${kind}`, `${edge.title} (${kind})`)
        path.dataset.child = child
      }
    }
    for (const stroke of layout.strokes) line(stroke, 'hv-gn-ex-stroke', '')
  }

  /** A family's hang line and bar are shared; each child's drop is styled by that child's parent kind. */
  function drawFamily(
    edge: Edge,
    rowOf: ReadonlyMap<string, number>,
    line: (points: readonly Pt[], className: string, title: string, parent?: Element) => SVGPathElement,
  ): void {
    const parentRow = Math.min(...edge.ids.map((id) => rowOf.get(id) ?? 0))
    const parents = edge.ids.filter((id) => rowOf.get(id) === parentRow)
    const children = edge.ids.filter((id) => rowOf.get(id) !== parentRow)
    const shared = edge.paths.slice(0, edge.paths.length - children.length)
    const drops = edge.paths.slice(edge.paths.length - children.length)
    for (const points of shared) line(points, 'hv-gn-family', edge.title)
    drops.forEach((points, k) => {
      const child = children[k]!
      const kind = descentKind(child, parents, relationships)
      const name = people.get(child)?.name ?? child
      line(points, `hv-gn-descent hv-gn-${kind}`, `${name}: ${kind} child`).dataset.child = child
    })
  }

  function drawPerson(layer: SVGGElement, box: NodeBox, person: ViewPerson): SVGGElement {
    const inner = box.w - 2 * PAD
    const texts: BoxText[] = [
      { text: fitText(person.name, inner, measureName).text, size: NAME_SIZE, bold: true, className: 'hv-gn-name' },
    ]
    const word = kinshipWord(person, household)
    const years = lifeYears(person)
    const second = fitWithTail(word, years, inner, measureLine, ' · ')
    texts.push({ text: second.text, size: LINE_SIZE, bold: false, className: 'hv-gn-sub' })
    const roles = summarizePerson(household, person.id)?.roles.map(rolePhrase) ?? []
    const third = marriageText(person.id, inner) ?? phrasesLine(roles, inner, measureLine)
    if (third !== '') texts.push({ text: third, size: LINE_SIZE, bold: false, className: 'hv-gn-sub' })

    const classes = ['hv-gn-person']
    if (person.role === 'primaryClient' || person.role === 'coClient') classes.push('hv-gn-client')
    if (person.deathDate !== undefined) classes.push('hv-gn-deceased')
    if (found.has(person.id)) classes.push('hv-gn-found')
    const group = svgElement(
      'g',
      {
        class: classes.join(' '),
        transform: `translate(${rounded(box.x)} ${rounded(box.y)})`,
        tabindex: 0,
        role: 'button',
        // Named by what the box shows (speech input says what it sees), then the person's interests
        // in the estate (node-names.ts); its whole words, nothing cut, are the <title>.
        'aria-label': nodeName(household, person.id, 'person', texts.map((text) => text.text).join(', ')),
        'data-id': person.id,
      },
      layer,
    )
    svgElement('title', {}, group).textContent = description(person, word, years, roles)
    svgElement('rect', { class: 'hv-gn-card', width: box.w, height: box.h, rx: radius }, group)
    texts.forEach((text, k) => {
      const direction = baseDirection(text.text)
      group.append(' ')
      svgElement(
        'text',
        {
          class: text.className,
          x: direction === 'rtl' ? box.w - PAD : PAD,
          y: BASELINES[k]!,
          direction,
          'font-size': text.size,
          'font-weight': text.bold ? BOLD : REGULAR,
        },
        group,
      ).textContent = text.text
    })
    return group
  }

  function description(person: ViewPerson, word: string, years: string, roles: readonly string[]): string {
    const dates = years.replace('b. ', 'born ').replace('d. ', 'died ')
    const parts = [person.name + (person.deathDate === undefined ? '' : ' (deceased)'), word, dates]
    parts.push(...(marriages.get(person.id) ?? []).filter((_, k) => k % 2 === 0), ...roles)
    return parts.filter((part) => part !== '').join(', ')
  }

  function drawFoldButton(layer: SVGGElement, box: NodeBox, person: ViewPerson, count: number, closed: boolean) {
    const text = closed ? `+${count} descendants` : 'Fold'
    const width = Math.ceil(measureLine(text)) + 2 * 6
    const group = svgElement(
      'g',
      {
        class: `hv-gn-fold${closed ? ' hv-gn-closed' : ''}`,
        transform: `translate(${rounded(box.x + box.w - width)} ${rounded(box.y + box.h + 3)})`,
        tabindex: 0,
        role: 'button',
        'aria-expanded': String(!closed),
        'aria-label': closed ? `${text} of ${person.name}` : `Fold ${count} descendants of ${person.name}`,
        'data-fold': person.id,
      },
      layer,
    )
    svgElement('rect', { class: 'hv-gn-pill', width, height: PILL_H, rx: PILL_H / 2 }, group)
    svgElement(
      'text',
      { class: 'hv-gn-pill-text', x: 6, y: 12.5, direction: 'ltr', 'font-size': LINE_SIZE },
      group,
    ).textContent = text
  }

  /** Opens or closes the fold of `id` and their partners' (the couple's children are below both). */
  function toggleFold(id: string): void {
    const couple = coupleOf(household, id)
    const opening = folded.has(id)
    folded = new Set(folded)
    for (const member of couple) {
      if (opening) folded.delete(member)
      else if (member === id || foldable.has(member)) folded.add(member)
    }
    render()
    scroller.querySelector<SVGGElement>(`.hv-gn-fold[data-fold="${CSS.escape(id)}"]`)?.focus()
  }

  /** Opens what hides `id` and moves focus to its box; false when no person has this id. */
  function show(id: string): boolean {
    if (!people.has(id)) return false
    if (!groups.has(id)) {
      const opening = foldsHiding(household, folded, id)
      folded = new Set([...folded].filter((fold) => !opening.has(fold)))
      render()
    }
    const group = groups.get(id)
    if (group === undefined) return false
    group.focus()
    group.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    return true
  }

  form.addEventListener(
    'submit',
    (event) => {
      event.preventDefault()
      const result = findPeople(household, input.value, folded)
      found = new Set(result.ids)
      const first = result.ids[0]
      if (first === undefined) {
        status.textContent = input.value.trim() === '' ? '' : `No one named “${input.value.trim()}”.`
        render()
        return
      }
      folded = result.unfolded
      render()
      show(first)
      const more = result.ids.length - 1
      status.textContent = `${people.get(first)?.name ?? first}${more > 0 ? ` and ${more} more` : ''} found.`
    },
    { signal },
  )

  const act = (target: EventTarget | null) => {
    const element =
      target instanceof Element
        ? target.closest<SVGGElement>('.hv-gn-person, .hv-gn-fold, .hv-gn-entity, .hv-gn-party')
        : null
    if (element === null) return false
    if (element.dataset.fold !== undefined) toggleFold(element.dataset.fold)
    else if (element.dataset.id !== undefined)
      onSelect(element.dataset.id, element.classList.contains('hv-gn-person') ? 'person' : 'entity')
    return true
  }
  for (const area of [scroller, strip?.scroller]) {
    area?.addEventListener('click', (event) => void act(event.target), { signal })
    area?.addEventListener(
      'keydown',
      (event) => {
        if (event.key !== 'Enter' && event.key !== ' ') return
        if (act(event.target)) event.preventDefault()
      },
      { signal },
    )
    // A scroll moves the boxes under the lines' ends.
    area?.addEventListener('scroll', drawLines, { signal, passive: true })
  }
  // The strip wraps to the frame: when the panel's width changes (a resize, or the panel shown for
  // the first time after being drawn hidden), it is laid out again and the lines follow.
  let stripWidth = frameWidth
  const resized = new ResizeObserver(() => {
    if (panel.clientWidth === 0) return
    if (strip !== undefined && panel.clientWidth !== stripWidth) {
      stripWidth = panel.clientWidth
      strip.drawn.relayout(stripWidth - 2 * STRIP_INSET)
      if (selectedId !== null) strip.drawn.node(selectedId)?.classList.add('hv-selected')
    }
    drawLines()
  })
  resized.observe(panel)

  render()
  // Open on the clients: a wide family's first screen is theirs, the rest a scroll away.
  const client = household.people.find((person) => person.role === 'primaryClient') ?? household.people[0]
  const clientBox = client === undefined ? undefined : placed.get(client.id)
  if (clientBox !== undefined && scroller.clientWidth > 0) {
    scroller.scrollLeft = Math.max(0, clientBox.x + clientBox.w / 2 - scroller.clientWidth / 2)
  }
  return {
    reveal: show,
    selected(id) {
      selectedId = id
      drawLines()
    },
    setTheme(next) {
      frame.dataset.theme = next
    },
    destroy() {
      controller.abort()
      resized.disconnect()
      frame.remove()
    },
  }
}

interface Strip {
  readonly drawn: DrawnStrip
  /** The strip's own scrolling frame (a frame narrower than one card scrolls it across). */
  readonly scroller: HTMLElement
}

/** The estate strip under the genogram, with its heading and the legend of its lines; none without entities. */
function drawStrip(
  frame: HTMLElement,
  household: ViewHousehold,
  fontFamily: string,
  radius: number,
  width: number,
): Strip | undefined {
  const entities = household.entities ?? []
  if (entities.length === 0) return undefined
  const section = htmlElement('section', 'hv-gn-estate', frame)
  const heading = htmlElement('h3', 'hv-gn-estate-title', section, 'The estate')
  heading.id = `hv-gn-estate-${serial}`
  section.setAttribute('aria-labelledby', heading.id)
  htmlElement('p', 'hv-gn-estate-hint', section, 'Select a person or an entity to draw the lines between them.')
  drawLinkLegend(section, household)
  const scroller = htmlElement('div', 'hv-gn-strip-scroll', section)
  const svg = svgElement(
    'svg',
    {
      class: 'hv-gn-strip',
      role: 'group',
      'aria-label': `${household.household.name}: the estate. Tab moves between the entities; Enter selects.`,
    },
    scroller,
  )
  return { drawn: drawEstateStrip(svg, household, fontFamily, radius, width), scroller }
}

const LEGEND: readonly { className: string; text: string }[] = [
  { className: 'hv-gn-spouse', text: 'married' },
  { className: 'hv-gn-partner', text: 'partners (dashed)' },
  { className: 'hv-gn-exSpouse', text: 'former spouses (struck through)' },
  { className: 'hv-gn-descent hv-gn-biological', text: 'child by birth (solid)' },
  { className: 'hv-gn-descent hv-gn-adopted', text: 'adopted (dashed)' },
  { className: 'hv-gn-descent hv-gn-step', text: 'step-child (dotted)' },
  { className: 'hv-gn-descent hv-gn-foster', text: 'foster child (dash-dot)' },
]

/** The line styles, named: meaning never rests on a line's look alone. */
function drawLegend(parent: HTMLElement): void {
  const list = htmlElement('ul', 'hv-gn-legend', parent)
  list.setAttribute('aria-label', 'Lines')
  for (const entry of LEGEND) {
    const item = htmlElement('li', 'hv-gn-legend-item', list)
    const sample = svgElement('svg', { width: 36, height: 12, 'aria-hidden': 'true' }, item)
    svgElement('path', { class: `hv-gn-line ${entry.className}`, d: 'M2 6L34 6' }, sample)
    if (entry.className === 'hv-gn-exSpouse') {
      svgElement('path', { class: 'hv-gn-line hv-gn-ex-stroke', d: 'M14 11L17 1' }, sample)
      svgElement('path', { class: 'hv-gn-line hv-gn-ex-stroke', d: 'M19 11L22 1' }, sample)
    }
    htmlElement('span', '', item, entry.text)
  }
}
