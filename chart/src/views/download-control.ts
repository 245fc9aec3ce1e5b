// The head's Download PNG and Download SVG buttons: the view shown, as a file made in the browser
// (export/export-view.ts), given to `save` — the host page's download handler in the embed iframe
// (whose sandbox may not download), or a save in this page. An export that fails says so in a
// status line beside the buttons instead of failing silently.
import type { ExportFormat } from '../export/file-name.ts'
import type { EstateProjection } from '../flow/projection-types.ts'
import { exportView } from '../export/export-view.ts'
import { htmlElement } from './dom.ts'
import type { ExportedFile } from './host-handlers.ts'
import type { ViewHousehold, ViewName } from './view-types.ts'

export interface DownloadSource {
  readonly household: ViewHousehold
  readonly fontFamily: string
  /** The view shown now, and the panel it is drawn in. */
  current(): { view: ViewName; panel: HTMLElement }
  /** The Flow view's projection as drawn now (null when it could not be made). */
  estate(): EstateProjection | null
  save(file: ExportedFile): void
}

const FORMATS: readonly { format: ExportFormat; label: string }[] = [
  { format: 'png', label: 'Download PNG' },
  { format: 'svg', label: 'Download SVG' },
]

export function createDownloadControl(parent: Element, source: DownloadSource, signal: AbortSignal): void {
  const buttons = FORMATS.map(({ format, label }) => {
    const button = htmlElement('button', 'hc-btn hv-action hv-download', parent, label)
    button.type = 'button'
    return { format, label, button }
  })
  const status = htmlElement('p', 'hv-download-status', parent)
  status.setAttribute('role', 'status')
  // One export at a time: a second click while a PNG is drawn would make a second file. (Not
  // `disabled`: a disabled button drops the keyboard focus of the reader who pressed it.)
  let busy = false
  for (const { format, label, button } of buttons) {
    button.addEventListener(
      'click',
      () => {
        if (busy) return
        busy = true
        const { view, panel } = source.current()
        status.textContent = ''
        exportView(view, format, panel, source.household, source.fontFamily, source.estate())
          .then((file) => source.save(file))
          .catch((error: unknown) => {
            status.textContent = `${label} failed: ${error instanceof Error ? error.message : String(error)}`
          })
          .finally(() => {
            busy = false
          })
      },
      { signal },
    )
  }
}
