/*!
 * Hearth household chart — partner SDK (protocol v1).
 *
 * Mounts the pinned, embedded household chart into a container on your page and speaks the
 * chart's postMessage protocol for you. One self-contained ES module with no dependencies: load it
 * from the embed origin, pinned to the same version as the chart it mounts.
 *
 * Usage (a page on an origin registered for your organization with `hearth origins add`):
 *
 *   import { mountHouseholdChart, HouseholdChartError } from 'https://embed.hearth.example/chart/v0.3.1/sdk.js'
 *
 *   const chart = mountHouseholdChart({
 *     container: document.getElementById('household-chart')!,
 *     embedOrigin: 'https://embed.hearth.example',
 *     title: 'Household chart of the Chen family',
 *     // Your own server mints the token (POST /api/v1/embed/chart-sessions with your API key,
 *     // which never reaches the browser) and answers { token, expiresAt }.
 *     fetchToken: async () => {
 *       const response = await fetch('/chart-token', { method: 'POST' })
 *       if (!response.ok) throw new Error(`token endpoint answered ${response.status}`)
 *       return response.json()
 *     },
 *     payload: { household: { name: 'Chen Family' }, people: [{ id: 'robert', name: 'Robert Chen', role: 'primaryClient' }] },
 *     theme: 'system',
 *     appearance: { fontFamily: 'Inter, system-ui, sans-serif', accentColor: '#0a6e5c', cornerRadius: 8 },
 *     onEvent: (event) => {
 *       if (event.type === 'select') showDetails(event.id, event.kind)
 *       if (event.type === 'viewchange') highlightTab(event.view)
 *       if (event.type === 'error') console.warn(`chart: ${event.code}: ${event.message}`)
 *     },
 *   })
 *   try {
 *     await chart.ready // the chart has rendered once
 *   } catch (error) {
 *     if (error instanceof HouseholdChartError) console.error(error.code, error.message)
 *   }
 *   chart.update(nextPayload) // re-renders, with the token the SDK holds (or a new one)
 *   chart.setTheme('dark')
 *   chart.setView('flow') // 'family' | 'structure' | 'estate' | 'flow'
 *   chart.focus('robert') // selects a person or an entity and brings it into view
 *   chart.print() // the chart's print layout, through the browser's print dialog
 *   chart.setAppearance({ accentColor: '#7a3e9d' })
 *   chart.destroy() // removes the iframe, its listener and its timers
 *
 * What it does:
 * - Creates the iframe per the mounting rules: sandbox exactly "allow-scripts allow-same-origin",
 *   src = `${embedOrigin}/chart/v${version}/index.html` (a pinned version; never "latest"),
 *   referrerpolicy "origin", your title, width 100 %, no border, loading eager, and
 *   allow="fullscreen" (a permissions policy, not a sandbox flag: Present mode fills the screen).
 *   Styles are set through the CSSOM (iframe.style), so host pages with a strict style-src still work.
 * - Accepts a message only when its origin is the embed origin and its source is that iframe's
 *   window; everything else is ignored.
 * - Calls fetchToken as soon as it mounts (in parallel with the iframe loading); on the chart's
 *   `ready` posts `render {type: 'render', v: 1, token, payload, appearance?, handles}` to the
 *   embed origin, with `handles: ['download', 'print']`: this page saves and prints for the chart.
 * - Saves and prints for the chart. The mounting rules sandbox the iframe with exactly
 *   "allow-scripts allow-same-origin" (no allow-downloads, no allow-modals), so the chart can
 *   neither start a download nor open a print dialog itself. It makes the file (a PNG or an SVG) or
 *   the print document in the browser and posts it to this page. Nothing goes to any server.
 *   A file is saved through an object URL and a download link, and only as image/png or
 *   image/svg+xml (anything else is ignored), in a new Blob of that type, under its name with path
 *   separators, control and bidirectional characters replaced by "_", leading dots dropped, and the
 *   type's extension (.png, .svg) added when the name lacks it.
 *   A print document is printed from a hidden frame the SDK adds to this page, sandboxed
 *   "allow-same-origin allow-modals" (no allow-scripts: nothing in it can run), and removed after
 *   printing. Its markup is parsed inertly and cleaned first, as defence in depth (the chart sends
 *   nothing of this): script, iframe, frame, frameset, object, embed, link, meta, base and style
 *   elements and SVG animations (animate, set, animateMotion, animateTransform) are dropped; so are
 *   on* and style attributes, URL attributes (src, srcset, href, xlink:href, data, poster,
 *   background, action, formaction) other than #fragments and data:, and any attribute whose
 *   value holds a url() other than url(#…) (SVG's fill, filter, mask, clip-path, marker-*). Its CSS
 *   is parsed into a constructed stylesheet and cleaned before it applies: @import and @font-face
 *   rules go, as does every declaration (at any depth of @media, @supports and other grouping
 *   rules, custom properties included) whose value holds a url() other than url(#…) or image-set(),
 *   image() or src(), and any other rule that names one (@property's initial-value). The sheet is adopted (a strict style-src allows that, unlike a <style>
 *   element); a browser that cannot adopt it gets its cleaned rules in a <style> element, and one
 *   that cannot construct it prints without the chart's CSS.
 * - Sizes the iframe's height from the chart's `rendered` and `resize` messages.
 * - Fetches a new token 60 s before the held one's expiresAt (halfway through a token shorter
 *   than two minutes) and keeps it, quietly: a refresh posts no render, so the chart keeps the
 *   user's pan, zoom and focus, and no render is metered for it. The chart checks a token only
 *   when it renders, so the held token is what the next render uses: update(payload), or
 *   setTheme before the first render. A render never uses a held token with less than 15 s left:
 *   it fetches a new one first.
 * - Stops refreshing on an idle page: after 3 refreshes in a row with no render in between, the
 *   last token is kept until it expires and no further one is fetched (every fetch is a mint).
 *   The next render fetches a token first if the held one has expired or is about to, and
 *   refreshing resumes from there. (A setTheme, setView, focus, print or setAppearance after the
 *   first render needs no token and does not count as a render.)
 * - setView before the first render is sent once the chart has rendered; focus and print need a
 *   drawn chart (await `ready`) and do nothing before it.
 * - When the chart answers `token_expired` (a token that aged, or a skewed clock) it fetches a
 *   new token and renders again — once: if the chart finds the new token expired too, that is
 *   reported through onEvent (no retry loop).
 * - A second mount into the same container destroys the first.
 *
 * Errors, always as onEvent({type: 'error', code, message, path?}):
 * - from the chart: token_invalid, token_expired (only when the retry did not help),
 *   origin_mismatch, version_unsupported, payload_invalid (with the JSON Pointer in `path`),
 *   appearance_invalid (the mount's `appearance` breaks a rule; setAppearance reports one that
 *   does without sending it, and the chart keeps the appearance it has);
 * - from the SDK: ready_timeout (no `ready` within readyTimeoutMs, default 15 s: see the message
 *   for the likely causes), token_fetch_failed (fetchToken threw or returned no usable token).
 * `ready` resolves when the chart has rendered for the first time, and rejects with a
 * HouseholdChartError for the first failure before that (ready_timeout, token_fetch_failed, or a
 * chart error), or with code `destroyed` when the chart is destroyed first. It never rejects
 * unobserved: ignoring it is fine when you use onEvent. Later failures (a refresh that could not
 * fetch a token, an invalid payload given to update) come through onEvent only.
 */

