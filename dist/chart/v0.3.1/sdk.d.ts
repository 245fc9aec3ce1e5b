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
/** The chart release this SDK belongs to, and the version it mounts unless told otherwise. */
export declare const SDK_CHART_VERSION: string;
/** The render message's protocol version. */
export declare const PROTOCOL_VERSION = 1;
export type ChartTheme = 'light' | 'dark' | 'system';
export type PersonRole = 'primaryClient' | 'coClient' | 'spouse' | 'child' | 'grandchild' | 'greatGrandchild' | 'parent' | 'sibling' | 'inLaw' | 'other';
export type RelationshipType = 'spouse' | 'partner' | 'exSpouse' | 'parent';
/**
 * Trusts, business entities, charities, holdings, parties (corporateTrustee, lawFirm, otherParty:
 * they act but hold nothing and are never counted), and `other`, 0.1.x's catch-all.
 */
export type EntityKind = 'revocableTrust' | 'irrevocableTrust' | 'ilit' | 'slat' | 'grat' | 'crt' | 'clt' | 'qprt' | 'qtip' | 'creditShelterTrust' | 'dynastyTrust' | 'specialNeedsTrust' | 'llc' | 'flp' | 'corporation' | 'foundation' | 'daf' | 'publicCharity' | 'taxableAccount' | 'retirementAccount' | 'lifeInsurance' | 'realEstate' | 'businessInterest' | 'otherAsset' | 'corporateTrustee' | 'lawFirm' | 'otherParty' | 'other';
export type LinkType = 'grantor' | 'trustee' | 'successorTrustee' | 'beneficiary' | 'owner' | 'insured' | 'generalPartner' | 'limitedPartner';
/** How a parent is a parent; absent means biological. */
export type ParentKind = 'biological' | 'adopted' | 'step' | 'foster';
/** A beneficiary's standing; absent means primary. */
export type BeneficiaryType = 'primary' | 'contingent' | 'income' | 'remainder';
export interface HouseholdChartPerson {
    /** Your identifier: 1–64 letters, digits and _ . : -; people and entities share one namespace. */
    id: string;
    /** Shown as plain text, never as markup (1–200 characters). */
    name: string;
    role: PersonRole;
    /** YYYY-MM-DD */
    birthDate?: string;
    /** YYYY-MM-DD; set for a deceased person, who is drawn muted and marked †. */
    deathDate?: string;
    /** 0.3.0: whether a US citizen; a surviving spouse who is not gets no marital deduction. Absent: assumed a citizen. */
    usCitizen?: boolean;
    /** 0.3.0: a DSUE already received from a spouse who died before; adds to the exclusion until a later spouse dies. */
    dsueReceived?: {
        amount: number;
        /** The deceased spouse, a person of the payload. */
        from?: string;
        /** false: portability was not elected, the amount is not counted. Absent: assumed elected. */
        portabilityElected?: boolean;
    };
}
export interface HouseholdChartRelationship {
    from: string;
    to: string;
    /** spouse, partner and exSpouse join two people side by side; parent means `from` is a parent of `to`. */
    type: RelationshipType;
    /** Only on parent: drawn in the usual genogram line style. */
    parentKind?: ParentKind;
    /** Only on spouse, partner and exSpouse, YYYY-MM-DD: when it began ("m. 1990"). */
    since?: string;
    /** Only on spouse, partner and exSpouse, YYYY-MM-DD: when it ended; not before since. */
    until?: string;
}
export interface HouseholdChartEntity {
    id: string;
    name: string;
    /** 1–40 characters: the label of boxes, chips and lines when the name is too long (e.g. "SLAT-C"). */
    shortName?: string;
    kind: EntityKind;
    /** Value in the household's currency, shown rounded (0 to 1e13). A party has none. */
    value?: number;
    /** YYYY-MM-DD: the date the value is from. */
    valueAsOf?: string;
    /** Inside or outside the taxable estate; defaults by kind. A party has none. */
    estate?: 'in' | 'out';
}
export interface HouseholdChartLink {
    /** The person or entity that is grantor, trustee, beneficiary or owner. */
    from: string;
    /** The entity. */
    to: string;
    type: LinkType;
    /** Percentage for beneficiaries, owners and partners: 50 means 50 %. */
    share?: number;
    /** Only on beneficiary. */
    beneficiaryType?: BeneficiaryType;
}
/** 0.3.0: a person's lifetime taxable gifts (after 1976, not in the gross estate), one entry per donor. */
export interface HouseholdChartGift {
    donor: string;
    /** Absent: gifts were made whose amount is not known (counted as none, and the Flow view says so). */
    taxableGifts?: number;
    /** The part of the basic exclusion the gifts used; gift tax was paid on the rest. Absent: all of taxableGifts, up to the year of death's basic exclusion. */
    exclusionUsed?: number;
}
/**
 * 0.3.0: where part of a client's estate goes at their death. Exactly one of share, amount and
 * formula. Amounts first, then the formula, then shares of what is left; the rest by the default
 * (all to the surviving spouse, else to the descendants by branch).
 */
