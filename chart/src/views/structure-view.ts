// The Structure view: the household's ownership and control graph as layoutStructure places it —
// cards for people who own, entities and holdings (name, kind and side, values, control rows and
// beneficiary chips, as the layout fitted them), ownership lines with their shares, and apart the
// people who only control or benefit and the parties. The SVG is drawn at its natural size in a
// scrolling frame, so it pans by scroll; names are measured with the canvas in the font they are
// drawn in, and each line's SVG `direction` comes from its own text, so a cut right-to-left name
// ends in its ellipsis on the cut side. Selecting a card draws its focus lines (structure-focus.ts).
import { effectiveEstateSide } from '../../../src/domain/estate-vocabulary.ts'
import { householdLabeller } from '../estate/summary-names.ts'
import { shareText } from '../estate/summary-percent.ts'
import type { MeasureStyled } from '../structure/structure-cards.ts'
import { layoutStructure, type StructureBox, type StructureText } from '../structure/structure-layout.ts'
import { baseDirection } from '../text/direction.ts'
import { canvasMeasure, cssFont } from '../text/measure.ts'
import type { Appearance } from './appearance.ts'
import { htmlElement, svgElement } from './dom.ts'
import { cornerRadiusOf, fontFamilyOf } from './host-appearance.ts'
import { nodeName } from './node-names.ts'
import type { SelectedKind } from './selection.ts'
import { drawFocusLines } from './structure-focus.ts'
import type { DrawnView, ViewHousehold } from './view-types.ts'

const BOLD = 600
const REGULAR = 400

/** Measures card text in `fontFamily`, the family it is drawn in (the host's appearance, or the chart's). */
const measureIn =
  (fontFamily: string): MeasureStyled =>
  (text, sizePx, bold) =>
    canvasMeasure(cssFont(sizePx, bold ? BOLD : REGULAR, fontFamily))(text)

/**
 * A card's corner radius: a person's is the appearance's radius, an entity's twice that (entities
 * read as the rounder boxes, as in the 0.1.x chart: 6 and 12 by default), at most half the card's
 * height so a short card is never drawn as a lozenge.
 */
function cardRadius(box: StructureBox, radius: number): number {
  return Math.min(box.is === 'person' ? radius : 2 * radius, box.h / 2)
}

const rounded = (value: number) => Math.round(value * 2) / 2

function boxClasses(box: StructureBox, household: ViewHousehold): string {
  const classes = ['hv-st-box', `hv-st-${box.is}`]
  const entity = household.entities?.find((e) => e.id === box.id)
  const side = entity === undefined ? null : effectiveEstateSide(entity.kind, entity.estate ?? null)
  if (side !== null) classes.push(`hv-st-${side}`)
  return classes.join(' ')
}

function drawText(group: SVGGElement, text: StructureText, box: StructureBox): void {
  const direction = baseDirection(text.text)
  // A right-to-left line starts at the card's right padding edge: text-anchor start is its right.
  const x = direction === 'rtl' ? text.x + text.maxWidth : text.x
  svgElement(
    'text',
    {
      class: `hv-st-line hv-st-${text.role}`,
      x: rounded(x - box.x),
      y: rounded(text.y - box.y),
      direction,
      'font-size': text.sizePx,
      'font-weight': text.bold ? BOLD : REGULAR,
    },
    group,
  ).textContent = text.text
}