import { readAppearance } from '../chart/src/views/appearance.ts'
import { projectEstate as projectWithChart } from '../chart/src/flow/project-estate.ts'

declare const __CHART_VERSION__: string

/** The chart release this SDK belongs to, and the version it mounts unless told otherwise. */
export const SDK_CHART_VERSION: string = __CHART_VERSION__

/** The render message's protocol version. */
export const PROTOCOL_VERSION = 1

// ---------------------------------------------------------------------------------------------
// The payload (v1), as published in payload.schema.json beside each pinned chart. Chart 0.2.0 adds
// only optional fields and new kinds and link types: every 0.1.x payload is a 0.2.0 payload.

export type ChartTheme = 'light' | 'dark' | 'system'

export type PersonRole = 'primaryClient' | 'coClient' | 'spouse' | 'child' | 'grandchild' | 'greatGrandchild' | 'parent' | 'sibling' | 'inLaw' | 'other'

export type RelationshipType = 'spouse' | 'partner' | 'exSpouse' | 'parent'

/**
 * Trusts, business entities, charities, holdings, parties (corporateTrustee, lawFirm, otherParty:
 * they act but hold nothing and are never counted), and `other`, 0.1.x's catch-all.
 */
export type EntityKind =
  | 'revocableTrust'
  | 'irrevocableTrust'
  | 'ilit'
  | 'slat'
  | 'grat'
  | 'crt'
  | 'clt'
  | 'qprt'
  | 'qtip'
  | 'creditShelterTrust'
  | 'dynastyTrust'
  | 'specialNeedsTrust'
  | 'llc'
  | 'flp'
  | 'corporation'
  | 'foundation'
  | 'daf'
  | 'publicCharity'
  | 'taxableAccount'
  | 'retirementAccount'
  | 'lifeInsurance'
  | 'realEstate'
  | 'businessInterest'
  | 'otherAsset'
  | 'corporateTrustee'
  | 'lawFirm'
  | 'otherParty'
  | 'other'

export type LinkType = 'grantor' | 'trustee' | 'successorTrustee' | 'beneficiary' | 'owner' | 'insured' | 'generalPartner' | 'limitedPartner'

/** How a parent is a parent; absent means biological. */
export type ParentKind = 'biological' | 'adopted' | 'step' | 'foster'

/** A beneficiary's standing; absent means primary. */
export type BeneficiaryType = 'primary' | 'contingent' | 'income' | 'remainder'

export interface HouseholdChartPerson {
  /** Your identifier: 1–64 letters, digits and _ . : -; people and entities share one namespace. */
  id: string
  /** Shown as plain text, never as markup (1–200 characters). */
  name: string
  role: PersonRole
  /** YYYY-MM-DD */
  birthDate?: string
  /** YYYY-MM-DD; set for a deceased person, who is drawn muted and marked †. */
  deathDate?: string
  /** 0.3.0: whether a US citizen; a surviving spouse who is not gets no marital deduction. Absent: assumed a citizen. */
  usCitizen?: boolean
  /** 0.3.0: a DSUE already received from a spouse who died before; adds to the exclusion until a later spouse dies. */
  dsueReceived?: {
    amount: number
    /** The deceased spouse, a person of the payload. */
    from?: string
    /** false: portability was not elected, the amount is not counted. Absent: assumed elected. */
    portabilityElected?: boolean
  }
}

export interface HouseholdChartRelationship {
  from: string
  to: string
  /** spouse, partner and exSpouse join two people side by side; parent means `from` is a parent of `to`. */
  type: RelationshipType
  /** Only on parent: drawn in the usual genogram line style. */
  parentKind?: ParentKind
  /** Only on spouse, partner and exSpouse, YYYY-MM-DD: when it began ("m. 1990"). */
  since?: string
  /** Only on spouse, partner and exSpouse, YYYY-MM-DD: when it ended; not before since. */
  until?: string
}

export interface HouseholdChartEntity {
  id: string
  name: string
  /** 1–40 characters: the label of boxes, chips and lines when the name is too long (e.g. "SLAT-C"). */
  shortName?: string
  kind: EntityKind
  /** Value in the household's currency, shown rounded (0 to 1e13). A party has none. */
  value?: number
  /** YYYY-MM-DD: the date the value is from. */
  valueAsOf?: string
  /** Inside or outside the taxable estate; defaults by kind. A party has none. */
  estate?: 'in' | 'out'
}

export interface HouseholdChartLink {
  /** The person or entity that is grantor, trustee, beneficiary or owner. */
  from: string
  /** The entity. */
  to: string
  type: LinkType
  /** Percentage for beneficiaries, owners and partners: 50 means 50 %. */
  share?: number
  /** Only on beneficiary. */
  beneficiaryType?: BeneficiaryType
}

