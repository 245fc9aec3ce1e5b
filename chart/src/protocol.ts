// Chart protocol v1 (spec §6, DESIGN §4 "Chart protocol v1"): the window messages between the host
// page and this iframe, and the guards that read what the host sends. Nothing here holds a secret.
//
// The core of v1, which every release speaks: the chart says `ready`; the host sends `render`
// {v: 1, token, payload}; the chart answers `rendered` {height} or `error` {code, message, path?},
// then `resize` {height} when its height changes and `select` {id, kind} when the reader selects a
// person or an entity.
//
// Extensions (the protocol stays v: 1; each is named in `ready`'s capabilities, and a chart that
// does not know one ignores it, so a host can send them to any release):
// - `theme` {v: 1, theme} (0.1.0): switches light, dark or system without a new render.
// - 0.2.0 host → chart, accepted like `theme` (only from the parent window, at the origin of the
//   accepted render, after it; anything else is ignored without an answer):
//   - `setView` {v: 1, view: 'family' | 'structure' | 'estate' (| 'flow' from 0.3.0)}: shows that view;
//   - `focus` {v: 1, id}: selects the person or entity `id` and brings it into view (an id the
//     household does not have is ignored; the selection is announced by `select` as usual);
//   - `print` {v: 1}: the chart builds its print layout (every view under a title block) and answers
//     `printdocument` to a host that declared it handles printing; to any other host it does nothing
//     (the contract's sandbox, without allow-modals, would block a print dialog in the iframe);
//   - `appearance` {v: 1, appearance}: the chart is drawn again from the same payload in that
//     appearance, on the view shown; one outside its rules is answered with `appearance_invalid`
//     and the chart stays as it was.
// - 0.2.0 `render` gains two optional fields:
//   - `appearance` {fontFamily?, accentColor?, cornerRadius?}, checked by views/appearance.ts; one
//     outside its rules is refused with `appearance_invalid`;
//   - `handles`: what the host page does for the chart, 'download' and/or 'print'. The contract
//     sandboxes the iframe with exactly `allow-scripts allow-same-origin`, so the chart may neither
//     start a download nor open a print dialog; it hands the file or the print document to a host
//     that handles them (views/host-handlers.ts), and shows no Download or Print control to one that
//     does not. Unknown names are ignored (a later release may add some); a value that is not an
//     array of strings reads as absent.
// - 0.2.0 chart → host, only to the origin of the accepted render:
//   - `viewchange` {view} whenever the view shown changes (by the reader or by setView);
//   - `download` {fileName, mediaType, data: Blob}: a PNG or SVG the reader asked for, to save;
//   - `printdocument` {title, html, css}: the print layout, to print from a frame of the host page.
// - 0.3.0 chart → host, only to the origin of the accepted render:
//   - `estate` {projection}: the estate projection (flow/projection-types.ts) the chart computed from
//     the payload, after each render and whenever the reader changes who dies first or a year in
//     the Flow view (a redraw for `appearance` keeps the reader's choices and posts none: the host
//     already holds that projection). The host sent the payload, so nothing it does not hold leaves
//     the frame.
//   - `setView` also takes 'flow'.
import type { Theme } from '../payload.ts'
import type { EstateProjection } from './flow/projection-types.ts'
import { VIEW_NAMES, type ViewName } from './views/view-types.ts'

const PROTOCOLS = [1] as const
const CAPABILITIES = [
  'rendered',
  'resize',
  'select',
  'error',
  'theme',
  'setView',
  'focus',
  'print',
  'viewchange',
  'appearance',
  'handles',
  'download',
  'printdocument',
  'estate',
] as const

export type ErrorCode =
  | 'token_invalid'
  | 'token_expired'
  | 'origin_mismatch'
  | 'version_unsupported'
  | 'payload_invalid'
  | 'appearance_invalid'

