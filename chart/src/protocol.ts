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
//   - `setView` {v: 1, view: 'family' | 'structure' | 'estate'}: shows that view;
//   - `focus` {v: 1, id}: selects the person or entity `id` and brings it into view (an id the
//     household does not have is ignored; the selection is announced by `select` as usual);
//   - `print` {v: 1}: the chart prints itself (every view under a title block; the browser's print
//     dialog needs allow-modals in the iframe's sandbox, which the 0.2.0 SDK sets).
// - 0.2.0 `render` gains an optional `appearance` {fontFamily?, accentColor?, cornerRadius?},
//   checked by views/appearance.ts; one outside its rules is refused with `appearance_invalid`.
// - 0.2.0 chart → host: `viewchange` {view} whenever the view shown changes (by the reader or by
//   setView).
import type { Theme } from '../payload.ts'
import { VIEW_NAMES, type ViewName } from './views/view-types.ts'

export const PROTOCOLS = [1] as const
export const CAPABILITIES = [
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
export type ChartMessage =
  | ReadyMessage
  | RenderedMessage
  | ResizeMessage
  | SelectMessage
  | ViewChangeMessage
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
/** The requests that act on a drawn chart: accepted only from the host that rendered it. */
export type ChartRequest = ThemeRequest | SetViewRequest | FocusRequest | PrintRequest
export type HostRequest = RenderRequest | ChartRequest

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
      return { type: 'render', v: data.v, token: data.token, payload: data.payload, appearance: data.appearance }
    case 'theme':
      return { type: 'theme', v: data.v, theme: data.theme }
    case 'setView':
      return { type: 'setView', v: data.v, view: data.view }
    case 'focus':
      return { type: 'focus', v: data.v, id: data.id }
    case 'print':
      return { type: 'print', v: data.v }
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

export function readyMessage(): ReadyMessage {
  return { type: 'ready', protocols: [...PROTOCOLS], capabilities: [...CAPABILITIES] }
}

export function errorMessage(code: ErrorCode, message: string, path?: string): ErrorMessage {
  return path === undefined ? { type: 'error', code, message } : { type: 'error', code, message, path }
}