/** 0.3.0: a person's lifetime taxable gifts (after 1976, not in the gross estate), one entry per donor. */
export interface HouseholdChartGift {
  donor: string
  /** Absent: gifts were made whose amount is not known (counted as none, and the Flow view says so). */
  taxableGifts?: number
  /** The part of the basic exclusion the gifts used; gift tax was paid on the rest. Absent: all of taxableGifts, up to the year of death's basic exclusion. */
  exclusionUsed?: number
}

/**
 * 0.3.0: where part of a client's estate goes at their death. Exactly one of share, amount and
 * formula. Amounts first, then the formula, then shares of what is left; the rest by the default
 * (all to the surviving spouse, else to the descendants by branch).
 */
export interface HouseholdChartDisposition {
  /** The client (primaryClient or coClient) at whose death it takes effect. */
  at: string
  /** An entity whose part of the estate it disposes of; absent: the rest of the estate. */
  from?: string
  /** A person, a trust (kind qtip: the marital deduction) or a charity (the charitable deduction). */
  to: string
  /** A percentage of what is left after amounts and the formula. */
  share?: number
  amount?: number
  /** unusedExclusion: as much as passes free of estate tax (a credit-shelter gift). */
  formula?: 'unusedExclusion'
}

/** 0.3.0: the estate projection's assumptions; the Flow view's controls start from them. */
export interface HouseholdChartAssumptions {
  /** The client who dies first; absent: the primary client. */
  firstDeath?: string
  /** 2025–2200; absent: the year of household.asOf, else this year. */
  firstDeathYear?: number
  /** Not before the first; absent: the first death's year. */
  secondDeathYear?: number
  /** The basic exclusion for a year after the last one the chart knows (2026: $15,000,000). */
  basicExclusion?: number
  /** Whether the first decedent's executor elects portability; absent: elected. */
  portabilityElected?: boolean
}

export interface HouseholdChartPayload {
  household: {
    name: string
    /** ISO 4217 code of every value's currency, e.g. "USD". */
    currency?: string
    /** YYYY-MM-DD: the date the figures are as of, printed in the title block. */
    asOf?: string
  }
  people: HouseholdChartPerson[]
  relationships?: HouseholdChartRelationship[]
  entities?: HouseholdChartEntity[]
  links?: HouseholdChartLink[]
  gifts?: HouseholdChartGift[]
  dispositions?: HouseholdChartDisposition[]
  assumptions?: HouseholdChartAssumptions
  options?: { theme?: ChartTheme }
}

// ---------------------------------------------------------------------------------------------
// 0.3.0: the estate projection, as the `estate` event carries it and projectEstate returns it
// (amounts in the household's currency, with cents). Spelled out here so that sdk.d.ts stands
// alone; test/browser/sdk-types.test.ts holds it equal to the chart's own declaration.

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

// ---------------------------------------------------------------------------------------------
// The API.

/** The chart's four views of the household (flow: 0.3.0's estate flow at each death). */
export type ChartView = 'family' | 'structure' | 'estate' | 'flow'

/**
 * Your page's look, applied when the chart draws (the chart measures its text in your font). The
 * chart refuses a value outside these rules with appearance_invalid.
 */
export interface HouseholdChartAppearance {
  /** A CSS font-family list of names, e.g. "Inter, system-ui, sans-serif" (letters, digits, spaces, hyphens, quotes, commas). */
  readonly fontFamily?: string
  /** #rgb or #rrggbb: selection marks, the selected tab and focus lines. */
  readonly accentColor?: string
  /** CSS pixels, 0–24: the corners of cards and buttons. */
  readonly cornerRadius?: number
}

/** What fetchToken returns: the `token` and `expiresAt` of a chart session minted by your server. */
export interface HouseholdChartToken {
  token: string
  /** ISO 8601 date-time, as the API answers it. */
  expiresAt: string
}

/** Errors the chart reports, and errors of the SDK itself. */
export type HouseholdChartErrorCode =
  | 'token_invalid'
  | 'token_expired'
  | 'origin_mismatch'
  | 'version_unsupported'
  | 'payload_invalid'
  | 'appearance_invalid'
  | 'ready_timeout'
  | 'token_fetch_failed'
  | 'destroyed'

/**
 * What onEvent receives:
 * - rendered: the chart drew the payload; `height` is its full height in CSS pixels;
 * - resize: the chart's height changed (it grows and shrinks);
 * - select: the user selected a person or an entity (by pointer or keyboard, or through focus());
 * - viewchange: the view shown changed (by the user or through setView);
 * - estate (0.3.0): the estate projection the chart computed from your payload, after each render
 *   and whenever the reader changes who dies first or a year in the Flow view; the same figures as
 *   projectEstate(payload) with those choices;
 * - error: see the codes in the header comment.
 */
export type ChartEvent =
  | { type: 'rendered'; height: number }
  | { type: 'resize'; height: number }
  | { type: 'select'; id: string; kind: 'person' | 'entity' }
  | { type: 'viewchange'; view: ChartView }
  | { type: 'estate'; projection: EstateProjection }
  | { type: 'error'; code: HouseholdChartErrorCode; message: string; path?: string }

export interface MountHouseholdChartOptions {
  /** The element the iframe is appended to. */
  container: HTMLElement
  /** The embed origin, a bare origin such as https://embed.hearth.example. */
  embedOrigin: string
  /** The pinned chart release, x.y.z; default: the SDK's own version. Never "latest". */
  version?: string
  /** The iframe's accessible name, e.g. "Household chart of the Chen family". */
  title: string
  /** Asks your own server for a chart token; called at mount, before expiry (see the header), and on token_expired. */
  fetchToken: () => Promise<HouseholdChartToken>
  payload: HouseholdChartPayload
  /** Overrides payload.options.theme. */
  theme?: ChartTheme
  /** Your font family, accent colour and corner radius; the chart's own when absent. */
  appearance?: HouseholdChartAppearance
  onEvent?: (event: ChartEvent) => void
  /** How long to wait for the chart's `ready` before reporting ready_timeout; default 15000. */
  readyTimeoutMs?: number
}

