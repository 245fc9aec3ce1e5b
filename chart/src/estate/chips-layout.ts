// Fits chip groups into a few lines of a given width. A chip is a name and maybe a share; the name
// may be cut (with "…"), the share never is: when even a cut name does not fit, that chip and every
// one after it fold into "+N more", so a share is shown whole or counted, never shown wrong.
// Widths come from the caller's measure, applied to whole lines (a real font's kerning is not
// additive, so lines are never summed from pieces).
import type { ShareRef } from './summary-roles.ts'

export interface ChipGroup {
  /** Written before the group's first chip ("contingent: "); '' for none. Each group starts a line. */
  readonly prefix: string
  readonly chips: readonly ShareRef[]
}

export interface ShownChip {
  readonly chip: ShareRef
  /** As drawn: the name, maybe cut, then the whole share. */
  readonly text: string
}

export interface ChipLayout {
  readonly lines: readonly string[]
  readonly shown: readonly ShownChip[]
  /** The chips "+N more" stands for (N = hidden.length), in order. */
  readonly hidden: readonly ShareRef[]
}

const CHIP_SEPARATOR = ' · '

export function moreText(count: number): string {
  return `+${count} more`
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

function chipText(chip: ShareRef, name = chip.label): string {
  return chip.shareText === undefined ? name : `${name} ${chip.shareText}`
}

/**
 * The chip as it fits between `lead` and `suffix` within `width`: whole, else with its name cut to
 * as many characters (at least one) as fit, else undefined.
 */
function fittedChip(chip: ShareRef, lead: string, suffix: string, fits: (line: string) => boolean): string | undefined {
  const whole = chipText(chip)
  if (fits(lead + whole + suffix)) return whole
  const chars = Array.from(graphemes.segment(chip.label), (s) => s.segment)
  for (let kept = chars.length - 1; kept >= 1; kept--) {
    const cut = chipText(chip, chars.slice(0, kept).join('').trimEnd() + '…')
    if (fits(lead + cut + suffix)) return cut
  }
  return undefined
}

interface Queued {
  readonly chip: ShareRef
  /** The group's prefix on a group's first chip, which starts a line. */
  readonly groupPrefix?: string
}

/** The line being filled: its text so far, and whether a chip is on it yet (else only its prefix). */
interface OpenLine {
  readonly text: string
  readonly hasChip: boolean
}

/** What the next chip on `line` is written after. */
function leadOf(line: OpenLine): string {
  return line.hasChip ? line.text + CHIP_SEPARATOR : line.text
}

export function layoutChips(
  groups: readonly ChipGroup[],
  width: number,
  measure: (text: string) => number,
  maxLines: number,
): ChipLayout {
  const fits = (text: string) => measure(text) <= width
  const queue: Queued[] = groups.flatMap((g) =>
    g.chips.map((chip, i) => (i === 0 ? { chip, groupPrefix: g.prefix } : { chip })),
  )
  const lines: string[] = []
  const shown: ShownChip[] = []
  let open: OpenLine | undefined
  let next = 0

  while (next < queue.length) {
    const { chip, groupPrefix } = queue[next]!
    if (groupPrefix !== undefined || open === undefined) {
      if (lines.length + (open === undefined ? 0 : 1) >= maxLines) break
      if (open !== undefined) lines.push(open.text)
      open = { text: groupPrefix ?? '', hasChip: false }
    }
    const lead = leadOf(open)
    let text: string | undefined
    if (lines.length + 1 < maxLines) {
      if (open.hasChip && !fits(lead + chipText(chip))) {
        // Not whole after the others: it starts the next line, where it is cut only if it must be.
        lines.push(open.text)
        open = undefined
        continue
      }
      text = fittedChip(chip, lead, '', fits)
    } else {
      // The last line: the chips after this one must fit whole, or leave room for "+N more".
      const rest = queue.slice(next)
      const laterGroup = rest.slice(1).some((q) => q.groupPrefix !== undefined)
      const all = rest.map((q) => chipText(q.chip))
      if (!laterGroup && fits(lead + all.join(CHIP_SEPARATOR))) {
        rest.forEach((q, i) => shown.push({ chip: q.chip, text: all[i]! }))
        open = { text: lead + all.join(CHIP_SEPARATOR), hasChip: true }
        next = queue.length
        break
      }
      const after = rest.length - 1
      text = fittedChip(chip, lead, after > 0 ? CHIP_SEPARATOR + moreText(after) : '', fits)
    }
    if (text === undefined) break
    shown.push({ chip, text })
    open = { text: lead + text, hasChip: true }
    next++
  }

  const hidden = queue.slice(next).map((q) => q.chip)
  if (hidden.length > 0) open = withMore(lines, open, moreText(hidden.length), fits, maxLines)
  if (open !== undefined && open.text !== '') lines.push(open.text)
  return { lines, shown, hidden }
}

/** The open line with "+N more" after its chips, or "+N more" on a line of its own if only that fits. */
function withMore(
  lines: string[],
  open: OpenLine | undefined,
  more: string,
  fits: (text: string) => boolean,
  maxLines: number,
): OpenLine | undefined {
  if (open !== undefined) {
    if (fits(leadOf(open) + more)) return { text: leadOf(open) + more, hasChip: true }
    // Only a group's prefix, with no chip after it: the count alone says more.
    if (!open.hasChip) return fits(more) ? { text: more, hasChip: true } : undefined
  }
  if (lines.length + (open === undefined ? 0 : 1) < maxLines && fits(more)) {
    if (open !== undefined) lines.push(open.text)
    return { text: more, hasChip: true }
  }
  return open
}
