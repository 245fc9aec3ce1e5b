// Chart protocol v1 (spec §6, DESIGN §4 "Chart protocol v1"): the window messages between the host
// page and this iframe, and the guards that read what the host sends. Nothing here holds a secret.
import type { Theme } from '../payload.ts'

export const PROTOCOLS = [1] as const
export const CAPABILITIES = ['rendered', 'resize', 'select', 'error', 'theme'] as const

export type ErrorCode =
  'token_invalid' | 'token_expired' | 'origin_mismatch' | 'version_unsupported' | 'payload_invalid'

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
export interface ErrorMessage {
  type: 'error'
  code: ErrorCode
  message: string
  /** JSON Pointer into the payload, for payload_invalid. */
  path?: string
}
export type ChartMessage = ReadyMessage | RenderedMessage | ResizeMessage | SelectMessage | ErrorMessage

// host → iframe, as read from `event.data`: fields are unchecked beyond the type, because each
// render check (version, token, payload) answers with its own error code.
export interface RenderRequest {
  type: 'render'
  v: unknown
  token: unknown
  payload: unknown
}
export interface ThemeRequest {
  type: 'theme'
  v: unknown
  theme: unknown
}
export type HostRequest = RenderRequest | ThemeRequest

const THEME_VALUES: readonly string[] = ['light', 'dark', 'system'] satisfies readonly Theme[]

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The host's request in `data`, or null for anything this chart does not know (ignored: forward compatible). */
export function readHostRequest(data: unknown): HostRequest | null {
  if (!isRecord(data)) return null
  if (data.type === 'render') return { type: 'render', v: data.v, token: data.token, payload: data.payload }
  if (data.type === 'theme') return { type: 'theme', v: data.v, theme: data.theme }
  return null
}

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && THEME_VALUES.includes(value)
}

export function readyMessage(): ReadyMessage {
  return { type: 'ready', protocols: [...PROTOCOLS], capabilities: [...CAPABILITIES] }
}

export function errorMessage(code: ErrorCode, message: string, path?: string): ErrorMessage {
  return path === undefined ? { type: 'error', code, message } : { type: 'error', code, message, path }
}