export interface HouseholdChartDisposition {
    /** The client (primaryClient or coClient) at whose death it takes effect. */
    at: string;
    /** An entity whose part of the estate it disposes of; absent: the rest of the estate. */
    from?: string;
    /** A person, a trust (kind qtip: the marital deduction) or a charity (the charitable deduction). */
    to: string;
    /** A percentage of what is left after amounts and the formula. */
    share?: number;
    amount?: number;
    /** unusedExclusion: as much as passes free of estate tax (a credit-shelter gift). */
    formula?: 'unusedExclusion';
}
/** 0.3.0: the estate projection's assumptions; the Flow view's controls start from them. */
export interface HouseholdChartAssumptions {
    /** The client who dies first; absent: the primary client. */
    firstDeath?: string;
    /** 2025–2200; absent: the year of household.asOf, else this year. */
    firstDeathYear?: number;
    /** Not before the first; absent: the first death's year. */
    secondDeathYear?: number;
    /** The basic exclusion for a year after the last one the chart knows (2026: $15,000,000). */
    basicExclusion?: number;
    /** Whether the first decedent's executor elects portability; absent: elected. */
    portabilityElected?: boolean;
}
export interface HouseholdChartPayload {
    household: {
        name: string;
        /** ISO 4217 code of every value's currency, e.g. "USD". */
        currency?: string;
        /** YYYY-MM-DD: the date the figures are as of, printed in the title block. */
        asOf?: string;
    };
    people: HouseholdChartPerson[];
    relationships?: HouseholdChartRelationship[];
    entities?: HouseholdChartEntity[];
    links?: HouseholdChartLink[];
    gifts?: HouseholdChartGift[];
    dispositions?: HouseholdChartDisposition[];
    assumptions?: HouseholdChartAssumptions;
    options?: {
        theme?: ChartTheme;
    };
}
/** One part of a figure, traceable to where it comes from. */
export interface ProjectionLine {
    /** What it is, in words: "Smith Family Revocable Trust", "2 % of Smith FLP", "From Robert’s estate (outright)". */
    readonly label: string;
    readonly amount: number;
    /** The entity it comes from, when it comes from one. */
    readonly entityId?: string;
    /** For a line of an entity: the fraction of the entity's own value it is (0.02 for 2 %). */
    readonly fraction?: number;
    /** The death whose transfer it comes from (an index into deaths), for what a survivor received. */
    readonly fromDeath?: number;
    /** Half of what both clients hold jointly (passes to the survivor by survivorship). */
    readonly joint?: boolean;
}
export interface ProjectionFigure {
    readonly total: number;
    readonly lines: readonly ProjectionLine[];
}
/** entity: a business or a holding that receives (an LLC, an account); trust: any trust; charity: a foundation, DAF or public charity. */
export type RecipientKind = 'spouse' | 'person' | 'trust' | 'entity' | 'charity' | 'heirs' | 'tax';
/** How a transfer at a death is made. */
export type TransferHow = 
/** Half of joint property, to the surviving joint owner, whatever the dispositions say. */
'survivorship'
/** By one of the payload's dispositions (dispositionIndex). */
 | 'disposition'
/** By the common default: to the surviving spouse, else to the descendants by branch. */
 | 'default';
