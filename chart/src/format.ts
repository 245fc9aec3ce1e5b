// Text helpers shared by the layout (which runs in Node, without a DOM) and the renderer.
// Text is measured with a deterministic per-character model, deliberately on the wide side of
// common system-ui faces (DejaVu Sans, Segoe UI, SF), so a measured line always fits its box.
import type { Entity, EntityKind, EntityKind01, Person } from '../payload.ts'
import { ENTITY_KINDS, entityKindLabel } from '../../src/domain/estate-vocabulary.ts'

// Advance per ASCII character, in em.
const ASCII = new Float32Array(128).fill(0.7)
const set = (chars: string, w: number) => {
  for (let i = 0; i < chars.length; i++) ASCII[chars.charCodeAt(i)] = w
}
for (let c = 97; c < 123; c++) ASCII[c] = 0.61 // a-z
for (let c = 65; c < 91; c++) ASCII[c] = 0.74 // A-Z
for (let c = 48; c < 58; c++) ASCII[c] = 0.64 // 0-9
set(' ', 0.33)
set("iljI.,:;!|'`", 0.32)
set('frt()[]{}-/"', 0.44)
set('mwMW@%&', 0.96)

/** Estimated width of `s` at `size` user units; bold faces are ~8 % wider. */
export function textWidth(s: string, size: number, bold = false): number {
  let w = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 128) w += ASCII[c]!
    else if (c < 0x2000)
      w += 0.7 // other Latin, Greek, Cyrillic, punctuation
    else if (c >= 0xdc00 && c < 0xe000)
      continue // low surrogate: counted with its pair
    else w += 1.05 // CJK, symbols, emoji
  }
  return w * size * (bold ? 1.08 : 1)
}

/** `s` cut (with an ellipsis) to fit `max` units. */
export function fit(s: string, max: number, size: number, bold = false): string {
  const t = s.replace(/\s+/g, ' ').trim()
  if (textWidth(t, size, bold) <= max) return t
  const chars = Array.from(t)
  let w = textWidth('…', size, bold)
  let out = ''
  for (const ch of chars) {
    const cw = textWidth(ch, size, bold)
    if (w + cw > max) break
    w += cw
    out += ch
  }
  return out.trimEnd() + '…'
}

/** Wraps `s` into at most two lines of `max` units; the second is cut with an ellipsis. */
export function wrap2(s: string, max: number, size: number, bold = false): string[] {
  const t = s.replace(/\s+/g, ' ').trim()
  if (textWidth(t, size, bold) <= max) return [t]
  const words = t.split(' ')
  let first = ''
  let i = 0
  for (; i < words.length; i++) {
    const next = first ? first + ' ' + words[i] : (words[i] ?? '')
    if (textWidth(next, size, bold) > max) break
    first = next
  }
  if (!first) {
    // One long word: break it by characters.
    const chars = Array.from(t)
    let w = 0
    let j = 0
    for (; j < chars.length; j++) {
      const cw = textWidth(chars[j] ?? '', size, bold)
      if (w + cw > max) break
      w += cw
    }
    first = chars.slice(0, j).join('')
    return [first, fit(chars.slice(j).join(''), max, size, bold)]
  }
  return [first, fit(words.slice(i).join(' '), max, size, bold)]
}

/** The 0.1.x chart's words for its kinds (its layout's entity column; kept as they were). */
const KIND_LABEL_0_1: Record<EntityKind01, string> = {
  revocableTrust: 'Revocable trust',
  irrevocableTrust: 'Irrevocable trust',
  ilit: 'ILIT',
  slat: 'SLAT',
  grat: 'GRAT',
  crt: 'CRT',
  llc: 'LLC',
  flp: 'FLP',
  foundation: 'Foundation',
  daf: 'DAF',
  other: 'Other',
}

/** Every kind's word: 0.1.x's for its own kinds, the records' vocabulary's for the kinds 0.2.0 added. */
export const KIND_LABEL = Object.fromEntries(
  ENTITY_KINDS.map((kind) => [
    kind,
    Object.hasOwn(KIND_LABEL_0_1, kind) ? KIND_LABEL_0_1[kind as EntityKind01] : entityKindLabel(kind),
  ]),
) as Record<EntityKind, string>

export const ROLE_LABEL: Record<Person['role'], string> = {
  primaryClient: 'Client',
  coClient: 'Co-client',
  spouse: 'Spouse',
  child: 'Child',
  grandchild: 'Grandchild',
  greatGrandchild: 'Great-grandchild',
  parent: 'Parent',
  sibling: 'Sibling',
  inLaw: 'In-law',
  other: 'Other',
}

const IN_BY_DEFAULT = new Set<EntityKind>(['revocableTrust', 'llc', 'flp', 'other'])

/** Inside or outside the taxable estate: `estate` when given, else by kind (DESIGN §4). */
export function estateOf(e: Entity): 'in' | 'out' {
  return e.estate ?? (IN_BY_DEFAULT.has(e.kind) ? 'in' : 'out')
}

/**
 * A value rounded to three significant figures with a K/M/B/T suffix ("6.2M", "950K", "12.5M").
 * No currency symbol: the payload does not say which currency the household uses.
 */
export function compactValue(v: number): string {
  if (!Number.isFinite(v) || v < 0) return ''
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ]
  for (let i = 0; i < units.length; i++) {
    const [d, s] = units[i]!
    if (v >= d * 0.9995 || (i === units.length - 1 && v >= 999.5)) {
      const x = v / d
      const r = x >= 99.95 ? Math.round(x) : Math.round(x * 10) / 10
      if (r >= 1000 && i > 0) {
        const [d2, s2] = units[i - 1]!
        return trim(Math.round((v / d2) * 10) / 10) + s2
      }
      return trim(r) + s
    }
  }
  return trim(Math.round(v))
}

function trim(n: number): string {
  return String(n).replace(/\.0$/, '')
}

/** "33.3%" for 33.33, "40%" for 40. */
export function percent(share: number): string {
  return trim(Math.round(share * 10) / 10) + '%'
}

/** "1952–1989", "b. 1951", "d. 1989", or "" when no dates are known. */
export function lifeDates(p: Person): string {
  const b = p.birthDate?.slice(0, 4)
  const d = p.deathDate?.slice(0, 4)
  if (b && d) return `${b}–${d}`
  if (b) return `b. ${b}`
  if (d) return `d. ${d}`
  return ''
}

/** The words a screen reader or the text version uses for a person. */
export function personDescription(p: Person): string {
  const dates = lifeDates(p)
  return [
    p.name + (p.deathDate ? ' (deceased)' : ''),
    ROLE_LABEL[p.role],
    dates.replace('b. ', 'born ').replace('d. ', 'died '),
  ]
    .filter(Boolean)
    .join(', ')
}

export function entityDescription(e: Entity): string {
  const parts = [e.name, KIND_LABEL[e.kind]]
  if (e.value !== undefined) parts.push(`value ${compactValue(e.value)}`)
  parts.push(estateOf(e) === 'in' ? 'in estate' : 'out of estate')
  return parts.join(', ')
}