export interface HouseholdChartHandle {
  /** The chart's iframe (for layout; do not post to it yourself). */
  readonly iframe: HTMLIFrameElement
  /** Resolves when the chart has rendered once; rejects with a HouseholdChartError (see the header). */
  readonly ready: Promise<void>
  /** Renders the new payload (with the held token, or a new one if it has expired or is about to). */
  update(payload: HouseholdChartPayload): void
  /** Switches the theme without a new render once the chart has rendered. */
  setTheme(theme: ChartTheme): void
  /** Shows the view (a viewchange event follows); before the first render, the chart opens on it. */
  setView(view: ChartView): void
  /** Selects the person or entity `id` and brings it into view (a select event follows); an unknown id is ignored. */
  focus(id: string): void
  /** Prints the chart's print layout (a title block, every view, the totals) through the browser's print dialog. */
  print(): void
  /** Draws the chart again in this appearance, on the view shown; an invalid one is reported as appearance_invalid and not applied. */
  setAppearance(appearance: HouseholdChartAppearance): void
  /** Removes the iframe, the message listener and the timers. Safe to call twice. */
  destroy(): void
}

export class HouseholdChartError extends Error {
  readonly code: HouseholdChartErrorCode
  /** For payload_invalid: the JSON Pointer of the first problem in the payload. */
  readonly path?: string

  constructor(code: HouseholdChartErrorCode, message: string, path?: string) {
    super(message)
    this.name = 'HouseholdChartError'
    this.code = code
    if (path !== undefined) this.path = path
  }
}

// ---------------------------------------------------------------------------------------------
// The implementation.

const SANDBOX = 'allow-scripts allow-same-origin'
/** Present mode asks for fullscreen: a permissions policy, which the sandbox leaves as it is. */
const ALLOW = 'fullscreen'
/** What this page does for the chart (a render's `handles`): save its files and print its document. */
const HANDLES = ['download', 'print']
/**
 * The print frame may be scripted by this page (same origin) and open the print dialog (modals),
 * and nothing inside it may run: no allow-scripts.
 */
const PRINT_SANDBOX = 'allow-same-origin allow-modals'
/**
 * Dropped from the print document before it is shown: whatever could run, embed or load something,
 * style elements (their @import and url() would load; the document's CSS comes cleaned, below), and
 * SVG animations, which could set an attribute (an href) to a URL after the cleaning.
 */