// iframe → host
export interface ReadyMessage {
  type: 'ready'
  protocols: readonly number[]
  capabilities: readonly string[]
}
export interface RenderedMessage {
  type: 'rendered'
  height: number
}
export interface ResizeMessage {
  type: 'resize'
  height: number
}
export interface SelectMessage {
  type: 'select'
  id: string
  kind: 'person' | 'entity'
}
export interface ViewChangeMessage {
  type: 'viewchange'
  view: ViewName
}
export interface ErrorMessage {
  type: 'error'
  code: ErrorCode
  message: string
  /** JSON Pointer into the payload, for payload_invalid. */
  path?: string
}
export interface DownloadMessage {
  type: 'download'
  fileName: string
  mediaType: string
  data: Blob
}
export interface PrintDocumentMessage {
  type: 'printdocument'
  title: string
  html: string
  css: string
}
export interface EstateMessage {
  type: 'estate'
  projection: EstateProjection
}
export type ChartMessage =
  | ReadyMessage
  | RenderedMessage
  | ResizeMessage
  | SelectMessage
  | ViewChangeMessage
  | DownloadMessage
  | PrintDocumentMessage
  | EstateMessage
  | ErrorMessage

// host → iframe, as read from `event.data`: fields are unchecked beyond the type, because each
// render check (version, token, payload, appearance) answers with its own error code, and the
// other requests are checked where they are handled.
export interface RenderRequest {
  type: 'render'
  v: unknown
  token: unknown
  payload: unknown
  appearance: unknown
  handles: unknown
}
export interface ThemeRequest {
  type: 'theme'
  v: unknown
  theme: unknown
}
export interface SetViewRequest {
  type: 'setView'
  v: unknown
  view: unknown
}
export interface FocusRequest {
  type: 'focus'
  v: unknown
  id: unknown
}
export interface PrintRequest {
  type: 'print'
  v: unknown
}
export interface AppearanceRequest {
  type: 'appearance'
  v: unknown
  appearance: unknown
}
/** The requests that act on a drawn chart: accepted only from the host that rendered it. */
export type ChartRequest = ThemeRequest | SetViewRequest | FocusRequest | PrintRequest | AppearanceRequest
export type HostRequest = RenderRequest | ChartRequest

/** What a host page can do for the chart (a render's `handles`). */
const HOST_HANDLES = ['download', 'print'] as const
export type HostHandle = (typeof HOST_HANDLES)[number]

const THEME_VALUES: readonly string[] = ['light', 'dark', 'system'] satisfies readonly Theme[]
const VIEW_VALUES: readonly string[] = VIEW_NAMES

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The host's request in `data`, or null for anything this chart does not know (ignored: forward compatible). */
export function readHostRequest(data: unknown): HostRequest | null {
  if (!isRecord(data)) return null
  switch (data.type) {
    case 'render':
      return {
        type: 'render',
        v: data.v,
        token: data.token,
        payload: data.payload,
        appearance: data.appearance,
        handles: data.handles,
      }
    case 'theme':
      return { type: 'theme', v: data.v, theme: data.theme }
    case 'setView':
      return { type: 'setView', v: data.v, view: data.view }
    case 'focus':
      return { type: 'focus', v: data.v, id: data.id }
    case 'print':
      return { type: 'print', v: data.v }
    case 'appearance':
      return { type: 'appearance', v: data.v, appearance: data.appearance }
    default:
      return null
  }
}

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && THEME_VALUES.includes(value)
}

export function isViewName(value: unknown): value is ViewName {
  return typeof value === 'string' && VIEW_VALUES.includes(value)
}

/**
 * What a render's `handles` says the host page does for the chart: the names this chart knows, from
 * an array of strings. Anything else (absent, not an array, an array holding a non-string) reads as
 * nothing handled, so the chart shows no control whose result would go nowhere.
 */
export function readHandles(value: unknown): ReadonlySet<HostHandle> {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return new Set()
  return new Set(HOST_HANDLES.filter((name) => value.includes(name)))
}

export function readyMessage(): ReadyMessage {
  return { type: 'ready', protocols: [...PROTOCOLS], capabilities: [...CAPABILITIES] }
}

export function errorMessage(code: ErrorCode, message: string, path?: string): ErrorMessage {
  return path === undefined ? { type: 'error', code, message } : { type: 'error', code, message, path }
}
