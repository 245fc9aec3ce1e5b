/*!
 * Hearth household chart — partner SDK (protocol v1).
 *
 * Mounts the pinned, embedded household chart into a container on your page and speaks the
 * chart's postMessage protocol for you. One self-contained ES module with no dependencies: load it
 * from the embed origin, pinned to the same version as the chart it mounts.
 *
 * Usage (a page on an origin registered for your organization with `hearth origins add`):
 *
 *   import { mountHouseholdChart, HouseholdChartError } from 'https://embed.hearth.example/chart/v0.1.0/sdk.js'
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
 *     onEvent: (event) => {
 *       if (event.type === 'select') showDetails(event.id, event.kind)
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
 *   chart.destroy() // removes the iframe, its listener and its timers
 *
 * What it does:
 * - Creates the iframe per the mounting rules: sandbox exactly "allow-scripts allow-same-origin",
 *   src = `${embedOrigin}/chart/v${version}/index.html` (a pinned version; never "latest"),
 *   referrerpolicy "origin", your title, width 100 %, no border, loading eager. Styles are set
 *   through the CSSOM (iframe.style), so host pages with a strict style-src still work.
 * - Accepts a message only when its origin is the embed origin and its source is that iframe's
 *   window; everything else is ignored.
 * - Calls fetchToken as soon as it mounts (in parallel with the iframe loading); on the chart's
 *   `ready` posts `render {type: 'render', v: 1, token, payload}` to the embed origin.
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
 *   refreshing resumes from there. (A setTheme after the first render needs no token and does
 *   not count as a render.)
 * - When the chart answers `token_expired` (a token that aged, or a skewed clock) it fetches a
 *   new token and renders again — once: if the chart finds the new token expired too, that is
 *   reported through onEvent (no retry loop).
 * - A second mount into the same container destroys the first.
 *
 * Errors, always as onEvent({type: 'error', code, message, path?}):
 * - from the chart: token_invalid, token_expired (only when the retry did not help),
 *   origin_mismatch, version_unsupported, payload_invalid (with the JSON Pointer in `path`);
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
export type EntityKind = 'revocableTrust' | 'irrevocableTrust' | 'ilit' | 'slat' | 'grat' | 'crt' | 'llc' | 'flp' | 'foundation' | 'daf' | 'other';
export type LinkType = 'grantor' | 'trustee' | 'beneficiary' | 'owner';
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
}
export interface HouseholdChartRelationship {
    from: string;
    to: string;
    /** spouse, partner and exSpouse join two people side by side; parent means `from` is a parent of `to`. */
    type: RelationshipType;
}
export interface HouseholdChartEntity {
    id: string;
    name: string;
    kind: EntityKind;
    /** Value in the household's currency, shown rounded (0 to 1e13). */
    value?: number;
    /** Inside or outside the taxable estate; defaults by kind. */
    estate?: 'in' | 'out';
}
export interface HouseholdChartLink {
    /** The person or entity that is grantor, trustee, beneficiary or owner. */
    from: string;
    /** The entity. */
    to: string;
    type: LinkType;
    /** Percentage for beneficiaries and owners: 50 means 50 %. */
    share?: number;
}
export interface HouseholdChartPayload {
    household: {
        name: string;
    };
    people: HouseholdChartPerson[];
    relationships?: HouseholdChartRelationship[];
    entities?: HouseholdChartEntity[];
    links?: HouseholdChartLink[];
    options?: {
        theme?: ChartTheme;
    };
}
/** What fetchToken returns: the `token` and `expiresAt` of a chart session minted by your server. */
export interface HouseholdChartToken {
    token: string;
    /** ISO 8601 date-time, as the API answers it. */
    expiresAt: string;
}
/** Errors the chart reports, and errors of the SDK itself. */
export type HouseholdChartErrorCode = 'token_invalid' | 'token_expired' | 'origin_mismatch' | 'version_unsupported' | 'payload_invalid' | 'ready_timeout' | 'token_fetch_failed' | 'destroyed';
/**
 * What onEvent receives:
 * - rendered: the chart drew the payload; `height` is its full height in CSS pixels;
 * - resize: the chart's height changed (it grows and shrinks);
 * - select: the user selected a person or an entity (by pointer or keyboard);
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