const PRINT_DROPPED_ELEMENTS = 'script, iframe, frame, frameset, object, embed, link, meta, base, style, animate, set, animateMotion, animateTransform'
/** Attributes a browser fetches from: the print document keeps only in-document (#…) and data: values. */
const PRINT_URL_ATTRIBUTES: ReadonlySet<string> = new Set(['src', 'srcset', 'href', 'xlink:href', 'data', 'poster', 'background', 'action', 'formaction'])
const IN_MEMORY_URL = /^\s*(#|data:)/i
/** A CSS escape (\72 or \r), as a browser decodes it before it reads a value: `u\72l(` is url(. */
const CSS_ESCAPE = /\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|([^\n\r\f]))/gi
/** A url() other than an in-document url(#…), in a value whose escapes are decoded and case lowered. */
const REMOTE_CSS_URL = /url\((?!\s*['"]?\s*#)/
/** CSS functions that take a URL as a plain string, which loads like a url(): image-set("…"), image("…"), src("…"). */
const CSS_STRING_URL_FUNCTION = /(?:^|[^a-z0-9_-])(?:-webkit-image-set|image-set|image|src)\(/
/** What a download may be saved as, and the extension its name must end in. */
const SAVED_FILE_TYPES: ReadonlyMap<string, string> = new Map([
  ['image/png', '.png'],
  ['image/svg+xml', '.svg'],
])
/**
 * Not in a saved file's name: path separators, what Windows refuses, control characters, and the
 * bidirectional controls that can make "gnp.html" read as "lmth.png" (as the chart's own names avoid).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const UNSAFE_FILE_NAME = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu
/** A leading dot hides a file on Unix (and "." and ".." are no names). */
const LEADING_DOTS = /^[\s.]+/u
/** How long an object URL outlives the click on its download link: the download has resolved it by then. */
const REVOKE_AFTER_MS = 60_000
const DEFAULT_READY_TIMEOUT_MS = 15_000
/** Tokens are refreshed this long before they expire. */
const REFRESH_LEAD_MS = 60_000
/** Never refresh sooner than this after getting a token (guards against very short tokens). */
const MIN_REFRESH_DELAY_MS = 5_000
/** A cached token with less time than this left is not used for a new render. */
const MIN_TOKEN_VALIDITY_MS = 15_000
/** Refreshes in a row with no render in between, after which an idle page stops fetching tokens. */
const MAX_IDLE_REFRESHES = 3
const MAX_HEIGHT = 100_000
const MAX_TIMER_DELAY_MS = 2_147_483_647
const VERSION = /^\d+\.\d+\.\d+$/
const CHART_ERROR_CODES: ReadonlySet<string> = new Set(['token_invalid', 'token_expired', 'origin_mismatch', 'version_unsupported', 'payload_invalid', 'appearance_invalid'])
const THEMES: ReadonlySet<string> = new Set(['light', 'dark', 'system'])
const VIEWS: ReadonlySet<string> = new Set(['family', 'structure', 'estate', 'flow'])

/** One mounted chart per container. */
const mounted = new WeakMap<HTMLElement, HouseholdChartHandle>()

interface HeldToken {
  token: string
  expiresAtMs: number
}

export function mountHouseholdChart(options: MountHouseholdChartOptions): HouseholdChartHandle {
  const { container, title, fetchToken, onEvent } = options
  const embedOrigin = checkEmbedOrigin(options.embedOrigin)
  const version = checkVersion(options.version ?? SDK_CHART_VERSION)
  if (!isElementLike(container)) throw new TypeError('mountHouseholdChart: container must be an HTMLElement')
  if (typeof title !== 'string' || title.trim() === '') throw new TypeError('mountHouseholdChart: title is required (the iframe\'s accessible name)')
  if (typeof fetchToken !== 'function') throw new TypeError('mountHouseholdChart: fetchToken must be a function returning a Promise of { token, expiresAt }')
  if (options.theme !== undefined && !THEMES.has(options.theme)) throw new TypeError(`mountHouseholdChart: theme must be light, dark or system, got ${JSON.stringify(options.theme)}`)
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS
  if (!Number.isFinite(readyTimeoutMs) || readyTimeoutMs <= 0) throw new TypeError('mountHouseholdChart: readyTimeoutMs must be a positive number of milliseconds')

  mounted.get(container)?.destroy()

  let payload = options.payload
  let theme: ChartTheme | undefined = options.theme
  let appearance: HouseholdChartAppearance | undefined = options.appearance
  /** A setView before the first render: sent once the chart has rendered. */
  let openingView: ChartView | undefined
  /** The frame the last print document is printed from, until the browser's afterprint. */
  let printFrame: HTMLIFrameElement | undefined
  let destroyed = false
  /** The chart said `ready` (since its last load) and takes render messages. */
  let chartReady = false
  /** The chart said `rendered` since its last `ready`: theme messages work. */
  let chartRendered = false
  let held: HeldToken | undefined
  /**
   * A token_expired is answered with one new token; if the chart finds that one expired too (a
   * clock far off, a server minting stale tokens) it is reported, not retried: no loop. A render
   * that succeeds allows the next retry.
   */
  let expiredRetryAvailable = true
  let tokenRequest: Promise<HeldToken | undefined> | undefined
  /** Each render asks for a number; only the newest one is posted once its token is there. */
  let renderSeq = 0
  let refreshTimer: ReturnType<typeof setTimeout> | undefined
  /** Refreshes since the last render; at MAX_IDLE_REFRESHES no further refresh is scheduled. */
  let idleRefreshes = 0

  let settleReady: { resolve: () => void; reject: (error: HouseholdChartError) => void } | undefined
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = { resolve, reject }
  })
  // Rejections of `ready` are for whoever awaits it; nobody awaiting it is not an error.
  ready.catch(() => undefined)

  const iframe = document.createElement('iframe')
  // The sandbox must be in place before the frame navigates: set it first, exactly as specified.
  iframe.setAttribute('sandbox', SANDBOX)
  // The chart page's CSP names in frame-ancestors only the origin found in the Referer of this
  // frame's navigation (when that origin is registered). A host page served with
  // `Referrer-Policy: no-referrer` would send no Referer and the chart would refuse to be framed;
  // 'origin' sends the page's origin, and only that (never its path or query, which may name a
  // client), whatever the host page's own policy.
  iframe.referrerPolicy = 'origin'
  iframe.allow = ALLOW
  iframe.title = title
  iframe.loading = 'eager'
  // CSSOM, not a style attribute: a host page whose CSP has no 'unsafe-inline' in style-src allows this.
  iframe.style.width = '100%'
  iframe.style.border = '0'
  iframe.style.display = 'block'
  iframe.src = `${embedOrigin}/chart/v${version}/index.html`

  const emit = (event: ChartEvent): void => {
    if (!onEvent || destroyed) return
    try {
      onEvent(event)
    } catch (error) {
      // The host's handler failing must not break the chart: report it, as an event listener's would be.
      setTimeout(() => {
        throw error
      })
    }
  }

  /** Reports an error through onEvent, and through `ready` when the chart has not rendered yet. */
  const fail = (error: HouseholdChartError): void => {
    emit({ type: 'error', code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) })
    settleReady?.reject(error)
    settleReady = undefined
  }

  const post = (message: Record<string, unknown>): void => {
    // The target origin pins the receiver: if the frame were navigated elsewhere, nothing is delivered.
    iframe.contentWindow?.postMessage(message, embedOrigin)
  }

  const clearRefresh = (): void => {
    if (refreshTimer !== undefined) clearTimeout(refreshTimer)
    refreshTimer = undefined
  }

  const scheduleRefresh = (token: HeldToken): void => {
    clearRefresh()
    // An idle page: keep the token there is, and let the next render fetch one if it needs to.
    if (idleRefreshes >= MAX_IDLE_REFRESHES) return
    const remaining = token.expiresAtMs - Date.now()
    // Already expired by this clock: no timer (it would fire at once, again and again); the chart
    // answers token_expired if it really is, and that fetches a new one.
    if (remaining <= 0) return
    const wanted = Math.max(remaining > 2 * REFRESH_LEAD_MS ? remaining - REFRESH_LEAD_MS : remaining / 2, MIN_REFRESH_DELAY_MS)
    // setTimeout fires at once for delays past 2^31 - 1 ms (24.8 days): never ask for more.
    const delay = Math.min(wanted, MAX_TIMER_DELAY_MS)
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined
      // Quietly: the new token is held for the next render. Rendering now would rebuild the chart
      // (losing the user's pan, zoom and focus) and meter a render nobody asked for.
      idleRefreshes++
      void getToken(true)
    }, delay)
  }

  /** A render is on its way: refreshing carries on (or starts again after an idle stop). */
  const noteRender = (): void => {
    idleRefreshes = 0
    if (refreshTimer === undefined && tokenRequest === undefined && held) scheduleRefresh(held)
  }

  /**
   * The held token, or a new one when there is none, it is about to expire, or `fresh` is asked.
   * Concurrent callers share one fetch. A failure is reported once, here, and gives undefined.
   */
  const getToken = (fresh: boolean): Promise<HeldToken | undefined> => {
    if (tokenRequest) return tokenRequest
    if (!fresh && held && held.expiresAtMs - Date.now() > MIN_TOKEN_VALIDITY_MS) return Promise.resolve(held)
    const request: Promise<HeldToken | undefined> = Promise.resolve()
      .then(() => fetchToken())
      .then(
        (answer) => {
          const token = checkToken(answer)
          if (!destroyed) {
            held = token
            scheduleRefresh(token)
          }
          return token
        },
        (error: unknown) => {
          throw tokenFetchError(error)
        },
      )
      .catch((error: unknown) => {
        if (!destroyed) fail(error instanceof HouseholdChartError ? error : tokenFetchError(error))
        return undefined
      })
      .finally(() => {
        if (tokenRequest === request) tokenRequest = undefined
      })
    tokenRequest = request
    return request
  }

  /** The payload as sent: the theme chosen through the SDK wins over payload.options.theme. */
  const renderedPayload = (): HouseholdChartPayload => (theme === undefined ? payload : { ...payload, options: { ...payload.options, theme } })

  /** Posts a render of the current payload once a token is there; a newer render supersedes it. */
  const render = (freshToken = false): void => {
    if (!chartReady || destroyed) return
    noteRender()
    const seq = ++renderSeq
    void getToken(freshToken).then((token) => {
      if (!token || destroyed || !chartReady || seq !== renderSeq) return
      post({
        type: 'render',
        v: PROTOCOL_VERSION,
        token: token.token,
        payload: renderedPayload(),
        handles: HANDLES,
        ...(appearance === undefined ? {} : { appearance }),
      })
    })
  }

  const onMessage = (event: MessageEvent): void => {
    // Mounting rule 3: only the chart's own window, on the embed origin. Anything else — other
    // frames, other tabs, extensions, the host page itself — is ignored without a word.
    if (destroyed || event.origin !== embedOrigin || event.source === null || event.source !== iframe.contentWindow) return
    const data: unknown = event.data
    if (typeof data !== 'object' || data === null) return
    const message = data as Record<string, unknown>
    switch (message.type) {
      case 'ready':
        clearReadyTimer()
        chartReady = true
        chartRendered = false
        render()
        return
      case 'rendered':
      case 'resize': {
        const height = message.height
        if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return
        iframe.style.height = `${Math.ceil(Math.min(height, MAX_HEIGHT))}px`
        if (message.type === 'rendered') {
          chartRendered = true
          expiredRetryAvailable = true
          if (openingView !== undefined) post({ type: 'setView', v: PROTOCOL_VERSION, view: openingView })
          openingView = undefined
          emit({ type: 'rendered', height })
          settleReady?.resolve()
          settleReady = undefined
        } else {
          emit({ type: 'resize', height })
        }
        return
      }
      case 'select':
        if (typeof message.id === 'string' && (message.kind === 'person' || message.kind === 'entity')) emit({ type: 'select', id: message.id, kind: message.kind })
        return
      case 'viewchange':
        if (typeof message.view === 'string' && VIEWS.has(message.view)) emit({ type: 'viewchange', view: message.view as ChartView })
        return
      case 'estate': {
        // The chart computed it from the payload this page sent; only its shape's version is checked.
        const projection = message.projection
        if (isEstateProjection(projection)) emit({ type: 'estate', projection })
        return
      }
      case 'download': {
        // Only the chart's two formats are saved, as their own type: no HTML (or anything else) is
        // handed to the reader's browser under this page's origin.
        const mediaType = message.mediaType
        const extension = typeof mediaType === 'string' ? SAVED_FILE_TYPES.get(mediaType) : undefined
        if (extension !== undefined && typeof message.fileName === 'string' && message.data instanceof Blob)
          saveFile(savedFileName(message.fileName, extension), new Blob([message.data], { type: mediaType as string }))
        return
      }
      case 'printdocument':
        if (typeof message.title === 'string' && typeof message.html === 'string' && typeof message.css === 'string') {
          printFrame?.remove()
          printFrame = printDocument(message.title, message.html, message.css)
        }
        return
      case 'error': {
        const code = message.code
        if (typeof code !== 'string' || !CHART_ERROR_CODES.has(code)) return
        if (code === 'token_expired') {
          // A new token is on its way (a refresh, or the retry below): this is about an older one.
          // Render with the new one; if a render is already waiting for it, this one replaces it.
          if (tokenRequest !== undefined) {
            render()
            return
          }
          if (expiredRetryAvailable) {
            expiredRetryAvailable = false
            render(true)
            return
          }
        }
        const text = typeof message.message === 'string' ? message.message : `the chart reported ${code}`
        fail(new HouseholdChartError(code as HouseholdChartErrorCode, text, typeof message.path === 'string' ? message.path : undefined))
        return
      }
      default:
        return
    }
  }

  let readyTimer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    readyTimer = undefined
    fail(readyTimeoutError(embedOrigin, version, readyTimeoutMs))
  }, readyTimeoutMs)
  const clearReadyTimer = (): void => {
    if (readyTimer !== undefined) clearTimeout(readyTimer)
    readyTimer = undefined
  }

  // Listen before the frame exists, so its `ready` cannot be missed.
  window.addEventListener('message', onMessage)
  container.appendChild(iframe)
  // The token is fetched while the frame loads; a failure is reported at once.
  void getToken(false)

  const handle: HouseholdChartHandle = {
    iframe,
    ready,
    update(next: HouseholdChartPayload): void {
      if (destroyed) return
      payload = next
      render()
    },
    setTheme(next: ChartTheme): void {
      if (destroyed) return
      if (!THEMES.has(next)) throw new TypeError(`setTheme: theme must be light, dark or system, got ${JSON.stringify(next)}`)
      theme = next
      if (chartRendered) post({ type: 'theme', v: PROTOCOL_VERSION, theme: next })
      else render()
    },
    setView(view: ChartView): void {
      if (destroyed) return
      if (!VIEWS.has(view)) throw new TypeError(`setView: view must be family, structure, estate or flow, got ${JSON.stringify(view)}`)
      if (chartRendered) post({ type: 'setView', v: PROTOCOL_VERSION, view })
      else openingView = view
    },
    focus(id: string): void {
      if (destroyed) return
      if (typeof id !== 'string') throw new TypeError(`focus: id must be the string id of a person or an entity, got ${String(id)}`)
      if (chartRendered) post({ type: 'focus', v: PROTOCOL_VERSION, id })
    },
    print(): void {
      // The chart answers with its print document (printdocument, handled above).
      if (!destroyed && chartRendered) post({ type: 'print', v: PROTOCOL_VERSION })
    },
    setAppearance(next: HouseholdChartAppearance): void {
      if (destroyed) return
      // Checked here by the chart's own rules, so a refused appearance is never held for the next
      // render (which the chart would refuse as a whole): the one the chart has stays.
      const reading = readAppearance(next)
      if (!reading.ok) {
        emit({ type: 'error', code: 'appearance_invalid', message: reading.message })
        return
      }
      appearance = reading.appearance
      if (chartRendered) post({ type: 'appearance', v: PROTOCOL_VERSION, appearance: reading.appearance })
      else render()
    },
    destroy(): void {
      if (destroyed) return
      destroyed = true
      window.removeEventListener('message', onMessage)
      clearReadyTimer()
      clearRefresh()
      iframe.remove()
      printFrame?.remove()
      if (mounted.get(container) === handle) mounted.delete(container)
      settleReady?.reject(new HouseholdChartError('destroyed', 'the chart was destroyed before it rendered'))
      settleReady = undefined
    },
  }
  mounted.set(container, handle)
  return handle
}

