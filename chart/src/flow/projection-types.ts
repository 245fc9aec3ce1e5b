// The estate projection: what the Flow view draws, what the chart posts to the host as the `estate`
// message and what the SDK's projectEstate(payload) returns. Plain JSON (no Map, no undefined in
// arrays), amounts in the household's currency with cents, so a host can show or test every figure.
// Version 1 of this shape only grows, like the payload.

/** One part of a figure, traceable to where it comes from. */
export interface ProjectionLine {
  /** What it is, in words: "Smith Family Revocable Trust", "2 % of Smith FLP", "From Robert’s estate (outright)". */
  readonly label: string
  readonly amount: number
  /** The entity it comes from, when it comes from one. */
  readonly entityId?: string
  /** For a line of an entity: the fraction of the entity's own value it is (0.02 for 2 %). */
  readonly fraction?: number
  /** The death whose transfer it comes from (an index into deaths), for what a survivor received. */
  readonly fromDeath?: number
  /** Half of what both clients hold jointly (passes to the survivor by survivorship). */
  readonly joint?: boolean
}

export interface ProjectionFigure {
  readonly total: number
  readonly lines: readonly ProjectionLine[]
}

/** entity: a business or a holding that receives (an LLC, an account); trust: any trust; charity: a foundation, DAF or public charity. */
export type RecipientKind = 'spouse' | 'person' | 'trust' | 'entity' | 'charity' | 'heirs' | 'tax'

/** How a transfer at a death is made. */
export type TransferHow =
  /** Half of joint property, to the surviving joint owner, whatever the dispositions say. */
  | 'survivorship'
  /** By one of the payload's dispositions (dispositionIndex). */
  | 'disposition'
  /** By the common default: to the surviving spouse, else to the descendants by branch. */
  | 'default'

export interface ProjectionTransfer {
  /** A person or entity id; absent for other heirs (no descendants in the chart). */
  readonly toId?: string
  readonly toName: string
  readonly toKind: Exclude<RecipientKind, 'tax'>
  readonly how: TransferHow
  readonly dispositionIndex?: number
  /** The entity the disposition named as `from`, when it did. */
  readonly fromEntityId?: string
  /** Before the estate tax. */
  readonly amount: number
  /** The part of the estate tax it bears (what does not qualify for a deduction bears it first). */
  readonly taxBorne: number
  /** What it receives: amount − taxBorne. */
  readonly net: number
  readonly deduction: 'marital' | 'charitable' | null
  /** Counted again in the survivor's gross estate (outright to the survivor, or a QTIP trust). */
  readonly inSurvivorsEstate: boolean
}

export interface ProjectionExclusion {
  readonly year: number
  readonly amount: number
  /** table: the year's own amount; lastKnown: a later year, the last known year's; assumed: assumptions.basicExclusion. */
  readonly basis: 'table' | 'lastKnown' | 'assumed'
  readonly sourceYear: number
  readonly source: string
}

export interface ProjectionDeath {
  readonly decedentId: string
  readonly decedentName: string
  readonly year: number
  /** The spouse who survives this death (married, so the marital deduction and portability apply). */
  readonly survivingSpouseId?: string
  readonly grossEstate: ProjectionFigure
  readonly maritalDeduction: ProjectionFigure
  readonly charitableDeduction: ProjectionFigure
  /** Gross estate − marital deduction − charitable deduction. */
  readonly taxableEstate: number
  readonly adjustedTaxableGifts: number
  /** Taxable estate + adjusted taxable gifts: what the tentative tax is on. */
  readonly taxBase: number
  readonly tentativeTax: number
  /** Gift tax payable on the lifetime gifts (on the part the exclusion did not cover). */
  readonly giftTaxPayable: number
  readonly basicExclusion: ProjectionExclusion
  /** DSUE counted in the applicable exclusion, and whose. */
  readonly dsue: { readonly amount: number; readonly fromId?: string; readonly fromName?: string }
  /** Basic exclusion + DSUE. */
  readonly applicableExclusion: number
  /** The tentative tax on the applicable exclusion. */
  readonly applicableCredit: number
  /** max(0, tentative tax − gift tax payable − applicable credit). */
  readonly estateTax: number
  /** The DSUE this death passes to the surviving spouse (0 when none survives or portability is not elected). */
  readonly dsuePassed: number
  readonly transfers: readonly ProjectionTransfer[]
}

export interface ProjectionRecipient {
  /** A person or entity id; absent for other heirs and for the tax. */
  readonly id?: string
  readonly name: string
  readonly kind: RecipientKind
  readonly amount: number
  /** What it receives at each death (the tax: at each death). */
  readonly lines: readonly ProjectionLine[]
}

export interface ProjectionAssumptions {
  /** The clients in the order they die (one or two). */
  readonly order: readonly string[]
  /** The year of each death, in that order. */
  readonly years: readonly number[]
  readonly portabilityElected: boolean
  /** Whether the payload said so (false: the default, elected). */
  readonly portabilityStated: boolean
  readonly married: boolean
}

export type ProjectionWarningCode =
  | 'noLivingClient'
  | 'notMarried'
  | 'nonCitizenSpouse'
  | 'citizenshipAssumed'
  | 'portabilityAssumed'
  | 'dsueNotElected'
  | 'giftsAmountUnknown'
  | 'unassignedValue'
  | 'deceasedClientHolds'
  | 'firstDeathNotLiving'
  | 'dispositionNotApplied'
  | 'bequestLapsed'
  | 'priorDsueReplaced'
  | 'yearAdjusted'
  | 'basicExclusionNotUsed'
  | 'giftExclusionAssumed'
  | 'amountsTooLarge'

export interface ProjectionWarning {
  readonly code: ProjectionWarningCode
  readonly message: string
}

export interface EstateProjection {
  readonly version: 1
  readonly currency?: string
  readonly assumptions: ProjectionAssumptions
  /** Today, by look-through: each client's estate, joint, unassigned, outside and charity (the Estate view's totals). */
  readonly today: {
    readonly primaryClient: number
    readonly coClient: number
    readonly joint: number
    readonly unassigned: number
    readonly outside: number
    readonly charity: number
  }
  /** One per client who dies, in order: none when no client is living. */
  readonly deaths: readonly ProjectionDeath[]
  /** Who ends with what after the last death: people, trusts, charities, other heirs and the tax. */
  readonly recipients: readonly ProjectionRecipient[]
  /** Entities outside both estates (ILITs, SLATs, charities…) with their value: they pass under their own terms. */
  readonly outsideEstate: readonly ProjectionLine[]
  readonly warnings: readonly ProjectionWarning[]
  /** "An estimate, not tax advice." The view prints it; a host showing the figures should too. */
  readonly disclaimer: string
}
