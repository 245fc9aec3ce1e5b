// The name an exported chart is saved under: `<household name>-<view>-<YYYY-MM-DD>.<png|svg>`.
// The household name comes from a partner's records, so it may hold anything; it is made safe for
// the file systems people save to:
// - characters Windows, macOS or Linux refuse in a name (< > : " / \ | ? * and control characters)
//   become "_", a run of them one "_";
// - bidirectional controls (U+202E and kin) become "_" too: they can make "exe.png" display as
//   "gnp.exe" and hide what a file really is;
// - leading dots (a hidden file on Unix) and leading or trailing spaces, dots and underscores go;
// - the name is cut, between user-perceived characters, to a UTF-8 length that leaves the whole file
//   name under the 255-byte limit of ext4, APFS and NTFS;
// - a name left empty becomes "household".
// The date is the reader's calendar day (local time): the day they made the file.
import { graphemes } from '../text/graphemes.ts'

export type ExportView = 'family' | 'structure' | 'estate' | 'flow'
export type ExportFormat = 'png' | 'svg'

/** UTF-8 bytes the household part may take: 255 minus the longest tail, "-structure-YYYY-MM-DD.png" (25). */
export const MAX_NAME_BYTES = 200

const FALLBACK_NAME = 'household'
// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
const UNSAFE = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu
const EDGES = /^[\s._]+|[\s._]+$/gu

const utf8 = new TextEncoder()

/** The date as the reader's calendar shows it, YYYY-MM-DD. */
function calendarDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** As many whole grapheme clusters of `text` as fit in `maxBytes` of UTF-8. */
function cutToBytes(text: string, maxBytes: number): string {
  let kept = ''
  let bytes = 0
  for (const cluster of graphemes(text)) {
    bytes += utf8.encode(cluster).length
    if (bytes > maxBytes) break
    kept += cluster
  }
  return kept
}

/** The household name as a safe file-name part. */
export function safeFileNamePart(name: string): string {
  // toWellFormed: a lone surrogate cannot be written in UTF-8; it becomes U+FFFD, as an encoder would.
  const replaced = name.toWellFormed().normalize('NFC').replace(UNSAFE, '_').replace(/\s+/gu, ' ').replace(EDGES, '')
  const cut = cutToBytes(replaced, MAX_NAME_BYTES).replace(EDGES, '')
  return cut || FALLBACK_NAME
}

export function exportFileName(householdName: string, view: ExportView, date: Date, format: ExportFormat): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('exportFileName: the date is not a valid date')
  return `${safeFileNamePart(householdName)}-${view}-${calendarDate(date)}.${format}`
}