/** Saves `data` as a file named `fileName` (made safe by savedFileName, and by the browser), through a download link. */
function saveFile(fileName: string, data: Blob): void {
  const url = URL.createObjectURL(data)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  // In the document while clicked: some browsers follow no link that is not.
  link.hidden = true
  document.body.appendChild(link)
  link.click()
  link.remove()
  // Revoked later, not now: a browser may resolve the URL after the click's task.
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS)
}

/**
 * Prints the chart's print document from a hidden frame of this page, and returns the frame (it
 * removes itself after printing). The frame runs nothing (see PRINT_SANDBOX), and the markup is
 * parsed inertly and cleaned before it is shown, as defence in depth: the chart sends no script.
 */
function printDocument(title: string, html: string, css: string): HTMLIFrameElement | undefined {
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', PRINT_SANDBOX)
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  frame.title = title
  // Laid out but not seen: a frame with display: none prints nothing in some browsers.
  frame.style.position = 'fixed'
  frame.style.width = '0'
  frame.style.height = '0'
  frame.style.border = '0'
  document.body.appendChild(frame)
  // The frame's initial about:blank document, on this page's origin (allow-same-origin).
  const view = frame.contentWindow as (Window & typeof globalThis) | null
  const target = frame.contentDocument
  if (!view || !target) {
    frame.remove()
    return undefined
  }
  const parsed = new DOMParser().parseFromString(html, 'text/html')
  for (const element of parsed.querySelectorAll(PRINT_DROPPED_ELEMENTS)) element.remove()
  for (const element of parsed.querySelectorAll('*')) {
    for (const name of element.getAttributeNames()) {
      const lower = name.toLowerCase()
      const value = element.getAttribute(name) ?? ''
      const fetches = PRINT_URL_ATTRIBUTES.has(lower) && !IN_MEMORY_URL.test(value)
      // style: the chart's print block sets none, and one could load (url(), image-set()) or
      // restyle past the cleaned CSS. Any other attribute with a url(): SVG's presentation
      // attributes (fill, filter, mask, clip-path, marker-*) load it; url(#…) stays in the document.
      if (lower.startsWith('on') || lower === 'style' || fetches || REMOTE_CSS_URL.test(decodedCss(value))) element.removeAttribute(name)
    }
  }
  target.title = title
  target.body.replaceChildren(...Array.from(parsed.body.childNodes, (node) => target.importNode(node, true)))
  applyPrintStyles(view, target, css)
  view.addEventListener('afterprint', () => frame.remove(), { once: true })
  view.print()
  return frame
}