export interface ProjectionTransfer {
    /** A person or entity id; absent for other heirs (no descendants in the chart). */
    readonly toId?: string;
    readonly toName: string;
    readonly toKind: Exclude<RecipientKind, 'tax'>;
    readonly how: TransferHow;
    readonly dispositionIndex?: number;
    /** The entity the disposition named as `from`, when it did. */
    readonly fromEntityId?: string;
    /** Before the estate tax. */
    readonly amount: number;
    /** The part of the estate tax it bears (what does not qualify for a deduction bears it first). */
    readonly taxBorne: number;
    /** What it receives: amount − taxBorne. */
    readonly net: number;
    readonly deduction: 'marital' | 'charitable' | null;
    /** Counted again in the survivor's gross estate (outright to the survivor, or a QTIP trust). */
    readonly inSurvivorsEstate: boolean;
}
export interface ProjectionExclusion {
    readonly year: number;
    readonly amount: number;
    /** table: the year's own amount; lastKnown: a later year, the last known year's; assumed: assumptions.basicExclusion. */
    readonly basis: 'table' | 'lastKnown' | 'assumed';
    readonly sourceYear: number;
    readonly source: string;
}
export interface ProjectionDeath {
    readonly decedentId: string;
    readonly decedentName: string;
    readonly year: number;
    /** The spouse who survives this death (married, so the marital deduction and portability apply). */
    readonly survivingSpouseId?: string;
    readonly grossEstate: ProjectionFigure;
    readonly maritalDeduction: ProjectionFigure;
    readonly charitableDeduction: ProjectionFigure;
    /** Gross estate − marital deduction − charitable deduction. */
    readonly taxableEstate: number;
    readonly adjustedTaxableGifts: number;
    /** Taxable estate + adjusted taxable gifts: what the tentative tax is on. */
    readonly taxBase: number;
    readonly tentativeTax: number;
    /** Gift tax payable on the lifetime gifts (on the part the exclusion did not cover). */
    readonly giftTaxPayable: number;
    readonly basicExclusion: ProjectionExclusion;
    /** DSUE counted in the applicable exclusion, and whose. */
    readonly dsue: {
        readonly amount: number;
        readonly fromId?: string;
        readonly fromName?: string;
    };
    /** Basic exclusion + DSUE. */
    readonly applicableExclusion: number;
    /** The tentative tax on the applicable exclusion. */
    readonly applicableCredit: number;
    /** max(0, tentative tax − gift tax payable − applicable credit). */
    readonly estateTax: number;
    /** The DSUE this death passes to the surviving spouse (0 when none survives or portability is not elected). */
    readonly dsuePassed: number;
    readonly transfers: readonly ProjectionTransfer[];
}
export interface ProjectionRecipient {
    /** A person or entity id; absent for other heirs and for the tax. */
    readonly id?: string;
    readonly name: string;
    readonly kind: RecipientKind;
    readonly amount: number;
    /** What it receives at each death (the tax: at each death). */
    readonly lines: readonly ProjectionLine[];
}
export interface ProjectionAssumptions {
    /** The clients in the order they die (one or two). */
    readonly order: readonly string[];
    /** The year of each death, in that order. */
    readonly years: readonly number[];
    readonly portabilityElected: boolean;
    /** Whether the payload said so (false: the default, elected). */
    readonly portabilityStated: boolean;
    readonly married: boolean;
}
export type ProjectionWarningCode = 'noLivingClient' | 'notMarried' | 'nonCitizenSpouse' | 'citizenshipAssumed' | 'portabilityAssumed' | 'dsueNotElected' | 'giftsAmountUnknown' | 'unassignedValue' | 'deceasedClientHolds' | 'firstDeathNotLiving' | 'dispositionNotApplied' | 'bequestLapsed' | 'priorDsueReplaced' | 'yearAdjusted' | 'basicExclusionNotUsed' | 'giftExclusionAssumed' | 'amountsTooLarge';
export interface ProjectionWarning {
    readonly code: ProjectionWarningCode;
    readonly message: string;
}
export interface EstateProjection {
    readonly version: 1;
    readonly currency?: string;
    readonly assumptions: ProjectionAssumptions;
    /** Today, by look-through: each client's estate, joint, unassigned, outside and charity (the Estate view's totals). */
    readonly today: {
        readonly primaryClient: number;
        readonly coClient: number;
        readonly joint: number;
        readonly unassigned: number;
        readonly outside: number;
        readonly charity: number;
    };
    /** One per client who dies, in order: none when no client is living. */
    readonly deaths: readonly ProjectionDeath[];
    /** Who ends with what after the last death: people, trusts, charities, other heirs and the tax. */
    readonly recipients: readonly ProjectionRecipient[];
    /** Entities outside both estates (ILITs, SLATs, charities…) with their value: they pass under their own terms. */
    readonly outsideEstate: readonly ProjectionLine[];
    readonly warnings: readonly ProjectionWarning[];
    /** "An estimate, not tax advice." The view prints it; a host showing the figures should too. */
    readonly disclaimer: string;
}
/** The chart's four views of the household (flow: 0.3.0's estate flow at each death). */
export type ChartView = 'family' | 'structure' | 'estate' | 'flow';
/**
 * Your page's look, applied when the chart draws (the chart measures its text in your font). The
 * chart refuses a value outside these rules with appearance_invalid.
 */