export function drawStructureView(
  panel: HTMLElement,
  household: ViewHousehold,
  onSelect: (id: string, kind: SelectedKind) => void,
  appearance: Appearance = {},
): DrawnView {
  const controller = new AbortController()
  const fontFamily = fontFamilyOf(appearance)
  const radius = cornerRadiusOf(appearance)
  const layout = layoutStructure(household, { measure: measureIn(fontFamily) })
  const frame = htmlElement('div', 'hv-structure', panel)
  const svg = svgElement(
    'svg',
    {
      class: 'hv-st-svg',
      width: layout.width,
      height: layout.height,
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      role: 'group',
      'aria-label': `${household.household.name}: who owns and runs what. Tab moves between the cards; Enter selects.`,
      'font-family': fontFamily,
    },
    frame,
  )
  const edgeLayer = svgElement('g', { class: 'hv-st-edges' }, svg)
  const focusLayer = svgElement('g', { class: 'hv-st-focus-lines' }, svg)
  const boxLayer = svgElement('g', { class: 'hv-st-boxes' }, svg)

  const label = householdLabeller(household)
  const edgeElements = layout.edges.map((edge) => {
    const d = 'M' + edge.points.map(([x, y]) => `${rounded(x)} ${rounded(y)}`).join('L')
    const path = svgElement('path', { class: `hv-st-edge${edge.reversed ? ' hv-st-reversed' : ''}`, d }, edgeLayer)
    const share = edge.share === undefined ? '' : ` ${shareText(edge.share)}`
    svgElement('title', {}, path).textContent = `${label(edge.from)} holds${share} of ${label(edge.to)}`
    return path
  })
  const labelElements = layout.labels.map((shareLabel) => {
    const text = svgElement(
      'text',
      {
        class: 'hv-st-share',
        x: rounded(shareLabel.x),
        y: rounded(shareLabel.y + shareLabel.baseline),
        'font-size': shareLabel.sizePx,
      },
      edgeLayer,
    )
    text.textContent = shareLabel.text
    return text
  })

  const kindOf = (box: StructureBox): SelectedKind => (box.is === 'person' ? 'person' : 'entity')
  const boxes = new Map<string, StructureBox>()
  const groups = new Map<string, SVGGElement>()
  // Reading order for Tab: row by row, left to right; the boxes drawn apart last.
  const ordered = [...layout.boxes].sort(
    (a, b) => (a.layer ?? Infinity) - (b.layer ?? Infinity) || a.x - b.x || a.y - b.y,
  )
  for (const box of ordered) {
    const group = svgElement(
      'g',
      {
        class: boxClasses(box, household),
        transform: `translate(${rounded(box.x)} ${rounded(box.y)})`,
        tabindex: 0,
        role: 'button',
        // Named by what it shows (so speech input can say it) and then its interests in the estate;
        // described by its whole words: the <title> below, nothing cut or folded into "+N more", is
        // its description and tooltip.
        'aria-label': nodeName(household, box.id, kindOf(box), box.texts.map((text) => text.text).join('. ')),
        'data-id': box.id,
      },
      boxLayer,
    )
    svgElement('title', {}, group).textContent = box.title
    svgElement('rect', { class: 'hv-st-card', width: box.w, height: box.h, rx: cardRadius(box, radius) }, group)
    for (const text of box.texts) {
      // A space between the lines, as their text reads (copied, or taken from the content): without
      // one, adjacent <text> elements run together ("Trust…ILIT").
      group.append(' ')
      drawText(group, text, box)
    }
    boxes.set(box.id, box)
    groups.set(box.id, group)
  }

  const boxAt = (target: EventTarget | null) => {
    const group = target instanceof Element ? target.closest<SVGGElement>('.hv-st-box') : null
    return group?.dataset.id === undefined ? undefined : boxes.get(group.dataset.id)
  }
  svg.addEventListener(
    'click',
    (event) => {
      const box = boxAt(event.target)
      if (box !== undefined) onSelect(box.id, kindOf(box))
    },
    { signal: controller.signal },
  )
  svg.addEventListener(
    'keydown',
    (event) => {
      const box = boxAt(event.target)
      if (box === undefined || (event.key !== 'Enter' && event.key !== ' ')) return
      event.preventDefault()
      onSelect(box.id, kindOf(box))
    },
    { signal: controller.signal },
  )

  return {
    reveal(id) {
      const group = groups.get(id)
      if (group === undefined) return false
      group.focus()
      group.scrollIntoView({ block: 'nearest', inline: 'nearest' })
      return true
    },
    selected(id) {
      const focused = id === null || !boxes.has(id) ? null : drawFocusLines(focusLayer, household, layout, boxes, id)
      if (focused === null) focusLayer.replaceChildren()
      svg.classList.toggle('hv-st-dim', focused !== null)
      for (const [boxId, group] of groups) group.classList.toggle('hv-st-lit', focused?.highlighted.has(boxId) ?? false)
      layout.edges.forEach((edge, k) => {
        const lit = focused?.linkIndexes.has(edge.linkIndex) ?? false
        edgeElements[k]!.classList.toggle('hv-st-lit', lit)
      })
      layout.labels.forEach((shareLabel, k) => {
        const lit = focused?.linkIndexes.has(layout.edges[shareLabel.edge]!.linkIndex) ?? false
        labelElements[k]!.classList.toggle('hv-st-lit', lit)
      })
    },
    destroy() {
      controller.abort()
      frame.remove()
    },
  }
}