/**
 * The print document's CSS, cleaned (see cleanRules), through a constructable stylesheet: a strict
 * host CSP (style-src without 'unsafe-inline'), which the frame inherits, refuses a <style> element
 * but not a sheet made by script. A browser that cannot adopt the sheet gets its cleaned rules in a
 * <style> element; one that cannot construct it either prints without the chart's CSS, as nothing
 * else here parses CSS without applying it.
 */
function applyPrintStyles(view: Window & typeof globalThis, target: Document, css: string): void {
  if (typeof view.CSSStyleSheet !== 'function' || typeof view.CSSStyleSheet.prototype.replaceSync !== 'function') return
  // A sheet may only be adopted by a document of the window that made it: the frame's own. It is
  // cleaned before it is adopted, so nothing in it has been applied (or loaded) yet. replaceSync
  // leaves out @import rules itself; cleanRules drops any that a browser keeps.
  const sheet = new view.CSSStyleSheet()
  sheet.replaceSync(css)
  cleanRules(view, sheet)
  // Missing where the browser cannot adopt a sheet (the DOM's type says it always can).
  const adoptable: Partial<Pick<Document, 'adoptedStyleSheets'>> = target
  if (adoptable.adoptedStyleSheets !== undefined) {
    target.adoptedStyleSheets = [sheet]
    return
  }
  const style = target.createElement('style')
  style.textContent = Array.from(sheet.cssRules, (rule) => rule.cssText).join('\n')
  target.head.appendChild(style)
}

/**
 * Takes out of `parent` (a sheet, or a rule that holds rules: @media, @supports, @layer, @container,
 * nested style rules) whatever would load from a server: @import and @font-face rules, other rules
 * whose text names a URL (e.g. @property's initial-value), and declarations whose value does. Rules
 * inside rules are cleaned the same way, @keyframes' frames included. The rules are the frame's
 * (`view`'s), so they are told apart by its classes: this page's would never match them.
 */
