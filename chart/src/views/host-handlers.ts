// What the chart hands to its host page when it runs in the embed iframe. The contract (spec §4.4)
// sandboxes that iframe with exactly `allow-scripts allow-same-origin`: no allow-downloads, no
// allow-modals, so a file saved or a print dialog opened from inside it is blocked by the browser.
// The chart therefore makes the file or the print document itself, in the browser, and gives it to
// the host page, which saves or prints it (the 0.2.0 SDK does; a host declares it in the render's
// `handles`). Nothing here leaves the user's browser: the host already holds the household's data.

/** A file the chart made (a PNG or an SVG of a view), for the host page to save. */
export interface ExportedFile {
  /** The file name to save it under, e.g. "Whitfield household - family - 2026-11-24.png". */
  readonly fileName: string
  /** image/png or image/svg+xml. */
  readonly mediaType: string
  readonly data: Blob
}

/** The chart's print layout as a document of its own, for the host page to print. */
export interface PrintDocument {
  /** The document's title: the household's name (browsers offer it as the PDF's file name). */
  readonly title: string
  /** The print block's markup (the title block, every view, the totals table); no script. */
  readonly html: string
  /** The chart's stylesheet rules the markup needs, print rules included. */
  readonly css: string
}

/**
 * How downloads and printing leave the chart. In the embed iframe main.ts passes the handlers the
 * host declared (a control whose handler is missing is not shown, so a host that does not handle
 * it never gets a button that silently does nothing). A page that draws the chart itself (tests, a
 * top-level page) passes none, and the chart saves and prints in its own page.
 */
export interface HostHandlers {
  download?(file: ExportedFile): void
  print?(document: PrintDocument): void
}
