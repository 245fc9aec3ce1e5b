// The host's appearance options applied to the view shell at render time (appearance.ts reads and
// checks them). They go on the shell's host as CSS custom properties and a font family through the
// CSSOM (element.style.setProperty): the chart's CSP (style-src 'self') refuses style attributes
// written in markup, but not properties set by its own script. The stylesheets read them:
// --accent (styles.css's accent, in both themes: the selected tab, selection marks, focus lines) and
// --hv-radius (views.css: the buttons' and tabs' corners). The drawings take the font and the
// radius as arguments instead, because they measure text in that font and set corners as attributes.
import { DEFAULT_CORNER_RADIUS, DEFAULT_FONT_FAMILY, type Appearance } from './appearance.ts'

/** The custom property views.css rounds buttons and tabs with. */
const RADIUS_PROPERTY = '--hv-radius'
const ACCENT_PROPERTY = '--accent'

/** The font family text is drawn and measured in: the host's, else the chart's own. */
export function fontFamilyOf(appearance: Appearance): string {
  return appearance.fontFamily ?? DEFAULT_FONT_FAMILY
}

/** The corner radius of person cards and buttons, in CSS px. */
export function cornerRadiusOf(appearance: Appearance): number {
  return appearance.cornerRadius ?? DEFAULT_CORNER_RADIUS
}

/** Sets the appearance on `host`; the returned function takes it off again (the shell's destroy). */
export function applyAppearance(host: HTMLElement, appearance: Appearance): () => void {
  const set: string[] = []
  const setProperty = (name: string, value: string) => {
    host.style.setProperty(name, value)
    set.push(name)
  }
  if (appearance.fontFamily !== undefined) setProperty('font-family', appearance.fontFamily)
  if (appearance.accentColor !== undefined) setProperty(ACCENT_PROPERTY, appearance.accentColor)
  if (appearance.cornerRadius !== undefined) setProperty(RADIUS_PROPERTY, `${String(appearance.cornerRadius)}px`)
  return () => {
    for (const name of set) host.style.removeProperty(name)
  }
}