function cleanRules(view: Window & typeof globalThis, parent: CSSStyleSheet | CSSGroupingRule | CSSKeyframesRule): void {
  const rules = parent.cssRules
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index]!
    const holdsRules = rule instanceof view.CSSGroupingRule || rule instanceof view.CSSKeyframesRule
    const declarations = 'style' in rule && rule.style instanceof view.CSSStyleDeclaration ? rule.style : undefined
    if (declarations) cleanDeclarations(declarations)
    if (holdsRules) cleanRules(view, rule)
    // @namespace names a URL but loads nothing (and may not be deleted while other rules follow it).
    const namesUrl = !holdsRules && declarations === undefined && !(rule instanceof view.CSSNamespaceRule) && loadsInCss(rule.cssText)
    const dropped = rule instanceof view.CSSImportRule || rule instanceof view.CSSFontFaceRule || namesUrl
    // @keyframes holds only frames, which hold declarations (cleaned above): nothing there is dropped.
    if (dropped && !(parent instanceof view.CSSKeyframesRule)) parent.deleteRule(index)
  }
}

/** Removes every declaration whose value loads from a URL (custom properties included: var() would carry it). */
function cleanDeclarations(style: CSSStyleDeclaration): void {
  for (let index = style.length - 1; index >= 0; index--) {
    const name = style.item(index)
    if (loadsInCss(style.getPropertyValue(name))) style.removeProperty(name)
  }
}

/** Whether CSS `text` loads from a server: a url() other than url(#…), or a function that takes a URL as a string. */
function loadsInCss(text: string): boolean {
  const decoded = decodedCss(text)
  return REMOTE_CSS_URL.test(decoded) || CSS_STRING_URL_FUNCTION.test(decoded)
}

/** `text` with its CSS escapes decoded and in lower case, as a browser reads a function's name. */
function decodedCss(text: string): string {
  return text
    .replace(CSS_ESCAPE, (_escape: string, hex: string | undefined, character: string | undefined) => {
      if (hex === undefined) return character ?? ''
      const codePoint = Number.parseInt(hex, 16)
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '\ufffd'
    })
    .toLowerCase()
}

/**
 * `fileName` as it is saved: path separators, control characters and leading dots replaced or
 * dropped, and ending in `extension` (the chart's names already do, and keep as they are).
 */
function savedFileName(fileName: string, extension: string): string {
  const safe = fileName.replace(UNSAFE_FILE_NAME, '_').replace(LEADING_DOTS, '')
  return safe.toLowerCase().endsWith(extension) ? safe : `${safe || 'chart'}${extension}`
}

/** A plain-JavaScript caller may pass anything as the container: it must at least take children. */
function isElementLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { appendChild?: unknown }).appendChild === 'function'
}

function checkEmbedOrigin(input: unknown): string {
  const rule = 'embedOrigin must be a bare origin such as https://embed.hearth.example (scheme, host and port; no path or trailing slash)'
  if (typeof input !== 'string') throw new TypeError(`mountHouseholdChart: ${rule}`)
  let url: URL
  try {
    url = new URL(input)
  } catch {
    throw new TypeError(`mountHouseholdChart: ${rule}, got "${input}"`)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== input) {
    throw new TypeError(`mountHouseholdChart: ${rule}, got "${input}"${url.origin !== 'null' && url.origin !== input ? ` (did you mean ${url.origin}?)` : ''}`)
  }
  return url.origin
}

function checkVersion(input: unknown): string {
  if (input === 'latest') throw new TypeError('mountHouseholdChart: version "latest" is not served: pin a released version such as 0.1.0')
  if (typeof input !== 'string' || !VERSION.test(input)) throw new TypeError(`mountHouseholdChart: version must be a released version x.y.z, got ${JSON.stringify(input)}`)
  return input
}

function checkToken(answer: unknown): HeldToken {
  if (typeof answer !== 'object' || answer === null) throw new TypeError('fetchToken must resolve to { token, expiresAt }')
  const { token, expiresAt } = answer as Record<string, unknown>
  if (typeof token !== 'string' || token === '') throw new TypeError('fetchToken resolved without a token')
  const expiresAtMs = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN
  if (Number.isNaN(expiresAtMs)) throw new TypeError(`fetchToken resolved with an expiresAt that is not a date: ${JSON.stringify(expiresAt)}`)
  return { token, expiresAtMs }
}

function tokenFetchError(cause: unknown): HouseholdChartError {
  const why = cause instanceof Error ? cause.message : String(cause)
  return new HouseholdChartError('token_fetch_failed', `fetchToken failed: ${why}. It should call your server, which mints a token with POST /api/v1/embed/chart-sessions and answers { token, expiresAt }.`)
}

function readyTimeoutError(embedOrigin: string, version: string, timeoutMs: number): HouseholdChartError {
  return new HouseholdChartError(
    'ready_timeout',
    `The household chart (${embedOrigin}/chart/v${version}/index.html) did not say ready within ${timeoutMs} ms. Likely causes: ` +
      `(1) this page's origin (${window.location.origin}) is not registered for your organization, so the chart refuses to be framed — register it with \`hearth origins add\`; ` +
      `(2) this page's Content-Security-Policy blocks the embed origin — add ${embedOrigin} to frame-src (or child-src); ` +
      `(3) the embed origin could not identify this page's origin because the frame's Referer was stripped (e.g. by a browser extension or a proxy), so the chart refuses to be framed; ` +
      `(4) a wrong embedOrigin or version — the page above must load in a browser tab; ` +
      `(5) a slow network — raise readyTimeoutMs.`,
  )
}

/** What the Flow view's controls choose; each overrides the payload's assumptions. */
export interface EstateProjectionChoices {
  /** The client who dies first. */
  readonly firstDeath?: string
  readonly firstDeathYear?: number
  readonly secondDeathYear?: number
  /** What "this year" is when the payload names no year and no household.asOf; default: now. */
  readonly today?: Date
}

/**
 * The chart's estate projection as a pure function (0.3.0): the same calculator the chart runs,
 * on a payload the chart would accept, so your page can show or test the figures without the iframe.
 * Nothing is sent anywhere. A payload the chart would refuse gives figures as best it can; validate
 * it against payload.schema.json first when you need certainty.
 */
export function projectEstate(payload: HouseholdChartPayload, choices: EstateProjectionChoices = {}): EstateProjection {
  return projectWithChart(payload, choices)
}

function isEstateProjection(value: unknown): value is EstateProjection {
  return typeof value === 'object' && value !== null && (value as { version?: unknown }).version === 1
}