export interface HouseholdChartAppearance {
    /** A CSS font-family list of names, e.g. "Inter, system-ui, sans-serif" (letters, digits, spaces, hyphens, quotes, commas). */
    readonly fontFamily?: string;
    /** #rgb or #rrggbb: selection marks, the selected tab and focus lines. */
    readonly accentColor?: string;
    /** CSS pixels, 0–24: the corners of cards and buttons. */
    readonly cornerRadius?: number;
}
/** What fetchToken returns: the `token` and `expiresAt` of a chart session minted by your server. */
export interface HouseholdChartToken {
    token: string;
    /** ISO 8601 date-time, as the API answers it. */
    expiresAt: string;
}
/** Errors the chart reports, and errors of the SDK itself. */
export type HouseholdChartErrorCode = 'token_invalid' | 'token_expired' | 'origin_mismatch' | 'version_unsupported' | 'payload_invalid' | 'appearance_invalid' | 'ready_timeout' | 'token_fetch_failed' | 'destroyed';
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
export type ChartEvent = {
    type: 'rendered';
    height: number;
} | {
    type: 'resize';
    height: number;
} | {
    type: 'select';
    id: string;
    kind: 'person' | 'entity';
} | {
    type: 'viewchange';
    view: ChartView;
} | {
    type: 'estate';
    projection: EstateProjection;
} | {
    type: 'error';
    code: HouseholdChartErrorCode;
    message: string;
    path?: string;
};
export interface MountHouseholdChartOptions {
    /** The element the iframe is appended to. */
    container: HTMLElement;
    /** The embed origin, a bare origin such as https://embed.hearth.example. */
    embedOrigin: string;
    /** The pinned chart release, x.y.z; default: the SDK's own version. Never "latest". */
    version?: string;
    /** The iframe's accessible name, e.g. "Household chart of the Chen family". */
    title: string;
    /** Asks your own server for a chart token; called at mount, before expiry (see the header), and on token_expired. */
    fetchToken: () => Promise<HouseholdChartToken>;
    payload: HouseholdChartPayload;
    /** Overrides payload.options.theme. */
    theme?: ChartTheme;
    /** Your font family, accent colour and corner radius; the chart's own when absent. */
    appearance?: HouseholdChartAppearance;
    onEvent?: (event: ChartEvent) => void;
    /** How long to wait for the chart's `ready` before reporting ready_timeout; default 15000. */
    readyTimeoutMs?: number;
}
export interface HouseholdChartHandle {
    /** The chart's iframe (for layout; do not post to it yourself). */
    readonly iframe: HTMLIFrameElement;
    /** Resolves when the chart has rendered once; rejects with a HouseholdChartError (see the header). */
    readonly ready: Promise<void>;
    /** Renders the new payload (with the held token, or a new one if it has expired or is about to). */
    update(payload: HouseholdChartPayload): void;
    /** Switches the theme without a new render once the chart has rendered. */
    setTheme(theme: ChartTheme): void;
    /** Shows the view (a viewchange event follows); before the first render, the chart opens on it. */
    setView(view: ChartView): void;
    /** Selects the person or entity `id` and brings it into view (a select event follows); an unknown id is ignored. */
    focus(id: string): void;
    /** Prints the chart's print layout (a title block, every view, the totals) through the browser's print dialog. */
    print(): void;
    /** Draws the chart again in this appearance, on the view shown; an invalid one is reported as appearance_invalid and not applied. */
    setAppearance(appearance: HouseholdChartAppearance): void;
    /** Removes the iframe, the message listener and the timers. Safe to call twice. */
    destroy(): void;
}
export declare class HouseholdChartError extends Error {
    readonly code: HouseholdChartErrorCode;
    /** For payload_invalid: the JSON Pointer of the first problem in the payload. */
    readonly path?: string;
    constructor(code: HouseholdChartErrorCode, message: string, path?: string);
}
export declare function mountHouseholdChart(options: MountHouseholdChartOptions): HouseholdChartHandle;
/** What the Flow view's controls choose; each overrides the payload's assumptions. */
export interface EstateProjectionChoices {
    /** The client who dies first. */
    readonly firstDeath?: string;
    readonly firstDeathYear?: number;
    readonly secondDeathYear?: number;
    /** What "this year" is when the payload names no year and no household.asOf; default: now. */
    readonly today?: Date;
}
/**
 * The chart's estate projection as a pure function (0.3.0): the same calculator the chart runs,
 * on a payload the chart would accept, so your page can show or test the figures without the iframe.
 * Nothing is sent anywhere. A payload the chart would refuse gives figures as best it can; validate
 * it against payload.schema.json first when you need certainty.
 */
export declare function projectEstate(payload: HouseholdChartPayload, choices?: EstateProjectionChoices): EstateProjection;
