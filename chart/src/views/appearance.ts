// The host's appearance options for the 0.2.0 chart (issue 15 item 6, after Stripe Connect's
// `appearance`): a font family, an accent colour and a corner radius, applied when the chart draws
// (the font is the one text is measured in, so it cannot change behind the layout's back).
//
// The values come from a partner's page, so each is checked against a narrow shape before it goes
// near CSS: a font family is a list of names (letters, digits, spaces, hyphens, quotes, commas; no
// url(), no semicolon, no braces), a colour is #rgb or #rrggbb, a radius is a number of CSS pixels
// in [0, 24]. A value outside its shape is a problem the chart reports; nothing is applied half.

export interface Appearance {
  /** A CSS font-family list, e.g. "Inter, system-ui, sans-serif". */
  readonly fontFamily?: string
  /** #rgb or #rrggbb: selection marks, the selected tab and focus lines. */
  readonly accentColor?: string
  /** CSS pixels, 0–24: the corners of cards and buttons. */
  readonly cornerRadius?: number
}

export type AppearanceReading = { ok: true; appearance: Appearance } | { ok: false; message: string }

export const DEFAULT_FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
export const DEFAULT_CORNER_RADIUS = 6
const MAX_CORNER_RADIUS = 24
const MAX_FONT_FAMILY_LENGTH = 200

const FONT_FAMILY = /^[\p{L}\p{N} ,'"_-]+$/u
const COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const KEYS: ReadonlySet<string> = new Set(['fontFamily', 'accentColor', 'cornerRadius'])

/** Reads an appearance object as a host sent it; undefined reads as no options. */
export function readAppearance(value: unknown): AppearanceReading {
  if (value === undefined) return { ok: true, appearance: {} }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'appearance: give an object with fontFamily, accentColor and/or cornerRadius.' }
  const record = value as Record<string, unknown>
  const unknown = Object.keys(record).find((key) => !KEYS.has(key))
  if (unknown !== undefined)
    return {
      ok: false,
      message: `appearance.${unknown}: not an appearance option; use fontFamily, accentColor or cornerRadius.`,
    }
  const appearance: { fontFamily?: string; accentColor?: string; cornerRadius?: number } = {}
  const { fontFamily, accentColor, cornerRadius } = record
  if (fontFamily !== undefined) {
    if (
      typeof fontFamily !== 'string' ||
      fontFamily.trim() === '' ||
      fontFamily.length > MAX_FONT_FAMILY_LENGTH ||
      !FONT_FAMILY.test(fontFamily)
    )
      return {
        ok: false,
        message: `appearance.fontFamily: give a font-family list of at most ${MAX_FONT_FAMILY_LENGTH} characters, names separated by commas (letters, digits, spaces, hyphens and quotes only).`,
      }
    appearance.fontFamily = fontFamily.trim()
  }
  if (accentColor !== undefined) {
    if (typeof accentColor !== 'string' || !COLOUR.test(accentColor))
      return { ok: false, message: 'appearance.accentColor: give a colour as #rgb or #rrggbb, e.g. "#0a6e5c".' }
    appearance.accentColor = accentColor
  }
  if (cornerRadius !== undefined) {
    if (
      typeof cornerRadius !== 'number' ||
      !Number.isFinite(cornerRadius) ||
      cornerRadius < 0 ||
      cornerRadius > MAX_CORNER_RADIUS
    )
      return {
        ok: false,
        message: `appearance.cornerRadius: give a number of CSS pixels from 0 to ${MAX_CORNER_RADIUS}.`,
      }
    appearance.cornerRadius = cornerRadius
  }
  return { ok: true, appearance }
}
