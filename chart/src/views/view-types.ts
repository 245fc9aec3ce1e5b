// What the 0.2.0 views share: the household they draw and what each view offers the shell.
// The household is typed structurally: a chart payload 0.1.x (chart/payload.ts) already fits, and
// payload 0.2.0's additions (currency and asOf, shortName and valueAsOf, the records API's kinds and
// link types, beneficiary types, parent kinds and marriage dates) are optional. It is the estate
// look-through's input and the summaries' at once, so every view reads the same household.
// Chart 0.3.0's Flow view reads more of the payload (assumptions, gifts, dispositions, citizenship
// and DSUE received): the shell takes the chart's Payload (a ViewHousehold too) and hands it on.
import type { ParentKind } from '../../../src/domain/chart-payload.ts'
import type { SummaryEntity, SummaryLink } from '../estate/summary-input.ts'

export const VIEW_NAMES = ['family', 'structure', 'estate', 'flow'] as const
export type ViewName = (typeof VIEW_NAMES)[number]

export interface ViewPerson {
  readonly id: string
  readonly name: string
  readonly role: string
  readonly birthDate?: string
  readonly deathDate?: string
}

export interface ViewRelationship {
  readonly from: string
  readonly to: string
  readonly type: string
  readonly parentKind?: ParentKind
  readonly since?: string
  readonly until?: string
}

export interface ViewEntity extends SummaryEntity {
  readonly valueAsOf?: string
}

export interface ViewHousehold {
  readonly household: {
    readonly name: string
    /** ISO 4217 ("USD"); amounts are plain numbers without it. */
    readonly currency?: string
    readonly asOf?: string
  }
  readonly people: readonly ViewPerson[]
  readonly relationships?: readonly ViewRelationship[]
  readonly entities?: readonly ViewEntity[]
  readonly links?: readonly SummaryLink[]
}

/** A drawn view, as the shell drives it. Its selectable nodes carry `data-id`, which the shell marks. */
export interface DrawnView {
  /** Moves keyboard focus to the node of `id` and brings it into view; false when the view has none. */
  reveal(id: string): boolean
  /** The selection changed: views that draw more than a mark (focus lines) redraw it. */
  selected(id: string | null): void
  destroy(): void
}
